"""Crash test of the bot's removal from a group (R8.2a, issue 10: "messages go out after the
commit and are safe to send again after a crash"): Alice and Bob play hand 1 of Pineapple,
Alice removes the bot from the group (the fake Bot API's ``my_chat_member`` update; every
group write refused from then on), the close waits for the end of the hand, and the hand's
last Confirm commits its settlement, the close and the cash-outs in one transaction. As the
group can read neither the showdown nor the close, each player is told in private, over
their hand message. The bot process (:mod:`tests.bot.crash.child`) is SIGKILLed at a kill
point of that closing step and restarted on the same SQLite file: each player's private
chat must still show the notice, once (an edit in place sent twice changes nothing), and a
third start sends nothing more.

The default run plays two kill points: right after the closing commit, and at the first
private notice's request (Telegram got it, the bot never learnt so). ``OFC_CRASH_ALL=1``
adds the kill right before that commit (the hand then ends again after the restart).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path

import pytest

from bot.texts import tr
from tests.bot.crash.harness import (
    ALICE,
    BOB,
    GROUP_ID,
    RUN_TIMEOUT,
    SCENARIOS,
    CrashRun,
    KillPoint,
    Stuck,
    kill_id,
)

#: what the first private notice's request contains (the group's messages never do)
NOTICE_MATCH = "the bot can no longer write where the table was"

SAMPLE = [
    KillPoint("commit", 1, "after", "+cash_out"),
    KillPoint("call", 1, match=NOTICE_MATCH),
]
ALL = [KillPoint("commit", 1, "before", "+cash_out")]


class RemovalRun(CrashRun):
    """The removal played through the fake Bot API against the bot process; the kill point
    set in the first process."""

    async def _closing_setup(self) -> None:
        """Hand 1 dealt, then Alice removes the bot from the group."""
        deadline = time.monotonic() + RUN_TIMEOUT
        while self._max_hand(0) < 1 or any(self._newest(u.id, "") is None for u in (ALICE, BOB)):
            if time.monotonic() > deadline:
                raise Stuck("hand 1 was not dealt")
            if not await self._step():
                await asyncio.sleep(0.02)
        await self._quiet()
        await self.fake.remove_bot(GROUP_ID, by=ALICE)

    async def _play_on(self) -> None:
        """Play hand 1 out (pressing what the private chats show) until the bot process dies
        (the kill point) or, restarted, the table is closed."""
        await self._play_until_closed((ALICE, BOB), "the hand did not end")

    def _notices(self, user_id: int) -> list[str]:
        notice = tr("en", "private.chat_gone", table=1)
        return [
            str(m.get("text", ""))
            for m in self.fake.chat_messages(user_id)
            if str(m.get("text", "")).startswith(notice)
        ]

    def _private_writes(self, since: int) -> int:
        return sum(
            1
            for c in self.fake.calls[since:]
            if c.method in ("sendMessage", "editMessageText")
            and int(c.params.get("chat_id", 0) or 0) > 0
        )

    async def _closing_after(self, problems: list[str]) -> None:
        """Each player's private chat shows the notice once, with the showdown; a third
        start writes no private message again."""
        await self._quiet(still=1.5)
        for u in (ALICE, BOB):
            notices = self._notices(u.id)
            if len(notices) != 1:
                problems.append(f"{u.first_name}: {len(notices)} private notices")
            elif "🏁 Showdown · table #1 · hand 1" not in notices[0]:
                problems.append(f"{u.first_name}'s notice has no showdown: {notices[0]!r}")
        since = await self._third_start()  # nothing more is owed
        if self._private_writes(since):
            problems.append("the third start wrote private messages again")

    def _closing_checks(self) -> list[str]:
        with sqlite3.connect(self.db) as conn:
            total = conn.execute(
                "SELECT SUM(balance) FROM players WHERE user_id IN (?, ?)",
                (str(ALICE.id), str(BOB.id)),
            ).fetchone()[0]
        return [] if total == 2000 else [f"the balances add up to {total}, not 2000"]


def _points() -> list[KillPoint]:
    return SAMPLE + (ALL if os.environ.get("OFC_CRASH_ALL") == "1" else [])


@pytest.mark.parametrize("kill", _points(), ids=[kill_id(k) for k in _points()])
async def test_a_kill_in_the_removal_s_close_still_tells_each_player_once(
    kill: KillPoint, tmp_path: Path
) -> None:
    problems = await RemovalRun(SCENARIOS["pineapple2"], kill, tmp_path).run_closing_step()
    assert not problems, "\n".join(problems)
