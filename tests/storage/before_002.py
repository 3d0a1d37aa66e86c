"""A SQLite file taken back to schema 001, as a database written before the statistics
(migration 002) was: the per-player columns and their index dropped, what 003 made dropped,
the results' own scoops removed. Shared by the migration-002 test and ``bench_stats.py``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

STATS_COLUMNS = (
    "community_id", "finished_at", "kind", "kush", "boards", "points", "fouls", "royalties",
    "scoops", "fl_chances", "fl_entered", "fl_played", "fl_stayed",
)  # fmt: skip
"""The columns migration 002 adds to ``hand_players``."""

LATER_COLUMNS = ("bonuses", "bonus_boards")
"""The columns later migrations add to ``hand_players`` (007: Chinese Poker's bonuses)."""


def back_to_001(path: Path) -> None:
    """Undo migrations 002 to 004 (and 007's columns) of the SQLite file at ``path`` (closed
    by its store).

    :raises KeyError: if a stored result has no ``scoops`` of its own (it was not written by
        the code of 002).
    """
    with sqlite3.connect(path) as conn:
        conn.execute("DROP INDEX hand_players_by_community")
        for column in STATS_COLUMNS + LATER_COLUMNS:
            conn.execute(f"ALTER TABLE hand_players DROP COLUMN {column}")
        conn.execute("DELETE FROM schema_version WHERE version >= 2")
        for table in ("leases", "workers", "alive"):  # 003 and 004: the database is back at 001
            conn.execute(f"DROP TABLE {table}")
        for hid, text in conn.execute("SELECT id, result FROM hands").fetchall():
            result = json.loads(text)  # results stored before 002 had no scoops of their own
            for seat in result.get("seats", []):
                del seat["scoops"]
            conn.execute("UPDATE hands SET result = ? WHERE id = ?", (json.dumps(result), hid))
    conn.close()


def drop_later_columns(path: Path) -> None:
    """Drop the columns of :data:`LATER_COLUMNS` of the SQLite file at ``path`` (closed by its
    store), so that a test taking it back before 007 can apply 007 again."""
    with sqlite3.connect(path) as conn:
        for column in LATER_COLUMNS:
            conn.execute(f"ALTER TABLE hand_players DROP COLUMN {column}")
    conn.close()
