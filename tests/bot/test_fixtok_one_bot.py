"""fixtok: no false stop of a lone bot by the one-bot-per-token guard (bot/telegram/one_bot.py).

- a newcomer's two network blips (a poll of its own that Telegram still held, refusing its
  next polls with 409 for up to 10 s), less than 45 s apart in its first ~75 s, made a 60 s
  "conflict" and the lone bot stopped (exit status 2). A stop now also needs the 409s to have
  come in three bursts (409s more than ``GHOST_SECONDS`` after the burst's first start the
  next): two bursts can be two blips; another poller ends this bot's polls at least every ~31 s
  (python-telegram-bot waits 30 s at most after failed polls), three bursts in 60 s.
- a long-running bot's single blip logged the error "another process is polling with this bot
  token": a conflict's first 409 is now a warning that a 409 was seen; the error comes once
  another process is known to poll (the same evidence a stop needs).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

import bot.telegram.adapter as adapter_module
import bot.telegram.one_bot as one_bot
from bot.app import run
from bot.telegram.fake_api import TERMINATED, FakeTelegram
from tests.bot.test_brk54_one_bot import conflicts_at, guard_at
from tests.bot.test_ops43_one_bot import answered, lines, settings, stopped
from tests.bot.test_webhook import TOKEN

# a blip: a poll of ours Telegram still holds (10 s at most) refuses the next ones, retried
# after 1, 1.5, 2.25, 3.4 s
BLIP = [0.0, 1.0, 2.5, 4.75, 8.1]


def test_two_blips_of_a_newcomer_do_not_stop_it(monkeypatch: pytest.MonkeyPatch) -> None:
    guard, clock, stops = guard_at(monkeypatch)
    # past the start's 15 s; the second blip 36 s after the first's last 409, 60 s after its first
    conflicts_at(guard, clock, [16.0 + t for t in BLIP] + [68.0 + t for t in BLIP], TERMINATED)
    assert stops == []
    assert guard.stopped is None


def test_a_newcomer_refused_every_31_s_stops_at_the_third(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two pollers once settled: one of them is refused once every ~31 s (the other's 30 s
    wait and its poll), the other too; the newcomer (its first poll ended by the poller
    already running: fix40d) stops once the conflict has lasted 60 s."""
    guard, clock, stops = guard_at(monkeypatch)
    conflicts_at(guard, clock, [1.0, 20.0, 51.0], TERMINATED)
    assert stops == []
    clock.now += 31.0  # 82 s: 62 s after the conflict's first 409, its third burst
    conflicts_at(guard, clock, [0.0], TERMINATED)
    assert len(stops) == 1 and "another process kept polling" in stops[0]


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Conflicts give way after 2 s; 409s of the first 0.5 s of polling start none (and a
    burst is 0.5 s long)."""
    monkeypatch.setattr(adapter_module, "CONFLICT_SECONDS", 2.0)
    monkeypatch.setattr(adapter_module, "GHOST_SECONDS", 0.5)


@pytest.mark.usefixtures("quick")
async def test_a_lone_newcomer_goes_on_after_two_blips(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    fake = FakeTelegram(TOKEN)
    fake.conflicts = True  # (409s as Telegram answers them; no other poller)
    await fake.start()
    stop = asyncio.Event()
    task = asyncio.create_task(run(settings(fake, tmp_path / "a.sqlite3"), stop))
    try:
        await fake.wait_for(lambda: fake.calls_of("getUpdates"))
        await asyncio.sleep(0.8)  # past the start's 0.5 s
        await fake.hold_poll(0.2)  # a blip: its pending poll refused, the next one after 1 s
        await fake.wait_for(lambda: fake.conflicted >= 1)
        await asyncio.sleep(2.3)  # the next blip past the conflict's 2 s, within 45 s
        await fake.hold_poll(0.2)
        await fake.wait_for(lambda: fake.conflicted >= 2)
        await asyncio.sleep(1.5)
        assert not lines(caplog, "this bot stops (only one bot per token")
        assert not task.done()
        assert await answered(fake)
    finally:
        await stopped([task], [stop])
        await fake.stop()


def records(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == one_bot.__name__]


def test_a_blip_of_a_long_running_bot_is_one_warning_not_another_poller(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    guard, clock, stops = guard_at(monkeypatch)
    clock.now += 3600.0  # polling for an hour
    conflicts_at(guard, clock, BLIP, TERMINATED)
    assert stops == []
    said = records(caplog)
    assert [level for level, _ in said] == [logging.WARNING]
    assert "409 Conflict" in said[0][1] and "a network blip, or another process" in said[0][1]
    assert not lines(caplog, "another process is polling")


def test_a_long_running_bot_says_another_polls_once_it_has_the_evidence(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Refused every ~31 s (another poller's rhythm once settled): a warning at the first
    409, the line that another process polls once the conflict has lasted 60 s in three
    bursts (once); the bot that polled first goes on."""
    caplog.set_level(logging.INFO, logger="bot")
    guard, clock, stops = guard_at(monkeypatch)
    clock.now += 3600.0
    conflicts_at(guard, clock, [0.0, 31.0], TERMINATED)
    assert not lines(caplog, "another process is polling")
    conflicts_at(guard, clock, [31.0, 62.0], TERMINATED)  # 62 s and 93 s
    assert [level for level, _ in records(caplog)] == [logging.WARNING, logging.ERROR]
    said = lines(caplog, "another process is polling with this bot token")
    assert len(said) == 1 and "this bot polled first and goes on" in said[0]
    assert stops == []
