"""fixowed2: the bot added back to a group while the record that its closed table's
players were told is still being saved (tried again in the background) writes the
group's table message as closed once it is saved (``owed_back`` skipped the table and
nothing tried it again, so the group saw it open until the next start); a table step's
close that owes nothing is compared with the stored step too (a stale one is refused,
not applied)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest

from bot.model import Phase
from bot.service import runtime
from bot.service.runtime import ChangedElsewhere, TransitionFailed
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_fixbounds import OwedOnceSilentStore
from tests.bot.test_fixkey import LateStore
from tests.bot.test_fixrb import lobby_of_two, renewed
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_storage_wait import HUNG, WAIT, new_service


class OwedHeldStore(OwedOnceSilentStore):
    """Its first save of a closed table's final snapshot gives up; the next ones wait until
    :attr:`go` is set (the background retry under way while the bot is added back)."""

    go: asyncio.Event | None = None

    async def save_owed(self, table_id: int, data: Mapping[str, Any]) -> None:
        if self.silent_owed <= 0 and self.go is not None:
            await self.go.wait()
        await super().save_owed(table_id, data)


async def test_r8_2a_the_bot_back_while_its_players_told_is_recorded_writes_the_table_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot removed from the group, its table closes (R8.2a), its players are told in
    private; the record of that (the final snapshot cut down to the group's table message)
    gives up and is tried again in the background. The bot is added back meanwhile:
    the table was skipped and nothing wrote its message, which showed it open. Now the
    record, once saved, writes it as closed, and the table is forgotten."""
    monkeypatch.setattr(runtime, "RENEW_RETRY_SECONDS", WAIT / 4)
    store = OwedHeldStore()
    store.go = asyncio.Event()
    service = new_service(store)
    rt = service.rt
    presenter = rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None
    await service.chat_left("telegram", GROUP.chat_id)
    assert not rt.open_here(t)
    await rt.settled(t)
    for _ in range(500):  # (the first try given up, the retry waiting)
        if store.asked.get("save_owed") == 2:
            break
        await asyncio.sleep(0.01)
    assert t.id in rt._recording
    closed = tr("en", "reply.table_closed", table=t.id)
    assert await service.chat_back("telegram", GROUP.chat_id) is False
    assert presenter.tables[GROUP.chat_id][-1].text != closed  # (not recorded yet)
    store.go.set()
    await asyncio.wait_for(rt.drain(), HUNG)
    assert presenter.tables[GROUP.chat_id][-1].text == closed
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


async def test_a_stale_close_that_owes_nothing_is_refused_not_applied() -> None:
    """A step of worker A's table (nothing booked) fails, is read back not saved and rolled
    back; its COMMIT applies all the same (step N+1 stored). A closing step that owes the
    chat nothing is then step N+1 again: it committed no snapshot, so the store did not
    compare it and closed the table from a state storage never had. Now it is compared as
    every table step is: refused ("changed meanwhile"), the table still open in storage."""
    store, clock = LateStore(), Clock()
    a, _, t = await lobby_of_two(store, clock)
    store.late = True
    with pytest.raises(TransitionFailed):
        async with t.lock, a.rt.transition(t):
            t.lang = "en"  # (any change: nothing booked)
    await a.rt.settled(t)
    await store.apply_late()
    with pytest.raises(ChangedElsewhere):
        async with t.lock, a.rt.transition(t) as tx:
            t.outbox_sent = t.outbox_seq  # (the chat owed nothing)
            t.seats = {}
            t.phase = Phase.CLOSED
            tx.close = True
    assert await store.table_state(t.id) is not None  # (still open)
    await renewed(a, t)
    assert await check_store(store) == []


class OwedFirstHeldStore(OwedOnceSilentStore):
    """Its first save of a closed table's final snapshot waits until :attr:`go` is set, then
    is saved (the bot added back while the players are told, before the record is saved)."""

    silent_owed = 0
    go: asyncio.Event | None = None
    held = 0

    async def save_owed(self, table_id: int, data: Mapping[str, Any]) -> None:
        if self.go is not None:
            self.held += 1
            await self.go.wait()
        await super().save_owed(table_id, data)


async def test_r8_2a_the_bot_back_before_its_players_told_is_recorded_writes_the_table_closed() -> (
    None
):
    """As above, the bot added back while the record's first try is under way (the closed
    table being sent here: skipped, and never written): written as closed once saved."""
    store = OwedFirstHeldStore()
    store.go = asyncio.Event()
    service = new_service(store)
    rt = service.rt
    rt.storage_wait = HUNG
    presenter = rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None
    left = asyncio.create_task(service.chat_left("telegram", GROUP.chat_id))
    for _ in range(500):  # (the first try under way)
        if store.held == 1:
            break
        await asyncio.sleep(0.01)
    assert t.id in rt.closing and store.held == 1
    closed = tr("en", "reply.table_closed", table=t.id)
    assert await service.chat_back("telegram", GROUP.chat_id) is False
    assert presenter.tables[GROUP.chat_id][-1].text != closed  # (not recorded yet)
    store.go.set()
    assert await asyncio.wait_for(left, HUNG)
    await rt.settled(t)
    await asyncio.wait_for(rt.drain(), HUNG)
    assert presenter.tables[GROUP.chat_id][-1].text == closed
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []
