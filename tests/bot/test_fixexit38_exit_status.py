"""fixexit38: exit status 2 mixed configuration errors (a restart cannot help) with a
platform or database out of reach at the start (a network outage at boot: a restart later
helps), and docs/operations.md's ``RestartPreventExitStatus=2`` left the bot down for good
after such an outage. Out of reach is now :class:`bot.config.OutOfReach`, exit status 75
(``EX_TEMPFAIL``); a setting or token to change stays 2."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import asyncpg
import discord
import pytest
from pydantic import SecretStr
from telegram.error import BadRequest

from bot import __main__ as entry
from bot.app import DatabaseTaken, DiscordEnded, TokenTaken, _postgres_refused, run
from bot.config import ConfigError, OutOfReach, Settings
from bot.discord import DiscordAdapter
from storage.api import StorageError, StorageUnreachable
from storage.postgres import unreachable

DC_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27
TG_TOKEN = "123456:" + "T" * 35


def _exit_status(error: BaseException | None) -> int:
    """``python -m bot``'s exit status for a run that raised ``error`` (``None``: none)."""

    async def main() -> None:
        if error is not None:
            raise error

    return entry._run(main())


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (None, 0),
        (ConfigError("Telegram refused TELEGRAM_BOT_TOKEN: …"), 2),
        (OutOfReach("cannot reach Discord (OSError): check the network"), 75),
        (DatabaseTaken("lost the lock …"), 2),
        (TokenTaken("another process …"), 2),
        (DiscordEnded("Discord is no longer served: …"), 2),
    ],
)
def test_each_kind_has_its_exit_status(
    error: BaseException | None, status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _exit_status(error) == status
    said = capsys.readouterr().err
    if isinstance(error, ConfigError):  # (the others' line was logged when they stopped)
        assert said == f"error: {error}\n"
    else:
        assert said == ""
    assert entry.EX_TEMPFAIL == 75


def _discord_settings(tmp_path: Path) -> Settings:
    return Settings(
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.mark.parametrize(
    ("error", "name"),
    [
        (OSError("Connect call failed"), "OSError"),
        (TimeoutError(), "TimeoutError"),
        (
            discord.DiscordServerError(SimpleNamespace(status=503, reason="Unavailable"), "down"),
            "discord.DiscordServerError",  # (fix39a: named as Telegram's line names httpx's)
        ),
    ],
)
async def test_discord_out_of_reach_at_the_start_is_out_of_reach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException, name: str
) -> None:
    async def start(self: DiscordAdapter, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(DiscordAdapter, "start", start)
    with pytest.raises(OutOfReach) as caught:
        await asyncio.wait_for(run(_discord_settings(tmp_path), asyncio.Event()), 60)
    assert str(caught.value) == f"cannot reach Discord ({name}): check the network"


async def test_discord_refusing_the_token_at_the_start_stays_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def start(self: DiscordAdapter, **kwargs: object) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(DiscordAdapter, "start", start)
    with pytest.raises(ConfigError) as caught:
        await asyncio.wait_for(run(_discord_settings(tmp_path), asyncio.Event()), 60)
    assert type(caught.value) is ConfigError
    assert str(caught.value).startswith("Discord refused DISCORD_BOT_TOKEN")


async def test_the_bot_api_out_of_reach_is_out_of_reach(tmp_path: Path) -> None:
    settings = Settings(
        telegram_bot_token=SecretStr(TG_TOKEN),
        telegram_api_base_url="http://127.0.0.1:9/bot",  # nothing listens there
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    with pytest.raises(OutOfReach) as caught:
        await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    assert str(caught.value).startswith("cannot reach the Telegram Bot API (")


async def test_the_bot_api_refusing_a_request_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``BadRequest`` is one of python-telegram-bot's ``NetworkError``: the Bot API answered
    and refused, which a restart does not mend (it said "cannot reach")."""
    from bot.telegram import TelegramAdapter

    async def start(self: TelegramAdapter, **kwargs: object) -> None:
        raise BadRequest("Bad Request: chat not found")

    monkeypatch.setattr(TelegramAdapter, "start", start)
    settings = Settings(
        telegram_bot_token=SecretStr(TG_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    with pytest.raises(ConfigError) as caught:
        await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    assert type(caught.value) is ConfigError
    assert str(caught.value) == (
        "the Telegram Bot API refused the start (Chat not found): check TELEGRAM_API_BASE_URL "
        "in .env"
    )


@pytest.mark.parametrize(
    ("error", "temporary"),
    [
        (ConnectionRefusedError(111, "Connection refused"), True),
        (TimeoutError(), True),
        (OSError(-2, "Name or service not known"), True),  # (socket.gaierror is an OSError)
        (asyncpg.exceptions.CannotConnectNowError("the database system is starting up"), True),
        (asyncpg.exceptions.TooManyConnectionsError("sorry, too many clients already"), True),
        (
            asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator"),
            True,
        ),
        (
            asyncpg.exceptions.CrashShutdownError(
                "terminating connection: another process crashed"
            ),
            True,
        ),
        (asyncpg.exceptions.InvalidPasswordError("password authentication failed"), False),
        (asyncpg.exceptions.InvalidCatalogNameError('database "ofc" does not exist'), False),
    ],
)
def test_postgresql_out_of_reach_or_refusing(error: BaseException, temporary: bool) -> None:
    failed = unreachable(error)
    assert isinstance(failed, StorageError)
    assert isinstance(failed, StorageUnreachable) is temporary
    settings = Settings(
        database_url=SecretStr("postgresql://ofc:pw@db:5432/ofc"),
        _env_file=None,  # type: ignore[call-arg]
    )
    line = _postgres_refused(settings, failed)
    assert type(line) is (OutOfReach if temporary else ConfigError)
    assert str(line).startswith("cannot connect to PostgreSQL: ")
    assert str(line).endswith(": check DATABASE_URL in .env")


async def test_a_postgresql_database_that_does_not_exist_stays_a_configuration_error(
    tmp_path: Path,
) -> None:
    """A server that answers and refuses (here: no such database) is no outage: status 2."""
    from urllib.parse import urlsplit, urlunsplit

    from tests.pg import fresh_database

    async with fresh_database() as url:
        parts = urlsplit(url)
        missing = urlunsplit(parts._replace(path="/no_such_database_fixexit38"))
        settings = Settings(
            telegram_bot_token=SecretStr(TG_TOKEN),
            database_path=str(tmp_path / "ofc.sqlite3"),
            database_url=SecretStr(missing),
            _env_file=None,  # type: ignore[call-arg]
        )
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    assert type(caught.value) is ConfigError
    assert 'database "no_such_database_fixexit38" does not exist' in str(caught.value)
    assert str(caught.value).endswith(": check DATABASE_URL in .env")


async def test_the_bot_api_out_of_reach_when_updates_start_is_out_of_reach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Bot API lost between ``getMe`` and the updates' start (polling's
    ``deleteWebhook``, the webhook's ``setWebhook``): it escaped as python-telegram-bot's
    ``NetworkError`` (a traceback, exit status 1), not the start's one line."""
    from telegram.error import NetworkError

    from bot.telegram import TelegramAdapter
    from bot.telegram.fake_api import FakeTelegram

    async def start_polling(self: TelegramAdapter, poll_interval: float = 0.0) -> None:
        raise NetworkError("httpx.ConnectError: All connection attempts failed")

    monkeypatch.setattr(TelegramAdapter, "start_polling", start_polling)
    telegram = FakeTelegram(TG_TOKEN)
    await telegram.start()
    try:
        settings = Settings(
            telegram_bot_token=SecretStr(TG_TOKEN),
            telegram_api_base_url=telegram.base_url,
            database_path=str(tmp_path / "ofc.sqlite3"),
            _env_file=None,  # type: ignore[call-arg]
        )
        with pytest.raises(OutOfReach) as caught:
            await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    finally:
        await telegram.stop()
    assert str(caught.value) == (
        "cannot reach the Telegram Bot API (httpx.ConnectError): check the network, or "
        "TELEGRAM_API_BASE_URL in .env"
    )
