"""fix39f: a bot whose PostgreSQL lock's connection dropped, and that could not reach the
server to take the lock again, served on without it for as long as the server stayed out of
reach: no limit, while the server, ending the cut-off session by its keepalives, let another
bot take the lock and serve the same tables beside it. Now the watch stops trying after
:data:`bot.dblock.PG_LOST_SECONDS` and the bot stops with one line, ``run`` raising
:class:`bot.app.DatabaseLost` (``python -m bot``: exit status 75, ``EX_TEMPFAIL``). The lock
session is dropped with ``pg_terminate_backend`` on the tests' pgserver (tests/pg.py) and
every retake is refused as a server out of reach."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import bot.dblock as dblock
from bot.app import DatabaseLost, database_name
from bot.dblock import LOCK_LOST, PostgresLock
from bot.telegram.fake_api import FakeTelegram
from storage.api import StorageUnreachable
from storage.cli import EX_TEMPFAIL
from tests.bot.test_fixlock import TOKEN, running, telegram
from tests.bot.test_fixpg_lock import holders, settings_for
from tests.pg import fresh_database

__all__ = ["telegram"]  # (the fixture, imported)


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


def refuse_retakes(monkeypatch: pytest.MonkeyPatch, tries: list[float]) -> None:
    """From now on every try to take a lock (again) fails as a server out of reach; the loop
    time of each is appended to ``tries``."""

    async def out_of_reach(self: PostgresLock) -> str:
        tries.append(asyncio.get_running_loop().time())
        raise StorageUnreachable("cannot connect to PostgreSQL: Connection refused")

    monkeypatch.setattr(PostgresLock, "_connect_and_take", out_of_reach)


async def terminate(url: str, pid: int) -> None:
    admin = await asyncpg.connect(url)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


async def test_a_lock_not_taken_again_in_time_ends_the_watch_with_lock_lost(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock alone: its connection terminated and every retake refused, ``on_taken`` gets
    :data:`bot.dblock.LOCK_LOST` once, after :data:`bot.dblock.PG_LOST_SECONDS` of tries (it
    was never called: the watch tried on for ever)."""
    # (2 s of tries 50 ms apart: with 0.5 s, the loop held 0.45 s after the first try, on
    # two loaded cores, left it the only one and failed "tried again meanwhile")
    lost = 2.0
    monkeypatch.setattr(dblock, "PG_LOST_SECONDS", lost)
    monkeypatch.setattr(dblock, "PG_RETRY_SECONDS", 0.05)
    lock = await PostgresLock.take(pg_url)
    called: list[str] = []
    ended = asyncio.Event()
    tries: list[float] = []

    def on_taken(what: str) -> None:
        called.append(what)
        ended.set()

    try:
        lock.watch(on_taken)
        (pid,) = await holders(pg_url)
        refuse_retakes(monkeypatch, tries)
        await terminate(pg_url, pid)
        await asyncio.wait_for(ended.wait(), 30)
        assert called == [LOCK_LOST]
        assert len(tries) >= 2  # (tried again meanwhile, every PG_RETRY_SECONDS)
        assert tries[-1] - tries[0] < lost
        assert lock._watch is not None
        await asyncio.wait_for(lock._watch, 5)  # (the watch ended: no try after it)
        count = len(tries)
        await asyncio.sleep(0.2)
        assert len(tries) == count and called == [LOCK_LOST]
        assert await holders(pg_url) == []
    finally:
        await lock.release()


async def test_a_bot_that_cannot_take_its_lost_lock_again_stops_in_one_line(
    pg_url: str,
    telegram: FakeTelegram,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The bot's lock connection terminated and the server out of reach for the retakes: the
    bot stops after :data:`bot.dblock.PG_LOST_SECONDS` with one line and ``run`` raises
    :class:`DatabaseLost` (it served on, unlocked, with no limit)."""
    monkeypatch.setattr(dblock, "PG_LOST_SECONDS", 1.0)
    monkeypatch.setattr(dblock, "PG_RETRY_SECONDS", 0.05)
    settings = settings_for(telegram, pg_url)
    tries: list[float] = []
    with pytest.raises(DatabaseLost) as caught:
        async with running(settings) as task:
            (pid,) = await holders(pg_url)
            refuse_retakes(monkeypatch, tries)
            await terminate(pg_url, pid)
            await asyncio.wait_for(task, 60)
    line = (
        f"lost the lock on the database {database_name(settings)} (its connection dropped) and "
        "could not take it again within 1 s: this bot stops, so that no other bot serves its "
        "tables beside it (restarted, it waits for the server: docs/operations.md)"
    )
    assert str(caught.value) == line
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [line]
    assert tries and await holders(pg_url) == []


def test_python_m_bot_exits_75_without_a_second_line_when_its_lock_was_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """:class:`DatabaseLost` (the line logged when it happened) is exit status 75, said once:
    a restart later may well find the server again."""
    from bot.__main__ import main

    async def lost(settings: Any) -> None:
        raise DatabaseLost("lost the lock on the database …")

    monkeypatch.setattr("bot.app.run", lost)
    # (the root's)
    monkeypatch.setattr("bot.__main__.configure_logging", lambda *args, **kwargs: None)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "ofc.sqlite3"))
    (tmp_path / "empty.env").write_text("")
    assert main(["--env-file", str(tmp_path / "empty.env")]) == EX_TEMPFAIL == 75
    assert capsys.readouterr().err == ""
