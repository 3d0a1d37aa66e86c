"""The stores' ``open`` (the bot's start) asks whether the ledger's append-only triggers are
there, and warns when they are not (ops42). When that question itself failed (the query
refused, a connection lost, a bug) the open failed, and the bot's start with it, over what is
only advice. Now it is one warning naming the error's type alone, never its text (an error's
text may hold data), and the open goes on (ops43)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import storage.postgres
import storage.sqlite
from storage.check import check_store
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore
from tests.pg import fresh_database
from tests.storage.helpers import seated
from tests.storage.test_fix41c_append_only import _database

#: what the failing query's error says: data that must not reach the log
SECRET = "row 7: hidden card A♠ of player 'Алёна'"


def _line(kind: str) -> str:
    return (
        f"cannot tell whether the ledger is append-only: reading its triggers failed ({kind}); "
        "going on: python -m storage check reports missing ones"
    )


def _storage_records(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name.startswith("storage")]


def _telling(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The records of ours, or of anyone's at WARNING and above, that show the error's text
    (aiosqlite's own DEBUG lines show it: not ours to word, and off unless LOG_LEVEL=DEBUG)."""
    return [
        r.getMessage()
        for r in caplog.records
        if (r.name.startswith("storage") or r.levelno >= logging.WARNING)
        and ("Алёна" in r.getMessage() or "A♠" in r.getMessage() or r.exc_info)
    ]


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (sqlite3.OperationalError(SECRET), "OperationalError"),  # (under a StorageError)
        (sqlite3.DatabaseError(SECRET), "DatabaseError"),
        (RuntimeError(SECRET), "RuntimeError"),  # (a bug's, unmapped)
    ],
)
async def test_sqlite_a_failed_trigger_query_is_a_warning_and_the_open_goes_on(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
    kind: str,
) -> None:
    path = tmp_path / "ofc.db"
    await _database(path)

    def failing(conn: Any) -> list[Any]:
        raise error

    monkeypatch.setattr(storage.sqlite, "_triggers", failing)
    with caplog.at_level(logging.DEBUG):
        store = await SqliteStore.open(path)
    monkeypatch.undo()  # (the query fails at the open only: check_store reads it too)
    try:
        assert _storage_records(caplog) == [(logging.WARNING, _line(kind))]
        assert not _telling(caplog)
        # a working store: it reads and writes, and its ledger adds up
        s = await seated(store, chat="chat-2")
        await store.buy_in(s.table.id, s.ids[1], 200, key="b2")
        assert await check_store(store) == []
    finally:
        await store.close()


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


async def test_postgres_a_failed_trigger_query_is_a_warning_and_the_open_goes_on(
    pg_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def failing(conn: Any) -> list[Any]:
        raise asyncpg.exceptions.InsufficientPrivilegeError(SECRET)

    monkeypatch.setattr(storage.postgres, "_triggers", failing)
    with caplog.at_level(logging.DEBUG):
        store = await PostgresStore.open(pg_url)
    monkeypatch.undo()
    try:
        assert _storage_records(caplog) == [(logging.WARNING, _line("InsufficientPrivilegeError"))]
        assert not _telling(caplog)
        s = await seated(store)
        await store.buy_in(s.table.id, s.ids[0], 300, key="b")
        assert await check_store(store) == []
    finally:
        await store.close()
