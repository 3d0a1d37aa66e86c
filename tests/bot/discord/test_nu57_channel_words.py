"""nu57: a Discord player was told about "this chat" where Discord has a channel: a second
``/ofc new`` read "This chat already has an open table (#1)", one while the table closes "This
chat's table #1 closes …" («Стол #1 этого чата …»), one beside a tournament "This chat's
tournament #1 is under way" («В этом чате идёт турнир»), and one the bot could not post in
"The bot needs to see and write in this chat". Discord's answers name the channel (and the
permissions the bot lacks), as the other Discord wordings (``<key>.discord``) do; Telegram's
stay as they were."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.discord.components import discord_commands
from bot.texts import TEXTS, on, tr
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.fakes.discord_api import CHANNEL_ID, EPHEMERAL

#: the answers about a chat's table that a Discord channel gets too
KEYS = (
    "reply.table_exists",
    "reply.table_closing",
    "reply.table_not_posted",
    "tour.exists",
    "tour.table_closing",
)


@pytest.mark.parametrize("key", KEYS)
def test_discord_wording_names_the_channel_not_a_chat(key: str) -> None:
    for lang in ("en", "ru"):
        text = discord_commands(tr(lang, on("discord", key), table=7))
        assert not re.search(r"\b(chat|чат)", text, re.IGNORECASE), (lang, text)
        assert "/closetable" not in text and "/newtable" not in text, (lang, text)
        assert tr(lang, on("telegram", key), table=7) == tr(lang, key, table=7)
    assert "channel" in TEXTS[on("discord", key)]["en"]


async def test_second_new_and_new_while_closing_name_the_channel(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        again = await w.slash(ALICE, "new")
        assert again["content"].splitlines()[0] == (
            "This channel already has an open table (#1). To open another game, an admin "
            "closes it with /ofcadmin close (stacks go back to balances)."
        ), again
        ru = await w.slash(BOB, "new")
        assert ru["content"].splitlines()[0] == (
            "Здесь уже открыт стол #1. Для другой игры админ сначала закрывает его: "
            "/ofcadmin close (стеки вернутся на балансы)."
        ), ru
        for user in (ALICE, BOB):
            await w.press_lobby(user, "j")
        for user in (ALICE, BOB):
            await w.press_lobby(user, "r")
        await w.fake.wait_for(lambda: w.table().hand is not None)
        await w.slash(ALICE, "close", admin=True)
        closing = await w.slash(ALICE, "new")
        assert closing["content"].splitlines()[0] == (
            "This channel's table #1 closes at the end of this hand, stacks back to balances; "
            "then /ofc new opens another."
        ), closing
        ru = await w.slash(BOB, "new")
        assert ru["content"].splitlines()[0] == (
            "Стол #1 этого канала закроется в конце этой раздачи, стеки вернутся на балансы; "
            "затем /ofc new откроет новый."
        ), ru


async def test_new_beside_a_tournament_names_the_channel(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await w.slash(ALICE, "tournament")
        first = (await w.slash(ALICE, "new"))["content"].splitlines()[0]
        assert first.startswith("This channel's tournament #1 is under way: "), first
        first = (await w.slash(BOB, "new"))["content"].splitlines()[0]
        assert first.startswith("В этом канале идёт турнир #1: новый стол откроется, "), first


async def test_new_in_a_channel_the_bot_cannot_write_in_names_the_permissions(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.locked_channels.add(CHANNEL_ID)  # refused writes, no update about it
        reply = await w.slash(ALICE, "new")
        assert reply["content"] == (
            "⚠ Table #1: its message could not be posted here. The bot needs View Channels and "
            "Send Messages in this channel; without them the table closes."
        ), reply
        assert reply["flags"] & EPHEMERAL
        w.logged.clear()  # (the refused post is logged)
