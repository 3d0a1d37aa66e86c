"""Drive the real Discord adapter (discord.py's own client) through the local fake Discord:
users run slash commands and press the buttons and selects the bot actually sent, read back
from the fake's stored messages."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord

from bot.discord import DiscordAdapter
from bot.screens import Payload
from bot.service import TableService
from game.board import Box
from game.cards import Card, parse_card
from game.strategy import complete_street
from storage.sqlite import SqliteStore
from tests.bot.fakes import FOULED_NOTICES
from tests.bot.tg_world import payload_cards, shown_allowed
from tests.fakes.discord_api import (
    CHANNEL_ID,
    EPHEMERAL,
    TOKEN,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
    MessageWrite,
    point_discord_at,
    refusing_connector,
)

CARD_RE = re.compile(r"(10|[2-9TJQKA])([♠♥♦♣])")
SUIT_LETTER = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}

ALICE = FakeUser(301, "Alice", "en-US")
BOB = FakeUser(302, "Bob", "ru")
CAROL = FakeUser(303, "Carol", "en-GB")

Plan = dict[str, str | None]
#: the subcommands of /ofcadmin (the rest are under /ofc)
ADMIN_COMMANDS = frozenset({"settings", "grant", "close", "kick"})


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every component of a message, row by row."""
    return FakeDiscord.components(message)


def cards_in(text: str) -> set[Card]:
    """The cards a text shows (faces like ``Q♠``)."""
    return {parse_card(r + SUIT_LETTER[s]) for r, s in CARD_RE.findall(text)}


class World:
    """A fake Discord, a real adapter and the service on a SQLite file."""

    def __init__(
        self, fake: FakeDiscord, service: TableService, adapter: DiscordAdapter, store: SqliteStore
    ) -> None:
        self.fake = fake
        self.service = service
        self.adapter = adapter
        self.store = store
        self.hands: dict[int, int] = {}  # user id → their ephemeral hand message
        #: the adapter's warnings and errors; the world ends asserting none is left (a test
        #: that causes one on purpose checks it and removes it)
        self.logged: list[str] = []

    # -- acting ------------------------------------------------------------------------------
    async def settle(self, record: FakeInteraction) -> FakeInteraction:
        """Wait until the bot answered ``record`` and finished handling it, and every edit it
        queued is written."""
        await self.fake.wait_for(lambda: record.answered)
        await self.adapter.idle()
        await self.adapter.presenter.flush()
        return record

    async def slash(
        self,
        user: FakeUser,
        sub: str,
        options: dict[str, Any] | None = None,
        *,
        admin: bool | None = None,
        channel_id: int = CHANNEL_ID,
        group: str | None = None,
        left: Sequence[int] = (),
    ) -> dict[str, Any]:
        """``user`` runs ``/ofc sub`` (``/ofcadmin sub`` for the admin commands, or ``/group
        sub``); returns the reply message (``flags`` 64: ephemeral). ``left``: users named in
        ``options`` who have left the guild."""
        group = group or ("ofcadmin" if sub in ADMIN_COMMANDS else "ofc")
        record = await self.fake.slash(
            user, sub, options, admin=admin, channel_id=channel_id, group=group, left=left
        )
        await self.settle(record)
        assert record.messages, record
        return self.fake.messages[record.messages[-1]]

    async def press(
        self,
        user: FakeUser,
        message: dict[str, Any],
        custom_id: str,
        values: Sequence[str] | None = None,
        *,
        admin: bool | None = None,
    ) -> FakeInteraction:
        """``user`` presses ``custom_id`` on ``message`` (or picks ``values`` in that select)."""
        record = await self.fake.press(user, message, custom_id, list(values or []), admin=admin)
        return await self.settle(record)

    def notice(self, record: FakeInteraction) -> dict[str, Any] | None:
        """The ephemeral notice an answer created (a refusal), if any."""
        if record.callback_type == 4 and record.messages:
            return self.fake.messages[record.messages[-1]]
        for f in record.followups:
            if int(f.get("flags") or 0) & EPHEMERAL and record.messages:
                return self.fake.messages[record.messages[-1]]
        return None

    # -- reading -----------------------------------------------------------------------------
    def table_message(self) -> dict[str, Any]:
        """The newest public bot message in the channel with lobby buttons (Leave: during a
        hand Join is shown only while a seat is free)."""
        for m in reversed(self.fake.channel_messages(CHANNEL_ID)):
            if any(action_of(c) in ("j", "l") for c in components(m)):
                return m
        raise AssertionError("no table message")

    async def press_lobby(self, user: FakeUser, action: str) -> FakeInteraction:
        """Press the table message's button with ``action`` (``j``, ``r``, ``l``, ``h``)."""
        msg = self.table_message()
        cid = next(c["custom_id"] for c in components(msg) if action_of(c) == action)
        return await self.press(user, msg, cid)

    async def my_cards(self, user: FakeUser) -> dict[str, Any]:
        """Press "🂠 My cards"; returns the ephemeral hand it answered with."""
        record = await self.press_lobby(user, "h")
        assert record.callback_type in (4, 6) and record.messages, record
        msg = self.fake.messages[record.messages[-1]]
        assert msg["flags"] & EPHEMERAL
        if components(msg):
            self.hands[user.id] = int(msg["id"])
        return msg

    def dm(self, user: FakeUser) -> dict[str, Any] | None:
        """The user's DM hand (the message the service edits as their private message; none
        while it is being posted, under the pending ref its step committed first)."""
        for t in self.service.tables.values():
            seat = t.seat_of(str(user.id))
            if seat is not None and seat.private_ref is not None and ":" in seat.private_ref:
                mid = int(seat.private_ref.split(":")[1])
                if mid not in self.fake.deleted:
                    return self.fake.messages.get(mid)
        return None

    def ephemeral(self, user: FakeUser) -> dict[str, Any] | None:
        """The user's ephemeral hand message, in its current state."""
        mid = self.hands.get(user.id)
        return self.fake.messages.get(mid) if mid is not None else None

    async def hand_message(self, user: FakeUser, via: str) -> dict[str, Any]:
        """The message ``user`` plays on: ``dm`` or ``ephemeral`` (opened with "My cards" when
        it shows no buttons)."""
        if via == "dm":
            msg = self.dm(user)
            assert msg is not None, f"{user.name} has no DM"
            return msg
        msg = self.ephemeral(user)
        if msg is None or not components(msg):
            msg = await self.my_cards(user)
        return msg

    @staticmethod
    def buttons(message: dict[str, Any]) -> dict[tuple[str, str], str]:
        """(action, arg) → custom_id of the message's payload buttons."""
        out: dict[tuple[str, str], str] = {}
        for c in components(message):
            p = Payload.decode(c.get("custom_id"))
            if p is not None and c["type"] == 2:
                out[(p.action, p.arg)] = c["custom_id"]
        return out

    def table(self) -> Any:
        return next(iter(self.service.tables.values()))

    def plan_street(
        self, user: FakeUser, plan: Plan | None = None
    ) -> list[tuple[Card, Box | None]]:
        """This street's moves for ``user``: from ``plan`` (card → box name or ``None`` to
        discard) when it covers every card, else the built-in strategy."""
        t = self.table()
        hand = t.hand
        assert hand is not None
        seat = t.seat_of(str(user.id))
        assert seat is not None
        cards = hand.to_place(seat.seat)
        if plan and all(c.text in plan for c in cards):
            return [(c, Box(plan[c.text]) if plan[c.text] else None) for c in cards]
        return list(
            complete_street(
                hand.board_of(seat.seat, with_pending=True),
                cards,
                hand.discards_needed(seat.seat),
                fantasyland_cards=13 if hand.is_fantasyland(seat.seat) else 0,
                options=hand.options,
            )
        )

    async def play_street(self, user: FakeUser, via: str, plan: Plan | None = None) -> None:
        """Place this street's cards one press per card on the ``via`` message, then Confirm.
        Every press must edit that message in place (callback type 7)."""
        for card, box in self.plan_street(user, plan):
            msg = await self.hand_message(user, via)
            want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
            record = await self.press(user, msg, self.buttons(msg)[want])
            assert record.callback_type == 7, (record.callback_body, self.notice(record))
        msg = await self.hand_message(user, via)
        record = await self.press(user, msg, self.buttons(msg)[("c", "")])
        notice = self.notice(record)
        if notice is not None and notice.get("content") in FOULED_NOTICES:  # asks first
            msg = await self.hand_message(user, via)
            record = await self.press(user, msg, self.buttons(msg)[("c", "")])
        assert record.callback_type == 7, (record.callback_body, self.notice(record))

    async def play_hand(
        self,
        users: Sequence[FakeUser],
        via: dict[int, str],
        plans: dict[int, Plan] | None = None,
    ) -> None:
        """Whoever is to act plays (on ``via[user]``, by ``plans[user]`` if given) until the
        current hand is over."""
        t = self.table()
        by_id = {str(u.id): u for u in users}
        number = t.hand_no
        while t.hand is not None and t.hand_no == number:
            user = by_id[t.seats[t.hand.to_act[0]].user_id]
            await self.play_street(user, via[user.id], (plans or {}).get(user.id))

    # -- watching ----------------------------------------------------------------------------
    def watch_leaks(self) -> list[str]:
        """Check every public channel write as it happens (content, embeds, attachments'
        names and descriptions, every component's label, ``custom_id`` and select options,
        a payload's card codes included): each card it shows must be public in the hand its
        title names at that moment, or on the last showdown's boards for an earlier hand
        (:func:`~tests.bot.tg_world.shown_allowed`; R3.3, R4.3, R6.3). Returns the
        violations, filled as the test runs."""
        violations: list[str] = []

        def check(write: MessageWrite) -> None:
            if not write.guild or write.ephemeral:
                return
            msg = write.message
            texts = [str(msg.get("content", ""))]
            texts.extend(repr(e) for e in msg.get("embeds") or [])
            for a in msg.get("attachments") or []:
                texts += [str(a.get("filename") or ""), str(a.get("description") or "")]
            codes: list[str] = []
            for c in components(msg):
                texts.append(str(c.get("label") or ""))
                texts.append(str(c.get("placeholder") or ""))
                codes += payload_cards(c.get("custom_id"))
                for o in c.get("options", []):
                    texts.append(str(o.get("label", "")))
                    texts.append(str(o.get("description") or ""))
                    codes += payload_cards(o.get("value"))
            shown = set().union(*(cards_in(t) for t in texts)) | {parse_card(c) for c in codes}
            allowed = shown_allowed(self.service.tables.values(), texts[0])
            extra = shown - allowed
            if extra:
                violations.append(f"{sorted(c.text for c in extra)} in: {texts[0][:80]!r}")

        self.fake.listeners.append(check)
        return violations

    def public_texts(self) -> list[str]:
        """The content of every public channel write so far (sends and edits)."""
        out: list[str] = []

        def grab(write: MessageWrite) -> None:
            if write.guild and not write.ephemeral:
                out.append(str(write.message.get("content", "")))

        self.fake.listeners.append(grab)
        return out


def action_of(component: dict[str, Any]) -> str | None:
    """The payload action of a button component (``None`` for other components)."""
    p = Payload.decode(component.get("custom_id"))
    return p.action if p is not None else None


class _Records(logging.Handler):
    """Keeps the adapter's warnings and errors."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


#: Seconds after which the tests' adapters defer an interaction (the bot's own is 0.8 s). The
#: tests check that a press is answered by editing the pressed message (callback type 7),
#: which a deferred press is not (type 6, then a webhook edit): a loaded machine (CI on two
#: busy cores, SQLite commits waiting on the disk) took more than the 2 s this was, and a
#: tournament test failed with a deferred Arrange press. The deferral itself is tested with
#: ``answer_within=0.01`` (test_discord_e2e's slow service).
TEST_ANSWER_WITHIN = 30.0
#: how long the world's presses wait for its SQLite file (``STORAGE_WAIT_SECONDS``, 1 s in
#: the bot): a whole suite on two loaded cores made a press wait longer now and then
#: ("Could not save, nothing changed"); tests of the bound itself set their own
TEST_STORAGE_WAIT = 5.0


@asynccontextmanager
async def world(
    tmp: Path,
    *,
    fake: FakeDiscord | None = None,
    db: Path | None = None,
    rng_seed: int = 1,
    next_hand_delay: float = 0.0,
    deck_source: Callable[[], Sequence[Card]] | None = None,
    service_class: type[TableService] = TableService,
    answer_within: float = TEST_ANSWER_WITHIN,
    bot_pace: tuple[float, float] = (1.0, 3.0),
    intents: discord.Intents | None = None,
    storage_wait: float = TEST_STORAGE_WAIT,
) -> AsyncIterator[World]:
    """A running world: the fake (own or given), the service on ``db`` (waiting
    ``storage_wait`` for it) and the adapter (with ``intents``, else the bot's default
    ones), connected and ready. Stops everything
    (but a given fake) on exit."""
    warnings = _Records()
    logging.getLogger("bot.discord").addHandler(warnings)
    own_fake = fake is None
    fake = fake or FakeDiscord(TOKEN)
    if own_fake:
        await fake.start()
    store = await SqliteStore.open(db or tmp / "ofc.sqlite3")
    service = service_class(
        store,
        rng=random.Random(rng_seed),
        next_hand_delay=next_hand_delay,
        deck_source=deck_source,
        bot_pace=bot_pace,
        storage_wait=storage_wait,
    )
    with point_discord_at(fake):
        adapter = DiscordAdapter(
            service,
            TOKEN,
            connector=refusing_connector(),
            guild_ready_timeout=0.05,
            answer_within=answer_within,
            intents=intents,
        )
        await adapter.start(ready_timeout=30)
        await service.start()
        await adapter.look_at_restored()  # (as the composition root, bot/app.py)
        await adapter.presenter.flush()
        try:
            w = World(fake, service, adapter, store)
            w.logged = warnings.messages
            yield w
        finally:
            await service.stop()
            await adapter.stop()
            await store.close()
            if own_fake:
                await fake.stop()
            logging.getLogger("bot.discord").removeHandler(warnings)
            assert fake.unhandled == [], [(c.method, c.path) for c in fake.unhandled]
            # every interaction answered once, every write accepted: nothing to warn about
            assert warnings.messages == []


__all__ = [
    "ALICE",
    "BOB",
    "CAROL",
    "TEST_ANSWER_WITHIN",
    "World",
    "cards_in",
    "components",
    "world",
]
