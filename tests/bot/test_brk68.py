"""brk68: bugs found attacking the changes merged on day 39 (fix39e–fix39g)."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from tests.bot.tg_world import ALICE, GROUP_ID, world

PLAYER_2 = FakeUser(313, "Player 2", None, "en")
BOND = FakeUser(314, "Bond 007", None, "en")


async def test_a_grant_to_a_name_with_digits_reads_an_amount_grouped_by_spaces(
    tmp_path: Path,
) -> None:
    """``/grant Player 2 1 000`` (a name with a number, the amount grouped as Russian writes
    it, read since fix39g) took "Player" as the name and "2 1 000" as the amount: refused
    with the digits hint, though the one reading is "Player 2" gets 1 000. The second
    reading was only the last word ("Player 2 1" gets "000")."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        for who in (PLAYER_2, BOND):
            await w.say(who, "/balance")
        reply = await w.say(ALICE, "/grant Player 2 1 000")
        assert reply["text"] == tr("en", "reply.granted", name="Player 2", amount=1000,
                                   label="kush", balance=2000), reply  # fmt: skip
        reply = await w.say(ALICE, "/grant Bond 007 10 000")
        assert reply["text"] == tr("en", "reply.granted", name="Bond 007", amount=10000,
                                   label="kush", balance=11000), reply  # fmt: skip
        reply = await w.say(ALICE, "/grant Bond 007 -1 000")
        assert reply["text"] == tr("en", "reply.granted", name="Bond 007", amount=-1000,
                                   label="kush", balance=10000), reply  # fmt: skip
