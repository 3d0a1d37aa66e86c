"""fix39j: ``/stats``' averages grouped their thousands by hand (``stats._avg``, its own
Russian grouping); ``bot.texts.grouped_tenths`` is the one format of a grouped number with
one decimal, in both languages, and ``_avg`` reads as before."""

from __future__ import annotations

import pytest

from bot.service.stats import _avg
from bot.texts import MINUS, grouped_tenths


@pytest.mark.parametrize(
    ("value", "lang", "sign", "shown"),
    [
        (1.5, "en", False, "1.5"),
        (1.5, "ru", False, "1,5"),
        (1.5, "en", True, "+1.5"),
        (0.0, "ru", True, "+0,0"),
        (-6.0, "ru", True, MINUS + "6,0"),
        (999.95, "en", True, "+1,000.0"),  # grouped as rounded
        (999.94, "en", False, "999.9"),
        (5000.25, "ru", False, "5000,2"),  # (Russian groups from five digits)
        (9999.95, "ru", False, "10\u00a0000,0"),
        (-1234567.85, "en", False, MINUS + "1,234,567.9"),
        (-1234567.85, "ru", True, MINUS + "1\u00a0234\u00a0567,9"),
    ],
)
def test_a_grouped_number_with_one_decimal(value: float, lang: str, sign: bool, shown: str) -> None:
    assert grouped_tenths(value, lang, sign=sign) == shown


def test_stats_averages_read_as_before() -> None:
    assert _avg(-12, 2) == MINUS + "6.0" and _avg(-12, 2, "ru") == MINUS + "6,0"
    assert _avg(3, 2) == "+1.5" and _avg(0, 0) == "—"
    assert _avg(199999, 20, "ru") == "+10\u00a0000,0"
    assert _avg(-250000, 2, "ru") == MINUS + "125\u00a0000,0"
