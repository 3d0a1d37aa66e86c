"""R8.7 on Discord, end to end through discord.py's real client and the local fake Discord:
``/ofc leave`` at a running tournament asks first, as the Leave button does (it knocked the
player out in one step); the question names Discord's command; a second ``/ofc leave``
within the window knocks the player out (tests/bot/test_fixgrant2_leave.py: the rules)."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, world
from tests.bot.discord.test_tournament_discord import BUY_IN, START, balance
from tests.bot.discord.test_tournament_discord_more import configure, open_and_register


async def test_r8_7_discord_ofc_leave_asks_first_at_a_running_tournament(tmp_path: Path) -> None:
    """Carol runs /ofc leave: asked (place 3), nothing moves; again: out, 3rd. Bob (Russian)
    the same, in Russian: out, 2nd; Alice wins."""
    async with world(tmp_path) as w:
        await configure(w, tournament_buy_in=str(BUY_IN))
        t = await open_and_register(w)
        tour = t.tournament
        assert tour is not None
        reply = await w.slash(CAROL, "leave")
        asked = tr("en", "tour.leave_confirm_typed", place=3).replace("/leave", "/ofc leave")
        assert reply["content"] == asked, reply["content"]
        assert reply["content"].endswith("Send /ofc leave again to confirm.")
        assert sorted(tour.chips) == [0, 1, 2] and not tour.knocked_out
        reply = await w.slash(CAROL, "leave")
        assert reply["content"] == tr("en", "tour.left", place=3, prize=0, label="kush")
        assert sorted(tour.chips) == [0, 1]
        reply = await w.slash(BOB, "leave")
        assert reply["content"] == tr("ru", "tour.leave_confirm_typed", place=2).replace(
            "/leave", "/ofc leave"
        )
        assert sorted(tour.chips) == [0, 1]
        reply = await w.slash(BOB, "leave")
        assert reply["content"] == tr("ru", "tour.left", place=2, prize=0, label="kush")
        assert tour.finished is not None
        assert await balance(w, CAROL) == START - BUY_IN
        assert await check_store(w.store) == []


async def test_r8_5_discord_ofc_leave_during_a_hand_names_ofc_leave(tmp_path: Path) -> None:
    """A cash table: Bob (Russian) runs /ofc leave during his hand: the question (R8.5) names
    Discord's command (the adapter writes the service's "/leave" as "/ofc leave"), nothing
    moves; again: he leaves, answered without a bare "/leave"."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for user in (ALICE, BOB):
            await w.slash(user, "join")
        for user in (ALICE, BOB):
            await w.slash(user, "ready")
        t = w.table()
        assert t.hand is not None
        reply = await w.slash(BOB, "leave")
        asked = tr("ru", "reply.leave_confirm_typed").replace("/leave", "/ofc leave")
        assert reply["content"] == asked, reply
        assert sorted(s.name for s in t.seats.values()) == ["Alice", "Bob"]
        reply = await w.slash(BOB, "leave")
        assert reply["content"] != asked and "/leave" not in reply["content"], reply
