"""/stats' fouls and per-hand figures fit a phone's width (fixsmall): with royalties,
Chinese Poker's bonuses and its points all present the Russian line was 122 characters."""

from __future__ import annotations

import pytest

from bot.service import stats as stats_mod
from storage.api import HandStats

#: every figure of the fouls line present: open-face and Chinese Poker hands, many boards
EVERY_PART = HandStats(hands=1500, players=1, boards=1500, points=9000, kush=-300, fouls=1234,
                       royalties=6400, bonuses=150, bonus_boards=100, chinese_hands=100,
                       chinese_points=1234, fl_chances=1400, fl_entered=20)  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("group", [False, True])
def test_the_fouls_line_with_every_part_fits_a_phone(lang: str, group: bool) -> None:
    lines = stats_mod._stats_lines(EVERY_PART, lang, "kush", group=group)
    start = next(i for i, x in enumerate(lines) if x.startswith(("Fouls:", "Мёртвые руки:")))
    end = next(i for i, x in enumerate(lines) if x.startswith(("Fantasyland", "Фантазия")))
    figures = lines[start:end]
    assert all(len(x) <= stats_mod.LINE_WIDTH for x in figures), figures
    if lang == "ru":
        expected = [
            "Мёртвые руки: 82% (1234 из 1500 досок)",
            "Роялти за раздачу: 4,6",
            "Бонус за комбинации за раздачу: 1,5",
        ]
        if not group:
            expected.append("Очки китайского покера за раздачу: 12,3")
    else:
        expected = [
            "Fouls: 82% (1234 of 1500 boards)",
            "Royalties/hand 4.6",
            "Strength bonus/hand 1.5",
        ]
        if not group:
            expected.append("Chinese Poker points/hand 12.3")
    assert figures == expected


def test_fit_joins_what_fits_and_starts_a_line_with_a_capital() -> None:
    assert stats_mod._fit(["a" * 30, "bb", "c" * 10, "d" * 50, "e"]) == [
        "A" + "a" * 29 + " · bb",
        "C" + "c" * 9,
        "D" + "d" * 49,  # (longer than a line: a line of its own)
        "E",
    ]
