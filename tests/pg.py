"""A PostgreSQL server for the tests (issue 14): started on demand, once per test session, by
the ``pgserver`` package (PostgreSQL 16 binaries in a wheel, a dev dependency) on a unix
socket in a temporary directory, and stopped at the end of the session
(``pytest_sessionfinish`` in tests/conftest.py). Each test gets a fresh, empty schema of its
own (:func:`fresh_database`: a URL whose ``search_path`` names it; under a millisecond, where
``CREATE DATABASE`` costs 0.2–0.3 s here) and drops it afterwards.

Durability is switched off on this throw-away server (``fsync``, ``synchronous_commit``,
``full_page_writes``) so that commits cost what the SQL costs; transactions, locks and
constraints behave as on any server. Where pgserver cannot be had, the tests that need it
are skipped with the reason (CI installs it through the ``dev`` extra).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
from collections.abc import AsyncIterator
from typing import Any

import pytest

__all__ = ["fresh_database", "server_url", "stop_server"]

_state: dict[str, Any] = {}
_names = itertools.count(1)


def _start() -> Any:
    try:
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
        finally:
            if not saved:
                os.environ.pop("XDG_RUNTIME_DIR", None)
    except ImportError as e:  # pragma: no cover - CI installs the dev extra
        raise RuntimeError(f"pgserver is not installed (pip install -e '.[dev]'): {e}") from e
    _state["dir"] = tempfile.TemporaryDirectory(prefix="ofc-pg-")
    return pgserver.get_server(_state["dir"].name, cleanup_mode="stop")


def _server() -> Any:
    """The session's server (started on first use); skips the test if it cannot start."""
    if "error" in _state:
        pytest.skip(_state["error"])
    if "server" not in _state:
        try:
            _state["server"] = _start()
        except Exception as e:  # no pgserver, or its PostgreSQL does not start here
            _state["error"] = f"no PostgreSQL server for the tests: {e}"
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
