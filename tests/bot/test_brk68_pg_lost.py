"""brk68: a lost PostgreSQL lock is given up on before the server's keepalives end the lost
session (fix39f's PG_LOST_SECONDS), whatever keepalives ``DATABASE_URL`` asks for."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

import bot.dblock as dblock
from bot.dblock import LOCK_LOST, PostgresLock, lost_window
from tests.bot.test_fix39f_pg_lost import refuse_retakes, terminate
from tests.bot.test_fixpg_lock import holders
from tests.pg import fresh_database


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


def test_the_window_ends_before_the_keepalives_end_the_session() -> None:
    """The bot's keepalives (60 s, 10 s × 6: the session ended 120 s after the network went
    silent) leave the 60 s; a URL's shorter ones (``?tcp_keepalives_idle=20``: 80 s) a window
    that ends, with the ping's 20 s and the stop's 10 s, before them; a unix socket's (0:
    none, the OS's two hours) the 60 s."""
    assert lost_window(60, 10, 6) == dblock.PG_LOST_SECONDS == 60.0
    assert lost_window(20, 10, 6) == 80 - 20 - 10
    assert lost_window(10, 5, 2) == 0.0
    assert lost_window(0, 0, 0) == 60.0


async def test_a_lost_lock_is_given_up_within_the_sessions_keepalives(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DATABASE_URL`` may set the keepalives shorter (docs/operations.md): the server then
    ended the cut-off lock session, and let another bot take the lock, long before the bot
    stopped trying for PG_LOST_SECONDS: two bots served the same tables meanwhile. The watch
    gives up once the keepalives it read on the lock connection would have ended it (less
    the ping's and the stop's time)."""
    monkeypatch.setattr(dblock, "PG_LOST_SECONDS", 60.0)
    monkeypatch.setattr(dblock, "PG_RETRY_SECONDS", 0.05)
    monkeypatch.setattr(dblock, "PG_PING_SECONDS", 0.1)
    monkeypatch.setattr(dblock, "PG_PING_TIMEOUT", 0.1)
    monkeypatch.setattr(dblock, "PG_STOP_SECONDS", 0.1)

    async def short(self: PostgresLock, conn: object) -> tuple[int, int, int]:
        return 1, 1, 1  # (a unix socket reads 0: the test server's; as TCP would read them)

    monkeypatch.setattr(PostgresLock, "_keepalives", short)
    lock = await PostgresLock.take(pg_url)
    ended = asyncio.Event()
    called: list[str] = []

    def on_taken(what: str) -> None:
        called.append(what)
        ended.set()

    try:
        assert lock.lost_seconds == pytest.approx(1.7)
        lock.watch(on_taken)
        (pid,) = await holders(pg_url)
        refuse_retakes(monkeypatch, [])
        await terminate(pg_url, pid)
        await asyncio.wait_for(ended.wait(), 20)  # (not the 60 s of PG_LOST_SECONDS)
        assert called == [LOCK_LOST]
    finally:
        await lock.release()
