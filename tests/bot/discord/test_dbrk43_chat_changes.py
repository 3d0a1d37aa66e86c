"""dbrk43: a chat that changes under a Discord table, through the real discord.py client and
the fake Discord (R8.2a, R8.7). The bot kicked and invited back into the guild while its
table's channel is deleted or locked to it keeps that table's close (it was cancelled, the
"close cancelled" notice and the table message written into the gone channel, the close
queued again only by their refusal); a guild merely unavailable (an outage) closes nothing;
a table opened in another channel while the first one's channel is gone keeps both tables'
kush apart; a tournament's guild that takes the bot back mid-hand plays on."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.model import ChatRef, LiveTable
from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, world
from tests.bot.discord.test_brk75_chats import play_hand_one, tournament_dealt
from tests.bot.discord.test_discord_chats import balance_of
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.money import assert_conserved
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord

OTHER = CHANNEL_ID + 1  # a second channel of the guild


def channel_writes(w: World, since: int, channel: int = CHANNEL_ID) -> list[str]:
    """The bot's writes (posts, edits) to ``channel`` among the calls from ``since`` on."""
    prefix = f"/channels/{channel}/"
    return [f"{c.method} {c.path}" for c in w.fake.calls[since:] if c.path.startswith(prefix)]


async def kicked_and_invited_back(w: World) -> int:
    """The bot is kicked from the guild (GUILD_DELETE) and invited back (GUILD_CREATE of a
    guild it is not in: ``on_guild_join``); returns the index of the first call after the
    kick."""
    await w.fake.kick_bot()
    await w.fake.wait_for(lambda: w.adapter.client.get_guild(GUILD_ID) is None)
    await w.adapter.idle()
    since = len(w.fake.calls)
    await w.fake.invite_bot()
    await w.fake.wait_for(lambda: w.adapter.client.get_guild(GUILD_ID) is not None)
    await w.adapter.idle()
    await w.service.rt.settled(w.table())
    await w.adapter.presenter.flush()
    return since


@pytest.mark.parametrize("how", ["deleted", "locked"])
async def test_r8_2a_a_reinvite_keeps_the_close_of_a_table_whose_channel_is_gone(
    tmp_path: Path, how: str
) -> None:
    """The table's channel is deleted (CHANNEL_DELETE) or the bot's Send Messages there taken
    away (CHANNEL_UPDATE) mid-hand: the close is queued. The bot is then kicked and invited
    back into the guild before the hand ends: the channel still cannot be written in, so the
    close stands (it was cancelled: "close cancelled" posted into the gone channel and the
    table message edited there, refused, the close queued again only by that refusal).
    The hand is finished in the DMs, the table closes, one hand played, no kush made or
    lost."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None and t.hand_no == 1
        if how == "deleted":
            await w.fake.delete_channel(CHANNEL_ID)
        else:
            await w.fake.lock_channel(CHANNEL_ID)
        await w.fake.wait_for(lambda: t.closing and t.removal_close)
        since = await kicked_and_invited_back(w)
        assert t.closing and t.removal_close
        assert channel_writes(w, since) == []  # nothing written where nobody reads
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        assert t.hand_no == 1 and len(await w.store.export_hands(t.id)) == 1
        for user, lang in ((ALICE, "en"), (BOB, "ru")):
            text = w.fake.dm_messages(user.id)[-1]["content"]
            assert text.startswith(tr(lang, "private.chat_gone", table=t.id)), text
        held = await assert_conserved(w.store)
        assert sum(held.values()) == 2000
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000


async def test_r8_2a_a_reinvite_then_the_channel_unlocked_keeps_the_table(tmp_path: Path) -> None:
    """As above with the channel locked: the re-add leaves the close queued, and the channel
    unlocked afterwards (CHANNEL_UPDATE) cancels it, the channel told once; hand 2 is dealt."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        await w.fake.lock_channel(CHANNEL_ID)
        await w.fake.wait_for(lambda: t.closing)
        await kicked_and_invited_back(w)
        assert t.closing
        await w.fake.lock_channel(CHANNEL_ID, locked=False)
        await w.fake.wait_for(lambda: not t.closing)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        await w.adapter.presenter.flush()
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        told = [m for m in w.fake.channel_messages(CHANNEL_ID) if m.get("content") == notice]
        assert len(told) == 1
        await assert_conserved(w.store)


async def test_r8_2a_a_guild_unavailable_mid_hand_closes_nothing(tmp_path: Path) -> None:
    """GUILD_DELETE with ``unavailable`` (a Discord outage, discord.py's
    ``on_guild_unavailable``, not a removal) mid-hand, then GUILD_CREATE when it is back
    (``on_guild_available``): the table is not closed, the hand is settled and hand 2 is
    dealt."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        await w.fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID), "unavailable": True})
        await w.fake.wait_for(lambda: w.adapter.client.get_guild(GUILD_ID).unavailable)
        assert not t.closing
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.dispatch("GUILD_CREATE", w.fake.guild_json())
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert not t.closing and t.id in w.service.tables
        await assert_conserved(w.store)


def table_in(w: World, channel: int) -> LiveTable:
    t = w.service.table_in(ChatRef("discord", str(GUILD_ID), str(channel), ""))
    assert t is not None
    return t


async def test_r8_2a_a_new_table_elsewhere_while_the_old_channel_is_gone(tmp_path: Path) -> None:
    """The table's channel is deleted mid-hand; its two players open a table in another
    channel of the guild and buy in there from their balances while the first hand is still
    played out in the DMs. The first table then closes, its stacks back in the balances;
    the second plays on. Every kush is accounted for, no hidden card reaches a channel."""
    fake = FakeDiscord(TOKEN, channels=(CHANNEL_ID, OTHER))
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            leaks = w.watch_leaks()
            await seat_everyone(w, [ALICE, BOB])
            first = w.table()
            await w.fake.delete_channel(CHANNEL_ID)
            await w.fake.wait_for(lambda: first.closing)
            await w.slash(ALICE, "new", channel_id=OTHER)
            for u in (ALICE, BOB):
                await w.slash(u, "join", channel_id=OTHER)
            for u in (ALICE, BOB):
                await w.slash(u, "ready", channel_id=OTHER)
            second = table_in(w, OTHER)
            assert second.id != first.id and second.hand is not None
            assert await balance_of(w, ALICE.id) == await balance_of(w, BOB.id) == 600
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await w.fake.wait_for(lambda: first.id not in w.service.tables)
            await w.adapter.presenter.flush()
            assert second.hand is not None and second.hand_no == 1 and not second.closing
            # the first table's stacks are back: 1,600 kush in balances, 400 at the second
            assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 1600
            held = await assert_conserved(w.store)
            assert sum(held.values()) == 2000
            assert leaks == []
    finally:
        await fake.stop()


async def test_r8_7_a_tournament_whose_guild_takes_the_bot_back_mid_hand_plays_on(
    tmp_path: Path,
) -> None:
    """A three-player tournament: the bot kicked mid-hand (its close queued) and invited back
    before the hand ends, the channel writable: the close is cancelled, hand 2 is dealt,
    every buy-in stays in the pool (900 kush left in each balance)."""
    async with world(tmp_path) as w:
        t = await tournament_dealt(w)
        await w.fake.kick_bot()
        await w.fake.wait_for(lambda: t.closing)
        await w.fake.invite_bot()
        await w.fake.wait_for(lambda: not t.closing)
        await play_hand_one(w, t)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        for user in (ALICE, BOB, CAROL):
            assert await balance_of(w, user.id) == 900
        await assert_conserved(w.store)
