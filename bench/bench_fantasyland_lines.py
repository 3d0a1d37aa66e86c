"""Where the strong computer player's Fantasyland entries are made and lost (issue 13).
Run: ``python bench/bench_fantasyland_lines.py`` (``--decks N``, default 300: about 2 minutes
on one quiet core; ``--seed S``; ``--set MODULE.NAME=VALUE``: a variant, ``bench/_variant.py``).

Three-player Pineapple with the default rules: ``strong`` (:mod:`game.policy`) in one seat
against two ``easy``, the seat turning with each deck (``--decks`` decks drawn from
``--seed``, so a run is reproducible). Fantasyland entry (R6.1) needs QQ or better (or trips)
on top of an unfouled board, and a made QQ+ top fouls (R2.3) unless the middle ends above it
and the bottom above the middle, so a board whose top is made early is all or nothing.

It prints, for strong's boards:

1. Fantasyland entry % and foul %, and the points per hand against the two ``easy``;
2. by the street on which QQ+ (or trips) was first made on top (1–5, or never): boards,
   Fantasyland entries, fouls, and the conversion (entries per board);
3. the same boards' bound: how many a player who knew every card to come could still have
   finished with that top unfouled (a search over the streets' discards and the free slots);
4. per street 2–5, the boards whose top held an unpaired queen or better with a slot free
   ("open"), those dealt a card that pairs it, and those that paired it on top.

Use it to see whether a change to the strong level buys Fantasyland with late (well
converted) or early (foul-prone) pairs. No goal is checked here; ``bench_strength.py`` holds
the goals.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product

import _variant
from _machine import describe

from game.actions import Arrange
from game.board import Board, Box, assess_board
from game.cards import Card, shuffled_deck
from game.evaluator import rank3, rank5
from game.hand import Hand, HandSetup
from game.options import RuleOptions
from game.policy import Level, decide, knowledge

QQ_TOP = 1 << 20 | 12 << 16  # the weakest top that enters Fantasyland (R6.1)


def made_top(ranks: Sequence[int]) -> bool:
    """Whether a top's ranks hold QQ or better or trips."""
    return any((ranks.count(r) >= 2 and r >= 12) or ranks.count(r) == 3 for r in ranks)


def finishable(board: Board, streets: Sequence[Sequence[Card]]) -> bool:
    """Whether ``board`` (QQ+ on top) can be finished unfouled with QQ+ on top, keeping two
    cards of each of ``streets`` (three cards each), knowing them all (the clairvoyant bound)."""
    top, mid, bot = list(board.top), list(board.middle), list(board.bottom)
    for thrown in product(range(3), repeat=len(streets)):
        kept = [
            c for st, t in zip(streets, thrown, strict=True) for i, c in enumerate(st) if i != t
        ]
        for extra_top in combinations(kept, 3 - len(top)):
            rest = [c for c in kept if c not in extra_top]
            st_ = rank3(*(c.code for c in (*top, *extra_top)))
            if st_ < QQ_TOP:
                continue
            for extra_mid in combinations(rest, 5 - len(mid)):
                m = (*mid, *extra_mid)
                b = (*bot, *(c for c in rest if c not in extra_mid))
                sm = rank5(*(c.code for c in m))
                if st_ <= sm <= rank5(*(c.code for c in b)):
                    return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    _variant.add_argument(parser)
    args = parser.parse_args()
    print(f"machine: {describe()}")
    _variant.apply(args.set)
    print(f"3-player Pineapple, strong vs 2 × easy, {args.decks} decks (seed {args.seed})")
    options = RuleOptions()
    started = time.perf_counter()
    outcome: Counter[tuple[str, str]] = Counter()
    bound: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    points: list[int] = []
    for d in range(args.decks):
        deck = shuffled_deck(seed=f"fl-lines-{args.seed}-{d}")
        seat = d % 3
        hand = Hand(HandSetup.deal(options, (0, 1, 2), 2, deck=deck))
        rng = random.Random(d)
        street = 0
        made_at = 0
        made_board = Board()
        streets: list[list[Card]] = []
        while not hand.is_over:
            s = hand.to_act[0]
            k = knowledge(hand, s)
            moves = decide(k, Level.STRONG if s == seat else Level.EASY, rng)
            if s == seat:
                street += 1
                if made_at:
                    streets.append(list(k.cards))
                before = [c.rank for c in k.board.top]
                highs = {r for r in before if r >= 12}
                if street >= 2 and highs and len(before) < 3 and len(set(before)) == len(before):
                    lines[f"open {street}"] += 1
                    if any(c.rank in highs for c in k.cards):
                        lines[f"dealt {street}"] += 1
                        if any(c.rank in highs and b is Box.TOP for c, b in moves):
                            lines[f"paired {street}"] += 1
                after = before + [c.rank for c, b in moves if b is Box.TOP]
                if not made_at and made_top(after):
                    made_at = street
                    made_board = k.board
                    for c, b in moves:
                        if b is not None:
                            made_board = made_board.with_card(b, c)
            hand.apply(Arrange(s, tuple(moves)))
        result = hand.result
        assert result is not None
        r = result.seat(seat)
        points.append(r.points)
        a = assess_board(r.board, options)
        entry = bool(a.fantasyland_cards) and not a.fouled
        key = str(made_at) if made_at else "never"
        outcome[(key, "entered" if entry else "fouled" if r.fouled else "neither")] += 1
        if made_at and made_at < 5:
            bound[key] += finishable(made_board, streets)
    n = args.decks
    entered = sum(v for (_, o), v in outcome.items() if o == "entered")
    fouled = sum(v for (_, o), v in outcome.items() if o == "fouled")
    print(
        f"strong: {n} boards, Fantasyland {100 * entered / n:.1f} %, foul {100 * fouled / n:.1f} %,"
        f" {statistics.mean(points):+.2f} points per hand against two easy"
    )
    print("QQ+ first made on top on street: boards, entered, fouled, conversion; clairvoyant")
    for key in ("1", "2", "3", "4", "5", "never"):
        boards = sum(v for (k, _), v in outcome.items() if k == key)
        if not boards:
            continue
        e, f = outcome[(key, "entered")], outcome[(key, "fouled")]
        clair = f"; could finish {bound[key]}" if key in ("1", "2", "3", "4") else ""
        print(f"  {key:>5}: {boards:4d}, {e:4d}, {f:4d}, {100 * e / boards:5.1f} %{clair}")
    print("top open with an unpaired Q+ and a free slot, on street: open, pair dealt, paired")
    for st in range(2, 6):
        print(
            f"  {st}: {lines[f'open {st}']:4d}, {lines[f'dealt {st}']:4d}, "
            f"{lines[f'paired {st}']:4d}"
        )
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
