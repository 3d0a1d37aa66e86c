"""Replays and per-hand statistics read back from stored hands (game/history.py, issue 12)."""

from __future__ import annotations

import json

import pytest

from game.board import Board, Box
from game.cards import parse_cards
from game.hand import Hand, HandSetup, double_box_seats
from game.history import SeatStats, replay_frames, seat_stats, settlement_kind
from game.options import RuleOptions
from game.simulate import play_turn
from tests.game.helpers import PROGRESSIVE, deal, place_all

# street by street, seat 0 then seat 1 (button 1): see scripted_hand
DECK = (
    "As Ks Qs Js Ts  2c 3c 4c 5c 7d  "
    "Ah Kh 2d  3d 4d 5d  "
    "Ad Kd 6h  3h 4h 6d  "
    "Qh Qd 7s  3s 4s 8d  "
    "Qc 9s 8s  9c Tc 9h"
)
DISCARDS = {0: parse_cards("2d 6h 7s 8s"), 1: parse_cards("5d 6d 8d 9h")}


def scripted_hand() -> Hand:
    """Seat 0: royal flush bottom, AAKKQ middle, QQ9 top (32 royalties, Fantasyland, R6.1);
    seat 1 fouls (full house middle over a high-card bottom, R2.3)."""
    hand = deal(DECK, seats=(0, 1), button=1)
    place_all(hand, 0, "b b b b b")
    place_all(hand, 1, "b b b b b")
    for layout0, layout1 in [
        ("m m x", "m m x"),
        ("m m x", "m m x"),
        ("m t x", "m t x"),
        ("t t x", "t t x"),
    ]:
        place_all(hand, 0, layout0)
        place_all(hand, 1, layout1)
    assert hand.is_over
    return hand


def stored(hand: Hand) -> dict[str, object]:
    """The hand as storage keeps it (through JSON text)."""
    loaded: dict[str, object] = json.loads(hand.dumps())
    return loaded


def test_replay_shows_each_street_of_both_boards_R3_2() -> None:
    frames = replay_frames(stored(scripted_hand()), viewer=0)
    assert [f.street for f in frames] == [1, 2, 3, 4, 5]
    assert [f.final for f in frames] == [False, False, False, False, True]
    first = {b.seat: b.board for b in frames[0].boards}
    assert first[0] == Board((), (), parse_cards("As Ks Qs Js Ts"))
    assert first[1] == Board((), (), parse_cards("2c 3c 4c 5c 7d"))
    third = {b.seat: b.board for b in frames[2].boards}
    assert third[0].middle == parse_cards("Ah Kh Ad Kd")
    assert third[1].middle == parse_cards("3d 4d 3h 4h")
    last = {b.seat: b.board for b in frames[-1].boards}
    assert last[0] == Board(parse_cards("Qd Qc 9s"), parse_cards("Ah Kh Ad Kd Qh"),
                            parse_cards("As Ks Qs Js Ts"))  # fmt: skip
    assert [b.board.count for f in frames for b in f.boards] == [
        5, 5, 7, 7, 9, 9, 11, 11, 13, 13,
    ]  # fmt: skip


@pytest.mark.parametrize("viewer", [0, 1])
def test_no_frame_ever_holds_another_players_discard_R3_3(viewer: int) -> None:
    frames = replay_frames(stored(scripted_hand()), viewer=viewer)
    other = set(DISCARDS[1 - viewer])
    for f in frames:
        shown = {c for b in f.boards for c in b.board.cards()} | set(f.discards)
        assert not shown & other, f.street
    # the viewer's own discards, one more per street from street 2
    assert [f.discards for f in frames] == [DISCARDS[viewer][:k] for k in range(5)]


def test_without_a_viewer_no_discard_at_all_R3_3() -> None:
    frames = replay_frames(stored(scripted_hand()))
    every = set(DISCARDS[0]) | set(DISCARDS[1])
    for f in frames:
        assert f.discards == ()
        assert not {c for b in f.boards for c in b.board.cards()} & every


def test_fantasyland_board_is_hidden_until_the_showdown_frame_R6_3() -> None:
    hand = deal("", seats=(0, 1, 2), button=2, fantasyland={0: 14})
    while not hand.is_over:
        hand.timeout(hand.to_act[0])
    frames = replay_frames(stored(hand), viewer=1)
    assert len(frames) == 5
    for f in frames[:-1]:
        fl = next(b for b in f.boards if b.seat == 0)
        assert fl.hidden and fl.fantasyland and fl.board.count == 0
    fl = next(b for b in frames[-1].boards if b.seat == 0)
    assert not fl.hidden and fl.board == hand.result.seat(0).board  # type: ignore[union-attr]
    # the Fantasyland player's own discard (14 cards, 13 kept) only for them
    assert len(replay_frames(stored(hand), viewer=0)[-1].discards) == 1
    assert frames[-1].discards == hand.discards_of(1)


def test_the_players_own_fantasyland_board_is_never_hidden_from_them_R6_3() -> None:
    """R6.3: the Fantasyland player arranges after the others' streets, hidden from the
    others until showdown; their own replay showed it "hidden" on streets 1–4. It now shows
    them the 14 cards they were dealt until it is set, then the board; the others still see
    it hidden."""
    hand = deal("", seats=(0, 1, 2), button=2, fantasyland={0: 14})
    while not hand.is_over:
        hand.timeout(hand.to_act[0])
    result = hand.result
    assert result is not None
    board = result.seat(0).board
    dealt = sorted((*board.cards(), *hand.discards_of(0)), key=lambda c: (-c.rank, c.index))
    frames = replay_frames(stored(hand), viewer=0)
    for f in frames[:-1]:  # set after the others' five streets: its cards, unplaced
        fl = next(b for b in f.boards if b.seat == 0)
        assert not fl.hidden and fl.fantasyland and fl.board.count == 0
        assert list(fl.dealt) == dealt and len(fl.dealt) == 14
    fl = next(b for b in frames[-1].boards if b.seat == 0)
    assert not fl.hidden and fl.dealt == () and fl.board == board
    others = replay_frames(stored(hand), viewer=1)
    for f in others[:-1]:
        fl = next(b for b in f.boards if b.seat == 0)
        assert fl.hidden and fl.dealt == () and fl.board.count == 0


def test_the_one_ordinary_board_among_fantasyland_ones_is_hidden_from_the_others_R6_3() -> None:
    """R6.3: every player but one in Fantasyland: the ordinary player's streets are played
    hidden until showdown; the replay showed the Fantasyland players that board street by
    street (which card went where, and when, never seen at the table). It is hidden from them
    until the showdown frame now, and shown to its own player street by street."""
    hand = deal("", seats=(0, 1, 2), button=2, fantasyland={0: 14, 1: 15}, options=PROGRESSIVE)
    assert hand.normal == (2,) and not hand.open_play
    while not hand.is_over:
        hand.timeout(hand.to_act[0])
    board = hand.result.seat(2).board  # type: ignore[union-attr]
    for viewer in (0, 1, None):
        frames = replay_frames(stored(hand), viewer=viewer)
        assert len(frames) == 5
        for f in frames[:-1]:
            ordinary = next(b for b in f.boards if b.seat == 2)
            assert ordinary.hidden and not ordinary.fantasyland and ordinary.board.count == 0
        last = next(b for b in frames[-1].boards if b.seat == 2)
        assert not last.hidden and last.board == board
    own = replay_frames(stored(hand), viewer=2)
    counts = [next(b for b in f.boards if b.seat == 2).board.count for f in own]
    assert counts == [5, 7, 9, 11, 13]
    assert not any(b.hidden for f in own for b in f.boards if b.seat == 2)


def test_double_boxes_show_both_own_boards_discard_free_R4_2() -> None:
    options = RuleOptions.preset("ofc", heads_up_double_boxes=True)
    seats, owners = double_box_seats([0, 1])
    hand = Hand(HandSetup.deal(options, seats, 11, seed=3, owners=owners))
    while not hand.is_over:
        hand.timeout(hand.to_act[0])
    frames = replay_frames(stored(hand), viewer=1)
    assert len(frames) == 9  # 5 cards, then eight streets of one (R4.1)
    assert {b.seat: b.owner for b in frames[0].boards} == {0: 0, 1: 0, 10: 1, 11: 1}
    assert all(f.discards == () for f in frames)  # classic OFC discards nothing
    assert [b.board.count for b in frames[-1].boards] == [13, 13, 13, 13]


def test_chinese_poker_has_one_frame_R4_5() -> None:
    hand = deal("", seats=(0, 1), button=1, options=RuleOptions.preset("chinese"))
    for s in (0, 1):
        hand.timeout(s)
    frames = replay_frames(stored(hand), viewer=0)
    assert len(frames) == 1 and frames[0].final
    assert all(b.board.count == 13 and not b.hidden for b in frames[0].boards)


def test_chinese_poker_boxes_a_claim_left_unrevealed_stay_hidden_but_the_viewers_R7_5() -> None:
    hand = deal("", seats=(0, 1, 2), button=2, options=RuleOptions.preset("chinese"))
    for s in (0, 1, 2):
        hand.timeout(s)
    assert hand.result is not None
    for revealed, hidden in ((1, (Box.MIDDLE, Box.TOP)), (2, (Box.TOP,))):
        [frame] = replay_frames(stored(hand), viewer=1, revealed=revealed)
        for b in frame.boards:
            full = hand.result.seat(b.seat).board
            if b.seat == 1:  # the watcher's own board, whole
                assert b.board == full and b.unrevealed == ()
                continue
            assert b.unrevealed == hidden
            for box in (Box.BOTTOM, Box.MIDDLE, Box.TOP):
                assert b.board.box(box) == (() if box in hidden else full.box(box))
    [frame] = replay_frames(stored(hand), viewer=None, revealed=1)
    assert all(b.board.count == 5 for b in frame.boards)


def test_seat_stats_of_the_scripted_hand_checked_by_hand_R5_R6() -> None:
    hand = scripted_hand()
    result = hand.result.to_json()  # type: ignore[union-attr]
    stats = seat_stats(stored(hand), result)
    # seat 0: 6 for the scoop of a fouled board (R5.4) + 25 (royal flush) + 7 (QQ) = 38
    assert stats[0].points == 38 and stats[1].points == -38
    assert (stats[0].boards, stats[0].fouls, stats[0].royalties, stats[0].scoops) == (1, 0, 32, 1)
    assert (stats[1].boards, stats[1].fouls, stats[1].royalties, stats[1].scoops) == (1, 1, 0, 0)
    assert (stats[0].fl_chances, stats[0].fl_entered, stats[0].fl_played) == (1, 1, 0)
    assert (stats[1].fl_chances, stats[1].fl_entered, stats[1].fl_stayed) == (1, 0, 0)


def test_settlements_that_are_not_hands_have_no_seat_stats() -> None:
    for marker in ("round_end", "game_end", "tournament_end"):
        assert settlement_kind({marker: True}) == marker
        assert seat_stats({marker: True}, {marker: True, "kush": {"0": 5}}) == {}
    assert settlement_kind({"seats": []}) == "hand"


def test_chinese_points_are_the_counted_ones_and_no_scoop_R7_5() -> None:
    hand = deal("", seats=(0, 1), button=1, options=RuleOptions.preset("chinese"))
    for s in (0, 1):
        hand.timeout(s)
    result = hand.result.to_json()  # type: ignore[union-attr]
    result["counted"] = {"0": 4, "1": -4}
    stats = seat_stats(stored(hand), result)
    assert (stats[0].points, stats[1].points) == (4, -4)
    assert stats[0].scoops == stats[1].scoops == 0
    assert stats[0].fl_chances == 0


def test_stored_scoops_match_scoops_counted_again_from_the_boards_R5_2() -> None:
    """Results stored before they kept scoops get them counted from their boards: the same
    figures, on hands with fouls, Fantasyland and three players."""
    seen = 0
    for i in range(40):
        fl = {0: 14} if i % 4 == 0 else {}
        hand = Hand(HandSetup.deal(RuleOptions(), (0, 1, 2), i % 3, fl, seed=f"scoop-{i}"))
        while not hand.is_over:
            play_turn(hand, hand.to_act[0])
        assert hand.result is not None
        result = hand.result.to_json()
        older = {**result, "seats": [{k: v for k, v in r.items() if k != "scoops"}
                                      for r in result["seats"]]}  # fmt: skip
        assert seat_stats(stored(hand), older) == seat_stats(stored(hand), result)
        seen += sum(s.scoops for s in seat_stats(stored(hand), result).values())
    assert seen > 0
    assert scripted_hand().result.scoops == {0: 1, 1: 0}  # type: ignore[union-attr]


def test_chinese_bonuses_are_counted_apart_from_royalties_R7_2() -> None:
    """Alice: AAA top (10), KKK88 middle (full house, 1), 2-6♣ bottom (straight flush, 4):
    15 in strength bonuses, part of her 22 points (R7.2), no royalties (R5.6): /stats counted
    them in "royalties/hand" with the open-face games'."""
    hand = deal(
        "As Ah Ad Kd Kc Ks 8h 8c 2c 3c 4c 5c 6c  Jc Td 4s 9c 9d 6s 6h 2h Qs Qd Qh 7c 8d",
        seats=(0, 1),
        button=1,
        options=RuleOptions.preset("chinese"),
    )
    for seat in (0, 1):
        place_all(hand, seat, "t t t m m m m m b b b b b")
    stats = seat_stats(stored(hand), hand.result.to_json())  # type: ignore[union-attr]
    assert stats[0] == SeatStats(boards=1, points=22, bonuses=15, bonus_boards=1)
    assert stats[1] == SeatStats(boards=1, points=0, bonuses=0, bonus_boards=1)
    # an open-face hand has no bonus: its royalties are royalties
    ofc = seat_stats(stored(scripted_hand()), scripted_hand().result.to_json())  # type: ignore[union-attr]
    assert (ofc[0].royalties, ofc[0].bonuses, ofc[0].bonus_boards) == (32, 0, 0)
