"""Break-it on storage trust (brkpg): a commit whose outcome is unknown (the connection lost
after the COMMIT was sent: applied, but answered with an error; the caller cancelled while
its write goes on) or a database that misbehaves (locked, an I/O error, the disk full) must
never lose or double kush (R8.1–R8.4): the table here and storage must agree afterwards, and
the table goes on.

Found: the service rolled a step back on any storage error and gave its key
(``t<table>:s<seq>``) to the next step, which the store took for a repeat of the first (a
replayed key changes nothing): Alice's Ready applied but answered "nothing changed", Bob's
Ready after it was kept in memory only (his buy-in never booked), and Alice's second Ready
booked her buy-in twice."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.model import Actor, LiveTable, Phase
from bot.service import TableService
from bot.service.runtime import STORAGE_WAIT
from bot.texts import tr
from storage.api import LedgerKind, Move, StorageError, Store, TableRecord
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm


class LostReplyStore(MemoryStore):
    """A memory store whose next ``lose`` commits apply and then fail as a connection lost
    before the COMMIT's answer would; ``blind`` table reads fail too meanwhile (the database
    out of reach for a while); ``hold`` makes a commit wait (the caller can be cancelled)."""

    def __init__(self) -> None:
        super().__init__()
        self.lose = 0
        self.blind = 0
        self.hold: asyncio.Event | None = None
        self.applied: list[str] = []
        self.writing: asyncio.Future[list[int]] | None = None

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if self.hold is not None:  # started: goes on when its caller is cancelled
            hold = self.hold
            write = super().commit(table_id, moves, snapshot, key=key, close=close)

            async def held() -> list[int]:
                await hold.wait()
                return await write

            self.writing = asyncio.ensure_future(held())
            return await asyncio.shield(self.writing)
        result = await super().commit(table_id, moves, snapshot, key=key, close=close)
        self.applied.append(key)
        if self.lose:
            self.lose -= 1
            raise StorageError("connection was closed in the middle of operation")
        return result

    async def table_state(self, table_id: int) -> tuple[TableRecord, Mapping[str, Any]] | None:
        if self.blind:
            self.blind -= 1
            raise StorageError("cannot reach PostgreSQL")
        return await super().table_state(table_id)


def new_service(
    store: Store, clock: Clock, storage_wait: float = STORAGE_WAIT
) -> tuple[TableService, FakePresenter]:
    """The service of these tests (and tests/bot/test_brkpg_db.py's) on ``store``: no
    timers of its own (``clock`` and ``run_due`` drive it), 5 s between hands."""
    service = TableService(
        store,
        clock=clock,
        rng=random.Random(5),
        next_hand_delay=5,
        timers=False,
        storage_wait=storage_wait,
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter


async def opened(service: TableService, players: Sequence[Actor]) -> LiveTable | None:
    """Alice opens a table in the group and each of ``players`` joins it; the table."""
    await service.new_table(GROUP, ALICE)
    for a in players:
        await service.join(GROUP, a)
    return service.table_in(GROUP)


async def to_the_last_confirm(
    service: TableService, presenter: FakePresenter
) -> tuple[LiveTable, dict[str, Actor]]:
    """Alice and Bob join and are ready (200 each at the table); the hand is played up to
    its last Confirm (two players, five streets each: nine Confirms, the tenth ends it).
    The table, and the two by user id."""
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    for _ in range(9):
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    return t, by_id


async def money(store: MemoryStore, t: LiveTable) -> tuple[dict[str, int], dict[int, int]]:
    """Every player's balance by user id, and the table's stacks by player id, as stored."""
    community = await store.community("telegram", "-100")
    balances = {}
    for a in (ALICE, BOB, CAROL):
        p = await store.find_player(community.id, a.user_id)
        if p is not None:
            balances[a.user_id] = p.balance
    return balances, dict(await store.stacks(t.id))


async def buy_ins(store: MemoryStore) -> dict[int, int]:
    community = await store.community("telegram", "-100")
    out: dict[int, int] = {}
    for e in await store.ledger(community.id):
        if e.kind is LedgerKind.BUY_IN:
            out[e.player_id] = out.get(e.player_id, 0) + e.stack_delta
    return out


def seat_of(t: LiveTable, a: Actor) -> Any:
    return next(s for s in t.seats.values() if s.user_id == a.user_id)


def stacks_here(t: LiveTable) -> dict[int, int]:
    """The stacks at the table here (not stored), by player id; none of 0."""
    return {s.player_id: s.stack for s in t.seats.values() if s.stack}


async def test_r8_2_a_ready_saved_but_answered_with_an_error_is_booked_once() -> None:
    """The COMMIT of Alice's Ready applied, its answer lost: her Ready stands (not "nothing
    changed"), Bob's Ready after it is booked, and her Ready again is "already ready"."""
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    t = await opened(service, (ALICE, BOB, CAROL))
    assert t is not None
    store.lose = 1
    reply = await service.ready(GROUP, ALICE)
    assert not reply.alert, reply.text
    assert seat_of(t, ALICE).ready and seat_of(t, ALICE).stack == 200
    assert not (await service.ready(GROUP, BOB)).alert
    again = await service.ready(GROUP, ALICE)
    assert again.alert and again.text == tr("en", "reply.already_ready")
    alice, bob = seat_of(t, ALICE).player_id, seat_of(t, BOB).player_id
    assert await buy_ins(store) == {alice: 200, bob: 200}
    assert await money(store, t) == ({"1": 800, "2": 800, "3": 1000}, {alice: 200, bob: 200})
    assert {s.player_id: s.stack for s in t.seats.values() if s.stack} == {alice: 200, bob: 200}
    assert await check_store(store) == []


async def test_r8_2_a_ready_whose_outcome_cannot_be_read_is_never_booked_twice() -> None:
    """The COMMIT of Alice's Ready applied, its answer lost, and storage cannot be read back
    at once either: the press is answered "nothing changed, try again" (all the bot can
    tell), and Bob's Ready next is refused too while storage cannot tell, then, readable
    again, the table is restored from storage (Alice ready, 200 at the table) and goes on:
    Alice's second Ready is "already ready", Bob's is booked once."""
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    await opened(service, (ALICE, BOB, CAROL))
    store.lose, store.blind = 1, 2  # the read-back after the commit and at Bob's Ready fail
    reply = await service.ready(GROUP, ALICE)
    assert reply.alert and reply.text == tr("en", "err.storage")
    reply = await service.ready(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "err.storage")
    reply = await service.ready(GROUP, BOB)  # readable now: Alice's step was saved
    assert reply.alert and reply.text == tr("ru", "err.storage")
    await service.rt.drain()  # (the table is restored from storage in the background)
    t = service.table_in(GROUP)
    assert t is not None and seat_of(t, ALICE).ready and seat_of(t, ALICE).stack == 200
    again = await service.ready(GROUP, ALICE)
    assert again.alert and again.text == tr("en", "reply.already_ready")
    assert not (await service.ready(GROUP, BOB)).alert
    alice, bob = seat_of(t, ALICE).player_id, seat_of(t, BOB).player_id
    assert await buy_ins(store) == {alice: 200, bob: 200}
    assert await money(store, t) == ({"1": 800, "2": 800, "3": 1000}, {alice: 200, bob: 200})
    assert {s.player_id: s.stack for s in t.seats.values() if s.stack} == {alice: 200, bob: 200}
    assert await check_store(store) == []


async def test_r8_4_the_last_confirm_saved_but_answered_with_an_error_settles_once() -> None:
    """The COMMIT of the Confirm that ends the hand (its settlement) applied, its answer
    lost: the showdown stands as saved, the stacks here are storage's, the table deals its
    next hand; the hand is settled once."""
    store, clock = LostReplyStore(), Clock()
    service, presenter = new_service(store, clock)
    t, by_id = await to_the_last_confirm(service, presenter)
    store.lose = 1
    await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.hand is None and t.phase is Phase.BETWEEN
    hands = await store.export_hands(t.id)
    assert len(hands) == 1
    stacks = dict(await store.stacks(t.id))
    assert {s.player_id: s.stack for s in t.seats.values()} == stacks
    assert sum(stacks.values()) == 400 and stacks != {s.player_id: 200 for s in t.seats.values()}
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    await service.rt.settled(t)
    assert len(await store.export_hands(t.id)) == 1
    assert await check_store(store) == []


async def test_r8_2_a_ready_cancelled_while_its_write_goes_on_is_not_booked_twice() -> None:
    """The press is cancelled while its commit waits (the write goes on: both stores finish
    a write once started): the table here is rolled back, the write then applies, and the
    next step reads that first, so no key is given twice (the table is restored from
    storage: Alice ready, 200 at the table)."""
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    await opened(service, (ALICE, BOB, CAROL))
    store.hold = asyncio.Event()
    press = asyncio.ensure_future(service.ready(GROUP, ALICE))
    while store.writing is None:
        await asyncio.sleep(0)
    press.cancel()
    await asyncio.gather(press, return_exceptions=True)
    t = service.table_in(GROUP)
    assert t is not None and not seat_of(t, ALICE).ready  # rolled back: not known yet
    store.hold.set()
    store.hold = None
    await store.writing  # the write applied after all
    reply = await service.ready(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "err.storage")
    await service.rt.drain()  # (the table is restored from storage in the background)
    t = service.table_in(GROUP)
    assert t is not None and seat_of(t, ALICE).ready and seat_of(t, ALICE).stack == 200
    assert not (await service.ready(GROUP, BOB)).alert
    assert (await service.ready(GROUP, ALICE)).text == tr("en", "reply.already_ready")
    alice, bob = seat_of(t, ALICE).player_id, seat_of(t, BOB).player_id
    assert await buy_ins(store) == {alice: 200, bob: 200}
    assert await money(store, t) == ({"1": 800, "2": 800, "3": 1000}, {alice: 200, bob: 200})
    assert await check_store(store) == []


async def test_r8_2_a_leave_saved_but_answered_with_an_error_cashes_out_once() -> None:
    """Bob's leave between hands (his stack back to his balance) applied, its answer lost:
    he is gone here too, and the table goes on (Carol joins and buys in); his kush is
    back once."""
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    await opened(service, (ALICE, BOB, CAROL))
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None
    store.lose = 1
    reply = await service.leave(GROUP, BOB)
    assert not reply.alert and reply.text.endswith("200 кушей."), reply.text
    assert all(s.user_id != BOB.user_id for s in t.seats.values())
    assert not (await service.ready(GROUP, CAROL)).alert
    carol = seat_of(t, CAROL).player_id
    assert await money(store, t) == ({"1": 1000, "2": 1000, "3": 800}, {carol: 200})
    assert stacks_here(t) == {carol: 200}
    assert await check_store(store) == []


async def test_r8_2a_a_close_saved_but_answered_with_an_error_is_closed_here_too() -> None:
    """An admin's /closetable applied (every stack back), its answer lost: the table is
    closed here too, not served on as open against a closed table (each of its steps then
    refused), and a new table opens in the chat."""
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    await opened(service, (ALICE, BOB))
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    store.lose = 1
    reply = await service.close_table(GROUP, ALICE, is_admin=True)
    assert not reply.alert and reply.text.startswith("Table #1 is closed"), reply.text
    assert service.table_in(GROUP) is None
    assert (await store.get_table(t.id)) is not None and not (await store.get_table(t.id)).open
    assert await money(store, t) == ({"1": 1000, "2": 1000}, {})
    reply = await service.new_table(GROUP, BOB)
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2.id != t.id and not reply.alert, reply.text
    assert await check_store(store) == []


async def test_r8_2a_a_close_whose_outcome_was_read_later_sends_its_closing_message() -> None:
    """An admin's /closetable applied, its answer lost and storage not readable at once:
    answered "nothing changed, try again"; the next press finds the table closed in
    storage: the table is no longer served here, its closing message (stacks returned)
    goes to the group, and a new table opens in the chat."""
    store, clock = LostReplyStore(), Clock()
    service, presenter = new_service(store, clock)
    await opened(service, (ALICE, BOB))
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    store.lose, store.blind = 1, 1
    reply = await service.close_table(GROUP, ALICE, is_admin=True)
    assert reply.alert and reply.text == tr("en", "err.storage")
    assert service.table_in(GROUP) is t  # not known yet: served as it was
    reply = await service.ready(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "err.storage")
    await service.rt.drain()
    assert service.table_in(GROUP) is None
    shown = [s.text for s in presenter.tables[GROUP.chat_id]]
    assert "closed" in shown[-1], shown[-1]
    assert await money(store, t) == ({"1": 1000, "2": 1000}, {})
    assert await store.closed_snapshots() == []  # (delivered)
    assert not (await service.new_table(GROUP, BOB)).alert
    assert await check_store(store) == []


class LostOpeningStore(LostReplyStore):
    """Also loses the answer of the next ``lose_create`` table creations (made all the same)."""

    lose_create = 0

    async def create_table(
        self, community_id: int, chat_id: str, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        record = await super().create_table(community_id, chat_id, options, min_buy_in)
        if self.lose_create:
            self.lose_create -= 1
            raise StorageError("connection was closed in the middle of operation")
        return record


async def test_a_new_table_whose_record_was_made_but_answered_with_an_error_opens() -> None:
    """``/newtable`` whose table record was made but answered with an error (the connection
    lost after the COMMIT): the record, served nowhere and never saved, held the chat, and
    every ``/newtable`` after it raised "already has an open table" until a restart. Now
    it is closed and the table opened; the game goes on."""
    store, clock = LostOpeningStore(), Clock()
    service, _ = new_service(store, clock)
    store.lose_create = 1
    reply = await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and reply.text == tr("en", "reply.table_opened", table=t.id)
    community = await store.community("telegram", "-100")
    assert [r.id for r in await store.open_tables(community.id)] == [t.id] and t.id == 2
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    assert t.hand is not None
    assert await check_store(store) == []


async def test_a_table_with_a_snapshot_is_never_closed_as_unopened() -> None:
    """The same read-back leaves alone a table that was opened (it has a snapshot): a
    ``/newtable`` that fails while another process's table holds the chat is refused
    ("nothing changed, try again", not an error out of the service)."""
    store, clock = LostOpeningStore(), Clock()
    service, _ = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    other, _ = new_service(store, clock)  # (a process that does not serve it)
    reply = await other.new_table(GROUP, BOB)  # (storage refused it: "nothing changed")
    assert reply.alert and reply.text == tr("ru", "err.storage")
    community = await store.community("telegram", "-100")
    assert [r.id for r in await store.open_tables(community.id)] == [t.id]
    assert dict(await store.stacks(t.id)) == {seat_of(t, ALICE).player_id: 200}


class LostGrantStore(LostReplyStore):
    """Also loses the answer of the next ``lose_grant`` grants (made all the same, or, with
    ``refuse``, refused: the database gone for a while)."""

    lose_grant = 0
    refuse = 0

    async def grant(
        self, community_id: int, player_id: int, amount: int, *, actor: str, reason: str, key: str
    ) -> int:
        if self.refuse:
            self.refuse -= 1
            raise StorageError("cannot reach PostgreSQL")
        balance = await super().grant(
            community_id, player_id, amount, actor=actor, reason=reason, key=key
        )
        if self.lose_grant:
            self.lose_grant -= 1
            raise StorageError("connection was closed in the middle of operation")
        return balance


async def test_r8_1_a_grant_saved_but_answered_with_an_error_is_granted_once() -> None:
    """An admin's ``/grant`` saved, its answer lost: answered as granted (the same key
    asked again gives the saved balance), not "nothing changed, try again", which had the
    admin grant it a second time."""
    store, clock = LostGrantStore(), Clock()
    service, _ = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, BOB)
    store.lose_grant = 1
    reply = await service.grant(GROUP, ALICE, True, "Bob", "150", "u1")
    assert not reply.alert and "1150" in reply.text.replace(" ", "").replace(",", ""), reply.text
    community = await store.community("telegram", "-100")
    grants = [e for e in await store.ledger(community.id) if e.kind is LedgerKind.ADMIN_GRANT]
    assert [(e.balance_delta, e.key) for e in grants] == [(150, "grant:u1")]
    assert await check_store(store) == []


async def test_r8_1_a_grant_storage_cannot_confirm_says_so() -> None:
    """Storage fails the grant and its retry: the admin is told it may or may not be saved
    (check the balance first), not "nothing changed"; nothing was granted."""
    store, clock = LostGrantStore(), Clock()
    service, _ = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, BOB)
    store.refuse = 2  # the grant and its retry
    reply = await service.grant(GROUP, ALICE, True, "Bob", "150", "u1")
    assert reply.alert and reply.text == tr("en", "err.grant_unsure", name="Bob"), reply.text
    ru = tr("ru", "err.grant_unsure", name="Bob")
    assert "Bob" in ru and len(ru) < 200
    community = await store.community("telegram", "-100")
    bob = await store.find_player(community.id, BOB.user_id)
    assert bob is not None and bob.balance == 1000


async def test_r8_7_a_registration_saved_but_answered_with_an_error_pays_in_once() -> None:
    """A tournament registration (its buy-in into the prize pool) saved, its answer lost:
    Alice is registered (not "nothing changed"), Bob's registration after it is booked, and
    the pool (the tournament's stacks), the table here and a restart all agree: balances +
    stacks as before the registrations."""
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    buy_in = t.tournament.config.buy_in
    store.lose = 1
    reply = await service.join(GROUP, ALICE)
    assert not reply.alert, reply.text
    reply = await service.join(GROUP, BOB)
    assert not reply.alert, reply.text
    assert (await service.join(GROUP, ALICE)).alert  # registered once
    tour = t.tournament
    alice, bob = seat_of(t, ALICE).player_id, seat_of(t, BOB).player_id
    assert tour.players == (alice, bob) and tour.pool == 2 * buy_in
    balances, stacks = await money(store, t)
    assert stacks == {alice: buy_in, bob: buy_in} and sum(stacks.values()) == tour.pool
    assert sum(balances.values()) + sum(stacks.values()) == 2000
    await service.stop()
    service2, _ = new_service(store, clock)  # a restart on the same database
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.tournament is not None
    assert t2.tournament.pool == 2 * buy_in and t2.tournament.players == (alice, bob)
    assert await money(store, t2) == (balances, stacks)
    assert await check_store(store) == []
    await service2.stop()


class SlowOpeningStore(LostReplyStore):
    """A table record made, its answer held until ``held`` is set (the COMMIT done, the
    reply on its way); ``made`` counts the records asked for."""

    held: asyncio.Event | None = None
    made = 0

    async def create_table(
        self, community_id: int, chat_id: str, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        self.made += 1
        record = await super().create_table(community_id, chat_id, options, min_buy_in)
        held, self.held = self.held, None  # (the first one made only)
        if held is not None:
            await held.wait()
        return record


async def test_a_new_table_being_made_is_not_closed_by_a_second_newtable() -> None:
    """Two ``/newtable`` at once in one chat: the second, sent while the first's record is
    on its way back, neither takes that record for one a failed opening left (closing it
    under the first) nor is refused "nothing changed" (flk41: it found no table served yet
    and answered ``err.storage``): it waits for the first's opening (the chat's
    :meth:`Runtime.opening_lock`) and is told table #1 is open; the first opens table #1."""
    store, clock = SlowOpeningStore(), Clock()
    service, _ = new_service(store, clock)
    store.held = held = asyncio.Event()
    first = asyncio.ensure_future(service.new_table(GROUP, ALICE))
    while not store._tables:  # (the first's record is made)
        await asyncio.sleep(0)
    second = asyncio.ensure_future(service.new_table(GROUP, BOB))
    for _ in range(100):  # (before: refused within a few turns of the loop, nothing stored)
        await asyncio.sleep(0)
    assert not second.done()  # it waits for the first
    held.set()
    reply = await first
    t = service.table_in(GROUP)
    assert t is not None and t.id == 1 and reply.text == tr("en", "reply.table_opened", table=1)
    told = await second
    assert told.alert and told.text == tr("ru", "reply.table_exists", table=1)
    assert store.made == 1  # (the second asked storage for no record)
    community = await store.community("telegram", "-100")
    assert [r.id for r in await store.open_tables(community.id)] == [1]
