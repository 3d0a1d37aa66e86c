"""Random walks through the table service (``tests/bot/test_chaos.py``) with the chat changing
under the table (issue 15): the bot removed from the group and added back, the group upgraded
to a supergroup (its id changes once), players who block the bot or leave the group, and the
timers an admin may set shortest (``ready_seconds`` 5, ``idle_close_seconds`` 5). After every
step the table has a next deadline (no table waits forever) and a clock tick leaves nothing
due; at the end, with nobody acting any more, the table closes itself and the ledger
balances. Six seeds by default; ``OFC_SLOW=1`` runs 300."""

from __future__ import annotations

import contextlib

import pytest

from bot.model import ChatRef
from bot.service.timers import _due
from storage.check import check_store
from tests.bot import test_chaos as chaos

SUPERGROUP = ChatRef("telegram", "-200", "-200", "Friends")
SETTINGS = [
    *chaos.SETTINGS,
    ("ready_seconds", ("5", "60")),
    ("idle_close_seconds", ("5", "100", "1800")),
]
SEEDS = range(300) if chaos.SLOW else (0, 7, 32, 41, 63, 88)


class ChatWalk(chaos.Walk):
    """A :class:`~tests.bot.test_chaos.Walk` whose commands include chats changing."""

    migrated = False

    async def press(self) -> None:
        t = self.service.table_in(chaos.GROUP)
        if t is None or any(
            not s.bot and s.user_id not in self.presenter.privates for s in t.seats.values()
        ):
            return  # (a player who blocked the bot has no screen to press on)
        with contextlib.suppress(IndexError):  # (a screen with no button: nothing to press)
            await super().press()

    async def command(self, step: int) -> None:
        s, rng, group = self.service, self.rng, chaos.GROUP
        r = rng.random()
        if r < 0.04:
            self.log.append(f"chat_left {await s.chat_left('telegram', group.chat_id)}")
        elif r < 0.08:
            self.log.append(f"chat_back {await s.chat_back('telegram', group.chat_id)}")
        elif r < 0.09 and not self.migrated:
            moved = await s.migrate_chat("telegram", group.chat_id, SUPERGROUP.chat_id)
            chaos.GROUP, self.migrated = SUPERGROUP, True
            self.log.append(f"migrated {moved}")
        elif r < 0.12:
            a = rng.choice(chaos.PEOPLE)
            self.presenter.blocked.add(a.user_id)
            await s.player_unreachable("telegram", a.user_id)
            self.log.append(f"{a.name} blocks the bot")
        elif r < 0.14:
            a = rng.choice(chaos.PEOPLE)
            reply = await s.member_left(group, a)
            self.log.append(f"{a.name} leaves the group: {reply and reply.text[:40]!r}")
        elif r < 0.2:
            name, values = rng.choice(SETTINGS)
            reply = await s.settings(
                group, rng.choice(chaos.PEOPLE), True, [name, rng.choice(values)]
            )
            self.log.append(f"settings {name}: {reply.text[:50]!r}")
        else:
            n = len(self.log)
            await super().command(step)
            assert all(not line.endswith(": ''") for line in self.log[n:]), "a command unanswered"

    def check(self) -> None:
        super().check()
        t = self.service.table_in(chaos.GROUP)
        assert t is None or self.service.rt.next_deadline(t) is not None, "no deadline"

    async def tick(self) -> None:
        await super().tick()
        for _ in range(60):  # (one step a table per run_due: a showdown, then the deal)
            t = self.service.table_in(chaos.GROUP)
            if t is None or not _due(self.service.rt, t):
                return
            await self.service.run_due()
        raise AssertionError("a table stays due after its timer's steps")


@pytest.mark.parametrize("seed", SEEDS)
async def test_a_random_walk_with_the_chat_changing_ends_every_table(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chaos, "GROUP", chaos.GROUP)  # (a migration moves it: put back after)
    walk = ChatWalk(seed)
    with walk.shown_on_failure():
        await walk.steps(400, press=0.45, restart=0.47, tick=0.6)
        for _ in range(3000):  # nobody acts any more: the clocks end it, the idle close too
            if walk.service.table_in(chaos.GROUP) is None:
                break
            walk.now += 50
            await walk.service.run_due()
        assert walk.service.table_in(chaos.GROUP) is None
        assert await check_store(walk.store) == []
