"""A new user's findings on Telegram, through the real adapter and the fake Bot API: the
table message during a hand shows only the lobby buttons that do something (R8.2)."""

from __future__ import annotations

from pathlib import Path

from bot.screens import Payload
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, CAROL, world


async def test_r8_2_hand_buttons_join_while_a_seat_is_free_ready_while_needed(
    tmp_path: Path,
) -> None:
    """A Pineapple hand of two (3 seats): the table message kept Join and Ready, which the
    seated were only told "already at the table" / "already ready" by. Join stays while a
    seat is free; Carol sits down during the hand: Ready shows (she buys in with it before
    the next deal), Join goes (the table is full)."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None

        def actions() -> list[str]:
            return [
                p.action if (p := Payload.decode(b.get("callback_data"))) else "url"
                for b in w.fake.buttons(w.table_message())
            ]

        assert actions()[:3] == ["j", "l", "t"], actions()
        answer = await w.press_lobby(CAROL, "j")
        assert "seat 3" in answer.get("text", ""), answer
        assert t.hand is not None
        assert actions()[:3] == ["r", "l", "t"], actions()
        assert len(actions()) == 4  # and My cards
