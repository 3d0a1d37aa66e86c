"""Crash test of the group's one notice of the top-ups made at a hand's end (tup44, R8.2;
issue 10: "messages go out after the commit and are safe to send again after a crash"):
Alice and Bob play hand 1 of Pineapple; during it each queues ``/topup 300``, then Alice
(the admin) leaves each of them 50 kush on the balance (``/grant``). As the hand ends each
top-up is cut to the balance, each in its own step (a ``buy_in`` row), and the group is
told of both in ONE message. The bot process (:mod:`tests.bot.crash.child`) is SIGKILLed
right after the commit of the last of them (Bob's), and restarted on the same SQLite file:
the group must still read that message, once, and a third start posts it no more. The
notice was a step of its own after the top-ups' (``lobby._post_top_up_notices``): killed
between them, the group was never told (the kush right). Now it is committed with them
(outbox: ``lobby._Notice``)."""

from __future__ import annotations

import asyncio
import re
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

PLAYERS = (ALICE, BOB)
#: the buy-ins: Alice's and Bob's at Ready, then their two top-ups cut at hand 1's end
POINTS = [KillPoint("commit", 4, "after", "+buy_in")]
_BALANCE = re.compile(r"^.+?: (?P<balance>\d+) kush on balance")


def cut(name: str) -> str:
    """The notice's line of ``name``'s top-up of 300 cut to the balance's 50."""
    return tr("en", "lobby.topup_cut_balance", name=name, amount=300, added=50, label="kush")


class TopUpRun(CrashRun):
    """Hand 1 played with the top-ups queued; the kill point set in the first process."""

    async def _closing_setup(self) -> None:
        """Hand 1 dealt; each player queues a top-up of 300, then has 50 on the balance."""
        deadline = time.monotonic() + RUN_TIMEOUT
        while self._max_hand(0) < 1 or any(self._newest(u.id, "") is None for u in PLAYERS):
            if time.monotonic() > deadline:
                raise Stuck("hand 1 was not dealt")
            if not await self._step():
                await asyncio.sleep(0.02)
        await self._quiet()
        for u in PLAYERS:
            reply = await self.say(u, "/topup 300")
            assert reply is not None and "queued" in reply, reply
            reply = await self.say(u, "/balance")
            m = _BALANCE.match(reply or "")
            assert m is not None, reply
            take = int(m.group("balance")) - 50
            reply = await self.say(ALICE, f"/grant {u.first_name} -{take}")
            assert reply is not None and reply.endswith("balance 50."), reply

    async def _play_on(self) -> None:
        """Play hand 1 out until the bot process dies (the kill point) or, restarted, hand 2
        is dealt."""
        assert self.bot is not None
        deadline = time.monotonic() + RUN_TIMEOUT
        since = self.restart_at or 0
        while self.bot.alive and self._max_hand(since) < 2:
            if time.monotonic() > deadline:
                raise Stuck("hand 2 was not dealt")
            acted = False
            for u in PLAYERS:
                acted = await self._hand_step(u) or acted
            if not acted:
                await asyncio.sleep(0.02)

    def _notices(self) -> list[str]:
        """The group's messages that tell of a top-up cut (by their text as posted)."""
        return [
            str(c.params.get("text", ""))
            for c in self.fake.calls
            if c.method == "sendMessage"
            and int(c.params.get("chat_id", 0) or 0) == GROUP_ID
            and "top-up of 300 kush cut" in str(c.params.get("text", ""))
        ]

    async def _closing_after(self, problems: list[str]) -> None:
        """The group reads both cuts in one message, once; a third start posts it no more."""
        await self._quiet(still=1.5)
        told = self._notices()
        if told != [f"{cut('Alice')}\n{cut('Bob')}"]:
            problems.append(f"the group was told {told!r}")
        before = len(told)
        await self._third_start()
        if len(self._notices()) != before:
            problems.append("the third start posted the notice again")


@pytest.mark.parametrize("kill", POINTS, ids=[kill_id(k) for k in POINTS])
async def test_r8_2_a_kill_after_the_top_ups_still_tells_the_group_once(
    kill: KillPoint, tmp_path: Path
) -> None:
    problems = await TopUpRun(SCENARIOS["pineapple2"], kill, tmp_path).run_closing_step()
    assert not problems, "\n".join(problems)
