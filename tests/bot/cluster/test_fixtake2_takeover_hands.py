"""fixtake2: a hand in progress taken over from a worker killed with SIGKILL (issue 14) keeps
the players' private hand messages. Two worker processes behind the webhook router on one
PostgreSQL database (pgserver), the fake Bot API in this process: Alice and Bob are dealt a
hand, the worker holding the chat is killed. The other worker took the table over but posted
each player's hand anew in their private chat, the old hand keeping buttons that answered
"out of date" (two hands with buttons, the old one live to the eye). It writes each hand over
the message the snapshot names now, and the actor plays on it through the new worker.
Bounded: the test gives up after 60 s."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.telegram.fake_api import BOT_ID, FakeUser
from storage.api import lease_key
from storage.postgres import PostgresStore
from tests.bot.cluster.harness import Cluster, _payloads, has
from tests.pg import fresh_database

GROUP = -5201
ALICE = FakeUser(321, "Alice", "alice", "en")
BOB = FakeUser(322, "Bob", "bob", "en")
KEY = lease_key("telegram", str(GROUP))
LEASE = 1.0
BOUND = 60.0


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    async with fresh_database() as url:
        store = await PostgresStore.open(url)
        c = Cluster(store, {"DATABASE_URL": url}, tmp_path, workers=2, lease_seconds=LEASE)
        try:
            await c.start()
            yield c
        finally:
            await c.stop()
            await store.close()


def _bot_messages(c: Cluster, user: FakeUser) -> list[int]:
    """The bot's messages in ``user``'s private chat (by message id)."""
    return sorted(
        mid
        for (chat, mid), m in c.fake.messages.items()
        if chat == user.id and m["from"]["id"] == BOT_ID
    )


def _with_buttons(c: Cluster, user: FakeUser) -> list[int]:
    return [mid for mid in _bot_messages(c, user) if _payloads(c.fake.messages[(user.id, mid)])]


async def test_r14_a_hand_taken_over_from_a_killed_worker_keeps_the_hand_messages(
    cluster: Cluster,
) -> None:
    c = cluster
    deadline = time.monotonic() + BOUND
    assert "is open" in await c.say(ALICE, GROUP, "/newtable")
    table = await c.store.chat_table("telegram", str(GROUP))
    assert table is not None
    for user in (ALICE, BOB):
        for action in ("j", "r"):
            msg = c.newest(GROUP, action)
            assert msg is not None
            answer = await c.press(user, GROUP, msg, action)
            assert answer is not None and not answer.get("show_alert"), answer
            await asyncio.sleep(0.05)
    # dealt, and the stored snapshot names both hand messages (saved in the background)
    while True:
        state = await c.store.table_state(table)
        assert state is not None
        refs = {str(s.get("user_id")): s.get("private_ref") for s in state[1].get("seats", [])}
        sure = all(str(r or "").isdigit() for r in refs.values())
        if state[1].get("hand") and sure and len(refs) == 2:
            break
        assert time.monotonic() < deadline, state[1].get("seats")
        await asyncio.sleep(0.05)
    old = {u.id: int(str(refs[str(u.id)])) for u in (ALICE, BOB)}
    for u in (ALICE, BOB):
        assert _bot_messages(c, u) == [old[u.id]]
    acting = [u for u in (ALICE, BOB) if has(c.fake.messages[(u.id, old[u.id])], "c")]
    assert len(acting) == 1, acting
    actor = acting[0]
    holder = await c.store.lease_owner(KEY)
    assert holder is not None
    victim = c.worker(holder)
    other = next(w for w in c.workers if w is not victim)
    calls = len(c.fake.calls)

    victim.kill()  # SIGKILL: nothing saved nor given up
    while await c.store.lease_owner(KEY) != other.name:
        assert time.monotonic() < deadline and other.alive, c.logs()
        await asyncio.sleep(0.05)

    def private_writes() -> list[tuple[str, object, object]]:
        return [
            (x.method, x.params.get("chat_id"), x.params.get("message_id"))
            for x in c.fake.calls[calls:]
            if str(x.params.get("chat_id")) in (str(ALICE.id), str(BOB.id))
            and x.method in ("sendMessage", "editMessageText")
        ]

    # the takeover has written both hands (its resume step)
    await c.fake.wait_for(
        lambda: {str(w[1]) for w in private_writes()} == {str(ALICE.id), str(BOB.id)}, 20.0
    )
    await asyncio.sleep(4 * LEASE)  # (anything more it would write, written by now)
    writes = private_writes()
    assert not [w for w in writes if w[0] == "sendMessage"], writes  # no second hand
    for u in (ALICE, BOB):
        assert ("editMessageText", str(u.id), old[u.id]) in [
            (m, str(chat), mid) for m, chat, mid in writes
        ], writes
        assert _bot_messages(c, u) == [old[u.id]]
        assert _with_buttons(c, u) == ([old[u.id]] if u is actor else [])
    # the actor plays on it, through the worker that took the table over
    msg = c.fake.messages[(actor.id, old[actor.id])]
    assert await c.press_until_changed(actor, actor.id, msg, "a"), c.logs()
    assert await c.store.lease_owner(KEY) == other.name
