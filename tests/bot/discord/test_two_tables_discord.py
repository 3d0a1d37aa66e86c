"""One player at two tables in two channels of a guild at once, through discord.py's real
client and the fake Discord: each table's hidden cards stay in that table's own messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.model import ChatRef, LiveTable
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, action_of, components, world
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord

OTHER = CHANNEL_ID + 1  # a second channel of the guild, with a table of its own


def table_in(w: World, channel: int) -> LiveTable:
    t = w.service.table_in(ChatRef("discord", str(GUILD_ID), str(channel), ""))
    assert t is not None
    return t


def lobby_message(w: World, channel: int) -> dict[str, Any]:
    for m in reversed(w.fake.channel_messages(channel)):
        if any(action_of(c) == "j" for c in components(m)):
            return m
    raise AssertionError(f"no table message in {channel}")


async def my_cards(w: World, channel: int) -> dict[str, Any]:
    """Alice presses "🂠 My cards" on the table message of ``channel``."""
    msg = lobby_message(w, channel)
    custom_id = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
    record = await w.press(ALICE, msg, custom_id)
    return w.fake.messages[record.messages[-1]]


def tables_on(message: dict[str, Any]) -> set[int]:
    """The tables the message's buttons act on."""
    from bot.presses import table_of

    return {n for c in components(message) if (n := table_of(c.get("custom_id"))) is not None}


async def test_my_cards_of_one_table_never_shows_the_other_tables_hand(tmp_path: Path) -> None:
    """Alice plays at #1 (with Bob) and at #2 (with Carol). She opens "🂠 My cards" at #1;
    then #2 deals. Her ephemeral hand of #1 keeps showing #1 (it used to be rewritten
    with #2's hand and buttons: the bot keeps one live ephemeral hand per player, so a
    press on the message she opened at #1 played at #2). Each table's "My cards" is kept
    up to date with its own table only."""
    fake = FakeDiscord(TOKEN, channels=(CHANNEL_ID, OTHER))
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            await w.slash(ALICE, "new")
            await w.slash(CAROL, "new", channel_id=OTHER)
            for user, channel in ((ALICE, CHANNEL_ID), (BOB, CHANNEL_ID), (ALICE, OTHER)):
                await w.slash(user, "join", channel_id=channel)
            await w.slash(CAROL, "join", channel_id=OTHER)
            for user in (ALICE, BOB):
                await w.slash(user, "ready")
            one, two = table_in(w, CHANNEL_ID), table_in(w, OTHER)
            assert one.hand is not None and two.hand is None
            first = await my_cards(w, CHANNEL_ID)
            assert first["content"].startswith(f"🃏 Table #{one.id} ") and tables_on(first) == {
                one.id
            }
            for user in (ALICE, CAROL):
                await w.slash(user, "ready", channel_id=OTHER)
            assert two.hand is not None
            await w.adapter.presenter.flush()
            first = w.fake.messages[int(first["id"])]
            assert first["content"].startswith(f"🃏 Table #{one.id} "), first["content"]
            assert tables_on(first) <= {one.id}
            second = await my_cards(w, OTHER)
            assert second["content"].startswith(f"🃏 Table #{two.id} ")
            assert second["id"] != first["id"]
            # a street is played at #1: Alice's #1 hand follows it, her #2 hand stays
            acting = one.seats[one.hand.to_act[0]].user_id
            before = first["content"]
            await w.play_street(ALICE if acting == str(ALICE.id) else BOB, "dm")
            await w.adapter.presenter.flush()
            first = w.fake.messages[int(first["id"])]
            second = w.fake.messages[int(second["id"])]
            assert first["content"] != before, before
            assert first["content"].startswith(f"🃏 Table #{one.id} ")
            assert tables_on(first) <= {one.id}
            assert second["content"].startswith(f"🃏 Table #{two.id} ")
            assert tables_on(second) <= {two.id}
    finally:
        await fake.stop()
