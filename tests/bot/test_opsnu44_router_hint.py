"""A cluster's router started without ``--router`` (opsnu44): its settings file
(``TELEGRAM_WEBHOOK_URL``, no ``WORKER_ID``) run as a plain bot, as a systemd template unit
``ofc@router`` of the workers' ``ExecStart`` does, was refused beside the workers ("another
bot (or a worker) is running on the database …") with no word of the flag it lacked. The
refusal now ends with the hint; a plain bot's settings without a webhook get the line as
before. PostgreSQL is the session's pgserver (tests/pg.py; skipped where it cannot start)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import run
from bot.config import ConfigError, Settings
from bot.dblock import hold_database, let_go
from bot.telegram.fake_api import FakeTelegram
from tests.bot.cluster.harness import free_port
from tests.bot.test_fixlock import TOKEN, running, telegram
from tests.bot.test_fixlock import busy as sqlite_busy
from tests.bot.test_fixpg_lock import busy as pg_busy
from tests.bot.test_fixpg_lock import settings_for
from tests.pg import fresh_database

__all__ = ["telegram"]  # (the fixture, imported)

HINT = "; if this is the cluster's router, start it with python -m bot --router"


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


def routers(telegram: FakeTelegram, **db: str) -> Settings:
    """The settings of a cluster's router (docs/operations.md's router.env) on ``db``."""
    return Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        telegram_webhook_url="https://bot.example.com/telegram",
        telegram_webhook_listen=f"127.0.0.1:{free_port()}",
        telegram_webhook_secret=SecretStr("a-long-random-secret"),
        _env_file=None,  # type: ignore[call-arg]
        **db,  # type: ignore[arg-type]
    )


async def test_a_routers_settings_run_plain_beside_a_worker_name_the_flag(
    pg_url: str, telegram: FakeTelegram
) -> None:
    worker = settings_for(telegram, pg_url, "w1")
    async with running(worker):
        router = routers(telegram, database_url=SecretStr(pg_url))
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(router, asyncio.Event()), 30)
        assert str(caught.value) == pg_busy(router) + HINT
        # a plain bot's settings (no webhook) are refused in the line as before
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(settings_for(telegram, pg_url), asyncio.Event()), 30)
        assert str(caught.value) == pg_busy(worker)


async def test_on_sqlite_too(tmp_path: Path, telegram: FakeTelegram) -> None:
    db = tmp_path / "ofc.sqlite3"
    lock = hold_database(db, shared=True)  # (a worker's hold on the file)
    assert lock is not None
    try:
        router = routers(telegram, database_path=str(db))
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(router, asyncio.Event()), 30)
        assert str(caught.value) == sqlite_busy(db) + HINT
    finally:
        let_go(lock)
