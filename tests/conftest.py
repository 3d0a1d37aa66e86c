"""Session-wide test hooks."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from typing import Any

import pytest

from bot import thinking
from bot.service import play
from game.policy import Level
from tests.pg import NO_SERVER, stop_server


@pytest.fixture(autouse=True)
def _quick_decisions(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Services built by the tests make their decisions (computer players, "Arrange for
    me") in threads, and "Arrange for me" places at the ``normal`` level, unless a test is
    marked ``production_decisions`` (``tests/bot/test_thinking.py``: the worker process and
    the ``strong`` level, as the bot has them). In threads the decision functions that tests
    replace stay in reach, nothing waits for a worker to start, and a decision is the same
    whatever the machine's load (no time limit, :meth:`bot.thinking.Thinker.decide`). The
    suite presses "Arrange for me" about 2,000 times, as its way to place a street: at
    ``strong`` (about 80 ms each instead of 8) that would be some 2.5 minutes more, for
    tests that check other things. The bots that tests run as processes (``tests/bot/crash``,
    ``tests/bot/cluster``) do the same (their ``child`` modules)."""
    if request.node.get_closest_marker("production_decisions") is None:
        monkeypatch.setattr(thinking, "IN_PROCESS", False)
        monkeypatch.setattr(play, "ARRANGE_LEVEL", Level.NORMAL)


@pytest.fixture(autouse=True)
def _quick_fouled_confirm(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fouled Confirm's second press (R2.3) counts at once, unless a test is marked
    ``foul_confirm_pause``: the bot counts it only :data:`~bot.service.play.
    FOUL_CONFIRM_MIN_SECONDS` after the question (a double tap asks again). The suite's
    helpers answer the question by pressing Confirm again at once, on the real clock too (the
    end-to-end worlds): a second's wait in each would make the suite slower by minutes. The
    bots that tests run as processes do the same (their ``child`` modules)."""
    if request.node.get_closest_marker("foul_confirm_pause") is None:
        monkeypatch.setattr(play, "FOUL_CONFIRM_MIN_SECONDS", 0.0)


@pytest.fixture(autouse=True)
def _kept_logging() -> Iterator[None]:
    """The logging set-up as it was before each test: the root logger's level, its handlers
    (pytest's own aside, which pytest adds and removes around each phase) and their filters,
    and the ``httpx`` logger's level. A test that runs ``python -m bot``'s ``main`` in the
    process (:func:`bot.logs.configure_logging`) left a handler on the root logger writing
    to that test's ``capsys`` stream, closed once the test ended, and the root at ``INFO``:
    every ``INFO`` record later in that worker then printed "--- Logging error ---" and a
    traceback to the standard error of whatever test was running, as pgserver's at the
    start of a worker's PostgreSQL server (a failure of a test that reads its standard
    error exactly, tests/storage/test_backup_cli.py)."""
    root, httpx = logging.getLogger(), logging.getLogger("httpx")
    handlers = {h: list(h.filters) for h in root.handlers}
    levels = root.level, httpx.level
    yield
    ours = [h for h in handlers if not _pytests(h)]
    for h in list(root.handlers):
        if h not in handlers and not _pytests(h):
            root.removeHandler(h)
            h.close()
    for h in ours:
        if h not in root.handlers:
            root.addHandler(h)
    for h, filters in handlers.items():
        h.filters[:] = filters
    root.setLevel(levels[0])
    httpx.setLevel(levels[1])


def _pytests(handler: logging.Handler) -> bool:
    """Whether ``handler`` is one of pytest's (its log capture, added and removed by pytest
    around each phase of a test)."""
    return type(handler).__module__.startswith("_pytest")


#: the exhaustive runs (``OFC_SLOW=1``, ``OFC_CRASH_ALL=1``) have single tests of ten minutes
#: and more: their hang limit is two hours instead of pyproject's ``timeout`` (600 s)
EXHAUSTIVE_TIMEOUT = 7200


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Raise the hang limit of every test (pytest-timeout) in an exhaustive run, where the
    sweeps' single tests outlast the default run's 600 s."""
    if "1" in (os.environ.get("OFC_SLOW"), os.environ.get("OFC_CRASH_ALL")):
        for item in items:
            if item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(EXHAUSTIVE_TIMEOUT))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the PostgreSQL server of the tests, if one was started (tests/pg.py)."""
    stop_server()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say at the end how many PostgreSQL tests were skipped for want of pgserver, and why
    (tests/pg.py; the reports of every xdist worker come here), so that a run without them
    does not pass for a full one."""
    reasons = [
        str(report.longrepr[2])
        for report in terminalreporter.stats.get("skipped", [])
        if isinstance(report.longrepr, tuple) and NO_SERVER in str(report.longrepr[2])
    ]
    if reasons:
        terminalreporter.write_sep("=", "PostgreSQL", yellow=True)
        terminalreporter.write_line(f"{len(reasons)} PostgreSQL tests skipped: {reasons[0]}")


@pytest.fixture
def short_hand_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hand_seconds`` down to 1 s, for a test that times a hand out in real time (the
    setting takes :data:`~bot.service.settings.MIN_HAND_SECONDS` at least, R8.5: no hand can
    be played in less). In this process only (a bot a test runs as a process keeps it)."""
    from bot.service import settings

    was = settings.SETTINGS["hand_seconds"]
    spec = settings.Setting(**{**was.model_dump(), "low": 1})  # (its checker built anew)
    monkeypatch.setitem(settings.SETTINGS, "hand_seconds", spec)  # type: ignore[index]
    monkeypatch.setitem(settings._BY_CODE, spec.code, spec)
