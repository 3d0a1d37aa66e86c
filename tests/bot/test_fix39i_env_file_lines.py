"""A line logged while the bot runs names the settings file actually read (fix39i): a bot
started with ``--env-file w1.env`` logged "Discord is no longer served: … copy
DISCORD_BOT_TOKEN … into .env", a file it never read (its start's ``error:`` lines already
named w1.env, through the same helper, :func:`bot.logs.in_env_file`)."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

import bot.__main__ as entry
import bot.app
from bot.config import Settings
from bot.discord.adapter import CLOSE_CODES
from bot.logs import configure_logging, in_env_file

TOKEN = "123456:" + "A" * 35
LINE = f"Discord is no longer served: {CLOSE_CODES[4004]}"


def test_a_running_line_names_the_env_file_given(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m bot --env-file w1.env``: a line the running bot logs says w1.env."""

    async def run(settings: Settings) -> None:
        logging.getLogger("bot.discord.adapter").error("%s", LINE)

    monkeypatch.setattr(bot.app, "run", run)
    for name in ("DISCORD_BOT_TOKEN", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "ofc.sqlite3"))
    (tmp_path / "w1.env").write_text("")
    monkeypatch.chdir(tmp_path)
    assert entry.main(["--env-file", "w1.env"]) == 0
    err = capsys.readouterr().err
    assert LINE.endswith("into .env") and LINE in in_env_file(LINE, ".env")
    assert f"ERROR bot.discord.adapter: {in_env_file(LINE, 'w1.env')}\n" in err
    assert "(Bot tab) into w1.env\n" in err and "into .env" not in err


def test_configure_logging_names_the_file_and_leaves_other_dots_alone() -> None:
    """Only "in .env"/"into .env" become the file read; ".env.example" and a file path
    ending in .env elsewhere stay; tokens are still redacted on the same line."""
    out = io.StringIO()
    configure_logging("INFO", [TOKEN], stream=out, env_file="/srv/ofc/w1.env")
    log = logging.getLogger("bot.app")
    log.warning("set it in .env (see .env.example); token %s", TOKEN)
    log.info("copy it into .env.")
    text = out.getvalue()
    assert "set it in /srv/ofc/w1.env (see .env.example); token [REDACTED]\n" in text
    assert "copy it into /srv/ofc/w1.env.\n" in text
