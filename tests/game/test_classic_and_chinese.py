"""Classic OFC (R4.1–R4.4, R5.3, R6) and classic Chinese Poker (R4.5, R7) in the core."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.actions import Confirm, Place
from game.board import BOXES, Board, Box
from game.cards import DECK
from game.chinese import ChineseGame
from game.errors import GameError
from game.hand import Hand, HandSetup, double_box_seats
from game.options import RuleOptions, Scoring
from game.scoring import score_chinese, score_showdown
from game.simulate import play_turn
from tests.game.helpers import stacked_deck

OFC = RuleOptions.preset("ofc")
CHINESE = RuleOptions.preset("chinese")


def play_out(hand: Hand) -> None:
    while not hand.is_over:
        play_turn(hand, hand.to_act[0])


def test_r4_1_classic_ofc_four_players_five_then_eight_single_cards() -> None:
    hand = Hand(HandSetup.deal(OFC, (0, 1, 2, 3), 3, seed=4))
    assert hand.to_act == (0,)
    assert len(hand.current_cards(0)) == 5
    assert hand.view(None).seat(0).face_up == ()  # dealt face down (R4.1)
    play_turn(hand, 0)
    for s in (1, 2, 3):
        play_turn(hand, s)
    assert hand.to_act == (0,) and len(hand.current_cards(0)) == 1  # then one card a street
    assert hand.streets_of(0) == 9
    play_out(hand)
    assert hand.result is not None
    for r in hand.result.seats:
        assert r.board.is_complete and hand.discards_of(r.seat) == ()
    assert sum(r.points for r in hand.result.seats) == 0
    assert len(hand.result.pairs) == 6


def test_r4_1_classic_placements_open_in_turn_or_all_at_once_with_simultaneous_streets() -> None:
    """R4.1: the five cards are placed openly by each player in turn (public once confirmed,
    while the next player acts); with ``simultaneous_streets`` every player places at once and
    the placements are shown when the last one confirms, street by street."""
    hand = Hand(HandSetup.deal(OFC, (0, 1, 2), 2, seed=7))
    play_turn(hand, 0)
    assert hand.to_act == (1,)
    assert (
        len(list(hand.view(None).seat(0).board.cards())) == 5 and hand.view(1).seat(0).hidden == 0
    )
    both = Hand(HandSetup.deal(replace(OFC, simultaneous_streets=True), (0, 1, 2), 2, seed=7))
    assert both.to_act == (0, 1, 2)
    for seat in (0, 1):
        play_turn(both, seat)
        assert (
            both.view(None).seat(seat).hidden == 5
            and list(both.view(2).seat(0).board.cards()) == []
        )
    play_turn(both, 2)
    assert [len(list(both.view(None).seat(s).board.cards())) for s in (0, 1, 2)] == [5, 5, 5]
    assert both.to_act == (0, 1, 2) and len(both.current_cards(1)) == 1
    play_out(both)
    assert both.result is not None and all(r.board.is_complete for r in both.result.seats)


def test_r5_3_classic_scores_two_per_row_by_default_and_one_six_on_request() -> None:
    a = Board.parse("Kh Kd 4c", "Ac Ad 7h 8h 2c", "As Ah Ks Qd Jd")
    b = Board.parse("Qs 9c 4h", "Qc Qh 3d 5d 6c", "Ts Th 8s 7c 6s")
    assert OFC.scoring is Scoring.TWO_PER_ROW
    assert score_showdown([a, b], OFC).players[0].points == 2 * 3 + 8
    one_six = RuleOptions.preset("ofc", scoring="one_six")
    assert score_showdown([a, b], one_six).players[0].points == 6 + 8


def test_r4_2_double_boxes_score_every_board_against_every_opposing_board() -> None:
    a1 = Board.parse("2s 3s 4h", "9c 9d 6s 6c 2h", "Kc Kd Kh Ks 9h")
    a2 = Board.parse("5c 7d 8c", "Tc Jd 3h 4d 2d", "Qs Jh 8d 7s 6d")
    b1 = Board.parse("Ah 2c 3c", "Jc Js 4s 5s 7h", "Ac Ad As Tc Th")
    used = {*a1.cards(), *a2.cards(), *b1.cards()}
    rest = [c for c in DECK if c not in used]
    b2 = Board(tuple(rest[:3]), tuple(rest[3:8]), tuple(rest[8:13]))
    opts = RuleOptions.preset("ofc", heads_up_double_boxes=True)
    boards = [a1, a2, b1, b2]
    s = score_showdown(boards, opts, owners=[0, 0, 1, 1])
    assert [(p.a, p.b) for p in s.pairs] == [(0, 2), (0, 3), (1, 2), (1, 3)]
    total_a = s.players[0].points + s.players[1].points
    assert total_a == sum(p.points for p in s.pairs)
    assert total_a == -(s.players[2].points + s.players[3].points)
    # a whole double-box hand through the state machine
    seats, owners = double_box_seats([0, 1])
    assert seats == (0, 1, 10, 11) and owners == {0: 0, 1: 0, 10: 1, 11: 1}
    hand = Hand(HandSetup.deal(opts, seats, 11, seed=2, owners=owners))
    play_out(hand)
    assert hand.result is not None and len(hand.result.pairs) == 4
    assert all(owners[a] != owners[b] for a, b, _ in hand.result.pairs)
    with pytest.raises(GameError):
        HandSetup.deal(OFC, seats, 11, seed=2, owners=owners)  # option off


def test_r4_2_each_double_box_board_earns_fantasyland_on_its_own() -> None:
    """R4.2 (R6.1, R6.4): with ``heads_up_double_boxes`` every board earns Fantasyland on its
    own (QQ on top: 13 cards; a board that played Fantasyland stays with trips on top), and a
    classic table with a third player, where the option is still set, plays single boards that
    earn it as usual."""
    opts = RuleOptions.preset("ofc", heads_up_double_boxes=True)
    a1 = Board.parse("Qs Qh 7c", "8c 8d 9c 9d Tc", "Ac Ad Ah Kc Kd")
    a2 = Board.parse("2c 4h 6d", "7d 8h 9h Jc Kh", "As Ks Qc Jd Td")
    b1 = Board.parse("3s 4s 6h", "7s 7h 8s 9s Qd", "Js Jh Ts Th 6s")
    b2 = Board.parse("2s 2d 2h", "3c 3d 3h 4c 4d", "5c 5d 5h 5s 6c")
    s = score_showdown([a1, a2, b1, b2], opts, [False, False, False, True], owners=[0, 0, 1, 1])
    assert [(p.fouled, p.fantasyland_cards) for p in s.players] == [
        (False, 13),
        (False, 0),
        (False, 0),
        (False, 13),
    ]
    three = score_showdown([a1, a2, b1], opts)
    assert [p.fantasyland_cards for p in three.players] == [13, 0, 0]


def test_r4_3_dummy_board_takes_thirteen_cards_in_order_and_is_never_scored() -> None:
    opts = RuleOptions.preset("ofc", dummy_box=True)
    hand = Hand(HandSetup.deal(opts, (0, 1, 2), 2, seed=9))
    assert hand.dummy is not None
    deck = hand.setup.deck
    assert hand.dummy.bottom == deck[39:44]
    assert hand.dummy.middle == deck[44:49]
    assert hand.dummy.top == deck[49:52]
    assert not set(hand.dummy.cards()) & hand.view(None).public_cards()
    play_out(hand)
    assert hand.result is not None and hand.result.dummy == hand.dummy
    assert len(hand.result.pairs) == 3 and len(hand.result.seats) == 3
    assert "dummy" in hand.result.to_json()
    no_dummy = Hand(HandSetup.deal(opts, (0, 1), 1, seed=9))
    assert no_dummy.dummy is None  # only with three players


def test_r6_2_classic_fantasyland_is_thirteen_cards_none_discarded() -> None:
    hand = Hand(HandSetup.deal(OFC, (0, 1), 1, {0: 13}, seed=3))
    assert len(hand.current_cards(0)) == 13
    play_out(hand)
    assert hand.discards_of(0) == ()


# -- Chinese Poker -------------------------------------------------------------------------


def test_r4_5_chinese_all_arrange_at_once_hidden_until_showdown() -> None:
    hand = Hand(HandSetup.deal(CHINESE, (0, 1, 2, 3), 3, seed=5))
    assert hand.to_act == (0, 1, 2, 3)
    assert all(len(hand.current_cards(s)) == 13 for s in (0, 1, 2, 3))
    play_turn(hand, 2)
    assert hand.view(None).seat(2).board.count == 0 and hand.view(None).seat(2).hidden == 13
    play_out(hand)
    assert hand.result is not None


def test_r7_stages_claim_and_settlement_worked_example() -> None:
    a = Board.parse("As Ah Ad", "Kd Kc Ks 8h 8c", "2c 3c 4c 5c 6c")
    b = Board.parse("Jc Td 4s", "9c 9d 6s 6h 2h", "Qs Qd Qh Qc 8d")
    deck = stacked_deck(" ".join(str(c.code_str()) for c in (*a.cards(), *b.cards())))
    hand = Hand(HandSetup.deal(CHINESE, (0, 1), 1, deck=deck))
    for seat, board in ((0, a), (1, b)):
        for box in BOXES:
            for c in board.box(box):
                hand.apply(Place(seat, c, box))
        hand.apply(Confirm(seat))
    assert hand.result is not None
    stages = ChineseGame.stages(hand.result)
    assert [st.box for st in stages] == [Box.BOTTOM, Box.MIDDLE, Box.TOP]
    # bottom: straight flush beats quads (2) + SF bonus 4 for A; quads bonus 3 for B (R7.2)
    assert stages[0].points == {0: 6, 1: 3}
    # middle: full house wins 2 + bonus 1 + two-of-three 1, bottom and middle both won
    # (R7.3: decided here, fixnu38b); top: AAA wins 2 + bonus 10
    assert stages[1].points == {0: 4, 1: 0}
    assert stages[2].points == {0: 12, 1: 0}
    game = ChineseGame(target=8)
    game = game.apply(stages[0])
    assert game.claimants(stages[0]) == ()
    game = game.apply(stages[1])
    assert game.claimants(stages[1]) == (0,)  # 10 ≥ 8: may claim (R7.5)
    claimed = game.claim(0)
    assert claimed.over and claimed.totals == {0: 10, 1: 3}
    assert claimed.pairs((0, 1)) == ((0, 1, 7),)  # R7.6: difference of points
    with pytest.raises(ValueError):
        game.claim(1)
    go_on = game.apply(stages[2])
    assert go_on.over and go_on.totals == {0: 22, 1: 3} and go_on.hands == 1
    assert ChineseGame.from_json(go_on.to_json()) == go_on


def test_r7_5_r7_6_reaching_the_target_exactly_counts() -> None:
    """R7.5/R7.6: "reaches the target" includes landing on it: a player at exactly the target
    after the bottom reveal may claim (the other, below it, may not), and a hand that leaves
    a player exactly at the target ends the game; one point short does neither."""
    from game.chinese import RevealStage

    game = ChineseGame(target=10)
    bottom = RevealStage(Box.BOTTOM, {0: 10, 1: 9}, False)
    after = game.apply(bottom)
    assert after.claimants(bottom) == (0,) and not after.over
    assert after.claim(0).over
    short = ChineseGame(target=10).apply(RevealStage(Box.BOTTOM, {0: 9, 1: 0}, False))
    assert short.claimants(RevealStage(Box.BOTTOM, {0: 9, 1: 0}, False)) == ()
    top = RevealStage(Box.TOP, {0: 0, 1: 1}, True)
    middle = RevealStage(Box.MIDDLE, {0: 0, 1: 0}, False)
    assert after.apply(middle).apply(top).over  # 10 and 10: the target is reached
    below = ChineseGame(target=11).apply(bottom).apply(middle).apply(top)
    assert not below.over and below.totals == {0: 10, 1: 10}


def test_r7_6_a_player_who_sat_down_during_the_game_settles_the_hands_played_together() -> None:
    """Carol sits down after a hand in which Alice scored 22 and Bob 3. At the end she pays
    (or collects) the difference of the points of the hands she played only: she paid Alice
    her 22 from before she came (and Bob his 3) on top of the hands they played together."""
    from game.chinese import RevealStage

    def hand(points: dict[int, int]) -> list[RevealStage]:
        return [
            RevealStage(Box.BOTTOM, {s: 0 for s in points}, False),
            RevealStage(Box.MIDDLE, {s: 0 for s in points}, False),
            RevealStage(Box.TOP, points, True),
        ]

    game = ChineseGame(target=51)
    for stage in hand({0: 22, 1: 3}):  # Alice, Bob
        game = game.apply(stage)
    for stage in hand({0: 8, 1: 2, 2: 5}):  # Carol (seat 2) comes in
        game = game.apply(stage)
    assert game.totals == {0: 30, 1: 5, 2: 5}
    assert game.pairs((0, 1, 2)) == ((0, 1, 25), (0, 2, 3), (1, 2, -3))
    assert ChineseGame.from_json(game.to_json()) == game
    old = {k: v for k, v in game.to_json().items() if k != "joined"}  # a snapshot of before
    assert ChineseGame.from_json(old).joined == {}


def test_r7_6_a_player_who_sat_out_hands_of_the_game_settles_the_hands_played_together() -> None:
    """Carol (seat 2) sits out the second hand of a game, Alice and Bob play it: Bob's 6
    points and Alice's 2 of that hand were counted against Carol too (the difference of the
    totals), who lost kush over a hand she was not dealt. Each pair settles the points of
    the hands both played, as for a player who sat down during the game; then Carol plays
    again and every hand after counts for her as before."""
    from game.chinese import RevealStage

    def hand(points: dict[int, int]) -> list[RevealStage]:
        return [
            RevealStage(Box.BOTTOM, {s: 0 for s in points}, False),
            RevealStage(Box.MIDDLE, {s: 0 for s in points}, False),
            RevealStage(Box.TOP, points, True),
        ]

    game = ChineseGame(target=51)
    for stage in hand({0: 7, 1: 10, 2: 4}):
        game = game.apply(stage)
    for stage in hand({0: 2, 1: 6}):  # Carol sits out
        game = game.apply(stage)
    assert game.totals == {0: 9, 1: 16, 2: 4}
    assert game.pairs((0, 1, 2)) == ((0, 1, -7), (0, 2, 3), (1, 2, 6))
    for stage in hand({0: 1, 1: 0, 2: 5}):  # Carol is back
        game = game.apply(stage)
    assert game.totals == {0: 10, 1: 16, 2: 9}
    assert game.pairs((0, 1, 2)) == ((0, 1, -6), (0, 2, -1), (1, 2, 1))
    assert ChineseGame.from_json(game.to_json()) == game


def test_r7_7_a_timed_out_board_counts_as_fouled() -> None:
    hand = Hand(HandSetup.deal(CHINESE, (0, 1), 1, seed=11))
    play_turn(hand, 1)
    hand.timeout(0)
    assert hand.result is not None
    r0 = hand.result.seat(0)
    assert r0.fouled and r0.timed_out and r0.points == 0
    assert hand.result.seat(1).points == 6 + 1 + sum(hand.result.seat(1).royalties)


def test_r7_4_forfeit_in_score_chinese() -> None:
    a = Board.parse("2s 2h 2d", "9s 9h 9d 9c 3c", "Th Jh Qh Kh Ah")
    b = Board.parse("3s 4d 5h", "Ks Kd 4c 5c 6c", "Qs Qd Qc 7d 8s")
    live = score_chinese([a, b])
    forfeited = score_chinese([a, b], CHINESE, [True, False])
    assert not live.players[0].fouled and live.players[0].points > 0
    assert forfeited.players[0].points == 0 and forfeited.players[0].fouled
    assert forfeited.players[1].box_points == (2, 2, 2)


@pytest.mark.parametrize("simultaneous", [False, True])
def test_r6_3_r4_2_the_one_player_without_fantasyland_plays_both_boards_hidden_and_at_once(
    simultaneous: bool,
) -> None:
    """R6.3 counts players: with double boxes (R4.2), Alice's two boards in Fantasyland and
    Bob's two boards ordinary is "every player but one in Fantasyland", so everybody plays at
    once and Bob's boards stay hidden until showdown. Bob's two boards were taken for two
    ordinary players: they played every street first and in the open, and Alice arranged
    after seeing them (26 of Bob's cards), as no heads-up Fantasyland player ever does."""
    opts = replace(
        RuleOptions.preset("ofc", heads_up_double_boxes=True), simultaneous_streets=simultaneous
    )
    seats, owners = double_box_seats((0, 1))  # Alice: boards 0 and 1; Bob: 10 and 11
    setup = HandSetup.deal(opts, seats, 11, {0: 13, 1: 13}, seed=23, owners=owners)
    hand = Hand(setup)
    assert set(hand.to_act) == {0, 1, 10, 11}  # everybody at once
    for _ in range(9):  # Bob's nine streets on both boards, Alice not arranged yet
        for seat in (10, 11):
            play_turn(hand, seat)
        group = hand.view(None)
        assert group.seat(10).board.count == group.seat(11).board.count == 0
        assert group.seat(10).closed and group.seat(11).closed
        assert hand.view(0).public_cards() == set()  # Alice sees none of Bob's cards
    assert hand.board_of(10).is_complete and hand.board_of(11).is_complete
    assert not hand.is_over and set(hand.to_act) == {0, 1}
    play_out(hand)
    assert hand.result is not None and len(hand.result.pairs) == 4


def test_r6_3_r4_2_one_board_of_each_player_ordinary_still_plays_first_in_the_open() -> None:
    """R6.3 with double boxes: when both players have an ordinary board (Alice's board 1,
    Bob's board 10), those play first and in the open, then the Fantasyland boards."""
    opts = RuleOptions.preset("ofc", heads_up_double_boxes=True)
    seats, owners = double_box_seats((0, 1))
    hand = Hand(HandSetup.deal(opts, seats, 11, {0: 13, 11: 13}, seed=23, owners=owners))
    assert hand.to_act == (1,)
    play_turn(hand, 1)
    assert hand.to_act == (10,)
    assert hand.view(None).seat(1).board.count == 5  # in the open


def test_r4_1_street_one_is_dealt_to_everyone_at_once_and_held_until_each_turn() -> None:
    """R4.1 (seed 001: the button deals everyone five cards face down, then each player in
    turn opens and places them): a seat waiting for its turn holds its own five cards, to
    look at, not to place; the table never sees them before they are placed. Once its turn
    comes they are the cards it places; later streets of one card, Pineapple (street 1 dealt
    face up, R3.3), ``simultaneous_streets`` and a Fantasyland seat (dealt its 13 in its
    turn, R6.2) hold nothing in waiting."""
    hand = Hand(HandSetup.deal(OFC, (0, 1, 2), 2, seed=7))
    held = {s: hand.waiting_cards(s) for s in (1, 2)}
    assert hand.to_act == (0,) and hand.waiting_cards(0) == ()
    assert all(len(c) == 5 for c in held.values()) and not set(held[1]) & set(held[2])
    assert not set(hand.current_cards(0)) & (set(held[1]) | set(held[2]))
    for s in (1, 2):
        me = hand.view(s).me
        assert me is not None and me.waiting == held[s] and me.cards == () and me.to_place == ()
        assert hand.discards_needed(s) == 0 and not hand.can(Place(s, held[s][0], Box.BOTTOM))
    for viewer in (None, 0, 1, 2):
        shown = hand.view(viewer).public_cards()
        assert not shown & (set(held[1]) | set(held[2]))
        assert hand.view(viewer).seat(2).face_up == ()
    assert hand.view(0).me is not None and hand.view(0).me.waiting == ()
    assert not hand.public_cards() & (set(held[1]) | set(held[2]))
    play_turn(hand, 0)
    assert hand.to_act == (1,) and hand.current_cards(1) == held[1]
    assert hand.waiting_cards(1) == () and hand.waiting_cards(2) == held[2]
    play_turn(hand, 1)
    play_turn(hand, 2)
    assert all(hand.waiting_cards(s) == () for s in (0, 1, 2))  # street 2: one card each
    play_turn(hand, 0)
    assert hand.to_act == (1,) and hand.waiting_cards(2) == ()
    pineapple = Hand(HandSetup.deal(RuleOptions(), (0, 1, 2), 2, seed=7))
    assert pineapple.to_act == (0,) and pineapple.waiting_cards(1) == ()
    both = Hand(HandSetup.deal(replace(OFC, simultaneous_streets=True), (0, 1, 2), 2, seed=7))
    assert all(both.waiting_cards(s) == () for s in (0, 1, 2))
    fl = Hand(HandSetup.deal(OFC, (0, 1, 2), 2, {2: 13}, seed=7))
    assert fl.to_act == (0,) and len(fl.waiting_cards(1)) == 5 and fl.waiting_cards(2) == ()
