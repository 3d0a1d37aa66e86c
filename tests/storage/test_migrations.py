"""Versioned migrations (issue 3): numbered SQL files applied in order at start-up, once; WAL
and foreign keys on; the schema enforces one open table per chat and an append-only ledger."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

import pytest

import storage.sqlite as sqlite_module
from storage.api import StorageError
from storage.sqlite import Migration, SqliteStore, migrations
from tests.storage.before_002 import drop_later_columns


def test_migration_files_are_numbered_from_one_without_gaps() -> None:
    files = sorted(
        f.name
        for f in resources.files("storage").joinpath("migrations").iterdir()
        if f.name.endswith(".sql")
    )
    found = migrations()
    assert [m.name for m in found] == files
    assert [m.version for m in found] == list(range(1, len(files) + 1))
    assert found[0].name == "001_init.sql"


async def test_migrations_are_applied_once_and_not_again_on_reopen(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    first = await store.schema_versions()
    c = await store.community("telegram", "-100")
    await store.player(c.id, "1", "Alice")
    await store.close()
    assert [(v, n) for v, n, _ in first] == [(m.version, m.name) for m in migrations()]

    store = await SqliteStore.open(path)
    try:
        assert await store.schema_versions() == first  # same rows, same applied_at
        p = await store.find_player(c.id, "@alice")
        assert p is not None and p.balance == 1000  # the data survived
    finally:
        await store.close()


async def test_file_database_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert {
        "schema_version",
        "communities",
        "players",
        "tables",
        "table_stacks",
        "ledger",
        "operations",
        "hands",
        "hand_players",
        "snapshots",
        "daily_claims",
    } <= tables


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    await store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (999, '999_future.sql', 0)")
    conn.close()
    with pytest.raises(StorageError, match="newer"):
        await SqliteStore.open(path)


async def test_a_file_that_cannot_be_opened_is_a_storage_error(tmp_path: Path) -> None:
    """A path in a folder that does not exist, a folder, or a file that is not a database:
    each a StorageError (the bot and the sandbox turn it into one line); the first two were
    aiosqlite's bare sqlite3.OperationalError, a traceback at start."""
    (tmp_path / "notes.txt").write_text("not a database\n" * 10)
    cases = {
        tmp_path / "missing" / "ofc.db": "SQLite error: unable to open database file",
        tmp_path: "SQLite error: unable to open database file",
        tmp_path / "notes.txt": "SQLite error: file is not a database",
    }
    for path, reason in cases.items():
        with pytest.raises(StorageError) as caught:
            await SqliteStore.open(path)
        assert str(caught.value) == reason
    assert not (tmp_path / "missing").exists()


def _raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


async def test_schema_refuses_a_second_open_table_and_ledger_edits(tmp_path: Path) -> None:
    """The invariants hold in the schema itself, not only in the code that writes it."""
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    c = await store.community("telegram", "-100")
    p = await store.player(c.id, "1", "Alice")
    await store.create_table(c.id, "chat", {}, 10)
    await store.close()
    conn = _raw(path)
    try:
        with pytest.raises(sqlite3.IntegrityError):  # partial unique index
            conn.execute(
                "INSERT INTO tables (community_id, chat_id, options, min_buy_in, open, created_at)"
                " VALUES (?, 'chat', '{}', 10, 1, 0)",
                (c.id,),
            )
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE ledger SET balance_delta = 5")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM ledger")
        with pytest.raises(sqlite3.IntegrityError):  # an unbalanced buy-in row
            conn.execute(
                "INSERT INTO ledger (community_id, kind, player_id, table_id, balance_delta,"
                " stack_delta, key, created_at) VALUES (?, 'buy_in', ?, 1, -10, 20, 'x', 0)",
                (c.id, p.id),
            )
        with pytest.raises(sqlite3.IntegrityError):  # a negative balance
            conn.execute("UPDATE players SET balance = -1 WHERE id = ?", (p.id,))
        with pytest.raises(sqlite3.IntegrityError):  # a player of no community
            conn.execute(
                "INSERT INTO players (community_id, user_id, name, name_key, created_at)"
                " VALUES (999, 'x', 'x', 'x', 0)"
            )
    finally:
        conn.close()


async def test_a_closed_store_refuses_reads_and_writes(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "ofc.db")
    c = await store.community("telegram", "-100")
    await store.close()
    await store.close()  # closing twice is harmless
    with pytest.raises(StorageError):
        await store.get_player(1)
    with pytest.raises(StorageError):
        await store.create_table(c.id, "chat", {}, 10)


async def test_a_new_migration_is_applied_once_on_an_existing_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    c = await store.community("telegram", "-100")
    before = await store.schema_versions()
    await store.close()

    extra = Migration(
        len(before) + 1,
        f"{len(before) + 1:03d}_notes.sql",
        "-- a later migration\nCREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);\n"
        "INSERT INTO notes (text) VALUES ('one; with a semicolon');\n",
    )
    monkeypatch.setattr(sqlite_module, "migrations", lambda: [*migrations(), extra])
    for _ in range(2):  # the second open must not apply it again (the INSERT would double)
        store = await SqliteStore.open(path)
        versions = await store.schema_versions()
        assert versions[: len(before)] == before
        assert [(v, n) for v, n, _ in versions[len(before) :]] == [(extra.version, extra.name)]
        assert (await store.community("telegram", "-100")).id == c.id
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT text FROM notes").fetchall() == [("one; with a semicolon",)]
    conn.close()


async def test_a_version_applied_under_another_name_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    await store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_version SET name = '001_other.sql' WHERE version = 1")
    conn.close()
    with pytest.raises(StorageError, match=r"001_other\.sql"):
        await SqliteStore.open(path)


async def test_migration_006_reads_yo_as_ye_in_the_names_stored_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database written before 006 kept "ё" in its lookup keys (``name_key`` only
    case-folded): after 006 a stored "Алёна" (or "ЁЖИК") is found typed with "е", as a player
    stored by the new code is; other names keep their keys."""
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    c = await store.community("telegram", "-100")
    alena = await store.player(c.id, "1", "Алёна")
    ezhik = await store.player(c.id, "2", "ЁЖИК Семёнов")
    bob = await store.player(c.id, "3", "Bob")
    await store.close()
    conn = _raw(path)  # the keys as the code before 006 wrote them
    try:
        for pid, name in ((alena.id, alena.name), (ezhik.id, ezhik.name), (bob.id, bob.name)):
            conn.execute("UPDATE players SET name_key = ? WHERE id = ?", (name.casefold(), pid))
        conn.execute("DELETE FROM schema_version WHERE version >= 6")
    finally:
        conn.close()
    monkeypatch.setattr(sqlite_module, "migrations", lambda: migrations()[:5])
    old = await SqliteStore.open(path)  # at version 5: "е" does not find "ё"
    assert await old.find_player(c.id, "Алена") is None
    await old.close()
    drop_later_columns(path)  # (007 adds them again)
    monkeypatch.undo()
    store = await SqliteStore.open(path)
    try:
        assert [v for v, _, _ in await store.schema_versions()] == [m.version for m in migrations()]
        assert await store.find_player(c.id, "Алена") == alena
        assert await store.find_player(c.id, "алёна") == alena
        assert await store.find_player(c.id, "ежик семенов") == ezhik
        assert await store.find_player(c.id, "BOB") == bob
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        keys = [r[0] for r in raw.execute("SELECT name_key FROM players ORDER BY id")]
    raw.close()
    assert keys == ["алена", "ежик семенов", "bob"]
