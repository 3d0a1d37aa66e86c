"""Telegram adapter: turns updates into calls on the :class:`~bot.service.TableService` and
its screens into Telegram messages. It holds no game rules.

* Commands in a group (``/newtable``, ``/join`` …) and presses of inline buttons go to the
  service; the answer of a press is an ``answerCallbackQuery`` (a popup for refusals).
* The table message of a group and each player's private message are edited in place
  (:class:`TelegramPresenter`); a private message to a user who never started the bot fails
  with 403 and the group then shows a deep link ``t.me/<bot>?start=t<table>``. A press on a
  player's private hand message is shown there by the adapter, from the service's reply (one
  edit per press, coalesced with the others of that message): the service writes every other
  message.
* Rate limits: :class:`~bot.telegram.ratelimit.AnswerFirstRateLimiter` throttles and retries
  429s, pausing only the chat that got one; a press is answered before anything it causes is
  sent, and its answer is never held by a 429 pause.
* Chats that change under the table (issue 15): a group upgraded to a supergroup (the service
  message, or a write refused with ``migrate_to_chat_id``) takes its table, wallets and
  history to the new id; a deleted table message is posted again; a player who blocked the bot
  mid-hand is marked unreachable (the group shows the link to the private chat), and their
  private chat is not written to again until they show life there (an unblock, a command or a
  press in it: :meth:`TelegramAdapter._private_life`), not at every street; a group that
  removes the bot (``my_chat_member``) has its table closed after the hand in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeGuard
from urllib.parse import urlsplit

import aiohttp
from telegram import (
    BotCommand,
    CallbackQuery,
    Chat,
    ChatMember,
    ChatMemberRestricted,
    InputFile,
    Message,
    MessageEntity,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType, UpdateType
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import HTTPXRequest

from bot.late_pictures import LatePictures
from bot.logs import failure_logged
from bot.model import PENDING_PREFIX, Actor, ChatRef, LiveTable, Reply, group_chat
from bot.names import clean_name, fit
from bot.presses import loggable
from bot.render import ping_lines
from bot.retries import (
    EDIT_GIVE_UP_SECONDS,
    EDIT_RETRIES,
    NOTICE_RETRIES,
    Wakeups,
    next_wait,
    pending_ref,
    unless_set,
)
from bot.screens import Payload, Screen
from bot.service import TableService
from bot.service.numbers import unformatted
from bot.service.stats import means_me
from bot.service.wallet import read_grant, signed_words
from bot.telegram.one_bot import (
    CONFLICT_SECONDS,
    GHOST_SECONDS,
    WEBHOOK_LOOK_SECONDS,
    TokenGuard,
    host_of,
    look_at_webhook,
)
from bot.telegram.ratelimit import NO_RETRIES, AnswerFirstRateLimiter
from bot.telegram.transport import AiohttpRequest
from bot.texts import RUSSIAN_READERS, language_of, tr

__all__ = ["TelegramAdapter", "TelegramPresenter", "keyboard"]

log = logging.getLogger(__name__)

PLATFORM = "telegram"
#: Telegram's limits: a message's text, and the text of a callback query's answer.
MAX_TEXT = 4096
MAX_ANSWER = 200
#: the caption of a photo
MAX_CAPTION = 1024
#: the command menu: (command, English description, Russian description); published in
#: English for everyone and in Russian for the players who read Russian (RUSSIAN_READERS).
#: One menu serves every group, whatever its kush label (``kush_label``): no description
#: names the unit (Discord's descriptions neither, :mod:`bot.discord.adapter`)
COMMANDS = (
    ("newtable", "open a table", "открыть стол"),
    ("join", "take a seat", "сесть за стол"),
    ("ready", "buy in and get ready", "внести взнос (кнопка «Готов»)"),
    ("leave", "leave the table", "встать из-за стола"),
    ("topup", "top up your stack", "докупить в стек"),
    ("tournament", "open a tournament", "открыть турнир"),
    ("addbot", "seat a computer player", "посадить компьютерного игрока"),
    ("removebot", "stand a computer player up", "убрать компьютерного игрока"),
    ("sitout", "skip hands", "пропускать раздачи"),
    ("back", "come back", "вернуться в игру"),
    ("balance", "your balance", "ваш баланс"),
    ("top", "leaderboard", "рейтинг"),
    ("history", "your last hands", "ваши последние раздачи"),
    ("hand", "your board as a picture (private chat)", "ваша доска картинкой (в личном чате)"),
    ("stats", "statistics", "статистика"),
    ("replay", "replay a hand", "повтор раздачи"),
    ("daily", "daily bonus", "ежедневный бонус"),
    ("rules", "rules", "правила"),
    (
        "settings",
        "admins: buy-in, point price, timers, language",
        "админам: взнос, цена очка, таймеры, язык",
    ),
    ("closetable", "admins: close the table", "админам: закрыть стол"),
    ("grant", "admins: add to a balance", "админам: пополнить баланс"),
    (
        "kick",
        "admins: stand a player up, or unregister them from a tournament not started",
        "админам: поднять игрока из-за стола или снять с регистрации в турнире до старта",
    ),
    ("help", "help", "помощь"),
)


#: commands of a player's own seat, wallet or hands: refused when sent as a chat (an anonymous
#: admin, a channel), whose every sender would share one player
PERSONAL = frozenset(
    {"join", "ready", "leave", "topup", "sitout", "back"}
    | {"balance", "history", "daily", "stats", "replay", "hand"}
)
#: commands whose sender gets rights or acts with them (the opener of a table may seat
#: computer players, an admin changes the stakes): refused when sent on behalf of a channel,
#: whose every member posting as any channel is one Telegram user, Channel_Bot (a table
#: opened as one channel let a member posting as another seat and stand up computer players
#: as its opener); an anonymous admin, sent as the group itself, is an admin
AS_SOMEONE = frozenset(
    {"newtable", "tournament", "addbot", "removebot", "settings", "grant", "closetable", "kick"}
)
#: commands that take no words: typed with some a user plausibly means something by
#: (``/leave now``, ``/sitout 2``, ``/balance @bob``, ``/hand 12``), they ran
#: as if the words were not there (``/balance @bob`` showed the admin's own); now they are
#: refused with the command's usage (:meth:`TableService.usage`), nothing done. (``/back``,
#: ``/daily``, ``/help``, ``/closetable`` run whatever follows them: no word changes what a
#: user means by them; ``/history [N]`` takes a number, which the service judges.)
NO_WORDS = frozenset({"join", "ready", "leave", "sitout", "balance", "hand"})


def keyboard(screen: Screen) -> dict[str, Any] | None:
    """The inline keyboard of a screen as the Bot API's JSON (``None`` when it has no
    buttons), passed in a call's ``api_kwargs`` (python-telegram-bot's documented way to send
    raw parameters): built without python-telegram-bot's ``InlineKeyboardMarkup``, whose
    building and encoding back to JSON took an eighth of a worker's CPU per press (every
    press edits a message with a keyboard; measured with ``bench/bench_cluster.py``)."""
    if not screen.buttons:
        return None
    return {
        "inline_keyboard": [
            [
                {"text": b.label, "url": b.url}
                if b.url
                else {"text": b.label, "callback_data": b.data}
                for b in row
            ]
            for row in screen.buttons
        ]
    }


def _keyboard_kwargs(screen: Screen) -> dict[str, Any] | None:
    kb = keyboard(screen)
    return None if kb is None else {"reply_markup": kb}


def _answer_of(reply: Reply) -> tuple[str, dict[str, Any] | None]:
    """A command's answer as one message: its text (``reply.text``, then its screen's after
    a blank line; ``""`` for none) and the screen's keyboard as ``api_kwargs`` (or ``None``)."""
    text = reply.text or (reply.screen.text if reply.screen else "")
    if reply.screen and reply.text:
        text = reply.text + "\n\n" + reply.screen.text
    return text, _keyboard_kwargs(reply.screen) if reply.screen else None


def _unsent(exc: TelegramError) -> bool | None:
    """How a new message whose send failed with ``exc`` stands: ``True``, certainly not
    posted, Telegram's side being down or busy (it answered a 5xx or a 429 past the rate
    limiter's retries, or no connection to it was made); ``False``, perhaps posted (the
    request went out and its answer was lost: a read timeout, a connection dropped); ``None``,
    refused for good (403, 400, a migrated chat …): not an outage."""
    if isinstance(exc, RetryAfter):
        return True
    if not isinstance(exc, NetworkError) or isinstance(exc, BadRequest):
        return None
    cause = exc.__cause__
    if cause is None or isinstance(cause, TelegramError):
        return True  # (Telegram answered with a 5xx)
    return isinstance(cause, aiohttp.ClientConnectorError | aiohttp.ConnectionTimeoutError)


# An edit refused by Telegram's side (a 5xx), lost in the network or still refused with a 429
# after the rate limiter's retries (python-telegram-bot retries neither; a 429 is first the
# rate limiter's) is written again after :data:`~bot.retries.EDIT_RETRIES`, for up to
# :data:`~bot.retries.EDIT_GIVE_UP_SECONDS` (shared with Discord, :mod:`bot.retries`), so a
# message is brought up to date once Telegram answers again after an outage (it was left
# showing an older screen, a wrong turn and old cards, until the next change); one to a chat
# the bot may not write to any more (a 403, "chat not found") is given up at once. A notice
# (:meth:`TelegramPresenter.post`) is tried again after :data:`~bot.retries.NOTICE_RETRIES`.
# An edit refused with a 429 is not sent again by the rate limiter (it would send the screen
# of then): the writer waits the chat's pause out and writes the message's newest screen. So
# is a new message (a table message, a hand): posted in the background once the pause is
# over, its newest screen (:meth:`TelegramPresenter._pending`), the chat's later new messages
# after it (:meth:`TelegramPresenter._after_held`).
#: An edit does not notify: a player whose turn has gone this many seconds without a press
#: (since it began or since their last press on it) gets a short "your move" message in the
#: private chat (a new message notifies), with the time left then, deleted when the turn
#: ends. Who acts sooner gets none.
TURN_PING_SECONDS = 10.0
#: A press's answer (``answerCallbackQuery``) refused by Telegram's side or lost in the
#: network is sent once more only if the press came in less than this many seconds ago: the
#: user's button spins until it is answered, and a late answer is refused anyway.
ANSWER_RETRY_SECONDS = 1.0
#: Seconds after the bot's mute in a group runs out before the group is looked at again
#: (:meth:`TelegramAdapter._muted_until`): Telegram's clock and ours differ a little.
MUTE_END_MARGIN = 1.0
#: Seconds between the looks at a group's default permissions after a write there was
#: refused for want of the right to send (:meth:`TelegramAdapter._watch_rights`): an admin
#: who makes a group read-only, or lets its members write again, sends the bot no update.
RIGHTS_LOOK_SECONDS = 60.0
#: How many such looks at most (an hour at the default): the table's close, or its closed
#: message owed to the group, is not held for ever (the players were told in private).
RIGHTS_LOOKS = 60


class TelegramPresenter(LatePictures):
    """Writes the service's screens to Telegram (one table message per group, one private
    message per player, both edited in place)."""

    PICTURE_TASK = "tg-picture"

    platform = PLATFORM
    #: a private chat that refused the bot with 403 (the player blocked it, or never started
    #: it) is not written to again until the player shows life there
    #: (:func:`bot.service.runtime.quiet_until_seen`, :meth:`TelegramAdapter._private_life`)
    quiet_until_seen = True

    def __init__(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        self.app = application
        self.username: str | None = None
        #: told when a group got a new id, ``(old, new)`` (the service follows it; wired by
        #: :class:`TelegramAdapter`)
        self.on_migrated: Callable[[str, str], Awaitable[object]] | None = None
        #: told when a user blocked the bot (a private edit refused with 403)
        self.on_unreachable: Callable[[str], Awaitable[object]] | None = None
        #: told (the group's id) when a write there shows the bot may not write in the
        #: group any more (:func:`_chat_gone`): the service closes its table
        #: (and when, ``time.monotonic()``, the refused write was sent: the service ignores
        #: one sent before the bot was added back)
        self.on_chat_gone: Callable[[str, float], Awaitable[object]] | None = None
        self._leaving: dict[str, asyncio.Task[None]] = {}  # groups being told so
        #: told ``(user, message ref)`` when a user deleted their private hand message (the
        #: service sends that table's hand anew)
        self.on_private_deleted: Callable[[str, str], Awaitable[object]] | None = None
        # Edits are coalesced: only the newest screen of a message is written, by one
        # background writer per message, so a busy table never queues stale edits behind the
        # rate limits and a press is answered at once.
        self._latest: dict[tuple[str, str], Screen] = {}
        self._writers: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._moved: dict[tuple[str, str], str] = {}  # group message → its re-post (deleted)
        #: messages whose newest screen the stop left unwritten, Telegram holding it (a
        #: 429's pause, an outage): :meth:`edit_written` says so (a new screen forgets it)
        self._unwritten: set[tuple[str, str]] = set()
        self._lost: set[tuple[str, str]] = set()  # private messages deleted: sent anew next time
        #: users whose last private send was refused for another reason than a 403 (a 400, a
        #: Bad Request: no block, the next write tries again: :meth:`quiet_for`)
        self._refused_else: set[str] = set()
        self._migrated: dict[str, str] = {}  # group id → its new (supergroup) id
        self._following: dict[tuple[str, str], asyncio.Task[None]] = {}
        #: waits before an edit lost to a 5xx, the network or a 429 is written again
        #: (:data:`EDIT_RETRIES`; tests of what a lost edit leaves behind set none), and for
        #: how long at most (:data:`EDIT_GIVE_UP_SECONDS`)
        self.edit_retries: tuple[float, ...] = EDIT_RETRIES
        self.edit_give_up = EDIT_GIVE_UP_SECONDS
        #: waits before a notice (:meth:`post`) refused by Telegram's side is sent again, one
        #: per try (:data:`~bot.retries.NOTICE_RETRIES`)
        self.notice_retries: tuple[float, ...] = NOTICE_RETRIES
        #: showdown pictures being posted later (:meth:`send_picture`)
        self._late_pictures: dict[str, asyncio.Task[None]] = {}
        #: wakes a message's writer waiting to try again: a newer screen came
        self._newer: Wakeups[tuple[str, str]] = Wakeups()
        #: by chat: the writers of new messages refused with a 429, posted once the pause is
        #: over (:meth:`_pending`); the chat's later new messages wait for them
        self._held: dict[str, set[asyncio.Task[None]]] = {}
        #: set by the stop: ends the waits of writers sitting out a chat's 429
        self._stopped = asyncio.Event()
        self._notice_waits: Wakeups[object] = Wakeups()  # (a notice waiting: the stop wakes it)
        #: set by the adapter's stop: edits are no longer tried again
        self.stopping = False
        #: told ``(chat, pending ref, ref)`` when a new message that could not be posted at
        #: once (:data:`~bot.model.PENDING_PREFIX`) is posted (the service takes its real ref)
        self.on_posted: Callable[[str, str, str], Awaitable[object]] | None = None
        #: told ``(chat, pending ref)`` when a showdown picture posted later
        #: (:meth:`send_picture`) is given up (refused for good, its answer lost, past the
        #: give-up): the service forgets it, a restart does not post it
        self.on_picture_given_up: Callable[[str, str], Awaitable[object]] | None = None
        #: pending messages perhaps posted after all (their answer lost), by chat: (the
        #: message's key, the screen sent) — a press on a message of that chat showing
        #: exactly that screen is on it (:meth:`claim`)
        self._unsure: dict[str, list[tuple[tuple[str, str], Screen]]] = {}
        #: forum topics (``"<chat>#<topic>"``) Telegram refused (closed or deleted by an
        #: admin): their messages go to the group itself
        self._topic_gone: set[str] = set()
        #: seconds into a turn before the player is pinged (:data:`TURN_PING_SECONDS`)
        self.turn_ping_seconds = TURN_PING_SECONDS
        #: a player's hand screen at a table as it is now, ``(user, table)`` (the service's,
        #: wired by :class:`TelegramAdapter`): a turn ping is written from it when it is sent,
        #: so its clock shows the time left then
        self.hand_now: Callable[[str, int], Awaitable[Screen | None]] | None = None
        # per (user, table): whether their hand shows buttons (their turn), the ping's task
        # (waiting, then sending), the ping message sent and when (event loop time) the player
        # last pressed a button of that table in the private chat
        self._acting: dict[tuple[str, int], bool] = {}
        self._pingers: dict[tuple[str, int], asyncio.Task[None]] = {}
        #: per (user, table): the task that sends the turn's time bank nudge when the bank
        #: starts (:attr:`~bot.screens.Screen.bank_nudge`, R8.5)
        self._nudgers: dict[tuple[str, int], asyncio.Task[None]] = {}
        #: those of :attr:`_pingers` that post a hand perhaps posted (:meth:`_post_unsure`)
        self._reposts: set[asyncio.Task[None]] = set()
        self._pings: dict[tuple[str, int], int] = {}
        self._pressed: dict[tuple[str, int], float] = {}

    async def _send(
        self, chat_id: str, screen: Screen, *, record: bool = False, held: bool = True
    ) -> str:
        """Post ``screen`` as a new message in ``chat_id``; its id. One refused with a 429 is
        not sent again by the rate limiter (it would post the screen of then after the pause,
        then the message's newest screen would be an edit of it: two writes where one does):
        the ``RetryAfter`` is raised and the caller posts it in the background
        (:meth:`_pending`), its newest screen once the pause is over. A ``record`` (written
        once, never edited) keeps the rate limiter's retries. It goes after the chat's posts
        held so (:meth:`_after_held`; ``held`` false: it is one of them)."""
        if held:
            await self._after_held(chat_id)
        text = fit(screen.text, MAX_TEXT)
        kwargs = _keyboard_kwargs(screen)
        chat = _where(chat_id)[0]
        retries = {} if record else self._no_limiter_retries()
        msg = await self._in_topic(
            chat_id,
            lambda topic: self.app.bot.send_message(
                chat, text, message_thread_id=topic, api_kwargs=kwargs, **retries
            ),
        )
        return str(msg.message_id)

    async def _in_topic(
        self, chat_id: str, send: Callable[[int | None], Awaitable[Message]]
    ) -> Message:
        """``send(topic)`` in the forum topic ``chat_id`` names (``"<chat>#<topic>"``); when
        Telegram refuses that topic (an admin closed or deleted it: 400 ``TOPIC_CLOSED``,
        ``TOPIC_DELETED``, ``message thread not found``) it is sent to the group itself
        (its General topic) instead, and so is every later message of that topic, so the
        table stays in sight. Other errors propagate."""
        topic = _where(chat_id)[1]
        if topic is None or chat_id in self._topic_gone:
            return await send(None)
        try:
            return await send(topic)
        except BadRequest as exc:
            reason = str(exc).lower()
            if not any(w in reason for w in ("thread not found", "topic_closed", "topic_deleted")):
                raise
            log.warning("cannot write in topic %s (%s): writing in the group", chat_id, exc)
            self._topic_gone.add(chat_id)
            return await send(None)

    def topic_state(self, chat_id: str, is_open: bool) -> None:
        """Admins closed (``is_open`` false) or reopened the forum topic ``chat_id``
        (``"<chat>#<topic>"``, from its service message): a closed one's messages go to the
        group itself from now on (without a refused send first), a reopened one's go back to
        the topic. A table message already posted stays where it is and is edited there."""
        if is_open:
            self._topic_gone.discard(chat_id)
        else:
            self._topic_gone.add(chat_id)

    def moved(self, chat: str) -> bool:
        """Whether the group ``chat`` has moved (upgraded to a supergroup, its writes going
        to the new id)."""
        return chat in self._migrated

    def _target(self, chat_id: str) -> str:
        """The chat a write to ``chat_id`` (``"<chat>"`` or ``"<chat>#<topic>"``) goes to
        now: the group's new id if it moved (a supergroup now), else its own."""
        chat = _where(chat_id)[0]
        return self._migrated.get(chat, chat)

    def current_ref(self, chat_id: str, ref: str) -> str:
        """The message that stands for ``ref`` now (a deleted group message is posted again)."""
        return self._moved.get((chat_id, ref), ref)

    def queue_edit(self, chat_id: str, ref: str, screen: Screen) -> None:
        """Edit a message to ``screen`` in the background (coalesced per message)."""
        key = (chat_id, self.current_ref(chat_id, ref))
        self._latest[key] = screen
        self._unwritten.discard(key)
        writer = self._writers.get(key)
        if writer is None or writer.done():
            self._writers[key] = failure_logged(
                asyncio.create_task(self._write(key), name=f"tg-edit-{chat_id}"), "a Telegram edit"
            )
        else:
            self._newer.wake(key)  # (a writer waiting to try again writes this one now)

    async def _write(
        self, key: tuple[str, str], *, tries: int = 0, failing_since: float | None = None
    ) -> None:
        """Write the newest screen of one message until none is left (``tries`` and
        ``failing_since``, :func:`time.monotonic` of the first failure in a row: how it failed
        so far)."""
        chat_id = _where(key[0])[0]  # an edit names the chat, not the topic
        while key in self._latest:
            pause = self._paused(chat_id)
            if pause > 0 and not self.stopping:
                # (a 429 of the chat: its newest screen once the pause is over)
                await self._sit_out(chat_id, pause)
            if self.stopping and self._paused(chat_id) > 0:
                # refused again: not tried any more (also when the stop ended the wait above:
                # a writer sitting out there sent its edit into the pause as the bot stopped)
                self._latest.pop(key, None)
                self._unwritten.add(key)
                log.info("edit of message %s/%s not written: %s is paused", *key, chat_id)
                break
            screen = self._latest.pop(key, None)
            if screen is None:  # (dropped while it waited: :meth:`_superseded`)
                break
            ref = self.current_ref(*key)
            sent = time.monotonic()
            if ref.startswith(PENDING_PREFIX):  # a new message Telegram has not taken yet
                if ref != key[1]:  # (deleted, being posted again: the post's writer's screen)
                    self.queue_edit(key[0], ref, screen)
                    continue
                posted = await self._post_pending(key, screen, tries, failing_since)
                if posted is None:
                    break  # (posted: its next screens are edits, by their own writer)
                tries, failing_since = posted
                continue
            try:
                await self.app.bot.edit_message_text(
                    fit(screen.text, MAX_TEXT),
                    chat_id=chat_id,
                    message_id=int(ref),
                    api_kwargs=_keyboard_kwargs(screen),
                    **self._no_limiter_retries(),
                )
                tries, failing_since = 0, None
            except ChatMigrated as exc:
                # the service moves the table to the new chat and posts its message there;
                # a message without buttons is a record (a showdown written over the table
                # message, a closed table's notice) the new chat is owed as well
                self._latest.pop(key, None)
                new = str(exc.new_chat_id)
                if not screen.buttons:
                    try:
                        await self._send(new, screen, record=True)
                    except TelegramError:
                        log.exception("cannot post message %s/%s in %s", chat_id, ref, new)
                await self.follow_soon(chat_id, new)
            except BadRequest as exc:
                reason = str(exc).lower()
                if self._gone(chat_id, exc, sent):
                    self._latest.pop(key, None)
                elif "not found" in reason or "can't be edited" in reason:
                    # deleted, or one Telegram will not edit any more ("message can't be
                    # edited": the player saw its screen frozen, a hand without its street's
                    # buttons while their clock ran, R8.5): posted again in its topic
                    await self._deleted(key[0], ref, screen)
                elif "not modified" not in reason:
                    log.warning("edit of message %s/%s failed: %s", chat_id, ref, exc)
            except Forbidden as exc:
                self._latest.pop(key, None)
                await self._refused(chat_id, exc, sent)
            except (NetworkError, RetryAfter) as exc:
                # a 5xx, a timeout (BadRequest is caught above) or a 429 past the rate
                # limiter's retries: written again, the newest screen of the message (a message
                # left showing an older screen keeps buttons that are out of date, or none,
                # and the group reads a wrong turn until the next change)
                if failing_since is None:
                    failing_since = sent
                wait = self._retry_wait(tries, exc, failing_since)
                if wait is None:
                    if self.stopping and key not in self._latest:
                        self._unwritten.add(key)  # (the next start writes it: edit_written)
                    log.warning("edit of message %s/%s lost: %s", chat_id, ref, exc)
                    tries, failing_since = 0, None
                    continue
                newer = key in self._latest  # (queued while the request was under way)
                self._latest.setdefault(key, screen)
                log.info("edit of message %s/%s failed (%s): again soon", chat_id, ref, exc)
                if isinstance(exc, RetryAfter):
                    # Telegram said when: not before, whatever came meanwhile (then the
                    # newest screen, once; the rate limiter sent the refused one again)
                    await self._sit_out(chat_id, wait)
                elif not newer:  # (a newer screen is written at once, as during the wait)
                    await self._wait_for_newer(key, wait)
                tries += 1
            except TelegramError:
                log.exception("cannot edit message %s/%s", chat_id, ref)
        self._writers.pop(key, None)
        self._newer.forget(key)

    def _no_limiter_retries(self) -> dict[str, Any]:
        """The keyword that keeps the rate limiter from sending an edit or a new message
        refused with a 429 again itself (it would send the screen of then, after the pause;
        :meth:`_write` waits the pause out and writes the newest), when the bot has one."""
        if not isinstance(getattr(self.app.bot, "rate_limiter", None), AnswerFirstRateLimiter):
            return {}  # (another limiter's retries stay: it may not take NO_RETRIES)
        return {"rate_limit_args": NO_RETRIES}

    def _paused(self, chat_id: str) -> float:
        """Seconds left of a 429 pause of ``chat_id`` the rate limiter keeps (0: none)."""
        paused = getattr(getattr(self.app.bot, "rate_limiter", None), "paused", None)
        return float(paused(chat_id)) if callable(paused) else 0.0

    async def _sit_out(self, chat_id: str, seconds: float) -> None:
        """Wait out a 429 of ``chat_id`` (``seconds``: its ``retry_after`` at least): through
        the rate limiter's pause where it keeps one (as its own requests wait), else as a
        plain wait; the adapter's stop ends it, a newer screen does not."""
        if self.stopping:
            return
        if self._stopped.is_set():  # (started again after a stop)
            self._stopped = asyncio.Event()
        limiter = getattr(self.app.bot, "rate_limiter", None)
        wait_paused = getattr(limiter, "wait_paused", None)
        if callable(wait_paused) and self._paused(chat_id) > 0:
            await unless_set(wait_paused(chat_id), self._stopped)
        else:
            await unless_set(asyncio.sleep(seconds), self._stopped)

    def _pending(self, chat_id: str, screen: Screen, exc: TelegramError, sent: float) -> str:
        """A new message to ``chat_id`` failed at ``sent`` with ``exc``, Telegram down
        (:func:`_unsent`): it gets a pending ref (:data:`~bot.model.PENDING_PREFIX`) and is
        posted in the background as an edit would be written again (:meth:`_post_pending`),
        the newest screen written to that ref by then; one that may have been posted (its
        answer lost) is not sent again, so as not to show it twice: the next screen written
        to it is posted instead."""
        ref = pending_ref(PENDING_PREFIX)  # (never one a snapshot of an earlier process holds)
        key = (chat_id, ref)
        if _unsent(exc):
            self._latest[key] = screen
            log.info("message to %s not posted (%s): again soon", chat_id, exc)
            writer = failure_logged(
                asyncio.create_task(self._write_pending(key, exc, sent), name=f"tg-post-{chat_id}"),
                "a Telegram post",
            )
            self._writers[key] = writer
            if isinstance(exc, RetryAfter):  # (the chat's next new messages come after it)
                where = _where(chat_id)[0]
                self._held.setdefault(where, set()).add(writer)
                writer.add_done_callback(lambda done: self._let_go(where, done))
        else:
            self._perhaps_posted(key, screen, exc)
        return ref

    def _let_go(self, where: str, writer: asyncio.Task[None]) -> None:
        """``writer``, held in chat ``where`` (:meth:`_pending`), is done: out of the chat's
        held writers, and the chat out of :attr:`_held` with its last (an empty set was kept
        for every chat that ever had a 429'd post, for the life of the process)."""
        held = self._held.get(where)
        if held is None:
            return
        held.discard(writer)
        if not held:
            del self._held[where]

    async def _after_held(self, chat_id: str) -> None:
        """Until the new messages to ``chat_id`` refused with a 429 so far are posted (or
        given up: the stop ends their wait), so a new message keeps its place after them (a
        notice, a reply "your cards are above" went out before the hand they followed)."""
        mine = asyncio.current_task()
        held = [w for w in self._held.get(_where(chat_id)[0], ()) if w is not mine]
        if held:
            await asyncio.wait(held)

    def _perhaps_posted(self, key: tuple[str, str], screen: Screen, exc: TelegramError) -> None:
        """The pending message ``key`` was sent as ``screen`` and its answer lost (``exc``):
        perhaps Telegram posted it, so it is not sent again (the next screen written to it
        is); a press on it tells its id (:meth:`claim`)."""
        log.info("message %s to %s perhaps posted (%s): not sent again", key[1], key[0], exc)
        self._unsure.setdefault(_where(key[0])[0], []).append((key, screen))
        turn = (key[0], screen.table) if screen.table is not None else None
        if turn is not None and _private(key[0]) and screen.buttons and turn not in self._pingers:
            task = failure_logged(
                asyncio.create_task(
                    self._post_unsure(turn, key, screen), name=f"tg-unsure-{key[0]}"
                ),
                "a Telegram hand posted again",
            )
            self._pingers[turn] = task
            self._reposts.add(task)
            task.add_done_callback(self._reposts.discard)

    def _superseded(self, user_id: str, table: int | None) -> None:
        """The service sends the player's hand at ``table`` anew (a new message: ``/start``):
        a message of that hand perhaps posted before (:meth:`_perhaps_posted`) is not the
        hand's any more. No press claims it, and it is not posted at the turn ping's time
        (:meth:`_post_unsure`): the hand showed twice, the service holding the other, the
        second's buttons out of date. Nor is one a 429 holds (:meth:`_pending`), not
        posted yet: its writer posted it once the pause was over, the new one after it (two
        hand messages, the service holding the second)."""
        if table is None:
            return
        for key, screen in list(self._unsure.get(user_id, [])):
            if screen.table == table:
                self._sure(key)
        for key in list(self._writers):
            held = self._latest.get(key)
            if (
                key[0] == user_id
                and key[1].startswith(PENDING_PREFIX)
                and held is not None
                and held.table == table
                and self.current_ref(*key) == key[1]
            ):
                del self._latest[key]  # (its writer ends with nothing to post)
        turn = (user_id, table)
        task = self._pingers.get(turn)
        if task is not None and task in self._reposts:
            del self._pingers[turn]
            task.cancel()

    async def _post_unsure(
        self, turn: tuple[str, int], key: tuple[str, str], screen: Screen
    ) -> None:
        """A player's hand ``key``, their turn's, perhaps posted (:meth:`_perhaps_posted`): a
        connection reset before Telegram took it cannot be told from an answer lost after,
        and then they had no hand to play on, nor a turn ping (nothing but their clock running
        out wrote to it again). Unless a press has claimed it (:meth:`claim`) or a newer screen
        has been written to it by the turn ping's time, it is posted (its screen as it is
        now), the new message notifying instead of the ping; one posted after all shows
        twice, the older out of date."""
        try:
            await asyncio.sleep(self.turn_ping_seconds)
            unsure = any(k == key for k, _ in self._unsure.get(_where(key[0])[0], []))
            writer = self._writers.get(key)
            if not unsure or key in self._moved or (writer is not None and not writer.done()):
                return
            now = screen
            if self.hand_now is not None:
                try:
                    now = await self.hand_now(*turn) or screen
                except Exception:
                    log.exception("the hand of %s to post again", key[0])
            if not now.buttons:  # (their turn ended meanwhile)
                return
            log.info("message %s to %s not claimed: posted", key[1], key[0])
            self._latest.setdefault(key, now)
            self._writers[key] = failure_logged(
                asyncio.create_task(self._write(key), name=f"tg-post-{key[0]}"), "a Telegram post"
            )
        finally:
            if self._pingers.get(turn) is asyncio.current_task():
                del self._pingers[turn]

    def _sure(self, key: tuple[str, str]) -> None:
        """The pending message ``key`` is posted (or given up): no press claims it."""
        chat = _where(key[0])[0]
        left = [u for u in self._unsure.get(chat, []) if u[0] != key]
        if left:
            self._unsure[chat] = left
        else:
            self._unsure.pop(chat, None)

    async def claim(self, message: Message) -> str:
        """The ref of the pressed ``message``, for the service: its id; a message the bot
        sent whose answer was lost (:meth:`_perhaps_posted`: Telegram posted it after all)
        is recognised by its screen, text and buttons alike, and taken as that pending
        message (edited from now on, the service told its id) before the press is handled,
        so it is the table's (or the player's hand) message and not one out of date."""
        ref = str(message.message_id)
        chat = str(message.chat_id)
        unsure = self._unsure.get(chat)
        if not unsure:
            return ref
        data = _button_data(message)
        text = (message.text or "").strip()
        for key, screen in unsure:
            shown = fit(screen.text, MAX_TEXT).strip()
            if shown != text or [b.data for b in screen.all_buttons() if b.data] != data:
                continue
            writer = self._writers.get(key)
            if writer is not None and not writer.done():
                return ref  # a newer screen is being posted: that one is the message
            self._sure(key)
            log.info("message %s in %s was posted as %s", key[1], chat, ref)
            self._moved[key] = ref
            newer = self._latest.pop(key, None)
            if newer is not None:
                self.queue_edit(key[0], ref, newer)
            if self.on_posted is not None:
                try:
                    await self.on_posted(key[0], key[1], ref)
                except Exception:
                    log.exception("could not tell the service that %s is %s", key[1], ref)
            break
        return ref

    async def _write_pending(self, key: tuple[str, str], exc: TelegramError, sent: float) -> None:
        """The writer of a pending message whose first send failed with ``exc`` at ``sent``:
        waits as after an edit's failure, then posts (:meth:`_write`)."""
        wait = self._retry_wait(0, exc, sent)
        if wait is None:
            self._latest.pop(key, None)
            if self.stopping:
                self._unwritten.add(key)
            log.warning("message to %s lost: %s", key[0], exc)
        elif isinstance(exc, RetryAfter):
            # not before the pause is over, whatever came meanwhile: then the newest screen
            # is posted, once
            await self._sit_out(_where(key[0])[0], wait)
        else:
            await self._wait_for_newer(key, wait)
        await self._write(key, tries=1, failing_since=sent)

    async def _post_pending(
        self, key: tuple[str, str], screen: Screen, tries: int, failing_since: float | None
    ) -> tuple[int, float | None] | None:
        """Post the pending message ``key`` (``(chat, pending ref)``) as ``screen``. Returns
        ``None`` once it is posted (the service is told its ref; a screen queued meanwhile is
        an edit of it now) or refused for good, else the writer's ``(tries, failing since)``:
        it failed (:func:`_unsent`) and is tried again as an edit would be."""
        chat_id, ref = key
        sent = time.monotonic()
        try:
            new = await self._send(chat_id, screen, held=False)
        except ChatMigrated as exc:
            self._latest.pop(key, None)
            self.follow_soon(_where(chat_id)[0], str(exc.new_chat_id))
            return None
        except Forbidden as exc:
            self._latest.pop(key, None)
            await self._refused(chat_id, exc, sent)
            return None
        except TelegramError as exc:
            unsent = _unsent(exc)
            if unsent is None:
                self._latest.pop(key, None)
                if not self._gone(chat_id, exc, sent):
                    log.warning("cannot post message %s in %s: %s", ref, chat_id, exc)
                return None
            if failing_since is None:
                failing_since = sent
            wait = self._retry_wait(tries, exc, failing_since)
            if not unsent:
                self._perhaps_posted(key, screen, exc)
            elif wait is None:
                if self.stopping and key not in self._latest:
                    self._unwritten.add(key)
                log.warning("message %s to %s lost: %s", ref, chat_id, exc)
                return 0, None
            else:
                self._latest.setdefault(key, screen)
                log.info("message %s to %s not posted (%s): again soon", ref, chat_id, exc)
                if isinstance(exc, RetryAfter):  # (its newest screen once the pause is over)
                    await self._sit_out(_where(chat_id)[0], wait)
                else:
                    await self._wait_for_newer(key, wait)
                return tries + 1, failing_since
            return 0, None
        log.info("message %s to %s posted as %s", ref, chat_id, new)
        self._sure(key)
        self._moved[key] = new
        newer = self._latest.pop(key, None)
        if newer is not None:  # queued while it was posted: an edit of it
            self.queue_edit(chat_id, new, newer)
        if _private(chat_id):
            self.follow_turn(chat_id, newer or screen, sent=True)
        if self.on_posted is not None:
            try:
                await self.on_posted(chat_id, ref, new)
            except Exception:
                log.exception("could not tell the service that %s is %s", ref, new)
        return None

    def _retry_wait(
        self, tries: int, exc: TelegramError, failing_since: float, waits: tuple[float, ...] = ()
    ) -> float | None:
        """Seconds before the write that failed with ``exc`` after ``tries`` tries, failing
        since ``failing_since``, is tried again (``waits``, by default :attr:`edit_retries`,
        its last entry repeated; a 429's ``retry_after`` at least); ``None``: not again (none
        set, the adapter stopping, or past :attr:`edit_give_up`: :func:`bot.retries.next_wait`)."""
        at_least = 0.0
        if isinstance(exc, RetryAfter):
            # (the field the rate limiter reads too: the public one warns about its type)
            at_least = exc._retry_after.total_seconds()
        return next_wait(
            waits or self.edit_retries,
            tries,
            failing_since,
            self.edit_give_up,
            stopping=self.stopping,
            at_least=at_least,
        )

    async def _wait_for_newer(self, key: tuple[str, str], seconds: float) -> None:
        """Wait ``seconds``, or less if a newer screen of the message comes meanwhile
        (:meth:`queue_edit`) or the adapter stops: a press's own screen is not held by the
        wait for a retry."""
        await self._newer.sleep(key, seconds)

    def stop_retries(self) -> None:
        """The bot stops (the service's stop, before it waits for the tables' messages, then
        the adapter's): an edit that fails is not tried again, and writers waiting to try
        one again do so now (:meth:`flush` then waits for one try each); a notice waiting to
        be sent again, or held by a 429's pause (the rate limiter's waits end too), is not
        sent: :meth:`post` returns ``False`` and its table keeps it for the next start."""
        self.stopping = True
        self._newer.wake_all()
        self._notice_waits.wake_all()
        self._stopped.set()
        limiter = getattr(self.app.bot, "rate_limiter", None)
        if isinstance(limiter, AnswerFirstRateLimiter):
            limiter.stop_waiting()  # (so would a flood wait)

    async def _deleted(self, chat_id: str, ref: str, screen: Screen) -> None:
        """Someone deleted the message ``ref`` (or Telegram refuses to edit it: "message can't
        be edited", treated alike; the old one stays, its buttons out of date): a group's
        table message is posted again now
        (and edited from then on); a private hand message is sent anew by the service (which
        must learn its new ref: a press on any other private message is out of date), or else
        with the player's next screen (:meth:`show_private`)."""
        if _private(chat_id):
            log.info("private message %s/%s was deleted: sent anew", chat_id, ref)
            self._lost.add((chat_id, ref))
            self._latest.pop((chat_id, ref), None)
            if self.on_private_deleted is not None:
                try:
                    await self.on_private_deleted(chat_id, ref)
                except Exception:
                    log.exception("could not send the hand of %s again", chat_id)
            return
        sent = time.monotonic()
        try:
            new = await self._send(chat_id, screen)
        except TelegramError as exc:
            if _unsent(exc) is None:  # refused for good
                if not self._gone(chat_id, exc, sent):
                    log.exception("cannot post the deleted message %s/%s again", chat_id, ref)
                return
            # Telegram down or busy (a 5xx, a 429 past the rate limiter, a timeout): posted
            # in the background as a new message would be, with the newest screen (it may be
            # the showdown, written over the table message and never again)
            new = self._pending(chat_id, screen, exc, sent)
        log.info("message %s/%s was deleted: posted again as %s", chat_id, ref, new)
        replaced = [ref]
        for old, moved in list(self._moved.items()):
            if moved == ref and old[0] == chat_id:
                self._moved[old] = new
                replaced.append(old[1])
        self._moved[(chat_id, ref)] = new
        # the table that holds it (or an older ref of it) holds the new one from now on, so
        # its next commit does: the map here is gone after a restart, and a closed table's
        # last messages, sent then, were written over the deleted message (posted a second
        # time, the replacement left showing its buttons)
        for old_ref in replaced:
            await self._tell_service(self.on_posted, chat_id, old_ref, new)

    async def _refused(self, chat_id: str, exc: Forbidden, sent: float) -> None:
        """A write refused with 403 (sent at ``sent``): in a private chat the user blocked the
        bot (the service marks them unreachable, as at deal time); in a group the bot is no
        member any more (:meth:`_gone`)."""
        if not _private(chat_id):
            self._gone(chat_id, exc, sent)
            return
        log.info("user %s cannot be written to: %s", chat_id, exc)
        if self.on_unreachable is not None:
            try:
                await self.on_unreachable(chat_id)
            except Exception:
                log.exception("could not mark user %s unreachable", chat_id)

    def _gone(self, chat_id: str, exc: TelegramError, sent: float) -> bool:
        """Whether ``exc``, refusing a write to the group ``chat_id`` (``"<chat>"`` or
        ``"<chat>#<topic>"``), says the bot may not write there any more (:func:`_chat_gone`:
        removed, the group deleted, or no right to send messages), as a ``my_chat_member``
        update would have said had the bot got it (it was away longer than Telegram keeps
        updates, or the update was lost). The service is then told in the background, once
        (its close of the table waits for the table's sender, which may be the writer
        refused here), and ``True`` is returned: logged as news, not as a failure. ``sent``:
        when (``time.monotonic()``) the refused write was sent, told with it (a write sent
        before the bot was added back, refused late, says nothing of now)."""
        chat = _where(chat_id)[0]
        if _private(chat) or not _chat_gone(exc):
            return False
        task = self._leaving.get(chat)
        if task is None:  # (news once; the next refusals are told again, quietly)
            log.warning("cannot write in %s (%s): its table closes", chat, exc)
        else:
            log.info("cannot write in %s: %s", chat, exc)
        if self.on_chat_gone is not None and (task is None or task.done()):
            self._leaving[chat] = failure_logged(
                asyncio.create_task(self._tell_gone(chat, sent), name=f"tg-chat-gone-{chat}"),
                "telling the service a Telegram chat is gone",
            )
        return True

    async def _tell_gone(self, chat: str, sent: float) -> None:
        try:
            if self.on_chat_gone is not None:
                await self.on_chat_gone(chat, sent)
        except Exception:
            log.exception("could not close the table of %s", chat)

    async def follow(self, old: str, new: str) -> None:
        """A group got a new id (a supergroup now): later notices to ``old`` go to ``new``,
        and the service moves the table, wallets and history there (safe to repeat). A move
        that failed (storage down, say) is made by the next :meth:`follow_soon` (the other
        service message of the upgrade, a write refused with the new id)."""
        self._migrated[old] = new
        log.info("chat %s is now %s", old, new)
        if self.on_migrated is None:
            return
        try:
            await self.on_migrated(old, new)
        except Exception:
            log.exception("could not follow chat %s to %s", old, new)
            self._following.pop((old, new), None)

    async def moved_to(self, chat_id: str) -> str:
        """The id an update of the group ``chat_id`` is handled under: its new id once the
        group is known to have moved (a supergroup now), else its own. A move still being
        followed is waited for: a command read under either id before the wallets, settings
        and table are moved would open a community of its own there (a /balance typed in the
        group as it was upgraded showed a fresh wallet, and its refused answer moved that
        empty community over the group's)."""
        new = self._migrated.get(chat_id)
        if new is None:
            return chat_id
        task = self._following.get((chat_id, new))
        if task is not None and not task.done():
            await asyncio.shield(task)  # (logs its own failure: never raises)
        return new

    def followed(self, old: str, new: str) -> bool:
        """Whether the move of ``old`` to ``new`` was made, or is being made (:meth:`follow`
        forgets one that failed)."""
        return (old, new) in self._following

    def follow_soon(self, old: str, new: str) -> asyncio.Task[None]:
        """:meth:`follow` in the background, once per migration: a write refused in the
        table's sender must not wait for the service, which waits for that sender."""
        self._migrated[old] = new
        task = self._following.get((old, new))
        if task is None:
            task = failure_logged(
                asyncio.create_task(self.follow(old, new), name=f"tg-migrate-{old}"),
                "following a Telegram group's move",
            )
            self._following[(old, new)] = task
        return task

    # -- turn pings ------------------------------------------------------------------------
    def follow_turn(self, user_id: str, screen: Screen, *, sent: bool = False) -> None:
        """A player's hand screen was written (``sent``: as a new message, which notifies by
        itself). When it gets buttons again (their turn begins) a short "your move" message
        (the hand's first two lines, rendered when it is sent: the time left then) follows in
        their private chat once the turn has gone :attr:`turn_ping_seconds` without a press
        (:meth:`pressed`), unless the turn has ended by then; it is deleted when the turn
        ends. Per table: a player at two tables has a ping for each."""
        if screen.table is None or not _private(user_id):
            return
        key = (user_id, screen.table)
        acting = bool(screen.buttons)
        was = self._acting.get(key)
        self._acting[key] = acting
        if acting and not was and screen.bank_nudge is not None and key not in self._nudgers:
            self._nudgers[key] = failure_logged(
                asyncio.create_task(
                    self._nudge(key, *screen.bank_nudge), name=f"tg-bank-{user_id}"
                ),
                "a Telegram bank nudge",
            )
        if acting and was is False and not sent:
            if key not in self._pingers:
                text = ping_lines(screen.text)
                self._pingers[key] = failure_logged(
                    asyncio.create_task(self._ping(key, text), name=f"tg-ping-{user_id}"),
                    "a Telegram turn ping",
                )
        elif not acting and was:
            nudger = self._nudgers.pop(key, None)
            if nudger is not None:
                nudger.cancel()
            self._pressed.pop(key, None)
            pinger = self._pingers.pop(key, None)
            if pinger is not None and not pinger.done():
                pinger.cancel()  # not sent yet: nothing to delete
            ping = self._pings.pop(key, None)
            if ping is not None:
                self._pingers[key] = failure_logged(
                    asyncio.create_task(self._unping(key, ping), name=f"tg-unping-{user_id}"),
                    "deleting a Telegram turn ping",
                )

    def pressed(self, user_id: str, table: int) -> None:
        """The player pressed a button of ``table`` in their private chat (answered or
        refused): their turn's ping waits :attr:`turn_ping_seconds` from now."""
        if _private(user_id):
            self._pressed[(user_id, table)] = asyncio.get_running_loop().time()

    async def _ping(self, key: tuple[str, int], text: str) -> None:
        try:
            loop = asyncio.get_running_loop()
            began = loop.time()
            while True:  # until the turn has gone turn_ping_seconds without a press
                quiet = max(began, self._pressed.get(key, began))
                wait = quiet + self.turn_ping_seconds - loop.time()
                if wait <= 0:
                    break
                await asyncio.sleep(wait)
            now = await self._ping_text(key, text)
            if now is None:
                return
            sent = time.monotonic()
            try:
                msg = await self.app.bot.send_message(key[0], now)
            except Forbidden as exc:  # blocked on their turn: the first write refused them
                await self._refused(key[0], exc, sent)
                return
            except TelegramError as exc:
                log.info("cannot ping %s: %s", key[0], exc)
                return
            if self._acting.get(key):
                before = self._pings.get(key)  # (a time bank nudge sent first: one at a time)
                self._pings[key] = msg.message_id
                if before is not None:
                    with contextlib.suppress(TelegramError):
                        await self.app.bot.delete_message(key[0], before)
            else:  # the turn ended while it was sent
                await self._unping(key, msg.message_id)
        finally:
            if self._pingers.get(key) is asyncio.current_task():
                del self._pingers[key]

    async def _nudge(self, key: tuple[str, int], seconds: float, text: str) -> None:
        """The time bank nudge (R8.5): ``seconds`` into the turn, when the bank starts, a
        short message ``text`` in the player's private chat, as the turn ping is sent (it
        replaces a ping sent before it, and is deleted as it is when the turn ends); nothing
        if the turn has ended by then. A private write: the group's message is not edited."""
        try:
            await asyncio.sleep(seconds)
            if not self._acting.get(key):
                return
            old = self._pings.pop(key, None)
            sent = time.monotonic()
            try:
                msg = await self.app.bot.send_message(key[0], text)
            except Forbidden as exc:
                await self._refused(key[0], exc, sent)
                return
            except TelegramError as exc:
                log.info("cannot nudge %s: %s", key[0], exc)
                return
            finally:
                if old is not None:
                    with contextlib.suppress(TelegramError):
                        await self.app.bot.delete_message(key[0], old)
            if self._acting.get(key):
                self._pings[key] = msg.message_id
            else:  # the turn ended while it was sent
                with contextlib.suppress(TelegramError):
                    await self.app.bot.delete_message(key[0], msg.message_id)
        finally:
            if self._nudgers.get(key) is asyncio.current_task():
                del self._nudgers[key]

    async def _ping_text(self, key: tuple[str, int], began: str) -> str | None:
        """The ping's text: the first two lines of the hand as it is now (the clock shows
        the time left), ``None`` if it is no longer the player's turn; ``began``, the lines
        as the turn began, when the hand cannot be had here (the table moved to another
        worker, a failure, logged)."""
        if self.hand_now is None:
            return began
        try:
            screen = await self.hand_now(*key)
        except Exception:
            log.exception("the hand of %s for their turn ping", key[0])
            return began
        if screen is None:
            return began
        if not screen.buttons:  # the turn ended meanwhile
            return None
        return ping_lines(screen.text)

    async def stop_pings(self) -> None:
        """Cancel every ping (and time bank nudge) still to be sent or deleted (shutdown)."""
        tasks = list(self._pingers.values()) + list(self._nudgers.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _unping(self, key: tuple[str, int], message_id: int) -> None:
        try:
            await self.app.bot.delete_message(key[0], message_id)
        except TelegramError as exc:
            log.info("cannot delete the ping of %s: %s", key[0], exc)
        finally:
            if self._pingers.get(key) is asyncio.current_task():
                del self._pingers[key]

    def writer_for(self, chat_id: str, ref: str) -> asyncio.Task[None] | None:
        """The background writer of one message, while it has edits to write."""
        return self._writers.get((chat_id, ref))

    async def edit_written(self, chat_id: str, ref: str) -> bool:
        """Wait until the edits queued for message ``ref`` of ``chat_id`` are written (or
        given up); ``False`` when the newest was not, because the bot stops while Telegram
        holds it (a 429's pause, an outage: :meth:`stop_retries`)."""
        while True:
            key = (chat_id, self.current_ref(chat_id, ref))  # (posted meanwhile: its ref)
            writer = self._writers.get(key)
            if writer is None or writer.done():
                return key not in self._unwritten
            await asyncio.wait((writer,))

    async def flush(self) -> None:
        """Wait until every queued edit is written (and every migration followed)."""

        def busy() -> list[asyncio.Task[None]]:
            following = [*self._following.values(), *self._leaving.values()]
            return [*self._writers.values(), *(t for t in following if not t.done())]

        while tasks := busy():
            await asyncio.gather(*tasks, return_exceptions=True)

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        """Send the group's table message (awaited: the ref is needed), or queue an edit of it."""
        if ref is None:
            sent = time.monotonic()
            try:
                return await self._send(chat_id, screen)
            except ChatMigrated as exc:
                # the service moves the table to the new chat and posts its message there
                self.follow_soon(_where(chat_id)[0], str(exc.new_chat_id))
                return None
            except TelegramError as exc:
                if _unsent(exc) is not None:  # Telegram down: posted when it answers again
                    return self._pending(chat_id, screen, exc, sent)
                if not self._gone(chat_id, exc, sent):
                    log.exception("cannot write the table message in %s", chat_id)
                return None
        ref = self.current_ref(chat_id, ref)
        self.queue_edit(chat_id, ref, screen)
        return ref

    async def retire_table(self, chat_id: str, ref: str, text: str) -> None:
        """Write an old table message of the group (one from before a restart,
        :meth:`Runtime.retire_earlier`) as ``text``, its buttons gone, once: one deleted or
        refused is left so (never posted again, as a table message would be)."""
        ref = self.current_ref(chat_id, ref)
        if ref.startswith(PENDING_PREFIX) or not ref.isdigit():
            return
        try:
            await self.app.bot.edit_message_text(
                fit(text, MAX_TEXT), chat_id=_where(chat_id)[0], message_id=int(ref)
            )
        except TelegramError as exc:
            log.info("old table message %s/%s not written as moved: %s", chat_id, ref, exc)

    async def retire_private(self, user_id: str, ref: str, text: str) -> None:
        """Write a player's old hand message (one from before a restart, its hand posted
        anew: :meth:`Runtime.send_private`) as ``text``, its buttons gone, once: one deleted
        or refused is left so (never posted again, as a hand message would be)."""
        ref = self.current_ref(user_id, ref)
        if ref.startswith(PENDING_PREFIX) or not ref.isdigit():
            return
        try:
            await self.app.bot.edit_message_text(
                fit(text, MAX_TEXT), chat_id=user_id, message_id=int(ref)
            )
        except TelegramError as exc:
            log.info("old hand message %s/%s not written as moved: %s", user_id, ref, exc)

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        """Send a player's private message (awaited; ``None`` when the bot may not write to
        them: 403, they never started it or blocked it), or queue an edit of it; a message
        the player deleted is sent anew. (``answered`` is for platforms that show a hand in
        more than one message: a Telegram player has one.)"""
        if ref is not None and (user_id, ref) in self._lost:
            self._lost.discard((user_id, ref))
            ref = None
        if ref is not None:
            self.queue_edit(user_id, ref, screen)
            ref = self.current_ref(user_id, ref)
            if not ref.startswith(PENDING_PREFIX):  # (a pending one follows it when posted)
                self.follow_turn(user_id, screen)
            return ref
        began = time.monotonic()
        self._superseded(user_id, screen.table)
        try:
            sent = await self._send(user_id, screen)
            self._refused_else.discard(user_id)
            self.follow_turn(user_id, screen, sent=True)
            return sent
        except Forbidden:
            self._refused_else.discard(user_id)
            return None
        except TelegramError as exc:
            if _unsent(exc) is not None:  # Telegram down, not the player: posted later
                return self._pending(user_id, screen, exc, began)
            log.exception("cannot write the private message of %s", user_id)
            self._refused_else.add(user_id)  # (no block: tried again, :meth:`quiet_for`)
            return None

    def quiet_for(self, user_id: str) -> bool:
        """Whether a refused private chat of ``user_id`` is left alone until they show life
        (:func:`bot.service.runtime.quiet_until_seen`): not when this process's last refusal
        of it was no 403 (a 400 Bad Request, say: the player blocked nothing and cannot
        undo it; it silenced them for good, their cards never tried again). This memory is
        the process's: the service keeps what it said at the refusal on the seat, saved
        (:attr:`~bot.model.SeatState.refused_for_good`), so after a restart a 403 still stands
        and a 400 is still tried again."""
        return user_id not in self._refused_else

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        """A plain notice in a chat (in a group's new chat if it moved), in its forum topic
        if it names one (``"<chat>#<topic>"``, :attr:`bot.model.LiveTable.group_chat`).
        Refused by Telegram's side (a 5xx, a 429 past the rate limiter's retries, no
        connection made: :func:`_unsent`) it is sent again after each of
        :attr:`notice_retries` (awaited: the table's later messages keep their order), then
        given up (logged); one whose answer was lost (it may have been posted) is not sent
        again, nor one refused for good (400, 403). Never raises :class:`TelegramError`.
        ``False``: not sent because the bot stops (:meth:`stop_retries`) while Telegram
        refuses it so or holds the chat in a 429's pause (not sent into it): the service
        keeps it for the next start. ``ref`` (the notice's pending ref) is not used: Telegram
        has no nonce, and a notice held so was never sent."""
        target = self._target(chat_id)
        await self._after_held(chat_id)
        began = time.monotonic()
        tries = 0
        while True:
            if self.stopping and self._paused(target) > 0:
                log.info("notice in %s held by a 429 at the stop: not sent", chat_id)
                return False
            sent = time.monotonic()
            try:
                try:
                    await self._in_topic(
                        chat_id,
                        lambda topic: self.app.bot.send_message(
                            target, fit(text, MAX_TEXT), message_thread_id=topic
                        ),
                    )
                except ChatMigrated as exc:
                    self.follow_soon(target, str(exc.new_chat_id))
                    await self.app.bot.send_message(exc.new_chat_id, fit(text, MAX_TEXT))
                return True
            except TelegramError as exc:
                if _unsent(exc):  # Telegram down: sent again, a few times
                    if not await self._waited("notice", chat_id, exc, tries, began):
                        if self.stopping:
                            log.info("notice in %s not sent before the stop: %s", chat_id, exc)
                            return False
                        log.warning("notice in %s lost: %s", chat_id, exc)
                        return True
                    tries += 1
                    continue
                if not self._gone(target, exc, sent):
                    log.exception("cannot post in %s", chat_id)
                return True

    async def _waited(
        self,
        what: str,
        chat_id: str,
        exc: TelegramError,
        tries: int,
        began: float,
        *,
        later: bool = False,
    ) -> bool:
        """After the ``tries``-th try of a new message (``what``: "notice", "picture") was
        refused by Telegram's side with ``exc``, failing since ``began``: wait before the
        next try and return ``True``, or ``False`` when it is to be given up. A notice waits
        each of :attr:`notice_retries` once; ``later`` (a picture posted in the background)
        each of :attr:`edit_retries`, the last again, until :attr:`edit_give_up`. The stop
        wakes the wait."""
        waits = self.edit_retries if later else self.notice_retries
        if not later and tries >= len(waits):
            return False
        wait = self._retry_wait(tries, exc, began, waits)
        if wait is None:
            return False
        log.info("%s in %s not posted (%s): again soon", what, chat_id, exc)
        waiting = object()
        await self._notice_waits.sleep(waiting, wait)
        self._notice_waits.forget(waiting)
        return True

    async def _send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str, began: float, *, later: bool
    ) -> bool:
        """:meth:`send_picture`'s tries (``later``: the background ones), failing since
        ``began``: a photo with its caption (``sendPhoto``, uploaded as multipart), in a
        group's new chat if it moved; a refusal (a group that forbids photos) is logged in
        one line and skipped. In a forum topic as :meth:`post`. Refused by Telegram's side (a
        5xx, a 429 past the rate limiter's retries, no connection made: :func:`_unsent`) it
        is sent again after each of :attr:`notice_retries`; ``False``: still refused, to be
        posted later (:class:`~bot.late_pictures.LatePictures`: after each of
        :attr:`edit_retries`, until :attr:`edit_give_up` from the first failure, then given
        up, logged). One whose answer was lost (it may have been posted) is not sent again.
        In the background the service is told the picture ``ref`` was posted
        (:attr:`on_posted`) or given up (:attr:`on_picture_given_up`), unless the adapter
        stops (kept for a restart). Never raises :class:`TelegramError`."""
        target = self._target(chat_id)
        caption = fit(caption, MAX_CAPTION)
        await self._after_held(chat_id)
        tries = 0
        while True:
            if later and self.stopping:  # kept: the restart posts it (once)
                log.info("picture %s in %s not posted before the stop", ref, chat_id)
                return True
            sent = time.monotonic()
            try:
                try:
                    msg = await self._in_topic(
                        chat_id,
                        lambda topic: self.app.bot.send_photo(
                            target,
                            InputFile(png, filename="showdown.png"),
                            caption=caption,
                            message_thread_id=topic,
                        ),
                    )
                except ChatMigrated as exc:
                    self.follow_soon(target, str(exc.new_chat_id))
                    photo = InputFile(png, filename="showdown.png")
                    msg = await self.app.bot.send_photo(exc.new_chat_id, photo, caption=caption)
                if later:
                    log.info("picture %s in %s posted as %s", ref, chat_id, msg.message_id)
                    await self._tell_service(self.on_posted, chat_id, ref, str(msg.message_id))
                return True
            except TelegramError as exc:
                if _unsent(exc):  # Telegram down: sent again, a few times
                    if await self._waited("picture", chat_id, exc, tries, began, later=later):
                        tries += 1
                        continue
                    if later and self.stopping:
                        log.info("picture %s in %s not posted before the stop", ref, chat_id)
                        return True
                    if not later and (self.stopping or self._retry_wait(0, exc, began) is not None):
                        # (at the stop: kept, owed by its table, :attr:`late_pictures`; the
                        # restart posts it)
                        log.info("picture in %s not posted (%s): posted later", chat_id, exc)
                        return False
                # e.g. a group that forbids photos: one line, the text showdown is the record
                if not self._gone(target, exc, sent):
                    log.warning("cannot send the picture in %s: %s", chat_id, exc)
                if later:
                    await self._tell_service(self.on_picture_given_up, chat_id, ref)
                return True

    def private_link(self, table_id: int) -> str | None:
        """``https://t.me/<bot>?start=t<table>``: opens the private chat at the table."""
        return f"https://t.me/{self.username}?start=t{table_id}" if self.username else None

    def message_link(self, community: str, chat_id: str, ref: str) -> str | None:
        """``https://t.me/c/<id>[/<topic>]/<message>``: a supergroup's message, for its
        members (a basic group's messages have no link: ``None``)."""
        chat, topic = self._target(chat_id), _where(chat_id)[1]
        if not chat.startswith("-100"):
            return None
        ref = self.current_ref(chat_id, ref)
        if ref.startswith(PENDING_PREFIX):
            return None  # (not posted yet)
        where = f"/{topic}" if topic is not None and chat_id not in self._topic_gone else ""
        return f"https://t.me/c/{chat[4:]}{where}/{ref}"

    def plain_text(self, text: str) -> str:
        """Telegram messages are plain text: names are never escaped."""
        return text

    def typed_text(self, text: str) -> str:
        """Telegram messages are plain text (no parse mode): what a user typed shows as
        typed, ``<b>`` and ``&`` included."""
        return text


def _loggable(update: object) -> str:
    """What the log may say of an update: its id, user, chat and command, or the press
    without its card (:func:`bot.presses.loggable`). Never the whole update: a press's
    message is the player's private hand, and its data may name a discard (R3.3)."""
    if not isinstance(update, Update):
        return repr(update)
    parts = [f"{update.update_id}"]
    if update.effective_user is not None:
        parts.append(f"of user {update.effective_user.id}")
    if update.effective_chat is not None:
        parts.append(f"in chat {update.effective_chat.id}")
    message = update.effective_message
    if update.callback_query is not None:
        parts.append(f"press {loggable(update.callback_query.data)}")
    elif message is not None and (message.text or "").startswith("/"):
        parts.append(f"command {fit(message.text or '', 200)!r}")
    return " ".join(parts)


#: what Telegram says, refusing a write to a group, when the bot may not write there any more:
#: removed ("bot was kicked from the supergroup chat", "bot is not a member of the group
#: chat"), the group deleted ("the group chat was deleted", "chat not found"), or muted
#: ("not enough rights to send text messages to the chat", or the older "have no rights to
#: send a message": the bot restricted, or every member's right to send messages taken away
#: while the bot is no admin, which sends no ``my_chat_member``); every 403 in a group is one.
#: Some come as a 400 with the MTProto error's own name: a basic group deleted ("group chat
#: was deactivated"), a private supergroup the bot is no member of ("CHANNEL_PRIVATE"), no
#: right to write ("CHAT_WRITE_FORBIDDEN"), a group Telegram itself restricted
#: ("CHAT_RESTRICTED"); PTB lowers them but their first letter ("Chat_write_forbidden")
_CHAT_GONE = (
    "chat not found",
    "not enough rights to send text messages",
    "have no rights to send a message",
    "group chat was deactivated",
    "channel_private",
    "chat_write_forbidden",
    "chat_restricted",
)


def _chat_gone(exc: TelegramError) -> bool:
    """Whether a group write's refusal ``exc`` says the bot may not write in the group any
    more (a 403, or a 400 of :data:`_CHAT_GONE`); a forum topic's own refusals (closed,
    deleted) and "not enough rights to send photos" are not."""
    if isinstance(exc, Forbidden):
        return True
    reason = str(exc).lower()
    return isinstance(exc, BadRequest) and any(words in reason for words in _CHAT_GONE)


def _where(chat_id: str) -> tuple[str, int | None]:
    """A presenter's chat (:attr:`bot.model.LiveTable.group_chat`: ``"<chat>"`` or
    ``"<chat>#<forum topic>"``) as the Bot API takes it: the chat id and the
    ``message_thread_id`` of its topic (``None``: the chat itself)."""
    chat, _, topic = chat_id.partition("#")
    return chat, (int(topic) if topic.isdigit() else None)


def _private(chat_id: str) -> bool:
    """Private chats have the user's (positive) id; groups have negative ids."""
    return not chat_id.startswith("-")


#: The updates the bot asks Telegram for (``getUpdates`` and ``setWebhook``): Telegram's
#: default (every kind but ``chat_member`` and message reactions) and ``chat_member``,
#: which Telegram sends only when asked for by name, and only to a bot that is an
#: administrator of the group: another member's status changed (:meth:`TelegramAdapter.
#: _member_changed`). Reactions stay out (nothing here reads them; each is an update).
ALLOWED_UPDATES: tuple[str, ...] = tuple(
    str(kind)
    for kind in Update.ALL_TYPES
    if kind not in (UpdateType.MESSAGE_REACTION, UpdateType.MESSAGE_REACTION_COUNT)
)


def _in_group(member: ChatMember) -> bool:
    """A member's status ``member``: in the group (its owner, an administrator, a member,
    or restricted but still a member, ``is_member``), as opposed to gone from it (``left``,
    ``kicked``, or restricted and no member any more)."""
    if isinstance(member, ChatMemberRestricted):
        return member.is_member
    return member.status in (
        ChatMemberStatus.OWNER,
        ChatMemberStatus.ADMINISTRATOR,
        ChatMemberStatus.MEMBER,
    )


def _removed(member: ChatMember) -> bool:
    """The bot's status ``member`` in a group: removed from it (``kicked`` or ``left``)."""
    return member.status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT)


def _muted(member: ChatMember) -> TypeGuard[ChatMemberRestricted]:
    """The bot's status ``member`` in a group: restricted so that it may not send messages
    (still a member, or removed while muted: ``is_member`` false)."""
    return isinstance(member, ChatMemberRestricted) and not (
        member.is_member and member.can_send_messages
    )


def _mute_end(member: ChatMember) -> datetime.datetime | None:
    """When the bot's mute ``member`` runs out by itself (a member muted until then), else
    ``None`` (not muted, muted for good: Telegram's 0, or removed while muted)."""
    return member.until_date if _muted(member) and member.is_member else None


def _actor(user: User) -> Actor:
    # (a full name of nothing visible, "ㅤ", goes by the username as an empty one does)
    name = clean_name(user.full_name, fallback="") or clean_name(
        user.username, fallback=str(user.id)
    )
    return Actor(PLATFORM, str(user.id), name, user.language_code)


def _button_data(message: Message) -> list[str]:
    """The ``callback_data`` of the buttons ``message`` carries, row by row (Telegram sends a
    pressed message as it is now, edits made since the screen the user pressed included)."""
    markup = message.reply_markup
    rows = markup.inline_keyboard if markup is not None else ()
    return [d for row in rows for b in row if isinstance(d := b.callback_data, str) and d]


def _carries(message: Message, data: str | None) -> bool:
    """Whether the pressed ``message`` carries a button of ``data``: a button of an older
    screen it no longer shows is a fast second tap racing an edit, or forged."""
    return data is not None and data in _button_data(message)


def _request_key(update: Update) -> str:
    """The idempotency key of a command or press: ``tg:<chat>:<update_id>``, the same for every
    delivery of one update (Telegram delivers an unconfirmed update again)."""
    chat = update.effective_chat
    return f"tg:{chat.id if chat else ''}:{update.update_id}"


def _anonymous_admin(update: Update) -> bool:
    """Sent as the group itself: what an anonymous admin writes comes from GroupAnonymousBot
    with the group as ``sender_chat`` (Telegram tells no more; only admins can do it)."""
    msg, chat = update.effective_message, update.effective_chat
    return (
        msg is not None
        and chat is not None
        and msg.sender_chat is not None
        and msg.sender_chat.id == chat.id
    )


#: the ``message_thread_id`` of a forum's General topic, which Telegram refuses in a send
#: (400 "message thread not found"): its messages are sent without one
GENERAL_TOPIC = 1


#: the user id Telegram writes a channel's posts in its linked discussion group as
#: (``is_automatic_forward``, sent on behalf of the channel): "Telegram", an account that is
#: no bot, and no member either
TELEGRAM_SERVICE = 777000


def _replied(msg: Message) -> User | None:
    """The author of the message ``msg`` replies to, ``None`` when it is no reply. In a forum
    topic Telegram sends a message that replies to nothing as a reply to the topic's first
    message, its creation (``forum_topic_created``, by whoever created the topic): that names
    nobody (``/grant 100`` there granted the topic's creator, ``/stats`` showed theirs). So
    does a channel's post in its discussion group (``is_automatic_forward``, from
    :data:`TELEGRAM_SERVICE`), which every comment under the post replies to: ``/grant 100``
    typed as a comment made a wallet for "Telegram" with the 100 in it (first on /top), and
    ``/stats`` answered "No such player here: 777000"."""
    replied = msg.reply_to_message
    if replied is None or replied.from_user is None:
        return None
    opening = msg.is_topic_message and replied.message_id == msg.message_thread_id
    if replied.forum_topic_created is not None or opening:
        return None
    if replied.is_automatic_forward or replied.from_user.id == TELEGRAM_SERVICE:
        return None
    return replied.from_user


def _mentioned(msg: Message) -> tuple[User, str, list[str]] | None:
    """The member a ``text_mention`` of the command ``msg`` names, the text it covers and
    the command's other words (before it and after it); ``None`` without one. A member
    without a @username picked from the mention list is written as their first name, the
    entity naming the member: the words looked up as a name found another player of that
    name (``/grant Anna 100`` granted an "Anna" other than the "Anna Smith" picked), or
    nobody."""
    text = (msg.text or "").encode("utf-16-le")  # (offsets count UTF-16 code units)
    for entity, shown in msg.parse_entities([MessageEntity.TEXT_MENTION]).items():
        if entity.user is not None:
            start, end = 2 * entity.offset, 2 * (entity.offset + entity.length)
            before = text[:start].decode("utf-16-le", errors="replace").split()[1:]
            after = text[end:].decode("utf-16-le", errors="replace").split()
            return entity.user, shown, before + after
    return None


def _chat(chat: Chat, message: Message | None = None) -> ChatRef:
    """Where an update came from; with its ``message``, the forum topic it was written in (a
    table opened there posts its messages there)."""
    private = chat.type == ChatType.PRIVATE
    topic = None
    thread = message.message_thread_id if message is not None else None
    # a reply in a group without topics, or in a forum's General topic, has a thread (its
    # first message's id) but is no topic message; General (thread 1) takes no thread id
    if message is not None and message.is_topic_message and thread and thread != GENERAL_TOPIC:
        topic = str(thread)
    return ChatRef(PLATFORM, str(chat.id), str(chat.id), chat.title or "", private, topic)


class TelegramAdapter:
    """Builds the python-telegram-bot :class:`Application`, registers one handler per command
    and one for button presses, and presents through :class:`TelegramPresenter`.

    :param token: the bot token.
    :param base_url: a Bot API server (``http://host:port/bot``); ``None`` for Telegram's.
    :param rate_limiter: defaults to Telegram's limits (30/s overall, 20/min per group) with
        429s retried up to 5 times (:class:`AnswerFirstRateLimiter`: a 429 pauses only its
        chat, never a callback answer).
    """

    def __init__(
        self,
        service: TableService,
        token: str,
        base_url: str | None = None,
        rate_limiter: AIORateLimiter | None = None,
    ) -> None:
        self.service = service
        self._request = AiohttpRequest(connection_pool_size=32)
        builder = (
            ApplicationBuilder()
            .token(token)
            .rate_limiter(rate_limiter or AnswerFirstRateLimiter(max_retries=5))
            .concurrent_updates(True)
            .request(self._request)
            # long polling stays on python-telegram-bot's httpx request, with a second
            # connection: at shutdown its last getUpdates (marking the updates fetched) found
            # the only one still held by the cancelled poll and logged a PoolTimeout traceback
            .get_updates_request(HTTPXRequest(connection_pool_size=2))
        )
        if base_url:
            root = base_url.rstrip("/")
            builder = builder.base_url(root if root.endswith("/bot") else root + "/bot")
            builder = builder.base_file_url(root.removesuffix("/bot") + "/file/bot")
        self.app: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self.presenter = TelegramPresenter(self.app)
        self.presenter.on_migrated = self._migrated
        self.presenter.on_unreachable = lambda uid: service.player_unreachable(PLATFORM, uid)
        # a group write refused for good (the bot removed while it was away): as my_chat_member
        self.presenter.on_chat_gone = self._write_refused
        # a deleted private hand message is sent anew (that table's only)
        self.presenter.on_private_deleted = lambda uid, ref: service.private_deleted(
            PLATFORM, uid, ref
        )
        # a turn ping shows the hand's clock when it is sent
        self.presenter.hand_now = lambda uid, table: service.private_hand(PLATFORM, uid, table)
        # a new message posted late (Telegram was down): the service takes its ref
        self.presenter.on_posted = lambda chat, pending, ref: service.message_posted(
            PLATFORM, chat, pending, ref
        )
        # a showdown picture posted later given up: not owed any more (a restart skips it)
        self.presenter.on_picture_given_up = lambda chat, pending: service.picture_given_up(
            PLATFORM, chat, pending
        )
        #: lower-case @username → user id: what the store holds (the service's
        #: remember_username), as far as this process has read or written it
        self._usernames: dict[str, str] = {}
        self._keeping: set[asyncio.Task[None]] = set()  # usernames being written
        self._admins: dict[tuple[str, str], tuple[bool, float]] = {}
        #: group → the look at the end of the bot's mute there (:meth:`_muted_until`)
        self._mute_ends: dict[str, asyncio.Task[None]] = {}
        #: group → the looks at its permissions after a refused write (:meth:`_watch_rights`)
        self._rights_looks: dict[str, asyncio.Task[None]] = {}
        self.rights_look_seconds = RIGHTS_LOOK_SECONDS
        #: called once with the line when another process takes this token's updates and
        #: this bot should stop (:mod:`bot.telegram.one_bot`); the app stops, exit status 2
        self.on_token_taken: Callable[[str], None] | None = None
        self.conflict_seconds = CONFLICT_SECONDS
        self.ghost_seconds = GHOST_SECONDS
        self.webhook_look_seconds = WEBHOOK_LOOK_SECONDS
        self.guard = TokenGuard(None, CONFLICT_SECONDS)  # (the one of the last start)
        self._webhook_look: asyncio.Task[None] | None = None
        #: told of every sign of life (or block) of a user in their private chat after this
        #: process's own tables heard of it (:meth:`_private_life`): ``(user id, blocked,
        #: told by Telegram)``, a ``my_chat_member`` update the last; with several workers,
        #: :meth:`bot.cluster.Worker.private_life` passes it on to those serving the user's
        #: other tables. ``None``: one process, nobody else to tell
        self.elsewhere: Callable[[str, bool, bool], None] | None = None
        service.register(self.presenter, self.look_at_table)  # (a table taken over too)
        simple = {
            "newtable": self._newtable,
            "tournament": self._tournament,
            "addbot": self._addbot,
            "removebot": self._removebot,
            "join": self._at_table(service.join, request=True),
            "ready": self._at_table(service.ready, request=True),
            "leave": self._at_table(service.leave, request=True),
            "topup": self._at_table(service.top_up, whole_arg=True, request=True),
            "sitout": self._at_table(service.sit_out, request=True),
            "back": self._at_table(service.back, request=True),
            "balance": self._simple(service.balance),
            "top": self._simple(service.top, whole_arg=True),  # [week|month|all]
            "stats": self._stats,
            # /replay N: in a private chat the replay is the reply; from a group the service
            # sends it to the private chat (discards are private, R3.3)
            "replay": self._simple(service.replay, whole_arg=True),
            "history": self._simple(service.history, whole_arg=True),  # [N]
            "daily": self._simple(service.daily),
            "rules": self._simple(service.rules, whole_arg=True),  # [pineapple|ofc|chinese]
            "help": self._simple(service.help),
            "hand": self._simple(service.hand_picture),
            "settings": self._settings,
            "grant": self._grant,
            "closetable": self._closetable,
            "kick": self._kick,
            "start": self._start,
        }
        # a command runs once, when it is sent: an edit of it (``edited_message``, which
        # python-telegram-bot's CommandHandler takes by default) would run it again, say a
        # /grant whose amount was corrected, on top of the first
        for name, handler in simple.items():
            if name in NO_WORDS:
                handler = self._no_words(name, handler)
            if name in PERSONAL or name in AS_SOMEONE:
                handler = self._personal(handler, anonymous=name in AS_SOMEONE)
            self.app.add_handler(CommandHandler(name, handler, filters=filters.UpdateType.MESSAGE))
        self.app.add_handler(CallbackQueryHandler(self._press))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._migrate))
        self.app.add_handler(
            MessageHandler(
                filters.StatusUpdate.FORUM_TOPIC_CLOSED | filters.StatusUpdate.FORUM_TOPIC_REOPENED,
                self._topic_closed_or_reopened,
            )
        )
        self.app.add_handler(
            MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, self._member_left)
        )
        self.app.add_handler(ChatMemberHandler(self._membership, ChatMemberHandler.MY_CHAT_MEMBER))
        self.app.add_handler(ChatMemberHandler(self._member_changed, ChatMemberHandler.CHAT_MEMBER))
        # (after the update's own handler, group 0: a /start or a press there has posted the
        # hand already, and this finds the player reachable)
        self.app.add_handler(TypeHandler(Update, self._private_life), group=1)
        self.app.add_error_handler(self._on_error)

    # -- lifecycle -------------------------------------------------------------------------
    async def start(self, *, polling: bool = True, poll_interval: float = 0.0) -> None:
        """Initialise (``getMe``), publish the command menu (in English, and in Russian for
        :data:`~bot.texts.RUSSIAN_READERS`) and start polling."""
        await self.app.initialize()
        self.presenter.username = self.app.bot.username
        self.presenter.stopping = False  # (started again after a stop)
        try:
            await self.app.bot.set_my_commands([BotCommand(n, en) for n, en, _ in COMMANDS])
            russian = [BotCommand(n, ru) for n, _, ru in COMMANDS]
            for code in RUSSIAN_READERS:
                await self.app.bot.set_my_commands(russian, language_code=code)
        except TelegramError:
            log.warning("could not publish the command list")
        await self.app.start()
        if polling:
            await self.start_polling(poll_interval)

    async def start_polling(self, poll_interval: float = 0.0) -> None:
        """Start taking updates (after :meth:`start` with ``polling=False``: the composition
        root restores the tables first, so no press meets a table half-restored). A webhook
        left set (a deployment in webhook mode) is deleted, as python-telegram-bot does before
        polling, with one line saying so; a 409 while polling goes to :attr:`guard`
        (:mod:`bot.telegram.one_bot`)."""
        if self.app.updater is None or self.app.updater.running:
            return
        try:
            left = (await self.app.bot.get_webhook_info()).url
        except TelegramError:  # (deleted all the same; python-telegram-bot says why it cannot)
            left = ""
        if left:
            log.warning(
                "a webhook was set for this bot token (%s): deleted it to poll; if a bot in "
                "webhook mode still runs there, stop it (only one bot per token)",
                host_of(left),
            )
        self.guard = TokenGuard(self.on_token_taken, self.conflict_seconds, self.ghost_seconds)
        await self.app.updater.start_polling(
            poll_interval=poll_interval,
            timeout=10,
            allowed_updates=ALLOWED_UPDATES,
            error_callback=self.guard.polling_error,
        )

    async def start_webhook(
        self, url: str, secret: str, listen: str = "0.0.0.0", port: int = 8443
    ) -> None:
        """Take updates by webhook instead of polling (issue 14), after :meth:`start` with
        ``polling=False``: python-telegram-bot's own webhook server listens on
        ``listen:port`` at the path of ``url``, registers ``url`` with Telegram
        (``setWebhook`` with ``secret_token``) and refuses (403) every request whose
        ``X-Telegram-Bot-Api-Secret-Token`` is not ``secret``, and one whose Content-Type is
        not exactly ``application/json`` (403 too: the router's own endpoint answers 415),
        logged at DEBUG only; the answers are the library's (docs/operations.md)."""
        if self.app.updater is None or self.app.updater.running:
            return
        path = urlsplit(url).path.lstrip("/")
        await self.app.updater.start_webhook(
            listen=listen,
            port=port,
            url_path=path,
            webhook_url=url,
            secret_token=secret,
            allowed_updates=ALLOWED_UPDATES,
        )
        self.guard = TokenGuard(self.on_token_taken, self.conflict_seconds)
        self._webhook_look = asyncio.create_task(self._look_at_webhook(url))

    async def _look_at_webhook(self, url: str) -> None:
        """The webhook's look (:func:`bot.telegram.one_bot.look_at_webhook`) every
        :attr:`webhook_look_seconds`."""
        await look_at_webhook(self.app.bot, url, self.guard, self.webhook_look_seconds)

    async def stop(self) -> None:
        """Stop polling (or the webhook server), write queued edits and shut the application
        down (also after a failed start: every HTTP session is closed)."""
        self.presenter.stop_retries()  # (an outage, a flood wait would hold the stop)
        if self._keeping:  # the usernames learnt last
            await asyncio.gather(*self._keeping, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.presenter.flush()
        await self.presenter.stop_pictures()
        await self.presenter.stop_pings()
        mutes = [*self._mute_ends.values(), *self._rights_looks.values()]
        for task in mutes:
            task.cancel()
        await asyncio.gather(*mutes, return_exceptions=True)
        if self._webhook_look is not None:
            self._webhook_look.cancel()
            await asyncio.gather(self._webhook_look, return_exceptions=True)
            self._webhook_look = None
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        with contextlib.suppress(Exception):
            await self.app.shutdown()
        for request in (self.app.bot.request, self._request):
            with contextlib.suppress(Exception):
                await request.shutdown()

    # -- helpers ---------------------------------------------------------------------------
    def _remember(self, user: User | None) -> None:
        """Learn ``user``'s @username from their update: new or changed (another user had
        it, or they had another), it is written to the store in the background, so that
        ``/grant @name`` finds them after a restart (a user has one username at a time)."""
        if user is None or not user.username:
            return
        key, user_id = user.username.lower(), str(user.id)
        if self._usernames.get(key) == user_id:
            return
        for old in [k for k, v in self._usernames.items() if v == user_id]:
            del self._usernames[old]
        self._usernames[key] = user_id
        task = asyncio.create_task(self.service.remember_username(PLATFORM, key, user_id))
        self._keeping.add(task)
        task.add_done_callback(self._keeping.discard)

    async def _user_of(self, typed: str) -> str:
        """The user id a typed ``@username`` (or a bare one) names, as far as the bot has
        seen it (this process, or the store: :meth:`_remember`); else ``typed`` unchanged. A
        username has no invisible format character: one pasted with it ("@bob\u200b") is
        @bob (it was "No such player here: @bob", who was there)."""
        key = unformatted(typed).lstrip("@").lower()
        if not key:
            return typed
        found = self._usernames.get(key)
        if found is None:
            found = await self.service.user_of_username(PLATFORM, key)
            if found is not None:
                self._usernames[key] = found
        return found if found is not None else typed

    async def _reply(self, update: Update, reply: Reply) -> None:
        """Answer a command with the service's ``reply``. Whatever the command did is
        committed by now: an answer that fails to be built (a bug) is logged and answered
        ``err.not_shown`` ("could not be shown; what it did is saved"), never the error
        handler's "nothing changed"."""
        msg = update.effective_message
        if msg is None:
            return
        try:
            await self._write_reply(msg, reply)
        except Exception:
            log.exception("cannot show the answer in %s", msg.chat_id)
            user = update.effective_user
            text = tr(language_of(user.language_code if user else None), "err.not_shown")
            try:
                await msg.reply_text(text, allow_sending_without_reply=True)
            except TelegramError as exc:
                log.info("could not tell the user about the failure: %s", exc)

    async def _write_reply(self, msg: Message, reply: Reply) -> None:
        await self.presenter._after_held(str(msg.chat_id))  # (a hand it says is above)
        if reply.private and msg.chat.type != ChatType.PRIVATE and msg.from_user is not None:
            await self._reply_in_private(msg, reply)
            return
        if reply.picture is not None and reply.caption is None:  # /hand: text as the caption
            await self._reply_photo(msg, reply.picture, reply.picture_name, reply.text)
            return
        text, kb = _answer_of(reply)
        if not text:
            return
        sent = time.monotonic()
        try:
            try:
                # a command deleted before the answer (a group's cleaner bot, its sender) is
                # still answered: Telegram refuses a reply to a message that is gone otherwise
                await msg.reply_text(
                    fit(text, MAX_TEXT), api_kwargs=kb, allow_sending_without_reply=True
                )
            except ChatMigrated as exc:
                # typed just before the group became a supergroup: answered there (the
                # command's message is not, so no quote), and the table follows
                self.presenter.follow_soon(str(msg.chat_id), str(exc.new_chat_id))
                await self.app.bot.send_message(exc.new_chat_id, fit(text, MAX_TEXT), api_kwargs=kb)
        except TelegramError as exc:
            # (a group that lets the bot write no more, read-only say: its table closes, as
            # when any other write there is refused so, R8.2a)
            if not self.presenter._gone(str(msg.chat_id), exc, sent):
                log.exception("cannot reply in %s", msg.chat_id)
        if reply.picture is not None and reply.caption is not None:  # /stats: the chart after
            await self._reply_photo(msg, reply.picture, reply.picture_name, reply.caption)

    async def _reply_in_private(self, msg: Message, reply: Reply) -> None:
        """A command typed in a group whose answer is the typer's alone (``reply.private``,
        R3.3: a screen with their cards, say; Telegram has no message only one member of a
        group sees): written in their private chat, and the group told only that it was
        ("Sent to your private chat."), or, when the bot may not write to them there, how to
        let it. No command answers so in a group today; none may leak when one does."""
        assert msg.from_user is not None
        lang = language_of(msg.from_user.language_code)
        text, kb = _answer_of(reply)
        user = msg.from_user.id
        try:
            if reply.picture is not None:
                await self.app.bot.send_photo(
                    user,
                    InputFile(reply.picture, filename=reply.picture_name),
                    caption=fit(reply.caption if reply.caption is not None else text, MAX_CAPTION),
                )
            if text and (reply.picture is None or reply.caption is not None):
                await self.app.bot.send_message(user, fit(text, MAX_TEXT), api_kwargs=kb)
            notice = tr(lang, "reply.sent_private")
        except (Forbidden, BadRequest) as exc:  # (never started the bot, or blocked it)
            log.info("cannot answer %s privately: %s", user, exc)
            notice = tr(lang, "replay.no_private")
        except TelegramError:
            log.exception("cannot answer %s privately", user)
            notice = tr(lang, "err.not_shown")
        try:
            await msg.reply_text(notice, allow_sending_without_reply=True)
        except TelegramError as exc:
            log.info("could not tell %s where the answer went: %s", msg.chat_id, exc)

    async def _reply_photo(self, msg: Message, png: bytes, name: str, caption: str) -> None:
        """Answer ``msg`` with a picture (``/hand``, the ``/stats`` chart); failures are
        logged."""
        try:
            try:
                await msg.reply_photo(
                    InputFile(png, filename=name),
                    caption=fit(caption, MAX_CAPTION),
                    allow_sending_without_reply=True,
                )
            except ChatMigrated as exc:  # (the group became a supergroup: as a text answer)
                self.presenter.follow_soon(str(msg.chat_id), str(exc.new_chat_id))
                await self.app.bot.send_photo(
                    exc.new_chat_id,
                    InputFile(png, filename=name),
                    caption=fit(caption, MAX_CAPTION),
                )
        except TelegramError as exc:
            log.warning("cannot send a picture in %s: %s", msg.chat_id, exc)

    def _simple(self, method: Any, *, whole_arg: bool = False) -> Any:
        """A command answered by one service call; ``whole_arg``: the words after the command
        are passed on as one argument (``""`` without any), as ``/top week`` or ``/replay 12``:
        the service judges all of them (``/replay 5 6`` is refused with the usage, never hand
        5 with the 6 dropped)."""

        async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if update.effective_user is None or update.effective_chat is None:
                return
            self._remember(update.effective_user)
            args = [" ".join(context.args or ())] if whole_arg else []
            where = await self._ref(update.effective_chat)
            reply = await method(where, _actor(update.effective_user), *args)
            await self._reply(update, reply)

        return handler

    def _at_table(self, method: Any, *, whole_arg: bool = False, request: bool = False) -> Any:
        """A table command: answered as soon as its step is committed (``answer=``), before
        the table's messages go out, so a 429 on them never delays the answer; ``whole_arg``:
        everything typed after the command is passed on as one argument (``""`` without
        any), so the service judges all of it: ``/topup 1 000`` (a thousand with its digits
        grouped, as Russian writes it) is a thousand, never read as 1 kush;
        ``request``: a one-shot command given its key ``tg:<chat>:<update_id>``
        (``request=``), so an update Telegram delivers again applies once."""

        async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if update.effective_user is None or update.effective_chat is None:
                return
            self._remember(update.effective_user)
            args = [" ".join(context.args or ())] if whole_arg else []
            answer = self._answer_once(update)
            extra = {"request": _request_key(update)} if request else {}
            reply = await method(
                await self._ref(update.effective_chat),
                _actor(update.effective_user),
                *args,
                answer=answer,
                **extra,
            )
            await answer(reply)  # a refusal before any table step (no table here, say)

        return handler

    def _no_words(self, name: str, handler: Any) -> Any:
        """``handler`` of the command ``name`` (:data:`NO_WORDS`), which takes no words:
        typed with some, answered with its usage instead, nothing done."""

        async def no_words(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            user, chat = update.effective_user, update.effective_chat
            if context.args and user is not None and chat is not None:
                self._remember(user)
                where = await self._ref(chat)
                await self._reply(update, await self.service.usage(where, _actor(user), name))
                return
            await handler(update, context)

        return no_words

    def _answer_once(self, update: Update) -> Callable[[Reply], Awaitable[None]]:
        """The ``answer=`` of a table command: replies once, either as soon as its step is
        committed or, for a refusal that never reached a step, with the returned reply."""
        answered = False

        async def answer(reply: Reply) -> None:
            nonlocal answered
            if not answered:
                answered = True
                await self._reply(update, reply)

        return answer

    def _personal(self, handler: Any, *, anonymous: bool = False) -> Any:
        """A player's command (:data:`PERSONAL`): sent as a chat (``sender_chat``: an
        anonymous admin, a channel) it is answered with how to play instead; ``anonymous``
        (:data:`AS_SOMEONE`): only one sent on behalf of a channel is, an anonymous admin's
        goes on (as the group's admin)."""

        async def personal(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            msg = update.effective_message
            if msg is not None and msg.sender_chat is not None:
                as_group = _anonymous_admin(update)
                user, chat = update.effective_user, update.effective_chat
                if not (anonymous and as_group):
                    if user is not None and chat is not None:
                        who = _actor(user)
                        where = await self._ref(chat)
                        reply = await self.service.sent_as(where, who, group=as_group)
                        await self._reply(update, reply)
                    return
            await handler(update, context)

        return personal

    async def _is_admin(self, chat_id: str, user_id: str, *, fresh: bool = False) -> bool:
        """Group administrators and the owner (checked with getChatMember, cached 60 s;
        ``fresh``: asked now whatever the cache holds, for what moves kush or sets the stakes
        (``/grant``, a settings change, a settings or tournament press, ``/closetable``,
        ``/addbot``, ``/removebot``), so an admin demoted a moment ago does none of it). A
        check that failed (a 5xx, a timeout) counts as "no" this once and is not cached: an
        admin's next command asks again (it was refused as a non-admin's for a minute). Only
        a "yes" is taken from the cache: a member made an admin a moment ago is one at once
        (their /settings was refused for a minute after the first "no")."""
        key = (chat_id, user_id)
        cached = self._admins.get(key)
        if cached is not None and cached[0] and not fresh and time.monotonic() - cached[1] < 60:
            return True
        try:
            member = await self.app.bot.get_chat_member(chat_id, int(user_id))
        except ChatMigrated as exc:  # (typed as the group was upgraded: asked there)
            new = str(exc.new_chat_id)
            # followed in the background: a press asking holds its table, which the move takes
            self.presenter.follow_soon(chat_id, new)
            return await self._is_admin(new, user_id, fresh=fresh)
        except TelegramError as exc:
            log.warning("could not check the admin rights of %s in %s: %s", user_id, chat_id, exc)
            return False
        ok = member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
        self._admins[key] = (ok, time.monotonic())
        return ok

    # -- commands --------------------------------------------------------------------------
    async def _newtable(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._open(update, context, self.service.new_table)

    async def _tournament(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._open(update, context, self.service.new_tournament)

    async def _open(self, update: Update, context: ContextTypes.DEFAULT_TYPE, method: Any) -> None:
        """``/newtable [game]`` or ``/tournament [game]``."""
        if update.effective_user is None or update.effective_chat is None:
            return
        self._remember(update.effective_user)
        # every word passed on: "/newtable ofc chinese" is refused with the usage
        game = " ".join(context.args or ()).lower() or None
        where = await self._ref(update.effective_chat, update.effective_message)
        reply = await method(where, _actor(update.effective_user), game, _request_key(update))
        await self._reply(update, reply)

    async def _as_admin(
        self, update: Update, *, fresh: bool = False
    ) -> tuple[ChatRef, Actor, bool] | None:
        """Where a command came from, who typed it and whether they are an admin there
        (``fresh`` as in :meth:`_is_admin`)."""
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None:
            return None
        self._remember(user)
        ref = await self._ref(chat)
        admin = not ref.private and (
            _anonymous_admin(update) or await self._is_admin(ref.chat_id, str(user.id), fresh=fresh)
        )
        # (the check may have found the group upgraded: the command acts in the supergroup)
        return await self._ref(chat), _actor(user), admin

    async def _ref(self, chat: Chat, message: Message | None = None) -> ChatRef:
        """:func:`_chat`, under the group's new id when it is known to have moved
        (:meth:`TelegramPresenter.moved_to`): a command typed in the group just before its
        upgrade, handled after the bot heard of it, acts on the supergroup's wallets, settings
        and table (it read the old id's, none: "no open table", a fresh balance, an admin
        refused, a table opened in a chat nobody can write in)."""
        ref = _chat(chat, message)
        if ref.private:
            return ref
        moved = await self.presenter.moved_to(ref.chat_id)
        if moved == ref.chat_id and chat.type == ChatType.GROUP:
            # (only a basic group is upgraded) another worker followed the upgrade, or this
            # process before a restart: storage has it, and the update, typed before it and
            # delivered here late, acts on the supergroup (it opened an empty community
            # under the old id: a fresh wallet, answered in the supergroup)
            new = await self.service.moved_chat(PLATFORM, ref.chat_id)
            if new is not None:
                self.presenter.follow_soon(ref.chat_id, new)
                moved = await self.presenter.moved_to(ref.chat_id)
        if moved == ref.chat_id:
            return ref
        return replace(ref, community_id=moved, chat_id=moved)

    async def _addbot(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        # seats a computer player on house kush: asked afresh (a demoted admin seats none);
        # a table command: answered once committed, before the table's messages go out
        who = await self._as_admin(update, fresh=True)
        if who is not None:
            level = " ".join(context.args or ())  # ("strong extra": refused, the usage)
            answer = self._answer_once(update)
            key = _request_key(update)
            await answer(await self.service.add_bot(*who, level, key, answer=answer))

    async def _removebot(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        # cashes a computer player's stack out: asked afresh; answered once committed
        who = await self._as_admin(update, fresh=True)
        if who is not None:
            # /removebot Anna: that one (it stood up the last one seated, whoever was named)
            name = " ".join(context.args or ())
            answer = self._answer_once(update)
            key = _request_key(update)
            await answer(await self.service.remove_bot(*who, key, name, answer=answer))

    async def _settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        # a change sets the stakes: asked afresh (a demoted admin changes nothing)
        who = await self._as_admin(update, fresh=bool(context.args))
        if who is not None:
            key = _request_key(update)  # (a change delivered again changes nothing)
            reply = await self.service.settings(*who, list(context.args or []), key)
            await self._reply(update, reply)

    async def _closetable(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        # settles and cashes out every stack (refunds a tournament): asked afresh (a demoted
        # admin closes nothing)
        who = await self._as_admin(update, fresh=True)
        if who is None:
            return
        answer = self._answer_once(update)
        key = _request_key(update)  # (delivered again: closes no table opened since)
        await answer(await self.service.close_table(*who, answer=answer, request=key))

    async def _me_as_group(
        self, update: Update, name: str, who: tuple[ChatRef, Actor, bool]
    ) -> bool:
        """Whether ``name`` (typed after an admin's command, ``who``: where, who and whether
        an admin, as :meth:`_as_admin` gives them) is "me" sent as the group itself: an
        anonymous admin is GroupAnonymousBot, no member, so "me" names nobody; answered
        with the refusal of a command sent as the group (:meth:`TableService.sent_as`) and
        ``True``, nothing done. ``/grant me 100`` made a wallet for the group, on /top
        (brk52); ``/kick me`` answered "you are not seated" (ux43)."""
        if not (means_me(name) and _anonymous_admin(update)):
            return False
        ref, actor, _ = who
        await self._reply(update, await self.service.sent_as(ref, actor, group=True))
        return True

    async def _kick(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/kick @user`` (or their name, a member picked from the mention list, or a reply
        to their message): an admin stands a seated player up as their /leave would; the
        name is looked up as /grant's (:meth:`_user_of`). Asked afresh whether the sender is
        an admin (a demoted admin stands nobody up); answered once committed."""
        msg = update.effective_message
        who = await self._as_admin(update, fresh=True) if msg is not None else None
        if who is None or msg is None:
            return
        args = list(context.args or [])
        whom, mentioned = _replied(msg), _mentioned(msg)
        shown: str | None = None
        if mentioned is not None:  # /kick <a member picked from the list>
            user, shown, _ = mentioned
            target = str(user.id)
        elif whom is not None and not args:  # a reply to the player's message
            target = str(whom.id)
            shown = f"@{whom.username}" if whom.username else whom.first_name
        else:
            name = " ".join(args)
            if await self._me_as_group(update, name, who):  # ("/kick me" sent as the group)
                return
            target = await self._user_of(name) if name else ""
            shown = name if target != name else None
        answer = self._answer_once(update)
        key = _request_key(update)
        reply = await self.service.kick(*who, target, shown, answer=answer, request=key)
        await answer(reply)

    async def _grant(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        msg = update.effective_message
        # a kush move: whether the sender is an admin is asked afresh (a demoted admin grants
        # none)
        who = await self._as_admin(update, fresh=True) if msg is not None else None
        if who is None or msg is None:
            return
        ref, actor, admin = who
        args = list(context.args or [])
        target, amount, shown, bot = "", "", None, False
        named_member: User | None = None  # the member Telegram names (mention, reply)
        other: tuple[str, str, str | None] | None = None
        whom, mentioned = _replied(msg), _mentioned(msg)
        # /grant @bob 100, /grant Anna Maria 100, /grant Anna 2 100 (two readings), or as a
        # reply to the player's message: read by the service's rule (wallet.read_grant)
        read = read_grant(args, replied=whom is not None)
        if mentioned is not None:  # /grant <a member picked from the list> 100
            user, shown, rest = mentioned
            # ("- 100": the sign typed apart is the amount's, as read_grant reads it)
            target, amount, bot = str(user.id), " ".join(signed_words(rest)), user.is_bot
            named_member = user
        elif whom is not None and not read.name and read.amount:
            # a reply names the player: all that is typed is the amount, judged whole
            target, amount = str(whom.id), read.amount
            shown = f"@{whom.username}" if whom.username else whom.first_name
            bot = whom.is_bot  # this bot, another one, or the group itself (anonymous)
            named_member = whom
        elif read.name:  # (a user id typed as the name: /grant 1001 100)
            name, amount = read.name, read.amount
            if await self._me_as_group(update, name, who):
                return
            target = await self._user_of(name)
            shown = name if target != name else None
            if read.other is not None:  # "Anna 2" and 100, or "Anna" and "2 100": the
                # service judges
                other = (*read.other, None)
        else:  # an amount and nobody named (/grant 1 000): the service says who is missing
            amount = read.amount
        # a member Telegram names (by id) who never played here gets their wallet for the
        # grant, under the name they would play by, as on Discord; a typed name names nobody
        # new (a bot account is refused under the name the admin gave it)
        member = _actor(named_member).name if named_member is not None and not bot else None
        key = _request_key(update)
        reply = await self.service.grant(
            ref, actor, admin, target, amount, key=key, target_name=member, shown=shown,
            target_bot=bot, other=other,
        )  # fmt: skip
        await self._reply(update, reply)

    async def _stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/stats [@user|me] [week|month|all]`` (or as a reply to the user's message)."""
        user, chat, msg = update.effective_user, update.effective_chat, update.effective_message
        if user is None or chat is None or msg is None:
            return
        self._remember(user)
        typed = list(context.args or [])
        args = [await self._user_of(a) for a in typed]
        shown = {a: t for a, t in zip(args, typed, strict=True) if a != t}
        whom, mentioned = _replied(msg), _mentioned(msg)
        if mentioned is not None:  # /stats <a member picked from the list> [week]: the
            # member, the other words the period (a reply's author gives way to them)
            whom, named, rest = mentioned
            args = [await self._user_of(a) for a in rest]
            shown = {str(whom.id): named}
        elif whom is not None:  # a reply to a member who never played here is answered
            # with their name, as /grant's is ("No such player here: 103" showed their id)
            shown[str(whom.id)] = f"@{whom.username}" if whom.username else whom.first_name
        of = str(whom.id) if whom is not None and not whom.is_bot else None
        reply = await self.service.stats(await self._ref(chat), _actor(user), args, shown, of)
        await self._reply(update, reply)

    async def _start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None:
            return
        self._remember(user)
        if chat.type != ChatType.PRIVATE:
            await self._reply(update, await self.service.help(await self._ref(chat), _actor(user)))
            return
        arg = context.args[0] if context.args else ""
        await self._reply(update, await self.service.private_start(_actor(user), arg))

    async def _migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The service messages of a group upgraded to a supergroup: ``migrate_to_chat_id``
        in the old chat, ``migrate_from_chat_id`` in the new one (either will do)."""
        msg = update.effective_message
        if msg is None:
            return
        # (followed once: both messages come, and updates are handled concurrently; a command
        # of the old chat handled meanwhile waits for it, :meth:`TelegramPresenter.moved_to`)
        if msg.migrate_to_chat_id:
            old, new = str(msg.chat_id), str(msg.migrate_to_chat_id)
        elif msg.migrate_from_chat_id:
            old, new = str(msg.migrate_from_chat_id), str(msg.chat_id)
        else:
            return
        await self.presenter.follow_soon(old, new)
        if not self.presenter.followed(old, new):  # failed (logged): once more
            await self.presenter.follow_soon(old, new)

    async def _topic_closed_or_reopened(
        self, update: Update, context: ContextTypes.DEFAULT_TYPE
    ) -> None:
        """The service message of a forum topic closed or reopened by an admin
        (:meth:`TelegramPresenter.topic_state`)."""
        msg = update.effective_message
        if msg is None or msg.message_thread_id is None:
            return
        where = group_chat(str(msg.chat_id), msg.message_thread_id)
        self.presenter.topic_state(where, msg.forum_topic_reopened is not None)

    async def _member_left(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A member left the group or was removed (the ``left_chat_member`` service message):
        they leave its table (the service decides when; the bot itself leaving is
        ``my_chat_member``)."""
        msg = update.effective_message
        if msg is None or msg.left_chat_member is None:
            return
        await self._member_gone(update, msg.chat, msg.left_chat_member)

    async def _member_changed(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``chat_member``: another member's status in a group changed (Telegram sends it
        only to a bot that is an administrator there, and only asked for by name,
        :data:`ALLOWED_UPDATES`). One who was in the group (a member, an administrator, the
        owner, restricted but a member) and is gone from it (``left``, ``kicked``, or
        restricted and no member any more) leaves its table as by the ``left_chat_member``
        service message, which a group may hide and a supergroup does not always send to
        bots; when both come, the second changes nothing (the service's leave is told the
        departure once). Every other change is no departure: a member restricted so that
        they may not write stays seated (the table's buttons and their private chat with
        the bot still work for them; only a typed command in the group does not)."""
        change = update.chat_member
        if change is None or change.chat.type == ChatType.PRIVATE:
            return
        if _in_group(change.old_chat_member) and not _in_group(change.new_chat_member):
            await self._member_gone(update, change.chat, change.new_chat_member.user)

    async def _member_gone(self, update: Update, chat: Chat, user: User) -> None:
        """``user`` left the group ``chat`` (or was removed), as ``update`` told: they leave
        its table (:meth:`bot.service.TableService.member_left`; the bot itself leaving is
        ``my_chat_member``)."""
        if user.is_bot:
            return
        # (its key: the update delivered again is "already done", the group told once)
        await self.service.member_left(await self._ref(chat), _actor(user), _request_key(update))

    async def _membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``my_chat_member``: the bot's own status in a chat changed. Removed from a group
        (``kicked`` or ``left``), or restricted there so that it may not send messages, its
        table closes (the service finishes the hand in progress first and returns the stacks,
        R8.2a): nobody could read the table any more. Added back (or let write again) before
        that hand ended, the close is cancelled (the service says so in the group)."""
        change = update.my_chat_member
        if change is None or change.chat.type == ChatType.PRIVATE:
            return  # (a private chat's: :meth:`_private_life`)
        member = change.new_chat_member
        # (a newer status replaces the look at the end of an earlier mute; one of a bot no
        # longer a member there ends no removal)
        self._muted_until(str(change.chat.id), _mute_end(member))
        if _removed(member):
            log.info("the bot was removed from %s: its table closes", change.chat.id)
            await self.service.chat_left(PLATFORM, str(change.chat.id))
        elif _muted(member):
            log.info("the bot may not write in %s any more: its table closes", change.chat.id)
            await self.service.chat_left(PLATFORM, str(change.chat.id))
        elif await self._read_only(str(change.chat.id), member):
            log.info("the bot is let back in %s, which lets no member write", change.chat.id)
        elif await self.service.chat_back(PLATFORM, str(change.chat.id)):
            log.info("the bot is back in %s: its table stays open", change.chat.id)

    async def _private_life(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Every update, after its own handler: what it says of a user's private chat with
        the bot. Telegram's ``my_chat_member`` of a private chat (sent only when the user
        blocks or unblocks the bot): blocked, they are unreachable at once, at every table
        of theirs (no write is tried to find it out); unblocked, they showed life. So did a
        user who wrote a command or pressed a button in their private chat, which nobody
        can do there with the bot blocked or never started: their hand is posted again where
        a refusal had left them without one (:meth:`bot.service.TableService.player_seen`).
        A refused private write is not tried again until then (the group's table message
        names them with the link to the private chat meanwhile; before, a new message was
        tried, and refused, at every street): a press or command in the group says nothing
        about the private chat (Discord, told of no change of a user's DM settings, tries
        again on those, once a minute at most). With several workers the update reached the
        one serving the user's first table (the router's choice) and the others are told
        (:attr:`elsewhere`): a table of theirs on another worker stayed quiet. A failure is
        logged, never raised: the update's own handler answered it already (the error
        handler told the user of a command that went through "nothing changed")."""
        try:
            await self._private_life_of(update)
        except Exception:
            log.exception("the private chat's news of update %s failed", _loggable(update))

    async def _private_life_of(self, update: Update) -> None:
        """:meth:`_private_life`'s work (raising what it meets)."""
        change = update.my_chat_member
        if change is not None:
            if change.chat.type != ChatType.PRIVATE:
                return
            uid = str(change.chat.id)  # (a private chat's id is its user's)
            blocked = _removed(change.new_chat_member)
            log.info("user %s %s the bot", uid, "blocked" if blocked else "unblocked")
            await self.service.private_news(PLATFORM, uid, blocked=blocked)
            if self.elsewhere is not None:
                self.elsewhere(uid, blocked, True)
            return
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None or chat.type != ChatType.PRIVATE or user.is_bot:
            return
        if update.message is None and update.callback_query is None:
            return  # (an edit of a message, say: nothing new from the user)
        await self.service.player_seen(PLATFORM, str(user.id))
        if self.elsewhere is not None:
            self.elsewhere(str(user.id), False, False)

    async def _read_only(self, chat: str, member: ChatMember | None = None) -> bool:
        """Whether the group ``chat`` keeps the bot from writing by its own default
        permissions (an admin took every member's right to send messages away, which no
        update tells the bot), the bot being no administrator there (``member``: its status
        there; ``None``: asked). The bot let back (its mute lifted or run out) in such a
        group may still write nothing: the close its mute queued stands (R8.2a). Telegram
        not answering counts as no (the next write refused queues the close again). Asked
        only of a group whose table waits to close so (nothing else is held back)."""
        t = self.service.rt.table_at(PLATFORM, chat)
        if t is None or not (t.closing and t.removal_close):
            return False
        try:
            if member is None:
                member = await self.app.bot.get_chat_member(int(chat), self.app.bot.id)
            return not await self._members_may_send(chat, member)
        except (TelegramError, ValueError) as exc:
            log.info("could not look at what %s lets its members do: %s", chat, exc)
            return False

    async def _members_may_send(self, chat: str, member: ChatMember) -> bool:
        """Whether the bot, standing ``member`` in the group ``chat``, may send there by
        its status or the group's default permissions (``getChat``): an administrator may;
        otherwise as the group lets its members (an admin may take that away from every
        member, which no update tells the bot). Asked by :meth:`_read_only` and
        :meth:`_may_write`.

        :raises TelegramError: Telegram did not answer ``getChat``."""
        if member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER):
            return True
        rights = (await self.app.bot.get_chat(int(chat))).permissions
        return rights is None or rights.can_send_messages is not False

    async def _migrated(self, old: str, new: str) -> bool:
        """The group ``old`` is the supergroup ``new`` now (:meth:`TelegramPresenter.follow`):
        the service moves its table, wallets and history there. A table whose close the
        bot's removal queued is then looked at as the bot stands in the supergroup
        (:meth:`look_at_table`): the bot removed from the group, which was upgraded while it
        was out, then added back to the supergroup heard of the upgrade from no service
        message, and its return named the supergroup, where no table was then."""
        moved = await self.service.migrate_chat(PLATFORM, old, new)
        t = self.service.rt.table_at(PLATFORM, new)
        if t is not None:
            await self.look_at_table(t)
        return moved

    async def look_at_restored(self) -> None:
        """The tables are restored (a start: call it after
        :meth:`~bot.service.TableService.start`): each whose close the bot's mute or removal
        queued (R8.2a) is looked at as the bot stands in its group now (``getChatMember``):
        a mute that ran out while the bot was stopped, or the bot let write again meanwhile,
        sent no update (Telegram sends none when a mute runs out, and the look at its end,
        :meth:`_muted_until`, was the stopped process's): the close stood, closing a table
        whose group the bot could write in again. A mute still running is looked at again
        when it runs out; a bot still removed or muted for good leaves the close (as does a
        group the bot cannot be asked about)."""
        for t in list(self.service.tables.values()):
            await self.look_at_table(t)

    async def look_at_table(self, t: LiveTable) -> None:
        """One restored table, as :meth:`look_at_restored` looks at each: at a start, and
        when this worker takes the table over from another (issue 14; the service calls it,
        :meth:`~bot.service.TableService.adopt`), whose look at the mute's end died with
        it."""
        if t.platform != PLATFORM or not (t.closing and t.removal_close):
            return
        try:
            member = await self.app.bot.get_chat_member(int(t.chat_id), self.app.bot.id)
            if _removed(member):
                return
            if _muted(member):
                self._muted_until(t.chat_id, _mute_end(member))
                return
            if await self._read_only(t.chat_id, member):  # (the close stands)
                return
            if await self.service.chat_back(PLATFORM, t.chat_id):
                log.info("the bot may write in %s again: its table stays open", t.chat_id)
        except (TelegramError, ValueError) as exc:  # (the close stands)
            log.info("could not look at the bot's status in %s: %s", t.chat_id, exc)
        except Exception:  # (storage refused: the close stays queued; logged)
            log.exception("could not keep the table of %s open", t.chat_id)

    async def _write_refused(self, chat: str, sent: float) -> None:
        """A write to the group ``chat``, sent at ``sent``, was refused for good (the
        presenter's :func:`_chat_gone`: removed, or no right to send): its table closes (at
        once between hands, else after the hand in progress, R8.2a), and the group's rights
        are looked at from now on (:meth:`_watch_rights`): a group made read-only by its
        admins, the bot no admin there, tells nothing when it lets its members write again."""
        try:
            await self.service.chat_left(PLATFORM, chat, sent)
        finally:
            self._watch_rights(chat)

    def _watch_rights(self, chat: str) -> None:
        """Look at the group ``chat`` every :attr:`rights_look_seconds` (at most
        :data:`RIGHTS_LOOKS` times) while its table's close, queued by a refused write, waits
        for the hand in progress, or its closed table's message waits for the group
        (:func:`~bot.service.chats.chat_back`): once the bot may write there again (its
        default permissions let members send, or the bot is made an admin), that close is
        cancelled (the group told, hands go on) or that message written as closed. A bot
        removed or muted there stops the looks (its own ``my_chat_member`` tells its
        return, :meth:`_membership`); so does a table there that goes on or a new one."""
        if chat in self._rights_looks or self.rights_look_seconds <= 0:
            return
        if self.presenter.stopping:  # (the stop cancelled the looks: none after it)
            return
        first = self.service.rt.table_at(PLATFORM, chat)

        async def look() -> None:
            try:
                for _ in range(RIGHTS_LOOKS):
                    await asyncio.sleep(self.rights_look_seconds)
                    t = self.service.rt.table_at(PLATFORM, chat)
                    if t is not None and (t is not first or not t.closing):
                        return  # (a new table there, or the close cancelled otherwise)
                    if (first is not None and first.chat_id != chat) or self.presenter.moved(chat):
                        return  # (the group moved to a supergroup: looked at there)
                    writable = await self._may_write(chat)
                    if writable is None:
                        return
                    if writable:
                        if await self.service.chat_back(PLATFORM, chat):
                            log.info("the bot may write in %s again: its table stays", chat)
                        return
            except Exception:  # (the close stands, or the message waits; logged)
                log.exception("could not look at what %s lets the bot do", chat)
            finally:
                if self._rights_looks.get(chat) is task:
                    del self._rights_looks[chat]

        task = asyncio.create_task(look(), name=f"tg-rights-{chat}")
        self._rights_looks[chat] = task

    async def _may_write(self, chat: str) -> bool | None:
        """Whether the bot may send messages in the group ``chat`` now, as Telegram says
        (``getChatMember``, ``getChat``): ``None`` when it is removed or muted there (its own
        ``my_chat_member`` tells when that ends, :meth:`_membership`) or Telegram refuses to
        say as to a bot removed (:func:`_chat_gone`), ``False`` in a group whose default
        permissions let no member send (the bot no admin), or when Telegram does not answer
        (asked again later)."""
        try:
            member = await self.app.bot.get_chat_member(int(chat), self.app.bot.id)
            if _removed(member) or _muted(member):
                return None
            return await self._members_may_send(chat, member)
        except TelegramError as exc:
            if _chat_gone(exc):  # (removed, the group deleted: its re-add tells)
                return None
            log.info("could not look at what %s lets the bot do: %s", chat, exc)
            return False

    def _muted_until(self, chat: str, until: datetime.datetime | None) -> None:
        """The bot is muted in the group ``chat`` until ``until`` (aware; ``None``, or the
        epoch Telegram's 0 becomes: for good, or not muted). Telegram sends no update when a
        mute runs out, so the group is looked at again then: a close the mute queued
        (:meth:`_membership`) is cancelled as if the bot were let write again (R8.2a), and a
        table it closed meanwhile gets its table message written as closed. The look is
        replaced by the next status of the bot there (a removal, a new mute)."""
        old = self._mute_ends.pop(chat, None)
        if old is not None:
            old.cancel()
        if until is None:
            return
        wait = (until - datetime.datetime.now(datetime.UTC)).total_seconds()
        if wait <= 0:
            return

        async def look_again() -> None:
            await asyncio.sleep(wait + MUTE_END_MARGIN)
            if self._mute_ends.get(chat) is task:
                del self._mute_ends[chat]
            try:
                if await self._read_only(chat):
                    log.info("the bot's mute in %s ran out, but no member may write", chat)
                elif await self.service.chat_back(PLATFORM, chat):
                    log.info("the bot's mute in %s ran out: its table stays open", chat)
            except Exception:  # (storage refused: the close stays queued; logged)
                log.exception("could not keep the table of %s open after the mute", chat)

        task = asyncio.create_task(look_again(), name=f"tg-mute-end-{chat}")
        self._mute_ends[chat] = task

    # -- errors ----------------------------------------------------------------------------
    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The one error handler (``Application.add_error_handler``): whatever a handler
        raised is logged once with what its update was (:func:`_loggable`: no card), and the
        user is told that nothing changed (a popup for a press, a reply for a command)."""
        log.error("handling update %s failed", _loggable(update), exc_info=context.error)
        if not isinstance(update, Update):
            return
        user = update.effective_user
        text = tr(language_of(user.language_code if user else None), "err.internal")
        try:
            if update.callback_query is not None:
                await update.callback_query.answer(text, show_alert=True)
            elif update.effective_message is not None:
                await update.effective_message.reply_text(text, allow_sending_without_reply=True)
        except TelegramError as exc:
            log.info("could not tell the user about the failure: %s", exc)

    # -- presses ---------------------------------------------------------------------------
    async def _answer_query(
        self, query: CallbackQuery, text: str | None, alert: bool, began: float
    ) -> None:
        """Answer a press (``answerCallbackQuery``: the user's button stops spinning, a
        refusal shows its popup). Refused by Telegram's side (a 5xx, a 429) or lost in the
        network (:func:`_unsent`), it is sent once more at once if the press came in less
        than :data:`ANSWER_RETRY_SECONDS` ago (``began``, :func:`time.monotonic`): Telegram
        takes an answer only for a short while. A failure is logged (a warning) and never
        raised: the press's step is committed whatever its answer became."""
        for attempt in (1, 2):
            try:
                await query.answer(text, show_alert=alert)
                return
            except TelegramError as exc:
                again = (
                    attempt == 1
                    and _unsent(exc) is not None
                    and time.monotonic() - began < ANSWER_RETRY_SECONDS
                )
                if not again:
                    log.warning("could not answer a press (try %d): %s", attempt, exc)
                    await self._popup_lost(query, text, alert)
                    return
                log.info("could not answer a press (%s): once more", exc)

    async def _popup_lost(self, query: CallbackQuery, text: str | None, alert: bool) -> None:
        """A press's popup (``alert``) that Telegram refused to show (its answer too late:
        "query is too old", or lost) may be a question the next press acts on (a fouled
        Confirm's, R2.3; Leave's during a hand, a tournament's knock-out): the player saw
        nothing, pressed again, and confirmed unasked. It is written as a message in the
        presser's private chat instead (a group's popup is the presser's alone: not in the
        group; one who never started the bot is refused, logged)."""
        if not alert or not text:
            return
        try:
            await self.app.bot.send_message(query.from_user.id, text)
        except TelegramError as exc:
            log.info("could not write the popup as a message either: %s", exc)

    async def _press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        began = time.monotonic()
        self._remember(query.from_user)
        message = query.message
        chat = _chat(message.chat) if message is not None else None
        actor = _actor(query.from_user)

        async def is_admin() -> bool:  # (settings, a tournament's start: asked afresh)
            return chat is not None and await self._is_admin(
                chat.chat_id, actor.user_id, fresh=True
            )

        answered = False

        async def answer(reply: Reply) -> None:
            """Answer the query once, as soon as the service has the reply (before the step's
            messages are sent: they may wait on a 429, the answer must not)."""
            nonlocal answered
            if answered:
                return
            answered = True
            # the pressed message shows the reply's screen: a settings message, or the
            # player's private hand (which the service does not write when it is pressed)
            in_private = chat is not None and chat.private
            text, alert = reply.text, reply.alert
            try:
                if (
                    reply.screen is not None
                    and (in_private or not reply.private)
                    and isinstance(message, Message)
                ):
                    self.presenter.queue_edit(
                        str(message.chat_id), str(message.message_id), reply.screen
                    )
                    if in_private and reply.private:  # the pressed hand: the turn ping follows
                        self.presenter.follow_turn(str(message.chat_id), reply.screen)
            except Exception:  # (a bug) the press's step is committed: never "nothing changed"
                where = chat.chat_id if chat is not None else None
                log.exception("cannot show the answer to a press in %s", where)
                text, alert = tr(language_of(actor.language), "err.not_shown"), True
            await self._answer_query(query, fit(text, MAX_ANSWER) or None, alert, began)

        ref = str(message.message_id) if message is not None else None
        if isinstance(message, Message):  # (a message of the bot's whose id it never got)
            ref = await self.presenter.claim(message)
        payload = Payload.decode(query.data)
        if chat is not None and chat.private and payload is not None:
            self.presenter.pressed(actor.user_id, payload.table)  # the turn ping waits anew
        reply = await self.service.press(
            actor,
            query.data,
            chat,
            is_admin,
            message_ref=ref,
            answer=answer,
            request=_request_key(update),
            shown=_carries(message, query.data) if isinstance(message, Message) else None,
        )
        await answer(reply)  # a refusal that never reached a table step
