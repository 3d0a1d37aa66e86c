"""One bot per token (bot/telegram/one_bot.py): Telegram's 409 ``Conflict`` when another
process takes the token's updates, end to end through python-telegram-bot against the fake
with :attr:`FakeTelegram.conflicts` on (a pending getUpdates ended by another process's, and
getUpdates refused while a webhook is set).

- two pollers on other databases (other machines: no lock sees them): the one that polled
  first goes on, the newcomer stops with one line (exit status 2); no traceback per poll;
- a webhook-mode bot running, then a poller starts: the poller deletes the webhook (one line)
  and serves; the webhook bot sees its webhook gone and stops;
- a poller running, then a webhook-mode bot starts: the poller gets nothing and stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from telegram.error import Conflict

import bot.telegram.adapter as adapter_module
from bot.__main__ import _run
from bot.app import TokenTaken, run
from bot.config import Settings
from bot.telegram.fake_api import FakeTelegram, FakeUser
from tests.bot.test_webhook import SECRET, TOKEN, free_port, listening

GROUP = -4300
ALICE = FakeUser(11, "Alice", "alice", "en")


def settings(fake: FakeTelegram, db: Path, webhook_port: int | None = None) -> Settings:
    hook: dict[str, Any] = {}
    if webhook_port is not None:
        hook = {
            "telegram_webhook_url": f"http://127.0.0.1:{webhook_port}/tg-hook",
            "telegram_webhook_listen": f"127.0.0.1:{webhook_port}",
            "telegram_webhook_secret": SecretStr(SECRET),
        }
    return Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=fake.base_url,
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
        **hook,
    )


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Conflicts give way after 2 s, a webhook bot looks at its webhook every 0.3 s; a
    poller's first 1.5 s are its start (a newcomer's first poll is ended about 1 s in:
    python-telegram-bot polls again 1 s after a failed poll; fix40d)."""
    monkeypatch.setattr(adapter_module, "CONFLICT_SECONDS", 2.0)
    monkeypatch.setattr(adapter_module, "WEBHOOK_LOOK_SECONDS", 0.3)
    monkeypatch.setattr(adapter_module, "GHOST_SECONDS", 1.5)


async def answered(fake: FakeTelegram) -> bool:
    """/help in the group gets an answer (some process serves the token's updates)."""
    n = len(fake.calls_of("sendMessage"))
    await fake.send_text(ALICE, GROUP, "/help")
    await fake.wait_for(lambda: len(fake.calls_of("sendMessage")) > n, timeout=20)
    return True


def lines(caplog: pytest.LogCaptureFixture, part: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if part in r.getMessage()]


def traced(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Records logged with a 409's traceback (python-telegram-bot logs one per failed poll,
    and one for its last getUpdates at a stop)."""
    return [
        r.getMessage() for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], Conflict)
    ]


async def stopped(tasks: list[asyncio.Task[None]], stops: list[asyncio.Event]) -> None:
    for stop in stops:
        stop.set()
    for task in tasks:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 30)


@asynccontextmanager
async def fake_telegram(conflicts: bool = True) -> AsyncIterator[FakeTelegram]:
    """The fake Bot API for ``TOKEN`` (with :attr:`FakeTelegram.conflicts` as given), started;
    stopped on exit."""
    fake = FakeTelegram(TOKEN)
    fake.conflicts = conflicts
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@asynccontextmanager
async def bot(settings: Settings) -> AsyncIterator[tuple[asyncio.Task[None], asyncio.Event]]:
    """``(task, stop)``: :func:`bot.app.run` on ``settings`` started as a task; on exit
    ``stop`` is set and the task waited for (:func:`stopped`: whatever it raised)."""
    stop = asyncio.Event()
    task = asyncio.create_task(run(settings, stop))
    try:
        yield task, stop
    finally:
        await stopped([task], [stop])


@asynccontextmanager
async def webhook_bot(
    fake: FakeTelegram, db: Path
) -> AsyncIterator[tuple[asyncio.Task[None], asyncio.Event]]:
    """:func:`bot` in webhook mode on a free port: entered once its webhook is set at the
    fake and its port listens."""
    port = free_port()
    async with bot(settings(fake, db, port)) as (task, stop):
        await fake.wait_for(lambda: fake.webhook)
        await listening(port)
        yield task, stop


@pytest.mark.usefixtures("quick")
async def test_a_second_poller_stops_with_one_line_and_the_first_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="telegram")
    caplog.set_level(logging.INFO, logger="bot")
    async with (
        fake_telegram() as fake,
        bot(settings(fake, tmp_path / "a.sqlite3")) as (a, stop_a),
    ):
        await fake.wait_for(lambda: fake.calls_of("getUpdates"))
        await asyncio.sleep(2.5)  # (a polled alone longer than CONFLICT_SECONDS: it was first)
        assert not lines(caplog, "another process")
        async with bot(settings(fake, tmp_path / "b.sqlite3")) as (b, _):
            with pytest.raises(TokenTaken, match="another process kept polling"):
                await asyncio.wait_for(b, 30)
        assert fake.conflicted >= 3  # (the two really ended each other's polls)
        assert not a.done()
        assert await answered(fake)  # the first one still serves
        seen = lines(caplog, "refused with 409 Conflict")
        assert len(seen) == 2, seen  # one warning each, not one per poll
        assert sum("this bot stops if it goes on for 2 s" in s for s in seen) == 1
        # the first one says another process polls once it knows (if before the other stopped)
        said = lines(caplog, "another process is polling with this bot token")
        assert len(said) <= 1 and all("polled first and goes on" in s for s in said), said
        assert len(lines(caplog, "this bot stops (only one bot per token")) == 1
        await stopped([a], [stop_a])
        assert not traced(caplog)  # no traceback per failed poll


@pytest.mark.usefixtures("quick")
async def test_a_poller_deletes_a_webhook_left_set_and_the_webhook_bot_stops(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    async with fake_telegram() as fake, webhook_bot(fake, tmp_path / "w.sqlite3") as (w, _):
        assert await answered(fake)  # the webhook bot serves
        async with bot(settings(fake, tmp_path / "p.sqlite3")) as (p, _):
            with pytest.raises(TokenTaken, match="webhook of this bot token was deleted"):
                await asyncio.wait_for(w, 30)
            assert fake.webhook is None
            assert not p.done()
            assert await answered(fake)  # the poller serves
            assert fake.conflicted == 0  # deleted before the first getUpdates
            said = lines(caplog, "a webhook was set for this bot token (127.0.0.1:")
            assert len(said) == 1 and "deleted it to poll" in said[0], said
            assert "tg-hook" not in said[0]  # (a webhook's path may hold a secret)


@pytest.mark.usefixtures("quick")
async def test_a_poller_meeting_another_process_webhook_stops(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    port = free_port()
    async with (
        fake_telegram() as fake,
        bot(settings(fake, tmp_path / "p.sqlite3")) as (p, _),
    ):
        await fake.wait_for(lambda: fake.calls_of("getUpdates"))
        await asyncio.sleep(2.5)  # (polling alone first does not keep it: it gets nothing)
        async with bot(settings(fake, tmp_path / "w.sqlite3", port)) as (w, stop_w):
            with pytest.raises(TokenTaken, match="a webhook stayed set"):
                await asyncio.wait_for(p, 30)
            assert len(lines(caplog, "a webhook is set for this bot token")) == 1
            assert fake.webhook is not None
            await listening(port)
            assert not w.done()
            assert await answered(fake)  # the webhook bot serves
            await stopped([w], [stop_w])
            assert not traced(caplog)  # (the poller's last getUpdates at its stop was refused)


def test_python_m_bot_exits_2_when_the_token_is_taken() -> None:
    async def taken() -> None:
        raise TokenTaken("another process kept polling")

    main: Coroutine[Any, Any, None] = taken()
    assert _run(main) == 2
