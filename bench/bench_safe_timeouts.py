"""``safe_autoplay``'s timeouts (R8.5): the ``normal`` placement made in the table's step, on
the event loop (before fixauto), against the decision process (:meth:`Runtime.think_safe`),
and what each costs the event loop. Then what the event loop still does with those hands
(fixsafe2): a hand rebuilt from its log (a restart, a takeover, a rollback) from a log that does
not record the timeouts' placements (each decided again by the strategy) against one that does
(:attr:`game.actions.Timeout.placed`), and the copy of the hand the table's timer plays a step
ahead on (:meth:`Runtime.prepare_safe`) by ``copy.deepcopy`` against :meth:`Hand.copy`; these
run on the event loop, so their wall time is its lag.

The placements are those of every timeout of a few hands where every street times out:
classic OFC with a 13-card Fantasyland hand and Pineapple with a 17-card one
(``progressive_fantasyland``, the slowest, R6.2; classic OFC never deals 17), each made once
per path, the paths taking turns, while a ticker on the loop wakes every millisecond: its lag
is what a press of another table waits for meanwhile (:func:`bench_thinking.timed`; the
wall times include a 3 ms sleep after each placement).

    python bench/bench_safe_timeouts.py [--hands 3]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import time
from collections.abc import Callable
from typing import Any

from bench_thinking import line, timed

from bot.thinking import Moves, Thinker
from game.hand import Hand, HandSetup
from game.options import GameKind, RuleOptions
from game.policy import Level, SeatKnowledge, decide


def situations(hands: int) -> tuple[list[SeatKnowledge], list[Hand]]:
    """What each timeout of ``hands`` hands of each kind asks the strategy, and each hand
    before each of its timeouts (a copy)."""
    out: list[SeatKnowledge] = []
    before: list[Hand] = []
    for kind, fantasyland in ((GameKind.OFC, {1: 13}), (GameKind.PINEAPPLE, {0: 17})):
        progressive = kind is GameKind.PINEAPPLE  # (15–17 cards only with it, R6.2)
        options = RuleOptions(game=kind, safe_autoplay=True, progressive_fantasyland=progressive)
        for seed in range(hands):
            hand = Hand(HandSetup.deal(options, (0, 1), 0, fantasyland, seed=seed))
            while not hand.is_over:
                seat = hand.to_act[0]
                k = hand.timeout_knowledge(seat)
                if k is not None:
                    out.append(k)
                before.append(hand.copy())
                hand.timeout(seat)
    return out, before


def _old_log(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (:meth:`Hand.to_json`) as written before the placements were recorded."""
    return {
        "setup": data["setup"],
        "actions": [{k: v for k, v in a.items() if k != "placed"} for a in data["actions"]],
    }


def wall_times(items: list[Any], fn: Callable[[Any], object]) -> list[float]:
    """The wall seconds of ``fn`` on each of ``items``."""
    out: list[float] = []
    for item in items:
        started = time.perf_counter()
        fn(item)
        out.append(time.perf_counter() - started)
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    ks, before = situations(args.hands)
    worker = Thinker(in_process=True)

    # (each path then sleeps 3 ms, so that the ticker wakes and tells its lag before the
    # next: a placement in the step holds the loop, and the ticker wakes only after it)
    async def in_step(k: SeatKnowledge) -> Moves:
        moves = decide(k, Level.NORMAL)
        await asyncio.sleep(0.003)
        return moves

    async def in_process(k: SeatKnowledge) -> Moves:
        moves = await worker.decide(decide, k, Level.NORMAL)
        await asyncio.sleep(0.003)
        return moves

    try:
        await worker.worker.run(int)  # (the worker's start apart)
        print(f"{len(ks)} timeouts")
        runs = {"in the step": in_step, "decision process": in_process}
        for name, (walls, lags) in (await timed(ks, runs)).items():
            print(line(f"{name}: wall", walls))
            print(line(f"{name}: event loop lag", lags))
    finally:
        await worker.close()
    logs = [h.to_json() for h in before if h.actions]
    old = [_old_log(d) for d in logs]
    print(f"{len(logs)} hands rebuilt, {len(before)} copies")
    print(line("rebuild, old log: wall", wall_times(old, Hand.from_json)))
    print(line("rebuild, recorded: wall", wall_times(logs, Hand.from_json)))
    print(line("play-ahead deepcopy: wall", wall_times(before, copy.deepcopy)))
    print(line("play-ahead Hand.copy: wall", wall_times(before, Hand.copy)))


if __name__ == "__main__":
    asyncio.run(main())
