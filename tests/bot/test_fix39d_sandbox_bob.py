"""fix39d: the sandbox's Bob and its shutdown, as a user met them.

Bob's hand buttons were numbered anew at each print (``b 42``, his Chinese Poker Confirm before
🪄 Arrange, was "no such button" after it); his name was fixed; nothing said it was his move;
``b auto`` was forgotten at a restart; the background printer ended at its first error; a
command addressed to another bot waited 15 s; SIGTERM killed the sandbox with status −15 and
multiprocessing's "leaked semaphore" warning."""

from __future__ import annotations

import asyncio
import io
import json
import re
import signal
from dataclasses import replace
from pathlib import Path

from bot.sandbox import (
    BOB_ID,
    GROUP,
    Sandbox,
    SandboxOptions,
    _bob_name,
    addressee_of,
    command_of,
)
from bot.texts import tr
from tests.bot.test_sandbox import sandbox as sandbox_process
from tests.bot.test_sandbox_bob import wait_for

#: a card face as the sandbox prints it
CARD = re.compile(r"(?:10|[2-9TJQKA])[♠♥♦♣]")


def _options(tmp_path: Path) -> SandboxOptions:
    return SandboxOptions(db=tmp_path / "s.sqlite3", bots=0, bot_delay=0.0, next_hand_delay=0.2)


def _printed(out: io.StringIO, start: int) -> str:
    return out.getvalue()[start:]


async def _chinese_tournament(box: Sandbox) -> None:
    """Open a Chinese Poker tournament of you and Bob (10 chips each) and start it: both are
    dealt 13 cards at once."""
    for line in (
        "/closetable",
        "/settings tournament_chips 10",
        "/tournament chinese",
        "g register",
        "b g register",
        "g start",
    ):
        assert await box.handle(line)
    t = box.service.table_in(GROUP) if box.service is not None else None
    assert t is not None and t.tournament is not None
    await wait_for(lambda: box._hand_message(BOB_ID) is not None and box.numbered(BOB_ID) != [])


def _bobs_numbers(text: str) -> dict[str, int]:
    """Bob's buttons in the newest print of his hand in ``text``: label → number."""
    last_print = text.rsplit("── private · Bob", 1)[-1]
    rows = [line for line in last_print.splitlines() if line.startswith("  [b")]
    return {
        label.strip(): int(n) for n, label in re.findall(r"\[b(\d+)\] ([^\[]+)", "\n".join(rows))
    }


async def test_bobs_numbers_stay_with_their_buttons_in_a_chinese_poker_tournament(
    tmp_path: Path,
) -> None:
    """Bob's 13 cards printed, ``b N`` of 🪄 Arrange, then ``b N`` of ✅ Confirm as first
    printed confirms his hand: it was "no such button: b1–b16", his placed cards' other
    buttons gone and the rest numbered anew. A number whose button has gone presses nothing
    and says what it was."""
    out = io.StringIO()
    box = Sandbox(_options(tmp_path), out)
    try:
        await box.start()
        await _chinese_tournament(box)
        start = len(out.getvalue())
        assert await box.handle("b")
        first = _bobs_numbers(_printed(out, start))
        arrange, confirm = first[tr("en", "btn.arrange")], first[tr("en", "btn.confirm")]
        assert (arrange, confirm) == (41, 42)  # (13 cards × 3 boxes, Undo, Arrange, Confirm)
        start = len(out.getvalue())
        assert await box.handle(f"b {arrange}")
        after = _bobs_numbers(_printed(out, start))
        assert after[tr("en", "btn.confirm")] == confirm  # the same number as first printed
        gone = min(n for n in first.values() if n not in after.values())
        start = len(out.getvalue())
        assert await box.handle(f"b {gone}")
        said = _printed(out, start)
        assert said.startswith(f'» Bob: b{gone} was "'), said
        assert "nothing pressed" in said
        t = box.service.table_in(GROUP) if box.service is not None else None
        assert t is not None and t.hand is not None
        bob = t.seat_of(str(BOB_ID))
        assert bob is not None
        board = next(b for b in t.hand.order if t.owner(b) == bob.seat)
        assert board in t.hand.to_act  # (nothing pressed by the gone number)
        assert await box.handle(f"b {confirm}")
        assert board not in t.hand.to_act  # confirmed
    finally:
        await box.stop()


async def test_bobs_move_is_said_once_a_street_without_his_cards(tmp_path: Path) -> None:
    """On manual, the start of Bob's move is said in one line (nothing but the group's
    "▶ Bob" told it), once a street and without a card of his; not under ``b auto``."""
    out = io.StringIO()
    box = Sandbox(_options(tmp_path), out)
    prompt = tr("en", "sandbox.bob_move", bob="Bob")
    try:
        await box.start()
        await _chinese_tournament(box)
        await wait_for(lambda: prompt in out.getvalue(), 10.0)
        assert not CARD.search(prompt)
        await asyncio.sleep(0.3)
        await box.print_changes()
        assert out.getvalue().count(prompt) == 1
        # his lines print his hand under his heading; the line is not said again
        assert await box.handle("b")
        await box.print_changes()
        assert out.getvalue().count(prompt) == 1
    finally:
        await box.stop()
    # b auto: nothing to type for him, nothing said
    out = io.StringIO()
    box = Sandbox(replace(_options(tmp_path), db=tmp_path / "auto.sqlite3"), out)
    try:
        await box.start()
        assert await box.handle("b auto")
        await _chinese_tournament(box)
        await asyncio.sleep(0.5)
        await box.print_changes()
        assert prompt not in out.getvalue()
    finally:
        await box.stop()


async def test_b_name_and_b_auto_are_kept_for_the_next_start(tmp_path: Path) -> None:
    """``b name Alice`` renames Bob's seat at once; ``b auto`` and the name come back at the
    next start on the same file (``b auto`` was forgotten: his hands waited for lines); a
    start on a fresh file (the old one deleted) has neither. A name too long or empty is
    answered with how to write one, nothing changed."""
    opts = _options(tmp_path)
    out = io.StringIO()
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert await box.handle("g join")
        assert await box.handle("b g join")
        assert await box.handle("b name")
        assert out.getvalue().splitlines()[-1] == tr("en", "sandbox.bob_name_usage", most=32)
        assert await box.handle("b name " + "x" * 33)
        assert box.bob.first_name == "Bob"
        assert await box.handle("b name  Alice   Smith ")
        assert box.bob.first_name == "Alice Smith"
        t = box.service.table_in(GROUP) if box.service is not None else None
        assert t is not None
        seat = t.seat_of(str(BOB_ID))
        assert seat is not None and seat.name == "Alice Smith"
        assert await box.handle("b auto")
        assert box.bob_auto
    finally:
        await box.stop()
    saved = json.loads((tmp_path / "s.sqlite3-bob.json").read_text(encoding="utf-8"))
    assert saved == {"auto": True, "name": "Alice Smith"}
    out = io.StringIO()
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert box.bob_auto and box.bob.first_name == "Alice Smith"
        kept = tr("en", "sandbox.bob_auto_kept", bob="Alice Smith")
        assert kept in out.getvalue().splitlines()
        assert await box.handle("b manual")
    finally:
        await box.stop()
    assert json.loads((tmp_path / "s.sqlite3-bob.json").read_text(encoding="utf-8")) == {
        "auto": False,
        "name": "Alice Smith",
    }
    for path in tmp_path.glob("s.sqlite3*"):
        if not path.name.endswith("-bob.json"):
            path.unlink()
    box = Sandbox(opts, io.StringIO())
    try:
        await box.start()
        assert not box.bob_auto and box.bob.first_name == "Bob"
        assert not (tmp_path / "s.sqlite3-bob.json").exists()
    finally:
        await box.stop()


def test_a_name_for_bob_is_printable_and_short() -> None:
    assert _bob_name("  Alice  ") == "Alice"
    assert _bob_name("Анна Мария") == "Анна Мария"
    assert _bob_name("") is None and _bob_name("   ") is None
    assert _bob_name("a" * 33) is None and _bob_name("a" * 32) == "a" * 32
    assert _bob_name("Al\x07ice") is None


def test_the_command_of_a_line_is_read_in_one_place() -> None:
    assert command_of("/Hand@OtherBot x") == "/hand"
    assert command_of("/settings language ru") == "/settings"
    assert command_of("") == ""
    assert addressee_of("/hand@OtherBot x") == "otherbot"
    assert addressee_of("/hand x@y") == ""


async def test_a_command_for_another_bot_is_answered_at_once(tmp_path: Path) -> None:
    """``/hand@otherbot`` (yours or Bob's) went to the bot, which leaves a command addressed
    to another bot alone: the sandbox waited 15 s for a reply and printed nothing. It says
    at once that the command is for another bot and sends nothing; one addressed to the
    sandbox's own bot is sent as ever."""
    out = io.StringIO()
    box = Sandbox(_options(tmp_path), out)
    try:
        await box.start()
        for typed, command in (
            ("/hand@otherbot", "/hand@otherbot"),
            ("b /balance@x", "/balance@x"),
        ):
            start, sent = len(out.getvalue()), len(box.fake.calls)
            assert await asyncio.wait_for(box.handle(typed), 3.0)
            said = _printed(out, start).splitlines()
            assert said == [tr("en", "sandbox.other_bot", command=command, bot="ofc_test_bot")]
            assert not [c for c in box.fake.calls[sent:] if c.method == "sendMessage"]
        assert await asyncio.wait_for(box.handle("/balance@ofc_test_bot"), 10.0)
        assert "kush on balance" in out.getvalue().splitlines()[-1]
    finally:
        await box.stop()


async def test_the_printer_goes_on_after_a_failed_round(tmp_path: Path) -> None:
    """A round of the background printer that raised ended it for good: nothing the bot
    wrote in the background was printed any more. It is logged and the next round runs."""
    out = io.StringIO()
    box = Sandbox(_options(tmp_path), out)
    rounds: list[int] = []
    real = box.print_changes

    async def failing_once() -> None:
        rounds.append(len(rounds))
        if len(rounds) == 1:
            raise RuntimeError("a round failed")
        await real()

    try:
        await box.start()
        box.print_changes = failing_once  # type: ignore[method-assign]
        await wait_for(lambda: len(rounds) >= 3, 10.0)
        assert box._printer is not None and not box._printer.done()
    finally:
        await box.stop()


async def test_sigterm_stops_the_sandbox_as_quit_does(tmp_path: Path) -> None:
    """``kill`` (SIGTERM) ended the sandbox with status −15, multiprocessing reporting its
    decision workers' semaphores leaked, and no "Bye". It stops as ``/quit`` does: status 0,
    the table saved, nothing on stderr."""
    async with sandbox_process(tmp_path) as term:
        await term.read_until(r"^Sandbox: N presses")
        await term.send("g join")
        await term.read_until(r"^» ")
        term.proc.send_signal(signal.SIGTERM)
        rest = await asyncio.wait_for(term.proc.communicate(), 30.0)
        said = rest[0].decode()
        assert term.proc.returncode == 0, said
        assert "leaked" not in said and "Traceback" not in said, said
        assert said.rstrip().splitlines()[-1] == tr("en", "sandbox.bye"), said


async def test_a_piped_number_for_the_one_not_to_act_does_not_wait_for_the_other(
    tmp_path: Path,
) -> None:
    """Piped input at a Pineapple table of you and Bob (typed for): a number of the player
    whose turn has not come (``b 1`` on your street, or ``1`` on Bob's) waited its 60 s for
    a move that only the other's line, not read yet, could bring. It is answered at once,
    nothing pressed."""
    out = io.StringIO()
    box = Sandbox(_options(tmp_path), out, piped=True)
    try:
        await box.start()
        for line in ("g join", "b g join", "g ready", "b g ready"):
            assert await box.handle(line)
        t = box.service.table_in(GROUP) if box.service is not None else None
        assert t is not None
        await wait_for(lambda: t.hand is not None and bool(t.hand.to_act))
        hand = t.hand
        assert hand is not None
        me, bob = t.seat_of(str(box.human.id)), t.seat_of(str(BOB_ID))
        assert me is not None and bob is not None
        acting = {t.owner(b) for b in hand.to_act}
        assert acting in ({me.seat}, {bob.seat})
        typed = "b 1" if acting == {me.seat} else "1"
        before = hand.to_act
        start = len(out.getvalue())
        assert await asyncio.wait_for(box.handle(typed), 10.0)
        assert hand.to_act == before, _printed(out, start)
    finally:
        await box.stop()


async def test_bobs_heading_and_picture_line_carry_the_name_he_was_given(tmp_path: Path) -> None:
    """After ``b name Alice`` his private chat's heading and his board's picture line name
    Alice: the picture line said "Bob's board" whatever his name."""
    out = io.StringIO()
    box = Sandbox(_options(tmp_path), out)
    try:
        await box.start()
        await _chinese_tournament(box)
        assert await box.handle("b name Alice")
        start = len(out.getvalue())
        assert await box.handle("b")
        assert "── private · Alice (for Alice's eyes only) " in _printed(out, start)
        start = len(out.getvalue())
        assert await box.handle("b /hand")
        await wait_for(lambda: "🖼" in _printed(out, start), 10.0)
        await box.print_changes()
        assert "🖼 Alice's board (b /hand): " in _printed(out, start), _printed(out, start)
    finally:
        await box.stop()
