"""Kush conservation end to end on Telegram's fake (R8.2): presses and commands that reach
the real adapter at the same moment; the ledger checked after each
(:func:`tests.bot.money.assert_conserved`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.money import assert_conserved
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


async def _balance(w, user) -> int:  # type: ignore[no-untyped-def]
    community = await w.store.community("telegram", str(GROUP_ID))
    player = await w.store.find_player(community.id, str(user.id))
    assert player is not None
    return int(player.balance)


async def test_r8_2_two_topups_and_a_leave_at_one_moment_on_telegram(tmp_path: Path) -> None:
    """Alice (500 kush left after her buy-in and a grant) sends /topup 400 twice and presses
    Leave at the same moment: at most one top-up is made, whatever comes first, and her
    1000 kush less the 500 taken are all in her balance and stack."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.admins[GROUP_ID] = {ALICE.id}
        assert "open" in (await w.say(ALICE, "/newtable"))["text"]
        await w.say(ALICE, "/join")
        await w.settle()  # (the table message shows her seat: its Ready is current)
        await w.press_lobby(ALICE, "r")
        reply = await w.say(ALICE, "/grant @alice -300")
        assert (await _balance(w, ALICE)) == 500, reply["text"]
        await asyncio.gather(
            w.say(ALICE, "/topup 400"), w.say(ALICE, "/topup 400"), w.press_lobby(ALICE, "l")
        )
        await w.settle()
        t = next(iter(w.service.tables.values()), None)
        seat = t.seat_of(str(ALICE.id)) if t is not None else None
        stack = seat.stack if seat is not None else 0
        balance = await _balance(w, ALICE)
        assert balance + stack == 700
        assert balance in (100, 500, 700), balance
        await assert_conserved(w.store)
