"""nu52: a gateway connection Discord closed for good while the start waited for READY (close
code 4004, the token refused; 4011, sharding required) escaped ``python -m bot`` as a
traceback of discord.py's ``ConnectionClosed``. It is the start's one line (a ConfigError,
exit status 2) naming what to do; the fresh database is removed as after any failed start."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from pydantic import SecretStr

from bot.app import run
from bot.config import ConfigError, Settings
from bot.discord import DiscordAdapter

DC_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


@pytest.mark.parametrize(
    ("code", "line"),
    [
        (
            4004,
            # (the token: one line however Discord refused it, a 401 at login too: fix40b)
            "Discord refused DISCORD_BOT_TOKEN (was it reset?): copy the token from the "
            "Developer Portal (Bot tab) into .env",
        ),
        (
            4011,
            "Discord closed the connection at the start (close code 4011): sharding required "
            "(the bot is in too many servers for one connection): set DISCORD_SHARD_COUNT=auto "
            "(or a count: at least one shard per 2,500 servers) to run every shard in this "
            "process, or run workers each with its DISCORD_SHARD_IDS (docs/operations.md)",
        ),
        (
            4013,
            "Discord closed the connection at the start (close code 4013): Discord refused the "
            "gateway intents as invalid: upgrade discord.py (pip install -U discord.py)",
        ),
        (  # (fix39a: each code discord.py does not reconnect on says what to do)
            4999,
            "Discord closed the connection at the start (close code 4999): see Discord's "
            "gateway close codes (https://discord.com/developers/docs/topics/"
            "opcodes-and-status-codes#gateway-gateway-close-event-codes)",
        ),
    ],
)
async def test_a_connection_closed_at_the_start_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, line: str
) -> None:
    async def start(self: DiscordAdapter, **kwargs: object) -> None:
        raise discord.ConnectionClosed(SimpleNamespace(close_code=code), shard_id=None)

    monkeypatch.setattr(DiscordAdapter, "start", start)
    db = tmp_path / "ofc.sqlite3"
    settings = Settings(
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    )
    with pytest.raises(ConfigError) as caught:
        await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    assert str(caught.value) == line
    assert not db.exists()  # (made by this start, removed)
