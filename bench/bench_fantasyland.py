"""Benchmark of the exact Fantasyland solver (issue 13). Run: ``python bench/bench_fantasyland.py``
(``--hands14 N --hands17 N`` to change the sample sizes).

Times :func:`game.fantasyland.solve_fantasyland` with the default Pineapple rules and stay
value, one call per random hand (fixed seeds), one core, wall clock per call
(``time.perf_counter``), after a few warm-up calls:

1. 14 cards (Pineapple Fantasyland, R6.2): mean and p99; targets mean ≤ 10 ms, p99 ≤ 50 ms;
2. 17 cards (progressive Fantasyland with trips): mean and p99; target mean ≤ 100 ms;
3. for the record, 13 (classic OFC) and 15–16 cards.

For comparison it prints the figures a published Rust solver reports (6.7 ms for 14 cards,
667 ms for 17, on its author's machine, so only indicative).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _machine import describe

from game.cards import DECK
from game.fantasyland import solve_fantasyland
from game.options import GameKind, RuleOptions

RUST_MS = {14: 6.7, 17: 667.0}
TARGET_MEAN_MS = {14: 10.0, 17: 100.0}
TARGET_P99_MS = {14: 50.0}


def measure(size: int, hands: int, options: RuleOptions, seed: int) -> list[float]:
    """Milliseconds per solve of ``hands`` random hands of ``size`` cards, sorted."""
    rng = random.Random(seed)
    deals = [rng.sample(DECK, size) for _ in range(hands)]
    for cards in deals[:3]:  # warm the caches of royalties and stays
        solve_fantasyland(cards, options)
    out = []
    for cards in deals:
        t = time.perf_counter()
        solve_fantasyland(cards, options)
        out.append((time.perf_counter() - t) * 1000)
    return sorted(out)


def p99(sorted_ms: list[float]) -> float:
    """The 99th percentile (nearest rank) of sorted figures."""
    return sorted_ms[max(0, -(-99 * len(sorted_ms) // 100) - 1)]


def verdict(value: float, target: float) -> str:
    return f"target ≤ {target:g} ms: {'met' if value <= target else 'NOT met'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands14", type=int, default=2000)
    parser.add_argument("--hands17", type=int, default=300)
    args = parser.parse_args()
    print(f"machine: {describe()}")
    pineapple = RuleOptions()
    rows = [
        (14, args.hands14, pineapple),
        (17, args.hands17, pineapple),
        (13, 300, RuleOptions.preset(GameKind.OFC)),
        (15, 300, pineapple),
        (16, 300, pineapple),
    ]
    for i, (size, hands, options) in enumerate(rows, 1):
        ms = measure(size, hands, options, seed=size)
        mean, tail = statistics.mean(ms), p99(ms)
        print(
            f"{i}. {size} cards, {hands} hands: mean {mean:.2f} ms, median "
            f"{statistics.median(ms):.2f} ms, p99 {tail:.2f} ms, max {ms[-1]:.2f} ms"
        )
        if size in TARGET_MEAN_MS:
            print(f"   mean: {verdict(mean, TARGET_MEAN_MS[size])}")
        if size in TARGET_P99_MS:
            print(f"   p99:  {verdict(tail, TARGET_P99_MS[size])}")
        if size in RUST_MS:
            print(
                f"   published Rust solver: {RUST_MS[size]:g} ms; ours / Rust = "
                f"{mean / RUST_MS[size]:.2f}x (other machine: indicative only)"
            )


if __name__ == "__main__":
    main()
