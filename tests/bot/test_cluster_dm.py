"""Discord presses on DM hands between workers (issue 14), without Discord: workers on one
in-memory store with their internal endpoints on 127.0.0.1 and a recording adapter. Discord
gives every DM interaction to shard 0's worker, which must neither take a table of another
shard's guild (its shard's worker serves its guild's presses) nor answer "out of date": it
forwards the press to the worker holding the table (the real discord.py path is
``tests/bot/discord/test_dm_forwarding.py``)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.cluster import INTERNAL_HEADER, Worker, internal_key, signed_headers
from bot.model import Actor, ChatRef
from bot.presses import ConfirmMove, encode
from bot.service import TableService
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.cluster.harness import free_port
from tests.bot.discord.shard_world import guild_on_shard
from tests.bot.fakes import FakePresenter
from tests.bot.test_cluster_shards import Runner

CHANNEL = "11"  # a channel of a guild on shard 1
CHAT = ChatRef("discord", str(guild_on_shard(1)), CHANNEL, "Poker")
KEY = lease_key("discord", CHANNEL)
TOKEN = "discord-bot-token"  # the bot token the workers share (derives the internal key)
ALICE = Actor("discord", "301", "Alice", "en")


class Presses:
    """Stands in for a worker's Discord adapter: records the forwarded presses it runs."""

    def __init__(self, notice: str) -> None:
        self.notice = notice
        self.got: list[Mapping[str, Any]] = []

    async def take_forwarded(self, press: Mapping[str, Any]) -> dict[str, Any]:
        self.got.append(press)
        return {"notice": self.notice}


async def _worker(store: MemoryStore, name: str, shards: list[int]) -> tuple[Worker, Presses]:
    """A worker preferring ``shards`` of 2, with its endpoint; it runs them once started."""
    service = TableService(store, rng=random.Random(1), timers=False)
    service.register(FakePresenter(platform="discord", link=None))
    port = free_port()
    worker = Worker(
        service, name, f"http://127.0.0.1:{port}", ttl=5.0,
        discord_shards=(shards, 2), discord=Runner(),
    )  # fmt: skip
    presses = worker.presses = Presses(f"answered by {name}")
    worker.keys["discord"] = internal_key(TOKEN, "discord")  # as attach_discord sets it
    await worker.start(("127.0.0.1", port))
    return worker, presses


def _dm(data: dict[str, Any]) -> SimpleNamespace:
    """A component interaction in a DM, as the worker reads it."""
    return SimpleNamespace(data=data, guild_id=None, channel_id=555)


async def test_r14_a_dm_press_of_another_shard_s_table_is_not_taken_by_shard_0_s_worker() -> None:
    """A DM press (a button, or a select whose options are payloads) of a table of a guild on
    shard 1 whose lease is free (a takeover under way): shard 0's worker leaves it to shard
    1's (refused, nothing taken); once it runs shard 1 itself it takes it."""
    store = MemoryStore()
    w1, _ = await _worker(store, "w1", [1])
    assert await w1.claim(KEY)
    await w1.service.new_table(CHAT, ALICE)
    t = w1.service.table_in(CHAT)
    assert t is not None
    await w1.stop()  # lets the lease go: nobody holds the table
    assert await store.lease_owner(KEY) is None
    w0, _ = await _worker(store, "w0", [0])
    try:
        assert w0.shards == {0}
        button = {"custom_id": encode(ConfirmMove(t.id, "1.0.1"))}
        select = {"custom_id": f"sel:{t.id}:1.0.1:t", "values": [button["custom_id"]]}
        for data in (button, select):
            assert not await w0.claim_interaction(_dm(data))
        assert await store.lease_owner(KEY) is None and w0.service.table_in(CHAT) is None
        assert await w0.claim_interaction(_dm({"custom_id": "x"}))  # no table: served here
        w0.shards.add(1)  # it runs shard 1 now: the table is its to serve
        assert await w0.claim_interaction(_dm(button))
        assert await store.lease_owner(KEY) == "w0" and w0.service.table_in(CHAT) is not None
    finally:
        await w0.stop()


async def test_r14_a_forwarded_dm_press_reaches_the_holder_only() -> None:
    """w0 forwards a press of w1's table to w1, which runs it (its answer comes back); w0's
    own endpoint refuses it (409 naming w1, which holds the table); a malformed body is a
    400; once w1's endpoint is gone (its lease still runs) nobody takes the press."""
    store = MemoryStore()
    w0, p0 = await _worker(store, "w0", [0])
    w1, p1 = await _worker(store, "w1", [1])
    try:
        assert await w1.claim(KEY)
        await w1.service.new_table(CHAT, ALICE)
        t = w1.service.table_in(CHAT)
        assert t is not None
        press = {"user": "301", "datas": [encode(ConfirmMove(t.id, "1.0.1"))]}
        assert await w0.forward_press(t.id, press) == {"notice": "answered by w1"}
        assert p1.got == [press] and p0.got == []
        async with aiohttp.ClientSession() as http:
            body = json.dumps({"table": t.id, "press": press})
            headers = {"Content-Type": "application/json"}
            other = internal_key("other-token", "discord")
            for forged in (
                {},
                {INTERNAL_HEADER: internal_key(TOKEN, "discord")},  # (the key unsigned)
                signed_headers(other, w1.address, body.encode()),
            ):
                # reaching the endpoint is not enough: without the bot's key nothing runs
                hdrs = {**headers, **forged}
                async with http.post(f"{w1.address}/discord", data=body, headers=hdrs) as r:
                    assert r.status == 403
                async with http.post(f"{w1.address}/telegram", data="{}", headers=hdrs) as r:
                    assert r.status == 403  # the router's route too
            assert len(p1.got) == 1
            key = internal_key(TOKEN, "discord")
            signed = signed_headers(key, w0.address, body.encode())
            async with http.post(f"{w0.address}/discord", data=body, headers=signed) as r:
                assert r.status == 409 and await r.json() == {"owner": w1.address}
            for bad in ("[]", '{"table": "x", "press": {}}', '{"table": 1, "press": []}'):
                signed = signed_headers(key, w1.address, bad.encode())
                async with http.post(f"{w1.address}/discord", data=bad, headers=signed) as r:
                    assert r.status == 400
        assert p0.got == [] and len(p1.got) == 1
        assert await w0.forward_press(t.id + 1000, press) is None  # no such table
        assert w1._runner is not None
        await w1._runner.cleanup()  # w1's process is gone; its lease has not expired yet
        w1._runner = None
        assert await store.lease_owner(KEY) == "w1"
        assert await w0.forward_press(t.id, press) is None
        assert len(p1.got) == 1
    finally:
        await w1.stop()
        await w0.stop()
