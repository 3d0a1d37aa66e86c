"""A value of partial Pineapple boards fitted by backward induction (issue 13): fitted value
iteration over the streets, so that the value approximates playing on *optimally* (for this
model's objective), not the value of the ``strong`` player's own heuristic play.

The objective of a finished 13-card board is

    royalties (R5.6) + 0.35 × (sum of the three boxes' hand categories)
    + F if it earns Fantasyland (R6.1) − C if it is fouled (R2.3, a fouled board has no
    royalties),

``F`` and ``C`` being knobs that choose a point on the Fantasyland/foul frontier. For a board
of ``n`` = 11, 9, 7 or 5 cards (after Pineapple streets 4, 3, 2, 1) and the cards the seat
knows to be out of the deck, :class:`AdpModel` estimates three components of the best
continuation: P(Fantasyland), P(foul) and the expected royalties (with the box-strength term),
each a small multi-layer perceptron (one hidden layer) over :func:`features` and the knobs
(``F``/50, ``C``/50), so that one model covers the frontier; the value is
``royalty + F × P(Fantasyland) − C × P(foul)``.

The weights live in ``game/adp_model.json``, written by ``tools/adp_fit.py`` (offline):
V_11's targets are the expectation over sampled last streets of the best finish (exact search
over keeps and slots), V_9's the mean over sampled next streets of the best afterstate by the
fitted V_11, and so on down to V_5. This module reads that file once, at import
(:data:`MODEL`, ``None`` without it; the environment variable ``OFC_ADP_MODEL`` names another
file instead, :data:`MODEL_ENV`), and evaluates the perceptrons with numpy, many boards in
one matrix product (:meth:`AdpModel.components_many`); :func:`choose` places a street by the
model (the policy's switch, ``game.policy.STRONG_ADP``).
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations, permutations
from pathlib import Path
from typing import Final

import numpy as np

from game.board import BOXES, Board, Box, fantasyland_cards, royalty
from game.cards import DECK, Card
from game.evaluator import rank3, rank5
from game.options import RuleOptions
from game.strategy import candidate_placements, made_ranks, street_placements

__all__ = [
    "FEATURES",
    "MODEL",
    "RESIDUAL_FEATURES",
    "AdpModel",
    "afterstates",
    "choose",
    "deeper_best_many",
    "deeper_draws",
    "exact_last",
    "features",
    "finish_outcome",
    "last_chances",
    "last_chances_many",
    "last_street_target",
    "next_street_target",
    "objective",
    "rank_counts",
    "refined_best",
    "residual_features",
    "top_class",
]

#: The names of :func:`features`' numbers, in order (the model file's schema).
FEATURES: Final[tuple[str, ...]] = (
    "t_n",
    "t_qq",
    "t_qq_rank",
    "t_lowpair",
    "t_lone",
    "t_lone_rank",
    "t_lone_outs",
    "t_lone_two_free",
    "t_high",
    "t_full_nofl",
    "m_n",
    "m_pair",
    "m_two_pair",
    "m_trips",
    "m_rank",
    "m_flush",
    "m_straight",
    "m_beats_qq",
    "b_n",
    "b_pair",
    "b_two_pair",
    "b_trips",
    "b_rank",
    "b_flush",
    "b_straight",
    "top_over_mid",
    "top_over_mid_free",
    "mid_over_bot",
    "mid_over_bot_free",
    "m_high",
    "b_high",
    "qq_mid_outs",
    "lone_mid_outs",
    "bot_outs",
    "cat_margin_mb",
    "cat_margin_tm",
    "t_lone_live",
    "m_flush_outs",
    "b_flush_outs",
    "t_pair_outs",
    "t_low_rank",
    "unseen",
    "mid_beat_outs",
    "bot_beat_outs",
    "mid_beat_margin",
    "bot_beat_margin",
)

_QQ_TOP = 1 << 20 | 12 << 16  # the weakest top that enters Fantasyland (R6.1)
_ABOVE_QQ = 1 << 20 | 12 << 16 | 15 << 12  # a middle above any QQ top
#: Weight of the hand categories (pair 1 … straight flush 8) in the objective: a small term
#: for winning the boxes (R5.1) besides the royalties.
STRENGTH_WEIGHT: Final = 0.35


@lru_cache(maxsize=1 << 16)
def _strength(cards: tuple[Card, ...], size: int) -> int:
    if len(cards) == size:
        codes = [c.code for c in cards]
        return rank3(*codes) if size == 3 else rank5(*codes)
    return made_ranks([c.rank for c in cards])


@lru_cache(maxsize=1 << 16)
def _draws(cards: tuple[Card, ...]) -> tuple[float, float]:
    """(flush draw, straight draw) of a 5-card box: its cards ÷ 5 if all share a suit; its
    distinct ranks in one 5-rank window ÷ 5 if none is paired; 0 for fewer than 2 cards."""
    n = len(cards)
    if n < 2:
        return 0.0, 0.0
    flush = n / 5 if len({c.suit for c in cards}) == 1 else 0.0
    ranks = {c.rank for c in cards}
    straight = 0.0
    if len(ranks) == n:
        low = {1 if r == 14 else r for r in ranks} | ranks
        best = max(sum(1 for r in low if lo <= r < lo + 5) for lo in range(1, 11))
        straight = best / 5 if best == n else 0.0
    return flush, straight


@lru_cache(maxsize=1 << 16)
def _lifting(ranks: tuple[int, ...], upper: int) -> tuple[int, ...]:
    """The ranks whose card, joining a box of ``ranks``, makes it better than ``upper``."""
    return tuple(r for r, s in zip(range(2, 15), _joined(ranks), strict=True) if s > upper)


@lru_cache(maxsize=1 << 14)
def _joined(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The made hand (:func:`made_ranks`) of a box of ``ranks`` joined by a card of each rank
    2 … 14 (a cache shared by every ``upper`` of :func:`_lifting`)."""
    return tuple(made_ranks([*ranks, r]) for r in range(2, 15))


def _margin(lower: int, upper: int) -> float:
    """How far a box's made hand is above (> 0) or below the one over it: categories, then
    ranks within one (÷ 14)."""
    cat = (lower >> 20) - (upper >> 20)
    if cat:
        return float(cat)
    return (((lower >> 16) & 15) - ((upper >> 16) & 15)) / 14


def _box_features(
    cards: Sequence[Card], cat: int, strength: int, flush: float, straight: float
) -> list[float]:
    """A five-card box's part of :func:`features`: its fill, pair / two pair / trips or
    better, the rank of its made hand, and its flush and straight draws."""
    return [
        len(cards) / 5,
        1.0 if cat == 1 else 0.0,
        1.0 if cat == 2 else 0.0,
        1.0 if cat >= 3 else 0.0,
        ((strength >> 16) & 15) / 14 if cat else 0.0,
        flush,
        straight,
    ]


def rank_counts(cards: Iterable[Card]) -> dict[int, int]:
    """How many of ``cards`` there are of each rank (2 … 14, every rank a key)."""
    counts = dict.fromkeys(range(2, 15), 0)
    for c in cards:
        counts[c.rank] += 1
    return counts


@lru_cache(maxsize=256)
def _counts(cards: frozenset[Card]) -> tuple[dict[int, int], dict[object, int]]:
    """How many of ``cards`` there are of each rank (every rank a key) and of each suit
    (cached: a street's afterstates share their dead cards; do not mutate the dicts)."""
    suits: dict[object, int] = {}
    for c in cards:
        suits[c.suit] = suits.get(c.suit, 0) + 1
    return rank_counts(cards), suits


# The per-box caches below hold tuples of numbers only (which the garbage collector stops
# tracking) and few entries (a decision's boxes): bigger ones made every full collection
# slower, up to 1 s stalls on the bench's later decisions.
@lru_cache(maxsize=1 << 12)
def _top_part(
    top: tuple[Card, ...],
) -> tuple[int, int, int, float, float, int, float, tuple[int, ...], tuple[float, ...]]:
    """The top box's part of :func:`features` that reads no dead card (cached per box):
    strength, category, made rank, QQ+ (0/1), lone Q+ (0/1), highest rank, a low pair (0/1),
    its distinct ranks, and its first numbers but the outs."""
    ts = _strength(top, 3)
    t_ranks = [int(c.rank) for c in top]  # ints, not Ranks: no object for the collector
    t_cat = ts >> 20
    t_rank = (ts >> 16) & 15
    qq = 1.0 if ts >= _QQ_TOP and t_cat in (1, 3) else 0.0
    lowpair = 1.0 if t_cat and not qq else 0.0
    high = max(t_ranks, default=0)
    lone = 1.0 if not t_cat and high >= 12 and len(top) < 3 else 0.0
    head = (
        len(top) / 3,
        qq,
        (t_rank - 12 if t_cat == 1 else 3) * qq,
        lowpair,
        lone,
        float((high - 12) * lone),
    )
    return ts, t_cat, t_rank, qq, lone, high, lowpair, tuple(set(t_ranks)), head


@lru_cache(maxsize=1 << 12)
def _five_part(
    cards: tuple[Card, ...],
) -> tuple[int, int, float, tuple[float, ...], tuple[int, ...], int, tuple[int, ...], int]:
    """A five-card box's part of :func:`features` that reads no dead card (cached per box):
    strength, category, flush draw, :func:`_box_features`, its distinct ranks, its cards of
    rank Q+, its ranks sorted, and its cards of its first card's suit (0 for none)."""
    s = _strength(cards, 5)
    cat = s >> 20
    flush, straight = _draws(cards)
    suit = sum(1 for c in cards if c.suit == cards[0].suit) if cards else 0
    return (
        s,
        cat,
        flush,
        tuple(_box_features(cards, cat, s, flush, straight)),
        tuple({int(c.rank) for c in cards}),
        sum(1 for c in cards if c.rank >= 12),
        tuple(sorted(int(c.rank) for c in cards)),
        suit,
    )


@lru_cache(maxsize=256)
def _dead_counts(cards: frozenset[Card]) -> tuple[tuple[int, ...], dict[object, int]]:
    """:func:`_counts` with the ranks as a list indexed by rank (0 … 14; do not mutate)."""
    ranks, suits = _counts(cards)
    return (0, 0, *(ranks[r] for r in range(2, 15))), suits


def features(board: Board, dead: Collection[Card] = ()) -> list[float]:
    """The numbers :class:`AdpModel` reads off a partial board, named by :data:`FEATURES`.

    Only the seat's own board and the cards it knows are out (``dead``: its discards and the
    opponents' open cards, none of them on ``board``; R3.3) are read: the outs features count
    the cards of a rank or suit left among the 52 less the board's and ``dead``. (Each box's
    part that reads no dead card is cached per box: the look-ahead's boards share boxes.)
    """
    top, mid, bot = board.top, board.middle, board.bottom
    ts, t_cat, t_rank, qq, lone, high, lowpair, t_set, head = _top_part(top)
    ms, m_cat, m_flush, m_feats, m_set, m_high, m_sorted, m_suit = _five_part(mid)
    bs, b_cat, b_flush, b_feats, b_set, b_high, b_sorted, b_suit = _five_part(bot)
    ranks_dead, suits_dead = _dead_counts(dead if isinstance(dead, frozenset) else frozenset(dead))
    seen = list(ranks_dead)
    for c in top:
        seen[c.rank] += 1
    for r in m_sorted:
        seen[r] += 1
    for r in b_sorted:
        seen[r] += 1
    n_top, n_mid, n_bot = len(top), len(mid), len(bot)
    tom = 1.0 if ts > ms else 0.0
    mob = 1.0 if ms > bs else 0.0
    qq_outs = 0.0
    if qq and ms <= ts and n_mid < 5:
        qq_outs = sum(4 - seen[r] for r in m_set if r > t_rank or m_cat) / 10
    lone_outs = 0.0
    if lone and ms <= _ABOVE_QQ and n_mid < 5:
        lone_outs = sum(4 - seen[r] for r in m_set if r > high or m_cat) / 10
    bot_outs = 0.0
    if bot and n_bot < 5 and bs <= ms:
        bot_outs = sum(4 - seen[r] for r in b_set) / 10
    m_fo = 0.0
    if m_flush and n_mid < 5:
        s = mid[0].suit
        on = sum(1 for c in top if c.suit == s) + m_suit + sum(1 for c in bot if c.suit == s)
        m_fo = (13 - (suits_dead.get(s, 0) + on)) / 13
    b_fo = 0.0
    if b_flush and n_bot < 5:
        s = bot[0].suit
        on = sum(1 for c in top if c.suit == s) + sum(1 for c in mid if c.suit == s) + b_suit
        b_fo = (13 - (suits_dead.get(s, 0) + on)) / 13
    t_pair_outs = 0.0
    if n_top < 3 and not t_cat:
        t_pair_outs = sum(4 - seen[r] for r in t_set) / 6
    unseen = 52 - (n_top + n_mid + n_bot) - len(dead)
    mid_beat = 0.0
    if top and n_mid < 5 and ms <= ts:
        mid_beat = sum(4 - seen[r] for r in _lifting(m_sorted, ts)) / 10
    bot_beat = 0.0
    if mid and n_bot < 5 and bs <= ms:
        bot_beat = sum(4 - seen[r] for r in _lifting(b_sorted, ms)) / 10
    high_live = (4 - seen[high]) / 3 if lone else 0.0
    return [
        *head,
        high_live,
        lone if n_top == 1 else 0.0,
        0.0 if t_cat else high / 14,
        1.0 if n_top == 3 and not qq else 0.0,
        *m_feats,
        1.0 if ms > _ABOVE_QQ else 0.0,
        *b_feats,
        tom,
        tom * n_mid / 5,
        mob,
        mob * n_bot / 5,
        m_high / 5,
        b_high / 5,
        qq_outs,
        lone_outs,
        bot_outs,
        (b_cat - m_cat) / 3 if bot and mid else 0.0,
        (m_cat - t_cat) / 3 if top and mid else 0.0,
        high_live,
        m_fo,
        b_fo,
        t_pair_outs,
        (t_rank / 14 if lowpair else 0.0),
        unseen / 40,
        mid_beat,
        bot_beat,
        _margin(ms, ts) if top and mid else 0.0,
        _margin(bs, ms) if mid and bot else 0.0,
    ]


def finish_outcome(board: Board, options: RuleOptions) -> tuple[float, float, float]:
    """(Fantasyland earned 0/1 (R6.1), fouled 0/1 (R2.3), royalties (R5.6) plus
    :data:`STRENGTH_WEIGHT` × the categories) of a complete board."""
    return _outcome(
        [c.code for c in board.top],
        [c.code for c in board.middle],
        [c.code for c in board.bottom],
        options,
    )


def _outcome(
    t: Sequence[int], m: Sequence[int], b: Sequence[int], options: RuleOptions
) -> tuple[float, float, float]:
    """:func:`finish_outcome` of a complete board given as its boxes' card codes (3, 5, 5)."""
    st = rank3(t[0], t[1], t[2])
    sm = rank5(m[0], m[1], m[2], m[3], m[4])
    sb = rank5(b[0], b[1], b[2], b[3], b[4])
    if st > sm or sm > sb:
        return 0.0, 1.0, 0.0
    roy = royalty(Box.TOP, st) + royalty(Box.MIDDLE, sm) + royalty(Box.BOTTOM, sb)
    fl = 1.0 if fantasyland_cards(st, sm, sb, options, False) else 0.0
    return fl, 0.0, roy + STRENGTH_WEIGHT * ((st >> 20) + (sm >> 20) + (sb >> 20))


def afterstates(
    board: Board, cards: Sequence[Card], discards: int
) -> list[tuple[list[tuple[Card, Box | None]], Board, tuple[Card, ...]]]:
    """Every distinct legal way to place a street: ``(placement, board after it, the cards
    discarded)``, placement as ``(card, box or None)`` per card of ``cards`` (R3.2;
    :func:`game.strategy.street_placements`, in its order)."""
    # distinct cards: every (discards, boxes) choice gives another board, no duplicate to drop
    return [_afterstate(board, p) for p in street_placements(board, cards, discards)]


def _afterstate(
    board: Board, placement: list[tuple[Card, Box | None]]
) -> tuple[list[tuple[Card, Box | None]], Board, tuple[Card, ...]]:
    """``(placement, the board after it, the cards it discards)`` for a legal ``placement``
    of a street on ``board`` (:func:`afterstates`)."""
    rows: list[list[Card]] = [list(board.top), list(board.middle), list(board.bottom)]
    thrown: list[Card] = []
    for card, box in placement:
        if box is None:
            thrown.append(card)
        else:
            rows[box.index].append(card)
    after = Board(tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))
    return placement, after, tuple(thrown)


def objective(o: tuple[float, float, float], fl: float, foul: float) -> float:
    """The objective of outcome or components ``o`` = (Fantasyland, foul, royalties) for the
    knobs F (``fl``) and C (``foul``): ``royalties + F × FL − C × foul``."""
    return o[2] + fl * o[0] - foul * o[1]


def best_finish(
    board: Board, cards: Sequence[Card], keep: int, options: RuleOptions, fl: float, foul: float
) -> tuple[float, tuple[float, float, float], list[tuple[Card, Box | None]]]:
    """The best way to finish ``board`` with ``keep`` of ``cards`` (the last street, searched
    exhaustively): (objective, its :func:`finish_outcome`, the placement); ties go to the
    first in a fixed order, so it is deterministic."""
    # card codes, not Boards: this is the innermost loop of street 4's and the refined look-ahead
    slots = [i for i, b in enumerate(BOXES) for _ in range(board.free(b))]
    orders = list(dict.fromkeys(permutations(slots)))
    base = (
        [c.code for c in board.top],
        [c.code for c in board.middle],
        [c.code for c in board.bottom],
    )
    best_v = -1e18
    best_o = (0.0, 1.0, 0.0)
    best: tuple[tuple[Card, ...], tuple[int, ...]] | None = None
    for kept in combinations(cards, keep):
        codes = [c.code for c in kept]
        for order in orders:
            rows = (base[0][:], base[1][:], base[2][:])
            for code, i in zip(codes, order, strict=True):
                rows[i].append(code)
            o = _outcome(rows[0], rows[1], rows[2], options)
            v = o[2] + fl * o[0] - foul * o[1]  # objective(o, fl, foul), inlined
            if v > best_v:
                best_v, best_o, best = v, o, (kept, order)
    if best is None:
        return best_v, best_o, []
    placed = {c: BOXES[i] for c, i in zip(best[0], best[1], strict=True)}
    return best_v, best_o, [(c, placed.get(c)) for c in cards]


Components = tuple[float, float, float]  # P(Fantasyland), P(foul), royalties


def last_street_target(
    board: Board, draws: Iterable[Sequence[Card]], options: RuleOptions, fl: float, foul: float
) -> Components:
    """V_11's target (the backward induction's first step): the mean over ``draws`` (the
    last street's possible 3-card deals, all of them or a sample) of the
    :func:`finish_outcome` of the best finish for the objective (:func:`best_finish`).
    :raises ZeroDivisionError: for no draw."""
    acc = [0.0, 0.0, 0.0]
    n = 0
    for cards in draws:
        _, o, _ = best_finish(board, cards, 13 - board.count, options, fl, foul)
        n += 1
        for j in range(3):
            acc[j] += o[j]
    return acc[0] / n, acc[1] / n, acc[2] / n


def next_street_target(
    board: Board,
    dead: Collection[Card],
    streets: Iterable[tuple[Sequence[Card], Sequence[Card]]],
    values: Callable[[Sequence[tuple[Board, frozenset[Card]]]], Sequence[Components]],
    fl: float,
    foul: float,
    refine: Callable[[Sequence[tuple[Board, frozenset[Card]]], Sequence[Components]], Components]
    | None = None,
    refine_all: Callable[
        [Sequence[tuple[Sequence[tuple[Board, frozenset[Card]]], Sequence[Components]]]],
        Sequence[Components],
    ]
    | None = None,
) -> Components:
    """V_n's target from V_{n+2} (``values``: the components of many ``(afterstate, dead)``
    pairs at once): the mean over ``streets`` — each the next street's three cards and the
    cards the opponents turn up meanwhile (they join the dead cards) — of the components of
    the afterstate (keep two, discard one, R3.2) whose ``royalties + F·P(FL) − C·P(foul)`` is
    highest; with ``refine``, of what ``refine`` makes of one street's afterstates and their
    fitted components instead (:func:`refined_best`); with ``refine_all``, likewise of what
    it makes of every street's at once (one list of ``(pairs, components)`` per street, in
    order; :func:`deeper_best_many`). :raises ZeroDivisionError: for no street."""
    pairs: list[tuple[Board, frozenset[Card]]] = []
    spans: list[tuple[int, int]] = []
    for cards, opp in streets:
        known = frozenset(dead) | frozenset(opp)
        start = len(pairs)
        pairs.extend(_after_pairs(board, cards, known))
        spans.append((start, len(pairs)))
    if not spans:
        raise ZeroDivisionError("no street")
    got = values(pairs)
    acc = [0.0, 0.0, 0.0]
    bests: Sequence[Components] = []
    if refine_all is not None:
        bests = refine_all([(pairs[start:end], got[start:end]) for start, end in spans])
    for n, (start, end) in enumerate(spans):
        # the first of equals, as the afterstates come
        if refine_all is not None:
            best = bests[n]
        elif refine is None:
            best = max(got[start:end], key=lambda o: objective(o, fl, foul))
        else:
            best = refine(pairs[start:end], got[start:end])
        for j in range(3):
            acc[j] += best[j]
    n = len(spans)
    return acc[0] / n, acc[1] / n, acc[2] / n


def refined_best(
    pairs: Sequence[tuple[Board, frozenset[Card]]],
    got: Sequence[Components],
    best: int,
    draws: int,
    options: RuleOptions,
    fl: float,
    foul: float,
    seed: int,
) -> Components:
    """One drawn street's best afterstate, the fitted V_11 corrected where it errs most
    (issue 13): of the 11-card afterstates ``pairs`` (``(board, dead)``, all after the same
    street) with their fitted components ``got``, the ``best`` of highest fitted value are
    valued again by :func:`last_street_target` over ``draws`` last streets drawn (seeded by
    ``seed``) from the cards neither on the board nor dead (the same draws for each, less
    those holding a card one of them has discarded), or with ``draws`` 0 exactly over every
    last street (:func:`exact_last`); returns the components of the one of highest objective
    by those values. :raises ValueError: for no pair."""
    if not pairs:
        raise ValueError("no afterstate")
    order = sorted(range(len(got)), key=lambda j: (-objective(got[j], fl, foul), j))[:best]
    rng = random.Random(seed)
    first, first_dead = pairs[order[0]]
    on_first = set(first.cards())
    pool = [c for c in DECK if c not in first_dead and c not in on_first]
    tails = [rng.sample(pool, 3) for _ in range(draws)]
    out: Components | None = None
    out_v = -math.inf
    for j in order:
        board, dead = pairs[j]
        if not draws:
            o = exact_last(board, dead, options, fl, foul)
        else:
            taken = dead | set(board.cards())
            live = [t for t in tails if not taken.intersection(t)] or tails[:1]
            o = last_street_target(board, live, options, fl, foul)
        v = objective(o, fl, foul)
        if v > out_v:
            out, out_v = o, v
    assert out is not None
    return out


def _after_pairs(
    board: Board, cards: Sequence[Card], known: frozenset[Card]
) -> list[tuple[Board, frozenset[Card]]]:
    """``(board after, known and the card discarded)`` of every way to place a three-card
    street (keep two, R3.2), as :func:`afterstates` orders them, each discard's dead cards
    one shared set (the features' cache of dead cards is keyed by it)."""
    out: list[tuple[Board, frozenset[Card]]] = []
    rows = (board.top, board.middle, board.bottom)
    free = [3 - len(rows[0]), 5 - len(rows[1]), 5 - len(rows[2])]
    for thrown in range(3):
        x, y = (cards[i] for i in range(3) if i != thrown)
        gone = known | {cards[thrown]}
        for bx in range(3):
            if not free[bx]:
                continue
            for by in range(3):
                if free[by] < 1 + (bx == by):
                    continue
                r = [rows[0], rows[1], rows[2]]
                r[bx] = (*r[bx], x)
                r[by] = (*r[by], y)
                out.append((Board(r[0], r[1], r[2]), gone))
    return out


def deeper_draws(taken: Collection[Card], draws: int, seed: int) -> list[list[Card]]:
    """:func:`deeper_best_many`'s ``draws`` next streets after cards ``taken`` (on the board
    or dead): seven cards each (the street's three, then the four the opponents turn up) of
    those not taken, seeded by ``seed`` and ``taken`` (the same cards taken, the same draws)."""
    pool = [c for c in DECK if c not in taken]
    rng = random.Random(seed * 1_000_003 + sum(c.index**2 for c in taken))
    return [rng.sample(pool, 7) for _ in range(draws)]


def deeper_best_many(
    groups: Sequence[tuple[Sequence[tuple[Board, frozenset[Card]]], Sequence[Components]]],
    best: int,
    draws: int,
    values: Callable[[Sequence[tuple[Board, frozenset[Card]]]], Sequence[Components]],
    fl: float,
    foul: float,
    seed: int,
) -> list[Components]:
    """Each drawn street's best afterstate, the fitted value corrected by one more street
    (issue 13, street 2's look-ahead): of each group's afterstates ``(board, dead)`` (all
    after the same drawn street) with their fitted components, the ``best`` of highest fitted
    value are valued again by :func:`next_street_target` over ``draws`` next streets (three
    cards and the four the opponents turn up) drawn from the cards neither on the board nor
    dead (the same draws for each of the ``best``, less those holding a card one of them has
    discarded; seeded by ``seed`` and the cards the group has seen, so the same drawn street
    gets the same draws whichever afterstate it follows), each by the best fitted value
    after it; per group, the components of the one of highest objective by those values
    (the first of equals). Every group's afterstates are valued in one call of ``values``.
    :raises ValueError: for a group of no pair."""
    pairs: list[tuple[Board, frozenset[Card]]] = []
    # per group, per one of its best: its components' spans in ``pairs``, one per draw
    plan: list[list[list[tuple[int, int]]]] = []
    for group, got in groups:
        if not group:
            raise ValueError("no afterstate")
        order = sorted(range(len(got)), key=lambda j: (-objective(got[j], fl, foul), j))[:best]
        first, first_dead = group[order[0]]
        tails = deeper_draws(first_dead | set(first.cards()), draws, seed)
        per: list[list[tuple[int, int]]] = []
        for j in order:
            board, dead = group[j]
            here = dead | set(board.cards())
            live = [t for t in tails if not here.intersection(t)] or tails[:1]
            spans: list[tuple[int, int]] = []
            for t in live:
                known = dead | frozenset(t[3:])
                start = len(pairs)
                pairs.extend(_after_pairs(board, t[:3], known))
                spans.append((start, len(pairs)))
            per.append(spans)
        plan.append(per)
    got_all = values(pairs) if pairs else []
    out: list[Components] = []
    for per in plan:
        top: Components | None = None
        top_v = -math.inf
        for spans in per:
            acc = [0.0, 0.0, 0.0]
            for start, end in spans:
                b = max(got_all[start:end], key=lambda o: objective(o, fl, foul))
                for i in range(3):
                    acc[i] += b[i]
            o = (acc[0] / len(spans), acc[1] / len(spans), acc[2] / len(spans))
            v = objective(o, fl, foul)
            if v > top_v:
                top, top_v = o, v
        assert top is not None
        out.append(top)
    return out


@lru_cache(maxsize=64)
def _triples(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index arrays (i, j, k), i < j < k, of every 3 of ``n`` cards (cached per ``n``)."""
    idx = np.array(list(combinations(range(n), 3)), dtype=np.intp).reshape(-1, 3)
    return idx[:, 0], idx[:, 1], idx[:, 2]


def exact_last(
    board: Board, dead: Collection[Card], options: RuleOptions, fl: float, foul: float
) -> Components:
    """V_11 exactly (issue 13): the mean over *every* last street (3 of the cards neither on
    ``board`` nor in ``dead``, R3.2: keep two, discard one) of the :func:`finish_outcome` of the
    best finish for the objective — :func:`last_street_target` over all draws, without its
    sampling noise, in about half a millisecond: each pair of unseen cards is valued
    once (both ways round when its two slots lie in two boxes), each draw takes its best pair.

    :param board: 11 cards (two open slots). :raises ValueError: for another count or fewer
        than three unseen cards.
    """
    if board.count != 11:
        raise ValueError(f"exact_last: 11 cards, got {board.count}")
    taken = set(board.cards())
    unseen = [c.code for c in DECK if c not in taken and c not in dead]
    n = len(unseen)
    if n < 3:
        raise ValueError("exact_last: fewer than three unseen cards")
    rows = (
        [c.code for c in board.top],
        [c.code for c in board.middle],
        [c.code for c in board.bottom],
    )
    open_ = [i for i, b in enumerate(BOXES) for _ in range(board.free(b))]
    size = (3, 5, 5)

    def strength(i: int, codes: Sequence[int]) -> int:
        return rank3(*codes) if size[i] == 3 else rank5(*codes)

    # per box: its strength and royalty for card a in slot 0 and b in slot 1 (n × n, or a
    # column, a row or a scalar that broadcasts), the top's Fantasyland (R6.1) likewise
    st: list[np.ndarray] = []
    ry: list[np.ndarray] = []
    fl_top: np.ndarray = np.zeros(1)
    for i, box in enumerate(BOXES):
        slots = open_.count(i)
        if slots == 2:
            s_i = np.zeros((n, n), dtype=np.int64)
            for a in range(n):
                for b in range(a + 1, n):
                    s_i[a, b] = s_i[b, a] = strength(i, [*rows[i], unseen[a], unseen[b]])
        elif slots == 1:
            s_i = np.array([strength(i, [*rows[i], u]) for u in unseen], dtype=np.int64)
            s_i = s_i[:, None] if i == open_[0] else s_i[None, :]
        else:
            s_i = np.array([[strength(i, rows[i])]], dtype=np.int64)
        memo: dict[int, tuple[int, float]] = {}
        for v in set(s_i.ravel().tolist()):
            f = 1.0 if i == 0 and fantasyland_cards(v, 0, 0, options, False) else 0.0
            memo[v] = (royalty(box, v), f)
        flat = s_i.ravel().tolist()
        st.append(s_i)
        ry.append(
            np.array([memo[v][0] for v in flat], dtype=np.float64).reshape(s_i.shape)
            + STRENGTH_WEIGHT * (s_i >> 20)
        )
        if i == 0:
            fl_top = np.array([memo[v][1] for v in flat], dtype=np.float64).reshape(s_i.shape)
    fouled = np.broadcast_to((st[0] > st[1]) | (st[1] > st[2]), (n, n))
    ok = ~fouled
    roy = np.where(ok, ry[0] + ry[1] + ry[2], 0.0)
    fl_m = np.where(ok, fl_top, 0.0)
    foul_m = fouled.astype(np.float64)
    obj = roy + fl * fl_m - foul * foul_m
    # a pair's value: its better way round (a matrix and its transpose)
    swap = obj < obj.T
    obj = np.where(swap, obj.T, obj)
    fl_m = np.where(swap, fl_m.T, fl_m)
    foul_m = np.where(swap, foul_m.T, foul_m)
    roy = np.where(swap, roy.T, roy)
    i3, j3, k3 = _triples(n)
    cand = np.stack((obj[i3, j3], obj[i3, k3], obj[j3, k3]))
    pick = cand.argmax(axis=0)
    rows_a = np.choose(pick, (i3, i3, j3))
    rows_b = np.choose(pick, (j3, k3, k3))
    return (
        float(fl_m[rows_a, rows_b].mean()),
        float(foul_m[rows_a, rows_b].mean()),
        float(roy[rows_a, rows_b].mean()),
    )


@lru_cache(maxsize=1 << 14)
def _completions(cards: tuple[Card, ...], size: int) -> np.ndarray:
    """The strengths of box ``cards`` (``size`` 3 or 5) completed by its one or two missing
    cards, by the added cards' indices (0 … 51): shape ``(52,)`` or ``(52, 52)`` (symmetric;
    entries for cards already in the box, or a card twice, are meaningless). Evaluated per
    rank (13 or 91 hands) and again for the cards of the box's suit where they make a flush."""
    k = size - len(cards)
    codes = [c.code for c in cards]
    counts = rank_counts(cards)
    suits = {c.suit for c in cards}
    flushable = size == 5 and len(suits) == 1
    other = next(s for s in (c.suit for c in DECK[:4]) if not (flushable and s in suits))
    off = [next(c for c in DECK if c.rank == r and c.suit == other).code for r in range(2, 15)]

    def strength(extra: Sequence[int]) -> int:
        got = [*codes, *extra]
        return rank3(*got) if size == 3 else rank5(*got)

    ranks = np.arange(52) // 4
    if k == 1:
        table = np.array(
            [strength([off[r]]) if counts[r + 2] < 4 else 0 for r in range(13)], dtype=np.int64
        )
        out1 = table[ranks]
        if flushable:
            for c in DECK:
                if c.suit in suits and c not in cards:
                    out1[c.index] = strength([c.code])
        return out1
    if k != 2:
        raise ValueError(f"_completions: 1 or 2 cards missing, got {k}")
    t2 = np.zeros((13, 13), dtype=np.int64)
    for r1 in range(13):
        for r2 in range(r1, 13):
            need = {r1: 1} if r1 != r2 else {r1: 2}
            if r1 != r2:
                need[r2] = 1
            if any(counts[r + 2] + m > 4 for r, m in need.items()):
                continue
            t2[r1, r2] = t2[r2, r1] = strength([off[r1], off[r2]])
    out2 = t2[ranks[:, None], ranks[None, :]]
    if flushable:
        same = [c for c in DECK if c.suit in suits and c not in cards]
        for x, a in enumerate(same):
            for b in same[x + 1 :]:
                out2[a.index, b.index] = out2[b.index, a.index] = strength([a.code, b.code])
    return out2


def last_chances(board: Board, dead: Collection[Card], options: RuleOptions) -> tuple[float, float]:
    """(P(Fantasyland), P(foul)) of an 11-card board played on to the best finish, exactly
    over every last street (3 of the cards neither on ``board`` nor in ``dead``, keep two,
    R3.2): a draw fouls (R2.3) when none of its three pairs fits the open slots, either way
    round, without fouling, and earns Fantasyland (R6.1) when one of them fits with QQ+ on top
    (the best finish takes it for any F above the royalties it could give up). Counted with
    matrices over the unseen cards (the triples whose three pairs all fail: trace(U³) / 6),
    much cheaper than :func:`exact_last`, which also finds the royalties and the finish the
    objective picks (equal to its first two components at F 60 / C 35, in tests).

    :raises ValueError: for a board of another count or fewer than three unseen cards.
    """
    if board.count != 11:
        raise ValueError(f"last_chances: 11 cards, got {board.count}")
    live = np.ones(52, dtype=bool)
    for c in board.cards():
        live[c.index] = False
    for c in dead:
        live[c.index] = False
    unseen = np.flatnonzero(live)
    n = len(unseen)
    if n < 3:
        raise ValueError("last_chances: fewer than three unseen cards")
    boxes = (board.top, board.middle, board.bottom)
    sizes = (3, 5, 5)
    open_ = [i for i, b in enumerate(BOXES) for _ in range(board.free(b))]
    parts: list[np.ndarray | int] = []
    for i in range(3):
        slots = open_.count(i)
        if slots == 0:
            parts.append(_strength(boxes[i], sizes[i]))
        elif slots == 2:
            parts.append(_completions(boxes[i], sizes[i])[np.ix_(unseen, unseen)])
        else:
            vec = _completions(boxes[i], sizes[i])[unseen]
            parts.append(vec[:, None] if i == open_[0] else vec[None, :])
    st, sm, sb = parts
    ok = (np.asarray(st) <= sm) & (np.asarray(sm) <= sb)
    ok = np.broadcast_to(ok, (n, n))
    fl_ok = (
        ok & (np.asarray(st) >= _QQ_TOP)
        if fantasyland_cards(_QQ_TOP, _QQ_TOP, _QQ_TOP, options, False)
        else np.zeros((n, n), dtype=bool)
    )
    if open_[0] != open_[1]:  # two boxes: either card in either slot
        ok = ok | ok.T
        fl_ok = fl_ok | fl_ok.T
    denom = float(n * (n - 1) * (n - 2))

    def all_fail(good: np.ndarray) -> float:
        bad = (~good).astype(np.float64)
        np.fill_diagonal(bad, 0.0)
        return float(((bad @ bad) * bad).sum()) / denom

    return 1.0 - all_fail(np.broadcast_to(fl_ok, (n, n))), all_fail(ok)


_EYE52: Final = np.eye(52, dtype=bool)


def last_chances_many(
    pairs: Sequence[tuple[Board, Collection[Card]]], options: RuleOptions, chunk: int = 128
) -> np.ndarray:
    """:func:`last_chances` of many ``(11-card board, dead)`` pairs at once: an ``n × 2``
    array (P(Fantasyland), P(foul)). The boards are grouped by their open slots; each group's
    pairs that fit (52 × 52 per board, the rows and columns of cards not unseen left empty)
    are found in a few array operations and counted in one batched matrix product per
    ``chunk`` boards. :raises ValueError: for a board of another count."""
    out = np.zeros((len(pairs), 2))
    fl_on = bool(fantasyland_cards(_QQ_TOP, _QQ_TOP, _QQ_TOP, options, False))
    sizes = (3, 5, 5)
    for start in range(0, len(pairs), chunk):
        part = pairs[start : start + chunk]
        m = len(part)
        live = np.ones((m, 52), dtype=bool)
        groups: dict[tuple[int, int], list[tuple[int, list[object]]]] = {}
        for j, (board, dead) in enumerate(part):
            if board.count != 11:
                raise ValueError(f"last_chances_many: 11 cards, got {board.count}")
            row = live[j]
            row[[c.index for c in board.cards()]] = False
            if dead:
                row[[c.index for c in dead]] = False
            boxes = (board.top, board.middle, board.bottom)
            open_ = (
                [0] * (3 - len(boxes[0])) + [1] * (5 - len(boxes[1])) + [2] * (5 - len(boxes[2]))
            )
            got: list[object] = []
            for i in range(3):
                if i in open_:
                    got.append(_completions(boxes[i], sizes[i]))
                else:
                    got.append(_strength(boxes[i], sizes[i]))
            groups.setdefault((open_[0], open_[1]), []).append((j, got))
        good = np.zeros((2, m, 52, 52), dtype=bool)
        for (x, y), items in groups.items():
            idx = [j for j, _ in items]
            shaped = []
            for i in range(3):
                col = [g[i] for _, g in items]
                if i not in (x, y):
                    shaped.append(np.array(col, dtype=np.int64)[:, None, None])
                elif x == y:
                    shaped.append(np.stack(col))  # type: ignore[arg-type]
                elif i == x:
                    shaped.append(np.stack(col)[:, :, None])  # type: ignore[arg-type]
                else:
                    shaped.append(np.stack(col)[:, None, :])  # type: ignore[arg-type]
            st, sm, sb = shaped
            ok = (st <= sm) & (sm <= sb)
            fl = ok & (st >= _QQ_TOP)
            if x != y:  # two boxes: either card in either slot
                ok = ok | ok.swapaxes(1, 2)
                fl = fl | fl.swapaxes(1, 2)
            good[0, idx] = ok
            if fl_on:
                good[1, idx] = fl
        both = live[:, :, None] & live[:, None, :] & ~_EYE52
        n = live.sum(1).astype(np.float64)
        denom = n * (n - 1) * (n - 2)
        for k, col_ in ((0, 1), (1, 0)):
            bad = (~good[k] & both).astype(np.float32)
            p = ((bad @ bad) * bad).sum(axis=(1, 2)).astype(np.float64) / denom
            out[start : start + m, col_] = p if k == 0 else 1.0 - p
    return out


class _Net:
    """One hidden layer (ReLU), three outputs (P(Fantasyland), P(foul) by a sigmoid, the
    royalties linear), inputs standardised by the file's mean and scale."""

    __slots__ = ("b1", "b2", "mean", "scale", "w1", "w2")

    def __init__(self, data: Mapping[str, object]) -> None:
        def arr(name: str) -> np.ndarray:
            v = data[name]
            assert isinstance(v, list)
            return np.asarray(v, dtype=np.float64)

        self.mean, self.scale = arr("mean"), arr("scale")
        self.w1, self.b1 = arr("w1"), arr("b1")  # hidden × inputs
        self.w2, self.b2 = arr("w2"), arr("b2")  # 3 × hidden

    def run_many(self, x: Sequence[Sequence[float]]) -> np.ndarray:
        """Outputs for ``len(x)`` input rows: an ``n × 3`` array (P(FL), P(foul), royalties)."""
        z = (np.asarray(x, dtype=np.float64) - self.mean) / self.scale
        h = np.maximum(z @ self.w1.T + self.b1, 0.0)
        out: np.ndarray = h @ self.w2.T + self.b2
        out[:, :2] = 1.0 / (1.0 + np.exp(-np.clip(out[:, :2], -30.0, 30.0)))
        return out

    def run(self, x: Sequence[float]) -> tuple[float, float, float]:
        row = self.run_many([x])[0]
        return float(row[0]), float(row[1]), float(row[2])


class AdpModel:
    """The fitted values per board size (5, 7, 9, 11 cards).

    :raises ValueError: (at construction) on a file whose features do not match
        :data:`FEATURES`.
    """

    def __init__(self, data: Mapping[str, object]) -> None:
        if data.get("features") != list(FEATURES):
            raise ValueError("adp model: the features do not match game.adp.FEATURES")
        nets = data.get("nets")
        if not isinstance(nets, dict):
            raise ValueError("adp model: no nets")
        self.nets = {int(n): _Net(d) for n, d in nets.items()}

    def covers(self, count: int) -> bool:
        """Whether the model has a value for boards of ``count`` cards."""
        return count in self.nets

    def components(
        self, board: Board, dead: Collection[Card], fl: float, foul: float
    ) -> Components:
        """(P(Fantasyland), P(foul), expected royalties) of playing ``board`` on optimally
        for the objective with knobs ``fl`` (F) and ``foul`` (C); ``dead`` as for
        :func:`features`. :raises KeyError: for a board size the model does not cover."""
        return self.nets[board.count].run([*features(board, dead), fl / 50.0, foul / 50.0])

    def components_many(
        self,
        boards: Sequence[tuple[Board, Collection[Card]]],
        fl: float,
        foul: float,
        chances: RuleOptions | None = None,
    ) -> list[Components]:
        """:meth:`components` of many ``(board, dead)`` pairs at once (one matrix product per
        board size), in their order; with ``chances`` (the rules), the 11-card boards'
        P(Fantasyland) and P(foul) exactly (:func:`last_chances_many`) instead of the fitted
        ones (the royalties still fitted). :raises KeyError: for a size the model does not
        cover."""
        out: list[Components] = [(0.0, 0.0, 0.0)] * len(boards)
        by_size: dict[int, list[int]] = {}
        for i, (board, _) in enumerate(boards):
            by_size.setdefault(board.count, []).append(i)
        knobs = (fl / 50.0, foul / 50.0)
        for size, idx in by_size.items():
            rows = [[*features(boards[i][0], boards[i][1]), *knobs] for i in idx]
            run = self.nets[size].run_many(rows)
            if chances is not None and size == 11:
                run[:, :2] = last_chances_many([boards[i] for i in idx], chances)
            got = run.tolist()
            for i, r in zip(idx, got, strict=True):
                out[i] = (r[0], r[1], r[2])
        return out

    def values(
        self, boards: Sequence[tuple[Board, Collection[Card]]], fl: float, foul: float
    ) -> list[float]:
        """:meth:`value` of many ``(board, dead)`` pairs at once, in their order."""
        return [objective(o, fl, foul) for o in self.components_many(boards, fl, foul)]

    def value(self, board: Board, dead: Collection[Card], fl: float, foul: float) -> float:
        """The objective's expectation: ``royalties + F × P(FL) − C × P(foul)``."""
        return objective(self.components(board, dead, fl, foul), fl, foul)


def top_class(board: Board) -> str:
    """The class of a partial board's top that :func:`choose`'s ``calib`` offsets go by
    (issue 13): ``"qq"`` a made QQ+ (a pair of queens or better, or trips: R6.1's entry when
    the board does not foul), ``"lone"`` an unpaired queen or better with a slot still open,
    ``"other"`` anything else (empty, lower cards, a low pair, a full top without QQ+)."""
    qq, lone = _top_part(board.top)[3:5]
    if qq:
        return "qq"
    return "lone" if lone else "other"


#: The names of :func:`residual_features`' numbers, in order (issue 13, fl21).
RESIDUAL_FEATURES: Final[tuple[str, ...]] = (
    "lone_q",
    "lone_k",
    "lone_a",
    "lone_live",
    "lone_two_open",
    "qq_made",
    "mid_beats_pair",
    "mid_outs_beat",
    "mid_open",
    "bot_open",
    "mid_straight_outs",
    "bot_straight_outs",
    "mid_flush_outs",
    "bot_flush_outs",
    "mid_over_bot",
    "bot_outs_beat",
    "cat_gap_mb",
)


def _straight_outs(box: Sequence[Card], seen: Sequence[int]) -> int:
    """The live cards (4 − ``seen`` of their rank) of the ranks that keep an unpaired,
    unfinished five-card box of 2+ cards inside one straight window (the ace high or low)."""
    if len(box) < 2 or len(box) == 5:
        return 0
    ranks = {int(c.rank) for c in box}
    if len(ranks) < len(box):
        return 0
    low = {1 if r == 14 else r for r in ranks}
    outs: set[int] = set()
    for lo in range(1, 11):
        window = set(range(lo, lo + 5))
        for held in (ranks, low):
            if held <= window:
                outs |= {14 if r == 1 else r for r in window} - ranks
    return sum(4 - seen[r] for r in outs)


def residual_features(board: Board, dead: Collection[Card] = ()) -> list[float]:
    """Numbers of a partial board that :func:`features` lacks or encodes coarsely, named by
    :data:`RESIDUAL_FEATURES` (issue 13, fl21: what ``choose``'s ``correct`` reads). A lone
    Q+ top (:func:`top_class` ``"lone"``): its rank (Q, K, A one-hot), its pairing cards still
    live (÷ 3), two top slots open; a made QQ+ top; for either, whether the middle already
    beats a pair of the top's rank with any kicker, else its live outs to (÷ 10); open slots
    of the middle and the bottom (÷ 5); live straight (÷ 24) and flush (÷ 13) outs of the
    middle and the bottom; the middle above the bottom now; the bottom's live outs to beat
    the middle (÷ 10) while it does not; the bottom's category less the middle's (÷ 3).
    Live: not on ``board`` nor in ``dead`` (R3.3, as :func:`features`)."""
    top, mid, bot = board.top, board.middle, board.bottom
    seen = [0] * 15
    suits: dict[object, int] = {}
    for c in (*dead, *top, *mid, *bot):
        seen[c.rank] += 1
        suits[c.suit] = suits.get(c.suit, 0) + 1
    _, _, t_rank, qq, lone, high = _top_part(top)[:6]
    ms, bs = _strength(mid, 5), _strength(bot, 5)
    pair = high if lone else (t_rank if qq else 0)
    beats = 0.0
    outs_beat = 0.0
    if pair:
        above = 1 << 20 | pair << 16 | 15 << 12  # a pair of the top's rank, any kicker
        beats = 1.0 if ms > above else 0.0
        if not beats and len(mid) < 5:
            lifting = _lifting(tuple(sorted(int(c.rank) for c in mid)), above)
            outs_beat = sum(4 - seen[r] for r in lifting) / 10

    def flush_outs(box: Sequence[Card]) -> float:
        if len(box) < 2 or len(box) == 5 or len({c.suit for c in box}) != 1:
            return 0.0
        return (13 - suits.get(box[0].suit, 0)) / 13

    bot_beat = 0.0
    if mid and len(bot) < 5 and bs <= ms:
        lifting = _lifting(tuple(sorted(int(c.rank) for c in bot)), ms)
        bot_beat = sum(4 - seen[r] for r in lifting) / 10
    return [
        1.0 if lone and high == 12 else 0.0,
        1.0 if lone and high == 13 else 0.0,
        1.0 if lone and high == 14 else 0.0,
        (4 - seen[high]) / 3 if lone else 0.0,
        1.0 if lone and len(top) == 1 else 0.0,
        qq,
        beats,
        outs_beat,
        (5 - len(mid)) / 5,
        (5 - len(bot)) / 5,
        _straight_outs(mid, seen) / 24,
        _straight_outs(bot, seen) / 24,
        flush_outs(mid),
        flush_outs(bot),
        1.0 if ms > bs else 0.0,
        bot_beat,
        ((bs >> 20) - (ms >> 20)) / 3 if mid and bot else 0.0,
    ]


def choose(
    model: AdpModel,
    board: Board,
    cards: Sequence[Card],
    discards: int,
    dead: Collection[Card],
    options: RuleOptions,
    fl: float,
    foul: float,
    *,
    tail_draws: int = 0,
    expand: int = 0,
    next_streets: int = 0,
    width: int = 0,
    refine: int = 0,
    refine_draws: int = 16,
    chances: bool = False,
    deep: int = 0,
    deep_next: int = 8,
    deep_top: int = 0,
    calib: Mapping[tuple[int, str], tuple[float, float]] | None = None,
    correct: Mapping[int, tuple[Mapping[str, float], Mapping[str, float]]] | None = None,
) -> list[tuple[Card, Box | None]] | None:
    """Place a Pineapple street by the fitted value (R3.2): the last street exactly
    (:func:`best_finish`), any other the afterstate of highest :meth:`AdpModel.value`.

    :param dead: what the seat knows is out (R3.3: its discards, the open cards; the board's
        own cards are left out here); this street's discards join it.
    :param tail_draws: > 0: on the street before the last, value each afterstate by
        :func:`last_street_target` over this many last streets drawn from the unseen cards
        (the same for every afterstate) instead of the fitted V_11; < 0: exactly, over every
        last street (:func:`exact_last`).
    :param expand: > 0 (with ``next_streets``): the ``expand`` best afterstates by the value
        are compared again by one more street of expectimax: the mean over ``next_streets``
        drawn next streets of the best fitted value after them.
    :param refine: > 0 (with ``expand``, on street 3, whose look-ahead ends on 11-card
        afterstates): each drawn street's ``refine`` best afterstates by the fitted V_11 are
        valued again over ``refine_draws`` sampled last streets (:func:`refined_best`).
    :param deep: > 0 (with ``expand`` and ``deep_next``, on street 2, whose look-ahead ends
        on 9-card afterstates): each drawn street's ``deep`` best afterstates by the fitted
        V_9 are valued again one street deeper, by the mean over ``deep_next`` drawn street
        4s of the best fitted V_11 after them (:func:`deeper_best_many`, one batch per
        expanded afterstate).
    :param deep_top: > 0 (with ``deep``): only this many of the expanded afterstates, the
        best by the plain look-ahead (in order of that value, the first of equals), are
        compared again by the deeper one; 0: every expanded afterstate.
    :param chances: in the look-ahead, the 11-card afterstates' P(Fantasyland) and P(foul)
        exactly (:func:`last_chances_many`) instead of by the fitted V_11 (issue 13).
    :param calib: (issue 13, fl20, a prototype) offsets ``(ΔP(Fantasyland), ΔP(foul))`` by
        ``(cards after this street, top_class(afterstate))`` added to every afterstate's
        components before it is compared (the fitted value and the look-ahead), so that
        ``F × ΔFL − C × Δfoul`` shifts the value of a whole class of afterstates: measured on
        strong's own play, where the chosen afterstates' look-ahead predicted more or less than
        the boards went on to get (:func:`top_class`).
    :param correct: (issue 13, fl21, a prototype) a linear correction of the components by
        the afterstate's :func:`residual_features`: per cards after this street, the weights
        ``(w_fl, w_foul)`` by name (``"1"`` the constant, else of :data:`RESIDUAL_FEATURES`; a
        name left out weighs 0), so that every afterstate's value in both comparisons moves
        by ``F × ΔFL − C × Δfoul``, ``ΔFL = Σ w_fl[name] × x[name]`` (fitted to what strong's
        own boards got less what its look-ahead predicted; sizes not named are left as they
        are). :raises KeyError: for a name that is neither.
    :param width: > 0: compare only the candidates of the ``strong`` play-outs
        (:func:`game.strategy.candidate_placements`, chasing Fantasyland) instead of every
        legal placement.
    :returns: ``(card, box or None)`` per card; ``None`` when the model does not cover the
        board size after this street. Deterministic: draws are seeded by the cards.
    """
    keep = len(cards) - discards
    after_n = board.count + keep
    if after_n == 13:
        return best_finish(board, cards, keep, options, fl, foul)[2]
    if not model.covers(after_n):
        return None
    on_board = set(board.cards())
    known = frozenset(c for c in dead if c not in on_board and c not in cards)
    if width:
        options_ = [
            _afterstate(board, placement)
            for placement in candidate_placements(board, cards, discards, width, True)
        ]
    else:
        options_ = afterstates(board, cards, discards)
    seed = sum((i + 1) * c.index for i, c in enumerate([*board.cards(), *cards]))
    rng = random.Random(seed)
    unknown = [c for c in DECK if c not in known and c not in on_board and c not in cards]
    if tail_draws and after_n == 11:  # street 4: valued over its last streets, not by V_11
        draws = [rng.sample(unknown, 3) for _ in range(max(tail_draws, 0))]

        def tail(after: Board, thrown: tuple[Card, ...]) -> Components:
            if not draws:  # tail_draws < 0: every last street, exactly
                return exact_last(after, known | frozenset(thrown), options, fl, foul)
            live = [d for d in draws if not set(d) & set(thrown)]
            return last_street_target(after, live or draws, options, fl, foul)

        # the first of equals, as the afterstates come
        return max(options_, key=lambda o: objective(tail(o[1], o[2]), fl, foul))[0]
    values = model.values(
        [(after, known | frozenset(thrown)) for _, after, thrown in options_], fl, foul
    )
    shifts = [0.0] * len(options_)
    if calib:
        for i, (_, after, _) in enumerate(options_):
            d = calib.get((after_n, top_class(after)))
            if d is not None:
                shifts[i] = fl * d[0] - foul * d[1]
    weights = correct.get(after_n) if correct else None
    if weights is not None:
        w_fl, w_foul = weights
        for i, (_, after, thrown) in enumerate(options_):
            here = residual_features(after, known | frozenset(thrown))
            x = dict(zip(RESIDUAL_FEATURES, here, strict=True))
            x["1"] = 1.0
            d_fl = sum(w * x[name] for name, w in w_fl.items())
            d_foul = sum(w * x[name] for name, w in w_foul.items())
            shifts[i] += fl * d_fl - foul * d_foul
    scored = [(v + shifts[i], i) for i, v in enumerate(values)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    if not (expand and next_streets and model.covers(after_n + 2)):
        return options_[scored[0][1]][0]
    streets = [rng.sample(unknown, 7) for _ in range(next_streets)]

    def exact(
        pairs: Sequence[tuple[Board, frozenset[Card]]], got: Sequence[Components]
    ) -> Components:
        return refined_best(pairs, got, refine, refine_draws, options, fl, foul, seed + len(pairs))

    def fitted(pairs: Sequence[tuple[Board, frozenset[Card]]]) -> list[Components]:
        return model.components_many(pairs, fl, foul, options if chances else None)

    def deeper(
        groups: Sequence[tuple[Sequence[tuple[Board, frozenset[Card]]], Sequence[Components]]],
    ) -> list[Components]:
        return deeper_best_many(groups, deep, deep_next, fitted, fl, foul, seed)

    def ahead(i: int, deepen: bool) -> float:
        _, after, thrown = options_[i]
        here = known | frozenset(thrown)
        nexts = [(s[:3], s[3:]) for s in streets if not set(s) & set(thrown)]
        o = next_street_target(
            after,
            here,
            nexts,
            fitted,
            fl,
            foul,
            exact if refine and after_n + 2 == 11 else None,
            deeper if deepen else None,
        )
        return objective(o, fl, foul) + shifts[i]

    chosen = [i for _, i in scored[:expand]]
    deepen = bool(deep and deep_next and after_n + 2 == 9 and model.covers(11))
    if deepen and 0 < deep_top < len(chosen):  # finalists of the plain look-ahead first
        plain = [(ahead(i, False), n) for n, i in enumerate(chosen)]
        plain.sort(key=lambda t: (-t[0], t[1]))
        chosen = [chosen[n] for _, n in plain[:deep_top]]
    best_e: tuple[float, int] | None = None
    for i in chosen:
        v = ahead(i, deepen)
        if best_e is None or v > best_e[0]:
            best_e = (v, i)
    assert best_e is not None
    return options_[best_e[1]][0]


#: The environment variable naming another weights file to load instead of
#: ``game/adp_model.json`` (the same format; e.g. one written by ``tools/adp_fit.py
#: --refit-9``), to try a refit on the benches without replacing the committed model.
MODEL_ENV: Final = "OFC_ADP_MODEL"


def _load() -> AdpModel | None:
    """The model of :data:`MODEL_ENV`'s file if set, else ``game/adp_model.json``; ``None``
    without it. :raises FileNotFoundError: for a :data:`MODEL_ENV` path that does not exist;
    :raises ValueError: as :class:`AdpModel`."""
    named = os.environ.get(MODEL_ENV, "")
    if named:
        return AdpModel(json.loads(Path(named).read_text()))
    path = Path(__file__).with_name("adp_model.json")
    if not path.exists():
        return None
    return AdpModel(json.loads(path.read_text()))


#: The committed model (``None`` before one is fitted).
MODEL: Final[AdpModel | None] = _load()
