"""Failover benchmark of a Discord shard (issue 14): a worker dies, its shard and every table
of that shard's guild move to the other worker.
Run: ``python bench/bench_shard_failover.py`` (about a minute; ``--help`` for the knobs).

On 127.0.0.1 only: two worker processes (the real composition root,
``tests/bot/cluster/worker_child.py``) on one SQLite file (``--postgres``: a PostgreSQL server
from pgserver), w0 preferring shard 0 and w1 shard 1 of 2, and in this process the fake
Discord, whose one guild is on shard 1 with ``--tables`` channels. Each channel gets a table
with two players, seated and ready: a hand dealt in every one, all served by w1.

Measured: "🂠 My cards" presses (interaction sent → its callback at the fake) on every table
before; then w1 is killed with SIGKILL and the script reports when w0 IDENTIFYd shard 1 and
when w0 held the lease of every table's channel (seconds after the kill), then the same
presses again, on w0; then the ledger check (``storage.check``). For comparison, README's
Telegram row: a worker SIGKILLed at 400 tables, lease 3 s: its 105 tables held by live
workers after 4.0 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import _repo  # noqa: F401  (puts the repository on sys.path)
from _machine import describe

from bot.cluster import shard_key
from storage.api import Store, lease_key
from storage.check import check_store
from storage.sqlite import SqliteStore
from tests.bot.cluster.harness import DISCORD_TOKEN, discord_workers
from tests.bot.discord.shard_world import Players, guild_on_shard
from tests.fakes.discord_api import CHANNEL_ID, FakeDiscord, FakeUser


@asynccontextmanager
async def _database(postgres: bool, workdir: Path) -> AsyncIterator[tuple[Store, dict[str, str]]]:
    if not postgres:
        db = workdir / "ofc.sqlite3"
        store = await SqliteStore.open(db)
        try:
            yield store, {"DATABASE_PATH": str(db)}
        finally:
            await store.close()
        return
    from storage.postgres import PostgresStore
    from tests.pg import fresh_database

    async with fresh_database() as url:
        pg = await PostgresStore.open(url)
        try:
            yield pg, {"DATABASE_URL": url}
        finally:
            await pg.close()


async def _my_cards(p: Players, pairs: list[tuple[FakeUser, int]]) -> list[float]:
    """One "My cards" press per table, 20 at a time; latencies in ms."""
    gate = asyncio.Semaphore(20)

    async def one(user: FakeUser, channel: int) -> float:
        async with gate:
            record = await p.lobby(user, "h", channel)
            assert record.callback_at is not None
            return (record.callback_at - record.sent_at) * 1000

    return list(await asyncio.gather(*(one(u, c) for u, c in pairs)))


def _summary(ms: list[float]) -> str:
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
    return f"{len(ms)} presses: p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {max(ms):.1f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables on shard 1 (100)")
    parser.add_argument("--lease", type=float, default=3.0, help="LEASE_SECONDS (3)")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL (pgserver)")
    args = parser.parse_args()
    print(f"machine: {describe()}")
    channels = [CHANNEL_ID + i for i in range(args.tables)]
    fake = FakeDiscord(DISCORD_TOKEN, guild_id=guild_on_shard(1), channels=tuple(channels))
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        async with _database(args.postgres, workdir) as (store, db_env):
            workers = discord_workers(
                fake.port, db_env, workdir, ["0", "1"], shard_count=2, lease_seconds=args.lease
            )
            try:
                for w in workers:
                    await w.start()
                want = {shard_key(0): "w0", shard_key(1): "w1"}
                while await store.leases("discord-shard:") != want:
                    assert all(w.alive for w in workers), "a worker did not start"
                    await asyncio.sleep(0.1)
                p = Players(fake, timeout=60.0)
                users = [
                    (FakeUser(6000 + 2 * i, f"A{i}"), FakeUser(6001 + 2 * i, f"B{i}"))
                    for i in range(args.tables)
                ]
                gate = asyncio.Semaphore(10)

                async def seat(pair: tuple[FakeUser, FakeUser], channel: int) -> None:
                    async with gate:
                        await p.seat(pair, channel)

                started = time.monotonic()
                await asyncio.gather(*(seat(u, c) for u, c in zip(users, channels, strict=True)))
                print(
                    f"{args.tables} tables on shard 1, a hand dealt in each, served by w1 "
                    f"({time.monotonic() - started:.1f} s to set up); lease {args.lease} s, "
                    f"{'PostgreSQL' if args.postgres else 'SQLite'}"
                )
                keys = {lease_key("discord", str(c)) for c in channels}
                held = await store.leases("discord:")
                assert all(held.get(k) == "w1" for k in keys), held
                pairs = [(u[0], c) for u, c in zip(users, channels, strict=True)]
                print(f"before, on w1: {_summary(await _my_cards(p, pairs))}")

                identified = len(fake.identified)
                workers[1].kill()
                killed = time.monotonic()
                identify_at: float | None = None
                while True:
                    now = time.monotonic()
                    if identify_at is None and (1, 2) in fake.identified[identified:]:
                        identify_at = now - killed
                    held = await store.leases("discord:")
                    if all(held.get(k) == "w0" for k in keys):
                        break
                    assert now - killed < 120, "the tables did not move within 120 s"
                    await asyncio.sleep(0.05)
                moved = time.monotonic() - killed
                print(
                    f"after SIGKILL of w1: shard 1 IDENTIFYd by w0 after {identify_at or 0:.2f} s;"
                    f" all {args.tables} tables held by w0 after {moved:.2f} s"
                )
                print(f"after, on w0: {_summary(await _my_cards(p, pairs))}")
                problems = await check_store(store)
                print(f"ledger check: {problems or 'clean'}")
            finally:
                for w in workers:
                    with contextlib.suppress(Exception):
                        await w.stop()
    await fake.stop()


if __name__ == "__main__":
    asyncio.run(main())
