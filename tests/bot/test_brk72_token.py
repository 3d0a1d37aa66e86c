"""brk72: break-it on fix40d's :class:`~bot.telegram.one_bot.TokenGuard` with a fake clock.
Nothing broke; kept as regression tests.

Two pollers of one token end each other's polls: each sees a 409 when the other polls, then
waits as python-telegram-bot does after a failed poll (1 s, then half as long again each
time, at most 30 s) and polls, ending the other's. Whatever the gap between their starts,
exactly one stops, and the other serves on. A lone bot whose 409s come in at most two bursts
(blips, a dead process's poll at its start) never stops."""

from __future__ import annotations

import random

import pytest
from telegram.error import Conflict

import bot.telegram.one_bot as one_bot
from bot.telegram.fake_api import TERMINATED
from bot.telegram.one_bot import BURSTS, CONFLICT_QUIET_SECONDS, GHOST_SECONDS, TokenGuard
from tests.bot.test_brk54_one_bot import Clock


def _two_pollers(monkeypatch: pytest.MonkeyPatch, gap: float) -> dict[str, bool]:
    """A polls from 0 s, B from ``gap`` s on: their fight for 15 minutes. Returns which
    stopped."""
    clock = Clock()
    monkeypatch.setattr(one_bot.time, "monotonic", clock)
    stops: dict[str, list[str]] = {"a": [], "b": []}
    guards = {"a": TokenGuard(stops["a"].append, 60.0)}
    clock.now = gap
    guards["b"] = TokenGuard(stops["b"].append, 60.0)
    wait = {"a": 1.0, "b": 1.0}
    due = {"a": gap, "b": gap + 1.0}  # (B's first poll ends A's; A's next, 1 s on, B's)
    while True:
        who = min(due, key=lambda k: due[k])
        if due[who] > gap + 900 or any(g.stopped for g in guards.values()):
            break
        clock.now = due[who]
        guards[who].polling_error(Conflict(TERMINATED))
        due[who] = clock.now + wait[who]
        wait[who] = min(wait[who] * 1.5, 30.0)
    return {k: g.stopped is not None for k, g in guards.items()}


@pytest.mark.parametrize(
    "gap", [0.0, 0.5, 2.0, 5.0, 10.0, 14.9, 15.1, 20.0, 45.0, 59.0, 61.0, 600.0]
)
def test_two_pollers_started_any_time_apart_exactly_one_stops(
    monkeypatch: pytest.MonkeyPatch, gap: float
) -> None:
    stopped = _two_pollers(monkeypatch, gap)
    assert sum(stopped.values()) == 1, stopped
    if gap > GHOST_SECONDS:  # (A polled alone past its start: B, the newcomer, gives way)
        assert stopped == {"a": False, "b": True}


@pytest.mark.parametrize("seed", range(40))
def test_a_lone_bot_never_stops_on_two_bursts_of_blips(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Random 409s of a lone bot: a dead process's polls in its first seconds, then blips,
    each a burst of a few 409s within a few seconds; two bursts at most in any stretch
    without a quiet of CONFLICT_QUIET_SECONDS, at any time of its life."""
    rng = random.Random(seed)
    clock = Clock()
    monkeypatch.setattr(one_bot.time, "monotonic", clock)
    stops: list[str] = []
    guard = TokenGuard(stops.append, 60.0)
    times = [rng.uniform(0, 10) for _ in range(rng.randint(0, 5))]  # (the dead one's poll)
    at = rng.uniform(10, 70)
    for _ in range(30):
        group = rng.randint(1, BURSTS - 1)  # bursts close together, then a quiet
        for _ in range(group):
            times += [at + rng.uniform(0, GHOST_SECONDS - 1) for _ in range(rng.randint(1, 6))]
            at += rng.uniform(GHOST_SECONDS, CONFLICT_QUIET_SECONDS - 1)
        at += CONFLICT_QUIET_SECONDS + rng.uniform(1, 600)
    for t in sorted(times):
        clock.now = t
        guard.polling_error(Conflict(TERMINATED))
    assert stops == [] and guard.stopped is None
