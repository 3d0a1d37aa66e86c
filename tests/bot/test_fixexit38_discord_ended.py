"""fixexit38: a running bot's Discord connection that Discord ends for good (the token reset
in the Developer Portal: close code 4004; the members intent switched off: 4014) was logged
as one error line (nu52) while the process ran on. When Discord is all the process serves it
served nothing: it now stops as after a SIGTERM (tables saved, the database let go) and
``python -m bot`` exits with status 2 (the token or the portal must change). With Telegram
in the same process, Telegram goes on being served."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot import __main__ as entry
from bot.app import DiscordEnded, run
from bot.config import Settings
from bot.dblock import hold_database, let_go
from bot.telegram.fake_api import FakeTelegram, FakeUser
from storage.sqlite import SqliteStore
from tests.fakes.discord_api import FakeDiscord, point_discord_at
from tests.fakes.discord_api import FakeUser as DiscordUser

DC_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27
TG_TOKEN = "123456:" + "T" * 35

ENDED = {
    4004: "Discord is no longer served: Discord refused DISCORD_BOT_TOKEN (was it reset?): "
    "copy the token from the Developer Portal (Bot tab) into .env, then start the bot "
    "again",
    4014: "Discord is no longer served: Discord refused the members intent: switch on Server "
    "Members Intent in the Developer Portal (Bot tab), or set DISCORD_MEMBERS_INTENT=0, then "
    "start the bot again",
}


async def _end_discord(fake: FakeDiscord, code: int) -> None:
    for ws in list(fake._sockets):
        await ws.close(code=code, message=b"closed for good")


@pytest.mark.parametrize("code", [4004, 4014])
async def test_discord_alone_ended_for_good_stops_the_bot(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, code: int
) -> None:
    db = tmp_path / "ofc.sqlite3"
    settings = Settings(
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    )
    discord = FakeDiscord(DC_TOKEN)
    await discord.start()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(discord):
            task = asyncio.create_task(run(settings, asyncio.Event()))
            await discord.wait_for(lambda: "bot running" in caplog.text, timeout=20)
            record = await discord.slash(DiscordUser(21, "Bob", "en-US"), "new")
            await discord.wait_for(lambda: record.answered, timeout=20)
            channel = discord.messages[record.messages[-1]]["channel_id"]
            await _end_discord(discord, code)
            with pytest.raises(DiscordEnded) as caught:
                await asyncio.wait_for(task, 30)
    finally:
        await discord.stop()
    assert str(caught.value) == ENDED[code]
    errors = [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and r.name in ("bot.app", "bot.discord.adapter")
    ]
    assert errors == [ENDED[code], "the bot stops: Discord was the only platform it served"]
    # stopped as after a SIGTERM: the database let go, its open table there to resume
    lock = hold_database(db)
    assert lock is not None
    let_go(lock)
    store = await SqliteStore.open(str(db))
    try:
        assert await store.chat_table("discord", str(channel)) is not None
    finally:
        await store.close()


def test_discord_ended_is_exit_status_2() -> None:
    async def main() -> None:
        raise DiscordEnded(ENDED[4004])

    assert entry._run(main()) == 2


async def test_a_sigterm_first_is_a_plain_stop(tmp_path: Path) -> None:
    """The stop asked for first (SIGTERM sets ``stop``): the bot's own stop closes the
    connection, which is no end for good: no error, nothing raised (status 0)."""
    settings = Settings(
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    discord = FakeDiscord(DC_TOKEN)
    await discord.start()
    stop = asyncio.Event()
    try:
        with point_discord_at(discord):
            task = asyncio.create_task(run(settings, stop))
            await discord.wait_for(lambda: discord.commands, timeout=20)
            stop.set()
            await asyncio.wait_for(task, 30)  # (raises nothing)
    finally:
        await discord.stop()


async def test_with_telegram_the_bot_serves_telegram_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    telegram = FakeTelegram(TG_TOKEN)
    discord = FakeDiscord(DC_TOKEN)
    await telegram.start()
    await discord.start()
    settings = Settings(
        telegram_bot_token=SecretStr(TG_TOKEN),
        telegram_api_base_url=telegram.base_url,
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(discord):
            task = asyncio.create_task(run(settings, stop))
            await telegram.wait_for(lambda: telegram.calls_of("getUpdates"), timeout=20)
            await discord.wait_for(lambda: "bot running" in caplog.text, timeout=20)
            await _end_discord(discord, 4004)
            await telegram.wait_for(lambda: ENDED[4004] in caplog.text, timeout=20)
            alice = FakeUser(11, "Alice", "alice", "en")
            await telegram.send_text(alice, -500, "/newtable")
            reply = await telegram.wait_for(
                lambda: next((c for c in telegram.calls_of("sendMessage")
                              if "Table #" in str(c.params.get("text"))), None),
                timeout=20,
            )  # fmt: skip
            assert int(reply.params["chat_id"]) == -500
            assert not task.done()
            assert "the bot stops" not in caplog.text
            stop.set()
            await asyncio.wait_for(task, 30)  # (a plain stop: raises nothing)
    finally:
        await discord.stop()
        await telegram.stop()
