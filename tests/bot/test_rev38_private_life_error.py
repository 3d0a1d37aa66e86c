"""rev38: what a Telegram private update says of the user's private chat
(:meth:`bot.telegram.adapter.TelegramAdapter._private_life`, a handler of its own run after
the update's own) failing is logged: the error handler told a user whose /help had been
answered "Something went wrong; nothing changed"."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import tr
from tests.bot.tg_world import BOB, world
from tests.waiting import until


async def test_a_failed_look_at_the_private_chat_tells_the_user_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    failed = {tr(lang, "err.internal") for lang in ("en", "ru")}
    async with world(tmp_path) as w:

        async def failing(platform: str, user_id: str) -> None:
            raise RuntimeError("the look failed")

        w.service.player_seen = failing  # type: ignore[method-assign]

        def told() -> list[str]:
            return [m["text"] for m in w.fake.chat_messages(BOB.id) if m["text"] in failed]

        def logged() -> bool:
            return "the private chat's news" in caplog.text

        reply = await w.say(BOB, "/help", chat_id=BOB.id)
        assert "/newtable" in str(reply.get("text")), reply
        # (either the failure is logged as the look's own, or the user is told it)
        await until(lambda: logged() or told(), what="the look's failure handled")
        await w.settle()
        assert told() == [] and logged()
