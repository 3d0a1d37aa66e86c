"""fix39h: an admin's ``/kick`` during a hand (R8.2, R8.5) and what the player kicked can do.

1. The player kicked mid-hand pressed Join (or typed /join) during the same hand and stayed:
   Join takes a pending leave back, the admin's kick with it. Now refused with a short
   answer, the stand-up kept; after the hand they may join again (a kick is no ban). Their
   own /leave-then-Join stays as it was; a player leaving by their own /leave and then
   kicked is kept to the kick too.
2. A Fantasyland player (R6) kicked while the others play first (R6.3): their cards were set
   for them by the kick's own step, which ended the hand and stood them up at once; they
   were told in private "you leave when this hand ends" after the hand was over, and never
   told they stood up nor what came back to their balance. Now one notice: the hand is
   over, they stood up, the kush back.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.model import Actor, LiveTable
from bot.service import TableService
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_fix38a import TG, _service
from tests.bot.test_fix38f_kick_notice import _seated
from tests.bot.test_service import leave_now, press_auto_and_confirm
from tests.bot.test_service_classic import ALICE, BOB, CAROL, GROUP, auto_street, start
from tests.bot.test_transitions import player_balance_in


async def _play_on(
    service: TableService, presenter: FakePresenter, t: LiveTable, alice: Actor
) -> None:
    """Alice plays the hand out ("Arrange for me"); Bob's moves are made for him."""
    hand_no = t.hand_no
    for _ in range(40):
        if t.hand is None or t.hand_no != hand_no:
            break
        assert t.seats[t.owner(t.hand.to_act[0])].user_id == alice.user_id
        await press_auto_and_confirm(service, presenter, alice)
    await service.rt.settled(t)
    assert t.hand is None or t.hand_no != hand_no


# -- 1. Join does not take an admin's kick back -------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r8_2_the_player_kicked_mid_hand_cannot_join_back_until_it_ends(lang: str) -> None:
    """Bob, kicked mid-hand, presses Join: refused in his language, still leaving after the
    hand. It ends: he is stood up, his stack back; then Join seats him again."""
    service = _service(MemoryStore(), TG.platform)
    presenter = service.rt.presenters[TG.platform]
    assert isinstance(presenter, FakePresenter)
    alice = Actor(TG.platform, "11", "Alice", "en")
    bob = Actor(TG.platform, "12", "Bob", lang)
    try:
        assert not (await service.settings(TG, alice, True, ["language", lang])).alert
        t = await _seated(service, TG, alice, bob, "mid_hand")
        assert not (await service.kick(TG, alice, True, "Bob")).alert
        for _ in range(2):  # (the button, and /join typed: one service call)
            reply = await service.join(TG, bob)
            assert reply.alert and reply.text == tr(lang, "reply.join_kicked")
        seat = t.seat_of(bob.user_id)
        assert seat is not None and seat.leaving and seat.kicked
        assert (
            reply.text
            == {
                "en": "An admin stood you up: you can join again after this hand.",
                "ru": "По решению админа вы встаёте из-за стола: сесть снова можно после "
                "этой раздачи.",
            }[lang]
        )
        await _play_on(service, presenter, t, alice)
        assert t.seat_of(bob.user_id) is None  # stood up as the hand ended
        reply = await service.join(TG, bob)  # a kick is no ban
        assert not reply.alert, reply.text
        seat = t.seat_of(bob.user_id)
        assert seat is not None and not seat.leaving and not seat.kicked
        await assert_conserved(service.rt.store)
    finally:
        await service.stop()


async def test_r8_2_a_players_own_leave_is_still_taken_back_by_join() -> None:
    """Bob's own /leave mid-hand (asked, confirmed): Join keeps him seated, as before."""
    service, _presenter, store, _clock = service_env()
    try:
        await start(service, [ALICE, BOB], "pineapple")
        t = service.table_in(GROUP)
        assert t is not None and t.hand is not None
        assert not (await leave_now(service, GROUP, BOB)).alert
        seat = t.seat_of(BOB.user_id)
        assert seat is not None and seat.leaving and not seat.kicked
        reply = await service.join(GROUP, BOB)
        assert not reply.alert and reply.text == tr("en", "reply.leave_cancelled")
        assert not seat.leaving
        await assert_conserved(store)
    finally:
        await service.stop()


async def test_r8_2_a_player_leaving_by_their_own_leave_then_kicked_stays_kicked() -> None:
    """Bob leaves by his own /leave mid-hand; an admin kicks him too ("is leaving already"):
    told in private once, and his Join no longer takes the leave back."""
    service, presenter, store, _clock = service_env()
    try:
        await start(service, [ALICE, BOB], "pineapple")
        t = service.table_in(GROUP)
        assert t is not None and t.hand is not None
        assert not (await leave_now(service, GROUP, BOB)).alert
        before = len(presenter.privates.get(BOB.user_id, []))
        reply = await service.kick(GROUP, ALICE, True, "Bob")
        assert reply.text == tr("en", "reply.kick_leaving", name="Bob")
        await service.rt.settled(t)
        told = [s.text for s in presenter.privates.get(BOB.user_id, [])[before:]]
        assert told == [tr("en", "private.kicked_later", table=t.id)]
        again = await service.kick(GROUP, ALICE, True, "Bob")  # (told once)
        assert again.text == reply.text
        await service.rt.settled(t)
        assert len(presenter.privates.get(BOB.user_id, [])) == before + 1
        reply = await service.join(GROUP, BOB)
        assert reply.alert and reply.text == tr("en", "reply.join_kicked")
        seat = t.seat_of(BOB.user_id)
        assert seat is not None and seat.leaving and seat.kicked
        await assert_conserved(store)
    finally:
        await service.stop()


# -- 2. a kick in Fantasyland -------------------------------------------------------------------
async def _fantasyland_next(
    service: TableService, presenter: FakePresenter, clock: Clock
) -> LiveTable:
    """Alice, Bob and Carol play hand 1; Bob's board earned Fantasyland (14 cards, R6.2):
    hand 2 dealt, Bob in Fantasyland, the others to play their streets first (R6.3)."""
    players = [ALICE, BOB, CAROL]
    by = {a.user_id: a for a in players}
    await start(service, players, "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.match is not None
    while t.hand is not None and t.hand_no == 1 and not t.hand.is_over:
        player = t.player_of(t.hand.to_act[0])
        assert player is not None
        await auto_street(service, presenter, by[player.user_id])
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and t.match is not None
    t.match = dataclasses.replace(t.match, fantasyland={bob.seat: 14}, match_over=False)
    clock.now += 6
    await service.run_due()
    hand = t.hand
    assert hand is not None and t.hand_no == 2
    assert [s for s in hand.order if hand.is_fantasyland(s)] == [bob.seat]
    return t


async def _others_play(
    service: TableService, presenter: FakePresenter, t: LiveTable, *, until_bob: bool
) -> None:
    """Alice and Carol play their streets: until Bob is to act, or the hand's end."""
    by = {a.user_id: a for a in (ALICE, CAROL)}
    for _ in range(60):
        if t.hand is None or t.hand_no != 2:
            return
        player = t.player_of(t.hand.to_act[0])
        assert player is not None
        if player.user_id == BOB.user_id:
            assert until_bob, "Bob's Fantasyland was not set for him"
            return
        await auto_street(service, presenter, by[player.user_id])
    raise AssertionError("the hand never ended")


@pytest.mark.parametrize("when", ["waiting", "to_act"])
async def test_r6_3_r8_5_a_fantasyland_player_kicked_is_set_for_and_told_once(when: str) -> None:
    """Bob in Fantasyland is kicked while Alice and Carol play their streets (``waiting``)
    or when they are done and he is to set his 14 cards (``to_act``): his board is set for
    him as on timeout (R8.5: 13 cards), he stands up when the hand ends, his stack back,
    and is told in private that it came: "you leave when this hand ends" only while it
    had not (``to_act``: his cards set ended the hand in the kick's own step, and he was
    told so after the hand was over, never what came back)."""
    service, presenter, store, clock = service_env(next_hand_delay=5)
    try:
        t = await _fantasyland_next(service, presenter, clock)
        bob = t.seat_of(BOB.user_id)
        assert bob is not None
        if when == "to_act":
            await _others_play(service, presenter, t, until_bob=True)
            assert t.hand is not None and t.player_of(t.hand.to_act[0]) is bob
        stack, balance = bob.stack, await player_balance_in(store, GROUP, BOB)
        before = len(presenter.privates.get(BOB.user_id, []))
        reply = await service.kick(GROUP, ALICE, True, "Bob")
        key = "reply.kicked_after_hand" if when == "waiting" else "reply.kicked_hand_ended"
        assert reply.text == tr("en", key, name="Bob")  # (not "they leave after this hand")
        await service.rt.settled(t)
        if when == "waiting":
            assert bob.leaving and t.seat_of(BOB.user_id) is bob
            assert (await service.join(GROUP, BOB)).text == tr("en", "reply.join_kicked")
            await _others_play(service, presenter, t, until_bob=False)
            await service.rt.settled(t)
        assert t.seat_of(BOB.user_id) is None and t.hand_no == 2
        record = t.last_result
        assert record is not None
        row = next(r for r in record["seats"] if r["seat"] == bob.seat)
        assert sum(len(row[box].split()) for box in ("top", "middle", "bottom")) == 13
        back = await player_balance_in(store, GROUP, BOB) - balance
        assert back == int(record["stacks"][str(bob.seat)]) and stack > 0
        told = [s.text for s in presenter.privates.get(BOB.user_id, [])[before:]]
        later = tr("en", "private.kicked_later", table=t.id)
        key = "private.kicked_stood_up" if back else "private.kicked_stood_up_nothing"
        stood = tr("en", key, table=t.id, amount=back, label="kush")
        assert told.count(stood) == 1, told
        assert told.count(later) == (1 if when == "waiting" else 0), told
        if later in told:
            assert told.index(later) < told.index(stood)
        await assert_conserved(store)
    finally:
        await service.stop()


def test_the_new_kick_texts_in_both_languages() -> None:
    assert tr("en", "reply.kicked_hand_ended", name="Bob") == (
        "Admin stood Bob up: the cards placed for them ended the hand, and they left with it."
    )
    assert tr("ru", "reply.kicked_hand_ended", name="Боб") == (
        "Боб встаёт из-за стола по решению админа: карты разложены автоматически, раздача "
        "завершена, место свободно."
    )
