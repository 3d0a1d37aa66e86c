"""Rule-by-rule audit of RULES.md against the core: sentences no other test pinned down."""

from __future__ import annotations

import pytest

from game.board import Board, assess_board
from game.errors import GameError
from game.hand import Hand, HandSetup
from game.options import RuleOptions
from game.simulate import play_turn

PINEAPPLE = RuleOptions()
PROGRESSIVE = RuleOptions(progressive_fantasyland=True)


@pytest.mark.parametrize("players", [1, 4])
def test_r3_1_pineapple_refuses_a_hand_of_other_than_two_or_three_players(players: int) -> None:
    """R3.1: Pineapple takes 2 or 3 players (four would need 68 > 52 cards): a deal for one
    or four is refused when it is set up, never half dealt."""
    assert (PINEAPPLE.min_players, PINEAPPLE.max_players) == (2, 3)
    with pytest.raises(GameError, match="takes 2–3 players"):
        HandSetup.deal(PINEAPPLE, tuple(range(players)), 0, seed=1)


def test_r3_1_r3_2_three_pineapple_players_get_seventeen_cards_each_from_one_deck() -> None:
    """R3.1: 17 cards each (5 + 3·4), 51 of the 52 for three players; 13 placed, 4 discarded
    (R3.2), no card dealt twice."""
    hand = Hand(HandSetup.deal(PINEAPPLE, (0, 1, 2), 2, seed=3))
    while not hand.is_over:
        play_turn(hand, hand.to_act[0])
    assert hand.result is not None
    seen = []
    for r in hand.result.seats:
        placed = list(r.board.cards())
        discarded = hand.discards_of(r.seat)
        assert (len(placed), len(discarded)) == (13, 4)
        seen += placed + list(discarded)
    assert len(seen) == 51 == len(set(seen))


@pytest.mark.parametrize(
    ("top", "entry", "stay"),
    [
        ("Qs Qh 2d", 14, 0),  # QQ enters, does not stay (R6.4)
        ("Ks Kh 2d", 15, 0),
        ("As Ah 2d", 16, 0),
        ("3s 3h 3d", 17, 14),  # trips: 17 to enter, the base 14 to stay
    ],
)
def test_r6_2_r6_4_progressive_fantasyland_stays_with_the_base_fourteen(
    top: str, entry: int, stay: int
) -> None:
    """R6.2 lists the progressive counts (QQ 14, KK 15, AA 16, trips 17) without saying
    whether they also apply to a player who stays in Fantasyland (R6.4). Ambiguous: the
    reading kept is that progressive counts are for *entering*, and a stay deals the base
    14 cards again. Seed 000 (the source of staying, «бесконечные повторы «Фантазии»») gives
    every Fantasyland, repeats included, 14 cards («игрок получает 14 карт»), and no seed
    names a progressive repeat."""
    board = Board.parse(top, "4s 4h 4c 5d 9h", "6c 7d 8s 9s Td")  # no quads nor full house
    assert assess_board(board, PROGRESSIVE).fantasyland_cards == entry
    assert assess_board(board, PROGRESSIVE, in_fantasyland=True).fantasyland_cards == stay
