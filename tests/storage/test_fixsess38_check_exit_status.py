"""``python -m storage check`` on a PostgreSQL server out of reach exited 2, the status a
service manager or script reads as "change something first", while the bot exits 75
(``EX_TEMPFAIL``: try again later) for the same server (fixsess38). Now the check exits 75 for
:class:`storage.api.StorageUnreachable` and keeps 2 for what must change first."""

from __future__ import annotations

import asyncio
import socket

import pytest

from storage.__main__ import EX_TEMPFAIL, main


def _closed_port() -> int:
    """A local TCP port nothing listens on (connections to it are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_server_out_of_reach_is_exit_status_75(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"postgresql://ofc:secret@127.0.0.1:{_closed_port()}/ofc"
    assert EX_TEMPFAIL == 75
    assert await asyncio.to_thread(main, ["check", "--db", url]) == 75
    err = capsys.readouterr().err
    assert err.startswith("error: cannot connect to PostgreSQL: "), err
    assert "secret" not in err


async def test_a_malformed_url_stays_exit_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://ofc:secret@127.0.0.1:port/ofc"
    assert await asyncio.to_thread(main, ["check", "--db", url]) == 2
    err = capsys.readouterr().err
    assert "the URL is malformed" in err and "secret" not in err, err
