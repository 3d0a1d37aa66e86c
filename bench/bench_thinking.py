"""A ``strong`` decision's wall time through the decision process (:class:`bot.thinking.Thinker`)
against a thread of the bot (``asyncio.to_thread``), and what each costs the event loop.

The decisions are those of three ``strong`` players over a few 3-player Pineapple hands
(Fantasyland on: the fitted-value search of :mod:`game.adp`), each made once per path, one
after another, while a ticker on the loop wakes every millisecond: its lag (how late it woke)
is what a press of another table would wait for meanwhile.

    python bench/bench_thinking.py [--hands 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable

from bot.thinking import Moves, Thinker
from game.actions import Arrange
from game.cards import DECK
from game.hand import Hand, HandSetup
from game.options import RuleOptions
from game.policy import Level, SeatKnowledge, decide, knowledge


def situations(hands: int, seed: int) -> list[SeatKnowledge]:
    """What each seat knew at each of its decisions over ``hands`` hands of strong play."""
    rng = random.Random(seed)
    out: list[SeatKnowledge] = []
    for _ in range(hands):
        deck = list(DECK)
        rng.shuffle(deck)
        hand = Hand(HandSetup.deal(RuleOptions(), (0, 1, 2), 2, deck=deck))
        while not hand.is_over:
            seat = hand.to_act[0]
            k = knowledge(hand, seat)
            out.append(k)
            hand.apply(Arrange(seat, tuple(decide(k, Level.STRONG))))
    return out


async def timed(
    ks: list[SeatKnowledge], run: Callable[[SeatKnowledge], Awaitable[Moves]]
) -> tuple[list[float], list[float]]:
    """Wall seconds of each decision, and the ticker's worst lag during each."""
    walls: list[float] = []
    lags: list[float] = []
    worst = [0.0]
    stop = asyncio.Event()

    async def tick() -> None:
        while not stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            worst[0] = max(worst[0], time.perf_counter() - before - 0.001)

    ticker = asyncio.create_task(tick())
    for k in ks:
        await asyncio.sleep(0.01)  # (the ticker runs between decisions too)
        worst[0] = 0.0
        started = time.perf_counter()
        await run(k)
        walls.append(time.perf_counter() - started)
        lags.append(worst[0])
    stop.set()
    await ticker
    return walls, lags


def line(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    return (
        f"{name:<28} mean {1000 * statistics.mean(xs):6.1f} ms  p50 {1000 * xs[len(xs) // 2]:6.1f}"
        f"  p95 {1000 * xs[int(len(xs) * 0.95)]:6.1f}  max {1000 * xs[-1]:6.1f}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ks = situations(args.hands, args.seed)
    threads = Thinker(in_process=False)
    worker = Thinker(in_process=True)
    try:
        started = time.perf_counter()
        await worker.worker.run(int)  # the worker's start (forkserver, preloads) apart
        print(f"{len(ks)} decisions; the decision process started in "
              f"{time.perf_counter() - started:.2f} s")  # fmt: skip
        for name, thinker in (("thread", threads), ("process", worker)):
            walls, lags = await timed(ks, lambda k, th=thinker: th.decide(decide, k, Level.STRONG))
            print(line(f"{name}: wall", walls))
            print(line(f"{name}: event loop lag", lags))
    finally:
        await worker.close()


if __name__ == "__main__":
    asyncio.run(main())
