"""Cards, ranks, suits and the deck (R1.1).

A :class:`Card` is a frozen value with a rank and a suit. Parsing accepts ``Qs``, ``Td``,
``10d``, ``q♠`` (suit letters ``s h d c`` in any case, or the symbols ``♠ ♥ ♦ ♣``); formatting
gives ``Q♠`` (``str``) or ``Qs`` (:meth:`Card.code_str`). Each card also carries ``code``, the
small integer the evaluator works on (see :mod:`game.evaluator`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any

from game.errors import CardError

__all__ = [
    "DECK",
    "Card",
    "Rank",
    "Suit",
    "card",
    "cards_str",
    "check_distinct",
    "format_cards",
    "new_deck",
    "parse_card",
    "parse_cards",
    "shuffled_deck",
]

# One prime per rank (2 … A); a product of primes identifies a multiset of ranks.
RANK_PRIMES: tuple[int, ...] = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


class Rank(IntEnum):
    """Card rank, 2 (TWO) up to 14 (ACE); higher is stronger (R1.1)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """One-character face: ``2`` … ``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_CHARS[self.value - 2]

    @property
    def face(self) -> str:
        """The rank as players read it on a card: ``2`` … ``10``, ``J``, ``Q``, ``K``, ``A``
        (ten as ``10``, as on the cards and in the showdown pictures: a Russian reader takes
        ``Т`` for туз, the ace)."""
        return "10" if self is Rank.TEN else self.char


class Suit(Enum):
    """Card suit; all suits are equal (R1.1). ``value`` is the lower-case letter."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    # Members are singletons: identity hashing is correct and much faster than Enum's.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♠ ♥ ♦ ♣``."""
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        """0 … 3 in the order spades, hearts, diamonds, clubs."""
        return _SUIT_INDEX[self]


_RANK_CHARS = "23456789TJQKA"
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_INDEX = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
_SUIT_BY_CHAR = {
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}  # fmt: skip
_RANK_BY_TEXT = {c: Rank(i + 2) for i, c in enumerate(_RANK_CHARS)} | {"10": Rank.TEN}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One playing card (R1.1).

    ``code`` is ``prime(rank) | 256 << suit.index``: the low byte is the rank's prime, bits
    8–11 flag the suit. ``index`` is ``(rank - 2) * 4 + suit.index`` (0 … 51). ``text`` is the
    ASCII form (``"Qs"``, ``"Td"``), ``face`` the form players read, with the suit symbol
    (``"Q♠"``, ``"10♦"``: :attr:`Rank.face`).
    """

    rank: Rank
    suit: Suit
    code: int = field(init=False, repr=False, compare=False)
    index: int = field(init=False, repr=False, compare=False)
    text: str = field(init=False, repr=False, compare=False)
    face: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", RANK_PRIMES[self.rank - 2] | (256 << self.suit.index))
        object.__setattr__(self, "index", (self.rank - 2) * 4 + self.suit.index)
        object.__setattr__(self, "text", self.rank.char + self.suit.value)
        object.__setattr__(self, "face", self.rank.face + self.suit.symbol)

    # Every card is one of the 52 objects in DECK (see __new__), so equality and hashing are
    # object identity: C-level and fast in sets, dicts and ``in``.
    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        interned = _INTERNED.get((rank, suit))
        if interned is not None:
            return interned
        return object.__new__(cls)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (parse_card, (self.text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self.face

    def code_str(self) -> str:
        """ASCII form, e.g. ``"Qs"``, ``"Td"``: the form used in JSON and button payloads."""
        return self.text

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card; see :func:`parse_card`."""
        return parse_card(text)


_INTERNED: dict[tuple[Rank, Suit], Card] = {}
#: The 52 cards in index order (2♠ 2♥ 2♦ 2♣ 3♠ … A♣); the same objects are reused everywhere.
DECK: tuple[Card, ...] = tuple(Card(Rank(r), s) for r in range(2, 15) for s in Suit)
_INTERNED.update({(c.rank, c.suit): c for c in DECK})
_BY_CODE_STR: dict[str, Card] = {c.code_str().lower(): c for c in DECK}


def card(text: str) -> Card:
    """Shorthand for :func:`parse_card`."""
    return parse_card(text)


def parse_card(text: str) -> Card:
    """Parse ``"Qs"``, ``"td"``, ``"10d"``, ``"Q♠"`` into a :class:`Card`.

    :raises CardError: for anything else (``"Xs"``, ``"Q"``, ``"Qx"``, empty text).
    """
    t = text.strip()
    if len(t) < 2:
        raise CardError(f"not a card: {text!r} (expected rank and suit, e.g. Qs, 10d, Q♠)")
    rank = _RANK_BY_TEXT.get(t[:-1].upper())
    suit = _SUIT_BY_CHAR.get(t[-1].lower())
    if rank is None or suit is None:
        raise CardError(f"not a card: {text!r} (expected rank and suit, e.g. Qs, 10d, Q♠)")
    return _BY_CODE_STR[rank.char.lower() + suit.value]


def parse_cards(text: str | Iterable[str], *, count: int | None = None) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas (or an iterable of card texts).

    :param count: when given, exactly this many cards are required.
    :raises CardError: on a bad card, a repeated card, or a wrong count.
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = tuple(parse_card(p) for p in parts)
    check_distinct(cards)
    if count is not None and len(cards) != count:
        raise CardError(f"expected {count} cards, got {len(cards)}")
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards with suit symbols separated by spaces, e.g. ``"A♠ K♥ 10♦"``."""
    return " ".join([c.face for c in cards])


def cards_str(cards: Iterable[Card]) -> str:
    """Cards in ASCII separated by spaces, e.g. ``"As Kh"`` (the JSON form)."""
    return " ".join([c.text for c in cards])


def new_deck() -> list[Card]:
    """A fresh ordered 52-card deck (R1.1)."""
    return list(DECK)


def shuffled_deck(seed: int | str | None = None, rng: random.Random | None = None) -> list[Card]:
    """A shuffled 52-card deck (R1.1).

    Without ``seed`` or ``rng`` the shuffle uses :class:`secrets.SystemRandom` (a CSPRNG).
    With ``seed`` the shuffle is deterministic (for tests, replays and simulation).
    """
    deck = new_deck()
    if rng is None:
        rng = random.Random(seed) if seed is not None else secrets.SystemRandom()
    rng.shuffle(deck)
    return deck


def check_distinct(cards: Sequence[Card]) -> None:
    """:raises CardError: if any card appears twice."""
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for c in cards:
            if c in seen:
                raise CardError(f"duplicate card: {c.code_str()}")
            seen.add(c)
