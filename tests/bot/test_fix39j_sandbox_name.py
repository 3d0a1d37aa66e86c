"""fix39j: the sandbox's ``b name X`` renamed Bob's seat by calling ``lobby.rename`` and
``lobby.show_renamed`` itself under the table lock, past the service's check that the table
is still served here (``Runtime.open_here``). It goes through
:meth:`bot.service.TableService.renamed` now, which a table no longer served here leaves
alone; what the sandbox shows is unchanged."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.model import Actor
from bot.sandbox import BOB_ID, GROUP, Sandbox
from bot.service import TableService
from tests.bot.test_fix39d_sandbox_bob import _options


async def test_b_name_goes_through_the_service_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``b name Alice`` asks the service to rename Bob (once, his new name), and his seat
    and the table message show it; with the table not served here, nothing is renamed."""
    box = Sandbox(_options(tmp_path), io.StringIO())
    asked: list[Actor] = []
    renamed = TableService.renamed

    async def spy(self: TableService, chat: object, actor: Actor) -> bool:
        asked.append(actor)
        return await renamed(self, chat, actor)  # type: ignore[arg-type]

    monkeypatch.setattr(TableService, "renamed", spy)
    try:
        await box.start()
        assert await box.handle("g join")
        assert await box.handle("b g join")
        assert await box.handle("b name Alice")
        assert [(a.user_id, a.name) for a in asked] == [(str(BOB_ID), "Alice")]
        service = box.service
        assert service is not None
        t = service.table_in(GROUP)
        assert t is not None
        seat = t.seat_of(str(BOB_ID))
        assert seat is not None and seat.name == "Alice"
        monkeypatch.setattr(service.rt, "open_here", lambda table: False)
        assert await box.handle("b name Carol")
        assert box.bob.first_name == "Carol" and seat.name == "Alice"
    finally:
        await box.stop()
