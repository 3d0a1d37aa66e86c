"""fixsmall37: ``/kick`` at a tournament (R8.7). Before the start an admin's kick of a
registered player unregisters them, the buy-in back on their balance (it was refused as at a
running tournament); once started it stays refused. An admin's kick of themself (``me``,
their own name) is exactly their own ``/leave`` there too (it answered the kick's tournament
refusal)."""

from __future__ import annotations

from bot.model import Actor
from bot.texts import tr
from game.tournament import TournamentPhase
from storage.check import check_store
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP
from tests.bot.test_tournament_service import new_service, open_and_register, running_tournament
from tests.bot.test_transitions import player_balance


async def test_a_kick_before_the_start_unregisters_the_player_buy_in_back() -> None:
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    await open_and_register(service, (ALICE, BOB))
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    tour = t.tournament
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and tour.phase is TournamentPhase.REGISTERING
    assert await player_balance(store, BOB) == 900 and tour.pool == 200
    reply = await service.kick(GROUP, CAROL, False, "Bob")  # (no admin: nothing changes)
    assert reply.alert and reply.text == tr("en", "reply.admins_only")
    assert t.seat_of(BOB.user_id) is bob
    reply = await service.kick(GROUP, ALICE, True, "bob")
    assert not reply.alert, reply.text
    assert reply.text == (
        "Bob: an admin withdrew them from the tournament; the buy-in, 100 kush, is back on "
        "their balance."
    )
    assert t.seat_of(BOB.user_id) is None and bob.player_id not in tour.players
    assert await player_balance(store, BOB) == 1000 and tour.pool == 100
    assert tour.phase is TournamentPhase.REGISTERING
    reply = await service.kick(GROUP, ALICE, True, "Bob")
    assert reply.alert and reply.text == "Bob is not seated here."
    assert await check_store(store) == []


async def test_a_kick_of_the_opener_before_the_start_passes_the_start_on() -> None:
    """The opener kicked by another admin: unregistered as by their own /leave, the start
    theirs no more (the next registered player's)."""
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    await open_and_register(service, (ALICE, BOB))
    t = service.table_in(GROUP)
    assert t is not None and t.opener == ALICE.user_id
    reply = await service.kick(GROUP, CAROL, True, "Alice")
    assert not reply.alert, reply.text
    assert reply.text == tr("en", "reply.kicked_unregistered", name="Alice", amount=100,
                            label="kush")  # fmt: skip
    assert t.seat_of(ALICE.user_id) is None and t.opener == BOB.user_id
    assert await player_balance(store, ALICE) == 1000
    assert await check_store(store) == []


async def test_a_kick_at_a_running_tournament_is_still_refused() -> None:
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    t, tour = await running_tournament(service)
    reply = await service.kick(GROUP, ALICE, True, "Bob")
    assert reply.alert and reply.text == tr("en", "reply.kick_tournament")
    assert reply.text.startswith("Once a tournament has started, a seat is its player's own")
    assert not tour.knocked_out and not t.seats[1].leaving
    assert await check_store(store) == []


async def test_a_self_kick_before_the_start_is_the_admins_own_leave() -> None:
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    await open_and_register(service, (ALICE, BOB))
    t = service.table_in(GROUP)
    assert t is not None
    reply = await service.kick(GROUP, ALICE, True, "me")
    assert not reply.alert
    assert reply.text == tr("en", "tour.unregistered", amount=100, label="kush")
    assert t.seat_of(ALICE.user_id) is None and await player_balance(store, ALICE) == 1000
    # unregistered now: "me" again is /leave's answer to someone not registered
    reply = await service.kick(GROUP, ALICE, True, "me")
    assert reply.alert and reply.text == tr("en", "tour.not_registered")
    assert await check_store(store) == []


async def test_a_self_kick_at_a_running_tournament_asks_then_knocks_out_as_leave() -> None:
    """R8.7: the admin's own /leave at a running tournament asks first (it costs the
    buy-in); a second within the window knocks them out, /leave's answers word for word."""
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    t, tour = await running_tournament(service)
    for target in ("me", "Alice"):
        reply = await service.kick(GROUP, ALICE, True, target)
        assert reply.alert and reply.text == tr("en", "tour.leave_confirm_typed", place=3)
        assert not tour.knocked_out
        alice = t.seat_of(ALICE.user_id)
        assert alice is not None
        alice.leave_asked = -1e9  # (the window gone: each asks again)
    assert (await service.kick(GROUP, ALICE, True, "я")).alert
    reply = await service.kick(GROUP, ALICE, True, "me")
    assert not reply.alert
    assert reply.text == tr("en", "tour.left", place=3, prize=0, label="kush")
    assert len(tour.knocked_out) == 1
    assert await check_store(store) == []


async def test_a_self_kick_of_someone_seated_nowhere_is_leaves_answer(env) -> None:  # type: ignore[no-untyped-def]
    """At a cash table too: ``/kick me`` by an admin not seated is /leave's "not at this
    table", not a kick's "me is not seated here"."""
    service, _presenter, _store, _clock = env
    await service.new_table(GROUP, BOB)
    admin = Actor("telegram", "9", "Dana", "en")
    reply = await service.kick(GROUP, admin, True, "me")
    assert reply.alert and reply.text == tr("en", "reply.not_seated")


def test_the_unregistering_kick_in_both_languages() -> None:
    assert tr("ru", "reply.kicked_unregistered", name="Боб", amount=100, label="kush") == (
        "Боб: регистрация в турнире снята админом, взнос 100 кушей возвращён на баланс."
    )
    assert tr("ru", "reply.kick_tournament").startswith("В начавшемся турнире место")
