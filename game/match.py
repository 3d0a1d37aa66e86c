"""Hands in a row at one table: the button, matches and Fantasyland hands (R6.5, R6.6, R8.3,
R8.6).

A *match* is a main hand together with every Fantasyland hand that follows it (R6.6). This
module decides, from the last hand's result and the seats available now, who is dealt into the
next hand, where the button goes, who plays it in Fantasyland and with how many cards, when a
match and a round end, which points are due for settlement (every hand, or every full round of
the button with ``settle_per_round``, R8.3), and who moves to sit-out after a timeout (R8.6).

:class:`MatchState` is frozen: :meth:`MatchState.next_hand` plans a hand and
:meth:`MatchState.after_hand` returns the state after it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from game.errors import GameError
from game.hand import HandResult
from game.options import RuleOptions
from game.settlement import settle

__all__ = ["HandPlan", "MatchState", "player_pairs"]


@dataclass(frozen=True, slots=True)
class HandPlan:
    """Who plays the next hand and how.

    :ivar seats: seats dealt in.
    :ivar button: the button's seat (R3.3).
    :ivar fantasyland: seat → Fantasyland cards (R6.2).
    :ivar new_match: this is a main hand, not a Fantasyland hand of the last match (R6.6).
    """

    seats: tuple[int, ...]
    button: int
    fantasyland: Mapping[int, int]
    new_match: bool


def _next_seat(seats: Sequence[int], after: int | None) -> int:
    ordered = sorted(seats)
    if after is None:
        return ordered[-1]  # first hand: the lowest seat acts first
    for s in ordered:
        if s > after:
            return s
    return ordered[0]


@dataclass(frozen=True, slots=True)
class MatchState:
    """The table's running state between hands.

    :ivar button: the button of the last hand (``None`` before the first).
    :ivar fantasyland: Fantasyland earned for the next hand: seat → cards (R6.1–R6.4).
    :ivar match_seats: the seats of the match under way.
    :ivar matches: matches completed in the current round of the button (R8.3).
    :ivar round_pairs: points waiting for settlement under ``settle_per_round``.
    :ivar sit_out_after_match: seats that timed out in this match (R8.6).
    :ivar due: pairs to settle now (``(a, b, points)`` between table seats, R5.7 order), set by
        :meth:`after_hand`; ``round_pairs`` too are between table seats (R4.2, R8.3).
    :ivar match_over: the last hand ended its match.
    :ivar to_sit_out: seats to move to sit-out now (R8.6), set when a match ends.
    :ivar owners: board seat → table seat of the last hand when they differ (double boxes,
        R4.2): each board earns and plays Fantasyland on its own, for its player.
    """

    options: RuleOptions
    button: int | None = None
    fantasyland: Mapping[int, int] = field(default_factory=dict)
    match_seats: tuple[int, ...] = ()
    matches: int = 0
    round_pairs: tuple[tuple[int, int, int], ...] = ()
    sit_out_after_match: frozenset[int] = frozenset()
    due: tuple[tuple[int, int, int], ...] = ()
    match_over: bool = True
    to_sit_out: frozenset[int] = frozenset()
    owners: Mapping[int, int] = field(default_factory=dict)

    @classmethod
    def new(cls, options: RuleOptions) -> MatchState:
        """The state of a table before its first hand."""
        return cls(options)

    @property
    def in_match(self) -> bool:
        """A Fantasyland hand of the current match is due (R6.6): earned, with enough of the
        match's players still at the table to deal it (one who stands up leaves the match,
        :meth:`without`, and a newcomer waits for the next one: heads-up, the other leaving
        ends the match; it counted as going on, holding new options back a hand)."""
        return bool(self.fantasyland) and len(self.match_seats) >= self.options.min_players

    def next_hand(self, available: Sequence[int]) -> HandPlan:
        """Plan the next hand for the seats ``available`` now (seated, ready, not sitting out).

        A due Fantasyland hand is played by the match's seats that are still available (R6.6);
        Fantasyland of a seat that left is forfeited. Otherwise a new match starts with all
        available seats and the button moves on. With ``button_moves_in_fantasyland`` off the
        button stays for Fantasyland hands (R6.6).

        :raises GameError: if fewer than two seats can play.
        """
        avail = sorted(set(available))
        if self.fantasyland:
            seats = [s for s in self.match_seats if s in avail]
            fl = {s: n for s, n in self.fantasyland.items() if self.owners.get(s, s) in seats}
            if len(seats) >= self.options.min_players and fl:
                if self.options.button_moves_in_fantasyland or self.button not in seats:
                    button = _next_seat(seats, self.button)
                else:
                    assert self.button is not None
                    button = self.button
                return HandPlan(tuple(seats), button, fl, False)
        seats = avail[: self.options.max_players]
        if len(seats) < self.options.min_players:
            raise GameError(f"a hand needs at least {self.options.min_players} players")
        return HandPlan(tuple(seats), _next_seat(seats, self.button), {}, True)

    def begin(self, plan: HandPlan) -> MatchState:
        """The state once ``plan``'s hand is dealt (records the button and the match seats)."""
        seats = plan.seats if plan.new_match else self.match_seats
        return replace(self, button=plan.button, match_seats=seats, due=(), to_sit_out=frozenset())

    def after_hand(
        self,
        result: HandResult,
        plan: HandPlan | None = None,
        owners: Mapping[int, int] | None = None,
        stacks: Mapping[int, int] | None = None,
    ) -> MatchState:
        """The state after a hand: Fantasyland earned (R6), match and round bookkeeping (R6.6,
        R8.3), settlement due and sit-outs (R8.6).

        :param plan: the hand's plan; when given, :meth:`begin` is applied first.
        :param owners: board seat → table seat with double boxes (R4.2): Fantasyland is then
            earned per board and planned for the boards of the players still seated.
        :param stacks: table seat → stack (kush) before this hand's settlement. With
            ``settle_per_round`` the round's points are due at once, before the round ends, when
            settling them now would find a payer's stack too small (R8.3, seed 001; R8.4 cap);
            without ``stacks`` they wait for the end of the round.
        """
        state = self.begin(plan) if plan is not None else self
        if plan is None and state.button is None:
            state = replace(state, button=result.order[-1], match_seats=result.order)
        fl = {r.seat: r.fantasyland_cards for r in result.seats if r.fantasyland_cards > 0}
        timed_out = {r.seat for r in result.seats if r.timed_out}
        sit_out = state.sit_out_after_match | timed_out
        match_over = not fl
        matches = state.matches + (1 if match_over else 0)
        pairs = player_pairs(result.pairs, owners or {})
        if state.options.settle_per_round:
            pending = _merge(state.round_pairs, pairs)
            round_over = match_over and matches >= len(state.match_seats)
            early = not round_over and _uncovered(pending, stacks, state.options)
            due = pending if round_over or early else ()
            round_pairs: tuple[tuple[int, int, int], ...] = () if round_over or early else pending
            if round_over:
                matches = 0
        else:
            due, round_pairs = pairs, ()
            if match_over and matches >= len(state.match_seats):
                matches = 0
        return replace(
            state,
            owners=dict(owners or {}),
            fantasyland=fl,
            matches=matches,
            round_pairs=round_pairs,
            sit_out_after_match=frozenset() if match_over else frozenset(sit_out),
            due=due,
            match_over=match_over,
            to_sit_out=frozenset(sit_out) if match_over else frozenset(),
        )

    def forfeited(self) -> MatchState:
        """The state once the Fantasyland hand due cannot be dealt: too few of the match's
        players are available (sitting out, not ready, R8.6), so :meth:`next_hand` plans a new
        match. The match is over (R6.6): its Fantasyland is forfeited, it counts as a match of
        the round (R8.3), and the seats that timed out in it move to sit-out now
        (:attr:`to_sit_out`, R8.6). Settings that wait for the match's end apply from here.
        A round it completes is over: with ``settle_per_round`` its points are :attr:`due`
        now (they waited for the next match's hand, a hand of the next round, and were
        settled with it)."""
        matches = self.matches + 1
        due: tuple[tuple[int, int, int], ...] = ()
        round_pairs = self.round_pairs
        if matches >= len(self.match_seats):
            matches = 0
            if self.options.settle_per_round:
                due, round_pairs = round_pairs, ()
        return replace(
            self,
            fantasyland={},
            matches=matches,
            round_pairs=round_pairs,
            due=due,
            sit_out_after_match=frozenset(),
            match_over=True,
            to_sit_out=self.sit_out_after_match,
        )

    def back(self, boards: Collection[int]) -> MatchState:
        """The state once the player of board seats ``boards`` (their table seat, or both
        boards with double boxes, R4.2) says they are back before the match ends: the sit-out
        a timeout of theirs set for its end (:attr:`sit_out_after_match`) is cancelled (R8.6:
        a player returns with a command; one not yet moved returns with it too)."""
        return replace(self, sit_out_after_match=self.sit_out_after_match - set(boards))

    def without(self, seat: int, boards: Collection[int] = ()) -> MatchState:
        """The state once the player of table seat ``seat`` leaves (stands up): Fantasyland
        belongs to the player, not to the seat number, so what they earned is forfeited and
        they leave the match under way; a newcomer in the same seat waits for the next match
        (R6, R6.6, R8.2). ``boards``: the player's board seats when they differ from the
        table seat (double boxes, R4.2); without them, with double boxes, the boards
        :attr:`owners` gives the seat (none for a seat that had none: its number may be
        another player's board, 1 being table seat 0's second). Points of the round must be
        settled first (R8.3)."""
        if boards:
            gone = set(boards)
        elif self.owners:  # board seats may collide with table seats
            gone = {b for b, owner in self.owners.items() if owner == seat}
        else:
            gone = {seat}
        return replace(
            self,
            fantasyland={s: n for s, n in self.fantasyland.items() if s not in gone},
            match_seats=tuple(s for s in self.match_seats if s != seat),
            sit_out_after_match=self.sit_out_after_match - gone,
        )

    def flush_round(self) -> tuple[MatchState, tuple[tuple[int, int, int], ...]]:
        """Take the points waiting under ``settle_per_round`` (e.g. when a player leaves)."""
        return replace(self, round_pairs=()), self.round_pairs

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (for table snapshots)."""
        return {
            "options": self.options.to_json(),
            "button": self.button,
            "fantasyland": {str(k): v for k, v in self.fantasyland.items()},
            "match_seats": list(self.match_seats),
            "matches": self.matches,
            "round_pairs": [list(p) for p in self.round_pairs],
            "sit_out_after_match": sorted(self.sit_out_after_match),
            "match_over": self.match_over,
            "owners": {str(k): v for k, v in self.owners.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchState:
        """Inverse of :meth:`to_json`."""
        return cls(
            RuleOptions.from_json(data["options"]),
            data.get("button"),
            {int(k): int(v) for k, v in dict(data.get("fantasyland") or {}).items()},
            tuple(data.get("match_seats") or ()),
            int(data.get("matches", 0)),
            tuple((int(a), int(b), int(p)) for a, b, p in data.get("round_pairs") or ()),
            frozenset(data.get("sit_out_after_match") or ()),
            (),
            bool(data.get("match_over", True)),
            owners={int(k): int(v) for k, v in dict(data.get("owners") or {}).items()},
        )


def player_pairs(
    pairs: Sequence[tuple[int, int, int]], owners: Mapping[int, int]
) -> tuple[tuple[int, int, int], ...]:
    """A hand's pairwise points (``(a, b, points)`` of board seats, R5.7 order) between table
    seats: with double boxes (R4.2, ``owners``: board seat → table seat) the pairs of a
    player's boards merged per player, in first-seen order (a board seat ``10p + k`` or ``1``
    is not that table seat); a player's boards are never scored against each other. Without
    ``owners``: as given."""
    if not owners:
        return tuple(pairs)
    own = [(owners.get(a, a), owners.get(b, b), p) for a, b, p in pairs]
    return _merge((), [(a, b, p) for a, b, p in own if a != b])


def _uncovered(
    pairs: Sequence[tuple[int, int, int]],
    stacks: Mapping[int, int] | None,
    options: RuleOptions,
) -> bool:
    """Whether settling ``pairs`` (table seats) now, in their order, would cap a transfer
    because the payer's stack cannot cover it (R8.3, R8.4). Pairs with a seat missing from
    ``stacks`` (a player gone) are left out."""
    if not stacks:
        return False
    known = [(a, b, p) for a, b, p in pairs if a in stacks and b in stacks]
    return any(t.capped for t in settle(known, stacks, options.kush_per_point).transfers)


def _merge(
    acc: tuple[tuple[int, int, int], ...], new: Sequence[tuple[int, int, int]]
) -> tuple[tuple[int, int, int], ...]:
    """Add pairwise points, keeping the first-seen order of each pair."""
    totals: dict[tuple[int, int], int] = {}
    for a, b, p in (*acc, *new):
        if (b, a) in totals:
            totals[(b, a)] -= p
        else:
            totals[(a, b)] = totals.get((a, b), 0) + p
    return tuple((a, b, p) for (a, b), p in totals.items())
