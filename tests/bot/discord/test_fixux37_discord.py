"""A new user's findings on Discord, through the real adapter and the fake Discord: the table
message during a hand shows only the lobby buttons that do something (R8.2)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import ALICE, BOB, CAROL, action_of, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone


async def test_r8_2_hand_buttons_join_while_a_seat_is_free_ready_while_needed(
    tmp_path: Path,
) -> None:
    """A Pineapple hand of two (3 seats): the table message kept Join and Ready, which the
    seated were only told "already at the table" / "already ready" by. Join stays while a
    seat is free; Carol sits down during the hand: Ready shows (she buys in with it before
    the next deal), Join goes (the table is full)."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        assert w.table().hand is not None

        def actions() -> list[str | None]:
            return [action_of(c) for c in components(w.table_message())]

        assert actions() == ["j", "l", "t", "h"]
        record = await w.press_lobby(CAROL, "j")
        notice = w.notice(record)
        assert notice is not None and "seat 3" in notice["content"], notice
        assert w.table().hand is not None
        assert actions() == ["r", "l", "t", "h"]


async def test_r8_7_kush_label_chips_is_refused_on_discord(tmp_path: Path) -> None:
    """``/ofcadmin settings kush_label chips`` was saved, though a tournament's chips are chips
    (R8.7): refused with why, in the admin's language; the label stays."""
    async with world(tmp_path) as w:
        reply = await w.slash(
            ALICE, "settings", {"name": "kush_label", "value": "chips"}, admin=True
        )
        assert reply["content"].splitlines()[0] == (
            "Cannot set that — “chips” would read as a tournament's chips: choose another unit, "
            "e.g. “coins” or “₽”."
        ), reply
        reply = await w.slash(BOB, "settings", {"name": "kush_label", "value": "фишки"}, admin=True)
        assert reply["content"].splitlines()[0] == (
            "Не удалось изменить настройку — «фишки» легко спутать с турнирными фишками: "
            "выберите другую единицу, например «монеты» или «₽»."
        ), reply
        reply = await w.slash(
            ALICE, "settings", {"name": "kush_label", "value": "coins"}, admin=True
        )
        assert reply["content"].splitlines()[0] == "Saved: kush_label = coins (was kush).", reply
