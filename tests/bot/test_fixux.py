"""Small player-facing fixes found by new-user runs: what ``/closetable`` says of the
stacks (R8.2a); games named in Russian or in full (``/rules ананас``); the sandbox's own
lines in the player's language; ..."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.model import Actor
from bot.sandbox import Sandbox, SandboxOptions
from bot.service.settings import GAME_NAMES, PLAYABLE_GAMES, game_named
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE as ANN  # (English, in the group FRIENDS)
from tests.bot.test_service import BOB as BORIS  # (Russian, in the group FRIENDS)
from tests.bot.test_service import GROUP as FRIENDS
from tests.bot.test_service_classic import ALICE, BOB, GROUP, play_hand, start
from tests.bot.test_settings import new_service
from tests.bot.test_transitions import player_balance_in

OLGA = Actor("telegram", "5", "Olga", "ru")


async def test_r8_2a_closetable_says_the_stacks_went_back_to_the_balances() -> None:
    """``/closetable`` with two players bought in: the admin is told the table is closed
    and the stacks are back in the balances (in the admin's language); the table message
    keeps the shared "is closed." that stale presses are answered with."""
    service, presenter, store, _ = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "ofc")
    await play_hand(service, presenter, [ALICE, BOB])
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and alice.stack > 0
    before = await player_balance_in(store, GROUP, ALICE)
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.stack > 0
    stacks = (alice.stack, bob.stack)
    reply = await service.close_table(GROUP, ALICE, True)
    # each stack, as a leaver's notice says it ("the stacks are back in the players'
    # balances" left them asking how much, fixnu3)
    assert reply.text == (
        "Table #1 is closed; stacks returned to balances: "
        f"Alice {stacks[0]} kush, Bob {stacks[1]} kush."
    )
    assert presenter.last_table(GROUP.chat_id).text == "Table #1 is closed."
    assert await player_balance_in(store, GROUP, ALICE) == before + alice.stack
    assert await check_store(store) == []


async def test_r8_2a_closetable_in_russian_says_the_stacks_went_back() -> None:
    service, presenter, _, _ = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "ofc")
    await play_hand(service, presenter, [ALICE, BOB])
    t = service.table_in(GROUP)
    assert t is not None
    a, b = (t.seat_of(x.user_id) for x in (ALICE, BOB))
    assert a is not None and b is not None
    stacks = (a.stack, b.stack)
    reply = await service.close_table(GROUP, OLGA, True)
    assert reply.text.startswith("Стол #1 закрыт; стеки возвращены на балансы: ")
    assert re.fullmatch(
        rf"Стол #1 закрыт; стеки возвращены на балансы: Alice {stacks[0]} куш\w*, "
        rf"Bob {stacks[1]} куш\w*\.",
        reply.text,
    ), reply.text


async def test_r8_2a_closetable_with_no_stack_at_the_table_names_none() -> None:
    """Nobody bought in (an empty table, or a player seated without Ready): no stack went
    anywhere, and the answer says only that the table is closed."""
    service, _, _, _ = service_env()
    assert "open" in (await service.new_table(GROUP, ALICE, "ofc")).text
    assert not (await service.join(GROUP, BOB)).alert
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == "Table #1 is closed."


@pytest.mark.parametrize(
    ("typed", "title"),
    [
        ("ананас", "Ананас:"),
        ("Пайнэпл", "Ананас:"),
        ("классика", "Классический OFC:"),
        ("Классический  OFC", "Классический OFC:"),
        ("китайский", "Китайский покер:"),
        ("китайский покер", "Китайский покер:"),
    ],
)
async def test_rules_take_a_games_russian_name(typed: str, title: str) -> None:
    """``/rules ананас`` was "Unknown game «ананас». Games: pineapple, ofc, chinese.": the
    Russian names of the three games (R3, R4), and their full names, name them."""
    service, _ = new_service()
    reply = await service.rules(FRIENDS, BORIS, typed)
    assert not reply.alert and reply.text.startswith(title), reply.text


async def test_rules_and_newtable_take_english_full_names() -> None:
    service, _ = new_service()
    reply = await service.rules(FRIENDS, ANN, "Chinese Poker")
    assert reply.text.startswith("Chinese Poker:"), reply.text
    reply = await service.rules(FRIENDS, ANN, "classic")
    assert reply.text.startswith("Classic OFC:"), reply.text
    assert (await service.new_table(FRIENDS, BORIS, "китайский")).text == "Стол #1 открыт."
    t = service.table_in(FRIENDS)
    assert t is not None and t.options.game.value == "chinese"


async def test_an_unknown_game_lists_the_names_in_the_players_language() -> None:
    service, _ = new_service()
    reply = await service.rules(FRIENDS, BORIS, "покер")
    assert reply.alert and reply.text == (
        "Неизвестная игра «покер». Игры: pineapple (ананас), ofc (классический), "
        "chinese (китайский)."
    )
    reply = await service.rules(FRIENDS, ANN, "poker")
    assert reply.text == "Unknown game “poker”. Games: pineapple, ofc, chinese."
    reply = await service.new_table(FRIENDS, BORIS, "ананас классика")
    assert reply.text == (
        "Формат: /newtable [игра]. Игры: pineapple (ананас), ofc (классический), "
        "chinese (китайский)."
    )
    assert service.table_in(FRIENDS) is None


def test_the_games_listed_are_the_playable_ones_and_each_name_listed_names_one() -> None:
    assert tr("en", "games.names") == ", ".join(g.value for g in PLAYABLE_GAMES)
    for part in tr("ru", "games.names").split(", "):
        code, russian = part.removesuffix(")").split(" (")
        assert game_named(code) == code and game_named(russian) == code, part
    assert set(GAME_NAMES.values()) == set(PLAYABLE_GAMES)


@pytest.mark.parametrize(
    ("lang", "group", "private"),
    [
        ("en", "── group · Sandbox ", "── private · Player "),
        ("ru", "── группа · Песочница ", "── личный чат · Игрок "),
    ],
)
async def test_the_sandboxs_message_headings_are_in_the_players_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, group: str, private: str
) -> None:
    """Under ``--lang ru`` the heading printed above each bot message ("── group · Sandbox
    ───", "── private · Игрок ───") stayed English."""
    monkeypatch.delenv("USER", raising=False)  # (the player is "Player" in their language)
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0, lang=lang), out)
    try:
        await box.start()
        assert await box.handle("/hand")
        await box.print_changes()
        headings = [x for x in out.getvalue().splitlines() if x.startswith("── ")]
        assert headings and {h.rstrip("─") for h in headings} == {group, private}, headings
    finally:
        await box.stop()


async def test_stats_with_one_word_neither_a_player_nor_a_period_lists_the_periods() -> None:
    """``/stats year`` answered "No such player here: year." and who has statistics, never
    which periods ``/stats`` takes; one word that names nobody here now lists them too (EN
    and RU). A mention (``@bob``) and a name of several words keep the plain hint."""
    service, presenter, _, _ = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "ofc")
    await play_hand(service, presenter, [ALICE, BOB])
    reply = await service.stats(GROUP, ALICE, ["quarter"])  # ("year": a period it has not)
    assert reply.alert and reply.text == (
        "No such player here: quarter.\nOnly those who played here have statistics. "
        "/stats alone: this group and you; a period: week, month or all."
    )
    reply = await service.stats(GROUP, OLGA, ["квартал"])
    assert reply.alert and reply.text == (
        "Здесь нет такого игрока: квартал.\nСтатистика есть только у тех, кто играл здесь. "
        "/stats без имени — группа и вы; период: неделя (week), месяц (month) или всё (all)."
    )
    hint = "\n" + tr("en", "stats.unknown_hint")
    reply = await service.stats(GROUP, ALICE, ["@zed"])
    assert reply.text == "No such player here: @zed." + hint
    reply = await service.stats(GROUP, ALICE, ["Zed", "Zedson"])
    assert reply.text == "No such player here: Zed Zedson." + hint
    # every period named there is one /stats takes, in either language
    reply = await service.stats(GROUP, OLGA, ["неделя"])
    assert not reply.alert and reply.text.startswith("📊 Classic · за 7 дней\n")
    assert not (await service.stats(GROUP, ALICE, ["month"])).alert


async def test_settings_game_takes_a_games_russian_or_full_name() -> None:
    """``/settings game ананас`` was refused as no choice of ``game``: it reads a game as
    ``/newtable`` does (EN and RU answers)."""
    service, _ = new_service()
    reply = await service.settings(FRIENDS, BORIS, True, ["game", "китайский"])
    assert (
        reply.text.splitlines()[0]
        == "Сохранено: игра = chinese — Китайский покер (было pineapple)."
    ), reply.text
    reply = await service.settings(FRIENDS, ANN, True, ["game", "Classic", "OFC"])
    assert reply.text.splitlines()[0] == "Saved: game = ofc (was chinese).", reply.text
    reply = await service.settings(FRIENDS, ANN, True, ["game", "poker"])
    assert reply.alert and "pineapple" in reply.text, reply.text
