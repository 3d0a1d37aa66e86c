"""fixtake2: the players' DM hands across a restart and a takeover on Discord (issue 14).
A restart or a worker taking a table over posted every player's DM hand anew, the old ones
keeping buttons that answered "out of date". Taken over, each DM hand is written over (the
seat's snapshot names it); at a restart it is posted anew and the old one written as moved,
its buttons gone. (Telegram: tests/bot/test_fixtake2_private_hands.py.)"""

from __future__ import annotations

from pathlib import Path

from bot.model import ChatRef
from bot.texts import tr
from storage.api import lease_key
from tests.bot.discord.dc_world import ALICE, BOB, World, world
from tests.bot.discord.shard_world import guild_on_shard, two_workers, until
from tests.fakes.discord_api import CHANNEL_ID, TOKEN, FakeDiscord

GUILD = guild_on_shard(1)
CHAT = ChatRef("discord", str(GUILD), str(CHANNEL_ID), "")
KEY = lease_key("discord", str(CHANNEL_ID))
TTL = 3.0  # (as tests/bot/discord/test_takeover_table_message.py)


async def _deal(w: World) -> None:
    await w.slash(ALICE, "new")
    for user in (ALICE, BOB):
        await w.press_lobby(user, "j")
    for user in (ALICE, BOB):
        await w.press_lobby(user, "r")
    t = w.table()
    assert t.hand is not None
    await w.service.rt.settled(t)
    await w.adapter.presenter.flush()


def _dm_ids(fake: FakeDiscord, user_id: int) -> list[int]:
    """The bot's messages in the user's DM channel (by id), not deleted."""
    channel = fake.dm_channels.get(user_id)
    return sorted(
        int(m["id"])
        for m in fake.messages.values()
        if channel is not None
        and int(m["channel_id"]) == channel
        and int(m["id"]) not in fake.deleted
    )


async def test_r14_a_restart_writes_the_old_dm_hands_as_moved(tmp_path: Path) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await _deal(w)
            old = {u.id: int((w.dm(u) or {})["id"]) for u in (ALICE, BOB)}
            table_id = w.table().id
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.service.rt.settled(w.table())
            await w.adapter.presenter.flush()
            moved = tr("en", "private.hand_moved", table=table_id)
            for u in (ALICE, BOB):
                new = int((w.dm(u) or {})["id"])
                assert new != old[u.id]
                gone = fake.messages[old[u.id]]
                assert gone["content"] == moved and not gone.get("components"), gone
            assert all(m["content"] != moved for m in fake.channel_messages())
    finally:
        await fake.stop()


async def test_r14_a_discord_takeover_writes_each_dm_hand_over(tmp_path: Path) -> None:
    async with two_workers(tmp_path / "ofc.sqlite3", GUILD, ttl=TTL) as (fake, w0, w1):
        play = w1.world(fake)
        await _deal(play)
        t = play.table()
        await w1.service.rt.drain()  # (the snapshot names the DM hands)
        old = {u.id: int((play.dm(u) or {})["id"]) for u in (ALICE, BOB)}
        dms = {u.id: _dm_ids(fake, u.id) for u in (ALICE, BOB)}
        assert all(old[u] in dms[u] for u in old)

        await w1.kill()
        await until(lambda: w0.worker.holds(KEY), 12 * TTL, "w0 serves the table")
        moved = w0.service.table_in(CHAT)
        assert moved is not None and moved.id == t.id and moved.hand is not None
        await w0.service.rt.settled(moved)
        await w0.adapter.presenter.flush()
        play = w0.world(fake)
        for u in (ALICE, BOB):
            assert int((play.dm(u) or {})["id"]) == old[u.id]  # the same DM, written over
            assert _dm_ids(fake, u.id) == dms[u.id]  # none posted
        # the hand's buttons work through w0
        actor = ALICE if moved.seats[moved.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        msg = fake.messages[old[actor.id]]
        custom_id = next(cid for (a, _), cid in play.buttons(msg).items() if a == "p")
        record = await play.press(actor, msg, custom_id)
        assert play.notice(record) is None, record
