"""Pictures drawn in a worker process, away from the event loop's GIL (issue 12).

Pillow holds the GIL for much of a picture's 8–21 ms (text drawing above all), so a picture
drawn in a thread of the bot's process (``asyncio.to_thread``) makes the event loop wait for
the GIL: in ``bench/bench_discord.py`` the press that ends a hand, whose showdown picture
starts drawing while its answer is on its way, took p50 21 ms instead of 7 ms, and those
presses (one in 44) were the p99. A :class:`Drawer` draws in one worker process instead.

The worker comes from a ``forkserver`` context that preloads :mod:`bot.pictures` and
:mod:`bot.charts` (Pillow and the shipped fonts' module), so it is forked from a small,
single-threaded server process, never from the bot with its threads. The first drawing
starts it in a thread (starting the forkserver blocks for up to a second or two on a busy
machine, never on the event loop); :meth:`Drawer.close` (the service's stop) shuts it down;
a worker that died is replaced at the next drawing, and a worker whose bot died (SIGKILL)
exits at once, which lets its forkserver exit too. As with any ``multiprocessing`` start
method but ``fork``, a script that runs the bot must guard its entry point with
``if __name__ == "__main__":`` (``python -m bot`` and the bench scripts do).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

__all__ = ["Drawer"]

T = TypeVar("T")

_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["bot.pictures", "bot.charts"])


def _exit_with_bot() -> None:
    """The worker's initializer: a thread ends the worker as soon as the bot's process (the
    one that started it) is gone. A SIGKILLed bot cannot tell its pool, the worker would wait
    for work forever, and it holds the forkserver open too (both orphans). The wait is on
    :func:`multiprocessing.parent_process`'s sentinel, a pipe the bot's end of which closes
    when it dies, so a new process that happens to get the bot's pid does not fool it."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - only ever run as a pool's initializer
        return

    def watch() -> None:
        parent.join()
        os._exit(0)

    threading.Thread(target=watch, name="watch-bot", daemon=True).start()


def _started_pool() -> ProcessPoolExecutor:
    """A pool whose worker runs (blocks: call it in a thread). Starting the worker waits for
    the forkserver (started and preloaded at the first time, up to a second or two on a busy
    machine), which must not happen on the event loop."""
    pool = ProcessPoolExecutor(1, mp_context=_CONTEXT, initializer=_exit_with_bot)
    pool.submit(int).result()
    return pool


class Drawer:
    """Runs picklable drawing functions (``bot.pictures.draw_json``, ``bot.charts.draw_kush``)
    in one worker process: drawings queue for it, one at a time on one core, however many
    showdowns end together."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = asyncio.Lock()  # one start (or close) at a time

    @property
    def running(self) -> bool:
        """A pool is up (made by a drawing, not yet closed)."""
        return self._pool is not None

    async def draw(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in the worker process; its result (PNG bytes, say). The first drawing
        starts the worker, in a thread.

        ``fn`` must be a module-level function and ``args`` picklable.

        :raises Exception: what ``fn`` raised (re-raised here), or
            :class:`~concurrent.futures.process.BrokenProcessPool` if the worker died (the
            next drawing starts a new one)."""
        async with self._lock:
            if self._pool is None:
                self._pool = await asyncio.to_thread(_started_pool)
            pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            pool.shutdown(wait=False)
            raise

    async def close(self) -> None:
        """Shut the pool down: queued drawings are cancelled, the one being drawn finishes;
        waits (off the loop) until the worker has exited. A later :meth:`draw` starts a new
        pool."""
        async with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
