"""The machinery every table step runs on (issue 10): transitions committed in one storage
transaction, messages sent after the commit, background snapshots, and timers.

A step of the table state machine (:class:`~bot.model.Phase`) goes like this::

    async with rt.transition(t) as tx:   # under the table's lock
        ...                              # change ``t``, add ledger moves to ``tx.moves``,
                                         # mark what to show (``tx.group``, ``tx.show``)
    # here the moves and the table's snapshot are committed together, or, if storage
    # refused, the table is exactly as before the step and TransitionFailed is raised

After the commit the messages go out: first the table's :attr:`~bot.model.LiveTable.outbox`
(the showdown the committed state owes the chat, kept in the snapshot until sent, so that a
restarted bot re-sends the stored result and never a recomputed one), then the table message
and the private messages rendered from the committed state. Then the timer is re-armed.

Between transitions only what a crash may lose without harm is saved, in the background: a
card placed before Confirm (R3.4), message ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import random
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from bot import pictures, render, thinking
from bot.drawing import Drawer
from bot.logs import raised_at
from bot.model import HAND_VIEW_PREFIX, PENDING_PREFIX, LiveTable, Phase, Presenter, SeatState
from bot.names import quoted
from bot.retries import pending_ref
from bot.screens import Screen
from bot.texts import on, tr
from bot.thinking import Moves, Thinker
from game.actions import Action, Confirm, Timeout
from game.cards import Card
from game.errors import GameError
from game.hand import Hand
from game.history import ReplayFrame
from game.policy import Level, SeatKnowledge, decide
from game.tournament import TournamentPhase
from storage.api import (
    Community,
    CommunitySettings,
    InsufficientFunds,
    LeaseLost,
    Move,
    StorageError,
    Store,
    answer_within,
    time_left,
)

__all__ = [
    "BACK_KEPT_SECONDS",
    "CHAT_WAIT",
    "OWED_KEY",
    "REPLAYS_KEPT",
    "STEP_TOKEN",
    "Answered",
    "ChangedElsewhere",
    "ClosedElsewhere",
    "Runtime",
    "TransitionFailed",
    "Tx",
    "owed_from_json",
    "owed_notices",
    "owed_screen",
    "owed_to_json",
    "wait_expired",
    "waiting_for_chat",
    "waits_for_chat",
]

log = logging.getLogger("bot.service")

#: what a rollback leaves on the table object (``screen_seq``: table messages already queued
#: to the group's sender count still, else one queued before is taken as overtaken, unwritten)
_KEEP = ("lock", "timer", "sending", "edits", "screen_seq", "screen_skipped", "outbox_sending")


class TransitionFailed(Exception):
    """Storage refused a transition (disk full, database locked, a value that does not
    serialise …). The table is exactly as it was before the step; nothing was written."""


class ClosedElsewhere(TransitionFailed):
    """The step was refused because storage has the table closed by a step that is not this
    process's (another worker's close, issue 14, read back by :meth:`Runtime._read_back`):
    the table is no longer served here and nothing of the step was written. The command or
    press is answered that the table is closed (``reply.table_closed``)."""


class ChangedElsewhere(TransitionFailed):
    """The step was refused because storage holds a step of the table that is not this
    process's at or after its number (another worker's, two workers on one table after a
    lease takeover, issue 14; read back by :meth:`Runtime._read_back`): nothing of the step
    was written or sent, and the table is served again as storage has it
    (:meth:`Runtime._restore_anew`). The command or press is answered
    ``err.changed_elsewhere`` ("the table changed meanwhile, look and try again")."""


@dataclass(frozen=True, slots=True)
class Answered:
    """The message a press's reply is shown on by the adapter (issue 10: one output path per
    press): the service does not write it as well.

    :ivar seat: the presser's table seat.
    :ivar ref: the pressed message, as the adapter names it (``message_ref``).
    :ivar own: it is the presser's current private hand message: the service does not write
        it (the reply's screen is its new face). Otherwise (say a Discord ephemeral hand) the
        service writes the presser's private message as usual and tells the presenter that
        ``ref`` shows the reply.
    :ivar view: ``ref`` is another view of the presser's hand that only they see
        (:data:`~bot.model.HAND_VIEW_PREFIX`, a Discord ephemeral hand).
    """

    seat: int
    ref: str
    own: bool
    view: bool = False


@dataclass(slots=True)
class Tx:
    """One transition being built.

    :ivar table: the table it changes.
    :ivar before: the table's snapshot when it began, for the rollback (:meth:`LiveTable.to_json`
        shares no mutable object with the table).
    :ivar moves: the ledger moves committed with it (buy-ins, settlements, cash-outs).
    :ivar group: re-render the table message after the commit.
    :ivar show: table seats whose private message is re-rendered after the commit.
    :ivar privates: private screens rendered during the step (e.g. the final board at a
        showdown, before the hand is cleared); :attr:`show` renders over them.
    :ivar close: the transition closes the table (every stack must be cashed out by then).
    :ivar answered: the step is a press whose reply the adapter shows on the pressed message
        (that message is not written by the sender).
    :ivar seated: the table's seats when the step began: a private screen of the step still
        goes to a player it stood up (a closing step stands up everyone).
    :ivar delivered: a closing step's :attr:`LiveTable.private_outbox` items (their indexes)
        written after the commit: once all are, and the group's messages, the closed table
        owes nothing and its final snapshot goes.
    :ivar final: a closing step's final snapshot as committed (``None``: none, or not a
        closing step): the showdown picture posted is dropped from it, saved again
        (:meth:`Runtime.flush_outbox`).
    :ivar _screen_no: its table message's number among those queued to the group's sender
        (:attr:`LiveTable.screen_seq`), once :meth:`Runtime.send` queued it.
    :ivar _minted: the pending ref the step gave a table message it posts anew
        (:func:`posts_by_ref`), undone by a rollback.
    :ivar _minted_hands: the pending refs the step gave players' hand messages it posts
        anew (:func:`posts_by_ref`), by seat number, undone by a rollback.
    """

    table: LiveTable
    before: dict[str, Any]
    moves: list[Move] = field(default_factory=list)
    group: bool = False
    show: set[int] = field(default_factory=set)
    privates: dict[int, Screen] = field(default_factory=dict)
    close: bool = False
    answered: Answered | None = None
    seated: dict[int, SeatState] = field(default_factory=dict)
    delivered: set[int] = field(default_factory=set)
    final: dict[str, Any] | None = None
    _group_screen: Screen | None = None
    _screen_no: int = 0
    _minted: str | None = None
    _minted_hands: dict[int, str] = field(default_factory=dict)


def pass_opener(tx: Tx) -> None:
    """The opener of a cash table (:attr:`LiveTable.opener`) left their seat in step ``tx``
    (stood up between hands, after the hand, by a timer, gone from the group): seating and
    standing up computer players passes to the person seated longest still at the table
    (:meth:`LiveTable.heir`; with nobody left, to whoever sits down next, :func:`bot.service.
    lobby.join`). It stayed theirs, gone: a player left alone could not seat a computer
    opponent and waited for someone else or the idle close (R8.2a). The group is told when
    it matters, the heir the only person left (computer players aside): in the step's last
    notice (the leave's, "not ready in time, stood up", …), else in a line of its own (the
    one write more). A tournament's opener passes the Start (R8.7, :mod:`.tournaments`)."""
    t = tx.table
    if t.tournament is not None or t.opener is None or t.seat_of(t.opener) is not None:
        return
    if all(s.user_id != t.opener for s in tx.seated.values()):  # (one who never sat keeps it)
        return
    heir = t.heir()
    t.opener = None if heir is None else heir.user_id
    if heir is None or any(s.bot is None and s is not heir for s in t.seats.values()):
        return  # (people left to play with: the refusals name who may, bots.who_may)
    line = tr(t.lang, on(t.platform, "bot.opener_passed"), name=heir.name)
    start = int(tx.before.get("outbox_seq", 0))
    posts = [i for i in t.outbox if int(i["id"]) > start and i["kind"] == "post"]
    if posts:
        posts[-1]["text"] = f"{posts[-1]['text']}\n{line}"
    else:
        t.owe("post", Screen(line))


#: how many one-shot command keys of its closed tables a community keeps
#: (:meth:`Runtime.keep_table_requests`): a few tables' worth (a Discord server has a table
#: in each of its channels)
TABLE_REQUESTS_KEPT = 64

#: how long a press or a table command waits for storage in all, in seconds
#: (:func:`storage.api.answer_within`, :attr:`Runtime.storage_wait`): every press is
#: answered within about a second whatever the database does (silent: a network partition,
#: another process's lock). Storage not answering by then: "nothing changed, try again";
#: a step's commit not answered is an unknown outcome (:attr:`Runtime.unsure`), read back
#: by the table's next step. A table step of no press (a timer's) waits as long for its
#: commit (:meth:`Runtime.commit`): it holds the table, which the presses there wait for.
#: The default of ``STORAGE_WAIT_SECONDS`` (:class:`bot.config.Settings`: more for a far
#: PostgreSQL server), passed as ``storage_wait`` to :class:`Runtime`
STORAGE_WAIT = 1.0

#: How long before a player's clock runs out (R8.5) a table with ``safe_autoplay`` starts its
#: timeout's placement by the strategy (:meth:`Runtime.think_safe`: ``normal``, up to a quarter
#: of a second for a 17-card Fantasyland hand on a loaded machine), in the decision process,
#: off the event loop and without holding the table, so that the timeout comes on time
SAFE_AHEAD_SECONDS = 1.0

#: How long past the clock's end the table's timer waits at most for those placements under
#: way (:meth:`Runtime.safe_decided`), without holding the table; one not made by then (a
#: busy or hung decision process) is decided in the timeout's step, as before (R8.5: the
#: same placement, on the event loop)
SAFE_SECONDS = 2.0

#: How long a press that finds the player's clock run out (it makes the timeout's step,
#: :func:`bot.service.play.hand_press`) waits at most for those placements, holding its
#: table (an "Arrange for me" waits longer): it is answered within a second
SAFE_PRESS_SECONDS = 0.3

#: the chain of a table's sender that writes its group messages (the others are its
#: players', by user id: :meth:`Runtime.send`)
GROUP_CHAIN = "group"


#: Seconds after a refresh of a table message (:meth:`Runtime.refresh_group`: a ``/newtable``
#: that finds the chat's table open) in which another command does not write it again: a
#: command typed ten times in a few seconds edits the message once
REFRESH_SECONDS = 10.0

#: Seconds a command waits at most for its refresh of the table message
#: (:meth:`Runtime.refresh_group`: an edit, or the re-post of a deleted message) before it
#: answers with the link it has then (a platform holding the write, a 429 or an outage,
#: writes it later): a command is answered within a second, whatever the platform does
REFRESH_WAIT_SECONDS = 0.7

#: Seconds a table restored anew (:meth:`Runtime._restore_anew`) waits at most for the
#: let-go table's senders first (a platform that makes them wait, a mute: the table is not
#: served meanwhile)
ANEW_WAIT_SECONDS = 5.0

#: Seconds a table restored anew (:meth:`Runtime._restore_anew`) that failed (storage out of
#: reach again) waits before it is tried again, twice as long each time, at most
#: :data:`RENEW_RETRY_MAX`: it was left unserved until the next start
RENEW_RETRY_SECONDS = 2.0
RENEW_RETRY_MAX = 60.0

#: Seconds each try of a write no user waits for (:meth:`Runtime._write_late`: a closed
#: table's final snapshot forgotten once sent, its command keys saved) waits for storage at
#: most, :attr:`Runtime.storage_wait` if that is more: bound by that (a second), a database
#: slower than that (not silent) never took them, and a restart sent the closing messages
#: again, or took a copy of its /closetable for a newer table's. A try that fails is tried
#: again after :data:`RENEW_RETRY_SECONDS`, twice as long each time (:data:`RENEW_RETRY_MAX`
#: at most), until done or the bot stops (one last try then, which the stop waits for)
LATE_WRITE_SECONDS = 10.0

#: How many tries a table's background snapshot (:meth:`Runtime.save_soon`: cards placed
#: before Confirm, message refs) gets at most, each :attr:`Runtime.storage_wait`, the next
#: after :data:`RENEW_RETRY_SECONDS`, twice as long each time (2 + 4 + 8 s): one try, and a
#: table that made no step for long (a hand waiting for a player's clock) lost them to a crash
SNAPSHOT_TRIES = 4


def unasked(old: LiveTable, snap: Mapping[str, Any]) -> Mapping[str, Any]:
    """Snapshot ``snap`` of a step read back as saved (:meth:`Runtime._restore_anew`) with
    each seat's Leave question (:attr:`SeatState.leave_asked`) as the players were answered:
    as ``old`` (the table rolled back, before the step) has it. A question the step asked was
    answered "nothing changed, try again": kept, the player's next Leave or /leave (within
    ``LEAVE_CONFIRM_SECONDS``) knocked them out of a tournament (R8.7) or placed the rest of
    their hand (R8.5) without their having seen the question."""
    asked = {s.user_id: s.leave_asked for s in old.seats.values()}
    seats = snap.get("seats")
    if not isinstance(seats, list):
        return snap
    fixed = [
        {**seat, "leave_asked": asked.get(str(seat.get("user_id")), 0.0)}
        if isinstance(seat, dict)
        and float(seat.get("leave_asked", 0.0)) > asked.get(str(seat.get("user_id")), 0.0)
        else seat  # (a question taken back by the step, a Join's: not asked, as saved)
        for seat in seats
    ]
    return {**snap, "seats": fixed}


def posts_by_ref(p: Presenter | None) -> bool:
    """Whether the presenter ``p`` posts a new table message under a pending ref the service
    commits first (its ``posts_by_ref`` attribute: Discord, whose nonce derives from that ref,
    :func:`bot.discord.presenter.nonce_of`). A step that posts the table message anew then
    commits such a ref (:meth:`Runtime.commit`), so the post a crash cut off before its real
    id was saved is the one a restarted bot's post returns (``enforce_nonce``), while Discord
    remembers the nonce (a few minutes): one table message, not two."""
    return bool(getattr(p, "posts_by_ref", False))


def quiet_until_seen(p: Presenter | None, user_id: str | None = None) -> bool:
    """Whether the presenter ``p`` leaves a player's private chat alone once it refused the
    bot for good (its ``quiet_until_seen`` attribute: Telegram, where a 403 means the player
    blocked the bot or never started it, and only the player can change that): a seat not
    :attr:`~bot.model.SeatState.reachable` is then written to again only when the player
    shows life (:meth:`Runtime.send_private`'s ``again``). Discord keeps its own
    memory of closed DMs (:meth:`bot.discord.presenter.DiscordPresenter.user_seen`).
    ``user_id``: for that person (a presenter's ``quiet_for(user_id)`` may say no: their last
    refusal was no block, a 400 say, :meth:`bot.telegram.adapter.TelegramPresenter.quiet_for`)."""
    if not getattr(p, "quiet_until_seen", False):
        return False
    quiet_for = getattr(p, "quiet_for", None)
    return user_id is None or quiet_for is None or bool(quiet_for(user_id))


def _mint_next(t: LiveTable, first: int) -> None:
    """Give each ``table`` item the step being committed owes (outbox ids above ``first``)
    that is written over the table message, which then stays as the record (a showdown,
    :meth:`Runtime.flush_outbox`), the pending ref its next table message is posted under
    (``"next"``, :func:`posts_by_ref`): committed with the step, so a crash after that post
    and before its id is saved posts no second one after the restart (its nonce)."""
    for item in t.outbox:
        if int(item["id"]) > first and item.get("kind") == "table" and not item.get("ref"):
            item.setdefault("next", pending_ref(PENDING_PREFIX))


def unsure_ref(ref: str | None) -> bool:
    """Whether a table message ``ref`` is not posted for certain: none, or a pending one
    (:data:`~bot.model.PENDING_PREFIX`: being posted, or perhaps posted, its answer lost)."""
    return ref is None or ref.startswith(PENDING_PREFIX)


#: what a step's commit answered with an error is found to be when read back
#: (:meth:`Runtime._read_back`)
ReadBack = Literal["saved", "not saved", "other", "closed", "unknown"]

#: the key of a step's own token in the snapshot its commit writes (:meth:`Runtime.commit`,
#: :attr:`~bot.model.LiveTable.step_token`, kept by the background snapshots of that step):
#: random, one per commit, so that a read-back (:meth:`Runtime._read_back`) and a chat taken
#: back (:meth:`bot.service.TableService.adopt`) tell the step's own snapshot from another
#: worker's step of the same number (issue 14)
STEP_TOKEN = "step_token"


def stored_as(data: Mapping[str, Any]) -> Any:
    """A snapshot as storage gives it back (JSON: tuples as lists, keys as strings), to
    compare a step's snapshot with the one stored.

    :raises TypeError: ``data`` is not JSON (storage refuses it)."""

    def plain(value: object) -> Any:
        if isinstance(value, Mapping):
            return dict(value)
        raise TypeError(f"{type(value).__name__} is not JSON-serialisable")

    return json.loads(json.dumps(data, default=plain))


def step_privates(old: LiveTable, step: Tx) -> dict[int, tuple[SeatState, Screen]]:
    """The private messages of ``step``, a step of table ``old`` rolled back and read back
    as saved (:meth:`Runtime._restore_anew`), by seat: each with the seat it goes to (as
    ``old`` has it now, its message refs those its sender wrote; a seat the step stood up,
    from before the step). Computer players have no private chat."""
    out: dict[int, tuple[SeatState, Screen]] = {}
    for s, screen in step.privates.items():
        seat = old.seats.get(s) or step.seated.get(s)
        if seat is not None and not seat.bot:
            out[s] = (seat, screen)
    return out


#: the key of an open table's snapshot that keeps the private messages the table owes from
#: a step read back as saved (:attr:`Runtime.owed_privates`, :func:`owed_to_json`): written
#: by the table restored anew (:meth:`Runtime._restore_anew`) and by every snapshot of the
#: table taken while they are owed (:meth:`Runtime.snapshot`), left out of the snapshot of
#: the step that carries them (:meth:`Runtime._carry`), so a restart or another worker
#: taking the table over sends them (:func:`bot.service.recovery.restore`), and nothing
#: sends them again once a committed step carried them
OWED_KEY = "owed_privates"


def owed_to_json(owed: Mapping[int, tuple[SeatState, Screen]]) -> list[dict[str, Any]]:
    """The private messages a table owes (:attr:`Runtime.owed_privates`: by seat, the seat as
    it was and the screen) as kept in its snapshot (:data:`OWED_KEY`): one item per seat,
    ``{"seat": n, "was": seat JSON, "text": …, "buttons": …}``."""
    return [
        {"seat": n, "was": was.to_json(), **screen.to_json()}
        for n, (was, screen) in sorted(owed.items())
    ]


def owed_from_json(table_id: int, items: object) -> dict[int, tuple[SeatState, Screen]]:
    """Inverse of :func:`owed_to_json`, read by another process (a restart, a worker taking
    the table over): a message ref that means nothing there (one not posted for certain,
    :data:`~bot.model.PENDING_PREFIX`, or a view of the hand only the presser saw,
    :data:`~bot.model.HAND_VIEW_PREFIX`) is dropped (the screen is posted anew); an item
    that cannot be read, or a computer player's, is left out (logged by its seat, never its
    cards: R3.3)."""
    out: dict[int, tuple[SeatState, Screen]] = {}
    if not isinstance(items, list):
        return out
    for item in items:
        try:
            n = int(item["seat"])
            was = SeatState.from_json(dict(item["was"]))
            screen = Screen.from_json(item)
        except (KeyError, TypeError, ValueError) as exc:
            # (its seat and the error's type: never the item, whose screen holds the
            # player's hidden cards, R3.3; whoever runs the bot may play)
            where = item.get("seat") if isinstance(item, dict) else None
            log.warning(
                "table %s: an owed private message (seat %r) cannot be read: %s",
                table_id,
                where if isinstance(where, int) else "?",
                type(exc).__name__,
            )
            continue
        if was.bot:
            continue
        if was.private_ref is not None and was.private_ref.startswith(
            (PENDING_PREFIX, HAND_VIEW_PREFIX)
        ):
            was.private_ref = None
        out[n] = (was, Screen(screen.text, screen.buttons, table=table_id))
    return out


#: how long a closed table's message waits for the bot's return to its chat
#: (:func:`waiting_for_chat`), in seconds: 30 days; then it is forgotten
#: (:func:`wait_expired`), so the final snapshots of groups that never take the bot back do
#: not pile up (each start, sweep and re-add reads them all)
CHAT_WAIT = 30 * 86400.0

#: seconds the bot's return to a chat is remembered (:attr:`Runtime.back_at`): a write
#: refused for want of access that was sent before the return is ignored
#: (:func:`bot.service.chats.chat_left`); no write waits that long for its answer (a
#: platform's rate limit included), so an older return tells nothing any more
BACK_KEPT_SECONDS = 3600.0


def waiting_for_chat(t: LiveTable, now: float | None = None) -> dict[str, Any]:
    """The final snapshot of table ``t``, closed while the bot may not write in its chat
    (:attr:`LiveTable.chat_gone`: removed from the group, R8.2a), once its players were told
    in private: it owes the chat only the closing notice (the outbox's last ``table`` item),
    written over the table message the group still has when the bot is back
    (:func:`bot.service.chats.owed_back`), one edit; the showdown and notices before it
    are not posted late (the players read them in private). A private notice of the outbox
    (:meth:`LiveTable.owe_notice`: a kick's to the player kicked) needs no group chat and is
    sent with the closing step (:meth:`Runtime.send_notices`); one still owed is kept, not
    dropped (sent by the next start or sweep then: :func:`waits_for_chat`)."""
    data = t.to_json()
    last = [item for item in t.outbox if item.get("kind") == "table"][-1:]
    # (private notices need no group chat: normally sent already, :meth:`Runtime.send_notices`)
    notices = owed_notices(t.outbox, t.outbox_sent)
    kept = sorted([*notices, *last], key=lambda item: int(item["id"]))
    data["outbox"] = [dict(item) for item in kept]
    data["outbox_sent"] = min((int(item["id"]) for item in kept), default=1) - 1
    data["private_outbox"] = []
    data["late_pictures"] = []
    data["chat_gone"] = True
    if t.group_ref is None and t.earlier_ref is not None:
        # restarted since the bot lost the chat: the table message it posted anew was
        # refused, and the group still sees the one from before the restart
        data["group_ref"] = t.earlier_ref
    data["waiting_since"] = time.time() if now is None else now  # (wall clock, seconds)
    return data


def pictures_owed(t: LiveTable) -> dict[str, Any]:
    """The final snapshot of closed table ``t`` once everything its closing step owed is
    sent but the showdown pictures the platform posts later (:attr:`LiveTable.late_pictures`,
    :meth:`Runtime.closed_sent`): nothing else is sent again after a restart, and those are
    posted under their pending refs (:func:`bot.service.recovery.deliver`)."""
    data = t.to_json()
    data["outbox"] = []
    data["private_outbox"] = []
    return data


def waits_for_chat(snap: Mapping[str, Any]) -> bool:
    """A closed table's final snapshot owes only what waits for the bot's return to its
    chat (:func:`waiting_for_chat`): nothing to send now. One owing a private notice of its
    outbox (:meth:`LiveTable.owe_notice`, a kick's: the closing step's snapshot, the process
    dead before it was sent) does not: the notice is sent now (:meth:`Runtime.send_notices`),
    not with the closing notice at the bot's return, if ever."""
    if not snap.get("chat_gone") or snap.get("private_outbox"):
        return False
    return not owed_notices(snap.get("outbox") or (), snap.get("outbox_sent", 0))


def owed_notices(outbox: Iterable[Any], sent: int) -> list[Mapping[str, Any]]:
    """The private notices of a table's ``outbox`` (:meth:`LiveTable.owe_notice`, kind
    ``"private"``) not sent yet (an id above ``sent``, :attr:`LiveTable.outbox_sent`), in
    the outbox's order; ``outbox`` a live table's or a snapshot's (anything but an item
    passed over)."""
    return [
        item
        for item in outbox
        if isinstance(item, Mapping)
        and item.get("kind") == "private"
        and int(item.get("id", 0)) > int(sent)
    ]


def wait_expired(snap: Mapping[str, Any], now: float | None = None) -> bool:
    """A closed table's final snapshot that waits for the bot's return (:func:`waits_for_chat`)
    has waited longer than :data:`CHAT_WAIT` (``now``: wall-clock seconds, the current time
    if ``None``): the group never took the bot back, and it is forgotten (the players were
    told in private). One saved without its start (``waiting_since``) does not expire until
    a start or sweep dates it (:meth:`Runtime.start_wait`)."""
    since = snap.get("waiting_since")
    if not waits_for_chat(snap) or not isinstance(since, int | float):
        return False
    return (time.time() if now is None else now) - float(since) > CHAT_WAIT


def wait_undated(snap: Mapping[str, Any]) -> bool:
    """A closed table's final snapshot waits for the bot's return (:func:`waits_for_chat`)
    without the time its wait began (saved by a bot from before :data:`CHAT_WAIT`): dated
    by the next start or sweep (:meth:`Runtime.start_wait`)."""
    return waits_for_chat(snap) and not isinstance(snap.get("waiting_since"), int | float)


def owed_screen(t: LiveTable, item: Mapping[str, Any]) -> Screen:
    """The screen of an item of a closed table's :attr:`~LiveTable.private_outbox`."""
    screen = Screen.from_json(item)
    return Screen(screen.text, screen.buttons, table=t.id)


def _shown_state(t: LiveTable) -> tuple[object, ...]:
    """What sending a step's messages may change on a table: message refs, reachability, the
    outbox sent, the table message's version."""
    seats = tuple(
        (s.seat, s.private_ref, s.reachable, s.refused_for_good) for s in t.seats.values()
    )
    late = tuple(str(item.get("ref")) for item in t.late_pictures)
    return (t.group_ref, t.outbox_sent, t.version, seats, late)


#: how many replayed hands' frames :attr:`Runtime.replays` keeps (a few KB each)
REPLAYS_KEPT = 64


class Runtime:
    """Shared state of the table service and the transition machinery.

    :param store: the storage implementation.
    :param clock: wall-clock seconds (injected for tests).
    :param rng: shuffles decks when given (tests); otherwise decks use a CSPRNG (R1.1).
    :param next_hand_delay: seconds between a showdown and the next deal.
    :param timers: run real asyncio timers; with ``False`` tests call ``run_due``.
    :param deck_source: returns the deck of each new hand (tests stack decks with it).
    :param bot_pace: seconds (least, most) a computer player waits before it moves.
    :param decisions_in_process: make the computer players' and "Arrange for me"'s decisions
        in a worker process (:class:`bot.thinking.Thinker`); ``False``: in threads; ``None``:
        :data:`bot.thinking.IN_PROCESS`.
    :param storage_wait: seconds a press, a command or a step waits for storage in all
        (:data:`STORAGE_WAIT` by default; ``STORAGE_WAIT_SECONDS``). :raises ValueError: not
        above 0.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        next_hand_delay: float = 4.0,
        timers: bool = True,
        deck_source: Callable[[], Sequence[Card]] | None = None,
        bot_pace: tuple[float, float] = (1.0, 3.0),
        decisions_in_process: bool | None = None,
        storage_wait: float = STORAGE_WAIT,
    ) -> None:
        if not storage_wait > 0:
            raise ValueError(f"storage_wait must be above 0 seconds, not {storage_wait!r}")
        self.store = store
        #: how long a press, a command or a step waits for storage (:data:`STORAGE_WAIT`)
        self.storage_wait = storage_wait
        self.bot_pace = bot_pace
        self.clock = clock
        self.rng = rng
        self.next_hand_delay = next_hand_delay
        self.timers = timers
        self.deck_source = deck_source
        #: the deck of a new hand from what is dealt (table, board seats, button, Fantasyland
        #: seats, board owners), ``None`` for the usual deck; set by the local sandbox only
        #: (``--fantasyland``: your board's cards stacked), never by the bot in real groups
        self.deal_source: (
            Callable[
                [LiveTable, tuple[int, ...], int, Mapping[int, int], Mapping[int, int]],
                Sequence[Card] | None,
            ]
            | None
        ) = None
        self.presenters: dict[str, Presenter] = {}
        self.tables: dict[int, LiveTable] = {}
        #: the start is restoring the open tables (:meth:`TableService.start`): a platform
        #: connected meanwhile (Discord's gateway) gets presses and commands for tables not
        #: served yet, answered "restarting" and changing nothing
        self.restoring = False
        self.by_chat: dict[tuple[str, str], int] = {}
        #: (platform, chat) → the one-shot command keys of the chat's last table closed
        #: here (:attr:`LiveTable.requests`): its next table takes them on, so that a
        #: /closetable or /newtable delivered again closes or opens no table since
        self.chat_requests: dict[tuple[str, str], list[str]] = {}
        #: community id → the keys of the last :data:`REQUESTS_KEPT` ``/settings`` changes
        #: handled here: a copy delivered while the first is handled changes nothing (the
        #: keys of applied changes are saved with them too, CommunitySettings.requests,
        #: which a restart keeps)
        self.settings_requests: dict[int, list[str]] = {}
        #: community id → the lock of a change of its settings here: a settings change
        #: (:func:`bot.service.settings.change_setting`),
        #: one at a time, so the tables take this worker's changes in the order saved (each
        #: is read and written in one storage transaction, :meth:`Store.change_settings`:
        #: none writes back what it read before another's write, another worker's too)
        self.settings_locks: dict[int, asyncio.Lock] = {}
        #: called with a community's id (and the ``language`` of
        #: :func:`bot.service.settings.settings_changed`) once a change of its settings saved
        #: here reached the tables served here: several workers (issue 14) tell those serving
        #: its other open tables (:meth:`bot.cluster.Worker.settings_saved`); ``None``: one
        #: process, every table of the community is here
        self.settings_elsewhere: Callable[[int, str | None], None] | None = None
        #: (platform, chat) → when (``time.monotonic()``) the bot was last told it is back in
        #: that chat (:func:`bot.service.chats.chat_back`): a write refused for want of access
        #: that was sent before then says nothing of now. Oldest first, kept
        #: :data:`BACK_KEPT_SECONDS` (:meth:`mark_back`): it grew by one entry per channel of
        #: every guild whose roles changed, for good
        self.back_at: dict[tuple[str, str], float] = {}
        #: what a table's timer runs when it fires (set by the service: timers.on_time);
        #: ``True``: the overdue step a change makes first (:meth:`overdue_first`)
        self.on_time: Callable[[LiveTable, bool], Awaitable[None]] | None = None
        #: starts the decisions of the computer players to act, given their seats (set by
        #: the service: bots.think_ahead), called when a step leaves one to act, with timers
        #: running
        self.think: Callable[[LiveTable, list[int]], None] | None = None
        #: decisions under way, by (table, seat): the knowledge each was made from and the
        #: task making it (bots.think_ahead, bots.bot_turn)
        self.thinking: dict[tuple[int, int], tuple[SeatKnowledge, asyncio.Task[Moves]]] = {}
        #: until when (the event loop's time) a decision under way is waited for at most:
        #: set when its computer player's move came due and the table's timer began to wait
        #: for it (:meth:`_decided`), so that the step that moves it (bots.bot_turn) waits only
        #: for what is left of :data:`~bot.thinking.DECISION_SECONDS`, not that long again
        self.thinking_until: weakref.WeakKeyDictionary[asyncio.Task[Moves], float] = (
            weakref.WeakKeyDictionary()
        )
        #: ``safe_autoplay``'s placements under way (R8.5), by (table, seat): the knowledge
        #: each is made from (:meth:`~game.hand.Hand.timeout_knowledge`) and the task making
        #: it in the decision process (:meth:`think_safe`)
        self.safe_thinking: dict[tuple[int, int], tuple[SeatKnowledge, asyncio.Task[Moves]]] = {}
        #: closed tables whose closing step's messages this process is sending now (the
        #: step's own sending, or :func:`bot.service.recovery.deliver`): a worker keeps
        #: their chats' leases meanwhile (issue 14), so no other worker sends them as well
        self.closing: dict[int, LiveTable] = {}
        #: of :attr:`closing`, the closed tables that have sent everything else and owe only
        #: showdown pictures being posted later (:meth:`closed_sent`): kept there until
        #: each is posted or given up
        self.owing_pictures: set[int] = set()
        self._pending: dict[int, dict[str, Any]] = {}
        #: table id → ``(seq, close)`` of a step whose commit storage neither confirmed nor
        #: refused for sure (the connection lost with the COMMIT sent, the caller cancelled),
        #: and whose outcome could not be read back then: the table was rolled back, and
        #: its next step first reads whether that one was saved after all
        #: (:meth:`_unsure_first`), so that its number is never given to another step
        #: unread (the store refuses that step, :class:`~storage.api.StaleStep`; before the
        #: step's token was in its key, it took it for a repeat of the first, the new step
        #: kept in memory only: a second Ready's buy-in never booked, the first's twice)
        self.unsure: dict[int, tuple[int, bool]] = {}
        #: of :attr:`unsure`, each step itself and the snapshot it committed (every table
        #: step commits one, a closing step owing nothing too): read back as saved, its
        #: messages go out as if its commit had answered (:meth:`_restore_anew`), and a
        #: closing one is told from a close another worker made (:meth:`_read_back`)
        self._unsure_steps: dict[int, tuple[Tx, dict[str, Any] | None]] = {}
        #: table id → the private messages (by seat: the seat as it was, the screen) of a
        #: step read back as saved after its table was rolled back (:meth:`_unsure_first`),
        #: never sent: every step of the table committed here carries them (:meth:`_carry`)
        #: until one is, the table restored anew making one of its own for them
        #: (:meth:`_restore_anew`), so a restored table that closes while catching up, whose
        #: first step fails, or that another path restored first sends them all the same.
        #: Kept with the table in storage too (:data:`OWED_KEY`: written as the table is
        #: restored anew, and in each snapshot of it until a committed step carried them),
        #: so a crash, a stop whose last try was refused, or the table let go to another
        #: worker does not lose them: the restart's or that worker's restore reads them back
        #: (:meth:`take_owed`)
        self.owed_privates: dict[int, dict[int, tuple[SeatState, Screen]]] = {}
        #: table id → the step under way (:meth:`transition`, from its start until committed
        #: or rolled back): a background snapshot taken meanwhile is the table as before it
        #: (:meth:`save_soon`)
        self._stepping: dict[int, Tx] = {}
        #: the tables being restored anew (:meth:`_restore_anew`), by id: the stop waits for
        #: them before it saves the tables (:func:`bot.service.recovery.stop`)
        self.renewing: dict[int, asyncio.Task[None]] = {}
        #: set while the bot is stopping (:attr:`stopping`)
        self._halt = asyncio.Event()
        #: (platform, chat) → the lock a ``/newtable`` or ``/tournament`` holds from its look
        #: for the chat's table until its own table is served (:meth:`opening_lock`): a
        #: record one opening is making is never taken for one a failed opening left
        #: (:func:`bot.service.lobby.open_table`)
        self.opening_locks: dict[tuple[str, str], asyncio.Lock] = {}
        #: community id → its time zone, hours from UTC, as :func:`~bot.service.settings.
        #: day_zone` last read it (at a table's opening or restore, a settings change,
        #: /daily): the table message says when a turn ends as a clock time there
        self.zones: dict[int, float] = {}
        #: the players the table message last rendered (by table) names as not reachable in
        #: private (:func:`bot.render.unreachable_names`): a write for a change of reachability
        #: is left out when the table message rendered since shows it (:meth:`show_group_later`)
        self._named: dict[int, tuple[str, ...]] = {}
        #: seconds after a refresh of a table message in which it is not refreshed again
        #: (:data:`REFRESH_SECONDS`, :meth:`refresh_group`)
        self.refresh_seconds = REFRESH_SECONDS
        #: seconds a command waits at most for that refresh (:data:`REFRESH_WAIT_SECONDS`)
        self.refresh_wait = REFRESH_WAIT_SECONDS
        #: table id → when (``time.monotonic()``) its message was last refreshed by a command
        #: and the group-chain job doing it (:meth:`refresh_group`)
        self._refreshed: dict[int, tuple[float, asyncio.Task[None]]] = {}
        #: the table messages from before a restart (by table; :func:`.recovery.resume`
        #: posts the table message anew), written as moved once out of date
        #: (:meth:`retire_earlier`)
        self._earlier: dict[int, str] = {}
        #: the players' hand messages from before a restart (by table and user id;
        #: :func:`.recovery.resume` posts those hands anew), written as moved once the new
        #: one is posted (:meth:`retire_hand_later`)
        self._earlier_hands: dict[tuple[int, str], str] = {}
        self._savers: dict[int, asyncio.Task[None]] = {}
        #: the writes of closed tables' command keys under way (:meth:`keep_table_requests`)
        self._keepers: set[asyncio.Task[None]] = set()
        #: the closed tables whose final snapshot this process forgot, or is forgetting
        #: (:meth:`forget_owed`): what they owed was sent, so a read of the final snapshot
        #: from before (a sweep's, a restore anew's, :meth:`owes`) sends nothing again. By
        #: table id, the number of its deletion once storage confirmed it (:attr:`_forgets`;
        #: ``None`` until then): kept until no read of the final snapshots that began before
        #: that is under way (:meth:`reading_owed`), then dropped (one id per closed table
        #: stayed for good, a long-running bot's memory growing with every table closed)
        self._forgotten: dict[int, int | None] = {}
        #: the closed tables whose players were told and whose final snapshot is being
        #: saved as waiting for the bot's return (:meth:`wait_for_chat`, tried again in the
        #: background): no read of the final snapshots here sends them meanwhile (:meth:`owes`)
        self._recording: set[int] = set()
        #: of :attr:`_recording`, the tables whose chat the bot came back to meanwhile
        #: (:func:`bot.service.chats.owed_back` skips them, their final snapshot not yet
        #: waiting for the bot's return): table id → (platform, chat); once recorded, the
        #: table message is written as closed (:meth:`wait_for_chat`)
        self.back_while_told: dict[int, tuple[str, str]] = {}
        #: the tables recorded as told (:meth:`wait_for_chat`) while a read of the final
        #: snapshots was under way (:meth:`reading_owed`), which may hold the snapshot from
        #: before: such a read's :func:`bot.service.chats.owed_back` reads them again;
        #: emptied once no read is under way
        self.told_meanwhile: set[int] = set()
        #: how many deletions of final snapshots storage confirmed here (:attr:`_forgotten`)
        self._forgets = 0
        #: the reads of the closed tables' final snapshots under way (:meth:`reading_owed`),
        #: each with :attr:`_forgets` when it began
        self._owed_reads: dict[object, int] = {}
        #: the frames of the hands replayed lately (``/replay`` and its ◀ ▶,
        #: :func:`bot.service.stats._frames`), most recent last, at most
        #: :data:`REPLAYS_KEPT`: (history id, the watcher's seat) → frames as that seat
        #: sees them (the seat in the key: one watcher's frames, their discards, never
        #: another's, R3.3). A stored hand never changes, so ◀ ▶ made none again
        self.replays: OrderedDict[tuple[int, int], tuple[ReplayFrame, ...]] = OrderedDict()
        #: draws the pictures in a worker process (shut down by the service's stop)
        self.drawer = Drawer()
        #: makes the computer players' and "Arrange for me"'s decisions, in a worker process
        #: of its own (shut down by the service's stop) or in threads
        self.thinker = Thinker(
            thinking.IN_PROCESS if decisions_in_process is None else decisions_in_process
        )

    # -- tables ------------------------------------------------------------------------------
    def add(self, t: LiveTable) -> None:
        """Serve a table (opened or restored). A chat another open table serves keeps the
        older one (the lower id): two share a chat only when a group moved to a chat where a
        table was opened before the move was known, the newer one closing
        (:func:`~bot.service.chats.close_stray`; restored so after a crash before it did).
        A table restored is what storage holds: a step of an earlier object of it whose
        outcome was not known (:attr:`unsure`) is not read back any more (a start after a
        stop in the same process read it back "saved after all" before the resume's step:
        the restored table let go at once and restored anew, the old step's screens sent)."""
        unsure = self._unsure_steps.get(t.id)
        if unsure is not None and unsure[0].table is not t:
            self._sure(t.id)
        self.tables[t.id] = t
        held = self.table_at(t.platform, t.chat_id)
        if held is None or held.id >= t.id:
            self.by_chat[(t.platform, t.chat_id)] = t.id

    def table_at(self, platform: str, chat_id: str) -> LiveTable | None:
        """The table served in a chat, if any."""
        tid = self.by_chat.get((platform, chat_id))
        return self.tables.get(tid) if tid is not None else None

    def forget(self, t: LiveTable) -> None:
        """Stop serving a closed table."""
        self.tables.pop(t.id, None)
        if self.by_chat.get((t.platform, t.chat_id)) == t.id:  # (not a table moved there)
            del self.by_chat[(t.platform, t.chat_id)]
            self.chat_requests[(t.platform, t.chat_id)] = list(t.requests)
        self._pending.pop(t.id, None)
        self._named.pop(t.id, None)
        self._earlier.pop(t.id, None)
        self._refreshed.pop(t.id, None)
        for book in (self.thinking, self.safe_thinking):
            for key in [k for k in book if k[0] == t.id]:
                book.pop(key)[1].cancel()

    def opening_lock(self, platform: str, chat_id: str) -> asyncio.Lock:
        """The lock of a table's opening in a chat (:attr:`opening_locks`; R8.2a: one open
        table a chat). Two ``/newtable`` or ``/tournament`` at once both found no table and
        both asked storage for a record; the second, refused because the first's had just
        committed, looked for the table opened meanwhile before the first command had
        resumed to serve it, found none and answered "Could not save" (``err.storage``).
        Under this lock the second waits and is told the first's table is open."""
        return self.opening_locks.setdefault((platform, chat_id), asyncio.Lock())

    def settings_lock(self, community_id: int) -> asyncio.Lock:
        """The lock of a read-then-write of the community's settings (:attr:`settings_locks`)."""
        return self.settings_locks.setdefault(community_id, asyncio.Lock())

    async def keep_table_requests(self, community_id: int, requests: list[str], table: int) -> None:
        """Save ``requests``, the one-shot command keys of the table ``table`` just closed
        (its ``/newtable``, its ``/closetable``, :attr:`LiveTable.requests`), with its
        community's settings (:attr:`~storage.api.CommunitySettings.table_requests`, the
        last :data:`TABLE_REQUESTS_KEPT`): :attr:`chat_requests` keeps them in memory only,
        and a copy of the ``/newtable`` delivered after a restart opened a table again (run
        in the background by :meth:`transition`, waited for by :meth:`drain`). Tried until
        saved or the bot stops (:meth:`_write_late`: :data:`LATE_WRITE_SECONDS` each try, not
        the second of a press); then only a copy after a restart is not known. Saved in the
        transaction that reads the settings (:meth:`~storage.api.Store.change_settings`): an
        admin's change saved meanwhile, here or by another worker, stays."""

        def keep(s: CommunitySettings) -> CommunitySettings:
            keys = [k for k in s.table_requests if k not in requests] + requests
            kept = tuple(keys[-TABLE_REQUESTS_KEPT:])
            return s if kept == s.table_requests else dataclasses.replace(s, table_requests=kept)

        async def write() -> None:
            await self.store.change_settings(community_id, keep)

        # (not holding the settings' lock: an admin's /settings waited for a slow write; the
        # transaction merges with a change saved meanwhile, which keeps the keys, as above)
        await self._write_late(write, f"table {table}: its command keys")

    def let_go(self, t: LiveTable) -> None:
        """Stop serving a table another worker serves now (its lease was lost, issue 14):
        its timer cancelled, the pictures it was posting later dropped (the other worker
        posts them from the table's state, :func:`bot.service.recovery.resume`, or a closed
        table's from its final snapshot, :func:`bot.service.recovery.deliver`), forgotten
        (a closed one owing only those leaves :attr:`closing`), its step whose outcome was
        not known too (:attr:`unsure`: the table served again, here or there, is what
        storage holds); nothing written (the fenced store would refuse)."""
        for key in [k for k in self._earlier_hands if k[0] == t.id]:
            del self._earlier_hands[key]
        if t.timer is not None and t.timer is not asyncio.current_task():
            t.timer.cancel()
        t.timer = None
        self._drop_pictures(t)
        self.forget(t)
        # (the worker serving it now sends them: kept in the table's snapshot, :data:`OWED_KEY`)
        self.owed_privates.pop(t.id, None)
        unsure = self._unsure_steps.get(t.id)
        if unsure is None or unsure[0].table is t:
            # (whoever serves it next starts from what storage holds, whatever that step's
            # outcome: read back later, the table here adopted again, it found the steps
            # stored since, another worker's or its own resume's, "changed meanwhile")
            self._sure(t.id)
        if t.id in self.owing_pictures:
            self.owing_pictures.discard(t.id)
            self.closing.pop(t.id, None)

    def drop_late_pictures(self) -> None:
        """Stop posting every showdown picture being posted later here, telling the service
        nothing (:meth:`~bot.model.Presenter.drop_picture`): a worker giving its leases up
        at its stop (issue 14), before its adapters stop; the tables' next workers post them
        from the tables' states and the closed tables' records."""
        for t in [*self.tables.values(), *self.closing.values()]:
            self._drop_pictures(t)

    def _drop_pictures(self, t: LiveTable) -> None:
        """Stop posting ``t``'s late pictures here (:meth:`~bot.model.Presenter.drop_picture`);
        the table's state still owes them."""
        p = self.presenter(t)
        if p is not None:
            for item in t.late_pictures:
                p.drop_picture(str(item.get("ref")))

    def idle_for_handover(self, t: LiveTable, until: float, *, held: bool = False) -> bool:
        """Whether open table ``t`` may be handed to another worker now (issue 14: a
        Telegram table moved to its rendezvous pick, :meth:`bot.cluster.Worker.rebalance`)
        without losing or doubling anything: it is served here and not held (no step, press
        or timer under way), no hand is dealt or played (the lobby, or between hands with no
        reveal), no close is queued, nothing is due before ``until`` (the clock's time:
        the next deal, a ready or top-up timer, a computer player's move, a level, the idle
        close, :meth:`next_deadline`), and nothing is owed or in flight that lives only in
        this process: no message unsent or being sent (the outbox, late pictures, private
        messages owed, an edit watched), no background snapshot being written, no step whose
        commit is unsure, no restore anew, no decision being made, no message from before a
        restart waiting to be written as moved. Such a table's snapshot is all of it.
        ``held``: the caller holds the table's lock (:func:`.recovery.hand_over`)."""
        if not self.open_here(t) or (t.lock.locked() and not held) or self.stopping:
            return False
        if t.phase not in (Phase.LOBBY, Phase.BETWEEN) or t.hand is not None or t.reveal:
            return False
        if t.closing or t.removal_close or t.moved_close or t.chat_gone or t.bot_due is not None:
            return False
        if t.private_outbox or t.late_pictures or t.top_ups_due():
            return False
        if t.outbox_owed():
            return False
        if any(not task.done() for task in [*t.sending.values(), *t.edits]):
            return False
        writer = self._savers.get(t.id)
        if t.id in self._pending or (writer is not None and not writer.done()):
            return False
        busy = (self.unsure, self._unsure_steps, self.owed_privates, self._stepping, self.renewing)
        if any(t.id in book for book in busy) or t.id in self._earlier:
            return False
        if any(k[0] == t.id for k in (*self.thinking, *self.safe_thinking, *self._earlier_hands)):
            return False
        due = self.next_deadline(t)
        return due is None or due > until

    def held_tables(self) -> list[LiveTable]:
        """The tables whose chats this worker must hold (issue 14): the open ones, and the
        closed ones owing only pictures posted later here (:attr:`owing_pictures`)."""
        owing = [t for t in self.closing.values() if t.id in self.owing_pictures]
        return [*self.tables.values(), *owing]

    def open_here(self, t: LiveTable) -> bool:
        """Whether this very table object is open and served here (:attr:`tables`): not once
        closed or let go (:meth:`let_go`), nor a stale object of a table let go and restored
        anew since (issue 14: a step that waited for its lock must not be played on it)."""
        return self.tables.get(t.id) is t

    def serves(self, t: LiveTable) -> bool:
        """Whether this very table object is served here: open (:meth:`open_here`), or closed
        and sending its last messages or pictures (:attr:`closing`); not once let go
        (:meth:`let_go`), nor a stale object of a table taken over again since."""
        return self.open_here(t) or self.closing.get(t.id) is t

    def presenter(self, t: LiveTable) -> Presenter | None:
        """The adapter that shows this table's messages."""
        return self.presenters.get(t.platform)

    def table_link(self, t: LiveTable) -> str | None:
        """A URL that shows the table message to the chat's members, if the platform has
        one (:meth:`~bot.model.Presenter.message_link`)."""
        p = self.presenter(t)
        if p is None or t.group_ref is None:
            return None
        return p.message_link(t.community_ext, t.group_chat, t.group_ref)

    def plain_text(self, platform: str, text: str) -> str:
        """``text`` (names as the platform's messages show them) as a picture draws it
        (:meth:`~bot.model.Presenter.plain_text`; unchanged without that platform)."""
        p = self.presenters.get(platform)
        return p.plain_text(text) if p is not None else text

    def typed_text(self, platform: str, text: str) -> str:
        """``text`` a user typed, as an answer that repeats it shows it: without invisible
        format characters and cut to a short argument's length (:func:`bot.names.quoted`),
        then as the platform's messages show it literally (:meth:`literal`)."""
        return self.literal(platform, quoted(text))

    def literal(self, platform: str, text: str) -> str:
        """``text`` as the platform's messages show it literally
        (:meth:`~bot.model.Presenter.typed_text`: Discord's escaped, Telegram's plain text
        unchanged; unchanged without that platform)."""
        p = self.presenters.get(platform)
        return p.typed_text(text) if p is not None else text

    def kush_label(self, community: Community) -> str:
        """A community's ``kush_label`` setting (stored as the admin typed it without its
        invisible format characters, at most :data:`~bot.service.settings.KUSH_LABEL_MAX`
        characters) as the platform's messages show it literally: the one place that escapes
        it (:meth:`literal`: on Discord ``**x**`` is no bold, ``<@1>`` no mention;
        Telegram's is plain text, unchanged). Every message's ``{label}`` and a table's
        :attr:`~bot.model.LiveTable.label` take it; pictures and charts draw the stored
        text itself."""
        return self.literal(community.platform, community.settings.kush_label)

    def snapshot(self, t: LiveTable, *, owed: bool = True) -> dict[str, Any]:
        """The table's snapshot now (``saved_at`` lets a restart stop the clocks, R8.5), with
        the private messages it owes from a step read back as saved (:data:`OWED_KEY`,
        :attr:`owed_privates`), unless ``owed`` is ``False`` (the step that carries them)."""
        data = t.to_json()
        data["saved_at"] = self.clock()
        if owed and (held := self.owed_privates.get(t.id)):
            data[OWED_KEY] = owed_to_json(held)
        return data

    def take_owed(self, table_id: int, snap: Mapping[str, Any]) -> None:
        """Table ``table_id`` is restored from ``snap``: the private messages it keeps there
        (:data:`OWED_KEY`, a step read back as saved whose messages no committed step
        carried yet: the process that read it back crashed, stopped or let the table go)
        are owed here (:attr:`owed_privates`), carried by the restored table's first step
        (:func:`~bot.service.recovery.resume`). Those this process holds already stay."""
        if table_id not in self.owed_privates:
            owed = owed_from_json(table_id, snap.get(OWED_KEY))
            if owed:
                self.owed_privates[table_id] = owed

    # -- transitions -------------------------------------------------------------------------
    def begin(self, t: LiveTable) -> Tx:
        """Start a transition of ``t`` (call under ``t.lock``)."""
        return Tx(t, self.snapshot(t), seated=dict(t.seats))

    def rollback(self, tx: Tx) -> None:
        """Put the table back exactly as it was when ``tx`` began. What the sender did in the
        meantime stays: message refs (an earlier table message forgotten too), reachability,
        what of the outbox was sent, the pictures posted later."""
        t = tx.table
        self._named.pop(t.id, None)  # (the step's table message, rendered, is not written)
        # read back at the moment it was taken, not now: read now, the time the step took
        # (a database answering after :attr:`storage_wait` with a refusal) counted as the
        # bot's downtime, which stops the clocks (R8.5) and delays the levels (R8.7), the
        # idle close (R8.2a) and the ready and top-up timers (R8.2): every refused step gave
        # the player to act their seconds back and put the next level that much later
        taken = tx.before.get("saved_at")
        fresh = LiveTable.from_json(tx.before, self.clock() if taken is None else float(taken))
        shown = {s.seat: (s.private_ref, s.reachable, s.refused_for_good) for s in t.seats.values()}
        group_ref, sent, late = t.group_ref, t.outbox_sent, t.late_pictures
        forgotten = t.earlier_ref is None  # (by the sender: :meth:`_forget_earlier`)
        for f in fields(LiveTable):
            if f.name not in _KEEP:
                setattr(t, f.name, getattr(fresh, f.name))
        if group_ref is not None and group_ref == tx._minted:  # (never posted: not saved)
            group_ref = None
        for s, minted in tx._minted_hands.items():  # (the same: never posted)
            if s in shown and shown[s][0] == minted:
                shown[s] = (None, *shown[s][1:])
        t.group_ref, t.outbox_sent, t.late_pictures = group_ref, sent, late
        if forgotten:
            t.earlier_ref = None
        t.outbox = [item for item in t.outbox if int(item["id"]) > sent]
        for seat in t.seats.values():
            if seat.seat in shown:
                seat.private_ref, seat.reachable, seat.refused_for_good = shown[seat.seat]

    @contextlib.asynccontextmanager
    async def transition(self, t: LiveTable) -> AsyncIterator[Tx]:
        """One table step: yields a :class:`Tx`; on leaving the block the step is committed
        (:meth:`commit`) and its messages are queued to the table's sender (:meth:`send`),
        which writes them without holding the table. An exception inside the block rolls
        the table back and propagates.

        :raises TransitionFailed: storage refused the step (the table is as before).
        :raises InsufficientFunds: a buy-in met a short balance (the table is as before)."""
        tx = self.begin(t)
        self._stepping.setdefault(t.id, tx)
        try:
            try:
                yield tx
            except BaseException:
                self.rollback(tx)
                raise
            await self.commit(tx)
        finally:
            if self._stepping.get(t.id) is tx:
                del self._stepping[t.id]
        self.send(tx)
        if tx.close and t.requests:  # in the background: nothing of the close waits for it
            self.keep(
                self.keep_table_requests(t.community_id, list(t.requests), t.id),
                name=f"table-{t.id}-requests",
            )

    async def _write_late(self, write: Callable[[], Awaitable[None]], what: str) -> None:
        """Run ``write`` (a store write no user waits for, :data:`LATE_WRITE_SECONDS` each
        try) until done, tried again after a failure (:data:`RENEW_RETRY_SECONDS`, twice as
        long each time, :data:`RENEW_RETRY_MAX` at most) until the bot stops: one last try
        then. Given up (logged, ``what``) on a fenced store's refusal (another worker serves
        the chat now) or a failure that is not storage's."""
        wait = RENEW_RETRY_SECONDS
        while True:
            try:
                with answer_within(max(self.storage_wait, LATE_WRITE_SECONDS)):
                    await write()
                return
            except (LeaseLost, StorageError) as exc:
                if self.stopping or isinstance(exc, LeaseLost):
                    log.warning("%s not saved: %r", what, exc)
                    return
                log.warning("%s not saved yet, tried again: %r", what, exc)
            except Exception:
                log.exception("%s not saved", what)
                return
            wait = await self._pause(wait)

    async def _pause(self, wait: float) -> float:
        """Wait ``wait`` seconds before a failed background step's next try (a late write,
        :meth:`_write_late`; a table restored anew, :meth:`_restore_anew`), cut short by the
        stop (:attr:`stopping`). Returns the wait before the try after: twice as long,
        :data:`RENEW_RETRY_MAX` at most."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._halt.wait(), wait)
        return min(2 * wait, RENEW_RETRY_MAX)

    def keep(self, work: Awaitable[None], *, name: str) -> asyncio.Task[None]:
        """Run ``work`` in the background, waited for by :meth:`drain` (the stop)."""
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._keepers.add(task)
        task.add_done_callback(self._keepers.discard)
        return task

    def render_private(self, t: LiveTable, seat: SeatState) -> Screen:
        """A player's private screen now (its turn clock in the group's time zone when set,
        as the table message's: :func:`render.private_screen`)."""
        return render.private_screen(t, seat, self.clock(), self.zones.get(t.community_id))

    async def commit(self, tx: Tx) -> None:
        """Render what the step shows, then write its moves and the table's new snapshot in
        one storage transaction (key ``t<table>:s<seq>:<step token>``: a repeat of this very
        step only; a live snapshot not newer than the stored one is refused, another step of
        that number stored, :class:`~storage.api.StaleStep`); re-arm the timer. On failure roll
        back (a failure to render or snapshot the step too: nothing was saved), unless the
        step reads back as saved (an answer lost after the COMMIT, :meth:`_saved`); one whose
        outcome cannot be read yet is read first by the table's next step (:attr:`unsure`).

        A step outside a press or a command (a timer's, whose table a press waits for)
        waits for storage :attr:`storage_wait` at most too: one not answered is unsure.

        :raises TransitionFailed: storage refused; logged once.
        :raises InsufficientFunds: a buy-in met a short balance."""
        if time_left() is not None:  # (a press's or a command's: bound already)
            await self._commit(tx)
            return
        with answer_within(self.storage_wait):
            await self._commit(tx)

    async def _commit(self, tx: Tx) -> None:
        t = tx.table
        now = self.clock()
        try:
            t.stamp_left(now)  # (when a player left: R8.6, lobby.join)
            if not tx.close:
                pass_opener(tx)
            if tx.group and not tx.close:
                tx._group_screen = self.group_screen(t)
                if posts_by_ref(self.presenter(t)):
                    # committed before the post, its nonce too: a crash after the post
                    # and before its id is saved posts no second one after the restart
                    if t.group_ref is None:
                        t.group_ref = tx._minted = pending_ref(PENDING_PREFIX)
                    _mint_next(t, int(tx.before.get("outbox_seq", 0)))
                if t.tournament is not None and t.tournament.started_at is not None:
                    t.level_shown = t.tournament.level_at(now)  # (R8.7, :meth:`level_due`)
            carried = self._carry(tx)
            zone = self.zones.get(t.community_id)  # (the turn's clock: as the group's)
            for s in sorted(tx.show):
                seat = t.seats.get(s)
                if seat is not None and not seat.bot:  # computer players have no private chat
                    tx.privates[s] = render.private_screen(t, seat, now, zone)
            if not tx.close and posts_by_ref(self.presenter(t)):
                for s in sorted(tx.privates):
                    seat = t.seats.get(s)
                    if seat is not None and not seat.bot and seat.private_ref is None:
                        # posted anew: committed before the post, its nonce too, as the
                        # table message's (a crash after the post posts no second hand)
                        seat.private_ref = tx._minted_hands[s] = pending_ref(PENDING_PREFIX)
            if tx.close:  # its private messages too are kept with the final snapshot
                by_ref = posts_by_ref(self.presenter(t))
                for s in sorted(tx.privates):
                    seat = t.seats.get(s) or tx.seated.get(s)
                    if seat is not None and not seat.bot:
                        anew = seat.private_ref is None or seat.private_ref.startswith(
                            HAND_VIEW_PREFIX  # ("My cards", a view only: nothing to write over)
                        )
                        if by_ref and anew:
                            # posted anew: under a ref committed first, as an open table's
                            # step posts a hand (a restart posts under it again: one message;
                            # under the view's ref it was posted with a random nonce)
                            seat.private_ref = tx._minted_hands[s] = pending_ref(PENDING_PREFIX)
                        t.owe_private(
                            seat.user_id, tx.privates[s], seat.private_ref, seat=s, by_ref=by_ref
                        )
                for item in t.private_outbox if by_ref else ():
                    if not item.get("ref"):  # (told without a seat: a tournament's knocked out)
                        item["ref"] = pending_ref(PENDING_PREFIX)
            self._schedule_bots(t)
            t.seq += 1
            # this commit's own, to tell it when read back (in every snapshot of this step,
            # the background ones too: :attr:`LiveTable.step_token`)
            t.step_token = secrets.token_hex(8)
            # a closing step keeps its snapshot as the closed table's final one while it owes
            # the chat messages (:meth:`effects` forgets it once they are sent; a restart after
            # a crash sends them, :func:`bot.service.recovery.deliver`); one owing nothing
            # commits it too, so that its number is compared with the stored step's (without
            # one, a stale close applied: :func:`storage._common.commit_seq`), and forgets it
            # as it is sent (:meth:`closed_sent`)
            # (what it carries is sent with it: not kept in its snapshot, :data:`OWED_KEY`)
            data = self.snapshot(t, owed=not carried)
        except BaseException:
            # (a screen that fails to render, say): nothing is saved, so nothing may stay
            # changed either; the live table kept the step, which the next commit then saved
            # (a seat taken by a /join answered "something went wrong; nothing changed")
            self.rollback(tx)
            raise
        # a background snapshot taken before this step must not overwrite the committed one
        self._pending.pop(t.id, None)
        if t.id in self.unsure:
            try:
                await self._unsure_first(tx)
            except asyncio.CancelledError:  # (during its read: nothing rolled back yet; the
                self.rollback(tx)  # stop's snapshot saved a step never committed)
                raise
        seq = t.seq
        try:
            # (its token in the key: a repeat is only ever this very step, never another step
            # of that number, which the store refuses, StaleStep, and _read_back tells)
            key = f"t{t.id}:s{seq}:{t.step_token}"
            await self.store.commit(t.id, tx.moves, data, key=key, close=tx.close)
        except InsufficientFunds:
            self.rollback(tx)
            raise
        except LeaseLost as exc:  # another worker serves the table now (issue 14)
            self.rollback(tx)
            log.warning("table %s: lease lost, no longer served here: %s", t.id, exc)
            self.let_go(t)
            raise TransitionFailed(str(exc)) from exc
        except asyncio.CancelledError:  # the write may go on (both stores finish a started one)
            self.rollback(tx)
            self._unsure(tx, seq, data)
            raise
        except Exception as exc:
            # the error may have come after the COMMIT applied (a connection lost before its
            # answer): what storage holds now tells
            try:
                saved = await self._read_back(t.id, seq, tx.close, data)
            except asyncio.CancelledError:  # (as a commit cancelled: not known, rolled back)
                self.rollback(tx)
                self._unsure(tx, seq, data)
                raise
            if saved != "saved":
                self.rollback(tx)
                if saved == "unknown":
                    self._unsure(tx, seq, data)
                log.error("table %s: transition %s not saved, nothing changed: %r", t.id, seq, exc)
                if saved == "closed":
                    self._closed_elsewhere(t)
                    raise ClosedElsewhere(str(exc)) from exc
                if saved == "other":
                    self._changed_elsewhere(t)
                    raise ChangedElsewhere(str(exc)) from exc
                raise TransitionFailed(str(exc)) from exc
            log.warning("table %s: transition %s saved though storage said %r", t.id, seq, exc)
        if carried:  # sent with this step's messages (:meth:`send`)
            self.owed_privates.pop(t.id, None)
        if tx.close:  # the table is closed: stop serving it
            if t.timer is not None and t.timer is not asyncio.current_task():
                t.timer.cancel()
            self.retire_earlier(t, closed=True)  # (its buttons would answer a closed table)
            self.forget(t)
            if data is not None:  # it owes the chat its last messages: sent by effects
                self.closing[t.id] = t
                tx.final = data
        else:
            if data.get("earlier_ref") is not None and t.earlier_ref is None and self.open_here(t):
                # forgotten while the step was written (:meth:`_forget_earlier`, the sender's):
                # its snapshot kept the old table message and the background one taken then
                # was the table before the step (an older number: not kept), so a crash before
                # the next step had it written as moved again; the table as committed, saved
                self._save_taken(t, self.snapshot(t))
            await self.arm(t)

    @property
    def stopping(self) -> bool:
        """The bot is stopping (:func:`bot.service.recovery.stop`; set back by the next
        start): no table's timer starts (:meth:`arm`), so a table restored or stepped during
        the stop (restored anew, taken over) has none running after it, and a table restored
        anew that failed is not tried again (:meth:`_restore_anew`: the next start does)."""
        return self._halt.is_set()

    @stopping.setter
    def stopping(self, value: bool) -> None:
        if value:
            self._halt.set()
        else:
            self._halt.clear()

    def _unsure(self, tx: Tx, seq: int, data: dict[str, Any] | None) -> None:
        """Step ``tx`` (number ``seq``, its snapshot ``data``), rolled back, may have been
        saved all the same: the table's next step reads it first (:attr:`unsure`)."""
        t = tx.table
        self.unsure[t.id] = (seq, tx.close)
        self._unsure_steps[t.id] = (tx, data)

    def _sure(self, table_id: int) -> None:
        """The outcome of the table's unsure step is known (:attr:`unsure`)."""
        self.unsure.pop(table_id, None)
        self._unsure_steps.pop(table_id, None)

    def _carry(self, tx: Tx) -> bool:
        """Add to step ``tx`` the private messages its table owes from a step read back as
        saved (:attr:`owed_privates`): each goes over the message the seat had, a player
        that step stood up told too (:attr:`Tx.seated`), not to a seat someone else sits
        in by now; a seat the step writes itself (its own screen, or one it shows) gets that
        instead, and so does a seat in a hand being played now (its current hand is shown,
        not covered by the screen owed, as the restored table's first step shows it,
        :func:`~bot.service.recovery.resume`). A closing step keeps them with its
        final snapshot (:meth:`_commit`). ``True`` when any are carried (forgotten once the
        step is committed)."""
        t = tx.table
        owed = self.owed_privates.get(t.id)
        if not owed:
            return False
        for n, (was, screen) in owed.items():
            seat = t.seats.get(n)
            if seat is not None and seat.user_id != was.user_id:
                continue  # (not theirs to be told: someone else sits there by now)
            tx.privates.setdefault(n, screen)
            tx.seated.setdefault(n, was)  # (stood up by that step: told too)
            if seat is not None and t.hand is not None and t.reveal is None:
                tx.show.add(n)
        return True

    def _changed_elsewhere(self, t: LiveTable) -> None:
        """Storage holds a step of table ``t`` that is not this process's (another worker's,
        issue 14, :meth:`_read_back`): nothing of this process's step was saved or is sent;
        ``t`` is let go and the table served again as storage has it, in the background
        (:meth:`_restore_anew`; another worker serving it refuses that restore's step
        through the fenced store, and this one lets it go again)."""
        log.warning("table %s: storage holds another worker's step; restored from storage", t.id)
        self._sure(t.id)
        self.let_go(t)
        self._renew(t, None, None, ours=False)

    def _closed_elsewhere(self, t: LiveTable) -> None:
        """Storage has table ``t`` closed, and not by a step of this process (another worker
        closed it, issue 14, and sends its closing messages): it is no longer served here,
        nothing sent (each of its steps here was refused against the closed table)."""
        log.warning("table %s: closed in storage by another step; no longer served here", t.id)
        self._sure(t.id)
        self.let_go(t)

    async def _read_back(
        self, table_id: int, seq: int, close: bool, data: Mapping[str, Any] | None
    ) -> ReadBack:
        """Whether the step ``seq`` of the table (its snapshot ``data``) is what storage
        holds (read back after a commit that failed: it may have applied all the same):
        ``"saved"`` when its snapshot is the stored one, told by the commit's own token
        (:data:`STEP_TOKEN`; a closing step: the table is closed with the final snapshot it
        committed; with none given, closed at all), ``"not saved"`` when storage holds an
        earlier step, ``"other"`` when it holds another step of that number or a later one
        (another worker's, two workers on one table after a lease takeover, issue 14: taken
        for this one, its messages were sent as well as that worker's and the table served
        here went on from a state storage never had), ``"closed"`` when the table is closed
        by another step (another worker's close: whose closing messages that worker sends;
        this step's would be a second closing notice), ``"unknown"`` when storage cannot be
        read either."""
        try:
            state = await self.store.table_state(table_id)
            if state is None and close and data is not None:
                # (the final snapshot is what the closing commit stored: another worker's
                # close keeps its own, and one that sent its messages forgot it)
                finals = await self.store.closed_snapshots()
        except Exception as exc:
            log.error("table %s: whether step %s was saved is not known: %r", table_id, seq, exc)
            return "unknown"
        if state is None:  # closed (a table served here is open but by a closing step)
            if not close:
                return "closed"
            if data is None:  # (no final snapshot: whoever closed it, nothing is sent twice)
                return "saved"
            try:
                ours = stored_as(data)
            except (TypeError, ValueError):  # (not JSON: never stored)
                return "closed"
            mine = any(r.id == table_id and stored_as(snap) == ours for r, snap in finals)
            return "saved" if mine else "closed"
        stored = state[1]
        at = int(stored.get("seq", 0))
        if at < seq:
            return "not saved"
        token = None if data is None else data.get(STEP_TOKEN)
        if not close and at == seq and token is not None and stored.get(STEP_TOKEN) == token:
            return "saved"
        return "other"

    async def _unsure_first(self, tx: Tx) -> None:
        """Before a step of a table whose last commit's outcome was not known
        (:attr:`unsure`): read it. Not saved: the step goes on (its key is free). Saved: the
        table here is behind storage, so it is rolled back, let go and restored anew from
        what storage holds (:func:`bot.service.recovery.restore`, in the background), the
        unsure step's messages sent as if its commit had answered (:meth:`_restore_anew`),
        and the step refused. Closed by another worker: let go, nothing sent
        (:meth:`_closed_elsewhere`), the step refused. Another worker's step stored at or
        after its number: restored anew from storage, nothing of the unsure step sent
        (:meth:`_changed_elsewhere`), the step refused. Still not known: the step is refused,
        nothing changed.

        :raises ClosedElsewhere: another worker closed the table.
        :raises ChangedElsewhere: another worker's step is stored.
        :raises TransitionFailed: the step cannot be saved now."""
        t = tx.table
        seq, close = self.unsure[t.id]
        step, data = self._unsure_steps.get(t.id, (None, None))
        saved = await self._read_back(t.id, seq, close, data)
        if saved == "not saved":
            self._sure(t.id)
            return
        self.rollback(tx)
        if saved == "unknown":
            raise TransitionFailed(f"whether step {seq} of table {t.id} was saved is not known")
        if saved == "closed":
            self._closed_elsewhere(t)
            raise ClosedElsewhere(f"table {t.id} was closed by another step")
        if saved == "other":
            self._changed_elsewhere(t)
            raise ChangedElsewhere(f"table {t.id} has another worker's step {seq} or later")
        self._sure(t.id)
        log.warning("table %s: step %s was saved after all; restored from storage", t.id, seq)
        self.let_go(t)
        # its private messages (with those it carried, :meth:`_carry`), until sent; a closing
        # step's are in its final snapshot
        owed = step_privates(t, step) if step is not None and not step.close else {}
        if owed:
            self.owed_privates[t.id] = owed
        self._renew(t, step, data)
        raise TransitionFailed(f"step {seq} of table {t.id} was saved after all")

    def _renew(
        self,
        old: LiveTable,
        step: Tx | None,
        data: dict[str, Any] | None,
        *,
        ours: bool = True,
    ) -> None:
        """:meth:`_restore_anew` in the background (:attr:`renewing`, :meth:`drain`)."""
        work = self._restore_anew(old, step, data, ours=ours)
        task = self.keep(work, name=f"table-{old.id}-restore")
        self.renewing[old.id] = task

        def done(ended: asyncio.Task[None]) -> None:
            if self.renewing.get(old.id) is ended:
                del self.renewing[old.id]

        task.add_done_callback(done)

    async def _restore_anew(
        self,
        old: LiveTable,
        step: Tx | None = None,
        data: Mapping[str, Any] | None = None,
        *,
        ours: bool = True,
    ) -> None:
        """Serve a table again from what storage holds (:meth:`_unsure_first`); closed
        there, send what its closing step owes the chat (:func:`~bot.service.recovery.deliver`),
        if that is the final snapshot of ``step`` (the unsure step read back as saved, its
        snapshot ``data``; another worker's close sends its own). ``ours``: ``False`` when
        storage was found to hold another worker's step (:meth:`_changed_elsewhere`): a
        final snapshot found is that worker's close's, never sent here. The let-go table's
        senders finish first (:data:`ANEW_WAIT_SECONDS` at most), and what they sent of the
        chat's outbox is not sent again (the stored snapshot, taken before, still owes it: a
        notice a flood wait held was posted twice). The private messages ``step`` owed
        (:attr:`owed_privates`) go out with the restored table's first step
        (:func:`~bot.service.recovery.resume`), each over the player's message as the step
        would have written it (a player it stood up, a leaver, told too): its "hand over"
        screens were never sent, the hand it ended not being one the restored table shows;
        a close made while the table catches up carries them (kept with its final
        snapshot). They are written into the stored snapshot first (:meth:`_keep_owed`,
        :data:`OWED_KEY`): a crash, a stop or the table let go before a step carried them
        leaves them to the next restore. Still owed once the table is served here (that
        first step refused, or
        the table restored by another path first: a takeover, a start), a step of their own
        carries them (:meth:`_send_owed`), tried again as below until sent; the table closed
        with a refund as its snapshot could not be used, they are sent on their own; found
        closed by another worker's step (which took it over, writing each player's hand
        message itself), they are dropped. The bot stopping meanwhile: the table is restored
        all the same, with no timer (:attr:`stopping`; the stop waits for it and saves it),
        what it owes tried once more. Storage failing (out of reach again) or not answering
        within :attr:`storage_wait` before the table is served, or refusing the step that
        carries what it owes: tried again after :data:`RENEW_RETRY_SECONDS`, twice as long
        each time (:data:`RENEW_RETRY_MAX` at most), until done or the bot stops (the next
        start restores it): it was left unserved until then, its stacks held."""
        from bot.service import recovery  # (it builds on this module)

        table_id = old.id

        def sent(snap: Mapping[str, Any]) -> Mapping[str, Any]:
            done = max(int(snap.get("outbox_sent", 0)), old.outbox_sent)
            return {**snap, "outbox_sent": done} if snap else snap

        # what it owes its players is kept with the table first (before the wait below: a
        # crash meanwhile lost it)
        kept = await self._keep_owed(table_id)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settled(old), ANEW_WAIT_SECONDS)
        wait = RENEW_RETRY_SECONDS
        while True:
            try:
                # (the reads bound: a database silent now held the stop, which waits for this)
                with answer_within(self.storage_wait):
                    state = await self.store.table_state(table_id)
                if state is not None and table_id not in self.tables:
                    snap = unasked(old, sent(state[1])) if step is not None else sent(state[1])
                    if not kept:  # (refused before: tried again with what storage holds)
                        kept = await self._keep_owed(table_id, snap)
                    await recovery.restore(self, state[0], snap)
                elif state is None and ours and (step is None or data is not None):
                    # closed by that step: what it owes the chat is sent (one that owed nothing
                    # sends nothing: a final snapshot stored is another close's)
                    ours_data = None if data is None else stored_as(data)
                    with self.reading_owed():
                        with answer_within(self.storage_wait):
                            closed = await self.store.closed_snapshots()
                        for record, snap in closed:
                            if record.id != table_id or not self.owes(table_id):
                                continue
                            if ours_data is not None and stored_as(snap) != ours_data:
                                continue  # (another worker's close: that worker sends it)
                            await recovery.deliver(self, record, sent(snap))
                if state is None and table_id not in self.tables:
                    # closed by a step not of this process (this one's close carries them,
                    # :meth:`_carry`; an unsure closing step owes none here): another
                    # worker's, which took the table over from storage and wrote each
                    # player's hand message itself; the screens owed, older, went over them
                    self.owed_privates.pop(table_id, None)
                if await self._send_owed(table_id, old):
                    return
            except Exception:
                if table_id in self.tables or self.stopping:  # (restored, failing later on)
                    log.exception("table %s: not restored from storage; the next start does",
                                  table_id)  # fmt: skip
                    return
                log.exception("table %s: not restored from storage; tried again", table_id)
            # (unserved meanwhile: its players' presses out of date, its stacks held)
            wait = await self._pause(wait)
            if self.stopping:  # (the next start restores it; what it owes: one last try)
                if table_id in self.tables:
                    with contextlib.suppress(Exception):
                        await self._send_owed(table_id, old)
                return
            if table_id in self.tables and not self.owed_privates.get(table_id):
                return  # (restored by another path meanwhile, owing nothing)

    async def _keep_owed(self, table_id: int, snap: Mapping[str, Any] | None = None) -> bool:
        """Write the snapshot storage holds of table ``table_id``, being restored anew
        (:meth:`_restore_anew`; ``snap`` when read already, else read here), again with the
        private messages the table owes (:attr:`owed_privates`, :data:`OWED_KEY`), before the
        step that carries them: a crash, a stop or the table let go to another worker before
        that step is committed no longer loses them (the next restore reads them,
        :meth:`take_owed`). Not while the table is served here (restored by another path:
        its snapshots keep them, :meth:`snapshot`, and its step carries them); a snapshot of
        a later step stored meanwhile is kept (:meth:`~storage.api.Store.save_snapshot`).
        ``True`` when written, or nothing is left to write; ``False`` when the table is
        closed (sent on their own, :meth:`_send_owed`), or storage refused or did not answer
        within :attr:`storage_wait` (logged: the table is restored all the same, its first
        step carries them, and each snapshot of it keeps them meanwhile)."""
        owed = self.owed_privates.get(table_id)
        if not owed or table_id in self.tables:
            return True
        try:
            with answer_within(self.storage_wait):
                if snap is None:
                    state = await self.store.table_state(table_id)
                    if state is None:
                        return False
                    snap = state[1]
                if self.owed_privates.get(table_id) is not owed or table_id in self.tables:
                    return True  # (served here meanwhile: carried, or kept by its snapshots)
                await self.store.save_snapshot(table_id, {**snap, OWED_KEY: owed_to_json(owed)})
        except Exception as exc:
            log.warning("table %s: its owed private messages not saved: %r", table_id, exc)
            return False
        return True

    async def _send_owed(self, table_id: int, old: LiveTable) -> bool:
        """Send the private messages table ``table_id``, restored anew, still owes
        (:attr:`owed_privates`; ``old``: the table let go): served here, with a step of
        their own (:meth:`_carry`; nothing else changes); not served here (closed with a
        refund as its snapshot could not be used; one another worker closed drops them
        first, :meth:`_restore_anew`), each on its own in its player's chain, over the
        message the seat had. ``True`` when nothing is owed any more here
        (sent, or the table let go to another worker meanwhile: :meth:`let_go`); ``False``
        when storage refused that step (they stay owed, carried by the table's next step,
        :meth:`_restore_anew` tries again)."""
        owed = self.owed_privates.get(table_id)
        if not owed:
            return True
        t = self.tables.get(table_id)
        if t is None:
            del self.owed_privates[table_id]
            p = self.presenter(old)
            if p is None:
                return True
            for was, screen in owed.values():

                async def show(was: SeatState = was, screen: Screen = screen) -> None:
                    await p.show_private(was.user_id, screen, was.private_ref)

                self.send_later(old, show, chain=was.user_id)
            return True
        async with t.lock:
            if not self.open_here(t) or not self.owed_privates.get(table_id):
                return True  # (carried by a step meanwhile, or let go)
            try:
                async with self.transition(t):
                    pass  # (the step carries them, :meth:`_carry`)
            except TransitionFailed as exc:
                log.warning("table %s: its owed private messages not sent yet: %r", t.id, exc)
                return not self.open_here(t)
        return True

    # -- sending -------------------------------------------------------------------------------
    def send(self, tx: Tx) -> None:
        """Queue a committed step's messages to the table's senders: its group messages (the
        outbox, the table message) to the group's chain, each player's private message to
        that player's, so messages to one chat go out in commit order, without the table's
        lock (a platform that makes us wait, a 429 say, never holds the table), and a chat
        that makes us wait holds no other chat: a group rate-limited at the showdown held
        the next hand's private messages, the clock of a player who could not see their
        turn running meanwhile. A step's table message is not written when a later step's
        is queued by the time the group's sender reaches it (it waited on the platform: a
        showdown's picture held by a 429 say): the later one is newer and stands for both,
        one write where the group got two (the table message posted as it was between the
        hands, then at once edited to the next hand's deal). Should the later step's group
        messages then fail before its table message is written, the table message as the
        table is then is written after them (:meth:`_stood_in_failed`)."""
        t = tx.table
        if tx._group_screen is not None:
            t.screen_seq += 1
            tx._screen_no = t.screen_seq
        if tx.close:  # (its private messages are the closed table's, kept until sent)
            owed = [
                self.send_later(
                    t,
                    functools.partial(self._owed_private, tx, n, item),
                    chain=str(item["user"]),
                )
                for n, item in enumerate(t.private_outbox)
            ]
            self.send_later(t, lambda: self.effects(tx, owed))
            return
        self.send_later(t, lambda: self.effects(tx))
        for s in tx.privates:
            seat = t.seats.get(s) or tx.seated.get(s)  # (stood up by the step: told too)
            if seat is None or seat.bot:
                continue
            job = functools.partial(self._private_effect, tx, s, seat.user_id)
            self.send_later(t, job, chain=seat.user_id)

    def send_later(
        self, t: LiveTable, job: Callable[[], Awaitable[None]], *, chain: str = GROUP_CHAIN
    ) -> asyncio.Task[None]:
        """Queue ``job`` (writes to the platform) to one of the table's senders (``chain``:
        :data:`GROUP_CHAIN`, or the user id of a player whose private chat it writes), after
        every job queued there so far and before those queued later, run without the table's
        lock; a job that fails is logged. For a step's messages (:meth:`send`) and for writes
        that change nothing committed (a hand posted anew in a private chat). Returns the
        task that runs it (it ends when the job has, failed or not)."""
        previous = t.sending.get(chain)
        task = asyncio.create_task(self._send(t, job, previous), name=f"table-{t.id}-send")
        t.sending[chain] = task

        def forget(done: asyncio.Task[None]) -> None:
            if t.sending.get(chain) is done:
                del t.sending[chain]

        task.add_done_callback(forget)
        return task

    async def settled(self, t: LiveTable) -> None:
        """Wait until every message queued so far for the table is sent (a job may queue
        another, in another chain: waited for too). A caller cancelled meanwhile stops
        waiting (``asyncio.wait`` neither raises a sender's failure nor cancels a sender)."""
        while tasks := [task for task in t.sending.values() if not task.done()]:
            await asyncio.wait(tasks)

    async def _send(
        self, t: LiveTable, job: Callable[[], Awaitable[None]], previous: asyncio.Task[None] | None
    ) -> None:
        if previous is not None:
            with contextlib.suppress(BaseException):
                await previous
        try:
            await job()
        except Exception:
            log.exception("table %s: sending failed", t.id)

    async def effects(self, tx: Tx, owed: Sequence[asyncio.Task[None]] = ()) -> None:
        """A committed step's group messages: what the table owes the chat (the outbox), then
        the table message; then what that changed (new message refs, …) is saved in the
        background. (Its private messages: :meth:`_private_effect`.) A closing step's
        private messages (``owed``: their senders, :meth:`_owed_private`) are waited for
        too: once everything is sent the closed table's final snapshot goes
        (:meth:`forget_owed`); else a restart sends what it holds again."""
        t = tx.table
        try:
            await self._effects(tx, owed)
        finally:
            # sent, or failed: another start (or worker) sends what is left; kept while it
            # owes only pictures being posted later here (:meth:`closed_sent`)
            if tx.close and t.id not in self.owing_pictures:
                self.closing.pop(t.id, None)
            if tx.close and t.id not in self._recording:  # (not told: the next start tells)
                self.back_while_told.pop(t.id, None)

    async def _effects(self, tx: Tx, owed: Sequence[asyncio.Task[None]] = ()) -> None:
        t = tx.table
        before = _shown_state(t)
        p = self.presenter(t)
        if p is not None and tx.close and t.chat_gone:
            # closed while the bot may not write in the chat (R8.2a): no group write, each
            # refused; its players are told in private, and the table message waits for the
            # bot's return (:func:`bot.service.chats.owed_back`)
            await self.send_notices(t, p)  # (a kick's notice: no group chat needed)
            if owed:
                await asyncio.wait(owed)
            if len(tx.delivered) == len(t.private_outbox):
                await self.wait_for_chat(t)
            return
        if p is not None:
            try:
                try:
                    kept = not await self.flush_outbox(t, p, final=tx.final)
                    if tx.close:  # (forgotten once written: an edit held at the stop is kept)
                        kept = await self.edits_kept(t) or kept
                finally:
                    if owed:  # (the players' chains: never waiting for this one)
                        await asyncio.wait(owed)
                if kept:  # the bot stops, a notice held: the next start sends it (and the rest)
                    if tx.close:  # (an open table's snapshot is saved by the stop)
                        await self.keep_owed(t, tx.delivered)
                    return
                if tx.close and len(tx.delivered) == len(t.private_outbox):
                    await self.closed_sent(t)  # sent: it owes at most its pictures posted later
                if tx._group_screen is not None and tx._screen_no == t.screen_seq:
                    t.group_ref = await p.show_table(t.group_chat, tx._group_screen, t.group_ref)
                    t.screen_skipped = False
                elif tx._group_screen is not None:
                    # a later step's is queued, newer: written instead (:meth:`send`)
                    t.screen_skipped = True
            except Exception:
                if tx._group_screen is not None and tx._screen_no != t.screen_seq:
                    t.screen_skipped = True  # (a later step's stands for it all the same)
                else:
                    self._stood_in_failed(tx)
                raise
        if not tx.close and _shown_state(t) != before:  # message refs the commit did not hold
            async with t.lock:
                self.save_soon(t)

    def _stood_in_failed(self, tx: Tx) -> None:
        """Open table step ``tx``'s group messages raised before its table message was
        written (its outbox's send, or the write itself: a presenter's error), while its
        table message stood for an earlier step's, not written for it (:meth:`send`,
        :attr:`LiveTable.screen_skipped`) and no later one is queued: the table message as
        the table is then is written in the group's chain, after what the table owes the
        chat (:meth:`flush_outbox`, tried again), once. Unless a later step's table message
        is queued by then, which writes it (one write still). Without it the group showed
        neither step's: its table message stale until the table's next write (a press
        against the buttons of a hand long gone, answered "out of date")."""
        t = tx.table
        if tx.close or tx._group_screen is None or tx._screen_no != t.screen_seq:
            return
        if not t.screen_skipped:
            return
        t.screen_seq += 1
        number = t.screen_seq

        async def refresh() -> None:
            p = self.presenter(t)
            if p is None or t.screen_seq != number or not self.open_here(t):
                return  # (a later step's table message is queued: it writes the newest)
            before = _shown_state(t)
            if not await self.flush_outbox(t, p):
                return  # the bot stops, a notice held: the next start writes it all
            async with t.lock:
                if t.screen_seq != number or not self.open_here(t):
                    return
                screen = self.group_screen(t)
            t.group_ref = await p.show_table(t.group_chat, screen, t.group_ref)
            t.screen_skipped = False
            if _shown_state(t) != before:
                async with t.lock:
                    self.save_soon(t)

        self.send_later(t, refresh)

    async def _private_effect(self, tx: Tx, s: int, user_id: str) -> None:
        """A committed step's private message to the player ``user_id`` of seat ``s`` (in
        that player's chain, :meth:`send`; also when the step stood them up, a closing step
        say: :attr:`Tx.seated`), not written when someone else sits there by now
        (the platform held it while they left and another took the seat: it went to the
        newcomer); when it finds them unreachable the table message is written again, in the
        group's chain (it shows the link to the private chat; :meth:`send_private`)."""
        t = tx.table
        seat = t.seats.get(s) or tx.seated.get(s)  # (stood up by the step: told too)
        p = self.presenter(t)
        if p is None or seat is None or seat.bot or seat.user_id != user_id:
            return
        before = _shown_state(t)
        ref = None
        answered = tx.answered
        if answered is not None and answered.seat == s:
            if answered.own:
                return  # the press's reply shows it (the adapter writes it)
            ref = answered.ref
        await self.send_private(t, p, seat, tx.privates[s], answered=ref)
        if not tx.close and _shown_state(t) != before:  # message refs the commit did not hold
            async with t.lock:
                self.save_soon(t)

    async def _owed_private(self, tx: Tx, n: int, item: Mapping[str, Any]) -> None:
        """A closing step's private message ``item`` (number ``n`` of the closed table's
        :attr:`LiveTable.private_outbox`), in its player's chain after what that chain
        holds: over their hand message as it is by then (a seat of the step's,
        :attr:`Tx.seated`; a press's reply shown by the adapter is not written again), else
        over the message ``item`` names, or anew. Marked :attr:`Tx.delivered` once written
        (a player who cannot be reached counts: sending again would not change that)."""
        t = tx.table
        p = self.presenter(t)
        if p is None:
            return
        screen = owed_screen(t, item)
        seat = tx.seated.get(item["seat"]) if item.get("seat") is not None else None
        if seat is not None and seat.user_id == item["user"]:
            answered = tx.answered
            ref = None
            if answered is not None and answered.seat == seat.seat:
                if answered.own:
                    tx.delivered.add(n)
                    return  # the press's reply shows it (the adapter writes it)
                ref = answered.ref
            await self.send_private(t, p, seat, screen, answered=ref)
        else:
            await p.show_private(str(item["user"]), screen, item.get("ref"))
        tx.delivered.add(n)

    def show_group_later(
        self, t: LiveTable, *, unposted: bool = False, reach: bool = False
    ) -> None:
        """Write the table message again as the table is now, in the group's chain.
        ``unposted``: only if the table has no message posted for certain then (none, or a
        pending one: being posted, or perhaps posted, its answer lost), which is posted now
        (a /newtable that finds the table open, R8.2). ``reach``: for a player found
        unreachable in private, or reachable again (the table message's line naming them,
        with the link to the private chat, comes or goes): only if the table message
        rendered last (written by then, or queued in the group's chain after this) names
        others than it would now (:attr:`_named`), so a pending write of the group, a step's
        or another such, carries it and the group gets no write more (R8.2)."""
        p = self.presenter(t)
        if p is None:
            return

        async def show() -> None:
            if not self.open_here(t):
                return  # closed meanwhile: its last messages were the record
            if unposted and t.group_ref is not None and not unsure_ref(t.group_ref):
                return  # (posted meanwhile)
            async with t.lock:
                if reach and self._named.get(t.id) == tuple(render.unreachable_names(t)):
                    return  # (the table message rendered last shows it)
                screen = self.group_screen(t)
            t.group_ref = await p.show_table(t.group_chat, screen, t.group_ref)
            async with t.lock:
                self.save_soon(t)

        self.send_later(t, show)

    async def refresh_group(self, t: LiveTable) -> None:
        """Write the table message of ``t`` again as the table is now, at its current version
        (its buttons stay valid), for a command that finds the table open and answers with
        its link (``/newtable``, ``/tournament``, R8.2): a message someone deleted, of which
        the bot hears nothing (Telegram never tells bots; Discord only with the guild
        messages intent, which the bot does not ask for), has its edit refused as "message
        not found" (Telegram 400, Discord 404 10008) and is posted anew by the presenter's
        re-post of a deleted table message, which tells the service its new ref
        (:meth:`bot.service.TableService.message_posted`): the link answered after this
        names the message that exists (it named the deleted one, and nothing was posted
        until the table's next write). One write to the group at most (the edit, or the
        refused edit and the re-post), of the public table message every step writes (no
        hidden card, R8.2); none for a table not served here or without a message posted
        for certain (a pending one is posted by :meth:`show_group_later`), nor within
        :attr:`refresh_seconds` of the table's last refresh (a command typed again then
        only waits for that one's write). Waits :attr:`refresh_wait` seconds at most for the
        write (a platform holding it, a 429 or an outage, writes it later)."""
        wait = self.refresh_wait
        p = self.presenter(t)
        if p is None or not self.open_here(t) or unsure_ref(t.group_ref):
            return
        now = time.monotonic()
        for table_id, (at, _job) in list(self._refreshed.items()):
            if not 0 <= now - at < self.refresh_seconds:
                del self._refreshed[table_id]
        last = self._refreshed.get(t.id)
        if last is None:
            job = self.send_later(t, lambda: self._refresh(t, p))
            self._refreshed[t.id] = (now, job)
        else:
            job = last[1]
        if not job.done():
            await asyncio.wait((job,), timeout=wait)
        ref = t.group_ref
        left = now + wait - time.monotonic()
        if ref is not None and not unsure_ref(ref) and left > 0:
            with contextlib.suppress(TimeoutError):  # (its edit, or the re-post, written)
                await asyncio.wait_for(p.edit_written(t.group_chat, ref), left)

    async def _refresh(self, t: LiveTable, p: Presenter) -> None:
        """:meth:`refresh_group`'s job in the group's chain: the table message as it is now,
        at its current version, written over the message the table holds (an edit queued
        with the presenter)."""
        if not self.open_here(t) or unsure_ref(t.group_ref):
            return  # (closed meanwhile: its last messages were the record)
        async with t.lock:
            screen = self._group_render(t)
        before = t.group_ref
        t.group_ref = await p.show_table(t.group_chat, screen, before)
        if t.group_ref != before:  # (one the presenter posted again before: its ref)
            async with t.lock:
                self.save_soon(t)

    async def send_private(
        self,
        t: LiveTable,
        p: Presenter,
        seat: SeatState,
        screen: Screen,
        *,
        answered: str | None = None,
        again: bool = False,
    ) -> bool:
        """Write a player's private message; ``True`` if the player just became unreachable.
        ``answered``: a message of the player a press's reply is shown on by the adapter
        (:meth:`~bot.model.Presenter.show_private`). When the write changes whether they are
        reachable (refused, or through again after a refusal: they blocked the bot and
        unblocked it, or started it at last) during a hand, the table message is written
        again in the group's chain, once (:meth:`show_group_later`): its line naming them
        with the link to the private chat comes or goes. It stayed until the group's next
        write for another reason, telling a player who sees their cards to open the chat.
        With :func:`posts_by_ref` (Discord) a hand posted anew has the pending ref its step
        committed (:meth:`commit`): one the write does not post (refused) is dropped.
        With :func:`quiet_until_seen` (Telegram) a player the platform refused for good
        (not reachable, no message of theirs known) is not written to at all, the refusal
        standing (the table message already names them, with the link), unless ``again``:
        the player showed life (a /start, a command or press in the private chat, an
        unblock), so the chat may be open. It was tried anew at every street, refused each
        time (five refused sends in a hand). The fact is the seat's, saved with the table:
        a restart does not try again either. A refusal that was no block (a 400: the
        presenter's ``quiet_for`` said so when it came) is marked so on the seat
        (:attr:`~bot.model.SeatState.refused_for_good` ``False``), saved too: the next write
        tries again, after a restart as well (the presenter's memory of it is its process's)."""
        if (
            not again
            and not seat.reachable
            and seat.private_ref is None
            and seat.refused_for_good
            and quiet_until_seen(p, seat.user_id)
        ):
            return False
        # (posted anew: without a ref; with :func:`posts_by_ref`, a pending one too, which the
        # step committed before the post or a snapshot from before a restart holds)
        by_ref = posts_by_ref(p)
        was = seat.reachable
        anew = unsure_ref(seat.private_ref) if by_ref else seat.private_ref is None
        ref = await p.show_private(seat.user_id, screen, seat.private_ref, answered)
        if ref is None:
            seat.reachable = False
            quiet_for = getattr(p, "quiet_for", None)  # (no block: a 400, the presenter says)
            seat.refused_for_good = quiet_for is None or bool(quiet_for(seat.user_id))
            if by_ref and unsure_ref(seat.private_ref):  # (not posted: posted anew next time)
                seat.private_ref = None
        else:
            seat.private_ref = ref
            seat.reachable = True
            if anew:
                self._retire_hand(t, p, seat)
        if seat.reachable != was and t.hand is not None and self.open_here(t):
            self.show_group_later(t, reach=True)
        return was and not seat.reachable

    async def show_group(self, t: LiveTable) -> None:
        """Re-render the table message now (call under the lock; nothing but its version
        changes, saved in the background)."""
        p = self.presenter(t)
        if p is None:
            return
        t.group_ref = await p.show_table(t.group_chat, self.group_screen(t), t.group_ref)
        self.save_soon(t)

    async def reshow_group(self, t: LiveTable) -> None:
        """Write the table message again as it should be now, at its current version (call
        under the lock): a press of an older version came from it, so an edit of it was lost
        (a platform error); presses of the current version stay valid."""
        p = self.presenter(t)
        if p is None or t.group_ref is None:
            return
        t.group_ref = await p.show_table(t.group_chat, self._group_render(t), t.group_ref)

    def group_screen(self, t: LiveTable) -> Screen:
        """The table message as the table is now, under a new version (its lobby buttons
        carry it, so a press on an older message is stale); call under the table's lock."""
        t.new_version()
        if t.resumed_version is not None:  # the message from before a restart is out of date
            t.resumed_version = None
            self.retire_earlier(t)
        return self._group_render(t)

    def retire_later(self, t: LiveTable, ref: str) -> None:
        """``ref`` is the table message from before a restart (in ``t``'s chat), posted anew:
        it is written as moved, its buttons gone, by :meth:`retire_earlier` (at once when the
        restored table is not in the state it shows, else once it moves on: its buttons work
        until then, :attr:`LiveTable.resumed_version`)."""
        self._earlier[t.id] = ref

    def retire_earlier(self, t: LiveTable, closed: bool = False) -> None:
        """Write the table message from before a restart (:meth:`retire_later`) as moved,
        its buttons gone, in the group's chain (before the step's own writes, which queue
        after its commit), so the group never keeps an old table message whose buttons
        look live and answer "out of date". It stays the table's
        :attr:`~bot.model.LiveTable.earlier_ref` while the new one was never posted (R8.2a's
        closing notice goes over it); once the new one is (a ref of a message posted for
        certain), it is forgotten, so a later restart does not write it as moved again.
        ``closed``: the table closed (R8.2a), the message says so, "Table #1 is closed." (it
        read "⬇️ Table #1 goes on in the message below.", the table gone on nowhere)."""
        ref = self._earlier.pop(t.id, None)
        # (an adapter's own write: an edit that finds the message gone leaves it so, where
        # a table message's edit posts it again)
        write = getattr(self.presenter(t), "retire_table", None)
        if ref is None or write is None:
            return
        text = tr(t.lang, "reply.table_closed" if closed else "table.moved", table=t.id)

        async def retire() -> None:
            if t.group_ref != ref:
                await write(t.group_chat, ref, text)
            if t.earlier_ref == ref and not unsure_ref(t.group_ref):
                self._forget_earlier(t)

        self.send_later(t, retire)

    def _forget_earlier(self, t: LiveTable) -> None:
        """Forget ``t``'s :attr:`~bot.model.LiveTable.earlier_ref` (written as moved, the new
        message posted for certain) and save it so (:meth:`save_soon`): a crash before the
        table's next step no longer has the restart write it as moved once more. A step
        under way meanwhile (the sender runs without the table's lock) is told too: a
        snapshot taken during it, and its rollback, keep it forgotten (fixsmall36), and its
        commit, whose own snapshot may have been taken before, saves it again (flk37)."""
        t.earlier_ref = None
        step = self._stepping.get(t.id)
        if step is not None and step.table is t:
            step.before["earlier_ref"] = None
        self.save_soon(t)

    def retire_hand_later(self, t: LiveTable, user_id: str, ref: str) -> None:
        """``ref`` is the hand message of player ``user_id`` at ``t`` from before a restart,
        whose hand is posted anew (:func:`.recovery.resume`): once the new one is posted
        (:meth:`send_private`) the old one is written as moved, its buttons gone, so the
        player's private chat never keeps an old hand whose buttons look live and answer
        "out of date"."""
        self._earlier_hands[(t.id, user_id)] = ref

    def _retire_hand(self, t: LiveTable, p: Presenter, seat: SeatState) -> None:
        """The hand of ``seat`` was just posted anew: its message from before a restart
        (:meth:`retire_hand_later`), if any, is written as moved ("⬇️ your hand goes on
        below", no card: the adapter's ``retire_private``), in the player's chain after the
        post. Not one a press made the hand's message again meanwhile (``play.hand_press``
        takes a pressed message for the hand while none is known)."""
        ref = self._earlier_hands.pop((t.id, seat.user_id), None)
        write = getattr(p, "retire_private", None)
        if ref is None or write is None:
            return
        user_id = seat.user_id
        text = tr(t.lang, "private.hand_moved", table=t.id)

        async def retire() -> None:
            now = t.seat_of(user_id)  # (a rolled-back step puts new seat objects in place)
            if now is None or now.private_ref != ref:
                await write(user_id, ref, text)

        self.send_later(t, retire, chain=user_id)

    def offers(self, t: LiveTable, data: str) -> bool:
        """Whether the table message as the table is now, at its current version, carries a
        button of payload ``data`` (nothing is written or remembered)."""
        screen = self._rendered_group(t)
        return any(b.data == data for row in screen.buttons for b in row)

    def _group_render(self, t: LiveTable) -> Screen:
        """The table message as the table is now, at its current version (the names it
        shows as unreachable remembered, :attr:`_named`)."""
        self._named[t.id] = tuple(render.unreachable_names(t))
        return self._rendered_group(t)

    def _rendered_group(self, t: LiveTable) -> Screen:
        """The table message as the table is now, at its current version; nothing kept."""
        p = self.presenter(t)
        link = p.private_link(t.id) if p is not None else None
        return render.group_screen(t, t.lang, link, self.clock(), self.zones.get(t.community_id))

    async def flush_outbox(
        self, t: LiveTable, p: Presenter, *, final: dict[str, Any] | None = None
    ) -> bool:
        """Send what the committed state owes the chat, in order: a ``table`` item is written
        over the table message, which then stays as the record (the next screen is posted
        anew, under its ``next`` pending ref if it has one, :func:`_mint_next`; or over the
        message its ``ref`` names: owed again, :meth:`_watch_edit`); a
        ``post`` item is a notice of its own, sent under its ref (:meth:`LiveTable.owe`).
        Each is sent once per process (after a crash it may be sent again: the same stored
        text; a notice under the same ref, so on Discord one it took before the stop or crash
        is returned, not posted twice). ``False``: the bot stops and the
        platform held a notice (a flood wait, an outage: :meth:`Presenter.post`): it and
        what follows stay owed, not marked sent, so the saved snapshot has the next start
        send them (a notice given up at the stop was lost; waiting it out held the stop
        for the whole flood wait).

        ``final``: a closed table's final snapshot as stored (what a restart sends,
        :func:`bot.service.recovery.deliver`): a showdown picture the platform took is
        dropped from it and it is saved again (:meth:`_picture_recorded`) before the next
        item is sent, so a crash later in the closing step does not post the picture twice
        (the rest is sent again, as before: edits in place, notices under their refs).

        An item no longer in the outbox when its turn comes (replaced, unsent, by a later
        step's: :class:`~bot.service.lobby._Notice`) is not sent; the one being written is
        :attr:`LiveTable.outbox_sending` meanwhile, which is never replaced."""
        try:
            for item in list(t.outbox):
                if int(item["id"]) <= t.outbox_sent:
                    continue
                if not any(int(i["id"]) == int(item["id"]) for i in t.outbox):
                    continue  # (replaced by a later step's, unsent: :class:`.lobby._Notice`)
                t.outbox_sending = int(item["id"])  # (not to be replaced now: it may be posted)
                if item.get("kind") == "picture":
                    late = await self.send_picture(t, p, item)
                    if late is not None:  # posted later: kept until posted (a restart posts it)
                        t.late_pictures.append({**item, "ref": late})
                    elif final is not None:
                        await self._picture_recorded(t, final, int(item["id"]))
                    t.outbox_sent = max(t.outbox_sent, int(item["id"]))
                    continue
                screen = Screen.from_json(item)
                if item.get("kind") == "private":  # (a person's own: :meth:`LiveTable.owe_notice`)
                    await self._notice_private(t, p, item)
                elif item.get("kind") == "table":
                    # (owed again over ``ref``; ``over``: the message a restart found it was for)
                    over = str(item["ref"]) if item.get("ref") else item.get("over") or t.group_ref
                    ref = await p.show_table(t.group_chat, screen, over)
                    if not item.get("ref"):  # (the next one posted under its ref: _mint_next)
                        t.group_ref = str(item["next"]) if item.get("next") else None
                    if ref is not None:
                        self._watch_edit(t, p, ref, item)
                elif (
                    await p.post(t.group_chat, screen.text, item.get("ref")) is False
                ):  # (None: old)
                    log.info("table %s: a notice held at the stop; the next start sends it", t.id)
                    return False
                t.outbox_sent = max(t.outbox_sent, int(item["id"]))
        finally:
            t.outbox_sending = 0
        t.outbox = [item for item in t.outbox if int(item["id"]) > t.outbox_sent]
        return True

    async def send_notices(self, t: LiveTable, p: Presenter) -> None:
        """Closed table ``t``, whose chat the bot may no longer write in
        (:attr:`LiveTable.chat_gone`, R8.2a), has its outbox's private notices not sent yet
        (:meth:`LiveTable.owe_notice`: a kick's to the player kicked, owed with the step the
        chat went away in) sent now, in order, and dropped from the outbox: they need no
        group chat, and the group's items are not written (:func:`waiting_for_chat` keeps
        the closing notice for the bot's return). Once dropped, such a notice was lost with
        the rest (the player kicked was told nothing). A crash before the final snapshot is
        saved sends them again, as the closing step's other private messages."""
        owed = owed_notices(t.outbox, t.outbox_sent)
        for item in owed:
            await self._notice_private(t, p, item)
        sent = {int(item["id"]) for item in owed}
        t.outbox = [item for item in t.outbox if int(item["id"]) not in sent]

    async def _notice_private(self, t: LiveTable, p: Presenter, item: Mapping[str, Any]) -> None:
        """Send the private notice ``item`` of ``t``'s outbox (:meth:`LiveTable.owe_notice`) as
        a new message to its person, under its pending ref where the platform posts by ref
        (:func:`posts_by_ref`: Discord's nonce, so a restart's send is one message). A person
        who cannot be reached (never started the bot, DMs closed) is not told; a failure is
        logged and the notice counted sent (it never holds the group's messages after it)."""
        ref = str(item["ref"]) if posts_by_ref(p) and item.get("ref") else None
        try:
            await p.show_private(str(item["user"]), owed_screen(t, item), ref)
        except Exception:
            log.exception("table %s: a private notice could not be sent", t.id)

    async def _picture_recorded(self, t: LiveTable, final: dict[str, Any], item_id: int) -> None:
        """Closed table ``t``'s showdown picture (outbox item ``item_id``) was posted, the
        platform said so (or it is not to be sent again: refused for good, its answer lost, not
        drawn, as the presenter decides): its final snapshot ``final`` is saved again without it
        (:meth:`flush_outbox`). Once at most, then, except when the process dies between the
        platform's answer and this write (a store write's time): no message of the bot is
        recorded sooner than the platform's answer (a picture posted later, a closing step's
        notices, an open table's outbox: recorded after the step's messages, a longer window);
        on Discord the picture's nonce makes a try repeated within minutes one message. A
        failure is logged: a restart posts the picture again, as before."""
        final["outbox"] = [i for i in final.get("outbox", ()) if int(i["id"]) != item_id]
        try:
            with answer_within(self.storage_wait):  # (the table's sender waits)
                await self.store.save_owed(t.id, final)
        except Exception as exc:
            log.warning("table %s: its picture was posted, not recorded so: %r", t.id, exc)

    def _watch_edit(self, t: LiveTable, p: Presenter, ref: str, item: Mapping[str, Any]) -> None:
        """Watch the outbox's ``table`` item ``item`` written over message ``ref`` (marked
        sent once queued: the presenter writes edits in the background): if the bot stops
        while the platform holds that edit (a flood wait, an outage), the item is owed
        again, over that message, so the table's snapshot has the next start write it (the
        showdown held so was lost: the group never saw the hand's result). The stop waits
        for the watchers (:meth:`edits_kept`)."""

        async def watch() -> None:
            try:
                if await p.edit_written(t.group_chat, ref):
                    return
            except Exception:  # (a presenter's bug: the edit is taken as written, as before)
                log.exception("table %s: whether an edit was written is not known", t.id)
                return
            async with t.lock:
                t.outbox_seq += 1
                t.outbox.append({**item, "id": t.outbox_seq, "ref": ref})
            log.info("table %s: an edit held at the stop; the next start writes it", t.id)

        task = asyncio.create_task(watch(), name=f"table-{t.id}-edit")
        t.edits.add(task)
        task.add_done_callback(t.edits.discard)

    async def edits_kept(self, t: LiveTable) -> bool:
        """Wait for table ``t``'s watched edits (:meth:`_watch_edit`); whether it owes the
        chat something now (an edit the stop left unwritten, owed again)."""
        while tasks := [task for task in t.edits if not task.done()]:
            await asyncio.wait(tasks)
        return t.outbox_owed()

    async def keep_owed(self, t: LiveTable, delivered: Collection[int] = ()) -> None:
        """Closed table ``t`` did not send all its closing step owed (the bot stops, the
        platform held a notice: :meth:`flush_outbox`): its final snapshot is saved owing
        only what is left (the outbox not sent, the :attr:`LiveTable.private_outbox` items
        but those ``delivered``), so the next start sends that, and nothing twice. If that
        fails the snapshot of the commit stays (the whole closing step is sent again)."""
        data = self.snapshot(t)
        data["private_outbox"] = [
            item for n, item in enumerate(t.private_outbox) if n not in delivered
        ]
        try:
            with answer_within(self.storage_wait):  # (the stop waits)
                await self.store.save_owed(t.id, data)
        except Exception as exc:
            log.warning("table %s: what it still owes not recorded: %r", t.id, exc)

    async def wait_for_chat(self, t: LiveTable) -> None:
        """Keep of closed table ``t``'s final snapshot only what waits for the bot's return
        to its chat (:func:`waiting_for_chat`): its private messages are sent. A first try
        waits :attr:`storage_wait` at most; one that fails is tried again in the background
        (:meth:`_write_late`) until done or the bot stops (then the next start sends them
        again, the whole snapshot kept), no read of the final snapshots here sending it
        meanwhile (:meth:`owes`). Kept whole, it did not wait for the bot's return
        (:func:`waits_for_chat`), so the bot added back never wrote the group's table
        message, which showed the table open, as closed (until a restart)."""
        data = waiting_for_chat(t)
        try:
            with answer_within(self.storage_wait):
                await self.store.save_owed(t.id, data)
            self._told(t.id, True)
            return
        except LeaseLost as exc:  # (the chat's worker now sends it)
            log.warning("table %s: its players were told, not recorded so: %r", t.id, exc)
            self._told(t.id, False)
            return
        except Exception as exc:
            log.warning("table %s: its players were told, not recorded so yet: %r", t.id, exc)

        async def write() -> None:
            await self.store.save_owed(t.id, data)

        async def record() -> None:
            told = False
            try:
                await self._write_late(write, f"table {t.id}: its players told")
                told = True
            finally:
                self._told(t.id, told)

        self._recording.add(t.id)
        self.keep(record(), name=f"table-{t.id}-told")

    def _told(self, table_id: int, told: bool) -> None:
        """Closed table ``table_id``'s record that its players were told is saved (``told``)
        or given up (:meth:`wait_for_chat`). Saved, and the bot came back to the chat
        meanwhile (:attr:`back_while_told`: that return skipped the table, which did not
        wait for it yet), its table message, showing it open, is written as closed now
        (:func:`bot.service.chats.owed_back`, in the background)."""
        self._recording.discard(table_id)
        back = self.back_while_told.pop(table_id, None)
        if not told:
            return
        if self._owed_reads:
            self.told_meanwhile.add(table_id)
        if back is None:
            return
        from bot.service import chats  # (it builds on this module)

        async def write_closed() -> None:
            await chats.owed_back(self, back[0], chat_id=back[1])

        self.keep(write_closed(), name=f"table-{table_id}-back")

    async def closed_sent(self, t: LiveTable) -> None:
        """Closed table ``t`` (in :attr:`closing`) has sent everything its closing step owed
        but the showdown pictures the platform is posting later (:attr:`LiveTable.late_pictures`).
        With none, its final snapshot is forgotten (:meth:`forget_owed`) and then it leaves
        :attr:`closing` (a table out of it has its snapshot deleted, unless that first try
        failed and is tried again in the background). Else the snapshot is kept owing only
        those (:func:`pictures_owed`) and ``t`` stays in :attr:`closing`
        (:attr:`owing_pictures`: this worker keeps the chat's lease and no sweep sends them
        again) until each is posted or given up
        (:meth:`late_picture_done`); a restart posts them again, under the same refs
        (:func:`bot.service.recovery.deliver`). A first try of that saving waits
        :attr:`storage_wait` at most (holding the table); one that fails is tried again in the
        background (:meth:`_write_late`: as ``t`` owes then, while it still does) until done
        or the bot stops: meanwhile a restart sends the whole closing step again (the same
        stored messages)."""
        async with t.lock:
            if not t.late_pictures:
                self.owing_pictures.discard(t.id)
                try:  # (out of closing once forgotten, its first try done: not before)
                    await self.forget_owed(t.id)
                finally:
                    self.closing.pop(t.id, None)
                return
            self.owing_pictures.add(t.id)
            self.closing[t.id] = t
            try:
                with answer_within(self.storage_wait):  # (holding the table)
                    await self.store.save_owed(t.id, pictures_owed(t))
                return
            except LeaseLost as exc:  # (the chat's worker now sends it)
                log.warning("table %s: owes only its pictures, not recorded so: %r", t.id, exc)
                return
            except Exception as exc:
                log.warning("table %s: owes only its pictures, not recorded so yet: %r", t.id,
                            exc)  # fmt: skip

        async def write() -> None:
            async with t.lock:  # (as it owes then: in order with the writes of its pictures)
                if t.id in self.owing_pictures and self.closing.get(t.id) is t:
                    await self.store.save_owed(t.id, pictures_owed(t))
                # (else its pictures are done and its snapshot forgotten, or it was let go)

        self.keep(
            self._write_late(write, f"table {t.id}: owes only its pictures"),
            name=f"table-{t.id}-pictures-owed",
        )

    async def start_wait(self, table_id: int, snap: Mapping[str, Any]) -> None:
        """A closed table's final snapshot that waits for the bot's return
        (:func:`waits_for_chat`) saved without when its wait began (``waiting_since``: by a
        bot from before :data:`CHAT_WAIT`) starts its wait now (saved), so it expires 30
        days on instead of never. Others are left as they are; a failure is logged (the
        next start tries again)."""
        if not wait_undated(snap):
            return
        try:
            with answer_within(self.storage_wait):
                await self.store.save_owed(table_id, {**snap, "waiting_since": time.time()})
        except Exception as exc:
            log.warning("table %s: its wait for the chat not dated: %r", table_id, exc)

    async def forget_owed(self, table_id: int) -> None:
        """Delete a closed table's final snapshot: what its closing step owed the chat was
        sent; from now on :meth:`owes` says so (a read of the snapshot from before sends
        nothing again: a sweep's or a restore anew's read under way while this was sent). A
        first try waits :attr:`storage_wait` at most (perhaps holding the table); one that
        fails is tried again in the background (:meth:`_write_late`, waited for by
        :meth:`drain`) until done or the bot stops: the next start sends what it held again."""
        self._forgotten[table_id] = None
        try:
            with answer_within(self.storage_wait):  # (perhaps holding the table)
                await self.store.delete_snapshot(table_id)
            self._forgot(table_id)
            return
        except LeaseLost as exc:
            log.warning("table %s: its last messages were sent, not recorded so: %r", table_id, exc)
            return
        except Exception as exc:
            log.warning("table %s: its last messages were sent, not recorded yet: %r", table_id,
                        exc)  # fmt: skip

        async def write() -> None:
            await self.store.delete_snapshot(table_id)
            self._forgot(table_id)

        self.keep(
            self._write_late(write, f"table {table_id}: its last messages sent"),
            name=f"table-{table_id}-forget",
        )

    def mark_back(self, platform: str, chat_id: str, now: float | None = None) -> None:
        """The bot is back in chat ``chat_id`` (:func:`bot.service.chats.chat_back`) at
        ``now`` (``time.monotonic()`` if ``None``): kept in :attr:`back_at`, newest last,
        and the returns older than :data:`BACK_KEPT_SECONDS` are dropped (amortised O(1):
        only the oldest are looked at)."""
        at = time.monotonic() if now is None else now
        key = (platform, chat_id)
        self.back_at.pop(key, None)  # (to the end: the dict stays oldest first)
        self.back_at[key] = at
        horizon = at - BACK_KEPT_SECONDS
        while self.back_at:
            oldest = next(iter(self.back_at))
            if self.back_at[oldest] > horizon:
                break
            del self.back_at[oldest]

    def owes(self, table_id: int) -> bool:
        """Whether a closed table's final snapshot just read may be sent
        (:func:`.recovery.deliver`): not while it is being sent here (:attr:`closing`) or
        recorded as sent (:meth:`wait_for_chat`), nor once sent here and forgotten
        (:meth:`forget_owed`; the read may be from before).
        Ask within the read's :meth:`reading_owed`, which keeps the answer true meanwhile."""
        return (
            table_id not in self.closing
            and table_id not in self._forgotten
            and table_id not in self._recording
        )

    def recording_told(self, table_id: int) -> bool:
        """Closed table ``table_id``, closed while the bot could not write in its chat, is
        telling its players here, or its record that they were told (its final snapshot cut
        down to what waits for the bot's return, :meth:`wait_for_chat`) is being saved, tried
        again in the background: a read of its final snapshot may find it whole."""
        closing = self.closing.get(table_id)
        return table_id in self._recording or (closing is not None and closing.chat_gone)

    @contextlib.contextmanager
    def reading_owed(self) -> Iterator[None]:
        """Within the block, a read of the closed tables' final snapshots
        (:meth:`~storage.api.Store.closed_snapshots`) and what is decided from it by
        :meth:`owes`: a table forgotten here (:meth:`forget_owed`) is remembered so until no
        read that began before storage confirmed its deletion is under way; a read begun
        after it cannot find the deleted snapshot."""
        token = object()
        self._owed_reads[token] = self._forgets
        try:
            yield
        finally:
            del self._owed_reads[token]
            self._trim_forgotten()
            if not self._owed_reads:
                self.told_meanwhile.clear()

    def _forgot(self, table_id: int) -> None:
        """Storage confirmed the deletion of closed table ``table_id``'s final snapshot
        (:meth:`forget_owed`): numbered, then forgotten here too once no read from before it
        is under way (:meth:`reading_owed`)."""
        if table_id in self._forgotten:
            self._forgets += 1
            self._forgotten[table_id] = self._forgets
        self._trim_forgotten()

    def _trim_forgotten(self) -> None:
        """Drop from :attr:`_forgotten` the tables whose deletion storage confirmed before
        every read of the final snapshots under way began (none under way: all confirmed):
        no read can find their snapshots. One not confirmed (a try under way, or given up:
        another worker serves the chat, the bot stopped) stays."""
        floor = min(self._owed_reads.values(), default=self._forgets)
        for table_id, n in list(self._forgotten.items()):
            if n is not None and n <= floor:
                del self._forgotten[table_id]

    async def send_picture(
        self, t: LiveTable, p: Presenter, item: Mapping[str, Any], *, later: bool = False
    ) -> str | None:
        """Draw an outbox picture (in the drawing process, :class:`bot.drawing.Drawer`: it
        takes milliseconds of CPU, most of them holding the GIL, and the press that ended the
        hand is being answered meanwhile) and send it with its caption (issue 12), under the
        item's pending ref (:meth:`LiveTable.owe_picture`). Returns the ref when the platform
        posts it later in the background (``later``: at once so), else ``None``.
        A picture that cannot be drawn is logged and skipped
        (:meth:`~bot.drawing.Drawer.draw_or_none`): the text showdown is the record. One
        posted ``later`` whose table was let go while it was drawn (:meth:`serves`) is not
        handed to the platform: its ref is returned, still owed."""
        try:
            data = pictures.with_plain_text(item["picture"], p.plain_text)
        except (KeyError, TypeError):  # (a malformed outbox record: never drawn)
            log.exception("table %s: the showdown picture's record is malformed", t.id)
            return None
        png = await self.drawer.draw_or_none(
            f"the showdown picture of table {t.id}", pictures.draw_json, data
        )
        if png is None:
            return None
        ref = item.get("ref")
        if later and not self.serves(t):  # let go while drawn (its lease lost, issue 14):
            return str(ref)  # still owed, the table's next worker posts it (:meth:`let_go`)
        caption = str(item.get("caption", ""))
        return await p.send_picture(t.group_chat, png, caption, ref, later=later)

    def post_late_pictures(self, t: LiveTable, items: Sequence[Mapping[str, Any]]) -> None:
        """Hand the pictures ``items`` a table still owes from before a restart (of its
        :attr:`LiveTable.late_pictures`, open or closed) to the presenter's background tries
        again, under their pending refs (on Discord the same nonce: one a try before the
        restart posted is returned, not posted twice), in the group's chain. One that
        cannot be drawn here is forgotten (logged)."""
        p = self.presenter(t)
        if p is None or not items:
            return
        items = [dict(item) for item in items]

        async def post() -> None:
            for item in items:
                if await self.send_picture(t, p, item, later=True) is None:
                    await self.late_picture_done(t, str(item.get("ref")))

        self.send_later(t, post)

    async def late_picture_done(self, t: LiveTable, ref: str) -> bool:
        """The late picture ``ref`` of ``t`` (:attr:`LiveTable.late_pictures`) was posted or
        given up: forgotten; an open table's snapshot is saved in the background, a closed
        one's that owes only pictures (:meth:`closed_sent`) is saved again, or forgotten
        with the last. ``False``: none was."""
        async with t.lock:
            kept = [item for item in t.late_pictures if item.get("ref") != ref]
            if len(kept) == len(t.late_pictures):
                return False
            t.late_pictures = kept
            self.save_soon(t)  # (an open table's)
            closed = t.id not in self.tables and t.id in self.owing_pictures
        if closed:
            await self.closed_sent(t)
        return True

    # -- background snapshots ----------------------------------------------------------------
    def save_soon(self, t: LiveTable) -> None:
        """Save the snapshot in the background: taken now, written by one writer per table that
        always writes the newest one. For what a crash may lose (placements before Confirm,
        message refs); transitions commit their own snapshot. Taken while a step of the
        table is under way (:attr:`_stepping`: a caller not holding the table, the stop), it
        is the table as before that step."""
        if not self.open_here(t):
            return
        step = self._stepping.get(t.id)
        # a step under way (a caller not holding the table: the stop): the table as before
        # it, which storage holds unless the step's commit writes its own; taken in its
        # middle, it was written over what storage held: the step's changes never committed
        # (its commit refused: the table served on from them after a restart), or the step's
        # own snapshot replaced, the same number without its token (read back as another
        # worker's, "the table changed meanwhile", :meth:`_read_back`)
        self._save_taken(
            t, dict(step.before) if step is not None and step.table is t else self.snapshot(t)
        )

    def _save_taken(self, t: LiveTable, data: dict[str, Any]) -> None:
        """Have the table's background writer (:meth:`_write_snapshots`) write snapshot
        ``data`` of open table ``t``, taken now (the newest: one taken before and not yet
        written is not)."""
        self._pending[t.id] = data
        writer = self._savers.get(t.id)
        if writer is None or writer.done():
            self._savers[t.id] = asyncio.create_task(self._write_snapshots(t.id))

    async def snapshot_saved(self, t: LiveTable) -> None:
        """Wait until the table's background snapshots taken so far (:meth:`save_soon`) are
        written, or tried: :attr:`storage_wait` twice at most (a write, and one under way
        before it), not the writer's tries after a failure. For a ref that must be in
        storage before the message it names is posted (a hand posted anew outside a step,
        :func:`posts_by_ref`); not written by then, the post goes out all the same (a crash
        before the save then posts it again after the restart, as it did before)."""
        writer = self._savers.get(t.id)
        if writer is not None and not writer.done():
            await asyncio.wait({writer}, timeout=2 * self.storage_wait)

    async def _write_snapshots(self, table_id: int) -> None:
        """The table's background writer (:meth:`save_soon`): writes the newest snapshot
        taken until none is left. Each try waits :attr:`storage_wait` at most (a silent
        database held the writer, the pool's connection and the stop's drain for minutes).
        One that failed is tried again, while no newer one was taken, after
        :data:`RENEW_RETRY_SECONDS` (twice as long each time, cut short by the stop),
        :data:`SNAPSHOT_TRIES` tries in all: given up, a table that makes no step for long
        (a hand waiting for a player's clock, a lobby) lost its cards placed before Confirm
        and its message refs to a crash meanwhile (the restart posted its messages anew).
        Not once the table is closed or let go (:meth:`open_here`), nor after a fenced
        store's refusal or a failure that is not storage's, nor a try that failed during the
        stop (which waits for this writer)."""
        wait, tries = RENEW_RETRY_SECONDS, 0
        while table_id in self._pending:
            data = self._pending.pop(table_id)
            try:
                with answer_within(self.storage_wait):
                    await self.store.save_snapshot(table_id, data)
                wait, tries = RENEW_RETRY_SECONDS, 0
                continue
            except Exception as exc:
                tries += 1
                t = self.tables.get(table_id)
                again = (
                    tries < SNAPSHOT_TRIES
                    and isinstance(exc, StorageError)
                    and not isinstance(exc, LeaseLost)
                    and not self.stopping
                    and t is not None
                    and self.open_here(t)
                )
                if not again:
                    log.warning("table %s: background snapshot not saved: %r", table_id, exc)
                    continue
                log.warning("table %s: background snapshot not saved yet: %r", table_id, exc)
            # (a snapshot taken meanwhile is newer: that one is written; one committed by a
            # step is newer too, and the store keeps it, :meth:`~storage.api.Store.save_snapshot`)
            self._pending.setdefault(table_id, data)
            wait = await self._pause(wait)

    async def drain(self) -> None:
        """Wait for every background snapshot (and closed table's command keys)."""
        while any(not w.done() for w in [*self._savers.values(), *self._keepers]):
            await asyncio.gather(
                *list(self._savers.values()), *list(self._keepers), return_exceptions=True
            )

    # -- timers ------------------------------------------------------------------------------
    def next_deadline(self, t: LiveTable) -> float | None:
        """When something is next due at the table: a clock running out (R8.5), the next
        deal, a queued top-up or the end of a late joiner's time to press Ready (R8.2), the
        next reveal or the end of a claim (R7.5). The clock of a tournament player away runs
        out after its grace (R8.7, :meth:`LiveTable.turn_deadline`)."""
        times = [
            d for k, c in t.clocks.items() if c.running and (d := t.turn_deadline(k)) is not None
        ]
        if t.top_ups_due():  # at once: top-ups asked for during the hand that ended (R8.2)
            times.append(self.clock())
        if t.next_hand_at is not None:
            times.append(t.next_hand_at)
        if t.ready_deadline is not None and t.hand is None:
            times.append(t.ready_deadline)
        if t.top_up_deadline is not None and t.hand is None:
            times.append(t.top_up_deadline)
        unready = t.ready_windows_end()  # a player seated late stands up unless Ready (R8.2)
        if unready is not None:
            times.append(unready)
        if t.bot_due is not None:
            times.append(t.bot_due)
        idle = self.idle_deadline(t)
        if idle is not None:
            times.append(idle)
        if t.reveal is not None:
            if t.reveal.get("at") is not None:
                times.append(float(t.reveal["at"]))
            if t.reveal.get("claim"):
                times.append(float(t.reveal["claim"]["deadline"]))
        level = self.level_at_change(t)
        if level is not None:
            times.append(level)
        return min(times) if times else None

    def level_at_change(self, t: LiveTable) -> float | None:
        """When a running tournament's next level comes into force after the one its
        group message last showed (R8.7, :attr:`LiveTable.level_shown`): the timer writes
        the message again then, once per level (its "next level in 0:03" stayed until the
        next move, or for good between hands). ``None``: no tournament running, or its
        message not written since the start."""
        tour = t.tournament
        if tour is None or tour.phase is not TournamentPhase.RUNNING or t.level_shown is None:
            return None
        started = tour.started_at
        if started is None:
            return None
        return started + t.level_shown * tour.config.level_seconds

    def level_due(self, t: LiveTable) -> bool:
        """Whether a new tournament level is in force since the group's message was last
        written (:meth:`level_at_change`)."""
        at = self.level_at_change(t)
        return at is not None and self.clock() >= at

    async def overdue_first(self, t: LiveTable) -> None:
        """Make the step of the table's timer now if its time has come and it has not fired
        (a loaded bot, a timer a moment late; call under ``t.lock``), before a change that
        would move what is due: as if it had fired on time (:attr:`on_time`). During a hand or
        a reveal only the end of a late joiner's time to press Ready counts (R8.2): a setting
        moves no clock of the hand, and the hand's step may wait for a computer player (it is
        left to the timer, which waits for the decision without the table). Not
        on a table closed (or let go) while the caller waited for its lock: its timer had
        fired and closed it, and the close was made again (the notices twice)."""
        if not self.open_here(t):
            return
        if t.hand is not None or t.reveal is not None:
            deadline = t.ready_windows_end()
        else:
            deadline = self.next_deadline(t)
        if deadline is not None and self.clock() >= deadline and self.on_time is not None:
            await self.on_time(t, True)

    def _schedule_bots(self, t: LiveTable) -> None:
        """When the computer player to act moves: ``bot_pace`` after its turn begins, but
        within half of what its own clock has left (R8.5): its pace is never a timeout, which
        would sit it out after the match (R8.6) with short ``hand_seconds`` or a spent bank,
        leaving the person it plays with in the lobby."""
        hand = t.hand
        if hand is None or hand.is_over:
            t.bot_due = None
            return
        bots = [s for s in hand.to_act if (p := t.player_of(s)) is not None and p.bot]
        if bots and self.timers and self.think is not None:
            self.think(t, bots)  # they decide during their pace, while the table is free
        if not bots:
            t.bot_due = None
        elif t.bot_due is None:
            low, high = self.bot_pace
            now = self.clock()
            due = now + random.uniform(low, high)
            for s in bots:
                clock = t.clocks.get(t.owner(s))
                deadline = clock.deadline() if clock is not None else None
                if deadline is not None:
                    due = min(due, now + max(0.0, deadline - now) / 2)
            t.bot_due = due

    def idle_deadline(self, t: LiveTable) -> float | None:
        """When the table closes itself for want of a hand (R8.2a): ``idle_close_seconds``
        after the last deal (or the opening), while no hand runs. Between two hands it counts
        from when the next deal is due: a table is not idle because its last hand took long
        (the idle close then fired before the next deal and cancelled running tournaments),
        and one whose deal keeps failing still closes in the end. So it does in the lobby
        while a deal is due there: the ready timer's end (R8.2: two players pressed Ready and
        the lobby counts it down) or the end of the lobby's top-up window; the idle close
        fired first, "no hand for 30 minutes" under "the hand starts in 40 seconds", and with
        ``idle_close_seconds`` below ``ready_seconds`` a table with an unready third player
        never dealt."""
        if t.hand is not None or t.reveal is not None or t.last_deal_at is None:
            return None
        start = t.last_deal_at
        for due in (t.next_hand_at, t.ready_deadline, t.top_up_deadline):
            if due is not None:
                start = max(start, due)
        return start + t.options.idle_close_seconds

    async def arm(self, t: LiveTable) -> None:
        """(Re)start the table's timer for its next deadline."""
        current = asyncio.current_task()
        if t.timer is not None and t.timer is not current and not t.timer.done():
            t.timer.cancel()
        t.timer = None
        deadline = self.next_deadline(t)
        if deadline is None or not self.timers or not self.open_here(t) or self.stopping:
            return
        t.timer = asyncio.create_task(self._timer(t, deadline), name=f"table-{t.id}-timer")

    async def _timer(self, t: LiveTable, deadline: float) -> None:
        early = deadline - SAFE_AHEAD_SECONDS - self.clock()
        if early > 0:
            await asyncio.sleep(early)
            try:  # (a failure only leaves the placement to the step, R8.5: the same one)
                self.think_safe(t, deadline)
            except Exception as exc:
                _placement_failed(t, "started", exc)
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        await self._decided(t)
        try:  # (as above: raised here, it ended the timer and the hand waited for a press)
            await self.prepare_safe(t, SAFE_SECONDS)
        except Exception as exc:
            _placement_failed(t, "made", exc)
        async with t.lock:
            if t.timer is asyncio.current_task():
                t.timer = None
            if self.on_time is not None and self.open_here(t):
                await self.on_time(t, False)

    async def _decided(self, t: LiveTable) -> None:
        """When the computer players' time to move has come, wait for their decisions under
        way (:attr:`thinking`) before taking the table, so that the step that moves them
        never holds it while they think (a person's press goes on meanwhile)."""
        if t.bot_due is None or self.clock() < t.bot_due:
            return
        tasks = [task for (table, _), (_, task) in self.thinking.items() if table == t.id]
        if tasks:  # (one that never ends, hung, is given up at its move: the table goes on)
            # each waited for DECISION_SECONDS in all, this wait and the move's together: the
            # move waited that long again for one still under way, a hung one held the table
            # twice as long (bots._decision)
            now = asyncio.get_running_loop().time()
            until = max(
                self.thinking_until.setdefault(task, now + thinking.DECISION_SECONDS)
                for task in tasks
            )
            await asyncio.wait(tasks, timeout=max(0.0, until - now))

    def _timed_out(self, t: LiveTable, at: float) -> tuple[set[int], set[int]]:
        """The boards of ``t``'s hand whose streets the step at ``at`` makes for their player
        (R8.5, :func:`bot.service.play.advance`): those to act now whose clock is out (or the
        grace of a player away, R8.7), and those whose every turn is (a player who left, a
        seat nobody holds, a clock whose budget and bank are both spent: its next street is
        made as soon as it comes, in the same step). A guess of what the step will do: one
        wrong makes a placement for nothing, or leaves one to the step."""
        hand = t.hand
        assert hand is not None
        now = {s for s in hand.to_act if t.out_of_time(t.owner(s), at)}
        every: set[int] = set()
        for s in hand.order:
            p = t.player_of(s)
            clock = t.clocks.get(t.owner(s))
            spent = clock is not None and clock.left(at) == (0.0, 0.0)
            if p is None or (p.leaving and not p.bot) or spent:
                every.add(s)
        return now | every, every

    def think_safe(self, t: LiveTable, at: float) -> None:
        """Start ``safe_autoplay``'s placement (R8.5: the strategy at ``normal``,
        :meth:`~game.hand.Hand.suggest`) of every board of ``t``'s hand to act whose street
        the table's step at ``at`` makes for its player (:meth:`_timed_out`), in the decision
        process (``rt.thinker``), off the event loop and without holding the table, from what
        the timeout will ask (:meth:`~game.hand.Hand.timeout_knowledge`): a second before the
        clock runs out, so that it is ready then. The streets a step makes after those
        (a chain of timeouts) are :meth:`prepare_safe`'s. Call with a running event loop."""
        hand = t.hand
        if hand is None or hand.is_over or not hand.options.safe_autoplay:
            return
        first, _every = self._timed_out(t, at)
        for s in hand.to_act:
            k = hand.timeout_knowledge(s) if s in first else None
            if k is not None and not hand.is_offered(s, k):
                self._safe_task(t, s, k)

    def _safe_task(self, t: LiveTable, seat: int, k: SeatKnowledge) -> asyncio.Task[Moves]:
        """The placement of ``seat`` from ``k`` under way (:attr:`safe_thinking`), started
        now unless one from the same knowledge is (one from other knowledge, the hand moved
        on since, is dropped)."""
        have = self.safe_thinking.get((t.id, seat))
        if have is not None:
            if have[0] == k and not have[1].cancelled():
                return have[1]
            have[1].cancel()
        task = self.decision_task(t, seat, k, Level.NORMAL, "safe")
        self.safe_thinking[(t.id, seat)] = (k, task)
        return task

    def decision_task(
        self,
        t: LiveTable,
        seat: int,
        k: SeatKnowledge,
        level: Level,
        kind: str,
        rule: Callable[[SeatKnowledge, Level], Moves] | None = None,
    ) -> asyncio.Task[Moves]:
        """``rule(k, level)`` (:func:`game.policy.decide` by default; a caller passes its own
        module's name for it) for ``seat`` of ``t``, started in the decision process
        (``rt.thinker``), off the event loop: a computer player's move (``kind`` "think",
        :func:`bot.service.bots.think_ahead`) or a safe timeout's placement ("safe",
        :meth:`think_safe`). Its failure is marked seen (whoever needs the placement decides
        again). Call with a running event loop."""
        task = asyncio.get_running_loop().create_task(
            self.thinker.decide(rule or decide, k, level), name=f"table-{t.id}-{kind}-{seat}"
        )
        task.add_done_callback(_seen)
        return task

    async def prepare_safe(
        self,
        t: LiveTable,
        wait: float,
        first: Sequence[Action] = (),
        leaving: Collection[int] = (),
    ) -> None:
        """Make, off the event loop, every ``safe_autoplay`` placement (R8.5) the step that
        comes next at ``t`` will need: its actions ``first`` (a Confirm's), then the
        timeouts it makes (:meth:`_timed_out`), a chain of them included (a clock spent
        for the hand times out each street as it comes, in the same step: the first
        street's placement tells the next street's knowledge). The step is played ahead on
        a copy of the hand, each placement it lacks made in the decision process
        (:meth:`_safe_task`, one at a time: each depends on the one before) and given to the
        hand (:meth:`~game.hand.Hand.offer_safe`), ``wait`` seconds at most in all; what is
        not made by then the step decides itself, as before (the same placement). The
        table's timer calls it without holding the table (the hand moving on meanwhile
        stops it: the next step starts over); a press that makes the step, holding it.
        ``leaving``: boards (hand seats) whose player the step makes leave (``/leave``
        during the hand, :func:`bot.service.lobby.leave`): their moves are made as on
        timeout from then on (R8.5), as a player's who left."""
        end = asyncio.get_running_loop().time() + wait
        for _ in range(3):  # (the hand moved on meanwhile: played ahead again)
            if not await self._play_ahead(t, end, first, leaving):
                return

    async def _play_ahead(
        self, t: LiveTable, end: float, first: Sequence[Action], leaving: Collection[int] = ()
    ) -> bool:
        """:meth:`prepare_safe`'s one try, until the event loop's time ``end``: ``True`` when
        the hand moved on meanwhile (played ahead again)."""
        hand = t.hand
        if hand is None or hand.is_over or not hand.options.safe_autoplay:
            return False
        loop = asyncio.get_running_loop()
        first_round, every = self._timed_out(t, self.clock())
        every |= set(leaving)
        if not first_round and not every:
            return False
        if not first and not any(s in every or s in first_round for s in hand.to_act):
            return False  # (nobody's street to make now: no step ahead to play)
        played = len(hand.actions)
        ahead = hand.copy()  # (copy.deepcopy took a few milliseconds on the event loop)
        try:
            for action in first:
                if isinstance(action, Confirm) and _ends(ahead, action.seat):
                    return False  # (showdown next: no timeout after it)
                ahead.apply(action)
        except GameError:
            return False
        for rounds in range(64):  # (a hand has fewer streets: a bound, never reached)
            due = [s for s in ahead.to_act if s in every or (not rounds and s in first_round)]
            if ahead.is_over or not due:
                return False
            for s in due:
                k = ahead.timeout_knowledge(s)
                if k is not None and not ahead.is_offered(s, k):
                    task = self._safe_task(t, s, k)
                    left = end - loop.time()
                    if left <= 0:
                        return False
                    await asyncio.wait([task], timeout=left)
                    if t.hand is not hand or len(hand.actions) != played:
                        return t.hand is not None and not t.hand.is_over
                    if not task.done() or task.cancelled() or task.exception() is not None:
                        return False
                    if self.safe_thinking.get((t.id, s), (k, None))[1] is task:
                        del self.safe_thinking[(t.id, s)]
                    for h in (ahead, hand):
                        h.offer_safe(s, k, task.result())
                if _ends(ahead, s):
                    return False  # (showdown next: not played ahead, nothing to decide after)
                ahead.apply(Timeout(s))
        return False

    async def place_safe(self, t: LiveTable, seat: int, wait: float) -> None:
        """Make ``safe_autoplay``'s placement (R8.5) of ``seat``'s street, to be made by the
        timeout rule in the step under way (a computer player whose decision failed,
        :func:`bot.service.bots.bot_turn`), in the decision process, off the event loop,
        and give it to the hand (:meth:`~game.hand.Hand.offer_safe`); waited for ``wait``
        seconds at most (the step holds the table), else the step decides itself, as
        before (the same placement). Nothing when the timeout would not ask the strategy."""
        hand = t.hand
        if hand is None:
            return
        k = hand.timeout_knowledge(seat)
        if k is None or hand.is_offered(seat, k):
            return
        task = self._safe_task(t, seat, k)
        await asyncio.wait([task], timeout=wait)
        if not task.done() or task.cancelled() or task.exception() is not None:
            return
        if self.safe_thinking.get((t.id, seat), (k, None))[1] is task:
            del self.safe_thinking[(t.id, seat)]
        if t.hand is hand:
            hand.offer_safe(seat, k, task.result())

    def offer_safe(self, t: LiveTable) -> None:
        """Give ``t``'s hand the placements :meth:`think_safe` made
        (:meth:`~game.hand.Hand.offer_safe`: a timeout uses one only if the seat still knows
        what it was made from, else decides itself, the same); those still under way stay.
        Call under ``t.lock``, before the step that makes the timeouts."""
        for key in [k for k in self.safe_thinking if k[0] == t.id]:
            k, task = self.safe_thinking[key]
            if not task.done():
                continue
            del self.safe_thinking[key]
            if t.hand is not None and not task.cancelled() and task.exception() is None:
                t.hand.offer_safe(key[1], k, task.result())

    async def stop_timers(self) -> None:
        """Cancel every timer and wait for them; drop the computer players' decisions under
        way."""
        timers = [t.timer for t in self.tables.values() if t.timer is not None]
        for task in timers:
            task.cancel()
        for task in timers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for t in self.tables.values():
            t.timer = None
        for book in (self.thinking, self.safe_thinking):
            for _k, thought in book.values():  # (a thread or the worker finishes it)
                thought.cancel()
            book.clear()


def _placement_failed(t: LiveTable, step: str, exc: Exception) -> None:
    """Log that the table timer's ``safe_autoplay`` placement of ``t`` was not ``step``
    ("started", "made") ahead (:meth:`Runtime.think_safe`, :meth:`Runtime.prepare_safe`; the
    step makes it itself, R8.5): by the error's type and where it was raised, never its text
    nor traceback, which may name a hidden card or discard (as the timer step's own line,
    :mod:`bot.service.timers`)."""
    log.error(
        "table %s: the timeout's placement not %s ahead (%s at %s)",
        t.id,
        step,
        type(exc).__name__,
        raised_at(exc),
    )


def _seen(task: asyncio.Task[Moves]) -> None:
    """Mark a decision's failure seen (:meth:`Runtime.decision_task`: a computer player's
    turn, :func:`bot.service.bots.bot_turn`, or the timeout then decides itself)."""
    if not task.cancelled():
        task.exception()


def _ends(hand: Hand, seat: int) -> bool:
    """Whether ``seat``'s street is the last move ``hand`` waits for (its end is the
    showdown: :meth:`Runtime.prepare_safe` plays no further ahead)."""
    return hand.street_of(seat) == hand.streets_of(seat) and all(
        hand.street_of(s) > hand.streets_of(s) for s in hand.order if s != seat
    )
