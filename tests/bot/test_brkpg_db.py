"""Break-it on storage trust (brkpg) against the real stores: PostgreSQL (the session's
pgserver, tests/pg.py; skipped where it cannot start) whose connection drops after the COMMIT
of a step went out (applied, answered with an error), and SQLite whose COMMIT or ledger
write fails ("database is locked", a disk I/O error, the disk full). No kush may be lost or
doubled (R8.1–R8.4): each step is booked once or not at all, the table here agrees with
storage, the press is answered at once, the table goes on, and a restart from the database
finds the same balances + stacks (``storage.check`` clean)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import storage.postgres as postgres_module
import storage.sqlite as sqlite_module
from bot.model import Actor, Phase
from bot.screens import Payload
from bot.service import TableService
from bot.service.runtime import STORAGE_WAIT
from bot.texts import tr
from storage.api import LedgerKind, Store
from storage.check import check_store
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_brkpg_storage import (
    new_service,
    opened,
    seat_of,
    stacks_here,
    to_the_last_confirm,
)
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm
from tests.bot.tg_world import TEST_STORAGE_WAIT
from tests.pg import fresh_database


async def totals(store: Store) -> tuple[dict[str, int], dict[int, int]]:
    """Balances by user id and every open table's stacks by player id, as stored."""
    community = await store.community("telegram", "-100")
    balances = {}
    for a in (ALICE, BOB, CAROL):
        p = await store.find_player(community.id, a.user_id)
        if p is not None:
            balances[a.user_id] = p.balance
    stacks: dict[int, int] = {}
    for record in await store.open_tables(community.id):
        stacks.update(await store.stacks(record.id))
    return balances, stacks


async def booked(store: Store, kind: LedgerKind) -> dict[int, int]:
    community = await store.community("telegram", "-100")
    out: dict[int, int] = {}
    for e in await store.ledger(community.id):
        if e.kind is kind:
            out[e.player_id] = out.get(e.player_id, 0) + e.stack_delta
    return out


def button(presenter: FakePresenter, actor: Actor, action: str) -> str:
    """The data of the ``action`` button ("a": Arrange, "c": Confirm) of the actor's hand."""
    screen = presenter.last_private(actor.user_id)
    return next(
        b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == action
    )


# -- PostgreSQL: the connection drops after the COMMIT went out ------------------------------
@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


class DropAfterCommit:
    """Wraps ``storage.postgres._transact``: the next ``drops`` table transitions commit,
    then their connection is terminated and the client sees what asyncpg raises for a
    connection lost mid-operation."""

    def __init__(self, transact: Callable[..., Awaitable[Any]]) -> None:
        self.transact = transact
        self.drops = 0

    async def __call__(self, conn: Any, body: Callable[..., Awaitable[Any]], args: Any) -> Any:
        result = await self.transact(conn, body, args)
        if self.drops and body is postgres_module._commit_tx:
            self.drops -= 1
            conn.terminate()  # (the pool replaces it)
            raise asyncpg.exceptions.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation"
            )
        return result


async def test_pg_r8_2_a_ready_committed_before_the_connection_dropped_is_booked_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop = DropAfterCommit(postgres_module._transact)
    monkeypatch.setattr(postgres_module, "_transact", drop)
    clock = Clock()
    store = await PostgresStore.open(pg_url)
    try:
        service, _ = new_service(store, clock)
        t = await opened(service, (ALICE, BOB, CAROL))
        assert t is not None
        drop.drops = 1
        reply = await service.ready(GROUP, ALICE)
        assert drop.drops == 0
        assert not reply.alert, reply.text  # it was saved: not "nothing changed"
        assert not (await service.ready(GROUP, BOB)).alert
        again = await service.ready(GROUP, ALICE)
        assert again.alert and again.text == tr("en", "reply.already_ready")
        alice, bob = seat_of(t, ALICE).player_id, seat_of(t, BOB).player_id
        assert await booked(store, LedgerKind.BUY_IN) == {alice: 200, bob: 200}
        before = await totals(store)
        assert before == ({"1": 800, "2": 800, "3": 1000}, {alice: 200, bob: 200})
        assert stacks_here(t) == before[1]
        assert await check_store(store) == []
        await service.stop()
    finally:
        await store.close()
    store = await PostgresStore.open(pg_url)  # a restart from the database
    try:
        service, _ = new_service(store, clock)
        await service.start()
        t = service.table_in(GROUP)
        assert t is not None and await totals(store) == before and stacks_here(t) == before[1]
        assert await check_store(store) == []
        await service.stop()
    finally:
        await store.close()


async def test_pg_r8_4_a_settlement_committed_before_the_connection_dropped_is_booked_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop = DropAfterCommit(postgres_module._transact)
    monkeypatch.setattr(postgres_module, "_transact", drop)
    clock = Clock()
    store = await PostgresStore.open(pg_url)
    try:
        service, presenter = new_service(store, clock)
        t, by_id = await to_the_last_confirm(service, presenter)
        drop.drops = 1
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
        assert drop.drops == 0
        assert t.hand is None and t.phase is Phase.BETWEEN
        assert len(await store.export_hands(t.id)) == 1
        settled = await booked(store, LedgerKind.HAND_RESULT)
        assert sum(settled.values()) == 0 and any(settled.values())
        stacks = dict(await store.stacks(t.id))
        assert stacks == {p: 200 + settled[p] for p in stacks} and stacks_here(t) == stacks
        clock.now += 5
        await service.run_due()
        assert t.hand is not None and t.hand_no == 2  # the table goes on
        await service.rt.settled(t)
        assert len(await store.export_hands(t.id)) == 1
        assert await check_store(store) == []
        await service.stop()
    finally:
        await store.close()


# -- SQLite: the database fails inside a step ------------------------------------------------
class FailingConn:
    """The store's ``sqlite3`` connection, but ``fails`` times a statement starting with
    ``at`` raises ``error`` (SQLite's own error, as the library raises it)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.at = ""
        self.error: Exception = sqlite3.OperationalError("database is locked")
        self.fails = 0

    def execute(self, sql: str, *args: Any) -> Any:
        if self.fails and sql.lstrip().upper().startswith(self.at):
            self.fails -= 1
            raise self.error
        return self._conn.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        if self.fails and sql.lstrip().upper().startswith(self.at):
            self.fails -= 1
            raise self.error
        return self._conn.executemany(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


ERRORS = {
    "locked": sqlite3.OperationalError("database is locked"),
    "io": sqlite3.OperationalError("disk I/O error"),
    "full": sqlite3.OperationalError("database or disk is full"),
}


@pytest.mark.parametrize("at", ["COMMIT", "INSERT INTO LEDGER"], ids=["commit", "ledger"])
@pytest.mark.parametrize("error", sorted(ERRORS))
async def test_sqlite_a_failing_ready_and_settlement_change_nothing_and_the_table_goes_on(
    tmp_path: Path, at: str, error: str
) -> None:
    """Ready (a buy-in) and the Confirm that settles the hand fail in the database: each
    press is answered "nothing changed, try again" at once, nothing of it is in memory or
    in the file, and pressed again it goes through; a restart from the file finds the same
    balances and stacks."""
    clock, path = Clock(), tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    conn = FailingConn(store._raw)
    store._raw = conn  # type: ignore[assignment]
    conn.at, conn.error = at, ERRORS[error]
    try:
        service, presenter = new_service(store, clock)
        await opened(service, (ALICE, BOB))
        await service.ready(GROUP, ALICE)
        t = service.table_in(GROUP)
        assert t is not None
        seq, before = t.seq, await totals(store)
        conn.fails = 2 if at != "COMMIT" else 1  # (a ledger write is tried twice: savepoints)
        began = time.monotonic()
        reply = await service.ready(GROUP, BOB)
        assert time.monotonic() - began < 1.0
        assert reply.alert and reply.text == tr("ru", "err.storage")
        assert conn.fails == 0
        assert not seat_of(t, BOB).ready and seat_of(t, BOB).stack == 0 and t.hand is None
        assert t.seq == seq and await totals(store) == before
        assert not (await service.ready(GROUP, BOB)).alert  # again: through
        assert t.hand is not None
        by_id = {a.user_id: a for a in (ALICE, BOB)}
        for _ in range(9):
            actor = by_id[t.seats[t.hand.to_act[0]].user_id]
            await press_auto_and_confirm(service, presenter, actor)
        last = by_id[t.seats[t.hand.to_act[0]].user_id]
        assert not (await service.press(last, button(presenter, last, "a"))).alert  # Arrange
        hand, before = t.hand.dumps(), await totals(store)
        conn.fails = 2 if at != "COMMIT" else 1
        began = time.monotonic()
        reply = await service.press(last, button(presenter, last, "c"))  # the last Confirm
        assert time.monotonic() - began < 1.0
        assert reply.alert and reply.text == tr(last.language or "en", "err.storage")
        assert conn.fails == 0
        assert t.hand is not None and t.hand.dumps() == hand
        assert await totals(store) == before and await store.export_hands(t.id) == []
        reply = await service.press(last, button(presenter, last, "c"))  # the Confirm again
        if reply.alert:  # a fouled board asks first (R2.3)
            reply = await service.press(last, button(presenter, last, "c"))
        assert not reply.alert, reply.text
        assert t.hand is None and len(await store.export_hands(t.id)) == 1
        after = await totals(store)
        assert stacks_here(t) == after[1] and sum(after[1].values()) == 400
        assert await check_store(store) == []
        await service.stop()
    finally:
        await store.close()
    store = await SqliteStore.open(path)  # a restart from the file
    try:
        service, _ = new_service(store, clock)
        await service.start()
        t = service.table_in(GROUP)
        assert t is not None and await totals(store) == after and stacks_here(t) == after[1]
        assert await check_store(store) == []
        await service.stop()
    finally:
        await store.close()


@pytest.mark.parametrize("started", [True, False], ids=["write-ran", "write-skipped"])
async def test_sqlite_r8_2_a_ready_cancelled_mid_commit_then_a_restart_agrees_with_the_ledger(
    tmp_path: Path, started: bool
) -> None:
    """Alice's Ready is cancelled while its commit waits on the file (the bot stopping, say):
    once its write ran (SQLite finishes it), or before (skipped). Either way the table the
    stop saves and a restart resumes agrees with the ledger: Alice ready with 200 at the
    table and her buy-in booked once, or neither. Before: the table kept the step in
    memory when the write was skipped, and the stop saved it (Alice ready, no buy-in);
    when it ran, the stop's older snapshot replaced the committed one."""
    clock, path = Clock(), tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    try:
        service, _ = new_service(store, clock)
        t = await opened(service, (ALICE, BOB, CAROL))
        assert t is not None
        gate, ran = asyncio.Event(), asyncio.Event()
        execute = store._execute

        async def held(fn: Any, *args: Any) -> Any:
            if fn is not sqlite_module._run_batch:
                return await execute(fn, *args)
            if not started and not gate.is_set():  # a write ahead holds the queue
                await gate.wait()
                return await execute(fn, *args)
            result = await execute(fn, *args)
            if any(w.body is sqlite_module._commit_tx for w in args[1]):
                ran.set()
                await gate.wait()  # the step's batch ran: its caller is cancelled meanwhile
            return result

        store._execute = held  # type: ignore[method-assign]
        ahead = asyncio.ensure_future(store.mark_alive(clock()))
        press = asyncio.ensure_future(service.ready(GROUP, ALICE))
        for _ in range(200):
            await asyncio.sleep(0.001)
            if ran.is_set():
                break
            if any(w.body is sqlite_module._commit_tx for w in store._queue):
                break  # (queued behind the write ahead)
        assert ran.is_set() == started and not press.done()
        press.cancel()
        await asyncio.gather(press, return_exceptions=True)
        gate.set()
        await ahead
        for _ in range(20):
            await asyncio.sleep(0.001)
        store._execute = execute  # type: ignore[method-assign]
        await service.stop()
    finally:
        await store.close()
    store = await SqliteStore.open(path)  # a restart from the file
    try:
        service, _ = new_service(store, clock)
        await service.start()
        t = service.table_in(GROUP)
        assert t is not None
        alice = seat_of(t, ALICE)
        bought = await booked(store, LedgerKind.BUY_IN)
        if started:
            assert alice.ready and alice.stack == 200 and bought == {alice.player_id: 200}
        else:
            assert not alice.ready and alice.stack == 0 and bought == {}
        assert not (await service.ready(GROUP, BOB)).alert
        reply = await service.ready(GROUP, ALICE)
        if started:
            assert reply.alert and reply.text == tr("en", "reply.already_ready")
        else:
            assert not reply.alert, reply.text
        alice = seat_of(t, ALICE)
        bought = await booked(store, LedgerKind.BUY_IN)
        assert alice.stack == 200 and bought[alice.player_id] == 200 and len(bought) == 2
        assert await check_store(store) == []
        await service.stop()
    finally:
        await store.close()


# -- PostgreSQL: the network goes silent (a partition: no reset, no answer) -------------------
class SilentProxy:
    """A TCP proxy to the test server's unix socket that, once ``silent``, forwards nothing
    either way and closes nothing: a network partition, as a client sees it."""

    def __init__(self, socket_path: str) -> None:
        self.socket_path = socket_path
        self.silent = False
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_unix_connection(self.socket_path)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                while self.silent:
                    await asyncio.sleep(0.01)
                dst.write(data)
                await dst.drain()
            dst.close()

        await asyncio.gather(
            pipe(reader, up_writer), pipe(up_reader, writer), return_exceptions=True
        )

    async def stop(self) -> None:
        self.silent = False
        if self.server is not None:
            self.server.close()


@contextlib.contextmanager
def bot_bound(service: TableService) -> Iterator[None]:
    """Within: the bot's own storage wait (``STORAGE_WAIT``, 1 s), the bound under test while
    the network is silent; outside, the service made with ``TEST_STORAGE_WAIT`` waits as the
    test worlds do (the setup, and the steps once the database answers again: a fresh
    connection through the proxy took more than 1 s on two loaded cores now and then, and
    the step that must go through was refused "the database did not answer in time")."""
    service.rt.storage_wait = STORAGE_WAIT
    try:
        yield
    finally:
        service.rt.storage_wait = TEST_STORAGE_WAIT


async def silent_store(pg_url: str) -> tuple[SilentProxy, str]:
    """A proxy in front of the test database and the URL of the database through it."""
    query = dict(part.split("=", 1) for part in pg_url.split("?", 1)[1].split("&"))
    sockets = list(Path(query["host"]).glob(".s.PGSQL.*"))
    assert sockets
    proxy = SilentProxy(str(sockets[0]))
    await proxy.start()
    url = (
        f"postgresql://postgres@127.0.0.1:{proxy.port}/ofc_tests?search_path={query['search_path']}"
    )
    return proxy, url


async def test_pg_a_press_while_the_network_is_silent_is_answered_within_seconds(
    pg_url: str,
) -> None:
    """The database goes silent before a /ready (its first read waits): answered "nothing
    changed" in about a second (it waited for minutes, until the OS gave the connection up),
    nothing changed; once the database answers again the same command goes through (R8.2)."""
    proxy, url = await silent_store(pg_url)
    clock = Clock()
    store = await PostgresStore.open(url)
    try:
        service, _ = new_service(store, clock, TEST_STORAGE_WAIT)
        t = await opened(service, (ALICE, BOB))
        assert t is not None
        seq = t.seq
        proxy.silent = True
        with bot_bound(service):
            press = asyncio.ensure_future(service.ready(GROUP, ALICE))
            done, _ = await asyncio.wait([press], timeout=3.0)
            proxy.silent = False
            answered = press in done
            await asyncio.gather(press, return_exceptions=True)
        assert answered, "the press was not answered within 3 s of a silent network"
        reply = press.result()
        assert reply.alert and reply.text == tr("en", "err.storage")
        assert t.seq == seq and not seat_of(t, ALICE).ready and seat_of(t, ALICE).stack == 0
        reply = await service.ready(GROUP, ALICE)  # the database answers again: through
        assert not reply.alert, reply.text
        assert seat_of(t, ALICE).ready and seat_of(t, ALICE).stack == 200
        assert await booked(store, LedgerKind.BUY_IN) == {seat_of(t, ALICE).player_id: 200}
        assert await check_store(store) == []
        await service.stop()
    finally:
        await proxy.stop()
        await store.close()


async def test_pg_a_command_while_the_network_is_silent_fails_within_seconds(
    pg_url: str,
) -> None:
    """/balance (no table step: its first read, the community) on a silent network is
    answered "the database did not answer in time" within seconds (``err.storage_slow``;
    before, it raised and the adapter answered "something went wrong"), not after minutes;
    it works again once the database answers."""
    proxy, url = await silent_store(pg_url)
    store = await PostgresStore.open(url)
    try:
        service, _ = new_service(store, Clock(), TEST_STORAGE_WAIT)
        await service.join(GROUP, ALICE)  # (the community made)
        proxy.silent = True
        began = time.monotonic()
        with bot_bound(service):
            reply = await asyncio.wait_for(service.balance(GROUP, ALICE), 10.0)
        assert time.monotonic() - began < 3.0
        assert reply.alert and reply.text == tr("en", "err.storage_slow")
        proxy.silent = False
        reply = await service.balance(GROUP, ALICE)
        assert not reply.alert and "1,000" in reply.text
        await service.stop()
    finally:
        await proxy.stop()
        await store.close()


class SilenceAtCommit:
    """Wraps ``storage.postgres._transact``: once ``armed``, the next table transition's
    network goes silent, before its transaction sends anything (``before``: it is never
    applied) or after its statements, before its COMMIT goes out (``after``: the COMMIT
    reaches the server once the network is back, applied though the client gave up)."""

    def __init__(self, transact: Callable[..., Awaitable[Any]], proxy: SilentProxy) -> None:
        self.transact = transact
        self.proxy = proxy
        self.armed = ""

    async def __call__(self, conn: Any, body: Callable[..., Awaitable[Any]], args: Any) -> Any:
        when, proxy = self.armed, self.proxy
        if not when or body is not postgres_module._commit_tx:
            return await self.transact(conn, body, args)
        self.armed = ""
        if when == "before":
            proxy.silent = True
            return await self.transact(conn, body, args)

        async def then_silent(conn: Any, *rest: Any) -> Any:
            result = await body(conn, *rest)
            proxy.silent = True
            return result

        return await self.transact(conn, then_silent, args)


@pytest.mark.parametrize("when", ["before", "after"])
async def test_pg_r8_2_a_ready_whose_commit_meets_a_silent_network_is_answered_and_booked_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """The network goes silent while Alice's Ready commits (before its COMMIT went out, or
    after: applied, its answer never came): the press is answered "nothing changed" within
    seconds, the table here as before; the outcome was not known (never taken as not
    saved): once the database answers, the table's next step reads it back. Not saved:
    pressed again, it goes through. Saved: the table is restored from storage (Alice ready,
    her buy-in booked once) and a Ready again is "already ready" (R8.2)."""
    proxy, url = await silent_store(pg_url)
    silence = SilenceAtCommit(postgres_module._transact, proxy)
    monkeypatch.setattr(postgres_module, "_transact", silence)
    clock = Clock()
    store = await PostgresStore.open(url)
    try:
        service, _ = new_service(store, clock, TEST_STORAGE_WAIT)
        t = await opened(service, (ALICE, BOB))
        assert t is not None
        seq, before = t.seq, await totals(store)
        silence.armed = when
        began = time.monotonic()
        with bot_bound(service):
            press = asyncio.ensure_future(service.ready(GROUP, ALICE))
            done, _ = await asyncio.wait([press], timeout=3.0)
            took = time.monotonic() - began
            proxy.silent = False
            await asyncio.gather(press, return_exceptions=True)
        assert press in done, "the press was not answered within 3 s of a silent network"
        assert took < 3.0
        reply = press.result()
        assert reply.alert and reply.text == tr("en", "err.storage")
        assert t.seq == seq and not seat_of(t, ALICE).ready and seat_of(t, ALICE).stack == 0
        assert service.rt.unsure == {t.id: (seq + 1, False)}  # (unknown: read back next)
        alice = seat_of(t, ALICE).player_id
        for _ in range(100):  # the server takes the COMMIT (or the close) once it comes
            if when == "before" or await booked(store, LedgerKind.BUY_IN):
                break
            await asyncio.sleep(0.02)
        reply = await service.ready(GROUP, ALICE)
        if when == "before":
            assert not reply.alert, reply.text  # not saved: this one goes through
        else:  # saved after all: restored from storage, the press refused
            assert reply.alert and reply.text == tr("en", "err.storage")
            await service.rt.drain()
            t = service.table_in(GROUP)
            assert t is not None
            again = await service.ready(GROUP, ALICE)
            assert again.alert and again.text == tr("en", "reply.already_ready")
        assert service.rt.unsure == {}
        assert seat_of(t, ALICE).ready and seat_of(t, ALICE).stack == 200
        assert await booked(store, LedgerKind.BUY_IN) == {alice: 200}
        after = await totals(store)
        assert after == ({"1": before[0]["1"] - 200, "2": before[0]["2"]}, {alice: 200})
        assert stacks_here(t) == after[1]
        assert not (await service.ready(GROUP, BOB)).alert  # the table goes on: a hand
        assert t.hand is not None
        assert await check_store(store) == []
        await service.stop()
    finally:
        await proxy.stop()
        await store.close()


async def test_pg_r8_2_a_timer_step_meets_a_silent_network_and_frees_the_table_for_presses(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby's ready timer runs out (R8.2: Carol stood up, the hand dealt) while the
    network is silent: the timer's step holds the table for about a second, not minutes
    (it held every press there meanwhile), and changes nothing here; a press meanwhile is
    answered "nothing changed" at once; once the database answers, the timer's step is made
    (its unknown commit read back first) and the hand is dealt."""
    proxy, url = await silent_store(pg_url)
    silence = SilenceAtCommit(postgres_module._transact, proxy)
    monkeypatch.setattr(postgres_module, "_transact", silence)
    clock = Clock()
    store = await PostgresStore.open(url)
    try:
        service, _ = new_service(store, clock, TEST_STORAGE_WAIT)
        await opened(service, (ALICE, BOB, CAROL))
        for a in (ALICE, BOB):
            assert not (await service.ready(GROUP, a)).alert
        t = service.table_in(GROUP)
        assert t is not None and t.ready_deadline is not None and t.hand is None
        seq = t.seq
        clock.now = t.ready_deadline + 1
        silence.armed = "before"
        began = time.monotonic()
        with bot_bound(service):
            step = asyncio.ensure_future(service.run_due())
            done, _ = await asyncio.wait([step], timeout=3.0)
            assert step in done and time.monotonic() - began < 3.0, "the timer held the table"
            assert t.seq == seq and t.hand is None and seat_of(t, CAROL) is not None
            assert service.rt.unsure == {t.id: (seq + 1, False)}
            began = time.monotonic()
            press = asyncio.ensure_future(service.leave(GROUP, CAROL))
            done, _ = await asyncio.wait([press], timeout=3.0)
        assert press in done and time.monotonic() - began < 3.0
        reply = press.result()
        assert reply.alert and reply.text == tr("en", "err.storage")
        proxy.silent = False
        await service.run_due()  # the database answers again: the timer's step is made
        assert t.hand is not None and service.rt.unsure == {}
        assert all(s.user_id != CAROL.user_id for s in t.seats.values())
        assert await check_store(store) == []
        await service.stop()
    finally:
        await proxy.stop()
        await store.close()


# -- SQLite: another process holds the file's write lock -------------------------------------
async def test_sqlite_r8_2_a_ready_while_another_process_holds_the_lock_is_answered_in_seconds(
    tmp_path: Path,
) -> None:
    """Another process holds the database file's write lock (SQLite waits up to
    BUSY_TIMEOUT_MS, 10 s, for it): Alice's Ready is answered "nothing changed" within
    seconds, not after 10; the write may still go through once the lock is free (it had
    started), so its outcome is read back by the table's next step: either way her buy-in
    is booked once and the table agrees with the file (R8.2)."""
    clock, path = Clock(), tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        service, _ = new_service(store, clock, TEST_STORAGE_WAIT)
        t = await opened(service, (ALICE, BOB))
        assert t is not None
        seq = t.seq
        other.execute("BEGIN IMMEDIATE")  # the other process's write transaction
        began = time.monotonic()
        with bot_bound(service):
            press = asyncio.ensure_future(service.ready(GROUP, ALICE))
            done, _ = await asyncio.wait([press], timeout=3.0)
            took = time.monotonic() - began
            other.execute("ROLLBACK")
            await asyncio.gather(press, return_exceptions=True)
        assert press in done and took < 3.0, "the press waited for the lock"
        reply = press.result()
        assert reply.alert and reply.text == tr("en", "err.storage")
        assert t.seq == seq and not seat_of(t, ALICE).ready
        assert service.rt.unsure == {t.id: (seq + 1, False)}
        reply = await service.ready(GROUP, ALICE)  # read back first: saved, or free to go
        if reply.alert:  # saved after all: restored from the file
            assert reply.text == tr("en", "err.storage")
            await service.rt.drain()
            t = service.table_in(GROUP)
            assert t is not None
            again = await service.ready(GROUP, ALICE)
            assert again.alert and again.text == tr("en", "reply.already_ready")
        alice = seat_of(t, ALICE)
        assert alice.ready and alice.stack == 200 and service.rt.unsure == {}
        assert await booked(store, LedgerKind.BUY_IN) == {alice.player_id: 200}
        assert not (await service.ready(GROUP, BOB)).alert and t.hand is not None
        assert await check_store(store) == []
        await service.stop()
    finally:
        other.close()
        await store.close()
