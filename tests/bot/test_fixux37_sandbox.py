"""The local sandbox prints the answer to the player's own command or press before the
screens it caused (a new user saw "» Ready: 200 kush moved to the table." under the first
hand's screens, "» Table #3 is open." under the new table's message)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.sandbox import Sandbox, SandboxOptions


async def test_the_answer_to_a_command_or_press_is_printed_before_the_screens_it_caused(
    tmp_path: Path,
) -> None:
    """An answer that comes a moment after the messages it caused (as on a loaded machine:
    the service commits, its messages go out, and the answer races them): the background
    printer printed those first. Now "» Table #2 is open." comes before the new table's
    message, and "» Ready: 200 kush moved to the table." before the first hand's screens."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0), out)
    wait = box._wait

    async def slow(predicate: Callable[[], Any], timeout: float = 15.0) -> Any:
        await asyncio.sleep(0.3)  # (the printer prints every 0.05 s)
        return await wait(predicate, timeout)

    box._wait = slow  # type: ignore[method-assign]
    try:
        await box.start()
        assert await box.handle("/closetable")
        start = len(out.getvalue().splitlines())
        assert await box.handle("/newtable ofc")
        assert await box.handle("g1")  # Join
        assert await box.handle("g2")  # Ready: the hand is dealt
        await asyncio.sleep(0.3)
        await box.print_changes()
    finally:
        await box.stop()
    lines = out.getvalue().splitlines()[start:]
    opened = lines.index("» Table #2 is open.")
    table = next(n for n, x in enumerate(lines) if x.startswith("🃏 Classic OFC · table #2"))
    assert opened < table, lines
    ready = lines.index("» Ready: 200 kush moved to the table.")
    dealt = next(n for n, x in enumerate(lines) if "hand 1" in x)
    assert ready < dealt, lines
