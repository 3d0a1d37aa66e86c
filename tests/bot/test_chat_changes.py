"""Chats that change under a hand (issue 15, more cases) through the real python-telegram-bot
and the fake Bot API: a group upgraded to a supergroup after someone already opened a table
in the supergroup (the bot had not heard of the upgrade yet); a deleted table message the bot
may not post again."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.model import ChatRef
from bot.service import chats
from bot.telegram.fake_api import FakeTelegram, FakeUser
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_telegram_chats import closed_after_one_hand, last_private, wallets
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.test_tournament_e2e import arrange_and_confirm, play_hand_out, watch_leaks
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, TOKEN, world

NEW_GROUP = -100778  # the supergroup GROUP_ID becomes
DAVE = FakeUser(104, "Dave", "dave", "en")


@pytest.mark.parametrize("mid_hand", [False, True])
async def test_a_table_opened_in_the_supergroup_before_the_upgrade_was_known_closes(
    tmp_path: Path, mid_hand: bool
) -> None:
    """Alice and Bob play table #1; the group is upgraded (the bot hears nothing: no service
    message) and Carol, in the supergroup, opens table #2 and buys in. Alice's next move is
    refused with ``migrate_to_chat_id``: #1 moves to the supergroup with the group's wallets.
    #2 closes at once (its buy-in back to the balance it came from, the supergroup told why),
    and the chat is served by #1 alone. There were two live tables in one chat, the chat's
    commands went to #1 and #2 was left with Carol's 200 kush; its later close took #1's
    place in the chat with it (``/join`` there answered as if no table were open).
    ``mid_hand``: Carol and Dave are dealt in at #2: it closes after that hand (played out
    in their private chats), settled once, both stacks back."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id, DAVE.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
        reply = await w.say(CAROL, "/newtable", chat_id=NEW_GROUP)
        assert reply["text"].startswith("Table #2 is open"), reply["text"]
        stray = w.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP)))
        assert stray is not None and stray is not t
        for user in [CAROL, DAVE] if mid_hand else [CAROL]:
            await w.say(user, "/join", chat_id=NEW_GROUP)
        for user in [CAROL, DAVE] if mid_hand else [CAROL]:
            await w.say(user, "/ready", chat_id=NEW_GROUP)
        assert stray.seats[0].stack == 200
        assert (stray.hand is not None) is mid_hand
        stray_community = stray.community_id
        assert t.hand is not None
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        if mid_hand:  # Carol and Dave play #2's hand out in their private chats
            await w.fake.wait_for(lambda: stray.closing)
            users = {str(u.id): u for u in (CAROL, DAVE)}
            await play_hand_out(stray, lambda user_id: arrange_and_confirm(w, users[user_id]))
            assert len(await w.store.export_hands(stray.id)) == 1  # settled once
        await w.fake.wait_for(lambda: stray.id not in w.service.tables)
        await w.settle()
        await w.adapter.presenter.flush()
        texts = [m["text"] for m in w.fake.chat_messages(NEW_GROUP)]
        notice = "Table #2 is closed: this group's table #1 moved here with its upgrade."
        assert notice in texts, texts
        assert w.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP))) is t
        # Carol's buy-in is back in the balance it came from (the supergroup's wallets before
        # the move, kept apart), none of it lost
        balances = []
        for user in [CAROL, DAVE] if mid_hand else [CAROL]:
            player = await w.store.find_player(stray_community, str(user.id))
            assert player is not None
            balances.append(player.balance)
        assert sum(balances) == 1000 * len(balances), balances
        assert await w.store.stacks(stray.id) == {}
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        reply = await w.say(CAROL, "/join", chat_id=NEW_GROUP)
        assert "You sit at seat 3" in reply["text"], reply["text"]
        assert t.seat_of(str(CAROL.id)) is not None
        assert await check_store(w.store) == []


async def test_a_deleted_table_message_the_bot_may_not_post_again_closes_the_table(
    tmp_path: Path,
) -> None:
    """R8.2a: mid-hand an admin deletes the table message and takes every member's right to
    send messages away (the bot is no admin: no ``my_chat_member`` comes). The next edit
    finds the message gone, posting it again is refused (400 "not enough rights"): the table
    closes after the hand, which its players finish in their private chats; it is settled
    once, every stack goes back to its balance, each player is told in private, and no card
    hidden at the time of a write is ever in the group."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        leaks = watch_leaks(w)  # (it knows the closed table's last showdown)
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.group_ref is not None
        first = t.seats[0].player_id
        w.fake.delete(GROUP_ID, int(t.group_ref))
        w.fake.muted_in.add(GROUP_ID)
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.fake.wait_for(lambda: t.closing)
        assert t.hand is not None and t.hand_no == 1  # the hand goes on
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.adapter.presenter.flush()
        await closed_after_one_hand(w, first)
        assert last_private(w, ALICE).startswith(tr("en", "private.chat_gone", table=t.id))
        assert last_private(w, BOB).startswith(tr("ru", "private.chat_gone", table=t.id))
        assert leaks == []


async def test_a_hand_nobody_plays_after_the_bot_s_removal_is_finished_by_the_clock(
    tmp_path: Path,
) -> None:
    """R8.2a, R8.5: the bot is removed from the group mid-hand and neither player presses
    again: the clock places every street for them, the hand (both boards fouled: nothing
    moves) is settled once, the table closes and each player is told in private, in their
    language, that their stack is back. No table is left waiting on a chat nobody reads."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        await w.fake.remove_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: t.closing)
        real = w.service.rt.clock
        shift = [0.0]
        w.service.rt.clock = lambda: real() + shift[0]
        for _ in range(20):  # each turn's budget and bank run out (R8.5)
            if t.id not in w.service.tables:
                break
            shift[0] += t.options.hand_seconds + t.options.time_bank_seconds + 1
            async with t.lock:
                await w.service.rt.arm(t)
            await asyncio.sleep(0.05)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        await w.adapter.presenter.flush()
        (record,) = await w.store.hand_history(first, 5)
        actions = record.hand["actions"]
        assert {a["type"] for a in actions} == {"timeout"} and len(actions) == 10
        assert await wallets(w) == {"Alice": 1000, "Bob": 1000}
        assert last_private(w, ALICE).startswith(tr("en", "private.chat_gone", table=t.id))
        assert last_private(w, BOB).startswith(tr("ru", "private.chat_gone", table=t.id))
        assert await check_store(w.store) == []


async def test_a_crash_before_the_stray_table_closes_closes_it_at_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above (Carol's table #2 opened in the supergroup before the upgrade was known),
    with the bot stopped after #1 moved there and before #2 was closed: storage holds two
    open tables in the chat. At the restart #1 serves the chat (whatever order the tables
    are restored in) and #2 is closed then, Carol's buy-in back in its balance."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            await fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
            await w.say(CAROL, "/newtable", chat_id=NEW_GROUP)
            await w.say(CAROL, "/join", chat_id=NEW_GROUP)
            await w.say(CAROL, "/ready", chat_id=NEW_GROUP)
            stray = w.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP)))
            assert stray is not None and stray.id == 2 and stray.seats[0].stack == 200

            async def crashed(*args: object) -> None:  # (the bot stops here)
                return None

            monkeypatch.setattr(chats, "close_stray", crashed)
            assert t.hand is not None
            await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
            await fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
            await w.settle()
            assert stray.id in w.service.tables  # (two open tables in one chat)
            stray_community = stray.community_id
            monkeypatch.undo()
        async with world(tmp_path, fake=fake, db=db) as w2:
            await fake.wait_for(lambda: 2 not in w2.service.tables)
            here = w2.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP)))
            assert here is not None and here.id == 1
            carol = await w2.store.find_player(stray_community, str(CAROL.id))
            assert carol is not None and carol.balance == 1000
            await w2.adapter.presenter.flush()
            texts = [m["text"] for m in fake.chat_messages(NEW_GROUP)]
            notice = "Table #2 is closed: this group's table #1 moved here with its upgrade."
            assert notice in texts, texts
            assert await check_store(w2.store) == []
    finally:
        await fake.stop()


async def test_a_command_typed_just_before_the_upgrade_is_answered_in_the_supergroup(
    tmp_path: Path,
) -> None:
    """Carol types /join in the group as it is upgraded (the bot hears of the upgrade from
    the refusal of its answer alone): she is seated, the answer is posted in the supergroup
    (it was lost: refused with ``migrate_to_chat_id`` and only logged), and the table
    follows there."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
        await w.fake.send_text(CAROL, GROUP_ID, "/join")
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        await w.settle()

        def answered() -> bool:
            return any(
                m["text"].startswith("You sit at seat 3. You play from the next hand")
                for m in w.fake.chat_messages(NEW_GROUP)
            )

        await w.fake.wait_for(answered)
        assert t.seat_of(str(CAROL.id)) is not None
        assert await check_store(w.store) == []


async def test_a_stats_chart_asked_for_just_before_the_upgrade_is_sent_in_the_supergroup(
    tmp_path: Path,
) -> None:
    """As above for /stats, whose answer is a text and then a chart: both reach the
    supergroup (the chart was refused with ``migrate_to_chat_id`` and only logged)."""
    async with world(tmp_path, rng_seed=5) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        for _ in range(2):  # (a chart from the second hand on)
            await play_hand(w, [ALICE, BOB])
            await w.settle()
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
        await w.fake.send_text(ALICE, GROUP_ID, "/stats me")

        def chart() -> list[str]:
            return [p.caption for p in w.fake.photos_in(NEW_GROUP) if p.caption.startswith("📈")]

        (caption,) = await w.fake.wait_for(chart)
        assert caption.startswith("📈 Alice: kush over time (all time), net "), caption
        texts = [m["text"] for m in w.fake.chat_messages(NEW_GROUP) if "text" in m]
        assert any("Hands: 2 " in text for text in texts), texts


async def test_a_tournament_opened_in_the_supergroup_is_cancelled_for_the_move_not_an_admin(
    tmp_path: Path,
) -> None:
    """R8.7, R8.2a: as above, but what Carol opened in the supergroup is a tournament she
    registered at: it is cancelled when the group's table #1 moves there, her buy-in back,
    and her private notice gives that reason (it said "cancelled by an admin", and no
    admin had closed it)."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
        await w.say(CAROL, "/tournament pineapple", chat_id=NEW_GROUP)
        reply = await w.say(CAROL, "/join", chat_id=NEW_GROUP)
        assert reply["text"].startswith("Registered"), reply["text"]
        stray = w.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP)))
        assert stray is not None and stray is not t and stray.tournament is not None
        community = stray.community_id
        assert t.hand is not None
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.fake.wait_for(lambda: stray.id not in w.service.tables)
        await w.settle()
        await w.adapter.presenter.flush()
        lead = tr("en", "private.moved_cancel", table=stray.id)
        assert last_private(w, CAROL).startswith(lead), last_private(w, CAROL)
        assert "admin" not in last_private(w, CAROL)
        player = await w.store.find_player(community, str(CAROL.id))
        assert player is not None and player.balance == 1000
        assert w.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP))) is t
        assert await check_store(w.store) == []
