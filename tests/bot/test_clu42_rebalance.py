"""clu42: a worker hands an idle Telegram table back to its rendezvous pick, a worker that
joined later (issue 14, :meth:`bot.cluster.Worker.rebalance`), in one process on a shared
in-memory database. While the hand-over is under way the old worker takes none of the chat's
updates (a claim for one waits, then is refused: the router follows the lease to the pick),
and a lease renewal that straddles it does not make it think it still holds the chat; the
pick takes the table over at its next sweep and serves its presses; no kush moves. A table in
the middle of a hand, or whose chat had an update a moment ago, is not handed back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from bot.cluster import REBALANCE_QUIET_SECONDS, Worker, rendezvous
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_cluster_closing import KEY, _worker
from tests.bot.test_service import ALICE, BOB, GROUP

#: the worker names, the second the rendezvous pick of the group's chat between the two
OLD, PICK = ("a", "b") if rendezvous(KEY, {"a": "", "b": ""}) == "b" else ("b", "a")


async def _two(db: MemoryStore, clock: Clock) -> tuple[Worker, Worker]:
    """The old worker serving the group's table (Alice seated, the chat quiet for a while) and
    the pick, started later and seen live by the old one for a while."""
    old, service = _worker(db, OLD, FakePresenter(), clock)
    await old.start()
    assert await old.claim(KEY)
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    pick, _ = _worker(db, PICK, FakePresenter(), clock)
    await pick.start()
    now = time.monotonic()
    old._seen_live = {OLD: now - 100.0, PICK: now - 100.0}
    old._claimed[KEY] = now - REBALANCE_QUIET_SECONDS - 1.0
    return old, pick


async def test_clu42_an_idle_table_moves_to_its_pick_and_no_update_is_taken_meanwhile() -> None:
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    old, pick = await _two(db, clock)
    table = old.service.table_in(GROUP)
    assert table is not None
    community = await db.community("telegram", GROUP.community_id)
    ledger = await db.ledger(community.id)
    stacks = await db.stacks(table.id)
    # the hand-over's save and a renewal each wait at a gate (a slow database)
    view: Any = old.service.rt.store
    saving, saved, renewed = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def save_snapshot(table_id: int, data: dict[str, Any]) -> None:
        saving.set()
        await saved.wait()
        db.fence(OLD)
        await db.save_snapshot(table_id, data)

    async def renew_leases(worker: str, keys: Sequence[str], ttl: float) -> list[str]:
        kept = await db.renew_leases(worker, keys, ttl)  # (the chat's lease still held here)
        await renewed.wait()
        return kept

    view.save_snapshot, view.renew_leases = save_snapshot, renew_leases
    try:
        moving = asyncio.create_task(old.rebalance())
        await saving.wait()
        assert not old.holds(KEY)  # an update now is not handled here
        update = asyncio.create_task(old.claim(KEY))  # one's claim waits for the hand-over
        renewal = asyncio.create_task(old.renew())
        await asyncio.sleep(0)
        saved.set()
        assert await moving == 1
        assert not await update  # refused: answered 409, the router goes to the pick
        renewed.set()
        await renewal
        assert not old.holds(KEY)  # (renewed before it was let go: not trusted)
        assert old.service.table_in(GROUP) is None
        assert await db.lease_owner(KEY) is None
        assert not await old.claim(KEY)

        await pick.sweep()  # the pick takes the orphan over
        assert await db.lease_owner(KEY) == PICK
        moved = pick.service.table_in(GROUP)
        assert moved is not None and moved.id == table.id
        assert [s.user_id for s in moved.seats.values()] == [ALICE.user_id]
        assert await db.ledger(community.id) == ledger  # no kush moved
        assert await db.stacks(table.id) == stacks
        assert not (await pick.service.join(GROUP, BOB)).alert  # its presses served there
        assert sorted(s.user_id for s in moved.seats.values()) == [ALICE.user_id, BOB.user_id]
        assert await pick.rebalance() == 0  # its own pick: never handed on
        assert await db.lease_owner(KEY) == PICK
    finally:
        await pick.stop()
        await old.stop()


async def test_clu42_a_table_mid_hand_or_just_pressed_is_not_handed_back() -> None:
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    old, pick = await _two(db, clock)
    try:
        service = old.service
        old._claimed[KEY] = time.monotonic()  # an update of the chat a moment ago
        assert await old.rebalance() == 0
        old._claimed[KEY] -= REBALANCE_QUIET_SECONDS + 1.0
        assert not (await service.join(GROUP, BOB)).alert
        assert not (await service.ready(GROUP, ALICE)).alert
        assert not (await service.ready(GROUP, BOB)).alert
        t = service.table_in(GROUP)
        assert t is not None and t.hand is not None  # dealt: in the middle of a hand
        assert await old.rebalance() == 0
        assert await db.lease_owner(KEY) == OLD and service.table_in(GROUP) is t
    finally:
        await pick.stop()
        await old.stop()
