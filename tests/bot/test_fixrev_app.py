"""fixrev (rev list 2, 3, 6): the composition root's failed starts.

- ``TableService`` or ``Worker`` raising as it is made left the SQLite store open and the
  file's lock (:mod:`bot.dblock`) held: both are closed now, a fresh database removed.
- ``hold_worker`` raising an ``OSError`` it does not expect was a traceback that left the
  lock's descriptor open: one line (a :class:`ConfigError`, exit status 2), descriptor closed.
- A fresh database whose open failed lost only its main file: its ``-wal``, ``-shm`` and
  ``-journal`` companions go too (only for a database this start made).
- :func:`bot.app._unless_stopped` cancelled from outside left the start running."""

from __future__ import annotations

import asyncio
import errno
import gc
import os
from pathlib import Path
from typing import Any

import pytest

from bot import app
from bot.config import ConfigError, Settings
from bot.dblock import hold_database, let_go
from storage.api import Store

COMPANIONS = ("-wal", "-shm", "-journal")


def _open_fds() -> set[tuple[str, str]]:
    """The process's open file descriptors as (number, what it is open on), once what
    earlier tests of this worker left for the garbage collector is gone. A start that
    leaks one leaves a pair that was not there before it (a number reused for another
    file too); counted instead, a full run saw 43 before a failed start and 31 after (an
    earlier test's sockets closed meanwhile, not by the start), and 35 and 19."""
    gc.collect()
    fds = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            fds.add((fd, os.readlink(f"/proc/self/fd/{fd}")))
        except OSError:  # (closed meanwhile, or the listing's own)
            continue
    return fds


def _settings(db: Path, worker: str | None = None) -> Settings:
    return Settings(
        database_path=str(db),
        worker_id=worker,
        worker_listen="127.0.0.1:8443",  # (never listened on: the start fails first)
        _env_file=None,  # type: ignore[call-arg]
    )


def _free(db: Path) -> bool:
    """Nothing holds ``db``'s lock: a plain bot could take it."""
    fd = hold_database(db)
    let_go(fd)
    return fd is not None


pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")


@pytest.mark.parametrize("what", ["service", "worker"])
async def test_a_start_whose_service_or_worker_raises_closes_the_store_and_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    closed: list[Store] = []
    real_close = app.SqliteStore.close

    async def close(self: Any) -> None:
        closed.append(self)
        await real_close(self)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError(f"no {what}")

    monkeypatch.setattr(app.SqliteStore, "close", close)
    if what == "service":
        monkeypatch.setattr(app, "TableService", broken)
    else:
        monkeypatch.setattr("bot.cluster.Worker", broken)
    db = tmp_path / "ofc.sqlite3"
    db.write_bytes(b"")  # (not fresh: kept)
    before = _open_fds()
    with pytest.raises(RuntimeError, match=f"no {what}"):
        await asyncio.wait_for(app.run(_settings(db, "w1" if what == "worker" else None)), 60)
    assert len(closed) == 1
    assert _open_fds() - before == set()  # (none opened by the start left open)
    assert db.exists() and _free(db)


async def test_a_fresh_database_is_removed_when_the_service_raises(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("no service")

    monkeypatch.setattr(app, "TableService", broken)
    db = tmp_path / "ofc.sqlite3"
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(app.run(_settings(db)), 60)
    assert sorted(tmp_path.iterdir()) == []


async def test_hold_worker_s_unexpected_error_is_one_line_and_closes_the_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(fd: int, worker_id: str) -> bool:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    monkeypatch.setattr(app, "hold_worker", refused)
    db = tmp_path / "ofc.sqlite3"
    db.write_bytes(b"")
    before = _open_fds()
    with pytest.raises(ConfigError) as caught:
        await asyncio.wait_for(app.run(_settings(db, "w1")), 60)
    assert str(caught.value) == (
        f"cannot lock the SQLite database {db.resolve()} for WORKER_ID=w1 "
        "(Bad file descriptor): check DATABASE_PATH in .env"
    )
    assert _open_fds() - before == set()  # (none opened by the start left open)
    assert _free(db)
    db.unlink()  # a fresh one: the lock made it, and it goes
    with pytest.raises(ConfigError):
        await asyncio.wait_for(app.run(_settings(db, "w1")), 60)
    assert sorted(tmp_path.iterdir()) == []


def test_hold_worker_s_unexpected_error_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import _run

    def refused(fd: int, worker_id: str) -> bool:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    monkeypatch.setattr(app, "hold_worker", refused)
    db = tmp_path / "ofc.sqlite3"
    db.write_bytes(b"")
    assert _run(app.run(_settings(db, "w1"))) == 2  # (python -m bot's exit status)
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("error: cannot lock the SQLite database "), line


@pytest.mark.parametrize("fresh", [True, False])
async def test_a_database_whose_open_fails_loses_its_companions_only_when_fresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: bool
) -> None:
    db = tmp_path / "ofc.sqlite3"
    if not fresh:
        for suffix in ("", *COMPANIONS):
            Path(f"{db}{suffix}").write_bytes(b"x")

    async def failed(settings: Settings) -> Store:
        for suffix in COMPANIONS:  # (what SQLite made before it failed)
            Path(f"{db}{suffix}").write_bytes(b"y")
        raise ConfigError("cannot open")

    monkeypatch.setattr(app, "open_store", failed)
    with pytest.raises(ConfigError):
        await asyncio.wait_for(app.run(_settings(db)), 60)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ([] if fresh else sorted(f"ofc.sqlite3{s}" for s in ("", *COMPANIONS)))


async def test_unless_stopped_cancelled_from_outside_cancels_the_start() -> None:
    began, ended = asyncio.Event(), asyncio.Event()

    async def start() -> None:
        began.set()
        try:
            await asyncio.sleep(60)
        finally:
            ended.set()

    waiting = asyncio.ensure_future(app._unless_stopped(start(), asyncio.Event()))
    await asyncio.wait_for(began.wait(), 10)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert ended.is_set()  # the start was cancelled with it, not left running


async def test_a_worker_s_failed_start_keeps_a_fresh_database_another_worker_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """brk49's find: a worker that made the database file and then failed removed it (and
    its companions) though another worker had started on the same new file meanwhile: that
    worker's tables went with the unlinked file. Removed only when no other process holds
    the file (:func:`bot.dblock.held_alone`)."""
    db = tmp_path / "ofc.sqlite3"
    real_hold = app.hold_database
    other: list[int] = []

    def hold_then_another_worker(path: Path, *, shared: bool = False) -> int | None:
        fd = real_hold(path, shared=shared)
        # another worker (a descriptor of its own: flock locks are per open file) starts on
        # the file this start just made
        peer = os.open(path, os.O_RDWR)
        import fcntl

        fcntl.flock(peer, fcntl.LOCK_SH | fcntl.LOCK_NB)
        other.append(peer)
        return fd

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("no service")

    monkeypatch.setattr(app, "hold_database", hold_then_another_worker)
    monkeypatch.setattr(app, "TableService", broken)
    try:
        with pytest.raises(RuntimeError):
            await asyncio.wait_for(app.run(_settings(db, "w1")), 60)
        assert db.exists()  # (the other worker's database kept)
    finally:
        for fd in other:
            let_go(fd)
    # alone, the same failed start removes what it made (as before)
    monkeypatch.setattr(app, "hold_database", real_hold)
    db2 = tmp_path / "alone.sqlite3"
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(app.run(_settings(db2, "w2")), 60)
    assert not db2.exists()
