"""dsc42: Discord sends MESSAGE_DELETE only to a connection with the guild messages intent
(GUILD_MESSAGES, 1 << 9; DIRECT_MESSAGES in DMs), which the bot does not ask for
(:func:`bot.discord.adapter.default_intents`: guilds and moderation). A deleted table message
is learnt of when its next edit fails (404, 10008), not from the gateway; the fake withholds
the event as Discord does, so that a handler of it cannot pass a test against an event the
bot never gets."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.discord.adapter import default_intents
from tests.bot.discord.dc_world import ALICE, World, world
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID


async def _events_after_a_delete(w: World) -> list[str]:
    """The gateway events the bot's client gets when the table message is deleted, up to a
    TYPING_START sent after it (a marker every connection gets here)."""
    got: list[str] = []

    async def seen(event: str) -> None:
        got.append(event)

    w.adapter.client.on_socket_event_type = seen  # type: ignore[attr-defined]
    await w.slash(ALICE, "new")
    table = w.table_message()
    deleted = {"id": str(table["id"]), "channel_id": str(CHANNEL_ID), "guild_id": str(GUILD_ID)}
    await w.fake.dispatch("MESSAGE_DELETE", deleted)
    marker = {"channel_id": str(CHANNEL_ID), "guild_id": str(GUILD_ID), "user_id": "1"}
    await w.fake.dispatch("TYPING_START", {**marker, "timestamp": 0})
    for _ in range(3000):  # (until the marker came: events arrive in order)
        if "TYPING_START" in got:
            break
        await asyncio.sleep(0.01)
    assert "TYPING_START" in got, got
    return got


async def test_the_bot_gets_no_message_delete_with_its_intents(tmp_path: Path) -> None:
    """With the bot's intents the deletion of its table message comes as no event; asked
    with the guild messages intent too, it would."""
    assert not default_intents().guild_messages
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with world(tmp_path / "a") as w:
        assert "MESSAGE_DELETE" not in await _events_after_a_delete(w)
    more = default_intents()
    more.guild_messages = True
    async with world(tmp_path / "b", intents=more) as w:
        assert "MESSAGE_DELETE" in await _events_after_a_delete(w)
