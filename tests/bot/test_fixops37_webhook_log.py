"""fixops37: a bot in webhook mode logged "Telegram: webhook as @bot" at its start, before
the webhook was set (``setWebhook`` comes after the tables are restored): a refused webhook
URL stopped the start with the line already in the log, as if the webhook ran. The line is
logged once ``setWebhook`` succeeded (polling's once polling started)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import run
from bot.config import ConfigError, Settings
from bot.telegram.fake_api import BOT_USERNAME, FakeTelegram
from tests.bot.test_nu50_webhook_refused import REFUSAL, TOKEN, URL
from tests.bot.test_webhook import free_port, listening


def _settings(telegram: FakeTelegram, db: Path, port: int) -> Settings:
    return Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        telegram_webhook_url=URL,
        telegram_webhook_secret=SecretStr("s3cret"),
        telegram_webhook_listen=f"127.0.0.1:{port}",
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    )


class _Seen(logging.Handler):
    """Each "Telegram: …" record of bot.app with whether the fake had a webhook then."""

    def __init__(self, telegram: FakeTelegram) -> None:
        super().__init__(logging.INFO)
        self.telegram = telegram
        self.seen: list[tuple[str, bool]] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("Telegram: "):
            self.seen.append((record.getMessage(), self.telegram.webhook is not None))


async def test_the_webhook_line_is_logged_once_the_webhook_is_set(tmp_path: Path) -> None:
    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    seen = _Seen(telegram)
    logger = logging.getLogger("bot.app")
    logger.addHandler(seen)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        # refused: no line says the webhook runs
        telegram.fail_when(lambda c: c.method == "setWebhook", 400, REFUSAL)
        with pytest.raises(ConfigError):
            await asyncio.wait_for(run(_settings(telegram, tmp_path / "a.sqlite3", free_port()),
                                       asyncio.Event()), 60)  # fmt: skip
        assert telegram.webhook is None
        assert seen.seen == []
        # set: the line comes after setWebhook
        port = free_port()
        stop = asyncio.Event()
        task = asyncio.create_task(run(_settings(telegram, tmp_path / "b.sqlite3", port), stop))
        try:
            await listening(port)
            await telegram.wait_for(lambda: seen.seen, timeout=20)
        finally:
            stop.set()
            await asyncio.wait_for(task, 60)
        assert seen.seen == [(f"Telegram: webhook as @{BOT_USERNAME}", True)]
    finally:
        logger.removeHandler(seen)
        logger.setLevel(level)
        await telegram.stop()
