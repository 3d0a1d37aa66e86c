"""Workers running Discord shards in one test process (issue 14): each is a store on one
SQLite file, a :class:`TableService`, a :class:`Worker` and a :class:`DiscordAdapter` in
worker mode (no shard at start; the worker connects the shards whose leases it takes),
composed as :func:`bot.app.run` composes a worker, against the fake Discord."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cluster import Worker
from bot.discord import DiscordAdapter
from bot.screens import Payload
from bot.service import TableService
from storage.sqlite import SqliteStore
from tests.bot.cluster.harness import free_port
from tests.bot.discord.dc_world import TEST_ANSWER_WITHIN, TEST_STORAGE_WAIT, World
from tests.bot.fakes import FOULED_NOTICES
from tests.fakes.discord_api import (
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    TOKEN,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
    point_discord_at,
    refusing_connector,
)

__all__ = ["COUNT", "Node", "Players", "guild_on_shard", "start_node", "two_workers", "until"]

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
        if self.worker._runner is not None:  # its internal endpoint goes with it
            await self.worker._runner.cleanup()
            self.worker._runner = None
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
    # (the world's storage wait: the bot's 1 s refused a press of these two workers, which
    # share one loop, on two loaded cores now and then: "Could not save, nothing changed")
    service = TableService(store, next_hand_delay=60.0, storage_wait=TEST_STORAGE_WAIT)
    port = free_port()  # its internal endpoint: presses other workers forward (DM hands)
    worker = Worker(
        service, name, f"http://127.0.0.1:{port}", ttl=ttl, discord_shards=(shards, count)
    )
    adapter = DiscordAdapter(
        service,
        TOKEN,
        connector=refusing_connector,  # one per client: each closes its own
        guild_ready_timeout=0.05,
        answer_within=TEST_ANSWER_WITHIN,
        shard_ids=[],
        shard_count=count,
        identify_interval=0.0,
    )
    worker.attach_discord(adapter)
    try:
        await adapter.start()
        await worker.start(("127.0.0.1", port))
    except BaseException:
        await adapter.stop()
        await store.close()
        raise
    return Node(name, store, service, worker, adapter)


@contextlib.asynccontextmanager
async def two_workers(
    db: Path, guild: int, *, ttl: float = 1.0
) -> AsyncIterator[tuple[FakeDiscord, Node, Node]]:
    """A fake Discord whose guild is ``guild`` and two workers on the SQLite file ``db``,
    ``w0`` preferring shard 0 and ``w1`` shard 1 (each runs its own), leases of ``ttl``
    seconds; stopped (the workers last first) and the fake closed on leaving."""
    fake = FakeDiscord(TOKEN, guild_id=guild)
    await fake.start()
    nodes: list[Node] = []
    try:
        with point_discord_at(fake):
            for name, shard in (("w0", 0), ("w1", 1)):
                nodes.append(await start_node(name, db, [shard], ttl=ttl))
            yield fake, nodes[0], nodes[1]
    finally:
        for node in reversed(nodes):
            await node.stop()
        await fake.stop()


async def until(predicate: Callable[[], bool], timeout: float, what: str) -> float:
    """Wait (polling every 20 ms) until ``predicate()``; the seconds it took.

    :raises AssertionError: naming ``what`` after ``timeout`` seconds."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.02)
    return time.monotonic() - start


def _custom_id(message: dict[str, Any], action: str) -> str | None:
    for c in FakeDiscord.components(message):
        p = Payload.decode(c.get("custom_id"))
        if p is not None and p.action == action and c["type"] == 2:
            return str(c["custom_id"])
    return None


class Players:
    """Users acting on the fake with nothing but what the bot sent them (the bot may run in
    other processes): the table message's buttons of a channel, "🂠 My cards" and the
    ephemeral hand it answers with."""

    def __init__(self, fake: FakeDiscord, timeout: float = 20.0) -> None:
        self.fake = fake
        self.timeout = timeout

    async def answered(self, record: FakeInteraction) -> FakeInteraction:
        """Wait until the bot acknowledged ``record``."""
        await self.fake.wait_for(lambda: record.answered, self.timeout)
        return record

    def table_text(self, channel: int = CHANNEL_ID) -> str:
        """The text of the channel's newest message with buttons (the table message)."""
        for msg in reversed(self.fake.channel_messages(channel)):
            if FakeDiscord.components(msg):
                return str(msg.get("content", ""))
        return ""

    async def lobby(
        self, user: FakeUser, action: str, channel: int = CHANNEL_ID
    ) -> FakeInteraction:
        """Press ``action`` on the channel's newest message that has it (waiting for one:
        the table message is written after the answers); the answered interaction."""

        def newest() -> tuple[dict[str, Any], str] | None:
            for msg in reversed(self.fake.channel_messages(channel)):
                cid = _custom_id(msg, action)
                if cid is not None:
                    return msg, cid
            return None

        msg, cid = await self.fake.wait_for(newest, self.timeout)
        return await self.answered(await self.fake.press(user, msg, cid))

    async def seat(self, users: tuple[FakeUser, FakeUser], channel: int = CHANNEL_ID) -> None:
        """``/ofc new``, both join (each shown before the next press: its version), both
        ``/ofc ready``: the hand is dealt."""
        record = await self.answered(await self.fake.slash(users[0], "new", channel_id=channel))
        assert record.messages and "Table #" in self.fake.messages[record.messages[-1]]["content"]
        for user in users:
            await self.lobby(user, "j", channel)
            await self.fake.wait_for(lambda u=user: u.name in self.table_text(channel), 20.0)
        for user in users:
            record = await self.answered(await self.fake.slash(user, "ready", channel_id=channel))
            assert "200" in self.fake.messages[record.messages[-1]]["content"], record

    async def street(self, user: FakeUser, channel: int = CHANNEL_ID) -> bool:
        """Open "My cards"; when it is the user's turn arrange and confirm. Whether a
        street was confirmed."""
        record = await self.lobby(user, "h", channel)
        assert record.messages, record
        hand = self.fake.messages[record.messages[-1]]
        assert hand["flags"] & EPHEMERAL
        for action in ("a", "c"):
            cid = _custom_id(hand, action)
            if cid is None:
                return False
            pressed = await self.answered(await self.fake.press(user, hand, cid))
            body = pressed.callback_body or {}
            if action == "c" and body.get("data", {}).get("content") in FOULED_NOTICES:
                # the arranged board fouls (no live placement of this street was left): the
                # Confirm asks once more, as it asks a player (R2.3), and is pressed again
                pressed = await self.answered(await self.fake.press(user, hand, cid))
            assert pressed.callback_type == 7, pressed.callback_body  # the hand edited
            hand = self.fake.messages[int(hand["id"])]
        return True
