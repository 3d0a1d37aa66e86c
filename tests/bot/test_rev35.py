"""Review rev35: fixlock's :mod:`bot.dblock` on file systems without the locks it takes, and
:meth:`Runtime.commit`'s read-backs cancelled (the table kept a step never saved).

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


async def test_a_step_cancelled_while_reading_back_the_unsure_step_before_it_changes_nothing() -> (
    None
):
    """A step of a table whose last commit's outcome is not known reads that one first
    (:meth:`Runtime._unsure_first`); cancelled during that read (the press's task cancelled:
    the stop), the table kept the step's changes (its number, the readiness, the buy-in's
    stack) though nothing was saved, and the stop's snapshot would have saved them."""
    import asyncio
    import random

    from bot.service import TableService
    from tests.bot.conftest import Clock
    from tests.bot.fakes import FakePresenter
    from tests.bot.test_brkpg_storage import LostReplyStore
    from tests.bot.test_service import ALICE, BOB, GROUP

    store, clock, presenter = LostReplyStore(), Clock(), FakePresenter()
    service = TableService(
        store, clock=clock, rng=random.Random(5), timers=False, decisions_in_process=False
    )
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.join(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None
    store.lose, store.blind = 1, 1  # Alice's Ready: applied, its answer lost, not read back
    await service.ready(GROUP, ALICE)
    assert t.id in service.rt.unsure
    before = service.rt.snapshot(t)
    reading = asyncio.Event()
    never = asyncio.Event()

    async def hung(table_id: int) -> Any:
        reading.set()
        await never.wait()

    store.table_state = hung  # type: ignore[method-assign]
    press = asyncio.ensure_future(service.ready(GROUP, BOB))
    await asyncio.wait_for(reading.wait(), 5)
    press.cancel()
    with pytest.raises(asyncio.CancelledError):
        await press
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.ready and bob.stack == 0
    after = service.rt.snapshot(t)
    assert after["seq"] == before["seq"]
    assert after["seats"] == before["seats"]


async def test_a_step_cancelled_while_reading_back_its_own_failed_commit_changes_nothing() -> None:
    """Storage answered a step's commit with an error and the step reads back whether it
    applied all the same (:meth:`Runtime.commit`); cancelled during that read, the table
    kept the step's changes, not marked unsure either (a commit cancelled is both)."""
    import asyncio
    import random

    from bot.service import TableService
    from tests.bot.conftest import Clock
    from tests.bot.fakes import FakePresenter
    from tests.bot.test_brkpg_storage import LostReplyStore
    from tests.bot.test_service import ALICE, BOB, GROUP

    store, clock, presenter = LostReplyStore(), Clock(), FakePresenter()
    service = TableService(
        store, clock=clock, rng=random.Random(5), timers=False, decisions_in_process=False
    )
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.join(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None
    before = service.rt.snapshot(t)
    reading = asyncio.Event()
    never = asyncio.Event()

    async def hung(table_id: int) -> Any:
        reading.set()
        await never.wait()

    store.lose = 1  # the commit applies, its answer lost
    store.table_state = hung  # type: ignore[method-assign]
    press = asyncio.ensure_future(service.ready(GROUP, BOB))
    await asyncio.wait_for(reading.wait(), 5)
    press.cancel()
    with pytest.raises(asyncio.CancelledError):
        await press
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.ready and bob.stack == 0
    after = service.rt.snapshot(t)
    assert (after["seq"], after["seats"]) == (before["seq"], before["seats"])
    assert service.rt.unsure[t.id] == (before["seq"] + 1, False)
