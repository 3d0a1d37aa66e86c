"""Failover between workers sharing the tables (issue 14), attacked: the clocks of a table a
worker adopts from one that died resume as after a single process's restart (R8.5)."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

from bot.cluster import Worker
from bot.model import Actor, ChatRef, LiveTable
from bot.service import TableService
from bot.texts import tr
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.discord.shard_world import guild_on_shard
from tests.bot.fakes import FakePresenter
from tests.bot.test_cluster_closing import View
from tests.bot.test_cluster_shards import Runner
from tests.bot.test_service import ALICE, BOB, GROUP, dealt_at, press_auto_and_confirm, seated

KEY = lease_key("telegram", GROUP.chat_id)
GUILD = str(guild_on_shard(1))
CHANNEL = ChatRef("discord", GUILD, "11", "Poker")
ANN, BEN = Actor("discord", "1", "Ann", "en"), Actor("discord", "2", "Ben", "en")


def _worker(store: MemoryStore, clock: Clock, name: str) -> tuple[Worker, TableService]:
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    return Worker(service, name, f"http://127.0.0.1:1/{name}", ttl=5.0), service


def _discord_worker(
    db: MemoryStore, clock: Clock, name: str, shards: list[int]
) -> tuple[Worker, TableService]:
    """A worker running Discord shards (of two) on its view of the shared database."""
    service = TableService(
        View(db),  # type: ignore[arg-type]
        clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False,
    )  # fmt: skip
    service.register(FakePresenter(platform="discord", link=None))
    worker = Worker(
        service, name, f"http://127.0.0.1:1/{name}", ttl=5.0,
        discord_shards=(shards, 2), discord=Runner(),
    )  # fmt: skip
    return worker, service


async def test_r8_5_a_table_adopted_from_a_dead_worker_keeps_the_time_its_player_thought() -> None:
    """Worker 1 deals; the player to act thinks for 50 s (nothing is saved meanwhile: the
    deal's snapshot is the last), worker 1 renews the chat's lease, then dies. Ten minutes
    later worker 2 takes the orphaned table over: the 50 s before the death were the
    player's, the outage is not (as after a single process's crash and restart, which
    stops the clocks at the last "alive" mark). The turn restarted with the whole 120 s
    (the outage was measured from the deal's snapshot), and the idle close (R8.2a) counted
    from 50 s later a deal than the real one plus the outage."""
    store = MemoryStore()
    clock = Clock()
    store.clock = clock
    w1, s1 = _worker(store, clock, "w1")
    assert await w1.claim(KEY)
    t = await seated(s1, ALICE, BOB)
    assert t is not None and t.hand is not None and t.last_deal_at is not None
    acting = t.hand.to_act[0]
    dealt = t.last_deal_at
    await s1.rt.drain()  # the deal's snapshot is written; nothing is saved after it
    for _ in range(40):  # 50 s: the lease renewed every ttl / 4 while w1 runs
        clock.now += 1.25
        await w1.renew()
    assert await store.lease_owner(KEY) == "w1"  # ... then it dies: nothing given up
    clock.now += 600
    w2, s2 = _worker(store, clock, "w2")
    await w2.tick()  # the sweep takes the orphaned table over
    assert await store.lease_owner(KEY) == "w2"
    t2 = s2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None and t2.hand.to_act == (acting,)
    assert t2.clocks[acting].left(clock.now) == (70.0, 60.0)  # 120 − 50; bank untouched
    assert t2.last_deal_at == dealt + 600  # the outage does not count towards idling


async def _stalled_worker() -> tuple[MemoryStore, Clock, Worker, TableService, LiveTable]:
    """Worker 1 serves a table of Alice and Bob with a hand dealt (its snapshot written),
    then stalls past its lease (6 s). Returns the store, the clock, the worker, its service
    and its table."""
    store = MemoryStore()
    clock = Clock()
    store.clock = clock
    w1, s1 = _worker(store, clock, "w1")
    assert await w1.claim(KEY)
    t1 = await seated(s1, ALICE, BOB)
    assert t1 is not None and t1.hand is not None
    await s1.rt.drain()
    clock.now += 6.0  # w1 stalls: its lease runs out
    return store, clock, w1, s1, t1


async def test_r14_a_worker_taking_a_chat_back_drops_its_stale_table_and_restores_it() -> None:
    """Worker 1 stalls past its lease; worker 2 takes the table over and plays a street of
    the hand; then worker 2 dies. Worker 1 wakes, and a chat update (or its sweep) reaches
    it before its lease round noticed the loss: it takes the free lease again. Its table in
    memory is from before worker 2's street: it went on serving that one (the fenced store
    let it write, the lease being its own again), the street worker 2 committed was undone
    and the player had to play it again. Now it restores the table from the store."""
    store, clock, w1, s1, t1 = await _stalled_worker()
    w2, s2 = _worker(store, clock, "w2")
    await w2.tick()  # w2 takes the table over ...
    t2 = s2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None
    p2 = s2.rt.presenters["telegram"]
    assert isinstance(p2, FakePresenter)
    first = t2.hand.to_act[0]
    actor = ALICE if t2.seats[first].user_id == ALICE.user_id else BOB
    await press_auto_and_confirm(s2, p2, actor)  # ... and a street is played there
    assert first not in t2.hand.to_act
    await s2.rt.drain()
    committed = (await store.table_state(t1.id) or (None, {}))[1]
    clock.now += 6.0  # w2 dies: its lease runs out too
    store.fence("w1")  # w1 wakes; an update of the chat comes before its lease round
    assert await w1.claim(KEY)
    t = s1.table_in(GROUP)
    assert t is not None and t is not t1  # restored from the store, not the stale one
    assert t.hand is not None and t.hand.to_json() == t2.hand.to_json()
    assert first not in t.hand.to_act  # the street worker 2 committed stays played
    assert t.seq == committed["seq"] + 1  # (resuming is a transition)


async def test_r8_5_a_discord_shard_handed_back_keeps_the_time_its_player_thought() -> None:
    """Worker 0 runs shard 1 while the worker preferring it is away, and deals a hand in a
    channel of a guild on it; the player to act thinks for 50 s. Worker 1, which prefers
    shard 1, comes back: worker 0 hands the shard back with its tables (nothing written,
    their chats' leases given up) and worker 1 takes them over at once. The player to act
    got their whole 120 s back (the time was measured from the deal's snapshot), and the idle
    close (R8.2a) counted from 50 s later a deal: a hand-back restarted the turn."""
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    w0, s0 = _discord_worker(db, clock, "w0", [0])
    w0._started -= 10.0  # it has run for a lease time: it may take a shard it does not prefer
    await w0.tick()  # shard 0
    await w0.tick()  # shard 1, nobody preferring it being there
    assert w0.shards == {0, 1}
    assert await w0.claim_interaction(SimpleNamespace(data={}, guild_id=int(GUILD), channel_id=11))
    t = await dealt_at(s0, CHANNEL, (ANN, BEN))
    assert t.last_deal_at is not None
    acting, dealt = t.hand.to_act[0], t.last_deal_at  # type: ignore[union-attr]
    await s0.rt.drain()  # the deal's snapshot is the last one written
    for _ in range(40):  # 50 s, the leases renewed every ttl / 4
        clock.now += 1.25
        await w0.renew()
    w1, s1 = _discord_worker(db, clock, "w1", [1])
    try:
        await w1.tick()  # says it prefers shard 1
        await w0.tick()  # hands shard 1 back, with the table
        assert w0.shards == {0} and s0.table_in(CHANNEL) is None
        await w1.tick()  # takes shard 1 ...
        await w1.tick()  # ... and its table
        t1 = s1.table_in(CHANNEL)
        assert t1 is not None and t1.hand is not None and t1.hand.to_act == (acting,)
        assert t1.clocks[acting].left(clock.now) == (70.0, 60.0)  # 120 − 50; bank untouched
        assert t1.last_deal_at == dealt
    finally:
        await w1.stop()
        await w0.stop()


async def _worker_running_both_shards() -> tuple[MemoryStore, Clock, Worker, TableService]:
    """Worker 0 prefers shard 0 but, alone (no worker prefers shard 1), runs both after two
    lease rounds. Returns the store, the clock, the worker and its service."""
    db, clock = MemoryStore(), Clock()
    db.clock = clock
    w0, s0 = _discord_worker(db, clock, "w0", [0])
    w0._started -= 10.0
    await w0.tick()
    await w0.tick()
    assert w0.shards == {0, 1}
    return db, clock, w0, s0


async def test_r8_5_a_stalled_worker_waking_keeps_the_mark_of_its_lost_tables() -> None:
    """Worker 0 serves a table of a guild on shard 1 (nobody prefers it); the player to act
    thinks for 50 s, then worker 0 stalls for a minute and its leases run out. Waking, it
    finds the shard lost and lets the shard's tables go, giving up their chats' leases: that
    deleted the leases that had run out too, and with them their last renewal, so worker 1,
    taking the table over, measured the outage from the deal's snapshot: the player got
    their whole 120 s back."""
    db, clock, w0, s0 = await _worker_running_both_shards()
    assert await w0.claim_interaction(SimpleNamespace(data={}, guild_id=int(GUILD), channel_id=11))
    t = await dealt_at(s0, CHANNEL, (ANN, BEN))
    acting = t.hand.to_act[0]  # type: ignore[union-attr]
    await s0.rt.drain()
    for _ in range(40):  # 50 s, the leases renewed every ttl / 4
        clock.now += 1.25
        await w0.renew()
    clock.now += 60  # the stall: nothing renewed
    await w0.renew()  # waking: every lease lost, the shards' tables let go
    assert w0.shards == set() and s0.table_in(CHANNEL) is None
    w1, s1 = _discord_worker(db, clock, "w1", [1])
    try:
        w1._started -= 10.0
        await w1.tick()  # takes shard 1 ...
        await w1.tick()  # ... and its table
        t1 = s1.table_in(CHANNEL)
        assert t1 is not None and t1.hand is not None and t1.hand.to_act == (acting,)
        assert t1.clocks[acting].left(clock.now) == (70.0, 60.0)  # 120 − 50; bank untouched
    finally:
        await w1.stop()
        await w0.stop()


async def test_r14_an_interaction_late_from_a_shard_handed_back_does_not_take_its_chat() -> None:
    """Worker 0 hands shard 1 back to worker 1, which prefers it; an interaction of a
    channel of shard 1 that worker 0's gateway had dispatched just before (its handler runs
    after) claimed the channel again: worker 0 took the table back, kept its lease renewed
    for good, and worker 1, which gets every interaction of the guild now, could never take
    it (each of its claims refused). Now a guild interaction claims only on a shard this
    worker runs."""
    db, clock, w0, s0 = await _worker_running_both_shards()
    late = SimpleNamespace(data={}, guild_id=int(GUILD), channel_id=11)
    assert await w0.claim_interaction(late)
    t = await dealt_at(s0, CHANNEL, (ANN, BEN))
    await s0.rt.drain()
    w1, s1 = _discord_worker(db, clock, "w1", [1])
    try:
        await w1.tick()  # says it prefers shard 1
        await w0.tick()  # hands shard 1 back, with the table
        assert w0.shards == {0} and s0.table_in(CHANNEL) is None
        assert not await w0.claim_interaction(late)  # the late one: not w0's chat any more
        assert s0.table_in(CHANNEL) is None
        await w1.tick()  # takes shard 1 ...
        await w1.tick()  # ... and its table
        t1 = s1.table_in(CHANNEL)
        assert t1 is not None and t1.id == t.id
        assert await db.lease_owner(lease_key("discord", "11")) == "w1"
        assert await w1.claim_interaction(late)  # the guild's interactions are w1's now
    finally:
        await w1.stop()
        await w0.stop()


async def test_r14_a_press_waiting_for_a_stale_table_is_not_played_on_it() -> None:
    """As above, worker 1 takes the chat back and restores the table anew (another worker
    served it meanwhile); a press that had been waiting for the stale table (its lock held
    by a step under way) got it after the restore and was played on it: the table it waited
    for was let go, but one of the same number was served again, so the press was taken,
    answered and shown from a table nobody serves. Now it is answered "out of date"."""
    store, clock, w1, s1, t1 = await _stalled_worker()
    w2, _s2 = _worker(store, clock, "w2")
    await w2.tick()  # w2 serves the table meanwhile, then dies
    clock.now += 6.0
    store.fence("w1")
    first = t1.hand.to_act[0]
    actor = ALICE if t1.seats[first].user_id == ALICE.user_id else BOB
    p1 = s1.rt.presenters["telegram"]
    assert isinstance(p1, FakePresenter)
    arrange = next(
        b.data
        for b in p1.last_private(actor.user_id).all_buttons()
        if b.data and b.data.split(":")[2] == "a"
    )
    await t1.lock.acquire()  # a step of the stale table under way
    claiming = asyncio.create_task(w1.claim(KEY))
    pressing = asyncio.create_task(s1.press(actor, arrange))
    for _ in range(5):
        await asyncio.sleep(0)
    t1.lock.release()
    assert await claiming
    reply = await pressing
    t = s1.table_in(GROUP)
    assert t is not None and t is not t1
    assert reply.alert and reply.text == tr(actor.language, "err.stale")
