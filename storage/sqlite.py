"""The SQLite implementation of :class:`storage.api.Store` on aiosqlite (issue 3).

Design:

- One aiosqlite connection, i.e. one ``sqlite3`` connection owned by one worker thread.
  Every store method ships *one* plain function to that thread (aiosqlite's
  ``Connection._execute``) which runs its whole transaction — ``BEGIN IMMEDIATE``, reads,
  checks, writes, ``COMMIT`` (``ROLLBACK`` on any error) — before the thread takes the next
  function. Statements of two transactions therefore never interleave, and a transaction
  costs one thread round trip instead of one per statement (on the benchmark machine a round
  trip costs ~0.3 ms, a whole settlement's SQL ~0.1–0.2 ms).
- Writers are serialised by a queue drained by one flusher task (this replaces an
  ``asyncio.Lock``: it gives the same guarantee and also group commit). Writes that arrive
  while a batch is running are run together in the next batch, in arrival order: one
  ``BEGIN IMMEDIATE`` … ``COMMIT``; a failing write (say :class:`InsufficientFunds`) changes
  nothing and the others share one commit. Writes check before they change anything, so
  batches run without savepoints; if a write fails after changing rows (a constraint), the
  batch is rolled back and rerun with a ``SAVEPOINT`` around each write. If the transaction
  as a whole fails (a lock not obtained, an I/O error), every write of the batch fails with
  :class:`StorageError` and none of them is applied. A caller cancelled before its batch
  starts is skipped; once started, its write completes (its key makes a retry safe).
- ``BEGIN IMMEDIATE`` takes SQLite's write lock before the first read, so the balance a
  debit checks is the balance it changes, also against other processes on the same file
  (they wait up to :data:`BUSY_TIMEOUT_MS`).
- Idempotency: the ``operations`` table maps every key to the JSON result of its first call;
  a repeated key returns that result without writing. Ledger rows have unique keys too
  (``key`` itself, or ``key/<player id>`` for the rows of a settlement).
- Migrations are the numbered files ``storage/migrations/NNN_name.sql``, applied in order at
  :meth:`SqliteStore.open`, each in its own ``BEGIN IMMEDIATE`` transaction together with its
  ``schema_version`` row.
"""

from __future__ import annotations

import asyncio
import math
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, NamedTuple, ParamSpec, TypeVar, cast

import aiosqlite

from storage._common import (
    CASH_OUT_KINDS,
    CHAT_MOVE_SQL,
    HAND_PLAYERS_INSERT,
    HAND_RESULT_SUMS,
    JOINED_SQL,
    KUSH_LEADERBOARD_SQL,
    KUSH_SERIES_SQL,
    LAST_TABLE_SQL,
    LEDGER_COLUMNS,
    MOVED_CHAT_SQL,
    SETTLE_OPERATION,
    STAT_UPDATE,
    TRANSITION_OPERATION,
    Migration,
    StatRow,
    backfill_params,
    check_newer,
    check_settlement,
    commit_seq,
    daily_key,
    dump_json,
    hand_export,
    hand_player_params,
    hand_row_key,
    hand_stats,
    ledger_entry,
    load_json,
    log_upgrade,
    name_key,
    qmark,
    read_migrations,
    require_day,
    require_int,
    require_key,
    seats_from_json,
    series_points,
    since_bound,
    snapshot_seq,
    starting_key,
    stat_rows,
    stats_sql,
    username_key,
)
from storage.api import (
    BuyIn,
    CashOut,
    Community,
    CommunitySettings,
    Grant,
    HandRecord,
    HandStats,
    HouseGrant,
    InsufficientFunds,
    Joined,
    LeaseLost,
    LedgerEntry,
    LedgerKind,
    Move,
    Player,
    StorageError,
    StorageTimeout,
    Store,
    TableRecord,
    lease_key,
    time_left,
)
from storage.check import AUDIT_QUERIES, TRIGGER_QUERIES, AuditData, warn_unguarded_at_open

__all__ = [
    "BUSY_TIMEOUT_MS",
    "MAX_BATCH",
    "Migration",
    "SqliteStore",
    "migrations",
    "peek_holdings",
    "peek_settings",
]

T = TypeVar("T")
P = ParamSpec("P")
Conn = sqlite3.Connection

BUSY_TIMEOUT_MS = 10_000
"""How long a writer waits for another connection's write lock before giving up."""

MAX_BATCH = 256
"""At most this many queued writes share one transaction (bounds how long the lock is held)."""

_PLAYER_COLUMNS = "id, community_id, user_id, name, language, balance"
_TABLE_COLUMNS = "id, community_id, chat_id, options, min_buy_in, open"
_HAND_COLUMNS = "id, table_id, number, hand, result, players, finished_at"
# the statistics' SQL shared with storage.postgres (storage._common), in SQLite's parameters
_HAND_PLAYERS_INSERT = qmark(HAND_PLAYERS_INSERT)
_STAT_UPDATE = qmark(STAT_UPDATE)
_KUSH_LEADERBOARD = qmark(KUSH_LEADERBOARD_SQL)
_KUSH_SERIES = qmark(KUSH_SERIES_SQL)
_MOVED_CHAT = qmark(MOVED_CHAT_SQL)
_CHAT_MOVE = qmark(CHAT_MOVE_SQL)
_JOINED = qmark(JOINED_SQL)
_LAST_TABLE = qmark(LAST_TABLE_SQL)
_STATS = {
    (c, skip): (qmark(a), qmark(b))
    for c in ("player_id", "community_id")
    for skip in (False, True)
    for a, b in [stats_sql(c, skip)]
}


def migrations() -> list[Migration]:
    """The migration files of ``storage/migrations`` in order.

    :raises StorageError: if a ``.sql`` file is misnamed or the numbers are not 1, 2, 3, …
    """
    return read_migrations("migrations")


def _statements(script: str) -> list[str]:
    """Split an SQL script into complete statements (trigger bodies kept whole)."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()
    ):
        raise StorageError(f"incomplete SQL statement at the end of a migration: {buf[:60]!r}")
    return out


def _triggers(conn: Conn) -> list[Any]:
    """The rows of the ledger's triggers' names (:data:`storage.check.TRIGGER_QUERIES`)."""
    return conn.execute(TRIGGER_QUERIES["sqlite"]).fetchall()


def _migrate(conn: Conn) -> list[int]:
    """Apply the pending migrations (thread side). Returns the versions applied now.

    :raises StorageError: if the database is newer than the code, or an applied version has
        another file name than the code's.
    """
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    known = migrations()
    applied = dict(conn.execute("SELECT version, name FROM schema_version").fetchall())
    newest = max(applied, default=0)
    if newest > len(known):
        raise StorageError(
            f"the database has schema version {newest}, newer than this code ({len(known)})"
        )
    applied_now: list[int] = []
    for mig in known:
        if mig.version not in applied:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute(  # another process may have been quicker
                    "SELECT name FROM schema_version WHERE version = ?", (mig.version,)
                ).fetchone()
                if row is None:
                    for statement in _statements(mig.sql):
                        conn.execute(statement)
                    post = _AFTER_MIGRATION.get(mig.version)
                    if post is not None:
                        post(conn)
                    conn.execute(
                        "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                        (mig.version, mig.name, time.time()),
                    )
                    applied_now.append(mig.version)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            applied[mig.version] = row[0] if row is not None else mig.name
        if applied[mig.version] != mig.name:
            raise StorageError(
                f"schema version {mig.version} was applied as {applied[mig.version]!r}, "
                f"but the code has {mig.name!r}"
            )
    return applied_now


def _in_transaction(conn: Conn, body: Callable[..., T], args: tuple[Any, ...]) -> T:
    """Run ``body(conn, *args)`` inside ``BEGIN IMMEDIATE`` … ``COMMIT`` (thread side); any
    exception rolls the whole transaction back and propagates."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn, *args)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


class _PartialWrite(Exception):
    """A write of a savepoint-less batch failed after changing rows (thread side)."""


def _run_batch(conn: Conn, items: Sequence[_Write]) -> list[tuple[bool, Any]]:
    """Run queued writes in one ``BEGIN IMMEDIATE`` transaction (thread side). Returns
    ``(ok, result or exception)`` per write; raises (after rolling back) if the transaction as
    a whole fails.

    Optimistic first: no savepoints, since a write that fails normally fails in its checks,
    before it changes anything (``total_changes`` tells). If one fails after changing rows,
    the whole attempt is rolled back and the batch rerun with a savepoint around each write.
    """
    try:
        return _attempt(conn, items, savepoints=False)
    except _PartialWrite:
        return _attempt(conn, items, savepoints=True)


def _attempt(conn: Conn, items: Sequence[_Write], *, savepoints: bool) -> list[tuple[bool, Any]]:
    outcomes: list[tuple[bool, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for item in items:
            if savepoints:
                conn.execute("SAVEPOINT write")
            before = conn.total_changes
            try:
                value = item.body(conn, *item.args)
            except Exception as e:
                if not conn.in_transaction:  # SQLite rolled the whole transaction back
                    raise
                if savepoints:
                    conn.execute("ROLLBACK TO write")
                    conn.execute("RELEASE write")
                elif conn.total_changes != before:
                    raise _PartialWrite from e
                outcomes.append((False, e))
                continue
            if savepoints:
                conn.execute("RELEASE write")
            outcomes.append((True, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _storage_error(e: BaseException) -> BaseException:
    """SQLite errors (and aiosqlite's closed connection) as :class:`StorageError`."""
    if isinstance(e, sqlite3.IntegrityError):
        return StorageError(f"constraint failed: {e}")
    if isinstance(e, sqlite3.Error):
        return StorageError(f"SQLite error: {e}")
    if isinstance(e, ValueError) and str(e) == "Connection closed":
        return StorageError("the store is closed")
    return e


class _Write(NamedTuple):
    """A queued write: ``body(conn, *args)`` and the future of its caller."""

    body: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


# -- row decoding ----------------------------------------------------------------------------
def peek_settings(path: str | Path, platform: str, external_id: str) -> CommunitySettings | None:
    """The stored settings of the community ``(platform, external_id)`` in the SQLite file
    ``path``, read at once without opening a store: the file opened read-only (never made,
    migrated or written, nor its ``-wal`` and ``-shm`` made; another process may hold it),
    ``None`` when there is no such file,
    no such community, or the file cannot be read as this store's (not a database, an older
    schema, a lock held past the busy timeout). For a line printed before the store opens
    (the sandbox's first lines in its group's language, :mod:`bot.__main__`)."""
    file = Path(path)
    if not file.is_file():
        return None
    select = "SELECT settings FROM communities WHERE platform = ? AND external_id = ?"
    try:
        conn = _peek_connect(file, timeout=1.0)
        try:
            row = conn.execute(select, (platform, external_id)).fetchone()
        finally:
            conn.close()
        return None if row is None else CommunitySettings.from_json(load_json(row[0]))
    except (sqlite3.Error, ValueError, TypeError, KeyError, StorageError):
        return None


def peek_holdings(path: str | Path) -> tuple[int, int] | None:
    """``(players, open tables)`` the SQLite file ``path`` holds, read at once without opening
    a store, as :func:`peek_settings` reads (read-only: never made, migrated or written, nor
    its ``-wal`` and ``-shm`` made; no lock waited for past a quarter second). ``None`` when
    there is no such file or it cannot be read as this store's (not a database, no bot
    tables, a lock held). For the start's warning that ``DATABASE_URL`` leaves an SQLite
    file's balances and tables behind (:func:`bot.config.sqlite_left_warning`)."""
    file = Path(path)
    if not file.is_file():
        return None
    try:
        conn = _peek_connect(file, timeout=0.25)
        try:
            players = conn.execute("SELECT count(*) FROM players").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM tables WHERE open = 1").fetchone()[0]
        finally:
            conn.close()
        return int(players), int(tables)
    except (sqlite3.Error, ValueError, TypeError, OSError):
        return None


def _peek_connect(file: Path, *, timeout: float) -> sqlite3.Connection:
    """A read-only connection to the SQLite file ``file`` that makes nothing beside it.
    :raises sqlite3.Error: as :func:`sqlite3.connect`."""
    # (a WAL file no process holds open has no -wal: read as it stands, for a read-only
    # connection to it made its -wal and -shm and, read-only, left them behind; one held
    # open is read through its log, what was committed in it included, with its -shm only
    # read: "mode=ro" alone made a -shm beside a -wal a crash or a copy left without one,
    # and rewrote a stale one, rev50; without a -shm it cannot be read, an error)
    held = file.with_name(f"{file.name}-wal").exists()
    mode = "mode=ro&readonly_shm=1" if held else "mode=ro&immutable=1"
    return sqlite3.connect(f"{file.resolve().as_uri()}?{mode}", uri=True, timeout=timeout)


def _community(row: Sequence[Any]) -> Community:
    return Community(row[0], row[1], row[2], row[3], CommunitySettings.from_json(load_json(row[4])))


def _player(row: Sequence[Any]) -> Player:
    return Player(row[0], row[1], row[2], row[3], row[4], row[5])


def _table(row: Sequence[Any]) -> TableRecord:
    return TableRecord(row[0], row[1], row[2], load_json(row[3]), row[4], bool(row[5]))


def _hand(row: Sequence[Any]) -> HandRecord:
    return HandRecord(
        row[0],
        row[1],
        row[2],
        load_json(row[3]),
        load_json(row[4]),
        seats_from_json(load_json(row[5])),
        row[6],
    )


# -- thread-side helpers (run inside a transaction) ------------------------------------------
def _replay(conn: Conn, key: str, kind: str) -> Any | None:
    """The stored result of ``key``, or ``None`` if it was never applied.
    :raises StorageError: if the key was used by another kind of operation."""
    row = conn.execute("SELECT kind, result FROM operations WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    if row[0] != kind:
        raise StorageError(f"key {key!r} was already used for {row[0]}, not {kind}")
    return load_json(row[1])


def _remember(conn: Conn, key: str, kind: str, result: Any, now: float) -> None:
    conn.execute(
        "INSERT INTO operations (key, kind, result, created_at) VALUES (?, ?, ?, ?)",
        (key, kind, dump_json(result, "result"), now),
    )


def _ledger_row(
    conn: Conn,
    community_id: int,
    kind: LedgerKind,
    player_id: int,
    table_id: int | None,
    balance_delta: int,
    stack_delta: int,
    key: str,
    now: float,
    *,
    actor: str | None = None,
    reason: str | None = None,
) -> None:
    conn.execute(
        "INSERT INTO ledger (community_id, kind, player_id, table_id, hand_id, balance_delta,"
        " stack_delta, actor, reason, key, created_at)"
        " VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)",
        (
            community_id,
            kind.value,
            player_id,
            table_id,
            balance_delta,
            stack_delta,
            actor,
            reason,
            key,
            now,
        ),
    )


def _balance(conn: Conn, player_id: int, community_id: int) -> int:
    """The player's balance. :raises StorageError: if no such player in the community."""
    row = conn.execute(
        "SELECT community_id, balance FROM players WHERE id = ?", (player_id,)
    ).fetchone()
    if row is None:
        raise StorageError(f"no player {player_id}")
    if row[0] != community_id:
        raise StorageError(f"player {player_id} is not in community {community_id}")
    return int(row[1])


def _table_community(conn: Conn, table_id: int, *, must_be_open: bool) -> int:
    """The table's community. :raises StorageError: if no such table (or it is closed)."""
    row = conn.execute("SELECT community_id, open FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise StorageError(f"no table {table_id}")
    if must_be_open and not row[1]:
        raise StorageError(f"table {table_id} is closed")
    return int(row[0])


def _require_community(conn: Conn, community_id: int) -> None:
    if conn.execute("SELECT 1 FROM communities WHERE id = ?", (community_id,)).fetchone() is None:
        raise StorageError(f"no community {community_id}")


def _fail(future: asyncio.Future[Any], error: BaseException) -> None:
    """Set ``error`` (SQLite errors as :class:`StorageError`) on a pending future."""
    if future.done():
        return
    mapped = _storage_error(error)
    if mapped is not error:
        mapped.__cause__ = error
    future.set_exception(mapped)


class SqliteStore:
    """:class:`storage.api.Store` on one SQLite file (or ``":memory:"``).

    Open it with :meth:`open`; close it with :meth:`close` (or ``async with``). Every method
    follows the contract of :class:`storage.api.Store`, and, beyond it:

    - invalid arguments (a non-positive buy-in, a zero grant, a bad day, an unknown or
      closed table, a player of another community, an idempotency key reused for another
      kind of operation) raise :class:`StorageError` and change nothing;
    - SQLite errors (constraint violations, a lock not obtained within the busy timeout)
      are raised as :class:`StorageError`, the transaction rolled back.
    """

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        """Wrap an open aiosqlite connection; use :meth:`open` instead."""
        execute = getattr(connection, "_execute", None)
        if not callable(execute):  # pragma: no cover - guards an aiosqlite upgrade
            raise StorageError("this aiosqlite has no Connection._execute; pin aiosqlite<0.23")
        self._connection = connection
        self._execute = cast(Callable[..., Awaitable[Any]], execute)
        self._raw: Conn = connection._conn
        self._path = path
        self._queue: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        self._fence: str | None = None
        #: table id → the highest ``seq`` of a snapshot written here (:meth:`save_snapshot`
        #: keeps a lower one out; one process writes a file, its writes in order, so this is
        #: what the file holds, without reading the stored snapshot back on every save)
        self._snapshot_seqs: dict[int, int] = {}
        #: the clock of leases and heartbeats (tests move it)
        self.clock = time.time

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating if needed) the database at ``path`` and apply pending migrations.

        Sets ``journal_mode=WAL`` (files), ``foreign_keys=ON``, ``synchronous=NORMAL`` and a
        busy timeout of :data:`BUSY_TIMEOUT_MS`. A ledger whose append-only triggers are gone
        is logged as a warning (:func:`storage.check.warn_unguarded_at_open`), not refused;
        so are triggers that cannot be read (the error's type alone).

        :raises StorageError: if the file cannot be opened as an SQLite database (a folder
            that does not exist, a folder given as the file, a file that is not a database;
            "SQLite error: unable to open database file"), a migration fails or the schema is
            newer than the code.
        """
        name = str(path)
        connecting = aiosqlite.connect(
            name, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, cached_statements=256
        )
        try:
            connection = await connecting
        except sqlite3.Error as e:
            # aiosqlite stops its thread but does not wait for it: joined here, or it answers
            # the stop on an event loop already closed (a second traceback at exit)
            thread = getattr(connecting, "_thread", None)
            if thread is not None:
                await asyncio.to_thread(thread.join, 5)
            raise _storage_error(e) from e
        try:
            store = cls(connection, name)
            await store._call(_configure, name != ":memory:")
            log_upgrade(await store._call(_migrate), migrations())
            # (a ledger no longer append-only, its triggers dropped: a warning, ops42)
            # (one not read: a warning too, and the open goes on, ops43)
            await warn_unguarded_at_open(lambda: store._call(_triggers), "sqlite")
        except BaseException:
            await connection.close()
            raise
        return store

    @property
    def path(self) -> str:
        """The database path given to :meth:`open`."""
        return self._path

    async def close(self) -> None:
        """Finish the queued writes and close the connection (idempotent)."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        await self._connection.close()

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_versions(self) -> list[tuple[int, str, float]]:
        """``(version, file name, applied_at)`` of every applied migration, in order."""
        rows = await self._call(
            lambda c: c.execute(
                "SELECT version, name, applied_at FROM schema_version ORDER BY version"
            ).fetchall()
        )
        return [(int(v), str(n), float(t)) for v, n, t in rows]

    # -- plumbing ---------------------------------------------------------------------------
    async def _call(
        self, fn: Callable[Concatenate[Conn, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """Run ``fn(conn, *args)`` on the connection's thread; SQLite errors → StorageError.
        Within :func:`~storage.api.answer_within`, one not answered in time (the thread busy
        with a write that waits for another process's lock, up to :data:`BUSY_TIMEOUT_MS`)
        raises :class:`StorageTimeout` (it still runs on the thread, its result dropped)."""
        left = time_left()
        if left == 0:  # (the caller's time is up: nothing is tried)
            raise StorageTimeout("no time left for SQLite")
        try:
            if left is not None:
                try:
                    async with asyncio.timeout(left):
                        return cast(T, await self._execute(fn, self._raw, *args, **kwargs))
                except TimeoutError as e:
                    raise StorageTimeout(f"no answer from SQLite within {left:.1f} s") from e
            return cast(T, await self._execute(fn, self._raw, *args, **kwargs))
        except (sqlite3.Error, ValueError) as e:
            mapped = _storage_error(e)
            if mapped is e:
                raise
            raise mapped from e

    async def _write(self, body: Callable[..., T], *args: Any) -> T:
        """Run ``body(conn, *args)`` in a ``BEGIN IMMEDIATE`` transaction, possibly together
        with other queued writes (see the module doc); its result or its exception. Within
        :func:`~storage.api.answer_within`, one not done in time (a batch ahead, or its own,
        waiting for another process's lock) raises :class:`StorageTimeout`: as for a caller
        cancelled, it is skipped if its batch had not started, else it completes; which, the
        caller does not know (it reads it back)."""
        left = time_left()
        if left == 0:  # (the caller's time is up: nothing is queued)
            raise StorageTimeout("no time left for SQLite")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.append(_Write(body, args, future))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush())
        if left is None:
            return cast(T, await future)
        try:
            async with asyncio.timeout(left):
                return cast(T, await future)
        except TimeoutError as e:
            raise StorageTimeout(f"no answer from SQLite within {left:.1f} s") from e

    async def _flush(self) -> None:
        """Drain the write queue, one batch (one transaction) at a time."""
        batch: list[_Write] = []
        try:
            while self._queue:
                head, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                batch = [w for w in head if not w.future.done()]  # skip cancelled callers
                if not batch:
                    continue
                try:
                    outcomes = await self._execute(_run_batch, self._raw, batch)
                except Exception as e:
                    for w in batch:
                        _fail(w.future, e)
                    continue
                for w, (ok, value) in zip(batch, outcomes, strict=True):
                    if w.future.done():
                        continue
                    if ok:
                        w.future.set_result(value)
                    else:
                        _fail(w.future, value)
                batch = []
        except BaseException as e:  # cancelled: nobody may wait forever
            for w in [*batch, *self._queue]:
                _fail(w.future, StorageError(f"the write was interrupted: {e!r}"))
            self._queue = []
            raise
        finally:
            self._flusher = None

    # -- communities and players --------------------------------------------------------------
    async def community(self, platform: str, external_id: str, title: str = "") -> Community:
        """Get or create a community; a non-empty ``title`` that differs is stored."""
        return _community(await self._call(_get_community, platform, external_id, title))

    async def update_settings(self, community_id: int, settings: CommunitySettings) -> Community:
        """Replace a community's settings. :raises StorageError: if no such community."""
        text = dump_json(settings.to_json(), "settings")

        def body(conn: Conn) -> Any:
            cur = conn.execute(
                "UPDATE communities SET settings = ? WHERE id = ?", (text, community_id)
            )
            if cur.rowcount == 0:
                raise StorageError(f"no community {community_id}")
            return conn.execute(
                "SELECT id, platform, external_id, title, settings FROM communities WHERE id = ?",
                (community_id,),
            ).fetchone()

        return _community(await self._write(body))

    async def change_settings(
        self, community_id: int, change: Callable[[CommunitySettings], CommunitySettings]
    ) -> Community:
        """See :meth:`storage.api.Store.change_settings`: read, ``change`` (on the
        connection's thread) and write in one ``BEGIN IMMEDIATE`` transaction, which holds
        the file's write lock from before the read (another process waits for it)."""
        select = "SELECT id, platform, external_id, title, settings FROM communities WHERE id = ?"

        def body(conn: Conn) -> Any:
            row = conn.execute(select, (community_id,)).fetchone()
            if row is None:
                raise StorageError(f"no community {community_id}")
            stored = _community(row).settings
            settings = change(stored)
            if settings is stored:
                return row
            text = dump_json(settings.to_json(), "settings")
            conn.execute("UPDATE communities SET settings = ? WHERE id = ?", (text, community_id))
            return conn.execute(select, (community_id,)).fetchone()

        return _community(await self._write(body))

    async def moved_chat(self, platform: str, chat_id: str) -> str | None:
        """See :meth:`storage.api.Store.moved_chat`."""
        row = await self._call(
            lambda c: c.execute(_MOVED_CHAT, (platform, chat_id, platform)).fetchone()
        )
        return None if row is None else str(row[0])

    async def move_chat(self, platform: str, old_id: str, new_id: str) -> bool:
        """See :meth:`storage.api.Store.move_chat`."""

        def body(conn: Conn) -> bool:
            select = "SELECT id FROM communities WHERE platform = ? AND external_id = ?"
            row = conn.execute(select, (platform, old_id)).fetchone()
            if row is None or old_id == new_id:
                return False
            taken = conn.execute(select, (platform, new_id)).fetchone()
            if taken is not None and taken[0] < row[0]:
                return False  # (opened under the old id after the move: not moved over it)
            if taken is not None:
                conn.execute(
                    "UPDATE communities SET external_id = ? WHERE id = ?",
                    (f"{new_id}~{taken[0]}", taken[0]),
                )
            conn.execute("UPDATE communities SET external_id = ? WHERE id = ?", (new_id, row[0]))
            conn.execute(
                "UPDATE tables SET chat_id = ? WHERE community_id = ? AND chat_id = ?",
                (new_id, row[0], old_id),
            )
            conn.execute(_CHAT_MOVE, (platform, old_id, new_id))
            # the worker serving the chat keeps serving it under its new id (issue 14)
            conn.execute(
                "UPDATE OR REPLACE leases SET key = ? WHERE key = ?",
                (lease_key(platform, new_id), lease_key(platform, old_id)),
            )
            return True

        return bool(await self._write(body))

    async def player(
        self,
        community_id: int,
        user_id: str,
        name: str,
        language: str | None = None,
        *,
        starting: bool = True,
    ) -> Player:
        """Get or create a player (a new one gets a ``starting`` row of the community's
        starting balance; with ``starting=False`` it starts at 0 with no such row: a computer
        player, issue 13, whose kush comes only from the house's grants). A changed ``name``
        is stored; ``language`` is stored when given and different (``None`` keeps the
        stored one).

        :raises StorageError: if no such community or its starting balance is negative.
        """
        return _player(
            await self._call(_get_player, community_id, user_id, name, language, starting)
        )

    async def get_player(self, player_id: int) -> Player | None:
        """A player by id, or ``None``."""
        row = await self._call(
            lambda c: c.execute(
                f"SELECT {_PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,)
            ).fetchone()
        )
        return None if row is None else _player(row)

    async def find_player(self, community_id: int, name_or_user_id: str) -> Player | None:
        """A player by exact user id, else by display name (case-insensitive, one leading
        ``@`` ignored). ``None`` if nobody matches or the name is ambiguous."""
        query = name_or_user_id.strip()
        bare = query[1:] if query.startswith("@") else query
        wanted = name_key(query)

        def body(conn: Conn) -> Any:
            for uid in dict.fromkeys((query, bare)):
                row = conn.execute(
                    f"SELECT {_PLAYER_COLUMNS} FROM players WHERE community_id = ? AND user_id = ?",
                    (community_id, uid),
                ).fetchone()
                if row is not None:
                    return row
            rows = conn.execute(
                f"SELECT {_PLAYER_COLUMNS} FROM players WHERE community_id = ? AND name_key = ?"
                " LIMIT 2",
                (community_id, wanted),
            ).fetchall()
            return rows[0] if len(rows) == 1 else None

        row = await self._call(body)
        return None if row is None else _player(row)

    async def leaderboard(self, community_id: int, limit: int = 10) -> Sequence[tuple[Player, int]]:
        """Up to ``limit`` players by balance plus stacks (kush), highest first, ties by id."""
        if limit <= 0:
            return []
        rows = await self._call(
            lambda c: c.execute(
                f"SELECT {_PLAYER_COLUMNS}, balance + COALESCE("
                " (SELECT SUM(stack) FROM table_stacks s WHERE s.player_id = p.id), 0) AS total"
                " FROM players p WHERE community_id = ? ORDER BY total DESC, id LIMIT ?",
                (community_id, limit),
            ).fetchall()
        )
        return [(_player(r), int(r[6])) for r in rows]

    async def languages(self, community_id: int) -> Mapping[str, int]:
        """How many of the community's players have each stored language code (players
        stored without one, computer players among them, are not counted)."""
        rows = await self._call(
            lambda c: c.execute(
                "SELECT language, COUNT(*) FROM players"
                " WHERE community_id = ? AND language IS NOT NULL GROUP BY language",
                (community_id,),
            ).fetchall()
        )
        return {str(r[0]): int(r[1]) for r in rows}

    # -- wallet -------------------------------------------------------------------------------
    async def grant(
        self, community_id: int, player_id: int, amount: int, *, actor: str, reason: str, key: str
    ) -> int:
        """Add ``amount`` kush (negative: take) as an ``admin_grant`` row; the new balance.

        :raises InsufficientFunds: if the balance would go negative.
        :raises StorageError: on a zero amount or a player outside the community.
        """
        require_int(amount, "grant")
        if amount == 0:
            raise StorageError("a grant of 0 kush")
        require_key(key)

        return await self._write(_grant_tx, community_id, player_id, amount, actor, reason, key)

    async def claim_daily(
        self,
        community_id: int,
        player_id: int,
        amount: int,
        day: str,
        *,
        at: float | None = None,
        since: float | None = None,
    ) -> int | None:
        """Pay ``amount`` (≥ 0) kush as the ``daily_bonus`` of ``day`` (``YYYY-MM-DD``): the
        new balance, or ``None`` if already claimed that day or a later one (a group's
        ``utc_offset`` turned back reads an earlier day) or at or after ``since`` (the start
        of the group's local day; a zone moved forward reads the next date at once): no
        second bonus within one local day, R8.1. The claim is stored with ``at`` (the
        caller's clock, default now).

        :raises StorageError: on a bad day or amount or a player outside the community.
        """
        require_int(amount, "daily bonus", minimum=0)
        require_day(day)
        claimed_at = time.time() if at is None else float(at)
        after = math.inf if since is None else float(since)

        def body(conn: Conn) -> int | None:
            balance = _balance(conn, player_id, community_id)
            now = time.time()
            cur = conn.execute(
                "INSERT INTO daily_claims (player_id, day, amount, claimed_at)"
                " SELECT ?, ?, ?, ? WHERE NOT EXISTS"
                " (SELECT 1 FROM daily_claims WHERE player_id = ?"
                " AND (day >= ? OR claimed_at >= ?))"
                " ON CONFLICT (player_id, day) DO NOTHING",
                (player_id, day, amount, claimed_at, player_id, day, after),
            )
            if cur.rowcount == 0:
                return None
            balance += amount
            conn.execute("UPDATE players SET balance = ? WHERE id = ?", (balance, player_id))
            _ledger_row(
                conn,
                community_id,
                LedgerKind.DAILY_BONUS,
                player_id,
                None,
                amount,
                0,
                daily_key(player_id, day),
                now,
                reason=f"daily {day}",
            )
            return balance

        return await self._write(body)

    async def daily_claimed(self, player_id: int, day: str, *, since: float | None = None) -> bool:
        """Whether the player claimed the daily bonus of ``day`` (``YYYY-MM-DD``) or of a
        later day, or at or after ``since`` (then ``day``'s can no longer be taken).

        :raises StorageError: on a bad day."""
        require_day(day)
        after = math.inf if since is None else float(since)
        row = await self._call(
            lambda c: c.execute(
                "SELECT 1 FROM daily_claims WHERE player_id = ? AND (day >= ? OR claimed_at >= ?)",
                (player_id, day, after),
            ).fetchone()
        )
        return row is not None

    async def last_daily(self, player_id: int) -> str | None:
        """The latest day (``YYYY-MM-DD``) whose daily bonus the player claimed (``None``:
        none)."""
        row = await self._call(
            lambda c: c.execute(
                "SELECT MAX(day) FROM daily_claims WHERE player_id = ?", (player_id,)
            ).fetchone()
        )
        return None if row is None or row[0] is None else str(row[0])

    async def buy_in(self, table_id: int, player_id: int, amount: int, *, key: str) -> int:
        """Move ``amount`` (> 0) kush from the wallet to the stack at an open table (R8.2; a
        top-up when a stack exists). Returns the new stack.

        :raises InsufficientFunds: if the balance is short.
        :raises StorageError: on a bad amount, a closed/unknown table, a foreign player.
        """
        require_int(amount, "buy-in", minimum=1)
        require_key(key)
        return int(await self._write(_buy_in_tx, table_id, player_id, amount, key))

    async def cash_out(
        self, table_id: int, player_id: int, *, key: str, kind: LedgerKind = LedgerKind.CASH_OUT
    ) -> int:
        """Move the whole stack back to the wallet (a ``cash_out`` or ``refund`` row; none for
        an empty stack) and delete the stack row. Returns the kush moved.

        :raises StorageError: on another ``kind``, an unknown table or a foreign player.
        """
        if kind not in CASH_OUT_KINDS:
            raise StorageError(f"cash_out writes cash_out or refund rows, not {kind.value}")
        require_key(key)
        return int(await self._write(_cash_out_tx, table_id, player_id, key, kind))

    async def stacks(self, table_id: int) -> Mapping[int, int]:
        """Player id → stack (kush) at the table, in player id order."""
        rows = await self._call(
            lambda c: c.execute(
                "SELECT player_id, stack FROM table_stacks WHERE table_id = ? ORDER BY player_id",
                (table_id,),
            ).fetchall()
        )
        return {int(p): int(s) for p, s in rows}

    async def settle_hand(
        self,
        table_id: int,
        number: int,
        hand: Mapping[str, Any],
        result: Mapping[str, Any],
        players: Mapping[int, int],
        deltas: Mapping[int, int],
        *,
        key: str,
    ) -> HandRecord:
        """Record a finished hand and apply its kush in one transaction: one ``hand_result``
        row per entry of ``deltas`` (player id → kush, summing to zero; each player needs a
        stack row at the table), the stack changes, the history row and its players.

        The record returned by the first call holds the ``hand`` and ``result`` mappings
        passed in (not copies: decoding the stored JSON again would cost as much as the rest of
        the call); a repeated call, :meth:`hand_history` and :meth:`export_hands` return them
        as stored, i.e. as JSON (equal for JSON-shaped data: string keys, lists).

        :raises StorageError: if the deltas do not sum to zero, the table is closed or
            unknown, a player has no stack here, or ``number`` was already recorded.
        :raises InsufficientFunds: if a stack would go negative (R8.4).
        """
        seats, moves = check_settlement(players, deltas, number)
        require_key(key)
        hand_text = dump_json(hand, "hand")
        result_text = dump_json(result, "result")
        players_text = dump_json({str(s): p for s, p in seats.items()}, "players")
        stats = stat_rows(hand, result, seats, moves)
        new, row = await self._write(
            _settle, table_id, number, hand_text, result_text, players_text, seats, moves, key,
            stats,
        )  # fmt: skip
        if new:
            return HandRecord(row[0], table_id, number, hand, result, seats, row[1])
        return _hand(row)

    # -- tables -------------------------------------------------------------------------------
    async def create_table(
        self, community_id: int, chat_id: str, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        """Open a table in a chat. :raises StorageError: if the chat already has an open
        table, the community is unknown or ``min_buy_in`` is negative."""
        require_int(min_buy_in, "minimum buy-in", minimum=0)
        text = dump_json(options, "options")
        fence = self._fenced()

        def body(conn: Conn) -> Any:
            _require_community(conn, community_id)
            if fence is not None:
                row = conn.execute(
                    "SELECT l.worker, l.expires_at, c.platform || ':' || ? FROM communities c"
                    " LEFT JOIN leases l ON l.key = c.platform || ':' || ? WHERE c.id = ?",
                    (chat_id, chat_id, community_id),
                ).fetchone()
                if row[0] != fence[0] or row[1] is None or row[1] <= fence[1]:
                    raise LeaseLost(f"worker {fence[0]} does not hold {row[2]}")
            if conn.execute(
                "SELECT 1 FROM tables WHERE community_id = ? AND chat_id = ? AND open = 1",
                (community_id, chat_id),
            ).fetchone():
                raise StorageError(f"chat {chat_id!r} already has an open table")
            cur = conn.execute(
                "INSERT INTO tables (community_id, chat_id, options, min_buy_in, open, created_at)"
                " VALUES (?, ?, ?, ?, 1, ?)",
                (community_id, chat_id, text, min_buy_in, time.time()),
            )
            return (cur.lastrowid, community_id, chat_id, text, min_buy_in, 1)

        return _table(await self._write(body))

    async def open_table(self, community_id: int, chat_id: str) -> TableRecord | None:
        """The chat's open table, or ``None``."""
        row = await self._call(
            lambda c: c.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables"
                " WHERE community_id = ? AND chat_id = ? AND open = 1",
                (community_id, chat_id),
            ).fetchone()
        )
        return None if row is None else _table(row)

    async def open_tables(self, community_id: int) -> Sequence[TableRecord]:
        """The community's open tables, by id (the partial index ``tables_one_open_per_chat``)."""
        rows = await self._call(
            lambda c: c.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables"
                " WHERE community_id = ? AND open = 1 ORDER BY id",
                (community_id,),
            ).fetchall()
        )
        return [_table(r) for r in rows]

    async def get_table(self, table_id: int) -> TableRecord | None:
        """A table by id (open or closed), or ``None``."""
        row = await self._call(
            lambda c: c.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        )
        return None if row is None else _table(row)

    async def update_table(
        self, table_id: int, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        """Replace a table's options and minimum buy-in. :raises StorageError: if no such
        table or ``min_buy_in`` is negative."""
        require_int(min_buy_in, "minimum buy-in", minimum=0)
        text = dump_json(options, "options")

        def body(conn: Conn) -> Any:
            cur = conn.execute(
                "UPDATE tables SET options = ?, min_buy_in = ? WHERE id = ?",
                (text, min_buy_in, table_id),
            )
            if cur.rowcount == 0:
                raise StorageError(f"no table {table_id}")
            return conn.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()

        return _table(await self._write(body))

    async def close_table(self, table_id: int) -> None:
        """Close a table: its empty stack rows and its snapshot are deleted (closing a closed
        table does nothing). :raises StorageError: if no such table or a stack is not empty."""

        await self._write(_close_tx, table_id)

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        """One table transition in one ``BEGIN IMMEDIATE`` transaction; see
        :meth:`storage.api.Store.commit`. JSON is encoded before the transaction starts, so a
        value that does not serialise fails without touching the database."""
        require_key(key)
        prepared: list[BuyIn | CashOut | Grant | HouseGrant | Joined | _PreparedSettlement] = []
        for move in moves:
            if isinstance(move, BuyIn):
                require_int(move.amount, "buy-in", minimum=1)
                prepared.append(move)
            elif isinstance(move, Joined):
                prepared.append(move)
            elif isinstance(move, Grant):
                require_int(move.amount, "grant")
                if move.amount == 0:
                    raise StorageError("a grant of 0 kush")
                prepared.append(move)
            elif isinstance(move, HouseGrant):
                require_int(move.need, "house grant's need", minimum=1)
                require_int(move.target, "house grant's target", minimum=0)
                prepared.append(move)
            elif isinstance(move, CashOut):
                if move.kind not in CASH_OUT_KINDS:
                    raise StorageError(f"a cash-out writes cash_out or refund rows: {move.kind}")
                prepared.append(move)
            else:
                seats, deltas = check_settlement(move.players, move.deltas, move.number)
                prepared.append(
                    _PreparedSettlement(
                        move.number,
                        dump_json(move.hand, "hand"),
                        dump_json(move.result, "result"),
                        dump_json({str(s): p for s, p in seats.items()}, "players"),
                        seats,
                        deltas,
                        stat_rows(move.hand, move.result, seats, deltas),
                    )
                )
        text = None if snapshot is None else dump_json(snapshot, "snapshot")
        results: list[int] = await self._write(
            _commit_tx,
            table_id,
            prepared,
            text,
            close,
            key,
            self._fenced(),
            commit_seq(snapshot, close),
        )
        if snapshot is not None:
            self._wrote_snapshot(table_id, snapshot_seq(snapshot))
        return results

    def _wrote_snapshot(self, table_id: int, seq: int) -> None:
        """Remember the ``seq`` of a snapshot written (:attr:`_snapshot_seqs`)."""
        self._snapshot_seqs[table_id] = max(seq, self._snapshot_seqs.get(table_id, seq))

    async def save_snapshot(self, table_id: int, data: Mapping[str, Any]) -> None:
        """Store the live state of an open table, replacing the previous one unless that one
        is of a later transition (a higher ``"seq"``, :meth:`storage.api.Store.save_snapshot`).
        :raises StorageError: if no such table, it is closed, or ``data`` is not JSON."""
        text = dump_json(data, "snapshot")
        seq = snapshot_seq(data)
        if self._snapshot_seqs.get(table_id, seq) > seq:
            return  # a later step's snapshot is stored already (committed by it)
        await self._write(_snapshot_tx, table_id, text, self._fenced(), seq)
        self._wrote_snapshot(table_id, seq)

    async def save_owed(self, table_id: int, data: Mapping[str, Any]) -> None:
        """Replace the final snapshot of a closed table (what it still owes its chat).
        :raises StorageError: if no such table, it is open, or ``data`` is not JSON."""
        text = dump_json(data, "snapshot")
        fence = self._fenced()

        def body(conn: Conn) -> None:
            row = conn.execute("SELECT open FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                raise StorageError(f"no table {table_id}")
            if row[0]:
                raise StorageError(f"table {table_id} is open")
            _check_fence(conn, table_id, fence)
            _put_snapshot(conn, table_id, text)

        await self._write(body)

    async def delete_snapshot(self, table_id: int) -> None:
        """Forget a table's live state (nothing happens if there is none)."""
        fence = self._fenced()

        def body(conn: Conn) -> None:
            _check_fence(conn, table_id, fence)
            conn.execute("DELETE FROM snapshots WHERE table_id = ?", (table_id,))

        await self._write(body)
        self._snapshot_seqs.pop(table_id, None)

    # -- workers sharing the tables (issue 14) ---------------------------------------------
    def _fenced(self) -> tuple[str, float] | None:
        return None if self._fence is None else (self._fence, self.clock())

    def fence(self, worker: str | None) -> None:
        """See :meth:`storage.api.Store.fence`."""
        self._fence = worker

    async def acquire_lease(self, key: str, worker: str, ttl: float) -> bool:
        """See :meth:`storage.api.Store.acquire_lease`."""
        now = self.clock()

        def body(conn: Conn) -> bool:
            cur = conn.execute(
                "INSERT INTO leases (key, worker, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET worker = excluded.worker,"
                " expires_at = excluded.expires_at"
                " WHERE leases.worker = excluded.worker OR leases.expires_at <= ?",
                (key, worker, now + ttl, now),
            )
            return cur.rowcount == 1

        return bool(await self._write(body))

    async def renew_leases(self, worker: str, keys: Sequence[str], ttl: float) -> list[str]:
        """See :meth:`storage.api.Store.renew_leases`."""
        now = self.clock()
        wanted = list(dict.fromkeys(keys))

        def body(conn: Conn) -> list[str]:
            held = []
            for key in wanted:
                cur = conn.execute(
                    "UPDATE leases SET expires_at = ?"
                    " WHERE key = ? AND worker = ? AND expires_at > ?",
                    (now + ttl, key, worker, now),
                )
                if cur.rowcount == 1:
                    held.append(key)
            return held

        return list(await self._write(body)) if wanted else []

    async def release_lease(self, key: str, worker: str) -> None:
        """See :meth:`storage.api.Store.release_lease`."""
        now = self.clock()

        def body(conn: Conn) -> None:
            conn.execute(
                "DELETE FROM leases WHERE key = ? AND worker = ? AND expires_at > ?",
                (key, worker, now),
            )

        await self._write(body)

    async def lease_owner(self, key: str) -> str | None:
        """See :meth:`storage.api.Store.lease_owner`."""
        now = self.clock()
        row = await self._call(
            lambda c: c.execute(
                "SELECT worker FROM leases WHERE key = ? AND expires_at > ?", (key, now)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    async def lease_lapsed(self, key: str) -> float | None:
        """See :meth:`storage.api.Store.lease_lapsed`."""
        now = self.clock()
        row = await self._call(
            lambda c: c.execute("SELECT expires_at FROM leases WHERE key = ?", (key,)).fetchone()
        )
        return None if row is None else now - float(row[0])

    async def lapsed_leases(self, prefix: str) -> dict[str, str]:
        """See :meth:`storage.api.Store.lapsed_leases`."""
        return await self._leases(prefix, lapsed=True)

    async def leases(self, prefix: str) -> dict[str, str]:
        """See :meth:`storage.api.Store.leases`."""
        return await self._leases(prefix, lapsed=False)

    async def _leases(self, prefix: str, *, lapsed: bool) -> dict[str, str]:
        """The leases whose key begins with ``prefix``, key → worker: held (not expired) or,
        ``lapsed``, expired and not taken since."""
        now = self.clock()
        held = "<=" if lapsed else ">"
        rows = await self._call(
            lambda c: c.execute(
                "SELECT key, worker FROM leases"
                f" WHERE substr(key, 1, length(?)) = ? AND expires_at {held} ? ORDER BY key",
                (prefix, prefix, now),
            ).fetchall()
        )
        return {str(k): str(w) for k, w in rows}

    async def prune_leases(self, kept: float) -> int:
        """See :meth:`storage.api.Store.prune_leases`."""
        if kept < 0:
            raise ValueError(f"kept must not be negative: {kept}")
        before = self.clock() - kept

        def body(conn: Conn) -> int:
            cur = conn.execute(
                "DELETE FROM leases WHERE expires_at < ? AND key NOT IN"
                f" (SELECT {_LEASE_KEY} FROM tables t"
                " JOIN communities c ON c.id = t.community_id WHERE t.open = 1)",
                (before,),
            )
            return int(cur.rowcount)

        return int(await self._write(body))

    async def mark_alive(self, at: float) -> None:
        """See :meth:`storage.api.Store.mark_alive`."""

        def body(conn: Conn) -> None:
            conn.execute(
                "INSERT INTO alive (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = ?",
                (at, at),
            )

        await self._write(body)

    async def last_alive(self) -> float | None:
        """See :meth:`storage.api.Store.last_alive`."""
        row = await self._call(lambda c: c.execute("SELECT at FROM alive WHERE id = 1").fetchone())
        return None if row is None else float(row[0])

    async def remember_username(self, platform: str, username: str, user_id: str) -> None:
        """See :meth:`storage.api.Store.remember_username`."""
        key = username_key(username)

        def body(conn: Conn) -> None:
            conn.execute(
                "DELETE FROM usernames WHERE platform = ? AND user_id = ? AND name_key <> ?",
                (platform, user_id, key),
            )
            conn.execute(
                "INSERT INTO usernames (platform, name_key, user_id) VALUES (?, ?, ?)"
                " ON CONFLICT (platform, name_key) DO UPDATE SET user_id = excluded.user_id",
                (platform, key, user_id),
            )

        await self._write(body)

    async def user_of_username(self, platform: str, username: str) -> str | None:
        """See :meth:`storage.api.Store.user_of_username`."""
        key = name_key(username)
        row = await self._call(
            lambda c: c.execute(
                "SELECT user_id FROM usernames WHERE platform = ? AND name_key = ?",
                (platform, key),
            ).fetchone()
        )
        return None if row is None else str(row[0])

    async def heartbeat(self, worker: str, address: str, ttl: float) -> None:
        """See :meth:`storage.api.Store.heartbeat`."""
        until = self.clock() + ttl

        def body(conn: Conn) -> None:
            conn.execute(
                "INSERT INTO workers (worker, address, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (worker) DO UPDATE SET address = excluded.address,"
                " expires_at = excluded.expires_at",
                (worker, address, until),
            )

        await self._write(body)

    async def live_workers(self) -> dict[str, str]:
        """See :meth:`storage.api.Store.live_workers`."""
        now = self.clock()
        rows = await self._call(
            lambda c: c.execute(
                "SELECT worker, address FROM workers WHERE expires_at > ? ORDER BY worker", (now,)
            ).fetchall()
        )
        return {str(w): str(a) for w, a in rows}

    async def unleased_tables(self) -> list[tuple[int, str]]:
        """See :meth:`storage.api.Store.unleased_tables`."""
        now = self.clock()
        rows = await self._call(
            lambda c: c.execute(
                f"SELECT t.id, {_LEASE_KEY} FROM tables t"
                " JOIN communities c ON c.id = t.community_id"
                f" LEFT JOIN leases l ON l.key = {_LEASE_KEY} AND l.expires_at > ?"
                " WHERE t.open = 1 AND l.key IS NULL ORDER BY t.id",
                (now,),
            ).fetchall()
        )
        return [(int(tid), str(key)) for tid, key in rows]

    async def table_state(self, table_id: int) -> tuple[TableRecord, Mapping[str, Any]] | None:
        """See :meth:`storage.api.Store.table_state`."""
        row = await self._call(
            lambda c: c.execute(
                "SELECT t.id, t.community_id, t.chat_id, t.options, t.min_buy_in, t.open, s.data"
                " FROM tables t LEFT JOIN snapshots s ON s.table_id = t.id"
                " WHERE t.id = ? AND t.open = 1",
                (table_id,),
            ).fetchone()
        )
        if row is None:
            return None
        return _table(row), ({} if row[6] is None else load_json(row[6]))

    async def chat_table(self, platform: str, chat_id: str) -> int | None:
        """See :meth:`storage.api.Store.chat_table`."""
        row = await self._call(
            lambda c: c.execute(
                "SELECT t.id FROM tables t JOIN communities c ON c.id = t.community_id"
                " WHERE c.platform = ? AND t.chat_id = ? AND t.open = 1 ORDER BY t.id LIMIT 1",
                (platform, chat_id),
            ).fetchone()
        )
        return None if row is None else int(row[0])

    async def last_table(self, platform: str, user_id: str) -> int | None:
        """See :meth:`storage.api.Store.last_table`."""
        row = await self._call(lambda c: c.execute(_LAST_TABLE, (platform, user_id)).fetchone())
        return None if row is None else int(row[0])

    async def seated_tables(self, platform: str, user_id: str) -> list[int]:
        """See :meth:`storage.api.Store.seated_tables`."""
        rows = await self._call(
            lambda c: c.execute(
                "SELECT DISTINCT s.table_id FROM table_stacks s"
                " JOIN players p ON p.id = s.player_id"
                " JOIN communities c ON c.id = p.community_id"
                " JOIN tables t ON t.id = s.table_id"
                " WHERE c.platform = ? AND p.user_id = ? AND t.open = 1 ORDER BY s.table_id",
                (platform, user_id),
            ).fetchall()
        )
        return [int(r[0]) for r in rows]

    async def snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        """Every open table with its last snapshot (``{}`` if it has none), by table id."""
        rows = await self._call(
            lambda c: c.execute(
                "SELECT t.id, t.community_id, t.chat_id, t.options, t.min_buy_in, t.open, s.data"
                " FROM tables t LEFT JOIN snapshots s ON s.table_id = t.id"
                " WHERE t.open = 1 ORDER BY t.id"
            ).fetchall()
        )
        return [(_table(r), {} if r[6] is None else load_json(r[6])) for r in rows]

    async def closed_snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        """Every closed table with the final snapshot its closing commit kept (what it still
        owes the chat), by table id."""
        rows = await self._call(
            lambda c: c.execute(
                "SELECT t.id, t.community_id, t.chat_id, t.options, t.min_buy_in, t.open, s.data"
                " FROM tables t JOIN snapshots s ON s.table_id = t.id"
                " WHERE t.open = 0 ORDER BY t.id"
            ).fetchall()
        )
        return [(_table(r), load_json(r[6])) for r in rows]

    # -- history ------------------------------------------------------------------------------
    async def hand_history(self, player_id: int, limit: int = 10) -> Sequence[HandRecord]:
        """The player's last ``limit`` hands, newest first."""
        if limit <= 0:
            return []
        rows = await self._call(
            lambda c: c.execute(
                "SELECT h.id, h.table_id, h.number, h.hand, h.result, h.players, h.finished_at"
                " FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
                " WHERE hp.player_id = ? ORDER BY hp.hand_id DESC LIMIT ?",
                (player_id, limit),
            ).fetchall()
        )
        return [_hand(r) for r in rows]

    async def export_hands(self, table_id: int) -> list[dict[str, Any]]:
        """Every hand of a table, oldest first, as JSON-ready dicts: ``id``, ``table_id``,
        ``number``, ``hand``, ``result``, ``players`` (seat as a string → player id) and
        ``finished_at`` (Unix seconds)."""
        rows = await self._call(
            lambda c: c.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands WHERE table_id = ? ORDER BY id", (table_id,)
            ).fetchall()
        )
        return [hand_export(_hand(r)) for r in rows]

    async def ledger(self, community_id: int) -> Sequence[LedgerEntry]:
        """Every ledger row of a community, in id (= commit) order."""
        rows = await self._call(
            lambda c: c.execute(
                f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE community_id = ? ORDER BY id",
                (community_id,),
            ).fetchall()
        )
        return [ledger_entry(r) for r in rows]

    # -- statistics (issue 12) -------------------------------------------------------------------
    async def get_hand(self, hand_id: int) -> HandRecord | None:
        """A history entry by id, or ``None``."""
        row = await self._call(
            lambda c: c.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands WHERE id = ?", (hand_id,)
            ).fetchone()
        )
        return None if row is None else _hand(row)

    async def get_community(self, community_id: int) -> Community | None:
        """A community by id, or ``None``."""
        row = await self._call(
            lambda c: c.execute(
                "SELECT id, platform, external_id, title, settings FROM communities WHERE id = ?",
                (community_id,),
            ).fetchone()
        )
        return None if row is None else _community(row)

    async def player_stats(self, player_id: int, since: float | None = None) -> HandStats:
        """See :meth:`storage.api.Store.player_stats` (walks the player's primary key)."""
        return await self._call(_stats_tx, "player_id", player_id, since)

    async def community_stats(
        self, community_id: int, since: float | None = None, skip_prefix: str = ""
    ) -> HandStats:
        """See :meth:`storage.api.Store.community_stats` (index ``hand_players_by_community``;
        with ``skip_prefix``, the community's skipped players read once)."""
        return await self._call(_stats_tx, "community_id", community_id, since, skip_prefix)

    async def kush_leaderboard(
        self, community_id: int, since: float | None = None, limit: int = 10
    ) -> Sequence[tuple[Player, int, int]]:
        """See :meth:`storage.api.Store.kush_leaderboard`. The sums come from the covering
        index ``hand_players_by_community`` alone; players are joined to the sums only."""
        if limit <= 0:
            return []
        rows = await self._call(
            lambda c: c.execute(
                _KUSH_LEADERBOARD, (community_id, since_bound(since), limit)
            ).fetchall()
        )
        return [(_player(r), int(r[6]), int(r[7])) for r in rows]

    async def kush_series(
        self, player_id: int, since: float | None = None, points: int = 200
    ) -> list[tuple[float, int]]:
        """See :meth:`storage.api.Store.kush_series`: :data:`storage._common.KUSH_SERIES_SQL`
        (the running sum and the thinning in SQL, over the player's primary key)."""
        q = series_points(points) - 1
        rows = await self._call(
            lambda c: c.execute(_KUSH_SERIES, (player_id, since_bound(since), q)).fetchall()
        )
        return [(float(at), int(total)) for at, total in rows]

    async def audit_data(self) -> AuditData:
        """Everything :func:`storage.check.audit` needs, read in one consistent snapshot,
        the ledger's triggers included."""

        def body(conn: Conn) -> tuple[dict[str, list[Any]], list[Any]]:
            conn.execute("BEGIN")
            try:
                rows = {name: conn.execute(sql).fetchall() for name, sql in AUDIT_QUERIES.items()}
                return rows, _triggers(conn)
            finally:
                conn.execute("ROLLBACK")

        rows, triggers = await self._call(body)
        return AuditData.from_rows(rows, triggers)


# -- thread-side bodies of the bigger operations ----------------------------------------------
def _stats_tx(
    conn: Conn, column: str, value: int, since: float | None, skip_prefix: str = ""
) -> HandStats:
    """Thread side of the statistics: :func:`storage._common.stats_sql`'s aggregate over
    ``hand_players`` (``column`` is ``player_id`` or ``community_id``) and the biggest win."""
    aggregate, best = _STATS[column, bool(skip_prefix)]
    args: tuple[Any, ...] = (value, since_bound(since))
    if skip_prefix:
        args += (value, skip_prefix + "%")  # (community_stats only: ``value`` the community)
    return hand_stats(conn.execute(aggregate, args).fetchone(), conn.execute(best, args).fetchone())


def _backfill_hand_stats(conn: Conn) -> None:
    """After migration 002, in its transaction: the kush and the figures of every entry
    recorded before it, the way the writer derives them (:func:`stat_rows`, from the stored
    JSON; the kush from the entry's ``hand_result`` ledger rows, summed in one pass; community
    and time were filled by the SQL of the migration). One pass over ``hands`` and one over
    the ledger: no lookup by hand id, which no index serves."""
    kush = {(int(h), int(p)): int(k) for h, p, k in conn.execute(HAND_RESULT_SUMS)}
    for hand_id, hand_text, result_text, players_text in conn.execute(
        "SELECT id, hand, result, players FROM hands ORDER BY id"
    ):  # streamed: the updates touch hand_players only
        conn.executemany(
            _STAT_UPDATE, backfill_params(hand_id, hand_text, result_text, players_text, kush)
        )


_AFTER_MIGRATION: dict[int, Callable[[Conn], None]] = {2: _backfill_hand_stats}
"""Python steps run right after a migration's SQL, in its transaction (by version)."""


def _configure(conn: Conn, is_file: bool) -> None:
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    if is_file:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StorageError(f"could not switch the database to WAL (got {mode!r})")
    conn.execute("PRAGMA synchronous = NORMAL")


def _get_community(conn: Conn, platform: str, external_id: str, title: str) -> Any:
    select = (
        "SELECT id, platform, external_id, title, settings FROM communities"
        " WHERE platform = ? AND external_id = ?"
    )
    row = conn.execute(select, (platform, external_id)).fetchone()
    if row is not None and (not title or row[3] == title):
        return row

    def body(conn: Conn) -> Any:
        row = conn.execute(select, (platform, external_id)).fetchone()
        if row is None:
            conn.execute(
                "INSERT INTO communities (platform, external_id, title, settings, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    platform,
                    external_id,
                    title,
                    dump_json(CommunitySettings().to_json(), "settings"),
                    time.time(),
                ),
            )
        elif title and row[3] != title:
            conn.execute("UPDATE communities SET title = ? WHERE id = ?", (title, row[0]))
        return conn.execute(select, (platform, external_id)).fetchone()

    return _in_transaction(conn, body, ())


def _get_player(
    conn: Conn,
    community_id: int,
    user_id: str,
    name: str,
    language: str | None,
    starting: bool = True,
) -> Any:
    select = f"SELECT {_PLAYER_COLUMNS} FROM players WHERE community_id = ? AND user_id = ?"

    def unchanged(row: Any) -> bool:
        return row is not None and row[3] == name and (language is None or row[4] == language)

    row = conn.execute(select, (community_id, user_id)).fetchone()
    if unchanged(row):
        return row

    def body(conn: Conn) -> Any:
        row = conn.execute(select, (community_id, user_id)).fetchone()
        if unchanged(row):
            return row
        now = time.time()
        if row is not None:
            conn.execute(
                "UPDATE players SET name = ?, name_key = ?, language = COALESCE(?, language)"
                " WHERE id = ?",
                (name, name_key(name), language, row[0]),
            )
            return conn.execute(select, (community_id, user_id)).fetchone()
        settings_row = conn.execute(
            "SELECT settings FROM communities WHERE id = ?", (community_id,)
        ).fetchone()
        if settings_row is None:
            raise StorageError(f"no community {community_id}")
        start = CommunitySettings.from_json(load_json(settings_row[0])).starting_balance
        if start < 0:
            raise StorageError(f"community {community_id} has a negative starting balance")
        if not starting:  # (a computer player: house kush only, issue 13)
            start = 0
        cur = conn.execute(
            "INSERT INTO players (community_id, user_id, name, name_key, language, balance,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (community_id, user_id, name, name_key(name), language, start, now),
        )
        pid = int(cast(int, cur.lastrowid))
        if not starting:
            return conn.execute(select, (community_id, user_id)).fetchone()
        _ledger_row(
            conn,
            community_id,
            LedgerKind.STARTING,
            pid,
            None,
            start,
            0,
            starting_key(pid),
            now,
            reason="starting balance",
        )
        return conn.execute(select, (community_id, user_id)).fetchone()

    return _in_transaction(conn, body, ())


def _settle(
    conn: Conn,
    table_id: int,
    number: int,
    hand_text: str,
    result_text: str,
    players_text: str,
    seats: dict[int, int],
    moves: dict[int, int],
    key: str,
    stats: Sequence[StatRow],
) -> tuple[bool, Any]:
    """Thread side of :meth:`SqliteStore.settle_hand`: ``(True, (hand id, finished_at))``
    for a new settlement, ``(False, stored row)`` for a repeated key."""
    select = f"SELECT {_HAND_COLUMNS} FROM hands WHERE id = ?"
    done = _replay(conn, key, SETTLE_OPERATION)
    if done is not None:
        return False, conn.execute(select, (int(done["hand_id"]),)).fetchone()
    # the table and its stacks in one statement (a table without stacks gives one NULL row)
    rows = conn.execute(
        "SELECT t.community_id, t.open, s.player_id, s.stack"
        " FROM tables t LEFT JOIN table_stacks s ON s.table_id = t.id WHERE t.id = ?",
        (table_id,),
    ).fetchall()
    if not rows:
        raise StorageError(f"no table {table_id}")
    if not rows[0][1]:
        raise StorageError(f"table {table_id} is closed")
    community_id = int(rows[0][0])
    stacks = {r[2]: r[3] for r in rows if r[2] is not None}
    for pid, delta in moves.items():
        if pid not in stacks:
            raise StorageError(f"player {pid} has no stack at table {table_id}")
        if stacks[pid] + delta < 0:
            raise InsufficientFunds(
                f"player {pid} has a stack of {stacks[pid]} kush, cannot lose {-delta}"
            )
    # players with a stack here are known members; only look up the others
    others = [pid for pid in seats.values() if pid not in stacks]
    if others:
        found = conn.execute(
            "SELECT COUNT(*) FROM players WHERE community_id = ? AND id IN"
            f" ({','.join('?' * len(others))})",
            (community_id, *others),
        ).fetchone()[0]
        if found != len(others):
            raise StorageError(f"a seated player is not in community {community_id}")
    now = time.time()
    cur = conn.execute(
        "INSERT INTO hands (table_id, number, hand, result, players, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, number, hand_text, result_text, players_text, now),
    )
    hand_id = int(cast(int, cur.lastrowid))
    conn.executemany(_HAND_PLAYERS_INSERT, hand_player_params(stats, hand_id, community_id, now))
    conn.executemany(
        "UPDATE table_stacks SET stack = stack + ? WHERE table_id = ? AND player_id = ?",
        [(delta, table_id, pid) for pid, delta in moves.items()],
    )
    conn.executemany(
        "INSERT INTO ledger (community_id, kind, player_id, table_id, hand_id, balance_delta,"
        " stack_delta, actor, reason, key, created_at)"
        " VALUES (?, 'hand_result', ?, ?, ?, 0, ?, NULL, NULL, ?, ?)",
        [
            (community_id, pid, table_id, hand_id, delta, hand_row_key(key, pid), now)
            for pid, delta in moves.items()
        ],
    )
    _remember(conn, key, SETTLE_OPERATION, {"hand_id": hand_id}, now)
    return True, (hand_id, now)


def _grant_tx(
    conn: Conn, community_id: int, player_id: int, amount: int, actor: str, reason: str, key: str
) -> int:
    """Thread side of :meth:`SqliteStore.grant` (and of a :class:`Grant` move)."""
    done = _replay(conn, key, LedgerKind.ADMIN_GRANT.value)
    if done is not None:
        return int(done["balance"])
    balance = _balance(conn, player_id, community_id) + amount
    if balance < 0:
        raise InsufficientFunds(
            f"player {player_id} has {balance - amount} kush, cannot take {-amount}"
        )
    now = time.time()
    conn.execute("UPDATE players SET balance = ? WHERE id = ?", (balance, player_id))
    _ledger_row(
        conn,
        community_id,
        LedgerKind.ADMIN_GRANT,
        player_id,
        None,
        amount,
        0,
        key,
        now,
        actor=actor,
        reason=reason,
    )
    _remember(conn, key, LedgerKind.ADMIN_GRANT.value, {"balance": balance}, now)
    return balance


def _buy_in_tx(conn: Conn, table_id: int, player_id: int, amount: int, key: str) -> int:
    """Thread side of :meth:`SqliteStore.buy_in` (and of a :class:`BuyIn` move)."""
    done = _replay(conn, key, LedgerKind.BUY_IN.value)
    if done is not None:
        return int(done["stack"])
    community_id = _table_community(conn, table_id, must_be_open=True)
    balance = _balance(conn, player_id, community_id)
    if balance < amount:
        raise InsufficientFunds(
            f"player {player_id} has {balance} kush, needs {amount}",
            player_id=player_id,
            balance=balance,
            need=amount,
        )
    now = time.time()
    conn.execute("UPDATE players SET balance = ? WHERE id = ?", (balance - amount, player_id))
    conn.execute(
        "INSERT INTO table_stacks (table_id, player_id, stack) VALUES (?, ?, ?)"
        " ON CONFLICT (table_id, player_id) DO UPDATE SET stack = stack + excluded.stack",
        (table_id, player_id, amount),
    )
    stack = int(
        conn.execute(
            "SELECT stack FROM table_stacks WHERE table_id = ? AND player_id = ?",
            (table_id, player_id),
        ).fetchone()[0]
    )
    _ledger_row(
        conn, community_id, LedgerKind.BUY_IN, player_id, table_id, -amount, amount, key, now
    )
    _remember(conn, key, LedgerKind.BUY_IN.value, {"stack": stack}, now)
    return stack


def _cash_out_tx(conn: Conn, table_id: int, player_id: int, key: str, kind: LedgerKind) -> int:
    """Thread side of :meth:`SqliteStore.cash_out` (and of a :class:`CashOut` move)."""
    done = _replay(conn, key, kind.value)
    if done is not None:
        return int(done["amount"])
    community_id = _table_community(conn, table_id, must_be_open=False)
    balance = _balance(conn, player_id, community_id)
    row = conn.execute(
        "SELECT stack FROM table_stacks WHERE table_id = ? AND player_id = ?",
        (table_id, player_id),
    ).fetchone()
    amount = 0 if row is None else int(row[0])
    now = time.time()
    if row is not None:
        conn.execute(
            "DELETE FROM table_stacks WHERE table_id = ? AND player_id = ?", (table_id, player_id)
        )
    if amount:
        conn.execute("UPDATE players SET balance = ? WHERE id = ?", (balance + amount, player_id))
        _ledger_row(conn, community_id, kind, player_id, table_id, amount, -amount, key, now)
    _remember(conn, key, kind.value, {"amount": amount}, now)
    return amount


def _close_tx(conn: Conn, table_id: int) -> bool:
    """Thread side of :meth:`SqliteStore.close_table`; whether it closed the table now
    (``False``: it was closed already)."""
    row = conn.execute("SELECT open FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise StorageError(f"no table {table_id}")
    if not row[0]:
        return False
    left = conn.execute(
        "SELECT COALESCE(SUM(stack), 0) FROM table_stacks WHERE table_id = ?", (table_id,)
    ).fetchone()[0]
    if left:
        raise StorageError(f"table {table_id} still holds {left} kush in stacks")
    conn.execute("DELETE FROM table_stacks WHERE table_id = ?", (table_id,))
    conn.execute("DELETE FROM snapshots WHERE table_id = ?", (table_id,))
    conn.execute("UPDATE tables SET open = 0, closed_at = ? WHERE id = ?", (time.time(), table_id))
    return True


_LEASE_KEY = "c.platform || ':' || t.chat_id"
"""SQL of a table's lease key (:func:`storage.api.lease_key`), over ``tables t`` joined to
``communities c``."""


def _check_fence(conn: Conn, table_id: int, fence: tuple[str, float] | None) -> None:
    """Raise :class:`LeaseLost` unless the worker of ``fence`` (worker, now) holds the live
    lease of the table's chat (thread side, inside the writing transaction)."""
    if fence is None:
        return
    worker, now = fence
    row = conn.execute(
        f"SELECT l.worker, l.expires_at, {_LEASE_KEY} FROM tables t"
        " JOIN communities c ON c.id = t.community_id"
        f" LEFT JOIN leases l ON l.key = {_LEASE_KEY} WHERE t.id = ?",
        (table_id,),
    ).fetchone()
    if row is None:
        return  # no such table: the write itself says so
    if row[0] != worker or row[1] is None or row[1] <= now:
        raise LeaseLost(f"table {table_id}: worker {worker} does not hold {row[2]}")


def _snapshot_tx(
    conn: Conn,
    table_id: int,
    text: str,
    fence: tuple[str, float] | None,
    seq: int | None = None,
) -> None:
    """Thread side of :meth:`SqliteStore.save_snapshot` (``seq``: its transition number; a
    stored snapshot of a higher one is kept, read in this transaction: the store's memory
    of the snapshots it wrote misses one committed by a call whose caller was cancelled,
    or by another connection to the file)."""
    _table_community(conn, table_id, must_be_open=True)
    _check_fence(conn, table_id, fence)
    if seq is not None:
        row = conn.execute(
            "SELECT json_extract(data, '$.seq') FROM snapshots WHERE table_id = ?", (table_id,)
        ).fetchone()
        if row is not None and snapshot_seq(row[0]) > seq:
            return  # a newer step's snapshot is stored already (committed by it)
    _put_snapshot(conn, table_id, text)


def _put_snapshot(conn: Conn, table_id: int, text: str) -> None:
    """Write the snapshot row (the caller checked the table)."""
    conn.execute(
        "INSERT INTO snapshots (table_id, data, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (table_id) DO UPDATE"
        " SET data = excluded.data, updated_at = excluded.updated_at",
        (table_id, text, time.time()),
    )


class _PreparedSettlement(NamedTuple):
    """A :class:`Settlement` move with its JSON texts encoded on the event loop's side."""

    number: int
    hand_text: str
    result_text: str
    players_text: str
    seats: dict[int, int]
    moves: dict[int, int]
    stats: list[StatRow]


def _commit_tx(
    conn: Conn,
    table_id: int,
    moves: Sequence[BuyIn | CashOut | Grant | HouseGrant | Joined | _PreparedSettlement],
    snapshot_text: str | None,
    close: bool,
    key: str,
    fence: tuple[str, float] | None,
    seq: int | None = None,
) -> list[int]:
    """Thread side of :meth:`SqliteStore.commit` (``seq``: its live snapshot's, compared
    with the stored one's, :func:`~storage._common.check_newer`)."""
    _check_fence(conn, table_id, fence)
    done = _replay(conn, key, TRANSITION_OPERATION)
    if done is not None:
        return [int(x) for x in done["results"]]
    if seq is not None:  # (before any move: nothing of a stale step is written)
        row = conn.execute(
            "SELECT json_extract(data, '$.seq') FROM snapshots WHERE table_id = ?", (table_id,)
        ).fetchone()
        check_newer(table_id, seq, None if row is None else row[0])
    results: list[int] = []
    for i, move in enumerate(moves):
        sub = f"{key}/{i}"
        if isinstance(move, BuyIn):
            results.append(_buy_in_tx(conn, table_id, move.player_id, move.amount, sub))
        elif isinstance(move, CashOut):
            results.append(_cash_out_tx(conn, table_id, move.player_id, sub, move.kind))
        elif isinstance(move, Grant):
            community_id = _table_community(conn, table_id, must_be_open=True)
            results.append(
                _grant_tx(
                    conn, community_id, move.player_id, move.amount, move.actor, move.reason, sub
                )
            )
        elif isinstance(move, HouseGrant):
            community_id = _table_community(conn, table_id, must_be_open=True)
            have = _balance(conn, move.player_id, community_id)  # (in this transaction)
            amount = max(move.need, move.target) - have if have < move.need else 0
            if amount:
                _grant_tx(conn, community_id, move.player_id, amount, move.actor, move.reason, sub)
            results.append(amount)
        elif isinstance(move, Joined):
            _table_community(conn, table_id, must_be_open=True)
            row = conn.execute(_LAST_TABLE, (move.platform, move.user_id)).fetchone()
            results.append(0 if row is None else int(row[0]))
            conn.execute(_JOINED, (move.platform, move.user_id, table_id))
        else:
            _, row = _settle(
                conn,
                table_id,
                move.number,
                move.hand_text,
                move.result_text,
                move.players_text,
                move.seats,
                move.moves,
                sub,
                move.stats,
            )
            results.append(int(row[0]))
    if close:
        if _close_tx(conn, table_id) and snapshot_text is not None:
            _put_snapshot(conn, table_id, snapshot_text)  # its final snapshot (what it owes)
    elif snapshot_text is not None:
        _snapshot_tx(conn, table_id, snapshot_text, None)  # fenced above
    _remember(conn, key, TRANSITION_OPERATION, {"results": results}, time.time())
    return results


if TYPE_CHECKING:

    def _conforms(store: SqliteStore) -> Store:
        """mypy checks here that :class:`SqliteStore` implements :class:`Store`."""
        return store
