"""Session-wide test hooks."""

from __future__ import annotations

import pytest

from bot import thinking
from tests.pg import stop_server


@pytest.fixture(autouse=True)
def _decisions_in_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Services built by the tests make their decisions (computer players, "Arrange for me")
    in threads unless a test asks for the worker process (``decisions_in_process=True``,
    ``tests/bot/test_thinking.py``): the decision functions that tests replace stay in
    reach, nothing waits for a worker to start, and a decision is the same whatever the
    machine's load (no time limit, :meth:`bot.thinking.Thinker.decide`). The bots that tests
    run as processes (``tests/bot/crash``, ``tests/bot/cluster``) decide in the worker, as
    the real bot does."""
    monkeypatch.setattr(thinking, "IN_PROCESS", False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the PostgreSQL server of the tests, if one was started (tests/pg.py)."""
    stop_server()
