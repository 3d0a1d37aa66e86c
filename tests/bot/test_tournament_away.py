"""A tournament player who walks away (R8.5, R8.7): not sat out, their streets go on being
placed for them, but after the street the clock had to finish for them they are *away*: each
of their turns waits only :data:`~game.tournament.AWAY_SECONDS`, not their whole budget, until
they act at the table again. Their away status survives a restart; cash tables are as before
(R8.6 sit-out)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.model import Actor, LiveTable
from bot.presses import ConfirmMove, MyHand, PlaceCard, decode, encode
from bot.service import TableService, lobby
from bot.texts import tr
from game.cards import DECK
from game.clock import SeatClock
from game.tournament import AWAY_SECONDS
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm, seated
from tests.bot.test_tournament_service import (
    PLAYERS,
    configure,
    new_service,
    restarted,
    running_tournament,
)


def seat_no(t: LiveTable, actor: Actor) -> int:
    seat = t.seat_of(actor.user_id)
    assert seat is not None
    return seat.seat


async def until_turn_of(
    service: TableService, presenter: FakePresenter, clock: Clock, who: Actor
) -> LiveTable:
    """Let the others play (and the next hand be dealt) until ``who`` is to act."""
    for _ in range(200):
        t = service.table_in(GROUP)
        assert t is not None
        if t.hand is None:
            clock.now += 5
            await service.run_due()
            continue
        acting = {t.seats[t.owner(s)].user_id for s in t.hand.to_act}
        if who.user_id in acting:
            return t
        other = next(a for a in PLAYERS if a.user_id in acting)
        await press_auto_and_confirm(service, presenter, other)
    raise AssertionError(f"{who.name} never got a turn")


async def still_to_act(service: TableService, t: LiveTable, who: Actor) -> bool:
    """Run what is due now; whether ``who`` is still to act on the same street."""
    before = (t.hand_no, t.hand.seat_version(seat_no(t, who)) if t.hand else None)
    await service.run_due()
    hand = t.hand
    if hand is None or (t.hand_no, hand.seat_version(seat_no(t, who))) != before:
        return False
    return seat_no(t, who) in {t.owner(s) for s in hand.to_act}


def assert_no_hidden_card_in_group(t: LiveTable, presenter: FakePresenter) -> None:
    """The group's table message shows only public cards (never a street's cards to place,
    a discard or a Fantasyland board)."""
    hand = t.hand
    assert hand is not None
    public = set(hand.view(None).public_cards())
    text = presenter.last_table(GROUP.chat_id).text
    shown = [c for c in DECK if c.face in text]
    assert shown and all(c in public for c in shown), shown


async def test_r8_7_a_player_who_walks_away_waits_the_grace_only_until_they_press() -> None:
    service, presenter, store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    bob = seat_no(t, BOB)
    # Bob's first turn: his whole budget and bank (120 + 60 s), as before
    t = await until_turn_of(service, presenter, clock, BOB)
    started = clock.now
    assert t.turn_deadline(bob) == started + 180
    assert "💤" not in presenter.last_table(GROUP.chat_id).text
    clock.now = started + 179
    assert await still_to_act(service, t, BOB)
    assert not t.seats[bob].away
    clock.now = started + 180
    assert not await still_to_act(service, t, BOB)  # placed for him (R8.5) ...
    assert t.seats[bob].away and not t.seats[bob].sitting_out  # ... away, not sat out
    # his next turn with a clock of its own (a later hand) waits only the grace
    while True:
        t = await until_turn_of(service, presenter, clock, BOB)
        if not t.clocks[bob].expired(clock.now):
            break
        await service.run_due()  # (the rest of the hand: his bank is spent, R8.5)
    turn = clock.now
    budget, _bank = t.clocks[bob].left(turn)
    assert budget == 120 and t.turn_deadline(bob) == turn + AWAY_SECONDS
    assert service.rt.next_deadline(t) == turn + AWAY_SECONDS  # the table's timer
    group = presenter.last_table(GROUP.chat_id).text
    assert f"{BOB.name} · " in group and tr("en", "board.away") in group
    # the time shown for his turn is the grace, not the budget's 2:00
    assert tr("en", "board.turn", names=BOB.name, time="💤 0:10") in group
    private = presenter.last_private(BOB.user_id).text  # Bob reads Russian
    assert tr("ru", "private.away", seconds="10") in private
    assert_no_hidden_card_in_group(t, presenter)
    clock.now = turn + AWAY_SECONDS - 1
    assert await still_to_act(service, t, BOB)
    clock.now = turn + AWAY_SECONDS
    assert not await still_to_act(service, t, BOB)
    assert t.seats[bob].away
    # a restart keeps him away
    await service.stop()
    service, presenter = await restarted(store, clock)
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2.seats[bob].away
    t2 = await until_turn_of(service, presenter, clock, BOB)
    turn = clock.now
    assert t2.turn_deadline(bob) == turn + AWAY_SECONDS
    assert_no_hidden_card_in_group(t2, presenter)
    # a card placed in his private message brings him back: his own clock again, as much
    # as it has left (nothing refilled, R8.5)
    clock.now = turn + 3
    left = sum(t2.clocks[bob].left(clock.now))
    screen = presenter.last_private(BOB.user_id)
    place = next(b.data for b in screen.all_buttons() if isinstance(decode(b.data), PlaceCard))
    reply = await service.press(BOB, place)
    assert not reply.alert, reply.text
    assert not t2.seats[bob].away
    assert t2.turn_deadline(bob) == clock.now + left and left > AWAY_SECONDS
    assert tr("ru", "private.away", seconds="10") not in presenter.last_private(BOB.user_id).text
    await service.rt.drain()
    assert "💤" not in presenter.last_table(GROUP.chat_id).text
    clock.now = turn + AWAY_SECONDS + 1  # the grace is no more
    assert await still_to_act(service, t2, BOB)
    await press_auto_and_confirm(service, presenter, BOB)
    assert await check_store(store) == []


async def test_r8_7_a_button_at_the_table_brings_a_player_away_back() -> None:
    service, presenter, _store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    carol = seat_no(t, CAROL)
    t = await until_turn_of(service, presenter, clock, CAROL)
    clock.now += 180
    await service.run_due()
    assert t.seats[carol].away
    t = await until_turn_of(service, presenter, clock, CAROL)
    assert tr("en", "private.away", seconds="10") in presenter.last_private(CAROL.user_id).text
    # the table message's "My cards" (a button where the platform has no private chat link)
    reply = await service.press(CAROL, encode(MyHand(t.id, f"L{t.version}")), GROUP)
    assert not t.seats[carol].away
    assert reply.screen is not None and "💤" not in reply.screen.text
    # a command of hers at the table does too (here one that is refused)
    t.seats[carol].away = True
    await service.sit_out(GROUP, CAROL)
    assert not t.seats[carol].away
    await service.rt.drain()
    assert tr("en", "private.away", seconds="10") not in presenter.last_private(CAROL.user_id).text


async def test_r8_6_a_timeout_at_a_cash_table_is_no_away_and_still_sits_out(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, _store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    while t.hand is not None and t.hand_no == 1:
        clock.now += 181
        await service.run_due()
    assert all(s.sitting_out and not s.away for s in t.seats.values())  # R8.6 as before
    for s in t.seats.values():  # even marked, a cash table never shortens a turn
        s.away = True
        assert t.grace(s.seat) is None


def test_r8_7_a_clock_with_a_grace_runs_out_at_the_grace_or_its_own_end() -> None:
    clock = SeatClock(120.0, 60.0).start(100.0)
    assert clock.deadline() == 280.0 and clock.deadline(10.0) == 110.0
    assert not clock.expired(109.9, 10.0) and clock.expired(110.0, 10.0)
    assert not clock.expired(110.0)
    short = SeatClock(4.0, 0.0).start(100.0)  # less left than the grace: its own end
    assert short.deadline(10.0) == 104.0 and short.expired(104.0, 10.0)
    assert SeatClock(120.0, 0.0).deadline(10.0) is None  # not running


async def test_r8_7_away_is_saved_with_the_table() -> None:
    service, _presenter, _store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    t.seats[seat_no(t, CAROL)].away = True
    snap = t.to_json()
    again = LiveTable.from_json(snap, clock.now)
    assert [s.away for s in again.seats.values()] == [s.away for s in t.seats.values()]
    assert again.grace(seat_no(t, CAROL)) == AWAY_SECONDS
    # a snapshot saved before the status was kept: nobody away
    old = dict(snap, seats=[{f: v for f, v in s.items() if f != "away"} for s in snap["seats"]])
    assert not any(s.away for s in LiveTable.from_json(old, clock.now).seats.values())


def test_r8_7_the_away_texts_exist_in_english_and_russian() -> None:
    assert tr("en", "private.away", seconds="10").startswith("💤 You are away")
    assert "10 с" in tr("ru", "private.away", seconds="10")
    assert tr("ru", "board.away") != tr("en", "board.away")


async def test_r8_7_a_press_just_past_the_clock_is_too_late_but_not_away() -> None:
    """Budget and bank spent, the timer not fired yet: the press is refused as too late and
    the street is placed for the player (R8.5), but they pressed: they are there, not away
    (their next turn has their own clock)."""
    service, presenter, _store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    carol = seat_no(t, CAROL)
    t = await until_turn_of(service, presenter, clock, CAROL)
    hand_no = t.hand_no
    clock.now += 180
    screen = presenter.last_private(CAROL.user_id)
    place = next(b.data for b in screen.all_buttons() if isinstance(decode(b.data), PlaceCard))
    reply = await service.press(CAROL, place)
    assert reply.alert and reply.text == tr("en", "err.timed_out")
    assert t.hand_no == hand_no and t.hand is not None
    assert carol not in {t.owner(s) for s in t.hand.to_act}  # her street was placed
    assert not t.seats[carol].away
    # whereas the timer's own step, with no press, marks her away
    t = await until_turn_of(service, presenter, clock, CAROL)
    clock.now += 181
    await service.run_due()
    assert t.seats[carol].away


async def test_r8_7_each_street_of_a_player_away_waits_a_grace_simultaneous_streets() -> None:
    """All place a street at once (R3.6): the others done, a player away is alone to act;
    the street placed for him, the next begins for all of them together, his clock running on
    (it never stopped). That street waited no grace at all (placed in the same step, at the
    grace of the street before): his turns waited 10 s, 0 s, 10 s, 0 s …"""
    service, presenter, _store, clock = new_service(next_hand_delay=0)
    await configure(service, simultaneous_streets="on")
    t, _tour = await running_tournament(service)
    bob = seat_no(t, BOB)
    t.seats[bob].away = True
    hand = t.hand
    assert hand is not None and len(hand.to_act) == 3
    for other in (ALICE, CAROL):
        await press_auto_and_confirm(service, presenter, other)
    assert [t.owner(s) for s in hand.to_act] == [bob]
    street = hand.seat_version(bob)
    clock.now += AWAY_SECONDS
    await service.run_due()
    # street 1 placed for him; street 2 is everyone's, and his grace counts from now
    assert hand.seat_version(bob) > street and t.hand is hand
    assert bob in {t.owner(s) for s in hand.to_act} and len(hand.to_act) == 3
    assert t.turn_deadline(bob) == clock.now + AWAY_SECONDS
    clock.now += AWAY_SECONDS - 1
    assert await still_to_act(service, t, BOB)
    clock.now += 1
    assert not await still_to_act(service, t, BOB)


async def test_r8_7_a_refused_press_on_the_hand_brings_back_and_rewrites_the_hand() -> None:
    """A player away presses Confirm before placing anything: refused by the game, but a press
    of theirs: they are back, and their private hand loses its "you are away" line (the
    presses of the hand were left to write it themselves, a refusal writes nothing)."""
    service, presenter, _store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    carol = seat_no(t, CAROL)
    t = await until_turn_of(service, presenter, clock, CAROL)
    t.seats[carol].away = True  # (as the clock's move left her: her hand says so)
    screen = service.rt.render_private(t, t.seats[carol])
    presenter.privates[CAROL.user_id].append(screen)
    away = tr("en", "private.away", seconds="10")
    assert away in screen.text
    confirm = next(b.data for b in screen.all_buttons() if isinstance(decode(b.data), ConfirmMove))
    reply = await service.press(CAROL, confirm)
    assert reply.alert and reply.screen is None, reply.text  # refused: nothing placed
    assert not t.seats[carol].away
    await service.rt.drain()
    assert away not in presenter.last_private(CAROL.user_id).text


@pytest.mark.parametrize("action", ["my_cards", "place", "command"])
async def test_r8_7_coming_back_is_committed_before_the_answer(
    monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    """A player away comes back with a press or a command that makes no step of its own
    ("My cards", a card placed but not confirmed, a command refused): their coming back was
    saved in the background only, and a crash right after the answer lost it: after the
    restart they were away again (💤 on the table, their next turn waiting only the grace).
    Here every background save is lost (as in that crash); the restarted table has them
    back, their own clock counting."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    carol = seat_no(t, CAROL)
    t = await until_turn_of(service, presenter, clock, CAROL)
    clock.now += 180
    await service.run_due()
    assert t.seats[carol].away
    t = await until_turn_of(service, presenter, clock, CAROL)
    assert t.turn_deadline(carol) == clock.now + AWAY_SECONDS

    async def lost(table_id: int, data: Mapping[str, Any]) -> None:
        """The crash came before any background save was written."""

    monkeypatch.setattr(store, "save_snapshot", lost)
    if action == "my_cards":
        reply = await service.press(CAROL, encode(MyHand(t.id, f"L{t.version}")), GROUP)
    elif action == "place":
        screen = presenter.last_private(CAROL.user_id)
        place = next(b.data for b in screen.all_buttons() if isinstance(decode(b.data), PlaceCard))
        reply = await service.press(CAROL, place)
    else:
        reply = await service.sit_out(GROUP, CAROL)  # (refused: a tournament sits nobody out)
    assert (reply.alert, not t.seats[carol].away) == (action == "command", True), reply.text
    service, presenter = await restarted(store, clock)  # (the crashed one never stopped)
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2.hand is not None and t2.hand_no == t.hand_no
    assert not t2.seats[carol].away
    assert t2.grace(carol) is None
    assert "💤" not in presenter.last_table(GROUP.chat_id).text
    assert await check_store(store) == []


class Broken(Exception):
    """A command or press that fails with an error of its own (no storage refusal)."""


@pytest.mark.parametrize("action", ["command", "press"])
async def test_r8_7_coming_back_is_committed_when_the_command_fails(
    monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    """A player away comes back with a command (or a press) that then fails with an error
    other than storage's: their coming back was committed only when storage refused the
    command, so here it was left to a background save, and a crash right after lost it:
    after the restart they were away again (their next turn waiting only the grace). It is
    committed whatever the error now; the error still reaches the caller."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    carol = seat_no(t, CAROL)
    t = await until_turn_of(service, presenter, clock, CAROL)
    clock.now += 180
    await service.run_due()
    assert t.seats[carol].away

    async def lost(table_id: int, data: Mapping[str, Any]) -> None:
        """The crash came before any background save was written."""

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise Broken

    monkeypatch.setattr(store, "save_snapshot", lost)
    with pytest.raises(Broken):
        if action == "command":
            monkeypatch.setattr(lobby, "sit_out", broken)
            await service.sit_out(GROUP, CAROL)
        else:
            monkeypatch.setattr(service, "_table_press", broken)
            await service.press(CAROL, encode(MyHand(t.id, f"L{t.version}")), GROUP)
    assert not t.seats[carol].away
    service, presenter = await restarted(store, clock)  # (the crashed one never stopped)
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2.hand is not None and t2.hand_no == t.hand_no
    assert not t2.seats[carol].away
    assert "💤" not in presenter.last_table(GROUP.chat_id).text
    assert await check_store(store) == []


async def test_r8_7_a_press_delivered_again_does_not_bring_a_player_away_back() -> None:
    """Telegram delivers a press again when its answer was lost or the bot crashed before
    Telegram learnt it was handled. Carol's "My cards" press from before she walked away,
    delivered again (the same key) after her clock ran out, brought her back: her next turn
    waited her whole budget instead of the grace. The copy leaves her away, before and after
    a restart; a new press of hers (another key) brings her back."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    carol = seat_no(t, CAROL)
    t = await until_turn_of(service, presenter, clock, CAROL)
    early = encode(MyHand(t.id, f"L{t.version}"))
    reply = await service.press(CAROL, early, GROUP, request="tg:-100:7")
    assert reply.screen is not None and not t.seats[carol].away
    clock.now += 180
    await service.run_due()  # her clock ran out: the street placed for her (R8.5)
    assert t.seats[carol].away
    t = await until_turn_of(service, presenter, clock, CAROL)
    assert t.turn_deadline(carol) == clock.now + AWAY_SECONDS
    await service.press(CAROL, early, GROUP, request="tg:-100:7")  # the same update again
    assert t.seats[carol].away and t.turn_deadline(carol) == clock.now + AWAY_SECONDS
    await service.stop()
    service, presenter = await restarted(store, clock)  # the key was saved with the table
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2.seats[carol].away
    await service.press(CAROL, early, GROUP, request="tg:-100:7")
    assert t2.seats[carol].away and t2.turn_deadline(carol) == clock.now + AWAY_SECONDS
    mine = encode(MyHand(t2.id, f"L{t2.version}"))
    reply = await service.press(CAROL, mine, GROUP, request="tg:-100:9")  # a new press
    assert reply.screen is not None and not t2.seats[carol].away
    assert t2.grace(carol) is None
    assert await check_store(store) == []
