"""A new user's findings in the local sandbox: bare numbers press only the hand's buttons,
``--lang`` switches the group, ``--hand-seconds`` says which settings it replaced, and
``--fantasyland``."""

from __future__ import annotations

import io
from pathlib import Path

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.sandbox import GROUP, Sandbox, SandboxOptions


async def test_a_bare_number_never_presses_a_replays_buttons(tmp_path: Path) -> None:
    """After ``/closetable`` (no hand of yours), "17" was answered «that message's only button
    is 1» and "1" moved an open ``/replay`` forward: the bare numbers are the hand's buttons
    (docs/sandbox.md), the replay's are ``rN``. With no hand the sandbox says so and presses
    nothing; ``r1`` still presses the replay's ▶."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0), out)
    try:
        await box.start()
        assert await box.handle("g1")
        assert await box.handle("/closetable")
        assert box.service is not None and box.service.table_in(GROUP) is None
        assert box.adapter is not None
        # a replay's message in the private chat, with ▶ (what /replay N sends)
        await box.adapter.app.bot.send_message(
            chat_id=box.human.id,
            text="🎬 #1 · table 1, hand 1\nStreet 1 of 5",
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("▶", callback_data="z")]]),
        )
        await box.print_changes()
        assert "[r1] ▶" in out.getvalue()
        presses = len(box.fake.calls_of("answerCallbackQuery"))
        for typed in ("17", "1"):
            assert await box.handle(typed)
            assert out.getvalue().splitlines()[-1] == (
                "» no such button: you have no hand on screen; N presses your hand's "
                "buttons, rN a replay's, gN the group's"
            )
        assert len(box.fake.calls_of("answerCallbackQuery")) == presses  # nothing pressed
        assert await box.handle("r1")  # the replay's own button is still pressed by r1
        assert len(box.fake.calls_of("answerCallbackQuery")) == presses + 1
    finally:
        await box.stop()
