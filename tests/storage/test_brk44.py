"""Break-it (brk44) on kush under concurrency, storage side: a group upgraded to a supergroup
whose first command reaches PostgreSQL at the moment the move does (issue 15, R8.1)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage.api import BuyIn
from storage.check import check_store
from storage.postgres import PostgresStore, _get_community
from tests.pg import fresh_database
from tests.storage.helpers import seated


@pytest.fixture
async def pg() -> AsyncIterator[PostgresStore]:
    """A PostgreSQL store on a fresh, empty database."""
    async with fresh_database() as url:
        store = await PostgresStore.open(url)
        try:
            yield store
        finally:
            await store.close()


async def _waiting_for_a_lock(conn: asyncpg.Connection) -> bool:
    """Whether another connection waits for a lock (the move, for the supergroup's row)."""
    return bool(await conn.fetchval("SELECT count(*) FROM pg_locks WHERE NOT granted"))


async def test_move_chat_takes_the_wallets_over_a_community_made_at_that_moment(
    pg: PostgresStore,
) -> None:
    """The supergroup's first command (a /balance typed right after the upgrade, handled at
    once: its updates do not wait for the move) makes the supergroup's community while the
    move runs: the move found no community under the new id, then wrote the group's over the
    one committed meanwhile, and PostgreSQL refused it (a unique violation, raised as a
    StorageError). The group's wallets stayed under the old id, which no update names any
    more, and the supergroup showed fresh ones: the move is made all the same, the new
    community kept under another name as when it came first."""
    s = await seated(pg, 2, chat="-100")
    a, _ = s.ids
    await pg.commit(s.table.id, [BuyIn(a, 200)], {"v": 1}, key="t:1")
    other = await asyncpg.connect(pg.url)
    try:
        tx = other.transaction()
        await tx.start()  # the supergroup's first command, under way
        made = await _get_community(other, "telegram", "-1009", "")
        move = asyncio.ensure_future(pg.move_chat("telegram", "-100", "-1009"))
        while not await _waiting_for_a_lock(other):  # the move waits for that row
            assert not move.done(), move
            await asyncio.sleep(0.01)
        await tx.commit()
        assert await move is True
    finally:
        await other.close()
    moved = await pg.community("telegram", "-1009")
    assert moved.id == s.community.id
    player = await pg.find_player(moved.id, "u0")
    assert player is not None and player.id == a and player.balance == 800
    table = await pg.open_table(moved.id, "-1009")
    assert table is not None and table.id == s.table.id
    kept = await pg.community("telegram", f"-1009~{made[0]}")
    assert kept.id == made[0]
    assert await check_store(pg) == []


async def test_move_chat_takes_the_lease_over_one_taken_at_that_moment(pg: PostgresStore) -> None:
    """The same with the chat's lease (issue 14): a worker takes the supergroup's lease (its
    first update) while the move carries the group's over: refused by the lease's key, the
    move left wallets, table and lease under the old id. Made again, the worker serving the
    table keeps serving it under the new id."""
    s = await seated(pg, 2, chat="-100")
    assert await pg.acquire_lease("telegram:-100", "w1", 60.0)
    other = await asyncpg.connect(pg.url)
    try:
        tx = other.transaction()
        await tx.start()  # another worker's lease of the supergroup, under way
        await other.execute(
            "INSERT INTO leases (key, worker, expires_at) VALUES ($1, $2, $3)",
            "telegram:-1009",
            "w2",
            1e12,
        )
        move = asyncio.ensure_future(pg.move_chat("telegram", "-100", "-1009"))
        while not await _waiting_for_a_lock(other):
            assert not move.done(), move
            await asyncio.sleep(0.01)
        await tx.commit()
        assert await move is True
    finally:
        await other.close()
    assert (await pg.community("telegram", "-1009")).id == s.community.id
    assert await pg.lease_owner("telegram:-1009") == "w1"
    assert await pg.lease_owner("telegram:-100") is None
