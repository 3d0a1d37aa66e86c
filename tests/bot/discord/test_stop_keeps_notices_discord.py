"""Discord's side of tests/bot/test_stop_keeps_notices.py: the bot stops while Discord is down
for the table's channel and a group notice of the outbox waits for its next try; it is kept
(not marked sent) and the next start sends it, once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, World, world
from tests.bot.discord.test_brk27_discord_errors import street_unsettled
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, TOKEN, ApiCall, FakeDiscord


def channel_post(name: str, call: ApiCall) -> bool:
    """A new message in the table's channel (a notice, the table message, the picture)."""
    return name == "create_message" and f"/channels/{CHANNEL_ID}/" in call.path


def left(text: str) -> bool:
    return text.startswith("👋 Alice left the table")


async def test_r8_2_a_notice_discord_refuses_at_the_stop_is_sent_by_the_next_start(
    tmp_path: Path,
) -> None:
    """R8.2: Alice leaves mid-hand (/ofc leave); Discord answers every new message in the
    channel with a 503 from then on. The hand ends: the showdown owes the channel its
    picture and "👋 Alice left the table; …", each waiting for its next try, and the bot
    stops. The stop woke the notice's wait and it was given up ("notice lost") and marked
    sent: the channel never learnt Alice had left. It stays owed now: the restarted bot
    (the same store, Discord up again) sends it and the picture, each once; the stop ends
    within seconds; the ledger checks."""
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
            users = {str(u.id): u for u in (ALICE, BOB)}
            while True:  # (to the hand's last street: every other board is full)
                hand = t.hand
                assert hand is not None
                mover = hand.to_act[0]
                others = [hand.board_of(s).count for s in hand.order if s != mover]
                if all(n == 13 for n in others) and (
                    hand.board_of(mover).count + len(hand.to_place(mover)) >= 13
                ):
                    break
                await w.play_street(users[t.seats[mover].user_id], "dm")
            fake.outage(channel_post)
            await street_unsettled(w, users[t.seats[mover].user_id])  # (the showdown)
            await fake.wait_for(lambda: t.hand is None, timeout=10)
            owed = [item for item in t.outbox if left(str(item.get("text", "")))]
            assert len(owed) == 1
            await asyncio.sleep(0.5)  # (its first try refused: waiting for the next)
            assert int(owed[0]["id"]) > t.outbox_sent
            stopping = time.monotonic()
        took = time.monotonic() - stopping
        assert took < 5, f"the stop took {took:.1f} s"
        assert not [m for m in fake.channel_messages() if left(m["content"])]
        fake.recover()
        async with world(tmp_path, fake=fake, db=db) as w2:
            t2 = w2.table()
            await fake.wait_for(
                lambda: [m for m in fake.channel_messages() if m["attachments"]], timeout=10
            )
            await fake.wait_for(lambda: not t2.late_pictures, timeout=5)  # (told: posted)
            await w2.service.rt.settled(t2)
            await w2.adapter.presenter.flush()
            notices = [m["content"] for m in fake.channel_messages() if left(m["content"])]
            assert len(notices) == 1, notices
            assert len([m for m in fake.channel_messages() if m["attachments"]]) == 1
            assert t2.outbox == [] and t2.late_pictures == []
            assert await check_store(w2.store) == []
        async with world(tmp_path, fake=fake, db=db) as w3:  # (sent once: never again)
            await w3.service.rt.settled(w3.table())
            await w3.adapter.presenter.flush()
        assert len([m for m in fake.channel_messages() if left(m["content"])]) == 1
        assert len([m for m in fake.channel_messages() if m["attachments"]]) == 1
    finally:
        await fake.stop()


def leave_notice(name: str, call: ApiCall) -> bool:
    return name == "create_message" and left(str((call.body or {}).get("content", "")))


async def test_r8_2_a_notice_held_by_a_long_discord_429_at_the_stop_is_sent_by_the_next_start(
    tmp_path: Path,
) -> None:
    """R8.2: as above, Discord answering Alice's leave notice with a 429 of a minute (every
    try): discord.py sleeps the minute inside the request, and the service's stop, which
    waits for the table's messages, waited that minute (the adapter's grace for its queued
    writes, :data:`~bot.discord.presenter.STOP_WRITES_SECONDS`, came only after it). The stop
    gives the notice that grace (shortened here) and keeps it unsent: the restart sends it,
    once; the ledger checks."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    limited = {"message": "You are being rate limited.", "retry_after": 60.0, "global": False}
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w.adapter.presenter.stop_grace = 0.5
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            reply = await w.slash(ALICE, "leave")  # during the hand: it asks first (R8.5)
            assert reply["content"].endswith("Send /ofc leave again to confirm."), reply
            reply = await w.slash(ALICE, "leave")
            assert reply["content"].startswith("You leave after this hand."), reply
            fake.outage(leave_notice, 429, limited)
            users = {str(u.id): u for u in (ALICE, BOB)}
            while t.hand is not None:
                await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
            await fake.wait_for(
                lambda: [c for c in fake.calls if c.status == 429 and "left" in str(c.body)],
                timeout=10,
            )
            owed = [item for item in t.outbox if left(str(item.get("text", "")))]
            assert len(owed) == 1 and int(owed[0]["id"]) > t.outbox_sent
            stopping = time.monotonic()
        took = time.monotonic() - stopping
        assert took < 5, f"the stop took {took:.1f} s"
        assert not [m for m in fake.channel_messages() if left(m["content"])]
        fake.recover()
        async with world(tmp_path, fake=fake, db=db) as w2:
            await w2.service.rt.settled(w2.table())
            await w2.adapter.presenter.flush()
            notices = [m["content"] for m in fake.channel_messages() if left(m["content"])]
            assert len(notices) == 1, notices
            assert await check_store(w2.store) == []
    finally:
        await fake.stop()


async def leave_notice_owed_at_the_stop(w: World, fake: FakeDiscord) -> None:
    """Alice leaves mid-hand (/ofc leave) and the hand is played to its end: the showdown owes
    the channel "👋 Alice left the table; …"; returns once Discord has posted it."""
    await seat_everyone(w, [ALICE, BOB])
    t = w.table()
    reply = await w.slash(ALICE, "leave")  # during the hand: it asks first (R8.5)
    assert reply["content"].endswith("Send /ofc leave again to confirm."), reply
    reply = await w.slash(ALICE, "leave")
    assert reply["content"].startswith("You leave after this hand."), reply
    users = {str(u.id): u for u in (ALICE, BOB)}
    while t.hand is not None:
        await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
    await fake.wait_for(lambda: [m for m in fake.channel_messages() if left(m["content"])], 10)


async def posted_once_after_a_restart(fake: FakeDiscord, tmp_path: Path, db: Path) -> None:
    """The restarted bot sends the notice kept at the stop under the nonce of its first try,
    which Discord answers with the message it posted then: one in the channel, a third
    start sends nothing; the ledger checks."""
    fake.recover()
    async with world(tmp_path, fake=fake, db=db) as w2:
        t2 = w2.table()
        await w2.service.rt.settled(t2)
        await w2.adapter.presenter.flush()
        notices = [m["content"] for m in fake.channel_messages() if left(m["content"])]
        assert len(notices) == 1, notices
        tries = [
            c
            for c in fake.calls
            if c.method == "POST"
            and channel_post("create_message", c)
            and isinstance(c.body, dict)
            and left(str(c.body.get("content", "")))
        ]
        assert len(tries) >= 2 and len({c.body["nonce"] for c in tries}) == 1, tries
        assert all(c.body["enforce_nonce"] for c in tries)
        assert t2.outbox == []
        assert await check_store(w2.store) == []
    async with world(tmp_path, fake=fake, db=db) as w3:
        await w3.service.rt.settled(w3.table())
        await w3.adapter.presenter.flush()
    assert len([m for m in fake.channel_messages() if left(m["content"])]) == 1


async def test_r8_2_a_notice_discord_posted_but_answered_after_the_stop_s_grace_shows_once(
    tmp_path: Path,
) -> None:
    """R8.2: Discord posts Alice's leave notice but is slow to answer it; the bot stops
    meanwhile, gives the send its grace (:data:`~bot.discord.presenter.STOP_WRITES_SECONDS`,
    shortened here), cancels it and keeps the notice owed (it cannot know Discord took it).
    The next start sent it again under a new nonce: the channel read "Alice left the table"
    twice. Every send of a notice now carries its outbox item's nonce (with
    ``enforce_nonce``): Discord returns the message it posted, and the channel shows one."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w.adapter.presenter.stop_grace = 0.3
            fake.hold(leave_notice, 30.0)
            await leave_notice_owed_at_the_stop(w, fake)
            t = w.table()
            owed = [item for item in t.outbox if left(str(item.get("text", "")))]
            assert len(owed) == 1 and int(owed[0]["id"]) > t.outbox_sent
            stopping = time.monotonic()
        took = time.monotonic() - stopping
        assert took < 5, f"the stop took {took:.1f} s"
        await posted_once_after_a_restart(fake, tmp_path, db)
    finally:
        await fake.stop()


async def test_r8_2_a_notice_whose_answer_was_lost_before_the_stop_shows_once(
    tmp_path: Path,
) -> None:
    """R8.2: Discord posts Alice's leave notice but the connection drops before its answer
    (an ``aiohttp`` error: the bot cannot tell it was posted); the bot stops while the
    notice waits for its next try, and keeps it owed. The next start's send, under the
    nonce of the first try, is answered with the message Discord posted: one in the
    channel (a new nonce had posted it twice)."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w.adapter.presenter.notice_retries = (30.0,)  # (the stop comes before the next try)
            fake.drop(leave_notice, done=True)
            await leave_notice_owed_at_the_stop(w, fake)
            await fake.wait_for(lambda: [c for c in fake.calls if c.dropped], timeout=5)
            t = w.table()
            owed = [item for item in t.outbox if left(str(item.get("text", "")))]
            assert len(owed) == 1 and int(owed[0]["id"]) > t.outbox_sent
        await posted_once_after_a_restart(fake, tmp_path, db)
    finally:
        await fake.stop()


def channel_edit(name: str, call: ApiCall) -> bool:
    return name == "edit_message" and f"/channels/{CHANNEL_ID}/" in call.path


async def test_r8_4_a_showdown_held_by_a_long_discord_429_at_the_stop_is_shown_by_the_next_start(
    tmp_path: Path,
) -> None:
    """R8.4: Discord answers every edit in the table's channel with a 429 of a minute from
    the hand's last street: the showdown written over the table message is held (discord.py
    sleeps the minute inside the request), and the bot stops. The stop ends within seconds
    and the restarted bot writes the showdown over that table message, once (a third start
    writes nothing); the ledger checks."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    limited = {"message": "You are being rate limited.", "retry_after": 60.0, "global": False}

    def showdowns() -> list[ApiCall]:
        return [
            c
            for c in fake.calls
            if channel_edit("edit_message", c)
            and c.method == "PATCH"
            and c.status == 200
            and "Showdown" in str((c.body or {}).get("content", ""))
        ]

    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w.adapter.presenter.stop_grace = 0.5
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            users = {str(u.id): u for u in (ALICE, BOB)}
            while True:  # (to the hand's last street: every other board is full)
                hand = t.hand
                assert hand is not None
                mover = hand.to_act[0]
                others = [hand.board_of(s).count for s in hand.order if s != mover]
                if all(n == 13 for n in others) and (
                    hand.board_of(mover).count + len(hand.to_place(mover)) >= 13
                ):
                    break
                await w.play_street(users[t.seats[mover].user_id], "dm")
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            table_message = t.group_ref
            assert table_message is not None
            fake.outage(channel_edit, 429, limited)
            await street_unsettled(w, users[t.seats[mover].user_id])  # (the showdown)
            await fake.wait_for(
                lambda: [
                    c
                    for c in fake.calls
                    if c.status == 429 and "Showdown" in str((c.body or {}).get("content", ""))
                ],
                timeout=10,
            )
            stopping = time.monotonic()
        took = time.monotonic() - stopping
        assert took < 5, f"the stop took {took:.1f} s"
        assert showdowns() == []
        fake.recover()
        async with world(tmp_path, fake=fake, db=db) as w2:
            t2 = w2.table()
            await w2.service.rt.settled(t2)
            await w2.adapter.presenter.flush()
            assert [c.path.rsplit("/", 1)[-1] for c in showdowns()] == [table_message]
            assert t2.outbox == []
            assert await check_store(w2.store) == []
        async with world(tmp_path, fake=fake, db=db) as w3:  # (written once: never again)
            await w3.service.rt.settled(w3.table())
            await w3.adapter.presenter.flush()
        assert len(showdowns()) == 1
    finally:
        await fake.stop()
