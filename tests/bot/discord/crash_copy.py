"""What the Discord crash tests (fixnonce, fixnonce2, fixnonce3, brk45, brk46) share: a fake
Discord that outlives the bot's restarts, the bot's SQLite file and the path of its copy as
a crash leaves it, and the restart on that copy. The copy itself is taken by each test's own
``_crash_copy_at_…`` at the moment that test kills the bot."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from tests.bot.discord.dc_world import World, world
from tests.fakes.discord_api import TOKEN, FakeDiscord, FakeUser


@asynccontextmanager
async def discord_and_crash_copy(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, Path, Path]]:
    """``(fake, db, crashed)``: a started fake Discord (stopped on exit; it keeps the messages
    and the nonces across the bot's restarts, as Discord does for a few minutes), the bot's
    SQLite file ``tmp_path/ofc.sqlite3`` and the crash copy's ``tmp_path/crashed.sqlite3``."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    try:
        yield fake, tmp_path / "ofc.sqlite3", tmp_path / "crashed.sqlite3"
    finally:
        await fake.stop()


@asynccontextmanager
async def restarted(
    tmp_path: Path, fake: FakeDiscord, db: Path, next_hand_delay: float = 0.0
) -> AsyncIterator[tuple[World, Any]]:
    """``(w, t)``: the bot started again on ``db`` against ``fake`` (the next hand dealt
    ``next_hand_delay`` seconds after a showdown), its one table ``t`` settled and all it owed
    sent (the presenter flushed); stopped on exit."""
    async with world(tmp_path, fake=fake, db=db, next_hand_delay=next_hand_delay) as w:
        t = w.table()
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        yield w, t


def saved_snapshot(db: Path) -> dict[str, Any]:
    """The one open table's snapshot saved in ``db`` (the JSON of its ``snapshots`` row)."""
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute("SELECT data FROM snapshots").fetchone()
    snap: dict[str, Any] = json.loads(data)
    return snap


def saved_ref(db: Path, user: FakeUser) -> str | None:
    """``user``'s seat's hand message ref (``private_ref``) in the snapshot saved in ``db``."""
    seats = saved_snapshot(db)["seats"]
    ref: str | None = next(s["private_ref"] for s in seats if s["user_id"] == str(user.id))
    return ref
