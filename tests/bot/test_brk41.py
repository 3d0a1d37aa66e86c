"""brk41: a closing step given the number of a step storage holds is refused as any step
is (fixkey compared live snapshots only): the table is not closed from a state storage
never had."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.test_brkpg_storage import money
from tests.bot.test_fixkey import LateStore
from tests.bot.test_fixrb import lobby_of_two, renewed
from tests.bot.test_service import ALICE, GROUP


async def test_a_close_of_the_number_a_late_commit_took_is_not_answered_done() -> None:
    """Alice's Ready (step N+1, her 200 kush bought in) fails, is read back not saved and
    rolled back; its COMMIT applies all the same. The admin's /close is step N+1 again: the
    store closed the table from the state served here (Alice not bought in), the group read
    that nothing came back to her though 200 did. Now the close is refused ("the table
    changed meanwhile"), the table is served as storage has it, and the next /close returns
    Alice's 200 and says so."""
    store, clock = LateStore(), Clock()
    a, _, t = await lobby_of_two(store, clock)
    store.late = True
    reply = await a.ready(GROUP, ALICE)
    assert reply.alert and reply.text == tr("en", "err.storage"), reply.text
    await a.rt.settled(t)
    await store.apply_late()
    reply = await a.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "err.changed_elsewhere"), reply.text
    assert await store.table_state(t.id) is not None  # (still open, Alice's stack there)
    t2 = await renewed(a, t)
    alice = t2.seat_of(ALICE.user_id)
    assert alice is not None and alice.stack == 200
    assert await money(store, t) == ({"1": 800, "2": 1000}, {1: 200})
    reply = await a.close_table(GROUP, ALICE, True)
    assert not reply.alert and "Alice 200" in reply.text, reply.text
    await a.rt.drain()
    assert await store.table_state(t.id) is None
    assert (await money(store, t))[0] == {"1": 1000, "2": 1000}
    assert await check_store(store) == []
