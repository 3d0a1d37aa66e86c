"""``/hand`` whose picture cannot be drawn (rev37): the drawing process dead twice, or no
picture within :data:`bot.drawing.DRAW_SECONDS` (fixw37 made a hung or never-started drawer
raise ``TimeoutError`` there instead of waiting for good). The exception went up to the
platform adapter: the player got no answer to /hand, though its text (the table, the hand)
needs no picture. As ``/stats``'s chart, the picture is left out (logged) and the text
answers."""

from __future__ import annotations

import logging
import random
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot.model import ChatRef
from bot.service import TableService
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, dealt_at


@pytest.mark.parametrize("failure", [TimeoutError(), BrokenProcessPool("died")])
async def test_hand_whose_picture_cannot_be_drawn_answers_its_text(
    failure: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    service = TableService(MemoryStore(), rng=random.Random(3), next_hand_delay=0, timers=False)
    service.register(FakePresenter())

    async def no_picture(*args: Any) -> bytes:
        raise failure

    try:
        t = await dealt_at(service, GROUP, (ALICE, BOB))
        private = ChatRef("telegram", ALICE.user_id, ALICE.user_id, "", True)
        drawn = await service.hand_picture(private, ALICE)  # (the drawer as it is: a picture)
        assert drawn.picture is not None
        service.rt.drawer.draw = no_picture  # type: ignore[method-assign]
        with caplog.at_level(logging.ERROR):
            reply = await service.hand_picture(private, ALICE)
        assert reply.picture is None
        assert reply.text == drawn.text and f"#{t.id}" in reply.text, reply.text
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [
            f"the /hand picture of table {t.id} could not be drawn"
        ]
    finally:
        await service.stop()
