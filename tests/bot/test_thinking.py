"""Decisions in the decision process (issue 13, :mod:`bot.thinking`): "Arrange for me" places as
a ``strong`` player; with ``decisions_in_process`` it and the computer players decide in a
worker process of their own (off the event loop's GIL), a dead worker is replaced, a worker
too slow for a press's answer gives way to a ``normal`` placement in a thread, and the
service's stop shuts the worker down. These tests decide as the bot does (the marker
``production_decisions``); the others in threads, Arrange at ``normal`` (tests/conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from bot import thinking
from bot.model import LiveTable
from bot.screens import Payload
from bot.service import TableService, bots, play, recovery
from bot.thinking import Moves, Thinker
from bot.workers import ProcessWorker, TaskHung
from game.actions import Action, Confirm, Discard, Place, Timeout
from game.board import Box
from game.cards import Card
from game.hand import Hand, HandSetup
from game.options import RuleOptions
from game.policy import Level, SeatKnowledge, decide, knowledge
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FOULED_NOTICES, FakePresenter
from tests.bot.hanging import by_level, hung_once, marker
from tests.bot.test_bots import play_hand_with_bots
from tests.bot.test_drawing import _gone
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import world
from tests.waiting import until

pytestmark = pytest.mark.production_decisions

Runs = list[tuple[Callable[..., Any], tuple[Any, ...], Any]]


def spy_on_the_worker(monkeypatch: pytest.MonkeyPatch) -> Runs:
    """Every task the worker process finished: ``(fn, args, result)``."""
    runs: Runs = []
    real = ProcessWorker.run

    async def run(self: ProcessWorker, fn: Callable[..., Any], *args: Any) -> Any:
        result = await real(self, fn, *args)
        runs.append((fn, args, result))
        return result

    monkeypatch.setattr(ProcessWorker, "run", run)
    return runs


async def two_people(in_process: bool | None = None) -> tuple[TableService, FakePresenter]:
    """Alice and Bob at a Pineapple table (Fantasyland on, the default), dealt in."""
    service = TableService(
        MemoryStore(), clock=Clock(), rng=random.Random(5), next_hand_delay=0, timers=False,
        decisions_in_process=in_process,
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    return service, presenter


def table(service: TableService) -> LiveTable:
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    return t


def shown(moves: Moves) -> dict[str, str | None]:
    return {c.code_str(): b and b.value for c, b in moves}


async def press(service: TableService, presenter: FakePresenter, action: str) -> None:
    """Alice presses her hand's button ``action`` (``a``: Arrange for me, ``c``: Confirm)."""
    screen = presenter.last_private(ALICE.user_id)
    data = next(
        b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == action
    )
    reply = await service.press(ALICE, data)
    assert not reply.alert, reply.text


async def alices_turn(service: TableService, presenter: FakePresenter) -> tuple[int, SeatKnowledge]:
    """Bob arranges and confirms until Alice is to act; her seat and what it knows."""
    t = table(service)
    assert t.hand is not None
    alice = next(s.seat for s in t.seats.values() if s.user_id == ALICE.user_id)
    while alice not in t.hand.to_act:
        await press_auto_and_confirm(service, presenter, BOB)
    return alice, knowledge(t.hand, alice)


async def test_arrange_for_me_places_as_a_strong_player() -> None:
    """Street after street, "Arrange for me" is ``decide(k, Level.STRONG)`` for what the seat
    knows when pressed, until (at least two streets and) a street where that is not the
    ``normal`` placement Arrange made before. (Here in a thread; the worker's below.)"""
    assert play.ARRANGE_LEVEL is Level.STRONG
    service, presenter = await two_people(in_process=False)
    t = table(service)
    differs = 0
    for street in range(5):
        if differs and street >= 2:
            break
        alice, k = await alices_turn(service, presenter)
        strong, normal = decide(k, Level.STRONG), decide(k, Level.NORMAL)
        differs += shown(strong) != shown(normal)
        await press(service, presenter, "a")
        assert t.hand is not None
        assert shown(list(t.hand.pending(alice))) == shown(strong)
        await press(service, presenter, "c")
    assert differs >= 1
    assert await check_store(service.store) == []


async def test_arrange_for_me_decides_in_the_worker_and_a_dead_worker_is_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``decisions_in_process`` the strong placement is made by the worker process (not
    by a thread of the bot), and placed. When that worker is killed, the next "Arrange for
    me" is still the strong placement, from a new worker; the service's stop shuts it down."""
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 60.0)  # (the path here, not the time limit)
    runs = spy_on_the_worker(monkeypatch)
    service, presenter = await two_people(in_process=True)
    t = table(service)
    thinker = service.rt.thinker
    worker = 0
    try:
        for killed in (False, True):
            alice, k = await alices_turn(service, presenter)
            strong = decide(k, Level.STRONG)
            if killed:
                os.kill(worker, signal.SIGKILL)
                assert _gone(worker)
            await press(service, presenter, "a")
            assert t.hand is not None
            assert shown(list(t.hand.pending(alice))) == shown(strong)
            made = [(args, result) for fn, args, result in runs if fn is decide]
            assert made[-1] == ((k, Level.STRONG), strong)  # the worker's, placed
            pid = await thinker.worker.run(os.getpid)
            assert pid != os.getpid()
            if killed:
                assert pid != worker  # replaced
            worker = pid
            await press(service, presenter, "c")
    finally:
        await service.stop()
    assert not thinker.running and _gone(worker)
    assert await check_store(service.store) == []


async def test_a_worker_too_slow_for_the_press_gives_way_to_a_normal_placement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The press is answered within a second: when the worker has not answered within
    ``ARRANGE_SECONDS`` (here none: it is still starting) the street is placed at the
    ``normal`` level, in a thread, at once."""
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 0.001)
    service, presenter = await two_people(in_process=True)
    t = table(service)
    try:
        for _street in range(5):
            alice, k = await alices_turn(service, presenter)
            normal = decide(k, Level.NORMAL)
            if shown(normal) != shown(decide(k, Level.STRONG)):
                break
            await press(service, presenter, "a")
            await press(service, presenter, "c")
        else:
            raise AssertionError("no street where strong and normal differ")
        await press(service, presenter, "a")
        assert t.hand is not None
        assert shown(list(t.hand.pending(alice))) == shown(normal)
    finally:
        await service.stop()
    assert not service.rt.thinker.running  # (a start under way was shut down too)


async def _alice_and_a_bot(
    level: str, *, timers: bool = False
) -> tuple[TableService, FakePresenter, MemoryStore, Clock]:
    """A service deciding in the worker process (``timers`` as :class:`TableService` takes
    them) whose group table seats a computer player of ``level`` and Alice, not yet ready:
    ``(service, presenter, store, clock)``; the caller stops the service."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=timers,
        decisions_in_process=True,
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, level)
    await service.join(GROUP, ALICE)
    return service, presenter, store, clock


async def test_computer_players_decide_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A strong computer player's every street is the worker's ``decide(k, STRONG)``."""
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 60.0)  # (Alice's presses: no time limit)
    runs = spy_on_the_worker(monkeypatch)
    service, presenter, store, clock = await _alice_and_a_bot("strong")
    try:
        await service.ready(GROUP, ALICE)
        t = table(service)
        hand = t.hand
        bot = next(s.seat for s in t.seats.values() if s.bot)
        assert await play_hand_with_bots(service, presenter, clock) == 5
        assert hand is not None and hand.result is not None
        board = set(hand.result.seat(bot).board.cards())
        dealt = board | set(hand.discards_of(bot))
        made = [(args, result) for fn, args, result in runs if fn is decide]
        assert len(made) == 10  # the bot's five streets and Alice's five "Arrange for me"
        mine = [(args, result) for args, result in made if set(args[0].cards) <= dealt]
        assert [args[1] for args, _ in mine] == [Level.STRONG] * 5
        assert {c for _, moves in mine for c, b in moves if b is not None} == board
    finally:
        await service.stop()
    assert not service.rt.thinker.running
    assert await check_store(store) == []


def _moves(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
    return [(k.cards[0], Box.TOP if level is Level.STRONG else Box.BOTTOM)]


async def test_a_worker_that_dies_twice_leaves_the_decision_to_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that dies again when replaced (or cannot start): the decision is made in a
    thread, at its level (a computer player) or at ``instead`` (a press's, ``within``)."""
    service, _presenter = await two_people(in_process=False)
    t = table(service)
    assert t.hand is not None
    k = knowledge(t.hand, t.hand.to_act[0])
    tries: list[Level] = []

    async def dead(self: ProcessWorker, fn: Callable[..., Any], *args: Any) -> Any:
        tries.append(args[1])
        raise BrokenProcessPool("killed")

    monkeypatch.setattr(ProcessWorker, "run", dead)
    thinker = Thinker(in_process=True)
    assert await thinker.decide(_moves, k, Level.STRONG) == [(k.cards[0], Box.TOP)]
    assert tries == [Level.STRONG, Level.STRONG]  # asked twice: a dead worker is replaced
    got = await thinker.decide(_moves, k, Level.STRONG, within=5.0, instead=Level.NORMAL)
    assert got == [(k.cards[0], Box.BOTTOM)]
    in_threads = Thinker(in_process=False)  # threads: no worker asked
    assert await in_threads.decide(_moves, k, Level.STRONG, within=0.0) == [(k.cards[0], Box.TOP)]
    assert len(tries) == 4


async def test_a_worker_shut_down_under_a_decision_leaves_it_to_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The service stopping while a decision waits for the worker (its pool shut down: "cannot
    schedule new futures after shutdown"): the decision is made in a thread, not lost to an
    uncaught error."""
    service, _presenter = await two_people(in_process=False)
    t = table(service)
    assert t.hand is not None
    k = knowledge(t.hand, t.hand.to_act[0])

    async def shut(self: ProcessWorker, fn: Callable[..., Any], *args: Any) -> Any:
        raise RuntimeError("cannot schedule new futures after shutdown")

    monkeypatch.setattr(ProcessWorker, "run", shut)
    thinker = Thinker(in_process=True)
    assert await thinker.decide(_moves, k, Level.STRONG) == [(k.cards[0], Box.TOP)]
    got = await thinker.decide(_moves, k, Level.STRONG, within=5.0, instead=Level.NORMAL)
    assert got == [(k.cards[0], Box.BOTTOM)]


async def test_arrange_for_me_on_telegram_is_the_workers_strong_placement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end on Telegram (the real adapter against the fake Bot API): two streets of
    "Arrange for me" and Confirm presses by each of two players, each placement the worker
    process's ``decide(k, STRONG)``, each press answered; the service's stop ends the
    worker."""
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 60.0)  # (the path here, not the time limit)
    runs = spy_on_the_worker(monkeypatch)
    async with world(tmp_path, decisions_in_process=True) as w:
        w.fake.started_users.update({TG_ALICE.id, TG_BOB.id})
        await seat_everyone(w, [TG_ALICE, TG_BOB])
        t = next(iter(w.service.tables.values()))
        hand = t.hand
        assert hand is not None
        by_id = {str(u.id): u for u in (TG_ALICE, TG_BOB)}
        streets = 0
        while streets < 4:
            seat = hand.to_act[0]
            user = by_id[t.seats[t.owner(seat)].user_id]
            k = knowledge(hand, seat)
            strong = decide(k, Level.STRONG)
            for action in ("a", "c"):
                data = next(d for (a, _), d in w.hand_buttons(user).items() if a == action)
                answer = await w.press(user, user.id, w.private(user) or {}, data)
                if answer.get("text") in FOULED_NOTICES:  # asks first (R2.3)
                    answer = await w.press(user, user.id, w.private(user) or {}, data)
                assert not answer.get("show_alert"), answer
                if action == "a":
                    assert shown(list(hand.pending(seat))) == shown(strong)
                    made = [(args, result) for fn, args, result in runs if fn is decide]
                    assert made[-1] == ((k, Level.STRONG), strong)
            streets += 1
        assert w.service.rt.thinker.running
        worker = await w.service.rt.thinker.worker.run(os.getpid)
    assert not w.service.rt.thinker.running and _gone(worker)


async def test_the_service_start_starts_the_decision_process_in_the_background() -> None:
    """The first "Arrange for me" after a start finds the worker up (it does not wait up to
    ``ARRANGE_SECONDS`` for it and then place at ``normal``): the service's start starts it,
    without waiting for it; its stop ends it. In thread mode no process starts."""
    threads = TableService(MemoryStore(), timers=False, decisions_in_process=False)
    await threads.start()
    assert not threads.rt.thinker.running and threads.rt.thinker.worker._starting is None
    await threads.stop()
    service = TableService(MemoryStore(), timers=False, decisions_in_process=True)
    await service.start()
    thinker = service.rt.thinker
    assert thinker.worker._starting is not None  # under way, not waited for
    await until(lambda: thinker.running, 60, "the worker process is up")
    assert thinker.running  # up with no decision asked
    worker = await thinker.worker.run(os.getpid)
    assert worker != os.getpid()
    await service.stop()
    assert not thinker.running and _gone(worker)


def _kill_worker(thinker: Thinker) -> None:
    """End the worker process, hung or not (a stop waits for the task it runs)."""
    pool = thinker.worker._pool
    if pool is not None:
        for process in list((pool._processes or {}).values()):
            process.kill()


def _hung(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
    """A decision that never comes (an endless loop on some position), in the worker."""
    time.sleep(3600)
    return []


async def _to_the_bot_s_hung_decision(
    service: TableService, presenter: FakePresenter, monkeypatch: pytest.MonkeyPatch
) -> tuple[LiveTable, int]:
    """Every decision hangs in the worker (:func:`_hung`); Alice is dealt in beside the
    computer player and plays until its turn: (the table, the computer player's seat)."""
    monkeypatch.setattr(bots, "decide", _hung)
    await service.ready(GROUP, ALICE)
    t = table(service)
    hand = t.hand
    assert hand is not None
    bot = next(s.seat for s in t.seats.values() if s.bot)
    while bot not in hand.to_act:
        await press_auto_and_confirm(service, presenter, ALICE)
    return t, bot


async def test_a_worker_hung_on_a_decision_is_replaced_for_the_next_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player's decision hangs in the worker: given up after ``DECISION_SECONDS``,
    its street is placed by the timeout rule (R8.5). The worker stayed hung on it, so every
    later decision of every computer player queued behind it, was given up too and placed by
    the timeout rule, 10 s each. The hung worker is killed and a new one started: the next
    street is the one ``decide`` computes for what the seat knows, from a new process."""
    monkeypatch.setattr(thinking, "DECISION_SECONDS", 5.0)
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 60.0)  # (Alice's presses: no time limit)
    service, presenter, _store, clock = await _alice_and_a_bot("easy")
    thinker = service.rt.thinker
    hung = 0
    try:
        hung = await thinker.worker.run(os.getpid)
        monkeypatch.setattr(bots, "decide", _hung)
        await service.ready(GROUP, ALICE)
        t = table(service)
        hand = t.hand
        assert hand is not None
        bot = next(s.seat for s in t.seats.values() if s.bot)
        moved: list[list[Action]] = []
        while len(moved) < 2 and t.hand is hand:
            if bot not in hand.to_act:
                await press_auto_and_confirm(service, presenter, ALICE)
                continue
            if moved:  # the decision of the second street: the real one, as the bot's
                monkeypatch.setattr(bots, "decide", decide)
                expected = decide(knowledge(hand, bot), Level.EASY)
            before = len(hand.actions)
            assert t.bot_due is not None
            clock.now = t.bot_due
            await service.run_due()
            moved.append([a for a in hand.actions[before:] if a.seat == bot])
        assert moved[0] == [Timeout(bot)]  # the hung decision, given up
        placed = [Place(bot, c, b) if b else Discard(bot, c) for c, b in expected]
        assert moved[1] == [*placed, Confirm(bot)]  # computed, not the timeout rule's
        worker = await thinker.worker.run(os.getpid)
        assert worker not in (hung, os.getpid()) and _gone(hung)
    finally:
        _kill_worker(thinker)
        await service.stop()


async def test_decisions_queued_behind_a_hung_one_are_made_by_the_new_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker replaced under decisions queued behind the hung one (other tables' computer
    players, an "Arrange for me"): each is asked again of the new worker and answered, none
    ends in a ``CancelledError`` (a press's answer lost) or waits for good."""
    runs = spy_on_the_worker(monkeypatch)
    service, _presenter = await two_people(in_process=False)
    t = table(service)
    assert t.hand is not None
    k = knowledge(t.hand, t.hand.to_act[0])
    thinker = Thinker(in_process=True)
    hung = asyncio.create_task(thinker.decide(_hung, k, Level.STRONG))
    try:
        await until(lambda: thinker.running, 60, "the worker process is up")
        old = thinker.worker._pool
        assert old is not None
        await asyncio.sleep(0.2)  # (the hung one taken by the worker)
        queued = [asyncio.create_task(thinker.decide(_moves, k, level)) for level in Level]
        await asyncio.sleep(0.2)
        hung.cancel()  # (given up: DECISION_SECONDS)
        thinker.replace()
        got = await asyncio.wait_for(asyncio.gather(*queued), 60)
        top = {lv: Box.TOP if lv is Level.STRONG else Box.BOTTOM for lv in Level}
        assert got == [[(k.cards[0], top[lv])] for lv in Level]
        assert [fn for fn, _args, _result in runs] == [_moves] * len(Level)  # the new worker's
        assert thinker.worker._pool is not None and thinker.worker._pool is not old
    finally:
        hung.cancel()
        _kill_worker(thinker)
        await thinker.close()
        await service.stop()


async def test_a_hung_decision_holds_the_table_for_decision_seconds_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player's decision, started during its pace, hangs in the worker. When its
    move comes due the table's timer waits for it ``DECISION_SECONDS`` (the table free), then
    the step gives it up: its street is placed by the timeout rule (R8.5) and the worker is
    replaced. The step waited ``DECISION_SECONDS`` more for the same decision: the hung one
    held the table twice as long. Each wait is at least its timeout, so the step came at
    ``2 × DECISION_SECONDS`` at the earliest; now after ``DECISION_SECONDS`` and a little."""
    seconds = 1.5
    monkeypatch.setattr(thinking, "DECISION_SECONDS", seconds)
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 60.0)  # (Alice's presses: no time limit)
    service, presenter, _store, clock = await _alice_and_a_bot("easy", timers=True)
    thinker = service.rt.thinker
    loop = asyncio.get_running_loop()
    try:
        hung = await thinker.worker.run(os.getpid)
        t, bot = await _to_the_bot_s_hung_decision(service, presenter, monkeypatch)
        hand = t.hand
        assert hand is not None
        assert (t.id, bot) in service.rt.thinking  # (its decision under way, in the worker)
        before = len(hand.actions)
        assert t.bot_due is not None
        clock.now = t.bot_due  # its move is due: the table's timer fires at once
        start = loop.time()
        async with t.lock:
            await service.rt.arm(t)
        await until(lambda: len(hand.actions) > before, 60, "the computer player's move")
        took = loop.time() - start
        assert [a for a in hand.actions[before:] if a.seat == bot] == [Timeout(bot)]
        assert took < 1.9 * seconds, took  # (it was 2 × seconds at least)
        worker = await thinker.worker.run(os.getpid)
        assert worker not in (hung, os.getpid()) and _gone(hung)
    finally:
        _kill_worker(thinker)
        await service.stop()


async def test_a_worker_hung_on_an_arrange_is_replaced_for_the_later_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An "Arrange for me" decision hangs in the worker: given up after ``ARRANGE_SECONDS``,
    the street is placed at ``normal`` in a thread. Nothing replaced the hung worker (only a
    computer player's decision timing out did): every later Arrange, at every table, waited
    ``ARRANGE_SECONDS`` and got the weaker placement. A worker on one decision longer than
    ``DECISION_SECONDS`` is hung: it is killed when it passes them and a new one started;
    the later presses get the strong placement, from the new worker."""
    seconds = 1.0
    monkeypatch.setattr(thinking, "DECISION_SECONDS", seconds)
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 0.3)
    runs = spy_on_the_worker(monkeypatch)
    service, presenter = await two_people(in_process=True)
    thinker = service.rt.thinker
    t = table(service)
    hang = marker(os.getpid())
    try:
        hung = await thinker.worker.run(os.getpid)
        monkeypatch.setattr(play, "decide", hung_once)
        alice, k = await alices_turn(service, presenter)
        hang.touch()
        await press(service, presenter, "a")
        await until(lambda: not hang.exists(), 30, "the worker hung on the decision")
        assert t.hand is not None
        assert shown(list(t.hand.pending(alice))) == shown(decide(k, Level.NORMAL))
        await press(service, presenter, "c")
        # (no decision asked meanwhile: replaced when it passed DECISION_SECONDS)
        await until(lambda: _gone(hung, 0.05), 10 * seconds, "the hung worker killed")
        monkeypatch.setattr(play, "ARRANGE_SECONDS", 5.0)  # (a new worker has time to start)
        alice, k = await alices_turn(service, presenter)  # (Bob's presses: Arrange too)
        strong = decide(k, Level.STRONG)
        await press(service, presenter, "a")
        assert shown(list(t.hand.pending(alice))) == shown(strong)
        made = [(args, result) for fn, args, result in runs if fn is hung_once]
        assert made[-1] == ((k, Level.STRONG), strong)  # the worker's, placed
        worker = await thinker.worker.run(os.getpid)
        assert worker not in (hung, os.getpid())
    finally:
        hang.unlink(missing_ok=True)
        _kill_worker(thinker)
        await service.stop()


async def test_the_next_decision_replaces_a_worker_hung_past_decision_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that has been on one task longer than ``DECISION_SECONDS`` (here one nobody
    gave up on, so no check was set for it) is replaced by the next decision asked of it:
    that decision comes from a new worker, not ``within`` seconds late at ``instead``."""
    seconds = 1.0
    monkeypatch.setattr(thinking, "DECISION_SECONDS", seconds)
    service, _presenter = await two_people(in_process=False)
    t = table(service)
    assert t.hand is not None
    k = knowledge(t.hand, t.hand.to_act[0])
    thinker = Thinker(in_process=True)
    hang = marker(os.getpid())
    stuck: asyncio.Task[Any] | None = None
    try:
        hung = await thinker.worker.run(os.getpid)
        hang.touch()
        stuck = asyncio.create_task(thinker.worker.run(hung_once, k, Level.STRONG))
        await until(lambda: not hang.exists(), 30, "the worker hung on the task")
        await asyncio.sleep(seconds)  # (past DECISION_SECONDS since the worker was given it)
        got = await thinker.decide(by_level, k, Level.STRONG, within=10.0, instead=Level.NORMAL)
        assert got == [(k.cards[0], Box.TOP)]  # the worker's, at its level
        with pytest.raises(TaskHung):  # (the hung task: its worker killed on it)
            await stuck
        worker = await thinker.worker.run(os.getpid)
        assert worker not in (hung, os.getpid()) and _gone(hung)
    finally:
        hang.unlink(missing_ok=True)
        if stuck is not None:
            stuck.cancel()
        _kill_worker(thinker)
        await thinker.close()
        await service.stop()


async def test_a_table_no_longer_served_mid_decision_leaves_no_decision_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player's decision is under way in the worker (it hangs there) when the
    table stops being served here mid-hand (its lease lost to another worker, issue 14:
    :func:`~bot.service.recovery.release`, the only way a table goes mid-hand; every close
    comes between hands, R8.2a). Nothing of it stays in ``rt.thinking``: the entry is
    removed and its task cancelled (:meth:`Runtime.forget`), not kept until the computer
    player moves, which it never will here."""
    monkeypatch.setattr(thinking, "DECISION_SECONDS", 60.0)
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 60.0)  # (Alice's presses: no time limit)
    service, presenter, _store, _clock = await _alice_and_a_bot("easy", timers=True)
    thinker = service.rt.thinker
    try:
        t, bot = await _to_the_bot_s_hung_decision(service, presenter, monkeypatch)
        task = service.rt.thinking[(t.id, bot)][1]  # (its decision under way, in the worker)
        await recovery.release(service.rt, t)
        assert t.id not in service.rt.tables
        assert service.rt.thinking == {}
        await asyncio.sleep(0)
        assert task.cancelled()
    finally:
        _kill_worker(thinker)
        await service.stop()


async def test_a_decision_given_up_behind_others_keeps_a_worker_that_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player's decision runs out of its ``DECISION_SECONDS`` without the worker
    being hung: it waited behind a hung one at another table and was asked again of the
    worker started in its place, still starting or busy with the others asked again. The
    worker was killed all the same (every decision given up replaced it), and with it every
    other table's decision under way on it, each started over. A worker that answers, on no
    task longer than ``DECISION_SECONDS``, is kept."""
    monkeypatch.setattr(thinking, "DECISION_SECONDS", 5.0)
    service, _presenter, _store, _clock = await _alice_and_a_bot("easy")
    thinker = service.rt.thinker
    try:
        await service.ready(GROUP, ALICE)
        t = table(service)
        assert t.hand is not None
        bot = next(s.seat for s in t.seats.values() if s.bot)
        k = knowledge(t.hand, bot)
        worker = await thinker.worker.run(os.getpid)  # (up, idle: it answers)

        async def queued() -> Moves:  # (still waiting for its turn in the worker)
            await asyncio.sleep(3600)
            return []

        waiting = asyncio.create_task(queued())
        service.rt.thinking[(t.id, bot)] = (k, waiting)
        service.rt.thinking_until[waiting] = asyncio.get_running_loop().time()  # (ran out)
        with pytest.raises(TimeoutError):
            await bots._decision(service.rt, t, bot, k, Level.EASY)
        assert waiting.cancelled() or waiting.cancelling()
        assert await thinker.worker.run(os.getpid) == worker  # the same worker, kept
    finally:
        await service.stop()


async def test_a_decision_queued_behind_a_hung_one_is_asked_again_within_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player's decision hangs in the worker; another table's is asked 2 s later,
    queued behind it. Each caller waits ``DECISION_SECONDS`` at most (:func:`bots._decision`),
    the hung one's longer (its pace). Nothing replaced the hung worker before a caller gave
    up: the queued decision ran out of its time first and its street was made by the
    timeout rule (R8.5). The worker is replaced as soon as it has been on one decision
    ``DECISION_SECONDS``: the queued decision is asked again of the new worker and answered
    within its time, and the hung one is not asked again (it would hang the new worker)."""
    seconds = 3.0
    monkeypatch.setattr(thinking, "DECISION_SECONDS", seconds)
    runs = spy_on_the_worker(monkeypatch)
    service, _presenter = await two_people(in_process=False)
    t = table(service)
    assert t.hand is not None
    k = knowledge(t.hand, t.hand.to_act[0])
    thinker = Thinker(in_process=True)
    hang = marker(os.getpid())
    hung: asyncio.Task[Moves] | None = None
    try:
        first = await thinker.worker.run(os.getpid)
        hang.touch()
        hung = asyncio.create_task(
            asyncio.wait_for(thinker.decide(hung_once, k, Level.STRONG), seconds + 2)
        )
        await until(lambda: not hang.exists(), 30, "the worker hung on the decision")
        await asyncio.sleep(2.0)
        queued = await asyncio.wait_for(thinker.decide(by_level, k, Level.STRONG), seconds)
        assert queued == [(k.cards[0], Box.TOP)]  # the new worker's, at its level
        with pytest.raises(TaskHung):
            await hung
        assert [fn for fn, _args, _result in runs] == [os.getpid, by_level]  # (not hung_once)
        assert await thinker.worker.run(os.getpid) not in (first, os.getpid())
    finally:
        hang.unlink(missing_ok=True)
        if hung is not None:
            hung.cancel()
        _kill_worker(thinker)
        await thinker.close()
        await service.stop()


async def test_a_decision_the_worker_was_killed_on_is_not_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player's decision made during its pace ended with the worker killed as hung
    on it: the move gives it up (its street is made by the timeout rule, R8.5) instead of
    asking it again of the new worker, which it would hang too."""
    service, _presenter, _store, _clock = await _alice_and_a_bot("easy")
    try:
        await service.ready(GROUP, ALICE)
        t = table(service)
        assert t.hand is not None
        bot = next(s.seat for s in t.seats.values() if s.bot)
        k = knowledge(t.hand, bot)

        async def killed() -> Moves:
            raise TaskHung("the worker was killed as hung on decide")

        asked: list[SeatKnowledge] = []

        async def decide_again(fn: Any, k: SeatKnowledge, level: Level, **kw: Any) -> Moves:
            asked.append(k)
            return []

        thought = asyncio.create_task(killed())
        await asyncio.wait([thought])
        service.rt.thinking[(t.id, bot)] = (k, thought)
        monkeypatch.setattr(service.rt.thinker, "decide", decide_again)
        with pytest.raises(TaskHung):
            await bots._decision(service.rt, t, bot, k, Level.EASY)
        assert asked == []
    finally:
        await service.stop()


async def test_a_stop_while_a_computer_players_decision_hangs_in_the_worker_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A restart while a computer player's decision hangs in the decision process (an endless
    loop on some position): the service's stop shut the worker down waiting for the task it
    ran (``ProcessWorker.close``), for good, so the bot never stopped (its adapters and
    storage left open, SIGTERM never done; the tests here killed the worker before each
    stop). The stop waits :data:`~bot.thinking.CLOSE_SECONDS` for it, then kills the worker;
    the table was saved with the computer player to move, and the restarted service moves
    it once, by its policy."""
    monkeypatch.setattr(thinking, "DECISION_SECONDS", 60.0)
    monkeypatch.setattr(thinking, "CLOSE_SECONDS", 1.0)
    monkeypatch.setattr(play, "ARRANGE_SECONDS", 60.0)  # (Alice's presses: no time limit)
    service, presenter, store, clock = await _alice_and_a_bot("easy", timers=True)
    thinker = service.rt.thinker
    worker = await thinker.worker.run(os.getpid)
    try:
        t, bot = await _to_the_bot_s_hung_decision(service, presenter, monkeypatch)
        await until(lambda: (t.id, bot) in service.rt.thinking, what="its decision asked")
        await asyncio.sleep(0.5)  # (the worker is on it)
        began = time.monotonic()
        await asyncio.wait_for(service.stop(), 20.0)
        assert time.monotonic() - began < 10.0
        assert not thinker.running and _gone(worker)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)  # (a stop that waited for it left it hung)
    monkeypatch.setattr(bots, "decide", decide)
    again = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    again.register(FakePresenter())
    await again.start()
    try:
        t = table(again)
        hand = t.hand
        assert hand is not None and hand.to_act == (bot,)
        expected = decide(knowledge(hand, bot), Level.EASY)
        before = len(hand.actions)
        assert t.bot_due is not None
        clock.now = max(clock.now, t.bot_due)
        await again.run_due()
        placed = [Place(bot, c, b) if b else Discard(bot, c) for c, b in expected]
        assert [a for a in hand.actions[before:] if a.seat == bot] == [*placed, Confirm(bot)]
    finally:
        await again.stop()
    assert await check_store(store) == []


async def test_a_task_hung_in_a_worker_closed_with_grace_is_not_asked_of_a_new_one() -> None:
    """A worker closed with a grace (the service's stop, ``Thinker.close``) while a task
    hangs in it is killed after the grace; the task's caller is told it hung
    (:class:`~bot.workers.TaskHung`), not given ``BrokenProcessPool``, on which a decision
    is asked again of a new worker: one started after the stop, never closed."""
    worker = ProcessWorker()
    pid = await worker.run(os.getpid)
    hang = marker(os.getpid())
    hang.touch()
    h = Hand(HandSetup.deal(RuleOptions(), (0, 1), 0, seed=1))
    stuck = asyncio.create_task(worker.run(hung_once, knowledge(h, h.to_act[0]), Level.EASY))
    try:
        await until(lambda: not hang.exists(), 30, "the worker hung on the task")
        began = time.monotonic()
        await worker.close(0.5)
        assert time.monotonic() - began < 5.0 and _gone(pid)
        with pytest.raises(TaskHung):
            await stuck
        assert not worker.running
    finally:
        hang.unlink(missing_ok=True)
        stuck.cancel()
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        await worker.close()
