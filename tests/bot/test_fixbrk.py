"""Replies a break-it session on Discord and Telegram found confusing (fixbrk)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.model import LiveTable
from bot.presses import StartTournament, decode
from bot.service.settings import refusal_text
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_break4 import _claim_button
from tests.bot.test_service import ALICE, BOB, GROUP, play_out, seated
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import GROUP as C_GROUP
from tests.bot.test_service_classic import configure, play_hand, start
from tests.bot.test_tournament_service import configure as tour_configure
from tests.bot.test_tournament_service import new_service as tour_service
from tests.bot.test_tournament_service import open_and_register


async def test_r8_2a_a_second_close_mid_hand_answers_the_admin_alone(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2a: a second admin close while the table already closes at the end of the hand
    is answered to that admin alone (a refusal: ephemeral on Discord) and writes nothing to
    the group: the table message is not written again, no notice posted."""
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    first = await service.close_table(GROUP, ALICE, True)
    assert first.text == tr("en", "reply.closes_after_hand_fl", table=t.id) and not first.alert
    writes, posts, version = presenter.writes, list(presenter.posts), t.version
    again = await service.close_table(GROUP, BOB, True)  # Bob reads Russian
    assert again.alert
    assert again.text == (
        f"Стол #{t.id} и так закроется в конце этой раздачи; тогда стеки вернутся на балансы."
    )
    assert (presenter.writes, presenter.posts, t.version) == (writes, posts, version)
    assert t.closing and t.hand is not None
    await play_out(service, presenter, [ALICE, BOB])  # the hand's end still closes it
    assert service.table_in(GROUP) is None


@pytest.mark.parametrize("delay", [0.0, 30.0], ids=["dealt_at_once", "between_hands"])
async def test_r7_5_a_claim_after_the_game_was_claimed_says_so(delay: float) -> None:
    """R7.5: Alice claims the game; her second Claim press (a double click), and Bob's press
    of the same message's Claim, are told the game is already claimed, not that the button
    is out of date, between hands and once the next hand is dealt; nothing changes."""
    service, presenter, store, clock = service_env(next_hand_delay=delay)
    await configure(service, target_points="1")
    await start(service, [C_ALICE, C_BOB], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None
    await play_hand(service, presenter, [C_ALICE, C_BOB])
    assert t.reveal is not None and t.reveal["claim"]["seats"] == [0]
    button = _claim_button(presenter, claim=True)
    hand_no = t.hand_no
    reply = await service.press(C_ALICE, button)
    assert not reply.alert and reply.text == tr("en", "reply.claimed")
    again = await service.press(C_ALICE, button)
    assert again.alert and again.text == "Already claimed: the game is over."
    bob = await service.press(C_BOB, button)
    assert bob.alert and bob.text == "Already claimed: the game is over."
    assert tr("ru", "err.already_claimed") == "Игра уже закончена."
    assert (t.hand is None) == (delay > 0)
    clock.now += delay
    await service.run_due()  # the next hand dealt
    assert t.hand is not None and t.hand_no == hand_no + 1
    later = await service.press(C_ALICE, button)
    assert later.alert and later.text == tr("en", "err.already_claimed")
    assert t.last_result is not None and t.last_result["chinese"]["claimed_by"] == 0
    assert await check_store(store) == []


async def test_r7_5_a_stale_claim_of_an_unclaimed_game_is_still_out_of_date(env) -> None:  # type: ignore[no-untyped-def]
    """R7.5: the claim time ran out and the reveal went on to the game's end, nobody
    claiming: the old Claim button is out of date (no claim to speak of)."""
    service, presenter, _store, clock = env
    await configure(service, target_points="1")
    await start(service, [C_ALICE, C_BOB], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None
    await play_hand(service, presenter, [C_ALICE, C_BOB])
    button = _claim_button(presenter, claim=True)
    while t.reveal is not None:
        clock.now = service.rt.next_deadline(t) or clock.now + 1
        await service.run_due()
    assert t.last_result is not None and t.last_result["chinese"]["claimed_by"] is None
    reply = await service.press(C_ALICE, button)
    assert reply.alert and reply.text == tr("en", "err.stale")


@pytest.mark.parametrize("label", ["10 000", "1000", "1.5", "10\u00a0000", "(100)", "١٠٠"])
async def test_r8_1_a_kush_label_of_digits_alone_is_refused(label: str) -> None:
    """R8.1: a kush label made only of digits (spaces and separators between them) read
    every amount as two numbers ("1000 10 000 on the balance"): refused with why, in the
    admin's language; the label stays as it was."""
    service, _presenter, store, _clock = service_env()
    for actor, lang in ((ALICE, "en"), (BOB, "ru")):
        reply = await service.settings(GROUP, actor, True, ["kush_label", label])
        assert reply.alert, reply.text
        said = refusal_text(lang, tr(lang, "settings.label_digits"))
        assert reply.text == said + (
            "" if said.endswith((".", "!", "?")) else "."
        )  # (a refusal's end)
        assert reply.text.startswith(("Cannot set that", "Не удалось изменить")), reply.text
    assert "no digits" in tr("en", "settings.label_digits")
    assert "без цифр" in tr("ru", "settings.label_digits")
    community = await store.community("telegram", "-100")
    assert community.settings.kush_label == "kush"  # the default, unchanged


@pytest.mark.parametrize("label", ["1 kush = 10 ₽", "100₽", "$1", "x10", "🪙 1"])
async def test_r8_1_a_kush_label_with_digits_and_a_word_or_sign_is_refused(label: str) -> None:
    """Kept before, it garbled every amount: "Buy-in 500 1 kush = 10 ₽" (fixnu6a)."""
    service, _presenter, store, _clock = service_env()
    reply = await service.settings(GROUP, ALICE, True, ["kush_label", label])
    assert reply.alert and "a short unit with no digits" in reply.text, reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.kush_label == "kush"


async def test_r8_1_a_digits_label_stored_before_still_reads() -> None:
    """A label of digits saved before the refusal keeps working: read and shown as saved,
    and another setting can still be changed."""
    service, _presenter, store, _clock = service_env()
    community = await store.community("telegram", "-100")
    await store.change_settings(community.id, lambda s: replace(s, kush_label="10 000"))
    reply = await service.settings(GROUP, ALICE, True, ["hand_seconds", "60"])
    assert not reply.alert, reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.kush_label == "10 000"
    assert service.rt.kush_label(community) == "10 000"
    balance = await service.balance(GROUP, ALICE)
    assert "10 000" in balance.text, balance.text


async def test_r8_7_the_level_change_writes_the_board_once() -> None:
    """R8.7: a tournament's board said "next level in 0:03" until the next move, though the
    level was in force: when the level changes the timer writes the group's message once
    (during a hand: "level 2 from the next hand"), and not again until the next level."""
    service, presenter, store, clock = tour_service(next_hand_delay=5)
    await tour_configure(service, level_minutes="1", hand_seconds="600")
    await open_and_register(service, (ALICE, BOB))
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    start_button = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if b.data and isinstance(decode(b.data), StartTournament)
    )
    reply = await service.press(ALICE, start_button, GROUP)
    assert not reply.alert, reply.text
    assert t.hand is not None and t.level_shown == 1
    clock.now += 57
    await service.run_due()  # nothing due: nothing written
    writes = presenter.writes
    before = presenter.last_table(GROUP.chat_id).text
    assert "next level in 1:00" in before  # (written at the start, not since)
    assert service.rt.next_deadline(t) == t.tournament.started_at + 60
    clock.now += 3  # level 2 is in force
    await service.run_due()
    assert presenter.writes == writes + 1
    shown = presenter.last_table(GROUP.chat_id).text
    assert tr("en", "tour.status_pending", level=1, cpp=10, next_level=2) in shown, shown
    assert t.level_shown == 2 and t.hand is not None
    assert LiveTable.from_json(t.to_json(), 0.0).level_shown == 2  # (kept over a restart)
    clock.now += 30
    await service.run_due()
    assert presenter.writes == writes + 1  # once a level
    assert service.rt.next_deadline(t) == t.tournament.started_at + 120
    assert await check_store(store) == []
