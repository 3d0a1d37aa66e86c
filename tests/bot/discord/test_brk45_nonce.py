"""brk45: break-it round on fixnonce (a Discord table message posted anew commits its
pending ref first, so a crash between the post and the save of its id posts no second one
after the restart)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.discord.presenter import DiscordPresenter
from tests.bot.discord.dc_world import ALICE, BOB, action_of, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, TOKEN, FakeDiscord


def _live(fake: FakeDiscord) -> list[str]:
    """The ids of the channel's messages with any button."""
    return [str(m["id"]) for m in fake.channel_messages(CHANNEL_ID) if components(m)]


def _crash_copy_at_post(
    monkeypatch: pytest.MonkeyPatch, db: Path, copy: Path, posts: int
) -> list[int]:
    """Copy ``db`` to ``copy`` as the ``posts``-th new message with buttons goes out in the
    table channel (what a SIGKILL then leaves on disk)."""
    real = DiscordPresenter._send
    seen: list[int] = []

    async def send(
        self: DiscordPresenter, channel_id: int, screen: Any, nonce: Any = None, **kw: Any
    ) -> Any:
        if channel_id == CHANNEL_ID and screen.buttons:
            seen.append(channel_id)
            if len(seen) == posts:
                with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
                    src.backup(dst)
        return await real(self, channel_id, screen, nonce, **kw)

    monkeypatch.setattr(DiscordPresenter, "_send", send)
    return seen


async def test_a_crash_after_the_table_message_posted_after_a_showdown_leaves_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand's showdown is written over the table message, which stays as the record, and
    the table message is posted anew: the commonest new table message. The bot dies after
    that post, before its id is saved. Restarted, the bot posted the table message again
    beside it (its nonce was random): two messages with the table's buttons."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db, crashed = tmp_path / "ofc.sqlite3", tmp_path / "crashed.sqlite3"
    try:
        seen = _crash_copy_at_post(monkeypatch, db, crashed, posts=2)
        async with world(tmp_path, fake=fake, db=db, rng_seed=7, next_hand_delay=30.0) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert t.hand is None
        assert len(seen) == 2 and crashed.exists()
        before = _live(fake)
        assert len(before) == 1  # the showdown is the record, no buttons; the new one has
        monkeypatch.undo()
        async with world(tmp_path, fake=fake, db=crashed, next_hand_delay=30.0) as w:
            t = w.table()
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert _live(fake) == before  # no second table message
            assert t.group_ref == before[0]
            joined = [action_of(c) for c in components(w.table_message())]
            assert "l" in joined
    finally:
        await fake.stop()
