"""``python -m bot`` with no token and nothing on standard input (a service manager's
/dev/null): refused in one line with exit status 2, not an empty sandbox that ends at once
with status 0 (systemd's ``Restart=on-failure`` then saw a success, the bot never there)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp: Path) -> dict[str, str]:
    """The environment without any token or worker setting, the bot's database in ``tmp``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env.pop("WORKER_ID", None)
    env["DATABASE_PATH"] = str(tmp / "ofc.sqlite3")
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_no_token_and_stdin_dev_null_is_refused_in_one_line(tmp_path: Path) -> None:
    """stdin /dev/null (no terminal, no pipe, no file): one ``error:`` line naming the token
    variables and what to do, status 2 (the unit's ``RestartPreventExitStatus=2``), no
    sandbox database made."""
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], stdin=subprocess.DEVNULL, capture_output=True,
        text=True, timeout=60, cwd=tmp_path, env=_env(tmp_path),
    )  # fmt: skip
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: no bot token set (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN")
    assert "/dev/null" in lines[0] and "there is no .env" in lines[0]
    assert not (tmp_path / "sandbox.sqlite3").exists()


def test_no_token_with_moves_on_a_pipe_still_plays_the_sandbox(tmp_path: Path) -> None:
    """README's ``printf … | python -m bot``: a pipe brings the sandbox its lines, so it
    starts as before (status 0 after /quit)."""
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--bots", "0"], input="/quit\n", capture_output=True,
        text=True, timeout=120, cwd=tmp_path, env=_env(tmp_path),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("No bot token set (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN")
    assert (tmp_path / "sandbox.sqlite3").exists()
