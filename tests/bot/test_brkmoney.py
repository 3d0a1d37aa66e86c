"""Break-it on kush conservation (R8.1–R8.4, R8.2a, R8.7, issue 13): two presses at the same
moment, rounds settled per round, tournaments, house kush and admin grants; after each
scenario the ledger is checked (:func:`tests.bot.money.assert_conserved`)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.model import Actor, ChatRef
from bot.presses import StartTournament, decode
from bot.service import TableService
from bot.texts import tr
from storage.api import Store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock, run_until_dealt
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm
from tests.bot.test_transitions import player_balance_in

GUILD = "guild"
CHAN1 = ChatRef("discord", GUILD, "c1", "one")
CHAN2 = ChatRef("discord", GUILD, "c2", "two")
DALICE = Actor("discord", "11", "Alice", "en")
DBOB = Actor("discord", "12", "Bob", "en")
DCAROL = Actor("discord", "13", "Carol", "en")


@pytest.fixture(params=["memory", "sqlite"])
async def world(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[TableService, FakePresenter, Store, Clock]]:
    store: Store = (
        MemoryStore() if request.param == "memory" else await SqliteStore.open(tmp_path / "m.db")
    )
    clock = Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    try:
        yield service, presenter, store, clock
    finally:
        await service.stop()
        if isinstance(store, SqliteStore):
            await store.close()


async def _grant(service: TableService, chat: ChatRef, admin: Actor, who: Actor, n: int) -> None:
    reply = await service.grant(
        chat, admin, True, who.user_id, str(n), key=f"g{who.user_id}{n}", target_name=who.name
    )
    assert not reply.alert, reply.text


async def _seat(service: TableService, chat: ChatRef, *actors: Actor) -> None:
    if service.table_in(chat) is None:
        assert not (await service.new_table(chat, actors[0])).alert
    for a in actors:
        assert not (await service.join(chat, a)).alert


async def test_r8_2_ready_and_leave_at_the_same_moment(world) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, clock = world
    await _seat(service, GROUP, ALICE, BOB, CAROL)
    assert not (await service.ready(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, CAROL)).alert
    await asyncio.gather(service.ready(GROUP, BOB), service.leave(GROUP, BOB))
    t = service.table_in(GROUP)
    assert t is not None
    await run_until_dealt(service, clock, t)
    totals = await assert_conserved(store)
    assert list(totals.values()) == [3000]
    stacks = await store.stacks(t.id)
    bob_balance = await player_balance_in(store, GROUP, BOB)
    seat = t.seat_of(BOB.user_id)
    bob_stack = seat.stack if seat is not None else 0
    assert bob_balance + bob_stack == 1000
    assert (
        sum(stacks.values())
        + sum([await player_balance_in(store, GROUP, a) for a in (ALICE, BOB, CAROL)])
        == 3000
    )


async def test_r8_2_top_up_at_the_moment_of_the_deal(world) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, clock = world
    await _seat(service, GROUP, ALICE, BOB)
    assert not (await service.ready(GROUP, ALICE)).alert
    await asyncio.gather(service.ready(GROUP, BOB), service.top_up(GROUP, ALICE, "300"))
    t = service.table_in(GROUP)
    assert t is not None
    await run_until_dealt(service, clock, t)
    assert t.hand is not None
    await assert_conserved(store)
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None
    assert alice.stack + await player_balance_in(store, GROUP, ALICE) == 1000
    assert (await store.stacks(t.id))[alice.player_id] == alice.stack


async def test_r8_2_two_top_ups_at_once_with_a_balance_for_one(world) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = world
    await _seat(service, GROUP, ALICE)
    assert not (await service.ready(GROUP, ALICE)).alert  # 200 on the table, 800 left
    await _grant(service, GROUP, BOB, ALICE, -300)  # 500 left
    replies = await asyncio.gather(
        service.top_up(GROUP, ALICE, "400", request="r1"),
        service.top_up(GROUP, ALICE, "400", request="r2"),
    )
    assert sorted(r.alert for r in replies) == [False, True], replies
    t = service.table_in(GROUP)
    assert t is not None
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and alice.stack == 600
    assert await player_balance_in(store, GROUP, ALICE) == 100
    await assert_conserved(store)


async def test_r8_2_ready_at_two_tables_of_one_guild_with_a_balance_for_one(world) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = world
    await _seat(service, CHAN1, DALICE, DBOB)
    await _seat(service, CHAN2, DALICE, DCAROL)
    await _grant(service, CHAN1, DBOB, DALICE, -700)  # 300: one buy-in of 200
    replies = await asyncio.gather(service.ready(CHAN1, DALICE), service.ready(CHAN2, DALICE))
    assert sorted(r.alert for r in replies) == [False, True], replies
    assert await player_balance_in(store, CHAN1, DALICE) == 100
    await assert_conserved(store)


async def test_r8_2_join_at_two_tables_with_a_balance_for_one(world) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = world
    assert not (await service.new_table(CHAN1, DBOB)).alert
    assert not (await service.new_table(CHAN2, DCAROL)).alert
    await _grant(service, CHAN1, DBOB, DALICE, -700)
    await asyncio.gather(service.join(CHAN1, DALICE), service.join(CHAN2, DALICE))
    replies = await asyncio.gather(service.ready(CHAN1, DALICE), service.ready(CHAN2, DALICE))
    assert sorted(r.alert for r in replies) == [False, True], replies
    assert await player_balance_in(store, CHAN1, DALICE) == 100
    await assert_conserved(store)


async def test_r8_2_leave_at_the_moment_of_the_showdown(world) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, _clock = world
    await _seat(service, GROUP, ALICE, BOB)
    for a in (ALICE, BOB):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    raced = 0
    # play until the last confirm of the hand is one press away
    while t.hand is not None and t.hand_no == 1:
        seat = t.hand.to_act[0]
        actor = by_id[t.seats[seat].user_id]
        other = BOB if actor is ALICE else ALICE
        seats = t.hand._seats  # (the hand's last confirm: every other board done)
        last = all(st.done for k, st in seats.items() if k != seat) and seats[seat].street == 4
        raced += last
        if last:
            await asyncio.gather(
                press_auto_and_confirm(service, presenter, actor), service.leave(GROUP, other)
            )
        else:
            await press_auto_and_confirm(service, presenter, actor)
    assert raced == 1
    totals = await assert_conserved(store)
    assert list(totals.values()) == [2000]
    community = await store.community(GROUP.platform, GROUP.community_id)
    alice = await store.find_player(community.id, ALICE.user_id)
    assert alice is not None
    (record,) = await store.hand_history(alice.id, 5)  # the hand was settled, once
    kush = record.result["kush"]
    assert sum(kush.values()) == 0 and any(kush.values())
    # the leaver's kush went to the balance with the settlement: stacks and balances = 2000
    stacks = await store.stacks(t.id)
    balances = [await player_balance_in(store, GROUP, a) for a in (ALICE, BOB)]
    assert sum(stacks.values()) + sum(balances) == 2000


PLAYERS = (ALICE, BOB, CAROL)


async def _press_maybe_stale(service: TableService, presenter: FakePresenter, actor: Actor) -> None:
    """Arrange and confirm, the press refused as stale allowed (the race lost to a step that
    ended the hand)."""
    try:
        await press_auto_and_confirm(service, presenter, actor)
    except AssertionError as e:
        said = str(e)
        assert "out of date" in said or "устарела" in said or "Too late" in said, said


async def _tournament(service: TableService, **values: str) -> None:
    for name, value in values.items():
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    for a in PLAYERS:
        assert not (await service.join(GROUP, a)).alert


def _actor(t, seat: int) -> Actor:  # type: ignore[no-untyped-def]
    acting = t.seats[t.owner(seat)]
    return next(a for a in PLAYERS if a.user_id == acting.user_id)


@pytest.mark.parametrize("race", ["leave", "close"])
async def test_r8_7_leave_or_close_at_the_moment_of_a_settlement_keeps_an_odd_pool(  # type: ignore[no-untyped-def]
    world, race: str
) -> None:
    """An odd pool (3 × 33 = 99, payouts 51/49): at the last confirm of every hand, a
    player leaves (knocked out at that moment, R8.7) or an admin closes the tournament: every
    kush of the pool is paid out (the winner takes the remainder), nothing lost."""
    service, presenter, store, clock = world
    await _tournament(service, tournament_buy_in="33", tournament_chips="30", payouts="51,49")
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.tournament.pool == 99
    table_id = t.id
    raced = False
    for _ in range(3000):
        if service.table_in(GROUP) is None:
            break
        if t.hand is None:
            clock.now += 5
            await service.run_due()
            continue
        seat = t.hand.to_act[0]
        actor = _actor(t, seat)
        seats = t.hand._seats
        last = all(st.done for k, st in seats.items() if k != seat) and seats[seat].street == 4
        if last and not raced and t.hand_no >= 2:
            raced = True
            other = next(a for a in PLAYERS if a is not actor and t.seat_of(a.user_id))
            third = (
                service.leave(GROUP, other)
                if race == "leave"
                else service.close_table(GROUP, ALICE, True)
            )
            await asyncio.gather(_press_maybe_stale(service, presenter, actor), third)
        else:
            await press_auto_and_confirm(service, presenter, actor)
    assert raced and service.table_in(GROUP) is None
    assert await store.stacks(table_id) == {}
    await assert_conserved(store)
    balances = [await player_balance_in(store, GROUP, a) for a in PLAYERS]
    assert sum(balances) == 3000, balances


async def test_issue13_house_kush_never_touches_a_members_balance(world) -> None:  # type: ignore[no-untyped-def]
    """A computer player plays with house kush: Alice's balance and stack move only by her
    buy-ins, top-ups and the hands' results; the house's grants go to computer players
    only, even when Alice leaves or /removebot comes at the moment the computer moves."""
    service, presenter, store, clock = world
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "20"])
    assert not reply.alert, reply.text
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.add_bot(GROUP, ALICE, True, "easy")).alert
    assert not (await service.add_bot(GROUP, ALICE, True, "easy", "r2")).alert
    await _seat(service, GROUP, ALICE)
    assert not (await service.ready(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None
    raced = 0
    for _step in range(3000):
        if t.hand is None:
            if not t.seat_of(ALICE.user_id):
                break
            clock.now += 10
            if raced == 1 and t.bot_due is None:
                await asyncio.gather(service.top_up(GROUP, ALICE, "200"), service.run_due())
            else:
                await service.run_due()
            continue
        seat = t.seats[t.owner(t.hand.to_act[0])]
        if seat.bot:
            assert t.bot_due is not None
            clock.now = t.bot_due
            if t.hand_no == 2 and raced == 0:
                raced = 1
                bot = next(s for s in t.seats.values() if s.bot)
                await asyncio.gather(
                    service.run_due(), service.remove_bot(GROUP, ALICE, True, bot.name)
                )
            elif t.hand_no == 4 and raced == 1:
                raced = 2
                # a leave during her hand asks first (R8.5): her first /leave changes
                # nothing, the second (within LEAVE_CONFIRM_SECONDS) comes as the computer
                # moves. (A single one left her seated: the walk then played its 3,000 steps,
                # about 300 hands, with no leave in them.)
                alice = t.seat_of(ALICE.user_id)
                assert alice is not None and not alice.leaving
                await service.leave(GROUP, ALICE)
                await asyncio.gather(service.run_due(), service.leave(GROUP, ALICE))
                gone = t.seat_of(ALICE.user_id)
                assert gone is None or gone.leaving  # she leaves after this hand
            else:
                await service.run_due()
        else:
            await _press_maybe_stale(service, presenter, ALICE)
    assert raced == 2
    assert t.seat_of(ALICE.user_id) is None  # she left (the walk ended with her leave)
    await assert_conserved(store)
    community = await store.community(GROUP.platform, GROUP.community_id)
    alice = await store.find_player(community.id, ALICE.user_id)
    assert alice is not None
    rows = [e for e in await store.ledger(community.id) if e.player_id == alice.id]
    minted = sum(e.balance_delta for e in rows if e.kind.value in ("starting", "admin_grant"))
    assert minted == 1000  # her starting balance; no house kush
    results = sum(e.stack_delta for e in rows if e.kind.value == "hand_result")
    seat = t.seat_of(ALICE.user_id)
    assert alice.balance + (seat.stack if seat else 0) == 1000 + results


@pytest.mark.parametrize("race", ["leave", "close", "idle", "poor"])
async def test_r8_3_r8_4_a_round_owed_as_a_stack_leaves_at_the_showdown(  # type: ignore[no-untyped-def]
    world, race: str
) -> None:
    """settle_per_round (R8.3) with three players at 10 kush a point: in the round's second
    hand a player leaves, the admin closes the table, or the table is left idle (R8.2a)
    at the moment of the hand's last confirm; "poor": Bob's stack is small (R8.4 caps
    what he pays). Whatever wins the race, the round's points are settled first, each
    transfer capped, and every kush is in a balance or a stack."""
    service, presenter, store, clock = world
    for name, value in (("settle_per_round", "on"), ("kush_per_point", "10"),
                        ("fantasyland", "off")):  # fmt: skip
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    await _seat(service, GROUP, *PLAYERS)
    for a in PLAYERS:
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None
    await run_until_dealt(service, clock, t)
    if race == "poor":
        await _grant(service, GROUP, ALICE, BOB, -800)  # (his balance 0: no top-up)
    table_id = t.id
    raced = False
    for _ in range(500):
        # done once the raced hand is over (a new hand may be dealt at once: the race left
        # the table open and its next hand has nothing more to tell)
        if service.table_in(GROUP) is None or (raced and (t.hand is None or t.hand_no > 2)):
            break
        if t.hand is None:
            clock.now += 6
            await service.run_due()
            continue
        seat = t.hand.to_act[0]
        actor = _actor(t, seat)
        seats = t.hand._seats
        last = all(st.done for k, st in seats.items() if k != seat) and seats[seat].street == 4
        if last and t.hand_no == 2:
            raced = True
            assert t.match is not None and t.match.round_pairs  # owed from hand 1
            other = next(a for a in PLAYERS if a is not actor)
            if race == "leave":
                third = service.leave(GROUP, other)
            elif race == "close":
                third = service.close_table(GROUP, ALICE, True)
            else:
                clock.now += t.options.idle_close_seconds + 1
                third = service.run_due()
            await asyncio.gather(_press_maybe_stale(service, presenter, actor), third)
        else:
            await _press_maybe_stale(service, presenter, actor)
    assert raced
    await assert_conserved(store)
    stacks = await store.stacks(table_id)
    balances = [await player_balance_in(store, GROUP, a) for a in PLAYERS]
    assert sum(stacks.values()) + sum(balances) == 3000 - (800 if race == "poor" else 0)
    assert min(stacks.values(), default=0) >= 0


async def test_r8_1_daily_twice_at_once_pays_once(world) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = world
    await _seat(service, GROUP, ALICE)
    replies = await asyncio.gather(service.daily(GROUP, ALICE), service.daily(GROUP, ALICE))
    assert sorted(r.alert for r in replies) == [False, True], replies
    assert await player_balance_in(store, GROUP, ALICE) == 1100
    await assert_conserved(store)


async def test_r8_7_register_at_two_tournaments_of_a_guild_with_a_balance_for_one(world) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = world
    for chat, opener in ((CHAN1, DBOB), (CHAN2, DCAROL)):
        assert not (await service.new_tournament(chat, opener, "pineapple")).alert
        assert not (await service.join(chat, opener)).alert
    await _grant(service, CHAN1, DBOB, DALICE, -850)  # 150: one buy-in of 100
    replies = await asyncio.gather(service.join(CHAN1, DALICE), service.join(CHAN2, DALICE))
    assert sorted(r.alert for r in replies) == [False, True], replies
    assert await player_balance_in(store, CHAN1, DALICE) == 50
    await assert_conserved(store)
    # the opener closes both lobbies at the moment Alice leaves: every buy-in back
    await asyncio.gather(
        service.close_table(CHAN1, DBOB, True),
        service.leave(CHAN1, DALICE),
        service.leave(CHAN2, DALICE),
        service.close_table(CHAN2, DCAROL, True),
    )
    for who in (DALICE, DBOB, DCAROL):
        expected = 150 if who is DALICE else 1000
        assert await player_balance_in(store, CHAN1, who) == expected
    await assert_conserved(store)


async def test_r8_7_unregister_at_the_moment_of_the_start(world) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, _clock = world
    reply = await service.settings(GROUP, ALICE, True, ["tournament_buy_in", "33"])
    assert not reply.alert, reply.text
    assert not (await service.new_tournament(GROUP, ALICE, "ofc")).alert
    for a in PLAYERS:
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), StartTournament)
    )
    await asyncio.gather(service.press(ALICE, start, GROUP), service.leave(GROUP, CAROL))
    await assert_conserved(store)
    stacks = await store.stacks(t.id)
    balances = [await player_balance_in(store, GROUP, a) for a in PLAYERS]
    assert sum(stacks.values()) == t.tournament.pool
    assert sum(balances) + t.tournament.pool == 3000
    assert t.tournament.pool == 33 * len(t.tournament.players)


async def test_grant_twice_at_once_keeps_the_balance_within_its_limit(world) -> None:  # type: ignore[no-untyped-def]
    """Two /grant at the same moment, each fitting under the balance's limit alone, both
    read the balance before either wrote it: both went through, the balance past
    BALANCE_LIMIT (which the grant promises to keep)."""
    from bot.service.settings import KUSH_LIMIT
    from bot.service.wallet import BALANCE_LIMIT, grouped

    service, _presenter, store, _clock = world
    await _seat(service, GROUP, ALICE)
    step = KUSH_LIMIT
    while await player_balance_in(store, GROUP, ALICE) + step <= BALANCE_LIMIT - step:
        have = await player_balance_in(store, GROUP, ALICE)
        n = min(step, BALANCE_LIMIT - step - have)
        reply = await service.grant(GROUP, BOB, True, ALICE.user_id, str(n), key=f"k{have}")
        assert not reply.alert, reply.text
    have = await player_balance_in(store, GROUP, ALICE)
    assert BALANCE_LIMIT - 2 * step < have <= BALANCE_LIMIT - step
    # both read the balance before either writes: the store's grant waits for the other
    real, arrived, both = store.grant, [], asyncio.Event()

    async def grant_after_both_read(*args, **kwargs):  # type: ignore[no-untyped-def]
        arrived.append(1)
        if len(arrived) == 2:
            both.set()
        await asyncio.wait_for(both.wait(), 1)
        return await real(*args, **kwargs)

    store.grant = grant_after_both_read
    replies = await asyncio.gather(
        service.grant(GROUP, BOB, True, ALICE.user_id, str(step), key="a"),
        service.grant(GROUP, BOB, True, ALICE.user_id, str(step), key="b"),
    )
    assert sorted(r.alert for r in replies) == [False, True], replies
    refused = next(r for r in replies if r.alert)  # (Bob, the admin, reads Russian)
    assert refused.text == tr(
        "ru",
        "reply.grant_balance_bound",
        name="Alice",
        limit=grouped(BALANCE_LIMIT, "ru"),
        label="kush",
    )
    assert await player_balance_in(store, GROUP, ALICE) == have + step
    await assert_conserved(store)


async def test_grant_takes_from_a_balance_a_cash_out_left_above_the_limit(world) -> None:  # type: ignore[no-untyped-def]
    """A cash-out may leave a balance above BALANCE_LIMIT (the limit is the grant's): /grant
    with a negative amount was refused there as "would be above the limit"."""
    from bot.service.settings import KUSH_LIMIT
    from bot.service.wallet import BALANCE_LIMIT

    service, _presenter, store, _clock = world
    await _seat(service, GROUP, ALICE)
    assert not (await service.ready(GROUP, ALICE)).alert  # 200 on the table
    while (have := await player_balance_in(store, GROUP, ALICE)) < BALANCE_LIMIT:
        n = min(KUSH_LIMIT, BALANCE_LIMIT - have)
        reply = await service.grant(GROUP, BOB, True, ALICE.user_id, str(n), key=f"k{have}")
        assert not reply.alert, reply.text
    assert not (await service.leave(GROUP, ALICE)).alert
    assert await player_balance_in(store, GROUP, ALICE) == BALANCE_LIMIT + 200
    reply = await service.grant(GROUP, BOB, True, ALICE.user_id, "-100", key="take")
    assert not reply.alert, reply.text
    assert await player_balance_in(store, GROUP, ALICE) == BALANCE_LIMIT + 100
    await assert_conserved(store)


MONEY_SETTINGS = (
    "starting_balance",
    "daily_bonus",
    "min_buy_in",
    "max_buy_in",
    "tournament_buy_in",
    "tournament_chips",
    "kush_per_point",
)


@pytest.mark.parametrize("name", MONEY_SETTINGS)
async def test_r8_1_money_settings_refuse_bad_amounts_and_change_nothing(world, name: str) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = world
    await _seat(service, GROUP, ALICE)
    community = await store.community(GROUP.platform, GROUP.community_id)
    before = community.settings
    t = service.table_in(GROUP)
    assert t is not None
    options = t.options
    for bad in ("-5", "1.5", "1e3", str(2**64), str(-(2**63)), "abc", "nan", "inf", "0x10"):
        reply = await service.settings(GROUP, ALICE, True, [name, bad])
        assert reply.alert, (name, bad, reply.text)
    assert (await store.community(GROUP.platform, GROUP.community_id)).settings == before
    assert t.options == options
    await assert_conserved(store)


@pytest.mark.parametrize("closer", ["idle", "admin", "kicked"])
async def test_r8_2a_ready_and_top_up_at_the_moment_the_table_closes(world, closer: str) -> None:  # type: ignore[no-untyped-def]
    """The table closes (idle, R8.2a; an admin; the bot removed from the group) at the
    moment Bob presses Ready and Alice tops up: no buy-in lands on a closed table, every
    stack is back in a balance."""
    service, _presenter, store, clock = world
    await _seat(service, GROUP, ALICE, BOB)
    assert not (await service.ready(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None
    table_id = t.id
    if closer == "idle":
        clock.now += t.options.idle_close_seconds + 1
        close = service.run_due()
    elif closer == "admin":
        close = service.close_table(GROUP, CAROL, True)
    else:
        close = service.chat_left(GROUP.platform, GROUP.chat_id)
    await asyncio.gather(service.ready(GROUP, BOB), service.top_up(GROUP, ALICE, "300"), close)
    await service.run_due()
    await assert_conserved(store)
    if service.table_in(GROUP) is None:
        assert await store.stacks(table_id) == {}
        for a in (ALICE, BOB):
            assert await player_balance_in(store, GROUP, a) == 1000
    else:
        stacks = await store.stacks(table_id)
        balances = [await player_balance_in(store, GROUP, a) for a in (ALICE, BOB)]
        assert sum(stacks.values()) + sum(balances) == 2000


@pytest.mark.parametrize(
    "amount",
    ["-0", "+0", "1.5", "1e3", "1_000", str(2**63), str(-(2**63)), str(2**64 + 1), "abc", "nan",
     "inf", "0x10", "١٠٠", "１００", "10" * 40],
)  # fmt: skip
async def test_grant_refuses_bad_amounts_and_moves_nothing(world, amount: str) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = world
    await _seat(service, GROUP, ALICE)
    reply = await service.grant(GROUP, BOB, True, ALICE.user_id, amount, key=f"k{amount}")
    assert reply.alert, (amount, reply.text)
    assert await player_balance_in(store, GROUP, ALICE) == 1000
    community = await store.community(GROUP.platform, GROUP.community_id)
    grants = [e for e in await store.ledger(community.id) if e.kind.value == "admin_grant"]
    assert grants == []
    await assert_conserved(store)
