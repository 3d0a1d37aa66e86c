"""brk81: attacks on the hand-over of an idle Telegram table to its rendezvous pick (issue 14,
:meth:`bot.cluster.Worker.rebalance`), in one process on a shared in-memory database, as
tests/bot/test_clu42_rebalance.py. Each state of a table either does not move or moves with
nothing lost: its seats, stacks, clocks and what it owes the same on the pick, the ledger
untouched, the table message written over (not posted anew), no private message sent again;
an update is handled once, here or there."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.cluster import REBALANCE_QUIET_SECONDS, Worker
from bot.model import LiveTable
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_clu42_rebalance import OLD, PICK
from tests.bot.test_cluster_closing import KEY, TTL, _worker
from tests.bot.test_service import ALICE, BOB, GROUP, dealt_at, play_out

#: what a table owes and when its clocks run out: the same after a move
KEPT = (
    "seats", "requests", "next_hand_at", "ready_deadline", "top_up_deadline", "last_deal_at",
    "tournament", "chinese", "hand_no", "outbox", "outbox_sent", "group_ref", "options",
)  # fmt: skip


async def _pair(
    db: MemoryStore, clock: Clock
) -> tuple[Worker, Worker, FakePresenter, FakePresenter]:
    """The old worker (holding the group's chat) and the pick, seen live for a while."""
    p_old, p_pick = FakePresenter(), FakePresenter()
    old, _ = _worker(db, OLD, p_old, clock)
    await old.start()
    assert await old.claim(KEY)
    pick, _ = _worker(db, PICK, p_pick, clock)
    await pick.start()
    now = time.monotonic()
    old._seen_live = {OLD: now - 100.0, PICK: now - 100.0}
    return old, pick, p_old, p_pick


def _quiet(old: Worker) -> None:
    """The chat had no update on ``old`` for longer than the quiet time."""
    old._claimed[KEY] = time.monotonic() - REBALANCE_QUIET_SECONDS - 1.0


def _kept(rt: Any, t: LiveTable) -> dict[str, Any]:
    snap = rt.snapshot(t)
    return {k: snap.get(k) for k in KEPT}


async def _books(db: MemoryStore, t: LiveTable) -> tuple[Any, ...]:
    """The community's ledger, the table's stacks and Alice's and Bob's balances."""
    community = await db.community("telegram", GROUP.community_id)
    balances = []
    for actor in (ALICE, BOB):
        p = await db.find_player(community.id, actor.user_id)
        balances.append(None if p is None else p.balance)
    return list(await db.ledger(community.id)), dict(await db.stacks(t.id)), balances


@pytest.fixture
def world() -> tuple[MemoryStore, Clock]:
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    return db, clock


async def _moved(
    db: MemoryStore, old: Worker, pick: Worker, p_pick: FakePresenter
) -> tuple[LiveTable, LiveTable]:
    """Hand the group's table over and have the pick sweep: (the table as it was, as moved)."""
    t = old.service.table_in(GROUP)
    assert t is not None
    before = _kept(old.service.rt, t)
    _quiet(old)
    assert await old.rebalance() == 1
    assert old.service.table_in(GROUP) is None and await db.lease_owner(KEY) is None
    await pick.sweep()
    m = pick.service.table_in(GROUP)
    assert m is not None and m.id == t.id and await db.lease_owner(KEY) == PICK
    assert _kept(pick.service.rt, m) == before
    assert p_pick._n == 0  # nothing posted anew: the table message written over
    return t, m


async def test_brk81_a_lobby_with_a_late_ready_window_and_a_redelivered_topup_moves_whole(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, p_old, p_pick = await _pair(db, clock)
    try:
        s = old.service
        assert not (await s.new_table(GROUP, ALICE)).alert
        assert not (await s.join(GROUP, ALICE)).alert
        assert not (await s.ready(GROUP, ALICE)).alert
        assert not (await s.join(GROUP, BOB)).alert
        topped = await s.top_up(GROUP, ALICE, "100", request="tg:-100:7")
        assert not topped.alert, topped.text
        t = s.table_in(GROUP)
        assert t is not None
        books = await _books(db, t)
        privates = {u: len(v) for u, v in p_old.privates.items()}
        t, m = await _moved(db, old, pick, p_pick)
        assert await _books(db, m) == books
        # Telegram delivers the /topup again (its answer was lost): to the pick now
        again = await pick.service.top_up(GROUP, ALICE, "100", request="tg:-100:7")
        assert await _books(db, m) == books, again.text
        assert m.seats[0].stack == 300
        # nothing private sent again by the move
        assert {u: len(v) for u, v in p_old.privates.items()} == privates
        assert all(v == [] for v in p_pick.privates.values())
    finally:
        await pick.stop()
        await old.stop()


async def _lobby(old: Worker) -> LiveTable:
    """Alice ready (200 kush on the table), Bob seated, in the group's lobby on ``old``."""
    s = old.service
    assert not (await s.new_table(GROUP, ALICE)).alert
    assert not (await s.join(GROUP, ALICE)).alert
    assert not (await s.ready(GROUP, ALICE)).alert
    assert not (await s.join(GROUP, BOB)).alert
    t = s.table_in(GROUP)
    assert t is not None
    return t


async def test_brk81_an_update_being_handled_or_a_failed_save_keeps_the_table_and_its_update(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, _, _ = await _pair(db, clock)
    view: Any = old.service.rt.store
    try:
        t = await _lobby(old)
        books = await _books(db, t)
        _quiet(old)
        old._updating[KEY] = 1  # an update of the chat being handled here (before the flag)
        assert await old.rebalance() == 0
        assert old.service.table_in(GROUP) is t and old.holds(KEY)
        del old._updating[KEY]

        async def save_snapshot(table_id: int, data: dict[str, Any]) -> None:
            raise OSError("the database went away")

        view.save_snapshot = save_snapshot  # the hand-over's save fails: kept here
        assert await old.rebalance() == 0
        assert old.service.table_in(GROUP) is t and await db.lease_owner(KEY) == OLD
        assert not old._handed_lately(KEY)
        del view.save_snapshot
        # the chat's next update is taken here (the lease is still this worker's), once
        assert await old.claim(KEY)
        assert old.service.table_in(GROUP) is t
        assert not (await old.service.ready(GROUP, BOB)).alert
        assert (await _books(db, t))[1] != books[1]  # Bob's buy-in booked, once
        community = await db.community("telegram", GROUP.community_id)
        assert len(await db.ledger(community.id)) == len(books[0]) + 1
        assert pick.service.table_in(GROUP) is None
    finally:
        await pick.stop()
        await old.stop()


async def test_brk81_a_closetable_after_the_release_is_refused_by_the_old_and_done_once_by_the_pick(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, _, p_pick = await _pair(db, clock)
    try:
        t = await _lobby(old)
        _quiet(old)
        assert await old.rebalance() == 1
        assert not await old.claim(KEY)  # the update at the old worker: 409
        assert await pick.claim(KEY)  # the router goes to the pick, before its sweep
        m = pick.service.table_in(GROUP)
        assert m is not None and m.id == t.id
        closed = await pick.service.close_table(GROUP, ALICE, True, request="tg:-100:9")
        assert not closed.alert, closed.text
        again = await pick.service.close_table(GROUP, ALICE, True, request="tg:-100:9")
        community = await db.community("telegram", GROUP.community_id)
        alice = await db.find_player(community.id, ALICE.user_id)
        assert alice is not None and alice.balance == 1000 - 0  # the 200 back, once
        assert pick.service.table_in(GROUP) is None, again.text
        await old.sweep()  # the old worker takes nothing back
        assert old.service.table_in(GROUP) is None
        assert p_pick._n == 0  # the table message written over as closed, not posted anew
    finally:
        await pick.stop()
        await old.stop()


async def test_brk81_the_table_comes_back_when_the_release_fails_or_the_pick_dies(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, _, p_pick = await _pair(db, clock)
    view: Any = old.service.rt.store
    try:
        t = await _lobby(old)
        books = await _books(db, t)
        before = _kept(old.service.rt, t)

        async def release_lease(key: str, worker: str) -> None:
            raise OSError("the database went away")

        view.release_lease = release_lease  # the old worker's last write fails
        _quiet(old)
        assert await old.rebalance() == 1
        assert old.service.table_in(GROUP) is None
        await pick.sweep()  # still leased to the old worker: not an orphan yet
        assert pick.service.table_in(GROUP) is None
        assert await db.lease_owner(KEY) == OLD
        await old.renew()  # not renewed any more
        clock.now += TTL + 1
        await pick.sweep()
        m = pick.service.table_in(GROUP)
        assert m is not None and await db.lease_owner(KEY) == PICK
        # (the idle close's clock stopped while nobody served the table, R8.5: never sooner)
        after = _kept(pick.service.rt, m)
        assert after.pop("last_deal_at") >= before.pop("last_deal_at")
        assert after == before and await _books(db, m) == books
        assert p_pick._n == 0
        # the pick dies: its lease and heartbeat run out; the old worker takes the table
        # back at its next sweep (clu43: not only once its hand-over is older than
        # REBALANCE_LEASES lease times: the pick that would take it is gone)
        before = _kept(pick.service.rt, m)
        pick.service.rt.let_go(m)
        await pick.stop()
        clock.now += 10 * TTL
        await old.sweep()
        back = old.service.table_in(GROUP)
        assert back is not None and back.id == t.id and await db.lease_owner(KEY) == OLD
        after = _kept(old.service.rt, back)
        assert after.pop("last_deal_at") >= before.pop("last_deal_at")
        assert after == before and await _books(db, back) == books
    finally:
        await pick.stop()
        await old.stop()


async def _moves_whole_or_stays(
    db: MemoryStore, old: Worker, pick: Worker, p_pick: FakePresenter
) -> bool:
    """Hand the group's table over if it may go: either it stays on ``old`` untouched, or
    the pick serves it with the same seats, clocks, debts and books; whether it moved."""
    t = old.service.table_in(GROUP)
    assert t is not None
    before, books = _kept(old.service.rt, t), await _books(db, t)
    _quiet(old)
    if await old.rebalance() == 0:
        assert old.service.table_in(GROUP) is t and await db.lease_owner(KEY) == OLD
        assert _kept(old.service.rt, t) == before
        return False
    await pick.sweep()
    m = pick.service.table_in(GROUP)
    assert m is not None and m.id == t.id
    assert _kept(pick.service.rt, m) == before and await _books(db, m) == books
    assert p_pick._n == 0
    return True


async def test_brk81_a_computer_player_seated_in_the_lobby_moves_with_its_stack(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, _, p_pick = await _pair(db, clock)
    try:
        s = old.service
        assert not (await s.new_table(GROUP, ALICE)).alert
        assert not (await s.join(GROUP, ALICE)).alert
        added = await s.add_bot(GROUP, ALICE, True)
        assert not added.alert, added.text
        t = s.table_in(GROUP)
        assert t is not None and any(seat.bot for seat in t.seats.values())
        assert await _moves_whole_or_stays(db, old, pick, p_pick)
        m = pick.service.table_in(GROUP)
        assert m is not None and any(seat.bot for seat in m.seats.values())
    finally:
        await pick.stop()
        await old.stop()


async def test_brk81_a_tournament_lobby_moves_with_its_registrations(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, _, p_pick = await _pair(db, clock)
    try:
        s = old.service
        opened = await s.new_tournament(GROUP, ALICE)
        assert not opened.alert, opened.text
        joined = await s.join(GROUP, ALICE)
        assert not joined.alert, joined.text
        t = s.table_in(GROUP)
        assert t is not None and t.tournament is not None
        assert await _moves_whole_or_stays(db, old, pick, p_pick)
        m = pick.service.table_in(GROUP)
        assert m is not None and m.tournament is not None
        assert [x.user_id for x in m.seats.values()] == [ALICE.user_id]
    finally:
        await pick.stop()
        await old.stop()


async def test_brk81_between_hands_with_a_player_sitting_out_moves_whole(
    world: tuple[MemoryStore, Clock],
) -> None:
    db, clock = world
    old, pick, p_old, p_pick = await _pair(db, clock)
    try:
        s = old.service
        t = await dealt_at(s, GROUP, (ALICE, BOB))
        assert not (await s.sit_out(GROUP, BOB)).alert
        await play_out(s, p_old, [ALICE, BOB])
        for _ in range(20):  # (the lease renewed as time goes by)
            clock.now += 3
            await old.renew()
            await pick.renew()
            await s.run_due()
        assert t.hand is None and t.hand_no == 1
        assert old.service.rt.idle_for_handover(t, clock.now + 3 * TTL)
        assert await _moves_whole_or_stays(db, old, pick, p_pick)
        where = pick.service.table_in(GROUP)
        assert where is not None and where.hand is None and where.hand_no == 1
    finally:
        await pick.stop()
        await old.stop()
