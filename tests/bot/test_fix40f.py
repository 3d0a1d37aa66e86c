"""fix40f: leftovers of the cluster (issue 14).

1. The router (``python -m bot --router``) only forwards Telegram's updates, yet it imported
   the whole table service (``bot.service``: the computer players' strategy and thinking
   processes, the renderer and its pictures with Pillow) and the Telegram adapter
   (python-telegram-bot's ``telegram.ext``): most of its start and memory. They are imported
   where a worker uses them now (:mod:`bot.cluster`, :mod:`bot.app`, :mod:`bot.telegram`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: what a router never uses: the table service and what it brings, the Telegram adapter
ROUTER_NEVER = (
    "bot.service",
    "bot.render",
    "bot.drawing",
    "bot.thinking",
    "bot.telegram.adapter",
    "telegram.ext",
    "PIL",
    "discord",
)

_ROUTER = """
import json, sys
from bot.__main__ import main
status = main(["--router", "--env-file", sys.argv[1]])  # (no worker ran on the file: 2)
from bot.cluster import Router
from storage.memory import MemoryStore
Router(MemoryStore(), "123456:" + "R" * 35)  # (its Bot and the webhook's guard)
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def test_the_router_s_code_path_imports_no_table_service(tmp_path: Path) -> None:
    """The router's start (``python -m bot --router``, here refused in one line for an SQLite
    file no worker ran on, exit status 2) and its :class:`~bot.cluster.Router` import none of
    :data:`ROUTER_NEVER`."""
    env_file = tmp_path / "router.env"
    env_file.write_text(
        "TELEGRAM_BOT_TOKEN=123456:" + "R" * 35 + "\n"
        f"DATABASE_PATH={tmp_path / 'ofc.sqlite3'}\n"
        "TELEGRAM_WEBHOOK_URL=https://bot.example.com/telegram\n"
        "TELEGRAM_WEBHOOK_SECRET=s3cret\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-c", _ROUTER, str(env_file)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["status"] == 2, done.stderr
    assert "no worker has run on" in done.stderr, done.stderr
    modules = set(out["modules"])
    assert "bot.cluster" in modules and "bot.app" in modules  # (the router's path ran)
    assert [m for m in ROUTER_NEVER if m in modules] == []
