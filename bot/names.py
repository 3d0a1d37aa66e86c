"""What users type, made safe to show: player names and command arguments (issue 16.7).

Both adapters pass every name they receive (a Telegram user's full name, a Discord member's
display name) through :func:`clean_name`, and every free-text argument through
:func:`clean_arg`, before it reaches the service; :func:`fit` is their last guard on the length
of whatever they send.

* Bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) are removed:
  a name could otherwise reverse the rest of the line it is shown in.
* Other control characters and line breaks become spaces, runs of white space one space.
* A name never begins with 🤖, the mark of the bot's computer players ("🤖 Anna"): a person
  who calls themselves so is shown without it ("Anna"), invisible characters before it
  (zero-width spaces, joiners) going too.
* Cuts fall between grapheme clusters (``regex``'s ``\\X``, Unicode's extended grapheme
  clusters): a family emoji, a flag or a letter with its accents is kept whole or left out.
* Lengths are counted in UTF-16 code units, the unit of Telegram's limits, never fewer than
  characters (Discord's unit).
"""

from __future__ import annotations

import unicodedata

import regex

from storage.api import fold_name as folded  # (the one fold: the store looks players up by it)

__all__ = [
    "MAX_ARG",
    "MAX_NAME",
    "ROBOT",
    "clean_arg",
    "clean_name",
    "cut",
    "fit",
    "folded",
    "quoted",
    "units",
    "visible",
]

#: Longest player name kept (in UTF-16 code units).
MAX_NAME = 32
#: Longest command argument passed on (a name, a number, a setting's value).
MAX_ARG = 64

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_GRAPHEME = regex.compile(r"\X")
ELLIPSIS = "…"


def units(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (characters beyond the BMP count 2)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def cut(text: str, limit: int, ellipsis: str = "") -> str:
    """``text`` if it fits in ``limit`` UTF-16 code units, else its longest prefix of whole
    grapheme clusters that fits together with ``ellipsis`` (then appended)."""
    if units(text) <= limit:
        return text
    room = limit - units(ellipsis)
    kept: list[str] = []
    used = 0
    for cluster in _GRAPHEME.findall(text):
        size = units(cluster)
        if used + size > room:
            break
        kept.append(cluster)
        used += size
    return "".join(kept) + ellipsis


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` code units with "…" when it is longer (the adapters' last
    guard; what users typed is cut where it enters, so a message keeps its structure)."""
    return cut(text, limit, ELLIPSIS)


def _plain(raw: str) -> str:
    out: list[str] = []
    for ch in raw:
        if ch in _BIDI:
            continue
        out.append(" " if unicodedata.category(ch) == "Cc" else ch)
    return " ".join("".join(out).split())


#: the mark of a computer player's name, which no person's name begins with
ROBOT = "\U0001f916"
_VARIATION = frozenset("\ufe0e\ufe0f")


def _unmarked(name: str) -> str:
    """``name`` without what it begins with that would pass it for a computer player's: the
    🤖 mark (with its variation selector), however often repeated, and the white space and
    invisible format characters (category Cf: zero-width spaces, joiners) before it."""
    while True:
        i = 0
        while i < len(name) and (name[i].isspace() or unicodedata.category(name[i]) == "Cf"):
            i += 1
        if not name.startswith(ROBOT, i):
            return name
        name = name[i + len(ROBOT) :].lstrip("".join(_VARIATION))


#: Characters that take a letter's or a symbol's category but show nothing: the Hangul
#: fillers and the blank Braille pattern (names and labels made to look empty with them).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible(ch: str) -> bool:
    """Whether ``ch`` shows something: no white space, no format character (zero-width
    spaces, joiners, variation selectors), no combining mark on its own, no blank
    (:data:`_BLANKS`)."""
    return ch not in _BLANKS and not ch.isspace() and unicodedata.category(ch)[0] not in "CZM"


def clean_name(raw: str | None, fallback: str = "?") -> str:
    """A player name as shown: no bidirectional controls, one line, not beginning with the
    computer players' 🤖 (:func:`_unmarked`), at most :data:`MAX_NAME` code units cut at whole
    grapheme clusters; ``fallback`` when nothing is left, or nothing :func:`visible` (a name
    of a Hangul filler or a zero-width space showed as a blank at the table)."""
    name = cut(_unmarked(_plain(raw or "")), MAX_NAME).strip()
    return name if any(map(visible, name)) else fallback


_PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}")


def quoted(raw: str, limit: int = MAX_ARG) -> str:
    """What a user typed as an answer quotes it back ("No such player here: …", "Unknown
    game “…”"): cleaned as :func:`clean_arg` cleans an argument, without the invisible
    format characters (category Cf: zero-width spaces, joiners, soft hyphens) a copied word
    brings along unseen, and cut at ``limit`` code units with "…", so no answer repeats
    more than a short argument, whatever was typed (a 4,000-character ``/kick`` was echoed
    whole). The joiners and tags of an emoji sequence (a family, a flag of a country's
    part: one grapheme cluster with a pictograph) are kept, or it would show in pieces.
    ("ofc\u200bx" was quoted with the zero-width space in it: ux43.)"""
    return fit(" ".join(shown_only(_plain(raw)).split()), limit)


def shown_only(text: str) -> str:
    """``text`` without the invisible format characters (category Cf: zero-width spaces,
    joiners, soft hyphens, direction marks) a copied word brings along unseen, except the
    joiners and tags inside an emoji sequence (a grapheme cluster with a pictograph: a
    family, a flag of a country's part), which would show it in pieces without them.
    Nothing else changes (white space, case, length limits are the caller's)."""
    kept = (
        c if _PICTOGRAPH.search(c) else "".join(ch for ch in c if unicodedata.category(ch) != "Cf")
        for c in _GRAPHEME.findall(text)
    )
    return "".join(kept)


def clean_arg(raw: str, limit: int = MAX_ARG) -> str:
    """A command argument as passed on: cleaned like a name and cut at ``limit`` code units
    with "…" (no real name, id or value is that long, so a cut one is refused as unknown)."""
    return fit(_plain(raw), limit)
