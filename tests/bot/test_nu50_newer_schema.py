"""An operator who rolled the code back after an upgrade (nu50): the start refused the newer
database in one line, but ended it with "check DATABASE_PATH in .env", sending them to a
setting that was right. The line now says what to do: run the code that upgraded it, or
restore the backup taken before the upgrade (docs/operations.md, Upgrades)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.app import open_store
from bot.config import ConfigError, Settings
from storage.sqlite import SqliteStore


async def test_a_database_newer_than_the_code_says_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "ofc.sqlite3"
    store = await SqliteStore.open(db)
    await store.close()
    with sqlite3.connect(db) as conn:  # (a migration this code does not have)
        conn.execute(
            "INSERT INTO schema_version(version, name, applied_at) VALUES (999, '999_x.sql', 0)"
        )
    settings = Settings(database_path=str(db), _env_file=None)  # type: ignore[call-arg]
    with pytest.raises(ConfigError) as caught:
        await open_store(settings)
    known = len(list((Path(__file__).parents[2] / "storage" / "migrations").glob("*.sql")))
    assert str(caught.value) == (
        f"cannot open the SQLite database {db} (the database has schema version 999, newer "
        f"than this code ({known})): run the code that upgraded it, or restore the backup "
        "taken before the upgrade"
    )
