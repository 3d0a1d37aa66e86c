"""Admin settings of a community (R8.1 and the rule options of R3–R8): the ``/settings``
message with its buttons, ``/settings <name>`` (what a setting is), ``/settings <name> <value>``,
and passing changes on to the community's tables (between matches, R6.6).

Each setting is described once, in :data:`SETTINGS` (a :class:`Setting`: name, kind, unit,
allowed range, the games it applies to, its button code and step, its text in English and
Russian); the parser of its values, the refusal that names the range, the help, the settings
message and its buttons are all derived from that description. A refused value saves nothing.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, replace
from decimal import Decimal
from enum import Enum
from itertools import pairwise
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from bot.model import REQUESTS_KEPT, LiveTable, Reply, SeatState
from bot.names import ELLIPSIS, clean_arg, shown_only, units, visible
from bot.presses import AllSettings, SettingStep, encode
from bot.screens import Button, Screen
from bot.service.dealing import apply_pending, maybe_start
from bot.service.numbers import (
    THOUSANDS,
    ambiguous_comma,
    ascii_sign,
    comma_hint,
    digits_hint,
    grouped_fraction,
    read_fraction,
    read_whole,
    thousands_hint,
    unformatted,
    ungrouped,
)
from bot.service.runtime import Runtime, TransitionFailed, Tx
from bot.texts import LANGS, TEXTS, decimal, grouped, kush_word, language_of, latin_only, on, tr
from game.errors import OptionConflict, OptionError
from game.options import OPTION_GAMES, GameKind, RuleOptions
from game.tournament import DEFAULT_SCHEDULE, TournamentConfig
from storage.api import (
    DEFAULT_KUSH_LABEL,
    Community,
    CommunitySettings,
    answer_within,
)

__all__ = [
    "ALL_WORDS",
    "GAME_NAMES",
    "KUSH_LIMIT",
    "PLAYABLE_GAMES",
    "SETTINGS",
    "SETTING_NAMES",
    "Kind",
    "Setting",
    "SettingRefused",
    "Unit",
    "asks_list",
    "change_setting",
    "day_zone",
    "game_named",
    "group_language",
    "leading_setting",
    "may_be_all",
    "readers_language",
    "reconcile",
    "seat_language",
    "setting_named",
    "setting_suggestions",
    "setting_word",
    "settings",
    "settings_matching",
    "settings_press",
    "settings_screen",
    "settings_version",
    "table_options",
    "tournament_config",
    "tournament_refusal",
]

#: Games a table can be opened with.
PLAYABLE_GAMES: tuple[GameKind, ...] = (GameKind.PINEAPPLE, GameKind.OFC, GameKind.CHINESE)

#: What players call each game besides its code name, in English and Russian (as the bot's
#: messages name them, :data:`~bot.texts.TEXTS` ``game.*``, and shorter): ``/rules ананас``
#: was "Unknown game"; keys are casefolded, "ё" as "е", words one space apart.
_GAME_WORDS: Mapping[GameKind, tuple[str, ...]] = {
    GameKind.PINEAPPLE: ("pineapple ofc", "ананас", "ананас (ofc)", "пайнэпл", "пайнепл"),
    GameKind.OFC: (
        "classic",
        "classic ofc",
        "классика",
        "классический",
        "классический ofc",
        "офк",
    ),
    GameKind.CHINESE: ("chinese poker", "китайский", "китайский покер", "китайка"),
}
GAME_NAMES: Mapping[str, GameKind] = {
    **{word: g for g in PLAYABLE_GAMES for word in _GAME_WORDS.get(g, ())},
    **{g.value: g for g in PLAYABLE_GAMES},
}


def _name_key(text: str) -> str:
    """A name as typed, the way names are looked up (:data:`GAME_NAMES`, a setting's
    :attr:`Setting.aliases`): casefolded, "ё" as "е", words one space apart, without the
    invisible format characters a copied command brings along (:func:`unformatted`:
    "/newtable ofc\u200b" was refused as the unknown game “ofc”)."""
    return " ".join(unformatted(text).casefold().replace("ё", "е").split())


def game_named(text: str) -> str | None:
    """The code name (``pineapple``, ``ofc``, ``chinese``) of the playable game ``text``
    names, by its code name or another of :data:`GAME_NAMES` (any case, words as typed),
    ``None`` for none: ``/rules``, ``/newtable`` and ``/tournament`` read a game so."""
    game = GAME_NAMES.get(_name_key(text))
    return None if game is None else game.value


#: The largest kush amount a setting or a grant may name, far below SQLite's integer limit
#: (about 9.2e18), so sums of amounts stay exact.
KUSH_LIMIT = 10**12

_ALL = frozenset(GameKind)
_OPEN_FACE = frozenset({GameKind.PINEAPPLE, GameKind.OFC})
_SWITCH_WORDS = {"вкл": "on", "выкл": "off", "да": "yes", "нет": "no"}

#: The words a setting shown as automatic ("auto", «авто»: ``settings.auto``) takes for the
#: value that stands for it (:attr:`Setting.auto`).
_AUTO_WORDS = frozenset({"auto", "авто"})

#: Bidirectional controls (they would turn the text around them in every message).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _control(ch: str) -> bool:
    """A control, surrogate, private-use or unassigned character, or a bidirectional control
    (joiners and tags of emoji sequences are allowed)."""
    return ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn")


def _foreign_digits(text: str) -> bool:
    """Whether ``text`` is a number written otherwise than with the digits 0–9 alone: other
    scripts' digits ("١٢٠", "１２０"), or a separator between digits ("1_800", "6 000")."""
    if any(ch.isdigit() and not ch.isascii() for ch in text):
        return True
    return any(
        text[i - 1].isdigit() and text[i + 1].isdigit() and (ch == "_" or ch.isspace())
        for i, ch in enumerate(text[1:-1], 1)
    )


#: A setting's value as stored (JSON).
Value = int | float | bool | str

#: A time written with its unit ("2m", "90 sec", "1,5 мин", "3ч."): the number (ASCII digits,
#: a sign, a decimal point or comma) and the unit's word, read by :data:`_TIME_WORDS`.
_WITH_UNIT = re.compile(r"([+-]?[0-9]+(?:[.,][0-9]+)?)\s*([a-zа-я]+)\.?")

#: The colons an hours-and-minutes value (:attr:`Setting.clock`) is written with: "5:45", and
#: "5：45" as a Chinese or Japanese keyboard writes it (U+FF1A), or the ratio sign (U+2236).
_COLONS = frozenset(":\uff1a\u2236")

#: The words a time's unit is written with, in English and Russian, and its length in seconds.
_TIME_WORDS: dict[str, int] = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds", "с", "сек", "секунд", "секунды",
                     "секунда", "секунду"), 1),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes", "м", "мин", "минут", "минуты",
                     "минута", "минуту"), 60),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "ч", "час", "часа", "часов"), 3600),
}  # fmt: skip


class Kind(Enum):
    """How a setting's value is written and checked."""

    WHOLE = "whole"  # a whole number in [low, high]
    NUMBER = "number"  # a finite number in [low, high]
    SWITCH = "switch"  # on / off
    CHOICE = "choice"  # one of ``choices``
    TEXT = "text"  # low–high characters, no control characters


class Unit(Enum):
    """The unit of a numeric setting (for its texts)."""

    NONE = ""
    SECONDS = "seconds"
    KUSH = "kush"
    POINTS = "points"
    HOURS = "hours"
    MINUTES = "minutes"
    CHIPS = "chips"


class SettingsStale(Exception):
    """The settings message a press was made on is out of date: the settings as stored,
    read in the transaction that would save the change, are not the ones it showed (another
    press or change was saved since). Nothing was saved."""


#: The least number a time typed with its unit is too big to be told in the setting's unit
#: (:meth:`SettingRefused._unit_hint`): past it the range alone answers.
_UNIT_HINT_LIMIT = 10**9


class SettingRefused(ValueError):
    """A value a setting does not take; :meth:`text` says why in the reader's language
    (naming the allowed range). Nothing was saved."""

    def __init__(
        self,
        text: Callable[[str], str],
        setting: Setting | None = None,
        digits: bool | str = False,
        comma: str = "",
        fraction: str = "",
        thousands: str = "",
        in_unit: tuple[str, float] | None = None,
        off_grain: bool = False,
    ) -> None:
        super().__init__(text("en"))
        self.text = text
        self.setting = setting
        # not a number as written (the value written, or True): the range and how to write one
        self.digits = digits
        self.comma = comma  # "1,500", a thousand or one and a half: the range and the question
        # "2.5" (or "2,5") for a whole-number setting: the range and that it takes whole ones
        self.fraction = fraction
        self.thousands = thousands  # "1,500" for a whole number: the number without the comma
        # a time typed with its unit ("2m" for hand_seconds): as typed, and in the setting's unit
        self.in_unit = in_unit
        # a value off the setting's grain (a time zone off the quarter hours, "5.7", "5:40"):
        # how to write one, :attr:`Setting.grain_hint` ("5.75 or 5:45")
        self.off_grain = off_grain

    def says(self, lang: str, label: str = DEFAULT_KUSH_LABEL) -> str:
        """Why, in ``lang``, ending with a period whatever the reason ("abc" ended with one,
        -5 and 0 did not); an amount of kush named with the group's kush ``label``."""
        # the range's bounds grouped as every amount is (/grant's "1 000 000 000 000"): they
        # came ungrouped under a hint on typing numbers ("от 1 до 1000000000000 кушей"); the
        # hint says how to type one ("Набирайте число … 5000 или 5 000"), not how it reads
        written = self.digits if isinstance(self.digits, str) else ""
        integral = self.setting is None or self.setting.kind is not Kind.NUMBER
        hint = digits_hint(lang, written, whole=integral) if self.digits else ""
        said = self.setting.range_text(lang, label) if self.setting is not None else self.text(lang)
        said = said if said.endswith((".", "!", "?")) else said + "."
        if self.off_grain and self.setting is not None:
            return f"{said}\n{tr(lang, self.setting.grain_hint)}"
        if self.comma:
            return f"{said}\n{comma_hint(self.comma, lang)}"
        if self.fraction:
            return f"{said}\n{self._whole_hint(lang)}"
        if self.in_unit is not None and self.setting is not None:
            unit_hint = self._unit_hint(lang)
            return f"{said}\n{unit_hint}" if unit_hint else said
        if self.thousands:
            return f"{said}\n{thousands_hint(lang, self.thousands)}"
        return f"{said}\n{hint}" if self.digits else said

    def _unit_hint(self, lang: str) -> str:
        """What a time typed with its unit is told ("2m" for hand_seconds, told the digits
        0–9 "without separators", beside the point): the number it is in the setting's unit
        ("“2m” is 120 seconds: type 120."); beyond the range, only the number, and nothing
        for a number of :data:`_UNIT_HINT_LIMIT` or more (the range says enough: the float
        had lost its digits, "“99999999999999999999999s” is 99999999999999991611392
        seconds")."""
        assert self.in_unit is not None and self.setting is not None
        typed, value = self.in_unit
        if abs(value) >= _UNIT_HINT_LIMIT:
            return ""
        number = str(int(value)) if float(value).is_integer() else decimal(value, lang)
        unit = self.setting.unit.value
        inside = self.setting.low <= value <= self.setting.high
        key = f"settings.in_unit.{unit}" if inside else f"settings.in_unit_out.{unit}"
        return tr(lang, key, typed=typed, value=number)

    def _whole_hint(self, lang: str) -> str:
        """What a fraction typed for a whole-number setting is told: whole numbers only, the
        nearest ones it takes ("2 or 3, not 2.5")."""
        value = float(self.fraction.replace(",", "."))
        low, high = (self.setting.low, self.setting.high) if self.setting else (value, value)
        near = [n for n in sorted({math.floor(value), math.ceil(value)}) if low <= n <= high]
        typed = decimal(value, lang)
        if not near:
            return tr(lang, "reply.number_whole_only", value=typed)
        nearest = tr(lang, "reply.number_or").join(grouped(n, lang) for n in near)
        return tr(lang, "reply.number_whole", nearest=nearest, value=typed)


class Setting(BaseModel):
    """One setting, described once (see the module docstring).

    :ivar name: its name in ``/settings <name> <value>``.
    :ivar ru_name: its Russian name, which ``/settings`` takes wherever it takes ``name``
        (:func:`setting_named`: any case, «ё» as «е», words joined by "_" or spaces) and
        the Russian screens show (``/settings язык en``: a Russian group typed the names
        in Russian and was told there was no such setting).
    :ivar code: two letters that stand for it in button payloads (Telegram's 64 bytes).
    :ivar kind: how values are written and checked.
    :ivar community: a field of :class:`~storage.api.CommunitySettings`; otherwise a rule
        option (:class:`~game.options.RuleOptions`) kept in its ``options``.
    :ivar unit: the unit of a number.
    :ivar low: the least value (or length of a text).
    :ivar high: the greatest value (or length of a text).
    :ivar step: what the −/+ buttons change a number by; 0: one button that cycles the value.
    :ivar grain: a number's values are whole multiples of it (0: any); one off it is
        refused with :attr:`grain_hint` (a time zone's quarter hours: 0.0000001 was saved).
    :ivar grain_hint: the key of the text (:data:`~bot.texts.TEXTS`) that says how values go
        by the grain ("Time zones go by quarter hours: 5.75 or 5:45 is 5 h 45 min.").
    :ivar clock: a number of hours also written as hours and minutes, ``H:MM`` with a sign
        or none ("5:45", "-3:30", a full-width colon "5：45" too; minutes 0–59).
    :ivar auto: the value the words "auto" and «авто» stand for, as every answer and the list
        show it so (typed back, "auto" was refused as no whole number); ``""``: none. The max
        stack's "0" (5 × the buy-in), the language's "auto"; a number's that is no number
        stands for never set (the time zone's "auto", stored ``None``: by the group's
        language; once set it could not be unset).
    :ivar aliases: other words for a choice, as (word, choice) pairs, the word as
        :func:`_name_key` writes it (the game's "ананас", "Chinese Poker": as
        /newtable reads a game, :data:`GAME_NAMES`).
    :ivar choices: the values of a choice, in the order the button cycles them.
    :ivar games: the games it applies to.
    :ivar en: what it is, in English.
    :ivar ru: what it is, in Russian.
    :ivar discord_en: what it is on Discord, in English, where that words it otherwise (a
        server, not a group); ``""``: as ``en``.
    :ivar discord_ru: the same in Russian.
    """

    model_config = ConfigDict(frozen=True)

    name: str = Field(pattern=r"^[a-z_]{2,30}$")
    ru_name: str = Field(pattern=r"^[а-яё][а-яё_-]{1,29}$")
    code: str = Field(pattern=r"^[a-z]{2}$")
    kind: Kind
    community: bool = False
    unit: Unit = Unit.NONE
    low: float = 0
    high: float = 0
    step: float = 0
    grain: float = 0
    grain_hint: str = ""
    clock: bool = False
    auto: str = ""
    aliases: tuple[tuple[str, str], ...] = ()
    choices: tuple[str, ...] = ()
    games: frozenset[GameKind] = _ALL
    en: str
    ru: str
    discord_en: str = ""
    discord_ru: str = ""
    _adapter: TypeAdapter[Any] = PrivateAttr()

    @model_validator(mode="after")
    def _consistent(self) -> Setting:
        if self.kind in (Kind.WHOLE, Kind.NUMBER, Kind.TEXT) and not self.low <= self.high:
            raise ValueError(f"{self.name}: low > high")
        if self.step and (self.kind not in (Kind.WHOLE, Kind.NUMBER) or self.step <= 0):
            raise ValueError(f"{self.name}: only numbers have a positive step")
        if (self.kind is Kind.CHOICE) != bool(self.choices) or not self.games:
            raise ValueError(f"{self.name}: choices belong to choice settings; games required")
        if self.grain and (
            self.kind not in (Kind.WHOLE, Kind.NUMBER)
            or self.grain < 0
            or self.grain_hint not in TEXTS
        ):
            raise ValueError(f"{self.name}: a grain is a number's, with a grain_hint text")
        if self.clock and (self.kind is not Kind.NUMBER or self.unit is not Unit.HOURS):
            raise ValueError(f"{self.name}: H:MM (clock) is for a number of hours")
        return self

    def on_grain(self, value: float) -> bool:
        """Whether ``value`` is a whole multiple of :attr:`grain` (any is, with none)."""
        return not self.grain or (float(value) / self.grain).is_integer()

    def model_post_init(self, context: Any, /) -> None:
        self._adapter = TypeAdapter(self._value_type())

    def _value_type(self) -> Any:
        if self.kind is Kind.WHOLE:
            return Annotated[int, Field(ge=int(self.low), le=int(self.high))]
        if self.kind is Kind.NUMBER:
            return Annotated[float, Field(ge=self.low, le=self.high, allow_inf_nan=False)]
        if self.kind is Kind.SWITCH:
            return bool
        if self.kind is Kind.CHOICE:
            return Annotated[str, StringConstraints(max_length=max(map(len, self.choices)))]
        return Annotated[
            str,
            StringConstraints(
                strip_whitespace=True, min_length=int(self.low), max_length=int(self.high)
            ),
        ]

    # -- values ----------------------------------------------------------------------------
    def parse(self, raw: Value) -> Value:
        """The value ``raw`` (typed by an admin, or stored) stands for.

        :raises SettingRefused: for anything outside the setting's type and range.
        """
        text = ("true" if raw else "false") if isinstance(raw, bool) else str(raw).strip()
        if self.auto and text.lower() in _AUTO_WORDS:
            # every answer and the list show it "auto": typed back, it was refused as no
            # whole number (max_buy_in), «авто» as no language
            text = self.auto
            if self.kind is Kind.NUMBER and read_fraction(text) is None:
                return text  # (utc_offset: stored as never set, ``None``)
        if self.kind is Kind.SWITCH:
            text = _SWITCH_WORDS.get(text.lower(), text)
        elif self.kind is Kind.CHOICE:
            text = text.lower()
            text = dict(self.aliases).get(_name_key(text), text)  # ("ананас": pineapple)
        elif self.kind is Kind.TEXT and any(_control(ch) for ch in text):
            raise SettingRefused(self.range_text, self)
        elif self.kind is Kind.TEXT and self.low >= 1 and not any(map(visible, text)):
            # a zero-width space or a Hangul filler alone: the label of every amount showed
            # nothing ("200 ​"), though it is 1 character long
            raise SettingRefused(self.range_text, self)
        elif isinstance(raw, str) and self.kind is Kind.WHOLE and read_whole(text) is None:
            # "1_0", "1e3", "١٠٠": Python's numbers, not an admin's (read as /grant and
            # /topup read an amount, and refused as they refuse it); "2.5" or "2,5" is a
            # fraction, told that the setting takes whole numbers ("digits 0–9 only, without
            # separators" misled), unless it may be a thousands separator ("1.000", "1,500")
            fraction = read_fraction(text)
            grouped_whole = grouped_fraction(text)  # "1 000,5": told the nearest too
            if grouped_whole is not None:
                raise SettingRefused(self.range_text, self, fraction=grouped_whole)
            if (
                fraction is not None
                and self.unit is not Unit.KUSH
                and len(fraction.split(".")[-1]) != 3
                and float(fraction).is_integer()
            ):  # a time in whole seconds written "30.0" (or "-0,0"): that whole number
                text = str(int(float(fraction)))
            elif (
                fraction is not None
                and "." in fraction
                and len(fraction.split(".")[1]) != 3
                and not float(fraction).is_integer()  # ("100.0": the digits, as /grant says)
            ):
                raise SettingRefused(self.range_text, self, fraction=fraction)
            elif THOUSANDS.fullmatch(text):  # "1.500": "digits 0–9 only" did not say that
                # the comma was the trouble (a whole number has no fraction to ask about)
                raise SettingRefused(self.range_text, self, thousands=text)
            elif (timed := self.in_own_unit(text)) is not None:  # "2m": 120 seconds
                raise SettingRefused(self.range_text, self, in_unit=(text, timed))
            else:
                raise SettingRefused(self.range_text, self, digits=text or True)
        elif isinstance(raw, str) and self.kind is Kind.WHOLE:
            # "5,000", "10 000": as every answer writes an amount (its range, its value), a
            # whole number with its thousands grouped has one reading (read_whole); it was
            # refused ("write 5000, without the ‘,’") or, with a space, told the digits 0–9
            text = ungrouped(text)
        elif isinstance(raw, str) and self.clock and any(ch in _COLONS for ch in text):
            if any(ch.isdigit() and not ch.isascii() for ch in text):
                # "５:45" (full-width digits): the digits 0–9 hint, as the other settings
                # give it, not the quarter hours'
                raise SettingRefused(self.range_text, self, digits=True)
            text = self._hours_minutes(text)  # "5:45": 5.75
        elif isinstance(raw, str) and self.kind is Kind.NUMBER:
            if ambiguous_comma(text):  # "1,500": fifteen hundred, or one and a half?
                raise SettingRefused(self.range_text, self, comma=text)
            number = read_fraction(text)  # "7,5" as Russian writes 7.5
            if number is None and (timed := self.in_own_unit(text)) is not None:
                # ("20m" for utc_offset: a third of an hour, off its grain; told how to write
                # one; beyond the range told as other times, "1210m" the hours it is, a huge
                # one the range alone: 99999999999m was told of quarter hours)
                off = self.low <= timed <= self.high and not self.on_grain(timed)
                in_unit = None if off else (text, timed)
                raise SettingRefused(self.range_text, self, in_unit=in_unit, off_grain=off)
            if number is None:  # its range says how to write 7.5; "١٢٠", "1_800" or
                # "6 000" are told the digits 0–9 too, as a whole-number setting's are (told
                # only the range, "1 to 3,600", for a value written inside it)
                raise SettingRefused(self.range_text, self, digits=_foreign_digits(text))
            text = number
        try:
            value: Value = self._adapter.validate_python(text)
        except ValidationError:
            raise SettingRefused(self.range_text, self) from None
        if self.kind is Kind.CHOICE and value not in self.choices:
            raise SettingRefused(self.range_text, self)
        if isinstance(value, float) and value == 0:
            value = 0.0  # "-0:00", "-0": stored and shown as 0, not -0.0
        if isinstance(value, int | float) and not self.on_grain(value):
            # (every time zone is whole quarter hours from UTC, 5.75 is Nepal's: 0.0000001
            # was saved, 5.7 is no zone)
            raise SettingRefused(self.range_text, self, off_grain=True)
        return value

    def _hours_minutes(self, text: str) -> str:
        """A number of hours written in hours and minutes (:attr:`clock`), ``H:MM`` with a
        sign or none ("5:45", "-3:30", "+5:30", "5：45" with a full-width colon, minutes
        0–59), as hours for :meth:`parse` to check ("5.75").

        :raises SettingRefused: for anything else with a colon ("5:75", "5:4"), with how to
            write one (:attr:`grain_hint`, or the range alone)."""
        plain = "".join(":" if ch in _COLONS else ch for ch in ascii_sign(text))
        m = re.fullmatch(r"([+-]?)([0-9]{1,2}):([0-9]{2})", plain)
        if m is None or int(m.group(3)) > 59:
            raise SettingRefused(self.range_text, self, off_grain=bool(self.grain))
        sign, hours, minutes = m.group(1), int(m.group(2)), int(m.group(3))
        value = (hours * 60 + minutes) / 60
        return decimal(-value if sign == "-" else value, None)

    def in_own_unit(self, text: str) -> float | None:
        """The time ``text`` written with a unit ("2m", "90 sec", "1,5 мин", "3ч") is in this
        setting's unit (seconds, minutes or hours): "2m" for a setting in seconds is 120.0;
        ``None`` for a setting of no time, a text that is no such time, or one that is no
        whole number of the setting's unit where it takes whole ones (0.5s)."""
        own = {Unit.SECONDS: 1, Unit.MINUTES: 60, Unit.HOURS: 3600}.get(self.unit)
        m = _WITH_UNIT.fullmatch(ascii_sign(text).casefold())  # ("−330m": -330m)
        factor = _TIME_WORDS.get(m.group(2)) if m else None
        if own is None or m is None or factor is None:
            return None
        value = float(Decimal(m.group(1).replace(",", ".")) * factor / own)
        if not math.isfinite(value) or (self.kind is Kind.WHOLE and not value.is_integer()):
            return None
        return value

    def stored(self, raw: Value) -> Value:
        """The value a stored ``raw`` stands for: :meth:`parse`'s, but a number beyond the
        range (saved when the range was wider: ``hand_seconds`` 15 before
        :data:`MIN_HAND_SECONDS`) reads as the nearest end of it, the value closest to the
        group's choice (it read as the default, 120 s, four times what was chosen).

        :raises SettingRefused: for anything else :meth:`parse` refuses.
        """
        try:
            return self.parse(raw)
        except SettingRefused:
            if self.kind not in (Kind.WHOLE, Kind.NUMBER) or isinstance(raw, bool):
                raise
            if not isinstance(raw, int | float):  # (a text: as parse read it)
                raise
            if not math.isfinite(raw):
                raise
            fraction = self.kind is Kind.WHOLE and not float(raw).is_integer()
            if fraction and self.unit is not Unit.SECONDS:  # (2.5 kush a point: none meant)
                raise
            nearest = min(max(raw, self.low), self.high)
            # (a fraction of a time now in whole seconds, "ready_seconds 5.5" saved before:
            # the nearest whole one)
            whole = math.floor(nearest + 0.5)
            return self.parse(whole if self.kind is Kind.WHOLE else float(nearest))

    def applies_to(self, game: GameKind) -> bool:
        """Whether tables of ``game`` use this setting."""
        return game in self.games

    # -- texts -----------------------------------------------------------------------------
    def range_text(self, lang: str, label: str = DEFAULT_KUSH_LABEL) -> str:
        """What values it takes, e.g. "ready_seconds takes a number of seconds from 5
        to 600"; an amount of kush is named with the group's kush ``label``; the bounds
        written as every amount is (:func:`_number`: "1,000,000,000,000", in Russian
        "1 000 000 000 000")."""
        number = _number
        name = setting_word(self, lang)  # (in Russian its Russian name, «время_на_раздачу»)
        if self.kind is Kind.SWITCH:
            return tr(lang, "settings.range.switch", name=name)
        if self.kind is Kind.CHOICE:
            # as the reader types them: the games with their Russian names too, and auto by
            # the word the list shows (in Russian «авто», as the list and the guide say it)
            auto = tr(lang, "settings.auto")
            shown = [auto if c == self.auto else c for c in self.choices]
            choices = tr(lang, "games.names") if self.name == "game" else ", ".join(shown)
            return tr(lang, "settings.range.choice", name=name, choices=choices)
        if self.name in _LIST_EXAMPLES:  # a list of numbers, not free text (R8.7)
            example = _LIST_EXAMPLES[self.name]
            high = number(self.high, lang)
            return tr(lang, "settings.range.list", name=name, example=example, high=high)
        if self.unit is Unit.KUSH and self.kind is Kind.WHOLE:  # ("от 1 до 200 abc")
            low, high = number(self.low, lang), number(self.high, lang)
            key = "settings.range.whole_kush"
            return tr(lang, key, name=name, low=low, high=high, label=label)
        unit = (
            tr(lang, f"settings.unit.{self.unit.value}", label=label)
            if self.unit is not Unit.NONE
            else ""
        )
        # a fraction it takes (hand_seconds 30 to 3600 said "7.5 for a fraction", refused)
        fraction = 7.5 if self.low <= 7.5 <= self.high else self.low + 0.5
        return tr(
            lang,
            f"settings.range.{self.kind.value}",
            name=name,
            unit=unit,
            low=number(self.low, lang),
            high=number(self.high, lang),
            example=decimal(fraction, lang),
        )

    def games_text(self, lang: str) -> str:
        """The games it applies to, by name."""
        return ", ".join(tr(lang, f"game.{g.value}") for g in GameKind if g in self.games)

    def in_games(self, lang: str) -> str:
        """The games it applies to as a note's «в …» names them (:func:`in_games`)."""
        return in_games([g.value for g in GameKind if g in self.games], lang)

    def help_text(
        self, lang: str, current: str, label: str = DEFAULT_KUSH_LABEL, platform: str = ""
    ) -> str:
        """What it is (as ``platform`` words it), its range (an amount of kush named with the
        group's ``label``), its games (a setting of the whole group, :attr:`community`, has
        none: "Games: Pineapple OFC, Classic OFC, Chinese Poker" was said of its language and
        time zone) and its ``current`` value."""
        about = self.ru if lang == "ru" else self.en
        if platform == "discord":
            about = (self.discord_ru if lang == "ru" else self.discord_en) or about
        return tr(
            lang,
            "settings.help_group" if self.community else "settings.help",
            name=_help_title(self, lang),  # as the list names it (and by both names in Russian)
            about=about,
            range=self.range_text(lang, label),
            games=self.games_text(lang),
            value=current,
        )


#: The longest kush label: a short unit after every amount ("500 chips"), R8.1.
KUSH_LABEL_MAX = 12

#: The longest argument ``/settings`` passes on, in UTF-16 code units: past the longest text a
#: setting takes (in characters, which may be 2 units each), so a longer one reaches the
#: setting's check and is refused with its range, never silently cut.
LONGEST_ARG = 2 * 120 + 16


def typed_arg(raw: str) -> str:
    """One word of ``/settings`` as the settings read it: cleaned as every command's
    argument (:func:`~bot.names.clean_arg`: bidirectional controls dropped, white space
    joined) and, past :data:`LONGEST_ARG` UTF-16 units, cut there at a code point with "…",
    so that it stays longer than any value a setting takes and is refused with its range.
    (Cut at whole grapheme clusters, as names are, a few letters under hundreds of
    combining marks were cut to "coin…" or "…" alone, which ``kush_label`` saved.)"""
    text = clean_arg(raw, units(raw))  # (cleaning never lengthens: nothing cut here)
    if units(text) <= LONGEST_ARG:
        return text
    kept = LONGEST_ARG - 1  # code points: at least as many units (and more than 120 letters)
    return text[:kept] + ELLIPSIS


#: The least ``hand_seconds`` (R8.5 names none). The budget is for a whole hand and a time
#: bank may be 0: a Pineapple hand is at least 18 presses (a box for each of 5 cards and
#: Confirm on street 1, two boxes and Confirm on each of the 4 others), a Chinese Poker one 14
#: (or Arrange and Confirm), each a round trip to the chat of about a second on a phone.
#: Below 30 s a hand cannot be played at all: ``hand_seconds 7,5`` was taken, and every
#: player timed out on street 1 and was sat out (R8.6).
MIN_HAND_SECONDS = 30


#: The least ``idle_close_seconds`` (R8.2a names none): 5 closed every new table before
#: friends could press Ready ("Table #2 closed: no hand for 5 seconds"). It must also be more
#: than ``ready_seconds`` (:func:`updated`).
MIN_IDLE_CLOSE_SECONDS = 300

#: The least ``level_minutes`` (R8.7 names none): 0.05 made 3-second tournament levels.
MIN_LEVEL_MINUTES = 1


def _seconds(
    name: str, code: str, low: float, high: float, step: float, whole: bool = True, **more: Any
) -> Setting:
    """A time in seconds, whole unless ``whole`` is false ("ready_seconds 5.5" was taken: a
    timer players see counts down whole seconds; a pause between reveals may be a fraction)."""
    return Setting(
        name=name,
        code=code,
        kind=Kind.WHOLE if whole else Kind.NUMBER,
        unit=Unit.SECONDS,
        low=low,
        high=high,
        step=step,
        **more,
    )


def _kush(name: str, code: str, low: int, step: int, **more: Any) -> Setting:
    return Setting(
        name=name,
        code=code,
        kind=Kind.WHOLE,
        community=True,
        unit=Unit.KUSH,
        low=low,
        high=KUSH_LIMIT,
        step=step,
        **more,
    )


def _switch(
    name: str, code: str, games: frozenset[GameKind], *, ru_name: str, en: str, ru: str
) -> Setting:
    return Setting(
        name=name, ru_name=ru_name, code=code, kind=Kind.SWITCH, games=games, en=en, ru=ru
    )


_DESCRIPTIONS: tuple[Setting, ...] = (
    Setting(
        name="game",
        ru_name="игра",
        code="gm",
        kind=Kind.CHOICE,
        community=True,
        choices=tuple(g.value for g in PLAYABLE_GAMES),
        aliases=tuple((word, g.value) for word, g in GAME_NAMES.items()),
        en="the game of new tables (/newtable without a game).",
        ru="игра новых столов (/newtable без названия игры).",
    ),
    Setting(
        name="language",
        ru_name="язык",
        code="la",
        kind=Kind.CHOICE,
        community=True,
        choices=("auto", "en", "ru"),
        auto="auto",
        en="the language of the bot here; auto: each player's own.",
        ru="язык бота здесь; авто — у каждого игрока свой.",
    ),
    Setting(
        name="kush_label",
        ru_name="валюта",
        code="kl",
        kind=Kind.TEXT,
        community=True,
        low=1,
        high=KUSH_LABEL_MAX,
        # (not "chips": a tournament's chips are chips, "Buy-in 500 chips · 1500 chips each")
        en='the unit shown after every kush amount ("500 coins"), e.g. "coins", "монеты" or "₽" '
        '(display only). Readers of English see "kush" for a label in other than Latin letters '
        '(«монеты»); "default" or "reset" sets kush again (neither can be a label).',
        ru="единица после каждой суммы кушей («500 монет»), например «монеты», «coins» или «₽» "
        "(только для показа). Читающие по-английски видят «kush» вместо названия не латиницей "
        "(«монеты»); «по умолчанию» или «сброс» снова ставит «куш» (названием они быть не "
        "могут).",
    ),
    Setting(
        name="utc_offset",
        ru_name="часовой_пояс",
        code="tz",
        kind=Kind.NUMBER,
        unit=Unit.HOURS,
        community=True,
        low=-12,
        high=14,
        step=1,
        grain=0.25,  # every time zone is whole quarter hours from UTC (5.75 is Nepal's)
        grain_hint="settings.zone_quarters",
        clock=True,  # 5:45
        auto="auto",  # (never set: by the group's language)
        en="the group's time zone, hours from UTC in quarter hours (3 is Moscow, 5:30 or 5.5 is "
        "India): it sets when the day turns "
        "for /daily, the dates on charts and, once set, the time a turn ends on the table message "
        "and the players' private ones. "
        "Until set, or set to auto: 0 (UTC) in a group "
        "set to English (language en), or with language auto where more of its players read "
        "English than Russian; else 3.",
        ru="часовой пояс группы, часы от UTC четвертями часа (3 — Москва, 5:30 или 5,5 — "
        "Индия): по нему начинается новый день для "
        "/daily, ставятся даты на графиках и, если задан, время конца хода в сообщении стола "
        "и в личных сообщениях игроков. "
        "Пока не "
        "задан или задан как «авто»: 0 (UTC) в группе с языком en или с языком «авто», где "
        "по-английски читает больше игроков, чем по-русски; иначе 3.",
        discord_en="the server's time zone, hours from UTC in quarter hours (3 is Moscow, 5:30 "
        "or 5.5 is India): it sets when the day "
        "turns for /daily, the dates on charts and, once set, the time a turn ends on the table "
        "message. "
        "Until set, or set to auto: 0 (UTC) on a "
        "server set to English (language en), or with language auto where more of its players "
        "read English than Russian; else 3.",
        discord_ru="часовой пояс сервера, часы от UTC четвертями часа (3 — Москва, 5:30 или "
        "5,5 — Индия): по нему начинается новый "
        "день для /daily, ставятся даты на графиках и, если задан, время конца хода в "
        "сообщении стола. "
        "Пока не задан или задан как «авто»: 0 "
        "(UTC) на сервере с языком en или с языком «авто», где по-английски читает больше "
        "игроков, чем по-русски; иначе 3.",
    ),
    Setting(
        name="pictures",
        ru_name="картинки",
        code="pi",
        kind=Kind.SWITCH,
        community=True,
        en="a picture of every board is posted at each showdown (the text record stays).",
        ru="на каждом вскрытии в группу приходит картинка всех досок (текст остаётся).",
        discord_ru="на каждом вскрытии в канал стола приходит картинка всех досок (текст "
        "остаётся).",
    ),
    _kush(
        "min_buy_in",
        "mb",
        1,
        50,
        ru_name="взнос",
        en="the buy-in moved from the balance to the stack on Ready.",
        ru="взнос, который при «Готов» переходит с баланса в стек.",
    ),
    _kush(
        "max_buy_in",
        "mx",
        0,
        50,
        ru_name="макс_стек",
        auto="0",  # 5 × min_buy_in
        en="the most a stack may hold after a top-up; 0 or auto: 5 × min_buy_in.",
        ru="наибольший стек после докупки; 0 или авто — 5 × взнос.",
    ),
    _kush(
        "starting_balance",
        "sb",
        0,
        500,
        ru_name="стартовый_баланс",
        en="the balance a new player starts with.",
        ru="баланс нового игрока.",
    ),
    _kush(
        "daily_bonus",
        "db",
        0,
        50,
        ru_name="бонус",
        en="the kush of /daily, once a day; 0 turns it off.",
        ru="сколько кушей даёт /daily раз в сутки; 0 — выключено.",
    ),
    _seconds(
        "hand_seconds",
        "hs",
        MIN_HAND_SECONDS,
        3600,
        30,
        ru_name="время_на_раздачу",
        en="each player's time budget for a whole hand, running only on their turn.",
        ru="время игрока на всю раздачу, идёт, только пока игрок ходит.",
    ),
    _seconds(
        "time_bank_seconds",
        "tb",
        0,
        3600,
        30,
        ru_name="тайм-банк",
        # (R8.5: "the time bank that starts when the budget is spent" named neither the
        # budget's setting nor that a spent bank stays spent at the table)
        en="extra time that runs once a player's hand_seconds are spent; what is used stays "
        "used at this table (time_bank_refill_per_match gives some back).",
        ru="запас времени, который идёт, когда время_на_раздачу игрока кончилось; потраченное "
        "за этим столом не возвращается (часть возвращает пополнение_банка).",
    ),
    _seconds(
        "time_bank_refill_per_match",
        "tr",
        0,
        3600,
        15,
        ru_name="пополнение_банка",
        # (a "match" is R6.6's, a hand with the Fantasyland hands after it: the word alone
        # told an admin nothing)
        en="time bank seconds given back after every hand (after the Fantasyland hands it "
        "earns, if any), up to time_bank_seconds.",
        ru="секунды тайм-банка, которые возвращаются после каждой раздачи (если она дала "
        "Фантазию — после раздач Фантазии), не больше, чем тайм-банк.",
    ),
    _seconds(
        "fantasyland_seconds",
        "fs",
        10,
        3600,
        30,
        ru_name="время_фантазии",
        games=_OPEN_FACE,
        en="the time to arrange a Fantasyland hand.",
        ru="время на раскладку Фантазии.",
    ),
    Setting(
        name="kush_per_point",
        ru_name="куш_за_очко",
        code="kp",
        kind=Kind.WHOLE,
        unit=Unit.KUSH,
        low=1,
        high=1_000_000,
        step=1,
        en="kush moved per point.",
        ru="сколько кушей стоит одно очко.",
    ),
    Setting(
        name="scoring",
        ru_name="подсчёт_очков",
        code="sc",
        kind=Kind.CHOICE,
        choices=("one_six", "two_per_row"),
        games=_OPEN_FACE,
        en="box points: one_six (1 a box, scoop 6) or two_per_row (2 a box).",
        ru="очки за боксы: one_six (1 за бокс, скуп 6) или two_per_row (2 за бокс).",
    ),
    _switch(
        "fantasyland",
        "fl",
        _OPEN_FACE,
        ru_name="фантазия",
        en="Fantasyland on or off.",
        ru="Фантазия включена или нет.",
    ),
    _switch(
        "progressive_fantasyland",
        "pf",
        OPTION_GAMES["progressive_fantasyland"],
        ru_name="прогрессивка",
        en="QQ/KK/AA/trips on top give 14/15/16/17 Fantasyland cards.",
        ru="QQ/KK/AA/сет наверху дают 14/15/16/17 карт Фантазии.",
    ),
    _switch(
        "stay_on_full_house_middle",
        "st",
        _OPEN_FACE,
        ru_name="фулл_в_середине",
        en="a full house or better in the middle also keeps Fantasyland.",
        ru="фулл-хаус и выше в середине тоже оставляет в Фантазии.",
    ),
    _switch(
        "button_moves_in_fantasyland",
        "bm",
        _OPEN_FACE,
        ru_name="баттон_в_фантазии",
        en="the button moves before a Fantasyland hand.",
        ru="баттон переходит перед раздачей Фантазии.",
    ),
    _switch(
        "simultaneous_streets",
        "ss",
        _OPEN_FACE,
        ru_name="одновременные_улицы",
        en="all players act on a street at once.",
        ru="все игроки ходят на улице одновременно.",
    ),
    _switch(
        "safe_autoplay",
        "sa",
        _OPEN_FACE,
        ru_name="автоход",
        en="a timed-out move is made by the built-in strategy, not cards to bottom first.",
        ru="просроченный ход делает встроенная стратегия, а не «всё вниз».",
    ),
    _switch(
        "settle_per_round",
        "sr",
        _OPEN_FACE,
        ru_name="расчёт_по_кругу",
        en="kush is settled after a full round of the button, not every hand.",
        ru="расчёт кушей после полного круга баттона, а не после каждой раздачи.",
    ),
    _switch(
        "deuce_of_spades",
        "ds",
        _OPEN_FACE,
        ru_name="двойка_пик",
        en="the royalty of a box holding 2♠ is doubled.",
        ru="роялти бокса с 2♠ удваивается.",
    ),
    _switch(
        "dummy_box",
        "dx",
        OPTION_GAMES["dummy_box"],
        ru_name="болван",
        en="with three players a fourth, unscored board takes 13 cards.",
        ru="при трёх игроках 13 карт сдаются на четвёртую доску, «болвана»; очков он не получает.",
    ),
    _switch(
        "heads_up_double_boxes",
        "hd",
        OPTION_GAMES["heads_up_double_boxes"],
        ru_name="две_доски",
        en="two players play two boards each.",
        ru="двое игроков играют по две доски.",
    ),
    Setting(
        name="target_points",
        ru_name="очки_до_победы",
        code="tp",
        kind=Kind.WHOLE,
        unit=Unit.POINTS,
        low=1,
        high=10_000,
        step=10,
        games=frozenset({GameKind.CHINESE}),
        en="the points that end a game.",
        ru="очки, на которых игра заканчивается.",
    ),
    _seconds(
        "reveal_pause_seconds",
        "rp",
        0,
        60,
        1,
        ru_name="пауза_вскрытия",
        whole=False,  # (a pause, not a countdown: half a second is a pause)
        games=frozenset({GameKind.CHINESE}),
        en="the pause between the reveals of bottom, middle and top.",
        ru="пауза между вскрытиями низа, середины и верха.",
    ),
    _seconds(
        "ready_seconds",
        "rs",
        5,
        600,
        15,
        ru_name="таймер_готовности",
        # (the title is "Ready timer": "Ready timer (ready_seconds): the ready timer: …" said
        # it twice, and not what the seconds count)
        en="once two players are ready, the others have this long to press Ready; then the "
        "unready are stood up and the hand starts.",
        ru="когда готовы двое, у остальных есть столько времени, чтобы нажать «Готов»; потом "
        "неготовые встают и раздача начинается.",
    ),
    _seconds(
        "idle_close_seconds",
        "ic",
        MIN_IDLE_CLOSE_SECONDS,
        604800,
        300,
        ru_name="закрытие_без_игры",
        en="a table with no hand dealt for this long closes itself (a lowered value counts "
        "from its change); more than ready_seconds.",
        ru="стол без раздач дольше этого закрывается сам (уменьшенное значение отсчитывается "
        "от изменения); больше, чем таймер_готовности.",
    ),
    _kush(
        "tournament_buy_in",
        "tu",
        1,
        50,
        ru_name="взнос_турнира",
        # (the title is "Tournament buy-in": said again, it read "Tournament buy-in
        # (tournament_buy_in): a tournament's buy-in: …")
        en="the kush each player pays to register, into the prize pool.",
        ru="сколько кушей каждый игрок платит при регистрации; они идут в призовой фонд.",
    ),
    Setting(
        name="tournament_chips",
        ru_name="фишки_турнира",
        code="tc",
        kind=Kind.WHOLE,
        community=True,
        unit=Unit.CHIPS,
        low=10,
        high=1_000_000,
        step=500,
        en="the chips each tournament player starts with.",
        ru="фишки, с которыми начинает каждый участник турнира.",
    ),
    Setting(
        name="level_minutes",
        ru_name="длина_уровня",
        code="lm",
        kind=Kind.NUMBER,
        community=True,
        unit=Unit.MINUTES,
        low=MIN_LEVEL_MINUTES,
        high=240,
        step=1,
        en="the length of a tournament level in minutes; the chips per point rise with each level.",
        ru="длина уровня турнира в минутах; с каждым уровнем растёт цена очка в фишках.",
    ),
    Setting(
        name="payouts",
        ru_name="призы",
        code="po",
        kind=Kind.TEXT,
        community=True,
        low=0,
        high=60,
        en="a tournament's prizes in whole percent of the pool, best place first, summing to "
        '100, e.g. "70,30"; "default": winner takes all up to 3 players, 70/30 with 4.',
        ru="призы турнира в целых процентах фонда, начиная с первого места, в сумме 100, "
        "например «70,30»; «по умолчанию» — всё победителю до 3 игроков, 70/30 при 4.",
    ),
    Setting(
        name="chips_schedule",
        ru_name="цена_по_уровням",
        code="cs",
        kind=Kind.TEXT,
        community=True,
        low=0,
        high=120,
        en='chips per point by level, never falling, e.g. "10,15,20,30", then +100 a level; '
        '"default": 10, 15, 20, 30, 40, 60, 80, 100, 150, 200.',
        ru="цена очка в фишках по уровням, не убывая, например «10,15,20,30», дальше "
        "+100 за уровень; «по умолчанию» — 10, 15, 20, 30, 40, 60, 80, 100, 150, 200.",
    ),
)

#: Every setting by name, in the order of the settings message. Discord's command offers the
#: first 25 as choices; the two timers at the end (ready_seconds, idle_close_seconds) are set
#: there with the buttons of the settings message.
SETTINGS: Mapping[str, Setting] = {s.name: s for s in _DESCRIPTIONS}
_BY_CODE = {s.code: s for s in _DESCRIPTIONS}
assert len(_BY_CODE) == len(SETTINGS), "button codes must differ"


def _setting_key(text: str) -> str:
    """A setting's name as typed, the way :data:`SETTING_NAMES` looks it up: casefolded, «ё»
    as «е», its words (apart by spaces, "_" or "-") joined by "_" ("Время на раздачу",
    "время_на_раздачу" and "тайм банк" are found as their names)."""
    return "_".join(re.split(r"[\s_\-]+", text.casefold().replace("ё", "е").strip()))


#: Every setting by its English name and by its Russian one (:attr:`Setting.ru_name`), each as
#: :func:`_setting_key` writes it; no two settings share a key.
SETTING_NAMES: Mapping[str, Setting] = {
    _setting_key(word): s for s in _DESCRIPTIONS for word in (s.name, s.ru_name)
}
assert len(SETTING_NAMES) == 2 * len(SETTINGS), "setting names and Russian names must differ"

#: The most words a setting's name typed with spaces has ("button moves in fantasyland").
_NAME_WORDS = max(len(k.split("_")) for k in SETTING_NAMES)


def setting_named(text: str) -> Setting | None:
    """The setting ``text`` names, by its English or Russian name (:attr:`Setting.ru_name`;
    any case, «ё» as «е», words joined by "_", "-" or spaces), ``None`` for none."""
    return SETTING_NAMES.get(_setting_key(text))


def leading_setting(args: Sequence[str]) -> tuple[Setting | None, int]:
    """The setting the first words of ``/settings`` args name and how many words its name
    takes (the longest name that fits: ``время на раздачу 60`` is ``hand_seconds`` in 3 words;
    ``время_на_раздачу 60`` in 1), or ``(None, 1)`` when none does."""
    for n in range(min(len(args), _NAME_WORDS), 0, -1):
        if any(not word.strip() for word in args[1:n]):
            continue  # (a value of nothing visible, "kush_label \u200b", is no word of a name)
        spec = setting_named(" ".join(args[:n]))
        if spec is not None:
            return spec, n
    return None, 1


def setting_word(spec: Setting | str, lang: str) -> str:
    """The name a reader of ``lang`` is shown for the setting ``spec`` (a :class:`Setting`
    or its English name, a key of :data:`SETTINGS`) to type, and every answer about it names
    it by: its Russian name (:attr:`Setting.ru_name`, «время_на_раздачу») in Russian, else
    its English one (``hand_seconds``). The one place a setting's name in a language comes
    from (a Russian admin read «Сохранено: hand_seconds = 90» after typing the Russian name).

    :raises KeyError: for a string that is no setting's English name."""
    setting = SETTINGS[spec] if isinstance(spec, str) else spec
    return setting.ru_name if lang == "ru" else setting.name


def settings_matching(typed: str, limit: int = 25) -> list[Setting]:
    """The settings whose English or Russian name holds ``typed`` (as :func:`_setting_key`
    writes both: any case, «ё» as «е», spaces as "_"), in the order of the list, at most
    ``limit`` (every one, cut so, for nothing typed): Discord's autocomplete of the name."""
    key = _setting_key(typed)
    found = [
        s
        for s in _DESCRIPTIONS
        if not key or key in _setting_key(s.name) or key in _setting_key(s.ru_name)
    ]
    return found[:limit]


def _number(value: float, lang: str = "en") -> str:
    """A number as people write it: whole numbers without ``.0``, thousands grouped, a
    fraction with the decimal sign of ``lang`` (7.5; in Russian 7,5)."""
    if float(value).is_integer():
        return grouped(int(value), lang)
    return decimal(value, lang)


def refusal_text(lang: str, error: str) -> str:
    """The answer to a refused setting change, its reason ``error`` (the reader's
    language): one that names the setting ("min_buy_in: целое число …") reads "Не удалось
    изменить min_buy_in: …" ("Нельзя установить — min_buy_in: …" read unnaturally)."""
    name, colon, reason = error.partition(": ")
    if colon and setting_named(name) is not None:
        return tr(lang, "reply.setting_refused_named", name=name, reason=reason)
    return tr(lang, "reply.setting_refused", error=error)


def _shown(value: Any) -> str:
    """A value in replies and on buttons (language-neutral)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else decimal(value, None)
    return str(value)


# -- reading the settings ----------------------------------------------------------------------
def group_language(s: CommunitySettings) -> str | None:
    """The language the group's settings ``s`` set (``"en"``/``"ru"``), ``None`` for ``auto``
    (each reply then in its reader's own language)."""
    return s.language if s.language in ("en", "ru") else None


async def readers_language(rt: Runtime, community: Community, *, tie: str = "ru") -> str:
    """The language most of ``community``'s players read (``"en"``/``"ru"``): their stored
    languages, each read as the bot answers it (:func:`~bot.texts.language_of`: ``uk`` is
    Russian, ``de`` English); ``tie`` when as many read each, or none is known. With the
    default (Moscow's day for a group nobody can tell) it is what a time zone never set
    follows under ``auto`` (:func:`day_zone`); the group's own messages under ``auto`` take
    ``"en"`` on a tie (``TableService._group_lang``)."""
    counts = {"en": 0, "ru": 0}
    for code, n in (await rt.store.languages(community.id)).items():
        counts[language_of(code)] += n
    if counts["en"] == counts["ru"]:
        return tie
    return "en" if counts["en"] > counts["ru"] else "ru"


async def day_zone(rt: Runtime, community: Community) -> float:
    """The group's time zone, hours from UTC, whose days ``/daily`` counts and its charts
    date: ``utc_offset``; never set, 0 (UTC) when its language is English, set so or, under
    ``auto``, read by most of its players (:func:`readers_language`: Moscow's 3 on a tie or
    with none known), else 3 (:meth:`~storage.api.CommunitySettings.day_zone`). A zone that
    moves (the players' majority changes) gives nobody a second bonus on one day: R8.1,
    :meth:`~storage.api.Store.claim_daily`."""
    s = community.settings
    if s.utc_offset is not None or group_language(s) is not None:
        return s.day_zone()  # (no players to count)
    return s.day_zone(await readers_language(rt, community))


def note_zone(rt: Runtime, community: Community) -> None:
    """Put the group's ``utc_offset`` into :attr:`Runtime.zones`, where the table message
    finds the zone its turn's end is shown in (R8.5); unset, none: the message shows the
    turn's time as a duration, since a zone guessed from the players' language (Moscow's for
    Russian, UTC for English, :func:`day_zone`) printed a clock wrong by hours for many."""
    offset = community.settings.utc_offset
    if offset is None:
        rt.zones.pop(community.id, None)
    else:
        rt.zones[community.id] = offset


#: The word ``/settings`` takes for the list of every setting (``/settings all``; alone it
#: lists those that differ from their defaults).
ALL_WORDS = frozenset({"all", "все", "всё"})


def may_be_all(typed: str) -> bool:
    """Whether ``typed``, what an admin has typed so far of a setting's name (Discord's
    autocomplete), may be a word of :data:`ALL_WORDS` (any case, «ё» as «е»; nothing typed
    too): ``all`` is then suggested. «все», which ``/settings`` takes, found nothing."""
    key = typed.strip().casefold().replace("ё", "е")
    return any(key in word.replace("ё", "е") for word in ALL_WORDS)


def asks_list(args: Sequence[str]) -> bool:
    """Whether ``/settings`` typed with ``args`` asks for a list of the settings (none: those
    that differ from their defaults; first one of :data:`ALL_WORDS`, format characters a copy
    brings aside: every one) rather than a setting, so it changes nothing. Words after
    ``all`` are ignored: ``/settings all 5`` (Discord ``name:all value:5``) was "“all” is not
    a setting", though the usage says ``/settings all`` lists them."""
    return not args or unformatted(args[0]).lower() in ALL_WORDS


def table_options(s: CommunitySettings, game: GameKind | str | None = None) -> RuleOptions:
    """The rule options of a table of ``game`` (the community's game by default): the
    community's options that this game has (an option kept for another game, e.g.
    ``heads_up_double_boxes`` for classic OFC, is left out of a Chinese Poker table), each read
    through its description; a stored number beyond its range (written by an older version)
    reads as the nearest end of it (:meth:`Setting.stored`), any other value the description
    does not take leaves that option at the game's default.

    :raises OptionError: for an unknown game.
    """
    kind = RuleOptions.preset(game or s.game).game
    chosen: dict[str, Value] = {}
    for name, raw in s.options.items():
        spec = SETTINGS.get(name)
        if spec is None or spec.community or not spec.applies_to(kind):
            continue
        try:
            chosen[name] = spec.stored(raw)
        except SettingRefused:
            continue
    return RuleOptions.preset(kind, **chosen)


def _current(
    s: CommunitySettings, opts: RuleOptions, spec: Setting, readers: str | None = None
) -> Any:
    """``spec``'s value under ``s`` (a rule option as ``opts`` has it); ``readers``: the
    language most of the group's players read (:func:`readers_language`), which a time zone
    never set follows under ``auto`` (:meth:`~storage.api.CommunitySettings.day_zone`)."""
    if spec.name == "language":
        return s.language or "auto"
    if spec.name == "utc_offset":  # (never set: by the group's language)
        return s.day_zone(readers)
    if not spec.community and not spec.applies_to(opts.game):
        # an option of another game: its value for tables of that game (not this game's
        # default, which would hide what was saved)
        game = next(g for g in GameKind if g in spec.games)
        opts = table_options(s, game)
    return getattr(s if spec.community else opts, spec.name)


def _display(
    s: CommunitySettings,
    opts: RuleOptions,
    spec: Setting,
    lang: str,
    label: str,
    named: bool = True,
    readers: str | None = None,
) -> str:
    """``spec``'s value as the settings message shows it; ``label``: the kush label as
    messages show it (:meth:`Runtime.kush_label`); ``named``: a choice by its name in
    ``lang`` ("Pineapple OFC", "1 a box, scoop 6"), else as ``/settings`` takes it
    (``pineapple``: the "Saved: game = pineapple" of a change); ``readers``: as for
    :func:`_current`."""
    value = _current(s, opts, spec, readers)
    if isinstance(value, bool):
        return tr(lang, "settings.on" if value else "settings.off")
    if spec.name == "language" and value == "auto":
        return tr(lang, "settings.auto")
    if spec.name == "max_buy_in" and value == 0:
        return tr(lang, "settings.top_up_auto", value=grouped(s.top_up_limit, lang))
    if spec.name == "utc_offset" and s.utc_offset is None:  # (by the group's language)
        return tr(lang, "settings.zone_auto", value=_number(value, lang))
    if named and spec.name == "game" and value in (g.value for g in GameKind):
        return tr(lang, f"game.{value}")
    if named and spec.kind is Kind.CHOICE and f"settings.choice.{_shown(value)}" in TEXTS:
        return tr(lang, f"settings.choice.{_shown(value)}")  # (one_six: 1 за бокс, скуп 6)
    if spec.name in ("payouts", "chips_schedule") and not value:
        return tr(lang, f"settings.default_{spec.name}")
    if spec.name == "kush_label":  # the default label as players of ``lang`` read it (куш)
        shown = kush_word(label, lang)
        if shown != label and not latin_only(label):  # (what was saved, and what English
            # readers see instead: "Kush label: kush" hid a saved «монеты»)
            return tr(lang, "settings.label_as", saved=label, shown=shown)
        return shown
    if isinstance(value, float) and not value.is_integer():
        shown = decimal(value, lang)
    elif spec.unit in (Unit.KUSH, Unit.CHIPS) and isinstance(value, int):
        shown = grouped(value, lang)  # (an amount grouped as every amount is: 12 000)
    else:
        shown = _shown(value)
    if named and spec.unit in _TIME_UNITS and isinstance(value, (int, float)):
        # a time with its unit ("30 s", «30 с»; a level's «20 мин»): «Тайм-банк: 30 (по
        # умолчанию 60)» and «Закрытие без игры: 1800» said no unit, only /settings <name> did
        return tr(lang, f"settings.short.{spec.unit.value}", value=shown)
    return shown


#: The units a setting's value is shown with in the list and its answers (:func:`_display`):
#: the timers' (R8.5, R8.2, R8.7); an amount's is the label beside it, a count needs none.
_TIME_UNITS = frozenset({Unit.SECONDS, Unit.MINUTES})


def _is_default(
    s: CommunitySettings, spec: Setting, game: GameKind | str, readers: str | None = None
) -> bool:
    """Whether ``spec`` (for tables of ``game``) has its default value under ``s``: the one a
    group that never set it has (``utc_offset``'s follows the language, ``readers`` as for
    :func:`_current`; the language's own default is auto). A time zone stored is never the
    default, even at the zone the group would have without it: stored, a turn ends at a clock
    time on the table messages ("⏱ until 15:27"), never set it is a countdown (``/settings
    utc_offset 3`` in a Moscow group was said "3 (default)", left out of the short list and
    still offered the reset)."""
    if spec.name == "utc_offset":
        return s.utc_offset is None
    default = _defaults(s, spec)
    now = _current(s, table_options(s, game), spec, readers)
    return bool(now == _current(default, table_options(default, game), spec, readers))


def _played(s: CommunitySettings, spec: Setting) -> dict[GameKind, object]:
    """Rule option ``spec``'s value as the tables of each game it applies to play it under
    ``s`` (R5.3, R6.4: one stored value, else each game's own default)."""
    return {g: getattr(table_options(s, g), spec.name) for g in GameKind if spec.applies_to(g)}


def _pinned(s: CommunitySettings, spec: Setting) -> bool:
    """Whether ``spec`` is a rule option stored in ``s``: one value for every game it
    applies to, even where it is that game's default (R5.3 ``scoring``: a Pineapple group's
    one_six stored is what its Classic OFC tables score too, not their two_per_row), until
    ``/settings <name> default`` drops it. Not one whose default is the same in every game
    (``hand_seconds`` 120 stored: "120 (saved; the default)" only added a line: it plays as
    the default does everywhere)."""
    if spec.community or spec.name not in s.options:
        return False
    return len(set(_played(CommunitySettings(), spec).values())) > 1


def _droppable(
    s: CommunitySettings, spec: Setting, game: GameKind | str, readers: str | None = None
) -> bool:
    """Whether ``spec`` has a value stored in ``s`` that ``/settings <name> default`` drops:
    a group setting other than its field's default, a rule option stored other than its
    default for tables of ``game`` (``readers`` as for :func:`_current`) or pinned for every
    game (:func:`_pinned`)."""
    if spec.community:
        return bool(getattr(s, spec.name) != _FIELD_DEFAULTS[spec.name])
    if spec.name not in s.options:
        return False
    return not _is_default(s, spec, game, readers) or _pinned(s, spec)


def _defaults(s: CommunitySettings, spec: Setting) -> CommunitySettings:
    """The settings of a group that never set ``spec``, against which its value under ``s``
    is the default or not: ``utc_offset``'s default follows the group's language (kept);
    the language's own default is auto ("English (default)" was said of a group that had
    set it)."""
    return CommunitySettings(language=s.language if spec.name == "utc_offset" else None)


def _with_default(
    s: CommunitySettings,
    spec: Setting,
    lang: str,
    label: str,
    game: GameKind | str,
    readers: str | None = None,
) -> str:
    """``spec``'s value (for tables of ``game``) as the settings message shows it, and its
    default: "51 (default)", "1 (default 51)"; ``max_buy_in``'s default 0 is "auto";
    ``readers``: as for :func:`_current`. A rule option ``game`` has not is shown as the
    games it applies to play it (R5.3, R6.4): each its own default when they differ and
    nothing is stored, else the one value stored for every one of them."""
    if not spec.community and not spec.applies_to(RuleOptions.preset(game).game):
        # (a Chinese Poker group's "/settings scoring" said "Now: 1 a box, scoop 6
        # (default)", Pineapple's, though its Classic OFC tables scored 2 a box)
        each = _each_default(spec, lang, label, named=True, s=s)
        if each:  # (nothing stored: each game plays its own default)
            return tr(lang, "settings.each_default", each=each)
        if _pinned(s, spec):  # (one value stored; the defaults differ by game)
            value = _display(s, table_options(s, game), spec, lang, label, readers=readers)
            each = _each_default(spec, lang, label, named=True)
            return tr(lang, "settings.pinned_each", value=value, each=each)
    opts = table_options(s, game)
    shown = _display(s, opts, spec, lang, label, readers=readers)
    if spec.name in ("payouts", "chips_schedule"):  # (its default is a long text of its own)
        return shown
    if _is_default(s, spec, game, readers):
        if _pinned(s, spec):  # (stored: every game it applies to plays it, R5.3, R6.4)
            each = _each_default(spec, lang, label, named=True)
            if each:
                return tr(lang, "settings.pinned_each", value=shown, each=each)
            return tr(lang, "settings.pinned", value=shown)
        return tr(lang, "settings.is_default", value=shown)
    if spec.name == "max_buy_in":
        was = tr(lang, "settings.auto")
    elif spec.name == "utc_offset":  # (the default's number: "5 (default 0)")
        was = _number(_defaults(s, spec).day_zone(readers), lang)
        if s.day_zone(readers) == _defaults(s, spec).day_zone(readers):
            # (stored at the automatic zone: "3 (default auto — 3)", not "3 (default 3)")
            was = tr(lang, "settings.zone_auto", value=was)
    else:
        default = _defaults(s, spec)
        was = _display(default, table_options(default, game), spec, lang, DEFAULT_KUSH_LABEL)
    return tr(lang, "settings.with_default", value=shown, default=was)


#: :func:`settings_version`'s stand-in for the fields of :class:`CommunitySettings` that are
#: bookkeeping, not settings (``compare=False``: ``requests``, ``table_requests``)
_BOOKKEEPING: Mapping[str, list[str]] = {
    f.name: [] for f in fields(CommunitySettings) if not f.compare
}


def settings_version(community: Community) -> str:
    """The version of the settings message: a digest of the community's id and its settings
    (a press made on an older message is stale, and so is one made in a chat that is not
    that community's any more: a Telegram group upgraded to a supergroup, whose old
    messages Android clients still send presses from with the old chat id after a restart
    forgot the move; it saved the setting in a new, empty community of the dead chat and
    said "Saved"). The bookkeeping fields (those settings compare without: the keys of
    applied commands) are left out: they change with no setting shown."""
    data = [community.id, {**community.settings.to_json(), **_BOOKKEEPING}]
    digest = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return "S" + digest[:8]


def _short(spec: Setting, lang: str) -> str:
    """A setting's short title on its buttons, in ``lang`` (``settings.name.<name>``)."""
    return tr(lang, f"settings.name.{spec.name}")


def _title(spec: Setting, lang: str) -> str:
    """How the list names a setting, in either language: its title and, in parentheses, the
    name ``/settings <name> <value>`` takes in that language (:func:`setting_word`: «Время на
    раздачу (время_на_раздачу)»). A title that is its name as typed with spaces («Язык»,
    «Часовой пояс», "Kush per point": ``/settings kush per point 5`` is taken) is shown
    alone: «Язык (язык)» said it twice on a phone, and 13 English lines so took a list on
    Discord past its 2,000 characters."""
    short, word = _short(spec, lang), setting_word(spec, lang)
    if _setting_key(short) == _setting_key(word):
        return short
    return f"{short} ({word})"


def _help_title(spec: Setting, lang: str) -> str:
    """How ``/settings <name>`` titles a setting: by its title and name ("Kush per point
    (kush_per_point)"; the list names it by its title alone where they read alike, :func:`_title`)
    and, in Russian, with its Russian name (which the range and other answers name it by,
    :func:`setting_word`) and its English one too («Время на раздачу (время_на_раздачу,
    hand_seconds)», «Язык (language)»)."""
    short = _short(spec, lang)
    if lang != "ru":
        return f"{short} ({spec.name})"
    words = [spec.ru_name, spec.name]
    if _setting_key(short) == _setting_key(spec.ru_name):
        words = [spec.name]
    return f"{short} ({', '.join(words)})"


def settings_screen(
    community: Community,
    lang: str,
    game: GameKind | None = None,
    *,
    label: str,
    full: bool = True,
    readers: str | None = None,
    table: LiveTable | None = None,
) -> Screen:
    """The admin settings message: the settings of ``game`` (the game of the chat's open
    table; the community's game when none is open) with their values and buttons (−/+ for
    numbers, ⟳ for the others; none for the label). ``full``: every one of them (``/settings
    all``, the "All settings" button); else only those that differ from their defaults, each
    with its default ("200 (default 100)"), and a line saying how many others there are and
    how to list them, with an "All settings" button (``/settings`` alone: some 34 lines
    were too long for a phone). A press on either list shows that list again. ``label``: the
    kush label as messages show it (:meth:`Runtime.kush_label`); ``readers``: the language
    most of the group's players read (:func:`readers_language`: a time zone never set
    follows it under ``auto``); ``table``: the chat's open table, whose value still in force
    of a setting saved to apply later (R6.6, R8.2) each line names after the saved one
    (:func:`_in_play`), a setting at its default listed then too. A short list longer
    than the full one (nearly every setting changed, each with its default) is the full one."""
    s = community.settings
    opts = table_options(s, game)
    v = settings_version(community)
    lines = [tr(lang, on(community.platform, "settings.title"))]
    rows: list[tuple[Button, ...]] = []
    others = 0
    # the group's game is the game of new tables, not a rule of an open table of another
    # game: "Game (game): Pineapple OFC" under "Shown: what applies to Chinese Poker" read as
    # the Chinese Poker table's; it is said apart, after that section, with its button
    apart = s.game != opts.game.value
    after: list[str] = []
    after_rows: list[tuple[Button, ...]] = []
    legend = False  # a line says " (in play: 1)": the last says till when
    for spec in SETTINGS.values():
        if not spec.applies_to(opts.game):
            continue
        if apart and spec.name == "game":
            if full or not _is_default(s, spec, opts.game, readers):
                value = _display(s, opts, spec, lang, label, readers=readers)
                after.append(tr(lang, "settings.game_apart", value=value,
                                table=tr(lang, f"game.{opts.game.value}")))  # fmt: skip
                button = Button(
                    f"{_short(spec, lang)} ⟳", encode(SettingStep(0, v, spec.code, "~", not full))
                )
                after_rows.append((button,))
            continue
        name = _title(spec, lang)
        waiting = _waiting(s, spec, table, lang, label, readers)
        keeps = _in_play(waiting, lang, brief=True)
        legend = legend or (waiting is not None and waiting[1])
        if full:
            value = _display(s, opts, spec, lang, label, readers=readers)
        elif _is_default(s, spec, opts.game, readers) and not _pinned(s, spec) and not keeps:
            # (a rule option stored at this game's default is listed: another game's
            # tables play it, not their own default)
            others += 1
            continue
        else:
            value = _with_default(s, spec, lang, label, opts.game, readers)
        lines.append(tr(lang, "settings.line", name=name, value=value + keeps))
        short = _short(spec, lang)
        if spec.kind is Kind.TEXT:
            continue
        if spec.step:
            step = _shown(spec.step)
            rows.append(
                (
                    Button(f"{short} −{step}", encode(SettingStep(0, v, spec.code, "-", not full))),
                    Button(f"+{step}", encode(SettingStep(0, v, spec.code, "+", not full))),
                )
            )
        else:
            rows.append(
                (Button(f"{short} ⟳", encode(SettingStep(0, v, spec.code, "~", not full))),)
            )
    if legend:
        lines.append(tr(lang, "settings.in_force_legend"))
    if full:
        lines.append(tr(lang, "settings.footer", game=tr(lang, f"game.{opts.game.value}")))
        return Screen("\n".join([*lines, *after]), (*rows, *after_rows))
    game_name = tr(lang, f"game.{opts.game.value}")
    rows.extend(after_rows)
    buttons = tr(lang, "settings.with_buttons")  # (the sandbox, which shows none, cuts it)
    if len(lines) == 1:
        # (Discord's presenter names its command: /ofcadmin settings all)
        lines.append(tr(lang, "settings.all_default", game=game_name, with_buttons=buttons))
    elif others:  # (none left at its default: the list is the whole one)
        key = "settings.others_default"
        lines.append(tr(lang, key, n=others, game=game_name, with_buttons=buttons))
    rows.append((Button(tr(lang, "settings.all_button"), encode(AllSettings(0, v))),))
    brief = Screen("\n".join([*lines, *after]), tuple(rows))
    whole = settings_screen(
        community, lang, game, label=label, full=True, readers=readers, table=table
    )
    # (nearly every setting changed: each line's "(default …)" made the short list the longer,
    # past Discord's 2,000 characters; the whole list, shorter, is shown instead)
    return whole if len(whole.text) < len(brief.text) else brief


def _waiting(
    s: CommunitySettings,
    spec: Setting,
    table: LiveTable | None,
    lang: str,
    label: str,
    readers: str | None = None,
) -> tuple[str, bool] | None:
    """The value cash table ``table`` still plays of ``spec`` as the list shows it, and
    whether it waits for the match's end (else the hand's), when it is another value than
    the one saved under ``s`` (``None`` otherwise; :func:`_in_play` words
    it). A rule option waits for the match's end (R6.6; in Chinese Poker,
    which has no Fantasyland, the hand's, R7), the buy-in for the hand's (or the match's when
    below the point in force, R8.2; :func:`~.dealing.apply_pending`). The list showed the
    saved value alone, read as the one in force. Not ``time_bank_seconds`` (the seated keep
    their bank, R8.6) nor ``ready_seconds`` (it applies at once)."""
    if table is None or table.tournament is not None:
        return None
    options = table.options
    if spec.name == "min_buy_in":
        if table.pending_buy_in is None or table.pending_buy_in == table.min_buy_in:
            return None
        shown = grouped(table.min_buy_in, lang)
        later = table.pending_buy_in < options.kush_per_point
    elif (
        spec.community
        or spec.name in ("time_bank_seconds", "ready_seconds")
        or not spec.applies_to(options.game)
        or table.pending_options is None
        or getattr(table.pending_options, spec.name) == getattr(options, spec.name)
    ):
        return None
    else:
        shown = _display(s, options, spec, lang, label, readers=readers)
        later = options.game is not GameKind.CHINESE
    return shown, later


def _in_play(waiting: tuple[str, bool] | None, lang: str, *, brief: bool = False) -> str:
    """What a setting's value is followed by while the chat's table still plays another
    (:func:`_waiting`; ``""`` when none): " (in play: 200 till the hand ends)", " (in play:
    1 till the match ends)" for ``/settings <name>``; ``brief``, the list's, a wait for the
    match's end as " (in play: 1)", the list's last line (``settings.in_force_legend``)
    saying once till when: 16 lines of " till the match ends" took an English list on
    Discord past its 2,000 characters, which Discord cut."""
    if waiting is None:
        return ""
    shown, later = waiting
    match = "settings.in_force_brief" if brief else "settings.in_force_match"
    return tr(lang, match if later else "settings.in_force_hand", value=shown)


#: the settings meant by the words a group tries that no setting name is spelled like
#: (``/settings stakes 5`` got no suggestion at all): what a hand costs is the kush a point is
#: worth and the buy-in; a few other common words, English and Russian
SETTING_WORDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("stake", "stakes", "blind", "blinds", "ante", "point", "points", "limit", "limits",
         "ставка", "ставки", "блайнд", "блайнды", "анте", "очко", "очки", "лимит"),
        ("kush_per_point", "min_buy_in"),
    ),
    # (a tournament's buy-in too: «Взнос турнира», "Tournament buy-in" in the list, where an
    # admin looking for it read the word; "взнос" offered the cash table's two alone)
    **dict.fromkeys(
        ("buyin", "buy-in", "байин", "бай-ин"), ("min_buy_in", "max_buy_in", "tournament_buy_in")
    ),
    # («взнос» alone is min_buy_in's Russian name, :attr:`Setting.ru_name`)
    **dict.fromkeys(("взносы",), ("min_buy_in", "tournament_buy_in")),
    # (and the ready timer, «Таймер готовности», "Ready timer" in the list)
    **dict.fromkeys(
        ("timer", "timers", "таймер", "таймеры"),
        ("hand_seconds", "time_bank_seconds", "ready_seconds"),
    ),
    **dict.fromkeys(("time", "timeout", "время"), ("hand_seconds", "time_bank_seconds")),
    # (/help calls kush_per_point "the point's price", and the list's "Point price by level"
    # is chips_schedule: "/settings price" was offered chips_schedule alone, "prices" pictures,
    # "point_price" nothing)
    **dict.fromkeys(("price", "prices"), ("kush_per_point", "chips_schedule")),
    **dict.fromkeys(("point_price", "point_value"), ("kush_per_point",)),
    **dict.fromkeys(("bonus",), ("daily_bonus",)),
    **dict.fromkeys(("lang",), ("language",)),
    **dict.fromkeys(("currency", "unit", "label"), ("kush_label",)),
    **dict.fromkeys(("timezone", "zone", "tz", "пояс", "часовой"), ("utc_offset",)),
}  # fmt: skip

#: Russian phrasings of a setting (one to three words, as :func:`_setting_key` writes them),
#: used only to suggest its name when no setting is named so (:func:`close_settings`): a
#: Russian admin's «/settings цена очка» was offered цена_по_уровням alone (its first word
#: «цена» is a word of that name; «Цена очка по уровням» its title), not куш_за_очко. Checked
#: before the words of names, longest phrase first; setting nothing.
SETTING_PHRASES: Mapping[str, tuple[str, ...]] = {
    _setting_key(phrase): names
    for phrases, names in (
        (("цена очка", "цена очков", "стоимость очка", "стоимость очков", "цена за очко",
          "стоимость за очко"), ("kush_per_point", "chips_schedule")),
        (("ставка за очко", "ставка очка", "кушей за очко", "куш за очки", "кушей за очки",
          "за очко", "очко стоит", "сколько стоит очко", "размер ставки", "очка", "очков"),
         ("kush_per_point",)),
        (("минимальный взнос", "мин взнос", "размер взноса", "цена входа", "стоимость входа",
          "вход"), ("min_buy_in",)),
        (("максимальный стек", "максимальный взнос", "макс взнос", "лимит стека",
          "предел стека"), ("max_buy_in",)),
        (("время на ход", "время хода", "таймер хода", "время раздачи"), ("hand_seconds",)),
        (("начальный баланс", "стартовые куши", "баланс новичка"), ("starting_balance",)),
        (("ежедневный бонус", "бонус за день"), ("daily_bonus",)),
        (("временная зона", "часовая зона", "зона времени"), ("utc_offset",)),
        (("турнирный взнос", "взнос в турнир", "вход в турнир"), ("tournament_buy_in",)),
        (("язык бота",), ("language",)),
    )
    for phrase in phrases
}  # fmt: skip
assert not set(SETTING_PHRASES) & set(SETTING_NAMES), "a phrase that names a setting is its name"
assert all(n in SETTINGS for names in SETTING_PHRASES.values() for n in names)

#: The most words a phrase of :data:`SETTING_PHRASES` has.
_PHRASE_WORDS = max(len(k.split("_")) for k in SETTING_PHRASES)


def close_settings(name: str, more: Sequence[str] = ()) -> list[str]:
    """The setting names closest to a mistyped ``name`` (difflib's, at most 3, the closest
    first, leaving out those clearly further than the closest: ``handseconds`` is
    ``hand_seconds`` alone, ``buy_in`` both buy-ins; none when nothing is close), or the ones
    a common word means (:data:`SETTING_WORDS`: ``stakes`` is ``kush_per_point`` or
    ``min_buy_in``). ``more``: the words typed after ``name``, for a phrase of two or three
    words (:data:`SETTING_PHRASES`: «цена очка» is ``kush_per_point``, then the tournament's
    ``chips_schedule``)."""
    name = name.lower()
    words = [name, *(w.lower() for w in more[: _PHRASE_WORDS - 1])]
    for n in range(len(words), 0, -1):
        phrase = SETTING_PHRASES.get(_setting_key(" ".join(words[:n])))
        if phrase:
            return list(phrase)
    if name in SETTING_WORDS:
        return list(SETTING_WORDS[name])
    # a word of their names typed alone ("ready", "idle", "bank"): difflib finds it too
    # unlike the whole name ("ready" is not "ready_seconds"), or finds one spelled alike
    # ("pause" was "payouts"); a word in more than 3 names ("seconds") says too little
    key = _setting_key(name)
    named = [
        s.name
        for s in SETTINGS.values()
        if len(key) >= 3 and (key in s.name.split("_") or key in _setting_key(s.ru_name).split("_"))
    ]
    if 0 < len(named) <= 3:
        return named
    # a word of the names the settings are shown by, in either language: "/settings банк"
    # (of «Тайм-банк») got no suggestion while "/settings bank" got time_bank_seconds
    shown = _shown_words().get(name, ())
    if 0 < len(shown) <= 3:
        return list(shown)
    # (the Russian names too: "/settings времяфантазии" is fantasyland_seconds)
    close = difflib.get_close_matches(key, list(SETTING_NAMES), n=3, cutoff=0.6)
    ratios = [difflib.SequenceMatcher(None, key, c).ratio() for c in close]
    kept = [c for c, r in zip(close, ratios, strict=True) if r >= ratios[0] - _CLOSE_MARGIN]
    return list(dict.fromkeys(SETTING_NAMES[c].name for c in kept))


def _phrase_fits(key: str, phrase: str) -> bool:
    """Whether ``key`` (typed, as :func:`_setting_key` writes it) is in the phrase ``phrase``
    (a key of :data:`SETTING_PHRASES`): a part of it as written, or its words each the start
    of the phrase's words in a row («мин_вз» of «мин_взнос», «ставка_за_оч»); never for
    nothing typed."""
    if not key:
        return False
    if key in phrase:
        return True
    typed, words = key.split("_"), phrase.split("_")
    return any(
        all(w.startswith(t) for t, w in zip(typed, words[i:], strict=False))
        for i in range(len(words) - len(typed) + 1)
    )


def setting_suggestions(typed: str, limit: int = 25) -> list[tuple[Setting, str | None]]:
    """Discord's autocomplete of a setting's name: the settings :func:`settings_matching`
    finds by their names, each with ``None``, then those a Russian phrase of
    :data:`SETTING_PHRASES` that ``typed`` is in or begins (:func:`_phrase_fits`: «цена
    очка», «мин вз») means, in the phrase's order, each with the first such phrase (words
    apart by spaces), then those a word of :data:`SETTING_WORDS` that ``typed`` is in or
    begins means («очко»: ``min_buy_in`` too; "stakes", «байи»), each with the first such
    word, as the command suggests for it (:func:`close_settings`; the autocomplete offered
    phrases alone); none listed twice, at most ``limit`` (Discord shows 25). (A phrase or
    word names no setting: the suggestion passes the setting's own name.)"""
    found: dict[str, tuple[Setting, str | None]] = {
        s.name: (s, None) for s in settings_matching(typed, limit)
    }
    key = _setting_key(typed)
    for phrase, names in SETTING_PHRASES.items():
        if _phrase_fits(key, phrase):
            for name in names:
                found.setdefault(name, (SETTINGS[name], phrase.replace("_", " ")))
    for word, names in SETTING_WORDS.items():
        if _phrase_fits(key, _setting_key(word)):
            for name in names:
                found.setdefault(name, (SETTINGS[name], word))
    return list(found.values())[:limit]


def _shown_words() -> dict[str, tuple[str, ...]]:
    """The settings each word of their shown names means (``settings.name.<name>``, English
    and Russian, in lower case: "банк" and "тайм-банк" are ``time_bank_seconds``, "стек"
    ``max_buy_in``); words shorter than 3 letters left out."""
    if _SHOWN_WORDS:
        return _SHOWN_WORDS
    for name in SETTINGS:
        for lang in LANGS:
            shown = tr(lang, f"settings.name.{name}").lower()
            words = {w for w in re.split(r"[\W_]+", shown) if len(w) >= 3}
            words.add(shown)
            for word in words:
                if name not in _SHOWN_WORDS.get(word, ()):
                    _SHOWN_WORDS[word] = (*_SHOWN_WORDS.get(word, ()), name)
    return _SHOWN_WORDS


_SHOWN_WORDS: dict[str, tuple[str, ...]] = {}

#: how much less like the typed name than the closest a suggested setting name may be
_CLOSE_MARGIN = 0.1


def unknown_setting_text(shown: str, name: str, lang: str, more: Sequence[str] = ()) -> str:
    """The answer to ``/settings <name>`` for a name that is no setting: the name as
    ``shown`` (cleaned, cut, escaped for the platform: ``Runtime.typed_text``), the closest
    names, if any, and the short usage (which says that ``/settings`` lists them all: every
    name on one line was too long to read on a phone). ``more``: the words typed after the
    name, as for :func:`close_settings`."""
    text = tr(lang, "reply.settings_unknown", name=shown)
    # (by the names the reader's screen shows: a Russian group's in Russian, «язык»)
    close = [setting_word(SETTINGS[n], lang) for n in close_settings(name, more)]
    if not close:
        return text + "\n" + tr(lang, "reply.settings_usage_short")
    *first, last = close
    names = tr(lang, "reply.settings_or", first=", ".join(first), last=last) if first else last
    return (
        text
        + " "
        + tr(lang, "reply.settings_did_you_mean", names=names)
        + "\n"
        + tr(lang, "reply.settings_usage_short")
    )


# -- changing them -----------------------------------------------------------------------------
async def settings(
    rt: Runtime,
    community: Community,
    lang: str,
    args: list[str],
    own: str | None = None,
    game: GameKind | None = None,
    tournament: int | None = None,
    request: str | None = None,
    here: int | None = None,
) -> Reply:
    """``/settings`` (show with buttons), ``/settings <name>`` (what it is) or
    ``/settings <name> <value>`` (the caller checked that an admin asks, in the group).
    ``own`` is the asking admin's own language (``"en"``/``"ru"``): a change of ``language``
    to ``auto`` is answered in it, to ``en``/``ru`` in the new language. ``game`` is the game
    of the chat's open table, if any: values are shown as that table's game has them (the
    community's game, the game of new tables, otherwise); ``tournament``: that table's
    number when it is a tournament's (R8.7). A value with no name before it (``args[0]``
    empty: a platform whose command takes the name apart, e.g. Discord's ``name`` option
    left out; or a first word that begins as a number does, ``/settings 30``: no setting's
    name does) is refused with the short usage (``reply.settings_no_name``), nothing
    changed. ``request``: the platform's key of the command, saved with the change it makes
    (:attr:`~storage.api.CommunitySettings.requests`); ``here``: the number of the chat's
    open table (:func:`_change`)."""
    if asks_list(args):
        # alone: the settings that differ from their defaults; "all": every one
        readers = await readers_language(rt, community)
        label = rt.kush_label(community)
        full = bool(args)
        table = _own_cash_table(rt, community.id, here)
        screen = settings_screen(
            community, lang, game, label=label, full=full, readers=readers, table=table
        )
        return Reply(screen=screen)
    # (copied text brings invisible format characters: "hand_seconds\u200b" was "not a
    # setting", shown as “hand_seconds”; a label's are dropped where it is saved, its emoji's
    # joiners kept, :func:`updated`)
    name = unformatted(args[0]).lower()
    if not name or _begins_as_number(name):
        text = tr(lang, "reply.settings_no_name") + "\n" + tr(lang, "reply.settings_usage_short")
        return Reply(text, alert=True)
    # the English or Russian name, its words joined by "_" or typed apart ("время на раздачу")
    spec, words = leading_setting([unformatted(a) for a in args])
    typed_name = _typed_name(args)  # (as typed, for a name that is none)
    args = [name if spec is None else spec.name, *args[words:]]
    value = " ".join(args[1:])
    if spec is None or spec.name != "kush_label":
        value = unformatted(value)
    if spec is None:
        typed = rt.typed_text(community.platform, clean_arg(typed_name, _TYPED_NAME_MAX))
        after = [unformatted(a) for a in args[1:]]  # («цена очка»: a phrase, SETTING_PHRASES)
        return Reply(unknown_setting_text(typed, name, lang, after), alert=True)
    if len(args) > 1 and not value.strip():
        # a value typed that is nothing once cleaned (NUL or other control characters alone,
        # which Discord's option passes on): it was answered with the help, as if no value
        # had been typed; refused with the range, nothing changed
        error = SettingRefused(spec.range_text, spec).says(lang, rt.kush_label(community))
        return Reply(refusal_text(lang, error), alert=True)
    if not value.strip():
        s = community.settings
        label = rt.kush_label(community)
        readers = await readers_language(rt, community)
        shown = _with_default(s, spec, lang, label, game or s.game, readers)
        # (the value the chat's table still plays beside the one saved, as the list says)
        waiting = _waiting(s, spec, _own_cash_table(rt, community.id, here), lang, label, readers)
        shown += _in_play(waiting, lang)
        text = spec.help_text(lang, shown, label, community.platform)
        if _droppable(s, spec, game or s.game, readers):  # (the way back was not said)
            text += "\n" + tr(lang, "settings.reset_hint", name=setting_word(spec, lang))
        return Reply(text)
    if (more := _second_setting(spec, args, lang)) is not None:
        # "/settings min_buy_in 100 max_buy_in 500" was refused as min_buy_in's value ("takes
        # a whole number from 1 to …": 100 is one) with how to write digits
        first, second = (rt.typed_text(community.platform, clean_arg(x, 40)) for x in more)
        return Reply(
            tr(lang, "reply.settings_one_at_a_time", first=first, second=second), alert=True
        )
    # a command is answered with what it saved alone (the whole list, some 30 lines, is
    # too long on a phone) and how to see the list; a press edits the list in place
    return await _change(
        rt,
        community,
        lang,
        spec,
        value,
        own,
        game,
        listed=False,
        tournament=tournament,
        request=request,
        here=here,
    )


def _second_setting(spec: Setting, args: list[str], lang: str) -> tuple[str, str] | None:
    """Two settings typed in one command (``/settings min_buy_in 100 max_buy_in 500``): the
    first and the second (each its name in ``lang``, :func:`setting_word`, and its value as
    typed: «взнос 100», «макс_стек 500» in Russian), ``None`` when the value names no other
    setting after its first word: by its name in one word or typed apart, as the first is
    read (:func:`leading_setting`: «время на раздачу 60 тайм банк 30» was refused as
    время_на_раздачу's value and told to type digits; «взнос 100 взнос турнира 5» named
    взнос second). A label (``kush_label``) is text that may hold any word, a setting's
    name too."""
    if spec.name == "kush_label":
        return None
    for at in range(2, len(args)):
        other, words = leading_setting(args[at:])
        if other is not None:
            first = " ".join([setting_word(spec, lang), *args[1:at]])
            return first, " ".join([setting_word(other, lang), *args[at + words :]])
    return None


#: the longest name an answer quotes of one that is no setting (longer, cut with "…")
_TYPED_NAME_MAX = 40


def _typed_name(args: Sequence[str]) -> str:
    """The name an admin typed in ``/settings`` ``args`` for a setting that is none, to quote
    back: its words up to the value (a word that begins as a number, or a reset word such as
    «по умолчанию», :func:`resets`; else a last word that is a value of some setting of
    choices or on/off: ``/settings языкк en``), spaces trimmed, in lower case as the name is
    read (``/settings время раздачи 60`` quoted «время» alone)."""
    words = [unformatted(a) for a in args]
    for i in range(1, len(words)):
        if _begins_as_number(words[i].strip()) or resets(" ".join(words[i:])):
            words = words[:i]
            break
    else:
        if len(words) > 1 and _a_value(words[-1]):
            words = words[:-1]
    return " ".join(" ".join(words).split()).lower()


def _a_value(word: str) -> bool:
    """Whether ``word`` is a value a setting of choices or on/off takes (``en``, «вкл»)."""
    for spec in SETTINGS.values():
        if spec.kind in (Kind.SWITCH, Kind.CHOICE) or spec.auto:
            with contextlib.suppress(SettingRefused):
                spec.parse(word)
                return True
    return False


def _begins_as_number(word: str) -> bool:
    """Whether ``word`` begins as a number does (``30``, ``-5``, ``.5``, ``50,30,20``): a
    value, never a setting's name (every name begins with a letter)."""
    return word[:1].isdigit() or (word[:1] in "+-−.," and word[1:2].isdigit())


async def _change(
    rt: Runtime,
    community: Community,
    lang: str,
    spec: Setting,
    value: str,
    own: str | None,
    table_game: GameKind | None,
    *,
    listed: bool = True,
    full: bool = True,
    tournament: int | None = None,
    request: str | None = None,
    version: str | None = None,
    here: int | None = None,
    readers: str | None = None,
) -> Reply:
    """Save ``spec`` = ``value`` and answer what was saved and the value it replaced
    ("Saved: min_buy_in = 500 (was 200).", a label's or another game's note after it), or
    "Already so" when nothing changed; ``listed``: with the settings
    list (a press on it: the full list, or with ``full`` false the short one, as it was on),
    else with how to see the list (a command); ``tournament``: the
    number of the chat's open table when it is a tournament's (R8.7); ``here``: the number
    of the chat's open table, whose taking of the value the answer tells; ``request``: the
    platform's key of the command or press, saved with the change; ``version``: a press's,
    of its settings message (:func:`change_setting`); ``readers``: the language most of the
    group's players read (:func:`readers_language`), read here when not given."""
    seen: list[CommunitySettings] = []
    # (read before the change: once its tables' steps took their time, storage has none
    # left of the command's, STORAGE_WAIT_SECONDS)
    if readers is None:
        readers = await readers_language(rt, community)
    try:
        community = await change_setting(
            rt, community, spec.name, value, own, request, version, stored=seen, game=table_game
        )
    except SettingsStale:
        return Reply(tr(lang, "err.stale_settings"), alert=True)
    except SettingRefused as exc:
        error = exc.says(lang, rt.kush_label(community))
        return Reply(refusal_text(lang, error), alert=True)
    s = community.settings
    # (as stored when it was changed: the settings read before may be older, another admin's
    # change saved since on another worker, which this one may have undone: "Already so")
    before = seen[-1] if seen else s
    if spec.name == "language":  # the group just chose it: the answer is already in it
        lang = group_language(s) or own or lang
    opts = table_options(s, table_game)
    label = rt.kush_label(community)
    called = setting_word(spec, lang)  # (in Russian by its Russian name: «время_на_раздачу»)
    what = f"{called} = {_display(s, opts, spec, lang, label, False, readers)}"
    named = _display(s, opts, spec, lang, label, readers=readers)
    if (
        lang != "en"
        and spec.kind is Kind.CHOICE
        and spec.name != "language"
        and named != _display(s, opts, spec, "en", rt.kush_label(community))
    ):  # a choice as /settings takes it, and as the group reads it: "game = pineapple" alone
        # answered «ананас» in English
        what += f" — {named}"
    # the value it replaced ("Saved: min_buy_in = 500." alone left the admin unsure what the
    # group had had before, to undo it)
    old_label = rt.typed_text(community.platform, before.kush_label)
    was_opts = table_options(before, table_game)
    was = _display(before, was_opts, spec, lang, old_label, False, readers)
    head = what
    if spec.name == "kush_label":  # the label as typed, before its note ("(readers of
        # English see "kush")"), and the old one as this reader saw it
        was = kush_word(old_label, lang)
        if was == label != old_label:  # (a label English readers see as "kush", «монеты»,
            # given back to "kush": "kush (was kush)" named no change, R8.1)
            was = old_label
        head = f"{called} = {label}" if what.startswith(f"{called} = {label}") else what
    # a rule option whose shown value stays, saved for another game it applies to (a Chinese
    # Poker group's scoring one_six: Classic OFC's tables scored two_per_row, R5.3): "Already
    # so" hid the change; it is saved, and what each game had is said
    others_moved = _games_moved(before, s, spec) and was == _display(
        s, opts, spec, lang, label, False, readers
    )
    if others_moved or not spec.applies_to(was_opts.game):
        # (an option this game has not: what each game it applies to played, when they
        # differed; a Chinese Poker group's "scoring two_per_row" read "(was one_six)",
        # Pineapple's default, though its Classic OFC tables scored two_per_row already)
        was = _each_default(spec, lang, label, s=before) or was
    changed = head + tr(lang, "settings.was", value=was) + what[len(head) :]
    game = opts.game
    plain, elsewhere = what, ""
    if not spec.applies_to(game):
        elsewhere = tr(
            lang,
            on(community.platform, "settings.elsewhere")
            if table_game is None
            else "settings.elsewhere_table",
            games=spec.in_games(lang),
            game=tr(lang, f"game.{game.value}"),
        )
        what += elsewhere
        changed += elsewhere
    # the value it had already: "Saved" left the admin thinking something had changed
    # (a default saved as the value it stands for reads the same: nothing changed either;
    # the label is shown as the new one reads, so it is compared as saved)
    shown_before = _display(
        before, table_options(before, table_game), spec, lang, label, readers=readers
    )
    same = community.settings == before or (
        spec.name != "kush_label"
        and not others_moved
        and shown_before == _display(s, opts, spec, lang, label, readers=readers)
    )
    text = (
        tr(lang, "reply.settings_same", what=what)
        if same
        else tr(lang, "reply.settings_saved", what=changed)
    )
    if resets(value):  # (nothing stored any more: said as its default, each game's own)
        each = _each_default(spec, lang, label)
        if community.settings == before:
            what = f"{called} — {each}" if each else plain + elsewhere
            text = tr(lang, "reply.settings_already_default", what=what)
        else:
            was_text = tr(lang, "settings.was", value=was)
            what = f"{called}{was_text} — {each}" if each else plain + was_text + elsewhere
            text = tr(lang, "reply.settings_reset", what=what)
        word = " ".join(unformatted(value).split()) if spec.name == "kush_label" else ""
        if word and word.casefold() not in _DOCUMENTED_RESETS:
            # (a label "reset" or «сброс» wanted: it gave the default back, and said nothing
            # of the word; a word of DEFAULT_WORDS is letters alone, shown as typed; not said
            # under the reset the help names, "default" or «по умолчанию»: noise there)
            text += "\n" + tr(lang, "settings.label_reset_word", word=word)
    if spec.name == "game" and table_game is not None and s.game != table_game.value:
        # the open table keeps its game: saying only "Saved: game = ofc" left the admin
        # waiting for the table to change; a tournament's is not closed for it (an admin's
        # close cancels it, every buy-in back, R8.7): it comes when the tournament is over
        text += "\n" + tr(
            lang,
            "settings.game_next_table" if tournament is None else "tour.game_next",
            table=tr(lang, f"game.{table_game.value}"),
            game=tr(lang, f"game.{s.game}"),
            number=tournament,
        )
    if spec.name == "time_bank_seconds" and _seated(rt, community.id):
        # a seated player's bank never refills at the same table (R8.5, R8.6): the new
        # value is the bank of who sits down later ("the table takes it when the hand is
        # over" left the admin expecting the seated players' banks to change); nothing
        # changed ("Already so", "Already default"), there is nothing new to apply
        if not same:
            text += "\n" + tr(lang, "settings.bank_new_seats")
    elif (
        not spec.community
        and spec.applies_to(game)
        and _still_waits(rt, community.id, spec.name, here)
    ):
        # a rule option applies between matches (R6.6): "Saved" alone during a hand left the
        # admin expecting it at once (a new kush_per_point settled the hand at the old one)
        text += "\n" + _waiting_text(rt, community.id, spec.name, lang, here)
    elif spec.name == "min_buy_in" and (waiting := _buy_in_waits(rt, community.id, here)):
        # a buy-in comes into force between hands (R8.2, :func:`~.dealing.apply_pending`):
        # "Saved" alone during a hand left the admin expecting it at once
        text += "\n" + tr(lang, waiting)
    if (
        spec.name == "min_buy_in"
        and not same
        and (below := _bought_in_below(rt, community.id, s.min_buy_in, lang, here))
    ):
        # a Ready pressed at the old, lower buy-in for a hand not dealt yet is kept as it was
        # paid (R8.2: no kush moves without the player's press; a lowered one gives the
        # difference back, :func:`~.dealing.apply_pending`): "Saved" and "It applies from the
        # next hand" alone read as if their stacks would be raised too
        text += "\n" + tr(lang, "settings.buy_in_kept", stacks=below)
    if spec.name in ("min_buy_in", "starting_balance") and s.starting_balance < s.min_buy_in:
        # saved all the same (kush from /daily or an admin's grant still seats them), but
        # "Saved" alone left the admin unaware that nobody new could play (R8.2)
        text += "\n" + tr(
            lang,
            "settings.start_below_buy_in",
            balance=s.starting_balance,
            buy_in=s.min_buy_in,
            label=rt.kush_label(community),
        )
    if (
        spec.name == "kush_label"
        and not same
        and not latin_only(s.kush_label)
        and group_language(s) != "ru"
    ):  # a label in other letters than Latin ones: readers of English see "kush" instead
        # (kush_word); said unless the group reads Russian only
        text += "\n" + tr(lang, "settings.label_english")
    played = [t for t in _tournaments(rt, community.id) if t.id == tournament]
    if spec.name in ("min_buy_in", "max_buy_in") and played and not same:
        # the chat's table is a tournament, whose buy-in is its own (R8.7: fixed when it
        # opened, ``tournament_buy_in``): "Saved" alone beside its lobby's "Buy-in 100"
        # left the admin expecting the tournament's buy-in to change
        tour = played[0].tournament
        assert tour is not None
        text += "\n" + tr(
            lang,
            "tour.buy_in_own",
            table=played[0].id,
            buy_in=tour.config.buy_in,
            label=label,
            name=called,
            setting=setting_word("tournament_buy_in", lang),
        )
    kept = [t.id for t in _tournaments(rt, community.id) if _kept_by(t, spec)]
    if kept and not same:
        # a tournament keeps what its players registered for (R8.7): "Saved" alone left the
        # admin expecting the open tournament to take it (its lobby still said otherwise);
        # nothing changed ("Already so", "Already default"), there is nothing new to apply
        # from the next /tournament (several, a group with topics: «Турниры #1, #2 идут», not
        # «Турнир #1, #2 идёт»)
        key = "tour.settings_kept" if len(kept) == 1 else "tour.settings_kept_many"
        text += "\n" + tr(lang, key, tables=", ".join(f"#{n}" for n in kept))
    if not listed:
        return Reply(text + "\n" + tr(lang, "settings.list_hint"))
    table = _own_cash_table(rt, community.id, here)
    screen = settings_screen(
        community, lang, table_game, label=label, full=full, readers=readers, table=table
    )
    return Reply(text, screen=screen)


def _games_moved(before: CommunitySettings, after: CommunitySettings, spec: Setting) -> bool:
    """Whether rule option ``spec`` is played differently under ``after`` than ``before`` by
    the tables of some game it applies to (``False`` for a group setting)."""
    return not spec.community and _played(before, spec) != _played(after, spec)


def _each_default(
    spec: Setting,
    lang: str,
    label: str,
    named: bool = False,
    s: CommunitySettings | None = None,
) -> str:
    """A rule option's default in each game it applies to, when they differ, as the answer
    to ``/settings <name> default`` names them ("Pineapple OFC: one_six, Classic OFC:
    two_per_row", R5.3); ``named``: each as the list names it ("1 a box, scoop 6",
    :func:`_display`); ``s``: the values of each game under these settings instead of the
    defaults; ``""`` for a group setting or one value for every game."""
    if spec.community:
        return ""
    fresh = s or CommunitySettings()
    kinds = [g for g in GameKind if spec.applies_to(g)]
    shown = [_display(fresh, table_options(fresh, g), spec, lang, label, named) for g in kinds]
    if len(set(shown)) <= 1:
        return ""
    return ", ".join(
        f"{tr(lang, f'game.{g.value}')}: {v}" for g, v in zip(kinds, shown, strict=True)
    )


#: The settings a tournament opens with (:func:`tournament_config`).
TOURNAMENT_SETTINGS = frozenset(
    {"tournament_buy_in", "tournament_chips", "level_minutes", "payouts", "chips_schedule"}
)

#: Rule options a tournament table has no use for: chips are settled every hand at the
#: level's chips per point (R8.7), and nobody presses Ready.
_NOT_IN_TOURNAMENTS = frozenset({"kush_per_point", "settle_per_round", "ready_seconds"})


def _tournaments(rt: Runtime, community_id: int) -> list[LiveTable]:
    """The community's tournament tables here (registering or running), by number."""
    return sorted(
        (
            t
            for t in rt.tables.values()
            if t.community_id == community_id and t.tournament is not None
        ),
        key=lambda t: t.id,
    )


def _kept_by(t: LiveTable, spec: Setting) -> bool:
    """Whether tournament table ``t`` keeps its own value of ``spec`` (R8.7: the tournament's
    settings and the rule options of its game, fixed when it opened), where it would use it."""
    if spec.name in TOURNAMENT_SETTINGS:
        return True
    return (
        not spec.community
        and spec.name not in _NOT_IN_TOURNAMENTS
        and spec.applies_to(t.options.game)
    )


def _cash_tables(rt: Runtime, community_id: int, here: int | None) -> list[LiveTable]:
    """The community's cash tables whose taking of a changed setting an answer tells: the
    chat's own (``here``) when it is one, else all of them here. With tables in a channel
    and in a thread of it (Discord), the admin in the thread was told of the channel's
    table: "after any Fantasyland hands" for a Chinese Poker game in the thread (R7), whose
    own way of taking the value (R7.6) went unsaid."""
    tables = [
        t for t in rt.tables.values() if t.community_id == community_id and t.tournament is None
    ]
    own = [t for t in tables if t.id == here]
    return own or tables


def _own_cash_table(rt: Runtime, community_id: int, here: int | None) -> LiveTable | None:
    """The chat's open table (number ``here``) when it is a cash table of the community:
    the one whose values in force the settings list names (:func:`_waiting`)."""
    own = [t for t in _cash_tables(rt, community_id, here) if t.id == here]
    return own[0] if own else None


def _still_waits(rt: Runtime, community_id: int, name: str, here: int | None = None) -> bool:
    """Whether the rule option ``name`` waits at a table of the community (the chat's own
    table ``here``, :func:`_cash_tables`) for its match to end (R6.6) with another value
    than the table plays now: only then does the answer say when it applies; a value the
    table already plays (saved again, or set back mid-hand) has nothing to wait for ("from
    the next match" read as a change to come)."""
    return any(
        t.pending_options is not None
        and getattr(t.pending_options, name, None) != getattr(t.options, name, None)
        for t in _cash_tables(rt, community_id, here)
    )


def _buy_in_waits(rt: Runtime, community_id: int, here: int | None = None) -> str | None:
    """The key of the text that says when a new ``min_buy_in`` applies at the community's
    cash table that still waits to take it (R8.2: between hands), or ``None`` when every
    table took it at once: from the next hand, or after the match when it is below the
    table's price of a point, which itself waits for the match (a stack bought in below a
    point would be stood up at the deal); the chat's own table ``here`` when it is a cash
    table (:func:`_cash_tables`)."""
    for t in _cash_tables(rt, community_id, here):
        if t.pending_buy_in:
            if t.pending_buy_in < t.options.kush_per_point:
                return "settings.next_match"
            return "settings.next_hand"
    return None


def _bought_in_below(
    rt: Runtime, community_id: int, buy_in: int, lang: str, here: int | None
) -> str:
    """The players at the community's cash tables (the chat's own, :func:`_cash_tables`) who
    pressed Ready (a computer player: sat down) at a buy-in below ``buy_in``, the one just
    saved, for a hand not dealt to them yet (:attr:`~bot.model.SeatState.unplayed_buy_in`)
    and whose stack is still below it, named with their stacks ("Alice (200), 🤖 Anna
    (200)", amounts as ``lang`` writes them; ``""`` when none): they keep what they paid
    (R8.2: a raised buy-in is what a Ready pays from now on, it charges nobody without
    their press; ➕ tops a stack up), as the answer to the raise says. Not a player leaving
    (their stack goes back as the hand ends), nor one already dealt a hand (a stack played
    is no buy-in any more)."""
    kept = [
        f"{seat.name} ({grouped(seat.stack, lang)})"
        for t in _cash_tables(rt, community_id, here)
        for _, seat in sorted(t.seats.items())
        if 0 < seat.unplayed_buy_in < buy_in and seat.stack < buy_in and not seat.leaving
    ]
    return ", ".join(kept)


def _waiting_text(
    rt: Runtime, community_id: int, name: str, lang: str, here: int | None = None
) -> str:
    """When the rule option ``name`` just saved applies at the community's table that waits
    for its match to end (:func:`_still_waits`): after the match's Fantasyland hands at
    an open-face table; from the next hand in Chinese Poker, which has no Fantasyland (R7),
    where a new ``kush_per_point`` ends the game under way first and a new ``target_points``
    ends it when a player has reached it (R7.6, :func:`~.dealing.apply_pending`)."""
    waiting = [t for t in _cash_tables(rt, community_id, here) if t.pending_options is not None]
    if not waiting or any(t.options.game is not GameKind.CHINESE for t in waiting):
        return tr(lang, "settings.next_match")
    t = waiting[0]
    assert t.pending_options is not None
    if t.chinese is not None and name == "target_points":
        return tr(lang, "settings.target_next_hand", target=t.pending_options.target_points)
    if t.chinese is not None and name == "kush_per_point" and t.chinese.totals:
        return tr(lang, "settings.point_ends_game")
    return tr(lang, "settings.next_hand")


def _seated(rt: Runtime, community_id: int) -> bool:
    """Whether a cash table of the community here has anyone seated (a tournament table
    keeps its own options, R8.7)."""
    return any(
        t.community_id == community_id and t.tournament is None and bool(t.seats)
        for t in rt.tables.values()
    )


class EmptyPlace(OptionError):
    """A list setting's value with an empty place in it ("50,,50", ",70,30", ","): a number
    left out, not nothing (:func:`_numbers`)."""


def _numbers(text: str, what: str) -> tuple[int, ...] | None:
    """The whole numbers of a list setting (``payouts``, ``chips_schedule``) written with
    commas, spaces or semicolons between them, any mix ("50,30,20", "50, 30, 20", "50 30
    20", "50;30;20"; spaces around a comma or semicolon are part of it, and a comma after the
    last number is none); ``None`` for the empty text (the default applies: stored so, as no
    command writes it).

    :raises EmptyPlace: for a place with no number ("50,,50", "70, ,30", ",70,30", ","): a
        number left out changes what the list means ("10,,20" saved as 10,20 dropped a level).
    :raises OptionError: for anything else in it ("70/30", "70 %", "١٠")."""
    if not text.strip():
        return None
    parts = re.split(r"\s*[,;]\s*|\s+", text.strip())
    if len(parts) > 1 and not parts[-1]:  # ("70,30,": a comma typed after the last)
        parts.pop()
    if not all(parts):
        raise EmptyPlace(f"{what}: a place with no number")
    if not all(p.isdecimal() and p.isascii() and len(p) <= 9 for p in parts):
        raise OptionError(f"{what}: whole numbers separated by commas, spaces or semicolons")
    return tuple(int(p) for p in parts)


def _empty_place_separator(text: str) -> str:
    """The separator (``,`` or ``;``) the admin typed at the first empty place of a list
    setting's ``text`` (``"100;;"``: ``;``), for the example of the refusal: "between commas"
    was said of semicolons."""
    m = re.search(r"(?:^|[,;])\s*([,;])", text.strip())
    return m.group(1) if m else ","


#: What sets a setting back to its default (:func:`resets`; ``payouts`` or
#: ``chips_schedule`` stored empty, which no command can write: ``/settings payouts`` alone
#: explains the setting). «умолчанию» alone and "defaults" were refused as no value.
DEFAULT_WORDS = frozenset(
    {"default", "defaults", "по умолчанию", "умолчанию", "умолчание", "сброс", "reset"}
)

#: the reset words the help names (``/settings kush_label default``, «по умолчанию»): typed
#: for a kush label, plainly the reset, told nothing of labels (:data:`DEFAULT_WORDS`)
_DOCUMENTED_RESETS = frozenset({"default", "по умолчанию"})

#: the default of each group setting, a new group's (:class:`CommunitySettings`)
_FIELD_DEFAULTS: Mapping[str, Any] = {
    f.name: f.default for f in fields(CommunitySettings) if f.name in SETTINGS
}


def resets(raw: Value) -> bool:
    """Whether ``raw``, typed as a setting's value, asks for its default back
    (:data:`DEFAULT_WORDS`, any case and spacing, its words apart by spaces, "-" or "_" as
    a name's are, read as a name is, :func:`_setting_key`: ``/settings scoring по
    умолчанию``, «по-умолчанию», «по_умолчанию», which were refused as no number)."""
    if not isinstance(raw, str):
        return False
    return _setting_key(unformatted(raw)).replace("_", " ") in DEFAULT_WORDS


#: what a refused list setting is shown as an example of
_LIST_EXAMPLES = {"payouts": "70,30", "chips_schedule": "10,15,20,30"}


def _payouts_without_zeros(numbers: Sequence[int]) -> str:
    """``numbers`` (payouts summing to 100, best place first) without the places at 0."""
    return ",".join(str(n) for n in numbers if n)


def _list_refusal(name: str, text: str) -> Callable[[str], str] | None:
    """Why the list setting ``name`` (``payouts``, ``chips_schedule``) cannot be ``text``, in
    the reader's language, or ``None`` when it can (as far as the list itself goes: the
    tournament it makes checks it again). The core's own refusals
    (:class:`~game.tournament.TournamentConfig`) are English only: a Russian admin read
    "payouts must add up to 100 %, got [50, 40]"."""
    try:
        numbers = _numbers(text, name)
    except EmptyPlace:
        sep = _empty_place_separator(text)
        key = "settings.payouts_empty" if name == "payouts" else "settings.schedule_empty"
        return lambda lang: tr(lang, key, name=setting_word(name, lang), sep=sep)
    except OptionError:
        example = _LIST_EXAMPLES[name]
        return lambda lang: tr(
            lang, "settings.list_digits", name=setting_word(name, lang), example=example
        )
    if numbers is None:
        return None
    ordered = all(b <= a for a, b in pairwise(numbers))
    if name == "payouts":
        total = sum(numbers)
        if total != 100:
            return lambda lang: tr(lang, "settings.payouts_sum", total=total)
        if not ordered:
            return lambda lang: tr(lang, "settings.payouts_order")
        if min(numbers) < 1:  # ("100,0": a place listed to win nothing, R8.7)
            return lambda lang: tr(
                lang, "settings.payouts_zero", example=_payouts_without_zeros(numbers)
            )
        return None
    if min(numbers) < 1:
        return lambda lang: tr(lang, "settings.schedule_least")
    rising = all(b >= a for a, b in pairwise(numbers))
    return None if rising else (lambda lang: tr(lang, "settings.schedule_order"))


def tournament_config(s: CommunitySettings, game: GameKind) -> TournamentConfig:
    """The tournament a community's settings open for ``game`` (R8.7).

    :raises OptionError: if the stored payouts or schedule do not make a tournament."""

    values: dict[str, Any] = {
        "buy_in": s.tournament_buy_in,
        "starting_chips": s.tournament_chips,
        "level_minutes": s.level_minutes,
    }
    payouts = _numbers(s.payouts, "payouts")
    if payouts is not None:
        values["payouts"] = payouts
    schedule = _numbers(s.chips_schedule, "chips_schedule")
    if schedule is not None:
        values["schedule"] = schedule
    return TournamentConfig.create(game, **values)


#: the tournament settings in the order :func:`tournament_refusal` looks for the one at fault
_TOURNAMENT_ORDER = (
    "payouts",
    "chips_schedule",
    "tournament_chips",
    "level_minutes",
    "tournament_buy_in",
)


def tournament_refusal(
    s: CommunitySettings, changed: str | None = None
) -> Callable[[str], str] | None:
    """Why the settings ``s`` open no tournament (:func:`tournament_config` refuses them), in
    the reader's language, or ``None`` when they open one (R8.7). The core's refusals
    (:class:`~game.tournament.TournamentConfig`) are English only: a Russian group read
    "level_minutes: payouts must add up to 100 %, got [50, 60]" for payouts an older version
    saved. The setting at fault is the first that alone, beside the defaults, opens none: a
    list setting is explained as its change is (:func:`_list_refusal`), any other names its
    saved value and how to set it back (``settings.tournament_saved``). ``changed``: the
    setting just changed (:func:`updated`); another one at fault is said to be a saved one,
    the answer naming the one changed first ("Не удалось изменить длина_уровня: …")."""
    game = GameKind(s.game)
    try:
        tournament_config(s, game)
    except OptionError:
        pass
    else:
        return None
    for name in _TOURNAMENT_ORDER:
        value = getattr(s, name)
        try:
            tournament_config(replace(CommunitySettings(game=s.game), **{name: value}), game)
        except OptionError:
            return _saved_fault(name, value, changed)
    return lambda lang: tr(lang, "settings.tournament_bad")  # pragma: no cover - one fails


def _saved_fault(name: str, value: Any, changed: str | None) -> Callable[[str], str]:
    """Why tournament setting ``name``, at ``value``, opens no tournament
    (:func:`tournament_refusal`), said as a saved one when ``changed`` is another."""
    listed = _list_refusal(name, str(value)) if name in _LIST_EXAMPLES else None
    shown = _shown(value)

    def said(lang: str) -> str:
        if listed is not None:
            return listed(lang)
        return tr(lang, "settings.tournament_saved", name=setting_word(name, lang), value=shown)

    if changed is None or changed == name:
        return said
    return lambda lang: tr(
        lang, "settings.tournament_other", name=setting_word(changed, lang), reason=said(lang)
    )


def _not_a_unit(label: str) -> bool:
    """Whether a kush label would read badly after every amount, as it is shown: one with a
    digit or "=" ("1 kush = 10 ₽" garbled every amount, "Buy-in 500 1 kush = 10 ₽"; digits
    alone read as a second number, "1000 10 000 on the balance")."""
    return any(ch.isdigit() or ch in "=＝" for ch in label if visible(ch))


def _chips(label: str) -> bool:
    """Whether a kush label is the word for chips ("chips", «фишки», «фишек» …, any case):
    a tournament's chips are chips (R8.7), and its lobby read "Buy-in 500 chips · 1,000
    chips each", kush and chips alike. A label stored before this was refused reads as saved."""
    word = label.strip().casefold()
    forms = {f for lang in ("en", "ru") for f in tr(lang, "picture.chip_forms").split("|")}
    return word in forms | {"фишку", "фишками", "фишкам", "фишках"}


def updated(s: CommunitySettings, name: str, raw: str) -> CommunitySettings:
    """``s`` with setting ``name`` set to ``raw``, checked as a whole: the value against its
    description, the buy-in bounds against each other, the options of each game as its tables
    take them (R4.2, R4.3, R6.2; an option of one game only is left out of the others'), the
    ready and idle timers against each other (R8.2, R8.2a), and the buy-in
    against the kush of a point (a stack below one point is never dealt in, R8.2), and a
    tournament's first level against its starting chips (R8.7: a first point dearer than a
    whole stack).

    :raises KeyError: for an unknown name.
    :raises SettingRefused: for a value that is refused (the text names the allowed range).
    """
    spec = SETTINGS[name]
    if resets(raw):
        # "default" («по умолчанию», «сброс»): what was stored is dropped, the setting follows
        # its default again; a rule option each game's own (R5.3 scoring, R6.4: setting it
        # back to one game's default pinned that value for the other games too)
        if spec.community:
            s = replace(s, **{name: _FIELD_DEFAULTS[name]})
        else:
            s = replace(s, options={k: v for k, v in s.options.items() if k != name})
        return _checked(s, name)
    if name == "kush_label":
        # saved without the invisible format characters a copied word brings along unseen
        # ("co\u200bins" was stored so, and no "coins" typed later was the same label; an
        # emoji's joiners are kept, :func:`~bot.names.shown_only`); nothing left, refused
        raw = shown_only(str(raw)).strip()
        if not any(map(visible, raw)):
            raise SettingRefused(lambda lang: tr(lang, "settings.label_blank"))
    if name == "kush_label" and _not_a_unit(str(raw)):  # (R8.1: a label; one already
        # stored still reads as it was saved: only a change is refused; told before its
        # length, "1 kush = 10 ₽" is too long and no unit either)
        raise SettingRefused(lambda lang: tr(lang, "settings.label_digits"))
    if name == "kush_label" and _chips(str(raw)):
        raise SettingRefused(lambda lang: tr(lang, "settings.label_chips", unit=str(raw).strip()))
    value = spec.parse(raw)
    if name in ("payouts", "chips_schedule"):  # saved as read: "50 30,20" → "50,30,20"
        if str(value).lower() in DEFAULT_WORDS:  # (empty, the default, no command can write)
            value = ""
        refusal = _list_refusal(name, str(value))  # (in the admin's language)
        if refusal is not None:
            raise SettingRefused(refusal)
        with contextlib.suppress(OptionError):
            value = ",".join(map(str, _numbers(str(value), name) or ()))
    if not spec.community:
        s = replace(s, options={**s.options, name: value})
    elif name == "language":
        s = replace(s, language=None if value == "auto" else str(value))
    elif name == "utc_offset":
        s = replace(s, utc_offset=None if value == "auto" else float(value))
    else:
        changes: dict[str, Any] = {name: value}
        s = replace(s, **changes)
    return _checked(s, name)


def _checked(s: CommunitySettings, name: str) -> CommunitySettings:
    """``s`` just changed in setting ``name`` (:func:`updated`), checked as a whole and with
    the stored options an older version saved that no longer pass dropped.

    :raises SettingRefused: for a combination that is refused."""
    options: dict[str, Value] = {}
    for key, stored in s.options.items():  # an older version's value that no longer passes
        other = SETTINGS.get(key)  # its description is dropped (its default applies), but a
        # number beyond the range is kept as the nearest end of it (Setting.stored)
        try:
            if other is not None and not other.community:
                options[key] = other.stored(stored)
        except SettingRefused:
            continue
    s = replace(s, options=options)
    if name in ("payouts", "chips_schedule", "tournament_chips", "level_minutes"):
        refusal = tournament_refusal(s, name)  # (in the reader's language, not the core's)
        if refusal is not None:
            raise SettingRefused(refusal)
    if name in ("chips_schedule", "tournament_chips"):
        # no player could pay one point of the first hand (R8.7); a later level may cost
        # more than the starting chips (R8.7's own schedule passes 1,000 at level 19)
        first = (_numbers(s.chips_schedule, "chips_schedule") or DEFAULT_SCHEDULE)[0]
        chips = s.tournament_chips
        if first > chips:
            raise SettingRefused(
                lambda lang: tr(
                    lang,
                    "settings.schedule_over_chips",
                    first=grouped(first, lang),
                    chips=grouped(chips, lang),
                )
            )
    if s.max_buy_in and s.max_buy_in < s.min_buy_in:
        lo, hi = s.min_buy_in, s.max_buy_in
        raise SettingRefused(
            lambda lang: tr(lang, "settings.buy_in_order", min_buy_in=lo, max_buy_in=hi)
        )
    try:
        # each game's tables take the options that game has (:func:`table_options`): a
        # classic option (dummy_box) saved in a Pineapple group is what its classic tables
        # play, and the other games leave it out (R4.2, R4.3, R6.2: every table's combination
        # deals from one deck). It was refused "for Pineapple OFC whatever table is open" at
        # a classic table whose /settings listed it.
        for game in PLAYABLE_GAMES:
            RuleOptions.preset(game, **_options_of(options, game))
        rules = RuleOptions.preset(s.game, **_options_of(options, RuleOptions.preset(s.game).game))
    except OptionConflict as exc:  # pragma: no cover - each game is given only its own
        raise SettingRefused(_conflict_text(exc, name)) from None
    except OptionError as exc:  # pragma: no cover - every value passed its description
        message = str(exc)
        raise SettingRefused(lambda _lang: message) from None
    if name in ("idle_close_seconds", "ready_seconds") and (
        rules.idle_close_seconds <= rules.ready_seconds
    ):  # the table closed as idle (R8.2a) before the ready timer (R8.2) could deal a hand
        # (only a change of either is refused: a pair an older version saved keeps working,
        # and other settings can still be changed)
        ready, idle = _number(rules.ready_seconds), _number(rules.idle_close_seconds)
        raise SettingRefused(
            lambda lang: tr(lang, "settings.idle_over_ready", ready=ready, idle=idle)
        )
    if rules.kush_per_point > s.min_buy_in:  # a buy-in that cannot pay one point (R8.2, R8.4)
        point, buy_in = rules.kush_per_point, s.min_buy_in
        raise SettingRefused(
            lambda lang: tr(lang, "settings.point_over_buy_in", point=point, min_buy_in=buy_in)
        )
    return s


def _options_of(options: Mapping[str, Value], game: GameKind) -> dict[str, Value]:
    """The rule ``options`` that tables of ``game`` have (:meth:`Setting.applies_to`)."""
    return {k: v for k, v in options.items() if k in SETTINGS and SETTINGS[k].applies_to(game)}


def in_games(games: Sequence[str], lang: str) -> str:
    """The games ``games`` (:class:`GameKind` values, at least one) as the notes that say
    where a setting applies name them after «в» (``settings.in_game``, ``settings.in_games``):
    in Russian «игре «Классический OFC»», «играх «Ананас (OFC)» и «Классический OFC»» (it
    read «в игре «Ананас (OFC), Классический OFC»», two games quoted as one); in English
    their names, comma separated ("Pineapple OFC, Classic OFC")."""
    names = [tr(lang, f"game.{g}") for g in games]
    if lang == "ru":
        quoted = [f"«{n}»" for n in names]
        listed = ", ".join(quoted[:-1]) + " и " + quoted[-1] if len(quoted) > 1 else quoted[0]
    else:
        listed = ", ".join(names)
    return tr(lang, "settings.in_game" if len(names) == 1 else "settings.in_games", games=listed)


def _conflict_text(exc: OptionConflict, changed: str) -> Callable[[str], str]:
    def text(lang: str) -> str:
        games = in_games(exc.games, lang)
        return tr(
            lang,
            "settings.conflict_option" if changed == exc.option else "settings.conflict_game",
            option=setting_word(exc.option, lang),
            games=games,
            game=tr(lang, f"game.{exc.game}"),
            first=exc.games[0],
        )

    return text


def _already_played(
    current: CommunitySettings, new: CommunitySettings, name: str, game: GameKind | None
) -> bool:
    """Whether ``name`` is a rule option never set in ``current`` that ``new`` gives the value
    tables of ``game`` (the group's game for ``None``) already play: its default there; for
    an option ``game`` has not, the value every game it applies to plays (the answer names
    them all, "it applies to Pineapple OFC, Classic OFC": a Chinese Poker group's
    ``scoring one_six``, Pineapple's default, was not saved, and Classic OFC's tables went
    on scoring two_per_row)."""
    spec = SETTINGS[name]
    if spec.community or name in current.options:
        return False
    kind = RuleOptions.preset(game or current.game).game
    kinds = [kind] if spec.applies_to(kind) else [g for g in GameKind if g in spec.games]
    return all(
        getattr(table_options(new, k), name) == getattr(table_options(current, k), name)
        for k in kinds
    )


async def change_setting(
    rt: Runtime,
    community: Community,
    name: str,
    value: str,
    own: str | None = None,
    request: str | None = None,
    version: str | None = None,
    stored: list[CommunitySettings] | None = None,
    game: GameKind | None = None,
) -> Community:
    """Apply one setting and pass it on to the community's tables (``own``: the language of
    the admin who changed it, which a table with nobody seated takes under ``auto``): those
    served here, then, with several workers, those other workers serve
    (:attr:`Runtime.settings_elsewhere`).
    ``request``: the platform's key of the command or press, saved in the same write as the
    change (the last :data:`~bot.model.REQUESTS_KEPT`,
    :attr:`~storage.api.CommunitySettings.requests`): a copy delivered after a restart, or
    after newer changes, is known as applied. ``version``: a press's, of the settings
    message it was made on (:func:`settings_version`), checked against the settings as
    stored in the same transaction: two "+" pressed at once on one list both passed a check
    made before it, and the second moved the value on from the first's, which its list did
    not show.

    Each change is made on the settings as stored, in the transaction that saves it
    (:meth:`~storage.api.Store.change_settings`): two admins' changes handled at once
    (updates are, on both platforms; by two workers too, issue 14) each wrote the whole
    settings as read before the other's was saved, and the later one undid the earlier,
    both answered "Saved". Within a worker they are also made one at a time
    (:meth:`Runtime.settings_lock`), so its tables take them in the order they were saved.

    ``stored``: gets the settings as stored when the change was made on them (what it
    changed: ``community``'s may be older, another worker's change saved since).

    ``game``: the game whose value the answer shows (the chat's open table's; ``None``: the
    group's). A rule option never set, given the value tables of that game already play
    (its default there; for an option that game has not, every game it applies to), is not
    written: the answer is "Already so", and saved it would
    have set it for every game, one whose default differs too (R5.3 ``scoring``, R6.4
    ``stay_on_full_house_middle``: classic OFC's tables scored one_six after a Pineapple
    group's admin was told their "one_six" changed nothing).

    :raises KeyError: for an unknown name.
    :raises SettingRefused: on a refused value (nothing is saved).
    :raises SettingsStale: when ``version`` is not the stored settings' (nothing is saved)."""

    def change(current: CommunitySettings) -> CommunitySettings:
        if stored is not None:
            stored[:] = [current]  # (the last run's: a transaction may be run again)
        stored_now = replace(community, settings=current)
        if version is not None and settings_version(stored_now) != version:
            raise SettingsStale  # (the list pressed is not the settings as stored)
        # another admin's change saved meanwhile stays, and so do the keys of tables closed
        # since ``community`` was read (Runtime.keep_table_requests)
        s = updated(current, name, value)  # (kush_label: kept as typed, 1–40 characters;
        # messages escape it when they show it, :meth:`Runtime.kush_label`)
        if _already_played(current, s, name, game):
            s = replace(s, options={k: v for k, v in s.options.items() if k != name})
        if request is not None:
            s = replace(s, requests=(*s.requests, request)[-REQUESTS_KEPT:])
        return s

    async with rt.settings_lock(community.id):
        community = await rt.store.change_settings(community.id, change)
        by = (own or "") if name == "language" else None
        await settings_changed(rt, community, language=by)
    if rt.settings_elsewhere is not None:  # (the community's tables served by other workers)
        rt.settings_elsewhere(community.id, by)
    return community


async def settings_changed(
    rt: Runtime, community: Community, *, language: str | None = None
) -> None:
    """The community's tables take the new settings: options between matches, the buy-in
    between hands (each table in a transition of its own). A table keeps its game: it takes
    the options its game has. A table whose step storage refuses keeps them pending in
    memory (:func:`_pend`): its next step commits them and they apply as usual; a restart
    in between finds them again (:func:`reconcile`). ``language``: the change was the
    group's language, made by an admin of that own language (``""`` unknown): under ``auto``
    the table takes its players', :func:`table_language`. The group's time zone is read
    again for its table messages (:func:`note_zone`: ``utc_offset``); when it moved, a hand
    under way has its open private screens and the table message written anew in the step
    (:func:`_rezone`: their "until 18:41" was the old zone's until the next move)."""
    zone = rt.zones.get(community.id)
    if any(t.community_id == community.id for t in rt.tables.values()):
        note_zone(rt, community)
    rezoned = rt.zones.get(community.id) != zone
    for t in list(rt.tables.values()):
        if t.community_id != community.id:
            continue
        async with t.lock:
            # each table's step its own time for storage (the change's write, and the
            # tables before, spent the command's)
            with answer_within(rt.storage_wait, anew=True):
                # a timer whose time came before the change is made first (R8.2, R8.2a): a raised
                # ready_seconds or idle_close_seconds gave a timer that had run out more time
                await rt.overdue_first(t)
                if not rt.open_here(t):
                    continue
                try:
                    async with rt.transition(t) as tx:
                        shown = t.lang, t.label
                        relabelled, moved = _pend(
                            t, community.settings, rt.kush_label(community), language=language
                        )
                        if moved or (t.lang, t.label) != shown:
                            # (the countdown shown follows it; the table message in the new
                            # language or label at once, a hand running too: it waited for
                            # the next move)
                            tx.group = True
                        if t.hand is None:
                            apply_pending(t, tx, rt.clock())
                            tx.group = True
                            if t.tournament is None:
                                # as after a top-up: a point lowered to a busted player's stack
                                # leaves nobody's top-up to wait for, the next hand comes in the
                                # usual time (it waited for the end of the top-up window)
                                maybe_start(rt, t, tx)
                        _reshow(t, tx, relabelled)
                        if rezoned:
                            _rezone(t, tx)
                except TransitionFailed:
                    # logged; the step was rolled back, so the table has the old settings: it
                    # takes the new ones from its next committed step on
                    if rt.open_here(t):
                        _pend(t, community.settings, rt.kush_label(community), language=language)
                    continue
        await rt.settled(t)


def seat_language(s: CommunitySettings, seat: SeatState) -> str:
    """The language of ``seat``'s private screens under the group's settings ``s``: the
    group's (the table's) when it is set (``en``/``ru``), the player's own when it is
    ``auto`` (README: a seated player's private chat follows the table)."""
    return group_language(s) or seat.own_lang or seat.lang


def table_language(s: CommunitySettings, t: LiveTable, own: str = "") -> str:
    """The language of table ``t``'s group messages under the group's settings ``s``: the
    group's when it is set (``en``/``ru``); under ``auto`` the own language of most of the
    people seated (a tie: the earlier seat's; computer players aside), so a table opened
    under ``ru`` speaks its English players' language again once the group is set back to
    ``auto``; with nobody seated, ``own`` (the language of the admin who chose ``auto``, as
    if they opened the table now), else the one it has."""
    chosen = group_language(s)
    if chosen is not None:
        return chosen
    people = [seat for _, seat in sorted(t.seats.items()) if not seat.bot]
    langs = [seat.own_lang or seat.lang for seat in people]
    if not langs:
        return own or t.lang
    return max(langs, key=lambda lang: (langs.count(lang), -langs.index(lang)))


def _pend(
    t: LiveTable, s: CommunitySettings, label: str, *, language: str | None = None
) -> tuple[list[int], bool]:
    """Give table ``t`` the community's settings ``s``: options to apply between matches,
    the buy-in between hands (:func:`~.dealing.apply_pending`), the label, pictures and
    language at once (the table's, and each seated player's private screens',
    :func:`seat_language`). A tournament table keeps the options and buy-in it opened with
    (R8.7: its players registered for them). ``language``: the group's language was the
    setting changed (by an admin of this own language, ``""`` unknown), so under ``auto``
    the table takes :func:`table_language` (any other change under ``auto`` keeps the
    language the table has). ``label``: the kush label as messages show it
    (:meth:`Runtime.kush_label`). A running ready timer follows a changed ``ready_seconds``
    (:func:`follow_ready_seconds`). Returns the seats whose language changed and whether a
    running ready timer moved."""
    before = t.ready_seconds()
    if t.tournament is None:
        t.pending_options = table_options(s, t.options.game)
        t.pending_buy_in = s.min_buy_in
    t.label = label
    t.pictures = s.pictures
    if language is not None:
        t.lang = table_language(s, t, language)
    else:
        t.lang = group_language(s) or t.lang
    changed = []
    for seat in t.seats.values():
        lang = seat_language(s, seat)
        if not seat.bot and seat.lang != lang:
            seat.lang = lang
            changed.append(seat.seat)
    return changed, follow_ready_seconds(t, before)


def follow_ready_seconds(t: LiveTable, before: float) -> bool:
    """The running ready timers of table ``t`` follow the admins' new ``ready_seconds``
    (R8.2; :meth:`LiveTable.ready_seconds`, ``before``: what it was): the lobby's
    (:attr:`LiveTable.ready_deadline`) and each late joiner's time to press Ready
    (:attr:`SeatState.ready_by`) end the new ``ready_seconds`` after they started, as if
    they had started with it: the time left moves by the change (a raise adds to it; a value
    below the time already gone runs out at once, the unready stood up, no kush taken).
    Counted from the start, not from now: the countdown players see moves by what the admin
    added or took away, and lowering it never gives a timer more time. Returns whether a
    running timer moved (the group's countdown is to be written anew)."""
    change = t.ready_seconds() - before
    if not change:
        return False
    moved = False
    if t.ready_deadline is not None:
        t.ready_deadline += change
        moved = True
    for seat in t.seats.values():
        if seat.ready_by is not None:
            seat.ready_by += change
            moved = moved or t.ready_window_end(seat) is not None
    return moved


def _reshow(t: LiveTable, tx: Tx, seats: list[int]) -> None:
    """Write anew, in step ``tx``, the private hand messages of ``seats`` (players whose
    language just changed) that are on screen: a hand in progress, or the one that ended."""
    if t.hand is None:
        return
    tx.show.update(s for s in seats if _hand_on_screen(t, t.seats[s]))


def _hand_on_screen(t: LiveTable, seat: SeatState) -> bool:
    """Whether ``seat``'s private message (a person's) shows the hand under way at ``t``,
    which a step may write anew: they play in it. One sitting it out keeps their last
    hand's message ("hand 2 is over … /back to play again"), which the hand's screen
    would write over with "You have no hand at this table now"."""
    return not seat.bot and seat.private_ref is not None and bool(t.boards_of(seat))


def _rezone(t: LiveTable, tx: Tx) -> None:
    """The group's time zone (``utc_offset``) moved: write anew, in step ``tx``, the screens
    of a hand under way that show the turn's clock as a clock time in it (R8.5, "until
    18:41", :func:`bot.render.clock_time`): the private hand message of every player in it
    on screen (:func:`_hand_on_screen`; not one sitting it out) and the table message (one
    group write: the step's, ``tx.group``). They kept the old zone's time until their next
    rewrite (a move), which may be the whole turn. No hand:
    nothing shows a turn's clock (the step writes the table message anyway, and a
    tournament's "next level at" with it, R8.7)."""
    if t.hand is None:
        return
    tx.group = True
    tx.show.update(s for s, seat in t.seats.items() if _hand_on_screen(t, seat))


def missed(t: LiveTable, s: CommunitySettings, label: str) -> bool:
    """Whether restored table ``t`` missed some of the community's saved settings ``s``
    (:func:`reconcile`; ``label``: the kush label as messages show it). A tournament table
    keeps its own options and buy-in (R8.7), and takes the label, pictures and languages as
    a cash table does (as :func:`_pend` gives them to a live one: a tournament restarted
    showed the old ones until the next settings change)."""
    lang = group_language(s) or t.lang
    now: tuple[object, ...] = (t.label, t.pictures, t.lang)
    saved: tuple[object, ...] = (label, s.pictures, lang)
    if t.tournament is None:
        buy_in = t.pending_buy_in if t.pending_buy_in is not None else t.min_buy_in
        now += (t.pending_options or t.options, buy_in)
        saved += (table_options(s, t.options.game), s.min_buy_in)
    same = all(seat.bot or seat.lang == seat_language(s, seat) for seat in t.seats.values())
    return not same or now != saved


def reconcile(t: LiveTable, s: CommunitySettings, tx: Tx, at: float, label: str) -> bool:
    """A restored table takes the community's saved settings ``s`` that it missed (a crash
    between saving them and the table's step, or a step storage refused): as
    :func:`settings_changed` gives them, options from the next match, the buy-in from the
    next hand (now, when no hand runs). A tournament table keeps its own buy-in and options
    (R8.7: fixed when it opened) and takes the rest. ``at``: the time; ``label``: the kush label as
    messages show it (:meth:`Runtime.kush_label`: a table saved with the label unescaped
    takes it escaped). Returns whether the table had missed any."""
    if not missed(t, s, label):
        return False
    relabelled, _ = _pend(t, s, label)
    if t.hand is None:
        apply_pending(t, tx, at)
    tx.group = True
    _reshow(t, tx, relabelled)
    return True


async def settings_press(
    rt: Runtime,
    community: Community,
    lang: str,
    p: SettingStep | AllSettings,
    own: str | None = None,
    game: GameKind | None = None,
    tournament: int | None = None,
    request: str | None = None,
    here: int | None = None,
) -> Reply:
    """A press on the settings message (the caller checked the admin): −/+ move a number by
    its step, kept within its range; ⟳ turns a switch or moves a choice to the next value
    (``own``: the presser's language, ``game`` and ``tournament``: the open table's, as for
    :func:`settings`; ``request``: the press's platform key, saved with the change; ``here``:
    the number of the chat's open table); the message then shows the list it was pressed on
    again (the short one or all, :attr:`SettingStep.short`). "All settings"
    (:class:`AllSettings`) shows every setting, changing nothing (also on an older list: it
    shows the settings as they are now)."""
    readers = await readers_language(rt, community)
    if isinstance(p, AllSettings):
        label = rt.kush_label(community)
        table = _own_cash_table(rt, community.id, here)
        screen = settings_screen(community, lang, game, label=label, readers=readers, table=table)
        return Reply(screen=screen)
    if p.version != settings_version(community):
        return Reply(tr(lang, "err.stale_settings"), alert=True)
    spec = _BY_CODE.get(p.code)
    if spec is None or (p.op == "~") == bool(spec.step) or p.op not in ("-", "+", "~"):
        return Reply(tr(lang, "err.forged"), alert=True)
    s = community.settings
    current = _current(s, table_options(s, game), spec, readers)
    if p.op == "~":
        if spec.kind is Kind.SWITCH:
            value = "off" if current else "on"
        elif spec.kind is Kind.CHOICE:
            now = _shown(current)
            at = spec.choices.index(now) if now in spec.choices else -1
            value = spec.choices[(at + 1) % len(spec.choices)]
        else:
            return Reply(tr(lang, "err.forged"), alert=True)
    else:
        if spec.name == "max_buy_in" and not current:
            current = s.top_up_limit  # 0 stands for 5 × min_buy_in
        number = float(current) + (spec.step if p.op == "+" else -spec.step)
        # (rounded: 1.0000001 − 1 is 1.0000000005838672e-07 in floating point, which was
        # saved and shown as 0.0000001000000001)
        number = round(min(max(number, spec.low), spec.high), 9)
        if spec.grain:  # (a zone saved off the quarter hours before they were required,
            # 0.0000001: its step would be refused, "Time zones go by quarter hours")
            number = round(number / spec.grain) * spec.grain
        if (
            spec.name == "max_buy_in"
            and p.op == "-"
            and number < s.min_buy_in
            and (number or 5 * s.min_buy_in >= float(current))
        ):
            # − down to 0, auto, is 5 × min_buy_in: a max stack of 50 with a buy-in of 20
            # became 100; below the buy-in (60 − 50 = 10) it was refused: it goes down to the
            # buy-in, the lowest max stack there is
            number = s.min_buy_in
        # (a value beyond the range, an automatic max stack of 5 × a buy-in above a fifth
        # of the top: kept within it, + lowered it; a step that cannot go its way is refused)
        if number >= float(current) if p.op == "-" else number <= float(current):
            error = spec.range_text(lang, rt.kush_label(community))
            return Reply(refusal_text(lang, error), alert=True)
        value = _shown(number)
    return await _change(
        rt, community, lang, spec, value, own, game, full=not p.short,
        tournament=tournament, request=request, version=p.version, here=here, readers=readers,
    )  # fmt: skip
