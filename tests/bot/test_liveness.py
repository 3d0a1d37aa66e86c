"""No table waits forever (issue 15): the ready timer (R8.2) and the idle close (R8.2a), with
the in-memory store, a hand-moved clock and timers fired by ``run_due``."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.model import Actor, ChatRef, LiveTable, Phase
from bot.presses import Arrange, ConfirmMove, PlaceCard, Ready, decode
from bot.service import TableService
from bot.texts import tr
from game.board import Box
from game.cards import Card
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
from tests.bot.test_tournament_service import configure, new_service
from tests.bot.test_transitions import player_balance


async def test_r8_2_the_ready_timer_stands_up_the_unready_and_deals(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline is None  # one ready: no timer yet
    assert tr("en", "lobby.ready_timer", seconds=60) not in presenter.last_table(GROUP.chat_id).text
    await service.ready(GROUP, BOB)
    assert t.hand is None and t.ready_deadline == clock.now + 60  # two ready: it starts
    assert tr("en", "lobby.ready_timer", seconds=60) in presenter.last_table(GROUP.chat_id).text
    clock.now += 59
    await service.run_due()
    assert t.hand is None and t.seat_of(CAROL.user_id) is not None
    clock.now += 1
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None  # stood up
    assert t.hand is not None and t.phase is Phase.PLAYING and len(t.hand.order) == 2
    assert await player_balance(store, CAROL) == 1000  # no kush taken
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert t.ready_deadline is None
    assert await check_store(store) == []


async def test_r8_2_the_ready_timer_stops_when_fewer_than_two_are_ready(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, _store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        await service.join(GROUP, a)
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline is not None
    await service.leave(GROUP, BOB)  # one ready player left: nothing to start
    assert t.ready_deadline is None
    clock.now += 120
    await service.run_due()
    assert t.hand is None and t.seat_of(CAROL.user_id) is not None  # nobody stood up
    await service.ready(GROUP, CAROL)  # everyone seated is ready: the hand starts at once
    assert t.hand is not None


async def test_r8_2a_a_table_with_no_hand_closes_itself_and_cashes_out(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)  # alone: no hand is ever dealt
    t = service.table_in(GROUP)
    assert t is not None and await player_balance(store, ALICE) == 800
    clock.now += 1799
    await service.run_due()
    assert service.table_in(GROUP) is t
    clock.now += 1
    await service.run_due()
    assert service.table_in(GROUP) is None
    assert await player_balance(store, ALICE) == 1000  # the stack is back
    assert presenter.last_table(GROUP.chat_id).text == tr(
        "en", "table.idle_closed", table=t.id, minutes=30
    )
    record = await store.get_table(t.id)
    assert record is not None and not record.open
    reply = await service.new_table(GROUP, BOB)  # anyone may open a new one
    assert not reply.alert, reply.text
    assert await check_store(store) == []


async def test_r8_2a_a_short_idle_close_is_said_in_seconds(env) -> None:  # type: ignore[no-untyped-def]
    """An admin set ``idle_close_seconds`` to 20: the close said "no hand for 0 minutes" (the
    seconds rounded to whole minutes); under two minutes it is said in seconds, in both
    languages. (It takes 300 and up now, fixnu6a: the least, 5 minutes, is said so.)"""
    service, presenter, store, clock = env
    reply = await service.settings(GROUP, ALICE, True, ["idle_close_seconds", "20"])
    assert reply.alert and "from 300 to" in reply.text, reply.text
    assert "no hand for 20 seconds" in tr("en", "table.idle_closed.s", table=1, seconds=20)
    assert "20 секунд без раздач" in tr("ru", "table.idle_closed.s", table=1, seconds=20)
    reply = await service.settings(GROUP, ALICE, True, ["idle_close_seconds", "300"])
    assert not reply.alert, reply.text
    await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    clock.now += 300
    await service.run_due()
    assert service.table_in(GROUP) is None
    text = presenter.last_table(GROUP.chat_id).text
    assert "no hand for 5 minutes" in text, text
    assert await check_store(store) == []


async def test_r8_2a_idle_time_counts_from_the_last_deal(env) -> None:  # type: ignore[no-untyped-def]
    """Everyone goes quiet: the clocks finish the hand, both sit out (R8.6), and the table
    closes itself idle_close_seconds after that hand was dealt."""
    service, _presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    dealt = clock.now
    while t.hand is not None:
        clock.now += 181  # budget and bank run out on every turn (R8.5)
        await service.run_due()
    assert all(s.sitting_out for s in t.seats.values())
    assert t.phase is Phase.LOBBY
    clock.now = dealt + 1800
    await service.run_due()
    assert service.table_in(GROUP) is None
    stacks = await store.stacks(t.id)
    assert stacks == {}
    assert await player_balance(store, ALICE) + await player_balance(store, BOB) == 2000
    assert await check_store(store) == []


async def half_a_bank_spent_and_gone(
    service: TableService, clock: Clock
) -> tuple[LiveTable, Actor]:
    """Alice and Bob seated and dealt; the first to act sleeps through the budget (120 s)
    and 30 s of the bank, then leaves mid-hand (the move is made for them) and is gone once
    the hand ends. Returns the table and who left."""
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    sleeper = t.seats[t.hand.to_act[0]]
    actor = ALICE if sleeper.user_id == ALICE.user_id else BOB
    clock.now += 150
    await leave_now(service, GROUP, actor)  # (typed during the hand: asks first, R8.5)
    while t.hand is not None:
        clock.now += 181
        await service.run_due()
    assert t.seat_of(actor.user_id) is None
    return t, actor


async def test_r8_6_leaving_and_rejoining_does_not_refill_the_time_bank(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, _store, clock = env
    t, actor = await half_a_bank_spent_and_gone(service, clock)
    assert not (await service.join(GROUP, actor)).alert
    seat = t.seat_of(actor.user_id)
    assert seat is not None and seat.bank == 30.0  # not the full 60


async def test_r8_2a_a_table_between_two_hands_is_not_idle() -> None:
    """Two slow players take 60 s a street: the hand lasts longer than
    ``idle_close_seconds`` (300 here). Its showdown schedules the next deal: the table is not
    idle then, and it deals the next hand instead of closing itself (it closed, cashing
    everyone out, the moment the hand ended)."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, idle_close_seconds="300", hand_seconds="600")
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    dealt = clock.now
    while t.hand is not None and t.hand_no == 1:
        acting = t.seats[t.hand.to_act[0]]
        clock.now += 60
        await press_auto_and_confirm(service, presenter, ALICE if acting.seat == 0 else BOB)
    assert clock.now - dealt > 300 and t.next_hand_at is not None
    assert not any(s.sitting_out for s in t.seats.values())
    clock.now = t.next_hand_at
    await service.run_due()
    assert service.table_in(GROUP) is t and t.hand is not None and t.hand_no == 2
    assert await check_store(store) == []


async def test_r8_2_the_ready_timer_does_not_run_while_the_bot_is_down() -> None:
    """Alice and Bob are ready, Carol has 30 s of the ready timer left when the bot stops;
    it is back 10 minutes later. The downtime is not Carol's (as the clocks of R8.5): the
    timer that fires at the restart leaves her seated with her 30 s, and her Ready on the
    new table message deals her in. (She used to be stood up the moment the bot was back:
    the Ready she pressed meanwhile is on a message whose buttons a restart makes out of
    date, so she never had a chance.)"""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        await service.join(GROUP, a)
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    clock.now += 30
    await service.stop()
    clock.now += 600
    service2 = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service2.register(FakePresenter())
    await service2.start()
    await service2.run_due()  # what a real timer, due at once, does at the restart
    t = service2.table_in(GROUP)
    assert t is not None and t.hand is None and t.seat_of(CAROL.user_id) is not None
    assert t.ready_deadline == clock.now + 30
    reply = await service2.ready(GROUP, CAROL)
    assert not reply.alert, reply.text
    assert t.hand is not None and len(t.hand.order) == 3
    await service2.stop()
    assert await check_store(store) == []


async def test_r7_5_the_time_to_claim_does_not_run_while_the_bot_is_down(env) -> None:  # type: ignore[no-untyped-def]
    """The same for the claim offered mid-reveal (R7.5): a snapshot taken with 20 s left to
    claim, read back 100 s later, leaves 20 s (the reveal's own pause is not a player's)."""
    service, _presenter, _store, clock = env
    await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    snap = service.rt.snapshot(t)
    claim = {"seats": [0], "deadline": clock.now + 20}
    snap["reveal"] = {"stage": 1, "at": None, "claim": claim}
    back = LiveTable.from_json(snap, clock.now + 100)
    assert back.reveal is not None and back.reveal["claim"]["deadline"] == clock.now + 120
    assert claim["deadline"] == clock.now + 20  # the snapshot itself is not changed


async def test_r8_5_time_bank_refill_per_match_gives_bank_seconds_back_up_to_the_bank() -> None:
    """R8.5: with ``time_bank_refill_per_match`` 20 the bank gets 20 s back after a match,
    never more than ``time_bank_seconds`` (60): a player who spent 30 s of it has 50 s at the
    next hand, the other keeps 60. (Default 0: nothing comes back, see the R8.6 test above.)"""
    service, presenter, _store, clock = new_service(next_hand_delay=4)
    await configure(service, time_bank_refill_per_match="20")
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    slow = t.seats[t.hand.to_act[0]]
    clock.now += 150  # the budget (120 s) and 30 s of the bank
    while t.hand is not None and t.hand_no == 1:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.match is not None and t.match.match_over and t.hand is None
    fast = next(s for s in t.seats.values() if s is not slow)
    assert (slow.bank, fast.bank) == (50.0, 60.0)


async def test_r8_5_r8_6_a_seat_that_sat_out_the_match_gets_no_bank_refill() -> None:
    """R8.5 refills the bank per match (``time_bank_refill_per_match``) and R8.6 never by
    stepping away from the table: a player who sat the match out played no match, so their
    bank stays as it was. It used to be refilled for every seat, the sitting-out ones too:
    sitting out a match was a way to get the bank back."""
    service, presenter, _store, clock = new_service(next_hand_delay=4)
    await configure(service, time_bank_refill_per_match="20")
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    slow = t.seats[t.hand.to_act[0]]
    clock.now += 170  # the budget (120 s) and 50 s of the bank (60 s)
    while t.hand is not None and t.hand_no == 1:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.match is not None and t.match.match_over and t.hand is None
    assert slow.bank == 30.0  # 10 s left, 20 back after the match it played
    reply = await service.sit_out(GROUP, by_id[slow.user_id])
    assert not reply.alert, reply.text
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and slow.seat not in t.hand.order
    while t.hand is not None and t.hand_no == 2:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.match is not None and t.match.match_over and t.hand_no == 2
    assert slow.sitting_out and slow.bank == 30.0
    assert [s.bank for s in t.seats.values() if s is not slow] == [60.0, 60.0]


async def test_r8_5_a_fantasyland_arrangement_has_its_own_budget() -> None:
    """R8.5: the player dealt a Fantasyland hand gets ``fantasyland_seconds`` (90 here) for
    it, the ordinary player ``hand_seconds`` (100 here); both keep their banks."""
    service, presenter, _store, clock = new_service(next_hand_delay=5)
    await configure(service, fantasyland_seconds="90", hand_seconds="100")
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert {s: c.budget for s, c in t.clocks.items()} == {0: 100.0, 1: 100.0}
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.match is not None
    t.match = dataclasses.replace(t.match, fantasyland={1: 14}, match_over=False)
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand.is_fantasyland(1) and not t.hand.is_fantasyland(0)
    assert {s: (c.budget, c.bank) for s, c in t.clocks.items()} == {
        0: (100.0, 60.0),
        1: (90.0, 60.0),
    }


async def test_r8_6_the_time_bank_refills_at_another_table(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6: a player who spent half the bank and left sits down with a full bank (60 s) at a
    table in another group, while rejoining the first table gives back only what was left."""
    service, _presenter, _store, clock = env
    t, actor = await half_a_bank_spent_and_gone(service, clock)
    other = ChatRef("telegram", "-200", "-200", "Others")
    assert not (await service.new_table(other, actor)).alert
    assert not (await service.join(other, actor)).alert
    elsewhere = service.table_in(other)
    assert elsewhere is not None and elsewhere is not t
    seat = elsewhere.seat_of(actor.user_id)
    assert seat is not None and seat.bank == 60.0


async def test_r8_2a_a_table_between_hands_is_not_closed_by_a_long_downtime() -> None:
    """Alice and Bob finish a hand; the next is due in 4 s when the bot stops, and it is back
    an hour later (idle_close_seconds is 30 min). The downtime is nobody's idle time (as the
    ready timer above): the timer that fires at the restart deals the next hand. (It closed
    the table and cashed everyone out: the idle close counted the hour the bot was down.)
    A table that then stays idle still closes itself 30 min after its last deal."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=4, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.next_hand_at == clock.now + 4
    await service.stop()
    clock.now += 3600
    service2 = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=4, timers=False
    )
    presenter2 = FakePresenter()
    service2.register(presenter2)
    await service2.start()
    await service2.run_due()  # what a real timer, due at once, does at the restart
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None and t2.hand_no == 2
    assert all(tr("en", "table.idle_closed", table=t2.id, minutes=30) != s.text
               for s in presenter2.tables[GROUP.chat_id])  # fmt: skip
    dealt = clock.now
    await service2.leave(GROUP, BOB)  # Bob goes: the hand is played out for him
    while t2.hand is not None:
        clock.now += 181
        await service2.run_due()
    assert t2.phase is Phase.LOBBY
    clock.now = dealt + 1799
    await service2.run_due()
    assert service2.table_in(GROUP) is t2
    clock.now = dealt + 1800
    await service2.run_due()
    assert service2.table_in(GROUP) is None
    assert await check_store(store) == []


async def test_r8_6_ready_after_a_sit_out_in_the_lobby_deals_the_player_in(env) -> None:  # type: ignore[no-untyped-def]
    """Bob sits out before he is ready, then presses Ready: his buy-in moves and the reply
    says so, and he is dealt in with Alice. (His kush moved but he stayed sitting out: the
    lobby showed him "sitting out", no hand started, and only /back, which nothing
    mentioned, dealt him in.)"""
    service, _presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.join(GROUP, BOB)
    assert not (await service.sit_out(GROUP, BOB)).alert
    await service.ready(GROUP, ALICE)
    reply = await service.ready(GROUP, BOB)
    assert reply.text == tr("ru", "reply.ready", amount=200, label="куш")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and len(t.hand.order) == 2
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.sitting_out and bob.stack == 200
    assert await player_balance(store, BOB) == 800
    assert await check_store(store) == []


async def test_r8_6_the_last_unready_player_sitting_out_lets_the_hand_start(env) -> None:  # type: ignore[no-untyped-def]
    """Alice and Bob are ready, Carol is seated and not: the ready timer runs (R8.2). Carol
    says /sitout: everyone left is ready, and the hand starts at once without her (it waited
    for the ready timer, up to a minute, for nobody). Carol keeps her seat."""
    service, _presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        await service.join(GROUP, a)
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None and t.ready_deadline is not None
    assert not (await service.sit_out(GROUP, CAROL)).alert
    assert t.hand is not None and len(t.hand.order) == 2 and t.ready_deadline is None
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.sitting_out
    assert await check_store(store) == []


async def test_r8_5_a_press_that_lost_the_race_to_the_timeout_says_the_move_was_made(env) -> None:  # type: ignore[no-untyped-def]
    """A press on the screen the clock's move had just replaced (R8.5) is refused with "your
    time ran out, the move was made for you", not "out of date"; it changes nothing. A
    press on an older screen of a street the player finished themselves stays "out of date"."""
    service, presenter, _store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    seat = hand.to_act[0]
    actor = ALICE if t.seats[seat].user_id == ALICE.user_id else BOB
    old = presenter.last_private(actor.user_id)
    place = next(
        b.data for b in old.all_buttons() if isinstance(decode(b.data), PlaceCard)
    )  # a Top / Middle / Bottom of the first street's screen, before the clock ran out
    clock.now += t.options.hand_seconds + t.options.time_bank_seconds + 1
    await service.run_due()
    assert hand.timed_out_at(seat, 0) and seat not in hand.to_act  # the clock moved for them
    board = hand.board_of(seat, with_pending=True)
    reply = await service.press(actor, place)
    assert reply.alert and reply.text == tr(actor.language or "en", "err.timed_out")
    assert hand.board_of(seat, with_pending=True) == board  # nothing changed
    # an older screen of a street the player finished by their own Confirm: "out of date"
    other = BOB if actor is ALICE else ALICE
    assert hand.to_act and t.owner(hand.to_act[0]) == t.seat_of(other.user_id).seat
    screen = presenter.last_private(other.user_id)
    stale = next(b.data for b in screen.all_buttons() if isinstance(decode(b.data), PlaceCard))
    await press_auto_and_confirm(service, presenter, other)
    reply = await service.press(other, stale)
    assert reply.alert and reply.text == tr(other.language or "en", "err.stale_hand")


def _hand_press(presenter: FakePresenter, actor: Actor, kind: str, card: Card | None = None) -> str:
    """The data of a button on ``actor``'s private hand: ``place`` (``card`` to Top),
    ``arrange`` ("Arrange for me") or ``confirm``."""
    wanted = {"place": PlaceCard, "arrange": Arrange, "confirm": ConfirmMove}[kind]
    for b in presenter.last_private(actor.user_id).all_buttons():
        press = decode(b.data)
        if not isinstance(press, wanted) or b.data is None:
            continue
        if not isinstance(press, PlaceCard) or (press.card == card and press.box is Box.TOP):
            return b.data
    raise AssertionError(f"no {kind} button")


@pytest.mark.parametrize("own", [False, True])
@pytest.mark.parametrize("kind", ["place", "arrange", "confirm"])
async def test_r8_5_a_press_after_budget_and_bank_ran_out_is_too_late_before_the_timer_fired(
    env,  # type: ignore[no-untyped-def]
    kind: str,
    own: bool,
) -> None:
    """R8.5: with 1 s of the time bank left the player places a card on Top (the bank is
    still their time) — and, for ``confirm``, lets "Arrange for me" place the rest. One
    second later budget and bank are both spent, and the table's timer has not fired yet
    (a loaded bot, a timer a moment late): the press (a card, "Arrange for me" or Confirm)
    is answered "⌛ Too late" and the move is made as the timer makes it: the card placed
    stays, the rest go to Bottom in the order received (R8.5), and the turn passes. (The
    press was applied: a card placed, a street arranged or confirmed after the clock.)
    ``own``: pressed on the player's private message, which the reply then shows with the
    hand after the move (the adapter writes it; the service does not write it twice);
    otherwise the service writes the private message."""
    service, presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    hand = t.hand
    seat = hand.to_act[0]
    actor, other = (ALICE, BOB) if t.seats[seat].user_id == ALICE.user_id else (BOB, ALICE)
    cards = hand.current_cards(seat)
    clock.now += t.options.hand_seconds + t.options.time_bank_seconds - 1
    reply = await service.press(actor, _hand_press(presenter, actor, "place", cards[0]))
    assert not reply.alert, reply.text  # 1 s of bank left: still the player's move
    if kind == "confirm":
        reply = await service.press(actor, _hand_press(presenter, actor, "arrange"))
        assert not reply.alert, reply.text
    arranged = hand.board_of(seat, with_pending=True)
    button = _hand_press(presenter, actor, kind, cards[1])
    clock.now += 1
    ref = t.seats[seat].private_ref if own else None
    dm = ChatRef("telegram", actor.user_id, actor.user_id, private=True) if own else None
    written = len(presenter.privates[actor.user_id])
    reply = await service.press(actor, button, dm, message_ref=ref)
    assert reply.alert and reply.text == tr(actor.language or "en", "err.timed_out")
    if own:  # the hand after the move, on the pressed message: no buttons, it is Bob's turn
        assert reply.screen is not None and not reply.screen.buttons
        assert len(presenter.privates[actor.user_id]) == written
    else:
        assert reply.screen is None and not presenter.last_private(actor.user_id).buttons
    assert seat not in hand.to_act and hand.to_act == (t.seat_of(other.user_id).seat,)  # type: ignore[union-attr]
    board = hand.board_of(seat)
    if kind == "confirm":
        assert board == arranged  # (the Confirm did not count; the placement stays, R8.5)
    else:
        assert board.top == (cards[0],) and board.middle == ()
        assert board.bottom == cards[1:]
    assert t.clocks[seat].left(clock.now) == (0.0, 0.0) and not t.clocks[seat].running
    # the timer, firing now, finds nothing more to do
    seq = t.seq
    await service.run_due()
    assert t.seq == seq and hand.board_of(seat) == board
    assert await check_store(store) == []


async def test_r8_5_a_fantasyland_press_after_its_time_ran_out_is_too_late() -> None:
    """R8.5, R6.3: Bob arranges his Fantasyland hand while Alice plays her ordinary streets
    (all at once: every player but one is in Fantasyland), with ``fantasyland_seconds`` (90
    here) and his bank; Alice is done first. With 1 s of bank left he puts a card on
    Top; a second later he presses "Arrange for me", before the timer fired: "⌛ Too late",
    and the hand is set as on timeout (R8.5: the card placed stays, 13 cards in all, the
    rest discarded), Bob's board timed out (R8.6: he sits out after the match). (The
    solver's arrangement was applied after his time.)"""
    service, presenter, store, clock = new_service(next_hand_delay=5)
    await configure(service, fantasyland_seconds="90")
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.match is not None
    t.match = dataclasses.replace(t.match, fantasyland={1: 14}, match_over=False)
    clock.now += 5
    await service.run_due()
    hand = t.hand
    assert hand is not None and hand.is_fantasyland(1) and not hand.is_fantasyland(0)
    while 0 in hand.to_act:  # Alice's ordinary streets, at once with Bob's arrangement (R6.3)
        await press_auto_and_confirm(service, presenter, ALICE)
    assert hand.to_act == (1,) and t.clocks[1].running
    cards = hand.current_cards(1)
    assert len(cards) == 14
    clock.now += 90 + t.options.time_bank_seconds - 1
    reply = await service.press(BOB, _hand_press(presenter, BOB, "place", cards[0]))
    assert not reply.alert, reply.text
    arrange = _hand_press(presenter, BOB, "arrange")
    clock.now += 1
    reply = await service.press(BOB, arrange)
    assert reply.alert and reply.text == tr("ru", "err.timed_out")  # (Bob reads Russian)
    assert hand.is_over and hand.result is not None
    assert [r.seat for r in hand.result.seats if r.timed_out] == [1]
    board = hand.board_of(1)
    assert board.top[0] == cards[0] and set(board.cards()) == set(cards[:13])
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.sitting_out
    assert await check_store(store) == []


@pytest.mark.parametrize("how", ["command", "button"])
async def test_r8_2_ready_pressed_after_the_ready_timer_ran_out_is_too_late(env, how: str) -> None:  # type: ignore[no-untyped-def]
    """R8.2: Alice and Bob are ready, Carol is not; the ready timer (60 s) runs out and,
    before the table's timer fired (a loaded bot), Carol presses Ready: "⌛ Too late", she is
    stood up as the timer stands her up (no kush taken) and the hand is dealt to Alice and
    Bob. (Her Ready counted: 200 kush bought in and dealt into the hand, her time up.)"""
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline == clock.now + 60
    clock.now += 60
    if how == "command":
        reply = await service.ready(GROUP, CAROL)
    else:
        button = next(
            b.data
            for b in presenter.last_table(GROUP.chat_id).all_buttons()
            if b.data and isinstance(decode(b.data), Ready)
        )
        reply = await service.press(CAROL, button, GROUP)
    assert reply.alert and reply.text == tr("en", "reply.ready_too_late")
    assert t.seat_of(CAROL.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert t.hand is not None and t.hand_no == 1 and len(t.hand.order) == 2
    assert await player_balance(store, CAROL) == 1000  # no kush taken
    seq = t.seq
    await service.run_due()  # the timer, firing now, finds nothing more to do
    assert t.seq == seq
    assert await check_store(store) == []


async def test_r8_2_a_late_joiners_ready_after_their_window_is_too_late(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2: Carol sits down during Alice and Bob's hand and has 60 s to press Ready; she
    presses it at 60 s, before the timer fired: "⌛ Too late", stood up as the timer stands
    her up, the seat free. (She was bought in and dealt in at the next hand.)"""
    service, presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert not (await service.join(GROUP, CAROL)).alert
    clock.now += 60
    reply = await service.ready(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "reply.ready_too_late")
    assert t.seat_of(CAROL.user_id) is None and t.hand_no == 1
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2a_a_lone_unready_person_beside_a_ready_bot_does_not_hold_the_table(env) -> None:  # type: ignore[no-untyped-def]
    """One computer player (seated Ready) and one person who never presses Ready: only one
    player is ready, so the lobby's ready timer does not start (R8.2: it starts when two are
    ready) and nobody is stood up. The table is idle all the same: it closes itself
    ``idle_close_seconds`` after it opened (R8.2a), the person's seat and the computer
    player's stack going back."""
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    assert not (await service.add_bot(GROUP, ALICE, True, "easy")).alert
    assert not (await service.join(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None
    bot = next(s for s in t.seats.values() if s.bot)
    person = t.seat_of(BOB.user_id)
    assert bot.ready and person is not None and not person.ready
    assert t.ready_deadline is None  # one ready: no ready timer (R8.2)
    clock.now += 1799
    await service.run_due()
    assert service.table_in(GROUP) is t and t.hand is None
    assert t.seat_of(BOB.user_id) is not None  # not stood up: no timer ran
    clock.now += 1
    await service.run_due()
    assert service.table_in(GROUP) is None  # closed: idle (R8.2a)
    assert presenter.last_table(GROUP.chat_id).text == tr(
        "en", "table.idle_closed", table=t.id, minutes=30
    )
    assert await store.stacks(t.id) == {}
    assert await player_balance(store, BOB) == 1000
    assert await check_store(store) == []
