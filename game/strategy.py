"""The built-in placement strategy: computer players, ``safe_autoplay`` (R8.5), the
``simulate`` command and the "arrange for me" suggestion.

It is a fast heuristic, not a solver. Ordinary streets are decided card by card with a score
per box (pairs and flush draws go low, a weak card goes on top, a placement that would make a
foul certain is avoided), and the last street of a board is searched exhaustively. A
"chasing" variant of the heuristic goes for Fantasyland (R6.1): it keeps the top open for a
queen or better, pairs it there while the boxes below can still beat the pair and pushes the
middle above it; the play-outs of the strongest computer players try both. A
Fantasyland hand (R6.2) is arranged by the exact solver (:mod:`game.fantasyland`). A Chinese
Poker hand (R4.5) tries the strongest bottoms and middles and keeps the legal board with the
most royalties, so it never fouls when a legal board exists (one always does).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from itertools import combinations, permutations, product

from game import evaluator
from game.board import BOXES, Board, Box, assess_board, fantasyland_cards, royalty
from game.cards import DECK, RANK_PRIMES, Card
from game.evaluator import rank3, rank5
from game.fantasyland import solve_fantasyland
from game.options import GameKind, RuleOptions

__all__ = ["arrange", "complete_street", "made_ranks"]

_SIZES = (3, 5, 5)  # top, middle, bottom
_MADE: dict[int, int] = {}
_PLAIN, _SUITED, _TOP = evaluator._PLAIN, evaluator._SUITED, evaluator._TOP


def made_ranks(ranks: Sequence[int]) -> int:
    """Packed strength (``game.evaluator``'s order, R1.2) made by the pairs, trips and quads of
    a partial box's ``ranks`` (2–14; no draws); 0 for none."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((k, r) for r, k in counts.items() if k >= 2), reverse=True)
    if not groups:
        return 0
    k, r = groups[0]
    if k == 4:
        return 7 << 20 | r << 16
    if k == 3:
        return (6 << 20 | r << 16 | groups[1][1] << 12) if len(groups) > 1 else 3 << 20 | r << 16
    if len(groups) > 1:
        return 2 << 20 | r << 16 | groups[1][1] << 12
    return 1 << 20 | r << 16


class _BoxState:
    """A box during a decision: its cards, rank-prime product, common suit and made hand."""

    __slots__ = ("cards", "key", "made", "size", "suit")

    def __init__(self, cards: Sequence[Card], size: int) -> None:
        self.cards = list(cards)
        self.size = size
        self.key = 1
        self.suit = 0xF00
        for c in cards:
            self.key *= c.code & 255
            self.suit &= c.code
        self.made = self.made_with(1, self.suit, len(self.cards))

    def made_with(self, prime: int, suit: int, n: int) -> int:
        """The made strength if a card with rank prime ``prime`` joined (``1``: as it is)."""
        key = self.key * prime
        if n == self.size:
            if n == 3:
                return _TOP[key]
            return _SUITED[key] if suit else _PLAIN[key]
        made = _MADE.get(key)
        if made is None:
            ranks: list[int] = [c.rank for c in self.cards]
            if prime != 1:
                ranks.append(RANK_PRIMES.index(prime) + 2)
            made = _MADE[key] = made_ranks(ranks)
        return made

    def add(self, card: Card) -> None:
        self.cards.append(card)
        self.key *= card.code & 255
        self.suit &= card.code
        self.made = self.made_with(1, self.suit, len(self.cards))


def _gain(card: Card, box: int, boxes: list[_BoxState]) -> float:
    """How much putting ``card`` in ``box`` (0 top, 1 middle, 2 bottom) is worth."""
    bs = boxes[box]
    cards = bs.cards
    n = len(cards)
    r = card.rank
    same = 0
    for c in cards:
        if c.rank == r:
            same += 1
    suit = bs.suit & card.code
    suited = n > 0 and suit != 0
    if box == 2:
        g = (0.0, 9.0, 14.0, 30.0)[same] + r * 0.05
        if suited:
            g += 1.0 + n * 1.3
        return g
    if box == 1:
        g = (0.0, 7.0, 11.0, 25.0)[same] + r * 0.04
        if suited:
            g += 0.6 + n * 0.9
        if bs.made_with(card.code & 255, suit, n + 1) > boxes[2].made:
            free_below = 5 - len(boxes[2].cards)
            g -= 30.0 if free_below == 0 else 6.0 + 12.0 / free_below
        return g
    mid = boxes[1]
    if same == 0:
        g = (14 - r) * 0.25 - 1.0
        if n == 0 and r >= 12 and boxes[2].made >> 20:
            g = 2.5  # a Fantasyland try over a paired bottom
        if n == 2 and bs.made_with(card.code & 255, suit, 3) > mid.made:
            g -= 6.0 if len(mid.cards) < 5 else 40.0
        return g
    free_mid = 5 - len(mid.cards)
    if bs.made_with(card.code & 255, suit, n + 1) <= mid.made:
        return 4.0 + max(0, r - 5) * 1.5 + (10.0 if r >= 12 or same == 2 else 0.0)
    if r >= 12 and same == 1 and free_mid >= 2 and boxes[2].made >> 20 >= 2:
        return 6.0 + (r - 12) * 2.0  # a Fantasyland try: QQ+ on top over two pair below
    return -12.0 if free_mid else -40.0


def complete_street(
    board: Board,
    cards: Sequence[Card],
    discards: int,
    *,
    fantasyland_cards: int = 0,
    options: RuleOptions | None = None,
    lookahead: int = 0,
    dead: Collection[Card] = (),
    width: int = 8,
    exact_tail: bool = False,
    seed: int | None = None,
    fantasyland_value: float = 9.0,
    chase: bool = False,
    keep_open: float = 0.0,
) -> list[tuple[Card, Box | None]]:
    """Choose boxes for ``cards`` (and which ``discards`` of them to throw away).

    :param board: the seat's board so far (confirmed and already placed cards).
    :param cards: the street's cards still to place.
    :param discards: how many of ``cards`` to discard.
    :param fantasyland_cards: non-zero in a Fantasyland hand (R6.2): the cards still to set
        (13 of them, fewer if some are already on ``board``) go at once, arranged by the
        exact solver (:func:`game.fantasyland.solve_fantasyland`).
    :param lookahead: 0 for the fast greedy choice (the simulator); N > 0 plays each of the
        most promising placements out N times with random cards to come and keeps the one
        with the best average result (fouls cost dearly): for "arrange for me", computer
        players and ``safe_autoplay``. Deterministic for the same input.
    :param dead: cards known to be out of the deck (opponents' open cards, own discards).
    :param width: how many candidate placements the play-outs compare (the greedy one and the
        best by a quick static score).
    :param exact_tail: when the board is finished within two streets, value each candidate
        by its exact expectation over the cards to come (classic OFC: every card; Pineapple:
        every 3-card street, or ``lookahead * 10`` sampled ones when there are more) instead of
        random play-outs, so a placement that leaves a foul avoidable is preferred to one
        that does not.
    :param fantasyland_value: what a finished board that earns Fantasyland (R6.1) is worth in
        the play-outs, in points on top of its royalties (a foul costs 14).
    :param chase: go for Fantasyland (R6.1). Without play-outs: the chasing heuristic. With
        them: the chasing heuristic's placement is a candidate too, so are the best ones
        that make QQ or better on top and, on the first street, that put a lone queen or
        better there (:func:`_top_candidates`), and each candidate is worth the better of
        its play-outs by the ordinary heuristic and by the chasing one (the same cards to
        come), as the player may still choose which to follow.
    :param keep_open: with ``chase`` and play-outs, points (per play-out) added to a
        candidate that keeps Fantasyland in reach: QQ or better (or trips) on top, or a lone
        queen or better on a top with a free slot (see :func:`_fantasyland_reach`): a value
        the play-outs, which rarely finish such a line, do not see.
    :param seed: the random source of the play-outs; ``None``: derived from the cards, so the
        same input gives the same choice.
    :returns: ``(card, box)`` per card, box ``None`` for a discard.
    """
    opts = options or RuleOptions()
    keep = len(cards) - discards
    free = 13 - board.count
    if fantasyland_cards and keep == free:
        # a Fantasyland hand (R6.2): the exact solver, keeping what is already placed (R8.5)
        return solve_fantasyland(cards, opts, fixed=board).placements(cards)
    if free == 13 and keep == 13:
        return arrange(cards, opts)
    if free == keep and keep <= 3:
        return _exhaustive_last(board, cards, keep, opts)
    if lookahead > 0:
        return _lookahead(
            board,
            cards,
            discards,
            opts,
            lookahead,
            dead,
            width,
            exact_tail,
            seed,
            fantasyland_value,
            chase,
            keep_open,
        )
    return _greedy(board, cards, keep, chase)


#: Gains of the chasing heuristic (:func:`_gain_chase`), in the units of :func:`_gain`.
_CHASE_PAIR = 8.0  # a queen or better paired on top that the middle does not beat yet
_CHASE_MID_COST = 1.5  # ... less this per middle card already placed (fewer chances)
_CHASE_OPEN = 3.0  # a lone queen or better on an empty top (it waits for its pair)
_CHASE_BLOCK = -1.0  # another card next to a lone queen or better on top
_CHASE_LOW = 1.0  # less for a low card on an empty top
_CHASE_MID_BEAT = 8.0  # a middle card that lifts the middle above the top's (future) pair
_CHASE_MID_PAIR = 5.0  # a middle pair still below it (a step to two pair)
#: With ``chase`` and play-outs, the candidates always include the best placements (by the
#: static score, which ranks them low) that make QQ or better or trips on top, this many ...
_CANDIDATES_MADE_TOP = 2
#: ... and on the first street the best that put a lone queen or better on top.
_CANDIDATES_LONE_TOP = 3
#: :func:`_fantasyland_reach` of a top holding QQ or better or trips (a lone queen, king or
#: ace: 1.0, 1.1, 1.2). Measured (``bench_strength.py``, strong over 60 duplicate decks
#: against easy and against normal, 360 boards): 1.6 gave Fantasyland 13.6 %, fouls 5.3 %;
#: 2.0 gives 15.3 % and 6.1 %; 2.4 gives 16.7 % and 8.9 % (over the 8 % goal). Pairing a
#: queen or better on top early converts badly (from street 2 over a weak middle even a
#: player who knew the cards to come would make it only 57 % of the time), so a larger
#: weight buys Fantasyland mainly with fouls.
_REACH_MADE = 2.0


def _gain_chase(card: Card, box: int, boxes: list[_BoxState]) -> float:
    """:func:`_gain` of a player going for Fantasyland (R6.1: QQ or better on top, unfouled).

    The top is kept open for a queen or better (a lone one waits for its pair, a low card
    next to it is avoided); such a pair goes on top when the middle beats it or, with two
    middle slots free and a bottom above the middle, has a pair and a paired bottom to build
    on; a middle card that lifts the middle above the top's pair (made or hoped for) gains.
    The other gains are :func:`_gain`'s.
    """
    top, mid, bot = boxes
    r = card.rank
    tn = len(top.cards)
    top_cat = top.made >> 20  # 1: a pair on top, 3: trips
    top_rank = (top.made >> 16) & 15
    free_mid = 5 - len(mid.cards)
    if box == 0:
        same = 0
        for c in top.cards:
            if c.rank == r:
                same += 1
        made = top.made_with(card.code & 255, 0, tn + 1)
        if same:
            if made <= mid.made:
                return 4.0 + max(0, r - 5) * 1.5 + (10.0 if r >= 12 or same == 2 else 0.0)
            support = min(mid.made >> 20, 2) + min(bot.made >> 20, 2)
            if same == 1 and r >= 12 and free_mid >= 2 and support >= 3 and bot.made > mid.made:
                return _CHASE_PAIR + (r - 12) * 1.5 - (5 - free_mid) * _CHASE_MID_COST
            return -12.0 if free_mid else -40.0
        if tn == 2 and made > mid.made:
            return -6.0 if free_mid else -40.0
        if top_cat and top_rank >= 12:
            return (14 - r) * 0.25 + 1.0  # a low kicker under a made Fantasyland pair
        if r >= 12 and tn == 0:
            return _CHASE_OPEN + (r - 12) * 0.7
        if tn == 1 and top.cards[0].rank >= 12:
            return _CHASE_BLOCK  # keep the slot for the pair
        return (14 - r) * 0.25 - (1.0 + _CHASE_LOW if tn == 0 else 1.0)
    g = _gain(card, box, boxes)
    if box == 1 and top.cards:
        if top_cat:
            target = top.made
        else:
            high = max(c.rank for c in top.cards)
            target = 1 << 20 | high << 16 | 15 << 12 if high >= 12 else 0
        if target and mid.made <= target:
            suit = mid.suit & card.code
            if mid.made_with(card.code & 255, suit, len(mid.cards) + 1) > target:
                g += _CHASE_MID_BEAT
            elif any(c.rank == r for c in mid.cards):
                g += _CHASE_MID_PAIR
    return g


def _greedy(
    board: Board, cards: Sequence[Card], keep: int, chase: bool = False
) -> list[tuple[Card, Box | None]]:
    gain = _gain_chase if chase else _gain
    boxes = [_BoxState(board.top, 3), _BoxState(board.middle, 5), _BoxState(board.bottom, 5)]
    remaining = list(cards)
    gains: dict[tuple[int, int], float] = {}
    for ci, c in enumerate(remaining):
        for i in (2, 1, 0):
            if len(boxes[i].cards) < _SIZES[i]:
                gains[(ci, i)] = gain(c, i, boxes)
    out: dict[Card, Box | None] = {}
    for n in range(keep):
        (ci, bi) = max(gains, key=gains.__getitem__)
        c = remaining[ci]
        out[c] = BOXES[bi]
        if n == keep - 1:
            break  # (no gain is read again)
        box = boxes[bi]
        made_before = box.made
        box.add(c)
        full = len(box.cards) >= _SIZES[bi]
        # A box's gains depend on its own cards and on the made hands of the boxes below
        # (chasing: of the top too).
        changed_below = box.made != made_before
        for key in list(gains):
            k_card, k_box = key
            if k_card == ci or (full and k_box == bi):
                del gains[key]
            elif k_box == bi or (changed_below and (chase or k_box < bi)):
                gains[key] = gain(remaining[k_card], k_box, boxes)
    return [(c, out.get(c)) for c in cards]


def street_placements(
    board: Board, cards: Sequence[Card], discards: int
) -> list[list[tuple[Card, Box | None]]]:
    """Every legal way to place the street ``cards`` on ``board`` with ``discards`` of them
    thrown (R3.2): per discard choice (in :func:`itertools.combinations` order) each
    assignment of the kept cards to boxes with room, as ``(card, box or None for a
    discard)`` per card of ``cards``, in their order. Raises nothing; none when the boxes
    cannot hold the kept cards. :func:`game.adp.afterstates` pairs each with its board."""
    out: list[list[tuple[Card, Box | None]]] = []
    free = [board.free(b) for b in BOXES]
    for thrown in combinations(range(len(cards)), discards):
        kept = [i for i in range(len(cards)) if i not in thrown]
        for boxes in product(range(3), repeat=len(kept)):
            if any(boxes.count(k) > free[k] for k in range(3)):
                continue
            where: dict[int, Box | None] = {i: None for i in thrown}
            for i, b in zip(kept, boxes, strict=True):
                where[i] = BOXES[b]
            out.append([(cards[i], where[i]) for i in range(len(cards))])
    return out


def _static_value(board: Board, placement: Sequence[tuple[Card, Box | None]]) -> float:
    """A quick score of a partial board after ``placement`` (to rank candidates)."""
    rows = [list(board.top), list(board.middle), list(board.bottom)]
    for c, b in placement:
        if b is not None:
            rows[b.index].append(c)
    boxes = [_BoxState(rows[0], 3), _BoxState(rows[1], 5), _BoxState(rows[2], 5)]
    top, mid, bot = (b.made for b in boxes)
    value = (bot >> 20) * 3.0 + (mid >> 20) * 2.5 + (top >> 20) * 2.0
    for upper, lower, lower_box in ((top, mid, boxes[1]), (mid, bot, boxes[2])):
        if upper > lower:
            free = lower_box.size - len(lower_box.cards)
            value -= 50.0 if free == 0 else 6.0 + 8.0 / free
    for bs, weight in ((boxes[2], 0.8), (boxes[1], 0.5)):
        if len(bs.cards) >= 2 and bs.suit:
            value += weight * len(bs.cards)
    value -= sum(c.rank for c in rows[0]) * 0.05  # keep the top low when it holds no pair
    return value


def _final_value(board: Board, options: RuleOptions, fantasyland_value: float = 9.0) -> float:
    """What a finished board is worth to its owner: royalties, Fantasyland, box strength; a
    foul costs about a scoop and the opponents' royalties."""
    a = assess_board(board, options)
    if a.fouled:
        return -14.0
    t, m, b = a.strengths
    return (
        a.royalty_total
        + (fantasyland_value if a.fantasyland_cards else 0.0)
        + ((t >> 20) + (m >> 20) + (b >> 20)) * 0.35
    )


def _lookahead(
    board: Board,
    cards: Sequence[Card],
    discards: int,
    options: RuleOptions,
    rollouts: int,
    dead: Collection[Card],
    width: int = 8,
    exact_tail: bool = False,
    seed: int | None = None,
    fl_value: float = 9.0,
    chase: bool = False,
    keep_open: float = 0.0,
) -> list[tuple[Card, Box | None]]:
    candidates = candidate_placements(board, cards, discards, width, chase)
    known = set(board.cards()) | set(cards) | set(dead)
    unknown = [c for c in DECK if c not in known]
    if seed is None:
        seed = sum((i + 1) * c.index for i, c in enumerate([*board.cards(), *cards]))
    rng = random.Random(seed)
    future_dealt, future_kept = (3, 2) if options.game is GameKind.PINEAPPLE else (1, 1)
    left = 13 - board.count - (len(cards) - discards)  # free slots after this street
    if exact_tail and (left <= future_kept or (future_kept == 1 and left <= 2)):
        tail = _TailSearch(
            unknown, options, future_dealt, future_kept, rollouts * 10, rng, fl_value
        )
        best_tail: tuple[float, list[tuple[Card, Box | None]]] | None = None
        for placement in candidates:
            start = board
            for c, b in placement:
                if b is not None:
                    start = start.with_card(b, c)
            value = tail.value(start)
            if best_tail is None or value > best_tail[0]:
                best_tail = (value, placement)
        assert best_tail is not None
        return best_tail[1]
    deals = []
    for _ in range(rollouts):  # common random cards for every candidate
        rng.shuffle(unknown)
        deals.append(list(unknown))
    best: tuple[float, list[tuple[Card, Box | None]]] | None = None
    for placement in candidates:
        start = board
        for c, b in placement:
            if b is not None:
                start = start.with_card(b, c)
        # chasing is moot once the top is full without a Fantasyland pair
        hope = len(start.top) < 3 or _fantasyland_reach(start) > 0
        plans = (False, True) if chase and hope else (False,)
        total = max(_playouts(start, deals, options, fl_value, plan) for plan in plans)
        if chase and keep_open:
            total += _fantasyland_reach(start) * keep_open * len(deals)
        if best is None or total > best[0]:
            best = (total, placement)
    assert best is not None
    return best[1]


def candidate_placements(
    board: Board, cards: Sequence[Card], discards: int, width: int, chase: bool
) -> list[list[tuple[Card, Box | None]]]:
    """The placements the play-outs compare (:func:`complete_street` with ``lookahead``): the
    greedy one, with ``chase`` the chasing heuristic's and the Fantasyland lines
    (:func:`_top_candidates`), then the best by the static score, ``width`` in all (or more
    when the first ones already exceed it)."""
    greedy = _greedy(board, cards, len(cards) - discards)
    ranked = sorted(
        street_placements(board, cards, discards),
        key=lambda p: _static_value(board, p),
        reverse=True,
    )
    if board.count == 0:  # (the first street: see _loaded_middle)
        ranked = [p for p in ranked if not _loaded_middle(board, p)] or ranked
    first = [greedy]
    if chase:
        hunt = _greedy(board, cards, len(cards) - discards, True)
        if hunt != greedy:
            first.append(hunt)
    if chase:
        first.extend(_top_candidates(board, [p for p in ranked if p not in first]))
    return [*first, *[c for c in ranked if c not in first][: width - len(first)]]


def _loaded_middle(board: Board, placement: Sequence[tuple[Card, Box | None]]) -> bool:
    """Whether ``placement`` leaves a middle of four or five cards with no pair or better
    over a bottom with fewer cards: the middle, nearly full of unpaired cards, is all but
    settled as high card (it loses its row to nearly any board) while the bottom, above it
    by rule (R2.3), has every card still to come. The static score ranks such a placement
    like any other and 32 play-outs could not tell it apart from better ones: "Arrange for
    me" put four cards in the middle on classic OFC's first street (9♣ 5♣ 10♥ K♦, A♠ below).
    Left out of :func:`candidate_placements`' static-score candidates on the first street
    (an empty board: the five cards of classic OFC and Pineapple, R3.2, R4.1), where the most
    cards are still to come and the play-outs vary most; later streets keep their candidates
    (the play-outs' choices measured in bench/ and pinned in tests/game/test_policy.py)."""
    middle = [*board.middle, *(c for c, b in placement if b is Box.MIDDLE)]
    bottom = len(board.bottom) + sum(b is Box.BOTTOM for _, b in placement)
    if len(middle) < 4 or len(middle) <= bottom:
        return False
    return _BoxState(middle, 5).made >> 20 == 0


def _playouts(
    start: Board,
    deals: Sequence[Sequence[Card]],
    options: RuleOptions,
    fl_value: float,
    chase: bool,
) -> float:
    """The sum of :func:`_final_value` over one play-out of ``start`` per deal (the cards to
    come in order), each street placed by the heuristic (chasing or not) and the last one
    searched exhaustively (:func:`complete_street` without play-outs)."""
    future_dealt, future_kept = (3, 2) if options.game is GameKind.PINEAPPLE else (1, 1)
    total = 0.0
    for deck in deals:
        cur = start
        i = 0
        while cur.count < 13:
            take = min(future_dealt, 13 - cur.count + (future_dealt - future_kept))
            street = deck[i : i + take]
            i += take
            moves = complete_street(cur, street, take - min(future_kept, 13 - cur.count),
                                    options=options, chase=chase)  # fmt: skip
            for c, b in moves:
                if b is not None:
                    cur = cur.with_card(b, c)
        total += _final_value(cur, options, fl_value)
    return total


def _top_candidates(
    board: Board, ranked: Sequence[list[tuple[Card, Box | None]]]
) -> list[list[tuple[Card, Box | None]]]:
    """The Fantasyland lines (R6.1) among ``ranked`` (placements, best static score first)
    that the static score would leave out: the best :data:`_CANDIDATES_MADE_TOP` making QQ or
    better or trips on top and, on an empty board, the best :data:`_CANDIDATES_LONE_TOP`
    putting a lone queen or better on top."""
    made: list[list[tuple[Card, Box | None]]] = []
    lone: list[list[tuple[Card, Box | None]]] = []
    for placement in ranked:
        start = board
        for c, b in placement:
            if b is not None:
                start = start.with_card(b, c)
        reach = _fantasyland_reach(start)
        if reach >= _REACH_MADE:
            if len(made) < _CANDIDATES_MADE_TOP:
                made.append(placement)
        elif reach and board.count == 0 and len(lone) < _CANDIDATES_LONE_TOP:
            lone.append(placement)
        if len(made) == _CANDIDATES_MADE_TOP and len(lone) == _CANDIDATES_LONE_TOP:
            break
    return [*made, *lone]


def _fantasyland_reach(board: Board) -> float:
    """How far a partial board's top is on the way to Fantasyland entry (R6.1):
    :data:`_REACH_MADE` (2.0) for QQ or better or trips on it; for a lone queen, king or ace
    with a free slot left 1.0, 1.1, 1.2; else 0."""
    ranks = [c.rank for c in board.top]
    for r in ranks:
        n = ranks.count(r)
        if n == 3 or (n == 2 and r >= 12):
            return _REACH_MADE
    high = max((r for r in ranks if r >= 12), default=0)
    if high and len(ranks) < 3 and len(set(ranks)) == len(ranks):
        return 1.0 + (high - 12) * 0.1
    return 0.0


class _TailSearch:
    """Exact expected final value (:func:`_final_value`) of a board finished within two
    streets, the cards to come drawn from ``unknown``: classic OFC enumerates every next card
    (two streets of one card: every pair), Pineapple every 3-card last street (or ``samples``
    of them, the same for every board compared, when there are more).
    """

    def __init__(
        self,
        unknown: Sequence[Card],
        options: RuleOptions,
        dealt: int,
        kept: int,
        samples: int,
        rng: random.Random,
        fl_value: float,
    ) -> None:
        self.fl_value = fl_value
        self.unknown = list(unknown)
        self.options = options
        self.dealt = dealt
        self.kept = kept
        draws = list(combinations(self.unknown, dealt)) if dealt > 1 else []
        if len(draws) > samples:
            draws = rng.sample(draws, samples)
        self.draws = draws

    def value(self, board: Board) -> float:
        """The expected final value of ``board`` (partly filled) under best play."""
        free = 13 - board.count
        if free == 0:
            return _final_value(board, self.options, self.fl_value)
        if self.dealt == 1:
            return self._one_card(board, self.unknown)
        if free > self.kept:  # pragma: no cover - callers only ask within the last street
            raise ValueError("the tail search covers the last street only")
        total = 0.0
        for draw in self.draws:
            total += _finish_value(board, draw, free, self.options, self.fl_value)
        return total / len(self.draws)

    def _one_card(self, board: Board, unknown: list[Card]) -> float:
        free = 13 - board.count
        if free == 0:
            return _final_value(board, self.options, self.fl_value)
        total = 0.0
        for i, c in enumerate(unknown):
            rest = unknown[:i] + unknown[i + 1 :] if free > 1 else unknown
            total += max(
                self._one_card(board.with_card(b, c), rest) for b in BOXES if board.free(b) > 0
            )
        return total / len(unknown)


def _finish_value(
    board: Board, cards: Sequence[Card], keep: int, options: RuleOptions, fl_value: float
) -> float:
    """The best :func:`_final_value` of finishing ``board`` with ``keep`` of ``cards``."""
    slots = [b for b in BOXES for _ in range(board.free(b))]
    best = -1e9
    for kept in combinations(cards, keep):
        for order in set(permutations(slots)):
            cur = board
            for c, b in zip(kept, order, strict=True):
                cur = cur.with_card(b, c)
            best = max(best, _final_value(cur, options, fl_value))
    return best


def _exhaustive_last(
    board: Board, cards: Sequence[Card], keep: int, options: RuleOptions
) -> list[tuple[Card, Box | None]]:
    """Try every way to finish the board with ``keep`` of ``cards``; best legal value wins."""
    slots = [b for b in BOXES for _ in range(board.free(b))]
    best_value = -1e9
    best: list[tuple[Card, Box | None]] = []
    for kept in combinations(cards, keep):
        for order in dict.fromkeys(permutations(slots)):  # ordered: deterministic
            rows = [list(board.top), list(board.middle), list(board.bottom)]
            for c, b in zip(kept, order, strict=True):
                rows[b.index].append(c)
            t, m, o = rows
            st = rank3(t[0].code, t[1].code, t[2].code)
            sm = rank5(m[0].code, m[1].code, m[2].code, m[3].code, m[4].code)
            sb = rank5(o[0].code, o[1].code, o[2].code, o[3].code, o[4].code)
            if st > sm or sm > sb:
                value = -1000.0 + sb / (1 << 24)
            else:
                roy = royalty(Box.TOP, st) + royalty(Box.MIDDLE, sm) + royalty(Box.BOTTOM, sb)
                fl = fantasyland_cards(st, sm, sb, options, False)
                value = roy * 3.0 + (15.0 if fl else 0.0) + (sb >> 20) * 0.5 + (sm >> 20) * 0.3
            if value > best_value:
                placed = dict(zip(kept, order, strict=True))
                best_value, best = value, [(c, placed.get(c)) for c in cards]
    return best


def arrange(
    cards: Sequence[Card], options: RuleOptions | None = None, *, width: int = 12
) -> list[tuple[Card, Box | None]]:
    """Set 13 of ``cards`` on a whole board at once, the rest discarded (R6.2, R4.5).

    Tries the ``width`` strongest bottoms and, for each, the strongest middles not above it,
    with the best top not above the middle; keeps the legal board with the highest
    royalties, counting a board that stays in Fantasyland (R6.4) as worth 30 more (ties:
    stronger boxes). Never fouls.

    :raises ValueError: if fewer than 13 cards are given.
    """
    opts = options or RuleOptions()
    if len(cards) < 13:
        raise ValueError("a whole board needs 13 cards")
    stay_bonus = 30 if opts.fantasyland else 0
    cs = list(cards)
    bottoms = sorted(
        ((rank5(*(c.code for c in five)), five) for five in combinations(cs, 5)),
        key=lambda t: t[0],
        reverse=True,
    )
    best: tuple[tuple[int, int, int, int], Board] | None = None
    seen_b: set[int] = set()
    tried = 0
    for sb, bottom in bottoms:
        if sb in seen_b:
            continue
        seen_b.add(sb)
        tried += 1
        if tried > width:
            break
        rest = [c for c in cs if c not in bottom]
        middles = sorted(
            ((rank5(*(c.code for c in five)), five) for five in combinations(rest, 5)),
            key=lambda t: t[0],
            reverse=True,
        )
        seen_m: set[int] = set()
        for sm, middle in middles:
            if sm > sb or sm in seen_m:
                continue
            seen_m.add(sm)
            if len(seen_m) > width:
                break
            left = [c for c in rest if c not in middle]
            for top in combinations(left, 3):
                st = rank3(*(c.code for c in top))
                if st > sm:
                    continue
                roy = royalty(Box.TOP, st) + royalty(Box.MIDDLE, sm) + royalty(Box.BOTTOM, sb)
                if stay_bonus and fantasyland_cards(st, sm, sb, opts, True):
                    roy += stay_bonus  # R6.4: keeping Fantasyland is worth a lot
                key = (roy, sb, sm, st)
                if best is None or key > best[0]:
                    best = (key, Board(tuple(top), tuple(middle), tuple(bottom)))
    assert best is not None  # the weakest split of any 13 cards is legal
    board = best[1]
    where: dict[Card, Box] = {}
    for b in BOXES:
        for c in board.box(b):
            where[c] = b
    return [(c, where.get(c)) for c in cs]
