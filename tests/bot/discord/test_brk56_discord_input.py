"""brk56 on Discord, through discord.py's real client and the fake Discord: a ``custom_id``
that is no text (unpaired UTF-16 surrogates, what a JSON ``\\udXXX`` escape decodes to) is
an unknown button like any other forged one: answered with a short ephemeral notice, and
nothing changes."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, components, world
from tests.fakes.discord_api import EPHEMERAL


async def test_every_press_is_answered_a_custom_id_that_is_no_text(tmp_path: Path) -> None:
    """Carol and Bob press the table message with custom_ids that are no text: the
    adapter's fallback for what no item handled decoded them and raised
    UnicodeEncodeError, so nothing answered ("This interaction failed"); now each gets
    "Unknown button." in the presser's language, and the table is as it was."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        await w.press_lobby(BOB, "j")
        msg = w.table_message()
        join = next(c["custom_id"] for c in components(msg) if c["custom_id"].endswith(":j"))
        t = w.table()
        before = (t.version, sorted(t.seats))
        for forged in (join + "\ud800", "\udcff\udcfe", join[:-1] + "\udcff"):
            for user, lang in ((CAROL, "en"), (BOB, "ru")):
                record = await w.settle(await w.fake.press(user, msg, forged, gone=True))
                notice = w.notice(record)
                assert notice is not None, (forged, record)
                assert notice["flags"] & EPHEMERAL
                assert notice["content"] == tr(lang, "err.forged"), (forged, notice)
        assert (t.version, sorted(t.seats)) == before
        assert all(r.answered for r in w.fake.interactions.values())
