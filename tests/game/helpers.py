"""Helpers for core tests: stacked decks and quick play."""

from __future__ import annotations

from collections.abc import Sequence

from game.board import Box
from game.cards import DECK, Card, parse_cards
from game.hand import Hand, HandSetup
from game.options import RuleOptions


def stacked_deck(text: str) -> list[Card]:
    """The given cards first (in order), then the rest of the deck in index order."""
    head = list(parse_cards(text))
    rest = [c for c in DECK if c not in set(head)]
    return head + rest


#: Pineapple with ``progressive_fantasyland`` (R6.2): the options under which a Fantasyland hand
#: of 15–17 cards is dealt (:meth:`HandSetup.check` refuses one under any other).
PROGRESSIVE = RuleOptions(progressive_fantasyland=True)


def deal(
    text: str = "",
    seats: Sequence[int] = (0, 1, 2),
    button: int = 2,
    fantasyland: dict[int, int] | None = None,
    options: RuleOptions | None = None,
) -> Hand:
    """A hand dealt from a stacked deck."""
    return Hand(
        HandSetup.deal(
            options or RuleOptions(),
            seats,
            button,
            fantasyland or {},
            deck=stacked_deck(text) if text else None,
            seed=None if text else 1,
        )
    )


BOX = {"t": Box.TOP, "m": Box.MIDDLE, "b": Box.BOTTOM}


def place_all(hand: Hand, seat: int, layout: str) -> None:
    """Place the seat's street cards by a layout string like ``"b b m m t"`` (``x`` discards),
    one letter per card in the order received, then confirm."""
    cards = hand.current_cards(seat)
    letters = layout.split()
    assert len(letters) == len(cards), (letters, cards)
    for c, letter in zip(cards, letters, strict=True):
        if letter == "x":
            hand.discard(seat, c)
        else:
            hand.place(seat, c, BOX[letter])
    hand.confirm(seat)
