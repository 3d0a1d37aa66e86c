"""Configuration from the environment and ``.env`` (pydantic-settings).

Every variable is documented in ``.env.example``. A missing or malformed token is reported in
one line that says what to set (:class:`ConfigError`), never as a traceback.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, urlsplit

from pydantic import (
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = [
    "ConfigError",
    "OutOfReach",
    "Settings",
    "load_settings",
    "parse_shards",
    "platform_warning",
    "split_listen",
    "sqlite_left_warning",
    "unread_variables",
    "unread_warning",
]

#: what a variable's name in an env file is (:func:`unread_variables`)
_VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_TELEGRAM_TOKEN = re.compile(r"^\d{5,12}:[A-Za-z0-9_-]{30,50}$")
_DISCORD_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,40}\.[A-Za-z0-9_-]{4,10}\.[A-Za-z0-9_-]{20,50}$")
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
#: the words a switch (``DECISIONS_IN_PROCESS``, ``DISCORD_MEMBERS_INTENT``) takes for on and
#: for off, in any case, spaces around them dropped; empty is its default. .env.example and
#: README say these (ops44: they said 1 and 0 only)
SWITCH_ON = ("1", "true", "yes", "on")
SWITCH_OFF = ("0", "false", "no", "off")


#: the most ``DISCORD_SHARD_COUNT`` may be (a shard holds up to 2,500 guilds: this is 250
#: million guilds); a range of ``DISCORD_SHARD_IDS`` past it (``0-99999999``)
#: held the start building the set of its numbers
MAX_SHARD_COUNT = 100_000

#: the most Discord shards one process runs of its own (``DISCORD_SHARD_COUNT`` alone, or its
#: ``DISCORD_SHARD_IDS``): discord.py's :class:`~discord.AutoShardedClient` connects a
#: process's shards one after another, each IDENTIFY 5 s after the last (its
#: ``before_identify_hook``), so the last of 16 is up 75 s after the first (of 1,000: 83
#: minutes), and every shard's gateway traffic (up to 2,500 servers each: 40,000 for 16) is read
#: on the one event loop that answers every press. More run as workers, each with its own
#: ``DISCORD_SHARD_IDS`` (docs/operations.md)
MAX_SHARDS_PER_PROCESS = 16

#: the most ``STORAGE_WAIT_SECONDS`` may be: a press is answered within that (a Telegram
#: button's spinner, a Discord interaction deferred after 2 s), so more is no bound at all
MAX_STORAGE_WAIT = 30.0


class ConfigError(Exception):
    """Bad configuration; the message is one line telling what to set. ``python -m bot``
    exits with status 2 (a restart cannot help: the setting must change)."""


class OutOfReach(ConfigError):
    """A :class:`ConfigError` of a start that could not reach a platform or the database
    (the Bot API, Discord, a PostgreSQL server: a network outage at boot, a server still
    starting; an SQLite file another program holds locked for a while); the message is one
    line. ``python -m bot`` exits with status 75
    (``EX_TEMPFAIL``, sysexits.h): a restart later may well succeed, so a service manager
    restarts it, while status 2 (the setting must change) is not restarted."""


class Settings(BaseSettings):
    """The bot's settings.

    :ivar telegram_bot_token: from @BotFather; empty to run without Telegram.
    :ivar telegram_api_base_url: a self-hosted Bot API server, e.g. ``http://127.0.0.1:8081/bot``.
    :ivar discord_bot_token: from the Discord Developer Portal; empty to run without Discord.
    :ivar database_path: the SQLite file (used when ``database_url`` is not set).
    :ivar database_url: a PostgreSQL database (``postgresql://user:password@host:5432/ofc``)
        instead of the SQLite file, for several bot processes on one database (issue 14).
    :ivar log_level: DEBUG, INFO, WARNING or ERROR.
    :ivar telegram_webhook_url: the public HTTPS URL Telegram posts updates to (webhook mode,
        issue 14); empty: polling (the default).
    :ivar telegram_webhook_listen: ``host:port`` the webhook server listens on.
    :ivar telegram_webhook_secret: the secret token Telegram sends with every update
        (``X-Telegram-Bot-Api-Secret-Token``); a request without it is refused. Required
        with a webhook URL: 1–256 characters of ``A-Z a-z 0-9 _ -``.
    :ivar worker_id: this process's name among workers sharing the tables (issue 14); empty:
        one process serving every table.
    :ivar worker_listen: ``host:port`` of the worker's internal endpoint (forwarded updates).
    :ivar worker_address: the URL other processes reach that endpoint at (default
        ``http://<worker_listen>``): an ``http://`` or ``https://`` URL, a trailing slash
        dropped.
    :ivar lease_seconds: how long a worker's table leases and heartbeat last unrenewed: a dead
        worker's tables are taken over within about this time. The same on every worker
        (a takeover reads the dead worker's last renewal as its lease's end less its own).
    :ivar discord_shard_ids: the Discord shards this process runs, e.g. ``0-1`` or ``2,3``
        (empty in one process: every shard of ``discord_shard_count``, or one unsharded
        connection without a count). A worker's are the shards it prefers: it takes them
        when free, and takes over a dead worker's; ``none``: a worker that only takes over.
    :ivar discord_shard_count: the total number of Discord shards: with shard ids, or alone
        in one process, which then runs them all (Discord's close code 4011, "sharding
        required", asks for it: at least one shard per 2,500 servers). A process runs at most
        :data:`MAX_SHARDS_PER_PROCESS` shards of its own (a count alone, or its shard ids;
        more is refused at the start: workers run the rest). ``"auto"``: in one process
        (neither shard ids nor a worker), the count Discord recommends when the bot connects
        (its ``GET /gateway/bot``), every shard of it here, refused at the start past
        :data:`MAX_SHARDS_PER_PROCESS` (fix40f; workers take a count of their own, every
        worker the same: each maps a guild to its shard by it).
    :ivar storage_wait_seconds: how long a press, a command or a timer's step waits for the
        database in all (seconds, more than 0 and at most 30; default 1): then it is answered
        "nothing changed, try again" (:data:`bot.service.runtime.STORAGE_WAIT`). More for a
        far PostgreSQL server whose round trips take a good part of a second.
    :ivar discord_members_intent: ask Discord for the privileged members intent (switch on
        "Server Members Intent" in the Developer Portal first): a member who leaves the
        server or is kicked then leaves its tables; without it only a ban is known.
        A switch: ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off`` (any case,
        :data:`SWITCH_ON`, :data:`SWITCH_OFF`); empty: off.
    :ivar decisions_in_process: the computer players' and "Arrange for me"'s decisions in a
        worker process of their own (on, the default, empty too) or in threads of the bot
        (off); the same words as ``discord_members_intent``.
    """

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr | None = None
    telegram_api_base_url: str | None = None
    discord_bot_token: SecretStr | None = None
    database_path: str = "ofc.sqlite3"
    database_url: SecretStr | None = None
    log_level: str = "INFO"
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0:8443"
    telegram_webhook_secret: SecretStr | None = None
    worker_id: str | None = None
    worker_listen: str = "127.0.0.1:8600"
    worker_address: str | None = None
    lease_seconds: float = 5.0
    storage_wait_seconds: float = 1.0
    discord_shard_ids: str | None = None
    discord_shard_count: int | Literal["auto"] | None = None
    discord_members_intent: bool = False
    decisions_in_process: bool = True

    @field_validator(
        "telegram_bot_token",
        "discord_bot_token",
        "telegram_api_base_url",
        "telegram_webhook_url",
        "telegram_webhook_secret",
        "worker_id",
        "worker_address",
        "discord_shard_ids",
        "discord_shard_count",
        "database_url",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value.strip() if isinstance(value, str) else value

    @field_validator(
        "telegram_webhook_listen",
        "worker_listen",
        "lease_seconds",
        "storage_wait_seconds",
        mode="before",
    )
    @classmethod
    def _empty_is_default(cls, value: object, info: ValidationInfo) -> object:
        """An empty ``TELEGRAM_WEBHOOK_LISTEN=``, ``WORKER_LISTEN=``, ``LEASE_SECONDS=`` or
        ``STORAGE_WAIT_SECONDS=`` is its default, as every other empty variable (nu59: a
        webhook section emptied by an operator who polls stopped the start with
        "TELEGRAM_WEBHOOK_LISTEN: '' is not host:port", an emptied wait with pydantic's
        "Input should be a valid number")."""
        if isinstance(value, str) and not value.strip():
            assert info.field_name is not None
            return cls.model_fields[info.field_name].default
        return value

    @field_validator("database_path", mode="before")
    @classmethod
    def _empty_path_is_default(cls, value: object) -> object:
        """An empty ``DATABASE_PATH=`` is the default file, as every other empty variable
        is its default: SQLite took ``""`` for a temporary database and the start stopped
        with "could not switch the database to WAL (got 'delete')". A leading ``~`` is the
        home folder, as in a shell (``~/ofc/ofc.sqlite3`` was a folder named ``~`` in the
        folder the bot started in). ``:memory:`` is refused: SQLite took it for a database
        in memory, every table and balance gone at the next start. Spaces around it go, as
        ``python -m storage`` strips them (`` ofc.sqlite3`` was a file of that name to the
        bot, `` ~/ofc.sqlite3`` a folder `` ~``, while ``check`` and ``backup`` read
        ``ofc.sqlite3``)."""
        if not isinstance(value, str):
            return value
        value = value.strip()
        if not value:
            return cls.model_fields["database_path"].default
        if value == ":memory:":
            raise ValueError(
                "DATABASE_PATH=:memory: is no file: a bot's database must be a file that "
                "outlives a restart (e.g. ofc.sqlite3)"
            )
        return os.path.expanduser(value)

    @field_validator("telegram_bot_token")
    @classmethod
    def _telegram_format(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _TELEGRAM_TOKEN.match(value.get_secret_value()):
            if _TELEGRAM_TOKEN.match(value.get_secret_value()[3:]):  # (nu59: from a URL)
                raise ValueError(
                    'TELEGRAM_BOT_TOKEN begins with the "bot" of the Bot API\'s URLs: '
                    "write the token alone, digits:secret as @BotFather gave it"
                )
            raise ValueError(
                "TELEGRAM_BOT_TOKEN does not look like a bot token (digits:secret from @BotFather)"
            )
        return value

    @field_validator("discord_bot_token")
    @classmethod
    def _discord_format(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _DISCORD_TOKEN.match(value.get_secret_value()):
            token = value.get_secret_value()
            if _DISCORD_TOKEN.match(token.removeprefix("Bot ").removeprefix("Bot%20")):
                raise ValueError(  # (nu59: an Authorization header's copied)
                    'DISCORD_BOT_TOKEN begins with "Bot ": write the token alone'
                )
            if token.isdigit():
                raise ValueError(
                    "DISCORD_BOT_TOKEN is a number, the application id: the token is on the "
                    "Developer Portal's Bot tab (Reset Token)"
                )
            raise ValueError(
                "DISCORD_BOT_TOKEN does not look like a bot token (copy it from the Developer "
                "Portal, Bot tab)"
            )
        return value

    @field_validator("telegram_api_base_url", "telegram_webhook_url")
    @classmethod
    def _http_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        """An ``http://`` or ``https://`` URL with a host (a URL without its scheme,
        ``127.0.0.1:8081/bot``, stopped the start with "cannot reach the Telegram Bot API
        (aiohttp.NonHttpUrlClientError)"; a webhook's, ``bot.example.com/telegram``, was
        served on that path and registered as is). A webhook may be ``http://`` for a
        self-hosted Bot API server; Telegram's own refuses it (the start says so)."""
        if value is None:
            return value
        try:
            parts = urlsplit(value)
            good = parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
        except ValueError:  # ("http://[::1": no "]")
            good = False
        if good:
            return value
        if info.field_name == "telegram_api_base_url":
            raise ValueError(
                "TELEGRAM_API_BASE_URL must be an http:// or https:// URL of a Bot API server "
                "(e.g. http://127.0.0.1:8081/bot), or empty for Telegram's"
            )
        raise ValueError(
            "TELEGRAM_WEBHOOK_URL must be the public https:// URL Telegram posts updates to "
            "(e.g. https://bot.example.com/telegram), or empty to poll"
        )

    @field_validator("worker_address")
    @classmethod
    def _worker_url(cls, value: str | None) -> str | None:
        """An ``http://`` or ``https://`` URL with a host, its trailing slashes dropped: the
        router and the other workers post to ``<address>/telegram`` (``/discord``,
        ``/private``), and ``http://w1:8600/`` made that ``//telegram``, which the endpoint
        answers 404 (every forward lost); ``w1:8600`` failed every one. One spelling, the
        one the requests are signed for (:func:`bot.cluster.signed_headers`)."""
        if value is None:
            return value
        value = value.strip()
        try:
            parts = urlsplit(value)
            good = parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
        except ValueError:  # ("http://[::1": no "]")
            good = False
        if not good:
            raise ValueError(
                "WORKER_ADDRESS must be the http:// URL the router and the other workers "
                "reach this worker's internal endpoint at (e.g. http://10.0.0.5:8600), or "
                "empty for http://WORKER_LISTEN"
            )
        return value.rstrip("/")

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _secret_format(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _SECRET.match(value.get_secret_value()):
            raise ValueError(
                "TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -"
            )
        return value

    @field_validator("telegram_webhook_listen", "worker_listen")
    @classmethod
    def _listen_format(cls, value: str) -> str:
        split_listen(value)
        return value

    @field_validator("discord_shard_count", mode="before")
    @classmethod
    def _shard_count_auto(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().lower() == "auto":
            return "auto"  # (Auto, AUTO: the same)
        return value

    @field_validator("discord_shard_ids")
    @classmethod
    def _shards_format(cls, value: str | None) -> str | None:
        if value is not None:
            parse_shards(value)
        return value

    @field_validator("decisions_in_process", mode="before")
    @classmethod
    def _switch(cls, value: object) -> object:
        return _read_switch(
            value,
            empty=True,
            refusal="DECISIONS_IN_PROCESS must be 1 (or true, yes, on: decisions in a worker "
            "process, the default) or 0 (or false, no, off: in threads of the bot; not {})",
        )

    @field_validator("discord_members_intent", mode="before")
    @classmethod
    def _members_switch(cls, value: object) -> object:
        return _read_switch(
            value,
            empty=False,
            refusal="DISCORD_MEMBERS_INTENT must be 1 (or true, yes, on: ask for the members "
            "intent, switched on in the Developer Portal) or 0 (or false, no, off: the "
            "default; not {})",
        )

    @field_validator("lease_seconds")
    @classmethod
    def _lease_positive(cls, value: float) -> float:
        if not 1.0 <= value <= 300.0:  # (ops44: the value given, as LOG_LEVEL's refusal)
            raise ValueError(f"LEASE_SECONDS must be between 1 and 300 (not {_given(value)})")
        return value

    @field_validator("storage_wait_seconds")
    @classmethod
    def _storage_wait(cls, value: float) -> float:
        if not 0.0 < value <= MAX_STORAGE_WAIT:  # (nan fails too)
            raise ValueError(
                "STORAGE_WAIT_SECONDS must be a number of seconds above 0 and at most "
                f"{MAX_STORAGE_WAIT:g} (not {_given(value)}; default 1: a press waits that long"
                " for the database)"
            )
        return value

    @model_validator(mode="after")
    def _together(self) -> Settings:
        if self.telegram_webhook_url is not None and self.telegram_webhook_secret is None:
            raise ValueError(
                "TELEGRAM_WEBHOOK_URL needs TELEGRAM_WEBHOOK_SECRET (1-256 characters of "
                "A-Z, a-z, 0-9, _ and -)"
            )
        if (
            self.worker_id is not None
            and self.discord_bot_token is not None
            and self.discord_shard_ids is None
        ):
            raise ValueError(
                "WORKER_ID with DISCORD_BOT_TOKEN needs DISCORD_SHARD_IDS and DISCORD_SHARD_COUNT"
                " (each worker runs its own shards)"
            )
        if self.discord_shard_count == "auto":
            if self.worker_id is not None or self.discord_shard_ids is not None:
                raise ValueError(
                    "DISCORD_SHARD_COUNT=auto is for one process without DISCORD_SHARD_IDS:"
                    " workers each map a guild to its shard by the count, so every worker"
                    " needs the same number (docs/operations.md)"
                )
            return self
        count = self.discord_shard_count
        if count is not None and not 1 <= count <= MAX_SHARD_COUNT:  # (-1 was taken)
            raise ValueError(
                f"DISCORD_SHARD_COUNT must be a number of shards from 1 to {MAX_SHARD_COUNT:,}"
                f" (not {count}; the shards in all: this process runs every one, or with"
                " DISCORD_SHARD_IDS those)"
            )
        if self.discord_shard_ids is not None:
            shards = parse_shards(self.discord_shard_ids)
            if not shards and self.worker_id is None:
                raise ValueError("DISCORD_SHARD_IDS=none is for a worker (with WORKER_ID)")
            if count is None or count < 1 or max(shards, default=0) >= count:
                raise ValueError(
                    "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT greater than every shard id"
                    f" (DISCORD_SHARD_IDS={self.discord_shard_ids} goes up to"
                    f" {max(shards, default=0)}; DISCORD_SHARD_COUNT"
                    f"{' not set' if count is None else f'={count}'})"
                )
        runs = self.shard_ids or []
        if len(runs) > MAX_SHARDS_PER_PROCESS:
            named = (
                f"DISCORD_SHARD_IDS={self.discord_shard_ids} names {len(runs):,} shards"
                if self.discord_shard_ids is not None
                else f"DISCORD_SHARD_COUNT={count} alone runs all {len(runs):,} shards here"
            )
            raise ValueError(
                f"{named}: one process runs at most {MAX_SHARDS_PER_PROCESS} (discord.py connects"
                " them 5 s apart on one event loop); run workers, each with WORKER_ID and"
                f" DISCORD_SHARD_IDS of at most {MAX_SHARDS_PER_PROCESS} (e.g. 0-15, 16-31):"
                " docs/operations.md"
            )
        return self

    @property
    def shard_ids(self) -> list[int] | None:
        """The Discord shard ids this process runs: ``DISCORD_SHARD_IDS``; without them, in
        one process (no ``WORKER_ID``), every shard of ``DISCORD_SHARD_COUNT``
        (``0 … count - 1``, one :class:`discord.AutoShardedClient` connecting each);
        ``None``: neither set (one unsharded connection: every guild, while Discord allows
        it), a count of ``auto`` (known once connected), or a worker without Discord. A
        count without shard ids was read by no one: the process ran one unsharded
        connection, and a bot Discord requires to shard (close code 4011) could not start
        without ids the README called "empty: every shard"."""
        if self.discord_shard_ids is not None:
            return parse_shards(self.discord_shard_ids)
        count = self.shard_count
        if count is not None and self.worker_id is None:
            return list(range(count))
        return None

    @property
    def shard_count(self) -> int | None:
        """``DISCORD_SHARD_COUNT`` as a number; ``None``: not set, or ``auto`` (Discord's
        recommended count, known once the bot connects)."""
        count = self.discord_shard_count
        return count if isinstance(count, int) else None

    @property
    def worker_url(self) -> str:
        """Where other processes reach this worker's internal endpoint."""
        return self.worker_address or f"http://{self.worker_listen}"

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
        if value is not None:
            try:  # (a port that is no number, "[::1" without "]": tracebacks at the start)
                pg_servers(value.get_secret_value())  # (each server's port read: checked)
            except ValueError:
                raise ValueError(
                    "DATABASE_URL is malformed: its host or port cannot be read (it is "
                    "postgresql://user:password@host:5432/db, a password's / ? # @ written "
                    "%2F %3F %23 %40)"
                ) from None
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _empty_level_is_default(cls, value: object) -> object:
        """An empty ``LOG_LEVEL=`` is the default, ``INFO``, as every other empty variable
        is its default (it was refused: "LOG_LEVEL must be one of …")."""
        if isinstance(value, str) and not value.strip():
            return cls.model_fields["log_level"].default
        return value.strip() if isinstance(value, str) else value

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.upper()
        if level not in _LEVELS:
            # (opsnu43: the value given, "WARN" say, which the line did not show)
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)} (not {value})")
        return level

    def secrets(self) -> list[str]:
        """The configured tokens and the database password (for the log filter that redacts
        them)."""
        tokens = (self.telegram_bot_token, self.discord_bot_token, self.telegram_webhook_secret)
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


def _read_switch(value: object, *, empty: bool, refusal: str) -> object:
    """A switch's value as written in the environment: a word of :data:`SWITCH_ON` or
    :data:`SWITCH_OFF` (any case, spaces around it dropped) as ``True`` / ``False``, ``""``
    as ``empty`` (its default); anything not a string as it is (pydantic reads it).

    :raises ValueError: another word: ``refusal`` with the word given in its ``{}``."""
    if not isinstance(value, str):
        return value
    word = value.strip().lower()
    if word in SWITCH_ON:
        return True
    if word in SWITCH_OFF:
        return False
    if not word:
        return empty
    raise ValueError(refusal.format(value.strip()))


def _given(value: float) -> str:
    """A number of seconds as an operator wrote it, for a refusal's ``(not X)``: ``1000``,
    ``0.5``, ``300.0001``, ``nan``, ``inf`` (``:g`` made 300.0000001 "300", a refusal of
    300 with a bound of 300)."""
    return repr(value).removesuffix(".0")


def pg_servers(url: str) -> list[str]:
    """The servers a PostgreSQL ``url`` names, in order, each ``host`` or ``host:port``: one,
    or libpq's list that asyncpg takes too, ``postgresql://u:pw@db1:5432,db2:5432/ofc`` (the
    first that answers); without a host, the unix socket folder of ``?host=``, else
    ``localhost``. ``urlsplit(url).port`` refused a list ("DATABASE_URL is malformed").

    :raises ValueError: a port that is no number or past 65535, an IPv6 address without its
        ``]`` (the bot's start, asyncpg's connect: tracebacks)."""
    parts = urlsplit(url)
    hosts = parts.netloc.rpartition("@")[2]
    if not hosts:
        return [parse_qs(parts.query).get("host", ["localhost"])[0]]
    servers = []
    for host in hosts.split(","):
        one = urlsplit(f"//{host}")
        port = one.port  # (reading it checks it)
        name = one.hostname or "localhost"
        servers.append(name if port is None else f"{name}:{port}")
    return servers


def split_listen(value: str) -> tuple[str, int]:
    """``"host:port"`` → ``(host, port)``. :raises ValueError: when it is not one."""
    host, sep, port = value.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{value!r} is not host:port (e.g. 127.0.0.1:8443)")
    return host.strip("[]"), int(port)


def parse_shards(value: str) -> list[int]:
    """``"0-2,5"`` → ``[0, 1, 2, 5]``; ``"none"`` → ``[]`` (a worker that runs no shard of
    its own and only takes over others', issue 14). :raises ValueError: on anything else."""
    if value.strip().lower() == "none":
        return []
    shards: set[int] = set()
    for part in value.split(","):
        low, sep, high = part.strip().partition("-")
        if not low.isdigit() or (sep and not high.isdigit()):
            raise ValueError(
                "DISCORD_SHARD_IDS is shard numbers and ranges, e.g. 0-1 or 2,3, or none"
                f" (not {value.strip()[:40]!r})"
            )
        shards.update(range(_shard_bound(low), _shard_bound(high if sep else low) + 1))
    if not shards:  # (a range from high to low: 3-1)
        raise ValueError(
            "DISCORD_SHARD_IDS is shard numbers and ranges, e.g. 0-1 or 2,3"
            f" (not {value.strip()[:40]!r})"
        )
    return sorted(shards)


def _shard_bound(part: str) -> int:
    """One end of a ``DISCORD_SHARD_IDS`` range. :raises ValueError: past the most shards."""
    number = int(part)
    if number >= MAX_SHARD_COUNT:
        raise ValueError(
            "DISCORD_SHARD_IDS: shard ids are below DISCORD_SHARD_COUNT "
            f"(at most {MAX_SHARD_COUNT:,}; not {number})"
        )
    return number


def load_settings(env_file: str | None = ".env", *, tokens: bool = True) -> Settings:
    """Read the settings. With ``tokens=False`` (the sandbox) both tokens are ignored, whatever
    ``.env`` or the environment holds, malformed ones included (issue 12).

    :raises ConfigError: with one line naming the variable to fix, or ``env_file`` when it
        cannot be read (not UTF-8, no permission).
    """
    ignored: dict[str, None] = (
        {} if tokens else {"telegram_bot_token": None, "discord_bot_token": None}
    )
    try:
        return Settings(_env_file=env_file, **ignored)  # type: ignore[call-arg, arg-type]
    except UnicodeDecodeError:  # (a traceback: an editor's UTF-16, a Latin-1 character)
        raise ConfigError(
            f"cannot read {env_file}: it is not UTF-8 text (save it as UTF-8)"
        ) from None
    except OSError as exc:  # (a traceback: no permission to read it)
        raise ConfigError(f"cannot read {env_file}: {exc.strerror or exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        message = str(first.get("msg", "invalid setting")).removeprefix("Value error, ")
        # pydantic's own refusals ("Input should be a valid number") and the host:port
        # check (two variables take one) do not say which variable: the line names it
        loc = first.get("loc") or ()
        name = str(loc[0]).upper() if loc else ""
        if name and first.get("type") in ("int_parsing", "float_parsing"):
            # (pydantic's "Input should be a valid number, unable to parse string as a
            # number" named neither the value nor the form: a decimal comma, "1,5")
            whole = first["type"] == "int_parsing"
            message = f"{name}={first.get('input')} is not a " + (
                "whole number" + (" (or auto)" if name == "DISCORD_SHARD_COUNT" else "")
                if whole
                else "number (a fraction is written with a point: 1.5)"
            )
        if name and name not in message:
            message = f"{name}: {message}"
        raise ConfigError(message) from None


def unread_variables(env_file: str) -> list[str]:
    """The variables ``env_file`` sets that are no setting of :class:`Settings`, which the bot
    ignores, each with the setting of a name close to it: ``["TELEGRAM_TOKEN
    (TELEGRAM_BOT_TOKEN?)"]``. A misspelt ``DATABASE_URL`` ran the bot on the SQLite file,
    a misspelt token started the sandbox, and nothing said why (nu59). Lines that are no
    ``NAME=value`` (a token pasted alone, ``NAME:value``) are counted, never quoted: what
    python-dotenv takes for their name may be a secret (rev42: the warning printed a bot
    token). Empty when the file is not there or cannot be read (:func:`load_settings` says
    so)."""
    from dotenv import dotenv_values

    try:
        keys = dotenv_values(env_file, encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    known = [name.upper() for name in Settings.model_fields]
    unread = []
    odd = 0  # (lines with no variable's name: not quoted)
    for key in keys:
        if not _VARIABLE_NAME.match(key):
            odd += 1
            continue
        if key.upper() in known:
            continue
        close = difflib.get_close_matches(key.upper(), known, n=1)
        unread.append(f"{key} ({close[0]}?)" if close else key)
    if odd:
        unread.append(
            "a line that is no NAME=value" if odd == 1 else f"{odd} lines that are no NAME=value"
        )
    return unread


def unread_warning(env_file: str) -> str | None:
    """The ``warning:`` line for the variables of ``env_file`` the bot does not read
    (:func:`unread_variables`), ``None`` when there are none: written to standard error by
    the bot's start and by ``python -m storage`` without ``--db`` (a misspelt
    ``DATABASE_URL`` checked the SQLite file, without a word; ops42)."""
    unread = unread_variables(env_file)
    if not unread:
        return None
    return (
        f"warning: {env_file} sets {', '.join(unread)}, which the bot does not read "
        "(README's Configuration lists the variables it reads)"
    )


#: the settings each platform alone reads, by its token's variable (:func:`platform_warning`)
_PLATFORM_ONLY = {
    "DISCORD_BOT_TOKEN": ("discord_shard_ids", "discord_shard_count", "discord_members_intent"),
    "TELEGRAM_BOT_TOKEN": (
        "telegram_api_base_url",
        "telegram_webhook_url",
        "telegram_webhook_listen",
        "telegram_webhook_secret",
    ),
}


def platform_warning(settings: Settings) -> str | None:
    """The ``warning:`` line for the settings of a platform whose token is not set, which
    nothing reads, ``None`` when there are none: ``"warning: DISCORD_SHARD_COUNT set but no
    DISCORD_BOT_TOKEN: ignored"`` (both platforms' in the one line, ``; `` between). A
    setting is set when it differs from its default (``DISCORD_MEMBERS_INTENT=0`` and
    .env.example's ``TELEGRAM_WEBHOOK_LISTEN=0.0.0.0:8443`` are not). Written to standard
    error by the bot's start beside :func:`unread_warning` (ops44: a shard count or a webhook
    without its token was dropped without a word)."""
    parts = []
    for token, fields in _PLATFORM_ONLY.items():
        if getattr(settings, token.lower()) is not None:
            continue
        named = [
            name.upper()
            for name in fields
            if getattr(settings, name) != Settings.model_fields[name].default
        ]
        if named:
            parts.append(f"{', '.join(named)} set but no {token}: ignored")
    return f"warning: {'; '.join(parts)}" if parts else None


def sqlite_left_warning(settings: Settings) -> str | None:
    """The ``warning:`` line for an SQLite file ``DATABASE_URL`` leaves behind, ``None`` when
    there is none: with ``DATABASE_URL`` set, the file ``DATABASE_PATH`` names (default
    ``ofc.sqlite3``) exists and holds players or open tables, which the bot does not read
    (an operator moving to PostgreSQL saw only "0 open table(s) restored", every group's
    balances started afresh). The file is read read-only (:func:`storage.sqlite.peek_holdings`:
    never made, written or locked); one it cannot read gets no line. Written to standard
    error by the bot's start beside :func:`platform_warning` (not the sandbox's, which has a
    file of its own)."""
    if settings.database_url is None:
        return None
    from storage.sqlite import peek_holdings

    held = peek_holdings(settings.database_path)
    if held is None or held == (0, 0):
        return None
    players, tables = held
    return (
        f"warning: DATABASE_URL is set, so the SQLite file {Path(settings.database_path).resolve()}"
        f" (DATABASE_PATH) is not used: its {players} player(s) and {tables} open table(s) stay"
        ' there (docs/operations.md, "From SQLite to PostgreSQL")'
    )
