"""The terminal sandbox as a newcomer runs it: ``python -m bot --sandbox`` through a pipe plays
one whole Pineapple hand against a computer player to showdown (issue 7); the computer players
are the service's own (issue 13: ``/addbot [level]``, ``/removebot``); ``/hand``, ``/replay N``
and ``/stats`` work as in a real group (issue 12)."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.sandbox import GROUP as SANDBOX_GROUP
from bot.sandbox import GROUP_ID, Sandbox, SandboxOptions
from bot.service.play import FOUL_CONFIRM_MIN_SECONDS
from bot.telegram.fake_api import ApiCall
from bot.texts import tr
from tests.bot.fakes import FOULED_NOTICES
from tests.bot.test_bots import alice_and_a_bot
from tests.bot.test_service import ALICE, GROUP

ROOT = Path(__file__).resolve().parents[2]
BUTTON = re.compile(r"\[([gr]?\d+)\] ([^\[]+)")
CARD_ROW = re.compile(r"\[\d+\] (?:10|[2-9TJQKA])[♠♥♦♣] ")
CARD = re.compile(r"(?:10|[2-9TJQKA])[♠♥♦♣]")


class Terminal:
    """Reads the sandbox's output line by line and keeps the newest screens."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self.section = ""
        self.private: list[str] = []  # lines of the newest private screen
        self.private_buttons: dict[str, str] = {}
        self.group_buttons: dict[str, str] = {}
        self.private_no = 0  # how many private screens were printed
        self.private_complete = False  # the newest one has been printed to its last row

    async def read_until(self, pattern: str, timeout: float = 30.0) -> str:
        assert self.proc.stdout is not None
        rx = re.compile(pattern)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} in output:\n" + "\n".join(self.lines[-40:]))
            try:
                raw = await asyncio.wait_for(self.proc.stdout.readline(), left)
            except TimeoutError:
                raise AssertionError(
                    f"no {pattern!r} in output:\n" + "\n".join(self.lines[-40:])
                ) from None
            if not raw:
                raise AssertionError("sandbox exited:\n" + "\n".join(self.lines[-40:]))
            line = raw.decode().rstrip("\n")
            self.lines.append(line)
            self._track(line)
            if rx.search(line):
                return line

    def _track(self, line: str) -> None:
        if line.startswith("── private"):
            self.section = "private"
            self.private = []
            self.private_buttons = {}
            self.private_no += 1
            self.private_complete = False
        elif line.startswith("── group"):
            self.section = "group"
            self.group_buttons = {}
        elif line.startswith("»"):
            self.section = ""
        elif self.section == "private":
            self.private.append(line)
            for num, label in BUTTON.findall(line):
                self.private_buttons[label.strip()] = num
            if "✅ Confirm" in line:
                self.private_complete = True
        elif self.section == "group":
            for num, label in BUTTON.findall(line):
                self.group_buttons[label.strip()] = num

    async def seen_since(self, start: int, pattern: str) -> int:
        """The index of the first line from ``start`` on matching ``pattern``, reading on
        until one does (the sandbox prints the group's replies and the private chat's writes
        from two tasks: their order varies)."""
        rx = re.compile(pattern)
        while True:
            for i in range(start, len(self.lines)):
                if rx.search(self.lines[i]):
                    return i
            start = len(self.lines)
            await self.read_until(r".")

    def my_move(self) -> bool:
        """The newest private screen is my hand's, printed to its last row, on my move."""
        return self.private_complete and any("Your move" in x for x in self.private)

    async def play_until(self, pattern: str) -> str:
        """Play my hand until a line matches ``pattern`` (returned): when the newest complete
        private screen says it is my move, press Arrange for me until every card row is marked
        (•), then Confirm (again when a fouled board asks first, R2.3: the sandbox is the bot
        as a process, which counts the second press only ``FOUL_CONFIRM_MIN_SECONDS`` after
        the question, the value imported before tests/conftest.py lowers it in this process);
        decided once per screen, whatever order the screens and notices were printed in."""
        acted = 0
        rx = re.compile(pattern)
        while True:
            if self.my_move() and self.private_no != acted:
                acted = self.private_no
                rows = [x for x in self.private if CARD_ROW.search(x)]
                if rows and all("•" in x for x in rows):
                    await self.send(self.private_buttons["✅ Confirm"])
                else:
                    await self.send(self.private_buttons["🪄 Arrange for me"])
            line = await self.read_until(r".", timeout=60)
            if any(n in line for n in FOULED_NOTICES):  # a fouled board asks first (R2.3)
                await asyncio.sleep(FOUL_CONFIRM_MIN_SECONDS)
                await self.send(self.private_buttons["✅ Confirm"])
            if rx.search(line):
                return line

    async def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((text + "\n").encode())
        await self.proc.stdin.drain()

    async def lobby(self) -> None:
        """Wait until the newest group screen printed shows the lobby's Join button (it may
        have been printed already, before the line the test waited for)."""
        while "Join" not in self.group_buttons:
            await self.read_until(r".")

    async def reopen(self, game: str = "") -> str:
        """``/closetable`` and ``/newtable [game]``, each answered; returns the line that says
        who sat down (the sandbox seats its ``--bots`` at every new table)."""
        await self.send("/closetable")
        await self.read_until(r"^» .*closed")
        await self.send(f"/newtable {game}".strip())
        await self.read_until(r"^» .*open")
        return await self.read_until(r"sits down")

    async def quit(self) -> None:
        """``/quit``: the sandbox says bye and exits with 0, printing no error on the way out
        (python-telegram-bot's last getUpdates logged a PoolTimeout traceback at every quit)."""
        start = len(self.lines)
        await self.send("/quit")
        await self.read_until("Bye|Пока")
        assert self.proc.stdout is not None
        rest = (await asyncio.wait_for(self.proc.stdout.read(), 30)).decode()
        out = "\n".join([*self.lines[start:], rest])
        assert "Traceback" not in out and "ERROR" not in out, out
        assert await asyncio.wait_for(self.proc.wait(), 30) == 0


@asynccontextmanager
async def sandbox(
    tmp_path: Path, *flags: str, env: dict[str, str | None] | None = None
) -> AsyncIterator[Terminal]:
    """``python -m bot`` with no token (or ``env``'s; a ``None`` there unsets the variable)
    on its own sandbox file, ``--fast``, as user "tester"; killed at the end if a test left
    it running."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    clean["USER"] = "tester"
    # this checkout's bot, not the one the environment installed (a worktree's tests ran
    # the main checkout's sandbox: ``-m bot`` from ``tmp_path`` found the installed one)
    clean["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), clean.get("PYTHONPATH"))))
    for key, value in (env or {}).items():
        if value is None:
            clean.pop(key, None)
        else:
            clean[key] = value
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot",  # (no .env in tmp_path, the cwd)
        "--sandbox-db", str(tmp_path / "sandbox.sqlite3"), "--fast", *flags,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, cwd=tmp_path, env=clean,
    )  # fmt: skip
    try:
        yield Terminal(proc)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_sandbox_plays_a_whole_hand_through_a_pipe(tmp_path: Path) -> None:
    async with sandbox(tmp_path, "--hand-seconds", "60") as term:
        first = await term.read_until("sandbox|Table #")
        assert "No bot token set" in first  # one line saying why the sandbox starts
        await term.read_until(r"^» 🤖 Anna \(normal\) sits down")
        await _seated_and_ready(term)
        await term.play_until(r"^🏁 Showdown")
        showdown = [await term.read_until(r"^Tester: [+−-]?\d+ pts?")]
        mine = re.search(r"^Tester: ([+−-]?\d+) pts? · ([+−-]?\d+) kush → (\d+)", showdown[0])
        assert mine is not None, showdown
        points, kush, stack = (int(x.replace("−", "-")) for x in mine.groups())  # (U+2212)
        boxes = [await term.read_until(r" — ") for _ in range(3)]
        for box in boxes:
            cards = re.findall(r"(?:10|[2-9TJQKA])[♠♥♦♣]", box)
            assert len(cards) in (3, 5)
        # --fast deals the next hand half a second after the showdown ("hands follow each
        # other at once", --help): the lobby said "Next hand in 1 second…"
        assert await term.read_until(r"^Next hand") == "Next hand now…"
        assert stack == 200 + kush
        if abs(points) < 200:
            assert kush == points
        # issue 12: the group's showdown picture, written next to the database
        # (the showdown's edit and the photo are sent independently: either may print first)
        line = next((x for x in term.lines if x.startswith("🖼 showdown picture: ")), None)
        line = line or await term.read_until(r"^🖼 showdown picture: ")
        picture = Path(line.split(": ", 1)[1])
        assert picture.parent == tmp_path.resolve() and picture.name == "sandbox-picture-1.png"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        await term.send("/balance")
        balance = await term.read_until(r"on balance")
        assert f"800 kush on balance, {stack} at the table" in balance
        await term.quit()


async def test_the_no_token_line_names_the_settings_file_read(tmp_path: Path) -> None:
    """The line saying why the sandbox starts names the settings file ``--env-file`` gave (it
    said ".env" whatever the flag said), and that it does not exist when it does not: the
    default ``.env`` is optional (a mistyped ``--env-file`` is refused:
    tests/bot/test_fixsmall37b_env_file.py)."""
    async with sandbox(tmp_path) as term:
        first = await term.read_until("sandbox")
        assert first == (
            "No bot token set (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN; there is no .env): "
            "starting the local sandbox."
        )
        await term.read_until(r"^Sandbox: ")
        await term.quit()
    given = tmp_path / "my.env"
    given.write_text("TELEGRAM_BOT_TOKEN=\nLOG_LEVEL=INFO\n")
    async with sandbox(tmp_path, "--env-file", str(given), "--lang", "ru") as term:
        first = await term.read_until("песочниц")
        assert first == (
            f"Токен бота не задан (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN в {given}): "
            "запускаю локальную песочницу."
        )
        await term.read_until(r"^Песочница: ")
        await term.quit()


async def test_the_sandbox_says_which_database_it_plays_on(tmp_path: Path) -> None:
    """The sandbox plays on its own file (``--sandbox-db``) whatever the settings say: its
    start line names that file, and when ``DATABASE_URL`` (or a ``DATABASE_PATH`` of its own)
    names the bot's database, that this one is not used and why (it was ignored silently,
    and an operator took the sandbox to play on the bot's PostgreSQL database)."""
    db = tmp_path / "sandbox.sqlite3"
    async with sandbox(tmp_path, env={"DATABASE_URL": None, "DATABASE_PATH": None}) as term:
        await term.read_until("sandbox")
        line = await term.read_until(r"^Database: ")
        assert line == f"Database: {db} (the sandbox's own file, --sandbox-db).", line
        await term.read_until(r"^Sandbox: ")
        await term.quit()
    url = "postgresql://ofc:secret@127.0.0.1:1/ofc"
    async with sandbox(tmp_path, "--lang", "ru", env={"DATABASE_URL": url}) as term:
        line = await term.read_until(r"^База данных: ")
        assert line == (
            f"База данных: {db} (свой файл песочницы, --sandbox-db); DATABASE_URL — база "
            "бота, она не используется: песочница никогда не пишет в балансы настоящих групп."
        ), line
        assert "secret" not in line
        await term.read_until(r"^Песочница: ")
        await term.quit()
    only_path = {"DATABASE_URL": None, "DATABASE_PATH": "ofc2.db"}
    async with sandbox(tmp_path, "--lang", "en", env=only_path) as term:
        line = await term.read_until(r"^Database: ")
        assert line == (
            f"Database: {db} (the sandbox's own file, --sandbox-db); DATABASE_PATH is the "
            "bot's and is not used: the sandbox never writes to real groups' balances."
        ), line
        await term.read_until(r"^Sandbox: ")
        await term.quit()
    assert not (tmp_path / "ofc2.db").exists()


async def test_sandbox_prints_a_chinese_poker_reveal(tmp_path: Path) -> None:
    """Issue 12: every write to the group is printed, edits of earlier messages included: the
    Chinese Poker reveal (R7) box by box and its points, which the next lobby used to overwrite
    before the sandbox printed them."""
    async with sandbox(tmp_path) as term:
        await term.read_until(r"^» 🤖 Anna \(normal\) sits down")
        await term.read_until(r"^Sandbox: ")
        await term.reopen("chinese")
        await term.lobby()
        await term.send(term.group_buttons["Join"])
        await term.read_until("You sit at seat|Вы сели на место")
        await term.send(term.group_buttons["Ready"])
        await term.play_until(r"^🀄 Reveal")
        # the reveal names both players with their points, then every box with its points
        seen = [
            await term.read_until(r"^(Tester|🤖 Anna) · \d+ pts? \(target \d+\)") for _ in range(2)
        ]
        assert {s.split(" · ")[0] for s in seen} == {"Tester", "🤖 Anna"}
        box = await term.read_until(r" — .* · [+−-]?\d+$")
        assert len(re.findall(r"(?:10|[2-9TJQKA])[♠♥♦♣]", box)) in (3, 5)
        await term.quit()


async def test_every_group_write_is_printed_in_order_edits_included() -> None:
    """Issue 12: the sandbox prints each write to the group as it was made, not just the newest
    state of each message: two quick edits of an earlier message (a reveal, then its result)
    and a new lobby message all appear, in order, and only the table message's newest text
    carries numbered buttons."""
    import io

    from bot.sandbox import GROUP_ID, Sandbox, SandboxOptions
    from bot.telegram.fake_api import BOT_ID, ApiCall

    out = io.StringIO()
    box = Sandbox(SandboxOptions(), out)
    bot = {"id": BOT_ID, "is_bot": True, "first_name": "OFC"}
    lobby_markup = {"inline_keyboard": [[{"text": "Join", "callback_data": "x"}]]}
    box.fake.messages[(GROUP_ID, 7)] = {"message_id": 7, "text": "result: +4", "from": bot}
    box.fake.messages[(GROUP_ID, 8)] = {
        "message_id": 8, "text": "lobby", "from": bot, "reply_markup": lobby_markup,
    }  # fmt: skip
    calls = [
        ApiCall("sendMessage", {"chat_id": GROUP_ID, "text": "reveal 1"}, result={"message_id": 7}),
        ApiCall("editMessageText", {"chat_id": GROUP_ID, "message_id": 7, "text": "reveal 2"}),
        ApiCall("editMessageText", {"chat_id": GROUP_ID, "message_id": 7, "text": "result: +4"}),
        ApiCall(
            "sendMessage",
            {"chat_id": GROUP_ID, "text": "lobby", "reply_markup": lobby_markup},
            result={"message_id": 8},
        ),
    ]
    for call in calls:
        box._on_call(call)
    await box.print_changes()
    printed = [x for x in out.getvalue().splitlines() if not x.startswith("──")]
    assert printed == ["reveal 1", "reveal 2", "result: +4", "lobby", "  [g1] Join"]


async def test_a_showdown_edited_after_the_next_lobby_was_sent_is_printed_above_it() -> None:
    """The showdown is written over the table message by an edit queued in the background, the
    next lobby is a new message sent at once: with pictures off the lobby's sendMessage
    usually reached the API first and the sandbox printed "Next hand in 4 seconds…" above the
    showdown of the hand it follows. Writes printed together come in the chat's order: the
    older message's first."""
    import io

    from bot.sandbox import GROUP_ID, Sandbox, SandboxOptions
    from bot.telegram.fake_api import BOT_ID, ApiCall

    out = io.StringIO()
    box = Sandbox(SandboxOptions(), out)
    bot = {"id": BOT_ID, "is_bot": True, "first_name": "OFC"}
    lobby_markup = {"inline_keyboard": [[{"text": "Join", "callback_data": "x"}]]}
    box.fake.messages[(GROUP_ID, 7)] = {"message_id": 7, "text": "🏁 Showdown", "from": bot}
    box.fake.messages[(GROUP_ID, 8)] = {
        "message_id": 8, "text": "Next hand in 4 seconds…", "from": bot,
        "reply_markup": lobby_markup,
    }  # fmt: skip
    calls = [
        ApiCall(
            "sendMessage",
            {"chat_id": GROUP_ID, "text": "Next hand in 4 seconds…", "reply_markup": lobby_markup},
            result={"message_id": 8},
        ),
        ApiCall("editMessageText", {"chat_id": GROUP_ID, "message_id": 7, "text": "🏁 Showdown"}),
    ]
    for call in calls:
        box._on_call(call)
    await box.print_changes()
    printed = [x for x in out.getvalue().splitlines() if not x.startswith("──")]
    assert printed == ["🏁 Showdown", "Next hand in 4 seconds…", "  [g1] Join"]


async def test_a_number_int_cannot_read_is_answered_with_the_hint_not_a_crash() -> None:
    """A button number typed with a character that is a digit to ``str.isdigit`` but not to
    ``int`` (a superscript ``²``, with or without ``g``/``r``) gets the usage hint and the
    sandbox reads on: it raised ValueError out of the input loop and the sandbox exited."""
    import io

    from bot.sandbox import Sandbox, SandboxOptions

    out = io.StringIO()
    box = Sandbox(SandboxOptions(), out)
    for typed in ("²", "g²", "r³", "1²"):
        assert await box.handle(typed), typed
        assert out.getvalue().splitlines()[-1].startswith("» type a button number"), typed
    assert await box.handle("7")  # an ASCII number still presses (no such button here)
    assert out.getvalue().splitlines()[-1] == (
        "» no such button: you have no hand on screen; N presses your hand's buttons, rN a "
        "replay's, gN the group's"
    )


async def _sandbox_session(tmp_path: Path, inputs: list[str], *flags: str) -> list[str]:
    """Run the sandbox once over ``inputs`` (then /quit) and return what it printed."""
    malformed = {"TELEGRAM_BOT_TOKEN": "malformed"}  # ignored by --sandbox (issue 12)
    async with sandbox(tmp_path, "--sandbox", *flags, env=malformed) as term:
        await term.read_until(r"^(Sandbox|Песочница): ")
        for text in inputs:
            await term.send(text)
            await term.read_until(r"^» ")
        await term.quit()
    return term.lines


async def test_a_resumed_sandbox_says_what_to_press_and_which_flags_wait(tmp_path: Path) -> None:
    """Issue 12: ``--sandbox`` ignores a malformed token; on a resumed table the first hint
    fits the state (seated, not ready: the Ready button's number, not "your hand's buttons"),
    and flags the resumed table cannot take are said to wait for the next table.
    ``--hand-seconds`` is a group setting: the resumed table, in its lobby, takes it at once
    (it kept 120 s while /settings showed 30), which the sandbox says (README) in the
    player's language; it said nothing. The same value again is no news: nothing is said."""
    first = await _sandbox_session(tmp_path, ["g1"])
    assert any("You sit at seat" in x or "Вы сели на место" in x for x in first)
    again = await _sandbox_session(tmp_path, [], "--hand-seconds", "30", "--bots", "2")
    assert (
        "» --bots applies to a new table only; /addbot [easy|normal|strong] seats one more "
        "computer player" in again
    )
    assert "» --hand-seconds 30 applies at once: the table is between matches" in again
    assert "Your table is back: type g2 for Ready to play the next hand." in again
    assert not any("hand's buttons" in x for x in again)
    same = await _sandbox_session(tmp_path, [], "--hand-seconds", "30")
    assert not any("--hand-seconds" in x for x in same)
    ru = await _sandbox_session(tmp_path, [], "--hand-seconds", "45", "--lang", "ru")
    assert "» --hand-seconds 45 действует сразу: стол между матчами" in ru


async def test_a_sandbox_resumed_mid_hand_says_the_new_hand_seconds_wait_for_the_next_match(
    tmp_path: Path,
) -> None:
    """A table resumed in the middle of a hand keeps its options until the match is over
    (R6.6, as any settings change): ``--hand-seconds`` is said to apply from the next match."""
    first = await _sandbox_session(tmp_path, ["g1", "g2"])
    assert any("moved to the table" in x for x in first)
    again = await _sandbox_session(tmp_path, [], "--hand-seconds", "30")
    assert "» --hand-seconds 30 applies from the next match: the hand under way keeps 120 s" in (
        again
    )


async def test_a_table_resumed_with_another_lang_is_switched_to_it(
    tmp_path: Path,
) -> None:
    """A newcomer plays in English, quits and starts again with ``--lang ru``: the sandbox's
    notes and the replies came in Russian, but the table, opened in English while the group's
    language is auto, stayed English (the group's message and the hand's screens), which
    nothing said; later a line said so and how to switch. Now the flag switches the group as
    ``/settings language ru`` would, said in the first line; the same ``--lang`` again, or a
    start in a group already set so, says nothing of ``--lang``."""
    first = await _sandbox_session(tmp_path, ["g1"])
    assert any("You sit at seat" in x for x in first)
    ru = await _sandbox_session(tmp_path, [], "--lang", "ru")
    note = (
        "» --lang ru: группа переключена на русский (стол и экраны вашей руки тоже), "
        "как это делает /settings язык ru"
    )
    assert note in ru
    assert "» Сохранено: язык = ru (было авто)." in ru
    en = await _sandbox_session(tmp_path, [])
    assert not any(x.startswith("» --lang") for x in en)
    assert any(x.startswith("» Язык этой группы — русский") for x in en), en
    ru = await _sandbox_session(tmp_path, [], "--lang", "ru")
    assert not any(x.startswith("» --lang") for x in ru)


async def test_quit_after_closetable_does_not_say_the_table_is_saved(tmp_path: Path) -> None:
    """/closetable then /quit: the sandbox said "bye (the table is saved; the next start
    resumes it)" with no table open; it says none is, and the next start opens a new one."""
    lines = await _sandbox_session(tmp_path, ["/closetable"])
    assert "» Bye (no table is open; the next start opens a new one)" in lines, lines[-5:]
    assert not any("the table is saved" in x for x in lines)
    again = await _sandbox_session(tmp_path, [])
    assert "» Table #2 is open." in again
    assert "» Bye (the table is saved; the next start resumes it)" in again


async def _seated_and_ready(term: Terminal) -> None:
    """Join and press Ready from the lobby (the start's computer player is seated already)."""
    await term.read_until(r"^Sandbox: ")
    await term.lobby()
    await term.send(term.group_buttons["Join"])
    await term.read_until("You sit at seat")
    await term.send(term.group_buttons["Ready"])
    await term.read_until("moved to the table")


def anna_alone(lines: list[str]) -> bool:
    """Whether ``lines`` hold a group screen listing 🤖 Anna and no other player."""
    screens = "\n".join(lines).split("── group")
    return any("1. 🤖 Anna" in x and "2. " not in x and "Boris —" not in x for x in screens)


async def test_addbot_strong_seats_the_services_strong_player_and_removebot_stands_it_up(
    tmp_path: Path,
) -> None:
    """Issue 13 in the sandbox: ``/addbot strong`` goes to the service, which seats a strong
    🤖 player staked by the house (the sandbox used to seat a fake user of its own whatever the
    level), and ``/removebot`` between hands stands the last one up (it used to answer "No
    computer player is seated")."""
    async with sandbox(tmp_path) as term:
        await term.read_until(r"^» 🤖 Anna \(normal\) sits down")
        await term.read_until(r"^Sandbox: ")
        start = len(term.lines)
        await term.send("/addbot strong")
        await term.read_until(
            r"^» 🤖 Boris \(strong\) sits down: a computer player staked by the house\.$"
        )
        # the lobby with Boris seated is printed before or after the notice (a busy machine)
        if not any(re.match(r"^2\. 🤖 Boris — ready ✅ 200$", x) for x in term.lines[start:]):
            await term.read_until(r"^2\. 🤖 Boris — ready ✅ 200$")
        start = len(term.lines)
        await term.send("/removebot")
        await term.read_until(r"^» 🤖 Boris stands up\.$")
        # the lobby is printed again with Anna alone (no hand starts: no person is seated),
        # before or after the notice
        while not anna_alone(term.lines[start:]):
            await term.read_until(r"^🤖 Computer players do not play each other")
        await term.send("/removebot")
        await term.read_until(r"^» 🤖 Anna stands up\.$")
        await term.send("/removebot")
        await term.read_until(r"^» No computer player is seated\.$")
        await term.quit()


async def test_every_new_table_of_the_sandbox_gets_its_computer_players(tmp_path: Path) -> None:
    """README: ``--bots`` computer players are "seated at a new table". A new user's
    ``/closetable`` then ``/newtable chinese`` sat them alone at the new table (only the first
    table of a sandbox got them), with nothing saying to ``/addbot``."""
    async with sandbox(tmp_path) as term:
        await term.read_until(r"^» 🤖 Anna \(normal\) sits down")
        await term.read_until(r"^Sandbox: ")
        start = len(term.lines)
        seated = await term.reopen("chinese")
        assert seated.startswith("» 🤖 Anna (normal) sits down"), seated
        # the new table's lobby lists her, printed before or after the notice
        while not any(
            "Chinese Poker · table #2" in x and "1. 🤖 Anna — ready" in x
            for x in "\n".join(term.lines[start:]).split("── group")
        ):
            await term.read_until(r"^🤖 Computer players do not play each other")
        await term.quit()


async def test_hand_goes_to_the_private_chat_and_saves_the_board_picture(tmp_path: Path) -> None:
    """Issue 12 in the sandbox: ``/hand`` is a private-chat command; the sandbox sends it there
    (in the group it would be refused), prints the photo's caption (the street and the cards I
    still have to place, those of my hand's screen) and saves the photo next to the database."""
    async with sandbox(tmp_path, "--hand-seconds", "60") as term:
        await _seated_and_ready(term)
        while not term.my_move():
            await term.read_until(r".")
        dealt = {c for x in term.private if CARD_ROW.search(x) for c in CARD.findall(x)[:1]}
        assert len(dealt) == 5  # street 1 (R3.2)
        await term.send("/hand")
        await term.read_until(r"^» Table #1 · hand 1 · street 1$")
        to_place = await term.read_until(r"^  To place: ")
        assert set(CARD.findall(to_place)) == dealt
        line = await term.read_until(r"^🖼 your board \(/hand\): ")
        picture = Path(line.split(": ", 1)[1])
        assert picture.parent == tmp_path.resolve() and picture.name == "sandbox-picture-1.png"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        # the hand's buttons still answer to their numbers
        await term.send(term.private_buttons["🪄 Arrange for me"])
        await term.read_until(r"•")
        await term.quit()


async def test_replay_screen_and_stats_after_two_hands(tmp_path: Path) -> None:
    """Issue 12 in the sandbox: after two hands ``/stats`` answers in the group with my
    statistics and the kush chart (saved, its path printed); ``/replay N`` of a hand from
    ``/history`` says it went to the private chat, where its first street is printed with ▶
    numbered ``r1`` (the next hand runs meanwhile and owns the bare numbers) that moves it to
    street 2, then ◀ back."""
    async with sandbox(tmp_path, "--hand-seconds", "60") as term:
        await _seated_and_ready(term)
        await term.play_until(r"^🏁 Showdown")
        await term.play_until(r"^🏁 Showdown")
        await term.read_until(r"^Tester: [+−-]?\d+ pts?")
        start = len(term.lines)
        await term.send("/stats")
        group = await term.seen_since(start, r"^» 📊 ")
        mine = await term.seen_since(group, r"^  📊 Tester · ")
        assert "all time" in term.lines[mine]
        hands = await term.seen_since(mine, r"^  Hands: \d+ · points/hand")
        assert term.lines[hands].startswith("  Hands: 2 ·")
        line = term.lines[await term.seen_since(hands, r"^🖼 chart: ")]
        chart = Path(line.split(": ", 1)[1])
        assert chart.parent == tmp_path.resolve() and chart.read_bytes()[:4] == b"\x89PNG"
        await term.send("/history")
        first = await term.read_until(r"^  #\d+ · Table #1, hand 1: ")
        n = re.search(r"#(\d+)", first)
        assert n is not None
        start = len(term.lines)
        await term.send(f"/replay {n[1]}")
        await term.seen_since(start, rf"^» 🎬 Replay of #{n[1]} sent to your private chat\.$")
        title = await term.seen_since(start, rf"^🎬 #{n[1]} · table #1 · hand 1$")
        assert await term.seen_since(title, r"^Street \d+ of 5$") == title + 1
        assert term.lines[title + 1] == "Street 1 of 5"
        # ▶ is numbered r1: the next hand runs meanwhile and owns the bare numbers
        await term.seen_since(title, r"^  \[r1\] ▶$")
        start = len(term.lines)
        await term.send("r1")
        street2 = await term.seen_since(start, r"^Street 2 of 5$")
        buttons = await term.seen_since(street2, r"^  \[r1\] ◀  \[r2\] ▶$")
        screen = term.lines[street2:buttons]
        you = next(i for i, x in enumerate(screen) if x.strip() == "You:")
        placed = sum(len(CARD.findall(x)) for x in screen[you + 1 : you + 4])
        assert placed == 7  # 5 cards on street 1, 2 on street 2 (R3.2)
        start = len(term.lines)
        await term.send("r1")
        await term.seen_since(start, r"^Street 1 of 5$")
        await term.quit()


async def test_a_table_of_the_old_sandbox_bots_is_told_to_be_reopened(tmp_path: Path) -> None:
    """A sandbox file from before issue 13's players seats the old sandbox's fake users (ids
    2 and 3, not ``bot:…``) that nothing moves any more: the resumed sandbox says in one line
    to close the table and open a new one."""
    from bot.model import Actor, ChatRef
    from bot.sandbox import GROUP_ID
    from bot.service import TableService
    from storage.sqlite import SqliteStore

    store = await SqliteStore.open(tmp_path / "sandbox.sqlite3")
    service = TableService(store, timers=False)
    await service.start()
    chat = ChatRef("telegram", str(GROUP_ID), str(GROUP_ID), "Sandbox")
    await service.new_table(chat, Actor("telegram", "1", "Tester", "en"))
    for uid, name in (("2", "Anna (bot)"), ("3", "Boris (bot)")):
        reply = await service.join(chat, Actor("telegram", uid, name, "en"))
        assert "seat" in reply.text, reply
    await service.stop()
    await store.close()
    async with sandbox(tmp_path) as term:
        await term.read_until(
            r"^» this table still seats the old sandbox's computer players \(Anna \(bot\), "
            r"Boris \(bot\)\), which no longer move: /closetable, then /newtable"
        )
        await term.read_until(r"^Sandbox: ")
        seated = await term.reopen()
        assert seated.startswith("» 🤖 Anna (normal) sits down"), seated
        await term.quit()


def test_a_refused_group_message_does_not_hold_back_the_ones_after_it() -> None:
    """A group sendMessage the platform refused never gets a message id: after 5 s it is
    dropped (it wrote nothing), and the group writes made after it are printed."""
    out = io.StringIO()
    sandbox = Sandbox(SandboxOptions(), out)
    refused = ApiCall("sendMessage", {"chat_id": GROUP_ID, "text": "lost"})
    edit = ApiCall("editMessageText", {"chat_id": GROUP_ID, "message_id": 7, "text": "Hand 2"})
    sandbox._group_calls.extend([refused, edit])
    sandbox._print_group_writes(None)
    assert "Hand 2" not in out.getvalue()  # the refused one might still be answered
    refused.at = time.monotonic() - 6.0
    sandbox._print_group_writes(None)
    assert "Hand 2" in out.getvalue() and "lost" not in out.getvalue()
    assert sandbox._group_calls == []


async def test_quitting_while_the_bot_waits_for_updates_prints_no_error(tmp_path: Path) -> None:
    """A new user's /quit a moment after the hand starts, when the bot's long poll is waiting
    at the fake Bot API: python-telegram-bot's last getUpdates (marking the updates fetched)
    found the poll's one connection still taken and printed a PoolTimeout traceback."""
    async with sandbox(tmp_path) as term:
        await term.read_until(r"^» 🤖 Anna \(normal\) sits down")
        await _seated_and_ready(term)
        await asyncio.sleep(1.5)  # nothing happens: the bot's next getUpdates waits
        await term.quit()


async def test_lang_ru_plays_the_sandbox_in_russian(tmp_path: Path) -> None:
    """``--lang ru``: the sandbox's player writes Russian, so the bot answers in Russian (most
    of our players do), and the sandbox's own hints and help come in Russian too; the
    sandbox's player was always English."""
    async with sandbox(tmp_path, "--lang", "ru") as term:
        await term.read_until(r"^Токен бота не задан \(TELEGRAM_BOT_TOKEN")
        await term.read_until(r"^» Стол #1 открыт\.$")
        await term.read_until(r"^» 🤖 Анна садится за стол \(уровень: средний\)")
        await term.read_until(r"^Наберите g сесть, затем g готов")
        await term.read_until(r"^Песочница: N нажимает кнопку N")
        start = len(term.lines)
        await term.send("g1")
        await term.read_until(r"^» Вы сели на место 2\.")
        # the group's edit and the reply to the press print in either order (a busy machine)
        buttons = r"^  \[g1\] Сесть  \[g2\] Готов"
        if not any(re.search(buttons, x) for x in term.lines[start:]):
            await term.read_until(buttons)
        await term.send("/nonsense")
        await term.read_until(r"^» неизвестная команда /nonsense; список — /help$")
        await term.send("x")
        await term.read_until(r"^» наберите номер кнопки")
        await term.send("/quit")
        await term.read_until(r"^» Пока \(стол сохранён")
        assert await asyncio.wait_for(term.proc.wait(), 30) == 0


async def _refused_start(tmp_path: Path, value: str) -> tuple[int, list[str]]:
    """``python -m bot --sandbox --hand-seconds VALUE`` with no input: its exit status and
    what it printed."""
    async with sandbox(tmp_path, "--sandbox", "--hand-seconds", value) as term:
        assert term.proc.stdin is not None
        term.proc.stdin.close()
        assert term.proc.stdout is not None
        out = (await asyncio.wait_for(term.proc.stdout.read(), 60)).decode()
        return await asyncio.wait_for(term.proc.wait(), 30), out.splitlines()


async def test_a_sandbox_db_that_cannot_be_opened_is_refused_in_one_line(tmp_path: Path) -> None:
    """``--sandbox-db`` in a folder that does not exist, a folder, or a file that is not a
    database: a newcomer got aiosqlite's traceback (for a folder a second one, "Event loop is
    closed") and "bye (no table is open…)". Now one line in ``--lang`` naming the file, exit
    status 2, no bye, no traceback and no folder made."""
    (tmp_path / "notes.txt").write_text("not a database\n" * 10)
    cases = [
        (tmp_path / "missing" / "sb.sqlite3", "en", "unable to open database file"),
        (tmp_path, "en", "unable to open database file"),
        (tmp_path / "notes.txt", "ru", "file is not a database"),
    ]
    for path, lang, reason in cases:
        async with sandbox(tmp_path, "--sandbox-db", str(path), "--lang", lang) as term:
            assert term.proc.stdin is not None and term.proc.stdout is not None
            term.proc.stdin.close()
            out = (await asyncio.wait_for(term.proc.stdout.read(), 60)).decode().splitlines()
            status = await asyncio.wait_for(term.proc.wait(), 30)
        line = tr(lang, "sandbox.db_error", path=path, reason=reason)
        # (after the line naming the file it was to play on)
        assert out[1].startswith(tr(lang, "sandbox.db", path=path).rstrip(".")), out
        assert (status, out[2:]) == (2, [line]), out
    assert line.startswith("ошибка: не удалось открыть базу песочницы ")
    assert not (tmp_path / "missing").exists()


async def test_a_second_sandbox_on_the_same_file_is_refused_while_the_first_runs(
    tmp_path: Path,
) -> None:
    """Two sandboxes on one file both resumed the same table and ran its timers (the one
    behind logged "transition not saved" every 5 s). The second start is now refused in one
    line in its ``--lang`` (exit 2, no bye), the first plays on, and once it quits the file
    is free again."""
    async with sandbox(tmp_path) as first:
        await first.read_until(r"^Sandbox: ")
        async with sandbox(tmp_path, "--lang", "ru") as second:
            assert second.proc.stdin is not None and second.proc.stdout is not None
            second.proc.stdin.close()
            out = (await asyncio.wait_for(second.proc.stdout.read(), 60)).decode().splitlines()
            status = await asyncio.wait_for(second.proc.wait(), 30)
        busy = tr("ru", "sandbox.db_busy", path=tmp_path / "sandbox.sqlite3")
        assert out[1].startswith("База данных: "), out  # (the file it was to play on)
        assert (status, out[2:]) == (2, [busy]), out
        assert busy.startswith("ошибка: на ") and "--sandbox-db" in busy
        await first.send("g1")
        assert "You sit at seat 2" in await first.read_until(r"^» ")
        await first.quit()
    again = await _sandbox_session(tmp_path, [])
    assert any(x.startswith("Your table is back") for x in again), again


async def test_a_hand_seconds_the_setting_refuses_is_refused_at_start_and_nothing_applied(
    tmp_path: Path,
) -> None:
    """``--hand-seconds`` takes what the ``hand_seconds`` setting takes (30 to 3600 s): a new
    user's 4000 on a fresh file started a table with hand_seconds 120 (refused when read) but a
    time bank of 1000 s, 0 one with a 5 s bank, and -5 or 99999 on a resumed table said
    "applies from the next table". Now the start is refused with argparse's one line, no
    sandbox file is made and a resumed group's settings stay as they were."""
    from storage.sqlite import SqliteStore

    error = (
        "python -m bot: error: argument --hand-seconds: hand_seconds takes a whole number of "
        "seconds from 30 to 3,600"
    )
    for value in ("4000", "0", "7.5"):  # (no hand can be played in 7.5 s, R8.5)
        status, out = await _refused_start(tmp_path, value)
        assert (status, out[-1]) == (2, error), out
        assert not (tmp_path / "sandbox.sqlite3").exists()
    await _sandbox_session(tmp_path, [], "--hand-seconds", "30")
    for value in ("-5", "99999"):
        status, out = await _refused_start(tmp_path, value)
        assert (status, out[-1]) == (2, error), out
        assert not any("--hand-seconds " in x and "applies" in x for x in out), out
    store = await SqliteStore.open(tmp_path / "sandbox.sqlite3")
    try:
        community = await store.community("telegram", str(GROUP_ID), "Sandbox")
    finally:
        await store.close()
    options = community.settings.options
    assert (
        options["hand_seconds"],
        options["time_bank_seconds"],
        options["fantasyland_seconds"],
    ) == (30, 8, 45)


async def test_the_longest_hand_seconds_keeps_every_timer_within_its_setting(
    tmp_path: Path,
) -> None:
    """``--hand-seconds 3600`` (the setting's greatest) gives a time bank of 900 s and a
    Fantasyland hand the setting's greatest, 3600 s: 1.5 times it (5400) is more than
    ``fantasyland_seconds`` takes, which left the table at that setting's default while the
    others applied. A value the setting refuses is refused by the options themselves."""
    from bot.sandbox import GROUP, sandbox_timers
    from bot.service.settings import SettingRefused

    assert sandbox_timers(3600) == {
        "hand_seconds": 3600.0,
        "time_bank_seconds": 900.0,
        "fantasyland_seconds": 3600.0,
    }
    for bad in (0.0, 4000.0, -5.0, float("nan")):
        try:
            SandboxOptions(hand_seconds=bad)
        except SettingRefused:
            continue
        raise AssertionError(f"--hand-seconds {bad} was taken")
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", hand_seconds=3600), io.StringIO())
    try:
        await box.start()
        assert box.service is not None
        table = box.service.table_in(GROUP)
        assert table is not None
        opts = table.options
        assert (opts.hand_seconds, opts.time_bank_seconds, opts.fantasyland_seconds) == (
            3600,
            900,
            3600,
        )
    finally:
        await box.stop()


async def test_a_restart_without_hand_seconds_keeps_the_timers_an_admin_set(
    tmp_path: Path,
) -> None:
    """A new user set ``/settings hand_seconds 300`` and ``time_bank_seconds 90`` in the
    sandbox, quit and started it again without ``--hand-seconds``: the sandbox wrote its
    defaults (120 s, a bank of 30 s) over them at every start, saying nothing (its note comes
    only with the flag). The sandbox's timers are written at the first start and when the
    flag is given; otherwise the group keeps its own, as a real group does."""
    from bot.sandbox import GROUP

    db = tmp_path / "s.sqlite3"

    async def timers(opts: SandboxOptions, *typed: str) -> tuple[float, float, float]:
        box = Sandbox(opts, io.StringIO())
        try:
            await box.start()
            for text in typed:
                assert await box.handle(text)
            assert box.service is not None
            table = box.service.table_in(GROUP)
            assert table is not None
            o = table.pending_options or table.options
            return (o.hand_seconds, o.time_bank_seconds, o.fantasyland_seconds)
        finally:
            await box.stop()

    first = SandboxOptions(db=db, bot_delay=0.0)  # a fresh file: the sandbox's timers
    assert await timers(first) == (120, 30, 180)
    typed = ("/settings hand_seconds 300", "/settings time_bank_seconds 90")
    assert await timers(first, *typed) == (300, 90, 180)
    assert await timers(SandboxOptions(db=db, bot_delay=0.0)) == (300, 90, 180)  # kept
    flag = SandboxOptions(db=db, bot_delay=0.0, hand_seconds=30, given=frozenset({"hand_seconds"}))
    assert await timers(flag) == (30, 8, 45)  # the flag given: the sandbox's again
    assert await timers(SandboxOptions(db=db, bot_delay=0.0)) == (30, 8, 45)


def test_help_says_a_resumed_table_takes_hand_seconds_as_a_settings_change(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--help`` said "A resumed table keeps its own; the value applies from the next
    table", but a resumed table takes it as a settings change would (README)."""
    from bot.__main__ import main

    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "A resumed table takes a new value as a settings change would: at once between "
        "matches, otherwise from the next match" in text
    )
    assert "next table" not in text


async def test_lang_ru_translates_the_sandboxs_button_and_picture_lines(tmp_path: Path) -> None:
    """Under ``--lang ru`` "» no such button" and the 🖼 lines of the /stats chart, the
    showdown picture and /hand's board stayed English."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", lang="ru"), out)
    assert await box.handle("7")
    assert out.getvalue().splitlines()[-1] == (
        "» нет такой кнопки: вашей руки на экране нет; N нажимает кнопки руки, rN — повтора, "
        "gN — группы"
    )
    png = {"photo": b"\x89PNG\r\n\x1a\n"}
    for params in (
        {"chat_id": GROUP_ID, "reply_parameters": {"message_id": 1}},
        {"chat_id": GROUP_ID},
        {"chat_id": box.human.id},
    ):
        box._on_call(ApiCall("sendPhoto", params, files=png))
    await box.print_changes()
    folder = tmp_path.resolve()
    assert out.getvalue().splitlines()[-3:] == [
        f"🖼 график: {folder / 's-picture-1.png'}",
        f"🖼 картинка вскрытия: {folder / 's-picture-2.png'}",
        f"🖼 ваша доска (/hand): {folder / 's-picture-3.png'}",
    ]


async def test_an_unknown_command_is_answered_in_the_groups_language(tmp_path: Path) -> None:
    """The bot answers in a group in the group's ``language`` setting, else in the sender's
    (``TableService._lang``); the sandbox's answer to an unknown command stands for the bot's
    and stayed in the player's English after ``/settings language ru``."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0), out)
    try:
        await box.start()
        assert await box.handle("/foo")
        assert "» unknown command /foo; /help lists them" in out.getvalue().splitlines()
        assert await box.handle("/settings language ru")
        assert await box.handle("/foo")
        assert out.getvalue().splitlines()[-1] == "» неизвестная команда /foo; список — /help"
    finally:
        await box.stop()


async def test_the_help_note_follows_the_groups_language_as_the_bots_help_does(
    tmp_path: Path,
) -> None:
    """``/help`` prints the bot's list, in the group's language, and the sandbox's own note
    under it; after ``/settings language ru`` the list came in Russian and the note under
    it stayed in English (the unknown command's answer follows the group already)."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0), out)
    try:
        await box.start()
        assert await box.handle("/settings language ru")
        before = len(out.getvalue().splitlines())
        assert await box.handle("/help")
        lines = out.getvalue().splitlines()[before:]
        assert lines[0] == "» " + tr("ru", "help").splitlines()[0], lines
        assert "» " + tr("ru", "sandbox.help", bob=box.bob.first_name) in lines, lines
        assert "» " + tr("en", "sandbox.help", bob=box.bob.first_name) not in lines, lines
    finally:
        await box.stop()


async def test_closetable_between_hands_is_printed_once(tmp_path: Path) -> None:
    """``/closetable`` between hands: the bot replies "Table #1 is closed." once and edits the
    table message (up in the chat) to say the same, without its buttons; the sandbox printed
    the reply and then the edit, the same line twice one under the other."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0), out)
    try:
        await box.start()
        start = len(box.fake.calls)
        assert await box.handle("/closetable")

        def writes() -> list[tuple[str, object]]:
            return [
                (c.method, c.params.get("text"))
                for c in box.fake.calls[start:]
                if c.method in ("sendMessage", "editMessageText")
            ]

        # the edit is queued in the background: waited for (a loaded machine may take more
        # than the half second this slept), then a moment for a write that should not come
        await box.fake.wait_for(lambda: any(m == "editMessageText" for m, _ in writes()))
        await asyncio.sleep(0.3)
        await box.print_changes()
        # the bot: one message, one edit of the table message (not a double message)
        assert writes() == [
            ("sendMessage", "Table #1 is closed."),
            ("editMessageText", "Table #1 is closed."),
        ]
        said = [x for x in out.getvalue().splitlines() if "Table #1 is closed." in x]
        assert said == ["» Table #1 is closed."]
    finally:
        await box.stop()


async def test_newtable_after_a_closetable_during_a_hand_says_it_closes_after_this_hand(
    tmp_path: Path,
) -> None:
    """``/newtable`` right after a ``/closetable`` that waits for the hand to end said "an
    admin closes it with /closetable", which the admin just did."""
    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=5.0, next_hand_delay=30.0)
    box = Sandbox(opts, out)
    try:
        await box.start()
        for press in ("g1", "g2"):
            assert await box.handle(press)
        assert box.service is not None
        from bot.sandbox import GROUP

        table = box.service.table_in(GROUP)
        assert table is not None and table.hand is not None
        assert await box.handle("/closetable")
        assert (
            "» Table #1 closes at the end of this hand, stacks go back to balances; "
            "Fantasyland earned in it is not played."
        ) in out.getvalue().splitlines()
        assert await box.handle("/newtable ofc")
        lines = out.getvalue().splitlines()
        said = lines.index(
            "» This chat's table #1 closes at the end of this hand, stacks back to balances; "
            "then /newtable opens another."
        )
        # the link to the table's message ("https://t.me/c/…") leads nowhere from a terminal
        assert lines[said + 1] == "  (the table's message is printed below)", lines[said:]
        assert lines[said + 2].startswith("── group · Sandbox ──"), lines[said:]
        assert not any("t.me/c/" in line for line in lines)
    finally:
        await box.stop()


async def test_a_resumed_sandbox_says_a_timed_out_player_sits_out_and_how_to_come_back() -> None:
    """R8.6: the sandbox's player timed out (every street made for them) and sits out after
    the hand; restarted, the sandbox said "Your table is back: you are ready; the next hand
    starts when everyone is." while the table showed them sitting out (no hand comes until
    /back). It says they sit out and that /back brings them back, in English and Russian;
    a player who sat out with /sitout is told the same, without the timeout."""
    service, _presenter, _store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert ALICE.user_id == "1"  # the sandbox's player
    for _ in range(50):
        if t.hand is None or t.hand.is_over:
            break
        if t.bot_due is not None:
            clock.now = t.bot_due
        else:
            clock.now += t.options.hand_seconds + t.options.time_bank_seconds + 1
        await service.run_due()
    clock.now += 5.0  # the next deal: Alice sits out (R8.6), the computer player alone waits
    await service.run_due()
    seat = t.seat_of(ALICE.user_id)
    assert seat is not None and seat.sitting_out and seat.timed_out and seat.ready
    assert t.hand is None
    english = Sandbox(SandboxOptions(), io.StringIO())._what_to_press(t, resumed=True)
    assert english == (
        "Your table is back: you sit out (your time ran out and your moves were made for "
        "you); type /back to play again from the next hand."
    )
    russian = Sandbox(SandboxOptions(lang="ru"), io.StringIO())._what_to_press(t, resumed=True)
    assert russian == (
        "Ваш стол снова здесь: вы пропускаете игру (время вышло, и ходы сделали за вас); "
        "наберите /back, чтобы вернуться со следующей раздачи."
    )
    seat.timed_out = False  # as after /sitout
    english = Sandbox(SandboxOptions(), io.StringIO())._what_to_press(t, resumed=True)
    assert english == (
        "Your table is back: you sit out (/sitout); type /back to play again from the next hand."
    )
    assert not (await service.back(GROUP, ALICE)).alert
    english = Sandbox(SandboxOptions(), io.StringIO())._what_to_press(t, resumed=True)
    assert "sit out" not in english


async def test_a_sandbox_resumed_during_a_chinese_poker_reveal_says_it_is_being_revealed() -> None:
    """R7.4: restarted while the group was shown the reveal box by box, the sandbox said "Your
    table is back: press the numbers of your hand's buttons." — the hand had no buttons left.
    It says the hand is being revealed in the group (a claim's buttons are the group's gN),
    in English and Russian."""
    from storage.memory import MemoryStore
    from tests.bot.conftest import Clock
    from tests.bot.test_bots import new_service
    from tests.bot.test_service import press_auto_and_confirm

    clock = Clock()
    service, presenter = new_service(MemoryStore(), clock)
    assert not (await service.settings(GROUP, ALICE, True, ["reveal_pause_seconds", "10"])).alert
    await service.new_table(GROUP, ALICE, "chinese")
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    for _ in range(50):
        if t.reveal is not None:
            break
        if ALICE.user_id in {t.seats[t.owner(s)].user_id for s in t.hand.to_act}:
            await press_auto_and_confirm(service, presenter, ALICE)
        elif t.bot_due is not None:
            clock.now = t.bot_due
            await service.run_due()
    assert t.reveal is not None and t.hand is not None and t.hand.is_over
    english = Sandbox(SandboxOptions(), io.StringIO())._what_to_press(t, resumed=True)
    assert english == (
        "Your table is back: the hand is being revealed in the group (🏆 Claim / ▶ Continue, "
        "when offered, are its gN buttons)."
    )
    russian = Sandbox(SandboxOptions(lang="ru"), io.StringIO())._what_to_press(t, resumed=True)
    assert russian.startswith("Ваш стол снова здесь: в группе идёт вскрытие раздачи")


@pytest.mark.parametrize(("lang", "name"), [("en", "Player"), ("ru", "Игрок")])
def test_the_sandbox_player_without_a_login_name_is_player_in_the_players_language(
    monkeypatch: pytest.MonkeyPatch, lang: str, name: str
) -> None:
    """With no ``USER`` to name the sandbox's player after, the player is "Player", and under
    ``--lang ru`` "Игрок" (it was "You" in the Russian group's lobby and showdowns too; then
    "You"/"Вы", which the group's notices, written of a player, got wrong); a login name stays
    the name."""
    monkeypatch.delenv("USER", raising=False)
    box = Sandbox(SandboxOptions(lang=lang), io.StringIO())
    assert (box.human.first_name, box.human.language_code) == (name, lang)
    monkeypatch.setenv("USER", "tester")
    assert Sandbox(SandboxOptions(lang=lang), io.StringIO()).human.first_name == "Tester"


async def test_tournament_opens_in_the_sandbox_and_names_bob(tmp_path: Path) -> None:
    """``/tournament`` was refused in the sandbox (two members are needed, and computer
    players sit at ordinary tables only). With Bob, its second member (``b …`` lines), it
    opens its lobby and says how Bob registers and plays, in the group's language
    (tests/bot/test_sandbox_bob.py plays one to its end)."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0), out)
    try:
        await box.start()
        assert await box.handle("/closetable")
        assert await box.handle("/settings language ru")
        assert box.bob.first_name == "Bob"  # (named at the start, in --lang's language)
        assert await box.handle("/tournament ofc")
        assert out.getvalue().splitlines()[-1] == (
            "» Bob — второй участник группы: b g участвовать — регистрация, b auto — руки "
            "играются автоматически (b N — кнопка N руки: Bob)."
        )
        t = box.service.table_in(SANDBOX_GROUP)
        assert t is not None and t.tournament is not None
        assert await box.handle("b g участвовать")
        assert [s.name for s in t.seats.values()] == ["Bob"]
        assert "» Bob: Вы в турнире: взнос 100 кушей — в призовом фонде." in out.getvalue()
        assert "Зарегистрированы (1/4): Bob" in out.getvalue()
    finally:
        await box.stop()


@pytest.mark.parametrize(
    ("argv0", "prog"),
    [
        ("/venv/bin/ofc-bot", "ofc-bot"),  # the console script of pyproject.toml
        ("/work/bot/__main__.py", "python -m bot"),  # python -m bot
    ],
)
def test_help_names_the_program_as_it_was_started(
    argv0: str, prog: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ofc-bot --help`` said "usage: python -m bot": the program is named as it was started,
    in the usage and in argparse's errors."""
    from bot.__main__ import main

    monkeypatch.setattr(sys, "argv", [argv0, "--help"])
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: {prog} [-h] ")
    with pytest.raises(SystemExit) as stop:
        main(["--bots", "7"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith(f"{prog}: error: argument --bots")


async def test_the_sandbox_player_without_a_login_name_is_told_of_in_the_third_person(
    tmp_path: Path,
) -> None:
    """``env -u USER``: the player was named "You", and the group's notices, written of a
    player, read "👋 You left the table; 194 kush back to their balance." (in Russian "Вы
    встаёт из-за стола"). The player is "Player": "👋 Player left the table; … back to their
    balance." (the answer to the player's own command still says "You")."""
    async with sandbox(tmp_path, env={"USER": None, "LOGNAME": None}) as term:
        await _seated_and_ready(term)
        await term.send("/leave")  # during the hand: it asks first (R8.5), a second leaves
        await term.read_until(r"Send /leave again to confirm\.$")
        await term.send("/leave")
        line = await term.play_until(r"^👋 ")
        assert re.fullmatch(r"👋 Player left the table; \d+ kush back to their balance\.", line)
        await term.quit()
    # "You" as a name: a seat, a board, the button, a showdown's line (the player's own
    # answers and private notices, "You are leaving: …", speak to them and stay)
    named = re.compile(r"\bYou( [·—]|: [+−-]?\d)|Button: You")
    assert [x for x in term.lines if named.search(x)] == []
    assert any(x.startswith("Player · ") for x in term.lines)  # the player's board
