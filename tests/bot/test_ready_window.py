"""A player who sits down while hands are being played has ``ready_seconds`` to press Ready,
or is stood up (R8.2): the lobby's ready timer does not run then, and the hands the others
play keep the idle close (R8.2a) away, so an unready player used to hold the seat for good
(at a full table nobody else could join). In-memory store, a hand-moved clock, timers fired
by ``run_due``."""

from __future__ import annotations

import random

from bot.model import Actor, LiveTable, Phase
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, play_out, seated
from tests.bot.test_service_classic import GROUP as CLASSIC
from tests.bot.test_service_classic import configure, play_hand, start
from tests.bot.test_transitions import player_balance

DAVE = Actor("telegram", "4", "Dave", "en")


def window(name: str, seconds: int) -> str:
    return tr("en", "lobby.ready_window", name=name, seconds=seconds)


async def carol_joins_mid_hand(service: TableService, presenter: FakePresenter) -> LiveTable:
    """Alice and Bob play hand 1 of a 3-seat Pineapple table; Carol joins and does not press
    Ready: the table is full."""
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.phase is Phase.PLAYING
    assert not (await service.join(GROUP, CAROL)).alert
    full = await service.join(GROUP, DAVE)
    assert full.alert and full.text == tr("en", "reply.table_full")
    return t


async def test_r8_2_an_unready_late_joiner_is_stood_up_and_frees_the_seat(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    t = await carol_joins_mid_hand(service, presenter)
    # the hand's group message counts her time down, as the lobby does the ready timer
    assert window("Carol", 60) in presenter.last_table(GROUP.chat_id).text
    clock.now += 59
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is not None and t.hand_no == 1
    clock.now += 1
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None  # stood up, during the others' hand
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert t.hand is not None and t.hand_no == 1 and sorted(t.seats) == [0, 1]
    assert "Carol" not in presenter.last_table(GROUP.chat_id).text
    assert not (await service.join(GROUP, DAVE)).alert  # the seat is free
    assert await player_balance(store, CAROL) == 1000  # no kush taken
    assert await player_balance(store, ALICE) == await player_balance(store, BOB) == 800
    assert await store.stacks(t.id) == {s.player_id: 200 for s in t.seats.values() if s.ready}
    assert await check_store(store) == []


async def test_r8_2_a_late_joiner_between_hands_is_stood_up_too() -> None:
    """The same between two hands (the next one is due in 30 s): she is stood up after 60 s,
    while the hands go on without her."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=30, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    t = await seated(service, ALICE, BOB)
    assert t is not None
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.phase is Phase.BETWEEN and t.next_hand_at == clock.now + 30
    assert not (await service.join(GROUP, CAROL)).alert
    assert window("Carol", 60) in presenter.last_table(GROUP.chat_id).text
    clock.now += 30
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 2
    clock.now += 30
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2_ready_in_time_deals_the_late_joiner_in_at_the_next_hand(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    t = await carol_joins_mid_hand(service, presenter)
    clock.now += 59
    reply = await service.ready(GROUP, CAROL)
    assert reply.text == tr("en", "reply.ready", amount=200, label=t.label)
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready and carol.ready_by is None
    assert window("Carol", 1) not in presenter.last_table(GROUP.chat_id).text
    clock.now += 30  # her time would have run out: she is ready, it no longer runs
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is carol and t.hand_no == 1
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 3  # dealt in
    assert carol.seat in t.hand.order
    assert await player_balance(store, CAROL) == 800 and carol.stack == 200
    assert await check_store(store) == []


async def test_r8_2_a_restart_does_not_eat_the_late_joiners_time() -> None:
    """Carol has 20 s left when the bot stops; it is back 10 minutes later. She still has
    her 20 s (the downtime is not hers, as with the ready timer), then is stood up."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert not (await service.join(GROUP, CAROL)).alert
    clock.now += 40
    await service.stop()
    clock.now += 600
    service2 = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    presenter2 = FakePresenter()
    service2.register(presenter2)
    await service2.start()
    await service2.run_due()  # what a real timer, due at once, does at the restart
    t = service2.table_in(GROUP)
    assert t is not None and t.hand is not None
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready_by == clock.now + 20
    assert service2.rt.next_deadline(t) == clock.now + 20  # the table's timer is set for it
    clock.now += 19
    await service2.run_due()
    assert t.seat_of(CAROL.user_id) is not None
    clock.now += 1
    await service2.run_due()
    assert t.seat_of(CAROL.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter2.posts
    assert not (await service2.join(GROUP, DAVE)).alert
    assert await player_balance(store, CAROL) == 1000
    await service2.stop()
    assert await check_store(store) == []


async def test_r8_2_a_late_joiner_sitting_out_and_back_is_stood_up_in_time(env) -> None:  # type: ignore[no-untyped-def]
    """Sitting out does not stop the time to press Ready of a player who never bought in
    (R8.2; R8.6 keeps the seat of one bought in): alternating /sitout and /back, Carol held
    the full table's seat for good (each /back gave her ready_seconds anew). Now the group
    message counts her time down while she sits out, /back does not restart it, and at its
    end she is stood up, sitting out or not, no kush taken; Dave takes the seat."""
    service, presenter, store, clock = env
    t = await carol_joins_mid_hand(service, presenter)
    for _ in range(3):  # 3 × 15 s of sitting out and coming back
        clock.now += 10
        assert not (await service.sit_out(GROUP, CAROL)).alert
        clock.now += 5
        await service.run_due()
        reply = await service.back(GROUP, CAROL)
        assert reply.text == tr("en", "reply.back_not_ready")
    assert window("Carol", 15) in presenter.last_table(GROUP.chat_id).text
    assert not (await service.sit_out(GROUP, CAROL)).alert
    assert window("Carol", 15) in presenter.last_table(GROUP.chat_id).text
    clock.now += 14
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is not None
    clock.now += 1
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None  # stood up while sitting out
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert t.hand is not None and t.hand_no == 1
    reply = await service.back(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "reply.not_seated")
    assert not (await service.join(GROUP, DAVE)).alert  # the seat is free
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []


async def test_r8_2_a_late_joiner_saved_without_a_time_gets_it_at_the_restart(env) -> None:  # type: ignore[no-untyped-def]
    """A snapshot of a version that kept no time to press Ready (the seat held for good):
    read back, the unready seat outside the lobby gets its ready_seconds from then."""
    service, presenter, _store, clock = env
    t = await carol_joins_mid_hand(service, presenter)
    snap = t.to_json()
    for seat in snap["seats"]:
        del seat["ready_by"]
    clock.now += 500
    back = LiveTable.from_json(snap, clock.now)
    by_user = {s.user_id: s for s in back.seats.values()}
    assert by_user[CAROL.user_id].ready_by == clock.now + 60
    assert by_user[ALICE.user_id].ready_by is None and by_user[BOB.user_id].ready_by is None
    assert back.ready_windows_end() == clock.now + 60


async def test_r8_3_a_late_joiner_is_stood_up_mid_round_without_settling_it(env) -> None:  # type: ignore[no-untyped-def]
    """settle_per_round (R8.3): a late joiner who never bought in is stood up after
    ``ready_seconds`` during a hand that owes the round's points (the countdown used to stop
    there, showing "freed in 0 seconds" until the hand's end); the round is not settled by
    it: no stack moves until the round's last hand."""
    service, presenter, store, clock = env
    await configure(service, game="ofc", settle_per_round="on", fantasyland="off")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(CLASSIC)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.hand is not None and t.hand_no == 2 and t.match is not None and t.match.round_pairs
    assert not (await service.join(CLASSIC, CAROL)).alert
    assert window("Carol", 60) in presenter.last_table(CLASSIC.chat_id).text
    clock.now += 60
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None and t.hand_no == 2  # during the round's hand
    assert (CLASSIC.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert "Carol" not in presenter.last_table(CLASSIC.chat_id).text
    assert t.match.round_pairs  # the round still owes its points
    assert sum((await store.stacks(t.id)).values()) == 400
    assert sorted((await store.stacks(t.id)).values()) == [200, 200]
    carol = await store.find_player((await store.community("telegram", "-200")).id, "3")
    assert carol is not None and carol.balance == 1000  # no kush taken
    await play_hand(service, presenter, [ALICE, BOB])
    history = await store.hand_history(t.seats[0].player_id, 1)
    assert history[0].result["kush"]  # the round settled at its last hand
    assert await check_store(store) == []
