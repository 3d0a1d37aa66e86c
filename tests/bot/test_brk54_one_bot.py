"""brk54: no false stop of a lone bot by the one-bot-per-token guard (bot/telegram/one_bot.py).

- a bot started right after a crash or a ``kill -9`` meets a few 409s "terminated by other
  getUpdates request" (Telegram still holds the dead process's long poll): with a later blip's
  409s they made a 60 s "conflict" and the lone bot stopped;
- ``getWebhookInfo`` answering the webhook's URL in another normal form (host case, default
  port, percent-encoding, trailing slash) was taken for another process's webhook: stop;
- SIGTERM first, then the guard's stop during the shutdown: exit status 2 instead of 0.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from telegram.error import Conflict

import bot.telegram.adapter as adapter_module
import bot.telegram.one_bot as one_bot
from bot.telegram.fake_api import TERMINATED, WEBHOOK_ACTIVE, too_many
from bot.telegram.one_bot import TokenGuard, same_url
from tests.bot.test_ops43_one_bot import answered, bot, fake_telegram, lines, settings, webhook_bot


class Clock:
    """``time.monotonic`` of bot.telegram.one_bot, moved by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def guard_at(monkeypatch: pytest.MonkeyPatch) -> tuple[TokenGuard, Clock, list[str]]:
    clock = Clock()
    monkeypatch.setattr(one_bot.time, "monotonic", clock)
    stops: list[str] = []
    return TokenGuard(stops.append, 60.0), clock, stops


def conflicts_at(guard: TokenGuard, clock: Clock, times: list[float], text: str) -> None:
    start = clock.now
    for t in times:
        clock.now = start + t
        guard.polling_error(Conflict(text))


def test_a_dead_process_poll_at_the_start_and_later_blips_do_not_stop_a_lone_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    guard, clock, stops = guard_at(monkeypatch)
    # a dead process's long poll (10 s) refuses the first polls (retried after 1, 1.5, 2.25,
    # 3.4 s), then two network blips each refuse a poll or two
    conflicts_at(guard, clock, [0.2, 1.2, 2.7, 5.0, 8.4, 50.0, 51.0, 62.0, 63.0], TERMINATED)
    assert stops == []
    assert guard.stopped is None


def test_a_real_newcomer_still_stops_after_the_conflict_lasted_60_s(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    guard, clock, stops = guard_at(monkeypatch)
    conflicts_at(guard, clock, [0.2 + 5 * i for i in range(15)], TERMINATED)  # to 70.2 s
    assert stops == []  # (its first 15 s were taken for a dead process's poll)
    clock.now += 5.0  # 75.2 s: 60 s after the first 409 past the start's 15 s
    guard.polling_error(Conflict(TERMINATED))
    assert len(stops) == 1 and "another process kept polling" in stops[0]
    said = lines(caplog, "refused with 409 Conflict")  # (a warning: it might have been a blip)
    assert len(said) == 1 and "this bot stops if it goes on for 60 s" in said[0]
    assert not lines(caplog, "another process is polling")  # (its stop line says it)


def test_a_webhook_refusal_at_the_start_counts_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    guard, clock, stops = guard_at(monkeypatch)
    conflicts_at(guard, clock, [0.2 + 5 * i for i in range(13)], WEBHOOK_ACTIVE)  # to 60.2 s
    assert len(stops) == 1 and "a webhook stayed set" in stops[0]


@pytest.mark.parametrize(
    "answered_url",
    [
        "https://bot.example.org/tg/hook",
        "https://BOT.Example.ORG/tg/hook",
        "HTTPS://bot.example.org:443/tg/hook",
        "https://bot.example.org/tg/hook/",
        "https://bot.example.org/%74g/hook",
    ],
)
def test_one_webhook_in_another_normal_form_is_the_same(answered_url: str) -> None:
    assert same_url(answered_url, "https://bot.example.org/tg/hook")


@pytest.mark.parametrize(
    "other",
    [
        "",
        "https://other.example.org/tg/hook",
        "https://bot.example.org:8443/tg/hook",
        "https://bot.example.org/tg/other",
        "http://bot.example.org/tg/hook",
    ],
)
def test_another_webhook_is_not_the_same(other: str) -> None:
    assert not same_url(other, "https://bot.example.org/tg/hook")


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adapter_module, "CONFLICT_SECONDS", 2.0)
    monkeypatch.setattr(adapter_module, "WEBHOOK_LOOK_SECONDS", 0.3)
    monkeypatch.setattr(adapter_module, "GHOST_SECONDS", 1.5)


@pytest.mark.usefixtures("quick")
async def test_a_bot_restarted_after_kill_9_and_a_blip_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    async with fake_telegram() as fake:
        fake.hold_first_polls = 1.2  # (the killed process's long poll, scaled: 10 s of the 15 s)
        async with bot(settings(fake, tmp_path / "a.sqlite3")) as (task, _):
            await fake.wait_for(lambda: fake.conflicted >= 2, timeout=10)
            await asyncio.sleep(2.2 - 1.2)
            await fake.hold_poll(0.6)  # a network blip: a poll issued again while one is held
            await asyncio.sleep(2.5)
            assert fake.conflicted >= 3  # (the blip's 409 came)
            assert not task.done()
            assert await answered(fake)
            assert not lines(caplog, "this bot stops (only one bot per token")


@pytest.mark.usefixtures("quick")
async def test_a_webhook_answered_in_another_normal_form_does_not_stop_the_bot(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    async with fake_telegram() as fake:
        looks: list[str] = []

        async def info(p: dict[str, Any]) -> dict[str, Any]:
            assert fake.webhook is not None
            url = (
                fake.webhook[0]
                .replace("http://127.0.0.1", "HTTP://127.0.0.1")
                .replace("/tg-hook", "/%74g-hook/")
            )
            looks.append(url)
            return {"url": url, "has_custom_certificate": False, "pending_update_count": 0}

        fake._m_getWebhookInfo = info  # type: ignore[method-assign]
        async with webhook_bot(fake, tmp_path / "w.sqlite3") as (task, _):
            await fake.wait_for(lambda: len(looks) >= 3, timeout=10)
            assert not task.done()
            assert await answered(fake)
            assert not lines(caplog, "webhook of this bot token was")


async def test_sigterm_during_the_conflict_exits_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain_stop = adapter_module.TelegramAdapter.stop

    async def stop_as_the_60_s_end(self: adapter_module.TelegramAdapter) -> None:
        assert self.on_token_taken is not None  # the guard's stop, while shutting down
        self.on_token_taken("another process kept polling with this bot token for 60 s")
        await plain_stop(self)

    monkeypatch.setattr(adapter_module.TelegramAdapter, "stop", stop_as_the_60_s_end)
    async with (
        fake_telegram(conflicts=False) as fake,
        bot(settings(fake, tmp_path / "a.sqlite3")) as (task, stop),
    ):
        await fake.wait_for(lambda: fake.calls_of("getUpdates"))
        stop.set()  # SIGTERM
        await asyncio.wait_for(task, 30)  # returns: no TokenTaken, so `python -m bot` exits 0


@pytest.mark.usefixtures("quick")
async def test_a_webhook_bot_whose_looks_fail_for_long_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """getWebhookInfo refused (502s, a 429 with retry_after, a reset connection) look after
    look: the bot goes on serving (a failed look is no deleted webhook)."""
    caplog.set_level(logging.INFO, logger="bot")

    def info(c: Any) -> bool:
        return bool(c.method == "getWebhookInfo")

    async with fake_telegram() as fake, webhook_bot(fake, tmp_path / "w.sqlite3") as (task, _):
        fake.fail_when(info, *too_many(1))
        fake.drop(info)
        fake.outage(info)
        await fake.wait_for(lambda: len(fake.calls_of("getWebhookInfo")) >= 6, timeout=15)
        assert not task.done()
        assert await answered(fake)
        fake.recover()
        n = len(fake.calls_of("getWebhookInfo"))
        await fake.wait_for(lambda: len(fake.calls_of("getWebhookInfo")) >= n + 2, timeout=10)
        assert not task.done()
        assert not lines(caplog, "webhook of this bot token was")
