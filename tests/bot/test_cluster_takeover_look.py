"""A Telegram table taken over from a dead worker (issue 14) whose close the bot's mute
queued mid-hand (R8.2a), through the real python-telegram-bot against the local fake.
Telegram sends no update when a mute runs out, and the look at its end was the dead
worker's. A single process's start asks how the bot stands in the group of every restored
table whose close waits (:meth:`TelegramAdapter.look_at_restored`); a takeover restored the
table the same way but never asked, so the table closed after the hand in a group the bot
could write in again."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.cluster import Worker
from bot.service import TableService
from bot.telegram.adapter import TelegramAdapter
from bot.telegram.fake_api import FakeTelegram
from bot.telegram.ratelimit import AnswerFirstRateLimiter
from bot.texts import tr
from storage.api import lease_key
from storage.check import check_store
from storage.sqlite import SqliteStore
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TEST_STORAGE_WAIT, TOKEN, World, world

KEY = lease_key("telegram", str(GROUP_ID))
#: the lease a worker holds; it renews every TTL/4 and its renewal waits TTL/2 for SQLite at
#: most: at 1 s (0.5 s for a renewal) two loaded cores could make a worker miss that bound and
#: give the table up mid-test (as tests/bot/discord/test_takeover_looks.py's w0 did at 3 s)
TTL = 3.0


@pytest.mark.parametrize("ran_out", [False, True], ids=["runs_out_later", "ran_out_meanwhile"])
async def test_r8_2a_r14_a_mute_of_the_bot_running_out_after_a_takeover_keeps_its_table(
    tmp_path: Path, ran_out: bool
) -> None:
    """R8.2a, issue 14: an admin mutes the bot for a few seconds mid-hand (its close
    queued by w1); w1 dies. w2 takes the table over when w1's lease runs out, before the
    mute runs out (``runs_out_later``) or after (``ran_out_meanwhile``). It asks how the bot
    stands in the group as a start does (and looks again at the mute's end): the close is
    cancelled, the group told once, the next hand dealt on w2."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w1 = Worker(w.service, "w1", "http://127.0.0.1:9", ttl=TTL, telegram=w.adapter)
            await w1.start()
            assert await w1.claim(KEY)  # (as the router's first update of the chat would)
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None and t.hand_no == 1
            mute = 4.0 if ran_out else 3 * TTL + 3.0
            until = time.time() + mute
            await fake.restrict_bot(GROUP_ID, by=ALICE, until=int(until) + 1)
            await fake.wait_for(lambda: t.closing and t.removal_close)
            await w.settle()
            # w1 dies: nothing given up nor written, its look at the mute's end gone with it
            await w1.halt()
            for table_id in list(w.service.tables):
                await w.service.release(table_id)
            lapsed = time.time() + TTL + 0.5  # (w1's lease has run out by then)
        if ran_out:
            await asyncio.sleep(max(0.0, until + 1.5 - time.time(), lapsed - time.time()))
        else:
            await asyncio.sleep(max(0.0, lapsed - time.time()))

        store = await SqliteStore.open(db)
        service = TableService(
            store, rng=random.Random(1), next_hand_delay=0.0, storage_wait=TEST_STORAGE_WAIT
        )  # (as the world's presses: 1 s refused a press on two loaded cores now and then)
        limiter = AnswerFirstRateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
        adapter = TelegramAdapter(service, TOKEN, fake.base_url, rate_limiter=limiter)
        await adapter.start(poll_interval=0.0)
        w2 = Worker(service, "w2", "http://127.0.0.1:10", ttl=TTL, telegram=adapter)
        try:
            await w2.start()  # (its first sweep takes the orphaned table over)
            t2 = service.tables.get(t.id)
            assert t2 is not None and t2.hand is not None and t2.hand_no == 1
            assert await store.lease_owner(KEY) == "w2"
            if not ran_out:
                assert t2.closing  # (the mute still runs)
            await fake.wait_for(lambda: not t2.closing, timeout=mute + 10)
            w2nd = World(fake, service, adapter, store)
            await w2nd.settle()
            notice = tr("en", "lobby.close_cancelled", table=t2.id)
            assert w2nd.group_texts().count(notice) == 1
            await play_hand(w2nd, [ALICE, BOB])
            await w2nd.settle()
            assert t2.id in service.tables and t2.hand is not None and t2.hand_no == 2
            assert await check_store(store) == []
        finally:
            await w2.stop()
            await fake.release_polls()
            await adapter.stop()
            await store.close()
    finally:
        await fake.stop()
