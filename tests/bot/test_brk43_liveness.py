"""brk43: liveness (R8.5–R8.7) broken on purpose: players who are at the table but slow,
clocks, timers. In-memory store, a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from bot.service.showdown import ABANDONED_HANDS
from storage.check import check_store
from tests.bot.test_liveness import _hand_press
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm
from tests.bot.test_tournament_service import (
    PLAYERS,
    a_chinese_tournament_started,
    configure,
    new_service,
    two_started,
)
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


async def test_r8_7_r7_7_a_card_placed_then_the_clock_still_counts_as_nobody_playing() -> None:
    """A Chinese Poker tournament whose players each put one card in a box and let the clock
    make the rest, hand after hand: nobody arranged a board (R7.7: such a board scores 0, the
    game ends at once on 0 points), so no chip ever moves. Those hands are still the ones
    "nobody played": after ABANDONED_HANDS of them the tournament is stopped, every buy-in
    back (counted as played, it would deal into the group for good)."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="chinese", tournament_buy_in="100")
    await a_chinese_tournament_started(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    placed = 0
    for _ in range(40):
        if service.table_in(GROUP) is None:
            break
        hand = t.hand
        if hand is not None and not hand.is_over:
            for a in PLAYERS:  # each puts one card on top
                seat = t.seat_of(a.user_id)
                assert seat is not None
                (board,) = t.boards_of(seat)
                if board in hand.to_act:
                    card = hand.to_place(board)[0]
                    press = _hand_press(presenter, a, "place", card)
                    assert not (await service.press(a, press)).alert
                    placed += 1
        clock.now += 1000  # every clock runs out
        await service.run_due()
    assert placed >= ABANDONED_HANDS * len(PLAYERS)
    assert service.table_in(GROUP) is None and t.absent_hands == ABANDONED_HANDS
    assert [await player_balance(store, a) for a in PLAYERS] == [1000, 1000, 1000]
    assert await check_store(store) == []
