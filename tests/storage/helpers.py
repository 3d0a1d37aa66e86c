"""Shared helpers of the storage tests: the store kinds every contract test runs against and a
small seated-table setup."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from storage.api import Community, Player, Store, TableRecord
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore

STORE_KINDS = ("memory", "sqlite_memory", "sqlite_file")
"""MemoryStore, SqliteStore on ":memory:", SqliteStore on a real file."""


async def make_store(kind: str, directory: Path) -> SqliteStore | MemoryStore:
    """A new empty store of ``kind`` (a file store lives in ``directory``)."""
    if kind == "memory":
        return MemoryStore()
    if kind == "sqlite_memory":
        return await SqliteStore.open(":memory:")
    if kind == "sqlite_file":
        return await SqliteStore.open(directory / "ofc.db")
    raise ValueError(kind)


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


async def assert_consistent(store: SqliteStore | MemoryStore) -> None:
    """The ledger check finds nothing."""
    assert await check_store(store) == []
