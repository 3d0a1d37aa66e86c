"""The bot's start against a PostgreSQL server that went away after the pool connected,
while the migrations ran (the server restarted: asyncpg's ``ConnectionDoesNotExistError``;
starting up or out of connections on a new connection: 57P03, 53300) raised a plain
:class:`~storage.api.StorageError` ("PostgreSQL error: …"), so ``python -m bot`` exited 2,
and docs/operations.md's ``RestartPreventExitStatus=2`` left the bot down for good after a
database restart at boot; the same server out of reach at the connection exits 75
(fixexit38). brk65: a database error of a connection out of reach is
:class:`~storage.api.StorageUnreachable` wherever it comes (the start's 75)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from pydantic import SecretStr

import storage.postgres
from bot.app import open_store
from bot.config import OutOfReach, Settings
from storage.api import StorageUnreachable


class _Pool:
    """A pool asyncpg made: one connection lent; closed at the end."""

    closed = False

    @contextlib.asynccontextmanager
    async def acquire(self) -> AsyncIterator[object]:
        yield object()

    async def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.exceptions.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation"
        ),
        asyncpg.exceptions.CannotConnectNowError("the database system is starting up"),
        asyncpg.exceptions.TooManyConnectionsError("sorry, too many clients already"),
    ],
)
async def test_a_server_lost_during_the_migrations_is_out_of_reach(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    pool = _Pool()

    async def create_pool(url: str, **kwargs: Any) -> _Pool:
        return pool

    async def migrate(conn: object) -> list[int]:
        raise error

    monkeypatch.setattr(asyncpg, "create_pool", create_pool)
    monkeypatch.setattr(storage.postgres, "_migrate", migrate)
    url = "postgresql://ofc:secret@db:5432/ofc"
    with pytest.raises(StorageUnreachable, match=r"^cannot reach PostgreSQL: "):
        await storage.postgres.PostgresStore.open(url)
    assert pool.closed
    settings = Settings(_env_file=None, database_url=SecretStr(url))  # type: ignore[call-arg]
    with pytest.raises(OutOfReach) as caught:  # (python -m bot: exit status 75)
        await open_store(settings)
    assert "secret" not in str(caught.value)
