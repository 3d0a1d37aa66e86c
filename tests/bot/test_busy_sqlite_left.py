"""An operator moving from SQLite to PostgreSQL (busy): with ``DATABASE_URL`` set, the old
``ofc.sqlite3`` still held the groups' balances and open tables, and nothing said so; only the
start's "0 open table(s) restored" hinted at it. The start now writes one warning line naming
the file and what it holds, read read-only (never made, written or locked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.config import Settings, sqlite_left_warning
from storage.sqlite import SqliteStore, peek_holdings
from tests.bot.cluster.harness import free_port
from tests.bot.test_config import base_env, run_bot

TOKEN = "123456:" + "L" * 35
DOCS = 'docs/operations.md, "From SQLite to PostgreSQL"'


async def _fill(path: Path, *, close: bool = True) -> SqliteStore:
    """The SQLite file ``path`` made by the store: two players of one group, one open table
    (and a closed one, not counted)."""
    store = await SqliteStore.open(str(path))
    group = await store.community("telegram", "-100", "Group")
    await store.player(group.id, "1", "Ann")
    await store.player(group.id, "2", "Bob")
    closed = await store.create_table(group.id, "-100", {"game": "pineapple"}, 200)
    await store.close_table(closed.id)
    await store.create_table(group.id, "-100", {"game": "pineapple"}, 200)
    if close:
        await store.close()
    return store


def _pg(db: Path) -> Settings:
    return Settings(
        database_path=str(db),
        database_url=SecretStr("postgresql://ofc:s3cret@db.example.com:5432/ofc"),
        _env_file=None,  # type: ignore[call-arg]
    )


def _line(db: Path, players: int, tables: int) -> str:
    return (
        f"warning: DATABASE_URL is set, so the SQLite file {db.resolve()} (DATABASE_PATH) is "
        f"not used: its {players} player(s) and {tables} open table(s) stay there ({DOCS})"
    )


async def test_the_start_warns_of_the_sqlite_file_database_url_leaves_behind(
    tmp_path: Path,
) -> None:
    db = tmp_path / "ofc.sqlite3"
    await _fill(db)
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    url = f"postgresql://ofc:s3cret@127.0.0.1:{free_port()}/ofc"  # (nobody listens)
    proc = run_bot({"TELEGRAM_BOT_TOKEN": TOKEN, "DATABASE_URL": url}, tmp_path)
    assert proc.returncode == 75, proc.stderr  # (PostgreSQL out of reach: after the warning)
    lines = proc.stderr.strip().splitlines()
    assert lines[0] == _line(db, 2, 1), proc.stderr
    assert lines[-1].startswith("error: "), proc.stderr
    assert "s3cret" not in proc.stderr
    # read, not touched: no -wal or -shm made, the file as it was
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before


async def test_no_warning_without_database_url_or_without_a_file_holding_anything(
    tmp_path: Path,
) -> None:
    db = tmp_path / "ofc.sqlite3"
    assert sqlite_left_warning(_pg(db)) is None  # no file, and none made
    assert not db.exists()
    await (await SqliteStore.open(str(db))).close()  # migrated, empty
    assert peek_holdings(db) == (0, 0)
    assert sqlite_left_warning(_pg(db)) is None
    await _fill(db)
    assert sqlite_left_warning(_pg(db)) == _line(db, 2, 1)
    sqlite = Settings(database_path=str(db), _env_file=None)  # type: ignore[call-arg]
    assert sqlite_left_warning(sqlite) is None  # the file is the bot's database
    # a file that is no bot database, or a folder: no line, no error
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    assert sqlite_left_warning(_pg(junk)) is None
    assert sqlite_left_warning(_pg(tmp_path)) is None
    # (the file must not be read with a fresh -wal and -shm left behind)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.sqlite3", "ofc.sqlite3"]


async def test_a_file_another_process_holds_open_is_read_through_its_log(
    tmp_path: Path,
) -> None:
    """The old bot still running on the file (its -wal there): what it committed counts."""
    db = tmp_path / "ofc.sqlite3"
    store = await _fill(db, close=False)
    try:
        assert sqlite_left_warning(_pg(db)) == _line(db, 2, 1)
    finally:
        await store.close()


@pytest.mark.parametrize("sandbox", [True, False])
def test_the_sandbox_gets_no_such_line(tmp_path: Path, sandbox: bool) -> None:
    """``--sandbox`` (or no token) plays on its own file: the bot's is none of its business."""
    import asyncio

    asyncio.run(_fill(tmp_path / "ofc.sqlite3"))
    env = {"DATABASE_URL": "postgresql://ofc:s3cret@127.0.0.1:9/ofc"}
    if sandbox:
        env["TELEGRAM_BOT_TOKEN"] = TOKEN
    argv = [sys.executable, "-m", "bot", *(["--sandbox"] if sandbox else [])]
    clean = base_env()
    clean.update(env, DATABASE_PATH=str(tmp_path / "ofc.sqlite3"))
    proc = subprocess.run(
        argv, env=clean, capture_output=True, text=True, timeout=60, cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert "DATABASE_URL is set" not in proc.stdout + proc.stderr, proc.stderr


async def test_a_log_left_by_a_crash_is_read_without_making_or_writing_a_file(
    tmp_path: Path,
) -> None:
    """rev50: a -wal and -shm a crash (or a copy) left, no process holding them, were read
    with the -shm rewritten (SQLite's recovery of the log's index), and a -wal left without
    its -shm got a new -shm made beside the file: the peek writes nothing beside the file."""
    import shutil

    live = tmp_path / "live"
    live.mkdir()
    store = await _fill(live / "ofc.sqlite3", close=False)
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    try:
        for name in ("ofc.sqlite3", "ofc.sqlite3-wal", "ofc.sqlite3-shm"):
            shutil.copy2(live / name, crashed / name)  # (as the files stand: a crash)
    finally:
        await store.close()
    db = crashed / "ofc.sqlite3"
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in crashed.iterdir()}
    assert peek_holdings(db) == (2, 1)
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in crashed.iterdir()} == before
    (crashed / "ofc.sqlite3-shm").unlink()  # (a -wal copied without its -shm)
    assert peek_holdings(db) is None  # (its log unreadable without one: no line)
    assert sorted(p.name for p in crashed.iterdir()) == ["ofc.sqlite3", "ofc.sqlite3-wal"]
