"""Session-wide test hooks."""

from __future__ import annotations

import pytest

from tests.pg import stop_server


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the PostgreSQL server of the tests, if one was started (tests/pg.py)."""
    stop_server()
