"""The card room on Discord attacked as a hostile or confused member would: the cases no
other test covered."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, BOB, world

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
