"""fixw37: at a running tournament the first Leave asks and writes the table message anew, its
buttons at a new version; another player's Leave pressed on the message as it was, in that
moment, was told "out of date" instead of being asked (R8.7, docs/reliability.md)."""

from __future__ import annotations

from bot.texts import tr
from tests.bot.test_service import BOB, CAROL, GROUP
from tests.bot.test_tournament_service import leave_button_of, running_tournament


async def test_r8_7_a_stale_leave_of_a_player_not_asked_yet_asks(env) -> None:  # type: ignore[no-untyped-def]
    """Bob taps Leave: asked, the message written anew. Carol's tap of the same (now older)
    Leave button is a first tap too: she is asked, nothing changes (it was "out of date").
    Her second tap of that older button never confirms: out of date, she is still in; the
    current message's Leave, within the window, knocks her out."""
    service, presenter, _store, _clock = env
    t, tour = await running_tournament(service)
    old = leave_button_of(presenter)
    reply = await service.press(BOB, old, GROUP)
    assert reply.alert and reply.text == tr("ru", "tour.leave_confirm", place=3)
    assert leave_button_of(presenter) != old  # the table message at a new version
    reply = await service.press(CAROL, old, GROUP)  # pressed on the message as it was
    assert reply.alert and reply.text == tr("en", "tour.leave_confirm", place=3)
    assert sorted(tour.chips) == [0, 1, 2] and not t.seats[2].leaving
    reply = await service.press(CAROL, old, GROUP)  # asked now: an older Leave never confirms
    assert reply.alert and reply.text == tr("en", "err.stale")
    assert sorted(tour.chips) == [0, 1, 2]
    reply = await service.press(CAROL, leave_button_of(presenter), GROUP)  # the confirmation
    assert not reply.alert and reply.text == tr("en", "tour.left", place=3, prize=0, label="kush")
    assert sorted(tour.chips) == [0, 1]
