"""Crash test (issue 10): scripted games with the bot killed (SIGKILL) at a platform call or at
a storage commit, restarted on the same SQLite file, and each game finished. See
:mod:`tests.bot.crash.harness` for what is played and what is checked after each run.

The default run plays a fixed sample of kill points (about half a minute). Every kill point of
every scenario (each platform call; before and after each commit) runs with::

    OFC_CRASH_ALL=1 python -m pytest -q tests/bot/crash -k every_kill_point

(long: about 2–3 s per kill point, several hundred per scenario). ``OFC_CRASH_STRIDE=k`` plays
every k-th point only, ``OFC_CRASH_REPORT=FILE`` writes each point's outcome to a file, and
``OFC_CRASH_BOT_ROOT=DIR`` runs the bot from another tree (e.g. ``git archive`` of a commit)
while the harness stays this one.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.bot.crash.harness import (
    SCENARIOS,
    KillPoint,
    RunOutcome,
    kill_id,
    run_once,
    sweep_points,
)
from tests.pg import fresh_database

#: The default run's kill points: deterministic, spread over the scenarios and over the
#: transitions issue 10 names (the last Ready's buy-in, the settlement that ends a hand, the
#: showdown going out, a Fantasyland deal, a Chinese Poker claim, a cash-out on leave), plus
#: a few plain numbered ones.
SAMPLE: list[tuple[str, KillPoint]] = [
    ("pineapple2", KillPoint()),
    ("pineapple2", KillPoint("commit", 2, "after", "+buy_in")),
    ("pineapple2", KillPoint("commit", 1, "after", "+hand")),
    ("pineapple2", KillPoint("call", 1, match="Showdown")),
    ("pineapple2", KillPoint("commit", 12, "before")),
    ("pineapple2_foul", KillPoint()),  # (a fouled board's Confirm asks first, R2.3)
    ("pineapple3_fl", KillPoint("commit", 1, "before", "+hand")),
    ("pineapple3_fl", KillPoint("call", 1, match="hand 2 · 🌴 Fantasyland")),
    ("chinese_claim", KillPoint("call", 1, match="Claim")),
    ("chinese_claim", KillPoint("commit", 1, "after", "+hand")),
    ("settle_per_round_leave", KillPoint("commit", 1, "after", "+cash_out")),
    ("settle_per_round_leave", KillPoint("call", 90)),
]


def _id(case: tuple[str, KillPoint]) -> str:
    return f"{case[0]}-{kill_id(case[1])}"


@pytest.mark.parametrize("case", SAMPLE, ids=[_id(c) for c in SAMPLE])
async def test_crash_sample(case: tuple[str, KillPoint], tmp_path: Path) -> None:
    scenario, kill = case
    outcome = await run_once(SCENARIOS[scenario], kill, tmp_path)
    if kill.kind != "none":
        assert outcome.killed, f"the kill point was not reached: {outcome.summary()}"
    assert not outcome.problems, outcome.summary()


#: The sample on PostgreSQL (issue 14): one scenario's storage kill points (after the
#: buy-in's commit, after a hand's commit, before a numbered commit: the work done but never
#: committed), with the bot on ``DATABASE_URL``; the storage check and every other promise
#: are checked as on SQLite. (Kills at a platform call do not depend on the database.)
POSTGRES_SAMPLE = [c for c in SAMPLE if c[0] == "pineapple2" and c[1].kind == "commit"]


@pytest.mark.parametrize("case", POSTGRES_SAMPLE, ids=[_id(c) for c in POSTGRES_SAMPLE])
async def test_crash_sample_on_postgresql(case: tuple[str, KillPoint], tmp_path: Path) -> None:
    scenario, kill = case
    async with fresh_database() as url:
        outcome = await run_once(SCENARIOS[scenario], kill, tmp_path, database_url=url)
    assert outcome.killed, f"the kill point was not reached: {outcome.summary()}"
    assert not outcome.problems, outcome.summary()


def _report(outcomes: list[RunOutcome], path: str | None) -> None:
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        for o in outcomes:
            f.write(o.summary() + "\n")


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("OFC_CRASH_ALL") != "1", reason="every kill point: set OFC_CRASH_ALL=1"
)
@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_crash_every_kill_point(scenario: str, tmp_path: Path) -> None:
    """A run without a kill counts the scenario's platform calls and commits; then one run per
    kill point: each call, and before and after each commit."""
    s = SCENARIOS[scenario]
    base = await run_once(s, KillPoint(), tmp_path / "base")
    assert base.calls_counted > 0 and base.commits > 0, base.summary()
    stride = max(1, int(os.environ.get("OFC_CRASH_STRIDE", "1")))
    points = sweep_points(base.calls_counted, base.commits)[::stride]
    outcomes = [base]
    for n, kill in enumerate(points):
        outcome = await run_once(s, kill, tmp_path / f"run{n}")
        outcome.problems = [p for p in outcome.problems if not p.startswith("bot log tail")]
        outcomes.append(outcome)
    _report(outcomes, os.environ.get("OFC_CRASH_REPORT"))
    failed = [o for o in outcomes if o.problems]
    assert not failed, (
        f"{len(failed)} of {len(outcomes)} runs of {scenario} broke a promise:\n"
        + "\n".join(o.summary() for o in failed)
    )
