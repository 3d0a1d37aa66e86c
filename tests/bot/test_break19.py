"""Tournaments (R8.7) and liveness (R8.2, R8.2a) off the happy path, found by a "break-it"
round (brk19) and checked through the table service."""

from __future__ import annotations

import pytest

from bot.model import Actor, LiveTable
from bot.service import TableService
from bot.service.dealing import TOP_UP_SECONDS
from bot.service.showdown import ABANDONED_HANDS
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now, press_auto_and_confirm
from tests.bot.test_topup import a_hand_at_100_a_point, bob_loses_the_first_hand
from tests.bot.test_tournament_service import (
    PLAYERS,
    a_chinese_tournament_started,
    configure,
    new_service,
    two_started,
)
from tests.bot.test_transitions import player_balance

DAN = Actor("telegram", "4", "Dan", "en")


async def ready_timer_ran_out(service: TableService, clock: Clock) -> LiveTable:
    """A table opened by Alice; Alice, Bob and Carol seated, Alice and Bob ready, Carol not;
    the clock at the end of the lobby's ready timer (R8.2), which has not fired."""
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline is not None
    clock.now = t.ready_deadline
    return t


async def test_r7_1_r8_7_a_chinese_tournament_leaver_between_hands_leaves_the_game_score() -> None:
    """A Chinese Poker tournament's game to 51 is under way (R7.1) when Carol leaves between
    two hands (R8.7: knocked out, her chips out of play). The score line of the table message
    kept her points under her seat number, "Game to 51: Alice 13 · Bob 9 · #2 2". Her leave
    now ends the game, settled on its score among the others (brk76: as a leave during the
    hand does, R7.6), and no score line names her again: neither the table message of the
    leave nor that of the next game's first hand."""
    service, presenter, store, clock = new_service(next_hand_delay=30)
    await configure(service, game="chinese", target_points="51")
    await a_chinese_tournament_started(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    by_id = {a.user_id: a for a in PLAYERS}
    while t.hand is not None:  # the first hand, played out; its reveal runs on its timer
        if t.hand.to_act:
            acting = by_id[t.seats[t.hand.to_act[0]].user_id]
            await press_auto_and_confirm(service, presenter, acting)
        else:
            clock.now += 3
            await service.run_due()
    game = t.chinese
    assert game is not None and not game.over and set(game.totals) == {0, 1, 2}
    assert not (await leave_now(service, GROUP, CAROL)).alert
    # brk76: her leaving ends the game (R7.6), settled among the players still in; the table
    # message names no seat of hers ("#2") in a score line, now or in the next game
    assert sorted(t.tournament.chips) == [0, 1] and t.chinese is None
    shown = presenter.last_table(GROUP.chat_id).text
    assert "#2" not in shown and "🎯" not in shown, shown
    clock.now += 31  # the next hand: its message too
    await service.run_due()
    assert t.hand is not None and t.shown_no == 2
    assert t.chinese is not None and t.chinese.totals == {}
    shown = presenter.last_table(GROUP.chat_id).text
    assert "#2" not in shown and "Carol" not in shown, shown
    assert await check_store(store) == []


async def test_r8_2_a_join_after_the_ready_timer_ran_out_sits_down_after_its_step(env) -> None:  # type: ignore[no-untyped-def]
    """Classic OFC, four seats: Alice and Bob are ready, Carol is not; the ready timer runs
    out (R8.2) and, before the table's timer fired (a loaded bot), Dan sits down. He was
    seated in the lobby, told "Press Ready to buy in", stood up with Carol a moment later by
    the timer's step (his Ready in between: "too late"), never having had a second. The
    timer's step is made first: Carol is stood up, the hand dealt to Alice and Bob, and Dan
    sits down as one seated during a hand, with the whole ``ready_seconds`` to press Ready."""
    service, presenter, store, clock = env
    await configure(service, game="ofc")
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline == clock.now + 60
    clock.now += 60
    reply = await service.join(GROUP, DAN)
    assert not reply.alert, reply.text
    assert t.seat_of(CAROL.user_id) is None  # the timer's step came first
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert t.hand is not None and t.hand_no == 1 and len(t.hand.order) == 2
    dan = t.seat_of(DAN.user_id)
    assert dan is not None and not dan.ready and dan.ready_by == clock.now + 60
    assert reply.text == tr("en", "reply.joined_mid_hand", seat=dan.seat + 1, seconds=60)
    clock.now += 30
    await service.run_due()
    reply = await service.ready(GROUP, DAN)  # within his time: bought in, dealt in next
    assert not reply.alert and reply.text == tr("en", "reply.ready", amount=200, label="kush")
    assert await player_balance(store, DAN) == 800
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2_r8_6_back_after_the_ready_timer_ran_out_follows_its_step(env) -> None:  # type: ignore[no-untyped-def]
    """Classic OFC: Alice and Bob are ready, Carol is not, Dan sits out (R8.6, never bought
    in). The ready timer runs out (R8.2) and, before the table's timer fired, Dan types
    /back. The timer's step is made first: Carol and Dan, who never pressed Ready, are stood
    up (sitting out keeps only a bought-in player's seat), the hand is dealt to Alice and
    Bob, and Dan is told "too late" (it told him "Welcome back: press Ready", with
    ``ready_seconds`` anew: /sitout and /back held a seat for good)."""
    service, presenter, store, clock = env
    await configure(service, game="ofc")
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL, DAN):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.sit_out(GROUP, DAN)).alert
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline == clock.now + 60
    clock.now += 60
    reply = await service.back(GROUP, DAN)
    assert reply.alert and reply.text == tr("en", "reply.ready_too_late")
    assert t.hand is not None and t.hand_no == 1 and len(t.hand.order) == 2
    assert t.seat_of(CAROL.user_id) is None and t.seat_of(DAN.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol, Dan")) in presenter.posts
    assert await check_store(store) == []


async def test_r8_2_an_unready_sitout_after_the_ready_timer_ran_out_is_too_late(env) -> None:  # type: ignore[no-untyped-def]
    """Alice and Bob are ready, Carol is not; the ready timer runs out (R8.2) and, before the
    table's timer fired, Carol types /sitout: she kept her seat, sitting out, where the timer
    stands her up. Now she is answered "too late", stood up as the timer stands her up (no
    kush taken), and the hand is dealt to Alice and Bob."""
    service, presenter, store, clock = env
    t = await ready_timer_ran_out(service, clock)
    reply = await service.sit_out(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "reply.ready_too_late")
    assert t.seat_of(CAROL.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert t.hand is not None and len(t.hand.order) == 2
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_7_players_sharing_a_place_are_listed_by_seat_in_the_final_standings() -> None:
    """A Chinese Poker tournament of three where only Alice plays: Bob and Carol time out
    every hand (R8.7: played for them, R7.7: fouled), and one game knocks both out with the
    same chips before it, so they share place 2 (R8.7). The final standings listed Carol
    (seat 3) above Bob (seat 2), in the order the core records knock-outs; they list a
    shared place by seat, as the core's standings and a cancel's list do."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="chinese", tournament_buy_in="100")
    await a_chinese_tournament_started(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    for _ in range(500):
        if service.table_in(GROUP) is None:
            break
        hand = t.hand
        if hand and hand.to_act and t.seats[t.owner(hand.to_act[0])].user_id == ALICE.user_id:
            await press_auto_and_confirm(service, presenter, ALICE)
            continue
        clock.now += 11
        await service.run_due()
    tour = t.tournament
    assert service.table_in(GROUP) is None and tour.finished is not None
    assert tour.places == {0: 1, 1: 2, 2: 2}
    lines = presenter.last_table(GROUP.chat_id).text.splitlines()
    assert lines[1:] == ["1. Alice — 300 kush", "2. Bob — 0 kush", "2. Carol — 0 kush"], lines
    assert [await player_balance(store, a) for a in PLAYERS] == [1200, 900, 900]
    assert await check_store(store) == []


@pytest.mark.parametrize("where", ["lobby", "between_hands"])
async def test_r8_2_r8_6_a_busted_sitout_after_the_top_up_offer_ran_out_is_too_late(
    where: str,
) -> None:
    """R8.2: Bob loses his whole stack and is offered the top-up with 20 s for it (heads-up
    in the lobby's window, or before the next deal once Carol sits down with Alice). At
    20 s, before the table's timer fired, he types /sitout: he sat out with 0 kush and kept
    the seat the timer frees (R8.6 keeps a seat sitting out), "You sit out from the next
    hand". Now he is told it is too late, stood up as the timer stands him up."""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    assert t.hand is None and t.top_up_deadline == clock.now + TOP_UP_SECONDS
    if where == "between_hands":
        await service.join(GROUP, CAROL)
        await service.ready(GROUP, CAROL)  # the deal waits for the end of Bob's window
        assert t.hand is None and t.next_hand_at == clock.now + TOP_UP_SECONDS
    clock.now += TOP_UP_SECONDS
    reply = await service.sit_out(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "reply.topup_too_late")  # (Bob reads Russian)
    assert t.seat_of(BOB.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
    assert await player_balance(store, BOB) == 800
    if where == "between_hands":
        assert t.hand is not None and sorted(t.owner(s) for s in t.hand.order) == [0, 2]
    seq = t.seq
    await service.run_due()  # the timer, firing now, finds nothing more to do
    assert t.seq == seq
    assert await check_store(store) == []


async def test_r8_2a_r8_7_an_idle_closed_tournament_tells_each_registrant_in_private() -> None:
    """A tournament that closes itself is told only in the group, unlike an admin's close
    (each registrant told in private what the pool paid them): Alice and Bob register and
    nobody presses Start; after ``idle_close_seconds`` it is cancelled (R8.2a, R8.7). Each is
    now told in private that it was cancelled and their buy-in went back, in their own
    language (Bob reads Russian), once."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    t = service.table_in(GROUP)
    assert t is not None
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    clock.now += t.options.idle_close_seconds
    await service.run_due()
    await service.rt.settled(t)
    assert service.table_in(GROUP) is None
    for actor, lang in ((ALICE, "en"), (BOB, "ru")):
        notice = (
            tr(lang, "private.idle_cancel", table=t.id)
            + " "
            + tr(lang, "private.pool_paid", amount=100, label="kush")
        )
        assert [s.text for s in presenter.privates[actor.user_id]] == [notice]
    assert tr("en", "private.idle_cancel", table=1) + " " + tr(
        "en", "private.pool_paid", amount=100, label="kush"
    ) == (
        "Tournament #1 was cancelled: no hand was dealt for too long."
        " 100 kush from its pool went to your balance."
    )
    assert [await player_balance(store, a) for a in (ALICE, BOB)] == [1000, 1000]
    assert await check_store(store) == []


async def test_r8_7_a_tournament_nobody_plays_tells_each_player_in_private() -> None:
    """Alice and Bob walk away from their heads-up tournament: after ABANDONED_HANDS hands
    that nobody played it is stopped and every buy-in goes back (R8.7). The players, away,
    read no group, where alone it was said: each is told in private, once."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, tournament_buy_in="100")
    t = await two_started(service, presenter, "pineapple")
    for _ in range(500):
        if service.table_in(GROUP) is None:
            break
        clock.now += 11
        await service.run_due()
    await service.rt.settled(t)
    assert service.table_in(GROUP) is None and t.absent_hands == ABANDONED_HANDS
    for actor, lang in ((ALICE, "en"), (BOB, "ru")):
        notice = (
            tr(lang, "private.abandoned_cancel", table=t.id)
            + " "
            + tr(lang, "private.pool_paid", amount=100, label="kush")
        )
        sent = [s.text for s in presenter.privates[actor.user_id]]
        assert sent.count(notice) == 1, sent
    assert [await player_balance(store, a) for a in (ALICE, BOB)] == [1000, 1000]
    assert await check_store(store) == []
