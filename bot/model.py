"""The application layer's records: who acts (:class:`Actor`), where (:class:`ChatRef`), what
the adapter shows back (:class:`Reply`), the live state of a table (:class:`LiveTable`) and the
interface each platform adapter implements for the service to write messages
(:class:`Presenter`)."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any, Protocol

from bot.names import MAX_NAME, cut, folded, units
from bot.retries import pending_ref
from bot.screens import Screen
from game.chinese import ChineseGame, RevealStage
from game.clock import SeatClock
from game.hand import Hand
from game.match import HandPlan, MatchState
from game.options import GameKind, RuleOptions
from game.tournament import AWAY_SECONDS, Tournament

__all__ = [
    "HAND_VIEW_PREFIX",
    "PENDING_PREFIX",
    "Actor",
    "ChatRef",
    "LiveTable",
    "Phase",
    "Presenter",
    "Reply",
    "SeatState",
    "group_chat",
    "lobby_version_no",
]


#: A pressed message's ref (``TableService.press``'s ``message_ref``) that starts with this
#: names a message only the presser sees that shows their hand, other than their private
#: chat's hand message (a Discord ephemeral hand): a press there that is out of date shows the
#: current hand on it, as on the private hand message itself.
HAND_VIEW_PREFIX = "ephemeral:"
#: begins the ref a presenter gives a new message it could not post yet (the platform down:
#: a 5xx, a 429, no connection) and posts in the background: the service keeps it as the
#: message's ref (the player stays reachable) and is told the real one once it is posted
#: (:meth:`bot.service.TableService.message_posted`); a screen written to it meanwhile is
#: the one posted.
PENDING_PREFIX = "pending-"


class Phase(Enum):
    """Where a table is in its life (issue 10). Every change of phase is a transition the
    service commits in one storage transaction.

    - ``LOBBY``: no hand running and play not started: seated players press Ready (R8.2); the
      first hand is dealt when every seated player is ready.
    - ``PLAYING``: a hand is dealt and not over (R3, R4).
    - ``REVEALING``: Chinese Poker reveals a finished hand box by box, with claims (R4.5, R7.5).
    - ``BETWEEN``: play runs; a hand is over and the next one is dealt at ``next_hand_at`` to
      the ready players who are not sitting out (R8.2).
    - ``CLOSED``: every stack is cashed out; the chat may open a new table (R8.2a).
    """

    LOBBY = "lobby"
    PLAYING = "playing"
    REVEALING = "revealing"
    BETWEEN = "between"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Actor:
    """A person pressing or typing: platform user id, display name, language code."""

    platform: str
    user_id: str
    name: str
    language: str | None = None


def group_chat(chat_id: str, topic: object | None) -> str:
    """Where a table's group messages go, as the presenters take a chat: the chat id,
    followed by ``#<topic>`` for a Telegram forum topic (``topic``, ``None`` for none)."""
    return chat_id if topic is None else f"{chat_id}#{topic}"


@dataclass(frozen=True, slots=True)
class ChatRef:
    """Where a command came from: the community (Telegram group / Discord guild), the chat
    (the group itself / a channel) and whether it is a private chat. ``topic``: the forum
    topic of a Telegram group it was typed in (its ``message_thread_id``), ``None`` for the
    group's general chat and elsewhere. ``thread``: the chat is a Discord thread (the bot
    writes there with Send Messages in Threads, not Send Messages); ``private_thread``: a
    private one (the bot sees it only once added to it, or with Manage Threads)."""

    platform: str
    community_id: str
    chat_id: str
    title: str = ""
    private: bool = False
    topic: str | None = None
    thread: bool = False
    private_thread: bool = False


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a command or a press.

    :ivar text: a short notice (for a press: the callback answer / ephemeral text).
    :ivar alert: show it as a popup (refused presses).
    :ivar screen: a message to show to the presser (e.g. settings, or on Discord the private
        hand as an ephemeral message). For a press on the presser's own private hand message
        it is that message's new face, and only the adapter writes it (onto the pressed
        message: the service does not write a message being answered, issue 10).
    :ivar private: the screen is private to the presser.
    :ivar picture: a PNG to show with ``text`` as its caption (``/hand``, issue 12).
    :ivar caption: with ``picture``: the picture follows ``text`` (sent as usual) with this
        short caption of its own (``/stats``: the kush chart); ``None``: ``text`` is the
        picture's caption (``/hand``).
    :ivar picture_name: the picture's file name on the platforms that show one.
    :ivar live: a private screen that is the presser's live hand (a platform keeps such an
        ephemeral message up to date as the hand goes on); ``False`` for other private
        screens, such as a replay frame (issue 12).
    """

    text: str = ""
    alert: bool = False
    screen: Screen | None = None
    private: bool = False
    picture: bytes | None = None
    live: bool = True
    caption: str | None = None
    picture_name: str = "hand.png"


class Presenter(Protocol):
    """What a platform adapter does for the service: write the one table message of a chat,
    the one private message of a player, and plain notices. Refs are opaque message ids."""

    platform: str

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        """Send (``ref`` None) or edit the table message; returns its ref (a pending one,
        :data:`PENDING_PREFIX`, for a message the platform is down to take: posted later).
        A presenter with ``posts_by_ref`` (Discord, :func:`bot.service.runtime.posts_by_ref`)
        also posts under a pending ``ref`` it does not know (the service committed it first,
        or a snapshot from before a restart holds it): every post under one ref is one
        message while the platform can tell (Discord's nonce)."""

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        """Send or edit the player's private message; ``None`` if the player cannot be reached
        (never started the bot / DMs closed), a pending ref (:data:`PENDING_PREFIX`) if the
        platform is down: posted later, the player reachable. ``answered``: the ref of
        another message of the player (say a Discord ephemeral hand) that was pressed and
        that the adapter answers with this screen: a presenter that also shows the hand
        there does not write it. A presenter with ``posts_by_ref`` (Discord) also posts
        under a pending ``ref`` it does not know (the step that shows the hand anew
        committed it first, :meth:`bot.service.runtime.Runtime.commit`): every post under
        one ref is one message while the platform can tell (Discord's nonce)."""

    async def edit_written(self, chat_id: str, ref: str) -> bool:
        """Wait until the edits queued for message ``ref`` of ``chat_id`` (by
        :meth:`show_table`) are written, or given up; ``False`` when the newest was not
        written because the bot stops while the platform holds it (a 429, an outage:
        :meth:`stop_retries`), so the caller owes it again for the next start."""

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        """A one-off notice in a chat. ``False``: not sent because the bot stops (the
        platform held it: a flood wait, an outage; :meth:`stop_retries`), so the caller
        keeps it for the next start; ``True`` otherwise (sent, or given up for good: refused,
        or still refused past its tries, logged). ``ref``: its pending ref
        (:data:`PENDING_PREFIX`, its outbox item's, :meth:`LiveTable.owe`): every send under
        one ref, a restart's too, is one message where the platform can tell (Discord's
        nonce: a notice the stop cut off after Discord had posted it is not posted again)."""

    async def send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str | None = None, *, later: bool = False
    ) -> str | None:
        """A picture (PNG bytes) with a short caption in a chat: the showdown picture
        (issue 12). Failures are logged, not raised (the text showdown is the record).
        ``ref``: its pending ref (:data:`PENDING_PREFIX`; every try under one ref is one
        message: Discord's nonce). Returns ``ref`` when the platform refused it for a while
        and it is posted later in the background (the service keeps it,
        :attr:`LiveTable.late_pictures`, until told it was posted or given up), else
        ``None`` (sent, or not to be sent). ``later``: straight to the background (a
        restart posting a late picture again)."""

    def drop_picture(self, ref: str) -> None:
        """Stop posting the picture ``ref`` later (:meth:`send_picture`), telling the service
        nothing: another worker serves its table now and posts it (issue 14)."""

    def stop_retries(self) -> None:
        """The bot stops (the service's stop calls it before it waits for the tables'
        messages, the adapter's again): no write waits for the platform any more (a 429's
        pause, the next try after an outage) nor is tried again; a notice held so is not
        sent (:meth:`post` returns ``False``)."""

    def private_link(self, table_id: int) -> str | None:
        """A URL that opens the private chat at this table (Telegram deep link), if any."""

    def message_link(self, community: str, chat_id: str, ref: str) -> str | None:
        """A URL that shows the members of ``community`` the message ``ref`` of ``chat_id``
        (a table message, :attr:`LiveTable.group_chat`), if the platform has one."""

    def plain_text(self, text: str) -> str:
        """``text`` as this platform's messages show it, without the escapes its names got
        for them (a Discord name's markdown escapes): what a picture draws."""

    def typed_text(self, text: str) -> str:
        """``text`` that a user typed (a command's argument an answer repeats, such as a
        name no player has) as this platform's messages show it literally: a Discord
        answer escapes its markdown and mentions (``**x**`` is no bold, ``<@1>`` no
        mention), as names are; a Telegram answer is plain text, unchanged."""


@dataclass(slots=True)
class SeatState:
    """A seated player.

    :ivar stack: kush at the table (mirrors storage).
    :ivar ready: bought in (R8.2).
    :ivar bank: time bank seconds left (R8.5).
    :ivar reachable: the last private message got through.
    :ivar refused_for_good: while not :attr:`reachable`: the refusal was one only the player
        can undo (Telegram's 403, they blocked the bot or never started it; or Telegram said
        they blocked it), so their private chat is left alone until they show life there
        (:func:`bot.service.runtime.quiet_until_seen`); ``False``: it was no block (a 400
        Bad Request, :meth:`bot.telegram.adapter.TelegramPresenter.quiet_for`) and the next
        write tries again. Saved with the table, so a restart (or a takeover) does not
        silence a seat a 400 refused (a snapshot from before it was kept: ``True``).
    :ivar timed_out: sitting out because the moves had to be made for them (R8.6), not by
        their own /sitout.
    :ivar back_early: a player whose moves the clock made in the hand under way said /back
        during it (R8.6: one not yet moved to sit-out returns with the command too): the
        sit-out that timeout sets when the hand ends is not made (:func:`bot.service.dealing.
        sit_out_timed_out`); cleared then.
    :ivar away: a tournament player whose street the clock had to finish (R8.5, R8.7), who
        has not acted at the table since: each of their turns waits only
        :data:`game.tournament.AWAY_SECONDS` (:meth:`LiveTable.grace`). Never at a cash table
        (R8.6 sits out instead) nor for a computer player.
    :ivar bot: the level (``easy``, ``normal``, ``strong``) of a computer player, which plays
        with house kush and has no private chat; ``None`` for a person.
    :ivar top_up: kush of a top-up asked for during a hand, added from the balance when the
        hand ends (R8.2: top-ups happen between hands); 0 when none is queued.
    :ivar top_up_buy_in: the queued top-up was asked for without an amount: it is the buy-in
        of the next hand, read when it is added (a buy-in saved during the hand applies as
        it ends), :attr:`top_up` being the one expected when it was asked for.
    :ivar topped_up: kush added to the stack by top-ups since the last hand ended (R8.2),
        shown next to the stack on the table message until the next hand ends: a stack that
        went 230 → 530 between hands said nothing of why.
    :ivar leave_asked: when (clock seconds) the player was last asked whether to leave: a
        tournament player's Leave (leaving knocks them out, R8.7), or a cash-table player's
        Leave or /leave during their hand (the rest of it is placed for them, R8.5), asks
        first and a second Leave (or /leave) within ``LEAVE_CONFIRM_SECONDS`` leaves; 0.0
        when not asked (or the leave was taken back, :func:`bot.service.lobby.join`).
    :ivar foul_asked: the questions of fouled Confirms (R2.3) still open, one per board (two
        with double boxes, R4.2): the board as it was asked about,
        ``"<hand>.<board seat>.<version>"`` (the press's version: any change of the board,
        another street or hand, makes it another) → when (clock seconds) the player pressed
        Confirm on it. A Confirm that leaves the board fouled only asks; a second press of
        the same board as it was then within ``LEAVE_CONFIRM_SECONDS``, and not sooner than
        ``FOUL_CONFIRM_MIN_SECONDS`` (a double tap), confirms
        (:func:`bot.service.play.hand_press`). Asking about one board keeps the other's
        question: it was one for the seat, so Confirm on board ①, on ②, then on ① again
        asked ① again.
    :ivar lang: the language of the player's private screens: the group's when it is set
        (``/settings language en|ru``: the table's), else :attr:`own_lang`; it follows a
        change of the setting (:func:`bot.service.settings.seat_language`).
    :ivar own_lang: the player's own language (``"en"``/``"ru"``), what :attr:`lang` is when
        the group's language is ``auto``; ``None`` (a seat saved before it was kept): as
        :attr:`lang`.
    :ivar ready_by: when a player who sat down while hands were being played (outside the
        lobby's ready timer) is stood up if they have not pressed Ready (R8.2), clock
        seconds; ``None`` otherwise (bought in, sitting out, or seated in the lobby, whose
        ready timer applies).
    :ivar left_group: the player left the group (or was removed from it) and is leaving
        after the hand (R8.2, R8.5): a second report of that departure (Telegram tells it by
        the ``left_chat_member`` service message and by a ``chat_member`` update) changes
        nothing and tells the group nothing again (:func:`bot.service.lobby.leave`); cleared
        when Join takes the leave back.
    :ivar kicked: an admin's ``/kick`` stood the player up during a hand at a cash table
        (:func:`bot.service.lobby.leave`): told so in private then, they are told again in
        private when they stand up as the hand ends, their stack back
        (:func:`bot.service.showdown`'s stand-up; never a computer player). Join does not
        take that leave back (``reply.join_kicked``; their own /leave it does): after the
        hand they may join again.
    :ivar unplayed_buy_in: the buy-in (kush) the player's Ready (a computer player's
        seating) moved to the stack for a hand not yet dealt to them (R8.2; 0 once they are
        dealt in): a newcomer during a
        hand pays the table's buy-in when a lower one saved meanwhile waits for the match's
        end (:func:`bot.service.dealing.next_buy_in`); when the lower one applies before
        their first hand, the difference goes back to the balance
        (:func:`bot.service.dealing.apply_pending`).
    """

    seat: int
    player_id: int
    user_id: str
    name: str
    lang: str
    stack: int = 0
    ready: bool = False
    sitting_out: bool = False
    leaving: bool = False
    bank: float = 0.0
    private_ref: str | None = None
    reachable: bool = True
    refused_for_good: bool = True
    timed_out: bool = False
    bot: str | None = None
    top_up: int = 0
    top_up_buy_in: bool = False
    topped_up: int = 0
    leave_asked: float = 0.0
    own_lang: str | None = None
    ready_by: float | None = None
    away: bool = False
    foul_asked: dict[str, float] = field(default_factory=dict)
    back_early: bool = False
    left_group: bool = False
    kicked: bool = False
    unplayed_buy_in: int = 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "seat": self.seat,
            "player_id": self.player_id,
            "user_id": self.user_id,
            "name": self.name,
            "lang": self.lang,
            "stack": self.stack,
            "ready": self.ready,
            "sitting_out": self.sitting_out,
            "leaving": self.leaving,
            "bank": self.bank,
            "private_ref": self.private_ref,
            "reachable": self.reachable,
            "refused_for_good": self.refused_for_good,
            "timed_out": self.timed_out,
            "bot": self.bot,
            "top_up": self.top_up,
            "top_up_buy_in": self.top_up_buy_in,
            "topped_up": self.topped_up,
            "leave_asked": self.leave_asked,
            "own_lang": self.own_lang,
            "ready_by": self.ready_by,
            "away": self.away,
            "foul_asked": dict(self.foul_asked),
            "back_early": self.back_early,
            "left_group": self.left_group,
            "kicked": self.kicked,
            "unplayed_buy_in": self.unplayed_buy_in,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatState:
        """Inverse of :meth:`to_json` (also of a snapshot from before the questions were kept
        per board: its one question, ``foul_board`` asked at ``foul_asked``; keys it does not
        know, a newer release's, are ignored)."""
        d = {k: v for k, v in d.items() if k in _SEAT_KEYS or k == "foul_board"}
        # (a key this code does not know, written by a newer release, is left out: a restart
        # on the release before an upgrade still restores its tables)
        asked, board = d.pop("foul_asked", None), d.pop("foul_board", "")
        if isinstance(asked, dict):
            d["foul_asked"] = {str(k): float(v) for k, v in asked.items()}
        elif board and asked:
            d["foul_asked"] = {str(board): float(asked)}
        return cls(**d)


#: the keys of a seat's snapshot (:meth:`SeatState.from_json`)
_SEAT_KEYS = frozenset(f.name for f in fields(SeatState))


#: A second press of a button that asks first, within this many seconds, does it: Leave (a
#: tournament player's, R8.7, or a cash-table player's during their hand, R8.5) and a Confirm
#: that leaves the board fouled (R2.3).
LEAVE_CONFIRM_SECONDS = 30.0


#: How many one-shot command keys a table remembers (:attr:`LiveTable.requests`): a
#: redelivered update comes within seconds, long before this many commands follow it.
REQUESTS_KEPT = 32
#: How many press keys a table remembers (:attr:`LiveTable.presses`): a redelivered update
#: comes within seconds, long before this many presses at the table follow it.
PRESSES_KEPT = 64


def lobby_version_no(version: str) -> int | None:
    """The number ``n`` of a table message button's version ``L<n>`` (ASCII digits);
    ``None`` for any other shape (a forged payload)."""
    rest = version[1:]
    return int(rest) if version[:1] == "L" and rest.isascii() and rest.isdigit() else None


#: A table's lobby stretch (:meth:`LiveTable.lobby_key`): its phase, hand number,
#: tournament phase (``None``: a cash table), buy-in and rules
LobbyKey = tuple[str, int, str | None, int, RuleOptions]


@dataclass(slots=True)
class LiveTable:
    """One open table in memory. Only the service changes it, under ``lock``.

    :ivar phase: the table's phase (:class:`Phase`).
    :ivar seq: how many transitions were committed (the key of the next is ``seq + 1``).
    :ivar last_deal_at: when the last hand was dealt (or the table opened, or a lowered
        ``idle_close_seconds`` applied): idle close, R8.2a.
    :ivar ready_deadline: when the ready timer ends (R8.2), while it runs.
    :ivar top_up_deadline: in the lobby, when the busted players, whose top-ups alone stand
        between the table and a deal, are stood up if they have not topped up (R8.2).
    :ivar tournament: the sit-and-go this table plays (R8.7), if it is a tournament table:
        stacks then hold the buy-ins (the prize pool) and the tournament the chips.
    :ivar opener: the user who opened the table: may start a tournament (R8.7), and seat
        and stand up computer players at a cash table. When they leave their seat, the part
        passes to the person seated longest still at the table (:meth:`heir`), ``None`` with
        nobody left: then to whoever sits down next.
    :ivar bot_due: when the computer player to act moves (a human-like pace), while one is.
    :ivar closing: an admin asked to close the table during a hand: it closes at its end.
    :ivar removal_close: the close was queued by the bot's removal from the chat (or its
        right to write there taken), not by an admin: the bot back in the chat cancels it.
    :ivar moved_from: the chat the table was in before its group moved (a Telegram group
        upgraded to a supergroup, :func:`bot.service.chats.migrate_chat`): a press on its old
        message there is out of date, not forged (the adapter forgets the move at a restart).
    :ivar moved_close: the close was made because the group's older table moved into this
        table's chat (:func:`bot.service.chats.close_stray`), not by an admin: a tournament's
        players are told so (:func:`bot.service.dealing.tell_tournament_closed`).
    :ivar chat_gone: while it closes, the bot may no longer write in the table's chat (the
        removal's close, or an admin's close the removal came after): its players are told
        in private at the close (:func:`bot.service.dealing.tell_chat_gone`), nothing is
        written to the group, and the closed table's final snapshot keeps the closing notice
        for its table message until the bot is back (:func:`bot.service.chats.owed_back`).
    :ivar names: player id → name of every tournament registrant (for the final standings).
    :ivar banks_left: player id → time bank left when they stood up: the bank does not refill
        by leaving and rejoining the same table (R8.6); given back only if they joined no
        other table since, and at most a newcomer's bank now (:func:`bot.service.lobby.join`).
    :ivar left_at: player id → when the step that put them in :attr:`banks_left` committed
        (:meth:`stamp_left`): a table they sat down at after it is another table joined since
        (R8.6), even one they still sit at.
    :ivar joined_at: player id → when they sat down here (``/join``, or a tournament's
        registration; none: a computer player, or seated before it was kept), for the seated
        only (:meth:`stamp_left`): whether a table they
        still sit at was joined after they left another (R8.6, :func:`bot.service.lobby.join`).
        A table-level key, not a seat's: the release before it ignores it in a snapshot.
    :ivar outbox: group messages the last committed transitions owe the chat (a showdown, a
        notice), kept in the snapshot until sent, so that a restarted bot sends the stored
        result and never a recomputed one. Each is ``{"kind": "table" | "post", "text": …,
        "buttons": …}`` (``table``: written over the table message, which then stays as the
        record, or over the message its ``ref`` names: an edit the bot's stop left unwritten,
        owed again; ``post``: a notice of its own), ``{"kind": "private", "user": …,
        "text": …, "ref": …}`` (a private notice to that person, :meth:`owe_notice`) or
        ``{"kind": "picture", "picture": …, "caption": …, "ref": …}`` (the showdown
        picture's data, :class:`bot.pictures.Picture`, drawn when it is sent; ``ref``: a
        pending ref, :data:`PENDING_PREFIX`, given when it is owed, so every try of it, a
        restart's too, is the same message: on Discord the same nonce).
    :ivar late_pictures: showdown pictures the platform refused past the notice tries and
        posts later in the background (:meth:`Presenter.send_picture`): each its outbox
        item, ``ref`` the pending ref the presenter posts it under. Kept in the snapshot
        until it is posted or given up (the presenter tells the service,
        :meth:`bot.service.TableService.message_posted`, ``picture_given_up``), so a
        restart posts it (:func:`bot.service.recovery.resume`), under the same ref.
    :ivar private_outbox: private messages a closing step owes its players (the bot's
        removal's notices, R8.2a; a showdown's final boards), kept with the closed table's
        final snapshot until sent, so that a restart after a crash between the commit and
        the sending sends them (:func:`bot.service.recovery.deliver`). Each is ``{"user":
        user id, "seat": table seat or None (a player no longer seated), "ref": the message
        to write over or None (a new one), "text": …, "buttons": …}``
        (:meth:`owe_private`); empty at an open table.
    :ivar knocked_out: player id → ``[user id, language]`` of each person a running
        tournament knocked out (no longer seated; R8.7): a cancel may still pay them their
        place's prize, and the bot's removal tells them so in private
        (:func:`bot.service.dealing.tell_chat_gone`).
    :ivar pictures: the community's ``pictures`` setting: a showdown also owes the group its
        picture (issue 12).
    :ivar requests: the platform keys of the last :data:`REQUESTS_KEPT` one-shot commands
        applied (``/topup``), committed with their step: a command delivered again (Telegram
        redelivers an update whose handling a crash cut short; the router retries) is
        answered, not applied twice.
    :ivar presses: the platform keys of the last :data:`PRESSES_KEPT` presses at the table
        (Telegram: ``tg:<chat>:<update_id>``), saved with the table's next commit: a press
        delivered again (its answer lost, a crash before Telegram learnt it was handled) is
        no sign that its player is at the table now, so it never brings a tournament player
        away back (R8.7); what it does is checked by its version, as any press's.
    :ivar absent_hands: hands of a running tournament in a row that every player's time ran
        out in (R8.5): at :data:`bot.service.showdown.ABANDONED_HANDS` it is cancelled.
    :ivar topic: the forum topic of a Telegram group the table was opened in: its group
        messages go there (:attr:`group_chat`); ``None``: the chat itself.
    :ivar level_shown: a running tournament's level when the group's message was last
        written (R8.7): the timer writes it again once a new level is in force, whose
        "next level in 0:03" stayed until the next move; ``None``: not written since.
    """

    id: int
    platform: str
    community_id: int
    community_ext: str
    chat_id: str
    lang: str
    options: RuleOptions
    min_buy_in: int
    label: str
    seats: dict[int, SeatState] = field(default_factory=dict)
    match: MatchState | None = None
    hand: Hand | None = None
    plan: HandPlan | None = None
    hand_no: int = 0
    #: history entries of settlements that are no hand (a round's, R8.3; a Chinese Poker
    #: game's, R7.6) among the table's numbers: they take a number of storage's (the key of
    #: a history row, :attr:`hand_no`), never one players see (:attr:`shown_no`)
    apart: int = 0
    clocks: dict[int, SeatClock] = field(default_factory=dict)
    group_ref: str | None = None
    #: the table message from before the last restart (:func:`bot.service.recovery.resume`
    #: posts a new one): a table closed while the bot may not write in its chat, whose new
    #: message was never posted (refused), has that one written as closed on the bot's
    #: return (:func:`bot.service.runtime.waiting_for_chat`)
    earlier_ref: str | None = None
    version: int = 0
    #: the version of the table message a restart found (not saved): its buttons stay valid
    #: while the restored table is in the state that message showed (set by
    #: :func:`bot.service.recovery.resume` when resuming changed nothing, cleared when the
    #: version moves on)
    resumed_version: int | None = None
    #: the first version of the table message that showed the table in its present lobby
    #: stretch (:meth:`lobby_key`: the phase, the hand number, the tournament's phase), and
    #: that key (not saved: after a restart only the current version counts). An older
    #: version from this stretch may still count for a press whose meaning for its presser
    #: it cannot have changed (:meth:`same_lobby`, :meth:`bot.service.TableService.press`)
    lobby_from: int | None = None
    lobby_at: LobbyKey | None = None
    #: who left their seat (stood up, unregistered) in the present lobby stretch, and the
    #: version of the table message then current (not saved; cleared with a new stretch): a
    #: press of theirs on that version or an older one was pressed before they left and
    #: counts no more (:meth:`left_since`)
    lobby_left: dict[str, int] = field(default_factory=dict)
    phase: Phase = Phase.LOBBY
    seq: int = 0
    #: the token of the step :attr:`seq` that storage holds (random, one per commit, written
    #: with its snapshot and with every background snapshot of it, :meth:`to_json`): it tells
    #: this process's step from another worker's of the same number (issue 14,
    #: :meth:`bot.service.runtime.Runtime._read_back`, :meth:`bot.service.TableService.adopt`);
    #: ``None`` for a snapshot from before tokens
    step_token: str | None = None
    outbox: list[dict[str, Any]] = field(default_factory=list)
    outbox_seq: int = 0
    outbox_sent: int = 0
    private_outbox: list[dict[str, Any]] = field(default_factory=list)
    late_pictures: list[dict[str, Any]] = field(default_factory=list)
    knocked_out: dict[int, list[str]] = field(default_factory=dict)
    next_hand_at: float | None = None
    pending_options: RuleOptions | None = None
    pending_buy_in: int | None = None
    last_result: dict[str, Any] | None = None
    owners: dict[int, int] = field(default_factory=dict)
    chinese: ChineseGame | None = None
    reveal: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None
    #: the table's senders, each a task chain writing in commit order without the table's
    #: lock: :data:`~bot.service.runtime.GROUP_CHAIN` for the group's messages, one per
    #: player (their user id) for their private ones, so a platform that makes one chat
    #: wait (a 429) holds no other chat's messages (:meth:`.service.runtime.Runtime.send`)
    sending: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    #: watchers of the outbox's ``table`` items written over a message (not saved): each
    #: waits for its edit and owes the item again when the stop left it unwritten
    #: (:meth:`.service.runtime.Runtime.flush_outbox`)
    edits: set[asyncio.Task[None]] = field(default_factory=set)
    #: the number of the newest committed step's table message queued to the group's sender
    #: (not saved): a step's own is not written once a later one is queued, which is newer
    #: (:meth:`.service.runtime.Runtime.send`)
    screen_seq: int = 0
    #: a committed step's table message was not written for a later one's (:attr:`screen_seq`)
    #: and no newer one is written since (not saved): should that later step's messages fail
    #: before its table message is written, a refresh of the newest is queued
    #: (:meth:`.service.runtime.Runtime.send`), else the group showed neither
    screen_skipped: bool = False
    #: the id of the outbox item the group's sender is writing now, 0 when none (not saved):
    #: it may be posted, so it is not replaced (:class:`.service.lobby._Notice`)
    outbox_sending: int = 0
    last_deal_at: float | None = None
    ready_deadline: float | None = None
    top_up_deadline: float | None = None
    banks_left: dict[int, float] = field(default_factory=dict)
    left_at: dict[int, float] = field(default_factory=dict)
    joined_at: dict[int, float] = field(default_factory=dict)
    tournament: Tournament | None = None
    opener: str | None = None
    names: dict[int, str] = field(default_factory=dict)
    closing: bool = False
    removal_close: bool = False
    moved_close: bool = False
    moved_from: str | None = None
    chat_gone: bool = False
    bot_due: float | None = None
    pictures: bool = True
    requests: list[str] = field(default_factory=list)
    presses: list[str] = field(default_factory=list)
    absent_hands: int = 0
    topic: str | None = None
    level_shown: int | None = None

    @property
    def shown_no(self) -> int:
        """The number players see for the hand :attr:`hand_no` (titles, ``/history``,
        ``/replay``): the hands dealt, counted without the settlements recorded between them
        (:attr:`apart`), so that hand 2 is followed by hand 3 after a Chinese Poker game
        settled between them (it read "hand 4")."""
        return self.hand_no - self.apart

    @property
    def group_chat(self) -> str:
        """Where the table's group messages go (:func:`group_chat`)."""
        return group_chat(self.chat_id, self.topic)

    def applied(self, request: str | None) -> bool:
        """Whether the one-shot command ``request`` (a platform key, e.g. ``tg:<chat>:<update>``)
        was applied already; ``None`` (no key) never was."""
        return request is not None and request in self.requests

    def remember(self, request: str | None) -> None:
        """Record ``request`` as applied by the step being built (kept in the snapshot, so
        the record commits with the step); only the last :data:`REQUESTS_KEPT` are kept."""
        if request is not None:
            self.requests = [*self.requests, request][-REQUESTS_KEPT:]

    def pressed_again(self, key: str | None) -> bool:
        """Whether the press ``key`` (a platform key, :attr:`presses`) was pressed here before
        (a redelivery); records it either way (the last :data:`PRESSES_KEPT`); ``None`` (no
        key) never was."""
        if key is None:
            return False
        if key in self.presses:
            return True
        self.presses = [*self.presses, key][-PRESSES_KEPT:]
        return False

    def owe(self, kind: str, screen: Screen) -> None:
        """Owe the chat a message (``"table"``: written over the table message, which then
        stays as the record; ``"post"``: a notice of its own), sent after the commit. A
        notice gets a pending ref of its own (random, committed with the step, as a
        picture's): every send of it, a restart's too, is one message where the platform
        can tell (on Discord its nonce, :meth:`Presenter.post`)."""
        self.outbox_seq += 1
        item: dict[str, Any] = {"id": self.outbox_seq, "kind": kind, **screen.to_json()}
        if kind == "post":
            item["ref"] = pending_ref(PENDING_PREFIX)
        self.outbox.append(item)

    def owe_notice(self, user_id: str, screen: Screen) -> None:
        """Owe the person ``user_id`` a private notice of their own (a new message, not over
        their hand message) from an open table's step: an outbox item of kind ``private``
        (``"user"``: to whom), sent after the commit in order with the group's messages and
        kept in the snapshot until sent, as a group notice (:meth:`owe`), under a pending ref
        of its own (on Discord its nonce: a restart's send of it is one message). For a
        person the step stood up, whose seat number may be someone else's by the time it is
        sent (a tournament's seats follow the registration order); a closing step's are
        :meth:`owe_private`'s."""
        self.outbox_seq += 1
        item: dict[str, Any] = {"id": self.outbox_seq, "kind": "private", "user": user_id}
        self.outbox.append({**item, **screen.to_json(), "ref": pending_ref(PENDING_PREFIX)})

    def owe_private(
        self,
        user_id: str,
        screen: Screen,
        ref: str | None = None,
        seat: int | None = None,
        *,
        by_ref: bool = False,
    ) -> None:
        """Owe the player ``user_id`` a private message in the closing step being built (kept
        with the closed table's final snapshot until sent, :attr:`private_outbox`): written
        over their message ``ref`` (their hand message; a ref not posted yet,
        :data:`PENDING_PREFIX`, means nothing after a restart: a new message then), else
        sent anew. ``seat``: their table seat when the step began, if they had one.
        ``by_ref``: the presenter posts under a pending ref it is given (Discord, its nonce:
        :func:`bot.service.runtime.posts_by_ref`): a pending ``ref`` is kept, so a restart
        posts under it again and gets the hand message its post made back, written over."""
        if ref is not None and ref.startswith(HAND_VIEW_PREFIX):
            ref = None
        if ref is not None and ref.startswith(PENDING_PREFIX) and not by_ref:
            ref = None
        item = {"user": user_id, "seat": seat, "ref": ref, **screen.to_json()}
        self.private_outbox.append(item)

    def owe_picture(self, picture: Mapping[str, Any], caption: str) -> None:
        """Owe the chat a picture: ``picture`` is the JSON of the data to draw
        (:meth:`bot.pictures.Picture.to_json`), drawn and sent after the commit, under a
        pending ref of its own (random: committed with the step, so every try is the same
        message, :attr:`late_pictures`)."""
        self.outbox_seq += 1
        self.outbox.append(
            {
                "id": self.outbox_seq,
                "kind": "picture",
                "picture": dict(picture),
                "caption": caption,
                "ref": pending_ref(PENDING_PREFIX),
            }
        )

    def lobby_version(self, version: str) -> bool:
        """Whether ``version`` (a table message button's) is the table message's current
        one, or the one the message from before a restart shows while the table is still in
        that state (:attr:`resumed_version`)."""
        if version == f"L{self.version}":
            return True
        return self.resumed_version is not None and version == f"L{self.resumed_version}"

    def lobby_key(self) -> LobbyKey:
        """What a lobby button's meaning depends on beyond its presser: the table's phase, its
        hand number (:attr:`hand_no`), its tournament's phase (``None``: a cash table), its
        buy-in (:attr:`min_buy_in`: what Ready takes, R8.2) and its rules (:attr:`options`:
        an admin's setting applies in the lobby at once)."""
        tour = self.tournament
        phase = None if tour is None else tour.phase.value
        return (self.phase.value, self.hand_no, phase, self.min_buy_in, self.options)

    def new_version(self) -> None:
        """Move the table message's version on (a new screen of it): a new lobby stretch
        begins with it when the table's :meth:`lobby_key` changed since the last one."""
        self.version += 1
        key = self.lobby_key()
        if key != self.lobby_at:
            self.lobby_at, self.lobby_from = key, self.version
            self.lobby_left = {}

    def record_left(self, user_id: str) -> None:
        """The user ``user_id`` leaves their seat (stands up, unregisters) now: a press of
        theirs on the table message's current version or an older one no longer counts
        (:meth:`left_since`)."""
        self.lobby_left[user_id] = self.version

    def left_since(self, user_id: str, version: str) -> bool:
        """Whether the user ``user_id`` left their seat in the present lobby stretch after
        the table message's ``version`` (``L<n>``) was shown (a Join double-tapped, Leave
        pressed between, the second tap late: it would seat them again)."""
        left = self.lobby_left.get(user_id)
        if left is None:
            return False
        n = lobby_version_no(version)
        return n is None or n <= left

    def same_lobby(self, version: str) -> bool:
        """Whether ``version`` (a table message button's, ``L<n>``) is an older one of the
        message shown in the table's present lobby stretch: the table in the lobby or
        between hands (never during a hand), the same hand number and tournament phase as
        when it was shown, and the current message showing that state too (nothing dealt,
        started or stopped since it was written)."""
        if self.phase not in (Phase.LOBBY, Phase.BETWEEN) or self.lobby_from is None:
            return False
        if self.lobby_at != self.lobby_key():
            return False
        n = lobby_version_no(version)
        return n is not None and self.lobby_from <= n < self.version

    def new_bank(self) -> float:
        """The time bank of a player who sits down now (R8.5): the admins' latest
        ``time_bank_seconds``, one that waits for the match to end included (the seated keep
        the bank they have, R8.6, so a newcomer's is all the change does)."""
        return (self.pending_options or self.options).time_bank_seconds

    def ready_seconds(self) -> float:
        """The time a player who sits down while hands are being played has to press Ready
        (R8.2): the admins' latest ``ready_seconds``, one that waits for the match to end
        included (it is the newcomer's alone, as :meth:`new_bank` is)."""
        return (self.pending_options or self.options).ready_seconds

    def heir(self) -> SeatState | None:
        """The person seated longest who stays at the table (not a computer player, not
        leaving): :attr:`seats` keeps the order they sat down in, a snapshot's too."""
        return next((s for s in self.seats.values() if s.bot is None and not s.leaving), None)

    def seat_of(self, user_id: str) -> SeatState | None:
        """The seat of a user, if seated."""
        for s in self.seats.values():
            if s.user_id == user_id:
                return s
        return None

    def distinct_name(self, name: str, but: SeatState | None = None) -> str:
        """``name`` as a new seat shows it: followed by `` (2)``, `` (3)`` … when a seated
        player already goes by it (letter case aside), so that two people of one display name
        (or a person named like a computer player) are told apart in the table message, the
        showdown and the standings ("Алена" next to "Алёна" too: one name to a Russian
        reader, :func:`~bot.names.folded`). The base is cut so the whole stays within
        :data:`~bot.names.MAX_NAME`. ``but``: a seat whose own name does not count (a seated
        player's new name). A tournament's registrants no longer seated (knocked out, R8.7)
        keep theirs too: the final standings list them (:attr:`names`), and a player renamed
        on the platform as one of them was listed twice under one name."""
        mine = but.player_id if but is not None else None
        taken = {folded(s.name) for s in self.seats.values() if s is not but}
        taken |= {folded(n) for pid, n in self.names.items() if pid != mine}
        if folded(name) not in taken:
            return name
        n = 2
        while True:
            suffix = f" ({n})"
            candidate = cut(name, MAX_NAME - units(suffix)).rstrip() + suffix
            if folded(candidate) not in taken:
                return candidate
            n += 1

    def owner(self, hand_seat: int) -> int:
        """The table seat that plays a board seat of the hand (they differ only with double
        boxes, R4.2, where seat ``p`` plays boards ``10p`` and ``10p + 1``)."""
        return self.owners.get(hand_seat, hand_seat)

    def grace(self, owner: int) -> float | None:
        """How long a turn of the player at table seat ``owner`` waits at most, when less than
        their clock (:data:`~game.tournament.AWAY_SECONDS` for a tournament player away,
        R8.7); ``None``: their budget and bank (R8.5)."""
        seat = self.seats.get(owner)
        away = self.tournament is not None and seat is not None and seat.away
        return AWAY_SECONDS if away else None

    def out_of_time(self, owner: int, now: float) -> bool:
        """Whether the player at table seat ``owner`` must have their move made for them now
        (R8.5): their clock ran out, or the grace of a player away did (:meth:`grace`)."""
        clock = self.clocks.get(owner)
        return clock is not None and clock.expired(now, self.grace(owner))

    def turn_deadline(self, owner: int) -> float | None:
        """When the move of the player at table seat ``owner`` is made for them, while their
        clock runs (:meth:`out_of_time`)."""
        clock = self.clocks.get(owner)
        return clock.deadline(self.grace(owner)) if clock is not None else None

    def reveal_stages(self) -> list[RevealStage]:
        """The Chinese Poker hand's three reveals, bottom first (R4.5, R7.3): the two-of-three
        point of an opponent beaten in bottom and middle comes with the middle stage, but in a
        reveal saved by an older version after its middle stage (no ``two_at_middle`` mark):
        that middle was counted without it, so the top stage still pays it.

        :raises AssertionError: if no hand was scored."""
        assert self.hand is not None and self.hand.result is not None
        reveal = self.reveal
        legacy = (
            reveal is not None
            and "two_at_middle" not in reveal
            and int(reveal.get("stage", 0)) >= 2
        )
        return ChineseGame.stages(self.hand.result, two_at_middle=not legacy)

    def player_of(self, hand_seat: int) -> SeatState | None:
        """The seated player who plays a board seat of the hand."""
        return self.seats.get(self.owner(hand_seat))

    def boards_of(self, seat: SeatState) -> list[int]:
        """The board seats a player plays in the current hand (one, or two with double boxes)."""
        if self.hand is None:
            return []
        return [s for s in self.hand.order if self.owner(s) == seat.seat]

    def timed_out_now(self, seat: SeatState) -> bool:
        """Whether the clock made a move of the player's in the hand under way (R8.5): they
        sit out when it ends (R8.6) unless they say /back before (:attr:`SeatState.
        back_early`)."""
        hand = self.hand
        if hand is None or hand.is_over or self.options.game is GameKind.CHINESE:
            return False  # (Chinese Poker: the game ends after it, R7.7, nobody sits out)
        view = hand.view(None)
        return any(view.seat(b).timed_out for b in self.boards_of(seat))

    def plays_now(self, seat: SeatState) -> bool:
        """Whether the player has a board in the hand being played (not yet over)."""
        return self.hand is not None and bool(self.boards_of(seat)) and not self.hand.is_over

    def unsettled(self, seat: SeatState) -> bool:
        """Whether the player has a board in a hand not settled yet: being played, or being
        revealed (Chinese Poker, R7.4): what they can lose in it is their stack now (R8.4)."""
        return self.plays_now(seat) or (
            self.reveal is not None and self.hand is not None and bool(self.boards_of(seat))
        )

    def busted(self, seat: SeatState) -> bool:
        """A bought-in stack that cannot pay a single point (R8.2, R8.4): offered the top-up,
        and stood up at the next deal if it is not taken. A top-up queued during the hand
        counts as taken (it is added before the deal; one that fails is dropped and the seat
        is busted again). Never in a tournament (chips, R8.7)."""
        return (
            self.tournament is None
            and seat.ready
            and not seat.top_up
            and seat.stack < self.options.kush_per_point
        )

    def awaiting_top_up(self) -> list[SeatState]:
        """The :meth:`busted` seats that still play here (neither sitting out nor leaving):
        the ones a top-up is waited for before the next deal (R8.2)."""
        return [
            s for s in self.seats.values() if self.busted(s) and not s.sitting_out and not s.leaving
        ]

    def ready_window_end(self, seat: SeatState) -> float | None:
        """When ``seat``, seated while hands were being played, is stood up for not pressing
        Ready (R8.2; :attr:`SeatState.ready_by`), or ``None`` when that does not apply to
        it now: it is bought in, leaving, a computer player, at a tournament (R8.7: no
        Ready), or in the lobby, whose ready timer applies (a snapshot saved there with the
        time still set). Sitting out does not stop it: R8.6 keeps the seat of a player bought
        in, and one who never was held the seat for good by alternating /sitout and /back.
        A hand that owes the round's points (R8.3) does not hold it: a seat never bought in
        settles nothing when it stands up."""
        if (
            seat.ready
            or seat.leaving
            or seat.bot is not None
            or self.tournament is not None
            or self.phase is Phase.LOBBY
        ):
            return None
        return seat.ready_by

    def ready_windows_end(self) -> float | None:
        """The first :meth:`ready_window_end` of the table's seats, if any."""
        ends = [e for s in self.seats.values() if (e := self.ready_window_end(s)) is not None]
        return min(ends) if ends else None

    def fantasyland_follows(self) -> bool:
        """Whether the Fantasyland a showdown earns will be played here (R6): not when the
        table closes after this hand (``closing``, R8.2a) or its tournament is won."""
        finished = self.tournament is not None and self.tournament.finished is not None
        return not self.closing and not finished

    def fantasyland_played(self, hand_seat: int) -> bool:
        """Whether the Fantasyland board ``hand_seat`` earns at this showdown will be played
        (R6): not when :meth:`fantasyland_follows` says no Fantasyland is, nor when its
        player leaves the table after the hand: one who asked to leave (R8.2) or was knocked
        out of the tournament by it (R8.7) forfeits it with the seat; nor when too few of
        the hand's players stay to play it (R6.6: heads-up, the other leaving; a newcomer
        waits for the next match: "Fantasyland next" was shown, and none was dealt)."""
        player = self.player_of(hand_seat)
        if not self.fantasyland_follows() or player is None or player.leaving:
            return False
        players = {self.owner(s) for s in self.hand.order} if self.hand is not None else set()
        staying = [o for o in players if o in self.seats and not self.seats[o].leaving]
        return len(staying) >= self.options.min_players

    def stamp_left(self, now: float) -> None:
        """Each player in :attr:`banks_left` gets ``now``, the time of the step that commits,
        as :attr:`left_at` unless stamped already; a player no longer in it (sat down again)
        drops theirs (R8.6)."""
        self.left_at = {p: self.left_at.get(p, now) for p in self.banks_left}
        seated = {seat.player_id for seat in self.seats.values()}
        self.joined_at = {p: at for p, at in self.joined_at.items() if p in seated}

    def options_due(self) -> RuleOptions | None:
        """The rule options admins saved (``pending_options``) when they apply now, with no
        match under way (R6.6: between matches; :func:`bot.service.dealing.apply_pending`
        applies them, and with no hand running, as a hand ends); ``None`` while a match goes
        on (its Fantasyland hand still to come) or nothing is saved."""
        if self.match is not None and self.match.in_match:
            return None
        return self.pending_options

    def round_settled_after_hand(self) -> bool:
        """Whether the round's points still owed (``settle_per_round``, R8.3) are settled
        right after this hand: the table closes after it (``closing``, R8.2a) or a stack
        bought in leaves with it (a player who asked to leave, R8.2). Its showdown then says
        nothing of a settlement "after the full round": the notice of the early settlement
        follows it. So do settings saved during the hand that settle otherwise
        (``settle_per_round`` turned off, a new ``kush_per_point``) and apply as it ends (the
        match is over, R6.6; :func:`bot.service.dealing.apply_pending`)."""
        if self.closing or any(s.leaving and s.ready for s in self.seats.values()):
            return True
        new, old = self.options_due(), self.options
        return (
            new is not None
            and self.tournament is None
            and (new.settle_per_round, new.kush_per_point)
            != (old.settle_per_round, old.kush_per_point)
        )

    def fantasyland_if_top_up(self, hand_seat: int) -> bool:
        """Whether the player of board ``hand_seat`` is :meth:`busted` after the hand: the
        Fantasyland it earns is played only if they top up before the next deal, and goes with
        the seat otherwise (R6, R8.2)."""
        player = self.player_of(hand_seat)
        return player is not None and self.busted(player)

    def sit_out_pending(self, seat: SeatState) -> list[int]:
        """The board seats of the player of ``seat`` whose moves a timeout made in the match
        under way: they sit out when it ends (R8.6, a Fantasyland hand still played first);
        empty for a player with no sit-out pending."""
        m = self.match
        if m is None:
            return []
        return [b for b in m.sit_out_after_match if m.owners.get(b, b) == seat.seat]

    def fantasyland_waiting(self, seat: SeatState) -> bool:
        """Whether the player of ``seat`` has a Fantasyland earned for the next hand (R6), one
        they forfeit if they stand up now."""
        m = self.match
        return m is not None and any(m.owners.get(b, b) == seat.seat for b in m.fantasyland)

    def outbox_owed(self) -> bool:
        """Whether :attr:`outbox` holds a message not sent yet (an id above
        :attr:`outbox_sent`)."""
        return any(int(item["id"]) > self.outbox_sent for item in self.outbox)

    def top_ups_due(self) -> bool:
        """Whether a top-up asked for during the hand waits to be added now that no hand runs
        (R8.2; :attr:`SeatState.top_up`)."""
        return (
            self.hand is None and self.reveal is None and any(s.top_up for s in self.seats.values())
        )

    def board_label(self, hand_seat: int) -> str:
        """The name shown for a board: the player's name, with ① / ② for double boxes."""
        player = self.player_of(hand_seat)
        name = player.name if player else f"#{hand_seat}"
        if hand_seat in self.owners:
            name += " ①" if hand_seat % 10 == 0 else " ②"
        return name

    @classmethod
    def from_json(
        cls, snap: Mapping[str, Any], now: float, alive: float | None = None
    ) -> LiveTable:
        """Rebuild a table from :meth:`to_json` (a snapshot). Clocks that were running resume
        at ``now`` with what they had left when the bot stopped: when the snapshot was taken
        (``saved_at``) or, if later, when the bot last marked itself running (``alive``, the
        store's :meth:`~storage.api.Store.last_alive`: after a crash the snapshot may be far
        older than the crash; a table a worker takes over from one that died: when that one
        last renewed the chat's lease, issue 14, so the same as after a single process's
        crash). The time the bot was down is not the acting player's (R8.5),
        but the time they had before it went down is. So do the waits for a player's press:
        the ready timer (R8.2), the time to press Ready of a player who sat down while hands
        were being played (:attr:`SeatState.ready_by`; a seat that a version without it left
        unready gets its full ``ready_seconds`` from now) and the time to claim (R7.5) end
        that much later (the buttons pressed while the bot was down are out of date after it:
        the players press again on the new message); the idle close (R8.2a) counts from that
        much later a deal, and a tournament's levels (R8.7) rise that much later.

        :raises KeyError, ValueError, GameError: on a snapshot that cannot be used."""
        options = RuleOptions.from_json(snap["options"])
        t = cls(
            id=int(snap["id"]),
            platform=str(snap["platform"]),
            community_id=int(snap["community_id"]),
            community_ext=str(snap["community_ext"]),
            chat_id=str(snap["chat_id"]),
            lang=str(snap["lang"]),
            options=options,
            min_buy_in=int(snap["min_buy_in"]),
            label=str(snap["label"]),
        )
        for s in snap.get("seats", []):
            seat = SeatState.from_json(dict(s))
            t.seats[seat.seat] = seat
        t.match = (
            MatchState.from_json(snap["match"]) if snap.get("match") else MatchState.new(options)
        )
        t.owners = {int(k): int(v) for k, v in dict(snap.get("owners") or {}).items()}
        if snap.get("chinese"):
            t.chinese = ChineseGame.from_json(snap["chinese"])
        saved_at = snap.get("saved_at")
        if saved_at is not None and alive is not None:
            saved_at = max(float(saved_at), alive)  # when the bot stopped
        downtime = 0.0 if saved_at is None else max(0.0, now - float(saved_at))
        t.reveal = copy.deepcopy(snap.get("reveal"))
        claim = t.reveal.get("claim") if isinstance(t.reveal, dict) else None
        if claim and claim.get("deadline") is not None:
            claim["deadline"] = float(claim["deadline"]) + downtime
        hand_json = snap.get("hand") or (snap.get("hand_over") if t.reveal else None)
        if hand_json:
            t.hand = Hand.from_json(hand_json)
            plan = snap.get("plan") or {}
            t.plan = HandPlan(
                tuple(plan.get("seats", t.hand.order)),
                int(plan.get("button", t.hand.button)),
                {int(k): int(v) for k, v in dict(plan.get("fantasyland") or {}).items()},
                bool(plan.get("new_match", True)),
            )
            if any(t.owner(s) not in t.seats for s in t.hand.order):
                raise ValueError("a seat of the hand is missing")
        t.hand_no = int(snap.get("hand_no", 0))
        t.apart = int(snap.get("apart", 0))  # (0 in a snapshot from before it was kept)
        clocks = {int(k): SeatClock.from_json(v) for k, v in dict(snap.get("clocks") or {}).items()}
        if saved_at is not None:
            # a running clock goes on from where it stood when the bot stopped: its turn
            # began ``downtime`` later, so what it has left is as then, and so is what is
            # left of the grace of a tournament player away (R8.7, :meth:`turn_deadline`,
            # counted from the turn's start: restarted at ``now``, each restart gave a fresh
            # one)
            clocks = {
                k: (
                    replace(c, running_since=min(c.running_since, float(saved_at)) + downtime)
                    if c.running_since is not None
                    else c
                )
                for k, c in clocks.items()
            }
        # one clock per player, keyed by table seat; older snapshots kept one per board
        # (R4.2), keyed by board seat, which may be a table seat too (board 1 is seat 0's
        # second board): only keys that are not all owners' seats are merged per owner
        if not set(clocks) <= set(t.owners.values()):
            merged: dict[int, SeatClock] = {}
            for k, c in clocks.items():
                owner = t.owner(k)
                if owner not in merged or c.left(now)[1] < merged[owner].left(now)[1]:
                    merged[owner] = c
            clocks = merged
        t.clocks = clocks
        t.group_ref = snap.get("group_ref")
        earlier_ref = snap.get("earlier_ref")
        t.earlier_ref = None if earlier_ref is None else str(earlier_ref)
        t.version = int(snap.get("version", 0))
        if "phase" in snap:
            t.phase = Phase(snap["phase"])
        elif t.reveal is not None:  # a snapshot written before phases were named
            t.phase = Phase.REVEALING
        elif t.hand is not None:
            t.phase = Phase.PLAYING
        else:
            t.phase = Phase.BETWEEN if snap.get("started") else Phase.LOBBY
        t.seq = int(snap.get("seq", 0))
        token = snap.get("step_token")
        t.step_token = None if token is None else str(token)
        t.outbox_seq = int(snap.get("outbox_seq", 0))
        t.outbox_sent = int(snap.get("outbox_sent", 0))
        t.outbox = [
            dict(item) for item in snap.get("outbox") or () if int(item["id"]) > t.outbox_sent
        ]
        for item in t.outbox:  # a notice or picture owed by a release before their refs
            if item.get("kind") in ("post", "picture") and not item.get("ref"):  # (48f2455):
                item["ref"] = pending_ref(PENDING_PREFIX)  # one now, kept by the next save
        t.private_outbox = copy.deepcopy(list(snap.get("private_outbox") or ()))
        t.late_pictures = copy.deepcopy(list(snap.get("late_pictures") or ()))
        t.knocked_out = {
            int(k): [str(v[0]), str(v[1])] for k, v in dict(snap.get("knocked_out") or {}).items()
        }
        # the idle time (R8.2a) does not run while the bot is down either: a table between
        # two hands, or a running tournament, is not closed the moment the bot is back
        last_deal_at = snap.get("last_deal_at")
        t.last_deal_at = None if last_deal_at is None else float(last_deal_at) + downtime
        t.banks_left = {int(k): float(v) for k, v in dict(snap.get("banks_left") or {}).items()}
        t.left_at = {int(k): float(v) for k, v in dict(snap.get("left_at") or {}).items()}
        t.joined_at = {int(k): float(v) for k, v in dict(snap.get("joined_at") or {}).items()}
        if snap.get("tournament"):
            t.tournament = Tournament.from_json(snap["tournament"])
            t.tournament.pause(downtime)  # nor do the tournament's levels (R8.7)
        t.opener = snap.get("opener")
        t.names = {int(k): str(v) for k, v in dict(snap.get("names") or {}).items()}
        t.closing = bool(snap.get("closing", False))
        t.removal_close = bool(snap.get("removal_close", False))
        t.moved_close = bool(snap.get("moved_close", False))
        moved_from = snap.get("moved_from")
        t.moved_from = None if moved_from is None else str(moved_from)
        t.chat_gone = bool(snap.get("chat_gone", t.removal_close))
        t.pictures = bool(snap.get("pictures", True))
        t.requests = [str(r) for r in snap.get("requests") or ()]
        t.presses = [str(r) for r in snap.get("presses") or ()]
        t.absent_hands = int(snap.get("absent_hands", 0))
        shown = snap.get("level_shown")
        t.level_shown = None if shown is None else int(shown)
        topic = snap.get("topic")
        t.topic = None if topic is None else str(topic)
        bot_due = snap.get("bot_due")
        t.bot_due = None if bot_due is None else float(bot_due)
        ready_deadline = snap.get("ready_deadline")
        t.ready_deadline = None if ready_deadline is None else float(ready_deadline) + downtime
        for seat in t.seats.values():  # (nor the time to press Ready of who sat down late)
            if seat.ready_by is not None:
                seat.ready_by += downtime
            elif (
                t.phase not in (Phase.LOBBY, Phase.CLOSED)
                and t.tournament is None
                and not (seat.ready or seat.bot)
            ):  # (saved by a version that kept no such time: it starts now)
                seat.ready_by = now + options.ready_seconds
        top_up_deadline = snap.get("top_up_deadline")  # (nor the top-up window)
        t.top_up_deadline = None if top_up_deadline is None else float(top_up_deadline) + downtime
        next_hand_at = snap.get("next_hand_at")
        t.next_hand_at = None if next_hand_at is None else float(next_hand_at)
        if t.next_hand_at is not None and t.awaiting_top_up():
            # the next deal waits for a top-up: that window is a player's time too (R8.2)
            t.next_hand_at += downtime
        if snap.get("pending_options"):
            t.pending_options = RuleOptions.from_json(snap["pending_options"])
        t.pending_buy_in = snap.get("pending_buy_in")
        return t

    def to_json(self) -> dict[str, Any]:
        """The snapshot of the table (everything needed to rebuild it after a restart)."""
        return {
            "id": self.id,
            "platform": self.platform,
            "community_id": self.community_id,
            "community_ext": self.community_ext,
            "chat_id": self.chat_id,
            "lang": self.lang,
            "options": self.options.to_json(),
            "min_buy_in": self.min_buy_in,
            "label": self.label,
            "seats": [s.to_json() for s in self.seats.values()],
            "match": self.match.to_json() if self.match else None,
            "hand": self.hand.to_json() if self.hand and not self.hand.is_over else None,
            "plan": (
                {
                    "seats": list(self.plan.seats),
                    "button": self.plan.button,
                    "fantasyland": {str(k): v for k, v in self.plan.fantasyland.items()},
                    "new_match": self.plan.new_match,
                }
                if self.plan
                else None
            ),
            "hand_no": self.hand_no,
            "apart": self.apart,
            "clocks": {str(k): c.to_json() for k, c in self.clocks.items()},
            "group_ref": self.group_ref,
            "earlier_ref": self.earlier_ref,
            "version": self.version,
            "phase": self.phase.value,
            "seq": self.seq,
            "step_token": self.step_token,
            "outbox": list(self.outbox),
            "outbox_seq": self.outbox_seq,
            "outbox_sent": self.outbox_sent,
            "private_outbox": copy.deepcopy(self.private_outbox),
            "late_pictures": copy.deepcopy(self.late_pictures),
            "knocked_out": {str(k): list(v) for k, v in self.knocked_out.items()},
            "last_deal_at": self.last_deal_at,
            "ready_deadline": self.ready_deadline,
            "top_up_deadline": self.top_up_deadline,
            "banks_left": {str(k): v for k, v in self.banks_left.items()},
            "left_at": {str(k): v for k, v in self.left_at.items()},
            "joined_at": {str(k): v for k, v in self.joined_at.items()},
            "tournament": self.tournament.to_json() if self.tournament else None,
            "opener": self.opener,
            "names": {str(k): v for k, v in self.names.items()},
            "closing": self.closing,
            "removal_close": self.removal_close,
            "moved_close": self.moved_close,
            "moved_from": self.moved_from,
            "chat_gone": self.chat_gone,
            "pictures": self.pictures,
            "requests": list(self.requests),
            "presses": list(self.presses),
            "absent_hands": self.absent_hands,
            "level_shown": self.level_shown,
            "topic": self.topic,
            "bot_due": self.bot_due,
            "next_hand_at": self.next_hand_at,
            "pending_options": self.pending_options.to_json() if self.pending_options else None,
            "pending_buy_in": self.pending_buy_in,
            "owners": {str(k): v for k, v in self.owners.items()},
            "chinese": self.chinese.to_json() if self.chinese else None,
            "reveal": copy.deepcopy(self.reveal),
            "hand_over": self.hand.to_json() if self.hand and self.hand.is_over else None,
        }
