"""Telegram's counterpart of tests/bot/discord/test_private_command_reply.py: a command's
answer the service marks private (``Reply.private``) typed in a group. Telegram's adapter
posted every command's answer in the chat it was typed in (``_write_reply`` ignored
``private``); it is now written in the typer's private chat and the group is told only that
(``_reply_in_private``). No command returns one in a group today: these tests
**monkeypatch** ``TableService.top`` to return one, so that a future one cannot leak (R3.3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.model import Actor, ChatRef, Reply, Screen
from bot.service import TableService
from bot.texts import tr
from tests.bot.tg_world import ALICE, GROUP_ID, world

SECRET = "🂠 yours alone: K♠ discarded"


async def test_r3_3_a_private_reply_to_a_command_in_a_group_stays_out_of_the_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def top(self: TableService, chat: ChatRef, actor: Actor, period: str) -> Reply:
        return Reply("Your hand:", screen=Screen(SECRET), private=True)

    monkeypatch.setattr(TableService, "top", top)
    async with world(tmp_path) as w:
        w.fake.started_users.add(ALICE.id)
        reply = await w.say(ALICE, "/top")
        assert reply is not None  # (answered)
        assert all(SECRET not in str(m.get("text")) for m in w.fake.chat_messages(GROUP_ID))
        assert "Sent to your private chat." in w.group_texts()
        assert any(SECRET in str(m.get("text")) for m in w.fake.chat_messages(ALICE.id))


async def test_r3_3_a_private_reply_to_one_the_bot_cannot_write_to_says_how_to_let_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The typer never started the bot: the answer is not posted in the group either; the
    group is told how to let the bot write to them."""

    async def top(self: TableService, chat: ChatRef, actor: Actor, period: str) -> Reply:
        return Reply("Your hand:", screen=Screen(SECRET), private=True)

    monkeypatch.setattr(TableService, "top", top)
    async with world(tmp_path) as w:
        w.fake.started_users.discard(ALICE.id)
        await w.say(ALICE, "/top")
        texts = [str(m.get("text")) for m in w.fake.chat_messages(GROUP_ID)]
        assert all(SECRET not in t for t in texts)
        assert tr("en", "replay.no_private") in texts
        assert all(SECRET not in str(m.get("text")) for m in w.fake.chat_messages(ALICE.id))
