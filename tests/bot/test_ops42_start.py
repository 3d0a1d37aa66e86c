"""An operator's first deployment (ops42): Ctrl-C or SIGTERM (``systemctl stop``, ``timeout
-s TERM``) while the start waited on a Bot API that did not answer was held until the Bot
API's timeouts (11 s), and the bot then stopped with "error: cannot reach the Telegram Bot
API", exit status 2, as if nobody had asked it to stop. Now the start stops there."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

from pydantic import SecretStr

from bot.app import run
from bot.config import Settings
from tests.bot.test_config import base_env

TOKEN = "123456:" + "S" * 35


class SilentServer:
    """A TCP server that takes connections and never answers (a Bot API out of reach
    behind a proxy that accepts)."""

    def __init__(self) -> None:
        self.connected = asyncio.Event()
        self._held: list[asyncio.StreamWriter] = []
        self.port = 0

    async def __aenter__(self) -> SilentServer:
        async def take(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self._held.append(writer)
            self.connected.set()

        self._server = await asyncio.start_server(take, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for writer in self._held:
            writer.close()
        self._server.close()


async def test_a_stop_while_the_bot_api_does_not_answer_ends_the_start(tmp_path: Path) -> None:
    db = tmp_path / "ofc.sqlite3"
    async with SilentServer() as api:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            telegram_bot_token=SecretStr(TOKEN),
            telegram_api_base_url=f"http://127.0.0.1:{api.port}/bot",
            database_path=str(db),
        )
        stop = asyncio.Event()
        running = asyncio.create_task(run(settings, stop))
        await asyncio.wait_for(api.connected.wait(), 30)  # getMe sent, never answered
        stop.set()  # what SIGINT and SIGTERM do
        await asyncio.wait_for(running, 30)  # returns: no ConfigError "cannot reach"
    assert not db.exists()  # the new database of a start that never ran is not left


async def test_sigterm_during_the_start_exits_0_without_an_error(tmp_path: Path) -> None:
    async with SilentServer() as api:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot",  # (no .env in tmp_path)
            env={
                **base_env(),
                "TELEGRAM_BOT_TOKEN": TOKEN,
                "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api.port}/bot",
                "DATABASE_PATH": str(tmp_path / "ofc.sqlite3"),
            },
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=tmp_path,
        )  # fmt: skip
        await asyncio.wait_for(api.connected.wait(), 60)
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    text = err.decode()
    assert proc.returncode == 0, text
    assert "cannot reach" not in text and "Traceback" not in text, text
    assert "stopped while starting" in text


async def test_a_stop_while_discord_does_not_answer_ends_the_start(tmp_path: Path) -> None:
    """The same for Discord: its login waited on a silent API for minutes."""
    from tests.fakes.discord_api import point_discord_at

    db = tmp_path / "ofc.sqlite3"
    async with SilentServer() as api:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_bot_token=SecretStr("A" * 24 + "." + "B" * 6 + "." + "C" * 27),
            database_path=str(db),
        )
        stop = asyncio.Event()
        with point_discord_at(api.port):
            running = asyncio.create_task(run(settings, stop))
            await asyncio.wait_for(api.connected.wait(), 30)  # the login, never answered
            stop.set()
            await asyncio.wait_for(running, 30)
    assert not db.exists()
