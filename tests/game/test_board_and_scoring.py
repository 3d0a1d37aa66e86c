"""Boards, fouls, royalties, Fantasyland and pairwise scoring (R2, R5, R6, R7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.board import BOXES, Board, Box, assess_board, royalty
from game.cards import parse_cards
from game.errors import BoardError
from game.evaluator import evaluate
from game.options import RuleOptions, Scoring
from game.scoring import score_chinese, score_pair, score_showdown

# A copy of ../shared/rules/cases.json kept in the repository (CI clones only the repository);
# test_vendored_rule_vectors_match_the_shared_ones checks it is the same file.
DATA = Path(__file__).resolve().parents[1] / "data" / "cases.json"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules" / "cases.json"
CASES = json.loads(DATA.read_text())
PINEAPPLE = RuleOptions()


def board(top: str, middle: str, bottom: str) -> Board:
    return Board.parse(top, middle, bottom)


def test_vendored_rule_vectors_match_the_shared_ones() -> None:
    if not SHARED.exists():
        pytest.skip("../shared is not next to this checkout")
    assert json.loads(SHARED.read_text()) == CASES


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_rule_vectors_in_process(case: dict) -> None:  # type: ignore[type-arg]
    req = case["request"]
    boards = [board(b["top"], b["middle"], b["bottom"]) for b in req["boards"]]
    options = RuleOptions.preset(req["game"], **req.get("options", {}))
    if req["game"] == "chinese":
        assert score_chinese(boards, options).to_json() == case["expect"]
    else:
        got = score_showdown(boards, options, req.get("in_fantasyland")).to_json()
        assert got == case["expect"]


# -- royalties (R5.6) ---------------------------------------------------------------------

TOP_PAIRS = {"6": 1, "7": 2, "8": 3, "9": 4, "T": 5, "J": 6, "Q": 7, "K": 8, "A": 9}


@pytest.mark.parametrize(("rank", "value"), list(TOP_PAIRS.items()))
def test_r5_6_top_pair_royalties(rank: str, value: int) -> None:
    kicker = "2d" if rank != "2" else "3d"
    assert royalty(Box.TOP, evaluate(parse_cards(f"{rank}s {rank}h {kicker}"))) == value


@pytest.mark.parametrize("rank", list("2345"))
def test_r5_6_top_pairs_below_sixes_pay_nothing(rank: str) -> None:
    assert royalty(Box.TOP, evaluate(parse_cards(f"{rank}s {rank}h Ad"))) == 0


@pytest.mark.parametrize(("rank", "value"), list(zip("23456789TJQKA", range(10, 23), strict=True)))
def test_r5_6_top_trips_royalties(rank: str, value: int) -> None:
    assert royalty(Box.TOP, evaluate(parse_cards(f"{rank}s {rank}h {rank}d"))) == value


FIVE_CARD = [
    ("As Kd 9c 7h 2s", 0, 0),
    ("As Ad 9c 7h 2s", 0, 0),
    ("As Ad 9c 9h 2s", 0, 0),
    ("As Ad Ac 7h 2s", 2, 0),
    ("6s 7d 8c 9h Ts", 4, 2),
    ("As 2d 3c 4h 5s", 4, 2),
    ("2h 7h 9h Jh Kh", 8, 4),
    ("As Ad Ac 7h 7s", 12, 6),
    ("As Ad Ac Ah 7s", 20, 10),
    ("6h 7h 8h 9h Th", 30, 15),
    ("Th Jh Qh Kh Ah", 50, 25),
]


@pytest.mark.parametrize(("cards", "middle", "bottom"), FIVE_CARD)
def test_r5_6_middle_and_bottom_royalties(cards: str, middle: int, bottom: int) -> None:
    s = evaluate(parse_cards(cards))
    assert royalty(Box.MIDDLE, s) == middle
    assert royalty(Box.BOTTOM, s) == bottom


def test_r4_4_deuce_of_spades_doubles_the_box_that_holds_it() -> None:
    b = board("8s 8h 3d", "2s 2h 2d 7c 9c", "As Ad Ac Kh Kd")
    plain = assess_board(b, PINEAPPLE)
    doubled = assess_board(b, RuleOptions.preset("ofc", deuce_of_spades=True))
    assert plain.royalties == (3, 2, 6)
    assert doubled.royalties == (3, 4, 6)


# -- fouls (R2) -----------------------------------------------------------------------------


def test_r2_3_fouled_board_has_no_royalties_and_no_fantasyland() -> None:
    a = assess_board(board("Qs Qh Qd", "Ks Kh 4d 5c 6c", "As Ah 2d 3c 7c"), PINEAPPLE)
    assert a.fouled and a.royalties == (0, 0, 0) and a.fantasyland_cards == 0


def test_r2_2_equal_strength_is_not_a_foul() -> None:
    a = assess_board(board("Kh 9d 4c", "Ks 9c 4h 3d 2d", "Kd 9s 4s 3c 2c"), PINEAPPLE)
    assert a.strengths[1] == a.strengths[2]
    assert not a.fouled


def test_r2_1_incomplete_board_is_refused() -> None:
    with pytest.raises(BoardError, match="top box needs 3 cards"):
        Board.parse("Qs Qh", "Ks Kh 4d 5c 6c", "As Ah 2d 3c 7c")
    with pytest.raises(BoardError, match="duplicate"):
        Board.parse("Qs Qh Qd", "Qs Kh 4d 5c 6c", "As Ah 2d 3c 7c")


# -- pairwise scoring (R5) ----------------------------------------------------------------

STRONG = board("2s 3s 4h", "9c 9d 6s 6c 2h", "Kc Kd Kh Ks 9h")  # royalties 10
WEAK = board("5c 7d 8c", "Tc Jd 3h 4d 2d", "Qs Jh 8d 7s 6d")


def test_r5_2_one_six_scoop_and_royalties() -> None:
    s = score_showdown([STRONG, WEAK], PINEAPPLE)
    pair = s.pairs[0]
    assert pair.boxes == (-1, 1, 1) and pair.scoop == 0  # weak wins only the top
    assert [p.points for p in s.players] == [1 + 10, -1 - 10]


def test_r5_2_tie_on_a_box_scores_zero_and_blocks_the_scoop() -> None:
    a = board("Kh 9d 4c", "Ac Ad 7h 8h 2c", "As Ah Kd Qd Jd")
    b = board("Ks 9c 4h", "Qc Qh 3d 5d 6c", "Qs Qd Tc 7c 6s")
    s = score_showdown([a, b], PINEAPPLE)
    assert s.pairs[0].boxes == (0, 1, 1)
    assert s.pairs[0].scoop == 0
    assert [p.points for p in s.players] == [2, -2]


def test_r5_3_two_per_row_has_no_scoop_bonus() -> None:
    a = board("Kh Kd 4c", "Ac Ad 7h 8h 2c", "As Ah Ks Qd Jd")
    b = board("Qs 9c 4h", "Qc Qh 3d 5d 6c", "Ts Th 8s 7c 6s")
    one_six = score_showdown([a, b], PINEAPPLE).players[0].points
    two_row = score_showdown([a, b], RuleOptions(scoring=Scoring.TWO_PER_ROW)).players[0].points
    roy = 8  # KK on top
    assert one_six == 6 + roy
    assert two_row == 6 + roy


def test_r5_4_fouled_player_pays_scoop_and_royalties_and_two_fouls_cancel() -> None:
    fouled = board("Qs Qh Qd", "Ks Kh 4d 5c 6c", "As Ah 2d 3c 7c")
    fouled2 = board("Js Jh Jd", "Ts Th 4s 5s 6s", "9s 9h 2s 3s 7s")
    s = score_showdown([fouled, STRONG], PINEAPPLE)
    assert [p.points for p in s.players] == [-16, 16]
    both = score_showdown([fouled, fouled2], PINEAPPLE)
    assert [p.points for p in both.players] == [0, 0]
    # two_per_row: a foul is still -6 (R5.4)
    s2 = score_showdown([fouled, STRONG], RuleOptions(scoring=Scoring.TWO_PER_ROW))
    assert [p.points for p in s2.players] == [-16, 16]


def test_r5_1_three_players_pairwise_sum_to_zero() -> None:
    third = board("Ts Td 5d", "Ah Ac 3c 4c 5s", "Jc Js Jd 8h 8s")
    s = score_showdown([STRONG, WEAK, third], PINEAPPLE)
    pts = [p.points for p in s.players]
    assert sum(pts) == 0
    for i, p in enumerate(s.players):
        from_pairs = sum(pr.points for pr in s.pairs if pr.a == i) - sum(
            pr.points for pr in s.pairs if pr.b == i
        )
        assert p.points == from_pairs
    assert [(pr.a, pr.b) for pr in s.pairs] == [(0, 1), (0, 2), (1, 2)]


def test_r5_5_equal_royalties_cancel() -> None:
    a = assess_board(board("6s 6h 2d", "Kc Kd Kh 4h 5h", "As Ah Ad 7c 8c"), PINEAPPLE)
    b = assess_board(board("6d 6c 3d", "Qc Qd 3s 4s 5s", "Js Jh Qs Qh 9h"), PINEAPPLE)
    assert a.royalty_total == 1 + 2 and b.royalty_total == 1
    assert score_pair(a, b, Scoring.ONE_SIX).royalty_points == 2


# -- Fantasyland (R6) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "cards", "progressive"),
    [
        ("Js Jh 2d", 0, 0),
        ("Qs Qh 2d", 14, 14),
        ("Ks Kh 2d", 14, 15),
        ("As Ah 2d", 14, 16),
        ("2s 2h 2d", 14, 17),
    ],
)
def test_r6_1_r6_2_entry_and_progressive_counts(top: str, cards: int, progressive: int) -> None:
    b = board(top, "3s 3h 3c 4c 4d", "5s 5h 5c 5d 9c")
    assert assess_board(b, PINEAPPLE).fantasyland_cards == cards
    prog = RuleOptions(progressive_fantasyland=True)
    assert assess_board(b, prog).fantasyland_cards == progressive
    assert assess_board(b, RuleOptions.preset("ofc")).fantasyland_cards == (13 if cards else 0)
    assert assess_board(b, RuleOptions(fantasyland=False)).fantasyland_cards == 0


@pytest.mark.parametrize(
    ("top", "middle", "bottom", "stays_pineapple", "stays_ofc"),
    [
        ("Qs Qh 2d", "Ks Kh 3d 4c 5c", "As Ah Ac 7c 8c", False, False),  # QQ: entry, not stay
        ("3s 3h 3d", "Ks Kh Kd 4c 5c", "As Ah Ac 7c 7d", True, True),  # trips on top
        ("Qs Jh 2d", "Ks Kh 3d 4c 5c", "As Ah Ac Ad 8c", True, True),  # quads bottom
        ("Qs Jh 2d", "Ks Kh Kd 4c 4d", "As Ah Ac 7c 7d", False, True),  # middle full house
        ("Qs Jh 2d", "Ks Kh 3d 4c 5c", "9c Tc Jc Qc Kc", True, True),  # straight flush bottom
    ],
)
def test_r6_4_staying_in_fantasyland(
    top: str, middle: str, bottom: str, stays_pineapple: bool, stays_ofc: bool
) -> None:
    b = board(top, middle, bottom)
    pine = assess_board(b, PINEAPPLE, in_fantasyland=True)
    ofc = assess_board(b, RuleOptions.preset("ofc"), in_fantasyland=True)
    assert not pine.fouled
    assert (pine.fantasyland_cards == 14) is stays_pineapple
    assert (ofc.fantasyland_cards == 13) is stays_ofc
    prog = assess_board(b, RuleOptions(progressive_fantasyland=True), in_fantasyland=True)
    assert prog.fantasyland_cards == (14 if stays_pineapple else 0)


# -- Chinese Poker (R7) ---------------------------------------------------------------------


def test_r7_1_r7_3_ties_give_one_each_and_two_of_three_earns_a_point() -> None:
    a = board("Kh 9d 4c", "Ac Ad 7h 8h 2c", "2s 2h 2d 6d 9s")
    b = board("Ks 9c 4h", "Qc Qh 3d 5s 6c", "3s 3h 3c 7c 6s")
    s = score_chinese([a, b])
    # top tie: 1 each; middle a: 2; bottom b: 2; nobody wins two of three.
    assert [p.box_points for p in s.players] == [(1, 2, 0), (1, 0, 2)]
    assert [p.two_of_three for p in s.players] == [0, 0]
    assert [p.points for p in s.players] == [3, 3]


def test_r7_3_two_boxes_won_earn_the_point_and_three_earn_it_once_per_opponent() -> None:
    """R7.3: winning any two of the three boxes against an opponent earns 1 more point; all
    three earn it once (not more). Per opponent: with three players each pair counts."""
    a = board("Kh 9d 4c", "Ac Ad 7h 8h 2c", "3s 3h 3d 6d 9s")  # beats b in middle and bottom
    b = board("Ks 9c 4h", "Qc Qh 3c 5s 6c", "2s 2h 2d 7c 6s")  # ties a on top
    c = board("5h 6h 8c", "Js Jd Tc 4d 7d", "8s 8d Ts Th Td")  # wins only bottom against a
    two = score_chinese([a, b])
    assert [p.box_points for p in two.players] == [(1, 2, 2), (1, 0, 0)]
    assert [p.two_of_three for p in two.players] == [1, 0]
    assert [p.points for p in two.players] == [6, 1]
    three = score_chinese([a, b, c])
    # a: vs b 1+2+2 (two of three), vs c 2+2+0 (two of three: top and middle)
    # b: vs a 1, vs c top K-high 2, middle QQ 2, bottom 0 (two of three); c: the rest
    assert [p.two_of_three for p in three.players] == [2, 1, 0]
    assert [p.box_points for p in three.players] == [(3, 4, 2), (3, 2, 0), (0, 0, 4)]
    other = board("Jh 9c 4h", "Tc Th 3c 5s 6c", "2s 2h 2d 7c 6s")
    sweep = score_chinese([board("As Ah 2c", "Kc Kd Ks 8h 8c", "Qs Qd Qh Qc 8d"), other])
    assert sweep.players[0].box_points == (2, 2, 2) and sweep.players[0].two_of_three == 1


def test_r7_2_a_royal_flush_in_middle_earns_ten() -> None:
    """R7.2: middle royal flush 10 (not the straight flush's 4); bottom royal flush 10."""
    a = board("2c 3d 5h", "Th Jh Qh Kh Ah", "Ts Js Qs Ks As")
    assert score_chinese([a, board("4c 6d 8h", "2h 2d 4d 5s 7c", "9c 9d 9h 9s 7s")]).players[
        0
    ].bonus == (0, 10, 10)


def test_r7_4_two_fouled_boards_score_nothing_against_each_other() -> None:
    """R7.4: two fouled boards score nothing against each other; each loses every box to the
    live board (2 points per box to it) and earns no bonus."""
    live = board("Kh 9d 4c", "Ac Ad 7h 8h 2c", "3s 3h 3d 6d 9s")
    f1 = board("Qs Qd Qc", "Ks Kd 5c 6c 7c", "Js Jd 4s 7d 8s")  # trips over a pair: fouled
    f2 = board("Th Tc Ts", "9h 9c 4h 5h 6h", "2h 2d 5d 8d Jc")
    s = score_chinese([live, f1, f2])
    assert [p.fouled for p in s.players] == [False, True, True]
    assert [p.box_points for p in s.players] == [(4, 4, 4), (0, 0, 0), (0, 0, 0)]
    assert [p.points for p in s.players] == [12 + 2, 0, 0]


def test_r7_2_bonuses_and_r7_4_fouled_board() -> None:
    a = board("2s 2h 2d", "9s 9h 9d 9c 3c", "Th Jh Qh Kh Ah")
    fouled = board("As Ad Ac", "Ks Kd 4c 5c 6c", "Qs Qd 3d 7d 8s")
    s = score_chinese([a, fouled])
    assert s.players[0].bonus == (2, 3, 10)
    assert s.players[1].bonus == (0, 0, 0)
    assert s.players[1].fouled
    assert s.players[0].points == 6 + 15 + 1
    assert s.players[1].points == 0


def test_r2_3_a_foul_is_certain_only_once_full_boxes_rank_out_of_order() -> None:
    """Board.foul_certain: R1.4's examples with the bottom not yet full, and partial boxes
    judging nothing."""

    def partial(top: str, middle: str, bottom: str) -> Board:
        return Board(parse_cards(top), parse_cards(middle), parse_cards(bottom))

    # top Q♠Q♥6♦ above middle Q♣Q♦5♠4♥3♣: foul; Q♠Q♥5♦ below it: none (R1.4)
    assert partial("Qs Qh 6d", "Qc Qd 5s 4h 3c", "Ac").foul_certain
    assert not partial("Qs Qh 5d", "Qc Qd 5s 4h 3c", "Ac").foul_certain
    assert not partial("Qs Qh Qd", "Ac Ad 5s 4h", "2c 3c").foul_certain  # middle not full
    # middle above bottom; top above a full bottom with the middle still open
    assert partial("", "Ac Ad 5s 4h 3c", "Kc Qd 9s 8h 2c").foul_certain
    assert partial("Ac Ad 2s", "Kc", "Kd Qd 9s 8h 2c").foul_certain
    assert not partial("Ac Ad 2s", "Kc", "Kd Kh Ks 8h 2c").foul_certain
    assert not Board().foul_certain


def test_r2_3_foul_certain_agrees_with_the_foul_of_finished_boards_and_their_parts() -> None:
    """On finished boards it is exactly assess_board's foul; a board it calls fouled while
    partial is fouled however its open slots are filled (random completions)."""
    import random

    from game.cards import DECK

    rng = random.Random(7)
    opts = RuleOptions.preset("pineapple")
    for _ in range(2000):
        deck = list(DECK)
        rng.shuffle(deck)
        full = Board(tuple(deck[:3]), tuple(deck[3:8]), tuple(deck[8:13]))
        assert full.foul_certain == assess_board(full, opts).fouled
        keep = [rng.random() < 0.7 for _ in range(13)]
        cards = list(full.cards())
        part = Board(
            tuple(c for c, k in zip(cards[:3], keep[:3], strict=True) if k),
            tuple(c for c, k in zip(cards[3:8], keep[3:8], strict=True) if k),
            tuple(c for c, k in zip(cards[8:], keep[8:], strict=True) if k),
        )
        if part.foul_certain:
            rest = deck[13:]
            for _ in range(5):
                rng.shuffle(rest)
                filled, it = part, iter(rest)
                for box in BOXES:
                    while filled.free(box):
                        filled = filled.with_card(box, next(it))
                assert assess_board(filled, opts).fouled
