"""The idle close (R8.2a) must not close a table whose deal is already under way in the
lobby: two players pressed Ready and the lobby counts the ready timer down (R8.2), or the
lobby's top-up window runs before a deal. The table closed "no hand for 30 minutes" while its
message said "The hand starts in 40 seconds" (and with ``idle_close_seconds`` below
``ready_seconds`` every table with an unready third player closed instead of dealing).
In-memory store, a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from dataclasses import replace

from bot.model import Phase
from bot.service import TableService
from bot.service.dealing import TOP_UP_SECONDS
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, seated
from tests.bot.test_topup import bob_loses_the_first_hand
from tests.bot.test_transitions import player_balance, stacked_decks


async def test_r8_2a_a_running_ready_timer_deals_instead_of_the_idle_close(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    clock.now += 1780  # 20 s before the idle close, two press Ready: the ready timer starts
    await service.run_due()
    assert not (await service.ready(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline == clock.now + 60
    assert "⏳ The hand starts in 60 seconds" in presenter.last_table(GROUP.chat_id).text
    clock.now += 20  # the idle close's time: the table stays, the timer runs on
    await service.run_due()
    assert service.table_in(GROUP) is t and t.hand is None and t.phase is Phase.LOBBY
    clock.now += 40  # the ready timer's end: Carol stood up, the hand dealt
    await service.run_due()
    assert service.table_in(GROUP) is t and t.hand is not None and t.hand_no == 1
    assert t.seat_of(CAROL.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert await player_balance(store, ALICE) == await player_balance(store, BOB) == 800
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2a_an_idle_close_shorter_than_the_ready_timer_lets_a_hand_start(env) -> None:  # type: ignore[no-untyped-def]
    """``idle_close_seconds`` 300 and ``ready_seconds`` 600 (saved by an older version: now
    refused, idle_close_seconds must be more than ready_seconds): a third player who never
    presses Ready had the table closed 300 s after it opened, every time."""
    service, _presenter, store, clock = env
    community = await store.community(GROUP.platform, GROUP.community_id)
    options = {"idle_close_seconds": 300, "ready_seconds": 600}
    await store.change_settings(community.id, lambda s: replace(s, options=options))
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None
    clock.now += 300
    await service.run_due()
    assert service.table_in(GROUP) is t and t.hand is None
    clock.now += 300
    await service.run_due()
    assert t.hand is not None and t.hand_no == 1 and t.seat_of(CAROL.user_id) is None
    assert await check_store(store) == []


async def test_r8_2a_a_hand_longer_than_the_idle_close_leaves_the_top_up_window_its_time() -> None:
    """``idle_close_seconds`` 300; the first hand takes longer, and Bob loses his whole stack
    heads-up: the lobby offers him 20 s to top up (R8.2). The table closed at once instead,
    counted from the deal; now Bob tops up within the window and the next hand is dealt."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, next_hand_delay=5, timers=False, deck_source=stacked_decks()
    )
    presenter = FakePresenter()
    service.register(presenter)
    for name, value in (
        ("kush_per_point", "100"),
        ("idle_close_seconds", "300"),
        ("hand_seconds", "3600"),
    ):
        assert not (await service.settings(GROUP, ALICE, True, [name, value])).alert
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    clock.now += 310  # the first player to act thinks for 310 s
    await bob_loses_the_first_hand(service, presenter, t)
    assert t.hand is None and t.top_up_deadline == clock.now + TOP_UP_SECONDS
    clock.now += 10
    await service.run_due()
    assert service.table_in(GROUP) is t and t.seat_of(BOB.user_id) is not None
    reply = await service.top_up(GROUP, BOB, "")
    assert not reply.alert, reply.text
    await service.run_due()
    clock.now += 10
    await service.run_due()
    assert service.table_in(GROUP) is t and t.hand is not None and t.hand_no == 2
    assert await check_store(store) == []
