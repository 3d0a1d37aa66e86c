"""A local sandbox: play a table in the terminal without any token (issue 7).

It runs the real Telegram adapter and table service against the project's own fake Bot API
(:mod:`bot.telegram.fake_api`) on 127.0.0.1, with a SQLite file of its own. The terminal shows
the group chat and your private chat as Telegram would (text and numbered buttons); you press
buttons by number and type commands. Computer players are the service's own (issue 13:
``/addbot [easy|normal|strong]``, :mod:`bot.service.bots`), at a pace set by ``bot_delay``.

Input, one line at a time (also from a pipe, so it can be scripted):

* ``N`` presses button N of your private hand; ``rN`` button N of the newest other private
  message printed with buttons (a ``/replay``'s ◀ ▶: its own letter, so a press meant for it
  never makes a move in your hand); ``gN`` presses button N of the group's table message;
* ``/command …`` is sent to the group (``/newtable``, ``/addbot strong``, ``/stats``,
  ``/replay N`` …), a private-only one (``/hand``) to your private chat;
* ``b …`` acts as Bob, a second member of the group (a tournament needs two, R8.7):
  ``b /command``, ``b gN`` / ``b g LABEL``, ``b N`` (his hand's button N, kept for the
  street as yours), ``b`` alone prints his private chat, ``b auto`` has his hands arranged and
  confirmed for him (``b manual`` stops it; kept for the next start, as ``b name X``).
  His private chat is printed only after a line of his, under its own heading,
  never with the group's or yours (hidden cards, R8.7 as every table);
* ``/quit`` (or end of input, or Ctrl-C) exits.

Timers run in real time (``--hand-seconds`` shortens them); the next start resumes the table
from the SQLite file. Every photo the bot sends (the showdown picture, the ``/stats`` chart,
``/hand``'s board, issue 12) is written next to the SQLite file (``sandbox-picture-N.png``) and
its path printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO, TypeVar

from bot.config import ConfigError
from bot.dblock import hold_database, let_go
from bot.model import Actor, ChatRef, LiveTable
from bot.screens import Payload
from bot.service import TableService, lobby, play
from bot.service.runtime import STORAGE_WAIT
from bot.service.settings import (
    SETTING_WORDS,
    SETTINGS,
    SettingRefused,
    change_setting,
    group_language,
    table_options,
)
from bot.telegram.adapter import TelegramAdapter
from bot.telegram.fake_api import BOT_ID, BOT_USERNAME, ApiCall, FakeTelegram, FakeUser
from bot.telegram.ratelimit import AnswerFirstRateLimiter
from bot.texts import LANGS, tr
from game.cards import Card, parse_cards, shuffled_deck
from game.errors import CardError
from game.hand import acting_order
from game.options import GameKind
from storage.api import CommunitySettings, StorageError
from storage.sqlite import SqliteStore, peek_settings

__all__ = ["SandboxOptions", "run_sandbox", "stored_group_language"]

_T = TypeVar("_T")

#: how a /replay's message begins ("🎬 #12 · table #1 · hand 3"), in every language
REPLAY_MARK = tr("en", "replay.title").split("{")[0]

GROUP_ID = -1000000000001
#: the sandbox group as the service names it
GROUP = ChatRef("telegram", str(GROUP_ID), str(GROUP_ID))
KNOWN_COMMANDS = {
    "/newtable", "/join", "/ready", "/leave", "/sitout", "/back", "/balance", "/top",
    "/history", "/daily", "/rules", "/settings", "/grant", "/closetable", "/help", "/start",
    "/topup", "/addbot", "/removebot", "/stats", "/replay", "/hand", "/kick", "/tournament",
}  # fmt: skip
#: Bob, the sandbox's second member (``b …`` lines, :meth:`Sandbox._bob_line`): a tournament
#: needs two members, and computer players sit at ordinary tables only (R8.7). Before him
#: /tournament was refused: its lobby had nobody else to register (Start: "2+ players").
#: Not 2 or 3: an older sandbox's fake computer players had those ids (:meth:`_resumed_flags`)
BOB_ID = 1001
#: commands the real bot answers only in a private chat: the sandbox sends them there
PRIVATE_COMMANDS = {"/hand"}
TOKEN = "123456:SANDBOX"
#: piped input: how long a button number waits for your move at most, in seconds (the
#: computer players' moves, the next hand's deal, a Chinese Poker reveal come well within it)
PIPED_WAIT_SECONDS = 60.0
#: the bot's question of a fouled Confirm in every language (R2.3): a piped number after it
#: waits as a player would (:meth:`Sandbox._after_foul_question`)
_FOUL_QUESTIONS = frozenset(tr(lang, "err.confirm_fouled") for lang in LANGS)


@dataclass(frozen=True)
class SandboxOptions:
    """How the sandbox runs.

    :ivar db: its SQLite file.
    :ivar bots: computer players seated at start when the table is new (``/addbot`` as many
        times).
    :ivar bot_level: their level (``easy``, ``normal`` or ``strong``, :class:`game.policy.Level`).
    :ivar hand_seconds: each player's time budget per hand (R8.5); the bank is a quarter of it.
        Written to the group at its first start and when ``--hand-seconds`` is given (in
        ``given``); otherwise the group keeps its timers (an admin's ``/settings`` included).
    :ivar bot_delay: seconds a computer player waits before its move, at least: it moves
        between ``bot_delay`` and three times it after its turn begins (the service's
        ``bot_pace``); 0 moves at once.
    :ivar next_hand_delay: seconds between a showdown and the next deal.
    :ivar lang: the language of the sandbox's player (``en`` or ``ru``): the bot's texts and
        the sandbox's hints, notes and help come in it while the group's ``language`` setting
        is auto; a language set there wins (:attr:`Sandbox.lang`).
    :ivar given: the command-line flags given explicitly (``"bots"``, ``"bot_level"``,
        ``"hand_seconds"``, ``"lang"``): on a resumed table the sandbox says which of them
        wait for the next table, and when ``--hand-seconds`` applies (at once, or from the
        next match); ``--lang`` sets the group's language (as ``/settings language`` does).
    :ivar decisions_in_process: the computer players' and "Arrange for me"'s decisions in a
        worker process (``DECISIONS_IN_PROCESS``; ``None``: :data:`bot.thinking.IN_PROCESS`).
    :ivar storage_wait: seconds a press, a command or a timer's step waits for the sandbox's
        SQLite file in all (``STORAGE_WAIT_SECONDS``, as the bot: :attr:`Runtime.storage_wait
        <bot.service.runtime.Runtime.storage_wait>`); it waited the default second whatever
        the setting (another process's lock on the file).
    :ivar fantasyland: ``--fantasyland``: the player's next Pineapple hand of this start is
        dealt :data:`FANTASYLAND_STREETS` (a board that reaches Fantasyland, R6.1), the rest
        of the deck shuffled as ever (:func:`fantasyland_deck`).
    """

    db: Path = Path("sandbox.sqlite3")
    bots: int = 1
    bot_level: str = "normal"
    hand_seconds: float = 120.0
    bot_delay: float = 0.4
    next_hand_delay: float = 4.0
    lang: str = "en"
    given: frozenset[str] = frozenset()
    decisions_in_process: bool | None = None
    storage_wait: float = STORAGE_WAIT
    fantasyland: bool = False

    def __post_init__(self) -> None:
        sandbox_timers(self.hand_seconds)  # a value the setting refuses is refused here

    def opening_lang(self) -> str:
        """The language (``"en"``/``"ru"``) of what a start says before the sandbox's group is
        read (bot.__main__'s first lines, a busy file's refusal): :attr:`lang` when ``--lang``
        is given (in :attr:`given`), else the one the group's ``language`` setting holds in
        :attr:`db` (:func:`stored_group_language`), else :attr:`lang`. A resumed Russian
        sandbox started without ``--lang`` said its first lines in English, its next one
        already Russian. Raises nothing (an unreadable file gives :attr:`lang`)."""
        if "lang" in self.given:
            return self.lang
        return stored_group_language(self.db) or self.lang

    @property
    def bot_pace(self) -> tuple[float, float]:
        """The service's ``bot_pace``: seconds (least, most) before a computer player moves."""
        return (self.bot_delay, 3 * self.bot_delay)


def stored_group_language(db: Path) -> str | None:
    """The language (``"en"``/``"ru"``) the sandbox group's ``language`` setting holds in the
    sandbox file ``db``, read without opening it for play (read-only, nothing made or
    written: :func:`storage.sqlite.peek_settings`); ``None`` for ``auto``, a fresh or missing
    file, or one that cannot be read (its start says why, :meth:`Sandbox.start`). A start
    without ``--lang`` prints its first lines (why the sandbox starts, the file it plays on)
    in it: they came out in English above a Russian group's sandbox, the next line
    already Russian."""
    settings = peek_settings(db, "telegram", str(GROUP_ID))  # (as Sandbox.start reads it)
    return group_language(settings) if settings is not None else None


def sandbox_timers(hand_seconds: float) -> dict[str, float]:
    """The timer settings ``--hand-seconds`` gives the sandbox's group: ``hand_seconds`` itself,
    a time bank of a quarter of it (at least 5 s) and 1.5 times it for a Fantasyland hand, each
    kept within its setting's range (a Fantasyland hand gets at most the setting's 3600 s).

    :raises SettingRefused: for a value the ``hand_seconds`` setting does not take (nothing is
        applied)."""
    hand = float(SETTINGS["hand_seconds"].parse(hand_seconds))
    wanted = {
        "hand_seconds": hand,
        # (whole seconds, as the settings take them: 30 s gives a bank of 8, not 7.5)
        "time_bank_seconds": max(5.0, float(int(hand / 4 + 0.5))),
        "fantasyland_seconds": float(int(hand * 1.5 + 0.5)),
    }
    return {
        name: min(max(value, SETTINGS[name].low), SETTINGS[name].high)
        for name, value in wanted.items()
    }


#: ``--fantasyland``: the player's cards street by street (Pineapple: 5, then 3 keeping 2):
#: Q♥ Q♦ on top with any third card, 6 6 6 4 3 in the middle and 8 8 8 5 5 at the bottom
#: reach Fantasyland (R6.1: Queens on top, the board not fouled); the 7♣, 9♦, J♠ and T♥ are
#: the discards
FANTASYLAND_STREETS: tuple[tuple[Card, ...], ...] = tuple(
    tuple(parse_cards(street))
    for street in ("Qh Qd 8c 8d 8h", "6c 6d 7c", "6h 5c 9d", "5d 4d Js", "3c 2d Th")
)


def fantasyland_deck(order: Sequence[int], seat: int) -> list[Card] | None:
    """A Pineapple deck that deals board ``seat`` :data:`FANTASYLAND_STREETS`, the boards in
    acting ``order`` (:func:`game.hand.acting_order`) dealt street by street as
    :class:`game.hand.Hand` deals them, every other card shuffled with the CSPRNG (R1.1);
    ``None`` when the streets do not fit (more than two other boards)."""
    mine = [c for street in FANTASYLAND_STREETS for c in street]
    rest = [c for c in shuffled_deck() if c not in mine]
    deck: list[Card] = []
    for street in FANTASYLAND_STREETS:
        for board in order:
            if board == seat:
                deck.extend(street)
            else:
                if len(rest) < len(street):
                    return None
                deck.extend(rest[: len(street)])
                del rest[: len(street)]
    return deck + rest


@dataclass
class _Screen:
    message_id: int
    text: str
    rows: list[list[tuple[str, str]]]  # rows of (label, callback data)

    @property
    def buttons(self) -> list[tuple[str, str]]:
        return [b for row in self.rows for b in row]


@dataclass
class Sandbox:
    """The running sandbox: fake Telegram, adapter, service and the human; the computer
    players are the service's (seated with ``/addbot``, they have no chat of their own)."""

    opts: SandboxOptions
    out: TextIO
    fake: FakeTelegram = field(default_factory=lambda: FakeTelegram(TOKEN, open_private=True))
    #: named after the login (``USER``); without one "Player" in the player's language
    #: (``--lang``): never "You", which the group's notices of a player read wrong with
    human: FakeUser = field(
        default_factory=lambda: FakeUser(1, os.environ.get("USER", "").title(), "you", "en")
    )
    #: Bob, the group's second member (``b …`` lines): named in the sandbox's language
    bob: FakeUser = field(default_factory=lambda: FakeUser(BOB_ID, "", "bob", "en"))
    #: ``b auto``: Bob's hands are arranged and confirmed for him as soon as they are his move;
    #: kept on the database's side file with his name (:meth:`_bob_file`) for the next start
    bob_auto: bool = False
    _bob_named: bool = False  # ``b name X``: his name is X, not "Bob" in the sandbox's language
    _bob_by_default: bool = False  # no name given: "Bob" in the sandbox's language (Боб)
    #: the street of Bob's hand whose "Bob's move" line was printed (:meth:`_prompt_bob`)
    _bob_prompted: tuple[int, str, frozenset[str]] | None = None
    _bob_again: bool = False  # a bare "b": his hand printed again, changed or not
    _bob_task: asyncio.Task[None] | None = None
    service: TableService | None = None
    adapter: TelegramAdapter | None = None
    store: SqliteStore | None = None
    _lock: int | None = None  # the descriptor whose flock says this sandbox runs on the file
    _printed: dict[tuple[int, int], tuple[int, str, str]] = field(default_factory=dict)
    _dirty: set[int] = field(default_factory=set)
    _group_calls: list[ApiCall] = field(default_factory=list)  # group writes not yet printed
    _private_calls: list[ApiCall] = field(default_factory=list)  # private writes, in order
    _private_written: dict[int, int] = field(default_factory=dict)  # message id → write no.
    _private_writes: int = 0
    _other_focus: int | None = None  # the private message (not the hand) whose buttons rN press
    # the newest replay printed has one frame (a Chinese Poker hand): no ◀ ▶ for rN to press
    _one_frame: bool = False
    _pictures: list[tuple[str, Path]] = field(default_factory=list)  # written, not printed
    # commands waiting for their answer: its » line comes first, then the screens and the
    # pictures it caused (the background printer printed "» Ready: 200 kush moved to the
    # table." under the first hand's screens, "» Table #3 is open." under its message)
    _hold: int = 0
    _printer: asyncio.Task[None] | None = None
    _last_reply: str | None = None  # the text of the bot's newest reply in the group
    _hand_seconds_before: float | None = None  # the group's hand_seconds before this start
    _group_lang_set: bool = False  # the group's language setting is en or ru, not auto
    closed_output: bool = False
    quit: asyncio.Event | None = None
    #: the language of every text of the sandbox's own (notes, hints, headings, "no such
    #: button"): the one the bot answers its player in, in the group (:meth:`_group_lang`: the
    #: group's ``language`` setting, else ``--lang``); read again after each command, so
    #: ``/settings language ru`` turns them Russian with the bot's replies
    lang: str = ""
    _named_by_default: bool = False  # no login name: "Player" / "Игрок"
    #: the table's version before your seat took the name of the language a ``/settings
    #: language`` command was about to set (:meth:`_name_player`): stored once it is answered
    _renamed_before: int | None = None
    #: the commands come from a pipe or a file, not a terminal (:func:`run_sandbox`): a
    #: button number waits for your move, as a player at the terminal does (:meth:`_my_move`)
    piped: bool = False
    _fantasyland_due: bool = False  # --fantasyland: the player's next hand is stacked
    #: the hand ``--fantasyland`` stacked, until the table deals its next one: table id,
    #: hand number (storage's, then the one players see) and the player's board seats
    #: (:meth:`_fantasyland_deal`); a hand that earned none is said then, with how to have
    #: another (the flag stacks one hand a start)
    _fantasyland_dealt: tuple[int, int, int, tuple[int, ...]] | None = None
    #: a numbered Leave asked about (:meth:`_press_group`): the group message, the number and
    #: the user who typed it (you or Bob); the same ``gN`` as the next line leaves, any
    #: other line drops the question
    _leave_asked: tuple[int, int, int] | None = None
    #: the hand buttons' numbers kept for a street (:meth:`_hand_numbers`), by private chat
    #: (yours, Bob's): the street (:func:`_street_of`) and each button's number and label as
    #: last printed, by what the button does (:func:`_button_key`)
    _streets: dict[int, tuple[int, str, frozenset[str]]] = field(default_factory=dict)
    _numbers: dict[int, dict[tuple[str, str], tuple[int, str]]] = field(default_factory=dict)
    #: when a fouled Confirm was last asked about (the event loop's time): a piped number
    #: waits until :data:`bot.service.play.FOUL_CONFIRM_MIN_SECONDS` after it
    #: (:meth:`_after_foul_question`)
    _foul_asked_at: float | None = None

    def __post_init__(self) -> None:
        self.lang = self.lang or self.opts.lang
        self._named_by_default = not self.human.first_name
        name = self.human.first_name or tr(self.lang, "sandbox.player")
        self.human = replace(self.human, first_name=name, language_code=self.opts.lang)
        self._bob_by_default = not self.bob.first_name
        bob = self.bob.first_name or tr(self.opts.lang, "sandbox.bob")
        self.bob = replace(self.bob, first_name=bob, language_code=self.opts.lang)

    # -- life cycle --------------------------------------------------------------------------

    async def start(self) -> None:
        # update ids that an earlier session on the same file never used (milliseconds now)
        self.fake.number_updates_from(int(time.time() * 1000))
        await self.fake.start()
        self.fake.group(GROUP_ID, tr(self.lang, "sandbox.group_name"))
        self.fake.admins[GROUP_ID] = {self.human.id}  # you run the sandbox group
        self.fake.listeners.append(self._on_call)
        fresh = not self.opts.db.exists()
        try:  # before the store opens it: refused, nothing is opened (bot.dblock)
            self._lock = hold_database(self.opts.db)
        except OSError:  # (a folder that does not exist: the store's open says so)
            self._lock = None
        else:
            if self._lock is None:  # another sandbox, or a bot, runs on the file
                # (in the language of the lines above it, bot.__main__)
                lang = self.opts.opening_lang()
                raise ConfigError(tr(lang, "sandbox.db_busy", path=self.opts.db))
        try:
            self.store = await SqliteStore.open(self.opts.db)
        except StorageError as exc:
            if fresh:  # (the lock made it empty)
                self.opts.db.unlink(missing_ok=True)
            reason = str(exc).removeprefix("SQLite error: ")
            raise ConfigError(
                tr(self.opts.lang, "sandbox.db_error", path=self.opts.db, reason=reason)
            ) from None
        self._load_bob(fresh=fresh)
        community = await self.store.community("telegram", str(GROUP_ID))
        self._hand_seconds_before = table_options(community.settings).hand_seconds
        group_lang = group_language(community.settings)
        self._group_lang_set = group_lang is not None
        self.lang = group_lang or self.opts.lang
        self._name_group()
        options = dict(community.settings.options)
        timers = sandbox_timers(self.opts.hand_seconds)
        replaced = []
        if "hand_seconds" in self.opts.given or not timers.keys() & options.keys():
            # the flag given, or a group that never had its timers (a fresh file): the flag
            # resets what an admin set with /settings, said in one line (a new table, opened
            # after /closetable, said nothing of it)
            replaced = [
                f"{name} {float(options[name]):g} → {value:g}"
                for name, value in timers.items()
                if name in options and float(options[name]) != value
            ]
            options.update(timers)
            await self.store.update_settings(
                community.id,
                CommunitySettings.from_json({**community.settings.to_json(), "options": options}),
            )
        self.service = TableService(
            self.store,
            next_hand_delay=self.opts.next_hand_delay,
            bot_pace=self.opts.bot_pace,
            decisions_in_process=self.opts.decisions_in_process,
            storage_wait=self.opts.storage_wait,
        )
        if self.opts.fantasyland:
            self._fantasyland_due = True
            self.service.rt.deal_source = self._fantasyland_deal
        limiter = AnswerFirstRateLimiter(overall_max_rate=0, group_max_rate=0)
        self.adapter = TelegramAdapter(
            self.service, TOKEN, self.fake.base_url, rate_limiter=limiter
        )
        await self.adapter.start(poll_interval=0.0)
        await self.service.start()
        await self.adapter.look_at_restored()  # (as the composition root, bot/app.py)
        self._printer = asyncio.create_task(self._print_loop())
        self._bob_task = asyncio.create_task(self._bob_loop())
        table = self.service.table_in(GROUP)
        resumed = table is not None
        seat = table.seat_of(str(self.human.id)) if table is not None else None
        if self._named_by_default:
            # the name the table knows the player by (an earlier start's "Player" under
            # "--lang ru": the heading said "личный чат · Игрок" until a command renamed the
            # seat), else "Player" in the sandbox's language
            name = seat.name if seat is not None else tr(self.lang, "sandbox.player")
            self.human = replace(self.human, first_name=name)
        flag = self.opts.lang
        given = "lang" in self.opts.given
        if given and group_lang is None and (table is None or table.lang == flag):
            # "--lang ru" on a group that speaks it already (a fresh file, or a table opened
            # in it while the group's language is auto): the flag sets the group's language
            # as /settings language ru would, silently. It left the group auto, so a later
            # start without the flag answered in English under a Russian table (issue nu38.1)
            await self._set_group_language(flag)
            self._group_lang_set = True
        elif not given and group_lang is None and table is not None and table.lang != flag:
            # a plain start on a table opened in another language while the group's language
            # is auto (set back with /settings language auto after "--lang ru", or a table an
            # older sandbox opened under "--lang ru"): you play in the table's language this
            # start (the bot answers you in it, under auto), said with how to switch. The
            # group's setting is left as it is: the start set it to the table's, undoing the
            # admin's "auto" unasked (fixnu39); before that it said "» --lang en: …", never
            # typed, and replied in English under the Russian table
            self.human = replace(self.human, language_code=table.lang)
            if self._named_by_default and seat is None:
                self.human = replace(self.human, first_name=tr(table.lang, "sandbox.player"))
            self.lang = table.lang
            self._name_group()
            self.line(tr(self.lang, "sandbox.table_lang_kept", flag=flag))
        elif given and (
            (group_lang is not None and group_lang != flag)
            or (group_lang is None and table is not None and table.lang != flag)
        ):
            # "--lang ru" where the group speaks English (its language set so, or a table
            # opened in English while it is auto): the group is switched, as its admin would
            # switch it with /settings language ru (the table and your hand's screens at
            # once, a hand under way included). The table stayed English, said in one line
            # among the first ones, until /settings language ru
            self.line(tr(flag, "sandbox.lang_switched", flag=flag))
            await self.say(f"/settings language {flag}")
            self._group_lang_set = True
        elif self._group_lang_set and self.lang != flag:
            # a plain start (the terminal's language, or English) in a group set to another:
            # after /settings language ru, /quit and `python -m bot` it all came back in
            # Russian without a word; said once, with how to switch
            self.line(tr(self.lang, "sandbox.group_lang_resumed", flag=flag))
        if replaced:
            self.line(
                tr(
                    self.lang,
                    "sandbox.timers_replaced",
                    value=f"{self.opts.hand_seconds:g}",
                    settings=", ".join(replaced),
                )
            )
        if table is None:
            await self.new_table()
            table = self.service.table_in(GROUP)
        else:
            for note in self._resumed_flags(table):
                self.line(note)
        if self.opts.fantasyland:
            cards = " ".join(str(card) for card in FANTASYLAND_STREETS[0])
            self.line(tr(self.lang, "sandbox.fantasyland", cards=cards))
        self.line(self._what_to_press(table, resumed=resumed))
        if self._bob_by_default and not self._bob_named:
            # in the language the sandbox speaks this start, as the table knows him once
            # seated: a Russian group started without "--lang ru" printed «… Bob (b g
            # участвовать …)», his name in the flag's language (nu56)
            bob_seat = table.seat_of(str(self.bob.id)) if table is not None else None
            name = bob_seat.name if bob_seat is not None else tr(self.lang, "sandbox.bob")
            self.bob = replace(self.bob, first_name=name)
        if self.bob_auto:
            self.line(tr(self.lang, "sandbox.bob_auto_kept", bob=self.bob.first_name))
        self.line(tr(self.lang, "sandbox.help", bob=self.bob.first_name))

    def _fantasyland_deal(
        self,
        t: LiveTable,
        seats: tuple[int, ...],
        button: int,
        fantasyland: Mapping[int, int],
        owners: Mapping[int, int],
    ) -> list[Card] | None:
        """The service's ``deal_source`` under ``--fantasyland``: the first Pineapple hand of
        this start that deals the player, with no Fantasyland board in it, gets
        :func:`fantasyland_deck` on the player's (first) board; every other hand the usual
        deck (``None``)."""
        self._fantasyland_missed(t)
        seat = t.seat_of(str(self.human.id))
        if not self._fantasyland_due or seat is None or t.options.game is not GameKind.PINEAPPLE:
            return None
        if fantasyland:  # (a Fantasyland hand is dealt first: the next ordinary one, then)
            return None
        order = acting_order(seats, button)
        mine = [s for s in order if owners.get(s, s) == seat.seat]
        deck = fantasyland_deck(order, mine[0]) if mine else None
        if deck is not None:
            self._fantasyland_due = False
            self._fantasyland_dealt = (t.id, t.hand_no + 1, t.shown_no + 1, tuple(mine))
        return deck

    def _fantasyland_missed(self, t: LiveTable) -> None:
        """Before table ``t`` deals its next hand: if the hand ``--fantasyland`` stacked was
        its last one and earned the player no Fantasyland (R6.1: the Queens not kept on top,
        or the board fouled), say so and how to be dealt it again (a new start with the
        flag: it stacks one hand a start). Said once; a hand that earned it says nothing here
        (its showdown says "🌴 Fantasyland next")."""
        dealt = self._fantasyland_dealt
        if dealt is None or dealt[0] != t.id:
            return
        self._fantasyland_dealt = None
        _, hand_no, shown, boards = dealt
        if t.hand_no != hand_no or t.match is None:  # (another hand between: not said)
            return
        # what the hand earned (R6.1), on either board of the player's (double boxes, R4.2)
        if not any(t.match.fantasyland.get(b, 0) for b in boards):
            self.line(tr(self.lang, "sandbox.fantasyland_missed", hand=shown))

    def _resumed_flags(self, table: LiveTable) -> list[str]:
        """What a resumed table says first: computer players of an older sandbox seated at it
        (fake users, not the service's ``bot:…`` players: nothing moves for them any more);
        ``--fast`` applies at once, ``--bots`` and ``--bot-level`` wait for the next table, and
        a different ``--hand-seconds`` (a group setting) applies as a settings change does: at
        once between matches (said too), else from the next match."""
        notes = []
        old = [
            s.name
            for s in sorted(table.seats.values(), key=lambda s: s.seat)
            if not s.bot
            and not s.user_id.startswith("bot:")
            and s.user_id not in (str(self.human.id), str(self.bob.id))
        ]
        if old:
            notes.append(tr(self.lang, "sandbox.old_bots", names=", ".join(old)))
        waiting = [f for f, name in (("--bots", "bots"), ("--bot-level", "bot_level"))
                   if name in self.opts.given]  # fmt: skip
        if waiting:
            key = "sandbox.new_table_flag" if len(waiting) == 1 else "sandbox.new_table_flags"
            notes.append(tr(self.lang, key, first=waiting[0], second=waiting[-1]))
        # the flags are the group's settings: the resumed table took them as a settings change
        # would (.service.settings.reconcile), at once between matches, else from the next one
        lang, given = self.lang, self.opts.hand_seconds
        kept = float(table.options.hand_seconds)
        coming = table.pending_options.hand_seconds if table.pending_options else kept
        changed = kept != given or self._hand_seconds_before not in (None, given)
        if "hand_seconds" in self.opts.given and changed:
            if kept == given:  # between matches: taken at once
                key = "sandbox.hand_seconds_now"
            elif coming == given:
                key = "sandbox.hand_seconds_match"
            else:  # a tournament table keeps its options (R8.7)
                key = "sandbox.hand_seconds_table"
            notes.append(tr(lang, key, value=f"{given:g}", kept=f"{kept:g}"))
        return notes

    def _what_to_press(self, table: LiveTable | None, *, resumed: bool) -> str:
        """The first hint: what to press now, from the table's state (issue 12)."""
        lang = self.lang
        seat = table.seat_of(str(self.human.id)) if table is not None else None
        if table is None or seat is None:
            return tr(lang, "sandbox.join")
        back = tr(lang, "sandbox.back") if resumed else ""
        hand, chinese = table.hand, table.chinese
        playing = [] if hand is None else list(hand.order)
        if chinese is not None and not chinese.over:
            playing += list(chinese.totals)
        if seat.seat in playing and table.reveal is not None:
            # the hand is placed and being revealed box by box (R7.4): no hand buttons now
            return back + tr(lang, "sandbox.revealing")
        if seat.seat in playing:
            return back + tr(lang, "sandbox.play")
        if seat.sitting_out:  # (R8.6: dealt in again only after /back)
            key = "sandbox.sitting_out" if seat.timed_out else "sandbox.sitting_out_self"
            return back + tr(lang, key)
        if hand is not None or playing:
            return back + tr(lang, "sandbox.next_hand")
        if not seat.ready:
            ready = self._group_button("r") or tr(lang, "sandbox.ready_button")
            return back + tr(lang, "sandbox.ready", button=ready)
        return back + tr(lang, "sandbox.waiting")

    def _group_button(self, action: str) -> str | None:
        """``gN`` of the group message's button with this action, if shown."""
        shown = self.screen(GROUP_ID)
        for i, (_, data) in enumerate(shown.buttons if shown else (), 1):
            p = Payload.decode(data)
            if p is not None and p.action == action:
                return f"g{i}"
        return None

    async def stop(self) -> None:
        if self.service is not None:
            await self.service.stop()
        await self.fake.release_polls()
        if self.adapter is not None:
            await self.adapter.stop()
        for task in (self._printer, self._bob_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.store is not None:
            await self.store.close()
        let_go(self._lock)  # the file's flock (after the store: see bot.dblock)
        self._lock = None
        await self.fake.stop()

    # -- output ------------------------------------------------------------------------------
    def line(self, text: str) -> None:
        if self.closed_output:
            return
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except (BrokenPipeError, ValueError):  # e.g. `python -m bot | head`
            self.closed_output = True
            if self.quit is not None:
                self.quit.set()

    def _on_call(self, call: ApiCall) -> None:
        chat = int(call.params.get("chat_id", 0))
        if chat == self.bob.id:  # Bob's private chat: printed after a line of his only
            if call.method == "sendPhoto" and call.files:  # (his /hand's board: b /hand)
                self._save_picture(next(iter(call.files.values())), "sandbox.picture_bob")
            return
        if call.method == "sendPhoto" and call.files:
            if chat == self.human.id:
                what = "sandbox.picture_board"  # /hand's board
            elif call.params.get("reply_parameters"):
                what = "sandbox.picture_chart"  # /stats: the kush chart answers the command
            else:
                what = "sandbox.picture_showdown"
            self._save_picture(next(iter(call.files.values())), what)
            return
        if call.method not in ("sendMessage", "editMessageText", "editMessageReplyMarkup"):
            return
        if chat == GROUP_ID and call.params.get("reply_parameters"):
            self._last_reply = str(call.params.get("text", ""))  # say() prints it as » …
        elif chat == GROUP_ID:
            self._group_calls.append(call)  # every write, not just the newest state
        elif chat == self.human.id:
            self._private_calls.append(call)  # which private message was written last
        if chat in (GROUP_ID, self.human.id):
            self._dirty.add(chat)

    def _save_picture(self, png: bytes, what: str) -> None:
        """Write a photo the bot sent next to the database, as the first free
        ``<db name>-picture-N.png``; its path is printed after the messages after ``what``
        (the key of its name in :mod:`bot.texts`, printed in the player's language)."""
        folder, stem = self.opts.db.resolve().parent, self.opts.db.stem
        taken = {path for _, path in self._pictures}
        n = 1
        while (path := folder / f"{stem}-picture-{n}.png").exists() or path in taken:
            n += 1
        try:
            path.write_bytes(png)
        except OSError as exc:
            self.line(tr(self.lang, "sandbox.picture_failed", error=exc))
            return
        self._pictures.append((what, path))
        self._dirty.add(GROUP_ID)

    def screen(self, chat: int) -> _Screen | None:
        """The newest bot message in a chat that matters: the table message with buttons in the
        group; in private the hand message while it has buttons, else the other message whose
        buttons were printed last (a ``/replay``), else the newest message."""
        msgs = self.fake.chat_messages(chat)
        if not msgs:
            return None
        hand = self._hand_message(chat)
        other = self.other_screen(chat)
        if hand is not None and (_buttons(hand) or other is None):
            return _Screen(hand["message_id"], hand["text"], _buttons(hand))
        if other is not None:
            return other
        m = msgs[-1]
        return _Screen(m["message_id"], m["text"], _buttons(m))

    def numbered(self, chat: int) -> list[tuple[int, str]]:
        """The buttons of the chat's current screen (:meth:`screen`) as (number, label), with
        the numbers the sandbox prints for them and takes: your hand's kept for the street
        (:meth:`_hand_numbers`), the others' in order from 1."""
        shown = self.screen(chat)
        if shown is None:
            return []
        hand = self._hand_message(chat) if chat > 0 else None
        if hand is not None and hand["message_id"] == shown.message_id:
            numbered = self._hand_numbers(chat, shown.message_id, shown.rows)
            return [(n, label) for row in numbered for n, label, _ in row]
        return [(n, label) for n, (label, _) in enumerate(shown.buttons, 1)]

    def other_screen(self, chat: int) -> _Screen | None:
        """The private message other than the hand whose buttons were printed last (``rN``),
        while it has buttons."""
        if chat < 0 or self._other_focus is None:
            return None
        m = self.fake.messages.get((chat, self._other_focus))
        if m is None or not _buttons(m):
            return None
        return _Screen(m["message_id"], m["text"], _buttons(m))

    def _hand_message(self, chat: int) -> dict[str, Any] | None:
        """The group's table message, or the private hand message of the chat's user."""
        if self.service is None:
            return None
        for t in self.service.tables.values():
            ref = None
            if chat == GROUP_ID and t.chat_id == str(GROUP_ID):
                ref = t.group_ref
            elif chat > 0:
                seat = t.seat_of(str(chat))
                ref = seat.private_ref if seat else None
            if ref is not None and ref.isdigit() and (chat, int(ref)) in self.fake.messages:
                return self.fake.messages[(chat, int(ref))]
        return None

    async def _print_loop(self) -> None:
        """Print what changed (:meth:`print_changes`) every 50 ms while no command waits for
        its answer (:attr:`_hold`). A round that fails is logged and the next one goes on:
        it ended the loop, and nothing the bot wrote in the background (a computer player's
        move, the next hand, a timer) was printed any more."""
        while True:
            await asyncio.sleep(0.05)
            if not self._hold:  # (a command's answer first: :attr:`_hold`)
                try:
                    await self.print_changes()
                except Exception:
                    logging.getLogger("bot.sandbox").exception("printing the chats failed")

    async def print_changes(self) -> None:
        """Print every bot message of the group and of your private chat that changed since it
        was last printed (the showdown record included), with its buttons numbered, then the
        paths of the photos written since."""
        for chat in sorted(self._dirty, reverse=True):
            self._dirty.discard(chat)
            if chat == GROUP_ID:
                self._print_group_writes(self.screen(chat))
            else:
                self._print_private(chat)
        while self._pictures and not self._hold:
            what, path = self._pictures.pop(0)
            self.line(f"🖼 {tr(self.lang, what, bob=self.bob.first_name)}: {path}")
        if not self._hold:
            self._prompt_bob()

    def _prompt_bob(self) -> None:
        """Say once a street that it is Bob's move while his moves are typed (not ``b
        auto``): his hand shows its buttons (his private chat is printed only after a line of
        his, and the group's "▶ Bob to act" was all that told). Nothing of his cards: how to
        see them and press (``b``, ``b N``, ``b auto``)."""
        if self.bob_auto:
            return
        message = self._hand_message(self.bob.id)
        rows = _buttons(message) if message is not None else []
        if message is None or not rows:
            return
        street = _street_of(message["message_id"], [b for row in rows for b in row])
        if street == self._bob_prompted:
            return
        self._bob_prompted = street
        self.line(tr(self.lang, "sandbox.bob_move", bob=self.bob.first_name))

    def _print_private(self, chat: int) -> None:
        """Print the private messages that changed, in the order they were last written: the
        hand message with its buttons numbered (N); of the others the last one with buttons
        gets them numbered as ``rN`` (a ``/replay``'s ◀ ▶: rN presses them from then on), the
        rest are printed without."""
        while self._private_calls:  # number the writes in order (a send's id comes with it)
            call = self._private_calls[0]
            if call.method == "sendMessage" and not isinstance(call.result, dict):
                if time.monotonic() - call.at < 5.0:
                    break  # not answered yet
                self._private_calls.pop(0)  # refused: it wrote nothing
                continue
            if call.method == "sendMessage":
                message_id = int(call.result["message_id"])
            else:
                message_id = int(call.params.get("message_id") or 0)
            self._private_calls.pop(0)
            self._private_writes += 1
            self._private_written[message_id] = self._private_writes
        changed = []
        for m in self.fake.chat_messages(chat):
            key = (m["message_id"], m["text"], repr(m.get("reply_markup")))
            if self._printed.get((chat, m["message_id"])) != key:
                self._printed[(chat, m["message_id"])] = key
                changed.append(m)
        changed.sort(key=lambda m: (self._private_written.get(m["message_id"], 0), m["message_id"]))
        hand = self._hand_message(chat)
        hand_id = hand["message_id"] if hand is not None else None
        other = next(
            (m["message_id"] for m in reversed(changed)
             if m["message_id"] != hand_id and _buttons(m)),
            None,
        )  # fmt: skip
        if other is not None:
            self._other_focus = other
            self._one_frame = False
        # a replay of one frame (a Chinese Poker hand is dealt and shown whole) comes without
        # ◀ ▶: rN then said "no replay is open" under the replay just printed
        replay = next(
            (m for m in reversed(changed)
             if m["message_id"] != hand_id and m["text"].startswith(REPLAY_MARK)),
            None,
        )  # fmt: skip
        if replay is not None and not _buttons(replay):
            self._other_focus, self._one_frame = None, True
        printed_hand = False
        for m in changed:
            if m["message_id"] == hand_id:
                self._print_message(chat, m["text"], _buttons(m), message_id=hand_id)
                printed_hand = True
            elif hand is not None and _buttons(hand) and _is_turn_ping(m, hand):
                # the adapter's turn ping ("your move", 10 s without a press: the hand's title
                # and clock lines) was printed as a screen of two lines without buttons, the
                # last thing printed a hand with no numbers: the hand is printed again with
                # its numbered buttons, its clock as the ping says (nothing if just printed)
                if not printed_hand:
                    text = _with_clock(hand["text"], m["text"])
                    self._print_message(chat, text, _buttons(hand), message_id=hand_id)
            else:
                rows = _buttons(m) if m["message_id"] == other else []
                self._print_message(chat, m["text"], rows, prefix="r")

    def _print_group_writes(self, current: _Screen | None) -> None:
        """Print every write to the group in the order it was made, edits of earlier messages
        included (issue 12: a Chinese Poker reveal and its result are edits the next lobby
        follows within milliseconds), those of an earlier message first among the writes
        printed together; only the table message's newest text gets numbered buttons, since
        only those can be pressed."""
        ready: list[tuple[int, str, Any]] = []
        while self._group_calls:
            call = self._group_calls[0]
            if call.method == "sendMessage":
                if not isinstance(call.result, dict):
                    if time.monotonic() - call.at < 5.0:
                        break  # not answered yet: keep the order, print it next time
                    self._group_calls.pop(0)  # refused (say a 429): it wrote nothing
                    continue
                message_id = int(call.result["message_id"])
            else:
                message_id = int(call.params.get("message_id") or 0)
            self._group_calls.pop(0)
            if call.method in ("sendMessage", "editMessageText"):
                ready.append((message_id, str(call.params.get("text", "")), call.params))
            elif (GROUP_ID, message_id) in self.fake.messages:  # new buttons, same text
                text = str(self.fake.messages[(GROUP_ID, message_id)].get("text", ""))
                ready.append((message_id, text, call.params))
        # as the chat shows them: an earlier message's writes before a newer message's (the
        # showdown is an edit of the table message queued in the background, the next lobby a
        # new message sent at once: its sendMessage often went first, so "Next hand in 4
        # seconds…" was printed above the showdown of the hand it follows); stable, so each
        # message's writes stay in the order they were made
        ready.sort(key=lambda write: write[0])
        last = {message_id: n for n, (message_id, _, _) in enumerate(ready)}
        for n, (message_id, text, params) in enumerate(ready):
            # what the chat shows: the text and the buttons' labels; a write under a new
            # version (the buttons' data alone changed: the lobby after a showdown) printed
            # the same message twice, one copy under the other
            key = (message_id, text, repr(_labels(params.get("reply_markup"))))
            if self._printed.get((GROUP_ID, message_id)) == key:
                continue
            self._printed[(GROUP_ID, message_id)] = key
            if "message_id" in params and text == self._last_reply:
                # an edit of an earlier message (the table message) saying what the reply
                # printed as » … says (/closetable: "Table #3 is closed.", the table message
                # losing its buttons): printed once, not the same line twice
                continue
            live = current is not None and current.message_id == message_id
            rows = current.rows if live and current and last[message_id] == n else []
            self._print_message(GROUP_ID, text, rows)

    def _print_message(
        self,
        chat: int,
        text: str,
        rows: list[list[tuple[str, str]]],
        prefix: str = "",
        message_id: int | None = None,
    ) -> None:
        """Print a message with its buttons numbered (``gN`` in the group, ``rN`` with
        ``prefix`` "r"); your hand's (its ``message_id`` given) as :meth:`_hand_numbers` keeps
        them for the street."""
        prefix = "g" if chat == GROUP_ID else prefix
        lang = self.lang  # (the heading is the sandbox's own, in the sandbox's language)
        if chat == GROUP_ID:
            title = tr(lang, "sandbox.group_title")
        else:
            title = tr(lang, "sandbox.private_title", name=self.human.first_name)
        self.line(f"── {title} " + "─" * max(4, 40 - len(title)))
        self.line(text)
        if message_id is not None:
            numbered = self._hand_numbers(chat, message_id, rows, printed=True)
        else:
            numbers = iter(range(1, 1 + sum(len(row) for row in rows)))
            numbered = [[(next(numbers), label, data) for label, data in row] for row in rows]
        for line in _button_lines(numbered, prefix):
            self.line(line)

    # -- input -------------------------------------------------------------------------------
    async def new_table(self, text: str = "/newtable") -> None:
        """Open a table (``/newtable [game]``) and, when one was opened, seat the ``--bots``
        computer players at ``--bot-level``: every new table of the sandbox gets them, not only
        the first one."""
        assert self.service is not None
        before = self.service.table_in(GROUP)
        await self.say(text)
        opened = self.service.table_in(GROUP)
        if opened is not None and opened is not before:
            for _ in range(max(0, self.opts.bots)):
                await self.say(f"/addbot {self.opts.bot_level}")

    async def say(self, text: str) -> None:
        """Send a command to the group as the human and print the bot's reply."""
        start = len(self.fake.calls)
        self._hold += 1  # the answer first, then the screens it caused, a /stats chart
        try:
            # your seat named in the language the command sets before it redraws the table
            # ("▶ Игрок to act" was printed under a Russian sandbox's /settings language en)
            await self._name_player(self._language_set_by(text))
            await self.fake.send_text(self.human, GROUP_ID, text)
            reply = await self._wait(lambda: _reply_after(self.fake, start, GROUP_ID))
            self.lang = await self._group_lang()  # ("/settings language ru" just now)
            await self._name_player()
            if reply:
                # a link to a message of the group ("/newtable" where a table is open) leads
                # nowhere from a terminal: the message it links is printed again under the
                # reply (it said "printed above", which it may have been screens ago, or not)
                text = str(reply.params.get("text", ""))
                linked = self.screen(GROUP_ID) if _GROUP_LINK.search(text) else None
                below = tr(self.lang, "sandbox.link_below") if linked is not None else ""
                text = _GROUP_LINK.sub(below, text).rstrip()
                # replies are printed as text, without their buttons: "/settings all lists
                # every one, with buttons" promised some (/settings all prints none)
                text = text.replace(tr(self.lang, "settings.with_buttons"), "")
                self.line("» " + text.replace("\n", "\n  "))
                if linked is not None:
                    self._print_message(GROUP_ID, linked.text, linked.rows)
            await self._settled()
        finally:
            self._hold -= 1
        if not self._hold:  # (the next command's answer waits for these: /newtable, /addbot)
            await self.print_changes()

    async def _settled(self) -> None:
        """Until the messages of every step taken so far are written: a table command
        (``/addbot``, ``/join`` …) is answered as soon as its step is committed, before they
        go out, and the next line of input presses the buttons they show (a press on the
        table message as it was is out of date)."""
        assert self.service is not None and self.adapter is not None
        for t in list(self.service.tables.values()):
            async with t.lock:  # (a step in progress: committed first)
                pass
            await self.service.rt.settled(t)
        await self.adapter.presenter.flush()

    async def say_private(self, text: str) -> None:
        """Send a command to your private chat (``/hand``) and wait for the bot's answer: a
        photo's caption is printed as a » line (the photo is saved and its path printed), a
        text answer as the private message it is."""
        start = len(self.fake.calls)
        self._hold += 1  # the photo's path is printed after its caption
        try:
            await self.fake.send_text(self.human, self.human.id, text)
            reply = await self._wait(lambda: _private_after(self.fake, start, self.human.id))
            if reply is not None and reply.method == "sendPhoto":
                caption = str(reply.params.get("caption", ""))
                self.line("» " + caption.replace("\n", "\n  "))
        finally:
            self._hold -= 1

    async def press(
        self,
        chat: int,
        number: int,
        *,
        other: bool = False,
        hand: bool = False,
        user: FakeUser | None = None,
    ) -> str | None:
        """Press button ``number`` of the chat's current screen as the human (``other``: of the
        private message ``rN`` presses; ``hand``: of your hand's message only, as a bare ``N``
        does); returns the notice text. A number the screen has no button for is answered
        with the numbers it has, as typed ("g1–g4")."""
        if hand:
            # a bare number never presses another message's buttons: after /closetable (no
            # hand) "1" moved a /replay forward and "17" was told of "that message's only
            # button, 1", the replay's, which is pressed as r1
            message = self._hand_message(chat)
            shown = (
                None
                if message is None
                else _Screen(message["message_id"], message["text"], _buttons(message))
            )
            if shown is None or not shown.buttons:
                key = "sandbox.no_hand" if shown is None else "sandbox.no_hand_buttons"
                return tr(self.lang, key)
            return await self._press_hand(chat, shown, number, user)
        else:
            shown = self.other_screen(chat) if other else self.screen(chat)
        if shown is None and other:
            key = "sandbox.replay_one_frame" if self._one_frame else "sandbox.no_replay"
            return tr(self.lang, key)
        if shown is None or not shown.buttons:
            return tr(self.lang, "sandbox.no_buttons")
        if not 1 <= number <= len(shown.buttons):
            prefix = "r" if other else ("g" if chat == GROUP_ID else "")
            first, last = f"{prefix}1", f"{prefix}{len(shown.buttons)}"
            if len(shown.buttons) == 1:
                return tr(self.lang, "sandbox.one_button", only=first)
            return tr(self.lang, "sandbox.no_button", first=first, last=last)
        return await self._press_data(chat, shown.message_id, shown.buttons[number - 1][1], user)

    async def _press_hand(
        self, chat: int, shown: _Screen, number: int, user: FakeUser | None = None
    ) -> str | None:
        """Press the hand's button ``number`` as printed in ``chat`` (yours, or Bob's as
        ``user``, his numbers ``bN``): the numbers stay with their buttons for the street
        (:meth:`_hand_numbers`). A number whose button has gone since (its box filled: "5"
        was "2♦ Bottom" and became "2♦ ✖ Discard" as the buttons after it moved up, and threw
        the card away) presses nothing: it is answered with what it was and the buttons there
        are now. Bob's were numbered anew at each print: "b 42" (Confirm, printed before his
        Chinese Poker hand's 🪄 Arrange) was "no such button" once his placed cards' buttons
        had gone, the same number another button after other reprints."""
        numbered = self._hand_numbers(chat, shown.message_id, shown.rows)
        here = {n: data for row in numbered for n, _, data in row}
        if number in here:
            return await self._press_data(chat, shown.message_id, here[number], user)
        numbers = self._numbers.get(chat, {})
        gone = next(
            (_with_card(key, label) for key, (n, label) in numbers.items() if n == number),
            None,
        )
        prefix = "b" if user is not None else ""
        if gone is not None:
            buttons = "\n".join(_button_lines(numbered, prefix))
            if user is None:
                return tr(self.lang, "sandbox.button_gone", n=number, button=gone, buttons=buttons)
            return tr(
                self.lang,
                "sandbox.bob_button_gone",
                n=f"b{number}",
                button=gone,
                bob=user.first_name,
                buttons=buttons,
            )
        ordered = sorted(here)
        if len(ordered) == 1:
            return tr(self.lang, "sandbox.one_button", only=f"{prefix}{ordered[0]}")
        first, last = f"{prefix}{ordered[0]}", f"{prefix}{ordered[-1]}"
        return tr(self.lang, "sandbox.no_button", first=first, last=last)

    def _hand_numbers(
        self,
        chat: int,
        message_id: int,
        rows: list[list[tuple[str, str]]],
        *,
        printed: bool = False,
    ) -> list[list[tuple[int, str, str]]]:
        """The hand's buttons ``rows`` in private ``chat`` (yours or Bob's) numbered as the
        street's first screen numbered them, rows of (number, label, data): a button keeps its
        number for the street, whatever comes and goes (a full box's buttons left out, back
        after ↩ Undo), and a number once given is never another button's until the street is
        confirmed. A new street (other cards, another hand or board, :func:`_street_of`)
        numbers its buttons afresh from 1. ``printed``: the labels are the ones now printed,
        which a number gone names."""
        street = _street_of(message_id, [b for row in rows for b in row])
        if street != self._streets.get(chat):
            self._streets[chat], self._numbers[chat] = street, {}
        numbers = self._numbers[chat]
        out = []
        for row in rows:
            cells = []
            for label, data in row:
                key = _button_key(data)
                kept = numbers.get(key)
                n = kept[0] if kept else max((k for k, _ in numbers.values()), default=0) + 1
                if kept is None or printed:
                    numbers[key] = (n, label)
                cells.append((n, label, data))
            out.append(cells)
        return out

    async def _press_data(
        self, chat: int, message_id: int, data: str, user: FakeUser | None = None
    ) -> str | None:
        """Press a button with payload ``data`` on message ``message_id`` of ``chat`` as the
        human (or ``user``: Bob) and wait for the bot's answer; returns the notice text (None
        without one)."""
        qid = await self.fake.press(user or self.human, chat, message_id, data)
        answer = await self._wait(lambda: self.fake.answer_of(qid))
        assert self.adapter is not None
        await self.adapter.presenter.flush()
        text = str(answer.params.get("text") or "") if answer else None
        if text in _FOUL_QUESTIONS:
            self._foul_asked_at = asyncio.get_running_loop().time()
        return text

    async def _after_foul_question(self) -> None:
        """Piped input: wait until :data:`bot.service.play.FOUL_CONFIRM_MIN_SECONDS` after a
        fouled Confirm's question, as a player typing does. The bot takes a second Confirm
        sooner as a double tap and asks again (R2.3), so ``8`` then ``8`` from a pipe was
        asked twice and the hand never confirmed."""
        if self._foul_asked_at is not None:
            since = asyncio.get_running_loop().time() - self._foul_asked_at
            self._foul_asked_at = None
            if since < play.FOUL_CONFIRM_MIN_SECONDS:
                await asyncio.sleep(play.FOUL_CONFIRM_MIN_SECONDS - since)

    async def _press_line(
        self, chat: int, number: int, user: FakeUser | None = None, **kw: bool
    ) -> None:
        """Press (:meth:`press`) and print its notice as a » line before the screens the press
        caused (held meanwhile: :attr:`_hold`), which :meth:`handle` prints next; ``user``
        (Bob) presses a group button as him, his notice named so."""
        self._hold += 1
        try:
            notice = await self.press(chat, number, user=user, **kw)
            if notice:
                self.line("» " + (f"{user.first_name}: " if user else "") + notice)
        finally:
            self._hold -= 1

    async def _press_group(self, number: int, typed: str, user: FakeUser | None = None) -> None:
        """``gN``: press the group message's button ``number``, but a **Leave** that would
        stand you up at once asks first: the group's numbers move as Join comes and goes (a
        full table's lobby is ``[g1] Ready [g2] Leave``), and ``g2`` typed as README's Ready
        left the table. Typing the same ``gN`` again next leaves, as ``g leave`` does. A
        Leave during your hand is pressed at once: the bot itself asks then (R8.5).
        ``user``: Bob's ``b gN`` (``typed`` "b g2"), which asks the same, naming his lines."""
        shown = self.screen(GROUP_ID)
        buttons = shown.buttons if shown is not None else []
        if 1 <= number <= len(buttons) and self._leaves_at_once(buttons[number - 1][1], user):
            who = (user or self.human).id
            key = (shown.message_id if shown else 0, number, who)
            if self._leave_asked != key:
                self._leave_asked = key
                mark = "b " if user is not None else ""
                ready = self._group_button("r")
                hint = tr(self.lang, "sandbox.leave_ready", ready=mark + ready) if ready else ""
                self.line(
                    tr(
                        self.lang,
                        "sandbox.leave_ask",
                        typed=typed.lower(),
                        button=buttons[number - 1][0],
                        leave=mark + tr(self.lang, "sandbox.g_leave"),
                    )
                    + hint
                )
                return
        self._leave_asked = None
        await self._press_line(GROUP_ID, number, user)

    def _leaves_at_once(self, data: str, user: FakeUser | None = None) -> bool:
        """Whether pressing the group button ``data`` is a Leave that stands you (``user``:
        Bob) up at once: seated and not dealt in a hand under way (there the bot asks, R8.5)."""
        p = Payload.decode(data)
        if p is None or p.action != "l":
            return False
        t = self.service.table_in(GROUP) if self.service is not None else None
        seat = t.seat_of(str((user or self.human).id)) if t is not None else None
        if t is None or seat is None:
            return False
        hand = t.hand
        dealt = (
            hand is not None and not hand.is_over and seat.seat in {t.owner(b) for b in hand.order}
        )
        return not dealt

    async def _press_group_label(self, typed: str, user: FakeUser | None = None) -> None:
        """``g LABEL``: press the group message's button by its label, in either language and
        whatever the case, its emoji left out (``g ready``, ``g Готов``, ``g top up``); a
        label's unique beginning is enough (``g top``). A label the message does not show is
        answered with the buttons it has, numbers and labels. ``user``: pressed as Bob."""
        self._leave_asked = None
        shown = self.screen(GROUP_ID)
        buttons = shown.buttons if shown is not None else []
        want = _label_key(typed)
        names = [_button_names(label, data) for label, data in buttons]
        exact = [i for i, n in enumerate(names, 1) if want and want in n]
        starts = [i for i, n in enumerate(names, 1) if want and any(x.startswith(want) for x in n)]
        found = exact or (starts if len(starts) == 1 else [])
        if len(found) == 1:
            await self._press_line(GROUP_ID, found[0], user)
            return
        join = _absent_join(want, buttons)
        if join is not None and shown is not None:
            # a full table's message shows no Join: answered as the bot answers a press of
            # Join there (an older message's, say), "the table is full", not "no such button"
            self._hold += 1
            try:
                notice = await self._press_data(GROUP_ID, shown.message_id, join, user)
                if notice:
                    self.line("» " + (f"{user.first_name}: " if user else "") + notice)
            finally:
                self._hold -= 1
            return
        if not buttons:
            self.line("» " + tr(self.lang, "sandbox.no_buttons"))
            return
        listed = ", ".join(f"g{i} {label}" for i, (label, _) in enumerate(buttons, 1))
        self.line("» " + tr(self.lang, "sandbox.no_label", typed=typed, buttons=listed))

    def _for_another_bot(self, text: str) -> bool:
        """Whether the command line ``text`` is addressed to another bot (``/hand@otherbot``),
        said in one line then and nothing sent: the bot leaves such a command to the bot it
        names, so the sandbox waited its 15 s for a reply that never came. One addressed to
        the sandbox's own bot (``@ofc_test_bot``) or to none is not."""
        to = addressee_of(text)
        if not to or to == BOT_USERNAME.lower():
            return False
        self.line(tr(self.lang, "sandbox.other_bot", command=text.split()[0], bot=BOT_USERNAME))
        return True

    # -- Bob, the second member --------------------------------------------------------------
    async def _bob_line(self, rest: str) -> None:
        """A line of Bob's, its ``b`` taken off (:func:`_is_bob`): ``/command`` sent by him to
        the group (``/hand`` to his private chat), ``gN`` or ``g LABEL`` presses the group
        message's button as him, ``N`` his hand's button N (piped input: once it is his move),
        ``auto`` / ``manual`` turns :attr:`bob_auto` on / off (kept for the next start),
        ``name X`` names him X (:meth:`_name_bob`), nothing at all reprints his hand; a
        command addressed to another bot (``/hand@otherbot``) is said so, nothing sent. What
        it changed in his private chat is printed after it (:meth:`_print_bob`)."""
        word = rest.lower()
        bob = self.bob.first_name
        if not rest:
            self._bob_again = True
        elif word in ("auto", "авто"):
            self.bob_auto = True
            self.line(tr(self.lang, "sandbox.bob_auto", bob=bob))
            self._save_bob()
        elif word in ("manual", "вручную"):  # (not «сам», which «играет сам» says of auto)
            self.bob_auto = False
            self._bob_prompted = None  # (his move now said at once)
            self.line(tr(self.lang, "sandbox.bob_manual", bob=bob))
            self._save_bob()
        elif word.split(maxsplit=1)[0] in ("name", "имя"):
            await self._name_bob(rest.split(maxsplit=1)[1] if len(rest.split()) > 1 else "")
        elif rest.startswith("/") and self._for_another_bot(rest):
            pass
        elif rest.startswith("/") and command_of(rest) in KNOWN_COMMANDS:
            await self._bob_says(rest)
        elif rest.startswith("/"):  # (the bot leaves it unanswered: yours is told so too)
            self.line(tr(self.lang, "sandbox.unknown", command=command_of(rest)))
        elif word[:1] == "g" and _number(rest[1:]):
            await self._press_group(int(rest[1:]), f"b {rest}", self.bob)
        elif word[:1] == "g" and rest[1:2].isspace():
            await self._press_group_label(rest[1:].strip(), self.bob)
        elif _number(rest):
            if self.piped:
                await self._my_move(user=self.bob)
                await self._after_foul_question()
            await self._bob_press(int(rest))
        else:
            self.line(tr(self.lang, "sandbox.bob_help", bob=bob))

    def _bob_file(self) -> Path:
        """The file next to the database that keeps Bob's ``b auto`` and ``b name`` for the
        next start (``sandbox.sqlite3-bob.json``: ``{"auto": true, "name": "Alice"}``); a
        fresh database starts without it (:meth:`_load_bob`)."""
        return self.opts.db.with_name(self.opts.db.name + "-bob.json")

    def _load_bob(self, *, fresh: bool) -> None:
        """Take Bob's ``b auto`` and name from :meth:`_bob_file`: ``b auto`` was forgotten
        at a restart, his hand then waiting for lines nobody typed. A database just made
        (the old one deleted to start afresh) drops the file; one that cannot be read is
        left, Bob typed for and named as ever."""
        path = self._bob_file()
        if fresh:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            return
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(data, dict):
            return
        self.bob_auto = data.get("auto") is True
        name = data.get("name")
        if isinstance(name, str) and _bob_name(name) == name:
            self.bob = replace(self.bob, first_name=name)
            self._bob_named = True

    def _save_bob(self) -> None:
        """Write Bob's ``b auto`` and name (when given with ``b name``) to :meth:`_bob_file`;
        a file that cannot be written is said in one line (they hold for this start)."""
        data: dict[str, Any] = {"auto": self.bob_auto}
        if self._bob_named:
            data["name"] = self.bob.first_name
        try:
            self._bob_file().write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            self.line(tr(self.lang, "sandbox.bob_not_saved", error=exc))

    async def _name_bob(self, typed: str) -> None:
        """``b name X``: Bob is called X from now on (at most :data:`BOB_NAME_MAX`
        characters, printable), his seat renamed at once as an update carrying the name would
        rename it (:meth:`~bot.service.TableService.renamed`), and kept for the next start
        (:meth:`_save_bob`). A name the sandbox does not take is answered with how to write
        one, nothing changed; so is yours ("» Player: Ready …", his private chat headed
        "private · Player", read as your own lines)."""
        name = _bob_name(typed)
        if name is None:
            self.line(tr(self.lang, "sandbox.bob_name_usage", most=BOB_NAME_MAX))
            return
        yours = {self.human.first_name.casefold()}
        if self._named_by_default:  # (yours follows the language: "Player" / «Игрок»)
            yours.update(tr(lang, "sandbox.player").casefold() for lang in LANGS)
        if name.casefold() in yours:  # (every line of his would read as yours)
            self.line(tr(self.lang, "sandbox.bob_name_yours", name=name, bob=self.bob.first_name))
            return
        old = self.bob.first_name
        self.bob = replace(self.bob, first_name=name)
        self._bob_named = True
        self._save_bob()
        if self.service is not None:  # (as an update carrying the name renames the seat)
            actor = Actor("telegram", str(self.bob.id), name, self.bob.language_code)
            await self.service.renamed(GROUP, actor)
            await self._settled()
        self.line(tr(self.lang, "sandbox.bob_named", old=old, bob=name))

    async def _bob_says(self, text: str) -> None:
        """Bob sends ``text`` (a command) to the group, or a private-only one (``/hand``) to
        his private chat; the group's reply is printed as a » line, as yours is."""
        command = command_of(text)
        chat = self.bob.id if command in PRIVATE_COMMANDS else GROUP_ID
        start = len(self.fake.calls)
        self._hold += 1
        try:
            await self.fake.send_text(self.bob, chat, text)
            if chat == GROUP_ID:
                reply = await self._wait(lambda: _reply_after(self.fake, start, GROUP_ID))
                if reply is not None:
                    said = _GROUP_LINK.sub("", str(reply.params.get("text", ""))).rstrip()
                    self.line("» " + said.replace("\n", "\n  "))
            else:
                reply = await self._wait(lambda: _private_after(self.fake, start, self.bob.id))
                if reply is not None and reply.method == "sendPhoto":
                    caption = str(reply.params.get("caption", ""))
                    self.line(f"» {self.bob.first_name}: " + caption.replace("\n", "\n  "))
            await self._settled()
        finally:
            self._hold -= 1

    async def _bob_press(self, number: int) -> None:
        """Press button ``number`` of Bob's hand as printed (``[b1]`` …, kept for the street
        as yours are: :meth:`_press_hand`); his notice is printed as a » line naming him."""
        message = self._hand_message(self.bob.id)
        rows = _buttons(message) if message is not None else []
        bob = self.bob.first_name
        if message is None or not rows:
            self.line("» " + tr(self.lang, "sandbox.bob_no_hand", bob=bob))
            return
        self._hold += 1
        try:
            shown = _Screen(message["message_id"], message["text"], rows)
            notice = await self._press_hand(self.bob.id, shown, number, self.bob)
            if notice:
                self.line(f"» {bob}: {notice}")
        finally:
            self._hold -= 1

    def _print_bob(self) -> None:
        """Print what changed in Bob's private chat since it was last printed (after a line of
        his only: never with the group's messages or yours), under a heading naming him; his
        hand's buttons numbered ``[b1]`` …; after a bare ``b`` his hand (or newest message)
        again, or with nothing in his private chat a line saying so."""
        chat = self.bob.id
        messages = self.fake.chat_messages(chat)
        hand = self._hand_message(chat)
        hand_id = hand["message_id"] if hand is not None else None
        changed = []
        for m in messages:
            key = (m["message_id"], m["text"], repr(m.get("reply_markup")))
            if self._printed.get((chat, m["message_id"])) != key:
                self._printed[(chat, m["message_id"])] = key
                changed.append(m)
        if self._bob_again and not changed and messages:
            changed = [hand if hand is not None else messages[-1]]
        elif self._bob_again and not messages:  # (a bare "b" printed nothing at all)
            self.line(tr(self.lang, "sandbox.bob_nothing", bob=self.bob.first_name))
        self._bob_again = False
        title = tr(self.lang, "sandbox.bob_title", bob=self.bob.first_name)
        for m in changed:
            self.line(f"── {title} " + "─" * max(4, 40 - len(title)))
            self.line(m["text"])
            if m["message_id"] == hand_id:
                rows = self._hand_numbers(chat, m["message_id"], _buttons(m), printed=True)
                for line in _button_lines(rows, "b"):
                    self.line(line)

    async def _bob_loop(self) -> None:
        """While :attr:`bob_auto` is on: Bob's move, whenever it is his, made for him with his
        hand's 🪄 Arrange for me and ✅ Confirm, as you would press them (nothing of it is
        printed: his cards are his). A step that fails is logged and tried again at the next
        look: it ended the loop, Bob then played by no one, and the sandbox's /quit raised it."""
        while True:
            await asyncio.sleep(0.1)
            if self.bob_auto:
                try:
                    await self._bob_autoplay()
                except KeyError:  # (the message deleted meanwhile)
                    pass
                except Exception:
                    logging.getLogger("bot.sandbox").exception("Bob's autoplay failed")

    async def _bob_autoplay(self) -> None:
        """One step of Bob's autoplay (:meth:`_bob_loop`): 🪄 Arrange for me while his street
        has cards to place, then ✅ Confirm."""
        t = self.service.table_in(GROUP) if self.service is not None else None
        seat = t.seat_of(str(self.bob.id)) if t is not None else None
        message = self._hand_message(self.bob.id)
        if t is None or seat is None or message is None or t.hand is None or t.hand.is_over:
            return
        hand = t.hand
        boards = [b for b in hand.order if t.owner(b) == seat.seat and b in hand.to_act]
        if not boards:
            return
        want = "a" if hand.to_place(boards[0]) else "c"
        for _, data in (b for row in _buttons(message) for b in row):
            p = Payload.decode(data)
            if p is not None and p.action == want:
                await self._press_data(self.bob.id, message["message_id"], data, self.bob)
                await self._settled()
                return

    async def _my_move(
        self, timeout: float = PIPED_WAIT_SECONDS, user: FakeUser | None = None
    ) -> None:
        """Piped input: wait until your hand shows its buttons, or no move of yours is coming
        (:meth:`_move_coming`), at most ``timeout`` seconds; the screens that came meanwhile
        printed. A script's "17" was read while the computer player was still to act and
        answered "no such button", its next number pressed on another screen."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._move_coming(user) and loop.time() < end:
            await asyncio.sleep(0.05)
        await self.print_changes()

    def _move_coming(self, user: FakeUser | None = None) -> bool:
        """Whether a move of yours is on its way and not yet on screen: you are dealt in the
        hand under way (the others to act first, or your screen's edit on its way), or the
        next hand is due, or a Chinese Poker reveal runs (no Claim asked of the group); not
        when you sit out, leave or have no seat, nor once your hand shows its buttons, nor
        while only the other player typed for (Bob unless on ``b auto``, or you for Bob) is
        to act: that move waits for a line not read yet, and ``b 1`` piped on your street
        waited its 60 s for Bob's move, which could not come before your own.
        ``user``: Bob's move, not yours."""
        who = user or self.human
        t = self.service.table_in(GROUP) if self.service is not None else None
        seat = t.seat_of(str(who.id)) if t is not None else None
        if t is None or seat is None or seat.sitting_out or seat.leaving:
            return False
        message = self._hand_message(who.id)
        if message is not None and _buttons(message):
            return False
        hand = t.hand
        if hand is not None and not hand.is_over:
            if seat.seat not in {t.owner(b) for b in hand.order}:
                return False
            typed = {
                other.seat
                for u in (self.human, self.bob)
                if u.id != who.id and not (u is self.bob and self.bob_auto)
                if (other := t.seat_of(str(u.id))) is not None
            }
            acting = {t.owner(b) for b in hand.to_act}
            return not acting or not acting <= typed
        if t.reveal is not None:
            return not t.reveal.get("claim")
        return t.next_hand_at is not None

    def _name_group(self) -> None:
        """The group's title in the sandbox's language (``/stats`` heads the group's figures
        with it: "📊 Sandbox" in Russian), taken up with the next message sent there."""
        self.fake.group(GROUP_ID, tr(self.lang, "sandbox.group_name"))

    async def _name_player(self, coming: str | None = None) -> None:
        """Without a login name, your name in the sandbox's language: "Player" / "Игрок".
        It stayed «Игрок» after ``/settings language en`` in a Russian sandbox. Your seat
        takes it at once, as an update carrying the new name would rename it
        (:func:`~bot.service.lobby.rename`; a private press does not). ``coming``: the
        language a ``/settings language`` command about to be sent sets: the seat takes its
        name in memory only, shown by the command's own redraw of the table, and stored at
        the next call (the redraw showed the old name first: "▶ Игрок to act")."""
        if not self._named_by_default:
            return
        name = tr(coming or self.lang, "sandbox.player")
        t = self.service.table_in(GROUP) if self.service is not None else None
        if name == self.human.first_name:
            before, self._renamed_before = self._renamed_before, None
            if coming is None and before is not None and t is not None and self.service:
                actor = Actor("telegram", str(self.human.id), name, self.human.language_code)
                async with t.lock:  # (the redraw showed it: stored only; else shown now)
                    await lobby.show_renamed(self.service.rt, t, actor, before)
                await self._settled()
            return
        self.human = replace(self.human, first_name=name)
        self._renamed_before = None
        if t is None or self.service is None:
            return
        actor = Actor("telegram", str(self.human.id), name, self.human.language_code)
        async with t.lock:
            version, renamed = t.version, lobby.rename(t, actor)
            if renamed and coming is not None:
                self._renamed_before = version
                return
            if renamed:
                await lobby.show_renamed(self.service.rt, t, actor, version)
        await self._settled()

    def _language_set_by(self, text: str) -> str | None:
        """The language (``"en"``/``"ru"``) the group's command ``text`` sets when it is
        ``/settings language X`` with a value the setting takes (``auto``: yours), else
        ``None``."""
        words = text.split()
        if len(words) != 3 or command_of(text) != "/settings":
            return None
        if SETTING_WORDS.get(words[1].lower(), (words[1].lower(),)) != ("language",):
            return None
        try:
            value = SETTINGS["language"].parse(words[2])
        except SettingRefused:
            return None
        return value if value in ("en", "ru") else self._own_lang()

    async def _set_group_language(self, lang: str) -> None:
        """Set the group's ``language`` setting to ``lang`` (``"en"``/``"ru"``) as
        ``/settings language`` does (:func:`~bot.service.settings.change_setting`: the
        group's tables and your hand's screens take it), printing nothing."""
        assert self.store is not None and self.service is not None
        community = await self.store.community("telegram", str(GROUP_ID))
        await change_setting(self.service.rt, community, "language", lang, own=lang)

    async def _group_lang(self) -> str:
        """The language of the bot's replies in the group, chosen as the service chooses it
        (``TableService._lang``): the group's ``language`` setting, else the sender's, the
        sandbox's player (:meth:`_own_lang`)."""
        if self.store is not None:
            community = await self.store.community("telegram", str(GROUP_ID))
            return group_language(community.settings) or self._own_lang()
        return self._own_lang()

    def _own_lang(self) -> str:
        """The language you play in under the group's ``auto``: ``--lang``, or the language
        of the table a plain start resumed (:meth:`start`)."""
        return self.human.language_code or self.opts.lang

    async def _wait(self, predicate: Callable[[], Any], timeout: float = 15.0) -> Any:
        try:
            return await self.fake.wait_for(predicate, timeout)
        except TimeoutError:
            return None

    async def handle(self, raw: str) -> bool:
        """One line of input; returns False to quit."""
        text = raw.strip()
        if not text:
            return True
        if text in ("/quit", "/exit", "quit", "exit"):
            return False
        if _is_bob(text):
            asked = self._leave_asked
            self.lang = await self._group_lang()
            await self._bob_line(text[1:].strip())
            if self._leave_asked == asked:  # (asked before this line: the question lapses)
                self._leave_asked = None
            await asyncio.sleep(0.1)
            await self.print_changes()
            self._print_bob()
            return True
        command = command_of(text)
        asked = self._leave_asked
        self.lang = await self._group_lang()
        self._name_group()
        await self._name_player()
        if text.startswith("/") and self._for_another_bot(text):
            pass
        elif command == "/help":
            await self.say(text)
            self.line("» " + tr(self.lang, "sandbox.help", bob=self.bob.first_name))
        elif command in PRIVATE_COMMANDS:
            await self.say_private(text)
        elif command == "/newtable":
            await self.new_table(text)
        elif command == "/tournament":
            await self.say(text)
            t = self.service.table_in(GROUP) if self.service is not None else None
            if t is not None and t.tournament is not None:
                self.line(tr(self.lang, "sandbox.tournament_bob", bob=self.bob.first_name))
        elif command in KNOWN_COMMANDS:
            await self.say(text)
        elif text.startswith("/"):
            self.line(tr(self.lang, "sandbox.unknown", command=command))
        elif text[0] in "gG" and _number(text[1:]):
            await self._press_group(int(text[1:]), text)
        elif text[0] in "gG" and text[1:2].isspace():
            await self._press_group_label(text[1:].strip())
        elif text[0] in "rR" and _number(text[1:]):
            await self._press_line(self.human.id, int(text[1:]), other=True)
        elif _number(text):
            if self.piped:
                await self._my_move()
                await self._after_foul_question()
            await self._press_line(self.human.id, int(text), hand=True)
        else:
            self.line(tr(self.lang, "sandbox.number"))
        if self._leave_asked == asked:  # (asked before this line: the question lapses)
            self._leave_asked = None
        await asyncio.sleep(0.1)
        await self.print_changes()
        return True


def command_of(text: str) -> str:
    """The command a line of input begins with as the sandbox and the bot read it: its first
    word in lower case, a ``@botname`` it is addressed to left off (``"/Hand@ofc_test_bot x"``
    → ``"/hand"``); ``""`` for an empty line. (It was written out at each place a line was
    read: yours, Bob's, ``/settings language``.)"""
    return _command_parts(text)[0]


def addressee_of(text: str) -> str:
    """The bot a command line is addressed to, lower case, ``""`` without one
    (``"/hand@OtherBot"`` → ``"otherbot"``)."""
    return _command_parts(text)[1]


def _command_parts(text: str) -> tuple[str, str]:
    """A line's first word split at its ``@``, lower case: (command, addressee)."""
    words = text.split()
    command, _, to = words[0].partition("@") if words else ("", "", "")
    return command.lower(), to.lower()


#: the longest name ``b name`` gives Bob, in characters (Telegram's first names are at most 64)
BOB_NAME_MAX = 32


def _bob_name(typed: str) -> str | None:
    """The name ``b name`` gives Bob for what was typed after it: its words one space apart;
    ``None`` for none, one longer than :data:`BOB_NAME_MAX` characters or with a character
    that is not printable."""
    name = " ".join(typed.split())
    if not name or len(name) > BOB_NAME_MAX or not name.isprintable():
        return None
    return name


def _is_bob(text: str) -> bool:
    """Whether a line of input is Bob's: ``b`` alone, ``b`` and a space (``b g1``, ``b 3``,
    ``b /join``) or ``b`` and a number (``b3``); any case."""
    return text[:1] in ("b", "B") and (len(text) == 1 or text[1].isspace() or _number(text[1:]))


def _number(text: str) -> bool:
    """Whether ``text`` is a button number: ASCII digits only (``str.isdigit`` takes a
    superscript ``²``, which ``int`` refuses)."""
    return text.isascii() and text.isdigit()


#: The text key of a group message button's label by its action (:class:`Payload`), for
#: ``g LABEL`` in either language (:func:`_button_names`).
_LABEL_KEYS = {
    "j": "btn.join",
    "r": "btn.ready",
    "l": "btn.leave",
    "t": "btn.topup",
    "h": "btn.my_cards",
    "k": "btn.claim",
    "n": "btn.continue",
    "g": "btn.register",
    "x": "btn.unregister",
    "o": "btn.start",
}


def _label_key(label: str) -> str:
    """A button label as ``g LABEL`` compares it: letters and digits only, lower case, one
    space between words, ё read as е (``"➕ Top up"`` → ``"top up"``)."""
    words = "".join(c if c.isalnum() else " " for c in label.lower().replace("ё", "е"))
    return " ".join(words.split())


def _button_names(label: str, data: str) -> set[str]:
    """The names ``g LABEL`` takes for a group message button: its label as shown and its
    action's label in English and Russian, each also without spaces (``topup``)."""
    p = Payload.decode(data)
    key = _LABEL_KEYS.get(p.action) if p is not None else None
    labels = [label] + ([tr("en", key), tr("ru", key)] if key else [])
    names = {_label_key(x) for x in labels}
    return {x for n in names for x in (n, n.replace(" ", ""))} - {""}


def _absent_join(want: str, buttons: Sequence[tuple[str, str]]) -> str | None:
    """The payload of a Join press for ``g join`` (``want``: :func:`_label_key` of the typed
    label, either language) when the group message shows lobby buttons (``L`` versions) but
    no Join, as a full table's does (R8.2); None otherwise."""
    if not want or any(want in _button_names(label, data) for label, data in buttons):
        return None
    joins = _button_names("", Payload(0, "L0", "j").encode())  # "join", «сесть», ...
    if not any(x.startswith(want) for x in joins):
        return None
    for _, data in buttons:
        p = Payload.decode(data)
        if p is not None and p.version.startswith("L"):
            return Payload(p.table, p.version, "j").encode()
    return None


def _is_turn_ping(message: dict[str, Any], hand: dict[str, Any]) -> bool:
    """Whether the private ``message`` is a turn ping of the ``hand`` message (the Telegram
    adapter's "your move" after :data:`~bot.telegram.adapter.TURN_PING_SECONDS` without a
    press, :func:`~bot.render.ping_lines`): no buttons, the hand's title, at most two lines."""
    lines = str(message.get("text", "")).splitlines()
    title = str(hand.get("text", "")).split("\n", 1)[0]
    return not _buttons(message) and 0 < len(lines) <= 2 and lines[0] == title


def _with_clock(hand: str, ping: str) -> str:
    """The hand message's text ``hand`` with the clock line (⏱) of the turn ping ``ping``: the
    time left when the ping was sent (the hand's own says the time its turn began)."""
    clock = next((line for line in ping.splitlines()[1:] if "⏱" in line), None)
    if clock is None:
        return hand
    lines = hand.splitlines()
    at = next((i for i, line in enumerate(lines) if "⏱" in line), None)
    if at is not None:
        lines[at] = clock
    return "\n".join(lines)


def _button_lines(rows: list[list[tuple[int, str, str]]], prefix: str) -> list[str]:
    """Rows of numbered buttons as printed, one line a row: ``  [1] 3♣ Top  [2] Middle``."""
    return ["  " + "  ".join(f"[{prefix}{n}] {label}" for n, label, _ in row) for row in rows]


def _button_key(data: str) -> tuple[str, str]:
    """What a hand's button does, its state version left out (it changes with every press):
    ``("p", "3cM")`` places 3♣ in the middle, ``("d", "2d")`` discards 2♦, ``("c", "")``
    confirms."""
    p = Payload.decode(data)
    return (p.action, p.arg) if p is not None else ("", data)


def _with_card(key: tuple[str, str], label: str) -> str:
    """A hand button's label with its card (:func:`_button_key`): a row's later buttons say
    only "Bottom", the card being named at the row's first ("2♦ Top")."""
    action, arg = key
    if action not in ("p", "d"):
        return label
    try:
        face = parse_cards(arg[:-1] if action == "p" else arg)[0].face
    except (CardError, IndexError):
        return label
    return label if label.startswith(face) else f"{face} {label}"


def _street_of(
    message_id: int, buttons: Sequence[tuple[str, str]]
) -> tuple[int, str, frozenset[str]]:
    """The street a hand's buttons belong to: the message, the hand and board (the version
    without its count of presses) and the street's cards, which its buttons name."""
    version, cards = "", set()
    for _, data in buttons:
        p = Payload.decode(data)
        if p is None:
            continue
        version = p.version.rsplit(".", 1)[0]
        if p.action == "p":
            cards.add(p.arg[:-1])
        elif p.action == "d":
            cards.add(p.arg)
    return (message_id, version, frozenset(cards))


def _labels(markup: Any) -> list[list[str]]:
    """The labels of an inline keyboard's buttons (``reply_markup``, or none), row by row: what
    a chat shows of them (a keyboard sent as a JSON string read as its object)."""
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            return [[markup]]
    rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
    return [[str(b.get("text", "")) for b in row if isinstance(b, dict)] for row in rows]


def _buttons(message: dict[str, Any]) -> list[list[tuple[str, str]]]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    out = [[(b["text"], b["callback_data"]) for b in row if b.get("callback_data")] for row in rows]
    return [row for row in out if row]


#: A link to a message of a group (``https://t.me/c/<chat>/<message>``).
_GROUP_LINK = re.compile(r"https://t\.me/c/\d+/\d+")


def _reply_after(fake: FakeTelegram, start: int, chat: int) -> ApiCall | None:
    for c in fake.calls[start:]:
        if (
            c.method == "sendMessage"
            and int(c.params.get("chat_id", 0)) == chat
            and c.params.get("reply_parameters")
        ):
            return c
    return None


def _private_after(fake: FakeTelegram, start: int, chat: int) -> ApiCall | None:
    """The bot's first message or photo to a private chat since call ``start``, once sent (a
    reply there quotes nothing, so it is the first write after the command)."""
    for c in fake.calls[start:]:
        if (
            c.method in ("sendMessage", "sendPhoto")
            and int(c.params.get("chat_id", 0)) == chat
            and c.result is not None
        ):
            return c
    return None


def _is_terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` (stdin) is a terminal; a closed or missing one is not."""
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # (closed)
        return False


def _start_reader(queue: asyncio.Queue[str | None]) -> None:
    """Read stdin lines in a daemon thread (it must not keep the process alive at exit)."""
    loop = asyncio.get_running_loop()

    def read() -> None:
        for raw in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, raw)
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=read, name="sandbox-stdin", daemon=True).start()


async def run_sandbox(opts: SandboxOptions, out: TextIO | None = None) -> None:
    """Run the sandbox until ``/quit``, end of input, Ctrl-C or SIGTERM. Commands read from a
    pipe or a file (``printf 'g join\\ng ready\\n17\\n' | python -m bot``), not a terminal,
    are taken line by line, a button number once it is your move (:meth:`Sandbox._my_move`);
    at the end of the input the sandbox waits for your move likewise, prints it and exits as
    ``/quit`` does. SIGTERM (``kill``, a service manager) stops it as ``/quit`` does, a line
    under way left off: it died at once with status −15, its decision workers' semaphores
    reported leaked.

    :raises ConfigError: when ``opts.db`` cannot be opened as an SQLite file (one line in
        ``opts.lang``, naming it; nothing else is printed)."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    sandbox = Sandbox(opts, out or sys.stdout, piped=not _is_terminal(sys.stdin))
    sandbox.quit = asyncio.Event()
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    terminated = False
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        # (not on Windows' loop, nor outside the main thread: SIGTERM kills it there as ever)
        loop.add_signal_handler(signal.SIGTERM, sandbox.quit.set)
        terminated = True
    try:
        try:
            await sandbox.start()
        except ConfigError:
            await sandbox.stop()  # no "bye": nothing was opened
            raise
        try:
            _start_reader(queue)
            while not sandbox.quit.is_set():
                got = await _unless_quit(sandbox.quit, queue.get())
                if got is None:  # SIGTERM (or the output closed)
                    break
                raw = got[0]
                if raw is None:  # the end of the input: what it led to, printed
                    if sandbox.piped:
                        await _unless_quit(sandbox.quit, sandbox._my_move())
                    break
                went_on = await _unless_quit(sandbox.quit, sandbox.handle(raw))
                if went_on is None or not went_on[0]:
                    break
        finally:
            # "the table is saved" only when one is open: after /closetable the next start
            # opens a new one
            service = sandbox.service
            open_table = service is not None and service.table_in(GROUP) is not None
            await sandbox.stop()
            bye = "sandbox.bye" if open_table else "sandbox.bye_no_table"
            sandbox.line(tr(sandbox.lang, bye))
    finally:
        if terminated:
            loop.remove_signal_handler(signal.SIGTERM)


async def _unless_quit(quit: asyncio.Event, step: Coroutine[Any, Any, _T]) -> tuple[_T] | None:
    """Run ``step`` unless ``quit`` is set first (SIGTERM, or the output closed), which
    cancels it: its result in a 1-tuple, else ``None``."""
    task = asyncio.ensure_future(step)
    stopper = asyncio.ensure_future(quit.wait())
    try:
        done, _ = await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for fut in (task, stopper):
            if not fut.done():
                fut.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await fut
    if task in done:
        return (task.result(),)
    return None


__all__ += ["BOT_ID"]
