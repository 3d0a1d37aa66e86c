"""A ledger whose append-only triggers were dropped (by hand, a restore without them) was
said only by ``python -m storage check``: the running store's :func:`check_store` (its
``audit_data``) read no trigger, and the bot started on it without a word. The stores'
``audit_data`` now read them, so :func:`check_store` reports it, and the stores' ``open``
(the bot's start) logs it as a warning; the start goes on (ops42)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from storage.check import check_store, unguarded_ledger
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore
from tests.pg import fresh_database
from tests.storage.test_fix41c_append_only import SQLITE_LINE, _database, _sql


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and r.name.startswith("storage")
    ]


async def test_sqlite_a_healthy_ledger_says_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "ofc.db"
    await _database(path)
    with caplog.at_level(logging.WARNING):
        store = await SqliteStore.open(path)
    try:
        assert _warnings(caplog) == []
        assert await check_store(store) == []
    finally:
        await store.close()


async def test_sqlite_dropped_triggers_are_warned_of_at_the_open_and_checked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "ofc.db"
    await _database(path)
    _sql(path, "DROP TRIGGER ledger_no_update; DROP TRIGGER ledger_no_delete;")
    with caplog.at_level(logging.WARNING):
        store = await SqliteStore.open(path)  # (not refused)
    try:
        assert _warnings(caplog) == [SQLITE_LINE]
        assert await check_store(store) == [SQLITE_LINE]
    finally:
        await store.close()


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


async def test_postgres_dropped_and_disabled_triggers_are_warned_of_and_checked(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = await PostgresStore.open(pg_url)
    try:
        assert await check_store(store) == []
    finally:
        await store.close()
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("DROP TRIGGER ledger_no_delete ON ledger")
        await conn.execute("ALTER TABLE ledger DISABLE TRIGGER ledger_no_truncate")
    finally:
        await conn.close()
    line = unguarded_ledger(("ledger_no_delete", "ledger_no_truncate"), "postgres")
    assert line.startswith("the ledger is not append-only: triggers ledger_no_delete, ")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        store = await PostgresStore.open(pg_url)
    try:
        assert _warnings(caplog) == [line]
        assert await check_store(store) == [line]
    finally:
        await store.close()
