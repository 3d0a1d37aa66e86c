"""The Discord side of the :class:`~bot.model.Presenter` protocol: the one table message of a
channel, each player's private hand (a DM and, when they use "🂠 My cards", an ephemeral
message), and notices.

* Edits are coalesced as on Telegram: only the newest screen of a message is written, by one
  background writer per message, so a press is answered at once and a busy table never queues
  stale edits behind Discord's rate limits (discord.py waits those out and sends the request
  again, its body built anew for each try from the newest screen: :class:`_NewestEdit`).
  Writers start once the interactions being answered are (:attr:`DiscordPresenter.quiet`).
  An edit still refused with a 5xx after discord.py's own retries, or lost in the network, is
  written again (:data:`~bot.retries.EDIT_RETRIES`, for up to
  :data:`~bot.retries.EDIT_GIVE_UP_SECONDS`, shared with Telegram: :mod:`bot.retries`), its
  newest screen only; one refused with 403 or 404 is not.
* A new message refused that way (the table message, a player's DM hand) gets a pending ref
  (:data:`~bot.model.PENDING_PREFIX`) and is posted in the background on the same tries, its
  newest screen, once: every try carries the same nonce (``enforce_nonce``), so a try whose
  answer was lost after Discord posted it is not posted twice. Once posted the service is told
  its real ref (:attr:`DiscordPresenter.on_posted`), and later edits go to it. A table
  message, or a DM hand, posted anew carries the nonce of a pending ref the service committed
  before the post (:attr:`DiscordPresenter.posts_by_ref`), so a bot killed before its id was
  saved posts under that ref again after the restart and gets the same message back; a
  table message posted again after a delete, the nonce of the deleted one
  (:func:`resend_nonce`), and so does a restart's post of the table message, from the one
  the table saved (:func:`resend_ref`: a re-post whose id a crash kept from the table is
  returned). A notice
  (:meth:`DiscordPresenter.post`) is sent again after :data:`~bot.retries.NOTICE_RETRIES`.
  Network errors never escape a write (they are logged), so a press is still answered.
* A private ref is ``"<dm channel id>:<message id>"``: one DM per player, edited in place.
  Edits do not notify, so when a player's turn begins (their hand gets buttons again) a short
  "your move" DM pings them, in the background, and is deleted when the turn ends.
* A DM refused with 403 / code 50007 (DMs closed or the bot blocked) makes
  :meth:`DiscordPresenter.show_private` return ``None`` (the service then points the player
  at "🂠 My cards") and that user is not DMed again by this process until they use the bot
  (:meth:`DiscordPresenter.user_seen`): at once after a press or command in their DMs, after
  :data:`DM_RETRY_SECONDS` after any other, so opening DMs again is noticed without a
  refused DM on every press.
* The last ephemeral hand a player opened is refreshed too while its interaction token is
  valid (15 minutes), so it follows the game without pressing "My cards" again.
* A pressed hand message is written by the adapter alone, as the interaction's own response:
  the service does not write the DM hand that was pressed (the adapter then tells
  :meth:`DiscordPresenter.answered_private`, for the turn ping and the ephemeral hand), nor,
  through :meth:`DiscordPresenter.show_private`'s ``answered``, the ephemeral hand that was
  pressed (its ref is :func:`ephemeral_ref`, never a private ref).
* Writes to one pressed message keep their order (:meth:`DiscordPresenter.answer_turn`): the
  answers to two quick presses of one player on it go out one after the other, in the order
  their steps committed, and one whose turn comes after a newer one was taken is not written
  (only acknowledged), so an earlier press's screen never lands over a later one's (Discord
  applies two requests in flight in either order, and discord.py sends an answer refused with
  a 5xx or a 429 again a second or more later, with the screen it carried then). An
  interaction of several presses (a select's cards) takes its turn anew at each step, its
  answer in the turn of its last. A REST edit of
  a DM hand still under way when a press's answer wrote it (a 429 being waited out inside it)
  ends with the answered screen (:meth:`DiscordPresenter.answered_private`), not its older one;
  so does a refresh of an ephemeral hand, whose webhook edit is sent the same way (a body
  built anew for each try, :class:`_NewestEdit`; :meth:`DiscordPresenter.answering_live`):
  sent again after a 429 it carries the answer's screen, never the one before the press. An
  ephemeral hand's writes keep the order of their steps (:attr:`AnswerTurn.stamp`): its
  refreshes wait while a press's answer there is on its way (sent again by discord.py after
  a 429 with its old body), then write only a later step's screen
  (:meth:`DiscordPresenter.answering_live`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import itertools
import json
import logging
import re
import secrets
import string
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.discord.components import content_of, view_of
from bot.late_pictures import LatePictures
from bot.logs import failure_logged
from bot.model import HAND_VIEW_PREFIX, PENDING_PREFIX
from bot.render import ping_lines
from bot.retries import (
    EDIT_GIVE_UP_SECONDS,
    EDIT_RETRIES,
    NOTICE_RETRIES,
    Wakeups,
    next_wait,
    pending_ref,
)
from bot.screens import Screen

__all__ = ["PLATFORM", "AnswerTurn", "DiscordPresenter", "LiveHand", "Opening", "ephemeral_ref"]

log = logging.getLogger(__name__)

PLATFORM = "discord"
#: Seconds the stop waits for a write discord.py still holds (a rate limit's whole
#: ``retry_after`` slept inside the request, its own tries of a 5xx) before it is cancelled,
#: not written: the adapter's queued edits (:meth:`DiscordPresenter.finish`) and a notice
#: of a table's outbox (:meth:`DiscordPresenter.post`: kept for the next start).
STOP_WRITES_SECONDS = 5.0
#: Discord's JSON error code for "Cannot send messages to this user".
DMS_CLOSED = 50007
#: Discord's 400 code for a write to an archived thread (an edit; a new message unarchives a
#: thread a moderator did not lock)
ARCHIVED_THREAD = 50083
#: Discord's code for a write to a thread a moderator locked without archiving it: since
#: March 2023 a locked thread refuses every post and edit of a member without Manage
#: Threads, the bot's too ("Thread is locked")
LOCKED_THREAD = 160005
#: Discord's codes for a channel the bot may no longer see (403 50001, Missing Access) or
#: write in (403 50013, Missing Permissions; 400 50083 for a post to a thread archived and
#: locked by a moderator, 160005 for a write to one locked only), or that is gone (404
#: 10003, Unknown Channel: a channel or thread deleted while the bot was away, whose delete
#: event it never got)
LOCKED_OUT = frozenset({50001, 50013, 10003, ARCHIVED_THREAD, LOCKED_THREAD})
#: Discord's code (with a 429, which discord.py waits out and tries again, five times) for a
#: message older than an hour edited too often ("Maximum number of edits to messages older
#: than 1 hour reached"): a long table's message, edited at every move, that Discord will
#: not edit for a while
OLD_MESSAGE_EDITS = 30046
#: Discord's 403 code for a permission the bot lacks in a channel (Send Messages, or Attach
#: Files for a message with a file)
MISSING_PERMISSIONS = 50013
#: Discord's 404 code for a channel that does not exist (any more)
UNKNOWN_CHANNEL = 10003
#: Seconds after a refused DM (50007) before a press or command of that user in a server
#: lets the bot try a DM again: at most one refused DM a minute per user, however often they
#: press (Discord limits refused requests; a press in their DMs retries at once).
DM_RETRY_SECONDS = 60.0
#: An interaction token may edit its messages for 15 minutes; stop a little earlier.
EPHEMERAL_LIFETIME = 14 * 60.0
# A write Discord still refused with a 5xx after discord.py's own retries (a 500, 502, 504 or
# 524 it tries five times over some 25 s; any other 5xx at once), or lost in the network, is
# tried again after :data:`~bot.retries.EDIT_RETRIES` until
# :data:`~bot.retries.EDIT_GIVE_UP_SECONDS` (as on Telegram), so a message is brought up to
# date, or posted, once Discord answers again after an outage (it was left showing an older
# screen, a wrong turn and old cards, until the next change; a new one was never posted). Only
# the newest screen of a message is written, and a newer one is written at once, not at the
# next try. One refused with 403 or 404 is given up at once.
#: Background writes let the interactions being answered go first, waiting at most this long.
YIELD_AT_MOST = 0.05

_ChannelKey = tuple[int, int]  # (channel id, message id)


def _transient(exc: BaseException) -> bool:
    """Whether a write that failed with ``exc`` failed for a while, Discord's side down or the
    network (tried again): a 5xx (``DiscordServerError``, past discord.py's own retries), no
    connection or one dropped (``aiohttp.ClientError``), a timeout (an ``OSError``). Anything
    else (403, 404, another 4xx) is a refusal for good."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500
    return isinstance(exc, aiohttp.ClientError | OSError)


#: what a write may fail with: Discord's answer (``discord.HTTPException``) or the network
_WRITE_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError)


class _NewestEdit:
    """The body of an edit of a message (``PATCH``, ``form`` of
    :meth:`discord.http.HTTPClient.request`: a ``payload_json`` part), built anew for each
    try discord.py makes of the request from the newest screen queued for the message by
    then (popped from ``latest``: :attr:`DiscordPresenter._latest_msg` for a channel or DM
    message, :attr:`DiscordPresenter._latest_live` for an ephemeral hand, edited through
    an interaction's webhook: :meth:`LiveHand.route`). discord.py waits a 429's
    ``retry_after`` out itself and sends the request again (a 500, 502, 504 or 524 too),
    rebuilding its form each try: with a body made once (``message.edit``,
    ``interaction.edit_original_response``) the try after a 429 wrote the screen refused,
    the turn of a player who had played since (on an ephemeral hand, the screen before the
    one a press there was answered with meanwhile), and the newer screen followed as
    another edit.

    :ivar screen: the screen of the last try built (the one written if it succeeded)
    """

    def __init__(
        self,
        presenter: DiscordPresenter,
        route: discord.http.Route,
        latest: dict[Any, Screen],
        key: object,
        screen: Screen,
    ) -> None:
        self._latest = latest
        self._mentions = presenter.client.allowed_mentions
        self.key = key
        self.screen = screen
        self.route = route

    @classmethod
    def of_message(
        cls, presenter: DiscordPresenter, key: _ChannelKey, screen: Screen
    ) -> _NewestEdit:
        """The edit of channel or DM message ``key`` (``(channel id, message id)``)."""
        route = discord.http.Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=key[0],
            message_id=key[1],
        )
        return cls(presenter, route, presenter._latest_msg, key, screen)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        newer = self._latest.pop(self.key, None)
        if newer is not None:
            self.screen = newer
        with discord.http.handle_message_parameters(
            content=content_of(self.screen.text),
            view=view_of(self.screen),
            previous_allowed_mentions=self._mentions,
        ) as params:
            payload = params.payload
        body = json.dumps(payload, separators=(",", ":"), ensure_ascii=True)
        yield {"name": "payload_json", "value": body, "content_type": "application/json"}


def _nonce() -> int:
    """A message's nonce (Discord keeps each for a few minutes: a send with ``enforce_nonce``
    and a nonce already used returns that message instead of posting another)."""
    return secrets.randbits(63)


def nonce_of(ref: str) -> int:
    """The nonce of the message posted under the pending ref ``ref``
    (:func:`bot.retries.pending_ref`: 64 random bits in hex, kept in a snapshot), so every
    try of it, a restarted bot's too, carries the same one; another ref (none of hex): a
    new random one."""
    try:
        return int(ref.removeprefix(PENDING_PREFIX), 16) & ((1 << 63) - 1)
    except ValueError:
        return _nonce()


def resend_nonce(channel_id: int, message_id: int) -> int:
    """The nonce of the table message posted again in place of message ``message_id`` of
    channel ``channel_id`` (deleted, or its thread archived: :meth:`DiscordPresenter._resend`):
    the same in every process, so a worker taking the table over, whose snapshot still names
    that message (the one that posted it died before the table saved the new id), gets the
    message posted then back from Discord (``enforce_nonce``, a few minutes), not a second."""
    key = f"resend:{channel_id}:{message_id}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") & ((1 << 63) - 1)


def resend_ref(chat_id: str, ref: str) -> str | None:
    """The pending ref (:data:`~bot.model.PENDING_PREFIX`) whose nonce (:func:`nonce_of`) is
    that of the table message posted again in place of message ``ref`` of channel
    ``chat_id`` (:func:`resend_nonce`); ``None`` for refs that are no Discord ids. A restart
    posts the table message anew under it (:func:`bot.service.recovery.resume`): a re-post
    made after a delete just before the crash, its id never saved, is returned by Discord,
    not posted beside the restart's."""
    if not (chat_id.isdigit() and ref.isdigit()):
        return None
    return f"{PENDING_PREFIX}{resend_nonce(int(chat_id), int(ref)):016x}"


def _custom_ids(rows: Any) -> list[str | None]:
    """The custom ids of a message's components (its action rows' children), in order."""
    return [getattr(item, "custom_id", None) for row in rows for item in row.children]


def _shows(msg: discord.Message, screen: Screen, view: discord.ui.View | None) -> bool:
    """Whether the posted ``msg`` shows ``screen`` (its content and its buttons' ids; ``view``
    is the screen's, :func:`view_of`): a post Discord answered with a message an earlier
    send under the same nonce made may show an older one."""
    if msg.content.strip() != content_of(screen.text).strip():
        return False
    # (from the components sent: a :class:`~bot.discord.components.ScreenView` keeps them as
    # JSON, its ``children`` empty, so every post under a used nonce was taken for an older
    # one and written again, an edit of the very same screen after each re-post)
    rows = [] if view is None else view.to_components()
    wanted = [c.get("custom_id") for row in rows for c in row.get("components", ())]
    return _custom_ids(msg.components) == wanted


@dataclass(slots=True)
class _Pending:
    """A new message Discord did not take (down, or lost in the network), posted later.

    :ivar chat: the channel (a table message) or the user (a DM hand) it is for
    :ivar dm: a DM hand (``chat`` is a user id)
    :ivar screen: the newest screen written to it: the one posted
    :ivar nonce: the nonce of every try (a try whose answer was lost is not posted twice)
    :ivar failing_since: ``time.monotonic()`` of the first refused try
    :ivar trying: a try of it is on its way (Discord may post it): its ref is kept even
        when the user's DMs are taken for closed meanwhile (:meth:`DiscordPresenter.
        show_private`)
    """

    chat: str
    dm: bool
    screen: Screen
    nonce: int
    failing_since: float
    trying: bool = False


@dataclass(slots=True)
class LiveHand:
    """A player's ephemeral hand message and how to edit it: through the webhook of the
    latest interaction that showed it (its ``token``), as its original response (the
    interaction that posted it, or a press on it answered by editing it) or as its
    follow-up (``followup``: "My cards" answered after a deferral)."""

    message_id: int
    application_id: int
    token: str
    followup: bool = False
    expires: float = field(default_factory=lambda: time.monotonic() + EPHEMERAL_LIFETIME)
    #: the table whose hand it shows (:attr:`bot.screens.Screen.table`): a player at two
    #: tables has one of each, and one table's screens never go to the other's
    table: int | None = None

    def route(self) -> discord.http.Route:
        """The webhook edit of the message (``PATCH /webhooks/{application}/{token}/
        messages/{@original or id}``), sent by :meth:`discord.http.HTTPClient.request` so
        that its body is built anew for each try (:class:`_NewestEdit`)."""
        if self.followup:
            return discord.http.Route(
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                webhook_id=self.application_id,
                webhook_token=self.token,
                message_id=self.message_id,
            )
        return discord.http.Route(
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            webhook_id=self.application_id,
            webhook_token=self.token,
        )


#: an ephemeral hand's key: the player and the table it shows
_LiveKey = tuple[str, int | None]


@dataclass(eq=False, slots=True)
class Opening:
    """One "🂠 My cards" answer posting the player's hand of a table as a new ephemeral
    message (:meth:`DiscordPresenter.opening_live`), from when its reply was made until the
    message is posted and remembered (:meth:`DiscordPresenter.remember_live`) or the answer
    failed. Each answer has its own: two on their way at once (a double press) never share
    what was told meanwhile.

    :ivar seq: its place among the openings (a later one's hand is the live one, whichever
        is posted last)
    :ivar newer: the newest screen the player's hand of the table was written with since it
        began (``None``: none), posted in place of the reply's
        (:meth:`DiscordPresenter.opened_hand`) or written on the new hand once posted
    """

    seq: int
    newer: Screen | None = None


_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def plain_of(text: str) -> str:
    """The text a Discord message shows for ``text``, whose names were escaped by
    :func:`discord_name` (markdown, backslashes included, a list's
    start, ``<`` and ``/`` get a backslash; a mention gets a zero-width space after its
    ``@``): each escaping backslash dropped and those spaces removed. For what is drawn
    (a picture shows its text literally: ``snake\\_case`` drew its backslash)."""
    return _ESCAPED.sub(r"\1", text).replace("@\u200b", "@")


#: a list's start in a name ("1. x", "- x"): escaped by :func:`discord_name`
_LIST_START = re.compile(r"^(\d+)\.(?=\s)|^([-+])(?=\s)")

#: What :func:`discord_name` escapes one by one when escape_markdown's escaping does not
#: come back to the name (``@`` aside: mentions are broken by escape_mentions)
_PUNCTUATION = frozenset(string.punctuation) - {"@"}


def discord_name(name: str) -> str:
    """A (cleaned) name as Discord message content shows it literally: markdown escaped
    (``# **x**`` is no heading, ``||x||`` no spoiler, ``1. x`` no list), mentions broken
    (``@everyone``), ``<`` and ``/`` escaped (no channel mention, no command rewriting)."""
    text = discord.utils.escape_markdown(name)
    text = _LIST_START.sub(lambda m: f"{m[1]}\\." if m[1] else f"\\{m[2]}", text)
    text = discord.utils.escape_mentions(text)
    text = text.replace("<", "\\<").replace("/", "\\/")
    if plain_of(text) != name:
        # escape_markdown takes "[x](y)" for a masked link and escapes only its "[": a
        # backslash inside ("[1](\\)") was left bare, read as an escape and dropped; every
        # punctuation mark escaped then (Discord drops a backslash before any of them)
        text = discord.utils.escape_mentions(
            "".join(f"\\{c}" if c in _PUNCTUATION else c for c in name)
        )
    return text


def ephemeral_ref(message_id: int) -> str:
    """The ref an ephemeral hand message is pressed as (``TableService.press``'s
    ``message_ref``, a :data:`~bot.model.HAND_VIEW_PREFIX` ref): never equal to a private ref
    (``"<dm channel id>:<message id>"``)."""
    return f"{HAND_VIEW_PREFIX}{message_id}"


def _parse_ref(ref: str) -> _ChannelKey | None:
    channel, _, message = ref.partition(":")
    if channel.isdigit() and message.isdigit():
        return int(channel), int(message)
    return None


class AnswerTurn:
    """One press's turn to write the message it pressed (:meth:`DiscordPresenter.answer_turn`):
    the turns of one message are taken in the order the presses' steps committed, and each
    waits for the one before.

    :ivar key: the pressed message, ``(channel id, message id)``
    :ivar number: this turn's place among the message's turns (1, 2, …)
    :ivar stamp: the press's step's place among all the steps the presenter was told of
        (:attr:`DiscordPresenter._stamps`, taken when it committed): an ephemeral hand's
        writes keep this order (:meth:`DiscordPresenter.answering_live`)
    """

    __slots__ = ("_before", "_done", "_order", "key", "number", "stamp")

    def __init__(
        self,
        order: dict[_ChannelKey, tuple[int, asyncio.Future[None]]],
        key: _ChannelKey,
        stamp: int = 0,
    ) -> None:
        earlier = order.get(key)
        self._order = order
        self.key = key
        self.stamp = stamp
        self.number = 1 if earlier is None else earlier[0] + 1
        self._before = None if earlier is None else earlier[1]
        self._done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        order[key] = (self.number, self._done)

    async def wait(self) -> None:
        """Wait until the turn before this one (if any) has written its answer, or given up."""
        if self._before is not None and not self._before.done():
            await asyncio.wait((self._before,))  # (not cancelled with this task)

    @property
    def newest(self) -> bool:
        """Whether no later turn was taken for the message: only then is this one's screen
        written (a later one carries a newer screen, written after it)."""
        entry = self._order.get(self.key)
        return entry is not None and entry[0] == self.number

    def finish(self) -> None:
        """This turn's write is done (or failed): the next may go. Idempotent. A turn given
        up before its own came (its press's task cancelled while it waited) lets the next go
        only once the one before it is done: the next went at once, beside an answer still
        being written; and its entry, the newest, stays until then (deleted, the next press
        of the message took the first turn and wrote beside that answer too)."""
        if self._done.done():
            return
        before = self._before
        if before is not None and not before.done():
            before.add_done_callback(lambda _before: self.finish())
            return
        self._done.set_result(None)
        if self.newest:
            del self._order[self.key]


class DiscordPresenter(LatePictures):
    """Writes the service's screens to Discord through a logged-in :class:`discord.Client`.

    Chat ids are channel ids and user ids are Discord user ids, both as strings.
    """

    PICTURE_TASK = "dc-picture"

    platform = PLATFORM
    #: a new table message is posted under a pending ref the service committed first, its
    #: nonce derived from it (:func:`nonce_of`, :func:`bot.service.runtime.posts_by_ref`)
    posts_by_ref = True
    #: the pending ref a restart posts the table message anew under, from the message it
    #: replaces (a re-post of it after a delete, :func:`resend_nonce`, is returned)
    resend_ref = staticmethod(resend_ref)

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        #: users whose DMs refused us (403, code 50007): not DMed again by this process
        #: until they use the bot (:meth:`user_seen`)
        self.closed_dms: set[str] = set()
        self._closed_at: dict[str, float] = {}  # user → monotonic time of the refusal
        self._dm_channels: dict[str, int] = {}
        self._acting: dict[str, bool] = {}  # private ref → its last screen had buttons
        #: private ref → the task that pings the player when the turn's time bank starts
        #: (:attr:`~bot.screens.Screen.bank_nudge`, R8.5)
        self._nudgers: dict[str, asyncio.Task[None]] = {}
        self._live: dict[_LiveKey, LiveHand] = {}
        self._moved: dict[tuple[str, str], str] = {}  # table message re-sent after a deletion
        self._latest_msg: dict[_ChannelKey, Screen] = {}
        #: pressed message → its newest answer turn's number and when that one is done
        #: (:meth:`answer_turn`)
        self._answer_order: dict[_ChannelKey, tuple[int, asyncio.Future[None]]] = {}
        self._latest_live: dict[_LiveKey, Screen] = {}
        #: the order of the steps whose screens an ephemeral hand is written with: a press's
        #: answer turn takes the next number when its step commits (:meth:`answer_turn`), a
        #: refresh when it is queued (or its DM press's turn's, :meth:`answered_private`)
        self._stamps = itertools.count(1)
        #: ephemeral hand → the stamp of the screen queued for it (in :attr:`_latest_live`)
        self._live_stamp: dict[_LiveKey, int] = {}
        #: ephemeral hand → the newest stamp written to it or on its way: an older screen
        #: queued after is not written
        self._live_shown: dict[_LiveKey, int] = {}
        #: ephemeral hand → answers to presses on it taken and not written yet (each done
        #: when written or given up): its refreshes wait for them (:meth:`answering_live`)
        self._live_answers: dict[_LiveKey, set[asyncio.Future[None]]] = {}
        #: ephemeral hand → the "My cards" answers posting it on their way
        #: (:meth:`opening_live`), each with the newest screen the player's hand was
        #: written with since it began, which its new hand gets
        self._opening: dict[_LiveKey, list[Opening]] = {}
        self._openings = itertools.count(1)
        #: ephemeral hand → the :attr:`Opening.seq` of the answer that posted the live one:
        #: an earlier answer posted after it does not take its place
        self._live_opened: dict[_LiveKey, int] = {}
        #: (user, DM hand ref) → the "your move" DM wanted / sent for that hand: a player at
        #: two tables has one per table (the end of a turn at one never deletes the other's)
        self._latest_ping: dict[tuple[str, str], tuple[int, Screen] | None] = {}
        self._pings: dict[tuple[str, str], _ChannelKey] = {}
        self._writers: dict[object, asyncio.Task[None]] = {}
        #: writers' keys (a message's, ``("live", …)`` an ephemeral hand's) whose request is
        #: on its way now (discord.py may be waiting a 429 out inside it): a press's answer
        #: written meanwhile is written again after it (:meth:`answered_private`)
        self._sending: set[object] = set()
        #: set while no interaction is being answered (the adapter's); background writes wait
        #: for it, a press's answer being what a player waits for
        self.quiet: asyncio.Event | None = None
        #: called with a guild channel's id when a write there is refused for want of access
        #: or permissions (the adapter closes the channel's table, R8.2a)
        #: (and when, ``time.monotonic()``, the refused write was sent: the service ignores
        #: one sent before the bot was invited back)
        self.on_locked_out: Callable[[str, float], Awaitable[None]] | None = None
        #: waits before an edit lost to a 5xx or the network is written again
        #: (:data:`EDIT_RETRIES`), and for how long at most (:data:`EDIT_GIVE_UP_SECONDS`)
        self.edit_retries: tuple[float, ...] = EDIT_RETRIES
        self.edit_give_up = EDIT_GIVE_UP_SECONDS
        #: waits before a notice (:meth:`post`) lost to a 5xx or the network is sent again,
        #: one per try (:data:`~bot.retries.NOTICE_RETRIES`)
        self.notice_retries: tuple[float, ...] = NOTICE_RETRIES
        #: showdown pictures being posted later (:meth:`send_picture`)
        self._late_pictures: dict[str, asyncio.Task[None]] = {}
        #: wakes a writer waiting to try again: a newer screen came (or the stop)
        self._newer: Wakeups[object] = Wakeups()
        #: set by the adapter's stop: edits are no longer tried again
        self.stopping = False
        #: set with :attr:`stopping` (:meth:`stop_retries`): a notice discord.py holds gets
        #: :attr:`stop_grace` seconds more, then is cancelled (kept by its table)
        self._stopped = asyncio.Event()
        self.stop_grace = STOP_WRITES_SECONDS
        #: writers' keys (a message's, a pending one's) whose newest screen the stop left
        #: unwritten, Discord holding it: :meth:`edit_written` says so (a new screen forgets it)
        self._unwritten: set[object] = set()
        #: new messages not posted yet, by pending ref (:meth:`_post_later`)
        self._pending: dict[str, _Pending] = {}
        #: told ``(chat, pending ref, ref)`` when a new message that could not be posted at
        #: once (a table message: the channel; a DM hand: the user) is posted (the service
        #: takes its real ref, :meth:`bot.service.TableService.message_posted`)
        self.on_posted: Callable[[str, str, str], Awaitable[object]] | None = None
        #: told ``(channel, pending ref)`` when a showdown picture posted later
        #: (:meth:`send_picture`) is given up (refused for good, past the give-up): the
        #: service forgets it, a restart does not post it
        self.on_picture_given_up: Callable[[str, str], Awaitable[object]] | None = None
        #: told a user's id when a write to their DMs made in the background (an edit of
        #: their DM hand, a DM hand posted late) finds the DMs closed (403/50007): the
        #: service marks them unreachable at once, and the table message tells them to press
        #: "My cards" (:meth:`bot.service.TableService.player_unreachable`, as on Telegram).
        #: Their turn went on with a DM hand the bot could no longer write, untold, until
        #: the clock played their street for them.
        self.on_unreachable: Callable[[str], Awaitable[object]] | None = None

    async def _send(
        self, channel_id: int, screen: Screen, nonce: int | None = None, *, again: bool = False
    ) -> discord.Message:
        """Post ``screen`` in ``channel_id`` with ``nonce`` (``enforce_nonce``; a new random
        one without). ``again``: the nonce may have been used before (a try whose answer was
        lost, a post a crash cut off before its id was saved, :func:`nonce_of`), so Discord
        may return the message it made then, which shows an older screen: it is written as
        ``screen`` (an edit queued) when its content or buttons differ."""
        channel = self.client.get_partial_messageable(channel_id)
        view = view_of(screen)
        nonce = _nonce() if nonce is None else nonce
        if view is None:
            msg = await channel.send(content_of(screen.text), nonce=nonce)
        else:
            msg = await channel.send(content_of(screen.text), view=view, nonce=nonce)
        if again and not _shows(msg, screen, view):
            self.queue_edit(channel_id, msg.id, screen)
        return msg

    # -- coalesced writers -----------------------------------------------------------------
    def queue_edit(self, channel_id: int, message_id: int, screen: Screen) -> None:
        """Edit a channel or DM message to ``screen`` in the background (coalesced)."""
        key = (channel_id, message_id)
        self._latest_msg[key] = screen
        self._unwritten.discard(key)
        self._spawn(key, lambda: self._write_message(key))
        self._newer.wake(key)  # (a writer waiting to try again writes this one now)

    def _spawn(self, key: object, work: Callable[[], Coroutine[None, None, None]]) -> None:
        """Run ``work`` as the writer of ``key`` unless one runs. A writer's error is
        logged when it ends (one ending between the stop's wake-up of retries and its
        :meth:`flush` was awaited by nobody: asyncio's "Task exception was never
        retrieved")."""
        writer = self._writers.get(key)
        if writer is None or writer.done():
            self._writers[key] = failure_logged(asyncio.create_task(work()), "a Discord write")

    async def _after_answers(self) -> None:
        """Let the interactions being answered go first (at most :data:`YIELD_AT_MOST`)."""
        if self.quiet is not None and not self.quiet.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.quiet.wait(), YIELD_AT_MOST)

    async def _write_message(self, key: _ChannelKey) -> None:
        channel_id, message_id = key
        tries = 0
        failing_since: float | None = None  # (time.monotonic() of the first failure in a row)
        try:
            await self._after_answers()
            while key in self._latest_msg:
                screen = self._latest_msg.pop(key)
                moved = self._moved.get((str(channel_id), str(message_id)))
                if moved is not None:  # posted again meanwhile: the edit goes to the new one
                    self.queue_edit(channel_id, int(moved), screen)
                    continue
                sent = time.monotonic()
                edit = _NewestEdit.of_message(self, key, screen)
                try:
                    request = asyncio.ensure_future(self.client.http.request(edit.route, form=edit))
                    self._sending.add(key)
                    try:
                        held = await self._held_at_the_stop(request)  # (a long 429: the stop)
                    finally:
                        self._sending.discard(key)
                        screen = edit.screen  # (the screen its last try carried)
                    if held:
                        self._latest_msg.pop(key, None)
                        self._unwritten.add(key)
                        log.info("edit of %s/%s held at the stop: not written", *key)
                        break
                    request.result()
                    tries, failing_since = 0, None
                except (discord.DiscordServerError, aiohttp.ClientError, OSError) as exc:
                    # a 5xx past discord.py's own retries, or the network (a timeout is an
                    # OSError): written again, the newest screen of the message (a message
                    # left showing an older screen keeps buttons that are out of date, and
                    # the channel reads a wrong turn until the next change)
                    if failing_since is None:
                        failing_since = sent
                    wait = self._retry_wait(tries, failing_since)
                    if wait is None:
                        if self.stopping and key not in self._latest_msg:
                            self._unwritten.add(key)  # (the next start writes it)
                        log.warning("edit of message %s/%s lost: %s", channel_id, message_id, exc)
                        tries, failing_since = 0, None
                        continue
                    self._latest_msg.setdefault(key, screen)
                    log.info(
                        "edit of message %s/%s failed (%s): again soon", channel_id, message_id, exc
                    )
                    await self._wait_for_newer(key, wait)
                    await self._after_answers()
                    tries += 1
                except RuntimeError:  # ("Session is closed": aiohttp's)
                    if not self.client.is_closed():
                        raise
                    # discord.py closed its HTTP session with a connection Discord ended
                    # for good (4004, 4014): nothing is written any more, the next start
                    # writes it
                    self._latest_msg.pop(key, None)
                    self._unwritten.add(key)
                    log.info("edit of %s/%s not written: the Discord client is closed", *key)
                    break
                except discord.NotFound as exc:
                    if exc.code == UNKNOWN_CHANNEL and await self._locked_out(
                        channel_id, exc, sent
                    ):
                        continue  # the channel is gone, not just the message
                    await self._resend(channel_id, message_id, screen)
                except discord.Forbidden as exc:
                    if exc.code == DMS_CLOSED:  # a player's choice, not a failure
                        self._close_dms_of_channel(channel_id)
                        log.info("DMs closed: cannot edit %s/%s", channel_id, message_id)
                    elif not await self._locked_out(channel_id, exc, sent):
                        log.warning("cannot edit message %s/%s: %s", channel_id, message_id, exc)
                except discord.HTTPException as exc:
                    if exc.code == ARCHIVED_THREAD:  # posted anew: that unarchives the thread
                        await self._resend(channel_id, message_id, screen)
                    elif exc.code == OLD_MESSAGE_EDITS:
                        # (left, the channel read the turn of before, and its buttons, until
                        # Discord took an edit again): posted anew, edited from then on
                        log.info("message %s/%s takes no edits now: posted anew", *key)
                        await self._resend(channel_id, message_id, screen)
                    elif not await self._locked_out(channel_id, exc, sent):  # (160005)
                        log.warning("cannot edit message %s/%s: %s", channel_id, message_id, exc)
        finally:
            self._writers.pop(key, None)
            self._newer.forget(key)

    def _retry_wait(self, tries: int, failing_since: float) -> float | None:
        """Seconds before a write that failed after ``tries`` tries, failing since
        ``failing_since``, is tried again (:attr:`edit_retries`, its last entry repeated);
        ``None``: not again (none set, the adapter stopping, or past :attr:`edit_give_up`:
        :func:`bot.retries.next_wait`)."""
        return next_wait(
            self.edit_retries, tries, failing_since, self.edit_give_up, stopping=self.stopping
        )

    async def _wait_for_newer(self, key: object, seconds: float) -> None:
        """Wait ``seconds``, or less if a newer screen of the message comes meanwhile
        (:meth:`queue_edit`) or the adapter stops."""
        await self._newer.sleep(key, seconds)

    def stop_retries(self) -> None:
        """The adapter stops: an edit that fails is not tried again, and writers waiting to
        try one again do so now (:meth:`flush` then waits for one try each)."""
        self.stopping = True
        self._newer.wake_all()
        self._stopped.set()

    async def _held_at_the_stop(self, write: asyncio.Future[Any]) -> bool:
        """Wait for ``write`` (a request discord.py makes: it sleeps a 429's whole
        ``retry_after`` inside it); once the bot stops (:meth:`stop_retries`), for
        :attr:`stop_grace` seconds more at most, then cancel it and return ``True`` (a minute's
        429 on a notice held the service's stop, which waits for the table's messages, for
        the minute). ``False``: it ended (its result or error in ``write``)."""
        if not self.stopping and self._stopped.is_set():  # (started again after a stop)
            self._stopped = asyncio.Event()
        stopped = asyncio.ensure_future(self._stopped.wait())
        try:
            await asyncio.wait((write, stopped), return_when=asyncio.FIRST_COMPLETED)
            if not write.done():
                await asyncio.wait((write,), timeout=self.stop_grace)
        except asyncio.CancelledError:  # (the write goes with its writer, as before)
            write.cancel()
            raise
        finally:
            stopped.cancel()
        if write.done():
            return False
        write.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await write
        return True

    async def _locked_out(self, channel_id: int, exc: discord.HTTPException, sent: float) -> bool:
        """A write to ``channel_id`` was refused with ``exc``: for a guild channel the bot may
        no longer see or write in, or that is gone (:data:`LOCKED_OUT`), tell
        :attr:`on_locked_out` and return ``True`` (an admin's choice, handled: logged as
        news, not as a failure). It is told in the background (:meth:`flush` waits for it):
        a write refused in the table's sender (a notice, the picture) must not wait for the
        service, whose close waits for that sender (the table's messages stalled for good).
        ``sent``: when (``time.monotonic()``) the refused write was sent, told with it (one
        sent before the bot was invited back, refused late, says nothing of now)."""
        if exc.code not in LOCKED_OUT or self._dm_user(channel_id) is not None:
            return False
        log.info("no access to channel %s: %s", channel_id, exc)
        if self.on_locked_out is not None:
            self._spawn(("locked out", channel_id), lambda: self._tell_locked_out(channel_id, sent))
        return True

    async def _tell_locked_out(self, channel_id: int, sent: float) -> None:
        try:
            if self.on_locked_out is not None:
                await self.on_locked_out(str(channel_id), sent)
        except Exception:
            log.exception("could not close the table of channel %s", channel_id)
        finally:
            self._writers.pop(("locked out", channel_id), None)

    async def _resend(self, channel_id: int, message_id: int, screen: Screen) -> None:
        """The table message was deleted (or its thread archived, or it takes no more edits:
        :data:`OLD_MESSAGE_EDITS`): post it again and remember
        where it went (for every older ref of it too; an edit queued for it meanwhile is
        written there, :meth:`_write_message`, not posted a second time)."""
        key = (str(channel_id), str(message_id))
        if self._dm_user(channel_id) is not None:
            return  # a DM (users cannot delete the bot's messages there): nothing to re-post
        sent = time.monotonic()
        try:  # (its nonce from the message it replaces: :func:`resend_nonce`)
            nonce = resend_nonce(channel_id, message_id)
            msg = await self._send(channel_id, screen, nonce, again=True)
        except _WRITE_ERRORS as exc:
            locked = isinstance(exc, discord.HTTPException) and await self._locked_out(
                channel_id, exc, sent
            )
            if not locked:
                log.warning("cannot re-post the table message in %s: %s", channel_id, exc)
            return
        replaced = [key[1]]
        for older, there in list(self._moved.items()):  # deleted again: every older ref
            if there == key[1] and older[0] == key[0]:
                self._moved[older] = str(msg.id)
                replaced.append(older[1])
        self._moved[key] = str(msg.id)
        # the table holding it (or an older ref) holds the new one from now on, so its next
        # commit does (this map is gone after a restart: a closed table's last messages,
        # sent then, were written over the deleted message)
        for old_ref in replaced:
            await self._tell_service(self.on_posted, key[0], old_ref, str(msg.id))

    def _queue_live(self, live_key: _LiveKey, screen: Screen, stamp: int | None = None) -> None:
        """Refresh the ephemeral hand ``live_key`` with ``screen`` in the background, the
        screen of the step numbered ``stamp`` (:attr:`_stamps`; the next one when ``None``):
        unless a newer one is queued for it, or written to it (or on its way)."""
        stamp = next(self._stamps) if stamp is None else stamp
        if stamp < self._live_shown.get(live_key, 0) or not self._want_live(
            live_key, screen, stamp
        ):
            return
        self._spawn(("live", live_key), lambda: self._write_live(live_key))
        self._newer.wake(("live", live_key))  # (a writer waiting to try again writes it now)

    def _want_live(self, live_key: _LiveKey, screen: Screen, stamp: int) -> bool:
        """``screen`` (step ``stamp``) is the next to write to the ephemeral hand
        ``live_key``, unless one of a later step is queued (``False``)."""
        if live_key in self._latest_live and self._live_stamp.get(live_key, 0) > stamp:
            return False
        self._latest_live[live_key] = screen
        self._live_stamp[live_key] = stamp
        if ("live", live_key) in self._sending:  # (sent again with it, or written next)
            self._live_shown[live_key] = max(self._live_shown.get(live_key, 0), stamp)
        return True

    async def _write_live(self, live_key: _LiveKey) -> None:
        """The writer of the ephemeral hand ``live_key``: writes its newest screen queued
        until none is left. A 5xx (past discord.py's own tries; a 503 at once) is written
        again after :meth:`_retry_wait`, the newest screen by then, as a DM hand's edit is
        (it was taken for the hand dismissed: dropped for good, the hand never refreshed
        again); any other refusal drops it (dismissed, or its token expired)."""
        key = ("live", live_key)
        tries = 0
        failing_since: float | None = None  # (time.monotonic() of the first 5xx in a row)
        try:
            await self._after_answers()
            while live_key in self._latest_live:
                while answers := self._live_answers.get(live_key):
                    # an answer to a press on the hand is on its way (a 429 waited out
                    # inside it, sent again with its screen): written after it, if newer
                    await asyncio.wait(answers)
                if live_key not in self._latest_live:
                    break
                screen = self._latest_live.pop(live_key)
                stamp = self._live_stamp.get(live_key, 0)
                if stamp < self._live_shown.get(live_key, 0):
                    continue  # (older than an answer written meanwhile)
                self._live_shown[live_key] = stamp
                live = self._live.get(live_key)
                if live is None or live.expires < time.monotonic():
                    self._drop_live(live_key)
                    continue
                edit = _NewestEdit(self, live.route(), self._latest_live, live_key, screen)
                self._sending.add(key)
                sent = time.monotonic()
                try:
                    await self.client.http.request(edit.route, form=edit)
                    tries, failing_since = 0, None
                except (aiohttp.ClientError, OSError) as exc:  # the network: the next one
                    log.info("ephemeral hand of %s not written: %s", live_key[0], exc)
                except discord.DiscordServerError as exc:  # Discord down for a while
                    failing_since = sent if failing_since is None else failing_since
                    wait = self._retry_wait(tries, failing_since)
                    if wait is None:
                        log.info("ephemeral hand of %s not written: %s", live_key[0], exc)
                        tries, failing_since = 0, None
                        continue
                    log.info("ephemeral hand of %s not written (%s): again soon", live_key[0], exc)
                    if live_key not in self._latest_live:  # (else a newer one is written)
                        # (its stamp kept: the one of the newest screen the edit carried)
                        self._latest_live[live_key] = edit.screen
                    self._sending.discard(key)
                    await self._wait_for_newer(key, wait)
                    tries += 1
                except discord.HTTPException as exc:  # dismissed, or the token expired
                    log.info("dropping the ephemeral hand of %s: %s", live_key[0], exc)
                    if self._live.get(live_key) is live:
                        self._drop_live(live_key)
                finally:
                    self._sending.discard(key)
        finally:
            self._writers.pop(key, None)

    def _drop_live(self, live_key: _LiveKey) -> None:
        """Stop refreshing the ephemeral hand ``live_key`` (dismissed, or its token too old),
        and forget the order of its writes."""
        self._live.pop(live_key, None)
        self._live_opened.pop(live_key, None)
        self._live_shown.pop(live_key, None)
        self._live_stamp.pop(live_key, None)

    # -- new messages posted later ---------------------------------------------------------
    def _post_later(
        self,
        chat: str,
        screen: Screen,
        exc: BaseException,
        nonce: int,
        sent: float,
        *,
        dm: bool,
        ref: str | None = None,
    ) -> str:
        """A new message for ``chat`` (a channel; with ``dm`` a user's DM hand) failed at
        ``sent`` with ``exc``, Discord down or the network (:func:`_transient`): it gets a
        pending ref (:data:`~bot.model.PENDING_PREFIX`; ``ref``, the one the service gave
        it, if any), returned, and is posted in the background (:meth:`_write_pending`)
        with the same ``nonce``, the newest screen written to that ref by then."""
        ref = ref or pending_ref(PENDING_PREFIX)
        self._pending[ref] = _Pending(chat, dm, screen, nonce, sent)
        log.info("message to %s not posted (%s): again soon, as %s", chat, exc, ref)
        self._spawn(("post", ref), lambda: self._write_pending(ref))
        return ref

    def _repend(self, chat: str, ref: str, screen: Screen) -> bool:
        """``screen`` is written to ``ref``: if that is a message not posted yet (and not given
        up), it is the screen to post, at once (``True``)."""
        pending = self._pending.get(ref)
        if pending is None or pending.chat != chat:
            return False
        pending.screen = screen
        self._newer.wake(("post", ref))
        return True

    async def _write_pending(self, ref: str) -> None:
        """The writer of the pending message ``ref``: waits as an edit's would after a failure
        (:meth:`_retry_wait`), then posts its newest screen with its nonce; until it is posted
        (the service told its ref, :attr:`on_posted`; a screen written meanwhile is an edit of
        it), refused for good (a 403: DMs closed, or a channel the bot lost) or given up."""
        key = ("post", ref)
        tries = 0
        try:
            while (pending := self._pending.get(ref)) is not None:
                wait = self._retry_wait(tries, pending.failing_since)
                if wait is None:
                    del self._pending[ref]
                    if self.stopping:
                        self._unwritten.add(key)  # (the next start posts it: edit_written)
                    log.warning("message %s to %s lost", ref, pending.chat)
                    break
                await self._wait_for_newer(key, wait)
                await self._after_answers()
                if self._pending.get(ref) is not pending:  # dropped meanwhile: show_private
                    break
                screen = pending.screen
                sent = time.monotonic()
                channel = 0
                pending.trying = True
                try:
                    if pending.dm:
                        if pending.chat in self.closed_dms:
                            del self._pending[ref]
                            break
                        channel = await self._dm_channel(pending.chat)
                    else:
                        channel = int(pending.chat)
                    send = asyncio.ensure_future(
                        self._send(channel, screen, pending.nonce, again=True)
                    )
                    if await self._held_at_the_stop(send):  # (a long 429)
                        del self._pending[ref]
                        self._unwritten.add(key)
                        log.info("message %s to %s held at the stop: not posted", ref, pending.chat)
                        break
                    msg = send.result()
                except _WRITE_ERRORS as exc:
                    pending.trying = False
                    if _transient(exc):
                        log.info("message %s to %s not posted (%s): again", ref, pending.chat, exc)
                        tries += 1
                        continue
                    del self._pending[ref]
                    await self._refused_post(pending, channel, exc, sent)
                    break
                del self._pending[ref]
                await self._posted(ref, pending, channel, msg.id, screen)
        finally:
            self._writers.pop(key, None)
            self._newer.forget(key)

    async def _refused_post(
        self, pending: _Pending, channel: int, exc: BaseException, sent: float
    ) -> None:
        """A pending message was refused for good (``exc``): DMs closed (403/50007, the user's
        choice: not DMed again until they use the bot), a channel the bot lost
        (:meth:`_locked_out`), else logged."""
        if isinstance(exc, discord.Forbidden) and exc.code == DMS_CLOSED and pending.dm:
            self._dms_closed(pending.chat)
            self._unreachable(pending.chat)
            log.info("DMs of %s closed: their hand is not posted", pending.chat)
        elif not (
            isinstance(exc, discord.HTTPException)
            and not pending.dm
            and await self._locked_out(channel, exc, sent)
        ):
            log.warning("cannot post the message to %s: %s", pending.chat, exc)

    async def _posted(
        self, ref: str, pending: _Pending, channel: int, message_id: int, screen: Screen
    ) -> None:
        """The pending message ``ref`` was posted as ``message_id`` in ``channel``, showing
        ``screen``: its ref from now on (a DM hand's ``"<channel>:<message>"``), a newer
        screen written meanwhile goes to it as an edit, and the service is told."""
        new = f"{channel}:{message_id}" if pending.dm else str(message_id)
        log.info("message %s to %s posted as %s", ref, pending.chat, new)
        self._moved[(pending.chat, ref)] = new
        if pending.dm:
            self._acting[new] = bool(screen.buttons)
        if pending.screen is not screen:  # written while it was posted: an edit of it
            self.queue_edit(channel, message_id, pending.screen)
            if pending.dm:
                self._follow_turn(pending.chat, new, channel, pending.screen)
        if self.on_posted is not None:
            try:
                await self.on_posted(pending.chat, ref, new)
            except Exception:
                log.exception("could not tell the service that %s is %s", ref, new)

    async def written(self, channel_id: int, message_id: int) -> None:
        """Wait until the queued edits of one message are written (a driver standing in for a
        person presses only what that person could see)."""
        while (writer := self._writers.get((channel_id, message_id))) is not None:
            await asyncio.gather(writer, return_exceptions=True)

    async def edit_written(self, chat_id: str, ref: str) -> bool:
        """Wait until the edits queued for message ``ref`` of channel ``chat_id`` are written
        (or given up); ``False`` when the newest was not, because the bot stops while Discord
        holds it (a long 429, an outage: :meth:`stop_retries`)."""
        while True:
            ref = self._moved.get((chat_id, ref), ref)  # (posted late, or again: its ref)
            digits = chat_id.isdigit() and ref.isdigit()
            key: object = (int(chat_id), int(ref)) if digits else ("post", ref)
            writer = self._writers.get(key)
            if writer is None or writer.done():
                return key not in self._unwritten
            await asyncio.wait((writer,))

    async def flush(self) -> None:
        """Wait until every queued edit and ping is written."""
        while self._writers:
            await asyncio.gather(*list(self._writers.values()), return_exceptions=True)

    async def finish(self, seconds: float) -> None:
        """:meth:`flush` for the stop, for ``seconds`` at most: a write discord.py still holds
        then (it waits a rate limit's whole ``retry_after`` in the request, or its own tries
        of a 5xx; a minute's 429 held the stop for the minute) is cancelled (the restart
        writes the tables' messages again)."""
        try:
            await asyncio.wait_for(self.flush(), seconds)
        except TimeoutError:
            left = [writer for writer in self._writers.values() if not writer.done()]
            for writer in left:
                writer.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            log.info("%d writes still held by Discord at the stop: not written", len(left))

    # -- the Presenter protocol ------------------------------------------------------------
    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        """Post the channel's table message (awaited: the ref is needed; ``None`` if Discord
        refuses, e.g. missing access), or queue an edit of it."""
        if ref is not None:
            ref = self._moved.get((chat_id, ref), ref)
            if chat_id.isdigit() and ref.isdigit():
                self.queue_edit(int(chat_id), int(ref), screen)
                return ref
            if self._repend(chat_id, ref, screen):
                return ref  # (not posted yet: this is the screen it is posted with)
        # a pending ref the service committed before this post (:attr:`posts_by_ref`; one
        # from before a restart or a takeover too): posted under its nonce, so a post of it
        # a crash cut off before its id was saved is returned, not posted a second time
        given = ref if ref is not None and ref.startswith(PENDING_PREFIX) else None
        sent = time.monotonic()
        nonce = _nonce() if given is None else nonce_of(given)
        try:
            msg = await self._send(int(chat_id), screen, nonce, again=given is not None)
        except _WRITE_ERRORS as exc:
            if _transient(exc):  # Discord down: posted once it answers again
                return self._post_later(chat_id, screen, exc, nonce, sent, dm=False, ref=given)
            locked = isinstance(exc, discord.HTTPException) and await self._locked_out(
                int(chat_id), exc, sent
            )
            if not locked:
                log.warning("cannot post the table message in %s: %s", chat_id, exc)
            return None
        return str(msg.id)

    async def retire_table(self, chat_id: str, ref: str, text: str) -> None:
        """Write an old table message of the channel (one from before a restart,
        :meth:`Runtime.retire_earlier`) as ``text``, its buttons gone, once: one deleted or
        refused is left so (never posted again, as a table message would be)."""
        ref = self._moved.get((chat_id, ref), ref)
        if not (chat_id.isdigit() and ref.isdigit()):
            return
        message = self.client.get_partial_messageable(int(chat_id)).get_partial_message(int(ref))
        try:
            await message.edit(content=content_of(text), view=None)
        except _WRITE_ERRORS as exc:
            log.info("old table message %s/%s not written as moved: %s", chat_id, ref, exc)

    async def retire_private(self, user_id: str, ref: str, text: str) -> None:
        """Write a player's old DM hand (one from before a restart, its hand posted anew:
        :meth:`Runtime.send_private`) as ``text``, its buttons gone, once: one deleted or
        refused is left so (never posted again, as a hand message would be)."""
        ref = self._moved.get((user_id, ref), ref)
        key = _parse_ref(ref)
        if key is None:
            return
        message = self.client.get_partial_messageable(key[0]).get_partial_message(key[1])
        try:
            await message.edit(content=content_of(text), view=None)
        except _WRITE_ERRORS as exc:
            log.info("old hand message %s/%s not written as moved: %s", user_id, ref, exc)

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        """Write a player's private hand: refresh their live ephemeral hand, if any (unless it
        is ``answered``: the pressed message the adapter answers with this screen), and send
        or edit their DM. Returns the DM's ref, or ``None`` when their DMs are closed (403,
        code 50007; not retried) or the DM failed; a DM Discord did not take for a while (a
        5xx, the network) gets a pending ref (:data:`~bot.model.PENDING_PREFIX`) and is
        posted later (:meth:`_post_later`): the player stays reachable."""
        live_key = (user_id, screen.table)  # the ephemeral hand of this table only
        self._note_opening(live_key, screen)
        live = self._live.get(live_key)
        if live is not None and answered != ephemeral_ref(live.message_id):
            self._queue_live(live_key, screen)
        if ref is not None:
            ref = self._moved.get((user_id, ref), ref)  # (posted late: its real ref)
            if user_id in self.closed_dms:
                # DMs closed meanwhile (another table's DM refused): a hand posted later
                # whose try is on its way keeps its ref (Discord may post it: the service
                # is told, :meth:`_posted`); one waiting for its next try is dropped here
                # (nothing is posted under it: no second hand when the DMs open again)
                pending = self._pending.get(ref)
                if pending is not None and pending.chat == user_id and not pending.trying:
                    del self._pending[ref]
                    self._newer.wake(("post", ref))
            if self._repend(user_id, ref, screen):
                return ref
        if user_id in self.closed_dms:
            return None
        key = _parse_ref(ref) if ref is not None else None
        if ref is None or key is None:
            # a pending ref the service committed before this post (:attr:`posts_by_ref`;
            # one from before a restart or a takeover too): posted under its nonce, so a
            # post of it a crash cut off before its id was saved is returned, not posted twice
            given = ref if ref is not None and ref.startswith(PENDING_PREFIX) else None
            return await self._send_dm(user_id, screen, given)
        self.queue_edit(key[0], key[1], screen)
        self._follow_turn(user_id, ref, key[0], screen)
        return ref

    def user_seen(self, user_id: str, *, in_dm: bool) -> None:
        """The user pressed a button or ran a command (``in_dm``: in their DMs with the bot):
        if their DMs refused us, the next private message tries a DM again (the service
        sends one when their hand changes next), at once after a press in their DMs, else
        once :data:`DM_RETRY_SECONDS` have passed since the refusal. A DM refused again
        closes them again."""
        if user_id not in self.closed_dms:
            return
        if in_dm or time.monotonic() - self._closed_at.get(user_id, 0.0) >= DM_RETRY_SECONDS:
            self.closed_dms.discard(user_id)
            self._closed_at.pop(user_id, None)
            log.info("user %s used the bot: their DMs will be tried again", user_id)

    def _dms_closed(self, user_id: str) -> None:
        self.closed_dms.add(user_id)
        self._closed_at[user_id] = time.monotonic()

    def answer_turn(self, channel_id: int, message_id: int) -> AnswerTurn:
        """A turn to write the pressed message ``message_id`` of ``channel_id`` (a DM hand,
        an ephemeral hand, a settings message) as a press's answer, taken as soon as the
        press's step has committed (so turns come in the order of the steps). The adapter
        waits for it (:meth:`AnswerTurn.wait`), writes the message only if the turn is still
        the :attr:`~AnswerTurn.newest` (else it only acknowledges the press), then calls
        :meth:`~AnswerTurn.finish`. So two answers of one message are never in flight at
        once: Discord applied them in either order, and discord.py sends one refused with a
        5xx or a 429 again after a second or more, with the screen it carried then (the hand
        showed the first of two quick presses, the second card not on it)."""
        return AnswerTurn(self._answer_order, (channel_id, message_id), next(self._stamps))

    def answered_private(
        self,
        user_id: str,
        ref: str,
        screen: Screen,
        *,
        shown: Screen | None = None,
        stamp: int | None = None,
    ) -> None:
        """The adapter wrote the player's DM hand ``ref`` as its answer to a press on it (the
        service does not write a pressed hand message): an edit of it queued before the press
        is dropped, the turn ping follows, and the live ephemeral hand shows the same. An
        edit of it on its way (a 429 waited out inside discord.py's request, which then sends
        the newest screen queued, :class:`_NewestEdit`; or one landing after the answer) is
        followed by ``shown`` (what the answer wrote: ``screen`` with the press's notice;
        ``screen`` when not given): its older screen, written over the answer's, stayed
        until the hand changed again. (One queued and not sent yet is dropped, as before.)
        ``stamp``: the press's :attr:`AnswerTurn.stamp` (the ephemeral hand's refresh is of
        that step: not written after an answer of a later step there); ``None``: now."""
        key = _parse_ref(ref)
        if key is not None:
            if key in self._sending:
                self._latest_msg[key] = screen if shown is None else shown
            else:
                self._latest_msg.pop(key, None)
            self._follow_turn(user_id, ref, key[0], screen)
        live_key = (user_id, screen.table)
        self._note_opening(live_key, screen)
        if live_key in self._live:
            self._queue_live(live_key, screen, stamp)

    def _follow_turn(self, user_id: str, ref: str, channel_id: int, screen: Screen) -> None:
        """Ping the player when their DM hand gets buttons again (their turn begins); delete
        the ping when it loses them."""
        acting = bool(screen.buttons)
        was = self._acting.get(ref)
        self._acting[ref] = acting
        if acting and not was and screen.bank_nudge is not None and ref not in self._nudgers:
            seconds, text = screen.bank_nudge
            self._nudgers[ref] = failure_logged(
                asyncio.create_task(self._nudge((user_id, ref), channel_id, seconds, text)),
                "a Discord bank nudge",
            )
        if acting and was is False:
            self._want_ping((user_id, ref), (channel_id, screen))  # their turn begins
        elif not acting and was:
            nudger = self._nudgers.pop(ref, None)
            if nudger is not None:
                nudger.cancel()
            self._want_ping((user_id, ref), None)

    async def _nudge(
        self, hand: tuple[str, str], channel_id: int, seconds: float, text: str
    ) -> None:
        """The time bank nudge (R8.5): ``seconds`` into the turn, when the bank starts, the
        turn's ping is replaced by ``text`` (:meth:`_want_ping`: deleted when the turn ends),
        unless the turn has ended or the adapter stops by then. A DM: the table message is
        not edited for it."""
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), seconds)
            if self._acting.get(hand[1]) and not self.stopping:
                self._want_ping(hand, (channel_id, Screen(text)))
        finally:
            if self._nudgers.get(hand[1]) is asyncio.current_task():
                del self._nudgers[hand[1]]

    # -- turn pings ------------------------------------------------------------------------
    def _want_ping(self, hand: tuple[str, str], ping: tuple[int, Screen] | None) -> None:
        """An edit does not notify anyone: when a player's turn begins a short DM (the first
        lines of their hand: title and "your move") pings them, and it is deleted when the
        turn ends, so the DM keeps one hand message per table. ``hand``: the player and
        their DM hand's ref. Written in the background (coalesced)."""
        self._latest_ping[hand] = ping
        self._spawn(("ping", hand), lambda: self._write_ping(hand))

    async def _write_ping(self, hand: tuple[str, str]) -> None:
        key = ("ping", hand)
        user_id = hand[0]
        try:
            await self._after_answers()
            while hand in self._latest_ping:
                wanted = self._latest_ping.pop(hand)
                old = self._pings.pop(hand, None)
                if old is not None:
                    await self._delete(old)
                if wanted is None:
                    continue
                channel, screen = wanted
                text = content_of(ping_lines(screen.text))
                try:
                    msg = await self.client.get_partial_messageable(channel).send(text)
                except _WRITE_ERRORS as exc:
                    log.info("cannot ping %s: %s", user_id, exc)
                    continue
                self._pings[hand] = (channel, msg.id)
        finally:
            self._writers.pop(key, None)

    async def _dm_channel(self, user_id: str) -> int:
        channel = self._dm_channels.get(user_id)
        if channel is None:
            dm = await self.client.create_dm(discord.Object(int(user_id)))
            channel = self._dm_channels[user_id] = dm.id
        return channel

    def _dm_user(self, channel_id: int) -> str | None:
        for user, channel in self._dm_channels.items():
            if channel == channel_id:
                return user
        return None

    def _close_dms_of_channel(self, channel_id: int) -> None:
        user = self._dm_user(channel_id)
        if user is not None:
            self._dms_closed(user)
            self._unreachable(user)

    def _unreachable(self, user_id: str) -> None:
        """Tell the service (:attr:`on_unreachable`) that a background write found the DMs
        of ``user_id`` closed; in a task of its own (the service takes the tables' locks,
        which a write may be made under), waited for by :meth:`flush`."""
        tell = self.on_unreachable
        if tell is None:
            return

        key = ("unreachable", user_id)

        async def run() -> None:
            try:
                await tell(user_id)
            except Exception:  # (storage refused: the next private write finds out)
                log.exception("could not mark user %s unreachable", user_id)
            finally:
                self._writers.pop(key, None)

        self._spawn(key, run)

    async def _send_dm(self, user_id: str, screen: Screen, given: str | None = None) -> str | None:
        """Post a new DM hand of ``user_id`` showing ``screen``; its ref
        (``"<channel>:<message>"``, a pending one when Discord is down: :meth:`_post_later`),
        or ``None`` (DMs closed, refused). ``given``: the pending ref the service committed
        for it first (:attr:`posts_by_ref`): its nonce (:func:`nonce_of`) on every try, so
        Discord returns a message an earlier post under it made (written as ``screen``)."""
        if not user_id.isdigit():
            return None
        sent = time.monotonic()
        nonce = _nonce() if given is None else nonce_of(given)
        try:
            channel = await self._dm_channel(user_id)
            msg = await self._send(channel, screen, nonce, again=given is not None)
        except discord.Forbidden as exc:
            if exc.code == DMS_CLOSED:
                self._dms_closed(user_id)
            else:
                log.warning("cannot DM %s: %s", user_id, exc)
            return None
        except _WRITE_ERRORS as exc:
            if _transient(exc):  # Discord down, not the player: posted later
                return self._post_later(user_id, screen, exc, nonce, sent, dm=True, ref=given)
            log.warning("cannot DM %s: %s", user_id, exc)
            return None
        ref = f"{channel}:{msg.id}"
        self._acting[ref] = bool(screen.buttons)
        return ref

    async def _delete(self, key: _ChannelKey) -> None:
        with contextlib.suppress(*_WRITE_ERRORS):
            await self.client.http.delete_message(key[0], key[1])

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        """A plain notice in a channel. Lost to a 5xx or the network (:func:`_transient`) it
        is sent again after each of :attr:`notice_retries` (awaited: the table's later
        messages keep their order; the same nonce, so never twice), then given up (logged);
        a refusal for good is not tried again. Never raises a write's error. ``False``: not
        sent because the bot stops (:meth:`stop_retries`) while Discord refuses it so, or
        holds it past :attr:`stop_grace` (a long 429): the service keeps it for the next
        start. Every try carries ``ref``'s nonce (:func:`nonce_of`; the outbox item's pending
        ref), the next start's too: a try the stop cut off, or whose answer was lost, after
        Discord had posted it is returned by the next start's, not posted twice (while
        Discord remembers the nonce, a few minutes); without ``ref`` a random one."""
        began = time.monotonic()
        nonce = _nonce() if ref is None else nonce_of(ref)
        tries = 0
        while True:
            sent = time.monotonic()
            try:
                channel = self.client.get_partial_messageable(int(chat_id))
                send = asyncio.ensure_future(channel.send(content_of(text), nonce=nonce))
                if await self._held_at_the_stop(send):
                    log.info("notice in %s held by Discord at the stop: not sent", chat_id)
                    return False
                send.result()
                return True
            except _WRITE_ERRORS as exc:
                if _transient(exc):
                    if await self._waited("notice", chat_id, exc, tries, began, nonce):
                        tries += 1
                        continue
                    if self.stopping:
                        log.info("notice in %s not sent before the stop: %s", chat_id, exc)
                        return False
                    log.warning("notice in %s lost: %s", chat_id, exc)
                elif not (
                    isinstance(exc, discord.HTTPException)
                    and await self._locked_out(int(chat_id), exc, sent)
                ):
                    log.warning("cannot post in %s: %s", chat_id, exc)
                return True
            except ValueError as exc:
                log.warning("cannot post in %s: %s", chat_id, exc)
                return True

    async def _waited(
        self,
        what: str,
        chat_id: str,
        exc: Exception,
        tries: int,
        began: float,
        nonce: int,
        *,
        later: bool = False,
    ) -> bool:
        """After the ``tries``-th try of a new message (``what``: "notice", "picture"; sent
        with ``nonce``) was lost to ``exc`` (:func:`_transient`), failing since ``began``:
        wait before the next try and return ``True``, or ``False`` when it is to be given
        up. A notice waits each of :attr:`notice_retries` once; ``later`` (a picture posted
        in the background) each of :attr:`edit_retries`, the last again, until
        :attr:`edit_give_up`. The stop wakes the wait."""
        waits = self.edit_retries if later else self.notice_retries
        if not later and tries >= len(waits):
            return False
        wait = next_wait(waits, tries, began, self.edit_give_up, stopping=self.stopping)
        if wait is None:
            return False
        log.info("%s in %s not posted (%s): again soon", what, chat_id, exc)
        waiting = (what, nonce)
        await self._wait_for_newer(waiting, wait)
        self._newer.forget(waiting)
        return True

    async def _send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str, began: float, *, later: bool
    ) -> bool:
        """:meth:`send_picture`'s tries (``later``: the background ones), failing since
        ``began``: one message in the channel with the PNG attached and the caption as its
        text; failures are logged. A 403 Missing Permissions (50013) here is a channel that
        denies Attach Files (many deny it to @everyone), not one the bot may not write in:
        the picture is left out (the text showdown is the record, as on Telegram in a group
        that forbids photos) and the table plays on; a channel the bot lost for good is found
        by its other writes. Lost to a 5xx or the network (:func:`_transient`) it is sent
        again after each of :attr:`notice_retries`; ``False``: still refused, to be posted
        later (:class:`~bot.late_pictures.LatePictures`: after each of :attr:`edit_retries`,
        until :attr:`edit_give_up` from the first failure, then given up, logged). Every try
        carries ``ref``'s nonce (:func:`nonce_of`, with ``enforce_nonce``): a try whose answer
        was lost, a restart's too, returns the message Discord took instead of a second one
        (while Discord remembers the nonce, a few minutes). In the background the service is
        told the picture ``ref`` was posted (:attr:`on_posted`) or given up
        (:attr:`on_picture_given_up`), unless the adapter stops (kept for a restart)."""
        nonce = nonce_of(ref)
        tries = 0
        while True:
            if later and self.stopping:  # kept: the restart posts it (the same nonce)
                log.info("picture %s in %s not posted before the stop", ref, chat_id)
                return True
            sent = time.monotonic()
            try:
                file = discord.File(io.BytesIO(png), filename="showdown.png")
                channel = self.client.get_partial_messageable(int(chat_id))
                msg = await channel.send(content_of(caption), file=file, nonce=nonce)
                if later:
                    log.info("picture %s in %s posted as %s", ref, chat_id, msg.id)
                    await self._tell_service(self.on_posted, chat_id, ref, str(msg.id))
                return True
            except _WRITE_ERRORS as exc:
                if _transient(exc):
                    again = self._waited("picture", chat_id, exc, tries, began, nonce, later=later)
                    if await again:
                        tries += 1
                        continue
                    if later and self.stopping:
                        log.info("picture %s in %s not posted before the stop", ref, chat_id)
                        return True
                    if not later and (self.stopping or self._retry_wait(0, began) is not None):
                        # (at the stop: kept, owed by its table, :attr:`late_pictures`; the
                        # restart posts it, the same nonce)
                        log.info("picture in %s not posted (%s): posted later", chat_id, exc)
                        return False
                    log.warning("cannot send the picture in %s: %s", chat_id, exc)
                elif isinstance(exc, discord.HTTPException) and exc.code == MISSING_PERMISSIONS:
                    log.info("cannot attach the picture in %s: %s", chat_id, exc)
                elif not (
                    isinstance(exc, discord.HTTPException)
                    and await self._locked_out(int(chat_id), exc, sent)
                ):
                    log.warning("cannot send the picture in %s: %s", chat_id, exc)
            except ValueError as exc:
                log.warning("cannot send the picture in %s: %s", chat_id, exc)
            if later:
                await self._tell_service(self.on_picture_given_up, chat_id, ref)
            return True

    def plain_text(self, text: str) -> str:
        """``text`` without the escapes Discord names got (:func:`plain_of`)."""
        return plain_of(text)

    def typed_text(self, text: str) -> str:
        """``text`` a user typed, escaped as a name is
        (:func:`discord_name`): its markdown and mentions show literally."""
        return discord_name(text)

    def message_link(self, community: str, chat_id: str, ref: str) -> str | None:
        """``https://discord.com/channels/<guild>/<channel>/<message>`` (the message posted
        again if the first was deleted)."""
        message = self._moved.get((chat_id, ref), ref)
        if message.startswith(PENDING_PREFIX):
            return None  # (not posted yet)
        return f"https://discord.com/channels/{community}/{chat_id}/{message}"

    def private_link(self, table_id: int) -> str | None:
        """Discord has no deep link into a DM: ``None``, so the table message carries a
        "🂠 My cards" button instead (it answers with an ephemeral hand)."""
        return None

    # -- ephemeral hands -------------------------------------------------------------------
    @contextlib.contextmanager
    def answering_live(self, user_id: str, table: int | None, stamp: int) -> Iterator[None]:
        """While in this block a press on the player's ephemeral hand of ``table`` is being
        answered (from when its step commits, its turn numbered ``stamp``:
        :attr:`AnswerTurn.stamp`, until its answer is written or given up; the screen is
        told by :meth:`answer_live`): refreshes of that hand wait, then write only a screen
        of a later step. The answer, sent again by discord.py after a 429 with the body it
        was made with, landed over a newer refresh written in the pause (a card placed on
        the DM hand meanwhile) and the hand stayed a card behind."""
        live_key = (user_id, table)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._live_answers.setdefault(live_key, set()).add(done)
        try:
            yield
        finally:
            answers = self._live_answers.get(live_key, set())
            answers.discard(done)
            if not answers:
                self._live_answers.pop(live_key, None)
            done.set_result(None)

    def _note_opening(self, live_key: _LiveKey, screen: Screen) -> None:
        """The player's hand of ``live_key`` (user id, table) is written with ``screen``: every
        "My cards" answer posting a new ephemeral hand of it (:meth:`opening_live`) keeps
        ``screen`` (:attr:`Opening.newer`), to post it or write it on that hand once it is
        known (:meth:`remember_live`)."""
        for opening in self._opening.get(live_key, ()):  # (new ones being posted)
            opening.newer = screen

    @contextlib.contextmanager
    def opening_live(self, user_id: str, table: int | None) -> Iterator[Opening]:
        """While in this block a press of "🂠 My cards" is being answered with the player's
        hand of ``table`` as a new ephemeral message (from when the screen was made until
        the message is posted and :meth:`remember_live` told of it, or the answer failed):
        a screen the player's hand is written with meanwhile (a move of theirs on the DM
        hand, another player's, the hand's end) is kept in the :class:`Opening` yielded (the
        answer's own: a second "My cards" on its way keeps its own), posted instead of the
        reply's (:meth:`opened_hand`, at each try of the post) or written on the new hand
        once it is known. Posted with the screen from before that step, the new hand showed
        it until the next change (no hand was live yet to refresh, or the old one's refresh
        was dropped as the new one was taken)."""
        live_key = (user_id, table)
        opening = Opening(next(self._openings))
        self._opening.setdefault(live_key, []).append(opening)
        try:
            yield opening
        finally:
            openings = self._opening.get(live_key, [])
            openings.remove(opening)
            if not openings:
                self._opening.pop(live_key, None)

    def opened_hand(self, opening: Opening | None, screen: Screen) -> Screen:
        """The screen to post a "My cards" answer with (its :class:`Opening`, if any, from
        :meth:`opening_live`), built at the last moment before each try of its request (one
        refused with a 429 is sent again after the pause, by then maybe with a newer one):
        the newest one the player's hand of ``screen.table`` was written with since that
        answer began, else ``screen``, the reply's. (Posted with the reply's screen, the new
        hand showed it, then flashed to the newer one once :meth:`remember_live` wrote it: a
        move made while the press's deferral, or a 429's pause, was on its way. Kept for the
        player and table, not for the answer, a second answer whose reply was made after a
        newer step was posted with the older screen the first had kept.) Pass the screen
        posted as ``posted`` to :meth:`remember_live`: only a step told after it is written
        on the new hand."""
        if opening is None or opening.newer is None:
            return screen
        return opening.newer

    def answer_live(self, user_id: str, screen: Screen, stamp: int | None) -> int:
        """A press on the player's ephemeral hand of ``screen.table``, its turn numbered
        ``stamp``, is about to be answered with ``screen`` (the interaction's response writes
        it; :meth:`remember_live` follows once written, with the stamp returned: the next
        one when ``stamp`` is ``None``). A refresh on its way (a 429 waited out inside
        discord.py's request, which sends it again after the pause, its body built anew:
        :class:`_NewestEdit`) carries ``screen`` from now on: sent again while the answer
        was on its way, it carried the screen before the press and wrote it over the
        answer's (the hand went back a card, and stayed so when the refresh was done before
        the answer came back). The step counts as shown only when the answer is written
        (:meth:`remember_live`) or that refresh carries it: a refresh of an earlier step
        waiting for the answer (:meth:`answering_live`) is dropped only then. (Counted
        here, an answer that then failed, a token expired or the connection lost, had such
        a refresh dropped, and the hand showed neither until the next change.)"""
        live_key = (user_id, screen.table)
        stamp = next(self._stamps) if stamp is None else stamp
        if ("live", live_key) in self._sending:
            self._want_live(live_key, screen, stamp)  # (shown: that refresh writes it)
        return stamp

    def remember_live(
        self,
        user_id: str,
        live: LiveHand,
        screen: Screen | None = None,
        stamp: int | None = None,
        *,
        posted: Screen | None = None,
        opening: Opening | None = None,
    ) -> None:
        """The player's ephemeral hand of ``live.table`` to refresh from now on (the newest
        one of that table wins; another table's is kept apart). ``screen``: what a press's
        answer just wrote on it (a press on the ephemeral hand itself; its turn numbered
        ``stamp``, :meth:`answer_live`): a refresh of it still under way (sent before the
        answer was taken, landing after it) is followed by ``screen``, else its older screen
        stayed over the answer's until the hand changed again (one sent again after a 429
        carries the answer's screen already, :meth:`answer_live`); one queued of a later
        step is written after it. Without ``screen`` (a new hand) a refresh queued is
        dropped, and the hand is written with the screen of a step told while it was being
        posted (``opening``'s, :meth:`opening_live`), if any and other than ``posted``
        (what it was posted with); a new hand posted by an answer that began before the one
        of the live hand (a double press whose first answer came back last) is not taken:
        the later one stays live (the earlier was, and the later, the player's newest hand,
        stayed at the screen it was posted with). With ``stamp`` too, that step is shown on
        the hand: a refresh of an earlier one is not written after it."""
        live_key = (user_id, live.table)
        if screen is None and opening is not None:
            if self._live_opened.get(live_key, 0) > opening.seq and live_key in self._live:
                return  # (a later "My cards" answer's hand is live: it stays so)
            self._live_opened[live_key] = opening.seq
        if screen is not None and stamp is not None:
            self._live_shown[live_key] = max(self._live_shown.get(live_key, 0), stamp)
        if screen is None:
            self._latest_live.pop(live_key, None)
        elif ("live", live_key) in self._sending:
            self._want_live(
                live_key, screen, self._live_shown.get(live_key, 0) if stamp is None else stamp
            )
        self._live[live_key] = live
        newer = opening.newer if screen is None and opening is not None else None
        if newer is not None and (
            posted is None or (newer.text, newer.buttons) != (posted.text, posted.buttons)
        ):  # (a step told while the new hand was being posted: not one it shows already)
            self._queue_live(live_key, newer)

    def refresh_live(
        self, user_id: str, message_id: int, screen: Screen, stamp: int | None = None
    ) -> None:
        """The answer to a press on the player's ephemeral hand ``message_id`` failed: if it
        is the live hand of ``screen``'s table, write ``screen`` there (through the
        interaction that showed it last; its token may still be valid). ``stamp``: the
        answer's turn (:attr:`AnswerTurn.stamp`, the step ``screen`` is of; ``None``: now):
        a refresh of a later step queued meanwhile (a press on the DM hand while the answer
        waited out a 429) is written instead, not replaced by ``screen`` (taken as the newest
        step, the refused answer's screen was written over it: the hand a card behind)."""
        live_key = (user_id, screen.table)
        live = self._live.get(live_key)
        if live is not None and live.message_id == message_id:
            self._queue_live(live_key, screen, stamp)

    def live_hand(self, user_id: str, table: int | None = None) -> LiveHand | None:
        """The player's ephemeral hand message of ``table`` being kept up to date (of any
        table when ``None``), if any."""
        if table is not None:
            return self._live.get((user_id, table))
        return next((v for (u, _), v in self._live.items() if u == user_id), None)
