"""Review rev46: a step's table message skipped for a later step's (brkh43,
:meth:`bot.service.runtime.Runtime.send`) is written when no later one is queued, also
after a step that rolled back (a rollback restores the table's saved fields; the count of
queued table messages is not one of them)."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.conftest import service_env
from tests.bot.test_service_classic import ALICE, BOB, GROUP, start


async def test_a_rolled_back_step_leaves_the_queued_table_message_written() -> None:
    """The group's sender is held (a platform's 429); a step that re-renders the table
    message commits and queues it; then another step raises and rolls back. Once the sender
    goes on, the committed step's table message is written (on the old code the rollback
    reset the count to 0, so the queued message counted as overtaken: no write at all, the
    group message stale until the table's next step)."""
    service, p, _store, _clock = service_env()
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    rt = service.rt
    await rt.settled(t)
    gate = asyncio.Event()
    rt.send_later(t, gate.wait)  # (the group's sender held)
    async with t.lock, rt.transition(t) as tx:
        tx.group = True
    screen = tx._group_screen
    assert screen is not None
    writes = p.writes
    async with t.lock:
        with pytest.raises(RuntimeError):
            async with rt.transition(t) as failed:
                failed.group = True
                raise RuntimeError("refused")
    gate.set()
    await rt.settled(t)
    assert p.writes == writes + 1
    assert p.tables[t.group_chat][-1] is screen


async def test_of_two_queued_table_messages_the_later_one_is_written_after_a_rollback() -> None:
    """As above with two committed steps queued behind the held sender, then a rollback:
    the group gets exactly one table write, the later step's screen (the old code wrote
    neither)."""
    service, p, _store, _clock = service_env()
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    rt = service.rt
    await rt.settled(t)
    gate = asyncio.Event()
    rt.send_later(t, gate.wait)
    screens = []
    for _ in range(2):
        async with t.lock, rt.transition(t) as tx:
            tx.group = True
        screens.append(tx._group_screen)
    writes = p.writes
    async with t.lock:
        with pytest.raises(RuntimeError):
            async with rt.transition(t):
                raise RuntimeError("refused")
    gate.set()
    await rt.settled(t)
    assert p.writes == writes + 1
    assert p.tables[t.group_chat][-1] is screens[1]
