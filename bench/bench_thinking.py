"""A ``strong`` decision's wall time through the decision process (:class:`bot.thinking.Thinker`)
against a thread of the bot (``asyncio.to_thread``), and what each costs the event loop.

The decisions are those of three ``strong`` players over a few 3-player Pineapple hands
(Fantasyland on: the fitted-value search of :mod:`game.adp`), each made once per path (both
with warm caches), the paths taking turns, while a ticker on the loop wakes every
millisecond: its lag (how late it woke) is what a press of another table would wait for
meanwhile.

Then the case for a decision process of its own beside the drawing process: a burst of
showdown pictures (``--pictures``, drawn together as hands end together) with one decision
asked at the same moment, and one picture asked while ``--queued`` decisions are under way;
the decision's and the picture's wall time when they share one worker, and when each kind has
its own.

    python bench/bench_thinking.py [--hands 6] [--seed 1] [--pictures 8] [--queued 3]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import random
import statistics
import time
from collections.abc import Awaitable, Callable, Mapping

from bot import pictures as pictures_mod
from bot.drawing import Drawer
from bot.pictures import BoardPicture, Picture
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
    ks: list[SeatKnowledge], runs: Mapping[str, Callable[[SeatKnowledge], Awaitable[Moves]]]
) -> dict[str, tuple[list[float], list[float]]]:
    """Per path of ``runs``: the wall seconds of each decision, and the ticker's worst lag
    during each. The paths take turns decision by decision (the machine's load drifts)."""
    out: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in runs}
    worst = [0.0]
    stop = asyncio.Event()

    async def tick() -> None:
        while not stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            worst[0] = max(worst[0], time.perf_counter() - before - 0.001)

    ticker = asyncio.create_task(tick())
    for k in ks:
        for name, run in runs.items():
            await asyncio.sleep(0.01)  # (the ticker runs between decisions too)
            worst[0] = 0.0
            started = time.perf_counter()
            await run(k)
            out[name][0].append(time.perf_counter() - started)
            out[name][1].append(worst[0])
    stop.set()
    await ticker
    return out


def strong(thinker: Thinker, k: SeatKnowledge) -> Awaitable[Moves]:
    """``k``'s strong decision by ``thinker``."""
    return thinker.decide(decide, k, Level.STRONG)


def _picture() -> dict[str, object]:
    """A 3-board showdown picture's data (``bot.pictures.draw_json``)."""
    board = BoardPicture(
        name="Alice",
        boxes=("Qs Qh 2d", "9c 9d 9h 5s 5c", "As Ks Qd Js Ts"),
        hands=("Pair of Queens", "Full House", "Straight"),
        scores=(7, 12, 2),
        fouled=False,
        points=6,
        kush=60,
    )
    boards = tuple(dataclasses.replace(board, name=n) for n in ("Alice", "Bob", "Carol"))
    return Picture(title="Table 1 · hand 1", lang="en", boards=boards).to_json()


async def queueing(
    ks: list[SeatKnowledge], pictures: int, queued: int
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Per decision of ``ks``: its wall time asked with ``pictures`` pictures at once, shared
    worker then separate workers; a picture's wall time asked with ``queued`` decisions
    under way, shared then separate."""
    drawer, thinker = Drawer(), Thinker(in_process=True)
    data = _picture()
    await asyncio.gather(drawer.run(int), thinker.worker.run(int))
    await drawer.run(pictures_mod.draw_json, data)  # (warm: the fonts)
    out: tuple[list[float], list[float], list[float], list[float]] = ([], [], [], [])
    try:
        for k in ks:
            for shared, bucket in ((True, out[0]), (False, out[1])):
                decisions = drawer if shared else thinker.worker
                burst = [drawer.run(pictures_mod.draw_json, data) for _ in range(pictures)]
                tasks = [asyncio.ensure_future(b) for b in burst]
                await asyncio.sleep(0)  # (the pictures are asked first)
                started = time.perf_counter()
                await decisions.run(decide, k, Level.STRONG)
                bucket.append(time.perf_counter() - started)
                await asyncio.gather(*tasks)
            for shared, bucket in ((True, out[2]), (False, out[3])):
                decisions = drawer if shared else thinker.worker
                under_way = [
                    asyncio.ensure_future(decisions.run(decide, k, Level.STRONG))
                    for _ in range(queued)
                ]
                await asyncio.sleep(0)
                started = time.perf_counter()
                await drawer.run(pictures_mod.draw_json, data)
                bucket.append(time.perf_counter() - started)
                await asyncio.gather(*under_way)
    finally:
        await drawer.close()
        await thinker.close()
    return out


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
    parser.add_argument("--pictures", type=int, default=8)
    parser.add_argument("--queued", type=int, default=3)
    parser.add_argument("--queue-decisions", type=int, default=20)
    args = parser.parse_args()
    ks = situations(args.hands, args.seed)
    threads = Thinker(in_process=False)
    worker = Thinker(in_process=True)
    try:
        started = time.perf_counter()
        await worker.worker.run(int)  # the worker's start (forkserver, preloads) apart
        print(f"{len(ks)} decisions; the decision process started in "
              f"{time.perf_counter() - started:.2f} s")  # fmt: skip
        for k in ks:  # the worker's caches as warm as the bot's (situations() decided them)
            await worker.decide(decide, k, Level.STRONG)
        paths = [("thread", threads), ("process", worker)]
        runs = {name: functools.partial(strong, th) for name, th in paths}
        for name, (walls, lags) in (await timed(ks, runs)).items():
            print(line(f"{name}: wall", walls))
            print(line(f"{name}: event loop lag", lags))
    finally:
        await worker.close()
    sample = ks[:: max(1, len(ks) // args.queue_decisions)][: args.queue_decisions]
    shared_d, own_d, shared_p, own_p = await queueing(sample, args.pictures, args.queued)
    print(f"a decision asked with {args.pictures} pictures ({len(sample)} decisions):")
    print(line("  one shared worker", shared_d))
    print(line("  a worker of its own", own_d))
    print(f"a picture asked with {args.queued} decisions under way:")
    print(line("  one shared worker", shared_p))
    print(line("  a worker of its own", own_p))


if __name__ == "__main__":
    asyncio.run(main())
