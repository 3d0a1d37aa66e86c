"""Idempotency (issue 3): the same request key applied twice moves kush once and returns the
first call's result — a retried update or a double click is applied once."""

from __future__ import annotations

from pathlib import Path

from storage.api import LedgerKind
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.storage.helpers import assert_consistent, balance, seated

AnyStore = SqliteStore | MemoryStore


async def test_buy_in_twice_with_one_key_moves_kush_once(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    first = await store.buy_in(s.table.id, a, 300, key="ready:1:a")
    again = await store.buy_in(s.table.id, a, 300, key="ready:1:a")
    assert first == again == 300
    assert await balance(store, a) == 700
    assert await store.stacks(s.table.id) == {a: 300}
    rows = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.BUY_IN]
    assert len(rows) == 1
    await assert_consistent(store)


async def test_repeated_buy_in_returns_the_first_result_even_after_more_changes(
    store: AnyStore,
) -> None:
    s = await seated(store)
    a = s.ids[0]
    assert await store.buy_in(s.table.id, a, 100, key="k1") == 100
    assert await store.buy_in(s.table.id, a, 100, key="k2") == 200
    assert await store.buy_in(s.table.id, a, 100, key="k1") == 100  # the first call's answer
    assert await store.stacks(s.table.id) == {a: 200}


async def test_cash_out_twice_with_one_key_moves_kush_once(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    await store.buy_in(s.table.id, a, 300, key="b1")
    assert await store.cash_out(s.table.id, a, key="leave:1") == 300
    await store.buy_in(s.table.id, a, 50, key="b2")  # seated again in between
    assert await store.cash_out(s.table.id, a, key="leave:1") == 300  # replay: nothing moves
    assert await store.stacks(s.table.id) == {a: 50}
    assert await balance(store, a) == 950
    await assert_consistent(store)


async def test_grant_twice_with_one_key_moves_kush_once(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    assert await store.grant(s.community.id, a, 500, actor="x", reason="y", key="g") == 1500
    assert await store.grant(s.community.id, a, 500, actor="x", reason="y", key="g") == 1500
    assert await balance(store, a) == 1500
    grants = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.ADMIN_GRANT]
    assert len(grants) == 1


async def test_settle_hand_twice_with_one_key_moves_kush_once(store: AnyStore) -> None:
    s = await seated(store)
    a, b, c = s.ids
    for p in s.ids:
        await store.buy_in(s.table.id, p, 200, key=f"b{p}")
    args = (s.table.id, 1, {"h": 1}, {"r": 1}, {0: a, 1: b, 2: c}, {a: 20, b: -10, c: -10})
    first = await store.settle_hand(*args, key="settle:1:1")
    again = await store.settle_hand(*args, key="settle:1:1")
    assert again == first
    assert await store.stacks(s.table.id) == {a: 220, b: 190, c: 190}
    assert len(await store.export_hands(s.table.id)) == 1
    rows = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.HAND_RESULT]
    assert len(rows) == 3
    await assert_consistent(store)


async def test_claim_daily_twice_on_one_day_pays_once(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    assert await store.claim_daily(s.community.id, a, 100, "2025-01-01") == 1100
    assert await store.claim_daily(s.community.id, a, 100, "2025-01-01") is None
    assert await balance(store, a) == 1100
    bonuses = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.DAILY_BONUS]
    assert len(bonuses) == 1


async def test_keys_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    s = await seated(store)
    a, b, _ = s.ids
    await store.buy_in(s.table.id, a, 300, key="b-a")
    await store.buy_in(s.table.id, b, 300, key="b-b")
    rec = await store.settle_hand(s.table.id, 1, {}, {}, {0: a, 1: b}, {a: 5, b: -5}, key="h1")
    await store.close()

    store = await SqliteStore.open(path)
    try:
        assert await store.buy_in(s.table.id, a, 300, key="b-a") == 300
        again = await store.settle_hand(
            s.table.id, 1, {}, {}, {0: a, 1: b}, {a: 5, b: -5}, key="h1"
        )
        assert again == rec
        assert await store.claim_daily(s.community.id, a, 10, "2025-01-01") == 710
        assert await store.stacks(s.table.id) == {a: 305, b: 295}
        assert await balance(store, a) == 710
        await assert_consistent(store)
    finally:
        await store.close()
