"""fixrev (rev list 5): the table message from before a restart (``earlier_ref``) stayed in
the table's snapshots for good once the new one was posted and it was written as moved. A
later restart that found the table message pending (a crash after its step committed a
pending ref, before the post's id was saved) wrote that old message as moved once more:
one Discord edit too many. It is forgotten once written as moved with the new message
posted for certain."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.model import PENDING_PREFIX
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, world
from tests.fakes.discord_api import CHANNEL_ID, TOKEN, FakeDiscord


def _pend_table_message(db: Path) -> None:
    """The saved snapshot's table message is a pending ref, as a crash leaves it after a
    step that posts it anew committed and before the post's id was saved."""
    with sqlite3.connect(db) as conn:
        (table_id, data) = conn.execute("SELECT table_id, data FROM snapshots").fetchone()
        snap = json.loads(data)
        snap["group_ref"] = f"{PENDING_PREFIX}0123456789abcdef"
        conn.execute(
            "UPDATE snapshots SET data = ? WHERE table_id = ?", (json.dumps(snap), table_id)
        )


async def _table_of_alice(tmp_path: Path, fake: FakeDiscord, db: Path) -> tuple[str, str, int]:
    """The bot on ``db`` (stopped at the end): Alice opens a table and joins it. Returns its
    table message's id, that message's API path and how many edits of it the bot made (its
    own, before any restart)."""
    async with world(tmp_path, fake=fake, db=db) as w:
        reply = await w.slash(ALICE, "new")
        assert reply["content"].startswith("Table #")
        assert w.notice(await w.press_lobby(ALICE, "j")) is not None
        first: str = w.table_message()["id"]
        await w.adapter.presenter.flush()
    path = f"/channels/{CHANNEL_ID}/messages/{first}"
    return first, path, len(fake.calls_to("PATCH", path))


@asynccontextmanager
async def _moved_on(
    tmp_path: Path, fake: FakeDiscord, db: Path, first: str
) -> AsyncIterator[tuple[World, Any]]:
    """``(w, t)``: the bot started again on ``db``, which posts the table message anew (not
    ``first``); Bob joins (the table moves on), the table settled and all sent. Stopped on
    exit."""
    async with world(tmp_path, fake=fake, db=db) as w:  # posts it anew
        assert w.table_message()["id"] != first
        assert w.notice(await w.press_lobby(BOB, "j")) is not None  # (moved on)
        t = w.table()
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        yield w, t


async def test_the_old_table_message_is_written_as_moved_once_not_at_each_restart(
    tmp_path: Path,
) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        first, path, edits = await _table_of_alice(tmp_path, fake, db)
        async with _moved_on(tmp_path, fake, db, first) as (w, t):
            moved = fake.calls_to("PATCH", path)[edits:]
            assert [c.status for c in moved] == [200]
            assert "goes on in the message below" in fake.messages[int(first)]["content"]
            assert t.earlier_ref is None
        _pend_table_message(db)
        async with world(tmp_path, fake=fake, db=db) as w:  # posts it under that ref
            assert w.notice(await w.press_lobby(CAROL, "j")) is not None  # (moved on)
            await w.service.rt.settled(w.table())
            await w.adapter.presenter.flush()
        moved = fake.calls_to("PATCH", path)[edits:]
        assert len(moved) == 1  # not written as moved a second time
    finally:
        await fake.stop()


def _earlier_ref(db: Path) -> object:
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute("SELECT data FROM snapshots").fetchone()
    return json.loads(data).get("earlier_ref")


async def test_the_old_table_message_forgotten_is_saved_before_the_next_step(
    tmp_path: Path,
) -> None:
    """fixsmall36: the old table message written as moved was forgotten in memory only
    (saved with the table's next step): a crash before that step left it in the snapshot,
    and the restart after it (the table message pending, as in the test above) wrote the
    old message as moved once more. Now the forgetting is saved at once: the database as
    a crash then leaves it (a copy taken while the bot runs, no step since) holds no
    earlier message, and a restart from it writes nothing as moved."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db, crashed = tmp_path / "ofc.sqlite3", tmp_path / "crashed" / "ofc.sqlite3"
    crashed.parent.mkdir()
    try:
        first, path, edits = await _table_of_alice(tmp_path, fake, db)
        async with _moved_on(tmp_path, fake, db, first) as (w, t):
            assert len(fake.calls_to("PATCH", path)) == edits + 1  # written as moved
            assert t.earlier_ref is None
            await _saved_forgotten(w, t, db)  # without the fix: never (before a step)
            with sqlite3.connect(db) as live, sqlite3.connect(crashed) as copy:
                live.backup(copy)  # (the database as a crash now leaves it)
        await _restarted_writes_nothing_moved(tmp_path, fake, crashed, path, edits)
    finally:
        await fake.stop()


async def _saved_forgotten(w: World, t: Any, db: Path) -> None:
    """Wait until ``db`` holds ``t`` with no earlier table message (saved in the background:
    :meth:`~bot.service.runtime.Runtime.snapshot_saved` waits 2 × storage_wait at most, short
    of a loaded machine's write), 20 s at most; fails if it is not by then."""
    deadline = asyncio.get_running_loop().time() + 20
    while _earlier_ref(db) is not None:
        assert asyncio.get_running_loop().time() < deadline, "never saved"
        await w.service.rt.snapshot_saved(t)
        await asyncio.sleep(0.05)


async def _restarted_writes_nothing_moved(
    tmp_path: Path, fake: FakeDiscord, crashed: Path, path: str, edits: int
) -> None:
    """``crashed`` (a copy of the database as a crash left it) holds no earlier table message,
    and a restart from it, its table message pending (as in the first test), does not write
    the old message (``path``, edited ``edits`` times and written as moved once) again."""
    assert _earlier_ref(crashed) is None
    _pend_table_message(crashed)
    async with world(crashed.parent, fake=fake, db=crashed) as w:
        assert w.notice(await w.press_lobby(CAROL, "j")) is not None
        await w.service.rt.settled(w.table())
        await w.adapter.presenter.flush()
    assert len(fake.calls_to("PATCH", path)) == edits + 1  # not written as moved again


async def test_the_old_table_message_forgotten_during_a_step_is_saved_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """flk37: the sender forgets the old table message (written as moved) while the step that
    moved the table on is being written (a slow write: a loaded machine). That step's own
    snapshot, taken before, kept the old message, and the one saved at the forgetting was the
    table before the step (an older number, not kept over it): the database held the old
    message until the table's next step, and a crash meanwhile had it written as moved again.
    Now the step, once written, saves the table as committed, forgotten."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db, crashed = tmp_path / "ofc.sqlite3", tmp_path / "crashed" / "ofc.sqlite3"
    crashed.parent.mkdir()
    try:
        first, path, edits = await _table_of_alice(tmp_path, fake, db)
        async with world(tmp_path, fake=fake, db=db) as w:  # posts it anew
            t = w.table()
            assert t.earlier_ref == first
            store, commit = w.store, w.store.commit

            async def after_the_forgetting(*args: Any, **kwargs: Any) -> None:
                # (the old message is written as moved as Bob's step is written: the step's
                # write is done once the sender forgot it, as a slow write is)
                for _ in range(300):
                    if t.earlier_ref is None:
                        break
                    await asyncio.sleep(0.01)
                assert t.earlier_ref is None, "not forgotten during the step"
                await commit(*args, **kwargs)

            monkeypatch.setattr(store, "commit", after_the_forgetting)
            assert w.notice(await w.press_lobby(BOB, "j")) is not None  # (moved on)
            monkeypatch.undo()
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            assert len(fake.calls_to("PATCH", path)) == edits + 1  # written as moved
            assert t.earlier_ref is None
            await _saved_forgotten(w, t, db)  # without the fix: never (before a step)
            with sqlite3.connect(db) as live, sqlite3.connect(crashed) as copy:
                live.backup(copy)  # (the database as a crash now leaves it)
        await _restarted_writes_nothing_moved(tmp_path, fake, crashed, path, edits)
    finally:
        await fake.stop()
