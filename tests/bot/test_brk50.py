"""Attacks on fixpg (brk50): the PostgreSQL lock's retake and the new ``DATABASE_PATH``
handling. A retake refused by a holder that was gone by the time the bot looked who it was
(the server's keepalives ending the bot's own lost session, a start that failed) stopped the
bot, "another bot holds it now", with the lock free; ``DATABASE_PATH`` set with spaces around
it in the environment was used as written by the bot (``~`` not expanded, a file named
`` ofc.sqlite3``) while ``python -m storage`` stripped it and read another file; a release
(SIGTERM) that came as a ping was answered or a retake took the lock had its cancellation
dropped by Python 3.11's ``asyncio.wait_for``, and waited on the watch for ever. PostgreSQL is
the session's pgserver (tests/pg.py; those tests skip where it cannot start)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import bot.dblock as dblock
from bot.config import load_settings
from bot.dblock import PG_DATABASE_CLASS, PG_WORKER_CLASS, PostgresLock, pg_key
from storage.__main__ import _bot_database
from tests.pg import fresh_database


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


async def holders(url: str, first: int, *names: str) -> list[int]:
    """The server pids holding the two-key advisory lock ``(first, pg_key(schema, *names))``."""
    conn = await asyncpg.connect(url)
    try:
        schema = await conn.fetchval("SELECT current_schema()")
        rows = await conn.fetch(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND classid = $1 AND objid = $2 AND objsubid = 2 ORDER BY pid",
            first,
            pg_key(schema, *names),
        )
        return [int(row["pid"]) for row in rows]
    finally:
        await conn.close()


def gone_before_named(lock: PostgresLock, other: Any, first: int, *names: str) -> list[str]:
    """Make ``lock``'s next look at who refused it come just after ``other`` (a connection)
    let the lock ``(first, pg_key(schema, *names))`` go: the holder gone between the refused
    try and the look. Returns the list the refusals looked at are noted in."""
    looked: list[str] = []
    original = lock._holder

    async def holder(conn: Any, a: int, b: int, what: str) -> str:
        if not looked:
            schema = str(await other.fetchval("SELECT current_schema()"))
            assert await other.fetchval(
                "SELECT pg_advisory_unlock($1, $2)", first, pg_key(schema, *names)
            )
        looked.append(what)
        return await original(conn, a, b, what)

    lock._holder = holder  # type: ignore[method-assign]
    return looked


async def test_a_retake_refused_by_a_holder_gone_before_it_is_named_takes_the_lock(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock's connection is terminated and another session holds the lock at the retake's
    try, but lets it go before the retake looks who holds it: the bot takes the lock on its
    next try and goes on (it stopped: ``on_taken("database")``, the lock free)."""
    monkeypatch.setattr(dblock, "PG_RETRY_SECONDS", 0.05)
    lock = await PostgresLock.take(pg_url)
    taken: list[str] = []
    other = await asyncpg.connect(pg_url)
    try:
        looked = gone_before_named(lock, other, PG_DATABASE_CLASS)
        held = asyncio.Event()
        retake = lock._connect_and_take

        async def once_held() -> str:  # (the other session first, whatever the load)
            await held.wait()
            return await retake()

        monkeypatch.setattr(lock, "_connect_and_take", once_held)
        lock.watch(taken.append)
        pid = lock.pid
        schema = str(await other.fetchval("SELECT current_schema()"))
        await other.execute(  # terminated, then held (waited for in the same statement)
            "SELECT pg_terminate_backend($1), pg_advisory_lock($2, $3)",
            pid,
            PG_DATABASE_CLASS,
            pg_key(schema),
        )
        held.set()
        for _ in range(600):
            now = await holders(pg_url, PG_DATABASE_CLASS)
            if taken or (now and now != [pid] and now == [lock.pid]):
                break
            await asyncio.sleep(0.05)
        assert looked == ["database"]  # (refused once, by the holder that went)
        assert taken == []
        assert await holders(pg_url, PG_DATABASE_CLASS) == [lock.pid]
    finally:
        await lock.release()
        await other.close()
    assert await holders(pg_url, PG_DATABASE_CLASS) == []


async def test_a_start_refused_by_a_worker_gone_before_it_is_named_takes_the_lock(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker ``w1`` starting as the last one of that name stops: refused at its try, the
    other gone before it is named. The start tries again and takes it (it was refused as a
    worker beside a plain bot, "database", once the look found nobody)."""
    other = await asyncpg.connect(pg_url)
    try:
        schema = str(await other.fetchval("SELECT current_schema()"))
        await other.execute(
            "SELECT pg_advisory_lock($1, $2)", PG_WORKER_CLASS, pg_key(schema, "w1")
        )
        looked: list[list[str]] = []
        made = PostgresLock.__init__

        def init(self: PostgresLock, url: str, worker_id: str | None) -> None:
            made(self, url, worker_id)
            looked.append(gone_before_named(self, other, PG_WORKER_CLASS, "w1"))

        monkeypatch.setattr(PostgresLock, "__init__", init)
        lock = await PostgresLock.take(pg_url, "w1")
        try:
            assert looked == [["worker"]]
            assert await holders(pg_url, PG_WORKER_CLASS, "w1") == [lock.pid]
        finally:
            await lock.release()
    finally:
        await other.close()


def test_database_path_with_spaces_is_the_file_storage_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DATABASE_PATH`` from the environment with spaces around it (an env file read as
    written: docker's ``--env-file``, systemd's ``Environment=``): the bot took it as written
    (`` ~/ofc/ofc.sqlite3 `` a folder `` ~``, `` ofc.sqlite3`` a file named so) while
    ``python -m storage check`` and ``backup`` strip it: they read another file."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    env_file = str(tmp_path / "none.env")
    for value, path in (
        (" ~/ofc/ofc.sqlite3 ", str(tmp_path / "home" / "ofc" / "ofc.sqlite3")),
        (" ofc.sqlite3", "ofc.sqlite3"),
    ):
        monkeypatch.setenv("DATABASE_PATH", value)
        settings = load_settings(env_file, tokens=False)
        assert settings.database_path == path
        assert _bot_database(env_file) == path


async def test_a_release_that_comes_as_the_lock_is_taken_again_ends_the_watch(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM (:meth:`PostgresLock.release`) just as a retake has taken the lock: Python
    3.11's ``asyncio.wait_for`` returns the retake's result and drops the watch's
    cancellation when both come in one turn of the loop; the watch went on watching the new
    connection, and ``release`` waited on it for ever (the bot never stopped)."""
    lock = await PostgresLock.take(pg_url)
    retake = lock._connect_and_take
    released: list[asyncio.Task[None]] = []

    async def taken_as_released() -> str:
        state = await retake()
        # the release's cancel runs before the retake's done-callbacks wake wait_for
        asyncio.get_running_loop().call_soon(
            lambda: released.append(asyncio.ensure_future(lock.release()))
        )
        return state

    monkeypatch.setattr(lock, "_connect_and_take", taken_as_released)
    try:
        lock.watch(lambda what: None)
        admin = await asyncpg.connect(pg_url)
        try:
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", lock.pid)
        finally:
            await admin.close()
        for _ in range(600):
            if released:
                break
            await asyncio.sleep(0.05)
        assert released
        await asyncio.wait_for(asyncio.shield(released[0]), 5)
        assert await holders(pg_url, PG_DATABASE_CLASS) == []
    finally:
        await lock.release()


async def test_a_release_that_comes_as_a_ping_is_answered_ends_the_watch(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same at a ping: the release's cancellation dropped as the ping's answer came, the
    watch pinged on and ``release`` waited on it for ever."""
    monkeypatch.setattr(dblock, "PG_PING_SECONDS", 0.05)
    lock = await PostgresLock.take(pg_url)
    released: list[asyncio.Task[None]] = []
    cls = type(lock._conn)
    fetchval = cls.fetchval

    async def answered_as_released(self: Any, query: str, *args: Any, **kw: Any) -> Any:
        value = await fetchval(self, query, *args, **kw)
        if query == "SELECT 1" and not released:
            asyncio.get_running_loop().call_soon(
                lambda: released.append(asyncio.ensure_future(lock.release()))
            )
        return value

    monkeypatch.setattr(cls, "fetchval", answered_as_released)
    try:
        lock.watch(lambda what: None)
        for _ in range(600):
            if released:
                break
            await asyncio.sleep(0.05)
        assert released
        await asyncio.wait_for(asyncio.shield(released[0]), 5)
        assert await holders(pg_url, PG_DATABASE_CLASS) == []
    finally:
        await lock.release()


class _SilentConnection:
    """A lock connection on a silent network: its clean close never ends."""

    def __init__(self) -> None:
        self.terminated = 0

    async def close(self) -> None:
        await asyncio.Event().wait()

    def is_closed(self) -> bool:
        return self.terminated > 0

    def terminate(self) -> None:
        self.terminated += 1


async def test_a_release_on_a_silent_network_cuts_the_connection_soon(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """brk50's find: a SIGTERM with the lock connection silent waited PG_PING_TIMEOUT (10 s,
    a ``docker stop``'s whole grace) on its clean close. The release waits PG_CLOSE_TIMEOUT,
    then cuts the socket (the session, and its locks, end as the server reads it); a second
    release meanwhile has nothing to close (it raised ``AttributeError``)."""
    monkeypatch.setattr(dblock, "PG_PING_TIMEOUT", 3600.0)  # (what the close waited before)
    monkeypatch.setattr(dblock, "PG_CLOSE_TIMEOUT", 0.05)
    lock = PostgresLock("postgresql://unused", None)
    conn = _SilentConnection()
    lock._conn = conn
    await asyncio.wait_for(asyncio.gather(lock.release(), lock.release()), 30)
    assert conn.terminated == 1
    assert lock.pid is None
