"""A newcomer's pass through the sandbox (fixnu): a Chinese Poker replay and its ``r1``."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest

from bot.sandbox import GROUP_ID, Sandbox, SandboxOptions


async def _press(box: Sandbox, chat: int, label: str) -> None:
    """Press the button of ``chat``'s current screen whose label holds ``label``."""
    for _ in range(200):
        # the numbers as printed (your hand's stay with their buttons for the street)
        shown = box.numbered(chat)
        labels = [text for _, text in shown]
        hits = [n for n, text in shown if label in text]
        if hits:
            assert await box.handle(("g" if chat == GROUP_ID else "") + str(hits[0]))
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {label!r} button: {labels}")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r4_5_rn_under_a_one_frame_replay_says_it_has_one_frame(
    tmp_path: Path, lang: str
) -> None:
    """R4.5: a Chinese Poker hand is dealt and shown whole, so its ``/replay N`` is one frame
    with no ◀ ▶. ``r1`` then answered "no replay is open (/history …)" under the replay just
    printed: it says this replay has one frame."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0, lang=lang), out)
    try:
        await box.start()
        assert box.service is not None
        for line in ("/closetable", "/newtable chinese", "/settings reveal_pause_seconds 0"):
            assert await box.handle(line)
        await _press(box, GROUP_ID, "Join" if lang == "en" else "Сесть")
        await _press(box, GROUP_ID, "Ready" if lang == "en" else "Готов")
        await _press(box, box.human.id, "🪄")
        await _press(box, box.human.id, "✅")
        table = next(iter(box.service.tables.values()))
        for _ in range(300):
            if table.last_result is not None:
                break
            await asyncio.sleep(0.05)
        assert table.last_result is not None
        assert await box.handle("/history")
        await box.print_changes()
        numbers = re.findall(r"#(\d+) · ", out.getvalue())
        assert numbers, out.getvalue()[-1500:]
        assert await box.handle(f"/replay {numbers[-1]}")
        for _ in range(100):
            await box.print_changes()
            if re.search(rf"^🎬 #{numbers[-1]} · ", out.getvalue(), re.M):
                break
            await asyncio.sleep(0.05)
        assert await box.handle("r1")
        want = {
            "en": "» no such button: this replay has one frame, nothing to step through",
            "ru": "» нет такой кнопки: в этом повторе один кадр, листать нечего",
        }
        assert out.getvalue().splitlines()[-1] == want[lang], out.getvalue()[-2000:]
    finally:
        await box.stop()
