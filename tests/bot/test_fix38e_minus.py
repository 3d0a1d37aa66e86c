"""fix38e: a negative figure a player reads is written with the minus sign U+2212, as the
showdown pictures draw it ("−15 pts" on the picture, "-15 pts" in the text beside it with a
hyphen-minus, narrower than the plus): the templates' numbers, :func:`bot.texts.signed` (the
photo captions, /stats), the statistics' averages, a Chinese Poker reveal's stage points
and the running game's score. What players type is read with either sign."""

from __future__ import annotations

from bot.service.numbers import read_whole
from bot.service.stats import _avg
from bot.texts import MINUS, minus, signed, tr


def test_negative_figures_take_the_minus_sign_the_pictures_draw() -> None:
    assert MINUS == "\u2212" == signed(-15, "en", drawn=True)[0]
    assert tr("en", "showdown.points", points=-15) == "−15 pts"
    assert tr("ru", "showdown.points", points=-15) == "−15 очков"
    assert tr("ru", "showdown.points", points=-1) == "−1 очко"
    assert tr("en", "showdown.points", points=15) == "+15 pts"
    assert tr("en", "showdown.points", points=0) == "0 pts"
    assert tr("en", "showdown.kush", delta=-60, label="kush", stack=140) == "−60 kush → 140"
    assert tr("ru", "showdown.kush", delta=-12000, label="kush", stack=5) == (
        "−12\u00a0000 кушей → 5"
    )
    assert tr("en", "showdown.kush", delta=-12000, label="kush", stack=5) == "−12,000 kush → 5"
    # a number without a sign of its own (a Chinese Poker game total below zero, R7.1)
    assert tr("en", "reply.history_line_game", table=1, hand=2, points=-3, total=-9, target=51,
              foul="") == (
        "Table #1, hand 2: −3 pts, game −9/51 · settled when the game ends"
    )  # fmt: skip
    assert signed(-50, "en") == "−50" and signed(-250000, "ru") == "−250\u00a0000"
    assert signed(50, "en") == "+50" and signed(0, "en") == "+0"
    assert (_avg(-12, 2), _avg(-12, 2, "ru"), _avg(3, 2)) == ("−6.0", "−6,0", "+1.5")
    assert (minus("-5"), minus("+5"), minus("  -5"), minus("5")) == ("−5", "+5", "  −5", "5")


def test_typed_numbers_are_read_with_either_minus() -> None:
    assert read_whole("−15") == read_whole("-15") == -15


def test_an_ambiguous_comma_names_both_readings_with_the_same_sign() -> None:
    """rev38: "Is “-1,500” −1500 or -1.5?": the whole number took the minus sign (a template's
    number), the fraction (a text) kept the hyphen, one sentence with two signs. Both take
    the hyphen, as typed and as the rest of a /settings answer ("from -12 to 14")."""
    from bot.service.numbers import comma_hint

    assert comma_hint("-1,500", "en") == (
        "Is “-1,500” -1500 or -1.5? Write -1500, or -1.5 for the fraction."
    )
    assert comma_hint("−1,500", "ru") == (
        "«−1,500» — это -1500 или -1,5? Напишите -1500 или, если дробь, -1,5."
    )
    assert (
        comma_hint("1,500", "en") == "Is “1,500” 1500 or 1.5? Write 1500, or 1.5 for the fraction."
    )
