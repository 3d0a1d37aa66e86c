"""More chats that change under a table on Discord, through the real discord.py client and
the fake Discord: the bot kicked from the guild mid-hand and never invited back (a table
thread deleted with its channel: ``test_discord_chats``)."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_discord_chats import balance_of
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID


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
