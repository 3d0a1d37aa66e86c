"""Admins and bad input, a break-it round: what is sent on behalf of a channel, and other
refusals that must be clear and change nothing (Telegram through the real adapter and the
fake Bot API)."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world

#: Channel_Bot, the one Telegram user every message sent on behalf of a channel comes from
CHANNEL_BOT = "136817688"


async def test_a_member_posting_as_a_channel_opens_no_table_and_runs_none(
    tmp_path: Path,
) -> None:
    """A member writes on behalf of their channel (``sender_chat`` a channel, ``from``
    Channel_Bot, which every channel shares): /newtable opened a table whose opener was
    Channel_Bot, and then anyone posting as any other channel was that table's opener,
    seating and standing up computer players on house kush. A channel opens nothing, and
    every command that needs a person (a player's, an opener's, an admin's) is answered that
    it was sent on behalf of a channel (it said "Sent as the group (an anonymous admin)" to
    /join, and "Only group admins" to an admin posting as their channel)."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}

        async def as_channel(channel: int, text: str) -> str:
            mid = await w.fake.send_as_channel(GROUP_ID, channel, text)
            reply = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
            return str(reply["text"])

        refused = tr("en", "reply.as_channel")
        assert refused == (
            "Sent on behalf of a channel: a channel does not play or run tables here. "
            "Send it as yourself."
        )
        assert await as_channel(-100900, "/newtable") == refused
        assert await as_channel(-100900, "/tournament") == refused
        assert not w.service.tables
        reply = await w.say(BOB, "/newtable")
        assert reply["text"] == "Стол #1 открыт.", reply
        t = next(iter(w.service.tables.values()))
        assert t.opener == str(BOB.id)
        for command in ("/addbot", "/removebot", "/join", "/balance", "/settings hand_seconds 30",
                        "/grant @bob 100", "/closetable"):  # fmt: skip
            assert await as_channel(-100800, command) == refused, command
        assert t.id in w.service.tables and not t.seats
        community = await w.store.community("telegram", str(GROUP_ID))
        assert "hand_seconds" not in community.settings.options
        assert await w.store.find_player(community.id, CHANNEL_BOT) is None
        reply = await w.say(BOB, "/balance")
        assert reply["text"] == "Bob: 1000 кушей на балансе, 0 на столе.", reply
