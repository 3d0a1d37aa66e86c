"""Attacks on the code merged in the fourth break-it session: a press after its time (R8.5,
R7.5), the deal that frees busted seats (R8.2, R8.3), decimal commas in /settings. In-memory
store, a hand-moved clock, timers fired by ``run_due``; scenarios end with the ledger
checked."""

from __future__ import annotations

import pytest

from bot.model import Actor
from bot.presses import Claim, Continue, decode
from bot.service import bots
from bot.service.chinese import CLAIM_SECONDS
from bot.texts import tr
from game.board import Box
from game.cards import Card
from game.policy import Level, SeatKnowledge
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import _chinese_arranged_with_a_bot
from tests.bot.test_service_classic import ALICE, BOB, CAROL, GROUP, configure, play_hand, start
from tests.bot.test_settings import BORIS, say, stored
from tests.bot.test_settings import new_service as new_settings_service


def _claim_button(presenter, claim: bool) -> str:  # type: ignore[no-untyped-def]
    """The data of the table message's Claim (or Continue) button (R7.5)."""
    wanted = Claim if claim else Continue
    for b in presenter.last_table(GROUP.chat_id).all_buttons():
        if b.data and isinstance(decode(b.data), wanted):
            return str(b.data)
    raise AssertionError("no claim button")


async def test_r7_5_a_claim_pressed_after_the_claim_time_ran_out_is_too_late(env) -> None:  # type: ignore[no-untyped-def]
    """R7.5: the bottom boxes put Alice past a 1-point target; she is offered Claim or
    Continue for 30 s. She presses Claim when the 30 s are over, before the table's timer
    fired (a loaded bot, a timer a moment late): the claim time is over, so the reveal goes
    on as the timer makes it go on and the press is answered "too late". (The claim was
    taken: the game ended without the remaining boxes, kush settled on a claim made after
    its time, which the timer a moment earlier would have refused.)"""
    service, presenter, store, clock = env
    await configure(service, target_points="1")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.reveal is not None and t.reveal["claim"] is not None
    assert t.reveal["claim"]["seats"] == [0] and t.seats[0].user_id == ALICE.user_id
    stage = t.reveal["stage"]
    button = _claim_button(presenter, claim=True)
    clock.now += CLAIM_SECONDS
    reply = await service.press(ALICE, button)
    assert reply.alert and reply.text == tr("en", "err.claim_late")
    # the reveal goes on after its pause, as the timer had it go on (nobody claimed in time)
    assert t.reveal is not None and t.reveal["claim"] is None and t.reveal["stage"] == stage
    assert t.reveal["at"] == clock.now + t.options.reveal_pause_seconds
    assert t.chinese is not None and t.chinese.claimed_by is None
    while t.reveal is not None:
        clock.now = service.rt.next_deadline(t) or clock.now
        await service.run_due()
    # the game to 1 point is over once every box was revealed, nobody claiming it
    assert t.last_result is not None and t.last_result["chinese"]["claimed_by"] is None
    assert t.last_result["revealed"] == 3
    assert await check_store(store) == []


async def test_r7_5_a_claim_one_second_before_the_claim_time_runs_out_counts(env) -> None:  # type: ignore[no-untyped-def]
    """R7.5: pressed with a second of the claim time left, Claim ends the game at once."""
    service, presenter, store, clock = env
    await configure(service, target_points="1")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.reveal is not None and t.reveal["claim"] is not None
    clock.now += CLAIM_SECONDS - 1
    reply = await service.press(ALICE, _claim_button(presenter, claim=True))
    assert not reply.alert and reply.text == tr("en", "reply.claimed")
    assert t.last_result is not None and t.last_result["chinese"]["claimed_by"] == 0
    assert t.last_result["chinese"]["over"] is True
    assert await check_store(store) == []


@pytest.mark.parametrize("value", ["0,000", "-0,000", "+00,000"])
@pytest.mark.parametrize("actor", [ALICE, BORIS], ids=["en", "ru"])
async def test_a_comma_before_three_zeros_after_zero_is_zero_either_way(
    actor: Actor, value: str
) -> None:
    """Written "0,000" is zero read either way, as a thousands separator or a decimal comma: the
    setting takes 0. (It was asked again: "Is “0,000” 0 or 0? Write 0, or 0 for the
    fraction.")"""
    service, store = new_settings_service()
    reply = await say(service, "utc_offset", "3", actor=actor)
    assert not reply.alert, reply.text
    reply = await say(service, "utc_offset", value, actor=actor)
    assert not reply.alert, reply.text
    assert (await stored(store)).utc_offset == 0.0


def _raise(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
    raise RuntimeError("the decision process failed")


async def test_r7_7_a_computer_player_that_cannot_decide_does_not_end_the_chinese_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Chinese Poker to 51 points with a computer player whose decision fails: its cards are
    set by the timeout rule (R8.5: its board counts as fouled this hand, R7.7), but the game
    goes on: R7.7 ends a game when a player's time runs out (an absent player would hold it
    for good), and a computer player was at the table all along. (The game ended after the
    first hand and was settled on its points, every time its decision failed.)"""
    monkeypatch.setattr(bots, "decide", _raise)
    store, clock = MemoryStore(), Clock()
    service, t = await _chinese_arranged_with_a_bot(store, clock)
    for _ in range(40):  # the bot's cards are set for it, the reveal plays out
        if t.hand_no == 1 and t.hand is None and t.reveal is None:
            break
        clock.now = t.bot_due if t.bot_due is not None else clock.now + 4
        await service.run_due()
    assert t.hand is None and t.reveal is None and t.last_result is not None
    anna = next(s for s in t.seats.values() if s.bot)
    assert [r["timed_out"] for r in t.last_result["seats"] if r["seat"] == anna.seat] == [True]
    assert t.chinese is not None and not t.chinese.over and t.chinese.hands == 1
    assert not anna.sitting_out
    assert await check_store(store) == []


@pytest.mark.parametrize(
    ("actor", "shown"),
    [(ALICE, "from -12 to 14"), (BORIS, "(дробное — через запятую или точку: 7,5)")],
)
async def test_a_fractional_range_is_written_as_the_admin_writes_fractions(
    actor: Actor, shown: str
) -> None:
    """A refused ``level_minutes`` names its range: in Russian with a decimal comma, as the
    same sentence's example ("дробное — через запятую или точку: 7,5") and the question
    about "1,500" ("или 1,5") write a fraction. (It read "от 0.05 до 240".)"""
    service, store = new_settings_service()
    before = await stored(store)
    reply = await say(service, "utc_offset", "15", actor=actor)
    assert reply.alert and shown in reply.text, reply.text
    assert await stored(store) == before


async def test_r7_5_a_claim_pressed_by_a_member_not_at_the_table_says_who_may_claim(env) -> None:  # type: ignore[no-untyped-def]
    """R7.5: Carol, watching the group, presses the Claim button of the table's message while
    Alice is offered the claim: told that only a player who reached the target may claim,
    and nothing changes. (She was told "This button is out of date", of a current button.)"""
    service, presenter, store, _clock = env
    await configure(service, target_points="1")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.reveal is not None and t.reveal["claim"] is not None
    for claim in (True, False):
        reply = await service.press(CAROL, _claim_button(presenter, claim))
        assert reply.alert and reply.text == tr("en", "err.not_claimant")
    assert t.reveal is not None and t.reveal["claim"] is not None
    assert t.reveal["claim"]["continued"] == []
    reply = await service.press(ALICE, _claim_button(presenter, claim=True))
    assert not reply.alert and reply.text == tr("en", "reply.claimed")
    assert await check_store(store) == []
