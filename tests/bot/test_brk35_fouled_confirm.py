"""Break-it (brk35) of the fouled Confirm that asks first (R2.3): the second press must be
the player's own second press, not the first one delivered again, nor the second tap of a
double tap (fixtap: it counts only ``FOUL_CONFIRM_MIN_SECONDS`` after the question)."""

from __future__ import annotations

import asyncio

import pytest

from bot.model import LEAVE_CONFIRM_SECONDS
from bot.service import TableService
from bot.service.play import FOUL_CONFIRM_MIN_SECONDS
from bot.texts import tr
from tests.bot.fakes import FakePresenter
from tests.bot.test_fixnu4_fouled_confirm import LANG, Clock, _to_the_losers_last_street, env
from tests.bot.test_stats_service import hand_version

__all__ = ["env"]

# the bot's minimum between the question and the press that confirms, not the suite's 0
pytestmark = pytest.mark.foul_confirm_pause


async def test_r2_3_the_first_fouled_confirm_delivered_again_does_not_confirm(
    env: tuple[TableService, FakePresenter, Clock],
) -> None:
    """Telegram delivers an update again (the same ``update_id``) when the bot did not get to
    acknowledge it, e.g. after a crash; the first Confirm of a fouled board, delivered again a
    second later, was taken as the second press: the board was confirmed fouled though the
    player pressed once. It asks again; the player's own second press confirms."""
    service, presenter, clock = env
    t, loser, seat = await _to_the_losers_last_street(service, presenter)
    hand = t.hand
    assert hand is not None
    notice = tr(LANG[loser.user_id], "err.confirm_fouled")
    data = f"{t.id}:{hand_version(presenter.last_private(loser.user_id))}:c"
    reply = await service.press(loser, data, request="tg:7:500")
    assert (reply.text, reply.alert) == (notice, True)
    clock.now += 1
    again = await service.press(loser, data, request="tg:7:500")  # the same update again
    assert (again.text, again.alert) == (notice, True)
    assert hand.result is None and hand.to_act == (seat,)
    clock.now += 1
    reply = await service.press(loser, data, request="tg:7:501")  # the player's second press
    assert not reply.alert, reply.text
    assert hand.result is not None and hand.result.seat(seat).fouled


async def test_r2_3_a_double_tap_on_a_fouled_confirm_does_not_confirm(
    env: tuple[TableService, FakePresenter, Clock],
) -> None:
    """A double tap on Confirm (the second press in the same instant, before the first's
    alert can have been read) confirmed the fouled board. The second tap asks again; a press
    a second after the question confirms."""
    service, presenter, clock = env
    t, loser, seat = await _to_the_losers_last_street(service, presenter)
    hand = t.hand
    assert hand is not None
    notice = tr(LANG[loser.user_id], "err.confirm_fouled")
    data = f"{t.id}:{hand_version(presenter.last_private(loser.user_id))}:c"
    first, second = await asyncio.gather(
        service.press(loser, data, request="tg:7:600"),
        service.press(loser, data, request="tg:7:601"),
    )
    assert (first.text, second.text) == (notice, notice)
    assert hand.result is None and hand.to_act == (seat,)
    clock.now += FOUL_CONFIRM_MIN_SECONDS
    reply = await service.press(loser, data, request="tg:7:602")
    assert not reply.alert, reply.text
    assert hand.result is not None and hand.result.seat(seat).fouled


async def test_r2_3_a_press_too_soon_neither_confirms_nor_restarts_the_question(
    env: tuple[TableService, FakePresenter, Clock],
) -> None:
    """A press sooner than ``FOUL_CONFIRM_MIN_SECONDS`` after the question asks again and
    keeps the question's time: the minimum counts from the question, not from the tap, and
    the ``LEAVE_CONFIRM_SECONDS`` to answer it are not lengthened."""
    assert FOUL_CONFIRM_MIN_SECONDS == 1.0
    service, presenter, clock = env
    t, loser, seat = await _to_the_losers_last_street(service, presenter)
    hand = t.hand
    assert hand is not None
    notice = tr(LANG[loser.user_id], "err.confirm_fouled")
    data = f"{t.id}:{hand_version(presenter.last_private(loser.user_id))}:c"
    asked = clock.now
    assert (await service.press(loser, data)).text == notice
    clock.now = asked + 0.5
    assert (await service.press(loser, data)).text == notice  # too soon
    clock.now = asked + LEAVE_CONFIRM_SECONDS + 0.25  # (in time, had the tap restarted it)
    assert (await service.press(loser, data)).text == notice  # too late: asked anew
    assert hand.result is None and hand.to_act == (seat,)
    clock.now += 0.5
    assert (await service.press(loser, data)).text == notice  # too soon after the new one
    clock.now += 0.5
    reply = await service.press(loser, data)  # a second after the new question
    assert not reply.alert, reply.text
    assert hand.result is not None and hand.result.seat(seat).fouled
