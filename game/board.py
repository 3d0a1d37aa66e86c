"""Boxes, boards, fouls, royalties and Fantasyland qualification (R2, R5.6, R6.1–R6.4).

A :class:`Board` is a finished (or partly filled) set of three boxes. :func:`assess_board`
turns a finished board into a :class:`BoardAssessment`: the strength of each box, whether it
is fouled, its royalties and the Fantasyland it earns. Scoring between players builds on it
(:mod:`game.scoring`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from game.cards import Card, cards_str, check_distinct, parse_cards
from game.errors import BoardError, CardError
from game.evaluator import HandCategory, rank3, rank5
from game.options import GameKind, RuleOptions

__all__ = [
    "BOXES",
    "BOX_SIZE",
    "Board",
    "BoardAssessment",
    "Box",
    "assess_board",
    "fantasyland_cards",
    "royalty",
]


class Box(Enum):
    """The three boxes of a board (R2.1); ``value`` is the JSON name."""

    TOP = "top"
    MIDDLE = "middle"
    BOTTOM = "bottom"

    # Members are singletons: identity hashing is correct and much faster than Enum's.
    __hash__ = object.__hash__

    def __init__(self, value: str) -> None:
        #: Cards the box holds: 3 for top, 5 for middle and bottom (R2.1).
        self.size: int = 3 if value == "top" else 5
        #: 0 for top, 1 for middle, 2 for bottom.
        self.index: int = ("top", "middle", "bottom").index(value)


#: Boxes top to bottom.
BOXES: tuple[Box, ...] = (Box.TOP, Box.MIDDLE, Box.BOTTOM)
BOX_SIZE: Mapping[Box, int] = {Box.TOP: 3, Box.MIDDLE: 5, Box.BOTTOM: 5}

# Royalty tables (R5.6), indexed by HandCategory.
_BOTTOM_ROYALTY = (0, 0, 0, 0, 2, 4, 6, 10, 15, 25)
_MIDDLE_ROYALTY = (0, 0, 0, 2, 4, 8, 12, 20, 30, 50)
_TRIPS = int(HandCategory.TRIPS)
_PAIR = int(HandCategory.PAIR)
_QUADS = int(HandCategory.QUADS)
_FULL_HOUSE = int(HandCategory.FULL_HOUSE)
_QUEEN = 12
_DEUCE_OF_SPADES_CODE = 2 | 256  # Card(2, spades).code
_SIXES_TOP = (_PAIR << 20) | (6 << 16)  # the weakest top that pays a royalty


def royalty(box: Box, strength: int) -> int:
    """Royalty of one box with the given strength (R5.6), before any doubling (R4.4).

    Top: pair 66 = 1 … AA = 9; trips 222 = 10 … AAA = 22. Middle and bottom by category.
    """
    category = strength >> 20
    if box is Box.TOP:
        rank = (strength >> 16) & 15
        if category == _TRIPS:
            return rank + 8
        if category == _PAIR and rank >= 6:
            return rank - 5
        return 0
    if box is Box.MIDDLE:
        return _MIDDLE_ROYALTY[category]
    return _BOTTOM_ROYALTY[category]


def fantasyland_cards(
    top: int, middle: int, bottom: int, options: RuleOptions, in_fantasyland: bool
) -> int:
    """Cards of the next hand's Fantasyland earned by an unfouled board, 0 for none.

    Entry (R6.1): QQ or better on top. Progressive (R6.2): QQ/KK/AA/trips give
    base/base+1/base+2/base+3 cards, base being 14 in Pineapple and 13 in classic OFC.
    Staying (R6.4): a player who played this hand in Fantasyland needs trips on top or quads or
    better on bottom (or, with ``stay_on_full_house_middle``, a full house or better in middle)
    and gets the base count again. With ``heads_up_double_boxes`` each board earns it on its
    own (R4.2). Strengths are packed (see :mod:`game.evaluator`).
    """
    if not options.fantasyland or options.game is GameKind.CHINESE:
        return 0
    base = options.fantasyland_base_cards
    top_cat = top >> 20
    if in_fantasyland:
        stays = (
            top_cat == _TRIPS
            or bottom >> 20 >= _QUADS
            or (options.stay_on_full_house_middle and middle >> 20 >= _FULL_HOUSE)
        )
        return base if stays else 0
    if top_cat == _TRIPS:
        return base + 3 if options.progressive_fantasyland else base
    if top_cat == _PAIR:
        rank = (top >> 16) & 15
        if rank >= _QUEEN:
            return base + (rank - _QUEEN if options.progressive_fantasyland else 0)
    return 0


@dataclass(frozen=True, slots=True)
class Board:
    """A player's three boxes (R2.1): ``top`` up to 3 cards, ``middle`` and ``bottom`` up to 5.

    A board built with :meth:`parse` or :meth:`finished` has every box full.
    """

    top: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    bottom: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if len(self.top) > 3 or len(self.middle) > 5 or len(self.bottom) > 5:
            for box in BOXES:
                if len(self.box(box)) > box.size:
                    raise BoardError(
                        f"{box.value} box holds {box.size} cards, got {len(self.box(box))}"
                    )

    def box(self, box: Box) -> tuple[Card, ...]:
        """The cards of one box."""
        if box is Box.TOP:
            return self.top
        if box is Box.MIDDLE:
            return self.middle
        return self.bottom

    def cards(self) -> Iterator[Card]:
        """Every card on the board, top to bottom."""
        yield from self.top
        yield from self.middle
        yield from self.bottom

    @property
    def count(self) -> int:
        """Number of cards on the board."""
        return len(self.top) + len(self.middle) + len(self.bottom)

    @property
    def is_complete(self) -> bool:
        """All 13 slots filled (R2.1)."""
        return len(self.top) == 3 and len(self.middle) == 5 and len(self.bottom) == 5

    @property
    def foul_certain(self) -> bool:
        """Whether the cards placed already make the board fouled however it is finished
        (R2.3): a full box ranks above a full box below it on R1.4's one scale (top above
        middle, middle above bottom, or top above bottom, which no middle can then sit
        between, R2.2). Boxes not yet full judge nothing."""
        t, m, b = self.top, self.middle, self.bottom
        top = rank3(t[0].code, t[1].code, t[2].code) if len(t) == 3 else None
        mid = rank5(m[0].code, m[1].code, m[2].code, m[3].code, m[4].code) if len(m) == 5 else None
        bot = rank5(b[0].code, b[1].code, b[2].code, b[3].code, b[4].code) if len(b) == 5 else None
        return (
            (top is not None and mid is not None and top > mid)
            or (mid is not None and bot is not None and mid > bot)
            or (top is not None and bot is not None and top > bot)
        )

    def free(self, box: Box) -> int:
        """Free slots in ``box``."""
        return box.size - len(self.box(box))

    def with_card(self, box: Box, card: Card) -> Board:
        """A copy with ``card`` added to ``box``. :raises BoardError: if the box is full."""
        if self.free(box) <= 0:
            raise BoardError(f"{box.value} box is full")
        if box is Box.TOP:
            return Board((*self.top, card), self.middle, self.bottom)
        if box is Box.MIDDLE:
            return Board(self.top, (*self.middle, card), self.bottom)
        return Board(self.top, self.middle, (*self.bottom, card))

    @classmethod
    def parse(cls, top: str, middle: str, bottom: str) -> Board:
        """A finished board from card texts, e.g. ``Board.parse("Qs Qh 2d", "...", "...")``.

        :raises CardError: on a bad or repeated card.
        :raises BoardError: on a wrong count in a box (R2.1).
        """
        board = cls(parse_cards(top), parse_cards(middle), parse_cards(bottom))
        board.check_complete()
        return board

    def check_complete(self) -> None:
        """:raises BoardError: unless every box is full and no card repeats (R2.1)."""
        for box in BOXES:
            n = len(self.box(box))
            if n != box.size:
                raise BoardError(f"{box.value} box needs {box.size} cards, got {n}")
        try:
            check_distinct(list(self.cards()))
        except CardError as exc:
            raise BoardError(str(exc)) from None

    def to_json(self) -> dict[str, str]:
        """``{"top": "Qs Qh 2d", "middle": …, "bottom": …}``."""
        return {box.value: cards_str(self.box(box)) for box in BOXES}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Board:
        """Inverse of :meth:`to_json` (boxes may be partly filled)."""
        return cls(
            parse_cards(data.get("top", "")),
            parse_cards(data.get("middle", "")),
            parse_cards(data.get("bottom", "")),
        )


class BoardAssessment(NamedTuple):
    """A finished board judged on its own (R2, R5.6, R6).

    :ivar strengths: packed strengths of (top, middle, bottom).
    :ivar fouled: the board breaks bottom ≥ middle ≥ top (R2.3).
    :ivar royalties: royalties of (top, middle, bottom), all 0 when fouled (R2.3, R4.4).
    :ivar fantasyland_cards: cards of the Fantasyland it earns, 0 for none (R6.1–R6.4).
    """

    strengths: tuple[int, int, int]
    fouled: bool
    royalties: tuple[int, int, int]
    fantasyland_cards: int

    @property
    def royalty_total(self) -> int:
        """Sum of the three boxes' royalties."""
        return self.royalties[0] + self.royalties[1] + self.royalties[2]


_QQ_TOP = (_PAIR << 20) | (_QUEEN << 16)  # the weakest top that enters Fantasyland (R6.1)


def assess_board(
    board: Board, options: RuleOptions, in_fantasyland: bool = False
) -> BoardAssessment:
    """Judge a finished board: strengths, foul (R2.2, R2.3), royalties (R5.6, R4.4) and the
    Fantasyland it earns (R6.1–R6.4).

    :raises BoardError: if the board is not complete.
    """
    t, m, b = board.top, board.middle, board.bottom
    if len(t) != 3 or len(m) != 5 or len(b) != 5:
        board.check_complete()
    top = rank3(t[0].code, t[1].code, t[2].code)
    mid = rank5(m[0].code, m[1].code, m[2].code, m[3].code, m[4].code)
    bot = rank5(b[0].code, b[1].code, b[2].code, b[3].code, b[4].code)
    if top > mid or mid > bot:
        return BoardAssessment((top, mid, bot), True, (0, 0, 0), 0)
    roy_t = royalty(Box.TOP, top) if top >= _SIXES_TOP else 0
    roy_m = _MIDDLE_ROYALTY[mid >> 20]
    roy_b = _BOTTOM_ROYALTY[bot >> 20]
    if options.deuce_of_spades:
        roy_t *= 2 if any(c.code == _DEUCE_OF_SPADES_CODE for c in t) else 1
        roy_m *= 2 if any(c.code == _DEUCE_OF_SPADES_CODE for c in m) else 1
        roy_b *= 2 if any(c.code == _DEUCE_OF_SPADES_CODE for c in b) else 1
    fl = (
        fantasyland_cards(top, mid, bot, options, in_fantasyland)
        if in_fantasyland or top >= _QQ_TOP
        else 0
    )
    return BoardAssessment((top, mid, bot), False, (roy_t, roy_m, roy_b), fl)
