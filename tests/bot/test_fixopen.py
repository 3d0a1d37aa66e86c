"""fixopen: who may seat computer players once a cash table's opener has gone (R8.2, R8.2a),
and what a late joiner is told of the lobby's ready timer (R8.2). In-memory store, a
hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from bot.model import Actor
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_break19 import ready_timer_ran_out
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP
from tests.bot.test_tournament_service import configure, new_service

DAN = Actor("telegram", "4", "Dan", "en")
ERIN = Actor("telegram", "5", "Erin", "ru")


async def test_r8_2_a_join_while_the_ready_timer_runs_says_how_long_is_left() -> None:
    """Classic OFC, four seats: Alice and Bob are ready, Carol is not, and the lobby's ready
    timer (R8.2, 60 s) has 5 s left (then 0.2 s) when Dan (then Erin) sits down. They were
    told only "Press Ready to buy in" and were stood up a moment later. Now the reply says
    how long they have, as the clocks show it; with no timer running, it says what it did."""
    service, _presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="ofc")
    t = await ready_timer_ran_out(service, clock)
    deadline = t.ready_deadline
    assert deadline is not None
    clock.now = deadline - 5
    reply = await service.join(GROUP, DAN)
    assert not reply.alert, reply.text
    assert reply.text == "You sit at seat 4. Press Ready within 0:05 to buy in."
    clock.now = deadline - 4.8  # (a started second counts whole, as the clocks show it)
    assert not (await service.leave(GROUP, DAN)).alert
    reply = await service.join(GROUP, ERIN)
    assert reply.text == "Вы сели на место 4. Нажмите «Готов» в течение 0:05, чтобы внести взнос."
    assert t.ready_deadline == deadline  # (nothing else changed: the same timer)
    assert not (await service.ready(GROUP, ERIN)).alert
    assert not (await service.ready(GROUP, CAROL)).alert
    assert t.hand is not None and len(t.hand.order) == 4
    assert await check_store(store) == []
    await service.stop()


async def test_r8_2_a_join_with_no_ready_timer_running_reads_as_before() -> None:
    service, _presenter, _store, _clock = new_service(next_hand_delay=4)
    await service.new_table(GROUP, ALICE)
    reply = await service.join(GROUP, ALICE)
    assert reply.text == "You sit at seat 1. Press Ready to buy in."
    assert not (await service.ready(GROUP, ALICE)).alert
    reply = await service.join(GROUP, BOB)  # one ready: no timer yet
    assert reply.text == tr("ru", "reply.joined", seat=2)
    await service.stop()
