"""brk59: break-it round on fixw37's worker starts (:mod:`bot.workers`)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from bot import workers
from bot.workers import ProcessWorker

ROOT = Path(__file__).resolve().parents[2]

# The bot's event loop ends (its asyncio.run returns) while a worker's start, in its daemon
# thread (fixw37), has the forkserver fork the worker but has not yet handed it its process
# object: the connection is held up here so that this happens every time.
_EXIT_MID_START = """
import asyncio, threading, time
import multiprocessing.forkserver as forkserver
from bot.workers import ProcessWorker

connect = forkserver.connect_to_new_process
forked = threading.Event()

def slow(fds):
    out = connect(fds)  # (the worker is forked: it waits for its process object)
    forked.set()
    time.sleep(1.0)
    return out

forkserver.connect_to_new_process = slow

async def main():
    ProcessWorker().start_soon()
    await asyncio.to_thread(forked.wait, 30)

asyncio.run(main())
print("ended")
"""


def test_the_bots_exit_mid_start_prints_no_traceback() -> None:
    """fixw37 moved a worker's start to a daemon thread of its own, which the interpreter's
    exit no longer waited for (the event loop's default pool was joined by asyncio.run): a
    bot that exited within a second or two of its start (or after its stop gave a slow
    start up) left the worker being made half-way, and the worker printed ``EOFError: Ran
    out of input`` (or, a moment later, ``FileNotFoundError`` for its pool's semaphores,
    unlinked by the bot's exit) under the bot's exit. The exit now gives the starts under
    way up and waits for them (``EXIT_SECONDS`` at most) to kill the workers they made."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", _EXIT_MID_START],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "ended\n", "")


class _InlinePool:
    """Stands in for a started pool: runs each task at once, in the caller's thread."""

    def __init__(self) -> None:
        self._processes: dict[int, Any] = {}
        self.shut_down = False

    def submit(self, fn: Callable[..., Any], *args: object) -> Future[Any]:
        done: Future[Any] = Future()
        done.set_result(fn(*args))
        return done

    def shutdown(self, wait: bool = True, **_: object) -> None:
        self.shut_down = True


def test_a_start_under_way_when_its_event_loop_ended_is_not_waited_for_by_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker whose start (fixw37: a daemon thread, no longer a task of the loop, which
    asyncio.run cancelled at its end) was under way when its event loop ended kept that
    start for good: every later task, in a new event loop, was refused "got Future attached
    to a different loop" (and its close too), never starting a new worker. The start of
    the ended loop is now given up (its thread kills the pool it makes) and a new one made."""
    release = threading.Event()
    made: list[_InlinePool] = []

    def started(given_up: Future[None] | None = None) -> _InlinePool:
        if not made:  # the first start: still under way when its loop ends
            made.append(_InlinePool())
            release.wait(10)
            return made[0]
        made.append(_InlinePool())
        return made[-1]

    monkeypatch.setattr(workers, "_started_pool", started)
    worker = ProcessWorker()

    async def first() -> None:
        worker.start_soon()

    async def later() -> int:
        try:
            return await asyncio.wait_for(worker.run(abs, -7), 5)
        finally:
            await asyncio.wait_for(worker.close(1.0), 5)

    try:
        asyncio.run(first())
        assert asyncio.run(later()) == 7
        assert len(made) == 2 and made[1].shut_down
    finally:
        release.set()
