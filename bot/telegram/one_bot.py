"""One bot per token: what the bot does when Telegram answers 409 ``Conflict`` because another
process takes this token's updates (docs/operations.md, "One bot per token").

Telegram hands a token's updates to one taker: a second process polling with it ends the first
one's pending ``getUpdates`` (409 "terminated by other getUpdates request"), and ``getUpdates``
while a webhook is set is refused (409 "can't use getUpdates method while webhook is active").
Another machine's process is not seen by the database locks (bot/dblock.py), and it serves the
same chats from another database: each would take about half of the updates.

- Two pollers: the one that polled alone first goes on; the newcomer stops once the conflict has
  lasted :data:`CONFLICT_SECONDS` (one line, exit status 2), as a second bot on one database is
  refused. The newcomer is the one whose polls were refused from its start (its conflict's 409s
  began in the first :data:`GHOST_SECONDS` of polling: a poller already running ends the first
  poll within a second or two); a bot whose conflict began later but within ``CONFLICT_SECONDS``
  of its start cannot tell (the other may have met it polling slowly, or be the newcomer) and
  stops only once the conflict has lasted :data:`UNSURE_FACTOR` times as long: a newcomer that met
  it has stopped by then, so two pollers started within a minute no longer both stop (only when
  both started within ``GHOST_SECONDS``, neither met the other at its start, or the first met a
  dead process's poll at its start less than ``CONFLICT_QUIET_SECONDS`` before the second came).
  The first 409 of a conflict is a warning (it may be a blip); another process polling is said (an
  error, once) when it is known. The 409s of the first :data:`GHOST_SECONDS` of polling start no
  conflict (a dead process's long poll) but mark it as the newcomer's if it follows them without a
  pause of :data:`CONFLICT_QUIET_SECONDS`. A stop also needs the conflict's 409s to have come in
  :data:`BURSTS` bursts (a 409 more than :data:`GHOST_SECONDS` after the burst's first begins the
  next): a network blip makes one (Telegram still holds a poll of this bot's and refuses the next
  ones for up to 10 s), so two blips are no other poller; another poller ends this bot's polls at
  least every ~31 s.
- A poller meeting a webhook another process set gets no update at all: it stops after
  :data:`CONFLICT_SECONDS` too, whenever it started (the webhook's process serves).
- A bot in webhook mode, or the cluster's router (bot/cluster.py), looks at its webhook every
  :data:`WEBHOOK_LOOK_SECONDS` (:func:`look_at_webhook`): removed (a poller's start deletes it)
  or replaced by another URL, it gets no update: it stops.

python-telegram-bot's polling loop retries a 409 after 1 s, then 1.5 times longer on each
failure in a row, up to 30 s; its default error callback logs a traceback per failure, which
:class:`TokenGuard` replaces with a line or two per conflict.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

from telegram import Bot
from telegram.error import Conflict, TelegramError

__all__ = [
    "BURSTS",
    "CONFLICT_SECONDS",
    "GHOST_SECONDS",
    "UNSURE_FACTOR",
    "WEBHOOK_LOOK_SECONDS",
    "TokenGuard",
    "look_at_webhook",
    "same_url",
]

log = logging.getLogger(__name__)

#: Seconds a 409 conflict must last before the process that should give way stops.
CONFLICT_SECONDS = 60.0
#: Seconds without a 409 after which a conflict is over (a later one is logged again): longer
#: than python-telegram-bot's longest wait between two polls after failures (30 s).
CONFLICT_QUIET_SECONDS = 45.0
#: Seconds after the polling start whose 409 "terminated by other getUpdates request" start no
#: conflict: Telegram may still hold the long poll of a process that just died (a crash, a
#: ``kill -9``, a restart) until its timeout (10 s, the adapter's), and ends it by refusing the
#: new process's first polls; a real second poller goes on past it (brk54).
GHOST_SECONDS = 15.0
#: Bursts of 409s (each :data:`GHOST_SECONDS` long at most) a conflict must have had before a
#: stop: two could be two network blips; another poller makes one at least every ~31 s (its
#: 30 s wait after failed polls at most, then its poll), so three in the conflict's 60 s.
BURSTS = 3
#: How many times :data:`CONFLICT_SECONDS` a conflict that began after the polling start's
#: :data:`GHOST_SECONDS` but within ``CONFLICT_SECONDS`` of it lasts before this bot stops:
#: the other poller may be a newcomer that met this one at its start, which stops after
#: ``CONFLICT_SECONDS`` of its conflict (begun up to 15 s and a 30 s wait after its start,
#: its stop at a 409 up to ~31 s later): 180 s leave this bot polling once it has.
UNSURE_FACTOR = 3
#: Seconds between two looks of a bot in webhook mode at its webhook (``getWebhookInfo``).
WEBHOOK_LOOK_SECONDS = 60.0

CONFLICT_SEEN = (
    "getUpdates was refused with 409 Conflict: another poll with this bot token ended this "
    "bot's (a network blip, or another process polling with it)"
)
POLLING = (
    "another process is polling with this bot token: stop it (only one bot per token; it "
    "serves the same chats from its own database)"
)
WEBHOOK_SET = (
    "a webhook is set for this bot token (another process runs with TELEGRAM_WEBHOOK_URL): this "
    "bot gets no updates while it is; stop that process (only one bot per token)"
)


class _NoConflictTrace(logging.Filter):
    """Drops python-telegram-bot's traceback of a 409 (its last ``getUpdates`` at a stop after
    a conflict): the conflict's one line was logged already."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], Conflict))


_NO_CONFLICT_TRACE = _NoConflictTrace()


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _normal(url: str) -> tuple[str, str, int | None, str, str]:
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:  # (not a port: compared as it is)
        port = None
    if port == _DEFAULT_PORTS.get(scheme):
        port = None
    path = unquote(parts.path).rstrip("/")
    return scheme, (parts.hostname or "").lower(), port, path, unquote(parts.query)


def same_url(a: str, b: str) -> bool:
    """Whether two webhook URLs name one endpoint: ``getWebhookInfo`` may answer the URL set
    in another normal form (host case, a default port, percent-encoding, a trailing ``/``),
    which is not another process's webhook (brk54)."""
    return a == b or _normal(a) == _normal(b)


def host_of(url: str) -> str:
    """The host (and port) of a webhook URL, for a log line: its path may hold a secret."""
    return urlsplit(url).netloc or url


class TokenGuard:
    """Watches the 409s of one polling bot (:meth:`polling_error`, python-telegram-bot's
    ``error_callback``) and calls ``on_stop(line)`` once when this bot should stop.

    :param on_stop: called (at most once) with the line to log and exit on (status 2); ``None``
        logs the line only.
    :param seconds: :data:`CONFLICT_SECONDS`.
    :param ghost: :data:`GHOST_SECONDS`: the 409s "terminated by other getUpdates request" of
        the first ``ghost`` seconds of polling are logged at DEBUG only and start no conflict
        (a dead process's long poll Telegram still held), but a conflict following them
        (no pause of :data:`CONFLICT_QUIET_SECONDS`) is a newcomer's: it gives way after
        ``seconds``; one begun later, within ``seconds`` of the start, after
        :data:`UNSURE_FACTOR` times ``seconds``, one begun later still never. Also a
        burst's length: such a conflict stops this bot only once its 409s came in
        :data:`BURSTS` bursts.
    """

    def __init__(
        self, on_stop: Callable[[str], None] | None, seconds: float, ghost: float = GHOST_SECONDS
    ) -> None:
        self.on_stop = on_stop
        self.seconds = seconds
        self.ghost = ghost
        self.polling_since = time.monotonic()
        self._since: float | None = None  # when the conflict began (monotonic seconds)
        self._last = 0.0
        self._burst = 0.0  # when the conflict's last burst of 409s began
        self._bursts = 0
        self._gives_way = False
        self._lasts = seconds  # how long the conflict lasts before this bot stops (gives way)
        self._met: float | None = None  # the last 409 of the polling start's ``ghost`` seconds
        self._webhook = False  # whether the conflict is a webhook's (this bot gets nothing)
        self._said = False  # whether the conflict's "another process is polling" was logged
        self.stopped: str | None = None  # the line this bot stopped on
        logging.getLogger("telegram.ext.Updater").addFilter(_NO_CONFLICT_TRACE)  # (once)

    def polling_error(self, exc: TelegramError) -> None:
        """A failed ``getUpdates``: a 409 is logged once per conflict (no traceback): a
        warning that one was seen (a blip, or another poller), an error once another process
        is known to poll (the conflict lasted ``seconds`` in :data:`BURSTS` bursts: this bot
        stops, or polled first and goes on, or, unsure which came last, stops if it lasts
        :data:`UNSURE_FACTOR` times as long) or set a webhook (at once); it may stop the bot.
        Any other error is logged as python-telegram-bot does."""
        if not isinstance(exc, Conflict):
            log.error("polling for updates failed: %s", exc)
            return
        now = time.monotonic()
        # ("can't use getUpdates method while webhook is active", and the pending poll's
        # "terminated by setWebhook request" when another process sets one)
        webhook = "webhook" in exc.message.lower()
        if not webhook and self._since is None and now - self.polling_since < self.ghost:
            log.debug("a 409 at the polling start (a dead process's long poll?): %s", exc)
            self._met = now  # (or a poller already running: then the conflict follows)
            return
        if (
            self._since is None
            or now - self._last > CONFLICT_QUIET_SECONDS
            or (webhook and not self._webhook)  # (a webhook set since: its own conflict)
        ):
            self._since = self._burst = now
            self._webhook = webhook
            self._bursts = 1
            # met at the start: the 409s of its first polls went on into this conflict
            met = self._met is not None and now - self._met <= CONFLICT_QUIET_SECONDS
            self._gives_way = webhook or met or now - self.polling_since < self.seconds
            self._lasts = self.seconds if webhook or met else self.seconds * UNSURE_FACTOR
            self._said = False
            if webhook:  # (no blip: another process set it)
                log.error("%s; this bot stops if it goes on for %g s", WEBHOOK_SET, self._lasts)
            else:  # (a blip, or another poller: said once it is known, below)
                then = f"; this bot stops if it goes on for {self._lasts:g} s"
                log.warning("%s%s", CONFLICT_SEEN, then if self._gives_way else "")
        elif now - self._burst > self.ghost:
            self._burst = now
            self._bursts += 1
        self._last = now
        if now - self._since < self.seconds or (not webhook and self._bursts < BURSTS):
            return  # (not yet known: two bursts could be two blips of a lone bot)
        if self._gives_way and now - self._since < self._lasts:
            if not self._said:  # (unsure which one is the newcomer: it stops first, if it met us)
                self._said = True
                log.error("%s; this bot stops if it goes on for %g s", POLLING, self._lasts)
            return
        if not self._gives_way and not self._said:
            self._said = True
            log.error("%s; this bot polled first and goes on", POLLING)
        if self._gives_way and self.stopped is None:
            what = "a webhook stayed set" if webhook else "another process kept polling"
            self.stopped = (
                f"{what} with this bot token for {self._lasts:g} s: this bot stops (only one bot "
                "per token: stop the other process, then start this one again)"
            )
            log.error("%s", self.stopped)
            if self.on_stop is not None:
                self.on_stop(self.stopped)

    def webhook_gone(self, ours: str, now_set: str) -> None:
        """A bot in webhook mode found ``now_set`` (``""``: none) instead of its ``ours``:
        another process deleted or replaced it; logs the line and calls ``on_stop``."""
        if self.stopped is not None:
            return
        what = f"replaced by {host_of(now_set)}" if now_set else "deleted"
        self.stopped = (
            f"the webhook of this bot token was {what} (another process polls with it or set its "
            "own TELEGRAM_WEBHOOK_URL): this bot gets no updates and stops (only one bot per "
            "token: stop the other process, then start this one again)"
        )
        log.error("%s", self.stopped)
        if self.on_stop is not None:
            self.on_stop(self.stopped)


async def look_at_webhook(bot: Bot, url: str, guard: TokenGuard, seconds: float) -> None:
    """Every ``seconds``, ``getWebhookInfo``: the webhook ``url`` deleted (another process
    started polling) or replaced stops the process (:meth:`TokenGuard.webhook_gone`) and
    returns; a failed look is tried again at the next. Runs until cancelled otherwise: a bot
    in webhook mode's (bot/telegram/adapter.py) and the router's (bot/cluster.py)."""
    while True:
        await asyncio.sleep(seconds)
        try:
            now_set = (await bot.get_webhook_info()).url
        except TelegramError:
            continue
        if not same_url(now_set, url):
            guard.webhook_gone(url, now_set)
            return
