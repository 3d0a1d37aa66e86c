"""brk33: several workers (issue 14). A closed table's messages a platform holds (a Telegram
flood wait of minutes, the rate limiter's retries) must not hold a worker's sweep: the sweep
sent what closed tables owe (:meth:`bot.cluster.Worker.sweep_owed`) inline, after taking
over the dead workers' tables, so the next sweep (the next takeover) waited until it ended,
and :meth:`~bot.cluster.Worker.start` awaits the first sweep."""

from __future__ import annotations

import asyncio

import pytest

from bot.screens import Screen
from bot.service.recovery import START_SEND_SECONDS
from bot.texts import tr
from tests.bot.conftest import Clock
from tests.bot.test_closing_restart import DiesAfterClosing, RefPresenter
from tests.bot.test_cluster_closing import TTL, _lobby, _worker
from tests.bot.test_service import ALICE, GROUP
from tests.bot.test_transitions import Killed


class HeldPresenter(RefPresenter):
    """The platform holds every table message write (a flood wait) until :attr:`free`."""

    def __init__(self) -> None:
        super().__init__()
        self.free = asyncio.Event()
        self.held = 0

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        self.held += 1
        await self.free.wait()
        return await super().show_table(chat_id, screen, ref)


async def test_r14_a_closed_table_s_message_held_by_the_platform_does_not_hold_the_sweep() -> None:
    """Issue 14: worker w1 dies right after an admin's close is committed: the closed
    table owes the group "Table #1 is closed." over its table message. Worker w2 starts
    while the platform holds that write (a flood wait): its start, which sweeps once, is
    over within seconds all the same (it waited for the write, and every later sweep
    would have too), and its next sweep does not send it again; once the platform takes it
    the notice is written, once, and nothing is owed any more."""
    db, clock, leases = DiesAfterClosing(), Clock(), Clock()
    db.clock = leases
    w1, s1 = _worker(db, "w1", RefPresenter(), clock)
    await w1.start()
    table_id = await _lobby(w1, s1)
    with pytest.raises(Killed):
        await s1.close_table(GROUP, ALICE, True)
    await w1.halt()
    db.dead = False
    leases.now += TTL + 1
    p2 = HeldPresenter()
    w2, _ = _worker(db, "w2", p2, clock)
    try:
        await asyncio.wait_for(w2.start(), START_SEND_SECONDS + 5)
        await asyncio.wait_for(w2.tick(), START_SEND_SECONDS + 5)  # (not sent twice either)
        assert p2.held == 1 and GROUP.chat_id not in p2.tables
        p2.free.set()
        await asyncio.sleep(0.05)
        notice = tr("en", "reply.table_closed", table=table_id)
        assert [s.text for s in p2.tables[GROUP.chat_id]] == [notice]
        assert await db.closed_snapshots() == []
    finally:
        p2.free.set()
        await w2.stop()
    assert p2.held == 1


class HeldPosts(RefPresenter):
    """The platform holds every notice (a flood wait) until :attr:`free`."""

    def __init__(self) -> None:
        super().__init__()
        self.free = asyncio.Event()
        self.held = 0

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        self.held += 1
        await self.free.wait()
        return await super().post(chat_id, text, ref)


async def test_r14_a_taken_over_table_s_notice_held_by_the_platform_does_not_hold_the_sweep() -> (
    None
):
    """Issue 14: worker w1 dies with its open table owing the group a notice (committed,
    not sent). Worker w2 takes the table over while the platform holds that notice (a flood
    wait): the takeover waited for the table's messages, so w2's start (its first sweep)
    was held as long, every other takeover behind it. It is over within seconds now; once
    the platform takes the notice it is posted once, and the table plays on."""
    db, clock, leases = DiesAfterClosing(), Clock(), Clock()
    db.clock = leases
    w1, s1 = _worker(db, "w1", RefPresenter(), clock)
    await w1.start()
    table_id = await _lobby(w1, s1)
    t1 = s1.tables[table_id]
    t1.owe("post", Screen("Bob left the table."))  # (committed with a step, never sent)
    await db.save_snapshot(table_id, s1.rt.snapshot(t1))
    await w1.halt()
    leases.now += TTL + 1
    p2 = HeldPosts()
    w2, s2 = _worker(db, "w2", p2, clock)
    try:
        await asyncio.wait_for(w2.start(), START_SEND_SECONDS + 5)
        assert table_id in s2.tables and p2.held == 1 and p2.posts == []
        p2.free.set()
        await s2.rt.settled(s2.tables[table_id])
        assert [text for _, text in p2.posts] == ["Bob left the table."]
        assert s2.tables[table_id].outbox == []
    finally:
        p2.free.set()
        await w2.stop()
    assert p2.held == 1
