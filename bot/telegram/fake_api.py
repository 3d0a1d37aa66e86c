"""A local fake of the Telegram Bot API on 127.0.0.1 (aiohttp).

The real python-telegram-bot :class:`~telegram.ext.Application` talks to it through
``base_url``. It serves ``getMe``, ``deleteWebhook`` and long-polling ``getUpdates`` (or, after
``setWebhook``, POSTs each update to the webhook with its secret token), keeps the
messages the bot sends and edits (so tests and the sandbox can read the buttons the bot really
sent), answers ``getChatMember`` from a list of admins, and records every call. It answers as
Telegram does when the world changes: 403 for users who never started the bot or blocked it,
400 "message to edit not found" for a deleted message (and "message to be replied not
found" for a reply to one), 400 with ``migrate_to_chat_id`` for a
group upgraded to a supergroup (whose service messages it also delivers), the bot's sends
to a group made read-only (its default permissions, which ``getChat`` shows); and it refuses on
demand (:meth:`FakeTelegram.fail_when`, e.g. a 429 with ``retry_after``: :func:`too_many`),
answers late (:meth:`FakeTelegram.stall`) or resets the connection (:meth:`FakeTelegram.drop`).
With :attr:`FakeTelegram.conflicts` on it answers 409 ``Conflict`` as Telegram does when two
processes poll with one token (a pending ``getUpdates`` ended by a newer one, or by
``setWebhook``: "terminated by setWebhook request") or when ``getUpdates`` comes while a
webhook is set.
``sendPhoto`` takes a multipart upload: the file's bytes are kept with the call
(:attr:`ApiCall.files`) and in :attr:`FakeTelegram.photos`.

Used by the end-to-end tests, the benchmark and the terminal sandbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

__all__ = ["DEFAULT_TOKEN", "ApiCall", "FakeTelegram", "FakeUser", "Photo", "too_many"]

BOT_ID = 900000001
#: The token the fake answers to unless told another: shaped like @BotFather's (digits, a colon,
#: 30-50 letters), so ``TELEGRAM_BOT_TOKEN`` pointed at the fake passes the bot's own check.
DEFAULT_TOKEN = f"{BOT_ID}:TEST-local-fake-bot-api-token-000"
#: the user Telegram shows as the sender of a group's service messages and of what its
#: anonymous admins write (GroupAnonymousBot)
ANONYMOUS_ADMIN = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
#: the user Telegram shows as the sender of what a member writes on behalf of their channel
CHANNEL_BOT = {
    "id": 136817688,
    "is_bot": True,
    "first_name": "Channel",
    "username": "Channel_Bot",
}
#: the user Telegram shows as the sender of a linked channel's post forwarded to its
#: discussion group (``is_automatic_forward``): an account, not a bot
TELEGRAM_SERVICE = {"id": 777000, "is_bot": False, "first_name": "Telegram"}
BOT_USERNAME = "ofc_test_bot"
#: Telegram's 409 descriptions: two processes polling with one token, a long poll ended by
#: ``setWebhook``, and getUpdates while a webhook is set
TERMINATED = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)
SET_WEBHOOK_ENDED = "Conflict: terminated by setWebhook request"
WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to "
    "delete the webhook first"
)


@dataclass(frozen=True)
class FakeUser:
    """A Telegram user of the fake world."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    last_name: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


def too_many(retry_after: int) -> tuple[int, dict[str, Any]]:
    """The status and body of Telegram's 429 (``RetryAfter`` in python-telegram-bot)."""
    body = {
        "ok": False,
        "error_code": 429,
        "description": f"Too Many Requests: retry after {retry_after}",
        "parameters": {"retry_after": retry_after},
    }
    return 429, body


@dataclass
class ApiCall:
    """One request the bot made: method name, parameters (JSON values decoded), when, and
    the files uploaded with it (multipart field name → bytes)."""

    method: str
    params: dict[str, Any]
    at: float = field(default_factory=time.monotonic)
    files: dict[str, bytes] = field(default_factory=dict)
    #: what the method returned (say the sent message), once it has
    result: Any = None


@dataclass(frozen=True)
class Photo:
    """A photo the bot sent: where, the uploaded bytes, the caption, the message id."""

    chat_id: int
    data: bytes
    caption: str
    message_id: int


def _reply_target(p: dict[str, Any]) -> int | None:
    """The message a send replies to (``reply_parameters`` or the older
    ``reply_to_message_id``), if any."""
    rp = p.get("reply_parameters") or {}
    target = rp.get("message_id") or p.get("reply_to_message_id")
    return None if target is None else int(target)


class FakeTelegram:
    """The fake Bot API server. ``await start()`` then point the bot at :attr:`base_url`."""

    def __init__(self, token: str = DEFAULT_TOKEN, *, open_private: bool = False) -> None:
        self.token = token
        #: treat every user as having started the bot (no 403 in private chats)
        self.open_private = open_private
        self.calls: list[ApiCall] = []
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}  # (chat, message id) → message
        #: (chat, message id) of the messages that answer a user's message
        self.replies: set[tuple[int, int]] = set()
        self.started_users: set[int] = set()  # users who pressed Start in the private chat
        self.admins: dict[int, set[int]] = {}  # chat id → admin user ids
        self.chats: dict[int, dict[str, Any]] = {}
        self.fail_next: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        #: one-off refusals of the first call that matches (see :meth:`fail_when`)
        self.failures: list[tuple[Callable[[ApiCall], bool], int, dict[str, Any]]] = []
        #: refusals of every call that matches, until :meth:`recover` (see :meth:`outage`)
        self.outages: list[tuple[Callable[[ApiCall], bool], int, dict[str, Any]]] = []
        #: calls done but answered late (see :meth:`stall`)
        self.stalls: list[tuple[Callable[[ApiCall], bool], float]] = []
        #: calls whose connection is closed instead of answered, and whether after doing
        #: them (see :meth:`drop`)
        self.drops: list[tuple[Callable[[ApiCall], bool], bool]] = []
        self.blocked_users: set[int] = set()  # users who blocked the bot
        self.migrated: dict[int, int] = {}  # group id → its supergroup's id
        self.removed_from: set[int] = set()  # groups the bot was removed from
        self.muted_in: set[int] = set()  # groups where the bot may not send messages
        #: groups whose default permissions forbid members to send messages (an admin made
        #: the group read-only: Telegram tells the bot nothing): a send of the bot there is
        #: refused as when it is muted, unless it is an administrator (:attr:`admins`);
        #: ``getChat`` shows them (``permissions``)
        self.read_only: set[int] = set()
        #: when (``time.time()``) the bot's restriction in a group of :attr:`muted_in` runs
        #: out by itself (Telegram sends no update then); absent: restricted forever
        self.mute_ends: dict[int, float] = {}
        #: forum topics an admin closed, ``(chat, topic)``: a send there is refused with
        #: ``TOPIC_CLOSED`` (a bot without the right to manage topics)
        self.closed_topics: set[tuple[int, int]] = set()
        #: forum topics an admin deleted, ``(chat, topic)``: a send there is refused with
        #: ``message thread not found``, as Telegram refuses ``message_thread_id`` 1 (the
        #: General topic is written to without one)
        self.deleted_topics: set[tuple[int, int]] = set()
        self.photos: list[Photo] = []  # every sendPhoto that was accepted, in order
        #: the update kinds the bot asked for last (``allowed_updates`` of ``getUpdates`` or
        #: ``setWebhook``; a call without it keeps the last, as Telegram does); ``None``:
        #: never asked, Telegram's default, which leaves ``chat_member`` out
        self.allowed_updates: list[str] | None = None
        self._updates: list[dict[str, Any]] = []
        self.pushed: dict[int, dict[str, Any]] = {}  # update_id → every update pushed
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._cond = asyncio.Condition()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.listeners: list[Callable[[ApiCall], None]] = []
        #: the webhook set by ``setWebhook``: (url, secret token); updates are then POSTed
        #: there (with ``X-Telegram-Bot-Api-Secret-Token``) instead of served by getUpdates
        self.webhook: tuple[str, str | None] | None = None
        #: (update_id, HTTP status or 0 for a connection error) of every webhook attempt
        self.deliveries: list[tuple[int, int]] = []
        self._delivering: set[asyncio.Task[None]] = set()
        self._session: Any = None
        #: answer as Telegram does to two pollers of one token: a pending ``getUpdates`` is
        #: ended by the next one with 409 "terminated by other getUpdates request", and a
        #: ``getUpdates`` while a webhook is set is refused with 409 (off: old tests' world)
        self.conflicts = False
        self.conflicted = 0  #: how many getUpdates were answered 409
        self._polls = itertools.count(1)
        self._last_poll = 0
        self._ended_by = TERMINATED  # (the 409 a pending poll ended by another call gets)
        self._held_until = 0.0  # (monotonic: :meth:`hold_poll`)
        #: seconds: :meth:`hold_poll` from the next ``getUpdates`` on (a bot started right
        #: after a process with this token was killed: Telegram holds that one's long poll)
        self.hold_first_polls = 0.0

    # -- server ------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/bot`` (the token is appended by the client)."""
        return f"http://127.0.0.1:{self.port}/bot"

    async def start(self, port: int = 0) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/_calls", self._dump_calls)
        app.router.add_post("/_fail", self._control_fail)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def release_polls(self) -> None:
        """Answer pending and future ``getUpdates`` at once (lets a client stop polling quickly)."""
        self._closing = True
        async with self._cond:
            self._cond.notify_all()

    async def stop(self) -> None:
        await self.release_polls()
        for task in list(self._delivering):
            task.cancel()
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _dump_calls(self, request: web.Request) -> web.Response:
        """Every recorded call as JSON (method, monotonic arrival time, parameters): lets a
        benchmark in another process see when each call arrived."""
        since = int(request.query.get("since", "0"))
        out = [{"method": c.method, "at": c.at, "params": c.params} for c in self.calls[since:]]
        return web.json_response(out)

    async def _control_fail(self, request: web.Request) -> web.Response:
        """``{"method", "private"?, "status", "body"}``: refuse the next call of ``method`` (to
        a private chat only, with ``private``) with ``status`` and ``body`` (a benchmark in
        another process uses it)."""
        spec = await request.json()
        method, private = str(spec["method"]), bool(spec.get("private"))

        def match(call: ApiCall) -> bool:
            chat = int(call.params.get("chat_id") or 0)
            return call.method == method and (not private or chat > 0)

        self.fail_when(match, int(spec["status"]), dict(spec["body"]))
        return web.json_response({"ok": True})

    async def _params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
        """The call's parameters and its uploaded files (multipart: field name → bytes)."""
        if request.content_type == "application/json":
            raw: dict[str, Any] = await request.json()
            return raw, {}
        data = await request.post()
        out: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        for k, v in data.items():
            if isinstance(v, web.FileField):
                files[k] = v.file.read()
                continue
            if not isinstance(v, str):
                continue
            try:
                out[k] = json.loads(v)
            except ValueError:
                out[k] = v
        return out, files

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        params, files = await self._params(request)
        call = ApiCall(method, params, files=files)
        self.calls.append(call)
        for listener in list(self.listeners):
            listener(call)
        failures = self.fail_next.get(method)
        if failures:
            status, body = failures.pop(0)
            return web.json_response(body, status=status)
        for n, (match, status, body) in enumerate(self.failures):
            if match(call):
                del self.failures[n]
                return web.json_response(body, status=status)
        for match, status, body in self.outages:
            if match(call):
                return web.json_response(body, status=status)
        dropped = next(((m, d) for m, d in self.drops if m(call)), None)
        if dropped is not None:
            self.drops.remove(dropped)
            if not dropped[1]:
                return self._dropped(request)
        moved = self.migrated.get(int(params.get("chat_id") or 0))
        if moved is not None:
            body = {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: group chat was upgraded to a supergroup chat",
                "parameters": {"migrate_to_chat_id": moved},
            }
            return web.json_response(body, status=400)
        if int(params.get("chat_id") or 0) in self.removed_from:
            body = {
                "ok": False,
                "error_code": 403,
                "description": "Forbidden: bot was kicked from the group chat",
            }
            return web.json_response(body, status=403)
        muted = int(params.get("chat_id") or 0)
        if muted in self.mute_ends and time.time() >= self.mute_ends[muted]:
            self.muted_in.discard(muted)  # (the restriction ran out)
            del self.mute_ends[muted]
        read_only = muted in self.read_only and BOT_ID not in self.admins.get(muted, set())
        if (muted in self.muted_in or read_only) and method.startswith("send"):
            body = {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: not enough rights to send text messages to the chat",
            }
            return web.json_response(body, status=400)
        handler = getattr(self, "_m_" + method, None)
        if handler is None:
            return web.json_response({"ok": True, "result": True})
        try:
            result = await (
                self._m_sendPhoto(params, files) if method == "sendPhoto" else handler(params)
            )
            call.result = result
        except _ApiError as exc:
            return web.json_response(
                {"ok": False, "error_code": exc.code, "description": exc.description},
                status=exc.code,
            )
        if dropped is not None:  # (done: the connection closes before the answer)
            return self._dropped(request)
        for match, seconds in list(self.stalls):
            if match(call):
                self.stalls.remove((match, seconds))
                await asyncio.sleep(seconds)  # (done: the answer is late, or lost to a timeout)
                break
        return web.json_response({"ok": True, "result": result})

    # -- API methods -------------------------------------------------------------------------
    async def _m_getMe(self, p: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "OFC",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def _m_getUpdates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        if p.get("allowed_updates") is not None:
            self.allowed_updates = [str(kind) for kind in p["allowed_updates"]]
        offset = int(p.get("offset") or 0)
        timeout = float(p.get("timeout") or 0)
        deadline = time.monotonic() + timeout
        if self.conflicts and self.webhook is not None:
            self.conflicted += 1
            raise _ApiError(409, WEBHOOK_ACTIVE)
        if self.hold_first_polls:
            self._held_until = time.monotonic() + self.hold_first_polls
            self.hold_first_polls = 0.0
        if time.monotonic() < self._held_until:
            self.conflicted += 1
            raise _ApiError(409, TERMINATED)
        poll = self._last_poll = next(self._polls)
        self._ended_by = TERMINATED
        async with self._cond:
            self._cond.notify_all()  # (a pending poll of another process is ended)
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            while not self._updates and not self._closing:
                if self.conflicts and self._last_poll != poll:
                    self.conflicted += 1
                    raise _ApiError(409, self._ended_by)
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._cond.wait(), left)
            return list(self._updates[:100])

    async def _m_setWebhook(self, p: dict[str, Any]) -> bool:
        if p.get("allowed_updates") is not None:
            self.allowed_updates = [str(kind) for kind in p["allowed_updates"]]
        secret = p.get("secret_token")
        self.webhook = (str(p["url"]), None if secret is None else str(secret))
        if self.conflicts:  # (Telegram ends a pending long poll: 409 "terminated by setWebhook")
            self._last_poll = next(self._polls)
            self._ended_by = SET_WEBHOOK_ENDED
            async with self._cond:
                self._cond.notify_all()
        return True

    async def _m_deleteWebhook(self, p: dict[str, Any]) -> bool:
        self.webhook = None
        return True

    async def hold_poll(self, seconds: float) -> None:
        """For ``seconds``, answer every ``getUpdates`` 409 "terminated by other getUpdates
        request" (a pending one too, with :attr:`conflicts` on), as Telegram does while it
        still holds a long poll whose client is gone: a process killed (``kill -9``) or
        crashed just before this one started, or a poll a network blip made the client
        issue again (brk54)."""
        self._held_until = time.monotonic() + seconds
        self._last_poll = next(self._polls)
        self._ended_by = TERMINATED
        async with self._cond:
            self._cond.notify_all()

    async def _m_getWebhookInfo(self, p: dict[str, Any]) -> dict[str, Any]:
        url = "" if self.webhook is None else self.webhook[0]
        return {"url": url, "has_custom_certificate": False, "pending_update_count": 0}

    async def _deliver(self, update: dict[str, Any], url: str, secret: str | None) -> None:
        import aiohttp

        if self._session is None:
            self._session = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
        deadline = time.monotonic() + 60.0
        while time.monotonic() < deadline:
            status = 0
            with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
                async with self._session.post(
                    url, json=update, headers=headers, timeout=aiohttp.ClientTimeout(total=30)
                ) as resp:
                    status = resp.status
            self.deliveries.append((int(update["update_id"]), status))
            if 200 <= status < 300:
                return
            await asyncio.sleep(0.2)

    def _chat_of(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
        return {"id": chat_id, "type": "supergroup", "title": f"group{chat_id}"}

    def _check_private(self, chat_id: int) -> None:
        if chat_id in self.blocked_users:
            raise _ApiError(403, "Forbidden: bot was blocked by the user")
        if chat_id > 0 and not self.open_private and chat_id not in self.started_users:
            raise _ApiError(403, "Forbidden: bot can't initiate conversation with a user")

    def _check_reply(self, chat_id: int, p: dict[str, Any]) -> None:
        """A reply to a message that is gone (deleted by its author, an admin or another bot
        after it was sent) is refused as Telegram does, unless the call allows sending
        without the reply (``allow_sending_without_reply``)."""
        target = _reply_target(p)
        if target is None or (chat_id, target) in self.messages:
            return
        rp = p.get("reply_parameters") or {}
        if rp.get("allow_sending_without_reply") or p.get("allow_sending_without_reply"):
            return
        raise _ApiError(400, "Bad Request: message to be replied not found")

    def _topic(self, chat_id: int, p: dict[str, Any], msg: dict[str, Any]) -> None:
        """A message sent to a forum topic (``message_thread_id``, or a reply to a message in
        one: Telegram keeps a reply in its message's topic) carries the topic as Telegram's
        do; :meth:`topic_of` reads it. A topic that was deleted (or ``1``, the General
        topic, which Telegram refuses as a ``message_thread_id``) or closed is refused."""
        topic = p.get("message_thread_id")
        if topic is not None:
            where = (chat_id, int(topic))
            if int(topic) == 1 or where in self.deleted_topics:
                raise _ApiError(400, "Bad Request: message thread not found")
            if where in self.closed_topics:
                raise _ApiError(400, "Bad Request: TOPIC_CLOSED")
        if topic is None:
            target = _reply_target(p)
            quoted = self.messages.get((chat_id, target)) if target is not None else None
            topic = quoted.get("message_thread_id") if quoted else None
        if topic is not None:
            msg["message_thread_id"] = int(topic)
            msg["is_topic_message"] = True

    def topic_of(self, chat_id: int, message_id: int) -> int | None:
        """The forum topic a message is in (``None``: the chat's general one)."""
        msg = self.messages.get((chat_id, message_id)) or {}
        topic = msg.get("message_thread_id")
        return None if topic is None else int(topic)

    async def _m_sendMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(p["chat_id"])
        self._check_private(chat_id)
        self._check_reply(chat_id, p)
        msg: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": self._chat_of(chat_id),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "OFC", "username": BOT_USERNAME},
            "text": str(p.get("text", "")),
        }
        if p.get("reply_markup"):
            msg["reply_markup"] = p["reply_markup"]
        self._topic(chat_id, p, msg)
        self.messages[(chat_id, msg["message_id"])] = msg
        if p.get("reply_parameters") or p.get("reply_to_message_id"):
            self.replies.add((chat_id, msg["message_id"]))
        return msg

    async def _m_sendPhoto(self, p: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        """A photo uploaded as the multipart field ``photo`` (or ``attach://<field>``); a
        file id or URL is refused (this bot always uploads)."""
        chat_id = int(p["chat_id"])
        self._check_private(chat_id)
        self._check_reply(chat_id, p)
        ref = str(p.get("photo") or "")
        field_name = ref.removeprefix("attach://") if ref.startswith("attach://") else "photo"
        data = files.get(field_name)
        if not data:
            raise _ApiError(400, "Bad Request: there is no photo in the request")
        if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) > 10 * 1024 * 1024:
            raise _ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        mid = next(self._message_ids)
        size = {"width": width, "height": height, "file_size": len(data)}
        msg: dict[str, Any] = {
            "message_id": mid,
            "date": int(time.time()),
            "chat": self._chat_of(chat_id),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "OFC", "username": BOT_USERNAME},
            "photo": [{"file_id": f"photo{mid}", "file_unique_id": f"u{mid}", **size}],
        }
        caption = str(p.get("caption") or "")
        if caption:
            msg["caption"] = caption
        self._topic(chat_id, p, msg)
        self.messages[(chat_id, mid)] = msg
        self.photos.append(Photo(chat_id, data, caption, mid))
        return msg

    async def _m_editMessageText(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(p["chat_id"])
        if chat_id in self.blocked_users:
            raise _ApiError(403, "Forbidden: bot was blocked by the user")
        key = (chat_id, int(p["message_id"]))
        msg = self.messages.get(key)
        if msg is None:
            raise _ApiError(400, "Bad Request: message to edit not found")
        text = str(p.get("text", ""))
        markup = p.get("reply_markup")
        if msg.get("text") == text and msg.get("reply_markup") == markup:
            raise _ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        msg = dict(msg, text=text, edit_date=int(time.time()))
        if markup:
            msg["reply_markup"] = markup
        else:
            msg.pop("reply_markup", None)
        self.messages[key] = msg
        return msg

    async def _m_deleteMessage(self, p: dict[str, Any]) -> bool:
        key = (int(p["chat_id"]), int(p["message_id"]))
        if key not in self.messages:
            raise _ApiError(400, "Bad Request: message to delete not found")
        del self.messages[key]
        return True

    async def _m_getChat(self, p: dict[str, Any]) -> dict[str, Any]:
        """The chat's full information: a group's default ``permissions`` (no right to send
        messages in a group of :attr:`read_only`)."""
        chat_id = int(p["chat_id"])
        out = dict(self._chat_of(chat_id), accent_color_id=0, max_reaction_count=11)
        out["accepted_gift_types"] = dict.fromkeys(
            (
                "unlimited_gifts",
                "limited_gifts",
                "unique_gifts",
                "premium_subscription",
                "gifts_from_channels",
            ),
            False,
        )
        if chat_id < 0:
            send = chat_id not in self.read_only
            out["permissions"] = {
                "can_send_messages": send, "can_send_audios": send,
                "can_send_documents": send, "can_send_photos": send, "can_send_videos": send,
                "can_send_video_notes": send, "can_send_voice_notes": send,
                "can_send_polls": send, "can_send_other_messages": send,
                "can_add_web_page_previews": send, "can_change_info": False,
                "can_invite_users": True, "can_pin_messages": False, "can_manage_topics": False,
            }  # fmt: skip
        return out

    async def _m_getChatMember(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id, user_id = int(p["chat_id"]), int(p["user_id"])
        if user_id == BOT_ID:  # the bot's own status, as the world left it
            return self._bot_member(chat_id)
        status = "administrator" if user_id in self.admins.get(chat_id, set()) else "member"
        member: dict[str, Any] = {
            "status": status,
            "user": {"id": user_id, "is_bot": False, "first_name": "u"},
        }
        if status == "administrator":
            member.update(
                can_be_edited=False, is_anonymous=False, can_manage_chat=True,
                can_delete_messages=True, can_manage_video_chats=True, can_restrict_members=True,
                can_promote_members=False, can_change_info=True, can_invite_users=True,
                can_post_stories=False, can_edit_stories=False, can_delete_stories=False,
            )  # fmt: skip
        return member

    def number_updates_from(self, first: int) -> None:
        """Number the next updates from ``first`` on: a session after an earlier one on the
        same database (the sandbox) goes on where Telegram would, never repeating an
        update_id (the bot keeps the keys of the commands it applied, a closed table's
        /newtable among them, and answers a repeated one "already done")."""
        self._update_ids = itertools.count(first)

    # -- the world: users act -----------------------------------------------------------------
    async def push(self, update: dict[str, Any]) -> int:
        """Queue an update for getUpdates, or with a webhook set deliver it there as Telegram
        does (retried until it is accepted with a 2xx, for up to a minute); returns its
        update_id."""
        update = dict(update, update_id=next(self._update_ids))
        self.pushed[int(update["update_id"])] = update
        return await self._queue(update)

    async def redeliver(self, update_id: int) -> int:
        """Deliver an update already delivered once again, with its update_id, as Telegram does
        when the bot did not confirm it (a crash before the next getUpdates offset, a webhook
        answer that never came); returns the update_id."""
        return await self._queue(dict(self.pushed[update_id]))

    async def _queue(self, update: dict[str, Any]) -> int:
        if self.webhook is not None:
            task = asyncio.create_task(self._deliver(update, *self.webhook))
            self._delivering.add(task)
            task.add_done_callback(self._delivering.discard)
            return int(update["update_id"])
        async with self._cond:
            self._closing = False
            self._updates.append(update)
            self._cond.notify_all()
        return int(update["update_id"])

    def fail_when(
        self, match: Callable[[ApiCall], bool], status: int, body: dict[str, Any]
    ) -> None:
        """Refuse the first call for which ``match(call)`` holds with ``status`` and ``body``
        (once), e.g. ``fail_when(lambda c: c.method == "sendMessage", *too_many(2))``."""
        self.failures.append((match, status, body))

    def outage(
        self,
        match: Callable[[ApiCall], bool],
        status: int = 502,
        body: dict[str, Any] | None = None,
    ) -> None:
        """Refuse every call for which ``match(call)`` holds with ``status`` and ``body``
        (by default a 502 "Bad Gateway", as Telegram answers while it is down) until
        :meth:`recover`."""
        body = body or {"ok": False, "error_code": status, "description": "Bad Gateway"}
        self.outages.append((match, status, body))

    def stall(self, match: Callable[[ApiCall], bool], seconds: float) -> None:
        """Do the first call for which ``match(call)`` holds (a message is posted) but answer
        it only ``seconds`` later: a client that gives up waiting first never learns that it
        was done (its message id), as when Telegram is slow to answer."""
        self.stalls.append((match, seconds))

    def drop(self, match: Callable[[ApiCall], bool], *, done: bool = False) -> None:
        """Close the connection of the first call for which ``match(call)`` holds instead
        of answering it (a connection reset): before doing it, or with ``done`` after (a
        message is posted all the same)."""
        self.drops.append((match, done))

    @staticmethod
    def _dropped(request: web.Request) -> web.Response:
        if request.transport is not None:
            request.transport.close()
        return web.Response(status=444)

    def recover(self) -> None:
        """Telegram answers again: every :meth:`outage` ends."""
        self.outages.clear()

    def delete(self, chat_id: int, message_id: int) -> None:
        """Someone (an admin, or the user in a private chat) deletes a message: editing it
        is then refused with "message to edit not found"."""
        del self.messages[(chat_id, message_id)]

    async def migrate_group(self, old: int, new: int, *, announce: bool = True) -> None:
        """The group ``old`` is upgraded to the supergroup ``new``: from now on the API
        refuses ``old`` with ``migrate_to_chat_id``; with ``announce`` both chats get their
        service message (``migrate_to_chat_id`` in the old, ``migrate_from_chat_id`` in the
        new), as the bot's updates."""
        title = self._chat_of(old).get("title", "Friends")
        self.chats[old] = {"id": old, "type": "group", "title": title}
        self.group(new, title)
        self.migrated[old] = new
        if old in self.removed_from:  # (upgraded while the bot was out: not in it either)
            self.removed_from.add(new)
        if not announce:
            return
        for chat_id, field_name, value in (
            (old, "migrate_to_chat_id", new),
            (new, "migrate_from_chat_id", old),
        ):
            await self._service_message(chat_id, dict(ANONYMOUS_ADMIN), **{field_name: value})

    async def set_topic(self, chat_id: int, topic: int, *, closed: bool) -> None:
        """An admin closes (``closed``) or reopens the forum topic ``topic`` of ``chat_id``:
        sends there are refused with ``TOPIC_CLOSED`` while it is closed, and the bot gets
        the topic's service message (``forum_topic_closed`` / ``forum_topic_reopened``)."""
        if closed:
            self.closed_topics.add((chat_id, topic))
        else:
            self.closed_topics.discard((chat_id, topic))
        kind = "forum_topic_closed" if closed else "forum_topic_reopened"
        fields = {"message_thread_id": topic, "is_topic_message": True, kind: {}}
        await self._service_message(chat_id, dict(ANONYMOUS_ADMIN), **fields)

    async def remove_member(
        self,
        chat_id: int,
        user: FakeUser,
        by: FakeUser | None = None,
        *,
        service_message: bool = True,
    ) -> int | None:
        """``user`` leaves the group ``chat_id`` (or ``by``, an admin, removes them: ``kicked``,
        else ``left``): the group's ``left_chat_member`` service message, as the bot's update
        (bots get service messages whatever their privacy mode), unless ``service_message``
        is false (the group hides them, or the supergroup does not send it to bots); then,
        as Telegram does, the ``chat_member`` update (:meth:`member_status`). Returns the
        ``chat_member`` update's id, ``None`` when the bot is not sent one."""
        if service_message:
            await self._service_message(
                chat_id, (by or user).to_json(), left_chat_member=user.to_json()
            )
        status: dict[str, Any] = {"status": "left"}
        if by is not None and by.id != user.id:
            status = {"status": "kicked", "until_date": 0}
        return await self.member_status(chat_id, user, status, by=by)

    async def member_status(
        self,
        chat_id: int,
        user: FakeUser,
        status: dict[str, Any],
        *,
        old: dict[str, Any] | None = None,
        by: FakeUser | None = None,
    ) -> int | None:
        """``user``'s status in ``chat_id`` changes from ``old`` (a member by default) to
        ``status`` (a ChatMember's fields but ``user``), by ``by`` (else themselves): the
        ``chat_member`` update, which Telegram sends only to a bot that is an administrator
        there (:attr:`admins`) and asked for it by name (:attr:`allowed_updates`). Returns
        its update id, ``None`` when the bot is not sent it."""
        if BOT_ID not in self.admins.get(chat_id, set()):
            return None
        if self.allowed_updates is None or "chat_member" not in self.allowed_updates:
            return None
        person = user.to_json()
        return await self.push(
            {
                "chat_member": {
                    "chat": self._chat_of(chat_id),
                    "from": (by or user).to_json(),
                    "date": int(time.time()),
                    "old_chat_member": {"user": person, **(old or {"status": "member"})},
                    "new_chat_member": {"user": person, **status},
                }
            }
        )

    async def _service_message(self, chat_id: int, sender: dict[str, Any], **fields: Any) -> None:
        """Push a service message of ``chat_id`` from ``sender`` carrying ``fields``, as the
        bot's update."""
        msg: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": self._chat_of(chat_id),
            "from": sender,
            **fields,
        }
        self.messages[(chat_id, msg["message_id"])] = msg
        await self.push({"message": msg})

    async def remove_bot(self, chat_id: int, by: FakeUser) -> None:
        """``by`` removes the bot from the group ``chat_id``: the bot gets the
        ``my_chat_member`` update (its new status ``kicked``) and from now on every write
        there is refused with 403 "bot was kicked from the group chat"."""
        self.removed_from.add(chat_id)
        await self._bot_status(chat_id, by, {"status": "kicked", "until_date": 0})

    async def add_bot(self, chat_id: int, by: FakeUser, admin: bool = False) -> None:
        """``by`` adds the bot (back) to the group ``chat_id``, or lifts its restriction: a
        ``my_chat_member`` update with status ``member`` (``administrator`` if ``admin``), and
        the bot may write there again."""
        self.removed_from.discard(chat_id)
        self.muted_in.discard(chat_id)
        self.mute_ends.pop(chat_id, None)
        status: dict[str, Any] = {"status": "member"}
        if admin:
            status = {
                "status": "administrator", "can_be_edited": False, "is_anonymous": False,
                "can_manage_chat": True, "can_delete_messages": True,
                "can_manage_video_chats": False, "can_restrict_members": False,
                "can_promote_members": False, "can_change_info": False,
                "can_invite_users": True, "can_post_stories": False,
                "can_edit_stories": False, "can_delete_stories": False,
            }  # fmt: skip
        await self._bot_status(chat_id, by, status, old="kicked")

    async def restrict_bot(
        self, chat_id: int, by: FakeUser, until: int = 0, *, member: bool = True
    ) -> None:
        """``by`` restricts the bot in ``chat_id`` so that it may not send messages (it stays a
        member): a ``my_chat_member`` update with status ``restricted``, and from now on
        every ``send*`` there is refused with 400 "not enough rights". ``until``: when
        (unix time) the restriction runs out by itself, with no update (0: forever).
        ``member`` false: the restricted bot is removed from the chat too (``is_member``
        false; every write refused with 403 from then on)."""
        if not member:
            self.removed_from.add(chat_id)
        self.muted_in.add(chat_id)
        if until:
            self.mute_ends[chat_id] = float(until)
        else:
            self.mute_ends.pop(chat_id, None)
        status = self._restricted(until, member)
        await self._bot_status(chat_id, by, status)

    @staticmethod
    def _restricted(until: int, member: bool) -> dict[str, Any]:
        """The bot's ``restricted`` status (no right to send anything) until ``until``."""
        rights = dict.fromkeys(
            (
                "can_change_info", "can_invite_users", "can_pin_messages", "can_send_messages",
                "can_send_polls", "can_send_other_messages", "can_add_web_page_previews",
                "can_manage_topics", "can_send_audios", "can_send_documents",
                "can_send_photos", "can_send_videos", "can_send_video_notes",
                "can_send_voice_notes", "can_edit_tag", "can_react_to_messages",
            ),
            False,
        )  # fmt: skip
        return {"status": "restricted", "is_member": member, "until_date": until, **rights}

    def _bot_member(self, chat_id: int) -> dict[str, Any]:
        """``getChatMember`` of the bot in ``chat_id``: restricted while muted there (its
        ``until_date``; not a member if removed too), ``kicked`` when removed, else a
        member (an administrator where :attr:`admins` names it)."""
        bot = {"id": BOT_ID, "is_bot": True, "first_name": "OFC", "username": BOT_USERNAME}
        if chat_id in self.mute_ends and time.time() >= self.mute_ends[chat_id]:
            self.muted_in.discard(chat_id)  # (the restriction ran out)
            del self.mute_ends[chat_id]
        if chat_id in self.muted_in:
            until = int(self.mute_ends.get(chat_id, 0))
            return {"user": bot, **self._restricted(until, chat_id not in self.removed_from)}
        if chat_id in self.removed_from:
            return {"user": bot, "status": "kicked", "until_date": 0}
        if BOT_ID in self.admins.get(chat_id, set()):
            return {
                "user": bot, "status": "administrator", "can_be_edited": False,
                "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
                "can_manage_video_chats": False, "can_restrict_members": False,
                "can_promote_members": False, "can_change_info": False,
                "can_invite_users": True, "can_post_stories": False,
                "can_edit_stories": False, "can_delete_stories": False,
            }  # fmt: skip
        return {"user": bot, "status": "member"}

    async def _bot_status(
        self, chat_id: int, by: FakeUser, status: dict[str, Any], old: str = "member"
    ) -> None:
        """Push the ``my_chat_member`` update of ``by`` changing the bot (``old``: its status
        before, a member by default) in ``chat_id`` to ``status`` (a ChatMember's fields but
        ``user``)."""
        bot = {"id": BOT_ID, "is_bot": True, "first_name": "OFC", "username": BOT_USERNAME}
        await self.push(
            {
                "my_chat_member": {
                    "chat": self._chat_of(chat_id),
                    "from": by.to_json(),
                    "date": int(time.time()),
                    "old_chat_member": {"user": bot, "status": old, "until_date": 0},
                    "new_chat_member": {"user": bot, **status},
                }
            }
        )

    async def block_bot(self, user: FakeUser, *, blocked: bool = True) -> None:
        """``user`` blocks the bot (``blocked``) or unblocks it: from now on every write to
        their private chat is refused with 403 "bot was blocked by the user" (or no more), and
        the bot gets the private chat's ``my_chat_member`` update (its status ``kicked``, or
        ``member``), which Telegram sends a bot only for that. (Adding the user to
        :attr:`blocked_users` alone blocks without the update: one the bot missed.)"""
        if blocked:
            self.blocked_users.add(user.id)
        else:
            self.blocked_users.discard(user.id)
            self.started_users.add(user.id)
        bot = {"id": BOT_ID, "is_bot": True, "first_name": "OFC", "username": BOT_USERNAME}
        old, new = ("member", "kicked") if blocked else ("kicked", "member")
        await self.push(
            {
                "my_chat_member": {
                    "chat": {"id": user.id, "type": "private", "first_name": user.first_name},
                    "from": user.to_json(),
                    "date": int(time.time()),
                    "old_chat_member": {"user": bot, "status": old, "until_date": 0},
                    "new_chat_member": {"user": bot, "status": new, "until_date": 0},
                }
            }
        )

    def group(self, chat_id: int, title: str = "Friends") -> dict[str, Any]:
        chat = {"id": chat_id, "type": "supergroup", "title": title}
        self.chats[chat_id] = chat
        return chat

    async def send_text(
        self,
        user: FakeUser,
        chat_id: int,
        text: str,
        reply_to: int | None = None,
        topic: int | None = None,
        entities: list[dict[str, Any]] | None = None,
    ) -> int:
        """A user writes ``text`` (e.g. a command) in a chat, in the forum ``topic`` (its
        ``message_thread_id``) if given, with ``entities`` besides the command's (a
        ``text_mention`` of a member picked from the list); returns the message id."""
        chat = self.chats.get(chat_id) or (
            {"id": user.id, "type": "private", "first_name": user.first_name}
            if chat_id == user.id
            else self.group(chat_id)
        )
        if chat_id == user.id:
            self.started_users.add(user.id)
        message_id = next(self._message_ids)
        msg: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": chat,
            "from": user.to_json(),
            "text": text,
        }
        if text.startswith("/"):
            length = len(text.split()[0])
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if entities:
            msg["entities"] = [*msg.get("entities", []), *entities]
        if reply_to is not None and (chat_id, reply_to) in self.messages:
            msg["reply_to_message"] = self.messages[(chat_id, reply_to)]
            if msg["reply_to_message"].get("is_automatic_forward"):
                msg["message_thread_id"] = reply_to  # a comment under a channel's post
        if topic is not None:
            msg["message_thread_id"] = topic
            msg["is_topic_message"] = True
            opening = self.messages.get((chat_id, topic))
            if reply_to is None and opening is not None and "forum_topic_created" in opening:
                # Telegram sends a message in a topic that replies to nothing as a reply to
                # the topic's first message, its creation (by whoever created the topic)
                msg["reply_to_message"] = opening
        self.messages[(chat_id, message_id)] = msg
        await self.push({"message": msg})
        return message_id

    async def create_topic(self, user: FakeUser, chat_id: int, name: str) -> int:
        """``user`` creates the forum topic ``name`` in ``chat_id``: its service message
        (``forum_topic_created``), whose id is the topic's ``message_thread_id``; returns it.
        The messages then written in the topic with :meth:`send_text` reply to it, as
        Telegram's do."""
        message_id = next(self._message_ids)
        msg: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": self._chat_of(chat_id),
            "from": user.to_json(),
            "message_thread_id": message_id,
            "is_topic_message": True,
            "forum_topic_created": {"name": name, "icon_color": 7322096},
        }
        self.messages[(chat_id, message_id)] = msg
        await self.push({"message": msg})
        return message_id

    async def send_anonymous(self, chat_id: int, text: str) -> int:
        """An anonymous admin of the group writes ``text``: Telegram sends it from
        GroupAnonymousBot with ``sender_chat`` the group itself; returns the message id."""
        return await self._send_for_chat(chat_id, ANONYMOUS_ADMIN, self._chat_of(chat_id), text)

    async def send_as_channel(
        self, chat_id: int, channel_id: int, text: str, title: str = "Channel"
    ) -> int:
        """A member writes ``text`` in the group ``chat_id`` on behalf of their channel
        ``channel_id``: Telegram sends it from Channel_Bot with ``sender_chat`` that channel
        (every channel shares that one sender); returns the message id."""
        channel = {"id": channel_id, "type": "channel", "title": title}
        return await self._send_for_chat(chat_id, CHANNEL_BOT, channel, text)

    async def _send_for_chat(
        self, chat_id: int, sender: dict[str, Any], sender_chat: dict[str, Any], text: str
    ) -> int:
        """``text`` written in the group ``chat_id`` on behalf of the chat ``sender_chat``,
        from Telegram's stand-in user ``sender`` (:data:`ANONYMOUS_ADMIN`,
        :data:`CHANNEL_BOT`), a command's entity with it (:meth:`send_anonymous`,
        :meth:`send_as_channel`); returns the message id."""
        message_id = next(self._message_ids)
        msg: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": self._chat_of(chat_id),
            "from": dict(sender),
            "sender_chat": sender_chat,
            "text": text,
        }
        if text.startswith("/"):
            length = len(text.split()[0])
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        self.messages[(chat_id, message_id)] = msg
        await self.push({"message": msg})
        return message_id

    async def channel_post(
        self, chat_id: int, channel_id: int, text: str, title: str = "Channel"
    ) -> int:
        """The channel ``channel_id``, linked to the discussion group ``chat_id``, posts
        ``text``: Telegram forwards it to the group (``is_automatic_forward``, from
        :data:`TELEGRAM_SERVICE` on behalf of the channel); the comments under the post are
        replies to that message (:meth:`send_text` with ``reply_to`` its id). Returns it."""
        message_id = next(self._message_ids)
        msg: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": self._chat_of(chat_id),
            "from": dict(TELEGRAM_SERVICE),
            "sender_chat": {"id": channel_id, "type": "channel", "title": title},
            "is_automatic_forward": True,
            "text": text,
        }
        self.messages[(chat_id, message_id)] = msg
        await self.push({"message": msg})
        return message_id

    async def press(self, user: FakeUser, chat_id: int, message_id: int, data: str) -> str:
        """A user presses an inline button (``data``) of a message; returns the query id."""
        msg = self.messages[(chat_id, message_id)]
        query_id = f"q{next(self._query_ids)}"
        await self.push(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_json(),
                    "chat_instance": f"ci{chat_id}",
                    "message": msg,
                    "data": data,
                }
            }
        )
        return query_id

    # -- reading what the bot did -------------------------------------------------------------
    def calls_of(self, method: str) -> list[ApiCall]:
        return [c for c in self.calls if c.method == method]

    def reply_to(self, chat_id: int, message_id: int, since: int = 0) -> dict[str, Any] | None:
        """The parameters of the bot's first ``sendMessage`` in ``chat_id`` that replies to
        message ``message_id`` (among the calls from index ``since`` on), or ``None``."""
        for c in self.calls[since:]:
            if c.method != "sendMessage" or int(c.params.get("chat_id", 0)) != chat_id:
                continue
            rp = c.params.get("reply_parameters") or {}
            if rp.get("message_id") == message_id or (
                c.params.get("reply_to_message_id") == message_id
            ):
                return c.params
        return None

    def answer_of(self, query_id: str) -> ApiCall | None:
        for c in self.calls:
            if c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == query_id:
                return c
        return None

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Wait until ``predicate()`` is truthy (polling every 5 ms); returns its value. The
        default timeout is generous: a loaded machine (CI on two busy cores) may take seconds
        for what takes milliseconds here.

        :raises TimeoutError: if it stays falsy for ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not do what was expected in time")
            await asyncio.sleep(0.005)

    def chat_messages(self, chat_id: int) -> list[dict[str, Any]]:
        """The bot's text messages in a chat, oldest first (photos: :attr:`photos`)."""
        return [
            m
            for (c, _), m in sorted(self.messages.items())
            if c == chat_id and m["from"]["id"] == BOT_ID and "photo" not in m
        ]

    def photos_in(self, chat_id: int) -> list[Photo]:
        """The photos the bot sent to a chat, oldest first."""
        return [p for p in self.photos if p.chat_id == chat_id]

    @staticmethod
    def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
        """Every inline button of a message, row by row."""
        kb = message.get("reply_markup") or {}
        return [b for row in kb.get("inline_keyboard", []) for b in row]


class _ApiError(Exception):
    def __init__(self, code: int, description: str) -> None:
        super().__init__(description)
        self.code = code
        self.description = description


async def _serve(port: int, token: str) -> None:  # pragma: no cover - used by the benchmark
    fake = FakeTelegram(token, open_private=True)
    await fake.start(port)
    print(fake.port, flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":  # pragma: no cover
    import sys

    asyncio.run(
        _serve(
            int(sys.argv[1]) if len(sys.argv) > 1 else 0,
            sys.argv[2] if len(sys.argv) > 2 else DEFAULT_TOKEN,
        )
    )
