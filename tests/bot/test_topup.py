"""Top-up (R8.2, issue 16 item 5): between hands a player adds to the stack from the balance,
never past the table's maximum buy-in; a player who cannot pay a point is offered the top-up
and stood up at the next deal if they do not take it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.model import REQUESTS_KEPT, Actor, ChatRef, LiveTable, Phase
from bot.presses import TopUp, decode
from bot.service import TableService
from bot.service.dealing import TOP_UP_SECONDS
from bot.texts import tr
from game.options import RuleOptions
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    leave_now,
    press_auto_and_confirm,
    seated,
)
from tests.bot.test_tournament_service import new_service
from tests.bot.test_transitions import (
    ALICE_PLAN,
    play_street_by_plan,
    player_balance,
    stacked_decks,
)


async def test_r8_2_top_up_between_hands_up_to_the_maximum(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    reply = await service.top_up(GROUP, ALICE, "100")
    assert reply.alert and reply.text == tr("en", "reply.topup_not_ready")
    await service.ready(GROUP, ALICE)
    reply = await service.top_up(GROUP, ALICE, "100")
    assert not reply.alert and reply.text == tr(
        "en", "reply.topped_up", amount=100, label="kush", stack=300
    )
    for bad in ("900", "0", "-5", "9" * 30):
        reply = await service.top_up(GROUP, ALICE, bad)
        assert reply.alert and reply.text == tr(
            "en", "reply.topup_range", room=700, max=1000, label="kush"
        ), bad
    # not a number: that it is none ("abc": no digit at all) or how to write one ("1e3"), and
    # the range
    for bad, key in (("abc", "reply.number_none"), ("1e3", "reply.number_grouped")):
        reply = await service.top_up(GROUP, ALICE, bad)
        assert reply.alert and reply.text == tr("en", key) + "\n" + tr(
            "en", "reply.topup_range", room=700, max=1000, label="kush"
        ), bad
    reply = await service.top_up(GROUP, ALICE)  # no amount: the minimum buy-in
    assert reply.text == tr("en", "reply.topped_up", amount=200, label="kush", stack=500)
    # the lobby button does the same
    t = service.table_in(GROUP)
    assert t is not None
    button = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), TopUp)
    )
    reply = await service.press(ALICE, button, GROUP)
    assert reply.text == tr("en", "reply.topped_up", amount=200, label="kush", stack=700)
    assert await player_balance(store, ALICE) == 300
    assert (await store.stacks(t.id)) == {t.seats[0].player_id: 700}
    await service.top_up(GROUP, ALICE, "300")
    reply = await service.top_up(GROUP, ALICE, "1")
    assert reply.alert and reply.text == tr("en", "reply.topup_full", max=1000, label="kush")
    assert await player_balance(store, ALICE) == 0
    assert await check_store(store) == []


async def test_r8_2_a_top_up_during_a_hand_is_added_when_it_ends(env) -> None:  # type: ignore[no-untyped-def]
    """Asked for during the hand, a top-up moves nothing until the hand ends (R8.2); it is
    kept in the table's snapshot, a redelivered command applies once, a second replaces it,
    and it is added before the next deal."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    alice = t.seats[0]
    reply = await service.top_up(GROUP, ALICE, "50", request="tg:-100:1")
    assert not reply.alert and reply.text == tr("en", "reply.topup_queued", amount=50, label="kush")
    reply = await service.top_up(GROUP, ALICE, "50", request="tg:-100:1")
    assert reply.text == tr("en", "reply.request_done")
    reply = await service.top_up(GROUP, ALICE, "70", request="tg:-100:2")  # says it replaces
    assert reply.text == tr("en", "reply.topup_requeued", before=50, amount=70, label="kush")
    assert (alice.stack, alice.top_up) == (200, 70)
    # the same amount again (typed twice): it is the one queued, and the reply says a new
    # one replaces it (it read "queued" again, as if a second had been added beside it)
    reply = await service.top_up(GROUP, ALICE, "70", request="tg:-100:3")
    assert reply.text == (
        "Top-up of 70 kush is already queued (a new one replaces it, not adds): "
        "it is added when this hand ends."
    )
    assert tr("ru", "reply.topup_already_queued", amount=70, label="kush") == (
        "Докупка на 70 кушей уже принята (новая заменяет её, а не добавляется): "
        "она пройдёт после этой раздачи."
    )
    assert (alice.stack, alice.top_up) == (200, 70)
    assert await player_balance(store, ALICE) == 800  # nothing moved yet
    assert LiveTable.from_json(t.to_json(), 0.0).seats[0].top_up == 70  # survives a restart
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    assert t.hand is None and t.hand_no == 1  # no deal before the top-up is added
    after_hand = alice.stack
    await service.run_due()
    assert alice.stack == after_hand + 70 and alice.top_up == 0
    assert await player_balance(store, ALICE) == 730
    assert (await store.stacks(t.id))[alice.player_id] == after_hand + 70
    assert t.hand is not None and t.hand_no == 2  # then the next hand
    assert await check_store(store) == []


async def test_r8_2_a_queued_top_up_the_balance_no_longer_covers_is_cut_to_it(env) -> None:  # type: ignore[no-untyped-def]
    """A queued top-up the balance cannot cover when the hand ends is cut to what the
    balance has, as one past the table's maximum is cut to fit; the group is told, and the
    next hand is dealt (R8.2). (It was dropped: "not made, the balance has 100".)"""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.top_up(GROUP, ALICE, "300")
    assert reply.text == tr("en", "reply.topup_queued", amount=300, label="kush")
    reply = await service.grant(GROUP, BOB, True, "Alice", "-700", "k1")
    assert not reply.alert, reply.text
    reply = await service.top_up(GROUP, ALICE, "200")  # checked when asked, too: what fits
    assert reply.alert and reply.text == tr(
        "en", "reply.topup_range_balance", room=100, max=1000, label="kush"
    )
    reply = await service.top_up(GROUP, ALICE)  # the minimum buy-in, 200: the balance is short
    no_money = tr("en", "reply.topup_no_money", label="kush", need=200, have=100)
    advice = tr("en", "reply.no_money_hint_tour")  # (the daily bonus, /grant)
    assert reply.alert and reply.text == no_money + "\n" + advice
    assert t.seats[0].top_up == 300  # the queued one stays
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is t.seats[0] else BOB)
    stack = t.seats[0].stack
    await service.run_due()
    notice = tr("en", "lobby.topup_cut_balance", name="Alice", amount=300, added=100, label="kush")
    assert notice == "Alice: top-up of 300 kush cut to 100, the whole balance."
    assert (GROUP.chat_id, notice) in presenter.posts
    assert t.seats[0].stack == stack + 100 and t.seats[0].top_up == 0
    assert await player_balance(store, ALICE) == 0
    assert t.hand is not None and t.hand_no == 2
    assert await check_store(store) == []


async def a_hand_at_100_a_point() -> tuple[
    TableService, FakePresenter, MemoryStore, Clock, LiveTable
]:
    """Alice and Bob seated with their 200 buy-ins at 100 kush a point, the first hand dealt
    (stacked decks: Bob fouls it, :func:`bob_loses_the_first_hand`), the next 5 s after."""
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
    return service, presenter, store, clock, t


async def bob_loses_the_first_hand(
    service: TableService, presenter: FakePresenter, t: LiveTable
) -> None:
    """Alice plays her plan, Bob "arrange for me" (he fouls): his whole stack goes (R8.4)."""
    while t.hand is not None and t.hand_no == 1:
        seat = t.hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            await play_street_by_plan(service, presenter, seat, ALICE, ALICE_PLAN)
        else:
            await press_auto_and_confirm(service, presenter, BOB)


@pytest.mark.parametrize("how", ["takes_it", "queued", "does_not"])
async def test_r8_2_a_busted_player_is_offered_the_top_up_before_the_next_deal(
    how: str,
) -> None:
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    if how == "queued":  # asked for during the hand: added when it ends, no offer needed
        reply = await service.top_up(GROUP, BOB)
        assert reply.text == tr("ru", "reply.topup_queued_buy_in", amount=200, label="kush")
    await bob_loses_the_first_hand(service, presenter, t)
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.stack == 0  # Bob fouled: his whole stack went (R8.4)
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if s.text.startswith("🏁"))
    offer = tr("en", "showdown.busted", name="Bob", label="kush")  # the group's language
    assert t.hand is None
    if how == "queued":
        assert offer not in showdown
        clock.now += 5
        # a command that may deal comes before the timer: no deal while a top-up waits
        # (dealing first stood Bob up as busted, or failed with too few players)
        await service.join(GROUP, CAROL)
        await service.ready(GROUP, CAROL)
        assert t.hand is None and bob.top_up == 200 and t.seat_of(BOB.user_id) is bob
        await service.run_due()  # the top-up, then the deal
        assert bob.stack == 200 and await player_balance(store, BOB) == 600
        assert t.hand is not None and any(t.owner(s) == bob.seat for s in t.hand.order)
        assert await check_store(store) == []
        return
    assert offer in showdown  # one player can play: the table waits in the lobby
    if how == "takes_it":
        reply = await service.top_up(GROUP, BOB)
        assert not reply.alert, reply.text
        assert bob.stack == 200
        assert t.hand is not None and t.seat_of(BOB.user_id) is not None  # dealt in again
        assert any(t.owner(s) == bob.seat for s in t.hand.order)
    else:
        await service.join(GROUP, CAROL)
        await service.ready(GROUP, CAROL)  # the deal waits for the end of Bob's window
        assert t.hand is None and t.seat_of(BOB.user_id) is bob
        clock.now += TOP_UP_SECONDS
        await service.run_due()  # the next deal comes: Bob did not top up
        assert t.hand is not None and t.seat_of(BOB.user_id) is None
        assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
        assert await player_balance(store, BOB) == 800
    assert await check_store(store) == []


@pytest.mark.parametrize("left", [0, 50], ids=["fails", "cut_to_the_balance"])
async def test_r8_2_a_player_whose_queued_top_up_fails_gets_the_top_up_window(left: int) -> None:
    """Bob loses his whole stack with a top-up queued that his balance no longer covers when
    the hand ends. It fails (nothing left), or is cut to the 50 left, below a point: he is
    still busted: he had the next hand's 5 s to top up (a busted player at the showdown
    gets 20 s, R8.2), and the deal stood him up. He is now offered the top-up with the
    top-up's notice, and the deal waits for it."""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    assert (await service.top_up(GROUP, BOB)).text == tr(
        "ru", "reply.topup_queued_buy_in", amount=200, label="kush"
    )
    assert not (await service.grant(GROUP, ALICE, True, "Bob", str(left - 800), "k1")).alert
    await service.join(GROUP, CAROL)
    await service.ready(GROUP, CAROL)  # Alice and Carol could play the next hand
    await bob_loses_the_first_hand(service, presenter, t)
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.stack == 0 and bob.top_up == 200
    clock.now += 5
    await service.run_due()  # the queued top-up fails, or is cut to the balance
    if left:
        said = tr("en", "lobby.topup_cut_balance", name="Bob", amount=200, added=50, label="kush")
        offer = tr("en", "showdown.below_point", name="Bob", stack=50, label="kush")
    else:
        said = tr("en", "lobby.topup_failed", name="Bob", amount=200, label="kush", have=0)
        offer = tr("en", "showdown.busted", name="Bob", label="kush")
    assert (GROUP.chat_id, f"{said}\n{offer}") in presenter.posts
    bob = t.seat_of(BOB.user_id)  # (the failed step was rolled back: a new seat object)
    assert t.hand is None and bob is not None and bob.stack == left  # not dealt, not stood up
    assert await player_balance(store, BOB) == 0
    assert not (await service.grant(GROUP, ALICE, True, "Bob", "100", "k2")).alert
    assert not (await service.top_up(GROUP, BOB, "100")).alert  # what he has
    assert t.next_hand_at == clock.now + 5  # nobody else to wait for: the usual 5 s
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and any(t.owner(s) == bob.seat for s in t.hand.order)
    assert await player_balance(store, BOB) == 0
    assert await check_store(store) == []


async def test_r8_2_the_same_topup_request_applies_once(env) -> None:  # type: ignore[no-untyped-def]
    """A ``/topup`` whose platform key was applied already (a redelivered update) is answered
    "already done" and moves nothing; another key applies; the key survives a snapshot."""
    service, _presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    reply = await service.top_up(GROUP, ALICE, "100", request="tg:-1:7")
    assert reply.text == tr("en", "reply.topped_up", amount=100, label="kush", stack=300)
    reply = await service.top_up(GROUP, ALICE, "100", request="tg:-1:7")
    assert not reply.alert and reply.text == tr("en", "reply.request_done")
    t = service.table_in(GROUP)
    assert t is not None
    assert (await store.stacks(t.id)) == {t.seats[0].player_id: 300}
    assert await player_balance(store, ALICE) == 700
    reply = await service.top_up(GROUP, ALICE, "100", request="tg:-1:8")
    assert reply.text == tr("en", "reply.topped_up", amount=100, label="kush", stack=400)
    assert t.requests == ["tg:-1:7", "tg:-1:8"]
    assert LiveTable.from_json(t.to_json(), 0.0).requests == ["tg:-1:7", "tg:-1:8"]
    assert await check_store(store) == []


async def test_r8_2_a_top_up_press_delivered_twice_during_a_hand_applies_once(env) -> None:  # type: ignore[no-untyped-def]
    """Carol sits out while Alice and Bob play: her ➕ press tops up at once (she is not in
    the hand). The step did not write the table message during a hand, so its buttons kept
    their version and the same press delivered again (Telegram after a crash, a double tap)
    topped up a second time. It writes the table message anew: the same press is out of
    date, and moves nothing."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None and t.hand is not None
    assert not (await service.sit_out(GROUP, CAROL)).alert
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]].user_id
        actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == to_act)
        await press_auto_and_confirm(service, presenter, actor)
    assert t.hand is not None and t.hand_no == 2
    carol = next(s for s in t.seats.values() if s.user_id == CAROL.user_id)
    assert carol.seat not in t.hand.order
    stack, balance = carol.stack, await player_balance(store, CAROL)
    button = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), TopUp)
    )
    reply = await service.press(CAROL, button, GROUP)
    assert reply.text == tr("en", "reply.topped_up", amount=200, label="kush", stack=stack + 200)
    reply = await service.press(CAROL, button, GROUP)  # the same update again
    assert reply.alert and reply.text == tr("en", "err.stale")
    assert carol.stack == stack + 200
    assert await player_balance(store, CAROL) == balance - 200
    assert await check_store(store) == []


def test_a_table_remembers_only_the_last_requests() -> None:
    """:data:`REQUESTS_KEPT` keys at most, the oldest forgotten first; ``None`` is no key."""
    t = LiveTable(1, "telegram", 1, "-1", "-1", "en", RuleOptions(), 200, "kush")
    for i in range(REQUESTS_KEPT + 5):
        t.remember(f"k{i}")
    t.remember(None)
    assert len(t.requests) == REQUESTS_KEPT and t.requests[0] == "k5"
    assert t.applied(f"k{REQUESTS_KEPT + 4}") and not t.applied("k4") and not t.applied(None)


async def test_r8_2_the_lobby_says_a_ready_stack_below_one_point_must_top_up(env) -> None:  # type: ignore[no-untyped-def]
    """A point is worth the whole buy-in (200): after the first hand one of the two has a
    stack below a point and the table goes back to the lobby. Its message showed that
    player "ready ✅" under "The hand starts when everyone seated is ready": both were
    ready and nothing ever started. The seat now says the stack is below one point and how
    to top up; the top-up deals the next hand."""
    service, presenter, store, _clock = env
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "200"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    short = next(s for s in t.seats.values() if s.stack < 200)
    assert t.phase.value == "lobby" and short.ready
    lobby = presenter.last_table(GROUP.chat_id).text
    ready = tr("en", "lobby.ready", stack=short.stack)
    assert tr("en", "lobby.seat", n=short.seat + 1, name=short.name, status=ready) not in lobby
    line = tr("en", "lobby.seat", n=short.seat + 1, name=short.name, status=tr(
        "en", "lobby.needs_top_up", stack=short.stack, label="kush"))  # fmt: skip
    assert line in lobby.splitlines(), lobby
    reply = await service.top_up(GROUP, by_id[short.user_id])
    assert not reply.alert, reply.text
    assert t.hand is not None and t.hand_no == 2
    assert await check_store(store) == []


async def test_r8_2_a_player_leaving_after_the_hand_is_told_a_top_up_is_not_taken(env) -> None:  # type: ignore[no-untyped-def]
    """A player who asked to leave (their stack goes back when the hand ends, R8.2) and then
    asks for a top-up is told they are leaving, and nothing is queued: they were told "queued:
    added when this hand ends", and then it never was (they stood up with the showdown)."""
    service, _presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await leave_now(service, GROUP, ALICE)
    assert reply.text == tr("en", "reply.leave_after_hand")
    reply = await service.top_up(GROUP, ALICE, "50")
    assert reply.alert and reply.text == tr("en", "reply.topup_leaving")
    assert t.seats[0].top_up == 0
    assert await player_balance(store, ALICE) == 800


@pytest.mark.parametrize("tops_up", [False, True])
async def test_r8_2_a_busted_player_who_walked_away_does_not_hold_up_the_table(
    tops_up: bool,
) -> None:
    """Bob loses his whole stack and walks away; Alice leaves too. Carol sits down and
    presses Ready: with Bob's top-up the two of them could play, so Bob gets the top-up
    window (R8.2, shown in the lobby) and is stood up when it ends, his seat free for the next
    player. (Carol waited with no timer and a lobby saying the hand starts when everyone is
    ready, which both were, until the idle close half an hour later; a table full of busted
    seats took nobody new.) Bob topping up in the window deals the hand."""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.stack == 0 and t.hand is None
    assert (await service.leave(GROUP, ALICE)).text == tr(
        "en", "reply.left", amount=400, label="kush"
    )
    await service.join(GROUP, CAROL)
    assert not (await service.ready(GROUP, CAROL)).alert
    assert t.hand is None and t.top_up_deadline == clock.now + TOP_UP_SECONDS
    lobby = presenter.last_table(GROUP.chat_id).text
    assert tr("en", "lobby.top_up_timer", seconds=20) in lobby.splitlines(), lobby
    clock.now += TOP_UP_SECONDS - 1
    await service.run_due()
    assert t.seat_of(BOB.user_id) is bob and t.hand is None
    if tops_up:
        reply = await service.top_up(GROUP, BOB)
        assert reply.text == tr("ru", "reply.topped_up", amount=200, label="kush", stack=200)
        assert t.hand is not None and sorted(t.hand.order) == [0, 1]
        assert t.top_up_deadline is None
        assert await player_balance(store, BOB) == 600
    else:
        clock.now += 1
        await service.run_due()
        assert t.seat_of(BOB.user_id) is None and t.hand is None and t.top_up_deadline is None
        stood = tr("en", "lobby.busted_stood_up", names="Bob")
        passed = tr("en", "bot.opener_passed", name="Carol")  # (Alice's part: Bob's, then
        # Carol's, alone now, said in the notice)
        assert (GROUP.chat_id, f"{stood}\n{passed}") in presenter.posts
        assert presenter.last_table(GROUP.chat_id).text.endswith(tr("en", "lobby.hint"))
        assert await player_balance(store, BOB) == 800
        assert await player_balance(store, CAROL) == 800
        assert await store.stacks(t.id) == {t.seats[0].player_id: 200}
    assert await check_store(store) == []


async def test_r8_2_a_busted_heads_up_player_gets_the_top_up_window_at_the_showdown() -> None:
    """Heads-up, Bob loses his whole stack: the table goes back to the lobby, and the
    window to top up starts with the showdown that offered it (R8.2); Bob, gone, is stood up
    when it ends and Alice's seat waits for a new opponent. (Bob held the seat, shown ready,
    until the idle close, and the lobby said the hand starts when everyone is ready.)"""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    assert t.hand is None and t.top_up_deadline == clock.now + TOP_UP_SECONDS
    lobby = presenter.last_table(GROUP.chat_id).text
    assert tr("en", "lobby.top_up_timer", seconds=20) in lobby.splitlines(), lobby
    clock.now += TOP_UP_SECONDS
    await service.run_due()
    assert t.seat_of(BOB.user_id) is None and t.seat_of(ALICE.user_id) is not None
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
    assert await player_balance(store, BOB) == 800
    assert await check_store(store) == []


async def test_r8_2_the_top_up_window_does_not_run_while_the_bot_is_down() -> None:
    """Three players at a point worth the whole buy-in: after the first hand Bob's stack
    cannot pay a point and the next deal waits 20 s for his top-up (R8.2). The bot stops
    5 s into that window and is back 10 minutes later: Bob still has his 15 s (as the ready
    timer and the players' clocks, the downtime is nobody's), and his top-up deals him in.
    (The deal came the moment the bot was back and stood him up, "no top-up in time".)"""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "200"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert [(s.name, s.stack, t.busted(s)) for s in t.seats.values()] == [
        ("Alice", 400, False),
        ("Bob", 0, True),
        ("Carol", 200, False),
    ]
    assert t.next_hand_at == clock.now + TOP_UP_SECONDS
    clock.now += 5
    await service.stop()
    clock.now += 600
    service2, presenter2 = new_service_on(store, clock, next_hand_delay=4)
    await service2.start()
    await service2.run_due()  # what a real timer, due at once, does at the restart
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.hand is None and t2.seat_of(BOB.user_id) is not None
    assert t2.next_hand_at == clock.now + 15
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) not in presenter2.posts
    reply = await service2.top_up(GROUP, BOB)
    assert reply.text == tr("ru", "reply.topped_up", amount=200, label="kush", stack=200)
    clock.now += 15
    await service2.run_due()
    assert t2.hand is not None and len(t2.hand.order) == 3
    await service2.stop()
    assert await check_store(store) == []


def new_service_on(
    store: MemoryStore, clock: Clock, next_hand_delay: float
) -> tuple[TableService, FakePresenter]:
    """A service restarted on ``store`` (timers off, the tests fire them)."""
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=next_hand_delay, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter


@pytest.mark.parametrize(("max_buy_in", "added"), [("500", 100), ("400", 0), ("300", 0)])
async def test_r8_2_a_queued_top_up_cut_or_not_made_at_the_maximum_says_so(
    max_buy_in: str, added: int
) -> None:
    """Alice asks for 800 during the hand (room 800 then) and is told it is queued; the
    admins lower ``max_buy_in`` meanwhile and she wins Bob's 200. When the hand ends the
    top-up is cut to what the new maximum leaves room for, or not made when her stack is
    there already (R8.2), or above it, and the group is told which, in its language. (It
    was cut or dropped without a word: she was left believing 800 had moved; then a stack
    of 400 under a maximum of 300 was said to be "at the table's maximum".)"""
    service, presenter, store, _clock, t = await a_hand_at_100_a_point()
    reply = await service.top_up(GROUP, ALICE, "800")
    assert reply.text == tr("en", "reply.topup_queued", amount=800, label="kush")
    reply = await service.settings(GROUP, ALICE, True, ["max_buy_in", max_buy_in])
    assert not reply.alert, reply.text
    await bob_loses_the_first_hand(service, presenter, t)
    await service.run_due()  # the queued top-up, once the hand is over
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and alice.top_up == 0 and alice.stack == 400 + added
    assert await player_balance(store, ALICE) == 800 - added
    limit = int(max_buy_in)
    notice = {
        "500": "Alice: top-up of 800 kush cut to 100: a stack holds at most 500 kush.",
        "400": "Alice: top-up of 800 kush not made: the stack is at the table's maximum"
        " (400 kush).",
        "300": "Alice: top-up of 800 kush not made: the stack (400 kush) is above the"
        " table's maximum (300 kush).",
    }[max_buy_in]
    assert limit == int(max_buy_in)
    assert (GROUP.chat_id, notice) in presenter.posts, presenter.posts
    ru = tr("ru", "lobby.topup_above", name="Алиса", amount=800, stack=400, label="kush", max=300)
    assert ru == (
        "Алиса: докупка на 800 кушей не прошла: стек (400 кушей)"
        " больше максимума стола (300 кушей)."
    )
    assert await check_store(store) == []


async def test_r8_2_ready_or_back_with_a_stack_below_a_point_says_to_top_up() -> None:
    """Bob has lost his whole stack. Ready answered "You are already ready", /back "You are
    not sitting out", and /back after a /sitout "Welcome back: you play the next hand", none
    of which deals him in: only a top-up does (R8.2). Each now says so, in his language."""
    service, presenter, _store, _clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    told = tr("ru", "reply.busted_top_up", stack=0, label="kush")
    for reply in (await service.ready(GROUP, BOB), await service.back(GROUP, BOB)):
        assert reply.alert and reply.text == told
    assert not (await service.sit_out(GROUP, BOB)).alert
    reply = await service.back(GROUP, BOB)
    assert reply.alert and reply.text == told
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.sitting_out
    assert tr("en", "reply.busted_top_up", stack=0, label="kush") == (
        "Your stack (0 kush) cannot pay a point: top up (➕ or /topup) to play."
    )
    reply = await service.top_up(GROUP, BOB)
    assert not reply.alert and t.hand is not None


@pytest.mark.parametrize("tops_up", [False, True])
async def test_r8_2_a_point_raised_past_a_stack_offers_the_top_up_before_the_deal(
    tops_up: bool,
) -> None:
    """During the first hand the admins raise ``kush_per_point`` to 200 (it applies from the
    next hand). Bob ends the hand with 196, below the new point: when the new point applies
    (as the hand ends) he is offered the top-up in the group and the next deal waits 20 s for
    it (R8.2). (The deal stood him up at once, "No top-up in time, the seat is free", without
    an offer or a second to take it.) Topping up deals him in; otherwise he is stood up at the
    deal."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "200"])
    assert not reply.alert, reply.text
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert [(s.name, s.stack) for s in t.seats.values()] == [
        ("Alice", 204),
        ("Bob", 196),
        ("Carol", 200),
    ]
    # the new point applies as the hand ends (the match is over, R6.6): Bob is offered the
    # top-up at once, with the whole window for it
    offer = tr("en", "lobby.point_raised", name="Bob", point=200, label="kush", stack=196)
    assert offer == (
        "Bob: a point now costs 200 kush, more than the stack (196) — top up (➕ or /topup) "
        "before the next hand, or the seat is freed."
    )
    assert (GROUP.chat_id, offer) in presenter.posts
    assert t.hand is None and t.next_hand_at == clock.now + TOP_UP_SECONDS
    clock.now += TOP_UP_SECONDS - 1
    await service.run_due()
    assert t.hand is None
    if tops_up:
        reply = await service.top_up(GROUP, BOB)
        assert not reply.alert, reply.text
        clock.now += 4
        await service.run_due()
        assert t.hand is not None and len(t.hand.order) == 3
        assert await player_balance(store, BOB) == 600
    else:
        clock.now += 1
        await service.run_due()
        assert t.hand is not None and t.seat_of(BOB.user_id) is None
        assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
        assert await player_balance(store, BOB) == 996
    assert await check_store(store) == []


async def test_r8_2_the_lobby_top_up_window_does_not_run_while_the_bot_is_down() -> None:
    """Heads-up, Bob busted: the lobby's top-up window (20 s) has 15 s left when the bot
    stops; back 10 minutes later it still has them, and only then is Bob stood up."""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    assert t.top_up_deadline == clock.now + TOP_UP_SECONDS
    clock.now += 5
    await service.stop()
    clock.now += 600
    service2, presenter2 = new_service_on(store, clock, next_hand_delay=5)
    await service2.start()
    await service2.run_due()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.seat_of(BOB.user_id) is not None
    assert t2.top_up_deadline == clock.now + 15
    clock.now += 15
    await service2.run_due()
    assert t2.seat_of(BOB.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter2.posts
    await service2.stop()
    assert await check_store(store) == []


async def test_r8_2_a_top_up_that_leaves_the_stack_below_a_point_says_so() -> None:
    """Bob, busted at 100 kush a point, tops up 50: it is added, and the reply says the
    stack still cannot pay a point (R8.2), so he is not dealt in yet. (It only said "Topped
    up", and then no hand came.)"""
    service, presenter, store, _clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    reply = await service.top_up(GROUP, BOB, "50")
    assert not reply.alert and reply.text == "\n".join(
        (
            tr("ru", "reply.topped_up", amount=50, label="kush", stack=50),
            tr("ru", "reply.busted_top_up", stack=50, label="kush"),
        )
    )
    assert t.hand is None
    reply = await service.top_up(GROUP, BOB, "50")
    assert reply.text == tr("ru", "reply.topped_up", amount=50, label="kush", stack=100)
    assert t.hand is not None
    assert await check_store(store) == []


async def test_r8_2_the_offered_top_up_range_is_capped_by_the_balance(env) -> None:  # type: ignore[no-untyped-def]
    """A new user with 800 on the balance was offered "Top up from 1 to 1800"."""
    service, _presenter, store, _clock = env
    assert not (await service.settings(GROUP, ALICE, True, ["max_buy_in", "2000"])).alert
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    assert await player_balance(store, ALICE) == 800
    reply = await service.top_up(GROUP, ALICE, "1801")
    assert reply.alert and reply.text == (
        "Top up from 1 to 800 kush, your balance (a stack holds at most 2,000). Usage: /topup N"
    )
    reply = await service.top_up(GROUP, ALICE, "x")
    assert reply.text.endswith(
        "\n" + tr("en", "reply.topup_range_balance", room=800, max=2000, label="kush")
    )
    ru = dataclasses.replace(ALICE, language="ru")
    reply = await service.top_up(GROUP, ru, "0")
    assert reply.text.startswith("Докупить можно от 1 до 800 кушей — это ваш баланс")
    reply = await service.top_up(GROUP, ALICE, "800")
    assert reply.text == tr("en", "reply.topped_up", amount=800, label="kush", stack=1000)
    # nothing left on the balance: said so, whatever was asked (the ➕ button included), with
    # what to do about it
    for asked in ("5", "x", ""):
        reply = await service.top_up(GROUP, ALICE, asked)
        assert reply.alert and reply.text == (
            "Your balance is empty: nothing to top up from.\n"
            "Take the /daily bonus, or ask an admin for /grant."
        ), asked
    reply = await service.top_up(GROUP, ru, "5")
    assert reply.text == (
        "Баланс пуст: докупать не из чего.\nВозьмите бонус /daily или попросите админа о /grant."
    )
    assert await player_balance(store, ALICE) == 0
    assert await check_store(store) == []


@pytest.mark.parametrize("during_hand", [False, True])
async def test_r8_2_a_top_up_past_the_balance_within_the_stack_is_answered_with_the_range(
    during_hand: bool,
) -> None:
    """Alice (800 on the balance, a stack of 200 under a maximum of 2000: room 1800) asks for
    ``/topup 1000``, between hands or during her hand. It was refused as a short balance
    ("Not enough kush for a top-up of 1000: you have 800", and the /daily advice) where a
    number past the room is answered with what she may ask for: the range, 1 to 800, her
    balance. Nothing moves, nothing is queued."""
    store, clock = MemoryStore(), Clock()
    service = TableService(store, clock=clock, next_hand_delay=5, timers=False)
    service.register(FakePresenter())
    assert not (await service.settings(GROUP, ALICE, True, ["max_buy_in", "2000"])).alert
    if during_hand:
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
    else:
        await service.new_table(GROUP, ALICE)
        await service.join(GROUP, ALICE)
        await service.ready(GROUP, ALICE)
        t = service.table_in(GROUP)
        assert t is not None
    assert await player_balance(store, ALICE) == 800
    reply = await service.top_up(GROUP, ALICE, "1000")
    assert reply.alert and reply.text == (
        "Top up from 1 to 800 kush, your balance (a stack holds at most 2,000). Usage: /topup N"
    )
    ru = dataclasses.replace(ALICE, language="ru")
    reply = await service.top_up(GROUP, ru, "801")
    assert reply.text == (
        "Докупить можно от 1 до 800 кушей — это ваш баланс (в стеке не больше 2000)."
        " Формат: /topup N"
    )
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and alice.stack == 200 and alice.top_up == 0
    assert await player_balance(store, ALICE) == 800
    reply = await service.top_up(GROUP, ALICE, "800")  # the whole balance: taken
    assert not reply.alert, reply.text
    assert await check_store(store) == []


# ("1 000" is a thousand, its digits grouped as the bot writes amounts, fix39g; "1 00" is none)
@pytest.mark.parametrize("typed", ["١٠٠", "１００", "1_000", "1 00", "+ 100", "100.0", "१००"])
async def test_r8_2_top_up_takes_ascii_digits_only_as_settings_and_grant_do(  # type: ignore[no-untyped-def]
    env, typed: str
) -> None:
    """``/topup ١٠٠`` (Arabic-Indic digits), ``/topup １００`` (full-width) and ``/topup 1_000``
    were amounts to ``int()`` and moved kush, where ``/settings`` refuses the same text: all
    three read amounts one way (ASCII digits 0–9) and say how to write one, in English and
    Russian; nothing moves."""
    service, _presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    before = await player_balance(store, ALICE)
    reply = await service.top_up(GROUP, ALICE, typed)
    assert reply.alert and reply.text == (
        "Type the number with the digits 0–9, its thousands grouped or not"
        " (5000, 5,000 or 5 000; not 5_000).\n"
        "Top up from 1 to 800 kush (a stack holds at most 1,000). Usage: /topup N"
    )
    reply = await service.top_up(GROUP, dataclasses.replace(ALICE, language="ru"), typed)
    assert reply.alert and reply.text.startswith(
        "Набирайте число цифрами 0–9, тысячи можно отделить пробелом"
        " (5000 или 5 000; не 5_000).\nДокупить можно от 1 до 800"
    ), reply.text
    t = service.table_in(GROUP)
    assert t is not None
    assert [s.stack for s in t.seats.values()] == [200]
    assert await player_balance(store, ALICE) == before
    assert not (await service.top_up(GROUP, ALICE, " 100 ")).alert  # spaces around: fine
    assert await player_balance(store, ALICE) == before - 100
    assert await check_store(store) == []


@pytest.mark.parametrize("dave_sits_out", [False, True])
async def test_r8_3_a_round_settled_as_the_deal_stands_up_a_busted_player_offers_the_top_up(
    dave_sits_out: bool,
) -> None:
    """Classic OFC for four at 32 kush a point, ``settle_per_round`` (R8.3). Alice loses her
    stack in the first hand (settled early: she could not cover it), sits out and plays no
    hand; Bob, Carol and Dave play the second, after which Bob owes 12 points (384 kush),
    which his 400 cover, so the round goes on. Alice comes back without a top-up: the next
    deal stands her up (R8.2), settling the round first (R8.3), which leaves Bob 16, below a
    point. Bob is offered the top-up and the deal waits its 20 s, as after a showdown
    (R8.2): he was left out of the hand, never told why. ``dave_sits_out``: Dave sits out
    before that deal, so Carol alone could be dealt in: the table waits in the lobby for
    Bob's top-up, 20 s (a hand for Carol alone was dealt)."""
    dave = Actor("telegram", "4", "Dave", "en")
    service, presenter, store, clock = new_service(next_hand_delay=4)
    for name, value in (("game", "ofc"), ("kush_per_point", "32"), ("settle_per_round", "on")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB, CAROL, dave)
    assert t is not None
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL, dave)}

    async def play_hand() -> None:
        assert t is not None
        while t.hand is not None:
            actor = by_id[t.seats[t.hand.to_act[0]].user_id]
            await press_auto_and_confirm(service, presenter, actor)

    await play_hand()
    assert [s.name for s in t.awaiting_top_up()] == ["Alice"]
    assert not (await service.sit_out(GROUP, ALICE)).alert
    clock.now += TOP_UP_SECONDS
    await service.run_due()
    assert t.hand is not None and sorted(t.hand.order) == [1, 2, 3]
    await play_hand()
    assert t.match is not None and t.match.round_pairs == ((3, 1, 6), (3, 2, -2), (1, 2, -6))
    assert {s.name: s.stack for s in t.seats.values()} == {
        "Alice": 0, "Bob": 400, "Carol": 200, "Dave": 200
    }  # fmt: skip
    if dave_sits_out:
        assert not (await service.sit_out(GROUP, dave)).alert
    reply = await service.back(GROUP, ALICE)
    assert reply.alert and reply.text == tr("en", "reply.busted_top_up", stack=0, label="kush")
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    # Alice stood up, the round settled first: Bob pays 12 points, 8 to Carol, 4 to Dave
    assert {s.name: s.stack for s in t.seats.values()} == {"Bob": 16, "Carol": 456, "Dave": 328}
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Alice")) in presenter.posts
    # (it read "Bob: no kush left", Bob with 16 in his stack)
    offer = tr("en", "showdown.below_point", name="Bob", stack=16, label="kush")
    assert offer.startswith("Bob: 16 kush left, less than a point — top up")
    assert (GROUP.chat_id, offer) in presenter.posts
    if dave_sits_out:
        assert t.hand is None and t.phase is Phase.LOBBY
        assert t.top_up_deadline == clock.now + TOP_UP_SECONDS
    else:
        assert t.hand is None and t.phase is Phase.BETWEEN
        assert t.next_hand_at == clock.now + TOP_UP_SECONDS
    clock.now += 10
    await service.run_due()
    assert t.hand is None
    assert not (await service.top_up(GROUP, BOB)).alert
    clock.now += 10
    await service.run_due()
    assert t.hand is not None and sorted(t.hand.order) == ([1, 2] if dave_sits_out else [1, 2, 3])
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) not in presenter.posts
    assert await check_store(store) == []


@pytest.mark.parametrize("where", ["lobby", "between_hands"])
async def test_r8_2_a_top_up_after_the_offer_ran_out_is_too_late(where: str) -> None:
    """R8.2: Bob loses his whole stack and is offered the top-up with 20 s for it: heads-up
    in the lobby's window, or before the next deal once Carol sits down with Alice. He
    tops up at 20 s, before the table's timer fired (a loaded bot): "⌛ Too late" (in
    Russian: Bob reads Russian), stood up as the timer stands him up, nothing bought in.
    (The top-up counted: 200 kush bought in, and dealt in at the hand, his time up.)"""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    assert t.hand is None and t.top_up_deadline == clock.now + TOP_UP_SECONDS
    if where == "between_hands":
        await service.join(GROUP, CAROL)
        await service.ready(GROUP, CAROL)  # the deal waits for the end of Bob's window
        assert t.hand is None and t.phase is Phase.BETWEEN
        assert t.next_hand_at == clock.now + TOP_UP_SECONDS and t.top_up_deadline is None
    clock.now += TOP_UP_SECONDS
    reply = await service.top_up(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "reply.topup_too_late")
    assert t.seat_of(BOB.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
    assert await player_balance(store, BOB) == 800
    if where == "between_hands":
        assert t.hand is not None and sorted(t.owner(s) for s in t.hand.order) == [0, 2]
    else:
        assert t.hand is None and t.top_up_deadline is None
    seq = t.seq
    await service.run_due()  # the timer, firing now, finds nothing more to do
    assert t.seq == seq
    assert await check_store(store) == []


async def test_r8_2_help_says_a_top_up_asked_during_your_hand_waits_for_its_end(env) -> None:  # type: ignore[no-untyped-def]
    """``/help`` said ``/topup`` tops up "between hands" (Discord's ``/ofc topup`` and its
    description too), though one asked for during the player's hand is taken and queued,
    added when the hand ends (R8.2): the player read it as refused during a hand. Each says
    what it does, in English and Russian."""
    service, _presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.top_up(GROUP, ALICE, "50")
    assert reply.text == tr("en", "reply.topup_queued", amount=50, label="kush")
    discord = ChatRef("discord", "900", "901", "Guild")
    said = {
        "en": "top up your stack (asked during your hand: added when it ends)",
        "ru": "докупить в стек (во время вашей раздачи — пройдёт после неё)",
    }
    for lang in ("en", "ru"):
        actor = dataclasses.replace(ALICE, language=lang)
        for chat, command in ((GROUP, "/topup [N]"), (discord, "/ofc topup [amount]")):
            lines = (await service.help(chat, actor)).text.splitlines()
            line = next(x for x in lines if x.startswith(command + " — "))
            assert line == f"{command} — {said[lang]}", line
            assert "between hands" not in line and "между раздачами" not in line
    from bot.discord.adapter import OfcCommands
    from bot.texts import DISCORD_DESCRIPTIONS_RU

    topup = next(
        c for c in OfcCommands.__discord_app_commands_group_children__ if c.name == "topup"
    )
    assert topup.description == "Top up your stack (asked during your hand: added when it ends)"
    assert DISCORD_DESCRIPTIONS_RU[topup.description] == said["ru"].capitalize()
