"""The platform misbehaving under a hand in play (brk27), through the real client libraries
against the local fakes: what Telegram's and Discord's refusals leave behind."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from bot.model import LiveTable
from bot.screens import Payload
from bot.telegram.fake_api import ApiCall, too_many
from storage.check import check_store
from tests.bot.test_break5 import street_unsettled
from tests.bot.test_telegram_chats import held_429s, lobby_data
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.test_tournament_e2e import actions_of, configure, tournament_message
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world


def group_edit(c: ApiCall) -> bool:
    return c.method == "editMessageText" and int(c.params.get("chat_id", 0)) == GROUP_ID


async def test_the_group_edit_after_a_429_shows_the_table_as_it_is_then(tmp_path: Path) -> None:
    """R8.5: Telegram answers an edit of the group's table message mid-hand with a 429
    (retry after 30 s, held here until the test lets it go) and both players play a street
    in the private chat meanwhile, each press answered within a second. Once the pause is
    over the table message is written once, with its newest screen: the rate limiter sent
    the refused request again, the screen from before (the turn of a player who had played
    since), and the newest right behind it, two edits of the group at the end of a flood
    wait where one would do. The hand ends and the ledger checks."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        users = {str(u.id): u for u in (ALICE, BOB)}
        assert t.hand is not None
        await w.play_street(users[t.seats[t.hand.to_act[0]].user_id])
        await w.settle()
        start = len(w.fake.calls)
        w.fake.fail_when(group_edit, *too_many(30))
        try:
            for _ in range(2):
                assert t.hand is not None and t.hand_no == 1
                await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
                await w.fake.wait_for(lambda: pauses)  # (the first street's group edit: 429)
            assert pauses[0] >= 30
            edits = [c for c in w.fake.calls[start:] if group_edit(c)]
            assert len(edits) == 1 and edits[0].result is None  # refused; the rest wait
        finally:
            gate.set()
        await w.settle()
        edits = [c for c in w.fake.calls[start:] if group_edit(c)]
        refused, after = edits[0], edits[1:]
        message = w.fake.messages[(GROUP_ID, int(t.group_ref or 0))]
        assert [c.params["text"] for c in after] == [message["text"]]
        assert message["text"] != refused.params["text"]
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        assert await check_store(w.store) == []


def private_send(user_id: int) -> Callable[[ApiCall], bool]:
    return lambda c: c.method == "sendMessage" and int(c.params.get("chat_id", 0)) == user_id


async def dealt_with_alice_s_hand_reset(w: World, *, done: bool) -> LiveTable:
    """Alice and Bob at a table, Alice's Ready deals; the connection of her hand's send is
    reset (``done``: after Telegram posted it, else before). She acts first."""
    w.adapter.presenter.turn_ping_seconds = 0.5
    w.fake.started_users.update({ALICE.id, BOB.id})
    await w.say(ALICE, "/newtable")
    for u in (ALICE, BOB):
        assert not (await w.press_lobby(u, "j")).get("show_alert")
    assert not (await w.press_lobby(BOB, "r")).get("show_alert")
    t = next(iter(w.service.tables.values()))
    w.fake.drop(private_send(ALICE.id), done=done)
    qid = await w.fake.press(ALICE, GROUP_ID, w.table_message()["message_id"], lobby_data(w, "r"))
    answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid))
    assert not answer.params.get("show_alert")
    await w.fake.wait_for(lambda: t.hand is not None)
    assert t.hand is not None and t.seats[t.hand.to_act[0]].user_id == str(ALICE.id)
    return t


async def test_a_hand_message_whose_send_was_reset_unposted_is_posted_at_her_turn_s_ping(
    tmp_path: Path,
) -> None:
    """R8.5: the connection of Alice's hand message at the deal is reset before Telegram took
    it (it cannot be told from an answer lost after the post, so it is not sent again at
    once: it would show twice). She acts first and had no hand at all: no buttons to press,
    no turn ping (a message perhaps posted has none), the next screen written to it came
    only once her clock ran out. Her hand is posted at the ping's time instead of the ping
    (a new message, which notifies), and she plays her street on it; the hand ends and the
    ledger checks."""
    async with world(tmp_path) as w:
        t = await dealt_with_alice_s_hand_reset(w, done=False)
        posted = await w.fake.wait_for(lambda: w.fake.chat_messages(ALICE.id), timeout=5)
        assert len(posted) == 1 and w.fake.buttons(posted[0]), posted
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and seat.reachable
        await w.fake.wait_for(lambda: seat.private_ref == str(posted[0]["message_id"]))
        await w.play_street(ALICE)
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        assert len(w.fake.chat_messages(ALICE.id)) == 1  # edited in place from then on
        assert await check_store(w.store) == []


async def test_a_hand_message_whose_answer_was_reset_and_is_pressed_is_not_posted_again(
    tmp_path: Path,
) -> None:
    """The same reset after Telegram posted Alice's hand: she presses on it before the
    ping's time, which tells the bot it was posted; nothing is posted again."""
    async with world(tmp_path) as w:
        t = await dealt_with_alice_s_hand_reset(w, done=True)
        posted = await w.fake.wait_for(lambda: w.fake.chat_messages(ALICE.id))
        arrange = next(
            b["callback_data"]
            for b in w.fake.buttons(posted[0])
            if (p := Payload.decode(b.get("callback_data"))) is not None and p.action == "a"
        )
        answer = await w.press(ALICE, ALICE.id, posted[0], arrange)
        assert not answer.get("show_alert"), answer
        await asyncio.sleep(1.0)  # (past the ping's time)
        await w.settle()
        assert [m["message_id"] for m in w.fake.chat_messages(ALICE.id)] == [
            posted[0]["message_id"]
        ]
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and seat.private_ref == str(posted[0]["message_id"])


async def test_an_admin_s_settings_press_is_answered_while_the_group_is_rate_limited(
    tmp_path: Path,
) -> None:
    """An admin presses a settings button while Telegram holds the group's messages with a
    429 (retry after 30 s, held here) mid-hand: the press asks Telegram whether they are
    an admin (getChatMember, about the group) and that question waited out the group's
    whole pause, the press unanswered (a tournament's start asks it holding its table). It
    is answered at once now (the group's messages still wait), the setting saved."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        reply = await w.say(ALICE, "/settings all")
        settings = next(m for m in w.fake.chat_messages(GROUP_ID) if m["text"] == reply["text"])
        data = next(
            b["callback_data"]
            for b in w.fake.buttons(settings)
            if b.get("text") == "Game ⟳" and b.get("callback_data")
        )
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        w.fake.fail_when(group_edit, *too_many(30))
        try:
            mover = t.seats[t.hand.to_act[0]].user_id
            await street_unsettled(w, ALICE if mover == str(ALICE.id) else BOB)
            await w.fake.wait_for(lambda: pauses)  # (the table message's edit: 429)
            qid = await w.fake.press(ALICE, GROUP_ID, settings["message_id"], data)
            answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid), timeout=1)
            assert answer.params["text"].startswith("Saved: game = ofc (was pineapple)."), (
                answer.params
            )
            assert not gate.is_set()
        finally:
            gate.set()
        await w.settle()
        community = await w.store.community("telegram", str(GROUP_ID))
        assert community.settings.game == "ofc"


async def test_a_tournament_s_start_is_answered_while_the_group_is_rate_limited(
    tmp_path: Path,
) -> None:
    """R8.7: Alice (an admin) starts a tournament of two registered players while Telegram
    holds the group's messages with a 429 (a /balance reply got it; held here): the start
    asks whether she is an admin holding the table, and waited out the group's pause. It is
    answered at once now and the first hand is dealt; the ledger checks."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await configure(w, tournament_buy_in="100", tournament_chips="200")
        await w.say(ALICE, "/tournament pineapple")
        for user in (ALICE, BOB):
            data = actions_of(w.fake, tournament_message(w))["g"]
            answer = await w.press(user, GROUP_ID, tournament_message(w), data)
            assert not answer.get("show_alert"), answer
        lobby = tournament_message(w)
        w.fake.fail_when(
            lambda c: int(c.params.get("chat_id", 0)) == GROUP_ID and c.method == "sendMessage",
            *too_many(30),
        )
        await w.fake.send_text(BOB, GROUP_ID, "/balance")
        await w.fake.wait_for(lambda: pauses)  # (its reply: 429)
        try:
            start = actions_of(w.fake, lobby)["o"]
            qid = await w.fake.press(ALICE, GROUP_ID, lobby["message_id"], start)
            answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid), timeout=1)
            assert answer.params["text"] == "The tournament starts.", answer.params
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None and t.hand_no == 1 and not gate.is_set()
        finally:
            gate.set()
        await w.settle()
        assert await check_store(w.store) == []


async def test_a_group_429_pause_does_not_hold_the_stop(tmp_path: Path) -> None:
    """Telegram answers an edit of the table message with a 429 of a minute (a flood wait):
    the bot's stop does not wait the minute out to write it (refused again, it is not tried
    any more; the rate limiter slept the whole pause inside the request, holding the stop)."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        start = len(w.fake.calls)
        w.fake.fail_when(group_edit, *too_many(60))
        mover = t.seats[t.hand.to_act[0]].user_id
        await street_unsettled(w, ALICE if mover == str(ALICE.id) else BOB)
        await w.fake.wait_for(lambda: [c for c in w.fake.calls[start:] if group_edit(c)])
        await asyncio.sleep(0.1)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 5  # (the service's and the adapter's stop)


async def test_a_reply_waiting_out_a_group_429_does_not_hold_the_stop(tmp_path: Path) -> None:
    """Bob's /balance reply in the group is refused with a 429 of a minute (a flood wait):
    the rate limiter waits the minute out to send it again, and python-telegram-bot's stop
    waits for the handler sending it: the bot's stop took the minute. The stop ends the
    wait now (the reply is tried once more, not again if refused)."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        start = len(w.fake.calls)

        def group_send(c: ApiCall) -> bool:
            return c.method == "sendMessage" and int(c.params.get("chat_id", 0)) == GROUP_ID

        w.fake.fail_when(group_send, *too_many(60))
        await w.fake.send_text(BOB, GROUP_ID, "/balance")
        await w.fake.wait_for(lambda: [c for c in w.fake.calls[start:] if group_send(c)])
        await asyncio.sleep(0.1)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 5  # (the service's and the adapter's stop)
