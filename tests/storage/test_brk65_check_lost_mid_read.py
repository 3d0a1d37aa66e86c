"""``python -m storage check`` against a PostgreSQL server lost while the audit's rows are
read (restarted, the connection reset: asyncpg's ``ConnectionDoesNotExistError``, or an
``OSError`` it lets through) exited 2 ("cannot read the database": change something first)
or with a traceback and status 1 (the status of "a difference found"), while the same server
out of reach at the connection exits 75 (``EX_TEMPFAIL``, fixsess38: try again later).
brk65: a connection lost mid-read is out of reach too: 75, one line."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

import storage.postgres
from storage.__main__ import EX_TEMPFAIL, main


class _Conn:
    """A connection asyncpg made: closed at the end."""

    closed = False

    async def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.exceptions.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation"
        ),
        ConnectionResetError(104, "Connection reset by peer"),
    ],
)
async def test_a_connection_lost_mid_read_is_exit_status_75(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], error: Exception
) -> None:
    conn = _Conn()

    async def connect(url: str) -> _Conn:
        return conn

    async def read(c: object) -> dict[str, list[tuple[object, ...]]]:
        raise error

    monkeypatch.setattr(asyncpg, "connect", connect)
    monkeypatch.setattr(storage.postgres, "read_audit_rows", read)
    url = "postgresql://ofc:secret@127.0.0.1:5432/ofc"
    assert await asyncio.to_thread(main, ["check", "--db", url]) == EX_TEMPFAIL
    err = capsys.readouterr().err
    assert err.startswith("error: cannot reach PostgreSQL: "), err
    assert "secret" not in err and err.count("\n") == 1, err
    assert conn.closed
