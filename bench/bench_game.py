"""Benchmark of the game core (issue 2). Run: ``python bench/bench_game.py``.

Measures, on one core, best of several runs:

1. 5-card evaluations per second through ``game.evaluator.rank5`` (our lookup table), side by
   side with eval7 and phevaluator (PyPI evaluators) on the same hands in the same run;
   target: ours ≥ 3,000,000/s.
2. 3-player showdowns scored per second (fouls, royalties, points: ``score_showdown``);
   target ≥ 50,000/s.
3. ``python -m game simulate`` throughput: three-player hands per second with the built-in
   strategy and with R8.5's auto-placement; target ≥ 2,000/s.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from _machine import describe

from game.board import Board
from game.cards import DECK
from game.evaluator import rank5
from game.options import RuleOptions
from game.scoring import score_showdown
from game.simulate import simulate

REPEATS = 7


def best_rate(fn: Callable[[], int]) -> float:
    """Best items/second over REPEATS runs of ``fn`` (which returns the item count)."""
    best = 0.0
    for _ in range(REPEATS):
        t = time.perf_counter()
        n = fn()
        best = max(best, n / (time.perf_counter() - t))
    return best


def bench_eval(n: int = 200_000) -> list[tuple[str, float]]:
    rng = random.Random(1)
    hands = [rng.sample(DECK, 5) for _ in range(n)]
    codes = [tuple(c.code for c in h) for h in hands]

    def ours() -> int:
        f = rank5
        for a, b, c, d, e in codes:
            f(a, b, c, d, e)
        return n

    out = [("game.evaluator.rank5 (ours)", best_rate(ours))]
    try:
        import eval7

        e7 = [[eval7.Card(c.code_str()) for c in h] for h in hands]

        def theirs7() -> int:
            f = eval7.evaluate
            for h in e7:
                f(h)
            return n

        out.append(("eval7.evaluate", best_rate(theirs7)))
    except ImportError:
        out.append(("eval7 (not installed)", 0.0))
    try:
        from phevaluator import evaluate_cards

        ph = [[c.code_str() for c in h] for h in hands]

        def theirs_ph() -> int:
            f = evaluate_cards
            for h in ph:
                f(*h)
            return n

        out.append(("phevaluator.evaluate_cards", best_rate(theirs_ph)))
    except ImportError:
        out.append(("phevaluator (not installed)", 0.0))
    return out


def bench_showdown(n: int = 20_000) -> float:
    records = list(simulate(RuleOptions(), 3, n // 20 + 1, seed=11))
    showdowns = [[Board.from_json(s) for s in r["seats"]] for r in records]
    opts = RuleOptions()
    total = len(showdowns)

    def run() -> int:
        for boards in showdowns:
            score_showdown(boards, opts)
        return total

    return best_rate(run)


def bench_simulate(policy: str, hands: int = 1500) -> float:
    def run() -> int:
        for _ in simulate(RuleOptions(), 3, hands, seed=5, policy=policy):
            pass
        return hands

    return best_rate(run)


def main() -> None:
    print(f"machine: {describe()}")
    print("1. 5-card evaluations per second (same 200,000 random hands, one core):")
    evals = bench_eval()
    for name, rate in evals:
        print(f"   {name:32s} {rate:>12,.0f}/s")
    ours = evals[0][1]
    for name, rate in evals[1:]:
        if rate:
            print(f"   ours / {name.split('.')[0]} = {ours / rate:.2f}x")
    print(f"   target ≥ 3,000,000/s: {'met' if ours >= 3_000_000 else 'NOT met'}")
    sd = bench_showdown()
    print(
        f"2. 3-player showdowns scored: {sd:,.0f}/s (target ≥ 50,000/s: "
        f"{'met' if sd >= 50_000 else 'NOT met'})"
    )
    for policy in ("strategy", "auto"):
        rate = bench_simulate(policy)
        print(
            f"3. simulate, 3 players, policy={policy}: {rate:,.0f} hands/s (target ≥ 2,000/s: "
            f"{'met' if rate >= 2000 else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
