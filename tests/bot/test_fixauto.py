"""``safe_autoplay``'s timeout (R8.5) places by the strategy off the event loop (fixauto).

A timeout with ``safe_autoplay`` ran the strategy (:meth:`Hand.suggest`, ``normal``) in the
table's step, on the event loop, holding the table: up to a quarter of a second per timeout
(a 17-card Fantasyland hand of classic OFC on a loaded machine), every other table's presses
held meanwhile, past a second with a few timeouts in one step. Now the table's timer has the
placement made in the decision process before it takes the table
(:meth:`Runtime.think_safe`), and the hand takes it when the seat still knows what it was
made from (:meth:`Hand.offer_safe`): the same placement the step made before."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

import game.hand
from bot.model import Actor, ChatRef
from bot.screens import Payload
from bot.service import TableService
from bot.service import runtime as runtime_module
from game.actions import Place, Timeout
from game.board import Box
from game.hand import Hand, HandSetup
from game.options import GameKind, RuleOptions
from game.policy import Level, SeatKnowledge, decide
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    dealt_at,
    press_auto_and_confirm,
    seated,
)
from tests.waiting import until

OTHER = ChatRef("telegram", "-200", "-200", "Others")
DAVE = Actor("telegram", "4", "Dave", "en")


def _hands(options: RuleOptions, seed: int, fantasyland: dict[int, int] | None = None) -> Hand:
    return Hand(HandSetup.deal(options, (0, 1), 0, fantasyland or {}, seed=seed))


def _twin(hand: Hand) -> Hand:
    return Hand.from_json(hand.to_json())


@pytest.mark.parametrize(
    ("kind", "fantasyland"),
    [(GameKind.PINEAPPLE, None), (GameKind.PINEAPPLE, {0: 15}), (GameKind.OFC, {1: 13})],
)
def test_r8_5_a_placement_made_elsewhere_from_the_timeouts_knowledge_is_the_timeouts(
    monkeypatch: pytest.MonkeyPatch, kind: GameKind, fantasyland: dict[int, int] | None
) -> None:
    """At every timeout of a hand (some of its cards put in boxes first, all of them on a
    street with a discard: the timeout discards the last, R3.2), ``decide`` made from
    :meth:`Hand.timeout_knowledge` and offered to the hand gives the board the timeout gave
    deciding itself, and the hand then does not decide (the strategy off the event loop)."""
    # 15 cards only under progressive_fantasyland (Pineapple), classic OFC deals 13 (R6.2)
    progressive = any(c > 14 for c in (fantasyland or {}).values())
    options = RuleOptions(game=kind, safe_autoplay=True, progressive_fantasyland=progressive)
    decided = 0
    for seed in range(4):
        inline = _hands(options, seed, fantasyland)
        offered = _twin(inline)
        while not inline.is_over:
            seat = inline.to_act[0]
            cards = inline.to_place(seat)
            # put some cards in boxes first: none, one, or every card (street with a discard)
            for c in cards[: (0, 1, len(cards))[seed % 3]]:
                free = [b for b in Box if inline.board_of(seat, with_pending=True).free(b)]
                if free and inline.can(Place(seat, c, free[0])):
                    box = free[0]
                    inline.apply(Place(seat, c, box))
                    offered.apply(Place(seat, c, box))
            k = offered.timeout_knowledge(seat)
            if k is None:  # every card in a box: nothing to decide (the last one discarded)
                assert not inline.to_place(seat)
                done = offered.apply(Timeout(seat))
            else:
                decided += 1
                offered.offer_safe(seat, k, decide(k, Level.NORMAL))
                with monkeypatch.context() as m:
                    m.setattr(game.hand, "decide", _no_decision)
                    done = offered.apply(Timeout(seat))
            assert done.placements == inline.apply(Timeout(seat)).placements
            assert offered.board_of(seat) == inline.board_of(seat)
        assert offered.result == inline.result
    assert decided >= 10


def test_r8_5_a_placement_offered_for_other_knowledge_is_not_taken() -> None:
    """The seat put a card in a box after the placement was made: the knowledge differs, so
    the timeout decides itself (the placement offered would place a card twice)."""
    options = RuleOptions(safe_autoplay=True)
    hand = _hands(options, 7)
    twin = _twin(hand)
    seat = hand.to_act[0]
    k = hand.timeout_knowledge(seat)
    assert k is not None
    hand.offer_safe(seat, k, [(c, Box.TOP) for c in k.cards])  # (a wrong one: never taken)
    first = hand.to_place(seat)[0]
    for h in (hand, twin):
        h.apply(Place(seat, first, Box.BOTTOM))
    assert hand.timeout_knowledge(seat) != k
    assert hand.apply(Timeout(seat)).placements == twin.apply(Timeout(seat)).placements
    assert hand.board_of(seat) == twin.board_of(seat)
    assert hand.board_of(seat).count == 5


def test_r8_5_no_timeout_knowledge_without_safe_autoplay_or_for_a_seat_not_to_act() -> None:
    hand = _hands(RuleOptions(), 3)
    assert hand.timeout_knowledge(hand.to_act[0]) is None
    safe = _hands(RuleOptions(safe_autoplay=True), 3)
    waiting = next(s for s in safe.order if s not in safe.to_act)
    assert safe.timeout_knowledge(waiting) is None


def _no_decision(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the strategy ran in the timeout's step")


async def test_r8_5_a_safe_timeout_is_placed_by_the_strategy_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice's clock runs out at a table with ``safe_autoplay``: the table's timer has the
    strategy's placement made in a decision thread (here a slow one, held until released),
    not on the event loop and not holding the table: meanwhile a press at another table is
    answered, and this table is not held. Then the timeout places exactly what
    :meth:`Hand.suggest` gives, the strategy never run in the step itself."""
    loop_thread = threading.current_thread()
    started, release = threading.Event(), threading.Event()
    ran_in: list[threading.Thread] = []

    def slow(k: SeatKnowledge, level: Level) -> list[tuple[Any, Box | None]]:
        ran_in.append(threading.current_thread())
        started.set()
        release.wait(20)
        return decide(k, level)

    clock = Clock()
    service = TableService(MemoryStore(), clock=clock, rng=random.Random(5), timers=True)
    presenter = FakePresenter()
    service.register(presenter)
    try:
        reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
        assert not reply.alert, reply.text
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None and t.options.safe_autoplay
        sleeper = t.hand.to_act[0]
        want = _twin(t.hand).suggest(sleeper)
        twin = _twin(t.hand)
        assert twin.apply(Timeout(sleeper)).placements == tuple(want)
        monkeypatch.setattr(runtime_module, "decide", slow)
        monkeypatch.setattr(game.hand, "decide", _no_decision)
        clock.now += 181  # budget and bank run out (R8.5)
        other = await dealt_at(service, OTHER, (CAROL, DAVE))
        seq, street = t.seq, t.hand.street_of(sleeper)
        await service.rt.arm(t)  # (its timer, for the clock now past the deadline)
        await until(started.is_set, what="the strategy under way in the decision thread")
        assert ran_in == [ran_in[0]] and ran_in[0] is not loop_thread
        # the event loop and the table are free while the strategy thinks
        mover = next(
            a for a in (CAROL, DAVE) if other.seats[other.hand.to_act[0]].user_id == a.user_id
        )  # type: ignore[union-attr]
        place = next(
            b.data
            for b in presenter.last_private(mover.user_id).all_buttons()
            if b.data and Payload.decode(b.data).action == "p"
        )
        reply = await service.press(mover, place)
        assert not reply.alert, reply.text
        assert len(other.hand.pending(other.hand.to_act[0])) == 1  # type: ignore[union-attr]
        assert not t.lock.locked()  # (the table is not held: its presses go on)
        assert t.seq == seq and t.hand.street_of(sleeper) == street
        release.set()
        await until(lambda: t.seq > seq, what="the timeout's step")
        assert t.hand.street_of(sleeper) == street + 1
        assert t.hand.board_of(sleeper) == twin.board_of(sleeper)
        assert ran_in == [ran_in[0]]  # (made once)
    finally:
        release.set()
        await service.stop()


async def test_r8_5_a_restart_while_the_safe_placement_is_made_places_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot stops while the timeout's placement is under way in a decision thread (the
    table's timer waiting for it, the table free): nothing of it is applied, the table is
    saved as it was, and the restarted bot's timeout (its start's overdue step) places
    what :meth:`Hand.suggest` gives."""
    started, release = threading.Event(), threading.Event()

    def slow(k: SeatKnowledge, level: Level) -> list[tuple[Any, Box | None]]:
        started.set()
        release.wait(20)
        return [(c, Box.TOP) for c in k.cards]  # (never applied: the stop gave it up)

    store, clock = MemoryStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), timers=True)
    service.register(FakePresenter())
    try:
        reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
        assert not reply.alert, reply.text
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
        sleeper = t.hand.to_act[0]
        twin = _twin(t.hand)
        want = twin.apply(Timeout(sleeper)).placements
        monkeypatch.setattr(runtime_module, "decide", slow)
        clock.now += 181
        seq = t.seq
        await service.rt.arm(t)
        await until(started.is_set, what="the strategy under way in the decision thread")
        await service.stop()
        assert t.seq == seq and service.rt.safe_thinking == {}
    finally:
        release.set()
    monkeypatch.undo()
    service2 = TableService(store, clock=clock, rng=random.Random(6), timers=False)
    service2.register(FakePresenter())
    await service2.start()
    try:
        t2 = service2.table_in(GROUP)
        assert t2 is not None and t2.hand is not None
        await service2.run_due()  # (the start made the overdue step already, or this does)
        assert t2.hand.board_of(sleeper) == twin.board_of(sleeper)
        assert t2.hand.board_of(sleeper).count == len(want) == 5
    finally:
        await service2.stop()


async def test_r8_5_a_chain_of_safe_timeouts_in_one_step_is_placed_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both players place at once (R3.6) and both clocks run out together, budget and bank
    spent for the hand: the step times both out at every street left (each street's
    placement known only once the street before is placed), each placed as
    :meth:`Hand.suggest` places it, and none of the ten placements is made in the step
    (there they added up, past a second on a loaded machine)."""
    ran_in: list[threading.Thread] = []

    def recorded(k: SeatKnowledge, level: Level) -> list[tuple[Any, Box | None]]:
        ran_in.append(threading.current_thread())
        return decide(k, level)

    clock = Clock()
    service = TableService(MemoryStore(), clock=clock, rng=random.Random(5), timers=True)
    service.register(FakePresenter())
    try:
        for setting in ("safe_autoplay", "simultaneous_streets"):
            reply = await service.settings(GROUP, ALICE, True, [setting, "on"])
            assert not reply.alert, reply.text
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None and len(t.hand.to_act) == 2
        hand = t.hand
        twin = _twin(hand)
        while not twin.is_over:
            for s in twin.to_act:
                twin.apply(Timeout(s))
        monkeypatch.setattr(runtime_module, "decide", recorded)
        monkeypatch.setattr(game.hand, "decide", _no_decision)
        clock.now += 181
        seq = t.seq
        await service.rt.arm(t)
        await until(lambda: t.seq > seq, what="the timeouts' step")
        assert hand.is_over and t.seq == seq + 1  # (one step: the hand to its showdown)
        assert len(ran_in) == 10 and threading.current_thread() not in ran_in
        assert hand.result == twin.result and hand.result is not None
        for s in hand.order:
            assert hand.board_of(s) == twin.board_of(s) and hand.board_of(s).count == 13
    finally:
        await service.stop()


async def test_r8_5_a_confirm_that_brings_a_spent_clocks_turn_has_its_placement_made_off_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice's budget and bank are spent for the hand: her street is made by the clock, and
    each of her later streets as soon as it comes, in the step of Bob's Confirm (R8.5). That
    placement too is made in a decision thread before the step (the press waits for it a
    little), not in the step: the hand replayed afterwards, deciding every timeout itself,
    is the same hand."""
    ran_in: list[threading.Thread] = []

    def recorded(k: SeatKnowledge, level: Level) -> list[tuple[Any, Box | None]]:
        ran_in.append(threading.current_thread())
        return decide(k, level)

    clock = Clock()
    service = TableService(MemoryStore(), clock=clock, rng=random.Random(5), timers=True)
    presenter = FakePresenter()
    service.register(presenter)
    try:
        reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
        assert not reply.alert, reply.text
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
        hand = t.hand
        sleeper = hand.to_act[0]
        other = next(a for a in (ALICE, BOB) if a.user_id != t.seats[t.owner(sleeper)].user_id)
        monkeypatch.setattr(runtime_module, "decide", recorded)
        monkeypatch.setattr(game.hand, "decide", _no_decision)
        clock.now += 181
        seq = t.seq
        await service.rt.arm(t)
        await until(lambda: t.seq > seq, what="the timeout's step")
        assert hand.street_of(sleeper) == 2 and len(ran_in) == 1
        await press_auto_and_confirm(service, presenter, other)
        assert hand.street_of(sleeper) == 3 and len(ran_in) == 2  # (made for her at once)
        assert threading.current_thread() not in ran_in
        monkeypatch.undo()
        again = _twin(hand)  # (every timeout decided again, in the hand itself)
        assert again.board_of(sleeper) == hand.board_of(sleeper)
        assert again.board_of(sleeper).count == 7
    finally:
        await service.stop()


async def test_r8_5_a_failure_making_the_placement_ahead_leaves_it_to_the_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The placement made ahead (:meth:`Runtime.prepare_safe`) raising: the table's timer
    still makes the timeout's step, which places by the strategy itself (the same placement).
    Raised in the timer, it ended the timer: the hand waited for a press that never came."""

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the decision process broke")

    clock = Clock()
    service = TableService(MemoryStore(), clock=clock, rng=random.Random(5), timers=True)
    service.register(FakePresenter())
    try:
        reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
        assert not reply.alert, reply.text
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None and t.options.safe_autoplay
        sleeper = t.hand.to_act[0]
        twin = _twin(t.hand)
        twin.apply(Timeout(sleeper))
        monkeypatch.setattr(runtime_module.Runtime, "prepare_safe", broken)
        seq, street = t.seq, t.hand.street_of(sleeper)
        clock.now += 181  # budget and bank run out (R8.5)
        await service.rt.arm(t)
        await until(lambda: t.seq > seq, what="the timeout's step")
        assert t.hand.street_of(sleeper) == street + 1
        assert t.hand.board_of(sleeper) == twin.board_of(sleeper)
    finally:
        await service.stop()
