"""When to write again what a chat platform refused for a while (its side down: a 5xx, no
connection, a lost answer): the waits between tries, the give-up deadline and the wake-up of a
writer waiting for its next try. Platform neutral: both presenters
(:class:`bot.telegram.adapter.TelegramPresenter`, :class:`bot.discord.presenter.DiscordPresenter`)
use it for edits, for new messages posted later (a pending ref,
:data:`bot.model.PENDING_PREFIX`) and for notices. No I/O of its own."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Hashable, Sequence
from typing import Generic, TypeVar

__all__ = [
    "EDIT_GIVE_UP_SECONDS",
    "EDIT_RETRIES",
    "NOTICE_RETRIES",
    "Wakeups",
    "next_wait",
    "pending_ref",
    "unless_set",
]

#: Seconds before a write the platform refused for a while (a 5xx past the library's own
#: retries, the network, a 429 past the rate limiter's) is tried again: one entry per try, the
#: last repeated until :data:`EDIT_GIVE_UP_SECONDS`, so a message is brought up to date (or a
#: new one posted) once the platform answers again after an outage. Only the newest screen of
#: a message is written, and a newer one is written at once, not at the next try.
EDIT_RETRIES = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
#: How long a message is tried again at most from its first failure in a row: past it the
#: write is given up (logged), as is one the platform refused for good (a 403, at once).
EDIT_GIVE_UP_SECONDS = 600.0
#: Seconds before a plain notice (a new message with no buttons, never edited: "Bob left the
#: table") refused that way is sent again: one entry per try, then it is given up (logged).
#: Few and short: the table's later messages wait behind it in order.
NOTICE_RETRIES = (1.0, 2.0, 4.0)

K = TypeVar("K", bound=Hashable)


def next_wait(
    waits: Sequence[float],
    tries: int,
    failing_since: float,
    give_up: float,
    *,
    stopping: bool = False,
    at_least: float = 0.0,
) -> float | None:
    """Seconds to wait before trying a write again that has failed ``tries + 1`` times in a
    row, the first of them at ``failing_since`` (:func:`time.monotonic`): ``waits[tries]``, its
    last entry repeated, and at least ``at_least`` (a 429's ``retry_after``). ``None``: give
    up, because ``waits`` is empty, the adapter is ``stopping``, or the next try would come
    more than ``give_up`` seconds after ``failing_since``.

    >>> next_wait((1.0, 2.0), 5, time.monotonic(), 600.0)
    2.0
    >>> next_wait((1.0,), 0, time.monotonic() - 600.0, 600.0) is None
    True
    """
    if not waits or stopping:
        return None
    wait = max(waits[min(tries, len(waits) - 1)], at_least)
    if time.monotonic() + wait - failing_since > give_up:
        return None
    return wait


class Wakeups(Generic[K]):
    """One event per message a writer waits on before its next try: a newer screen of that
    message (or the adapter's stop) wakes it early, so a press's own screen is never held
    by a back-off."""

    def __init__(self) -> None:
        self._events: dict[K, asyncio.Event] = {}

    async def sleep(self, key: K, seconds: float) -> None:
        """Wait ``seconds``, or less if :meth:`wake` (``key``) or :meth:`wake_all` is called
        meanwhile."""
        event = self._events.setdefault(key, asyncio.Event())
        event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), seconds)

    def wake(self, key: K) -> bool:
        """Wake the writer of ``key`` if it is waiting; ``True`` if one was."""
        event = self._events.get(key)
        if event is None:
            return False
        event.set()
        return True

    def wake_all(self) -> None:
        """Wake every writer waiting (the adapter stops: each tries once more now)."""
        for event in self._events.values():
            event.set()

    def forget(self, key: K) -> None:
        """The writer of ``key`` ended."""
        self._events.pop(key, None)


async def unless_set(waiting: Awaitable[object], stop: asyncio.Event) -> None:
    """Await ``waiting`` (a wait: a 429's pause, a sleep) unless ``stop`` is set first (the
    bot stops), whichever comes first; the other is cancelled. Nothing is raised for either
    (a stop never waits out a flood wait of minutes)."""
    wait = asyncio.ensure_future(waiting)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((wait, stopped), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (wait, stopped):
            task.cancel()


def pending_ref(prefix: str) -> str:
    """A new pending ref (``prefix`` is :data:`bot.model.PENDING_PREFIX`) for a message not
    posted yet: random (64 bits), so one never equals a ref an earlier process gave and a
    snapshot kept (a per-process counter started at 1 again after a restart, and the service
    took the new message for the old one: :meth:`bot.service.TableService.message_posted`
    moved a table or hand that still held the old ref)."""
    return f"{prefix}{secrets.token_hex(8)}"
