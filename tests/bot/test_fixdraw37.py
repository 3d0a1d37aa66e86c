"""fixdraw37: a drawing hung in the drawing process (a picture library stuck on some input)
was given up after :data:`bot.drawing.DRAW_SECONDS` (fixw37), but the process was left on
it: every later picture (showdowns, /hand, /stats' chart) queued behind the hung one, waited
those seconds and was skipped, until the bot restarted. The drawer now replaces a worker that
has been on one drawing longer than half of them (:meth:`bot.drawing.Drawer.draw`), as the
decision process's hung worker is (:class:`bot.thinking.Thinker`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time

import pytest

from bot import drawing
from bot.drawing import Drawer
from bot.workers import TaskHung
from tests.bot.test_drawing import _gone
from tests.waiting import until


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


async def test_a_drawing_that_hangs_in_the_worker_replaces_it_at_its_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hung drawing's timeout kills the worker and starts a new one: the next picture is
    drawn (before: it queued behind the hung one and timed out too, and every one after)."""
    monkeypatch.setattr(drawing, "DRAW_SECONDS", 3.0)
    drawer = Drawer()
    first = await drawer.draw(os.getpid)
    try:
        with pytest.raises(TimeoutError):
            await drawer.draw(time.sleep, 3600)
        second = await drawer.draw(os.getpid)  # (TimeoutError before)
        assert second not in (first, os.getpid())
        assert _gone(first)
        assert await drawer.draw(os.getpid) == second  # (the new one is kept)
    finally:
        await drawer.close(1.0)
        _kill(first)


async def test_a_drawing_asks_a_worker_left_hung_to_be_replaced_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker on one task longer than half of ``DRAW_SECONDS`` (hung: no drawing takes a
    second) whose own caller is not waiting on it with a limit is replaced when a drawing is
    asked, which is then drawn by the new worker instead of queueing behind the hung task."""
    monkeypatch.setattr(drawing, "DRAW_SECONDS", 2.0)
    drawer = Drawer()
    first = await drawer.draw(os.getpid)
    hung = asyncio.ensure_future(drawer.run(time.sleep, 3600))  # (no limit: never timed out)
    try:
        await until(lambda: drawer.busy_for() > 1.1, 30, "the worker on the hung task")
        second = await drawer.draw(os.getpid)  # (TimeoutError before)
        assert second not in (first, os.getpid())
        with pytest.raises(TaskHung):
            await asyncio.wait_for(hung, 10)
    finally:
        hung.cancel()
        await drawer.close(1.0)
        _kill(first)


async def test_a_drawing_timed_out_in_the_queue_behind_slow_ones_keeps_the_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Drawings queue for the one worker: one can time out waiting behind others that are
    slow, none hung. Its timeout does not kill the worker (which would fail the drawing it is
    on and those queued behind): the task the worker is on has been on it for less than half
    of ``DRAW_SECONDS``."""
    monkeypatch.setattr(drawing, "DRAW_SECONDS", 4.0)
    drawer = Drawer()
    first = await drawer.draw(os.getpid)
    try:
        slow = [asyncio.ensure_future(drawer.run(time.sleep, 1.5)) for _ in range(3)]
        # (the third slow one runs from 3.0 s to 4.5 s: this one times out at 4.0 s, 1 s in)
        with pytest.raises(TimeoutError):
            await drawer.draw(os.getpid)
        assert await asyncio.wait_for(asyncio.gather(*slow), 30) == [None, None, None]
        assert await drawer.draw(os.getpid) == first  # the same worker
    finally:
        await drawer.close(1.0)
        _kill(first)
