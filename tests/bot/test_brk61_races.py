"""brk61: concurrency and ordering at one table and across a chat's tables (presses and
commands handled at once: Telegram's updates run concurrently, Discord's interactions too).

Each test is a race found by the break session; the ledger is checked after each."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Awaitable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.model import Actor, ChatRef, LiveTable, Reply
from bot.screens import Payload, Screen
from bot.service import TableService
from storage.api import Move
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_break21 import CHATS, Killed, Walk, actor
from tests.bot.test_service import ALICE, BOB, GROUP

RACE_SEEDS = range(200) if os.environ.get("OFC_SLOW") == "1" else range(4)


class SlowClose(MemoryStore):
    """A memory store whose closing commit waits for ``go`` (storage busy a moment): the
    close holds the table meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()
        self.waiting = asyncio.Event()

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if close:
            self.waiting.set()
            await self.go.wait()
        return await super().commit(table_id, moves, snapshot, key=key, close=close)


async def test_r8_2a_newtable_while_closetable_commits_opens_the_new_table() -> None:
    """An admin types ``/closetable`` and at once ``/newtable ofc`` (another game: what the
    close is for, R8.2a). The /newtable found the table, waited for it while the close was
    being committed, and was refused "This chat already has an open table (#1)", naming the
    table just closed; no table was open after. It opens table #2 of the game asked."""
    store, clock = SlowClose(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(1), timers=False)
    service.register(FakePresenter())
    try:
        await service.settings(GROUP, ALICE, True, ["pictures", "off"])
        assert not (await service.new_table(GROUP, ALICE, "pineapple")).alert
        assert not (await service.join(GROUP, BOB)).alert
        closing = asyncio.create_task(service.close_table(GROUP, ALICE, True))
        await store.waiting.wait()  # (the close holds the table, its commit under way)
        opening = asyncio.create_task(service.new_table(GROUP, ALICE, "ofc"))
        for _ in range(20):
            await asyncio.sleep(0)
        store.go.set()
        closed, opened = await closing, await opening
        assert closed.text.startswith("Table #1 is closed."), closed.text
        assert not opened.alert and opened.text == "Table #2 is open.", opened.text
        t = service.table_in(GROUP)
        assert t is not None and t.id == 2 and t.options.game.value == "ofc"
        await assert_conserved(store)
    finally:
        await service.stop()


class RaceWalk(Walk):
    """:class:`~tests.bot.test_break21.Walk` with most steps handled at once: a double (or
    triple) tap of a button of each hand to act, every player to act pressing Arrange then
    Confirm twice at the same moment (with ``simultaneous_streets`` on in one walk of two,
    R3.6, so several confirm the last street together), each with the table timers fired
    (run_due, the clock moved past a player's time, R8.5) and commands (joins, Ready, leaves,
    top-ups, settings, closes, members gone…) in the same burst; commits storage
    refuses and crashes at a commit now and then. The same checks after every step."""

    burst = 0.0  # (the bursts are this walk's own steps)
    faults = 0.02

    def _hand_actors(self, chat: ChatRef, t: LiveTable) -> list[Actor]:
        p = self.presenters[chat.platform]
        out = []
        for s in list(t.hand.to_act if t.hand is not None else ()):
            seat = t.seats.get(t.owner(s))
            if seat is not None and not seat.bot and p.privates.get(seat.user_id):
                out.append(Actor(chat.platform, seat.user_id, seat.name, "en"))
        return out

    def _extras(self, step: int) -> list[Awaitable[Any]]:
        extra: list[Awaitable[Any]] = []
        if self.rng.random() < 0.35:
            self.now += self.rng.choice([0.0, 3.0, 100.0, 200.0])
            extra.append(self.service.run_due())
        extra += [self.command(step * 10 + i, True) for i in range(self.rng.randrange(0, 3))]
        if self.rng.random() < 0.2:
            extra.append(self.press())
        return extra

    async def taps(self, step: int) -> None:
        """A button of each hand to act, pressed two or three times at once."""
        chat = self.rng.choice(CHATS)
        t = self.service.table_in(chat)
        if t is None or t.hand is None:
            return
        calls: list[Awaitable[Any]] = []
        for a in self._hand_actors(chat, t):
            screen = self.presenters[chat.platform].last_private(a.user_id)
            datas = [b.data for b in screen.all_buttons() if b.data]
            if datas:
                data = self.rng.choice(datas)
                calls += [self.service.press(a, data) for _ in range(self.rng.choice([2, 3]))]
        calls += self._extras(step)
        self.rng.shuffle(calls)
        await self._all(calls)

    async def confirms(self, step: int) -> None:
        """Every player to act arranges, then all confirm at once (twice each)."""
        chat = self.rng.choice(CHATS)
        t = self.service.table_in(chat)
        if t is None or t.hand is None:
            return
        p = self.presenters[chat.platform]
        actors = self._hand_actors(chat, t)
        for a in actors:
            arrange = _button(p.last_private(a.user_id), "a")
            if arrange is not None:
                await self.service.press(a, arrange)
        calls: list[Awaitable[Any]] = []
        for a in actors:
            confirm = _button(p.last_private(a.user_id), "c")
            if confirm is not None:
                calls += [self.service.press(a, confirm) for _ in range(2)]
        calls += self._extras(step)
        self.rng.shuffle(calls)
        await self._all(calls)

    async def _all(self, calls: list[Awaitable[Any]]) -> None:
        answers = await asyncio.wait_for(asyncio.gather(*calls), 60)
        for answer in answers:  # every press answered (a command's step logs its own)
            assert answer is None or isinstance(answer, Reply), answer
        said = [a.text[:40] for a in answers if isinstance(a, Reply)]
        self.log.append(f"at once: {said}")

    async def steps(self, count: int) -> None:
        for step in range(count):
            r, fault = self.rng.random(), self.rng.random()
            if fault < self.faults:
                self.store.refuse = 1
            elif fault < self.faults * 1.5:
                self.store.kill = self.rng.choice(["before", "after"])
            before = {cid: self.view(t) for cid, t in self.tables().items()}
            try:
                if r < 0.3:
                    await self.taps(step)
                elif r < 0.5:
                    await self.confirms(step)
                elif r < 0.6:
                    await self.tick()
                elif r < 0.85:
                    burst = [self.command(step * 10 + i, True) for i in range(3)]
                    await asyncio.wait_for(asyncio.gather(*burst, self.taps(step)), 60)
                else:
                    await self.command(step, self.store.refuse > 0)
            except Killed:
                self.log.append(f"killed at a commit ({self.store.kill})")
                await self.restart(step, crash=True, before=before)
            if self.store.dead:
                self.log.append(f"died at a commit ({self.store.kill})")
                await self.restart(step, crash=True, before=before)
            self.store.refuse = 0
            self.store.kill = None
            await self.check()


def _button(screen: Screen, action: str) -> str | None:
    return next(
        (
            b.data
            for b in screen.all_buttons()
            if b.data and Payload.decode(b.data).action == action
        ),
        None,
    )


@pytest.mark.usefixtures("short_hand_seconds")
@pytest.mark.parametrize("seed", RACE_SEEDS)
async def test_r8_presses_and_commands_at_once_lose_no_kush_and_every_table_ends(
    seed: int, tmp_path: Path
) -> None:
    """:class:`RaceWalk` over the three tables of test_break21 (two channels of one Discord
    server sharing balances, a Telegram group): after every step the ledger balances, the
    live stacks are the stored ones, no hand is settled twice, each shown result is the kush
    moved; at the end every table finishes its hand and closes by itself."""
    walk = RaceWalk(seed, tmp_path / "ofc.sqlite3")
    await walk.open()
    await walk.no_pictures()
    try:
        if seed % 2:  # (every player of a street acts at once, R3.6; safe timeouts, R8.5)
            for chat in (CHATS[0], CHATS[2]):
                for setting in (["simultaneous_streets", "on"], ["safe_autoplay", "on"]):
                    reply = await walk.service.settings(
                        chat, actor(chat.platform, 0), True, setting
                    )
                    assert not reply.alert, reply.text
        await walk.steps(120)
        for _ in range(300):  # nobody acts any more: every table ends its hand and closes
            if not walk.tables():
                break
            walk.now += 100
            await walk.service.run_due()
            await walk.check()
        assert not walk.tables(), "a table never closed"
        await walk.check()
    except BaseException:
        print("\n".join(walk.log[-60:]))
        raise
    finally:
        await walk.service.stop()
        await walk.store.close()
