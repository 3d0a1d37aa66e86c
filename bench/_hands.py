"""Playing whole hands at a table for the press benches (``bench_telegram.py``,
``bench_discord.py``): each press from the table the service serves *now* in the table's
chat, and the street's presses worked out again when that table was restored anew, a press
was refused or its button is no longer on the presser's screen.

A step whose commit storage did not answer in time, read back by the table's next step as
saved after all (the log's ``table N: step K was saved after all; restored from storage``),
has the table restored anew from storage in the background: a new :class:`LiveTable`, the
old one let go and never moving again. A driver pressing from the table it started with
pressed the old one for ever and the run never ended."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

from bot import render
from bot.model import ChatRef, LiveTable, SeatState
from bot.screens import Payload
from bot.service import TableService

__all__ = ["RESTORE_WAIT", "Press", "button", "load", "play", "served"]

RESTORE_WAIT = 30.0  # s a table restored anew from storage may take to be served again

#: presses one button: ``(table, seat, (action, arg), payload)`` → whether the press did
#: what it was for (``False``: refused, or not known yet: the street is worked out again)
Press = Callable[[LiveTable, SeatState, tuple[str, str], str], Awaitable[bool]]


def load(tables: int, pace: float) -> str:
    """The paced load in words for a bench's report: ``tables`` tables, each pressing about
    every ``pace`` seconds (``BENCH_PACE``), e.g. ``a press every 2 s per table on average
    (100 presses/s offered)``. ``pace`` 0 (or below) is no pacing (:func:`play` presses without
    pauses): ``no pause between a table's presses (unpaced)``, never a division by zero."""
    if pace <= 0:
        return "no pause between a table's presses (unpaced)"
    return f"a press every {pace:g} s per table on average ({tables / pace:.0f} presses/s offered)"


async def served(
    service: TableService, t: LiveTable, wait: float = RESTORE_WAIT
) -> LiveTable | None:
    """The table ``service`` serves now in ``t``'s chat (``t`` itself, or the table restored
    anew in its place), waiting up to ``wait`` seconds while none is served there (being
    restored). ``None`` when none is served there by then (restoring it failed, or the table
    closed)."""
    chat = ChatRef(t.platform, t.community_ext, t.chat_id)
    end = time.monotonic() + wait
    while (now := service.table_in(chat)) is None and time.monotonic() < end:
        await asyncio.sleep(0.05)
    return now


def button(t: LiveTable, seat: SeatState, want: tuple[str, str]) -> str | None:
    """The payload of the button ``want`` (``(action, arg)``, :func:`render.move_presses`)
    on ``seat``'s private hand of ``t`` as the bot shows it now; ``None`` when it is not
    there (the hand moved on, or the table was restored to a step before)."""
    screen = render.private_screen(t, seat, time.time())
    return next(
        (b.data for b in screen.all_buttons()
         if b.data and (p := Payload.decode(b.data)) and (p.action, p.arg) == want),
        None,
    )  # fmt: skip


async def play(service: TableService, t: LiveTable, hands: int, pace: float, press: Press) -> None:
    """Play ``hands`` hands at ``t``'s chat (counted from the hand the table served there is
    at now), the acting player making the strategy's move one button at a time, each press
    about ``pace`` seconds after the last (0 or below: none), at the table served there now
    (:func:`served`). The street's presses are worked out again from that table when it was
    restored anew, a press was refused (``press`` returned ``False``: storage not answering
    in time, nothing changed) or the next button is not on the screen. Returns when the
    hands are played, or no table is served there any more."""
    start = await served(service, t)
    if start is None:
        return
    target = start.hand_no + hands
    while (now := await served(service, t)) is not None:
        hand = now.hand
        if hand is None or now.hand_no >= target:
            return
        seat_no = hand.to_act[0]
        seat = now.seats[seat_no]
        for want in render.move_presses(hand.suggest(seat_no, lookahead=0)):
            if pace > 0:
                await asyncio.sleep(random.uniform(0.5 * pace, 1.5 * pace))
            if await served(service, t) is not now or now.hand is not hand:
                break  # (restored anew, or the hand is over)
            data = button(now, seat, want)  # the buttons the bot sent
            if data is None or not await press(now, seat, want, data):
                break  # (not on the screen now, or refused: the presses worked out again)
