"""Break-it on storage trust (brkpg): a background snapshot of an earlier step never replaces
the one a later step committed, whichever connection wrote that one (R8.5: a restart
continues from the last committed transition). SQLite kept it out only by its memory of the
snapshots this store object wrote: a commit whose caller was cancelled once its write had
started (the write goes on, the memory is not updated) or another connection to the file
(another process) was overwritten by the older snapshot, and a restart then resumed a step
behind its ledger (a Ready's buy-in booked, the seat not ready)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.api import BuyIn
from storage.sqlite import SqliteStore
from tests.storage.helpers import AnyStore, another_connection, seated


async def test_r8_5_an_older_snapshot_from_another_connection_keeps_the_newer(
    store: AnyStore,
) -> None:
    s = await seated(store)
    async with another_connection(store) as other:
        await store.commit(s.table.id, [BuyIn(s.ids[0], 200)], {"seq": 5}, key="t:s5")
        await other.save_snapshot(s.table.id, {"seq": 4, "note": "older"})
        state = await other.table_state(s.table.id)
        assert state is not None and dict(state[1]) == {"seq": 5}
        await other.save_snapshot(s.table.id, {"seq": 6, "note": "newer"})
        state = await store.table_state(s.table.id)
        assert state is not None and dict(state[1]) == {"seq": 6, "note": "newer"}


async def test_r8_5_sqlite_a_commit_whose_caller_was_cancelled_keeps_its_snapshot(
    tmp_path: Path,
) -> None:
    """The commit's caller is cancelled once its batch runs: the write completes (as the
    store promises), and the older snapshot saved after it does not replace its one."""
    store = await SqliteStore.open(tmp_path / "ofc.db")
    try:
        s = await seated(store)
        await store.save_snapshot(s.table.id, {"seq": 4})
        started = asyncio.Event()
        execute = store._execute

        async def slow(fn, *args):  # type: ignore[no-untyped-def]
            started.set()
            await asyncio.sleep(0.05)  # (the thread runs the batch; the caller goes)
            return await execute(fn, *args)

        store._execute = slow  # type: ignore[method-assign]
        commit = asyncio.ensure_future(
            store.commit(s.table.id, [BuyIn(s.ids[0], 200)], {"seq": 5}, key="t:s5")
        )
        await started.wait()
        commit.cancel()
        with pytest.raises(asyncio.CancelledError):
            await commit
        store._execute = execute  # type: ignore[method-assign]
        await store.save_snapshot(s.table.id, {"seq": 4, "note": "rolled back"})
        state = await store.table_state(s.table.id)
        assert state is not None and dict(state[1]) == {"seq": 5}
        assert dict(await store.stacks(s.table.id)) == {s.ids[0]: 200}
    finally:
        await store.close()
