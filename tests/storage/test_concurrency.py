"""Concurrency (issue 3): concurrent debits against one balance never overdraw it — within one
store (coroutines of one bot) and across two connections to one file (BEGIN IMMEDIATE)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from storage.api import CommunitySettings, InsufficientFunds, LedgerKind, StorageError
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.storage.helpers import assert_consistent, balance, seated

AnyStore = SqliteStore | MemoryStore


async def _outcomes(calls: Sequence[Awaitable[int]]) -> tuple[list[int], int]:
    """Run ``calls`` concurrently: (the results of the successful ones, how many were refused
    with InsufficientFunds); any other exception fails the test."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    ok = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, InsufficientFunds)]
    others = [r for r in results if not isinstance(r, int | InsufficientFunds)]
    assert others == []
    return ok, len(refused)


async def test_fifty_concurrent_buy_ins_never_overdraw_one_balance(store: AnyStore) -> None:
    """R8.2: 1,000 kush afford 14 buy-ins of 70; exactly 14 of 50 concurrent ones succeed."""
    s = await seated(store)
    a = s.ids[0]
    calls = [store.buy_in(s.table.id, a, 70, key=f"buy-{i}") for i in range(50)]
    ok, refused = await _outcomes(calls)
    assert (len(ok), refused) == (14, 36)
    assert sorted(ok) == [70 * k for k in range(1, 15)]  # each saw the previous ones
    assert await balance(store, a) == 1000 - 14 * 70
    assert await store.stacks(s.table.id) == {a: 14 * 70}
    buys = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.BUY_IN]
    assert len(buys) == 14
    await assert_consistent(store)


async def test_concurrent_grants_and_buy_ins_never_overdraw(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    calls: list[Awaitable[int]] = []
    for i in range(25):
        calls.append(store.buy_in(s.table.id, a, 50, key=f"buy-{i}"))
        calls.append(store.grant(s.community.id, a, -50, actor="admin", reason="", key=f"g-{i}"))
    ok, refused = await _outcomes(calls)
    assert (len(ok), refused) == (20, 30)
    assert await balance(store, a) == 0
    await assert_consistent(store)


@pytest.mark.parametrize("amount", [70, 1000, 1001])
async def test_two_connections_to_one_file_never_overdraw(tmp_path: Path, amount: int) -> None:
    """Two stores (two connections, two threads) on one file: BEGIN IMMEDIATE serialises the
    read-check-write of every debit, so the file never holds a negative balance."""
    path = tmp_path / "ofc.db"
    first = await SqliteStore.open(path)
    second = await SqliteStore.open(path)
    try:
        s = await seated(first)
        a = s.ids[0]
        calls = [
            (first if i % 2 else second).buy_in(s.table.id, a, amount, key=f"buy-{i}")
            for i in range(50)
        ]
        ok, refused = await _outcomes(calls)
        affordable = 1000 // amount
        assert (len(ok), refused) == (affordable, 50 - affordable)
        assert await balance(second, a) == 1000 - affordable * amount
        assert dict(await second.stacks(s.table.id)) == (
            {a: affordable * amount} if affordable else {}
        )
        await assert_consistent(first)
    finally:
        await first.close()
        await second.close()


async def test_a_cancelled_caller_does_not_break_the_write_queue(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "ofc.db")
    try:
        s = await seated(store)
        a = s.ids[0]
        tasks = [
            asyncio.ensure_future(store.buy_in(s.table.id, a, 10, key=f"b{i}")) for i in range(20)
        ]
        tasks[5].cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        moved = 1000 - await balance(store, a)
        stack = (await store.stacks(s.table.id))[a]
        assert moved == stack  # whatever ran, it ran whole
        assert sum(isinstance(r, int) for r in results) in (19, 20)
        assert await store.buy_in(s.table.id, a, 10, key="after") == stack + 10
        await assert_consistent(store)
    finally:
        await store.close()


async def test_a_write_failing_after_changing_rows_is_undone_alone_in_a_batch(
    store: AnyStore,
) -> None:
    """A settlement whose ledger key collides fails at its third insert, after the history
    row went in; batched with other writes, it is undone alone and the others commit."""
    s = await seated(store)
    a, b, c = s.ids
    for p in s.ids:
        await store.buy_in(s.table.id, p, 300, key=f"b{p}")
    await store.grant(s.community.id, c, 5, actor="x", reason="", key=f"clash/{a}")
    results = await asyncio.gather(
        store.buy_in(s.table.id, c, 100, key="before"),
        store.settle_hand(  # its ledger row for a would get the key "clash/<a>"
            s.table.id, 1, {}, {}, {0: a, 1: b}, {a: 10, b: -10}, key="clash"
        ),
        store.buy_in(s.table.id, c, 100, key="after"),
        return_exceptions=True,
    )
    assert results[0] == 400 and results[2] == 500
    assert isinstance(results[1], StorageError)
    assert await store.stacks(s.table.id) == {a: 300, b: 300, c: 500}
    assert await store.export_hands(s.table.id) == []
    assert await store.hand_history(a) == []
    await assert_consistent(store)


async def test_a_settings_change_holds_the_file_until_it_is_written(tmp_path: Path) -> None:
    """Two connections to one file (two workers): while the first connection's settings
    change runs (stopped inside it, on its thread, after it read the settings), the
    second's waits for it instead of reading the same settings, and then changes what the
    first wrote: both changes stay (:meth:`SqliteStore.change_settings`)."""
    path = tmp_path / "ofc.db"
    first = await SqliteStore.open(path)
    second = await SqliteStore.open(path)
    try:
        c = await first.community("telegram", "-100")
        inside, go = threading.Event(), threading.Event()

        def slow(s: CommunitySettings) -> CommunitySettings:
            inside.set()
            assert go.wait(5)
            return replace(s, min_buy_in=300, requests=(*s.requests, "a"))

        def quick(s: CommunitySettings) -> CommunitySettings:
            return replace(s, daily_bonus=25, requests=(*s.requests, "b"))

        held = asyncio.ensure_future(first.change_settings(c.id, slow))
        assert await asyncio.to_thread(inside.wait, 5)
        waiting = asyncio.ensure_future(second.change_settings(c.id, quick))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        go.set()
        await held
        after = (await waiting).settings
        assert (after.min_buy_in, after.daily_bonus, after.requests) == (300, 25, ("a", "b"))
    finally:
        go.set()
        await first.close()
        await second.close()
