"""An operator's first deployment (ops42): settings that stopped the start with a traceback,
held it, or were taken as they were, each now one line naming the variable."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from storage.__main__ import main as storage_main
from tests.bot.test_config import run_bot

TOKEN = "123456:" + "A" * 35


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://ofc:s3cret-pass@127.0.0.1:notaport/ofc",  # a port that is no number
        "postgresql://ofc:s3cret-pass@[::1/ofc",  # IPv6 without its ]
        "postgresql://ofc:s3cret-pass@db:99999/ofc",  # a port past 65535
    ],
)
def test_a_malformed_database_url_is_one_line_without_the_password(
    tmp_path: Path, url: str
) -> None:
    """A traceback ending in ``ValueError: invalid literal for int()`` (asyncpg's) or
    ``Invalid IPv6 URL`` (the log filter's look for the password)."""
    proc = run_bot({"TELEGRAM_BOT_TOKEN": TOKEN, "DATABASE_URL": url}, tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: DATABASE_URL is malformed: its host or port cannot")
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "s3cret-pass" not in proc.stderr and "Traceback" not in proc.stderr


def test_the_check_of_a_malformed_database_url_is_one_line_without_the_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m storage check --db URL`` (or the bot's DATABASE_URL): the same tracebacks."""
    for url, said in (
        ("postgresql://ofc:s3cret-pass@127.0.0.1:notaport/ofc", "invalid literal for int()"),
        ("postgresql://ofc:s3cret-pass@[::1/ofc", "Invalid IPv6 URL"),
    ):
        assert storage_main(["check", "--db", url]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(
            "error: cannot connect to PostgreSQL: the URL is malformed ("
        ), err
        assert said in err and "s3cret-pass" not in err and len(err.splitlines()) == 1


async def test_postgres_store_open_of_a_malformed_url_is_a_storage_error() -> None:
    from storage.api import StorageError
    from storage.postgres import PostgresStore

    with pytest.raises(StorageError) as caught:
        await asyncio.wait_for(PostgresStore.open("postgresql://u:s3cret-pass@h:5x/db"), 30)
    assert str(caught.value) == (
        "cannot connect to PostgreSQL: the URL is malformed "
        "(invalid literal for int() with base 10: '5x')"
    )


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("DISCORD_SHARD_COUNT", "-1", "DISCORD_SHARD_COUNT must be a number of shards from 1"),
        ("DISCORD_SHARD_COUNT", "0", "DISCORD_SHARD_COUNT must be a number of shards from 1"),
        (
            "DISCORD_SHARD_COUNT",
            "99999999999999999999",
            "DISCORD_SHARD_COUNT must be a number of shards from 1",
        ),
        # (it built a set of a hundred million shard ids: the start held for minutes)
        ("DISCORD_SHARD_IDS", "0-99999999", "DISCORD_SHARD_IDS: shard ids are below"),
    ],
)
def test_a_shard_count_or_id_past_the_bounds_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    monkeypatch.setenv(name, value)
    if name == "DISCORD_SHARD_IDS":
        monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    with pytest.raises(ConfigError) as caught:
        load_settings(str(tmp_path / "none.env"), tokens=False)
    assert str(caught.value).startswith(said), caught.value


def test_an_empty_database_path_is_the_default_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``DATABASE_PATH=`` (blanked in .env) stopped the start with "cannot open the SQLite
    database  (could not switch the database to WAL (got 'delete'))": SQLite's temporary
    database. Empty is the default, as for every other variable; ``storage check`` reads
    the same file."""
    monkeypatch.setenv("DATABASE_PATH", "  ")
    assert load_settings(str(tmp_path / "none.env"), tokens=False).database_path == "ofc.sqlite3"
    monkeypatch.chdir(tmp_path)
    assert storage_main(["check"]) == 2  # none yet (no .env there either)
    assert capsys.readouterr().err == (  # (was "."; opsnu43: which setting, from where)
        "error: no database file at ofc.sqlite3 (DATABASE_PATH's default, relative to this "
        f"folder, {tmp_path}): run this in the folder the bot starts in, or name the file "
        "with --db\n"
    )


def test_an_env_file_that_is_not_utf8_or_cannot_be_read_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A .env saved as UTF-16 (Windows Notepad's "Unicode") was a traceback ending in
    ``UnicodeDecodeError``, for the bot and for ``python -m storage check``."""
    env = tmp_path / ".env"
    env.write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\n", encoding="utf-16")
    with pytest.raises(ConfigError) as caught:
        load_settings(str(env))
    assert str(caught.value) == f"cannot read {env}: it is not UTF-8 text (save it as UTF-8)"
    assert storage_main(["check", "--env-file", str(env)]) == 2
    assert capsys.readouterr().err == (
        f"error: cannot read {env}: it is not UTF-8 text (save it as UTF-8)\n"
    )
    # one the bot's user may not read (as root, every file can be read: the refusal is faked)
    env.write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\n", encoding="utf-8")
    real_open = open

    def refused(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == str(env):
            raise PermissionError(13, "Permission denied", str(env))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", refused)
    with pytest.raises(ConfigError) as caught:
        load_settings(str(env))
    assert str(caught.value) == f"cannot read {env}: Permission denied"
