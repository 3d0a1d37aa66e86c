"""An operator's ``TELEGRAM_API_BASE_URL`` naming a web server that is no Bot API (nu50): a
wrong path, a port of another service, answering 404 with an HTML or text page. The start
logged python-telegram-bot's JSONDecodeError traceback and stopped with "Telegram refused
TELEGRAM_BOT_TOKEN: set a valid token from @BotFather", sending the operator to a token that
is fine (python-telegram-bot takes any 404 for a refused token). Now one line naming
``TELEGRAM_API_BASE_URL``, and no traceback; a real refusal (the Bot API's JSON 401) still
names the token."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import run, run_router
from bot.config import ConfigError, Settings
from bot.telegram.fake_api import FakeTelegram
from tests.bot.test_ops42_listen import workers_database

TOKEN = "123456:" + "N" * 35


def _settings(base_url: str, db: Path, **more: object) -> Settings:
    return Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=base_url,
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
        **more,  # type: ignore[arg-type]
    )


async def test_a_base_url_that_is_no_bot_api_is_one_line_naming_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    wrong = f"http://127.0.0.1:{telegram.port}/api"  # (the fake serves /bot<token>/…)
    try:
        with caplog.at_level(logging.INFO), pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(
                run(_settings(wrong, tmp_path / "a.sqlite3"), asyncio.Event()), 60
            )
    finally:
        await telegram.stop()
    assert str(caught.value) == (
        f"TELEGRAM_API_BASE_URL={wrong} answered Not Found (404), not as a Bot API server: set "
        "its URL (e.g. http://127.0.0.1:8081/bot), or leave it empty for Telegram's"
    )
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    assert not (tmp_path / "a.sqlite3").exists()  # (the start that failed removed its file)


async def test_the_router_says_the_same(tmp_path: Path) -> None:
    db = await workers_database(tmp_path / "ofc.sqlite3")
    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    wrong = f"http://127.0.0.1:{telegram.port}/api"
    settings = _settings(
        wrong,
        db,
        telegram_webhook_url="https://bot.example.invalid/hook",
        telegram_webhook_secret=SecretStr("s3cret"),
        telegram_webhook_listen="127.0.0.1:9",
    )
    try:
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run_router(settings, asyncio.Event()), 60)
    finally:
        await telegram.stop()
    assert str(caught.value).startswith(f"TELEGRAM_API_BASE_URL={wrong} answered Not Found (404)")


async def test_a_refused_token_still_names_the_token(tmp_path: Path) -> None:
    telegram = FakeTelegram("654321:" + "O" * 35)  # (answers the Bot API's JSON 401 to others)
    await telegram.start()
    try:
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(
                run(_settings(telegram.base_url, tmp_path / "b.sqlite3"), asyncio.Event()), 60
            )
    finally:
        await telegram.stop()
    assert str(caught.value) == (
        "Telegram refused TELEGRAM_BOT_TOKEN: set a valid token from @BotFather in .env"
    )
