"""``python -m bot --env-file typo.env``: a settings file named with ``--env-file`` that is
not there is refused in one line, exit status 2 (as ``python -m storage`` refuses it). It was
read as none: the sandbox started, saying "there is no typo.env", or the bot ran with the
environment's tokens. Without the flag ``.env`` stays optional."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import bot.__main__ as entry
import bot.app
import bot.sandbox
from bot.config import Settings
from bot.sandbox import SandboxOptions

TOKEN = "123456:" + "A" * 35


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """What ``main`` started ("sandbox", "bot"), neither run for real; run in ``tmp_path``
    (no ``.env`` there) without tokens in the environment."""
    runs: list[str] = []

    async def sandbox(opts: SandboxOptions) -> None:
        runs.append("sandbox")

    async def run(settings: Settings) -> None:
        runs.append("bot")

    monkeypatch.setattr(bot.sandbox, "run_sandbox", sandbox)
    monkeypatch.setattr(bot.app, "run", run)
    monkeypatch.setattr(entry, "configure_logging", lambda *args, **kwargs: None)
    monkeypatch.setattr(logging.getLogger(), "level", logging.getLogger().level)
    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "ofc.sqlite3"))
    monkeypatch.chdir(tmp_path)
    return runs


@pytest.mark.parametrize("token", [None, TOKEN])
@pytest.mark.parametrize("flags", [[], ["--sandbox"], ["--lang", "ru"]])
def test_a_missing_env_file_given_is_refused_in_one_line(
    started: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    token: str | None,
    flags: list[str],
) -> None:
    if token is not None:
        monkeypatch.setenv("TELEGRAM_BOT_TOKEN", token)
    assert entry.main(["--env-file", "typo.env", *flags]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "error: there is no typo.env (--env-file names the bot's settings file)\n"
    assert started == []  # neither the sandbox nor the bot


def test_without_the_flag_env_stays_optional(
    started: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No ``.env``: the sandbox starts, saying so; with a token in the environment, the bot."""
    assert entry.main(["--sandbox-db", "s.sqlite3"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == (
        "No bot token set (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN; there is no .env): "
        "starting the local sandbox."
    )
    assert err == ""
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    assert entry.main([]) == 0
    assert started == ["sandbox", "bot"]


def test_an_env_file_given_that_is_there_is_read(
    started: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "my.env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\n")
    assert entry.main(["--env-file", "my.env"]) == 0
    assert started == ["bot"]
    assert capsys.readouterr().err == ""


def test_an_env_file_that_is_a_folder_says_so(
    started: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """opsnu43: ``--env-file /srv/ofc`` (the folder, not its ``.env``) was told "there is no
    /srv/ofc", which an operator looking at that folder cannot make sense of; the line says
    it is a folder (and a device such as ``/dev/null``, no regular file), for the bot and for
    ``python -m storage``, which share the refusal."""
    from storage.__main__ import main as storage_main

    folder = tmp_path / "srv"
    folder.mkdir()
    assert entry.main(["--env-file", str(folder)]) == 2
    assert capsys.readouterr().err == (
        f"error: {folder} is a folder (--env-file names the bot's settings file)\n"
    )
    assert storage_main(["check", "--env-file", "/dev/null"]) == 2
    assert capsys.readouterr().err == (
        "error: /dev/null is no regular file (--env-file names the bot's settings file)\n"
    )
    assert started == []
