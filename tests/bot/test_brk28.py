"""brk28: the steps made first (the overdue timer's, the idle close's) racing the table's
own timer, through the service with an in-memory or SQLite store and a hand-moved clock."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path

import pytest

from bot import thinking
from bot.service import TableService, bots
from bot.texts import tr
from game.board import Box
from game.cards import Card
from game.policy import Level, SeatKnowledge
from storage.check import check_store
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm
from tests.bot.test_transitions import KillableStore, player_balance


async def _spin() -> None:
    """Let the tasks started run until they wait (for the table's lock)."""
    for _ in range(50):
        await asyncio.sleep(0)


@pytest.mark.parametrize("kind", ["table", "tournament"])
@pytest.mark.parametrize("db", ["memory", "sqlite"])
async def test_r8_2a_a_settings_change_waiting_while_the_timer_closes_closes_nothing_again(
    tmp_path: Path, kind: str, db: str
) -> None:
    """R8.2a: the idle close is due; the table's timer fires and takes the table, and an
    admin's settings change comes meanwhile and waits for it. The timer closes the table;
    the change then made the step of the "overdue" timer on the closed table: the close
    again, a second commit, the close notice twice in the group and (a tournament, R8.7)
    each registrant told twice in private what the pool paid them. Now it closes once."""
    store = await SqliteStore.open(tmp_path / "db") if db == "sqlite" else None
    service, presenter, store, clock = service_env(store=store)
    if kind == "table":
        await service.new_table(GROUP, ALICE)
        assert not (await service.join(GROUP, ALICE)).alert
        assert not (await service.ready(GROUP, ALICE)).alert
    else:
        assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
        for a in (ALICE, BOB):
            assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None
    clock.now += 1800
    await t.lock.acquire()  # (held a moment, as by a press: both wait for it)
    timer = asyncio.create_task(service.run_due())  # the timer fires first
    await _spin()
    change = asyncio.create_task(service.settings(GROUP, BOB, True, ["idle_close_seconds", "3600"]))
    await _spin()
    seq = t.seq
    t.lock.release()
    await asyncio.wait_for(timer, 5)
    reply = await asyncio.wait_for(change, 5)
    assert not reply.alert, reply.text
    await service.rt.settled(t)
    assert service.table_in(GROUP) is None
    assert t.seq == seq + 1  # the timer's close, once
    closes = [s.text for s in presenter.tables[GROUP.chat_id] if "30 minutes" in s.text]
    assert len(closes) == 1
    if kind == "tournament":
        for actor, lang in ((ALICE, "en"), (BOB, "ru")):
            notice = (
                tr(lang, "private.idle_cancel", table=t.id)
                + " "
                + tr(lang, "private.pool_paid", amount=100, label="kush")
            )
            assert [s.text for s in presenter.privates[actor.user_id]] == [notice]
    players = (ALICE,) if kind == "table" else (ALICE, BOB)
    assert [await player_balance(store, a) for a in players] == [1000] * len(players)
    assert await check_store(store) == []
    await store.close()


async def test_r8_2_a_settings_change_at_a_late_joiners_end_waits_for_no_computer_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R8.2, R8.5: Alice plays a computer player whose decision is slow to come (here it never
    does; it is given up after ``DECISION_SECONDS``, 2 s here). Carol sits down during the
    hand and her 60 s to press Ready run out while the computer player is due to move.
    An admin's settings change then made the table's overdue step itself, the computer
    player's move with it: it waited out the decision holding the table (every press and
    command there unanswered) and the community's settings. Now the change stands Carol
    up (R8.2) and leaves the move to the table's timer, which waits for it without the
    table."""
    monkeypatch.setattr(thinking, "DECISION_SECONDS", 2.0)
    release = threading.Event()

    def stuck(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
        release.wait(120)
        return []

    monkeypatch.setattr(bots, "decide", stuck)
    service, presenter, store, clock = service_env()
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
        assert not (await service.join(GROUP, CAROL)).alert
        carol = t.seat_of(CAROL.user_id)
        assert carol is not None and carol.ready_by is not None
        clock.now = max(carol.ready_by, t.bot_due)
        before = len(hand.actions)
        started = asyncio.get_running_loop().time()
        reply = await asyncio.wait_for(
            service.settings(GROUP, ALICE, True, ["hand_seconds", "90"]), 5
        )
        took = asyncio.get_running_loop().time() - started
        assert not reply.alert, reply.text
        assert t.seat_of(CAROL.user_id) is None  # stood up first (R8.2)
        assert took < 1.0
        assert [a for a in hand.actions[before:] if a.seat == bot] == []  # the timer's
        assert await check_store(store) == []
    finally:
        release.set()
        await service.stop()


async def test_r8_2a_an_idle_close_refused_before_a_join_leaves_one_timer() -> None:
    """R8.2a: Alice sits alone for 30 minutes; Carol's /join comes when the idle close is
    due, before the timer fired, and storage refuses the close made first (its retry is
    scheduled, the /join goes on). The retry replaced the table's timer without cancelling
    it: that timer ran on out of the table's reach, and the stop left it pending. Now the
    stop leaves none."""
    store = KillableStore()
    clock = Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), timers=True)
    presenter = FakePresenter()
    service.register(presenter)
    try:
        await service.new_table(GROUP, ALICE)
        assert not (await service.join(GROUP, ALICE)).alert
        t = service.table_in(GROUP)
        assert t is not None and t.timer is not None
        clock.now += 1800
        store.fail_next = 1
        await service.join(GROUP, CAROL)
    finally:
        await service.stop()
    left = [
        task
        for task in asyncio.all_tasks()
        if task.get_name().startswith(f"table-{t.id}-") and not task.done()
    ]
    assert left == []
