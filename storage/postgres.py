"""The PostgreSQL implementation of :class:`storage.api.Store` on asyncpg (issue 14: several
bot processes on one database). Selected by ``DATABASE_URL=postgresql://…``; SQLite
(:mod:`storage.sqlite`) stays the default.

Design:

- An asyncpg connection pool. Every store method is one transaction on one pooled
  connection (:func:`_transact`): ``BEGIN`` (READ COMMITTED), reads, checks, writes,
  ``COMMIT``; any error rolls the whole transaction back, so every call is all-or-nothing.
- Money under concurrency (R8.2, R8.4): a transaction locks the rows it will change before
  it reads the values it checks: the table row (``SELECT … FOR NO KEY UPDATE``) before its
  stacks, the player row before a debit of the balance. Two transactions spending one
  balance — in this process or in another bot process on the same database — therefore run
  one after the other, and the second sees the balance the first left: no balance or stack
  goes below zero (the schema's ``CHECK (balance >= 0)`` / ``CHECK (stack >= 0)`` would
  refuse it anyway). Lock order is: the idempotency key (an advisory lock), the table, then
  the players (a transition locks all of its players at once, in id order), so transactions
  do not deadlock; should one still hit a deadlock or a serialization failure, it is rerun
  from the start (:data:`RETRIES` times).
- Ledger order: a ledger row is inserted after its player's balance row (or its stack row)
  was changed in the same transaction, i.e. while that row is locked, so one player's rows
  are in id order of their commits and ``python -m storage check`` can replay them in id
  order.
- Idempotency: the ``operations`` table maps every key to the JSON result of its first
  call; a keyed call first takes a transaction-scoped advisory lock on the key, so two
  concurrent calls with one key run one after the other and the second returns the first's
  result.
- A call whose caller is cancelled once its transaction started completes it (the
  transaction runs in a shielded task), like :class:`storage.sqlite.SqliteStore`'s queue.
- TCP keepalives (:data:`KEEPALIVES`): every connection asks the server to probe it when
  idle, so a bot process that died or was cut off (a partition) has its connections
  closed, its transactions rolled back and their row locks freed within about two minutes,
  not after the server's OS default of some two hours of silence. The client side has no
  keepalive of its own (asyncpg offers none but through its private transport,
  MagicStack/asyncpg#606): a call the bot waits on is bound instead
  (:func:`~storage.api.answer_within`; the connection is dropped when its time is up).
- Migrations are the numbered files ``storage/migrations/postgres/NNN_name.sql`` (the same
  numbers and names as SQLite's), applied in order at :meth:`PostgresStore.open`, each in
  its own transaction with its ``schema_version`` row, under an advisory lock so that two
  processes starting at once apply each migration once.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar
from urllib.parse import SplitResult, parse_qs, unquote, urlsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

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
    StorageUnreachable,
    Store,
    TableRecord,
    lease_key,
    time_left,
)
from storage.check import AUDIT_QUERIES, TRIGGER_QUERIES, AuditData, warn_unguarded_at_open

__all__ = [
    "KEEPALIVES",
    "POOL_SIZE",
    "RETRIES",
    "PostgresStore",
    "is_postgres_url",
    "keepalives",
    "malformed_url",
    "migrations",
    "netloc_cut",
    "unreachable",
]

T = TypeVar("T")
Row = asyncpg.Record
if TYPE_CHECKING:  # the stubs' generics; at run time the classes are not subscriptable
    Conn = asyncpg.Connection[Row] | PoolConnectionProxy[Row]
else:
    Conn = asyncpg.Connection | PoolConnectionProxy

POOL_SIZE = 10
"""The most connections one store opens (transactions of one process running at once)."""

KEEPALIVES: Mapping[str, str] = {
    "tcp_keepalives_idle": "60",
    "tcp_keepalives_interval": "10",
    "tcp_keepalives_count": "6",
}
"""The server settings every connection of the store starts with (asyncpg's
``server_settings``, PostgreSQL's documented per-connection parameters): the server sends a
TCP keepalive probe after 60 s of silence on the connection, again every 10 s, and closes
it after 6 probes unanswered: a dead or cut-off bot process's locks are freed about two
minutes on. Ignored by the server on a unix socket (no TCP there: ``SHOW`` reads 0). Each
can be set otherwise in ``DATABASE_URL``'s query (``?tcp_keepalives_idle=30``), which then
holds (:func:`keepalives`)."""

RETRIES = 10
"""How many times a transaction that hit a deadlock or a serialization failure is rerun."""

_MIGRATION_LOCK = 0x0FC_B07_5C4E
"""The advisory lock key the migration runner holds (any constant, the same in every process)."""

#: how many times :meth:`PostgresStore.move_chat` is made when a row made under the new id
#: at that moment refuses it (a unique key): once more finds that row
MOVE_TRIES = 3

_RETRY_ERRORS = (asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError)

_PLAYER_COLUMNS = "id, community_id, user_id, name, language, balance"
_TABLE_COLUMNS = "id, community_id, chat_id, options, min_buy_in, open"
_HAND_COLUMNS = "id, table_id, number, hand, result, players, finished_at"
_COMMUNITY_COLUMNS = "id, platform, external_id, title, settings"
_STATS = {
    (c, skip): stats_sql(c, skip) for c in ("player_id", "community_id") for skip in (False, True)
}
"""The statistics' two queries by column (storage._common: the same text as SQLite's)."""

BACKFILL_BATCH = 500
"""Entries read at a time by migration 002's backfill (keyset pages of ``hands``)."""


def is_postgres_url(value: str) -> bool:
    """Whether ``value`` is a PostgreSQL connection URL (``postgresql://`` or ``postgres://``)."""
    return value.startswith(("postgresql://", "postgres://"))


def keepalives(url: str) -> dict[str, str]:
    """The :data:`KEEPALIVES` that ``url`` does not set in its query itself (a query
    parameter asyncpg does not know is a server setting, ``?tcp_keepalives_idle=30``, and the
    URL's own stays: asyncpg's ``server_settings`` argument would override it)."""
    given = parse_qs(urlsplit(url).query)
    return {name: value for name, value in KEEPALIVES.items() if name not in given}


def unreachable(error: BaseException, url: str | None = None) -> StorageError:
    """The :class:`StorageError` of a connection to PostgreSQL at ``url`` that failed:
    "cannot connect to PostgreSQL: <why>". asyncpg's ``TimeoutError`` (a server that accepts
    the connection and never answers, after its 60 s) has no text: the line ended in
    "PostgreSQL: " and said nothing. A socket's error that does not name the host (a host
    name that does not resolve, "[Errno -2] Name or service not known"; a unix socket's
    folder with no server, "[Errno 2] No such file or directory"; a server that never
    answers, whose timeout has no text) is followed by the hosts of ``url``
    (:func:`url_hosts`, never its password): "… (host db.example)"; a timeout's line named no
    host at all (ops42)."""
    why = str(error) or (
        "the server did not answer in time (a silent network or firewall, a server that "
        "hangs, or another service on that port)"
        if isinstance(error, TimeoutError)
        else type(error).__name__
    )
    if isinstance(error, OSError) and url is not None:  # (TimeoutError is an OSError)
        hosts = url_hosts(url)
        if hosts and not any(host in why for host in hosts):
            why += f" ({'hosts' if len(hosts) > 1 else 'host'} {', '.join(hosts)})"
    kind = StorageUnreachable if _out_of_reach(error) else StorageError
    return kind(f"cannot connect to PostgreSQL: {why}")


def url_hosts(url: str) -> list[str]:
    """The hosts a PostgreSQL ``url`` names, without their ports: those before its path
    (``postgresql://user:password@db1:5432,db2/ofc`` → ``db1``, ``db2``; ``[::1]`` → ``::1``),
    else its ``host`` query parameter's (a unix socket's folder: ``?host=/run/postgresql``);
    none when it names none (asyncpg then tries ``PGHOST`` or its local sockets) or cannot be
    read. Never a part of the password: the hosts are what follows the netloc's last ``@``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    if netloc_cut(parts):  # (what would read as hosts may be the password's end)
        return []
    listed = parts.netloc.rpartition("@")[2]
    if not listed:
        listed = ",".join(parse_qs(parts.query).get("host", []))
    hosts = []
    for item in listed.split(","):
        host = item[1:].partition("]")[0] if item.startswith("[") else item.partition(":")[0]
        if host:
            hosts.append(unquote(host))
    return hosts


def netloc_cut(parts: SplitResult) -> bool:
    """Whether the URL split into ``parts`` has an ``@`` after its netloc: a password's
    unescaped ``/``, ``?`` or ``#`` ended the netloc inside the password
    (``postgresql://ofc:pa/ss@db/ofc``), its rest read as the path, query or fragment. No
    host, role or database is then named from it (rev42: "ALTER DATABASE ss@db/ofc" and
    "(hosts ofc, secret)" printed a piece of the password)."""
    return "@" in parts.path or "@" in parts.query or "@" in parts.fragment


def _out_of_reach(error: BaseException) -> bool:
    """Whether a failed connection may well succeed later (:class:`StorageUnreachable`): no
    answer, refused or reset (``OSError``, ``TimeoutError`` among them; a host name that does
    not resolve), the connection lost on the way, a server starting up or shutting down
    (57P03), shut down by its administrator or restarting after a crash (57P01, 57P02: a
    server restarted under a start's migrations) or out of connections (53300). Not a
    refused password, a database or role that does not exist, or another error the server or
    asyncpg names."""
    return isinstance(
        error,
        OSError
        | asyncpg.exceptions.ConnectionDoesNotExistError
        | asyncpg.exceptions.CannotConnectNowError
        | asyncpg.exceptions.AdminShutdownError
        | asyncpg.exceptions.CrashShutdownError
        | asyncpg.exceptions.TooManyConnectionsError,
    )


def malformed_url(url: str, error: ValueError) -> StorageError:
    """The :class:`StorageError` of a PostgreSQL URL that asyncpg or :func:`urlsplit` cannot
    parse (``ValueError``: a port that is no number, ``[::1`` without its ``]``), its text
    without the URL's password: "cannot connect to PostgreSQL: the URL is malformed (…)"."""
    text = str(error)
    netloc = url.partition("://")[2].partition("/")[0]
    for userinfo in (netloc.rpartition("@")[0], netloc.partition("@")[0]):
        password = userinfo.partition(":")[2]
        if password:
            text = text.replace(password, "***")
    return StorageError(f"cannot connect to PostgreSQL: the URL is malformed ({text})")


def migrations() -> list[Migration]:
    """The migration files of ``storage/migrations/postgres`` in order.

    :raises StorageError: if a ``.sql`` file is misnamed or the numbers are not 1, 2, 3, …
    """
    return read_migrations("migrations", "postgres")


def _storage_error(e: BaseException) -> BaseException:
    """asyncpg errors as :class:`StorageError` (others unchanged); a connection out of reach
    (:func:`_out_of_reach`: lost on the way, the server starting up or out of connections)
    as :class:`StorageUnreachable`, as at the connection: the start's migrations lost to a
    database restart were "PostgreSQL error" and exit status 2, not 75 (brk65)."""
    if _out_of_reach(e):
        return StorageUnreachable(f"cannot reach PostgreSQL: {e or type(e).__name__}")
    if isinstance(e, asyncpg.exceptions.IntegrityConstraintViolationError):
        return StorageError(f"constraint failed: {e}")
    if isinstance(e, asyncpg.PostgresError):
        return StorageError(f"PostgreSQL error: {e}")
    if isinstance(e, asyncpg.exceptions.InterfaceError):
        if "closed" in str(e) or "closing" in str(e):
            return StorageError("the store is closed")
        return StorageError(f"PostgreSQL client error: {e}")
    if isinstance(e, asyncpg.exceptions.InternalClientError):
        return StorageError(f"cannot reach PostgreSQL: {e}")
    return e


async def _transact(conn: Conn, body: Callable[..., Awaitable[T]], args: tuple[Any, ...]) -> T:
    """Run ``body(conn, *args)`` in one READ COMMITTED transaction: committed when it returns,
    rolled back when it raises (and the error propagates). The crash test wraps this function
    to watch commits (tests/bot/crash/child.py)."""
    async with conn.transaction():
        return await body(conn, *args)


async def _migrate(conn: Conn) -> list[int]:
    """Apply the pending migrations. Returns the versions applied now.

    :raises StorageError: if the database is newer than the code, or an applied version has
        another file name than the code's.
    """
    known = migrations()
    applied_now: list[int] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
    for mig in [None, *known]:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            rows = await conn.fetch("SELECT version, name FROM schema_version")
            applied = {int(r[0]): str(r[1]) for r in rows}
            if mig is None:  # the first round only checks the database is not newer
                newest = max(applied, default=0)
                if newest > len(known):
                    raise StorageError(
                        f"the database has schema version {newest}, newer than this code "
                        f"({len(known)})"
                    )
                continue
            if mig.version not in applied:
                await conn.execute(mig.sql)  # simple query protocol: a whole script
                post = _AFTER_MIGRATION.get(mig.version)
                if post is not None:
                    await post(conn)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    mig.version,
                    mig.name,
                    time.time(),
                )
                applied[mig.version] = mig.name
                applied_now.append(mig.version)
            if applied[mig.version] != mig.name:
                raise StorageError(
                    f"schema version {mig.version} was applied as {applied[mig.version]!r}, "
                    f"but the code has {mig.name!r}"
                )
    return applied_now


async def _backfill_hand_stats(conn: Conn) -> None:
    """After migration 002, in its transaction: the kind, the kush and the figures of every
    entry recorded before it, the way the writer derives them (the Python of SQLite's step,
    :func:`storage._common.backfill_params`: :func:`stat_rows` on the stored JSON, the kush
    from the entry's ``hand_result`` ledger rows summed in one pass); community and time
    were filled by the migration's SQL. ``hands`` is read in id order, :data:`BACKFILL_BATCH`
    rows at a time."""
    kush = {(int(h), int(p)): int(k) for h, p, k in await conn.fetch(HAND_RESULT_SUMS)}
    last: int | None = None
    while True:
        rows = await conn.fetch(
            "SELECT id, hand, result, players FROM hands"
            " WHERE $1::bigint IS NULL OR id > $1 ORDER BY id LIMIT $2",
            last,
            BACKFILL_BATCH,
        )
        if not rows:
            return
        params = [p for r in rows for p in backfill_params(int(r[0]), r[1], r[2], r[3], kush)]
        if params:
            await conn.executemany(STAT_UPDATE, params)
        last = int(rows[-1][0])


_AFTER_MIGRATION: dict[int, Callable[[Conn], Awaitable[None]]] = {2: _backfill_hand_stats}
"""Python steps run right after a migration's SQL, in its transaction (by version; the same
steps as :mod:`storage.sqlite`'s)."""


# -- row decoding ----------------------------------------------------------------------------
def _community(row: Row) -> Community:
    return Community(
        int(row[0]), row[1], row[2], row[3], CommunitySettings.from_json(load_json(row[4]))
    )


def _player(row: Row) -> Player:
    return Player(int(row[0]), int(row[1]), row[2], row[3], row[4], int(row[5]))


def _table(row: Row | Sequence[Any]) -> TableRecord:
    return TableRecord(
        int(row[0]), int(row[1]), row[2], load_json(row[3]), int(row[4]), bool(row[5])
    )


def _hand(row: Row) -> HandRecord:
    return HandRecord(
        int(row[0]),
        int(row[1]),
        int(row[2]),
        load_json(row[3]),
        load_json(row[4]),
        seats_from_json(load_json(row[5])),
        float(row[6]),
    )


# -- helpers run inside a transaction ---------------------------------------------------------
async def _lock_key(conn: Conn, key: str) -> None:
    """Serialise the calls that use ``key`` (until this transaction ends)."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)


async def _replay(conn: Conn, key: str, kind: str) -> Any | None:
    """The stored result of ``key``, or ``None`` if it was never applied.
    :raises StorageError: if the key was used by another kind of operation."""
    row = await conn.fetchrow("SELECT kind, result FROM operations WHERE key = $1", key)
    if row is None:
        return None
    if row[0] != kind:
        raise StorageError(f"key {key!r} was already used for {row[0]}, not {kind}")
    return load_json(row[1])


async def _remember(conn: Conn, key: str, kind: str, result: Any, now: float) -> None:
    await conn.execute(
        "INSERT INTO operations (key, kind, result, created_at) VALUES ($1, $2, $3, $4)",
        key,
        kind,
        dump_json(result, "result"),
        now,
    )


async def _ledger_row(
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
    await conn.execute(
        "INSERT INTO ledger (community_id, kind, player_id, table_id, hand_id, balance_delta,"
        " stack_delta, actor, reason, key, created_at)"
        " VALUES ($1, $2, $3, $4, NULL, $5, $6, $7, $8, $9, $10)",
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
    )


async def _lock_balance(conn: Conn, player_id: int, community_id: int) -> int:
    """Lock the player's row and return the balance.
    :raises StorageError: if no such player in the community."""
    row = await conn.fetchrow(
        "SELECT community_id, balance FROM players WHERE id = $1 FOR NO KEY UPDATE", player_id
    )
    if row is None:
        raise StorageError(f"no player {player_id}")
    if row[0] != community_id:
        raise StorageError(f"player {player_id} is not in community {community_id}")
    return int(row[1])


async def _lock_table(conn: Conn, table_id: int, *, must_be_open: bool) -> int:
    """Lock the table's row and return its community.
    :raises StorageError: if no such table (or it is closed)."""
    return (await _lock_table_row(conn, table_id, must_be_open=must_be_open))[0]


async def _lock_table_row(conn: Conn, table_id: int, *, must_be_open: bool) -> tuple[int, bool]:
    """Lock the table's row; its community and whether it is open.
    :raises StorageError: if no such table (or it is closed)."""
    row = await conn.fetchrow(
        "SELECT community_id, open FROM tables WHERE id = $1 FOR NO KEY UPDATE", table_id
    )
    if row is None:
        raise StorageError(f"no table {table_id}")
    if must_be_open and not row[1]:
        raise StorageError(f"table {table_id} is closed")
    return int(row[0]), bool(row[1])


async def _get_community(conn: Conn, platform: str, external_id: str, title: str) -> Row:
    select = (
        f"SELECT {_COMMUNITY_COLUMNS} FROM communities WHERE platform = $1 AND external_id = $2"
    )
    await conn.execute(
        "INSERT INTO communities (platform, external_id, title, settings, created_at)"
        " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (platform, external_id) DO NOTHING",
        platform,
        external_id,
        title,
        dump_json(CommunitySettings().to_json(), "settings"),
        time.time(),
    )
    if title:
        await conn.execute(
            "UPDATE communities SET title = $3"
            " WHERE platform = $1 AND external_id = $2 AND title <> $3",
            platform,
            external_id,
            title,
        )
    row = await conn.fetchrow(select, platform, external_id)
    assert row is not None
    return row


async def _get_player(
    conn: Conn,
    community_id: int,
    user_id: str,
    name: str,
    language: str | None,
    starting: bool = True,
) -> Row:
    select = f"SELECT {_PLAYER_COLUMNS} FROM players WHERE community_id = $1 AND user_id = $2"
    row = await conn.fetchrow(select + " FOR NO KEY UPDATE", community_id, user_id)
    if row is not None:
        if row[3] == name and (language is None or row[4] == language):
            return row
        await conn.execute(
            "UPDATE players SET name = $1, name_key = $2, language = COALESCE($3, language)"
            " WHERE id = $4",
            name,
            name_key(name),
            language,
            row[0],
        )
        changed = await conn.fetchrow(select, community_id, user_id)
        assert changed is not None
        return changed
    settings_row = await conn.fetchrow(
        "SELECT settings FROM communities WHERE id = $1", community_id
    )
    if settings_row is None:
        raise StorageError(f"no community {community_id}")
    start = CommunitySettings.from_json(load_json(settings_row[0])).starting_balance
    if start < 0:
        raise StorageError(f"community {community_id} has a negative starting balance")
    if not starting:  # (a computer player: house kush only, issue 13)
        start = 0
    now = time.time()
    pid = await conn.fetchval(
        "INSERT INTO players (community_id, user_id, name, name_key, language, balance,"
        " created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)"
        " ON CONFLICT (community_id, user_id) DO NOTHING RETURNING id",
        community_id,
        user_id,
        name,
        name_key(name),
        language,
        start,
        now,
    )
    if pid is None:  # another transaction created them meanwhile: take theirs, then update
        return await _get_player(conn, community_id, user_id, name, language, starting)
    if not starting:
        row = await conn.fetchrow(select, community_id, user_id)
        assert row is not None
        return row
    await _ledger_row(
        conn,
        community_id,
        LedgerKind.STARTING,
        int(pid),
        None,
        start,
        0,
        starting_key(int(pid)),
        now,
        reason="starting balance",
    )
    row = await conn.fetchrow(select, community_id, user_id)
    assert row is not None
    return row


async def _settle(
    conn: Conn,
    table_id: int,
    number: int,
    hand_text: str,
    result_text: str,
    players_text: str,
    seats: dict[int, int],
    moves: dict[int, int],
    stats: Sequence[StatRow],
    key: str,
) -> tuple[bool, Any]:
    """:meth:`PostgresStore.settle_hand` inside a transaction: ``(True, (hand id,
    finished_at))`` for a new settlement, ``(False, stored row)`` for a repeated key. The
    ``hand_players`` rows carry the settlement's figures (``stats``, migration 002), written
    in this transaction with the hand. ``key`` comes last (:func:`_keyed` locks it)."""
    select = f"SELECT {_HAND_COLUMNS} FROM hands WHERE id = $1"
    done = await _replay(conn, key, SETTLE_OPERATION)
    if done is not None:
        return False, await conn.fetchrow(select, int(done["hand_id"]))
    community_id = await _lock_table(conn, table_id, must_be_open=True)
    rows = await conn.fetch(
        "SELECT player_id, stack FROM table_stacks WHERE table_id = $1 ORDER BY player_id"
        " FOR NO KEY UPDATE",
        table_id,
    )
    stacks = {int(r[0]): int(r[1]) for r in rows}
    for pid, delta in moves.items():
        if pid not in stacks:
            raise StorageError(f"player {pid} has no stack at table {table_id}")
        if stacks[pid] + delta < 0:
            raise InsufficientFunds(
                f"player {pid} has a stack of {stacks[pid]} kush, cannot lose {-delta}"
            )
    others = [pid for pid in seats.values() if pid not in stacks]
    if others:
        found = await conn.fetchval(
            "SELECT COUNT(*) FROM players WHERE community_id = $1 AND id = ANY($2::bigint[])",
            community_id,
            others,
        )
        if found != len(others):
            raise StorageError(f"a seated player is not in community {community_id}")
    now = time.time()
    hand_id = int(
        await conn.fetchval(
            "INSERT INTO hands (table_id, number, hand, result, players, finished_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            table_id,
            number,
            hand_text,
            result_text,
            players_text,
            now,
        )
    )
    await conn.executemany(
        HAND_PLAYERS_INSERT, hand_player_params(stats, hand_id, community_id, now)
    )
    await conn.executemany(
        "UPDATE table_stacks SET stack = stack + $1 WHERE table_id = $2 AND player_id = $3",
        [(delta, table_id, pid) for pid, delta in moves.items()],
    )
    await conn.executemany(
        "INSERT INTO ledger (community_id, kind, player_id, table_id, hand_id, balance_delta,"
        " stack_delta, actor, reason, key, created_at)"
        " VALUES ($1, 'hand_result', $2, $3, $4, 0, $5, NULL, NULL, $6, $7)",
        [
            (community_id, pid, table_id, hand_id, delta, hand_row_key(key, pid), now)
            for pid, delta in moves.items()
        ],
    )
    await _remember(conn, key, SETTLE_OPERATION, {"hand_id": hand_id}, now)
    return True, (hand_id, now)


async def _grant_tx(
    conn: Conn, community_id: int, player_id: int, amount: int, actor: str, reason: str, key: str
) -> int:
    """:meth:`PostgresStore.grant` (and a :class:`Grant` move) inside a transaction."""
    done = await _replay(conn, key, LedgerKind.ADMIN_GRANT.value)
    if done is not None:
        return int(done["balance"])
    balance = await _lock_balance(conn, player_id, community_id) + amount
    if balance < 0:
        raise InsufficientFunds(
            f"player {player_id} has {balance - amount} kush, cannot take {-amount}"
        )
    now = time.time()
    await conn.execute("UPDATE players SET balance = $1 WHERE id = $2", balance, player_id)
    await _ledger_row(
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
    await _remember(conn, key, LedgerKind.ADMIN_GRANT.value, {"balance": balance}, now)
    return balance


async def _buy_in_tx(conn: Conn, table_id: int, player_id: int, amount: int, key: str) -> int:
    """:meth:`PostgresStore.buy_in` (and a :class:`BuyIn` move) inside a transaction."""
    done = await _replay(conn, key, LedgerKind.BUY_IN.value)
    if done is not None:
        return int(done["stack"])
    community_id = await _lock_table(conn, table_id, must_be_open=True)
    balance = await _lock_balance(conn, player_id, community_id)
    if balance < amount:
        raise InsufficientFunds(
            f"player {player_id} has {balance} kush, needs {amount}",
            player_id=player_id,
            balance=balance,
            need=amount,
        )
    now = time.time()
    await conn.execute("UPDATE players SET balance = balance - $1 WHERE id = $2", amount, player_id)
    stack = int(
        await conn.fetchval(
            "INSERT INTO table_stacks (table_id, player_id, stack) VALUES ($1, $2, $3)"
            " ON CONFLICT (table_id, player_id) DO UPDATE"
            " SET stack = table_stacks.stack + excluded.stack RETURNING stack",
            table_id,
            player_id,
            amount,
        )
    )
    await _ledger_row(
        conn, community_id, LedgerKind.BUY_IN, player_id, table_id, -amount, amount, key, now
    )
    await _remember(conn, key, LedgerKind.BUY_IN.value, {"stack": stack}, now)
    return stack


async def _cash_out_tx(
    conn: Conn, table_id: int, player_id: int, key: str, kind: LedgerKind
) -> int:
    """:meth:`PostgresStore.cash_out` (and a :class:`CashOut` move) inside a transaction."""
    done = await _replay(conn, key, kind.value)
    if done is not None:
        return int(done["amount"])
    community_id = await _lock_table(conn, table_id, must_be_open=False)
    await _lock_balance(conn, player_id, community_id)
    stack = await conn.fetchval(
        "DELETE FROM table_stacks WHERE table_id = $1 AND player_id = $2 RETURNING stack",
        table_id,
        player_id,
    )
    amount = 0 if stack is None else int(stack)
    now = time.time()
    if amount:
        await conn.execute(
            "UPDATE players SET balance = balance + $1 WHERE id = $2", amount, player_id
        )
        await _ledger_row(conn, community_id, kind, player_id, table_id, amount, -amount, key, now)
    await _remember(conn, key, kind.value, {"amount": amount}, now)
    return amount


async def _close_tx(conn: Conn, table_id: int) -> bool:
    """:meth:`PostgresStore.close_table` inside a transaction; whether it closed the table
    now (``False``: it was closed already)."""
    row = await conn.fetchrow("SELECT open FROM tables WHERE id = $1 FOR NO KEY UPDATE", table_id)
    if row is None:
        raise StorageError(f"no table {table_id}")
    if not row[0]:
        return False
    left = await conn.fetchval(
        "SELECT COALESCE(SUM(stack), 0) FROM table_stacks WHERE table_id = $1", table_id
    )
    if left:
        raise StorageError(f"table {table_id} still holds {left} kush in stacks")
    await conn.execute("DELETE FROM table_stacks WHERE table_id = $1", table_id)
    await conn.execute("DELETE FROM snapshots WHERE table_id = $1", table_id)
    await conn.execute(
        "UPDATE tables SET open = FALSE, closed_at = $1 WHERE id = $2", time.time(), table_id
    )
    return True


def _now(n: int) -> str:
    """SQL of "now" in Unix seconds: parameter ``$n`` (a test's clock) or, when it is NULL,
    the server's clock, which every worker shares."""
    return f"COALESCE(${n}::float8, extract(epoch FROM clock_timestamp())::float8)"


_LEASE_KEY = "c.platform || ':' || t.chat_id"
"""SQL of a table's lease key (:func:`storage.api.lease_key`), over ``tables t`` joined to
``communities c``."""


async def _check_fence(conn: Conn, table_id: int, fence: tuple[str, float | None] | None) -> None:
    """Raise :class:`LeaseLost` unless the worker of ``fence`` (worker, clock) holds the live
    lease of the table's chat. The lease row is locked (``FOR SHARE``) until the transaction
    ends, so a worker taking the chat over waits for this transition to commit and then
    restores the snapshot it wrote."""
    await _fenced_lock(conn, table_id, fence, lock_table=False, must_be_open=False)


async def _lock_fenced_table(
    conn: Conn, table_id: int, fence: tuple[str, float | None] | None, *, must_be_open: bool
) -> bool:
    """:func:`_check_fence`, then lock the table's row (:func:`_lock_table`), in one round
    trip when fenced; whether the table is open.
    :raises LeaseLost: as :func:`_check_fence`. :raises StorageError: as :func:`_lock_table`."""
    if fence is None:
        return (await _lock_table_row(conn, table_id, must_be_open=must_be_open))[1]
    is_open = await _fenced_lock(conn, table_id, fence, lock_table=True, must_be_open=must_be_open)
    return bool(is_open)


async def _fenced_lock(
    conn: Conn,
    table_id: int,
    fence: tuple[str, float | None] | None,
    *,
    lock_table: bool,
    must_be_open: bool,
) -> bool | None:
    """The fence check of :func:`_check_fence` (nothing without a fence) in one statement
    that reads the table, its chat's key and the lease, locking the lease row and, with
    ``lock_table``, the table's row; whether the table is open (``None``: no such table, or
    no fence). A second round trip only when no lease row was found, to tell a missing table
    from a missing lease."""
    if fence is None:
        return None
    worker, now = fence
    locks = "FOR NO KEY UPDATE OF t FOR SHARE OF l" if lock_table else "FOR SHARE OF l"
    held = await conn.fetchrow(
        f"SELECT l.worker, l.expires_at > {_now(2)}, {_LEASE_KEY}, t.open FROM tables t"
        " JOIN communities c ON c.id = t.community_id"
        f" JOIN leases l ON l.key = {_LEASE_KEY} WHERE t.id = $1 {locks}",
        table_id,
        now,
    )
    if held is None:
        if lock_table:  # no such table: StorageError, as the unfenced lock says
            await _lock_table_row(conn, table_id, must_be_open=must_be_open)
        elif await conn.fetchrow("SELECT 1 FROM tables WHERE id = $1", table_id) is None:
            return None  # no such table: the write itself says so
        raise LeaseLost(f"table {table_id}: worker {worker} holds no lease of its chat")
    if held[0] != worker or not held[1]:
        raise LeaseLost(f"table {table_id}: worker {worker} does not hold {held[2]}")
    if must_be_open and not held[3]:
        raise StorageError(f"table {table_id} is closed")
    return bool(held[3])


async def _snapshot_tx(
    conn: Conn,
    table_id: int,
    text: str,
    fence: tuple[str, float | None] | None = None,
    seq: int | None = None,
) -> None:
    """:meth:`PostgresStore.save_snapshot` inside a transaction (``seq``: its transition
    number, a stored snapshot of a higher one is kept; the table's row lock orders it with
    the commits)."""
    await _lock_fenced_table(conn, table_id, fence, must_be_open=True)
    if seq is not None:
        stored = await conn.fetchval(
            "SELECT data ->> 'seq' FROM snapshots WHERE table_id = $1", table_id
        )
        if stored is not None and snapshot_seq(stored) > seq:
            return  # a newer step's snapshot is stored already (committed by it)
    await _put_snapshot(conn, table_id, text)


async def _put_snapshot(conn: Conn, table_id: int, text: str) -> None:
    """Write the snapshot row (the table's row locked and found open by the caller, or
    closed by this transaction: its final snapshot)."""
    await conn.execute(
        "INSERT INTO snapshots (table_id, data, updated_at) VALUES ($1, $2, $3)"
        " ON CONFLICT (table_id) DO UPDATE"
        " SET data = excluded.data, updated_at = excluded.updated_at",
        table_id,
        text,
        time.time(),
    )


class _PreparedSettlement(NamedTuple):
    """A :class:`Settlement` move with its JSON texts encoded before the transaction."""

    number: int
    hand_text: str
    result_text: str
    players_text: str
    seats: dict[int, int]
    moves: dict[int, int]
    stats: list[StatRow]


async def _commit_tx(
    conn: Conn,
    table_id: int,
    moves: Sequence[BuyIn | CashOut | Grant | HouseGrant | Joined | _PreparedSettlement],
    snapshot_text: str | None,
    close: bool,
    key: str,
    fence: tuple[str, float | None] | None = None,
    seq: int | None = None,
) -> list[int]:
    """:meth:`PostgresStore.commit` inside a transaction (``seq``: its live snapshot's,
    compared with the stored one's, :func:`~storage._common.check_newer`)."""
    # the table first (with the fence check, one round trip), then every player whose
    # balance a move changes, in id order: two transitions seating the same players never
    # wait on each other in a cycle
    is_open = await _lock_fenced_table(conn, table_id, fence, must_be_open=False)
    await _lock_key(conn, key)
    done = await _replay(conn, key, TRANSITION_OPERATION)
    if done is not None:
        return [int(x) for x in done["results"]]
    if seq is not None:  # (the table's row is locked: no commit of it in between)
        stored = await conn.fetchval(
            "SELECT data ->> 'seq' FROM snapshots WHERE table_id = $1", table_id
        )
        check_newer(table_id, seq, stored)
    wallets = sorted(
        {m.player_id for m in moves if isinstance(m, BuyIn | CashOut | Grant | HouseGrant)}
    )
    if wallets:
        await conn.execute(
            "SELECT 1 FROM players WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE",
            wallets,
        )
    results: list[int] = []
    for i, move in enumerate(moves):
        sub = f"{key}/{i}"
        if isinstance(move, BuyIn):
            results.append(await _buy_in_tx(conn, table_id, move.player_id, move.amount, sub))
        elif isinstance(move, CashOut):
            results.append(await _cash_out_tx(conn, table_id, move.player_id, sub, move.kind))
        elif isinstance(move, Grant):
            community = await _lock_table(conn, table_id, must_be_open=True)
            results.append(
                await _grant_tx(
                    conn, community, move.player_id, move.amount, move.actor, move.reason, sub
                )
            )
        elif isinstance(move, HouseGrant):
            community = await _lock_table(conn, table_id, must_be_open=True)
            have = await _lock_balance(conn, move.player_id, community)  # (locked: this
            # transaction's balance, never one read before it)
            amount = max(move.need, move.target) - have if have < move.need else 0
            if amount:
                await _grant_tx(
                    conn, community, move.player_id, amount, move.actor, move.reason, sub
                )
            results.append(amount)
        elif isinstance(move, Joined):
            if not is_open:  # (the table's row is locked since the start)
                raise StorageError(f"table {table_id} is closed")
            last = await conn.fetchval(LAST_TABLE_SQL, move.platform, move.user_id)
            results.append(0 if last is None else int(last))
            await conn.execute(JOINED_SQL, move.platform, move.user_id, table_id)
        else:
            _, row = await _settle(
                conn,
                table_id,
                move.number,
                move.hand_text,
                move.result_text,
                move.players_text,
                move.seats,
                move.moves,
                move.stats,
                sub,
            )
            results.append(int(row[0]))
    if close:
        if await _close_tx(conn, table_id) and snapshot_text is not None:
            await _put_snapshot(conn, table_id, snapshot_text)  # its final snapshot (owed)
    elif snapshot_text is not None:
        # the table's row is locked since the start (no move opens or closes a table)
        if not is_open:
            raise StorageError(f"table {table_id} is closed")
        await _put_snapshot(conn, table_id, snapshot_text)
    await _remember(conn, key, TRANSITION_OPERATION, {"results": results}, time.time())
    return results


async def _keep_session(conn: asyncpg.Connection[Row]) -> None:
    """The pool's reset of a released connection (asyncpg's ``reset=``): nothing beyond what
    asyncpg always does (an unfinished transaction is rolled back). The default runs
    ``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL`` after every call, one more
    round trip and four statements on the server per store call, for session state this
    store never makes: its advisory locks are transaction locks, it sets nothing, opens no
    cursor outside a transaction and listens to nothing."""


def _keyed(body: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """``body(conn, …, key)`` preceded by the advisory lock of its last argument, the key."""

    async def locked(conn: Conn, *args: Any) -> T:
        await _lock_key(conn, args[-1])
        return await body(conn, *args)

    locked.__qualname__ = body.__qualname__
    return locked


class PostgresStore:
    """:class:`storage.api.Store` on a PostgreSQL database (see the module doc).

    Open it with :meth:`open`; close it with :meth:`close` (or ``async with``). Every method
    follows the contract of :class:`storage.api.Store` and behaves as
    :class:`storage.sqlite.SqliteStore` does beyond it: invalid arguments raise
    :class:`StorageError` and change nothing; database errors (a constraint, a lost
    connection, a closed store) are raised as :class:`StorageError`, the transaction rolled
    back.
    """

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        """Wrap an open pool; use :meth:`open` instead."""
        self._pool = pool
        self._url = url
        self._running: set[asyncio.Task[Any]] = set()
        self._fence: str | None = None
        #: the clock of leases and heartbeats; ``None`` (the default): the server's clock
        self.clock: Callable[[], float] | None = None

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Connect to the database at ``url`` (``postgresql://user:password@host:port/db``,
        or a unix socket: ``postgresql://user@/db?host=/run/postgresql``) and apply pending
        migrations.

        A ledger whose append-only triggers are gone or disabled is logged as a warning
        (:func:`storage.check.warn_unguarded_at_open`), not refused; so are triggers that
        cannot be read (the error's type alone).

        :raises StorageError: if the server cannot be reached, a migration fails or the
            schema is newer than the code.
        """
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                reset=_keep_session,
                server_settings=keepalives(url),
            )
        except (asyncpg.PostgresError, OSError, asyncpg.exceptions.InterfaceError) as e:
            raise unreachable(e, url) from e
        except ValueError as e:  # (a port that is no number: it was a traceback)
            raise malformed_url(url, e) from e
        store = cls(pool, url)
        try:
            log_upgrade(await store._call(_migrate), migrations())
            # (a ledger no longer append-only, its triggers dropped or disabled: ops42)
            # (one not read: a warning too, and the open goes on, ops43)
            await warn_unguarded_at_open(lambda: store._call(_triggers), "postgres")
        except BaseException:
            await pool.close()
            raise
        return store

    @property
    def url(self) -> str:
        """The URL given to :meth:`open`."""
        return self._url

    async def close(self) -> None:
        """Finish the running transactions and close the pool (idempotent)."""
        if self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
        await self._pool.close()

    async def __aenter__(self) -> PostgresStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_versions(self) -> list[tuple[int, str, float]]:
        """``(version, file name, applied_at)`` of every applied migration, in order."""
        rows = await self._fetch(
            "SELECT version, name, applied_at FROM schema_version ORDER BY version"
        )
        return [(int(v), str(n), float(t)) for v, n, t in rows]

    # -- plumbing ---------------------------------------------------------------------------
    async def _call(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """``fn(conn, *args)`` on a pooled connection (no transaction of its own);
        database errors → :class:`StorageError`."""
        left = time_left()
        if left == 0:  # (the caller's time is up: nothing is tried)
            raise StorageTimeout("no time left for PostgreSQL")
        try:
            if left is None:
                async with self._pool.acquire() as conn:
                    return await fn(conn, *args)
            return await self._bounded(fn, args, left)
        except Exception as e:
            mapped = _storage_error(e)
            if mapped is e:
                raise
            raise mapped from e

    async def _bounded(
        self, fn: Callable[..., Awaitable[T]], args: tuple[Any, ...], left: float
    ) -> T:
        """:meth:`_call` within ``left`` seconds (:func:`~storage.api.answer_within`): a
        connection not had in time, or a call not answered, raises :class:`StorageTimeout`;
        the connection of the call is terminated then (asyncpg's own timeout cancels the
        query over a new connection and waits for that, which a silent network never
        answers, nor the release of the connection)."""
        began = time.monotonic()
        try:
            conn = await self._pool.acquire(timeout=left)
        except TimeoutError as e:
            raise StorageTimeout(f"no PostgreSQL connection within {left:.1f} s") from e
        try:
            left = max(0.0, left - (time.monotonic() - began))
            call = asyncio.ensure_future(fn(conn, *args))
            try:
                done, _ = await asyncio.wait([call], timeout=left)
            except asyncio.CancelledError:  # (a read: terminated too, not waited for)
                if not call.done():
                    conn.terminate()
                    call.cancel()
                raise
            if not done:
                conn.terminate()  # (the call fails with the connection: waited for below)
                await asyncio.gather(call, return_exceptions=True)
                raise StorageTimeout(f"no answer from PostgreSQL within {left:.1f} s")
            return call.result()
        finally:
            await self._pool.release(conn)

    async def _fetch(self, sql: str, *args: Any) -> list[Row]:
        async def body(conn: Conn) -> list[Row]:
            return list(await conn.fetch(sql, *args))

        return await self._call(body)

    async def _fetchrow(self, sql: str, *args: Any) -> Row | None:
        async def body(conn: Conn) -> Row | None:
            return await conn.fetchrow(sql, *args)

        return await self._call(body)

    async def _retrying(
        self, body: Callable[..., Awaitable[T]], args: tuple[Any, ...], using: list[Conn]
    ) -> T:
        for attempt in range(RETRIES + 1):
            try:
                async with self._pool.acquire() as conn:
                    using.append(conn)  # (terminated by :meth:`_write` when late)
                    try:
                        return await _transact(conn, body, args)
                    finally:
                        using.clear()
            except _RETRY_ERRORS:
                if attempt == RETRIES:
                    raise
                await asyncio.sleep(0.002 * (attempt + 1))
        raise AssertionError("unreachable")  # pragma: no cover

    async def _write(self, body: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run ``body(conn, *args)`` in one transaction (rerun on a deadlock or a
        serialization failure); its result or its exception, database errors as
        :class:`StorageError`. A caller cancelled meanwhile does not cancel the transaction.
        Within :func:`~storage.api.answer_within`, one not done in time has its connection
        terminated (a silent network held it, and the pool's connection, for minutes) and
        raises :class:`StorageTimeout`: whether it committed is not known (its COMMIT may
        have gone out), the caller reads it back."""
        left = time_left()
        if left == 0:  # (the caller's time is up: nothing is tried)
            raise StorageTimeout("no time left for PostgreSQL")
        using: list[Conn] = []
        task = asyncio.ensure_future(self._retrying(body, args, using))
        self._running.add(task)
        task.add_done_callback(_forget(self._running))
        try:
            if left is not None:
                done, _ = await asyncio.wait([task], timeout=left)
                if not done:
                    for conn in using:
                        conn.terminate()
                    if not using:  # (waiting for a connection or a rerun: none in flight)
                        task.cancel()
                    await asyncio.wait([task])
                    raise StorageTimeout(f"no answer from PostgreSQL within {left:.1f} s")
            return await asyncio.shield(task)
        except Exception as e:
            mapped = _storage_error(e)
            if mapped is e:
                raise
            raise mapped from e

    # -- communities and players --------------------------------------------------------------
    async def community(self, platform: str, external_id: str, title: str = "") -> Community:
        """Get or create a community; a non-empty ``title`` that differs is stored."""
        row = await self._fetchrow(
            f"SELECT {_COMMUNITY_COLUMNS} FROM communities"
            " WHERE platform = $1 AND external_id = $2",
            platform,
            external_id,
        )
        if row is None or (title and row[3] != title):
            row = await self._write(_get_community, platform, external_id, title)
        return _community(row)

    async def update_settings(self, community_id: int, settings: CommunitySettings) -> Community:
        """Replace a community's settings. :raises StorageError: if no such community."""
        text = dump_json(settings.to_json(), "settings")

        async def body(conn: Conn) -> Row:
            row = await conn.fetchrow(
                "UPDATE communities SET settings = $1 WHERE id = $2"
                f" RETURNING {_COMMUNITY_COLUMNS}",
                text,
                community_id,
            )
            if row is None:
                raise StorageError(f"no community {community_id}")
            return row

        return _community(await self._write(body))

    async def change_settings(
        self, community_id: int, change: Callable[[CommunitySettings], CommunitySettings]
    ) -> Community:
        """See :meth:`storage.api.Store.change_settings`: the community's row read ``FOR
        UPDATE`` (another connection's change waits for this transaction), changed and
        written in the same transaction."""

        async def body(conn: Conn) -> Row:
            row = await conn.fetchrow(
                f"SELECT {_COMMUNITY_COLUMNS} FROM communities WHERE id = $1 FOR UPDATE",
                community_id,
            )
            if row is None:
                raise StorageError(f"no community {community_id}")
            stored = _community(row).settings
            settings = change(stored)
            if settings is stored:
                return row
            written = await conn.fetchrow(
                "UPDATE communities SET settings = $1 WHERE id = $2"
                f" RETURNING {_COMMUNITY_COLUMNS}",
                dump_json(settings.to_json(), "settings"),
                community_id,
            )
            if written is None:  # pragma: no cover - the row is locked, nobody deletes it
                raise StorageError(f"no community {community_id}")
            return written

        return _community(await self._write(body))

    async def moved_chat(self, platform: str, chat_id: str) -> str | None:
        """See :meth:`storage.api.Store.moved_chat`."""
        row = await self._fetchrow(MOVED_CHAT_SQL, platform, chat_id, platform)
        return None if row is None else str(row[0])

    async def move_chat(self, platform: str, old_id: str, new_id: str) -> bool:
        """See :meth:`storage.api.Store.move_chat`."""

        async def body(conn: Conn) -> bool:
            select = "SELECT id FROM communities WHERE platform = $1 AND external_id = $2"
            row = await conn.fetchrow(select + " FOR UPDATE", platform, old_id)
            if row is None or old_id == new_id:
                return False
            taken = await conn.fetchrow(select + " FOR UPDATE", platform, new_id)
            if taken is not None and taken[0] < row[0]:
                return False  # (opened under the old id after the move: not moved over it)
            if taken is not None:
                await conn.execute(
                    "UPDATE communities SET external_id = $1 WHERE id = $2",
                    f"{new_id}~{taken[0]}",
                    taken[0],
                )
            await conn.execute(
                "UPDATE communities SET external_id = $1 WHERE id = $2", new_id, row[0]
            )
            await conn.execute(
                "UPDATE tables SET chat_id = $1 WHERE community_id = $2 AND chat_id = $3",
                new_id,
                row[0],
                old_id,
            )
            await conn.execute(CHAT_MOVE_SQL, platform, old_id, new_id)
            # the worker serving the chat keeps serving it under its new id (issue 14)
            new_key, old_key = lease_key(platform, new_id), lease_key(platform, old_id)
            if await conn.fetchval("SELECT 1 FROM leases WHERE key = $1", old_key):
                await conn.execute("DELETE FROM leases WHERE key = $1", new_key)
                await conn.execute("UPDATE leases SET key = $1 WHERE key = $2", new_key, old_key)
            return True

        # a row made under the new id after this transaction looked for one (the
        # supergroup's first command making its community, a worker taking its chat's
        # lease, at that moment: its updates do not wait for the move) made PostgreSQL
        # refuse the move (a unique key), which left the wallets under the old id, named by
        # no update any more: it is made again, and finds that row as it finds one made
        # before (renamed, replaced)
        for attempt in range(MOVE_TRIES):
            try:
                return bool(await self._write(body))
            except StorageError as exc:
                unique = isinstance(exc.__cause__, asyncpg.exceptions.UniqueViolationError)
                if not unique or attempt == MOVE_TRIES - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

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
        row = await self._fetchrow(
            f"SELECT {_PLAYER_COLUMNS} FROM players WHERE community_id = $1 AND user_id = $2",
            community_id,
            user_id,
        )
        if row is None or row[3] != name or (language is not None and row[4] != language):
            row = await self._write(_get_player, community_id, user_id, name, language, starting)
        return _player(row)

    async def get_player(self, player_id: int) -> Player | None:
        """A player by id, or ``None``."""
        row = await self._fetchrow(
            f"SELECT {_PLAYER_COLUMNS} FROM players WHERE id = $1", player_id
        )
        return None if row is None else _player(row)

    async def find_player(self, community_id: int, name_or_user_id: str) -> Player | None:
        """A player by exact user id, else by display name (case-insensitive, one leading
        ``@`` ignored). ``None`` if nobody matches or the name is ambiguous."""
        query = name_or_user_id.strip()
        bare = query[1:] if query.startswith("@") else query
        wanted = name_key(query)

        async def body(conn: Conn) -> Row | None:
            for uid in dict.fromkeys((query, bare)):
                row = await conn.fetchrow(
                    f"SELECT {_PLAYER_COLUMNS} FROM players"
                    " WHERE community_id = $1 AND user_id = $2",
                    community_id,
                    uid,
                )
                if row is not None:
                    return row
            rows = await conn.fetch(
                f"SELECT {_PLAYER_COLUMNS} FROM players WHERE community_id = $1 AND name_key = $2"
                " LIMIT 2",
                community_id,
                wanted,
            )
            return rows[0] if len(rows) == 1 else None

        row = await self._call(body)
        return None if row is None else _player(row)

    async def leaderboard(self, community_id: int, limit: int = 10) -> Sequence[tuple[Player, int]]:
        """Up to ``limit`` players by balance plus stacks (kush), highest first, ties by id."""
        if limit <= 0:
            return []
        rows = await self._fetch(
            f"SELECT {_PLAYER_COLUMNS}, balance + COALESCE("
            " (SELECT SUM(stack) FROM table_stacks s WHERE s.player_id = p.id), 0) AS total"
            " FROM players p WHERE community_id = $1 ORDER BY total DESC, id LIMIT $2",
            community_id,
            limit,
        )
        return [(_player(r), int(r[6])) for r in rows]

    async def languages(self, community_id: int) -> Mapping[str, int]:
        """See :meth:`storage.sqlite.SqliteStore.languages`."""
        rows = await self._fetch(
            "SELECT language, COUNT(*) FROM players"
            " WHERE community_id = $1 AND language IS NOT NULL GROUP BY language",
            community_id,
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

        async def body(conn: Conn) -> int:
            await _lock_key(conn, key)
            return await _grant_tx(conn, community_id, player_id, amount, actor, reason, key)

        return await self._write(body)

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
        caller's clock, default now); the player's row is locked first, so two claims at
        once are decided one after the other.

        :raises StorageError: on a bad day or amount or a player outside the community.
        """
        require_int(amount, "daily bonus", minimum=0)
        require_day(day)
        claimed_at = time.time() if at is None else float(at)
        after = math.inf if since is None else float(since)

        async def body(conn: Conn) -> int | None:
            balance = await _lock_balance(conn, player_id, community_id)
            now = time.time()
            claimed = await conn.fetchval(
                "INSERT INTO daily_claims (player_id, day, amount, claimed_at)"
                " SELECT $1::BIGINT, $2::TEXT, $3::BIGINT, $4::DOUBLE PRECISION WHERE NOT EXISTS"
                " (SELECT 1 FROM daily_claims WHERE player_id = $1"
                " AND (day >= $2 OR claimed_at >= $5::DOUBLE PRECISION))"
                " ON CONFLICT (player_id, day) DO NOTHING RETURNING 1",
                player_id,
                day,
                amount,
                claimed_at,
                after,
            )
            if claimed is None:
                return None
            balance += amount
            await conn.execute("UPDATE players SET balance = $1 WHERE id = $2", balance, player_id)
            await _ledger_row(
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
        row = await self._fetchrow(
            "SELECT 1 FROM daily_claims WHERE player_id = $1"
            " AND (day >= $2 OR claimed_at >= $3::DOUBLE PRECISION)",
            player_id,
            day,
            math.inf if since is None else float(since),
        )
        return row is not None

    async def last_daily(self, player_id: int) -> str | None:
        """The latest day (``YYYY-MM-DD``) whose daily bonus the player claimed (``None``:
        none)."""
        row = await self._fetchrow(
            "SELECT MAX(day) AS day FROM daily_claims WHERE player_id = $1", player_id
        )
        return None if row is None or row["day"] is None else str(row["day"])

    async def buy_in(self, table_id: int, player_id: int, amount: int, *, key: str) -> int:
        """Move ``amount`` (> 0) kush from the wallet to the stack at an open table (R8.2; a
        top-up when a stack exists). Returns the new stack.

        :raises InsufficientFunds: if the balance is short.
        :raises StorageError: on a bad amount, a closed/unknown table, a foreign player.
        """
        require_int(amount, "buy-in", minimum=1)
        require_key(key)
        return int(await self._write(_keyed(_buy_in_tx), table_id, player_id, amount, key))

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

        async def body(conn: Conn) -> int:
            await _lock_key(conn, key)
            return await _cash_out_tx(conn, table_id, player_id, key, kind)

        return int(await self._write(body))

    async def stacks(self, table_id: int) -> Mapping[int, int]:
        """Player id → stack (kush) at the table, in player id order."""
        rows = await self._fetch(
            "SELECT player_id, stack FROM table_stacks WHERE table_id = $1 ORDER BY player_id",
            table_id,
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
        """Record a finished hand and apply its kush in one transaction; see
        :meth:`storage.sqlite.SqliteStore.settle_hand` (the same behaviour and errors).

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
            _keyed(_settle),
            table_id,
            number,
            hand_text,
            result_text,
            players_text,
            seats,
            moves,
            stats,
            key,
        )
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

        async def body(conn: Conn) -> Row:
            platform = await conn.fetchval(
                "SELECT platform FROM communities WHERE id = $1", community_id
            )
            if platform is None:
                raise StorageError(f"no community {community_id}")
            if fence is not None:
                key = lease_key(str(platform), chat_id)
                held = await conn.fetchrow(
                    f"SELECT worker, expires_at > {_now(2)} FROM leases WHERE key = $1 FOR SHARE",
                    key,
                    fence[1],
                )
                if held is None or held[0] != fence[0] or not held[1]:
                    raise LeaseLost(f"worker {fence[0]} does not hold {key}")
            row = await conn.fetchrow(
                "INSERT INTO tables (community_id, chat_id, options, min_buy_in, open, created_at)"
                " VALUES ($1, $2, $3, $4, TRUE, $5)"
                " ON CONFLICT (community_id, chat_id) WHERE open DO NOTHING"
                f" RETURNING {_TABLE_COLUMNS}",
                community_id,
                chat_id,
                text,
                min_buy_in,
                time.time(),
            )
            if row is None:
                raise StorageError(f"chat {chat_id!r} already has an open table")
            return row

        return _table(await self._write(body))

    async def open_table(self, community_id: int, chat_id: str) -> TableRecord | None:
        """The chat's open table, or ``None``."""
        row = await self._fetchrow(
            f"SELECT {_TABLE_COLUMNS} FROM tables"
            " WHERE community_id = $1 AND chat_id = $2 AND open",
            community_id,
            chat_id,
        )
        return None if row is None else _table(row)

    async def open_tables(self, community_id: int) -> Sequence[TableRecord]:
        """The community's open tables, by id (the partial index ``tables_one_open_per_chat``)."""
        rows = await self._fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE community_id = $1 AND open ORDER BY id",
            community_id,
        )
        return [_table(r) for r in rows]

    async def get_table(self, table_id: int) -> TableRecord | None:
        """A table by id (open or closed), or ``None``."""
        row = await self._fetchrow(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = $1", table_id)
        return None if row is None else _table(row)

    async def update_table(
        self, table_id: int, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        """Replace a table's options and minimum buy-in. :raises StorageError: if no such
        table or ``min_buy_in`` is negative."""
        require_int(min_buy_in, "minimum buy-in", minimum=0)
        text = dump_json(options, "options")

        async def body(conn: Conn) -> Row:
            row = await conn.fetchrow(
                "UPDATE tables SET options = $1, min_buy_in = $2 WHERE id = $3"
                f" RETURNING {_TABLE_COLUMNS}",
                text,
                min_buy_in,
                table_id,
            )
            if row is None:
                raise StorageError(f"no table {table_id}")
            return row

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
        """One table transition in one transaction; see :meth:`storage.api.Store.commit`.
        JSON is encoded before the transaction starts, so a value that does not serialise
        fails without touching the database."""
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
        return await self._write(
            _commit_tx,
            table_id,
            prepared,
            text,
            close,
            key,
            self._fenced(),
            commit_seq(snapshot, close),
        )

    async def save_snapshot(self, table_id: int, data: Mapping[str, Any]) -> None:
        """Store the live state of an open table, replacing the previous one unless that one
        is of a later transition (a higher ``"seq"``, :meth:`storage.api.Store.save_snapshot`).
        :raises StorageError: if no such table, it is closed, or ``data`` is not JSON."""
        text = dump_json(data, "snapshot")
        await self._write(_snapshot_tx, table_id, text, self._fenced(), snapshot_seq(data))

    async def save_owed(self, table_id: int, data: Mapping[str, Any]) -> None:
        """Replace the final snapshot of a closed table (what it still owes its chat).
        :raises StorageError: if no such table, it is open, or ``data`` is not JSON."""
        text = dump_json(data, "snapshot")
        fence = self._fenced()

        async def body(conn: Conn) -> None:
            if await _lock_fenced_table(conn, table_id, fence, must_be_open=False):
                raise StorageError(f"table {table_id} is open")
            await _put_snapshot(conn, table_id, text)

        await self._write(body)

    async def delete_snapshot(self, table_id: int) -> None:
        """Forget a table's live state (nothing happens if there is none)."""
        fence = self._fenced()

        async def body(conn: Conn) -> None:
            await _check_fence(conn, table_id, fence)
            await conn.execute("DELETE FROM snapshots WHERE table_id = $1", table_id)

        await self._write(body)

    # -- workers sharing the tables (issue 14) ---------------------------------------------
    def _clock(self) -> float | None:
        return None if self.clock is None else self.clock()

    def _fenced(self) -> tuple[str, float | None] | None:
        return None if self._fence is None else (self._fence, self._clock())

    def fence(self, worker: str | None) -> None:
        """See :meth:`storage.api.Store.fence`."""
        self._fence = worker

    async def acquire_lease(self, key: str, worker: str, ttl: float) -> bool:
        """See :meth:`storage.api.Store.acquire_lease` (the server's clock)."""
        now = self._clock()

        async def body(conn: Conn) -> bool:
            row = await conn.fetchrow(
                "INSERT INTO leases (key, worker, expires_at)"
                f" VALUES ($1, $2, {_now(4)} + $3::float8)"
                " ON CONFLICT (key) DO UPDATE SET worker = excluded.worker,"
                " expires_at = excluded.expires_at"
                f" WHERE leases.worker = excluded.worker OR leases.expires_at <= {_now(4)}"
                " RETURNING worker",
                key,
                worker,
                ttl,
                now,
            )
            return row is not None

        return bool(await self._write(body))

    async def renew_leases(self, worker: str, keys: Sequence[str], ttl: float) -> list[str]:
        """See :meth:`storage.api.Store.renew_leases`."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return []
        now = self._clock()

        async def body(conn: Conn) -> list[str]:
            rows = await conn.fetch(
                f"UPDATE leases SET expires_at = {_now(4)} + $3::float8"
                f" WHERE key = ANY($1::text[]) AND worker = $2 AND expires_at > {_now(4)}"
                " RETURNING key",
                wanted,
                worker,
                ttl,
                now,
            )
            return [str(r[0]) for r in rows]

        held = set(await self._write(body))
        return [k for k in wanted if k in held]

    async def release_lease(self, key: str, worker: str) -> None:
        """See :meth:`storage.api.Store.release_lease`."""
        now = self._clock()

        async def body(conn: Conn) -> None:
            await conn.execute(
                f"DELETE FROM leases WHERE key = $1 AND worker = $2 AND expires_at > {_now(3)}",
                key,
                worker,
                now,
            )

        await self._write(body)

    async def lease_owner(self, key: str) -> str | None:
        """See :meth:`storage.api.Store.lease_owner`."""
        row = await self._fetchrow(
            f"SELECT worker FROM leases WHERE key = $1 AND expires_at > {_now(2)}",
            key,
            self._clock(),
        )
        return None if row is None else str(row[0])

    async def lease_lapsed(self, key: str) -> float | None:
        """See :meth:`storage.api.Store.lease_lapsed` (the server's clock)."""
        row = await self._fetchrow(
            f"SELECT {_now(2)} - expires_at FROM leases WHERE key = $1", key, self._clock()
        )
        return None if row is None else float(row[0])

    async def lapsed_leases(self, prefix: str) -> dict[str, str]:
        """See :meth:`storage.api.Store.lapsed_leases` (the server's clock)."""
        return await self._leases(prefix, lapsed=True)

    async def leases(self, prefix: str) -> dict[str, str]:
        """See :meth:`storage.api.Store.leases`."""
        return await self._leases(prefix, lapsed=False)

    async def _leases(self, prefix: str, *, lapsed: bool) -> dict[str, str]:
        """The leases whose key begins with ``prefix``, key → worker: held (not expired, by
        the server's clock) or, ``lapsed``, expired and not taken since."""
        held = "<=" if lapsed else ">"
        rows = await self._fetch(
            "SELECT key, worker FROM leases"
            f" WHERE left(key, length($1)) = $1 AND expires_at {held} {_now(2)} ORDER BY key",
            prefix,
            self._clock(),
        )
        return {str(k): str(w) for k, w in rows}

    async def prune_leases(self, kept: float) -> int:
        """See :meth:`storage.api.Store.prune_leases` (the server's clock)."""
        if kept < 0:
            raise ValueError(f"kept must not be negative: {kept}")
        now = self._clock()

        async def body(conn: Conn) -> int:
            done = await conn.execute(
                f"DELETE FROM leases WHERE expires_at < {_now(2)} - $1::float8 AND key NOT IN"
                f" (SELECT {_LEASE_KEY} FROM tables t"
                " JOIN communities c ON c.id = t.community_id WHERE t.open)",
                kept,
                now,
            )
            return int(str(done).rpartition(" ")[2] or 0)

        return int(await self._write(body))

    async def mark_alive(self, at: float) -> None:
        """See :meth:`storage.api.Store.mark_alive`."""

        async def body(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO alive (id, at) VALUES (1, $1)"
                " ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                at,
            )

        await self._write(body)

    async def last_alive(self) -> float | None:
        """See :meth:`storage.api.Store.last_alive`."""
        row = await self._fetchrow("SELECT at FROM alive WHERE id = 1")
        return None if row is None else float(row[0])

    async def remember_username(self, platform: str, username: str, user_id: str) -> None:
        """See :meth:`storage.api.Store.remember_username`."""
        key = username_key(username)

        async def body(conn: Conn) -> None:
            await conn.execute(
                "DELETE FROM usernames WHERE platform = $1 AND user_id = $2 AND name_key <> $3",
                platform,
                user_id,
                key,
            )
            await conn.execute(
                "INSERT INTO usernames (platform, name_key, user_id) VALUES ($1, $2, $3)"
                " ON CONFLICT (platform, name_key) DO UPDATE SET user_id = excluded.user_id",
                platform,
                key,
                user_id,
            )

        await self._write(body)

    async def user_of_username(self, platform: str, username: str) -> str | None:
        """See :meth:`storage.api.Store.user_of_username`."""
        row = await self._fetchrow(
            "SELECT user_id FROM usernames WHERE platform = $1 AND name_key = $2",
            platform,
            name_key(username),
        )
        return None if row is None else str(row[0])

    async def heartbeat(self, worker: str, address: str, ttl: float) -> None:
        """See :meth:`storage.api.Store.heartbeat`."""
        now = self._clock()

        async def body(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO workers (worker, address, expires_at)"
                f" VALUES ($1, $2, {_now(4)} + $3::float8)"
                " ON CONFLICT (worker) DO UPDATE SET address = excluded.address,"
                " expires_at = excluded.expires_at",
                worker,
                address,
                ttl,
                now,
            )

        await self._write(body)

    async def live_workers(self) -> dict[str, str]:
        """See :meth:`storage.api.Store.live_workers`."""
        rows = await self._fetch(
            f"SELECT worker, address FROM workers WHERE expires_at > {_now(1)} ORDER BY worker",
            self._clock(),
        )
        return {str(w): str(a) for w, a in rows}

    async def unleased_tables(self) -> list[tuple[int, str]]:
        """See :meth:`storage.api.Store.unleased_tables`."""
        rows = await self._fetch(
            f"SELECT t.id, {_LEASE_KEY} FROM tables t"
            " JOIN communities c ON c.id = t.community_id"
            f" LEFT JOIN leases l ON l.key = {_LEASE_KEY} AND l.expires_at > {_now(1)}"
            " WHERE t.open AND l.key IS NULL ORDER BY t.id",
            self._clock(),
        )
        return [(int(tid), str(key)) for tid, key in rows]

    async def table_state(self, table_id: int) -> tuple[TableRecord, Mapping[str, Any]] | None:
        """See :meth:`storage.api.Store.table_state`."""
        row = await self._fetchrow(
            "SELECT t.id, t.community_id, t.chat_id, t.options, t.min_buy_in, t.open, s.data"
            " FROM tables t LEFT JOIN snapshots s ON s.table_id = t.id"
            " WHERE t.id = $1 AND t.open",
            table_id,
        )
        if row is None:
            return None
        return _table(row), ({} if row[6] is None else load_json(row[6]))

    async def chat_table(self, platform: str, chat_id: str) -> int | None:
        """See :meth:`storage.api.Store.chat_table`."""
        row = await self._fetchrow(
            "SELECT t.id FROM tables t JOIN communities c ON c.id = t.community_id"
            " WHERE c.platform = $1 AND t.chat_id = $2 AND t.open ORDER BY t.id LIMIT 1",
            platform,
            chat_id,
        )
        return None if row is None else int(row[0])

    async def last_table(self, platform: str, user_id: str) -> int | None:
        """See :meth:`storage.api.Store.last_table`."""
        row = await self._fetchrow(LAST_TABLE_SQL, platform, user_id)
        return None if row is None else int(row[0])

    async def seated_tables(self, platform: str, user_id: str) -> list[int]:
        """See :meth:`storage.api.Store.seated_tables`."""
        rows = await self._fetch(
            "SELECT DISTINCT s.table_id FROM table_stacks s"
            " JOIN players p ON p.id = s.player_id"
            " JOIN communities c ON c.id = p.community_id"
            " JOIN tables t ON t.id = s.table_id"
            " WHERE c.platform = $1 AND p.user_id = $2 AND t.open ORDER BY s.table_id",
            platform,
            user_id,
        )
        return [int(r[0]) for r in rows]

    async def snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        """Every open table with its last snapshot (``{}`` if it has none), by table id."""
        rows = await self._fetch(
            "SELECT t.id, t.community_id, t.chat_id, t.options, t.min_buy_in, t.open, s.data"
            " FROM tables t LEFT JOIN snapshots s ON s.table_id = t.id"
            " WHERE t.open ORDER BY t.id"
        )
        return [(_table(r), {} if r[6] is None else load_json(r[6])) for r in rows]

    async def closed_snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        """Every closed table with the final snapshot its closing commit kept (what it still
        owes the chat), by table id."""
        rows = await self._fetch(
            "SELECT t.id, t.community_id, t.chat_id, t.options, t.min_buy_in, t.open, s.data"
            " FROM tables t JOIN snapshots s ON s.table_id = t.id"
            " WHERE NOT t.open ORDER BY t.id"
        )
        return [(_table(r), load_json(r[6])) for r in rows]

    # -- history ------------------------------------------------------------------------------
    async def hand_history(self, player_id: int, limit: int = 10) -> Sequence[HandRecord]:
        """The player's last ``limit`` hands, newest first."""
        if limit <= 0:
            return []
        rows = await self._fetch(
            "SELECT h.id, h.table_id, h.number, h.hand, h.result, h.players, h.finished_at"
            " FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
            " WHERE hp.player_id = $1 ORDER BY hp.hand_id DESC LIMIT $2",
            player_id,
            limit,
        )
        return [_hand(r) for r in rows]

    async def export_hands(self, table_id: int) -> list[dict[str, Any]]:
        """Every hand of a table, oldest first, as JSON-ready dicts (see
        :meth:`storage.sqlite.SqliteStore.export_hands`)."""
        rows = await self._fetch(
            f"SELECT {_HAND_COLUMNS} FROM hands WHERE table_id = $1 ORDER BY id", table_id
        )
        return [hand_export(_hand(r)) for r in rows]

    async def ledger(self, community_id: int) -> Sequence[LedgerEntry]:
        """Every ledger row of a community, in id order."""
        rows = await self._fetch(
            f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE community_id = $1 ORDER BY id",
            community_id,
        )
        return [ledger_entry(tuple(r)) for r in rows]

    # -- statistics (issue 12) ---------------------------------------------------------------
    async def get_hand(self, hand_id: int) -> HandRecord | None:
        """A history entry by id, or ``None``."""
        row = await self._fetchrow(f"SELECT {_HAND_COLUMNS} FROM hands WHERE id = $1", hand_id)
        return None if row is None else _hand(row)

    async def get_community(self, community_id: int) -> Community | None:
        """A community by id, or ``None``."""
        row = await self._fetchrow(
            f"SELECT {_COMMUNITY_COLUMNS} FROM communities WHERE id = $1", community_id
        )
        return None if row is None else _community(row)

    async def player_stats(self, player_id: int, since: float | None = None) -> HandStats:
        """See :meth:`storage.api.Store.player_stats` (the player's primary key)."""
        return await self._stats("player_id", player_id, since)

    async def community_stats(
        self, community_id: int, since: float | None = None, skip_prefix: str = ""
    ) -> HandStats:
        """See :meth:`storage.api.Store.community_stats` (index ``hand_players_by_community``;
        with ``skip_prefix``, the community's skipped players read once)."""
        return await self._stats("community_id", community_id, since, skip_prefix)

    async def _stats(
        self, column: str, value: int, since: float | None, skip_prefix: str = ""
    ) -> HandStats:
        """:func:`storage._common.stats_sql`'s two queries, in one REPEATABLE READ,
        read-only transaction (the biggest win is one of the entries summed)."""
        aggregate, best = _STATS[column, bool(skip_prefix)]
        args: tuple[Any, ...] = (value, since_bound(since))
        if skip_prefix:
            args += (value, skip_prefix + "%")  # (community_stats only: ``value`` the community)

        async def body(conn: Conn) -> HandStats:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                row = await conn.fetchrow(aggregate, *args)
                assert row is not None  # an aggregate without GROUP BY: always one row
                top = await conn.fetchrow(best, *args)
                return hand_stats(tuple(row), None if top is None else tuple(top))

        return await self._call(body)

    async def kush_leaderboard(
        self, community_id: int, since: float | None = None, limit: int = 10
    ) -> Sequence[tuple[Player, int, int]]:
        """See :meth:`storage.api.Store.kush_leaderboard` (the query of
        :data:`storage._common.KUSH_LEADERBOARD_SQL`, SQLite's)."""
        if limit <= 0:
            return []
        rows = await self._fetch(KUSH_LEADERBOARD_SQL, community_id, since_bound(since), limit)
        return [(_player(r), int(r[6]), int(r[7])) for r in rows]

    async def kush_series(
        self, player_id: int, since: float | None = None, points: int = 200
    ) -> list[tuple[float, int]]:
        """See :meth:`storage.api.Store.kush_series` (the query of
        :data:`storage._common.KUSH_SERIES_SQL`, SQLite's)."""
        q = series_points(points) - 1
        rows = await self._fetch(KUSH_SERIES_SQL, player_id, since_bound(since), q)
        return [(float(r[0]), int(r[1])) for r in rows]

    async def audit_data(self) -> AuditData:
        """Everything :func:`storage.check.audit` needs, read in one consistent snapshot,
        the ledger's triggers included."""

        async def body(conn: Conn) -> tuple[dict[str, list[tuple[Any, ...]]], list[Any]]:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return await _audit_rows(conn), await _triggers(conn)

        rows, triggers = await self._call(body)
        return AuditData.from_rows(rows, triggers, "postgres")


async def read_audit_rows(conn: Conn) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of :data:`storage.check.AUDIT_QUERIES`, read in one REPEATABLE READ, read-only
    transaction (one snapshot of the database)."""
    async with conn.transaction(isolation="repeatable_read", readonly=True):
        return await _audit_rows(conn)


async def _audit_rows(conn: Conn) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of :data:`storage.check.AUDIT_QUERIES` (in the caller's transaction)."""
    return {name: [tuple(r) for r in await conn.fetch(sql)] for name, sql in AUDIT_QUERIES.items()}


async def _triggers(conn: Conn) -> list[Any]:
    """The rows of the ledger's triggers' names (:data:`storage.check.TRIGGER_QUERIES`)."""
    return [tuple(r) for r in await conn.fetch(TRIGGER_QUERIES["postgres"])]


def _forget(running: set[asyncio.Task[Any]]) -> Callable[[asyncio.Task[Any]], None]:
    """A done callback that drops a finished task from ``running`` and retrieves its
    exception (its caller may have been cancelled and never will)."""

    def done(task: asyncio.Task[Any]) -> None:
        running.discard(task)
        if not task.cancelled():
            task.exception()

    return done


if TYPE_CHECKING:

    def _conforms(store: PostgresStore) -> Store:
        """mypy checks here that :class:`PostgresStore` implements :class:`Store`."""
        return store
