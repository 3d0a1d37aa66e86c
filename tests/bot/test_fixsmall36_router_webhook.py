"""The cluster's router (``python -m bot --router``) looks at its webhook as a bot in webhook
mode does (bot/telegram/one_bot.py ``look_at_webhook``): deleted or replaced by another
process, it stops with one line (``TokenTaken``: exit status 2); its webhook left as it set it,
it goes on."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

import bot.telegram.one_bot as one_bot
from bot.app import TokenTaken, run_router
from bot.config import Settings
from bot.telegram.fake_api import FakeTelegram
from tests.bot.test_ops42_listen import workers_database
from tests.bot.test_webhook import SECRET, TOKEN, free_port, listening

URL = "https://Bot.Example.invalid:443/hook"  # (getWebhookInfo may answer it in another form)


async def router_settings(tmp_path: Path, fake: FakeTelegram, port: int) -> Settings:
    db = await workers_database(tmp_path / "ofc.sqlite3")
    return Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=fake.base_url,
        telegram_webhook_url=URL,
        telegram_webhook_secret=SecretStr(SECRET),
        telegram_webhook_listen=f"127.0.0.1:{port}",
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(one_bot, "WEBHOOK_LOOK_SECONDS", 0.3)


@pytest.mark.usefixtures("quick")
@pytest.mark.parametrize(
    ("now_set", "said"),
    [
        (None, "webhook of this bot token was deleted"),
        ("https://other.example.invalid/x", "replaced by other.example.invalid"),
    ],
)
async def test_the_router_stops_when_its_webhook_is_deleted_or_replaced(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, now_set: str | None, said: str
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    fake = FakeTelegram(TOKEN)
    await fake.start()
    port = free_port()
    stop = asyncio.Event()
    task = asyncio.create_task(run_router(await router_settings(tmp_path, fake, port), stop))
    try:
        await fake.wait_for(lambda: fake.webhook)
        await listening(port)
        await asyncio.sleep(1.0)  # (three looks at its own webhook: it goes on)
        assert not task.done()
        # another process: a poller's start deletes it, or another bot sets its own
        fake.webhook = None if now_set is None else (now_set, None)
        with pytest.raises(TokenTaken, match=said):
            await asyncio.wait_for(task, 30)
        assert len([r for r in caplog.records if said in r.getMessage()]) == 1
        assert "/x" not in caplog.text  # (a webhook's path may hold a secret)
    finally:
        stop.set()
        if not task.done():
            task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await fake.stop()


@pytest.mark.usefixtures("quick")
async def test_a_router_stopped_by_sigterm_during_the_look_exits_plainly(
    tmp_path: Path,
) -> None:
    fake = FakeTelegram(TOKEN)
    await fake.start()
    port = free_port()
    stop = asyncio.Event()
    task = asyncio.create_task(run_router(await router_settings(tmp_path, fake, port), stop))
    try:
        await fake.wait_for(lambda: fake.webhook)
        await listening(port)
        stop.set()
        await asyncio.wait_for(task, 30)  # (no TokenTaken)
        assert task.done() and task.exception() is None
    finally:
        stop.set()
        await asyncio.gather(task, return_exceptions=True)
        await fake.stop()
