"""nu54: an operator's run of the cluster (a router and workers, docs/operations.md).

A worker started with another bot token than the router (or on a machine whose clock is a
minute off) refused every update forwarded to it (403) without a word in either log: the
chats rendezvous hashing gave it were silent, and the router said only "no worker took
update N" half a minute later. A webhook request without the right secret token (a proxy
dropping the header) was refused silently too. Each refusal is now a log line saying what
to fix (one a minute a kind)."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr

from bot.cluster import (
    INTERNAL_HEADER,
    SIGNED_SECONDS,
    Router,
    Signatures,
    Worker,
    _Quiet,
    internal_key,
    signed_headers,
)
from bot.config import Settings
from bot.telegram.fake_api import FakeTelegram
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.cluster.harness import free_port
from tests.bot.conftest import service_env
from tests.bot.test_cluster import SECRET_OK, UPDATE, _Endpoint, _router, _until
from tests.bot.test_webhook import SECRET as WEBHOOK_SECRET
from tests.bot.test_webhook import TOKEN as WEBHOOK_TOKEN
from tests.waiting import until

TOKEN = "123456:" + "A" * 35
OTHER = "654321:" + "B" * 35
ADDRESS = "http://127.0.0.1:9"


def test_a_refusal_says_why() -> None:
    """:meth:`Signatures.refusal` tells another key, a clock apart, a replay, an unsigned
    request and a route without a key apart (``allowed`` is its ``None``)."""
    now = [1_000_000.0]
    checks = Signatures(ADDRESS, clock=lambda: now[0])
    checks.keys["telegram"] = internal_key(TOKEN, "telegram")
    body = b"{}"

    def sign(token: str, at: float) -> str:
        return signed_headers(internal_key(token, "telegram"), ADDRESS, body, now=at)[
            INTERNAL_HEADER
        ]

    good = sign(TOKEN, now[0])
    assert checks.refusal("telegram", good, body) is None
    assert checks.refusal("telegram", good, body) == "replay"
    assert checks.refusal("telegram", sign(OTHER, now[0]), body) == "key"
    assert checks.refusal("telegram", sign(TOKEN, now[0] - SIGNED_SECONDS - 5), body) == "time"
    assert checks.refusal("telegram", sign(TOKEN, now[0] + SIGNED_SECONDS + 5), body) == "time"
    assert checks.refusal("telegram", "", body) == "unsigned"
    assert checks.refusal("discord", good, body) == "no key"


def test_the_lines_of_refusals_are_one_a_minute_a_kind() -> None:
    now = [0.0]
    quiet = _Quiet(clock=lambda: now[0])
    assert quiet.due("key") == 0
    assert quiet.due("key") is None and quiet.due("key") is None
    assert quiet.due("time") == 0  # (another kind: its own line)
    now[0] = 61.0
    assert quiet.due("key") == 2  # the two refused since the last line


async def test_a_worker_logs_a_request_signed_with_another_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker refusing a forward signed with another bot token's key says so, naming
    TELEGRAM_BOT_TOKEN, once a minute; one signed a minute and a half ago names the clocks.
    Without the fix the worker logged nothing: the 403s were silent."""
    service, *_ = service_env()
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    worker = Worker(service, "w9", address, ttl=60.0)
    worker.keys["telegram"] = internal_key(TOKEN, "telegram")
    worker.telegram = object()  # type: ignore[assignment]  # (the endpoint's routes run)
    await worker.start(("127.0.0.1", port))
    caplog.set_level(logging.WARNING, logger="bot.cluster")
    try:
        async with aiohttp.ClientSession() as http:
            for token, at in ((OTHER, None), (OTHER, None), (TOKEN, -90.0)):
                stamp = None if at is None else time.time() + at
                key = internal_key(token, "telegram")
                headers = signed_headers(key, address, UPDATE, now=stamp)
                async with http.post(f"{address}/telegram", data=UPDATE, headers=headers) as r:
                    assert r.status == 403
    finally:
        await worker.halt()
        await worker.stop()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.cluster"]
    refused = [line for line in lines if "refused a request to /telegram" in line]
    assert len(refused) == 2, lines
    assert "signed with another key" in refused[0]
    assert "the same TELEGRAM_BOT_TOKEN" in refused[0]
    assert "clocks are apart" in refused[1] and "NTP" in refused[1]


async def test_the_router_logs_a_worker_s_refusal_and_a_wrong_secret(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A worker answering the router's forward with 403 (another bot token, clocks apart)
    is an error line in the router's log naming it and TELEGRAM_BOT_TOKEN; a webhook
    request with another secret token a warning naming the header. Without the fix the
    router said only "no worker took update 7" once its retries ran out, and nothing of the
    wrong secret."""
    store = MemoryStore()
    worker = _Endpoint(status=403)
    await worker.start()
    await store.heartbeat("w1", worker.address, 60.0)
    caplog.set_level(logging.WARNING, logger="bot.cluster")
    try:
        async with (
            _router(store, retry_seconds=1.0) as (_, url, _fake),
            aiohttp.ClientSession() as http,
        ):
            wrong = {**SECRET_OK, "X-Telegram-Bot-Api-Secret-Token": "wrong"}
            async with http.post(url, data=UPDATE, headers=wrong) as resp:
                assert resp.status == 403
            async with http.post(url, data=UPDATE, headers=SECRET_OK) as resp:
                assert resp.status in (200, 503)
            await _until(lambda: len(worker.bodies) >= 2)
    finally:
        await worker.stop()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.cluster"]
    secret = [line for line in lines if "refused a webhook request" in line]
    assert len(secret) == 1 and "with another secret token" in secret[0], lines
    assert "X-Telegram-Bot-Api-Secret-Token" in secret[0]
    forbidden = [line for line in lines if f"worker at {worker.address} refused update 7" in line]
    assert len(forbidden) == 1, lines  # (one line for all the retries)
    assert "TELEGRAM_BOT_TOKEN" in forbidden[0] and "clocks" in forbidden[0]


async def _listening(store: MemoryStore, name: str, token: str) -> Worker:
    """A worker on ``store`` with ``token``'s Telegram keys, its endpoint listening and its
    heartbeat written (live)."""
    service, *_ = service_env(store=store)
    port = free_port()
    worker = Worker(service, name, f"http://127.0.0.1:{port}", ttl=60.0)
    worker.keys["telegram"] = internal_key(token, "telegram")
    worker.keys["private"] = internal_key(token, "private")
    worker.telegram = object()  # type: ignore[assignment]  # (the endpoint's routes run)
    await worker.start(("127.0.0.1", port))
    return worker


async def test_a_worker_or_router_with_another_token_or_clock_is_refused_at_its_start() -> None:
    """A worker starting beside a live worker of another bot token is refused in one line
    naming that worker and TELEGRAM_BOT_TOKEN (:meth:`Worker.peers_refusal`, before it
    registers: ``bot.app.run`` raises it as a ConfigError, exit status 2), and so is a
    router (:meth:`Router.peers_refusal`); a worker of the same token is not; one whose
    clock is two minutes off is refused naming the clocks. Without the fix both started
    and every update forwarded to the odd one was refused (403): its chats were silent."""
    store = MemoryStore()
    w1 = await _listening(store, "w1", TOKEN)
    try:
        service, *_ = service_env(store=store)
        same = Worker(service, "w2", "http://127.0.0.1:1", ttl=60.0)
        same.keys["telegram"] = internal_key(TOKEN, "telegram")
        assert await same.peers_refusal() is None
        other = Worker(service, "w3", "http://127.0.0.1:1", ttl=60.0)
        other.keys["telegram"] = internal_key(OTHER, "telegram")
        line = await other.peers_refusal()
        assert line == (
            f"the worker w1 at {w1.address} runs with another TELEGRAM_BOT_TOKEN than this "
            "worker (it refused this worker's signed request): give the router and every "
            "worker the same TELEGRAM_BOT_TOKEN"
        )
        discord_only = Worker(service, "w5", "http://127.0.0.1:1", ttl=60.0)
        discord_only.keys["discord"] = internal_key(OTHER, "discord")
        assert await discord_only.peers_refusal() is None  # (w1 serves no Discord)
        router = Router(store, OTHER, "http://127.0.0.1:1/bot")
        line = await router.peers_refusal()
        assert line is not None and "another TELEGRAM_BOT_TOKEN than the router" in line
        assert await Router(store, TOKEN, "http://127.0.0.1:1/bot").peers_refusal() is None
        w1.signatures.clock = lambda: time.time() + 120.0  # (w1's machine two minutes on)
        line = await same.peers_refusal()
        assert line is not None and "clocks are more than 60 s apart" in line and "NTP" in line
    finally:
        await w1.halt()
        await w1.stop()


@pytest.mark.parametrize("ttl", [600.0, -1.0])
async def test_the_router_s_start_line_names_its_live_workers_and_its_stop_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, ttl: float
) -> None:
    """The router's start line names where it listens, its database and the live workers
    (a warning when there is none: the updates would be dropped after 30 s), and a SIGTERM
    ends its log with "router stopped". It said "router: webhook … on 8443" alone, and
    nothing at the stop."""
    from bot.app import run_router

    caplog.set_level(logging.INFO, logger="bot")
    db = tmp_path / "ofc.sqlite3"
    store = await SqliteStore.open(db)
    await store.heartbeat("w1", "http://127.0.0.1:9", ttl)  # (live for ten minutes, or not)
    await store.close()
    fake = FakeTelegram(WEBHOOK_TOKEN)
    await fake.start()
    port = free_port()
    settings = Settings(
        telegram_bot_token=SecretStr(WEBHOOK_TOKEN),
        telegram_api_base_url=fake.base_url,
        telegram_webhook_url="https://bot.example.invalid/hook",
        telegram_webhook_secret=SecretStr(WEBHOOK_SECRET),
        telegram_webhook_listen=f"127.0.0.1:{port}",
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    task = asyncio.create_task(run_router(settings, stop))
    try:
        await until(lambda: "router: webhook" in caplog.text, 20.0, "the start line")
        stop.set()
        await asyncio.wait_for(task, 30)
    finally:
        stop.set()
        await asyncio.gather(task, return_exceptions=True)
        await fake.stop()
    (start,) = [r for r in caplog.records if r.getMessage().startswith("router: webhook")]
    line = start.getMessage()
    assert f"on 127.0.0.1:{port}; database {db}" in line
    if ttl > 0:
        assert start.levelno == logging.INFO and line.endswith("1 live worker(s): w1")
    else:
        assert start.levelno == logging.WARNING and "no live worker on this database" in line
    assert caplog.records[-1].getMessage() == "router stopped"


async def test_a_bot_s_stop_is_its_last_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot stopped (SIGTERM) ends its log with how many tables it saved; the log ended in
    python-telegram-bot's "Application.stop() complete"."""
    from bot.app import run

    caplog.set_level(logging.INFO, logger="bot")
    fake = FakeTelegram(WEBHOOK_TOKEN)
    await fake.start()
    settings = Settings(
        telegram_bot_token=SecretStr(WEBHOOK_TOKEN),
        telegram_api_base_url=fake.base_url,
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    task = asyncio.create_task(run(settings, stop))
    try:
        await until(lambda: "bot running" in caplog.text, 20.0, "the start line")
        stop.set()
        await asyncio.wait_for(task, 30)
    finally:
        stop.set()
        await asyncio.gather(task, return_exceptions=True)
        await fake.stop()
    last = [r.getMessage() for r in caplog.records if r.name == "bot.app"][-1]
    assert last == "bot stopped: 0 open table(s) saved (the next start resumes them)"


def test_a_worker_without_a_token_is_refused_not_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker's settings without a bot token (WORKER_ID set, the token forgotten) are
    refused in one line, exit status 2. ``python -m bot`` started the interactive sandbox
    instead: under a service manager (stdin empty) it ended at once with status 0, the
    worker never there and nothing said."""
    import bot.sandbox
    from bot.__main__ import main

    async def started(*_: object, **__: object) -> None:
        raise AssertionError("the sandbox started")

    monkeypatch.setattr(bot.sandbox, "run_sandbox", started)
    monkeypatch.chdir(tmp_path)
    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "w1.env").write_text("WORKER_ID=w1\nWORKER_LISTEN=127.0.0.1:8601\n")
    assert main(["--env-file", "w1.env"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "error: WORKER_ID=w1 is set but no bot token: a worker needs the TELEGRAM_BOT_TOKEN "
        "and/or DISCORD_BOT_TOKEN of the router and the other workers (w1.env or the "
        "environment)\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w1.env"]  # (no sandbox.sqlite3)


def test_a_start_s_error_line_names_the_env_file_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker started with ``--env-file w1.env`` whose database cannot be opened is told
    to check DATABASE_PATH in w1.env, the file it read: it was told ".env", which it never
    read (each worker of a cluster has a file of its own)."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "w1.env").write_text(
        f"TELEGRAM_BOT_TOKEN={WEBHOOK_TOKEN}\nTELEGRAM_API_BASE_URL=http://127.0.0.1:9/bot\n"
        "DATABASE_PATH=no-such-folder/ofc.sqlite3\n"
    )
    assert main(["--env-file", "w1.env"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.endswith(
        ": its folder no-such-folder does not exist (the bot makes the file, not its folder): "
        "create it, or correct DATABASE_PATH in w1.env\n"
    ), err


async def test_a_worker_that_cannot_listen_is_not_registered() -> None:
    """A worker whose WORKER_LISTEN port another worker took stops (``ListenError``)
    without having said it is live: it wrote its heartbeat first, and for a lease time the
    router could pick it for a new chat, at the other worker's address."""
    from bot.cluster import ListenError

    store = MemoryStore()
    w1 = await _listening(store, "w1", TOKEN)
    try:
        service, *_ = service_env(store=store)
        port = int(w1.address.rsplit(":", 1)[1])
        late = Worker(service, "w2", w1.address, ttl=60.0)
        late.keys["telegram"] = internal_key(TOKEN, "telegram")
        late.telegram = object()  # type: ignore[assignment]
        with pytest.raises(ListenError):
            await late.start(("127.0.0.1", port))
        assert await store.live_workers() == {"w1": w1.address}
    finally:
        await w1.halt()
        await w1.stop()
