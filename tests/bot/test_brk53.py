"""brk53: /kick (fixkick) attacked."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.model import Actor
from bot.presses import Join, Ready, encode
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_break13 import grant_fantasyland
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    dealt_at,
    press_auto_and_confirm,
    seated,
)
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import CAROL as C_CAROL
from tests.bot.test_service_classic import GROUP as C_GROUP
from tests.bot.test_service_classic import auto_street, configure, play_hand, start
from tests.bot.test_tournament_service import new_service
from tests.bot.test_transitions import player_balance, player_balance_in


async def test_a_kick_mid_chinese_hand_tells_the_admin_the_game_ends() -> None:
    """R7.7/R7.6: a kick during a Chinese Poker hand makes the player's hand dead and ends
    the game to 51 for everyone, as their own /leave says; the admin's answer says so."""
    service, presenter, store, clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="0")
    await start(service, [C_ALICE, C_BOB], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None
    reply = await service.kick(C_GROUP, C_ALICE, True, C_BOB.user_id)
    assert not reply.alert and reply.text == (
        "Admin stood Bob up after this hand: their hand is dead, and the game to 51 ends "
        "with it, settled for everyone; their stack back then."
    )
    bob = t.seat_of(C_BOB.user_id)
    assert bob is not None and bob.leaving
    assert tr("ru", "reply.kicked_after_hand_chinese", name="Bob", target=51) == (
        "Bob встанет из-за стола по решению админа после этой раздачи: рука мёртвая, и на "
        "этом закончится игра до 51 очка с расчётом для всех; стек вернётся."
    )
    before = await player_balance_in(store, C_GROUP, C_BOB)
    hand = t.hand
    await auto_street(service, presenter, C_ALICE)
    for _ in range(6):
        clock.now += 60
        await service.run_due()
    assert hand.result is not None and hand.result.seat(bob.seat).fouled  # dead (R7.7)
    assert t.seat_of(C_BOB.user_id) is None and t.chinese is None  # the game ended (R7.6)
    assert await player_balance_in(store, C_GROUP, C_BOB) == before + bob.stack
    assert await check_store(store) == []


async def test_kick_anna_stands_up_anna_not_the_russian_anna_seated_first() -> None:
    """A person "Анна" seated first and a person "Anna": the computer players' Cyrillic
    spelling (bare_name reads "Анна" as "anna") made /kick Anna stand up Анна."""
    service, _presenter, store, _clock = service_env()
    anna_ru = Actor("telegram", "5", "Анна", "ru")
    anna = Actor("telegram", "6", "Anna", "en")
    t = await seated(service, ALICE, anna_ru, anna)
    assert t is not None
    assert {s.user_id: s.name for s in t.seats.values()} == {"1": "Alice", "5": "Анна", "6": "Anna"}
    ru = t.seat_of("5")
    assert ru is not None
    stack = ru.stack
    reply = await service.kick(GROUP, ALICE, True, "Anna")
    assert reply.text.startswith("Admin stood Anna up"), reply.text
    assert t.seat_of("6") is None
    assert t.seat_of("5") is ru and not ru.leaving and ru.stack == stack
    assert await check_store(store) == []


async def test_two_people_of_one_name_each_kicked_by_the_name_the_table_shows() -> None:
    """Held: two seated "Bob"s are shown "Bob" and "Bob (2)" (distinct_name); /kick Bob (2)
    stands up the second one, the first keeps his seat; then /kick Bob the first."""
    service, _presenter, store, _clock = service_env()
    bob2 = Actor("telegram", "9", "Bob", "en")
    t = await seated(service, ALICE, BOB, bob2)
    assert t is not None
    names = {s.user_id: s.name for s in t.seats.values()}
    assert names == {"1": "Alice", "2": "Bob", "9": "Bob (2)"}
    reply = await service.kick(GROUP, ALICE, True, "bob (2)")
    assert reply.text.startswith("Admin stood Bob (2) up"), reply.text
    assert t.seat_of("9") is None and t.seat_of(BOB.user_id) is not None
    reply = await service.kick(GROUP, ALICE, True, "Bob")
    assert reply.text.startswith("Admin stood Bob up"), reply.text
    bob = t.seat_of(BOB.user_id)  # (two left: a hand may be dealt, he leaves after it)
    assert bob is None or bob.leaving
    assert await check_store(store) == []


async def test_a_restart_between_a_kick_mid_hand_and_the_hand_end_stands_him_up_once() -> None:
    """Held: the kick's leaving flag is in the committed snapshot; a new process on the same
    store plays the hand out, Bob stands up after it, his stack returned exactly once."""
    service, _presenter, store, clock = new_service(next_hand_delay=0)
    t = await dealt_at(service, GROUP, (ALICE, BOB))
    reply = await service.kick(GROUP, ALICE, True, BOB.user_id)
    assert not reply.alert, reply.text
    again = TableService(store, clock=clock, rng=random.Random(7), next_hand_delay=0, timers=False)
    presenter = FakePresenter()
    again.register(presenter)
    await again.start()
    t = again.table_in(GROUP)  # type: ignore[assignment]
    assert t is not None and t.hand is not None and t.hand_no == 1
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.leaving
    for _ in range(40):
        if t.hand is None or t.hand_no != 1:
            break
        if t.seats[t.hand.to_act[0]].user_id == ALICE.user_id:
            await press_auto_and_confirm(again, presenter, ALICE)
        else:
            clock.now += 181
            await again.run_due()
    assert t.seat_of(BOB.user_id) is None
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None
    bob_now = await player_balance(store, BOB)
    assert bob_now == 800 + bob.stack  # (his stack at the hand's end, once)
    assert bob_now + await player_balance(store, ALICE) + alice.stack == 2000
    assert await check_store(store) == []


async def test_a_late_join_tap_of_a_kicked_player_does_not_seat_him_again() -> None:
    """Held: Bob double-taps Join; the admin kicks him between the taps; the second tap,
    pressed before the kick, arrives late: out of date, he stays unseated. Carol's Join of
    that version still counts. A Ready of Bob's from before the kick neither counts."""
    service, _presenter, store, _clock = service_env()
    await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    shown = f"L{t.version}"
    assert not (await service.press(BOB, encode(Join(t.id, shown)), GROUP)).alert
    ready_shown = f"L{t.version}"
    reply = await service.kick(GROUP, ALICE, True, "Bob")
    assert reply.text == "Admin stood Bob up.", reply.text
    reply = await service.press(BOB, encode(Join(t.id, shown)), GROUP)
    assert reply.alert and t.seat_of(BOB.user_id) is None, reply.text
    reply = await service.press(BOB, encode(Ready(t.id, ready_shown)), GROUP)
    assert reply.alert and t.seat_of(BOB.user_id) is None, reply.text
    assert not (await service.press(CAROL, encode(Join(t.id, shown)), GROUP)).alert
    assert t.seat_of(CAROL.user_id) is not None
    assert await check_store(store) == []


async def test_a_kick_between_hands_forfeits_the_fantasyland_he_earned_as_leave_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Held (R6, R8.2): a kick is Bob's own /leave: between hands he stands up at once, the
    Fantasyland he earned forfeited with the seat (stand_up), his stack back once; Alice's
    and Carol's Fantasyland is dealt to them next (R8.6's "played first" is about a sit-out
    after a timeout, not about leaving)."""
    grant_fantasyland(monkeypatch, itertools.repeat(True))
    service, presenter, store, clock = service_env(next_hand_delay=5)
    await start(service, [C_ALICE, C_BOB, C_CAROL], "pineapple")
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None
    await play_hand(service, presenter, [C_ALICE, C_BOB, C_CAROL])
    assert t.hand is None or t.hand.is_over
    assert t.match is not None
    bob = t.seat_of(C_BOB.user_id)
    assert bob is not None
    assert bob.seat in t.match.fantasyland, t.match.fantasyland
    stack = bob.stack
    before = await player_balance_in(store, C_GROUP, C_BOB)
    reply = await service.kick(C_GROUP, C_ALICE, True, "Bob")
    assert reply.text == f"Admin stood Bob up; {stack} kush back to their balance.", reply.text
    assert t.seat_of(C_BOB.user_id) is None
    assert bob.seat not in t.match.fantasyland and len(t.match.fantasyland) == 2
    assert await player_balance_in(store, C_GROUP, C_BOB) == before + stack
    clock.now += 6
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    assert await check_store(store) == []


async def test_a_kick_of_a_chinese_player_who_arranged_says_the_game_ends() -> None:
    """Bob arranged his 13 cards: nothing is placed for him, but the game still ends with the
    hand (R7.6): the answer says so, not "their cards are placed for them"."""
    service, presenter, _store, _clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="5")
    await start(service, [C_ALICE, C_BOB], "chinese")
    await auto_street(service, presenter, C_BOB)
    reply = await service.kick(C_GROUP, C_ALICE, True, "Bob")
    assert not reply.alert and reply.text == (
        "Admin stood Bob up: they leave when this hand ends; the game to 51 ends then, "
        "settled for everyone, their stack back to their balance."
    )
    assert tr("ru", "reply.kicked_game_ends_chinese", name="Bob", target=51) == (
        "Bob встанет из-за стола по решению админа в конце этой раздачи; тогда же "
        "закончится игра до 51 очка с расчётом для всех, стек вернётся на баланс."
    )


async def test_a_kick_during_a_chinese_reveal_says_the_game_ends_not_cards_placed() -> None:
    """Both arranged, the reveal under way: Bob leaves once it is over (R7.4) and the game
    ends (R7.6); the answer said "their cards are placed for them as on timeout"."""
    service, presenter, store, clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="5")
    await start(service, [C_ALICE, C_BOB], "chinese")
    await auto_street(service, presenter, C_BOB)
    await auto_street(service, presenter, C_ALICE)
    t = service.table_in(C_GROUP)
    assert t is not None and t.reveal is not None
    reply = await service.kick(C_GROUP, C_ALICE, True, "Bob")
    assert reply.text == tr("en", "reply.kicked_game_ends_chinese", name="Bob", target=51)
    for _ in range(6):
        clock.now += 60
        await service.run_due()
    assert t.seat_of(C_BOB.user_id) is None and t.chinese is None
    assert await check_store(store) == []
