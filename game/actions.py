"""Player actions of a hand and their JSON form (R3.2–R3.5, R8.5).

A hand is its setup (deck or seed) plus its ordered actions; replaying the actions on the same
setup gives the same hand (see :meth:`game.hand.Hand.replay`). ``street`` on an action is
optional: when given, the core refuses the action unless the seat is on that street (a stale
button from an earlier street).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.board import Box
from game.cards import Card, parse_card
from game.errors import GameError

__all__ = [
    "Action",
    "Arrange",
    "Confirm",
    "Discard",
    "Place",
    "Timeout",
    "Unplace",
    "action_from_json",
    "action_to_json",
]


@dataclass(frozen=True, slots=True)
class Place:
    """Put (or move, R3.4) one of the seat's cards of this street into ``box`` (R3.5)."""

    seat: int
    card: Card
    box: Box
    street: int | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card of this street face down (streets 2–5, Fantasyland) (R3.2, R6.2)."""

    seat: int
    card: Card
    street: int | None = None


@dataclass(frozen=True, slots=True)
class Unplace:
    """Take back a card placed or discarded on this street, before confirming (R3.4)."""

    seat: int
    card: Card
    street: int | None = None


@dataclass(frozen=True, slots=True)
class Confirm:
    """Confirm the street; nothing of it can move afterwards (R3.4)."""

    seat: int
    street: int | None = None


@dataclass(frozen=True, slots=True)
class Timeout:
    """Budget and time bank ran out: the street is finished for the seat (R8.5).

    ``placed``: with ``safe_autoplay``, the placement the timeout chose for the cards it
    placed (R8.5: the strategy's, ``(card, box)`` per card, box ``None`` for a discard; the
    cards put in boxes past what the street keeps, which the timeout discards first, not
    among them). The hand records it on the action it keeps (:attr:`game.hand.Hand.actions`)
    so that a hand rebuilt from its actions (a restart, a takeover, a rollback, ``/replay``)
    replays it instead of deciding again; ``None`` on the timeout asked for, and in logs
    written before it was recorded (the rebuild then decides again: the same placement).
    Without ``safe_autoplay`` the plain rule places and the hand keeps none (one given is
    dropped: a forged log)."""

    seat: int
    street: int | None = None
    placed: tuple[tuple[Card, Box | None], ...] | None = None


@dataclass(frozen=True, slots=True)
class Arrange:
    """Set every card of this street at once and confirm (R3.4): ``placements`` gives each
    card of the street its box, ``None`` for a discard. What was placed before is replaced.
    One action instead of a press per card: for "arrange for me", computer players and the
    simulator."""

    seat: int
    placements: tuple[tuple[Card, Box | None], ...]
    street: int | None = None


Action = Place | Discard | Unplace | Confirm | Timeout | Arrange

_KINDS: dict[type, str] = {
    Place: "place",
    Discard: "discard",
    Unplace: "unplace",
    Confirm: "confirm",
    Timeout: "timeout",
    Arrange: "arrange",
}


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"type": "place", "seat": 0, "card": "As", "box": "top", "street": 1}`` and the like
    (a safe timeout's ``{"type": "timeout", "seat": 0, "placed": [["As", "top"], ["2c", null]]}``,
    :class:`Timeout`)."""
    out: dict[str, Any] = {"type": _KINDS[type(action)], "seat": action.seat}
    if isinstance(action, Place | Discard | Unplace):
        out["card"] = action.card.code_str()
    if isinstance(action, Place):
        out["box"] = action.box.value
    if isinstance(action, Arrange):
        out["placements"] = _moves_json(action.placements)
    if isinstance(action, Timeout) and action.placed is not None:
        out["placed"] = _moves_json(action.placed)
    if action.street is not None:
        out["street"] = action.street
    return out


def _moves_json(moves: tuple[tuple[Card, Box | None], ...]) -> list[list[str | None]]:
    """``[["As", "top"], ["2c", None], …]``: placements as JSON (box ``None``: a discard)."""
    return [[c.code_str(), b.value if b is not None else None] for c, b in moves]


def _moves(data: Any) -> tuple[tuple[Card, Box | None], ...]:
    """Inverse of :func:`_moves_json`. :raises ValueError, TypeError: on malformed data."""
    return tuple((parse_card(c), Box(b) if b is not None else None) for c, b in data)


def action_from_json(data: Mapping[str, Any]) -> Action:
    """Inverse of :func:`action_to_json`.

    :raises GameError: on a malformed action (a card that is not one, or not text, among
        them), naming its type and fields, never its cards (R3.3: a timeout's ``placed``
        holds the seat's discards)."""
    try:
        kind = data["type"]
        seat = int(data["seat"])
        street = data.get("street")
        street = int(street) if street is not None else None
        if kind == "place":
            return Place(seat, parse_card(data["card"]), Box(data["box"]), street)
        if kind == "discard":
            return Discard(seat, parse_card(data["card"]), street)
        if kind == "unplace":
            return Unplace(seat, parse_card(data["card"]), street)
        if kind == "confirm":
            return Confirm(seat, street)
        if kind == "timeout":
            placed = data.get("placed")
            return Timeout(seat, street, _moves(placed) if placed is not None else None)
        if kind == "arrange":
            return Arrange(seat, _moves(data["placements"]), street)
    except (KeyError, TypeError, ValueError, AttributeError):
        # (its fields, never its cards: the error is logged, and a timeout's ``placed``
        # holds the seat's discards, which whoever runs the bot and plays must not read; a
        # CardError's words quote the text it refused, a card among others: "As Kd")
        raise GameError(
            f"malformed action: type {data.get('type')!r}, fields {sorted(map(str, data))}"
        ) from None
    raise GameError(f"unknown action type: {data.get('type')!r}")
