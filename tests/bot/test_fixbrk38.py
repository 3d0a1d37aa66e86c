"""fixbrk38: the writes no user waits for (a closed table's final snapshot forgotten, its
command keys saved) on a slow database; a closed table's last messages sent once by a sweep
and a restore anew; a restore anew's owed private messages; a tournament's typed /leave."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import Any

import pytest

from bot.cluster import Worker
from bot.screens import Payload
from bot.service import TableService
from bot.texts import tr
from storage.api import StorageTimeout, lease_key, time_left
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_brkpg_storage import LostReplyStore
from tests.bot.test_fixstop_unsure import RefPresenter, closing_notices, service_on
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm
from tests.bot.test_tournament_service import running_tournament

#: how long the slow store takes to answer its slow calls, in seconds
SLOW = 0.3


class SlowStore(MemoryStore):
    """A memory store whose deletes of final snapshots and settings changes take
    :data:`SLOW` seconds (a slow database, not a silent one); a call bound by
    :func:`storage.api.answer_within` to less gives up when its time is up, unsaved, as the
    real stores do."""

    slow = True

    async def _slowly(self) -> None:
        if not self.slow:
            return
        left = time_left()
        if left is not None and left < SLOW:
            await asyncio.sleep(left)
            raise StorageTimeout("no answer within the bound")
        await asyncio.sleep(SLOW)

    async def delete_snapshot(self, table_id: int) -> None:
        await self._slowly()
        await super().delete_snapshot(table_id)

    async def change_settings(self, community_id: int, change: Any) -> Any:
        await self._slowly()
        return await super().change_settings(community_id, change)


def _service(store: MemoryStore, presenter: FakePresenter) -> TableService:
    service = TableService(store, clock=Clock(), rng=random.Random(5), next_hand_delay=5,
                           timers=False, storage_wait=0.2)  # fmt: skip
    service.register(presenter)
    return service


async def test_r8_2a_a_closed_tables_writes_on_a_database_slower_than_a_press_are_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An admin closes the table (R8.2a) on a database slower (0.3 s) than a press may wait
    (``STORAGE_WAIT_SECONDS``, 0.2 s here). Its closing notice is sent; forgetting its final
    snapshot and saving its command keys wait for no user: each is made (a longer bound,
    tried again). Both gave up: a restart sent the closing notice again, and a copy of its
    /closetable delivered after the restart was not known."""
    monkeypatch.setattr("bot.service.runtime.RENEW_RETRY_SECONDS", 0.01)
    store, presenter = SlowStore(), FakePresenter()
    service = _service(store, presenter)
    store.slow = False
    await service.new_table(GROUP, ALICE, request="tg:new")
    t = service.table_in(GROUP)
    assert t is not None
    store.slow = True
    reply = await service.close_table(GROUP, ALICE, True, request="tg:close")
    assert not reply.alert, reply.text
    await service.rt.settled(t)
    await service.rt.drain()
    assert await store.closed_snapshots() == []
    community = await store.community(GROUP.platform, GROUP.community_id)
    assert community.settings.table_requests[-2:] == ("tg:new", "tg:close")
    await service.stop()
    posts, writes = len(presenter.posts), presenter.writes
    again = _service(store, presenter)  # (a restart: nothing is owed, nothing sent again)
    await again.start()
    assert (len(presenter.posts), presenter.writes) == (posts, writes)
    await again.stop()


class HeldReadStore(LostReplyStore):
    """:class:`LostReplyStore` whose next read of the closed tables' final snapshots, once
    :attr:`gate` is set, is made at once and answered only when the gate opens (a slow
    database: the answer is what was stored when it was read)."""

    gate: asyncio.Event | None = None
    held = False

    async def closed_snapshots(self) -> Any:
        owed = await super().closed_snapshots()
        if self.gate is not None:
            gate, self.gate = self.gate, None
            self.held = True
            await gate.wait()
        return owed


async def _held(store: HeldReadStore) -> None:
    for _ in range(1000):
        if store.held:
            return
        await asyncio.sleep(0.001)
    pytest.fail("the read was not made")


async def _closed_unsure(store: LostReplyStore, presenter: FakePresenter) -> TableService:
    """Alice's /closetable (between hands, Bob seated too) saved, its answer lost and not
    read back: the close not known yet."""
    service = _service(store, presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None
    await service.rt.settled(t)
    store.lose, store.blind = 1, 1
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.alert and reply.text == tr("en", "err.storage")
    assert service.table_in(GROUP) is t and service.rt.unsure
    return service


@pytest.mark.parametrize("first", ["sweep", "restore"])
async def test_r8_2a_a_closed_tables_last_messages_go_out_once_by_a_sweep_and_a_restore_anew(
    first: str,
) -> None:
    """Alice's /closetable is saved, its answer lost. The cluster's sweep of owed messages
    reads the closed table's final snapshot (its answer slow) while Bob's press reads the
    close saved and the table, restored anew, sends its closing notice and forgets it
    (``first`` = "sweep"), or the other way round: the restore's read slow while the sweep
    sends it all. The one whose read was pending sent the closing notice again."""
    store, presenter = HeldReadStore(), FakePresenter()
    service = await _closed_unsure(store, presenter)
    t = service.table_in(GROUP)
    assert t is not None
    worker = Worker(service, "w1", "http://127.0.0.1/w1", ttl=5.0)
    key = lease_key("telegram", GROUP.chat_id)
    assert await worker.claim(key)  # (the chat's: its store is fenced so)
    gate = asyncio.Event()
    if first == "sweep":
        store.gate = gate
        sweep = asyncio.create_task(worker._deliver(key, t.id))
        await _held(store)
        reply = await service.ready(GROUP, BOB)  # reads the close saved: restored anew
        assert reply.alert and reply.text == tr("ru", "err.storage")
        await service.rt.drain()
        await service.rt.settled(t)
        assert len(closing_notices(presenter, t.id)) == 1
        gate.set()
        await sweep
    else:
        reply = await service.ready(GROUP, BOB)  # reads the close saved: restored anew
        assert reply.alert and reply.text == tr("ru", "err.storage")
        store.gate = gate  # (the restore's read, under way: the press's own read-back is done)
        await _held(store)
        await worker._deliver(key, t.id)
        await service.rt.settled(t)
        assert len(closing_notices(presenter, t.id)) == 1
        gate.set()
    await service.rt.drain()
    await service.rt.settled(t)
    for closing in list(service.rt.closing.values()):
        await service.rt.settled(closing)
    assert len(closing_notices(presenter, t.id)) == 1, presenter.tables
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


async def test_r8_7_a_typed_leave_question_answered_nothing_changed_is_not_taken_as_asked() -> None:
    """Carol's /leave at a running tournament (R8.7) asks first; its step is saved, its
    answer lost and not read back: she is told "nothing changed, try again". Her next /leave
    reads the step saved (the table restored anew from storage: told "nothing changed"
    again). The one after asks her the question: it knocked her out, the question never seen."""
    store, clock = LostReplyStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=0,
                           timers=False)  # fmt: skip
    service.register(FakePresenter())
    t, tour = await running_tournament(service)
    chips = dict(tour.chips)
    store.lose, store.blind = 1, 1
    reply = await service.leave(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "err.storage")
    reply = await service.leave(GROUP, CAROL)  # reads the question saved: restored anew
    assert reply.alert and reply.text == tr("en", "err.storage")
    await service.rt.drain()
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2 is not t and t2.tournament is not None
    clock.now += 1
    reply = await service.leave(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "tour.leave_confirm_typed", place=3)
    assert t2.tournament.chips == chips and not t2.tournament.knocked_out
    reply = await service.leave(GROUP, CAROL)  # (asked now: the second leaves)
    assert not reply.alert and reply.text == tr("en", "tour.left", place=3, prize=0, label="kush")
    assert await check_store(store) == []


class LastPresenter(RefPresenter):
    """Also keeps each private message's last screen, by user and message ref."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[str, dict[str, Any]] = {}

    async def show_private(
        self, user_id: str, screen: Any, ref: str | None, answered: str | None = None
    ) -> str | None:
        got = await super().show_private(user_id, screen, ref, answered)
        if got is not None:
            self.last.setdefault(user_id, {})[got] = screen
        return got

    def showing(self, user_id: str, table: int, hand: int) -> list[str]:
        """The user's private messages whose last screen shows hand ``hand`` of ``table``
        (its title in English, its buttons in Russian: ``<table>:<hand>.``)."""
        return [
            ref
            for ref, s in self.last.get(user_id, {}).items()
            if f"#{table} · hand {hand} ·" in s.text
            or any(str(b.data).startswith(f"{table}:{hand}.") for b in s.all_buttons())
        ]


async def test_r8_5_a_table_restored_anew_with_a_deal_due_leaves_each_player_one_hand_message() -> (
    None
):
    """The last Confirm of a hand ends it; its step is saved, its answer lost and not read
    back, so its "hand over" messages were never sent. The community's buy-in is changed
    meanwhile by another worker (missed by the table), and the next deal falls due. The
    other player's /leave reads the step saved: the table is restored anew, its overdue
    deal made first (the settings missed). Each player has one message showing the new hand
    (brk38 feared the deal posted a new one, then the owed step's went over the old message,
    showing the new hand too: not so, a guard)."""
    store, clock = LostReplyStore(), Clock()
    presenter = LastPresenter()
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

    for _ in range(9):
        await press_auto_and_confirm(service, presenter, to_act())
    last = to_act()
    screen = presenter.last_private(last.user_id)
    arrange = next(b.data for b in screen.all_buttons() if b.data and _action(b.data) == "a")
    assert not (await service.press(last, arrange)).alert
    screen = presenter.last_private(last.user_id)
    confirm = next(b.data for b in screen.all_buttons() if b.data and _action(b.data) == "c")
    await service.rt.settled(t)
    store.lose, store.blind = 1, 1
    reply = await service.press(last, confirm)
    assert reply.alert and reply.text == tr(str(last.language), "err.storage"), reply.text
    community = await store.community(GROUP.platform, GROUP.community_id)
    await store.change_settings(community.id, lambda s: replace(s, min_buy_in=300))
    clock.now += 10  # (the next deal is due)
    other = ALICE if last is BOB else BOB
    reply = await service.leave(GROUP, other)  # reads the Confirm saved: restored anew
    assert reply.alert and reply.text == tr(str(other.language), "err.storage")
    await service.rt.drain()
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2 is not t and t2.hand is not None and t2.hand_no == 2
    await service.rt.settled(t)
    await service.rt.settled(t2)
    for a in (ALICE, BOB):
        assert len(presenter.showing(a.user_id, t.id, 2)) == 1, (a.name, presenter.last)
    assert await check_store(store) == []


def _action(data: str) -> str:
    return str(Payload.decode(data).action)
