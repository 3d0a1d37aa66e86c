"""Discord shard ranges per worker (issue 14): each worker holds the leases of the shards it
runs and connects each with discord.py's ``AutoShardedClient`` (``shard_ids`` of
``shard_count``); the fake gateway, like Discord, gives a guild's events to the one shard
``(guild_id >> 22) % shard_count`` only. The worker that receives a channel's interaction
takes the channel's lease and serves its table; the other worker never takes it over, even
when the table's lease is free (the guild's interactions do not reach it), and the shard's
own worker does. (Shards moving when a worker dies: ``test_shard_failover.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cluster import shard_key
from bot.discord import DiscordAdapter
from bot.model import ChatRef
from bot.service import TableService
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.discord.shard_world import Node, start_node
from tests.fakes.discord_api import (
    CHANNEL_ID,
    GUILD_ID,
    TOKEN,
    FakeDiscord,
    FakeUser,
    point_discord_at,
    refusing_connector,
)

KEY = lease_key("discord", str(CHANNEL_ID))


async def test_each_worker_runs_its_shards_and_serves_its_guilds_tables(tmp_path: Path) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    home = (GUILD_ID >> 22) % 2  # the shard of the fake's guild
    parts: list[Node] = []
    try:
        with point_discord_at(fake):
            for name, shard in (("w-home", home), ("w-other", 1 - home)):
                parts.append(await start_node(name, tmp_path / "ofc.sqlite3", [shard], ttl=5.0))
            assert sorted(fake.identified) == [(0, 2), (1, 2)]  # one IDENTIFY per shard
            home_w, other_w = (p.worker for p in parts)
            store = parts[0].store
            assert home_w.shards == {home} and other_w.shards == {1 - home}
            assert await store.lease_owner(shard_key(home)) == "w-home"
            record = await fake.slash(FakeUser(21, "Bob", "en-US"), "new")
            await fake.wait_for(lambda: record.answered)
            chat = ChatRef("discord", str(GUILD_ID), str(CHANNEL_ID), "")
            table = home_w.service.table_in(chat)
            assert table is not None  # the home shard's worker got it and serves it
            assert other_w.service.table_in(chat) is None
            assert await store.lease_owner(KEY) == "w-home"
            # the lease is free (say the home worker stalled): the other worker never takes
            # a table of a guild it does not run, nor the shard a live worker holds; the home
            # worker takes the table back
            await store.release_lease(KEY, "w-home")
            home_w.service.rt.forget(table)
            await other_w.sweep()
            assert await store.lease_owner(KEY) is None
            assert other_w.shards == {1 - home}
            await home_w.sweep()
            assert await store.lease_owner(KEY) == "w-home"
            assert home_w.service.table_in(chat) is not None
    finally:
        for part in reversed(parts):
            await part.stop()
        await fake.stop()


async def test_the_adapter_connects_and_disconnects_shards_one_by_one() -> None:
    """The adapter's shard control (what a worker calls): a shard of the main
    ``AutoShardedClient`` is disconnected and connected again through discord.py's
    ``ShardInfo``; another shard gets a client of its own; connecting a running shard does
    nothing; a shard outside the count is refused."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    try:
        with point_discord_at(fake):
            adapter = DiscordAdapter(
                TableService(MemoryStore()), TOKEN, connector=refusing_connector,
                guild_ready_timeout=0.05, shard_ids=[0], shard_count=3, identify_interval=0.0,
            )  # fmt: skip
            await adapter.start(ready_timeout=30)
            try:
                assert adapter.shards == {0} and fake.connections == [(0, 3)]
                await adapter.connect_shard(2)
                await adapter.connect_shard(2)  # running: nothing
                assert adapter.shards == {0, 2} and fake.connections == [(0, 3), (2, 3)]
                await adapter.disconnect_shard(0)
                await fake.wait_for(lambda: fake.connections == [(2, 3)])
                assert adapter.shards == {2}
                await adapter.connect_shard(0)
                await fake.wait_for(lambda: fake.connections == [(0, 3), (2, 3)])
                assert adapter.shards == {0, 2}
                await adapter.disconnect_shard(2)
                await fake.wait_for(lambda: fake.connections == [(0, 3)])
                assert fake.identified == [(0, 3), (2, 3), (0, 3)]
                with pytest.raises(ValueError):
                    await adapter.connect_shard(3)
            finally:
                await adapter.stop()
            assert fake.connections == []
    finally:
        await fake.stop()
