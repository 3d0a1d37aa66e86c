"""TelegramPresenter._held (fixsmall): the writers of a chat's new messages refused with a
429, which the chat's later new messages wait for. The chat's entry stayed, an empty set,
once they were all posted: one more entry for every chat that ever had a 429'd post, for the
life of the process. It goes when its last writer is done."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from telegram.error import RetryAfter

from bot.screens import Screen
from tests.bot.tg_world import GROUP_ID, world


async def test_a_chat_whose_429d_posts_are_out_keeps_no_held_entry(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        chat = str(GROUP_ID)
        refs = [
            presenter._pending(chat, Screen(text), RetryAfter(1), time.monotonic())
            for text in ("first", "second")
        ]
        assert len(presenter._held[chat]) == 2
        writers = [presenter._writers[(chat, ref)] for ref in refs]
        await asyncio.wait_for(asyncio.gather(*writers), 10)
        await asyncio.sleep(0)  # (their done callbacks)
        assert chat not in presenter._held, presenter._held
        posted = [c.params["text"] for c in w.fake.calls if c.method == "sendMessage"]
        assert "first" in posted and "second" in posted  # (both posted after the pause)
        # a later 429 of the chat is held again, and let go again
        ref = presenter._pending(chat, Screen("third"), RetryAfter(1), time.monotonic())
        assert len(presenter._held[chat]) == 1
        await asyncio.wait_for(presenter._writers[(chat, ref)], 10)
        await asyncio.sleep(0)
        assert presenter._held == {}
