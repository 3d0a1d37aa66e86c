"""brktake: a table taken over from a worker killed with SIGKILL (issue 14) keeps the table
message its group has. Two worker processes behind the webhook router on one PostgreSQL
database (pgserver), the fake Bot API in this process: a table is opened, Alice sits down,
the worker holding the chat is killed (not stopped: nothing given up). The other worker took
the table over within about a lease time, but posted the table message anew (resumed as at a
restart, :func:`bot.service.recovery.resume`) beside the one the group had, whose ref the
stored snapshot held: the group had two table messages with buttons, the old one's looking
live. The taking-over worker writes the table over the message the snapshot names now; the
group has one table message with buttons, and it works. Bounded: the test gives up after 60 s."""

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

GROUP = -5101
ALICE = FakeUser(311, "Alice", "alice", "en")
BOB = FakeUser(312, "Bob", "bob", "en")
KEY = lease_key("telegram", str(GROUP))
#: seconds the workers' leases last (the operator's takeover came within about 1 s)
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


def _with_buttons(c: Cluster) -> list[int]:
    """The group's bot messages that have buttons (by message id)."""
    return sorted(
        mid
        for (chat, mid), m in c.fake.messages.items()
        if chat == GROUP and m["from"]["id"] == BOT_ID and _payloads(m)
    )


@pytest.mark.parametrize("deleted", [False, True], ids=["kept", "deleted_meanwhile"])
async def test_r14_a_table_taken_over_from_a_killed_worker_keeps_its_table_message(
    cluster: Cluster, deleted: bool
) -> None:
    """Issue 14: /newtable, Alice joins; the worker holding the chat is SIGKILLed. The other
    worker takes the table over and writes it over the group's table message (an edit of
    that message, no new one): the group still has one table message with buttons, the same,
    and Bob's Join there seats him through the new worker. ``deleted_meanwhile``: an admin
    deleted the table message while no worker served the table: the edit finds it gone and
    it is posted again, once (the only table message with buttons)."""
    c = cluster
    deadline = time.monotonic() + BOUND
    assert "is open" in await c.say(ALICE, GROUP, "/newtable")
    table = await c.store.chat_table("telegram", str(GROUP))
    assert table is not None
    msg = c.newest(GROUP, "j")
    assert msg is not None
    mid = int(msg["message_id"])
    assert (await c.press(ALICE, GROUP, msg, "j") or {}).get("show_alert") is not True
    await c.fake.wait_for(lambda: "Alice" in str(c.fake.messages[(GROUP, mid)].get("text")))
    # the stored snapshot names the table message (its ref is saved in the background)
    while True:
        state = await c.store.table_state(table)
        assert state is not None
        if state[1].get("group_ref") == str(mid) and state[1].get("seats"):
            break
        assert time.monotonic() < deadline, state[1].get("group_ref")
        await asyncio.sleep(0.05)
    assert _with_buttons(c) == [mid]
    holder = await c.store.lease_owner(KEY)
    assert holder is not None
    victim = c.worker(holder)
    other = next(w for w in c.workers if w is not victim)
    calls = len(c.fake.calls)

    victim.kill()  # SIGKILL: nothing saved nor given up
    if deleted:
        c.fake.delete(GROUP, mid)
    while await c.store.lease_owner(KEY) != other.name:
        assert time.monotonic() < deadline and other.alive, c.logs()
        await asyncio.sleep(0.05)
    # the takeover has written the table message (its resume step, R8.5's clocks)
    await c.fake.wait_for(
        lambda: any(
            str(x.params.get("chat_id")) == str(GROUP)
            and x.method in ("sendMessage", "editMessageText")
            for x in c.fake.calls[calls:]
        ),
        20.0,
    )
    await asyncio.sleep(4 * LEASE)  # (anything more it would write, written by now)
    after = [
        (x.method, x.params.get("message_id"))
        for x in c.fake.calls[calls:]
        if str(x.params.get("chat_id")) == str(GROUP)
    ]
    if deleted:  # the edit found it gone: posted again, once
        assert after.count(("sendMessage", None)) == 1, after
        (new,) = _with_buttons(c)  # (the one with buttons: the old one is gone)
        assert new > mid and (GROUP, mid) not in c.fake.messages
        mid = new
    else:
        assert ("sendMessage", None) not in after, after  # no second table message
        assert ("editMessageText", mid) in after, after  # the group's one, written over
    assert _with_buttons(c) == [mid], c.fake.messages
    text = str(c.fake.messages[(GROUP, mid)].get("text"))
    assert "Alice" in text and "Bob" not in text

    # its buttons work, through the worker that took the table over
    answer = await c.press(BOB, GROUP, c.fake.messages[(GROUP, mid)], "j")
    assert answer is not None and not answer.get("show_alert"), answer
    await c.fake.wait_for(lambda: "Bob" in str(c.fake.messages[(GROUP, mid)].get("text")), 10.0)
    assert _with_buttons(c) == [mid]
    assert has(c.fake.messages[(GROUP, mid)], "r")
    assert await c.store.lease_owner(KEY) == other.name
    state = await c.store.table_state(table)
    assert state is not None
    seated = sorted(str(s.get("user_id")) for s in state[1]["seats"])
    assert seated == [str(ALICE.id), str(BOB.id)]
