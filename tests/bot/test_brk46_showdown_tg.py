"""brk46 on Telegram: the bot killed after a showdown's new table message was posted, before
the step's messages were saved as sent. The restart posted the owed showdown a second time (a
new message below the new table message); now it is written over the message that shows it."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.telegram.adapter import TelegramPresenter
from bot.telegram.fake_api import FakeTelegram
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TOKEN, world


def _showdowns(fake: FakeTelegram) -> list[dict[str, Any]]:
    return [m for m in fake.chat_messages(GROUP_ID) if m["text"].startswith("🏁")]


async def test_a_crash_after_the_showdown_posts_it_once_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, crashed = tmp_path / "ofc.sqlite3", tmp_path / "crashed.sqlite3"
    real = TelegramPresenter._send
    seen: list[str] = []

    async def send(self: TelegramPresenter, chat_id: str, screen: Any, **kw: Any) -> Any:
        if chat_id == str(GROUP_ID) and screen.buttons:
            seen.append(chat_id)
            if len(seen) == 2:  # the table message posted after the showdown
                with sqlite3.connect(db) as src, sqlite3.connect(crashed) as dst:
                    src.backup(dst)
        return await real(self, chat_id, screen, **kw)

    monkeypatch.setattr(TelegramPresenter, "_send", send)
    fake = FakeTelegram(TOKEN)
    await fake.start()
    try:
        async with world(tmp_path, db=db, fake=fake, next_hand_delay=30.0) as w:
            w.fake.started_users.update({ALICE.id, BOB.id})
            await seat_everyone(w, [ALICE, BOB])
            await play_hand(w, [ALICE, BOB])
            await w.settle()
        assert len(seen) == 2 and crashed.exists()
        [record] = _showdowns(fake)
        monkeypatch.undo()
        async with world(tmp_path, db=crashed, fake=fake, next_hand_delay=30.0) as w:
            await w.settle()
            assert [m["message_id"] for m in _showdowns(fake)] == [record["message_id"]]
    finally:
        await fake.stop()
