"""nu52: a running bot's Discord connection that ended for good (the token reset in the
Developer Portal: close code 4004; the members intent switched off there: 4014) left the
bot running, Discord unserved, and said nothing. It logs one error line saying why and what
to do; a stop logs none."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import pytest

from bot.discord import DiscordAdapter
from bot.service import TableService
from storage.memory import MemoryStore
from tests.fakes.discord_api import FakeDiscord, point_discord_at, refusing_connector

TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.discord.adapter" and r.levelno >= logging.ERROR
    ]


@contextlib.asynccontextmanager
async def _running() -> AsyncIterator[tuple[FakeDiscord, DiscordAdapter]]:
    """A fake Discord and a started adapter connected to it; the fake stops on the way out
    (the adapter's stop is the test's)."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    try:
        with point_discord_at(fake):
            adapter = DiscordAdapter(
                TableService(MemoryStore()), TOKEN, connector=refusing_connector()
            )
            await adapter.start()
            yield fake, adapter
    finally:
        await fake.stop()


@pytest.mark.parametrize(
    ("code", "said"),
    [
        (
            4004,
            "Discord is no longer served: Discord refused DISCORD_BOT_TOKEN (was it reset?): "
            "copy the token from the Developer Portal (Bot tab) into .env, then start the "
            "bot again",
        ),
        (
            4014,
            "Discord is no longer served: Discord refused the members intent: switch on Server "
            "Members Intent in the Developer Portal (Bot tab), or set DISCORD_MEMBERS_INTENT=0, "
            "then start the bot again",
        ),
    ],
)
async def test_a_connection_closed_for_good_is_one_error_line(
    caplog: pytest.LogCaptureFixture, code: int, said: str
) -> None:
    caplog.set_level(logging.INFO)
    async with _running() as (fake, adapter):
        assert _errors(caplog) == []
        for ws in list(fake._sockets):
            await ws.close(code=code, message=b"closed for good")
        for _ in range(100):
            if _errors(caplog):
                break
            await asyncio.sleep(0.05)
        assert _errors(caplog) == [said]
        await adapter.stop()


async def test_a_stop_logs_no_error(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with _running() as (_, adapter):
        await adapter.stop()
        await asyncio.sleep(0.2)
    assert _errors(caplog) == []
