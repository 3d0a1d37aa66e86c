"""brk61: concurrency and ordering at one table and across a chat's tables (presses and
commands handled at once: Telegram's updates run concurrently, Discord's interactions too).

Each test is a race found by the break session; the ledger is checked after each."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.service import TableService
from storage.api import Move
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_service import ALICE, BOB, GROUP


class SlowClose(MemoryStore):
    """A memory store whose closing commit waits for ``go`` (storage busy a moment): the
    close holds the table meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()
        self.waiting = asyncio.Event()

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if close:
            self.waiting.set()
            await self.go.wait()
        return await super().commit(table_id, moves, snapshot, key=key, close=close)


async def test_r8_2a_newtable_while_closetable_commits_opens_the_new_table() -> None:
    """An admin types ``/closetable`` and at once ``/newtable ofc`` (another game: what the
    close is for, R8.2a). The /newtable found the table, waited for it while the close was
    being committed, and was refused "This chat already has an open table (#1)", naming the
    table just closed; no table was open after. It opens table #2 of the game asked."""
    store, clock = SlowClose(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(1), timers=False)
    service.register(FakePresenter())
    try:
        await service.settings(GROUP, ALICE, True, ["pictures", "off"])
        assert not (await service.new_table(GROUP, ALICE, "pineapple")).alert
        assert not (await service.join(GROUP, BOB)).alert
        closing = asyncio.create_task(service.close_table(GROUP, ALICE, True))
        await store.waiting.wait()  # (the close holds the table, its commit under way)
        opening = asyncio.create_task(service.new_table(GROUP, ALICE, "ofc"))
        for _ in range(20):
            await asyncio.sleep(0)
        store.go.set()
        closed, opened = await closing, await opening
        assert closed.text.startswith("Table #1 is closed."), closed.text
        assert not opened.alert and opened.text == "Table #2 is open.", opened.text
        t = service.table_in(GROUP)
        assert t is not None and t.id == 2 and t.options.game.value == "ofc"
        await assert_conserved(store)
    finally:
        await service.stop()
