"""fixtake2: the players' private hand messages across a restart and a takeover (issue 14).

A worker taking a table over (and a single process after a restart) posted every player's
hand anew in their private chat (:func:`bot.service.recovery.resume` dropped the seats'
refs), and the old hand messages kept their buttons, live to the eye, each answering "out
of date": a player had two hands with buttons. Taken over, each hand is written over the
message its seat's snapshot names now (posted anew only if the player deleted it); at a
restart it is posted anew and the old one written as moved ("⬇️ your hand goes on below"),
its buttons gone. Through the real python-telegram-bot against the local fake Bot API."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.cluster import Worker
from bot.service import TableService
from bot.telegram.adapter import TelegramAdapter
from bot.telegram.fake_api import BOT_ID, FakeTelegram, FakeUser
from bot.telegram.ratelimit import AnswerFirstRateLimiter
from bot.texts import tr
from storage.api import lease_key
from storage.sqlite import SqliteStore
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TEST_STORAGE_WAIT, TOKEN, World, world

KEY = lease_key("telegram", str(GROUP_ID))
#: the lease a worker holds; it renews every TTL/4 and its renewal waits TTL/2 for SQLite at
#: most: at 1 s (0.5 s for a renewal) two loaded cores could make a worker miss that bound and
#: give the table up mid-test (as tests/bot/discord/test_takeover_looks.py's w0 did at 3 s)
TTL = 3.0


def _hands(fake: FakeTelegram, user: FakeUser) -> list[int]:
    """The bot's messages in ``user``'s private chat that have buttons (by message id)."""
    return sorted(
        mid
        for (chat, mid), m in fake.messages.items()
        if chat == user.id and m["from"]["id"] == BOT_ID and fake.buttons(m)
    )


def _dm_calls(fake: FakeTelegram, since: int, user: FakeUser) -> list[tuple[str, Any]]:
    return [
        (c.method, c.params.get("message_id"))
        for c in fake.calls[since:]
        if str(c.params.get("chat_id")) == str(user.id)
        and c.method in ("sendMessage", "editMessageText")
    ]


async def _place_one(w: World, user: FakeUser, message: dict[str, Any]) -> dict[str, Any]:
    """``user`` presses the first placing button of their hand ``message``."""
    data = next(b["callback_data"] for b in w.fake.buttons(message) if ":p:" in b["callback_data"])
    return await w.press(user, user.id, message, data)


async def test_r14_a_restart_writes_the_old_hand_messages_as_moved(tmp_path: Path) -> None:
    """A hand in progress, the bot restarts: each player's hand is posted anew (as the
    table message is) and the old hand message says where it goes on, its buttons gone:
    each private chat has one hand with buttons, the new one, which works. The group gets
    none of it (no card, no "goes on below")."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            await w.settle()
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None
            old = {u.id: (w.private(u) or {})["message_id"] for u in (ALICE, BOB)}
            actor = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
            assert _hands(fake, actor) == [old[actor.id]]  # (the other waits: no button)
            table_id = t.id
        async with world(tmp_path, fake=fake, db=db) as w2:
            await w2.settle()
            moved = tr("en", "private.hand_moved", table=table_id)
            for u in (ALICE, BOB):
                new = (w2.private(u) or {})["message_id"]
                assert new != old[u.id]
                assert _hands(fake, u) == ([new] if u is actor else []), fake.messages
                gone = fake.messages[(u.id, old[u.id])]
                assert gone["text"] == moved and "reply_markup" not in gone
            assert moved not in w2.group_texts()
            # the new hand works
            t2 = w2.service.tables[table_id]
            assert t2.hand is not None
            answer = await _place_one(w2, actor, w2.private(actor) or {})
            assert not answer.get("show_alert"), answer
    finally:
        await fake.stop()


@pytest.mark.parametrize("deleted", [False, True], ids=["kept", "deleted_meanwhile"])
async def test_r14_a_takeover_writes_each_hand_over_its_message(
    tmp_path: Path, deleted: bool
) -> None:
    """Issue 14: a hand in progress on w1, which dies (nothing given up); w2 takes the table
    over when w1's lease runs out. Each player's hand is written over the message their
    seat's snapshot names (an edit, no new message), and a press there works through w2.
    ``deleted_meanwhile``: Alice deleted her hand message while no worker served the table:
    the edit finds it gone and her hand is posted anew, once; Bob's is written over."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w1 = Worker(w.service, "w1", "http://127.0.0.1:9", ttl=TTL, telegram=w.adapter)
            await w1.start()
            assert await w1.claim(KEY)
            await seat_everyone(w, [ALICE, BOB])
            await w.settle()
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None
            old = {u.id: (w.private(u) or {})["message_id"] for u in (ALICE, BOB)}
            actor = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
            await w.service.rt.drain()  # (the hands' refs are saved in the background)
            state = await w.store.table_state(t.id)
            assert state is not None
            saved = {str(s["user_id"]): s.get("private_ref") for s in state[1]["seats"]}
            assert saved == {str(u.id): str(old[u.id]) for u in (ALICE, BOB)}
            await w1.halt()  # dies: nothing given up nor written
            for table_id in list(w.service.tables):
                await w.service.release(table_id)
        if deleted:
            fake.delete(ALICE.id, old[ALICE.id])
        await asyncio.sleep(TTL + 0.5)
        calls = len(fake.calls)

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
            assert t2 is not None and t2.hand is not None
            assert await store.lease_owner(KEY) == "w2"
            w2nd = World(fake, service, adapter, store)
            await w2nd.settle()
            await fake.wait_for(lambda: w2nd.private(ALICE) is not None, timeout=5.0)
            await w2nd.settle()
            bob = _dm_calls(fake, calls, BOB)
            assert ("sendMessage", None) not in bob, bob  # no second hand
            assert ("editMessageText", old[BOB.id]) in bob, bob  # written over
            alice = _dm_calls(fake, calls, ALICE)
            if deleted:  # the edit found it gone: posted anew, once
                assert alice.count(("sendMessage", None)) == 1, alice
                (new,) = _hands(fake, ALICE)
                assert new > old[ALICE.id] and (ALICE.id, old[ALICE.id]) not in fake.messages
                old[ALICE.id] = new
            else:
                assert ("sendMessage", None) not in alice, alice
                assert ("editMessageText", old[ALICE.id]) in alice, alice
            for u in (ALICE, BOB):  # each private chat: the one hand, buttons on the actor's
                assert _hands(fake, u) == ([old[u.id]] if u is actor else []), fake.messages
            moved = tr("en", "private.hand_moved", table=t2.id)
            assert moved not in w2nd.group_texts()
            assert all(moved != m.get("text") for m in fake.messages.values())
            # the hand message works through w2
            assert t2.seats[t2.hand.to_act[0]].user_id == str(actor.id)
            assert (w2nd.private(actor) or {})["message_id"] == old[actor.id]
            answer = await _place_one(w2nd, actor, fake.messages[(actor.id, old[actor.id])])
            assert not answer.get("show_alert"), answer
        finally:
            await w2.stop()
            await fake.release_polls()
            await adapter.stop()
            await store.close()
    finally:
        await fake.stop()
