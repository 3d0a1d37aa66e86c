"""A rate limiter under which a 429 never delays an answer (issue 15, case 3).

python-telegram-bot's :class:`~telegram.ext.AIORateLimiter` throttles to Telegram's limits and
retries a 429 (``RetryAfter``) after its ``retry_after``; but while it waits, it holds *every*
request of the bot (one internal event all calls wait on), callback answers included, and
Telegram refuses to take the answer of a callback query a few seconds late.
:class:`AnswerFirstRateLimiter` keeps its throttling and changes two things:

* ``answerCallbackQuery`` goes straight through: never throttled, never held by a pause;
* a 429 pauses only the chat that got it (``retry_after`` + 0.1 s); a 429 of a request with no
  chat pauses every request, as before;
* a question about a chat (:data:`QUESTIONS`: ``getChatMember``, an admin's press asks it) is
  no message to it: a 429 pause of the chat's messages does not hold it, nor does the group
  limit (20 messages a minute) count it (a settings press waited out the group's whole
  flood wait unanswered, a tournament's start holding its table meanwhile); its own 429
  pauses it alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import AIORateLimiter

from bot.retries import unless_set

__all__ = ["NO_RETRIES", "QUESTIONS", "UNTHROTTLED", "AnswerFirstRateLimiter"]

log = logging.getLogger(__name__)

#: Bot API methods that are never throttled nor paused.
UNTHROTTLED = frozenset({"answerCallbackQuery"})

#: Bot API methods that ask about a chat without writing to it: throttled overall only, paused
#: by their own 429s only (not by the chat's).
QUESTIONS = frozenset({"getChatMember"})

#: ``rate_limit_args`` of a request whose 429 is raised at once, not sent again (its pause
#: kept all the same): python-telegram-bot drops a falsy one, so not 0
NO_RETRIES = -1

_Result = bool | dict[str, Any] | list[dict[str, Any]]


class AnswerFirstRateLimiter(AIORateLimiter):
    """:class:`AIORateLimiter` (same arguments) whose 429 pauses hold one chat, and never an
    answer.

    :param max_retries: how many times a request refused with a 429 is sent again (each after
        its ``retry_after``); then the ``RetryAfter`` is raised. A request's own
        ``rate_limit_args`` says it instead (:data:`NO_RETRIES`: none).
    :param sleep: waits out a pause (tests inject one they control).
    """

    def __init__(
        self,
        overall_max_rate: float = 30,
        overall_time_period: float = 1,
        group_max_rate: float = 20,
        group_time_period: float = 60,
        max_retries: int = 0,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        super().__init__(
            overall_max_rate=overall_max_rate,
            overall_time_period=overall_time_period,
            group_max_rate=group_max_rate,
            group_time_period=group_time_period,
            max_retries=0,  # retries are ours: the base class would pause every chat
        )
        self._retries = max_retries
        self._sleep = sleep
        #: chat id (``""``: every chat) → when its 429 pause ends (``time.monotonic``)
        self._paused_until: dict[str, float] = {}
        #: set by :meth:`stop_waiting`: no request waits for a pause any more
        self._stopping = asyncio.Event()

    async def initialize(self) -> None:
        """Set up (the application's start): requests wait for their chat's pauses again."""
        self._stopping.clear()
        await super().initialize()

    def stop_waiting(self) -> None:
        """The bot stops: no request waits for a 429 pause any more (those waiting are sent
        now), nor is one refused with a 429 sent again: a flood wait of minutes held the
        stop for its length (python-telegram-bot's stop waits for the handlers, one of them
        sending a reply into the pause)."""
        self._stopping.set()

    async def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` through the injected ``sleep``, unless the bot stops first."""
        if self._stopping.is_set():
            return
        await unless_set(self._sleep(seconds), self._stopping)

    def paused(self, chat_id: str) -> float:
        """Seconds left of the 429 pause that holds requests to ``chat_id`` (0 if none)."""
        now = time.monotonic()
        until = max(self._paused_until.get(chat_id, 0.0), self._paused_until.get("", 0.0))
        return max(0.0, until - now)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, _Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> _Result:
        """Send one request: straight through for :data:`UNTHROTTLED` methods; otherwise after
        the pause of its chat, throttled by the base class, retried on a 429."""
        if endpoint in UNTHROTTLED:
            return await callback(*args, **kwargs)
        retries = self._retries if rate_limit_args is None else max(0, rate_limit_args)
        raw_chat = data.get("chat_id")
        chat_key = "" if raw_chat is None else str(raw_chat)
        chat_id: Any = raw_chat
        with contextlib.suppress(ValueError, TypeError):
            chat_id = int(raw_chat)  # type: ignore[arg-type]
        group: int | str | bool = False
        if endpoint in QUESTIONS:  # (a pause of its own; no message to the group)
            chat_key = f"{endpoint} {chat_key}"
        elif (isinstance(chat_id, int) and chat_id < 0) or isinstance(chat_id, str):
            group = chat_id
        for attempt in range(retries + 1):
            wait = self.paused(chat_key)
            if wait > 0:
                await self._pause(wait)
            try:
                return await self._run_request(
                    chat=raw_chat is not None,
                    group=group,
                    allow_paid_broadcast=bool(data.get("allow_paid_broadcast", False)),
                    callback=callback,
                    args=args,
                    kwargs=kwargs,
                )
            except RetryAfter as exc:
                # the base class reads the same field (the public one warns about its type)
                pause = exc._retry_after.total_seconds() + 0.1
                now = time.monotonic()
                if len(self._paused_until) > 512:  # forget pauses that are over
                    for key in [k for k, end in self._paused_until.items() if end <= now]:
                        del self._paused_until[key]
                # (paused also when it is raised: the chat's next requests wait it out, and
                # the caller may wait for it, :meth:`wait_paused`, to send what is newest then)
                until = now + pause
                self._paused_until[chat_key] = max(self._paused_until.get(chat_key, 0.0), until)
                if attempt == retries or self._stopping.is_set():
                    raise
                log.info("429 in chat %s: %s retried after %.1f s", chat_key, endpoint, pause)
        raise AssertionError("unreachable")  # pragma: no cover

    async def wait_paused(self, chat_id: str) -> None:
        """Until the 429 pause that holds requests to ``chat_id`` is over (at once if none),
        as a request to it would wait (one sleep, through the injected ``sleep``)."""
        wait = self.paused(chat_id)
        if wait > 0:
            await self._pause(wait)
