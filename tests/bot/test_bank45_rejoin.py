"""R8.5, R8.6, R6.6: a player who leaves a table and rejoins it gets back the bank they left
with (no refill at the same table), but never more than the table's ``time_bank_seconds``
a newcomer gets now: an admin who lowered it was told it applies to "players who sit down
from now on" (``settings.bank_new_seats``), and a rejoiner sits down now, the change still
waiting for the match's end (R6.6) or not. A raised setting refills nothing."""

from __future__ import annotations

import pytest

from bot.model import LiveTable
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock, run_until_dealt
from tests.bot.test_bank_tables import _bank_at, _half_a_bank_gone
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP


async def _a_hand_without(service: TableService, clock: Clock, t: LiveTable) -> None:
    """Bob (sat out by the timeouts of the hand Alice left, R8.6) comes back and Carol sits
    down; both Ready: a hand without Alice is under way at ``t``."""
    bob = t.seat_of(BOB.user_id)
    assert bob is not None
    if bob.sitting_out:
        assert not (await service.back(GROUP, BOB)).alert
    assert not (await service.join(GROUP, CAROL)).alert
    for a in (BOB, CAROL):
        seat = t.seat_of(a.user_id)
        assert seat is not None
        if not seat.ready:
            assert not (await service.ready(GROUP, a)).alert
    await run_until_dealt(service, clock, t)
    assert t.hand is not None and t.seat_of(ALICE.user_id) is None


@pytest.mark.parametrize("mid_hand", [False, True], ids=["between-hands", "waits-for-match-end"])
async def test_r8_6_a_rejoiner_gets_at_most_the_lowered_time_bank(env, mid_hand: bool) -> None:  # type: ignore[no-untyped-def]
    """Alice leaves with 30 s of her bank (of 60). An admin (Bob, seated) lowers
    ``time_bank_seconds`` to 10, told it is for who sits down from now on; with ``mid_hand``
    a hand of Bob and Carol is under way, so the change waits for the match's end (the
    table still plays 60). Alice joins again: her bank is 10 s, not the 30 s she left with;
    Bob keeps the bank he has (R8.6)."""
    service, _presenter, store, clock = env
    t, actor = await _half_a_bank_gone(service, clock, GROUP, ALICE, BOB)
    assert actor == ALICE  # (the seeded deal: Alice acts first, sleeps and leaves)
    if mid_hand:
        await _a_hand_without(service, clock, t)
    kept = _bank_at(service, GROUP, BOB)
    reply = await service.settings(GROUP, BOB, True, ["time_bank_seconds", "10"])
    assert not reply.alert and tr("ru", "settings.bank_new_seats") in reply.text, reply.text
    if mid_hand:
        assert t.options.time_bank_seconds == 60
        assert t.pending_options is not None and t.pending_options.time_bank_seconds == 10
    else:
        assert t.options.time_bank_seconds == 10 and t.pending_options is None
    assert not (await service.join(GROUP, ALICE)).alert
    assert _bank_at(service, GROUP, ALICE) == 10.0
    assert _bank_at(service, GROUP, BOB) == kept  # (the seated keep theirs, R8.6)
    assert await check_store(store) == []


async def test_r8_6_a_raised_time_bank_refills_nothing_for_a_rejoiner(env) -> None:  # type: ignore[no-untyped-def]
    """Alice leaves with 30 s of her bank; an admin raises ``time_bank_seconds`` to 90; back
    at the same table her bank is still 30 s (R8.5: no refill at the same table)."""
    service, _presenter, store, clock = env
    t, actor = await _half_a_bank_gone(service, clock, GROUP, ALICE, BOB)
    assert actor == ALICE
    assert not (await service.settings(GROUP, BOB, True, ["time_bank_seconds", "90"])).alert
    assert t.options.time_bank_seconds == 90
    assert not (await service.join(GROUP, ALICE)).alert
    assert _bank_at(service, GROUP, ALICE) == 30.0
    assert await check_store(store) == []
