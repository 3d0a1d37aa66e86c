"""Backups and the check's database (found by a new operator): a copy of the running bot's
SQLite file alone was useless (its data was still in the ``-wal`` file: "no such table:
communities"); ``python -m storage backup`` copies it with SQLite's online backup API. The
check of an empty PostgreSQL database said "relation "communities" does not exist"; without
``--db`` the commands read the database the bot uses (``DATABASE_URL``/``DATABASE_PATH``)."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

import storage.check
from storage.__main__ import main
from storage.sqlite import SqliteStore
from tests.storage.helpers import seated


async def test_a_backup_of_the_running_bots_database_is_whole_and_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "ofc.sqlite3"
    store = await SqliteStore.open(live)  # open all along, as the running bot's
    try:
        s = await seated(store)
        for p in s.ids:
            await store.buy_in(s.table.id, p, 300, key=f"b{p}")
        wal = Path(f"{live}-wal")
        assert wal.is_file() and wal.stat().st_size > 0  # the data is (partly) there
        # what an operator did: cp ofc.sqlite3 copy.sqlite3
        shutil.copyfile(live, tmp_path / "copy.sqlite3")
        assert await asyncio.to_thread(main, ["check", "--db", str(tmp_path / "copy.sqlite3")]) == 2
        err = capsys.readouterr().err
        assert "has no bot tables" in err and "python -m storage backup" in err, err

        dest = tmp_path / "backup.sqlite3"
        assert await asyncio.to_thread(main, ["backup", "--db", str(live), str(dest)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(
            f"{dest}: backup of {live} written\n"
            f"{dest}: 1 community, 3 players, 1 table, 0 hands, 6 ledger rows"
        ), out
        assert "OK: every balance and stack matches the ledger" in out
        # one self-contained file
        assert not Path(f"{dest}-wal").exists()
        await store.buy_in(s.table.id, s.ids[0], 100, key="later")  # the bot goes on
    finally:
        await store.close()
    assert await asyncio.to_thread(main, ["check", "--db", str(dest)]) == 0
    assert "6 ledger rows" in capsys.readouterr().out  # the copy as it was
    # never over an existing file (the live one named last by mistake): nothing written
    before = live.read_bytes()
    assert await asyncio.to_thread(main, ["backup", "--db", str(dest), str(live)]) == 2
    assert "exists: give the backup a new name" in capsys.readouterr().err
    assert live.read_bytes() == before
    assert await asyncio.to_thread(main, ["backup", "--db", "postgresql://u:pw@h/db", "x"]) == 2
    err = capsys.readouterr().err
    assert "pg_dump" in err and "pw" not in err and not (tmp_path / "x").exists()


def test_without_db_the_bots_database_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the bot: ``DATABASE_URL`` if set, else ``DATABASE_PATH`` (default ofc.sqlite3),
    from the environment or ``.env``."""

    async def make(path: Path) -> None:
        store = await SqliteStore.open(path)
        try:
            await seated(store)
        finally:
            await store.close()

    asyncio.run(make(tmp_path / "bot.sqlite3"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.setenv("DATABASE_URL", "")
    (tmp_path / ".env").write_text("DATABASE_PATH=bot.sqlite3\n")
    assert main(["check"]) == 0
    assert capsys.readouterr().out.startswith("bot.sqlite3: 1 community, 3 players")
    assert main(["backup", "saved.sqlite3"]) == 0
    assert capsys.readouterr().out.startswith("saved.sqlite3: backup of bot.sqlite3 written")
    (tmp_path / ".env").unlink()
    assert main(["check"]) == 2  # no .env: the default file, ofc.sqlite3
    assert "no database file at ofc.sqlite3" in capsys.readouterr().err
    # (opsnu43: the line says the path is the bot's setting, read from this folder; the
    # settings file's own, absolute, said so too)
    (tmp_path / "w1.env").write_text(f"DATABASE_PATH={tmp_path / 'gone.sqlite3'}\n")
    assert main(["backup", "--env-file", "w1.env", "copy.sqlite3"]) == 2
    assert capsys.readouterr().err == (
        f"error: no database file at {tmp_path / 'gone.sqlite3'} (DATABASE_PATH of w1.env): "
        "check it, or name the file with --db\n"
    )
    assert not (tmp_path / "copy.sqlite3").exists()


async def test_the_check_of_an_empty_postgresql_database_says_it_has_no_bot_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.pg import fresh_database

    async with fresh_database() as url:
        assert await asyncio.to_thread(main, ["check", "--db", url]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: the database has no bot tables yet (the bot makes them at its first start): "
        "nothing to check\n"
    )


def test_a_database_locked_by_another_program_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """brk79: "cannot read X: database is locked" said nothing of what to do. (Its status,
    2 then, is 75 since ops43: tests/storage/test_ops43_locked_commands.py.)"""
    monkeypatch.setattr(storage.check, "LOCK_WAIT_SECONDS", 0.1)  # (not 5 s a read)
    db = tmp_path / "ofc.sqlite3"
    asyncio.run(_made(db))
    holder = sqlite3.connect(db, isolation_level=None)
    advice = (
        "another program holds it (a sqlite3 shell, a copy, a backup tool): end it, then try again"
    )
    try:
        holder.execute("PRAGMA journal_mode=DELETE")
        holder.execute("BEGIN EXCLUSIVE")
        assert main(["check", "--db", str(db)]) == 75
        assert capsys.readouterr().err == f"error: cannot read {db}: database is locked: {advice}\n"
        dest = tmp_path / "copy.sqlite3"
        assert main(["backup", "--db", str(db), str(dest)]) == 75
        assert capsys.readouterr().err == (
            f"error: cannot back up {db} to {dest}: database is locked: {advice}\n"
        )
        assert not dest.exists()
    finally:
        holder.close()


async def _made(db: Path) -> None:
    store = await SqliteStore.open(db)
    await store.close()


def test_a_backup_of_a_file_with_no_bot_tables_leaves_no_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """brk79: the backup of an empty file (or any SQLite file not the bot's) wrote the copy,
    then its check said "has no bot tables", exit status 2 ("nothing could be written or
    read", docs/operations.md), and the copy stayed."""
    source, dest = tmp_path / "empty.sqlite3", tmp_path / "copy.sqlite3"
    source.touch()
    assert main(["backup", "--db", str(source), str(dest)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == (
        "",
        f"error: {source} has no bot tables: not a database the bot has run on (a copy of a "
        "running bot's file misses what its -wal file holds: use python -m storage backup)\n",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3"]
    assert source.read_bytes() == b""


def test_an_empty_db_option_is_refused_not_read_as_the_bots_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """brk79: ``--db "$DB"`` with ``DB`` unset checked the bot's database instead, unsaid."""
    db = tmp_path / "ofc.sqlite3"
    asyncio.run(_made(db))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_PATH", str(db))
    assert main(["check", "--db", ""]) == 2
    assert capsys.readouterr() == (
        "",
        "error: --db is empty: name the database file or postgresql:// URL, or leave --db out "
        "for the bot's own\n",
    )
    assert main(["backup", "--db", " ", str(tmp_path / "copy.sqlite3")]) == 2
    assert "error: --db is empty" in capsys.readouterr().err
    assert not (tmp_path / "copy.sqlite3").exists()


def test_a_damaged_file_says_to_restore_a_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """brk79: a truncated database file said "database disk image is malformed" alone."""
    db, cut = tmp_path / "ofc.sqlite3", tmp_path / "cut.sqlite3"
    asyncio.run(_made(db))
    with sqlite3.connect(db) as conn:  # (one self-contained file, as a backup's)
        conn.execute("PRAGMA journal_mode=DELETE")
    cut.write_bytes(db.read_bytes()[:5000])
    advice = "the file is damaged: stop the bot and restore the last backup (docs/operations.md)"
    assert main(["check", "--db", str(cut)]) == 2
    assert capsys.readouterr().err == (
        f"error: cannot read {cut}: database disk image is malformed: {advice}\n"
    )
    dest = tmp_path / "copy.sqlite3"
    assert main(["backup", "--db", str(cut), str(dest)]) == 2
    assert capsys.readouterr().err == (
        f"error: cannot back up {cut} to {dest}: database disk image is malformed: {advice}\n"
    )
    assert not dest.exists()
