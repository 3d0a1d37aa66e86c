"""brk40: breaks found in the fixrb, fixbounds and fixnu39 changes, each a test that failed
before its fix."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import pytest

from bot.texts import tr
from storage.api import Move, StorageError
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_brkpg_storage import money
from tests.bot.test_fixrb import OtherStepStore, leave_ends_the_hand, lobby_of_two, renewed
from tests.bot.test_fixstop_unsure import service_on
from tests.bot.test_service import ALICE, BOB, GROUP


async def test_an_unsure_step_of_a_table_let_go_is_not_read_back_once_it_is_adopted_again() -> None:
    """Worker A's commit of Bob's Ready (the deal) applied, its answer lost, storage not
    read back (unsure); A then loses the chat's lease and lets the table go (issue 14).
    Worker B takes it over (its resume: a step after A's), then hands it back, and A adopts
    it again: its resume read A's old unsure step back first and found B's step stored
    after it, "changed meanwhile": the resume refused, the table let go once more and
    restored anew in the background. The unsure step is forgotten with the table let go:
    the adopt's resume is the table's step."""
    store, clock = OtherStepStore(), Clock()
    a, _, t = await lobby_of_two(store, clock)
    assert not (await a.ready(GROUP, ALICE)).alert
    await a.rt.settled(t)
    seq = t.seq
    store.lose, store.blind = 1, 1
    reply = await a.ready(GROUP, BOB)  # (the deal, applied; not known here)
    assert reply.alert and reply.text == tr("ru", "err.storage")
    assert a.rt.unsure == {t.id: (seq + 1, False)}
    await a.release(t.id)  # (the lease lost)
    assert a.table_in(GROUP) is None and not a.rt.unsure  # (nor kept for good, unserved)
    b = service_on(store, clock, FakePresenter())
    assert await b.adopt(t.id)
    tb = b.table_in(GROUP)
    assert tb is not None and tb.seq == seq + 2
    await b.rt.settled(tb)
    await b.release(t.id)
    assert await a.adopt(t.id)
    t2 = a.table_in(GROUP)  # (it was let go again at once, restored anew in the background)
    assert t2 is not None and t2 is not t and t2.seq == seq + 3 and not a.rt.renewing
    assert not a.rt.unsure
    await a.rt.settled(t2)
    assert t2.hand is not None  # (the deal of A's unsure step, stored)
    assert await check_store(store) == []


class GatedStore(OtherStepStore):
    """:class:`OtherStepStore` whose next commit, once ``gate`` is set, applies (unless
    ``applies`` is false), tells ``reached`` and waits for ``gate``, then fails as a
    connection lost before the COMMIT's answer would."""

    gate: asyncio.Event | None = None
    reached: asyncio.Event | None = None
    applies = True

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if self.gate is None:
            return await super().commit(table_id, moves, snapshot, key=key, close=close)
        gate, self.gate = self.gate, None
        if self.applies:
            await MemoryStore.commit(self, table_id, moves, snapshot, key=key, close=close)
        assert self.reached is not None
        self.reached.set()
        await gate.wait()
        raise StorageError("connection was closed in the middle of operation")


@pytest.mark.parametrize("applies", [True, False])
async def test_a_stop_during_a_step_saves_no_snapshot_of_it_half_done(applies: bool) -> None:
    """Alice's Ready (her buy-in) is being committed, the answer not back yet, when the bot
    stops: the stop took every table's snapshot for the background writer without the
    table's lock, so in the middle of the step, and wrote it over what storage held. The
    commit's answer lost, the step was read back as another worker's ("the table changed
    meanwhile"), the table let go and restored anew during the stop from that snapshot:
    saved (``applies``), Alice was told her Ready was not, though it was; not saved, the
    table served on from a state never committed, Alice ready with no buy-in (200 kush of
    her stack not taken from her balance). The stop takes each snapshot under the table's
    lock, after the step."""
    store, clock = GatedStore(), Clock()
    store.applies = applies
    a, _, t = await lobby_of_two(store, clock)
    seq = t.seq
    gate = store.gate = asyncio.Event()
    store.reached = asyncio.Event()
    press = asyncio.ensure_future(a.ready(GROUP, ALICE))
    await store.reached.wait()
    stop = asyncio.ensure_future(a.stop())
    for _ in range(50):  # (the stop gets as far as it can while the step is committed)
        await asyncio.sleep(0)
    gate.set()
    reply = await press
    await stop
    if applies:
        assert not reply.alert, reply.text
    else:
        assert reply.alert and reply.text == tr("en", "err.storage"), reply.text
    state = await store.table_state(t.id)
    assert state is not None and state[1]["seq"] == seq + applies
    (alice,) = [s for s in state[1]["seats"] if s["user_id"] == ALICE.user_id]
    assert alice["ready"] == applies
    assert a.table_in(GROUP) is t and t.seq == seq + applies
    bought = {1: 200} if applies else {}
    assert await money(store, t) == ({"1": 1000 - 200 * applies, "2": 1000}, bought)
    assert await check_store(store) == []


class StaleReadStore(OtherStepStore):
    """:class:`OtherStepStore` that runs ``on_stacks`` once before its next read of a
    table's stacks (a takeover's resume reads them after the table's snapshot: another
    worker's step committed in between)."""

    on_stacks: Callable[[], Awaitable[Any]] | None = None

    async def stacks(self, table_id: int) -> Mapping[int, int]:
        if self.on_stacks is not None:
            hook, self.on_stacks = self.on_stacks, None
            await hook()
        return await super().stacks(table_id)


async def test_a_table_taken_back_is_kept_only_while_storage_holds_its_own_step() -> None:
    """Worker B takes the table over (issue 14) from the snapshot of step N; before its
    resume commits, worker A's step N+1 (Alice's Ready, her buy-in) is committed (A's
    commit under way as its lease ran out). B's resume, step N+1 too, was taken by storage
    for that one (the same key) and B served its own state; B's lease then ran out and B
    took the chat back (:meth:`TableService.adopt`, ``again``): it kept its table, as
    storage's step number was its own, and went on without Alice's Ready (her 200 kush
    at the table, her seat not ready). The step's token tells (:data:`STEP_TOKEN`): B's
    table is let go and restored from storage. (Since fixkey the token is in the commit's
    key and the store refuses a step not newer than the stored one: B's resume itself is
    refused, its table let go and restored from storage at once, with Alice's Ready; taken
    back, it is kept.)"""
    store, clock = StaleReadStore(), Clock()
    a, _, t = await lobby_of_two(store, clock)
    seq = t.seq
    b = service_on(store, clock, FakePresenter())

    async def a_steps() -> None:
        assert not (await a.ready(GROUP, ALICE)).alert

    store.on_stacks = a_steps
    assert await b.adopt(t.id)
    assert b.table_in(GROUP) is None and store.on_stacks is None  # (refused: let go)
    tb = await renewed(b, t)  # (restored from storage: A's step N+1, then its resume)
    assert tb.seq == seq + 2
    await a.release(t.id)
    assert await b.adopt(t.id, again=True)
    tb2 = b.table_in(GROUP)
    assert tb2 is tb  # (storage holds its own step)
    await b.rt.settled(tb2)
    alice = tb2.seat_of(ALICE.user_id)
    assert alice is not None and alice.ready and alice.stack == 200
    assert await money(store, t) == ({"1": 800, "2": 1000}, {1: 200})
    assert await check_store(store) == []


async def test_r8_5_owed_messages_are_not_sent_over_a_table_another_worker_closed() -> None:
    """The Leave that ended the hand is read saved by the other player's next command and
    the table is to be restored anew here, owing each player their "hand over" screen;
    before that restore reads storage, worker B takes the chat over (issue 14: this
    worker's lease ran out, not yet noticed here), resumes the table, writing over each
    player's hand message, and closes it (an admin's /closetable), sending its own closing
    messages. The restore finds the table closed by another step: it sent the owed
    screens all the same, on their own, over the hand messages B had just written (an
    old hand's screen over B's final one). Nothing is sent: B's messages stand."""
    store, clock = OtherStepStore(), Clock()
    a, presenter, t, _leaver, other, _refs, _seen = await leave_ends_the_hand(store, clock)
    b = service_on(store, clock, FakePresenter())

    async def b_takes_over_and_closes() -> None:
        assert await b.adopt(t.id)
        await b.close_table(GROUP, ALICE, True)
        assert b.table_in(GROUP) is None

    store.on_read, store.skip_reads = b_takes_over_and_closes, 1  # (the restore anew's read)
    await a.rt.settled(t)
    before = {u: len(presenter.privates.get(u, [])) for u in (ALICE.user_id, BOB.user_id)}
    reply = await a.leave(GROUP, other)  # reads the Leave saved: restored anew
    assert reply.alert
    for _ in range(500):
        if not a.rt.renewing and store.on_read is None:
            break
        await asyncio.sleep(0.01)
    assert store.on_read is None
    await a.rt.drain()
    await a.rt.settled(t)
    assert a.table_in(GROUP) is None and not a.rt.owed_privates
    after = {u: len(presenter.privates.get(u, [])) for u in (ALICE.user_id, BOB.user_id)}
    assert after == before, presenter.privates
    assert await check_store(store) == []


async def test_an_unsure_step_is_not_read_back_over_a_table_restored_by_a_start() -> None:
    """Bob's Ready (the deal) applied, its answer lost, storage not read back (unsure);
    the bot stops and starts again in the same process (the service started after a stop).
    The start restores the table from storage, the deal in it, and its resume's step read
    the old unsure step back first: "saved after all", so the restored table was let go at
    once and restored anew in the background, the deal's old screens sent as owed. The
    start's table is served on."""
    store, clock = OtherStepStore(), Clock()
    a, _, t = await lobby_of_two(store, clock)
    assert not (await a.ready(GROUP, ALICE)).alert
    await a.rt.settled(t)
    seq = t.seq
    store.lose, store.blind = 1, 1
    reply = await a.ready(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "err.storage")
    assert a.rt.unsure == {t.id: (seq + 1, False)}
    await a.stop()
    await a.start()
    t2 = a.table_in(GROUP)
    assert t2 is not None and t2 is not t and t2.seq == seq + 2, t2 and t2.seq
    assert not a.rt.renewing and not a.rt.unsure and not a.rt.owed_privates
    assert t2.hand is not None
    await a.rt.settled(t2)
    assert await check_store(store) == []
