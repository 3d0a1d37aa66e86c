"""fix42: a Telegram chat is given by rendezvous hashing only among the live workers that
take Telegram updates (issue 14, :func:`bot.cluster.telegram_workers`). A Discord-only
worker says so (lease ``telegram-none:<worker>``); the orphan sweep, the router and the
hand-back hashed a Telegram chat over every live worker, so a chat whose pick was a
Discord-only worker was taken over by no sweep, and the router forwarded its updates to
that worker, which refused them (it has no Telegram key) until Telegram gave them up. In
one process on a shared in-memory database, no HTTP."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from bot.cluster import Router, Worker, rendezvous, telegram_workers
from bot.service import TableService
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_closing_restart import DiesAfterClosing
from tests.bot.test_cluster import ROUTER_TOKEN
from tests.bot.test_cluster_closing import KEY, TTL, View, _lobby, _worker
from tests.bot.test_cluster_shards import Runner
from tests.bot.test_service import ALICE, GROUP
from tests.bot.test_transitions import Killed

_NAMES = [f"w{i}" for i in range(40)]


def _names() -> tuple[str, str, str, str]:
    """``(creator, telegram, discord, second telegram)`` worker names: the group's chat's
    rendezvous pick among the last three is the Discord-only one, among the two Telegram
    ones the second (so over the first Telegram one and the Discord one, the Discord one)."""
    for maker, tg, dc, tg2 in itertools.permutations(_NAMES, 4):
        every = {tg: "", dc: "", tg2: ""}
        if rendezvous(KEY, every) == dc and rendezvous(KEY, {tg: "", tg2: ""}) == tg2:
            return maker, tg, dc, tg2
    raise AssertionError("no such names")


MAKER, TG, DC, TG2 = _names()


async def _discord_only(db: MemoryStore, name: str, clock: Clock) -> Worker:
    """A started worker running Discord only (no Telegram presenter, shards of its own)."""
    service = TableService(View(db), clock=clock, rng=random.Random(5), timers=False)  # type: ignore[arg-type]
    worker = Worker(
        service, name, f"http://127.0.0.1/{name}", ttl=TTL,
        discord_shards=([], 1), discord=Runner(),
    )  # fmt: skip
    await worker.start()
    return worker


async def _orphan(db: MemoryStore, clock: Clock) -> int:
    """The group's table, made by a worker that stopped since (its lease given up): its id."""
    maker, service = _worker(db, MAKER, FakePresenter(), clock)
    await maker.start()
    assert await maker.claim(KEY)
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None
    await maker.stop()
    assert await db.lease_owner(KEY) is None
    return t.id


async def test_fix42_a_telegram_orphan_picked_for_a_discord_worker_goes_to_a_telegram_one() -> None:
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    table_id = await _orphan(db, clock)
    tg, _ = _worker(db, TG, FakePresenter(), clock)
    dc = await _discord_only(db, DC, clock)
    await tg.start()
    try:
        assert set(await db.live_workers()) == {TG, DC}
        assert rendezvous(KEY, await db.live_workers()) == DC  # (over every worker: Discord's)
        # the router, no worker holding the chat, forwards its update to the Telegram worker
        router = Router(db, ROUTER_TOKEN, "http://127.0.0.1:1/bot")
        assert await router.target(KEY, fresh=True) == tg.address
        await dc.sweep()
        assert await db.lease_owner(KEY) in (None, TG)  # never the Discord-only worker
        await tg.sweep()
        assert await db.lease_owner(KEY) == TG
        taken = tg.service.table_in(GROUP)
        assert taken is not None and taken.id == table_id
        assert [s.user_id for s in taken.seats.values()] == [ALICE.user_id]
        assert dc.service.table_in(GROUP) is None
        assert await db.leases("telegram-") == {  # (what each said of itself)
            f"telegram-worker:{TG}": TG,
            f"telegram-none:{DC}": DC,
        }
    finally:
        await tg.stop()
        await dc.stop()


async def test_fix42_a_table_is_handed_back_to_its_telegram_pick_not_the_discord_one() -> None:
    """Of three live workers the chat's pick over all is the Discord-only one; over the two
    Telegram ones, the other: the table goes there, read from the leases (no HTTP probe:
    no worker listens here)."""
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    old, service = _worker(db, TG, FakePresenter(), clock)
    await old.start()
    assert await old.claim(KEY)
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    dc = await _discord_only(db, DC, clock)
    pick, _ = _worker(db, TG2, FakePresenter(), clock)
    await pick.start()
    try:
        now = time.monotonic()
        old._seen_live = {TG: now - 100.0, DC: now - 100.0, TG2: now - 100.0}
        old._claimed[KEY] = now - 100.0  # (the chat quiet for long)
        assert await old.rebalance() == 1
        assert old.service.table_in(GROUP) is None
        await dc.sweep()
        await pick.sweep()
        assert await db.lease_owner(KEY) == TG2
        assert pick.service.table_in(GROUP) is not None
    finally:
        await pick.stop()
        await dc.stop()
        await old.stop()


async def test_fix42_what_a_closed_table_owes_is_sent_by_the_telegram_worker() -> None:
    """The worker that closed the table died before sending its closing notice; of the two
    live workers the chat's pick over all is the Discord-only one: the Telegram one sends
    it (:meth:`Worker.sweep_owed`), once."""
    db, clock, leases = DiesAfterClosing(), Clock(), Clock()
    db.clock = leases
    maker, s1 = _worker(db, MAKER, FakePresenter(), clock)
    await maker.start()
    table_id = await _lobby(maker, s1)
    with pytest.raises(Killed):  # the close is committed, then the worker dies
        await s1.close_table(GROUP, ALICE, True)
    await maker.halt()
    db.dead = False
    leases.now += TTL + 1  # (its leases and heartbeat ran out)
    tg, _ = _worker(db, TG, p := FakePresenter(), clock)
    dc = await _discord_only(db, DC, clock)
    await tg.start()
    try:
        for _ in range(2):
            await dc.tick()
            await tg.tick()
        notice = tr("en", "reply.table_closed", table=table_id)
        assert [s.text for s in p.tables.get(GROUP.chat_id, [])] == [notice]
        assert await db.closed_snapshots() == []  # nothing owed any more
    finally:
        await tg.stop()
        await dc.stop()


async def test_fix42_a_worker_advertising_nothing_takes_both_as_before() -> None:
    """A worker of the release before the advertisements (no ``telegram-`` lease) is given
    Telegram chats as before; only one saying it takes none is left out."""
    live = {"old": "http://old", "tg": "http://tg", "dc": "http://dc"}
    ads = {"telegram-worker:tg": "tg", "telegram-none:dc": "dc", "telegram-none:old": "dc"}
    assert telegram_workers(live, ads) == {"old": "http://old", "tg": "http://tg"}
    assert telegram_workers(live, {}) == live


async def test_rev44_no_table_is_handed_back_to_a_worker_that_is_stopping() -> None:
    """A worker stopping (a rolling restart) still heartbeats while it saves its own tables;
    its ``telegram-worker:`` advertisement was held until the end of its stop, so another
    worker's :meth:`Worker.rebalance` handed it a table meanwhile: let go there, taken by
    nobody (the stopping worker sweeps no more; the one that handed it back refuses it for
    a few lease times), its chat's updates refused. Now a stopping worker says at once that
    it takes no Telegram updates: nothing is handed to it, the table stays served."""
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    old, service = _worker(db, TG, FakePresenter(), clock)
    await old.start()
    assert await old.claim(KEY)
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    pick, pick_service = _worker(db, TG2, FakePresenter(), clock)
    await pick.start()
    handed: list[int] = []
    saving = pick_service.stop

    async def stop_service() -> None:  # (while the stopping worker saves its tables)
        now = time.monotonic()
        old._seen_live = {TG: now - 100.0, TG2: now - 100.0}
        old._claimed[KEY] = now - 100.0  # (the chat quiet for long)
        assert set(await db.live_workers()) == {TG, TG2}  # (it still heartbeats)
        handed.append(await old.rebalance())
        await saving()

    pick_service.stop = stop_service  # type: ignore[method-assign]
    try:
        assert rendezvous(KEY, {TG: "", TG2: ""}) == TG2
        await pick.stop()
        assert handed == [0]
        assert old.service.table_in(GROUP) is not None
        assert await db.lease_owner(KEY) == TG
        assert await db.leases("telegram-") == {f"telegram-worker:{TG}": TG}
    finally:
        await old.stop()
    assert await db.leases("telegram-") == {}
