"""clu43: two edges of the hand-over of an idle Telegram table to its rendezvous pick (issue 14,
:meth:`bot.cluster.Worker.rebalance`), in one process on a shared in-memory database, as
tests/bot/test_clu42_rebalance.py.

- The worker that handed a chat back refused it for :data:`~bot.cluster.REBALANCE_LEASES`
  lease times, its own orphan sweep too: a pick that died right after the hand-over left the
  table unserved for about three lease times. Now the giver stops refusing once the pick is
  not live any more (or took the chat and lost it), and its sweep takes the table back
  within about one lease time.
- A worker restarted under the same name counted as seen live for long (its name was), and
  was handed tables at once. Each run of a worker now holds a lease of its own
  (``worker-run:<worker>:<token>``): a new run is seen anew."""

from __future__ import annotations

import pytest

from bot.cluster import REBALANCE_LEASES, Worker, worker_runs
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_brk81_rebalance import _books, _kept, _lobby, _pair, _quiet
from tests.bot.test_clu42_rebalance import OLD, PICK
from tests.bot.test_cluster_closing import KEY, TTL, _worker
from tests.bot.test_service import GROUP


@pytest.fixture
def world() -> tuple[MemoryStore, Clock]:
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    return db, clock


async def _pass(clock: Clock, seconds: float, *alive: Worker) -> None:
    """``seconds`` of the store's clock go by, the ``alive`` workers renewing halfway."""
    clock.now += seconds / 2
    for w in alive:
        await w.renew()
    clock.now += seconds / 2


async def test_clu43_the_giver_takes_the_table_back_a_lease_time_after_the_pick_died(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, _, _ = await _pair(db, clock)
    try:
        t = await _lobby(old)
        before, books = _kept(old.service.rt, t), await _books(db, t)
        _quiet(old)
        assert await old.rebalance() == 1
        assert await db.lease_owner(KEY) is None
        await old.sweep()  # the pick is live: it takes the table, the giver does not
        assert old.service.table_in(GROUP) is None and await db.lease_owner(KEY) is None
        assert not await old.claim(KEY)  # an update at the giver: 409
        # the pick dies before its next sweep (killed: its heartbeat runs out by itself)
        await pick.halt()
        await _pass(clock, TTL + 0.2, old)
        assert PICK not in await db.live_workers()
        await old.sweep()  # (before: refused until REBALANCE_LEASES lease times went by)
        back = old.service.table_in(GROUP)
        assert back is not None and back.id == t.id
        assert await db.lease_owner(KEY) == OLD
        after = _kept(old.service.rt, back)
        assert after.pop("last_deal_at") >= before.pop("last_deal_at")
        assert after == before and await _books(db, back) == books
        assert not old._handed_lately(KEY)
    finally:
        await pick.stop()
        await old.stop()


async def test_clu43_the_giver_takes_a_chat_its_pick_took_and_lost(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, _, _ = await _pair(db, clock)
    try:
        t = await _lobby(old)
        _quiet(old)
        assert await old.rebalance() == 1
        await pick.sweep()
        assert await db.lease_owner(KEY) == PICK
        await old.sweep()
        assert old._handed_lately(KEY)  # (held by the pick: its updates go there)
        # the pick stalls past its lease time (its loops held), then wakes: live again, its
        # renewal finds the chat lost
        await pick.halt()
        pick.stopping = False  # (not stopping: only its loops ended, renewed here by hand)
        await _pass(clock, TTL + 0.2, old)
        await pick.renew()
        assert pick.service.table_in(GROUP) is None
        assert PICK in await db.live_workers() and await db.lease_owner(KEY) is None
        await old.sweep()  # (the chat is the live pick's to take: not taken here)
        assert old.service.table_in(GROUP) is None
        # an update that reaches the giver now is taken, not refused for three lease times
        assert not old._handed_lately(KEY)
        assert await old.claim(KEY)
        back = old.service.table_in(GROUP)
        assert back is not None and back.id == t.id and await db.lease_owner(KEY) == OLD
    finally:
        await pick.stop()
        await old.stop()


@pytest.mark.parametrize("how", ["killed", "stopped"])
async def test_clu43_a_pick_restarted_under_its_name_is_seen_anew(
    world: tuple[MemoryStore, Clock], how: str
) -> None:
    db, clock = world
    old, pick, _, _ = await _pair(db, clock)
    again: Worker | None = None
    try:
        old._seen_live = {}  # (seen for the first time at the next look)
        t = await _lobby(old)
        _quiet(old)
        assert await old.rebalance() == 0  # the pick seen live just now: not yet
        old._seen_live[PICK] -= REBALANCE_LEASES * TTL + 1  # (seen live for long since)
        first = pick.run_token
        # the pick restarts under its name, before the giver looks again (a SIGKILL: its
        # heartbeat never ran out; a stop: its last heartbeat of 0 s overwritten at once)
        await (pick.halt() if how == "killed" else pick.stop())
        again, _ = _worker(db, PICK, FakePresenter(), clock)
        await again.start()
        assert again.run_token != first
        runs = {
            PICK: {again.run_token, first} if how == "killed" else {again.run_token},
            OLD: {old.run_token},
        }
        assert worker_runs(await db.leases("worker-run:")) == runs
        assert await old.rebalance() == 0  # (before: handed to the new run at once)
        assert old.service.table_in(GROUP) is t and await db.lease_owner(KEY) == OLD
        # the dead run's lease runs out: no newer run, still the one seen since the restart
        await _pass(clock, TTL + 0.2, old, again)
        assert worker_runs(await db.leases("worker-run:")) == {
            PICK: {again.run_token},
            OLD: {old.run_token},
        }
        _quiet(old)
        assert await old.rebalance() == 0
        old._seen_live[PICK] -= REBALANCE_LEASES * TTL + 1  # this run seen live for long
        assert await old.rebalance() == 1
        await again.sweep()
        moved = again.service.table_in(GROUP)
        assert moved is not None and moved.id == t.id and await db.lease_owner(KEY) == PICK
    finally:
        if again is not None:
            await again.stop()
        await pick.stop()
        await old.stop()
    assert await db.leases("worker-run:") == {}  # (given up at a stop)
