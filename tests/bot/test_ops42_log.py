"""An operator's first deployment (ops42): the start line named no database. A service
started in another folder (systemd's WorkingDirectory unset) made a new, empty
``ofc.sqlite3`` there (``DATABASE_PATH`` is relative), and nothing in the log said which file
the bot ran on; nor which PostgreSQL database."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import database_name, run
from bot.config import Settings
from bot.telegram.fake_api import FakeTelegram

TOKEN = "123456:" + "N" * 35


def test_the_database_name_is_the_full_path_or_the_url_without_its_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    sqlite = Settings(_env_file=None)  # type: ignore[call-arg]
    assert database_name(sqlite) == f"{tmp_path.resolve() / 'ofc.sqlite3'} (SQLite)"
    for url, shown in (
        ("postgresql://ofc:s3cret@db:5432/ofc", "ofc on db:5432"),
        ("postgresql://ofc:p%40ss@db/ofc", "ofc on db"),
        ("postgresql://ofc@/ofc?host=/run/postgresql", "ofc on /run/postgresql"),
        ("postgres://db", "(the default) on db"),
    ):
        pg = Settings(_env_file=None, database_url=SecretStr(url))  # type: ignore[call-arg]
        assert database_name(pg) == f"{shown} (PostgreSQL)"


async def test_the_start_line_names_the_database(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    db = tmp_path / "ofc.sqlite3"
    settings = Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    )
    caplog.set_level(logging.INFO, logger="bot.app")
    stop = asyncio.Event()
    try:
        task = asyncio.create_task(run(settings, stop))
        await telegram.wait_for(lambda: "bot running" in caplog.text or task.done(), 30)
        stop.set()
        await asyncio.wait_for(task, 30)
    finally:
        await telegram.stop()
    assert f"bot running; 0 open table(s) restored; database {db.resolve()} (SQLite)" in (
        caplog.text
    )
