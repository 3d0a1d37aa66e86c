"""fixkey: a table step's commit key carries the step's token (``t<table>:s<seq>:<token>``,
:meth:`bot.service.runtime.Runtime.commit`), and a store refuses a commit whose live
snapshot's ``"seq"`` is not higher than the stored one's (:class:`~storage.api.StaleStep`,
compare-and-set): another step of the same number (another worker's after a takeover, or
an earlier commit that applied after its read-back said "not saved") is never answered
"done" with the first step's results. Runs against every store kind."""

from __future__ import annotations

import pytest

from storage.api import BuyIn, Settlement, StaleStep, StorageError
from tests.storage.helpers import AnyStore, assert_consistent, balance, seated


async def _money(store: AnyStore, table_id: int, community_id: int) -> tuple[object, ...]:
    """Everything a commit may change: stacks, the ledger's rows, the stored snapshot."""
    state = await store.table_state(table_id)
    assert state is not None
    ledger = [
        (e.player_id, e.balance_delta, e.stack_delta, e.key)
        for e in await store.ledger(community_id)
    ]
    return (
        dict(await store.stacks(table_id)),
        ledger,
        dict(state[1]),
        await store.export_hands(table_id),
    )


async def test_a_second_step_of_the_same_number_is_refused_and_changes_nothing(
    store: AnyStore,
) -> None:
    """Step 2 (Alice's buy-in) is stored; another step 2 (Bob's buy-in and a settlement,
    another token) is refused, StaleStep, and so is an older step 1: balances, stacks,
    ledger, history and snapshot as step 2 left them. Step 2's own key repeated still
    returns its first results, changing nothing; step 3 goes through."""
    s = await seated(store, 2)
    a, b = s.ids
    await store.commit(s.table.id, [], {"seq": 1, "step_token": "t1"}, key="t1:s1:t1")
    first = {"seq": 2, "step_token": "aa"}
    assert await store.commit(s.table.id, [BuyIn(a, 200)], first, key="t1:s2:aa") == [200]
    before = await _money(store, s.table.id, s.community.id)
    settle = Settlement(1, {"n": 1}, {"r": 1}, {0: a, 1: b}, {a: 0, b: 0})
    other = {"seq": 2, "step_token": "bb"}
    with pytest.raises(StaleStep):
        await store.commit(s.table.id, [BuyIn(b, 300), settle], other, key="t1:s2:bb")
    with pytest.raises(StorageError):  # (StaleStep is a StorageError: a failed commit)
        await store.commit(s.table.id, [BuyIn(b, 300)], {"seq": 1}, key="t1:s1:cc")
    assert await _money(store, s.table.id, s.community.id) == before
    assert (await balance(store, a), await balance(store, b)) == (800, 1000)
    # the same step repeated (a retry after a lost answer): done, its first results
    assert await store.commit(s.table.id, [BuyIn(a, 200)], first, key="t1:s2:aa") == [200]
    assert await _money(store, s.table.id, s.community.id) == before
    # a background snapshot keeps its rule (an older one is dropped, one of the step kept)
    await store.save_snapshot(s.table.id, {"seq": 1, "note": "older"})
    await store.save_snapshot(s.table.id, {"seq": 2, "step_token": "aa", "note": "refs"})
    state = await store.table_state(s.table.id)
    assert state is not None and dict(state[1])["note"] == "refs"
    nxt = {"seq": 3, "step_token": "dd"}
    assert await store.commit(s.table.id, [BuyIn(b, 300)], nxt, key="t1:s3:dd") == [300]
    assert dict(await store.stacks(s.table.id)) == {a: 200, b: 300}
    state = await store.table_state(s.table.id)
    assert state is not None and dict(state[1]) == nxt
    await assert_consistent(store)
