"""ux43 on Discord: ``/ofcadmin kick`` of a member not seated quotes their name once
escaped. The adapter escaped it (``discord_name``) and the service escaped what it quotes
again: "a_b" showed as "a\\_b", its backslash visible."""

from __future__ import annotations

from pathlib import Path

from bot.discord.presenter import discord_name
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.fakes.discord_api import FakeUser

UNDERSCORED = FakeUser(305, "a_b *c*", "en-US")


async def test_kick_of_a_member_not_seated_escapes_their_name_once(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB):
            await w.slash(u, "join")
        (t,) = w.service.rt.tables.values()
        seated = set(t.seats)
        reply = await w.slash(ALICE, "kick", {"user": UNDERSCORED}, admin=True)
        assert reply["content"] == r"a\_b \*c\* is not seated here.", reply
        assert reply["content"] == f"{discord_name('a_b *c*')} is not seated here."
        assert set(t.seats) == seated
