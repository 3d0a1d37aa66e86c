"""brk26: commands and presses racing a table's timer whose time has come but which has not
fired yet (a loaded bot, a timer a moment late, a restart that delivers the updates that
waited before it runs the restored table's timer). The timer's step is made first, as if it
had fired on time. In-memory store, a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

import random

import pytest

from bot.presses import Ready, decode
from bot.service import TableService
from bot.service.dealing import TOP_UP_SECONDS
from bot.texts import tr
from storage.check import check_store
from tests.bot.fakes import FakePresenter
from tests.bot.test_break19 import configure, ready_timer_ran_out
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, seated
from tests.bot.test_topup import a_hand_at_100_a_point, bob_loses_the_first_hand
from tests.bot.test_transitions import player_balance

IDLE_EN = tr("en", "table.idle_closed", table=1, minutes=30, seconds=1800)


def _ready_button(presenter: FakePresenter) -> str:
    lobby = presenter.last_table(GROUP.chat_id)
    return next(b.data for b in lobby.all_buttons() if isinstance(decode(b.data), Ready))


def _closes(presenter: FakePresenter) -> list[str]:
    """The texts of the group's table messages that say a table closed for want of a hand."""
    return [s.text for s in presenter.tables[GROUP.chat_id] if "no hand for" in s.text]


async def test_r8_2a_a_join_after_the_idle_close_was_due_finds_the_table_closed(env) -> None:  # type: ignore[no-untyped-def]
    """Alice sits alone for 30 minutes; Carol's /join comes after the idle close was due,
    before the timer fired. She was told "you sit at seat 2" and the table closed under her a
    moment later. Now the close comes first and her /join is answered with it."""
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    clock.now += 1800
    reply = await service.join(GROUP, CAROL)
    assert reply.alert and reply.text == IDLE_EN
    assert service.table_in(GROUP) is None
    assert _closes(presenter) == [IDLE_EN]
    await service.run_due()
    assert _closes(presenter) == [IDLE_EN]
    assert await player_balance(store, ALICE) == 1000
    community = await store.community("telegram", GROUP.chat_id)
    assert await store.find_player(community.id, CAROL.user_id) is None  # nothing of hers ran
    assert await check_store(store) == []


async def test_r8_2a_ready_after_the_idle_close_was_due_deals_no_hand(env) -> None:  # type: ignore[no-untyped-def]
    """Alice is bought in, Bob is seated and not; Bob's Ready (the button) comes after the idle
    close was due, before the timer fired: it dealt a hand at a table whose time was up.
    Now the table closes first, Bob's press is answered with the close (in his Russian), no
    buy-in of his is taken and Alice's stack goes back to her balance exactly once."""
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    assert await player_balance(store, ALICE) == 800
    t = service.table_in(GROUP)
    assert t is not None
    clock.now += 1800
    reply = await service.press(BOB, _ready_button(presenter), GROUP)
    assert reply.alert
    assert reply.text == tr("ru", "table.idle_closed", table=1, minutes=30, seconds=1800)
    assert service.table_in(GROUP) is None and t.hand is None and t.hand_no == 0
    await service.run_due()
    assert _closes(presenter) == [IDLE_EN]
    assert await player_balance(store, ALICE) == await player_balance(store, BOB) == 1000
    assert await check_store(store) == []


async def test_r8_2a_newtable_after_the_idle_close_was_due_opens_a_new_table(env) -> None:  # type: ignore[no-untyped-def]
    """/newtable after the idle close was due, before the timer fired: answered "a table is
    open here", and the table closed a moment later. Now the old one closes and a new one
    opens."""
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    old = service.table_in(GROUP)
    assert old is not None
    clock.now += 1800
    reply = await service.new_table(GROUP, BOB)
    assert not reply.alert, reply.text
    new = service.table_in(GROUP)
    assert new is not None and new.id == old.id + 1
    assert _closes(presenter) == [IDLE_EN]
    assert await player_balance(store, ALICE) == 1000
    assert await check_store(store) == []


async def test_r8_2a_after_a_restart_a_command_before_the_restored_timer_closes_it(env) -> None:  # type: ignore[no-untyped-def]
    """The idle close was due when the bot stopped, its timer not yet fired (the idle time
    does not run while the bot is down); restarted, the Ready that waited is delivered
    before the restored table's timer ran: the close first, Alice's stack back once."""
    service, _presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    clock.now += 1800
    await service.stop()
    clock.now += 600
    service2 = TableService(store, clock=clock, rng=random.Random(9), timers=False)
    presenter2 = FakePresenter()
    service2.register(presenter2)
    await service2.start()
    assert service2.table_in(GROUP) is not None
    reply = await service2.ready(GROUP, BOB)
    assert reply.alert
    assert reply.text == tr("ru", "table.idle_closed", table=1, minutes=30, seconds=1800)
    assert service2.table_in(GROUP) is None
    await service2.run_due()
    assert await player_balance(store, ALICE) == await player_balance(store, BOB) == 1000
    assert await check_store(store) == []


async def test_r8_2a_a_settings_change_after_the_idle_close_was_due_does_not_undo_it(env) -> None:  # type: ignore[no-untyped-def]
    """Alice sits alone for 30 minutes; an admin raises ``idle_close_seconds`` to an hour
    after the close was due, before the timer fired: the table stayed open for another half
    hour (the close counted anew from the change). Now the close is made first."""
    service, _presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    clock.now += 1800
    reply = await service.settings(GROUP, BOB, True, ["idle_close_seconds", "3600"])
    assert not reply.alert, reply.text
    assert service.table_in(GROUP) is None
    assert await player_balance(store, ALICE) == 1000
    assert await check_store(store) == []


async def test_r8_2_a_settings_change_after_the_ready_timer_ran_out_follows_its_step(env) -> None:  # type: ignore[no-untyped-def]
    """Alice and Bob are ready, Carol is not; the ready timer runs out (R8.2) and, before the
    table's timer fired, an admin raises ``ready_seconds`` to 120: the timer that had run out
    was given 60 s more. Now its step comes first: Carol stood up, the hand dealt."""
    service, _presenter, store, clock = env
    t = await ready_timer_ran_out(service, clock)
    reply = await service.settings(GROUP, ALICE, True, ["ready_seconds", "120"])
    assert not reply.alert, reply.text
    assert t.seat_of(CAROL.user_id) is None
    assert t.hand is not None and t.hand_no == 1 and len(t.hand.order) == 2
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2_a_raised_ready_seconds_gives_a_late_joiner_out_of_time_none(env) -> None:  # type: ignore[no-untyped-def]
    """Carol sits down during Alice and Bob's hand: 60 s to press Ready (R8.2). They run out
    and, before the table's timer fired, an admin raises ``ready_seconds`` to 120: Carol's
    time, already over, was given 60 s more. Now she is stood up first (no kush taken)."""
    service, _presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert not (await service.join(GROUP, CAROL)).alert
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready_by == clock.now + 60
    clock.now += 60
    reply = await service.settings(GROUP, ALICE, True, ["ready_seconds", "120"])
    assert not reply.alert, reply.text
    assert t.seat_of(CAROL.user_id) is None
    assert t.hand is not None and t.hand_no == 1
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2_a_computer_player_added_after_the_ready_timer_ran_out_sits_later(env) -> None:  # type: ignore[no-untyped-def]
    """Classic OFC: Alice and Bob are ready, Carol is not; the ready timer runs out (R8.2)
    and, before the table's timer fired, an admin adds a computer player: it was dealt into
    the hand whose deal was due before it sat down. Now the timer's step comes first (Carol
    stood up, the hand dealt to Alice and Bob) and the computer player sits down after it."""
    service, presenter, store, clock = env
    await configure(service, game="ofc")
    t = await ready_timer_ran_out(service, clock)
    reply = await service.add_bot(GROUP, ALICE, True, "easy")
    assert not reply.alert, reply.text
    assert t.seat_of(CAROL.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert t.hand is not None and t.hand_no == 1
    assert [t.seats[s].name for s in t.hand.order] == ["Alice", "Bob"]
    assert [s.name for s in t.seats.values() if s.bot] == ["🤖 Anna"]
    assert await check_store(store) == []


@pytest.mark.parametrize("how", ["command", "button"])
async def test_r8_2_a_busted_ready_after_the_top_up_offer_ran_out_says_the_top_up_ran_out(
    how: str,
) -> None:
    """R8.2: Bob loses his whole stack heads-up and is offered the top-up, 20 s in the lobby.
    At 20 s, before the table's timer fired, he presses Ready (bought in already: "Ready"
    does not top up). He is stood up as the timer stands him up, and told so: it said "the
    time to press Ready ran out (nothing was taken)", of a player who had bought in and
    whose seat went for want of a top-up."""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    await bob_loses_the_first_hand(service, presenter, t)
    assert t.hand is None and t.top_up_deadline == clock.now + TOP_UP_SECONDS
    clock.now += TOP_UP_SECONDS
    if how == "command":
        reply = await service.ready(GROUP, BOB)
    else:
        reply = await service.press(BOB, _ready_button(presenter), GROUP)
    assert reply.alert and reply.text == tr("ru", "reply.topup_too_late")  # (Bob reads Russian)
    assert t.seat_of(BOB.user_id) is None
    assert await player_balance(store, BOB) == 800
    assert await check_store(store) == []


@pytest.mark.parametrize("where", ["lobby", "late_joiner"])
async def test_r8_2_an_unready_topup_after_the_time_to_press_ready_ran_out_says_so(
    env,  # type: ignore[no-untyped-def]
    where: str,
) -> None:
    """R8.2: Carol never pressed Ready (in the lobby beside Alice and Bob, whose ready timer
    runs; or seated during their hand, with 60 s of her own). The time runs out and, before
    the table's timer fired, she types /topup: she is stood up as the timer stands her up
    (nothing taken) and told the time to press Ready ran out; it said the time to top up
    ran out, of a player never offered one."""
    service, _presenter, store, clock = env
    if where == "lobby":
        await service.new_table(GROUP, ALICE)
        for a in (ALICE, BOB, CAROL):
            assert not (await service.join(GROUP, a)).alert
        await service.ready(GROUP, ALICE)
        await service.ready(GROUP, BOB)
    else:
        await seated(service, ALICE, BOB)
        assert not (await service.join(GROUP, CAROL)).alert
    t = service.table_in(GROUP)
    assert t is not None
    clock.now += 60
    reply = await service.top_up(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "reply.ready_too_late")
    assert t.seat_of(CAROL.user_id) is None
    assert t.hand is not None and len(t.hand.order) == 2
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2a_leave_after_the_idle_close_was_due_cashes_the_stack_out_once(env) -> None:  # type: ignore[no-untyped-def]
    """Alice is bought in, alone, for 30 minutes; her /leave comes after the idle close was
    due, before the timer fired: the close comes first (her stack back to her balance, once,
    with the close's ledger entry) and she is answered with the close; the timer, firing
    then, finds nothing to do."""
    service, _presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    assert await player_balance(store, ALICE) == 800
    clock.now += 1800
    reply = await service.leave(GROUP, ALICE)
    assert reply.alert and reply.text == IDLE_EN
    assert service.table_in(GROUP) is None
    await service.run_due()
    assert await player_balance(store, ALICE) == 1000
    assert await check_store(store) == []


async def test_r8_2_r8_6_a_busted_back_after_the_next_deal_was_due_keeps_the_seat() -> None:
    """R8.2, R8.6: Carol sits down during Alice and Bob's first hand, which Bob loses to the
    last kush; he sits out (a busted player sitting out keeps the seat). The next deal comes
    due and, before the timer fired, he types /back: the deal his /back made stood him up,
    his seat gone, and he was told "top up to play". Now the deal comes first, to Alice and
    Carol, and Bob is back with his seat, to top up during their hand."""
    service, presenter, store, clock, t = await a_hand_at_100_a_point()
    assert not (await service.join(GROUP, CAROL)).alert
    assert not (await service.ready(GROUP, CAROL)).alert
    await bob_loses_the_first_hand(service, presenter, t)
    assert t.hand is None and t.next_hand_at == clock.now + TOP_UP_SECONDS
    assert not (await service.sit_out(GROUP, BOB)).alert
    clock.now += TOP_UP_SECONDS
    reply = await service.back(GROUP, BOB)
    assert reply.text == tr("ru", "reply.busted_top_up", stack=0, label="kush")
    assert t.hand is not None and t.hand_no == 2
    assert sorted(t.seats[t.owner(s)].name for s in t.hand.order) == ["Alice", "Carol"]
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.sitting_out and bob.stack == 0
    reply = await service.top_up(GROUP, BOB)  # during their hand: added at once (not his)
    assert not reply.alert, reply.text
    assert bob.stack == 200 and await player_balance(store, BOB) == 600
    assert await check_store(store) == []
