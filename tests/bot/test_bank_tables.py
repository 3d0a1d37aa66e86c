"""R8.6: "The time bank refills when the player joins another table, not when they leave and
rejoin the same one" (seed 000: it renews whenever the player moves to another table). A table
keeps the bank of who left it (``LiveTable.banks_left``); the store keeps the table each
platform user joined last (``Store.last_table``, a ``Joined`` move in the join's own
transaction), so that A → B → A is seen as a move to another table whichever worker served B,
after a restart too, in another Telegram group (another player id) or another channel of the
same Discord guild (the same player id), and after a tournament registration."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.model import Actor, ChatRef, LiveTable
from bot.service import TableService
from storage.api import lease_key
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, leave_now

OTHER = ChatRef("telegram", "-200", "-200", "Others")


def _service(store: MemoryStore | SqliteStore, clock: Clock) -> TableService:
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    return service


async def _half_a_bank_gone(
    service: TableService, clock: Clock, chat: ChatRef, one: Actor, two: Actor
) -> tuple[LiveTable, Actor]:
    """At ``chat``, ``one`` and ``two`` seated and dealt; the first to act sleeps through the
    budget (120 s) and 30 s of the bank (60 s), then leaves mid-hand and is gone once the
    hand ends (as tests/bot/test_liveness.py's helper, in any chat). Returns the table and
    who left."""
    assert not (await service.new_table(chat, one)).alert
    for a in (one, two):
        assert not (await service.join(chat, a)).alert
        assert not (await service.ready(chat, a)).alert
    t = service.table_in(chat)
    assert t is not None and t.hand is not None
    sleeper = t.seats[t.hand.to_act[0]]
    actor = one if sleeper.user_id == one.user_id else two
    clock.now += 150
    assert not (await leave_now(service, chat, actor)).alert  # (asked first, R8.5)
    while t.hand is not None:
        clock.now += 181
        await service.run_due()
    assert t.seat_of(actor.user_id) is None and t.banks_left[sleeper.player_id] == 30.0
    return t, actor


async def _sit_and_leave(service: TableService, chat: ChatRef, actor: Actor) -> None:
    """``actor`` opens a table at ``chat``, sits down with a full bank and leaves."""
    assert not (await service.new_table(chat, actor)).alert
    assert not (await service.join(chat, actor)).alert
    t = service.table_in(chat)
    assert t is not None
    seat = t.seat_of(actor.user_id)
    assert seat is not None and seat.bank == 60.0
    assert not (await service.leave(chat, actor)).alert
    assert t.seat_of(actor.user_id) is None


def _bank_at(service: TableService, chat: ChatRef, actor: Actor) -> float:
    t = service.table_in(chat)
    assert t is not None
    seat = t.seat_of(actor.user_id)
    assert seat is not None
    return seat.bank


async def test_r8_6_back_at_a_after_b_that_another_worker_serves_the_bank_is_full() -> None:
    """R8.6 in cluster mode: table A is served by worker 1, table B (another group) by worker
    2, one database. Alice leaves A with 30 s of her bank, sits at B on worker 2 and leaves;
    back at A on worker 1 (whose A still keeps her 30 s) the bank is full: 60 s."""
    store, clock = MemoryStore(), Clock()
    store.clock = clock
    w1, w2 = _service(store, clock), _service(store, clock)
    assert await store.acquire_lease(lease_key("telegram", GROUP.chat_id), "w1", 1e9)
    assert await store.acquire_lease(lease_key("telegram", OTHER.chat_id), "w2", 1e9)
    store.fence("w1")
    _t, actor = await _half_a_bank_gone(w1, clock, GROUP, ALICE, BOB)
    store.fence("w2")
    await _sit_and_leave(w2, OTHER, actor)
    assert w1.table_in(OTHER) is None and w2.table_in(GROUP) is None  # one table a worker
    store.fence("w1")
    assert not (await w1.join(GROUP, actor)).alert
    assert _bank_at(w1, GROUP, actor) == 60.0
    assert await check_store(store) == []


@pytest.mark.parametrize("elsewhere", [True, False], ids=["via-another-table", "straight-back"])
async def test_r8_6_a_restart_keeps_whether_the_player_joined_another_table(
    tmp_path: Path, elsewhere: bool
) -> None:
    """R8.6 over a restart (SQLite file): Alice leaves A with 30 s of her bank; with
    ``elsewhere`` she sits at B and leaves it. The bot restarts; back at A her bank is full
    (60 s) after B, and 30 s straight back (the same table: no refill)."""
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    service, _presenter, _store, clock = service_env(store=store)
    _t, actor = await _half_a_bank_gone(service, clock, GROUP, ALICE, BOB)
    if elsewhere:
        await _sit_and_leave(service, OTHER, actor)
    await service.stop()
    await store.close()
    store = await SqliteStore.open(path)
    try:
        again = _service(store, clock)
        await again.start()
        t = again.table_in(GROUP)
        assert t is not None and t.seat_of(actor.user_id) is None
        assert not (await again.join(GROUP, actor)).alert
        assert _bank_at(again, GROUP, actor) == (60.0 if elsewhere else 30.0)
        await again.stop()
    finally:
        await store.close()


async def test_r8_6_another_channel_of_the_discord_guild_is_another_table(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6 on Discord: two channels of one guild are two tables of one community (the same
    player id at both). Anna leaves #a with 30 s of her bank, sits at #b and leaves; back
    at #a her bank is full (60 s)."""
    service, _presenter, store, clock = env
    here = ChatRef("discord", "g1", "c-a", "Poker")
    there = ChatRef("discord", "g1", "c-b", "Poker")
    anna, boris = Actor("discord", "11", "Anna", "en"), Actor("discord", "12", "Boris", "ru")
    t, actor = await _half_a_bank_gone(service, clock, here, anna, boris)
    await _sit_and_leave(service, there, actor)
    other = service.table_in(there)
    assert other is not None and other.community_id == t.community_id
    assert not (await service.join(here, actor)).alert
    assert _bank_at(service, here, actor) == 60.0
    assert await check_store(store) == []


async def test_r8_6_a_tournament_registration_is_joining_another_table(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6: a sit-and-go is another table. Alice leaves A with 30 s of her bank, registers
    at a tournament in another group and unregisters; back at A her bank is full (60 s)."""
    service, _presenter, store, clock = env
    _t, actor = await _half_a_bank_gone(service, clock, GROUP, ALICE, BOB)
    assert not (await service.new_tournament(OTHER, actor, "pineapple")).alert
    tour = service.table_in(OTHER)
    assert tour is not None and tour.tournament is not None
    assert not (await service.join(OTHER, actor)).alert
    assert tour.seat_of(actor.user_id) is not None
    assert not (await service.leave(OTHER, actor)).alert
    assert tour.seat_of(actor.user_id) is None
    assert not (await service.join(GROUP, actor)).alert
    assert _bank_at(service, GROUP, actor) == 60.0
    assert await check_store(store) == []


@pytest.mark.parametrize("ready", [False, True], ids=["seated", "bought-in"])
async def test_r8_6_rejoin_while_seated_at_a_table_another_worker_serves_keeps_the_bank(
    ready: bool,
) -> None:
    """R8.6 in cluster mode, as with both tables on one worker (tests/bot/
    test_multi_tables.py): Alice sits at A (worker 1), then at B (another group, worker 2),
    Ready there or not; she leaves A with 30 s of her bank and sits down at A again, never
    having left B: the same table, no refill (30 s). Seated at B without Ready (no stack
    stored yet) read as gone from B on worker 1, and the bank came back full (60 s)."""
    store, clock = MemoryStore(), Clock()
    store.clock = clock
    w1, w2 = _service(store, clock), _service(store, clock)
    assert await store.acquire_lease(lease_key("telegram", GROUP.chat_id), "w1", 1e9)
    assert await store.acquire_lease(lease_key("telegram", OTHER.chat_id), "w2", 1e9)
    store.fence("w1")
    assert not (await w1.new_table(GROUP, BOB)).alert
    for a in (ALICE, BOB):
        assert not (await w1.join(GROUP, a)).alert
    store.fence("w2")
    assert not (await w2.new_table(OTHER, BOB)).alert
    assert not (await w2.join(OTHER, ALICE)).alert
    if ready:
        assert not (await w2.ready(OTHER, ALICE)).alert
    store.fence("w1")
    a = w1.table_in(GROUP)
    assert a is not None and w1.table_in(OTHER) is None
    seat = a.seat_of(ALICE.user_id)
    assert seat is not None
    seat.bank = 30.0  # (as a hand spends it, R8.5)
    assert not (await w1.leave(GROUP, ALICE)).alert
    assert a.banks_left[seat.player_id] == 30.0
    assert not (await w1.join(GROUP, ALICE)).alert
    assert _bank_at(w1, GROUP, ALICE) == 30.0
    assert await check_store(store) == []
