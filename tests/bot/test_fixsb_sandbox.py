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


async def _session(opts: SandboxOptions, *typed: str) -> list[str]:
    """One start of the sandbox on ``opts``, ``typed`` entered; its lines."""
    out = io.StringIO()
    box = Sandbox(opts, out)
    try:
        await box.start()
        for text in typed:
            assert await box.handle(text)
    finally:
        await box.stop()
    return out.getvalue().splitlines()


async def test_hand_seconds_says_which_settings_it_replaced_on_a_new_table(
    tmp_path: Path,
) -> None:
    """``/settings hand_seconds 90`` and ``time_bank_seconds 45``, ``/closetable``, then a
    start with ``--hand-seconds 30``: the group's timers became 30 and 8 with nothing printed
    (a new table opened, so no resumed table's note). One line names what was replaced, in
    the player's language; the same flag again replaces nothing and says nothing."""
    db = tmp_path / "s.sqlite3"
    typed = ("/settings hand_seconds 90", "/settings time_bank_seconds 45", "/closetable")
    await _session(SandboxOptions(db=db, bot_delay=0.0), *typed)
    flag = SandboxOptions(db=db, bot_delay=0.0, hand_seconds=30, given=frozenset({"hand_seconds"}))
    lines = await _session(flag)
    assert (
        "» --hand-seconds 30 replaced the group's timers: hand_seconds 90 → 30, "
        "time_bank_seconds 45 → 8, fantasyland_seconds 180 → 45"
    ) in lines, lines
    assert not any("replaced" in x for x in await _session(flag))
    ru = SandboxOptions(
        db=db, bot_delay=0.0, hand_seconds=60, lang="ru", given=frozenset({"hand_seconds"})
    )
    lines = await _session(ru, "/closetable")
    assert (
        "» --hand-seconds 60 заменил таймеры группы: hand_seconds 30 → 60, "
        "time_bank_seconds 8 → 15, fantasyland_seconds 45 → 90"
    ) in lines, lines
