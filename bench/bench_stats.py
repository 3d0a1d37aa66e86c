"""Benchmark of the statistics (issue 12). Run: ``python bench/bench_stats.py [hands]``.

Measures, on one SQLite file in a temporary directory holding ``HANDS`` settled 3-player
Pineapple hands (real ``Hand.to_json()`` and results; 3 ``hand_players`` rows each):

1. ``stat_rows``: the per-player figures a settlement derives from its JSON (on the event
   loop, before the write): microseconds per hand. Target: < 300 µs (a settlement is one per
   hand; the press path never runs it).
2. The queries of ``/stats`` and ``/top``: ``player_stats`` (a player with a third of the
   hands), ``community_stats`` and ``kush_leaderboard`` over every hand, and ``kush_series``
   (the /stats chart's data: that player's running kush, thinned to 200 points in SQL).
   Target: < 50 ms each at 20,000 hands (a command is answered within a second).
3. Migration 002 on a database written before it (the columns dropped and the results'
   scoops removed, as in tests/storage/test_stats.py): seconds to derive the figures of every
   hand (scoops counted again from the boards), and hands per second. Informational: it
   runs once, at the first start after the upgrade.
4. A replay's frames (``replay_frames`` of one hand): milliseconds. Target: < 20 ms.

Every figure is the best and the median of ``REPEATS`` runs.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import _repo  # noqa: F401  (puts the repository on sys.path)
from _machine import describe
from bench_storage import finished_hands

from game.history import replay_frames
from storage._common import stat_rows
from storage.api import BuyIn, Settlement
from storage.sqlite import SqliteStore
from tests.storage.before_002 import back_to_001

REPEATS = 5
HANDS = 20_000
DISTINCT = 200  # distinct hands played, recorded again and again
STAT_TARGET_US = 300.0
QUERY_TARGET_MS = 50.0
REPLAY_TARGET_MS = 20.0


def best_median(samples: list[float]) -> str:
    return f"best {min(samples):.3g}, median {statistics.median(samples):.3g}"


async def timed(call: Callable[[], Awaitable[object]]) -> list[float]:
    out = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        await call()
        out.append((time.perf_counter() - start) * 1000)
    return out


async def main(hands_total: int) -> None:
    print(f"machine: {describe()}; SQLite {sqlite3.sqlite_version}")
    hands = [(h, r) for h, r, _ in finished_hands(DISTINCT, seed="stats")]
    seats = {0: 1, 1: 2, 2: 3}
    per_hand = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for h, r in hands:
            stat_rows(h, r, seats, {})
        per_hand.append((time.perf_counter() - start) / len(hands) * 1e6)
    print(f"stat_rows per hand: {best_median(per_hand)} µs (target < {STAT_TARGET_US:g})")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stats.db"
        store = await SqliteStore.open(path)
        c = await store.community("telegram", "-1")
        players = [await store.player(c.id, f"u{i}", f"P{i}") for i in range(3)]
        ids = [p.id for p in players]
        table = await store.create_table(c.id, "chat", {}, 10)
        for p in ids:
            await store.grant(c.id, p, 10**7, actor="bench", reason="bench", key=f"g{p}")
        await store.commit(table.id, [BuyIn(p, 10**7) for p in ids], None, key="buy")
        start = time.perf_counter()
        moves = []
        for n in range(hands_total):
            h, r = hands[n % DISTINCT]
            pts = {int(s["seat"]): int(s["points"]) for s in r["seats"]}
            deltas = {ids[s]: max(-3, min(3, p)) for s, p in pts.items()}
            deltas[ids[0]] -= sum(deltas.values())
            moves.append(Settlement(n + 1, h, {**r, "kush": {}}, dict(enumerate(ids)), deltas))
            if len(moves) == 100:
                await store.commit(table.id, moves, None, key=f"h{n}")
                moves = []
        if moves:
            await store.commit(table.id, moves, None, key="h-last")
        print(f"wrote {hands_total} hands in {time.perf_counter() - start:.1f} s")
        week_ago = time.time() - 7 * 86400
        for name, call in [
            ("player_stats", lambda: store.player_stats(ids[1])),
            ("community_stats", lambda: store.community_stats(c.id)),
            ("kush_leaderboard", lambda: store.kush_leaderboard(c.id, None, 10)),
            ("kush_leaderboard week", lambda: store.kush_leaderboard(c.id, week_ago)),
            ("kush_series (200 points)", lambda: store.kush_series(ids[1])),
        ]:  # fmt: skip
            ms = await timed(call)
            print(f"{name}: {best_median(ms)} ms (target < {QUERY_TARGET_MS:g})")
        figures = await store.community_stats(c.id)
        await store.close()

        back_to_001(path)
        start = time.perf_counter()
        store = await SqliteStore.open(path)
        took = time.perf_counter() - start
        again = await store.community_stats(c.id)
        await store.close()
        assert again == figures, (again, figures)
        print(f"migration 002 over {hands_total} hands: {took:.2f} s, "
              f"{hands_total / took:,.0f} hands/s (same figures as the writer's)")  # fmt: skip

    ms = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for h, _r in hands[:50]:
            replay_frames(h, 0)
        ms.append((time.perf_counter() - start) / 50 * 1000)
    print(f"replay_frames per hand: {best_median(ms)} ms (target < {REPLAY_TARGET_MS:g})")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else HANDS))
