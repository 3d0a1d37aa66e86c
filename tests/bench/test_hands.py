"""The press benches' shared helper ``bench/_hands.py`` (fixsmall37): the paced load in words,
``BENCH_PACE=0`` meaning no pacing (bench_telegram.py divided by it)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import _hands  # noqa: E402  (bench/ is not a package: its scripts run as python bench/X.py)


def test_paced_load_gives_the_presses_offered() -> None:
    assert _hands.load(200, 2.0) == "a press every 2 s per table on average (100 presses/s offered)"
    assert _hands.load(3, 0.5) == "a press every 0.5 s per table on average (6 presses/s offered)"


def test_pace_zero_is_no_pacing_not_a_division_by_zero() -> None:
    assert _hands.load(200, 0.0) == "no pause between a table's presses (unpaced)"
    assert _hands.load(200, -1.0) == "no pause between a table's presses (unpaced)"
