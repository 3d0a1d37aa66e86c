"""Rule options (R3–R8) as one frozen, typed settings object with the three presets.

Every option RULES.md names is a field here with its default; a table stores one
:class:`RuleOptions`. ``RuleOptions.preset("pineapple")`` (the default game), ``"ofc"`` (classic
open-face) and ``"chinese"`` (classic closed Chinese Poker) give the defaults of each game; any
field can be overridden with :meth:`RuleOptions.replace_checked`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from game.errors import OptionConflict, OptionError

__all__ = ["OPTION_GAMES", "GameKind", "RuleOptions", "Scoring"]


class GameKind(Enum):
    """The three games a table can host (R3, R4)."""

    PINEAPPLE = "pineapple"
    OFC = "ofc"
    CHINESE = "chinese"

    @property
    def title(self) -> str:
        """The game's name as players read it (the command line's messages): "classic OFC",
        not the ``ofc`` of an option."""
        return _TITLES[self]


_TITLES = {
    GameKind.PINEAPPLE: "Pineapple OFC",
    GameKind.OFC: "classic OFC",
    GameKind.CHINESE: "Chinese Poker",
}


class Scoring(Enum):
    """Box-points scheme of OFC and Pineapple (R5.2, R5.3)."""

    ONE_SIX = "one_six"
    TWO_PER_ROW = "two_per_row"


#: Options that only some games have (R4.2, R4.3, R6.2): another game refuses them when they are
#: set, so every accepted combination deals from one 52-card deck (Pineapple with two boards
#: each would need 68 cards; progressive Fantasyland in classic OFC with four players or the
#: dummy board, 56).
OPTION_GAMES: Mapping[str, frozenset[GameKind]] = {
    "heads_up_double_boxes": frozenset({GameKind.OFC}),
    "dummy_box": frozenset({GameKind.OFC}),
    "progressive_fantasyland": frozenset({GameKind.PINEAPPLE}),
}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """All rule options of a table (R3–R8). Times are in seconds, amounts in kush.

    :ivar game: which game the table deals (R3, R4).
    :ivar simultaneous_streets: all players act on a street at once (R3.6).
    :ivar heads_up_double_boxes: classic OFC, 2 players, two boards each (R4.2).
    :ivar dummy_box: classic OFC, 3 players, a fourth unscored board (R4.3).
    :ivar deuce_of_spades: the royalty of a box holding 2♠ is doubled (R4.4).
    :ivar reveal_pause_seconds: pause between the reveals of Chinese Poker (R4.5).
    :ivar scoring: ``one_six`` or ``two_per_row`` (R5.2, R5.3).
    :ivar fantasyland: Fantasyland on or off (R6.7).
    :ivar progressive_fantasyland: QQ/KK/AA/trips give 14/15/16/17 cards; Pineapple only (R6.2).
    :ivar stay_on_full_house_middle: a middle full house or better also keeps Fantasyland (R6.4).
    :ivar button_moves_in_fantasyland: the button moves before a Fantasyland hand (R6.6).
    :ivar target_points: points that end a Chinese Poker game (R7.1).
    :ivar settle_per_round: settle kush after a full round of the button, not every hand (R8.3).
    :ivar hand_seconds: each player's time budget for a whole hand (R8.5).
    :ivar time_bank_seconds: the time bank that starts when the budget is spent (R8.5).
    :ivar time_bank_refill_per_match: bank seconds given back after every match (R8.5).
    :ivar fantasyland_seconds: the budget of a Fantasyland arrangement (R8.5).
    :ivar safe_autoplay: a timeout places cards by the built-in strategy (R8.5).
    :ivar kush_per_point: kush moved per point (R7.6, R8.4); 1 unless a table raises it.
    :ivar ready_seconds: the ready timer: once two players are ready, the unready are stood
        up when it ends and the hand starts (R8.2).
    :ivar idle_close_seconds: a table with no hand dealt for this long closes itself (R8.2a).
    """

    game: GameKind = GameKind.PINEAPPLE
    simultaneous_streets: bool = False
    heads_up_double_boxes: bool = False
    dummy_box: bool = False
    deuce_of_spades: bool = False
    reveal_pause_seconds: float = 3.0
    scoring: Scoring = Scoring.ONE_SIX
    fantasyland: bool = True
    progressive_fantasyland: bool = False
    stay_on_full_house_middle: bool = False
    button_moves_in_fantasyland: bool = True
    target_points: int = 51
    settle_per_round: bool = False
    hand_seconds: float = 120.0
    time_bank_seconds: float = 60.0
    time_bank_refill_per_match: float = 0.0
    fantasyland_seconds: float = 180.0
    safe_autoplay: bool = False
    kush_per_point: int = 1
    ready_seconds: float = 60.0
    idle_close_seconds: float = 1800.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool):
                continue
            if isinstance(value, float) and not math.isfinite(value):
                raise OptionError(f"option {f.name} must be a finite number: {value}")
            if isinstance(value, int | float) and value < 0:
                raise OptionError(f"option {f.name} cannot be negative: {value}")
        if self.kush_per_point < 1:
            raise OptionError("option kush_per_point must be at least 1")
        if self.target_points < 1:
            raise OptionError("option target_points must be at least 1")
        if self.hand_seconds <= 0 or self.fantasyland_seconds <= 0:
            raise OptionError("hand_seconds and fantasyland_seconds must be positive")
        for name, games in OPTION_GAMES.items():
            if getattr(self, name) and self.game not in games:
                order = [g.value for g in GameKind if g in games]
                raise OptionConflict(name, self.game.value, tuple(order))

    # -- presets -------------------------------------------------------------------------
    @classmethod
    def preset(cls, game: str | GameKind = GameKind.PINEAPPLE, **overrides: Any) -> RuleOptions:
        """The defaults of one game, with ``overrides`` applied (checked).

        :raises OptionError: for an unknown game or option, or a bad value;
            :class:`~game.errors.OptionConflict` for an option the game does not have
            (:data:`OPTION_GAMES`).
        """
        kind = _parse_game(game)
        base: RuleOptions
        if kind is GameKind.PINEAPPLE:
            base = cls()
        elif kind is GameKind.OFC:
            # R5.3 two_per_row by default; R6.4 middle full house stays by default.
            base = cls(game=kind, scoring=Scoring.TWO_PER_ROW, stay_on_full_house_middle=True)
        else:
            base = cls(game=kind, fantasyland=False)
        return base.replace_checked(overrides) if overrides else base

    @property
    def min_players(self) -> int:
        """Fewest players a hand needs (R3.1, R4.1, R4.5)."""
        return 2

    @property
    def max_players(self) -> int:
        """Most players a hand takes: 3 for Pineapple (R3.1), 4 otherwise (R4.1, R4.5)."""
        return 3 if self.game is GameKind.PINEAPPLE else 4

    @property
    def fantasyland_base_cards(self) -> int:
        """Cards of a Fantasyland hand before the progressive bonus (R6.2)."""
        return 14 if self.game is GameKind.PINEAPPLE else 13

    @property
    def fantasyland_card_counts(self) -> frozenset[int]:
        """Every card count a Fantasyland hand of these options can have (R6.2, R6.4, R6.7):
        none with ``fantasyland`` off or in Chinese Poker; the base count
        (:attr:`fantasyland_base_cards`: 14 in Pineapple, 13 in classic OFC), which is also
        what a player staying in Fantasyland gets (R6.4); with ``progressive_fantasyland``
        (Pineapple only) also base+1 … base+3 (KK, AA, trips: 15, 16, 17). The set of values
        :func:`game.board.fantasyland_cards` can return, 0 aside."""
        if not self.fantasyland or self.game is GameKind.CHINESE:
            return frozenset()
        base = self.fantasyland_base_cards
        extra = 3 if self.progressive_fantasyland else 0
        return frozenset(range(base, base + extra + 1))

    # -- conversion ----------------------------------------------------------------------
    def replace_checked(self, changes: Mapping[str, Any]) -> RuleOptions:
        """A copy with ``changes`` applied; values are coerced from JSON types.

        :raises OptionError: for an unknown option name or a value of the wrong type.
        """
        known = {f.name: f for f in fields(self)}
        coerced: dict[str, Any] = {}
        for name, raw in changes.items():
            if name not in known:
                raise OptionError(f"unknown option: {name}")
            coerced[name] = _coerce(name, getattr(self, name), raw)
        return dataclasses.replace(self, **coerced)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every option (enums as their string values)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleOptions:
        """Inverse of :meth:`to_json`; the game's preset fills missing fields.

        :raises OptionError: for unknown names or bad values.
        """
        data = dict(data)
        game = data.pop("game", GameKind.PINEAPPLE.value)
        return cls.preset(game, **data)


def _parse_game(game: str | GameKind) -> GameKind:
    if isinstance(game, GameKind):
        return game
    try:
        return GameKind(str(game).lower())
    except ValueError:
        names = ", ".join(k.value for k in GameKind)
        raise OptionError(f"unknown game: {game} (expected one of {names})") from None


def _coerce(name: str, current: Any, raw: Any) -> Any:
    if isinstance(current, GameKind):
        return _parse_game(raw)
    if isinstance(current, Scoring):
        if isinstance(raw, Scoring):
            return raw
        try:
            return Scoring(str(raw).lower())
        except ValueError:
            raise OptionError(f"option {name}: expected one_six or two_per_row") from None
    if isinstance(current, bool):
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.lower() in {
            "true",
            "on",
            "yes",
            "1",
            "false",
            "off",
            "no",
            "0",
        }:
            return raw.lower() in {"true", "on", "yes", "1"}
        raise OptionError(f"option {name}: expected true or false, got {raw!r}")
    if isinstance(current, int) and not isinstance(current, bool):
        if isinstance(raw, bool):
            raise OptionError(f"option {name}: expected a whole number, got {raw!r}")
        try:
            if isinstance(raw, float) and not raw.is_integer():
                raise ValueError
            return int(raw)
        except (TypeError, ValueError):
            raise OptionError(f"option {name}: expected a whole number, got {raw!r}") from None
    if isinstance(current, float):
        if isinstance(raw, bool):
            raise OptionError(f"option {name}: expected a number, got {raw!r}")
        try:
            return float(raw)
        except (TypeError, ValueError):
            raise OptionError(f"option {name}: expected a number, got {raw!r}") from None
    raise OptionError(f"option {name}: unsupported value {raw!r}")  # pragma: no cover
