"""brk45: break-it round on fixnonce (a Discord table message posted anew commits its
pending ref first, so a crash between the post and the save of its id posts no second one
after the restart)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord.crash_copy import discord_and_crash_copy, restarted
from tests.bot.discord.dc_world import ALICE, BOB, action_of, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.discord.test_fixnonce_table_message import (
    _crash_copy_at_table_post as _crash_copy_at_post,
)
from tests.fakes.discord_api import CHANNEL_ID, TOKEN, FakeDiscord


def _live(fake: FakeDiscord) -> list[str]:
    """The ids of the channel's messages with any button."""
    return [str(m["id"]) for m in fake.channel_messages(CHANNEL_ID) if components(m)]


@asynccontextmanager
async def _hand_played(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: FakeDiscord, db: Path, crashed: Path
) -> AsyncIterator[tuple[list[int], Any]]:
    """``(seen, t)``: the bot on ``db`` (seed 7, no next hand for 30 s) copies ``db`` to
    ``crashed`` as its second table message goes out (``seen``: the copy's count, as
    :func:`_crash_copy_at_post`); Alice and Bob seated play one hand of table ``t`` in their
    DMs, settled and all sent. The bot stops on exit."""
    seen = _crash_copy_at_post(monkeypatch, db, crashed, posts=2)
    async with world(tmp_path, fake=fake, db=db, rng_seed=7, next_hand_delay=30.0) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        yield seen, t


async def test_a_crash_after_the_table_message_posted_after_a_showdown_leaves_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand's showdown is written over the table message, which stays as the record, and
    the table message is posted anew: the commonest new table message. The bot dies after
    that post, before its id is saved. Restarted, the bot posted the table message again
    beside it (its nonce was random): two messages with the table's buttons."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with _hand_played(monkeypatch, tmp_path, fake, db, crashed) as (seen, t):
            assert t.hand is None
        assert len(seen) == 2 and crashed.exists()
        before = _live(fake)
        assert len(before) == 1  # the showdown is the record, no buttons; the new one has
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed, next_hand_delay=30.0) as (w, t):
            assert _live(fake) == before  # no second table message
            assert t.group_ref == before[0]
            joined = [action_of(c) for c in components(w.table_message())]
            assert "l" in joined


async def test_a_new_table_s_post_done_its_answer_lost_then_a_restart_leaves_one(
    tmp_path: Path,
) -> None:
    """/newtable's table message is posted, but each answer is lost (the connection drops
    after Discord took it): the presenter tries again under the same nonce. The bot stops
    while it still tries; restarted, Discord answering again, it posts under the ref the
    table committed: one table message, the one Discord took first, and its buttons work."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w.adapter.presenter.edit_retries = (0.05, 0.1)

            def table_post(name: str, call: Any) -> bool:
                return name == "create_message" and call.path.endswith(f"{CHANNEL_ID}/messages")

            fake.drop(table_post, done=True)
            record = await fake.slash(ALICE, "new", None, channel_id=CHANNEL_ID, group="ofc")
            await fake.wait_for(lambda: record.answered)
            await w.adapter.idle()
            t = w.table()
            await w.service.rt.settled(t)
            assert str(t.group_ref).startswith("pending")
            await fake.wait_for(lambda: len(_live(fake)) == 1)
            await w.service.stop()  # (while the presenter still tries)
            assert [m for m in w.logged if "lost" in m]
            w.logged.clear()
        fake.recover()
        first = _live(fake)
        async with world(tmp_path, fake=fake, db=db) as w:
            t = w.table()
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert _live(fake) == first
            assert t.group_ref == first[0]
            await w.press_lobby(BOB, "j")
            await w.service.rt.settled(t)
            assert [s.user_id for s in t.seats.values()] == [str(BOB.id)]
    finally:
        await fake.stop()
