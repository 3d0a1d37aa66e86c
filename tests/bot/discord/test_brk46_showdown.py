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

from tests.bot.discord.crash_copy import discord_and_crash_copy
from tests.bot.discord.dc_world import ALICE, BOB, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.discord.test_fixnonce_table_message import (
    _crash_copy_at_table_post as _crash_copy_at_post,
)
from tests.fakes.discord_api import CHANNEL_ID, FakeDiscord


def _showdowns(fake: FakeDiscord) -> list[dict[str, Any]]:
    return [m for m in fake.channel_messages(CHANNEL_ID) if m["content"].startswith("🏁")]


async def test_a_crash_after_the_showdown_posts_it_once_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        seen = _crash_copy_at_post(monkeypatch, db, crashed, posts=2)
        async with world(tmp_path, fake=fake, db=db, rng_seed=7, next_hand_delay=30.0) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
        assert len(seen) == 2 and crashed.exists()
        [record] = _showdowns(fake)
        shown = record["content"]
        monkeypatch.undo()
        async with world(tmp_path, fake=fake, db=crashed, next_hand_delay=30.0) as w:
            t = w.table()
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert [m["id"] for m in _showdowns(fake)] == [record["id"]]  # not a second one
            live = [m for m in fake.channel_messages(CHANNEL_ID) if components(m)]
            assert len(live) == 1 and live[0]["id"] != record["id"]
            await w.slash(BOB, "sitout")  # the table moves on: M stays the record
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert fake.messages[int(record["id"])]["content"] == shown
            assert [m["id"] for m in _showdowns(fake)] == [record["id"]]
