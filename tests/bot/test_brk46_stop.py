"""brk46: a stop (SIGINT/SIGTERM) while the start waits on PostgreSQL's migration lock
(another process migrating the same database) ends the start and leaves no connection."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
from pydantic import SecretStr

from bot.app import run
from bot.config import Settings
from storage.postgres import _MIGRATION_LOCK
from tests.pg import fresh_database

TOKEN = "123456:" + "S" * 35


async def _theirs(conn: asyncpg.Connection, mine: int) -> int:
    return int(
        await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> $1 AND backend_type = 'client backend'",
            mine,
        )
    )


async def test_a_stop_while_the_migration_lock_is_held_ends_the_start(tmp_path: Path) -> None:
    async with fresh_database() as url:
        holder = await asyncpg.connect(url)
        try:
            mine = holder.get_server_pid()
            await holder.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            settings = Settings(
                _env_file=None,  # type: ignore[call-arg]
                telegram_bot_token=SecretStr(TOKEN),
                telegram_api_base_url="http://127.0.0.1:9/bot",
                database_url=SecretStr(url),
                database_path=str(tmp_path / "none.sqlite3"),
            )
            stop = asyncio.Event()
            running = asyncio.create_task(run(settings, stop))
            for _ in range(300):
                waiting = await holder.fetchval(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                )
                if waiting:
                    break
                await asyncio.sleep(0.05)
            assert waiting
            stop.set()
            await asyncio.wait_for(running, 30)
            for _ in range(100):
                if not await _theirs(holder, mine):
                    break
                await asyncio.sleep(0.05)
            assert await _theirs(holder, mine) == 0
        finally:
            await holder.close()
