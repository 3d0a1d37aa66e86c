"""Turn pings on Telegram: an edit does not notify, so a player whose turn began
``turn_ping_seconds`` ago and who has not acted gets a short "your move" message in the
private chat (a new message notifies), deleted when the turn ends; who acts sooner gets none.
Through the real python-telegram-bot and the fake Bot API."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from bot.telegram.fake_api import ApiCall, FakeUser
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service import LEAVE_QUESTIONS
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, CARD_RE, World, world


def sends_to(w: World, user_id: int, start: int) -> list[ApiCall]:
    """The messages sent to ``user_id``'s private chat since call ``start``."""
    return [
        c
        for c in w.fake.calls[start:]
        if c.method == "sendMessage" and int(c.params["chat_id"]) == user_id
    ]


async def two_seated(w: World) -> tuple[FakeUser, FakeUser, int]:
    """Alice and Bob (both started the bot) seated, turn pings after 0.3 s, the hand dealt:
    the player to act first, the other, and the number of API calls made so far."""
    w.fake.started_users.update({ALICE.id, BOB.id})
    w.adapter.presenter.turn_ping_seconds = 0.3
    await seat_everyone(w, [ALICE, BOB])
    t = next(iter(w.service.tables.values()))
    assert t.hand is not None
    users = {str(u.id): u for u in (ALICE, BOB)}
    first = users[t.seats[t.hand.to_act[0]].user_id]
    return first, BOB if first is ALICE else ALICE, len(w.fake.calls)


async def test_a_player_whose_turn_waits_is_pinged_and_the_ping_goes_when_the_turn_ends(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        first, second, start = await two_seated(w)
        await w.play_street(first)  # its turn began with the dealt hand (a new message)
        assert sends_to(w, first.id, start) == []
        # the second player's turn begins: after 0.3 s without a press, the ping
        ping = await w.fake.wait_for(lambda: next(iter(sends_to(w, second.id, start)), None))
        hand = w.private(second)
        assert hand is not None
        # the hand's title and "your move" (its clock as it is when the ping is sent)
        clockless = re.compile(r"\d+:\d\d")
        assert clockless.sub("m:ss", ping.params["text"]) == clockless.sub(
            "m:ss", "\n".join(hand["text"].splitlines()[:2])
        )
        assert not CARD_RE.search(ping.params["text"])  # the title and "your move" only
        assert not ping.params.get("reply_markup")
        sent = next(m for (chat, _), m in w.fake.messages.items() if chat == second.id
                    and m["text"] == ping.params["text"])  # fmt: skip
        # the first's turn begins with the second's Confirm: its ping waits 60 s from then
        # (set after the street, a loaded machine could send it 0.3 s in, before the test
        # raised it)
        w.adapter.presenter.turn_ping_seconds = 60
        await w.play_street(second)  # the turn ends: the ping is deleted
        deleted = await w.fake.wait_for(
            lambda: next((c for c in w.fake.calls[start:] if c.method == "deleteMessage"), None)
        )
        assert int(deleted.params["message_id"]) == sent["message_id"]
        assert (second.id, sent["message_id"]) not in w.fake.messages
        # a player who acts before the ping is due gets none
        start = len(w.fake.calls)
        await w.play_street(first)
        await w.play_street(second)
        assert sends_to(w, first.id, start) == [] and sends_to(w, second.id, start) == []
        # the second's waiting ping was cancelled; the first's waits (its turn again)
        assert set(w.adapter.presenter._pingers) == {(str(first.id), next(iter(w.service.tables)))}
        await play_hand(w, [ALICE, BOB])
        assert await check_store(w.store) == []


def _seconds(text: str) -> int:
    """The seconds of the first ``⏱ m:ss`` of ``text``."""
    m = re.search(r"⏱ (\d+):(\d\d)", text)
    assert m is not None, text
    return int(m.group(1)) * 60 + int(m.group(2))


async def _second_to_act(w: World) -> FakeUser:
    """Seat Alice and Bob, the first to act plays street 1: the other's turn begins now."""
    w.fake.started_users.update({ALICE.id, BOB.id})
    await seat_everyone(w, [ALICE, BOB])
    t = next(iter(w.service.tables.values()))
    assert t.hand is not None
    users = {str(u.id): u for u in (ALICE, BOB)}
    first = users[t.seats[t.hand.to_act[0]].user_id]
    await w.play_street(first)
    return BOB if first is ALICE else ALICE


async def test_the_turn_ping_shows_the_time_left_when_it_is_sent(tmp_path: Path) -> None:
    """The ping used to carry the hand's lines as the turn began, so 10 s into a turn it
    read "⏱ 2:00" with 1:50 left. Its clock is the time left when it is sent (here the
    service's clock moves 10 s while the ping waits)."""
    async with world(tmp_path) as w:
        # the ping waits 2 s: the service's clock is moved before it is sent even if a loaded
        # machine takes a second or more from the turn's start to here (0.5 s was too short)
        w.adapter.presenter.turn_ping_seconds = 2.0
        second = await _second_to_act(w)
        start = len(w.fake.calls)
        hand = w.private(second)
        assert hand is not None
        began = _seconds(hand["text"].splitlines()[1])
        assert 118 <= began <= 120  # hand_seconds: the whole budget (as rendered, a moment on)
        real = w.service.rt.clock
        w.service.rt.clock = lambda: real() + 10.0
        ping = await w.fake.wait_for(lambda: next(iter(sends_to(w, second.id, start)), None))
        title, move = ping.params["text"].splitlines()
        assert title == hand["text"].splitlines()[0]
        assert move.split("⏱")[0] == hand["text"].splitlines()[1].split("⏱")[0]  # "Your move"
        # 10 s and the wait gone, not 2:00 (the wait: 2 s, more on a loaded machine)
        assert 100 <= _seconds(move) <= 108, move
        assert not CARD_RE.search(ping.params["text"])
        await w.play_street(second)


async def test_a_press_puts_the_turn_ping_off_by_the_whole_delay(tmp_path: Path) -> None:
    """The ping came turn_ping_seconds after the turn began whatever the player did, so one
    who had just pressed (a refused press, say Undo with nothing placed) was reminded a
    second later. It comes once the turn has gone turn_ping_seconds without a press."""
    async with world(tmp_path) as w:
        # 3 s, a press 1 s into the turn: a ping counted from the turn's start would come 2 s
        # after the press at the latest; a loaded machine has 2 s to spare before that ping
        # would be due (it was 0.8 s, the press 0.5 s in: 0.3 s to spare)
        w.adapter.presenter.turn_ping_seconds = 3.0
        second = await _second_to_act(w)
        start = len(w.fake.calls)
        await asyncio.sleep(1.0)
        assert sends_to(w, second.id, start) == []
        pressed = time.monotonic()
        hand = w.private(second)
        assert hand is not None
        undo = w.hand_buttons(second)[("u", "")]
        answer = await w.press(second, second.id, hand, undo)
        lang = "ru" if second is BOB else "en"  # (Bob reads Russian)
        assert answer.get("show_alert") and answer["text"] == tr(lang, "err.nothing_to_undo")
        ping = await w.fake.wait_for(lambda: next(iter(sends_to(w, second.id, start)), None))
        assert ping.at >= pressed + 3.0, ping.at - pressed
        await w.play_street(second)
        assert await check_store(w.store) == []


async def test_a_player_who_leaves_on_their_turn_loses_the_ping_and_the_buttons(
    tmp_path: Path,
) -> None:
    """The second player is pinged ("your move"), then types /leave in the group: their
    street is made for them (R8.5) and their turn is over, but their hand message kept
    "Your move" with every button and the ping stayed (the message was written only for the
    seats to act). The ping is deleted and the hand shows their board, without buttons."""
    async with world(tmp_path) as w:
        first, second, start = await two_seated(w)
        await w.play_street(first)
        ping = await w.fake.wait_for(lambda: next(iter(sends_to(w, second.id, start)), None))
        sent = next(m for (chat, _), m in w.fake.messages.items() if chat == second.id
                    and m["text"] == ping.params["text"])  # fmt: skip
        w.adapter.presenter.turn_ping_seconds = 60
        reply = await w.say(second, "/leave")  # during the hand: it asks first (R8.5)
        assert reply["text"] in LEAVE_QUESTIONS, reply["text"]
        await w.say(second, "/leave")
        await w.settle()
        deleted = await w.fake.wait_for(
            lambda: next((c for c in w.fake.calls[start:] if c.method == "deleteMessage"), None)
        )
        assert int(deleted.params["message_id"]) == sent["message_id"]
        hand = w.private(second)
        assert hand is not None and not w.fake.buttons(hand)
        assert "Your move" not in hand["text"] and "Ваш ход" not in hand["text"]
        assert len(CARD_RE.findall(hand["text"].split("\n\n")[0])) >= 5
        await play_hand(w, [first])
        assert await check_store(w.store) == []
