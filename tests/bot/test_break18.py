"""Eighteenth break session: a chat that changes under the bot (a Telegram group upgraded to a
supergroup while commands typed in it are still on their way) and an admin who types
nonsense, end to end through the real python-telegram-bot and the fake Bot API."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.service.numbers import read_fraction, read_whole
from bot.service.settings import SETTINGS
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE as ANNA
from tests.bot.test_service import BOB as BORIS
from tests.bot.test_service import GROUP
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.test_tournament_e2e import actions_of, tournament_message
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, World, world

NEW_GROUP = -100779  # the supergroup GROUP_ID becomes


async def typed_in(w: World, user: Any, chat_id: int, text: str) -> str:
    """``user`` types ``text`` in ``chat_id``; the bot's answer, wherever it was posted (a
    group's answer is posted in its supergroup once it moved)."""
    start = len(w.fake.calls)
    await w.fake.send_text(user, chat_id, text)

    def answer() -> str | None:
        for c in w.fake.calls[start:]:
            if c.method == "sendMessage" and c.result is not None:
                text = str(c.params["text"])
                if int(c.params["chat_id"]) == NEW_GROUP and not text.startswith("🃏"):
                    return text  # (the answer, not the table message posted there)
        return None

    found: str = await w.fake.wait_for(answer)
    await w.settle()
    return found


def communities(db: Path) -> list[tuple[int, str]]:
    """Every community row (id, external id) the store holds."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, external_id FROM communities ORDER BY id").fetchall()
    return [(int(i), str(e)) for i, e in rows]


async def test_r8_2a_commands_typed_in_the_group_as_it_was_upgraded_act_in_the_supergroup(
    tmp_path: Path,
) -> None:
    """The group is upgraded mid-hand (both service messages reach the bot, the table moves).
    Commands typed in the group just before the upgrade, handled after the bot heard of it
    (updates are handled concurrently), read the old group's id: Bob's /balance showed a fresh
    1000 (his 200 at the table nowhere), Carol's /join "No open table here", Alice's (an admin)
    /settings "Only group admins", and /newtable opened table #2 in the dead group. Worse, the
    answer to the first of them, refused with ``migrate_to_chat_id``, moved the empty
    community those commands had opened over the group's: every wallet and setting gone.
    They act on the supergroup's table, wallets and settings; no community is opened."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, db=db) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        w.fake.admins[GROUP_ID] = {ALICE.id}
        w.fake.admins[NEW_GROUP] = {ALICE.id}  # (admins stay admins of the supergroup)
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert communities(db) == [(1, str(GROUP_ID))]
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP)
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        await w.settle()
        assert await typed_in(w, BOB, GROUP_ID, "/balance") == (
            "Bob: 800 кушей на балансе, 200 на столе."
        )
        assert (await typed_in(w, CAROL, GROUP_ID, "/join")).startswith(
            "You sit at seat 3. You play from the next hand: press Ready to buy in within "
        )
        assert t.seat_of(str(CAROL.id)) is not None
        said = await typed_in(w, ALICE, GROUP_ID, "/settings hand_seconds 30")
        assert said.startswith("Saved: hand_seconds = 30 (was 120)."), said
        said = await typed_in(w, ALICE, GROUP_ID, "/newtable")
        assert said.startswith("This chat already has an open table (#1)."), said
        assert [(x.id, x.chat_id) for x in w.service.tables.values()] == [(1, str(NEW_GROUP))]
        assert communities(db) == [(1, str(NEW_GROUP))]
        community = await w.store.community("telegram", str(NEW_GROUP))
        assert community.settings.options == {"hand_seconds": 30.0}
        assert await check_store(w.store) == []


async def test_r8_2a_an_admin_command_typed_as_the_group_is_upgraded_is_an_admin_s(
    tmp_path: Path,
) -> None:
    """Alice, an admin, types /settings and /grant in the group as it is upgraded; the bot
    hears of it only from the refusal of its admin check (``getChatMember`` answered with
    ``migrate_to_chat_id``): she was told "Only group admins can do that." (the check's
    failure read as "not an admin"). She is asked about in the supergroup, and the change
    and the grant are made there, where the table moved."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, db=db) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.admins[GROUP_ID] = {ALICE.id}
        w.fake.admins[NEW_GROUP] = {ALICE.id}
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
        said = await typed_in(w, ALICE, GROUP_ID, "/settings hand_seconds 30")
        assert said.startswith("Saved: hand_seconds = 30 (was 120)."), said
        assert t.chat_id == str(NEW_GROUP)
        assert await typed_in(w, ALICE, GROUP_ID, "/grant @bob 5") == "Bob: +5 kush, balance 805."
        assert communities(db) == [(1, str(NEW_GROUP))]
        community = await w.store.community("telegram", str(NEW_GROUP))
        assert community.settings.options == {"hand_seconds": 30.0}
        assert await check_store(w.store) == []


@pytest.mark.parametrize(
    ("typed", "first", "second"),
    [
        ("min_buy_in 100 max_buy_in 500", "min_buy_in 100", "max_buy_in 500"),
        ("hand_seconds 30 hand_seconds 40", "hand_seconds 30", "hand_seconds 40"),
        ("game chinese LANGUAGE ru", "game chinese", "language ru"),
        ("payouts 50,50 chips_schedule 10,20", "payouts 50,50", "chips_schedule 10,20"),
    ],
)
async def test_two_settings_in_one_command_are_asked_one_at_a_time(
    typed: str, first: str, second: str
) -> None:
    """``/settings min_buy_in 100 max_buy_in 500``: the rest was read as min_buy_in's value
    and refused with its range ("from 1 to 1,000,000,000,000", which 100 is in) and how to
    write digits; ``hand_seconds 30 hand_seconds 40`` with the range alone. The admin is
    told to set one at a time, naming both as typed, in either language; nothing is saved."""
    service, _presenter, store, _clock = service_env()
    before = (await store.community("telegram", "-100")).settings
    for actor, lang in ((ANNA, "en"), (BORIS, "ru")):
        reply = await service.settings(GROUP, actor, True, typed.split())
        assert reply.alert
        # (named as the reader's language names the settings: «взнос 100» in Russian)
        words = first, second
        if lang == "ru":
            words = tuple(" ".join([SETTINGS[w.split()[0]].ru_name, *w.split()[1:]]) for w in words)
        said = tr(lang, "reply.settings_one_at_a_time", first=words[0], second=words[1])
        assert reply.text == said, reply.text
    assert tr("en", "reply.settings_one_at_a_time", first=first, second=second) == (
        f"One setting at a time: {first}, then {second}. Nothing was changed."
    )
    assert (await store.community("telegram", "-100")).settings == before


async def test_a_label_that_holds_a_setting_s_name_is_a_label() -> None:
    """A kush label is text: a word of it that is a setting's name ("game") is no second
    setting."""
    service, _presenter, store, _clock = service_env()
    reply = await service.settings(GROUP, ANNA, True, ["kush_label", "game", "chips"])
    assert not reply.alert, reply.text
    assert (await store.community("telegram", "-100")).settings.kush_label == "game chips"


async def test_a_member_made_admin_a_moment_ago_sees_the_settings(tmp_path: Path) -> None:
    """Bob, a member, types /settings: "Only group admins". The owner makes him an admin; his
    /settings was refused again for a minute (the "no" was cached 60 s; a change, asked
    afresh, went through meanwhile). A "no" is asked again: he sees the settings, buttons
    and all, at once."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        reply = await w.say(BOB, "/settings")
        assert reply["text"] == tr("ru", "reply.admins_only"), reply
        w.fake.admins[GROUP_ID] = {ALICE.id, BOB.id}
        reply = await w.say(BOB, "/settings all")
        listed = "⚙ Настройки группы\nИгра: Ананас (OFC)"  # (the game by its name)
        assert reply["text"].startswith(listed), reply["text"]
        assert w.fake.buttons(reply)


async def test_r8_2a_an_upgrade_whose_move_failed_is_moved_by_its_second_message(
    tmp_path: Path,
) -> None:
    """The upgrade's first service message finds storage failing: the move is not made. Its
    second one (the supergroup's ``migrate_from_chat_id``) makes it: the table, wallets and
    settings are the supergroup's (a move is followed once per upgrade: a failed one was never
    tried again)."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, db=db) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        presenter = w.adapter.presenter
        real = presenter.on_migrated
        assert real is not None
        tries: list[tuple[str, str]] = []

        async def failing_once(old: str, new: str) -> object:
            tries.append((old, new))
            if len(tries) == 1:
                raise RuntimeError("storage is down")
            assert real is not None
            return await real(old, new)

        presenter.on_migrated = failing_once
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP)
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        assert tries == [(str(GROUP_ID), str(NEW_GROUP))] * 2
        assert communities(db) == [(1, str(NEW_GROUP))]
        assert await typed_in(w, BOB, NEW_GROUP, "/balance") == (
            "Bob: 800 кушей на балансе, 200 на столе."
        )


async def test_r8_7_an_admin_s_start_pressed_as_the_group_is_upgraded_does_not_hang(
    tmp_path: Path,
) -> None:
    """Alice opens a tournament, Alice and Carol register; Bob, an admin, presses Start in the
    group as it is upgraded (his admin check, asked while the press holds the table, is
    refused with ``migrate_to_chat_id``). The check asks the supergroup and the move follows
    in the background: the press is answered (the tournament starts) and the table moves."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        w.fake.admins[GROUP_ID] = {BOB.id}
        w.fake.admins[NEW_GROUP] = {BOB.id}
        await w.say(ALICE, "/tournament pineapple")
        for user in (ALICE, CAROL):
            lobby = tournament_message(w)
            answer = await w.press(user, GROUP_ID, lobby, actions_of(w.fake, lobby)["g"])
            assert not answer.get("show_alert"), answer
        t = next(iter(w.service.tables.values()))
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
        lobby = tournament_message(w)
        answer = await w.press(BOB, GROUP_ID, lobby, actions_of(w.fake, lobby)["o"])
        assert not answer.get("show_alert"), answer
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP) and t.hand is not None)
        assert t.tournament is not None and t.hand_no == 1


@pytest.mark.parametrize(
    "typed",
    [
        ["hand_seconds", "30\u200b"],  # a zero-width space copied with the value
        ["hand_seconds\u200b", "30"],
        ["\ufeffhand_seconds", "30"],  # a byte-order mark
        ["hand_seconds", "\u200e30"],  # a left-to-right mark
    ],
)
async def test_a_setting_copied_with_an_invisible_character_is_saved(typed: list[str]) -> None:
    """A name or value pasted with a zero-width space (or a joiner, a direction mark) was
    refused: "“hand_seconds” is not a setting. Did you mean hand_seconds?" (the character
    shows nothing) or "takes a number of seconds from 1 to 3,600" for 30. Invisible format
    characters are no part of a name or a number: it is saved."""
    service, _presenter, store, _clock = service_env()
    reply = await service.settings(GROUP, ANNA, True, typed)
    assert reply.text.startswith("Saved: hand_seconds = 30 (was 120)."), reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.options == {"hand_seconds": 30.0}


def test_numbers_are_read_without_invisible_format_characters() -> None:
    """An amount (/grant, /topup, a whole-number setting) or a fraction pasted with a zero-width
    space or a direction mark reads as the number it shows."""
    assert read_whole("100\u200b") == 100
    assert read_whole("\u2060-50") == -50  # (a word joiner)
    assert read_fraction("7,5\u200e") == "7.5"
    assert read_whole("1\u200b000") == 1000  # (shows as 1000)
    assert read_whole("١٠٠") is None  # other digits stay refused


async def test_a_username_pasted_with_an_invisible_character_names_the_player(
    tmp_path: Path,
) -> None:
    """``/grant @bob\\u200b 5`` (the username copied with a zero-width space) answered "No such
    player here: @bob", and Bob was there; so did /stats. It is Bob."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")
        reply = await w.say(ALICE, "/grant @bob\u200b 5")
        assert reply["text"] == "Bob: +5 kush, balance 1,005.", reply["text"]
        reply = await w.say(ALICE, "/stats @bob\u200b")
        assert "No such player" not in reply["text"], reply["text"]
