"""Shared helpers of the storage tests: the store kinds every contract test runs against and a
small seated-table setup."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from storage.api import Community, Player, Store, TableRecord
from storage.check import check_store
from storage.memory import MemoryStore
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore
from tests.pg import fresh_database

STORE_KINDS = ("memory", "sqlite_memory", "sqlite_file", "postgres")
"""MemoryStore, SqliteStore on ":memory:", SqliteStore on a real file, PostgresStore on a fresh
database of the session's PostgreSQL server (tests/pg.py)."""

AnyStore = SqliteStore | MemoryStore | PostgresStore


@contextlib.asynccontextmanager
async def open_store(kind: str, directory: Path) -> AsyncIterator[AnyStore]:
    """A new empty store of ``kind`` (a file store lives in ``directory``; a PostgreSQL store
    gets a database of its own, dropped afterwards), closed afterwards."""
    if kind == "postgres":
        async with fresh_database() as url:
            store = await PostgresStore.open(url)
            try:
                yield store
            finally:
                await store.close()
        return
    if kind == "memory":
        simple: AnyStore = MemoryStore()
    elif kind == "sqlite_memory":
        simple = await SqliteStore.open(":memory:")
    elif kind == "sqlite_file":
        simple = await SqliteStore.open(directory / "ofc.db")
    else:
        raise ValueError(kind)
    try:
        yield simple
    finally:
        await simple.close()


@contextlib.asynccontextmanager
async def another_connection(store: AnyStore) -> AsyncIterator[AnyStore]:
    """A second connection to ``store``'s database, as another worker process has: a store
    of its own on the same SQLite file or PostgreSQL database (closed afterwards); ``store``
    itself when its data cannot be shared (a memory store, SQLite's ``:memory:``)."""
    if isinstance(store, PostgresStore):
        other: AnyStore = await PostgresStore.open(store.url)
    elif isinstance(store, SqliteStore) and store.path != ":memory:":
        other = await SqliteStore.open(store.path)
    else:
        yield store
        return
    try:
        yield other
    finally:
        await other.close()


@dataclass
class Seated:
    """A community with three players (1,000 kush each) and one open table."""

    community: Community
    players: list[Player]
    table: TableRecord

    @property
    def ids(self) -> list[int]:
        return [p.id for p in self.players]


async def seated(store: Store, n: int = 3, chat: str = "chat-1") -> Seated:
    community = await store.community("telegram", "-100", "Group")
    players = [await store.player(community.id, f"u{i}", f"Player{i}") for i in range(n)]
    table = await store.create_table(community.id, chat, {"game": "pineapple"}, 200)
    return Seated(community, players, table)


async def balance(store: Store, player_id: int) -> int:
    p = await store.get_player(player_id)
    assert p is not None
    return p.balance


async def assert_consistent(store: AnyStore) -> None:
    """The ledger check finds nothing."""
    assert await check_store(store) == []
