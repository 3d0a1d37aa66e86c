"""A newcomer's pass through the sandbox (eleventh): its answers to a button it has not."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

from bot.sandbox import Sandbox, SandboxOptions
from tests.bot.test_bots import alice_and_a_bot
from tests.bot.test_service import ALICE, GROUP


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
        ("en", "» no such button: that message's only button is g1"),
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


async def test_group_stats_say_the_winnings_are_the_members(tmp_path: Path) -> None:
    """A newcomer who lost a hand to the sandbox's computer player read "Winnings of every
    hand, added up: 0 kush" (and "players: 1"): the house's winnings are left out, which the
    line now says, in English and Russian."""
    service, _presenter, _store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    for _ in range(50):
        if t.hand is None or t.hand.is_over:
            break
        clock.now = t.bot_due if t.bot_due is not None else clock.now + 10_000
        await service.run_due()
    assert t.hand is None or t.hand.is_over
    lines = (await service.stats(GROUP, ALICE, [])).text.splitlines()
    moved = [line for line in lines if line.startswith("Members won ")]
    assert len(moved) == 1, lines
    ru = dataclasses.replace(ALICE, language="ru")
    lines = (await service.stats(GROUP, ru, [])).text.splitlines()
    assert any(line.startswith("Участники выиграли ") for line in lines)
