"""Rule-by-rule audit of RULES.md against the table service: sentences no other test pinned
down. In-memory store, a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

import secrets

import pytest

from bot.model import Actor, ChatRef
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_liveness import half_a_bank_spent_and_gone
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, play_out, press_auto_and_confirm
from tests.bot.test_tournament_service import PLAYERS, configure, open_and_register
from tests.bot.test_transitions import player_balance

DAVE = Actor("telegram", "4", "Dave", "ru")


async def test_r3_1_a_pineapple_table_seats_three_and_refuses_a_fourth(env) -> None:  # type: ignore[no-untyped-def]
    """R3.1: Pineapple is for 2 or 3 players. A fourth /join is refused in the joiner's
    language and changes nothing: no seat, no kush taken; the three are dealt in."""
    service, _presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    reply = await service.join(GROUP, DAVE)
    assert reply.alert and reply.text == tr("ru", "reply.table_full") == "За столом нет мест."
    t = service.table_in(GROUP)
    assert t is not None and sorted(t.seats) == [0, 1, 2] and t.seat_of(DAVE.user_id) is None
    for a in (ALICE, BOB, CAROL):
        assert not (await service.ready(GROUP, a)).alert
    assert t.hand is not None and len(t.hand.order) == 3
    assert (await service.join(GROUP, DAVE)).text == tr("ru", "reply.table_full")
    community = await store.community("telegram", "-100")
    dave = await store.find_player(community.id, DAVE.user_id)
    assert dave is None or dave.balance == 1000  # nothing taken
    assert await player_balance(store, ALICE) == 800
    assert await check_store(store) == []


class _CountingSystemRandom(secrets.SystemRandom):
    shuffles = 0

    def shuffle(self, x) -> None:  # type: ignore[no-untyped-def, override]
        type(self).shuffles += 1
        super().shuffle(x)


async def test_r1_1_every_hand_is_shuffled_with_the_csprng(monkeypatch: pytest.MonkeyPatch) -> None:
    """R1.1: a table of the bot as it runs (no seeded ``rng``, no ``deck_source``) shuffles
    a new deck with the CSPRNG (:class:`secrets.SystemRandom`) before every hand: one
    shuffle for hand 1, one more for hand 2."""
    monkeypatch.setattr("game.cards.secrets.SystemRandom", _CountingSystemRandom)
    monkeypatch.setattr(_CountingSystemRandom, "shuffles", 0)
    store, clock = MemoryStore(), Clock()
    service = TableService(store, clock=clock, next_hand_delay=0, timers=False)
    presenter = FakePresenter()
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand_no == 1 and _CountingSystemRandom.shuffles == 1
    first = t.hand.setup.deck if t.hand is not None else None
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is not None and t.hand_no == 2 and _CountingSystemRandom.shuffles == 2
    assert t.hand.setup.deck != first


async def test_r8_5_budget_then_bank_run_only_on_the_turn_and_the_bank_does_not_refill(env) -> None:  # type: ignore[no-untyped-def]
    """R8.5, exact values: the first player to act who never moves is placed for at 120 s
    (budget) + 60 s (bank) = 180 s, not a second before; the five street-1 cards go to the
    bottom in the order received. The other player's clock did not run meanwhile (only on
    one's turn). On street 2 budget and bank are spent: the move is made at once, two
    cards to the first free slots (the middle: the bottom is full), one discarded. Back for
    the next hand (R8.6), the sleeper has the budget again but no bank (the default
    ``time_bank_refill_per_match`` is 0): placed for at exactly 120 s."""
    service, presenter, _store, clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    sleeper = t.seats[hand.to_act[0]]
    awake = next(s for s in t.seats.values() if s is not sleeper)
    sleeper_actor, awake_actor = (ALICE, BOB) if sleeper.user_id == ALICE.user_id else (BOB, ALICE)
    first = hand.current_cards(sleeper.seat)
    assert len(first) == 5
    clock.now += 179.9
    await service.run_due()
    assert hand.to_act == (sleeper.seat,) and not hand.view(None).seat(sleeper.seat).timed_out
    clock.now += 0.1
    await service.run_due()
    view = hand.view(None).seat(sleeper.seat)
    assert view.timed_out and view.board.bottom == first and hand.to_act == (awake.seat,)
    assert t.clocks[awake.seat].left(clock.now) == (120.0, 60.0)  # not run on the other's turn
    await press_auto_and_confirm(service, presenter, awake_actor)
    # street 2 began with nothing left on the sleeper's clock: made at once, no time passing
    view = hand.view(None).seat(sleeper.seat)
    assert hand.to_act == (awake.seat,)
    assert (
        view.timed_out and len(view.board.middle) == 2 and len(hand.discards_of(sleeper.seat)) == 1
    )
    while t.hand is hand:
        if hand.to_act == (sleeper.seat,):
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, awake_actor)
    assert sleeper.sitting_out and t.hand is None  # R8.6: sat out after the match
    assert not (await service.back(GROUP, sleeper_actor)).alert
    hand2 = t.hand
    assert hand2 is not None and t.hand_no == 2 and sleeper.bank == 0
    if hand2.to_act != (sleeper.seat,):
        await press_auto_and_confirm(service, presenter, awake_actor)
    assert hand2.to_act == (sleeper.seat,)
    clock.now += 119.9
    await service.run_due()
    assert not hand2.view(None).seat(sleeper.seat).timed_out
    clock.now += 0.1
    await service.run_due()
    assert hand2.view(None).seat(sleeper.seat).timed_out


async def test_r8_6_back_at_the_first_table_after_another_the_time_bank_is_full(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6 is ambiguous about A → B → A: "refills when the player joins another table, not
    when they leave and rejoin the same one". Reading kept (seed 000: the time bank renews
    whenever the player moves to another table, «при переходе игрока за другой стол»; the
    seed keeps no bank per table): the move from B back to A is a move to another table, so
    the bank is full (60 s) there again. Leaving A and rejoining A directly still gives back
    only what was left (tests/bot/test_liveness.py)."""
    service, _presenter, _store, clock = env
    t, actor = await half_a_bank_spent_and_gone(service, clock)
    other = ChatRef("telegram", "-200", "-200", "Others")
    assert not (await service.new_table(other, actor)).alert
    assert not (await service.join(other, actor)).alert
    assert not (await service.ready(other, actor)).alert
    elsewhere = service.table_in(other)
    assert elsewhere is not None
    seat = elsewhere.seat_of(actor.user_id)
    assert seat is not None
    assert seat.bank == 60.0
    assert not (await service.leave(other, actor)).alert
    assert elsewhere.seat_of(actor.user_id) is None
    assert not (await service.join(GROUP, actor)).alert
    back = t.seat_of(actor.user_id)
    assert back is not None and back.bank == 60.0


async def test_r8_7_a_hand_in_progress_at_a_level_change_settles_at_its_level(env) -> None:  # type: ignore[no-untyped-def]
    """R8.7, exact values: hand 1 is dealt at level 1 (10 chips a point); the clock passes
    into level 2 (15) while it is played. Its points are settled at 10 chips each; hand 2,
    dealt after the change, at 15."""
    service, presenter, store, clock = env
    await configure(service, level_minutes="1", tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    tour = t.tournament
    by_id = {a.user_id: a for a in PLAYERS}

    async def play_hand() -> tuple[dict[int, int], dict[int, int]]:
        """Play the running hand out: each seat's points in it and chips it moved."""
        before = tour.chips
        number = t.hand_no
        while t.hand is not None and t.hand_no == number:
            acting = t.seats[t.owner(t.hand.to_act[0])]
            await press_auto_and_confirm(service, presenter, by_id[acting.user_id])
        record = (await store.hand_history(t.seats[0].player_id, 1))[0]
        points = {int(r["seat"]): int(r["points"]) for r in record.result["seats"]}
        return points, {s: tour.chips.get(s, 0) - c for s, c in before.items()}

    clock.now += 70  # level 2 by the clock, hand 1 still under way
    points, moved = await play_hand()
    assert any(points.values())  # (1,000 chips each: no transfer is capped, R8.4)
    assert moved == {s: 10 * p for s, p in points.items()}
    assert t.hand is not None and t.hand_no == 2 and tour.level == 2
    points, moved = await play_hand()
    assert moved == {s: 15 * p for s, p in points.items()}


async def test_r8_2_what_one_more_hand_can_cost_is_read_as_one_point(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2 "a player whose stack is below what one more hand can cost is offered the
    top-up" is ambiguous: a hand has no fixed cost, and R8.4 caps any loss at the stack.
    Reading kept: one point (``kush_per_point``), the least a lost box costs. Seed 001
    settles early «если оппонент не имеет достаточно фишек для расчета» (not enough to
    settle), and seed 000 caps a hand at the stack: a stack of one point can still settle,
    one below cannot. Boundary with 5 kush a point: 5 plays on, 4 is offered the top-up."""
    service, _presenter, _store, _clock = env
    assert not (await service.settings(GROUP, ALICE, True, ["kush_per_point", "5"])).alert
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        await service.join(GROUP, a)
    for a in (ALICE, BOB):
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.options.kush_per_point == 5
    alice, carol = t.seat_of(ALICE.user_id), t.seat_of(CAROL.user_id)
    assert alice is not None and carol is not None
    alice.stack = 5
    assert not t.busted(alice)
    alice.stack = 4
    assert t.busted(alice) and t.awaiting_top_up() == [alice]
    assert not t.busted(carol)  # never bought in: nothing to top up (R8.2: Ready first)
