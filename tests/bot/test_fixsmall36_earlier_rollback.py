"""fixsmall36: the table message from before a restart (``earlier_ref``), forgotten by the
sender (written as moved, :meth:`Runtime.retire_earlier`) while a step of the table was under
way, came back when that step was rolled back; a background snapshot taken during the step
kept it too. The sender's forgetting stays, as its message refs do."""

from __future__ import annotations

from tests.bot.test_service import ALICE, BOB, GROUP, dealt_at
from tests.bot.test_tournament_service import new_service


async def test_a_rollback_keeps_the_earlier_message_forgotten_by_the_sender() -> None:
    service, _presenter, _store, _clock = new_service(next_hand_delay=0)
    t = await dealt_at(service, GROUP, (ALICE, BOB))
    rt = service.rt
    t.earlier_ref = "old-message"
    tx = rt.begin(t)
    rt._stepping[t.id] = tx  # (a step under way: the sender runs without the table's lock)
    try:
        rt._forget_earlier(t)  # (what retire_earlier's job does once written as moved)
        assert rt._pending[t.id]["earlier_ref"] is None  # the snapshot it saves
        t.version += 1  # (the step's own change)
        rt.rollback(tx)
    finally:
        del rt._stepping[t.id]
    assert t.earlier_ref is None
    assert t.version == tx.before["version"]  # (rolled back all the same)


async def test_a_rollback_keeps_it_forgotten_for_a_step_begun_inside_another() -> None:
    service, _presenter, _store, _clock = new_service(next_hand_delay=0)
    t = await dealt_at(service, GROUP, (ALICE, BOB))
    rt = service.rt
    t.earlier_ref = "old-message"
    tx = rt.begin(t)  # (not the step the runtime knows under way: its before not told)
    t.earlier_ref = None  # the sender forgot it meanwhile
    rt.rollback(tx)
    assert t.earlier_ref is None
    t.earlier_ref = None
    tx = rt.begin(t)
    t.earlier_ref = "set-by-the-step"  # (a step's own setting is rolled back)
    rt.rollback(tx)
    assert t.earlier_ref is None
