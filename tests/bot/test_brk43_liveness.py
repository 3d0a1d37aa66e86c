"""brk43: liveness (R8.5–R8.7) broken on purpose: players who are at the table but slow,
clocks, timers. In-memory store, a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from bot.service.showdown import ABANDONED_HANDS
from storage.check import check_store
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm
from tests.bot.test_tournament_service import configure, new_service, two_started
from tests.bot.test_transitions import player_balance


async def test_r8_7_players_who_play_a_street_of_every_hand_are_not_abandoned() -> None:
    """Alice and Bob play a heads-up Pineapple tournament and are there: each places the
    first street of every hand, then lets the clock make the rest (R8.5, R8.7: a player
    away has their hands placed for them until they act again). Each hand has a street of
    each made on timeout, and the tournament was stopped after ABANDONED_HANDS hands as one
    "nobody played", every buy-in back, the chips they had won gone. A hand in which a
    player made a move is not an abandoned one: the tournament goes on."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    # (long levels, deep stacks: nobody is knocked out by the hands played here)
    await configure(
        service, tournament_buy_in="100", level_minutes="240", tournament_chips="100000"
    )
    t = await two_started(service, presenter, "pineapple")
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    for _ in range(ABANDONED_HANDS + 1):
        hand, played = t.hand, set()
        assert hand is not None
        while t.hand is hand and played != set(by_id):  # each plays their first street
            seat = t.seats[t.owner(hand.to_act[0])]
            await press_auto_and_confirm(service, presenter, by_id[seat.user_id])
            played.add(seat.user_id)
        while t.hand is hand:  # then the clock makes every other street
            clock.now += 11  # (budget and bank, then a player away's grace, R8.7)
            await service.run_due()
        assert service.table_in(GROUP) is t, "stopped as abandoned"
        while t.hand is None:  # the next deal
            clock.now += 5
            await service.run_due()
    assert t.absent_hands == 0
    assert t.tournament is not None and t.tournament.finished is None
    assert [await player_balance(store, a) for a in (ALICE, BOB)] == [900, 900]
    assert await check_store(store) == []
