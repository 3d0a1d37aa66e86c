"""A database that does not answer (silent network, a far or stuck server) against the
commands that hold no table and the background writes: each is answered, or gives up,
within ``STORAGE_WAIT_SECONDS`` (:attr:`Runtime.storage_wait`) instead of hanging, with the
clear ``err.storage_slow`` where a user waits, and nothing changed by what gave up. The
store here is the in-memory one whose named calls never answer; like the real stores
(PostgreSQL, SQLite: tests/bot/test_brkpg_db.py) a call bound by
:func:`storage.api.answer_within` gives up when its time is up."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.model import Reply
from bot.service import TableService, runtime
from bot.service.runtime import STORAGE_WAIT, Runtime
from bot.texts import tr
from storage.api import LedgerKind, StorageTimeout, time_left
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated

#: the bound of these tests (short: the tests wait it out)
WAIT = 0.2
#: how long a test waits for an answer before it calls the command hung (many times WAIT;
#: not a timing assert: unbounded, the calls here never answer at all)
HUNG = 10.0


class SilentStore(MemoryStore):
    """The in-memory store whose calls named in :attr:`silent` never answer (a silent
    database): one bound by :func:`~storage.api.answer_within` raises
    :class:`StorageTimeout` when its time is up, as the real stores do; an unbound one waits
    for good. :attr:`asked` counts the silent calls made. The calls named in :attr:`slow`
    answer after so many seconds, or raise :class:`StorageTimeout` when their bound ends
    first; as the real stores, no call is tried once its bound is spent."""

    def __init__(self) -> None:
        super().__init__()
        self.silent: set[str] = set()
        self.slow: dict[str, float] = {}
        self.asked: dict[str, int] = {}

    def __getattribute__(self, name: str) -> Any:
        attr = super().__getattribute__(name)
        if name.startswith("_") or not asyncio.iscoroutinefunction(attr):
            return attr
        asked = super().__getattribute__("asked")
        delay = super().__getattribute__("slow").get(name)
        if name not in super().__getattribute__("silent"):

            async def bound(*args: Any, **kwargs: Any) -> Any:
                left = time_left()
                if left == 0:
                    raise StorageTimeout(f"{name}: no time left")
                if delay is not None:
                    asked[name] = asked.get(name, 0) + 1
                    await asyncio.sleep(delay if left is None else min(delay, left))
                    if left is not None and delay > left:
                        raise StorageTimeout(f"{name}: no answer within the bound")
                return await attr(*args, **kwargs)

            return bound

        async def never(*args: Any, **kwargs: Any) -> Any:
            asked[name] = asked.get(name, 0) + 1
            left = time_left()
            if left is None:
                await asyncio.Event().wait()  # (unbound: for good)
            await asyncio.sleep(left or 0.0)
            raise StorageTimeout(f"{name}: no answer within the bound")

        return never


def new_service(store: SilentStore) -> TableService:
    service = TableService(
        store,
        clock=Clock(),
        rng=random.Random(5),
        next_hand_delay=5,
        timers=False,
        storage_wait=WAIT,
    )
    service.register(FakePresenter())
    return service


async def answered(call: Awaitable[Reply]) -> Reply:
    """The reply of ``call``, failing the test if none comes within :data:`HUNG` s."""
    try:
        return await asyncio.wait_for(call, HUNG)
    except TimeoutError:
        pytest.fail(f"no answer within {HUNG} s of a silent database (bound: {WAIT} s)")


SLOW = tr("en", "err.storage_slow")

#: a command a user waits on, and the store call of it that meets the silent database
COMMANDS: list[tuple[str, str, Callable[[TableService], Awaitable[Reply]]]] = [
    ("stats group", "community_stats", lambda s: s.stats(GROUP, ALICE)),
    ("stats of a name", "find_player", lambda s: s.stats(GROUP, ALICE, ["Bob"])),
    ("top", "leaderboard", lambda s: s.top(GROUP, ALICE)),
    ("top by period", "kush_leaderboard", lambda s: s.top(GROUP, ALICE, "week")),
    ("balance", "player", lambda s: s.balance(GROUP, ALICE)),
    ("history", "hand_history", lambda s: s.history(GROUP, ALICE)),
    ("replay", "get_hand", lambda s: s.replay(GROUP, ALICE, "1")),
    ("newtable", "create_table", lambda s: s.new_table(GROUP, ALICE)),
]


@pytest.mark.parametrize(("what", "call", "command"), COMMANDS, ids=[c[0] for c in COMMANDS])
async def test_a_command_meeting_a_silent_database_is_answered_that_it_did_not_answer(
    what: str, call: str, command: Callable[[TableService], Awaitable[Reply]]
) -> None:
    """/stats (the group's figures, the asker's, another player's), /top, /balance,
    /history, /replay and /newtable whose store call never answers: answered "the database
    did not answer in time, try again" once the bound is up (they hung until the OS gave the
    connection up, minutes), nothing changed; the same command goes through once the
    database answers."""
    store = SilentStore()
    service = new_service(store)
    await service.join(GROUP, BOB)  # (the community and a player to look at: no table yet)
    store.silent.add(call)
    reply = await answered(command(service))
    assert store.asked.get(call) == 1, f"{what}: {call} was never asked"
    assert reply.alert and reply.text == SLOW, reply.text
    assert service.table_in(GROUP) is None  # (no table opened by what gave up)
    store.silent.clear()
    reply = await answered(command(service))
    assert reply.text != SLOW


async def test_daily_meeting_a_silent_database_pays_nothing_and_once_later() -> None:
    """/daily whose claim never answers: answered that the database did not answer, no bonus
    booked; once it answers, /daily pays the bonus once (and the next is refused)."""
    store = SilentStore()
    service = new_service(store)
    await service.balance(GROUP, ALICE)  # (her wallet: 1000)
    store.silent.add("claim_daily")
    reply = await answered(service.daily(GROUP, ALICE))
    assert reply.alert and reply.text == SLOW
    community = await store.community("telegram", "-100")
    assert [e for e in await store.ledger(community.id) if e.kind is LedgerKind.DAILY_BONUS] == []
    store.silent.clear()
    reply = await service.daily(GROUP, ALICE)
    assert not reply.alert and "1,100" in reply.text, reply.text
    reply = await service.daily(GROUP, ALICE)
    assert reply.alert
    player = await store.find_player(community.id, ALICE.user_id)
    assert player is not None and player.balance == 1100


async def test_a_settings_change_meeting_a_silent_database_is_answered_and_changes_nothing() -> (
    None
):
    """An admin's ``/settings min_buy_in 300`` whose write never answers: answered that
    the database did not answer; the setting is as it was."""
    store = SilentStore()
    service = new_service(store)
    await service.balance(GROUP, ALICE)
    store.silent.add("change_settings")
    reply = await answered(service.settings(GROUP, ALICE, True, ["min_buy_in", "300"]))
    assert reply.alert and reply.text == SLOW, reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.min_buy_in == 200


async def test_a_background_snapshot_save_meeting_a_silent_database_gives_up(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table's background snapshot save (a card placed before Confirm, a message ref)
    that never answers gives up after the bound, logged, and after its few tries again
    (:data:`~bot.service.runtime.SNAPSHOT_TRIES`): it held its writer, a pool connection
    and the bot's stop (which waits for the savers) for good."""
    monkeypatch.setattr(runtime, "RENEW_RETRY_SECONDS", WAIT / 4)
    store = SilentStore()
    service = new_service(store)
    await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    store.silent.add("save_snapshot")
    with caplog.at_level(logging.WARNING, logger="bot.service.runtime"):
        service.rt.save_soon(t)
        await asyncio.wait_for(service.rt.drain(), HUNG)
    assert store.asked.get("save_snapshot") == runtime.SNAPSHOT_TRIES
    assert "background snapshot not saved" in caplog.text


def test_the_storage_wait_is_the_services_own_and_must_be_above_zero() -> None:
    """``storage_wait`` (``STORAGE_WAIT_SECONDS``) is what the service's presses wait;
    :data:`STORAGE_WAIT` by default; 0 or less is refused."""
    assert new_service(SilentStore()).rt.storage_wait == WAIT
    assert TableService(MemoryStore(), timers=False).rt.storage_wait == STORAGE_WAIT == 1.0
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="above 0"):
            Runtime(MemoryStore(), timers=False, storage_wait=bad)


async def test_a_grant_meeting_a_silent_database_says_it_cannot_tell() -> None:
    """An admin's ``/grant`` whose write never answers (perhaps saved, perhaps not: its
    COMMIT may have gone out) is answered that it cannot tell, to look at the balance before
    granting again, once the bound is up; nothing was granted."""
    store = SilentStore()
    service = new_service(store)
    await service.balance(GROUP, BOB)
    store.silent.add("grant")
    reply = await answered(service.grant(GROUP, ALICE, True, "Bob", "50", "k1"))
    assert reply.alert and reply.text == tr("en", "err.grant_unsure", name="Bob"), reply.text
    community = await store.community("telegram", "-100")
    bob = await store.find_player(community.id, BOB.user_id)
    assert bob is not None and bob.balance == 1000


async def test_the_looks_before_a_command_give_up_on_a_silent_database() -> None:
    """What an adapter asks before it hands a command on (every update of a Telegram basic
    group: where the chat moved, ``moved_chat``; ``/grant @name``'s username) gives up
    after the bound as "not known" (``None``, logged), so the command itself is answered;
    it waited for good, and so did every command and press of the group."""
    store = SilentStore()
    service = new_service(store)
    store.silent.update({"moved_chat", "user_of_username"})
    assert await asyncio.wait_for(service.moved_chat("telegram", "-100"), HUNG) is None
    assert await asyncio.wait_for(service.user_of_username("telegram", "bob"), HUNG) is None
    assert store.asked == {"moved_chat": 1, "user_of_username": 1}


async def test_a_workers_lease_renewal_gives_up_on_a_silent_database() -> None:
    """A worker's heartbeat and lease renewals (issue 14) on a database that does not
    answer give up after half the lease time (:data:`bot.cluster.RENEW_SHARE`), so the
    round is logged and the next one tries: the round hung for good, and with it the news
    of leases lost."""
    from bot.cluster import Worker

    store = SilentStore()
    service = new_service(store)
    worker = Worker(service, "w1", "http://127.0.0.1:1", ttl=1.0)
    store.silent.add("heartbeat")
    with pytest.raises(StorageTimeout):
        await asyncio.wait_for(worker.renew(), HUNG)
    store.silent = {"renew_leases"}
    with pytest.raises(StorageTimeout):
        await asyncio.wait_for(worker.renew(), HUNG)
    assert store.asked == {"heartbeat": 1, "renew_leases": 1}
    store.silent.clear()
    await worker.renew()
    assert "w1" in await store.live_workers()


async def test_r8_2_a_timer_step_adding_top_ups_gives_up_on_a_silent_database() -> None:
    """The timer's step after a hand adds the top-ups asked for during it (R8.2), reading
    the group's settings first: on a database that does not answer that read gives up after
    the bound, the step changes nothing and frees the table (it held the table, and every
    press there, for good); once the database answers the top-up is added and the next hand
    dealt."""
    store = SilentStore()
    service = new_service(store)
    presenter = service.rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    alice = t.seats[0]
    reply = await service.top_up(GROUP, ALICE, "50")
    assert not reply.alert, reply.text
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    after_hand, seq = alice.stack, t.seq
    store.silent.add("get_community")
    await asyncio.wait_for(service.run_due(), HUNG)
    assert store.asked == {"get_community": 1}
    assert (alice.stack, alice.top_up, t.seq, t.hand) == (after_hand, 50, seq, None)
    assert not t.lock.locked()
    store.silent.clear()
    await service.run_due()
    assert (alice.stack, alice.top_up) == (after_hand + 50, 0)
    clock = service.rt.clock
    assert isinstance(clock, Clock)
    clock.now += 6  # (the next deal comes 5 s after the hand)
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    assert await check_store(store) == []


async def test_a_private_start_meeting_a_silent_database_answers_with_what_it_has() -> None:
    """A bare ``/start`` in the private chat (unblocking the bot sends one) looks up the
    tables other workers serve for the player (issue 14): a database that does not answer
    leaves them out after the bound, and the player is answered (it waited for good)."""
    store = SilentStore()
    service = new_service(store)
    store.silent.add("seated_tables")
    reply = await answered(service.private_start(ALICE, ""))
    assert store.asked == {"seated_tables": 1}
    assert reply.text == tr("en", "reply.welcome")


async def test_r8_2_each_table_takes_a_settings_change_in_time_of_its_own() -> None:
    """An admin's ``/settings min_buy_in 300`` whose write took most of the command's time
    (a far database): the group's table still takes the new buy-in at once, its step having
    time of its own for storage (it found the command's spent and kept the change pending
    until its next step)."""
    store = SilentStore()
    service = new_service(store)
    await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.min_buy_in == 200
    store.slow = {"change_settings": WAIT * 0.6, "commit": WAIT * 0.6}
    reply = await answered(service.settings(GROUP, ALICE, True, ["min_buy_in", "300"]))
    assert not reply.alert, reply.text
    assert store.asked == {"change_settings": 1, "commit": 1}
    assert t.min_buy_in == 300
    state = await store.table_state(t.id)
    assert state is not None and state[1]["min_buy_in"] == 300
