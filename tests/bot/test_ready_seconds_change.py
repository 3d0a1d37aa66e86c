"""An admin changes ``ready_seconds`` while a ready timer runs (R8.2): the running timer used to
keep the old length (the group's countdown too), so a lowered value left the table waiting the
old minute and a raised one stood the unready up early. A running timer follows the new value,
counted from when it started; the group's message shows the time left that follows. In-memory
store, a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from typing import Any

from bot.model import Phase
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_ready_window import DAVE, carol_joins_mid_hand, window
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP


def _timer(seconds: int) -> str:
    return tr("en", "lobby.ready_timer", seconds=seconds)


async def _lobby_timer_runs(service: Any) -> Any:
    """Alice, Bob and Carol sit down at a 3-seat table; Alice and Bob press Ready, Carol
    does not: the lobby's 60 s ready timer runs."""
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BOB):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.phase is Phase.LOBBY and t.hand is None
    return t


async def test_r8_2_a_raised_ready_seconds_lengthens_the_running_lobby_timer(env: Any) -> None:
    """60 s running, 10 s gone: the admin sets 120. The timer ends 120 s after it started
    (110 s left, shown so), not at the old 60 s: Carol is still seated then."""
    service, presenter, store, clock = env
    t = await _lobby_timer_runs(service)
    start = clock.now
    assert t.ready_deadline == start + 60
    assert _timer(60) in presenter.last_table(GROUP.chat_id).text
    clock.now += 10
    assert not (await service.settings(GROUP, ALICE, True, ["ready_seconds", "120"])).alert
    assert t.ready_deadline == start + 120
    assert _timer(110) in presenter.last_table(GROUP.chat_id).text
    clock.now = start + 60
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is not None and t.hand is None
    clock.now = start + 120
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None  # stood up at the new end, no kush taken
    assert t.hand is not None and t.hand_no == 1
    assert await check_store(store) == []


async def test_r8_2_a_lowered_ready_seconds_shortens_the_running_lobby_timer(env: Any) -> None:
    """60 s running, 10 s gone: the admin sets 30 (20 s left, shown so); 30 s after it
    started the hand is dealt without Carol, not at the old 60 s."""
    service, presenter, store, clock = env
    t = await _lobby_timer_runs(service)
    start = clock.now
    clock.now += 10
    assert not (await service.settings(GROUP, ALICE, True, ["ready_seconds", "30"])).alert
    assert t.ready_deadline == start + 30
    assert _timer(20) in presenter.last_table(GROUP.chat_id).text
    clock.now = start + 29
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is not None and t.hand is None
    clock.now = start + 30
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None and t.hand is not None
    assert await check_store(store) == []


async def test_r8_2_ready_seconds_lowered_below_the_time_gone_ends_the_timer_now(
    env: Any,
) -> None:
    """Lowered below the time already gone (5 s after 40): the timer has run out, Carol is
    stood up (no kush taken) and the hand dealt."""
    service, presenter, store, clock = env
    t = await _lobby_timer_runs(service)
    clock.now += 40
    assert not (await service.settings(GROUP, ALICE, True, ["ready_seconds", "5"])).alert
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None and t.hand is not None and t.hand_no == 1
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert await check_store(store) == []


async def test_r8_2_a_late_joiners_window_follows_a_changed_ready_seconds(env: Any) -> None:
    """Carol sat down during hand 1 (60 s to press Ready); 10 s later the admin sets 20 (the
    table takes it from the next match, her window at once): she has 10 s left, the hand's
    group message says so, and she is stood up 20 s after she sat down."""
    service, presenter, store, clock = env
    t = await carol_joins_mid_hand(service, presenter)
    start = clock.now
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready_by == start + 60
    clock.now += 10
    assert not (await service.settings(GROUP, ALICE, True, ["ready_seconds", "20"])).alert
    assert t.options.ready_seconds == 60  # the hand being played keeps its options
    assert carol.ready_by == start + 20
    assert window("Carol", 10) in presenter.last_table(GROUP.chat_id).text
    clock.now = start + 19
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is not None
    clock.now = start + 20
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None and t.hand_no == 1
    assert not (await service.join(GROUP, DAVE)).alert  # the seat is free again
    assert await check_store(store) == []
