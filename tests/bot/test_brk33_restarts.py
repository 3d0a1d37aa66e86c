"""brk33: restarts with group notices owed (Telegram). A restored table's notice that
Telegram holds (a flood wait) must not hold the bot's start: the composition root takes
updates only once the service has started (:func:`bot.app.run`), and every chat waited for
that one group's pause."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from pydantic import SecretStr

from bot.app import run
from bot.config import Settings
from bot.telegram.fake_api import FakeTelegram, too_many
from bot.texts import tr
from storage.check import check_store
from storage.sqlite import SqliteStore
from tests.bot.test_break5 import street_unsettled
from tests.bot.test_stop_keeps_notices import group_post, left
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TOKEN, world


async def leave_notice_held_by_a_flood_wait(fake: FakeTelegram, tmp_path: Path, db: Path) -> None:
    """Alice leaves mid-hand; Telegram refuses every new group message with a 429 of 60 s
    from the hand's last street on: the bot stops with "👋 Alice left the table" owed."""
    async with world(tmp_path, fake=fake, db=db) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        reply = await w.say(ALICE, "/leave")  # during the hand: it asks first (R8.5)
        assert reply["text"].endswith("Send /leave again to confirm."), reply["text"]
        reply = await w.say(ALICE, "/leave")
        assert reply["text"].startswith("You leave after this hand."), reply["text"]
        await w.settle()
        users = {str(u.id): u for u in (ALICE, BOB)}
        fake.outage(group_post, *too_many(60))
        while t.hand is not None:
            await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
        await fake.wait_for(lambda: [c for c in fake.calls if group_post(c)], timeout=5)
        owed = [item for item in t.outbox if left(str(item.get("text", "")))]
        assert len(owed) == 1 and int(owed[0]["id"]) > t.outbox_sent


def closed(text: str) -> bool:
    return text.startswith("Table #1 is closed; stacks returned to balances")


async def close_notice_held_by_a_flood_wait(fake: FakeTelegram, tmp_path: Path, db: Path) -> None:
    """Alice (the group's admin) types /closetable mid-hand; Telegram refuses every new
    group message with a 429 of 60 s from the hand's last street on: the table closes with
    the hand, and the bot stops with its notice "Table #1 is closed; stacks returned to
    balances: …" owed (the closed table's final snapshot keeps it)."""
    async with world(tmp_path, fake=fake, db=db) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        fake.admins[GROUP_ID] = {ALICE.id}
        reply = await w.say(ALICE, "/closetable")
        assert t.hand is not None and reply["text"] == (
            "Table #1 closes at the end of this hand, stacks go back to balances; Fantasyland "
            "earned in it is not played."
        )
        await w.settle()
        users = {str(u.id): u for u in (ALICE, BOB)}
        fake.outage(group_post, *too_many(60))
        while t.hand is not None:
            await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
        await fake.wait_for(lambda: [c for c in fake.calls if group_post(c)], timeout=5)
        assert not w.service.tables
    assert len(await closed_snapshots(db)) == 1


async def closed_snapshots(db: Path) -> list[object]:
    store = await SqliteStore.open(db)
    try:
        return list(await store.closed_snapshots())
    finally:
        await store.close()


async def start_answers_and_stops(fake: FakeTelegram, db: Path) -> None:
    """The composition root (:func:`bot.app.run`, its own rate limiter: five retries of a
    429) started on ``db`` while the group's flood wait goes on: it takes updates at once
    (Bob's /balance in his private chat is answered within seconds), and stops within
    seconds when asked."""
    settings = Settings(
        telegram_bot_token=SecretStr("123456:" + "T" * 35),
        telegram_api_base_url=fake.base_url,
        database_path=str(db),
        _env_file=None,  # type: ignore[call-arg]
    ).model_copy(update={"telegram_bot_token": SecretStr(TOKEN)})  # (the worlds' fake's)
    stop = asyncio.Event()
    polls = len(fake.calls_of("getUpdates"))
    task = asyncio.create_task(run(settings, stop))
    try:
        await fake.wait_for(lambda: len(fake.calls_of("getUpdates")) > polls, timeout=10)
        asked = await fake.send_text(BOB, BOB.id, "/balance")
        answer = await fake.wait_for(
            lambda: [m["text"] for m in fake.chat_messages(BOB.id) if m["message_id"] > asked],
            timeout=5,
        )
        assert answer == [tr("ru", "reply.wallet_in_group")], answer
        stopping = time.monotonic()
        stop.set()
        await asyncio.wait_for(asyncio.shield(task), 10)
        assert time.monotonic() - stopping < 5
    finally:
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


async def test_r8_2_a_restored_notice_in_a_flood_wait_does_not_hold_the_start(
    tmp_path: Path,
) -> None:
    """R8.2: the bot stops with Alice's leave notice owed, held by a 60 s flood wait of the
    group, and is started again (the composition root, :func:`bot.app.run`, with its own
    rate limiter: five retries of a 429) while the flood wait goes on. The service's start
    waited for every restored table's messages, this notice's five pauses of a minute among
    them, and the bot took no update meanwhile: Bob's /balance in his private chat went
    unanswered, for minutes, and a stop asked for then waited too. Now the start goes on
    while the notice waits: updates are taken at once, Bob is answered, the stop keeps the
    notice and the showdown picture owed, and the next start (the flood wait over) posts
    each once; a fourth sends nothing."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        await leave_notice_held_by_a_flood_wait(fake, tmp_path, db)
        await start_answers_and_stops(fake, db)
        assert not [m for m in fake.chat_messages(GROUP_ID) if left(m["text"])]
        assert fake.photos_in(GROUP_ID) == []  # (the showdown picture: owed too)
        fake.recover()  # (the flood wait is over)
        async with world(tmp_path, fake=fake, db=db) as w2:
            t2 = next(iter(w2.service.tables.values()))
            await fake.wait_for(lambda: fake.photos_in(GROUP_ID), timeout=5)
            await fake.wait_for(lambda: not t2.late_pictures, timeout=5)  # (told: posted)
            await w2.settle()
            await w2.adapter.presenter.flush()
            notices = [m["text"] for m in fake.chat_messages(GROUP_ID) if left(m["text"])]
            assert len(notices) == 1, notices
            assert t2.outbox == []
            assert await check_store(w2.store) == []
        async with world(tmp_path, fake=fake, db=db) as w3:  # (sent once: never again)
            await w3.settle()
            await w3.adapter.presenter.flush()
        assert len([m for m in fake.chat_messages(GROUP_ID) if left(m["text"])]) == 1
        assert len(fake.photos_in(GROUP_ID)) == 1
    finally:
        await fake.stop()


async def test_r8_2_a_a_closed_table_s_notice_in_a_flood_wait_does_not_hold_the_start(
    tmp_path: Path,
) -> None:
    """R8.2a: the bot stops with a closed table's notice owed ("Table #1 is closed; stacks
    returned to balances: …", held by a 60 s flood wait of the group) and is started again
    while the flood wait goes on. The start sends what closed tables owe before it restores
    the open ones, and awaited that notice through the rate limiter's five pauses of a
    minute: no update taken meanwhile. Now Bob's /balance is answered at once, the stop
    keeps the notice owed, and the next start (the flood wait over) posts it once."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        await close_notice_held_by_a_flood_wait(fake, tmp_path, db)
        await start_answers_and_stops(fake, db)
        assert not [m for m in fake.chat_messages(GROUP_ID) if closed(m["text"])]
        fake.recover()  # (the flood wait is over)
        async with world(tmp_path, fake=fake, db=db) as w2:
            await w2.adapter.presenter.flush()
            await fake.wait_for(lambda: not w2.service.rt.closing, timeout=5)
            notices = [m["text"] for m in fake.chat_messages(GROUP_ID) if closed(m["text"])]
            assert len(notices) == 1, notices
            assert await check_store(w2.store) == []
        assert await closed_snapshots(db) == []
    finally:
        await fake.stop()
