"""The crash-test harness: scripted games played through the local fake Bot API against the
bot running as a subprocess (:mod:`tests.bot.crash.child`) on a real SQLite file, or on a
PostgreSQL database (``database_url``, issue 14).

One :class:`CrashRun` plays one :class:`Scenario` with one :class:`KillPoint`:

* ``call``: the fake Bot API (in this process) counts the bot's requests (``getUpdates`` long
  polls left out: their number depends on timing) and SIGKILLs the child when the N-th one
  arrives, before answering it (the request itself is processed: Telegram got it, the bot never
  learns the answer);
* ``commit``: the child kills itself right before or right after its N-th SQLite commit.

Then the bot is restarted on the same file and the game is played on until the table has
dealt a hand after the restart (and at least the scenario's last hand). Players act only by
what they see: they press the buttons the bot really sent (Join / Ready in the lobby, per-card
box buttons, "Arrange for me" and Confirm in their private message, Claim in the group) and
type commands; after a restart they press the buttons of the messages the new bot sent. A
press is never repeated on the same message, but for a Confirm the bot asks about (a board
it leaves fouled, R2.3: pressed once more, as the question says).

Afterwards :meth:`CrashRun.problems` lists every broken promise: the storage check, hands
settled once and shown with one result, one buy-in per seating, the stacks and balances shown
against the stored ones, and scenario facts (a Fantasyland hand was played, a game was claimed,
R8.3 for a leaver under ``settle_per_round``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import sqlite3
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeVar

from bot.screens import Payload
from bot.telegram.fake_api import BOT_ID, ApiCall, FakeTelegram, FakeUser
from bot.texts import tr
from game.cards import DECK, Card, parse_cards
from storage.check import check_database

#: the answer to a Confirm that leaves the board fouled (R2.3), which asks first
FOULED_NOTICES = frozenset(tr(lang, "err.confirm_fouled") for lang in ("en", "ru"))

__all__ = [
    "ALICE",
    "BOB",
    "CAROL",
    "SCENARIOS",
    "CrashRun",
    "KillPoint",
    "RunOutcome",
    "Scenario",
    "Stuck",
]

REPO = Path(__file__).resolve().parents[3]
CHILD = Path(__file__).resolve().with_name("child.py")
#: The code the bot process runs: this repository, or ``OFC_CRASH_BOT_ROOT`` (e.g. an export of
#: another commit, to compare); ``tests.bot.crash.child`` itself always comes from here.
BOT_ROOT = Path(os.environ.get("OFC_CRASH_BOT_ROOT") or REPO)
TOKEN = "123456:" + "T" * 35
GROUP_ID = -1001

ALICE = FakeUser(101, "Alice", "alice", "en")
BOB = FakeUser(102, "Bob", "bob", "en")
CAROL = FakeUser(103, "Carol", "carol", "en")

#: Requests not counted as kill points (long polls: their number depends on timing).
UNCOUNTED = frozenset({"getUpdates"})

#: Seconds a command or a press may wait for its answer (and a press for its chat to show
#: it). Only how long to wait: each wait ends as soon as the answer is there or the bot
#: process has died, so a sound run never waits it out (a run of the default sample: none of
#: some 900 waits took a second). It was 3 s: a bot not scheduled for a few seconds on a
#: loaded machine (one just restarted, starting its decision processes, above all) had its
#: command sent again and again (a run is stuck after four tries, 12 s) and its press taken
#: for unanswered, the next step then read the chat from before the press.
ANSWER_TIMEOUT = 20.0
#: how long the final ``/balance`` of each player is waited for (:meth:`read_balances`)
BALANCE_TIMEOUT = 20.0
#: Seconds without any request from the bot (other than long polls) before a run is "stuck".
#: (It bounds how long a stuck run takes to be reported, not what is checked: 8 s left a bot
#: held up on a loaded machine little to spare.)
STALL_SECONDS = 20.0
#: Upper bound of one run (the game, restarts included).
RUN_TIMEOUT = 90.0
#: Seconds the child gets to start (import, open the database, first long poll). Only how
#: long to wait: the wait ends at the first long poll or when the child dies. It was 20 s:
#: beside two busy test workers (and two CPU hogs) a child's imports alone took 17 s of
#: wall time for under a second of CPU, and every run of pineapple3_fl commit-before[+hand]
#: was "stuck: the bot did not start polling".
START_TIMEOUT = 60.0

_HAND_TITLE = re.compile(r"^🃏 .*· hand (\d+)")
_SHOWDOWN = re.compile(r"🏁 Showdown · table #(\d+) · hand (\d+)")
_REVEAL = re.compile(r"🀄 Reveal · table #(\d+) · hand (\d+)")
_KUSH = re.compile(
    r"^(?:▶ )?(?P<name>[^\n:·]+?)(?::| ·) .*?(?P<delta>[+−-]?\d+) kush → (?P<stack>\d+)"
)
_POINTS_HEAD = re.compile(r"^([^\s·:][^\n:]*?)(?::| ·) (?:[+−-]?\d+ pts?|\d+/\d+ pts)")
_LOBBY_SEAT = re.compile(r"^\d+\. (?P<name>.+?) — (?P<status>.+)$")
_BOARD_HEAD = re.compile(r"^(?:▶ )?(?P<name>[^·\n]+?) · (?P<stack>\d+)(?: · .*)?$")
_BALANCE = re.compile(
    r"^(?P<name>.+?): (?P<balance>\d+) kush on balance, (?P<stack>\d+) at the table"
)
_BOX_CODE = {"top": "t", "middle": "m", "bottom": "b"}

T = TypeVar("T")


class Stuck(AssertionError):
    """The game did not go on (no answer, no progress, or the run's time ran out)."""


# -- scenarios ----------------------------------------------------------------------------------


def _plan(top: str, middle: str, bottom: str, discards: str = "") -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for box, cards in (("top", top), ("middle", middle), ("bottom", bottom)):
        out.update(dict.fromkeys(cards.split(), box))
    out.update(dict.fromkeys(discards.split(), None))
    return out


# Pineapple: the first seat to act gets these streets and plays them to QQ on top with trips
# and a full house below (no foul): Fantasyland next hand (R6.1). The others get the next
# cards of the deck and play "Arrange for me".
FL_STREETS = ["Qs Qh As Ad Ac", "Ks Kh 2c", "Kd 9s 3c", "9h 7h 4d", "5c 6d 8s"]
FL_PLAN = _plan("Qs Qh 5c", "Ks Kh Kd 7h 6d", "As Ad Ac 9s 9h", "2c 3c 4d 8s")


def _pineapple_deck(first_streets: Sequence[str], players: int) -> str:
    """A deck whose first seat to act gets ``first_streets``; the others the rest in order."""
    mine = [list(parse_cards(s)) for s in first_streets]
    used = {c for street in mine for c in street}
    rest = iter([c for c in DECK if c not in used])
    head: list[Card] = []
    for street in mine:
        head += street
        for _ in range(players - 1):
            head += [next(rest) for _ in street]
    tail = [c for c in DECK if c not in set(head)]
    return " ".join(c.text for c in head + tail)


# Pineapple: the second seat to act gets these streets and plays them to a pair of jacks on
# top over a pair of threes in the middle (test_telegram_e2e's foul): its last Confirm asks
# first (R2.3), and is pressed again.
FOUL_STREETS = ["2d 3d 4h 5h Th", "Jc Jd 6c", "7c 7d 8c", "Tc Td 8d", "2h 3h 4c"]
FOUL_PLAN = _plan("Jc Jd 2h", "2d 3d 7c Tc 3h", "4h 5h Th 7d Td", "6c 8c 8d 4c")


def _two_decks(first: Sequence[str], second: Sequence[str]) -> str:
    """A two-player deck: the first seat to act gets ``first``'s streets, the other
    ``second``'s."""
    head: list[Card] = []
    for a, b in zip(first, second, strict=True):
        head += [*parse_cards(a), *parse_cards(b)]
    return " ".join(c.text for c in head + [c for c in DECK if c not in set(head)])


# Chinese Poker (test_classic_games_e2e): the bottom reveal gives the straight flush 2 + 4
# bonus points, past a target of 5: its player may claim the game (R7.5).
CHINESE_A = "As Ah Ad Kd Kc Ks 8h 8c 2c 3c 4c 5c 6c"
CHINESE_B = "Jc Td 4s 9c 9d 6s 6h 2h Qs Qd Qh Qc 8d"
CHINESE_PLAN = {
    **_plan("As Ah Ad", "Kd Kc Ks 8h 8c", "2c 3c 4c 5c 6c"),
    **_plan("Jc Td 4s", "9c 9d 6s 6h 2h", "Qs Qd Qh Qc 8d"),
}


def _chinese_deck() -> str:
    head = list(parse_cards(CHINESE_A)) + list(parse_cards(CHINESE_B))
    return " ".join(c.text for c in head + [c for c in DECK if c not in set(head)])


@dataclass(frozen=True)
class Scenario:
    """A scripted game.

    :ivar game: the ``/newtable`` argument (empty: the community's default, Pineapple).
    :ivar settings: ``/settings name value`` pairs the admin (the first player) sends first.
    :ivar decks: hand number → deck (card texts); other hands get seeded shuffles.
    :ivar plans: hand number → card → box (``None``: discard) for the per-card buttons; a
        player whose offered cards are all in the plan places them so, else "Arrange for me".
    :ivar final_hand: the game goes on until this hand is dealt.
    :ivar leaver: leaves (``/leave``) once hand ``leave_at_hand`` is dealt and plays no more.
    :ivar expect_foul: a plan fouls a board: its Confirm asks first (R2.3), pressed again.
    """

    name: str
    players: tuple[FakeUser, ...]
    game: str = ""
    settings: tuple[tuple[str, str], ...] = ()
    decks: Mapping[int, str] = field(default_factory=dict)
    plans: Mapping[int, Mapping[str, str | None]] = field(default_factory=dict)
    final_hand: int = 2
    leaver: FakeUser | None = None
    leave_at_hand: int = 0
    seed: int = 1
    expect_fantasyland: bool = False
    expect_claim: bool = False
    expect_foul: bool = False


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("pineapple2", (ALICE, BOB), seed=11, final_hand=2),
        Scenario(
            "pineapple3_fl",
            (ALICE, BOB, CAROL),
            decks={1: _pineapple_deck(FL_STREETS, 3)},
            plans={1: FL_PLAN},
            final_hand=3,
            seed=12,
            expect_fantasyland=True,
        ),
        Scenario(
            "pineapple2_foul",
            (ALICE, BOB),
            decks={1: _two_decks(FL_STREETS, FOUL_STREETS)},
            plans={1: {**FL_PLAN, **FOUL_PLAN}},
            final_hand=2,
            seed=15,
            expect_foul=True,
        ),
        Scenario(
            "chinese_claim",
            (ALICE, BOB),
            game="chinese",
            settings=(("target_points", "5"), ("reveal_pause_seconds", "0.1")),
            decks={1: _chinese_deck()},
            plans={1: CHINESE_PLAN},
            final_hand=2,
            seed=13,
            expect_claim=True,
        ),
        Scenario(
            "settle_per_round_leave",
            (ALICE, BOB, CAROL),
            settings=(("settle_per_round", "true"),),
            final_hand=3,
            leaver=CAROL,
            leave_at_hand=2,
            seed=14,
        ),
    )
}


@dataclass(frozen=True)
class KillPoint:
    """Where the first bot process is killed.

    :ivar kind: ``none`` (a run without a kill), ``call`` or ``commit``.
    :ivar n: the N-th request / commit (counted from 1, among those that match).
    :ivar when: for ``commit``: ``before`` or ``after`` it.
    :ivar match: ``call``: a text the request's ``text`` contains, or ``method:<name>``;
        ``commit``: what the transaction wrote, ``+buy_in`` / ``+cash_out`` / ``+hand_result``
        (a ledger row of that kind) or ``+hand`` (a settled hand), or else part of the name of
        a write function in it (see :mod:`tests.bot.crash.child`).
    """

    kind: Literal["none", "call", "commit"] = "none"
    n: int = 0
    when: Literal["before", "after"] = "after"
    match: str = ""

    def label(self) -> str:
        if self.kind == "none":
            return "no-kill"
        what = f"[{self.match}]" if self.match else ""
        if self.kind == "call":
            return f"call{what}#{self.n}"
        return f"commit-{self.when}{what}#{self.n}"

    def matches_call(self, call: ApiCall) -> bool:
        if not self.match:
            return True
        if self.match.startswith("method:"):
            return call.method == self.match.removeprefix("method:")
        return self.match in str(call.params.get("text", ""))


# -- the bot process ----------------------------------------------------------------------------


class BotProcess:
    """One bot process: ``python tests/bot/crash/child.py`` with ``root`` (the code it runs)
    as working directory and ``PYTHONPATH``."""

    def __init__(self, env: Mapping[str, str], log: Path, root: Path = REPO) -> None:
        self.env = dict(env)
        self.env["PYTHONPATH"] = str(root)
        self.log = log
        self.root = root
        self.proc: asyncio.subprocess.Process | None = None
        self._waiter: asyncio.Task[int] | None = None

    async def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(CHILD),
                cwd=str(self.root),
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=out,
            )
        self._waiter = asyncio.create_task(self.proc.wait())

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self._waiter is not None and not self._waiter.done()

    def kill(self) -> None:
        """SIGKILL now (from a synchronous listener: no await)."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)

    async def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM (the bot saves and exits), SIGKILL after ``timeout``; the exit status."""
        if self.proc is None or self._waiter is None:
            return None
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(asyncio.shield(self._waiter), timeout)
            except TimeoutError:
                self.kill()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._waiter), 10)
        return self.proc.returncode

    async def wait_dead(self, timeout: float = 10.0) -> None:
        if self._waiter is not None:
            await asyncio.wait_for(asyncio.shield(self._waiter), timeout)


# -- reading what the players see ---------------------------------------------------------------


def _text(call_or_msg: Mapping[str, Any]) -> str:
    return str(call_or_msg.get("text", ""))


def _buttons(message: Mapping[str, Any]) -> list[tuple[str, Payload]]:
    """(label, payload) of every callback button of a message."""
    out: list[tuple[str, Payload]] = []
    for b in FakeTelegram.buttons(dict(message)):
        p = Payload.decode(b.get("callback_data"))
        if p is not None:
            out.append((str(b.get("text", "")), p))
    return out


#: The flags of the settlements recorded apart from hands
#: (:func:`bot.service.dealing.settle_apart`).
_APART = ("round_end", "game_end")


def _shown(h: _Hand) -> int:
    """The number players saw for stored hand ``h`` (bot.service.stats.shown_number)."""
    return int(h.result.get("shown_no", h.number))


def _hand_no(text: str) -> int | None:
    m = _HAND_TITLE.match(text)
    return int(m.group(1)) if m else None


@dataclass
class RunOutcome:
    """What one run did and found."""

    scenario: str
    kill: KillPoint
    killed: bool = False
    killed_at: str = ""
    restarts: int = 0
    calls_counted: int = 0
    commits: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        head = f"{self.scenario} {self.kill.label()}"
        if self.kill.kind != "none":
            head += f" ({'killed at ' + self.killed_at if self.killed else 'not reached'})"
        if not self.problems:
            return head + ": ok"
        return head + ":\n  - " + "\n  - ".join(self.problems)


# -- one run ------------------------------------------------------------------------------------


class CrashRun:
    """Play ``scenario`` with the first bot process killed at ``kill``; see the module doc."""

    def __init__(
        self, scenario: Scenario, kill: KillPoint, workdir: Path, database_url: str | None = None
    ) -> None:
        self.scenario = scenario
        self.kill = kill
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.db = self.dir / "ofc.sqlite3"
        #: a PostgreSQL database (issue 14) the bot runs on instead of the SQLite file
        self.database_url = database_url
        self.trace = self.dir / "commits.tsv"
        self.disarm = self.dir / "disarmed"
        self.log = self.dir / "bot.log"
        self.fake = FakeTelegram(TOKEN, open_private=True)
        self.fake.admins[GROUP_ID] = {scenario.players[0].id}
        self.fake.group(GROUP_ID, "Crash test")
        self.fake.listeners.append(self._on_call)
        self.bot: BotProcess | None = None
        self.outcome = RunOutcome(scenario.name, kill)
        self.armed = kill.kind == "call"
        self.calls_counted = 0
        self.calls_matched = 0
        self.restart_at: int | None = None  # index into fake.calls where the new process began
        self.max_hand_before_kill = 0
        self.pressed: set[tuple[int, int, int, str]] = set()
        # (the fouled Confirms asked about: pressed once more, R2.3)
        self.foul_asked: set[tuple[int, int, int, str]] = set()
        self.done_settings: set[tuple[str, str]] = set()
        self.attempts: dict[str, int] = defaultdict(int)
        self.table_confirmed = False
        self.leave_sent_to: set[int] = set()  # process numbers the leaver said /leave to
        self.process_no = 0
        self.progress_at = time.monotonic()
        self.balances: dict[int, tuple[int, int]] = {}  # user id → (balance, stack) shown

    # -- the kill switch in the fake -------------------------------------------------------------
    def _on_call(self, call: ApiCall) -> None:
        if call.method in UNCOUNTED:
            return
        self.progress_at = time.monotonic()
        if self.process_no != 1:
            return
        self.calls_counted += 1
        if not self.armed or not self.kill.matches_call(call):
            return
        self.calls_matched += 1
        if self.calls_matched == self.kill.n and self.bot is not None:
            self.armed = False
            self.bot.kill()
            self.outcome.killed = True
            excerpt = _text(call.params).split("\n")[0][:60]
            self.outcome.killed_at = f"{call.method}({excerpt!r})" if excerpt else call.method

    # -- process management ---------------------------------------------------------------------
    def _env(self, first: bool) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("OFC_CRASH_", "TELEGRAM_", "DISCORD_", "DATABASE_"))
        }
        env.update(
            TELEGRAM_BOT_TOKEN=TOKEN,
            TELEGRAM_API_BASE_URL=self.fake.base_url,
            DATABASE_PATH=str(self.db),
            **({"DATABASE_URL": self.database_url} if self.database_url else {}),
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
            OFC_CRASH_TRACE=str(self.trace),
            OFC_CRASH_PARENT_PID=str(os.getpid()),
            OFC_CRASH_DISARM=str(self.disarm),
            OFC_CRASH_SEED=str(self.scenario.seed),
            OFC_CRASH_NEXT_HAND_DELAY="0.2",
            OFC_CRASH_DECKS=json.dumps({str(k): v for k, v in self.scenario.decks.items()}),
        )
        if first and self.kill.kind == "commit":
            env.update(
                OFC_CRASH_COMMIT=str(self.kill.n),
                OFC_CRASH_COMMIT_WHEN=self.kill.when,
                OFC_CRASH_COMMIT_MATCH=self.kill.match,
            )
        return env

    async def _start_bot(self) -> None:
        first = self.process_no == 0
        self.process_no += 1
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(f"--- bot process {self.process_no} ---\n")
        start = len(self.fake.calls)
        self.bot = BotProcess(self._env(first), self.log, BOT_ROOT)
        await self.bot.start()
        bot = self.bot

        def polling() -> bool:
            return any(c.method == "getUpdates" for c in self.fake.calls[start:]) or not bot.alive

        await self._until(polling, START_TIMEOUT, "the bot did not start polling")
        self.progress_at = time.monotonic()

    async def _restart(self) -> None:
        assert self.bot is not None
        with contextlib.suppress(TimeoutError):
            await self.bot.wait_dead()
        status = self.bot.proc.returncode if self.bot.proc is not None else None
        if status != -signal.SIGKILL:
            self.outcome.problems.append(f"bot process {self.process_no} exited with {status}")
        if self.process_no == 1:
            if self.kill.kind == "commit":
                self.outcome.killed_at = self._killed_commit()
                self.outcome.killed = bool(self.outcome.killed_at)
        elif self.process_no > 1:
            raise Stuck(f"bot process {self.process_no} died without being killed")
        self.outcome.restarts += 1
        self._event(f"restart after {self.outcome.killed_at or status}")
        self.max_hand_before_kill = self._max_hand(0)
        self.restart_at = len(self.fake.calls)
        await self._start_bot()

    def _event(self, what: str) -> None:
        """A line of ``events.log`` (what the players did, with the bot's request count)."""
        with open(self.dir / "events.log", "a", encoding="utf-8") as f:
            f.write(f"{time.monotonic():.3f} calls={len(self.fake.calls)} {what}\n")

    def _killed_commit(self) -> str:
        for line in self._trace_lines():
            parts = line.split("\t")
            if len(parts) >= 4 and parts[3].startswith("killed"):
                what = " ".join(p for p in (parts[1], parts[2]) if p)
                return f"commit {parts[0]} ({what}) {parts[3].removeprefix('killed ')}"
        return ""

    def _trace_lines(self) -> list[str]:
        if not self.trace.exists():
            return []
        return self.trace.read_text(encoding="utf-8").splitlines()

    async def _until(
        self,
        predicate: Callable[[], T | None],
        timeout: float,
        what: str,
    ) -> T:
        """Wait until ``predicate()`` is truthy. :raises Stuck: after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise Stuck(what)
            await asyncio.sleep(0.01)

    async def _quiet(self, still: float = 0.5, timeout: float = 15.0) -> None:
        """Wait until the bot has made no request but long polls for ``still`` seconds (its
        last messages and edits are out; a fixed 0.3 s was not always enough on a loaded
        machine), or ``timeout`` seconds have passed (a timer of the bot keeps it busy)."""

        def requests() -> int:
            return sum(1 for c in self.fake.calls if c.method not in UNCOUNTED)

        deadline = time.monotonic() + timeout
        seen, since = requests(), time.monotonic()
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            now = requests()
            if now != seen:
                seen, since = now, time.monotonic()
            elif time.monotonic() - since >= still:
                return

    def _results_seen(self) -> set[int]:
        """The hand numbers whose result (or reveal) the group was shown."""
        seen: set[int] = set()
        for c in self._group_writes():
            text = _text(c.params)
            m = _SHOWDOWN.search(text) or _REVEAL.search(text)
            if m is not None:
                seen.add(int(m.group(2)))
        return seen

    async def _results_out(self, timeout: float = ANSWER_TIMEOUT) -> None:
        """Wait until the group was shown the result of every hand before the newest one
        dealt, or ``timeout`` seconds (the checks then tell what is missing). The quiet wait
        alone was not enough: on a loaded machine a restarted bot drew hand 2's showdown
        picture for more than its 1.5 s without a request, the harness stopped the bot first,
        and pineapple3_fl commit-before[+hand]#1 found "settled but no result titled 'hand
        2' was shown" (2 of 5 runs beside two CPU hogs)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.bot is not None and self.bot.alive:
            if set(range(1, self._max_hand(0))) <= self._results_seen():
                return
            await asyncio.sleep(0.05)

    async def _answer_of(
        self, predicate: Callable[[], T | None], timeout: float = ANSWER_TIMEOUT
    ) -> T | None:
        """Wait for an answer of the bot; ``None`` if the process dies or it takes too long."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            if self.bot is None or not self.bot.alive:
                return predicate() or None
            await asyncio.sleep(0.01)
        return None

    # -- what the players see -------------------------------------------------------------------
    def _group_writes(self, since: int = 0) -> list[ApiCall]:
        return [
            c
            for c in self.fake.calls[since:]
            if c.method in ("sendMessage", "editMessageText")
            and int(c.params.get("chat_id", 0) or 0) == GROUP_ID
        ]

    def _max_hand(self, since: int) -> int:
        best = 0
        for c in self.fake.calls[since:]:
            if c.method in ("sendMessage", "editMessageText"):
                n = _hand_no(_text(c.params))
                if n is not None:
                    best = max(best, n)
        return best

    def _newest(self, chat_id: int, action: str) -> dict[str, Any] | None:
        """The newest bot message of a chat that has a button with ``action`` (any message
        for ``""``)."""
        best: dict[str, Any] | None = None
        for (c, mid), m in self.fake.messages.items():
            if c != chat_id or m["from"]["id"] != BOT_ID:
                continue
            if best is not None and mid < best["message_id"]:
                continue
            if not action or any(p.action == action for _, p in _buttons(m)):
                best = m
        return best

    def table_message(self) -> dict[str, Any] | None:
        """The group's current table message (lobby or board: it has the Join button, or
        Leave: during a hand Join is shown only while a seat is free)."""
        found = [m for m in (self._newest(GROUP_ID, a) for a in ("j", "l")) if m is not None]
        return max(found, key=lambda m: int(m["message_id"]), default=None)

    def _seated(self) -> dict[str, str]:
        """Name → lobby status, or name → stack text on a board."""
        msg = self.table_message()
        if msg is None:
            return {}
        out: dict[str, str] = {}
        for line in _text(msg).splitlines():
            m = _LOBBY_SEAT.match(line)
            if m:
                out[m.group("name")] = m.group("status")
                continue
            b = _BOARD_HEAD.match(line)
            if b and _hand_no(_text(msg)) is not None:
                out[b.group("name").removesuffix(" ①").removesuffix(" ②")] = b.group("stack")
        return out

    # -- acting ---------------------------------------------------------------------------------
    async def say(
        self, user: FakeUser, text: str, chat_id: int = GROUP_ID, timeout: float = ANSWER_TIMEOUT
    ) -> str | None:
        """``user`` writes ``text``; the bot's reply, or ``None`` (no reply in ``timeout``
        seconds)."""
        start = len(self.fake.calls)
        self._event(f"{user.first_name} says {text!r}")
        mid = await self.fake.send_text(user, chat_id, text)

        def reply() -> str | None:
            params = self.fake.reply_to(chat_id, mid, start)
            return None if params is None else _text(params)

        return await self._answer_of(reply, timeout)

    async def press(
        self, user: FakeUser, chat_id: int, message: Mapping[str, Any], data: str
    ) -> bool:
        """Press a button once; returns whether it was pressed (not pressed before)."""
        key = (user.id, chat_id, int(message["message_id"]), data)
        if key in self.pressed:
            return False
        self.pressed.add(key)
        self._event(f"{user.first_name} presses {data} on message {message['message_id']}")
        before = self._chat_state(chat_id)
        qid = await self.fake.press(user, chat_id, int(message["message_id"]), data)
        answer = await self._answer_of(lambda: self.fake.answer_of(qid))
        if answer is not None and answer.params.get("text") in FOULED_NOTICES:
            # a Confirm that leaves the board fouled asks first (R2.3): the player, who read
            # the question, presses it again on the same message (the one press repeated)
            if key not in self.foul_asked:
                self._event(f"{user.first_name} is asked about a fouled board")
                self.foul_asked.add(key)
                self.pressed.discard(key)
            return True
        if answer is None or answer.params.get("show_alert"):
            return True
        # wait for the chat to show the press (the next decision reads it): an edit, or after a
        # restart a new message; a Confirm that ends the hand may leave the chat as it is
        pressed = Payload.decode(data)
        patience = 0.5 if pressed is not None and pressed.action == "c" else ANSWER_TIMEOUT
        await self._answer_of(lambda: self._chat_state(chat_id) != before or None, patience)
        return True

    def _chat_state(self, chat_id: int) -> list[tuple[int, str, str]]:
        """Every bot message of a chat as it is now: (id, text, buttons)."""
        return [
            (mid, _text(m), json.dumps(m.get("reply_markup"), sort_keys=True))
            for (c, mid), m in sorted(self.fake.messages.items())
            if c == chat_id and m["from"]["id"] == BOT_ID
        ]

    def _data(self, message: Mapping[str, Any], action: str, arg: str = "") -> str | None:
        for _, p in _buttons(message):
            if p.action == action and p.arg == arg:
                return p.encode()
        return None

    async def _setup_step(self) -> bool:
        admin = self.scenario.players[0]
        for name, value in self.scenario.settings:
            if (name, value) in self.done_settings:
                continue
            self._attempt(f"/settings {name} {value}")
            reply = await self.say(admin, f"/settings {name} {value}")
            if reply is not None and reply.startswith(("Saved: ", "Already so: ")):
                self.done_settings.add((name, value))
            return True
        if not self.table_confirmed:
            command = f"/newtable {self.scenario.game}".strip()
            self._attempt(command)
            reply = await self.say(admin, command)
            if reply is not None and ("is open" in reply or "already has an open table" in reply):
                self.table_confirmed = True
            return True
        return False

    def _attempt(self, what: str) -> None:
        self.attempts[what] += 1
        if self.attempts[what] > 4:
            raise Stuck(f"no answer to {what!r} after 4 tries")

    def _wants_seat(self, user: FakeUser) -> bool:
        s = self.scenario
        return not (user == s.leaver and self._max_hand(0) >= s.leave_at_hand)

    async def _leave_step(self) -> bool:
        s = self.scenario
        if s.leaver is None or self._max_hand(0) < s.leave_at_hand:
            return False
        if self.process_no in self.leave_sent_to or s.leaver.first_name not in self._seated():
            return False
        self.leave_sent_to.add(self.process_no)
        answer = await self.say(s.leaver, "/leave")
        asks = {tr(lang, "reply.leave_confirm_typed") for lang in ("en", "ru")} | {
            tr(lang, "reply.leave_confirm_typed_chinese", target=n)
            for lang in ("en", "ru")
            for n in range(1, 201)
        }
        if answer in asks:  # during the leaver's hand it asks first (R8.5): confirmed
            await self.say(s.leaver, "/leave")
        return True

    async def _lobby_step(self) -> bool:
        msg = self.table_message()
        if msg is None or _hand_no(_text(msg)) is not None:
            return False
        seated = self._seated()
        for u in self.scenario.players:
            if self._wants_seat(u) and u.first_name not in seated:
                data = self._data(msg, "j")
                if data and await self.press(u, GROUP_ID, msg, data):
                    return True
        for u in self.scenario.players:
            if self._wants_seat(u) and seated.get(u.first_name) == "not ready":
                data = self._data(msg, "r")
                if data and await self.press(u, GROUP_ID, msg, data):
                    return True
        return False

    async def _claim_step(self) -> bool:
        msg = self._newest(GROUP_ID, "k")
        if msg is None:
            return False
        data = self._data(msg, "k")
        if data is None:
            return False
        for u in self.scenario.players:
            if self._wants_seat(u) and await self.press(u, GROUP_ID, msg, data):
                return True
        return False

    async def _hand_step(self, user: FakeUser) -> bool:
        msg = self._newest(user.id, "")
        if msg is None or not any(p.action == "c" for _, p in _buttons(msg)):
            return False
        hand = _hand_no(_text(msg)) or 0
        s = self.scenario
        if user == s.leaver and hand >= s.leave_at_hand:
            return False  # the leaver's moves are made for them (R8.5)
        cards: dict[str, str | None] = {}  # card → the box marked for it ("" none, None discard)
        for label, p in _buttons(msg):
            if p.action == "p":
                card, box = p.arg[:-1], p.arg[-1]
                cards.setdefault(card, "")
                if "• " in label:
                    cards[card] = box
            elif p.action == "d":
                cards.setdefault(p.arg, "")
                if "• " in label:
                    cards[p.arg] = None
        plan = s.plans.get(hand)
        choices: list[str | None] = []
        if plan and cards and all(c in plan for c in cards):
            for card, planned in plan.items():
                if card in cards and planned is not None and cards[card] != _BOX_CODE[planned]:
                    choices.append(self._data(msg, "p", card + _BOX_CODE[planned]))
                    break
            choices.append(self._data(msg, "c"))
        else:
            if any(v == "" for v in cards.values()):
                choices.append(self._data(msg, "a"))
            choices += [self._data(msg, "c"), self._data(msg, "a")]
        for data in choices:
            if data is not None and await self.press(user, user.id, msg, data):
                return True
        return False

    async def _step(self) -> bool:
        if await self._setup_step():
            return True
        if await self._leave_step():
            return True
        if await self._lobby_step():
            return True
        if await self._claim_step():
            return True
        for u in self.scenario.players:
            if await self._hand_step(u):
                return True
        return False

    def _goal(self) -> bool:
        since = self.restart_at or 0
        target = self.scenario.final_hand
        if self.restart_at is not None:
            target = max(target, self.max_hand_before_kill + 1)
        return self._max_hand(since) >= target

    async def play(self) -> None:
        """Play until the goal; restart the bot whenever it dies."""
        deadline = time.monotonic() + RUN_TIMEOUT
        await self._start_bot()
        while True:
            assert self.bot is not None
            if not self.bot.alive:
                await self._restart()
                continue
            if self._goal():
                counted, commits = self.calls_counted, len(self._trace_lines())
                self.armed = False  # no kill once the game is where it should be
                self.disarm.touch()
                await asyncio.sleep(0.05)
                if not self.bot.alive or self._killed_here():
                    continue  # killed right at the goal: restart and play on
                break
            if time.monotonic() > deadline:
                raise Stuck(f"the game did not reach its goal in {RUN_TIMEOUT:.0f} s")
            acted = await self._step()
            if not acted:
                if time.monotonic() - self.progress_at > STALL_SECONDS:
                    raise Stuck(f"no request from the bot for {STALL_SECONDS:.0f} s")
                await asyncio.sleep(0.02)
        self.outcome.calls_counted = counted
        self.outcome.commits = commits

    def _killed_here(self) -> bool:
        """Whether the first bot process was killed at the kill point (its SIGKILL sent by the
        fake's listener, or its commit's kill traced), though :attr:`BotProcess.alive` may not
        show it yet: a loaded machine reaped a process killed right at the goal after the
        0.05 s :meth:`play` waits, and the run went on to ``/balance`` with no bot to answer
        ("no reply", one sweep run of chinese_claim)."""
        if self.process_no != 1:
            return False
        return self.outcome.killed or (self.kill.kind == "commit" and bool(self._killed_commit()))

    async def read_balances(self) -> None:
        """Every player asks ``/balance``; the replies are checked against the database."""
        for u in self.scenario.players:
            # the check reads what the bot answers, not how fast: a restarted bot on a loaded
            # machine (its worker processes starting) answered one sweep's /balance after 3 s
            reply = await self.say(u, "/balance", timeout=BALANCE_TIMEOUT)
            if reply is None:
                self.outcome.problems.append(f"/balance of {u.first_name}: no reply")
                continue
            m = _BALANCE.match(reply)
            if m is None:
                self.outcome.problems.append(f"/balance of {u.first_name}: {reply!r}")
                continue
            self.balances[u.id] = (int(m.group("balance")), int(m.group("stack")))

    async def _settled_table_message(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The table message once it shows the stacks the bot's ``/balance`` replies gave
        (:meth:`read_balances`), or as it is after ``timeout`` seconds (checked then): the
        quiet wait alone is not enough on a loaded machine, where the first showdown after a
        restart waits for the drawing process and the lobby behind its picture comes seconds
        later (a sweep beside other work saw the lobby of before the hand at the check)."""
        names = {u.first_name: u.id for u in self.scenario.players}
        deadline = time.monotonic() + timeout
        while True:
            shown = self.table_message()
            if shown is None or time.monotonic() >= deadline:
                return shown
            if all(
                names.get(name) not in self.balances or self.balances[names[name]][1] == stack
                for name, stack, _ in _stacks_shown(shown)
            ):
                return shown
            await asyncio.sleep(0.1)

    # -- for the runs of one closing step (test_removal, test_tournament_payout) ---------------
    def _open_tables(self) -> int:
        """How many tables the SQLite file holds open (read-only, beside the bot)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM tables WHERE open = 1").fetchone()[0])

    async def _play_until_closed(
        self,
        players: Sequence[FakeUser] | Callable[[], Sequence[FakeUser]],
        stuck: str,
        first: Callable[[], Awaitable[bool]] | None = None,
    ) -> None:
        """``players`` (or who the function gives at each round) press what their private
        chats show until the bot process dies (the kill point) or no table is open; each
        round begins with ``first``, if given (a player's command: True when it did
        something). :raises Stuck: (``stuck``) after ``RUN_TIMEOUT``."""
        assert self.bot is not None
        deadline = time.monotonic() + RUN_TIMEOUT
        while self.bot.alive and self._open_tables() > 0:
            if time.monotonic() > deadline:
                raise Stuck(stuck)
            acted = await first() if first is not None else False
            for u in players() if callable(players) else players:
                acted = await self._hand_step(u) or acted
            if not acted:
                await asyncio.sleep(0.02)

    async def _closing_setup(self) -> None:
        """What :meth:`run_closing_step` does once the first bot process polls, before the
        closing step is played (nothing here)."""

    async def _play_on(self) -> None:
        """Play on until the bot process dies (the kill point) or the table is closed."""
        raise NotImplementedError

    async def _closing_after(self, problems: list[str]) -> None:
        """What :meth:`run_closing_step` waits for and checks once the restarted bot has
        played on (while it runs); problems found go to ``problems``."""

    def _closing_checks(self) -> list[str]:
        """The problems in the database once the bots are stopped, besides ``storage
        check``'s (none here)."""
        return []

    async def run_closing_step(self) -> list[str]:
        """The whole run of one closing step (test_removal, the tournament tests): the bot
        started, :meth:`_closing_setup`, :meth:`_play_on` until the kill point, the bot
        restarted and played on, :meth:`_closing_after`; then, everything stopped, ``storage
        check`` and :meth:`_closing_checks`. The broken promises found (the bot log's errors
        with them)."""
        problems: list[str] = []
        await self.fake.start()
        try:
            await self._start_bot()
            await self._closing_setup()
            await self._play_on()
            if missed := await self._kill_missed():  # (what the step owed goes after the commit)
                return [missed]
            await self._restart()
            await self._play_on()  # (killed before the commit: the step is played again)
            await self._closing_after(problems)
        except Stuck as exc:
            problems.append(f"stuck: {exc}; {self._state()}")
        finally:
            await self._stop_all()
        problems += [f"storage check: {p}" for p in await check_database(self.db)]
        problems += self._closing_checks()
        if problems and (tail := self._log_tail()):
            problems.append("bot log: " + tail)
        return problems

    async def _kill_missed(self) -> str | None:
        """``None`` once the first bot process died at its kill point (a kill at a request
        waited for 10 s at most: what the step owed goes out after its commit), else the
        problem to report."""
        assert self.bot is not None
        if self.kill.kind == "call":
            bot = self.bot
            with contextlib.suppress(Stuck):
                await self._until(lambda: not bot.alive, 10.0, "")
        if self.bot.alive:
            return f"the kill point {self.kill.label()} was not reached"
        return None

    async def _third_start(self) -> int:
        """Stop the (restarted) bot, start it a third time and wait until it is quiet
        (1 s): the number of requests before this start (what it wrote comes after)."""
        assert self.bot is not None
        await self.fake.release_polls()
        await self.bot.stop()
        since = len(self.fake.calls)
        await self._start_bot()
        await self._quiet(still=1.0)
        return since

    async def _stop_all(self) -> None:
        """The bot process killed and reaped, the fake Bot API stopped (its long poll
        released first)."""
        await self.fake.release_polls()  # the bot's long poll returns at once
        if self.bot is not None:
            self.bot.kill()  # the checks read the file; no need to wait for a clean stop
            await self.bot.stop()
        await self.fake.stop()

    async def execute(self) -> RunOutcome:
        """The whole run: play, restart, finish, stop the bot, check. Never raises for a
        problem found (see :attr:`RunOutcome.problems`), only for a broken harness."""
        began = time.monotonic()
        await self.fake.start()
        try:
            try:
                await self.play()
                # the deal's last messages and edits; 1.5 s still: the first showdown after
                # a restart may wait for the drawing process to come up (a loaded machine:
                # over 0.5 s, and the table message behind its picture was not out yet)
                await self._results_out()
                await self._quiet(still=1.5)
                await self.read_balances()
                shown = await self._settled_table_message()
            except Stuck as exc:
                self.outcome.problems.append(f"stuck: {exc}; {self._state()}")
                shown = None
        finally:
            self._event("stopping the bot")
            await self._stop_all()
            self._event("stopped")
        self.outcome.problems += await self.check(shown)
        self.outcome.seconds = time.monotonic() - began
        tail = self._log_tail()
        if self.outcome.problems and tail:
            self.outcome.problems.append("bot log: " + tail)
        (self.dir / "outcome.txt").write_text(self.outcome.summary() + "\n", encoding="utf-8")
        return self.outcome

    def _state(self) -> str:
        msg = self.table_message()
        table = _text(msg).replace("\n", " / ")[:300] if msg else "no table message"
        return f"table message: {table!r}; hands dealt seen: {self._max_hand(0)}"

    def _log_tail(self, lines: int = 12) -> str:
        """The bot's errors (the last ``lines`` of them), or ``""``."""
        if not self.log.exists():
            return ""
        text = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        errors = [t for t in text if re.search(r"ERROR|Error|Exception|Traceback", t)]
        return " | ".join(errors[-lines:])[:2000]

    # -- the checks -----------------------------------------------------------------------------
    async def check(self, shown: Mapping[str, Any] | None) -> list[str]:
        problems: list[str] = []
        if self.database_url is not None:
            if self.db.exists():
                problems.append("a SQLite file was made although DATABASE_URL was set")
            problems += [f"storage check: {p}" for p in await check_database(self.database_url)]
            facts = await _Facts.read_postgres(self.database_url)
        elif not self.db.exists():
            return ["no database file"]
        else:
            problems += [f"storage check: {p}" for p in await check_database(self.db)]
            facts = _Facts.read(self.db)
        problems += self._check_hands(facts)
        problems += _check_buy_ins(facts)
        if shown is not None:
            problems += self._check_table_message(facts, shown)
        problems += self._check_balances(facts)
        problems += self._check_scenario(facts)
        return problems

    def _check_hands(self, facts: _Facts) -> list[str]:
        problems: list[str] = []
        by_table: dict[int, list[int]] = defaultdict(list)
        for h in facts.hands.values():
            by_table[h.table_id].append(h.number)
        for table, numbers in by_table.items():
            if sorted(numbers) != list(range(1, len(numbers) + 1)):
                problems.append(f"table {table}: hand numbers settled {sorted(numbers)}")
        results: dict[tuple[int, int], list[str]] = defaultdict(list)
        seen: set[tuple[int, int]] = set()  # hands whose result (or a reveal) was shown
        for c in self._group_writes():
            text = _text(c.params)
            m = _SHOWDOWN.search(text)
            if m is None:
                r = _REVEAL.search(text)
                if r is not None:
                    seen.add((int(r.group(1)), int(r.group(2))))
                if r is None or " kush → " not in text:
                    continue
                m = r
            key = (int(m.group(1)), int(m.group(2)))
            seen.add(key)
            if text not in results[key]:
                results[key].append(text)
        for (table, number), texts in sorted(results.items()):
            if len(texts) > 1:
                problems.append(
                    f"table {table} hand {number} shown with {len(texts)} different results: "
                    + " ≠ ".join(repr(t.replace("\n", " / ")[:160]) for t in texts)
                )
            hand = facts.hand(table, number)
            if hand is None:
                problems.append(f"table {table} hand {number}: shown but not settled in storage")
                continue
            for text in texts:
                problems += _check_shown_kush(facts, hand, text)
                for line in text.splitlines()[1:]:
                    named = _POINTS_HEAD.match(line)
                    if named and facts.player_by_name(named.group(1).strip()) is None:
                        problems.append(
                            f"table {table} hand {number}: the result names {line!r}, no player"
                        )
        for h in facts.hands.values():
            if h.result.get("seats") and (h.table_id, _shown(h)) not in seen:  # a played hand
                titled = sorted(n for t, n in seen if t == h.table_id)
                problems.append(
                    f"table {h.table_id} hand {h.number}: settled but no result titled 'hand "
                    f"{_shown(h)}' was shown (results shown for hands {titled})"
                )
            per_player: dict[int, int] = defaultdict(int)
            for row in facts.ledger:
                if row.hand_id == h.id and row.kind == "hand_result":
                    per_player[row.player_id] += 1
            for pid, n in per_player.items():
                if n > 1:
                    problems.append(f"hand {h.number}: {n} hand_result rows for player {pid}")
        return problems

    def _check_table_message(self, facts: _Facts, shown: Mapping[str, Any]) -> list[str]:
        table = self._table_id(shown)
        if table is None:
            return []
        problems: list[str] = []
        for name, stack, line in _stacks_shown(shown):
            pid = facts.player_by_name(name)
            stored = facts.stacks.get((table, pid), 0) if pid is not None else None
            if stored != stack:
                problems.append(
                    f"table message shows {name} with {stack}, storage holds {stored}: {line!r}"
                )
        return problems

    def _check_balances(self, facts: _Facts) -> list[str]:
        problems: list[str] = []
        table = facts.open_table()
        for u in self.scenario.players:
            if u.id not in self.balances:
                continue
            balance, stack = self.balances[u.id]
            pid = facts.player_by_user(str(u.id))
            if pid is None:
                continue
            stored_balance = facts.balances[pid]
            stored_stack = facts.stacks.get((table, pid), 0) if table is not None else 0
            if (balance, stack) != (stored_balance, stored_stack):
                problems.append(
                    f"/balance of {u.first_name} shows {balance} + {stack} at the table, storage "
                    f"holds {stored_balance} + {stored_stack}"
                )
        return problems

    def _check_scenario(self, facts: _Facts) -> list[str]:
        s = self.scenario
        problems: list[str] = []
        writes = [
            _text(c.params)
            for c in self.fake.calls
            if c.method in ("sendMessage", "editMessageText")
        ]
        if s.expect_fantasyland and not any("Fantasyland next" in t for t in writes):
            problems.append("no hand earned Fantasyland (the stacked deck should give it)")
        if s.expect_fantasyland and not any(
            _hand_no(t) is not None and "🌴 Fantasyland" in t.split("\n")[0] for t in writes
        ):
            problems.append("no Fantasyland hand was dealt")
        if s.expect_foul and not self.foul_asked:
            problems.append("no Confirm asked about a fouled board (the plan fouls one)")
        if s.expect_claim and not any("claimed the game" in t for t in writes):
            problems.append("the Chinese Poker game was not claimed")
        if s.leaver is not None:
            problems += _check_leaver(facts, s.leaver)
        return problems

    @staticmethod
    def _table_id(message: Mapping[str, Any]) -> int | None:
        for _, p in _buttons(message):
            return p.table
        return None


def _stacks_shown(shown: Mapping[str, Any]) -> list[tuple[str, int, str]]:
    """``(name, stack, line)`` of each seat the table message ``shown`` lists (a lobby's seat
    lines, or a board's heads)."""
    out: list[tuple[str, int, str]] = []
    text = _text(shown)
    on_board = _hand_no(text) is not None
    for line in text.splitlines():
        name, stack = "", ""
        m = _LOBBY_SEAT.match(line)
        if m and not on_board:
            name = m.group("name")
            digits = re.search(r"(\d+)\)?$", m.group("status"))
            stack = digits.group(1) if digits else ""
        b = _BOARD_HEAD.match(line)
        if b and on_board:
            name, stack = b.group("name"), b.group("stack")
        if name and stack:
            out.append((name, int(stack), line))
    return out


# -- the database, read back --------------------------------------------------------------------


@dataclass(frozen=True)
class _Hand:
    id: int
    table_id: int
    number: int
    result: dict[str, Any]
    players: dict[str, int]


@dataclass(frozen=True)
class _Row:
    id: int
    kind: str
    player_id: int
    table_id: int | None
    hand_id: int | None
    balance_delta: int
    stack_delta: int


@dataclass
class _Facts:
    players: dict[int, tuple[str, str]]  # id → (user id, name)
    balances: dict[int, int]
    stacks: dict[tuple[int, int], int]
    tables: dict[int, bool]  # id → open
    hands: dict[int, _Hand]
    ledger: list[_Row]

    _QUERIES: ClassVar[dict[str, str]] = {
        "players": "SELECT id, user_id, name, balance FROM players",
        "stacks": "SELECT table_id, player_id, stack FROM table_stacks",
        "tables": "SELECT id, open FROM tables",
        "hands": "SELECT id, table_id, number, result, players FROM hands",
        "ledger": "SELECT id, kind, player_id, table_id, hand_id, balance_delta, stack_delta"
        " FROM ledger ORDER BY id",
    }

    @classmethod
    def _from_rows(cls, rows: Mapping[str, Sequence[Sequence[Any]]]) -> _Facts:
        return cls(
            {int(i): (str(u), str(n)) for i, u, n, _ in rows["players"]},
            {int(i): int(b) for i, _, _, b in rows["players"]},
            {(int(t), int(p)): int(s) for t, p, s in rows["stacks"]},
            {int(i): bool(o) for i, o in rows["tables"]},
            {
                int(i): _Hand(int(i), int(t), int(n), json.loads(r), json.loads(p))
                for i, t, n, r, p in rows["hands"]
            },
            [
                _Row(
                    int(i),
                    str(k),
                    int(p),
                    None if t is None else int(t),
                    None if h is None else int(h),
                    int(b),
                    int(s),
                )
                for i, k, p, t, h, b, s in rows["ledger"]
            ],
        )

    @classmethod
    def read(cls, db: Path) -> _Facts:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
        try:
            return cls._from_rows(
                {name: conn.execute(sql).fetchall() for name, sql in cls._QUERIES.items()}
            )
        finally:
            conn.close()

    @classmethod
    async def read_postgres(cls, url: str) -> _Facts:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                rows = {name: await conn.fetch(sql) for name, sql in cls._QUERIES.items()}
        finally:
            await conn.close()
        return cls._from_rows({name: [tuple(r) for r in found] for name, found in rows.items()})

    def hand(self, table: int, number: int) -> _Hand | None:
        """The hand players saw as ``number`` (its title's; storage's own number but for
        the settlements recorded between hands before it, ``shown_no``). A settlement
        recorded apart (``round_end``, ``game_end``: :func:`bot.service.dealing.settle_apart`)
        is no hand: its storage number is the next hand's shown one (the round settled
        before hand 3 is stored as 3, hand 3 as 4 with ``shown_no`` 3), and it was taken for
        that hand, its kush checked against hand 3's showdown."""
        return next(
            (
                h
                for h in self.hands.values()
                if h.table_id == table
                and _shown(h) == number
                and not any(h.result.get(k) for k in _APART)
            ),
            None,
        )

    def player_by_name(self, name: str) -> int | None:
        return next((i for i, (_, n) in self.players.items() if n == name), None)

    def player_by_user(self, user_id: str) -> int | None:
        return next((i for i, (u, _) in self.players.items() if u == user_id), None)

    def open_table(self) -> int | None:
        return next((t for t, is_open in sorted(self.tables.items()) if is_open), None)


def _check_shown_kush(facts: _Facts, hand: _Hand, text: str) -> list[str]:
    """The kush a showdown shows (``+6 kush → 206``) against the ledger: the hand's row for
    the player and the player's stack right after the hand's rows."""
    problems: list[str] = []
    rows = [r for r in facts.ledger if r.hand_id == hand.id]
    cutoff = max((r.id for r in rows), default=None)
    for line in text.splitlines():
        m = _KUSH.match(line)
        if m is None:
            continue
        name = m.group("name").strip()
        pid = facts.player_by_name(name)
        if pid is None:
            continue
        delta = sum(r.stack_delta for r in rows if r.player_id == pid)
        stack = sum(
            r.stack_delta
            for r in facts.ledger
            if r.player_id == pid
            and r.table_id == hand.table_id
            and cutoff is not None
            and r.id <= cutoff
        )
        if (int(m.group("delta").replace("−", "-")), int(m.group("stack"))) != (delta, stack):
            problems.append(
                f"hand {hand.number}: shows {name} {m.group('delta')} → {m.group('stack')}, "
                f"the ledger has {delta:+d} → {stack}"
            )
    return problems


def _check_buy_ins(facts: _Facts) -> list[str]:
    """One buy-in per seating: between two buy-ins of a player at a table, a cash-out."""
    problems: list[str] = []
    seq: dict[tuple[int, int], list[_Row]] = defaultdict(list)
    for r in facts.ledger:
        if r.table_id is not None and r.kind in ("buy_in", "cash_out", "refund"):
            seq[(r.table_id, r.player_id)].append(r)
    for (table, pid), rows in seq.items():
        for a, b in itertools.pairwise(rows):
            if a.kind == "buy_in" and b.kind == "buy_in":
                name = facts.players[pid][1]
                problems.append(
                    f"{name} paid a second buy-in at table {table} without leaving "
                    f"(ledger rows {a.id} and {b.id}: {a.stack_delta} + {b.stack_delta})"
                )
    return problems


def _check_leaver(facts: _Facts, leaver: FakeUser) -> list[str]:
    """The leaver is cashed out, and (R8.3) the points they had pending under
    ``settle_per_round`` are settled when they leave: their hand results add up to their
    points (1 kush a point, no stack ran short)."""
    pid = facts.player_by_user(str(leaver.id))
    if pid is None:
        return [f"{leaver.first_name} never played"]
    problems: list[str] = []
    if any(p == pid for (_, p) in facts.stacks):
        problems.append(f"{leaver.first_name} still has a stack after /leave")
    if not any(r.player_id == pid and r.kind == "cash_out" for r in facts.ledger):
        problems.append(f"{leaver.first_name} was never cashed out")
    points = 0
    for h in facts.hands.values():
        seat = next((s for s, p in h.players.items() if p == pid), None)
        for r in h.result.get("seats", []):
            if seat is not None and str(r.get("seat")) == seat:
                points += int(r.get("points", 0))
    kush = sum(
        r.stack_delta for r in facts.ledger if r.player_id == pid and r.kind == "hand_result"
    )
    if kush != points:
        problems.append(
            f"R8.3: {leaver.first_name} left with {points:+d} points over the hands played but "
            f"{kush:+d} kush settled (pending points dropped?)"
        )
    return problems


async def run_once(
    scenario: Scenario, kill: KillPoint, workdir: Path, database_url: str | None = None
) -> RunOutcome:
    """One run (see :class:`CrashRun`), on the SQLite file of ``workdir`` or, given
    ``database_url``, on that PostgreSQL database."""
    return await CrashRun(scenario, kill, workdir, database_url).execute()


def kill_id(kill: KillPoint) -> str:
    """``kill``'s label as a pytest id (letters, digits, ``_#-``)."""
    return re.sub(r"[^A-Za-z0-9_#-]+", "-", kill.label()).strip("-")


def sweep_points(calls: int, commits: int) -> list[KillPoint]:
    """Every kill point of a scenario whose run without a kill made ``calls`` requests and
    ``commits`` commits."""
    points = [KillPoint("call", n) for n in range(1, calls + 1)]
    for n in range(1, commits + 1):
        points.append(KillPoint("commit", n, "before"))
        points.append(KillPoint("commit", n, "after"))
    return points


def format_outcomes(outcomes: Sequence[RunOutcome]) -> str:
    return "\n".join(o.summary() for o in outcomes)
