"""One process at a time on an SQLite file: the locks a bot, a sandbox and the workers take
on the database file they run on (docs/operations.md, "One process per database")."""

from __future__ import annotations

import errno
import hashlib
import os
import struct
from pathlib import Path

__all__ = ["hold_database", "hold_worker", "let_go"]

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


def let_go(fd: int | None) -> None:
    """Close a descriptor :func:`hold_database` gave (its locks go with it); ``None`` is
    nothing. Call it once the store on that file is closed."""
    if fd is not None:
        os.close(fd)
