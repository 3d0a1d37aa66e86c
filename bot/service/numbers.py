"""How players and admins write numbers: one reading for every amount a command takes
(``/grant``, ``/topup``, a whole-number setting of ``/settings``), and the fractions of a
setting that takes them.

Python's ``int()`` (and pydantic) read far more than anyone types as an amount: other scripts'
digits ("٣", full-width "１００"), "1_000", surrounding signs and spaces; ``str.isdecimal``
takes the other scripts' digits too. Here a number is written with the ASCII digits 0–9 only,
after an optional sign; anything else is refused with :func:`digits_hint`.
"""

from __future__ import annotations

import re

from bot.texts import tr

__all__ = ["HUGE", "digits_hint", "plain_number", "read_whole"]

#: What digits beyond any limit read as (and a number cut short, "123…"): above every range a
#: command takes, so it is refused with that range, never wrapped or cut to fit.
HUGE = 10**18

#: ``[0-9]`` is ASCII only (``\d`` would take every script's digits).
_WHOLE = re.compile(r"([+-]?)([0-9]+)(…?)")
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def read_whole(text: str) -> int | None:
    """The whole number ``text`` is written as (spaces around it ignored), or ``None`` when it
    is not one: "100", "-5", "+5" are; "١٠٠", "１００", "1_000", "1 000", "1e3", "5.0", "0x10"
    and "" are not. More digits than any amount has (or digits cut short with "…" where a
    command was read) read as :data:`HUGE`, with their sign."""
    m = _WHOLE.fullmatch(text.strip())
    if m is None:
        return None
    sign, digits, cut = m.groups()
    value = HUGE if cut or len(digits.lstrip("0")) > len(str(HUGE)) - 1 else int(digits)
    return -value if sign == "-" else value


def plain_number(text: str) -> bool:
    """Whether ``text`` is a number as an admin writes one: ASCII digits, a sign, a decimal
    point ("7.5"); not "1e3", "1_0", "inf" or other scripts' digits."""
    return _NUMBER.fullmatch(text.strip()) is not None


def digits_hint(lang: str) -> str:
    """What a refused number is told, in ``lang``: the digits 0–9, nothing between them."""
    return tr(lang, "reply.number_digits")
