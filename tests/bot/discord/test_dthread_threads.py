"""dthread: a Discord thread that changes under its table, through the real discord.py client
and the fake Discord (R8.2a). A moderator locks the table's thread without archiving it
(Discord's "Lock Thread"; since March 2023 a locked thread refuses the bot's posts and
edits, 160005 "Thread is locked", unless it holds Manage Threads): the table closes, after
the hand in progress, each player told in their DMs and every stack back; unlocked before
the hand ends, the table plays on."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.model import LiveTable
from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, World, world
from tests.bot.discord.test_discord_chats import THREAD_ID, balance_of
from tests.fakes.discord_api import CHANNEL_ID, EPHEMERAL, TOKEN, FakeDiscord

#: the deal of the next hand waits this long after a showdown
NEXT_HAND = 2.0


@contextlib.asynccontextmanager
async def dealt_in_a_thread(
    tmp_path: Path, next_hand_delay: float = 0.0, *, private: bool = False
) -> AsyncIterator[tuple[World, LiveTable]]:
    """Alice opens a table in the thread :data:`THREAD_ID` (``private``: a private thread
    the bot was added to); Alice and Bob are dealt in."""
    fake = FakeDiscord(TOKEN)
    fake.add_thread(THREAD_ID, CHANNEL_ID, "poker-thread", private=private)
    await fake.start()
    try:
        async with world(tmp_path, fake=fake, next_hand_delay=next_hand_delay) as w:
            reply = await w.slash(ALICE, "new", channel_id=THREAD_ID)
            assert reply["content"].startswith("Table #"), reply
            for u in (ALICE, BOB):
                await w.slash(u, "join", channel_id=THREAD_ID)
            for u in (ALICE, BOB):
                await w.slash(u, "ready", channel_id=THREAD_ID)
            t = w.table()
            assert t.chat_id == str(THREAD_ID) and t.hand is not None
            yield w, t
    finally:
        await fake.stop()


async def told_in_dms(w: World, table: int) -> None:
    await w.adapter.presenter.flush()
    for user, lang in ((ALICE, "en"), (BOB, "ru")):
        await w.fake.wait_for(
            lambda u=user, lg=lang: any(
                m["content"].startswith(tr(lg, "private.chat_gone", table=table))
                for m in w.fake.dm_messages(u.id)
            ),
            timeout=5,
        )


@pytest.mark.parametrize("told", [True, False])
async def test_r8_2a_a_table_thread_locked_mid_hand_closes_after_the_hand(
    tmp_path: Path, told: bool
) -> None:
    """The table's thread is locked mid-hand, not archived (``told``: THREAD_UPDATE says so;
    else the next write, refused 160005, does). The hand is finished in the DMs and the
    table closes after it, hand 2 never dealt, 2,000 kush between the two as before, each
    told in their DMs. The refusal was only logged ("cannot edit message …: Thread is
    locked") and the event ignored: the table dealt hand after hand into a thread where its
    message could no longer change."""
    async with dealt_in_a_thread(tmp_path) as (w, t):
        table = t.id
        await w.fake.lock_thread(THREAD_ID, announce=told)
        if told:
            await w.fake.wait_for(lambda: t.closing, timeout=5)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables, timeout=5)
        assert t.hand_no == 1 and len(await w.store.export_hands(table)) == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        await told_in_dms(w, table)
        assert await check_store(w.store) == []


async def test_r8_2a_a_table_thread_locked_between_hands_deals_no_hand_into_it(
    tmp_path: Path,
) -> None:
    """Hand 1 is over, hand 2 not yet dealt; a moderator locks the thread (THREAD_UPDATE,
    locked, not archived). No hand 2: the table closes at once, as for a channel the bot
    may no longer write in (R8.2a), the stacks back; unlocked, a new table opens there."""
    async with dealt_in_a_thread(tmp_path, next_hand_delay=NEXT_HAND) as (w, t):
        table = t.id
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        assert t.hand is None and t.hand_no == 1
        await w.fake.lock_thread(THREAD_ID)
        await w.fake.wait_for(lambda: t.id not in w.service.tables, timeout=5)
        await asyncio.sleep(NEXT_HAND + 0.5)  # (the deal's time went by)
        assert t.hand is None and t.hand_no == 1
        assert len(await w.store.export_hands(table)) == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        await told_in_dms(w, table)
        await w.fake.lock_thread(THREAD_ID, locked=False)
        reply = await w.slash(ALICE, "new", channel_id=THREAD_ID)
        assert reply["content"].startswith("Table #"), reply
        assert await check_store(w.store) == []


async def test_r8_2a_a_table_thread_locked_then_unlocked_mid_hand_plays_on(
    tmp_path: Path,
) -> None:
    """Locked mid-hand (160005 on the next write), unlocked before the hand ends
    (THREAD_UPDATE): the close is cancelled, the thread told, hand 2 dealt."""
    async with dealt_in_a_thread(tmp_path) as (w, t):
        assert t.hand is not None
        await w.fake.lock_thread(THREAD_ID, announce=False)
        first = ALICE if t.hand.to_act == (0,) else BOB
        await w.play_street(first, "dm")
        await w.fake.wait_for(lambda: t.closing, timeout=5)
        await w.fake.lock_thread(THREAD_ID, locked=False)
        await w.fake.wait_for(lambda: not t.closing, timeout=5)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await w.fake.wait_for(
            lambda: any(m.get("content") == notice for m in w.fake.channel_messages(THREAD_ID)),
            timeout=5,
        )
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2, timeout=5)
        assert t.id in w.service.tables and not t.closing
        assert await check_store(w.store) == []


async def test_r8_2a_the_bot_removed_from_a_private_table_thread_between_hands_deals_no_hand(
    tmp_path: Path,
) -> None:
    """A table in a private thread; between hands someone removes the bot from the thread
    (THREAD_MEMBERS_UPDATE naming it: without Manage Threads it no longer sees the thread,
    its writes answer 403/50001). No hand 2: the table closes at once, each player told in
    their DMs, the stacks back. The event was ignored: hand 2 was dealt into a thread the
    bot could not see, and only the refused edit of its deal queued the close, after it."""
    async with dealt_in_a_thread(tmp_path, next_hand_delay=NEXT_HAND, private=True) as (w, t):
        table = t.id
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        assert t.hand is None and t.hand_no == 1
        await w.fake.remove_bot_from_thread(THREAD_ID)
        await w.fake.wait_for(lambda: t.id not in w.service.tables, timeout=5)
        await asyncio.sleep(NEXT_HAND + 0.5)  # (the deal's time went by)
        assert t.hand is None and t.hand_no == 1
        assert len(await w.store.export_hands(table)) == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        await told_in_dms(w, table)
        assert await check_store(w.store) == []


async def test_r8_2a_the_bot_added_back_to_a_private_table_thread_mid_hand_plays_on(
    tmp_path: Path,
) -> None:
    """Removed from the table's private thread mid-hand (the close queued after the hand),
    the bot is added back before the hand ends (THREAD_MEMBERS_UPDATE): the close is
    cancelled, the thread told, hand 2 dealt. The close stood: the table closed after the
    hand though the bot could write in its thread again."""
    async with dealt_in_a_thread(tmp_path, private=True) as (w, t):
        assert t.hand is not None
        await w.fake.remove_bot_from_thread(THREAD_ID)
        first = ALICE if t.hand.to_act == (0,) else BOB
        await w.play_street(first, "dm")
        await w.fake.wait_for(lambda: t.closing, timeout=5)
        await w.fake.remove_bot_from_thread(THREAD_ID, removed=False)
        await w.fake.wait_for(lambda: not t.closing, timeout=5)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await w.fake.wait_for(
            lambda: any(m.get("content") == notice for m in w.fake.channel_messages(THREAD_ID)),
            timeout=5,
        )
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2, timeout=5)
        assert t.id in w.service.tables and not t.closing
        assert await check_store(w.store) == []


async def test_ofc_new_in_a_private_thread_without_the_bot_says_to_add_it(
    tmp_path: Path,
) -> None:
    """``/ofc new`` in a private thread the bot was never added to (a slash command still
    reaches it; its post there answers 403/50001): the ephemeral refusal said the bot needs
    View Channels and Send Messages in Threads, which it had, so an admin checking the
    permissions found nothing to fix. It says to add the bot to the thread (mentioning it
    there does), in both languages; the table closes."""
    fake = FakeDiscord(TOKEN)
    fake.add_thread(THREAD_ID, CHANNEL_ID, "poker-private", private=True)
    fake.hidden_channels.add(THREAD_ID)  # (the bot is not a member)
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            reply = await w.slash(ALICE, "new", channel_id=THREAD_ID)
            assert reply["flags"] & EPHEMERAL, reply
            assert reply["content"] == tr("en", "reply.table_not_posted.discord_private", table=1)
            assert "add the bot to this thread" in reply["content"], reply
            await w.fake.wait_for(lambda: not w.service.tables, timeout=5)
            reply = await w.slash(BOB, "new", channel_id=THREAD_ID)
            assert reply["content"] == tr("ru", "reply.table_not_posted.discord_private", table=2)
            assert "добавьте в неё бота" in reply["content"], reply
            assert await check_store(w.store) == []
    finally:
        await fake.stop()


@pytest.mark.parametrize("kind", [5, 2, 13, "forum", 10])
async def test_a_table_opens_and_deals_in_every_kind_of_text_chat(
    tmp_path: Path, kind: int | str
) -> None:
    """Held (dthread): ``/ofc new`` in an announcement channel (5), a voice channel's text
    chat (2), a stage channel's (13), a forum post (a thread of a forum, 15) and an
    announcement thread (10) opens the table there and deals, its message in that chat."""
    fake = FakeDiscord(TOKEN)
    where = THREAD_ID
    if kind == "forum":
        fake.add_channel(CHANNEL_ID + 5, "forum")
        fake.channels[CHANNEL_ID + 5].update(type=15, available_tags=[])
        fake.add_thread(THREAD_ID, CHANNEL_ID + 5, "post")
    elif kind == 10:
        fake.channels[CHANNEL_ID]["type"] = 5
        fake.add_thread(THREAD_ID, CHANNEL_ID, "news-thread")
        fake.channels[THREAD_ID]["type"] = 10
    else:
        fake.add_channel(where, "kind")
        fake.channels[where].update(type=kind, bitrate=64000, user_limit=0, rtc_region=None)
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            reply = await w.slash(ALICE, "new", channel_id=where)
            assert reply["content"] == "Table #1 is open.", reply
            for u in (ALICE, BOB):
                await w.slash(u, "join", channel_id=where)
            for u in (ALICE, BOB):
                await w.slash(u, "ready", channel_id=where)
            t = w.table()
            assert t.chat_id == str(where) and t.hand is not None
            table_message = fake.channel_messages(where)[0]
            assert table_message["content"].startswith("🃏 Pineapple OFC · table #1 · hand 1")
    finally:
        await fake.stop()
