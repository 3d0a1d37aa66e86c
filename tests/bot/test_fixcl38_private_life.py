"""fixcl38: what a Telegram private update says of the user's private chat reaches every worker
serving a table they sit at (issue 14). Under fix38b a private chat that refused the bot is
not written to again until the player shows life there (a command, a press, an unblock), but
the router sends a private update to one worker (the one serving the user's first table), so
a table of theirs on another worker stayed quiet, their hand never posted there again until
they used that table's ``/start t<table>`` link. Worker 1 runs the real python-telegram-bot
adapter against the fake Bot API; worker 2, on the same database, serves a table in another
group whose presenter says what it was asked to write."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from aiohttp import ClientSession

from bot.cluster import INTERNAL_HEADER, Worker, internal_key, signed_headers
from bot.model import Actor, ChatRef, LiveTable
from bot.service import TableService
from bot.telegram.fake_api import FakeTelegram
from storage.api import lease_key
from storage.sqlite import SqliteStore
from tests.bot.cluster.harness import free_port
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import dealt_at
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TEST_STORAGE_WAIT, TOKEN, World, world
from tests.waiting import until

#: a lease time two loaded cores renew in time (tests/bot/test_fixtake2_private_hands.py)
TTL = 3.0
OTHER = ChatRef("telegram", "-200", "-200", "Others")
BOB_ID = str(BOB.id)


@dataclass
class QuietPresenter(FakePresenter):
    """Telegram's rule: a private chat that refused the bot is left alone until the player
    shows life (:func:`bot.service.runtime.quiet_until_seen`)."""

    quiet_until_seen: bool = True


@dataclass
class Cluster2:
    w: World
    w1: Worker
    w2: Worker
    service2: TableService
    presenter2: QuietPresenter
    t2: LiveTable


@asynccontextmanager
async def two_workers(tmp_path: Path) -> AsyncIterator[Cluster2]:
    """Worker 2 deals Alice and Bob a hand in ``OTHER``; Bob's private chat refuses it (he
    blocked the bot: no update told of it). Worker 1 serves ``GROUP_ID`` and gets the
    updates of the fake Bot API (as the router sends Bob's private ones to it: his first
    table's worker)."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    store2 = await SqliteStore.open(db)
    service2 = TableService(
        store2,
        rng=random.Random(3),
        next_hand_delay=0.0,
        timers=False,
        storage_wait=TEST_STORAGE_WAIT,
    )
    presenter2 = QuietPresenter(blocked={BOB_ID})
    service2.register(presenter2)
    port1, port2 = free_port(), free_port()
    # (worker 2 needs only the token of the adapter it would be fed by: its keys)
    token_only: Any = SimpleNamespace(app=SimpleNamespace(bot=SimpleNamespace(token=TOKEN)))
    w2 = Worker(service2, "w2", f"http://127.0.0.1:{port2}", ttl=TTL, telegram=token_only)
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w2.start(listen=("127.0.0.1", port2))
            assert await w2.claim(lease_key("telegram", OTHER.chat_id))
            actors = tuple(Actor("telegram", str(u.id), u.first_name, "en") for u in (ALICE, BOB))
            t2 = await dealt_at(service2, OTHER, actors)
            await service2.rt.drain()
            bob = t2.seat_of(BOB_ID)
            assert bob is not None and not bob.reachable and bob.private_ref is None
            assert BOB_ID not in presenter2.privates
            w1 = Worker(w.service, "w1", f"http://127.0.0.1:{port1}", ttl=TTL, telegram=w.adapter)
            await w1.start(listen=("127.0.0.1", port1))
            try:
                assert await w1.claim(lease_key("telegram", str(GROUP_ID)))
                assert t2.id not in w.service.tables  # (still worker 2's)
                yield Cluster2(w, w1, w2, service2, presenter2, t2)
            finally:
                await w1.stop()
    finally:
        await w2.stop()
        await store2.close()
        await fake.stop()


async def test_r14_a_command_in_private_brings_the_hand_back_on_the_other_worker(
    tmp_path: Path,
) -> None:
    """Bob unblocks the bot (the update lost) and types /help in his private chat, which
    worker 1 gets: worker 2 posts his hand at its table again (it stayed quiet), and the
    table takes him as reachable. A command soon after is not told again (every press in
    private is one; a chat refused again meanwhile was blocked again, which Telegram tells);
    Telegram's news is, and changes nothing for a player reachable there."""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        await c.w.say(BOB, "/help", chat_id=BOB.id)
        await until(lambda: c.presenter2.privates.get(BOB_ID), 15.0, "Bob's hand on worker 2")
        await c.service2.rt.drain()
        bob = c.t2.seat_of(BOB_ID)
        assert bob is not None and bob.reachable and bob.private_ref is not None
        (hand,) = c.presenter2.privates[BOB_ID]
        assert f"#{c.t2.id}" in hand.text, hand.text
        assert c.w1._life_told.keys() == {BOB_ID}
        told = c.w1._life_told[BOB_ID]
        await until(lambda: not c.w1._telling, what="the telling done")
        # a command or press soon after is told no more (each press in private is one)...
        c.w1.private_life(BOB_ID, False, False)
        assert c.w1._life_told[BOB_ID] == told and not c.w1._telling
        # ...Telegram's news always
        c.w1.private_life(BOB_ID, False, True)
        assert c.w1._life_told[BOB_ID] > told and c.w1._telling
        await until(lambda: not c.w1._telling, what="the telling done")
        assert len(c.presenter2.privates[BOB_ID]) == 1  # (he was reachable there: no post)


async def test_r14_a_block_telegram_tells_reaches_the_other_worker(tmp_path: Path) -> None:
    """Bob, back at worker 2's table (his press there), blocks the bot: Telegram tells worker 1
    (``my_chat_member``), and worker 2 marks him unreachable at once, no write tried; his
    unblock, told the same way, posts his hand there again."""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        await c.service2.player_seen("telegram", BOB_ID)  # (as a press on its hand)
        await c.service2.rt.drain()
        bob = c.t2.seat_of(BOB_ID)
        assert bob is not None and bob.reachable
        assert len(c.presenter2.privates[BOB_ID]) == 1
        await c.w.fake.block_bot(BOB)
        await until(lambda: not bob.reachable, 15.0, "Bob unreachable on worker 2")
        assert len(c.presenter2.privates[BOB_ID]) == 1  # (found out without a write)
        await c.w.fake.block_bot(BOB, blocked=False)
        await until(lambda: len(c.presenter2.privates.get(BOB_ID, [])) == 2, 15.0, "reposted")
        await c.service2.rt.drain()
        assert bob.reachable


async def test_r14_the_private_endpoint_wants_the_key(tmp_path: Path) -> None:
    """``POST /private`` without the internal key is refused (anyone reaching the endpoint
    would post a hand, or silence a player); a malformed body changes nothing. (fix39b: the
    key alone, unsigned, is refused too: :func:`bot.cluster.signed_headers`.)"""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        url = f"{c.w2.address}/private"
        body = json.dumps({"user": BOB_ID, "blocked": False}).encode()
        key = internal_key(TOKEN, "private")
        async with ClientSession() as http:
            for headers in ({}, {INTERNAL_HEADER: "x"}, {INTERNAL_HEADER: key}):
                async with http.post(url, data=body, headers=headers) as r:
                    assert r.status == 403
            bad = json.dumps({"user": int(BOB_ID), "blocked": False}).encode()
            signed = signed_headers(key, c.w2.address, bad)
            async with http.post(url, data=bad, headers=signed) as r:
                assert r.status == 400
            assert BOB_ID not in c.presenter2.privates
            signed = signed_headers(key, c.w2.address, body)
            async with http.post(url, data=body, headers=signed) as r:
                assert r.status == 200
        await c.service2.rt.drain()
        assert len(c.presenter2.privates[BOB_ID]) == 1


async def test_r14_a_worker_down_does_not_keep_the_others_from_being_told(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """brk64: Bob sits at a third table too, whose worker (``w0``, still live in the
    database: its lease not yet expired) is down, its address sorted before worker 2's. The
    telling went to the addresses one after another inside one ``try``, so the refused
    connection to ``w0`` ended it and worker 2 was never told: Bob's hand there stayed
    unposted (operations.md: the worker "tells the live workers holding the user's other
    tables"). Each worker is told on its own, a failure logged."""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        dead = f"http://127.0.0.0:{free_port()}"  # (sorted before 127.0.0.1)
        assert dead < c.w2.address
        store = c.w1.store
        live, seated, owner = store.live_workers, store.seated_tables, store.lease_owner
        third = 999_999
        c.w1._chats[third] = "-999"

        async def live_workers() -> dict[str, str]:
            return {**(await live()), "w0": dead}

        async def seated_tables(platform: str, user: str) -> list[int]:
            return [*(await seated(platform, user)), third]

        async def lease_owner(key: str) -> str | None:
            return "w0" if key == lease_key("telegram", "-999") else await owner(key)

        monkeypatch.setattr(store, "live_workers", live_workers)
        monkeypatch.setattr(store, "seated_tables", seated_tables)
        monkeypatch.setattr(store, "lease_owner", lease_owner)
        # (the dead worker's table is looked at again for one lease time, not three: the
        # telling, waited for whole, is done sooner; worker 2's is told at the first look)
        monkeypatch.setattr(c.w1, "LIFE_WAIT_LEASES", 1.0)
        c.w1.private_life(BOB_ID, False, True)
        await until(lambda: not c.w1._telling, 15.0, "the telling done")
        await c.service2.rt.drain()
        assert len(c.presenter2.privates.get(BOB_ID, [])) == 1  # worker 2 told all the same
        bob = c.t2.seat_of(BOB_ID)
        assert bob is not None and bob.reachable


async def test_r14_a_block_and_the_unblock_after_it_arrive_in_their_order(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """brk64: Bob blocks the bot and unblocks it at once; Telegram tells worker 1 both, in
    that order. Each was told in a task of its own, so a slower lookup for the block (the
    database busy a moment) let the unblock reach worker 2 first, which found him reachable
    and did nothing, then the block marked him unreachable: his hand there stayed unposted
    though his chat takes it (his next command in private told no more for 30 s). A user's
    news is told in the order heard."""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        await c.service2.player_seen("telegram", BOB_ID)  # (as a press on its hand)
        await c.service2.rt.drain()
        bob = c.t2.seat_of(BOB_ID)
        assert bob is not None and bob.reachable
        store = c.w1.store
        seated = store.seated_tables
        calls = 0

        async def seated_tables(platform: str, user: str) -> list[int]:
            nonlocal calls
            calls += 1
            if calls == 1:  # (the block's lookup slow)
                await asyncio.sleep(0.5)
            return list(await seated(platform, user))

        monkeypatch.setattr(store, "seated_tables", seated_tables)
        c.w1.private_life(BOB_ID, True, True)  # blocked
        c.w1.private_life(BOB_ID, False, True)  # unblocked
        await until(lambda: not c.w1._telling, 15.0, "the telling done")
        await c.service2.rt.drain()
        assert bob.reachable
        assert len(c.presenter2.privates[BOB_ID]) == 2  # (posted again after the block)
