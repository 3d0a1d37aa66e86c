"""A local fake of Discord on 127.0.0.1 (aiohttp): the REST API and the gateway websocket.

The real :class:`discord.Client` talks to it once :func:`point_discord_at` has pointed
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` here. It
serves what the bot needs and nothing more:

* login (``GET /users/@me``, ``GET /oauth2/applications/@me``) and command sync
  (``PUT /applications/{app}/commands``, also per guild); the synced commands are kept;
* channel messages (``POST``/``PATCH``/``DELETE /channels/{id}/messages[/{id}]``) and DMs
  (``POST /users/@me/channels``); users in :attr:`FakeDiscord.closed_dms` refuse DMs with a
  403 ``{"code": 50007}``, as Discord does; a message with files comes as multipart
  (``payload_json`` and the files): the files are kept in :attr:`FakeDiscord.files` and listed
  as the message's ``attachments``;
* interaction callbacks (``POST /interactions/{id}/{token}/callback?with_response=1``, types
  4–7) answered with the body discord.py parses, webhook follow-ups and edits of the original
  or a follow-up message (``/webhooks/{app}/{token}[/messages/{id|@original}]``);
* the gateway: HELLO, heartbeat ACKs, READY and GUILD_CREATE on IDENTIFY, and
  :meth:`FakeDiscord.slash` / :meth:`FakeDiscord.press` which send INTERACTION_CREATE as a user
  would (a slash command, a button press or a select choice on a stored message).

It stores every message in its current state (ephemeral ones flagged 64 and tied to their
user), so tests press the buttons the bot actually sent, and records every request. Control
routes (``/_press``, ``/_slash``, ``/_interactions``) let a benchmark in another process drive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import email.parser
import email.policy
import itertools
import json
import time
from collections.abc import Awaitable, Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import yarl
from aiohttp import web
from aiohttp.abc import AbstractResolver, ResolveResult

__all__ = [
    "APP_ID",
    "BOT_ID",
    "BOT_ROLE_ID",
    "CHANNEL_ID",
    "GUILD_ID",
    "TOKEN",
    "ApiCall",
    "FakeDiscord",
    "FakeInteraction",
    "FakeUser",
    "MessageWrite",
    "RefusingResolver",
    "point_discord_at",
    "refusing_connector",
]

BOT_ID = 910000000000000001
APP_ID = BOT_ID
GUILD_ID = 920000000000000001
CHANNEL_ID = 930000000000000001
#: a role of the guild granting what @everyone has (the bot's own role, when it holds it:
#: :attr:`FakeDiscord.bot_roles`)
BOT_ROLE_ID = 940000000000000001
#: gateway intents: GUILD_MEMBERS (privileged) and GUILD_MODERATION
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MODERATION_INTENT = 1 << 2
#: gateway intents of MESSAGE_CREATE/UPDATE/DELETE/DELETE_BULK: in a guild, and in DMs
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
TOKEN = "fake.discord.token"
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: an APPLICATION_COMMAND_AUTOCOMPLETE interaction, and the response type that answers it
AUTOCOMPLETE = 4
AUTOCOMPLETE_RESULT = 8
MANAGE_GUILD = 1 << 5
#: the Manage Threads permission bit
MANAGE_THREADS = 1 << 34
#: view channel, send messages, read history, use application commands, send messages in
#: threads
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31) | (1 << 38)
#: the channel types of threads: announcement, public, private
THREAD_TYPES = (10, 11, 12)
_DISCORD_EPOCH_MS = 1420070400000
_API = "/api/v10"

BOT_USER: dict[str, Any] = {
    "id": str(BOT_ID),
    "username": "ofc-bot",
    "global_name": "OFC",
    "discriminator": "0000",
    "avatar": None,
    "bot": True,
    "flags": 0,
}


@dataclass(frozen=True)
class FakeUser:
    """A Discord user of the fake world.

    :ivar admin: has Manage Server in the guild (sent as the member's permissions).
    :ivar bot: a bot account (another bot of the guild, or this one).
    """

    id: int
    name: str
    locale: str = "en-US"
    admin: bool = False
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_json(self, admin: bool | None = None) -> dict[str, Any]:
        """The guild member object of an interaction (with the computed permissions)."""
        admin = self.admin if admin is None else admin
        perms = MEMBER_PERMISSIONS | (MANAGE_GUILD if admin else 0)
        return {
            "user": self.to_json(),
            "roles": [],
            "flags": 0,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "nick": None,
            "avatar": None,
            "pending": False,
            "permissions": str(perms),
        }


@dataclass
class ApiCall:
    """One request the bot made: HTTP method, path (below ``/api/v10``), query, JSON body,
    the status answered and when it arrived (``time.monotonic``)."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    at: float = field(default_factory=time.monotonic)
    status: int = 0
    #: files uploaded with a multipart request: ``(filename, bytes)`` in order
    files: list[tuple[str, bytes]] = field(default_factory=list)
    #: the connection was closed instead of answering (:meth:`FakeDiscord.drop`)
    dropped: bool = False


@dataclass
class MessageWrite:
    """A message the bot created or changed, in its new state.

    :ivar via: ``rest`` (channel API), ``callback`` (interaction response) or ``webhook``.
    :ivar guild: it is in a guild channel (not a DM).
    :ivar ephemeral: only its interaction's user sees it.
    """

    message: dict[str, Any]
    created: bool
    via: str
    guild: bool
    ephemeral: bool


@dataclass
class FakeInteraction:
    """An INTERACTION_CREATE the fake sent and what the bot answered.

    :ivar callback_type: the interaction response type (4 message, 5 deferred message,
        6 deferred update, 7 update message), ``None`` until answered.
    :ivar messages: ids of the messages the answer created or edited, in order.
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    payload: dict[str, Any]
    sent_at: float
    message_id: int | None = None
    callback_type: int | None = None
    callback_at: float | None = None
    callback_body: dict[str, Any] | None = None
    response_message_id: int | None = None
    followups: list[dict[str, Any]] = field(default_factory=list)
    messages: list[int] = field(default_factory=list)
    #: the choices an autocomplete was answered with (response type 8)
    choices: list[dict[str, Any]] | None = None
    done_at: float | None = None
    answered_event: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def answered(self) -> bool:
        """The bot acknowledged it (any callback type)."""
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        """It was acknowledged with a deferral (type 5 or 6)."""
        return self.callback_type in (5, 6)


class RefusingResolver(AbstractResolver):
    """A DNS resolver that refuses every name: a client built with it can reach 127.0.0.1
    and nothing else, so a forgotten real URL fails loudly in tests."""

    async def resolve(self, host: str, port: int = 0, family: int = 0) -> list[ResolveResult]:
        raise OSError(f"offline test: refusing to resolve {host!r}")

    async def close(self) -> None:
        return None


def refusing_connector() -> aiohttp.TCPConnector:
    """An aiohttp connector that reaches IP literals only (see :class:`RefusingResolver`)."""
    return aiohttp.TCPConnector(resolver=RefusingResolver(), limit=0)


@contextlib.contextmanager
def point_discord_at(fake: FakeDiscord | int) -> Iterator[None]:
    """Point discord.py's REST base and gateway at ``fake`` (or a fake listening on that port
    of 127.0.0.1, e.g. in another process) while the block runs. Both are class attributes,
    so this is process-wide; they are restored afterwards."""
    import discord.gateway
    import discord.http

    port = fake if isinstance(fake, int) else fake.port
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = f"http://127.0.0.1:{port}{_API}"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


_CALL = web.RequestKey("call", ApiCall)


def _multipart(content_type: str, raw: bytes) -> tuple[Any, list[tuple[str, bytes]]]:
    """A multipart/form-data body as discord.py sends a message with files: the JSON of the
    ``payload_json`` part and every file part as ``(filename, bytes)``.

    The body is cut at its boundary as bytes and only each part's few header lines go through
    :mod:`email`: parsing a 40–90 KB picture upload whole with :mod:`email` took this fake's
    event loop 3–15 ms, which delayed the stamps of presses in flight (Discord's servers
    parse uploads elsewhere)."""
    head = f"Content-Type: {content_type}\r\n\r\n"
    boundary = email.parser.HeaderParser().parsestr(head).get_boundary()
    if boundary is None:
        raise ValueError("multipart body without a boundary")
    body: Any = None
    files: list[tuple[str, bytes]] = []
    delimiter = b"\r\n--" + boundary.encode()
    for chunk in (b"\r\n" + raw).split(delimiter)[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            break
        headers, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep:
            continue
        part = email.parser.BytesHeaderParser().parsebytes(headers.lstrip(b"\r\n") + sep)
        name = part.get_param("name", header="content-disposition")
        filename = part.get_filename()
        if filename is not None:
            files.append((filename, data))
        elif name == "payload_json":
            body = json.loads(data)
    return body, files


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py reads a body as JSON only when Content-Type is exactly application/json
    headers = {"Content-Type": "application/json"}
    if status == 429:
        # discord.py takes a 429 without ``Via`` for a Cloudflare ban and raises it at once;
        # Discord's own rate limits come through its proxy and are waited out and retried
        headers["Via"] = "1.1 google"
    return web.Response(body=json.dumps(data).encode(), status=status, headers=headers)


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class FakeDiscord:
    """The fake Discord. ``await start()``, then run the client inside
    :func:`point_discord_at`.

    :param token: the bot token it accepts.
    :param channels: the guild's text channels (ids).
    """

    def __init__(
        self,
        token: str = TOKEN,
        *,
        guild_id: int = GUILD_ID,
        channels: tuple[int, ...] = (CHANNEL_ID,),
        guild_name: str = "Poker Night",
    ) -> None:
        self.token = token
        self.guild_id = guild_id
        self.guild_name = guild_name
        self.channels: dict[int, dict[str, Any]] = {}
        for n, cid in enumerate(channels):
            self.add_channel(cid, f"poker-{n + 1}")
        #: users who have closed their DMs to the bot: sending them a DM answers 403/50007
        self.closed_dms: set[int] = set()
        #: channels where the bot lost its permissions: a message written there answers
        #: 403/50013 (Missing Permissions), as Discord does
        self.locked_channels: set[int] = set()
        #: channels the bot may no longer see (View Channel denied, :meth:`lock_channel`
        #: with ``hide``): a write there answers 403/50001 (Missing Access)
        self.hidden_channels: set[int] = set()
        #: @everyone lost Send Messages (:meth:`lock_guild`)
        self.guild_locked = False
        #: the roles the bot's member holds (:data:`BOT_ROLE_ID` lets it write while
        #: @everyone may not: :meth:`set_bot_role`); set before the bot connects to start
        #: with them
        self.bot_roles: list[int] = []
        #: the role :data:`BOT_ROLE_ID` holds Manage Threads (:meth:`give_bot_manage_threads`):
        #: while the bot holds it, a thread locked takes its writes
        self.bot_role_manages_threads = False
        #: until when (seconds since the epoch) a server admin timed the bot's member out
        #: (:meth:`time_out_bot`): guild channel writes answer 403/50013 until then
        self.bot_timed_out_until: float | None = None
        #: users no longer members of the guild (:meth:`remove_member`)
        self.gone: set[int] = set()
        #: the bot was kicked from the guild (:meth:`kick_bot`) and not invited back yet:
        #: its writes to the guild's channels answer 403/50001 (Missing Access), and a
        #: connection's READY and GUILD_CREATE leave the guild out
        self.bot_kicked = False
        #: seconds between a connection's READY and its guild's GUILD_CREATE (Discord streams
        #: a bot's guilds after READY: a large bot's come seconds later)
        self.guild_create_delay = 0.0
        #: channels where the bot may write but not attach files (Attach Files denied, as
        #: many servers do for @everyone): a message with a file answers 403/50013
        self.no_attach_channels: set[int] = set()
        self.users: dict[int, FakeUser] = {}
        self.calls: list[ApiCall] = []
        self.unhandled: list[ApiCall] = []
        self.messages: dict[int, dict[str, Any]] = {}
        #: message id → the files uploaded with it, ``(filename, bytes)``
        self.files: dict[int, list[tuple[str, bytes]]] = {}
        self.ephemeral_for: dict[int, int] = {}  # ephemeral message id → its user
        self.deleted: set[int] = set()
        self.dm_channels: dict[int, int] = {}  # user id → DM channel id
        self.interactions: dict[int, FakeInteraction] = {}
        self.commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.listeners: list[Callable[[MessageWrite], None]] = []
        #: route name (``create_message``, ``edit_message``, ``callback``…) → answers to give
        #: instead, in order, e.g. ``[(429, {"retry_after": 0.1, "global": False, ...})]``
        self.fail_next: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        #: refusals of every call (route name, call) that matches, until :meth:`recover`
        #: (see :meth:`outage`)
        self.outages: list[tuple[Callable[[str, ApiCall], bool], int, dict[str, Any]]] = []
        #: calls (route name, call) whose connection is closed instead of answered, and
        #: whether after doing them (:meth:`drop`), until :meth:`recover`
        self.drops: list[tuple[Callable[[str, ApiCall], bool], bool]] = []
        #: calls (route name, call) done at once but answered only after some seconds, or
        #: at :meth:`recover` (see :meth:`hold`)
        self.holds: list[tuple[Callable[[str, ApiCall], bool], float]] = []
        self._released = asyncio.Event()
        #: (channel id, nonce) → the message a create with ``enforce_nonce`` made
        self.nonces: dict[tuple[int, str], int] = {}
        self.heartbeat_interval_ms = 41250
        self._by_token: dict[str, FakeInteraction] = {}
        self._ids = itertools.count(1)
        self._seq = 0
        self._sockets: set[web.WebSocketResponse] = set()
        self._shards: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self._intents: dict[web.WebSocketResponse, int] = {}  # each connection's IDENTIFY
        #: (shard id, shard count) of every IDENTIFY, in order
        self.identified: list[tuple[int, int]] = []
        #: a close code every IDENTIFY is answered with, e.g. 4011 (sharding required) or
        #: 4013 (invalid intents): Discord ending the connection for good; ``None``: READY
        self.close_identify: int | None = None
        #: the shard count ``GET /gateway/bot`` recommends (Discord's: one per 2,500 guilds)
        self.recommended_shards = 1
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- addresses ---------------------------------------------------------------------------
    @property
    def api_base(self) -> str:
        """The REST base for ``discord.http.Route.BASE``."""
        return f"http://127.0.0.1:{self.port}{_API}"

    @property
    def gateway_url(self) -> str:
        """The gateway websocket for ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def snowflake(self) -> int:
        """A new id shaped like Discord's (time in the high bits, so ``created_at`` is now)."""
        ms = int(time.time() * 1000) - _DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    def add_channel(self, channel_id: int, name: str) -> None:
        """A text channel of the guild."""
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def add_thread(
        self, thread_id: int, parent_id: int, name: str, *, private: bool = False
    ) -> None:
        """A public thread of the channel ``parent_id`` (a channel of its own for messages
        and interactions, listed among the guild's threads); ``private``: a private thread
        (type 12) the bot was added to (:meth:`remove_bot_from_thread`)."""
        self.channels[thread_id] = {
            "id": str(thread_id),
            "type": 12 if private else 11,
            "guild_id": str(self.guild_id),
            "name": name,
            "parent_id": str(parent_id),
            "owner_id": "1",
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2024-01-01T00:00:00+00:00",
                "locked": False,
            },
        }

    def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """A moderator archives a thread (``locked``: and locks it), with no gateway event
        (the bot learns it from its writes): an edit there is refused with 400 "Thread is
        archived" (50083); a new message unarchives it unless it is locked (then refused
        the same way)."""
        meta = self.channels[thread_id]["thread_metadata"]
        meta["archived"], meta["locked"] = True, locked

    async def reopen_thread(self, thread_id: int) -> None:
        """A moderator unarchives and unlocks a thread: writes there are accepted again, and
        the bot gets THREAD_UPDATE."""
        thread = self.channels[thread_id]
        thread["thread_metadata"].update(archived=False, locked=False)
        await self.dispatch("THREAD_UPDATE", dict(thread))

    async def lock_thread(
        self, thread_id: int, *, locked: bool = True, announce: bool = True
    ) -> None:
        """A moderator locks a thread without archiving it (``locked``; or unlocks it): the
        bot holds no Manage Threads, so its posts and edits there are refused with 400
        "Thread is locked" (160005) while it is locked, as Discord does since March 2023
        (a locked thread lets others read it, not write). With ``announce`` the bot gets
        THREAD_UPDATE."""
        thread = self.channels[thread_id]
        thread["thread_metadata"].update(archived=False, locked=locked)
        if announce:
            await self.dispatch("THREAD_UPDATE", dict(thread))

    async def remove_bot_from_thread(self, thread_id: int, *, removed: bool = True) -> None:
        """Someone removes the bot from a private thread (``removed``; or adds it back): a
        bot without Manage Threads no longer sees it, so its writes there answer 403/50001
        (Missing Access) until it is added back; it gets THREAD_MEMBERS_UPDATE naming it
        among the removed (or added) members, which Discord sends for the bot's own
        membership whatever the intents."""
        data: dict[str, Any] = {
            "id": str(thread_id),
            "guild_id": str(self.guild_id),
            "member_count": 2 if removed else 3,
        }
        if removed:
            self.hidden_channels.add(thread_id)
            data["removed_member_ids"] = [str(BOT_ID)]
        else:
            self.hidden_channels.discard(thread_id)
            data["added_members"] = [
                {
                    "id": str(thread_id),
                    "user_id": str(BOT_ID),
                    "join_timestamp": "2024-01-01T00:00:00+00:00",
                    "flags": 0,
                }
            ]
        await self.dispatch("THREAD_MEMBERS_UPDATE", data)

    def _archived(self, channel_id: int, *, posting: bool) -> None:
        """Refuse a write to an archived thread (50083); a post to an unlocked one unarchives
        it first. A thread locked but not archived refuses every write (160005)."""
        meta = self.channels.get(channel_id, {}).get("thread_metadata")
        manages = self.bot_role_manages_threads and BOT_ROLE_ID in self.bot_roles
        if meta is not None and meta["locked"] and not meta["archived"] and not manages:
            raise _ApiError(400, 160005, "Thread is locked")
        if meta is None or not meta["archived"]:
            return
        if posting and not meta["locked"]:
            meta["archived"] = False
            return
        raise _ApiError(400, 50083, "Thread is archived")

    async def lock_channel(
        self, channel_id: int, *, locked: bool = True, threads: bool = False, hide: bool = False
    ) -> None:
        """A moderator denies (``locked``) or gives back Send Messages in a channel to
        @everyone (the bot holds no role of its own): writes there answer 403/50013 while it
        is denied, and the bot gets CHANNEL_UPDATE with the channel's new permission
        overwrites. ``threads``: Send Messages in Threads instead, which refuses the writes
        in the channel's threads (the channel itself stays writable). ``hide``: View
        Channel instead (the bot no longer sees the channel): writes answer 403/50001."""
        channel = self.channels[channel_id]
        where = (
            [cid for cid, c in self.channels.items() if c.get("parent_id") == str(channel_id)]
            if threads
            else [channel_id]
        )
        if locked:
            (self.hidden_channels if hide else self.locked_channels).update(where)
            bit = 1 << 38 if threads else 1 << 10 if hide else 1 << 11
            deny = {"id": str(self.guild_id), "type": 0, "allow": "0", "deny": str(bit)}
            channel["permission_overwrites"] = [deny]
        else:
            self.locked_channels.difference_update(where)
            self.hidden_channels.difference_update(where)
            channel["permission_overwrites"] = []
        await self.dispatch("CHANNEL_UPDATE", dict(channel))

    async def delete_channel(self, channel_id: int, *, announce: bool = True) -> None:
        """Someone deletes a channel or thread of the guild: from now on writes there are
        refused with 404 Unknown Channel (10003); with ``announce`` the bot gets the
        gateway event (CHANNEL_DELETE, or THREAD_DELETE for a thread), which a bot that was
        away meanwhile never sees."""
        channel = self.channels.pop(channel_id)
        if not announce:
            return
        if channel["type"] in THREAD_TYPES:
            data = {
                "id": str(channel_id),
                "guild_id": str(self.guild_id),
                "parent_id": channel["parent_id"],
                "type": channel["type"],
            }
            await self.dispatch("THREAD_DELETE", data)
        else:
            await self.dispatch("CHANNEL_DELETE", channel)

    # -- server ------------------------------------------------------------------------------
    def outage(
        self,
        match: Callable[[str, ApiCall], bool],
        status: int = 503,
        body: dict[str, Any] | None = None,
    ) -> None:
        """Refuse every call for which ``match(route name, call)`` holds (``edit_message``,
        ``create_message``…) with ``status`` and ``body`` until :meth:`recover`: by default a
        503, which discord.py raises at once as ``DiscordServerError`` (a 500, 502, 504 or
        524 it tries five times over some 25 s first, then raises the same)."""
        body = body or {"message": "503: Service Unavailable", "code": 0}
        self.outages.append((match, status, body))

    def drop(self, match: Callable[[str, ApiCall], bool], *, done: bool = False) -> None:
        """Close the connection of every call for which ``match(route name, call)`` holds
        instead of answering it, until :meth:`recover`: the client sees
        ``aiohttp.ServerDisconnectedError`` (an ``aiohttp.ClientError``, which discord.py
        neither retries nor wraps). With ``done`` the call is done first (a message is
        posted) and only its answer is lost."""
        self.drops.append((match, done))

    def hold(self, match: Callable[[str, ApiCall], bool], seconds: float) -> None:
        """Do every call for which ``match(route name, call)`` holds at once (a message is
        posted) but answer it only after ``seconds`` (Discord slow to answer), or at
        :meth:`recover`: a client that gives up on it meanwhile finds it done all the same."""
        self.holds.append((match, seconds))

    def recover(self) -> None:
        """Discord answers again: every :meth:`outage`, :meth:`drop` and :meth:`hold` ends."""
        self.outages.clear()
        self.drops.clear()
        self.holds.clear()
        self._released.set()
        self._released = asyncio.Event()

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1 (``port`` 0 picks a free one: see :attr:`port`)."""
        app = web.Application(middlewares=[self._record])
        r = app.router
        r.add_get("/gateway", self._gateway)
        r.add_post("/_press", self._control_press)
        r.add_post("/_slash", self._control_slash)
        r.add_get("/_interactions", self._control_interactions)
        r.add_get("/_message/{message}", self._control_message)
        r.add_route("*", _API + "/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        """Close every gateway socket and stop listening."""
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def drop_connections(self) -> None:
        """Close the gateway sockets (the client reconnects on its own)."""
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=4000)
        self._sockets.clear()

    @web.middleware
    async def _record(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not request.path.startswith(_API):
            return await handler(request)
        body: Any = None
        files: list[tuple[str, bytes]] = []
        if request.can_read_body:
            raw = await request.read()
            if raw and request.content_type == "multipart/form-data":
                body, files = _multipart(request.headers["Content-Type"], raw)
            elif raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode(errors="replace")
        call = ApiCall(
            request.method, request.path[len(_API) :], dict(request.query), body, files=files
        )
        self.calls.append(call)
        request[_CALL] = call
        response = await handler(request)
        call.status = response.status
        await self._notify()
        return response

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Wait until ``predicate()`` is truthy (checked after every request); returns it. The
        default timeout is generous: a loaded machine (CI on two busy cores) may take seconds
        for what takes milliseconds here.

        :raises TimeoutError: if it stays falsy for ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the bot did not do what was expected in time")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(left, 0.05))

    # -- REST --------------------------------------------------------------------------------
    _ROUTES: tuple[tuple[str, str, str], ...] = (
        ("GET", "users/@me", "_me"),
        ("GET", "oauth2/applications/@me", "_application"),
        ("GET", "gateway", "_get_gateway"),
        ("GET", "gateway/bot", "_get_gateway"),
        ("PUT", "applications/*/commands", "_put_commands"),
        ("PUT", "applications/*/guilds/*/commands", "_put_guild_commands"),
        ("GET", "applications/*/commands", "_get_commands"),
        ("POST", "channels/*/messages", "_create_message"),
        ("PATCH", "channels/*/messages/*", "_edit_message"),
        ("DELETE", "channels/*/messages/*", "_delete_message"),
        ("POST", "users/@me/channels", "_create_dm"),
        ("POST", "interactions/*/*/callback", "_callback"),
        ("POST", "webhooks/*/*", "_followup"),
        ("PATCH", "webhooks/*/*/messages/*", "_edit_webhook_message"),
        ("GET", "webhooks/*/*/messages/*", "_get_webhook_message"),
        ("DELETE", "webhooks/*/*/messages/*", "_delete_webhook_message"),
    )

    def _route(self, method: str, parts: list[str]) -> tuple[str, list[str]] | None:
        for verb, pattern, name in self._ROUTES:
            pat = pattern.split("/")
            if verb != method or len(pat) != len(parts):
                continue
            if all(p == "*" or p == q for p, q in zip(pat, parts, strict=True)):
                return name, [q for p, q in zip(pat, parts, strict=True) if p == "*"]
        return None

    async def _api(self, request: web.Request) -> web.StreamResponse:
        call = request[_CALL]
        parts = call.path.strip("/").split("/")
        route = self._route(request.method, parts)
        if route is None:
            self.unhandled.append(call)
            message = f"fake: no route {request.method} {call.path}"
            return _json({"message": message, "code": 0}, 404)
        name, args = route
        needs_auth = parts[0] not in ("interactions", "webhooks")
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        failures = self.fail_next.get(name.lstrip("_"))
        if failures:
            status, body = failures.pop(0)
            return _json(body, status)
        for match, status, body in self.outages:
            if match(name.lstrip("_"), call):
                return _json(body, status)
        drop = next((done for match, done in self.drops if match(name.lstrip("_"), call)), None)
        if drop is False:
            return self._dropped(request, call)
        try:
            result = await getattr(self, name)(call, *args)
        except _ApiError as exc:
            if drop:
                return self._dropped(request, call)
            return _json({"message": exc.message, "code": exc.code}, exc.status)
        if drop:
            return self._dropped(request, call)
        held = next((s for match, s in self.holds if match(name.lstrip("_"), call)), None)
        if held is not None:  # (done: only its answer waits)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._released.wait(), held)
        if result is None:
            return web.Response(status=204)
        return _json(result)

    @staticmethod
    def _dropped(request: web.Request, call: ApiCall) -> web.Response:
        """Close the connection without an answer (the response is never written)."""
        call.dropped = True
        if request.transport is not None:
            request.transport.close()
        return web.Response(status=444)

    async def _me(self, call: ApiCall) -> dict[str, Any]:
        return dict(BOT_USER, mfa_enabled=False, verified=True, locale="en-US")

    async def _application(self, call: ApiCall) -> dict[str, Any]:
        return {
            "id": str(APP_ID),
            "name": "OFC",
            "description": "Open-Face Chinese Poker",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {k: v for k, v in BOT_USER.items() if k != "bot"} | {"id": "1"},
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "team": None,
        }

    async def _get_gateway(self, call: ApiCall) -> dict[str, Any]:
        return {
            "url": self.gateway_url,
            "shards": self.recommended_shards,
            "session_start_limit": {
                "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 16
            },
        }  # fmt: skip

    def _stamp_commands(
        self, body: list[dict[str, Any]], guild: int | None
    ) -> list[dict[str, Any]]:
        out = []
        for cmd in body:
            c = dict(cmd)
            c.setdefault("type", 1)
            c["id"] = str(self.snowflake())
            c["application_id"] = str(APP_ID)
            c["version"] = str(self.snowflake())
            if guild is not None:
                c["guild_id"] = str(guild)
            out.append(c)
        return out

    async def _put_commands(self, call: ApiCall, app: str) -> list[dict[str, Any]]:
        self.commands = self._stamp_commands(list(call.body or []), None)
        return self.commands

    async def _put_guild_commands(
        self, call: ApiCall, app: str, guild: str
    ) -> list[dict[str, Any]]:
        stamped = self._stamp_commands(list(call.body or []), int(guild))
        self.guild_commands[int(guild)] = stamped
        return stamped

    async def _get_commands(self, call: ApiCall, app: str) -> list[dict[str, Any]]:
        return self.commands

    def _dm_user(self, channel_id: int) -> int | None:
        for user, cid in self.dm_channels.items():
            if cid == channel_id:
                return user
        return None

    def _new_message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        *,
        flags: int = 0,
        interaction: FakeInteraction | None = None,
    ) -> dict[str, Any]:
        mid = self.snowflake()
        msg: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "type": 0 if interaction is None else (20 if interaction.type == 2 else 19),
            "content": str(body.get("content") or ""),
            "components": list(body.get("components") or []),
            "embeds": list(body.get("embeds") or []),
            "author": dict(BOT_USER),
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "pinned": False,
            "flags": flags | int(body.get("flags") or 0),
        }
        if interaction is not None:
            msg["application_id"] = str(APP_ID)
            msg["webhook_id"] = str(APP_ID)
            msg["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.to_json(),
                "authorizing_integration_owners": {},
            }
        self.messages[mid] = msg
        if msg["flags"] & EPHEMERAL and interaction is not None:
            self.ephemeral_for[mid] = interaction.user.id
        return msg

    def _emit(self, msg: dict[str, Any], *, created: bool, via: str) -> None:
        if not self.listeners:
            return
        channel = int(msg["channel_id"])
        write = MessageWrite(
            message=json.loads(json.dumps(msg)),
            created=created,
            via=via,
            guild=channel in self.channels,
            ephemeral=bool(msg["flags"] & EPHEMERAL),
        )
        for listener in list(self.listeners):
            listener(write)

    def _edit(self, mid: int, body: Mapping[str, Any], via: str) -> dict[str, Any]:
        msg = self.messages.get(mid)
        if msg is None or mid in self.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        msg = dict(msg)
        if "content" in body:
            msg["content"] = str(body["content"] or "")
        if "components" in body:
            msg["components"] = list(body["components"] or [])
        if "embeds" in body:
            msg["embeds"] = list(body["embeds"] or [])
        msg["edited_timestamp"] = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
        self.messages[mid] = msg
        self._emit(msg, created=False, via=via)
        return msg

    async def _create_message(self, call: ApiCall, channel: str) -> dict[str, Any]:
        cid = int(channel)
        user = self._dm_user(cid)
        if user is not None and user in self.closed_dms:
            raise _ApiError(403, 50007, "Cannot send messages to this user")
        if cid not in self.channels and user is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        if (user is None and self.bot_kicked) or cid in self.hidden_channels:
            raise _ApiError(403, 50001, "Missing Access")
        if cid in self.locked_channels or (call.files and cid in self.no_attach_channels):
            raise _ApiError(403, 50013, "Missing Permissions")
        if user is None and self._bot_timed_out():
            raise _ApiError(403, 50013, "Missing Permissions")
        self._archived(cid, posting=True)
        body = call.body or {}
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None and (known := self.nonces.get((cid, str(nonce)))) is not None:
            # Discord: a nonce used again within a few minutes returns that message, no other
            return self.messages[known]
        msg = self._new_message(cid, body)
        if nonce is not None:
            self.nonces[(cid, str(nonce))] = int(msg["id"])
        self._attach(msg, call.files)
        self._emit(msg, created=True, via="rest")
        return msg

    def _attach(self, msg: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        """The files uploaded with a message become its attachments (kept in :attr:`files`)."""
        if not files:
            return
        cid, mid = msg["channel_id"], msg["id"]
        msg["attachments"] = [
            {
                "id": str(self.snowflake()),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.fake/attachments/{cid}/{mid}/{name}",
                "proxy_url": f"https://media.fake/attachments/{cid}/{mid}/{name}",
            }
            for name, data in files
        ]
        self.files[int(mid)] = list(files)

    async def _edit_message(self, call: ApiCall, channel: str, message: str) -> dict[str, Any]:
        mid = int(message)
        msg = self.messages.get(mid)
        if msg is None or msg["channel_id"] != channel:
            raise _ApiError(404, 10008, "Unknown Message")
        user = self._dm_user(int(channel))
        if user is not None and user in self.closed_dms:
            raise _ApiError(403, 50007, "Cannot send messages to this user")
        if int(channel) not in self.channels and user is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        if (user is None and self.bot_kicked) or int(channel) in self.hidden_channels:
            raise _ApiError(403, 50001, "Missing Access")
        if int(channel) in self.locked_channels or (user is None and self._bot_timed_out()):
            raise _ApiError(403, 50013, "Missing Permissions")
        self._archived(int(channel), posting=False)
        return self._edit(mid, call.body or {}, "rest")

    async def _delete_message(self, call: ApiCall, channel: str, message: str) -> None:
        mid = int(message)
        if mid not in self.messages or mid in self.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        self.deleted.add(mid)
        return None

    async def _create_dm(self, call: ApiCall) -> dict[str, Any]:
        user_id = int((call.body or {})["recipient_id"])
        cid = self.dm_channels.get(user_id)
        if cid is None:
            cid = self.dm_channels[user_id] = self.snowflake()
        return self._dm_channel_json(user_id, cid)

    def _dm_channel_json(self, user_id: int, cid: int) -> dict[str, Any]:
        user = self.users.get(user_id) or FakeUser(user_id, f"user{user_id}")
        return {"id": str(cid), "type": 1, "last_message_id": None, "recipients": [user.to_json()]}

    def _interaction_of(self, iid: str, token: str) -> FakeInteraction:
        record = self._by_token.get(token)
        if record is None or (iid and str(record.id) != iid):
            raise _ApiError(404, 10062, "Unknown interaction")
        return record

    async def _callback(self, call: ApiCall, iid: str, token: str) -> dict[str, Any] | None:
        record = self._interaction_of(iid, token)
        if record.answered:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = call.body or {}
        kind = int(body.get("type", 0))
        data = dict(body.get("data") or {})
        if (record.type == AUTOCOMPLETE) != (kind == AUTOCOMPLETE_RESULT):
            # an autocomplete takes its choices (8) and nothing else; nothing else takes them
            raise _ApiError(400, 50035, f"Interaction response type {kind} is invalid here")
        record.callback_type = kind
        record.callback_at = call.at
        record.callback_body = body
        record.answered_event.set()
        out: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
        }
        if kind in (4, 5):
            flags = LOADING if kind == 5 else 0
            msg = self._new_message(record.channel_id, data, flags=flags, interaction=record)
            self._attach(msg, call.files)
            record.response_message_id = int(msg["id"])
            record.messages.append(int(msg["id"]))
            out["interaction"]["response_message_id"] = msg["id"]
            out["resource"] = {"type": kind, "message": msg}
            if kind == 4:
                self._emit(msg, created=True, via="callback")
                record.done_at = call.at
        elif kind == 7:
            if record.message_id is None:
                raise _ApiError(400, 40004, "Cannot update: not a component interaction")
            msg = self._edit(record.message_id, data, "callback")
            record.messages.append(record.message_id)
            out["resource"] = {"type": 7, "message": msg}
            record.done_at = call.at
        elif kind == AUTOCOMPLETE_RESULT:
            record.choices = list(data.get("choices") or [])
            record.done_at = call.at
        elif kind != 6:
            raise _ApiError(400, 50035, f"fake: unsupported interaction response type {kind}")
        return out

    async def _followup(self, call: ApiCall, app: str, token: str) -> dict[str, Any]:
        record = self._interaction_of("", token)
        if not record.answered:
            raise _ApiError(404, 10015, "Unknown Webhook")
        body = call.body or {}
        record.followups.append(body)
        original = record.response_message_id
        loading = original is not None and original not in self.deleted
        if loading and original is not None and self.messages[original]["flags"] & LOADING:
            # the first follow-up of a deferred message fills the loading message
            msg = dict(self.messages[original])
            msg["flags"] &= ~LOADING
            self.messages[original] = msg
            msg = self._edit(original, body, "webhook")
        else:
            msg = self._new_message(record.channel_id, body, interaction=record)
            self._attach(msg, call.files)
            self._emit(msg, created=True, via="webhook")
        record.messages.append(int(msg["id"]))
        record.done_at = call.at
        return msg

    def _webhook_target(self, record: FakeInteraction, message: str) -> int:
        if message == "@original":
            target = record.response_message_id or record.message_id
            if target is None:
                raise _ApiError(404, 10008, "Unknown Message")
            return target
        return int(message)

    async def _edit_webhook_message(
        self, call: ApiCall, app: str, token: str, message: str
    ) -> dict[str, Any]:
        record = self._interaction_of("", token)
        mid = self._webhook_target(record, message)
        msg = self._edit(mid, call.body or {}, "webhook")
        record.messages.append(mid)
        record.done_at = call.at
        return msg

    async def _get_webhook_message(
        self, call: ApiCall, app: str, token: str, message: str
    ) -> dict[str, Any]:
        record = self._interaction_of("", token)
        return self.messages[self._webhook_target(record, message)]

    async def _delete_webhook_message(
        self, call: ApiCall, app: str, token: str, message: str
    ) -> None:
        record = self._interaction_of("", token)
        self.deleted.add(self._webhook_target(record, message))
        return None

    # -- gateway -----------------------------------------------------------------------------
    def _everyone(self) -> dict[str, Any]:
        """The guild's @everyone role (the bot holds no other)."""
        permissions = MEMBER_PERMISSIONS & ~(1 << 11) if self.guild_locked else MEMBER_PERMISSIONS
        return {
            "id": str(self.guild_id),
            "name": "@everyone",
            "permissions": str(permissions),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def _bot_role(self) -> dict[str, Any]:
        """The role :data:`BOT_ROLE_ID`: what @everyone has unlocked, Send Messages included."""
        manage = MANAGE_THREADS if self.bot_role_manages_threads else 0
        return dict(
            self._everyone(), id=str(BOT_ROLE_ID), name="OFC", position=1,
            permissions=str(MEMBER_PERMISSIONS | manage),
        )  # fmt: skip

    async def give_bot_manage_threads(self) -> None:
        """An admin gives the role :data:`BOT_ROLE_ID` Manage Threads (GUILD_ROLE_UPDATE)
        and the bot's member that role (GUILD_MEMBER_UPDATE, :meth:`set_bot_role`): a
        thread locked takes the bot's writes from then on, as Discord's do."""
        self.bot_role_manages_threads = True
        await self.dispatch(
            "GUILD_ROLE_UPDATE", {"guild_id": str(self.guild_id), "role": self._bot_role()}
        )
        await self.set_bot_role(True)

    def _lock_text_channels(self) -> None:
        """Writes to every text channel refused (403/50013) while @everyone may not send
        and the bot holds no role that may (:meth:`lock_guild`, :meth:`set_bot_role`)."""
        channels = [cid for cid, c in self.channels.items() if c["type"] == 0]
        if self.guild_locked and BOT_ROLE_ID not in self.bot_roles:
            self.locked_channels.update(channels)
        else:
            self.locked_channels.difference_update(channels)

    async def lock_guild(self, *, locked: bool = True) -> None:
        """An admin takes Send Messages from @everyone (``locked``) or gives it back: while
        it is taken (and the bot holds no role of its own, :meth:`set_bot_role`), writes to
        every channel answer 403/50013, and the bot gets GUILD_ROLE_UPDATE with the role's
        new permissions."""
        self.guild_locked = locked
        self._lock_text_channels()
        await self.dispatch(
            "GUILD_ROLE_UPDATE", {"guild_id": str(self.guild_id), "role": self._everyone()}
        )

    def _bot_timed_out(self) -> bool:
        """Whether the bot's member is timed out now (:meth:`time_out_bot`)."""
        until = self.bot_timed_out_until
        return until is not None and time.time() < until

    async def time_out_bot(self, seconds: float | None) -> None:
        """A server admin times the bot's member out for ``seconds`` (``None``: lifts the
        timeout): its writes to the guild's channels answer 403/50013 until then, as
        Discord's do (a timed-out member may not send), and the bot gets GUILD_MEMBER_UPDATE
        with ``communication_disabled_until``. A timeout that runs out says nothing (Discord
        sends no event): writes are simply taken again."""
        self.bot_timed_out_until = None if seconds is None else time.time() + seconds
        data = dict(self._bot_member(), guild_id=str(self.guild_id))
        await self.dispatch("GUILD_MEMBER_UPDATE", data)

    def _bot_member(self) -> dict[str, Any]:
        """The bot's guild member (GUILD_CREATE, GUILD_MEMBER_UPDATE)."""
        until = self.bot_timed_out_until
        disabled = (
            None
            if until is None
            else datetime.datetime.fromtimestamp(until, datetime.UTC).isoformat()
        )
        return {
            "communication_disabled_until": disabled,
            "user": dict(BOT_USER),
            "roles": [str(r) for r in self.bot_roles],
            "flags": 0,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "nick": None,
            "avatar": None,
            "pending": False,
        }

    async def set_bot_role(self, held: bool) -> None:
        """An admin gives the bot's member the role :data:`BOT_ROLE_ID` (``held``) or takes
        it away: with @everyone locked (:meth:`lock_guild`) the bot may write only while it
        holds it (writes answer 403/50013 otherwise); the bot gets GUILD_MEMBER_UPDATE for
        its own member, which Discord sends whatever the intents."""
        self.bot_roles = [BOT_ROLE_ID] if held else []
        self._lock_text_channels()
        data = dict(self._bot_member(), guild_id=str(self.guild_id))
        await self.dispatch("GUILD_MEMBER_UPDATE", data)

    async def kick_bot(self, *, announce: bool = True) -> None:
        """An admin kicks the bot from the guild: from now on its writes to the guild's
        channels answer 403/50001 (Missing Access), a new connection's READY does not list
        the guild, and (``announce``) a connected bot gets GUILD_DELETE without
        ``unavailable`` (discord.py's ``on_guild_remove``), which a bot away meanwhile
        never sees."""
        self.bot_kicked = True
        if announce:
            await self.dispatch("GUILD_DELETE", {"id": str(self.guild_id)})

    async def invite_bot(self) -> None:
        """The bot is invited back into the guild: writes are taken again and a connected
        bot gets GUILD_CREATE without ``unavailable`` (``on_guild_join``)."""
        self.bot_kicked = False
        joined = {k: v for k, v in self.guild_json().items() if k != "unavailable"}
        await self.dispatch("GUILD_CREATE", joined)

    async def remove_member(self, user: FakeUser, *, ban: bool = False) -> None:
        """``user`` leaves the guild, or is kicked (``ban``: banned): the bot gets
        GUILD_MEMBER_REMOVE, after GUILD_BAN_ADD for a ban (each only with its intent:
        members, moderation). Sharing no other guild with the bot, the user's DMs are
        closed to it from now on (403/50007)."""
        self.gone.add(user.id)
        self.closed_dms.add(user.id)
        guild = str(self.guild_id)
        if ban:
            await self.dispatch("GUILD_BAN_ADD", {"guild_id": guild, "user": user.to_json()})
        await self.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": guild, "user": user.to_json()})

    def guild_json(self) -> dict[str, Any]:
        """GUILD_CREATE's guild: the channels, the @everyone role and the bot as member."""
        bot_member = self._bot_member()
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": "1",
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_flags": 0,
            "features": [],
            "roles": [self._everyone(), self._bot_role()],
            "emojis": [],
            "stickers": [],
            "channels": [c for c in self.channels.values() if c["type"] not in THREAD_TYPES],
            "threads": [c for c in self.channels.values() if c["type"] in THREAD_TYPES],
            "members": [bot_member],
            "member_count": 1,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "large": False,
            "unavailable": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
        }

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        hello = {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
        await ws.send_str(json.dumps(hello))
        try:
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                payload = json.loads(frame.data)
                op = payload.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    token = str(payload["d"].get("token", "")).removeprefix("Bot ")
                    if token != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    if self.close_identify is not None:
                        await ws.close(code=self.close_identify, message=b"closed for good")
                        break
                    self._sockets.add(ws)
                    shard = payload["d"].get("shard") or [0, 1]
                    self._shards[ws] = (int(shard[0]), int(shard[1]))
                    self._intents[ws] = int(payload["d"].get("intents") or 0)
                    self.identified.append(self._shards[ws])
                    mine = self._on_shard(ws, self.guild_id) and not self.bot_kicked
                    ready = self._ready(with_guild=mine)
                    if "shard" in payload["d"]:  # Discord tells a sharded client its shard
                        ready["shard"] = list(self._shards[ws])
                    await self._send(ws, "READY", ready)
                    if mine:
                        if self.guild_create_delay:
                            await asyncio.sleep(self.guild_create_delay)
                        await self._send(ws, "GUILD_CREATE", self.guild_json())
                elif op == 6:
                    self._sockets.add(ws)
                    await self._send(ws, "RESUMED", {})
        finally:
            self._sockets.discard(ws)
            self._shards.pop(ws, None)
            self._intents.pop(ws, None)
        return ws

    def _on_shard(self, ws: web.WebSocketResponse, guild_id: int | None) -> bool:
        """Whether the connection's shard gets a guild's events (Discord's rule:
        ``(guild_id >> 22) % shard_count``). An event without a guild (a DM, and so every
        interaction in a DM) goes to shard 0 only, as Discord sends it: "DMs will only be
        sent to shard_id 0" (Discord's gateway docs, Sharding,
        https://discord.com/developers/docs/events/gateway#sharding; the rule since
        discord-api-docs issue 17). Tests of several workers rely on it
        (``tests/bot/discord/test_dm_forwarding.py``)."""
        shard, count = self._shards.get(ws, (0, 1))
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard

    def _ready(self, *, with_guild: bool = True) -> dict[str, Any]:
        guilds = [{"id": str(self.guild_id), "unavailable": True}] if with_guild else []
        return {
            "v": 10,
            "user": dict(BOT_USER),
            "guilds": guilds,
            "session_id": f"session{self.snowflake()}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    async def _send(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        self._seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a dispatch event to every identified client.

        :raises RuntimeError: if no client is connected.
        """
        if not self._sockets:
            raise RuntimeError("no client is connected to the fake gateway")
        guild = data.get("guild_id") if isinstance(data, dict) else None
        for ws in list(self._sockets):
            if self._on_shard(ws, None if guild is None else int(guild)) and self._intended(
                ws, event, data
            ):
                await self._send(ws, event, data)

    def _intended(self, ws: web.WebSocketResponse, event: str, data: Any) -> bool:
        """Whether the connection asked for ``event`` (Discord's intents, as far as the fake
        sends events that need them): GUILD_MEMBER_* need the privileged members intent, but
        for the bot's own GUILD_MEMBER_UPDATE, sent "regardless of whether the GUILD_MEMBERS
        intent is set" (Discord's gateway docs, Gateway Intents, Caveats); GUILD_BAN_* need
        the moderation intent; MESSAGE_* (not MESSAGE_REACTION_*) the guild messages intent
        (with a ``guild_id``) or the direct messages one. A connection that sent no intents
        (resumed) gets them all."""
        intents = self._intents.get(ws)
        if intents is None:
            return True
        if event == "GUILD_MEMBER_UPDATE" and str(data["user"]["id"]) == str(BOT_ID):
            return True
        if event.startswith("GUILD_MEMBER_"):
            return bool(intents & GUILD_MEMBERS_INTENT)
        if event.startswith("GUILD_BAN_"):
            return bool(intents & GUILD_MODERATION_INTENT)
        if event.startswith("MESSAGE_") and not event.startswith("MESSAGE_REACTION_"):
            guild = isinstance(data, dict) and data.get("guild_id") is not None
            return bool(intents & (GUILD_MESSAGES_INTENT if guild else DIRECT_MESSAGES_INTENT))
        return True

    @property
    def connected(self) -> bool:
        """A client has identified on the gateway."""
        return bool(self._sockets)

    @property
    def connections(self) -> list[tuple[int, int]]:
        """``(shard id, shard count)`` of every gateway connection open now, sorted (the same
        shard twice: two clients get its guilds' events)."""
        return sorted(self._shards[ws] for ws in self._sockets if ws in self._shards)

    # -- the world: users act -----------------------------------------------------------------
    def _interaction(
        self,
        kind: int,
        user: FakeUser,
        channel_id: int,
        data: dict[str, Any],
        message: dict[str, Any] | None,
        admin: bool | None,
    ) -> FakeInteraction:
        self.users[user.id] = user
        iid = self.snowflake()
        token = f"tok{iid}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": 8 * 1024 * 1024,
            "locale": user.locale,
            "app_permissions": str(MEMBER_PERMISSIONS),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "data": data,
        }
        if channel_id in self.channels:
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = "en-US"
            payload["channel_id"] = str(channel_id)
            payload["channel"] = self.channels[channel_id]
            payload["member"] = user.member_json(admin)
            payload["context"] = 0
        else:
            payload["channel_id"] = str(channel_id)
            payload["channel"] = self._dm_channel_json(user.id, channel_id)
            payload["user"] = user.to_json()
            payload["context"] = 1
        if message is not None:
            payload["message"] = message
        record = FakeInteraction(
            id=iid,
            token=token,
            type=kind,
            user=user,
            channel_id=channel_id,
            payload=payload,
            sent_at=0.0,
            message_id=int(message["id"]) if message is not None else None,
        )
        self.interactions[iid] = record
        self._by_token[token] = record
        return record

    async def _send_interaction(self, record: FakeInteraction) -> FakeInteraction:
        record.sent_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", record.payload)
        return record

    def command_id(self, name: str = "ofc") -> str:
        """The id Discord gave a synced command (made up if it was never synced)."""
        for c in self.commands:
            if c["name"] == name:
                return str(c["id"])
        return str(APP_ID + 1)

    async def slash(
        self,
        user: FakeUser,
        subcommand: str,
        options: Mapping[str, str | int | FakeUser] | None = None,
        *,
        channel_id: int = CHANNEL_ID,
        group: str = "ofc",
        admin: bool | None = None,
        left: Collection[int] = (),
    ) -> FakeInteraction:
        """``user`` runs ``/group subcommand`` with ``options`` (strings, integers or users).

        :param left: ids of users named in ``options`` who are no longer members of the guild:
            Discord resolves them as users only, without member data."""
        opts: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for name, value in (options or {}).items():
            if isinstance(value, FakeUser):
                self.users[value.id] = value
                opts.append({"name": name, "type": 6, "value": str(value.id)})
                resolved.setdefault("users", {})[str(value.id)] = value.to_json()
                if value.id in left:
                    continue
                member = value.member_json()
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            elif isinstance(value, bool) or not isinstance(value, int):
                opts.append({"name": name, "type": 3, "value": str(value)})
            else:
                opts.append({"name": name, "type": 4, "value": value})
        data: dict[str, Any] = {
            "id": self.command_id(group),
            "name": group,
            "type": 1,
            "options": [{"name": subcommand, "type": 1, "options": opts}],
        }
        if channel_id in self.channels:
            data["guild_id"] = str(self.guild_id)
        if resolved:
            data["resolved"] = resolved
        record = self._interaction(2, user, channel_id, data, None, admin)
        return await self._send_interaction(record)

    async def autocomplete(
        self,
        user: FakeUser,
        subcommand: str,
        option: str,
        typed: str,
        *,
        group: str = "ofc",
        channel_id: int = CHANNEL_ID,
    ) -> FakeInteraction:
        """``user`` types ``typed`` into the option ``option`` of ``/group subcommand``:
        Discord asks the bot for suggestions (an autocomplete interaction, answered with
        response type 8, :attr:`FakeInteraction.choices`)."""
        focused = {"name": option, "type": 3, "value": typed, "focused": True}
        data: dict[str, Any] = {
            "id": self.command_id(group),
            "name": group,
            "type": 1,
            "options": [{"name": subcommand, "type": 1, "options": [focused]}],
        }
        if channel_id in self.channels:
            data["guild_id"] = str(self.guild_id)
        record = self._interaction(AUTOCOMPLETE, user, channel_id, data, None, None)
        return await self._send_interaction(record)

    async def press(
        self,
        user: FakeUser,
        message: dict[str, Any] | int,
        custom_id: str,
        values: list[str] | None = None,
        *,
        admin: bool | None = None,
        gone: bool = False,
    ) -> FakeInteraction:
        """``user`` presses the button ``custom_id`` of ``message`` (a stored message id or a
        copy of a message, e.g. one kept from before an edit), or chooses ``values`` in the
        select ``custom_id``.

        :param gone: the button ``custom_id`` is no longer on ``message``: a double click
            racing an edit, delivered as Discord does, with the message as it is now.
        :raises KeyError: the message has no such component (a user cannot press it) and
            ``gone`` is not set.
        """
        msg = self.messages[message] if isinstance(message, int) else message
        component = next(
            (c for row in msg.get("components", []) for c in row.get("components", [])
             if c.get("custom_id") == custom_id),
            None,
        )  # fmt: skip
        if component is None and gone:
            component = {"type": 2}  # the button that was there before the edit
        elif component is None:
            raise KeyError(f"no component {custom_id!r} on message {msg['id']}")
        elif gone:
            raise AssertionError(f"{custom_id!r} is still on message {msg['id']}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == 3:
            data["values"] = list(values or [])
        record = self._interaction(3, user, int(msg["channel_id"]), data, msg, admin)
        return await self._send_interaction(record)

    async def submit_form(
        self,
        user: FakeUser,
        custom_id: str,
        fields: Mapping[str, str] | None = None,
        *,
        channel_id: int = CHANNEL_ID,
    ) -> FakeInteraction:
        """``user`` submits a form (a modal, MODAL_SUBMIT) with ``custom_id`` and text inputs
        ``fields`` (custom_id → value): what a client sends for a modal the bot opened, or a
        forged one."""
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
            for k, v in (fields or {}).items()
        ]
        data: dict[str, Any] = {"custom_id": custom_id, "components": rows}
        record = self._interaction(5, user, channel_id, data, None, None)
        return await self._send_interaction(record)

    # -- control routes (for a benchmark in another process) -----------------------------------
    def _user(self, uid: Any) -> FakeUser:
        user = self.users.get(int(uid))
        return user if user is not None else FakeUser(int(uid), f"U{uid}")

    async def _answered(self, record: FakeInteraction, wait: bool) -> web.Response:
        if wait:
            await asyncio.wait_for(record.answered_event.wait(), 10)
        return _json({"id": str(record.id), "callback_type": record.callback_type})

    async def _control_press(self, request: web.Request) -> web.Response:
        """``{"user", "message", "custom_id", "values"?, "wait"?}``: a press; with ``wait``
        the answer comes once the bot has answered the interaction. A press no user could
        make is refused, nothing sent to the bot: a message that does not exist (or was
        deleted) answers 404, a component the message does not carry (not yet: an edit or
        a new hand message still on its way; or no more) 409, each with a JSON body
        ``{"message", "code"}`` (the ``KeyError`` of :meth:`press` was aiohttp's bare 500,
        which a driver could not tell from the fake failing)."""
        body = await request.json()
        mid = int(body["message"])
        msg = self.messages.get(mid)
        if msg is None or mid in self.deleted:
            return _json({"message": f"fake: no message {mid}", "code": 10008}, 404)
        try:
            record = await self.press(
                self._user(body["user"]), msg, body["custom_id"], body.get("values")
            )
        except KeyError as exc:
            return _json({"message": f"fake: {exc.args[0]}", "code": 0}, 409)
        return await self._answered(record, bool(body.get("wait")))

    async def _control_slash(self, request: web.Request) -> web.Response:
        """``{"user", "command", "channel", "options"?, "wait"?}``: a slash command."""
        body = await request.json()
        record = await self.slash(
            self._user(body["user"]),
            body["command"],
            body.get("options"),
            channel_id=int(body["channel"]),
        )
        return await self._answered(record, bool(body.get("wait")))

    async def _control_interactions(self, request: web.Request) -> web.Response:
        """Every interaction sent: id, type, sent/answered/done times (monotonic)."""
        out = [
            {
                "id": str(r.id),
                "type": r.type,
                "sent_at": r.sent_at,
                "callback_at": r.callback_at,
                "callback_type": r.callback_type,
                "done_at": r.done_at,
            }
            for r in self.interactions.values()
        ]
        return _json(out)

    async def _control_message(self, request: web.Request) -> web.Response:
        mid = int(request.match_info["message"])
        if mid not in self.messages:
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        return _json(self.messages[mid])

    # -- reading what the bot did -------------------------------------------------------------
    def channel_messages(
        self, channel_id: int = CHANNEL_ID, *, ephemeral: bool = False
    ) -> list[dict[str, Any]]:
        """The bot's messages in a channel, oldest first (public ones unless ``ephemeral``)."""
        return [
            m
            for mid, m in sorted(self.messages.items())
            if int(m["channel_id"]) == channel_id
            and mid not in self.deleted
            and bool(m["flags"] & EPHEMERAL) == ephemeral
        ]

    def dm_messages(self, user_id: int) -> list[dict[str, Any]]:
        """The bot's messages in a user's DM channel that were not deleted, oldest first."""
        cid = self.dm_channels.get(user_id)
        return [] if cid is None else self.channel_messages(cid)

    def calls_to(self, method: str, path_prefix: str) -> list[ApiCall]:
        """Recorded requests with this method whose path starts with ``path_prefix``."""
        return [c for c in self.calls if c.method == method and c.path.startswith(path_prefix)]

    @staticmethod
    def components(message: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every component of a message (buttons and selects), row by row."""
        return [c for row in message.get("components", []) for c in row.get("components", [])]


async def _serve(port: int, token: str, channels: int) -> None:  # pragma: no cover - benchmark
    fake = FakeDiscord(token, channels=tuple(CHANNEL_ID + i for i in range(channels)))
    await fake.start(port)
    print(fake.port, flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":  # pragma: no cover
    import sys

    asyncio.run(
        _serve(
            int(sys.argv[1]) if len(sys.argv) > 1 else 0,
            sys.argv[2] if len(sys.argv) > 2 else TOKEN,
            int(sys.argv[3]) if len(sys.argv) > 3 else 1,
        )
    )
