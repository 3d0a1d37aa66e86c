"""``python -m storage check`` said nothing of a ledger whose append-only triggers were gone
(dropped by hand, a restore without them): UPDATE and DELETE of ledger rows were taken
silently, and the check, reading balances against that very ledger, said "OK" (fix41c). Now
a missing trigger is a problem (exit status 1) with one line telling what it means and what to
do: a start of the bot does not make them again (migration 001 is applied once)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from storage.__main__ import main
from storage.check import check_database
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore
from tests.pg import fresh_database
from tests.storage.helpers import seated

ROOT = Path(__file__).resolve().parents[2]

SQLITE_LINE = (
    "the ledger is not append-only: triggers ledger_no_update, ledger_no_delete missing, so "
    "its rows can be changed or deleted unnoticed; starting the bot does not make them again: "
    "stop the bot and run the CREATE TRIGGER statements of storage/migrations/001_init.sql "
    "with sqlite3"
)


async def _database(path: Path) -> None:
    store = await SqliteStore.open(path)
    try:
        s = await seated(store)
        await store.buy_in(s.table.id, s.ids[0], 300, key="b")
    finally:
        await store.close()


def _sql(path: Path, script: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.executescript(script)
    finally:
        conn.close()


async def test_a_healthy_database_has_no_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ofc.db"
    await _database(path)
    assert await asyncio.to_thread(main, ["check", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "OK: every balance and stack matches the ledger"
    assert "append-only" not in out


async def test_dropped_triggers_are_a_problem_and_the_advice_mends_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ofc.db"
    await _database(path)
    _sql(path, "DROP TRIGGER ledger_no_update; DROP TRIGGER ledger_no_delete;")
    assert await check_database(path) == [SQLITE_LINE]
    assert await asyncio.to_thread(main, ["check", "--db", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["1 problem:", f"  - {SQLITE_LINE}"]

    # a start of the bot does not make them again (as the line says) …
    store = await SqliteStore.open(path)
    await store.close()
    assert await check_database(path) == [SQLITE_LINE]
    # … the migration's CREATE TRIGGER statements do
    migration = (ROOT / "storage/migrations/001_init.sql").read_text()
    triggers = re.findall(r"CREATE TRIGGER .*?END;", migration, re.S)
    assert len(triggers) == 2
    _sql(path, "\n".join(triggers))
    assert await check_database(path) == []


async def test_one_dropped_trigger_is_named_alone(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    await _database(path)
    _sql(path, "DROP TRIGGER ledger_no_delete;")
    [line] = await check_database(path)
    assert line.startswith(
        "the ledger is not append-only: trigger ledger_no_delete missing, so its rows"
    ), line


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


async def test_postgres_dropped_and_disabled_triggers_are_a_problem(
    pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = await PostgresStore.open(pg_url)
    try:
        s = await seated(store)
        await store.buy_in(s.table.id, s.ids[0], 300, key="b")
    finally:
        await store.close()
    assert await asyncio.to_thread(main, ["check", "--db", pg_url]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("OK: ")

    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("DROP TRIGGER ledger_no_delete ON ledger")
        await conn.execute("ALTER TABLE ledger DISABLE TRIGGER ledger_no_truncate")
    finally:
        await conn.close()
    line = (
        "the ledger is not append-only: triggers ledger_no_delete, ledger_no_truncate missing "
        "or disabled, so its rows can be changed or deleted unnoticed; starting the bot does "
        "not make them again: with psql, ALTER TABLE ledger ENABLE TRIGGER a disabled one and "
        "run the CREATE TRIGGER statements of a missing one (and CREATE FUNCTION "
        "ledger_append_only, if it is gone too) of storage/migrations/postgres/001_init.sql"
    )
    assert await asyncio.to_thread(main, ["check", "--db", pg_url]) == 1
    assert capsys.readouterr().out.splitlines()[-2:] == ["1 problem:", f"  - {line}"]
