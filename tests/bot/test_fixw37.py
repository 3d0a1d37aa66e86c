"""fixw37: the stop waited with no limit for a worker process whose start never finished
(:meth:`bot.workers.ProcessWorker.close`)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from typing import Any

import pytest

from bot import drawing, workers
from bot.service import TableService
from bot.workers import ProcessWorker, StartGivenUp
from storage.memory import MemoryStore
from tests.waiting import until


class _LatePool:
    """Stands in for the pool a start makes after it was given up: records its shutdown."""

    def __init__(self) -> None:
        self._processes: dict[int, Any] = {}
        self.shut_down = False

    def shutdown(self, wait: bool = True, **_: object) -> None:
        self.shut_down = True


def _stuck_start(
    monkeypatch: pytest.MonkeyPatch, release: threading.Event, made: list[_LatePool]
) -> None:
    """Every worker's start waits for ``release`` (never set by the code under test: a
    forkserver or worker that never answers), then makes a stand-in pool."""

    def stuck(given_up: Future[None] | None = None) -> _LatePool:
        release.wait(60)
        made.append(_LatePool())
        return made[-1]

    monkeypatch.setattr(workers, "_started_pool", stuck)


async def test_close_gives_up_a_start_that_never_finishes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``close(grace)`` waited for a start under way with no limit (``await
    asyncio.shield(starting)``): a start that never finished held the service's stop, and so
    the bot's shutdown, for good (a break-it run saw it wait more than 45 s). Now the start
    is given up after ``grace``: the close ends, a task waiting for that start gets
    :class:`StartGivenUp`, and the pool, if it comes up later, is ended, never made the
    running one."""
    release = threading.Event()
    made: list[_LatePool] = []
    _stuck_start(monkeypatch, release, made)
    worker = ProcessWorker()
    try:
        worker.start_soon()
        waiting = asyncio.ensure_future(worker.run(int))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        await asyncio.wait_for(worker.close(0.2), 5)  # (hung here, for good, before)
        assert not worker.running and worker._starting is None
        with pytest.raises(StartGivenUp):
            await asyncio.wait_for(waiting, 5)
        release.set()  # the start comes back at last: too late, its pool is ended
        await until(lambda: made and made[0].shut_down, 10, "the late pool shut down")
        assert not worker.running
    finally:
        release.set()


async def test_the_service_stop_ends_while_the_drawing_process_never_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The service's start starts the drawing process in the background; one whose start
    never finished held ``TableService.stop`` for good. The stop now ends within the
    drawer's ``CLOSE_SECONDS``."""
    release = threading.Event()
    _stuck_start(monkeypatch, release, [])
    monkeypatch.setattr(drawing, "CLOSE_SECONDS", 0.2)
    service = TableService(MemoryStore(), timers=False)
    try:
        service.rt.drawer.start_soon()
        await asyncio.sleep(0.05)
        assert service.rt.drawer._starting is not None
        await asyncio.wait_for(service.stop(), 5)  # (hung here, for good, before)
        assert not service.rt.drawer.running
    finally:
        release.set()


async def test_a_drawing_whose_worker_never_starts_is_given_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A showdown's picture is drawn in the table's sender, which every press at the table
    and the service's stop wait for (``Runtime.settled``): a drawing process whose start
    never finished held them all for good, before the stop ever reached ``close``. A drawing
    now fails with ``TimeoutError`` after ``DRAW_SECONDS`` (the picture is skipped, logged)."""
    release = threading.Event()
    _stuck_start(monkeypatch, release, [])
    monkeypatch.setattr(drawing, "DRAW_SECONDS", 0.2)
    drawer = drawing.Drawer()
    try:
        task = asyncio.ensure_future(drawer.draw(int))
        await asyncio.wait([task], timeout=5)  # (waited for good before)
        assert task.done() and isinstance(task.exception(), TimeoutError)
        await asyncio.wait_for(drawer.close(0.2), 5)
    finally:
        release.set()
