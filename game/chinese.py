"""A game of classic Chinese Poker: hands in a row until a player reaches the target (R7).

Every hand is arranged in secret and revealed in three stages, bottom, then middle, then top
(R4.5). :meth:`ChineseGame.stages` turns a scored hand into those stages: the points each
player earns in a stage are that box's comparison points (2 per win, 1 each for a tie, R7.1)
plus that box's strength bonus (R7.2); the two-of-three points (R7.3) come with the stage that
decides them: the middle one against an opponent beaten in both the bottom and the middle, else
the top one. After the bottom or the middle stage, every player who has reached the target may
claim the game (R7.5, «Доезд»): :meth:`ChineseGame.claimants`. The game ends when a claim is
made, when a player has reached the target after the top stage (R7.6), or after a hand in which
a player ran out of time (R7.7). Kush are then settled each-with-each on the difference of the
players' points (:meth:`ChineseGame.pairs`, R7.6, capped by :func:`game.settlement.settle`),
counted over the hands both played: a player who sat down during a game starts it at 0 and
neither pays nor collects the points scored before they came.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from game.board import Box
from game.hand import HandResult
from game.scoring import ChineseShowdown, chinese_box_cmp

__all__ = ["ChineseGame", "RevealStage"]

_STAGE_BOXES = (Box.BOTTOM, Box.MIDDLE, Box.TOP)
_INDEX = {Box.TOP: 0, Box.MIDDLE: 1, Box.BOTTOM: 2}


@dataclass(frozen=True, slots=True)
class RevealStage:
    """One reveal of a hand: the box shown and the points each seat earns with it.

    :ivar box: bottom, middle or top (in that order, R4.5).
    :ivar points: seat → points of this stage (box comparisons + bonus; + the two-of-three
        points it decides, R7.3).
    :ivar last: the top stage, after which the hand is complete.
    :ivar two_of_three: seat → the part of ``points`` earned for winning two boxes of three
        against opponents (R7.3), not by the box itself: at the middle stage, one per opponent
        beaten in both the bottom and the middle (won whatever the top, and counted by a claim
        after the middle, R7.5); at the top stage the rest; empty at the bottom stage.
    """

    box: Box
    points: Mapping[int, int]
    last: bool
    two_of_three: Mapping[int, int] = field(default_factory=dict)


def _two_of_three_by_middle(order: Sequence[int], showdown: ChineseShowdown) -> dict[int, int]:
    """Seat → the two-of-three points (R7.3) already won once the bottom and middle boxes are
    compared: one per opponent beaten in both (a fouled board loses every comparison with a
    live one, R7.4). The seed behind R7 (003) settles a claim after the middle reveal (R7.5)
    "без учета очков только за Третью комбинацию": without the top box's points only, so
    the point for two positions won counts; it was paid with the top stage, which a claim
    leaves out (4 points, not 5)."""
    out: dict[int, int] = {}
    players = list(zip(order, showdown.players, strict=True))
    for i, (a, pa) in enumerate(players):
        for b, pb in players[i + 1 :]:
            if pa.fouled and pb.fouled:
                continue
            wins_a = wins_b = 0
            for k in (_INDEX[Box.BOTTOM], _INDEX[Box.MIDDLE]):
                cmp = chinese_box_cmp(pa.fouled, pa.strengths[k], pb.fouled, pb.strengths[k])
                wins_a += cmp > 0
                wins_b += cmp < 0
            if wins_a == 2:
                out[a] = out.get(a, 0) + 1
            if wins_b == 2:
                out[b] = out.get(b, 0) + 1
    return out


@dataclass(frozen=True, slots=True)
class ChineseGame:
    """Points of a game in progress.

    :ivar target: points that end the game (R7.1, ``target_points``).
    :ivar totals: seat → points so far in this game.
    :ivar hands: hands played in this game.
    :ivar over: the game has ended (claim, target reached, or a timeout).
    :ivar claimed_by: the seat that claimed the game, if one did (R7.5).
    :ivar joined: seat that was not in every hand of the game → the other seats' points
        scored without it: before it came in during the game, and in the hands of the game
        it was not dealt (sitting out, R8.6); empty for the seats in every hand so far. So
        :meth:`pairs` counts each pair's points over the hands both played.
    """

    target: int
    totals: Mapping[int, int] = field(default_factory=dict)
    hands: int = 0
    over: bool = False
    claimed_by: int | None = None
    joined: Mapping[int, Mapping[int, int]] = field(default_factory=dict)

    @staticmethod
    def stages(result: HandResult, two_at_middle: bool = True) -> list[RevealStage]:
        """The three reveals of a scored hand, bottom first (R4.5, R7.1–R7.3).

        :param two_at_middle: the two-of-three points an opponent beaten in bottom and middle
            gives come with the middle stage (R7.3, R7.5); ``False``: all with the top stage,
            as a reveal whose middle stage was counted before that rule (a table saved by an
            older version mid-reveal) must go on, or its top stage leaves that point out.
        :raises TypeError: if ``result`` is not a Chinese Poker hand.
        """
        showdown = result.showdown
        if not isinstance(showdown, ChineseShowdown):
            raise TypeError("not a Chinese Poker hand")
        early = _two_of_three_by_middle(result.order, showdown) if two_at_middle else {}
        out = []
        for box in _STAGE_BOXES:
            k = _INDEX[box]
            last = box is Box.TOP
            points, two = {}, {}
            for seat, p in zip(result.order, showdown.players, strict=True):
                if box is Box.MIDDLE:
                    two[seat] = early.get(seat, 0)
                elif last:
                    two[seat] = p.two_of_three - early.get(seat, 0)
                else:
                    two[seat] = 0
                points[seat] = p.box_points[k] + p.bonus[k] + two[seat]
            shown = {seat: n for seat, n in two.items() if n} if box is Box.MIDDLE else two
            out.append(RevealStage(box, points, last, shown if box is not Box.BOTTOM else {}))
        return out

    def apply(self, stage: RevealStage) -> ChineseGame:
        """Add a stage's points; after the top stage the hand counts and the game ends if a
        player reached the target (R7.6)."""
        totals = dict(self.totals)
        joined = dict(self.joined)
        for seat in stage.points:
            if seat not in totals and self.hands:  # sat down during the game: from here on
                joined[seat] = dict(self.totals)
        for absent in [s for s in totals if s not in stage.points]:
            # in the game but not dealt this hand (sitting out, R8.6): what the others score
            # in it is not counted between them and this seat (it was: a hand it sat out
            # moved its kush, R7.6)
            missed = dict(joined.get(absent, {}))
            for seat, p in stage.points.items():
                missed[seat] = missed.get(seat, 0) + p
            joined[absent] = missed
        for seat, p in stage.points.items():
            totals[seat] = totals.get(seat, 0) + p
        over = self.over or (stage.last and max(totals.values(), default=0) >= self.target)
        hands = self.hands + (1 if stage.last else 0)
        return replace(self, totals=totals, hands=hands, over=over, joined=joined)

    def claimants(self, stage: RevealStage) -> tuple[int, ...]:
        """Seats that may claim the game after ``stage`` (bottom or middle): those at or above
        the target (R7.5)."""
        if stage.last or self.over:
            return ()
        return tuple(sorted(s for s, p in self.totals.items() if p >= self.target))

    def claim(self, seat: int) -> ChineseGame:
        """End the game at once on ``seat``'s claim (R7.5). :raises ValueError: if the seat
        has not reached the target."""
        if self.totals.get(seat, 0) < self.target:
            raise ValueError("only a player at the target may claim the game")
        return replace(self, over=True, claimed_by=seat)

    def end(self) -> ChineseGame:
        """End the game now (a timeout, R7.7, or the table breaking up)."""
        return replace(self, over=True)

    def pairs(self, order: Sequence[int]) -> tuple[tuple[int, int, int], ...]:
        """``(a, b, points a receives from b)`` for every pair, in ``order`` (R7.6, R5.7):
        the difference of their points over the hands both played (of the later comer's
        hands: the other's points when it came are taken off, :attr:`joined`)."""
        seats = [s for s in order if s in self.totals]
        return tuple(
            (a, b, self._since(a, b) - self._since(b, a))
            for i, a in enumerate(seats)
            for b in seats[i + 1 :]
        )

    def _since(self, seat: int, other: int) -> int:
        """``seat``'s points since both it and ``other`` were in the game."""
        return self.totals[seat] - self.joined.get(other, {}).get(seat, 0)

    def new_game(self) -> ChineseGame:
        """A fresh game with the same target."""
        return ChineseGame(self.target)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (for table snapshots)."""
        return {
            "target": self.target,
            "totals": {str(k): v for k, v in self.totals.items()},
            "hands": self.hands,
            "over": self.over,
            "claimed_by": self.claimed_by,
            "joined": {
                str(s): {str(k): v for k, v in before.items()} for s, before in self.joined.items()
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChineseGame:
        """Inverse of :meth:`to_json`."""
        return cls(
            int(data["target"]),
            {int(k): int(v) for k, v in dict(data.get("totals") or {}).items()},
            int(data.get("hands", 0)),
            bool(data.get("over", False)),
            data.get("claimed_by"),
            {
                int(s): {int(k): int(v) for k, v in dict(before).items()}
                for s, before in dict(data.get("joined") or {}).items()
            },
        )
