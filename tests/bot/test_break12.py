"""Twelfth break session: computer players and the table timers (issue 13, R8.2, R8.2a)
driven by a hostile or confused group."""

from __future__ import annotations

import dataclasses

from bot.model import LiveTable, SeatState
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock, run_until_dealt
from tests.bot.fakes import FakePresenter
from tests.bot.test_bots import alice_and_a_bot, play_hand_with_bots
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_transitions import player_balance


async def test_r8_2_a_computer_player_no_top_up_can_lift_stands_up_not_spinning() -> None:
    """A computer player busted (R8.2) at a point of 200 while a Fantasyland hand is due (the
    new options wait for the match's end, R6.6) when admins bring the point, the buy-in and
    ``max_buy_in`` down to 1 (the maximum applies at once): its top-up, capped by the new
    maximum, cannot lift it to the old point. It was queued again at every deal's try and
    refused at every one, "top-up not made" posted to the group each time (with the timers
    on, at once and for good) and no hand ever dealt; it stands up instead, as a person who
    cannot take the top-up is at the next deal."""
    service, presenter, store, clock = await alice_and_a_bot(point=200)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    # the admins change them during the hand (after it, the top-up it queues is made at once,
    # R8.2, before any change: Runtime.overdue_first)
    for name in ("kush_per_point", "min_buy_in", "max_buy_in"):
        reply = await service.settings(GROUP, ALICE, True, [name, "1"])
        assert not reply.alert, reply.text
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    assert t.hand is None and anna.stack == 0 and anna.top_up == 200, anna  # (queued: R8.2)
    # the hand earned it Fantasyland (as tests/bot/test_bots.py deals one): the match goes on
    t.match = dataclasses.replace(t.match, fantasyland={anna.seat: 14}, match_over=False)
    # (with that Fantasyland due when the hand ended, the new point and buy-in had waited:
    # they apply at a hand's end only when the match is over, R6.6)
    t.pending_options, t.options = t.options, dataclasses.replace(t.options, kush_per_point=200)
    t.pending_buy_in, t.min_buy_in = t.min_buy_in, 200
    assert t.options.kush_per_point == 200 and t.min_buy_in == 200  # (both wait)
    posts = len(presenter.posts)
    for _ in range(6):
        clock.now += 6
        await service.run_due()
    said = [text for _, text in presenter.posts[posts:]]
    assert t.seat_of("bot:anna") is None, said  # it stood up (it sat there for good)
    gone = tr("en", "bot.removed", name="🤖 Anna")
    assert [text.endswith(gone) for text in said] == [False, True], said  # (cut, then gone)
    assert said[1].startswith(tr("en", "lobby.topup_not_needed", name="🤖 Anna", amount=200,
                                 label="kush", max=1)), said  # fmt: skip
    assert t.hand is None and list(t.seats) == [1] and not t.match.fantasyland  # (with it)
    assert await player_balance(store, ALICE) == 800  # a member's balance never touched
    assert await check_store(store) == []


async def bot_in_fantasyland_heads_up() -> tuple[
    TableService, FakePresenter, MemoryStore, Clock, LiveTable, SeatState
]:
    """Alice and a computer player at 1 kush a point play a hand that earns the computer
    player Fantasyland (set as tests/bot/test_bots.py deals one): the match goes on (R6.6).
    Returns the service, presenter, store, clock, the table and the computer player's seat."""
    service, presenter, store, clock = await alice_and_a_bot(point=1)
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    t.match = dataclasses.replace(t.match, fantasyland={anna.seat: 14}, match_over=False)
    return service, presenter, store, clock, t, anna


async def bob_sits_down_and_is_dealt(service: TableService, clock: Clock, t: LiveTable) -> None:
    """Bob joins and presses Ready; the timers run until a hand is dealt (a few seconds)."""
    assert not (await service.join(GROUP, BOB)).alert
    assert not (await service.ready(GROUP, BOB)).alert
    await run_until_dealt(service, clock, t)


async def test_r6_6_a_fantasyland_nobody_is_left_to_play_holds_back_no_settings() -> None:
    """A computer player earns Fantasyland heads-up and the only person at the table leaves:
    the Fantasyland hand can never be dealt (a newcomer waits for the next match, R6.6), yet
    the match counted as going on, so a new point an admin set then waited for its end: the
    answer said "applies from the next hand", and Bob, sitting down next, played his first
    hand, a new match, at the old point of 1 kush instead of 10."""
    service, _, store, _, t, _ = await bot_in_fantasyland_heads_up()
    assert not (await service.leave(GROUP, ALICE)).alert
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "10"])
    assert reply.text.startswith(
        tr("en", "reply.settings_saved", what="kush_per_point = 10 (was 1)")
    )
    assert tr("en", "settings.next_match") not in reply.text, reply.text  # (nothing waits)
    assert t.options.kush_per_point == 10 and t.pending_options is None
    assert not (await service.join(GROUP, BOB)).alert
    assert not (await service.ready(GROUP, BOB)).alert
    assert t.hand is not None and t.hand_no == 2 and t.options.kush_per_point == 10
    assert t.plan is not None and t.plan.new_match and not t.plan.fantasyland
    assert await check_store(store) == []


async def test_r6_6_a_fantasyland_its_players_sit_out_of_ends_the_match_at_the_deal() -> None:
    """As above, the person heads-up with a computer player that earned Fantasyland sits out
    instead of leaving (R8.6: seat and stack kept), and an admin sets a new point: it waits
    for the match's end (she may come back and play the Fantasyland hand). Bob sits down
    instead: the Fantasyland hand cannot be dealt (a newcomer waits for the next match), so
    the match is over at that deal: the new point applies to the new match and the group is
    told the Fantasyland was not played (it was dealt at the old point, the Fantasyland
    dropped unsaid)."""
    service, presenter, store, clock, t, anna = await bot_in_fantasyland_heads_up()
    assert not (await service.sit_out(GROUP, ALICE)).alert
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "10"])
    assert tr("en", "settings.next_match") in reply.text, reply.text  # (she may be back)
    assert t.options.kush_per_point == 1 and t.pending_options is not None
    posts = len(presenter.posts)
    await bob_sits_down_and_is_dealt(service, clock, t)
    assert t.hand is not None and t.hand_no == 2 and t.options.kush_per_point == 10
    assert t.plan is not None and t.plan.new_match and not t.plan.fantasyland
    assert sorted(t.plan.seats) == sorted([anna.seat, t.seat_of(BOB.user_id).seat])
    said = [text for _, text in presenter.posts[posts:]]
    lost = tr("en", "lobby.fl_not_dealt", names="🤖 Anna")
    assert sum(lost in text for text in said) == 1, said
    assert await check_store(store) == []


async def test_r8_5_a_match_ended_by_a_fantasyland_not_dealt_refills_the_banks() -> None:
    """``time_bank_refill_per_match`` gives the players of a match bank seconds back when it
    ends (R8.5): at the showdown that ends it, and as well when it ends at the deal, its
    Fantasyland hand not dealt (R6.6; no hand closed it, so nobody's bank was refilled)."""
    service, _, _, clock, t, anna = await bot_in_fantasyland_heads_up()
    t.options = dataclasses.replace(t.options, time_bank_refill_per_match=10.0)
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and t.options.time_bank_seconds == 60
    alice.bank, anna.bank = 20.0, 55.0
    assert not (await service.sit_out(GROUP, ALICE)).alert
    await bob_sits_down_and_is_dealt(service, clock, t)
    assert t.hand is not None and t.plan is not None and t.plan.new_match
    assert (alice.bank, anna.bank) == (30.0, 60.0)  # (up to time_bank_seconds, R8.5)
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.bank == 60.0  # (a newcomer's own, untouched)
