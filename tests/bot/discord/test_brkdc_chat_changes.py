"""Break-it session (brkdc): the Discord chat changes under a running table: the bot kicked
from the guild and invited back, across restarts (R8.2a), and a press whose interaction
Discord no longer knows (10062), through the real discord.py client and the fake
Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, components, world
from tests.bot.discord.test_discord_chats import balance_of
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord


@pytest.mark.parametrize("kicked", ["while_running", "while_stopped"])
async def test_r8_2a_a_table_closed_after_a_restart_while_kicked_is_written_closed_on_reinvite(
    tmp_path: Path, kicked: str
) -> None:
    """R8.2a: the bot is kicked from the guild mid-hand (GUILD_DELETE; or while it is
    stopped, no event: its first writes answer 403/50001) and restarted while still out. The
    restart posts the table message anew, which Discord refuses; the hand is finished in the
    DMs, the table closes with both stacks back. Invited back, the bot wrote "Table #1 is
    closed." as a new message, and the group's table message (the only one it has, from
    before the restart) kept hand 1 with its Join/Ready buttons for good. Now that message
    is written as closed, no buttons, and nothing is posted beside it; a restart after
    that writes nothing again."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            table, mid = t.id, int(w.table_message()["id"])
            if kicked == "while_running":
                await fake.kick_bot()
                await fake.wait_for(lambda: t.closing)
        if kicked == "while_stopped":
            await fake.kick_bot(announce=False)
        async with world(tmp_path, fake=fake, db=db) as w:
            t = w.table()
            assert t.hand is not None and t.hand_no == 1
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await fake.wait_for(lambda: t.id not in w.service.tables)
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert components(fake.messages[mid])  # (nothing written while out)
            before = len(fake.channel_messages(CHANNEL_ID))
            await fake.invite_bot()
            closed = tr("en", "reply.table_closed", table=table)
            await fake.wait_for(lambda: fake.messages[mid]["content"] == closed)
            await fake.wait_for(lambda: not w.service.rt.closing)
            await w.adapter.presenter.flush()
            assert components(fake.messages[mid]) == []
            assert len(fake.channel_messages(CHANNEL_ID)) == before  # none posted beside it
            assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
            assert await check_store(w.store) == []
            assert await w.store.closed_snapshots() == []  # (forgotten once written)
        async with world(tmp_path, fake=fake, db=db) as w:
            assert not w.service.tables
            assert len(fake.channel_messages(CHANNEL_ID)) == before
            assert fake.messages[mid]["content"] == closed
    finally:
        await fake.stop()


async def test_r8_2a_a_lobby_closed_at_a_restart_while_kicked_is_written_closed_on_reinvite(
    tmp_path: Path,
) -> None:
    """R8.2a: the bot is kicked while it is stopped, its table between hands with Alice
    ready. The restarted bot's new table message is refused (403/50001), which closes the
    table at once, Alice's buy-in back. Invited back, the channel's table message (from
    before the restart, with its Join and Ready buttons) is written as closed."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.slash(ALICE, "new")
            await w.press_lobby(ALICE, "j")
            await w.slash(ALICE, "ready")
            table, mid = w.table().id, int(w.table_message()["id"])
            assert await balance_of(w, ALICE.id) == 800
        await fake.kick_bot(announce=False)
        async with world(tmp_path, fake=fake, db=db) as w:
            await fake.wait_for(lambda: not w.service.tables)
            await fake.wait_for(lambda: not w.service.rt.closing)
            assert await balance_of(w, ALICE.id) == 1000
            before = len(fake.channel_messages(CHANNEL_ID))
            await fake.invite_bot()
            closed = tr("en", "reply.table_closed", table=table)
            await fake.wait_for(lambda: fake.messages[mid]["content"] == closed)
            await w.adapter.presenter.flush()
            assert components(fake.messages[mid]) == []
            assert len(fake.channel_messages(CHANNEL_ID)) == before
            assert await check_store(w.store) == []
    finally:
        await fake.stop()


async def test_r8_2a_a_table_closed_while_kicked_is_written_closed_when_reinvited_while_stopped(
    tmp_path: Path,
) -> None:
    """R8.2a: the bot is kicked mid-hand, the hand is finished in the DMs and the table
    closes, its table message waiting for the bot's return. The bot is stopped and invited
    back meanwhile: the restarted bot gets the guild in READY (``on_guild_available``), never
    ``on_guild_join``, so the message kept hand 1 with its buttons until someone pressed
    one. Now the start writes it as closed, once; a start while the channel is still locked
    to the bot leaves it waiting (written when the bot may write there)."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            table, mid = t.id, int(w.table_message()["id"])
            await fake.kick_bot()
            await fake.wait_for(lambda: t.closing)
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await fake.wait_for(lambda: t.id not in w.service.tables)
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
        fake.bot_kicked = False  # invited back while the bot is stopped: no event
        # but Send Messages is denied to @everyone in the channel now
        deny = {"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": str(1 << 11)}
        fake.channels[CHANNEL_ID]["permission_overwrites"] = [deny]
        fake.locked_channels.add(CHANNEL_ID)
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.adapter.presenter.flush()
            assert components(fake.messages[mid])  # (still waiting)
            assert len(await w.store.closed_snapshots()) == 1
        fake.channels[CHANNEL_ID]["permission_overwrites"] = []
        fake.locked_channels.discard(CHANNEL_ID)
        before = len(fake.channel_messages(CHANNEL_ID))
        async with world(tmp_path, fake=fake, db=db) as w:
            closed = tr("en", "reply.table_closed", table=table)
            await fake.wait_for(lambda: fake.messages[mid]["content"] == closed)
            await fake.wait_for(lambda: not w.service.rt.closing)
            await w.adapter.presenter.flush()
            assert components(fake.messages[mid]) == []
            assert len(fake.channel_messages(CHANNEL_ID)) == before
            assert await w.store.closed_snapshots() == []
            assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
            assert await check_store(w.store) == []
    finally:
        await fake.stop()


async def test_r8_2a_a_closed_table_s_message_waits_for_the_channel_after_the_reinvite(
    tmp_path: Path,
) -> None:
    """R8.2a: the bot is kicked mid-hand and the table closes after it; the bot is invited
    back, but the table's channel denies it Send Messages. The closed message's edit was
    made at the re-join, refused, and forgotten: when the channel let the bot write again
    the message still showed hand 1 with its buttons, for good. Now it waits for the
    channel: written as closed once the bot may write there (CHANNEL_UPDATE)."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        table, mid = t.id, int(w.table_message()["id"])
        await w.fake.kick_bot()
        await w.fake.wait_for(lambda: t.closing)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        deny = {"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": str(1 << 11)}
        w.fake.channels[CHANNEL_ID]["permission_overwrites"] = [deny]
        w.fake.locked_channels.add(CHANNEL_ID)
        await w.fake.invite_bot()
        await w.fake.wait_for(lambda: w.adapter.client.get_guild(GUILD_ID) is not None)
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        assert components(w.fake.messages[mid])  # (not written: the bot may not yet)
        assert len(await w.store.closed_snapshots()) == 1  # still waiting
        await w.fake.lock_channel(CHANNEL_ID, locked=False)
        closed = tr("en", "reply.table_closed", table=table)
        await w.fake.wait_for(lambda: w.fake.messages[mid]["content"] == closed)
        await w.fake.wait_for(lambda: not w.service.rt.closing)
        assert components(w.fake.messages[mid]) == []
        assert await w.store.closed_snapshots() == []
        assert await check_store(w.store) == []


async def test_a_press_on_my_cards_whose_token_discord_no_longer_knows_shows_the_card_placed(
    tmp_path: Path,
) -> None:
    """R3.4: Alice places a card on her ephemeral "🂠 My cards" hand, and Discord refuses the
    press's answer with 404 Unknown interaction (10062: the token expired, or the answer
    came too late). The card is placed (the step is saved), but the hand she plays on kept
    the screen from before the press, the card still in her hand with its buttons. Now it
    is written through the interaction that showed it last, as the DM hand is."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        first = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        seat = t.seat_of(str(first.id))
        assert seat is not None
        msg = await w.hand_message(first, "ephemeral")
        card, box = w.plan_street(first)[0]
        assert box is not None
        custom_id = w.buttons(msg)[("p", card.text + box.value[0])]
        unknown = {"message": "Unknown interaction", "code": 10062}
        w.fake.fail_next["callback"] = [(404, unknown)]
        await w.fake.press(first, msg, custom_id)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand.pending(seat.seat))
        assert t.hand.pending(seat.seat) == ((card, box),)
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        dm = w.dm(first)
        assert dm is not None
        assert dm["content"] != msg["content"]  # (the DM hand shows the card placed)
        await w.fake.wait_for(
            lambda: w.fake.messages[int(msg["id"])]["content"] == dm["content"], timeout=5
        )
        assert w.buttons(w.fake.messages[int(msg["id"])]) == w.buttons(dm)
        assert len(w.logged) == 1 and "10062" in w.logged[0], w.logged
        w.logged.clear()  # (the refused answer, on purpose)
        await w.play_hand([ALICE, BOB], {ALICE.id: "ephemeral", BOB.id: "ephemeral"})
        assert t.hand_no == 2
        assert await check_store(w.store) == []
