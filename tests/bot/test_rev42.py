"""rev42's review of the day's merged work: a password with an unescaped ``/``, ``?`` or
``#`` cuts a ``DATABASE_URL``'s netloc short, and the part after it was read as hosts or
the database: nu59's "(hosts …)" and "ALTER DATABASE …" lines printed a piece of the
password; nu59's warning of the variables the bot does not read quoted a token pasted on
a line of its own."""

from __future__ import annotations

import socket
from pathlib import Path

import asyncpg
from pydantic import SecretStr

from bot.app import _postgres_refused
from bot.config import Settings, unread_variables
from storage.api import StorageError
from storage.postgres import unreachable, url_hosts

TG_TOKEN = "123456:" + "T" * 35
TOKEN_LINE = "654321:" + "S" * 35
CUT = [  # (each passes the settings' check: what precedes the cut reads as host:port)
    "postgresql://ofc:1,secret/y@db/ofc",
    "postgresql://ofc:5432/secret@db/ofc",
    "postgresql://ofc:5432?secret@db/ofc",
    "postgresql://ofc:5432#secret@db/ofc",
]


def test_a_password_that_cuts_the_netloc_names_no_host() -> None:
    for url in CUT:
        assert url_hosts(url) == [], url
        said = str(unreachable(socket.gaierror(-2, "Name or service not known"), url))
        assert said == "cannot connect to PostgreSQL: [Errno -2] Name or service not known"
    # an unescaped @ alone still names the host after the last one
    assert url_hosts("postgresql://ofc:p@ss@db.example/ofc") == ["db.example"]


def test_a_password_that_cuts_the_netloc_is_not_named_the_database() -> None:
    refused = StorageError("PostgreSQL error: permission denied for schema public")
    refused.__cause__ = asyncpg.exceptions.InsufficientPrivilegeError("permission denied")
    for url in CUT:
        settings = Settings(
            telegram_bot_token=SecretStr(TG_TOKEN),
            database_url=SecretStr(url),
            _env_file=None,  # type: ignore[call-arg]
        )
        line = str(_postgres_refused(settings, refused))
        assert "secret" not in line, line
        assert "ALTER DATABASE <database> OWNER TO <role>" in line


def test_a_line_that_is_no_variable_is_not_quoted(tmp_path: Path) -> None:
    """A token pasted on a line of its own (no ``NAME=``) was read by python-dotenv as a
    variable's name, and nu59's warning printed it: "sets 123456:TTT…, which the bot does
    not read". Such a line is counted, never quoted."""
    env = tmp_path / ".env"
    env.write_text(
        f"TELEGRAM_BOT_TOKEN=\n{TOKEN_LINE}\nDISCORD_BOT_TOKEN:abc.def.secret\nTELEGRAM_TOKEN=x\n"
    )
    unread = unread_variables(str(env))
    assert unread == ["TELEGRAM_TOKEN (TELEGRAM_BOT_TOKEN?)", "2 lines that are no NAME=value"]
    env.write_text(f"{TOKEN_LINE}\n")
    assert unread_variables(str(env)) == ["a line that is no NAME=value"]
