"""Pictures drawn in a worker process, away from the event loop's GIL (issue 12).

Pillow holds the GIL for much of a picture's 8–21 ms (text drawing above all), so a picture
drawn in a thread of the bot's process (``asyncio.to_thread``) makes the event loop wait for
the GIL: in ``bench/bench_discord.py`` the press that ends a hand, whose showdown picture
starts drawing while its answer is on its way, took p50 21 ms instead of 7 ms, and those
presses (one in 44) were the p99. A :class:`Drawer` draws in one worker process instead
(:class:`bot.workers.ProcessWorker`: forked from the bot's ``forkserver``, started off the
loop at the first drawing, replaced when it died or hung on a drawing, gone with the bot), a
process of its own beside the one that makes the computer players' decisions
(:class:`bot.thinking.Thinker`): a picture never waits for a decision there, nor a decision
for pictures.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TypeVar

from bot.workers import ProcessWorker

__all__ = ["CLOSE_SECONDS", "DRAW_SECONDS", "Drawer"]

T = TypeVar("T")

log = logging.getLogger(__name__)


#: The longest the service's stop waits for a picture the drawing process is drawing
#: (:meth:`Drawer.close`); none takes a second, and the last ones were sent before the stop
#: closes it: one still drawing past this is hung, and the process is killed instead of
#: waited for (a drawing hung there held the stop, and the bot's shutdown, for good). As the
#: decision process's (:data:`bot.thinking.CLOSE_SECONDS`), so the stop stays within 5 s.
CLOSE_SECONDS = 3.0


#: The longest a drawing is waited for (:meth:`Drawer.draw`), the worker's start included
#: (the forkserver's first start takes a second or two on a busy machine). A table's
#: showdown picture is drawn in its sender, which every press at the table and the
#: service's stop wait for (:meth:`~bot.service.runtime.Runtime.settled`): a worker whose
#: start never finished, or one hung on a drawing, held them all for good. Past it the
#: picture is skipped (logged: the text showdown is the record).
DRAW_SECONDS = 20.0


def _hung_after() -> float:
    """Seconds the drawing process may be on one drawing before it is taken for hung (none
    takes a second): half of :data:`DRAW_SECONDS` (read when asked: tests shorten it). Not
    all of them: the drawing whose wait ran out had them all from its ask, the worker's
    start and its queue included, so its own time in the worker is a little less; yet a
    drawing that ran out of them queued behind others that were only slow finds the one
    the worker is on newer than that, and the worker is kept."""
    return DRAW_SECONDS / 2


class Drawer(ProcessWorker):
    """Runs picklable drawing functions (``bot.pictures.draw_json``, ``bot.charts.draw_kush``)
    in one worker process: drawings queue for it, one at a time on one core, however many
    showdowns end together."""

    async def draw(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in the worker process; its result (PNG bytes, say). The first drawing
        starts the worker, in a thread.

        ``fn`` must be a module-level function and ``args`` picklable.

        :raises Exception: what ``fn`` raised (re-raised here), or
            :class:`~concurrent.futures.process.BrokenProcessPool` if the worker died under
            it twice (see below; the next drawing starts a new one).
        :raises TimeoutError: no picture within :data:`DRAW_SECONDS` (the worker not
            started, or hung: the drawing is dropped, cancelled if still queued).
        :raises ~bot.workers.TaskHung: the worker was killed as hung on this drawing
            (:meth:`close`, or a worker left on it asked to be replaced as below).

        A worker that has been on one drawing longer than half of :data:`DRAW_SECONDS`
        (:meth:`~bot.workers.ProcessWorker.busy_for`) is taken for hung and replaced
        (:meth:`~bot.workers.ProcessWorker.replace`: killed, a new one started in the
        background), checked when a drawing is asked and when one times out: a worker left
        hung made every later picture queue behind the hung one, wait
        :data:`DRAW_SECONDS` and be skipped, until the bot restarted. A drawing that timed
        out queued behind others that were only slow (the worker on one of them for less
        than that) leaves the worker alone: killing it would fail the drawing it is on and
        every one queued behind.

        A drawing whose worker died under it (``BrokenProcessPool``: replaced as hung on
        another drawing, which fails the drawings queued behind that one too, or ended by
        the system) is asked again of a new worker, once, within the same
        :data:`DRAW_SECONDS` (:meth:`~bot.workers.ProcessWorker.run_again_if_died`): it was
        lost for nothing it did (a showdown's picture queued behind a hung one was skipped
        with seconds of its wait left). The drawing the worker was killed on as hung is not
        (:class:`~bot.workers.TaskHung`: it would hang the new worker too)."""
        self._replace_if_hung()
        try:
            return await asyncio.wait_for(
                self.run_again_if_died(fn, *args, logger=log, what="drawing"), DRAW_SECONDS
            )
        except TimeoutError:
            self._replace_if_hung()
            raise

    async def draw_or_none(self, what: str, fn: Callable[..., T], *args: object) -> T | None:
        """``fn(*args)`` drawn (:meth:`draw`), or ``None`` when no picture can be had, logged
        (with its traceback) as "``what`` could not be drawn". Every picture's caller uses
        it (the showdown's, ``/hand``'s, ``/stats``' chart): a picture is never the whole
        answer, the text beside it is, and a drawing's failure that reached a command's
        caller (``/stats`` caught three kinds of it) left the command unanswered.

        Every :class:`Exception` is such a failure: none within :data:`DRAW_SECONDS`
        (``TimeoutError``), the worker killed as hung on it (:class:`~bot.workers.TaskHung`),
        its start given up by the service's stop (:class:`~bot.workers.StartGivenUp`), the
        worker dead under it twice (``BrokenProcessPool``) or shut down (``RuntimeError``),
        the arguments not picklable, and whatever ``fn`` raised (a bug drawing some input). A
        cancellation is not caught."""
        try:
            return await self.draw(fn, *args)
        except Exception:
            log.exception("%s could not be drawn", what)
            return None

    def _replace_if_hung(self) -> None:
        """Replace the worker if it has been on one drawing longer than :func:`_hung_after`
        (:meth:`draw`; :meth:`~bot.workers.ProcessWorker.replace_if_hung`)."""
        self.replace_if_hung(_hung_after(), log, "drawing")

    async def close(self, grace: float | None = None) -> None:
        """Shut the drawing process down, waiting ``grace`` seconds at most (default
        :data:`CLOSE_SECONDS`) for a start under way (then given up) and as long for a
        drawing under way, then killing it (its caller gets
        :class:`~bot.workers.TaskHung`); see :meth:`ProcessWorker.close`."""
        await super().close(CLOSE_SECONDS if grace is None else grace)
