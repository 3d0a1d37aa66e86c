"""Crash test of a tournament's knock-out by leaving (R8.7: "a player who leaves is knocked
out at that moment (placed as such) and their chips leave play"; issue 10), brk66: Alice,
Bob and Carol play a Pineapple tournament of 60 starting chips through the fake Bot API;
Carol types /leave (twice: at a running tournament it asks first) as soon as her first hand
reaches her, and the bot process is SIGKILLed right before, or right after, the commit of
the hand she left (its settlement). The restarted bot plays the tournament on to its payout:
the final standings are posted once, the pool is paid once (balances 1,000 − 100 for two of
them and 1,000 + 200 for the winner), no kush is left in a stack and the ledger balances
(``storage check``). A sweep of every commit of that hand (before and after each) held
too; so did one of the settled hands of a tournament of 150 chips (no leaver)."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import time
from pathlib import Path

import pytest

from storage.check import check_database
from tests.bot.crash.harness import (
    ALICE,
    BOB,
    CAROL,
    RUN_TIMEOUT,
    KillPoint,
    Stuck,
    kill_id,
)
from tests.bot.crash.test_tournament_payout import SCENARIO, TournamentRun

LEAVER_SCENARIO = dataclasses.replace(
    SCENARIO, name="tournament3_leaver", settings=(("tournament_chips", "60"),)
)
POINTS = [
    KillPoint("commit", 1, "before", "+hand"),
    KillPoint("commit", 1, "after", "+hand"),
]


class LeaverRun(TournamentRun):
    """:class:`TournamentRun` with Carol leaving in her first hand."""

    left = False

    async def _play_on(self) -> None:
        """Carol leaves once her hand message is there (asked, then confirmed); the others
        press what their private chats show until the bot dies or the table is closed."""
        assert self.bot is not None
        deadline = time.monotonic() + RUN_TIMEOUT
        while self.bot.alive and self._open_tables() > 0:
            if time.monotonic() > deadline:
                raise Stuck("the tournament did not end")
            acted = False
            if not self.left and self._newest(CAROL.id, "") is not None:
                answer = await self.say(CAROL, "/leave")
                if answer is not None and "/leave" in answer:  # (asks first: confirmed)
                    answer = await self.say(CAROL, "/leave")
                self.left = answer is not None
                acted = True
            for u in (ALICE, BOB) if self.left else (ALICE, BOB, CAROL):
                acted = await self._hand_step(u) or acted
            if not acted:
                await asyncio.sleep(0.02)

    async def run_leaver(self) -> list[str]:
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
            await self._until(lambda: self._finals() or None, RUN_TIMEOUT, "no final standings")
            await self._quiet(still=1.5)
            if len(self._finals()) != 1:
                problems.append(f"{len(self._finals())} messages with the final standings")
        except Stuck as exc:
            problems.append(f"stuck: {exc}; {self._state()}")
        finally:
            await self._stop_all()
        if not self.left:
            problems.append("Carol never left")
        problems += [f"storage check: {p}" for p in await check_database(self.db)]
        with sqlite3.connect(self.db) as conn:
            ids = tuple(str(u.id) for u in (ALICE, BOB, CAROL))
            balances = sorted(
                b for (b,) in conn.execute(
                    "SELECT balance FROM players WHERE user_id IN (?, ?, ?)", ids
                )
            )  # fmt: skip
            stacks = conn.execute("SELECT COALESCE(SUM(stack), 0) FROM table_stacks").fetchone()[0]
            carol = conn.execute(
                "SELECT balance FROM players WHERE user_id = ?", (str(CAROL.id),)
            ).fetchone()
        if balances != [900, 900, 1200]:
            problems.append(f"balances {balances}, not [900, 900, 1200]")
        if carol is None or carol[0] != 900:  # (knocked out third: no prize, R8.7)
            problems.append(f"Carol's balance {carol}, not 900")
        if stacks:
            problems.append(f"{stacks} kush still in stacks")
        if problems and (tail := self._log_tail()):
            problems.append("bot log: " + tail)
        return problems


@pytest.mark.parametrize("kill", POINTS, ids=[kill_id(k) for k in POINTS])
async def test_r8_7_a_kill_at_the_hand_a_tournament_player_left_pays_the_pool_once(
    kill: KillPoint, tmp_path: Path
) -> None:
    problems = await LeaverRun(LEAVER_SCENARIO, kill, tmp_path).run_leaver()
    assert not problems, "\n".join(problems)
