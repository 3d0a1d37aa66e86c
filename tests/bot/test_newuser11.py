"""A newcomer's pass through the sandbox (eleventh): its answers to a button it has not."""

from __future__ import annotations

import io
from pathlib import Path

from bot.sandbox import Sandbox, SandboxOptions


async def test_rn_without_a_replay_says_how_to_open_one(tmp_path: Path) -> None:
    """``r1`` before any /replay answered "that message has no buttons now", as if a message
    were there: it says no replay is open and how to open one, in English and Russian."""
    for lang, want in (
        (
            "en",
            "» no such button: no replay is open (/history lists your hands, /replay N opens one)",
        ),
        (
            "ru",
            "» нет такой кнопки: повтор не открыт (/history покажет ваши раздачи, "
            "/replay N откроет одну)",
        ),
    ):
        out = io.StringIO()
        box = Sandbox(
            SandboxOptions(db=tmp_path / f"{lang}.sqlite3", bot_delay=0.0, lang=lang), out
        )
        try:
            await box.start()
            assert await box.handle("r1")
            assert want in out.getvalue().splitlines()
        finally:
            await box.stop()


async def test_a_message_with_one_button_names_it_alone(tmp_path: Path) -> None:
    """After /closetable during a hand the group message keeps only Leave: "g2" was answered
    "that message's are g1–g1"; it names the one button."""
    for lang, want in (
        ("en", "» no such button: that message's only one is g1"),
        ("ru", "» нет такой кнопки: у этого сообщения одна кнопка — g1"),
    ):
        out = io.StringIO()
        box = Sandbox(
            SandboxOptions(db=tmp_path / f"{lang}.sqlite3", bot_delay=0.0, lang=lang), out
        )
        try:
            await box.start()
            assert await box.handle("g1")
            assert await box.handle("g2")
            assert await box.handle("/closetable")
            assert await box.handle("g2")
            assert out.getvalue().splitlines()[-1] == want, out.getvalue()[-2000:]
        finally:
            await box.stop()
