"""R7.3 with R7.5 (fixnu38b): the two-of-three point is won with the stage that decides it, so
a claim after the middle reveal counts the point of an opponent beaten in bottom and middle.

The seed behind R7 (003) settles a claim («Доезд») after the second combination "без учета
очков только за Третью комбинацию": without the top box's points only. The point for two
positions won (R7.3) is not a point of the top box; it was paid with the top stage, which a
claim leaves out, so a player who had won bottom and middle got 4 points, not 5."""

from __future__ import annotations

from typing import Any

import pytest

from game.actions import Confirm, Place
from game.board import BOXES, Board, Box
from game.chinese import ChineseGame
from game.hand import Hand, HandResult, HandSetup
from game.options import RuleOptions
from tests.game.helpers import stacked_deck

CHINESE = RuleOptions.preset("chinese")

# boards with no strength bonus (R7.2), so the stages hold comparisons and R7.3 only
ANNA = ("Kc Qd 2h", "Ts Th 5c 5d 3s", "9c 9d 9h 4s 4c")  # wins bottom and middle vs BORIS
BORIS = ("As Ad 7c", "8s 8h 6c 6d 2s", "Qc Qs 3c 3d 8d")  # wins the top
FOULED = ("As Ad 7c", "8s 7h 6c 4d 2s", "Qc Qs 3c 3d 8d")  # pair on top over high card (R2.3)

#: rule vectors: boards by seat → expected points of the (bottom, middle, top) stages, the
#: middle stage's two-of-three part, and the totals a claim after the middle settles on
VECTORS: list[dict[str, Any]] = [
    {
        "id": "bottom-and-middle-won",
        "boards": [ANNA, BORIS],
        "stages": [{0: 2, 1: 0}, {0: 3, 1: 0}, {0: 0, 1: 2}],
        "middle_two": {0: 1},
        "claimed": {0: 5, 1: 0},
    },
    {
        "id": "against-a-fouled-board",
        "boards": [ANNA, FOULED],
        "stages": [{0: 2, 1: 0}, {0: 3, 1: 0}, {0: 2, 1: 0}],
        "middle_two": {0: 1},
        "claimed": {0: 5, 1: 0},
    },
]


def _result(boards: list[tuple[str, str, str]]) -> HandResult:
    parsed = [Board.parse(*b) for b in boards]
    deck = stacked_deck(" ".join(c.code_str() for b in parsed for c in b.cards()))
    seats = tuple(range(len(parsed)))
    hand = Hand(HandSetup.deal(CHINESE, seats, seats[-1], deck=deck))
    for seat, board in zip(seats, parsed, strict=True):
        for box in BOXES:
            for card in board.box(box):
                hand.apply(Place(seat, card, box))
        hand.apply(Confirm(seat))
    assert hand.result is not None
    return hand.result


@pytest.mark.parametrize("case", VECTORS, ids=[c["id"] for c in VECTORS])
def test_r7_3_r7_5_a_claim_after_the_middle_counts_the_two_of_three_point(
    case: dict[str, Any],
) -> None:
    result = _result(case["boards"])
    stages = ChineseGame.stages(result)
    assert [st.box for st in stages] == [Box.BOTTOM, Box.MIDDLE, Box.TOP]
    assert [dict(st.points) for st in stages] == case["stages"]
    assert dict(stages[1].two_of_three) == case["middle_two"]
    # the hand's points are unchanged: the point moved to the stage that decides it
    for seat, player in zip(result.order, result.showdown.players, strict=True):
        assert sum(st.points[seat] for st in stages) == player.points
    target = max(case["claimed"].values())
    game = ChineseGame(target=target).apply(stages[0]).apply(stages[1])
    claimer = next(s for s, p in case["claimed"].items() if p >= target)
    assert claimer in game.claimants(stages[1])
    assert dict(game.claim(claimer).totals) == case["claimed"]


def test_r7_3_two_boxes_won_with_the_top_pay_the_point_at_the_top() -> None:
    """Winning the bottom and the top (not the middle) decides the point only at the top
    stage: a claim after the middle has no such point to count."""
    # BORIS against ANNA, boxes swapped: ANNA wins bottom and top, BORIS the middle
    anna = ("As Ad 7c", "Ts Th 5c 5d 3s", "9c 9d 9h 4s 4c")
    boris = ("Kc Qd 2h", "Qc Qs 8s 8h 2s", "Ac Ah Kd Kh 3d")
    stages = ChineseGame.stages(_result([anna, boris]))
    assert dict(stages[1].two_of_three) == {}
    assert [dict(st.points) for st in stages] == [{0: 2, 1: 0}, {0: 0, 1: 2}, {0: 3, 1: 0}]
    assert dict(stages[2].two_of_three) == {0: 1, 1: 0}
