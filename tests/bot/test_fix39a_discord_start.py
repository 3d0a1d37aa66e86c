"""fix39a: Discord's start-up leftovers an operator hits.

- A gateway connection Discord closes for good at the start with a close code other than
  4004 (4010 invalid shard, 4012 invalid API version, 4013 invalid intents) said only "see
  Discord's gateway close codes"; 4011 (sharding required) sent the operator to shard ids.
  Each now says what to do, in one line, exit status 2 as every ConfigError (a setting, the
  token or discord.py to change first: a restart alone does not help). A running bot's
  connection closed so (4011: the bot grew past a shard's servers) said
  ``ConnectionClosed('Shard ID None WebSocket closed with 4011')``; it says what to do too.
- The members intent refused (4014) said "or unset DISCORD_MEMBERS_INTENT", which
  ``.env.example`` sets to 0: "or set DISCORD_MEMBERS_INTENT=0".
- ``DISCORD_SHARD_COUNT=2`` without ``DISCORD_SHARD_IDS`` in one process ran one unsharded
  connection (the count read by no one), though the README said "empty, every shard": it
  runs every shard of the count now (discord.py's ``AutoShardedClient``).
- The "cannot reach …" lines (exit status 75) named the exception differently: Telegram's
  ``aiohttp.ClientConnectorError`` (or python-telegram-bot's "Timed out"), Discord's the bare
  ``ClientConnectorError``. Both name it as its library exports it, a builtin bare.

The close codes and the shards run discord.py's own gateway client against the fake gateway."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import httpx
import pytest
from pydantic import SecretStr
from telegram.error import NetworkError, TimedOut

from bot import __main__ as entry
from bot.app import DiscordEnded, run
from bot.config import ConfigError, OutOfReach, Settings
from tests.fakes.discord_api import GUILD_ID, FakeDiscord, FakeUser, point_discord_at

DC_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27

AT_START = "Discord closed the connection at the start (close code {code}): "
SAID = {
    4010: "Discord refused the shard (invalid shard): check DISCORD_SHARD_IDS and "
    "DISCORD_SHARD_COUNT",
    4011: "sharding required (the bot is in too many servers for one connection): set "
    "DISCORD_SHARD_COUNT=auto (or a count: at least one shard per 2,500 servers) to run every "
    "shard in this process, or run workers each with its DISCORD_SHARD_IDS (docs/operations.md)",
    4012: "Discord no longer takes the gateway version of this discord.py: upgrade it "
    "(pip install -U discord.py)",
    4013: "Discord refused the gateway intents as invalid: upgrade discord.py (pip install -U "
    "discord.py)",
}
MEMBERS = (
    "Discord refused the members intent: switch on Server Members Intent in the Developer "
    "Portal (Bot tab), or set DISCORD_MEMBERS_INTENT=0"
)


def _settings(tmp_path: Path, **more: object) -> Settings:
    return Settings(
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
        **more,  # type: ignore[arg-type]
    )


async def _start_refused(settings: Settings, code: int) -> ConfigError:
    fake = FakeDiscord(DC_TOKEN)
    fake.close_identify = code
    await fake.start()
    try:
        with point_discord_at(fake), pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    finally:
        await fake.stop()
    return caught.value


def _exit(error: BaseException) -> int:
    async def main() -> None:
        raise error

    return entry._run(main())


@pytest.mark.parametrize("code", sorted(SAID))
async def test_a_close_for_good_at_the_start_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], code: int
) -> None:
    error = await _start_refused(_settings(tmp_path), code)
    line = AT_START.format(code=code) + SAID[code]
    assert type(error) is ConfigError  # (not OutOfReach: a restart alone does not help)
    assert str(error) == line
    assert not (tmp_path / "ofc.sqlite3").exists()  # (made by this start, removed)
    assert await asyncio.to_thread(_exit, error) == 2
    assert capsys.readouterr().err == f"error: {line}\n"


async def test_the_members_intent_refused_at_the_start_names_what_env_example_sets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = _settings(tmp_path, discord_members_intent=True)
    error = await _start_refused(settings, 4014)
    assert type(error) is ConfigError
    assert str(error) == MEMBERS
    assert await asyncio.to_thread(_exit, error) == 2
    assert capsys.readouterr().err == f"error: {MEMBERS}\n"
    example = (Path(__file__).parents[2] / ".env.example").read_text(encoding="utf-8")
    assert "\nDISCORD_MEMBERS_INTENT=0\n" in example  # (what the line says to set)


async def test_a_running_bot_closed_for_good_says_what_to_do(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Sharding required while running (the bot grew past 2,500 servers: Discord closes
    the connection with 4011 and refuses a new one): the line says what to do, not the
    exception's repr; Discord alone, the bot stops (exit status 2)."""
    fake = FakeDiscord(DC_TOKEN)
    await fake.start()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(fake):
            task = asyncio.create_task(run(_settings(tmp_path), asyncio.Event()))
            await fake.wait_for(lambda: "bot running" in caplog.text, timeout=20)
            fake.close_identify = 4011
            for ws in list(fake._sockets):
                await ws.close(code=4011, message=b"sharding required")
            with pytest.raises(DiscordEnded) as caught:
                await asyncio.wait_for(task, 30)
    finally:
        await fake.stop()
    assert str(caught.value) == (
        "Discord is no longer served: Discord closed the connection (close code 4011): "
        f"{SAID[4011]}, then start the bot again"
    )
    assert await asyncio.to_thread(_exit, caught.value) == 2


@pytest.mark.parametrize(
    ("ids", "shown"),
    [(None, "0-1"), ("0,1", "0,1"), ("0-1", "0-1")],
)
async def test_one_process_serves_every_shard_of_the_count(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, ids: str | None, shown: str
) -> None:
    """``DISCORD_SHARD_COUNT=2`` with ``DISCORD_SHARD_IDS`` empty (the README: "in one
    process: empty, every shard"), or naming both: both shards IDENTIFY from this process
    and a command in the fake's guild (on shard ``(GUILD_ID >> 22) % 2``) is answered."""
    settings = _settings(tmp_path, discord_shard_count=2, discord_shard_ids=ids)
    fake = FakeDiscord(DC_TOKEN)
    await fake.start()
    stop = asyncio.Event()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(fake):
            task = asyncio.create_task(run(settings, stop))
            await fake.wait_for(lambda: "bot running" in caplog.text, timeout=40)
            assert sorted(fake.identified) == [(0, 2), (1, 2)]
            assert fake.connections == [(0, 2), (1, 2)]
            record = await fake.slash(FakeUser(21, "Bob", "en-US"), "new")
            await fake.wait_for(lambda: record.answered, timeout=20)
            assert "Table #" in str(fake.messages[record.messages[-1]]["content"])
            stop.set()
            await asyncio.wait_for(task, 30)
    finally:
        await fake.stop()
    assert (GUILD_ID >> 22) % 2 in (0, 1)
    assert f"Discord: connected as ofc-bot#0000 (shards {shown} of 2)" in caplog.text


def test_the_shards_a_process_runs() -> None:
    def shards(**values: object) -> list[int] | None:
        return Settings(_env_file=None, **values).shard_ids  # type: ignore[call-arg, arg-type]

    assert shards() is None  # (one unsharded connection)
    assert shards(discord_shard_count=3) == [0, 1, 2]
    assert shards(discord_shard_count=3, discord_shard_ids="1") == [1]
    # a worker's are its DISCORD_SHARD_IDS (required with a Discord token); without Discord
    # the count is nobody's
    assert shards(discord_shard_count=3, worker_id="w1") is None
    assert shards(
        discord_shard_count=3, discord_shard_ids="2", worker_id="w1", discord_bot_token=DC_TOKEN
    ) == [2]


# -- the out-of-reach lines name the exception alike --


async def _telegram_out_of_reach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> str:
    from bot.telegram import TelegramAdapter

    async def start(self: TelegramAdapter, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(TelegramAdapter, "start", start)
    settings = Settings(
        telegram_bot_token=SecretStr("123456:" + "T" * 35),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    with pytest.raises(OutOfReach) as caught:
        await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    return str(caught.value)


async def _discord_out_of_reach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> str:
    from bot.discord import DiscordAdapter

    async def start(self: DiscordAdapter, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(DiscordAdapter, "start", start)
    with pytest.raises(OutOfReach) as caught:
        await asyncio.wait_for(run(_settings(tmp_path), asyncio.Event()), 60)
    return str(caught.value)


def _wrapped(outer: NetworkError, inner: BaseException) -> NetworkError:
    outer.__cause__ = inner  # (as bot/telegram/transport.py raises it: ``from`` aiohttp's)
    return outer


def _no_route() -> aiohttp.ClientConnectorError:
    """What aiohttp raises with no network (discord.py's login, the Bot API transport)."""
    key = aiohttp.client_reqrep.ConnectionKey("example.org", 443, True, True, None, None, None)
    return aiohttp.ClientConnectorError(key, OSError(101, "Network is unreachable"))


TG_LINE = (  # (no TELEGRAM_API_BASE_URL set: nu59 names Telegram's server, not the variable)
    "cannot reach the Telegram Bot API ({}): check the network (the bot calls "
    "https://api.telegram.org)"
)
DC_LINE = "cannot reach Discord ({}): check the network"


@pytest.mark.parametrize(
    ("telegram", "discord_error", "name"),
    [
        # what each platform's start raises for one failure, named the same way on both:
        # no network (Discord's said "ClientConnectorError"); a timeout (Telegram's said
        # "Timed out", python-telegram-bot's text)
        (
            _wrapped(NetworkError(f"aiohttp.ClientConnectorError: {_no_route()}"), _no_route()),
            _no_route(),
            "aiohttp.ClientConnectorError",
        ),
        (_wrapped(TimedOut(), TimeoutError()), TimeoutError(), "TimeoutError"),
    ],
)
async def test_both_platforms_name_the_same_exception_alike(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    telegram: NetworkError,
    discord_error: BaseException,
    name: str,
) -> None:
    assert await _telegram_out_of_reach(tmp_path, monkeypatch, telegram) == TG_LINE.format(name)
    assert await _discord_out_of_reach(tmp_path, monkeypatch, discord_error) == DC_LINE.format(name)


async def test_other_libraries_exceptions_are_named_qualified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """python-telegram-bot's own transport (httpx) is named as before
    (``httpx.ConnectError``), its timeouts by the httpx one; discord.py's 5xx as
    ``discord.DiscordServerError`` (the bare class before)."""
    connect = httpx.ConnectError("All connection attempts failed")
    said = await _telegram_out_of_reach(
        tmp_path, monkeypatch, _wrapped(NetworkError(f"httpx.ConnectError: {connect}"), connect)
    )
    assert said == TG_LINE.format("httpx.ConnectError")
    timeout = httpx.ReadTimeout("timed out")
    said = await _telegram_out_of_reach(tmp_path, monkeypatch, _wrapped(TimedOut(), timeout))
    assert said == TG_LINE.format("httpx.ReadTimeout")
    answer = SimpleNamespace(status=503, reason="Service Unavailable")
    said = await _discord_out_of_reach(
        tmp_path, monkeypatch, discord.DiscordServerError(answer, "down")
    )
    assert said == DC_LINE.format("discord.DiscordServerError")
