"""Crash test of an admin's ``/closetable`` at a running tournament mid-hand (R8.2a, R8.7:
the close waits for the hand's end, then cancels the tournament; before anyone is knocked
out every buy-in goes back, ``refund`` rows), brk66: Alice, Bob and Carol play a Pineapple
tournament of 1,000 starting chips through the fake Bot API; Alice (the admin) types
/closetable as soon as the first hand reaches Carol, and the bot process is SIGKILLed right
before, or right after, the commit of that hand's end with the cancel. The restarted bot
finishes the hand if need be and closes the table: every balance is 1,000 again, three
``refund`` rows, no kush left in a stack, the ledger balanced (``storage check``), and a
third start writes nothing more to the group. This held: no fix was needed."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import ClassVar

import pytest

from tests.bot.crash.harness import ALICE, CAROL, KillPoint, kill_id
from tests.bot.crash.test_tournament_payout import PLAYERS, SCENARIO, TournamentRun

CLOSE_SCENARIO = dataclasses.replace(
    SCENARIO, name="tournament3_close", settings=(("tournament_chips", "1000"),)
)
POINTS = [
    KillPoint("commit", 1, "before", "+refund"),
    KillPoint("commit", 1, "after", "+refund"),
]


class CloseRun(TournamentRun):
    """:class:`TournamentRun` with the admin's /closetable during the first hand: every
    buy-in back (three ``refund`` rows), nothing written to the group by a third start."""

    final_balances: ClassVar[list[int]] = [1000, 1000, 1000]
    answer: str | None = None

    async def _close(self) -> bool:
        """/closetable once Carol's hand message is there (True: typed now)."""
        if self.answer is not None or self._newest(CAROL.id, "") is None:
            return False
        self.answer = await self.say(ALICE, "/closetable")
        return True

    async def _play_on(self) -> None:
        """/closetable (:meth:`_close`); everyone presses what their private chat shows
        until the bot dies or the table is closed."""
        await self._play_until_closed(PLAYERS, "the table did not close", self._close)

    async def _closing_after(self, problems: list[str]) -> None:
        await self._quiet(still=1.5)
        since = await self._third_start()
        if self._group_writes_since(since):
            problems.append("the third start wrote to the group again")

    def _closing_checks(self) -> list[str]:
        problems = super()._closing_checks()
        if self.answer is None or "cancelled" not in self.answer:
            problems.append(f"/closetable answered {self.answer!r}")
        refunds = self._rows("SELECT COUNT(*) FROM ledger WHERE kind = 'refund'")[0]
        if refunds[0] != 3:
            problems.append(f"{refunds[0]} refund rows, not 3")
        return problems


@pytest.mark.parametrize("kill", POINTS, ids=[kill_id(k) for k in POINTS])
async def test_r8_7_a_kill_at_the_cancel_of_a_tournament_closed_mid_hand_refunds_once(
    kill: KillPoint, tmp_path: Path
) -> None:
    problems = await CloseRun(CLOSE_SCENARIO, kill, tmp_path).run_closing_step()
    assert not problems, "\n".join(problems)
