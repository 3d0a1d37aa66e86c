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

import dataclasses
from pathlib import Path

import pytest

from tests.bot.crash.harness import ALICE, BOB, CAROL, RUN_TIMEOUT, KillPoint, kill_id
from tests.bot.crash.test_tournament_payout import PLAYERS, SCENARIO, TournamentRun

LEAVER_SCENARIO = dataclasses.replace(
    SCENARIO, name="tournament3_leaver", settings=(("tournament_chips", "60"),)
)
POINTS = [
    KillPoint("commit", 1, "before", "+hand"),
    KillPoint("commit", 1, "after", "+hand"),
]


class LeaverRun(TournamentRun):
    """:class:`TournamentRun` with Carol leaving in her first hand: knocked out third, no
    prize (R8.7)."""

    left = False

    async def _leave(self) -> bool:
        """Carol leaves once her hand message is there, asked, then confirmed (True: typed
        now)."""
        if self.left or self._newest(CAROL.id, "") is None:
            return False
        answer = await self.say(CAROL, "/leave")
        if answer is not None and "/leave" in answer:  # (asks first: confirmed)
            answer = await self.say(CAROL, "/leave")
        self.left = answer is not None
        return True

    async def _play_on(self) -> None:
        """Carol leaves (:meth:`_leave`); the others press what their private chats show
        until the bot dies or the table is closed."""
        await self._play_until_closed(
            lambda: (ALICE, BOB) if self.left else PLAYERS,
            "the tournament did not end",
            self._leave,
        )

    async def _closing_after(self, problems: list[str]) -> None:
        await self._until(lambda: self._finals() or None, RUN_TIMEOUT, "no final standings")
        await self._quiet(still=1.5)
        if len(self._finals()) != 1:
            problems.append(f"{len(self._finals())} messages with the final standings")

    def _closing_checks(self) -> list[str]:
        problems = super()._closing_checks()
        if not self.left:
            problems.append("Carol never left")
        carol = self._rows("SELECT balance FROM players WHERE user_id = ?", str(CAROL.id))[:1]
        if carol != [(900,)]:  # (knocked out third: no prize, R8.7)
            problems.append(f"Carol's balance {carol}, not 900")
        return problems


@pytest.mark.parametrize("kill", POINTS, ids=[kill_id(k) for k in POINTS])
async def test_r8_7_a_kill_at_the_hand_a_tournament_player_left_pays_the_pool_once(
    kill: KillPoint, tmp_path: Path
) -> None:
    problems = await LeaverRun(LEAVER_SCENARIO, kill, tmp_path).run_closing_step()
    assert not problems, "\n".join(problems)
