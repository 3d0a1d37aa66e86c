"""The consistency check (issue 3): ``python -m storage check --db PATH`` recomputes balances and
stacks from the ledger and exits non-zero on any difference; it must really find them."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage.__main__ import main
from storage.api import LedgerEntry, LedgerKind
from storage.check import AuditData, AuditReport, CommunityTotals, audit, check_database
from storage.sqlite import SqliteStore
from tests.storage.helpers import seated


async def _healthy_file(path: Path) -> tuple[int, list[int]]:
    store = await SqliteStore.open(path)
    try:
        s = await seated(store)
        a, b, c = s.ids
        for p in s.ids:
            await store.buy_in(s.table.id, p, 300, key=f"b{p}")
        await store.settle_hand(
            s.table.id, 1, {}, {}, {0: a, 1: b, 2: c}, {a: 40, b: -25, c: -15}, key="h1"
        )
        await store.cash_out(s.table.id, c, key="c1")
        await store.grant(s.community.id, a, 77, actor="admin", reason="", key="g1")
        await store.claim_daily(s.community.id, b, 100, "2025-01-01")
        return s.table.id, s.ids
    finally:
        await store.close()


def _tamper(path: Path, sql: str, *args: object) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(sql, args)
    finally:
        conn.close()


async def test_check_finds_nothing_in_a_healthy_database(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    await _healthy_file(path)
    assert await check_database(path) == []


async def test_check_finds_a_balance_changed_behind_the_ledgers_back(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    _, (a, _, _) = await _healthy_file(path)
    _tamper(path, "UPDATE players SET balance = balance + 5 WHERE id = ?", a)
    problems = await check_database(path)
    assert any(f"player {a}: balance" in p for p in problems)
    assert any("but 3177 kush were minted" in p for p in problems)


async def test_check_finds_a_stack_changed_behind_the_ledgers_back(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    table, (a, _, _) = await _healthy_file(path)
    _tamper(path, "UPDATE table_stacks SET stack = stack - 1 WHERE player_id = ?", a)
    problems = await check_database(path)
    assert any(
        f"stack of player {a} at table {table}: 339, the ledger says 340" in p for p in problems
    )


async def test_check_finds_an_unbalanced_hand(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    table, (a, _, _) = await _healthy_file(path)
    _tamper(
        path,
        "INSERT INTO ledger (community_id, kind, player_id, table_id, hand_id, balance_delta,"
        " stack_delta, key, created_at) VALUES (1, 'hand_result', ?, ?, 1, 0, 9, 'rogue', 0)",
        a,
        table,
    )
    problems = await check_database(path)
    assert any("hand 1: hand_result rows sum to +9" in p for p in problems)


def _entry(i: int, kind: LedgerKind, balance: int, stack: int, **kw: int | None) -> LedgerEntry:
    return LedgerEntry(
        i,
        1,
        kind,
        kw.get("player", 1) or 1,
        kw.get("table"),
        kw.get("hand"),
        balance,
        stack,
        None,
        None,
        f"k{i}",
        0.0,
    )


def test_audit_flags_rows_that_are_not_balanced_by_themselves() -> None:
    data = AuditData(
        {1: "tg:1"},
        {1: (1, 900)},
        {1: (1, True)},
        {(1, 1): 150},
        {},
        [
            _entry(1, LedgerKind.STARTING, 1000, 0),
            _entry(2, LedgerKind.BUY_IN, -100, 150, table=1),  # 50 kush from nowhere
        ],
    )
    problems = audit(data).problems
    assert any("ledger row 2 (buy_in" in p and "unbalanced" in p for p in problems)
    assert any("balances 900 + stacks 150 = 1050, but 1000 kush were minted" in p for p in problems)


def test_audit_flags_negative_running_balances_and_kush_left_on_closed_tables() -> None:
    data = AuditData(
        {1: "tg:1"},
        {1: (1, 0)},
        {1: (1, False)},
        {(1, 1): 100},
        {},
        [
            _entry(1, LedgerKind.BUY_IN, -100, 100, table=1),  # before any kush was minted
            _entry(2, LedgerKind.STARTING, 100, 0),
        ],
    )
    problems = audit(data).problems
    assert any("ledger row 1" in p and "goes negative" in p for p in problems)
    assert any("closed table 1 still holds 100" in p for p in problems)


def test_audit_of_consistent_data_reports_totals() -> None:
    data = AuditData(
        {1: "tg:1"},
        {1: (1, 900)},
        {1: (1, True)},
        {(1, 1): 100},
        {},
        [
            _entry(1, LedgerKind.STARTING, 1000, 0),
            _entry(2, LedgerKind.BUY_IN, -100, 100, table=1),
        ],
    )
    report = audit(data)
    assert report.problems == []
    [totals] = report.communities
    assert (totals.minted, totals.balances, totals.stacks) == (1000, 900, 100)
    assert "OK" in report.render()


def test_the_report_counts_in_the_singular_for_one_and_the_plural_otherwise() -> None:
    """``python -m storage check`` said "1 communities, 1 tables, 1 hands": each count now
    reads "1 community", "2 communities", "0 tables", "1 problem", "2 problems"."""
    one = CommunityTotals(1, "tg:1", 1, 10, 10, 0)
    report = AuditReport(["x"], [one], ledger_rows=1, hands=1, tables=1)
    assert report.render().splitlines()[0] == "1 community, 1 player, 1 table, 1 hand, 1 ledger row"
    assert "\n1 problem:\n" in report.render()
    two = AuditReport(["x", "y"], [one, one], ledger_rows=2, hands=0, tables=0)
    first = two.render().splitlines()[0]
    assert first == "2 communities, 2 players, 0 tables, 0 hands, 2 ledger rows"
    assert "\n2 problems:\n" in two.render()


def test_command_exits_zero_when_consistent_and_one_on_a_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ofc.db"
    _, (a, _, _) = asyncio.run(_healthy_file(path))
    assert main(["check", "--db", str(path)]) == 0
    assert "OK" in capsys.readouterr().out
    _tamper(path, "UPDATE players SET balance = balance + 1 WHERE id = ?", a)
    assert main(["check", "--db", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"player {a}: balance" in out and "MISMATCH" in out
    assert main(["check", "--db", str(tmp_path / "missing.db")]) == 2


def test_python_dash_m_storage_check_runs_as_a_command(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    asyncio.run(_healthy_file(path))
    done = subprocess.run(
        [sys.executable, "-m", "storage", "check", "--db", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 community, 3 players, 1 table, 1 hand, " in done.stdout


async def _healthy_postgres(url: str) -> list[int]:
    from storage.postgres import PostgresStore

    store = await PostgresStore.open(url)
    try:
        s = await seated(store)
        a, b, c = s.ids
        for p in s.ids:
            await store.buy_in(s.table.id, p, 300, key=f"b{p}")
        await store.settle_hand(
            s.table.id, 1, {}, {}, {0: a, 1: b, 2: c}, {a: 40, b: -25, c: -15}, key="h1"
        )
        await store.cash_out(s.table.id, c, key="c1")
        return s.ids
    finally:
        await store.close()


async def test_check_of_a_postgresql_database_by_url(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 14: ``python -m storage check --db postgresql://…`` audits a PostgreSQL database
    as it does a SQLite file: 0 when consistent, 1 on a balance changed behind the ledger's
    back, 2 when the server cannot be reached."""
    import asyncpg

    from tests.pg import fresh_database

    async with fresh_database() as url:
        a, _, _ = await _healthy_postgres(url)
        assert await check_database(url) == []
        assert await asyncio.to_thread(main, ["check", "--db", url]) == 0
        assert "1 community, 3 players, 1 table, 1 hand, " in capsys.readouterr().out
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("UPDATE players SET balance = balance + 1 WHERE id = $1", a)
        finally:
            await conn.close()
        assert await asyncio.to_thread(main, ["check", "--db", url]) == 1
        out = capsys.readouterr().out
        assert f"player {a}: balance" in out and "MISMATCH" in out
        done = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "storage", "check", "--db", url,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        stdout, _ = await asyncio.wait_for(done.communicate(), 60)
        assert done.returncode == 1 and f"player {a}: balance" in stdout.decode()
    nowhere = "postgresql://ofc:hidden-pass@/ofc?host=/nonexistent-ofc-dir"
    # (no server at that socket: out of reach, exit status 75 since fixsess38)
    assert await asyncio.to_thread(main, ["check", "--db", nowhere]) == 75
    err = capsys.readouterr().err
    assert "cannot connect to PostgreSQL" in err and "hidden-pass" not in err
