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
import atexit
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.logs import HideErrorText

__all__ = ["ProcessWorker", "StartGivenUp", "TaskHung", "raised_by_task"]

T = TypeVar("T")

log = logging.getLogger("bot.workers")

_CONTEXT = multiprocessing.get_context("forkserver")
# (one forkserver serves every worker of the bot: what it preloads is set once, here)
_CONTEXT.set_forkserver_preload(["bot.pictures", "bot.charts", "game.policy", "game.adp"])


def raised_by_task(exc: BaseException) -> bool:
    """Whether ``exc``, raised by :meth:`ProcessWorker.run`, is what the task's function
    raised in the worker (a ``RuntimeError`` of its own, a ``RecursionError``) rather than the
    worker failing (``BrokenProcessPool``: it died; a ``RuntimeError`` of a pool shut down, an
    ``OSError`` of a start): the pool re-raises a task's exception with the worker's traceback
    as its cause, a ``_RemoteTraceback`` (a dead worker's ``BrokenProcessPool`` may carry one
    too, and is the worker's failure)."""
    cause = exc.__cause__
    return not isinstance(exc, BrokenProcessPool) and type(cause).__name__ == "_RemoteTraceback"


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
    while the bot, which handles it, shuts them down anyway.

    What the worker logs (no handler there: :data:`logging.lastResort`, ``WARNING`` and up to
    the standard error the bot's log shares, e.g. ``game.hand``'s failed ``safe_autoplay``
    in the decision process) has its errors' texts hidden as the bot's own log does
    (:class:`bot.logs.HideErrorText`, R3.3: an error there may name a hidden card)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if logging.lastResort is not None and not any(
        isinstance(f, HideErrorText) for f in logging.lastResort.filters
    ):
        logging.lastResort.addFilter(HideErrorText())
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - only ever run as a pool's initializer
        return

    def watch() -> None:
        parent.join()
        os._exit(0)

    threading.Thread(target=watch, name="watch-bot", daemon=True).start()


class StartGivenUp(RuntimeError):
    """The worker's start was given up by :meth:`ProcessWorker.close` (it had not finished
    within the close's ``grace``): a task waiting for that start gets this; the next one
    starts a new worker."""


def _kill(pool: ProcessPoolExecutor, wait: bool = False) -> None:
    """End a pool at once: its worker process (if it has one yet) is killed, the pool shut
    down without waiting (``wait``: waiting for its thread to be done with the killed
    worker, a moment: off the event loop only; at the interpreter's exit that thread, left
    running, raised under the exit's clean-up)."""
    for process in list((pool._processes or {}).values()):
        process.kill()
    pool.shutdown(wait=wait)


def _started_pool(given_up: Future[None] | None = None) -> ProcessPoolExecutor:
    """A pool whose worker runs (blocks: call it in a thread). Starting the worker waits for
    the forkserver (started and preloaded at the first time, up to a second or two on a busy
    machine), which must not happen on the event loop.

    :param given_up: done when the start is given up (:meth:`ProcessWorker.close`): then
        the pool made so far is killed and :class:`StartGivenUp` raised, instead of waiting
        on for a worker that may never answer.
    :raises StartGivenUp: so given up.
    :raises Exception: the start failed (``BrokenProcessPool``: the worker died starting)."""
    pool = ProcessPoolExecutor(1, mp_context=_CONTEXT, initializer=_exit_with_bot)
    try:
        first = pool.submit(int)
        waited: list[Future[Any]] = [first] if given_up is None else [first, given_up]
        wait_futures(waited, return_when=FIRST_COMPLETED)
        if given_up is not None and given_up.done():
            raise StartGivenUp("the worker's start was given up")
        first.result()
    except BaseException:
        _kill(pool, wait=True)
        raise
    return pool


#: The longest the interpreter's exit waits for the worker starts under way (given up at
#: once, :func:`_end_starts`) to end their pools, in seconds.
EXIT_SECONDS = 5.0

#: the starts under way (their threads running), for the interpreter's exit
_under_way: set[_Start] = set()
_under_way_lock = threading.Lock()


class _Start:
    """One start of a worker's pool, under way in a daemon thread of its own (not the event
    loop's default pool: a thread that never comes back would hold the loop's and the
    interpreter's exit, which join those threads). :attr:`pool` is the pool it made, or the
    start's failure; :meth:`give_up` ends the wait for it at once."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        #: the event loop the start reports to (:attr:`pool` is its future)
        self.loop = loop
        #: the started pool (or the failure, :class:`StartGivenUp` once given up)
        self.pool: asyncio.Future[ProcessPoolExecutor] = loop.create_future()
        self.pool.add_done_callback(_logged)
        self._given_up: Future[None] = Future()
        self.thread = threading.Thread(target=self._run, name="start-worker", daemon=True)
        with _under_way_lock:
            _under_way.add(self)
        self.thread.start()

    def _run(self) -> None:
        pool: ProcessPoolExecutor | None = None
        failure: BaseException | None = None
        try:
            try:
                pool = _started_pool(self._given_up)
            except BaseException as exc:  # (delivered to the loop, raised to its callers)
                failure = exc
            try:
                self.loop.call_soon_threadsafe(self._finish, pool, failure)
            except RuntimeError:  # the loop is closed: nobody will take the pool
                if pool is not None:
                    _kill(pool, wait=True)
        finally:
            with _under_way_lock:
                _under_way.discard(self)

    def stop_waiting(self) -> None:
        """End the start's own wait for its worker (from any thread): the pool made so far
        is killed by the start's thread."""
        with contextlib.suppress(InvalidStateError):
            self._given_up.set_result(None)

    def _finish(self, pool: ProcessPoolExecutor | None, failure: BaseException | None) -> None:
        if self.pool.done():  # given up meanwhile: the pool, made too late, is ended
            if pool is not None:
                _kill(pool)
        elif pool is not None:
            self.pool.set_result(pool)
        else:
            self.pool.set_exception(failure or StartGivenUp("the worker's start failed"))

    def give_up(self) -> None:
        """Stop waiting for the start (on the loop): :attr:`pool` fails with
        :class:`StartGivenUp` now, and the pool, if it is ever made, is killed (by the
        start's thread, or here on the loop when it comes back too late)."""
        self.stop_waiting()
        if not self.pool.done():
            self.pool.set_exception(StartGivenUp("the worker's start was given up"))


def _end_starts() -> None:
    """At the interpreter's exit: the worker starts under way are given up and their threads
    waited for, :data:`EXIT_SECONDS` at most, so that each kills the worker it was making.
    Left to run (daemon threads), a start's worker came up after the bot had unlinked its
    pool's semaphores at exit (multiprocessing's own exit handler, which runs after this
    one) or closed its end of the pipe: the worker printed a ``FileNotFoundError`` (or
    ``EOFError``) traceback under the bot's exit (a stop within a second or two of the
    start, or one whose close gave a slow start up)."""
    with _under_way_lock:
        starts = list(_under_way)
    for start in starts:
        start.stop_waiting()
    end = time.monotonic() + EXIT_SECONDS
    for start in starts:
        start.thread.join(max(0.0, end - time.monotonic()))


# (registered after multiprocessing.util's exit handler, imported above: run before it)
atexit.register(_end_starts)


def _logged(started: asyncio.Future[ProcessPoolExecutor]) -> None:
    """A start's failure is logged (and marked seen); one given up is not (the close that
    gave it up logged it)."""
    if started.cancelled():
        return
    exc = started.exception()
    if exc is not None and not isinstance(exc, StartGivenUp):
        log.warning("a worker process could not be started: %r", exc)


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
        self._starting: _Start | None = None  # (a start under way)
        self._tasks = _Tasks()  # (the running pool's)
        #: tasks a worker was killed on as hung (:meth:`replace`): their callers get
        #: :class:`TaskHung`
        self._hung: weakref.WeakSet[Future[Any]] = weakref.WeakSet()
        self._closes = 0  # (:meth:`close` calls: a task failed by one is not asked again)

    @property
    def running(self) -> bool:
        """A pool is up (made by a task, not yet closed)."""
        return self._pool is not None

    async def _up(self) -> ProcessPoolExecutor:
        """The running pool; started (in a thread) when there is none. Callers that ask
        together share one start, and a caller that stops waiting (a timeout, a cancelled
        task) leaves the start going: the pool it makes is kept, never lost unclosed.

        :raises StartGivenUp: :meth:`close` gave the start up meanwhile."""
        if self._pool is not None:
            return self._pool
        return await asyncio.shield(self._start().pool)

    def start_soon(self) -> None:
        """Start the worker in the background (in a thread), unless it runs or is starting:
        the first task then finds it up. A start that fails is logged; the next task tries
        again. Call with a running event loop."""
        if self._pool is None:
            self._start()

    def _start(self) -> _Start:
        """The start under way, or a new one; the pool it makes becomes the running one. A
        start under way on another event loop (one that ended meanwhile: its asyncio.run
        returned) is given up, never waited for: its pool would never reach this loop."""
        loop = asyncio.get_running_loop()
        if self._starting is not None:
            if self._starting.loop is loop:
                return self._starting
            self._starting.stop_waiting()  # (its thread kills the pool it made)
        start = self._starting = _Start(loop)

        def started(done: asyncio.Future[ProcessPoolExecutor]) -> None:
            if self._starting is start:
                self._starting = None
            if not done.cancelled() and done.exception() is None:
                self._pool, self._tasks = done.result(), _Tasks()

        # (before any caller's wait: the pool is the running one when they are woken)
        start.pool.add_done_callback(started)
        return start

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

    async def run_again_if_died(
        self, fn: Callable[..., T], *args: object, logger: logging.Logger, what: str
    ) -> T:
        """``fn(*args)`` in the worker process (:meth:`run`), asked again of a new worker, once,
        when the worker died under it (``BrokenProcessPool``: replaced as hung on another
        task, :meth:`replace`, which fails the tasks queued behind that one too, or ended by
        the system): it was lost for nothing it did. Warns ``logger`` so: "the ``what``
        process died: a new one is started". The task the worker was killed on as hung is
        not asked again (:class:`TaskHung`: it would hang the new worker too), nor one whose
        worker :meth:`close` ended (a task queued behind one it killed as hung): that would
        start a worker after the service's stop.

        :raises Exception: as :meth:`run`; ``BrokenProcessPool`` when the new worker died
            under it too (a task that kills its worker is not asked a third time), or a
            close ended it."""
        closes = self._closes
        try:
            return await self.run(fn, *args)
        except BrokenProcessPool:  # (the next run starts a new worker)
            if self._closes != closes:
                raise
            logger.warning("the %s process died: a new one is started", what)
        return await self.run(fn, *args)

    def replace_if_hung(self, seconds: float, logger: logging.Logger, what: str) -> None:
        """Replace the worker (:meth:`replace`) if it has been on one task longer than
        ``seconds`` (:meth:`busy_for`), warning ``logger`` so: "the ``what`` process has been on
        one ``what`` for 12.3 s: hung" (``what``: ``"drawing"``, ``"decision"``). A worker left
        hung made every later task queue behind the hung one until the bot restarted. The
        owners pick the seconds (:class:`bot.drawing.Drawer`: half of its wait for a picture;
        :class:`bot.thinking.Thinker`: its computer players' wait for a decision) and when to
        ask. Call with a running event loop."""
        busy = self.busy_for()
        if busy > seconds:
            logger.warning("the %s process has been on one %s for %.1f s: hung", what, what, busy)
            self.replace()

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

        :param grace: seconds to wait at most for a start under way, and then as many for
            the task being run (``None``: however long it takes). A start not finished by
            then is given up (:class:`StartGivenUp` to the tasks waiting for it; its
            worker, if it ever comes up, is killed: a start that never finished, the
            forkserver or the worker not answering, held the stop for good); a task still
            running is ended by killing the worker (a task hung there, an endless loop,
            held the stop for good)."""
        self._closes += 1
        starting = self._starting
        if starting is not None and starting.loop is not asyncio.get_running_loop():
            starting.stop_waiting()  # (of an event loop that ended: never waited for)
            self._starting = starting = None
        if starting is not None:
            # (asyncio.wait: the start's own failure, or its cancellation, is not this close's)
            await asyncio.wait([starting.pool], timeout=grace)
            if not starting.pool.done():
                log.warning(
                    "a worker process still starting %.1f s into the stop was given up", grace
                )
                starting.give_up()
            if self._starting is starting:
                self._starting = None
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
