"""A new user's findings in the local sandbox: bare numbers press only the hand's buttons,
``--lang`` switches the group, ``--hand-seconds`` says which settings it replaced, and
``--fantasyland``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
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
            text="🎬 #1 · table #1 · hand 1\nStreet 1 of 5",
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
        db=db,
        bot_delay=0.0,
        hand_seconds=60,
        lang="ru",
        given=frozenset({"hand_seconds", "lang"}),  # (lang ru comes with --lang only)
    )
    lines = await _session(ru, "/closetable")
    assert (
        "» --hand-seconds 60 заменил таймеры группы: hand_seconds 30 → 60, "
        "time_bank_seconds 8 → 15, fantasyland_seconds 45 → 90"
    ) in lines, lines


async def test_lang_ru_after_an_english_start_switches_the_group_a_hand_under_way_too(
    tmp_path: Path,
) -> None:
    """A first start in English, a hand dealt; the next start with ``--lang ru`` kept the
    table in English (one line, easy to miss, said so) and everything stayed English until
    ``/settings language ru``. The flag switches the group as that command would: the table
    and the hand on screen (its buttons) are Russian, said in one line; the same flag again
    says nothing more, and ``--lang en`` switches it back."""
    db = tmp_path / "s.sqlite3"
    first = await _session(SandboxOptions(db=db, bot_delay=0.0), "g1", "g2")
    assert any("🪄 Arrange for me" in x for x in first), first
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=db, bot_delay=0.0, lang="ru", given=frozenset({"lang"})), out)
    try:
        await box.start()
        await box.print_changes()
        assert box.service is not None
        table = box.service.table_in(GROUP)
        assert table is not None and table.hand is not None  # the hand is still under way
        seat = table.seat_of(str(box.human.id))
        assert table.lang == "ru" and seat is not None and seat.lang == "ru"
        assert box.lang == "ru"
    finally:
        await box.stop()
    lines = out.getvalue().splitlines()
    note = (
        "» --lang ru: группа переключена на русский (стол и экраны вашей руки тоже), "
        "как это делает /settings язык ru"
    )
    assert lines[0] == note, lines
    assert "» Сохранено: язык = ru (было авто)." in lines, lines
    assert any("🪄 Разложить" in x for x in lines), lines  # the hand's screen, rewritten
    again = await _session(
        SandboxOptions(db=db, bot_delay=0.0, lang="ru", given=frozenset({"lang"}))
    )
    assert not any(x.startswith("» --lang") for x in again), again
    en = await _session(SandboxOptions(db=db, bot_delay=0.0, lang="en", given=frozenset({"lang"})))
    assert en[0] == (
        "» --lang en: the group is switched to English (the table and your hand's screens "
        "too), as /settings language en does"
    ), en


async def test_fantasyland_deals_the_player_a_board_that_reaches_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new user needed ~14 hands to see a Fantasyland in the sandbox, with no way to ask
    for one. ``--fantasyland`` deals the player's next Pineapple hand the stacked streets
    (the rest of the deck shuffled): Queens and trips on street 1; "Arrange for me" and
    Confirm on every street earn Fantasyland (R6.1), which the table's match records for the
    player's seat and deals next; the computer player's cards are none of the player's. (At
    the ``strong`` level "Arrange for me" has in the bot: the suite's ``normal`` does not put
    the Queens on top.)"""
    import asyncio

    from bot.sandbox import FANTASYLAND_STREETS
    from bot.service import play
    from game.policy import Level

    monkeypatch.setattr(play, "ARRANGE_LEVEL", Level.STRONG)

    out = io.StringIO()
    opts = SandboxOptions(
        db=tmp_path / "s.sqlite3", bot_delay=0.0, fantasyland=True, next_hand_delay=0.5
    )
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert (
            "» --fantasyland: your next Pineapple hand starts Q♥ Q♦ 8♣ 8♦ 8♥; the Queens on "
            "top, the board not fouled, earn Fantasyland (🪄 Arrange for me plays it so)"
        ) in out.getvalue().splitlines()
        assert await box.handle("g1")
        assert await box.handle("g2")
        assert box.service is not None
        table = box.service.table_in(GROUP)
        assert table is not None and table.hand is not None
        seat = table.seat_of(str(box.human.id))
        assert seat is not None
        hand = table.hand
        assert tuple(hand.to_place(seat.seat)) == FANTASYLAND_STREETS[0]
        others = [s for s in hand.order if s != seat.seat]
        assert others and not set(hand.to_place(others[0])) & set(FANTASYLAND_STREETS[0])
        for _ in range(200):  # play the hand out as a user would: Arrange, then Confirm
            if table.hand is not hand or hand.is_over:
                break
            # the numbers as printed (they stay with their buttons for the street)
            numbers = {label: n for n, label in box.numbered(box.human.id)}
            if "✅ Confirm" in numbers and hand.to_place(seat.seat) == ():
                assert await box.handle(str(numbers["✅ Confirm"]))
            elif "🪄 Arrange for me" in numbers:
                assert await box.handle(str(numbers["🪄 Arrange for me"]))
            else:
                await asyncio.sleep(0.1)
        assert hand.is_over and hand.result is not None
        mine = next(r for r in hand.result.seats if r.seat == seat.seat)
        assert not mine.fouled and mine.fantasyland_cards >= 14, mine
        assert table.match is not None and table.match.fantasyland.get(seat.seat, 0) >= 14
        for _ in range(200):  # the Fantasyland hand dealt: no note that none was earned
            if table.hand is not None and table.hand is not hand:
                break
            await asyncio.sleep(0.05)
        assert table.hand is not None and table.hand.is_fantasyland(seat.seat)
        assert "earned no Fantasyland" not in out.getvalue()
    finally:
        await box.stop()


async def test_without_the_flag_no_deck_is_stacked(tmp_path: Path) -> None:
    """Decks are stacked only by the sandbox's ``--fantasyland``: the service has no deal
    source otherwise (the bot in real groups never sets one)."""
    from bot.service import TableService
    from storage.memory import MemoryStore

    assert TableService(MemoryStore()).rt.deal_source is None
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0), io.StringIO())
    try:
        await box.start()
        assert box.service is not None and box.service.rt.deal_source is None
    finally:
        await box.stop()
