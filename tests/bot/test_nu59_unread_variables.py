"""A ``.env`` whose variable is misspelt (nu59): ``TELEGRAM_TOKEN=…`` started the sandbox,
``DATABASE_URI=postgresql://…`` ran the bot on the SQLite file, and nothing said the line
was ignored. The start names such variables in one warning line, with the setting each is
likely meant for, and goes on as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import unread_variables

TOKEN = "123456:" + "T" * 35


def test_the_variables_no_setting_reads(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        f"TELEGRAM_TOKEN={TOKEN}\n"
        "DATABASE_URI=postgresql://ofc@db/ofc\n"
        "log_level=DEBUG\n"  # (a setting in any case: pydantic-settings reads it)
        "PGPASSWORD=secret\n"  # (nothing close: named alone)
        "# DISCORD_TOKEN=a comment\n"
    )
    assert unread_variables(str(env)) == [
        "TELEGRAM_TOKEN (TELEGRAM_BOT_TOKEN?)",
        "DATABASE_URI (DATABASE_URL?)",
        "PGPASSWORD",
    ]
    assert unread_variables(str(tmp_path / "none.env")) == []


def test_the_example_file_sets_only_settings() -> None:
    assert unread_variables(str(Path(__file__).parents[2] / ".env.example")) == []


def test_the_start_warns_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A router's file with a misspelt token: the warning names it, then the router's own
    refusal (it reads no TELEGRAM_BOT_TOKEN), exit status 2 as before."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "DATABASE_URL", "WORKER_ID"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "router.env").write_text(
        f"TELEGRAM_TOKEN={TOKEN}\nTELEGRAM_WEBHOOK_URL=https://bot.example.com/t\n"
        "TELEGRAM_WEBHOOK_SECRET=s\n"
    )
    assert main(["--env-file", "router.env", "--router"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "warning: router.env sets TELEGRAM_TOKEN (TELEGRAM_BOT_TOKEN?), which the bot does "
        "not read (README's Configuration lists the variables it reads)",
        "error: the router needs TELEGRAM_BOT_TOKEN, the workers' own",
    ]
    assert TOKEN not in err


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("TELEGRAM_WEBHOOK_LISTEN", "0.0.0.0:8443"),
        ("WORKER_LISTEN", "127.0.0.1:8600"),
        ("LEASE_SECONDS", 5.0),
        ("STORAGE_WAIT_SECONDS", 1.0),
    ],
)
def test_an_emptied_variable_is_its_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, default: object
) -> None:
    """``.env.example``'s values emptied (an operator who polls blanking the webhook
    section): the start stopped with "TELEGRAM_WEBHOOK_LISTEN: '' is not host:port" or
    pydantic's "Input should be a valid number"; empty is the default, as every other
    variable's (README: ``DATABASE_PATH``, ``LOG_LEVEL``)."""
    from bot.config import load_settings

    env = tmp_path / ".env"
    env.write_text(f"{name}=\n")
    monkeypatch.delenv(name, raising=False)
    assert getattr(load_settings(str(env), tokens=False), name.lower()) == default
