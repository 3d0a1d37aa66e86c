"""fix38f: ``/ofc new`` (or ``/ofc tournament``) sent while ``/ofcadmin close`` commits opens
the next table (R8.2a; the service's fix in ``TableService._open``), and its "Table #2 is
open." goes to the channel. The adapter chose public or ephemeral from whether a table was
in the channel *before* the call, so the opening was told to the admin alone (ephemeral)
and the channel saw a table message with no word of who opened it. The reply decides now:
a refusal (``Reply.alert``) is ephemeral, an opening public."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from storage.api import Move
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.fakes.discord_api import EPHEMERAL


def _flags(message: Mapping[str, Any]) -> int:
    return int(message.get("flags") or 0)


@pytest.mark.parametrize(
    ("sub", "opened"),
    [
        ("new", "Table #2 is open."),
        ("tournament", "Tournament #2 is open: press Register to join."),
    ],
)
async def test_r8_2a_new_while_close_commits_is_answered_in_the_channel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sub: str, opened: str
) -> None:
    """Alice's table #1 (Bob seated); Alice closes it and, while the close's commit is held
    in storage, runs ``/ofc <sub>``: table #2 opens and its answer is public; the close's
    answer is unchanged. Then ``/ofc new`` again is refused ephemerally (#2 is open)."""
    async with world(tmp_path) as w:
        first = await w.slash(ALICE, "new")
        assert first["content"] == "Table #1 is open." and not _flags(first) & EPHEMERAL
        await w.slash(BOB, "join")
        go, waiting = asyncio.Event(), asyncio.Event()
        commit = w.store.commit

        async def slow_close(
            table_id: int,
            moves: Sequence[Move],
            snapshot: Mapping[str, Any] | None,
            *,
            key: str,
            close: bool = False,
        ) -> list[int]:
            if close and table_id == 1:
                waiting.set()
                await go.wait()
            return await commit(table_id, moves, snapshot, key=key, close=close)

        monkeypatch.setattr(w.store, "commit", slow_close)
        closing = await w.fake.slash(ALICE, "close", None, group="ofcadmin", admin=True)
        await asyncio.wait_for(waiting.wait(), 10)  # (the close holds table #1)
        opening = await w.fake.slash(ALICE, sub, admin=True)
        for _ in range(20):
            await asyncio.sleep(0)
        go.set()
        await w.settle(closing)
        await w.settle(opening)
        assert closing.messages and opening.messages
        closed = w.fake.messages[closing.messages[-1]]
        assert str(closed["content"]).startswith("Table #1 is closed."), closed
        answer = w.fake.messages[opening.messages[-1]]
        assert answer["content"] == opened, answer
        assert not _flags(answer) & EPHEMERAL, answer  # (was ephemeral: the admin's alone)
        assert answer in w.fake.channel_messages()
        assert [t.id for t in w.service.tables.values()] == [2]
        refused = await w.slash(ALICE, "new")
        assert _flags(refused) & EPHEMERAL, refused
        assert "#2" in str(refused["content"]), refused


@pytest.mark.parametrize("slow", [False, True])
async def test_r8_2a_new_at_an_open_table_is_refused_ephemerally(
    tmp_path: Path, slow: bool
) -> None:
    """``/ofc new`` and ``/ofc tournament`` where table #1 is open: refused to the caller
    alone (the service's ``Reply.alert``), even when ``slow``: answered after the adapter
    deferred it publicly (a "thinking" placeholder, which goes); the channel keeps only
    table #1's message."""
    async with world(tmp_path, answer_within=0.0 if slow else 2.0) as w:
        first = await w.slash(ALICE, "new")
        assert not _flags(first) & EPHEMERAL
        public = [m["id"] for m in w.fake.channel_messages()]
        for sub in ("new", "tournament"):
            refused = await w.slash(BOB, sub)
            assert _flags(refused) & EPHEMERAL, refused
            assert "#1" in str(refused["content"]), refused
        assert [m["id"] for m in w.fake.channel_messages()] == public
        deferred = [r.callback_type == 5 for r in w.fake.interactions.values()][1:]
        assert deferred == [slow, slow]  # (slow: both deferred before the answer)
