"""The built-in strategy, rule options, the clock and hand names (R3–R8)."""

from __future__ import annotations

import random

import pytest

from game.board import BOXES, Board, Box, assess_board
from game.cards import DECK, parse_cards
from game.clock import SeatClock
from game.errors import OptionError
from game.evaluator import evaluate
from game.names import hand_name
from game.options import GameKind, RuleOptions, Scoring
from game.strategy import arrange, complete_street


def test_r6_2_arrange_never_fouls_and_keeps_thirteen() -> None:
    rng = random.Random(3)
    opts = RuleOptions()
    for n in (13, 14, 15, 17):
        for _ in range(15):
            cards = rng.sample(DECK, n)
            placements = arrange(cards, opts)
            assert [c for c, _ in placements] == cards
            rows = {b: tuple(c for c, x in placements if x is b) for b in BOXES}
            board = Board(rows[Box.TOP], rows[Box.MIDDLE], rows[Box.BOTTOM])
            assert board.is_complete
            assert sum(1 for _, b in placements if b is None) == n - 13
            assert not assess_board(board, opts).fouled


def test_r6_4_arrange_prefers_staying_in_fantasyland() -> None:
    # four nines: trips on top (17) over a 2–6 straight (4) and a 9–K straight (2) beats
    # quads on the bottom, and either way the board stays in Fantasyland (R6.4)
    cards = parse_cards("9s 9h 9d 9c 2s 4d 6h 8c Ts Qd Kh 3c 5d Jc")
    placements = arrange(cards, RuleOptions())
    rows = {b: tuple(c for c, x in placements if x is b) for b in BOXES}
    board = Board(rows[Box.TOP], rows[Box.MIDDLE], rows[Box.BOTTOM])
    a = assess_board(board, RuleOptions(), in_fantasyland=True)
    assert not a.fouled and a.fantasyland_cards == 14
    assert a.royalties == (17, 4, 2)


def test_complete_street_returns_a_legal_street() -> None:
    board = Board(parse_cards("2s"), parse_cards("Kh Kd"), parse_cards("As Ad Ac"))
    cards = parse_cards("Ks 7c 3d")
    moves = complete_street(board, cards, 1)
    assert sorted(c.index for c, _ in moves) == sorted(c.index for c in cards)
    assert sum(1 for _, b in moves if b is None) == 1
    assert complete_street(Board(), parse_cards("As Ks Qs Js Ts"), 0)  # street 1


def test_r3_r8_options_presets_and_validation() -> None:
    pine = RuleOptions.preset("pineapple")
    ofc = RuleOptions.preset("ofc")
    chinese = RuleOptions.preset("chinese")
    assert pine == RuleOptions()
    assert pine.scoring is Scoring.ONE_SIX and not pine.stay_on_full_house_middle
    assert ofc.scoring is Scoring.TWO_PER_ROW and ofc.stay_on_full_house_middle
    assert chinese.game is GameKind.CHINESE and chinese.target_points == 51
    assert (pine.max_players, ofc.max_players) == (3, 4)
    assert pine.hand_seconds == 120 and pine.time_bank_seconds == 60
    assert pine.fantasyland_seconds == 180 and pine.reveal_pause_seconds == 3
    assert RuleOptions.from_json(ofc.to_json()) == ofc
    assert RuleOptions.preset("ofc", scoring="one_six").scoring is Scoring.ONE_SIX
    assert RuleOptions.preset("pineapple", simultaneous_streets="on").simultaneous_streets
    for bad in (
        {"nope": 1},
        {"scoring": "two"},
        {"hand_seconds": -5},
        {"fantasyland": "maybe"},
        {"target_points": 0},
        {"kush_per_point": 1.5},
    ):
        with pytest.raises(OptionError):
            RuleOptions.preset("pineapple", **bad)


def test_r8_5_clock_spends_budget_then_bank() -> None:
    clock = SeatClock(120, 60).start(1000.0)
    assert clock.deadline() == 1180.0
    assert clock.left(1100.0) == (20.0, 60.0)
    assert clock.left(1150.0) == (0.0, 30.0) and clock.in_bank(1150.0)
    stopped = clock.stop(1150.0)
    assert (stopped.budget, stopped.bank, stopped.running) == (0.0, 30.0, False)
    assert not stopped.expired(99999.0)
    assert stopped.start(2000.0).expired(2030.0)
    assert stopped.with_budget(120).bank == 30.0  # the bank does not refill (R8.5)
    assert stopped.refill_bank(45, cap=60).bank == 60
    assert SeatClock.from_json(clock.to_json()) == clock


def test_r8_5_r4_2_a_fantasyland_arrangement_after_an_ordinary_board_has_its_own_budget() -> None:
    """The player's ordinary board used 150 s of the hand's 120 (30 of the bank); their
    Fantasyland board's turn comes: a fresh 180 s of its own, the bank as left, still
    running; the flag survives stopping and JSON (a restart), and old JSON reads unflagged."""
    clock = SeatClock(120, 60).start(1000.0)
    fl = clock.arrangement(180, 1150.0)
    assert fl.fantasyland and fl.running and fl.left(1150.0) == (180.0, 30.0)
    assert fl.deadline() == 1150.0 + 180 + 30
    assert fl.stop(1200.0).fantasyland and fl.stop(1200.0).left(0) == (130.0, 30.0)
    assert SeatClock.from_json(fl.to_json()) == fl
    waiting = SeatClock(120, 60).arrangement(180, 1150.0)  # (not running: it stays so)
    assert not waiting.running and waiting.left(1150.0) == (180.0, 60.0)
    assert "fantasyland" not in clock.to_json()
    old = {"budget": 180.0, "bank": 60.0, "running_since": None}
    assert not SeatClock.from_json(old).fantasyland


@pytest.mark.parametrize(
    ("cards", "en", "ru"),
    [
        # (fixnu39: a full house said as Russian players say it, jacks «вальты»)
        ("Kh Kd Kc 2s 2d", "full house, kings over twos", "фулл-хаус из королей и двоек"),
        ("8s 8h 8d Jc Jd", "full house, eights over jacks", "фулл-хаус из восьмёрок и вальтов"),
        ("Js Jh 5d", "pair of jacks", "пара вальтов"),
        ("Jc Jd 4s 4h 9c", "two pair, jacks and fours", "две пары, вальты и четвёрки"),
        ("7s 8h 9d Tc Js", "straight, jack high", "стрит до валета"),
        ("Qs Qh 5d", "pair of queens", "пара дам"),
        ("As 2d 3c 4h 5s", "straight, five high", "стрит до пятёрки"),
        ("7s 5h 4d", "seven high", "старшая семёрка"),
        ("Ts Js Qs Ks As", "royal flush", "роял-флеш"),
        ("9s 9h 9d 9c 2s", "four of a kind, nines", "каре девяток"),
        ("As Ah Ad", "three of a kind, aces", "сет тузов"),
    ],
)
def test_hand_names_in_both_languages(cards: str, en: str, ru: str) -> None:
    s = evaluate(parse_cards(cards))
    assert hand_name(s, "en") == en
    assert hand_name(s, "ru") == ru


def test_lookahead_fouls_far_less_than_the_fast_heuristic() -> None:
    """The play-out strategy behind "arrange for me" and safe_autoplay (R8.5)."""
    from game.simulate import simulate

    def foul_rate(policy: str) -> float:
        recs = list(simulate(RuleOptions(), 3, 24, seed=12, policy=policy))
        return sum(s["fouled"] for r in recs for s in r["seats"]) / (3 * len(recs))

    fast, careful = foul_rate("strategy"), foul_rate("lookahead")
    assert careful <= 0.05
    assert careful < fast
