"""An upgrade's migrations are logged (opsnu43): an operator following docs/operations.md's
*Upgrades* ("the start applies the new migrations") saw nothing of them in the log, and a long
migration looked like a start that hangs. A new database and a current one log nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import storage.sqlite as sqlite_module
from storage._common import log_upgrade
from storage.sqlite import Migration, SqliteStore, migrations


def _upgrades(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "storage._common" and r.getMessage().startswith("database upgraded")
    ]


async def test_an_upgrade_logs_the_migrations_it_applied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    path = tmp_path / "ofc.sqlite3"
    await (await SqliteStore.open(path)).close()  # a new database: every migration, no line
    assert _upgrades(caplog) == []
    known = migrations()
    extra = [
        Migration(len(known) + i, f"{len(known) + i:03d}_x{i}.sql", f"CREATE TABLE x{i} (id INT);")
        for i in (1, 2)
    ]
    monkeypatch.setattr(sqlite_module, "migrations", lambda: [*known, *extra])
    await (await SqliteStore.open(path)).close()  # the upgrade
    await (await SqliteStore.open(path)).close()  # current: nothing again
    n = len(known)
    assert _upgrades(caplog) == [
        f"database upgraded to schema version {n + 2}: applied {n + 1:03d}_x1.sql, "
        f"{n + 2:03d}_x2.sql"
    ]


def test_a_start_that_applied_some_of_the_migrations_names_the_version_reached(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """(opsnu44) Two workers started together on a new PostgreSQL database share its
    migrations, each under the migration lock in turn: the one that applied only 009 logged
    "database upgraded to schema version 9" while the other applied 010 after it; the line
    names the version the database has once the start's migrations ran, the code's newest."""
    caplog.set_level(logging.INFO)
    known = migrations()
    log_upgrade([9], known)
    assert _upgrades(caplog) == [
        f"database upgraded to schema version {known[-1].version}: applied 009_chat_moves.sql"
    ]
