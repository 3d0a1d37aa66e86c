"""brktake: a Discord table taken over from a dead worker (issue 14) keeps the table message
its channel has. w1 (shard 1) serves a lobby with Alice and Bob seated, not ready; it dies
(no lease given up, nothing written). w0 takes shard 1 and the table over: it posted the
table message anew beside the channel's (resumed as at a restart), so the channel had two
table messages with buttons, the old one's looking live. It writes over the one the
snapshot names now."""

from __future__ import annotations

from pathlib import Path

from bot.model import ChatRef
from bot.texts import tr
from storage.api import lease_key
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.shard_world import guild_on_shard, two_workers, until
from tests.fakes.discord_api import CHANNEL_ID, TOKEN, FakeDiscord

GUILD = guild_on_shard(1)
CHAT = ChatRef("discord", str(GUILD), str(CHANNEL_ID), "")
KEY = lease_key("discord", str(CHANNEL_ID))
TTL = 3.0  # (as tests/bot/discord/test_shard_failover.py: both workers share one loop)


def _with_buttons(messages: list[dict[str, object]]) -> list[str]:
    return [str(m["id"]) for m in messages if m.get("components")]


async def test_r14_a_discord_table_taken_over_keeps_its_table_message(tmp_path: Path) -> None:
    async with two_workers(tmp_path / "ofc.sqlite3", GUILD, ttl=TTL) as (fake, w0, w1):
        play = w1.world(fake)
        await play.slash(ALICE, "new")
        for user in (ALICE, BOB):
            await play.press_lobby(user, "j")
        t = play.table()
        assert len(t.seats) == 2 and t.hand is None
        await w1.service.rt.settled(t)
        await w1.adapter.presenter.flush()
        await w1.service.rt.drain()  # (the snapshot names the table message)
        ref = t.group_ref
        assert ref is not None and ref.isdigit()
        assert _with_buttons(fake.channel_messages()) == [ref]
        before = [str(m["id"]) for m in fake.channel_messages()]  # ("Table #1 is open." too)

        await w1.kill()
        await until(lambda: w0.worker.holds(KEY), 12 * TTL, "w0 serves the table")
        moved = w0.service.table_in(CHAT)
        assert moved is not None and moved.id == t.id
        await w0.service.rt.settled(moved)
        await w0.adapter.presenter.flush()
        assert moved.group_ref == ref  # the same message, written over
        assert _with_buttons(fake.channel_messages()) == [ref]
        assert [str(m["id"]) for m in fake.channel_messages()] == before  # none posted
        # its buttons work through w0: Alice is ready
        play = w0.world(fake)
        assert str(play.table_message()["id"]) == ref
        await play.press_lobby(ALICE, "r")
        await w0.service.rt.settled(moved)
        seat = moved.seat_of(str(ALICE.id))
        assert seat is not None and seat.ready and seat.stack == 200
        assert _with_buttons(fake.channel_messages()) == [ref]


async def test_the_discord_table_message_from_before_a_restart_is_written_as_moved(
    tmp_path: Path,
) -> None:
    """A restart posts the table message anew (a takeover writes over it, above); once the
    table moved on (Bob joins), the old message is written as moved, its buttons gone: the
    channel has one table message with buttons."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.slash(ALICE, "new")
            await w.press_lobby(ALICE, "j")
            old = str(w.table_message()["id"])
            table_id = w.table().id
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.service.rt.settled(w.table())
            await w.adapter.presenter.flush()
            new = str(w.table_message()["id"])
            assert new != old
            await w.press_lobby(BOB, "j")
            await w.service.rt.settled(w.table())
            await w.adapter.presenter.flush()
            assert [s.name for s in w.table().seats.values()] == ["Alice", "Bob"]
            assert _with_buttons(fake.channel_messages()) == [new]
            assert fake.messages[int(old)]["content"] == tr("en", "table.moved", table=table_id)
    finally:
        await fake.stop()
