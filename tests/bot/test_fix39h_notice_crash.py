"""fix39h: what a crash does to a private notice of a table step (a kick's, outbox kind
``private``, :meth:`~bot.model.LiveTable.owe_notice`), as docs/reliability.md says: it is
kept with the snapshot until sent and marked sent by the background save after the step's
messages (``save_soon``). Saved: a crash after that sends it no more. Killed between the
platform taking it and that save: the restart sends it again (at least once, never lost; on
Telegram, with no key a send carries, a second message; on Discord the same nonce)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_fix38f_kick_notice import _seated
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_transitions import new_service, restart


class NoSaves(MemoryStore):
    """A store whose background snapshot saves can be dropped (the process killed before
    they were written)."""

    def __init__(self) -> None:
        super().__init__()
        self.drop = False

    async def save_snapshot(self, table_id: int, data: Mapping[str, Any]) -> None:
        if not self.drop:
            await super().save_snapshot(table_id, data)


@pytest.mark.parametrize("saved", [True, False], ids=["saved", "killed-before-the-save"])
async def test_a_kick_notice_sent_then_a_crash(saved: bool) -> None:
    store, clock = NoSaves(), Clock()
    service, presenter = new_service(store, clock)
    t = await _seated(service, GROUP, ALICE, BOB, "between_hands")
    said = tr("ru", "private.kicked", table=t.id, amount=t.min_buy_in, label="kush")
    store.drop = not saved
    assert not (await service.kick(GROUP, ALICE, True, "Bob")).alert
    await service.rt.settled(t)
    await service.rt.drain()  # (the background save, if any, written)
    assert [s.text for s in presenter.privates.get(BOB.user_id, [])][-1:] == [said]
    # killed now (no stop: the stop saves the table): a new process on the same database
    store.drop = False
    again, presenter = await restart(store, clock)
    try:
        t = again.table_in(GROUP)
        assert t is not None and t.seat_of(BOB.user_id) is None
        await again.rt.settled(t)
        told = [s.text for s in presenter.privates.get(BOB.user_id, [])]
        assert told == ([] if saved else [said])
    finally:
        await again.stop()
