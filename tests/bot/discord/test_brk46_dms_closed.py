"""brk46 (held, fixnonce2): Bob's DMs are closed as the deal posts his hand under the
pending ref its step committed (403/50007). The ref is dropped, in memory and in the saved
snapshot (no pending ref waits for a post that never happened); Bob, his DMs opened while
the bot was down, gets one hand after the restart, under a ref of a real message."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from tests.bot.discord.dc_world import BOB, world
from tests.bot.discord.shard_world import until
from tests.bot.discord.test_fixnonce2_dm_hand import _dealt, _hands
from tests.fakes.discord_api import TOKEN, FakeDiscord, FakeUser


def _saved_seat(db: Path, user: FakeUser) -> dict[str, Any]:
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute("SELECT data FROM snapshots").fetchone()
    return next(s for s in json.loads(data)["seats"] if s["user_id"] == str(user.id))


async def test_a_hand_refused_at_its_post_keeps_no_pending_ref(tmp_path: Path) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            fake.closed_dms.add(BOB.id)
            await _dealt(w)
            t = w.table()
            await w.service.rt.settled(t)
            seat = t.seat_of(str(BOB.id))
            assert seat is not None and seat.private_ref is None and not seat.reachable
            await until(lambda: _saved_seat(db, BOB)["private_ref"] is None, 10, "saved")
            assert _hands(fake, BOB) == []
        fake.closed_dms.discard(BOB.id)
        async with world(tmp_path, fake=fake, db=db) as w:
            t = w.table()
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            [hand] = _hands(fake, BOB)
            seat = t.seat_of(str(BOB.id))
            assert seat is not None and seat.reachable
            assert seat.private_ref == f"{fake.dm_channels[BOB.id]}:{hand['id']}"
    finally:
        await fake.stop()
