"""perf43: a role or member update of a big guild looks at every channel (the bot may write
in some again, R8.2a). Each writable channel read every closed table's final snapshot
(:func:`bot.service.chats.owed_back`), once a channel, per event: now one read per event
for all of them, and the owed closing message still reaches the table message, once. The
bot's returns to chats (:attr:`~bot.service.runtime.Runtime.back_at`) are kept a bounded
time, not one entry a channel for good."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.texts import tr
from storage.api import TableRecord
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, World, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import BOT_ROLE_ID, CHANNEL_ID, TOKEN, FakeDiscord

#: channels of the guild besides the table's
OTHER_CHANNELS = 12


def count_closed_reads(w: World, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Wrap the service's store so that each read of the closed tables' final snapshots is
    counted: the returned list gets one item per read."""
    store = w.service.rt.store
    reads: list[int] = []
    real = store.closed_snapshots

    async def counting() -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        reads.append(1)
        return await real()

    monkeypatch.setattr(store, "closed_snapshots", counting)
    return reads


async def test_r8_2a_a_role_given_back_reads_the_closed_tables_once_and_writes_the_owed_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.2a: a guild of 13 text channels where only the bot's role may send. The role is
    taken from the bot mid-hand, the hand finished in the DMs, and the table closes, its
    table message (still showing hand 1 with buttons) owed the closing notice. The role
    given back (GUILD_MEMBER_UPDATE) looked at all 13 channels, each reading every closed
    table's snapshot: 13 reads. Now one read, the message is written as closed, nothing
    posted beside it; another look at the channels writes it no more (one read again)."""
    fake = FakeDiscord(TOKEN)
    fake.bot_roles.append(BOT_ROLE_ID)
    fake.guild_locked = True  # @everyone may not send: the bot's role may
    for n in range(OTHER_CHANNELS):
        fake.add_channel(CHANNEL_ID + 100 + n, f"other-{n}")
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            table, mid = t.id, int(w.table_message()["id"])
            await fake.set_bot_role(False)
            first = ALICE if t.hand is not None and t.hand.to_act == (0,) else BOB
            await w.play_street(first, "dm")
            await fake.wait_for(lambda: t.closing)
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await fake.wait_for(lambda: t.id not in w.service.tables)
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert components(fake.messages[mid])  # (nothing written while out)
            assert len(await w.store.closed_snapshots()) == 1
            before = len(fake.channel_messages(CHANNEL_ID))
            guild = w.adapter.client.get_guild(fake.guild_id)
            assert guild is not None and len(guild.text_channels) == OTHER_CHANNELS + 1
            reads = count_closed_reads(w, monkeypatch)
            await fake.set_bot_role(True)
            closed = tr("en", "reply.table_closed", table=table)
            await fake.wait_for(lambda: fake.messages[mid]["content"] == closed)
            await fake.wait_for(lambda: not w.service.rt.closing)
            await w.adapter.idle()
            await w.adapter.presenter.flush()
            assert len(reads) == 1
            assert components(fake.messages[mid]) == []
            assert len(fake.channel_messages(CHANNEL_ID)) == before  # none posted beside it
            assert await w.store.closed_snapshots() == []  # (forgotten once written)
            edits = len(fake.calls_to("PATCH", f"/channels/{CHANNEL_ID}/messages/{mid}"))
            reads.clear()
            await w.adapter.writable_again(guild.channels)  # (another role update)
            await w.adapter.presenter.flush()
            assert len(reads) == 1
            assert len(fake.calls_to("PATCH", f"/channels/{CHANNEL_ID}/messages/{mid}")) == edits
            assert fake.messages[mid]["content"] == closed
            assert await check_store(w.store) == []
    finally:
        await fake.stop()


async def test_a_role_taken_from_the_bot_reads_no_closed_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's role taken away: no channel of the 13 is writable, so no closed table is
    looked for (no read); given back with no table owed anything: one read for all 13."""
    fake = FakeDiscord(TOKEN)
    fake.bot_roles.append(BOT_ROLE_ID)
    fake.guild_locked = True
    for n in range(OTHER_CHANNELS):
        fake.add_channel(CHANNEL_ID + 100 + n, f"other-{n}")
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            reads = count_closed_reads(w, monkeypatch)
            await fake.set_bot_role(False)
            await w.adapter.idle()
            assert reads == []
            await fake.set_bot_role(True)
            await fake.wait_for(lambda: reads)
            await w.adapter.idle()
            assert len(reads) == 1
            back = w.service.rt.back_at
            assert len([k for k in back if k[0] == "discord"]) == OTHER_CHANNELS + 1
    finally:
        await fake.stop()


async def test_the_bot_s_returns_to_chats_are_kept_an_hour_at_most(tmp_path: Path) -> None:
    """:attr:`Runtime.back_at` got an entry for every channel the bot was told it may write
    in, for good (a big guild's role changes: all its channels, again and again). Now a
    return older than :data:`BACK_KEPT_SECONDS` is dropped at the next one, and a chat told
    again moves to the newest."""
    from bot.service.runtime import BACK_KEPT_SECONDS  # (new: perf43)

    async with world(tmp_path) as w:
        rt = w.service.rt
        rt.back_at.clear()
        rt.mark_back("discord", "1", now=1000.0)
        rt.mark_back("discord", "2", now=1010.0)
        rt.mark_back("discord", "1", now=1020.0)  # (told again: newest now)
        assert list(rt.back_at) == [("discord", "2"), ("discord", "1")]
        rt.mark_back("discord", "3", now=1015.0 + BACK_KEPT_SECONDS)
        assert rt.back_at == {
            ("discord", "1"): 1020.0,
            ("discord", "3"): 1015.0 + BACK_KEPT_SECONDS,
        }
        rt.mark_back("discord", "4", now=1030.0 + 2 * BACK_KEPT_SECONDS)
        assert rt.back_at == {("discord", "4"): 1030.0 + 2 * BACK_KEPT_SECONDS}
