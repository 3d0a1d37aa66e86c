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
from tests.bot.discord.dc_world import ALICE, BOB, World, components, world
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
        closed = tr("en", "reply.table_closed", table=table)
        last = int(w.fake.channel_messages(THREAD_ID)[-1]["id"])  # hand 1's, unchanged
        assert w.fake.messages[last]["content"] != closed
        await w.fake.lock_thread(THREAD_ID, locked=False)
        await w.fake.wait_for(lambda: w.fake.messages[last]["content"] == closed, timeout=5)
        assert components(w.fake.messages[last]) == []
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
        closed = tr("en", "reply.table_closed", table=table)
        last = int(w.fake.channel_messages(THREAD_ID)[-1]["id"])  # hand 1's, unchanged
        await w.fake.remove_bot_from_thread(THREAD_ID, removed=False)
        await w.fake.wait_for(lambda: w.fake.messages[last]["content"] == closed, timeout=5)
        assert components(w.fake.messages[last]) == []
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


@pytest.mark.parametrize("change", ["slowmode", "announcement"])
async def test_a_channel_set_to_slowmode_or_made_an_announcement_channel_plays_on(
    tmp_path: Path, change: str
) -> None:
    """Held (dthread): mid-hand a moderator sets the table channel's slowmode to six hours
    (Discord exempts bots: their posts are not refused) or makes it an announcement channel
    (CHANNEL_UPDATE, type 5): the bot keeps writing there, nothing closes, hand 2 is
    dealt, nothing logged as a failure."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB):
            await w.slash(u, "join")
        for u in (ALICE, BOB):
            await w.slash(u, "ready")
        t = w.table()
        channel = w.fake.channels[CHANNEL_ID]
        if change == "slowmode":
            channel["rate_limit_per_user"] = 21600
        else:
            channel["type"] = 5
        await w.fake.dispatch("CHANNEL_UPDATE", dict(channel))
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2, timeout=5)
        assert not t.closing
        assert "hand 2" in w.table_message()["content"]


async def test_a_table_channel_moved_into_a_category_hidden_from_the_bot_closes_after_the_hand(
    tmp_path: Path,
) -> None:
    """Held (dthread): mid-hand the table channel is moved into a category whose permissions
    deny View Channel to @everyone and synced with it (CHANNEL_UPDATE: the new parent and
    overwrites; the bot's writes answer 403/50001). The close is queued at once, the hand
    is finished in the DMs, the table closes with the stacks back (R8.2a)."""
    category = CHANNEL_ID + 9
    async with world(tmp_path) as w:
        w.fake.add_channel(category, "staff")
        w.fake.channels[category]["type"] = 4
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB):
            await w.slash(u, "join")
        for u in (ALICE, BOB):
            await w.slash(u, "ready")
        t = w.table()
        deny = {"id": str(w.fake.guild_id), "type": 0, "allow": "0", "deny": str(1 << 10)}
        w.fake.channels[category]["permission_overwrites"] = [deny]
        await w.fake.dispatch("CHANNEL_CREATE", dict(w.fake.channels[category]))
        channel = w.fake.channels[CHANNEL_ID]
        channel.update(parent_id=str(category), permission_overwrites=[deny])
        w.fake.hidden_channels.add(CHANNEL_ID)
        await w.fake.dispatch("CHANNEL_UPDATE", dict(channel))
        await w.fake.wait_for(lambda: t.closing, timeout=5)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables, timeout=5)
        assert t.hand_no == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


@pytest.mark.parametrize("kind", [2, 15])
async def test_a_deleted_voice_channel_or_forum_closes_its_table_after_the_hand(
    tmp_path: Path, kind: int
) -> None:
    """Held (dthread): a table in a voice channel's text chat whose channel is deleted
    mid-hand (CHANNEL_DELETE), or in a forum post whose forum is deleted (CHANNEL_DELETE of
    the forum only; discord.py drops its cached posts with it): the hand is finished in
    the DMs and the table closes with the stacks back (R8.2a)."""
    fake = FakeDiscord(TOKEN)
    parent = CHANNEL_ID + 5
    if kind == 2:
        where = parent
        fake.add_channel(parent, "voice")
        fake.channels[parent].update(type=2, bitrate=64000, user_limit=0, rtc_region=None)
    else:
        where = THREAD_ID
        fake.add_channel(parent, "forum")
        fake.channels[parent].update(type=15, available_tags=[])
        fake.add_thread(THREAD_ID, parent, "post")
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            await w.slash(ALICE, "new", channel_id=where)
            for u in (ALICE, BOB):
                await w.slash(u, "join", channel_id=where)
            for u in (ALICE, BOB):
                await w.slash(u, "ready", channel_id=where)
            t = w.table()
            if kind == 15:
                fake.channels.pop(THREAD_ID)  # (gone with its forum: 404 10003)
            await fake.delete_channel(parent)
            await fake.wait_for(lambda: t.closing, timeout=5)
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await fake.wait_for(lambda: t.id not in w.service.tables, timeout=5)
            assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
            assert await check_store(w.store) == []
    finally:
        await fake.stop()


@pytest.mark.parametrize("hide", [False, True])
async def test_r8_2a_a_thread_s_channel_locked_between_hands_deals_no_hand_into_the_thread(
    tmp_path: Path, hide: bool
) -> None:
    """Hand 1 at a table in a thread is over, hand 2 not yet dealt; a moderator denies Send
    Messages in Threads on the thread's channel (``hide``: View Channel), CHANNEL_UPDATE of
    the channel only. No hand 2: the table closes at once, the stacks back, as in a channel
    locked to the bot. Only the channel itself was looked at: hand 2 was dealt into the
    thread, and the refused edit of its deal closed the table after it; given the
    permission back, the thread's table message says the table is closed."""
    async with dealt_in_a_thread(tmp_path, next_hand_delay=NEXT_HAND) as (w, t):
        table = t.id
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        assert t.hand is None and t.hand_no == 1
        if hide:
            await w.fake.lock_channel(CHANNEL_ID, hide=True)
            w.fake.hidden_channels.add(THREAD_ID)  # (its threads are hidden with it)
        else:
            await w.fake.lock_channel(CHANNEL_ID, threads=True)
        await w.fake.wait_for(lambda: t.id not in w.service.tables, timeout=5)
        await asyncio.sleep(NEXT_HAND + 0.5)  # (the deal's time went by)
        assert t.hand is None and t.hand_no == 1
        assert len(await w.store.export_hands(table)) == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        await told_in_dms(w, table)
        closed = tr("en", "reply.table_closed", table=table)
        last = int(w.fake.channel_messages(THREAD_ID)[-1]["id"])  # hand 1's, unchanged
        w.fake.hidden_channels.discard(THREAD_ID)
        await w.fake.lock_channel(CHANNEL_ID, locked=False, threads=not hide)
        await w.fake.wait_for(lambda: w.fake.messages[last]["content"] == closed, timeout=5)
        assert await check_store(w.store) == []


async def test_a_table_thread_auto_archived_mid_hand_gets_its_message_again_and_plays_on(
    tmp_path: Path,
) -> None:
    """Held (dthread): the table's thread is archived by Discord's inactivity timer mid-hand
    (THREAD_UPDATE, archived, not locked: discord.py drops it from its cache). Nothing
    closes; the next edit of the table message is refused (50083) and the message is
    posted anew, which unarchives the thread; hand 2 is dealt."""
    async with dealt_in_a_thread(tmp_path) as (w, t):
        thread = w.fake.channels[THREAD_ID]
        thread["thread_metadata"]["archived"] = True
        await w.fake.dispatch("THREAD_UPDATE", dict(thread))
        guild = w.adapter.client.guilds[0]
        await w.fake.wait_for(lambda: guild.get_thread(THREAD_ID) is None, timeout=5)
        assert not t.closing
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2, timeout=5)
        assert not t.closing and thread["thread_metadata"]["archived"] is False
        assert await check_store(w.store) == []


async def test_r8_2a_a_parent_channel_update_keeps_the_close_of_a_private_thread_left(
    tmp_path: Path,
) -> None:
    """Removed from the table's private thread mid-hand (the close queued after the hand),
    the bot then sees its channel updated (CHANNEL_UPDATE: a moderator edits the channel's
    overwrites; a role's change looks at every channel alike). The bot still sees no thread:
    the close stands, the table closes after the hand. discord.py keeps the thread in its
    cache after the removal, and the channel's cached threads not locked were taken as
    writable again: the close was cancelled (the thread "told" so), queued again only by
    that notice's refused post."""
    async with dealt_in_a_thread(tmp_path, private=True) as (w, t):
        assert t.hand is not None
        await w.fake.remove_bot_from_thread(THREAD_ID)
        await w.fake.wait_for(lambda: t.closing, timeout=5)
        await w.fake.lock_channel(CHANNEL_ID, locked=False)  # (an update of the channel)
        await asyncio.sleep(0.3)  # (the update reached the bot)
        await w.adapter.presenter.flush()
        assert t.closing and t.removal_close
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        posts = w.fake.calls_to("POST", f"/channels/{THREAD_ID}/messages")
        assert not [c for c in posts if notice in str(c.body)]  # (nor cancelled, then queued
        # again by that notice's refused post: a race with the deal of hand 2)
        table = t.id
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: table not in w.service.tables, timeout=5)
        assert len(await w.store.export_hands(table)) == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


async def test_r8_2a_a_locked_table_thread_the_bot_may_manage_again_mid_hand_plays_on(
    tmp_path: Path,
) -> None:
    """A moderator locks the table's thread mid-hand (the close queued after the hand); an
    admin then gives the bot a role with Manage Threads, which a locked thread lets write
    (GUILD_ROLE_UPDATE, GUILD_MEMBER_UPDATE). The close is cancelled, the thread told, hand
    2 dealt, as when the thread is unlocked. A locked thread was never taken for writable
    again: the close stood, the table closed after the hand though its thread took every
    write of the bot."""
    async with dealt_in_a_thread(tmp_path) as (w, t):
        assert t.hand is not None
        await w.fake.lock_thread(THREAD_ID)
        await w.fake.wait_for(lambda: t.closing, timeout=5)
        await w.fake.give_bot_manage_threads()
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
