"""The composition root: storage, the table service and every configured platform on one
event loop (STYLE.md 9)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from telegram.error import InvalidToken, NetworkError

from bot.config import ConfigError, Settings, split_listen
from bot.service import TableService
from storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from bot.telegram import TelegramAdapter

__all__ = ["run"]

log = logging.getLogger(__name__)


class _Adapter(Protocol):
    async def stop(self) -> None: ...


async def _take_updates(telegram: TelegramAdapter, settings: Settings) -> None:
    """Polling (the default) or, with ``TELEGRAM_WEBHOOK_URL``, the webhook (issue 14)."""
    if settings.telegram_webhook_url is None or settings.telegram_webhook_secret is None:
        await telegram.start_polling()
        return
    host, port = split_listen(settings.telegram_webhook_listen)
    secret = settings.telegram_webhook_secret.get_secret_value()
    try:
        await telegram.start_webhook(settings.telegram_webhook_url, secret, host, port)
    except OSError as exc:
        raise ConfigError(
            f"cannot listen on TELEGRAM_WEBHOOK_LISTEN={settings.telegram_webhook_listen}: "
            f"{exc.strerror or exc}"
        ) from None


async def run(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Run the bot until ``stop`` is set (or SIGINT/SIGTERM).

    :raises ConfigError: when a platform refuses the token or cannot be reached (one line).
    """
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    db = Path(settings.database_path)
    fresh = not db.exists()
    store = await SqliteStore.open(db)
    service = TableService(store)
    adapters: list[_Adapter] = []
    started = False
    telegram = None
    try:
        if settings.telegram_bot_token is not None:
            from bot.telegram import TelegramAdapter

            telegram = TelegramAdapter(
                service,
                settings.telegram_bot_token.get_secret_value(),
                settings.telegram_api_base_url,
            )
            adapters.append(telegram)
            try:
                await telegram.start(polling=False)  # updates once the tables are restored
            except InvalidToken:
                raise ConfigError(
                    "Telegram refused TELEGRAM_BOT_TOKEN: set a valid token from @BotFather in .env"
                ) from None
            except NetworkError as exc:
                raise ConfigError(
                    f"cannot reach the Telegram Bot API ({exc.message.split(':')[0]}): check the "
                    "network, or TELEGRAM_API_BASE_URL in .env"
                ) from None
            mode = "webhook" if settings.telegram_webhook_url else "polling"
            log.info("Telegram: %s as @%s", mode, telegram.presenter.username)
        if settings.discord_bot_token is not None:
            from bot.discord import DiscordAdapter, LoginFailure

            discord_adapter = DiscordAdapter(service, settings.discord_bot_token.get_secret_value())
            adapters.append(discord_adapter)
            try:
                await discord_adapter.start()
            except LoginFailure:
                raise ConfigError(
                    "Discord refused DISCORD_BOT_TOKEN: copy the token from the Developer Portal "
                    "(Bot tab) into .env"
                ) from None
            except (OSError, TimeoutError) as exc:
                raise ConfigError(
                    f"cannot reach Discord ({type(exc).__name__}): check the network"
                ) from None
            log.info("Discord: connected as %s", discord_adapter.client.user)
        await service.start()
        if telegram is not None:
            await _take_updates(telegram, settings)
        started = True
        log.info("bot running; %d open table(s) restored", len(service.tables))
        await stop.wait()
    finally:
        await service.stop()
        for adapter in reversed(adapters):
            with contextlib.suppress(Exception):
                await adapter.stop()
        await store.close()
        if fresh and not started:  # do not leave an empty database behind a failed start
            for suffix in ("", "-wal", "-shm"):
                Path(str(db) + suffix).unlink(missing_ok=True)
