"""More chats that change under a table on Discord, through the real discord.py client and
the fake Discord: the channel a table's thread belongs to is deleted (Discord deletes its
threads with it and sends CHANNEL_DELETE for the channel alone); the bot kicked from the
guild mid-hand and never invited back."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_discord_chats import THREAD_ID, balance_of, dealt_in_a_thread
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID


async def test_a_table_thread_whose_channel_is_deleted_closes_after_the_hand(
    tmp_path: Path,
) -> None:
    """R8.2a: a table runs in a thread and the thread's channel is deleted mid-hand: Discord
    sends CHANNEL_DELETE for the channel only; discord.py dispatches the thread's deletion
    from its cache, and the table's close is queued at once (no write needed to find it
    out). The hand is finished in the DMs and settled, then the table closes, every stack
    back in its balance."""
    async with dealt_in_a_thread(tmp_path) as (w, fake, t):
        await fake.delete_channel(THREAD_ID, announce=False)  # (gone with its channel)
        await fake.delete_channel(CHANNEL_ID)
        await fake.wait_for(lambda: t.closing, timeout=5)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await fake.wait_for(lambda: t.id not in w.service.tables)
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


async def test_a_guild_that_removes_the_bot_mid_hand_closes_its_table_after_it(
    tmp_path: Path,
) -> None:
    """R8.2a: the bot is kicked from the guild mid-hand (GUILD_DELETE, not an outage) and
    never invited back; its writes in the channel are refused from then on. The hand is
    finished in the DMs and settled once, the table closes, every stack goes back to its
    balance, and each player's DM hand says so in their language."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None and t.hand_no == 1
        w.fake.locked_channels.add(CHANNEL_ID)
        await w.fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
        await w.fake.wait_for(lambda: t.closing)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        for user, lang in ((ALICE, "en"), (BOB, "ru")):
            text = w.fake.dm_messages(user.id)[-1]["content"]
            assert text.startswith(tr(lang, "private.chat_gone", table=t.id)), text
        assert t.hand_no == 1 and len(await w.store.export_hands(t.id)) == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []
