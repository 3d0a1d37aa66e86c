"""The sixth break-it session: a hostile or new user off the happy path on the table service
(commands in an order nobody planned, nonsense setting values). In-memory store, a
hand-moved clock; every scenario ends with the ledger checked."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_leave_notices import leave_button
from tests.bot.test_service import ALICE, BOB, GROUP, play_out, seated
from tests.bot.test_transitions import player_balance


async def test_r8_6_sitout_back_and_ready_after_leave_mid_hand_say_the_player_leaves(env) -> None:  # type: ignore[no-untyped-def]
    """Alice types /leave during her hand (she stands up when it ends, R8.2/R8.5), then
    /sitout and /back: they answered "You sit out from the next hand" and "Welcome back: you
    play the next hand", and Ready (sitting out, so "come back") the same, while she still
    stood up at the showdown. Each is now refused, saying she leaves when the hand ends; a
    second Leave (the button too, which asked "leave?" again) says so as well; nothing
    changes and she leaves with her stack."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.leave(GROUP, ALICE)
    assert reply.text == tr("en", "reply.leave_after_hand")
    leaving = tr("en", "reply.already_leaving")
    assert leaving == "You are leaving this table: you stand up when this hand ends."
    assert tr("ru", "reply.already_leaving") == (
        "Вы уходите из-за стола: встанете, когда закончится эта раздача."
    )
    for command in (service.sit_out, service.back, service.ready, service.leave):
        reply = await command(GROUP, ALICE)
        assert reply.alert and reply.text == leaving, (command.__name__, reply.text)
    reply = await service.press(ALICE, leave_button(presenter), GROUP)
    assert reply.alert and reply.text == leaving
    seat = t.seats[0]
    assert seat.leaving and not seat.sitting_out and seat.ready
    await play_out(service, presenter, [BOB])
    assert t.seat_of(ALICE.user_id) is None
    assert await player_balance(store, ALICE) > 800
    assert await check_store(store) == []
