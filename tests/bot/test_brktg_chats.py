"""The chat changing under a running table (brktg), through the real python-telegram-bot and
the fake Bot API: what each change leaves behind, a restart afterwards included. No kush is
lost (the ledger checks), no table waits forever, the group sees the table, and the
restarted bot picks the table up where it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.model import ChatRef
from bot.telegram.fake_api import FakeTelegram
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world

NEW_GROUP = -100777
TOO_OLD = {
    "ok": False,
    "error_code": 400,
    "description": "Bad Request: query is too old and response timeout expired or query id "
    "is invalid",
}


async def totals(w: World, chat: int) -> dict[str, int]:
    """Balance plus stack of every member of the chat's community."""
    community = await w.store.community("telegram", str(chat))
    return {p.name: total for p, total in await w.store.leaderboard(community.id)}


async def test_a_group_upgraded_mid_hand_then_a_restart_keeps_settings_table_and_ledger(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """The group's admins chose Russian; the group is upgraded mid-hand (the API refuses
    the old id with ``migrate_to_chat_id``, no service message), the bot restarts: the table
    is served in the supergroup, the hand is played to its showdown there, the language
    and the wallets followed, and a command typed in the old group is answered from them."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/settings language ru")
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
        assert t.hand is not None
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        await w.settle()
        tid = t.id
    async with world(tmp_path, fake=tg_api, db=db) as w:
        t = w.service.tables[tid]
        assert w.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP))) is t
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        texts = [m["text"] for m in w.fake.chat_messages(NEW_GROUP)]
        assert any(text.startswith("🏁 Вскрытие · стол #1 · раздача 1") for text in texts)
        community = await w.store.community("telegram", str(NEW_GROUP))
        assert community.settings.language == "ru"
        money = await totals(w, NEW_GROUP)
        assert sum(money.values()) == 2000 and money != {"Alice": 1000, "Bob": 1000}, money
        start = len(w.fake.calls)
        await w.fake.send_text(ALICE, GROUP_ID, "/balance")
        reply = await w.fake.wait_for(
            lambda: next(
                (
                    c.params["text"]
                    for c in w.fake.calls[start:]
                    if c.method == "sendMessage" and int(c.params["chat_id"]) == NEW_GROUP
                ),
                None,
            )
        )
        assert reply.startswith("Alice: 800 кушей на балансе"), reply
        assert await check_store(w.store) == []


async def test_a_player_who_blocked_the_bot_before_the_deal_is_played_for_after_a_restart(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Bob blocks the bot before the deal (403 "bot was blocked by the user" on his hand):
    the group shows the link at once; after a restart he is still unreachable, the link
    still shown, and the hand is played on (his moves by the clock, R8.5)."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable")
        for u in (ALICE, BOB):
            await w.press_lobby(u, "j")
        w.fake.blocked_users.add(BOB.id)
        for u in (ALICE, BOB):
            await w.press_lobby(u, "r")
        t = next(iter(w.service.tables.values()))
        await w.fake.wait_for(lambda: t.hand is not None)
        await w.settle()
        seat = t.seat_of(str(BOB.id))
        assert seat is not None and not seat.reachable
        board = w.fake.messages[(GROUP_ID, int(t.group_ref or 0))]
        assert "⚠ Bob: open a private chat with the bot" in board["text"], board["text"]
        tid = t.id
    async with world(tmp_path, fake=tg_api, db=db) as w:
        t = w.service.tables[tid]
        await w.settle()
        seat = t.seat_of(str(BOB.id))
        assert seat is not None and not seat.reachable and t.hand is not None
        board = w.fake.messages[(GROUP_ID, int(t.group_ref or 0))]
        assert "⚠ Bob: open a private chat with the bot" in board["text"], board["text"]
        alice = t.seat_of(str(ALICE.id))
        assert alice is not None
        real, ahead = w.service.rt.clock, [0.0]
        w.service.rt.clock = lambda: real() + ahead[0]
        for _ in range(200):  # the clock plays the hand out (R8.5), no press needed
            if t.hand is None or t.hand_no != 1:
                break
            ahead[0] += 1000  # (whoever is to act: budget and bank run out)
            async with t.lock:
                await w.service.rt.arm(t)
            await asyncio.sleep(0.01)
        await w.settle()
        assert t.hand_no != 1 or t.hand is None, "hand 1 not played out"
        assert len(await w.store.hand_history(alice.player_id, 5)) == 1  # settled once
        # both timed out: sat out after the hand (R8.6); the idle close follows (R8.2a)
        assert t.id not in w.service.tables or w.service.rt.next_deadline(t) is not None
        assert sum((await totals(w, GROUP_ID)).values()) == 2000
        assert await check_store(w.store) == []


async def test_a_forum_topic_deleted_with_its_messages_mid_hand_moves_the_table_to_general(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """An admin deletes the forum topic a table runs in: its messages go with it (the table
    message too) and Telegram refuses the topic ("message thread not found"). The table
    message is posted again in the group's General topic and the hand goes on; a restart
    keeps writing there, and the hand ends with the ledger balanced."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable", topic=45)
        for action in ("j", "r"):
            for u in (ALICE, BOB):
                assert not (await w.press_lobby(u, action)).get("show_alert")
        t = next(iter(w.service.tables.values()))
        w.fake.deleted_topics.add((GROUP_ID, 45))
        for key, m in list(w.fake.messages.items()):
            if key[0] == GROUP_ID and m.get("message_thread_id") == 45:
                del w.fake.messages[key]
        assert t.hand is not None
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.settle()
        ref = int(t.group_ref or 0)
        assert (GROUP_ID, ref) in w.fake.messages and w.fake.topic_of(GROUP_ID, ref) is None
        tid = t.id
    start = len(tg_api.calls)
    async with world(tmp_path, fake=tg_api, db=db) as w:
        t = w.service.tables[tid]
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        shown = [
            c for c in w.fake.calls[start:]
            if c.method in ("sendMessage", "sendPhoto") and int(c.params["chat_id"]) == GROUP_ID
            and c.result
        ]  # fmt: skip
        assert any(c.method == "sendPhoto" for c in shown)  # the showdown picture
        for c in shown:
            assert w.fake.topic_of(GROUP_ID, int(c.result["message_id"])) is None
        assert await check_store(w.store) == []


@pytest.mark.parametrize("where", ["private", "group"])
async def test_a_press_too_old_to_answer_still_counts_and_alerts_nobody(
    tmp_path: Path, where: str
) -> None:
    """Telegram refuses a late answer (400 "query is too old"): the press's step is
    committed all the same (a card placed; a player seated), nothing else is sent for it
    (no error reply, no popup tried again), and the hand goes on."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.outage(lambda c: c.method == "answerCallbackQuery", 400, TOO_OLD)
        if where == "group":
            await w.say(ALICE, "/newtable")
            start = len(w.fake.calls)
            qid = await w.fake.press(BOB, GROUP_ID, w.table_message()["message_id"], lobby_join(w))
            await w.fake.wait_for(lambda: w.fake.answer_of(qid))
            await w.settle()
            t = next(iter(w.service.tables.values()))
            assert t.seat_of(str(BOB.id)) is not None
        else:
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None
            first = ALICE if t.hand.to_act == (0,) else BOB
            seat = t.hand.to_act[0]
            card = t.hand.to_place(seat)[0]
            data = w.hand_buttons(first)[("p", card.text + "b")]
            start = len(w.fake.calls)
            msg = w.private(first)
            assert msg is not None
            qid = await w.fake.press(first, first.id, msg["message_id"], data)
            await w.fake.wait_for(lambda: w.fake.answer_of(qid))
            await w.settle()
            assert card in t.hand.board_of(seat, with_pending=True).cards()
        answers = [c for c in w.fake.calls[start:] if c.method == "answerCallbackQuery"]
        assert len(answers) == 1, answers
        assert not any(
            c.method == "sendMessage" and "went wrong" in str(c.params.get("text"))
            for c in w.fake.calls[start:]
        )
        w.fake.recover()
        if where == "private":
            await play_hand(w, [ALICE, BOB])
            await w.settle()
            assert t.hand_no == 2
        assert await check_store(w.store) == []


def lobby_join(w: World) -> str:
    from bot.screens import Payload

    return next(
        b["callback_data"]
        for b in w.fake.buttons(w.table_message())
        if (p := Payload.decode(b.get("callback_data"))) is not None and p.action == "j"
    )


async def test_a_forum_topic_closed_mid_hand_then_a_restart_then_reopened(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Admins close the table's forum topic mid-hand (its service message): the new
    messages go to General; the bot restarts while it is closed (it forgot that), the
    restored table message is refused in the topic and posted in General; the topic is
    reopened: the next hand's messages are in the topic again, and the ledger balances."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable", topic=45)
        for action in ("j", "r"):
            for u in (ALICE, BOB):
                assert not (await w.press_lobby(u, action)).get("show_alert")
        t = next(iter(w.service.tables.values()))
        await w.fake.set_topic(GROUP_ID, 45, closed=True)
        assert t.hand is not None
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.settle()
        tid = t.id
    async with world(tmp_path, fake=tg_api, db=db) as w:
        t = w.service.tables[tid]
        await w.settle()
        ref = int(t.group_ref or 0)
        assert (GROUP_ID, ref) in w.fake.messages and w.fake.topic_of(GROUP_ID, ref) is None
        await w.fake.set_topic(GROUP_ID, 45, closed=False)
        await w.fake.wait_for(lambda: f"{GROUP_ID}#45" not in w.adapter.presenter._topic_gone)
        start = len(w.fake.calls)
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        posted = [
            c for c in w.fake.calls[start:]
            if c.method in ("sendMessage", "sendPhoto") and int(c.params["chat_id"]) == GROUP_ID
            and c.result
        ]  # fmt: skip
        assert posted and all(
            w.fake.topic_of(GROUP_ID, int(c.result["message_id"])) == 45 for c in posted
        ), [c.method for c in posted]
        assert await check_store(w.store) == []
