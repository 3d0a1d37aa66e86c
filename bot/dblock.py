"""One process at a time on a database: the locks a bot, a sandbox and the workers take on
the SQLite file they run on, and a bot and the workers on a PostgreSQL database
(:class:`PostgresLock`; docs/operations.md, "One process per database")."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import logging
import os
import secrets
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "LOCK_LOST",
    "PG_LOST_SECONDS",
    "PostgresBusy",
    "PostgresLock",
    "hold_database",
    "hold_worker",
    "let_go",
    "lost_window",
    "pg_key",
]

log = logging.getLogger(__name__)

#: the first byte of the range :func:`hold_worker` locks one byte of: far past SQLite's own
#: lock bytes (from 0x40000000, 1 GiB, 512 + 2 bytes), which they so never touch
_WORKER_BYTES = 1 << 40

#: the errors of an open file description lock where there are none (:func:`hold_worker`)
_NO_OFD_LOCKS = frozenset({errno.EINVAL, errno.ENOLCK, errno.EOPNOTSUPP})


def hold_database(db: Path, *, shared: bool = False) -> int | None:
    """An open descriptor of ``db`` holding its ``flock``, taken before the store opens the
    file (made empty when missing, as SQLite would make it): exclusive for a bot without
    ``WORKER_ID`` and for the sandbox, shared (``shared=True``) for a cluster worker, so
    workers share a file with each other and with nothing else. ``None`` when another
    process (or another open of the file in this one) holds a lock that conflicts: two plain
    bots on one file both restored the same tables and sent their messages twice; two
    sandboxes ran one table's timers twice.

    SQLite's own locks are POSIX record locks, which ``flock`` does not touch; but closing
    any descriptor of the file drops those of the whole process, so the descriptor is
    closed (:func:`let_go`) only after the store is. The lock goes with the descriptor, or
    when the process ends (a kill or a crash included). Without ``fcntl`` (Windows) nothing
    is locked: a descriptor all the same.

    :raises OSError: if ``db`` cannot be opened for writing (a folder that does not exist,
        a read-only file), or its file system refuses ``flock`` (``ENOLCK``, ``EINVAL``: some
        network and FUSE file systems; the descriptor is closed, not left open for good): the
        caller lets the store's open say so in its own words."""
    fd = os.open(db, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock there
        return fd
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError:
        os.close(fd)
        raise
    return fd


def hold_worker(fd: int, worker_id: str) -> bool:
    """Lock, on ``fd`` (a descriptor :func:`hold_database` gave a worker), the one byte
    ``worker_id`` names (a 61-bit hash past :data:`_WORKER_BYTES`), with an open file
    description lock (Linux's ``F_OFD_SETLK``: held by the descriptor, like ``flock``, not
    by the process, and gone with it or the process). ``False`` when another worker on this
    machine and file holds the byte: two workers with the same ``WORKER_ID`` renewed each
    other's leases and served the same tables. ``True`` where there are no such locks
    (macOS, Windows; a kernel before Linux 3.15, or a file system without them: ``EINVAL``,
    ``ENOLCK``, ``EOPNOTSUPP``): nothing checked there.

    :raises OSError: for an error of the lock other than a holder or those (not expected)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return True
    ofd = getattr(fcntl, "F_OFD_SETLK", None)
    if ofd is None:  # pragma: no cover - not Linux
        return True
    digest = hashlib.blake2b(worker_id.encode(), digest_size=8).digest()
    start = _WORKER_BYTES + (int.from_bytes(digest, "big") >> 3)
    # struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for an OFD lock)
    request = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, start, 1, 0)
    try:
        fcntl.fcntl(fd, ofd, request)
    except (BlockingIOError, PermissionError):  # EAGAIN, or EACCES on some systems
        return False
    except OSError as exc:  # (no such locks here: the worker started with a traceback)
        if exc.errno in _NO_OFD_LOCKS:
            return True
        raise
    return True


def held_alone(fd: int | None) -> bool:
    """Whether no other process holds a lock on the file of ``fd`` (a descriptor
    :func:`hold_database` gave): its ``flock`` made exclusive, without waiting (a worker's
    shared lock becomes the only one, or ``False`` comes back and it is taken shared again:
    Linux drops the shared lock before it refuses the exclusive one; shared again unless an
    exclusive holder came in between, not expected while another holds it shared). ``True`` for
    ``None`` and where there is no ``flock`` (nothing to tell). A start that made the database
    file and then failed removes it only when this is true: a worker that started on the
    same new file meanwhile keeps its database (removed under it, its tables went with the
    unlinked file)."""
    if fd is None:
        return True
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock there
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # (held by another: BlockingIOError; or refused: not removed either)
        with contextlib.suppress(OSError):  # (the conversion dropped the shared lock)
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    return True


def let_go(fd: int | None) -> None:
    """Close a descriptor :func:`hold_database` gave (its locks go with it); ``None`` is
    nothing. Call it once the store on that file is closed."""
    if fd is not None:
        os.close(fd)


# -- PostgreSQL ---------------------------------------------------------------------------------

#: the first key of the two-key advisory lock a bot holds on a PostgreSQL schema (exclusive
#: for a plain bot, shared for workers); the two-key form is a key space of its own, which
#: the store's one-key locks (its migration lock, its keyed transactions) never meet
PG_DATABASE_CLASS = 0x0FC0B07
#: the first key of a worker's own exclusive lock (the second: its ``WORKER_ID`` and schema)
PG_WORKER_CLASS = 0x0FC0B08

#: seconds between the watch's pings of the lock connection (a silent network is found out
#: within about this plus :data:`PG_PING_TIMEOUT`; a terminated one at once)
PG_PING_SECONDS = 10.0
#: seconds a ping of the lock connection may take before the connection is held for lost
PG_PING_TIMEOUT = 10.0
#: seconds the release waits for a clean close of the lock connection before it cuts it
PG_CLOSE_TIMEOUT = 2.0
#: seconds a try to take the lock again may take (connecting included) before it is given up
PG_RETAKE_TIMEOUT = 30.0
#: seconds between tries to take the lock again once its connection is lost
PG_RETRY_SECONDS = 2.0
#: seconds a bot goes on without its lock, trying to take it again, before it stops
#: (:data:`LOCK_LOST`): the server ends a cut-off session by its keepalives about two
#: minutes after the network went silent (``storage.postgres.KEEPALIVES``), when another bot
#: may take the lock; the ping finds the silence within :data:`PG_PING_SECONDS` +
#: :data:`PG_PING_TIMEOUT`, so the bot has stopped by then (it served on unlocked, with no
#: limit, beside the other bot)
PG_LOST_SECONDS = 60.0
#: seconds a bot that gave its lost lock up may still take to stop (its writes finished):
#: :func:`lost_window` ends that much before the server's keepalives end the lost session
PG_STOP_SECONDS = 10.0
#: what the server's keepalives fall back to where a setting reads 0 (the OS's: Linux's
#: idle time, probe interval and count; a unix socket reads 0 for all: no keepalives there)
_OS_KEEPALIVES = (7200, 75, 9)


def lost_window(idle: int, interval: int, count: int) -> float:
    """Seconds a bot may try to take its lost lock again (:data:`PG_LOST_SECONDS` at most):
    until the server would end the cut-off session by its keepalives (``idle`` seconds of
    silence, then ``count`` probes ``interval`` seconds apart; each 0: the OS's), less the
    time to find the loss (:data:`PG_PING_SECONDS` + :data:`PG_PING_TIMEOUT`) and to stop
    (:data:`PG_STOP_SECONDS`); 0 when nothing is left. ``DATABASE_URL`` may ask for shorter
    keepalives than the bot's own (``?tcp_keepalives_idle=20``): another bot could take the
    lock while this one still tried for the whole :data:`PG_LOST_SECONDS`."""
    idle, interval, count = (
        given or default
        for given, default in zip((idle, interval, count), _OS_KEEPALIVES, strict=True)
    )
    ended = idle + interval * count - PG_PING_SECONDS - PG_PING_TIMEOUT - PG_STOP_SECONDS
    return max(0.0, min(PG_LOST_SECONDS, float(ended)))


#: the ``what`` :meth:`PostgresLock.watch` gives ``on_taken`` when the lock could not be taken
#: again within :data:`PG_LOST_SECONDS` (the server out of reach all that time)
LOCK_LOST = "lost"

#: tries :meth:`PostgresLock.take` makes while a refusing holder is gone before it is named
PG_TAKE_TRIES = 3

#: the state of a lock try: taken, refused by another holder (:class:`PostgresBusy`'s
#: ``what``), or to be tried again (held by this process's own lost session, terminated now;
#: or the server out of reach)
_TAKEN, _AGAIN = "taken", "again"


def pg_key(*names: str) -> int:
    """The second key of an advisory lock: 31 bits of a hash of ``names`` (a schema, and a
    ``WORKER_ID``), the same in every process."""
    digest = hashlib.blake2b("\0".join(names).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") >> 1


class PostgresBusy(Exception):
    """Another process holds the lock a bot asked for on PostgreSQL. ``what`` is
    ``"database"`` (a plain bot: another bot or workers; a worker: a plain bot) or
    ``"worker"`` (a worker of the same ``WORKER_ID``)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class PostgresLock:
    """The PostgreSQL twin of :func:`hold_database` and :func:`hold_worker`: session advisory
    locks on a connection of its own (not the store's pool, whose connections come and go)
    for the bot's lifetime. Exclusive on the schema the bot's tables are in (its
    ``search_path``'s, ``current_schema()``) for a plain bot; shared for a worker, plus an
    exclusive lock its ``WORKER_ID`` names. Two plain bots on one database both restored and
    served the same tables: messages twice, each refusing the other's steps.

    Take it with :meth:`take`; :meth:`watch` then pings the connection every
    :data:`PG_PING_SECONDS` (a terminated connection is seen at once). A lost connection's
    locks are gone with its session: the watch takes them again on a new connection, every
    :data:`PG_RETRY_SECONDS` until the server answers (the bot goes on meanwhile; its store
    waits on the same server). Should another process hold them by then, ``on_taken`` is
    called with ``what`` (see :class:`PostgresBusy`) and the watch ends: the bot must stop.
    Not taken again within :data:`PG_LOST_SECONDS` of the loss (each try bound to what is
    left of them), ``on_taken`` is called with :data:`LOCK_LOST` and the watch ends: the bot
    must stop too, before another may take the lock.
    A session of this process that the server still holds (a connection silently cut) is
    known by its ``application_name`` and terminated, not taken for another bot.
    :meth:`release` closes the connection (the locks go with it), as does the end of the
    process, a kill included (the server's TCP keepalives find a vanished host)."""

    def __init__(self, url: str, worker_id: str | None) -> None:
        """Not taken yet: use :meth:`take`."""
        self._url = url
        self._worker_id = worker_id
        self._name = f"ofc-bot lock {os.getpid()} {secrets.token_hex(6)}"
        self._conn: Any = None  # (asyncpg's Connection: asyncpg is imported when used)
        self._keys: list[tuple[int, int, bool]] = []
        self._lost = asyncio.Event()
        self._watch: asyncio.Task[None] | None = None
        self._released = False
        #: the server's keepalives on the lock connection (idle, interval, count: 0 the OS's)
        self._kept: tuple[int, int, int] = (0, 0, 0)

    @classmethod
    async def take(cls, url: str, worker_id: str | None = None) -> PostgresLock:
        """Connect to ``url`` and take the locks (a worker's with ``worker_id``).

        :raises PostgresBusy: another process holds one (nothing is left open).
        :raises storage.api.StorageError: the server cannot be reached or refuses, in the
            words of :meth:`storage.postgres.PostgresStore.open`."""
        lock = cls(url, worker_id)
        for _ in range(PG_TAKE_TRIES):  # (a new lock's name is new: no lost session of its
            state = await lock._connect_and_take()  # own; again: the holder went meanwhile)
            if state != _AGAIN:
                break
        if state != _TAKEN:
            raise PostgresBusy("database" if state == _AGAIN else state)
        return lock

    @property
    def pid(self) -> int | None:
        """The server process id of the lock connection (``None`` while there is none)."""
        return None if self._conn is None else int(self._conn.get_server_pid())

    async def _connect_and_take(self) -> str:
        """Open a connection and take the locks on it: :data:`_TAKEN`, :data:`_AGAIN`, or the
        ``what`` of :class:`PostgresBusy` (the connection is then closed).

        :raises storage.api.StorageError: as :meth:`take` says."""
        import asyncpg

        from storage.postgres import keepalives, malformed_url, unreachable

        try:
            conn = await asyncpg.connect(
                self._url,
                server_settings={**keepalives(self._url), "application_name": self._name},
            )
        except (asyncpg.PostgresError, OSError, asyncpg.exceptions.InterfaceError) as e:
            raise unreachable(e, self._url) from e
        except ValueError as e:
            raise malformed_url(self._url, e) from e
        try:
            schema = await conn.fetchval(
                "SELECT coalesce(current_schema(), current_setting('search_path'))"
            )
            self._keys = [(PG_DATABASE_CLASS, pg_key(schema), self._worker_id is not None)]
            if self._worker_id is not None:
                self._keys.append((PG_WORKER_CLASS, pg_key(schema, self._worker_id), False))
            whats = ("database", "worker")[: len(self._keys)]
            for (first, second, shared), what in zip(self._keys, whats, strict=True):
                try_lock = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
                if not await conn.fetchval(f"SELECT {try_lock}($1, $2)", first, second):
                    state = await self._holder(conn, first, second, what)
                    await conn.close()
                    return state
        except BaseException:
            conn.terminate()
            raise
        try:
            kept = await self._keepalives(conn)
        except BaseException:
            conn.terminate()
            raise
        lost = asyncio.Event()  # (this connection's: a late call of an old one's sets not it)
        conn.add_termination_listener(lambda _conn: lost.set())
        self._conn, self._lost, self._kept = conn, lost, kept
        return _TAKEN

    async def _keepalives(self, conn: Any) -> tuple[int, int, int]:
        """The server's TCP keepalive settings on ``conn`` (idle, interval, count; 0 reads the
        OS's, and every one on a unix socket): ``DATABASE_URL``'s own or the bot's."""
        rows = await conn.fetch(
            "SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[])",
            ["tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count"],
        )
        got = {row["name"]: int(row["setting"]) for row in rows}
        return (
            got.get("tcp_keepalives_idle", 0),
            got.get("tcp_keepalives_interval", 0),
            got.get("tcp_keepalives_count", 0),
        )

    @property
    def lost_seconds(self) -> float:
        """Seconds the watch tries to take the lock again once its connection is lost
        (:func:`lost_window` of the keepalives the lock connection had)."""
        return lost_window(*self._kept)

    async def _holder(self, conn: Any, first: int, second: int, what: str) -> str:
        """Who holds the lock ``(first, second)`` refused: :data:`_AGAIN` when every holder is
        a session of this lock's (its ``application_name``: a connection lost to this
        process that the server has not ended yet; it is terminated) or none is left (gone
        since the try: that lost session ended by the server's keepalives, a start that
        failed), else ``what``. A bot whose retake found no holder stopped, "another bot
        holds it now", with the lock free."""
        names = await conn.fetch(
            "SELECT l.pid, a.application_name FROM pg_locks l LEFT JOIN pg_stat_activity a "
            "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2",
            first,
            second,
        )
        if any(row["application_name"] != self._name for row in names):
            return what
        for row in names:
            await conn.execute("SELECT pg_terminate_backend($1)", row["pid"])
        return _AGAIN

    def watch(self, on_taken: Callable[[str], None]) -> None:
        """Watch the lock connection from now on (see the class doc); ``on_taken(what)``
        once another process holds the locks after a loss (``what``: see
        :class:`PostgresBusy`), or once they could not be taken again within
        :data:`PG_LOST_SECONDS` (``what``: :data:`LOCK_LOST`)."""
        self._watch = asyncio.create_task(self._watching(on_taken), name="postgres lock")

    async def _watching(self, on_taken: Callable[[str], None]) -> None:
        while True:
            await self._until_lost()
            if self._released:
                return
            log.warning("the PostgreSQL lock's connection was lost: taking the lock again")
            self._conn = None
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.lost_seconds  # (before the server ends the session)
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    on_taken(LOCK_LOST)
                    return
                try:
                    state = await asyncio.wait_for(
                        self._connect_and_take(), min(PG_RETAKE_TIMEOUT, left)
                    )
                except Exception as e:  # (the server out of reach: tried again)
                    log.debug("taking the PostgreSQL lock again failed: %s", e)
                    state = _AGAIN
                if state == _TAKEN:
                    log.info("the PostgreSQL lock is held again")
                    break
                if state != _AGAIN:
                    on_taken(state)
                    return
                await asyncio.sleep(min(PG_RETRY_SECONDS, max(0.0, deadline - loop.time())))

    async def _until_lost(self) -> None:
        """Return once the lock connection is lost: terminated (at once), or a ping not
        answered within :data:`PG_PING_TIMEOUT` (the connection is then terminated); or
        once :meth:`release` began: Python 3.11's ``asyncio.wait_for`` drops a cancellation
        that comes as what it waits on (a ping, a retake) is done, and the watch, going on,
        kept that release waiting for ever."""
        conn = self._conn
        while not (self._released or self._lost.is_set() or conn.is_closed()):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lost.wait(), PG_PING_SECONDS)
                return
            try:
                await asyncio.wait_for(conn.fetchval("SELECT 1"), PG_PING_TIMEOUT)
            except Exception:
                conn.terminate()
                return

    async def release(self) -> None:
        """Stop watching and close the connection: the locks go (idempotent)."""
        self._released = True
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        conn, self._conn = self._conn, None  # (a second release meanwhile: nothing to do)
        if conn is not None:
            # a clean close, but not for long: a silent network held a stop PG_PING_TIMEOUT
            # (a ``docker stop``'s whole grace); the socket cut instead ends the session, and
            # its locks, as soon as the server reads the end (or its keepalives find it gone)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), PG_CLOSE_TIMEOUT)
            if not conn.is_closed():
                conn.terminate()
