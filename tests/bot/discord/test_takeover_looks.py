"""A Discord table taken over from a dead worker (issue 14) whose close the bot's refused
writes queued mid-hand (R8.2a), when its channel let the bot write again while no worker
served it: the worker taking the shard over sees no event of it (no CHANNEL_UPDATE reaches a
dead process; the new connection's GUILD_CREATE only shows the channel as it is now). A
single process's start looks at every restored table whose close waits
(:meth:`DiscordAdapter.look_at_restored`); a takeover restored the table the same way but
never looked at it, so the table closed after the hand in a channel the bot could write in."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.model import ChatRef
from bot.texts import tr
from storage.api import lease_key
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB
from tests.bot.discord.shard_world import guild_on_shard, two_workers, until
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID

GUILD = guild_on_shard(1)
CHAT = ChatRef("discord", str(GUILD), str(CHANNEL_ID), "")
KEY = lease_key("discord", str(CHANNEL_ID))
#: both workers share one loop; a worker renews every TTL/4 and its renewal waits TTL/2 for
#: SQLite at most. At 3 s (as tests/bot/discord/test_shard_failover.py) two loaded cores made
#: w0's heartbeat miss that bound now and then: w0 gave up shards 0 and 1 and the table
#: (closed as its chat was gone), or the hand's presses went unanswered.
TTL = 6.0


@pytest.mark.parametrize("guild_later", [False, True], ids=["guild_at_once", "guild_later"])
async def test_r8_2a_r14_a_table_taken_over_whose_channel_is_writable_again_goes_on(
    tmp_path: Path, guild_later: bool
) -> None:
    """R8.2a, issue 14: mid-hand a moderator takes Send Messages in the table's channel from
    the bot (w1's refused write queues the close); w1 dies, and the permission is given
    back meanwhile. w0 takes shard 1 and the table over: it looks at the table as its
    channel is now, as a start does, so the close is cancelled, the channel told once, and
    the table stays open past the hand, played on w0. ``guild_later``: the guild's
    GUILD_CREATE comes a while after the shard's READY (as Discord streams a bot's guilds),
    after w0 took the table over: the guild is looked at once it is available."""
    async with two_workers(tmp_path / "ofc.sqlite3", GUILD, ttl=TTL) as (fake, w0, w1):
        play = w1.world(fake)
        await seat_everyone(play, [ALICE, BOB])
        t = play.table()
        assert t.hand is not None and t.hand_no == 1
        await fake.lock_channel(CHANNEL_ID)
        first = ALICE if t.hand.to_act == (0,) else BOB
        await play.play_street(first, "ephemeral")
        await fake.wait_for(lambda: t.closing and t.removal_close)

        await w1.kill()
        if guild_later:  # (w0's connection of shard 1: its table is taken over meanwhile)
            fake.guild_create_delay = 2.0
        # given back while no worker serves the guild: nobody sees an event of it
        fake.locked_channels.discard(CHANNEL_ID)
        fake.channels[CHANNEL_ID]["permission_overwrites"] = []
        await until(lambda: w0.worker.holds(KEY), 12 * TTL, "w0 serves the table")
        moved = w0.service.table_in(CHAT)
        assert moved is not None and moved.id == t.id and moved.hand_no == 1
        await fake.wait_for(lambda: not moved.closing, timeout=10)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await fake.wait_for(
            lambda: notice in [str(m.get("content", "")) for m in fake.channel_messages()]
        )
        await w0.service.rt.settled(moved)
        await w0.adapter.presenter.flush()  # (the table message written anew after the notice)
        play = w0.world(fake)
        await play.play_hand([ALICE, BOB], {ALICE.id: "ephemeral", BOB.id: "ephemeral"})
        await w0.service.rt.settled(moved)
        # the hand settled once and the table stays open for the next (dealt a minute later
        # in these workers); closed, it would be gone with the stacks back
        assert [h["number"] for h in await w0.store.export_hands(t.id)] == [1]
        assert w0.service.tables.get(t.id) is moved and not moved.closing
        texts = [str(m.get("content", "")) for m in fake.channel_messages(CHANNEL_ID)]
        assert texts.count(notice) == 1
        assert sum((await w0.store.stacks(t.id)).values()) == 400
        assert await check_store(w0.store) == []
