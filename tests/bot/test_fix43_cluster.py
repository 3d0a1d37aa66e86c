"""fix43: the cluster's leftovers.

1. The router's log line for a worker answering its forward with 403 blamed "another
   TELEGRAM_BOT_TOKEN" (or the clocks) whatever the worker's reason; a worker run without
   Telegram (Discord only, advertising nothing) refuses for want of a key, not for another
   one. The worker's 403 now says why (``{"refused": "no key"}``) and the router's line
   says that worker runs without TELEGRAM_BOT_TOKEN."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from bot.cluster import Worker, internal_key
from storage.memory import MemoryStore
from tests.bot.cluster.harness import free_port
from tests.bot.conftest import service_env
from tests.bot.test_cluster import SECRET_OK, UPDATE, _router, _until

OTHER = "654321:" + "B" * 35


async def test_the_router_says_a_worker_without_telegram_apart_from_another_token(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A live Discord-only worker (its endpoint up, no Telegram key, no advertisement) gets
    the router's forward and refuses it: the router's error names the worker and says it
    runs without TELEGRAM_BOT_TOKEN, not that it runs with another one or that the clocks
    are apart."""
    store = MemoryStore()
    service, *_ = service_env(store=store)
    port = free_port()
    worker = Worker(service, "w1", f"http://127.0.0.1:{port}", ttl=60.0)
    worker.keys["discord"] = internal_key(OTHER, "discord")
    worker.presses = object()  # type: ignore[assignment]  # (the endpoint's routes run)
    await worker.start(("127.0.0.1", port))
    refused: list[str] = []
    caplog.set_level(logging.WARNING, logger="bot.cluster")
    try:
        async with _router(store, retry_seconds=1.0) as (_, url, _fake):
            async with (
                aiohttp.ClientSession() as http,
                http.post(url, data=UPDATE, headers=SECRET_OK) as resp,
            ):
                assert resp.status in (200, 503)

            def said() -> bool:
                lines = [r.getMessage() for r in caplog.records if r.name == "bot.cluster"]
                refused[:] = [line for line in lines if "router: the worker at" in line]
                return bool(refused)

            await _until(said)
    finally:
        await worker.halt()
        await worker.stop()
    assert len(refused) == 1, refused
    line = refused[0]
    assert f"the worker at {worker.address} refused update 7 (403)" in line, line
    assert "runs without TELEGRAM_BOT_TOKEN (not with another one)" in line, line
    assert "another TELEGRAM_BOT_TOKEN" not in line and "clocks" not in line, line
    # the worker's own line says the same
    worker_lines = [r.getMessage() for r in caplog.records if "refused a request" in r.getMessage()]
    assert worker_lines and "runs without TELEGRAM_BOT_TOKEN" in worker_lines[0], worker_lines
