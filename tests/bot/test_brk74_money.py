"""brk74: break-it on kush around settings changes, leaving and closing (R8.1–R8.4, R8.7).

Every kush movement is a balanced ledger entry; the balances and stacks sum to what the
ledger minted (:func:`tests.bot.money.assert_conserved`)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.model import Actor, LiveTable
from bot.service import TableService
from storage.api import Store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_service import GROUP, dealt_at, press_auto_and_confirm
from tests.bot.test_tournament_break import HEADS_UP, PLAYERS, play_scripted_hand, scripted_deck
from tests.bot.test_tournament_service import configure
from tests.bot.test_transitions import player_balance_in

DAVE = Actor("telegram", "4", "Dave", "en")

#: :data:`HEADS_UP` with no Fantasyland: the first player discards Q♦ and tops Q♥ 2♦ 2♣ (a
#: pair of twos under kings and aces), so the hand ends the match (R6.1, R6.6).
NO_FANTASYLAND = (
    (HEADS_UP[0][0], "Qh Qd 2d|t x t", *HEADS_UP[0][2:]),
    HEADS_UP[1],
)


def _service(
    store: Store, deck: tuple[tuple[str, ...], ...] = NO_FANTASYLAND
) -> tuple[TableService, FakePresenter, Clock]:
    clock = Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False,
        deck_source=lambda: scripted_deck(deck),
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter, clock


async def _rows(store: Store, actor: Actor) -> list[tuple[str, int, int]]:
    """``actor``'s ledger rows: (kind, balance delta, stack delta), in order."""
    community = await store.community("telegram", GROUP.community_id)
    player = await store.find_player(community.id, actor.user_id)
    assert player is not None
    return [
        (e.kind.value, e.balance_delta, e.stack_delta)
        for e in await store.ledger(community.id)
        if e.player_id == player.id
    ]


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """An in-memory store, then an SQLite one (closed after the test)."""
    if request.param == "memory":
        yield MemoryStore()
        return
    db = await SqliteStore.open(tmp_path / "db")
    yield db
    await db.close()


async def test_r8_2_a_newcomer_pays_the_lowered_buy_in_of_the_hand_they_play(
    store: Store,
) -> None:
    """At 50 kush a point and a buy-in of 200, an admin saves 10 a point and a buy-in of 40
    during the first hand; Dave sits down and presses Ready. The new buy-in is below the
    point in force, so it waits: the hand might earn a Fantasyland that keeps the match (and
    its point) going, and Dave pays 200, enough for either. The hand earns none: the match
    ends, the new options apply, and the hand Dave plays costs 40. He gets the 160 back as
    the new buy-in applies (R8.2: a new buy-in applies from the next hand), a refund and a
    buy-in of 40, each row balanced; his stack is 40 and his balance 960."""
    service, presenter, clock = _service(store)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    assert t.pending_buy_in == 40 and t.options.kush_per_point == 50
    assert not (await service.join(GROUP, DAVE)).alert
    reply = await service.ready(GROUP, DAVE)
    assert reply.text == "Ready: 200 kush moved to the table.", reply.text
    await play_scripted_hand(service, presenter, t, NO_FANTASYLAND)
    assert t.match is not None and not t.match.in_match  # (no Fantasyland: the match ended)
    assert t.options.kush_per_point == 10 and t.min_buy_in == 40
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == 40
    assert await player_balance_in(store, GROUP, DAVE) == 960
    assert await _rows(store, DAVE) == [
        ("starting", 1000, 0),
        ("buy_in", -200, 200),
        ("refund", 200, -200),
        ("buy_in", -40, 40),
    ]
    assert (await store.stacks(t.id))[dave.player_id] == 40
    note = "Dave: the buy-in is now 40 kush; 160 kush of the 200 paid went back to the balance."
    assert (GROUP.chat_id, note) in presenter.posts
    await assert_conserved(store)
    clock.now += 21  # (Bob's top-up window, R8.2: he lost his stack)
    await service.run_due()  # the next hand deals Dave in at 40
    assert t.hand is not None and dave.seat in t.hand.order
    assert dave.stack == 40 and dave.unplayed_buy_in == 0


async def test_r8_2_a_newcomer_keeps_the_old_buy_in_when_the_match_goes_on() -> None:
    """The same, but the hand earns its first player Fantasyland (Q♥Q♦ on top): the match
    and its point of 50 go on, the buy-in of 200 with them, so Dave's 200 is the buy-in of
    the hand he plays: nothing moves back."""
    store = MemoryStore()
    service, presenter, _clock = _service(store, HEADS_UP)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    assert not (await service.join(GROUP, DAVE)).alert
    assert not (await service.ready(GROUP, DAVE)).alert
    await play_scripted_hand(service, presenter, t, HEADS_UP)
    assert t.match is not None and t.match.in_match
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == 200
    assert await _rows(store, DAVE) == [("starting", 1000, 0), ("buy_in", -200, 200)]
    await assert_conserved(store)


async def _fantasyland_hand(
    store: Store,
) -> tuple[TableService, FakePresenter, Clock, LiveTable]:
    """Alice and Bob at 10 kush a point play :data:`HEADS_UP`: its first player makes
    Fantasyland; the table once its Fantasyland hand is dealt."""
    service, presenter, clock = _service(store, HEADS_UP)
    await configure(service, kush_per_point="10")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await play_scripted_hand(service, presenter, t, HEADS_UP)
    assert t.match is not None and t.match.in_match
    clock.now += 21
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    return service, presenter, clock, t


@pytest.mark.parametrize("who", ["fantasyland", "ordinary"])
async def test_r8_2_a_kick_during_a_fantasyland_hand_cashes_the_stack_out_once(who: str) -> None:
    """R6, R8.2: during the Fantasyland hand an admin kicks the player in Fantasyland, or the
    one playing the ordinary hand. Their cards are placed for them (R8.5), the hand settles
    and they stand up with what it left: their balance is 800 plus that stack, every row
    balanced, the kush of both equal to the 2,000 they started with."""
    store = MemoryStore()
    service, presenter, _clock, t = await _fantasyland_hand(store)
    assert t.hand is not None
    assert t.plan is not None and len(t.plan.fantasyland) == 1
    [fl_seat] = t.plan.fantasyland
    other = next(s for s in t.seats if s != fl_seat)
    in_fl = t.seats[fl_seat if who == "fantasyland" else other]
    kicked = next(a for a in PLAYERS[:2] if a.user_id == in_fl.user_id)
    kicked_id = in_fl.player_id
    admin = next(a for a in PLAYERS[:2] if a is not kicked)
    reply = await service.kick(GROUP, admin, True, kicked.name)
    assert not reply.alert, reply.text
    for _ in range(30):  # the other plays on, Arrange for me and Confirm
        if t.hand is None or t.hand_no != 2:
            break
        seat = t.seat_of(admin.user_id)
        assert seat is not None
        await press_auto_and_confirm(service, presenter, admin)
        await service.run_due()
    assert t.seat_of(kicked.user_id) is None
    rows = await _rows(store, kicked)
    cashed = [r[1] for r in rows if r[0] == "cash_out"]  # (none for an empty stack)
    assert len(cashed) <= 1, rows
    won = sum(r[2] for r in rows if r[0] == "hand_result")
    assert cashed == ([200 + won] if 200 + won else []), rows
    assert await player_balance_in(store, GROUP, kicked) == 800 + sum(cashed)
    assert kicked_id not in await store.stacks(t.id)
    held = await assert_conserved(store)
    assert sum(held.values()) == 2000


async def test_r8_2_leaving_and_joining_again_in_the_same_hand_pays_one_buy_in() -> None:
    """The lowered buy-in of the first test waits; Dave sits down, pays 200, leaves during
    the same hand (not dealt in: stood up at once, the 200 back) and sits down again, paying
    200 once more; the hand earns no Fantasyland and he gets 160 back. One buy-in is at the
    table (40), his balance 960, every row balanced."""
    store = MemoryStore()
    service, presenter, _clock = _service(store)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    assert not (await service.join(GROUP, DAVE)).alert
    assert not (await service.ready(GROUP, DAVE)).alert
    reply = await service.leave(GROUP, DAVE)
    assert reply.text == "You left the table; 200 kush back to your balance.", reply.text
    assert await player_balance_in(store, GROUP, DAVE) == 1000
    assert not (await service.join(GROUP, DAVE)).alert
    assert not (await service.ready(GROUP, DAVE)).alert
    await play_scripted_hand(service, presenter, t, NO_FANTASYLAND)
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == 40
    assert await player_balance_in(store, GROUP, DAVE) == 960
    assert await _rows(store, DAVE) == [
        ("starting", 1000, 0),
        ("buy_in", -200, 200),
        ("cash_out", 200, -200),
        ("buy_in", -200, 200),
        ("refund", 200, -200),
        ("buy_in", -40, 40),
    ]
    await assert_conserved(store)


async def test_r8_2_a_buy_in_lowered_in_the_lobby_gives_back_what_ready_paid_above() -> None:
    """In the lobby Alice presses Ready (200); an admin lowers the buy-in to 40 before any
    hand: the hand she plays costs 40 as it does for Bob, who presses Ready after: 160 back
    to her balance (a refund and a buy-in), both stacks 40 when the hand is dealt."""
    store = MemoryStore()
    service, _presenter, clock = _service(store)
    alice, bob = PLAYERS[:2]
    assert not (await service.new_table(GROUP, alice)).alert
    for a in (alice, bob):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, alice)).alert
    await configure(service, min_buy_in="40")
    assert not (await service.ready(GROUP, bob)).alert
    t = service.table_in(GROUP)
    assert t is not None
    clock.now += 6
    await service.run_due()
    assert t.hand is not None
    assert [s.stack for s in t.seats.values()] == [40, 40]
    assert await _rows(store, alice) == [
        ("starting", 1000, 0),
        ("buy_in", -200, 200),
        ("refund", 200, -200),
        ("buy_in", -40, 40),
    ]
    await assert_conserved(store)


async def test_r8_2_a_restart_before_the_hand_ends_keeps_what_the_newcomer_paid_above() -> None:
    """The first test's Dave pays 200 during the hand; the bot restarts (a crash between
    steps: the table comes back from its snapshot) before the hand ends with no
    Fantasyland. The restored seat still knows the 200 paid for a hand not dealt to him:
    160 come back as the lowered buy-in applies, once."""
    store = MemoryStore()
    service, _presenter, clock = _service(store)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    assert not (await service.join(GROUP, DAVE)).alert
    assert not (await service.ready(GROUP, DAVE)).alert
    await service.stop()
    service2 = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False,
        deck_source=lambda: scripted_deck(NO_FANTASYLAND),
    )  # fmt: skip
    presenter2 = FakePresenter()
    service2.register(presenter2)
    await service2.start()
    try:
        t2 = service2.table_in(GROUP)
        assert t2 is not None and t2.hand is not None and t2 is not t
        dave = t2.seat_of(DAVE.user_id)
        assert dave is not None and dave.unplayed_buy_in == 200
        await play_scripted_hand(service2, presenter2, t2, NO_FANTASYLAND)
        assert dave.stack == 40
        assert [r[0] for r in await _rows(store, DAVE)] == [
            "starting", "buy_in", "refund", "buy_in",
        ]  # fmt: skip
        assert await player_balance_in(store, GROUP, DAVE) == 960
        await assert_conserved(store)
    finally:
        await service2.stop()


async def test_r8_2_a_computer_player_added_during_the_hand_pays_the_buy_in_it_plays() -> None:
    """Issue 13, R8.2: as Dave in the first test, a computer player seated during the hand
    pays the table's buy-in (200, house kush) while the lowered one waits; the hand ends
    the match and its stack is the 40 everyone joining now pays: 160 back to its balance,
    a refund and a buy-in, as a person's (it sat at 200 against stacks bought in at 40)."""
    store = MemoryStore()
    service, presenter, _clock = _service(store)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    reply = await service.add_bot(GROUP, PLAYERS[0], True)
    assert not reply.alert, reply.text
    robot = next(s for s in t.seats.values() if s.bot is not None)
    assert robot.stack == 200
    await play_scripted_hand(service, presenter, t, NO_FANTASYLAND)
    assert robot.stack == 40
    community = await store.community("telegram", GROUP.community_id)
    rows = [
        (e.kind.value, e.balance_delta, e.stack_delta)
        for e in await store.ledger(community.id)
        if e.player_id == robot.player_id and e.kind.value != "admin_grant"
    ]
    assert rows == [("buy_in", -200, 200), ("refund", 200, -200), ("buy_in", -40, 40)]
    await assert_conserved(store)


async def test_r8_2_between_hands_of_a_match_going_on_a_newcomer_pays_the_point_in_force() -> None:
    """Guard (rev48, of buyin's "no hand running: the table's buy-in"): point 10 and buy-in
    40 saved during a hand at 50 a point that earns Fantasyland. Between that hand and the
    Fantasyland hand (the match goes on at 50 a point, R6.6) Dave sits down and presses
    Ready: he pays the table's 200, which pays the point in force, never the 40 waiting
    for the match's end; his Ready's step applies nothing early (the point stays 50, the 40
    waits)."""
    store = MemoryStore()
    service, presenter, _clock = _service(store, HEADS_UP)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    await play_scripted_hand(service, presenter, t, HEADS_UP)
    assert t.hand is None and t.match is not None and t.match.in_match
    assert (t.min_buy_in, t.pending_buy_in, t.options.kush_per_point) == (200, 40, 50)
    assert not (await service.join(GROUP, DAVE)).alert
    reply = await service.ready(GROUP, DAVE)
    assert reply.text == "Ready: 200 kush moved to the table.", reply.text
    assert (t.min_buy_in, t.pending_buy_in, t.options.kush_per_point) == (200, 40, 50)
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == 200 and not t.busted(dave)
    await assert_conserved(store)
