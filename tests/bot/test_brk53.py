"""brk53: /kick (fixkick) attacked."""

from __future__ import annotations

from bot.model import Actor
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP, seated
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import GROUP as C_GROUP
from tests.bot.test_service_classic import configure, start


async def test_a_kick_mid_chinese_hand_tells_the_admin_the_game_ends() -> None:
    """R7.7/R7.6: a kick during a Chinese Poker hand makes the player's hand dead and ends
    the game to 51 for everyone, as their own /leave says; the admin's answer says so."""
    service, _presenter, store, _clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="0")
    await start(service, [C_ALICE, C_BOB], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None
    reply = await service.kick(C_GROUP, C_ALICE, True, C_BOB.user_id)
    assert not reply.alert and reply.text == (
        "Admin stood Bob up: they leave after this hand. Their hand is dead, and the game to "
        "51 ends with it, settled for everyone; their stack back to their balance then."
    )
    bob = t.seat_of(C_BOB.user_id)
    assert bob is not None and bob.leaving
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
