"""brk40: the fixrb/fixbounds/fixnu39 changes broken on purpose, each break a test."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_fixrb import OtherStepStore, lobby_of_two
from tests.bot.test_fixstop_unsure import service_on
from tests.bot.test_service import ALICE, BOB, GROUP


async def test_an_unsure_step_of_a_table_let_go_is_not_read_back_once_it_is_adopted_again() -> None:
    """Worker A's commit of Bob's Ready (the deal) applied, its answer lost, storage not
    read back (unsure); A then loses the chat's lease and lets the table go (issue 14).
    Worker B takes it over (its resume: a step after A's), then hands it back, and A adopts
    it again: its resume read A's old unsure step back first and found B's step stored
    after it, "changed meanwhile": the resume refused, the table let go once more and
    restored anew in the background. The unsure step is forgotten with the table let go:
    the adopt's resume is the table's step."""
    store, clock = OtherStepStore(), Clock()
    a, _, t = await lobby_of_two(store, clock)
    assert not (await a.ready(GROUP, ALICE)).alert
    await a.rt.settled(t)
    seq = t.seq
    store.lose, store.blind = 1, 1
    reply = await a.ready(GROUP, BOB)  # (the deal, applied; not known here)
    assert reply.alert and reply.text == tr("ru", "err.storage")
    assert a.rt.unsure == {t.id: (seq + 1, False)}
    await a.release(t.id)  # (the lease lost)
    assert a.table_in(GROUP) is None
    b = service_on(store, clock, FakePresenter())
    assert await b.adopt(t.id)
    tb = b.table_in(GROUP)
    assert tb is not None and tb.seq == seq + 2
    await b.rt.settled(tb)
    await b.release(t.id)
    assert await a.adopt(t.id)
    t2 = a.table_in(GROUP)  # (it was let go again at once, restored anew in the background)
    assert t2 is not None and t2 is not t and t2.seq == seq + 3 and not a.rt.renewing
    assert not a.rt.unsure
    await a.rt.settled(t2)
    assert t2.hand is not None  # (the deal of A's unsure step, stored)
    assert await check_store(store) == []
