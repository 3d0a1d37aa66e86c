"""Discord shard ranges per worker (issue 14): each worker runs discord.py's
``AutoShardedClient`` with its own ``shard_ids`` of ``shard_count``; the fake gateway, like
Discord, gives a guild's events to the one shard ``(guild_id >> 22) % shard_count`` only. The
worker that receives a channel's interaction takes the channel's lease and serves its table;
the other worker never takes it over, even when its lease is free (the guild's interactions
do not reach it), and the shard's own worker does."""

from __future__ import annotations

from pathlib import Path

from bot.cluster import Worker
from bot.discord import DiscordAdapter
from bot.model import ChatRef
from bot.service import TableService
from storage.api import lease_key
from storage.sqlite import SqliteStore
from tests.fakes.discord_api import (
    CHANNEL_ID,
    GUILD_ID,
    FakeDiscord,
    FakeUser,
    point_discord_at,
    refusing_connector,
)

TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27
KEY = lease_key("discord", str(CHANNEL_ID))


async def test_each_worker_runs_its_shards_and_serves_its_guilds_tables(tmp_path: Path) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    home = (GUILD_ID >> 22) % 2  # the shard of the fake's guild
    db = tmp_path / "ofc.sqlite3"
    parts: list[tuple[Worker, DiscordAdapter, SqliteStore]] = []
    try:
        with point_discord_at(fake):
            for name, shard in (("w-home", home), ("w-other", 1 - home)):
                store = await SqliteStore.open(db)
                service = TableService(store)
                worker = Worker(
                    service, name, f"http://127.0.0.1/{name}", ttl=5.0, discord_shards=([shard], 2)
                )
                adapter = DiscordAdapter(
                    service, TOKEN, connector=refusing_connector(), guild_ready_timeout=0.05,
                    shard_ids=[shard], shard_count=2,
                )  # fmt: skip
                adapter.claim = worker.claim_interaction
                await adapter.start(ready_timeout=10)
                await worker.start()
                parts.append((worker, adapter, store))
            assert sorted(fake.identified) == [(0, 2), (1, 2)]  # one IDENTIFY per shard
            (home_w, _, store), (other_w, _, _) = parts
            record = await fake.slash(FakeUser(21, "Bob", "en-US"), "new")
            await fake.wait_for(lambda: record.answered, timeout=10)
            chat = ChatRef("discord", str(GUILD_ID), str(CHANNEL_ID), "")
            table = home_w.service.table_in(chat)
            assert table is not None  # the home shard's worker got it and serves it
            assert other_w.service.table_in(chat) is None
            assert await store.lease_owner(KEY) == "w-home"
            # the lease is free (say the home worker stalled): the other worker never takes
            # a table of a guild it does not run; the home worker takes it back
            await store.release_lease(KEY, "w-home")
            home_w.service.rt.forget(table)
            await other_w.sweep()
            assert await store.lease_owner(KEY) is None
            await home_w.sweep()
            assert await store.lease_owner(KEY) == "w-home"
            assert home_w.service.table_in(chat) is not None
    finally:
        for worker, adapter, store in reversed(parts):
            await worker.stop()
            await adapter.stop()
            await store.close()
        await fake.stop()
