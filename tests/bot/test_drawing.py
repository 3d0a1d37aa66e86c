"""The drawing process (issue 12, :mod:`bot.drawing`): pictures are drawn in a worker process,
not in a thread of the bot (Pillow holds the GIL the event loop needs); the service's stop
shuts it down; a worker that died is replaced."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor

import pytest

from bot import drawing, pictures, workers
from bot.drawing import Drawer
from bot.pictures import BoardPicture, Picture
from bot.service import TableService
from bot.workers import TaskHung
from storage.memory import MemoryStore


def _gone(pid: int, timeout: float = 30.0) -> bool:
    """The process ``pid`` has exited (polled until ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.01)
    return False


def _picture() -> Picture:
    board = BoardPicture(
        name="Alice",
        boxes=("Qs Qh 2d", "9c 9d 9h 5s 5c", "As Ks Qd Js Ts"),
        hands=("Pair of Queens", "Full House", "Straight"),
        scores=(7, 12, 2),
        fouled=False,
        points=6,
        kush=60,
    )
    other = BoardPicture(
        name="Bob",
        boxes=("2c 3c 4c", "6h 6s 7d 8d 8c", "Ah Ad Kh Kd 3s"),
        hands=("High card", "Two Pair", "Two Pair"),
        scores=(0, 0, 0),
        fouled=True,
        points=-6,
        kush=-60,
    )
    return Picture(title="Table 1 · hand 1", lang="en", boards=(board, other))


async def test_a_picture_is_drawn_in_another_process_byte_for_byte() -> None:
    drawer = Drawer()
    try:
        data = _picture().to_json()
        png = await drawer.draw(pictures.draw_json, data)
        assert png == pictures.draw_json(data)  # the same PNG as drawn here
        assert png.startswith(b"\x89PNG")
        worker = await drawer.draw(os.getpid)
        assert worker != os.getpid()
        assert await drawer.draw(os.getpid) == worker  # one worker, kept between drawings
    finally:
        await drawer.close()


async def test_drawings_queue_for_the_one_worker() -> None:
    """Many showdowns at once: their drawings take turns on one worker process (one core)
    instead of as many threads competing with the event loop."""
    drawer = Drawer()
    try:
        pids = await asyncio.gather(*(drawer.draw(os.getpid) for _ in range(20)))
        assert len(set(pids)) == 1 and pids[0] != os.getpid()
    finally:
        await drawer.close()


async def test_close_shuts_the_worker_down_and_a_new_drawing_starts_another() -> None:
    drawer = Drawer()
    assert not drawer.running  # no process before the first drawing
    first = await drawer.draw(os.getpid)
    assert drawer.running
    await drawer.close()
    assert not drawer.running
    assert _gone(first)
    await drawer.close()  # closing twice does nothing
    try:
        second = await drawer.draw(os.getpid)
        assert second not in (first, os.getpid())
    finally:
        await drawer.close()
    assert _gone(second)


async def test_a_dead_worker_is_replaced_and_its_drawing_asked_again() -> None:
    """The drawing given to a worker that had died is drawn by a new one (fix38d: it failed
    with ``BrokenProcessPool``, its picture skipped; the next drawing got the new worker)."""
    drawer = Drawer()
    try:
        worker = await drawer.draw(os.getpid)
        os.kill(worker, signal.SIGKILL)
        assert _gone(worker)
        replaced = await drawer.draw(os.getpid)
        assert replaced not in (worker, os.getpid())
        assert await drawer.draw(os.getpid) == replaced
    finally:
        await drawer.close()


async def test_the_service_stop_shuts_its_drawing_process_down() -> None:
    service = TableService(MemoryStore(), timers=False)
    await service.start()
    worker = await service.rt.drawer.draw(os.getpid)
    assert worker != os.getpid()
    await service.stop()
    assert not service.rt.drawer.running
    assert _gone(worker)


async def test_a_stop_while_a_drawing_hangs_in_the_drawing_process_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A drawing hung in the drawing process (a picture library stuck on some input) held the
    service's stop, which waited for it without limit, and so the bot's shutdown for good. The
    stop waits :data:`bot.drawing.CLOSE_SECONDS`, then kills the process; the drawing's caller
    is told it hung."""
    monkeypatch.setattr(drawing, "CLOSE_SECONDS", 1.0)
    service = TableService(MemoryStore(), timers=False)
    pid = await service.rt.drawer.draw(os.getpid)
    stuck = asyncio.create_task(service.rt.drawer.draw(time.sleep, 3600))
    try:
        await asyncio.sleep(0.5)  # (the process is on it)
        began = time.monotonic()
        await asyncio.wait_for(service.stop(), 30.0)
        assert time.monotonic() - began < 10.0 and _gone(pid)
        with pytest.raises(TaskHung):
            await stuck
    finally:
        stuck.cancel()
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # (a stop that waited for it left it hung)


async def test_the_stop_closes_the_drawing_and_decision_processes_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A drawing and a decision both hung at the stop: each process is waited for its
    ``CLOSE_SECONDS`` at most, and the stop waited for one after the other (10 + 3 s, over
    the stop's 5 s). They are closed together: the second close starts before the first
    ends."""
    from bot.thinking import Thinker

    events: list[str] = []

    def spy(name: str, real: object) -> object:
        async def close(self: object, *args: object, **kwargs: object) -> None:
            events.append(f"{name} begins")
            await asyncio.sleep(0.2)  # (a hung task's grace, shortened)
            await real(self, *args, **kwargs)  # type: ignore[operator]
            events.append(f"{name} ends")

        return close

    monkeypatch.setattr(Drawer, "close", spy("drawer", Drawer.close))
    monkeypatch.setattr(Thinker, "close", spy("thinker", Thinker.close))
    service = TableService(MemoryStore(), timers=False)
    await service.stop()
    assert sorted(events[:2]) == ["drawer begins", "thinker begins"]
    assert sorted(events[2:]) == ["drawer ends", "thinker ends"]
    assert drawing.CLOSE_SECONDS <= 3.0


async def test_the_worker_is_started_in_a_thread_not_on_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Starting the worker waits for the forkserver (its first start imports Pillow and the
    bot's modules): that wait happens in a thread, the loop keeps running meanwhile."""
    started_on: list[str] = []
    real = workers._started_pool

    def spy(given_up: Future[None] | None = None) -> ProcessPoolExecutor:
        started_on.append(threading.current_thread().name)
        return real(given_up)

    monkeypatch.setattr(workers, "_started_pool", spy)
    drawer = Drawer()
    try:
        # two drawings asked together start one worker
        a, b = await asyncio.gather(drawer.draw(os.getpid), drawer.draw(os.getpid))
        assert a == b != os.getpid()
        assert len(started_on) == 1 and started_on[0] != threading.main_thread().name
    finally:
        await drawer.close()


async def test_a_worker_exits_once_its_bot_is_gone() -> None:
    """A SIGKILLed bot cannot shut its pool down: its worker (and its forkserver) would be
    orphans waiting forever, as each killed bot of the crash tests (``tests/bot/crash``) once
    left. The worker waits on its parent's sentinel (``_exit_with_bot``) and exits at once.
    Here a real bot process draws once, then is killed."""
    code = (
        "import asyncio, os\n"
        "from bot.drawing import Drawer\n"
        "async def main():\n"
        "    drawer = Drawer()\n"
        "    pid = await drawer.draw(os.getpid)\n"
        "    print(pid, flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, stdout=asyncio.subprocess.PIPE
    )
    assert bot.stdout is not None
    line = await asyncio.wait_for(bot.stdout.readline(), 60)
    worker = int(line)
    assert worker != bot.pid and not _gone(worker, 0.3)  # drawing for a live bot: it stays
    bot.kill()
    await bot.wait()
    assert _gone(worker)


async def test_the_drawing_process_starts_with_the_bot() -> None:
    """The service's start starts the drawing process in the background, as it does the
    decision process: the first showdown after a start found none and waited for one to
    start (forked, Pillow imported) before its picture, and the table message queued behind
    the picture, could go out."""
    service = TableService(MemoryStore(), timers=False)
    assert not service.rt.drawer.running
    try:
        await service.start()
        for _ in range(600):  # (started in a thread: up to 30 s on a loaded machine)
            if service.rt.drawer.running:
                break
            await asyncio.sleep(0.05)
        assert service.rt.drawer.running
    finally:
        await service.stop()
    assert not service.rt.drawer.running
