"""A group's settings reach every table of the group with several workers (issue 14). A
settings change is passed on to the tables of the worker that handled the command
(:func:`bot.service.settings.settings_changed`), which is enough because a community's
tables all live on one worker (one that saved a change without them, as its command was
handled when they had moved, tells their worker: tests/bot/test_fix40f.py): a Telegram
group has one chat, so one lease; a Discord guild's channels are served by the worker
running the guild's shard, the only one its interactions reach, and no other worker takes
one of them (nor a DM press of one). A worker that dies between saving the settings and
passing them on: the worker taking its tables over gives them the settings they missed
(:func:`bot.service.settings.reconcile`)."""

from __future__ import annotations

import random
from types import SimpleNamespace

from bot.cluster import Worker
from bot.model import Actor, ChatRef
from bot.service import TableService
from bot.service.settings import updated
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.discord.shard_world import guild_on_shard
from tests.bot.fakes import FakePresenter
from tests.bot.test_cluster_closing import View
from tests.bot.test_cluster_shards import Runner

TTL = 5.0
GUILD = str(guild_on_shard(1))
CHANNELS = ("11", "12")
ADMIN = Actor("discord", "301", "Alice", "en")


def _chat(channel: str) -> ChatRef:
    return ChatRef("discord", GUILD, channel, "Poker")


def _interaction(channel: str) -> SimpleNamespace:
    """A slash command in a channel of the guild, as the worker reads it."""
    return SimpleNamespace(data={}, guild_id=int(GUILD), channel_id=int(channel))


async def _worker(db: MemoryStore, name: str, shards: list[int]) -> Worker:
    service = TableService(
        View(db),  # type: ignore[arg-type]
        rng=random.Random(1),
        timers=False,
    )
    service.register(FakePresenter(platform="discord", link=None))
    worker = Worker(
        service, name, f"http://127.0.0.1/{name}", ttl=TTL,
        discord_shards=(shards, 2), discord=Runner(),
    )  # fmt: skip
    await worker.start()
    return worker


async def test_r14_a_guild_s_settings_reach_its_tables_on_every_channel_and_after_a_takeover() -> (
    None
):
    db, leases = MemoryStore(), Clock()
    db.clock = leases
    w1 = await _worker(db, "w1", [1])  # runs the guild's shard
    w0 = await _worker(db, "w0", [0])
    try:
        assert w1.shards == {1} and w0.shards == {0}
        for channel in CHANNELS:  # the guild's interactions reach w1 only
            assert await w1.claim_interaction(_interaction(channel))
            await w1.service.new_table(_chat(channel), ADMIN)
        tables = [w1.service.table_in(_chat(c)) for c in CHANNELS]
        assert all(t is not None for t in tables)
        for channel in CHANNELS:  # no other worker takes a channel of the guild
            assert not await w0.claim_interaction(_interaction(channel))
            assert await db.lease_owner(lease_key("discord", channel)) == "w1"
        # /settings in a third channel of the guild, on w1: every table of the guild takes it
        reply = await w1.service.settings(_chat("13"), ADMIN, True, ["min_buy_in", "300"])
        assert not reply.alert
        assert [t.min_buy_in for t in tables if t is not None] == [300, 300]

        # w1 saves the next change and dies before passing it on to its tables
        community = await db.community("discord", GUILD)
        await db.update_settings(community.id, updated(community.settings, "min_buy_in", "400"))
        await w1.halt()
        leases.now += TTL + 1
        w0._started -= TTL  # it has run for a lease time: it may take a shard it does not prefer
        await w0.tick()  # takes shard 1 (the guild's)
        await w0.tick()  # and its tables, which take the settings they missed
        assert w0.shards == {0, 1}
        for channel in CHANNELS:
            t = w0.service.table_in(_chat(channel))
            assert t is not None and t.min_buy_in == 400
    finally:
        await w0.stop()
