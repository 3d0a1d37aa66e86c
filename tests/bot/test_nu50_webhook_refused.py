"""An operator's first webhook deployment (nu50): Telegram refuses ``setWebhook`` for a URL it
cannot use (``http://``, a port other than 443, 80, 88 and 8443, a host it cannot resolve)
with 400 "Bad Request: bad webhook: …". A single process stopped with python-telegram-bot's
traceback of some 40 lines and exit status 1; the router said "cannot reach the Telegram Bot
API (Bad webhook): check the network, or TELEGRAM_API_BASE_URL" (``BadRequest`` is a
``NetworkError``), which sends the operator to the wrong variable. Both are now one line
naming ``TELEGRAM_WEBHOOK_URL`` with Telegram's reason, and no traceback is logged."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import run, run_router
from bot.config import ConfigError, Settings
from bot.telegram.fake_api import FakeTelegram
from tests.bot.test_ops42_listen import workers_database
from tests.bot.test_webhook import free_port

TOKEN = "123456:" + "W" * 35
URL = "http://bot.example.invalid/hook"
REFUSAL = {
    "ok": False,
    "error_code": 400,
    "description": "Bad Request: bad webhook: An HTTPS URL must be provided for webhook",
}
LINE = (
    f"Telegram refused TELEGRAM_WEBHOOK_URL={URL} (Bad webhook: an https url must be provided "
    "for webhook): set a public https:// URL on port 443, 80, 88 or 8443"
)


def _settings(telegram: FakeTelegram, db: Path) -> Settings:
    return Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        telegram_webhook_url=URL,
        telegram_webhook_secret=SecretStr("s3cret"),
        telegram_webhook_listen=f"127.0.0.1:{free_port()}",
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    )


async def _refused(
    serve: Callable[[Settings, asyncio.Event], Awaitable[None]],
    db: Path,
    caplog: pytest.LogCaptureFixture,
) -> FakeTelegram:
    """``serve`` (:func:`run` or :func:`run_router`) started on ``db`` against a fake Bot API
    refusing ``setWebhook`` as Telegram does an http:// URL: it stops with :data:`LINE` and no
    traceback logged. Returns the fake, stopped."""
    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    telegram.fail_when(lambda c: c.method == "setWebhook", 400, REFUSAL)
    try:
        with caplog.at_level(logging.INFO), pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(serve(_settings(telegram, db), asyncio.Event()), 60)
    finally:
        await telegram.stop()
    assert str(caught.value) == LINE
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    return telegram


async def test_a_refused_webhook_url_stops_a_single_process_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    telegram = await _refused(run, tmp_path / "ofc.sqlite3", caplog)
    assert telegram.webhook is None  # nothing registered


async def test_a_refused_webhook_url_stops_the_router_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await _refused(run_router, await workers_database(tmp_path / "ofc.sqlite3"), caplog)
