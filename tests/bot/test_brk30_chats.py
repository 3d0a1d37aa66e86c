"""A chat that changes under a table with kush at stake (brk30), through the real
python-telegram-bot and the fake Bot API."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_classic_games_e2e import (
    ALICE_13,
    BOB_13,
    admin_settings,
    chinese_deck,
    seat,
    to_the_claim,
)
from tests.bot.test_telegram_chats import balances, closed_after_one_hand, last_private, wallets
from tests.bot.test_telegram_e2e import (
    ALICE_PLAN,
    ALICE_STREETS,
    BOB_FOUL_PLAN,
    BOB_STREETS,
    decks,
    play_hand,
    seat_everyone,
    stacked,
)
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TOKEN, world


@pytest.mark.parametrize(
    "description",
    [
        "Bad Request: group chat was deactivated",
        "Bad Request: CHAT_WRITE_FORBIDDEN",
        "Bad Request: CHANNEL_PRIVATE",
        "Bad Request: CHAT_RESTRICTED",
    ],
)
async def test_r8_2a_a_group_that_refuses_every_write_with_a_400_closes_after_the_hand(
    tmp_path: Path, description: str
) -> None:
    """R8.2a: mid-hand the group dies without a ``my_chat_member`` (a basic group deleted:
    "group chat was deactivated"; or Telegram names its MTProto error: the bot no member of
    a private supergroup, no right to write, the group restricted by Telegram): every group
    write is refused with that 400. Each was taken for a failed edit and only logged: the
    table went on dealing hand 2 into a chat nobody reads, where the players' /leave (group
    only) cannot reach. Now, as for a 403, the hand is finished in the private chats and
    settled, the table closes, every stack goes back and each player is told in private."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        body = {"ok": False, "error_code": 400, "description": description}
        w.fake.outage(lambda c: int(c.params.get("chat_id") or 0) == GROUP_ID, 400, body)
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        assert t.hand_no == 1 and t.hand is None
        await closed_after_one_hand(w, first)
        assert last_private(w, ALICE).startswith(tr("en", "private.chat_gone", table=t.id))
        assert last_private(w, BOB).startswith(tr("ru", "private.chat_gone", table=t.id))
        assert await check_store(w.store) == []
        assert leaks == []


async def test_r8_2a_a_mute_of_the_bot_that_runs_out_mid_hand_keeps_its_table(
    tmp_path: Path,
) -> None:
    """R8.2a: an admin mutes the bot for a while mid-hand (``my_chat_member``: restricted,
    may not send messages, with an ``until_date``), which queues the table's close. Telegram
    sends no update when the restriction runs out: the close stood and the table closed
    after the hand though the bot could write again (Discord looks again when a timeout of
    the bot runs out). Now the bot looks again then: the close is cancelled, the group is
    told, and the next hand is dealt."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        await w.fake.restrict_bot(GROUP_ID, by=ALICE, until=int(time.time()) + 2)
        await w.fake.wait_for(lambda: t.closing)
        await w.fake.wait_for(lambda: not t.closing, timeout=15)
        await w.settle()
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        assert w.group_texts().count(notice) == 1
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id in w.service.tables and t.hand is not None and t.hand_no == 2
        assert await check_store(w.store) == []


async def test_r8_2a_a_newer_status_of_the_bot_replaces_the_look_at_its_mute_s_end(
    tmp_path: Path,
) -> None:
    """The bot muted for a while mid-hand, then removed before the mute runs out: the end
    of the mute says nothing of the removal (the close stands, the table closes after the
    hand, every stack back)."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        await w.fake.restrict_bot(GROUP_ID, by=ALICE, until=int(time.time()) + 2)
        await w.fake.wait_for(lambda: t.closing)
        await w.fake.remove_bot(GROUP_ID, by=ALICE)
        await w.settle()
        await asyncio.sleep(4)  # past the mute's end
        assert t.closing
        assert tr("en", "lobby.close_cancelled", table=t.id) not in w.group_texts()
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        await closed_after_one_hand(w, first)


async def test_r8_2a_a_bot_removed_while_muted_is_not_let_back_by_the_mute_s_end(
    tmp_path: Path,
) -> None:
    """The bot muted for a while is removed from the group: Telegram then tells it
    ``restricted`` with ``is_member`` false (and the mute's ``until_date``). The end of that
    mute lets no removed bot back: the close stands (nothing says it is cancelled), the
    table closes after the hand with every stack back."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        await w.fake.restrict_bot(GROUP_ID, by=ALICE, until=int(time.time()) + 2)
        await w.fake.wait_for(lambda: t.closing)
        await w.fake.restrict_bot(GROUP_ID, by=ALICE, until=int(time.time()) + 2, member=False)
        await w.settle()
        await asyncio.sleep(4)  # past the mute's end
        assert t.closing
        assert tr("en", "lobby.close_cancelled", table=t.id) not in w.group_texts()
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        await closed_after_one_hand(w, first)


async def test_r6_r8_2a_the_bot_removed_mid_fantasyland_closes_after_it_once(
    tmp_path: Path,
) -> None:
    """R6, R8.2a: the bot is removed from the group during Alice's Fantasyland (hand 2): she
    arranges her 14 cards and Bob plays his streets in the private chats, the hand is
    settled once, the table closes, both stacks go back to the balances and each player is
    told in private; no group write ever showed a hidden card (her Fantasyland cards, a
    discard). Added back afterwards, the bot writes the table message as closed (one
    edit) and moves no kush."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        await play_hand(w, [ALICE, BOB], {ALICE.id: ALICE_PLAN, BOB.id: BOB_FOUL_PLAN})
        await w.settle()
        assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
        await w.fake.remove_bot(GROUP_ID, by=BOB)
        await w.fake.wait_for(lambda: t.closing)
        await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, w.hand_buttons(ALICE)[("a", "")])
        await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, w.hand_buttons(ALICE)[("c", "")])
        while t.hand is not None and t.hand_no == 2:
            await w.play_street(BOB)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        assert [h.number for h in await w.store.hand_history(first, 5)] == [2, 1]
        totals = await balances(w)
        assert sum(totals.values()) == 2000 and await wallets(w) == totals
        assert last_private(w, ALICE).startswith(tr("en", "private.chat_gone", table=t.id))
        assert last_private(w, BOB).startswith(tr("ru", "private.chat_gone", table=t.id))
        calls = len(w.fake.calls)
        await w.fake.add_bot(GROUP_ID, by=BOB)
        closed = tr("en", "reply.table_closed", table=t.id)
        await w.fake.wait_for(lambda: closed in w.group_texts())
        await w.settle()
        writes = [
            c
            for c in w.fake.calls[calls:]
            if c.method != "getUpdates" and int(c.params.get("chat_id") or 0) == GROUP_ID
        ]
        assert [c.method for c in writes] == ["editMessageText"]
        assert await wallets(w) == totals
        assert await check_store(w.store) == []
        assert leaks == []


async def test_r7_r8_2a_a_chinese_poker_game_whose_group_removes_the_bot_at_a_claim_settles_once(
    tmp_path: Path,
) -> None:
    """R7.5, R7.6, R8.2a: the bot is removed from the group while Alice's claim is offered
    after the bottoms (target 5), and the bot restarts: the restored reveal goes on by its
    clock (nobody claims: the claim time runs out), the game is settled
    each-with-each once, the table closes and both stacks go back; no kush is made or
    lost."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    deck = chinese_deck(ALICE_13, BOB_13)
    try:
        async with world(tmp_path, fake=fake, db=db, deck_source=lambda: list(deck)) as w:
            await admin_settings(w, ("target_points", "5"), ("reveal_pause_seconds", "0.1"))
            await seat(w, [ALICE, BOB], "chinese")
            t = next(iter(w.service.tables.values()))
            first = t.seats[0].player_id
            await to_the_claim(w)
            await w.fake.remove_bot(GROUP_ID, by=BOB)
            await w.fake.wait_for(lambda: t.closing)
            await w.settle()
            assert t.reveal is not None and t.reveal["claim"] is not None
        async with world(tmp_path, fake=fake, db=db) as w2:
            t = w2.service.tables[t.id]
            assert t.closing and t.chat_gone and t.reveal is not None
            real = w2.service.rt.clock
            shift = [0.0]
            w2.service.rt.clock = lambda: real() + shift[0]
            for _ in range(10):  # each claim time runs out (R7.5)
                if t.id not in w2.service.tables:
                    break
                shift[0] += 40
                async with t.lock:
                    await w2.service.rt.arm(t)
                await asyncio.sleep(0.1)
            await w2.fake.wait_for(lambda: t.id not in w2.service.tables)
            await w2.settle()
            (record,) = await w2.store.hand_history(first, 5)
            kush = record.result["kush"]
            assert kush["0"] == -kush["1"] != 0
            assert await wallets(w2) == {"Alice": 1000 + kush["0"], "Bob": 1000 + kush["1"]}
            assert await check_store(w2.store) == []
    finally:
        await fake.stop()
