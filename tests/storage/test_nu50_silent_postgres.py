"""An operator's ``DATABASE_URL`` naming a server that accepts the connection and never
answers (nu50: a firewall that swallows packets, a port of another service that waits):
asyncpg gives up after its 60 s with a ``TimeoutError`` whose text is empty, and the start
said "error: cannot connect to PostgreSQL: : check DATABASE_URL in .env", ``python -m
storage check`` "error: cannot connect to PostgreSQL: ". Now the line says why."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from bot.dblock import PostgresLock
from storage.api import StorageError
from storage.check import read_database
from storage.postgres import PostgresStore

LINE = (
    "cannot connect to PostgreSQL: the server did not answer in time (a silent network or "
    "firewall, a server that hangs, or another service on that port) (host 127.0.0.1)"
)
"""(ops42: with the URL's host)"""


@pytest.fixture
def silent() -> Iterator[str]:
    """A PostgreSQL URL whose server accepts connections and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield f"postgresql://ofc:pw@127.0.0.1:{server.getsockname()[1]}/ofc"


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """asyncpg's connect with a 0.3 s timeout instead of its 60 s."""
    import asyncpg
    import asyncpg.pool

    real_connect = asyncpg.connect

    async def connect(*args: Any, **kwargs: Any) -> Any:
        kwargs["timeout"] = 0.3
        return await real_connect(*args, **kwargs)

    monkeypatch.setattr(asyncpg, "connect", connect)
    monkeypatch.setattr(asyncpg.pool.connection, "connect", connect)


@pytest.mark.usefixtures("quick")
async def test_the_store_says_why(silent: str) -> None:
    with pytest.raises(StorageError) as caught:
        await asyncio.wait_for(PostgresStore.open(silent), 30)
    assert str(caught.value) == LINE


@pytest.mark.usefixtures("quick")
async def test_the_check_says_why(silent: str) -> None:
    with pytest.raises(StorageError) as caught:
        await asyncio.wait_for(read_database(silent), 30)
    assert str(caught.value) == LINE


@pytest.mark.usefixtures("quick")
async def test_the_lock_says_why(silent: str) -> None:
    with pytest.raises(StorageError) as caught:
        await asyncio.wait_for(PostgresLock.take(silent), 30)
    assert str(caught.value) == LINE
