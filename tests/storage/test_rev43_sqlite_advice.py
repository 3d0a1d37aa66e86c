"""rev43: one table of what to do about an SQLite error (storage.check.SQLITE_ADVICE) for the
check and backup commands and the bot's start (bot.app): the start's had a full disk and a
read-only file, the commands' had only a locked and a damaged file, so a backup onto a full
disk said "database or disk is full" and nothing of what to do."""

from __future__ import annotations

import sqlite3

import pytest

from bot.app import _advice
from storage.api import StorageError
from storage.check import SQLITE_ADVICE, sqlite_advice, with_sqlite_advice


@pytest.mark.parametrize(
    ("said", "command", "start"),
    [
        (
            "database is locked",
            "another program holds it (a sqlite3 shell, a copy, a backup tool): end it, then "
            "try again",
            "another program holds it (a sqlite3 shell, a copy, a backup tool): end it, then "
            "start the bot again",
        ),
        (
            "database or disk is full",
            "free space on its disk, then try again",
            "free space on its disk, then start the bot again",
        ),
        (
            "database disk image is malformed",
            "the file is damaged: stop the bot and restore the last backup (docs/operations.md)",
            "the file is damaged: restore the last backup (docs/operations.md)",
        ),
        (
            "attempt to write a readonly database",
            "make the file and its folder writable, then try again",
            "make the file and its folder writable by the bot's user, then start the bot again",
        ),
    ],
)
def test_the_commands_and_the_start_give_the_same_advice_in_their_words(
    said: str, command: str, start: str
) -> None:
    e = sqlite3.OperationalError(said)
    assert with_sqlite_advice(e) == f"{said}: {command}"
    assert _advice(StorageError(f"SQLite error: {said}"), "check DATABASE_PATH in .env") == start


def test_every_entry_of_the_table_is_known_to_both_and_others_get_none() -> None:
    assert len(SQLITE_ADVICE) == 4
    for said, _ in SQLITE_ADVICE:
        assert sqlite_advice(sqlite3.OperationalError(said))
        assert sqlite_advice(sqlite3.OperationalError(said), start=True)
    other = sqlite3.OperationalError("no such column: x")
    assert sqlite_advice(other) == ""
    assert with_sqlite_advice(other) == "no such column: x"
    assert _advice(StorageError("SQLite error: no such column: x"), "check it") == "check it"
