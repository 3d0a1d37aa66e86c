"""Decisions in threads of the bot (``DECISIONS_IN_PROCESS=0``, the test suite's default):
a thread cannot be ended, so a hung decision cannot be replaced as the decision process is;
but no table waits for it for good: an "Arrange for me" whose decision never comes is
answered after ``PRESS_SECONDS``, and the player's clock then places the street by the
timeout rule (R8.5), and a computer player's street is made by that rule after
``DECISION_SECONDS``."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot import thinking
from bot.screens import Payload
from bot.service import bots, play
from bot.texts import tr
from bot.thinking import Thinker
from bot.workers import ProcessWorker
from game.actions import Timeout
from game.board import Box
from game.cards import Card
from game.policy import Level, SeatKnowledge, decide, knowledge
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm

Moves = list[tuple[Card, Box | None]]


def never_until(release: threading.Event) -> Callable[[SeatKnowledge, Level], Moves]:
    """A decision that does not come (an endless loop on some position) until ``release``."""

    def stuck(k: SeatKnowledge, level: Level) -> Moves:
        release.wait(120)
        return []

    return stuck


async def test_a_hung_arrange_in_a_thread_holds_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice presses "Arrange for me" and its decision never comes. In a thread it was
    waited for however long, holding the table's lock: her press was never answered, her
    clock's step (and every other press and command at the table) waited for the lock, and
    the table waited for good. The press is answered within the decision's time (here
    1 s): no placement came, place the cards yourself; the table is free, and when her
    time runs out the timeout rule places her street (R8.5) and the hand goes on."""
    monkeypatch.setattr(thinking, "PRESS_SECONDS", 1.0)
    release = threading.Event()
    monkeypatch.setattr(play, "decide", never_until(release))
    service, presenter, _store, clock = service_env()
    try:
        await service.new_table(GROUP, ALICE)
        for a in (ALICE, BOB):
            await service.join(GROUP, a)
            await service.ready(GROUP, a)
        t = service.table_in(GROUP)
        assert t is not None and t.hand is not None
        hand = t.hand
        alice = t.seat_of(ALICE.user_id)
        assert alice is not None
        while alice.seat not in hand.to_act:
            monkeypatch.setattr(play, "decide", decide)  # (Bob's own, as it comes)
            await press_auto_and_confirm(service, presenter, BOB)
            monkeypatch.setattr(play, "decide", never_until(release))
        screen = presenter.last_private(ALICE.user_id)
        arrange = next(
            b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == "a"
        )
        reply = await asyncio.wait_for(service.press(ALICE, arrange), 5)
        assert reply.alert and reply.text == tr("en", "err.arrange_late")
        assert not t.lock.locked() and not hand.pending(alice.seat)
        before = len(hand.actions)
        clock.now += 181  # her budget and bank run out (R8.5)
        await asyncio.wait_for(service.run_due(), 5)
        assert Timeout(alice.seat) in hand.actions[before:]
        assert alice.seat not in hand.to_act or t.hand is not hand
    finally:
        release.set()
        await service.stop()


async def test_a_hung_computer_player_in_a_thread_holds_no_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player's decision never comes, in a thread: after ``DECISION_SECONDS`` its
    street is made by the timeout rule (R8.5) and the hand goes on to Alice."""
    monkeypatch.setattr(thinking, "DECISION_SECONDS", 1.0)
    release = threading.Event()
    monkeypatch.setattr(bots, "decide", never_until(release))
    service, presenter, _store, clock = service_env()
    try:
        await service.new_table(GROUP, ALICE)
        await service.add_bot(GROUP, ALICE, True, "easy")
        await service.join(GROUP, ALICE)
        await service.ready(GROUP, ALICE)
        t = service.table_in(GROUP)
        assert t is not None and t.hand is not None
        hand = t.hand
        bot = next(s.seat for s in t.seats.values() if s.bot)
        if bot not in hand.to_act:
            await press_auto_and_confirm(service, presenter, ALICE)
        assert bot in hand.to_act and t.bot_due is not None
        before = len(hand.actions)
        clock.now = t.bot_due
        await asyncio.wait_for(service.run_due(), 5)
        assert [a for a in hand.actions[before:] if a.seat == bot] == [Timeout(bot)]
        assert bot not in hand.to_act
    finally:
        release.set()
        await service.stop()


async def test_a_press_s_fallback_thread_that_hangs_is_given_up_in_process_mode_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In process mode a press's decision the worker does not give (here it is dead) is
    made at ``instead`` in a thread: one hung there was waited for however long, the press
    holding its table. It is given up when ``PRESS_SECONDS`` have passed in all."""
    monkeypatch.setattr(thinking, "PRESS_SECONDS", 0.5)
    release = threading.Event()

    async def dead(self: ProcessWorker, fn: Callable[..., Any], *args: Any) -> Any:
        raise BrokenProcessPool("killed")

    monkeypatch.setattr(ProcessWorker, "run", dead)
    service, _presenter, _store, _clock = service_env()
    try:
        await service.new_table(GROUP, ALICE)
        for a in (ALICE, BOB):
            await service.join(GROUP, a)
            await service.ready(GROUP, a)
        t = service.table_in(GROUP)
        assert t is not None and t.hand is not None
        k = knowledge(t.hand, t.hand.to_act[0])
        thinker = Thinker(in_process=True)
        began = asyncio.get_running_loop().time()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(
                thinker.decide(never_until(release), k, Level.STRONG, within=0.1), 10
            )
        assert asyncio.get_running_loop().time() - began < 2
    finally:
        release.set()
        await service.stop()


async def test_hung_computer_decisions_leave_a_press_s_arrange_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thread mode: computer players' decisions that hang (each holds its thread until the
    bot stops) took the event loop's default threads, ``min(32, cores + 4)`` of them, which
    a press's "Arrange for me" waits for too: once they were all held, every Arrange waited
    ``PRESS_SECONDS`` and was answered "too late" (a full-suite run on two cores met it).
    Computer players now think in a pool of their own: more hung decisions than the default
    pool has threads leave a press's decision answered at once."""
    import os

    monkeypatch.setattr(thinking, "PRESS_SECONDS", 2.0)
    release = threading.Event()
    thinker = Thinker(in_process=False)
    hung = [
        asyncio.ensure_future(thinker.decide(never_until(release), None, Level.EASY))  # type: ignore[arg-type]
        for _ in range(min(32, (os.cpu_count() or 1) + 4) + 2)
    ]
    try:
        await asyncio.sleep(0.1)  # (the hung ones take their threads)

        def quick(k: SeatKnowledge, level: Level) -> Moves:
            return []

        moves = await thinker.decide(quick, None, Level.STRONG, within=1.0)  # type: ignore[arg-type]
        assert moves == []  # (not TimeoutError: it found a thread)
    finally:
        release.set()
        await asyncio.gather(*hung, return_exceptions=True)
        await thinker.close()
