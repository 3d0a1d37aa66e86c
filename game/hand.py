"""The hand state machine of open-face games (R3, R6.2–R6.3, R8.5).

A :class:`Hand` is built from a :class:`HandSetup` (rule options, seats, button, Fantasyland
seats and a 52-card deck) and moved only by its own methods. Every action has three faces in
the style of pokerkit: :meth:`Hand.verify` raises a precise :class:`~game.errors.IllegalAction`,
:meth:`Hand.can` answers yes or no, :meth:`Hand.apply` acts and returns a frozen
:class:`Applied` record. When the last seat confirms, the hand is scored (R5) and
:attr:`Hand.result` holds a typed :class:`HandResult`.

Streets (R3.2): each seat has a plan of streets ``(dealt, kept)``: Pineapple deals
``(5, 5), (3, 2) × 4``, a Fantasyland seat ``(14, 13)`` (or 15–17, R6.2), classic OFC
``(5, 5), (1, 1) × 8`` (R4.1).

Order of play (R3.3, R3.6, R6.3):

* Seats act from the first seat after the button round to the button. Ordinary seats play the
  streets in the open: one seat at a time, or all at once with ``simultaneous_streets``.
* With Fantasyland seats and ordinary seats of at least two players, the ordinary seats play
  first; the Fantasyland seats then arrange at once, hidden until showdown.
* With the ordinary seats of at most one player (one seat, or the two boards of one player
  with ``heads_up_double_boxes``, R4.2), everybody plays at once and the ordinary boards are
  hidden until showdown too.

What a seat may see is given by :meth:`Hand.view`; adapters render only views, so no hidden
card reaches a group: a seat's street cards are visible to others only on street 1 in
sequential open play (dealt face up, R3.3), its placements after it confirms (R3.3) or, in
simultaneous play, when the street is complete (R3.6); hidden boards only at showdown (R6.3);
discards never (R3.3).

Cards are dealt from the deck in a fixed order (Fantasyland seats first, in acting order, then
street by street in acting order), so a setup and its actions replay to the same hand.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from game.actions import (
    Action,
    Arrange,
    Confirm,
    Discard,
    Place,
    Timeout,
    Unplace,
    action_from_json,
    action_to_json,
)
from game.autoplay import auto_street
from game.board import BOXES, Board, Box, assess_board
from game.cards import Card, cards_str, check_distinct, parse_cards, shuffled_deck
from game.errors import (
    BoxFull,
    CardError,
    CardNotInHand,
    DiscardNotAllowed,
    FantasylandError,
    GameError,
    HandOver,
    IllegalAction,
    IncompleteStreet,
    NotYourTurn,
)
from game.options import GameKind, RuleOptions
from game.policy import Level, SeatKnowledge, decide, knowledge, play
from game.scoring import ChineseShowdown, Showdown, score_chinese, score_showdown

log = logging.getLogger("game")

__all__ = [
    "Applied",
    "Hand",
    "HandResult",
    "HandSetup",
    "HandView",
    "Phase",
    "PrivateView",
    "SeatResult",
    "SeatView",
    "acting_order",
    "double_box_seats",
    "street_plan",
]

#: ``(dealt, kept)`` per street.
StreetPlan = tuple[tuple[int, int], ...]

_PINEAPPLE_PLAN: StreetPlan = ((5, 5), (3, 2), (3, 2), (3, 2), (3, 2))
_OFC_PLAN: StreetPlan = ((5, 5),) + ((1, 1),) * 8
_CHINESE_PLAN: StreetPlan = ((13, 13),)


def street_plan(options: RuleOptions, fantasyland_cards: int = 0) -> StreetPlan:
    """The streets a seat plays (R3.2, R4.1, R4.5, R6.2): ``(dealt, kept)`` per street."""
    if fantasyland_cards:
        return ((fantasyland_cards, 13),)
    if options.game is GameKind.PINEAPPLE:
        return _PINEAPPLE_PLAN
    if options.game is GameKind.OFC:
        return _OFC_PLAN
    return _CHINESE_PLAN


def acting_order(seats: Sequence[int], button: int) -> tuple[int, ...]:
    """Seats from the first after the button round to the button, which acts last (R3.3).

    :raises GameError: if the button is not one of the seats.
    """
    ordered = sorted(seats)
    if button not in ordered:
        raise GameError(f"button seat {button} is not dealt in")
    i = ordered.index(button)
    return tuple(ordered[i + 1 :] + ordered[: i + 1])


def double_box_seats(players: Sequence[int]) -> tuple[tuple[int, ...], dict[int, int]]:
    """Board seats for ``heads_up_double_boxes`` (R4.2): player seat ``p`` plays boards
    ``10p`` and ``10p + 1``. Returns ``(board seats, owners)``."""
    seats = tuple(10 * p + k for p in sorted(players) for k in (0, 1))
    return seats, {s: s // 10 for s in seats}


class Phase(Enum):
    """Where the hand stands."""

    PLAYING = "playing"
    SHOWDOWN = "showdown"


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything needed to deal a hand (and to replay it).

    :ivar options: the table's rule options.
    :ivar seats: seats dealt in (table seat numbers, any order).
    :ivar button: the button's seat (R3.3).
    :ivar fantasyland: seat → cards of its Fantasyland hand (R6.2); absent seats play ordinarily.
    :ivar deck: the 52 cards in dealing order.
    :ivar seed: the seed that shuffled ``deck``, if one did (informational).
    :ivar owners: board seat → the player who plays it, when a player plays several boards
        (``heads_up_double_boxes``, R4.2; see :func:`double_box_seats`); empty: one board each.
    """

    options: RuleOptions
    seats: tuple[int, ...]
    button: int
    deck: tuple[Card, ...]
    fantasyland: Mapping[int, int] = field(default_factory=dict)
    seed: str | None = None
    owners: Mapping[int, int] = field(default_factory=dict)

    def owner(self, seat: int) -> int:
        """The player seat that plays board seat ``seat``."""
        return self.owners.get(seat, seat)

    @property
    def players(self) -> tuple[int, ...]:
        """The players dealt in (table seats), sorted."""
        return tuple(sorted({self.owner(s) for s in self.seats}))

    @property
    def dummy(self) -> bool:
        """Whether a dummy board is dealt (``dummy_box``, classic OFC, 3 players; R4.3)."""
        o = self.options
        return o.dummy_box and o.game is GameKind.OFC and len(self.players) == 3

    @classmethod
    def deal(
        cls,
        options: RuleOptions,
        seats: Sequence[int],
        button: int,
        fantasyland: Mapping[int, int] | None = None,
        *,
        seed: int | str | None = None,
        deck: Sequence[Card] | None = None,
        owners: Mapping[int, int] | None = None,
    ) -> HandSetup:
        """A setup with an injected ``deck``, a deck shuffled from ``seed``, or (neither given)
        a deck shuffled with a CSPRNG (R1.1).

        :raises GameError: on a bad player count, button, Fantasyland seat or deck.
        """
        if deck is None:
            deck = shuffled_deck(seed)
        setup = cls(
            options,
            tuple(seats),
            button,
            tuple(deck),
            dict(fantasyland or {}),
            str(seed) if seed is not None else None,
            dict(owners or {}),
        )
        setup.check()
        return setup

    def check(self) -> None:
        """Refuse a setup that cannot be dealt: seats, owners (R4.2), player count (R3.1,
        R4.1), button, Fantasyland hands (R6.2, R6.4, R6.7: only the counts of
        :attr:`RuleOptions.fantasyland_card_counts`), the deck (R1.1) and the cards the deal
        needs.

        :raises FantasylandError: for a Fantasyland card count the game and its options never
            deal (a 17-card hand in classic OFC, a 15-card one without
            ``progressive_fantasyland``, any with ``fantasyland`` off or in Chinese Poker).
        :raises CardError: for a deck that is not 52 distinct cards.
        :raises GameError: for any other setup that cannot be dealt."""
        opts = self.options
        n = len(self.seats)
        if len(set(self.seats)) != n:
            raise GameError("a seat is dealt in twice")
        if self.owners:
            if any(s not in self.owners for s in self.seats) or any(
                s not in self.seats for s in self.owners
            ):
                raise GameError("owners must name the player of every board seat")
            per = {p: sum(1 for s in self.seats if self.owner(s) == p) for p in self.players}
            if not opts.heads_up_double_boxes or len(per) != 2 or set(per.values()) != {2}:
                raise GameError("two boards per player only with heads_up_double_boxes, 2 players")
            n = len(per)
        if not opts.min_players <= n <= opts.max_players:
            raise GameError(
                f"{opts.game.value} takes {opts.min_players}–{opts.max_players} players, got {n}"
            )
        if self.button not in self.seats:
            raise GameError(f"button seat {self.button} is not dealt in")
        counts = opts.fantasyland_card_counts
        for seat, cards in self.fantasyland.items():
            if seat not in self.seats:
                raise GameError(f"Fantasyland seat {seat} is not dealt in")
            if cards not in counts:
                raise FantasylandError(_fantasyland_refusal(opts, cards))
        if len(self.deck) != 52:
            raise CardError(f"a deck has 52 cards, got {len(self.deck)}")
        check_distinct(self.deck)
        need = sum(
            sum(d for d, _ in street_plan(opts, self.fantasyland.get(s, 0))) for s in self.seats
        ) + (13 if self.dummy else 0)
        if need > 52:
            raise GameError(f"this deal needs {need} cards, the deck has 52")

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (the deck as ASCII cards)."""
        return {
            "options": self.options.to_json(),
            "seats": list(self.seats),
            "button": self.button,
            "fantasyland": {str(k): v for k, v in self.fantasyland.items()},
            "deck": cards_str(self.deck),
            "seed": self.seed,
            "owners": {str(k): v for k, v in self.owners.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandSetup:
        """Inverse of :meth:`to_json`. :raises GameError: on bad data."""
        setup = cls(
            RuleOptions.from_json(data["options"]),
            tuple(int(s) for s in data["seats"]),
            int(data["button"]),
            parse_cards(data["deck"]),
            {int(k): int(v) for k, v in dict(data.get("fantasyland") or {}).items()},
            data.get("seed"),
            {int(k): int(v) for k, v in dict(data.get("owners") or {}).items()},
        )
        setup.check()
        return setup


def _fantasyland_refusal(opts: RuleOptions, cards: int) -> str:
    """The message of :class:`FantasylandError` for a ``cards``-card Fantasyland hand that
    ``opts`` never deal (:meth:`HandSetup.check`)."""
    game = opts.game.title
    if opts.game is GameKind.CHINESE:
        return f"Fantasyland hand of {cards} cards: {game} has no Fantasyland (R6)"
    if not opts.fantasyland:
        return f"Fantasyland hand of {cards} cards: option fantasyland is off (R6.7)"
    counts = sorted(opts.fantasyland_card_counts)
    allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    if opts.game is GameKind.PINEAPPLE:  # (the one game with progressive_fantasyland)
        game += f" with progressive_fantasyland {'on' if opts.progressive_fantasyland else 'off'}"
    return f"Fantasyland hand of {cards} cards: {game} deals {allowed} (R6.2)"


@dataclass(frozen=True, slots=True)
class Applied:
    """What an accepted action did.

    :ivar action: the action as applied (the one :attr:`Hand.actions` keeps: a timeout with
        ``safe_autoplay`` carries the placement it chose, :attr:`Timeout.placed`).
    :ivar street_done: the seat confirmed (or timed out of) its street.
    :ivar placements: for a timeout, the cards placed for the seat (box ``None`` = discarded).
    :ivar revealed: cards became public (another write of the group board is due).
    :ivar finished: the hand reached showdown.
    """

    action: Action
    street_done: bool = False
    placements: tuple[tuple[Card, Box | None], ...] = ()
    revealed: bool = False
    finished: bool = False


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result at showdown.

    :ivar points: net points of the hand (R5.1; Chinese: points earned, R7).
    :ivar fantasyland_cards: Fantasyland earned for the next hand, 0 for none (R6).
    :ivar played_fantasyland: this hand was the seat's Fantasyland hand.
    :ivar timed_out: some street was finished for the seat on timeout (R8.5, R8.6).
    """

    seat: int
    board: Board
    fouled: bool
    royalties: tuple[int, int, int]
    points: int
    fantasyland_cards: int
    played_fantasyland: bool
    timed_out: bool
    strengths: tuple[int, int, int]

    @property
    def royalty_total(self) -> int:
        """Sum of the royalties."""
        return sum(self.royalties)


@dataclass(frozen=True, slots=True)
class HandResult:
    """The typed end of a hand.

    :ivar order: seats in acting order (button last).
    :ivar seats: per seat in acting order.
    :ivar pairs: ``(seat_a, seat_b, points a receives from b)`` in settlement order (R5.7).
    :ivar showdown: the scored showdown (positions follow ``order``).
    :ivar dummy: the dummy board (R4.3), shown only now; never scored.
    """

    order: tuple[int, ...]
    seats: tuple[SeatResult, ...]
    pairs: tuple[tuple[int, int, int], ...]
    showdown: Showdown | ChineseShowdown
    dummy: Board | None = None

    def seat(self, seat: int) -> SeatResult:
        """The result of one seat. :raises KeyError: if the seat was not dealt in."""
        for r in self.seats:
            if r.seat == seat:
                return r
        raise KeyError(seat)

    @property
    def points(self) -> dict[int, int]:
        """Seat → net points."""
        return {r.seat: r.points for r in self.seats}

    @property
    def scoops(self) -> dict[int, int]:
        """Seat → opponents' boards it beat in all three boxes (R5.2; a fouled board is
        scooped by every live one, R5.4; never a player's own other board, R4.2). Chinese
        Poker has no scoop (R7): 0."""
        out = {r.seat: 0 for r in self.seats}
        if isinstance(self.showdown, Showdown):
            for pr in self.showdown.pairs:
                if pr.scoop:
                    out[self.order[pr.a] if pr.scoop > 0 else self.order[pr.b]] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (boards without discards)."""
        scoops = self.scoops
        return {
            "order": list(self.order),
            "seats": [
                {
                    "seat": r.seat,
                    **r.board.to_json(),
                    "fouled": r.fouled,
                    "royalties": list(r.royalties),
                    "points": r.points,
                    "fantasyland_cards": r.fantasyland_cards,
                    "played_fantasyland": r.played_fantasyland,
                    "timed_out": r.timed_out,
                    "scoops": scoops[r.seat],
                }
                for r in self.seats
            ],
            "pairs": [list(p) for p in self.pairs],
            **({"dummy": self.dummy.to_json()} if self.dummy is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """What everyone may see of one seat.

    :ivar board: the seat's public cards per box (hidden cards left out).
    :ivar hidden: number of placed cards others cannot see yet.
    :ivar face_up: street-1 cards dealt face up and not yet placed (R3.3).
    :ivar street: the seat's current street (1-based; ``streets + 1`` when done).
    :ivar fantasyland: the seat plays this hand in Fantasyland.
    :ivar done: the seat has placed all its cards.
    :ivar acting: the seat may act now.
    :ivar closed: the seat's cards stay hidden until showdown (a Fantasyland seat, the one
        ordinary seat beside them, R6.3, or a Chinese Poker seat, R4.5); otherwise its
        ``hidden`` cards are shown when the street is complete (R3.6).
    """

    seat: int
    board: Board
    hidden: int
    face_up: tuple[Card, ...]
    street: int
    streets: int
    fantasyland: bool
    done: bool
    acting: bool
    timed_out: bool
    closed: bool = False


@dataclass(frozen=True, slots=True)
class PrivateView:
    """What one seat sees of its own hand.

    :ivar cards: the cards of its current street in the order received (empty when not acting).
    :ivar pending: current-street card → box, or ``None`` for discarded (R3.4).
    :ivar board: its own board with confirmed and pending cards.
    :ivar to_place: cards of the street not yet put anywhere.
    :ivar discards_needed: discards the street still needs.
    :ivar can_confirm: the street is complete and may be confirmed.
    :ivar street_discards: discards the street has in all (0 on street 1, R3.2).
    :ivar waiting: classic OFC's five cards of street 1 (R4.1), dealt face down to every seat
        at the start, while the seat waits for its turn to place them: its own to look at,
        not to place (:meth:`Hand.waiting_cards`).
    """

    seat: int
    street: int
    cards: tuple[Card, ...]
    pending: tuple[tuple[Card, Box | None], ...]
    board: Board
    to_place: tuple[Card, ...]
    discards_needed: int
    can_confirm: bool
    version: int
    street_discards: int = 0
    waiting: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class HandView:
    """A view of the hand for one viewer (a seat) or for everyone (``viewer=None``)."""

    phase: Phase
    button: int
    order: tuple[int, ...]
    to_act: tuple[int, ...]
    seats: tuple[SeatView, ...]
    me: PrivateView | None
    result: HandResult | None
    version: int

    def seat(self, seat: int) -> SeatView:
        """The public view of one seat. :raises KeyError: for a seat not dealt in."""
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def public_cards(self) -> set[Card]:
        """Every card this view shows for any seat (for leak checks)."""
        out: set[Card] = set()
        for s in self.seats:
            out.update(s.board.cards())
            out.update(s.face_up)
        if self.result is not None:
            for r in self.result.seats:
                out.update(r.board.cards())
        return out


class _Seat:
    """Mutable per-seat state of a hand (private to :class:`Hand`)."""

    __slots__ = (
        "actions",
        "closed",
        "dealt",
        "discards",
        "ends",
        "fl_cards",
        "pending",
        "placed",
        "plan",
        "rows",
        "seat",
        "street",
        "timed_out",
    )

    def __init__(self, seat: int, plan: StreetPlan, fl_cards: int, closed: bool) -> None:
        self.seat = seat
        self.plan = plan
        self.fl_cards = fl_cards
        self.closed = closed  # arranges everything at once, hidden until showdown
        self.dealt: list[tuple[Card, ...]] = []
        self.street = 0
        self.rows: dict[Box, list[Card]] = {Box.TOP: [], Box.MIDDLE: [], Box.BOTTOM: []}
        self.placed: list[tuple[Card, Box, int]] = []  # confirmed, with the street placed on
        self.pending: dict[Card, Box | None] = {}
        self.discards: list[Card] = []
        self.timed_out = False
        self.actions = 0
        #: each street's end: the seat's version (actions) before the action that ended it,
        #: and whether that was a Timeout
        self.ends: list[tuple[int, bool]] = []

    def copy(self) -> _Seat:
        """An independent copy: what an action changes is copied (:meth:`Hand.copy`)."""
        new = object.__new__(_Seat)
        for name in _Seat.__slots__:
            setattr(new, name, getattr(self, name))
        new.dealt = list(self.dealt)
        new.rows = {b: list(cards) for b, cards in self.rows.items()}
        new.placed = list(self.placed)
        new.pending = dict(self.pending)
        new.discards = list(self.discards)
        new.ends = list(self.ends)
        return new

    @property
    def done(self) -> bool:
        return self.street >= len(self.plan)

    def free(self, box: Box) -> int:
        used = len(self.rows[box])
        for b in self.pending.values():
            if b is box:
                used += 1
        return box.size - used

    def discards_allowed(self) -> int:
        dealt, kept = self.plan[self.street]
        return dealt - kept

    def pending_discards(self) -> int:
        return sum(1 for b in self.pending.values() if b is None)


#: How many placements offered for a seat (:meth:`Hand.offer_safe`) the hand keeps: more than
#: the streets of a hand, so a chain of timeouts within one step finds each of its own.
OFFERED_KEPT = 16


class Hand:
    """One hand of Pineapple (or another open-face game) from deal to showdown.

    Build with ``Hand(setup)``; act with :meth:`apply` (or :meth:`place`, :meth:`discard`,
    :meth:`unplace`, :meth:`confirm`, :meth:`timeout`); read with :meth:`view` and
    :attr:`result`. Rejected actions raise and change nothing.
    """

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        self.options = setup.options
        self.button = setup.button
        self.order = acting_order(setup.seats, setup.button)
        fl = setup.fantasyland
        chinese = self.options.game is GameKind.CHINESE
        self.normal = tuple(s for s in self.order if not fl.get(s) and not chinese)
        self.closed = tuple(s for s in self.order if fl.get(s) or chinese)
        # R6.3: with two or more ordinary players they play first and in the open. Players,
        # not boards: the two boards of one player (double boxes, R4.2) are one player, who
        # plays them hidden and at once beside an opponent all in Fantasyland.
        self.open_play = len({setup.owner(s) for s in self.normal}) >= 2
        self.simultaneous = self.options.simultaneous_streets
        self._seats: dict[int, _Seat] = {}
        for s in self.order:
            cards = fl.get(s, 0)
            hidden = s in self.closed or not self.open_play
            self._seats[s] = _Seat(s, street_plan(self.options, cards), cards, hidden)
        self._deal()
        self.actions: list[Action] = []
        self._actions_json: list[dict[str, Any]] = []  # JSON of actions[:len], for cheap snapshots
        self._setup_json: dict[str, Any] | None = None
        self.result: HandResult | None = None
        self._to_act: tuple[int, ...] = ()
        # safe_autoplay's placements made elsewhere (:meth:`offer_safe`), by seat, the last
        # OFFERED_KEPT of each
        self._offered: dict[int, list[tuple[SeatKnowledge, list[tuple[Card, Box | None]]]]] = {}
        self._refresh()

    def copy(self) -> Hand:
        """An independent copy of the hand (actions applied to one leave the other as it
        was), made in a fraction of what :func:`copy.deepcopy` takes (the bot plays a step
        ahead on one, on its event loop: :meth:`bot.service.runtime.Runtime.prepare_safe`).
        What no action changes (the setup, the deal, the result, the placements offered)
        is shared."""
        new = object.__new__(Hand)
        new.__dict__.update(self.__dict__)
        new._seats = {s: st.copy() for s, st in self._seats.items()}
        new.actions = list(self.actions)
        new._actions_json = list(self._actions_json)
        new._offered = {s: list(offered) for s, offered in self._offered.items()}
        return new

    # -- dealing ---------------------------------------------------------------------------
    def _deal(self) -> None:
        deck = self.setup.deck
        i = 0
        for s in self.closed:
            seat = self._seats[s]
            for dealt, _ in seat.plan:
                seat.dealt.append(tuple(deck[i : i + dealt]))
                i += dealt
        streets = max((len(self._seats[s].plan) for s in self.normal), default=0)
        for k in range(streets):
            for s in self.normal:
                seat = self._seats[s]
                if k < len(seat.plan):
                    dealt = seat.plan[k][0]
                    seat.dealt.append(tuple(deck[i : i + dealt]))
                    i += dealt
        self.dummy: Board | None = None
        if self.setup.dummy:
            # R4.3: the dummy board takes 13 cards, in order to bottom, then middle, then top
            cards = deck[i : i + 13]
            self.dummy = Board(tuple(cards[10:13]), tuple(cards[5:10]), tuple(cards[0:5]))

    # -- turn order ------------------------------------------------------------------------
    def _normal_street(self) -> int:
        """The street the ordinary seats are on (the lowest among them)."""
        return min((self._seats[s].street for s in self.normal), default=0)

    def _refresh(self) -> None:
        if self.result is not None:
            self._to_act = ()
            return
        seats = self._seats
        acting: list[int] = []
        normal_left = [s for s in self.normal if not seats[s].done]
        if normal_left:
            if self.open_play:
                cur = min(seats[s].street for s in self.normal)
                for s in self.normal:
                    if seats[s].street == cur:
                        acting.append(s)
                        if not self.simultaneous:
                            break
            else:
                acting.extend(normal_left)
        if not self.open_play or not normal_left:
            acting.extend(s for s in self.closed if not seats[s].done)
        self._to_act = tuple(acting)

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now, in acting order (R3.3, R3.6, R6.3)."""
        return self._to_act

    @property
    def phase(self) -> Phase:
        """``PLAYING`` or ``SHOWDOWN``."""
        return Phase.SHOWDOWN if self.result is not None else Phase.PLAYING

    @property
    def is_over(self) -> bool:
        """The hand has reached showdown."""
        return self.result is not None

    @property
    def version(self) -> int:
        """Number of accepted actions (changes on every accepted action)."""
        return len(self.actions)

    def seat_version(self, seat: int) -> int:
        """Number of accepted actions of ``seat`` (for private buttons)."""
        return self._seat(seat).actions

    def street_version(self, seat: int) -> int:
        """The seat's :meth:`seat_version` when its current street began (0 on the first):
        its private buttons of any version from this one up are of the street it acts on."""
        ends = self._seat(seat).ends
        return ends[-1][0] + 1 if ends else 0

    def moved_since(self, seat: int, version: int, card: Card) -> bool:
        """Whether an action of ``seat`` from its :meth:`seat_version` ``version`` on (that
        version's own included) put ``card`` in a box, discarded it or took it back (R3.4):
        a press of a screen of ``version`` naming that card no longer means what that screen
        showed (say the same press delivered twice, the card moved in between). ``version``
        at or above the current one: ``False``."""
        st = self._seat(seat)
        left = st.actions - version  # the seat's actions since, newest first
        for action in reversed(self.actions):
            if left <= 0:
                break
            if action.seat != seat:
                continue
            left -= 1
            if getattr(action, "card", None) == card:
                return True
        return False

    def timed_out_at(self, seat: int, version: int) -> bool:
        """Whether the clock finished the seat's street (R8.5) while its buttons had
        ``version`` (:meth:`seat_version`): a press of that version lost the race to the
        timeout. Any older screen of that street counts too (a second quick tap sent
        before the first's screen arrived, taken as a press of the current one): the first
        street end at or after ``version`` was a Timeout."""
        return next((timed for end, timed in self._seat(seat).ends if end >= version), False)

    def played_a_street(self, seat: int) -> bool:
        """Whether the seat finished a street itself (confirmed or arranged it), not every one
        on a timeout (R8.5). Cards placed on a street the clock then finished do not count:
        a Chinese Poker board not arranged in time scores 0 (R7.7)."""
        return any(not timed for _, timed in self._seat(seat).ends)

    def street_of(self, seat: int) -> int:
        """The seat's current street, 1-based (``streets + 1`` once done)."""
        return self._seat(seat).street + 1

    def streets_of(self, seat: int) -> int:
        """How many streets the seat plays (5 in Pineapple, 1 in Fantasyland)."""
        return len(self._seat(seat).plan)

    def is_fantasyland(self, seat: int) -> bool:
        """The seat plays this hand in Fantasyland (R6.2)."""
        return self._seat(seat).fl_cards > 0

    def current_cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards of its current street in the order received (only while it may act;
        empty otherwise). Private to the seat."""
        st = self._seat(seat)
        if st.done or seat not in self._to_act:
            return ()
        return st.dealt[st.street]

    def waiting_cards(self, seat: int) -> tuple[Card, ...]:
        """Classic OFC (R4.1): the seat's five cards of street 1 while it waits for its turn
        to place them. They are dealt face down to every seat when the hand starts and each
        player opens and places theirs in turn, so a seat holds (and may look at) its own
        before its turn; empty otherwise (Pineapple deals its street 1 face up, R3.3; a
        Fantasyland seat is dealt its 13 when its turn comes, R6.2; with
        ``simultaneous_streets`` or the ordinary boards of one player, R6.3, every seat
        places at once). Private to the seat: never in :meth:`public_cards`."""
        st = self._seat(seat)
        if (
            self.result is None
            and self.options.game is GameKind.OFC
            and self.open_play
            and not st.closed
            and st.street == 0
            and seat not in self._to_act
        ):
            return st.dealt[0]
        return ()

    def to_place(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards of this street not yet placed or discarded (while it may act)."""
        pending = self._seat(seat).pending
        if not pending:
            return self.current_cards(seat)
        return tuple(c for c in self.current_cards(seat) if c not in pending)

    def discards_needed(self, seat: int) -> int:
        """Discards the seat's current street still needs (0 when it may not act)."""
        st = self._seat(seat)
        if st.done or seat not in self._to_act:
            return 0
        return st.discards_allowed() - st.pending_discards()

    def suggest(self, seat: int, lookahead: int | None = None) -> list[tuple[Card, Box | None]]:
        """The built-in strategy's placement of the seat's cards still to place this street:
        for ``safe_autoplay`` (R8.5) and the simulator ("arrange for me" and computer players
        decide through :func:`game.policy.decide` directly, in the bot's decision process). It
        uses only what the seat may know (:func:`game.policy.knowledge`):
        ``decide(knowledge(hand, seat), Level.NORMAL)``, deterministic, so that a hand
        replayed from a log that does not record a timeout's placement (written before
        :attr:`~game.actions.Timeout.placed` was) times out the same way. At the
        ``NORMAL`` level, a placement made elsewhere from this very knowledge
        (:meth:`offer_safe`: the bot's, off its event loop) is returned instead of deciding
        again: the same placement.

        :param lookahead: ``None`` for the ``NORMAL`` level; otherwise play-outs per candidate
            (0: the fast heuristic alone, the ``EASY`` level).
        :returns: ``(card, box)`` per card, box ``None`` for a discard; empty when the seat may
            not act.
        """
        k = knowledge(self, seat, dead=lookahead != 0)  # (the heuristic reads no dead card)
        if lookahead is None:
            for made_from, moves in self._offered.get(seat, ()):
                if made_from == k:  # (made from this very knowledge)
                    return list(moves)
            return decide(k, Level.NORMAL)
        return play(k, lookahead)

    def timeout_knowledge(self, seat: int) -> SeatKnowledge | None:
        """What ``safe_autoplay``'s strategy is asked (R8.5) if ``seat`` times out now: the
        seat's knowledge (:func:`game.policy.knowledge`) once the cards it put in boxes past
        what its street keeps are discarded, as :meth:`timeout` does first. For the bot to
        make the placement (``decide(k, Level.NORMAL)``) off its event loop before the timeout
        and give it to the hand (:meth:`offer_safe`). The hand is left as it was.

        :returns: ``None`` when ``safe_autoplay`` is off, the hand is over, the seat may not
            act or it has no card left to place (nothing for the strategy to decide).
        """
        if not self.options.safe_autoplay or self.result is not None or seat not in self._to_act:
            return None
        st = self._seats[seat]
        before = st.pending
        st.pending = dict(before)
        try:
            for c, _ in self._over(st):
                st.pending[c] = None
            if all(c in st.pending for c in st.dealt[st.street]):
                return None
            return knowledge(self, seat)
        finally:
            st.pending = before

    def offer_safe(
        self, seat: int, k: SeatKnowledge, moves: Sequence[tuple[Card, Box | None]]
    ) -> None:
        """Give the hand ``safe_autoplay``'s placement for ``seat`` made elsewhere: ``moves``
        must be ``decide(k, Level.NORMAL)`` (the bot makes it in its decision process, off the
        event loop, from :meth:`timeout_knowledge`). :meth:`suggest` (the timeout's strategy,
        R8.5) returns it instead of deciding again while the seat's knowledge equals ``k``,
        and decides itself otherwise (the hand moved on since): the placement is the same
        either way, :func:`~game.policy.decide` being a function of the knowledge alone.
        Not saved with the hand (the timeout that places it records the placement on its
        action, :attr:`~game.actions.Timeout.placed`, which a rebuild replays); the last
        :data:`OFFERED_KEPT` of each seat are kept (one per street of a chain of timeouts)."""
        kept = [o for o in self._offered.get(seat, ()) if o[0] != k]
        self._offered[seat] = [*kept[-(OFFERED_KEPT - 1) :], (k, list(moves))]

    def is_offered(self, seat: int, k: SeatKnowledge) -> bool:
        """Whether a placement made from ``k`` was offered for ``seat`` (:meth:`offer_safe`)."""
        return any(made_from == k for made_from, _ in self._offered.get(seat, ()))

    def fantasyland_cards_of(self, seat: int) -> int:
        """0, or the size of the seat's Fantasyland hand (R6.2)."""
        return self._seat(seat).fl_cards

    def pending(self, seat: int) -> tuple[tuple[Card, Box | None], ...]:
        """The seat's placements of this street in the order made (``None`` = discard)."""
        return tuple(self._seat(seat).pending.items())

    def discards_of(self, seat: int) -> tuple[Card, ...]:
        """The seat's confirmed discards. Private to the seat: never shown to others, not even
        at showdown (R3.3)."""
        return tuple(self._seat(seat).discards)

    def board_of(self, seat: int, *, with_pending: bool = False) -> Board:
        """The seat's own board (confirmed cards; with ``with_pending`` also this street's).
        Private to the seat until showdown."""
        st = self._seat(seat)
        if not (with_pending and st.pending):  # (the simulator's and computer players' case)
            rows = st.rows
            return Board(tuple(rows[Box.TOP]), tuple(rows[Box.MIDDLE]), tuple(rows[Box.BOTTOM]))
        rows = {b: list(st.rows[b]) for b in BOXES}
        for c, b in st.pending.items():
            if b is not None:
                rows[b].append(c)
        return Board(tuple(rows[Box.TOP]), tuple(rows[Box.MIDDLE]), tuple(rows[Box.BOTTOM]))

    def _seat(self, seat: int) -> _Seat:
        try:
            return self._seats[seat]
        except KeyError:
            raise NotYourTurn(f"seat {seat} is not in this hand") from None

    # -- verify / can / apply --------------------------------------------------------------
    def verify(self, action: Action) -> None:
        """Check an action without applying it.

        :raises HandOver: after showdown.
        :raises NotYourTurn: the seat may not act now (R3.3, R6.3).
        :raises IllegalAction: a stale street (code ``wrong_street``) or no change.
        :raises CardNotInHand: the card is not the seat's card of this street (R3.4).
        :raises BoxFull: the box has no free slot (R3.5).
        :raises DiscardNotAllowed: no discards on this street (R3.2); code
            ``discard_done`` when the street's discards are already made.
        :raises IncompleteStreet: confirm before every card is placed or discarded (code
            ``discard_missing`` when the cards the street keeps are placed and its discard is
            not made, R3.2; ``fl_discard_missing`` in a Fantasyland hand, R6.2; otherwise
            ``place_and_discard`` on a street with a discard, ``fl_incomplete`` in a
            Fantasyland hand, ``incomplete_street`` on a street without one).
        """
        if self.result is not None:
            raise HandOver("the hand is over")
        seat = action.seat
        if seat not in self._seats or seat not in self._to_act:
            raise NotYourTurn(f"seat {seat} may not act now")
        st = self._seats[seat]
        if action.street is not None and action.street != st.street + 1:
            raise IllegalAction(
                f"seat {seat} is on street {st.street + 1}, not {action.street}",
                code="wrong_street",
            )
        if isinstance(action, Place):
            if action.card not in st.dealt[st.street]:
                raise CardNotInHand(f"{action.card.code_str()} is not one of this street's cards")
            if st.pending.get(action.card, False) is action.box:
                raise IllegalAction(f"{action.card.code_str()} is already there", code="no_change")
            if st.free(action.box) <= 0:
                raise BoxFull(f"the {action.box.value} box is full")
        elif isinstance(action, Discard):
            if action.card not in st.dealt[st.street]:
                raise CardNotInHand(f"{action.card.code_str()} is not one of this street's cards")
            allowed = st.discards_allowed()
            if allowed == 0:
                raise DiscardNotAllowed("no discards on this street")
            if action.card in st.pending and st.pending[action.card] is None:
                raise IllegalAction(
                    f"{action.card.code_str()} is already discarded", code="no_change"
                )
            if st.pending_discards() >= allowed:
                raise DiscardNotAllowed(
                    f"only {allowed} discard(s) on this street", code="discard_done"
                )
        elif isinstance(action, Unplace):
            if action.card not in st.pending:
                raise CardNotInHand(
                    f"{action.card.code_str()} is not placed on this street", code="not_placed"
                )
        elif isinstance(action, Confirm):
            dealt = st.dealt[st.street]
            kept = st.plan[st.street][1]
            placed = len(st.pending) - st.pending_discards()
            if placed >= kept and st.pending_discards() < st.discards_allowed():
                # R3.2, R6.2: what the street keeps is placed (or more), the discard is missing
                raise IncompleteStreet(
                    f"discard {st.discards_allowed()} card(s) before confirming",
                    code="fl_discard_missing" if st.fl_cards else "discard_missing",
                )
            if len(st.pending) != len(dealt) or st.pending_discards() != st.discards_allowed():
                # a street with a discard says so (R3.2, R6.2): "place every card" read as if
                # the third card of a Pineapple street were to be placed too
                code = "incomplete_street"
                if st.discards_allowed():
                    code = "fl_incomplete" if st.fl_cards else "place_and_discard"
                raise IncompleteStreet(
                    "place every card (and discard) before confirming", code=code
                )
        elif isinstance(action, Arrange):
            self._verify_arrange(st, action)
        elif not isinstance(action, Timeout):
            raise IllegalAction(f"unknown action {action!r}")

    def _verify_arrange(self, st: _Seat, action: Arrange) -> None:
        dealt = st.dealt[st.street]
        free = [
            Box.TOP.size - len(st.rows[Box.TOP]),
            Box.MIDDLE.size - len(st.rows[Box.MIDDLE]),
            Box.BOTTOM.size - len(st.rows[Box.BOTTOM]),
        ]
        seen: set[Card] = set()
        discards = 0
        for c, b in action.placements:
            if c not in dealt:
                raise CardNotInHand(f"{c.code_str()} is not one of this street's cards")
            if c in seen:
                raise IllegalAction("a card is arranged twice", code="duplicate_card")
            seen.add(c)
            if b is None:
                discards += 1
            else:
                free[b.index] -= 1
                if free[b.index] < 0:
                    raise BoxFull(f"the {b.value} box is full")
        if len(seen) != len(dealt):
            raise IncompleteStreet("arrange every card of the street")
        if discards != st.discards_allowed():
            raise DiscardNotAllowed(
                f"discard exactly {st.discards_allowed()} card(s) on this street"
            )

    def can(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        try:
            self.verify(action)
        except GameError:
            return False
        return True

    def apply(self, action: Action) -> Applied:
        """Apply an action (after :meth:`verify`) and return what it did.

        :raises GameError: as :meth:`verify`; the hand is then unchanged.
        """
        self.verify(action)
        st = self._seats[action.seat]
        record: Applied
        if isinstance(action, Place):
            st.pending[action.card] = action.box
            record = Applied(action)
        elif isinstance(action, Discard):
            st.pending[action.card] = None
            record = Applied(action)
        elif isinstance(action, Unplace):
            del st.pending[action.card]
            record = Applied(action)
        elif isinstance(action, Confirm):
            record = self._confirm(st, action, ())
        elif isinstance(action, Arrange):
            st.pending = dict(action.placements)
            record = self._confirm(st, action, ())
        else:
            record = self._timeout(st, action)
            action = record.action  # (safe_autoplay's placement recorded on it, R8.5)
        if record.street_done:
            st.ends.append((st.actions, isinstance(action, Timeout)))
        st.actions += 1
        self.actions.append(action)
        return record

    # convenience faces
    def place(self, seat: int, card: Card, box: Box) -> Applied:
        """Apply :class:`Place`."""
        return self.apply(Place(seat, card, box))

    def discard(self, seat: int, card: Card) -> Applied:
        """Apply :class:`Discard`."""
        return self.apply(Discard(seat, card))

    def unplace(self, seat: int, card: Card) -> Applied:
        """Apply :class:`Unplace`."""
        return self.apply(Unplace(seat, card))

    def confirm(self, seat: int) -> Applied:
        """Apply :class:`Confirm`."""
        return self.apply(Confirm(seat))

    def timeout(self, seat: int) -> Applied:
        """Apply :class:`Timeout`."""
        return self.apply(Timeout(seat))

    def _timeout(self, st: _Seat, action: Timeout) -> Applied:
        """R8.5: keep what the seat already put down this street and finish the rest."""
        st.timed_out = True
        dealt = st.dealt[st.street]
        over = self._over(st)
        for c, _ in over:
            st.pending[c] = None
        free = {b: st.free(b) for b in BOXES}
        rest = [c for c in dealt if c not in st.pending]
        owed = st.discards_allowed() - st.pending_discards()
        safe = None
        if self.options.safe_autoplay:
            recorded = action.placed
            if recorded is not None and not self._fits(
                st.seat,
                list(recorded),
                rest,
                free,
                owed,
                "not the recorded placement: the strategy",
            ):
                recorded = None  # (a log that does not fit its hand: decided again)
            if recorded is not None:  # (a rebuilt hand: the placement it chose, not decided)
                safe = list(recorded)
            else:
                safe = self._safe_street(st.seat, rest, free, owed)
        placed = safe if safe is not None else auto_street(rest, free, owed)
        kept = tuple(placed) if self.options.safe_autoplay else None
        if action.placed != kept:
            # recorded, so that a rebuild replays it instead of deciding again (the strategy
            # on the event loop: a restart, a takeover or a rollback decided every timeout of
            # the hand again); one recorded that did not fit, replaced; one given without
            # safe_autoplay (a forged log: the plain rule placed), dropped
            action = Timeout(action.seat, action.street, kept)
        extra = over + placed
        for c, b in extra:
            st.pending[c] = b
        return self._confirm(st, action, tuple(extra))

    @staticmethod
    def _over(st: _Seat) -> list[tuple[Card, Box | None]]:
        """A timeout's discards of cards in boxes (R8.5): R3.4 lets every card of the street
        sit in a box before Confirm (which then asks for the discard); the first received
        stay where they are, the last are discarded (R3.2)."""
        dealt = st.dealt[st.street]
        placed = [c for c in dealt if c in st.pending and st.pending[c] is not None]
        return [(c, None) for c in placed[len(dealt) - st.discards_allowed() :]]

    def _safe_street(
        self, seat: int, rest: list[Card], free: Mapping[Box, int], owed: int
    ) -> list[tuple[Card, Box | None]] | None:
        """``safe_autoplay``'s placement of the cards ``rest`` still to place on a timeout
        (R8.5: the strategy, :meth:`suggest`), or ``None`` when the strategy fails (a bug in
        it raises, or it places other cards, too many in a box or the wrong number of
        discards): the timeout then places by the plain rule, as a computer player's failed
        decision is (the table's timer retried the same failing timeout every few seconds,
        and the hand never ended). Deterministic as :meth:`suggest` is: a replay falls back
        the same way."""
        try:
            moves = self.suggest(seat)
        except Exception:
            log.exception("safe_autoplay failed for seat %s; the plain timeout rule places", seat)
            return None
        return (
            moves if self._fits(seat, moves, rest, free, owed, "the plain timeout rule") else None
        )

    @staticmethod
    def _fits(
        seat: int,
        moves: list[tuple[Card, Box | None]],
        rest: list[Card],
        free: Mapping[Box, int],
        owed: int,
        instead: str,
    ) -> bool:
        """Whether ``moves`` places exactly the cards ``rest``, within the boxes' ``free``
        room and with ``owed`` discards (a timeout's placement, R8.5); logged if not, saying
        what places ``instead``."""
        boxes = [b for _, b in moves]
        if (
            Counter(c for c, _ in moves) == Counter(rest)
            and all(boxes.count(b) <= free[b] for b in BOXES)
            and boxes.count(None) == owed
        ):
            return True
        # (the shape of it, never its cards: whoever runs the bot reads the log and may play)
        log.error(
            "safe_autoplay placed %d cards (boxes %s) for seat %s, %d to place with %d "
            "discards; %s places",
            len(moves),
            [b.value if b is not None else "discard" for b in boxes],
            seat,
            len(rest),
            owed,
            instead,
        )
        return False

    def _confirm(
        self, st: _Seat, action: Action, placements: tuple[tuple[Card, Box | None], ...]
    ) -> Applied:
        street = st.street
        before = self._normal_street() if self.simultaneous else 0
        rows, placed, discards = st.rows, st.placed, st.discards
        for c, b in st.pending.items():
            if b is None:
                discards.append(c)
            else:
                rows[b].append(c)
                placed.append((c, b, street))
        st.pending = {}
        st.street += 1
        if st.street >= len(st.plan) and all(s.done for s in self._seats.values()):
            self.result = self._score()
        self._refresh()
        finished = self.result is not None
        if finished:
            revealed = True
        elif st.closed:
            revealed = False
        elif self.simultaneous:
            revealed = self._normal_street() > before
        else:
            revealed = True
        return Applied(action, True, placements, revealed, finished)

    # -- showdown --------------------------------------------------------------------------
    def _score(self) -> HandResult:
        boards = [self.board_of(s) for s in self.order]
        in_fl = [self._seats[s].fl_cards > 0 for s in self.order]
        pairs: list[tuple[int, int, int]] = []
        results: list[SeatResult] = []
        if self.options.game is GameKind.CHINESE:
            # R7.7: a board not arranged in time counts as fouled
            forfeit = [self._seats[s].timed_out for s in self.order]
            chinese = score_chinese(boards, self.options, forfeit)
            for i, s in enumerate(self.order):
                cp = chinese.players[i]
                results.append(
                    SeatResult(
                        s,
                        boards[i],
                        cp.fouled,
                        cp.bonus,
                        cp.points,
                        0,
                        False,
                        self._seats[s].timed_out,
                        cp.strengths,
                    )
                )
            n = len(self.order)
            for i in range(n):
                for j in range(i + 1, n):
                    pairs.append(
                        (
                            self.order[i],
                            self.order[j],
                            chinese.players[i].points - chinese.players[j].points,
                        )
                    )
            return HandResult(self.order, tuple(results), tuple(pairs), chinese)
        assessments = [assess_board(b, self.options, f) for b, f in zip(boards, in_fl, strict=True)]
        owners = [self.setup.owner(s) for s in self.order] if self.setup.owners else None
        showdown = score_showdown(boards, self.options, in_fl, assessments, owners)
        for i, s in enumerate(self.order):
            p = showdown.players[i]
            results.append(
                SeatResult(
                    s,
                    boards[i],
                    p.fouled,
                    p.royalties,
                    p.points,
                    p.fantasyland_cards,
                    in_fl[i],
                    self._seats[s].timed_out,
                    p.strengths,
                )
            )
        for pr in showdown.pairs:
            pairs.append((self.order[pr.a], self.order[pr.b], pr.points))
        return HandResult(self.order, tuple(results), tuple(pairs), showdown, self.dummy)

    # -- views -----------------------------------------------------------------------------
    def _public_streets(self, st: _Seat) -> int:
        """How many of the seat's streets are public (R3.3, R3.6, R6.3)."""
        if self.result is not None:
            return len(st.plan)
        if st.closed:
            return 0
        if self.simultaneous:
            return min(st.street, self._normal_street())
        return st.street

    def _face_up(self, st: _Seat) -> tuple[Card, ...]:
        """The seat's cards dealt face up and not yet placed (R3.3: Pineapple's street 1 while
        the seat acts in turn; never in classic OFC, R4.1)."""
        if (
            self.result is None
            and self.options.game is GameKind.PINEAPPLE
            and self.open_play
            and not self.simultaneous
            and not st.closed
            and st.street == 0
            and st.seat in self._to_act
        ):
            return st.dealt[0]
        return ()

    def public_cards(self) -> set[Card]:
        """Every card the table shows now: open boxes of revealed streets, face-up cards and,
        at showdown, every board; the same as ``view(v).public_cards()`` for any viewer ``v``
        (the cheap way, for :func:`game.policy.knowledge`). Never a discard (R3.3)."""
        out: set[Card] = set()
        for st in self._seats.values():
            shown = self._public_streets(st)
            out.update(c for c, _, k in st.placed if k < shown)
            out.update(self._face_up(st))
        if self.result is not None:
            for r in self.result.seats:
                out.update(r.board.cards())
        return out

    def view(self, viewer: int | None = None) -> HandView:
        """What ``viewer`` (a seat, or ``None`` for everyone, e.g. a group) may see.

        Others' hidden cards, Fantasyland boards before showdown and all discards are left out.
        """
        seats: list[SeatView] = []
        for s in self.order:
            st = self._seats[s]
            shown = self._public_streets(st)
            rows: dict[Box, list[Card]] = {Box.TOP: [], Box.MIDDLE: [], Box.BOTTOM: []}
            hidden = 0
            for c, b, k in st.placed:
                if k < shown:
                    rows[b].append(c)
                else:
                    hidden += 1
            face_up = self._face_up(st)
            seats.append(
                SeatView(
                    s,
                    Board(tuple(rows[Box.TOP]), tuple(rows[Box.MIDDLE]), tuple(rows[Box.BOTTOM])),
                    hidden,
                    face_up,
                    st.street + 1,
                    len(st.plan),
                    st.fl_cards > 0,
                    st.done,
                    s in self._to_act,
                    st.timed_out,
                    st.closed,
                )
            )
        me: PrivateView | None = None
        if viewer is not None and viewer in self._seats:
            st = self._seats[viewer]
            cards = self.current_cards(viewer)
            me = PrivateView(
                viewer,
                st.street + 1,
                cards,
                tuple(st.pending.items()),
                self.board_of(viewer, with_pending=True),
                tuple(c for c in cards if c not in st.pending),
                self.discards_needed(viewer),
                bool(cards) and self.can(Confirm(viewer)),
                st.actions,
                st.discards_allowed() if cards else 0,
                self.waiting_cards(viewer),
            )
        return HandView(
            self.phase,
            self.button,
            self.order,
            self._to_act,
            tuple(seats),
            me,
            self.result,
            self.version,
        )

    # -- replay & JSON ---------------------------------------------------------------------
    @classmethod
    def replay(cls, setup: HandSetup, actions: Sequence[Action]) -> Hand:
        """Rebuild a hand from its setup and ordered actions.

        :raises GameError: if an action is refused (the log does not fit the setup).
        """
        hand = cls(setup)
        for a in actions:
            hand.apply(a)
        return hand

    def to_json(self) -> dict[str, Any]:
        """``{"setup": …, "actions": […]}``: enough to rebuild the hand with :meth:`from_json`."""
        if self._setup_json is None:
            self._setup_json = self.setup.to_json()
        done = len(self._actions_json)  # converted once, when first asked for
        self._actions_json.extend(action_to_json(a) for a in self.actions[done:])
        return {"setup": dict(self._setup_json), "actions": list(self._actions_json)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Hand:
        """Inverse of :meth:`to_json`. :raises GameError: on bad data."""
        setup = HandSetup.from_json(data["setup"])
        return cls.replay(setup, [action_from_json(a) for a in data["actions"]])

    def dumps(self) -> str:
        """:meth:`to_json` as a compact JSON string."""
        return json.dumps(self.to_json(), separators=(",", ":"))


def random_seed() -> str:
    """A fresh random seed string (for logs of simulated hands)."""
    return secrets.token_hex(8)
