"""The scorer against a tiny independent reimplementation of R1, R2, R5, R6 and R7, on random
boards (fast: a few thousand boards in about a second).

The oracle below is written from RULES.md alone and shares no code with ``game``: hands are
ranked as plain tuples, the royalty tables are spelled out, and every pair is scored from the
wording of R5.2–R5.5 and R7.1–R7.4. Random boards are drawn from a few ranks at a time so that
pairs, trips, quads, flushes, straights (the wheel included), fouls and Fantasyland are common.
A 3-card and 5-card property check against eval7 (the PyPI evaluator tests/game already
cross-checks with) sits here too.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise

import pytest

from game.board import Board, assess_board
from game.cards import DECK, Card
from game.evaluator import rank3, rank5
from game.options import RuleOptions
from game.scoring import score_chinese, score_showdown

# -- the oracle ------------------------------------------------------------------------------

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL, QUADS, SF, ROYAL = range(10)


def o_rank(cards: list[Card]) -> tuple[int, ...]:
    """(category, deciding ranks …) for 3 or 5 cards (R1.2–R1.4); a top box is never a
    straight or flush; the tuple of a top box is shorter, so it runs out of kickers first."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if len(cards) == 3:
        return ({1: HIGH, 2: PAIR, 3: TRIPS}[shape[0]], *order)
    flush = len({c.suit for c in cards}) == 1
    high = 0
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            high = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            high = 5
    if high and flush:
        return (ROYAL if high == 14 else SF, high)
    if shape == [4, 1]:
        return (QUADS, *order)
    if shape == [3, 2]:
        return (FULL, *order)
    if flush:
        return (FLUSH, *ranks)
    if high:
        return (STRAIGHT, high)
    cat = {(3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): PAIR}.get(tuple(shape), HIGH)
    return (cat, *order)


BOTTOM = {STRAIGHT: 2, FLUSH: 4, FULL: 6, QUADS: 10, SF: 15, ROYAL: 25}
MIDDLE = {TRIPS: 2, STRAIGHT: 4, FLUSH: 8, FULL: 12, QUADS: 20, SF: 30, ROYAL: 50}


def o_top_royalty(t: tuple[int, ...]) -> int:
    if t[0] == TRIPS:
        return {r: 10 + r - 2 for r in range(2, 15)}[t[1]]  # 222 = 10 … AAA = 22
    if t[0] == PAIR and t[1] >= 6:
        return t[1] - 5  # 66 = 1 … AA = 9
    return 0


class Judged:
    """One board judged by the oracle."""

    def __init__(self, b: Board, opts: RuleOptions, in_fl: bool) -> None:
        self.t, self.m, self.b = o_rank(list(b.top)), o_rank(list(b.middle)), o_rank(list(b.bottom))
        self.fouled = not (self.b >= self.m >= self.t)
        deuce = Card.parse("2s")
        if self.fouled:
            self.roy = [0, 0, 0]
        else:
            self.roy = [o_top_royalty(self.t), MIDDLE.get(self.m[0], 0), BOTTOM.get(self.b[0], 0)]
            if opts.deuce_of_spades:
                for k, box in enumerate((b.top, b.middle, b.bottom)):
                    if deuce in box:
                        self.roy[k] *= 2
        base = 14 if opts.game.value == "pineapple" else 13
        self.fl = 0
        if opts.fantasyland and opts.game.value != "chinese" and not self.fouled:
            if in_fl:
                if (
                    self.t[0] == TRIPS
                    or self.b[0] >= QUADS
                    or (opts.stay_on_full_house_middle and self.m[0] >= FULL)
                ):
                    self.fl = base
            elif self.t[0] == TRIPS:
                self.fl = base + 3 if opts.progressive_fantasyland else base
            elif self.t[0] == PAIR and self.t[1] >= 12:
                self.fl = base + (self.t[1] - 12 if opts.progressive_fantasyland else 0)


def o_score(boards: list[Board], opts: RuleOptions, in_fl: list[bool]) -> list[int]:
    """Net points per player (R5.1–R5.5)."""
    js = [Judged(b, opts, f) for b, f in zip(boards, in_fl, strict=True)]
    per_box = 1 if opts.scoring.value == "one_six" else 2
    pts = [0] * len(js)
    for i, j in combinations(range(len(js)), 2):
        a, b = js[i], js[j]
        if a.fouled and b.fouled:
            p = 0
        elif a.fouled:
            p = -6 - sum(b.roy)
        elif b.fouled:
            p = 6 + sum(a.roy)
        else:
            wins = [(x > y) - (x < y) for x, y in ((a.t, b.t), (a.m, b.m), (a.b, b.b))]
            p = per_box * sum(wins)
            if per_box == 1 and abs(sum(wins)) == 3:
                p += 3 if sum(wins) > 0 else -3
            p += sum(a.roy) - sum(b.roy)
        pts[i] += p
        pts[j] -= p
    return pts


def o_chinese(boards: list[Board]) -> list[int]:
    """Points per player (R7.1–R7.4)."""
    opts = RuleOptions.preset("chinese")
    js = [Judged(b, opts, False) for b in boards]
    pts = [0] * len(js)
    for j in js:
        if j.fouled:
            continue
        pts[js.index(j)] += (
            (10 if j.t == (TRIPS, 14) else 2 if j.t[0] == TRIPS else 0)
            + {ROYAL: 10, SF: 4, QUADS: 3, FULL: 1}.get(j.m[0], 0)
            + {ROYAL: 10, SF: 4, QUADS: 3}.get(j.b[0], 0)
        )
    for i, k in combinations(range(len(js)), 2):
        a, b = js[i], js[k]
        if a.fouled and b.fouled:
            continue
        won = [0, 0]
        for x, y in ((a.t, b.t), (a.m, b.m), (a.b, b.b)):
            c = -1 if a.fouled else 1 if b.fouled else (x > y) - (x < y)
            if c > 0:
                pts[i] += 2
                won[0] += 1
            elif c < 0:
                pts[k] += 2
                won[1] += 1
            else:
                pts[i] += 1
                pts[k] += 1
        pts[i] += won[0] >= 2
        pts[k] += won[1] >= 2
    return pts


# -- random boards ---------------------------------------------------------------------------


def random_boards(rng: random.Random, n: int) -> list[Board]:
    """``n`` boards from a deck thinned to a few ranks (and sometimes suits), each board
    either dealt as it comes or sorted into bottom ≥ middle ≥ top by the oracle."""
    ranks = set(rng.sample(range(2, 15), rng.randint(5, 13)))
    if 14 in ranks and rng.random() < 0.5:
        ranks |= {2, 3, 4, 5}  # wheels
    pool = [c for c in DECK if c.rank in ranks]
    if len(pool) < 13 * n:
        pool = list(DECK)
    cards = rng.sample(pool, 13 * n)
    out = []
    for k in range(n):
        hand = cards[13 * k : 13 * k + 13]
        if rng.random() < 0.6:
            # groups first (quads, trips, pairs, high ranks), a pair or trips on top at times
            count = Counter(c.rank for c in hand)
            hand.sort(key=lambda c: (count[c.rank], c.rank, c.suit.value), reverse=True)
            top: list[Card] = []
            if rng.random() < 0.5:
                made = [r for r, n in count.items() if n >= 2 and r >= 10]
                if made:
                    r = rng.choice(made)
                    top = [c for c in hand if c.rank == r][: rng.choice((2, 3))]
            rest = [c for c in hand if c not in top]
            top += rest[len(rest) - (3 - len(top)) :]
            rest = [c for c in hand if c not in top]
            bot, mid = rest[:5], rest[5:]
            if o_rank(mid) > o_rank(bot):
                bot, mid = mid, bot
            boxes = (tuple(top), tuple(mid), tuple(bot))
        else:
            boxes = (tuple(hand[:3]), tuple(hand[3:8]), tuple(hand[8:]))
        out.append(Board(*boxes))
    return out


OPTION_SETS = [
    RuleOptions.preset("pineapple"),
    RuleOptions.preset("pineapple", progressive_fantasyland=True, deuce_of_spades=True),
    RuleOptions.preset("pineapple", scoring="two_per_row", stay_on_full_house_middle=True),
    RuleOptions.preset("ofc"),
    RuleOptions.preset("ofc", scoring="one_six", deuce_of_spades=True),
    RuleOptions.preset("ofc", stay_on_full_house_middle=False, fantasyland=False),
]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: f"{o.game.value}-{o.scoring.value}")
def test_r5_r6_scorer_agrees_with_an_independent_oracle_on_random_boards(
    opts: RuleOptions,
) -> None:
    rng = random.Random(f"r5-oracle-{opts}")
    fouls = royalties = fls = 0
    for _ in range(400):
        n = rng.randint(2, opts.max_players)
        boards = random_boards(rng, n)
        in_fl = [rng.random() < 0.3 for _ in range(n)]
        got = score_showdown(boards, opts, in_fl)
        js = [Judged(b, opts, f) for b, f in zip(boards, in_fl, strict=True)]
        assert [p.fouled for p in got.players] == [j.fouled for j in js], boards
        assert [list(p.royalties) for p in got.players] == [j.roy for j in js], boards
        assert [p.fantasyland_cards for p in got.players] == [j.fl for j in js], boards
        assert [p.points for p in got.players] == o_score(boards, opts, in_fl), boards
        assert sum(p.points for p in got.players) == 0
        fouls += sum(j.fouled for j in js)
        royalties += sum(sum(j.roy) > 0 for j in js)
        fls += sum(j.fl > 0 for j in js)
    # the sample reaches the cases it is meant to check
    assert fouls > 50 and royalties > 100
    assert fls > (10 if opts.fantasyland else -1)


def test_r7_chinese_scorer_agrees_with_an_independent_oracle_on_random_boards() -> None:
    rng = random.Random("r7-oracle")
    opts = RuleOptions.preset("chinese")
    for _ in range(400):
        boards = random_boards(rng, rng.randint(2, 4))
        got = score_chinese(boards, opts)
        assert [p.points for p in got.players] == o_chinese(boards), boards
        assert [p.fouled for p in got.players] == [Judged(b, opts, False).fouled for b in boards]


def test_r1_2_r1_4_random_boxes_rank_as_the_oracle_and_eval7() -> None:
    """Random 5-card boxes against eval7 and the oracle, random 3-card tops against the oracle
    (eval7 has no 3-card scale) and tops against middles on R1.4's one scale."""
    eval7 = pytest.importorskip("eval7")
    rng = random.Random("r1-boxes")
    fives = [rng.sample(DECK, 5) for _ in range(3000)]
    ours = [rank5(*(c.code for c in h)) for h in fives]
    theirs = [eval7.evaluate([eval7.Card(c.code_str()) for c in h]) for h in fives]
    oracle = [o_rank(h) for h in fives]
    for i in range(len(fives) - 1):
        a, b = i, i + 1
        assert (ours[a] > ours[b]) == (theirs[a] > theirs[b]) == (oracle[a] > oracle[b])
        assert (ours[a] == ours[b]) == (theirs[a] == theirs[b]) == (oracle[a] == oracle[b])
    threes = [rng.sample(DECK, 3) for _ in range(3000)]
    for h, m in zip(threes, fives, strict=True):
        t = rank3(*(c.code for c in h))
        o = o_rank(h)
        assert (t > rank5(*(c.code for c in m))) == (o > o_rank(m)), (h, m)
    for h1, h2 in pairwise(threes):
        t1, t2 = rank3(*(c.code for c in h1)), rank3(*(c.code for c in h2))
        assert (t1 > t2) == (o_rank(h1) > o_rank(h2))
        assert (t1 == t2) == (o_rank(h1) == o_rank(h2))


def test_assess_board_royalties_are_zero_on_every_fouled_random_board() -> None:
    """R2.3: a fouled board's royalties count for nothing, whatever it holds."""
    rng = random.Random("r2-3")
    opts = RuleOptions.preset("pineapple", deuce_of_spades=True)
    seen = 0
    for _ in range(1000):
        (b,) = random_boards(rng, 1)
        a = assess_board(b, opts, rng.random() < 0.5)
        if a.fouled:
            seen += 1
            assert a.royalties == (0, 0, 0) and a.fantasyland_cards == 0
    assert seen > 100
