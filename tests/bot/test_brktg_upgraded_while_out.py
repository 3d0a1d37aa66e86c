"""R8.2a (brktg): an admin removes the bot from a basic group mid-hand (its table's close is
queued), the group is upgraded to a supergroup while the bot is out, and the bot is added
back to the supergroup (adding it back as an admin is what upgrades a basic group). The
bot hears nothing of the upgrade (its service messages were posted while it was out): its
``my_chat_member`` names the supergroup, where no table is, so nothing was cancelled; the
next write to the old group, refused with ``migrate_to_chat_id``, moved the table there,
still closing, and the table closed after the hand although the bot was back and could
write. The moved table is now looked at as the bot stands in the supergroup (as at a
start): the close is cancelled, the group told, and hands go on there. Still out of the
supergroup, the close stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.model import ChatRef
from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world

NEW_GROUP = -100777


async def removed_then_upgraded(w: World) -> None:
    w.fake.started_users.update({ALICE.id, BOB.id})
    await seat_everyone(w, [ALICE, BOB])
    t = next(iter(w.service.tables.values()))
    assert t.hand is not None and t.hand_no == 1
    await w.fake.remove_bot(GROUP_ID, by=ALICE)
    await w.fake.wait_for(lambda: t.closing)
    await w.settle()
    await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)  # (the bot is out)


async def community_total(w: World) -> int:
    community = await w.store.community("telegram", str(NEW_GROUP))
    return sum(total for _, total in await w.store.leaderboard(community.id))


async def test_r8_2a_the_bot_added_back_to_the_upgraded_group_keeps_the_table(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        await removed_then_upgraded(w)
        t = next(iter(w.service.tables.values()))
        await w.fake.add_bot(NEW_GROUP, by=ALICE, admin=True)
        await w.settle()
        assert t.hand is not None
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)  # (a write: the move)
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        await w.fake.wait_for(lambda: not t.closing)
        await w.settle()
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        assert notice in [m["text"] for m in w.fake.chat_messages(NEW_GROUP)]
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert w.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP))) is t
        assert t.hand is not None and t.hand_no == 2
        assert await community_total(w) == 2000
        assert await check_store(w.store) == []


@pytest.mark.parametrize("still", ["out", "muted"])
async def test_r8_2a_the_bot_still_out_of_the_upgraded_group_closes_the_table(
    tmp_path: Path, still: str
) -> None:
    async with world(tmp_path) as w:
        await removed_then_upgraded(w)
        if still == "muted":  # added back, but restricted there
            await w.fake.add_bot(NEW_GROUP, by=ALICE)
            await w.fake.restrict_bot(NEW_GROUP, by=ALICE)
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        await w.settle()
        assert t.closing
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        assert await community_total(w) == 2000
        community = await w.store.community("telegram", str(NEW_GROUP))
        for u in (ALICE, BOB):
            player = await w.store.find_player(community.id, str(u.id))
            assert player is not None and player.balance != 1000  # the stacks are back
        assert await check_store(w.store) == []


async def test_r8_2a_the_bot_added_back_to_the_upgraded_group_while_down_keeps_the_table(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """The same, the bot added back to the supergroup while it was stopped: the restart
    moves the table there and cancels the close; hand 2 is dealt there."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        await removed_then_upgraded(w)
        tid = next(iter(w.service.tables))
    await tg_api.add_bot(NEW_GROUP, by=ALICE, admin=True)
    async with world(tmp_path, fake=tg_api, db=db) as w:
        t = w.service.tables[tid]
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        await w.fake.wait_for(lambda: not t.closing)
        await w.settle()
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand is not None and t.hand_no == 2
        assert await community_total(w) == 2000
        assert await check_store(w.store) == []
