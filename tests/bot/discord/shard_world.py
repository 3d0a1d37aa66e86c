"""Workers running Discord shards in one test process (issue 14): each is a store on one
SQLite file, a :class:`TableService`, a :class:`Worker` and a :class:`DiscordAdapter` in
worker mode (no shard at start; the worker connects the shards whose leases it takes),
composed as :func:`bot.app.run` composes a worker, against the fake Discord."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.cluster import Worker
from bot.discord import DiscordAdapter
from bot.service import TableService
from storage.sqlite import SqliteStore
from tests.bot.discord.dc_world import World
from tests.fakes.discord_api import GUILD_ID, TOKEN, FakeDiscord, refusing_connector

__all__ = ["COUNT", "Node", "guild_on_shard", "start_node", "until"]

#: the shard count of these tests
COUNT = 2


def guild_on_shard(shard: int, count: int = COUNT) -> int:
    """A guild id (near the fake's) whose events Discord gives to ``shard`` of ``count``:
    ``(guild_id >> 22) % count == shard``."""
    base = GUILD_ID >> 22
    return ((base - base % count + shard) << 22) | (GUILD_ID & 0x3FFFFF)


@dataclass
class Node:
    """One worker process, in this process."""

    name: str
    store: SqliteStore
    service: TableService
    worker: Worker
    adapter: DiscordAdapter
    dead: bool = False

    def world(self, fake: FakeDiscord) -> World:
        """Players acting through this worker (it must run the guild's shard)."""
        return World(fake, self.service, self.adapter, self.store)

    async def pause(self) -> None:
        """The process stalls (say a long pause, or cut off from the database): it renews
        nothing and sweeps nothing, but its gateway connections stay open."""
        for task in (self.worker._loop, self.worker._sweeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def kill(self) -> None:
        """Die abruptly: no lease given up and nothing written (every table forgotten as
        is, its timer cancelled), the gateway connections dropped, the database closed."""
        self.dead = True
        await self.pause()
        for table_id in list(self.service.tables):
            await self.service.release(table_id)
        for shard in sorted(self.adapter.shards):
            await self.adapter.disconnect_shard(shard)
        await self.adapter.client.close()
        await self.store.close()

    async def stop(self) -> None:
        """A clean stop (SIGTERM); nothing for a dead node."""
        if self.dead:
            return
        self.dead = True
        await self.worker.stop()
        await self.adapter.stop()
        await self.store.close()


async def start_node(
    name: str, db: Path, shards: list[int], *, ttl: float = 1.0, count: int = COUNT
) -> Node:
    """A worker preferring ``shards`` (of ``count``) with leases of ``ttl`` seconds, started:
    it holds and runs those of its shards that were free. Call inside
    :func:`~tests.fakes.discord_api.point_discord_at`."""
    store = await SqliteStore.open(db)
    service = TableService(store, next_hand_delay=60.0)
    worker = Worker(
        service, name, f"http://127.0.0.1/{name}", ttl=ttl, discord_shards=(shards, count)
    )
    adapter = DiscordAdapter(
        service,
        TOKEN,
        connector=refusing_connector,  # one per client: each closes its own
        guild_ready_timeout=0.05,
        answer_within=2.0,
        shard_ids=[],
        shard_count=count,
        identify_interval=0.0,
    )
    adapter.claim = worker.claim_interaction
    worker.discord = adapter
    try:
        await adapter.start()
        await worker.start()
    except BaseException:
        await adapter.stop()
        await store.close()
        raise
    return Node(name, store, service, worker, adapter)


async def until(predicate: Callable[[], bool], timeout: float, what: str) -> float:
    """Wait (polling every 20 ms) until ``predicate()``; the seconds it took.

    :raises AssertionError: naming ``what`` after ``timeout`` seconds."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.02)
    return time.monotonic() - start
