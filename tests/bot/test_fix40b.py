"""fix40b: three wording leftovers.

1. Chinese Poker (R7.6): a player an admin's ``/kick`` stood up during a hand (or its
   reveal) stands up when the game to the target ends, and was told so when kicked; as it
   ended they were told in private "The hand at table #N is over: you stood up …". Now
   "The game to 51 at table #N is over: …" (Russian likewise). A player leaving the group
   (or the Discord server) during a Chinese hand: the group read "… leaves the table after
   this hand (their moves are made for them)"; now it says the game to 51 ends with the
   hand, settled for everyone, and whether their hand is dead (R7.7).
2. The single process's webhook (python-telegram-bot's server) refuses requests otherwise
   than the router (403 for a right secret with another Content-Type, 500 for a body not
   JSON, no warning): pinned, and docs/operations.md says so.
3. A Discord token refused (a 401 at login, discord.py's ``LoginFailure``; the gateway's
   close code 4004) was said three ways: at the start, by a running bot whose connection
   ended, and in a worker's shard (there a traceback). Now one line, ``TOKEN_REFUSED``, and
   one test of it (``token_refused``), as ``close_code_advice`` is for close codes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from pydantic import SecretStr

from bot.app import run
from bot.cluster import Worker
from bot.config import ConfigError, Settings
from bot.discord import DiscordAdapter
from bot.service import TableService
from bot.telegram.fake_api import FakeTelegram, FakeUser
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import service_env
from tests.bot.test_fix39k import _chinese_kick
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street, configure, start
from tests.bot.test_webhook import SECRET, _group_update, free_port, listening
from tests.bot.test_webhook import TOKEN as TG_TOKEN


@pytest.mark.parametrize("when", ["hand", "reveal"])
async def test_r7_6_a_chinese_player_kicked_is_told_the_game_ended_as_they_stand_up(
    when: str,
) -> None:
    """Bob kicked mid-hand (or during the reveal) of a game to 51: as the game ends with the
    hand he stands up, and his last private notice names the game, not "the hand"."""
    service, presenter, _store, clock = service_env()
    try:
        await _chinese_kick(service, presenter, when)
        t = service.table_in(GROUP)
        assert t is not None
        seat = t.seat_of(BOB.user_id)
        assert seat is not None and seat.kicked
        stack = seat.stack
        before = len(presenter.privates.get(BOB.user_id, []))
        if when == "hand":
            await auto_street(service, presenter, ALICE)
        for _ in range(6):
            clock.now += 60
            await service.run_due()
        assert t.seat_of(BOB.user_id) is None and t.chinese is None
        told = [s.text for s in presenter.privates.get(BOB.user_id, [])[before:]]
        told = [s for s in told if "admin" in s]
        assert len(told) == 1, told
        assert told[0].startswith(
            f"The game to 51 at table #{t.id} is over: you stood up, as an admin asked"
        ), told
        assert "The hand" not in told[0]
        assert stack > 0  # (his stack, settled by the game, came back: the line says how much)
        assert told[0].endswith(" back to your balance."), told
    finally:
        await service.stop()


def test_the_chinese_stood_up_texts_in_both_languages() -> None:
    assert tr(
        "en", "private.kicked_stood_up_chinese", table=7, target=51, amount=40, label="kush"
    ) == (
        "The game to 51 at table #7 is over: you stood up, as an admin asked; 40 kush back "
        "to your balance."
    )
    assert tr("en", "private.kicked_stood_up_nothing_chinese", table=7, target=51) == (
        "The game to 51 at table #7 is over: you stood up, as an admin asked."
    )
    assert tr(
        "ru", "private.kicked_stood_up_chinese", table=7, target=51, amount=40, label="куш"
    ) == (
        "Игра до 51 очка за столом #7 окончена: вы встали из-за стола по решению админа; "
        "возвращено на баланс: 40 кушей."
    )
    assert tr("ru", "private.kicked_stood_up_nothing_chinese", table=7, target=100) == (
        "Игра до 100 очков за столом #7 окончена: вы встали из-за стола по решению админа."
    )


@pytest.mark.parametrize("when", ["hand", "done", "reveal"])
async def test_r7_6_a_chinese_player_leaving_the_group_ends_the_game_and_the_group_is_told(
    when: str,
) -> None:
    """Bob leaves the group during a hand of a game to 51 (his cards not placed, placed, or
    in the reveal): the group read "Bob left the group and leaves the table after this hand
    (their moves are made for them)", which said nothing of the game to 51 ending with the
    hand for everyone (R7.6) nor of his dead hand (R7.7); in the reveal no move is made."""
    service, presenter, _store, _clock = service_env()
    try:
        await configure(service, game="chinese", reveal_pause_seconds="5")
        await start(service, [ALICE, BOB], "chinese")
        if when in ("done", "reveal"):
            await auto_street(service, presenter, BOB)
        if when == "reveal":
            await auto_street(service, presenter, ALICE)
        t = service.table_in(GROUP)
        assert t is not None and (t.reveal is not None) == (when == "reveal")
        before = len(presenter.posts)
        assert await service.member_left(GROUP, BOB) is not None
        await service.rt.settled(t)
        told = [text for _, text in presenter.posts[before:]]
        if when == "hand":
            said = (
                "👋 Bob left the group: their hand is dead, and the game to 51 ends with it, "
                "settled for everyone."
            )
        else:
            said = (
                "👋 Bob left the group: the game to 51 ends with this hand, settled for everyone."
            )
        assert told == [said]
    finally:
        await service.stop()


def test_the_chinese_left_group_texts_in_russian() -> None:
    assert tr("ru", "notice.left_group_dead_chinese", name="Анна", target=51) == (
        "👋 Анна покидает группу: рука мёртвая, и этой раздачей закончится игра до 51 очка с "
        "расчётом для всех."
    )
    assert tr("ru", "notice.left_group_later_chinese.discord", name="Анна", target=100) == (
        "👋 Анна покидает сервер: игра до 100 очков закончится этой раздачей с расчётом для всех."
    )


# -- 3. a refused Discord token: one line wherever it comes ----------------------------------
#: the one wording (bot.discord.adapter.TOKEN_REFUSED), written out: three wordings before
REFUSED = (
    "Discord refused DISCORD_BOT_TOKEN (was it reset?): copy the token from the Developer "
    "Portal (Bot tab) into .env"
)
DC_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


def _closed(code: int) -> discord.ConnectionClosed:
    return discord.ConnectionClosed(SimpleNamespace(close_code=code), shard_id=None)  # type: ignore[arg-type]


@pytest.mark.parametrize("how", ["401", "4004"])
async def test_a_token_refused_at_the_start_is_the_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """At the start: a 401 at login (``LoginFailure``) said "Discord refused
    DISCORD_BOT_TOKEN: copy the token …", a 4004 before READY "Discord closed the connection
    at the start (close code 4004): the token was refused: copy DISCORD_BOT_TOKEN …"."""

    async def start(self: DiscordAdapter, **kwargs: object) -> None:
        if how == "401":
            raise discord.LoginFailure("Improper token has been passed.")
        raise _closed(4004)

    monkeypatch.setattr(DiscordAdapter, "start", start)
    settings = Settings(
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    with pytest.raises(ConfigError) as caught:
        await asyncio.wait_for(run(settings, asyncio.Event()), 60)
    assert str(caught.value) == REFUSED


@pytest.mark.parametrize("how", ["401", "4004"])
async def test_a_token_refused_while_running_is_the_one_line(
    caplog: pytest.LogCaptureFixture, how: str
) -> None:
    """A running bot's connection ended by the token (reset in the Developer Portal) said
    "… (reset in the Developer Portal?): copy the new token from the Bot tab into .env"."""
    caplog.set_level(logging.ERROR, logger="bot.discord.adapter")
    adapter = DiscordAdapter(TableService(MemoryStore()), DC_TOKEN)
    said: list[str] = []
    adapter.on_ended = said.append
    error = discord.LoginFailure("Improper token") if how == "401" else _closed(4004)

    async def ended() -> None:
        raise error

    task = asyncio.create_task(ended())
    await asyncio.gather(task, return_exceptions=True)
    adapter._connection_ended(task)
    line = f"Discord is no longer served: {REFUSED}, then start the bot again"
    assert said == [line]
    assert [r.getMessage() for r in caplog.records] == [line]
    await adapter.stop()


class _Refused:
    """A worker's Discord (:class:`bot.cluster.ShardRunner`) whose every shard's connect
    Discord refuses the token of."""

    shards: frozenset[int] = frozenset()

    def __init__(self, error: BaseException) -> None:
        self.error = error

    async def connect_shard(self, shard_id: int) -> None:
        raise self.error

    async def disconnect_shard(self, shard_id: int) -> None:
        return None


@pytest.mark.parametrize("how", ["401", "4004"])
async def test_a_token_refused_to_a_workers_shard_is_the_one_line(
    caplog: pytest.LogCaptureFixture, how: str
) -> None:
    """A worker whose shard's connect Discord refused the token of logged "cannot connect
    Discord shard 0" and discord.py's traceback: now the one line, no traceback."""
    caplog.set_level(logging.INFO, logger="bot.cluster")
    error = discord.LoginFailure("Improper token") if how == "401" else _closed(4004)
    worker = Worker(
        TableService(MemoryStore()), "w0", "http://127.0.0.1/w0", ttl=2.0,
        discord_shards=([0], 1), discord=_Refused(error),
    )  # fmt: skip
    await worker.start()
    try:
        lines = [r for r in caplog.records if "cannot connect Discord shard" in r.getMessage()]
        assert [r.getMessage() for r in lines] == [
            f"worker w0: cannot connect Discord shard 0: {REFUSED}"
        ]
        assert lines[0].levelno == logging.ERROR and lines[0].exc_info is None
        assert worker.shards == set()
    finally:
        await worker.stop()


# -- 2. the single process's webhook refusals, as python-telegram-bot answers them ------------
async def test_the_single_process_webhook_refusals_are_ptbs_and_documented(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``TELEGRAM_WEBHOOK_URL`` without ``--router``: python-telegram-bot's own server answers
    (not the router's aiohttp endpoint): 403 for a wrong secret and also for the right secret
    with a body not sent as exactly ``application/json`` (the router: 415, and it takes
    ``application/json; charset=utf-8``), 500 for a body that is not JSON (the router: 400),
    and logs none of them above DEBUG. docs/operations.md said only that the router refuses
    them: it now says so, and why it is not ours to change."""
    caplog.set_level(logging.INFO)
    fake = FakeTelegram(TG_TOKEN)
    await fake.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg-hook"
    settings = Settings(
        telegram_bot_token=SecretStr(TG_TOKEN),
        telegram_api_base_url=fake.base_url,
        telegram_webhook_url=url,
        telegram_webhook_listen=f"127.0.0.1:{port}",
        telegram_webhook_secret=SecretStr(SECRET),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    task = asyncio.create_task(run(settings, stop))
    try:
        await fake.wait_for(lambda: fake.webhook, timeout=20)
        await listening(port)
        alice = FakeUser(11, "Alice", "alice", "en")
        body = json.dumps(_group_update(1, "/newtable", alice))
        right = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
        wrong = {"X-Telegram-Bot-Api-Secret-Token": "wrong"}
        cases = [
            ({**wrong, "Content-Type": "application/json"}, body, 403),
            ({**right, "Content-Type": "text/plain"}, body, 403),  # (the router: 415)
            ({**right, "Content-Type": "application/json; charset=utf-8"}, body, 403),
            ({**right, "Content-Type": "application/json"}, "not json", 500),  # (router: 400)
        ]
        before = len(caplog.records)
        async with aiohttp.ClientSession() as http:
            for headers, data, status in cases:
                async with http.post(url, data=data, headers=headers) as resp:
                    assert resp.status == status, headers
        await asyncio.sleep(0.3)
        assert not fake.calls_of("sendMessage")  # the refused updates did nothing
        said = [r.getMessage() for r in caplog.records[before:] if r.levelno > logging.DEBUG]
        assert said == [], said  # (python-telegram-bot says nothing above DEBUG)
        stop.set()
        await asyncio.wait_for(task, 30)
    finally:
        stop.set()
        if not task.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 30)
        await fake.stop()
    ops = " ".join((Path(__file__).parents[2] / "docs" / "operations.md").read_text().split())
    assert (
        "python-telegram-bot's server answers 403 to a request without the secret token or "
        "with another one, and also to one with the right secret token whose Content-Type is "
        "not exactly application/json"
    ) in ops
