"""Small refusals of ``/settings`` a new user met: a fraction for a whole-number setting was
told to use "the digits 0–9 only, without separators", and a refusal ended with a period for
"abc" but without one for -5, 0 or a huge number."""

from __future__ import annotations

import pytest

from bot.service.settings import SETTINGS
from tests.bot.test_settings import ALICE, BORIS, new_service, say, stored

RANGE = {
    "en": "Cannot set that — kush_per_point takes a whole number from 1 to 1,000,000 kush.",
    "ru": "Не удалось изменить куш_за_очко: целое число от 1 до 1\u00a0000\u00a0000 кушей.",
}


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_fraction_for_a_whole_number_setting_is_told_it_takes_whole_numbers(
    lang: str,
) -> None:
    service, store = new_service()
    actor = ALICE if lang == "en" else BORIS
    before = await stored(store)
    reply = await say(service, "kush_per_point", "2.5", actor=actor)
    hint = {
        "en": "Whole numbers only: 2 or 3, not 2.5.",
        "ru": "Только целые числа: 2 или 3, а не 2,5.",
    }[lang]
    assert reply.alert and reply.text == RANGE[lang] + "\n" + hint, reply.text
    reply = await say(service, "kush_per_point", "0,5", actor=actor)  # (0 is out of range)
    hint = {
        "en": "Whole numbers only: 1, not 0.5.",
        "ru": "Только целые числа: 1, а не 0,5.",
    }
    assert reply.alert and reply.text == RANGE[lang] + "\n" + hint[lang], reply.text
    assert await stored(store) == before


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("value", ["-5", "0", "99999999999999999999", "1000001"])
async def test_every_refusal_of_a_number_ends_with_a_period(lang: str, value: str) -> None:
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, "kush_per_point", value, actor=ALICE if lang == "en" else BORIS)
    assert reply.alert and reply.text == RANGE[lang], reply.text
    assert await stored(store) == before


def test_the_fraction_each_range_shows_is_taken_by_its_setting() -> None:
    """hand_seconds said "(7.5 for a fraction)", which it refuses: every fractional setting's
    example ("a fraction like 7.5 is fine") is one it takes."""
    for spec in SETTINGS.values():
        text = spec.range_text("en")
        if "(a fraction like " in text:
            example = text.rsplit("(a fraction like ", 1)[1].split(" ")[0]
            assert spec.parse(example) == float(example), spec.name
