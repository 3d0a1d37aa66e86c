"""Worker processes away from the event loop's GIL (issues 12 and 13).

Work that holds the GIL for milliseconds (Pillow drawing a picture) or for tenths of a second
(a ``strong`` decision of :mod:`game.policy`: pure Python and small numpy calls) makes the
event loop wait when it runs in a thread of the bot (``asyncio.to_thread``): every table's
presses are delayed meanwhile. A :class:`ProcessWorker` runs such work in one worker process
instead; the bot has two, :class:`bot.drawing.Drawer` for pictures and
:class:`bot.thinking.Thinker` for decisions.

Every worker comes from one ``forkserver`` that preloads :mod:`bot.pictures`,
:mod:`bot.charts`, :mod:`game.policy` and :mod:`game.adp` (Pillow, the fonts' module, numpy and
the fitted model), so a worker is forked from a small, single-threaded server process, never
from the bot with its threads, and starts with all of them loaded. A worker starts at its
first task, in a thread (starting the forkserver blocks for up to a second or two on a busy
machine, never on the event loop); :meth:`ProcessWorker.close` (the service's stop) shuts it
down; a worker that died is replaced at the next task, and a worker whose bot died (SIGKILL)
exits at once, which lets the forkserver exit too. As with any ``multiprocessing`` start
method but ``fork``, a script that runs the bot must guard its entry point with
``if __name__ == "__main__":`` (``python -m bot`` and the bench scripts do).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

__all__ = ["ProcessWorker", "TaskHung"]

T = TypeVar("T")

log = logging.getLogger("bot.workers")

_CONTEXT = multiprocessing.get_context("forkserver")
# (one forkserver serves every worker of the bot: what it preloads is set once, here)
_CONTEXT.set_forkserver_preload(["bot.pictures", "bot.charts", "game.policy", "game.adp"])


class TaskHung(Exception):
    """The worker was killed as hung while it ran this task (:meth:`ProcessWorker.replace`):
    asked again, the task would hang the next worker too. (The tasks queued behind it fail
    with :class:`~concurrent.futures.process.BrokenProcessPool` and may be asked again.)"""


def _exit_with_bot() -> None:
    """The worker's initializer: a thread ends the worker as soon as the bot's process (the
    one that started it) is gone. A SIGKILLed bot cannot tell its pool, the worker would wait
    for work forever, and it holds the forkserver open too (both orphans). The wait is on
    :func:`multiprocessing.parent_process`'s sentinel, a pipe the bot's end of which closes
    when it dies, so a new process that happens to get the bot's pid does not fool it.

    SIGINT is ignored: Ctrl-C in a terminal reaches the whole foreground process group, the
    workers too, and each printed a KeyboardInterrupt traceback under the sandbox's "bye"
    while the bot, which handles it, shuts them down anyway."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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


def _logged(task: asyncio.Task[ProcessPoolExecutor]) -> None:
    """A background start's failure is logged (and marked seen)."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("a worker process could not be started: %r", task.exception())


class _Tasks:
    """The tasks given to one pool, unfinished: its one worker runs them one at a time, in the
    order given, so the one it runs now began when it was given (the worker idle) or when
    the one before it finished, whichever came later. Their futures finish in the pool's
    thread: a lock keeps the record."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: unfinished tasks, in the order given: when each was given (``time.monotonic``)
        self._unfinished: dict[Future[Any], float] = {}
        self._last_done = 0.0

    def add(self, future: Future[Any]) -> None:
        with self._lock:
            self._unfinished[future] = time.monotonic()
        future.add_done_callback(self._done)  # (called at once if done: outside the lock)

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            self._unfinished.pop(future, None)
            if not future.cancelled():  # (one cancelled while queued never ran)
                self._last_done = time.monotonic()

    def running(self) -> Future[Any] | None:
        """The task the worker runs now (the first unfinished one it took); ``None``: none."""
        with self._lock:
            return next((f for f in self._unfinished if not f.cancelled()), None)

    def busy_for(self) -> float:
        """Seconds the worker has been on the task it runs now; 0 when it has none."""
        with self._lock:
            given = next((at for f, at in self._unfinished.items() if not f.cancelled()), None)
            if given is None:
                return 0.0
            return time.monotonic() - max(given, self._last_done)


class ProcessWorker:
    """Runs picklable module-level functions in one worker process: tasks queue for it, one
    at a time on one core."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[ProcessPoolExecutor] | None = None
        self._tasks = _Tasks()  # (the running pool's)
        #: tasks a worker was killed on as hung (:meth:`replace`): their callers get
        #: :class:`TaskHung`
        self._hung: weakref.WeakSet[Future[Any]] = weakref.WeakSet()

    @property
    def running(self) -> bool:
        """A pool is up (made by a task, not yet closed)."""
        return self._pool is not None

    async def _up(self) -> ProcessPoolExecutor:
        """The running pool; started (in a thread) when there is none. Callers that ask
        together share one start, and a caller that stops waiting (a timeout, a cancelled
        task) leaves the start going: the pool it makes is kept, never lost unclosed."""
        if self._pool is not None:
            return self._pool
        if self._starting is None:
            self._starting = asyncio.get_running_loop().create_task(self._start())
        return await asyncio.shield(self._starting)

    def start_soon(self) -> None:
        """Start the worker in the background (in a thread), unless it runs or is starting:
        the first task then finds it up. A start that fails is logged; the next task tries
        again. Call with a running event loop."""
        if self._pool is not None or self._starting is not None:
            return
        self._starting = asyncio.get_running_loop().create_task(self._start())
        self._starting.add_done_callback(_logged)

    async def _start(self) -> ProcessPoolExecutor:
        try:
            pool = await asyncio.to_thread(_started_pool)
        finally:
            self._starting = None
        self._pool, self._tasks = pool, _Tasks()
        return pool

    def busy_for(self) -> float:
        """Seconds the worker has been on the task it runs now (the time since it was given
        that task, or since it finished the task before it: tasks queued behind others do
        not count their wait); 0 when it has none. A task that takes far longer than any
        should (the worker hung on it) shows here, while its callers have given up waiting."""
        return self._tasks.busy_for() if self._pool is not None else 0.0

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in the worker process; its result. The first task starts the worker,
        in a thread.

        ``fn`` must be a module-level function and ``args`` picklable.

        :raises Exception: what ``fn`` raised (re-raised here), or
            :class:`~concurrent.futures.process.BrokenProcessPool` if the worker died (the
            next task starts a new one), or :class:`TaskHung` if it was killed as hung on
            this task (:meth:`replace`)."""
        pool = await self._up()
        tasks = self._tasks if self._pool is pool else _Tasks()  # (replaced meanwhile)
        future: Future[T] | None = None
        try:
            future = pool.submit(fn, *args)
            tasks.add(future)
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            pool.shutdown(wait=False)
            if future is not None and future in self._hung:
                raise TaskHung(f"the worker was killed as hung on {fn.__name__}") from None
            raise
        finally:
            if future is not None:
                self._hung.discard(future)

    def replace(self) -> None:
        """The worker is taken for hung (a task it was given never came back, issue 13): its
        process is killed and a new one started in the background, so the tasks after it do
        not queue behind the hung one for good. The tasks the old one had (the hung one, and
        any queued behind it) fail with
        :class:`~concurrent.futures.process.BrokenProcessPool`, as when a worker dies (a
        caller asks a task again on the new worker, :class:`bot.thinking.Thinker`), except the
        one it was running, taken for the hung one: :class:`TaskHung` (asked again, it would
        hang the new worker too, and every task queued behind it there). Call with a running
        event loop."""
        pool, self._pool = self._pool, None
        if pool is not None:
            hung = self._tasks.running()
            if hung is not None:
                self._hung.add(hung)
            # (the pool has no public way to end a worker busy with a task before Python
            # 3.14's terminate_workers: shutdown waits for it or, without waiting, leaves it)
            # (not cancel_futures: a task cancelled so ends its caller's wait with a
            # CancelledError; killed, every task of the pool fails with BrokenProcessPool)
            for process in list((pool._processes or {}).values()):
                process.kill()
            pool.shutdown(wait=False)
            log.warning("a worker process taken for hung was killed: a new one is started")
        self.start_soon()

    async def close(self, grace: float | None = None) -> None:
        """Shut the pool down: queued tasks are cancelled, the one being run finishes; waits
        (off the loop) until the worker has exited. A start under way is waited for and its
        pool shut down too. A later :meth:`run` starts a new pool.

        :param grace: seconds to wait for the task being run at most (``None``: however
            long it takes); then the worker is killed (a task hung there, an endless loop,
            held the stop for good)."""
        starting = self._starting
        if starting is not None:
            with contextlib.suppress(Exception):  # (nothing started: nothing to shut down)
                await asyncio.shield(starting)
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((pool._processes or {}).values())  # (shutdown forgets them)
        down = asyncio.ensure_future(
            asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
        )
        if grace is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(down), grace)
            if not down.done():
                log.warning("a worker process still busy %.1f s into the stop was killed", grace)
                hung = self._tasks.running()
                if hung is not None:  # (its caller is told so, TaskHung: not asked again of
                    self._hung.add(hung)  # a new worker started after the stop)
                for process in processes:
                    process.kill()
        await down
