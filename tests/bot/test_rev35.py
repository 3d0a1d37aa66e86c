"""Review rev35 of fixlock's :mod:`bot.dblock` on file systems without the locks it takes.

``flock`` refused with another error than a holder's (``ENOLCK``, ``EINVAL``: some network
and FUSE file systems) left the descriptor :func:`hold_database` opened open for good (the
caller, :func:`bot.app._hold_sqlite`, got an ``OSError`` and no descriptor to close); an open
file description lock refused so (a kernel before Linux 3.15, such a file system) made a
worker's start a traceback instead of "nothing checked there", as macOS and Windows are."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path
from typing import Any

import pytest

from bot.dblock import hold_database, hold_worker, let_go


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc (Linux)")
def test_a_flock_refused_by_the_file_system_closes_its_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(fd: int, op: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", refused)
    before = _open_fds()
    with pytest.raises(OSError) as caught:
        hold_database(tmp_path / "ofc.sqlite3")
    assert caught.value.errno == errno.ENOLCK
    assert _open_fds() == before


@pytest.mark.skipif(not hasattr(fcntl, "F_OFD_SETLK"), reason="no OFD locks (not Linux)")
@pytest.mark.parametrize("code", [errno.EINVAL, errno.ENOLCK, errno.EOPNOTSUPP])
def test_a_worker_where_there_are_no_ofd_locks_is_not_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    fd = hold_database(tmp_path / "ofc.sqlite3", shared=True)
    assert fd is not None
    try:

        def refused(fd: int, cmd: int, arg: Any = 0) -> Any:
            raise OSError(code, os.strerror(code))

        monkeypatch.setattr(fcntl, "fcntl", refused)
        assert hold_worker(fd, "w1") is True
        monkeypatch.undo()
        # another error is not one of those: still raised
        monkeypatch.setattr(
            fcntl, "fcntl", lambda *a: (_ for _ in ()).throw(OSError(errno.EBADF, "bad"))
        )
        with pytest.raises(OSError):
            hold_worker(fd, "w1")
    finally:
        monkeypatch.undo()
        let_go(fd)
