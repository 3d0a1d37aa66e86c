"""The card room on Discord attacked as a hostile or confused member would: the cases no
other test covered."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_two_tables_discord import OTHER, seated_at_two_tables
from tests.fakes.discord_api import CHANNEL_ID

EPHEMERAL = 64


async def test_a_period_none_of_the_choices_is_refused_naming_the_option(tmp_path: Path) -> None:
    """``/ofc stats period:year`` (a choice of an old command list, or forged) was read as a
    player's name: "No such player here: year.", about an option that names no player. A
    value outside an option's declared choices is answered as an option of another type
    is (``reply.option_outdated`` naming it), in the user's language; nothing runs."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        before = len(w.fake.channel_messages(w.table_message()["channel_id"]))
        for user, lang in ((ALICE, "en"), (BOB, "ru")):
            for sub in ("stats", "top"):
                reply = await w.slash(user, sub, {"period": "year"})
                assert reply["flags"] & EPHEMERAL, reply
                assert reply["content"] == tr(lang, "reply.option_outdated", option="period")
        reply = await w.slash(ALICE, "stats", {"period": "week"})  # a choice still works
        assert reply["content"] == "No hands played (last 7 days).", reply
        assert len(w.fake.channel_messages(w.table_message()["channel_id"])) == before


async def test_balance_counts_the_stack_at_the_servers_other_table(tmp_path: Path) -> None:
    """Alice bought in at two tables of the server (two channels). ``/ofc balance`` in one
    said "600 on balance, 200 at the table" while ``/ofc top`` said 1000: the other
    table's 200 was nowhere. It names the stacks at the server's other tables too, EN and
    RU, and the sum is ``/top``'s."""
    async with seated_at_two_tables(tmp_path) as w:
        await w.slash(BOB, "join", channel_id=OTHER)  # Bob at #2 too (Carol stays unready)
        for user, channel in ((ALICE, CHANNEL_ID), (ALICE, OTHER), (BOB, OTHER)):
            await w.slash(user, "ready", channel_id=channel)
        reply = await w.slash(ALICE, "balance")
        assert reply["content"] == (
            "Alice: 600 kush on balance, 200 at the table, 200 at other tables here."
        ), reply
        reply = await w.slash(BOB, "balance")  # Bob's only stack is at the other table
        assert reply["content"] == (
            "Bob: 800 кушей на балансе, 0 на столе, 200 за другими столами здесь."
        ), reply
        reply = await w.slash(BOB, "balance", channel_id=OTHER)
        assert reply["content"] == "Bob: 800 кушей на балансе, 200 на столе.", reply
        top = (await w.slash(ALICE, "top"))["content"].splitlines()
        assert top[1:] == ["1. Alice — 1,000 kush", "2. Bob — 1,000 kush", "3. Carol — 1,000 kush"]
