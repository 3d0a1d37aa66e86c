"""Decisions that hang in the decision worker, for tests/bot/test_thinking.py: a module of its
own with light imports (:mod:`game.policy` is preloaded), since the worker imports the module
of a function it is given at its first task, and the test module's imports take it seconds,
longer than the tests' ``DECISION_SECONDS`` (it looked hung)."""

from __future__ import annotations

import multiprocessing
import tempfile
import time
from pathlib import Path

from game.board import Box
from game.cards import Card
from game.policy import Level, SeatKnowledge, decide


def marker(bot_pid: int) -> Path:
    """A file that makes the next decision of the worker of the bot ``bot_pid`` hang."""
    return Path(tempfile.gettempdir()) / f"ofc-test-hang-{bot_pid}"


def hung_once(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
    """``decide(k, level)``; in a worker process, the first decision after the test made its
    bot's :func:`marker` hangs (an endless loop on some position), once."""
    bot = multiprocessing.parent_process()
    if bot is not None and bot.pid is not None:
        try:
            marker(bot.pid).unlink()
        except FileNotFoundError:
            pass
        else:
            time.sleep(3600)
    return decide(k, level)


def by_level(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
    """A placement that tells the level it was made at: the first card on top at ``strong``,
    at the bottom otherwise."""
    return [(k.cards[0], Box.TOP if level is Level.STRONG else Box.BOTTOM)]
