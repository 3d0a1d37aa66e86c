"""An operator's first deployment (ops42), two processes on one port: a worker whose
``WORKER_LISTEN`` another worker already listens on, or a router whose
``TELEGRAM_WEBHOOK_LISTEN`` is taken, stopped with a traceback ending in "OSError: [Errno
98] error while attempting to bind on address ...: address already in use". One line now,
naming the variable (as a single process's webhook already did)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import run, run_router
from bot.config import ConfigError, Settings
from bot.telegram.fake_api import FakeTelegram
from storage.sqlite import SqliteStore

TOKEN = "123456:" + "L" * 35


async def workers_database(db: Path) -> Path:
    """The SQLite file ``db`` as the workers' database a router starts on: one worker (w1)
    has run on it (a router with none refuses to start)."""
    store = await SqliteStore.open(db)
    await store.heartbeat("w1", "http://127.0.0.1:9", 5.0)
    await store.close()
    return db


@pytest.fixture
def taken() -> Iterator[int]:
    """A port of 127.0.0.1 another process listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


async def test_a_worker_whose_listen_port_is_taken_is_one_line(tmp_path: Path, taken: int) -> None:
    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    settings = Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        database_path=str(tmp_path / "ofc.sqlite3"),
        worker_id="w2",
        worker_listen=f"127.0.0.1:{taken}",
        _env_file=None,  # type: ignore[call-arg]
    )
    try:
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    finally:
        await telegram.stop()
    assert str(caught.value) == (
        f"cannot listen on WORKER_LISTEN=127.0.0.1:{taken}: address already in use; give each "
        "worker a port of its own"
    )


async def test_a_router_whose_webhook_port_is_taken_is_one_line(tmp_path: Path, taken: int) -> None:
    db = await workers_database(tmp_path / "ofc.sqlite3")
    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    settings = Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        telegram_webhook_url="https://bot.example.invalid/hook",
        telegram_webhook_secret=SecretStr("s3cret"),
        telegram_webhook_listen=f"127.0.0.1:{taken}",
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    )
    try:
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run_router(settings, asyncio.Event()), 60)
    finally:
        await telegram.stop()
    assert str(caught.value) == (
        f"cannot listen on TELEGRAM_WEBHOOK_LISTEN=127.0.0.1:{taken}: address already in use"
    )
