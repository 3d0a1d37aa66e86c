"""How players and admins write numbers: one reading for every amount a command takes
(``/grant``, ``/topup``, a whole-number setting of ``/settings``), and the fractions of a
setting that takes them (with a decimal point or, as Russian writes them, a decimal comma).

A whole number may be typed back as the bot writes it, its thousands grouped (:func:`grouped
<bot.texts.grouped>`: "5,000", "10 000" with a no-break space): :func:`ungrouped`. A setting
that takes fractions does not read them so ("1,500": fifteen hundred, or one and a half?
:func:`ambiguous_comma`).

Python's ``int()`` (and pydantic) read far more than anyone types as an amount: other scripts'
digits ("٣", full-width "１００"), "1_000", surrounding signs and spaces; ``str.isdecimal``
takes the other scripts' digits too. Here a number is written with the ASCII digits 0–9 only,
after an optional sign; anything else is refused with :func:`digits_hint`. A minus may be
typed as a typographic one (:data:`MINUSES`: the minus sign the bot's own texts print, a dash
a phone put for "-").
"""

from __future__ import annotations

import re
import unicodedata

from bot.texts import tr

__all__ = [
    "HUGE",
    "MINUSES",
    "THOUSANDS",
    "ambiguous_comma",
    "ascii_sign",
    "comma_hint",
    "digits_hint",
    "fraction_typed",
    "grouped_fraction",
    "read_fraction",
    "read_whole",
    "thousands_hint",
    "unformatted",
    "ungrouped",
]

#: What digits beyond any limit read as (and a number cut short, "123…"): above every range a
#: command takes, so it is refused with that range, never wrapped or cut to fit.
HUGE = 10**18

#: What is read as a minus before a number besides "-": the minus sign U+2212 (the bot's
#: texts print its figures with it: "−15 pts", "−60 kush"; /settings' ranges and values
#: keep "-", as typed back: "from -12 to 14"), the hyphens and dashes a phone's
#: keyboard or autocorrection puts for "-" (U+2010–U+2014), and the small and full-width
#: hyphen-minus (U+FE63, U+FF0D)
MINUSES = "\u2212\u2010\u2011\u2012\u2013\u2014\ufe63\uff0d"


def unformatted(text: str) -> str:
    """``text`` without invisible format characters (category Cf: zero-width spaces, joiners,
    direction marks), which a copied value or name brings along unseen: "30\u200b" refused
    as no number showed the admin a number."""
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def ascii_sign(text: str) -> str:
    """``text`` with spaces around it and invisible format characters (:func:`unformatted`)
    dropped and a leading :data:`MINUSES` sign written as "-" ("−100" → "-100"); anything
    else unchanged."""
    text = unformatted(text).strip()
    return "-" + text[1:] if text[:1] in MINUSES else text


#: ``[0-9]`` is ASCII only (``\d`` would take every script's digits).
_WHOLE = re.compile(r"([+-]?)([0-9]+)(…?)")

#: What separates a whole number's thousands where it is grouped: a comma (English, as the
#: bot writes "5,000"), a space, a no-break space (Russian, as it writes "10 000"), a thin or
#: a narrow no-break space (typographers' and some keyboards').
GROUP_MARKS = ", \u00a0\u2009\u202f"


def _grouped_by(marks: str) -> re.Pattern[str]:
    """A whole number with its thousands grouped by one of ``marks``, the same mark
    throughout: its sign (group 1), 1–3 ASCII digits, the first not 0 (group 2), then groups
    of exactly three, each after the mark (group 3: the mark). The one shape of a grouped
    number, read (:data:`_GROUPED`) or told to be written without its points
    (:data:`THOUSANDS`)."""
    return re.compile(
        r"([+-]?)([1-9][0-9]{0,2})([" + re.escape(marks) + r"])[0-9]{3}(?:\3[0-9]{3})*"
    )


#: A whole number grouped as the bot writes one ("1,000,000", "10 000"): :func:`ungrouped`.
_GROUPED = _grouped_by(GROUP_MARKS)
_NUMBER = re.compile(r"([+-]?[0-9]+)(?:([.,])([0-9]+))?")


def ungrouped(text: str) -> str:
    """``text`` as :func:`ascii_sign` writes it, and, when it is a whole number with its
    thousands grouped (strictly: 1–3 digits, the first not 0, then groups of three after
    one of :data:`GROUP_MARKS`, the same one throughout), without the marks: "5,000" →
    "5000", "−10 000" → "-10000", "1,000,000" → "1000000". As every amount is written
    (:func:`bot.texts.grouped`), so typed back it has one reading as a whole number. Not
    grouped, and unchanged: "1,5", "1,50", "0,500", "1.000", "1,000 000", "10,00"."""
    text = ascii_sign(text)
    m = _GROUPED.fullmatch(text)
    if m is None:
        return text
    return m.group(1) + "".join(ch for ch in text if ch in "0123456789")


def read_whole(text: str) -> int | None:
    """The whole number ``text`` is written as (spaces around it ignored), or ``None`` when it
    is not one: "100", "-5", "+5" are, and so are its thousands grouped as the bot writes
    amounts (:func:`ungrouped`: "5,000", "10 000", "1 000 000"); "١٠٠", "１００", "1_000",
    "1.000", "1,5", "1e3", "5.0", "0x10" and "" are not; "−100" (a typographic minus,
    :data:`MINUSES`) is -100. More digits than any amount has (or digits cut short with "…"
    where a command was read) read as :data:`HUGE`, with their sign."""
    m = _WHOLE.fullmatch(ungrouped(text))
    if m is None:
        return None
    sign, digits, cut = m.groups()
    value = HUGE if cut or len(digits.lstrip("0")) > len(str(HUGE)) - 1 else int(digits)
    return -value if sign == "-" else value


def read_fraction(text: str) -> str | None:
    """``text`` (spaces around it ignored) as a number an admin writes, spelt with a decimal
    point for Python to read, or ``None`` when it is not one: ASCII digits, a sign, a
    decimal point ("7.5") or a decimal comma ("7,5" → "7.5"; Russian writes fractions so);
    not "1e3", "1_0", "inf", other scripts' digits, "1.000,5", nor a comma before exactly
    three digits (:func:`ambiguous_comma`); a typographic minus (:data:`MINUSES`) as "-"."""
    m = _NUMBER.fullmatch(ascii_sign(text))
    if m is None or ambiguous_comma(text):
        return None
    whole, mark, fraction = m.groups()
    return f"{whole}.{fraction}" if mark else whole


def ambiguous_comma(text: str) -> bool:
    """Whether ``text`` is digits, a comma and exactly three digits ("1,500"): fifteen
    hundred to an English reader (a thousands separator), one and a half to a Russian one
    (a decimal comma). Read as neither: the admin is asked to write it again. A whole part
    that begins with 0 ("0,500", "-0,125", "00,250") is no thousands-grouped number (no one
    writes five hundred "0,500"): it is the fraction, not ambiguous (it was asked again, "Is
    “0,500” 500 or 0.5?"); so is "0,000", zero either way."""
    m = _NUMBER.fullmatch(ascii_sign(text))
    if m is None or m.group(2) != "," or len(m.group(3)) != 3:
        return False
    return not m.group(1).lstrip("+-").startswith("0")


#: A whole number with its thousands grouped by points ("1.500", "12.000.000"), in the ASCII
#: digits 0–9 ("1.٠٠٠" was told to be written "1٠٠٠"): no whole number, told to be written
#: without them (:func:`thousands_hint`). One grouped by commas is read (:func:`ungrouped`).
THOUSANDS = _grouped_by(".")


def thousands_hint(lang: str, text: str) -> str:
    """What a whole number written with its thousands grouped by points (:data:`THOUSANDS`:
    "1.500", as some write an amount) is told, in ``lang``: to write it without them
    ("“1.500”: write 1500, without the “.”."). (One grouped by commas, as the bot prints
    English amounts, is read where a whole number is: :func:`ungrouped`.)

    :raises AssertionError: ``text`` is not :data:`THOUSANDS`' (spaces around it aside)."""
    text = text.strip()
    m = THOUSANDS.fullmatch(text)
    assert m is not None, text
    return tr(lang, "reply.number_thousands", value=text, whole=text.replace(m[3], ""), mark=m[3])


def fraction_typed(text: str) -> bool:
    """Whether ``text`` (spaces around it ignored) is a number with a fraction that is not 0:
    a whole part as :func:`read_whole` reads one (its thousands grouped or not), then a
    decimal point or comma it does not group by, then ASCII digits not all 0: "2.5", "2,5",
    "-0,25", "1 000,5" (Russian), "1,000.5" (English). Not "1,00" nor "5.0" (as likely a
    slip as a fraction: told how to write a number), "1.000,5", ",5", "1,5,5", nor a whole
    number ("1,500" is fifteen hundred, :func:`ungrouped`)."""
    return _fraction_parts(ascii_sign(text)) is not None


def _fraction_parts(text: str) -> tuple[int, str] | None:
    """A :func:`fraction_typed` number ``text`` (its sign in ASCII, :func:`ascii_sign`) as
    its whole part, read (:func:`read_whole`), and the digits after its decimal mark;
    ``None`` for any other text."""
    if read_whole(text) is not None:
        return None
    cut = max(text.rfind("."), text.rfind(","))
    head, mark, tail = text[:cut], text[cut : cut + 1], text[cut + 1 :]
    if cut < 0 or not (tail.isascii() and tail.isdigit()) or not tail.strip("0"):
        return None
    whole = None if mark in head else read_whole(head)
    return None if whole is None else (whole, tail)


def grouped_fraction(text: str) -> str | None:
    """A :func:`fraction_typed` number whose whole part has its thousands grouped ("1 000,5",
    "1,000.5", "−1 000,75"), spelt with a decimal point for Python to read, ungrouped
    ("1000.5", "-1000.75"); ``None`` for any other text (one :func:`read_fraction` reads,
    "2,5", is no grouped one)."""
    text = ascii_sign(text)
    parts = _fraction_parts(text)
    if parts is None or read_fraction(text) is not None:
        return None
    sign = "-" if text.startswith("-") else ""
    return f"{sign}{abs(parts[0])}.{parts[1]}"


def digits_hint(lang: str, text: str = "", *, whole: bool = True) -> str:
    """What a refused number ``text`` is told, in ``lang``: the digits 0–9, their thousands
    grouped or not (``whole``: an amount or a whole-number setting, :func:`read_whole`; it
    said "without spaces or separators, 1000, not 1 000" where "1 000" is read); for a
    number that may have a fraction (``whole=False``), nothing between the digits; or, when
    ``text`` has no digit at all ("абв"), that it is no number ("without spaces or
    separators" answered a word); or, a whole one's thousands grouped by points ("1.000"),
    to write it without them (:func:`thousands_hint`); or, a whole one typed with a
    fraction (:func:`fraction_typed`: "/grant Bob 2.5", "/topup 1 000,5"), that only whole
    numbers are taken (it was told to type the digits 0–9, which it had)."""
    if text.strip() and not any(ch.isdecimal() for ch in text):
        return tr(lang, "reply.number_none")
    if whole and THOUSANDS.fullmatch(unformatted(text).strip()):
        return thousands_hint(lang, unformatted(text))
    if whole and fraction_typed(text):
        return tr(lang, "reply.number_whole_only", value=unformatted(text).strip())
    return tr(lang, "reply.number_grouped" if whole else "reply.number_digits")


def comma_hint(text: str, lang: str) -> str:
    """What an :func:`ambiguous_comma` number ("1,500") is asked, in ``lang``: which of its two
    readings was meant (1500 or 1.5; "1,5" in Russian), and how to write each: a negative
    one with the hyphen-minus both times, as typed and as every figure of a ``/settings``
    answer ("from -12 to 14", "type -5.5"; written as text, not by :func:`bot.texts.tr`'s
    minus sign: "Is “-1,500” −1500 or -1.5?" had one of each)."""
    m = _NUMBER.fullmatch(ascii_sign(text))
    assert m is not None
    whole, _mark, fraction = m.groups()
    point = f"{float(f'{whole}.{fraction}'):g}"
    return tr(lang, "reply.number_comma", value=text.strip(), whole=str(int(whole + fraction)),
              fraction=point.replace(".", ",") if lang == "ru" else point)  # fmt: skip
