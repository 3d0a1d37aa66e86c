"""Configuration: a missing or invalid token is one line that says what to set (issue 4)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings
from bot.telegram.fake_api import DEFAULT_TOKEN, FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


def base_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}


def run_bot(
    env: dict[str, str], tmp: Path, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    clean = base_env()
    clean.update(env)
    clean["DATABASE_PATH"] = str(tmp / "ofc.sqlite3")
    return subprocess.run(
        [sys.executable, "-m", "bot"],  # (no .env in tmp)
        env=clean, capture_output=True, text=True, timeout=timeout, cwd=tmp,
    )  # fmt: skip


def test_malformed_token_is_one_line(tmp_path: Path) -> None:
    proc = run_bot({"TELEGRAM_BOT_TOKEN": "not-a-token"}, tmp_path)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "TELEGRAM_BOT_TOKEN" in lines[0]
    assert "Traceback" not in proc.stderr


def test_bad_discord_token_and_log_level_are_one_line(tmp_path: Path) -> None:
    proc = run_bot({"DISCORD_BOT_TOKEN": "x.y.z"}, tmp_path)
    assert proc.returncode == 2 and "DISCORD_BOT_TOKEN" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = run_bot({"TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35, "LOG_LEVEL": "loud"}, tmp_path)
    assert proc.returncode == 2 and "LOG_LEVEL" in proc.stderr


async def test_token_refused_by_the_server_is_one_line(tmp_path: Path) -> None:
    fake = FakeTelegram("999999:" + "B" * 35)
    await fake.start()
    try:
        import asyncio

        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot",  # (no .env in tmp_path)
            env={
                **base_env(),
                "TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35,
                "TELEGRAM_API_BASE_URL": fake.base_url,
                "DATABASE_PATH": str(tmp_path / "ofc.sqlite3"),
            },
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=tmp_path,
        )  # fmt: skip
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        text = err.decode()
        assert proc.returncode == 2
        assert "Telegram refused TELEGRAM_BOT_TOKEN" in text
        assert "Traceback" not in text and "Unclosed" not in text
        assert not (tmp_path / "ofc.sqlite3").exists()  # no empty database left behind
    finally:
        await fake.stop()


def test_unreachable_api_is_one_line(tmp_path: Path) -> None:
    proc = run_bot(
        {
            "TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35,
            "TELEGRAM_API_BASE_URL": "http://127.0.0.1:9/bot",
        },
        tmp_path,
    )
    assert proc.returncode == 75  # EX_TEMPFAIL: out of reach, restarted (fixexit38)
    assert "cannot reach the Telegram Bot API" in proc.stderr
    assert "Traceback" not in proc.stderr and "Unclosed" not in proc.stderr


def test_database_url_that_is_not_postgresql_is_one_line(tmp_path: Path) -> None:
    """Issue 14: DATABASE_URL names a PostgreSQL database; anything else is refused before
    the bot starts, in one line."""
    proc = run_bot(
        {"TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35, "DATABASE_URL": "mysql://db/ofc"}, tmp_path
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "DATABASE_URL must be a PostgreSQL URL" in lines[0]


def test_unreachable_postgresql_is_one_line_without_the_password(tmp_path: Path) -> None:
    """Issue 14: a PostgreSQL server that cannot be reached stops the start in one line that
    names DATABASE_URL and never shows the password; no SQLite file is made instead."""
    socket_dir = tmp_path / "no-server"
    socket_dir.mkdir()
    url = f"postgresql://ofc:s3cret-pass@/ofc?host={socket_dir}"
    proc = run_bot({"TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35, "DATABASE_URL": url}, tmp_path)
    assert proc.returncode == 75, proc.stderr  # EX_TEMPFAIL: out of reach (fixexit38)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "DATABASE_URL" in lines[0], proc.stderr
    assert "s3cret-pass" not in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "ofc.sqlite3").exists()


def test_database_url_password_is_a_secret_of_the_log_filter() -> None:
    from bot.config import Settings

    settings = Settings(
        database_url="postgresql://ofc:s3cret-pass@db.internal:5432/ofc",  # type: ignore[arg-type]
        _env_file=None,  # type: ignore[call-arg]
    )
    assert "s3cret-pass" in settings.secrets()
    assert "s3cret-pass" not in repr(settings)


def test_the_fake_bot_apis_default_token_passes_the_bots_token_check() -> None:
    """Pointing the bot at ``python -m bot.telegram.fake_api`` with its default token works
    (the fake's old default, ``123456:TEST``, was refused as "not a bot token")."""
    settings = Settings(_env_file=None, telegram_bot_token=DEFAULT_TOKEN)  # type: ignore[call-arg, arg-type]
    assert settings.telegram_bot_token is not None
    assert settings.telegram_bot_token.get_secret_value() == FakeTelegram().token


def test_decisions_in_process_is_on_unless_switched_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DECISIONS_IN_PROCESS`` (issue 13): the decisions' worker process is the default
    (unset or empty), ``0``/``false``/``off`` runs them in threads, and anything else is one
    line naming the variable."""
    env = tmp_path / "none.env"
    monkeypatch.delenv("DECISIONS_IN_PROCESS", raising=False)
    assert load_settings(str(env), tokens=False).decisions_in_process is True
    for value, on in [("", True), ("1", True), ("on", True), ("0", False), (" False ", False)]:
        monkeypatch.setenv("DECISIONS_IN_PROCESS", value)
        assert load_settings(str(env), tokens=False).decisions_in_process is on, value
    monkeypatch.setenv("DECISIONS_IN_PROCESS", "maybe")
    with pytest.raises(ConfigError, match=r"^DECISIONS_IN_PROCESS must be 1 .* or 0 "):
        load_settings(str(env), tokens=False)


def test_the_discord_members_intent_is_off_unless_switched_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DISCORD_MEMBERS_INTENT``: off unless set (a privileged intent Discord refuses with
    4014 unless switched on in the Developer Portal), ``1``/``on`` asks for it, and anything
    else is one line naming the variable."""
    env = tmp_path / "none.env"
    monkeypatch.delenv("DISCORD_MEMBERS_INTENT", raising=False)
    assert load_settings(str(env), tokens=False).discord_members_intent is False
    for value, on in [("", False), ("0", False), ("1", True), (" On ", True), ("off", False)]:
        monkeypatch.setenv("DISCORD_MEMBERS_INTENT", value)
        assert load_settings(str(env), tokens=False).discord_members_intent is on, value
    monkeypatch.setenv("DISCORD_MEMBERS_INTENT", "maybe")
    with pytest.raises(ConfigError, match=r"^DISCORD_MEMBERS_INTENT must be 1 "):
        load_settings(str(env), tokens=False)


def test_every_setting_is_documented_in_env_example_and_the_readme() -> None:
    """Each variable ``Settings`` reads is in ``.env.example`` and README's configuration
    table (``DECISIONS_IN_PROCESS`` among them)."""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    names = [name.upper() for name in Settings.model_fields]
    assert "DECISIONS_IN_PROCESS" in names
    assert [n for n in names if f"\n{n}=" not in example] == []
    assert [n for n in names if f"`{n}`" not in table] == []


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        # (nu59: the value and the form, not pydantic's "Input should be a valid number")
        (
            "LEASE_SECONDS",
            "abc",
            "LEASE_SECONDS=abc is not a number (a fraction is written with a point: 1.5)",
        ),
        ("STORAGE_WAIT_SECONDS", "1,5", "STORAGE_WAIT_SECONDS=1,5 is not a number"),
        ("DISCORD_SHARD_COUNT", "two", "DISCORD_SHARD_COUNT=two is not a whole number (or auto)"),
        ("TELEGRAM_WEBHOOK_LISTEN", "8443", "TELEGRAM_WEBHOOK_LISTEN: '8443' is not host:port"),
        ("WORKER_LISTEN", "host:0", "WORKER_LISTEN: 'host:0' is not host:port"),
        # (a message that names its variable already is left as it is)
        ("LEASE_SECONDS", "0", "LEASE_SECONDS must be between 1 and 300"),
    ],
)
def test_a_malformed_setting_is_one_line_naming_its_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    """``load_settings`` promises one line naming the variable to fix: a number that is no
    number (``LEASE_SECONDS=abc``) said only pydantic's "Input should be a valid number,
    unable to parse string as a number", and a listen address "'8443' is not host:port",
    neither saying which of the variables it was (two take host:port)."""
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as caught:
        load_settings(str(tmp_path / "none.env"), tokens=False)
    message = str(caught.value)
    assert message.startswith(said) and "\n" not in message, message


def test_storage_wait_seconds_is_read_and_a_bad_one_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``STORAGE_WAIT_SECONDS``: how long a press waits for the database (default 1; more
    for a far PostgreSQL server); anything but a number of seconds above 0 and at most 30
    stops the start with one line naming the variable."""
    env = tmp_path / "none.env"
    assert load_settings(str(env), tokens=False).storage_wait_seconds == 1.0
    monkeypatch.setenv("STORAGE_WAIT_SECONDS", "2.5")
    assert load_settings(str(env), tokens=False).storage_wait_seconds == 2.5
    for bad in ("0", "-1", "nan", "inf", "31", "abc", "1s"):
        monkeypatch.setenv("STORAGE_WAIT_SECONDS", bad)
        with pytest.raises(ConfigError) as caught:
            load_settings(str(env), tokens=False)
        message = str(caught.value)
        assert message.startswith("STORAGE_WAIT_SECONDS") and "\n" not in message, (bad, message)
    proc = run_bot(
        {"TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35, "STORAGE_WAIT_SECONDS": "0"}, tmp_path
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: STORAGE_WAIT_SECONDS must be"), lines
