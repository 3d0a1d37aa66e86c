"""Telegram adapter: turns updates into calls on the :class:`~bot.service.TableService` and
its screens into Telegram messages. It holds no game rules.

* Commands in a group (``/newtable``, ``/join`` …) and presses of inline buttons go to the
  service; the answer of a press is an ``answerCallbackQuery`` (a popup for refusals).
* The table message of a group and each player's private message are edited in place
  (:class:`TelegramPresenter`); a private message to a user who never started the bot fails
  with 403 and the group then shows a deep link ``t.me/<bot>?start=t<table>``.
* Rate limits: :class:`telegram.ext.AIORateLimiter` throttles and retries 429s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from telegram import (
    BotCommand,
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from bot.model import Actor, ChatRef, Reply
from bot.screens import Screen
from bot.service import TableService
from bot.telegram.transport import AiohttpRequest

__all__ = ["TelegramAdapter", "TelegramPresenter", "markup"]

log = logging.getLogger(__name__)

PLATFORM = "telegram"
COMMANDS = (
    ("newtable", "open a table / открыть стол"),
    ("join", "take a seat / сесть"),
    ("ready", "buy in and get ready / готов"),
    ("leave", "leave the table / встать"),
    ("sitout", "skip hands / пропускать"),
    ("back", "come back / вернуться"),
    ("balance", "your kush / баланс"),
    ("top", "leaderboard / рейтинг"),
    ("history", "your last hands / история"),
    ("daily", "daily bonus / бонус дня"),
    ("rules", "rules / правила"),
    ("settings", "admins: settings / настройки"),
    ("closetable", "admins: close the table / закрыть стол"),
    ("grant", "admins: give kush / выдать куши"),
    ("help", "help / помощь"),
)


def markup(screen: Screen) -> InlineKeyboardMarkup | None:
    """The inline keyboard of a screen (``None`` when it has no buttons)."""
    if not screen.buttons:
        return None
    rows = [
        [
            InlineKeyboardButton(b.label, url=b.url)
            if b.url
            else InlineKeyboardButton(b.label, callback_data=b.data)
            for b in row
        ]
        for row in screen.buttons
    ]
    return InlineKeyboardMarkup(rows)


class TelegramPresenter:
    """Writes the service's screens to Telegram (one table message per group, one private
    message per player, both edited in place)."""

    platform = PLATFORM

    def __init__(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        self.app = application
        self.username: str | None = None
        # Edits are coalesced: only the newest screen of a message is written, by one
        # background writer per message, so a busy table never queues stale edits behind the
        # rate limits and a press is answered at once.
        self._latest: dict[tuple[str, str], Screen] = {}
        self._writers: dict[tuple[str, str], asyncio.Task[None]] = {}

    async def _send(self, chat_id: str, screen: Screen) -> str:
        msg = await self.app.bot.send_message(chat_id, screen.text, reply_markup=markup(screen))
        return str(msg.message_id)

    def queue_edit(self, chat_id: str, ref: str, screen: Screen) -> None:
        """Edit a message to ``screen`` in the background (coalesced per message)."""
        key = (chat_id, ref)
        self._latest[key] = screen
        writer = self._writers.get(key)
        if writer is None or writer.done():
            self._writers[key] = asyncio.create_task(self._write(key), name=f"tg-edit-{chat_id}")

    async def _write(self, key: tuple[str, str]) -> None:
        chat_id, ref = key
        while key in self._latest:
            screen = self._latest.pop(key)
            try:
                await self.app.bot.edit_message_text(
                    screen.text, chat_id=chat_id, message_id=int(ref), reply_markup=markup(screen)
                )
            except BadRequest as exc:
                if "not modified" not in str(exc).lower():
                    log.warning("edit of message %s/%s failed: %s", chat_id, ref, exc)
            except TelegramError:
                log.exception("cannot edit message %s/%s", chat_id, ref)
        self._writers.pop(key, None)

    def writer_for(self, chat_id: str, ref: str) -> asyncio.Task[None] | None:
        """The background writer of one message, while it has edits to write."""
        return self._writers.get((chat_id, ref))

    async def flush(self) -> None:
        """Wait until every queued edit is written."""
        while self._writers:
            await asyncio.gather(*list(self._writers.values()), return_exceptions=True)

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        """Send the group's table message (awaited: the ref is needed), or queue an edit of it."""
        if ref is None:
            try:
                return await self._send(chat_id, screen)
            except TelegramError:
                log.exception("cannot write the table message in %s", chat_id)
                return None
        self.queue_edit(chat_id, ref, screen)
        return ref

    async def show_private(self, user_id: str, screen: Screen, ref: str | None) -> str | None:
        """Send a player's private message (awaited; ``None`` when the bot may not write to
        them: 403, they never started it or blocked it), or queue an edit of it."""
        if ref is not None:
            self.queue_edit(user_id, ref, screen)
            return ref
        try:
            return await self._send(user_id, screen)
        except Forbidden:
            return None
        except TelegramError:
            log.exception("cannot write the private message of %s", user_id)
            return None

    async def post(self, chat_id: str, text: str) -> None:
        """A plain notice in a chat."""
        try:
            await self.app.bot.send_message(chat_id, text)
        except TelegramError:
            log.exception("cannot post in %s", chat_id)

    def private_link(self, table_id: int) -> str | None:
        """``https://t.me/<bot>?start=t<table>``: opens the private chat at the table."""
        return f"https://t.me/{self.username}?start=t{table_id}" if self.username else None


def _actor(user: User) -> Actor:
    name = (user.full_name or user.username or str(user.id)).strip()[:32]
    return Actor(PLATFORM, str(user.id), name, user.language_code)


def _chat(chat: Chat) -> ChatRef:
    private = chat.type == ChatType.PRIVATE
    return ChatRef(PLATFORM, str(chat.id), str(chat.id), chat.title or "", private)


class TelegramAdapter:
    """Builds the python-telegram-bot :class:`Application`, registers one handler per command
    and one for button presses, and presents through :class:`TelegramPresenter`.

    :param token: the bot token.
    :param base_url: a Bot API server (``http://host:port/bot``); ``None`` for Telegram's.
    :param rate_limiter: defaults to Telegram's limits (30/s overall, 20/min per group) with
        429s retried up to 5 times.
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
            .rate_limiter(rate_limiter or AIORateLimiter(max_retries=5))
            .concurrent_updates(True)
            .request(self._request)
        )
        if base_url:
            root = base_url.rstrip("/")
            builder = builder.base_url(root if root.endswith("/bot") else root + "/bot")
            builder = builder.base_file_url(root.removesuffix("/bot") + "/file/bot")
        self.app: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self.presenter = TelegramPresenter(self.app)
        self._usernames: dict[str, str] = {}  # lower-case @username → user id
        self._admins: dict[tuple[str, str], tuple[bool, float]] = {}
        service.register(self.presenter)
        simple = {
            "newtable": self._newtable,
            "join": self._simple(service.join),
            "ready": self._simple(service.ready),
            "leave": self._simple(service.leave),
            "sitout": self._simple(service.sit_out),
            "back": self._simple(service.back),
            "balance": self._simple(service.balance),
            "top": self._simple(service.top),
            "history": self._simple(service.history),
            "daily": self._simple(service.daily),
            "rules": self._simple(service.rules),
            "help": self._simple(service.help),
            "settings": self._settings,
            "grant": self._grant,
            "closetable": self._closetable,
            "start": self._start,
        }
        for name, handler in simple.items():
            self.app.add_handler(CommandHandler(name, handler))
        self.app.add_handler(CallbackQueryHandler(self._press))

    # -- lifecycle -------------------------------------------------------------------------
    async def start(self, *, polling: bool = True, poll_interval: float = 0.0) -> None:
        """Initialise (``getMe``), publish the command list and start polling."""
        await self.app.initialize()
        self.presenter.username = self.app.bot.username
        try:
            await self.app.bot.set_my_commands([BotCommand(n, d) for n, d in COMMANDS])
        except TelegramError:
            log.warning("could not publish the command list")
        await self.app.start()
        if polling and self.app.updater is not None:
            await self.app.updater.start_polling(poll_interval=poll_interval, timeout=10)

    async def stop(self) -> None:
        """Stop polling, write queued edits and shut the application down (also after a
        failed start: every HTTP session is closed)."""
        with contextlib.suppress(Exception):
            await self.presenter.flush()
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
        if user is not None and user.username:
            self._usernames[user.username.lower()] = str(user.id)

    async def _reply(self, update: Update, reply: Reply) -> None:
        msg = update.effective_message
        if msg is None:
            return
        text = reply.text or (reply.screen.text if reply.screen else "")
        if not text:
            return
        kb = markup(reply.screen) if reply.screen else None
        if reply.screen and reply.text:
            text = reply.text + "\n\n" + reply.screen.text
        try:
            await msg.reply_text(text, reply_markup=kb)
        except TelegramError:
            log.exception("cannot reply in %s", msg.chat_id)

    def _simple(self, method: Any) -> Any:
        async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if update.effective_user is None or update.effective_chat is None:
                return
            self._remember(update.effective_user)
            reply = await method(_chat(update.effective_chat), _actor(update.effective_user))
            await self._reply(update, reply)

        return handler

    async def _is_admin(self, chat_id: str, user_id: str) -> bool:
        """Group administrators and the owner (checked with getChatMember, cached 60 s)."""
        key = (chat_id, user_id)
        cached = self._admins.get(key)
        if cached is not None and time.monotonic() - cached[1] < 60:
            return cached[0]
        try:
            member = await self.app.bot.get_chat_member(chat_id, int(user_id))
            ok = member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
        except TelegramError:
            ok = False
        self._admins[key] = (ok, time.monotonic())
        return ok

    # -- commands --------------------------------------------------------------------------
    async def _newtable(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.effective_user is None or update.effective_chat is None:
            return
        self._remember(update.effective_user)
        game = context.args[0].lower() if context.args else None
        reply = await self.service.new_table(
            _chat(update.effective_chat), _actor(update.effective_user), game
        )
        await self._reply(update, reply)

    async def _settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None:
            return
        self._remember(user)
        ref = _chat(chat)
        admin = not ref.private and await self._is_admin(ref.chat_id, str(user.id))
        reply = await self.service.settings(ref, _actor(user), admin, list(context.args or []))
        await self._reply(update, reply)

    async def _closetable(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None:
            return
        ref = _chat(chat)
        admin = not ref.private and await self._is_admin(ref.chat_id, str(user.id))
        await self._reply(update, await self.service.close_table(ref, _actor(user), admin))

    async def _grant(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, chat, msg = update.effective_user, update.effective_chat, update.effective_message
        if user is None or chat is None or msg is None:
            return
        self._remember(user)
        ref = _chat(chat)
        args = list(context.args or [])
        target, amount = "", ""
        replied: Message | None = msg.reply_to_message
        if replied is not None and replied.from_user is not None and len(args) == 1:
            target, amount = str(replied.from_user.id), args[0]
        elif len(args) == 2:
            name, amount = args
            target = self._usernames.get(name.lstrip("@").lower(), name)
        admin = not ref.private and await self._is_admin(ref.chat_id, str(user.id))
        reply = await self.service.grant(
            ref, _actor(user), admin, target, amount, key=f"tg:{chat.id}:{update.update_id}"
        )
        await self._reply(update, reply)

    async def _start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None:
            return
        self._remember(user)
        if chat.type != ChatType.PRIVATE:
            await self._reply(update, await self.service.help(_chat(chat), _actor(user)))
            return
        arg = context.args[0] if context.args else ""
        await self._reply(update, await self.service.private_start(_actor(user), arg))

    # -- presses ---------------------------------------------------------------------------
    async def _press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        self._remember(query.from_user)
        message = query.message
        chat = _chat(message.chat) if message is not None else None
        actor = _actor(query.from_user)

        async def is_admin() -> bool:
            return chat is not None and await self._is_admin(chat.chat_id, actor.user_id)

        reply = await self.service.press(actor, query.data, chat, is_admin)
        # a settings message is edited in place; private hands are edited by the presenter
        if reply.screen is not None and not reply.private and isinstance(message, Message):
            self.presenter.queue_edit(str(message.chat_id), str(message.message_id), reply.screen)
        try:
            await query.answer(reply.text[:200] or None, show_alert=reply.alert)
        except TelegramError:
            log.info("could not answer a callback query")
