"""Break-it (brk37) on ``python -m storage backup``: a DEST that is one of the files SQLite
keeps beside the source (``-wal``, ``-shm``, ``-journal``; free while the bot is stopped)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.__main__ import main
from storage.sqlite import SqliteStore
from tests.storage.helpers import seated


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
async def test_a_backup_named_as_the_sources_own_sqlite_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    """The bot stopped, ``backup --db ofc.sqlite3 ofc.sqlite3-wal`` wrote the copy where
    SQLite keeps the source's log, and SQLite deleted it as the source closed: "backup
    written", then "no database file". Refused now, in one line, nothing written."""
    live = tmp_path / "ofc.sqlite3"
    store = await SqliteStore.open(live)
    await seated(store)
    await store.close()
    before = live.read_bytes()
    dest = Path(f"{live}{suffix}")
    assert not dest.exists()
    assert await asyncio.to_thread(main, ["backup", "--db", str(live), str(dest)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"error: {dest} is a file SQLite keeps for {live}: give the backup a new name\n"
    assert not dest.exists() and live.read_bytes() == before
