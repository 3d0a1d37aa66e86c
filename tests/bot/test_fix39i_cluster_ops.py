"""An operator's leftovers of running the cluster (fix39i): a takeover says in one line which
worker took how many tables of which dead one; LEASE_SECONDS differing between workers is
refused at the start."""

from __future__ import annotations

import logging
import random

import pytest

from bot.cluster import Router, Worker, internal_key
from bot.model import ChatRef
from bot.service import TableService
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_nu54_cluster_refusals import TOKEN, _listening
from tests.bot.test_service import ALICE

CHATS = [ChatRef("telegram", f"-10{n}", f"-10{n}", f"Group {n}") for n in range(3)]


def _service(store: MemoryStore, clock: Clock) -> TableService:
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    return service


async def test_a_takeover_logs_one_line_naming_the_dead_worker(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """w1 dies holding three tables; w2's sweep takes them over and says so in one INFO line
    naming w1 (each table's "serving table" line at DEBUG). It logged one INFO line per table
    (1,000 for 1,000 tables) and never which worker died."""
    store = MemoryStore()
    clock = Clock()
    store.clock = clock
    s1 = _service(store, clock)
    w1 = Worker(s1, "w1", "http://127.0.0.1:1", ttl=5.0)
    await store.heartbeat("w1", w1.address, 5.0)  # (w1 runs without its loops here)
    for chat in CHATS:
        assert await w1.claim(lease_key("telegram", chat.chat_id))
        await s1.new_table(chat, ALICE)
        assert s1.table_in(chat) is not None
    clock.now += 6.0  # w1 died:  # w1's leases and heartbeat ran out
    s2 = _service(store, clock)
    w2 = Worker(s2, "w2", "http://127.0.0.1:2", ttl=5.0)
    caplog.set_level(logging.DEBUG, logger="bot.cluster")
    await w2.start()  # (its first sweep takes them over)
    try:
        await w2.tick()
        assert all(s2.table_in(chat) is not None for chat in CHATS)
        infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
        assert "worker w2 took over 3 tables of w1 (its lease ran out)" in infos
        assert not [line for line in infos if "serving table" in line]
        debugs = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
        assert len([line for line in debugs if line.startswith("worker w2: serving table")]) == 3
    finally:
        await w2.stop()


async def test_a_worker_with_another_lease_seconds_is_refused_at_its_start() -> None:
    """A worker starting beside a live worker with another LEASE_SECONDS is refused in one
    line naming both (:meth:`Worker.peers_refusal`, raised by ``bot.app.run`` as a
    ConfigError: exit status 2, as another token or clock); the same lease time passes, and
    the router (it takes no lease) is not asked for one. Nothing checked it: a worker with a
    5 s lease took the tables of one with 60 s over while that one still ran."""
    store = MemoryStore()
    w1 = await _listening(store, "w1", TOKEN)  # (LEASE_SECONDS=60)
    try:
        service, *_ = service_env(store=store)
        short = Worker(service, "w2", "http://127.0.0.1:1", ttl=5.0)
        short.keys["telegram"] = internal_key(TOKEN, "telegram")
        assert await short.peers_refusal() == (
            f"the worker w1 at {w1.address} runs with LEASE_SECONDS=60 and this worker with "
            "LEASE_SECONDS=5: give every worker the same LEASE_SECONDS"
        )
        same = Worker(service, "w3", "http://127.0.0.1:1", ttl=60.0)
        same.keys["telegram"] = internal_key(TOKEN, "telegram")
        assert await same.peers_refusal() is None
        assert await Router(store, TOKEN, "http://127.0.0.1:1/bot").peers_refusal() is None
    finally:
        await w1.halt()
        await w1.stop()
