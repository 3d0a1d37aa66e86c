"""Both bot tokens are redacted from every log record at every level (issue 16.12)."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from bot.logs import REDACTED, configure_logging

ROOT = Path(__file__).resolve().parents[2]
# Made-up tokens of the real shapes, assembled here so that no literal in the repository looks
# like a live token (real tokens only ever come from .env).
TELEGRAM = ":".join(("123456789", "AA" + "fake" * 8 + "x"))
DISCORD = ".".join(("MTAx" + "fake" * 5 + "Zz", "GfAkE0", "fake" * 9 + "ab"))


def test_every_logger_every_level_args_and_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    out = io.StringIO()
    configure_logging("DEBUG", [TELEGRAM, DISCORD], stream=out)
    logging.getLogger("telegram.ext.ExtBot").debug(
        "Set Bot API URL: %s", f"https://api.telegram.org/bot{TELEGRAM}"
    )
    logging.getLogger("discord.http").info("token %s, quoted %s", DISCORD, quote(TELEGRAM))
    logging.getLogger("some.library").warning(f"secret part {TELEGRAM.split(':')[1]}")
    try:
        # (a network error: its text is kept, bot.logs.text_kept, so redacted here)
        raise ConnectionError(f"GET https://api.telegram.org/bot{TELEGRAM}/getMe failed")
    except ConnectionError:
        logging.getLogger("bot.app").exception("start failed with %s", DISCORD)
    text = out.getvalue()
    assert TELEGRAM not in text and DISCORD not in text
    assert TELEGRAM.split(":")[1] not in text
    assert "Set Bot API URL: https://api.telegram.org/bot[REDACTED]" in text
    assert "token [REDACTED], quoted [REDACTED]" in text and "secret part [REDACTED]" in text
    assert "ConnectionError: GET https://api.telegram.org/bot[REDACTED]/getMe failed" in text
    assert "start failed with [REDACTED]" in text
    assert text.count(REDACTED) == 6
    # handlers that were there already (here pytest's) get the filter too
    assert TELEGRAM not in caplog.text and DISCORD not in caplog.text


def test_the_real_configuration_hides_the_token_python_telegram_bot_logs(
    tmp_path: Path,
) -> None:
    """``python -m bot`` with LOG_LEVEL=DEBUG: python-telegram-bot logs the API URL it builds
    (token included) before the unreachable server stops the start."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN") and k != "LOG_LEVEL"}
    env.update(
        TELEGRAM_BOT_TOKEN=TELEGRAM,
        DISCORD_BOT_TOKEN=DISCORD,
        TELEGRAM_API_BASE_URL="http://127.0.0.1:9/bot",  # nothing listens there
        LOG_LEVEL="DEBUG",
        DATABASE_PATH=str(tmp_path / "ofc.sqlite3"),
    )
    (tmp_path / "empty.env").write_text("")  # (not the checkout's .env, if it has one)
    run = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "empty.env")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 75, output  # EX_TEMPFAIL: out of reach (fixexit38)
    assert "cannot reach the Telegram Bot API" in output
    assert "Set Bot API URL: http://127.0.0.1:9/bot[REDACTED]" in output
    assert TELEGRAM not in output and TELEGRAM.split(":")[1] not in output
    assert DISCORD not in output
