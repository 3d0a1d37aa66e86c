"""ux43: refusals that answered the wrong thing (bad input gets a clear message and changes
nothing): ``/kick me`` sent as the group, ``/grant 1 000`` with nobody named, an empty level
of ``chips_schedule`` told as a place of the payouts, and refusals that quoted back an
invisible character the user copied, or any length of text."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


async def test_kick_me_sent_as_the_group_is_refused_as_grant_me_is(tmp_path: Path) -> None:
    """An anonymous admin (GroupAnonymousBot, the group as ``sender_chat``) types ``/kick
    me`` at an open table: "me" names no member, so it gets the refusal of a command sent as
    the group, as ``/grant me 100`` does, in the group's language (English, then Russian),
    and nobody stands up. It answered "you are not seated here"."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/newtable")
        await w.say(BOB, "/join")
        t = next(iter(w.service.tables.values()))
        seated = set(t.seats)

        async def anonymous(text: str) -> str:
            mid = await w.fake.send_anonymous(GROUP_ID, text)
            reply = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
            return str(reply["text"])

        for text in ("/kick me", "/kick ME", "/grant me 100"):
            assert await anonymous(text) == tr("en", "reply.anonymous"), text
        assert set(t.seats) == seated
        await w.say(ALICE, "/settings language ru")
        assert await anonymous("/kick я") == tr("ru", "reply.anonymous")
        assert set(t.seats) == seated
        # an anonymous admin still stands up a player named
        assert await anonymous("/kick Bob") == "Bob встаёт из-за стола по решению админа."
        assert t.seat_of(str(BOB.id)) is None
