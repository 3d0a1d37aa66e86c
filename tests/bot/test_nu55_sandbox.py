"""Commands from a pipe confirm a fouled board as a player at the terminal does: the second
Confirm, the line after the bot's question, plays it."""

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
    others (``"✅ Confirm"``): a card's row is its card's Top, then Middle, Bottom, Discard."""
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


@pytest.mark.foul_confirm_pause
async def test_a_piped_second_confirm_plays_the_fouled_board(tmp_path: Path) -> None:
    """``--fantasyland`` deals you Q♥ Q♦ 8♣ 8♦ 8♥: three Eights on top foul the board
    whatever follows (R2.3). Its last Confirm asks first; the next line's Confirm came within
    the bot's double-tap second (``FOUL_CONFIRM_MIN_SECONDS``) and was asked about again,
    line after line: from a pipe the hand was never confirmed. The sandbox now waits out
    that second after the question, as typing does, and the hand ends fouled."""
    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0, fantasyland=True)
    box = Sandbox(opts, out, piped=True)
    try:
        await box.start()
        assert await box.handle("g join")
        assert await box.handle("g ready")
        assert box.service is not None
        table = box.service.table_in(GROUP)
        assert table is not None and table.hand is not None
        hand = table.hand
        seat = table.seat_of(str(box.human.id))
        assert seat is not None
        for _ in range(400):  # your move: your hand's buttons on screen
            numbers = _by_card(box)
            if "✅ Confirm" in numbers:
                break
            await asyncio.sleep(0.05)
        for press in ("8♣ Top", "8♦ Top", "8♥ Top", "Q♥ Bottom", "Q♦ Bottom", "✅ Confirm"):
            assert await box.handle(str(numbers[press]))
        question = tr("en", "err.confirm_fouled")
        for _ in range(4):  # streets 2-5: Arrange, then Confirm
            for _ in range(400):  # (the street dealt after the computer's move: a loaded
                numbers = _by_card(box)  # machine's took longer than no wait)
                if "🪄 Arrange for me" in numbers:
                    break
                await asyncio.sleep(0.05)
            assert await box.handle(str(numbers["🪄 Arrange for me"]))
            assert await box.handle(str(numbers["✅ Confirm"]))
        assert out.getvalue().count(question) == 1, out.getvalue()[-3000:]
        assert await box.handle(str(numbers["✅ Confirm"]))  # the line after the question
        for _ in range(100):
            if hand.is_over:
                break
            await asyncio.sleep(0.05)
        assert out.getvalue().count(question) == 1, out.getvalue()[-3000:]
        assert hand.is_over and hand.result is not None
        mine = next(r for r in hand.result.seats if r.seat == seat.seat)
        assert mine.fouled
    finally:
        await box.stop()


async def test_a_bare_b_before_bob_has_a_private_chat_says_so(tmp_path: Path) -> None:
    """``b`` alone reprints Bob's hand; typed before anything reached his private chat (a
    newcomer trying it first) it printed nothing at all. It says there is nothing yet and
    how to seat him."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0), out)
    try:
        await box.start()
        before = len(out.getvalue().splitlines())
        assert await box.handle("b")
        assert out.getvalue().splitlines()[before:] == [
            "» Bob: nothing in the private chat yet, no hand (to the table: b g join, then "
            "b g ready)"
        ]
    finally:
        await box.stop()
