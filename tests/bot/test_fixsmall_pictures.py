"""One signed amount (fixsmall): the picture's panel drew a large kush amount ungrouped
("−250000 kush") where the caption under it says "-250,000 kush" (bot.texts.signed), from a
``_signed`` of its own that bot/charts.py had a twin of. Pictures and charts now use
:func:`bot.texts.signed` with ``drawn=True``: grouped, and still the typographic minus (as
wide as the plus) and a bare 0."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot import charts, pictures
from bot.charts import KushChart
from bot.texts import signed
from tests.bot.test_pictures import SAMPLES


def test_signed_drawn_is_grouped_with_the_typographic_minus() -> None:
    assert signed(-250000, "en", drawn=True) == "−250,000"
    assert signed(-250000, "ru", drawn=True) == "−250\u00a0000"
    assert signed(12000, "en", drawn=True) == "+12,000"
    assert (signed(-5, "en", drawn=True), signed(0, "ru", drawn=True)) == ("−5", "0")
    assert (signed(-250000, "en"), signed(0, "en")) == ("−250,000", "+0")  # (texts too: fix38e)
    assert not hasattr(pictures, "_signed") and not hasattr(charts, "_signed")


@pytest.mark.parametrize(("lang", "amount"), [("en", "−250,000"), ("ru", "−250\u00a0000")])
def test_the_panels_kush_is_grouped_as_the_caption_says_it(lang: str, amount: str) -> None:
    board = dataclasses.replace(SAMPLES["two_boards"].boards[0], kush=-250000, points=-3)
    pic = dataclasses.replace(SAMPLES["two_boards"], lang=lang, boards=(board,))
    line = pictures.board_line(pic, board)
    assert line[0] == f"{amount} {pictures.drawn_word(pic.label, lang, -250000)}"
    assert pictures.corner_of(pic, board)[0] == "−3"


def test_the_charts_amounts_are_grouped_and_drawn_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The net and the axis' amounts grouped; an axis amount too wide for the margin in the
    usual font ("−1,000,000") is drawn smaller, never cut at the image's left edge."""
    drawn: list[tuple[float, str]] = []
    every: list[str] = []
    real_text = charts.ImageDraw.ImageDraw.text

    def text(self: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        font = kwargs.get("font")
        every.append(text)
        if kwargs.get("anchor") == "rm" and font is not None:  # an axis amount, right-aligned
            drawn.append((xy[0] - self.textlength(text, font=font), text))
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(charts.ImageDraw.ImageDraw, "text", text)
    points = ((1_800_000_000.0, -400_000), (1_800_003_600.0, -1_000_000))
    chart = KushChart("Anna", "en", "kush", "all time", points)
    charts.draw_kush_image(chart)
    labels = [t for _, t in drawn]
    assert "−1,000,000" in labels and "0" in labels, labels
    assert all(left >= 0 for left, _ in drawn), drawn
    assert "net −1,000,000 kush" in every, every
