"""clu42: tables move to a worker that joined later (issue 14, :meth:`Worker.rebalance`).
Two worker processes behind the webhook router on one PostgreSQL database (pgserver), the fake
Bot API in this process; only ``w1`` runs while four groups open tables: three stay in the
lobby (a player sat down), in the fourth a hand is dealt. Then ``w2`` starts. Before, every
table stayed on ``w1`` for good (``w2`` got only new chats and orphans). Now the idle tables
rendezvous hashing gives to ``w2`` move there within a few sweeps, the other stays; the table
in the middle of a hand stays on ``w1`` until its hand is settled, then moves too. Nothing is
posted anew (the table messages are written over), no kush moves, the buttons of the moved
tables work through ``w2``, each press answered once. Bounded: the test gives up after 90 s."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.cluster import rendezvous
from bot.telegram.fake_api import BOT_ID, FakeUser
from storage.api import lease_key
from storage.check import check_store
from storage.postgres import PostgresStore
from tests.bot.cluster.harness import Cluster, _payloads, has
from tests.pg import fresh_database

LEASE = 1.0
BOUND = 90.0
_BOTH = {"w1": "", "w2": ""}


def _groups(pick: str, count: int, start: int) -> list[int]:
    """``count`` group chat ids from ``start`` down whose rendezvous pick of w1 and w2 is
    ``pick``."""
    out: list[int] = []
    chat = start
    while len(out) < count:
        if rendezvous(lease_key("telegram", str(chat)), _BOTH) == pick:
            out.append(chat)
        chat -= 1
    return out


MOVING = _groups("w2", 2, -5301)  # idle, rendezvous gives them to w2
STAYING = _groups("w1", 1, -5301)  # idle, rendezvous gives it to w1
BUSY = _groups("w2", 1, -5401)[0]  # a hand dealt when w2 joins: moves once it is settled
IDLE = [*MOVING, *STAYING]
PLAYERS = {
    g: (
        FakeUser(400 + 2 * i, f"A{i}", f"a{i}", "en"),
        FakeUser(401 + 2 * i, f"B{i}", f"b{i}", "en"),
    )
    for i, g in enumerate([*IDLE, BUSY])
}


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    async with fresh_database() as url:
        store = await PostgresStore.open(url)
        c = Cluster(store, {"DATABASE_URL": url}, tmp_path, workers=2, lease_seconds=LEASE)
        try:
            await c.start(workers=1)  # w2 joins later
            yield c
        finally:
            await c.stop()
            await store.close()


def _owner(c: Cluster, group: int) -> Any:
    return c.store.lease_owner(lease_key("telegram", str(group)))


def _table_message(c: Cluster, group: int) -> int:
    """The group's one bot message with buttons (its table message)."""
    mids = [
        mid
        for (chat, mid), m in c.fake.messages.items()
        if chat == group and m["from"]["id"] == BOT_ID and _payloads(m)
    ]
    assert len(mids) == 1, (group, mids)
    return mids[0]


async def _press_once(c: Cluster, user: FakeUser, group: int, action: str) -> dict[str, Any]:
    """``user`` presses ``action`` on the group's table message; its answer, given once."""
    mid = _table_message(c, group)
    msg = c.fake.messages[(group, mid)]
    data = next(p.encode() for p in _payloads(msg) if p.action == action)
    qid = await c.fake.press(user, group, mid, data)
    answer = await c.fake.wait_for(lambda: c.fake.answer_of(qid), 20.0)
    await asyncio.sleep(0.5)  # (a second answer would be here by now)
    answers = [
        x
        for x in c.fake.calls_of("answerCallbackQuery")
        if str(x.params.get("callback_query_id")) == str(qid)
    ]
    assert len(answers) == 1, answers
    params: dict[str, Any] = answer.params
    return params


async def _play_street(c: Cluster, user: FakeUser) -> bool:
    """Arrange for me, then Confirm, on the user's newest hand message (as the failover
    test's)."""
    msg = c.newest(user.id, "c")
    if msg is None:
        return False
    if has(msg, "a"):
        await c.press_until_changed(user, user.id, msg, "a")
    msg = c.newest(user.id, "c")
    return msg is not None and await c.press_until_changed(user, user.id, msg, "c")


def _sent(c: Cluster, since: int, chats: set[str]) -> list[tuple[str, str, str]]:
    """The new messages (not edits) the bot sent to ``chats`` from call ``since`` on."""
    return [
        (
            x.method,
            str(x.params.get("chat_id")),
            str(x.params.get("text") or x.params.get("caption")),
        )
        for x in c.fake.calls[since:]
        if x.method in ("sendMessage", "sendPhoto") and str(x.params.get("chat_id")) in chats
    ]


async def test_clu42_idle_tables_move_to_a_worker_that_joined_later(cluster: Cluster) -> None:
    c = cluster
    deadline = time.monotonic() + BOUND
    tables: dict[int, int] = {}
    for g in [*IDLE, BUSY]:
        a, b = PLAYERS[g]
        assert "is open" in await c.say(a, g, "/newtable")
        table = await c.store.chat_table("telegram", str(g))
        assert table is not None
        tables[g] = table
        assert not (await _press_once(c, a, g, "j")).get("show_alert")
    a, b = PLAYERS[BUSY]
    assert not (await _press_once(c, b, BUSY, "j")).get("show_alert")
    for user in (a, b):
        assert not (await _press_once(c, user, BUSY, "r")).get("show_alert")
    while True:  # dealt, and the stored snapshot names both hand messages
        state = await c.store.table_state(tables[BUSY])
        assert state is not None
        refs = [s.get("private_ref") for s in state[1].get("seats", [])]
        if state[1].get("hand") and len(refs) == 2 and all(str(r).isdigit() for r in refs):
            break
        assert time.monotonic() < deadline, state[1].get("seats")
        await asyncio.sleep(0.05)
    assert {await _owner(c, g) for g in tables} == {"w1"}
    communities = {g: (await c.store.community("telegram", str(g))).id for g in tables}
    ledgers = {g: await c.store.ledger(communities[g]) for g in tables}
    stacks = {g: await c.store.stacks(tables[g]) for g in tables}
    mids = {g: _table_message(c, g) for g in IDLE}
    calls = len(c.fake.calls)

    await c.start_worker("w2")
    # the idle tables rendezvous gives to w2 move there; the hand's table stays meanwhile
    while [await _owner(c, g) for g in MOVING] != ["w2"] * len(MOVING):
        state = await c.store.table_state(tables[BUSY])
        assert state is not None and state[1].get("hand"), "the hand ended by itself"
        assert await _owner(c, BUSY) == "w1"
        assert time.monotonic() < deadline, c.logs()
        await asyncio.sleep(0.1)
    await asyncio.sleep(4 * LEASE)  # (anything more the move would write, written by now)
    for g in STAYING:
        assert await _owner(c, g) == "w1"
    state = await c.store.table_state(tables[BUSY])
    assert state is not None and state[1].get("hand")  # still in its hand, still on w1
    assert await _owner(c, BUSY) == "w1"
    # nothing posted anew, the group's table message written over; no kush moved
    idle_chats = {str(g) for g in IDLE} | {str(PLAYERS[g][0].id) for g in IDLE}
    assert _sent(c, calls, idle_chats) == []
    for g in IDLE:
        assert _table_message(c, g) == mids[g]
        assert await c.store.ledger(communities[g]) == ledgers[g]
        assert await c.store.stacks(tables[g]) == stacks[g]
    # the moved tables' buttons work through w2 (the router follows the lease); w1's too
    for g in IDLE:
        b = PLAYERS[g][1]
        assert not (await _press_once(c, b, g, "j")).get("show_alert")

        def shown(g: int = g, b: FakeUser = b) -> bool:
            return b.first_name in str(c.fake.messages[(g, mids[g])].get("text"))

        await c.fake.wait_for(shown, 10.0)
        state = await c.store.table_state(tables[g])
        assert state is not None
        seated = sorted(str(s.get("user_id")) for s in state[1]["seats"])
        assert seated == sorted(str(u.id) for u in PLAYERS[g])
    assert [await _owner(c, g) for g in IDLE] == ["w2"] * len(MOVING) + ["w1"] * len(STAYING)

    # the hand is played to its end on w1; then its table moves too
    a, b = PLAYERS[BUSY]
    while not await c.store.export_hands(tables[BUSY]):
        assert await _owner(c, BUSY) == "w1"
        assert time.monotonic() < deadline, c.logs()
        pressed = False
        for user in (a, b):
            pressed |= await _play_street(c, user)
        if not pressed:
            await asyncio.sleep(0.1)
    settled = len(c.fake.calls)
    while await _owner(c, BUSY) != "w2":
        assert time.monotonic() < deadline, c.logs()
        await asyncio.sleep(0.1)
    await asyncio.sleep(4 * LEASE)
    busy_chats = {str(BUSY), str(a.id), str(b.id)}
    sent = _sent(c, settled, busy_chats)
    assert len(sent) == len(set(sent)), sent  # nothing sent twice
    assert [h["number"] for h in await c.store.export_hands(tables[BUSY])] == [1]
    assert await c.store.ledger(communities[BUSY]) != ledgers[BUSY]  # (settled: the hand's)
    assert await check_store(c.store) == []  # no kush drift
    assert "handed table" in c.worker("w1").log.read_text()
