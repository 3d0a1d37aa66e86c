"""rev45: the table timer's ``safe_autoplay`` placement made ahead (R8.5) that fails is logged
by the error's type and where it was raised, never its text nor traceback: a bug's error there
(the hand played ahead on a copy, the decision) may name a hidden card or a discard. Both lines
were ``log.exception``, inside the timer whose step's own line ops42 made so."""

from __future__ import annotations

import logging
import random
import re
from typing import Any

import pytest

from bot.service import TableService
from bot.service.runtime import SAFE_AHEAD_SECONDS
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, seated
from tests.waiting import until

CARD = "A♠"


@pytest.mark.parametrize(("method", "step"), [("think_safe", "started"), ("prepare_safe", "made")])
async def test_a_failed_placement_ahead_is_logged_without_the_error_s_text(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, method: str, step: str
) -> None:
    clock = Clock()
    service = TableService(MemoryStore(), clock=clock, rng=random.Random(5), timers=True)
    service.register(FakePresenter())
    rt = service.rt

    def failing(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError(f"a bug that names Bob's hidden {CARD}")

    try:
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
        deadline = rt.next_deadline(t)
        assert deadline is not None
        seq = t.seq
        monkeypatch.setattr(rt, method, failing)
        # (the timer a moment before the placement is started ahead; at the clock's end for
        # the one made ahead)
        clock.now = deadline - SAFE_AHEAD_SECONDS - 0.05 if step == "started" else deadline
        caplog.set_level(logging.INFO)
        await rt.arm(t)

        def said() -> list[logging.LogRecord]:
            return [r for r in caplog.records if "placement not" in r.getMessage()]

        await until(lambda: said(), what="the failure logged")
        clock.now = deadline  # (the clock runs out: the timer's step makes the timeout)
        await until(lambda: t.seq > seq, what="the timer's step made the timeout")
        [record] = said()
        # (the stand-in raises in this test: placed at the runtime's line calling it, the
        # innermost of the bot's own code, ops43)
        assert re.fullmatch(
            rf"table {t.id}: the timeout's placement not {step} ahead "
            r"\(RuntimeError at bot\.service\.runtime:\d+\)",
            record.getMessage(),
        ), record.getMessage()
        assert record.exc_info is None
        assert CARD not in caplog.text
    finally:
        await service.stop()
