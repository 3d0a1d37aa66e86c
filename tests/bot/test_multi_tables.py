"""One player seated at several tables at once (break-it session "multi"): two tables in two
channels of one Discord guild (one player, one balance) or in two Telegram groups (two
players of one person). Each table's buy-in, timeout, sit-out, block and idle close concern
that table only; R8.6's bank is not refilled by leaving and rejoining one of them."""

from __future__ import annotations

import asyncio
import random

from bot.model import Actor, ChatRef, LiveTable
from bot.presses import DiscardCard, PlaceCard, encode, table_of
from bot.screens import Payload, Screen
from bot.service import TableService
from game.board import Box
from game.cards import shuffled_deck
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FOULED_NOTICES, FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, dealt_at
from tests.bot.test_stats_service import hand_version
from tests.bot.test_tournament_break import HEADS_UP, Streets, layout, scripted_deck

HERE = ChatRef("discord", "g1", "c-a", "Poker")
THERE = ChatRef("discord", "g1", "c-b", "Poker")
OTHER = ChatRef("telegram", "-200", "-200", "Others")
ANNA = Actor("discord", "11", "Anna", "en")
BORIS = Actor("discord", "12", "Boris", "en")
VERA = Actor("discord", "13", "Vera", "en")


async def _balance(store, t: LiveTable, actor: Actor) -> int:  # type: ignore[no-untyped-def]
    p = await store.find_player(t.community_id, actor.user_id)
    assert p is not None
    return int(p.balance)


async def test_ready_at_two_tables_at_once_never_overdraws(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2: Anna (1,000 kush) presses Ready at two tables of her guild in the same instant,
    each with a buy-in of 600: one buys in, the other is refused; nothing is overdrawn."""
    service, _presenter, store, _clock = env
    for chat, other in ((HERE, BORIS), (THERE, VERA)):
        assert not (await service.new_table(chat, other)).alert
        assert not (await service.join(chat, ANNA)).alert
        assert not (await service.join(chat, other)).alert
        assert not (await service.ready(chat, other)).alert
    a, b = service.table_in(HERE), service.table_in(THERE)
    assert a is not None and b is not None and await _balance(store, a, ANNA) == 1000
    a.min_buy_in = b.min_buy_in = 600
    r1, r2 = await asyncio.gather(service.ready(HERE, ANNA), service.ready(THERE, ANNA))
    assert sorted([r1.alert, r2.alert]) == [False, True]  # one buy-in of 600 fits the 1000
    after = await _balance(store, a, ANNA)
    stacks = sum(s.stack for t in (a, b) for s in t.seats.values() if s.user_id == ANNA.user_id)
    assert (after, stacks) == (400, 600)


async def act(service: TableService, presenter: FakePresenter, actor: Actor, t: LiveTable) -> None:
    """``actor`` arranges and confirms at ``t`` from their latest private screen of ``t``."""
    screen = next(
        s
        for s in reversed(presenter.privates[actor.user_id])
        if any(table_of(b.data) == t.id for b in s.all_buttons() if b.data)
    )
    for _ in range(2):
        codes = {Payload.decode(b.data).action: b.data for b in screen.all_buttons() if b.data}
        if "a" in codes:
            r = await service.press(actor, codes["a"])
            if r.screen is not None:
                screen = r.screen
                continue
        r = await service.press(actor, codes["c"])
        if r.text in FOULED_NOTICES:
            r = await service.press(actor, codes["c"])
        assert not r.alert, r.text
        return


async def test_timeout_at_one_table_sits_out_there_only(env) -> None:  # type: ignore[no-untyped-def]
    """R8.5/R8.6: Alice plays at two groups' tables; she sleeps through her turns at #1
    only (acting at once at #2): she sits out at #1, not at #2, whose bank is untouched."""
    service, presenter, _store, clock = env
    a = await dealt_at(service, GROUP, (ALICE, BOB))
    b = await dealt_at(service, OTHER, (ALICE, CAROL))
    by_id = {"1": ALICE, "2": BOB, "3": CAROL}
    for _ in range(60):
        if a.hand is None or a.hand_no > 1:
            break
        while b.hand is not None and b.hand_no == 1 and b.hand.to_act:
            await act(service, presenter, by_id[b.seats[b.hand.to_act[0]].user_id], b)
        who = a.seats[a.hand.to_act[0]].user_id
        if who == "1":
            clock.now += 181
            await service.run_due()
        else:
            await act(service, presenter, BOB, a)
    sa, sb = a.seat_of("1"), b.seat_of("1")
    assert sa is not None and sa.sitting_out
    assert sb is not None and not sb.sitting_out and sb.bank == 60.0


async def test_a_block_and_an_unblock_reach_both_tables(env) -> None:  # type: ignore[no-untyped-def]
    """Alice blocks the bot while dealt in at two groups' tables: unreachable at both; her
    unblock posts both hands anew (each with its own table's buttons)."""
    service, presenter, _store, _clock = env
    a = await dealt_at(service, GROUP, (ALICE, BOB))
    b = await dealt_at(service, OTHER, (ALICE, CAROL))
    presenter.blocked.add("1")
    await service.private_news("telegram", "1", blocked=True)
    assert not a.seat_of("1").reachable and not b.seat_of("1").reachable
    presenter.blocked.clear()
    before = len(presenter.privates["1"])
    await service.private_news("telegram", "1", blocked=False)
    for t in (a, b):
        await service.rt.settled(t)
    assert a.seat_of("1").reachable and b.seat_of("1").reachable
    new = presenter.privates["1"][before:]
    shown = {table_of(x.data) for s in new for x in s.all_buttons() if x.data}
    assert {a.id, b.id} <= shown, shown


async def test_idle_close_of_one_table_leaves_the_other_playing(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2a: #1 (Alice ready, Bob not) deals no hand for 30 minutes and closes, cashing
    Alice's stack there out, while #2 (Alice and Carol) plays on: every kush accounted."""
    service, presenter, store, clock = env
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, BOB)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    a = service.table_in(GROUP)
    b = await dealt_at(service, OTHER, (ALICE, CAROL))
    by_id = {"1": ALICE, "3": CAROL}
    for _ in range(62):
        clock.now += 30
        await service.run_due()
        if b.hand is not None and b.hand.to_act:
            await act(service, presenter, by_id[b.seats[b.hand.to_act[0]].user_id], b)
    assert service.table_in(GROUP) is None
    assert service.table_in(OTHER) is b and b.seat_of("1") is not None
    ca = await store.community("telegram", "-100")
    cb = await store.community("telegram", "-200")
    pa = await store.find_player(ca.id, "1")
    pb = await store.find_player(cb.id, "1")
    assert pa.balance == 1000
    assert (
        pb.balance
        + b.seat_of("1").stack
        + sum(s.stack for s in b.seats.values() if s.user_id == "3")
        + (await store.find_player(cb.id, "3")).balance
        == 2000
    )
    assert await check_store(store) == []
    assert a is not None


async def test_r8_6_leave_and_rejoin_a_table_while_seated_at_another_keeps_the_bank(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6: "the time bank refills when the player joins another table, not when they leave
    and rejoin the same one". Anna sits at #a, then at #b (two channels of one guild, one
    player), spends half her bank at #a, leaves #a and sits down there again, never having
    left #b: the same table, no refill (30 s, not 60). Before, #b being the table she joined
    last made it read as a move to another table, so every multi-tabler refilled a bank by
    leaving and rejoining."""
    service, _presenter, _store, _clock = env
    assert not (await service.new_table(HERE, ANNA)).alert
    assert not (await service.new_table(THERE, VERA)).alert
    assert not (await service.join(HERE, ANNA)).alert
    assert not (await service.join(THERE, ANNA)).alert  # seated at both, #b joined last
    assert not (await service.join(HERE, BORIS)).alert
    a = service.table_in(HERE)
    assert a is not None
    seat = a.seat_of(ANNA.user_id)
    assert seat is not None
    seat.bank = 30.0  # (as a hand spends it, R8.5)
    assert not (await service.leave(HERE, ANNA)).alert
    assert a.banks_left[seat.player_id] == 30.0
    assert not (await service.join(HERE, ANNA)).alert
    again = a.seat_of(ANNA.user_id)
    assert again is not None and again.bank == 30.0
    # once she has left #b, a move there and back again refills it as before
    assert not (await service.leave(THERE, ANNA)).alert
    assert not (await service.join(THERE, ANNA)).alert
    again.bank = 20.0
    assert not (await service.leave(HERE, ANNA)).alert
    assert not (await service.leave(THERE, ANNA)).alert  # (#b joined last, left now)
    assert not (await service.join(HERE, ANNA)).alert
    back = a.seat_of(ANNA.user_id)
    assert back is not None and back.bank == 60.0


async def test_top_ups_queued_at_two_tables_share_one_balance(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2: Anna plays at two tables of her guild (600 kush left after two buy-ins of 200)
    and asks /topup 500 at each during the hands: both are queued (each fits the balance
    alone); when the hands end one is made and the other cut to what is left. The balance
    never goes below zero and every kush is accounted."""
    service, _presenter, store, clock = env
    presenter = FakePresenter(platform="discord", link=None)
    service.register(presenter)
    a = await dealt_at(service, HERE, (ANNA, BORIS))
    b = await dealt_at(service, THERE, (ANNA, VERA))
    assert await _balance(store, a, ANNA) == 600
    r1, r2 = await asyncio.gather(
        service.top_up(HERE, ANNA, "500"), service.top_up(THERE, ANNA, "500")
    )
    assert not r1.alert and not r2.alert, (r1.text, r2.text)
    by_id = {"11": ANNA, "12": BORIS, "13": VERA}
    for _ in range(40):
        busy = [t for t in (a, b) if t.hand is not None and t.hand_no == 1 and t.hand.to_act]
        if not busy:
            break
        for t in busy:
            await act(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id], t)  # type: ignore[union-attr]
    clock.now += 1
    await service.run_due()  # (the queued top-ups are made as the hands end, R8.2)
    for t in (a, b):
        await service.rt.settled(t)
    sa, sb = a.seat_of(ANNA.user_id), b.seat_of(ANNA.user_id)
    assert sa is not None and sb is not None
    assert await _balance(store, a, ANNA) == 0
    assert sorted([sa.topped_up, sb.topped_up]) == [100, 500], (sa.topped_up, sb.topped_up)
    assert ("c-b", "Anna: top-up of 500 kush cut to 100, the whole balance.") in presenter.posts
    assert await check_store(store) == []


async def test_leaving_the_cash_table_leaves_the_tournament_alone(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2/R8.7: Anna plays a tournament in one channel of her guild (buy-in 100 in the
    pool) and a cash game in another (200 at the table). She leaves the cash table mid-hand:
    when its hand ends her stack there comes back to the balance; the tournament seat and
    its pool of 300 are untouched, and every kush is accounted."""
    from tests.bot.test_service import leave_now

    service, _presenter, store, clock = env
    presenter = FakePresenter(platform="discord", link=None)
    service.register(presenter)
    gleb = Actor("discord", "14", "Gleb", "en")
    assert not (await service.new_table(HERE, BORIS)).alert  # (the guild's community first)
    assert not (await service.settings(HERE, BORIS, True, ["tournament_buy_in", "100"])).alert
    assert not (await service.new_tournament(THERE, VERA, "pineapple")).alert
    for p in (ANNA, VERA, gleb):
        assert not (await service.join(THERE, p)).alert
    tour = service.table_in(THERE)
    assert tour is not None and tour.tournament is not None and tour.hand is not None
    for p in (BORIS, ANNA):
        assert not (await service.join(HERE, p)).alert
    for p in (BORIS, ANNA):
        assert not (await service.ready(HERE, p)).alert
    cash = service.table_in(HERE)
    assert cash is not None and cash.hand is not None
    assert await _balance(store, cash, ANNA) == 700
    assert not (await leave_now(service, HERE, ANNA)).alert
    for _ in range(40):
        if cash.seat_of(ANNA.user_id) is None:
            break
        if cash.hand is not None and cash.seats[cash.hand.to_act[0]].user_id == BORIS.user_id:
            await act(service, presenter, BORIS, cash)
        else:
            clock.now += 30
            await service.run_due()
    assert cash.seat_of(ANNA.user_id) is None
    stacks = await store.stacks(cash.id)
    anna = await store.find_player(cash.community_id, ANNA.user_id)
    assert anna is not None and anna.id not in stacks
    assert tour.seat_of(ANNA.user_id) is not None
    assert sum((await store.stacks(tour.id)).values()) == 300  # the pool
    boris = await store.find_player(cash.community_id, BORIS.user_id)
    assert boris is not None
    assert anna.balance + boris.balance + stacks[boris.id] == 700 + 800 + 200 + 200
    assert await check_store(store) == []


def _latest(presenter: FakePresenter, actor: Actor, t: LiveTable) -> Screen:
    """``actor``'s newest private screen with buttons of table ``t``."""
    return next(
        s
        for s in reversed(presenter.privates[actor.user_id])
        if any(table_of(b.data) == t.id for b in s.all_buttons() if b.data)
    )


async def _play_scripted(
    service: TableService, presenter: FakePresenter, t: LiveTable, streets: Streets
) -> None:
    """:func:`~tests.bot.test_tournament_break.play_scripted_hand` at ``t``, each press taken
    from that table's own private screen (the player has hands at other tables)."""
    boxes, number = layout(streets), t.hand_no
    by_user = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    while t.hand is not None and t.hand_no == number:
        seat = t.hand.to_act[0]
        actor = by_user[t.seats[t.owner(seat)].user_id]
        for card in t.hand.current_cards(seat):
            version = hand_version(_latest(presenter, actor, t))
            box = boxes[card]
            press = (
                DiscardCard(t.id, version, card)
                if box == "x"
                else PlaceCard(
                    t.id, version, card, {"b": Box.BOTTOM, "m": Box.MIDDLE, "t": Box.TOP}[box]
                )
            )
            reply = await service.press(actor, encode(press))
            assert not reply.alert, reply.text
        version = hand_version(_latest(presenter, actor, t))
        reply = await service.press(actor, f"{t.id}:{version}:c")
        if reply.text in FOULED_NOTICES:
            reply = await service.press(actor, f"{t.id}:{version}:c")
        assert not reply.alert, reply.text


async def test_fantasyland_at_one_table_while_playing_streets_at_another() -> None:
    """R6: the first to act at #1 makes Fantasyland (Q♥Q♦ on top) while also seated at #2
    (another group). In #1's next hand they arrange 14 cards; at #2 they play streets. Their
    private chat holds both hands: each press acts at its own table only, with that table's
    cards, and neither hand's board takes the other's."""
    decks = [scripted_deck(HEADS_UP)]
    rng = random.Random(7)
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False,
        deck_source=lambda: decks.pop(0) if decks else shuffled_deck(rng=rng),
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    a = await dealt_at(service, GROUP, (ALICE, BOB))
    assert a.hand is not None
    first = a.seats[a.owner(a.hand.to_act[0])]
    x = ALICE if first.user_id == ALICE.user_id else BOB
    b = await dealt_at(service, OTHER, (x, CAROL))
    await _play_scripted(service, presenter, a, HEADS_UP)
    await service.run_due()
    assert a.hand is not None and a.hand_no == 2, a.phase
    xa = a.seat_of(x.user_id)
    assert xa is not None
    fl_seat = next(s for s in a.hand.order if a.owner(s) == xa.seat)
    assert a.hand.is_fantasyland(fl_seat) and len(a.hand.current_cards(fl_seat)) == 14
    xb = b.seat_of(x.user_id)
    assert xb is not None and b.hand is not None
    by_id = {u.user_id: u for u in (x, CAROL)}
    while b.hand is not None and b.hand_no == 1 and b.hand.to_act:
        await act(service, presenter, by_id[b.seats[b.hand.to_act[0]].user_id], b)
        assert tuple(a.hand.board_of(fl_seat, with_pending=True).cards()) == ()  # (not #1)
    assert b.hand_no > 1 or b.hand is None  # #2's hand played out
    await act(service, presenter, x, a)  # the Fantasyland arranged, confirmed
    assert a.hand is not None
    assert len(tuple(a.hand.board_of(fl_seat, with_pending=True).cards())) == 13
    assert await check_store(store) == []


async def test_history_and_replay_name_each_table_s_hand(env) -> None:  # type: ignore[no-untyped-def]
    """Issue 12: Anna plays hand 1 at two tables of her guild, #2's finishing first. Both
    are "hand 1" of their table; /history lists each under its own id and table, and /replay
    of each id shows that table's hand."""
    service, _presenter, _store, _clock = env
    presenter = FakePresenter(platform="discord", link=None)
    service.register(presenter)
    a = await dealt_at(service, HERE, (ANNA, BORIS))
    b = await dealt_at(service, THERE, (ANNA, VERA))
    by_id = {"11": ANNA, "12": BORIS, "13": VERA}
    for t in (b, a):  # #2's hand ends first: the lower id is #2's
        while t.hand is not None and t.hand_no == 1 and t.hand.to_act:
            await act(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id], t)
    history = (await service.history(HERE, ANNA)).text
    lines = [line for line in history.splitlines() if "Table #" in line]
    assert len(lines) == 2, history
    ids = {}
    for line in lines:
        n = int(line.split("#", 1)[1].split(" ", 1)[0])
        table = int(line.split("Table #", 1)[1].split(",", 1)[0])
        ids[table] = n
    assert set(ids) == {a.id, b.id} and ids[b.id] < ids[a.id]
    for table, n in ids.items():
        reply = await service.replay(HERE, ANNA, str(n), here=True)
        assert reply.screen is not None, reply.text
        title = reply.screen.text.splitlines()[0]
        assert title == f"🎬 #{n} · table #{table} · hand 1", title


async def test_r8_6_a_table_joined_after_leaving_refills_the_bank_though_still_seated(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6: "the time bank refills when the player joins another table". Anna spends half
    her bank at #a and leaves it, then sits down at #b (another table joined since) and,
    still seated there, at #a again: a full bank (60 s), as when she has left #b too
    (tests/bot/test_rules_audit.py). #b, seated at still, read as never left, and she got
    #a's 30 s back, as if she had only left and rejoined #a."""
    service, _presenter, _store, clock = env
    assert not (await service.new_table(HERE, BORIS)).alert
    assert not (await service.new_table(THERE, VERA)).alert
    assert not (await service.join(HERE, ANNA)).alert
    a = service.table_in(HERE)
    assert a is not None
    seat = a.seat_of(ANNA.user_id)
    assert seat is not None
    seat.bank = 30.0  # (as a hand spends it, R8.5)
    clock.now += 5
    assert not (await service.leave(HERE, ANNA)).alert
    assert a.banks_left[seat.player_id] == 30.0
    clock.now += 5
    assert not (await service.join(THERE, ANNA)).alert  # joined after leaving #a
    clock.now += 5
    assert not (await service.join(HERE, ANNA)).alert
    again = a.seat_of(ANNA.user_id)
    assert again is not None and again.bank == 60.0
    assert a.left_at == {}  # (sat down again: nothing kept)


async def test_r8_6_a_tournament_registered_at_after_leaving_refills_the_bank(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6, as above with #b a tournament Anna registers at (another table joined since:
    the registration is her table joined last, storage's last_table): back at #a while
    registered there, a full bank (60 s). The registration kept no time it was made
    (LiveTable.joined_at), so #b read as sat at since before she left #a, and she got #a's
    30 s back."""
    service, _presenter, _store, clock = env
    assert not (await service.new_table(HERE, BORIS)).alert
    assert not (await service.new_tournament(THERE, VERA, "pineapple")).alert
    assert not (await service.join(HERE, ANNA)).alert
    a, b = service.table_in(HERE), service.table_in(THERE)
    assert a is not None and b is not None and b.tournament is not None
    seat = a.seat_of(ANNA.user_id)
    assert seat is not None
    seat.bank = 30.0  # (as a hand spends it, R8.5)
    clock.now += 5
    assert not (await service.leave(HERE, ANNA)).alert
    clock.now += 5
    assert not (await service.join(THERE, ANNA)).alert  # registered after leaving #a
    registered = b.seat_of(ANNA.user_id)
    assert registered is not None and b.joined_at[registered.player_id] == clock.now
    clock.now += 5
    assert not (await service.join(HERE, ANNA)).alert
    again = a.seat_of(ANNA.user_id)
    assert again is not None and again.bank == 60.0
