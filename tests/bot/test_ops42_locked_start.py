"""An SQLite file another program holds locked (a sqlite3 shell in a transaction, a backup
tool) stopped the bot's start with exit status 2, which a service manager
(``RestartPreventExitStatus=2``, docs/operations.md) leaves stopped, though the lock is let
go soon. It is now status 75 (``EX_TEMPFAIL``), as a server out of reach at the start: the
start is tried again (ops42). Another bot on the file is still 2 (bot.dblock's lock, taken
before the file is opened)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

import storage.sqlite
from bot.__main__ import EX_TEMPFAIL, main
from storage.sqlite import SqliteStore

TOKEN = "123456:" + "A" * 35


async def _made(db: Path) -> None:
    store = await SqliteStore.open(db)
    await store.close()


def test_a_start_on_a_locked_file_exits_75(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "ofc.sqlite3"
    asyncio.run(_made(db))
    monkeypatch.chdir(tmp_path)
    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "bot.env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nDATABASE_PATH={db}\n")
    monkeypatch.setattr(storage.sqlite, "BUSY_TIMEOUT_MS", 0)  # (no wait for the lock)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode=DELETE")
        holder.execute("BEGIN EXCLUSIVE")  # (a sqlite3 shell in a long transaction)
        status = main(["--env-file", "bot.env"])
    finally:
        holder.close()
    assert status == EX_TEMPFAIL == 75
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"error: cannot open the SQLite database {db} (database is locked): another program "
        "holds it (a sqlite3 shell, a copy, a backup tool): end it, then start the bot again"
    )
