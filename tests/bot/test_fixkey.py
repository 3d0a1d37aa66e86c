"""fixkey: a table step's commit key carries its token (``t<table>:s<seq>:<token>``) and the
store refuses a step not newer than the stored one (:class:`~storage.api.StaleStep`), so a
step given the number of another step storage holds is never answered "done" with that
one's results (the service going on from a state storage never had)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.texts import tr
from storage.api import Move, StorageError
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_brkpg_storage import money
from tests.bot.test_fixrb import OtherStepStore, lobby_of_two, renewed
from tests.bot.test_service import ALICE, BOB, GROUP


class LateStore(OtherStepStore):
    """Its next commit, once ``late`` is set, fails without applying, as a connection lost
    before the COMMIT reached the database would; :meth:`apply_late` applies it later (the
    COMMIT arrived after all, after the caller's read-back found it not saved)."""

    late = False
    kept: tuple[int, Sequence[Move], Mapping[str, Any] | None, str, bool] | None = None

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if self.late:
            self.late = False
            self.kept = (table_id, moves, snapshot, key, close)
            raise StorageError("connection was closed in the middle of operation")
        return await super().commit(table_id, moves, snapshot, key=key, close=close)

    async def apply_late(self) -> None:
        assert self.kept is not None
        table_id, moves, snapshot, key, close = self.kept
        await MemoryStore.commit(self, table_id, moves, snapshot, key=key, close=close)


async def test_a_step_of_the_number_a_late_commit_took_is_not_answered_done() -> None:
    """Alice's Ready (step N+1, her buy-in) fails and is read back not saved (storage at
    N): rolled back, "nothing changed". Its COMMIT then applies all the same. Bob's Ready
    is step N+1 again: the store took its key (``t<table>:s<N+1>``) for Alice's step,
    returned her results and Bob's Ready was answered done: his buy-in never booked, the
    table served here with Bob ready and Alice not, storage the other way round. Now the
    store refuses it, Bob is told the table changed meanwhile and the table is served as
    storage has it (Alice ready, her 200 kush at the table); Bob's Ready then deals."""
    store, clock = LateStore(), Clock()
    a, _, t = await lobby_of_two(store, clock)
    seq = t.seq
    store.late = True
    reply = await a.ready(GROUP, ALICE)
    assert reply.alert and reply.text == tr("en", "err.storage"), reply.text
    assert t.seq == seq and t.id not in a.rt.unsure  # (read back: not saved)
    await a.rt.settled(t)
    await store.apply_late()
    reply = await a.ready(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "err.changed_elsewhere"), reply.text
    t2 = await renewed(a, t)
    alice, bob = t2.seat_of(ALICE.user_id), t2.seat_of(BOB.user_id)
    assert alice is not None and alice.ready and alice.stack == 200
    assert bob is not None and not bob.ready and bob.stack == 0
    assert await money(store, t) == ({"1": 800, "2": 1000}, {1: 200})
    assert not (await a.ready(GROUP, BOB)).alert
    await a.rt.settled(t2)
    assert t2.hand is not None
    assert await money(store, t) == ({"1": 800, "2": 800}, {1: 200, 2: 200})
    assert await check_store(store) == []
