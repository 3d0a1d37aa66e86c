"""The computer players' decisions and "Arrange for me" in a worker process (issue 13).

A ``strong`` decision (:func:`game.policy.decide`: in Pineapple with Fantasyland on, the
fitted-value search of :mod:`game.adp`) takes about 80 ms on average and up to half a second
on a quiet machine, pure Python and small numpy calls that hold the GIL: made in a thread of
the bot it would hold up the event loop, and every other table's presses with it. A
:class:`Thinker` makes it in a worker process of its own (:class:`bot.workers.ProcessWorker`,
from the same ``forkserver`` as the drawing process, which preloads :mod:`game.policy` and
:mod:`game.adp` with its model), one decision at a time.

Why a process of its own and not the drawing process: the machine has two cores, the event
loop uses one, and the two workers can share the other (and the loop's while it idles); in
one process a decision would queue behind every showdown picture of a burst of hands (8–21 ms
each), and a picture behind decisions of up to half a second. Apart, each waits only for its
own kind.

"Arrange for me" answers a press, within a second: it waits for the worker at most
``within`` seconds (a busy worker: other tables' decisions queued first; a worker still
starting), then places at the ``instead`` level in a thread (``normal``: milliseconds).

:data:`IN_PROCESS` off (``DECISIONS_IN_PROCESS=0``, and the test suite's default), decisions
run in a thread of the bot as before, waited for however long they take, but for a computer
player's (given up by its move after :data:`DECISION_SECONDS`) and a press's (after
:data:`PRESS_SECONDS`). A thread cannot be ended: a decision hung there runs on, with its share
of the GIL, until the bot's process ends; its thread is written off and never waited for, by
the stop nor by the process's exit (:class:`_Threads`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, InvalidStateError
from typing import Any, TypeVar

from bot.workers import ProcessWorker, TaskHung, raised_by_task
from game.board import Box
from game.cards import Card
from game.policy import Level, SeatKnowledge

__all__ = [
    "CLOSE_SECONDS",
    "DECISION_SECONDS",
    "IN_PROCESS",
    "PRESS_SECONDS",
    "Decide",
    "GivenUp",
    "Moves",
    "Thinker",
    "press_seconds",
]

log = logging.getLogger("bot.thinking")

T = TypeVar("T")

#: A placement of a street: ``(card, box or None for a discard)`` per card (game.policy).
Moves = list[tuple[Card, Box | None]]
#: A decision function: :func:`game.policy.decide` (module-level: it is pickled by name).
Decide = Callable[[SeatKnowledge, Level], Moves]

#: The longest a computer player's move waits for its decision, seconds (a ``strong`` one
#: takes 80 ms on average, half a second at most, a few seconds queued behind other tables'):
#: past it the decision is taken for hung (an endless loop on some position, a worker that
#: no longer answers) and its street is made by the timeout rule (R8.5). Waiting for it
#: stopped the table's timer for good: nobody's clock ran out and the hand never ended.
DECISION_SECONDS = 10.0

#: The longest a press ("Arrange for me") waits for its decisions in all, holding its table:
#: the worker's for ``within`` (``ARRANGE_SECONDS``), then one made in a thread (thread mode:
#: the thread's from the start); a press that makes two (its street afresh, then the rest)
#: shares it between them (:func:`press_seconds`). Past it the decision is taken for hung and
#: given up, the press answered so: a thread cannot be ended, and waiting for one hung held
#: the table for good.
PRESS_SECONDS = 10.0


def press_seconds(within: float) -> float:
    """The longest one press ("Arrange for me") thinks in all, seconds, its decisions together
    (one, or two: its street's cards afresh, then the rest, :func:`bot.service.play.hand_press`):
    :data:`PRESS_SECONDS`, or ``within`` (how long the worker is waited for, ``ARRANGE_SECONDS``)
    were it set longer. The press hands each decision one instant so far ahead
    (:meth:`Thinker.decide`'s ``until``); a decision of its own had that bound each, and a
    press making two held its table twice as long."""
    return max(PRESS_SECONDS, within)


#: The longest the service's stop waits for a decision the worker process is making
#: (:meth:`Thinker.close`): none takes a second; one still running past this is hung (an
#: endless loop on some position), and the worker is killed instead of waited for, which
#: held the stop, and so the bot's shutdown, for good.
CLOSE_SECONDS = 3.0

#: Threads in which thread mode makes computer players' decisions (and process mode those
#: the worker failed to make, :class:`_Threads`): their own, apart from the presses'
#: (:data:`PRESS_THREADS`). A hung decision holds its thread for good (a thread cannot be
#: ended); in the event loop's default pool, which presses used too, a few of them left
#: every press's Arrange waiting for a thread and answered "too late".
BOT_THREADS = 4

#: Threads in which presses' decisions ("Arrange for me") are made: thread mode's, and
#: process mode's at ``instead`` (:class:`_Threads`); as many as the event loop's default
#: pool, which they used before (``min(32, cores + 4)``).
PRESS_THREADS = min(32, (os.cpu_count() or 1) + 4)


class GivenUp(TimeoutError):
    """A decision made in a thread was given up by the service's stop (:meth:`Thinker.close`):
    its caller answers as for one given up after its time (a press: "too late", nothing
    placed)."""


#: a decision for a thread of :class:`_Threads`: its future, the function and its arguments
_Work = tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]


class _Threads:
    """A pool of daemon threads for decisions, ``most`` of them at work at once.

    Unlike a :class:`~concurrent.futures.ThreadPoolExecutor` (the event loop's default pool
    among them) nothing joins its threads: ``asyncio.run`` shut the default pool down waiting
    for its threads, and the interpreter's exit joins every executor's threads, so one decision
    hung in any of them (an endless loop on some position: a thread cannot be ended) held the
    bot's shutdown for good. A daemon thread is left to the process's end.

    A decision whose caller stopped waiting for it (:meth:`run` cancelled: given up after its
    time) while it runs has its thread written off: it leaves the pool when its decision ends,
    if ever, and the pool may start another meanwhile, so decisions that hang never leave the
    others without a thread (in the default pool, once ``min(32, cores + 4)`` presses' decisions
    had hung, every later Arrange at every table was answered "too late")."""

    def __init__(self, most: int, name: str) -> None:
        self._most = most
        self._name = name
        self._lock = threading.Lock()
        self._work: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()  # (None: leave)
        self._idle = threading.Semaphore(0)  # (threads waiting for work)
        self._threads = 0  # threads of the pool (those written off no longer count)
        self._running: dict[Future[Any], bool] = {}  # decisions under way: written off?
        self._closed = False

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a thread of the pool; its result.

        :raises GivenUp: the pool was closed (:meth:`close`) under the decision.
        :raises RuntimeError: the pool is closed."""
        future: Future[T] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new decisions after the stop")
            self._work.put((future, fn, args))
            if not self._idle.acquire(blocking=False) and self._threads < self._most:
                self._threads += 1
                threading.Thread(
                    target=self._serve, name=f"{self._name}-{self._threads}", daemon=True
                ).start()
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            with self._lock:
                future.cancel()  # (still queued: never run)
                if self._running.get(future) is False:  # (under way: its thread written off)
                    self._running[future] = True
                    self._threads -= 1
            raise

    def _serve(self) -> None:
        while (item := self._work.get()) is not None:
            future, fn, args = item
            del item
            with self._lock:  # (not cancelled meanwhile: see run)
                started = future.set_running_or_notify_cancel()
                if started:
                    self._running[future] = False
            if started:
                try:
                    result = fn(*args)
                except BaseException as exc:
                    with contextlib.suppress(InvalidStateError):  # (given up by close)
                        future.set_exception(exc)
                else:
                    with contextlib.suppress(InvalidStateError):
                        future.set_result(result)
                with self._lock:
                    if self._running.pop(future):
                        return  # (written off: another thread took its place)
            del future, fn, args
            self._idle.release()

    def close(self) -> None:
        """Cancel the decisions queued, give up those under way (their callers get
        :class:`GivenUp` at once) and let the threads go; none is waited for."""
        with self._lock:
            self._closed = True
            running, threads = list(self._running), self._threads
        with contextlib.suppress(queue.Empty):
            while (item := self._work.get_nowait()) is not None:
                item[0].cancel()
        for future in running:
            with contextlib.suppress(InvalidStateError):
                future.set_exception(GivenUp("the decision was given up at the stop"))
        for _ in range(threads):
            self._work.put(None)


#: Where a :class:`~bot.service.TableService` makes decisions when not told: ``True``, in the
#: worker process. The test suite's ``tests/conftest.py`` turns it off (threads: tests that
#: replace a decision function keep working, and no test waits for a worker to start); the
#: tests of this module and ``tests/bot/test_thinking.py`` use the process.
IN_PROCESS = True


class Thinker:
    """Makes decisions in one worker process (``in_process``) or in threads of the bot.

    :ivar worker: the worker process (started by :meth:`start_soon` or the first decision;
        never in thread mode).
    """

    def __init__(self, in_process: bool) -> None:
        self.in_process = in_process
        self.worker = ProcessWorker()
        self._watching: asyncio.TimerHandle | None = None  # (Thinker._watch)
        self._asked = 0  # decisions asked of the worker, not answered yet
        self._bot_threads: _Threads | None = None  # (computer players', Thinker._computer_thread)
        self._press_threads: _Threads | None = None  # (presses', Thinker._press_pool)

    @property
    def running(self) -> bool:
        """The worker process is up."""
        return self.worker.running

    async def decide(
        self,
        fn: Decide,
        k: SeatKnowledge,
        level: Level,
        *,
        within: float | None = None,
        instead: Level = Level.NORMAL,
        until: float | None = None,
    ) -> Moves:
        """``fn(k, level)``: in the worker process, or in a thread when not ``in_process``.

        In the worker, one that died is replaced and asked again, once. When it died again
        or cannot be started, or its pool was shut down under the decision (the service
        stopping), the decision is made in a thread (logged). A worker that has been on one
        decision longer than :data:`DECISION_SECONDS` is taken for hung and replaced: at once
        when asked, and while decisions wait for it as soon as it passes them
        (:meth:`_watch`), so the decisions queued behind the hung one are asked again of the
        new worker within the time their callers still wait (they ran out of it waiting
        for the hung one, and their streets were made by the timeout rule, R8.5). The hung
        decision itself is not asked again (:class:`~bot.workers.TaskHung`: raised, or with
        ``within`` made at ``instead`` in a thread).

        :param fn: the decision function, :func:`game.policy.decide` (in the worker it must be
            a module-level function; tests replace it in thread mode).
        :param within: seconds to wait for the worker at most (a press's answer): past them
            the worker's decision is dropped (cancelled if still queued) and ``fn(k,
            instead)`` made in a thread, waited for until ``until`` (a press holds its table
            meanwhile). ``None``: no limit (a computer player's decision: its caller gives up
            after :data:`DECISION_SECONDS`; ``until`` unused). Thread mode waits for ``fn(k,
            level)`` itself, until ``until`` at most (:meth:`_in_thread`).
        :param until: with ``within``, the :func:`time.monotonic` instant (seconds) by which
            the decision must be in, the worker's wait and a thread's together: the worker is
            waited for ``within`` at most, never past it. A press making two decisions hands
            both the one instant :func:`press_seconds` from its start, so that it thinks that
            long in all, not that long each. ``None``: :func:`press_seconds` from now.
        :raises TimeoutError: with ``within``, no decision by ``until`` (a thread cannot be
            ended: one hung on some position runs on, given up).
        :raises Exception: what ``fn`` raised."""
        if within is None:  # (a computer player's: no press's deadline)
            until = None
        elif until is None:
            until = time.monotonic() + press_seconds(within)
        if not self.in_process:
            return await self._in_thread(fn, k, level, until)
        fallback = level
        with self._asking():
            try:
                decided = self.worker.run_again_if_died(fn, k, level, logger=log, what="decision")
                if within is not None:
                    assert until is not None
                    within = max(0.0, min(within, until - time.monotonic()))
                return await asyncio.wait_for(decided, within)
            except TimeoutError:
                assert within is not None
                log.info("no decision from the worker within %.1f s: %s instead", within, instead)
                fallback = instead
                self._watch()
            except TaskHung:
                if within is None:  # (a computer player's: its street is made by the timeout rule)
                    raise
                log.warning("the decision process hung on this decision: %s instead", instead)
                fallback = instead
            except (RuntimeError, OSError) as exc:
                if raised_by_task(exc):  # the decision's own (a RecursionError): raised, as
                    # any other; taken for the process failing, it was logged with its text,
                    # which may name the seat's hidden cards, and made again in a thread
                    raise
                # BrokenProcessPool (died twice), or a pool shut down under the decision (the
                # service stopping: "cannot schedule new futures after shutdown")
                log.warning("the decision process failed (%r): this decision in a thread", exc)
                if within is not None:
                    fallback = instead
        if until is None:
            return await self._computer_thread(fn, k, fallback)
        return await asyncio.wait_for(
            self._press_thread(fn, k, fallback), max(0.0, until - time.monotonic())
        )

    async def compute(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` off the event loop for a press that is no decision but may make some:
        a replay's frames (:func:`game.history.replay_frames`, which decides again, with the
        strategy, each timeout of a hand log that did not record its placement, R8.5). In
        process mode in the worker process, queued with the decisions (asked again of a new
        worker once if it died under it); in thread mode, or when the worker failed (died
        twice, hung, shut down under it: logged), in a press thread (:data:`PRESS_THREADS`).
        A thread of the bot held the event loop, and every other table's presses with it,
        for as long as the strategy took. Waited for :data:`PRESS_SECONDS` in all.

        :param fn: a module-level function (pickled by name to the worker), ``args``
            picklable.
        :raises TimeoutError: nothing came back in :data:`PRESS_SECONDS` (:class:`GivenUp`:
            the stop gave it up).
        :raises Exception: what ``fn`` raised."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        if self.in_process:
            with self._asking():
                try:
                    done = self.worker.run_again_if_died(fn, *args, logger=log, what="decision")
                    return await asyncio.wait_for(done, PRESS_SECONDS)
                except (TaskHung, RuntimeError, OSError) as exc:
                    if raised_by_task(exc):  # fn's own, as in decide (a replay's frames name
                        raise  # the hand's cards)
                    log.warning("the decision process failed (%r): this work in a thread", exc)
        left = max(0.0, PRESS_SECONDS - (loop.time() - began))
        return await asyncio.wait_for(self._press_pool().run(fn, *args), left)

    @contextlib.contextmanager
    def _asking(self) -> Iterator[None]:
        """While one call (:meth:`decide`, :meth:`compute`) is asked of the worker process: a
        hung worker replaced first (:meth:`_replace_if_hung`), the call counted among those
        waiting for it (:attr:`_asked`, until it returns or raises) and the worker watched
        (:meth:`_watch`)."""
        self._replace_if_hung()
        self._asked += 1
        self._watch()
        try:
            yield
        finally:
            self._asked -= 1

    def _press_pool(self) -> _Threads:
        """The threads of presses (:data:`PRESS_THREADS`), made at the first use."""
        if self._press_threads is None:
            self._press_threads = _Threads(PRESS_THREADS, "ofc-arrange")
        return self._press_threads

    async def _in_thread(
        self, fn: Decide, k: SeatKnowledge, level: Level, until: float | None
    ) -> Moves:
        """Thread mode: ``fn(k, level)`` in a thread of the bot, waited for however long it
        takes (a decision is the same whatever the machine's load), except a press's (with
        ``until``, a :func:`time.monotonic` instant, as it holds its table meanwhile): until
        then at most (:func:`press_seconds` from the press's start). A thread cannot be ended:
        one hung on some position, waited for however long, held its table for good (the
        press never answered, no clock's step taken).

        :raises TimeoutError: no decision by ``until``."""
        if until is None:  # (a computer player's: its caller gives up after DECISION_SECONDS)
            return await self._computer_thread(fn, k, level)
        wait = max(0.0, until - time.monotonic())
        try:
            return await asyncio.wait_for(self._press_thread(fn, k, level), wait)
        except GivenUp:
            log.info("a decision in a thread given up at the stop")
            raise
        except TimeoutError:
            log.warning("no decision in a thread within %.1f s: given up", wait)
            raise

    async def _computer_thread(self, fn: Decide, k: SeatKnowledge, level: Level) -> Moves:
        """``fn(k, level)`` for a computer player in a thread of :data:`BOT_THREADS` of its
        own (one that hangs holds one of them, never one a press's decision waits for, and
        once given up it is written off, :class:`_Threads`)."""
        if self._bot_threads is None:
            self._bot_threads = _Threads(BOT_THREADS, "ofc-decision")
        return await self._bot_threads.run(fn, k, level)

    async def _press_thread(self, fn: Decide, k: SeatKnowledge, level: Level) -> Moves:
        """``fn(k, level)`` for a press in a thread of :data:`PRESS_THREADS`: none of them is
        joined by the bot's shutdown (the event loop's default pool was, for good, when a
        decision hung there), and one given up is written off (:class:`_Threads`)."""
        return await self._press_pool().run(fn, k, level)

    def _replace_if_hung(self) -> None:
        """Replace the worker when it has been on one decision longer than
        :data:`DECISION_SECONDS` (none takes a second; past them it is hung, an endless loop
        on some position). An "Arrange for me" gives up on a decision much sooner
        (``within``) and places at ``normal`` in a thread: nothing else replaced the worker
        hung on it (unless a computer player's decision timed out too), and every later
        press at every table waited ``within`` for it and got the weaker placement
        (:meth:`~bot.workers.ProcessWorker.replace_if_hung`)."""
        self.worker.replace_if_hung(DECISION_SECONDS, log, "decision")

    def _watch(self) -> None:
        """While decisions wait for the worker, or it is busy with one given up: check when
        the task it is on would pass :data:`DECISION_SECONDS` (:meth:`_replace_if_hung`, and
        again then for the next task), so that a hung worker is replaced then, not at the
        next decision asked of it, nor when the caller of the hung one gives up (later, by
        its pace: every decision queued behind it ran out of its time before that, the
        decisions of the other tables' computer players too). Call with a running event
        loop."""
        busy = self.worker.busy_for()
        if busy <= 0.0 and not self._asked:
            return
        if self._watching is not None:
            self._watching.cancel()
        self._watching = asyncio.get_running_loop().call_later(
            max(0.0, DECISION_SECONDS - busy) + 0.1, self._watched
        )

    def _watched(self) -> None:
        self._watching = None
        self._replace_if_hung()
        if self._asked or self.worker.busy_for() > 0.0:
            self._watch()

    def given_up(self) -> None:
        """A computer player's decision was given up after :data:`DECISION_SECONDS`
        (:func:`bot.service.bots._decision`): the worker is replaced if it is hung, on one
        task longer than those seconds (:meth:`_replace_if_hung`), else checked again when
        the task it is on would pass them (:meth:`_watch`). A decision given up is not
        always the one the worker hangs on: one queued behind a hung decision at another
        table, asked again of the worker that replaced it while that one was still
        starting, ran out of its time too, and killing the new worker, which answers, made
        every other table's decisions under way on it start over. Call with a running event
        loop."""
        if self.in_process:
            self._replace_if_hung()
            self._watch()

    def replace(self) -> None:
        """A decision was given up as hung (:data:`DECISION_SECONDS`): in process mode the
        worker is killed and a new one started (:meth:`ProcessWorker.replace`); the one
        worker left hung made every later decision, at every table, wait those seconds and
        be given up too. The decisions it had queued are asked again of the new one. (A
        thread cannot be ended: in thread mode nothing changes.)"""
        if self.in_process:
            self.worker.replace()

    def start_soon(self) -> None:
        """In process mode, start the worker in the background (the service's start), so that
        the first "Arrange for me" finds it up instead of waiting for it. Call with a running
        event loop."""
        if self.in_process:
            self.worker.start_soon()

    async def close(self) -> None:
        """Shut the worker down (the service's stop), waiting :data:`CLOSE_SECONDS` at most
        for a start under way (then given up: one that never finished held the stop for
        good), and as long for the decision it is making (then it is killed: one hung
        there held the stop for good); a later decision starts a new one (and new pools
        of threads: the old ones are left to their threads, never joined,
        :class:`_Threads`). Decisions under way in
        threads are given up at once (:class:`GivenUp`: a press under way is answered "too
        late", after the tables were saved, changing nothing), their threads left to run."""
        if self._watching is not None:
            self._watching.cancel()
            self._watching = None
        for threads in (self._bot_threads, self._press_threads):
            if threads is not None:
                threads.close()
        self._bot_threads = self._press_threads = None
        await self.worker.close(CLOSE_SECONDS)
