"""Sit-and-go tournaments: chips, levels, knock-outs, places and payouts (R8.7).

A :class:`Tournament` is opened for one game (Pineapple, classic OFC or Chinese Poker) with a
:class:`TournamentConfig`: a buy-in in kush that goes to the prize pool, the starting chips
(default 1,000), the level length (``level_minutes``, default 5) and the chips-per-point
schedule (default 10, 15, 20, 30, 40, 60, 80, 100, 150, 200, then +100 per level). Like the
hand (:class:`game.hand.Hand`), every action has three faces: ``verify_x`` raises a precise
:class:`TournamentError` (a :class:`~game.errors.GameError`), ``can_x`` answers yes or no and
``x`` acts and returns a frozen record of what happened; a refused action changes nothing.

Life of a tournament (:class:`TournamentPhase`):

* **registering**: :meth:`~Tournament.register` / :meth:`~Tournament.unregister` players
  (opaque ``int`` ids the service chooses); the pool is ``buy_in × registered``. It starts on
  :meth:`~Tournament.start` with at least two players, or by itself when the last seat is taken
  (3 in Pineapple, 4 in classic OFC and Chinese Poker; ``seats`` may lower it). Seats are
  numbered ``0 … n-1`` in registration order; every later action names seats, as hands do.
* **running**: :meth:`~Tournament.deal` records each hand dealt and the level it is dealt at;
  :meth:`~Tournament.settle` turns the hand's pairwise points (``HandResult.pairs``: ``(a, b,
  points a receives from b)`` in R5.7 order) into chips at that level's chips per point, capped
  as in R8.4 (:func:`game.settlement.settle`, chips as the stacks). Chips are conserved by every
  settlement. A player whose chips reach 0 is knocked out; :meth:`~Tournament.leave` knocks a
  player out at once.
* **finished**: one player holds every chip in play; places and prizes are final.

Levels. The level in force is ``1 + ⌊elapsed / level length⌋`` (:meth:`~Tournament.level_at`,
``now`` in seconds on any clock the service keeps, the start time being recorded by
:meth:`~Tournament.start`); a simulation may instead pass any level to :meth:`deal`. A new
level applies from the next hand dealt; a hand in progress finishes at its level: a settlement
uses the level of the last hand dealt. Levels, and so chips per point, never fall
(:class:`LevelError`).

Chinese Poker (R7.6): chips move at the end of each game to the target, not after each hand.
Every hand of a game is dealt with :meth:`deal` (several deals may follow one another without a
settlement) and the game's pairs (:meth:`game.chinese.ChineseGame.pairs`) are settled when the
game ends, at the level of its last hand. In Pineapple and classic OFC every deal is followed by
exactly one settlement (``settle(())`` closes a hand that moved no points).

Decisions beyond RULES.md (R8.7):

* Knock-outs of one settlement take the worst places still open, in the order of their chips
  *before* that settlement (more chips, better place). Equal chips share the best of their
  places; the prizes of the places they cover are added up and split equally in whole kush.
* Prizes: place ``p`` is worth ``⌊pool × payouts[p-1] / 100⌋`` (0 past the list). Every kush
  not paid to another place — rounding of the percentages, the remainder of equal splits, the
  percentages of places beyond the number of players — goes to the winner, so the prizes add
  up exactly to the pool. A non-winner's prize is final when they are knocked out.
* Default payouts, fixed at the start: winner takes all with up to 3 players, 70 % / 30 % with
  4. A custom ``payouts`` list holds whole percentages, best place first, non-increasing,
  summing to 100.
* Leaving (:meth:`~Tournament.leave`): the player is knocked out at that moment into the worst
  open place (with its prize); their chips leave play — they go to nobody and are counted in
  :attr:`~Tournament.chips_removed`, so "every chip in play" afterwards means the chips of the
  players still in. Points of a hand in progress owed to or by a player no longer in play are
  dropped when the hand is settled.
* Timeouts are not this module's business: a player who times out stays in and their hands go
  on being placed for them (R8.5); the service must not sit them out (it ignores
  :attr:`game.match.MatchState.to_sit_out` in a tournament). It marks them *away* instead:
  until they act again at the table, each of their turns waits only :data:`AWAY_SECONDS`
  (not their budget and bank) before the street is placed for them as on a timeout, so that
  the table does not wait minutes every hand for someone who left.
* The schedule's step after its last entry (``schedule_step``, default 100) is at least 1, so
  chips per point grows without bound and every tournament ends.

Snapshots: :meth:`Tournament.to_json` / :meth:`Tournament.from_json` (shape in
:meth:`~Tournament.to_json`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise
from typing import Any

from game.errors import GameError, OptionError, SettlementError
from game.options import GameKind, RuleOptions
from game.settlement import Settlement, settle

__all__ = [
    "AWAY_SECONDS",
    "DEFAULT_SCHEDULE",
    "AlreadyRegistered",
    "Dealt",
    "Finished",
    "HandInProgress",
    "HandSettled",
    "KnockOut",
    "Left",
    "LevelError",
    "NoHandDealt",
    "NotEnoughPlayers",
    "NotInPlay",
    "NotRegistered",
    "NotStarted",
    "Registered",
    "RegistrationClosed",
    "Standing",
    "Started",
    "Tournament",
    "TournamentConfig",
    "TournamentError",
    "TournamentFull",
    "TournamentOver",
    "TournamentPhase",
    "Unregistered",
    "default_payouts",
]

#: How long a turn of a tournament player who is away waits before their street is placed
#: for them (R8.5, R8.7): they are away from the street the clock had to finish for them
#: until they act again at the table; their own budget and bank then apply again.
AWAY_SECONDS = 10.0

#: Chips per point of levels 1–10 (R8.7); each later level adds ``schedule_step``.
DEFAULT_SCHEDULE: tuple[int, ...] = (10, 15, 20, 30, 40, 60, 80, 100, 150, 200)

Pairs = Sequence[tuple[int, int, int]]


# -- errors --------------------------------------------------------------------------------


class TournamentError(GameError):
    """An action the tournament refuses (R8.7); the tournament is unchanged."""

    code = "tournament_error"


class RegistrationClosed(TournamentError):
    """Register or unregister after the start (nobody joins after the start, R8.7)."""

    code = "registration_closed"


class AlreadyRegistered(TournamentError):
    """The player is registered already."""

    code = "already_registered"


class NotRegistered(TournamentError):
    """Unregister of a player who is not registered."""

    code = "not_registered"


class TournamentFull(TournamentError):
    """Every seat is taken (3 Pineapple, 4 classic OFC and Chinese Poker)."""

    code = "tournament_full"


class NotEnoughPlayers(TournamentError):
    """Start with fewer than two registered players."""

    code = "not_enough_players"


class NotStarted(TournamentError):
    """A play action (deal, settle, leave) before the start, or a second start."""

    code = "tournament_not_started"


class TournamentOver(TournamentError):
    """An action after the tournament has finished."""

    code = "tournament_over"


class HandInProgress(TournamentError):
    """A deal while the last hand is not settled (Pineapple and classic OFC)."""

    code = "hand_in_progress"


class NoHandDealt(TournamentError):
    """A settlement with no hand dealt since the last one (Pineapple and classic OFC)."""

    code = "no_hand_dealt"


class LevelError(TournamentError):
    """A level below 1 or below the level already reached: levels never fall (R8.7)."""

    code = "level_falls"


class NotInPlay(TournamentError):
    """The seat is not a player still in the tournament (unknown or knocked out)."""

    code = "not_in_play"


# -- configuration -------------------------------------------------------------------------


def default_payouts(players: int) -> tuple[int, ...]:
    """R8.7's payouts in percent, best place first: winner takes all with up to 3 players,
    70 / 30 with 4 (or more)."""
    return (100,) if players <= 3 else (70, 30)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """The settings of one tournament (R8.7); checked when built.

    :ivar game: the game played (R3, R4).
    :ivar buy_in: kush each player pays into the pool (≥ 0).
    :ivar starting_chips: chips each player starts with (≥ 1; default 1,000).
    :ivar level_minutes: length of a level in minutes (> 0; default 5; fractions allowed).
    :ivar schedule: chips per point of levels 1, 2, …: non-decreasing, each ≥ 1.
    :ivar schedule_step: chips per point added per level after the schedule (≥ 1; 100).
    :ivar payouts: percentages per place, best first (whole numbers, non-increasing, summing
        to 100); ``None``: :func:`default_payouts` for the number of players at the start.
    :ivar seats: seats of the table (2 to the game's maximum, R3.1/R4.1/R4.5); ``None``: the
        maximum (3 Pineapple, 4 classic OFC and Chinese Poker). The tournament starts by itself
        when they are all taken.
    :raises OptionError: for a value out of range.
    """

    game: GameKind = GameKind.PINEAPPLE
    buy_in: int = 100
    starting_chips: int = 1000
    level_minutes: float = 5.0
    schedule: tuple[int, ...] = DEFAULT_SCHEDULE
    schedule_step: int = 100
    payouts: tuple[int, ...] | None = None
    seats: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.game, GameKind):
            raise OptionError(f"unknown game: {self.game!r}")
        _int("buy_in", self.buy_in, 0)
        _int("starting_chips", self.starting_chips, 1)
        _int("schedule_step", self.schedule_step, 1)
        minutes = self.level_minutes
        if isinstance(minutes, bool) or not isinstance(minutes, int | float):
            raise OptionError(f"level_minutes must be a number, got {minutes!r}")
        if not math.isfinite(minutes) or minutes <= 0:
            raise OptionError(f"level_minutes must be positive, got {minutes}")
        if not self.schedule:
            raise OptionError("the schedule needs at least one level")
        for v in self.schedule:
            _int("schedule", v, 1)
        if any(b < a for a, b in pairwise(self.schedule)):
            raise OptionError("chips per point may not fall from one level to the next")
        if self.payouts is not None:
            for v in self.payouts:
                _int("payouts", v, 0)
            if not self.payouts or sum(self.payouts) != 100:
                raise OptionError(f"payouts must add up to 100 %, got {list(self.payouts)}")
            if any(b > a for a, b in pairwise(self.payouts)):
                raise OptionError("payouts may not grow from a place to a worse one")
        top = RuleOptions.preset(self.game).max_players
        if self.seats is not None:
            _int("seats", self.seats, 2)
            if self.seats > top:
                raise OptionError(f"{self.game.value} seats at most {top} players")

    @classmethod
    def create(cls, game: str | GameKind = GameKind.PINEAPPLE, **values: Any) -> TournamentConfig:
        """Build from JSON-like values (lists for ``schedule`` / ``payouts``).

        :raises OptionError: for an unknown game or setting, or a bad value.
        """
        known = set(cls.__dataclass_fields__) - {"game"}
        unknown = sorted(set(values) - known)
        if unknown:
            raise OptionError(f"unknown tournament setting: {unknown[0]}")
        kind = RuleOptions.preset(game).game
        args: dict[str, Any] = dict(values)
        for name in ("schedule", "payouts"):
            raw = args.get(name)
            if raw is not None:
                if isinstance(raw, str | bytes) or not isinstance(raw, Sequence):
                    raise OptionError(f"{name} must be a list of whole numbers")
                args[name] = tuple(raw)
        return cls(kind, **args)

    @property
    def max_seats(self) -> int:
        """Players it takes at most; it starts by itself when they are registered."""
        return self.seats or RuleOptions.preset(self.game).max_players

    @property
    def level_seconds(self) -> float:
        """Length of a level in seconds."""
        return float(self.level_minutes) * 60.0

    def chips_per_point(self, level: int) -> int:
        """Chips a point is worth at ``level`` (1-based): the schedule, then
        ``+schedule_step`` per level (R8.7). Non-decreasing in ``level``.

        :raises LevelError: if ``level < 1``.
        """
        if level < 1:
            raise LevelError(f"levels start at 1, got {level}")
        if level <= len(self.schedule):
            return self.schedule[level - 1]
        return self.schedule[-1] + self.schedule_step * (level - len(self.schedule))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form; :meth:`create` (as ``create(**data)``) reads it back."""
        return {
            "game": self.game.value,
            "buy_in": self.buy_in,
            "starting_chips": self.starting_chips,
            "level_minutes": self.level_minutes,
            "schedule": list(self.schedule),
            "schedule_step": self.schedule_step,
            "payouts": None if self.payouts is None else list(self.payouts),
            "seats": self.seats,
        }


def _int(name: str, value: object, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"{name} must be a whole number, got {value!r}")
    if value < least:
        raise OptionError(f"{name} must be at least {least}, got {value}")


# -- records -------------------------------------------------------------------------------


class TournamentPhase(Enum):
    """Registering (lobby), running (hands dealt) or finished (places final)."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Started:
    """The start: seats ``0 … n-1`` are ``players`` in registration order.

    :ivar pool: the prize pool (kush).
    :ivar payouts: percentages per place in force (R8.7).
    :ivar at: the start time passed to :meth:`Tournament.start` (seconds).
    """

    players: tuple[int, ...]
    pool: int
    payouts: tuple[int, ...]
    starting_chips: int
    at: float


@dataclass(frozen=True, slots=True)
class Registered:
    """A registration: the buy-in went to the pool. ``started`` is set when it filled the last
    seat and so started the tournament."""

    player: int
    players: int
    pool: int
    started: Started | None = None


@dataclass(frozen=True, slots=True)
class Unregistered:
    """An unregistration before the start: the buy-in goes back to the player."""

    player: int
    players: int
    pool: int
    refund: int


@dataclass(frozen=True, slots=True)
class Dealt:
    """A hand dealt: its number (1-based), level and chips per point, and the seats in play."""

    hand: int
    level: int
    chips_per_point: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class KnockOut:
    """A player out of the tournament (R8.7).

    :ivar seat: the seat; ``player`` its player id.
    :ivar place: the place (1 is the winner's; shared places carry the best of them).
    :ivar prize: kush won (final).
    :ivar chips_before: chips before the settlement that knocked them out (or on leaving).
    :ivar hand: the hand that knocked them out (``None`` for a player who left).
    :ivar left: the player left (their chips left play).
    """

    seat: int
    player: int
    place: int
    prize: int
    chips_before: int
    hand: int | None
    left: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "seat": self.seat,
            "player": self.player,
            "place": self.place,
            "prize": self.prize,
            "chips_before": self.chips_before,
            "hand": self.hand,
            "left": self.left,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KnockOut:
        """Inverse of :meth:`to_json`."""
        hand = data.get("hand")
        return cls(
            int(data["seat"]),
            int(data["player"]),
            int(data["place"]),
            int(data["prize"]),
            int(data["chips_before"]),
            None if hand is None else int(hand),
            bool(data.get("left", False)),
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """A final place: seat, player, place (shared places carry the best) and prize (kush)."""

    seat: int
    player: int
    place: int
    prize: int


@dataclass(frozen=True, slots=True)
class Finished:
    """The end: ``standings`` best first (ties by seat); the prizes add up to ``pool``."""

    winner: int
    standings: tuple[Standing, ...]
    pool: int

    @property
    def prizes(self) -> dict[int, int]:
        """Seat → kush won."""
        return {s.seat: s.prize for s in self.standings}


@dataclass(frozen=True, slots=True)
class HandSettled:
    """A settlement in chips (R8.4, R8.7).

    :ivar hand: the last hand dealt (Chinese Poker: the hand that ended the game).
    :ivar level: its level; ``chips_per_point`` the chips a point was worth.
    :ivar settlement: the capped transfers and the chips before and after of the seats in play.
    :ivar knocked_out: players whose chips reached 0, best place first.
    :ivar finished: set when this settlement ended the tournament.
    """

    hand: int
    level: int
    chips_per_point: int
    settlement: Settlement
    knocked_out: tuple[KnockOut, ...] = ()
    finished: Finished | None = None


@dataclass(frozen=True, slots=True)
class Left:
    """A player left: knocked out at once; ``chips_removed`` left play (R8.7)."""

    knock_out: KnockOut
    chips_removed: int
    finished: Finished | None = None


# -- the tournament ------------------------------------------------------------------------


@dataclass(slots=True)
class _State:
    phase: TournamentPhase = TournamentPhase.REGISTERING
    players: list[int] = field(default_factory=list)
    started_at: float | None = None
    payouts: tuple[int, ...] = ()
    chips: dict[int, int] = field(default_factory=dict)  # seats in play only
    level: int = 1
    hands: int = 0
    hand_open: bool = False
    out: list[KnockOut] = field(default_factory=list)
    chips_removed: int = 0
    winner: int | None = None


class Tournament:
    """One sit-and-go tournament's state (R8.7); see the module documentation.

    Reads: :attr:`phase`, :attr:`players`, :attr:`pool`, :attr:`chips`, :attr:`in_play`,
    :attr:`level`, :attr:`chips_per_point`, :attr:`hands`, :attr:`knocked_out`,
    :attr:`places`, :attr:`prizes`, :attr:`finished`. Actions (each with ``verify_`` and
    ``can_``): :meth:`register`, :meth:`unregister`, :meth:`start`, :meth:`deal`,
    :meth:`settle`, :meth:`leave`.
    """

    def __init__(self, config: TournamentConfig | None = None) -> None:
        self.config = config or TournamentConfig()
        self._s = _State()

    # -- reads -----------------------------------------------------------------------------
    @property
    def phase(self) -> TournamentPhase:
        """Registering, running or finished."""
        return self._s.phase

    @property
    def players(self) -> tuple[int, ...]:
        """Registered player ids; after the start, indexed by seat."""
        return tuple(self._s.players)

    @property
    def pool(self) -> int:
        """The prize pool: ``buy_in ×`` registered players (kush)."""
        return self.config.buy_in * len(self._s.players)

    @property
    def payouts(self) -> tuple[int, ...]:
        """Percentages per place: fixed at the start; before it, those it would use now."""
        if self._s.phase is TournamentPhase.REGISTERING:
            return self.config.payouts or default_payouts(len(self._s.players))
        return self._s.payouts

    def place_prizes(self) -> tuple[int, ...]:
        """Kush of places 1, 2, … for the players registered (or who started) now, no place
        shared (R8.7): place ``p`` ≥ 2 gets ``⌊pool × payouts[p-1] / 100⌋``, the winner the
        rest (the rounding, and the percentages of places beyond the number of players).
        Places that get nothing are left off the end; empty with nobody registered."""
        players = len(self._s.players)
        if not players:
            return ()
        others = [self._table_prize(p) for p in range(2, players + 1)]
        while others and not others[-1]:
            others.pop()
        return (self.pool - sum(others), *others)

    @property
    def started_at(self) -> float | None:
        """The start time given to :meth:`start` (seconds), ``None`` before."""
        return self._s.started_at

    @property
    def chips(self) -> dict[int, int]:
        """Seat → chips of every player still in play (each > 0)."""
        return dict(self._s.chips)

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats still in the tournament, ascending."""
        return tuple(sorted(self._s.chips))

    @property
    def chips_in_play(self) -> int:
        """Total chips of the players still in (constant except when a player leaves)."""
        return sum(self._s.chips.values())

    @property
    def chips_removed(self) -> int:
        """Chips that left play with players who left (R8.7)."""
        return self._s.chips_removed

    @property
    def level(self) -> int:
        """The level of the last hand dealt (1 before the first)."""
        return self._s.level

    @property
    def chips_per_point(self) -> int:
        """Chips per point of :attr:`level`."""
        return self.config.chips_per_point(self._s.level)

    @property
    def hands(self) -> int:
        """Hands dealt so far."""
        return self._s.hands

    @property
    def hand_open(self) -> bool:
        """A hand has been dealt and not yet settled."""
        return self._s.hand_open

    @property
    def knocked_out(self) -> tuple[KnockOut, ...]:
        """Players out, in the order they went out (best place last)."""
        return tuple(self._s.out)

    @property
    def winner(self) -> int | None:
        """The winner's seat once finished."""
        return self._s.winner

    @property
    def places(self) -> dict[int, int]:
        """Seat → place of every player placed so far (the winner once finished)."""
        out = {k.seat: k.place for k in self._s.out}
        if self._s.winner is not None:
            out[self._s.winner] = 1
        return out

    @property
    def prizes(self) -> dict[int, int]:
        """Seat → kush won by every player placed so far; once finished they sum to the pool."""
        out = {k.seat: k.prize for k in self._s.out}
        if self._s.winner is not None:
            out[self._s.winner] = self.pool - sum(out.values())
        return out

    def cancel_shares(self) -> dict[int, int]:
        """Seat → kush each player is paid from the pool when the tournament is cancelled
        before it finishes (an admin closes it, nobody plays on; R8.7 says only that kush
        leave the pool through balanced entries, so as card rooms settle a cancelled
        tournament): before anyone is knocked out, every buy-in back (as if it never
        started); after a knock-out, the tournament is rolled forward: a player knocked out
        keeps the prize of the place taken (0 out of the money: the buy-in was lost as it
        would have been had play gone on), each player still in is paid the prize of the
        worst place still open (the least every one of them was sure of), and the rest of
        the pool goes half evenly, half by chips to the players still in, in whole kush (the
        kush the division leaves one each to the most chips, equal chips the lower seat).
        The shares add up exactly to the pool. Finished: the prizes."""
        s = self._s
        if s.winner is not None:
            return self.prizes
        if not s.out:
            return {seat: self.config.buy_in for seat in range(len(s.players))}
        shares = {k.seat: k.prize for k in s.out}
        still = sorted(s.chips)
        least = self._table_prize(len(still))  # (places 1 … len(still) are still open)
        shares.update({seat: least for seat in still})
        rest = self.pool - sum(shares.values())
        even, by_chips = rest // 2, rest - rest // 2
        chips = sum(s.chips[seat] for seat in still)
        for seat in still:
            shares[seat] += even // len(still) + by_chips * s.chips[seat] // chips
        order = sorted(still, key=lambda seat: (-s.chips[seat], seat))
        for i in range(self.pool - sum(shares.values())):
            shares[order[i % len(order)]] += 1
        return shares

    @property
    def finished(self) -> Finished | None:
        """The final standings once finished, else ``None``."""
        if self._s.winner is None:
            return None
        return self._finished()

    def seat_of(self, player: int) -> int:
        """The seat of a registered player (registration order).

        :raises NotRegistered: if the player is not registered.
        """
        try:
            return self._s.players.index(player)
        except ValueError:
            raise NotRegistered(f"player {player} is not registered") from None

    def level_at(self, now: float) -> int:
        """The level in force at ``now`` (seconds, same clock as :meth:`start`): ``1 +
        ⌊(now - start) / level length⌋``, never below the level already reached; 1 before the
        start."""
        started = self._s.started_at
        if started is None:
            return 1
        elapsed = max(0.0, now - started)
        return max(self._s.level, 1 + int(elapsed // self.config.level_seconds))

    def next_level_at(self, now: float) -> float | None:
        """When the level after the one in force at ``now`` begins (seconds, same clock);
        ``None`` before the start. The lobby shows ``next_level_at(now) - now``."""
        started = self._s.started_at
        if started is None:
            return None
        elapsed = max(0.0, now - started)
        return started + (int(elapsed // self.config.level_seconds) + 1) * self.config.level_seconds

    # -- register / unregister -------------------------------------------------------------
    def verify_register(self, player: int) -> None:
        """:raises RegistrationClosed: after the start.
        :raises AlreadyRegistered: if ``player`` is registered.
        :raises TournamentFull: if every seat is taken."""
        if self._s.phase is not TournamentPhase.REGISTERING:
            raise RegistrationClosed("the tournament has started: nobody joins now")
        if player in self._s.players:
            raise AlreadyRegistered(f"player {player} is registered already")
        if len(self._s.players) >= self.config.max_seats:
            raise TournamentFull(f"all {self.config.max_seats} seats are taken")

    def can_register(self, player: int) -> bool:
        """Whether :meth:`register` would accept ``player``."""
        return _can(self.verify_register, player)

    def register(self, player: int, now: float = 0.0) -> Registered:
        """Register ``player`` (the buy-in goes to the pool); filling the last seat starts the
        tournament at ``now`` (seconds).

        :raises TournamentError: as :meth:`verify_register`.
        """
        self.verify_register(player)
        self._s.players.append(player)
        started = self.start(now) if len(self._s.players) == self.config.max_seats else None
        return Registered(player, len(self._s.players), self.pool, started)

    def verify_unregister(self, player: int) -> None:
        """:raises RegistrationClosed: after the start.
        :raises NotRegistered: if ``player`` is not registered."""
        if self._s.phase is not TournamentPhase.REGISTERING:
            raise RegistrationClosed("the tournament has started: leave it instead")
        if player not in self._s.players:
            raise NotRegistered(f"player {player} is not registered")

    def can_unregister(self, player: int) -> bool:
        """Whether :meth:`unregister` would accept ``player``."""
        return _can(self.verify_unregister, player)

    def unregister(self, player: int) -> Unregistered:
        """Unregister ``player``; ``refund`` (the buy-in) goes back to them.

        :raises TournamentError: as :meth:`verify_unregister`.
        """
        self.verify_unregister(player)
        self._s.players.remove(player)
        return Unregistered(player, len(self._s.players), self.pool, self.config.buy_in)

    # -- start -----------------------------------------------------------------------------
    def verify_start(self) -> None:
        """:raises NotStarted: (code ``tournament_started``) if it has started already.
        :raises NotEnoughPlayers: with fewer than two players."""
        if self._s.phase is not TournamentPhase.REGISTERING:
            raise NotStarted("the tournament has started already", code="tournament_started")
        if len(self._s.players) < 2:
            raise NotEnoughPlayers("a tournament needs at least two players")

    def can_start(self) -> bool:
        """Whether :meth:`start` would succeed."""
        return _can(self.verify_start)

    def start(self, now: float = 0.0) -> Started:
        """Start: every player gets the starting chips, the payouts are fixed, level 1 begins
        at ``now`` (seconds).

        :raises TournamentError: as :meth:`verify_start`.
        """
        self.verify_start()
        s = self._s
        s.phase = TournamentPhase.RUNNING
        s.started_at = float(now)
        s.payouts = self.config.payouts or default_payouts(len(s.players))
        s.chips = {seat: self.config.starting_chips for seat in range(len(s.players))}
        return Started(
            tuple(s.players), self.pool, s.payouts, self.config.starting_chips, s.started_at
        )

    def pause(self, seconds: float) -> None:
        """The level clock stood still for ``seconds`` (the bot was down): the levels to come
        begin that much later (R8.7: levels rise at fixed intervals of the tournament's
        time, not of an outage). No effect before the start or for ``seconds <= 0``; the
        level already reached never falls (:meth:`level_at`)."""
        if self._s.started_at is not None and seconds > 0:
            self._s.started_at += float(seconds)

    # -- deal ------------------------------------------------------------------------------
    def _verify_running(self) -> None:
        if self._s.phase is TournamentPhase.REGISTERING:
            raise NotStarted("the tournament has not started")
        if self._s.phase is TournamentPhase.FINISHED:
            raise TournamentOver("the tournament is over")

    def verify_deal(self, level: int | None = None) -> None:
        """:raises NotStarted: before the start. :raises TournamentOver: after the end.
        :raises HandInProgress: Pineapple / classic OFC: the last hand is not settled.
        :raises LevelError: ``level`` below 1 or below :attr:`level` (levels never fall)."""
        self._verify_running()
        if self._s.hand_open and self.config.game is not GameKind.CHINESE:
            raise HandInProgress(f"hand {self._s.hands} is not settled yet")
        if level is not None:
            if isinstance(level, bool) or not isinstance(level, int) or level < 1:
                raise LevelError(f"levels start at 1, got {level!r}")
            if level < self._s.level:
                raise LevelError(f"level {level} is below the level reached, {self._s.level}")

    def can_deal(self, level: int | None = None) -> bool:
        """Whether :meth:`deal` would accept ``level``."""
        return _can(self.verify_deal, level)

    def deal(self, level: int | None = None) -> Dealt:
        """Record the next hand dealt, at ``level`` (default: the level reached; the service
        passes :meth:`level_at` of the deal time, a simulation any non-falling level). The hand
        is settled at this level, whenever the settlement comes (R8.7).

        :raises TournamentError: as :meth:`verify_deal`.
        """
        self.verify_deal(level)
        s = self._s
        if level is not None:
            s.level = level
        s.hands += 1
        s.hand_open = True
        return Dealt(s.hands, s.level, self.chips_per_point, self.in_play)

    # -- settle ----------------------------------------------------------------------------
    def verify_settle(self, pairs: Pairs) -> None:
        """:raises NotStarted: before the start. :raises TournamentOver: after the end.
        :raises NoHandDealt: Pineapple / classic OFC: no hand dealt since the last settlement.
        :raises SettlementError: a pair naming a seat that never played this tournament, or
            not of the form ``(a, b, points)`` with ``a != b``."""
        self._verify_running()
        if not self._s.hand_open and self.config.game is not GameKind.CHINESE:
            raise NoHandDealt("no hand has been dealt since the last settlement")
        seats = range(len(self._s.players))
        for pair in pairs:
            if len(pair) != 3 or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in pair
            ):
                raise SettlementError(f"a pair is (seat, seat, points), got {pair!r}")
            a, b, _ = pair
            if a not in seats or b not in seats or a == b:
                raise SettlementError(f"unknown seat in pair ({a}, {b})")

    def can_settle(self, pairs: Pairs) -> bool:
        """Whether :meth:`settle` would accept ``pairs``."""
        return _can(self.verify_settle, pairs)

    def settle(self, pairs: Pairs) -> HandSettled:
        """Settle pairwise points in chips at the level of the last hand dealt (R8.7): each
        ``(a, b, p)`` moves ``|p| × chips per point`` between ``a`` and ``b`` (``p > 0``: ``b``
        pays ``a``), in the given order (R5.7), each transfer capped by what the payer still has
        (R8.4). Pairs naming a player no longer in play are dropped. Players left with 0 chips
        are knocked out: they take the worst open places in the order of their chips before
        this settlement, equal chips sharing a place and its prize. When one player is left
        the tournament is finished.

        :raises TournamentError: as :meth:`verify_settle`.
        """
        self.verify_settle(pairs)
        s = self._s
        live = [(a, b, p) for a, b, p in pairs if a in s.chips and b in s.chips]
        cpp = self.chips_per_point
        result = settle(live, s.chips, cpp)
        s.chips = dict(result.after)
        s.hand_open = False
        busted = [seat for seat, c in result.after.items() if c == 0]
        knocked = self._knock_out(busted, result.before, s.hands)
        finished = self._maybe_finish()
        return HandSettled(s.hands, s.level, cpp, result, knocked, finished)

    # -- leave -----------------------------------------------------------------------------
    def verify_leave(self, seat: int) -> None:
        """:raises NotStarted: before the start (unregister instead).
        :raises TournamentOver: after the end. :raises NotInPlay: the seat is not in play."""
        self._verify_running()
        if seat not in self._s.chips:
            raise NotInPlay(f"seat {seat} is not in play")

    def can_leave(self, seat: int) -> bool:
        """Whether :meth:`leave` would accept ``seat``."""
        return _can(self.verify_leave, seat)

    def leave(self, seat: int) -> Left:
        """The player at ``seat`` leaves: knocked out at once into the worst open place, with
        its prize; their chips leave play (R8.7). If one player is left, they win.

        :raises TournamentError: as :meth:`verify_leave`.
        """
        self.verify_leave(seat)
        s = self._s
        chips = s.chips[seat]
        place = len(s.chips)
        ko = KnockOut(
            seat, s.players[seat], place, self._place_prize(place, 1), chips, None, left=True
        )
        del s.chips[seat]
        s.chips_removed += chips
        s.out.append(ko)
        return Left(ko, chips, self._maybe_finish())

    # -- places and prizes -----------------------------------------------------------------
    def _table_prize(self, place: int) -> int:
        """Kush of ``place`` by the payout table (:attr:`payouts`: the one in force, or the
        one it would use now before the start), rounded down (the winner gets the rest)."""
        payouts = self.payouts
        return (self.pool * payouts[place - 1]) // 100 if place <= len(payouts) else 0

    def _place_prize(self, place: int, shared_by: int) -> int:
        """Each one's prize when ``shared_by`` players share places ``place …``."""
        total = sum(self._table_prize(p) for p in range(place, place + shared_by))
        return total // shared_by

    def _knock_out(
        self, busted: Sequence[int], before: Mapping[int, int], hand: int
    ) -> tuple[KnockOut, ...]:
        """Place the players ``busted`` together (R8.7): worst open places, more chips before
        the hand placing better, equal chips sharing."""
        if not busted:
            return ()
        s = self._s
        worst = len(s.chips)  # the worst open place (every busted seat is still in s.chips)
        best = worst - len(busted) + 1
        ordered = sorted(busted, key=lambda seat: (-before[seat], seat))
        out: list[KnockOut] = []
        i = 0
        while i < len(ordered):
            group = [x for x in ordered[i:] if before[x] == before[ordered[i]]]
            place = best + i
            prize = self._place_prize(place, len(group))
            for seat in group:
                out.append(KnockOut(seat, s.players[seat], place, prize, before[seat], hand))
            i += len(group)
        for seat in busted:
            del s.chips[seat]
        s.out.extend(reversed(out))  # the order they went out: worst place first
        return tuple(out)

    def _maybe_finish(self) -> Finished | None:
        s = self._s
        if len(s.chips) != 1:
            return None
        (s.winner,) = s.chips
        s.phase = TournamentPhase.FINISHED
        s.hand_open = False
        return self._finished()

    def _finished(self) -> Finished:
        winner = self._s.winner
        assert winner is not None
        prizes = self.prizes
        standings = [Standing(winner, self._s.players[winner], 1, prizes[winner])]
        standings += [Standing(k.seat, k.player, k.place, k.prize) for k in self._s.out]
        standings.sort(key=lambda st: (st.place, st.seat))
        return Finished(winner, tuple(standings), self.pool)

    # -- snapshots -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """JSON-ready snapshot::

        {"config": {TournamentConfig.to_json()}, "phase": "registering|running|finished",
         "players": [player ids by seat], "started_at": seconds | null,
         "payouts": [percent, ...], "chips": {"seat": chips in play},
         "level": int, "hands": int, "hand_open": bool,
         "knocked_out": [KnockOut.to_json(), ...] (order of going out),
         "chips_removed": int, "winner": seat | null}
        """
        s = self._s
        return {
            "config": self.config.to_json(),
            "phase": s.phase.value,
            "players": list(s.players),
            "started_at": s.started_at,
            "payouts": list(s.payouts),
            "chips": {str(k): v for k, v in sorted(s.chips.items())},
            "level": s.level,
            "hands": s.hands,
            "hand_open": s.hand_open,
            "knocked_out": [k.to_json() for k in s.out],
            "chips_removed": s.chips_removed,
            "winner": s.winner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        """Inverse of :meth:`to_json`.

        :raises OptionError: for a bad configuration.
        :raises TournamentError: for a snapshot that does not hold together.
        """
        try:
            t = cls(TournamentConfig.create(**dict(data["config"])))
            started_at = data.get("started_at")
            winner = data.get("winner")
            t._s = _State(
                phase=TournamentPhase(data["phase"]),
                players=[int(p) for p in data["players"]],
                started_at=None if started_at is None else float(started_at),
                payouts=tuple(int(p) for p in data.get("payouts") or ()),
                chips={int(k): int(v) for k, v in dict(data.get("chips") or {}).items()},
                level=int(data.get("level", 1)),
                hands=int(data.get("hands", 0)),
                hand_open=bool(data.get("hand_open", False)),
                out=[KnockOut.from_json(k) for k in data.get("knocked_out") or ()],
                chips_removed=int(data.get("chips_removed", 0)),
                winner=None if winner is None else int(winner),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, GameError):
                raise
            raise TournamentError(
                f"bad tournament snapshot: {exc!r}", code="bad_snapshot"
            ) from None
        return t

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tournament) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Tournament({self.config.game.value}, {self._s.phase.value}, "
            f"level={self._s.level}, chips={self._s.chips})"
        )


def _can(verify: Callable[..., None], *args: Any) -> bool:
    try:
        verify(*args)
    except GameError:
        return False
    return True
