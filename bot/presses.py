"""Button presses as typed values: the one place that encodes and decodes button payloads
(issue 10). The wire form is :class:`~bot.screens.Payload` (``table:version:action[:arg]``,
within Telegram's 64 bytes and Discord's 100 characters); everything else works with the
classes here, and the service re-checks every press against the table, so a stale or forged
one changes nothing.

Versions: ``L<n>`` for the table message (its version), ``<hand>.<board>.<seat version>`` for
a private hand, ``C<hand>.<stage>`` for a Chinese Poker claim (R7.5), ``S<digest>`` for the
settings message, ``R<frames>`` for a step of a hand's replay (whose ``table`` is the history
entry's id, not a table's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.screens import Payload
from game.board import Box
from game.cards import Card, parse_card

__all__ = [
    "CARD_PRESSES",
    "AllSettings",
    "Arrange",
    "Claim",
    "ConfirmMove",
    "Continue",
    "DiscardCard",
    "Join",
    "Leave",
    "MyHand",
    "PlaceCard",
    "Press",
    "Ready",
    "Register",
    "ReplayStep",
    "SettingStep",
    "StartTournament",
    "TakeBack",
    "TopUp",
    "Undo",
    "Unregister",
    "decode",
    "encode",
    "loggable",
    "start_table",
    "table_of",
]

BOX_CODES = {Box.TOP: "t", Box.MIDDLE: "m", Box.BOTTOM: "b"}
_BOXES = {code: box for box, code in BOX_CODES.items()}


@dataclass(frozen=True, slots=True)
class Press:
    """A button press: the table it is for and the version of the message it was on."""

    table: int
    version: str


@dataclass(frozen=True, slots=True)
class Join(Press):
    """Take a free seat (R8.2)."""


@dataclass(frozen=True, slots=True)
class Ready(Press):
    """Buy in and get ready (R8.2)."""


@dataclass(frozen=True, slots=True)
class Leave(Press):
    """Stand up (R8.2)."""


@dataclass(frozen=True, slots=True)
class Register(Press):
    """Register for the tournament: the buy-in goes to the prize pool (R8.7)."""


@dataclass(frozen=True, slots=True)
class Unregister(Press):
    """Unregister before the tournament starts: the buy-in comes back (R8.7)."""


@dataclass(frozen=True, slots=True)
class StartTournament(Press):
    """Start the tournament with the players registered (its opener or an admin, R8.7)."""


@dataclass(frozen=True, slots=True)
class TopUp(Press):
    """Top up my stack between hands (R8.2)."""


@dataclass(frozen=True, slots=True)
class MyHand(Press):
    """Show my hand privately (platforms with ephemeral messages)."""


@dataclass(frozen=True, slots=True)
class PlaceCard(Press):
    """Put a card of this street in a box (R3.4); pressed again on another box, move it."""

    card: Card
    box: Box


@dataclass(frozen=True, slots=True)
class DiscardCard(Press):
    """Discard a card of this street (R3.2)."""

    card: Card


@dataclass(frozen=True, slots=True)
class TakeBack(Press):
    """Take one card of this street back out of its box or the discard (R3.4): a platform
    whose hand shows a box as a multi-select (Discord's Fantasyland hand) sends it for a
    card unticked there."""

    card: Card


#: The presses that name their card (and box): on an older screen of the street being played
#: they mean what they meant there (a fast second tap, R3.4; :mod:`bot.service.play`).
CARD_PRESSES = (PlaceCard, DiscardCard, TakeBack)


@dataclass(frozen=True, slots=True)
class Undo(Press):
    """Take the last placement of this street back (R3.4)."""


@dataclass(frozen=True, slots=True)
class ConfirmMove(Press):
    """Confirm the street (R3.4); the card left over on streets 2–5 is the discard."""


@dataclass(frozen=True, slots=True)
class Arrange(Press):
    """Let the built-in strategy place this street."""


@dataclass(frozen=True, slots=True)
class Claim(Press):
    """Claim the Chinese Poker game at the target (R7.5)."""


@dataclass(frozen=True, slots=True)
class Continue(Press):
    """Continue the reveal instead of claiming (R7.5)."""


@dataclass(frozen=True, slots=True)
class SettingStep(Press):
    """Change one setting by a step (``+``/``-``) or to its next value (``~``); ``short``: a
    button of the short settings list (the settings that differ from their defaults), which
    the press shows again; else of the full one (``/settings all``; a button sent before the
    short list existed is one of those)."""

    code: str
    op: str
    short: bool = False


@dataclass(frozen=True, slots=True)
class AllSettings(Press):
    """Show every setting (the short settings list's "All settings" button): the message
    becomes the full list, with every setting's buttons (``/settings all``)."""


@dataclass(frozen=True, slots=True)
class ReplayStep(Press):
    """Show frame ``frame`` (1-based) of a finished hand's replay (``/replay``, issue 12).
    ``table`` is the hand's history id and ``version`` ``R<number of frames>``; the service
    checks that the presser played the hand before it shows anything (R3.3)."""

    frame: int


_SIMPLE: dict[str, type[Press]] = {
    "j": Join,
    "r": Ready,
    "l": Leave,
    "h": MyHand,
    "t": TopUp,
    "g": Register,
    "x": Unregister,
    "o": StartTournament,
    "u": Undo,
    "c": ConfirmMove,
    "a": Arrange,
    "k": Claim,
    "n": Continue,
    "e": AllSettings,
}
_LETTER = {cls: letter for letter, cls in _SIMPLE.items()}


def encode(press: Press) -> str:
    """The payload of a button. :raises ValueError: if it would not fit (64 bytes)."""
    if isinstance(press, PlaceCard):
        return Payload(
            press.table, press.version, "p", press.card.text + BOX_CODES[press.box]
        ).encode()
    if isinstance(press, DiscardCard):
        return Payload(press.table, press.version, "d", press.card.text).encode()
    if isinstance(press, TakeBack):
        return Payload(press.table, press.version, "w", press.card.text).encode()
    if isinstance(press, SettingStep):
        short = "_" if press.short else ""  # (the short list's: "rs+_")
        return Payload(press.table, press.version, "s", press.code + press.op + short).encode()
    if isinstance(press, ReplayStep):
        return Payload(press.table, press.version, "v", str(press.frame)).encode()
    return Payload(press.table, press.version, _LETTER[type(press)]).encode()


def table_of(data: str | None) -> int | None:
    """The table a payload names; ``None`` for one naming none (a setting, a replay) or a
    malformed one."""
    press = decode(data)
    if press is None or isinstance(press, ReplayStep):  # (its number is a hand's history id)
        return None
    return press.table if press.table > 0 else None


def loggable(data: str | None) -> str:
    """A button payload as a log line may show it: its table, version and action, never its
    argument (a placement's or a discard's card is hidden information, R3.3; whoever runs
    the bot may sit at its tables). ``"?"`` for a malformed payload."""
    p = Payload.decode(data)
    if p is None:
        return "?"
    return f"{p.table}:{p.version}:{p.action}" + (":…" if p.arg else "")


_START_TABLE = re.compile(r"t([0-9]{1,12})")


def start_table(arg: str) -> int | None:
    """The table of a private chat's deep link argument (``/start t<table>``, the group's
    link to the hand); ``None`` for any other argument. Only ASCII digits, at most 12 (a
    superscript ``²`` is a digit to ``str.isdigit`` that ``int`` refuses, and a number
    beyond the database's integers was refused there)."""
    m = _START_TABLE.fullmatch(arg)
    return int(m.group(1)) if m is not None else None


def decode(data: str | None) -> Press | None:
    """The press a payload stands for; ``None`` for anything malformed (a forged button)."""
    p = Payload.decode(data)
    if p is None:
        return None
    try:
        if p.action == "p":
            box = _BOXES.get(p.arg[-1:])
            return (
                None if box is None else PlaceCard(p.table, p.version, parse_card(p.arg[:-1]), box)
            )
        if p.action == "d":
            return DiscardCard(p.table, p.version, parse_card(p.arg))
        if p.action == "w":
            return TakeBack(p.table, p.version, parse_card(p.arg))
    except ValueError:
        return None
    if p.action == "s":
        short = p.arg.endswith("_")
        arg = p.arg[:-1] if short else p.arg
        code, op = arg[:-1], arg[-1:]
        if not code or op not in ("+", "-", "~"):
            return None
        return SettingStep(p.table, p.version, code, op, short)
    if p.action == "v":
        ok = p.version[:1] == "R" and p.version[1:].isdigit() and p.arg.isdigit()
        return ReplayStep(p.table, p.version, int(p.arg)) if ok and len(p.arg) < 6 else None
    cls = _SIMPLE.get(p.action)
    if cls is None or p.arg:
        return None
    return cls(p.table, p.version)
