"""brk46: a hand's showdown is written over the table message M, which stays as the record,
and the table message is posted anew (brk45: under the pending ref committed with the step).
The bot dies after that post, before the step's messages are saved as sent. Restarted, the
bot wrote the owed showdown over the table message it posts anew (the restart gives the table
no message), so the group got the showdown a second time, posted as a new message below the
table message; M was then written as moved. Now the owed showdown goes over M again (it shows
it already: one message, the record), and M is not written as moved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord.crash_copy import discord_and_crash_copy, restarted
from tests.bot.discord.dc_world import BOB, components
from tests.bot.discord.test_brk45_nonce import _hand_played
from tests.fakes.discord_api import CHANNEL_ID, FakeDiscord


def _showdowns(fake: FakeDiscord) -> list[dict[str, Any]]:
    return [m for m in fake.channel_messages(CHANNEL_ID) if m["content"].startswith("🏁")]


async def test_a_crash_after_the_showdown_posts_it_once_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with _hand_played(monkeypatch, tmp_path, fake, db, crashed) as (seen, _):
            pass  # (the hand played; the bot stops)
        assert len(seen) == 2 and crashed.exists()
        [record] = _showdowns(fake)
        shown = record["content"]
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed, next_hand_delay=30.0) as (w, t):
            assert [m["id"] for m in _showdowns(fake)] == [record["id"]]  # not a second one
            live = [m for m in fake.channel_messages(CHANNEL_ID) if components(m)]
            assert len(live) == 1 and live[0]["id"] != record["id"]
            await w.slash(BOB, "sitout")  # the table moves on: M stays the record
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert fake.messages[int(record["id"])]["content"] == shown
            assert [m["id"] for m in _showdowns(fake)] == [record["id"]]
