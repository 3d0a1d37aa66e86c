"""brk52: attacks on fixmember (chat_member departures) and fixnu47 (/grant me, Russian
computer player names)."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.tg_world import ALICE, GROUP_ID, world


async def test_an_anonymous_admins_grant_me_makes_no_wallet_for_the_group(
    tmp_path: Path,
) -> None:
    """An anonymous admin writes as the group (GroupAnonymousBot, a bot account): "me" names
    no member. ``/grant me 100`` made a wallet for GroupAnonymousBot ("Group", first on /top)
    with the grant in it; now it is answered as every player's command sent as the group is,
    nothing made."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        mid = await w.fake.send_anonymous(GROUP_ID, "/grant me 100")
        reply = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
        assert reply["text"] == tr("en", "reply.anonymous"), reply
        top = await w.say(ALICE, "/top")
        assert "Group" not in top["text"], top["text"]
        assert (await w.say(ALICE, "/grant me 100"))["text"] == "Alice: +100 kush, balance 1100."
