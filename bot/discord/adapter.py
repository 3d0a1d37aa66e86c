"""Discord adapter (discord.py 2.7): slash commands and component presses in, messages out,
through the platform-neutral :class:`~bot.service.TableService`. It holds no game rules.

* ``/ofc new|join|leave|ready|sitout|back|balance|top|history|rules|daily|hand|help``
  (:class:`OfcCommands`) and the admin commands ``/ofcadmin settings|grant|kick|close``
  (:class:`OfcAdminCommands`, shown by default to members with Manage Server).
  Personal answers (balance, history, daily, settings) and refusals are ephemeral; the rest is
  public. Admin means Manage Server (or Administrator), read from the member permissions that
  Discord puts in each interaction and checked before the service is called.
* Buttons are :class:`~bot.discord.components.PayloadButton` dynamic items (the
  ``custom_id`` is the service's payload), select menus are
  :class:`~bot.discord.components.BoxSelect`; both are registered in ``setup_hook``, so they
  work on messages sent before a restart. Every press goes to :meth:`TableService.press`.
  One of several workers (issue 14) forwards a DM press of a table another worker serves
  (:attr:`DiscordAdapter.forward`, deferring the interaction first) and runs the presses
  other workers forward to it (:meth:`DiscordAdapter.take_forwarded`) the same way.
* Every interaction is answered within Discord's 3 seconds: the answer goes out as the
  interaction response when the service is done within ``answer_within`` (2 s), otherwise the
  interaction is deferred at that moment and the answer follows through its webhook. A
  table command (``join``, ``ready``, ``close`` …) is answered as soon as its step is
  committed, before the step's messages go out, as a press is (:meth:`DiscordAdapter.command`).
* Hidden cards: the table message's "🂠 My cards" button answers with the presser's hand as an
  ephemeral message; presses on that message (or on the DM hand) edit it in place with the
  hand the service returns (R3.3, R6.3: no hidden card ever goes to the channel), as the
  interaction's own response and nowhere else: the service does not write the message pressed
  (:func:`message_ref` names it).
  The "My cards" answer's body is built anew at each try discord.py makes (one refused with a
  429 is sent again after the pause) from the newest screen of the hand by then
  (:class:`_HandPost`).

Runs on an already running event loop next to the Telegram adapter: :meth:`DiscordAdapter.start`
logs in (``setup_hook`` registers the items and syncs the commands) and keeps the gateway
connection in a task; :meth:`DiscordAdapter.stop` closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import io
import json
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

import aiohttp
import discord
from discord import app_commands

from bot.discord.components import (
    BoxSelect,
    PayloadButton,
    PickSelect,
    content_of,
    discord_commands,
    is_routed,
    routed_table,
    view_of,
)
from bot.discord.presenter import (
    PLATFORM,
    STOP_WRITES_SECONDS,
    AnswerTurn,
    DiscordPresenter,
    LiveHand,
    Opening,
    discord_name,
    ephemeral_ref,
)
from bot.logs import raised_at, said_by_type, text_kept
from bot.model import Actor, ChatRef, LiveTable, Reply
from bot.names import clean_name
from bot.presses import (
    CARD_PRESSES,
    DiscardCard,
    Join,
    Leave,
    PlaceCard,
    Ready,
    Register,
    TakeBack,
    Unregister,
    decode,
    encode,
    loggable,
    table_of,
)
from bot.screens import Screen
from bot.service import PLAYABLE_GAMES, TableService
from bot.service.settings import may_be_all, setting_suggestions
from bot.service.stats import PERIODS
from bot.service.wallet import HISTORY_MAX
from bot.texts import DISCORD_DESCRIPTIONS_RU, language_of, tr
from game.policy import Level

__all__ = [
    "CLOSE_CODES",
    "MEMBERS_INTENT_REFUSED",
    "TOKEN_REFUSED",
    "DiscordAdapter",
    "OfcAdminCommands",
    "OfcClient",
    "OfcCommands",
    "actor_of",
    "chat_of",
    "close_code_advice",
    "default_intents",
    "discord_name",
    "is_admin",
    "message_ref",
    "token_refused",
]

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

#: A command or press not answered by then is acknowledged (deferred) and answered by a
#: follow-up: Discord wants an answer within 3 seconds, our players within one (issue 15).
ANSWER_WITHIN = 0.8
#: seconds after the bot's timeout runs out before it looks at the guild's channels again
#: (:meth:`DiscordAdapter.timed_out`): Discord's clock and ours may differ a little
TIMEOUT_END_MARGIN = 1.0


def actor_of(interaction: Interaction) -> Actor:
    """Who acts: the user's id, display name (nickname, global name or username; cleaned by
    :func:`bot.names.clean_name`, then escaped by :func:`discord_name`) and the language of
    their Discord client."""
    user = interaction.user
    name = discord_name(shown_name(user))
    return Actor(PLATFORM, str(user.id), name, interaction.locale.value)


def shown_name(user: discord.User | discord.Member) -> str:
    """The name a user goes by, cleaned (:func:`bot.names.clean_name`): their display name, or
    their account name when it shows nothing (empty, or "ㅤ": a Hangul filler, a zero-width
    space), else their id."""
    return clean_name(user.display_name, fallback="") or clean_name(
        user.name, fallback=str(user.id)
    )


def chat_of(interaction: Interaction) -> ChatRef:
    """Where: the guild (community, its name escaped by :func:`discord_name`) and the
    channel (chat; ``thread``: a thread, ``private_thread``: a private one); a DM is a
    private chat."""
    channel = str(interaction.channel_id or "")
    if interaction.guild_id is None:
        return ChatRef(PLATFORM, "", channel, "", private=True)
    guild = interaction.guild  # its name shows in the group's /stats: literally, as a name's
    title = discord_name(guild.name) if guild else ""
    where = interaction.channel
    thread = isinstance(where, discord.Thread)
    private = isinstance(where, discord.Thread) and where.is_private()
    return ChatRef(
        PLATFORM, str(interaction.guild_id), channel, title, thread=thread, private_thread=private
    )


def is_admin(interaction: Interaction) -> bool:
    """Manage Server (or Administrator) in the guild, from the member's permissions that
    Discord computes and sends with the interaction. Never in a DM."""
    if interaction.guild_id is None:
        return False
    perms = interaction.permissions
    return perms.manage_guild or perms.administrator


def describe(interaction: Interaction) -> str:
    """One line for the log: the interaction's kind, id, user, channel and data; a
    component's data without its card (:func:`bot.presses.loggable`: a placement or a discard
    is hidden information, R3.3, and whoever runs the bot may sit at its tables)."""
    data: object = interaction.data
    if interaction.type is discord.InteractionType.component and isinstance(data, dict):
        data = {"custom_id": loggable(str(data.get("custom_id", "")))}
    return (
        f"interaction {interaction.id} ({interaction.type.name}) of user {interaction.user.id} "
        f"in channel {interaction.channel_id}: {data}"
    )


#: What discord.py raises for a slash command that is not this bot's as it runs now
#: (:meth:`DiscordAdapter.on_error`)
_NOT_OURS = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)

#: Discord's option types whose value is a snowflake Discord resolves (user, channel, role,
#: mentionable, attachment) and those sent as JSON values (string, integer, boolean, number)
_RESOLVED_TYPES = frozenset({6, 7, 8, 9, 11})
_JSON_TYPES: dict[int, tuple[type, ...]] = {3: (str,), 4: (int,), 5: (bool,), 10: (int, float)}


class OptionMismatch(app_commands.AppCommandError):
    """A slash command's option came with another type than the command declares (a text
    or a number where a user is asked, a text where a whole number is), or as a user that
    Discord did not resolve: a command list of another version (a Discord client's from
    before a deploy, a worker of another version's during a rolling one) or a forged
    payload. Answered ``reply.option_outdated`` naming :attr:`option`
    (:meth:`DiscordAdapter.on_error`), never "something went wrong"; nothing runs."""

    def __init__(self, option: str) -> None:
        super().__init__(f"option {option!r} of another type than declared")
        self.option = option


class OptionMissing(OptionMismatch):
    """A slash command run without an option it requires (``/ofcadmin grant`` with no
    ``amount``): a command list of another version (one where it was optional) or a forged
    payload. discord.py raised a signature mismatch for it, answered as a command the bot
    does not have; it is answered ``reply.option_missing`` naming :attr:`option`
    (:meth:`DiscordAdapter.on_error`); nothing runs."""

    def __init__(self, option: str) -> None:
        app_commands.AppCommandError.__init__(self, f"required option {option!r} missing")
        self.option = option


def check_options(
    command: app_commands.Command[Any, ..., Any],
    options: Sequence[Mapping[str, Any]],
    resolved: Mapping[str, Any],
    *,
    complete: bool = True,
) -> None:
    """Check a slash command's options (the subcommand's, from the interaction's ``data``)
    against what ``command`` declares, before discord.py reads them (it passes a value of
    another type on as it came, to fail in the command's code, and fails itself on a user
    option that is no snowflake).

    :raises OptionMismatch: an option of another type than its parameter's, a JSON value
        of another Python type than that type's (a text for an integer) or none of the
        parameter's declared choices (``period:year``), or a user (role,
        channel …) that is no snowflake or that ``resolved`` lacks. An option the command
        does not declare is left to discord.py (which ignores it), and so is the option an
        autocomplete is asked for (``focused``: its text as typed so far).
    :raises OptionMissing: ``complete`` (the command run, not an autocomplete of one being
        typed) and a required option not sent."""
    params = {p.display_name: p for p in command.parameters}
    if complete:
        sent = {str(option.get("name", "")) for option in options}
        missing = next((n for n, p in params.items() if p.required and n not in sent), None)
        if missing is not None:
            raise OptionMissing(missing)
    for option in options:
        name = str(option.get("name", ""))
        param = params.get(name)
        if param is None or option.get("focused"):
            continue  # (a focused option is what is being typed: any text)
        kind, value = option.get("type"), option.get("value")
        expected = param.type.value
        if kind != expected:
            raise OptionMismatch(name)
        if kind in _RESOLVED_TYPES:
            known = any(str(value) in (group or {}) for group in resolved.values())
            if not isinstance(value, str) or not value.isdigit() or not known:
                raise OptionMismatch(name)
        elif kind in _JSON_TYPES and (
            not isinstance(value, _JSON_TYPES[kind]) or (kind != 5 and isinstance(value, bool))
        ):
            raise OptionMismatch(name)
        elif param.choices and value not in {c.value for c in param.choices}:
            raise OptionMismatch(name)  # a choice of an old list (or forged): "/ofc stats
            # period:year" read "year" as a player's name


class OfcTree(app_commands.CommandTree["OfcClient"]):
    """The command tree: every slash command's options are checked against the command
    (:func:`check_options`) before discord.py reads them."""

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Check the options of a slash command (or of one being typed): raises
        :class:`OptionMismatch` (the tree's error handler answers it); always ``True``
        otherwise. A command the tree does not have is left to discord.py."""
        data: Any = interaction.data
        if not isinstance(data, dict) or data.get("type", 1) != 1:
            return True
        found: Any = self.get_command(str(data.get("name", "")))
        options: list[Mapping[str, Any]] = list(data.get("options") or [])
        while isinstance(found, app_commands.Group):
            nested = next((o for o in options if o.get("type") in (1, 2)), None)
            if nested is None:
                return True  # (a signature mismatch: discord.py says so)
            found = found.get_command(str(nested.get("name", "")))
            options = list(nested.get("options") or [])
        if isinstance(found, app_commands.Command):
            ran = interaction.type is discord.InteractionType.application_command
            check_options(found, options, data.get("resolved") or {}, complete=ran)
        return True


def _compose(text: str, screen: Screen | None) -> str:
    return "\n\n".join(part for part in (text, screen.text if screen else "") if part)


class _HandPost:
    """A "🂠 My cards" answer posting the player's hand as a new ephemeral message: the
    interaction's response (type 4) or, ``deferred``, its follow-up (``POST /webhooks/
    {application}/{token}?wait=1``). Sent by :meth:`discord.http.HTTPClient.request` with
    this as its ``form`` (a ``payload_json`` part), built anew for each try discord.py makes
    from the newest screen of the hand by then (:meth:`DiscordPresenter.opened_hand` of the
    answer's ``opening``; ``screen``, the reply's, else), with ``notice`` above it.
    discord.py waits a 429's ``retry_after`` out and sends the request again (a 500, 502,
    504 or 524 too): sent with a body made once (``send_message``, ``followup.send``), the
    hand was posted with the reply's screen though the table had moved on in the pause (a
    card placed on the DM hand), then flashed to the newer one.

    :ivar screen: the screen of the last try built (the one posted if it succeeded)
    """

    def __init__(
        self,
        adapter: DiscordAdapter,
        interaction: Interaction,
        notice: str,
        screen: Screen,
        opening: Opening | None,
        *,
        deferred: bool,
    ) -> None:
        self._adapter = adapter
        self._interaction = interaction
        self._notice = notice
        self._reply = screen
        self._opening = opening
        self._deferred = deferred
        self.screen = screen

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self.screen = self._adapter.presenter.opened_hand(self._opening, self._reply)
        view = view_of(self.screen)
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        with discord.http.handle_message_parameters(
            content=content_of(_compose(self._notice, self.screen)),
            flags=discord.MessageFlags(ephemeral=True),
            previous_allowed_mentions=self._adapter.client.allowed_mentions,
            **extra,
        ) as params:
            payload: dict[str, Any] = dict(params.payload or {})
        if not self._deferred:
            kind = discord.InteractionResponseType.channel_message
            payload = {"type": kind.value, "data": payload}
        body = json.dumps(payload, separators=(",", ":"), ensure_ascii=True)
        yield {"name": "payload_json", "value": body, "content_type": "application/json"}

    async def send(self) -> int | None:
        """Post it; the id of the message posted (``None``: a response Discord answered
        without it).

        :raises discord.HTTPException: Discord refused it (past discord.py's own tries).
        :raises aiohttp.ClientError, OSError: lost in the network."""
        interaction = self._interaction
        http = self._adapter.client.http
        if self._deferred:
            route = discord.http.Route(
                "POST",
                "/webhooks/{webhook_id}/{webhook_token}",
                webhook_id=interaction.application_id,
                webhook_token=interaction.token,
            )
            message = await http.request(route, form=self, params={"wait": "1"})
            return int(message["id"])
        route = discord.http.Route(  # (named so, its rate-limit bucket is its own)
            "POST",
            "/interactions/{webhook_id}/{webhook_token}/callback",
            webhook_id=interaction.id,
            webhook_token=interaction.token,
        )
        data = await http.request(route, form=self, params={"with_response": "1"})
        # (answered: as ``send_message`` marks it, so a later notice goes as a follow-up)
        interaction.response._response_type = discord.InteractionResponseType.channel_message
        posted = (data or {}).get("interaction", {}).get("response_message_id")
        return None if posted is None else int(posted)


class _Ack:
    """Defers an interaction if its answer is not ready ``within`` seconds (then the answer
    must go through the interaction's webhook: see :meth:`deferred`)."""

    def __init__(self, interaction: Interaction, within: float, *, ephemeral: bool) -> None:
        self.interaction = interaction
        self.ephemeral = ephemeral
        self.task: asyncio.Task[None] | None = None
        self._handle = asyncio.get_running_loop().call_later(within, self._fire)

    def _fire(self) -> None:
        self.task = asyncio.create_task(self._defer())

    async def _defer(self) -> None:
        response = self.interaction.response
        if self.interaction.type is discord.InteractionType.application_command:
            await response.defer(ephemeral=self.ephemeral, thinking=True)
        else:
            await response.defer()

    def stop(self) -> None:
        """The answer is ready: do not defer any more."""
        self._handle.cancel()

    def now(self) -> None:
        """Defer at once (the answer will take a while: a press forwarded to another
        worker); :meth:`deferred` is then true."""
        self._handle.cancel()
        if self.task is None:
            self._fire()

    async def deferred(self) -> bool:
        """Whether the interaction was deferred (waits until the deferral is sent)."""
        if self.task is None:
            return False
        try:
            await self.task
        except discord.HTTPException as exc:
            log.warning("could not defer interaction %s: %s", self.interaction.id, exc)
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            # lost in the network (Discord may have taken it): the answer is tried all the
            # same, and a pressed DM hand is written by REST when it fails (it raised here,
            # and the DM hand kept the screen from before the press)
            log.warning("deferral of interaction %s lost: %r", self.interaction.id, exc)
        return True


class OfcClient(discord.Client):
    """The discord.py client: ``setup_hook`` is the composition point (dynamic items, command
    sync); :attr:`ofc` is the adapter the items hand presses to. Its command tree has the
    adapter's ``/ofc`` and ``/ofcadmin`` groups."""

    def __init__(self, adapter: DiscordAdapter, **options: Any) -> None:
        super().__init__(**options)
        self.ofc = adapter
        self.tree: app_commands.CommandTree[OfcClient] = OfcTree(self)
        self.tree.add_command(OfcCommands(adapter))
        self.tree.add_command(OfcAdminCommands(adapter))
        self.tree.on_error = adapter._on_command_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        """Register the dynamic items (and, on the adapter's main client, sync the slash
        commands)."""
        await self.ofc.setup(self)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a guild (not an outage: that is ``on_guild_unavailable``):
        its tables close, after the hand in progress (R8.2a)."""
        log.info("the bot was removed from guild %s: its tables close", guild.id)
        await self.ofc.service.community_left(PLATFORM, str(guild.id))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot joined a guild: added back to one that removed it while a hand was in
        progress, the close the removal queued is cancelled (an admin's close stands) for
        each table in a channel the bot may write in (a channel deleted meanwhile, or
        locked to it, keeps the close: R8.2a); a table closed meanwhile has its message
        written as closed if the bot may write in its channel (else once it may:
        :meth:`DiscordAdapter.writable_again`)."""

        def writable(community: str, chat: str) -> bool:
            return chat.isdigit() and may_write(guild, int(chat))

        if await self.ofc.service.community_back(PLATFORM, str(guild.id), writable):
            log.info("the bot is back in guild %s: its tables stay open", guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A guild became available (GUILD_CREATE: at the start, or back after an outage or
        a reconnect), its bot member as it is now: a timeout of the bot still running (given
        while the bot was away, or before a restart, which lost the look at its end) is
        taken as if GUILD_MEMBER_UPDATE had told it (:meth:`DiscordAdapter.timed_out`): when
        it runs out a close its refused writes queued is cancelled (R8.2a). The guild's
        tables served here are looked at as the guild is now
        (:meth:`DiscordAdapter.look_at_closes`): a table a worker took over with its shard
        (issue 14) before Discord sent the guild (it streams them after the shard's READY)
        was looked at with no guild to see."""
        me = guild.me
        if me is not None and me.is_timed_out():
            self.ofc.timed_out(guild, me.timed_out_until)
        for thread in guild.threads:  # (GUILD_CREATE lists the threads the bot sees now)
            self.ofc.thread_joined(thread.id)
        try:
            await self.ofc.look_at_closes(guild)
        except Exception:  # (the closes stay queued; logged)
            log.exception("could not look at the closing tables of guild %s", guild.id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: a table in it closes, after the hand in progress (R8.2a)."""
        await self.ofc.service.chat_left(PLATFORM, str(channel.id))

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """A channel's settings changed (its permission overwrites, say: a moderator locks or
        unlocks it): if the bot may write there again, a close its refused writes queued is
        cancelled; if it may no longer, its table closes, at once between hands
        (:meth:`DiscordAdapter.writable_again`)."""
        await self.ofc.writable_again([after])

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions changed (Send Messages given back to @everyone, say): as
        :meth:`on_guild_channel_update`, for every channel of the guild."""
        if before.permissions != after.permissions:
            await self.ofc.writable_again(after.guild.channels)

    async def on_guild_role_delete(self, role: discord.Role) -> None:
        """A role was deleted (GUILD_ROLE_DELETE: the bot's own, say, through which it
        wrote; no GUILD_MEMBER_UPDATE comes): as :meth:`on_guild_role_update`."""
        await self.ofc.writable_again(role.guild.channels)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread's settings changed (a moderator unlocked it, say): if it is not locked
        and the bot may write in its channel's threads, a close its refused writes queued
        (400 50083: archived and locked; 160005: locked) is cancelled, as for a channel
        (:meth:`on_guild_channel_update`; an archived thread is unarchived by the next
        post). Locked (archived or not) while the bot holds no Manage Threads there, it
        refuses every write of the bot from now on: a table there closes as if its channel
        were locked, at once between hands (:meth:`DiscordAdapter.thread_locked`, R8.2a)."""
        meta: Mapping[str, Any] = payload.data.get("thread_metadata") or {}
        guild = self.get_guild(payload.guild_id)
        parent = guild.get_channel(payload.parent_id) if guild is not None else None
        if guild is None or guild.me is None or parent is None:
            return
        allowed = parent.permissions_for(guild.me)
        if meta.get("locked"):
            if not allowed.manage_threads:
                await self.ofc.thread_locked(payload.thread_id)
        elif allowed.view_channel and allowed.send_messages_in_threads:
            await self.ofc.back_in(payload.thread_id)

    async def on_thread_remove(self, thread: discord.Thread) -> None:
        """The bot was removed from a thread (THREAD_MEMBERS_UPDATE naming it, which Discord
        sends whatever the intents). From a private thread, without Manage Threads, it no
        longer sees the thread (its writes answer 403 50001): a table there closes as in a
        channel hidden from it, at once between hands (:meth:`DiscordAdapter.thread_left`,
        R8.2a). A public thread it may still write in (a post joins it again): nothing."""
        parent = thread.parent
        me = thread.guild.me
        if not thread.is_private() or parent is None or me is None:
            return
        if not parent.permissions_for(me).manage_threads:
            await self.ofc.thread_left(thread.id)

    async def on_thread_join(self, thread: discord.Thread) -> None:
        """The bot was added to a thread (THREAD_MEMBERS_UPDATE or THREAD_CREATE): if it may
        write there (not locked, Send Messages in Threads on its channel), a close its
        removal or refused writes queued is cancelled (:meth:`DiscordAdapter.back_in`)."""
        self.ofc.thread_joined(thread.id)
        if may_write(thread.guild, thread.id):
            await self.ofc.back_in(thread.id)

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the guild, or was kicked or banned (GUILD_MEMBER_REMOVE: the raw
        event, as members are not cached; sent only with the privileged members intent,
        ``DISCORD_MEMBERS_INTENT``): they leave its tables as ``/ofc leave`` would
        (:meth:`DiscordAdapter.member_gone`)."""
        await self.ofc.member_gone(payload.guild_id, payload.user)

    async def on_member_ban(
        self, guild: discord.Guild, user: discord.User | discord.Member
    ) -> None:
        """A member was banned (GUILD_BAN_ADD, the moderation intent: no privileged one, so
        a ban is known even without the members intent): as :meth:`on_raw_member_remove`."""
        await self.ofc.member_gone(guild.id, user)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """The bot's own member changed (GUILD_MEMBER_UPDATE, which Discord sends for the
        bot itself whatever the intents; other members are not cached, so this is the bot):
        a role given to it (or one of its roles taken back and given again), or a timeout
        lifted, may let it write again, a role taken away or a timeout given may keep it from
        writing: as :meth:`on_guild_role_update` (R8.2a). A timeout that runs out sends no
        event: the bot looks again when it ends (:meth:`DiscordAdapter.timed_out`)."""
        me = after.guild.me
        if me is None or after.id != me.id:
            return
        if before.timed_out_until != after.timed_out_until:
            self.ofc.timed_out(after.guild, after.timed_out_until)
        elif before.roles == after.roles:
            return
        await self.ofc.writable_again(after.guild.channels)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (THREAD_DELETE: not a ``guild_channel_delete``): a table in
        it closes, after the hand in progress (R8.2a)."""
        await self.ofc.service.chat_left(PLATFORM, str(payload.thread_id))

    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer presses that no item handles (a foreign or malformed ``custom_id``, or one
        no longer on the pressed message)."""
        await self.ofc.on_unrouted(interaction)


class TooManyShards(Exception):
    """``DISCORD_SHARD_COUNT=auto``: Discord recommends ``count`` shards, more than one
    process runs (``cap``: :attr:`DiscordAdapter.max_shards`, the composition root's
    :data:`~bot.config.MAX_SHARDS_PER_PROCESS`); the message is the one line to say
    (``python -m bot`` exits with status 2: the settings must change, to workers)."""

    def __init__(self, count: int, cap: int) -> None:
        super().__init__(
            f"DISCORD_SHARD_COUNT=auto: Discord recommends {count:,} shards for this bot, and"
            f" one process runs at most {cap}; run workers, each with"
            f" WORKER_ID, DISCORD_SHARD_COUNT={count} and DISCORD_SHARD_IDS of at most"
            f" {cap} (e.g. 0-{cap - 1}, {cap}-{2 * cap - 1}): docs/operations.md"
        )
        self.count = count


class OfcShardedClient(OfcClient, discord.AutoShardedClient):
    """:class:`OfcClient` running some shards only (``shard_ids`` of ``shard_count``): one of
    several workers sharing the tables (issue 14); discord.py's own sharding. Without a
    ``shard_count`` (``DISCORD_SHARD_COUNT=auto``, one process): every shard of the count
    Discord recommends (:meth:`launch_shards`)."""

    async def launch_shards(self) -> None:
        """Connect the shards; without a count, first ask Discord for the one it
        recommends (``GET /gateway/bot``, as discord.py would), refused past
        :attr:`DiscordAdapter.max_shards` before any shard connects (a count below
        one is taken as one).

        :raises TooManyShards: Discord recommends more than one process runs.
        :raises discord.DiscordServerError: Discord answered 5xx to the ask, retried."""
        if self.shard_count is None and not self.is_closed():
            try:
                count, _url, _limit = await self.http.get_bot_gateway()
            except discord.GatewayNotFound as exc:  # (discord.py's word for any refusal)
                if isinstance(exc.__cause__, discord.DiscordServerError):  # Discord down
                    # after discord.py's retries: the start's "cannot reach Discord" (exit
                    # status 75, restarted), as at login, not a traceback (status 1)
                    raise exc.__cause__ from None
                raise
            # (a count below one, never documented: no shard connected, and the bot waited
            # for good without a line; one shard serves every guild)
            count = max(count, 1)
            cap = self.ofc.max_shards
            if cap is not None and count > cap:
                raise TooManyShards(count, cap)
            self.shard_count = count
        await super().launch_shards()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Every IDENTIFY of this process's clients waits its turn
        (:meth:`DiscordAdapter.identify_turn`): a worker may run one client per shard it took
        over, and discord.py spaces the IDENTIFYs of one client only."""
        await self.ofc.identify_turn()


#: the choices of options the service reads (one list each: the service's own), named as the
#: bot's messages name them ("Pineapple OFC", "last 7 days"; Russian: :data:`_CHOICE_KEYS`)
_GAME_CHOICES = [
    app_commands.Choice(name=tr("en", f"game.{g.value}"), value=g.value) for g in PLAYABLE_GAMES
]
_PERIOD_CHOICES = [app_commands.Choice(name=tr("en", f"period.{p}"), value=p) for p in PERIODS]
_LEVEL_CHOICES = [
    app_commands.Choice(name=tr("en", f"bot.level.{lvl.value}"), value=lvl.value) for lvl in Level
]
#: The English names of the choices :class:`RussianDescriptions` names in Russian, with the key
#: of their Russian text: the levels of ``/ofc addbot`` (the seating notice's words), the
#: games of ``/ofc new`` and ``/ofc tournament`` (the lobby's names), the periods of
#: ``/ofc stats`` and ``/ofc top`` (the statistics' headings).
_CHOICE_KEYS: dict[str, str] = {
    tr("en", key): key
    for key in (
        *(f"bot.level.{lvl.value}" for lvl in Level),
        *(f"game.{g.value}" for g in PLAYABLE_GAMES),
        *(f"period.{p}" for p in PERIODS),
    )
}


async def _setting_names(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Setting names matching what the admin typed, in English or Russian
    (:func:`~bot.service.settings.settings_matching`, as ``/settings`` reads a name: "язык"
    offers ``language``), then the settings a Russian phrase typed or begun means
    (:func:`~bot.service.settings.setting_suggestions`: «цена очка» offers
    ``kush_per_point``, shown "цена очка → kush_per_point · куш_за_очко") and a word of
    :data:`~bot.service.settings.SETTING_WORDS` means («очко», "stakes"), each shown with
    its Russian name ("language · язык") and passed as its English one (Discord shows at
    most 25 suggestions, and there are more settings than that; a name typed in full is
    checked by the service), after ``all`` (every setting listed: ``settings`` alone lists
    those that differ from their defaults; for «все» too,
    :func:`~bot.service.settings.may_be_all`)."""
    typed = current.strip().lower()
    every = [app_commands.Choice(name="all · все", value="all")] if may_be_all(typed) else []
    return [
        *every,
        *(
            app_commands.Choice(
                name=f"{s.name} · {s.ru_name}"
                if phrase is None
                else f"{phrase} → {s.name} · {s.ru_name}",
                value=s.name,
            )
            for s, phrase in setting_suggestions(typed)
        ),
    ][:25]


class RussianDescriptions(app_commands.Translator):
    """Discord.py's translator for the slash commands: the Russian description
    (:data:`~bot.texts.DISCORD_DESCRIPTIONS_RU`) of each command, group and parameter for
    Discord's Russian and Ukrainian locales, as the bot answers those players in Russian
    (:func:`~bot.texts.language_of`); names and every other locale stay as written."""

    _LOCALES = frozenset({discord.Locale.russian, discord.Locale.ukrainian})
    _WHERE = frozenset(
        {
            app_commands.TranslationContextLocation.command_description,
            app_commands.TranslationContextLocation.group_description,
            app_commands.TranslationContextLocation.parameter_description,
        }
    )

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The Russian of ``string`` for a Russian-reading ``locale`` in a description, and of
        a choice's name (:data:`_CHOICE_KEYS`: a computer player's level as the seating notice
        says it, "сильный"; a game as the lobby names it, "Ананас (OFC)"; a period, "за 7
        дней"; the value sent stays English); else ``None`` (Discord shows the English)."""
        if locale not in self._LOCALES:
            return None
        if context.location is app_commands.TranslationContextLocation.choice_name:
            key = _CHOICE_KEYS.get(string.message)
            return tr("ru", key) if key is not None else None
        if context.location not in self._WHERE:
            return None
        return DISCORD_DESCRIPTIONS_RU.get(string.message)


class OfcCommands(app_commands.Group):
    """The ``/ofc`` command group (guilds only): everything but the admin commands, which are
    :class:`OfcAdminCommands`."""

    def __init__(self, adapter: DiscordAdapter) -> None:
        super().__init__(
            name="ofc", description="Open-Face Chinese Poker (Pineapple)", guild_only=True
        )
        self.adapter = adapter

    @app_commands.command(name="new", description="Open a table in this channel")
    @app_commands.describe(game="the game (default: this server's setting)")
    @app_commands.choices(game=_GAME_CHOICES)
    async def new(self, interaction: Interaction, game: str | None = None) -> None:
        """Open a table: "Table #N is open." in the channel; a refusal (a table is already
        open here: the service's ``Reply.alert``) is ephemeral. The outcome decides, not
        whether a table was here before: one closing as this came (R8.2a) lets it open."""
        service = self.adapter.service
        await self.adapter.command(interaction, lambda c, a: service.new_table(c, a, game))

    @app_commands.command(name="tournament", description="Open a sit-and-go tournament here")
    @app_commands.describe(game="the game (default: this server's setting)")
    @app_commands.choices(game=_GAME_CHOICES)
    async def tournament(self, interaction: Interaction, game: str | None = None) -> None:
        """Open a tournament lobby (R8.7), answered in the channel; a refusal (the service's
        ``Reply.alert``) is ephemeral, as for :meth:`new`."""
        service = self.adapter.service
        await self.adapter.command(interaction, lambda c, a: service.new_tournament(c, a, game))

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        """Take a seat (R8.2)."""
        await self.adapter.command(interaction, self.adapter.service.join, early=True)

    @app_commands.command(name="ready", description="Buy in and get ready")
    async def ready(self, interaction: Interaction) -> None:
        """Buy in (R8.2)."""
        await self.adapter.command(interaction, self.adapter.service.ready, early=True)

    @app_commands.command(name="leave", description="Leave the table")
    async def leave(self, interaction: Interaction) -> None:
        """Stand up (R8.2)."""
        await self.adapter.command(interaction, self.adapter.service.leave, early=True)

    @app_commands.command(
        name="addbot", description="Seat a computer player (the house pays its buy-in)"
    )
    @app_commands.describe(level="easy, normal or strong (default normal)")
    @app_commands.choices(level=_LEVEL_CHOICES)
    async def addbot(self, interaction: Interaction, level: str = "") -> None:
        """Seat a computer player (the table's opener or a member with Manage Server)."""
        admin = is_admin(interaction)
        service = self.adapter.service
        request = f"dc:{interaction.id}"
        await self.adapter.command(
            interaction,
            lambda chat, actor, answer: service.add_bot(
                chat, actor, admin, level, request, answer=answer
            ),
            early=True,
        )

    @app_commands.command(name="removebot", description="Stand a computer player up")
    @app_commands.describe(name="which one, e.g. Anna (default: the last one seated)")
    async def removebot(self, interaction: Interaction, name: str = "") -> None:
        """Stand the computer player ``name`` up, else the last one seated (the table's opener
        or an admin), as Telegram's ``/removebot [name]``."""
        admin = is_admin(interaction)
        service = self.adapter.service
        request = f"dc:{interaction.id}"
        await self.adapter.command(
            interaction,
            lambda chat, actor, answer: service.remove_bot(
                chat, actor, admin, request, name, answer=answer
            ),
            early=True,
        )

    @app_commands.command(
        name="topup", description="Top up your stack (asked during your hand: added when it ends)"
    )
    @app_commands.describe(amount="how much to add (default: the minimum buy-in)")
    async def topup(self, interaction: Interaction, amount: str = "") -> None:
        """Top up the stack (R8.2)."""
        service = self.adapter.service
        request = f"dc:{interaction.id}"  # an interaction seen twice applies once
        await self.adapter.command(
            interaction,
            lambda chat, actor, answer: service.top_up(
                chat, actor, amount, answer=answer, request=request
            ),
            early=True,
        )

    @app_commands.command(name="sitout", description="Skip hands, keeping your seat")
    async def sitout(self, interaction: Interaction) -> None:
        """Sit out (R8.6)."""
        await self.adapter.command(interaction, self.adapter.service.sit_out, early=True)

    @app_commands.command(name="back", description="Come back after sitting out")
    async def back(self, interaction: Interaction) -> None:
        """Come back (R8.6)."""
        await self.adapter.command(interaction, self.adapter.service.back, early=True)

    @app_commands.command(name="balance", description="Your balance")
    async def balance(self, interaction: Interaction) -> None:
        """The caller's balance (ephemeral)."""
        await self.adapter.command(interaction, self.adapter.service.balance, ephemeral=True)

    @app_commands.command(name="top", description="The leaderboard")
    @app_commands.describe(period="by winnings in a period (default: balance plus stacks)")
    @app_commands.choices(period=_PERIOD_CHOICES)
    async def top(self, interaction: Interaction, period: str = "") -> None:
        """The server's leaderboard: by balance plus stacks, or by kush won in a period."""
        service = self.adapter.service
        await self.adapter.command(interaction, lambda c, a: service.top(c, a, period))

    @app_commands.command(name="stats", description="Statistics of this server or a player")
    @app_commands.describe(user="whose (default: the server's and yours)", period="which period")
    @app_commands.choices(period=_PERIOD_CHOICES)
    async def stats(
        self,
        interaction: Interaction,
        user: discord.Member | discord.User | None = None,
        period: str = "",
    ) -> None:
        """Statistics (issue 12): the server's and the caller's, or one player's (a member,
        or a user who has left the server: Discord then resolves no member)."""
        service = self.adapter.service
        args = [a for a in (str(user.id) if user else "", period) if a]
        # a member who never played here is "no such player" by name, not by id
        shown = {str(user.id): shown_name(user)} if user else {}
        await self.adapter.command(interaction, lambda c, a: service.stats(c, a, args, shown))

    @app_commands.command(name="replay", description="Replay one of your hands street by street")
    @app_commands.describe(number="the hand's #number from /ofc history")
    async def replay(self, interaction: Interaction, number: int) -> None:
        """A hand street by street with ◀ ▶ (ephemeral: your discards are yours, R3.3)."""
        service = self.adapter.service
        await self.adapter.command(
            interaction, lambda c, a: service.replay(c, a, str(number), here=True), ephemeral=True
        )

    @app_commands.command(name="history", description="Your last hands")
    @app_commands.describe(count="how many of your last hands, 1–20 (default 5)")
    async def history(
        self,
        interaction: Interaction,
        count: app_commands.Range[int, 1, HISTORY_MAX] | None = None,
    ) -> None:
        """The caller's last ``count`` hands, 5 without it (ephemeral); Discord keeps
        ``count`` within 1..20, the service judges it again (one reading for both adapters)."""
        service = self.adapter.service
        arg = "" if count is None else str(count)
        await self.adapter.command(
            interaction, lambda c, a: service.history(c, a, arg), ephemeral=True
        )

    @app_commands.command(name="rules", description="Rules of this table's game")
    @app_commands.describe(game="the game (default: this table's)")
    @app_commands.choices(game=_GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str | None = None) -> None:
        """Short rules of ``game`` (this table's by default)."""
        service = self.adapter.service
        await self.adapter.command(interaction, lambda c, a: service.rules(c, a, game or ""))

    @app_commands.command(name="daily", description="Take the daily bonus")
    async def daily(self, interaction: Interaction) -> None:
        """The daily bonus (ephemeral)."""
        await self.adapter.command(interaction, self.adapter.service.daily, ephemeral=True)

    @app_commands.command(name="hand", description="Your board as a picture (only you see it)")
    async def hand(self, interaction: Interaction) -> None:
        """A picture of the caller's own board, ephemeral: only they see it (issue 12)."""
        service = self.adapter.service
        await self.adapter.command(
            interaction,
            lambda chat, actor: service.hand_picture(
                dataclasses.replace(chat, private=True), actor
            ),
            ephemeral=True,
        )

    @app_commands.command(name="help", description="What the bot can do")
    async def help(self, interaction: Interaction) -> None:
        """The command list."""
        await self.adapter.command(interaction, self.adapter.service.help)


class OfcAdminCommands(app_commands.Group):
    """The ``/ofcadmin`` command group: ``settings``, ``grant``, ``kick`` and ``close`` (guilds
    only).

    A top-level command of its own, because Discord applies default member permissions to
    top-level commands only: this one is shown to members with Manage Server (a server may
    change that under Integrations). So the adapter's own check (:func:`is_admin`) still
    decides every call.
    """

    def __init__(self, adapter: DiscordAdapter) -> None:
        super().__init__(
            name="ofcadmin",
            description="Open-Face Chinese Poker: admin commands",
            guild_only=True,
            default_permissions=discord.Permissions(manage_guild=True),
        )
        self.adapter = adapter

    @app_commands.command(
        name="settings", description="Admins: buy-in, point price, timers, language"
    )
    @app_commands.describe(name="the setting to change", value="its new value")
    @app_commands.autocomplete(name=_setting_names)
    async def settings(
        self, interaction: Interaction, name: str | None = None, value: str | None = None
    ) -> None:
        """Show the settings with buttons, or set one (admins; ephemeral). A ``value`` with
        no ``name`` goes to the service as such (an empty name), which refuses it. The
        options are split into words as Telegram's ``/settings hand_seconds 30`` is: a name
        typed with its value (``name:"hand_seconds 30"``, no ``value``) was "not a setting"."""
        admin = is_admin(interaction)
        args = [*((name or "").split() or [""]), *(value or "").split()] if name or value else []
        service = self.adapter.service
        await self.adapter.command(
            interaction, lambda c, a: service.settings(c, a, admin, args), ephemeral=True
        )

    @app_commands.command(name="close", description="Admins: close this channel's table")
    async def close(self, interaction: Interaction) -> None:
        """Close the table between hands, cashing every stack out (admins)."""
        admin = is_admin(interaction)
        service = self.adapter.service
        await self.adapter.command(
            interaction,
            lambda c, a, answer: service.close_table(c, a, admin, answer=answer),
            ephemeral=not admin,
            early=True,
        )

    @app_commands.command(name="grant", description="Admins: add to (or take from) a balance")
    @app_commands.describe(user="who gets it", amount="how much (negative takes)")
    async def grant(
        self, interaction: Interaction, user: discord.Member | discord.User, amount: int
    ) -> None:
        """Give kush to a member, or to a user who has left the server (Discord then resolves
        no member; their kush is still here): admins; public when granted, ephemeral when
        refused."""
        admin = is_admin(interaction)
        service = self.adapter.service
        key = f"dc:{interaction.id}"
        name = discord_name(shown_name(user))
        await self.adapter.command(
            interaction,
            lambda c, a: service.grant(
                c, a, admin, str(user.id), str(amount), key, target_name=name, target_bot=user.bot
            ),
            ephemeral=not admin,
        )

    @app_commands.command(
        name="kick",
        description="Admins: stand a player up, or unregister them from a tournament not started",
    )
    @app_commands.describe(user="who stands up (or is unregistered)")
    async def kick(self, interaction: Interaction, user: discord.Member | discord.User) -> None:
        """Stand a seated member up as their own leave would, or unregister them from a
        tournament not started, the buy-in back (admins), as Telegram's ``/kick @user``:
        public when done, ephemeral when refused to a non-admin."""
        admin = is_admin(interaction)
        service = self.adapter.service
        key = f"dc:{interaction.id}"
        # (as typed: the service escapes what it quotes, Runtime.typed_text; escaped here
        # too, "a_b" showed "a\_b")
        shown = shown_name(user)
        await self.adapter.command(
            interaction,
            lambda c, a, answer: service.kick(
                c, a, admin, str(user.id), shown, answer=answer, request=key
            ),
            ephemeral=not admin,
            early=True,
        )


def _quiet_discord_start() -> None:
    """A start-up says one line of its own (issue 12): the bot joins no voice channel, so
    discord.py's warnings about missing voice libraries (PyNaCl, davey) are switched off, and its
    "logging in using static token" (INFO) is dropped; a refused token is one ConfigError line."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    logging.getLogger("discord.client").addFilter(_drop_login_line)


def default_intents(*, members: bool = False) -> discord.Intents:
    """The gateway intents the bot asks for: guilds (channels, roles, threads, and the
    bot's own member updates, sent whatever the intents) and moderation (GUILD_BAN_ADD: a
    banned member leaves the tables); neither is privileged. ``members``: the privileged
    members intent too (``DISCORD_MEMBERS_INTENT``, to be switched on in the Developer
    Portal first or Discord closes the connection, 4014): GUILD_MEMBER_REMOVE, so that a
    member who leaves or is kicked leaves the tables as well."""
    return discord.Intents(guilds=True, moderation=True, members=members)


#: what the operator does when Discord refused the privileged members intent (close code
#: 4014): one text for :data:`MEMBERS_INTENT_REFUSED` and :data:`CLOSE_CODES`
_MEMBERS_INTENT_ADVICE = (
    "switch on Server Members Intent in the Developer Portal (Bot tab), or set "
    "DISCORD_MEMBERS_INTENT=0"
)

#: what to do when Discord refused the privileged members intent (close code 4014,
#: discord.py's ``PrivilegedIntentsRequired``): the start's line and a running bot's
MEMBERS_INTENT_REFUSED = f"Discord refused the members intent: {_MEMBERS_INTENT_ADVICE}"

#: the one line for a ``DISCORD_BOT_TOKEN`` Discord refused (:func:`token_refused`), however
#: it came (HTTP 401 at login, discord.py's ``LoginFailure``; the gateway's close code 4004)
#: and wherever: the start's ConfigError, a running bot's end, a worker's shard (operator text)
TOKEN_REFUSED = (
    "Discord refused DISCORD_BOT_TOKEN (was it reset?): copy the token from the Developer "
    "Portal (Bot tab) into .env"
)

#: Discord's gateway close codes that end a connection for good (discord.py reconnects on
#: every other; Discord's gateway docs, "Gateway Close Event Codes") → what the operator
#: does about it. Each is a setting, a token or an upgrade to change first: a restart alone
#: does not help (``python -m bot`` exits with status 2, a ConfigError).
CLOSE_CODES: dict[int, str] = {
    4004: TOKEN_REFUSED,
    4010: "Discord refused the shard (invalid shard): check DISCORD_SHARD_IDS and "
    "DISCORD_SHARD_COUNT",
    4011: "sharding required (the bot is in too many servers for one connection): set "
    "DISCORD_SHARD_COUNT=auto (or a count: at least one shard per 2,500 servers) to run every "
    "shard in this process, or run workers each with its DISCORD_SHARD_IDS (docs/operations.md)",
    4012: "Discord no longer takes the gateway version of this discord.py: upgrade it "
    "(pip install -U discord.py)",
    4013: "Discord refused the gateway intents as invalid: upgrade discord.py (pip install -U "
    "discord.py)",
    4014: f"the members intent was refused: {_MEMBERS_INTENT_ADVICE}",
}


def close_code_advice(code: int) -> str:
    """What to do about a gateway connection Discord closed for good with ``code`` (its close
    code): :data:`CLOSE_CODES`'s line, or for another code where to look it up."""
    return CLOSE_CODES.get(
        code,
        "see Discord's gateway close codes (https://discord.com/developers/docs/topics/"
        "opcodes-and-status-codes#gateway-gateway-close-event-codes)",
    )


def token_refused(exc: BaseException | None) -> bool:
    """Whether ``exc`` is Discord refusing the bot token: discord.py's ``LoginFailure`` (401
    at login) or a gateway connection closed with code 4004. Its line, wherever it is
    said, is :data:`TOKEN_REFUSED`."""
    if isinstance(exc, discord.LoginFailure):
        return True
    return isinstance(exc, discord.ConnectionClosed) and exc.code == 4004


def _drop_login_line(record: logging.LogRecord) -> bool:
    return record.getMessage() != "logging in using static token"


class DiscordAdapter:
    """Connects a :class:`TableService` to Discord.

    :param token: the bot token (``DISCORD_BOT_TOKEN``).
    :param intents: defaults to :func:`default_intents` (no privileged intent is needed:
        interactions arrive whatever the intents).
    :param connector: an aiohttp connector for REST and gateway (tests pass one that resolves
        no hostname), or a callable making one per client (see below).
    :param sync_commands: publish the slash commands at start-up (``PUT`` of the global list).
    :param answer_within: seconds after which a slow interaction is deferred.
    :param shard_ids: the shards this process runs (one of several workers, issue 14) with
        ``shard_count`` in all: an :class:`discord.AutoShardedClient` then connects them;
        ``None``: a plain client, every guild (one process). Empty (a worker whose shards are
        leased, :class:`bot.cluster.Worker`): the main client only logs in (REST: the
        presenter's messages, the command sync) and connects no shard; :meth:`connect_shard`
        and :meth:`disconnect_shard` run shards one by one.
    :param shard_count: the shards in all; ``"auto"`` without ``shard_ids`` (one process):
        every shard of the count Discord recommends when connecting
        (:meth:`OfcShardedClient.launch_shards`; :attr:`auto_shard_count` once connected).
    :param identify_interval: seconds between two IDENTIFYs of this process (Discord allows
        one per 5 s per ``max_concurrency`` bucket; discord.py's own spacing is per client).
    :param max_shards: the most shards ``shard_count="auto"`` runs here (more:
        :class:`TooManyShards` before any connects); ``None``: no bound.
    :param client_options: more :class:`discord.Client` options (e.g. ``guild_ready_timeout``).
    :param connector: an aiohttp connector, or a callable making one per client (the
        clients of shards connected later each need their own: a client closes its
        connector).
    """

    def __init__(
        self,
        service: TableService,
        token: str,
        *,
        intents: discord.Intents | None = None,
        connector: aiohttp.BaseConnector | Callable[[], aiohttp.BaseConnector] | None = None,
        sync_commands: bool = True,
        answer_within: float = ANSWER_WITHIN,
        shard_ids: Sequence[int] | None = None,
        shard_count: int | Literal["auto"] | None = None,
        identify_interval: float = 5.0,
        max_shards: int | None = None,
        **client_options: Any,
    ) -> None:
        self.service = service
        #: the most shards ``shard_count="auto"`` may run here (:class:`TooManyShards`
        #: past it; the composition root passes :data:`~bot.config.MAX_SHARDS_PER_PROCESS`);
        #: ``None``: no bound
        self.max_shards = max_shards
        #: awaited with each interaction before the service sees it (a worker takes the
        #: lease of the interaction's chat, issue 14: ``False`` when another worker serves
        #: it); ``None`` in one process
        self.claim: Callable[[Interaction], Awaitable[bool]] | None = None
        #: hands a DM press that ``claim`` refused to the worker serving its table
        #: (:meth:`bot.cluster.Worker.forward_press`: the table id and the press's JSON, see
        #: :meth:`take_forwarded`; that worker's answer, ``None`` if none took it); ``None``
        #: in one process
        self.forward: (
            Callable[[int, dict[str, Any]], Awaitable[Mapping[str, Any] | None]] | None
        ) = None
        self.token = token
        self.sync_commands = sync_commands
        self.answer_within = answer_within
        #: seconds the stop waits for the queued writes (:meth:`DiscordPresenter.finish`)
        self.stop_writes_seconds = STOP_WRITES_SECONDS
        options: dict[str, Any] = {
            "allowed_mentions": discord.AllowedMentions.none(),  # names never ping anyone
            "max_messages": None,  # no message cache: every message we need is in storage
            "chunk_guilds_at_startup": False,
            "member_cache_flags": discord.MemberCacheFlags.none(),
        }
        options.update(client_options)
        _quiet_discord_start()
        self.intents = intents or default_intents()
        auto = shard_count == "auto"
        self.shard_count = shard_count if isinstance(shard_count, int) else None
        self.identify_interval = identify_interval
        self._connector = connector
        self._options = options
        #: the main client only logs in: shards are connected one by one (a worker)
        self.rest_only = shard_ids is not None and not shard_ids
        main = dict(options, connector=self._new_connector(main=True))
        if shard_ids or (auto and shard_ids is None):
            # (auto: every shard of Discord's count, asked when connecting)
            main.update(shard_ids=list(shard_ids or ()) or None, shard_count=self.shard_count)
            self.client: OfcClient = OfcShardedClient(self, intents=self.intents, **main)
        else:
            self.client = OfcClient(self, intents=self.intents, **main)
        self.tree = self.client.tree
        #: shard id → the client running that one shard (connected by :meth:`connect_shard`)
        self._shard_clients: dict[int, tuple[OfcShardedClient, asyncio.Task[None]]] = {}
        #: guild id → the look at its channels when the bot's timeout runs out (:meth:`timed_out`)
        self._timeout_ends: dict[int, asyncio.Task[None]] = {}
        #: private threads the bot was removed from (:meth:`thread_left`) and not added back
        #: to: discord.py keeps them in its cache (their ``me`` too), as if still seen
        self._left_threads: set[int] = set()
        self._main_off: set[int] = set()  # shards of the main client disconnected
        self._identify_lock = asyncio.Lock()
        self._last_identify = -float("inf")
        #: with several workers (:meth:`bot.cluster.Worker.attach_discord`): waits for the
        #: bot's IDENTIFY slot shared by every worker, given :attr:`identify_interval`
        self.identify_gate: Callable[[float], Awaitable[None]] | None = None
        #: called with the error line once the running bot's gateway connection ended for
        #: good (:meth:`_connection_ended`; not on a stop): :func:`bot.app.run` stops the
        #: bot when Discord is all it serves
        self.on_ended: Callable[[str], object] | None = None
        self.presenter = DiscordPresenter(self.client)
        self._auto = auto
        self.presenter.on_locked_out = self._locked_out
        # a new message posted late (Discord was down): the service takes its ref
        self.presenter.on_posted = lambda chat, pending, ref: service.message_posted(
            PLATFORM, chat, pending, ref
        )
        # a showdown picture posted later given up: not owed any more (a restart skips it)
        self.presenter.on_picture_given_up = lambda chat, pending: service.picture_given_up(
            PLATFORM, chat, pending
        )
        # DMs found closed by a background write: the player is told to press "My cards"
        self.presenter.on_unreachable = lambda user: service.player_unreachable(PLATFORM, user)
        service.register(self.presenter, self.look_at_table)  # (a table taken over too)
        self._task: asyncio.Task[None] | None = None
        self._forwarded: set[asyncio.Task[None]] = set()  # presses other workers forwarded
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.presenter.quiet = self._idle

    @property
    def auto_shard_count(self) -> int | None:
        """``DISCORD_SHARD_COUNT=auto``: the shard count Discord recommended, every shard of
        it connected here (known once :meth:`start` returned); ``None`` with a count set or
        none (one unsharded connection)."""
        count = self.client.shard_count if self._auto else None
        return count if isinstance(count, int) else None

    # -- lifecycle -------------------------------------------------------------------------
    def _new_connector(self, *, main: bool = False) -> aiohttp.BaseConnector | None:
        """The connector of a new client: the one given (main client only) or a new one from
        the factory given; ``None``: discord.py's own."""
        if isinstance(self._connector, aiohttp.BaseConnector):
            return self._connector if main else None
        return None if self._connector is None else self._connector()

    async def setup(self, client: OfcClient) -> None:
        """Called from ``setup_hook``: register the dynamic items on ``client``; the main
        client syncs the commands (one global list for every client of the bot)."""
        client.add_dynamic_items(PayloadButton, BoxSelect, PickSelect)
        if self.sync_commands and client is self.client:
            try:
                await self.tree.set_translator(RussianDescriptions())
                await self.tree.sync()
            except discord.HTTPException as exc:
                log.warning("could not sync the slash commands: %s", exc)

    async def identify_turn(self) -> None:
        """Wait until :attr:`identify_interval` seconds have passed since this process's last
        IDENTIFY (the first one goes at once) and, with several workers, for the slot they
        share (:attr:`identify_gate`)."""
        loop = asyncio.get_running_loop()
        async with self._identify_lock:
            wait = self._last_identify + self.identify_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if self.identify_gate is not None:
                await self.identify_gate(self.identify_interval)
            self._last_identify = loop.time()

    async def start(self, *, ready_timeout: float = 60.0) -> None:
        """Log in, then connect the gateway in a task and wait until the client is ready.

        :raises discord.LoginFailure: the token was refused.
        :raises OSError: Discord cannot be reached (``aiohttp.ClientConnectorError``).
        :raises TimeoutError: not ready within ``ready_timeout`` seconds.
        """
        self.presenter.stopping = False  # (started again after a stop)
        try:
            await self.client.login(self.token)
            if self.rest_only:
                return  # the shards are connected by connect_shard
            self._task = await _connected(self.client, ready_timeout, "discord")
        except BaseException:
            await self.stop()
            raise
        self._task.add_done_callback(self._connection_ended)

    def _connection_ended(self, task: asyncio.Task[None]) -> None:
        """The gateway connection of a running bot ended without a stop (discord.py gives up
        only on what reconnecting cannot mend): one error line saying why and what to do, as
        at the start. A token reset in the Developer Portal (close code 4004) or the members
        intent switched off there (4014) left the bot running on, Discord unserved, and said
        nothing. :attr:`on_ended`, if set, is then called with the line (Discord the only
        platform: the bot stops)."""
        if task.cancelled() or self.presenter.stopping:
            return
        exc = task.exception()
        if isinstance(exc, discord.PrivilegedIntentsRequired):
            why = f"{MEMBERS_INTENT_REFUSED}, then start the bot again"
        elif token_refused(exc):  # (reset in the Developer Portal: 4004)
            why = f"{TOKEN_REFUSED}, then start the bot again"
        elif isinstance(exc, discord.ConnectionClosed) and exc.code in CLOSE_CODES:
            # (4011: the bot grew past a shard's servers; its repr read as a traceback)
            why = (
                f"Discord closed the connection (close code {exc.code}): "
                f"{close_code_advice(exc.code)}, then start the bot again"
            )
        else:
            # (its text only if of a kind that cannot name a card, R3.3: the filter of
            # bot.logs cannot see an exception already written into the line; logs44)
            said = repr(exc)  # (None: the client returned)
            if exc is not None and not text_kept(exc):
                said = f"{said_by_type(exc)} at {raised_at(exc)}"
            why = f"its connection ended ({said}): start the bot again"
        line = f"Discord is no longer served: {why}"
        log.error("%s", line)
        if self.on_ended is not None:
            self.on_ended(line)

    async def stop(self) -> None:
        """Finish the queued edits and close the connections."""
        await self.idle()
        self.presenter.stop_retries()  # (an outage would hold the stop for minutes)
        await self.presenter.finish(self.stop_writes_seconds)  # (so would a long 429)
        await self.presenter.stop_pictures()
        for task in self._timeout_ends.values():
            task.cancel()
        for shard_id in list(self._shard_clients):
            await self.disconnect_shard(shard_id)
        await self.client.close()
        if self._task is not None:  # (an end that was no stop: logged, _connection_ended)
            with contextlib.suppress(
                asyncio.CancelledError, discord.ConnectionClosed, discord.ClientException
            ):
                await self._task
            self._task = None

    # -- shards moved between workers (issue 14) -----------------------------------------
    @property
    def shards(self) -> frozenset[int]:
        """The shard ids running now: the main client's (unless disconnected) and those of
        :meth:`connect_shard`, as long as their client's connection task runs (discord.py
        reconnects inside it; it ends only when the client gives up, say a session Discord
        refuses)."""
        running = {i for i, (_, task) in self._shard_clients.items() if not task.done()}
        main = self.client
        if isinstance(main, OfcShardedClient) and self._task is not None and not self._task.done():
            running.update(i for i in main.shard_ids or () if i not in self._main_off)
        return frozenset(running)

    async def connect_shard(self, shard_id: int, *, ready_timeout: float = 60.0) -> None:
        """Run one more shard (``shard_id`` of :attr:`shard_count`): a shard of the main
        client that was disconnected connects again; any other gets a client of its own,
        discord.py's :class:`~discord.AutoShardedClient` with ``shard_ids=[shard_id]``
        (discord.py adds no shard to a running client), with the same commands, items and
        handlers. Returns once the shard's session is up (READY: its interactions reach this
        process; the guilds fill discord.py's cache meanwhile); nothing when it runs.

        :raises TimeoutError: not ready within ``ready_timeout`` seconds (nothing left
            running).
        :raises ValueError: no :attr:`shard_count`, or ``shard_id`` not below it.
        """
        if self.shard_count is None or not 0 <= shard_id < self.shard_count:
            raise ValueError(f"shard {shard_id} of {self.shard_count} shards")
        if isinstance(self.client, OfcShardedClient):
            info = self.client.get_shard(shard_id)
            if info is not None:
                await info.connect()  # nothing when it is connected
                self._main_off.discard(shard_id)
                return
        if shard_id in self._shard_clients:
            return
        options = dict(self._options, shard_ids=[shard_id], shard_count=self.shard_count)
        options["connector"] = self._new_connector()
        client = OfcShardedClient(self, intents=self.intents, **options)
        try:
            await client.login(self.token)
            task = await _connected(client, ready_timeout, f"discord-shard-{shard_id}", shard_id)
        except BaseException:
            await client.close()
            raise
        self._shard_clients[shard_id] = (client, task)
        log.info("Discord: shard %s of %s connected", shard_id, self.shard_count)

    async def disconnect_shard(self, shard_id: int) -> None:
        """Stop running a shard (its guilds' interactions no longer reach this process):
        its own client is closed, a shard of the main client disconnected. Nothing when it
        does not run here."""
        entry = self._shard_clients.pop(shard_id, None)
        if entry is not None:
            client, task = entry
            await client.close()
            with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
                await task
        elif isinstance(self.client, OfcShardedClient):
            info = self.client.get_shard(shard_id)
            if info is None:
                return
            self._main_off.add(shard_id)
            await info.disconnect()
        else:
            return
        log.info("Discord: shard %s disconnected", shard_id)

    async def idle(self) -> None:
        """Wait until no interaction is being handled."""
        await self._idle.wait()

    def _busy(self, delta: int) -> None:
        self._inflight += delta
        if self._inflight:
            self._idle.clear()
        else:
            self._idle.set()

    # -- commands --------------------------------------------------------------------------
    async def command(
        self,
        interaction: Interaction,
        call: Callable[..., Awaitable[Reply]],
        *,
        ephemeral: bool = False,
        early: bool = False,
    ) -> None:
        """Run one slash command through the service and answer it: ephemerally when
        ``ephemeral``, when the service refused (``Reply.alert``) or marked the reply
        private (``Reply.private``), publicly otherwise.

        ``call(chat, actor)`` returns the reply; with ``early`` (a table command: join,
        ready, leave, topup, sitout, back, addbot, removebot, close) it is
        ``call(chat, actor, answer)``, the service calling ``answer`` as soon as the
        command's step is committed, before the step's messages go out (a DM or channel
        Discord makes the bot wait on, a 429, never delays the answer, as on Telegram and as
        for a press)."""
        self._busy(+1)
        ack: _Ack | None = None
        answered = served = given = False
        failed: list[Exception] = []  # answering failed: the error handler answers

        async def answer(reply: Reply) -> None:
            """Answer once: the service's early answer, or what the call returned."""
            nonlocal answered, given
            if given or ack is None:
                return
            given = True
            ack.stop()
            try:
                answered = await self._answer_command(interaction, reply, ack, ephemeral)
            except Exception as exc:  # not into the service: raised below
                failed.append(exc)

        try:
            actor = actor_of(interaction)
            self.presenter.user_seen(actor.user_id, in_dm=interaction.guild_id is None)
            ack = _Ack(interaction, self.answer_within, ephemeral=ephemeral)
            try:
                if self.claim is not None:
                    await self.claim(interaction)
                args = (answer,) if early else ()
                reply = await call(chat_of(interaction), actor, *args)
                served = True  # (what the command did is committed: never "nothing changed")
            except Exception:
                log.exception("%s failed", describe(interaction))
                reply = Reply(tr(language_of(actor.language), "err.internal"), alert=True)
            finally:
                ack.stop()
            await answer(reply)  # not answered yet: the reply of a command with no step
            if failed:
                served = True  # (showing the answer failed: what the command did is saved)
                raise failed[0]
        except Exception as exc:
            if not answered and not ephemeral and ack is not None and await ack.deferred():
                await _drop_placeholder(interaction)  # the error notice follows privately
            await self.on_error(interaction, exc, served=served)
        finally:
            self._busy(-1)

    async def _answer_command(
        self, interaction: Interaction, reply: Reply, ack: _Ack, ephemeral: bool
    ) -> bool:
        """Send ``reply`` as the answer to a slash command (:meth:`command`): ephemerally
        when ``ephemeral``, when it is a refusal, or when the service marks it the caller's
        alone (``Reply.private``: never in the channel, as Telegram shows such a screen only
        in the private chat); whether Discord took it (a refusal of the answer itself is
        logged)."""
        private = ephemeral or reply.alert or reply.private
        content = content_of(_compose(reply.text, reply.screen)) or "…"
        view = view_of(reply.screen) if reply.screen else None
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        if reply.picture is not None:  # /ofc hand, /ofc stats: the picture attached
            extra["file"] = discord.File(
                io.BytesIO(reply.picture),
                filename=reply.picture_name,
                description=reply.caption,  # the image's alt text
            )
        answered = False
        try:
            if await ack.deferred():
                if private and not ephemeral:  # the refusal (private reply) follows privately
                    await _drop_placeholder(interaction)
                await interaction.followup.send(content, ephemeral=private, **extra)
            else:
                await interaction.response.send_message(content, ephemeral=private, **extra)
            answered = True
        except discord.HTTPException as exc:
            # (the command's name and the interaction: the command object's repr says
            # neither, "<...Command object at 0x…>")
            name = interaction.command.qualified_name if interaction.command else "?"
            log.warning("could not answer /%s (interaction %s): %s", name, interaction.id, exc)
        if view is not None:
            view.stop()  # items route by custom_id; the instance need not listen
        return answered

    async def on_error(
        self, interaction: Interaction, error: BaseException, *, served: bool = False
    ) -> None:
        """The one error handler: an unexpected exception of a slash command (the command
        tree's ``on_error``) or of a press (the items hand presses to :meth:`_press`, which
        sends what it raises here) is logged once with the interaction, and the user is told
        ephemerally that nothing changed; ``served``: it came after the service answered
        (showing the answer failed), so whatever the command did is saved: told so
        (``err.not_shown``), never "nothing changed". (A failure of the service call itself
        is answered "nothing changed" by :meth:`command` and :meth:`_press`, through their
        usual answer; the service answers one after a committed step itself.)

        A slash command this bot does not have (``CommandNotFound``: removed, renamed or
        moved, as ``/ofc settings`` to ``/ofcadmin``; ``CommandSignatureMismatch``: a group
        run as a command, a required option missing) comes from a command list other than
        the one this process runs: a Discord client's from before a deploy, or the newer
        one a worker of another version synced during a rolling deploy (issue 14). No
        failure of the bot, and "please try again" at once fails the same way: answered
        ``reply.command_outdated`` (reload Discord or try again in a few minutes; ``/ofc
        help`` lists the commands), logged at INFO without a traceback. Typing into an
        option of one (an old ``/ofc settings name:`` had its names suggested) asks for
        suggestions: none are given (an autocomplete takes choices, never a message), and
        the command's own run says the rest. An option of another type than the command
        declares (:class:`OptionMismatch`, from such a list or forged) is answered so too,
        naming the option (``reply.option_outdated``), and one run without an option it
        requires (:class:`OptionMissing`) naming the option missing (``reply.option_missing``;
        it was told the bot did not know the command)."""
        if isinstance(error, app_commands.CommandInvokeError):
            error = error.original
        lang = language_of(interaction.locale.value)
        if isinstance(error, (*_NOT_OURS, OptionMismatch)):
            log.info("%s: not a command of this bot (%s)", describe(interaction), error)
            if interaction.type is discord.InteractionType.autocomplete:
                with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
                    await interaction.response.autocomplete([])
                return
            if isinstance(error, OptionMissing):
                text = tr(lang, "reply.option_missing", option=error.option)
            elif isinstance(error, OptionMismatch):
                text = tr(lang, "reply.option_outdated", option=error.option)
            else:
                text = tr(lang, "reply.command_outdated")
            text = discord_commands(text)
        else:
            log.error("%s failed", describe(interaction), exc_info=error)
            text = tr(lang, "err.not_shown" if served else "err.internal")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            # (the network too, as when the answer it tells of was lost: raised, it reached
            # discord.py, which logged the pressed item, its label a card's face, R3.3)
            log.info("could not tell the user about the failure: %s", exc)

    async def _on_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.on_error(interaction, error)

    # -- presses ---------------------------------------------------------------------------
    async def on_press(self, interaction: Interaction, data: str) -> None:
        """A :class:`PayloadButton` was pressed: one press to the service."""
        await self._press(interaction, [data])

    async def on_select(
        self, interaction: Interaction, values: Sequence[str], already: Sequence[str]
    ) -> None:
        """Options were chosen in a :class:`BoxSelect` (cards for a box) or a
        :class:`PickSelect` (a button): each newly chosen one is the press of the button it
        stands for, in order; the preselected ones are already there. A preselected card
        left out (unticked) is taken back first (:class:`~bot.presses.TakeBack`, R3.4): the
        menu then shows what the board holds, never a card gone that is still placed."""
        placed, chosen = set(already), set(values)
        taken_back = [_take_back(v) for v in already if v not in chosen]
        datas = [d for d in taken_back if d is not None]
        await self._press(interaction, datas + [v for v in values if v not in placed])

    async def _locked_out(self, channel_id: str, sent: float) -> None:
        """The bot may no longer see or write in the guild channel ``channel_id`` (a
        permission taken away, 403 50001/50013): its table closes after the hand in
        progress (R8.2a), as when the channel is deleted; nobody could read it any more
        (unless the refused write was ``sent`` before the bot was invited back: the
        service ignores it)."""
        if await self.service.chat_left(PLATFORM, channel_id, sent):
            log.info("the bot may not write in channel %s any more: its table closes", channel_id)

    async def member_gone(self, guild_id: int, user: discord.abc.User) -> None:
        """The user is no longer a member of the guild ``guild_id`` (left, kicked or
        banned): they can press none of its tables' buttons any more, so at each table there
        they leave as ``/ofc leave`` would (:meth:`TableService.member_gone`: R8.2, R8.5,
        R8.7: between hands at once, the stack back to the balance; during a hand after it,
        the clock playing for them), and the channel is told. Another bot is never seated."""
        if user.bot:
            return
        try:
            left = await self.service.member_gone(PLATFORM, str(guild_id), str(user.id))
        except Exception:  # (storage refused: the seat stays; logged)
            log.exception("could not stand up user %s, gone from guild %s", user.id, guild_id)
            return
        if left:
            log.info("user %s left guild %s: stood up at %d table(s)", user.id, guild_id, left)

    async def writable_again(self, channels: Sequence[discord.abc.GuildChannel]) -> None:
        """Of ``channels`` (their permissions just changed), each one the bot may see and
        write in: a table there whose close its refused writes queued (403 50001/50013,
        :meth:`_locked_out`) goes on, and the channel is told, as when a Telegram group lets
        the bot write again (R8.2a; ``my_chat_member``). Each one with a table the bot may
        no longer see or write in (View Channel or Send Messages taken away by an overwrite,
        a role or a timeout) has it closed as a refused write would (:meth:`_lost`): at once
        between hands, so that no hand is dealt into a channel nobody reads. Threads are not
        taken for channels (their own update tells of a lock:
        :meth:`OfcClient.on_raw_thread_update`), but a channel's threads (the cache's, the
        active ones) go with it: those the bot may write in again (Send Messages in Threads
        given back on the channel or a role: no THREAD_UPDATE comes) are looked at as
        channels, those not locked (or locked, the bot holding Manage Threads); a table in
        one the bot may no longer see or write in (View Channel or Send Messages in Threads
        taken on the channel or a role) closes as in a channel (:meth:`_lost`). Those the bot
        may write in are told to the service at once
        (:meth:`~bot.service.TableService.chats_back`: one read of storage for the closed
        tables owed there, not one a channel)."""
        back: list[int] = []
        for channel in channels:
            me = channel.guild.me
            if me is None or isinstance(channel, discord.Thread):
                continue
            allowed = channel.permissions_for(me)
            if allowed.view_channel and allowed.send_messages:
                back.append(channel.id)
            else:
                await self._lost(channel.id)
            threads_ok = allowed.view_channel and allowed.send_messages_in_threads
            for thread in getattr(channel, "threads", ()):  # (the cache's, active ones)
                if not threads_ok:
                    await self._lost(thread.id)
                elif _open_to(thread, allowed) and self._sees(thread, allowed):
                    back.append(thread.id)
        await self.back_in(*back)

    async def look_at_restored(self) -> None:
        """The tables are restored (a start: call it after
        :meth:`~bot.service.TableService.start`; the guilds were available before, with no
        table yet): :meth:`look_at_closes` for every guild of the client."""
        for guild in list(self.client.guilds):
            try:
                await self.look_at_closes(guild)
            except Exception:  # (the closes stay queued; logged)
                log.exception("could not look at the closing tables of guild %s", guild.id)
        # a table closed while the bot was out of its guild, whose table message waits for
        # its return: a guild that took the bot back while it was stopped sends no
        # on_guild_join (it is in READY), so the message is written now if the bot may
        # (it kept the table open with its buttons until someone pressed one)
        guilds = {str(g.id): g for g in self.client.guilds}

        def writable(community: str, chat: str) -> bool:
            guild = guilds.get(community)
            return guild is not None and chat.isdigit() and may_write(guild, int(chat))

        try:
            await self.service.owed_found(PLATFORM, writable)
        except Exception:  # (they keep waiting; logged)
            log.exception("could not look at the tables closed while the bot was out")

    async def look_at_closes(self, guild: discord.Guild) -> None:
        """``guild``'s tables are restored (:meth:`look_at_restored`): each whose close the
        bot's removal or its refused writes queued (R8.2a) is looked at as the channel is
        now, as if it had just been updated (:meth:`writable_again`; a thread as its own
        update is, :meth:`OfcClient.on_raw_thread_update`): the bot let back while it was
        stopped (the permission given back, or invited back into the server) sees no event
        of it, and the close stood, closing a table whose chat the bot may write in
        again."""
        for t in list(self.service.tables.values()):
            if t.platform == PLATFORM and t.community_ext == str(guild.id):
                await self._look_at_close(guild, t)

    async def look_at_table(self, t: LiveTable) -> None:
        """One restored table, as :meth:`look_at_closes` looks at each of a guild: when this
        worker takes the table over from another (issue 14; the service calls it,
        :meth:`~bot.service.TableService.adopt`), its shard connected here (the guild as it
        is now). Nothing for a guild this process does not see yet: Discord sends a shard's
        guilds after its READY, and each is looked at once available
        (:meth:`OfcClient.on_guild_available`)."""
        if t.platform != PLATFORM or not t.community_ext.isdigit():
            return
        guild_id = int(t.community_ext)
        # (a worker runs each shard it took on a client of its own: connect_shard)
        clients = [c for c, _ in self._shard_clients.values()] + [self.client]
        for client in clients:
            guild = client.get_guild(guild_id)
            if guild is not None:
                await self._look_at_close(guild, t)
                return

    async def _look_at_close(self, guild: discord.Guild, t: LiveTable) -> None:
        me = guild.me
        if me is None or not (t.closing and t.removal_close) or not t.chat_id.isdigit():
            return
        channel = guild.get_channel_or_thread(int(t.chat_id))
        if isinstance(channel, discord.Thread):
            parent = channel.parent
            if parent is None or not may_write(guild, channel.id):
                return
            if self._sees(channel, parent.permissions_for(me)):
                await self.back_in(channel.id)
        elif channel is not None:
            await self.writable_again([channel])

    def timed_out(self, guild: discord.Guild, until: datetime.datetime | None) -> None:
        """A server admin timed the bot out in ``guild`` until ``until`` (aware UTC; ``None``
        or past: the timeout is lifted or over). Its writes there are refused meanwhile (403
        50013: the tables close after the hand, R8.2a, :meth:`_locked_out`); Discord sends
        no event when a timeout runs out, so the channels are looked at again then
        (:meth:`writable_again`: a close the refused writes queued is cancelled, as when a
        timeout is lifted). A newer timeout replaces the older one's look."""
        old = self._timeout_ends.pop(guild.id, None)
        if old is not None:
            old.cancel()
        if until is None:
            return
        wait = (until - discord.utils.utcnow()).total_seconds()
        if wait <= 0:
            return

        async def look_again() -> None:
            await asyncio.sleep(wait + TIMEOUT_END_MARGIN)
            if self._timeout_ends.get(guild.id) is task:
                del self._timeout_ends[guild.id]
            try:
                await self.writable_again(guild.channels)
            except Exception:  # (the close stays queued; logged)
                log.exception("could not look at guild %s after the bot's timeout", guild.id)

        task = asyncio.create_task(look_again(), name=f"dc-timeout-{guild.id}")
        self._timeout_ends[guild.id] = task

    async def thread_locked(self, thread_id: int) -> None:
        """A moderator locked the thread ``thread_id`` (THREAD_UPDATE; the bot holds no
        Manage Threads there): Discord refuses the bot's posts and edits there from now on
        (160005, or 50083 once archived too), so a table there closes as :meth:`_lost` closes
        one of a channel locked to the bot (R8.2a: at once between hands, no hand dealt into
        a thread whose table message cannot change; else after the hand in progress, played
        out in the DMs and ephemeral hands). Unlocked before that, the close is cancelled
        (:meth:`back_in`)."""
        await self._lost(thread_id)

    async def thread_left(self, thread_id: int) -> None:
        """The bot was removed from the private thread ``thread_id`` and holds no Manage
        Threads there (THREAD_MEMBERS_UPDATE): it no longer sees the thread, which
        discord.py's cache keeps as it was, so it is remembered as not seen (no channel or
        role update takes it for writable again: :meth:`writable_again`) until the bot is
        added back (:meth:`thread_joined`), and its table closes as :meth:`thread_locked`
        closes one (R8.2a)."""
        self._left_threads.add(thread_id)
        await self._lost(thread_id)

    def thread_joined(self, thread_id: int) -> None:
        """The bot sees the thread ``thread_id`` again (added back, or listed by the
        gateway's GUILD_CREATE or THREAD_LIST_SYNC): no longer taken as left
        (:meth:`thread_left`)."""
        self._left_threads.discard(thread_id)

    def _sees(self, thread: discord.Thread, allowed: discord.Permissions) -> bool:
        """Whether the bot sees ``thread`` (``allowed``: its permissions in the thread's
        channel): not a private one it was removed from (:meth:`thread_left`) unless it holds
        Manage Threads."""
        return thread.id not in self._left_threads or allowed.manage_threads

    async def _lost(self, channel_id: int) -> None:
        """The gateway says the bot may no longer see or write in the channel
        ``channel_id`` (:meth:`writable_again`): a table there closes (R8.2a, as
        :meth:`_locked_out`: at once between hands, else after the hand in progress, played
        out in the players' DMs and ephemeral hands). A table whose close is queued so
        already is left as it is."""
        t = self.service.rt.table_at(PLATFORM, str(channel_id))
        if t is None or (t.closing and t.removal_close):
            return
        try:
            if await self.service.chat_left(PLATFORM, str(channel_id)):
                log.info("the bot may not see or write in channel %s: its table closes", channel_id)
        except Exception:  # (storage refused: the next refused write queues it again; logged)
            log.exception("could not close the table of channel %s", channel_id)

    async def back_in(self, *channel_ids: int) -> None:
        """The bot may write in the channels (or threads) ``channel_ids`` again: a close of
        each one's table that the bot's refused writes queued is cancelled
        (:meth:`writable_again`), the closed tables owed there looked for in one read
        (:meth:`~bot.service.TableService.chats_back`)."""
        if not channel_ids:
            return
        try:
            cancelled = await self.service.chats_back(PLATFORM, [str(c) for c in channel_ids])
            if cancelled:
                log.info("the bot may write in %d channel(s) again: their tables stay", cancelled)
        except Exception:  # (storage refused: the close stays queued; logged)
            log.exception("could not keep the tables of channels %s open", channel_ids)

    async def on_unrouted(self, interaction: Interaction) -> None:
        """Answer, with an ephemeral notice, a component press that no item handles: a
        foreign or malformed ``custom_id`` ("unknown button"), or one that is no longer on
        the pressed message ("out of date": a double click racing an edit; discord.py's
        dynamic items drop such a press without any response, exactly when
        :func:`_on_message` is false). A card's button gone that way (a fast second tap on
        the hand, the first one's update already shown) goes to the service as any press: it
        counts as one of the current screen when it is of the street being played (R3.4).
        So does a lobby's Join, Ready, Leave, Register or Unregister gone from the table message (a
        busy lobby: two members pressed it at once, the first press edited the message): it
        counts when its meaning for its presser cannot have changed, else it is "out of
        date" without the table message being written again (``shown`` false: it already
        shows a newer screen). A form submitted (the bot opens none: forged) is an unknown
        button too."""
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if interaction.type is discord.InteractionType.modal_submit:
            # the bot opens no form: a submit is forged (discord.py finds no modal and
            # answers nothing, "This interaction failed")
            await self._notice(interaction, custom_id, "err.forged")
            return
        if interaction.type is not discord.InteractionType.component:
            return
        if not is_routed(custom_id):
            key = "err.forged"
        elif not _on_message(interaction.message, custom_id, data.get("component_type")):
            button = data.get("component_type") == discord.ComponentType.button.value
            if button and isinstance(decode(custom_id), CARD_PRESSES):
                await self.on_press(interaction, custom_id)
                return
            if button and isinstance(decode(custom_id), _LOBBY_PRESSES):
                await self._press(interaction, [custom_id], shown=False)
                return
            key = "err.stale_edited"  # (the message shows newer buttons already)
        else:
            return  # an item answers it
        await self._notice(interaction, custom_id, key)

    async def on_forged(self, interaction: Interaction, custom_id: str) -> None:
        """A button carrying a select's ``custom_id`` was pressed (forged: the bot sends
        none): "unknown button", nothing pressed."""
        await self._notice(interaction, custom_id, "err.forged")

    async def _notice(self, interaction: Interaction, custom_id: str, key: str) -> None:
        """Answer a press of ``custom_id`` with the ephemeral notice ``key``, in the language
        the service answers that table's presses in (a group that reads Russian read "out of
        date" in the English of the presser's client)."""
        text = self.service.press_notice(actor_of(interaction), routed_table(custom_id), key)
        with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
            await interaction.response.send_message(text, ephemeral=True)

    async def _press(
        self, interaction: Interaction, datas: list[str], *, shown: bool | None = None
    ) -> None:
        self._busy(+1)
        failed: list[Exception] = []  # answering failed: the error handler answers
        #: this interaction's turn to write the pressed message, taken anew as each of its
        #: presses' steps ends (:meth:`DiscordPresenter.answer_turn`): an answer made later
        #: (a batch stopped by a refusal, after that press's messages went out) holds the
        #: turn of its last step, not one after a press of the message that came since
        turn: AnswerTurn | None = None
        try:
            actor = actor_of(interaction)
            self.presenter.user_seen(actor.user_id, in_dm=interaction.guild_id is None)
            message = interaction.message
            on_hand = message is not None and (
                message.flags.ephemeral or interaction.guild_id is None
            )
            ack = _Ack(interaction, self.answer_within, ephemeral=True)
            answered = False

            def step_done() -> None:
                """A step of this interaction's presses ended (committed or refused): the
                message's next turn is this answer's (the one before it given up)."""
                nonlocal turn
                if message is None or answered:
                    return
                before, turn = turn, self.presenter.answer_turn(message.channel.id, message.id)
                if before is not None:
                    before.finish()

            async def stepped(_reply: Reply) -> None:
                step_done()

            async def answer(reply: Reply, *, fresh: bool = True) -> None:
                """Answer once: as soon as the last press's step is committed, before its
                messages (a showdown's picture is drawn and uploaded) are sent (``fresh``;
                else made after them, in the turn of the last step, :func:`step_done`). An
                answer that writes the pressed message waits for that message's earlier
                answers (:meth:`DiscordPresenter.answer_turn`; the deferral still comes on
                time) and writes it only if no later press's answer came meanwhile."""
                nonlocal answered
                if answered:
                    return
                writes = (
                    message is not None
                    and reply.screen is not None
                    and (on_hand or not reply.private)
                )
                if writes and (fresh or turn is None):
                    step_done()
                answered = True
                # (a press on an ephemeral hand: its refreshes wait for this answer)
                live: contextlib.AbstractContextManager[Opening | None]
                live = contextlib.nullcontext()
                if (
                    writes
                    and turn is not None
                    and message is not None
                    and message.flags.ephemeral
                    and reply.private
                    and reply.screen is not None
                ):
                    live = self.presenter.answering_live(
                        actor.user_id, reply.screen.table, turn.stamp
                    )
                elif (
                    not on_hand
                    and message is not None
                    and reply.private
                    and reply.live
                    and reply.screen is not None
                ):
                    # "My cards": the hand posted as a new ephemeral message; a step told
                    # while it is on its way is written on it once posted
                    live = self.presenter.opening_live(actor.user_id, reply.screen.table)
                try:
                    with live as opening:
                        if writes and turn is not None:
                            await turn.wait()
                        ack.stop()
                        newest = not writes or turn is None or turn.newest
                        stamp = None if not writes or turn is None else turn.stamp
                        await self._answer_press(
                            interaction,
                            reply,
                            on_hand,
                            ack,
                            newest=newest,
                            stamp=stamp,
                            opening=opening,
                        )
                except Exception as exc:  # not into the service: raised below
                    failed.append(exc)
                finally:
                    ack.stop()
                    if turn is not None:
                        turn.finish()

            async def admin() -> bool:
                return is_admin(interaction)

            try:
                served = self.claim is None or await self.claim(interaction)
                ref = message_ref(interaction)
                table = table_of(datas[0]) if datas else None
                dm = interaction.guild_id is None and ref is not None
                if not served and dm and table is not None and self.forward is not None:
                    # a DM hand of a table another worker serves (Discord gives every DM to
                    # shard 0): deferred now, pressed there; its notice is answered here
                    ack.now()
                    reply = await self._forward(interaction, actor, table, str(ref), datas)
                else:
                    chat = chat_of(interaction)
                    reply = await self._run_presses(
                        actor, chat, ref, admin, datas, answer, shown=shown, stepped=stepped
                    )
            except Exception:
                log.exception("%s failed", describe(interaction))
                reply = Reply(tr(language_of(actor.language), "err.internal"), alert=True)
            # not answered yet: a refusal before any table step, a replay's frame. The
            # deferral is stopped by the answer, once its turn came (stopped here, a press
            # waiting for an earlier answer of its message was never deferred: past 3 s
            # Discord said "This interaction failed")
            await answer(reply, fresh=False)
            if failed:
                raise failed[0]
        except Exception as exc:  # discord.py would only log it, leaving the user unanswered
            # (showing the service's answer failed: what the press did is saved, never
            # "nothing changed")
            await self.on_error(interaction, exc, served=bool(failed) and exc is failed[0])
        finally:
            if turn is not None:  # (given up before its answer: the next turn may go)
                turn.finish()
            self._busy(-1)

    async def _forward(
        self, interaction: Interaction, actor: Actor, table: int, ref: str, datas: list[str]
    ) -> Reply:
        """Forward a DM press to the worker serving ``table`` (:attr:`forward`, issue 14);
        what is left to answer here: that worker's notice (a refusal), nothing when it
        answered (it wrote the hand), or "press again" when no worker took the press."""
        assert self.forward is not None
        press: dict[str, Any] = {
            "user": actor.user_id,
            "name": actor.name,
            "language": actor.language,
            "channel": str(interaction.channel_id or ""),
            "ref": ref,
            "datas": datas,
        }
        got = await self.forward(table, press)
        if got is None:
            return Reply(tr(language_of(actor.language), "err.unreachable"), alert=True)
        return Reply(str(got.get("notice") or ""), alert=True)

    async def take_forwarded(self, press: Mapping[str, Any]) -> dict[str, Any]:
        """Run a press another worker received and deferred (issue 14: a DM hand of a table
        served here; the JSON :meth:`_forward` wrote: the presser's ``user`` id, ``name`` and
        ``language``, the DM ``channel``, the pressed hand's ``ref`` and the payloads
        ``datas``) as a local press (:meth:`_run_presses`), and answer it: a new hand is
        written onto the pressed DM message (the presenter's REST edits, as every hand), a
        notice (a refusal) is returned for the receiving worker to show ephemerally through
        the interaction's follow-up. Returns ``{"notice": text}`` (``""``: nothing to show)
        as soon as the press is answered; the step's other messages go on in the background.

        :raises KeyError: a field is missing (the worker answers 400).
        :raises TypeError: ``datas`` is not a list (the worker answers 400)."""
        lang = press.get("language")
        actor = Actor(PLATFORM, str(press["user"]), str(press["name"]), str(lang) if lang else None)
        chat = ChatRef(PLATFORM, "", str(press["channel"]), "", private=True)
        ref = str(press["ref"])
        if not isinstance(press["datas"], list):
            raise TypeError("datas: a list of payloads")
        datas = [str(d) for d in press["datas"]]
        self.presenter.user_seen(actor.user_id, in_dm=True)  # (a press on their DM hand)
        answered: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        async def answer(reply: Reply) -> None:
            if answered.done():
                return
            text = reply.text
            if reply.screen is not None:  # the pressed DM hand shows the new screen
                try:
                    self._show_dm_hand(actor.user_id, ref, reply)
                    text = ""
                except Exception:  # (a bug) the press is committed: never "nothing changed"
                    log.exception("forwarded press of user %s: its hand not shown", actor.user_id)
                    text = tr(language_of(actor.language), "err.not_shown")
            answered.set_result(text)

        async def never_admin() -> bool:
            return False  # a DM

        async def run() -> None:
            try:
                try:
                    reply = await self._run_presses(actor, chat, ref, never_admin, datas, answer)
                except Exception:
                    presses = [loggable(d) for d in datas]
                    log.exception("forwarded press %s of user %s failed", presses, actor.user_id)
                    reply = Reply(tr(language_of(actor.language), "err.internal"), alert=True)
                await answer(reply)
            finally:
                self._busy(-1)

        self._busy(+1)
        task = asyncio.create_task(run(), name="forwarded-press")
        self._forwarded.add(task)
        task.add_done_callback(self._forwarded.discard)
        waits: list[asyncio.Future[Any]] = [answered, task]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if not answered.done():  # answering itself failed (logged by the task)
            return {"notice": tr(language_of(actor.language), "err.internal")}
        return {"notice": content_of(answered.result())}

    def _show_dm_hand(self, user_id: str, ref: str, reply: Reply) -> None:
        """Write ``reply``'s screen (with its text) onto the pressed DM hand ``ref``
        (``"<dm channel id>:<message id>"``) through the presenter's coalesced REST edits:
        a press not answered by the interaction's own response (forwarded by another
        worker, or that response failed)."""
        channel, _, message = ref.partition(":")
        if reply.screen is None or not (channel.isdigit() and message.isdigit()):
            return
        screen = dataclasses.replace(reply.screen, text=_compose(reply.text, reply.screen))
        if reply.private:
            self.presenter.answered_private(user_id, ref, screen)
        self.presenter.queue_edit(int(channel), int(message), screen)

    async def _run_presses(
        self,
        actor: Actor,
        chat: ChatRef,
        ref: str | None,
        admin: Callable[[], Awaitable[bool]],
        datas: list[str],
        answer: Callable[[Reply], Awaitable[None]],
        *,
        shown: bool | None = None,
        stepped: Callable[[Reply], Awaitable[None]] | None = None,
    ) -> Reply:
        """Press ``datas`` in order (by ``actor`` in ``chat`` on the message ``ref``,
        :func:`message_ref`; ``admin`` tells whether the actor is a server admin; ``shown``:
        whether the pressed message carries the button, :meth:`TableService.press`); after the
        first, each is looked up again (same action and argument) in the hand the previous
        press returned, whose version is newer. Stops at the first refusal, keeping the last
        hand shown. The last press hands the service ``answer`` (called with what this
        returns, once its step is committed: the service then sends the step's messages,
        issue 15's answer first); the presses before it hand it ``stepped``, called the same
        way (the adapter's answer, made later when a refusal stops the batch, then holds the
        turn of the batch's last step). The one path of every press: local, or forwarded by
        another worker (:meth:`take_forwarded`). A press that fails after the first is
        logged and answered ``err.after_commit`` (those before it are committed); the
        first one's failure is raised. A batch that stops after a card was placed (a
        select's cards, one refused: its box full, R3.5) says which cards were placed and
        which not (:func:`_batch_notice`)."""
        reply = Reply()
        for n, data in enumerate(datas):
            if n:
                found = _same_button(reply.screen, data)
                if found is None:
                    continue
                data = found
            before = reply

            def outcome(got: Reply, n: int = n, before: Reply = before) -> Reply:
                if got.alert and n:  # a refusal after the first keeps the hand shown
                    text = got.text
                    notice = _batch_notice(datas[:n], datas[n:], language_of(actor.language))
                    text = f"{text}\n{notice}" if text and notice else text or notice
                    # the hand as the refusal drew it, when it drew one: another press of the
                    # message stepped in since the batch's last (refused as out of date); the
                    # hand that press left is newer than the batch's, and this answer, the
                    # message's last turn, wrote the batch's over it (the card it moved unshown)
                    drawn = before if got.screen is None else got
                    return Reply(text, alert=True, screen=drawn.screen, private=drawn.private)
                return got

            async def early(got: Reply, outcome: Callable[[Reply], Reply] = outcome) -> None:
                await answer(outcome(got))

            last = n == len(datas) - 1
            try:
                got = await self.service.press(
                    actor,
                    data,
                    chat,
                    admin,
                    message_ref=ref,
                    answer=early if last else stepped,
                    shown=shown,
                )
            except Exception:
                if not n:  # nothing of the batch done: the caller answers "nothing changed"
                    raise
                # the presses before it are committed (cards placed from a select): never
                # "nothing changed"; the hand they left stays shown
                log.exception("press %s of %s of user %s failed", n + 1, len(datas), actor.user_id)
                got = Reply(tr(language_of(actor.language), "err.after_commit"), alert=True)
            reply = outcome(got)
            if got.alert:
                break
        return reply

    async def _answer_press(
        self,
        interaction: Interaction,
        reply: Reply,
        on_hand: bool,
        ack: _Ack,
        *,
        newest: bool,
        stamp: int | None = None,
        opening: Opening | None = None,
    ) -> None:
        """Answer a press with ``reply`` (``on_hand``: the pressed message is a hand, a DM or
        an ephemeral one; ``ack``: its deferral). ``newest``: ``False`` when a later press of
        the same message has its answer queued (:meth:`DiscordPresenter.answer_turn`): the
        press is only acknowledged, the later answer writes the message; a notice the
        player must read (``reply.alert``: a refusal's why) comes as an ephemeral message of
        its own (it was dropped with the screen). ``stamp``: the answer's
        :attr:`~bot.discord.presenter.AnswerTurn.stamp` (its step's place among the steps:
        an ephemeral hand's writes keep that order). ``opening``: a "🂠 My cards" answer's
        (:meth:`DiscordPresenter.opening_live`), posting the player's hand as a new ephemeral
        message with the newest screen of it at each try (:class:`_HandPost`)."""
        deferred = await ack.deferred()
        if not newest:
            notice = content_of(reply.text) if reply.alert and reply.text else None
            if notice is None:
                if not deferred:
                    await interaction.response.defer()
            else:
                try:
                    if deferred:
                        await interaction.followup.send(notice, ephemeral=True)
                    else:
                        await interaction.response.send_message(notice, ephemeral=True)
                except discord.HTTPException as exc:
                    log.warning("could not answer interaction %s: %s", interaction.id, exc)
            return
        screen = reply.screen
        message = interaction.message
        user_id = str(interaction.user.id)
        dm_hand = None  # the pressed DM hand, which only this answer writes
        if on_hand and reply.private and message is not None and not message.flags.ephemeral:
            dm_hand = message_ref(interaction)
        try:
            if screen is not None and (on_hand or not reply.private):
                # the pressed hand (or settings) message shows the new screen
                text = _compose(reply.text, screen)
                content = content_of(text)
                view = view_of(screen)
                # (what the message shows now, its notice too: an older write of it still
                # under way is followed by this)
                shown = screen if text == screen.text else dataclasses.replace(screen, text=text)
                ephemeral = message is not None and message.flags.ephemeral
                live = reply.private and reply.live and ephemeral
                if live:
                    # a refresh of this hand waiting out a 429 is sent again with this screen
                    stamp = self.presenter.answer_live(user_id, shown, stamp)
                if deferred:
                    await interaction.edit_original_response(content=content, view=view)
                else:
                    await interaction.response.edit_message(content=content, view=view)
                if dm_hand is not None:
                    self.presenter.answered_private(
                        user_id, dm_hand, screen, shown=shown, stamp=stamp
                    )
                    dm_hand = None
                if live and message is not None:
                    hand = _live_hand(interaction, message.id, screen)
                    self.presenter.remember_live(user_id, hand, shown, stamp)
            elif screen is not None:
                # "My cards" on the table message: the hand as a new ephemeral message,
                # with the newest screen of it told since the reply was made, at each try
                # (a move made while the deferral or a 429's pause was on its way: posted
                # older, the hand flashed to it)
                post = _HandPost(self, interaction, reply.text, screen, opening, deferred=deferred)
                posted_id = await post.send()
                if posted_id is not None and reply.live:
                    hand = _live_hand(interaction, posted_id, screen, followup=deferred)
                    self.presenter.remember_live(user_id, hand, posted=post.screen, opening=opening)
            elif reply.text:
                text = content_of(reply.text)
                if deferred:
                    await interaction.followup.send(text, ephemeral=True)
                else:
                    await interaction.response.send_message(text, ephemeral=True)
            elif not deferred:
                await interaction.response.defer()
        except discord.HTTPException as exc:
            log.warning("could not answer interaction %s: %s", interaction.id, exc)
            if on_hand and reply.private and screen is not None and message is not None:
                # (its token unknown, 10062: expired, or answered too late) a pressed
                # ephemeral hand is written through the interaction that showed it last,
                # else it kept the screen from before the press, the card placed not shown
                # (of its step: a later one's refresh queued meanwhile is written instead)
                self.presenter.refresh_live(user_id, message.id, screen, stamp)
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            # the answer lost in the network (the connection closed: Discord may or may not
            # have taken it): a pressed DM hand is written as any other write, below (it was
            # left showing the screen before the press, the card placed not shown, and an
            # error logged with its traceback); anything else is told by the error handler,
            # a pressed ephemeral hand written as after a refused answer (else it kept the
            # screen from before the press)
            if dm_hand is None:
                if on_hand and reply.private and screen is not None and message is not None:
                    self.presenter.refresh_live(user_id, message.id, screen, stamp)
                raise
            log.warning(
                "answer to interaction %s lost: %r; the DM hand is written", interaction.id, exc
            )
        if dm_hand is not None:
            # the answer did not write the pressed DM hand: edit it as any other write
            self._show_dm_hand(user_id, dm_hand, reply)


async def _connected(
    client: discord.Client, timeout: float, name: str, shard_id: int | None = None
) -> asyncio.Task[None]:
    """Connect a logged-in client's gateway in a task and wait until it is ready (with
    ``shard_id``: until that shard's session is up, discord.py's ``shard_connect`` on READY:
    its interactions flow from then on, without waiting ``guild_ready_timeout`` for its
    guilds to fill the cache); the task.

    :raises TimeoutError: not ready within ``timeout`` seconds (the task is cancelled).
    :raises Exception: what stopped the connection before it was ready."""
    if shard_id is None:
        waiting: Awaitable[object] = client.wait_until_ready()
    else:
        waiting = client.wait_for("shard_connect", check=lambda connected: connected == shard_id)
    ready = asyncio.ensure_future(waiting)  # listening before the connection starts
    task = asyncio.create_task(client.connect(reconnect=True), name=name)
    done, _ = await asyncio.wait(
        {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if ready in done:
        return task
    ready.cancel()
    if task in done:
        task.result()  # raises what stopped the connection
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
    raise TimeoutError("the Discord client did not become ready")


async def _drop_placeholder(interaction: Interaction) -> None:
    """Delete the public "thinking…" message of a command deferred publicly: Discord shows
    the first follow-up of a deferral as the deferral was, whatever its flags, so an
    ephemeral answer (a refusal, an error notice) must not be that follow-up."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()


def _open_to(thread: discord.Thread, allowed: discord.Permissions) -> bool:
    """Whether ``thread`` takes the bot's writes as far as its lock goes (``allowed``: the
    bot's permissions in its channel): not locked, or the bot holds Manage Threads (a
    locked thread refuses only the members without it, 160005)."""
    return not thread.locked or allowed.manage_threads


def may_write(guild: discord.Guild, channel_id: int) -> bool:
    """Whether the bot may post in the channel or thread ``channel_id`` of ``guild`` (as the
    cache has it): a channel it sees with Send Messages, or a thread not locked (or locked,
    the bot holding Manage Threads there) whose channel gives it Send Messages in Threads."""
    me = guild.me
    channel = guild.get_channel_or_thread(channel_id)
    if me is None or channel is None:
        return False
    if isinstance(channel, discord.Thread):
        parent = channel.parent
        if parent is None:
            return False
        allowed = parent.permissions_for(me)
        ok = allowed.view_channel and allowed.send_messages_in_threads
        return ok and _open_to(channel, allowed)
    if isinstance(channel, discord.CategoryChannel | discord.ForumChannel):
        return False
    allowed = channel.permissions_for(me)
    return allowed.view_channel and allowed.send_messages


def message_ref(interaction: Interaction) -> str | None:
    """The pressed message as the service names it (``TableService.press``'s
    ``message_ref``): a DM hand as its private ref (``"<dm channel id>:<message id>"``), an
    ephemeral hand as :func:`~bot.discord.presenter.ephemeral_ref` (never a private ref), a
    channel message as ``"<channel id>:<message id>"`` (never a DM's)."""
    message = interaction.message
    if message is None:
        return None
    if message.flags.ephemeral:
        return ephemeral_ref(message.id)
    return f"{message.channel.id}:{message.id}"


#: The table message's buttons that may count pressed on an older version of it (a busy
#: lobby, :meth:`DiscordAdapter.on_unrouted`; the service decides whether one does)
_LOBBY_PRESSES = (Join, Ready, Leave, Register, Unregister)


def _on_message(message: discord.Message | None, custom_id: str, component_type: object) -> bool:
    """Whether the pressed message carries the component ``custom_id`` of that type: what
    discord.py's dynamic-item dispatch looks for before it calls an item."""
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None) == custom_id and (
            component_type is None or component.type.value == component_type
        ):
            return True
        stack.extend(getattr(component, "children", None) or [])
    return False


def _batch_notice(done: Sequence[str], left: Sequence[str], lang: str) -> str:
    """Which cards of a batch of presses (a select's, :meth:`DiscordAdapter._run_presses`)
    were placed (``done``, committed) and which not (``left``, from the refused one on):
    ``""`` when none of ``left`` places a card (nothing the player chose was left out)."""

    def faces(datas: Sequence[str]) -> str:
        return " ".join(
            p.card.face for d in datas if isinstance(p := decode(d), PlaceCard | DiscardCard)
        )

    placed, not_placed = faces(done), faces(left)
    if not not_placed:
        return ""
    # (the discard's menu: "discarded", not "placed")
    word = "discarded" if isinstance(decode(left[0]), DiscardCard) else "placed"
    lines = [tr(lang, f"select.{word}", cards=placed)] if placed else []
    return "\n".join([*lines, tr(lang, f"select.not_{word}", cards=not_placed)])


def _take_back(data: str) -> str | None:
    """The payload taking back the card that the placement or discard ``data`` moved (same
    table and version); ``None`` for any other payload."""
    press = decode(data)
    if not isinstance(press, PlaceCard | DiscardCard):
        return None
    return encode(TakeBack(press.table, press.version, press.card))


def _same_button(screen: Screen | None, data: str) -> str | None:
    """The payload of the button of ``screen`` that makes the same press as ``data`` (the
    same action on the same card and box); when the screen no longer offers it (say its box
    filled up), the same press at the screen's version, so the core's refusal says why
    (R3.5). ``None`` if the screen has no hand."""
    want = decode(data)
    if screen is None or want is None:
        return None
    version: str | None = None
    for b in screen.all_buttons():
        p = decode(b.data)
        if p is None or p.table != want.table:
            continue
        if dataclasses.replace(p, version=want.version) == want:
            return b.data
        version = version or p.version
    if version is None:
        return None
    try:
        return encode(dataclasses.replace(want, version=version))
    except ValueError:
        return None


def _live_hand(
    interaction: Interaction, message_id: int, screen: Screen, *, followup: bool = False
) -> LiveHand:
    """The ephemeral hand ``message_id`` showing ``screen``, edited from now on through
    ``interaction``'s webhook: as its original response, or (``followup``) as the follow-up
    it sent."""
    return LiveHand(
        message_id,
        interaction.application_id,
        interaction.token,
        followup=followup,
        table=screen.table,
    )
