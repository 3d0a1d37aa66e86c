"""Drive the real Telegram adapter through the fake Bot API: users type commands and press
the buttons the bot actually sent."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.screens import Payload
from bot.service import TableService
from bot.telegram.adapter import TelegramAdapter
from bot.telegram.fake_api import FakeTelegram, FakeUser
from bot.telegram.ratelimit import AnswerFirstRateLimiter
from game.board import BOXES, Board, Box
from game.cards import Card, parse_card
from game.strategy import complete_street
from storage.sqlite import SqliteStore
from tests.bot.fakes import FOULED_NOTICES

GROUP_ID = -1001
CARD_RE = re.compile(r"(10|[2-9TJQKA])([♠♥♦♣])")
#: a card's code as a payload's argument writes it (``Ks``, ``Td``; ``Ksb``: Ks to the bottom)
CODE_RE = re.compile(r"[2-9TJQKA][shdc]")


#: the hand a group message's title names ("… · hand 7", "… · раздача 7")
HAND_TITLE_RE = re.compile(r"· (?:hand|раздача) (\d+)")


def shown_allowed(tables: Iterable[Any], text: str) -> set[Card]:
    """The cards a group message with ``text`` may show now: at each table, the public cards
    of the hand being played (every board and the dummy once it is at showdown, R4.3; in a
    Chinese Poker reveal the boxes of its stages so far, R4.5, R7.5) when the
    message's title names that hand, the last showdown's boards when it names an earlier one
    (a showdown sent once the next hand is dealt), both when it names none (a notice). A
    card of the last hand's boards shown in the next hand's message counts (a hidden card of
    this hand: it was allowed there since any card of the last showdown was)."""
    m = HAND_TITLE_RE.search(text.split("\n", 1)[0])
    named = int(m.group(1)) if m else None
    allowed: set[Card] = set()
    for t in tables:
        current: set[Card] = set()
        if t.hand is not None:
            current |= t.hand.view(None).public_cards()
            if t.hand.result is not None:
                # a Chinese Poker reveal shows the boxes of its stages so far, bottom first
                boxes = (Box.BOTTOM, Box.MIDDLE, Box.TOP)[: int((t.reveal or {}).get("stage", 3))]
                for r in t.hand.result.seats:
                    current |= {c for b in boxes for c in r.board.box(b)}
                if t.hand.result.dummy is not None:
                    current |= set(t.hand.result.dummy.cards())
        last: set[Card] = set()
        if t.last_result:
            # (a claim ends a reveal with boxes never shown, R7.5: they stay hidden)
            shown = ("bottom", "middle", "top")[: int(t.last_result.get("revealed", 3))]
            for r in t.last_result.get("seats", []):
                last |= {parse_card(c) for box in shown for c in str(r.get(box, "")).split()}
            dummy = t.last_result.get("dummy") or {}
            last |= {parse_card(c) for box in shown for c in str(dummy.get(box, "")).split()}
        if named is None:
            allowed |= current | last
        elif t.hand is not None and named == t.shown_no:
            allowed |= current
        else:
            allowed |= last
    return allowed


def payload_cards(data: str | None) -> list[str]:
    """The card codes a button payload carries (a placement's, a discard's: hidden until
    played, R3.3), ``[]`` for none or a payload that is none of the bot's."""
    p = Payload.decode(data)
    return CODE_RE.findall(p.arg) if p is not None and p.arg else []


SUIT_LETTER = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
TOKEN = "123456:TEST"

ALICE = FakeUser(101, "Alice", "alice", "en")
BOB = FakeUser(102, "Bob", "bob", "ru")
CAROL = FakeUser(103, "Carol", "carol", "en")


class World:
    """A fake Telegram, a real adapter and service on a SQLite file."""

    def __init__(
        self,
        fake: FakeTelegram,
        service: TableService,
        adapter: TelegramAdapter,
        store: SqliteStore,
    ) -> None:
        self.fake = fake
        self.service = service
        self.adapter = adapter
        self.store = store

    async def say(
        self,
        user: FakeUser,
        text: str,
        chat_id: int = GROUP_ID,
        reply_to: int | None = None,
        topic: int | None = None,
        entities: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """``user`` writes ``text`` (in a forum ``topic`` if given, with ``entities`` besides
        the command's); waits for the bot's reply and returns it."""
        start = len(self.fake.calls)
        mid = await self.fake.send_text(user, chat_id, text, reply_to, topic, entities)

        def reply() -> dict[str, Any] | None:
            for c in self.fake.calls[start:]:
                if c.method != "sendMessage" or int(c.params.get("chat_id", 0)) != chat_id:
                    continue
                rp = c.params.get("reply_parameters") or {}
                if rp.get("message_id") == mid or c.params.get("reply_to_message_id") == mid:
                    return c.params
                # private chats are not quoted: the reply is the first plain text after ours
                if chat_id > 0 and not str(c.params.get("text", "")).startswith("🃏"):
                    return c.params
            return None

        result: dict[str, Any] = await self.fake.wait_for(reply)
        return result

    async def press(
        self, user: FakeUser, chat_id: int, message: dict[str, Any], data: str
    ) -> dict[str, Any]:
        """``user`` presses the button ``data`` of ``message``; returns the callback answer."""
        assert any(b.get("callback_data") == data for b in self.fake.buttons(message)), data
        qid = await self.fake.press(user, chat_id, message["message_id"], data)
        answer = await self.fake.wait_for(lambda: self.fake.answer_of(qid))
        await self.settle()
        params: dict[str, Any] = answer.params
        return params

    async def settle(self) -> None:
        """Until the messages of every step taken so far are written (a press is answered
        before its step's messages go out, and those are edited in the background)."""
        for t in list(self.service.tables.values()):
            async with t.lock:
                pass
            await self.service.rt.settled(t)
        for t in list(self.service.rt.closing.values()):  # a closed table's last messages
            await self.service.rt.settled(t)
        await self.adapter.presenter.flush()

    def table_message(self) -> dict[str, Any]:
        """The newest bot message in the group that has lobby buttons (Leave: during a hand
        Join is shown only while a seat is free)."""
        for m in reversed(self.fake.chat_messages(GROUP_ID)):
            if any(
                Payload.decode(b.get("callback_data"))
                and Payload.decode(b.get("callback_data")).action in ("j", "l")  # type: ignore[union-attr]
                for b in self.fake.buttons(m)
            ):
                return m
        raise AssertionError("no table message")

    async def press_lobby(self, user: FakeUser, action: str) -> dict[str, Any]:
        msg = self.table_message()
        data = next(
            b["callback_data"]
            for b in self.fake.buttons(msg)
            if b.get("callback_data") and Payload.decode(b["callback_data"]).action == action  # type: ignore[union-attr]
        )
        return await self.press(user, GROUP_ID, msg, data)

    def private(self, user: FakeUser) -> dict[str, Any] | None:
        """The user's private hand message (the one the service edits in place)."""
        for t in self.service.tables.values():
            seat = t.seat_of(str(user.id))
            if seat is not None and seat.private_ref is not None:
                return self.fake.messages.get((user.id, int(seat.private_ref)))
        return None

    def hand_buttons(self, user: FakeUser) -> dict[tuple[str, str], str]:
        """(action, arg) → callback data of the user's private message."""
        msg = self.private(user)
        out: dict[tuple[str, str], str] = {}
        for b in self.fake.buttons(msg or {}):
            p = Payload.decode(b.get("callback_data"))
            if p is not None:
                out[(p.action, p.arg)] = b["callback_data"]
        return out

    async def play_street(
        self,
        user: FakeUser,
        plan: dict[str, str | None] | None = None,
        *,
        press_discard: bool = True,
    ) -> int:
        """Place this street's cards one press per card, then Confirm. ``plan`` maps card texts
        (``"Qs"``) to ``"top"``/``"middle"``/``"bottom"`` or ``None`` (discard); cards not in
        it are placed by the built-in strategy."""
        table = next(iter(self.service.tables.values()))
        hand = table.hand
        assert hand is not None
        seat = table.seat_of(str(user.id))
        assert seat is not None
        cards = hand.to_place(seat.seat)
        if plan and all(c.text in plan for c in cards):
            moves = [(c, Box(plan[c.text]) if plan[c.text] else None) for c in cards]
        else:
            moves = complete_street(
                hand.board_of(seat.seat, with_pending=True),
                cards,
                hand.discards_needed(seat.seat),
                fantasyland_cards=13 if hand.is_fantasyland(seat.seat) else 0,
                options=hand.options,
            )
        presses = 0
        for card, box in moves:
            buttons = self.hand_buttons(user)
            if box is None and not press_discard:
                continue  # Confirm discards the card left over
            presses += 1
            if box is None:
                data = buttons[("d", card.text)]
            else:
                data = buttons[("p", card.text + box.value[0])]
            answer = await self.press(user, user.id, self.private(user) or {}, data)
            assert not answer.get("show_alert"), answer
        data = self.hand_buttons(user)[("c", "")]
        answer = await self.press(user, user.id, self.private(user) or {}, data)
        if answer.get("text") in FOULED_NOTICES:  # a fouled board asks first: once more
            presses += 1
            answer = await self.press(user, user.id, self.private(user) or {}, data)
        assert not answer.get("show_alert"), answer
        return presses + 1

    def watch_leaks(self) -> list[str]:
        """Check every group write as it happens (any method: a text, an edit, a photo's
        caption, and every inline button's label and its payload's card codes, ``Ks``): each
        card it shows must be public in the hand its title names at that moment, or on the
        last showdown's boards for an earlier hand (:func:`shown_allowed`). Returns the list
        of violations, filled as the test runs."""
        violations: list[str] = []

        def check(call: Any) -> None:
            if int(call.params.get("chat_id") or 0) != GROUP_ID:
                return
            parts = [str(call.params.get("text") or ""), str(call.params.get("caption") or "")]
            codes: list[str] = []
            markup = call.params.get("reply_markup")
            rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
            for row in rows:
                for b in row:
                    parts.append(str(b.get("text") or ""))
                    codes += payload_cards(b.get("callback_data"))
            shown = {parse_card(c) for c in codes}
            for part in parts:
                shown |= {parse_card(r + SUIT_LETTER[su]) for r, su in CARD_RE.findall(part)}
            allowed = shown_allowed(self.service.tables.values(), parts[0] or parts[1])
            extra = shown - allowed
            if extra:
                violations.append(
                    f"{call.method}: {sorted(c.text for c in extra)} in: {parts[0] or parts[1]:.80}"
                )

        self.fake.listeners.append(check)
        return violations

    def group_texts(self) -> list[str]:
        """Every text the bot ever wrote to the group (each send and each edit)."""
        out = []
        for c in self.fake.calls:
            if (
                c.method in ("sendMessage", "editMessageText")
                and int(c.params.get("chat_id", 0)) == GROUP_ID
            ):
                out.append(str(c.params.get("text", "")))
        return out


#: how long the world's presses wait for its SQLite file (``STORAGE_WAIT_SECONDS``, 1 s in
#: the bot): a whole suite on two loaded cores made a press wait longer now and then
#: ("Could not save, nothing changed"); tests of the bound itself set their own
TEST_STORAGE_WAIT = 5.0


@asynccontextmanager
async def world(
    tmp: Path,
    *,
    rng_seed: int = 1,
    next_hand_delay: float = 0.0,
    db: Path | None = None,
    fake: FakeTelegram | None = None,
    deck_source: Any = None,
    limiter: AnswerFirstRateLimiter | None = None,
    bot_pace: tuple[float, float] = (1.0, 3.0),
    decisions_in_process: bool | None = None,
    storage_wait: float = TEST_STORAGE_WAIT,
) -> AsyncIterator[World]:
    own_fake = fake is None
    fake = fake or FakeTelegram(TOKEN)
    if own_fake:
        await fake.start()
    store = await SqliteStore.open(db or tmp / "ofc.sqlite3")
    service = TableService(
        store,
        rng=random.Random(rng_seed),
        next_hand_delay=next_hand_delay,
        deck_source=deck_source,
        bot_pace=bot_pace,
        decisions_in_process=decisions_in_process,
        storage_wait=storage_wait,
    )
    limiter = limiter or AnswerFirstRateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
    adapter = TelegramAdapter(service, TOKEN, fake.base_url, rate_limiter=limiter)
    await adapter.start(poll_interval=0.0)
    await service.start()
    await adapter.look_at_restored()  # (as the composition root, bot/app.py)
    try:
        yield World(fake, service, adapter, store)
    finally:
        await service.stop()
        await fake.release_polls()
        await adapter.stop()
        await store.close()
        if own_fake:
            await fake.stop()


def board_of_text(text: str) -> Board:  # pragma: no cover - debugging aid
    rows = [line.split() for line in text.splitlines()[:3]]
    return Board(*(tuple(parse_card(c) for c in r if c != "·") for r in rows))


__all__ = ["ALICE", "BOB", "BOXES", "CAROL", "GROUP_ID", "World", "world"]
