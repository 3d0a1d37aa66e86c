"""Hand evaluation for the 5-card boxes and the 3-card top box on one scale (R1.2–R1.4).

A hand's *strength* is one ``int``; a larger strength is a stronger hand, equal strengths tie.
It packs the category and the ranks that decide within it, most significant first::

    strength = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where ``r1 … r5`` are ranks 2 … 14 in the order they are compared (the rank that makes the
category first, then kickers high to low) and ``0`` where a box has no more cards. The top box
therefore ranks on the same scale as the middle box (R1.4): top ``Q♠Q♥5♦`` is
``(PAIR, Q, 5, 0, 0, 0)`` and sits below middle ``Q♣Q♦5♠4♥3♣`` = ``(PAIR, Q, 5, 4, 3, 0)``
because it runs out of kickers first, while top ``Q♠Q♥6♦`` is above it. A top box is never a
straight or a flush (R1.3). The wheel A-2-3-4-5 is a 5-high straight (R1.2).

The hot path is :func:`rank5` on the integer ``Card.code`` values: a flush check on the suit
bits and one dictionary lookup keyed by the product of the rank primes (7,462 classes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations_with_replacement

from game.cards import RANK_PRIMES, Card
from game.errors import BoardError

__all__ = [
    "HandCategory",
    "category_of",
    "display_order",
    "evaluate",
    "evaluate_codes",
    "made_so_far",
    "rank3",
    "rank5",
    "ranks_of",
    "strength_of",
]


class HandCategory(IntEnum):
    """Hand categories, weakest first (R1.2); the top box knows only the first, second and
    fourth (R1.3)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9


def strength_of(category: HandCategory, ranks: Sequence[int]) -> int:
    """Pack a category and up to five deciding ranks into a strength (see module doc)."""
    value = int(category)
    padded = list(ranks) + [0] * (5 - len(ranks))
    for r in padded:
        value = value << 4 | r
    return value


def category_of(strength: int) -> HandCategory:
    """The category of a packed strength."""
    return HandCategory(strength >> 20)


def ranks_of(strength: int) -> tuple[int, ...]:
    """The deciding ranks of a packed strength, most significant first, without the padding."""
    out = [(strength >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


def _classify5(ranks: Sequence[int], flush: bool) -> int:
    """Strength of five ranks (2 … 14, with repeats), suited or not (R1.2)."""
    counts = Counter(ranks)
    # Ranks ordered by (count, rank) descending: the making ranks first, then kickers.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    distinct = sorted(counts, reverse=True)
    straight_high = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_high = 5  # the wheel
    if straight_high and flush:
        cat = HandCategory.ROYAL_FLUSH if straight_high == 14 else HandCategory.STRAIGHT_FLUSH
        return strength_of(cat, [straight_high])
    if shape[0] == 4:
        return strength_of(HandCategory.QUADS, order)
    if shape[:2] == [3, 2]:
        return strength_of(HandCategory.FULL_HOUSE, order)
    if flush:
        return strength_of(HandCategory.FLUSH, distinct)
    if straight_high:
        return strength_of(HandCategory.STRAIGHT, [straight_high])
    if shape[0] == 3:
        return strength_of(HandCategory.TRIPS, order)
    if shape[:2] == [2, 2]:
        return strength_of(HandCategory.TWO_PAIR, order)
    if shape[0] == 2:
        return strength_of(HandCategory.PAIR, order)
    return strength_of(HandCategory.HIGH_CARD, distinct)


def _classify3(ranks: Sequence[int]) -> int:
    """Strength of a 3-card top box: trips, pair or high card only (R1.3)."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    top = max(counts.values())
    cat = (HandCategory.HIGH_CARD, HandCategory.PAIR, HandCategory.TRIPS)[top - 1]
    return strength_of(cat, order)


def _build_tables() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    plain: dict[int, int] = {}
    suited: dict[int, int] = {}
    for combo in combinations_with_replacement(range(13), 5):
        if combo[0] == combo[4]:
            continue  # five of a kind does not exist
        key = 1
        for i in combo:
            key *= RANK_PRIMES[i]
        ranks = [i + 2 for i in combo]
        plain[key] = _classify5(ranks, flush=False)
        if len(set(combo)) == 5:
            suited[key] = _classify5(ranks, flush=True)
    top: dict[int, int] = {}
    for trio in combinations_with_replacement(range(13), 3):
        key = RANK_PRIMES[trio[0]] * RANK_PRIMES[trio[1]] * RANK_PRIMES[trio[2]]
        top[key] = _classify3([i + 2 for i in trio])
    return plain, suited, top


_PLAIN, _SUITED, _TOP = _build_tables()


def rank5(a: int, b: int, c: int, d: int, e: int) -> int:
    """Strength of five cards given by their ``Card.code`` values (R1.2).

    The fast path of the project: no validation (five distinct valid codes are assumed).
    """
    if a & b & c & d & e > 255:
        return _SUITED[(a & 255) * (b & 255) * (c & 255) * (d & 255) * (e & 255)]
    return _PLAIN[(a & 255) * (b & 255) * (c & 255) * (d & 255) * (e & 255)]


def rank3(a: int, b: int, c: int) -> int:
    """Strength of a 3-card top box given by ``Card.code`` values (R1.3, R1.4)."""
    return _TOP[(a & 255) * (b & 255) * (c & 255)]


def evaluate_codes(codes: Sequence[int]) -> int:
    """Strength of 3 or 5 card codes. :raises BoardError: for any other count."""
    if len(codes) == 5:
        return rank5(codes[0], codes[1], codes[2], codes[3], codes[4])
    if len(codes) == 3:
        return rank3(codes[0], codes[1], codes[2])
    raise BoardError(f"a box holds 3 or 5 cards, got {len(codes)}")


def evaluate(cards: Sequence[Card]) -> int:
    """Strength of a 3-card top box or a 5-card box (R1.2–R1.4).

    :raises BoardError: if the count is not 3 or 5 or a card repeats.
    """
    if len(set(cards)) != len(cards):
        raise BoardError("a box cannot hold the same card twice")
    return evaluate_codes([c.code for c in cards])


def display_order(cards: Sequence[Card]) -> list[Card]:
    """``cards`` (a box, full or not) in the order a hand reads: the ranks that make it first,
    by count then rank (``K♥ K♣ 2♦ 2♣ 8♥`` for two pair, the full house's trips before its
    pair), then the kickers high to low; a straight high to low, the wheel's ace last
    (``5♠ 4♥ 3♦ 2♣ A♠``, R1.2). Equal ranks by suit (♠ ♥ ♦ ♣). A pure display order: the
    strength does not depend on it."""
    counts = Counter(c.rank for c in cards)
    ranks = {c.rank for c in cards}
    wheel = len(cards) == 5 and ranks == {14, 5, 4, 3, 2}

    def key(c: Card) -> tuple[int, int, int]:
        rank = 1 if wheel and c.rank == 14 else int(c.rank)
        return (-counts[c.rank], -rank, c.suit.index)

    return sorted(cards, key=key)


def made_so_far(cards: Sequence[Card], size: int) -> int | None:
    """What a box of ``size`` cards (3 or 5) holding ``cards`` has made so far, as a
    strength: a full box's own (:func:`evaluate`, R1.2–R1.4); an incomplete one's only once
    it holds a pair or better, counted from the cards there (a pair, two pair, three or four
    of a kind: the category and the ranks that make it, no kickers), ``None`` before (a
    straight or a flush is not made until the box is full). What the private hand prints
    beside a box during play, as the showdown names it."""
    if len(cards) >= size:
        return evaluate(cards)
    counts = Counter(c.rank for c in cards)
    groups = sorted(((n, int(r)) for r, n in counts.items() if n >= 2), reverse=True)
    if not groups:
        return None
    top_n, top_r = groups[0]
    if top_n == 4:
        return strength_of(HandCategory.QUADS, (top_r,))
    if top_n == 3:
        return strength_of(HandCategory.TRIPS, (top_r,))
    if len(groups) >= 2:
        return strength_of(HandCategory.TWO_PAIR, (top_r, groups[1][1]))
    return strength_of(HandCategory.PAIR, (top_r,))
