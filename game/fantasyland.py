"""The exact Fantasyland solver: the best board from 13–17 cards dealt at once (R6.2, R6.4).

A Fantasyland player sets 13 of their cards on top (3), middle (5) and bottom (5) and
discards the rest (R6.2). :func:`solve_fantasyland` returns the arrangement that

1. is not fouled (bottom ≥ middle ≥ top on one scale, R2.2, R1.4) — one always exists: the
   strongest five of the 13 kept cards below the strongest five of the other eight, the last
   three on top (a five-card box holding the top's three cards is at least as strong);
2. maximises its *value*: the royalties of the three boxes (R5.6, doubled for the box that
   holds 2♠ under ``deuce_of_spades``, R4.4) plus ``stay_value`` points when the board keeps
   Fantasyland for the next hand (R6.4: trips on top or quads or better on bottom, with
   ``stay_on_full_house_middle`` also a full house or better in middle);
3. among equal values, has the strongest bottom, then the strongest middle, then the
   strongest top (packed strengths of :mod:`game.evaluator`, so a stronger board wins more
   boxes); then the first in a fixed order of the cards sorted by ``Card.index``, so the answer
   depends on the set of cards only, never on the order they are given in.

Rules are not restated here: strengths come from :func:`game.evaluator.rank5` and
:func:`~game.evaluator.rank3`, royalties from :func:`game.board.royalty` and staying from
:func:`game.board.fantasyland_cards`, the functions :func:`game.board.assess_board` scores
with. Staying is taken as an *or* of one condition per box (R6.4); each box's condition is
read from :func:`~game.board.fantasyland_cards` with the two other boxes at the weakest
strength, and the winner's value is recomputed from the whole board.

The search is a branch and bound over cached evaluations of every 5- and 3-card subset:
bottoms in order of an upper bound on the value they can reach (their royalty plus the best
royalty of any middle and any top not stronger than them), middles of each bottom in
descending strength with the bound tightened to that middle, tops from a per-leftover list
sorted by value; a branch is cut as soon as its bound cannot beat the best board found.
Pure: no I/O, no randomness, no clock.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations, repeat, starmap
from typing import Final

from game.board import BOXES, Board, Box, fantasyland_cards, royalty
from game.cards import Card, check_distinct
from game.errors import GameError
from game.evaluator import rank3, rank5
from game.options import RuleOptions

__all__ = [
    "DEFAULT_STAY_VALUE",
    "MAX_CARDS",
    "FantasylandSolution",
    "solve_fantasyland",
]

#: Points a board that keeps Fantasyland (R6.4) is worth on top of its royalties, when the
#: caller gives no other figure: an estimate of what one more Fantasyland hand is worth to its
#: player over an ordinary hand (big royalties, seen-all-cards play).
DEFAULT_STAY_VALUE: Final = 15.0
#: The most cards the solver accepts: 17 is the most a Fantasyland deals (R6.2, trips under
#: ``progressive_fantasyland``).
MAX_CARDS: Final = 17

_DEUCE_OF_SPADES_CODE: Final = 2 | 256  # Card(2, spades).code
# Caches of pure functions of a strength: royalty per box (top, middle, bottom), and per rule
# options whether the box alone keeps Fantasyland (bounded: cleared at 64 option sets).
_ROYALTIES: tuple[dict[int, int], dict[int, int], dict[int, int]] = ({}, {}, {})
_STAYS: dict[RuleOptions, tuple[dict[int, bool], dict[int, bool], dict[int, bool]]] = {}


@dataclass(frozen=True, slots=True)
class FantasylandSolution:
    """The solver's arrangement of a Fantasyland hand (R6.2).

    :ivar board: the 13 cards set: top 3, middle 5, bottom 5, each box's cards strongest rank
        first (the order inside a box does not matter to the rules).
    :ivar discards: the cards not set, in ``Card.index`` order (R6.2: face down, never shown).
    :ivar strengths: packed strengths of (top, middle, bottom) (:mod:`game.evaluator`).
    :ivar royalties: royalties of (top, middle, bottom) in points, ``deuce_of_spades``
        doubling included (R5.6, R4.4); zeros when fouled (R2.3).
    :ivar stays: the board keeps Fantasyland for the next hand (R6.4).
    :ivar fouled: the board breaks R2.2. Only possible when cards already placed (``fixed``)
        leave no legal board; see :func:`solve_fantasyland`.
    :ivar value: royalties plus ``stay_value`` if it stays, in points; 0 when fouled.
    """

    board: Board
    discards: tuple[Card, ...]
    strengths: tuple[int, int, int]
    royalties: tuple[int, int, int]
    stays: bool
    fouled: bool
    value: float

    @property
    def royalty_total(self) -> int:
        """Sum of the three royalties, in points."""
        return self.royalties[0] + self.royalties[1] + self.royalties[2]

    def placements(self, cards: Iterable[Card]) -> list[tuple[Card, Box | None]]:
        """``(card, box)`` for each of ``cards`` in their order, box ``None`` for a discard:
        the shape :meth:`game.hand.Hand.suggest` returns. Cards not on the board count as
        discards."""
        where: dict[Card, Box] = {}
        for box in BOXES:
            for c in self.board.box(box):
                where[c] = box
        return [(c, where.get(c)) for c in cards]


class _Side:
    """The candidates of one box: every way to fill it from the free cards, each a bit mask
    over the free cards with its packed strength, royalty (points) and whether the box alone
    keeps Fantasyland; sorted by strength, strongest first (ties in enumeration order).

    ``suf_v[i]`` / ``suf_w[i]``: the best royalty / royalty plus stay value of any candidate
    at position ``i`` or after it, i.e. not stronger than candidate ``i``; ``-1`` past the end.
    """

    __slots__ = ("masks", "neg", "royalty", "stay", "strength", "suf_v", "suf_w")

    def __init__(
        self,
        evaluated: tuple[list[int], list[int], list[int]],
        royalty: list[int],
        stay: list[bool],
        stay_value: float,
    ) -> None:
        self.strength, self.masks, self.neg = evaluated
        self.royalty = royalty
        self.stay = stay
        w = [v + stay_value if st else float(v) for v, st in zip(royalty, stay, strict=True)]
        self.suf_v = [*reversed(list(accumulate(reversed(royalty), max))), -1]
        self.suf_w = [*reversed(list(accumulate(reversed(w), max))), -1.0]

    def caps(self, neg_strengths: Iterable[int]) -> list[int]:
        """Per negated strength, the index of the first candidate not stronger than it."""
        return list(map(bisect_left, repeat(self.neg), neg_strengths))


def solve_fantasyland(
    cards: Sequence[Card],
    options: RuleOptions | None = None,
    *,
    stay_value: float = DEFAULT_STAY_VALUE,
    fixed: Board | None = None,
) -> FantasylandSolution:
    """Arrange a Fantasyland hand exactly: the legal board of 13 cards with the most royalties
    plus ``stay_value`` if it keeps Fantasyland (R6.2, R6.4, R5.6, R4.4, R2.2); ties as the
    module documentation says. Deterministic.

    :param cards: the cards still to set (14–17 in Pineapple, 13 in classic OFC; any 13–17),
        distinct and not on ``fixed``.
    :param options: the table's rules (``deuce_of_spades``, ``stay_on_full_house_middle``,
        ``fantasyland``); Pineapple defaults when omitted.
    :param stay_value: points a board that keeps Fantasyland is worth on top of its
        royalties, ``≥ 0`` (:data:`DEFAULT_STAY_VALUE` by default; 0 maximises royalties
        alone).
    :param fixed: cards the player already put in boxes this street; they stay where they
        are (R8.5), and ``cards`` fill the free slots. With ``fixed``, a legal board may not
        exist (say AA on top over a middle that cannot pair): then every board is equally
        bad — a fouled board earns nothing and loses the same to everyone whatever it holds
        (R2.3, R5.4) — and the solver returns the one with the strongest bottom, then middle,
        then top, marked ``fouled``.
    :returns: the arrangement, its discards and value.
    :raises CardError: if a card repeats (in ``cards`` or against ``fixed``).
    :raises GameError: if the free slots cannot be filled (fewer cards than free slots),
        more than :data:`MAX_CARDS` cards are given, or ``stay_value`` is negative.
    """
    opts = options or RuleOptions()
    base = fixed or Board()
    fixed_rows = (base.top, base.middle, base.bottom)
    check_distinct([*base.cards(), *cards])
    free_slots = 13 - base.count
    if len(cards) < free_slots:
        raise GameError(f"{free_slots} free slots need as many cards, got {len(cards)}")
    if len(cards) + base.count > MAX_CARDS:
        raise GameError(f"at most {MAX_CARDS} cards, got {len(cards) + base.count}")
    if not stay_value >= 0:
        raise GameError(f"stay_value must be ≥ 0, got {stay_value}")
    free = sorted(cards, key=lambda c: c.index)
    codes = [c.code for c in free]
    n = len(free)

    bits = [1 << i for i in range(n)]
    deuce_bit = sum(b for b, c in zip(bits, codes, strict=True) if c == _DEUCE_OF_SPADES_CODE)
    evaluated: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[int], list[int]]] = {}
    stay_cache = _STAYS.get(opts)
    if stay_cache is None:
        if len(_STAYS) >= 64:
            _STAYS.clear()
        stay_cache = _STAYS[opts] = ({}, {}, {})

    def side(k: int) -> _Side:
        box = BOXES[k]
        fixed_codes = tuple(c.code for c in fixed_rows[k])
        key = (box.size, fixed_codes)
        if key not in evaluated:
            evaluated[key] = _subsets(fixed_codes, codes, bits, box.size)
        strength, masks, _ = evaluated[key]  # shared by middle and bottom when both free
        roy_of, stay_of = _ROYALTIES[k], stay_cache[k]
        missing = set(strength).difference(stay_of)
        if missing:
            probe = [0, 0, 0]  # the other two boxes at the weakest strength never keep it
            for s in missing:
                probe[k] = s
                stay_of[s] = fantasyland_cards(probe[0], probe[1], probe[2], opts, True) > 0
                roy_of[s] = royalty(box, s)
        roy = list(map(roy_of.__getitem__, strength))
        if opts.deuce_of_spades:  # R4.4: the box holding 2♠ doubles its royalty
            if _DEUCE_OF_SPADES_CODE in fixed_codes:
                roy = [2 * r for r in roy]
            elif deuce_bit:
                roy = [2 * r if m & deuce_bit else r for r, m in zip(roy, masks, strict=True)]
        return _Side(evaluated[key], roy, list(map(stay_of.__getitem__, strength)), stay_value)

    tops, mids, bots = side(0), side(1), side(2)
    best = _search(tops, mids, bots, n, len(fixed_rows[0]), stay_value)
    if best is None:
        # no legal board with the fixed cards: every fouled board is as bad as another
        bm = bots.masks[0]
        mm = next(m for m in mids.masks if not m & bm)
        tm = next(m for m in tops.masks if not m & (bm | mm))
        return _solution(free, fixed_rows, (tm, mm, bm), opts, stay_value)
    return _solution(free, fixed_rows, best, opts, stay_value)


def _subsets(
    fixed_codes: tuple[int, ...], codes: Sequence[int], bits: Sequence[int], size: int
) -> tuple[list[int], list[int], list[int]]:
    """Strengths, free-card masks and negated strengths of every box of ``size`` cards
    holding ``fixed_codes`` and the rest from ``codes`` (R1.2–R1.4), strongest first (ties in
    ``combinations`` order)."""
    take = size - len(fixed_codes)
    combos: Iterable[tuple[int, ...]] = combinations(codes, take)
    if fixed_codes:
        combos = (fixed_codes + c for c in combos)
    strength = list(starmap(rank3, combos) if size == 3 else starmap(rank5, combos))
    masks = list(map(sum, combinations(bits, take)))
    order = sorted(range(len(strength)), key=strength.__getitem__, reverse=True)  # stable
    strength = [strength[i] for i in order]
    return strength, [masks[i] for i in order], [-s for s in strength]


def _search(
    tops: _Side, mids: _Side, bots: _Side, n: int, top_fixed: int, stay_value: float
) -> tuple[int, int, int] | None:
    """The branch and bound: masks (top, middle, bottom) of the best legal board, or ``None``
    when no legal board exists."""
    S = stay_value
    t_strength, t_roy, t_stay = tops.strength, tops.royalty, tops.stay
    t_suf_v, t_suf_w = tops.suf_v, tops.suf_w
    m_strength, m_masks, m_roy, m_stay = mids.strength, mids.masks, mids.royalty, mids.stay
    m_suf_v, m_suf_w = mids.suf_v, mids.suf_w
    t_cap_of_mid = tops.caps(mids.neg)
    top_of_mask = {m: i for i, m in enumerate(tops.masks)}
    take_top = 3 - top_fixed

    # per leftover set of free cards (and whether the stay is already made below): the tops
    # it can hold as (value, strength, mask), best value first, then strongest
    top_lists: dict[tuple[int, bool], list[tuple[float, int, int]]] = {}

    def tops_in(left: int, stayed: bool) -> list[tuple[float, int, int]]:
        out: list[tuple[float, int, int]] = []
        for m in map(sum, combinations([1 << i for i in range(n) if left >> i & 1], take_top)):
            i = top_of_mask[m]
            v = t_roy[i]
            out.append((v + S if (t_stay[i] and not stayed) else float(v), t_strength[i], m))
        out.sort(key=lambda e: (-e[0], -e[1]))
        top_lists[(left, stayed)] = out
        return out

    full = (1 << n) - 1
    # bottoms by their bound: royalty + the best middle and top not stronger than them
    b_strength = bots.strength
    if bots.neg is mids.neg:  # the same candidates: a bottom's cap is its run's first index
        first = dict(zip(reversed(b_strength), range(len(b_strength) - 1, -1, -1), strict=True))
        m_caps = list(map(first.__getitem__, b_strength))
        t_caps = t_cap_of_mid
    else:
        m_caps = mids.caps(bots.neg)
        t_caps = tops.caps(bots.neg)
    # (−bound, −strength, index), sorted: the most promising bottom first
    order: list[tuple[float, int, int]] = []
    for i, vb in enumerate(bots.royalty):
        mc, tc = m_caps[i], t_caps[i]
        if m_suf_v[mc] < 0 or t_suf_v[tc] < 0:
            continue  # no middle or no top fits below it
        if bots.stay[i]:
            ub = vb + m_suf_v[mc] + t_suf_v[tc] + S
        else:
            ub = vb + max(m_suf_w[mc] + t_suf_v[tc], m_suf_v[mc] + t_suf_w[tc])
        order.append((-ub, -b_strength[i], i))
    order.sort()

    best_v = -1.0
    best_b = best_m = best_t = -1  # strengths of the best board's boxes
    best: tuple[int, int, int] | None = None
    n_mid = len(m_masks)
    for neg_ub, neg_sb, i in order:
        ub, sb = -neg_ub, -neg_sb
        if ub < best_v:
            break
        if ub == best_v and sb < best_b:
            continue
        bm = bots.masks[i]
        vb = bots.royalty[i]
        b_stay = bots.stay[i]
        left_b = full ^ bm
        for j in range(m_caps[i], n_mid):
            mm = m_masks[j]
            if mm & bm:
                continue
            tc = t_cap_of_mid[j]
            # bound of this middle and every weaker one
            if b_stay:
                rb = vb + m_suf_v[j] + t_suf_v[tc] + S
            else:
                rb = vb + max(m_suf_w[j] + t_suf_v[tc], m_suf_v[j] + t_suf_w[tc])
            if rb <= best_v and (
                rb < best_v or sb < best_b or (sb == best_b and m_strength[j] < best_m)
            ):
                break
            if t_suf_v[tc] < 0:
                break  # no top fits under this middle nor any weaker one
            stayed = b_stay or m_stay[j]
            base = vb + m_roy[j] + (S if stayed else 0.0)
            if base + (t_suf_v[tc] if stayed else t_suf_w[tc]) < best_v:
                continue
            sm = m_strength[j]
            left = left_b ^ mm
            lst = top_lists.get((left, stayed)) or tops_in(left, stayed)
            for w, st, tm in lst:
                value = base + w
                if value < best_v:
                    break
                if st > sm:
                    continue
                if value > best_v or (sb, sm, st) > (best_b, best_m, best_t):
                    best_v, best_b, best_m, best_t = value, sb, sm, st
                    best = (tm, mm, bm)
                break
    return best


def _solution(
    free: Sequence[Card],
    fixed_rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]],
    masks: tuple[int, int, int],
    options: RuleOptions,
    stay_value: float,
) -> FantasylandSolution:
    """Build the result for masks (top, middle, bottom) over ``free``; value recomputed from
    the whole board (R2.2, R5.6, R4.4, R6.4)."""
    rows: list[tuple[Card, ...]] = []
    used = 0
    for k in range(3):
        mask = masks[k]
        used |= mask
        chosen = [*fixed_rows[k], *(c for i, c in enumerate(free) if mask >> i & 1)]
        chosen.sort(key=lambda c: -c.index)
        rows.append(tuple(chosen))
    board = Board(rows[0], rows[1], rows[2])
    discards = tuple(c for i, c in enumerate(free) if not used >> i & 1)
    t, m, b = board.top, board.middle, board.bottom
    st = rank3(t[0].code, t[1].code, t[2].code)
    sm = rank5(*(c.code for c in m))
    sb = rank5(*(c.code for c in b))
    if st > sm or sm > sb:
        return FantasylandSolution(board, discards, (st, sm, sb), (0, 0, 0), False, True, 0.0)
    roy = []
    for box, s in zip(BOXES, (st, sm, sb), strict=True):
        r = royalty(box, s)
        if options.deuce_of_spades and any(c.code == _DEUCE_OF_SPADES_CODE for c in board.box(box)):
            r *= 2
        roy.append(r)
    stays = fantasyland_cards(st, sm, sb, options, True) > 0
    total = roy[0] + roy[1] + roy[2]
    value = float(total) + stay_value if stays else float(total)
    return FantasylandSolution(
        board, discards, (st, sm, sb), (roy[0], roy[1], roy[2]), stays, False, value
    )
