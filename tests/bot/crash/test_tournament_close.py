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

import asyncio
import dataclasses
import sqlite3
import time
from pathlib import Path

import pytest

from storage.check import check_database
from tests.bot.crash.harness import ALICE, BOB, CAROL, RUN_TIMEOUT, KillPoint, Stuck, kill_id
from tests.bot.crash.test_tournament_payout import SCENARIO, TournamentRun

CLOSE_SCENARIO = dataclasses.replace(
    SCENARIO, name="tournament3_close", settings=(("tournament_chips", "1000"),)
)
POINTS = [
    KillPoint("commit", 1, "before", "+refund"),
    KillPoint("commit", 1, "after", "+refund"),
]


class CloseRun(TournamentRun):
    """:class:`TournamentRun` with the admin's /closetable during the first hand."""

    answer: str | None = None

    async def _play_on(self) -> None:
        """/closetable once Carol's hand message is there; everyone presses what their
        private chat shows until the bot dies or the table is closed."""
        assert self.bot is not None
        deadline = time.monotonic() + RUN_TIMEOUT
        while self.bot.alive and self._open_tables() > 0:
            if time.monotonic() > deadline:
                raise Stuck("the table did not close")
            acted = False
            if self.answer is None and self._newest(CAROL.id, "") is not None:
                self.answer = await self.say(ALICE, "/closetable")
                acted = True
            for u in (ALICE, BOB, CAROL):
                acted = await self._hand_step(u) or acted
            if not acted:
                await asyncio.sleep(0.02)

    async def run_close(self) -> list[str]:
        """The whole run; the broken promises found."""
        problems: list[str] = []
        await self.fake.start()
        try:
            await self._start_bot()
            await self._open()
            await self._play_on()
            if missed := await self._kill_missed():
                return [missed]
            await self._restart()
            await self._play_on()
            await self._quiet(still=1.5)
            since = await self._third_start()
            if self._group_writes_since(since):
                problems.append("the third start wrote to the group again")
        except Stuck as exc:
            problems.append(f"stuck: {exc}; {self._state()}")
        finally:
            await self._stop_all()
        if self.answer is None or "cancelled" not in self.answer:
            problems.append(f"/closetable answered {self.answer!r}")
        problems += [f"storage check: {p}" for p in await check_database(self.db)]
        with sqlite3.connect(self.db) as conn:
            ids = tuple(str(u.id) for u in (ALICE, BOB, CAROL))
            balances = sorted(
                b for (b,) in conn.execute(
                    "SELECT balance FROM players WHERE user_id IN (?, ?, ?)", ids
                )
            )  # fmt: skip
            stacks = conn.execute("SELECT COALESCE(SUM(stack), 0) FROM table_stacks").fetchone()[0]
            refunds = conn.execute("SELECT COUNT(*) FROM ledger WHERE kind = 'refund'").fetchone()
        if balances != [1000, 1000, 1000]:
            problems.append(f"balances {balances}, not 1,000 each")
        if refunds[0] != 3:
            problems.append(f"{refunds[0]} refund rows, not 3")
        if stacks:
            problems.append(f"{stacks} kush still in stacks")
        if problems and (tail := self._log_tail()):
            problems.append("bot log: " + tail)
        return problems


@pytest.mark.parametrize("kill", POINTS, ids=[kill_id(k) for k in POINTS])
async def test_r8_7_a_kill_at_the_cancel_of_a_tournament_closed_mid_hand_refunds_once(
    kill: KillPoint, tmp_path: Path
) -> None:
    problems = await CloseRun(CLOSE_SCENARIO, kill, tmp_path).run_close()
    assert not problems, "\n".join(problems)
