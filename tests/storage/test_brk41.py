"""brk41: a table's closing step is compared with the stored step too
(:func:`storage._common.commit_seq`): fixkey compared only live snapshots, so a closing step
given the number of another step storage holds (an earlier commit that applied after its
read-back said "not saved", another worker's step) closed the table from a state storage
never had. A notice-only final snapshot (no step token: :func:`bot.service.recovery.
cancel_unrecoverable`'s refund) is still not compared. Runs against every store kind."""

from __future__ import annotations

import pytest

from storage.api import BuyIn, CashOut, StaleStep
from tests.storage.helpers import AnyStore, assert_consistent, balance, seated


async def test_a_closing_step_of_a_stored_number_is_refused(store: AnyStore) -> None:
    """Step 2 (Alice's buy-in, token ``aa``) is stored; a closing step 2 of another token
    (cashing both out, its final snapshot owing the chat its notice) is refused, StaleStep:
    the table stays open with Alice's 200 at it. A closing step 3 closes it; a refund's
    final snapshot (no token, seq 0) closes a table whatever step it holds."""
    s = await seated(store, 2)
    a, b = s.ids
    step = {"seq": 2, "step_token": "aa"}
    assert await store.commit(s.table.id, [BuyIn(a, 200)], step, key="t1:s2:aa") == [200]
    final = {"seq": 2, "step_token": "bb", "outbox": ["closed"]}
    with pytest.raises(StaleStep):
        await store.commit(s.table.id, [CashOut(a), CashOut(b)], final, key="t1:s2:bb", close=True)
    state = await store.table_state(s.table.id)
    assert state is not None and dict(state[1]) == step
    assert dict(await store.stacks(s.table.id)) == {a: 200}
    assert await balance(store, a) == 800
    final = {"seq": 3, "step_token": "cc", "outbox": ["closed"]}
    results = await store.commit(s.table.id, [CashOut(a)], final, key="t1:s3:cc", close=True)
    assert results == [200] and await store.table_state(s.table.id) is None
    assert await balance(store, a) == 1000
    # a refund of a table that cannot be rebuilt: its notice-only final snapshot
    other = await store.create_table(s.community.id, "chat-2", {"game": "pineapple"}, 200)
    await store.commit(other.id, [BuyIn(b, 100)], {"seq": 5, "step_token": "dd"}, key="k5")
    refund = {"seq": 0, "step_token": None, "outbox": ["cancelled"]}
    assert await store.commit(other.id, [CashOut(b)], refund, key="refund", close=True) == [100]
    assert await store.table_state(other.id) is None and await balance(store, b) == 1000
    await assert_consistent(store)
