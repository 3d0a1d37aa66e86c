"""The sandbox's ``--fantasyland`` stacks one hand a start: a user who placed it otherwise
(here fouled) waited for a Fantasyland that never came, and nothing said why or how to have
another. Before the table's next hand the sandbox now says so, once."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from bot.sandbox import GROUP, Sandbox, SandboxOptions
from bot.texts import tr

SUITS = "♠♥♦♣"


def _by_card(box: Sandbox) -> dict[str, int]:
    """Your hand's numbered buttons by ``"<card> <box>"`` (``"8♣ Top"``) and by label for the
    others (``"✅ Confirm"``)."""
    out: dict[str, int] = {}
    card = ""
    for n, label in box.numbered(box.human.id):
        words = label.replace("•", "").split()
        if words and any(s in words[0] for s in SUITS):
            card, words = words[0], words[1:]
        out[f"{card} {' '.join(words)}" if card and words[-1:] != ["Confirm"] else label] = n
        if "Undo" in label:
            card = ""
    return out


async def _numbers_with(box: Sandbox, label: str) -> dict[str, int]:
    """Your hand's buttons once ``label`` is among them (your move), at most 20 s."""
    for _ in range(400):
        numbers = _by_card(box)
        if label in numbers:
            return numbers
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {label!r} on screen")


@pytest.mark.foul_confirm_pause
async def test_a_stacked_hand_that_earned_no_fantasyland_says_so_before_the_next(
    tmp_path: Path,
) -> None:
    """Q♥ Q♦ 8♣ 8♦ 8♥ with the three Eights on top fouls whatever follows (R2.3, R6.1: no
    Fantasyland). When the table deals its next hand, one line says hand 1 earned none and
    that the flag deals it once a start; the next hand is an ordinary one (no line again)."""
    out = io.StringIO()
    opts = SandboxOptions(
        db=tmp_path / "s.sqlite3", bot_delay=0.0, fantasyland=True, next_hand_delay=0.5
    )
    box = Sandbox(opts, out, piped=True)
    missed = tr("en", "sandbox.fantasyland_missed", hand=1)
    try:
        await box.start()
        assert await box.handle("g join")
        assert await box.handle("g ready")
        assert box.service is not None
        table = box.service.table_in(GROUP)
        assert table is not None and table.hand is not None
        hand = table.hand
        numbers = await _numbers_with(box, "✅ Confirm")
        for press in ("8♣ Top", "8♦ Top", "8♥ Top", "Q♥ Bottom", "Q♦ Bottom", "✅ Confirm"):
            assert await box.handle(str(numbers[press]))
        for _ in range(4):  # streets 2-5: Arrange, then Confirm
            numbers = await _numbers_with(box, "🪄 Arrange for me")
            assert await box.handle(str(numbers["🪄 Arrange for me"]))
            assert await box.handle(str(numbers["✅ Confirm"]))
        assert await box.handle(str(numbers["✅ Confirm"]))  # the fouled board: played
        for _ in range(200):  # the next hand dealt (half a second after the showdown)
            if table.hand is not hand and table.hand is not None:
                break
            await asyncio.sleep(0.05)
        assert hand.result is not None and table.hand is not hand
        seat = table.seat_of(str(box.human.id))
        assert seat is not None
        assert hand.result.seat(seat.seat).fantasyland_cards == 0
        assert not table.hand.is_fantasyland(seat.seat)
        await box.print_changes()
        text = out.getvalue()
        assert missed == (
            "» --fantasyland: hand 1 earned no Fantasyland (Queens on top, board not fouled); "
            "the flag deals it once a start: /quit, then start again with --fantasyland"
        )
        assert text.count(missed) == 1, text[-3000:]
        # after the showdown that shows why, before the next hand's screens
        assert text.index("💀 foul") < text.index(missed), text[-3000:]
    finally:
        await box.stop()
    assert out.getvalue().count("» --fantasyland: hand") == 1


def test_the_russian_line_says_the_same() -> None:
    """The note in Russian, for a ``--lang ru`` start: the hand, why, and how to have
    another."""
    assert tr("ru", "sandbox.fantasyland_missed", hand=3) == (
        "» --fantasyland: раздача 3 не дала Фантазии (нужны дамы наверху, рука не мёртвая); "
        "флаг сдаёт её раз за запуск: /quit и новый запуск с --fantasyland"
    )
