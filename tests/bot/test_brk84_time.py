"""brk84: a break-it round on time (R8.2, R8.2a, R8.5, R8.6, R8.7). In-memory store, a
hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

import dataclasses

import pytest

from bot.presses import PlaceCard, decode
from bot.texts import tr
from game.clock import SeatClock
from tests.bot.test_service import ALICE, BOB, seated

#: A wall-clock time (seconds since the epoch, as ``time.time()`` gives) and a bank left at
#: which the clock's deadline, computed as a sum, and what is left at it, computed as a
#: difference, disagreed: ``left(deadline)`` was 4.8e-08 s of bank, not spent.
AT = 1_700_134_364.2441125
BANK = 12.3


def test_r8_5_budget_and_bank_are_spent_at_the_deadline_itself() -> None:
    """R8.5: the instant the clock's deadline names, budget and bank are both spent (the
    table's timer fires then and makes the move); a hundredth of a second before, they are
    not. The bank left was a rounding error above 0 at that instant."""
    clock = SeatClock(120.0, BANK, AT)
    end = clock.deadline()
    assert end == AT + 120.0 + BANK
    assert clock.left(end) == (0.0, 0.0)
    assert clock.expired(end)
    assert clock.stop(end).bank == 0.0
    assert not clock.expired(end - 0.01) and clock.left(end - 0.01)[1] > 0


@pytest.mark.parametrize("how", ["press", "timer"])
async def test_r8_5_at_the_deadline_the_move_is_made_for_the_player(env, how: str) -> None:  # type: ignore[no-untyped-def]
    """R8.5: the player to act has a bank of 12.3 s left from an earlier hand; at the very
    instant their budget and bank run out, a card's press is "too late" and the move made for
    them (``press``), and the table's timer firing at that instant makes it (``timer``). (At
    that instant the bank left was 4.8e-08 s: the press counted, and the timer's step found
    nothing due and was armed again for the same instant.)"""
    service, presenter, _store, clock = env
    clock.now = AT - 10  # (a real epoch time: the rounding needs its magnitude)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    hand = t.hand
    seat = hand.to_act[0]
    owner = t.owner(seat)
    actor = ALICE if t.seats[owner].user_id == ALICE.user_id else BOB
    t.clocks[owner] = dataclasses.replace(
        t.clocks[owner], budget=120.0, bank=BANK, running_since=AT
    )
    clock.now = t.turn_deadline(owner)
    assert clock.now == AT + 120.0 + BANK
    if how == "press":
        place = next(
            b.data
            for b in presenter.last_private(actor.user_id).all_buttons()
            if isinstance(decode(b.data), PlaceCard)
        )
        reply = await service.press(actor, place)
        assert reply.alert and reply.text == tr(actor.language or "en", "err.timed_out")
    else:
        await service.run_due()
    assert hand.timed_out_at(seat, 0) and seat not in hand.to_act
    assert t.clocks[owner].left(clock.now) == (0.0, 0.0)  # (not 4.8e-08 s carried on)
