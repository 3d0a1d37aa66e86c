"""Admin commands on Discord, a third break-it round, through the real adapter and the fake
Discord."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_discord_e2e import seat_everyone


async def test_texts_shown_on_discord_say_server_not_group(tmp_path: Path) -> None:
    """Discord calls a community a server, and a table lives in a channel: the settings list
    said "Settings of this group", a setting of another game "this group's game", the daily
    bonus "off in this group" and a finished hand's private screen "Result in the group".
    Each says the server (the channel for the result) on Discord, in English and Russian."""
    async with world(tmp_path, next_hand_delay=60) as w:  # (the hand over stays on screen)
        reply = await w.slash(ALICE, "settings", admin=True)
        assert reply["content"].startswith("⚙ Settings of this server\n"), reply
        reply = await w.slash(BOB, "settings", admin=True)
        assert reply["content"].startswith("⚙ Настройки сервера\n"), reply
        reply = await w.slash(
            ALICE, "settings", {"name": "target_points", "value": "40"}, admin=True
        )
        assert "; this server's game is Pineapple OFC)." in reply["content"], reply
        reply = await w.slash(BOB, "settings", {"name": "target_points", "value": "41"}, admin=True)
        assert "; игра сервера — «Ананас (OFC)»)." in reply["content"], reply
        reply = await w.slash(ALICE, "settings", {"name": "daily_bonus", "value": "0"}, admin=True)
        reply = await w.slash(ALICE, "daily")
        assert reply["content"] == "The daily bonus is off on this server.", reply
        reply = await w.slash(BOB, "daily")
        assert reply["content"] == "Ежедневный бонус на этом сервере выключен.", reply
        await seat_everyone(w, [ALICE, BOB])
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        for user, over in (
            (ALICE, "· hand 1 is over. Result in the channel."),
            (BOB, "· раздача 1 окончена. Итоги в канале."),
        ):
            dm = w.dm(user)
            assert dm is not None and over in dm["content"], (user, dm)


async def test_a_settings_help_on_discord_says_server(tmp_path: Path) -> None:
    """``/ofcadmin settings utc_offset`` explained "the group's time zone" on Discord (and
    the Russian ``pictures`` "в группу"): the server's, the table's channel."""
    async with world(tmp_path) as w:
        reply = await w.slash(ALICE, "settings", {"name": "utc_offset"}, admin=True)
        assert "the server's time zone" in reply["content"], reply
        assert "group" not in reply["content"], reply
        reply = await w.slash(BOB, "settings", {"name": "utc_offset"}, admin=True)
        assert "часовой пояс сервера" in reply["content"], reply
        reply = await w.slash(BOB, "settings", {"name": "pictures"}, admin=True)
        assert "в канал стола приходит картинка" in reply["content"], reply
