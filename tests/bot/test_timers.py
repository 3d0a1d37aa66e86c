"""The table's timer (bot/service/timers.py): a due step that fails, on storage or on a bug,
changes nothing and is tried again, so no table waits forever (R8.5)."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from bot.service import TableService, timers
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, seated
from tests.waiting import until


async def test_r8_5_a_timer_step_that_fails_on_a_bug_rolls_back_and_is_retried(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    service = TableService(MemoryStore(), clock=clock, rng=random.Random(5), timers=True)
    service.register(FakePresenter())
    monkeypatch.setattr(timers, "RETRY_SECONDS", 0.05)
    real = timers.advance
    calls: list[int] = []

    def flaky(*args: Any, **kwargs: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug in a timeout step")
        real(*args, **kwargs)

    monkeypatch.setattr(timers, "advance", flaky)
    try:
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
        sleeper = t.hand.to_act[0]
        board = t.hand.board_of(sleeper)
        seq = t.seq
        clock.now += 181  # the player to act let budget and bank run out (R8.5)
        with caplog.at_level(logging.ERROR, logger="bot.service"):
            await service.run_due()  # the step raises: rolled back, not propagated
        assert "timer step failed" in caplog.text
        assert t.seq == seq and t.hand.board_of(sleeper) == board
        await until(lambda: t.seq > seq, what="the retry makes the move for them")
        assert len(calls) == 2 and t.seq > seq
        assert t.hand.board_of(sleeper).count == 5  # first street placed by R8.5
    finally:
        await service.stop()
