"""fixsess38: a Discord-only bot that stopped because Discord closed its connection for good
(fixexit38) left asyncio logging "Task exception was never retrieved … DiscordPresenter.
_write_message … RuntimeError('Session is closed')": discord.py had closed its HTTP session
with the connection, and a table message's edit still queued then failed on it, its task's
error never awaited. The stop now ends and awaits the presenter's writers: nothing is left
unretrieved."""

from __future__ import annotations

import asyncio
import gc
import logging
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot.app import DiscordEnded, run
from bot.config import Settings
from tests.fakes.discord_api import FakeDiscord, point_discord_at
from tests.fakes.discord_api import FakeUser as DiscordUser

DC_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


def _unretrieved(caplog: pytest.LogCaptureFixture, seen: list[dict[str, Any]]) -> list[str]:
    """asyncio's "never retrieved" reports: by the loop's exception handler (``seen``) and
    its logger, once the finished tasks are collected."""
    gc.collect()
    said = [str(c.get("message")) + repr(c.get("exception")) for c in seen]
    said += [r.getMessage() for r in caplog.records if r.name == "asyncio"]
    return [s for s in said if "never retrieved" in s]


async def test_the_stop_after_discord_ended_leaves_no_write_unretrieved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    loop = asyncio.get_running_loop()
    seen: list[dict[str, Any]] = []
    old = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: seen.append(context))
    settings = Settings(
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    discord = FakeDiscord(DC_TOKEN)
    await discord.start()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(discord):
            task = asyncio.create_task(run(settings, asyncio.Event()))
            await discord.wait_for(lambda: "bot running" in caplog.text, timeout=20)
            # the table message's edit after a join refused (an outage): tried again later
            record = await discord.slash(DiscordUser(21, "Bob", "en-US"), "new")
            await discord.wait_for(lambda: record.answered, timeout=20)
            discord.outage(lambda name, _call: name == "edit_message")
            # (the join edits the table message: /new itself posts it and edits it no more,
            # lobby43; this test waited for that redundant edit)
            joined = await discord.slash(DiscordUser(22, "Ann", "en-US"), "join")
            await discord.wait_for(lambda: joined.answered, timeout=20)
            await discord.wait_for(
                lambda: any(c.method == "PATCH" and c.status == 503 for c in discord.calls),
                timeout=20,
            )
            for ws in list(discord._sockets):
                await ws.close(code=4004, message=b"closed for good")
            with pytest.raises(DiscordEnded):
                await asyncio.wait_for(task, 30)
            await asyncio.sleep(0.2)
            assert _unretrieved(caplog, seen) == []
        assert "not written: the Discord client is closed" in caplog.text
        assert not [
            r
            for r in caplog.records
            if r.name == "bot.discord.presenter" and r.levelno >= logging.ERROR
        ]
    finally:
        loop.set_exception_handler(old)
        await discord.stop()


async def test_a_plain_stop_during_an_outage_leaves_no_write_unretrieved(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The stop asked for while Discord refuses every edit (an outage): the edit waiting to
    be tried again is tried once more and given up; nothing is left unretrieved."""
    from bot.discord import DiscordAdapter
    from bot.screens import Screen
    from bot.service import TableService
    from storage.memory import MemoryStore
    from tests.fakes.discord_api import CHANNEL_ID, refusing_connector

    loop = asyncio.get_running_loop()
    seen: list[dict[str, Any]] = []
    old = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: seen.append(context))
    discord = FakeDiscord(DC_TOKEN)
    await discord.start()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(discord):
            adapter = DiscordAdapter(
                TableService(MemoryStore()), DC_TOKEN, connector=refusing_connector()
            )
            await adapter.start()
            adapter.presenter.edit_retries = (30.0,)  # (the stop, not the wait, ends it)
            discord.outage(lambda name, _call: name == "edit_message")
            adapter.presenter.queue_edit(CHANNEL_ID, 1234, Screen("table"))
            await discord.wait_for(
                lambda: any(c.method == "PATCH" and c.status == 503 for c in discord.calls),
                timeout=20,
            )
            await asyncio.wait_for(adapter.stop(), 30)
            await asyncio.sleep(0.2)
            assert _unretrieved(caplog, seen) == []
    finally:
        loop.set_exception_handler(old)
        await discord.stop()
    assert f"edit of message {CHANNEL_ID}/1234 lost" in caplog.text
