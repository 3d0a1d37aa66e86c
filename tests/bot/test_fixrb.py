"""fixrb: a step whose commit storage answered with an error is read back as this process's
own only when storage holds the very snapshot it committed (its token,
:data:`~bot.service.runtime.STEP_TOKEN`), not another worker's step of the same number
(issue 14); and the private messages a step read back as saved owes are kept until sent
(:attr:`Runtime.owed_privates`): the restored table closing while it catches up, its
first step refused, or another path restoring it first no longer drop them."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import pytest

from bot.model import LiveTable
from bot.service import TableService
from bot.texts import on, tr
from storage.api import Move, StorageError, TableRecord
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_brkpg_storage import LostReplyStore, money
from tests.bot.test_fixstop_unsure import RefPresenter, service_on
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm


class OtherStepStore(LostReplyStore):
    """:class:`LostReplyStore` whose next commit, once ``other`` is set, runs ``other``
    first (another worker's step: a takeover's) and then fails as a connection lost would,
    its own write never applied; ``refuse`` commits fail so without running anything (the
    database refused them); ``on_read`` runs once before a table read, the next but
    ``skip_reads``."""

    other: Callable[[], Awaitable[Any]] | None = None
    refuse = 0
    on_read: Callable[[], Awaitable[Any]] | None = None
    skip_reads = 0

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if self.other is not None:
            other, self.other = self.other, None
            await other()
            raise StorageError("connection was closed in the middle of operation")
        if self.refuse:
            self.refuse -= 1
            raise StorageError("disk I/O error")
        return await super().commit(table_id, moves, snapshot, key=key, close=close)

    async def table_state(self, table_id: int) -> tuple[TableRecord, Mapping[str, Any]] | None:
        if self.on_read is not None and not self.blind:
            if self.skip_reads:
                self.skip_reads -= 1
            else:
                hook, self.on_read = self.on_read, None
                await hook()
        return await super().table_state(table_id)


def group_texts(presenter: FakePresenter) -> list[str]:
    return [s.text for s in presenter.tables.get(GROUP.chat_id, [])]


async def lobby_of_two(
    store: OtherStepStore, clock: Clock
) -> tuple[TableService, FakePresenter, LiveTable]:
    """Worker A's table with Alice and Bob seated, nobody ready, its messages sent."""
    presenter = FakePresenter()
    a = service_on(store, clock, presenter)
    await a.new_table(GROUP, ALICE)
    for actor in (ALICE, BOB):
        await a.join(GROUP, actor)
    t = a.table_in(GROUP)
    assert t is not None
    await a.rt.settled(t)
    return a, presenter, t


async def renewed(service: TableService, old: LiveTable) -> LiveTable:
    """The table ``old`` served again here (restored anew), once nothing is under way."""
    for _ in range(500):
        t = service.table_in(GROUP)
        if t is not None and t is not old and not service.rt.renewing:
            break
        await asyncio.sleep(0.01)
    await service.rt.drain()
    t = service.table_in(GROUP)
    assert t is not None and t is not old, "not restored anew"
    await service.rt.settled(old)
    await service.rt.settled(t)
    return t


async def test_a_step_whose_number_another_worker_took_meanwhile_is_not_taken_for_ours() -> None:
    """Worker A's commit of Alice's Ready (her buy-in) goes out; meanwhile worker B takes
    the table over (issue 14) and commits its step of the same number (the takeover's own);
    A's commit fails without applying and is read back: storage holds step N, B's. It was
    taken for A's: Alice's Ready answered as done, A's table went on with her 200 kush
    bought in and "ready" while storage had neither (her balance untouched), and A wrote
    the group a table message showing her ready. Now: "the table changed meanwhile" and
    nothing of A's step is written or sent; A's table is served again as storage has it."""
    store, clock = OtherStepStore(), Clock()
    a, a_presenter, t = await lobby_of_two(store, clock)
    b = service_on(store, clock, FakePresenter())
    seq = t.seq

    async def b_takes_over() -> None:
        assert await b.adopt(t.id)  # (B's resume: step seq + 1, as A's)

    store.other = b_takes_over
    shown = len(group_texts(a_presenter))
    reply = await a.ready(GROUP, ALICE)
    assert reply.alert and reply.text == tr("en", "err.changed_elsewhere"), reply.text
    state = await store.table_state(t.id)
    assert state is not None and state[1]["seq"] == seq + 1
    t2 = await renewed(a, t)
    assert t2.id == t.id and t.id not in a.rt.unsure
    alice = t2.seat_of(ALICE.user_id)
    assert alice is not None and not alice.ready and alice.stack == 0
    assert await money(store, t) == ({"1": 1000, "2": 1000}, {})
    ready_line = [text for text in group_texts(a_presenter)[shown:] if "✅" in text]
    assert ready_line == [], ready_line  # (A's step's table message never written)
    assert await check_store(store) == []


async def test_an_unsure_step_whose_number_another_worker_took_is_not_read_later_as_ours() -> None:
    """As above, for Bob's Ready, which deals the hand, A's read-back failing too (not
    known then): Bob's Ready again reads storage first and finds B's step of that number.
    It was taken for A's: the table restored anew and the deal's private messages sent to
    both players as owed, their cards of a hand storage never had; now Bob is told the
    table changed meanwhile (in his language) and nothing of A's step is sent."""
    store, clock = OtherStepStore(), Clock()
    a, a_presenter, t = await lobby_of_two(store, clock)
    assert not (await a.ready(GROUP, ALICE)).alert
    await a.rt.settled(t)
    b = service_on(store, clock, FakePresenter())
    seq = t.seq

    async def b_takes_over() -> None:
        assert await b.adopt(t.id)
        store.blind = 1  # (A's read-back of its commit)

    store.other = b_takes_over
    reply = await a.ready(GROUP, BOB)  # (the deal: its private messages are the cards)
    assert reply.alert and reply.text == tr("ru", "err.storage")  # (not known yet)
    assert a.rt.unsure == {t.id: (seq + 1, False)} and t.hand is None
    sent = {
        actor.user_id: len(a_presenter.privates.get(actor.user_id, [])) for actor in (ALICE, BOB)
    }
    reply = await a.ready(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "err.changed_elsewhere"), reply.text
    t2 = await renewed(a, t)
    assert not a.rt.unsure and not a.rt.owed_privates
    assert t2.hand is None and not t2.seat_of(BOB.user_id).ready  # type: ignore[union-attr]
    now = {
        actor.user_id: len(a_presenter.privates.get(actor.user_id, [])) for actor in (ALICE, BOB)
    }
    assert now == sent, a_presenter.privates  # (no cards of A's deal)
    assert await money(store, t) == ({"1": 800, "2": 1000}, {1: 200})
    assert await check_store(store) == []


async def leave_ends_the_hand(
    store: OtherStepStore, clock: Clock
) -> tuple[TableService, RefPresenter, LiveTable, Any, Any, dict[str, str | None], dict[str, int]]:
    """As ``test_r8_5_a_leave_that_ends_the_hand_read_back_as_saved_…``
    (:mod:`tests.bot.test_fixstop_unsure`): the leaver's confirmed Leave, the hand's last
    move, is saved, its answer lost and not read back. Returns the service, its presenter,
    the table, the leaver, the other player, their hand messages and how many private
    writes each had."""
    presenter = RefPresenter()
    service = service_on(store, clock, presenter)
    await service.new_table(GROUP, ALICE)
    for actor in (ALICE, BOB):
        await service.join(GROUP, actor)
        await service.ready(GROUP, actor)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    by_id = {actor.user_id: actor for actor in (ALICE, BOB)}

    def to_act() -> Any:
        assert t is not None and t.hand is not None
        return by_id[t.seats[t.hand.to_act[0]].user_id]

    for _ in range(9):  # two players, five streets each: the tenth Confirm ends the hand
        await press_auto_and_confirm(service, presenter, to_act())
    leaver = to_act()
    other = ALICE if leaver is BOB else BOB
    await service.leave(GROUP, leaver)  # (asks first during the hand)
    await service.rt.settled(t)
    refs: dict[str, str | None] = {}
    for actor in (ALICE, BOB):
        seat = t.seat_of(actor.user_id)
        assert seat is not None
        refs[actor.user_id] = seat.private_ref
    seen = {actor.user_id: len(presenter.privates[actor.user_id]) for actor in (ALICE, BOB)}
    store.lose, store.blind = 1, 1
    reply = await service.leave(GROUP, leaver)
    assert reply.alert and reply.text == tr(str(leaver.language), "err.storage")
    return service, presenter, t, leaver, other, refs, seen


def told_hand_over(
    presenter: RefPresenter,
    t: LiveTable,
    actors: Sequence[Any],
    refs: dict[str, str | None],
    seen: dict[str, int],
) -> None:
    """Each of ``actors`` got the "hand over" screen once since ``seen``, over their hand
    message."""
    for actor in actors:
        over = tr(str(actor.language), on("telegram", "private.over"), table=t.id, hand=1)
        got = [s.text for s in presenter.privates[actor.user_id][seen[actor.user_id] :]]
        assert got.count(over) == 1, (actor.name, got)
        i = seen[actor.user_id] + got.index(over)
        assert presenter.over[actor.user_id][i] == refs[actor.user_id], actor.name


async def test_r8_2a_owed_messages_of_a_step_read_back_survive_a_close_made_as_it_catches_up() -> (
    None
):
    """The Leave that ended the hand is read saved by the other player's next command; the
    table restored anew from it has missed the group's settings (changed while it was not
    served) and its idle close (R8.2a) is due (the hand took longer than the idle time:
    its deal is that long ago), made first as it catches up. That close ended the resume
    before the step that sent what the Leave owed: neither player was told the hand was
    over. The close carries them now (kept with its final snapshot): each gets it, over
    their hand message."""
    store, clock = OtherStepStore(), Clock()
    service, presenter, t, leaver, other, refs, seen = await leave_ends_the_hand(store, clock)
    community = await store.community(GROUP.platform, GROUP.community_id)
    await store.change_settings(
        community.id, lambda s: dataclasses.replace(s, kush_label="1 kush = 1 coin")
    )
    state = await store.table_state(t.id)  # (the Leave's step, saved)
    assert state is not None and state[1]["hand"] is None
    dealt = clock.now - t.options.idle_close_seconds - 60
    await store.save_snapshot(t.id, {**state[1], "last_deal_at": dealt, "next_hand_at": None})
    await service.leave(GROUP, other)  # reads the leave saved: restored anew, then closed
    for _ in range(500):
        if not service.rt.renewing and not service.rt.closing:
            break
        await asyncio.sleep(0.01)
    await service.rt.drain()
    await service.rt.settled(t)
    assert service.table_in(GROUP) is None and not service.rt.owed_privates
    record = await store.get_table(t.id)
    assert record is not None and not record.open  # (closed for want of a hand)
    told_hand_over(presenter, t, [leaver, other], refs, seen)
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


async def test_r8_5_owed_messages_of_a_step_read_back_survive_a_refused_first_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As above, the table restored anew at once; its first step (the resume's) is refused
    by the database. The messages the Leave owed went with that step, and were gone with
    it; now they are sent by a step of their own a moment later, over each player's hand
    message."""
    monkeypatch.setattr("bot.service.runtime.RENEW_RETRY_SECONDS", 0.05)
    store, clock = OtherStepStore(), Clock()
    service, presenter, t, leaver, other, refs, seen = await leave_ends_the_hand(store, clock)
    store.refuse = 1  # (the press's step reads back first: the next commit is the resume's)
    await service.leave(GROUP, other)
    for _ in range(500):
        if not service.rt.renewing:
            break
        await asyncio.sleep(0.01)
    assert store.refuse == 0
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2 is not t and not service.rt.owed_privates
    await service.rt.settled(t)
    await service.rt.settled(t2)
    told_hand_over(presenter, t, [leaver, other], refs, seen)
    assert await check_store(store) == []


async def test_r8_5_owed_messages_of_a_step_read_back_survive_a_restore_by_another_path() -> None:
    """As above, the table is restored by another path first (the worker takes its chat
    over again, :meth:`TableService.adopt`) before the restore anew reads storage: that
    one found the table served and sent nothing, and the adopt's resume knew nothing of
    the Leave's messages. Now that resume carries them, over each player's hand
    message."""
    store, clock = OtherStepStore(), Clock()
    service, presenter, t, leaver, other, refs, seen = await leave_ends_the_hand(store, clock)

    async def adopted() -> None:
        assert await service.adopt(t.id)

    store.on_read, store.skip_reads = adopted, 1  # (the restore anew's read: adopted first)
    reply = await service.leave(GROUP, other)  # reads the leave saved: restored anew
    assert reply.alert
    for _ in range(500):
        if not service.rt.renewing and store.on_read is None:
            break
        await asyncio.sleep(0.01)
    assert store.on_read is None
    await service.rt.drain()
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2 is not t and not service.rt.owed_privates
    await service.rt.settled(t)
    await service.rt.settled(t2)
    told_hand_over(presenter, t, [leaver, other], refs, seen)
    assert await check_store(store) == []
