"""rev44: :func:`storage.sqlite.peek_settings` reads a sandbox file's settings before the
store opens, "nothing made or written". A read-only connection to a WAL file no process had
open made its ``-wal`` and ``-shm`` files, and, read-only, left them behind: beside the file
after a start refused at once (no token and stdin ``/dev/null``, exit status 2). Now such a
file is read as it stands (``immutable``), nothing made; one another process holds open (its
``-wal`` there) is still read through its write-ahead log, what was committed in it
included."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from storage.sqlite import SqliteStore, peek_settings


async def _russian(db: Path) -> SqliteStore:
    """An open store on ``db`` whose Telegram group ``-1`` speaks Russian."""
    store = await SqliteStore.open(db)
    community = await store.community("telegram", "-1")
    await store.update_settings(community.id, replace(community.settings, language="ru"))
    return store


async def test_rev44_peek_of_a_closed_file_makes_no_file(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.sqlite3"
    await (await _russian(db)).close()
    assert sorted(os.listdir(tmp_path)) == ["sandbox.sqlite3"]
    settings = peek_settings(db, "telegram", "-1")
    assert settings is not None and settings.language == "ru"
    assert peek_settings(db, "telegram", "-2") is None
    assert sorted(os.listdir(tmp_path)) == ["sandbox.sqlite3"]


async def test_rev44_peek_of_a_file_held_open_reads_its_log(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.sqlite3"
    store = await _russian(db)
    try:
        assert (tmp_path / "sandbox.sqlite3-wal").is_file()
        settings = peek_settings(db, "telegram", "-1")
        assert settings is not None and settings.language == "ru"
    finally:
        await store.close()
