"""``python -m storage check`` and ``backup`` on an SQLite file another program holds locked
(a sqlite3 shell in a long transaction, a backup tool) exited with status 2, which
docs/operations.md gives to something to change first (a service or a timer with
``RestartPreventExitStatus=2`` stays stopped), though the lock is let go soon. The bot's own
start on such a file exits 75 (``EX_TEMPFAIL``, ops42); the commands now do too, with their
one line naming the file (ops43). Other unreadable files stay 2."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

import storage.check
from storage.__main__ import EX_TEMPFAIL, main
from storage.sqlite import SqliteStore
from tests.storage.helpers import seated

ADVICE = "another program holds it (a sqlite3 shell, a copy, a backup tool): end it, then try again"


async def _made(db: Path) -> None:
    store = await SqliteStore.open(db)
    try:
        await seated(store)
    finally:
        await store.close()


def _locked(db: Path) -> sqlite3.Connection:
    """A second connection holding ``db`` locked, as a sqlite3 shell after ``BEGIN
    EXCLUSIVE`` (a rollback journal: in WAL mode readers would pass a writer)."""
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def test_check_and_backup_of_a_locked_file_exit_75_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.check, "LOCK_WAIT_SECONDS", 0.05)  # (not 5 s a read)
    db = tmp_path / "ofc.sqlite3"
    asyncio.run(_made(db))
    dest = tmp_path / "copy.sqlite3"
    holder = _locked(db)
    try:
        assert main(["check", "--db", str(db)]) == EX_TEMPFAIL == 75
        assert capsys.readouterr() == (
            "",
            f"error: cannot read {db}: database is locked: {ADVICE}\n",
        )
        assert main(["backup", "--db", str(db), str(dest)]) == 75
        assert capsys.readouterr() == (
            "",
            f"error: cannot back up {db} to {dest}: database is locked: {ADVICE}\n",
        )
        assert sorted(p.name for p in tmp_path.iterdir()) == ["ofc.sqlite3"]  # (no copy)
    finally:
        holder.close()
    # the lock let go, the same commands go through: what 75 says, try again later
    assert main(["backup", "--db", str(db), str(dest)]) == 0
    assert main(["check", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{dest}: backup of {db} written\n{dest}: ")
    assert out.count("OK: every balance and stack matches the ledger") == 2
    # only a lock is 75: a file to replace first stays 2, even where its folder's name says
    # "database is locked" (the SQLite error is looked at, not the line)
    folder = tmp_path / "database is locked"
    folder.mkdir()
    bad = folder / "ofc.sqlite3"
    bad.write_bytes(b"not an SQLite file, " * 100)
    assert main(["check", "--db", str(bad)]) == 2
    assert capsys.readouterr().err == f"error: cannot read {bad}: file is not a database\n"
    assert main(["backup", "--db", str(bad), str(tmp_path / "bad.sqlite3")]) == 2
    assert capsys.readouterr().err == (
        f"error: cannot back up {bad} to {tmp_path / 'bad.sqlite3'}: file is not a database\n"
    )


def test_the_bots_own_database_locked_is_75_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``--db``: the file ``DATABASE_PATH`` of the bot's settings file names."""
    monkeypatch.setattr(storage.check, "LOCK_WAIT_SECONDS", 0.05)
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    db = tmp_path / "bot.sqlite3"
    asyncio.run(_made(db))
    (tmp_path / "bot.env").write_text(f"DATABASE_PATH={db}\n")
    holder = _locked(db)
    try:
        assert main(["check", "--env-file", "bot.env"]) == 75
        assert capsys.readouterr().err == f"error: cannot read {db}: database is locked: {ADVICE}\n"
    finally:
        holder.close()
