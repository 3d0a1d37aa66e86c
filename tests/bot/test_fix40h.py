"""fix40h: small leftovers, each in English and Russian where a player reads it.

1. ``/grant @bob - 100`` (the sign typed as a word of its own) answered "No such player
   here: @bob -": the sign is the amount's now, "-100", which takes as ``/grant @bob -100``
   does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.wallet import GrantWords, read_grant, signed_words
from bot.texts import tr
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


# -- 1. a sign typed apart from the amount ---------------------------------------------------
@pytest.mark.parametrize("sign", ["-", "−", "–"])
def test_read_grant_takes_a_lone_sign_as_the_amounts(sign: str) -> None:
    assert read_grant(["@bob", sign, "100"]) == GrantWords("@bob", f"{sign}100")
    assert read_grant(["Anna", "Maria", sign, "1", "000"]) == GrantWords(
        "Anna Maria", f"{sign}1 000", (f"Anna Maria {sign}1", "000")
    )
    assert read_grant([sign, "100"], replied=True) == GrantWords("", f"{sign}100")


def test_a_sign_before_no_number_stays_a_word() -> None:
    assert signed_words(["Anna", "-", "Maria", "100"]) == ["Anna", "-", "Maria", "100"]
    assert signed_words(["@bob", "-"]) == ["@bob", "-"]
    assert signed_words(["@bob", "+", "5"]) == ["@bob", "+5"]


@pytest.mark.parametrize("sign", ["-", "−"])
async def test_grant_with_the_sign_apart_takes_on_telegram(tmp_path: Path, sign: str) -> None:
    """Alice (an admin, English) takes 100 of Bob's 1000 typing ``/grant @bob - 100``: it was
    "No such player here: @bob -", nothing taken."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")
        reply = await w.say(ALICE, f"/grant @bob {sign} 100")
        assert reply["text"] == tr("en", "reply.granted", name="Bob", amount=-100,
                                   label="kush", balance=900), reply  # fmt: skip
