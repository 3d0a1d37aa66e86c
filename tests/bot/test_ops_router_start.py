"""``python -m bot --router`` refuses, in one line, what cannot work (found by a new
operator following docs/operations.md): a database no worker shares, and a Bot API out of
reach (a 105-line traceback ended in ``telegram.error.NetworkError``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import run
from bot.config import Settings
from bot.telegram.fake_api import FakeTelegram
from tests.bot.cluster.harness import free_port
from tests.bot.test_config import base_env

TOKEN = "123456:" + "R" * 35


def _router(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in base_env().items() if not k.startswith(("DATABASE_", "WORKER_"))}
    clean.update(
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_WEBHOOK_URL="https://example.invalid/hook",
        TELEGRAM_WEBHOOK_SECRET="s3cret",
        TELEGRAM_WEBHOOK_LISTEN=f"127.0.0.1:{free_port()}",
        **env,
    )
    return subprocess.run(
        [sys.executable, "-m", "bot", "--router"],  # (no .env in cwd)
        env=clean, capture_output=True, text=True, timeout=60, cwd=cwd,
    )  # fmt: skip


def _heartbeats(db: Path) -> int:
    """The workers that ever wrote their heartbeat to ``db`` (0 before its migrations)."""
    if not db.is_file():  # (connecting would make it, racing the worker's store)
        return 0
    try:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            return int(conn.execute("SELECT count(*) FROM workers").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_a_router_without_the_workers_database_is_refused_and_makes_no_file(
    tmp_path: Path,
) -> None:
    """No DATABASE_URL: the router made a new ofc.sqlite3 of its own, found no worker in it
    and answered Telegram 200 for every update, none ever forwarded."""
    proc = _router({"TELEGRAM_API_BASE_URL": "http://127.0.0.1:9/bot"}, tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: the router needs the workers' database: set DATABASE_URL")
    assert "no worker has run on ofc.sqlite3" in lines[0]
    assert not (tmp_path / "ofc.sqlite3").exists()
    # an SQLite file of a single process (no worker ever heartbeat in it): refused alike
    with contextlib.closing(sqlite3.connect(tmp_path / "single.sqlite3")) as conn:
        conn.execute("CREATE TABLE workers (worker TEXT)")
    proc = _router({"DATABASE_PATH": str(tmp_path / "single.sqlite3")}, tmp_path)
    assert proc.returncode == 2 and "no worker has run on" in proc.stderr, proc.stderr


async def test_a_router_on_the_sqlite_file_of_a_worker_gets_to_the_bot_api(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Workers on one machine may share one SQLite file: once a worker has run on it, the
    router on that file starts (here it stops at the Bot API out of reach, in one line
    without the token, as a single process's start does)."""
    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    db = tmp_path / "ofc.sqlite3"
    settings = Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        database_path=str(db),
        worker_id="w1",
        worker_listen=f"127.0.0.1:{free_port()}",
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    caplog.set_level(logging.INFO, logger="bot.app")
    try:
        task = asyncio.create_task(run(settings, stop))
        await telegram.wait_for(lambda: _heartbeats(db) or task.done(), 20)
        assert not task.done()
        # a worker on SQLite says so at its start (it was accepted silently)
        await telegram.wait_for(lambda: "worker w1: internal endpoint" in caplog.text, 20)
        assert f"database {db} (SQLite: the router and every worker on this machine" in (
            caplog.text
        )
        stop.set()
        await asyncio.wait_for(task, 30)
    finally:
        await telegram.stop()
    proc = await asyncio.to_thread(
        _router,
        {"DATABASE_PATH": str(db), "TELEGRAM_API_BASE_URL": "http://127.0.0.1:9/bot"},
        tmp_path,
    )
    assert proc.returncode == 75, proc.stderr  # EX_TEMPFAIL: out of reach (fixexit38)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: cannot reach the Telegram Bot API ("), lines[0]
    assert "Traceback" not in proc.stderr and TOKEN.split(":")[1] not in proc.stderr
