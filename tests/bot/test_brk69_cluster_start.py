"""brk69: attacks on a worker's or router's start beside live workers (nu54's ``/hello``).

A start asked each live worker in turn (:func:`bot.cluster.probe`, up to
:data:`~bot.cluster.PROBE_SECONDS` each, per route): beside workers that hang (a stopped
process, a machine gone whose heartbeat has not expired yet: the connection or the answer
never comes) the start waited 2 s × workers × routes before it registered, a restart's
takeover of its tables delayed as long. The probes now go out together: a start waits
for the slowest one only."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

import aiohttp
import pytest

import bot.cluster
from bot.cluster import Router, Worker, internal_key
from storage.memory import MemoryStore
from tests.bot.conftest import service_env
from tests.bot.test_nu54_cluster_refusals import _listening

TOKEN = "123456:" + "A" * 35


def _asked_together(
    monkeypatch: pytest.MonkeyPatch, expected: int, refuse: str | None = None
) -> list[tuple[str, str]]:
    """Stand in for :func:`bot.cluster.probe`: each probe waits (up to a second, as a hung
    worker keeps it) until ``expected`` probes are under way at once; the one to ``refuse``
    (an address) answers ``"key"``, none says its lease time. Returns the (address, route)
    asked, with ``("all", "together")`` appended when ``expected`` were in flight at one
    time."""
    asked: list[tuple[str, str]] = []
    together = asyncio.Event()
    flying = [0]

    async def fake(address: str, route: str, key: str) -> tuple[str | None, float | None]:
        asked.append((address, route))
        flying[0] += 1
        if flying[0] == expected:
            asked.append(("all", "together"))
            together.set()
        with contextlib.suppress(TimeoutError):  # (as a hung worker: no answer)
            await asyncio.wait_for(together.wait(), 1.0)
        flying[0] -= 1
        return ("key" if address == refuse else None), None  # (no lease time said)

    monkeypatch.setattr(bot.cluster, "probe", fake)
    return asked


async def test_a_start_asks_the_live_workers_together_not_one_after_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three live workers that hang on ``/hello``, a starting worker with both tokens (two
    routes each): the six probes are under way at once (the start waits one
    PROBE_SECONDS, not six), and the refusal reported is still the first worker's in order
    (w2's, the one that refuses). Without the fix one probe at a time: never all six."""
    store = MemoryStore()
    for n in (1, 2, 3):
        await store.heartbeat(f"w{n}", f"http://127.0.0.1:{40000 + n}", 60.0)
    await store.heartbeat("w9", "http://127.0.0.1:40009", 60.0)  # (its own old record)
    asked = _asked_together(monkeypatch, 6, refuse="http://127.0.0.1:40002")
    service, *_ = service_env(store=store)
    worker = Worker(service, "w9", "http://127.0.0.1:40009", ttl=60.0)
    for route in ("telegram", "private", "discord"):
        worker.keys[route] = internal_key(TOKEN, route)
    line = await worker.peers_refusal()
    assert ("all", "together") in asked
    assert sorted(a for a in asked if a[0] != "all") == [
        (f"http://127.0.0.1:{40000 + n}", route)
        for n in (1, 2, 3)
        for route in ("discord", "telegram")
    ]
    assert line is not None and line.startswith("the worker w2 at http://127.0.0.1:40002 ")


async def test_a_router_asks_the_live_workers_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """A router restarted beside four hung workers asks them at once too."""
    store = MemoryStore()
    for n in (1, 2, 3, 4):
        await store.heartbeat(f"w{n}", f"http://127.0.0.1:{40000 + n}", 60.0)
    asked = _asked_together(monkeypatch, 4)
    router = Router(store, TOKEN, "http://127.0.0.1:1/bot")
    assert await router.peers_refusal() is None
    assert ("all", "together") in asked
    assert len(asked) == 5


@pytest.mark.parametrize(
    "body",
    [b"[" * 200_000, b'{"route": ' * 100_000, b'{"route": []}'],
    ids=["array", "object", "list"],
)
async def test_an_unsigned_hello_nested_deep_is_malformed_not_a_traceback(
    body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """``/hello`` reads its body before it checks the signature (the route names the key):
    anyone reaching WORKER_LISTEN posted JSON nested 100,000 deep (``json.loads`` raised
    RecursionError) or ``{"route": []}`` (a TypeError: unhashable), and each request was a
    500 with a traceback of aiohttp's in the worker's log at ERROR (a flood of them,
    unsigned). Now 400, nothing logged."""
    store = MemoryStore()
    worker = await _listening(store, "w1", TOKEN)
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(2):
                async with http.post(f"{worker.address}/hello", data=body) as resp:
                    assert resp.status == 400
                    assert await resp.json() == {"error": "malformed"}
    finally:
        await worker.halt()
        await worker.stop()
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_router_with_a_stray_worker_id_and_no_token_is_told_what_a_router_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--router`` with settings shared with a worker (WORKER_ID set) and no token: its
    one line said "a worker needs the TELEGRAM_BOT_TOKEN and/or DISCORD_BOT_TOKEN" (a
    router runs no Discord and needs its webhook URL too); now the router's own line."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    for name in (
        "TELEGRAM_BOT_TOKEN",
        "DISCORD_BOT_TOKEN",
        "DATABASE_URL",
        "TELEGRAM_WEBHOOK_URL",
        "TELEGRAM_WEBHOOK_SECRET",
    ):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "r.env").write_text("WORKER_ID=w1\n")
    assert main(["--env-file", "r.env", "--router"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "error: the router needs TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_URL\n"
