"""The Discord shard leases of workers sharing the tables (issue 14), without Discord: three
workers on one in-memory store, each with a recording :class:`~bot.cluster.ShardRunner`
(the real discord.py connections are ``tests/bot/discord/test_shard_failover.py``'s)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest

from bot.cluster import STEADY_LEASES, Worker, rendezvous, shard_key
from bot.config import Settings, parse_shards
from bot.service import TableService
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.discord.shard_world import guild_on_shard

#: The workers' lease time. They renew every quarter of it, so a worker whose event loop is
#: held up for three quarters of it loses its leases (and its shards) for real: 0.4 s was
#: within reach of a loaded machine (the lease of a live worker's shard ran out and another
#: worker took it, or a worker just started counted as settled). The waits below are in lease
#: times, so the tests check the same orders of events, only slower.
TTL = 2.0


class Runner:
    """Records the shards a worker connects and disconnects; refuses those in ``fail``."""

    def __init__(self) -> None:
        self.running: set[int] = set()
        self.log: list[tuple[str, int]] = []
        self.fail: set[int] = set()

    @property
    def shards(self) -> frozenset[int]:
        return frozenset(self.running)

    async def connect_shard(self, shard_id: int) -> None:
        self.log.append(("connect", shard_id))
        if shard_id in self.fail:
            raise OSError("the gateway cannot be reached")
        self.running.add(shard_id)

    async def disconnect_shard(self, shard_id: int) -> None:
        self.log.append(("disconnect", shard_id))
        self.running.discard(shard_id)


async def _until(predicate: object, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def _worker(
    store: MemoryStore, name: str, shards: list[int], count: int = 2
) -> tuple[Worker, Runner]:
    runner = Runner()
    worker = Worker(
        TableService(store), name, f"http://127.0.0.1/{name}", ttl=TTL,
        discord_shards=(shards, count), discord=runner,
    )  # fmt: skip
    await worker.start()
    return worker, runner


async def _die(worker: Worker) -> None:
    """Stop renewing anything, give nothing up (SIGKILL)."""
    await worker.halt()


async def test_a_dead_worker_s_shard_goes_to_one_live_worker_and_past_a_failed_connect() -> None:
    """Shard 1's worker dies; of the two live workers (one prefers shard 0, a spare prefers
    none) rendezvous hashing picks one; its connect fails, so it gives the lease up and stays
    quiet for a while, and the other takes the shard: exactly one runs it at any time."""
    store = MemoryStore()
    w0, r0 = await _worker(store, "w0", [0])
    w1, r1 = await _worker(store, "w1", [1])
    spare, rs = await _worker(store, "spare", [])
    workers = {"w0": (w0, r0), "spare": (spare, rs)}
    try:
        assert (w0.shards, w1.shards, spare.shards) == ({0}, {1}, set())
        assert (r0.running, r1.running, rs.running) == ({0}, {1}, set())
        picked = rendezvous(shard_key(1), {"w0": "", "spare": ""})
        assert picked is not None
        other = "spare" if picked == "w0" else "w0"
        workers[picked][1].fail.add(1)
        await asyncio.sleep(TTL)  # both have run a lease time: they may take others' shards
        await _die(w1)
        await _until(lambda: 1 in workers[other][0].shards)
        assert workers[other][1].running == {1} | ({0} if other == "w0" else set())
        assert ("connect", 1) in workers[picked][1].log  # tried first, and let go
        assert 1 not in workers[picked][0].shards and 1 not in workers[picked][1].running
        assert await store.lease_owner(shard_key(1)) == other
        assert w0.shards >= {0} and await store.lease_owner(shard_key(0)) == "w0"
    finally:
        for w in (w0, spare):
            await w.stop()


async def test_every_shard_of_a_dead_worker_moves_one_a_sweep() -> None:
    """w1 ran shards 1–3 of 4 and dies: w0 takes them all, one each sweep (each shard's
    tables are taken over before the next shard's IDENTIFY waits its turn)."""
    store = MemoryStore()
    w0, r0 = await _worker(store, "w0", [0], count=4)
    w1, r1 = await _worker(store, "w1", [1, 2, 3], count=4)
    try:
        await _until(lambda: w1.shards == {1, 2, 3})
        assert r1.log == [("connect", 1), ("connect", 2), ("connect", 3)]
        await asyncio.sleep(TTL)
        await _die(w1)
        await _until(lambda: w0.shards == {0, 1, 2, 3})
        assert r0.log == [("connect", s) for s in range(4)]
        assert await store.leases("discord-shard:") == {shard_key(s): "w0" for s in range(4)}
    finally:
        await w0.stop()


async def test_a_shard_whose_connection_discord_py_gave_up_goes_to_another_worker() -> None:
    """The client running w1's shard 1 stopped for good (say Discord refused its session):
    w1 lets the shard go, with its lease, and steps aside; w0 runs it."""
    store = MemoryStore()
    w0, r0 = await _worker(store, "w0", [0])
    w1, r1 = await _worker(store, "w1", [1])
    try:
        await asyncio.sleep(TTL)
        r1.running.discard(1)  # the connection task ended
        await _until(lambda: w0.shards == {0, 1})
        assert w1.shards == set() and ("disconnect", 1) in r1.log
        assert r0.running == {0, 1} and await store.lease_owner(shard_key(1)) == "w0"
    finally:
        for w in (w1, w0):
            await w.stop()


async def test_workers_started_together_each_take_their_own_shard_first() -> None:
    """A worker takes a shard it does not prefer only after one lease time: w1, started
    just after w0, gets its own shard 1 (w0 does not grab it meanwhile)."""
    store = MemoryStore()
    w0, r0 = await _worker(store, "w0", [0])
    await w0.sweep()  # shard 1 is free, but w0 has just started
    assert w0.shards == {0} and await store.lease_owner(shard_key(1)) is None
    w1, r1 = await _worker(store, "w1", [1])
    try:
        await asyncio.sleep(1.5 * TTL)
        await w0.sweep()
        assert (w0.shards, w1.shards) == ({0}, {1})
        assert r0.log == [("connect", 0)] and r1.log == [("connect", 1)]
    finally:
        for w in (w1, w0):
            await w.stop()
    assert await store.leases("discord-") == {}  # a clean stop gives every lease up
    assert r0.log[-1] == ("disconnect", 0) and r1.log[-1] == ("disconnect", 1)


async def test_a_shard_handed_back_lets_its_claimed_channels_go_and_keeps_the_others() -> None:
    """w0 runs shard 1 too while nobody prefers it; w1, which prefers shard 1, comes: w0
    hands it back, with the lease of a channel of shard 1 an interaction had it claim (no
    table there yet), keeping the channel of shard 0 it claimed."""
    store = MemoryStore()
    w0, r0 = await _worker(store, "w0", [0])
    w1: Worker | None = None
    try:
        await asyncio.sleep(TTL)
        await w0.sweep()
        assert w0.shards == {0, 1} and r0.running == {0, 1}
        for guild, channel in ((guild_on_shard(0), 10), (guild_on_shard(1), 11)):
            interaction = SimpleNamespace(data={}, guild_id=guild, channel_id=channel)
            assert await w0.claim_interaction(interaction)
        assert await store.lease_owner(lease_key("discord", "11")) == "w0"
        w1, r1 = await _worker(store, "w1", [1])
        await _until(lambda: w1 is not None and w1.shards == {1})
        assert w0.shards == {0} and r0.running == {0} and r1.running == {1}
        assert ("disconnect", 1) in r0.log
        assert await store.lease_owner(lease_key("discord", "11")) != "w0"
        assert await store.lease_owner(lease_key("discord", "10")) == "w0"
        assert await store.lease_owner(shard_key(1)) == "w1"
    finally:
        for w in (w1, w0):
            if w is not None:
                await w.stop()


def test_a_worker_may_prefer_no_shard_and_only_take_over() -> None:
    assert parse_shards("none") == [] and parse_shards("0-1,3") == [0, 1, 3]
    settings = Settings(
        worker_id="spare", discord_shard_ids="none", discord_shard_count=4,
        _env_file=None,  # type: ignore[call-arg]
    )  # fmt: skip
    assert settings.shard_ids == []
    with pytest.raises(ValueError, match="WORKER_ID"):  # one process runs every shard
        Settings(discord_shard_ids="none", discord_shard_count=4, _env_file=None)  # type: ignore[call-arg]


async def test_workers_take_turns_to_identify_with_discord() -> None:
    """Discord allows a bot one IDENTIFY per 5 s (here 0.3 s): two workers connecting shards
    at once go one after the other through the lease they share, not together."""
    store = MemoryStore()
    (w0, _r0), (w1, _r1) = await _worker(store, "w0", [0]), await _worker(store, "w1", [1])
    passed: list[tuple[str, float]] = []

    async def identify(worker: Worker) -> None:
        await worker.identify_slot(0.3)
        passed.append((worker.worker_id, time.monotonic()))

    try:
        await asyncio.gather(identify(w0), identify(w1))
        (a, first), (b, second) = sorted(passed, key=lambda p: p[1])
        assert {a, b} == {"w0", "w1"} and second - first >= 0.25, passed
        # then the first one again (its own process spaced it): after the second's slot
        await identify(w0 if a == "w0" else w1)
        assert passed[-1][1] - second >= 0.25, passed
    finally:
        for w in (w0, w1):
            await _die(w)


async def test_a_worker_that_keeps_failing_its_shard_steps_aside_longer_each_time() -> None:
    """A worker whose preferred shard never connects stepped aside for two lease times and
    took the shard back from the worker running it every cycle (each move pauses the shard's
    tables). It now waits 2, 4, 8 … lease times (at most 64), and after a shard ran for
    STEADY_LEASES lease times a failure is a first one again."""
    store = MemoryStore()
    w1, _r1 = await _worker(store, "w1", [])
    try:
        quiet = []
        for _ in range(8):
            before = time.monotonic()
            await w1._step_aside([])
            quiet.append(round((w1._quiet_until - before) / TTL))
        assert quiet == [2, 4, 8, 16, 32, 64, 64, 64]
        w1._took_shard_at = time.monotonic() - STEADY_LEASES * TTL  # ran steadily since
        before = time.monotonic()
        await w1._step_aside([])
        assert round((w1._quiet_until - before) / TTL) == 2
    finally:
        await _die(w1)
