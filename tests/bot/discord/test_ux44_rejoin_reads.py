"""ux44: the bot invited back into a guild (``on_guild_join``) read the closed tables' final
snapshots once for the guild (:func:`bot.service.chats.owed_back`), then once more for every
table of it in a writable channel (:func:`bot.service.chats.chat_back` a table): 1 + N reads
per re-join. Now one
(:func:`bot.service.chats.chats_back`), and each table in a writable channel goes on while
one whose channel is locked to the bot keeps its close (R8.2a, dbrk43)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_dbrk43_chat_changes import table_in
from tests.bot.discord.test_perf43_owed_reads import count_closed_reads
from tests.bot.money import assert_conserved
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord

#: the guild's channels, a table in each
CHANNELS = (CHANNEL_ID, CHANNEL_ID + 1, CHANNEL_ID + 2)


async def test_r8_2a_a_guild_rejoin_reads_the_closed_tables_once_for_all_its_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.2a: three tables of one guild, a hand dealt at each; the last table's channel is
    locked to the bot (its close queued). The bot is kicked (every close queued) and invited
    back: one read of the closed tables' snapshots (it was 1 + 2), the two tables in
    writable channels go on (each channel told once), the locked one keeps its close."""
    fake = FakeDiscord(TOKEN, channels=CHANNELS)
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            for channel in CHANNELS:
                await w.slash(ALICE, "new", channel_id=channel)
                for u in (ALICE, BOB):
                    await w.slash(u, "join", channel_id=channel)
                for u in (ALICE, BOB):
                    await w.slash(u, "ready", channel_id=channel)
            tables = [table_in(w, channel) for channel in CHANNELS]
            assert all(t.hand is not None and not t.closing for t in tables)
            locked = tables[-1]
            await fake.lock_channel(CHANNELS[-1])
            await fake.wait_for(lambda: locked.closing)
            await fake.kick_bot()
            await fake.wait_for(lambda: w.adapter.client.get_guild(GUILD_ID) is None)
            await fake.wait_for(lambda: all(t.closing for t in tables))
            await w.adapter.idle()
            reads = count_closed_reads(w, monkeypatch)
            await fake.invite_bot()
            await fake.wait_for(lambda: w.adapter.client.get_guild(GUILD_ID) is not None)
            await fake.wait_for(lambda: not any(t.closing for t in tables[:-1]))
            await w.adapter.idle()
            for t in tables:
                await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert len(reads) == 1, reads
            assert [t.closing for t in tables] == [False, False, True]
            assert all(t.id in w.service.tables for t in tables)  # (hands still going)
            for t, channel in zip(tables[:-1], CHANNELS, strict=False):
                notice = tr("en", "lobby.close_cancelled", table=t.id)

                def told(channel: int = channel, notice: str = notice) -> list[object]:
                    return [m for m in fake.channel_messages(channel) if m.get("content") == notice]

                await fake.wait_for(told)  # (posted by the table's sender)
                await w.adapter.presenter.flush()
                assert len(told()) == 1, (channel, told())
            assert await check_store(w.store) == []
            await assert_conserved(w.store)
    finally:
        await fake.stop()
