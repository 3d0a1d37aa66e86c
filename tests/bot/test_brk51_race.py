"""brk51: a confirmed ``/leave`` of the player to act (its street placed in the decision
process first, fixsafe2: up to :data:`SAFE_PRESS_SECONDS` holding the table) racing the
table timer's timeout of the same street and that player's own press, all at the same
instant, in every order (R8.5, ``safe_autoplay``; the strategy slowed so the wait is real).

Each order ends the street exactly once: the leaver's board holds the street's cards, the
hand's log rebuilds to the same hand (with the recorded placements), every answer came."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.presses import Payload
from bot.service import TableService
from bot.service import runtime as runtime_module
from game.actions import Timeout
from game.hand import Hand
from game.policy import Level, SeatKnowledge, decide
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, LEAVE_QUESTIONS, seated


def _slow(k: SeatKnowledge, level: Level) -> Any:
    time.sleep(0.05)  # (in the decision pool's thread: the step's wait for it is real)
    return decide(k, level)


@pytest.mark.parametrize("order", list(itertools.permutations(("leave", "timer", "press"))))
async def test_r8_5_leave_timeout_and_press_at_once_end_the_street_once(
    monkeypatch: pytest.MonkeyPatch, order: tuple[str, ...]
) -> None:
    monkeypatch.setattr(runtime_module, "decide", _slow)
    store, clock = MemoryStore(), Clock()
    presenter = FakePresenter()
    service = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    service.register(presenter)
    try:
        reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
        assert not reply.alert, reply.text
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
        hand = t.hand
        seat = hand.to_act[0]
        player = next(a for a in (ALICE, BOB) if t.seats[t.owner(seat)].user_id == a.user_id)
        asked = await service.leave(GROUP, player)
        assert asked.alert and asked.text in LEAVE_QUESTIONS, asked.text
        twin = Hand.from_json(hand.to_json())
        twin.apply(Timeout(seat))
        screen = presenter.last_private(player.user_id)
        arrange = next(
            b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == "a"
        )
        clock.now += 181  # budget and bank run out (R8.5)
        # (the question asked just now, its answer due in time: the clock moved for the timer)
        t.seats[t.owner(seat)].leave_asked = clock.now
        steps: dict[str, Callable[[], Awaitable[Any]]] = {
            "leave": lambda: service.leave(GROUP, player),
            "timer": service.run_due,
            "press": lambda: service.press(player, arrange),
        }
        results = await asyncio.gather(*(steps[name]() for name in order), return_exceptions=True)
        assert not [r for r in results if isinstance(r, BaseException)], results
        assert t.hand is hand and hand.street_of(seat) == 2
        assert hand.board_of(seat).count == 5
        ends = [a for a in hand.actions if a.seat == seat and type(a).__name__ != "Place"]
        assert len(ends) == 1, hand.actions  # (one street end: a timeout or a confirm)
        assert t.seats[t.owner(seat)].leaving
        if not any(a.seat == seat and type(a).__name__ == "Place" for a in hand.actions):
            assert hand.board_of(seat) == twin.board_of(seat)  # (the strategy's placement)
        again = Hand.from_json(hand.to_json())
        assert again.to_json() == hand.to_json()
        for s in hand.order:
            assert again.board_of(s, with_pending=True) == hand.board_of(s, with_pending=True)
    finally:
        await service.stop()
