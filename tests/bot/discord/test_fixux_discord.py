"""Small player-facing fixes found by new-user runs, on Discord through the real adapter
and the fake Discord."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import ALICE, BOB, world


async def test_settings_name_option_holding_name_and_value_sets_it(tmp_path: Path) -> None:
    """``/ofcadmin settings name:"hand_seconds 30"`` (the value typed into the name option,
    none in ``value``) was "“hand_seconds 30” is not a setting. Did you mean…"; it is read as
    Telegram's ``/settings hand_seconds 30`` is, in English and Russian."""
    async with world(tmp_path) as w:
        reply = await w.slash(ALICE, "settings", {"name": "hand_seconds 30"}, admin=True)
        assert reply["content"].splitlines()[0] == "Saved: hand_seconds = 30 (was 120).", reply
        reply = await w.slash(BOB, "settings", {"name": " hand_seconds  45 "}, admin=True)
        assert reply["content"].splitlines()[0] == "Сохранено: время_на_раздачу = 45 (было 30).", (
            reply
        )
        reply = await w.slash(ALICE, "settings", {"name": "all"}, admin=True)
        assert "Time per hand (hand_seconds): 45 s" in reply["content"].splitlines(), reply
        # a name mistyped with its value: the name alone is echoed, as on Telegram
        reply = await w.slash(ALICE, "settings", {"name": "hand_secs 30"}, admin=True)
        assert reply["content"].splitlines()[0] == (
            "“hand\\_secs” is not a setting. Did you mean hand_seconds?"
        ), reply
