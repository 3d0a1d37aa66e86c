"""Configuration from the environment and ``.env`` (pydantic-settings).

Every variable is documented in ``.env.example``. A missing or malformed token is reported in
one line that says what to set (:class:`ConfigError`), never as a traceback.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from pydantic import SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["ConfigError", "Settings", "load_settings"]

_TELEGRAM_TOKEN = re.compile(r"^\d{5,12}:[A-Za-z0-9_-]{30,50}$")
_DISCORD_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,40}\.[A-Za-z0-9_-]{4,10}\.[A-Za-z0-9_-]{20,50}$")
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """Bad configuration; the message is one line telling what to set."""


class Settings(BaseSettings):
    """The bot's settings.

    :ivar telegram_bot_token: from @BotFather; empty to run without Telegram.
    :ivar telegram_api_base_url: a self-hosted Bot API server, e.g. ``http://127.0.0.1:8081/bot``.
    :ivar discord_bot_token: from the Discord Developer Portal; empty to run without Discord.
    :ivar database_path: the SQLite file (used when ``database_url`` is not set).
    :ivar database_url: a PostgreSQL database (``postgresql://user:password@host:5432/ofc``)
        instead of the SQLite file, for several bot processes on one database (issue 14).
    :ivar log_level: DEBUG, INFO, WARNING or ERROR.
    """

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr | None = None
    telegram_api_base_url: str | None = None
    discord_bot_token: SecretStr | None = None
    database_path: str = "ofc.sqlite3"
    database_url: SecretStr | None = None
    log_level: str = "INFO"

    @field_validator(
        "telegram_bot_token",
        "discord_bot_token",
        "telegram_api_base_url",
        "database_url",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value.strip() if isinstance(value, str) else value

    @field_validator("telegram_bot_token")
    @classmethod
    def _telegram_format(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _TELEGRAM_TOKEN.match(value.get_secret_value()):
            raise ValueError(
                "TELEGRAM_BOT_TOKEN does not look like a bot token (digits:secret from @BotFather)"
            )
        return value

    @field_validator("discord_bot_token")
    @classmethod
    def _discord_format(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _DISCORD_TOKEN.match(value.get_secret_value()):
            raise ValueError(
                "DISCORD_BOT_TOKEN does not look like a bot token (copy it from the Developer "
                "Portal, Bot tab)"
            )
        return value

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(
            ("postgresql://", "postgres://")
        ):
            raise ValueError(
                "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:5432/db);"
                " leave it empty to use the SQLite file of DATABASE_PATH"
            )
        return value

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.upper()
        if level not in _LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)}")
        return level

    def secrets(self) -> list[str]:
        """The configured tokens and the database password (for the log filter that redacts
        them)."""
        tokens = (self.telegram_bot_token, self.discord_bot_token)
        found = [t.get_secret_value() for t in tokens if t is not None]
        if self.database_url is not None:
            url = self.database_url.get_secret_value()
            found.append(url)
            password = urlsplit(url).password
            if password and len(password) >= 6:  # shorter ones would mangle ordinary words
                found.append(password)
        return found

    @property
    def has_token(self) -> bool:
        """Whether at least one platform is configured."""
        return self.telegram_bot_token is not None or self.discord_bot_token is not None


def load_settings(env_file: str | None = ".env", *, tokens: bool = True) -> Settings:
    """Read the settings. With ``tokens=False`` (the sandbox) both tokens are ignored, whatever
    ``.env`` or the environment holds, malformed ones included (issue 12).

    :raises ConfigError: with one line naming the variable to fix.
    """
    ignored: dict[str, None] = (
        {} if tokens else {"telegram_bot_token": None, "discord_bot_token": None}
    )
    try:
        return Settings(_env_file=env_file, **ignored)  # type: ignore[call-arg, arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        message = str(first.get("msg", "invalid setting")).removeprefix("Value error, ")
        raise ConfigError(message) from None
