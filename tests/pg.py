"""A PostgreSQL server for the tests (issue 14): started on demand, once per test session, by
the ``pgserver`` package (PostgreSQL 16 binaries in a wheel, a dev dependency) on a unix
socket in a temporary directory, and stopped at the end of the session
(``pytest_sessionfinish`` in tests/conftest.py). Each test gets a fresh, empty schema of its
own (:func:`fresh_database`: a URL whose ``search_path`` names it; under a millisecond, where
``CREATE DATABASE`` costs 0.2–0.3 s here) and drops it afterwards.

Durability is switched off on this throw-away server (``fsync``, ``synchronous_commit``,
``full_page_writes``) so that commits cost what the SQL costs; transactions, locks and
constraints behave as on any server. Where pgserver is not installed, the tests that need it
are skipped with the reason, and the session's end says how many (CI installs it through the
``dev`` extra); where it is installed and its server does not start (after
:data:`START_ATTEMPTS` tries), they fail with the reason: never a silent skip.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

__all__ = ["NO_SERVER", "fresh_database", "server_url", "stop_server"]

_state: dict[str, Any] = {}
_names = itertools.count(1)


#: how many times the session starts its server before it gives up (a start that outlasted
#: pgserver's 10 s ``pg_ctl start`` limit, on a loaded machine, is stopped and tried again)
START_ATTEMPTS = 2
#: after such a start, how many seconds more the session waits for that server to be ready
#: (and takes it) before it stops it; pgserver's own limit cannot be raised
READY_WAIT_SECONDS = 60.0


#: the start of the reason of a PostgreSQL test skipped for want of pgserver
NO_SERVER = "no PostgreSQL server for the tests"


class NoPgserver(Exception):
    """The ``pgserver`` package cannot be imported: the PostgreSQL tests are skipped."""


def _import_pgserver() -> ModuleType:
    """The ``pgserver`` package with its ``postgres_server`` module; :class:`NoPgserver` if it
    is not installed."""
    # pgserver computes its lock directory from platformdirs at import; without
    # XDG_RUNTIME_DIR platformdirs warns (RuntimeDirWarning, an error under pytest's
    # filterwarnings) and falls back to a directory shared by every process of the user.
    # A private directory for this session avoids both.
    saved = os.environ.get("XDG_RUNTIME_DIR")
    if not saved:
        _state["xdg"] = tempfile.TemporaryDirectory(prefix="ofc-xdg-")
        os.environ["XDG_RUNTIME_DIR"] = _state["xdg"].name
    try:
        import pgserver
        import pgserver.postgres_server
    except ImportError as e:
        raise NoPgserver(f"pgserver is not installed (pip install -e '.[dev]'): {e}") from e
    finally:
        if not saved:
            os.environ.pop("XDG_RUNTIME_DIR", None)
    return pgserver


def _postmaster(pgdata: Path) -> tuple[int, str] | None:
    """The pid and status (``starting``, ``ready``, or ``""`` while the file is being written)
    in ``pgdata``'s ``postmaster.pid``; None without one."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        return int(lines[0]), (lines[7].strip() if len(lines) > 7 else "")
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    import psutil  # type: ignore[import-untyped]

    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def _wait_ready(pgdata: Path, seconds: float) -> bool:
    """Whether the server of ``pgdata`` is ready within ``seconds`` (False as soon as its
    postmaster is gone)."""
    deadline = time.monotonic() + seconds
    while True:
        info = _postmaster(pgdata)
        if info is not None and not _alive(info[0]):
            return False
        if info is not None and info[1] == "ready":
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)


def _forget(pgserver: ModuleType, pgdata: Path) -> str | None:
    """Drop pgserver's handle of the server of ``pgdata`` whose start failed: ``get_server``
    would hand it out again (started or not), and its exit hook would leave the server
    running anyway (it stops only what a successful start registered). Returns the system
    user pgserver runs PostgreSQL as (``pgserver`` as root, else None)."""
    handle = pgserver.postgres_server.PostgresServer._instances.pop(pgdata, None)
    if handle is None:
        return None
    atexit.unregister(handle._cleanup)
    return handle.system_user  # type: ignore[no-any-return]


def _stop(pgserver: ModuleType, pgdata: Path, user: str | None) -> None:
    """Stop whatever server runs in ``pgdata`` (``pg_ctl stop -m immediate``; if that fails,
    SIGQUIT, then SIGKILL, to the postmaster of ``postmaster.pid``), and remove the
    ``postmaster.pid`` it leaves: pgserver would take a postmaster that no one reaped (a
    zombie; PID 1 of a container may not reap) for a running server, and PostgreSQL would
    refuse to start beside it."""
    info = _postmaster(pgdata)
    if info is None:
        return
    if _alive(info[0]):
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            pgserver.postgres_server.pg_ctl(
                ["-m", "immediate", "-w", "stop"], pgdata=pgdata, user=user, timeout=30
            )
    for sig in (signal.SIGQUIT, signal.SIGKILL):
        if not _alive(info[0]):
            break
        with contextlib.suppress(OSError):
            os.kill(info[0], sig)
        deadline = time.monotonic() + 5
        while _alive(info[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
    if not _alive(info[0]):
        (pgdata / "postmaster.pid").unlink(missing_ok=True)


def _start() -> Any:
    """Start the session's server: :data:`START_ATTEMPTS` tries; a ``pg_ctl start`` that ran
    out of pgserver's time is waited for :data:`READY_WAIT_SECONDS` more and taken if it gets
    ready, else stopped before the next try. Raises :class:`NoPgserver`, or RuntimeError
    with every try's failure."""
    pgserver = _import_pgserver()
    _state["dir"] = tempfile.TemporaryDirectory(prefix="ofc-pg-")
    pgdata = Path(_state["dir"].name).resolve()
    failures: list[str] = []
    for _ in range(START_ATTEMPTS):
        try:
            return pgserver.get_server(pgdata, cleanup_mode="stop")
        except subprocess.TimeoutExpired as e:
            user = _forget(pgserver, pgdata)
            if _wait_ready(pgdata, READY_WAIT_SECONDS):
                return pgserver.get_server(pgdata, cleanup_mode="stop")  # takes the running one
            _forget(pgserver, pgdata)
            _stop(pgserver, pgdata, user)
            failures.append(
                f"pg_ctl start ran out of its {e.timeout:g} s and the server was not ready "
                f"{READY_WAIT_SECONDS:g} s later"
            )
        except Exception as e:
            _stop(pgserver, pgdata, _forget(pgserver, pgdata))
            failures.append(f"{type(e).__name__}: {e}")
    raise RuntimeError(f"{len(failures)} starts failed: " + "; ".join(failures))


def _server() -> Any:
    """The session's server (started on first use). Without pgserver the test is skipped
    with :data:`NO_SERVER` in its reason (counted at the session's end, tests/conftest.py);
    where pgserver is installed and
    its server does not start, the test fails with the reason (every later one at once)."""
    if "server" not in _state and "error" not in _state:
        try:
            _state["server"] = _start()
        except NoPgserver as e:
            _state["error"], _state["fail"] = f"{NO_SERVER}: {e}", False
        except Exception as e:
            _state["error"], _state["fail"] = f"the PostgreSQL server did not start: {e}", True
    if "error" in _state:
        if _state["fail"]:
            pytest.fail(_state["error"], pytrace=False)
        pytest.skip(_state["error"])
    return _state["server"]


def server_url(database: str = "postgres") -> str:
    """The URL of ``database`` on the session's server (a unix socket; user ``postgres``)."""
    return str(_server().get_uri(database))


_DATABASE = "ofc_tests"


async def _admin(sql: str) -> None:
    """Run ``sql`` in the tests' database (made, and the server tuned, on first use)."""
    import asyncpg

    if not _state.get("ready"):
        conn = await asyncpg.connect(server_url())
        try:
            for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                await conn.execute(f"ALTER SYSTEM SET {setting} = off")
            await conn.execute("SELECT pg_reload_conf()")
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", _DATABASE):
                await conn.execute(f"CREATE DATABASE {_DATABASE}")
        finally:
            await conn.close()
        _state["ready"] = True
    conn = await asyncpg.connect(server_url(_DATABASE))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new empty schema on the session's server: yields the URL of a database whose
    ``search_path`` is that schema (every table the store makes goes there), and drops the
    schema with everything in it afterwards."""
    name = f"ofc_test_{os.getpid()}_{next(_names)}"
    await _admin(f"CREATE SCHEMA {name}")
    try:
        yield f"{server_url(_DATABASE)}&search_path={name}"
    finally:
        await _admin(f"DROP SCHEMA IF EXISTS {name} CASCADE")


def stop_server() -> None:
    """Stop the session's server (if one was started) and remove its files."""
    server = _state.pop("server", None)
    if server is not None:
        server.cleanup()
    for key in ("dir", "xdg"):
        directory = _state.pop(key, None)
        if directory is not None:
            directory.cleanup()
