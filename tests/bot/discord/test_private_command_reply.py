"""A slash command's answer honours ``Reply.private`` (the screen is the caller's alone):
Discord answers it ephemerally, as Telegram shows a private screen only in the private chat
(a press in a group answers with a notice, never writing it over the group's message). The
adapter posted it in the channel for everyone. No service command returns one in a channel
today (``/ofc replay`` is ephemeral by its own flag), so these tests **monkeypatch** the
service's ``top`` and ``join`` to return one: a future private reply must not leak (R3.3:
the caller's discards and hidden cards are theirs)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.model import Actor, ChatRef, Reply, Screen
from tests.bot.discord.dc_world import ALICE, World, world
from tests.fakes.discord_api import EPHEMERAL

SECRET = "🂠 yours alone: K♠ discarded"


def _private_reply() -> Reply:
    return Reply("Your hand:", screen=Screen(SECRET), private=True)


def _public_leaks(w: World) -> list[str]:
    return [str(m.get("content")) for m in w.fake.channel_messages() if SECRET in str(m)]


@pytest.mark.parametrize("slow", [False, True])
async def test_r3_3_a_private_reply_to_a_public_command_is_ephemeral(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slow: bool
) -> None:
    """``/ofc top`` (answered publicly) with its service method monkeypatched to return a
    private reply; ``slow``: answered after the adapter deferred it (a public "thinking"
    placeholder), which goes, the reply following ephemerally."""
    async with world(tmp_path, answer_within=0.01 if slow else 2.0) as w:

        async def top(chat: ChatRef, actor: Actor, period: str) -> Reply:
            if slow:
                await asyncio.sleep(0.2)
            return _private_reply()

        monkeypatch.setattr(w.service, "top", top)
        msg: dict[str, Any] = await w.slash(ALICE, "top")
        assert SECRET in str(msg.get("content"))
        assert int(msg.get("flags") or 0) & EPHEMERAL
        assert _public_leaks(w) == []
        assert w.fake.channel_messages() == []  # (nor a "thinking" placeholder left)


async def test_r3_3_a_private_early_answer_of_a_table_command_is_ephemeral(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/ofc join`` (a table command the service answers early) with its service method
    monkeypatched to answer with a private reply."""
    async with world(tmp_path) as w:

        async def join(chat: ChatRef, actor: Actor, answer: Any = None) -> Reply:
            reply = _private_reply()
            if answer is not None:
                await answer(reply)
            return reply

        monkeypatch.setattr(w.service, "join", join)
        msg = await w.slash(ALICE, "join")
        assert SECRET in str(msg.get("content"))
        assert int(msg.get("flags") or 0) & EPHEMERAL
        assert _public_leaks(w) == []
