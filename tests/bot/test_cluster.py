"""Workers sharing the tables, in one process (issue 14): a worker that lost a table's lease
(a zombie) cannot change it — its press or timer is refused by the fenced store and the table
is dropped from its memory, nothing written; the worker that took the chat over restores the
table from the last committed transition and plays on; updates are routed by chat; rendezvous
hashing is stable."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot import cluster
from bot.cluster import Router, Worker, rendezvous, route_key
from bot.service import TableService
from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.cluster.harness import free_port
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated
from tests.waiting import until

KEY = lease_key("telegram", GROUP.chat_id)


def _service(store: MemoryStore, clock: Clock) -> tuple[TableService, FakePresenter]:
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter


async def test_a_zombie_worker_cannot_settle_a_hand_the_new_owner_plays_on() -> None:
    store = MemoryStore()  # one database; two workers' stores share it (fence per worker)
    clock = Clock()
    store.clock = clock
    w1, p1 = _service(store, clock)
    store.fence("w1")
    assert await store.acquire_lease(KEY, "w1", 5.0)
    t1 = await seated(w1, ALICE, BOB)
    assert t1 is not None and t1.hand is not None
    await press_auto_and_confirm(w1, p1, ALICE)  # a committed step of the hand
    committed = (await store.table_state(t1.id) or (None, {}))[1]
    # w1 stalls past its lease; w2 takes the chat and restores the table
    clock.now += 6.0
    w2, p2 = _service(store, clock)
    assert await store.acquire_lease(KEY, "w2", 5.0)
    store.fence("w2")
    assert await w2.adopt(t1.id)
    t2 = w2.table_in(GROUP)
    assert t2 is not None and t2.seq == committed["seq"] + 1  # resuming is a transition
    assert t2.hand is not None and t2.hand.to_json() == t1.hand.to_json()
    committed = (await store.table_state(t1.id) or (None, {}))[1]
    # the zombie wakes and plays Bob's street: placements are only kept in its memory (their
    # background snapshot is refused), the Confirm is refused and its table dropped
    store.fence("w1")
    for action in ("a", "c"):
        screen = p1.last_private(BOB.user_id)
        data = next(
            b.data for b in screen.all_buttons() if b.data and b.data.split(":")[2] == action
        )
        reply = await w1.press(BOB, data)
    assert reply.alert
    assert w1.table_in(GROUP) is None  # no longer served by the zombie
    assert (await store.table_state(t1.id) or (None, {}))[1]["seq"] == committed["seq"]
    # the new owner plays the hand to its end: one settlement
    store.fence("w2")
    hand_no = t2.hand_no
    while t2.hand is not None and t2.hand_no == hand_no:
        seat = t2.hand.to_act[0]
        actor = ALICE if t2.seats[seat].user_id == ALICE.user_id else BOB
        await press_auto_and_confirm(w2, p2, actor)
    assert [h["number"] for h in await store.export_hands(t1.id)] == [1]


async def test_a_zombie_timer_does_not_fire_twice() -> None:
    store = MemoryStore()
    clock = Clock()
    store.clock = clock
    w1, _ = _service(store, clock)
    store.fence("w1")
    assert await store.acquire_lease(KEY, "w1", 5.0)
    t = await seated(w1, ALICE, BOB)
    assert t is not None and t.hand is not None
    seq = t.seq
    clock.now += 10_000.0  # every clock ran out, and the lease long ago
    assert await store.acquire_lease(KEY, "w2", 5.0)
    await w1.run_due()  # the zombie's timer: refused by the fence
    assert w1.table_in(GROUP) is None
    assert (await store.table_state(t.id) or (None, {}))[1]["seq"] == seq
    assert await store.export_hands(t.id) == []


async def test_route_key_reads_the_chat_of_every_update() -> None:
    store = MemoryStore()
    community = await store.community("telegram", "-100", "G")
    alice = await store.player(community.id, "1", "Alice")
    table = await store.create_table(community.id, "-100", {"game": "pineapple"}, 200)
    group = {"id": -100, "type": "supergroup"}
    private = {"id": 1, "type": "private"}
    user = {"id": 1, "is_bot": False, "first_name": "A"}
    msg = {"message_id": 1, "date": 0, "from": user}
    assert await route_key(store, {"message": {**msg, "chat": group}}) == "telegram:-100"
    assert await route_key(store, {"my_chat_member": {"chat": group}}) == "telegram:-100"
    # a hand press in the private chat goes to the table's chat
    press = {"id": "q", "from": user, "data": f"{table.id}:1.0.0:c"}
    assert (
        await route_key(store, {"callback_query": {**press, "message": {**msg, "chat": private}}})
        == "telegram:-100"
    )
    start = {**msg, "chat": private, "text": f"/start t{table.id}"}
    assert await route_key(store, {"message": start}) == "telegram:-100"
    # a private message of a seated player goes to the table; of anyone else, the chat itself
    plain = {"message": {**msg, "chat": private, "text": "/balance"}}
    assert await route_key(store, plain) == "telegram:1"
    await store.commit(table.id, [], None, key="x")
    from storage.api import BuyIn

    await store.commit(table.id, [BuyIn(alice.id, 200)], None, key="b")
    assert await route_key(store, plain) == "telegram:-100"
    assert await route_key(store, {"update_id": 5}) is None


def test_rendezvous_is_stable_and_moves_only_the_dead_worker_s_keys() -> None:
    three = {"w1": "a", "w2": "b", "w3": "c"}
    keys = [f"telegram:-{i}" for i in range(300)]
    chosen = {k: rendezvous(k, three) for k in keys}
    assert set(chosen.values()) == set(three)  # every worker gets a share
    assert all(60 < list(chosen.values()).count(w) < 140 for w in three)
    two = {"w1": "a", "w3": "c"}
    for k in keys:
        if chosen[k] != "w2":
            assert rendezvous(k, two) == chosen[k]  # only w2's keys move
        else:
            assert rendezvous(k, two) in two
    assert rendezvous("x", {}) is None


async def test_a_worker_releases_lost_tables_and_sweeps_orphans() -> None:
    store = MemoryStore()
    clock = Clock()
    store.clock = clock
    service, _ = _service(store, clock)
    worker = Worker(service, "w1", "http://127.0.0.1:1", ttl=5.0)
    await worker.start()  # no endpoint
    try:
        await service.new_table(GROUP, ALICE)  # needs the chat's lease (fenced store)
        assert service.table_in(GROUP) is None  # refused: the chat was not claimed
        assert await worker.claim(KEY)
        await service.new_table(GROUP, ALICE)
        t = service.table_in(GROUP)
        assert t is not None
        clock.now += 6.0  # the lease ran out; another worker took the chat
        assert await store.acquire_lease(KEY, "w2", 5.0)
        await worker.tick()
        assert service.table_in(GROUP) is None  # dropped
        clock.now += 6.0  # w2 died: its lease expires, w1 is the only live worker
        await worker.tick()  # the sweep takes the orphan over
        assert await store.lease_owner(KEY) == "w1"
        assert service.table_in(GROUP) is not None
    finally:
        await worker.stop()
    assert await store.lease_owner(KEY) is None  # given up on stop


class _Endpoint:
    """A stand-in for a worker's internal endpoint: records the bodies it gets and answers
    with ``status`` (409 names ``owner``)."""

    def __init__(self, status: int = 200, owner: str = "") -> None:
        self.status, self.owner = status, owner
        self.bodies: list[bytes] = []
        #: when set, an update is answered only once the gate opens (a worker still busy)
        self.gate: asyncio.Event | None = None
        self.port = free_port()
        self.address = f"http://127.0.0.1:{self.port}"
        self._runner: web.AppRunner | None = None

    async def _post(self, request: web.Request) -> web.Response:
        self.bodies.append(await request.read())
        if self.gate is not None:
            await self.gate.wait()
        return web.json_response({"owner": self.owner}, status=self.status)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/telegram", self._post)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


@contextlib.asynccontextmanager
async def _router(
    store: MemoryStore, retry_seconds: float = 5.0
) -> AsyncIterator[tuple[Router, str, FakeTelegram]]:
    fake = FakeTelegram(ROUTER_TOKEN)
    await fake.start()
    router = Router(store, ROUTER_TOKEN, fake.base_url, retry_seconds=retry_seconds)
    port = free_port()
    url = f"http://127.0.0.1:{port}/hook"
    await router.start(url, "s3cret", "127.0.0.1", port)
    try:
        yield router, url, fake
    finally:
        await router.stop()
        await fake.stop()


ROUTER_TOKEN = "123456:" + "R" * 35
UPDATE = (
    b'{"update_id": 7, "message": {"message_id": 1, "date": 0, "text": "/newtable",'
    b' "chat": {"id": -100, "type": "group", "title": "g"}, "not_in_ptb": [1, 2]}}'
)
SECRET_OK = {"X-Telegram-Bot-Api-Secret-Token": "s3cret", "Content-Type": "application/json"}


async def _until(check: Callable[[], bool]) -> None:
    await until(check)


async def test_the_router_refuses_without_the_secret_and_forwards_the_update_as_sent() -> None:
    """The router's webhook (issue 14) is registered with its secret token; a request
    without it or with another one is refused (403), one with it not sent as JSON is a 415
    (fix39k: it was a 403, as if the secret were wrong), a body that is not a JSON
    object is a 400, and nothing of them is forwarded; an update is forwarded byte for byte
    (fields python-telegram-bot does not know included) to the worker serving its chat."""
    store = MemoryStore()
    worker = _Endpoint()
    await worker.start()
    await store.heartbeat("w1", worker.address, 60.0)
    try:
        async with _router(store) as (router, url, fake), aiohttp.ClientSession() as http:
            assert fake.webhook == (url, "s3cret")
            refused = [
                ({"Content-Type": "application/json"}, UPDATE, 403),
                ({**SECRET_OK, "X-Telegram-Bot-Api-Secret-Token": "wrong"}, UPDATE, 403),
                ({**SECRET_OK, "Content-Type": "text/plain"}, UPDATE, 415),
                ({"X-Telegram-Bot-Api-Secret-Token": "wrong"}, UPDATE, 403),
                (SECRET_OK, b"[1, 2]", 400),
                (SECRET_OK, b"{not json", 400),
            ]
            for headers, body, status in refused:
                async with http.post(url, data=body, headers=headers) as resp:
                    assert resp.status == status, (headers, body)
            async with http.post(url, data=UPDATE, headers=SECRET_OK) as resp:
                assert resp.status == 200
            await _until(lambda: bool(worker.bodies))
            assert worker.bodies == [UPDATE]
            assert list(router.forwards)[-1][1:] == ("telegram:-100", worker.address, 200)
    finally:
        await worker.stop()


async def test_the_router_follows_a_409_to_the_holder_and_sends_the_chat_there_next() -> None:
    """A worker that does not hold the chat answers 409 with the holder's address: the
    update goes there, and so does the chat's next update, without asking the store again
    (issue 14: no database read per press)."""
    store = MemoryStore()
    holder = _Endpoint()
    stale = _Endpoint(409, holder.address)
    for w in (holder, stale):
        await w.start()
    await store.heartbeat("stale", stale.address, 60.0)
    await store.heartbeat("holder", holder.address, 60.0)
    assert await store.acquire_lease("telegram:-100", "stale", 60.0)  # as the store says
    asked: list[str] = []
    owner_of = store.lease_owner

    async def lease_owner(key: str) -> str | None:
        asked.append(key)
        return await owner_of(key)

    store.lease_owner = lease_owner  # type: ignore[method-assign]
    try:
        async with _router(store) as (router, url, _), aiohttp.ClientSession() as http:
            for n in (1, 2):
                async with http.post(url, data=UPDATE, headers=SECRET_OK) as resp:
                    assert resp.status == 200
                await _until(lambda n=n: len(holder.bodies) == n)  # type: ignore[misc]
            assert stale.bodies == [UPDATE] and holder.bodies == [UPDATE, UPDATE]
            assert asked == ["telegram:-100"]
            assert [f[2:] for f in router.forwards] == [
                (stale.address, 409),
                (holder.address, 200),
                (holder.address, 200),
            ]
    finally:
        for w in (holder, stale):
            await w.stop()


async def test_the_router_answers_telegram_only_once_a_worker_took_the_update() -> None:
    """Telegram redelivers an update until it gets a 2xx: the router answers 200 only after
    the chat's worker took the update (issue 14: an update held by a router that dies is
    delivered again, not lost), or after ``ACK_SECONDS`` while it keeps trying (a takeover
    must not hold Telegram's connections), and 503 when no worker could take it."""
    store = MemoryStore()
    worker = _Endpoint()
    worker.gate = asyncio.Event()
    await worker.start()
    await store.heartbeat("w1", worker.address, 60.0)
    try:
        async with _router(store) as (router, url, _fake), aiohttp.ClientSession() as http:

            async def send() -> int:
                async with http.post(url, data=UPDATE, headers=SECRET_OK) as resp:
                    return resp.status

            answer = asyncio.create_task(send())
            await _until(lambda: bool(worker.bodies))  # the worker has it, still busy
            await asyncio.sleep(0.05)
            assert not answer.done()
            worker.gate.set()
            assert await answer == 200
            # a worker that does not answer within ACK_SECONDS (being replaced): 200 after
            # that time, Telegram's connection freed; the router goes on with the update
            worker.gate = asyncio.Event()
            router.ACK_SECONDS = 0.2
            assert await send() == 200
            assert len(worker.bodies) == 2 and router._order  # still forwarding it
            worker.gate.set()
            await _until(lambda: not router._order)
    finally:
        await worker.stop()
    store = MemoryStore()  # no live worker at all
    async with (
        _router(store, retry_seconds=0.5) as (_, url, _fake),
        aiohttp.ClientSession() as http,
        http.post(url, data=UPDATE, headers=SECRET_OK) as resp,
    ):
        assert resp.status == 503


PRESS = (
    b'{"update_id": 8, "callback_query": {"id": "q77", "chat_instance": "c", "data": "x",'
    b' "from": {"id": 5, "is_bot": false, "first_name": "A", "language_code": "ru"},'
    b' "message": {"message_id": 3, "date": 0, "chat": {"id": -100, "type": "group"}}}}'
)


async def test_a_press_no_worker_takes_within_a_second_is_answered_by_the_router() -> None:
    """A press whose chat's worker died (a takeover under way) left its button spinning
    until a worker took the chat, seconds later. The router answers it itself after
    ``PRESS_ANSWER_SECONDS`` ("one moment", in the presser's language) and goes on
    forwarding it; a press a worker takes in time is left for the worker to answer."""
    store = MemoryStore()
    worker = _Endpoint()
    await worker.start()
    await store.heartbeat("w1", worker.address, 60.0)
    try:
        async with _router(store) as (router, url, fake), aiohttp.ClientSession() as http:
            router.PRESS_ANSWER_SECONDS = 0.2

            async def send() -> int:
                async with http.post(url, data=PRESS, headers=SECRET_OK) as resp:
                    return resp.status

            assert await send() == 200  # taken at once: the worker answers it
            assert fake.calls_of("answerCallbackQuery") == []
            worker.gate = asyncio.Event()  # the worker stops taking updates
            assert await send() == 200
            await _until(lambda: bool(fake.calls_of("answerCallbackQuery")))
            (answer,) = fake.calls_of("answerCallbackQuery")
            assert answer.params["callback_query_id"] == "q77"
            assert answer.params["text"] == tr("ru", "press.busy")
            assert len(worker.bodies) == 2 and router._order  # still forwarding it
            worker.gate.set()
            await _until(lambda: not router._order)
            assert len(fake.calls_of("answerCallbackQuery")) == 1
    finally:
        await worker.stop()


async def test_route_key_of_a_start_with_an_odd_table_number_is_the_private_chat() -> None:
    """A private ``/start t²`` (a digit to ``str.isdigit`` that ``int`` refuses) or with a
    number beyond the database's integers: the router routes it to the private chat itself
    (it raised, and Telegram was told to deliver the update again)."""
    store = MemoryStore()
    private = {"id": 7, "type": "private"}
    user = {"id": 7, "is_bot": False, "first_name": "A"}
    for arg in ("t²", "t" + "9" * 40, "t٣"):
        start = {"message_id": 1, "date": 0, "from": user, "chat": private, "text": f"/start {arg}"}
        assert await route_key(store, {"message": start}) == "telegram:7"


async def test_a_group_upgrade_is_routed_to_the_worker_serving_its_table() -> None:
    """A group upgraded to a supergroup: Telegram writes ``migrate_to_chat_id`` in the old
    chat and ``migrate_from_chat_id`` in the new one. The second was routed by its chat (the
    new id, which nobody held): the worker rendezvous hashing picked took it, moved the
    chat in the store, and with it the lease of the worker serving the table, whose own
    table kept the old id: its renewal failed and the table was dropped until a takeover.
    Both messages now go to the old chat's worker, which moves its table along."""
    store = MemoryStore()
    clock = Clock()
    store.clock = clock
    service, _ = _service(store, clock)
    worker = Worker(service, "w1", "http://127.0.0.1:1", ttl=5.0)
    await worker.start()
    try:
        assert await worker.claim(KEY)
        await service.new_table(GROUP, ALICE)
        t = service.table_in(GROUP)
        assert t is not None
        user = {"id": 1, "is_bot": False, "first_name": "A"}
        new = {"id": -100777, "type": "supergroup", "title": "Friends"}
        old = {"id": -100, "type": "group", "title": "Friends"}
        base = {"message_id": 1, "date": 0, "from": user}
        came = {"message": {**base, "chat": new, "migrate_from_chat_id": -100}}
        went = {"message": {**base, "chat": old, "migrate_to_chat_id": -100777}}
        assert await route_key(store, came) == KEY
        assert await route_key(store, went) == KEY
        # the worker holding the old chat follows it: its table and lease move together
        assert await service.migrate_chat("telegram", "-100", "-100777")
        await worker.tick()
        assert t.chat_id == "-100777" and t.id in service.tables
        assert await store.lease_owner(lease_key("telegram", "-100777")) == "w1"
    finally:
        await worker.stop()


class HeldForwards:
    """A router's forwards held until the test lets each go: update ``n`` waits for
    ``gates[n]``. Records what started (update, key), what runs now and every overlap (the
    updates running when another started)."""

    def __init__(self) -> None:
        self.gates = {n: asyncio.Event() for n in (1, 2, 3)}
        self.started: list[tuple[int, str]] = []
        self.running: list[int] = []
        self.overlaps: list[tuple[int, ...]] = []

    async def __call__(self, key: str, data: Any, body: bytes | None = None) -> bool:
        n = int(data["update_id"])
        self.started.append((n, key))
        if self.running:
            self.overlaps.append((*self.running, n))
        self.running.append(n)
        await self.gates[n].wait()
        self.running.remove(n)
        return True


def gated_router() -> tuple[Router, HeldForwards]:
    """A router on an empty store whose forwards are :class:`HeldForwards`."""
    router = Router(MemoryStore(), ROUTER_TOKEN, "http://127.0.0.1:1/bot")
    held = HeldForwards()
    router.forward = held  # type: ignore[method-assign]
    return router, held


async def test_one_chat_s_updates_are_forwarded_one_at_a_time_in_order() -> None:
    """The router forwards one chat's updates one after the other. Its per-chat lock was
    dropped when it looked free: an update routed while the one before was finishing got the
    lock about to be dropped, the next one a new lock, and the two were forwarded at once
    (a press could reach the worker before the press before it)."""
    router, held = gated_router()
    gates, running, overlaps = held.gates, held.running, held.overlaps
    consumer = asyncio.create_task(router._consume())

    def update(n: int) -> tuple[dict[str, Any], bytes, asyncio.Future[bool]]:
        data = {"update_id": n, "message": {"message_id": n, "date": 0, "chat": {"id": -100}}}
        return data, b"", asyncio.get_running_loop().create_future()

    try:
        router._queue.put_nowait(update(1))
        await _until(lambda: running == [1])
        router._queue.put_nowait(update(2))  # routed while update 1 finishes
        gates[1].set()
        await _until(lambda: running == [2])
        router._queue.put_nowait(update(3))
        for _ in range(5):
            await asyncio.sleep(0)
        assert running == [2] and overlaps == []  # 3 waits for 2
        gates[2].set()
        await _until(lambda: running == [3])
        gates[3].set()
        await _until(lambda: not running and not router._order)
        assert overlaps == []
    finally:
        consumer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await consumer


async def test_a_new_supergroup_s_updates_wait_for_the_upgrade_to_reach_the_table() -> None:
    """A group upgraded to a supergroup: the upgrade message goes to the old chat's worker,
    which moves the table (and its lease) to the new chat. A player's command typed in the
    new chat right after was forwarded at the same time, to whichever worker rendezvous
    hashing gave the new chat (nobody held it yet): that worker took the new chat, found no
    table and answered so, and kept the chat for a while after the move took its lease.
    The new chat's updates now go once the upgrade is through."""
    router, held = gated_router()
    gates, running, started = held.gates, held.running, held.started
    consumer = asyncio.create_task(router._consume())
    new = {"id": -100777, "type": "supergroup"}

    def update(n: int, **fields: Any) -> tuple[dict[str, Any], bytes, asyncio.Future[bool]]:
        msg = {"message_id": n, "date": 0, "chat": new, **fields}
        return {"update_id": n, "message": msg}, b"", asyncio.get_running_loop().create_future()

    try:
        router._queue.put_nowait(update(1, migrate_from_chat_id=-100))
        router._queue.put_nowait(update(2, text="/join"))
        await _until(lambda: running == [1])
        for _ in range(5):
            await asyncio.sleep(0)
        assert started == [(1, KEY)]  # the /join waits for the upgrade
        gates[1].set()
        await _until(lambda: running == [2])
        assert started[1] == (2, "telegram:-100777")
        gates[2].set()
        router._queue.put_nowait(update(3, text="/ready"))
        gates[3].set()
        await _until(lambda: not router._order and len(started) == 3)
        assert not router._after
    finally:
        consumer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await consumer


async def test_a_stopping_worker_keeps_its_leases_until_its_tables_are_saved() -> None:
    """Worker.stop saves every table and sends what is under way (slow on a platform that
    makes it wait) before it gives the leases up; it renews them meanwhile, so no other
    worker takes a chat whose table this one is still saving (its saves would be refused
    by the fence, its last messages sent twice)."""
    store = MemoryStore()  # real time: the lease runs out unless renewed
    service, _ = _service(store, Clock())
    ttl = 0.4
    worker = Worker(service, "w1", "http://127.0.0.1:1", ttl=ttl)
    await worker.start()
    assert await worker.claim(KEY)
    await service.new_table(GROUP, ALICE)
    assert service.table_in(GROUP) is not None
    taken: list[bool] = []
    real_stop = service.stop

    async def slow_stop() -> None:  # the last sends wait on the platform for 3 lease times
        await asyncio.sleep(3 * ttl)
        taken.append(await store.acquire_lease(KEY, "w2", ttl))
        await real_stop()

    service.stop = slow_stop  # type: ignore[method-assign]
    await worker.stop()
    assert taken == [False]  # still w1's while it was saving
    assert await store.lease_owner(KEY) is None  # given up once saved


async def test_the_sweep_prunes_the_leases_that_ran_out_long_ago_every_few_minutes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """perf43: a crashed worker run's ``worker-run:<w>:<token>`` lease and the lease of a
    chat whose table is gone stayed in the leases table for good, every orphan sweep
    reading them all. Now the sweep deletes those that ran out more than an hour ago
    (:data:`~bot.cluster.LEASES_KEPT_SECONDS`; 100 lease times if more), in one
    statement, at most every :data:`~bot.cluster.PRUNE_LEASES_SECONDS`: its first sweep,
    then one due again; the worker's own live leases stay."""
    store = MemoryStore()
    clock = Clock()
    store.clock = clock
    service, _ = _service(store, clock)
    dead_run, gone_chat = "worker-run:w0:dead", lease_key("telegram", "gone")
    assert await store.acquire_lease(dead_run, "w0", 5.0)  # a run that crashed
    assert await store.acquire_lease(gone_chat, "w0", 5.0)
    clock.now += 60.0  # (both ran out)
    kept: list[float] = []
    prune = store.prune_leases

    async def counting(seconds: float) -> int:
        kept.append(seconds)
        return await prune(seconds)

    monkeypatch.setattr(store, "prune_leases", counting)
    worker = Worker(service, "w1", "http://127.0.0.1:1", ttl=5.0)
    await worker.start()  # (its first sweep prunes: nothing that old)
    try:
        assert kept == [cluster.LEASES_KEPT_SECONDS] == [3600.0]
        assert set(await store.lapsed_leases("")) == {dead_run, gone_chat}
        clock.now += 3600.0
        await worker.tick()  # (not due again yet)
        assert kept == [3600.0]
        assert set(await store.lapsed_leases("")) == {dead_run, gone_chat}
        monkeypatch.setattr(cluster, "PRUNE_LEASES_SECONDS", 0.0)
        await worker.tick()
        assert kept == [3600.0, 3600.0]
        assert await store.lapsed_leases("") == {}
        live = await store.leases("")
        assert live and set(live.values()) == {"w1"}  # (its run lease, its advertisement)
    finally:
        await worker.stop()
