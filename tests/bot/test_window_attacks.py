"""Attacks on the timers added in the eighth session (R8.2 ready window of a late joiner,
the busted player's top-up window, R8.5 "too late"): a hostile or unlucky user, a restart,
settings changed meanwhile. In-memory store, a hand-moved clock, timers fired by
``run_due``; every scenario ends with the ledger checked."""

from __future__ import annotations

import pytest

from bot import render
from bot.model import LiveTable, Phase
from bot.presses import Arrange, PlaceCard, decode
from bot.service import TableService
from bot.service.dealing import TOP_UP_SECONDS
from bot.texts import tr
from game.board import Box
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_ready_window import carol_joins_mid_hand, window
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    leave_now,
    play_out,
    press_auto_and_confirm,
    seated,
)
from tests.bot.test_topup import a_hand_at_100_a_point, bob_loses_the_first_hand
from tests.bot.test_tournament_service import new_service as new_tournament_service
from tests.bot.test_transitions import (
    ALICE_PLAN,
    new_service,
    play_street_by_plan,
    player_balance,
    stacked_decks,
)


async def test_r8_2_a_late_joiner_is_not_stood_up_in_the_lobby_a_showdown_went_back_to(env) -> None:  # type: ignore[no-untyped-def]
    """Carol sits down during Alice and Bob's hand and has 60 s to press Ready; Bob leaves
    during the hand, so its showdown sends the table back to the lobby, with Alice alone
    ready. In the lobby the lobby's ready timer applies (R8.2: it starts when two are ready):
    Carol keeps her seat (she was stood up 60 s after joining, the lobby counting her
    down, while the lobby waited for a second ready player), and her Ready deals."""
    service, presenter, store, clock = env
    t = await carol_joins_mid_hand(service, presenter)
    assert (await leave_now(service, GROUP, BOB)).text == tr("ru", "reply.leave_after_hand")
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, ALICE)
    assert t.phase is Phase.LOBBY and t.seat_of(BOB.user_id) is None
    assert window("Carol", 60) not in presenter.last_table(GROUP.chat_id).text
    clock.now += 600
    await service.run_due()
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and not carol.ready
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) not in presenter.posts
    assert not (await service.ready(GROUP, CAROL)).alert
    assert t.hand is not None and sorted(t.hand.order) == [0, 2]
    assert await player_balance(store, CAROL) == 800
    assert await check_store(store) == []


@pytest.mark.parametrize("how", ["leaves", "not_ready_in_time"])
async def test_r8_3_a_seat_never_bought_in_standing_up_does_not_settle_the_round(how: str) -> None:
    """settle_per_round (R8.3): the first hand of a two-match round leaves its points owed.
    Carol sits down between hands (the next is due in 90 s) and leaves again, or does not
    press Ready in time: no
    stack leaves the table (she never bought in), so the round goes on, its points owed.
    (Her standing up settled the round early, "settled early as Carol leaves", a joiner
    could cut anyone's round short by sitting down and getting up.)"""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock, delay=90)
    reply = await service.settings(GROUP, ALICE, True, ["settle_per_round", "true"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.match is not None
    pending = t.match.round_pairs
    assert pending and pending[0][2] != 0
    assert not (await service.join(GROUP, CAROL)).alert
    if how == "leaves":
        reply = await service.leave(GROUP, CAROL)
        assert reply.text == tr("en", "reply.left_nothing")  # (never bought in)
    else:
        clock.now += 60
        await service.run_due()  # (the next hand is due in 90 s)
        assert t.hand is None
        assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert t.seat_of(CAROL.user_id) is None
    assert t.match.round_pairs == pending  # still owed, the round goes on
    assert all(s.stack == 200 for s in t.seats.values())
    assert not any("settled early" in text for _, text in presenter.posts)
    hands = await store.export_hands(t.id)
    assert [h["result"].get("round_end", False) for h in hands] == [False]
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


@pytest.mark.parametrize("tops_up", [False, True])
async def test_r8_2_a_third_ready_player_does_not_cut_the_lobby_top_up_window_short(
    tops_up: bool,
) -> None:
    """Heads-up at 100 kush a point, Bob loses his whole stack: the lobby gives him 20 s to
    top up (R8.2) and counts them down. 3 s later Carol sits down and presses Ready: Alice
    and Carol can play, but the deal waits for the end of Bob's window (it came at once and
    stood Bob up, "no top-up in time", 17 s before the time the lobby had shown him).
    Bob topping up within it is dealt in."""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    assert t.hand is None and t.top_up_deadline == clock.now + TOP_UP_SECONDS
    end = t.top_up_deadline
    clock.now += 3
    assert not (await service.join(GROUP, CAROL)).alert
    assert not (await service.ready(GROUP, CAROL)).alert
    assert t.hand is None and t.seat_of(BOB.user_id) is not None
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) not in presenter.posts
    clock.now += 10
    await service.run_due()
    assert t.hand is None and t.seat_of(BOB.user_id) is not None
    if tops_up:
        reply = await service.top_up(GROUP, BOB)
        assert reply.text == tr("ru", "reply.topped_up", amount=200, label="kush", stack=200)
        clock.now += 5
        await service.run_due()
        # (Alice's Fantasyland hand, R6.6: Carol joins the next match)
        assert t.hand is not None and sorted(t.hand.order) == [0, 1]
        assert await player_balance(store, BOB) == 600
    else:
        clock.now = end
        await service.run_due()
        assert t.hand is not None and 1 not in t.hand.order
        assert t.seat_of(BOB.user_id) is None
        assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
        assert await player_balance(store, BOB) == 800
    assert await check_store(store) == []


async def test_r8_2_a_lobby_snapshot_with_a_late_joiners_time_does_not_stand_her_up(env) -> None:  # type: ignore[no-untyped-def]
    """A table saved in the lobby with Carol's time to press Ready still set (the showdown
    that sent it there kept it, before that was fixed) is read back after a restart: in the
    lobby the lobby's ready timer applies (R8.2), so her old time does not stand her up."""
    service, presenter, _store, clock = env
    t = await carol_joins_mid_hand(service, presenter)
    snap = t.to_json()
    snap["phase"] = Phase.LOBBY.value
    snap["hand"] = None
    clock.now += 600
    back = LiveTable.from_json(snap, clock.now)
    carol = back.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready_by is not None  # (as saved)
    assert back.ready_window_end(carol) is None and back.ready_windows_end() is None
    # nor does the lobby message count it down
    assert window("Carol", 0) not in render.lobby_screen(back, "en", None, clock.now).text


async def bob_busted_of_three(
    next_hand_delay: float,
) -> tuple[TableService, FakePresenter, MemoryStore, Clock, LiveTable]:
    """Alice, Bob and Carol at a point worth the whole buy-in: after the first hand Bob's
    stack cannot pay a point and the next deal waits 20 s for his top-up (R8.2)."""
    service, presenter, store, clock = new_tournament_service(next_hand_delay=next_hand_delay)
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "200"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert [s.name for s in t.awaiting_top_up()] == ["Bob"]
    assert t.next_hand_at == clock.now + TOP_UP_SECONDS
    return service, presenter, store, clock, t


async def test_r8_2_a_busted_player_who_leaves_does_not_hold_the_next_deal() -> None:
    """Bob, busted, leaves 2 s into his 20 s top-up window: nobody's top-up is waited for any
    more, so the hand comes in the usual 4 s, as after a top-up (Alice and Carol waited out
    Bob's 20 s)."""
    service, _presenter, store, clock, t = await bob_busted_of_three(next_hand_delay=4)
    clock.now += 2
    assert (await service.leave(GROUP, BOB)).text == tr("ru", "reply.left_nothing")  # (stack 0)
    assert t.next_hand_at == clock.now + 4
    clock.now += 4
    await service.run_due()
    assert t.hand is not None and sorted(t.owner(s) for s in t.hand.order) == [0, 2]
    assert (await store.stacks(t.id)).keys() == {s.player_id for s in t.seats.values()}
    assert await check_store(store) == []


async def test_r8_2_a_busted_player_back_from_sit_out_keeps_the_rest_of_the_window() -> None:
    """Bob, busted, sits out 2 s into his 20 s top-up window and comes back 8 s later, told
    to top up: the deal keeps his window (it must not come 4 s after his /back and stand him
    up before he could top up), and his top-up deals him in."""
    service, _presenter, store, clock, t = await bob_busted_of_three(next_hand_delay=4)
    end = t.next_hand_at
    clock.now += 2
    assert not (await service.sit_out(GROUP, BOB)).alert
    assert t.next_hand_at == end
    clock.now += 8
    reply = await service.back(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "reply.busted_top_up", stack=0, label="kush")
    assert t.next_hand_at == end
    clock.now += 5
    await service.run_due()
    assert t.hand is None and t.seat_of(BOB.user_id) is not None
    assert not (await service.top_up(GROUP, BOB)).alert
    clock.now += 4
    await service.run_due()
    assert t.hand is not None and sorted(t.owner(s) for s in t.hand.order) == [0, 1, 2]
    assert await check_store(store) == []


async def test_r8_2_a_lower_buy_in_waits_for_the_lower_point_it_was_saved_with() -> None:
    """At 100 kush a point, Alice's first hand earns Fantasyland (R6.6: the match goes on).
    Between the hands the admins lower the point to 50, then the buy-in to 50 (each valid
    when saved: a buy-in pays at least a point). The point applies between matches, the
    buy-in between hands: Carol, sitting down for the next match, bought in at 50 while a
    point still cost 100, was "busted" at once and stood up at the Fantasyland hand's deal
    ("no top-up in time"). The buy-in waits for the point: Carol buys in at 200, can pay a
    point, and is dealt in when the match is over."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, next_hand_delay=5, timers=False, deck_source=stacked_decks()
    )
    presenter = FakePresenter()
    service.register(presenter)
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "100"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    while t.hand is not None and t.hand_no == 1:
        seat = t.hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            await play_street_by_plan(service, presenter, seat, ALICE, ALICE_PLAN)
        else:
            await press_auto_and_confirm(service, presenter, BOB)
    assert t.match is not None and t.match.fantasyland == {0: 14} and t.match.in_match
    for name, value in (("kush_per_point", "50"), ("min_buy_in", "50")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    assert t.options.kush_per_point == 100  # (from the next match)
    assert not (await service.join(GROUP, CAROL)).alert
    reply = await service.ready(GROUP, CAROL)
    assert reply.text == tr("en", "reply.ready", amount=200, label="kush")
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and not t.busted(carol)
    assert not (await service.top_up(GROUP, BOB)).alert  # (Bob lost his stack)
    clock.now += TOP_UP_SECONDS
    await service.run_due()  # the Fantasyland hand, Alice and Bob's match (R6.6)
    assert t.hand is not None and t.hand_no == 2 and sorted(t.hand.order) == [0, 1]
    assert t.seat_of(CAROL.user_id) is carol
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Carol")) not in presenter.posts
    assert await player_balance(store, CAROL) == 800
    assert await check_store(store) == []


@pytest.mark.parametrize("left", [0, 50], ids=["fails", "cut_to_the_balance"])
async def test_r8_2_a_heads_up_player_whose_queued_top_up_fails_gets_one_window(left: int) -> None:
    """Heads-up at 100 kush a point: Bob queues a top-up his balance no longer covers when
    the hand ends, and loses his whole stack. The failed top-up offers him the top-up with
    20 s for it (R8.2), and when they are over without one he is stood up and Alice waits in
    the lobby for a new opponent. (The 20 s ended in the lobby, which gave him 20 s more,
    counted down from 20 again.)"""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    assert (await service.top_up(GROUP, BOB)).text == tr(
        "ru", "reply.topup_queued_buy_in", amount=200, label="kush"
    )
    assert not (await service.grant(GROUP, ALICE, True, "Bob", str(left - 800), "k1")).alert
    await bob_loses_the_first_hand(service, presenter, t)
    await service.run_due()  # the queued top-up fails (or is cut to 50): Bob is offered it
    if left:
        said = tr("en", "lobby.topup_cut_balance", name="Bob", amount=200, added=50, label="kush")
        offer = tr("en", "showdown.below_point", name="Bob", stack=50, label="kush")
    else:
        said = tr("en", "lobby.topup_failed", name="Bob", amount=200, label="kush", have=0)
        offer = tr("en", "showdown.busted", name="Bob", label="kush")
    assert (GROUP.chat_id, f"{said}\n{offer}") in presenter.posts
    clock.now += TOP_UP_SECONDS - 1
    await service.run_due()
    assert t.seat_of(BOB.user_id) is not None
    clock.now += 1
    await service.run_due()
    assert t.seat_of(BOB.user_id) is None and t.hand is None and t.phase is Phase.LOBBY
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
    assert await player_balance(store, BOB) == left  # the stack cut to it back, or nothing
    assert await check_store(store) == []


async def test_r8_5_a_press_after_leaving_the_hand_is_not_told_the_time_ran_out(env) -> None:  # type: ignore[no-untyped-def]
    """A player who leaves during their turn has their moves made for them (R8.5) and stands
    up after the hand. A press on the hand's screen from before the Leave (a double tap, a
    second device) is refused as out of date: it said "⌛ Too late: your time ran out and the
    move was made for you", though their time had not run out."""
    service, presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    seat = hand.to_act[0]
    actor = next(a for a in (ALICE, BOB, CAROL) if t.seats[seat].user_id == a.user_id)
    old = presenter.last_private(actor.user_id)
    place = next(b.data for b in old.all_buttons() if isinstance(decode(b.data), PlaceCard))
    reply = await leave_now(service, GROUP, actor)
    assert reply.text == tr(actor.language or "en", "reply.leave_after_hand")
    assert t.hand is hand and seat not in hand.to_act  # the move was made for them
    reply = await service.press(actor, place)
    assert reply.alert and reply.text == tr(actor.language or "en", "err.stale_hand")
    assert await check_store(store) == []


async def test_arrange_with_every_card_of_the_street_placed_says_so(env) -> None:  # type: ignore[no-untyped-def]
    """Alice puts her five first-street cards in boxes herself and then presses 🪄 Arrange
    for me: there is nothing left to arrange, and the answer says so (Undo or Confirm) in her
    language. It said "The card is already there." (and held the table for the decision
    process first); her board is unchanged."""
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    seat = t.hand.to_act[0]
    actor = ALICE if t.seats[seat].user_id == ALICE.user_id else BOB
    for _ in range(5):
        screen = presenter.last_private(actor.user_id)
        placed = {c for c, _ in t.hand.pending(seat)}
        press = next(
            b.data
            for b in screen.all_buttons()
            if isinstance(p := decode(b.data), PlaceCard)
            and p.card not in placed
            and p.box is Box.BOTTOM
        )
        assert not (await service.press(actor, press)).alert
    assert t.hand.to_place(seat) == ()
    board = t.hand.board_of(seat, with_pending=True)
    arrange = next(
        b.data
        for b in presenter.last_private(actor.user_id).all_buttons()
        if isinstance(decode(b.data), Arrange)
    )
    reply = await service.press(actor, arrange)
    assert reply.alert and reply.text == tr(actor.language or "en", "err.nothing_to_arrange")
    assert tr("en", "err.nothing_to_arrange") == (
        "Every card of this street is in a box: Undo to move one, or Confirm."
    )
    assert t.hand.board_of(seat, with_pending=True) == board
