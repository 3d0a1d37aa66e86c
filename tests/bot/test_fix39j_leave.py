"""fix39j: a player's own confirmed /leave (or Leave pressed twice) when they are the last to
act: the cards placed for them (R8.5) end the hand in the leave's own step, which stands them
up at once, their stack back (R8.2). They were answered "you leave after this hand"; now the
answer says what happened: stood up, the kush back."""

from __future__ import annotations

import pytest

from bot.model import LiveTable
from bot.service import TableService
from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_fix39h_kick import _fantasyland_next, _others_play
from tests.bot.test_service import leave_now
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street, start
from tests.bot.test_transitions import player_balance_in


async def _bob_last_to_act(service: TableService, presenter: FakePresenter) -> LiveTable:
    """Alice and Bob play pineapple until Bob is to place his last street, Alice's board
    complete: he is the last to act."""
    by = {a.user_id: a for a in (ALICE, BOB)}
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    for _ in range(40):
        hand = t.hand
        assert hand is not None and t.hand_no == 1
        player = t.player_of(hand.to_act[0])
        alice = t.seat_of(ALICE.user_id)
        assert player is not None and alice is not None
        done = all(hand.board_of(b).is_complete for b in t.boards_of(alice))
        if player.user_id == BOB.user_id and done:
            return t
        await auto_street(service, presenter, by[player.user_id])
    raise AssertionError("Bob never acted last")


@pytest.mark.parametrize("how", ["typed", "button"])
async def test_r8_5_the_last_to_act_leaving_is_told_they_stood_up(how: str) -> None:
    """Bob, last to act, confirms /leave (or presses Leave twice): his cards end the hand,
    he stands up with it, and the answer says so with the kush back (not "after this hand")."""
    service, presenter, store, _clock = service_env(next_hand_delay=5)
    try:
        t = await _bob_last_to_act(service, presenter)
        bob = t.seat_of(BOB.user_id)
        assert bob is not None
        balance = await player_balance_in(store, GROUP, BOB)
        if how == "typed":
            reply = await leave_now(service, GROUP, BOB)
        else:
            reply = await leave_now(service, GROUP, BOB, request="r1")
        await service.rt.settled(t)
        assert t.seat_of(BOB.user_id) is None and t.hand_no == 1
        back = await player_balance_in(store, GROUP, BOB) - balance
        assert back > 0
        assert reply.text == tr("en", "reply.left_hand_ended", amount=back, label="kush")
        assert not reply.alert
        await assert_conserved(store)
    finally:
        await service.stop()


async def test_r6_3_r8_5_a_fantasyland_player_set_last_leaving_is_told_they_stood_up() -> None:
    """Bob in Fantasyland, to set his 14 cards after the others (R6.3), leaves: his board is
    set for him (R8.5), which ends the hand; the answer says he stood up, the kush back."""
    service, presenter, store, clock = service_env(next_hand_delay=5)
    try:
        t = await _fantasyland_next(service, presenter, clock)
        await _others_play(service, presenter, t, until_bob=True)
        balance = await player_balance_in(store, GROUP, BOB)
        reply = await leave_now(service, GROUP, BOB)
        await service.rt.settled(t)
        assert t.seat_of(BOB.user_id) is None and t.hand_no == 2
        back = await player_balance_in(store, GROUP, BOB) - balance
        assert back > 0
        assert reply.text == tr("en", "reply.left_hand_ended", amount=back, label="kush")
        await assert_conserved(store)
    finally:
        await service.stop()


def test_the_new_leave_texts_in_both_languages() -> None:
    assert tr("en", "reply.left_hand_ended", amount=1200, label="kush") == (
        "Your remaining cards were placed and ended the hand: you left the table; "
        "1,200 kush back to your balance."
    )
    assert tr("ru", "reply.left_hand_ended", amount=1200, label="куш") == (
        "Оставшиеся карты разложены, и раздача закончилась: вы встали из-за стола; "
        "возвращено на баланс: 1200 кушей."
    )
    assert tr("ru", "reply.left_hand_ended_nothing") == (
        "Оставшиеся карты разложены, и раздача закончилась: вы встали из-за стола."
    )
