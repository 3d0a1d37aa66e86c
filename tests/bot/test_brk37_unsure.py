"""Break-it (brk37) on :meth:`Runtime.commit`'s read-back of a failed commit: a table whose
step was saved after all is let go and restored anew from storage while its senders may
still hold messages of the steps before (a notice the platform makes wait). What the group
owes is sent once: not by the old table's sender and again by the restored table's."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_brkpg_storage import LostReplyStore, new_service, seat_of
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP


class HeldPresenter(FakePresenter):
    """A presenter whose group notices wait while ``hold`` is set (a flood wait, say); as
    the platforms' presenters, once the bot stops (:meth:`stop_retries`) a notice held so
    is not sent (``False``: the next start sends it)."""

    hold: asyncio.Event | None = None
    waiting = 0
    stopped: asyncio.Event | None = None

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        if self.hold is not None:
            self.waiting += 1
            if self.stopped is None:
                self.stopped = asyncio.Event()
            held = asyncio.ensure_future(self.hold.wait())
            stop = asyncio.ensure_future(self.stopped.wait())
            await asyncio.wait([held, stop], return_when=asyncio.FIRST_COMPLETED)
            held.cancel()
            stop.cancel()
            if self.stopped.is_set():
                return False
        return await super().post(chat_id, text, ref)

    def stop_retries(self) -> None:
        if self.stopped is None:
            self.stopped = asyncio.Event()
        self.stopped.set()


async def test_r8_2_a_notice_held_while_the_table_is_restored_anew_is_posted_once() -> None:
    """Carol leaves the group (its notice owed to the group, the platform making it wait);
    Alice's Ready is saved but answered with an error and cannot be read back; Bob's Ready
    reads it saved and the table is restored anew from storage, whose snapshot still owes
    Carol's notice: once the platform lets the notice through, the group has it once."""
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    presenter = HeldPresenter()
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        await service.join(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None
    presenter.hold = asyncio.Event()
    left = asyncio.ensure_future(service.member_left(GROUP, CAROL))
    for _ in range(100):  # Carol's notice is being sent
        if presenter.waiting:
            break
        await asyncio.sleep(0)
    assert presenter.waiting == 1, presenter.posts
    assert t.seat_of(CAROL.user_id) is None  # (her leave committed)
    store.lose, store.blind = 1, 1
    reply = await service.ready(GROUP, ALICE)
    assert reply.alert and reply.text == tr("en", "err.storage")
    presenter.hold.set()  # the platform's wait is over soon after: both senders go on
    presenter.hold = None
    reply = await service.ready(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "err.storage")
    await left
    await service.rt.drain()  # (restored anew in the background)
    await service.rt.settled(t)
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2 is not t and seat_of(t2, ALICE).ready
    await service.rt.settled(t2)
    notice = tr("en", "notice.left_group", name=CAROL.name)
    assert [text for _, text in presenter.posts if text == notice] == [notice]
    assert await check_store(store) == []


async def test_a_table_restored_anew_waits_for_a_held_sender_a_short_while_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The let-go table's notice held for long (a flood wait, a mute): the table is
    restored anew all the same after :data:`~bot.service.runtime.ANEW_WAIT_SECONDS`, not
    left unserved for the whole wait."""
    monkeypatch.setattr("bot.service.runtime.ANEW_WAIT_SECONDS", 0.2)
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    presenter = HeldPresenter()
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        await service.join(GROUP, a)
    hold = presenter.hold = asyncio.Event()
    left = asyncio.ensure_future(service.member_left(GROUP, CAROL))
    for _ in range(100):
        if presenter.waiting:
            break
        await asyncio.sleep(0)
    store.lose, store.blind = 1, 1
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    loop = asyncio.get_running_loop()
    start = loop.time()
    await asyncio.wait_for(service.rt.drain(), 3)
    t2 = service.table_in(GROUP)
    assert t2 is not None and seat_of(t2, ALICE).ready
    assert loop.time() - start < 2
    hold.set()
    await left


async def test_a_table_restored_anew_as_the_bot_stops_is_stopped_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The stop comes while a table is being restored anew (waiting for its let-go
    sender): the stop waited for that restore last, after it had cancelled the timers, so
    the restored table's timer ran on after the stop. It is stopped as every table is."""
    monkeypatch.setattr("bot.service.runtime.ANEW_WAIT_SECONDS", 0.2)
    store, clock = LostReplyStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=5)
    presenter = HeldPresenter()
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        await service.join(GROUP, a)
    hold = presenter.hold = asyncio.Event()
    left = asyncio.ensure_future(service.member_left(GROUP, CAROL))
    for _ in range(100):
        if presenter.waiting:
            break
        await asyncio.sleep(0)
    store.lose, store.blind = 1, 1
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    assert service.table_in(GROUP) is None  # (being restored anew)
    await service.stop()
    t2 = service.table_in(GROUP)
    assert t2 is not None and seat_of(t2, ALICE).ready
    assert t2.timer is None
    hold.set()
    await left
