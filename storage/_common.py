"""Helpers shared by :mod:`storage.sqlite`, :mod:`storage.postgres` and :mod:`storage.memory`,
so all stores validate arguments, derive ledger keys, encode JSON and read migration files the
same way (private to the package)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import date
from importlib import resources
from typing import Any, NamedTuple

from storage.api import HandRecord, LedgerEntry, LedgerKind, StorageError

MINTING_KINDS = frozenset({LedgerKind.STARTING, LedgerKind.ADMIN_GRANT, LedgerKind.DAILY_BONUS})
"""Kinds that create kush (the only rows allowed to change a community's total)."""

CASH_OUT_KINDS = frozenset({LedgerKind.CASH_OUT, LedgerKind.REFUND})
"""Kinds :meth:`Store.cash_out` accepts."""

SETTLE_OPERATION = "settle_hand"
"""Operation kind recorded for :meth:`Store.settle_hand` keys (its rows are ``hand_result``)."""

TRANSITION_OPERATION = "transition"
"""Operation kind recorded for :meth:`Store.commit` keys."""

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


class Migration(NamedTuple):
    """A numbered migration file."""

    version: int
    """Its number (``001_init.sql`` → 1)."""
    name: str
    """Its file name."""
    sql: str
    """Its SQL text."""


def read_migrations(*folder: str) -> list[Migration]:
    """The migration files ``NNN_name.sql`` of the package folder ``storage/<folder…>`` in
    order (``read_migrations("migrations")`` for SQLite, ``("migrations", "postgres")`` for
    PostgreSQL: the same numbers and names for both).

    :raises StorageError: if a ``.sql`` file is misnamed or the numbers are not 1, 2, 3, …
    """
    found: list[Migration] = []
    for entry in resources.files("storage").joinpath(*folder).iterdir():
        if not entry.name.endswith(".sql"):
            continue
        m = _MIGRATION_NAME.match(entry.name)
        if m is None:
            raise StorageError(f"migration file {entry.name!r} is not named NNN_name.sql")
        found.append(Migration(int(m.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort()
    numbers = [m.version for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StorageError(f"migrations must be numbered 1, 2, 3, … without gaps: {numbers}")
    return found


def _default(value: object) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON-serialisable")


def dump_json(value: Any, what: str) -> str:
    """Compact JSON text of ``value`` (any :class:`Mapping` is written as an object, tuples
    as arrays).

    :raises StorageError: if ``value`` is not JSON-serialisable (e.g. NaN or an object).
    """
    try:
        return json.dumps(
            value, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_default
        )
    except (TypeError, ValueError) as e:
        raise StorageError(f"{what} is not JSON: {e}") from e


def load_json(text: str) -> Any:
    """Inverse of :func:`dump_json`."""
    return json.loads(text)


def name_key(name: str) -> str:
    """The lookup form of a display name or query: trimmed, one leading ``@`` dropped,
    case-folded (``"@Alice "`` → ``"alice"``)."""
    name = name.strip()
    if name.startswith("@"):
        name = name[1:]
    return name.casefold()


def require_int(value: object, what: str, *, minimum: int | None = None) -> int:
    """``value`` as an int (bools refused). :raises StorageError: if not an int or below
    ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise StorageError(f"{what} must be a whole number of kush, got {value!r}")
    if minimum is not None and value < minimum:
        raise StorageError(f"{what} must be at least {minimum}, got {value}")
    return value


def require_key(key: object) -> str:
    """A non-empty idempotency key. :raises StorageError: otherwise."""
    if not isinstance(key, str) or not key:
        raise StorageError(f"an idempotency key must be a non-empty string, got {key!r}")
    return key


def require_day(day: object) -> str:
    """A ``YYYY-MM-DD`` calendar day. :raises StorageError: otherwise."""
    if not isinstance(day, str) or not _DAY.match(day):
        raise StorageError(f"day must be YYYY-MM-DD, got {day!r}")
    try:
        date.fromisoformat(day)
    except ValueError as e:
        raise StorageError(f"day must be YYYY-MM-DD, got {day!r}") from e
    return day


def check_settlement(
    players: Mapping[int, int], deltas: Mapping[int, int], number: int
) -> tuple[dict[int, int], dict[int, int]]:
    """Validate a settlement's arguments: ``(players, deltas)`` as plain int dicts.

    :raises StorageError: on non-int values, a player seated twice, or deltas not summing to 0.
    """
    require_int(number, "hand number", minimum=0)
    seats = {require_int(s, "seat"): require_int(p, "player id") for s, p in players.items()}
    if len(set(seats.values())) != len(seats):
        raise StorageError("a player is seated twice in one hand")
    moves = {require_int(p, "player id"): require_int(d, "delta") for p, d in deltas.items()}
    total = sum(moves.values())
    if total != 0:
        raise StorageError(f"hand result deltas must sum to zero, got {total:+d}")
    return seats, moves


def starting_key(player_id: int) -> str:
    """Ledger key of a player's ``starting`` row."""
    return f"starting/{player_id}"


def daily_key(player_id: int, day: str) -> str:
    """Ledger key of a player's ``daily_bonus`` row for ``day``."""
    return f"daily/{player_id}/{day}"


def hand_row_key(key: str, player_id: int) -> str:
    """Ledger key of one ``hand_result`` row of the settlement ``key`` (one row per player)."""
    return f"{key}/{player_id}"


def hand_export(record: HandRecord) -> dict[str, Any]:
    """A :class:`HandRecord` as a JSON-ready dict (seat keys as strings)."""
    return {
        "id": record.id,
        "table_id": record.table_id,
        "number": record.number,
        "hand": dict(record.hand),
        "result": dict(record.result),
        "players": {str(seat): pid for seat, pid in record.players.items()},
        "finished_at": record.finished_at,
    }


def seats_from_json(data: Mapping[str, Any]) -> dict[int, int]:
    """Seat → player id from its JSON form (string keys)."""
    return {int(seat): int(pid) for seat, pid in data.items()}


LEDGER_COLUMNS = (
    "id, community_id, kind, player_id, table_id, hand_id, balance_delta, stack_delta, "
    "actor, reason, key, created_at"
)
"""The ``ledger`` columns in :class:`LedgerEntry` field order."""


def ledger_entry(row: Sequence[Any]) -> LedgerEntry:
    """A :class:`LedgerEntry` from a row of :data:`LEDGER_COLUMNS`."""
    return LedgerEntry(
        int(row[0]),
        int(row[1]),
        LedgerKind(row[2]),
        int(row[3]),
        None if row[4] is None else int(row[4]),
        None if row[5] is None else int(row[5]),
        int(row[6]),
        int(row[7]),
        row[8],
        row[9],
        str(row[10]),
        float(row[11]),
    )
