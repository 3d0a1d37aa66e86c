"""fix38e: the table message from before a restart, the table then closed (a new user in the
sandbox: start, /quit, start again, /closetable). The old message was written "⬇️ Table #1
goes on in the message below." though the table was gone and nothing followed; it says the
table is closed (:meth:`bot.service.runtime.Runtime.retire_earlier`)."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.test_sandbox import _sandbox_session


async def test_r8_2a_the_old_message_of_a_table_closed_after_a_restart_says_it_is_closed(
    tmp_path: Path,
) -> None:
    first = await _sandbox_session(tmp_path, ["g join"])
    assert "» You sit at seat 2. Press Ready to buy in." in first
    again = await _sandbox_session(tmp_path, ["/closetable"])
    assert "» Table #1 is closed." in again, again
    moved = tr("en", "table.moved", table=1)
    assert moved == "⬇️ Table #1 goes on in the message below."
    assert moved not in again, again
