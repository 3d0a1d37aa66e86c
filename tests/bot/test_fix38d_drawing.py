"""fix38d: a drawing whose worker was killed under it for something it did not do (replaced
as hung on another drawing it was queued behind, :meth:`bot.workers.ProcessWorker.replace`,
or ended by the system) failed with ``BrokenProcessPool`` and its picture was skipped, with
seconds of its :data:`bot.drawing.DRAW_SECONDS` left. It is now asked again of the new
worker, once (:meth:`bot.workers.ProcessWorker.run_again_if_died`), as a decision is
(:class:`bot.thinking.Thinker`); the drawing the worker was killed on as hung is not."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.drawing import Drawer
from bot.workers import TaskHung
from tests.bot.test_drawing import _gone
from tests.waiting import until


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _die(path: str) -> None:
    """A drawing that ends its worker (a crash in the picture library): notes the worker's
    pid in ``path`` first."""
    with open(path, "a") as f:
        f.write(f"{os.getpid()}\n")
    os._exit(1)


@contextlib.asynccontextmanager
async def _hung_and_queued(
    drawer: Drawer,
) -> AsyncIterator[tuple[int, asyncio.Task[None], asyncio.Task[int]]]:
    """A drawing hung in ``drawer``'s worker and one queued behind it, both given to the
    worker (in its queue: past cancelling): ``(the worker's pid, the hung one, the queued
    one)``. Afterwards both are cancelled, the drawer closed and that worker gone."""
    first = await drawer.draw(os.getpid)
    hung = asyncio.ensure_future(drawer.draw(time.sleep, 3600))
    queued: asyncio.Task[int] | None = None
    try:
        await until(lambda: drawer.busy_for() > 0, 30, "the worker on the hung drawing")
        queued = asyncio.ensure_future(drawer.draw(os.getpid))
        await until(
            lambda: [f.running() for f in drawer._tasks._unfinished] == [True, True],
            30,
            "the drawing queued",
        )
        yield first, hung, queued
    finally:
        hung.cancel()
        if queued is not None:
            queued.cancel()
        await drawer.close(1.0)
        _kill(first)


async def test_a_drawing_queued_behind_a_hung_one_is_drawn_by_the_new_worker() -> None:
    """The worker is replaced as hung on one drawing while another is queued behind it: the
    queued one is drawn by the new worker (before: ``BrokenProcessPool``, the picture
    skipped); the hung one is not asked again (:class:`TaskHung`), so the new worker is
    free."""
    drawer = Drawer()
    async with _hung_and_queued(drawer) as (first, hung, queued):
        drawer.replace()  # (what a drawing's timeout or ask does past half of DRAW_SECONDS)
        second = await asyncio.wait_for(queued, 60)  # (BrokenProcessPool before)
        assert second not in (first, os.getpid())
        assert _gone(first)
        with pytest.raises(TaskHung):
            await asyncio.wait_for(hung, 30)
        assert drawer.busy_for() == 0.0  # the hung drawing was not given to the new worker
        assert await drawer.draw(os.getpid) == second


async def test_a_drawing_that_ends_its_worker_is_asked_again_once(tmp_path: Path) -> None:
    """A drawing whose worker died under it is asked again of a new worker, once: one that
    ends every worker it is given (a crash on some input) fails with ``BrokenProcessPool``
    after two workers, and the next drawing has a worker again."""
    drawer = Drawer()
    notes = tmp_path / "pids"
    try:
        with pytest.raises(BrokenProcessPool):
            await drawer.draw(_die, str(notes))
        pids = notes.read_text().split()
        assert len(pids) == 2 and pids[0] != pids[1]  # two workers (one before)
        assert await drawer.draw(os.getpid) not in (os.getpid(), *map(int, pids))
    finally:
        await drawer.close(1.0)


async def test_a_drawing_the_stop_ended_is_not_asked_again() -> None:
    """The stop kills a worker still on a hung drawing after its grace: the drawing queued
    behind that one (given to the worker already, past cancelling) fails with it,
    ``BrokenProcessPool``, and is not asked again, which would start a worker after the
    stop."""
    drawer = Drawer()
    async with _hung_and_queued(drawer) as (first, hung, queued):
        await drawer.close(0.5)
        with pytest.raises(TaskHung):
            await asyncio.wait_for(hung, 30)
        with pytest.raises(BrokenProcessPool):  # (drawn by a new worker before)
            await asyncio.wait_for(queued, 30)
        assert not drawer.running and drawer._starting is None  # no worker after the stop
        assert _gone(first)
