"""Break-it round 39: tournaments, the card room's lobby, computer players, top-ups and the
ready and idle timers (R8.2, R8.2a, R8.7, issue 13), each finding a test that failed on the
code before its fix."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.model import Reply
from bot.service import TableService
from bot.texts import on, tr
from storage.api import StorageError
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, dealt_at
from tests.bot.test_tournament_service import configure, open_and_register
from tests.bot.test_transitions import player_balance
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import GROUP_ID, world


async def test_r8_2_a_member_left_update_delivered_again_mid_hand_tells_the_group_once() -> None:
    """Telegram delivers a ``left_chat_member`` update again (same update_id: the bot
    stopped before confirming it) while the member's hand is being played: the member
    leaves after the hand as before, and the copy is "already done". It ran the leave
    again: the group read "👋 Bob left the group and leaves the table after this hand"
    twice."""
    service, presenter, store, _clock = service_env()
    t = await dealt_at(service, GROUP, (ALICE, BOB))
    key = "tg:-100:77"
    first = await service.member_left(GROUP, BOB, request=key)
    assert first is not None and not first.alert
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.leaving
    again = await service.member_left(GROUP, BOB, request=key)
    assert again is not None and again.text == tr("ru", "reply.request_done")
    notice = tr("en", on("telegram", "notice.left_group_later"), name="Bob")
    assert [text for _, text in presenter.posts].count(notice) == 1, presenter.posts
    assert await check_store(store) == []


async def test_r8_2_a_left_chat_member_update_redelivered_end_to_end_posts_one_notice(
    tmp_path: Path,
) -> None:
    """The same through python-telegram-bot: Bob is removed mid-hand (``left_chat_member``)
    and Telegram delivers that update again; the group is told once."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({TG_ALICE.id, TG_BOB.id})
        await w.say(TG_ALICE, "/newtable")
        for u in (TG_ALICE, TG_BOB):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        for u in (TG_ALICE, TG_BOB):
            assert not (await w.press_lobby(u, "r")).get("show_alert")
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        bob = t.seat_of(str(TG_BOB.id))
        assert bob is not None
        handled: list[Reply | None] = []  # (each delivery's answer, once handled)
        member_left = w.service.member_left

        async def counted(*args: Any, **kwargs: Any) -> Reply | None:
            handled.append(await member_left(*args, **kwargs))
            return handled[-1]

        w.service.member_left = counted  # type: ignore[method-assign]
        await w.fake.remove_member(GROUP_ID, TG_BOB, by=TG_ALICE)
        update_id = max(w.fake.pushed)
        await w.fake.wait_for(lambda: handled or None)
        await w.settle()
        assert bob.leaving
        await w.fake.redeliver(update_id)
        await w.fake.wait_for(lambda: len(handled) == 2 or None)
        await w.settle()
        assert handled[1] is not None and handled[1].text == tr("ru", "reply.request_done")
        notice = tr("en", on("telegram", "notice.left_group_later"), name=bob.name)
        assert w.group_texts().count(notice) == 1, w.group_texts()


async def test_r8_2_back_after_the_lobby_ready_timer_ran_out_says_too_late() -> None:
    """Alice and Bob press Ready, Carol sits down and does not; the lobby's ready timer (R8.2)
    runs out before the table's timer fires and Carol types /back: the timer's step is made
    first (Carol stood up, nothing taken, the hand dealt) and she is told it was too late, as
    /ready and /sitout tell her. She was told "You are not at this table." about the seat she
    had sat in a minute before."""
    service, _presenter, store, clock = service_env()
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BOB):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline is not None and t.hand is None
    clock.now = t.ready_deadline + 1  # (the table's timer has not fired yet)
    reply = await service.back(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "reply.ready_too_late"), reply.text
    assert t.seat_of(CAROL.user_id) is None and t.hand is not None
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


class _SlowRefusingStore(MemoryStore):
    """A database that, while ``refusing``, answers a table commit only after a second of the
    test's clock, with a refusal (nothing written): a step that timed out."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.clock = clock
        self.refusing = False

    async def commit(self, *args: Any, **kwargs: Any) -> list[int]:  # type: ignore[override]
        if self.refusing:
            self.clock.now += 1.0
            raise StorageError("the database did not answer in time")
        return await super().commit(*args, **kwargs)


async def test_r8_5_r8_7_a_refused_step_gives_no_time_back_to_clocks_levels_or_idle() -> None:
    """A running tournament, Alice to act; storage refuses five steps after a second each
    (a slow database: "nothing changed, try again"). The table is put back as it was when
    each step began, and those seconds passed for everyone: Alice's clock has 5 s less
    (R8.5), the levels keep their times (R8.7) and so does the idle close (R8.2a). The
    rollback read the snapshot as if the bot had been down since the step began: each
    refused step gave the acting player its seconds back and put the next level and the
    idle close that much later."""
    clock = Clock()
    store = _SlowRefusingStore(clock)
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    await configure(service, tournament_chips="1000", level_minutes="1")
    await open_and_register(service, (ALICE, BOB, CAROL))
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    started, dealt = t.tournament.started_at, t.last_deal_at
    acting = t.owner(t.hand.to_act[0])
    assert t.out_of_time(acting, clock.now + 180) and not t.out_of_time(acting, clock.now + 179)
    store.refusing = True
    for _ in range(5):
        reply = await service.leave(GROUP, CAROL)
        assert reply.alert and reply.text == tr("en", "err.storage"), reply.text
    store.refusing = False
    assert started is not None and dealt is not None and clock.now == started + 5
    assert t.tournament.started_at == started and t.last_deal_at == dealt
    assert t.tournament.next_level_at(clock.now) == started + 60
    # 2:00 and the bank 1:00 from the deal, five seconds of them gone with the refusals
    assert t.out_of_time(acting, dealt + 180) and not t.out_of_time(acting, dealt + 179)
    assert await check_store(store) == []


async def test_r8_2_back_after_a_late_joiners_time_to_press_ready_ran_out_says_too_late() -> None:
    """Carol sits down during Alice and Bob's hand and has ``ready_seconds`` to press Ready
    (R8.2); that time runs out before the table's timer fires and she types /back: she is
    stood up first (nothing taken) and told it was too late, as /ready says. She was told
    "You are not sitting out." and stood up by the timer a moment later."""
    service, _presenter, store, clock = service_env()
    t = await dealt_at(service, GROUP, (ALICE, BOB))
    assert not (await service.join(GROUP, CAROL)).alert
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready_by is not None
    clock.now = carol.ready_by + 1  # (the table's timer has not fired yet)
    reply = await service.back(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "reply.ready_too_late"), reply.text
    assert t.seat_of(CAROL.user_id) is None
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []
