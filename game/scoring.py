"""Scoring of a showdown (R5 for OFC and Pineapple, R7 for classic Chinese Poker).

:func:`score_showdown` compares every pair of boards (R5.1): box points under ``one_six`` or
``two_per_row`` (R5.2, R5.3), fouls (R5.4) and royalties (R5.5, R5.6), and reports the
Fantasyland each board earns (R6). :func:`score_chinese` does the same for Chinese Poker (R7):
2 points per box won, 1 each for a tie, strength bonuses and the two-of-three point.

Players are positions ``0 … n-1`` in the order the boards are given. Pairs come in
lexicographic order ``(0, 1), (0, 2), (1, 2) …``, which is the settlement order of R5.7 when
the boards are given in acting order (first seat after the button first, button last).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from game.board import BOXES, Board, BoardAssessment, Box, assess_board
from game.evaluator import HandCategory
from game.options import GameKind, RuleOptions, Scoring

__all__ = [
    "ChinesePlayer",
    "ChineseShowdown",
    "PairResult",
    "PlayerResult",
    "Showdown",
    "chinese_bonus",
    "chinese_box_bonus",
    "chinese_box_cmp",
    "score_chinese",
    "score_pair",
    "score_showdown",
]


class PairResult(NamedTuple):
    """One pair of players scored against each other (R5.1–R5.5).

    :ivar a: position of the first player; ``b`` of the second (``a < b``).
    :ivar boxes: per box (top, middle, bottom): ``1`` if a's box is stronger, ``-1`` if b's,
        ``0`` for a tie. A fouled board loses every box to a live one (R5.4).
    :ivar scoop: ``1`` if a won all three boxes, ``-1`` if b did, else ``0`` (R5.2).
    :ivar box_points: points a receives from b for the boxes, scoop included (b gets the
        negative).
    :ivar royalty_points: royalties a receives from b (R5.4, R5.5).
    """

    a: int
    b: int
    boxes: tuple[int, int, int]
    scoop: int
    box_points: int
    royalty_points: int

    @property
    def points(self) -> int:
        """Everything a receives from b (negative: a pays b)."""
        return self.box_points + self.royalty_points


class PlayerResult(NamedTuple):
    """One player's result of a showdown.

    :ivar fouled: the board is dead (R2.3).
    :ivar royalties: royalties of (top, middle, bottom); zeros when fouled.
    :ivar points: net points over all opponents (R5.1); the sum over players is 0.
    :ivar fantasyland_cards: cards of the next hand's Fantasyland, 0 for none (R6).
    :ivar strengths: packed strengths of (top, middle, bottom) (see :mod:`game.evaluator`).
    """

    fouled: bool
    royalties: tuple[int, int, int]
    points: int
    fantasyland_cards: int
    strengths: tuple[int, int, int]

    @property
    def royalty_total(self) -> int:
        """Sum of the three royalties."""
        return self.royalties[0] + self.royalties[1] + self.royalties[2]

    @property
    def fantasyland(self) -> bool:
        """Whether the board earns (or keeps) Fantasyland (R6.1, R6.4)."""
        return self.fantasyland_cards > 0


@dataclass(frozen=True, slots=True)
class Showdown:
    """A scored OFC or Pineapple showdown: per-player results and every pair (R5)."""

    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The shape of ``cases.json``'s ``expect``: fouled, royalties, points, fantasyland."""
        return {
            "fouled": [p.fouled for p in self.players],
            "royalties": [p.royalty_total for p in self.players],
            "points": [p.points for p in self.players],
            "fantasyland": [p.fantasyland for p in self.players],
            "fantasyland_cards": [p.fantasyland_cards for p in self.players],
        }


def score_pair(
    a: BoardAssessment, b: BoardAssessment, scheme: Scoring, ia: int = 0, ib: int = 1
) -> PairResult:
    """Score board ``a`` against board ``b`` (R5.2–R5.5).

    Two fouled boards score 0 (R5.4). A fouled board loses all three boxes (a scoop: 6 points
    under both schemes) and pays the other's royalties (R5.4). Otherwise each box is worth 1
    (``one_six``, +3 for a scoop) or 2 (``two_per_row``); royalties are paid as the difference
    (R5.5).
    """
    if a.fouled and b.fouled:
        return PairResult(ia, ib, (0, 0, 0), 0, 0, 0)
    if a.fouled:
        return PairResult(ia, ib, (-1, -1, -1), -1, -6, -b.royalty_total)
    if b.fouled:
        return PairResult(ia, ib, (1, 1, 1), 1, 6, a.royalty_total)
    sa, sb = a.strengths, b.strengths
    t = (sa[0] > sb[0]) - (sa[0] < sb[0])
    m = (sa[1] > sb[1]) - (sa[1] < sb[1])
    o = (sa[2] > sb[2]) - (sa[2] < sb[2])
    won = t + m + o
    scoop = 1 if won == 3 else -1 if won == -3 else 0
    box_points = won + 3 * scoop if scheme is Scoring.ONE_SIX else 2 * won
    return PairResult(ia, ib, (t, m, o), scoop, box_points, a.royalty_total - b.royalty_total)


def score_showdown(
    boards: Sequence[Board],
    options: RuleOptions,
    in_fantasyland: Sequence[bool] | None = None,
    assessments: Sequence[BoardAssessment] | None = None,
    owners: Sequence[int] | None = None,
) -> Showdown:
    """Score a finished OFC or Pineapple hand (R5.1–R5.6, R6.1–R6.4).

    :param boards: finished boards, in acting order for R5.7.
    :param in_fantasyland: per board, whether its player played this hand in Fantasyland
        (decides the stay rule R6.4); all ``False`` when omitted.
    :param assessments: already computed :func:`assess_board` results, to skip evaluation.
    :param owners: per board, the player who plays it: boards of one player are not scored
        against each other (``heads_up_double_boxes``, R4.2: every board of one player against
        every board of the other).
    :raises BoardError: if a board is incomplete or repeats a card within itself (when
        assessed here, :func:`~game.board.assess_board`). A card repeated across ``boards``
        is not checked: the hand state machine deals each card once, and ``python -m game
        score`` refuses one.
    """
    n = len(boards)
    fl = in_fantasyland if in_fantasyland is not None else (False,) * n
    ass = (
        list(assessments)
        if assessments is not None
        else [assess_board(boards[i], options, fl[i]) for i in range(n)]
    )
    points = [0] * n
    pairs: list[PairResult] = []
    scheme = options.scoring
    for i in range(n):
        for j in range(i + 1, n):
            if owners is not None and owners[i] == owners[j]:
                continue
            pr = score_pair(ass[i], ass[j], scheme, i, j)
            pairs.append(pr)
            points[i] += pr.points
            points[j] -= pr.points
    players = tuple(
        PlayerResult(a.fouled, a.royalties, points[i], a.fantasyland_cards, a.strengths)
        for i, a in enumerate(ass)
    )
    return Showdown(players, tuple(pairs))


# -- Chinese Poker (R7) ------------------------------------------------------------------

# Strength bonuses (R7.2) by category, for (top, middle, bottom).
_CHINESE_BONUS_MIDDLE = {
    HandCategory.ROYAL_FLUSH: 10,
    HandCategory.STRAIGHT_FLUSH: 4,
    HandCategory.QUADS: 3,
    HandCategory.FULL_HOUSE: 1,
}
_CHINESE_BONUS_BOTTOM = {
    HandCategory.ROYAL_FLUSH: 10,
    HandCategory.STRAIGHT_FLUSH: 4,
    HandCategory.QUADS: 3,
}


def chinese_box_bonus(box: Box, strength: int) -> int:
    """Strength bonus of one live box with the given packed strength (R7.2): top AAA 10,
    other trips 2; middle and bottom by category."""
    category = HandCategory(strength >> 20)
    if box is Box.TOP:
        if category is not HandCategory.TRIPS:
            return 0
        return 10 if (strength >> 16) & 15 == 14 else 2
    table = _CHINESE_BONUS_MIDDLE if box is Box.MIDDLE else _CHINESE_BONUS_BOTTOM
    return table.get(category, 0)


def chinese_bonus(assessment: BoardAssessment) -> tuple[int, int, int]:
    """Strength bonus of (top, middle, bottom) for a live board (R7.2); zeros when fouled
    (R7.4)."""
    if assessment.fouled:
        return (0, 0, 0)
    top, mid, bot = assessment.strengths
    return (
        chinese_box_bonus(Box.TOP, top),
        chinese_box_bonus(Box.MIDDLE, mid),
        chinese_box_bonus(Box.BOTTOM, bot),
    )


@dataclass(frozen=True, slots=True)
class ChinesePlayer:
    """One player's Chinese Poker hand (R7).

    :ivar fouled: dead board (R7.4).
    :ivar box_points: points earned in comparisons of (top, middle, bottom) with every
        opponent: 2 per win, 1 per tie (R7.1).
    :ivar bonus: strength bonus of (top, middle, bottom) (R7.2).
    :ivar two_of_three: one point per opponent beaten in at least two boxes (R7.3).
    """

    fouled: bool
    box_points: tuple[int, int, int]
    bonus: tuple[int, int, int]
    two_of_three: int
    strengths: tuple[int, int, int]

    @property
    def points(self) -> int:
        """All points of the hand (R7.1–R7.3)."""
        return sum(self.box_points) + sum(self.bonus) + self.two_of_three


@dataclass(frozen=True, slots=True)
class ChineseShowdown:
    """A scored Chinese Poker hand: per-player results; points accumulate toward the target."""

    players: tuple[ChinesePlayer, ...]

    def to_json(self) -> dict[str, Any]:
        """The shape of ``cases.json``'s ``expect`` for ``chinese``: fouled and points."""
        return {
            "fouled": [p.fouled for p in self.players],
            "points": [p.points for p in self.players],
        }


def chinese_box_cmp(a_fouled: bool, a: int, b_fouled: bool, b: int) -> int:
    """One box of two Chinese Poker boards compared (R7.1): ``1`` when the first board's
    (packed strength ``a``) beats the second's (``b``), ``-1`` when it loses, ``0`` for a tie.
    A fouled board loses every comparison with a live one (R7.4); two fouled boards score
    nothing against each other, a pair the callers skip."""
    if a_fouled:
        return -1
    if b_fouled:
        return 1
    return (a > b) - (a < b)


def score_chinese(
    boards: Sequence[Board],
    options: RuleOptions | None = None,
    forfeit: Sequence[bool] | None = None,
) -> ChineseShowdown:
    """Score a classic Chinese Poker hand (R7.1–R7.4).

    Each box is compared with each opponent's same box: the stronger earns 2, a tie 1 each;
    a fouled board loses every comparison with a live one and two fouled boards score nothing
    (R7.4). Bonuses count once per hand (R7.2); two boxes of three won against an opponent
    earn 1 more (R7.3).

    :param forfeit: per board, whether it counts as fouled anyway (not arranged in time, R7.7).
    :raises BoardError: if a board is incomplete or repeats a card.
    """
    opts = options or RuleOptions.preset(GameKind.CHINESE)
    ass = [assess_board(b, opts) for b in boards]
    if forfeit is not None:
        ass = [
            a._replace(fouled=True, royalties=(0, 0, 0)) if f else a
            for a, f in zip(ass, forfeit, strict=True)
        ]
    n = len(boards)
    box_points = [[0, 0, 0] for _ in range(n)]
    two = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            ai, aj = ass[i], ass[j]
            if ai.fouled and aj.fouled:
                continue
            wins_i = wins_j = 0
            for k in range(len(BOXES)):
                cmp = chinese_box_cmp(ai.fouled, ai.strengths[k], aj.fouled, aj.strengths[k])
                if cmp > 0:
                    box_points[i][k] += 2
                    wins_i += 1
                elif cmp < 0:
                    box_points[j][k] += 2
                    wins_j += 1
                else:
                    box_points[i][k] += 1
                    box_points[j][k] += 1
            if wins_i >= 2:
                two[i] += 1
            if wins_j >= 2:
                two[j] += 1
    players = tuple(
        ChinesePlayer(
            a.fouled,
            (box_points[i][0], box_points[i][1], box_points[i][2]),
            chinese_bonus(a),
            two[i],
            a.strengths,
        )
        for i, a in enumerate(ass)
    )
    return ChineseShowdown(players)
