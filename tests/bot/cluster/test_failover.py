"""Failover of workers sharing the tables (issue 14): three worker processes, the webhook
router and the fake Bot API on one PostgreSQL database. Two groups play; the worker serving
the first group's table is killed with SIGKILL in the middle of a hand: every table it served
resumes on another worker from its last committed transition and the hand finishes, settled
exactly once; the ledger check finds nothing; the other group's table never notices.
Bounded: the test gives up after 60 s."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.telegram.fake_api import FakeUser
from storage.api import LedgerKind, lease_key
from storage.check import check_store
from storage.postgres import PostgresStore
from tests.bot.cluster.harness import Cluster, has
from tests.pg import fresh_database

GROUPS = (-5001, -5002)
PLAYERS = {
    -5001: (FakeUser(301, "Alice", "alice", "en"), FakeUser(302, "Bob", "bob", "en")),
    -5002: (FakeUser(303, "Carol", "carol", "en"), FakeUser(304, "Dan", "dan", "en")),
}
BOUND = 60.0


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    async with fresh_database() as url:
        store = await PostgresStore.open(url)
        c = Cluster(store, {"DATABASE_URL": url}, tmp_path, workers=3, lease_seconds=2.0)
        try:
            await c.start()
            yield c
        finally:
            await c.stop()
            await store.close()


async def _open_and_start(c: Cluster, group: int) -> int:
    """Open a table in ``group``, seat both players and get them ready: the hand starts."""
    a, b = PLAYERS[group]
    reply = await c.say(a, group, "/newtable")
    assert "is open" in reply, reply
    for user in (a, b):
        for action in ("j", "r"):
            msg = c.newest(group, action)
            assert msg is not None
            answer = await c.press(user, group, msg, action)
            assert answer is not None and not answer.get("show_alert"), answer
            await asyncio.sleep(0.05)
    table = await c.store.chat_table("telegram", str(group))
    assert table is not None
    return table


async def _play_street(c: Cluster, user: FakeUser) -> bool:
    """Arrange for me, then Confirm, on the user's newest hand message; ``False`` when there
    was nothing to press or the Confirm was refused (a superseded message: read again; a
    fouled board's question, R2.3: the next call's Confirm plays it). A refused Arrange
    (every card already placed: the street the question held) still goes on to Confirm; it
    returned ``False`` before the Confirm, so a board that fouled was never confirmed and the
    hand never ended (a flake: Arrange fouls only when no placement avoids it)."""
    msg = c.newest(user.id, "c")
    if msg is None:
        return False
    if has(msg, "a"):
        await c.press_until_changed(user, user.id, msg, "a")
    msg = c.newest(user.id, "c")
    return msg is not None and await c.press_until_changed(user, user.id, msg, "c")


def _story(c: Cluster) -> str:
    """What happened, for a failure message: the last forwards and API calls, the logs."""
    forwards = list(c.router.forwards)[-12:] if c.router is not None else []
    calls = [
        (x.method, x.params.get("chat_id"), str(x.params.get("text", ""))[:60],
         x.params.get("show_alert"))
        for x in c.fake.calls[-25:]
    ]  # fmt: skip
    chats = {}
    for users in PLAYERS.values():
        for u in users:
            chats[u.first_name] = [
                (
                    mid,
                    str(m.get("text", ""))[:50],
                    [b.get("callback_data") for b in c.fake.buttons(m)][-1:],
                )
                for (chat, mid), m in sorted(c.fake.messages.items())
                if chat == u.id
            ][-4:]
    return f"forwards: {forwards}\ncalls: {calls}\nchats: {chats}\n{c.logs()}"


async def _hands(c: Cluster, table: int) -> int:
    return len(await c.store.export_hands(table))


async def _play_hand(c: Cluster, group: int, table: int, deadline: float) -> None:
    """Both players play streets until the table has a settled hand."""
    while await _hands(c, table) == 0:
        if time.monotonic() > deadline:
            state = await c.store.table_state(table)
            snap = state[1] if state else {}
            seats = [(x.get("user_id"), x.get("private_ref")) for x in snap.get("seats", [])]
            raise AssertionError(f"hand not finished in time\nseats {seats}\n{_story(c)}")
        pressed = False
        for user in PLAYERS[group]:
            pressed |= await _play_street(c, user)
        if not pressed:
            await asyncio.sleep(0.1)


async def test_a_killed_worker_s_tables_resume_elsewhere_and_settle_once(
    cluster: Cluster,
) -> None:
    c = cluster
    deadline = time.monotonic() + BOUND
    tables = {g: await _open_and_start(c, g) for g in GROUPS}
    owners = {g: await c.store.lease_owner(lease_key("telegram", str(g))) for g in GROUPS}
    assert all(owners.values()), owners
    # the first street of the first table, then its worker dies in the middle of the hand
    for user in PLAYERS[GROUPS[0]]:
        await c.fake.wait_for(lambda u=user: c.newest(u.id, "c"), 20.0)  # dealt
        assert await _play_street(c, user), c.fake.calls[-5:]
    victim = c.worker(str(owners[GROUPS[0]]))
    assert await _hands(c, tables[GROUPS[0]]) == 0  # mid-hand
    victim.kill()
    killed_at = time.monotonic()
    victims = [g for g in GROUPS if owners[g] == victim.name]
    # both hands finish (the router retries a press until the chat's new worker takes it)
    await asyncio.gather(*(_play_hand(c, g, tables[g], deadline) for g in GROUPS))
    assert c.router is not None
    for g in victims:  # every table of the dead worker is served by a live one now
        key = lease_key("telegram", str(g))
        owner = await c.store.lease_owner(key)
        assert owner is not None and owner != victim.name and c.worker(owner).alive
        after = [f for f in c.router.forwards if f[0] > killed_at and f[1] == key]
        assert any(f[2] == victim.address and f[3] == 0 for f in after)  # it was dead
        resumed = min(f[0] for f in after if f[3] == 200 and f[2] != victim.address)
        print(f"table {tables[g]}: resumed on {owner} {resumed - killed_at:.2f} s after the kill")
        assert resumed - killed_at < 10.0
    for g in GROUPS:
        hands = await c.store.export_hands(tables[g])
        assert [h["number"] for h in hands] == [1], hands  # settled once
    community_ids = {
        (await c.store.community("telegram", str(g))).id for g in GROUPS
    }  # the groups are the communities
    for cid in community_ids:
        rows = [e for e in await c.store.ledger(cid) if e.kind is LedgerKind.HAND_RESULT]
        pairs = [(e.player_id, e.hand_id) for e in rows]
        assert len(pairs) == len(set(pairs)) and len({e.hand_id for e in rows}) <= 1, rows
        assert sum(e.stack_delta for e in rows) == 0
    assert await check_store(c.store) == []  # no kush drift
    check = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage", "check", "--db", c.env["DATABASE_URL"],
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await check.communicate()
    assert check.returncode == 0, out.decode()  # python -m storage check agrees
