"""fix40d: a worker's or router's start beside the records of other workers (``/hello``,
:func:`bot.cluster.probe`; docs/operations.md).

- SIGTERM while the start asks the live workers: the start went on once the probes ended
  (each waits :data:`bot.cluster.PROBE_SECONDS` for a hung worker): a worker then listened,
  registered its heartbeat, took leases (the tables of a dead worker with them) and only
  then stopped, its log saying "bot running" and "worker w9 stopped"; now the probes are
  given up at once and the process stops with "stopped while starting", exit status 0.
- a dead worker's record (its heartbeat run out, or live still but nobody listening, or the
  starting worker's own record of its last run) refuses no start.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.cluster import Router, Worker, internal_key
from bot.telegram.fake_api import FakeTelegram
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.cluster.harness import free_port
from tests.bot.conftest import service_env
from tests.bot.test_nu54_cluster_refusals import OTHER, _listening

REPO = Path(__file__).resolve().parents[2]
TOKEN = "123456:" + "D" * 35
#: the entry point (``python -m bot``'s main) with a probe that waits ten minutes for a hung
#: worker, as a machine gone silent keeps one: the stop must not wait for it
ENTRY = (
    "import sys, bot.cluster; bot.cluster.PROBE_SECONDS = 600.0; "
    "from bot.__main__ import main; sys.exit(main(sys.argv[1:]))"
)


@asynccontextmanager
async def hung_workers() -> AsyncIterator[tuple[list[str], list[int]]]:
    """Two endpoints that accept a connection and never answer (a stopped process, a machine
    gone whose heartbeat has not expired yet): ``(addresses, [connections accepted])``."""
    accepted = [0]
    held: list[asyncio.StreamWriter] = []

    async def hang(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted[0] += 1
        held.append(writer)

    servers = [await asyncio.start_server(hang, "127.0.0.1", 0) for _ in range(2)]
    addresses = [f"http://127.0.0.1:{s.sockets[0].getsockname()[1]}" for s in servers]
    try:
        yield addresses, accepted
    finally:
        for writer in held:
            writer.close()
        for server in servers:
            server.close()


@pytest.mark.parametrize("role", ["worker", "router"])
async def test_sigterm_while_the_start_asks_hung_workers_stops_it_at_once(
    tmp_path: Path, role: str
) -> None:
    """``python -m bot`` (a worker, or ``--router``) on a database whose two live workers hang
    on ``/hello``: SIGTERM once both are asked ends the process with exit status 0 and
    "stopped while starting" (no traceback, no "bot running"), and a worker never
    registered. Without the fix the router waited out the probes (here ten minutes; 2 s
    with the default) and the worker then started and stopped ("bot running", "worker w9
    stopped: …", its heartbeat written)."""
    db = tmp_path / "ofc.sqlite3"
    fake = FakeTelegram(TOKEN)
    await fake.start()
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    env.update(
        PYTHONPATH=str(REPO),
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_API_BASE_URL=fake.base_url,
        DATABASE_PATH=str(db),
        LOG_LEVEL="INFO",
    )
    args = []
    if role == "worker":
        env.update(WORKER_ID="w9", WORKER_LISTEN=f"127.0.0.1:{free_port()}")
    else:
        args = ["--router"]
        env.update(
            TELEGRAM_WEBHOOK_URL="https://bot.example.invalid/hook",
            TELEGRAM_WEBHOOK_SECRET="fix40d-secret",
            TELEGRAM_WEBHOOK_LISTEN=f"127.0.0.1:{free_port()}",
        )
    proc: asyncio.subprocess.Process | None = None
    try:
        async with hung_workers() as (addresses, accepted):
            store = await SqliteStore.open(db)
            for n, address in enumerate(addresses, 1):
                await store.heartbeat(f"w{n}", address, 600.0)
            await store.close()
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                ENTRY,
                *args,
                cwd=str(tmp_path),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            for _ in range(600):  # (the start asks both; 60 s at most)
                if accepted[0] >= 2 or proc.returncode is not None:
                    break
                await asyncio.sleep(0.1)
            assert accepted[0] >= 2, "the start never asked the hung workers"
            proc.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        await fake.stop()
    text = err.decode()
    assert proc.returncode == 0, text
    assert "Traceback" not in text
    assert "stopped while starting" in text.splitlines()[-1], text
    assert "bot running" not in text and "router: webhook" not in text
    store = await SqliteStore.open(db)
    try:
        assert set(await store.live_workers()) == {"w1", "w2"}  # (w9 never registered)
    finally:
        await store.close()


async def test_a_dead_worker_s_record_refuses_no_start() -> None:
    """Three records of workers that are gone: ``w1``, whose heartbeat ran out (it died
    more than a lease time ago), and ``w9``, the starting worker's own record of its last
    run (a restart with the same WORKER_ID, its heartbeat not run out yet), each at an
    address where a worker of another bot token now listens (it refuses whatever it is
    asked: another key); and ``w7``, live still but nobody listening (it died within the
    lease time: the connection is refused). ``w1`` and ``w7`` refuse no router's start,
    none of the three the start of the worker ``w9`` with this token; ``w1`` live again
    does refuse it (the check itself still works). A regression test: this held before
    fix40d (``live_workers`` leaves run-out heartbeats out, a worker skips its own name,
    a refused connection says nothing)."""
    store = MemoryStore()
    other = await _listening(store, "w1", OTHER)
    try:
        await store.heartbeat("w1", other.address, -1.0)  # (its heartbeat ran out)
        await store.heartbeat("w7", f"http://127.0.0.1:{free_port()}", 60.0)  # (died now)
        assert await Router(store, TOKEN, "http://127.0.0.1:1/bot").peers_refusal() is None
        await store.heartbeat("w9", other.address, 60.0)  # (this worker's own last run)
        service, *_ = service_env(store=store)
        worker = Worker(service, "w9", "http://127.0.0.1:1", ttl=60.0)
        worker.keys["telegram"] = internal_key(TOKEN, "telegram")
        assert await worker.peers_refusal() is None
        await store.heartbeat("w1", other.address, 60.0)  # (live: it is asked, and refuses)
        line = await worker.peers_refusal()
        assert line is not None and line.startswith(f"the worker w1 at {other.address} ")
    finally:
        await other.halt()
        await other.stop()
