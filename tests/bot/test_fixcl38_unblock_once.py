"""fixcl38: a player unblocks the bot. Telegram sends the private chat's ``my_chat_member``
update (a sign of life: :meth:`bot.service.TableService.player_seen` posts the hand again,
fix38b) and, as the player presses Restart, their /start, which posted the hand a second time:
two hand messages, the first one's buttons "out of date". Through the real
python-telegram-bot and the fake Bot API; the two told at the same time, through the service."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.model import LiveTable
from bot.screens import Screen
from bot.service import TableService
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE as ALICE_ACTOR
from tests.bot.test_service import BOB as BOB_ACTOR
from tests.bot.test_service import GROUP, dealt_at
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, World, world
from tests.waiting import until


def hands_posted(w: World, since: int, reply: str) -> int:
    """The messages the bot posted in Bob's private chat since call ``since`` but the /start's
    answer ``reply``: his hand, each time it was posted anew."""
    return sum(
        1
        for c in w.fake.calls[since:]
        if c.method == "sendMessage"
        and int(c.params.get("chat_id") or 0) == BOB.id
        and c.result is not None
        and c.params.get("text") != reply
    )


async def blocked_mid_hand(w: World) -> LiveTable:
    """Alice and Bob are dealt a hand, then Bob blocks the bot (Telegram says so)."""
    w.fake.started_users.update({ALICE.id, BOB.id})
    await seat_everyone(w, [ALICE, BOB])
    await w.settle()
    t = next(iter(w.service.tables.values()))
    seat = t.seat_of(str(BOB.id))
    assert t.hand is not None and seat is not None and seat.reachable
    await w.fake.block_bot(BOB)
    await w.fake.wait_for(lambda: not seat.reachable)
    await w.settle()
    return t


@pytest.mark.parametrize("start", ["/start", "/start t{table}"], ids=["bare", "link"])
async def test_an_unblock_then_the_start_posts_the_hand_once(tmp_path: Path, start: str) -> None:
    """The unblock reaches the bot first and posts the hand; Bob's /start (Restart, or the
    group's link) a moment later answers where his cards are and posts no second one. A
    /start after that one posts the hand anew as before (at the bottom of the chat)."""
    async with world(tmp_path) as w:
        t = await blocked_mid_hand(w)
        seat = t.seat_of(str(BOB.id))
        assert seat is not None
        since = len(w.fake.calls)
        await w.fake.block_bot(BOB, blocked=False)
        await w.fake.wait_for(lambda: seat.reachable and w.private(BOB) is not None)
        await w.settle()
        hand = w.private(BOB)
        assert hand is not None
        reply = await w.say(BOB, start.format(table=t.id), chat_id=BOB.id)
        await w.settle()
        assert reply["text"] == tr("ru", "reply.private_linked", table=t.id), reply["text"]
        assert hands_posted(w, since, reply["text"]) == 1
        assert w.private(BOB) == hand  # (the one the unblock posted)
        since = len(w.fake.calls)
        again = await w.say(BOB, start.format(table=t.id), chat_id=BOB.id)
        await w.settle()
        assert hands_posted(w, since, again["text"]) == 1
        await play_hand(w, [ALICE, BOB])  # he plays on from his hand message


@dataclass
class GatedPresenter(FakePresenter):
    """Telegram's quiet rule (:func:`bot.service.runtime.quiet_until_seen`); a private write
    waits for ``gate`` when one is set (Telegram slow to answer)."""

    quiet_until_seen: bool = True
    gate: asyncio.Event | None = None
    writing: int = 0  #: private writes begun

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        self.writing += 1
        if self.gate is not None:
            await self.gate.wait()
        return await super().show_private(user_id, screen, ref, answered)


async def test_an_unblock_told_while_the_start_posts_the_hand_posts_no_second() -> None:
    """Telegram delivers the unblock and the /start together, each handled at once: the
    /start's post of Bob's hand is on its way (he is not reachable yet) when the unblock is
    told: it waits for that post, which made him reachable, and posts no second one."""
    service = TableService(
        MemoryStore(), clock=Clock(), rng=random.Random(5), next_hand_delay=0, timers=False
    )
    presenter = GatedPresenter(blocked={BOB_ACTOR.user_id})
    service.register(presenter)
    t = await dealt_at(service, GROUP, (ALICE_ACTOR, BOB_ACTOR))
    await service.rt.drain()
    seat = t.seat_of(BOB_ACTOR.user_id)
    assert seat is not None and not seat.reachable and BOB_ACTOR.user_id not in presenter.privates
    presenter.blocked.clear()  # Bob unblocks the bot and presses Restart
    presenter.gate = asyncio.Event()
    begun = presenter.writing
    start = asyncio.create_task(service.private_start(BOB_ACTOR, ""))
    await until(lambda: presenter.writing > begun, what="the /start's post on its way")
    seen = asyncio.create_task(service.player_seen("telegram", BOB_ACTOR.user_id))
    await asyncio.wait({seen}, timeout=0.5)  # (it used to post again at once)
    presenter.gate.set()
    await asyncio.gather(start, seen)
    await service.rt.drain()
    assert seat.reachable and len(presenter.privates[BOB_ACTOR.user_id]) == 1
    assert presenter.writing == begun + 1
