"""The composition root: storage, the table service and every configured platform on one
event loop (STYLE.md 9)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from telegram.error import InvalidToken

from bot.config import ConfigError, Settings
from bot.service import TableService
from storage.sqlite import SqliteStore

__all__ = ["run"]

log = logging.getLogger(__name__)


async def run(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Run the bot until ``stop`` is set (or SIGINT/SIGTERM).

    :raises ConfigError: when a platform refuses the token.
    """
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    store = await SqliteStore.open(settings.database_path)
    service = TableService(store)
    adapters: list[object] = []
    try:
        if settings.telegram_bot_token is not None:
            from bot.telegram import TelegramAdapter

            telegram = TelegramAdapter(
                service,
                settings.telegram_bot_token.get_secret_value(),
                settings.telegram_api_base_url,
            )
            try:
                await telegram.start()
            except InvalidToken:
                raise ConfigError(
                    "Telegram refused TELEGRAM_BOT_TOKEN: set a valid token from @BotFather in .env"
                ) from None
            adapters.append(telegram)
            log.info("Telegram: polling as @%s", telegram.presenter.username)
        await service.start()
        log.info("bot running; %d open table(s) restored", len(service.tables))
        await stop.wait()
    finally:
        await service.stop()
        for adapter in reversed(adapters):
            with contextlib.suppress(Exception):
                await adapter.stop()  # type: ignore[attr-defined]
        await store.close()
