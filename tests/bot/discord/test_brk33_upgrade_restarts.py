"""brk33: restarts and an upgrade with group notices owed (Discord's side). A notice kept
owed by the previous release is stored without its pending ref (its outbox item had none:
that release sent each notice under a new random nonce). The release that restores it must
send it under one nonce from then on, so a send the stop cuts off after Discord took it is
returned by the next start, not posted again."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_brk27_discord_errors import street_unsettled
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.discord.test_stop_keeps_notices_discord import leave_notice, left
from tests.fakes.discord_api import TOKEN, FakeDiscord


def strip_notice_refs(db: Path) -> int:
    """Rewrite every stored snapshot as the release before outbox notice refs wrote it (its
    ``post`` items without ``ref``); how many items lost one."""
    stripped = 0
    with sqlite3.connect(db) as conn:
        for table_id, text in conn.execute("SELECT table_id, data FROM snapshots").fetchall():
            data = json.loads(text)
            for item in data.get("outbox") or ():
                if item.get("kind") == "post" and item.pop("ref", None) is not None:
                    stripped += 1
            conn.execute(
                "UPDATE snapshots SET data = ? WHERE table_id = ?", (json.dumps(data), table_id)
            )
    return stripped


def notices(fake: FakeDiscord) -> list[str]:
    return [m["content"] for m in fake.channel_messages() if left(m["content"])]


async def test_r8_2_a_notice_owed_by_the_previous_release_shows_once_across_two_restarts(
    tmp_path: Path,
) -> None:
    """R8.2: Alice leaves mid-hand; Discord refuses her leave notice (503) until the bot
    stops, so it is kept owed, and the stored snapshot is the previous release's (the
    notice's outbox item has no ref). The upgraded bot starts; Discord posts the notice but
    is slow to answer (its start goes on after :data:`~bot.service.START_SEND_SECONDS`), and
    the bot stops again: past the stop's grace the send is cut off, the notice kept owed. The
    third start sent it under yet another random nonce: the channel read "Alice left the
    table" twice. The restored notice gets a ref of its own (committed with the resume), so
    the third start's send is answered with the message Discord took: one in the channel."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            reply = await w.slash(ALICE, "leave")  # during the hand: it asks first (R8.5)
            assert reply["content"].endswith("Send /ofc leave again to confirm."), reply
            reply = await w.slash(ALICE, "leave")
            assert reply["content"].startswith("You leave after this hand."), reply
            fake.outage(leave_notice)
            users = {str(u.id): u for u in (ALICE, BOB)}
            while t.hand is not None:
                await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
            await fake.wait_for(
                lambda: [c for c in fake.calls if c.status == 503 and "left" in str(c.body)],
                timeout=10,
            )
            w.adapter.presenter.notice_retries = (30.0,)
            owed = [item for item in t.outbox if left(str(item.get("text", "")))]
            assert len(owed) == 1 and int(owed[0]["id"]) > t.outbox_sent
        assert notices(fake) == []
        assert strip_notice_refs(db) == 1  # (the previous release's snapshot)

        fake.recover()
        fake.hold(leave_notice, 30.0)  # (posted at once, answered late)
        async with world(tmp_path, fake=fake, db=db) as w2:
            w2.adapter.presenter.stop_grace = 0.3
            await fake.wait_for(lambda: notices(fake), timeout=10)
            stopping = time.monotonic()
        assert time.monotonic() - stopping < 5
        assert len(notices(fake)) == 1

        fake.recover()
        async with world(tmp_path, fake=fake, db=db) as w3:
            t3 = w3.table()
            await w3.service.rt.settled(t3)
            await w3.adapter.presenter.flush()
            assert t3.outbox == []
            assert await check_store(w3.store) == []
        assert len(notices(fake)) == 1, notices(fake)
        async with world(tmp_path, fake=fake, db=db) as w4:  # (never again)
            await w4.service.rt.settled(w4.table())
            await w4.adapter.presenter.flush()
        assert len(notices(fake)) == 1, notices(fake)
    finally:
        await fake.stop()
