"""The composition root runs both platforms on one event loop (issues 4 and 5)."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot import app
from bot.app import run
from bot.config import ConfigError, Settings
from bot.telegram.fake_api import FakeTelegram, FakeUser
from tests.fakes.discord_api import FakeDiscord, point_discord_at
from tests.fakes.discord_api import FakeUser as DiscordUser

TG_TOKEN = "123456:" + "T" * 35
DC_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


async def test_both_platforms_run_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both adapters on one loop and one database; once started, the heap is settled (frozen
    out of the garbage collector's full collections, :func:`bot.app.settle_heap`) once."""
    settled: list[int] = []
    monkeypatch.setattr(app, "settle_heap", lambda: settled.append(gc.get_count()[0]))
    telegram = FakeTelegram(TG_TOKEN)
    discord = FakeDiscord(DC_TOKEN)
    await telegram.start()
    await discord.start()
    settings = Settings(
        telegram_bot_token=SecretStr(TG_TOKEN),
        telegram_api_base_url=telegram.base_url,
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    try:
        with point_discord_at(discord):
            task = asyncio.create_task(run(settings, stop))
            # Telegram: a group opens a table
            alice = FakeUser(11, "Alice", "alice", "en")
            await telegram.wait_for(lambda: telegram.calls_of("getUpdates"), timeout=20)
            await telegram.send_text(alice, -500, "/newtable")
            reply = await telegram.wait_for(
                lambda: next((c for c in telegram.calls_of("sendMessage")
                              if "Table #" in str(c.params.get("text"))), None),
                timeout=20,
            )  # fmt: skip
            assert int(reply.params["chat_id"]) == -500
            # Discord: a channel opens its own table, on the same service and database
            await discord.wait_for(lambda: discord.commands, timeout=20)
            record = await discord.slash(DiscordUser(21, "Bob", "en-US"), "new")
            await discord.wait_for(lambda: record.answered, timeout=20)
            message = discord.messages[record.messages[-1]]
            assert message["content"].startswith("Table #2")
            assert not task.done() and len(settled) == 1
            stop.set()
            await asyncio.wait_for(task, 30)
    finally:
        await discord.stop()
        await telegram.stop()


async def test_database_url_runs_the_bot_on_postgresql(tmp_path: Path) -> None:
    """Issue 14: with DATABASE_URL the composition root stores everything in PostgreSQL
    (a table opened in a group is a row there) and no SQLite file is made."""
    from storage.postgres import PostgresStore
    from tests.pg import fresh_database

    telegram = FakeTelegram(TG_TOKEN)
    await telegram.start()
    try:
        async with fresh_database() as url:
            settings = Settings(
                telegram_bot_token=SecretStr(TG_TOKEN),
                telegram_api_base_url=telegram.base_url,
                database_path=str(tmp_path / "ofc.sqlite3"),
                database_url=SecretStr(url),
                _env_file=None,  # type: ignore[call-arg]
            )
            stop = asyncio.Event()
            task = asyncio.create_task(run(settings, stop))
            alice = FakeUser(11, "Alice", "alice", "en")
            await telegram.wait_for(lambda: telegram.calls_of("getUpdates"), timeout=20)
            await telegram.send_text(alice, -500, "/newtable")
            await telegram.wait_for(
                lambda: next((c for c in telegram.calls_of("sendMessage")
                              if "Table #" in str(c.params.get("text"))), None),
                timeout=20,
            )  # fmt: skip
            stop.set()
            await asyncio.wait_for(task, 30)
            store = await PostgresStore.open(url)
            try:
                community = await store.community("telegram", "-500")
                table = await store.open_table(community.id, "-500")
                assert table is not None and table.open
            finally:
                await store.close()
    finally:
        await telegram.stop()
    assert not (tmp_path / "ofc.sqlite3").exists()


async def test_a_database_path_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    """``DATABASE_PATH`` in a folder that does not exist (or a file that is not a database)
    is a ConfigError, the one line ``python -m bot`` prints with exit status 2, naming the
    file and the setting; it was a traceback from aiosqlite before the token was checked."""
    (tmp_path / "notes.txt").write_text("not a database\n" * 10)
    missing = tmp_path / "missing"
    cases = {
        # (opsnu43: SQLite's "unable to open database file" said nothing of the folder: the
        # line now says which folder is missing, or that the path is a folder)
        missing / "ofc.sqlite3": (
            "unable to open database file",
            f"its folder {missing} does not exist (the bot makes the file, not its folder): "
            "create it, or correct DATABASE_PATH in .env",
        ),
        tmp_path: (
            "unable to open database file",
            f"it is a folder: set DATABASE_PATH to a file in it ({tmp_path / 'ofc.sqlite3'}) "
            "in .env",
        ),
        tmp_path / "notes.txt": ("file is not a database", "check DATABASE_PATH in .env"),
    }
    for path, (reason, advice) in cases.items():
        settings = Settings(
            telegram_bot_token=SecretStr(TG_TOKEN),
            database_path=str(path),
            _env_file=None,  # type: ignore[call-arg]
        )
        with pytest.raises(ConfigError) as caught:
            await app.open_store(settings)
        assert str(caught.value) == f"cannot open the SQLite database {path} ({reason}): {advice}"
    assert not missing.exists()


def test_settle_heap_freezes_what_is_alive() -> None:
    """:func:`bot.app.settle_heap` moves every live object out of the collector's reach."""
    gc.unfreeze()
    try:
        app.settle_heap()
        assert gc.get_freeze_count() > 10_000  # the libraries imported at least
    finally:
        gc.unfreeze()


async def test_the_service_waits_for_storage_as_long_as_storage_wait_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``STORAGE_WAIT_SECONDS`` reaches the service the bot runs: its presses and commands
    wait that long for the database (it was a constant, 1 s, too short for a far server)."""
    made: list[float] = []

    class Recorded(app.TableService):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self.rt.storage_wait)

    monkeypatch.setattr(app, "TableService", Recorded)
    settings = Settings(
        database_path=str(tmp_path / "ofc.sqlite3"),
        storage_wait_seconds=2.5,
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    stop.set()  # (started, then stopped at once: no platform)
    await asyncio.wait_for(run(settings, stop), 60)
    assert made == [2.5]
