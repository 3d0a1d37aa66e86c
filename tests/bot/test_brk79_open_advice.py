"""An SQLite file the start cannot open for a reason that is not its path (brk79): locked by
another program, on a full disk, read-only. The line ended "check DATABASE_PATH in .env",
sending the operator to a setting that was right; it now says what to do about the file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import storage.sqlite
from bot.app import open_store
from bot.config import ConfigError, Settings
from storage.sqlite import SqliteStore


async def _made(tmp_path: Path) -> Path:
    db = tmp_path / "ofc.sqlite3"
    store = await SqliteStore.open(db)
    await store.close()
    return db


async def _refusal(db: Path) -> str:
    settings = Settings(database_path=str(db), _env_file=None)  # type: ignore[call-arg]
    with pytest.raises(ConfigError) as caught:
        await open_store(settings)
    return str(caught.value)


async def test_a_database_locked_by_another_program_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await _made(tmp_path)
    monkeypatch.setattr(storage.sqlite, "BUSY_TIMEOUT_MS", 0)  # (no wait for the lock)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode=DELETE")
        holder.execute("BEGIN EXCLUSIVE")  # (a sqlite3 shell in a long transaction)
        line = await _refusal(db)
    finally:
        holder.close()
    assert line == (
        f"cannot open the SQLite database {db} (database is locked): another program holds "
        "it (a sqlite3 shell, a copy, a backup tool): end it, then start the bot again"
    )


@pytest.mark.parametrize(
    ("reason", "advice"),
    [
        ("database or disk is full", "free space on its disk, then start the bot again"),
        (
            "database disk image is malformed",
            "the file is damaged: restore the last backup (docs/operations.md)",
        ),
        (
            "attempt to write a readonly database",
            "make the file and its folder writable by the bot's user, then start the bot again",
        ),
    ],
)
async def test_a_full_disk_a_read_only_or_a_damaged_file_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reason: str, advice: str
) -> None:
    db = await _made(tmp_path)

    def refused(conn: object) -> list[int]:  # (what SQLite says at the start's first write)
        raise sqlite3.OperationalError(reason)

    monkeypatch.setattr(storage.sqlite, "_migrate", refused)
    assert await _refusal(db) == f"cannot open the SQLite database {db} ({reason}): {advice}"
