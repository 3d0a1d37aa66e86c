"""Settings cosmetics fixpg38 mended: a list with an empty place typed with semicolons
("/settings payouts 100;;") was told of a place "between commas"; a time zone in full-width
digits ("５:45") was told of quarter hours, not of the digits 0–9; "-0:00" was stored as -0.0."""

from __future__ import annotations

import math

import pytest

from bot.service.settings import SETTINGS, SettingRefused, updated
from bot.texts import tr
from storage.api import CommunitySettings
from tests.bot.test_settings import ALICE, BORIS, new_service, say, stored


@pytest.mark.parametrize(("actor", "lang"), [(ALICE, "en"), (BORIS, "ru")])
async def test_an_empty_place_typed_with_semicolons_is_told_with_semicolons(
    actor: object, lang: str
) -> None:
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, "payouts", "100;;", actor=actor)  # type: ignore[arg-type]
    assert reply.alert and reply.text is not None
    said = {
        "en": "payouts: a prize place has no percentage (“50;;50”): write one for each place.",
        "ru": "призы: у призового места нет процента («50;;50»): укажите процент каждого места.",
    }[lang]
    assert said in reply.text, reply.text
    assert "," not in said and "comma" not in reply.text and "запят" not in reply.text
    assert await stored(store) == before


@pytest.mark.parametrize(
    ("typed", "sep"),
    [("100;;", ";"), ("70;;30", ";"), (";70;30", ";"), ("50,,50", ","), ("70, ,30", ","),
     (",", ","), ("50,30;;20", ";")],
)  # fmt: skip
def test_the_example_uses_the_separator_typed_at_the_empty_place(typed: str, sep: str) -> None:
    with pytest.raises(SettingRefused) as refused:
        updated(CommunitySettings(), "payouts", typed)
    assert refused.value.says("en") == (
        f"payouts: a prize place has no percentage (“50{sep}{sep}50”): write one for each place."
    )


@pytest.mark.parametrize("typed", ["５:45", "５:４５", "-３:30", "5:４５"])
@pytest.mark.parametrize(("actor", "lang"), [(ALICE, "en"), (BORIS, "ru")])
async def test_a_time_zone_in_full_width_digits_is_told_the_digits(
    typed: str, actor: object, lang: str
) -> None:
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, "utc_offset", typed, actor=actor)  # type: ignore[arg-type]
    assert reply.alert and reply.text is not None
    assert reply.text.endswith(tr(lang, "reply.number_digits")), reply.text
    assert tr(lang, "settings.zone_quarters") not in reply.text, reply.text
    assert await stored(store) == before


def test_a_time_zone_of_ascii_digits_off_the_quarters_still_gets_the_quarters_hint() -> None:
    with pytest.raises(SettingRefused) as refused:
        SETTINGS["utc_offset"].parse("5:40")
    assert refused.value.says("en").endswith("\n" + tr("en", "settings.zone_quarters"))


@pytest.mark.parametrize("typed", ["-0:00", "-0", "-0,0", "-0.00", "−0:00", "+0:00", "0"])
async def test_minus_zero_is_stored_as_zero(typed: str) -> None:
    value = SETTINGS["utc_offset"].parse(typed)
    assert value == 0 and math.copysign(1, value) == 1, value  # type: ignore[arg-type]
    service, store = new_service()
    reply = await say(service, "utc_offset", typed)
    assert not reply.alert and reply.text is not None, reply.text
    assert reply.text.startswith("Saved: utc_offset = 0 "), reply.text
    offset = (await stored(store)).utc_offset
    assert offset == 0 and math.copysign(1, offset) == 1, offset
