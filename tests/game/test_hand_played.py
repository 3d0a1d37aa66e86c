"""Hand.played_a_street (brk43): whether a seat finished a street itself, not on a timeout
(R8.5), as the tournament's "nobody played" count asks it (R8.7, R7.7)."""

from __future__ import annotations

from game.actions import Place, Timeout
from game.board import Box
from game.cards import Card
from game.hand import Hand, HandSetup
from game.options import GameKind, RuleOptions


def _hand() -> Hand:
    return Hand(HandSetup.deal(RuleOptions.preset(GameKind.PINEAPPLE), [0, 1], 0, seed=7))


def _place(hand: Hand, seat: int, card: Card) -> Place:
    """``card`` to the first box with room, bottom first."""
    board = hand.board_of(seat, with_pending=True)
    box = next(b for b in (Box.BOTTOM, Box.MIDDLE, Box.TOP) if board.free(b))
    return Place(seat, card, box)


def test_a_street_confirmed_by_its_player_is_played_a_timed_out_one_is_not() -> None:
    hand = _hand()
    first = hand.to_act[0]
    other = 1 - first
    assert not hand.played_a_street(first) and not hand.played_a_street(other)
    for card in hand.to_place(first):  # street 1 (five cards) placed and confirmed by them
        hand.apply(_place(hand, first, card))
    hand.confirm(first)
    assert hand.played_a_street(first)
    while not hand.is_over:  # every other street, both seats', made by the clock
        hand.apply(Timeout(hand.to_act[0]))
    assert hand.played_a_street(first) and not hand.played_a_street(other)
    again = Hand.from_json(hand.to_json())  # (a restored hand replays its actions)
    assert again.played_a_street(first) and not again.played_a_street(other)


def test_a_card_placed_on_a_street_the_clock_finished_is_not_a_street_played() -> None:
    hand = _hand()
    first = hand.to_act[0]
    hand.apply(_place(hand, first, hand.to_place(first)[0]))
    hand.apply(Timeout(first))
    assert hand.pending(first) == () and not hand.played_a_street(first)
