"""Tournaments (R8.7): chips, levels, knock-outs, places, payouts, the ``tournament`` command.

Properties (hypothesis) run random tournaments and check them against an independent model of
R8.7's places and prizes; worked examples pin exact values.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cli import main
from game.errors import GameError, OptionError, SettlementError
from game.options import GameKind
from game.tournament import (
    DEFAULT_SCHEDULE,
    AlreadyRegistered,
    HandInProgress,
    KnockOut,
    LevelError,
    NoHandDealt,
    NotEnoughPlayers,
    NotInPlay,
    NotRegistered,
    NotStarted,
    RegistrationClosed,
    Tournament,
    TournamentConfig,
    TournamentError,
    TournamentFull,
    TournamentOver,
    TournamentPhase,
)

ROOT = Path(__file__).resolve().parents[2]


def started(n: int, game: str = "ofc", **config: Any) -> Tournament:
    t = Tournament(TournamentConfig.create(game, **config))
    for p in range(n):
        t.register(100 + p)
    if t.phase is TournamentPhase.REGISTERING:
        t.start()
    return t


def hand(t: Tournament, pairs: list[tuple[int, int, int]], level: int | None = None) -> Any:
    t.deal(level)
    return t.settle(pairs)


# -- configuration and levels ----------------------------------------------------------------


def test_r8_7_default_schedule_then_plus_100_per_level() -> None:
    cfg = TournamentConfig()
    assert [cfg.chips_per_point(level) for level in range(1, 14)] == [
        10, 15, 20, 30, 40, 60, 80, 100, 150, 200, 300, 400, 500,
    ]  # fmt: skip
    assert cfg.starting_chips == 1000 and cfg.level_minutes == 5 and cfg.max_seats == 3
    assert TournamentConfig(GameKind.OFC).max_seats == 4
    assert TournamentConfig(GameKind.CHINESE).max_seats == 4
    with pytest.raises(LevelError):
        cfg.chips_per_point(0)


@pytest.mark.parametrize(
    "values",
    [
        {"payouts": [60, 30]},  # not 100 %
        {"payouts": [30, 70]},  # a worse place paid more
        {"schedule": [10, 5]},  # chips per point falling
        {"schedule": []},
        {"schedule_step": 0},
        {"level_minutes": 0},
        {"starting_chips": 0},
        {"buy_in": -1},
        {"seats": 4},  # Pineapple seats 3
        {"seats": 1},
        {"no_such": 1},
        {"payouts": "70,30"},
    ],
)
def test_bad_settings_are_refused(values: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        TournamentConfig.create("pineapple", **values)


def test_levels_follow_the_clock_from_the_start_and_never_fall() -> None:
    t = Tournament(TournamentConfig(level_minutes=5))
    assert t.level_at(123.0) == 1 and t.next_level_at(123.0) is None
    t.register(1)
    t.register(2)
    t.start(now=1000.0)
    assert [t.level_at(x) for x in (900.0, 1000.0, 1299.9, 1300.0, 1000.0 + 3600)] == [
        1, 1, 1, 2, 13,
    ]  # fmt: skip
    assert t.next_level_at(1000.0) == 1300.0 and t.next_level_at(1450.0) == 1600.0
    d = t.deal(t.level_at(1310.0))
    assert (d.hand, d.level, d.chips_per_point, d.seats) == (1, 2, 15, (0, 1))
    t.settle(())
    assert t.level_at(1000.0) == 2  # a clock that goes back does not lower the level
    with pytest.raises(LevelError):
        t.deal(1)
    assert not t.can_deal(0) and t.can_deal(2) and t.can_deal()


def test_r8_7_a_pause_moves_the_levels_to_come_and_never_lowers_one() -> None:
    """An outage of 3,600 s (the bot was down) is no tournament time: the levels to come
    begin an hour later; a pause before the start, or of no time, changes nothing."""
    t = Tournament(TournamentConfig(level_minutes=5))
    t.pause(3600.0)  # not started: no clock to stop
    t.register(1)
    t.register(2)
    t.start(now=1000.0)
    t.deal(t.level_at(1310.0))  # level 2 reached
    t.settle(())
    t.pause(0.0)
    t.pause(-5.0)
    assert t.started_at == 1000.0
    t.pause(3600.0)
    assert t.started_at == 4600.0
    assert t.level_at(4600.0 + 299) == 2  # level 2 was reached already: never lower
    assert t.level_at(4600.0 + 600) == 3 and t.next_level_at(4600.0 + 600) == 4600.0 + 900
    assert Tournament.from_json(t.to_json()).started_at == 4600.0


def test_a_hand_in_progress_finishes_at_its_level() -> None:
    t = started(2, "pineapple")
    t.deal(1)
    # the level rises while the hand is played; the settlement still uses level 1's 10 chips
    r = t.settle([(0, 1, 7)])
    assert (r.level, r.chips_per_point, t.chips) == (1, 10, {0: 1070, 1: 930})
    r = hand(t, [(0, 1, 7)], level=3)
    assert (r.chips_per_point, t.chips) == (20, {0: 1210, 1: 790})


# -- registration and start ------------------------------------------------------------------


def test_registration_pool_refund_and_auto_start_when_the_seats_are_full() -> None:
    t = Tournament(TournamentConfig(buy_in=50))
    r = t.register(7)
    assert (r.players, r.pool, r.started) == (1, 50, None)
    with pytest.raises(AlreadyRegistered):
        t.verify_register(7)
    with pytest.raises(NotEnoughPlayers):
        t.start()
    t.register(8)
    u = t.unregister(7)
    assert (u.players, u.pool, u.refund) == (1, 50, 50)
    with pytest.raises(NotRegistered):
        t.unregister(7)
    t.register(9)
    r = t.register(7, now=42.0)  # third seat of Pineapple: starts by itself
    assert r.started is not None and t.phase is TournamentPhase.RUNNING
    assert r.started.players == (8, 9, 7) and r.started.pool == 150
    assert r.started.payouts == (100,) and r.started.at == 42.0
    assert t.chips == {0: 1000, 1: 1000, 2: 1000} and t.seat_of(7) == 2
    with pytest.raises(RegistrationClosed):
        t.register(10)
    with pytest.raises(RegistrationClosed):
        t.unregister(8)
    with pytest.raises(NotStarted) as exc:
        t.start()
    assert exc.value.code == "tournament_started"


def test_full_and_default_payouts_by_players() -> None:
    t = Tournament(TournamentConfig(GameKind.OFC, seats=2))
    t.register(1)
    assert t.payouts == (100,)
    t.register(2)
    assert t.phase is TournamentPhase.RUNNING
    four = Tournament(TournamentConfig(GameKind.CHINESE))
    for p in range(3):
        four.register(p)
    assert four.payouts == (100,)
    four.register(3)
    assert four.payouts == (70, 30)
    with pytest.raises(RegistrationClosed):
        four.verify_register(9)
    full = Tournament(TournamentConfig(GameKind.OFC, seats=3))
    full.register(1)
    full.register(2)
    assert full.can_register(3) and not full.can_register(2)
    full.register(3)
    assert not full.can_register(4)
    lobby = Tournament(TournamentConfig(seats=2))
    lobby.register(1)
    lobby.verify_register(2)
    with pytest.raises(TournamentFull):
        lobby._s.players.append(2)  # simulate a full lobby that has not started
        lobby.verify_register(3)


def test_play_actions_before_the_start_and_after_the_end() -> None:
    t = Tournament()
    t.register(1)
    for call in (lambda: t.deal(), lambda: t.settle(()), lambda: t.leave(0)):
        with pytest.raises(NotStarted):
            call()
    t.register(2)
    t.start()
    t.leave(1)
    assert t.phase is TournamentPhase.FINISHED
    for call in (lambda: t.deal(), lambda: t.settle(()), lambda: t.leave(0)):
        with pytest.raises(TournamentOver):
            call()


# -- hands in chips --------------------------------------------------------------------------


def test_worked_example_three_players_r5_7_order_and_r8_4_cap() -> None:
    t = started(3, "pineapple", starting_chips=100, buy_in=10)
    r = hand(t, [(0, 1, 5), (0, 2, -3), (2, 1, 4)])
    assert t.chips == {0: 120, 1: 10, 2: 170}  # 0: +50 −30; 1: −50 −40; 2: +30 +40
    # seat 1 owes 12 points × 10 but has 10 chips; then owes 2 more to seat 2 with nothing left
    r = hand(t, [(0, 1, 12), (0, 2, -3), (2, 1, 2)])
    transfers = [(x.payer, x.payee, x.owed, x.amount) for x in r.settlement.transfers]
    assert transfers == [(1, 0, 120, 10), (0, 2, 30, 30), (1, 2, 20, 0)]
    assert t.chips == {0: 100, 2: 200} and sum(t.chips.values()) == 300
    (ko,) = r.knocked_out
    assert (ko.seat, ko.player, ko.place, ko.prize, ko.chips_before, ko.hand) == (
        1, 101, 3, 0, 10, 2,
    )  # fmt: skip
    assert r.finished is None and t.places == {1: 3}


def test_errors_are_typed_and_change_nothing() -> None:
    t = started(2, "pineapple")
    snapshot = t.to_json()
    with pytest.raises(NoHandDealt):
        t.settle([(0, 1, 1)])
    t.deal()
    with pytest.raises(HandInProgress):
        t.deal()
    for bad in ([(0, 5, 1)], [(0, 0, 1)], [(0, 1)], [(0, 1, 1.5)]):
        with pytest.raises(SettlementError):
            t.settle(bad)  # type: ignore[arg-type]
        assert not t.can_settle(bad)  # type: ignore[arg-type]
    with pytest.raises(NotInPlay):
        t.leave(2)
    t.settle(())
    assert t.to_json() == {**snapshot, "hands": 1}
    assert isinstance(NotInPlay("x"), TournamentError) and issubclass(TournamentError, GameError)


def test_chinese_poker_settles_a_game_at_the_level_of_its_last_hand() -> None:
    t = started(2, "chinese")
    t.deal(1)
    t.deal(2)  # hands of one game to the target follow one another without a settlement
    assert t.can_settle([])  # at any moment
    r = t.deal(4)
    assert r.hand == 3
    s = t.settle([(0, 1, 20)])
    assert (s.hand, s.level, s.chips_per_point) == (3, 4, 30)
    assert t.chips == {0: 1600, 1: 400}
    assert t.settle([(0, 1, -5)]).chips_per_point == 30  # another game ended, same level
    assert t.chips == {0: 1450, 1: 550}


# -- knock-outs, places and prizes ------------------------------------------------------------


def test_two_out_in_one_hand_place_by_chips_before_the_hand() -> None:
    t = started(4, "ofc", buy_in=33, payouts=[50, 30, 20], starting_chips=100)
    hand(t, [(0, 1, 2), (0, 2, 5)])
    assert t.chips == {0: 170, 1: 80, 2: 50, 3: 100}
    r = hand(t, [(3, 1, 9), (3, 2, 9)])
    # seat 1 had more chips before the hand: 3rd; seat 2: 4th. Pool 132: 66 / 39 / 26 / 0
    assert [(k.seat, k.place, k.prize) for k in r.knocked_out] == [(1, 3, 26), (2, 4, 0)]
    r = hand(t, [(3, 0, 30)])
    assert r.finished is not None
    assert [(s.seat, s.place, s.prize) for s in r.finished.standings] == [
        (3, 1, 67), (0, 2, 39), (1, 3, 26), (2, 4, 0),
    ]  # fmt: skip
    assert sum(t.prizes.values()) == 132 and t.chips == {3: 400} and t.winner == 3


def test_r8_7_place_prizes_for_the_players_there_now() -> None:
    """What each place wins with the players registered now (the lobby's line): the places
    beyond them, and the rounding, go to the winner; places that win nothing are left off."""
    t = Tournament(TournamentConfig.create("ofc", buy_in=33, payouts=[50, 30, 20]))
    assert t.place_prizes() == ()
    t.register(100)
    assert t.place_prizes() == (33,)
    t.register(101)  # pool 66: the 20 % of a third place nobody takes is the winner's
    assert t.place_prizes() == (66 - 19, 19)
    t.register(102)  # pool 99: 29 / 19, the winner the rest (51, not ⌊49.5⌋)
    assert t.place_prizes() == (51, 29, 19)
    t.register(103)  # pool 132, as paid at the end in the test above; the table is full
    assert t.phase is TournamentPhase.RUNNING and t.place_prizes() == (67, 39, 26)
    # the default payouts: winner takes all up to 3 players, 70 / 30 with 4 (R8.7)
    d = Tournament(TournamentConfig.create("ofc", buy_in=100))
    for p in range(3):
        d.register(p)
    assert d.place_prizes() == (300,)
    d.register(3)
    assert d.phase is TournamentPhase.RUNNING and d.place_prizes() == (280, 120)
    free = Tournament(TournamentConfig.create("ofc", buy_in=0))
    free.register(1)
    free.register(2)
    assert free.place_prizes() == (0,)


def test_equal_chips_share_the_place_and_split_its_prize_the_winner_gets_the_rest() -> None:
    t = started(4, "ofc", buy_in=33, payouts=[50, 30, 20], starting_chips=100)
    r = hand(t, [(0, 1, 10), (3, 2, 10)])
    # both had 100 before: they share 3rd place and the 26 + 0 kush of places 3 and 4
    assert [(k.seat, k.place, k.prize) for k in r.knocked_out] == [(1, 3, 13), (2, 3, 13)]
    assert t.places == {1: 3, 2: 3}
    r = hand(t, [(0, 3, 20)])
    assert r.finished is not None
    assert r.finished.prizes == {0: 132 - 39 - 13 - 13, 3: 39, 1: 13, 2: 13}
    # three players, two out with equal chips in one hand: they share 2nd (70 + 30 of 100 → 50)
    t = started(3, "pineapple", buy_in=100, payouts=[40, 35, 25], starting_chips=100)
    r = hand(t, [(0, 1, 10), (0, 2, 10)])
    assert [(k.seat, k.place, k.prize) for k in r.knocked_out] == [(1, 2, 90), (2, 2, 90)]
    assert r.finished is not None and r.finished.prizes == {0: 120, 1: 90, 2: 90}


def test_leaving_knocks_out_at_once_and_the_chips_leave_play() -> None:
    t = started(4, "ofc", buy_in=10)  # 70 / 30 of 40
    left = t.leave(2)
    assert (left.knock_out.place, left.knock_out.prize, left.knock_out.left) == (4, 0, True)
    assert left.chips_removed == 1000 and t.chips_removed == 1000 and t.chips_in_play == 3000
    assert t.in_play == (0, 1, 3)
    t.deal()
    t.leave(0)  # mid-hand: their points in this hand are dropped
    r = t.settle([(0, 1, 50), (1, 3, 20)])
    assert t.chips == {1: 1200, 3: 800} and r.knocked_out == ()
    left = t.leave(3)
    assert left.finished is not None and left.knock_out.place == 2
    assert left.finished.prizes == {1: 28, 3: 12, 0: 0, 2: 0}
    assert t.chips == {1: 1200} and t.chips_in_play + t.chips_removed == 4000


def test_json_round_trip_in_every_phase() -> None:
    t = Tournament(TournamentConfig.create("chinese", payouts=[60, 40], level_minutes=0.5))
    assert Tournament.from_json(json.loads(json.dumps(t.to_json()))) == t
    t.register(5)
    t.register(6)
    t.start(now=10.0)
    t.deal(2)
    copy = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert copy == t and copy.hand_open and copy.level == 2 and copy.started_at == 10.0
    assert copy.settle([(0, 1, 100)]).finished is not None
    assert copy.finished == Tournament.from_json(copy.to_json()).finished
    assert copy.knocked_out[0] == KnockOut.from_json(copy.knocked_out[0].to_json())
    with pytest.raises(TournamentError):
        Tournament.from_json({"config": {}, "phase": "nope", "players": []})


# -- properties ------------------------------------------------------------------------------


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Tournament, list[Any]]:
    game = draw(st.sampled_from(["pineapple", "ofc", "chinese"]))
    top = 3 if game == "pineapple" else 4
    n = draw(st.integers(2, top))
    schedule = sorted(draw(st.lists(st.integers(1, 20), min_size=1, max_size=4)))
    payouts = draw(
        st.none()
        | st.sampled_from([[100], [70, 30], [50, 30, 20], [40, 30, 20, 10], [50, 25, 25, 0]])
    )
    config = TournamentConfig.create(
        game,
        buy_in=draw(st.integers(0, 37)),
        starting_chips=draw(st.integers(1, 60)),
        schedule=schedule,
        schedule_step=draw(st.integers(1, 5)),
        payouts=payouts,
    )
    t = Tournament(config)
    for p in range(n):
        t.register(p)
    if t.phase is TournamentPhase.REGISTERING:
        t.start()
    steps: list[Any] = []
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(["hand", "hand", "hand", "leave"]))
        if kind == "leave":
            steps.append(("leave", draw(st.integers(0, n - 1))))
        else:
            pairs = [
                (a, b, draw(st.integers(-12, 12)))
                for a in range(n)
                for b in range(a + 1, n)
                if draw(st.booleans())
            ]
            steps.append(("hand", draw(st.integers(0, 1)), draw(st.permutations(pairs))))
    return t, steps


def model_prizes(pool: int, payouts: tuple[int, ...], place: int, shared: int) -> int:
    table = [pool * p // 100 for p in payouts] + [0] * 4
    return sum(table[place - 1 : place - 1 + shared]) // shared


def check_step(t: Tournament, before: dict[int, int], record: Any, total: int) -> None:
    """Conservation, positive stacks, and R8.7's places/prizes against a direct model."""
    assert sum(t.chips.values()) + t.chips_removed == total
    assert all(c > 0 for c in t.chips.values())
    knocked = record.knocked_out
    if knocked:
        open_worst = len(before)
        k = len(knocked)
        for ko in knocked:
            better = sum(1 for x in knocked if x.chips_before > ko.chips_before)
            shared = sum(1 for x in knocked if x.chips_before == ko.chips_before)
            assert ko.place == open_worst - k + 1 + better
            assert ko.chips_before == before[ko.seat]
            assert ko.prize == model_prizes(t.pool, t.payouts, ko.place, shared)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_property_chips_conserved_levels_never_fall_r8_7_places_and_payouts(
    case: tuple[Tournament, list[Any]],
) -> None:
    t, steps = case
    n = len(t.players)
    total = n * t.config.starting_chips
    last_cpp = 0

    def play(pairs: list[tuple[int, int, int]], level: int) -> None:
        nonlocal last_cpp
        before = t.chips
        d = t.deal(level)
        assert d.chips_per_point >= last_cpp
        last_cpp = d.chips_per_point
        r = t.settle(pairs)
        assert r.chips_per_point == d.chips_per_point
        assert sum(r.settlement.deltas.values()) == 0  # chips conserved by the hand
        check_step(t, before, r, total)

    for step in steps:
        if t.phase is TournamentPhase.FINISHED:
            break
        if step[0] == "leave":
            seat = step[1]
            if t.can_leave(seat):
                before = t.chips
                left = t.leave(seat)
                assert left.knock_out.place == len(before)
                assert left.knock_out.prize == model_prizes(t.pool, t.payouts, len(before), 1)
                assert left.chips_removed == before[seat]
                assert sum(t.chips.values()) + t.chips_removed == total
        else:
            play(list(step[2]), t.level + step[1])
        assert Tournament.from_json(json.loads(json.dumps(t.to_json()))) == t
    # then the two first players in play trade a point a hand, a level up each hand, to the end
    for _ in range(200):
        if t.phase is TournamentPhase.FINISHED:
            break
        a, b = t.in_play[:2]
        play([(a, b, 1)], t.level + 1)
    final = t.finished
    assert final is not None and t.phase is TournamentPhase.FINISHED
    assert t.chips == {final.winner: total - t.chips_removed}  # every chip in play
    assert sum(final.prizes.values()) == t.pool and all(p >= 0 for p in final.prizes.values())
    assert sorted(final.prizes) == list(range(n))
    ranked = sorted(final.standings, key=lambda s: s.place)
    assert ranked == list(final.standings) and ranked[0].seat == final.winner
    assert [s.place for s in ranked].count(1) == 1
    for better, worse in pairwise(ranked):
        assert better.prize >= worse.prize  # payouts never grow towards worse places
        if better.place == worse.place:
            assert better.prize == worse.prize


# -- the command line ------------------------------------------------------------------------


def run_cli(*args: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    assert main(["tournament", "--json", *args], stdout=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize(("game", "players"), [("pineapple", 3), ("ofc", 4), ("chinese", 3)])
def test_cli_plays_a_whole_tournament(game: str, players: int) -> None:
    lines = run_cli("--game", game, "--players", str(players), "--seed", "1", "--level-hands", "5")
    *hands, final = lines
    total = 1000 * players
    cpp = 0
    for i, h in enumerate(hands, start=1):
        assert set(h) == {"hand", "level", "chips_per_point", "chips", "knocked_out", "settled"}
        assert h["hand"] == i and h["level"] == 1 + (i - 1) // 5
        assert h["chips_per_point"] == TournamentConfig().chips_per_point(h["level"]) >= cpp
        cpp = h["chips_per_point"]
        assert sum(h["chips"]) == total and len(h["chips"]) == players
        assert h["settled"] or game == "chinese"
    assert sorted(final) == ["hands", "payouts", "places", "pool"]
    assert final["hands"] == len(hands) and final["pool"] == 100 * players
    assert sum(final["payouts"]) == final["pool"]
    winner = final["places"].index(1)
    assert hands[-1]["chips"][winner] == total and final["places"].count(1) == 1
    out = [k for h in hands for k in h["knocked_out"]]
    assert sorted(k["seat"] for k in out) == sorted(set(range(players)) - {winner})
    for k in out:
        assert final["places"][k["seat"]] == k["place"]
        assert final["payouts"][k["seat"]] == k["prize"]
    if game != "chinese":  # same seed, same output (and the default --level-hands is 5)
        assert run_cli("--game", game, "--players", str(players), "--seed", "1") == lines


def test_cli_as_a_subprocess_and_its_guard(capsys: pytest.CaptureFixture[str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "game", "tournament", "--json", "--players", "2", "--seed", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    final = json.loads(proc.stdout.splitlines()[-1])
    assert sorted(final["places"]) == [1, 2] and final["payouts"] in ([200, 0], [0, 200])
    assert main(["tournament", "--max-hands", "1", "--seed", "1"], stdout=io.StringIO()) == 2
    assert "no winner after 1 hands" in capsys.readouterr().err
    assert main(["tournament", "--players", "4"], stdout=io.StringIO()) == 2
    assert main(["tournament", "--level-hands", "0"], stdout=io.StringIO()) == 2


@pytest.mark.parametrize("game", ["pineapple", "chinese"])
def test_cli_prints_a_table_to_read_by_default(game: str) -> None:
    """fixnu39: ``python -m game tournament`` printed raw JSON lines; it prints a table now,
    one row per hand with the same figures as ``--json``'s records, and the places."""
    args = ["--game", game, "--players", "3", "--seed", "1"]
    *hands, final = run_cli(*args)
    out = io.StringIO()
    assert main(["tournament", *args], stdout=out) == 0
    lines = out.getvalue().splitlines()
    title = "Pineapple OFC" if game == "pineapple" else "Chinese Poker"
    assert lines[0] == (
        f"{title} tournament · 3 players · buy-in 100 kush each, pool 300 · 1,000 chips each "
        "· level up every 5 hands"
    )
    assert lines[1] == ""
    assert lines[2].split() == ["hand", "level", "chips/pt", "seat", "1", "seat", "2", "seat",
                                "3", "notes"]  # fmt: skip
    rows = lines[3 : 3 + len(hands)]
    out_seats: set[int] = set()
    for row, h in zip(rows, hands, strict=True):
        cells = row.split()
        assert cells[:3] == [str(h["hand"]), str(h["level"]), f"{h['chips_per_point']:,}"]
        chips = ["out" if s in out_seats else f"{c:,}" for s, c in enumerate(h["chips"])]
        assert cells[3:6] == chips
        notes = [f"seat {k['seat'] + 1} out: " for k in h["knocked_out"]]
        assert all(n in row for n in notes) and ("game goes on" in row) != h["settled"]
        out_seats.update(k["seat"] for k in h["knocked_out"])
    winner = final["places"].index(1)
    assert lines[3 + len(hands) :][:3] == [
        "",
        f"Winner: seat {winner + 1} after {final['hands']} hands.",
        "place  seat  prize (kush)",
    ]
    places = [line.split() for line in lines[6 + len(hands) :]]
    assert places[0] == ["1st", str(winner + 1), f"{final['payouts'][winner]:,}"]
    assert sorted(int(p[1]) for p in places) == [1, 2, 3] and len(lines) == 9 + len(hands)
    assert not any(line.startswith("{") for line in lines)


def test_default_schedule_constant() -> None:
    assert DEFAULT_SCHEDULE == (10, 15, 20, 30, 40, 60, 80, 100, 150, 200)


# -- a cancelled tournament ------------------------------------------------------------------


def test_r8_7_a_tournament_cancelled_before_a_knock_out_gives_every_buy_in_back() -> None:
    t = Tournament(TournamentConfig.create("ofc", buy_in=100))
    for p in range(3):
        t.register(100 + p)
    assert t.cancel_shares() == {0: 100, 1: 100, 2: 100}  # (not started)
    t.start()
    hand(t, [(0, 1, 30)])  # chips move, nobody is out
    assert t.cancel_shares() == {0: 100, 1: 100, 2: 100}


def test_r8_7_a_tournament_cancelled_after_a_knock_out_rolls_forward() -> None:
    """The player knocked out keeps their place's prize (0 here: winner takes all with 3);
    the pool goes to the players still in, half evenly and half by chips, to the last kush."""
    t = started(3, buy_in=100, starting_chips=1000)  # (classic OFC: up to 4 seats)
    t.leave(2)
    hand(t, [(0, 1, 50)])  # 500 chips from 1 to 0: 1500 / 500
    assert t.chips == {0: 1500, 1: 500}
    # 300: 150 evenly (75 each), 150 by chips (112 and 37), the kush left to the most chips
    assert t.cancel_shares() == {0: 188, 1: 112, 2: 0}


def test_r8_7_a_cancel_after_a_knock_out_in_the_money_pays_that_prize() -> None:
    """Payouts 50/30/20 with 4: the 3rd place's 20 % is the knocked-out player's; each of
    the two still in is sure of the 2nd place's 30 %, the rest half evenly, half by chips."""
    t = started(4, buy_in=100, starting_chips=1000, payouts=[50, 30, 20])
    t.leave(3)  # 4th: 0
    t.leave(2)  # 3rd: 80
    hand(t, [(0, 1, 20)])  # 1200 / 800
    shares = t.cancel_shares()
    # 400 - 0 - 80 = 320; 120 each for sure; 80 left: 20 each evenly, 40 by chips (24 / 16)
    assert shares == {0: 164, 1: 156, 2: 80, 3: 0}
    assert sum(shares.values()) == t.pool


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(2, 4),
    buy_in=st.integers(0, 997),
    leavers=st.integers(0, 2),
    points=st.lists(st.integers(-40, 40), max_size=6),
)
def test_r8_7_a_cancelled_tournament_pays_out_exactly_its_pool(
    players: int, buy_in: int, leavers: int, points: list[int]
) -> None:
    t = started(players, buy_in=buy_in, starting_chips=1000)
    for seat in range(min(leavers, players - 2)):
        t.leave(players - 1 - seat)
    for p in points:
        if t.finished is not None or len(t.chips) < 2:
            break
        a, b = sorted(t.chips)[:2]
        hand(t, [(a, b, p)] if p else [])
    shares = t.cancel_shares()
    assert sorted(shares) == list(range(players))
    assert sum(shares.values()) == t.pool and min(shares.values()) >= 0
    for k in t.knocked_out if t.finished is None else ():
        assert shares[k.seat] == k.prize  # (no buy-in back once a player is out)


@pytest.mark.parametrize(
    ("game", "said"),
    [
        ("ofc", "a classic OFC tournament takes 2–4 players"),
        ("pineapple", "a Pineapple OFC tournament takes 2–3 players"),
        ("chinese", "a Chinese Poker tournament takes 2–4 players"),
    ],
)
def test_r8_7_a_bad_player_count_names_the_game_as_players_read_it(
    game: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The option's word with the wrong article was said: "a ofc tournament takes 2–4 players"."""
    assert main(["tournament", "--game", game, "--players", "1"], stdout=io.StringIO()) == 2
    assert said in capsys.readouterr().err
