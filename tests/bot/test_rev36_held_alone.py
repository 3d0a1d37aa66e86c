"""rev36: :func:`bot.dblock.held_alone` that finds another holder leaves the descriptor's
shared lock held (Linux drops it when it refuses to make it exclusive): a worker that
asked went on holding the file, a plain bot started meanwhile was refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.dblock import held_alone, hold_database, let_go

pytest.importorskip("fcntl")


def test_a_refused_held_alone_keeps_the_shared_lock(tmp_path: Path) -> None:
    db = tmp_path / "ofc.sqlite3"
    mine = hold_database(db, shared=True)
    other = hold_database(db, shared=True)
    assert mine is not None and other is not None
    try:
        assert held_alone(mine) is False
        let_go(other)
        other = None
        bot = hold_database(db)  # a plain bot: refused while the worker holds the file
        if bot is not None:
            let_go(bot)
        assert bot is None
        assert held_alone(mine) is True  # alone now: exclusive
    finally:
        let_go(other)
        let_go(mine)
