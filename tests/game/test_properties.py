"""Property tests of whole hands (hypothesis): zero-sum, 13 distinct cards per board, no card
dealt twice, and replay to the same result (R2.1, R3.2, R5.1)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.actions import Confirm, Discard, Place
from game.board import BOXES
from game.hand import Hand, HandSetup
from game.options import RuleOptions, Scoring

options_st = st.builds(
    RuleOptions,
    simultaneous_streets=st.booleans(),
    scoring=st.sampled_from(list(Scoring)),
    progressive_fantasyland=st.booleans(),
)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    opts = draw(options_st)
    n = draw(st.integers(2, 3))
    seats = tuple(sorted(draw(st.sets(st.integers(0, 5), min_size=n, max_size=n))))
    button = draw(st.sampled_from(seats))
    counts = sorted(opts.fantasyland_card_counts)  # (R6.2: 14, or 14–17 when progressive)
    fl = {
        s: draw(st.sampled_from(counts))
        for s in seats
        if draw(st.booleans()) and draw(st.booleans())
    }
    setup = HandSetup.deal(opts, seats, button, fl, seed=draw(st.integers(0, 2**32)))
    hand = Hand(setup)
    # random legal play: random boxes with free slots, random discards, random seat order
    while not hand.is_over:
        seat = draw(st.sampled_from(hand.to_act))
        cards = list(hand.to_place(seat))
        discards = hand.discards_needed(seat)
        to_discard = set(draw(st.permutations(cards))[:discards])
        for c in cards:
            if c in to_discard:
                hand.apply(Discard(seat, c))
                continue
            board = hand.board_of(seat, with_pending=True)
            free = [b for b in BOXES if board.free(b)]
            hand.apply(Place(seat, c, draw(st.sampled_from(free))))
        hand.apply(Confirm(seat))
    return hand


@settings(max_examples=60, deadline=None)
@given(hands())
def test_random_legal_hands_are_zero_sum_distinct_and_replay(hand: Hand) -> None:
    result = hand.result
    assert result is not None
    assert sum(r.points for r in result.seats) == 0  # R5.1
    seen = set()
    for r in result.seats:
        cards = list(r.board.cards())
        assert len(cards) == 13 == len(set(cards))  # R2.1
        seen.update(cards)
        seen.update(hand.discards_of(r.seat))
    dealt = sum(len(list(r.board.cards())) + len(hand.discards_of(r.seat)) for r in result.seats)
    assert len(seen) == dealt  # no card dealt twice
    again = Hand.replay(hand.setup, hand.actions)
    assert again.result == result
    assert Hand.from_json(hand.to_json()).result == result
