"""brk72: break-it on fix40f's ``DISCORD_SHARD_COUNT=auto``: what Discord's ``GET
/gateway/bot`` answers at the start."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot import __main__ as entry
from bot.app import run
from bot.config import OutOfReach
from tests.bot.test_fix40f import DC_TOKEN, _auto
from tests.fakes.discord_api import FakeDiscord, FakeUser, point_discord_at


@pytest.mark.parametrize("recommended", [0, 1])
async def test_auto_with_a_recommended_count_of_none_or_one_runs_one_shard(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, recommended: int
) -> None:
    """Discord recommends 0 shards (never documented) or 1: one shard (0 of 1) connects and
    a command is answered. With 0 no shard connected and the bot waited for good, without a
    line."""
    fake = FakeDiscord(DC_TOKEN)
    fake.recommended_shards = recommended
    await fake.start()
    stop = asyncio.Event()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(fake):
            task = asyncio.create_task(run(_auto(tmp_path), stop))
            await fake.wait_for(lambda: "bot running" in caplog.text or task.done(), timeout=30)
            assert not task.done(), task
            assert sorted(fake.identified) == [(0, 1)]
            record = await fake.slash(FakeUser(21, "Bob", "en-US"), "new")
            await fake.wait_for(lambda: record.answered, timeout=20)
            stop.set()
            await asyncio.wait_for(task, 30)
    finally:
        await fake.stop()


async def test_auto_asks_again_after_a_429_and_a_500(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A 429, then a 500, to ``GET /gateway/bot``: asked again (discord.py's retries), both
    recommended shards connect. (Held: a regression test.)"""
    fake = FakeDiscord(DC_TOKEN)
    fake.recommended_shards = 2
    fake.fail_next["get_gateway"] = [
        (429, {"message": "You are being rate limited.", "retry_after": 0.2, "global": False}),
        (500, {"message": "500: Internal Server Error", "code": 0}),
    ]
    await fake.start()
    stop = asyncio.Event()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(fake):
            task = asyncio.create_task(run(_auto(tmp_path), stop))
            await fake.wait_for(lambda: "bot running" in caplog.text or task.done(), timeout=40)
            assert not task.done(), task
            assert fake.fail_next["get_gateway"] == []
            assert sorted(fake.identified) == [(0, 2), (1, 2)]
            stop.set()
            await asyncio.wait_for(task, 30)
    finally:
        await fake.stop()


async def test_auto_with_discord_down_is_the_start_s_cannot_reach_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``GET /gateway/bot`` answers 503 every time (Discord down after the login): the
    start ends with "cannot reach Discord", exit status 75 (restarted later), as a 5xx at
    the login does. It was discord.py's GatewayNotFound, a traceback and status 1."""
    fake = FakeDiscord(DC_TOKEN)
    fake.outages.append((lambda name, call: name == "get_gateway", 503, {"message": "down"}))
    await fake.start()
    try:
        with point_discord_at(fake), pytest.raises(OutOfReach) as caught:
            await asyncio.wait_for(run(_auto(tmp_path), asyncio.Event()), 90)
        assert fake.identified == []
    finally:
        await fake.stop()
    line = "cannot reach Discord (discord.DiscordServerError): check the network"
    assert str(caught.value) == line

    async def main() -> None:
        raise caught.value

    assert await asyncio.to_thread(entry._run, main()) == 75
    assert capsys.readouterr().err == f"error: {line}\n"
