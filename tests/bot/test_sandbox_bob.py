"""The sandbox's second member, Bob (``b …`` lines): a tournament rehearsed in the terminal
(R8.7 needs two members; computer players sit at ordinary tables only). Before him the
sandbox refused ``/tournament``."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from pathlib import Path

from bot.sandbox import BOB_ID, GROUP_ID, Sandbox, SandboxOptions, _is_bob
from bot.sandbox import GROUP as SANDBOX_GROUP
from bot.screens import Payload
from bot.texts import tr

#: how the sandbox heads a chat's messages: "── group · Sandbox ───", "── private · Bob …"
HEADING = re.compile(r"^── (.*?) ─+$")


def sections(text: str) -> list[tuple[str, str]]:
    """The printed output as (heading, body) pairs; lines before any heading under ""."""
    out: list[tuple[str, list[str]]] = [("", [])]
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            out.append((m.group(1), []))
        else:
            out[-1][1].append(line)
    return [(title, "\n".join(lines)) for title, lines in out]


async def balance_of(box: Sandbox, line: str) -> int:
    """The kush a ``/balance`` (``b /balance`` for Bob) prints."""
    out = box.out
    assert isinstance(out, io.StringIO)
    start = len(out.getvalue())
    assert await box.handle(line)
    said = out.getvalue()[start:]
    m = re.search(r"([\d ,]+) kush", said)
    assert m is not None, said
    return int(re.sub(r"\D", "", m.group(1)))


async def wait_for(predicate: Callable[[], bool], seconds: float = 30.0) -> None:
    """Until ``predicate()`` holds, at most ``seconds``."""
    for _ in range(int(seconds / 0.05)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


def test_a_line_is_bobs_only_with_b_and_a_space_or_a_number() -> None:
    assert all(_is_bob(x) for x in ("b", "B", "b g1", "b 3", "b3", "b /join", "b auto"))
    assert not any(_is_bob(x) for x in ("g1", "r1", "3", "/balance", "bob", "ba", "b²"))


async def test_a_tournament_with_bob_is_played_to_its_end_and_paid_out(tmp_path: Path) -> None:
    """The admin opens a tournament, registers with Bob (``b g register``), starts it and
    plays: Bob's first two streets typed (``b N``: 🪄 Arrange, ✅ Confirm, from his private
    view printed under his own heading after his line), then ``b auto``. With 10 chips each and
    10 chips a point the first hand won by a point ends it: the winner's balance gets the
    pool (two buy-ins), the loser's is one buy-in down. Bob's private chat is printed only
    after his lines, and his discards (R3.3) never in a group message."""
    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=0, bot_delay=0.0, next_hand_delay=0.2)
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert box.bob.first_name == "Bob"
        assert await box.handle("/closetable")
        # level 1: 10 chips a point, never the end of 10,000 chips in one hand; level 2,
        # a minute on: 100,000 a point, the first hand won by a point ends it
        assert await box.handle("/settings tournament_chips 10000")
        assert await box.handle("/settings chips_schedule 10,100000")
        assert await box.handle("/settings level_minutes 1")
        mine, bobs = await balance_of(box, "/balance"), await balance_of(box, "b /balance")
        assert await box.handle("/tournament")
        assert out.getvalue().splitlines()[-1] == tr("en", "sandbox.tournament_bob", bob="Bob")
        t = box.service.table_in(SANDBOX_GROUP)
        assert t is not None and t.tournament is not None
        buy_in = t.tournament.config.buy_in
        assert await box.handle("g register")
        assert await box.handle("b g register")
        assert [s.name for s in t.seats.values()] == [box.human.first_name, "Bob"]
        assert await box.handle("g start")
        # the level's minute gone by at once (the service's clock): level 2 from hand 2
        clock = box.service.rt.clock
        box.service.rt.clock = lambda: clock() + 61
        bob_seat = t.seat_of(str(BOB_ID))
        assert bob_seat is not None

        def bobs_buttons() -> list[tuple[str, str]]:
            m = box._hand_message(BOB_ID)
            rows = (m or {}).get("reply_markup", {}).get("inline_keyboard", [])
            return [(b["text"], b["callback_data"]) for row in rows for b in row]

        def number_of(action: str) -> int:
            """Bob's button number for ``action`` as the sandbox prints and takes it (kept
            for the street: fix39d)."""
            data = next(
                d
                for _, d in bobs_buttons()
                if (p := Payload.decode(d)) is not None and p.action == action
            )
            label = next(label for label, d in bobs_buttons() if d == data)
            return next(n for n, shown in box.numbered(BOB_ID) if shown == label)

        def bobs_turn() -> bool:
            hand = t.hand
            if hand is None or hand.is_over or not bobs_buttons():
                return False
            boards = [b for b in hand.to_act if t.owner(b) == bob_seat.seat]
            return bool(boards) and bool(hand.to_place(boards[0]))

        # Bob's first two streets by hand (street 2 discards a card): his view printed only
        # after a line of his; then b auto
        await wait_for(lambda: bool(bobs_buttons()) or bool(box.numbered(box.human.id)))
        discards: dict[int, set[str]] = {}  # hand number → Bob's discards' faces
        hand_start: dict[int, int] = {}  # hand number → where its output begins
        typed = 0
        while box.service.table_in(SANDBOX_GROUP) is t:
            hand = t.hand
            if hand is not None:
                hand_start.setdefault(t.hand_no, len(out.getvalue()))
                for board in hand.order:
                    if t.owner(board) == bob_seat.seat:
                        faces = {c.face for c in hand.discards_of(board)}
                        discards.setdefault(t.hand_no, set()).update(faces)
            if typed < 2 and bobs_turn():
                start = len(out.getvalue())
                assert await box.handle("b")
                assert "── private · Bob (for Bob's eyes only) " in out.getvalue()[start:]
                assert await box.handle(f"b {number_of('a')}")
                assert t.hand is not None
                board = next(b for b in t.hand.order if t.owner(b) == bob_seat.seat)
                assert not t.hand.to_place(board)  # placed: Confirm is left
                if typed:  # (the discard marked on his screen: "4♣ • ✖ Discard")
                    assert "• " + tr("en", "btn.discard") in out.getvalue()[start:]
                assert await box.handle(f"b {number_of('c')}")
                typed += 1
                if typed == 2:
                    assert await box.handle("b auto")
                continue
            mine_now = dict((label, n) for n, label in box.numbered(box.human.id))
            arrange = tr("en", "btn.arrange")
            if arrange in mine_now and box._hand_message(box.human.id) is not None:
                before = len(out.getvalue())
                assert await box.handle(str(mine_now[arrange]))
                confirm = dict((lb, n) for n, lb in box.numbered(box.human.id))
                if tr("en", "btn.confirm") in confirm:
                    assert await box.handle(str(confirm[tr("en", "btn.confirm")]))
                # your lines printed the group's messages and yours, never Bob's
                titles = {title for title, _ in sections(out.getvalue()[before:])}
                assert titles <= {"", "group · Sandbox", f"private · {box.human.first_name}"}
            await asyncio.sleep(0.05)
            assert len(hand_start) < 40, "the tournament did not end"
        await asyncio.sleep(0.3)
        await box.print_changes()
        assert typed == 2 and discards[1]  # (his typed street 2 discarded one)
        assert "🏆 Level 1 · 10 chips a point" in out.getvalue()
        assert "🏆 Level 2 · 100,000 chips a point" in out.getvalue()
        assert len(hand_start) >= 2
        # Bob's discards never in the group's messages of their hand (nor after it, up to
        # the next hand: the showdown included)
        text = out.getvalue()
        ends = [*sorted(hand_start.values())[1:], len(text)]
        for (no, start), end in zip(sorted(hand_start.items()), ends, strict=True):
            for title, body in sections(text[start:end]):
                # (the window is where the loop saw the hand begin: the next hand's first
                # message, its street 1 face up, may come in it, a discard of this hand's
                # among its cards dealt anew)
                later = re.search(rf"· hand (?!{no}\b)\d+", body)
                if title.startswith("group") and later is None:
                    leaked = {face for face in discards.get(no, ()) if face in body}
                    assert not leaked, (no, leaked, body)
        # paid out: the winner has the pool (both buy-ins), the loser lost the buy-in
        mine_after = await balance_of(box, "/balance")
        bobs_after = await balance_of(box, "b /balance")
        won = {mine_after - mine, bobs_after - bobs}
        assert won == {buy_in, -buy_in}, (mine, mine_after, bobs, bobs_after)
    finally:
        await box.stop()


async def test_bob_at_an_ordinary_table_and_back_after_a_restart(tmp_path: Path) -> None:
    """Bob joins an ordinary table as you do (``b g join``, ``b g ready``); a table resumed
    with him seated does not call him an old sandbox's computer player ("no longer move"),
    and his hand goes on with ``b auto``. A line of his the sandbox cannot read says what
    his lines are."""
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=0, bot_delay=0.0, next_hand_delay=0.2)
    out = io.StringIO()
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert await box.handle("g join")
        assert await box.handle("b g join")
        assert await box.handle("b hello")
        assert out.getvalue().splitlines()[-1] == tr("en", "sandbox.bob_help", bob="Bob")
        assert await box.handle("g ready")
        assert await box.handle("b g ready")
        t = box.service.table_in(SANDBOX_GROUP)
        assert t is not None
        await wait_for(lambda: t.hand is not None)
        assert sorted(s.name for s in t.seats.values()) == sorted([box.human.first_name, "Bob"])
    finally:
        await box.stop()
    out = io.StringIO()
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert "old sandbox" not in out.getvalue()
        t = box.service.table_in(SANDBOX_GROUP)
        assert t is not None and t.seat_of(str(BOB_ID)) is not None
        assert await box.handle("b auto")
        hand = t.hand
        bob = t.seat_of(str(BOB_ID))
        assert hand is not None and bob is not None
        board = next(b for b in hand.order if t.owner(b) == bob.seat)
        assert not hand.played_a_street(board)
        # your street (if you act first), then Bob's made for him
        for _ in range(200):
            if hand.played_a_street(board):
                break
            mine = {label: n for n, label in box.numbered(box.human.id)}
            if tr("en", "btn.arrange") in mine:
                assert await box.handle(str(mine[tr("en", "btn.arrange")]))
                mine = {label: n for n, label in box.numbered(box.human.id)}
                assert await box.handle(str(mine[tr("en", "btn.confirm")]))
            await asyncio.sleep(0.05)
        assert hand.played_a_street(board)
    finally:
        await box.stop()


async def test_bob_manual_in_russian_is_not_the_word_auto_is_said_with(tmp_path: Path) -> None:
    """rev38: «b сам» («сам»: himself) turned Bob's autoplay off, though the sandbox says his
    autoplay so, «Боб играет сам»; «b вручную» (by hand) turns it off, «b авто» on."""
    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=0, bot_delay=0.0, lang="ru")
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert await box.handle("b авто")
        assert box.bob_auto and "автоматически" in out.getvalue().splitlines()[-1]
        assert await box.handle("b сам")
        assert box.bob_auto  # (told how to write his lines, nothing changed)
        assert await box.handle("b вручную")
        assert not box.bob_auto
    finally:
        await box.stop()


async def test_bobs_g_n_that_is_leave_asks_first_as_yours_does(tmp_path: Path) -> None:
    """brk64: with a computer player, you and Bob the Pineapple table is full and its lobby
    reads ``[g1] Ready [g2] Leave``: ``b g2`` typed as the lobby's Ready with Join (g2) stood
    Bob up at once, where your ``g2`` asks first (docs/sandbox.md). His asks too, naming his
    lines; the same line next leaves, another drops the question; ``b g leave`` never asks."""
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=1, bot_delay=0.0, next_hand_delay=0.2)
    out = io.StringIO()
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert await box.handle("b g join")
        t = box.service.table_in(SANDBOX_GROUP)
        assert t is not None and t.seat_of(str(BOB_ID)) is not None
        assert await box.handle("g join")  # (full: no Join now)
        assert [label for _, label in box.numbered(GROUP_ID)][:2] == ["Ready", "Leave"]
        start = len(out.getvalue())
        assert await box.handle("b g2")
        assert t.seat_of(str(BOB_ID)) is not None, out.getvalue()[start:]
        assert out.getvalue()[start:].splitlines()[0] == (
            "» b g2 is Leave now: type b g2 again to leave the table (or b g leave). Ready is b g1."
        )
        assert await box.handle("b")  # (another line of his: the question lapses)
        assert await box.handle("b g2")
        assert t.seat_of(str(BOB_ID)) is not None
        assert await box.handle("b g2")
        assert t.seat_of(str(BOB_ID)) is None
        assert await box.handle("b g join")
        assert await box.handle("b g leave")
        assert t.seat_of(str(BOB_ID)) is None
    finally:
        await box.stop()


async def test_bobs_autoplay_goes_on_after_a_failed_step(tmp_path: Path) -> None:
    """rev38: a step of Bob's autoplay that raised (anything but a KeyError) ended its loop
    for good, Bob then played by nobody, and the sandbox's stop raised it on /quit."""
    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=0, bot_delay=0.0)
    box = Sandbox(opts, out)
    steps: list[int] = []

    async def failing_once() -> None:
        steps.append(len(steps))
        if len(steps) == 1:
            raise RuntimeError("a step failed")

    box._bob_autoplay = failing_once  # type: ignore[method-assign]
    try:
        await box.start()
        assert await box.handle("b auto")
        await wait_for(lambda: len(steps) >= 3, 10.0)
        assert box._bob_task is not None and not box._bob_task.done()
    finally:
        await box.stop()


async def test_an_unknown_command_of_bobs_is_answered_at_once(tmp_path: Path) -> None:
    """brk64: ``b /foo`` (or ``b /quit``) went to the group as Bob, which the bot leaves
    unanswered: the sandbox waited its 15 s for a reply, printed nothing and took no line
    meanwhile. Yours says "unknown command" at once; his says so too, and changes nothing."""
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=0, bot_delay=0.0, next_hand_delay=0.2)
    out = io.StringIO()
    box = Sandbox(opts, out)
    try:
        await box.start()
        for typed, command in (("b /foo", "/foo"), ("b /Quit@ofc_test_bot now", "/quit")):
            start, sent = len(out.getvalue()), len(box.fake.calls)
            assert await asyncio.wait_for(box.handle(typed), 5.0)
            said = out.getvalue()[start:].splitlines()
            assert said == [tr("en", "sandbox.unknown", command=command)], said
            assert not [c for c in box.fake.calls[sent:] if c.method == "sendMessage"]
        assert await box.handle("b /balance")  # (his known commands as before)
        assert out.getvalue().splitlines()[-1] == "» Bob: 1,000 kush on balance, 0 at the table."
    finally:
        await box.stop()
