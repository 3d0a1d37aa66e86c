"""A newcomer's ``DATABASE_URL`` whose host does not resolve, or whose unix socket folder
has no server (nu59): the start said "error: cannot connect to PostgreSQL: [Errno -2] Name or
service not known: check DATABASE_URL in .env", naming no host (a password's unescaped ``@``
moves the host; which name was looked up?). The line now names the URL's hosts, never its
password."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from bot.dblock import PostgresLock
from storage.api import StorageError, StorageUnreachable
from storage.check import read_database
from storage.postgres import PostgresStore, unreachable, url_hosts


def test_the_hosts_of_a_url() -> None:
    assert url_hosts("postgresql://ofc:pw@db.example:5432/ofc") == ["db.example"]
    assert url_hosts("postgresql://ofc:pw@db1:5432,db2/ofc") == ["db1", "db2"]
    assert url_hosts("postgresql://ofc:pw@[::1]:5432/ofc") == ["::1"]
    assert url_hosts("postgres://ofc@/ofc?host=/run/postgresql") == ["/run/postgresql"]
    # a password's unescaped @: the host is what follows the last one, never the password
    assert url_hosts("postgresql://ofc:p@ss@db.example/ofc") == ["db.example"]
    assert url_hosts("postgresql://ofc@/ofc") == []  # (asyncpg's defaults: none named)
    assert url_hosts("postgresql://ofc:pw@[::1/ofc") == []  # (unreadable: malformed_url's)


def test_a_name_that_does_not_resolve_is_named() -> None:
    error = socket.gaierror(-2, "Name or service not known")
    said = unreachable(error, "postgresql://ofc:secret-pw@db.example:5432/ofc")
    assert str(said) == (
        "cannot connect to PostgreSQL: [Errno -2] Name or service not known (host db.example)"
    )
    assert isinstance(said, StorageUnreachable)  # (exit status 75, as before)
    said = unreachable(error, "postgresql://ofc:secret-pw@db1,db2:5433/ofc")
    assert str(said).endswith("not known (hosts db1, db2)")
    # without the URL, or an error that names its address already, as before
    assert str(unreachable(error)).endswith("not known")
    refused = ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 1)")
    said = unreachable(refused, "postgresql://ofc:pw@127.0.0.1:1/ofc")
    assert (
        str(said)
        == "cannot connect to PostgreSQL: [Errno 111] Connect call failed ('127.0.0.1', 1)"
    )


@pytest.fixture
def no_server(tmp_path: Path) -> str:
    """A PostgreSQL URL on a unix socket folder that does not exist."""
    return f"postgresql://ofc@/ofc?host={tmp_path / 'none'}"


def _line(no_server: str) -> str:
    folder = no_server.rpartition("=")[2]
    return f"cannot connect to PostgreSQL: [Errno 2] No such file or directory (host {folder})"


async def test_the_store_the_lock_and_the_check_name_the_socket_folder(no_server: str) -> None:
    for start in (PostgresStore.open, PostgresLock.take, read_database):
        with pytest.raises(StorageError) as caught:
            await asyncio.wait_for(start(no_server), 30)  # type: ignore[operator]
        assert str(caught.value) == _line(no_server), start
