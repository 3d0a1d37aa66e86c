"""Telegram in webhook mode (issue 14): ``TELEGRAM_WEBHOOK_URL`` makes the composition root
take updates through python-telegram-bot's own webhook server instead of polling; the webhook
is registered with its secret token and a request without that token is refused."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr

from bot.app import run
from bot.config import ConfigError, Settings, load_settings
from bot.telegram.fake_api import FakeTelegram, FakeUser

TOKEN = "123456:" + "W" * 35
SECRET = "s3cret_token-of-the-webhook"
GROUP = -700


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def listening(port: int, timeout: float = 20.0) -> None:
    """Wait until 127.0.0.1:``port`` accepts connections: python-telegram-bot registers the
    webhook (``setWebhook``) before its server listens, so the fake sees the webhook first."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if loop.time() > deadline:
                raise
            await asyncio.sleep(0.05)
        else:
            writer.close()
            await writer.wait_closed()
            return


def _group_update(update_id: int, text: str, user: FakeUser) -> dict[str, object]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": 9000 + update_id,
            "date": 0,
            "chat": {"id": GROUP, "type": "supergroup", "title": "Webhooks"},
            "from": user.to_json(),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
        },
    }


async def test_webhook_mode_registers_the_secret_and_refuses_requests_without_it(
    tmp_path: Path,
) -> None:
    fake = FakeTelegram(TOKEN)
    await fake.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg-hook"
    settings = Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=fake.base_url,
        telegram_webhook_url=url,
        telegram_webhook_listen=f"127.0.0.1:{port}",
        telegram_webhook_secret=SecretStr(SECRET),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    alice = FakeUser(11, "Alice", "alice", "en")
    task = asyncio.create_task(run(settings, stop))
    try:
        await fake.wait_for(lambda: fake.webhook, timeout=20)
        assert fake.webhook == (url, SECRET)  # setWebhook carried the secret token
        assert fake.allowed_updates is not None and "chat_member" in fake.allowed_updates
        assert not fake.calls_of("getUpdates")  # no polling in webhook mode
        await listening(port)
        async with aiohttp.ClientSession() as http:
            for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}):
                async with http.post(
                    url, json=_group_update(1, "/newtable", alice), headers=headers
                ) as resp:
                    assert resp.status == 403
        await asyncio.sleep(0.3)
        assert not fake.calls_of("sendMessage")  # the refused updates did nothing
        # Telegram (the fake) delivers with the secret: the table opens
        await fake.send_text(alice, GROUP, "/newtable")
        reply = await fake.wait_for(
            lambda: next(
                (c for c in fake.calls_of("sendMessage") if "Table #" in str(c.params["text"])),
                None,
            ),
            timeout=20,
        )
        assert int(reply.params["chat_id"]) == GROUP
        assert fake.deliveries and all(status == 200 for _, status in fake.deliveries)
        assert not task.done()
        stop.set()
        await asyncio.wait_for(task, 30)
    finally:
        stop.set()
        if not task.done():  # a failed assertion above: the bot still stops before the fake
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 30)
        await fake.stop()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"TELEGRAM_WEBHOOK_URL": "https://x.example/hook"}, "TELEGRAM_WEBHOOK_SECRET"),
        (
            {"TELEGRAM_WEBHOOK_URL": "https://x.example/h", "TELEGRAM_WEBHOOK_SECRET": "a b"},
            "TELEGRAM_WEBHOOK_SECRET",
        ),
        ({"TELEGRAM_WEBHOOK_LISTEN": "nohost"}, "host:port"),
        ({"DISCORD_SHARD_IDS": "0-3"}, "DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_IDS": "0-x", "DISCORD_SHARD_COUNT": "4"}, "DISCORD_SHARD_IDS"),
    ],
)
def test_bad_webhook_and_shard_settings_are_one_line_errors(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=expected):
        load_settings(None)


def test_shard_ranges_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0-1,3")
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    assert load_settings(None).shard_ids == [0, 1, 3]


async def test_the_router_needs_a_webhook(tmp_path: Path) -> None:
    """``python -m bot --router`` without a webhook URL is a one-line error."""
    from bot.app import run_router

    settings = Settings(
        telegram_bot_token=SecretStr(TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_URL"):
        await run_router(settings)
