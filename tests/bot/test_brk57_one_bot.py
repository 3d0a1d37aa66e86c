"""brk57: a poller that has polled alone a while is not stopped when another process sets a
webhook for its token (bot/telegram/one_bot.py): it gets no update at all, and it went on
forever saying "another process is polling; this bot polled first and goes on".

Telegram ends a running long poll at ``setWebhook`` with 409 "Conflict: terminated by
setWebhook request" (capital W: the guard looked for "webhook" case-sensitively), so the
conflict began as a poller conflict this bot (polling first) does not give way in, and the
"webhook is active" 409s that follow, within the same conflict, did not change that. A
webhook's 409 now makes the conflict a webhook one, whenever it began.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.app import TokenTaken, run
from bot.telegram.fake_api import SET_WEBHOOK_ENDED, TERMINATED, WEBHOOK_ACTIVE, FakeTelegram
from tests.bot.test_brk54_one_bot import conflicts_at, guard_at
from tests.bot.test_ops43_one_bot import lines, quick, settings, stopped
from tests.bot.test_webhook import TOKEN, free_port, listening

__all__ = ["quick"]  # (the fixture, used by name)

# python-telegram-bot's waits after failed polls: 1, 1.5, 2.25, ... 30 s at most
RETRIES = [0.0, 1.0, 2.5, 4.75, 8.1, 13.2, 20.8, 32.2, 49.3, 74.9, 104.9]


def test_a_webhook_set_while_a_long_running_bot_polls_stops_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    guard, clock, stops = guard_at(monkeypatch)
    clock.now += 3600.0  # polling alone for an hour
    conflicts_at(guard, clock, [0.0], SET_WEBHOOK_ENDED)  # its pending poll
    conflicts_at(guard, clock, [1.0 + t for t in RETRIES], WEBHOOK_ACTIVE)  # to 105.9 s
    assert len(stops) == 1 and "a webhook stayed set" in stops[0]
    assert len(lines(caplog, "a webhook is set for this bot token")) == 1
    assert not lines(caplog, "another process is polling")


def test_a_webhook_in_a_conflict_begun_by_a_poll_stops_a_long_running_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A blip's 409 (or another poller's), then a webhook set within 45 s: from then on this
    bot gets nothing; it stops 60 s after the first webhook 409, as a webhook's conflict."""
    guard, clock, stops = guard_at(monkeypatch)
    clock.now += 3600.0
    conflicts_at(guard, clock, [0.0, 1.0], TERMINATED)
    conflicts_at(guard, clock, [20.0 + t for t in RETRIES], WEBHOOK_ACTIVE)
    assert len(stops) == 1 and "a webhook stayed set" in stops[0]


@pytest.mark.usefixtures("quick")
async def test_a_poller_that_polled_first_stops_when_a_webhook_bot_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """End to end: the fake ends the pending poll at ``setWebhook`` as Telegram does."""
    caplog.set_level(logging.INFO, logger="bot")
    fake = FakeTelegram(TOKEN)
    fake.conflicts = True
    await fake.start()
    port = free_port()
    stop_w, stop_p = asyncio.Event(), asyncio.Event()
    p = asyncio.create_task(run(settings(fake, tmp_path / "p.sqlite3"), stop_p))
    w: asyncio.Task[None] | None = None
    try:
        await fake.wait_for(lambda: fake.calls_of("getUpdates"))
        await asyncio.sleep(2.5)  # (past CONFLICT_SECONDS: it polled first)
        w = asyncio.create_task(run(settings(fake, tmp_path / "w.sqlite3", port), stop_w))
        with pytest.raises(TokenTaken, match="a webhook stayed set"):
            await asyncio.wait_for(p, 30)
        await listening(port)
        assert not w.done()
        assert not lines(caplog, "another process is polling")
    finally:
        await stopped([t for t in (w, p) if t is not None], [stop_w, stop_p])
        await fake.stop()
