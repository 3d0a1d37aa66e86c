"""The application layer's records: who acts (:class:`Actor`), where (:class:`ChatRef`), what
the adapter shows back (:class:`Reply`), the live state of a table (:class:`LiveTable`) and the
interface each platform adapter implements for the service to write messages
(:class:`Presenter`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.screens import Screen
from game.chinese import ChineseGame
from game.clock import SeatClock
from game.hand import Hand
from game.match import HandPlan, MatchState
from game.options import RuleOptions

__all__ = ["Actor", "ChatRef", "LiveTable", "Presenter", "Reply", "SeatState"]


@dataclass(frozen=True, slots=True)
class Actor:
    """A person pressing or typing: platform user id, display name, language code."""

    platform: str
    user_id: str
    name: str
    language: str | None = None


@dataclass(frozen=True, slots=True)
class ChatRef:
    """Where a command came from: the community (Telegram group / Discord guild), the chat
    (the group itself / a channel) and whether it is a private chat."""

    platform: str
    community_id: str
    chat_id: str
    title: str = ""
    private: bool = False


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a command or a press.

    :ivar text: a short notice (for a press: the callback answer / ephemeral text).
    :ivar alert: show it as a popup (refused presses).
    :ivar screen: a message to show to the presser (e.g. settings, or on Discord the private
        hand as an ephemeral message).
    :ivar private: the screen is private to the presser.
    """

    text: str = ""
    alert: bool = False
    screen: Screen | None = None
    private: bool = False


class Presenter(Protocol):
    """What a platform adapter does for the service: write the one table message of a chat,
    the one private message of a player, and plain notices. Refs are opaque message ids."""

    platform: str

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        """Send (``ref`` None) or edit the table message; returns its ref."""

    async def show_private(self, user_id: str, screen: Screen, ref: str | None) -> str | None:
        """Send or edit the player's private message; ``None`` if the player cannot be reached
        (never started the bot / DMs closed)."""

    async def post(self, chat_id: str, text: str) -> None:
        """A one-off notice in a chat."""

    def private_link(self, table_id: int) -> str | None:
        """A URL that opens the private chat at this table (Telegram deep link), if any."""


@dataclass(slots=True)
class SeatState:
    """A seated player.

    :ivar stack: kush at the table (mirrors storage).
    :ivar ready: bought in (R8.2).
    :ivar bank: time bank seconds left (R8.5).
    :ivar reachable: the last private message got through.
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
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatState:
        """Inverse of :meth:`to_json`."""
        return cls(**d)


@dataclass(slots=True)
class LiveTable:
    """One open table in memory. Only the service changes it, under ``lock``."""

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
    clocks: dict[int, SeatClock] = field(default_factory=dict)
    group_ref: str | None = None
    version: int = 0
    started: bool = False
    next_hand_at: float | None = None
    pending_options: RuleOptions | None = None
    pending_buy_in: int | None = None
    last_result: dict[str, Any] | None = None
    owners: dict[int, int] = field(default_factory=dict)
    chinese: ChineseGame | None = None
    reveal: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None

    def seat_of(self, user_id: str) -> SeatState | None:
        """The seat of a user, if seated."""
        for s in self.seats.values():
            if s.user_id == user_id:
                return s
        return None

    def owner(self, hand_seat: int) -> int:
        """The table seat that plays a board seat of the hand (they differ only with double
        boxes, R4.2, where seat ``p`` plays boards ``10p`` and ``10p + 1``)."""
        return self.owners.get(hand_seat, hand_seat)

    def player_of(self, hand_seat: int) -> SeatState | None:
        """The seated player who plays a board seat of the hand."""
        return self.seats.get(self.owner(hand_seat))

    def boards_of(self, seat: SeatState) -> list[int]:
        """The board seats a player plays in the current hand (one, or two with double boxes)."""
        if self.hand is None:
            return []
        return [s for s in self.hand.order if self.owner(s) == seat.seat]

    def board_label(self, hand_seat: int) -> str:
        """The name shown for a board: the player's name, with ① / ② for double boxes."""
        player = self.player_of(hand_seat)
        name = player.name if player else f"#{hand_seat}"
        if hand_seat in self.owners:
            name += " ①" if hand_seat % 10 == 0 else " ②"
        return name

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
            "clocks": {str(k): c.to_json() for k, c in self.clocks.items()},
            "group_ref": self.group_ref,
            "version": self.version,
            "started": self.started,
            "next_hand_at": self.next_hand_at,
            "pending_options": self.pending_options.to_json() if self.pending_options else None,
            "pending_buy_in": self.pending_buy_in,
            "owners": {str(k): v for k, v in self.owners.items()},
            "chinese": self.chinese.to_json() if self.chinese else None,
            "reveal": self.reveal,
            "hand_over": self.hand.to_json() if self.hand and self.hand.is_over else None,
        }
