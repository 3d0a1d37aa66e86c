"""A stored ``hand_seconds`` below :data:`~bot.service.settings.MIN_HAND_SECONDS` (saved
before that minimum, R8.5) read as the default, 120 s: it reads as the minimum, 30 s, the
value nearest to the group's choice (fixsmall)."""

from __future__ import annotations

import dataclasses

from bot.service.settings import SETTINGS, table_options, updated
from storage.api import CommunitySettings
from tests.bot.test_settings import new_service, say, stored


def test_r8_5_a_number_stored_beyond_its_range_reads_as_the_nearest_end() -> None:
    for raw, seconds in ((15, 30.0), (7.5, 30.0), (0, 30.0), (5000, 3600.0), (90, 90.0)):
        s = CommunitySettings(game="pineapple", options={"hand_seconds": raw})
        assert table_options(s).hand_seconds == seconds, raw
    # a whole-number option too; what is no number in range at all still reads the default
    s = CommunitySettings(game="pineapple", options={"kush_per_point": 0})
    assert table_options(s).kush_per_point == 1
    for raw in ("abc", "nan", float("nan"), float("inf"), True, None):
        options = {"hand_seconds": raw, "kush_per_point": raw}
        opts = table_options(CommunitySettings(options=options))
        assert (opts.hand_seconds, opts.kush_per_point) == (120.0, 1), raw
    kush = table_options(CommunitySettings(options={"kush_per_point": 2.5}))  # (no whole one)
    assert kush.kush_per_point == 1
    assert SETTINGS["hand_seconds"].stored(15) == 30.0


def test_r8_5_another_change_keeps_the_clamped_value_not_the_default() -> None:
    """Changing another setting checks every stored option again: the old 15 s was dropped
    there (the default saved in its place); it is saved as 30 s."""
    s = CommunitySettings(game="pineapple", options={"hand_seconds": 15})
    after = updated(s, "time_bank_seconds", "60")
    assert after.options["hand_seconds"] == 30.0
    assert table_options(after).hand_seconds == 30.0


async def test_r8_5_the_settings_message_shows_the_stored_short_budget_as_30() -> None:
    service, store = new_service()
    await say(service, "hand_seconds", "60")  # (the group exists, its settings saved)
    community = await store.community("telegram", "-100")
    older = dataclasses.replace(community.settings, options={"hand_seconds": 15})
    await store.update_settings(community.id, older)
    reply = await say(service, "hand_seconds")
    assert reply.text.endswith(
        "Now: 30 s (default 120 s)." + "\n/settings hand_seconds default gives it back its default."
    ), reply.text  # (it said "Now: 120")
    assert (await stored(store)).options["hand_seconds"] == 15  # (reading saves nothing)
