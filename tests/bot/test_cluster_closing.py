"""A closed table's last messages with several workers (issue 14, issue 10: "messages go out
after the commit and are safe to send again"). A closing step (an admin's close, a
tournament's payout, the idle close) keeps what it owes the chat with the closed table's final
snapshot. When its worker dies right after the commit, another worker sends it, over the table
message the group has, once: the worker serving the chat (taking its lease first). While the
closing worker is still sending, it keeps the chat's lease, so no other worker sends it too."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import bot.cluster
from bot.cluster import STEADY_LEASES, Worker, rendezvous
from bot.screens import Screen
from bot.service import TableService
from bot.texts import tr
from storage.api import Move, Store, lease_key
from storage.memory import MemoryStore
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_closing_restart import DiesAfterClosing, RefPresenter
from tests.bot.test_service import ALICE, GROUP
from tests.bot.test_transitions import Killed
from tests.pg import fresh_database

KEY = lease_key("telegram", GROUP.chat_id)
TTL = 5.0


class View:
    """One worker's connection to the shared in-memory database: each call runs under that
    worker's fence (a :class:`MemoryStore` call never yields, so the fence holds for it)."""

    def __init__(self, db: MemoryStore) -> None:
        self.db = db
        self.worker: str | None = None

    def fence(self, worker: str | None) -> None:
        self.worker = worker

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.db, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.db.fence(self.worker)
            return await attr(*args, **kwargs)

        return call


def _worker(
    db: MemoryStore | Store, name: str, presenter: FakePresenter, clock: Clock, ttl: float = TTL
) -> tuple[Worker, TableService]:
    """A worker on ``db``: a :class:`View` of a shared memory store, or its own store."""
    service = TableService(
        View(db) if isinstance(db, MemoryStore) else db,  # type: ignore[arg-type]
        clock=clock,
        rng=random.Random(5),
        timers=False,
    )
    service.register(presenter)
    return Worker(service, name, f"http://127.0.0.1/{name}", ttl=ttl), service


async def _lobby(worker: Worker, service: TableService) -> int:
    """A table in the group's chat, served by ``worker``, Alice seated: its id."""
    assert await worker.claim(KEY)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.group_ref is not None
    return t.id


async def test_r14_a_worker_dying_after_a_closing_commit_its_notice_is_sent_by_another_once() -> (
    None
):
    db, clock, leases = DiesAfterClosing(), Clock(), Clock()
    db.clock = leases
    p1 = FakePresenter()
    w1, s1 = _worker(db, "w1", p1, clock)
    await w1.start()
    table_id = await _lobby(w1, s1)
    old_ref = s1.tables[table_id].group_ref
    with pytest.raises(Killed):  # the close is committed, then the worker dies
        await s1.close_table(GROUP, ALICE, True)
    await w1.halt()  # its loops end with it; its leases and heartbeat run out
    db.dead = False
    notice = tr("en", "reply.table_closed", table=table_id)
    assert notice not in [s.text for s in p1.tables[GROUP.chat_id]]
    assert [r.id for r, _ in await db.closed_snapshots()] == [table_id]  # owed

    leases.now += TTL + 1
    p2 = RefPresenter()
    w2, s2 = _worker(db, "w2", p2, clock)
    p3 = RefPresenter()
    w3, s3 = _worker(db, "w3", p3, clock)
    await w2.start()
    await w3.start()
    try:
        for _ in range(3):
            await w2.tick()
            await w3.tick()
        sent = [(p, [s.text for s in p.tables.get(GROUP.chat_id, [])]) for p in (p2, p3)]
        # one of the live workers sent the notice, over the table message the group has
        assert sorted(len(texts) for _, texts in sent) == [0, 1]
        p, texts = next((p, texts) for p, texts in sent if texts)
        assert texts == [notice] and p.refs == [old_ref]
        assert not p.last_table(GROUP.chat_id).all_buttons()
        assert p2.posts == p3.posts == []
        assert await db.closed_snapshots() == []  # nothing owed any more
        assert s2.table_in(GROUP) is None and s3.table_in(GROUP) is None
    finally:
        await w2.stop()
        await w3.stop()
    w4, _ = _worker(db, "w4", p4 := FakePresenter(), clock)  # a later worker: nothing
    await w4.start()
    await w4.tick()
    await w4.stop()
    assert p4.tables == {} and p4.posts == []


class FailingPresenter(RefPresenter):
    """Its first ``failures`` table message writes fail (the platform refuses, a network
    error); it counts the attempts."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.attempts = 0

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        self.attempts += 1
        if self.attempts <= self.failures:
            raise RuntimeError("Bad Gateway")
        return await super().show_table(chat_id, screen, ref)


class Monotonic:
    """``time.monotonic`` of :mod:`bot.cluster`, moved on only by the test."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


async def test_r14_owed_messages_whose_sending_failed_are_tried_again_later_not_every_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db, clock, leases = DiesAfterClosing(), Clock(), Clock()
    db.clock = leases
    w1, s1 = _worker(db, "w1", FakePresenter(), clock)
    await w1.start()
    table_id = await _lobby(w1, s1)
    with pytest.raises(Killed):
        await s1.close_table(GROUP, ALICE, True)
    await w1.halt()
    db.dead = False
    leases.now += TTL + 1
    # a failed sending is tried again after ten lease times, then twenty: the worker's
    # monotonic clock moves only when the test moves it (it slept real seconds, 0.9 s to spare
    # between the checks, which a loaded machine could use up: a third try came too early)
    ttl = 0.1
    monotonic = Monotonic()
    monkeypatch.setattr(bot.cluster, "time", SimpleNamespace(monotonic=monotonic))
    p2 = FailingPresenter(failures=2)
    w2, _ = _worker(db, "w2", p2, clock, ttl=ttl)
    await w2.start()  # the first try fails: still owed
    try:
        assert p2.attempts == 1 and await db.closed_snapshots() != []
        for _ in range(5):
            await w2.tick()
        assert p2.attempts == 1  # not at every sweep
        monotonic.now += STEADY_LEASES * ttl * 1.1
        await w2.tick()
        assert p2.attempts == 2  # again after ten lease times; it fails again
        monotonic.now += STEADY_LEASES * ttl * 1.1
        await w2.tick()
        assert p2.attempts == 2  # the next wait is twice as long
        monotonic.now += STEADY_LEASES * ttl * 1.1
        await w2.tick()
        notice = tr("en", "reply.table_closed", table=table_id)
        assert p2.attempts == 3 and [s.text for s in p2.tables[GROUP.chat_id]] == [notice]
        assert await db.closed_snapshots() == []
        await w2.tick()
        assert p2.attempts == 3
    finally:
        await w2.stop()


class HeldPresenter(FakePresenter):
    """Holds every write of a table message whose text ``held`` matches until ``go`` is
    set: a platform making the worker wait (a 429) while it sends a closing notice."""

    def __init__(self, held: Callable[[str], bool]) -> None:
        super().__init__()
        self.held = held
        self.go = asyncio.Event()
        self.waiting = asyncio.Event()

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        if self.held(screen.text):
            self.waiting.set()
            await self.go.wait()
        return await super().show_table(chat_id, screen, ref)


async def test_r14_the_closing_worker_keeps_the_chat_while_it_sends_so_nobody_sends_twice() -> None:
    db, clock, leases = MemoryStore(), Clock(), Clock()
    db.clock = leases
    p1 = HeldPresenter(lambda text: "closed" in text)
    w1, s1 = _worker(db, "w1", p1, clock)
    # the other worker is the one rendezvous hashing gives the chat to when nobody holds it
    other = next(n for n in ("w2", "w3", "w4", "w5") if rendezvous(KEY, {"w1": "", n: ""}) == n)
    p2 = FakePresenter()
    w2, _ = _worker(db, other, p2, clock)
    await w1.start()
    await w2.start()
    try:
        table_id = await _lobby(w1, s1)
        t = s1.tables[table_id]
        closing = asyncio.create_task(s1.close_table(GROUP, ALICE, True))
        await asyncio.wait_for(p1.waiting.wait(), 30)  # committed; the notice is on its way
        assert [r.id for r, _ in await db.closed_snapshots()] == [table_id]
        w1._claimed.clear()  # no update of the chat for two lease times
        for _ in range(4):  # the sending takes more than two lease times
            leases.now += TTL / 2
            await w1.tick()
            await w2.tick()
        assert p2.tables == {} and p2.posts == []  # w2 never sent it
        assert await db.lease_owner(KEY) == "w1"
        p1.go.set()
        await closing
        await s1.rt.settled(t)
        notice = tr("en", "reply.table_closed", table=table_id)
        assert p1.last_table(GROUP.chat_id).text == notice
        assert await db.closed_snapshots() == []  # forgotten: w1 still held the chat
        for _ in range(3):
            leases.now += TTL
            await w2.tick()
        assert p2.tables == {} and p2.posts == []
    finally:
        p1.go.set()
        await w1.stop()
        await w2.stop()


class DyingPostgres(PostgresStore):
    """A worker's connection to PostgreSQL whose process dies right after its first closing
    commit (written), before anything of that step is sent."""

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        result = await super().commit(table_id, moves, snapshot, key=key, close=close)
        if close:
            raise Killed
        return result


class DyingSqlite(SqliteStore):
    """The same on the SQLite file several workers on one machine share."""

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        result = await super().commit(table_id, moves, snapshot, key=key, close=close)
        if close:
            raise Killed
        return result


@contextlib.asynccontextmanager
async def _connections(kind: str, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two workers' connections to one database: the first dies after its closing commit."""
    if kind == "sqlite":
        path = tmp_path / "ofc.sqlite3"
        dying: Store = await DyingSqlite.open(path)
        other: Store = await SqliteStore.open(path)
        try:
            yield dying, other
        finally:
            await dying.close()
            await other.close()
        return
    async with fresh_database() as url:
        dying = await DyingPostgres.open(url)
        other = await PostgresStore.open(url)
        try:
            yield dying, other
        finally:
            await dying.close()
            await other.close()


@pytest.mark.parametrize("kind", ["postgresql", "sqlite"])
async def test_r14_on_a_database_the_notice_a_dead_worker_owed_is_sent_by_the_next_once(
    kind: str, tmp_path: Path
) -> None:
    """The same on PostgreSQL and on one SQLite file, each worker with its own connection
    (its own fence): the final snapshot is forgotten under the lease the sending worker
    took."""
    clock, leases = Clock(), Clock()
    async with _connections(kind, tmp_path) as (db1, db2):
        db1.clock = db2.clock = leases  # type: ignore[attr-defined]
        p1, p2 = FakePresenter(), RefPresenter()
        w1, s1 = _worker(db1, "w1", p1, clock)
        w2, _ = _worker(db2, "w2", p2, clock)
        try:
            await w1.start()
            table_id = await _lobby(w1, s1)
            old_ref = s1.tables[table_id].group_ref
            with pytest.raises(Killed):
                await s1.close_table(GROUP, ALICE, True)
            await w1.halt()
            assert [r.id for r, _ in await db2.closed_snapshots()] == [table_id]
            await w2.start()  # w1's lease is live: not w2's to send
            assert p2.tables == {}
            leases.now += TTL + 1
            for _ in range(3):
                await w2.tick()
            notice = tr("en", "reply.table_closed", table=table_id)
            assert [s.text for s in p2.tables[GROUP.chat_id]] == [notice]
            assert p2.refs == [old_ref]
            assert await db2.closed_snapshots() == []
            assert await db2.lease_owner(KEY) == "w2"
        finally:
            await w2.stop()


async def test_r14_a_table_taken_over_that_cannot_be_restored_is_refunded_the_group_told_once() -> (
    None
):
    """A worker takes over a table whose snapshot it cannot use (one that does not even name
    its platform): every stack is refunded and the group is told, once, by that worker."""
    db, clock, leases = MemoryStore(), Clock(), Clock()
    db.clock = leases
    w1, s1 = _worker(db, "w1", FakePresenter(), clock)
    await w1.start()
    table_id = await _lobby(w1, s1)
    assert await db.stacks(table_id) != {}
    await w1.halt()
    db.fence("w1")
    await db.save_snapshot(table_id, {"id": table_id, "seq": 999, "seats": "unreadable"})
    leases.now += TTL + 1
    p2 = FakePresenter()
    w2, s2 = _worker(db, "w2", p2, clock)
    await w2.start()
    try:
        await w2.tick()
        notice = tr("en", "reply.hand_cancelled", table=table_id)
        assert p2.posts == [(GROUP.chat_id, notice)] and p2.tables == {}
        assert s2.table_in(GROUP) is None and await db.stacks(table_id) == {}
        community = await db.community("telegram", GROUP.chat_id)
        alice = await db.find_player(community.id, ALICE.user_id)
        assert alice is not None and alice.balance == 1000
        assert await db.closed_snapshots() == []
    finally:
        await w2.stop()
    p3 = FakePresenter()
    w3, _ = _worker(db, "w3", p3, clock)
    await w3.start()
    await w3.tick()
    await w3.stop()
    assert p3.posts == [] and p3.tables == {}
