"""Table transitions (issue 10): ``Store.commit`` writes its moves and the table's snapshot in
ONE transaction, or nothing; a repeated key changes nothing. Runs against every store kind."""

from __future__ import annotations

import asyncio
import math

import pytest

from storage.api import (
    BuyIn,
    CashOut,
    Grant,
    HouseGrant,
    InsufficientFunds,
    Joined,
    LedgerKind,
    Settlement,
    StorageError,
)
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.storage.helpers import assert_consistent, balance, seated


async def test_commit_buy_in_and_snapshot_together(store: SqliteStore | MemoryStore) -> None:
    s = await seated(store, 2)
    a, b = s.ids
    results = await store.commit(
        s.table.id, [BuyIn(a, 200), BuyIn(b, 300)], {"phase": "playing"}, key="t:1"
    )
    assert results == [200, 300]
    assert await store.stacks(s.table.id) == {a: 200, b: 300}
    assert await balance(store, a) == 800
    snaps = await store.snapshots()
    assert snaps[0][1] == {"phase": "playing"}
    await assert_consistent(store)


async def test_commit_repeated_key_changes_nothing(store: SqliteStore | MemoryStore) -> None:
    s = await seated(store, 1)
    (a,) = s.ids
    assert await store.commit(s.table.id, [BuyIn(a, 200)], {"v": 1}, key="t:1") == [200]
    assert await store.commit(s.table.id, [BuyIn(a, 200)], {"v": 2}, key="t:1") == [200]
    assert await balance(store, a) == 800
    assert (await store.snapshots())[0][1] == {"v": 1}
    await assert_consistent(store)


async def test_commit_settlement_cash_out_and_snapshot(store: SqliteStore | MemoryStore) -> None:
    s = await seated(store, 2)
    a, b = s.ids
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 200)], {"v": 1}, key="t:1")
    settle = Settlement(1, {"hand": 1}, {"points": 6}, {0: a, 1: b}, {a: 60, b: -60})
    results = await store.commit(s.table.id, [settle, CashOut(b)], {"v": 2}, key="t:2")
    assert results[1] == 140
    assert await store.stacks(s.table.id) == {a: 260}
    assert await balance(store, b) == 940
    history = await store.hand_history(a, 5)
    assert [h.number for h in history] == [1]
    assert history[0].id == results[0]
    kinds = [e.kind for e in await store.ledger(s.community.id)]
    assert kinds.count(LedgerKind.HAND_RESULT) == 2
    assert kinds.count(LedgerKind.CASH_OUT) == 1
    await assert_consistent(store)


async def test_commit_failing_move_writes_nothing(store: SqliteStore | MemoryStore) -> None:
    """A later move that fails (a stack would go negative) undoes the earlier ones and the
    snapshot is not replaced."""
    s = await seated(store, 2)
    a, b = s.ids
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 200)], {"v": 1}, key="t:1")
    ledger_before = len(await store.ledger(s.community.id))
    settle = Settlement(1, {}, {}, {0: a, 1: b}, {a: 500, b: -500})
    with pytest.raises(InsufficientFunds):
        await store.commit(s.table.id, [BuyIn(a, 100), settle], {"v": 2}, key="t:2")
    assert await store.stacks(s.table.id) == {a: 200, b: 200}
    assert await balance(store, a) == 800
    assert len(await store.ledger(s.community.id)) == ledger_before
    assert (await store.snapshots())[0][1] == {"v": 1}
    assert await store.hand_history(a, 5) == []
    # the key was not used up: the same transition may be committed once it is valid
    assert await store.commit(s.table.id, [BuyIn(a, 100)], {"v": 2}, key="t:2") == [300]
    await assert_consistent(store)


async def test_commit_grant_and_the_buy_in_it_pays_for_together(
    store: SqliteStore | MemoryStore,
) -> None:
    """A :class:`Grant` move (the house funding a computer player, issue 13): an
    ``admin_grant`` row by its actor in the same transaction as the buy-in after it; its
    result is the new balance. A later move that fails undoes the grant too, and a repeated
    key grants nothing more."""
    s = await seated(store, 2)
    a, b = s.ids
    house = Grant(a, 9000, actor="house", reason="house kush")
    settle = Settlement(1, {}, {}, {0: a, 1: b}, {a: 500, b: -500})  # (b has no stack)
    with pytest.raises(StorageError):
        await store.commit(s.table.id, [house, BuyIn(a, 10000), settle], {"v": 0}, key="t:1")
    assert await balance(store, a) == 1000 and await store.stacks(s.table.id) == {}
    assert [e.kind for e in await store.ledger(s.community.id)].count(LedgerKind.ADMIN_GRANT) == 0
    assert all(data != {"v": 0} for _, data in await store.snapshots())
    results = await store.commit(s.table.id, [house, BuyIn(a, 10000)], {"v": 1}, key="t:1")
    assert results == [10000, 10000]
    assert await balance(store, a) == 0 and await store.stacks(s.table.id) == {a: 10000}
    again = await store.commit(s.table.id, [house, BuyIn(a, 10000)], {"v": 2}, key="t:1")
    assert again == [10000, 10000] and await balance(store, a) == 0
    grants = [e for e in await store.ledger(s.community.id) if e.kind is LedgerKind.ADMIN_GRANT]
    assert [(e.player_id, e.balance_delta, e.stack_delta, e.actor, e.reason) for e in grants] == [
        (a, 9000, 0, "house", "house kush")
    ]
    with pytest.raises(StorageError):  # (a grant of nothing is no ledger row)
        await store.commit(s.table.id, [Grant(b, 0, "house", "x")], None, key="t:2")
    await assert_consistent(store)


async def test_commit_house_grant_is_decided_from_the_balance_in_its_transaction(
    store: SqliteStore | MemoryStore,
) -> None:
    """A :class:`HouseGrant` move (issue 13): nothing when the balance the transaction reads
    covers ``need``, else an ``admin_grant`` by the house to ``max(need, target)``; its
    result the kush granted. Two tables of the community committing it with a buy-in at
    once, the player at 300 kush and 200 each: the one committed second finds 100 and is
    granted, both buy-ins are made (each decided in its own transaction, never both from
    the balance before either)."""
    s = await seated(store, 1)
    (a,) = s.ids
    other = await store.create_table(s.community.id, "chat-2", {"game": "pineapple"}, 200)
    funded = [HouseGrant(a, 200, 10000, actor="house", reason="house kush"), BuyIn(a, 200)]
    assert await store.commit(s.table.id, funded, None, key="t:1") == [0, 200]
    assert await balance(store, a) == 800
    await store.grant(s.community.id, a, -500, actor="test", reason="", key="g:1")
    results = await asyncio.gather(
        store.commit(s.table.id, funded, None, key="t:2"),
        store.commit(other.id, funded, None, key="t:3"),
    )
    assert sorted(r[0] for r in results) == [0, 9900]  # (granted by the one second)
    assert await store.stacks(s.table.id) == {a: 400} and await store.stacks(other.id) == {a: 200}
    assert await balance(store, a) == 10000 - 200
    grants = [e for e in await store.ledger(s.community.id) if e.actor == "house"]
    assert [(e.kind, e.balance_delta, e.reason) for e in grants] == [
        (LedgerKind.ADMIN_GRANT, 9900, "house kush")
    ]
    again = await store.commit(other.id, funded, None, key="t:3")  # (a repeated key)
    assert again in results and await balance(store, a) == 9800
    with pytest.raises(StorageError):
        await store.commit(s.table.id, [HouseGrant(a, 0, 100, "house", "x")], None, key="t:4")
    await assert_consistent(store)


async def test_commit_snapshot_that_is_not_json_writes_nothing(
    store: SqliteStore | MemoryStore,
) -> None:
    """Case 3 of issue 10: a value that does not serialise (NaN) fails the whole transition."""
    s = await seated(store, 1)
    (a,) = s.ids
    with pytest.raises(StorageError):
        await store.commit(s.table.id, [BuyIn(a, 200)], {"bank": math.nan}, key="t:1")
    assert await store.stacks(s.table.id) == {}
    assert await balance(store, a) == 1000
    await assert_consistent(store)


async def test_commit_close_needs_empty_stacks(store: SqliteStore | MemoryStore) -> None:
    s = await seated(store, 2)
    a, b = s.ids
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 100)], {"v": 1}, key="t:1")
    with pytest.raises(StorageError):
        await store.commit(s.table.id, [CashOut(a)], None, key="t:2", close=True)
    assert await store.stacks(s.table.id) == {a: 200, b: 100}
    assert await store.commit(
        s.table.id, [CashOut(a), CashOut(b)], None, key="t:2", close=True
    ) == [200, 100]
    assert await store.snapshots() == []
    record = await store.get_table(s.table.id)
    assert record is not None and not record.open
    await assert_consistent(store)


async def test_commit_close_keeps_the_final_snapshot_until_it_is_deleted(
    store: SqliteStore | MemoryStore,
) -> None:
    """A closing transition keeps the snapshot it is given: what the closed table still owes
    the chat (issue 10: messages are sent after the commit, and a crash before they are must
    not lose them). It is listed by ``closed_snapshots`` (never restored as an open table)
    until ``delete_snapshot`` forgets it; a close without one, a close that fails, and
    ``close_table`` keep none."""
    s = await seated(store, 2)
    a, b = s.ids
    other = await store.create_table(s.community.id, "chat-2", {"game": "pineapple"}, 200)
    third = await store.create_table(s.community.id, "chat-3", {"game": "pineapple"}, 200)
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 100)], {"v": 1}, key="t:1")
    await store.commit(other.id, [], {"v": 9}, key="o:1")
    await store.save_snapshot(third.id, {"v": 7})
    assert await store.closed_snapshots() == []
    owed = {"v": 2, "outbox": [{"id": 1, "kind": "table", "text": "Table closed."}]}
    with pytest.raises(StorageError):  # a stack is left: nothing is written
        await store.commit(s.table.id, [CashOut(a)], owed, key="t:2", close=True)
    assert await store.closed_snapshots() == []
    assert [(t.id, d) for t, d in await store.snapshots()] == [
        (s.table.id, {"v": 1}),
        (other.id, {"v": 9}),
        (third.id, {"v": 7}),
    ]
    moves = [CashOut(a), CashOut(b)]
    assert await store.commit(s.table.id, moves, owed, key="t:2", close=True) == [200, 100]
    assert [t.id for t, _ in await store.snapshots()] == [other.id, third.id]
    assert await store.table_state(s.table.id) is None
    [(record, data)] = await store.closed_snapshots()
    assert record.id == s.table.id and not record.open and data == owed
    # repeated, the commit changes nothing; a background save cannot overwrite it
    assert await store.commit(s.table.id, moves, {"v": 3}, key="t:2", close=True) == [200, 100]
    with pytest.raises(StorageError):
        await store.save_snapshot(s.table.id, {"v": 4})
    assert [(t.id, d) for t, d in await store.closed_snapshots()] == [(s.table.id, owed)]
    await store.delete_snapshot(s.table.id)  # sent: forgotten
    assert await store.closed_snapshots() == []
    await store.commit(s.table.id, [], {"v": 5}, key="t:3", close=True)  # closed already
    await store.commit(other.id, [], None, key="o:2", close=True)  # nothing owed
    await store.close_table(third.id)
    assert await store.closed_snapshots() == []
    assert await store.snapshots() == []
    assert await balance(store, a) == 1000 and await balance(store, b) == 1000
    await assert_consistent(store)


async def test_r8_6_commit_joined_keeps_the_table_the_user_joined_last(
    store: SqliteStore | MemoryStore,
) -> None:
    """R8.6 (the bank refills at another table, not at the same one): a ``Joined`` move
    keeps the table a platform user joined last, in the commit's transaction, by platform
    and user (the same person in another community, another user on another platform); its
    result is the table before (0: none). A commit that fails keeps the one before, a
    repeated key changes nothing, a closed table is refused; no ledger row."""
    s = await seated(store, 2)
    a, _b = s.ids
    other = await store.create_table(s.community.id, "chat-2", {"game": "pineapple"}, 200)
    assert await store.last_table("telegram", "u0") is None
    assert await store.commit(s.table.id, [Joined("telegram", "u0")], {"v": 1}, key="t:1") == [0]
    assert await store.last_table("telegram", "u0") == s.table.id
    assert await store.last_table("discord", "u0") is None
    assert await store.last_table("telegram", "u1") is None
    results = await store.commit(other.id, [Joined("telegram", "u0")], {"v": 1}, key="o:1")
    assert results == [s.table.id]
    assert await store.last_table("telegram", "u0") == other.id
    # a commit that fails writes no join: the table joined last stays the other one
    with pytest.raises(InsufficientFunds):
        await store.commit(
            s.table.id, [Joined("telegram", "u0"), BuyIn(a, 5000)], {"v": 2}, key="t:2"
        )
    assert await store.last_table("telegram", "u0") == other.id
    assert await store.commit(s.table.id, [Joined("telegram", "u0")], {"v": 2}, key="t:2") == [
        other.id
    ]
    assert await store.commit(other.id, [Joined("telegram", "u0")], {"v": 1}, key="o:1") == [
        s.table.id
    ]  # repeated: nothing changed
    assert await store.last_table("telegram", "u0") == s.table.id
    await store.close_table(other.id)
    with pytest.raises(StorageError):
        await store.commit(other.id, [Joined("telegram", "u0")], None, key="o:2")
    assert await store.last_table("telegram", "u0") == s.table.id
    assert await store.ledger(s.community.id) == [] or all(
        e.kind is LedgerKind.STARTING for e in await store.ledger(s.community.id)
    )
    await assert_consistent(store)


async def test_move_chat_follows_a_group_upgraded_to_a_supergroup(
    store: SqliteStore | MemoryStore,
) -> None:
    """Issue 15, case 6: wallets, settings, history and the table follow the new chat id; a
    community made under the new id meanwhile is kept under another name."""
    s = await seated(store, 2, chat="-100")
    a, _ = s.ids
    await store.commit(s.table.id, [BuyIn(a, 200)], {"v": 1}, key="t:1")
    fresh = await store.community("telegram", "-1009")  # someone wrote in the new chat first
    await store.player(fresh.id, "u0", "Player0")
    assert await store.move_chat("telegram", "-100", "-1009") is True
    assert await store.move_chat("telegram", "-100", "-1009") is False  # moved already
    moved = await store.community("telegram", "-1009")
    assert moved.id == s.community.id
    player = await store.find_player(moved.id, "u0")
    assert player is not None and player.id == a and player.balance == 800
    table = await store.open_table(moved.id, "-1009")
    assert table is not None and table.id == s.table.id
    assert await store.open_table(moved.id, "-100") is None
    kept = await store.community("telegram", f"-1009~{fresh.id}")
    assert kept.id == fresh.id
    await assert_consistent(store)


async def test_move_chat_leaves_a_community_opened_under_the_old_id_after_the_move(
    store: SqliteStore | MemoryStore,
) -> None:
    """A command typed in the group before its upgrade, read after the move under the old id,
    opened a community there (a fresh wallet); its answer, refused with the new id, moved it
    again: the empty community took the new id, the group's wallets and settings renamed
    away. Made after the new id's community, it is no group of before the move: nothing
    moves."""
    s = await seated(store, 2, chat="-100")
    a, _ = s.ids
    await store.commit(s.table.id, [BuyIn(a, 200)], {"v": 1}, key="t:1")
    assert await store.move_chat("telegram", "-100", "-1009") is True
    stale = await store.community("telegram", "-100")  # a command of the old chat, late
    await store.player(stale.id, "u0", "Player0")
    assert stale.id > s.community.id
    assert await store.move_chat("telegram", "-100", "-1009") is False
    moved = await store.community("telegram", "-1009")
    assert moved.id == s.community.id
    player = await store.find_player(moved.id, "u0")
    assert player is not None and player.id == a and player.balance == 800
    table = await store.open_table(moved.id, "-1009")
    assert table is not None and table.id == s.table.id
    assert (await store.community("telegram", "-100")).id == stale.id
    await assert_consistent(store)


async def test_save_owed_replaces_a_closed_table_s_final_snapshot_only(
    store: SqliteStore | MemoryStore,
) -> None:
    """What a closed table still owes its chat can be replaced as part of it is sent (the
    bot's removal: its players told, the table message waiting for the bot's return,
    R8.2a); an open table, an unknown one, or data that is not JSON is refused, nothing
    written."""
    s = await seated(store, 1)
    (a,) = s.ids
    waiting = {"v": 3, "chat_gone": True, "outbox": [{"id": 4, "kind": "table", "text": "x"}]}
    with pytest.raises(StorageError):  # open: its live state is save_snapshot's
        await store.save_owed(s.table.id, waiting)
    with pytest.raises(StorageError):
        await store.save_owed(999, waiting)
    assert await store.closed_snapshots() == []
    await store.commit(s.table.id, [CashOut(a)], {"v": 2}, key="t:1", close=True)
    await store.save_owed(s.table.id, waiting)
    assert [(t.id, d) for t, d in await store.closed_snapshots()] == [(s.table.id, waiting)]
    with pytest.raises(StorageError):
        await store.save_owed(s.table.id, {"v": float("nan")})
    assert [(t.id, d) for t, d in await store.closed_snapshots()] == [(s.table.id, waiting)]
    await store.delete_snapshot(s.table.id)
    assert await store.closed_snapshots() == []
    await assert_consistent(store)
