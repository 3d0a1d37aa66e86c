"""A step whose commit storage answered with an error, read back as saved after all
(:meth:`Runtime.commit`'s read-back, :meth:`Runtime._unsure_first`): its messages go out as
if the commit had answered, once; a close another worker made is not taken for this
process's own (its closing messages were sent twice)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import pytest

from bot.model import Actor, LiveTable
from bot.service import TableService
from bot.texts import on, tr
from storage.api import Move, StorageError
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_brkpg_storage import LostReplyStore, money
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm


class RefPresenter(FakePresenter):
    """Also records the message each private write went over (``None``: posted anew)."""

    def __init__(self) -> None:
        super().__init__()
        self.over: dict[str, list[str | None]] = {}

    async def show_private(
        self, user_id: str, screen: Any, ref: str | None, answered: str | None = None
    ) -> str | None:
        self.over.setdefault(user_id, []).append(ref)
        return await super().show_private(user_id, screen, ref, answered)


def service_on(store: LostReplyStore, clock: Clock, presenter: FakePresenter) -> TableService:
    service = TableService(
        store,
        clock=clock,
        rng=random.Random(5),
        next_hand_delay=5,
        timers=False,
        decisions_in_process=False,
    )
    service.register(presenter)
    return service


async def test_r8_5_a_leave_that_ends_the_hand_read_back_as_saved_tells_both_the_hand_is_over() -> (
    None
):
    """Bob's Leave (confirmed) is the hand's last move: his street is placed for him, the
    hand ends and he stands up; its commit applied, the answer lost, and storage could not
    be read back at once ("nothing changed, try again"). Alice's next press reads it saved
    and the table is restored anew from storage, between hands: the step's private
    messages, the "hand over" screen to Bob (the leaver) and to Alice, were never sent
    (the restored table shows no hand). Each now gets it, over their hand message, as the
    commit answered OK would have."""
    store, clock = LostReplyStore(), Clock()
    presenter = RefPresenter()
    service = service_on(store, clock, presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}

    def to_act() -> Any:
        assert t is not None and t.hand is not None
        return by_id[t.seats[t.hand.to_act[0]].user_id]

    for _ in range(9):  # two players, five streets each: the tenth Confirm ends the hand
        await press_auto_and_confirm(service, presenter, to_act())
    leaver = to_act()
    other = ALICE if leaver is BOB else BOB
    await service.leave(GROUP, leaver)  # (asks first during the hand)
    await service.rt.settled(t)
    hand_msgs = {a.user_id: t.seats[t.seat_of(a.user_id).seat].private_ref for a in (ALICE, BOB)}
    seen = {a.user_id: len(presenter.privates[a.user_id]) for a in (ALICE, BOB)}
    store.lose, store.blind = 1, 1
    reply = await service.leave(GROUP, leaver)
    assert reply.alert and reply.text == tr(str(leaver.language), "err.storage")
    reply = await service.leave(GROUP, other)  # reads the leave saved: restored anew
    assert reply.alert and reply.text == tr(str(other.language), "err.storage")
    await service.rt.drain()
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2 is not t and t2.hand is None
    assert t2.seat_of(leaver.user_id) is None and t2.seat_of(other.user_id) is not None
    await service.rt.settled(t)
    await service.rt.settled(t2)
    for a in (leaver, other):
        over = tr(str(a.language), on("telegram", "private.over"), table=t.id, hand=1)
        got = [s.text for s in presenter.privates[a.user_id][seen[a.user_id] :]]
        assert got == [over], (a.name, got)
        assert presenter.over[a.user_id][-1] == hand_msgs[a.user_id]  # over their hand
    assert await check_store(store) == []


class ClosedByAnotherStore(LostReplyStore):
    """A closing commit that does not apply: ``other`` (another worker) closes the table
    meanwhile, then the commit fails as a connection lost would (the outcome unknown)."""

    other: Callable[[], Awaitable[Any]] | None = None

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if close and self.other is not None:
            other, self.other = self.other, None
            await other()
            raise StorageError("connection was closed in the middle of operation")
        return await super().commit(table_id, moves, snapshot, key=key, close=close)


class HeldClosePresenter(FakePresenter):
    """A presenter whose closing table message waits while ``hold`` is set (a flood wait)."""

    hold: asyncio.Event | None = None

    async def show_table(self, chat_id: str, screen: Any, ref: str | None) -> str | None:
        if self.hold is not None and "closed" in screen.text:
            await self.hold.wait()
        return await super().show_table(chat_id, screen, ref)


def closing_notices(presenter: FakePresenter, table: int) -> list[str]:
    closed = tr("en", "reply.table_closing", table=table)
    texts = [s.text for s in presenter.tables.get(GROUP.chat_id, [])]
    texts += [text for _, text in presenter.posts]
    return [text for text in texts if f"#{table}" in text and "closed" in text and text != closed]


@pytest.mark.parametrize("admin", [ALICE, BOB], ids=["en", "ru"])
async def test_r8_2a_a_close_read_back_after_another_worker_closed_it_is_not_sent_twice(
    admin: Actor,
) -> None:
    """Worker A's /closetable does not apply; worker B (which took the table over, issue
    14) closes it meanwhile and sends its closing message; A's commit is answered with an
    error and read back: the table is closed, but not by A's step (B's final snapshot is
    not the one A committed). A sends no closing message of its own (the group had B's:
    it got two), and serves the table no more. The admin is told the table is closed (it
    is): "nothing changed, try again" was untrue, and trying again found no table."""
    store, clock = ClosedByAnotherStore(), Clock()
    a_presenter, b_presenter = FakePresenter(), FakePresenter()
    a = service_on(store, clock, a_presenter)
    await a.new_table(GROUP, ALICE)
    for actor in (ALICE, BOB):
        await a.join(GROUP, actor)
    await a.ready(GROUP, ALICE)
    t = a.table_in(GROUP)
    assert t is not None
    await a.rt.settled(t)
    b = service_on(store, clock, b_presenter)
    assert await b.adopt(t.id)
    tb = b.table_in(GROUP)
    assert tb is not None

    async def b_closes() -> None:
        reply = await b.close_table(GROUP, ALICE, is_admin=True)
        assert not reply.alert, reply.text

    store.other = b_closes
    reply = await a.close_table(GROUP, admin, is_admin=True)
    lang = str(admin.language)  # (was err.storage: "nothing changed, try again")
    assert reply.text == tr(lang, "reply.table_closed", table=t.id), reply.text
    await a.rt.drain()
    await b.rt.drain()
    await a.rt.settled(t)
    await b.rt.settled(tb)
    assert a.table_in(GROUP) is None and t.id not in a.rt.tables and not a.rt.closing
    assert len(closing_notices(b_presenter, t.id)) == 1, b_presenter.tables
    assert closing_notices(a_presenter, t.id) == [], a_presenter.tables
    assert await store.closed_snapshots() == []
    assert await money(store, t) == ({"1": 1000, "2": 1000}, {})
    assert await check_store(store) == []


async def test_r8_2a_a_close_read_back_later_after_another_worker_closed_it_sends_nothing() -> None:
    """As above, A's read-back failing too (the outcome unknown: read by A's next step),
    B's closing message held by the platform meanwhile: the next step finds the table
    closed by B's step, not A's; A restores and sends nothing (it sent B's final snapshot,
    which B was sending too), and serves the table no more. That next step (Bob's Ready) is
    answered that the table is closed, in Bob's language."""
    store, clock = ClosedByAnotherStore(), Clock()
    a_presenter, b_presenter = FakePresenter(), HeldClosePresenter()
    b_presenter.hold = hold = asyncio.Event()
    a = service_on(store, clock, a_presenter)
    await a.new_table(GROUP, ALICE)
    for actor in (ALICE, BOB):
        await a.join(GROUP, actor)
    await a.ready(GROUP, ALICE)
    t = a.table_in(GROUP)
    assert t is not None
    await a.rt.settled(t)
    b = service_on(store, clock, b_presenter)
    assert await b.adopt(t.id)
    tb = b.table_in(GROUP)
    assert tb is not None
    b_closing: list[LiveTable] = []
    b_close: list[asyncio.Future[Any]] = []

    async def b_closes() -> None:  # (answered once its closing message is sent: held)
        b_close.append(asyncio.ensure_future(b.close_table(GROUP, ALICE, is_admin=True)))
        while t.id in b.rt.tables:
            await asyncio.sleep(0)
        b_closing.extend(b.rt.closing.values())
        store.blind = 1  # (A's read-back of its commit)

    store.other = b_closes
    reply = await a.close_table(GROUP, ALICE, is_admin=True)
    assert reply.alert and reply.text == tr("en", "err.storage")
    assert a.table_in(GROUP) is t and a.rt.unsure  # not known yet
    reply = await a.ready(GROUP, BOB)
    assert reply.text == tr("ru", "reply.table_closed", table=t.id)  # (was err.storage)
    await a.rt.drain()
    assert closing_notices(a_presenter, t.id) == [], a_presenter.tables  # (B's is held)
    hold.set()
    assert not (await b_close[0]).alert
    await b.rt.drain()
    for closing in b_closing:
        await b.rt.settled(closing)
    assert a.table_in(GROUP) is None and not a.rt.unsure and not a.rt.closing
    assert len(closing_notices(b_presenter, t.id)) == 1, b_presenter.tables
    assert closing_notices(a_presenter, t.id) == [], a_presenter.tables
    assert await money(store, t) == ({"1": 1000, "2": 1000}, {})
    assert await check_store(store) == []
