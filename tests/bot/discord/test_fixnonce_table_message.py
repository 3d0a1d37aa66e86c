"""fixnonce: a Discord bot killed between posting a new table message and saving its id left
the channel two table messages with buttons after the restart. The first post carried a
random nonce nobody kept, so the restarted bot, which found no message in the snapshot,
posted a second one; the first one's buttons looked live and answered "out of date". Now a
step that posts the table message anew commits a pending ref first, the post's nonce derives
from it, and the restarted bot posts under that ref again: Discord (``enforce_nonce``, a
nonce used within a few minutes) returns the message already posted, which is written as
the table is now.

The crash is the state of the database at the moment of the post: a copy of the SQLite file
taken (backup API) as the table message goes out, after the step's commit and before any
later save; the restarted bot runs on that copy against the same Discord (the fake keeps
the messages and the nonces, as Discord does for a few minutes)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.discord.presenter import DiscordPresenter
from bot.model import PENDING_PREFIX
from tests.bot.discord.crash_copy import discord_and_crash_copy, restarted, saved_snapshot
from tests.bot.discord.dc_world import ALICE, BOB, action_of, components, world
from tests.fakes.discord_api import CHANNEL_ID, FakeDiscord


def _with_buttons(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The channel's messages with table buttons (Join or Leave)."""
    return [
        m
        for m in fake.channel_messages(CHANNEL_ID)
        if any(action_of(c) in ("j", "l") for c in components(m))
    ]


def _crash_copy_at_table_post(
    monkeypatch: pytest.MonkeyPatch, db: Path, copy: Path, posts: int
) -> list[int]:
    """Copy ``db`` to ``copy`` as the ``posts``-th new message in the table channel goes
    out (what a SIGKILL then leaves on disk); returns the list the copy's count lands in."""
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


async def test_a_crash_between_the_new_table_message_and_its_save_leaves_one_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/newtable posts the table message; the bot dies before the message's id is saved
    (the copy of the database at the post). Restarted on that database, the bot posted the
    table message a second time: the channel had two with buttons. Now it has one, the first,
    written as the table is now, and its buttons work."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        seen = _crash_copy_at_table_post(monkeypatch, db, crashed, posts=1)
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.slash(ALICE, "new")
            await w.service.rt.settled(w.table())
        assert len(seen) == 1 and crashed.exists()
        first = _with_buttons(fake)
        assert len(first) == 1
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed) as (w, t):
            shown = _with_buttons(fake)
            assert [m["id"] for m in shown] == [first[0]["id"]]  # no second table message
            assert t.group_ref == str(first[0]["id"])
            await w.press_lobby(BOB, "j")  # its buttons are the table's
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert [s.user_id for s in t.seats.values()] == [str(BOB.id)]
            assert [m["id"] for m in _with_buttons(fake)] == [first[0]["id"]]


async def test_a_crash_between_a_restart_s_table_message_and_its_save_leaves_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart posts the table message anew (its step commits a pending ref first) and
    dies before its id is saved; the next start posts under the same ref: Discord returns the
    message the second start posted, so no third table message is posted, and once the
    table moves on (Bob joins) the channel has one with buttons (the first start's is
    written as moved; before, the second start's stayed beside the third's, live)."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.slash(ALICE, "new")
            await w.press_lobby(ALICE, "j")
            await w.service.rt.settled(w.table())
        seen = _crash_copy_at_table_post(monkeypatch, db, crashed, posts=1)
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.service.rt.settled(w.table())
            await w.adapter.presenter.flush()
        assert len(seen) == 1
        old, new = (str(m["id"]) for m in _with_buttons(fake))  # (the old one works on, R8.2)
        before = [str(m["id"]) for m in fake.channel_messages(CHANNEL_ID)]
        saved = saved_snapshot(crashed)
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed) as (w, t):
            assert [str(m["id"]) for m in fake.channel_messages(CHANNEL_ID)] == before
            assert t.group_ref == new  # the message the crashed start posted, no third
            await w.press_lobby(BOB, "j")
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert sorted(s.user_id for s in t.seats.values()) == sorted(
                [str(ALICE.id), str(BOB.id)]
            )
            assert [str(m["id"]) for m in _with_buttons(fake)] == [new]
            assert old != new
        # the crash left the ref committed before the post (checked last: it is the fix)
        assert str(saved["group_ref"]).startswith(PENDING_PREFIX)
