"""A Discord table whose close the bot's removal (or its refused writes) queued mid-hand,
when the bot was let back while it was stopped (brk30): the restarted bot sees no event of
it, only the guild as it is now (GUILD_CREATE)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_discord_chats import THREAD_ID, balance_of
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.discord.test_discord_members import plays_on
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord


@pytest.mark.parametrize("how", ["permission", "guild"])
async def test_r8_2a_a_table_whose_chat_took_the_bot_back_while_it_was_stopped_goes_on(
    tmp_path: Path, how: str
) -> None:
    """R8.2a: mid-hand an admin takes Send Messages in the table channel from the bot (its
    refused write queues the close), or removes the bot from the server (GUILD_DELETE); the
    bot stops, and meanwhile gets the permission back, or is invited back (no
    CHANNEL_UPDATE, no new GUILD_CREATE of a guild joined, reaches a stopped bot). The
    restarted bot saw the guild available with the channel writable again, yet the close
    stood and the table closed after the hand (only an event while running cancelled it).
    Now each restored table whose close waits is looked at as its channel is: the close
    is cancelled, the channel told, the next hand dealt."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            assert t.hand is not None
            if how == "permission":
                await w.fake.lock_channel(CHANNEL_ID)
                first = ALICE if t.hand.to_act == (0,) else BOB
                await w.play_street(first, "dm")
            else:
                await w.fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
            await w.fake.wait_for(lambda: t.closing)
        # let back while the bot is stopped: it sees no event of it
        fake.locked_channels.discard(CHANNEL_ID)
        fake.channels[CHANNEL_ID]["permission_overwrites"] = []
        async with world(tmp_path, fake=fake, db=db) as w:
            t = w.table()
            assert t.hand is not None and t.hand_no == 1
            await w.fake.wait_for(lambda: not t.closing, timeout=10)
            await plays_on(w, t)
            assert await check_store(w.store) == []
    finally:
        await fake.stop()


async def test_r8_2a_a_table_channel_still_locked_at_the_restart_closes_after_the_hand(
    tmp_path: Path,
) -> None:
    """The same with Send Messages still denied when the bot starts again: the look at the
    restored table changes nothing, the hand is finished in the DMs and the table closes
    with both stacks back (R8.2a)."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            assert t.hand is not None
            await w.fake.lock_channel(CHANNEL_ID)
            first = ALICE if t.hand.to_act == (0,) else BOB
            await w.play_street(first, "dm")
            await w.fake.wait_for(lambda: t.closing)
        async with world(tmp_path, fake=fake, db=db) as w:
            t = w.table()
            assert t.closing
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await w.fake.wait_for(lambda: t.id not in w.service.tables)
            assert t.hand_no == 1
            assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
            assert await check_store(w.store) == []
    finally:
        await fake.stop()


async def test_r8_2a_a_table_thread_reopened_while_the_bot_was_stopped_keeps_its_table(
    tmp_path: Path,
) -> None:
    """R8.2a: a moderator archives and locks the table's thread mid-hand (50083 on every
    write: the close queued), and reopens it while the bot is stopped (no THREAD_UPDATE
    reaches it): the restarted bot looks at the restored table's thread as it is now, the
    close is cancelled, the thread told, the next hand dealt."""
    fake = FakeDiscord(TOKEN)
    fake.add_thread(THREAD_ID, CHANNEL_ID, "poker-thread")
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.slash(ALICE, "new", channel_id=THREAD_ID)
            for u in (ALICE, BOB):
                await w.slash(u, "join", channel_id=THREAD_ID)
            for u in (ALICE, BOB):
                await w.slash(u, "ready", channel_id=THREAD_ID)
            t = w.table()
            assert t.chat_id == str(THREAD_ID) and t.hand is not None
            fake.archive_thread(THREAD_ID, locked=True)
            first = ALICE if t.hand.to_act == (0,) else BOB
            await w.play_street(first, "dm")
            await w.fake.wait_for(lambda: t.closing)
        fake.channels[THREAD_ID]["thread_metadata"].update(archived=False, locked=False)
        async with world(tmp_path, fake=fake, db=db) as w:
            t = w.table()
            await w.fake.wait_for(lambda: not t.closing, timeout=10)
            notice = tr("en", "lobby.close_cancelled", table=t.id)
            await w.fake.wait_for(
                lambda: any(m.get("content") == notice for m in fake.channel_messages(THREAD_ID))
            )
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
            assert await check_store(w.store) == []
    finally:
        await fake.stop()
