"""fix39f: the cluster's router (``python -m bot --router``, :class:`bot.cluster.Router`) takes
no database lock, unlike a bot or a worker (bot/dblock.py). Two routers at once do no harm,
which these tests pin:

- a router only reads the store (live workers, leases, seated tables, moved chats): it takes,
  renews or lets go no lease and writes nothing, so two routers make no second set of leases
  (the workers hold them);
- Telegram delivers each update to the one webhook URL set last, once (again only on a
  non-2xx answer, which a router gives only for an update it did not forward): the second
  router's ``setWebhook`` leaves the first without updates, so no update is forwarded twice,
  and the first stops in one line once it sees its webhook replaced (exit status 2, as a bot in
  webhook mode: bot/telegram/one_bot.py);
- a second router on the same ``TELEGRAM_WEBHOOK_LISTEN`` of one machine cannot listen.

(Two routers on two machines behind one URL each forward the updates they get, once; only a
chat's order across the two is not kept: docs/operations.md says to run one router.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.cluster import ListenError, Router
from bot.telegram.fake_api import FakeTelegram
from storage.sqlite import SqliteStore
from tests.bot.cluster.harness import free_port

TOKEN = "123456:fix39f-two-routers"
SECRET = "fix39f-secret"

#: the store's methods a router may call: reads only (``leases``: which live workers take
#: Telegram updates, fix42)
READS = frozenset(
    {"live_workers", "lease_owner", "leases", "seated_tables", "moved_chat", "get_table"}
)


class ReadOnly:
    """A store that lets a router call its reads (:data:`READS`) and records every name
    asked for; anything else fails the test."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store
        self.asked: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.asked.append(name)
        if name not in READS and not name.startswith("_"):
            raise AssertionError(f"a router called the store's {name}")
        return getattr(self._store, name)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    store = await SqliteStore.open(tmp_path / "ofc.sqlite3")
    try:
        yield store
    finally:
        await store.close()


async def worker_endpoint(got: list[int]) -> tuple[web.AppRunner, str]:
    """A worker's internal endpoint that takes every Telegram update (200) and appends its
    update_id to ``got``; the runner and its address."""

    async def take(request: web.Request) -> web.Response:
        got.append(int((await request.json())["update_id"]))
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/telegram", take)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner, f"http://127.0.0.1:{port}"


def group_message(chat_id: int, text: str) -> dict[str, Any]:
    return {
        "message": {
            "message_id": 1,
            "date": 0,
            "chat": {"id": chat_id, "type": "supergroup", "title": "t"},
            "from": {"id": 7, "is_bot": False, "first_name": "A"},
            "text": text,
        }
    }


async def test_a_second_router_takes_the_updates_the_first_stops_and_none_goes_twice(
    store: SqliteStore,
) -> None:
    fake = FakeTelegram(TOKEN)
    await fake.start()
    got: list[int] = []
    runner, address = await worker_endpoint(got)
    await store.heartbeat("w1", address, 60.0)
    leases_before = await store.leases("")
    stopped: list[str] = []
    stores = (ReadOnly(store), ReadOnly(store))
    first = Router(stores[0], TOKEN, fake.base_url, on_token_taken=stopped.append)  # type: ignore[arg-type]
    first.webhook_look_seconds = 0.1
    second = Router(stores[1], TOKEN, fake.base_url)  # type: ignore[arg-type]
    ports = free_port(), free_port()
    try:
        await first.start(f"http://127.0.0.1:{ports[0]}/hook", SECRET, "127.0.0.1", ports[0])
        one = await fake.push(group_message(-100, "/help"))
        await second.start(f"http://127.0.0.1:{ports[1]}/hook", SECRET, "127.0.0.1", ports[1])
        two = await fake.push(group_message(-100, "/rules"))
        three = await fake.push(group_message(-200, "/help"))
        for _ in range(400):
            if len(got) >= 3 and stopped:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # (time for a second delivery, were there one)
        assert sorted(got) == [one, two, three]  # each once
        assert [key for _, key, _, _ in second.forwards] == ["telegram:-100", "telegram:-200"]
        assert [key for _, key, _, _ in first.forwards] == ["telegram:-100"]
        assert stopped == [
            f"the webhook of this bot token was replaced by 127.0.0.1:{ports[1]} (another "
            "process polls with it or set its own TELEGRAM_WEBHOOK_URL): this bot gets no "
            "updates and stops "
            "(only one bot per token: stop the other process, then start this one again)"
        ]
        assert await store.leases("") == leases_before == {}  # no lease taken by a router
        assert "live_workers" in stores[1].asked
        assert set(stores[0].asked) | set(stores[1].asked) <= READS
    finally:
        await second.stop()
        await first.stop()
        await runner.cleanup()
        await fake.stop()


async def test_a_second_router_on_the_same_listen_cannot_listen(store: SqliteStore) -> None:
    fake = FakeTelegram(TOKEN)
    await fake.start()
    port = free_port()
    first = Router(store, TOKEN, fake.base_url)
    second = Router(store, TOKEN, fake.base_url)
    try:
        await first.start(f"http://127.0.0.1:{port}/hook", SECRET, "127.0.0.1", port)
        with pytest.raises(ListenError):
            await second.start(f"http://127.0.0.1:{port}/hook", SECRET, "127.0.0.1", port)
        assert fake.webhook is not None and fake.webhook[0].endswith(f":{port}/hook")
    finally:
        await second.stop()
        await first.stop()
        await fake.stop()
