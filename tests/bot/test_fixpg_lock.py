"""One bot per PostgreSQL database (fixpg): on SQLite a second plain ``python -m bot`` is
refused by an ``flock`` (tests/bot/test_fixlock.py), but on PostgreSQL (``DATABASE_URL``) two
plain bots both restored and served the same tables: messages twice, each refusing the
other's steps. The bot now holds a session advisory lock on a connection of its own
(:class:`bot.dblock.PostgresLock`): exclusive for a plain bot, shared for workers beside an
exclusive one per ``WORKER_ID``; taken again when its connection drops, and the bot stops
in one line when another process took it meanwhile. PostgreSQL is the session's pgserver
(tests/pg.py; these tests skip where it cannot start)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg
import pytest
from pydantic import SecretStr

import bot.dblock as dblock
from bot.app import DatabaseTaken, database_name, run
from bot.config import ConfigError, Settings
from bot.dblock import PG_DATABASE_CLASS, PostgresBusy, PostgresLock, pg_key
from bot.telegram.fake_api import FakeTelegram
from tests.bot.cluster.harness import free_port
from tests.bot.test_config import base_env
from tests.bot.test_fixlock import (
    TOKEN,
    running,
    second_process_refused_then_killed_one_frees,
    telegram,
)
from tests.pg import fresh_database

__all__ = ["telegram"]  # (the fixture, imported)


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


def settings_for(telegram: FakeTelegram, url: str, worker: str | None = None) -> Settings:
    """A bot (a worker with ``worker``) on the PostgreSQL database ``url``."""
    return Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        database_url=SecretStr(url),
        worker_id=worker,
        worker_listen=f"127.0.0.1:{free_port()}",
        _env_file=None,  # type: ignore[call-arg]
    )


def busy(settings: Settings) -> str:
    """The line a plain bot is refused with."""
    return (
        f"another bot (or a worker) is running on the database {database_name(settings)}: stop "
        "it first, or give this one its own database (several processes on one database are "
        "workers, each with its own WORKER_ID: docs/operations.md)"
    )


async def holders(url: str) -> list[int]:
    """The server pids holding the bot's lock on ``url``'s schema (any mode)."""
    conn = await asyncpg.connect(url)
    try:
        schema = await conn.fetchval("SELECT current_schema()")
        rows = await conn.fetch(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND classid = $1 AND objid = $2 AND objsubid = 2 ORDER BY pid",
            PG_DATABASE_CLASS,
            pg_key(schema),
        )
        return [int(row["pid"]) for row in rows]
    finally:
        await conn.close()


async def until_held_by_another_than(url: str, pid: int) -> int:
    """Wait for one holder of the lock, not ``pid``; its pid."""
    for _ in range(600):
        now = await holders(url)
        if len(now) == 1 and now[0] != pid:
            return now[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"the lock was not taken again: {await holders(url)}")


async def until(done: Callable[[], bool]) -> bool:
    """Whether ``done()`` holds within 30 s, looked at every 50 ms: the client's side of what
    the server already shows comes a moment later (a lock the server granted before the
    retake keeps its connection and logs it; a session the server ended before its client
    reads the end of its socket and calls the connection's termination listeners)."""
    for _ in range(600):
        if done():
            return True
        await asyncio.sleep(0.05)
    return done()


async def test_a_second_bot_on_postgresql_is_refused_until_the_first_stops(
    pg_url: str, telegram: FakeTelegram
) -> None:
    first = settings_for(telegram, pg_url)
    async with running(first):
        asked = len(telegram.calls_of("getMe"))
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(settings_for(telegram, pg_url), asyncio.Event()), 30)
        assert str(caught.value) == busy(first)
        assert len(telegram.calls_of("getMe")) == asked  # refused before the Bot API
        assert len(await holders(pg_url)) == 1  # the refused one left nothing held
    assert await holders(pg_url) == []  # the first stopped: let go
    async with running(settings_for(telegram, pg_url)):
        pass


async def test_another_schema_of_the_database_is_another_bots(
    pg_url: str, telegram: FakeTelegram
) -> None:
    """The lock is the schema's the tables are in (``search_path``), not the whole
    database's: bots on other schemas serve other tables."""
    async with (
        fresh_database() as other,
        running(settings_for(telegram, pg_url)),
        running(settings_for(telegram, other)),
    ):
        pass


async def test_workers_share_postgresql_but_not_with_a_bot_or_their_own_worker_id(
    pg_url: str, telegram: FakeTelegram
) -> None:
    async with (
        running(settings_for(telegram, pg_url, "w1")),
        running(settings_for(telegram, pg_url, "w2")),
    ):
        plain = settings_for(telegram, pg_url)
        with pytest.raises(ConfigError) as caught:  # a plain bot among them
            await asyncio.wait_for(run(plain, asyncio.Event()), 30)
        assert str(caught.value) == busy(plain)
        again = settings_for(telegram, pg_url, "w1")
        with pytest.raises(ConfigError) as caught:  # a worker w1 again
            await asyncio.wait_for(run(again, asyncio.Event()), 30)
        assert str(caught.value) == (
            f"another worker with WORKER_ID=w1 is running on the database "
            f"{database_name(again)}: give each worker its own WORKER_ID"
        )
    async with running(settings_for(telegram, pg_url)):  # the workers stopped: a plain bot
        w3 = settings_for(telegram, pg_url, "w3")
        with pytest.raises(ConfigError) as caught:  # and a worker is refused beside it
            await asyncio.wait_for(run(w3, asyncio.Event()), 30)
        assert str(caught.value) == (
            f"a bot without WORKER_ID is running on the database {database_name(w3)}: workers "
            "share a database only with workers; stop it first"
        )
    async with running(settings_for(telegram, pg_url, "w1")):  # and w1 once more, alone
        pass


async def test_a_second_bot_process_on_postgresql_exits_2_and_a_killed_one_lets_go(
    tmp_path: Path, pg_url: str, telegram: FakeTelegram
) -> None:
    """``python -m bot`` twice on one ``DATABASE_URL``: the second prints one line and exits
    2; the first, killed (SIGKILL), leaves the database to the next start (its session ends
    with its connection)."""
    settings = settings_for(telegram, pg_url)
    env = {
        **base_env(),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_BASE_URL": telegram.base_url,
        "DATABASE_URL": pg_url,
        "DATABASE_PATH": str(tmp_path / "ofc.sqlite3"),
    }

    await second_process_refused_then_killed_one_frees(tmp_path, env, busy(settings))
    assert not (tmp_path / "ofc.sqlite3").exists()


async def test_a_terminated_lock_connection_is_taken_again_and_the_bot_goes_on(
    pg_url: str, telegram: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.dblock")
    async with running(settings_for(telegram, pg_url)) as task:
        (pid,) = await holders(pg_url)
        admin = await asyncpg.connect(pg_url)
        try:
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        finally:
            await admin.close()
        again = await until_held_by_another_than(pg_url, pid)
        held_again = "the PostgreSQL lock is held again"
        # (granted on the server a moment before the retake, its keepalives read, logs it)
        assert await until(lambda: held_again in [r.getMessage() for r in caplog.records])
        assert not task.done()
        second = settings_for(telegram, pg_url)
        with pytest.raises(ConfigError) as caught:  # held again: still refused
            await asyncio.wait_for(run(second, asyncio.Event()), 30)
        assert str(caught.value) == busy(second)
        assert await holders(pg_url) == [again] and not task.done()
    messages = [r.getMessage() for r in caplog.records if r.name == "bot.dblock"]
    assert held_again in messages


async def test_a_bot_whose_lock_another_took_meanwhile_stops_in_one_line(
    pg_url: str, telegram: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    """The lock's connection is terminated and, before the bot has reconnected, another
    session takes the lock: the bot stops (it went on serving unlocked beside the other)
    with one line, and ``run`` raises :class:`DatabaseTaken` (``python -m bot``: status 2)."""
    settings = settings_for(telegram, pg_url)
    with pytest.raises(DatabaseTaken) as caught:
        async with running(settings) as task:
            (pid,) = await holders(pg_url)
            other = await asyncpg.connect(pg_url)
            try:
                schema = str(await other.fetchval("SELECT current_schema()"))
                # terminated, then waited for in one statement: ours before any retake
                await other.execute(
                    "SELECT pg_terminate_backend($1), pg_advisory_lock($2, $3)",
                    pid,
                    PG_DATABASE_CLASS,
                    pg_key(schema),
                )
                await asyncio.wait_for(task, 30)
            finally:
                await other.close()
    line = (
        f"lost the lock on the database {database_name(settings)} (its connection dropped) and "
        "another bot holds it now: this bot stops (one bot per database, or workers each with "
        "its own WORKER_ID: docs/operations.md)"
    )
    assert str(caught.value) == line
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [line]


async def test_a_lock_taken_after_sigterm_is_a_plain_stop(
    pg_url: str,
    telegram: FakeTelegram,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """fixtok: SIGTERM first, then the lock lost and taken by another process while the bot
    shuts down: ``run`` returns (``python -m bot``: status 0), as a Telegram token taken after
    SIGTERM does (``_TokenTaken``); it raised :class:`DatabaseTaken` (status 2)."""
    import bot.telegram.adapter as adapter_module

    watched: list[Callable[[str], None]] = []
    plain_watch = PostgresLock.watch
    plain_stop = adapter_module.TelegramAdapter.stop

    def watch(self: PostgresLock, on_taken: Callable[[str], None]) -> None:
        watched.append(on_taken)
        plain_watch(self, on_taken)

    async def stop_as_the_lock_is_taken(self: adapter_module.TelegramAdapter) -> None:
        (on_taken,) = watched  # the watch's call once another holds the lock, in the shutdown
        on_taken("database")
        await plain_stop(self)

    monkeypatch.setattr(PostgresLock, "watch", watch)
    monkeypatch.setattr(adapter_module.TelegramAdapter, "stop", stop_as_the_lock_is_taken)
    async with running(settings_for(telegram, pg_url)):
        pass  # (running's end: stop set, as SIGTERM does, and run awaited: nothing raised)
    assert watched
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_session_of_its_own_the_server_still_holds_is_ended_not_taken_for_another(
    pg_url: str,
) -> None:
    """A lock connection silently cut leaves its session on the server (until the server's
    keepalives end it), holding the lock: the retake knows it by its ``application_name``,
    terminates it and takes the lock on the next try; a lock of another process is refused."""
    first = await PostgresLock.take(pg_url)
    try:
        with pytest.raises(PostgresBusy) as caught:
            await PostgresLock.take(pg_url)
        assert caught.value.what == "database"
        again = PostgresLock(pg_url, None)
        again._name = first._name  # (the same process's lock, reconnecting)
        assert await again._connect_and_take() == "again"
        for _ in range(600):
            if (state := await again._connect_and_take()) != "again":
                break
            await asyncio.sleep(0.05)
        assert state == "taken"
        # (its session ended on the server, which let the lock go, before its client read the
        # end of its socket: the termination listener comes a moment after the retake)
        assert await until(first._lost.is_set)
        assert await holders(pg_url) == [again.pid]
        await again.release()
        assert await holders(pg_url) == []
    finally:
        await first.release()


async def test_workers_locks_apart_from_a_bots(pg_url: str) -> None:
    """:class:`bot.dblock.PostgresLock` on its own: shared among workers, exclusive against a
    plain bot, one per ``WORKER_ID``; gone once released."""
    w1 = await PostgresLock.take(pg_url, "w1")
    w2 = await PostgresLock.take(pg_url, "w2")
    for worker, what in ((None, "database"), ("w1", "worker"), ("w2", "worker")):
        with pytest.raises(PostgresBusy) as caught:
            await PostgresLock.take(pg_url, worker)
        assert caught.value.what == what
    await w1.release()
    w1 = await PostgresLock.take(pg_url, "w1")
    await w1.release()
    await w2.release()
    plain = await PostgresLock.take(pg_url)
    with pytest.raises(PostgresBusy) as caught:
        await PostgresLock.take(pg_url, "w1")
    assert caught.value.what == "database"
    await plain.release()
    await plain.release()  # (idempotent)


async def test_a_silent_lock_connection_is_found_by_its_ping_and_taken_again(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The network to the server goes silent (no reset): the ping unanswered, the connection
    is given up and the lock taken again once the server answers."""
    from tests.bot.test_brkpg_db import silent_store

    monkeypatch.setattr(dblock, "PG_PING_SECONDS", 0.1)
    monkeypatch.setattr(dblock, "PG_PING_TIMEOUT", 0.3)
    monkeypatch.setattr(dblock, "PG_RETAKE_TIMEOUT", 0.5)
    monkeypatch.setattr(dblock, "PG_RETRY_SECONDS", 0.05)
    proxy, url = await silent_store(pg_url)
    lock = await PostgresLock.take(url)
    taken: list[str] = []
    try:
        lock.watch(taken.append)
        (pid,) = await holders(pg_url)
        proxy.silent = True
        for _ in range(600):
            if lock._conn is None:  # (given up: taking again)
                break
            await asyncio.sleep(0.05)
        assert lock._conn is None
        proxy.silent = False
        again = await until_held_by_another_than(pg_url, pid)
        # (the server grants the lock a moment before the retake keeps its connection: CI
        # once read ``lock.pid`` between)
        assert await until(lambda: lock.pid is not None)
        assert lock.pid == again
        assert await holders(pg_url) == [again]
        assert taken == []
    finally:
        await lock.release()
        await proxy.stop()


def test_python_m_bot_exits_2_without_a_second_line_when_its_database_was_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """:class:`DatabaseTaken` (the line logged when it happened) is exit status 2, said once."""
    from bot.__main__ import main

    async def taken(settings: Settings) -> None:
        raise DatabaseTaken("lost the lock on the database …")

    monkeypatch.setattr("bot.app.run", taken)
    # (the root's)
    monkeypatch.setattr("bot.__main__.configure_logging", lambda *args, **kwargs: None)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "ofc.sqlite3"))
    (tmp_path / "empty.env").write_text("")
    assert main(["--env-file", str(tmp_path / "empty.env")]) == 2
    assert capsys.readouterr().err == ""
