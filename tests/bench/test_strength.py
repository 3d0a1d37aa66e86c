"""``bench/bench_strength.py --game ofc`` (bench39b): the strength bench measures classic OFC
(R4.1) the way it measures Pineapple, run here with the smallest size (one deck a match-up)."""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import bench_strength  # noqa: E402  (bench/ is not a package: its scripts run as python bench/X.py)

from game.options import GameKind, RuleOptions  # noqa: E402

PLAYER = re.compile(
    r"^ +(\w+): (\d+) boards, foul +([\d.]+) %, Fantasyland entry +([\d.]+) %; decision mean"
)


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.setattr(sys, "argv", ["bench_strength.py", *args])
    bench_strength.main()
    return capsys.readouterr().out


def test_ofc_run_names_classic_ofc_and_gives_sane_figures(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(capsys, monkeypatch, "--game", "ofc", "--hands", "1")
    lines = out.splitlines()
    assert lines[0].startswith("machine: ")
    assert lines[1] == (
        "3-player classic OFC (R4.1, scoring two_per_row, no discards), 1 decks × 3 seatings per "
        "match-up (duplicate deals)"
    )
    matchups = [line for line in lines if " vs 2 × " in line]
    assert len(matchups) == len(bench_strength.MATCHUPS)
    assert all(line.endswith(", 3 hands") for line in matchups)
    players = {m[1]: m.groups()[1:] for line in lines if (m := PLAYER.match(line))}
    # Boards per player: 2 a hand as the B of a match-up, 1 as its A, 3 hands a match-up.
    assert {p: int(v[0]) for p, v in players.items()} == {
        "easy": 15,
        "normal": 12,
        "strong": 9,
        "auto": 18,
    }
    for _, foul, fantasyland in players.values():
        assert 0.0 <= float(foul) <= 100.0
        assert 0.0 <= float(fantasyland) <= 100.0
    assert "goals (strong): issue 13's are Pineapple's, not judged for this game" in lines
    assert "NOT met" not in out and ": met" not in out


def test_ofc_matchup_plays_classic_streets() -> None:
    """Each board of a classic OFC hand takes 9 decisions (5 cards, then 8 of one card, R4.1),
    a Pineapple board 5 (R3): the option reaches the hands played."""
    for options, decisions in ((RuleOptions(game=GameKind.OFC), 9), (RuleOptions(), 5)):
        tallies: dict[str, bench_strength.Tally] = defaultdict(bench_strength.Tally)
        per_deck = bench_strength.matchup("easy", "auto", 1, tallies, options=options)
        assert len(per_deck) == 1
        assert tallies["easy"].boards == 3 and tallies["auto"].boards == 6
        assert len(tallies["easy"].seconds) == 3 * decisions
        assert len(tallies["auto"].seconds) == 6 * decisions


def test_pineapple_stays_the_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(capsys, monkeypatch, "--hands", "1", "--only", "easy")
    lines = out.splitlines()
    assert lines[1] == "3-player Pineapple, 1 decks × 3 seatings per match-up (duplicate deals)"
    assert "goals (strong):" in lines
    assert any(line.startswith("  foul ≤ 8 %: ") for line in lines)
