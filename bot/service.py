"""The table service: the platform-neutral application layer (issue 4).

It runs every open table: seating and readiness (R8.2), the hand in progress through the core's
:class:`~game.hand.Hand`, turn order and timers (R8.5), timeouts and sit-out (R8.6), settlement
into kush (R8.4) and storage, restart recovery from snapshots, and who sees what. Adapters call
its coroutines with an :class:`~bot.model.Actor` and a :class:`~bot.model.ChatRef` and show the
:class:`~bot.model.Reply`; the service writes table and private messages through each
platform's :class:`~bot.model.Presenter`. Game rules are not written here: every action goes to
the core, which decides.

One :class:`asyncio.Lock` per table serialises everything that touches a table, so handlers of
both platforms may run concurrently.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot import render
from bot.model import Actor, ChatRef, LiveTable, Presenter, Reply, SeatState
from bot.screens import Button, Payload, Screen
from bot.texts import error_text, language_of, tr
from game.actions import Action, Confirm, Discard, Place, Timeout, Unplace
from game.board import Box
from game.cards import Card, parse_card, shuffled_deck
from game.chinese import ChineseGame
from game.clock import SeatClock
from game.errors import GameError, OptionError
from game.hand import Hand, HandSetup, double_box_seats
from game.match import HandPlan, MatchState
from game.options import GameKind, RuleOptions
from game.settlement import settle
from storage.api import Community, CommunitySettings, InsufficientFunds, LedgerKind, Store

__all__ = ["PLAYABLE_GAMES", "SETTINGS", "TableService"]

log = logging.getLogger(__name__)

#: Games a table can be opened with.
PLAYABLE_GAMES: tuple[GameKind, ...] = (GameKind.PINEAPPLE, GameKind.OFC, GameKind.CHINESE)

#: Seconds the players at the target have to Claim or Continue (R7.5) before the reveal goes on.
CLAIM_SECONDS = 30.0

_BOXES = {"t": Box.TOP, "m": Box.MIDDLE, "b": Box.BOTTOM}

# name → (kind, short code for buttons, step). Kinds: int settings of the community, option
# booleans/numbers of RuleOptions, and a few special ones.
SETTINGS: dict[str, tuple[str, str, float]] = {
    "min_buy_in": ("community", "mb", 50),
    "starting_balance": ("community", "sb", 500),
    "daily_bonus": ("community", "db", 50),
    "kush_label": ("community", "kl", 0),
    "language": ("community", "la", 0),
    "game": ("community", "gm", 0),
    "hand_seconds": ("option", "hs", 30),
    "time_bank_seconds": ("option", "tb", 30),
    "fantasyland_seconds": ("option", "fs", 30),
    "fantasyland": ("option", "fl", 0),
    "progressive_fantasyland": ("option", "pf", 0),
    "simultaneous_streets": ("option", "ss", 0),
    "safe_autoplay": ("option", "sa", 0),
    "button_moves_in_fantasyland": ("option", "bm", 0),
    "settle_per_round": ("option", "sr", 0),
    "scoring": ("option", "sc", 0),
    "kush_per_point": ("option", "kp", 1),
    "time_bank_refill_per_match": ("option", "tr", 15),
    "stay_on_full_house_middle": ("option", "st", 0),
    "deuce_of_spades": ("option", "ds", 0),
    "dummy_box": ("option", "dx", 0),
    "heads_up_double_boxes": ("option", "hd", 0),
    "target_points": ("option", "tp", 10),
    "reveal_pause_seconds": ("option", "rp", 1),
}
_BY_CODE = {code: name for name, (_, code, _) in SETTINGS.items()}


class TableService:
    """Runs the tables of every platform on one event loop.

    :param store: the storage implementation.
    :param clock: wall-clock seconds (injected for tests).
    :param rng: shuffles decks when given (tests); otherwise decks use a CSPRNG (R1.1).
    :param next_hand_delay: seconds between a showdown and the next deal.
    :param timers: run real asyncio timers; with ``False`` tests call :meth:`run_due`.
    :param deck_source: returns the deck of each new hand (tests stack decks with it).
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        next_hand_delay: float = 4.0,
        timers: bool = True,
        deck_source: Callable[[], Sequence[Card]] | None = None,
    ) -> None:
        self.store = store
        self.deck_source = deck_source
        self.clock = clock
        self.rng = rng
        self.next_hand_delay = next_hand_delay
        self.timers = timers
        self.presenters: dict[str, Presenter] = {}
        self.tables: dict[int, LiveTable] = {}
        self._snapshots: dict[int, dict[str, Any]] = {}
        self._savers: dict[int, asyncio.Task[None]] = {}
        self._by_chat: dict[tuple[str, str], int] = {}

    # -- lifecycle -------------------------------------------------------------------------
    def register(self, presenter: Presenter) -> None:
        """Attach a platform adapter's presenter."""
        self.presenters[presenter.platform] = presenter

    async def start(self) -> None:
        """Rebuild every open table from its snapshot and resume its timers (restart
        recovery). A hand that cannot be rebuilt is cancelled and the stacks refunded."""
        for record, snap in await self.store.snapshots():
            try:
                t = self._restore(snap)
            except Exception:  # a snapshot we cannot use: refund, never lose kush
                log.exception("table %s: cannot restore; refunding", record.id)
                await self._cancel_unrecoverable(record.id, record.chat_id, snap)
                continue
            self._add(t)
            async with t.lock:
                await self._resume(t)

    async def stop(self) -> None:
        """Cancel timers and save every table (state is then all in storage; the time until the
        next start does not count against the player to act, R8.5)."""
        for t in self.tables.values():
            self._save_soon(t)
        if self._savers:
            await asyncio.gather(*list(self._savers.values()), return_exceptions=True)
        for t in self.tables.values():
            if t.timer is not None:
                t.timer.cancel()
        for t in self.tables.values():
            if t.timer is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t.timer
            t.timer = None

    def _add(self, t: LiveTable) -> None:
        self.tables[t.id] = t
        self._by_chat[(t.platform, t.chat_id)] = t.id

    # -- helpers ---------------------------------------------------------------------------
    async def _community(self, chat: ChatRef) -> Community:
        return await self.store.community(chat.platform, chat.community_id, chat.title)

    @staticmethod
    def _lang(community: Community | None, actor: Actor | None) -> str:
        if community is not None and community.settings.language in ("en", "ru"):
            return community.settings.language
        return language_of(actor.language if actor else None)

    def table_in(self, chat: ChatRef) -> LiveTable | None:
        """The open table of a chat, if any."""
        tid = self._by_chat.get((chat.platform, chat.chat_id))
        return self.tables.get(tid) if tid is not None else None

    def _presenter(self, t: LiveTable) -> Presenter | None:
        return self.presenters.get(t.platform)

    async def _save(self, t: LiveTable) -> None:
        """Save the table's snapshot now (returns once it is written)."""
        self._save_soon(t)
        writer = self._savers.get(t.id)
        if writer is not None:
            await asyncio.shield(writer)

    def _save_soon(self, t: LiveTable) -> None:
        """Save the snapshot in the background: taken now, written by one writer per table that
        always writes the newest snapshot, so an older one never overwrites a newer one."""
        data = t.to_json()
        data["saved_at"] = self.clock()
        self._snapshots[t.id] = data
        writer = self._savers.get(t.id)
        if writer is None or writer.done():
            self._savers[t.id] = asyncio.create_task(self._write_snapshots(t.id))

    async def _write_snapshots(self, table_id: int) -> None:
        while table_id in self._snapshots:
            data = self._snapshots.pop(table_id)
            try:
                await self.store.save_snapshot(table_id, data)
            except Exception:
                log.exception("table %s: snapshot save failed", table_id)

    # -- rendering -------------------------------------------------------------------------
    async def _render_group(self, t: LiveTable) -> None:
        p = self._presenter(t)
        if p is None:
            return
        t.version += 1
        now = self.clock()
        link = p.private_link(t.id)
        screen = render.group_screen(t, t.lang, link, now)
        t.group_ref = await p.show_table(t.chat_id, screen, t.group_ref)

    async def _render_private(self, t: LiveTable, seat: SeatState) -> Screen:
        screen = render.private_screen(t, seat, self.clock())
        p = self._presenter(t)
        if p is not None:
            ref = await p.show_private(seat.user_id, screen, seat.private_ref)
            if ref is None:
                if seat.reachable:
                    seat.reachable = False
            else:
                seat.private_ref = ref
                seat.reachable = True
        return screen

    # -- commands --------------------------------------------------------------------------
    async def _at_table(
        self,
        chat: ChatRef,
        actor: Actor,
        body: Callable[[LiveTable, Community, str], Awaitable[Reply]],
    ) -> Reply:
        """Run ``body(table, community, language)`` under the table's lock, or answer that the
        chat has no open table."""
        t = self.table_in(chat)
        community = await self._community(chat)
        lang = self._lang(community, actor)
        if t is None:
            return Reply(tr(lang, "reply.no_table"), alert=True)
        async with t.lock:
            return await body(t, community, lang)

    async def new_table(self, chat: ChatRef, actor: Actor, game: str | None = None) -> Reply:
        """Open a table in a group chat (one per chat) and post its lobby message."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        if chat.private:
            return Reply(tr(lang, "reply.group_only"), alert=True)
        existing = self.table_in(chat)
        if existing is not None:
            return Reply(tr(lang, "reply.table_exists", table=existing.id), alert=True)
        settings = community.settings
        try:
            options = RuleOptions.preset(game or settings.game, **dict(settings.options))
        except OptionError:
            options = None
        if options is None or options.game not in PLAYABLE_GAMES:
            games = ", ".join(g.value for g in PLAYABLE_GAMES)
            return Reply(tr(lang, "reply.game_unavailable", games=games), alert=True)
        record = await self.store.create_table(
            community.id, chat.chat_id, options.to_json(), settings.min_buy_in
        )
        t = LiveTable(
            id=record.id,
            platform=chat.platform,
            community_id=community.id,
            community_ext=chat.community_id,
            chat_id=chat.chat_id,
            lang=lang,
            options=options,
            min_buy_in=settings.min_buy_in,
            label=settings.kush_label,
            match=MatchState.new(options),
        )
        self._add(t)
        async with t.lock:
            await self._render_group(t)
            await self._save(t)
        return Reply(tr(lang, "reply.table_opened", table=t.id))

    async def join(self, chat: ChatRef, actor: Actor) -> Reply:
        """Take a free seat (R8.2). Refused without enough kush for the buy-in."""
        return await self._at_table(chat, actor, lambda t, c, lang: self._join(t, c, actor, lang))

    async def _join(self, t: LiveTable, community: Community, actor: Actor, lang: str) -> Reply:
        if t.seat_of(actor.user_id) is not None:
            return Reply(tr(lang, "reply.already_seated"), alert=True)
        free = [s for s in range(t.options.max_players) if s not in t.seats]
        if not free:
            return Reply(tr(lang, "reply.table_full"), alert=True)
        player = await self.store.player(community.id, actor.user_id, actor.name, actor.language)
        if player.balance < t.min_buy_in:
            return Reply(
                tr(lang, "reply.no_money", label=t.label, need=t.min_buy_in, have=player.balance),
                alert=True,
            )
        seat = SeatState(
            seat=free[0],
            player_id=player.id,
            user_id=actor.user_id,
            name=actor.name,
            lang=self._lang(community, actor),
            bank=t.options.time_bank_seconds,
        )
        t.seats[seat.seat] = seat
        await self._render_group(t)
        await self._save(t)
        return Reply(tr(lang, "reply.joined", seat=seat.seat + 1))

    async def ready(self, chat: ChatRef, actor: Actor) -> Reply:
        """Confirm readiness: the buy-in moves from the balance to the stack (R8.2); the hand
        starts when every seated player is ready."""
        return await self._at_table(chat, actor, lambda t, _, lang: self._ready(t, actor, lang))

    async def _ready(self, t: LiveTable, actor: Actor, lang: str) -> Reply:
        seat = t.seat_of(actor.user_id)
        if seat is None:
            return Reply(tr(lang, "reply.not_seated"), alert=True)
        if seat.ready and seat.sitting_out:
            return await self._back(t, actor, lang)  # Ready while sitting out: come back
        if seat.ready:
            return Reply(tr(lang, "reply.already_ready"), alert=True)
        try:
            stack = await self.store.buy_in(
                t.id,
                seat.player_id,
                t.min_buy_in,
                key=f"t{t.id}:buyin:{seat.player_id}:{t.version}",
            )
        except InsufficientFunds:
            player = await self.store.get_player(seat.player_id)
            have = player.balance if player else 0
            return Reply(
                tr(lang, "reply.no_money", label=t.label, need=t.min_buy_in, have=have), alert=True
            )
        seat.stack = stack
        seat.ready = True
        await self._maybe_start(t)
        if t.hand is None:
            await self._render_group(t)
        await self._save(t)
        return Reply(tr(lang, "reply.ready", amount=t.min_buy_in, label=t.label))

    async def leave(self, chat: ChatRef, actor: Actor) -> Reply:
        """Stand up: between hands the stack goes back to the balance (R8.2); during a hand the
        player's moves are made as on timeout and they leave after it (R8.5)."""
        return await self._at_table(chat, actor, lambda t, _, lang: self._leave(t, actor, lang))

    async def _leave(self, t: LiveTable, actor: Actor, lang: str) -> Reply:
        seat = t.seat_of(actor.user_id)
        if seat is None:
            return Reply(tr(lang, "reply.not_seated"), alert=True)
        if t.hand is not None and t.boards_of(seat) and not t.hand.is_over:
            seat.leaving = True
            await self._advance(t)
            return Reply(tr(lang, "reply.leave_after_hand"))
        if t.reveal is not None:
            seat.leaving = True  # Chinese Poker: leaves once the reveal is over
            return Reply(tr(lang, "reply.leave_after_hand"))
        if t.chinese is not None and t.chinese.totals.get(seat.seat):
            await self._end_chinese_game(t)  # a player leaving ends the game: settle it (R7.6)
        amount = await self._stand_up(t, seat)
        if sum(1 for s in t.seats.values() if s.ready and not s.sitting_out) < 2:
            t.next_hand_at = None
            t.started = False
        await self._render_group(t)
        await self._save(t)
        await self._arm(t)
        return Reply(tr(lang, "reply.left", amount=amount, label=t.label))

    async def _stand_up(self, t: LiveTable, seat: SeatState) -> int:
        amount = await self.store.cash_out(
            t.id, seat.player_id, key=f"t{t.id}:cashout:{seat.player_id}:{t.hand_no}:{t.version}"
        )
        del t.seats[seat.seat]
        return amount

    async def close_table(self, chat: ChatRef, actor: Actor, is_admin: bool) -> Reply:
        """An admin closes the chat's table between hands: every stack goes back to its
        player's balance (R8.2) and the chat may open a new table (another game, say)."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        if not is_admin:
            return Reply(tr(lang, "reply.admins_only"), alert=True)
        t = self.table_in(chat)
        if t is None:
            return Reply(tr(lang, "reply.no_table"), alert=True)
        async with t.lock:
            if t.hand is not None:
                return Reply(tr(lang, "reply.wait_hand"), alert=True)
            if t.chinese is not None and t.chinese.totals:
                await self._end_chinese_game(t)
            for seat in list(t.seats.values()):
                await self._stand_up(t, seat)
            await self._close(t)
        return Reply(tr(lang, "reply.table_closed", table=t.id))

    async def _close(self, t: LiveTable) -> None:
        """Forget a table whose stacks are all cashed out."""
        if t.timer is not None and t.timer is not asyncio.current_task():
            t.timer.cancel()
        writer = self._savers.get(t.id)
        if writer is not None:
            await asyncio.shield(writer)
        await self.store.close_table(t.id)
        self.tables.pop(t.id, None)
        self._by_chat.pop((t.platform, t.chat_id), None)
        p = self._presenter(t)
        if p is not None and t.group_ref is not None:
            await p.show_table(
                t.chat_id, Screen(tr(t.lang, "reply.table_closed", table=t.id)), t.group_ref
            )

    async def sit_out(self, chat: ChatRef, actor: Actor) -> Reply:
        """Sit out from the next hand, keeping seat and stack (R8.6)."""
        return await self._at_table(chat, actor, lambda t, _, lang: self._sit_out(t, actor, lang))

    async def _sit_out(self, t: LiveTable, actor: Actor, lang: str) -> Reply:
        seat = t.seat_of(actor.user_id)
        if seat is None:
            return Reply(tr(lang, "reply.not_seated"), alert=True)
        seat.sitting_out = True
        if t.hand is None:
            await self._render_group(t)
        await self._save(t)
        return Reply(tr(lang, "reply.sitout"))

    async def back(self, chat: ChatRef, actor: Actor) -> Reply:
        """Return from sit-out (R8.6)."""
        return await self._at_table(chat, actor, lambda t, _, lang: self._back(t, actor, lang))

    async def _back(self, t: LiveTable, actor: Actor, lang: str) -> Reply:
        seat = t.seat_of(actor.user_id)
        if seat is None:
            return Reply(tr(lang, "reply.not_seated"), alert=True)
        if not seat.sitting_out:
            return Reply(tr(lang, "reply.not_sitting_out"), alert=True)
        seat.sitting_out = False
        await self._maybe_start(t)
        if t.hand is None:
            await self._render_group(t)
        await self._save(t)
        return Reply(tr(lang, "reply.back"))

    async def balance(self, chat: ChatRef, actor: Actor) -> Reply:
        """The player's balance and stack."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        player = await self.store.player(community.id, actor.user_id, actor.name, actor.language)
        t = self.table_in(chat)
        seat = t.seat_of(actor.user_id) if t else None
        return Reply(
            tr(
                lang,
                "reply.balance",
                name=player.name,
                balance=player.balance,
                label=community.settings.kush_label,
                stack=seat.stack if seat else 0,
            )
        )

    async def top(self, chat: ChatRef, actor: Actor) -> Reply:
        """The community leaderboard (balance plus stacks)."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        rows = await self.store.leaderboard(community.id, 10)
        if not rows:
            return Reply(tr(lang, "reply.top_empty"))
        lines = [tr(lang, "reply.top_title")]
        for n, (p, total) in enumerate(rows, start=1):
            lines.append(
                tr(
                    lang,
                    "reply.top_line",
                    n=n,
                    name=p.name,
                    total=total,
                    label=community.settings.kush_label,
                )
            )
        return Reply("\n".join(lines))

    async def history(self, chat: ChatRef, actor: Actor, limit: int = 5) -> Reply:
        """The player's last hands."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        player = await self.store.player(community.id, actor.user_id, actor.name, actor.language)
        hands = await self.store.hand_history(player.id, limit)
        if not hands:
            return Reply(tr(lang, "reply.history_empty"))
        lines = [tr(lang, "reply.history_title")]
        for h in hands:
            seat = next((int(s) for s, pid in h.players.items() if pid == player.id), None)
            info: Mapping[str, Any] = next(
                (r for r in h.result.get("seats", []) if r.get("seat") == seat), {}
            )
            kush = int(h.result.get("kush", {}).get(str(seat), 0))
            foul = " 💀" if info.get("fouled") else ""
            lines.append(
                tr(
                    lang,
                    "reply.history_line",
                    table=h.table_id,
                    hand=h.number,
                    points=int(info.get("points", 0)),
                    kush=kush,
                    label=community.settings.kush_label,
                    foul=foul,
                )
            )
        return Reply("\n".join(lines))

    async def rules(self, chat: ChatRef, actor: Actor) -> Reply:
        """Short rules of the table's game (or of the community's default game)."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        t = self.table_in(chat)
        game = t.options.game.value if t else community.settings.game
        return Reply(tr(lang, f"rules.{game}"))

    async def help(self, chat: ChatRef, actor: Actor) -> Reply:
        """The command list."""
        community = await self._community(chat) if not chat.private else None
        key = "help.discord" if chat.platform == "discord" else "help"
        return Reply(tr(self._lang(community, actor), key))

    async def daily(self, chat: ChatRef, actor: Actor) -> Reply:
        """The daily bonus, once per UTC day."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        amount = community.settings.daily_bonus
        if amount <= 0:
            return Reply(tr(lang, "reply.daily_off"), alert=True)
        player = await self.store.player(community.id, actor.user_id, actor.name, actor.language)
        day = datetime.fromtimestamp(self.clock(), UTC).strftime("%Y-%m-%d")
        balance = await self.store.claim_daily(community.id, player.id, amount, day)
        if balance is None:
            return Reply(tr(lang, "reply.daily_taken"), alert=True)
        return Reply(
            tr(
                lang,
                "reply.daily",
                amount=amount,
                label=community.settings.kush_label,
                balance=balance,
            )
        )

    async def grant(
        self,
        chat: ChatRef,
        actor: Actor,
        is_admin: bool,
        target: str,
        amount: str,
        key: str,
        target_name: str | None = None,
    ) -> Reply:
        """An admin gives (or takes, negative) kush: ``/grant @user N``. With ``target_name``
        (a platform that names the member, e.g. Discord), ``target`` is a user id and a member
        who never played is created first."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        if chat.private:
            return Reply(tr(lang, "reply.group_only"), alert=True)
        if not is_admin:
            return Reply(tr(lang, "reply.admins_only"), alert=True)
        try:
            value = int(amount)
        except ValueError:
            return Reply(tr(lang, "reply.grant_usage"), alert=True)
        if not target or value == 0:
            return Reply(tr(lang, "reply.grant_usage"), alert=True)
        player = await self.store.find_player(community.id, target)
        if player is None and target_name is not None:
            player = await self.store.player(community.id, target, target_name)
        if player is None:
            return Reply(tr(lang, "reply.unknown_player", name=target), alert=True)
        try:
            balance = await self.store.grant(
                community.id,
                player.id,
                value,
                actor=actor.user_id,
                reason="/grant",
                key=f"grant:{key}",
            )
        except InsufficientFunds:
            return Reply(
                tr(
                    lang,
                    "reply.grant_negative",
                    name=player.name,
                    balance=player.balance,
                    label=community.settings.kush_label,
                )
            )
        return Reply(
            tr(
                lang,
                "reply.granted",
                name=player.name,
                amount=value,
                label=community.settings.kush_label,
                balance=balance,
            )
        )

    # -- settings --------------------------------------------------------------------------
    def _settings_version(self, settings: CommunitySettings) -> str:
        digest = hashlib.sha1(json.dumps(settings.to_json(), sort_keys=True).encode()).hexdigest()
        return "S" + digest[:8]

    def settings_screen(self, community: Community, lang: str) -> Screen:
        """The admin settings message: every setting with buttons to change it."""
        s = community.settings
        opts = s.rule_options()
        on, off = tr(lang, "settings.on"), tr(lang, "settings.off")
        v = self._settings_version(s)
        lines = [tr(lang, "settings.title")]
        rows: list[tuple[Button, ...]] = []
        for name, (kind, code, step) in SETTINGS.items():
            if kind == "community":
                value: Any = getattr(s, name)
                if name == "language":
                    value = value or tr(lang, "settings.auto")
            else:
                value = getattr(opts, name)
                value = getattr(value, "value", value)
            if isinstance(value, bool):
                value = on if value else off
            lines.append(tr(lang, "settings.line", name=name, value=value))
            if name == "kush_label":
                continue
            if step:
                rows.append(
                    (
                        Button(f"{name} −{step:g}", Payload(0, v, "s", code + "-").encode()),
                        Button(f"+{step:g}", Payload(0, v, "s", code + "+").encode()),
                    )
                )
            else:
                rows.append((Button(f"{name} ⟳", Payload(0, v, "s", code + "~").encode()),))
        return Screen("\n".join(lines), tuple(rows))

    async def settings(self, chat: ChatRef, actor: Actor, is_admin: bool, args: list[str]) -> Reply:
        """``/settings`` (show with buttons) or ``/settings <name> <value>`` (admins only)."""
        community = await self._community(chat)
        lang = self._lang(community, actor)
        if chat.private:
            return Reply(tr(lang, "reply.group_only"), alert=True)
        if not is_admin:
            return Reply(tr(lang, "reply.admins_only"), alert=True)
        if not args:
            return Reply(screen=self.settings_screen(community, lang))
        name, value = args[0], " ".join(args[1:])
        if name not in SETTINGS or not value:
            return Reply(tr(lang, "reply.settings_usage", names=", ".join(SETTINGS)), alert=True)
        try:
            community = await self._change_setting(community, name, value)
        except (ValueError, OptionError) as exc:
            return Reply(tr(lang, "reply.settings_bad", error=str(exc)), alert=True)
        return Reply(
            tr(lang, "reply.settings_saved", what=f"{name} = {value}"),
            screen=self.settings_screen(community, self._lang(community, actor)),
        )

    async def _change_setting(self, community: Community, name: str, value: str) -> Community:
        """Apply one setting (raises ValueError/OptionError on a bad value)."""
        s = community.settings
        kind = SETTINGS[name][0]
        if kind == "community":
            if name in ("min_buy_in", "starting_balance", "daily_bonus"):
                number = int(value)
                if number < (1 if name == "min_buy_in" else 0):
                    raise ValueError(f"{name} must be positive")
                s = replace(
                    s,
                    min_buy_in=number if name == "min_buy_in" else s.min_buy_in,
                    starting_balance=number if name == "starting_balance" else s.starting_balance,
                    daily_bonus=number if name == "daily_bonus" else s.daily_bonus,
                )
            elif name == "kush_label":
                if not 1 <= len(value) <= 40:
                    raise ValueError("label: 1–40 characters")
                s = replace(s, kush_label=value)
            elif name == "language":
                if value not in ("en", "ru", "auto"):
                    raise ValueError("language: en, ru or auto")
                s = replace(s, language=None if value == "auto" else value)
            elif name == "game":
                kind_ = RuleOptions.preset(value).game
                if kind_ not in PLAYABLE_GAMES:
                    raise ValueError("game: " + ", ".join(g.value for g in PLAYABLE_GAMES))
                s = replace(s, game=kind_.value)
        else:
            options = dict(s.options)
            options[name] = value
            RuleOptions.preset(s.game, **options)  # validates
            s = replace(s, options=options)
        community = await self.store.update_settings(community.id, s)
        await self._settings_changed(community)
        return community

    async def _settings_changed(self, community: Community) -> None:
        for t in self.tables.values():
            if t.community_id != community.id:
                continue
            async with t.lock:
                t.pending_options = community.settings.rule_options()
                t.pending_buy_in = community.settings.min_buy_in
                t.label = community.settings.kush_label
                if community.settings.language in ("en", "ru"):
                    t.lang = community.settings.language
                if t.hand is None:
                    self._apply_pending(t)
                    await self._render_group(t)
                await self._save(t)

    def _apply_pending(self, t: LiveTable) -> None:
        if t.pending_options is not None and (t.match is None or not t.match.in_match):
            t.options = t.pending_options
            t.match = replace(t.match, options=t.options) if t.match else MatchState.new(t.options)
            t.pending_options = None
        if t.pending_buy_in is not None:
            t.min_buy_in = t.pending_buy_in
            t.pending_buy_in = None

    async def _settings_press(
        self,
        chat: ChatRef | None,
        actor: Actor,
        p: Payload,
        is_admin: Callable[[], Awaitable[bool]],
    ) -> Reply:
        if chat is None or chat.private:
            return Reply(tr(language_of(actor.language), "err.forged"), alert=True)
        community = await self._community(chat)
        lang = self._lang(community, actor)
        if not await is_admin():
            return Reply(tr(lang, "reply.admins_only"), alert=True)
        if p.version != self._settings_version(community.settings):
            return Reply(tr(lang, "err.stale"), alert=True)
        code, op = p.arg[:-1], p.arg[-1:]
        name = _BY_CODE.get(code)
        if name is None or op not in "+-~":
            return Reply(tr(lang, "err.forged"), alert=True)
        s = community.settings
        kind, _, step = SETTINGS[name]
        opts = s.rule_options()
        current: Any = getattr(s, name) if kind == "community" else getattr(opts, name)
        if op == "~":
            if isinstance(current, bool):
                value = "false" if current else "true"
            elif name == "language":
                order = [None, "en", "ru"]
                value = order[(order.index(current) + 1) % 3] or "auto"
            elif name == "scoring":
                value = "two_per_row" if current.value == "one_six" else "one_six"
            elif name == "game":
                games = [g.value for g in PLAYABLE_GAMES]
                value = (
                    games[(games.index(current) + 1) % len(games)] if current in games else games[0]
                )
            else:
                return Reply(tr(lang, "err.forged"), alert=True)
        else:
            if not step:
                return Reply(tr(lang, "err.forged"), alert=True)
            number = float(current) + (step if op == "+" else -step)
            value = str(int(number)) if float(number).is_integer() else str(number)
        try:
            community = await self._change_setting(community, name, value)
        except (ValueError, OptionError) as exc:
            return Reply(tr(lang, "reply.settings_bad", error=str(exc)), alert=True)
        return Reply(
            tr(lang, "reply.settings_saved", what=f"{name} = {value}"),
            screen=self.settings_screen(community, lang),
        )

    # -- private chat ----------------------------------------------------------------------
    async def private_start(self, actor: Actor, arg: str) -> Reply:
        """``/start t<table>`` in a private chat: show the player's hand there."""
        lang = language_of(actor.language)
        if arg.startswith("t") and arg[1:].isdigit():
            t = self.tables.get(int(arg[1:]))
            if t is not None:
                async with t.lock:
                    seat = t.seat_of(actor.user_id)
                    if seat is not None:
                        seat.private_ref = None
                        await self._render_private(t, seat)
                        was = seat.reachable
                        if t.hand is not None and was:
                            await self._render_group(t)
                        await self._save(t)
                        return Reply(tr(seat.lang, "reply.private_linked", table=t.id))
        # a /start with no table: refresh any table the user sits at
        for t in self.tables.values():
            async with t.lock:
                seat = t.seat_of(actor.user_id)
                if seat is not None and t.hand is not None:
                    seat.private_ref = None
                    await self._render_private(t, seat)
                    await self._save(t)
        return Reply(tr(lang, "reply.welcome"))

    # -- button presses --------------------------------------------------------------------
    async def press(
        self,
        actor: Actor,
        data: str | None,
        chat: ChatRef | None = None,
        is_admin: Callable[[], Awaitable[bool]] | None = None,
    ) -> Reply:
        """Handle a button press. Stale, forged or foreign presses are answered with a short
        notice and change nothing; legal ones go to the core."""
        lang = language_of(actor.language)
        p = Payload.decode(data)
        if p is None:
            return Reply(tr(lang, "err.forged"), alert=True)
        if p.action == "s":
            return await self._settings_press(chat, actor, p, is_admin or _no)
        t = self.tables.get(p.table)
        if t is None or t.platform != actor.platform:
            return Reply(tr(lang, "err.stale"), alert=True)
        async with t.lock:
            seat = t.seat_of(actor.user_id)
            lang = seat.lang if seat else t.lang
            if p.action in ("j", "r", "l", "h") and (chat is None or chat.chat_id == t.chat_id):
                if p.version != f"L{t.version}":
                    return Reply(tr(lang, "err.stale"), alert=True)
                if p.action == "j":
                    community = await self.store.community(t.platform, t.community_ext)
                    return await self._join(t, community, actor, self._lang(community, actor))
                if p.action == "r":
                    return await self._ready(t, actor, lang)
                if p.action == "l":
                    return await self._leave(t, actor, lang)
                # "h": my hand (platforms without a private chat link show it ephemerally)
                if seat is None or t.hand is None or not t.boards_of(seat):
                    return Reply(tr(lang, "private.none"), alert=True)
                screen = await self._render_private(t, seat)
                await self._save(t)
                return Reply(screen=screen, private=True)
            if p.action in ("p", "d", "u", "c", "a"):
                return await self._hand_press(t, seat, p, lang)
            if p.action in ("k", "n"):
                return await self._claim_press(t, seat, p, lang)
            return Reply(tr(lang, "err.forged"), alert=True)

    async def _hand_press(
        self, t: LiveTable, seat: SeatState | None, p: Payload, lang: str
    ) -> Reply:
        hand = t.hand
        if seat is None:
            return Reply(tr(lang, "err.not_your_table"), alert=True)
        parts = p.version.split(".")
        if hand is None or hand.is_over or len(parts) != 3 or not parts[1].isdigit():
            return Reply(tr(lang, "err.stale"), alert=True)
        board = int(parts[1])
        if board not in hand.order or t.owner(board) != seat.seat:
            return Reply(tr(lang, "err.not_your_table"), alert=True)
        if p.version != f"{t.hand_no}.{board}.{hand.seat_version(board)}":
            return Reply(tr(lang, "err.stale"), alert=True)
        actions: list[Action]
        try:
            if p.action == "p":
                actions = [Place(board, parse_card(p.arg[:-1]), _BOXES[p.arg[-1]])]
            elif p.action == "d":
                actions = [Discard(board, parse_card(p.arg))]
            elif p.action == "u":
                pending = hand.pending(board)
                if not pending:
                    return Reply(tr(lang, "err.nothing_to_undo"), alert=True)
                actions = [Unplace(board, pending[-1][0])]
            elif p.action == "c":
                # the cards left unplaced are the street's discards (R3.2): one press fewer
                left = hand.to_place(board)
                if left and len(left) == hand.discards_needed(board):
                    actions = [*(Discard(board, c) for c in left), Confirm(board)]
                else:
                    actions = [Confirm(board)]
            else:
                moves = hand.suggest(board)  # "arrange for me": the strategy with play-outs
                if not moves:
                    return Reply(error_text(lang, "no_change"), alert=True)
                actions = [Place(board, c, b) if b else Discard(board, c) for c, b in moves]
            turn_before = hand.to_act
            for a in actions:
                applied = hand.apply(a)
        except (GameError, KeyError, ValueError) as exc:
            code = exc.code if isinstance(exc, GameError) else "game_error"
            return Reply(error_text(lang, code), alert=True)
        if isinstance(actions[-1], Confirm):
            await self._advance(t, turn_before=turn_before, force_group=applied.revealed)
            # the presser's own screen after the move (platforms with ephemeral hands use it)
            return Reply(screen=render.private_screen(t, seat, self.clock()), private=True)
        screen = await self._render_private(t, seat)
        self._save_soon(t)  # a placement before confirm: losing it in a crash loses nothing
        return Reply(screen=screen, private=True)

    # -- the hand --------------------------------------------------------------------------
    def _available(self, t: LiveTable) -> list[int]:
        return sorted(
            s.seat
            for s in t.seats.values()
            if s.ready and not s.sitting_out and not s.leaving and s.stack > 0
        )

    async def _maybe_start(self, t: LiveTable) -> None:
        """Deal when every seated player is ready (first hand) or, once play runs, when two or
        more ready players are available (R8.2)."""
        if t.hand is not None:
            return
        avail = self._available(t)
        if len(avail) < t.options.min_players:
            t.started = False
            t.next_hand_at = None
            return
        if not t.started:
            waiting = [s for s in t.seats.values() if not s.ready and not s.sitting_out]
            if waiting:
                return
            t.started = True
        if t.next_hand_at is not None and self.clock() < t.next_hand_at:
            await self._arm(t)
            return
        await self._deal(t)

    async def _deal(self, t: LiveTable) -> None:
        self._apply_pending(t)
        assert t.match is not None
        t.next_hand_at = None
        plan = t.match.next_hand(self._available(t))
        if self.deck_source is not None:
            deck = list(self.deck_source())
        elif self.rng is not None:
            deck = shuffled_deck(rng=self.rng)
        else:
            deck = shuffled_deck()  # CSPRNG (R1.1)
        seats, button = plan.seats, plan.button
        owners: dict[int, int] = {}
        if t.options.heads_up_double_boxes and len(plan.seats) == 2:
            seats, owners = double_box_seats(plan.seats)  # R4.2: two boards each
            button = 10 * plan.button + 1
        setup = HandSetup.deal(t.options, seats, button, plan.fantasyland, deck=deck, owners=owners)
        t.match = t.match.begin(plan)
        t.plan = plan
        t.owners = owners
        t.hand = Hand(setup)
        t.hand_no += 1
        if t.options.game is GameKind.CHINESE and t.chinese is None:
            t.chinese = ChineseGame(t.options.target_points)
        t.clocks = {}
        for s in seats:
            budget = (
                t.options.fantasyland_seconds if s in plan.fantasyland else t.options.hand_seconds
            )
            player = t.player_of(s)
            t.clocks[s] = SeatClock(budget, player.bank if player else 0.0)
        self._sync_clocks(t, self.clock())
        await self._render_group(t)
        for p in plan.seats:
            await self._render_private(t, t.seats[p])
        await self._render_group_if_unreachable(t)
        await self._save(t)
        await self._arm(t)

    async def _render_group_if_unreachable(self, t: LiveTable) -> None:
        if t.hand is not None and any(not s.reachable for s in t.seats.values() if t.boards_of(s)):
            await self._render_group(t)

    def _sync_clocks(self, t: LiveTable, now: float) -> None:
        hand = t.hand
        acting = set(hand.to_act) if hand is not None and not hand.is_over else set()
        for seat, clock in list(t.clocks.items()):
            if seat in acting and not clock.running:
                t.clocks[seat] = clock.start(now)
            elif seat not in acting and clock.running:
                t.clocks[seat] = clock.stop(now)

    async def _advance(
        self, t: LiveTable, turn_before: tuple[int, ...] | None = None, force_group: bool = True
    ) -> None:
        """After a confirmed move or a timeout: make due automatic moves, move the clocks,
        re-render what changed, finish the hand at showdown, and save."""
        hand = t.hand
        assert hand is not None
        now = self.clock()
        self._sync_clocks(t, now)
        before = set(turn_before if turn_before is not None else ())
        while not hand.is_over:
            due = [
                s
                for s in hand.to_act
                if (p := t.player_of(s)) is None or p.leaving or t.clocks[s].expired(now)
            ]
            if not due:
                break
            for s in due:
                hand.apply(Timeout(s))
                self._sync_clocks(t, now)
        if hand.is_over:
            await self._finish_hand(t)
            return
        after = set(hand.to_act)
        await self._render_group(t)
        changed = {t.owner(s) for s in after | before}
        for owner in sorted(changed):
            if owner in t.seats:
                await self._render_private(t, t.seats[owner])
        await self._render_group_if_unreachable(t)
        await self._save(t)
        await self._arm(t)

    async def _finish_hand(self, t: LiveTable) -> None:
        """Showdown: Chinese Poker reveals box by box (R4.5, R7); the open-face games settle
        the hand's points now (R8.3, R8.4) and record it."""
        hand = t.hand
        assert hand is not None and hand.result is not None and t.match is not None
        result = hand.result
        t.match = t.match.after_hand(result)
        banks: dict[int, float] = {}
        for s, clock in t.clocks.items():
            owner = t.owner(s)
            banks[owner] = min(banks.get(owner, clock.bank), clock.bank)
        for owner, bank in banks.items():
            if owner in t.seats:
                t.seats[owner].bank = bank
        if t.match.match_over and t.options.time_bank_refill_per_match:
            for st in t.seats.values():
                st.bank = min(
                    t.options.time_bank_seconds, st.bank + t.options.time_bank_refill_per_match
                )
        t.clocks = {}
        if t.options.game is GameKind.CHINESE:
            t.reveal = {"stage": 0, "at": self.clock(), "claim": None}
            await self._reveal_step(t)
            return
        deltas = self._settle(t, result.order, t.match.due)
        record = result.to_json()
        await self._close_hand(t, record, deltas)

    def _settle(
        self, t: LiveTable, order: Sequence[int], pairs: Sequence[tuple[int, int, int]]
    ) -> dict[int, int]:
        """Kush deltas of table seats for pairwise points of board seats (R8.4, R5.7): pairs
        of double boxes (R4.2) are merged per player first."""
        merged: dict[tuple[int, int], int] = {}
        for a, b, p in pairs:
            oa, ob = t.owner(a), t.owner(b)
            if oa == ob or oa not in t.seats or ob not in t.seats:
                continue
            if (ob, oa) in merged:
                merged[(ob, oa)] -= p
            else:
                merged[(oa, ob)] = merged.get((oa, ob), 0) + p
        if not merged:
            return {}
        owners_in_order = list(dict.fromkeys(t.owner(s) for s in order))
        stacks = {o: t.seats[o].stack for o in owners_in_order if o in t.seats}
        settlement = settle(
            [(a, b, p) for (a, b), p in merged.items()], stacks, t.options.kush_per_point
        )
        return dict(settlement.deltas)

    async def _close_hand(
        self, t: LiveTable, record: dict[str, Any], deltas: dict[int, int]
    ) -> None:
        """Record the finished hand and its kush in one transaction, stand up the leaving and
        the busted, show the final screen, and schedule the next hand."""
        hand = t.hand
        assert hand is not None and hand.result is not None and t.match is not None
        result = hand.result
        players = {
            s: t.seats[s].player_id for s in t.seats if s in {t.owner(x) for x in result.order}
        }
        record["kush"] = {str(s): d for s, d in deltas.items()}
        record["table"] = t.id
        if t.owners:
            record["owners"] = {str(k): v for k, v in t.owners.items()}
        await self.store.settle_hand(
            t.id,
            t.hand_no,
            hand.to_json(),
            record,
            players,
            {players[s]: d for s, d in deltas.items()},
            key=f"t{t.id}:hand:{t.hand_no}",
        )
        for s, d in deltas.items():
            t.seats[s].stack += d
        for s in t.match.to_sit_out:
            if t.owner(s) in t.seats:
                t.seats[t.owner(s)].sitting_out = True
        busted: list[str] = []
        for st in list(t.seats.values()):
            # the leaving, and players who bought in and lost their whole stack (R8.2); a player
            # who joined during the hand and has not bought in yet keeps the seat
            if st.leaving or (st.ready and st.stack <= 0):
                if not st.leaving:
                    busted.append(st.name)
                await self._stand_up(t, st)
        p = self._presenter(t)
        if p is not None:
            if t.options.game is GameKind.CHINESE:
                screen = render.reveal_screen(t, t.lang, deltas, busted)
            else:
                screen = render.showdown_screen(t, t.lang, record, deltas, busted)
            await p.show_table(t.chat_id, screen, t.group_ref)
            for owner in sorted(players):
                if owner in t.seats:
                    await self._render_private(t, t.seats[owner])
        t.group_ref = None  # the showdown message stays as the record; the next hand posts anew
        t.last_result = record
        t.hand = None
        t.plan = None
        t.owners = {}
        t.reveal = None
        if len(self._available(t)) >= t.options.min_players:
            t.next_hand_at = self.clock() + self.next_hand_delay
        else:
            t.started = False
            t.next_hand_at = None
        if t.next_hand_at is not None and self.next_hand_delay <= 0:
            await self._maybe_start(t)
        else:
            await self._render_group(t)
            await self._save(t)
            await self._arm(t)

    # -- Chinese Poker: reveals, claims, the end of a game (R4.5, R7) ------------------------
    async def _reveal_step(self, t: LiveTable) -> None:
        """Reveal the next box (bottom, middle, top), add its points to the game, offer the
        claim to players at the target after the bottom or middle (R7.5), and close the hand
        after the top."""
        hand, reveal, game = t.hand, t.reveal, t.chinese
        assert hand is not None and hand.result is not None and reveal is not None
        assert game is not None
        stages = ChineseGame.stages(hand.result)
        k = int(reveal["stage"])
        stage = stages[k]
        game = game.apply(stage)
        t.chinese = game
        reveal["stage"] = k + 1
        reveal["claim"] = None
        reveal["at"] = None
        claimants = game.claimants(stage)
        now = self.clock()
        if stage.last:
            await self._close_chinese_hand(t)
            return
        if claimants:
            reveal["claim"] = {
                "seats": list(claimants),
                "continued": [],
                "deadline": now + CLAIM_SECONDS,
            }
        else:
            reveal["at"] = now + t.options.reveal_pause_seconds
        await self._render_group(t)
        await self._save(t)
        await self._arm(t)

    async def _close_chinese_hand(self, t: LiveTable) -> None:
        hand, game = t.hand, t.chinese
        assert hand is not None and hand.result is not None and game is not None
        result = hand.result
        if any(r.timed_out for r in result.seats):
            game = game.end()  # R7.7: the game ends after a hand with a timeout
        if any((p := t.player_of(s)) is not None and p.leaving for s in result.order):
            game = game.end()  # a player leaving ends the game: it is settled now (R7.6)
        deltas: dict[int, int] = {}
        if game.over:
            deltas = self._settle(t, result.order, game.pairs(result.order))  # R7.6
        t.chinese = game
        record = result.to_json()
        record["chinese"] = game.to_json()
        await self._close_hand(t, record, deltas)
        if game.over:
            t.chinese = None
            await self._save(t)

    async def _end_chinese_game(self, t: LiveTable) -> None:
        """End a Chinese Poker game between hands and settle it on the current points (R7.6),
        recorded as a history entry of its own."""
        game = t.chinese
        assert game is not None
        game = game.end()
        order = sorted(s for s in game.totals if s in t.seats)
        deltas = self._settle(t, order, game.pairs(order))
        t.hand_no += 1
        players = {s: t.seats[s].player_id for s in order}
        record = {"game_end": True, "chinese": game.to_json(), "table": t.id,
                  "kush": {str(s): d for s, d in deltas.items()}}  # fmt: skip
        await self.store.settle_hand(
            t.id, t.hand_no, {"game_end": True}, record, players,
            {players[s]: d for s, d in deltas.items()}, key=f"t{t.id}:game-end:{t.hand_no}",
        )  # fmt: skip
        for s, d in deltas.items():
            t.seats[s].stack += d
        t.chinese = None
        p = self._presenter(t)
        if p is not None:
            await p.post(t.chat_id, tr(t.lang, "reveal.game_over"))

    async def _claim_press(
        self, t: LiveTable, seat: SeatState | None, p: Payload, lang: str
    ) -> Reply:
        reveal, game, hand = t.reveal, t.chinese, t.hand
        claim = reveal.get("claim") if reveal else None
        if (
            seat is None
            or claim is None
            or game is None
            or hand is None
            or p.version != f"C{t.hand_no}.{reveal['stage'] if reveal else ''}"
        ):
            return Reply(tr(lang, "err.stale"), alert=True)
        if seat.seat not in claim["seats"]:
            return Reply(tr(lang, "err.not_claimant"), alert=True)
        if p.action == "k":
            t.chinese = game.claim(seat.seat)
            assert t.reveal is not None
            t.reveal["claim"] = None
            await self._close_chinese_hand(t)
            return Reply(tr(lang, "reply.claimed"))
        if seat.seat not in claim["continued"]:
            claim["continued"].append(seat.seat)
        if set(claim["continued"]) >= set(claim["seats"]):
            await self._continue_reveal(t)
        else:
            await self._save(t)
        return Reply(tr(lang, "reply.continued"))

    async def _continue_reveal(self, t: LiveTable) -> None:
        assert t.reveal is not None
        t.reveal["claim"] = None
        t.reveal["at"] = self.clock() + t.options.reveal_pause_seconds
        await self._render_group(t)
        await self._save(t)
        await self._arm(t)

    # -- timers ----------------------------------------------------------------------------
    def _next_deadline(self, t: LiveTable) -> float | None:
        deadlines = [c.deadline() for c in t.clocks.values() if c.running]
        times = [d for d in deadlines if d is not None]
        if t.next_hand_at is not None:
            times.append(t.next_hand_at)
        if t.reveal is not None:
            if t.reveal.get("at") is not None:
                times.append(float(t.reveal["at"]))
            if t.reveal.get("claim"):
                times.append(float(t.reveal["claim"]["deadline"]))
        return min(times) if times else None

    async def _arm(self, t: LiveTable) -> None:
        current = asyncio.current_task()
        if t.timer is not None and t.timer is not current and not t.timer.done():
            t.timer.cancel()
        t.timer = None
        deadline = self._next_deadline(t)
        if deadline is None or not self.timers:
            return
        t.timer = asyncio.create_task(self._timer(t, deadline), name=f"table-{t.id}-timer")

    async def _timer(self, t: LiveTable, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        async with t.lock:
            if t.timer is asyncio.current_task():
                t.timer = None
            await self._on_time(t)

    async def _on_time(self, t: LiveTable) -> None:
        now = self.clock()
        hand = t.hand
        if t.reveal is not None:
            claim = t.reveal.get("claim")
            if claim and now >= float(claim["deadline"]):
                await self._continue_reveal(t)  # nobody claimed in time: the reveal goes on
            elif t.reveal.get("at") is not None and now >= float(t.reveal["at"]):
                await self._reveal_step(t)
            else:
                await self._arm(t)
            return
        if hand is not None and not hand.is_over:
            if any(t.clocks[s].expired(now) for s in hand.to_act if s in t.clocks):
                await self._advance(t, turn_before=hand.to_act)
                return
        elif t.next_hand_at is not None and now >= t.next_hand_at:
            t.next_hand_at = None
            await self._maybe_start(t)
            if t.hand is None:
                await self._render_group(t)
                await self._save(t)
            return
        await self._arm(t)

    async def run_due(self) -> None:
        """Fire every due timer now (for tests running with ``timers=False``)."""
        for t in list(self.tables.values()):
            async with t.lock:
                await self._on_time(t)

    # -- recovery --------------------------------------------------------------------------
    def _restore(self, snap: Mapping[str, Any]) -> LiveTable:
        options = RuleOptions.from_json(snap["options"])
        t = LiveTable(
            id=int(snap["id"]),
            platform=str(snap["platform"]),
            community_id=int(snap["community_id"]),
            community_ext=str(snap["community_ext"]),
            chat_id=str(snap["chat_id"]),
            lang=str(snap["lang"]),
            options=options,
            min_buy_in=int(snap["min_buy_in"]),
            label=str(snap["label"]),
        )
        for s in snap.get("seats", []):
            seat = SeatState.from_json(dict(s))
            t.seats[seat.seat] = seat
        t.match = (
            MatchState.from_json(snap["match"]) if snap.get("match") else MatchState.new(options)
        )
        t.owners = {int(k): int(v) for k, v in dict(snap.get("owners") or {}).items()}
        if snap.get("chinese"):
            t.chinese = ChineseGame.from_json(snap["chinese"])
        t.reveal = snap.get("reveal")
        hand_json = snap.get("hand") or (snap.get("hand_over") if t.reveal else None)
        if hand_json:
            t.hand = Hand.from_json(hand_json)
            plan = snap.get("plan") or {}
            t.plan = HandPlan(
                tuple(plan.get("seats", t.hand.order)),
                int(plan.get("button", t.hand.button)),
                {int(k): int(v) for k, v in dict(plan.get("fantasyland") or {}).items()},
                bool(plan.get("new_match", True)),
            )
            if any(t.owner(s) not in t.seats for s in t.hand.order):
                raise ValueError("a seat of the hand is missing")
        t.hand_no = int(snap.get("hand_no", 0))
        clocks = {int(k): SeatClock.from_json(v) for k, v in dict(snap.get("clocks") or {}).items()}
        saved_at = snap.get("saved_at")
        if saved_at is not None:
            # R8.5: a clock runs only while its player can act; the bot being down is not
            # their time. Running clocks resume with what they had left when last saved.
            now = self.clock()
            clocks = {
                k: SeatClock(*c.left(float(saved_at))).start(now) if c.running else c
                for k, c in clocks.items()
            }
        t.clocks = clocks
        t.group_ref = snap.get("group_ref")
        t.version = int(snap.get("version", 0))
        t.started = bool(snap.get("started", False))
        t.next_hand_at = snap.get("next_hand_at")
        if snap.get("pending_options"):
            t.pending_options = RuleOptions.from_json(snap["pending_options"])
        t.pending_buy_in = snap.get("pending_buy_in")
        return t

    async def _resume(self, t: LiveTable) -> None:
        stacks = await self.store.stacks(t.id)
        # Messages are posted anew after a restart: the old ones may be gone (or belong to
        # another server), and their buttons carry old versions anyway, so they are stale.
        t.group_ref = None
        for s in t.seats.values():
            s.stack = int(stacks.get(s.player_id, 0))
            s.private_ref = None
        if t.reveal is not None:
            await self._render_group(t)
            await self._save(t)
            await self._arm(t)
        elif t.hand is not None:
            await self._advance(t, turn_before=t.hand.order)
        else:
            await self._render_group(t)
            await self._save(t)
            await self._arm(t)

    async def _cancel_unrecoverable(
        self, table_id: int, chat_id: str, snap: Mapping[str, Any]
    ) -> None:
        stacks = await self.store.stacks(table_id)
        for player_id in stacks:
            await self.store.cash_out(
                table_id, player_id, key=f"t{table_id}:refund:{player_id}", kind=LedgerKind.REFUND
            )
        await self.store.delete_snapshot(table_id)
        await self.store.close_table(table_id)
        platform = str(snap.get("platform", "")) if isinstance(snap, Mapping) else ""
        lang = str(snap.get("lang", "en")) if isinstance(snap, Mapping) else "en"
        p = self.presenters.get(platform)
        if p is not None:
            with contextlib.suppress(Exception):
                await p.post(chat_id, tr(lang, "reply.hand_cancelled", table=table_id))


async def _no() -> bool:
    return False
