"""Helpers shared by :mod:`storage.sqlite`, :mod:`storage.postgres` and :mod:`storage.memory`,
so all stores validate arguments, derive ledger keys, encode JSON and read migration files the
same way (private to the package)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from importlib import resources
from typing import Any, NamedTuple

from game.errors import GameError
from game.history import HAND_KINDS, SeatStats, seat_stats, settlement_kind
from storage.api import (
    HandRecord,
    HandStats,
    LedgerEntry,
    LedgerKind,
    StaleStep,
    StorageError,
    fold_name,
)

#: The kind of a tournament's payout entry (:data:`game.history.SETTLEMENT_KINDS`, R8.7): no
#: hand's winnings, counted apart in :class:`HandStats`.
TOURNAMENT_END = "tournament_end"
#: The kind of a tournament's hand (R8.7): chips moved, no kush; counted apart from the
#: ordinary (cash) hands in :class:`HandStats`.
TOURNAMENT_HAND = "tournament_hand"

log = logging.getLogger(__name__)

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


def log_upgrade(applied: Sequence[int], known: Sequence[Migration]) -> None:
    """Log at INFO the migrations a start applied to a database that had a schema already
    (an upgrade: "database upgraded to schema version 10: applied 009_chat_moves.sql,
    010_last_tables.sql"); an operator upgrading saw nothing of it, a long migration (002
    over many hands: seconds) a start that seemed to hang. A new database (version 1 among
    ``applied``) and a database already current log nothing. The version named is the
    code's newest, which the database has once the migrations ran: two workers starting
    together share the migrations (each its own transaction under the migration lock), and
    one that applied 009 while the other applied 010 logged "schema version 9" of a database
    at 10.

    :param applied: the versions applied now, in order (``_migrate``'s result).
    :param known: the code's migrations (``migrations()``), for their file names."""
    if not applied or 1 in applied:
        return
    names = {m.version: m.name for m in known}
    log.info(
        "database upgraded to schema version %d: applied %s",
        max(m.version for m in known),  # (not applied[-1]: the docstring says why)
        ", ".join(names.get(v, str(v)) for v in applied),
    )


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


def snapshot_seq(value: object) -> int:
    """The transition number (``"seq"``) of a snapshot, from its mapping or a stored JSON
    field's value; 0 when it has none or not a number (tests' bare snapshots)."""
    if isinstance(value, Mapping):
        value = value.get("seq")
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value)
    return 0


def commit_seq(snapshot: Mapping[str, Any] | None, close: bool) -> int | None:
    """The ``"seq"`` a commit's snapshot must be higher than the stored one's
    (:meth:`storage.api.Store.commit`), or ``None`` when nothing is compared: no snapshot,
    one without ``"seq"`` (tests' bare snapshots), a closing commit's final one without a
    ``"step_token"`` (not a table step's: a refund's notice-only table,
    :func:`bot.service.recovery.cancel_unrecoverable`). A table step's final snapshot is
    compared as a live one is: a closing step of a number storage holds another step of
    closed the table from a state storage never had."""
    if snapshot is None or "seq" not in snapshot:
        return None
    if close and snapshot.get("step_token") is None:
        return None
    return snapshot_seq(snapshot)


def check_newer(table_id: int, seq: int | None, stored: object) -> None:
    """Compare-and-set of a commit's live snapshot (``seq``: :func:`commit_seq`) against the
    stored one's ``"seq"`` (``stored``: its mapping or JSON field's value; ``None``: none).

    :raises StaleStep: the stored one's is as high or higher."""
    if seq is None or stored is None:
        return
    at = snapshot_seq(stored)
    if at >= seq:
        raise StaleStep(f"table {table_id} has step {at} stored; step {seq} is not newer")


def username_key(username: str) -> str:
    """The stored key of a platform @username (:func:`name_key`).

    :raises StorageError: if nothing is left of it (``""``, ``"@"``)."""
    key = name_key(username)
    if not key:
        raise StorageError("an empty username")
    return key


def name_key(name: str) -> str:
    """The lookup form of a display name or query: trimmed, one leading ``@`` dropped,
    case-folded, ``ё`` read as ``е`` (``"@Alice "`` → ``"alice"``, ``"Алёна"`` → ``"алена"``:
    most Russians type ``е`` for ``ё``, so ``/stats Алена`` finds "Алёна"; migration 006
    rewrote the keys stored before)."""
    name = name.strip()
    if name.startswith("@"):
        name = name[1:]
    return fold_name(name)


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


class StatRow(NamedTuple):
    """The per-player figures of one history entry, as columns of ``hand_players``
    (migration 002): ``kind`` (:data:`game.history.SETTLEMENT_KINDS`), ``kush`` (the entry's
    kush for the player) and the :class:`~game.history.SeatStats` fields."""

    player_id: int
    seat: int
    kind: str
    kush: int
    boards: int
    points: int
    fouls: int
    royalties: int
    scoops: int
    fl_chances: int
    fl_entered: int
    fl_played: int
    fl_stayed: int
    bonuses: int = 0
    bonus_boards: int = 0


STAT_COLUMNS = (
    "kind, kush, boards, points, fouls, royalties, scoops, fl_chances, fl_entered, fl_played,"
    " fl_stayed, bonuses, bonus_boards"
)
"""The figure columns of ``hand_players`` in :class:`StatRow` order (after player and seat)."""


def stat_rows(
    hand: Mapping[str, Any],
    result: Mapping[str, Any],
    seats: Mapping[int, int],
    deltas: Mapping[int, int],
) -> list[StatRow]:
    """One :class:`StatRow` per seated player of a settlement (seat → player id), with the
    kush of ``deltas`` (player id → kush) and the figures :func:`game.history.seat_stats`
    reads from the stored hand. A result it cannot read (no ``seats``: not a hand the
    service recorded) gives zero figures, never a refused settlement (logged by the error's
    type, never its text: it may name a hidden card, R3.3). A seat with no board in
    a hand it can read was not dealt in (sitting out, R8.6) and only settles the round's
    points (R8.3): its row is a ``round_end`` one, not a hand played."""
    kind = settlement_kind(result)
    figures: dict[int, SeatStats] = {}
    if kind in HAND_KINDS and "seats" in result:
        try:
            figures = seat_stats(hand, result)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            # (its type, and a game error's code: never its text, which may name a card of
            # the hand, another player's hidden one among them, R3.3; as brk77's restore)
            log.warning(
                "no statistics for a hand whose record does not read: %s%s",
                type(exc).__name__,
                f", {exc.code}" if isinstance(exc, GameError) else "",
            )
    zero = SeatStats()
    rows = []
    for seat, pid in seats.items():
        f = figures.get(seat, zero)
        row_kind = "round_end" if figures and seat not in figures else kind
        rows.append(
            StatRow(
                pid, seat, row_kind, int(deltas.get(pid, 0)), f.boards, f.points, f.fouls,
                f.royalties, f.scoops, f.fl_chances, f.fl_entered, f.fl_played, f.fl_stayed,
                f.bonuses, f.bonus_boards,
            )
        )  # fmt: skip
    return rows


def sum_stats(rows: Sequence[tuple[int, int, StatRow]]) -> HandStats:
    """:class:`HandStats` of ``(hand id, player id, row)`` triples, as the SQL aggregates of
    :class:`storage.sqlite.SqliteStore` compute them (the in-memory store's way)."""
    if not rows:
        return HandStats()
    games = [x for x in rows if x[2].kind != TOURNAMENT_END]  # payouts apart (R8.7)
    best = max(games, key=lambda r: (r[2].kush, -r[0], -r[1]), default=None)
    won = best is not None and best[2].kush > 0
    return HandStats(
        hands=len({h for h, _, r in rows if r.kind == "hand"}),
        players=len({p for _, p, _ in rows}),
        boards=sum(r.boards for _, _, r in rows),
        points=sum(r.points for _, _, r in rows),
        kush=sum(r.kush for _, _, r in rows),
        kush_won=sum(max(r.kush, 0) for _, _, r in games),
        fouls=sum(r.fouls for _, _, r in rows),
        royalties=sum(r.royalties for _, _, r in rows),
        scoops=sum(r.scoops for _, _, r in rows),
        fl_chances=sum(r.fl_chances for _, _, r in rows),
        fl_entered=sum(r.fl_entered for _, _, r in rows),
        fl_played=sum(r.fl_played for _, _, r in rows),
        fl_stayed=sum(r.fl_stayed for _, _, r in rows),
        tournaments=len({h for h, _, r in rows if r.kind == TOURNAMENT_END}),
        tournament_kush=sum(r.kush for _, _, r in rows if r.kind == TOURNAMENT_END),
        tournament_hands=len({h for h, _, r in rows if r.kind == TOURNAMENT_HAND}),
        tournament_points=sum(r.points for _, _, r in rows if r.kind == TOURNAMENT_HAND),
        bonuses=sum(r.bonuses for _, _, r in rows),
        bonus_boards=sum(r.bonus_boards for _, _, r in rows),
        chinese_hands=len({h for h, _, r in rows if r.kind == "hand" and r.bonus_boards}),
        chinese_points=sum(r.points for _, _, r in rows if r.kind == "hand" and r.bonus_boards),
        tournament_chinese_hands=len(
            {h for h, _, r in rows if r.kind == TOURNAMENT_HAND and r.bonus_boards}
        ),
        tournament_chinese_points=sum(
            r.points for _, _, r in rows if r.kind == TOURNAMENT_HAND and r.bonus_boards
        ),
        biggest_win=best[2].kush if best is not None and won else 0,
        biggest_winner=best[1] if best is not None and won else None,
    )


# -- the statistics' SQL, shared by SqliteStore and PostgresStore ------------------------------
# Written with PostgreSQL's numbered parameters ($1, $2, … each once, in order); SQLite runs
# the same text through :func:`qmark`. One text per query, so both databases compute the
# same figures (the contract tests compare them with the in-memory store's :func:`sum_stats`).

_PARAM = re.compile(r"\$(\d+)")


#: Where a chat is now (:meth:`storage.api.Store.moved_chat`): the last id of its chain of
#: moves (a few at most; a cycle, which Telegram never makes, ends after 8), no row if it
#: never moved. Parameters: the platform, the chat's id, the platform again.
MOVED_CHAT_SQL = (
    "WITH RECURSIVE chain (id, depth) AS ("
    " SELECT new_id, 1 FROM chat_moves WHERE platform = $1 AND old_id = $2"
    " UNION ALL"
    " SELECT m.new_id, chain.depth + 1 FROM chat_moves m JOIN chain ON m.old_id = chain.id"
    " WHERE m.platform = $3 AND chain.depth < 8)"
    " SELECT id FROM chain ORDER BY depth DESC LIMIT 1"
)

#: The move of a chat kept, in :meth:`storage.api.Store.move_chat`'s transaction (the old id
#: moved again, which Telegram never does: the later move replaces it).
CHAT_MOVE_SQL = (
    "INSERT INTO chat_moves (platform, old_id, new_id) VALUES ($1, $2, $3)"
    " ON CONFLICT (platform, old_id) DO UPDATE SET new_id = excluded.new_id"
)


#: A :class:`~storage.api.Joined` move: the table the platform user joined last (R8.6),
#: replaced. Parameters: the platform, the user id, the table id.
JOINED_SQL = (
    "INSERT INTO last_tables (platform, user_id, table_id) VALUES ($1, $2, $3)"
    " ON CONFLICT (platform, user_id) DO UPDATE SET table_id = excluded.table_id"
)

#: :meth:`~storage.api.Store.last_table`. Parameters: the platform, the user id.
LAST_TABLE_SQL = "SELECT table_id FROM last_tables WHERE platform = $1 AND user_id = $2"


def followed_move(chat_id: str, step: Callable[[str], str | None]) -> str | None:
    """:data:`MOVED_CHAT_SQL` on a map: the last id of ``chat_id``'s chain of moves (``step``:
    where an id moved, ``None`` if nowhere), at most 8 long; ``None`` if it never moved."""
    now: str | None = None
    at = chat_id
    for _ in range(8):
        nxt = step(at)
        if nxt is None:
            break
        now = at = nxt
    return now


def qmark(sql: str) -> str:
    """``sql`` with its numbered parameters ``$1``, ``$2``, … as SQLite's ``?``.

    :raises ValueError: if the parameters are not ``$1``, ``$2``, … each once, in order (a
        ``?`` binds by position).
    """
    numbers = [int(n) for n in _PARAM.findall(sql)]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"parameters must be $1, $2, … in order, got {numbers}")
    return _PARAM.sub("?", sql)


HAND_PLAYERS_INSERT = (
    "INSERT INTO hand_players (player_id, hand_id, seat, community_id, finished_at,"
    f" {STAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
    " $15, $16, $17, $18)"
)
"""One ``hand_players`` row with its figures; parameters from :func:`hand_player_params`."""


def hand_player_params(
    rows: Sequence[StatRow], hand_id: int, community_id: int, finished_at: float
) -> list[tuple[Any, ...]]:
    """The parameters of :data:`HAND_PLAYERS_INSERT` for the rows of one settlement."""
    return [(r.player_id, hand_id, r.seat, community_id, finished_at, *r[2:]) for r in rows]


# migration 002's columns: Chinese Poker's bonuses have columns of their own since 007,
# which moves them out of ``royalties``, where 002 put them
_STAT_NAMES = [c.strip() for c in STAT_COLUMNS.split(",")][:11]
STAT_UPDATE = (
    "UPDATE hand_players SET "
    + ", ".join(f"{c} = ${i}" for i, c in enumerate(_STAT_NAMES, 1))
    + f" WHERE player_id = ${len(_STAT_NAMES) + 1} AND hand_id = ${len(_STAT_NAMES) + 2}"
)
"""The figures of one ``hand_players`` row of an older entry (migration 002's backfill);
parameters from :func:`backfill_params`."""

HAND_RESULT_SUMS = (
    "SELECT hand_id, player_id, SUM(stack_delta) FROM ledger"
    " WHERE kind = 'hand_result' GROUP BY hand_id, player_id"
)
"""Every entry's kush per player, ``(hand id, player id, kush)``: one pass over the ledger
(migration 002's backfill; no index serves a lookup by hand id)."""


def backfill_params(
    hand_id: int,
    hand_text: str,
    result_text: str,
    players_text: str,
    kush: Mapping[tuple[int, int], int],
) -> list[tuple[Any, ...]]:
    """The parameters of :data:`STAT_UPDATE` for one entry stored before migration 002 (its
    ``hands`` row's JSON texts): the figures :func:`stat_rows` derives, as the writer does
    for new entries, with the kush of ``kush`` ((hand id, player id) → kush, from
    :data:`HAND_RESULT_SUMS`; 0 when absent). An entry whose JSON does not read gives no
    parameters (its rows keep zero figures). Chinese Poker's bonuses are written in
    ``royalties``, as 002 counted them (the columns of 002; migration 007 moves them)."""
    try:
        hand, result = load_json(hand_text), load_json(result_text)
        seats = seats_from_json(load_json(players_text))
    except (ValueError, TypeError, AttributeError):
        return []
    if not isinstance(hand, dict) or not isinstance(result, dict):
        return []
    deltas = {pid: kush.get((hand_id, pid), 0) for pid in seats.values()}
    return [
        (*r[2:7], r.royalties + r.bonuses, *r[8:13], r.player_id, hand_id)
        for r in stat_rows(hand, result, seats, deltas)
    ]


def since_bound(since: float | None) -> float:
    """The lower bound of ``finished_at`` for a period: ``since`` (Unix seconds), or minus
    infinity for every entry (``None``). Both databases keep times as doubles (SQLite REAL,
    PostgreSQL DOUBLE PRECISION), which order ``-inf`` below every time."""
    return float("-inf") if since is None else float(since)


def stats_sql(column: str, skip_users: bool = False) -> tuple[str, str]:
    """The two queries of :class:`HandStats` over ``hand_players`` where ``column`` (
    ``player_id`` or ``community_id``) is ``$1`` and ``finished_at >= $2`` (and, with
    ``skip_users``, the player is none of community ``$3``'s whose user id is ``LIKE $4``: a
    prefix and ``%``): the aggregate (one row: ``hands`` … ``tournament_chinese_points`` in
    :class:`HandStats` field order) and the biggest win (``(player id, kush)``, no row when
    nothing was won; ties: the earlier entry, then the lower player id, as :func:`sum_stats`).
    A tournament's payout (R8.7) is counted apart: not in ``kush_won`` nor the biggest win.

    :raises ValueError: on another column (never user input).
    """
    if column not in ("player_id", "community_id"):
        raise ValueError(f"statistics by {column!r}")
    where = f"WHERE {column} = $1 AND finished_at >= $2"
    if skip_users:  # the few skipped ids, read once (index of (community_id, user_id))
        where += (
            " AND player_id NOT IN (SELECT id FROM players"
            " WHERE community_id = $3 AND user_id LIKE $4)"
        )
    aggregate = (
        "SELECT COUNT(DISTINCT CASE WHEN kind = 'hand' THEN hand_id END),"
        " COUNT(DISTINCT player_id), COALESCE(SUM(boards), 0), COALESCE(SUM(points), 0),"
        " COALESCE(SUM(kush), 0),"
        f" COALESCE(SUM(CASE WHEN kush > 0 AND kind <> '{TOURNAMENT_END}' THEN kush ELSE 0 END),"
        " 0), COALESCE(SUM(fouls), 0), COALESCE(SUM(royalties), 0), COALESCE(SUM(scoops), 0),"
        " COALESCE(SUM(fl_chances), 0), COALESCE(SUM(fl_entered), 0),"
        " COALESCE(SUM(fl_played), 0), COALESCE(SUM(fl_stayed), 0),"
        f" COUNT(DISTINCT CASE WHEN kind = '{TOURNAMENT_END}' THEN hand_id END),"
        f" COALESCE(SUM(CASE WHEN kind = '{TOURNAMENT_END}' THEN kush ELSE 0 END), 0),"
        f" COUNT(DISTINCT CASE WHEN kind = '{TOURNAMENT_HAND}' THEN hand_id END),"
        f" COALESCE(SUM(CASE WHEN kind = '{TOURNAMENT_HAND}' THEN points ELSE 0 END), 0),"
        " COALESCE(SUM(bonuses), 0), COALESCE(SUM(bonus_boards), 0),"
        " COUNT(DISTINCT CASE WHEN kind = 'hand' AND bonus_boards > 0 THEN hand_id END),"
        " COALESCE(SUM(CASE WHEN kind = 'hand' AND bonus_boards > 0 THEN points ELSE 0 END), 0),"
        f" COUNT(DISTINCT CASE WHEN kind = '{TOURNAMENT_HAND}' AND bonus_boards > 0"
        " THEN hand_id END),"
        f" COALESCE(SUM(CASE WHEN kind = '{TOURNAMENT_HAND}' AND bonus_boards > 0"
        " THEN points ELSE 0 END), 0)"
        f" FROM hand_players {where}"
    )
    best = (
        f"SELECT player_id, kush FROM hand_players {where} AND kush > 0"
        f" AND kind <> '{TOURNAMENT_END}' ORDER BY kush DESC, hand_id, player_id LIMIT 1"
    )
    return aggregate, best


def hand_stats(aggregate: Sequence[Any], best: Sequence[Any] | None) -> HandStats:
    """:class:`HandStats` from the rows of :func:`stats_sql`'s two queries (PostgreSQL's
    sums arrive as decimals, hence ``int``)."""
    stats = HandStats(*(int(x) for x in aggregate))
    if best is None:
        return stats
    return replace(stats, biggest_win=int(best[1]), biggest_winner=int(best[0]))


KUSH_LEADERBOARD_SQL = (
    "SELECT p.id, p.community_id, p.user_id, p.name, p.language, p.balance, s.won, s.played"
    " FROM (SELECT player_id, SUM(kush) AS won,"
    f" COUNT(CASE WHEN kind IN ('hand', '{TOURNAMENT_HAND}') THEN 1 END) AS played"
    " FROM hand_players"
    " WHERE community_id = $1 AND finished_at >= $2 GROUP BY player_id"
    ") s JOIN players p ON p.id = s.player_id ORDER BY s.won DESC, p.id LIMIT $3"
)
""":meth:`Store.kush_leaderboard`'s query (community, :func:`since_bound`, limit): the
player's columns, then the net kush and the hands played. The sums come from the index
``hand_players_by_community`` alone; players are joined to the sums only."""


KUSH_SERIES_SQL = (
    "SELECT finished_at, total FROM ("
    "SELECT finished_at, SUM(kush) OVER w AS total, ROW_NUMBER() OVER w - 1 AS m,"
    " COUNT(*) OVER () - 1 AS n FROM hand_players WHERE player_id = $1 AND finished_at >= $2"
    " WINDOW w AS (ORDER BY finished_at, hand_id ROWS UNBOUNDED PRECEDING)"
    ") s, (SELECT CAST($3 AS BIGINT) AS q) k"
    " WHERE CASE WHEN m = 0 OR n <= q THEN 1 ELSE m * q / n - (m - 1) * q / n END > 0"
    " ORDER BY m"
)
""":meth:`Store.kush_series`'s query (player, :func:`since_bound`, points − 1): the
player's entries in time order (ties by hand id) with the running sum of their kush, thinned
in the database to at most ``points`` rows: the first entry always, then of entries
``m = 1 … n`` the last of each of ``points − 1`` equal runs (the row where ``⌊m·q/n⌋``
steps; so the last entry always). The ``CASE`` keeps the division away from ``n = 0``. Only
two columns leave the database; the player's rows are read through the primary key
``(player_id, hand_id)``. :func:`series_keeps` is the same rule in Python."""


def series_keeps(m: int, n: int, q: int) -> bool:
    """Whether entry ``m`` (0-based) of ``n + 1`` is kept in a series of at most ``q + 1``
    points (:data:`KUSH_SERIES_SQL`'s rule, for the in-memory store)."""
    return m == 0 or n <= q or m * q // n > (m - 1) * q // n


def series_points(points: int) -> int:
    """``points`` checked: a whole number ≥ 2 (a line needs two ends).

    :raises StorageError: otherwise."""
    return require_int(points, "points", minimum=2)
