"""Break-it (brk35) of /back said during the hand whose moves the clock made (R8.6,
``SeatState.back_early``): the sit-out a timeout sets is made after the current *match*, a
Fantasyland hand an opponent earned played first, so /back said during the hand must cancel
it at the match's end too, not only at the hand's."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated
from tests.bot.test_transitions import (
    ALICE_PLAN,
    alice_earns_fantasyland,
    play_fantasyland_hand,
    play_street_by_plan,
    stacked_table,
)


async def test_r8_6_back_during_the_timed_out_hand_holds_when_it_earns_fantasyland() -> None:
    """R8.6: Bob's clock runs out on his first street of the hand where Alice makes
    Fantasyland; his screen says "/back to play again" and he sends /back at once ("Welcome
    back: you play the next hand too"). The hand's end did not sit him out (the match goes
    on), but the sit-out his timeout set for the match's end stayed, and he sat out after the
    Fantasyland hand all the same."""
    store, clock, service, presenter, t = await stacked_table()
    hand = t.hand
    assert hand is not None
    said = False
    while t.hand is hand:
        seat = hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            await play_street_by_plan(service, presenter, seat, ALICE, ALICE_PLAN)
        else:
            clock.now += 181  # the budget (120 s) and the bank (60 s) run out
            await service.run_due()
            if not said and t.hand is hand:
                reply = await service.back(GROUP, BOB)
                assert reply.text == tr("ru", "reply.back_before_sit_out_hand"), reply.text
                said = True
    assert said
    assert t.match is not None and t.match.fantasyland == {0: 14}  # Alice earned it
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.sitting_out
    # his "Hand over" promises no sit-out: he said /back
    assert presenter.last_private(BOB.user_id).text == tr("ru", "private.over", table=t.id, hand=1)
    assert t.match.sit_out_after_match == frozenset()
    await play_fantasyland_hand(service, presenter, clock, t)
    assert not bob.sitting_out and not bob.timed_out
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 3 and len(t.hand.order) == 2  # Bob dealt in
    assert await check_store(store) == []


async def test_r8_6_back_during_a_timed_out_fantasyland_hand_cancels_that_sit_out_too() -> None:
    """R8.6: Bob times out in hand 1 (Alice earns Fantasyland) and again in the Fantasyland
    hand; he sends /back during it. The answer, "you will not sit out after this match", took
    back hand 1's sit-out only: hand 2's timeout was added when it ended, and he sat out."""
    store, clock, service, presenter, t = await stacked_table()
    hand = t.hand
    assert hand is not None
    while t.hand is hand:
        seat = hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            await play_street_by_plan(service, presenter, seat, ALICE, ALICE_PLAN)
        else:
            clock.now += 181
            await service.run_due()
    assert t.match is not None and t.match.fantasyland == {0: 14}
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
    said = False
    while t.hand is not None and t.hand_no == 2:
        owner = t.owner(t.hand.to_act[0])
        if t.seats[owner].user_id == ALICE.user_id:
            await press_auto_and_confirm(service, presenter, ALICE)
        else:
            clock.now += 181
            await service.run_due()
            if not said and t.hand is not None and t.hand_no == 2:
                reply = await service.back(GROUP, BOB)
                assert not reply.alert, reply.text
                said = True
    assert said
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.sitting_out, "sat out after saying /back"
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 3 and len(t.hand.order) == 2  # Bob dealt in
    assert await check_store(store) == []


async def test_r8_6_sitout_then_back_during_the_timed_out_hand_keeps_the_player_in() -> None:
    """R8.6: the sleeper's clock runs out on street 1; they send /sitout during the hand (it
    sits them out at once, the seat kept) and then /back ("You are back"). The hand's end sat
    them out all the same: /back from a sit-out of their own did not take back the one the
    timeout set, as /back alone does."""
    service, presenter, _store, clock = service_env()
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    sleeper = t.seats[t.hand.to_act[0]]
    sleeper_actor = ALICE if sleeper.user_id == ALICE.user_id else BOB
    awake = BOB if sleeper_actor is ALICE else ALICE
    clock.now += 181  # the budget and the bank run out on street 1
    await service.run_due()
    assert t.hand is not None and t.hand_no == 1 and t.timed_out_now(sleeper)
    assert not (await service.sit_out(GROUP, sleeper_actor)).alert
    assert sleeper.sitting_out
    reply = await service.back(GROUP, sleeper_actor)
    assert not reply.alert, reply.text
    assert not sleeper.sitting_out
    while t.hand is not None and t.hand_no == 1:
        if t.seats[t.hand.to_act[0]] is sleeper:
            clock.now += 1
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, awake)
    assert not sleeper.sitting_out and not sleeper.timed_out and not sleeper.back_early
    clock.now += 60
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and sleeper.seat in t.hand.order


async def test_r8_6_sitout_then_back_before_the_fantasyland_hand_cancels_its_sit_out() -> None:
    """R8.6: Bob times out in the hand Alice makes Fantasyland in (he sits out after the
    Fantasyland hand); before its deal he sends /sitout, then /back ("You are back"): he
    played the Fantasyland hand and sat out after it all the same (/back alone cancels it)."""
    store, clock, service, presenter, t = await alice_earns_fantasyland(bob_times_out=True)
    assert t.match is not None and t.match.sit_out_after_match
    assert not (await service.sit_out(GROUP, BOB)).alert
    reply = await service.back(GROUP, BOB)
    assert not reply.alert, reply.text
    assert t.match.sit_out_after_match == frozenset()
    await play_fantasyland_hand(service, presenter, clock, t)
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.sitting_out
    assert await check_store(store) == []
