"""outbox: the group's one notice of the top-ups refused at a hand's end (tup44,
:func:`bot.service.lobby.add_top_ups`) is committed with the top-ups' own steps, so a crash
after them sends it after the restart (it stood in a step of its own after theirs: a crash
between lost it, the kush right, the group never told)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

from bot.model import LiveTable
from bot.screens import Screen
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm, seated
from tests.bot.test_transitions import KillableStore, Killed, player_balance, restart

BY_ID = {a.user_id: a for a in (ALICE, BOB, CAROL)}
DELAY = 4.0


def new_service(store: KillableStore, clock: Clock) -> tuple[TableService, FakePresenter]:
    service = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=DELAY,
                           timers=False)  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter


async def refused_at_the_hand_end(
    store: KillableStore, clock: Clock
) -> tuple[TableService, FakePresenter, LiveTable]:
    """Alice, Bob and Carol seated, the second hand dealt to all three; each queues a
    top-up of 300 during it, then an admin takes their whole balances; the hand is played
    out (the top-ups are added by the next timer's step)."""
    service, presenter = new_service(store, clock)
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    while t.hand is not None and t.hand_no == 1:
        await press_auto_and_confirm(service, presenter, BY_ID[t.seats[t.hand.to_act[0]].user_id])
    clock.now += DELAY
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 3
    for n, actor in enumerate((ALICE, BOB, CAROL)):
        assert not (await service.top_up(GROUP, actor, "300")).alert
        have = await player_balance(store, actor)
        reply = await service.grant(GROUP, ALICE, True, actor.name, str(-have), f"k{n}")
        assert not reply.alert, reply.text
    while t.hand is not None and t.hand_no == 2:
        await press_auto_and_confirm(service, presenter, BY_ID[t.seats[t.hand.to_act[0]].user_id])
    await service.rt.settled(t)
    return service, presenter, t


def refused(*names: str) -> str:
    return "\n".join(
        tr("en", "lobby.topup_failed", name=name, amount=300, label="kush", have=0)
        for name in names
    )


#: the store's commits of the timer's step: each top-up's buy-in tried (refused: nothing
#: written), then its refusal's step (2, 4, 6), then the deal
@pytest.mark.parametrize("killed_after", [6, 2], ids=["the-last-top-up", "the-first-top-up"])
async def test_a_crash_after_the_top_ups_still_tells_the_group(killed_after: int) -> None:
    """The timer's step refuses the three top-ups, one step each; the process dies right
    after the commit of the last (or the first). The restarted bot tells the group: the
    three refusals in one message (killed after the first: Alice's, committed with it, then
    Bob's and Carol's in one, made by the restarted bot); the old code told nothing of those
    committed before the crash (their notice was to be a step of its own after them). A
    second restart tells nothing more; the ledger checks."""
    store, clock = KillableStore(), Clock()
    service, _p, t = await refused_at_the_hand_end(store, clock)
    clock.now += DELAY
    store.kill_at = store.commits + killed_after
    with contextlib.suppress(Killed):  # (the timer's step may log it, as it does any error)
        await service.run_due()
    assert store.dead and store.commits == store.kill_at
    store.dead = False
    again, presenter = await restart(store, clock, DELAY)
    t = again.table_in(GROUP)
    assert t is not None
    await again.rt.settled(t)
    await again.run_due()  # (the top-ups left, if any, then the deal)
    await again.rt.settled(t)
    told = [text for _chat, text in presenter.posts if "top-up" in text]
    if killed_after == 6:
        assert told == [refused("Alice", "Bob", "Carol")]
    else:
        assert told == [refused("Alice"), refused("Bob", "Carol")]
    assert [s.top_up for s in t.seats.values()] == [0, 0, 0]
    await again.stop()
    third, presenter = await restart(store, clock, DELAY)
    t = third.table_in(GROUP)
    assert t is not None
    await third.rt.settled(t)
    assert [text for _chat, text in presenter.posts if "top-up" in text] == []
    await third.stop()
    for actor in (ALICE, BOB, CAROL):
        assert await player_balance(store, actor) == 0
    assert await check_store(store) == []


class Yielding(KillableStore):
    """A store whose commits give the event loop a few turns first (a real database's
    await): the group's sender may run between the steps of one timer's run."""

    async def commit(self, *args: Any, **kwargs: Any) -> list[int]:
        for _ in range(5):
            await asyncio.sleep(0)
        return await super().commit(*args, **kwargs)


async def test_the_notice_committed_step_by_step_is_still_one_message() -> None:
    """The notice is committed with each top-up's step, replacing the previous step's;
    the group's sender, which could send the first step's between the commits, is held
    until the last: one message with the three refusals (not Alice's, then the three)."""
    store, clock = Yielding(), Clock()
    service, presenter, t = await refused_at_the_hand_end(store, clock)
    posted = len(presenter.posts)
    clock.now += DELAY
    await service.run_due()
    await service.rt.settled(t)
    told = [text for _chat, text in presenter.posts[posted:] if "top-up" in text]
    assert told == [refused("Alice", "Bob", "Carol")]
    assert t.hand is not None and t.hand_no == 3
    await service.stop()


class Staged(KillableStore):
    """A store whose commit number ``n`` first waits for ``before[n]``, and once written
    sets ``after[n]`` (the steps of one timer's run interleaved with the group's sender)."""

    def __init__(self) -> None:
        super().__init__()
        self.before: dict[int, asyncio.Event] = {}
        self.after: dict[int, asyncio.Event] = {}

    async def commit(self, *args: Any, **kwargs: Any) -> list[int]:
        n = self.commits + 1
        if n in self.before:
            await self.before[n].wait()
        try:
            return await super().commit(*args, **kwargs)
        finally:
            if n in self.after:
                self.after[n].set()


@pytest.mark.parametrize("held", ["earlier", "alice"], ids=["an-earlier-notice", "alice-s-own"])
async def test_a_sender_already_under_way_tells_each_refusal_once(held: str) -> None:
    """rev47: the group's sender, held from the top-ups' first step on, may be under way
    with an earlier step's messages queued before it: its outbox read after the first
    top-up's step, holding Alice's notice, its post held by the platform (a 429) while
    Bob's step replaces that notice with Alice's and Bob's. Held on an earlier notice,
    Alice's (replaced) is not posted: one message with the three. Held on Alice's own (in
    flight), it is not replaced: Bob's and Carol's follow in one. The old code posted
    Alice's, then the three: Alice's refusal twice."""
    store, clock = Staged(), Clock()
    service, presenter, t = await refused_at_the_hand_end(store, clock)
    rt = service.rt
    started, in_post, free = asyncio.Event(), asyncio.Event(), asyncio.Event()
    early = "an earlier notice"
    rt.send_later(t, started.wait)  # (the sender busy with a write before the step below)
    async with t.lock, rt.transition(t):
        t.owe("post", Screen(early))
    base = store.commits
    store.after[base + 2] = started  # Alice's refusal committed: the sender reads the outbox
    store.before[base + 3] = in_post  # Bob's buy-in tried once the sender is in its post
    store.after[base + 4] = free  # Bob's refusal committed: the platform takes the post
    posted = len(presenter.posts)
    post = presenter.post

    async def slow_post(chat_id: str, text: str, ref: str | None = None) -> bool:
        if not in_post.is_set() and text == (refused("Alice") if held == "alice" else early):
            in_post.set()
            await free.wait()
        return await post(chat_id, text, ref)

    presenter.post = slow_post  # type: ignore[method-assign]
    clock.now += DELAY
    await service.run_due()
    await rt.settled(t)
    told = [text for _chat, text in presenter.posts[posted:] if "top-up" in text]
    if held == "earlier":
        assert told == [refused("Alice", "Bob", "Carol")]
    else:
        assert told == [refused("Alice"), refused("Bob", "Carol")]
    assert presenter.posts[posted][1] == early
    assert t.hand is not None and t.hand_no == 3
    await service.stop()
