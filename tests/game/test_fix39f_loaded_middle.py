"""fix39f: "Arrange for me" (the strong level, :func:`game.policy.decide`) put four unpaired
cards in the middle on classic OFC's first street (R4.1: five cards, then one a street), a
lone card below: 9♣ 5♣ 10♥ K♦ in the middle, A♠ on the bottom (deal seed 9), 2♠ 6♠ Q♥ 8♣,
A♦ (seed 49); 2 of 120 first streets. The static score ranked it like any other placement and
32 play-outs of 16 candidates could not tell it from better ones (with 128 or more it was never
chosen). Such placements are no candidate any more (:func:`game.strategy._loaded_middle`)."""

from __future__ import annotations

import random

import pytest

from game.board import Box
from game.cards import DECK, parse_cards
from game.hand import Hand, HandSetup
from game.options import RuleOptions
from game.policy import STRONG_WIDTH, Level, decide, knowledge
from game.strategy import _loaded_middle, candidate_placements


def first_street(seed: int) -> Hand:
    """A heads-up classic OFC hand dealt from a deck shuffled by ``random.Random(seed)``."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    options = RuleOptions.preset("ofc")
    return Hand(HandSetup(options=options, seats=(0, 1), button=1, deck=tuple(deck)))


@pytest.mark.parametrize("seed", [9, 49])
def test_r4_1_arrange_for_me_puts_no_four_unpaired_cards_in_the_middle(seed: int) -> None:
    hand = first_street(seed)
    k = knowledge(hand, hand.to_act[0])
    moves = decide(k, Level.STRONG)
    placed = [b for _, b in moves]
    assert len(moves) == 5 and None not in placed
    assert placed.count(Box.MIDDLE) <= 3, moves
    assert not _loaded_middle(k.board, moves)


def test_no_candidate_loads_the_middle_over_a_shorter_bottom() -> None:
    for seed in range(40):
        hand = first_street(seed)
        k = knowledge(hand, hand.to_act[0])
        for p in candidate_placements(k.board, k.cards, 0, STRONG_WIDTH, True):
            assert not _loaded_middle(k.board, p), (seed, p)


def test_a_paired_or_supported_middle_is_not_loaded() -> None:
    hand = first_street(0)
    board = knowledge(hand, hand.to_act[0]).board
    nine, five, ten, king, ace = parse_cards("9c 5c Th Kd As")
    mid, bot = Box.MIDDLE, Box.BOTTOM
    assert _loaded_middle(board, [(nine, mid), (five, mid), (ten, mid), (king, mid), (ace, bot)])
    pair = parse_cards("9c 9d Th Kd As")  # a pair in the middle: made, kept
    assert not _loaded_middle(board, [(c, mid) for c in pair[:4]] + [(pair[4], bot)])
    # a bottom of as many cards (four placed before): kept
    below = board
    for c in parse_cards("2h 3h 4h 6h"):
        below = below.with_card(bot, c)
    loaded = [(nine, mid), (five, mid), (ten, mid), (king, mid)]
    assert not _loaded_middle(below, loaded)
