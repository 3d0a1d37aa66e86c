"""More chats that change under a table on Discord, through the real discord.py client and
the fake Discord: the channel a table's thread belongs to is deleted (Discord deletes its
threads with it and sends CHANNEL_DELETE for the channel alone)."""

from __future__ import annotations

from pathlib import Path

from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB
from tests.bot.discord.test_discord_chats import THREAD_ID, balance_of, dealt_in_a_thread
from tests.fakes.discord_api import CHANNEL_ID


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
