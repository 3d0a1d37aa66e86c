"""The consistency check of the kush ledger (issue 3, R8): ``python -m storage check --db PATH``.

It recomputes every balance and every stack from the ledger and compares them with the stored
ones, and checks that

- every non-minting row is balanced by itself (``buy_in``/``cash_out``/``refund``:
  ``balance_delta + stack_delta == 0``; ``hand_result``: stacks only) and the ``hand_result``
  rows of each hand sum to zero;
- per community, ``sum(balances) + sum(stacks)`` equals the kush minted (``starting``,
  ``admin_grant``, ``daily_bonus`` rows);
- no balance or stack is negative, now or at any point of the ledger, no closed table holds
  kush, and every row points at a player, table and hand of its own community;
- the ledger is still append-only: its triggers refusing UPDATE and DELETE (and TRUNCATE on
  PostgreSQL) are there (:data:`LEDGER_TRIGGERS`; read by :func:`read_database` and by the
  SQLite and PostgreSQL stores' ``audit_data``, which :func:`check_store` reads; the stores'
  ``open``, the bot's start, logs a warning of missing ones, :func:`warn_unguarded_at_open`,
  ops42, and goes on when they cannot be read, ops43).

:func:`audit` works on :class:`AuditData`, which :func:`read_database` reads from a SQLite
file (read-only) or a PostgreSQL database (a ``postgresql://`` URL, in one read-only
transaction) and ``SqliteStore.audit_data``/``PostgresStore.audit_data``/
``MemoryStore.audit_data`` produce for a live store; :func:`check_database` and
:func:`check_store` return the list of problems.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

from storage._common import LEDGER_COLUMNS, MINTING_KINDS, ledger_entry
from storage.api import LedgerEntry, LedgerKind, StorageError, StorageUnreachable

__all__ = [
    "AUDIT_QUERIES",
    "LEDGER_TRIGGERS",
    "LOCK_WAIT_SECONDS",
    "SQLITE_ADVICE",
    "TRIGGER_QUERIES",
    "AuditData",
    "AuditReport",
    "Auditable",
    "CommunityTotals",
    "audit",
    "check_database",
    "check_store",
    "missing_triggers",
    "read_database",
    "sqlite_advice",
    "sqlite_locked",
    "unguarded_ledger",
    "warn_unguarded",
    "warn_unguarded_at_open",
    "with_sqlite_advice",
]

#: Seconds a read of a SQLite file (``python -m storage check``, the source of ``backup``)
#: waits for another program's lock before it says the file is locked (sqlite3's default;
#: the tests of that line shorten it).
LOCK_WAIT_SECONDS = 5.0

AUDIT_QUERIES: Mapping[str, str] = {
    "communities": "SELECT id, platform, external_id FROM communities ORDER BY id",
    "players": "SELECT id, community_id, balance FROM players ORDER BY id",
    "tables": "SELECT id, community_id, open FROM tables ORDER BY id",
    "stacks": "SELECT table_id, player_id, stack FROM table_stacks ORDER BY table_id, player_id",
    "hands": "SELECT id, table_id FROM hands ORDER BY id",
    "ledger": f"SELECT {LEDGER_COLUMNS} FROM ledger ORDER BY id",
}
"""The SQL reading :class:`AuditData` (run inside one read transaction)."""

LEDGER_TRIGGERS: Mapping[str, tuple[str, ...]] = {
    "sqlite": ("ledger_no_update", "ledger_no_delete"),
    "postgres": ("ledger_no_update", "ledger_no_delete", "ledger_no_truncate"),
}
"""The triggers keeping the ledger append-only (migration 001 makes them, and only it: a
start of the bot does not make them again), by database."""

TRIGGER_QUERIES: Mapping[str, str] = {
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ledger'",
    # (a trigger disabled with ALTER TABLE … DISABLE TRIGGER guards nothing either)
    "postgres": "SELECT tgname FROM pg_trigger WHERE tgrelid = 'ledger'::regclass "
    "AND NOT tgisinternal AND tgenabled <> 'D'",
}
"""The SQL reading the names of the ledger's triggers that guard it, by database (rows of
one name)."""

log = logging.getLogger(__name__)

_BALANCED_KINDS = frozenset({LedgerKind.BUY_IN, LedgerKind.CASH_OUT, LedgerKind.REFUND})


@dataclass(frozen=True, slots=True)
class AuditData:
    """A consistent copy of what the check needs.

    :ivar communities: community id → ``"platform:external_id"``.
    :ivar players: player id → ``(community id, stored balance)``.
    :ivar tables: table id → ``(community id, open)``.
    :ivar stacks: ``(table id, player id)`` → stored stack.
    :ivar hands: hand id → table id.
    :ivar ledger: every ledger row, in id order.
    :ivar missing_triggers: the :data:`LEDGER_TRIGGERS` of ``database`` not found (``()``
        also when not read: a live store's data).
    :ivar database: ``"sqlite"`` or ``"postgres"`` (what to do about a missing trigger).
    """

    communities: Mapping[int, str]
    players: Mapping[int, tuple[int, int]]
    tables: Mapping[int, tuple[int, bool]]
    stacks: Mapping[tuple[int, int], int]
    hands: Mapping[int, int]
    ledger: Sequence[LedgerEntry]
    missing_triggers: tuple[str, ...] = ()
    database: str = "sqlite"

    @classmethod
    def from_rows(
        cls,
        rows: Mapping[str, Sequence[Sequence[Any]]],
        triggers: Sequence[Sequence[Any]] | None = None,
        database: str = "sqlite",
    ) -> AuditData:
        """From the results of :data:`AUDIT_QUERIES` (query name → rows) and, when read, of
        the query of the ledger's triggers (``triggers``: rows of their names)."""
        missing = () if triggers is None else missing_triggers(triggers, database)
        return cls(
            {int(r[0]): f"{r[1]}:{r[2]}" for r in rows["communities"]},
            {int(r[0]): (int(r[1]), int(r[2])) for r in rows["players"]},
            {int(r[0]): (int(r[1]), bool(r[2])) for r in rows["tables"]},
            {(int(r[0]), int(r[1])): int(r[2]) for r in rows["stacks"]},
            {int(r[0]): int(r[1]) for r in rows["hands"]},
            [ledger_entry(r) for r in rows["ledger"]],
            missing,
            database,
        )


@dataclass(frozen=True, slots=True)
class CommunityTotals:
    """One community's kush (all amounts in kush).

    :ivar minted: sum of the minting rows.
    :ivar balances: sum of the stored balances.
    :ivar stacks: sum of the stored stacks at its tables.
    """

    community_id: int
    name: str
    players: int
    minted: int
    balances: int
    stacks: int

    @property
    def consistent(self) -> bool:
        """``balances + stacks == minted``."""
        return self.balances + self.stacks == self.minted


@dataclass(frozen=True, slots=True)
class AuditReport:
    """What :func:`audit` found: ``problems`` (empty when consistent) and the totals."""

    problems: list[str]
    communities: list[CommunityTotals] = field(default_factory=list)
    ledger_rows: int = 0
    hands: int = 0
    tables: int = 0

    def render(self, max_problems: int = 50) -> str:
        """A short human-readable report (at most ``max_problems`` problem lines)."""
        players = sum(c.players for c in self.communities)
        lines = [
            f"{_count(len(self.communities), 'community', 'communities')}, "
            f"{_count(players, 'player')}, {_count(self.tables, 'table')}, "
            f"{_count(self.hands, 'hand')}, {_count(self.ledger_rows, 'ledger row')}"
        ]
        for c in self.communities:
            mark = "ok" if c.consistent else "MISMATCH"
            lines.append(
                f"  community {c.community_id} ({c.name}): minted {c.minted}, balances "
                f"{c.balances} + stacks {c.stacks} = {c.balances + c.stacks} [{mark}]"
            )
        if self.problems:
            lines.append(f"{_count(len(self.problems), 'problem')}:")
            lines.extend(f"  - {p}" for p in self.problems[:max_problems])
            if len(self.problems) > max_problems:
                lines.append(f"  … and {len(self.problems) - max_problems} more")
        else:
            lines.append("OK: every balance and stack matches the ledger")
        return "\n".join(lines)


def _count(n: int, one: str, many: str | None = None) -> str:
    """``n`` with its noun: "1 table", "0 tables", "2 communities" (``many``: the plural
    when not ``one`` + "s")."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def audit(data: AuditData) -> AuditReport:
    """Check ``data`` (see the module doc). Pure; never raises on bad data."""
    problems: list[str] = []
    balances: dict[int, int] = defaultdict(int)
    stacks: dict[tuple[int, int], int] = defaultdict(int)
    minted: dict[int, int] = defaultdict(int)
    hand_sums: dict[int, int] = defaultdict(int)
    went_negative: set[object] = set()

    for e in data.ledger:
        where = f"ledger row {e.id} ({e.kind.value}, key {e.key!r})"
        problems.extend(_row_problems(data, e, where))
        if e.kind in MINTING_KINDS:
            minted[e.community_id] += e.balance_delta
        if e.kind is LedgerKind.HAND_RESULT and e.hand_id is not None:
            hand_sums[e.hand_id] += e.stack_delta
        balances[e.player_id] += e.balance_delta
        if balances[e.player_id] < 0 and e.player_id not in went_negative:
            went_negative.add(e.player_id)
            problems.append(f"{where}: player {e.player_id}'s balance goes negative")
        if e.table_id is not None:
            seat = (e.table_id, e.player_id)
            stacks[seat] += e.stack_delta
            if stacks[seat] < 0 and seat not in went_negative:
                went_negative.add(seat)
                problems.append(
                    f"{where}: player {e.player_id}'s stack at table {e.table_id} goes negative"
                )

    for hand_id, total in sorted(hand_sums.items()):
        if total != 0:
            problems.append(f"hand {hand_id}: hand_result rows sum to {total:+d}, not 0")

    for pid, (_cid, stored) in sorted(data.players.items()):
        if stored != balances.get(pid, 0):
            problems.append(
                f"player {pid}: balance {stored}, the ledger says {balances.get(pid, 0)}"
            )
        if stored < 0:
            problems.append(f"player {pid}: negative balance {stored}")
    for pid in sorted(set(balances) - set(data.players)):
        problems.append(f"player {pid}: has ledger rows but no player row")

    for (tid, pid), stored in sorted(data.stacks.items()):
        expected = stacks.get((tid, pid), 0)
        if stored != expected:
            problems.append(
                f"stack of player {pid} at table {tid}: {stored}, the ledger says {expected}"
            )
        if stored < 0:
            problems.append(f"stack of player {pid} at table {tid}: negative ({stored})")
        table = data.tables.get(tid)
        if table is not None and not table[1] and stored:
            problems.append(f"closed table {tid} still holds {stored} kush of player {pid}")
    for (tid, pid), expected in sorted(stacks.items()):
        if expected and (tid, pid) not in data.stacks:
            problems.append(
                f"stack of player {pid} at table {tid}: no stack row, the ledger says {expected}"
            )

    totals: list[CommunityTotals] = []
    for cid, name in sorted(data.communities.items()):
        members = [b for c, b in data.players.values() if c == cid]
        held = sum(
            s for (tid, _), s in data.stacks.items() if data.tables.get(tid, (None,))[0] == cid
        )
        t = CommunityTotals(cid, name, len(members), minted.get(cid, 0), sum(members), held)
        totals.append(t)
        if not t.consistent:
            problems.append(
                f"community {cid} ({name}): balances {t.balances} + stacks {t.stacks} = "
                f"{t.balances + t.stacks}, but {t.minted} kush were minted"
            )
    if data.missing_triggers:
        problems.append(unguarded_ledger(data.missing_triggers, data.database))
    return AuditReport(problems, totals, len(data.ledger), len(data.hands), len(data.tables))


def missing_triggers(triggers: Iterable[Sequence[Any]], database: str) -> tuple[str, ...]:
    """The :data:`LEDGER_TRIGGERS` of ``database`` (``"sqlite"``, ``"postgres"``) not among
    ``triggers``, the rows of its :data:`TRIGGER_QUERIES` query, in their order."""
    found = {str(r[0]) for r in triggers}
    return tuple(t for t in LEDGER_TRIGGERS[database] if t not in found)


def warn_unguarded(triggers: Iterable[Sequence[Any]], database: str) -> tuple[str, ...]:
    """Log a warning (:func:`unguarded_ledger`'s line) when the ledger's triggers
    ``triggers`` (the rows of :data:`TRIGGER_QUERIES`) miss some of :data:`LEDGER_TRIGGERS`,
    and return those. The stores' ``open`` (the bot's start) calls it: a ledger that is no
    longer append-only was said only by ``python -m storage check`` (ops42). A warning, not a
    refusal: the kush still adds up, and a start refuses no other problem of the ledger."""
    missing = missing_triggers(triggers, database)
    if missing:
        log.warning("%s", unguarded_ledger(missing, database))
    return missing


async def warn_unguarded_at_open(
    read: Callable[[], Awaitable[Iterable[Sequence[Any]]]], database: str
) -> tuple[str, ...] | None:
    """The stores' ``open`` (the bot's start) on the ledger's triggers: ``read()`` (the rows
    of :data:`TRIGGER_QUERIES`), then :func:`warn_unguarded`; returns the missing triggers,
    or ``None`` when ``read()`` raised an :class:`Exception`. That is logged as one warning
    naming the error's type alone (the SQLite or PostgreSQL error under a
    :class:`StorageError`; nothing of its text, which may hold data) and the open goes on:
    the check is advice, as the warning itself (ops43; the open failed, the bot's start
    with it, on a query that only asks whether two triggers are there).

    :param database: ``"sqlite"`` or ``"postgres"``."""
    try:
        triggers = await read()
    except Exception as e:
        cause = e.__cause__ if isinstance(e, StorageError) and e.__cause__ is not None else e
        log.warning(
            "cannot tell whether the ledger is append-only: reading its triggers failed (%s); "
            "going on: python -m storage check reports missing ones",
            type(cause).__name__,
        )
        return None
    return warn_unguarded(triggers, database)


def unguarded_ledger(missing: Sequence[str], database: str = "sqlite") -> str:
    """The line for a ledger whose append-only triggers ``missing`` are gone (dropped by hand,
    or a restore without them): what it means, and what to do (a start of the bot does not
    make them again: migration 001 is applied once)."""
    if database == "postgres":
        gone = "missing or disabled"
        how = (
            "with psql, ALTER TABLE ledger ENABLE TRIGGER a disabled one and run the CREATE "
            "TRIGGER statements of a missing one (and CREATE FUNCTION ledger_append_only, if "
            "it is gone too) of storage/migrations/postgres/001_init.sql"
        )
    else:
        gone = "missing"
        how = (
            "stop the bot and run the CREATE TRIGGER statements of "
            "storage/migrations/001_init.sql with sqlite3"
        )
    return (
        f"the ledger is not append-only: {'trigger' if len(missing) == 1 else 'triggers'} "
        f"{', '.join(missing)} {gone}, so its rows can be changed or deleted unnoticed; "
        f"starting the bot does not make them again: {how}"
    )


def _row_problems(data: AuditData, e: LedgerEntry, where: str) -> list[str]:
    out: list[str] = []
    if e.community_id not in data.communities:
        out.append(f"{where}: unknown community {e.community_id}")
    player = data.players.get(e.player_id)
    if player is None:
        out.append(f"{where}: unknown player {e.player_id}")
    elif player[0] != e.community_id:
        out.append(f"{where}: player {e.player_id} belongs to community {player[0]}")
    if e.table_id is not None:
        table = data.tables.get(e.table_id)
        if table is None:
            out.append(f"{where}: unknown table {e.table_id}")
        elif table[0] != e.community_id:
            out.append(f"{where}: table {e.table_id} belongs to community {table[0]}")
    if e.hand_id is not None:
        hand_table = data.hands.get(e.hand_id)
        if hand_table is None:
            out.append(f"{where}: unknown hand {e.hand_id}")
        elif hand_table != e.table_id:
            out.append(f"{where}: hand {e.hand_id} was played at table {hand_table}")
    if e.kind in MINTING_KINDS:
        if e.stack_delta != 0 or e.table_id is not None:
            out.append(f"{where}: a minting row must change a balance only")
        if e.kind is not LedgerKind.ADMIN_GRANT and e.balance_delta < 0:
            out.append(f"{where}: negative {e.kind.value}")
    elif e.kind in _BALANCED_KINDS:
        if e.balance_delta + e.stack_delta != 0:
            out.append(
                f"{where}: unbalanced (balance {e.balance_delta:+d}, stack {e.stack_delta:+d})"
            )
        if e.table_id is None:
            out.append(f"{where}: no table")
        wrong_sign = e.stack_delta <= 0 if e.kind is LedgerKind.BUY_IN else e.stack_delta >= 0
        if wrong_sign:
            out.append(f"{where}: stack change {e.stack_delta:+d} has the wrong sign")
    elif e.kind is LedgerKind.HAND_RESULT:
        if e.balance_delta != 0:
            out.append(f"{where}: a hand result changes the balance ({e.balance_delta:+d})")
        if e.table_id is None or e.hand_id is None:
            out.append(f"{where}: a hand result needs a table and a hand")
    return out


class Auditable(Protocol):
    """A store that can hand over its :class:`AuditData` (both stores of this package)."""

    async def audit_data(self) -> AuditData:
        """A consistent copy of the data :func:`audit` checks."""
        ...


async def read_database(path: str | Path) -> AuditData:
    """Read :class:`AuditData` from a database file, read-only, in one read transaction; a
    ``postgresql://`` (or ``postgres://``) URL is read from PostgreSQL, likewise.

    :raises StorageError: if the file does not exist, the server cannot be reached, or it is
        not an OFC bot database.
    """
    if isinstance(path, str) and path.startswith(("postgresql://", "postgres://")):
        return await _read_postgres(path)
    p = Path(path)
    if not p.is_file():
        raise StorageError(f"no database file at {p}")
    try:
        async with aiosqlite.connect(
            p.resolve().as_uri() + "?mode=ro",
            uri=True,
            isolation_level=None,
            timeout=LOCK_WAIT_SECONDS,
        ) as db:
            await db.execute("BEGIN")
            rows = {
                name: list(await db.execute_fetchall(sql)) for name, sql in AUDIT_QUERIES.items()
            }
            triggers = list(await db.execute_fetchall(TRIGGER_QUERIES["sqlite"]))
            await db.execute("ROLLBACK")
    except aiosqlite.Error as e:
        if "no such table" in str(e):  # a copy of a running bot's file alone had none
            raise StorageError(no_bot_tables(p)) from e
        raise StorageError(f"cannot read {p}: {with_sqlite_advice(e)}") from e
    return AuditData.from_rows(rows, triggers)


def no_bot_tables(path: Path) -> str:
    """The line for the SQLite file ``path`` that holds none of the bot's tables."""
    return (
        f"{path} has no bot tables: not a database the bot has run on (a copy of a running "
        "bot's file misses what its -wal file holds: use python -m storage backup)"
    )


#: What SQLite says of a file another program holds locked, on a full disk, damaged or
#: read-only (brk79: the message alone said nothing), and what to do about it: ``{again}``
#: how to go on, ``{stop}`` what comes before a restore, ``{by}`` whose the write is
#: (:func:`sqlite_advice`)
SQLITE_ADVICE = (
    (
        "database is locked",
        "another program holds it (a sqlite3 shell, a copy, a backup tool): end it, then {again}",
    ),
    ("database or disk is full", "free space on its disk, then {again}"),
    ("malformed", "the file is damaged: {stop}restore the last backup (docs/operations.md)"),
    ("readonly database", "make the file and its folder writable{by}, then {again}"),
)


def sqlite_advice(e: BaseException, *, start: bool = False) -> str:
    """What to do about an SQLite file another program holds locked, on a full disk, damaged
    or read-only (:data:`SQLITE_ADVICE`, brk79); ``""`` for any other error. ``start``: the
    bot's start could not open it (:func:`bot.app.open_store`: start the bot again, and it
    is not running to be stopped), else a command run beside the bot (check, backup: try
    again; stop the bot before a restore)."""
    words = (
        {"again": "start the bot again", "stop": "", "by": " by the bot's user"}
        if start
        else {"again": "try again", "stop": "stop the bot and ", "by": ""}
    )
    for said, advice in SQLITE_ADVICE:
        if said in str(e):
            return advice.format(**words)
    return ""


def sqlite_locked(e: BaseException) -> bool:
    """Whether ``e`` is SQLite's "database is locked" (the first of :data:`SQLITE_ADVICE`):
    another program holds the file, for a while only, so the bot's start that met it exits
    with status 75 (``EX_TEMPFAIL``, restarted by a service manager), not 2 (ops42), and so
    do ``python -m storage check`` and ``backup`` (ops43)."""
    return SQLITE_ADVICE[0][0] in str(e)


def with_sqlite_advice(e: BaseException) -> str:
    """``e`` as a line, with what to do after ``": "`` when :func:`sqlite_advice` knows it."""
    advice = sqlite_advice(e)
    return f"{e}: {advice}" if advice else str(e)


async def _read_postgres(url: str) -> AuditData:
    import asyncpg

    from storage.postgres import malformed_url, read_audit_rows, unreachable

    try:
        conn = await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError, asyncpg.exceptions.InterfaceError) as e:
        raise unreachable(e, url) from e
    except ValueError as e:  # (a port that is no number: it was a traceback)
        raise malformed_url(url, e) from e
    try:
        rows = await read_audit_rows(conn)
        triggers = [tuple(r) for r in await conn.fetch(TRIGGER_QUERIES["postgres"])]
    except asyncpg.UndefinedTableError as e:  # "relation "communities" does not exist"
        raise StorageError(
            "the database has no bot tables yet (the bot makes them at its first start): "
            "nothing to check"
        ) from e
    except (OSError, asyncpg.exceptions.ConnectionDoesNotExistError) as e:
        # the server lost mid-read (restarted, the connection reset): out of reach, as at
        # the connection (exit status 75, try again later); it was 2 or a traceback (1)
        raise StorageUnreachable(f"cannot reach PostgreSQL: {e or type(e).__name__}") from e
    except asyncpg.PostgresError as e:
        raise StorageError(f"cannot read the database: {e}") from e
    finally:
        await conn.close()
    return AuditData.from_rows(rows, triggers, "postgres")


async def check_database(path: str | Path) -> list[str]:
    """The problems :func:`audit` finds in the database file (or ``postgresql://`` URL) at
    ``path`` (``[]``: consistent).

    :raises StorageError: if the database cannot be read as an OFC bot database.
    """
    return audit(await read_database(path)).problems


async def check_store(store: Auditable) -> list[str]:
    """The problems :func:`audit` finds in an open store (``[]``: consistent)."""
    return audit(await store.audit_data()).problems
