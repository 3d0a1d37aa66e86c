"""Admins and bad input, a break-it round: what is sent on behalf of a channel, and other
refusals that must be clear and change nothing (Telegram through the real adapter and the
fake Bot API)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import tr
from tests.bot.test_settings import BORIS, new_service, say, stored
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


@pytest.mark.parametrize(
    ("name", "value", "english", "russian"),
    [
        ("payouts", "50,40", "payouts: the percentages must add up to 100; these add up to 90",
         "payouts: проценты должны давать в сумме 100, а эти дают 90"),
        ("payouts", "30,70", "payouts: best place first; a worse place cannot get more than a "
         "better one", "payouts: сначала первое место; худшее место не может получать больше "
         "лучшего"),
        ("payouts", "60,40,-0", "payouts: whole numbers separated by commas, each of the digits "
         "0–9 and at most 9 of them, e.g. “70,30”", "payouts: целые числа через запятую, каждое "
         "из цифр 0–9 и не длиннее 9 цифр, например «70,30»"),
        ("chips_schedule", "20,10", "chips_schedule: chips per point cannot fall from one level "
         "to the next", "chips_schedule: цена очка в фишках не может падать от уровня к уровню"),
        ("chips_schedule", "0,10", "chips_schedule: every level's chips per point is at least 1",
         "chips_schedule: цена очка на каждом уровне — не меньше 1 фишки"),
        # ten digits: whole numbers all the same, too long (it said "whole numbers separated
        # by commas", which they were)
        ("chips_schedule", "10,1000000000", "chips_schedule: whole numbers separated by commas, "
         "each of the digits 0–9 and at most 9 of them, e.g. “10,15,20,30”", "chips_schedule: "
         "целые числа через запятую, каждое из цифр 0–9 и не длиннее 9 цифр, например "
         "«10,15,20,30»"),
    ],
    ids=["sum", "order", "negative-zero", "schedule-falls", "schedule-zero", "ten-digits"],
)  # fmt: skip
async def test_a_refused_tournament_list_is_explained_in_the_admins_language(
    name: str, value: str, english: str, russian: str
) -> None:
    """``payouts`` and ``chips_schedule`` refused by the tournament they would make were
    answered with the core's English ("payouts must add up to 100 %, got [50, 40]"), to a
    Russian admin too. Each refusal says what is wrong in the admin's language; nothing is
    saved."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, name, value)
    assert reply.alert and reply.text == "Cannot set that: " + english, reply.text
    reply = await say(service, name, value, actor=BORIS)
    assert reply.alert and reply.text == "Нельзя установить: " + russian, reply.text
    assert await stored(store) == before
