"""rev38: a sign of life in a Telegram private chat told to the other workers
(:meth:`bot.cluster.Worker.private_life`) reaches every one of them though one is down: the
first worker that failed (a dead one, a refused connection) ended the telling, the workers
after it in the list never told (their tables of the player stayed quiet)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from aiohttp import web

from bot.cluster import INTERNAL_HEADER, Signatures, Worker, internal_key
from storage.api import lease_key
from tests.bot.cluster.harness import free_port
from tests.waiting import until

TOKEN = "123:test"


class _Store:
    """What :meth:`Worker._tell_life` reads: Bob sits at table 1 (worker ``dead``'s, not
    answering) and table 2 (worker ``up``'s)."""

    def __init__(self, live: dict[str, str]) -> None:
        self.live = live

    def fence(self, worker_id: str) -> None:
        pass

    async def live_workers(self) -> dict[str, str]:
        return self.live

    async def seated_tables(self, platform: str, user_id: str) -> list[int]:
        return [1, 2]

    async def get_table(self, table_id: int) -> Any:
        return SimpleNamespace(chat_id=f"-{table_id}00")

    async def lease_owner(self, key: str) -> str | None:
        return {lease_key("telegram", "-100"): "dead", lease_key("telegram", "-200"): "up"}[key]


async def test_a_dead_worker_does_not_keep_the_next_from_being_told() -> None:
    told: list[dict[str, Any]] = []
    signatures: list[Signatures] = []

    async def private(request: web.Request) -> web.Response:
        header = request.headers[INTERNAL_HEADER]
        assert signatures[0].allowed("private", header, await request.read())
        told.append(await request.json())
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_post("/private", private)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    # (the dead one first in the order the workers were told in: port 1, nobody listening)
    dead, up = "http://127.0.0.1:1", f"http://127.0.0.1:{port}"
    signatures.append(Signatures(up))
    signatures[0].keys["private"] = internal_key(TOKEN, "private")
    assert sorted((up, dead))[0] == dead
    store = _Store({"dead": dead, "up": up})
    service: Any = SimpleNamespace(store=store, tables={}, rt=SimpleNamespace())
    telegram: Any = SimpleNamespace(app=SimpleNamespace(bot=SimpleNamespace(token=TOKEN)))
    # (a 1 s lease: the dead worker's table is looked at again for 3 lease times, 3 s, not 15)
    w1 = Worker(service, "w1", "http://127.0.0.1:9", ttl=1.0, telegram=telegram)
    try:
        w1.private_life("42", False, True)
        await until(lambda: not w1._telling, what="the telling done")
        assert told == [{"user": "42", "blocked": False}]
    finally:
        if w1._session is not None:  # (no loops were started: the session alone to close)
            await w1._session.close()
        await runner.cleanup()
