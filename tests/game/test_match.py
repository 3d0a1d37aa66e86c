"""Hands in a row: button, matches, Fantasyland hands, rounds and sit-out (R6.5, R6.6, R8.3,
R8.6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.board import Board
from game.errors import GameError
from game.hand import HandResult, SeatResult
from game.match import MatchState
from game.options import RuleOptions
from game.scoring import Showdown

EMPTY = Board()


def result(
    order: tuple[int, ...],
    fl: dict[int, int] | None = None,
    timed_out: tuple[int, ...] = (),
    pairs: tuple[tuple[int, int, int], ...] = (),
) -> HandResult:
    fl = fl or {}
    seats = tuple(
        SeatResult(s, EMPTY, False, (0, 0, 0), 0, fl.get(s, 0), False, s in timed_out, (0, 0, 0))
        for s in order
    )
    return HandResult(order, seats, pairs, Showdown((), ()))


def test_r3_3_first_hand_button_lets_the_lowest_seat_act_first_and_moves_each_match() -> None:
    state = MatchState.new(RuleOptions())
    plan = state.next_hand([0, 1, 2])
    assert plan.button == 2 and plan.new_match and plan.fantasyland == {}
    state = state.after_hand(result((0, 1, 2)), plan)
    plan = state.next_hand([0, 1, 2])
    assert plan.button == 0
    state = state.after_hand(result((1, 2, 0)), plan)
    assert state.next_hand([0, 1, 2]).button == 1


def test_r6_6_fantasyland_hand_continues_the_match_and_the_button_moves_by_default() -> None:
    state = MatchState.new(RuleOptions())
    plan = state.next_hand([0, 1, 2])
    state = state.after_hand(result((0, 1, 2), fl={1: 14}), plan)
    assert state.in_match and not state.match_over
    plan = state.next_hand([0, 1, 2, 3][:3])
    assert not plan.new_match and plan.fantasyland == {1: 14} and plan.button == 0


def test_r6_6_button_stays_in_fantasyland_when_the_option_is_off() -> None:
    state = MatchState.new(RuleOptions(button_moves_in_fantasyland=False))
    plan = state.next_hand([0, 1, 2])
    state = state.after_hand(result((0, 1, 2), fl={0: 14}), plan)
    plan2 = state.next_hand([0, 1, 2])
    assert plan2.button == plan.button == 2
    state = state.after_hand(result((0, 1, 2)), plan2)  # match over
    assert state.next_hand([0, 1, 2]).button == 0


def test_r6_6_a_newcomer_waits_for_the_next_match_and_a_leaver_forfeits_fantasyland() -> None:
    state = MatchState.new(RuleOptions())
    plan = state.next_hand([0, 1])
    state = state.after_hand(result((0, 1), fl={0: 14}), plan)
    plan = state.next_hand([0, 1, 2])  # seat 2 joined
    assert plan.seats == (0, 1) and plan.fantasyland == {0: 14}
    state2 = MatchState.new(RuleOptions()).after_hand(
        result((0, 1), fl={0: 14}), MatchState.new(RuleOptions()).next_hand([0, 1])
    )
    plan = state2.next_hand([1, 2])  # seat 0 left: new match without Fantasyland
    assert plan.new_match and plan.fantasyland == {} and plan.seats == (1, 2)


def test_r8_6_timed_out_player_sits_out_after_the_match() -> None:
    state = MatchState.new(RuleOptions())
    plan = state.next_hand([0, 1, 2])
    state = state.after_hand(result((0, 1, 2), fl={1: 14}, timed_out=(2,)), plan)
    assert state.to_sit_out == frozenset()  # a Fantasyland hand is still played first
    plan = state.next_hand([0, 1, 2])
    assert 2 in plan.seats
    state = state.after_hand(result(plan.seats), plan)
    assert state.to_sit_out == frozenset({2})


def test_r8_6_back_before_the_match_ends_cancels_the_sit_out_after_it() -> None:
    state = MatchState.new(RuleOptions())
    plan = state.next_hand([0, 1, 2])
    state = state.after_hand(result((0, 1, 2), fl={1: 14}, timed_out=(0, 2)), plan)
    assert state.sit_out_after_match == frozenset({0, 2})
    state = state.back([2])
    assert state.sit_out_after_match == frozenset({0})
    plan = state.next_hand([0, 1, 2])
    state = state.after_hand(result(plan.seats), plan)
    assert state.to_sit_out == frozenset({0})  # only the one still away


def test_r6_6_r8_6_a_fantasyland_too_few_can_play_is_forfeited_and_ends_the_match() -> None:
    """Heads-up, seat 0 earns Fantasyland while seat 1 times out; seat 1 is not available at
    the deal, so the plan is a new match: forfeiting ends the match, which counts, and moves
    the seat that timed out to sit-out then (R8.6)."""
    state = MatchState.new(RuleOptions())
    plan = state.next_hand([0, 1])
    state = state.after_hand(result((0, 1), fl={0: 14}, timed_out=(1,)), plan)
    assert state.in_match and state.to_sit_out == frozenset()
    assert state.next_hand([0, 2]).new_match  # (1 away: the newcomer 2 plays a new match)
    gone = state.forfeited()
    assert not gone.in_match and gone.match_over and gone.fantasyland == {}
    assert gone.to_sit_out == frozenset({1}) and gone.sit_out_after_match == frozenset()
    assert gone.matches == state.matches + 1
    assert gone.next_hand([0, 2]) == state.next_hand([0, 2])  # (the same new match)


def test_r8_3_settlement_per_hand_or_per_round() -> None:
    pairs = ((0, 1, 5), (0, 2, -3), (1, 2, 2))
    per_hand = MatchState.new(RuleOptions())
    plan = per_hand.next_hand([0, 1, 2])
    per_hand = per_hand.after_hand(result((0, 1, 2), pairs=pairs), plan)
    assert per_hand.due == pairs
    state = MatchState.new(RuleOptions(settle_per_round=True))
    for i in range(3):
        plan = state.next_hand([0, 1, 2])
        state = state.after_hand(result((0, 1, 2), pairs=pairs), plan)
        if i < 2:
            assert state.due == ()
    assert state.due == ((0, 1, 15), (0, 2, -9), (1, 2, 6))
    assert state.round_pairs == ()


def test_r8_3_a_round_counts_matches_not_fantasyland_hands() -> None:
    """R8.3 with R6.6: a full round has as many *matches* as players, and a Fantasyland hand
    belongs to the match before it. Two players, ``settle_per_round``: the main hand earns
    Fantasyland, its Fantasyland hand ends match 1, and only the end of match 2 (the fourth
    hand here) settles the round's points."""
    pairs = ((0, 1, 3),)
    state = MatchState.new(RuleOptions(settle_per_round=True))
    hands = [{0: 14}, {}, {1: 14}, {}]  # Fantasyland earned by each hand
    dues = []
    for fl in hands:
        plan = state.next_hand([0, 1])
        state = state.after_hand(result(plan.seats, fl=fl, pairs=pairs), plan)
        dues.append((state.due, state.matches))
    assert dues == [((), 0), ((), 1), ((), 1), (((0, 1, 12),), 0)]
    assert state.round_pairs == ()


def test_r8_3_round_points_an_opponent_cannot_cover_are_settled_early() -> None:
    """R8.3 (seed 001: «если оппонент не имеет достаточно фишек для расчета»): under
    ``settle_per_round`` the points of the unfinished round are due at once when settling them
    now would find a payer's stack too small (R8.4 cap); otherwise they wait for the round."""
    opts = RuleOptions(settle_per_round=True, kush_per_point=2)
    pairs = ((0, 1, 5), (0, 2, -3), (1, 2, 2))
    state = MatchState.new(opts)
    plan = state.next_hand([0, 1, 2])
    # seat 1 owes 5 points = 10 kush and has 10: covered, the round goes on
    state = state.after_hand(result((0, 1, 2), pairs=pairs), plan, stacks={0: 50, 1: 10, 2: 50})
    assert state.due == () and state.round_pairs == pairs and state.matches == 1
    plan = state.next_hand([0, 1, 2])
    # now seat 1 owes 10 points = 20 kush (less 8 it wins from seat 2) with a stack of 10
    state = state.after_hand(result((1, 2, 0), pairs=pairs), plan, stacks={0: 50, 1: 10, 2: 50})
    assert state.due == ((0, 1, 10), (0, 2, -6), (1, 2, 4))
    assert state.round_pairs == () and state.matches == 2  # the round itself goes on
    plan = state.next_hand([0, 1, 2])
    state = state.after_hand(result((2, 0, 1), pairs=pairs), plan, stacks={0: 50, 1: 10, 2: 50})
    assert state.due == pairs and state.matches == 0  # the round's end settles the rest


def test_r4_2_r8_3_points_of_double_boxes_are_owed_between_players() -> None:
    """R4.2, R8.3: the points of a double-box hand are due (and kept for the round) between
    table seats, a player's two boards merged: board seat 1 (the first player's second board)
    is not table seat 1, so a round that goes on with single boards once a third player sits
    down still owes them to the right players."""
    owners = {0: 0, 1: 0, 10: 1, 11: 1}
    board_pairs = ((0, 10, 3), (0, 11, -1), (1, 10, 2), (1, 11, 0))
    double = RuleOptions.preset("ofc", heads_up_double_boxes=True)
    state = MatchState.new(double)
    plan = state.next_hand([0, 1])
    state = state.after_hand(result((0, 1, 10, 11), pairs=board_pairs), plan, owners)
    assert state.due == ((0, 1, 4),)
    state = MatchState.new(replace(double, settle_per_round=True))
    plan = state.next_hand([0, 1])
    state = state.after_hand(result((0, 1, 10, 11), pairs=board_pairs), plan, owners)
    assert state.due == () and state.round_pairs == ((0, 1, 4),)
    plan = state.next_hand([0, 1, 2])  # a third player: single boards, seats 0, 1, 2
    state = state.after_hand(result((0, 1, 2), pairs=((0, 1, 1), (0, 2, 2), (1, 2, -1))), plan)
    assert state.due == () and state.round_pairs == ((0, 1, 5), (0, 2, 2), (1, 2, -1))


def test_too_few_players_and_json_round_trip() -> None:
    state = MatchState.new(RuleOptions())
    with pytest.raises(GameError):
        state.next_hand([0])
    plan = state.next_hand([0, 1])
    state = state.after_hand(result((0, 1), fl={0: 15}, timed_out=(1,)), plan)
    again = MatchState.from_json(state.to_json())
    assert again.next_hand([0, 1]) == state.next_hand([0, 1])
    assert again.sit_out_after_match == state.sit_out_after_match


def test_r4_2_with_double_boxes_each_board_earns_and_plays_fantasyland() -> None:
    """R4.2: every board of a double-box hand earns Fantasyland on its own; the next hand
    plans it for those boards (keyed by board seat, including the second player's 10 and
    11, which are not table seats)."""
    options = RuleOptions.preset("ofc", heads_up_double_boxes=True)
    owners = {0: 0, 1: 0, 10: 1, 11: 1}
    state = MatchState.new(options)
    plan = state.next_hand([0, 1])
    state = state.after_hand(result((0, 1, 10, 11), fl={1: 13, 10: 13}), plan, owners)
    plan = state.next_hand([0, 1])
    assert not plan.new_match and plan.seats == (0, 1)
    assert dict(plan.fantasyland) == {1: 13, 10: 13}
    again = MatchState.from_json(state.to_json())
    assert dict(again.next_hand([0, 1]).fantasyland) == {1: 13, 10: 13}
    # the second player leaves: their board's Fantasyland goes with them (R6, R8.2)
    gone = state.without(1, (10, 11))
    assert dict(gone.fantasyland) == {1: 13}


def test_r4_2_a_newcomer_leaving_the_table_seat_of_a_board_number_takes_no_fantasyland() -> None:
    """R4.2 with players in table seats 0 and 2 (seat 1 left free): Alice plays boards 0 and
    1, Bob boards 20 and 21, and Alice's board 1 earns Fantasyland. Carol sits down in table
    seat 1 between the hands and gets up again (or is stood up, not Ready in time, R8.2):
    she had no board, so nothing is forfeited (Alice's board 1 lost its Fantasyland and its
    sit-out, R8.6, as if it had been Carol's)."""
    options = RuleOptions.preset("ofc", heads_up_double_boxes=True)
    owners = {0: 0, 1: 0, 20: 2, 21: 2}
    state = MatchState.new(options)
    plan = state.next_hand([0, 2])
    state = state.after_hand(result((0, 1, 20, 21), fl={1: 13}, timed_out=(1,)), plan, owners)
    assert dict(state.fantasyland) == {1: 13} and state.sit_out_after_match == {1}
    gone = state.without(1)  # Carol, table seat 1, no board
    assert dict(gone.fantasyland) == {1: 13} and gone.sit_out_after_match == {1}
    assert gone.next_hand([0, 2]).fantasyland == {1: 13}
    # Alice herself leaving takes both her boards' (R6, R8.2)
    alice_gone = state.without(0)
    assert dict(alice_gone.fantasyland) == {} and alice_gone.sit_out_after_match == frozenset()
