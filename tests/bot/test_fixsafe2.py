"""``safe_autoplay``'s timeouts (R8.5) off the event loop, the cases fixauto left (fixsafe2).

- A hand rebuilt from its actions (a restart's restore, a refused step's rollback, a
  worker's takeover) decided every earlier safe timeout again with the strategy, on the
  event loop; the placement is now recorded on the timeout's action and replayed.
- A ``/leave`` during the hand made the leaver's street in the command's step, the strategy
  deciding it there; its placement is now made in the decision pool first.

Each test records the thread the strategy runs on (``game.hand.decide``: the hand deciding
itself, in the step; ``runtime.decide``: the decision pool's)."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

import game.hand
from bot.service import TableService, bots
from bot.service import runtime as runtime_module
from game.actions import Timeout
from game.board import Box
from game.hand import Hand
from game.policy import Level, SeatKnowledge, decide
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_bots import new_service
from tests.bot.test_service import (
    ALICE,
    BOB,
    GROUP,
    leave_now,
    press_auto_and_confirm,
    seated,
)
from tests.bot.test_tournament_service import PLAYERS, configure, running_tournament
from tests.bot.test_tournament_service import new_service as tournament_service
from tests.waiting import until


class Spy:
    """``decide`` that records the thread each call runs on."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def __call__(self, k: SeatKnowledge, level: Level) -> list[tuple[Any, Box | None]]:
        self.threads.append(threading.current_thread())
        return decide(k, level)

    def on(self, thread: threading.Thread) -> int:
        return sum(1 for t in self.threads if t is thread)


def _twin(hand: Hand) -> Hand:
    return Hand.from_json(hand.to_json())


async def _after_a_safe_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[TableService, MemoryStore, Clock, int, Hand]:
    """A table of Alice and Bob with ``safe_autoplay``; the player to act's clock ran out
    and the timer's step placed their street by the strategy. Returns the service, its
    store and clock, that seat, and the hand replayed from its log by the strategy."""
    store, clock = MemoryStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), timers=True)
    service.register(FakePresenter())
    reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.options.safe_autoplay
    sleeper = t.hand.to_act[0]
    twin = _twin(t.hand)
    twin.apply(Timeout(sleeper))
    seq, street = t.seq, t.hand.street_of(sleeper)
    clock.now += 181  # budget and bank run out (R8.5)
    await service.rt.arm(t)
    await until(lambda: t.seq > seq, what="the timeout's step")
    assert t.hand.street_of(sleeper) == street + 1
    assert t.hand.board_of(sleeper) == twin.board_of(sleeper)
    assert t.hand.board_of(sleeper).count == 5
    return service, store, clock, sleeper, twin


async def test_r8_5_a_restart_restores_a_hand_without_deciding_its_safe_timeouts_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot restarts after a safe timeout: the hand restored from its snapshot has the
    board the timeout placed, and the strategy is not run on the event loop to rebuild it
    (it decided every earlier safe timeout of the hand again there)."""
    service, store, clock, sleeper, twin = await _after_a_safe_timeout(monkeypatch)
    await service.stop()
    spy = Spy()
    monkeypatch.setattr(game.hand, "decide", spy)
    service2 = TableService(store, clock=clock, rng=random.Random(6), timers=False)
    service2.register(FakePresenter())
    await service2.start()
    try:
        t2 = service2.table_in(GROUP)
        assert t2 is not None and t2.hand is not None
        assert t2.hand.board_of(sleeper) == twin.board_of(sleeper)
        assert t2.hand.board_of(sleeper).count == 5
        assert spy.on(threading.current_thread()) == 0
    finally:
        await service2.stop()


async def test_r8_5_a_rolled_back_step_rebuilds_the_hand_without_deciding_its_safe_timeouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A step refused after a safe timeout (here one raising in its block) rolls the table
    back by rebuilding it from its snapshot: the hand is as before, its timeout's board the
    same, and the strategy did not run on the event loop for it."""
    service, _store, _clock, sleeper, twin = await _after_a_safe_timeout(monkeypatch)
    try:
        t = service.table_in(GROUP)
        assert t is not None and t.hand is not None
        before = t.hand
        spy = Spy()
        monkeypatch.setattr(game.hand, "decide", spy)
        with pytest.raises(RuntimeError):
            async with service.rt.transition(t):
                raise RuntimeError("refused")
        assert t.hand is not before  # (rebuilt from the snapshot)
        assert t.hand.board_of(sleeper) == twin.board_of(sleeper)
        assert spy.on(threading.current_thread()) == 0
    finally:
        await service.stop()


async def test_r8_5_a_leave_during_the_hand_has_the_leavers_street_placed_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The player to act leaves during the hand (``/leave``, confirmed): their street is
    made at once as on timeout (R8.5), placed by the strategy as :meth:`Hand.suggest`
    places it, and the strategy runs in a decision thread before the step, not in the
    command's step on the event loop."""
    service = TableService(MemoryStore(), clock=Clock(), rng=random.Random(5), timers=False)
    service.register(FakePresenter())
    try:
        reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
        assert not reply.alert, reply.text
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
        hand = t.hand
        leaver_seat = hand.to_act[0]
        leaver = next(a for a in (ALICE, BOB) if t.seat_of(a.user_id).seat == t.owner(leaver_seat))  # type: ignore[union-attr]
        twin = _twin(hand)
        twin.apply(Timeout(leaver_seat))
        pool, step = Spy(), Spy()
        monkeypatch.setattr(runtime_module, "decide", pool)
        monkeypatch.setattr(game.hand, "decide", step)
        assert (await service.leave(GROUP, leaver)).alert  # (asks first)
        reply = await service.leave(GROUP, leaver)
        assert not reply.alert, reply.text
        assert hand.street_of(leaver_seat) == 2
        assert hand.board_of(leaver_seat) == twin.board_of(leaver_seat)
        assert hand.board_of(leaver_seat).count == 5
        loop = threading.current_thread()
        assert len(pool.threads) == 1 and pool.on(loop) == 0
        assert step.threads == []
    finally:
        await service.stop()


async def test_r8_5_a_computer_players_street_made_by_the_timeout_rule_is_placed_off_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player's decision the core refuses (here its policy places nothing): its
    street is made by the timeout rule (R8.5), with ``safe_autoplay`` placed by the
    strategy as :meth:`Hand.suggest` places it; the strategy runs in a decision thread,
    not in the step on the event loop."""
    monkeypatch.setattr(bots, "decide", lambda k, level: [])
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    try:
        reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
        assert not reply.alert, reply.text
        await service.new_table(GROUP, ALICE)
        await service.add_bot(GROUP, ALICE, True, "easy")
        await service.join(GROUP, ALICE)
        await service.ready(GROUP, ALICE)
        t = service.table_in(GROUP)
        assert t is not None and t.hand is not None and t.options.safe_autoplay
        while t.seats[t.owner(t.hand.to_act[0])].user_id == ALICE.user_id:
            await press_auto_and_confirm(service, presenter, ALICE)
        bot = next(s for s in t.seats.values() if s.bot)
        hand = t.hand
        assert hand.to_act == (bot.seat,) and t.bot_due is not None
        twin = _twin(hand)
        twin.apply(Timeout(bot.seat))
        street = hand.street_of(bot.seat)
        pool, step = Spy(), Spy()
        monkeypatch.setattr(runtime_module, "decide", pool)
        monkeypatch.setattr(game.hand, "decide", step)
        clock.now = t.bot_due
        await service.run_due()
        assert hand.street_of(bot.seat) == street + 1
        assert hand.board_of(bot.seat) == twin.board_of(bot.seat)
        assert len(pool.threads) == 1 and pool.on(threading.current_thread()) == 0
        assert step.threads == []
    finally:
        await service.stop()


async def test_r8_7_leaving_a_running_tournament_mid_hand_places_the_street_off_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a running tournament with ``safe_autoplay`` the player to act leaves (knocked out,
    R8.7): their street is made at once as on timeout (R8.5), placed by the strategy as
    :meth:`Hand.suggest` places it, made in a decision thread before the step."""
    service, _presenter, _store, _clock = tournament_service(5)
    try:
        await configure(service, safe_autoplay="on")
        t, _tour = await running_tournament(service)
        hand = t.hand
        assert hand is not None and t.options.safe_autoplay
        leaver_seat = hand.to_act[0]
        owner = t.seats[t.owner(leaver_seat)]
        leaver = next(a for a in PLAYERS if a.user_id == owner.user_id)
        twin = _twin(hand)
        twin.apply(Timeout(leaver_seat))
        pool, step = Spy(), Spy()
        monkeypatch.setattr(runtime_module, "decide", pool)
        monkeypatch.setattr(game.hand, "decide", step)
        reply = await leave_now(service, GROUP, leaver)
        assert reply.text.startswith("You left the tournament"), reply.text
        assert t.hand is hand and hand.street_of(leaver_seat) == 2
        assert hand.board_of(leaver_seat) == twin.board_of(leaver_seat)
        assert len(pool.threads) == 1 and pool.on(threading.current_thread()) == 0
        assert step.threads == []
    finally:
        await service.stop()
