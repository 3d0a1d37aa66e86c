"""Breaking tournaments (R8.5–R8.7) as an adversarial player: what a player knocked out, or
away, is told when they type the seat commands of a cash table."""

from __future__ import annotations

import asyncio

from bot.model import Actor
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP
from tests.bot.test_tournament_away import seat_no, until_turn_of
from tests.bot.test_tournament_service import (
    carol_out_in_hand_one,
    new_service,
    running_tournament,
)
from tests.bot.test_transitions import player_balance


async def test_r8_7_a_player_knocked_out_is_told_so_by_every_seat_command(env) -> None:  # type: ignore[no-untyped-def]
    """Carol left hand 1 of a running tournament (knocked out, 3rd) and was stood up when it
    ended. /leave told her "You are out of this tournament already", but /ready, /topup,
    /sitout and /back told her "You are not registered", as if her buy-in had never been
    taken. They say she is out, as /leave does; a member who never registered is still told
    "not registered". Nothing moves."""
    service, presenter, store, clock = env
    t = await carol_out_in_hand_one(service, presenter, clock)
    assert t.seat_of(CAROL.user_id) is None
    out = tr("en", "tour.already_out")
    replies = [
        await service.ready(GROUP, CAROL),
        await service.top_up(GROUP, CAROL, ""),
        await service.sit_out(GROUP, CAROL),
        await service.back(GROUP, CAROL),
        await service.leave(GROUP, CAROL),
    ]
    assert [(r.alert, r.text) for r in replies] == [(True, out)] * 5
    dan = Actor("telegram", "9", "Dan", "ru")
    for command in (service.ready, service.sit_out, service.back):
        reply = await command(GROUP, dan)
        assert reply.alert and reply.text == tr("ru", "tour.not_registered")
    assert await player_balance(store, CAROL) == 900  # (her prize is paid at the end)
    assert sum((await store.stacks(t.id)).values()) == 300  # the pool, untouched
    assert await check_store(store) == []


async def test_r8_7_back_typed_by_a_player_away_says_they_are_back() -> None:
    """Bob ran out of time in a tournament: away (💤), his streets placed after a short
    grace (R8.7). He types /back, the command a player who was away types: it brought him
    back, and told him "You are not sitting out." in an alert, as if nothing had happened.
    It says he is back (in his language); Carol, who is not away, is told she plays every
    hand, in hers."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    bob = seat_no(t, BOB)
    t = await until_turn_of(service, presenter, clock, BOB)
    clock.now += 180  # budget and bank (120 + 60 s) run out: placed for him, away
    await service.run_due()
    assert t.seats[bob].away
    reply = await service.back(GROUP, BOB)
    assert (reply.alert, reply.text) == (False, tr("ru", "tour.back_away"))
    assert reply.text == "С возвращением: ходы больше не делаются за вас через несколько секунд."
    assert not t.seats[bob].away and not t.seats[bob].sitting_out
    reply = await service.back(GROUP, CAROL)
    assert (reply.alert, reply.text) == (True, tr("en", "tour.back_playing"))
    assert reply.text == "You are in: a tournament deals you every hand (no sitting out)."
    again = await service.back(GROUP, BOB)  # not away any more
    assert (again.alert, again.text) == (True, tr("ru", "tour.back_playing"))
    assert await check_store(store) == []


async def test_r8_7_join_typed_by_a_player_of_a_running_tournament_says_they_are_in(env) -> None:  # type: ignore[no-untyped-def]
    """Once a tournament runs, /join (or a Register press) from one of its own players said
    "Registration is closed: the tournament has started", as if they were not in it: Alice,
    still playing, is told she is registered already; Carol, knocked out, that she is out
    already (as /leave tells her); a member who never registered still that registration is
    closed. Nothing moves."""
    service, presenter, store, clock = env
    t = await carol_out_in_hand_one(service, presenter, clock)
    alice = await service.join(GROUP, ALICE)
    assert (alice.alert, alice.text) == (True, tr("en", "err.already_registered"))
    assert alice.text == "You are registered already."
    bob = await service.join(GROUP, BOB)
    assert (bob.alert, bob.text) == (True, "Вы уже зарегистрированы.")
    carol = await service.join(GROUP, CAROL)
    assert (carol.alert, carol.text) == (True, tr("en", "tour.already_out"))
    dan = await service.join(GROUP, Actor("telegram", "9", "Dan", "en"))
    assert (dan.alert, dan.text) == (True, tr("en", "err.registration_closed"))
    assert sorted(s.user_id for s in t.seats.values()) == [ALICE.user_id, BOB.user_id]
    assert [await player_balance(store, a) for a in (ALICE, BOB, CAROL)] == [900, 900, 900]
    assert await check_store(store) == []


async def test_r8_7_back_waiting_while_the_timer_marks_the_player_away_says_they_are_back() -> None:
    """Bob types /back while the table is busy (its lock held) and, meanwhile, his clock runs
    out: the timer marks him away (R8.7). The command, run after, brings him back; it read
    "away" before waiting for the table and answered "You are in: a tournament deals you
    every hand" (an alert) to a player it had just brought back. It says he is back."""
    service, presenter, _store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    bob = seat_no(t, BOB)
    t = await until_turn_of(service, presenter, clock, BOB)
    assert not t.seats[bob].away
    async with t.lock:  # (the table busy: the /back waits)
        typed = asyncio.ensure_future(service.back(GROUP, BOB))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert not typed.done()
        t.seats[bob].away = True  # (as the timer marks him, R8.7)
    reply = await typed
    assert (reply.alert, reply.text) == (False, tr("ru", "tour.back_away"))
    assert not t.seats[bob].away
