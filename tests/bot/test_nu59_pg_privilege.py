"""A newcomer's PostgreSQL database made by another role than ``DATABASE_URL``'s (nu59):
PostgreSQL 15 and later give such a role no CREATE in schema ``public``, and the start
said "PostgreSQL error: permission denied for schema public: check DATABASE_URL in .env",
the URL being right. The line now says what to grant, naming the role and the database."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest
from pydantic import SecretStr

from bot.app import _postgres_refused, run
from bot.config import ConfigError, Settings
from storage.api import StorageError

TG_TOKEN = "123456:" + "T" * 35


def _settings(url: str, tmp_path: Path | None = None) -> Settings:
    return Settings(
        telegram_bot_token=SecretStr(TG_TOKEN),
        database_path=str((tmp_path or Path(".")) / "ofc.sqlite3"),
        database_url=SecretStr(url),
        _env_file=None,  # type: ignore[call-arg]
    )


def test_the_advice_names_the_role_and_the_database() -> None:
    refused = StorageError("PostgreSQL error: permission denied for schema public")
    refused.__cause__ = asyncpg.exceptions.InsufficientPrivilegeError(
        "permission denied for schema public"
    )
    line = str(_postgres_refused(_settings("postgresql://ofc:s3cret@db:5432/ofcdb"), refused))
    assert line == (
        "PostgreSQL error: permission denied for schema public: the role ofc may not create "
        "the bot's tables there: make it the database's owner (ALTER DATABASE ofcdb OWNER TO "
        "ofc; since PostgreSQL 15 only the owner creates in schema public unless granted), or "
        "GRANT CREATE ON SCHEMA public TO ofc"
    )
    # another refusal keeps the old advice
    other = StorageError("PostgreSQL error: something else")
    other.__cause__ = asyncpg.exceptions.PostgresError("something else")
    line = str(_postgres_refused(_settings("postgresql://ofc:s3cret@db/ofcdb"), other))
    assert line == "PostgreSQL error: something else: check DATABASE_URL in .env"


async def test_a_role_that_may_not_create_is_told_what_to_grant(tmp_path: Path) -> None:
    """On the tests' server: a role with USAGE but no CREATE on its schema."""
    from tests.pg import _admin, fresh_database

    role = f"nu59_{os.getpid()}"
    async with fresh_database() as url:
        schema = url.rpartition("search_path=")[2]
        await _admin(f"CREATE ROLE {role} LOGIN")
        try:
            await _admin(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
            parts = urlsplit(url)
            as_role = urlunsplit(parts._replace(netloc=f"{role}@{parts.netloc.rpartition('@')[2]}"))
            with pytest.raises(ConfigError) as caught:
                await asyncio.wait_for(run(_settings(as_role, tmp_path), asyncio.Event()), 60)
        finally:
            await _admin(f"REVOKE ALL ON SCHEMA {schema} FROM {role}")
            await _admin(f"DROP ROLE {role}")
    line = str(caught.value)
    assert line.startswith(f"PostgreSQL error: permission denied for schema {schema}: "), line
    assert line.endswith(f"GRANT CREATE ON SCHEMA {schema} TO {role}"), line  # (its search_path)
    assert f"the role {role} may not create the bot's tables there" in line
    assert not (tmp_path / "ofc.sqlite3").exists()
