"""fix40d: two pollers of one Telegram token started within a minute of each other both
stopped (bot/telegram/one_bot.py).

Each gave way in a conflict that began within :data:`~bot.telegram.one_bot.CONFLICT_SECONDS`
of its own polling start: the bot that had polled alone for 30 s when the second one came
was as much a "newcomer" as the second, so both stopped after a minute (exit status 2) and
the token was served by nobody. The newcomer is now told by its first poll: a poller
already running ends it within a second or two, so a conflict whose 409s began in the
first :data:`~bot.telegram.one_bot.GHOST_SECONDS` of polling gives way after
``CONFLICT_SECONDS``; a conflict that began later but still within ``CONFLICT_SECONDS`` of
the start (the other one may be the newcomer) gives way only after
:data:`~bot.telegram.one_bot.UNSURE_FACTOR` times that, by when a newcomer that met it has
stopped."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

import bot.telegram.adapter as adapter_module
import bot.telegram.one_bot as one_bot
from bot.app import TokenTaken
from bot.telegram.fake_api import TERMINATED
from tests.bot.test_brk54_one_bot import conflicts_at, guard_at
from tests.bot.test_ops43_one_bot import answered, bot, fake_telegram, lines, settings


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Conflicts give way after 6 s (60 s when unsure which one is the newcomer); the first
    2.5 s of polling are its start (a poller already running ends the first poll about 1 s
    in: python-telegram-bot polls again 1 s after a failed poll). Its waits are not scaled
    down: the newcomer's stop takes about 13 s."""
    monkeypatch.setattr(adapter_module, "CONFLICT_SECONDS", 6.0)
    monkeypatch.setattr(adapter_module, "GHOST_SECONDS", 2.5)
    monkeypatch.setattr(one_bot, "UNSURE_FACTOR", 10)


@pytest.mark.usefixtures("quick")
async def test_a_poller_running_for_less_than_the_conflict_time_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A polls alone for 4 s (past its start, within the 6 s conflict time), then B starts
    with the same token: B stops with the one line (TokenTaken, exit status 2), A goes on
    and serves. Without the fix A gave way too: its conflict began 4 s after its start, and
    it stopped first (B, left alone, then polled on: its stop never came)."""
    caplog.set_level(logging.INFO, logger="bot")
    async with (
        fake_telegram() as fake,
        bot(settings(fake, tmp_path / "a.sqlite3")) as (a, _),
    ):
        await fake.wait_for(lambda: fake.calls_of("getUpdates"))
        await asyncio.sleep(4.0)
        async with bot(settings(fake, tmp_path / "b.sqlite3")) as (b, _):
            with pytest.raises(TokenTaken, match="another process kept polling"):
                await asyncio.wait_for(b, 40)
        assert fake.conflicted >= 3  # (the two really ended each other's polls)
        await asyncio.sleep(6.5)  # (past A's conflict time: had it given way, it stopped)
        assert not a.done()
        assert await answered(fake)  # A still serves
        stops = lines(caplog, "this bot stops (only one bot per token")
        assert len(stops) == 1, stops  # B's alone


def test_a_conflict_begun_at_the_start_gives_way_one_begun_later_waits_longer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unit of the rule, 60 s conflicts: a bot whose polls were refused from its first
    second (it met a poller already running; its 409s as python-telegram-bot's waits of 1,
    1.5, 2.25 … s of both make them) stops once the conflict lasted 60 s; one whose
    first 409 came 30 s after its start (it polled alone first: most likely the other is
    the newcomer, which stops at 60 s) is still there at 60 s and 120 s, and stops only
    once the conflict has lasted 180 s (neither could tell: both started within a minute,
    the first 409s late)."""
    guard, clock, stops = guard_at(monkeypatch)
    conflicts_at(guard, clock, [1.0, 3.5, 7.25, 12.9, 21.3, 34.0, 52.9, 81.4], TERMINATED)
    assert len(stops) == 1  # (60 s after its first 409 past the start's 15 s, at 21.3 s)
    guard, clock, stops = guard_at(monkeypatch)
    conflicts_at(guard, clock, [30.0 + 31 * i for i in range(6)], TERMINATED)  # to 185 s
    assert stops == []  # (155 s of conflict)
    conflicts_at(guard, clock, [31.0], TERMINATED)  # 216 s: 186 s of conflict
    assert len(stops) == 1 and "for 180 s" in stops[0]
