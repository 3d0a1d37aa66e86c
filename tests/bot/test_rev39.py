"""rev39 (review of the day's merge): what a refused amount is told.

A whole number grouped by points with another script's digits ("1.٠٠٠", Arabic-Indic zeros)
was told to be written "1٠٠٠, without the “.”": a number of those digits, refused again.
``numbers.THOUSANDS`` read ``\\d`` (every script's digits), where every other number of
:mod:`bot.service.numbers` is the ASCII digits 0–9; it is told the digits 0–9, as "١٠٠" is."""

from __future__ import annotations

import pytest

from bot.service.numbers import digits_hint, read_whole
from bot.texts import tr
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say, stored

ARABIC_ZEROS = "\u0660\u0660\u0660"  # "٠٠٠"


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("typed", [f"1.{ARABIC_ZEROS}", f"1,{ARABIC_ZEROS}", f"12.{ARABIC_ZEROS}"])
def test_a_number_of_other_digits_grouped_is_told_the_digits_0_9(typed: str, lang: str) -> None:
    assert read_whole(typed) is None
    assert digits_hint(lang, typed) == tr(lang, "reply.number_grouped")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_number_of_ascii_digits_grouped_by_points_is_still_told_to_drop_them(
    lang: str,
) -> None:
    assert digits_hint(lang, "1.000") == tr(
        lang, "reply.number_thousands", value="1.000", whole="1000", mark="."
    )


@pytest.mark.parametrize("actor", [ALICE, BORIS], ids=["en", "ru"])
async def test_a_whole_number_setting_tells_other_digits_grouped_the_digits_0_9(
    actor: object,
) -> None:
    service, store = new_service()
    before = await stored(store)
    lang = actor.language  # type: ignore[attr-defined]
    reply = await say(service, "min_buy_in", f"1.{ARABIC_ZEROS}", actor=actor)  # type: ignore[arg-type]
    assert reply.alert and reply.text.endswith("\n" + tr(lang, "reply.number_grouped")), reply.text
    assert ARABIC_ZEROS not in reply.text.split("\n")[-1]
    assert await stored(store) == before


async def test_grant_tells_other_digits_grouped_the_digits_0_9() -> None:
    service, _store = new_service()
    await service.balance(GROUP, ALICE)
    reply = await service.grant(GROUP, BORIS, True, "1", f"5.{ARABIC_ZEROS}", "k1")
    hint = tr("ru", "reply.number_grouped")
    assert reply.alert and reply.text.startswith(hint + "\n"), reply.text


@pytest.mark.parametrize(
    ("total", "count", "lang", "shown"),
    [
        (19999, 20, "en", "+1,000.0"),  # 999.95: 1000.0 once rounded
        (-19999, 20, "en", "\u22121,000.0"),
        (199999, 20, "ru", "+10\u00a0000,0"),  # 9999.95
        (20000, 20, "en", "+1,000.0"),
        (19980, 20, "en", "+999.0"),  # (below a thousand: not grouped)
    ],
)
def test_an_average_rounded_up_to_a_thousand_is_grouped_as_one(
    total: int, count: int, lang: str, shown: str
) -> None:
    """/stats' averages (kush a hand, points a hand): grouping was decided on the value
    before its rounding to one decimal, so 999.95 read "+1000.0" beside "+1,000.0"."""
    from bot.service.stats import _avg

    assert _avg(total, count, lang) == shown
