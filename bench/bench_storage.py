"""Benchmark of the storage layer (issue 3). Run: ``python bench/bench_storage.py``, or with
``--db pgserver`` on PostgreSQL (issue 14: a throw-away server of the ``pgserver`` package,
default settings, on a unix socket) or ``--db postgresql://…`` (a server whose user may
``CREATE DATABASE``; each measurement gets a database of its own, dropped afterwards).

Measures, on one SQLite file in a temporary directory (WAL, ``synchronous=NORMAL``), or on
the PostgreSQL database:

1. Settled 3-player hands per second: ``SqliteStore.settle_hand`` with a real finished hand
   (``Hand.to_json()``, a few KB), its ``HandResult.to_json()`` plus the kush moved, and 3
   deltas — per hand 3 ``hand_result`` ledger rows, 3 stack updates, the history row, its 3
   ``hand_players`` rows and the idempotency row, in one transaction. Measured twice:

   - *one table*: one coroutine settling hand after hand, each awaited (latency-bound: every
     settlement is its own transaction and its own round trip to the connection's thread);
   - *100 tables*: 100 coroutines (one per table) doing the same at once, as a bot with
     many live tables does; concurrent settlements share commits (group commit).

   Target: ≥ 2,000 hands/s.
2. Restart recovery: snapshots of 1,000 live tables, each with a real mid-hand
   ``Hand.to_json()``, then the time to open the store, load every snapshot and rebuild every
   hand with ``Hand.from_json``. Target: < 2 s.

Every figure is the best and the median of ``REPEATS`` runs; the ledger check runs on the
file at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from importlib import metadata
from pathlib import Path
from typing import Any

from _machine import describe

from game.hand import Hand, HandSetup
from game.match import MatchState
from game.options import RuleOptions
from game.simulate import play_turn
from storage.api import Store
from storage.check import check_database
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore

REPEATS = 3
SEQUENTIAL_HANDS = 2_000
TABLES = 100
HANDS_PER_TABLE = 50
LIVE_TABLES = 1_000
SETTLE_TARGET = 2_000.0
RECOVERY_TARGET = 2.0


def machine() -> str:
    """Platform, CPU model, cores, Python, SQLite and aiosqlite versions."""
    return (
        f"{describe()}; SQLite {sqlite3.sqlite_version}; aiosqlite {metadata.version('aiosqlite')}"
    )


class Target:
    """Where the stores live: SQLite files in ``directory``, or databases on a PostgreSQL
    server (``url`` of a database whose user may create others)."""

    def __init__(self, directory: Path, url: str | None = None) -> None:
        self.directory = directory
        self.url = url
        self._names = itertools.count(1)

    def describe(self) -> str:
        if self.url is None:
            return "SQLite file (WAL, synchronous=NORMAL)"
        return "PostgreSQL"

    @contextlib.asynccontextmanager
    async def database(self, name: str) -> AsyncIterator[str]:
        """A fresh database: a file path, or the URL of a new PostgreSQL database."""
        if self.url is None:
            yield str(self.directory / f"{name}.db")
            return
        import asyncpg

        db = f"bench_{os.getpid()}_{next(self._names)}_{name}"
        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f"CREATE DATABASE {db}")
            parts = self.url.split("?", 1)
            base = parts[0].rsplit("/", 1)[0]
            yield f"{base}/{db}" + (f"?{parts[1]}" if len(parts) > 1 else "")
        finally:
            await admin.execute(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
            await admin.close()

    async def open(self, where: str) -> Store:
        if self.url is None:
            return await SqliteStore.open(where)
        return await PostgresStore.open(where)

    async def settings(self) -> str:
        """The server's version and durability settings (PostgreSQL)."""
        if self.url is None:
            return ""
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            version = await conn.fetchval("SHOW server_version")
            rows = await conn.fetch(
                "SELECT name, setting FROM pg_settings WHERE name IN"
                " ('fsync', 'synchronous_commit', 'shared_buffers', 'wal_level') ORDER BY name"
            )
        finally:
            await conn.close()
        return f"PostgreSQL {version}, " + ", ".join(f"{n}={v}" for n, v in rows)


def finished_hands(
    n: int, seed: str = "bench"
) -> list[tuple[dict[str, Any], dict[str, Any], dict[int, int]]]:
    """``n`` real 3-player Pineapple hands played to showdown, dealt from the seeds
    ``<seed>-0`` … : (hand JSON, result JSON, points by seat)."""
    out = []
    for i in range(n):
        hand = Hand(HandSetup.deal(RuleOptions(), (0, 1, 2), i % 3, seed=f"{seed}-{i}"))
        while not hand.is_over:
            play_turn(hand, hand.to_act[0])
        assert hand.result is not None
        points = hand.result.points
        out.append((hand.to_json(), hand.result.to_json(), dict(points)))
    return out


def mid_hand(i: int) -> Hand:
    """A real 3-player hand stopped after a few turns (0–9)."""
    hand = Hand(HandSetup.deal(RuleOptions(), (0, 1, 2), i % 3, seed=f"live-{i}"))
    for _ in range(i % 10):
        play_turn(hand, hand.to_act[0])
    return hand


class Settler:
    """Settles the sample hands at one table: deltas are the hand's points in kush."""

    def __init__(
        self,
        store: Store,
        table_id: int,
        players: list[int],
        hands: list[tuple[dict[str, Any], dict[str, Any], dict[int, int]]],
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.players = players
        self.hands = hands
        self.number = 0

    async def settle(self, count: int) -> None:
        for _ in range(count):
            self.number += 1
            hand, result, points = self.hands[self.number % len(self.hands)]
            deltas = {self.players[seat]: pts for seat, pts in points.items()}
            await self.store.settle_hand(
                self.table_id,
                self.number,
                hand,
                {**result, "kush": {str(p): d for p, d in deltas.items()}},
                dict(enumerate(self.players)),
                deltas,
                key=f"settle:{self.table_id}:{self.number}",
            )


async def seat_tables(store: Store, tables: int, prefix: str) -> list[tuple[int, list[int]]]:
    c = await store.community("telegram", "-100bench", "Bench")
    out = []
    for t in range(tables):
        table = await store.create_table(c.id, f"{prefix}-{t}", RuleOptions().to_json(), 100)
        players = []
        for seat in range(3):
            p = await store.player(c.id, f"{prefix}-{t}-{seat}", f"P{t}.{seat}")
            await store.grant(c.id, p.id, 1_000_000, actor="bench", reason="", key=f"g-{p.id}")
            await store.buy_in(table.id, p.id, 1_000_000, key=f"b-{p.id}")
            players.append(p.id)
        out.append((table.id, players))
    return out


async def bench_settle(target: Target, hands: list[Any]) -> tuple[list[float], list[float]]:
    """(hands/s of one table, hands/s of 100 tables) per repeat, each on a fresh database."""
    one: list[float] = []
    many: list[float] = []
    for r in range(REPEATS):
        async with target.database(f"settle{r}") as path:
            await _settle_once(target, path, hands, one, many)
    return one, many


async def _settle_once(
    target: Target, path: str, hands: list[Any], one: list[float], many: list[float]
) -> None:
    """One repeat of :func:`bench_settle` on the database at ``path``."""
    store = await target.open(path)
    try:
        [(table, players)] = await seat_tables(store, 1, "solo")
        settler = Settler(store, table, players, hands)
        t0 = time.perf_counter()
        await settler.settle(SEQUENTIAL_HANDS)
        one.append(SEQUENTIAL_HANDS / (time.perf_counter() - t0))

        seated = await seat_tables(store, TABLES, "many")
        settlers = [Settler(store, t, ps, hands) for t, ps in seated]
        t0 = time.perf_counter()
        await asyncio.gather(*(s.settle(HANDS_PER_TABLE) for s in settlers))
        many.append(TABLES * HANDS_PER_TABLE / (time.perf_counter() - t0))
    finally:
        await store.close()
    problems = await check_database(path)
    assert problems == [], problems


async def bench_recovery(target: Target) -> list[tuple[float, float, float]]:
    """(open, load snapshots, rebuild hands) seconds per repeat."""
    async with target.database("recovery") as path:
        return await _recovery(target, path)


async def _recovery(target: Target, path: str) -> list[tuple[float, float, float]]:
    store = await target.open(path)
    live = {}
    try:
        c = await store.community("telegram", "-100live", "Live")
        players = [(await store.player(c.id, f"u{i}", f"P{i}")).id for i in range(3)]
        match = MatchState.new(RuleOptions()).to_json()
        for i in range(LIVE_TABLES):
            table = await store.create_table(c.id, f"live-{i}", RuleOptions().to_json(), 100)
            hand = mid_hand(i)
            live[table.id] = hand.to_json()
            await store.save_snapshot(
                table.id,
                {
                    "hand": live[table.id],
                    "match": match,
                    "seats": {str(s): p for s, p in enumerate(players)},
                    "stacks": {str(p): 1000 for p in players},
                    "deadlines": {str(s): time.time() + 120 for s in hand.to_act},
                    "number": i,
                },
            )
    finally:
        await store.close()
    if target.url is None:
        size = sum(f.stat().st_size for f in target.directory.glob("recovery.db*"))
        print(f"  recovery database: {LIVE_TABLES} snapshots, {size / 1e6:.1f} MB on disk")

    runs = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        store = await target.open(path)
        t1 = time.perf_counter()
        snapshots = await store.snapshots()
        t2 = time.perf_counter()
        rebuilt = {table.id: Hand.from_json(data["hand"]) for table, data in snapshots}
        t3 = time.perf_counter()
        await store.close()
        assert len(rebuilt) == LIVE_TABLES
        assert all(h.to_json() == live[tid] for tid, h in rebuilt.items())
        runs.append((t1 - t0, t2 - t1, t3 - t2))
    return runs


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


async def main(db: str) -> None:
    print("Storage benchmark (issue 3)")
    print(f"  machine: {machine()}")
    print(f"  {REPEATS} repeats of each measurement; best and median shown")
    hands = finished_hands(60)
    kb = statistics.mean(len(Hand.from_json(h).dumps()) for h, _, _ in hands) / 1000
    print(f"  sample hands: 60 real 3-player hands, Hand.to_json() ≈ {kb:.1f} KB each")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        url = None
        if db == "pgserver":
            url = stack.enter_context(_pgserver(Path(tmp)))
        elif db != "sqlite":
            url = db
        target = Target(Path(tmp), url)
        print(f"  database: {target.describe()} {await target.settings()}".rstrip())
        one, many = await bench_settle(target, hands)
        print(
            f"1a. settled hands/s, one table, each awaited ({SEQUENTIAL_HANDS} hands): "
            f"best {max(one):,.0f}, median {statistics.median(one):,.0f}"
        )
        print(
            f"1b. settled hands/s, {TABLES} tables at once ({TABLES * HANDS_PER_TABLE} hands): "
            f"best {max(many):,.0f}, median {statistics.median(many):,.0f}"
        )
        print(
            f"    target ≥ {SETTLE_TARGET:,.0f}/s: {verdict(max(many) >= SETTLE_TARGET)} with "
            f"{TABLES} tables, {verdict(max(one) >= SETTLE_TARGET)} with one table"
        )
        runs = await bench_recovery(target)
        totals = [sum(r) for r in runs]
        best = runs[totals.index(min(totals))]
        print(
            f"2.  restart recovery of {LIVE_TABLES} live tables: best {min(totals):.3f} s "
            f"(open {best[0]:.3f} + load {best[1]:.3f} + Hand.from_json {best[2]:.3f}), "
            f"median {statistics.median(totals):.3f} s"
        )
        print(f"    target < {RECOVERY_TARGET} s: {verdict(min(totals) < RECOVERY_TARGET)}")
    sys.stdout.flush()


@contextlib.contextmanager
def _pgserver(directory: Path) -> Any:
    """A throw-away PostgreSQL server (the ``pgserver`` package, default settings): its URL."""
    os.environ.setdefault("XDG_RUNTIME_DIR", str(directory))  # else platformdirs warns
    import pgserver

    server = pgserver.get_server(directory / "pg", cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (default), pgserver, or a postgresql:// URL (its user may CREATE DATABASE)",
    )
    asyncio.run(main(parser.parse_args().db))
