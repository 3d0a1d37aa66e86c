"""Liveness holes found by a break-it round (brk39's leftovers): a seated player who never
bought in held the seat, and with two computer players the table, for good by alternating
/sitout and /back (R8.2: the time to press Ready stopped while they sat out and /back
started it afresh, which also moved the idle close, R8.2a, away). In-memory store, a
hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from dataclasses import replace

from bot.model import Phase
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP
from tests.bot.test_tournament_service import PLAYERS as TOUR_PLAYERS
from tests.bot.test_tournament_service import (
    configure,
    open_and_register,
    play_to_the_end,
    restarted,
)
from tests.bot.test_tournament_service import new_service as tour_service
from tests.bot.test_transitions import player_balance


async def test_r8_2_an_unready_player_sitting_out_at_the_deal_keeps_the_lobby_time(env) -> None:  # type: ignore[no-untyped-def]
    """Carol sits down and sits out without pressing Ready; Alice and Bob press it: the hand
    is dealt at once (the deal does not wait for a player sitting out), and Carol has the
    ready timer's ``ready_seconds`` to press Ready, sitting out or not. She alternates
    /sitout and /back; 60 s after the deal she is stood up, no kush taken."""
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.sit_out(GROUP, CAROL)).alert
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand_no == 1
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready_by == clock.now + 60
    assert t.ready_windows_end() == clock.now + 60
    for _ in range(2):
        clock.now += 10
        assert (await service.back(GROUP, CAROL)).text == tr("en", "reply.back_not_ready")
        clock.now += 10
        await service.run_due()
        assert not (await service.sit_out(GROUP, CAROL)).alert
    clock.now += 19
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is not None
    clock.now += 1
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None  # 60 s after the deal, sitting out
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2_r8_2a_sitout_and_back_by_computer_players_hold_no_seat_nor_table() -> None:
    """Two computer players are Ready, Bob sits down and never presses Ready: the ready timer
    runs (R8.2). Bob alternated /sitout (the timer stopped: nobody left to wait for) and
    /back (it started afresh) every 20 s: he kept the table's last seat, and the running
    timer kept the idle close (R8.2a) away, for good. Now the timer runs on while he sits
    out and stands him up at its end; the table, with computer players alone, closes
    ``idle_close_seconds`` after it opened."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    opened = clock.now
    for level in ("easy", "normal"):
        assert not (await service.add_bot(GROUP, ALICE, True, level)).alert
    assert not (await service.join(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline == clock.now + 60
    stood_up_at = None
    while clock.now < opened + 1900:
        clock.now += 10
        await service.run_due()
        if service.table_in(GROUP) is None:
            break
        if t.seat_of(BOB.user_id) is None:
            stood_up_at = stood_up_at or clock.now
            continue
        seat = t.seat_of(BOB.user_id)
        assert seat is not None
        if seat.sitting_out:
            await service.back(GROUP, BOB)
        else:
            await service.sit_out(GROUP, BOB)
        assert t.phase is Phase.LOBBY and t.ready_deadline == opened + 60
    assert stood_up_at == opened + 60
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Bob")) in presenter.posts
    assert service.table_in(GROUP) is None and clock.now == opened + 1800  # the idle close
    assert await check_store(store) == []


async def test_r8_7_a_tournament_restarted_takes_the_label_language_pictures_it_missed() -> None:
    """A running tournament; while the bot is down an admin's change of the kush label, the
    group's language and pictures is saved (the change reached no live table). Restarted,
    the tournament table kept the old ones until the next settings change; a cash table
    took them at once (:func:`bot.service.settings.reconcile`). Now the tournament takes
    them at the restart too, and still keeps the options and buy-in it opened with (R8.7)."""
    service, _presenter, store, clock = tour_service(next_hand_delay=0)
    # 30 chips and 1-minute levels: the tournament played to its end after the restart
    # takes a few hands (at the default chips it took some 130 s, loaded)
    await configure(service, tournament_chips="30", level_minutes="1")
    await open_and_register(service, TOUR_PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    assert (t.lang, t.pictures) == ("en", True)
    options, buy_in = t.options, t.min_buy_in
    await service.stop()
    community = await store.community(GROUP.platform, GROUP.community_id)
    await store.change_settings(
        community.id,
        lambda s: replace(
            s, kush_label="1 kush = 10 RUB", language="ru", pictures=False, min_buy_in=50
        ),
    )
    service2, presenter2 = await restarted(store, clock)
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.tournament is not None and t2.hand is not None
    assert (t2.label, t2.lang, t2.pictures) == ("1 kush = 10 RUB", "ru", False)
    assert {s.lang for s in t2.seats.values()} == {"ru"}
    assert (t2.options, t2.min_buy_in) == (options, buy_in)
    assert t2.pending_options is None and t2.pending_buy_in is None
    assert "фишек за очко" in presenter2.last_table(GROUP.chat_id).text
    await play_to_the_end(service2, presenter2, clock)
    assert not [p for p in presenter2.pictures if p[0] == GROUP.chat_id]
    assert await check_store(store) == []
