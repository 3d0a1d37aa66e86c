"""fix38b: a player who blocked the bot, through the real python-telegram-bot and the fake
Bot API. Each street tried a fresh ``sendMessage`` to their private chat, refused each time
(403 "bot was blocked by the user"): five or more refused sends in a hand, where Discord
stops after one. Now the first refusal stands (the group's table message names them with
the link to the private chat, once) until they show life in the private chat (a command, a
press there, Telegram's ``my_chat_member`` saying they unblocked the bot), also across a
restart; then their hand is posted again."""

from __future__ import annotations

import time
from pathlib import Path

from bot.model import LiveTable
from bot.telegram.fake_api import FakeTelegram, FakeUser
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world


def refused_sends(w: World, user: FakeUser, since: int = 0) -> int:
    """The ``sendMessage`` calls to ``user``'s private chat the fake refused (no result)."""
    return sum(
        1
        for c in w.fake.calls[since:]
        if c.method == "sendMessage"
        and int(c.params.get("chat_id") or 0) == user.id
        and c.result is None
    )


def board(w: World, t: LiveTable) -> str:
    return str(w.fake.messages[(GROUP_ID, int(t.group_ref or 0))]["text"])


async def blocked_at_the_deal(w: World) -> LiveTable:
    """Alice and Bob seated; Bob blocked the bot before the deal (no update told of it)."""
    w.fake.started_users.update({ALICE.id, BOB.id})
    w.fake.blocked_users.add(BOB.id)
    await seat_everyone(w, [ALICE, BOB])
    await w.settle()
    t = next(iter(w.service.tables.values()))
    assert t.hand is not None
    return t


async def test_a_blocked_player_is_refused_one_send_in_a_whole_hand(tmp_path: Path) -> None:
    """R8.5: Alice plays her streets; Bob, who cannot see his cards, runs out of time on his
    first street (the service's clock moved past his time and bank, the table's timer armed
    again: no real wait) and the clock plays the rest of his hand at once. His private chat
    refused the deal's hand: no send is tried for the streets after it (seven refused
    before), and the group was told, by the table message's line with the link."""
    async with world(tmp_path) as w:
        rt = w.service.rt
        ahead = [0.0]
        rt.clock = lambda: time.time() + ahead[0]
        w.fake.blocked_users.add(BOB.id)
        w.fake.started_users.add(ALICE.id)
        start = len(w.fake.calls)
        await seat_everyone(w, [ALICE, BOB])
        await w.settle()
        t = next(iter(w.service.tables.values()))
        alice, bob = t.seat_of(str(ALICE.id)), t.seat_of(str(BOB.id))
        assert alice is not None and bob is not None
        for _ in range(12):  # (ten streets at most)
            if t.hand is None or t.hand_no != 1:
                break
            if alice.seat in t.hand.to_act:
                await w.play_street(ALICE)
                continue
            assert bob.seat in t.hand.to_act
            ahead[0] += 3600.0  # (Bob's time and bank run out)
            async with t.lock:
                await rt.arm(t)
            await w.fake.wait_for(lambda: t.hand is None or bob.seat not in t.hand.to_act)
            await w.settle()  # (Alice's hand written for her street)
        await w.settle()
        assert t.hand_no == 1 and t.hand is None
        assert len(await w.store.hand_history(alice.player_id, 1)) == 1
        assert refused_sends(w, BOB, start) == 1
        assert not bob.reachable and bob.private_ref is None
        named = [
            c
            for c in w.fake.calls[start:]
            if int(c.params.get("chat_id") or 0) == GROUP_ID
            and "⚠ Bob: open a private chat" in str(c.params.get("text") or "")
        ]
        assert named, "the group was never told"
        assert await check_store(w.store) == []


async def test_a_command_in_the_private_chat_brings_the_hand_back(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        t = await blocked_at_the_deal(w)
        first = t.seats[t.hand.to_act[0]].user_id if t.hand else ""
        if first == str(ALICE.id):
            await w.play_street(ALICE)  # a step: Bob's hand is not tried again
            await w.settle()
        assert refused_sends(w, BOB) == 1
        assert "⚠ Bob: open a private chat" in board(w, t)
        # Bob unblocks the bot (the update lost) and types /help in the private chat
        w.fake.blocked_users.discard(BOB.id)
        await w.say(BOB, "/help", chat_id=BOB.id)
        # (after the command's answer: what it says of the private chat)
        await w.fake.wait_for(lambda: w.private(BOB) is not None)
        await w.settle()
        hand = w.private(BOB)
        assert hand is not None and "#" in str(hand["text"]), hand
        seat = t.seat_of(str(BOB.id))
        assert seat is not None and seat.reachable
        await w.fake.wait_for(lambda: "private chat" not in board(w, t))
        await play_hand(w, [ALICE, BOB])  # he plays on from his hand message
        await w.settle()
        assert refused_sends(w, BOB) == 1
        assert len(await w.store.hand_history(t.seats[1].player_id, 1)) == 1


async def test_telegram_telling_of_a_block_and_an_unblock(tmp_path: Path) -> None:
    """``my_chat_member`` of the private chat: a block marks Bob unreachable at once (no
    write tried to find it out), the unblock posts his hand again."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        await w.settle()
        t = next(iter(w.service.tables.values()))
        seat = t.seat_of(str(BOB.id))
        assert seat is not None and seat.reachable and w.private(BOB) is not None
        start = len(w.fake.calls)
        await w.fake.block_bot(BOB)
        await w.fake.wait_for(lambda: not seat.reachable)
        await w.fake.wait_for(lambda: "⚠ Bob: open a private chat" in board(w, t))
        first = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB  # type: ignore[union-attr]
        if first is ALICE:
            await w.play_street(ALICE)
        await w.settle()
        assert not [
            c for c in w.fake.calls[start:] if int(c.params.get("chat_id") or 0) == BOB.id
        ], "a write was tried"
        await w.fake.block_bot(BOB, blocked=False)
        await w.fake.wait_for(lambda: seat.reachable and w.private(BOB) is not None)
        await w.fake.wait_for(lambda: "private chat" not in board(w, t))
        await w.settle()
        await play_hand(w, [ALICE, BOB])
        assert refused_sends(w, BOB) == 0


async def test_a_restart_keeps_the_refusal(tmp_path: Path, tg_api: FakeTelegram) -> None:
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        t = await blocked_at_the_deal(w)
        tid = t.id
        assert refused_sends(w, BOB) == 1
    start = len(tg_api.calls)
    async with world(tmp_path, fake=tg_api, db=db) as w:
        t = w.service.tables[tid]
        await w.settle()
        seat = t.seat_of(str(BOB.id))
        assert seat is not None and not seat.reachable
        assert t.hand is not None and t.hand_no == 1
        if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id):
            await w.play_street(ALICE)
            await w.settle()
        assert refused_sends(w, BOB, start) == 0
        assert "⚠ Bob: open a private chat" in board(w, t)
        # unblocked (the update lost), Bob follows the group's link: /start t<table>
        w.fake.blocked_users.discard(BOB.id)
        await w.say(BOB, f"/start t{tid}", chat_id=BOB.id)
        await w.settle()
        assert w.private(BOB) is not None and seat.reachable
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert refused_sends(w, BOB, start) == 0 and await check_store(w.store) == []
