"""R8.2a (fixperm): the bot loses the right to see or write in its table's channel BETWEEN
hands (a permission overwrite, Send Messages taken from @everyone, the bot's own role taken
away: CHANNEL_UPDATE, GUILD_ROLE_UPDATE, GUILD_MEMBER_UPDATE), through the real discord.py
client and the fake Discord.

Only the table message's edit at the next deal found it out (403 50013/50001): hand 2 was
dealt into a channel nobody could read, played out in the DMs and ephemeral hands, and only
then did the table close. Now the gateway's update closes it at once, as the refused write
would between hands (the players told in their DMs, every stack back), and the channel's
table message is written as closed once the bot may write there again."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, World, components, world
from tests.bot.discord.test_discord_chats import balance_of
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import BOT_ROLE_ID, CHANNEL_ID, GUILD_ID

#: the deal of the next hand waits this long after a showdown (the permission is taken
#: away meanwhile)
NEXT_HAND = 2.0


async def lose_write(w: World, how: str) -> None:
    if how == "overwrite":
        await w.fake.lock_channel(CHANNEL_ID)
    elif how == "hidden":
        await w.fake.lock_channel(CHANNEL_ID, hide=True)
    elif how == "everyone":
        await w.fake.lock_guild()
    else:  # the bot's own role taken away (@everyone may not send: lock_guild before)
        await w.fake.set_bot_role(False)


async def get_write_back(w: World, how: str) -> None:
    if how in ("overwrite", "hidden"):
        await w.fake.lock_channel(CHANNEL_ID, locked=False)
    elif how == "everyone":
        await w.fake.lock_guild(locked=False)
    else:
        await w.fake.set_bot_role(True)


@pytest.mark.parametrize("how", ["overwrite", "hidden", "everyone", "role"])
async def test_r8_2a_a_channel_locked_between_hands_deals_no_hand_into_it(
    tmp_path: Path, how: str
) -> None:
    """Hand 1 is over, hand 2 not yet dealt; the bot loses Send Messages (or View Channel)
    in the table's channel. No hand 2: the table closes at once, each player told in their
    DMs and their stack back (2,000 kush between them, as before); given the permission
    back, the channel's table message says the table is closed, and a new table may be
    opened there."""
    async with world(tmp_path, next_hand_delay=NEXT_HAND) as w:
        if how == "role":
            await w.fake.set_bot_role(True)
            await w.fake.lock_guild()
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        table = t.id
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        assert t.hand is None and t.hand_no == 1
        await lose_write(w, how)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await asyncio.sleep(NEXT_HAND + 0.5)  # (the deal's time went by)
        assert t.hand is None and t.hand_no == 1
        assert len(await w.store.export_hands(table)) == 1
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        for user, lang in ((ALICE, "en"), (BOB, "ru")):
            text = w.fake.dm_messages(user.id)[-1]["content"]
            assert text.startswith(tr(lang, "private.chat_gone", table=table)), text
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert w.service.rt.table_at("discord", str(CHANNEL_ID)) is None
        closed = tr("en", "reply.table_closed", table=table)
        last = int(w.fake.channel_messages(CHANNEL_ID)[-1]["id"])  # hand 1's, unchanged
        assert w.fake.messages[last]["content"] != closed
        await get_write_back(w, how)
        await w.fake.wait_for(lambda: w.fake.messages[last]["content"] == closed)
        assert components(w.fake.messages[last]) == []
        reply = await w.slash(ALICE, "new")
        assert reply["content"].startswith("Table #"), reply
        assert await check_store(w.store) == []


@pytest.mark.parametrize("told", [True, False])
async def test_r8_2a_my_cards_still_plays_a_hand_in_a_channel_locked_mid_hand(
    tmp_path: Path, told: bool
) -> None:
    """The bot loses Send Messages mid-hand (``told``: CHANNEL_UPDATE says so; else nothing,
    and the next refused write does). The hand is played out and the table closes after it,
    hand 2 never dealt. Bob has closed his DMs: "My cards" on the table message, which
    still shows the street it showed when the edits began to be refused, was refused as out
    of date ("This button is out of date") every time, so Bob could not see his cards any
    more and the clock played for him (R8.5). Now it opens his hand as it is now."""
    async with world(tmp_path, next_hand_delay=NEXT_HAND) as w:
        w.fake.closed_dms.add(BOB.id)
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        if told:
            await w.fake.lock_channel(CHANNEL_ID)
            await w.fake.wait_for(lambda: t.closing)
        else:
            w.fake.locked_channels.add(CHANNEL_ID)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "ephemeral"})
        assert t.closing and t.removal_close
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        assert t.hand_no == 1 and len(await w.store.export_hands(t.id)) == 1
        assert not any(s.timed_out for s in t.seats)  # (Bob played every street himself)
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


async def test_r8_2a_the_bot_s_role_deleted_between_hands_deals_no_hand(tmp_path: Path) -> None:
    """@everyone may not send; the bot writes through a role of its own, which an admin
    deletes between hands (GUILD_ROLE_DELETE, no GUILD_MEMBER_UPDATE: the member keeps no
    role that is gone). The bot listened to no such event: hand 2 was dealt into a channel
    it could not write in. Now the table closes at once, as for a role taken away."""
    async with world(tmp_path, next_hand_delay=NEXT_HAND) as w:
        await w.fake.set_bot_role(True)
        await w.fake.lock_guild()
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        assert t.hand is None and t.hand_no == 1
        w.fake.bot_roles = []
        w.fake._lock_text_channels()
        data = {"guild_id": str(GUILD_ID), "role_id": str(BOT_ROLE_ID)}
        await w.fake.dispatch("GUILD_ROLE_DELETE", data)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await asyncio.sleep(NEXT_HAND + 0.5)
        assert t.hand is None and t.hand_no == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []
