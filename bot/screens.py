"""Platform-neutral messages: a :class:`Screen` is text plus rows of :class:`Button`; each
adapter turns it into its own markup (Telegram inline keyboards, Discord views).

Button payloads (:class:`Payload`) carry ``table:version:action[:arg]`` and fit Telegram's 64
bytes and Discord's 100 characters; the service re-checks every press, so a stale or forged
payload changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_PAYLOAD", "Button", "Payload", "Screen"]

#: Telegram's callback_data limit in bytes (Discord allows 100 characters).
MAX_PAYLOAD = 64

#: (ASCII digits only, to the very end: another script's digit, "١", or a line feed after
#: it made a forged payload one of table 1's buttons)
_PAYLOAD_RE = re.compile(
    r"^(\d{1,12}):([A-Za-z0-9.]{1,20}):([a-z]{1,2})(?::([A-Za-z0-9_.+~-]{1,24}))?\Z", re.ASCII
)


@dataclass(frozen=True, slots=True)
class Payload:
    """A button's data: the table, a state version, the action and an optional argument.

    :ivar version: ``L<n>`` for lobby buttons (the table version), ``<hand>.<seat version>`` for
        the placement buttons of a private message, ``S<n>`` for settings.
    :ivar action: ``j`` join, ``l`` leave, ``r`` ready, ``b`` back, ``p`` place, ``d`` discard,
        ``u`` undo, ``w`` take one card back, ``c`` confirm, ``a`` arrange for me, ``h`` my
        hand, ``s`` settings (``e``: every setting).
    """

    table: int
    version: str
    action: str
    arg: str = ""

    def encode(self) -> str:
        """The wire form. :raises ValueError: if it would not fit in 64 bytes."""
        text = f"{self.table}:{self.version}:{self.action}" + (f":{self.arg}" if self.arg else "")
        if len(text.encode()) > MAX_PAYLOAD or not _PAYLOAD_RE.match(text):
            raise ValueError(f"bad payload: {text!r}")
        return text

    @classmethod
    def decode(cls, text: str | None) -> Payload | None:
        """Parse a payload; ``None`` for anything malformed (a forged button), also one that
        is no text (unpaired surrogates, from a JSON ``\\udXXX`` escape: measuring it in
        UTF-8 raised, and the press went unanswered). A payload is ASCII, so its length in
        characters is its length in bytes."""
        if not text or not text.isascii() or len(text) > MAX_PAYLOAD:
            return None
        m = _PAYLOAD_RE.match(text)
        if m is None:
            return None
        return cls(int(m.group(1)), m.group(2), m.group(3), m.group(4) or "")


@dataclass(frozen=True, slots=True)
class Button:
    """A button: a payload to send back (``data``) or a link to open (``url``)."""

    label: str
    data: str | None = None
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Screen:
    """A message: text (plain, no markup) and rows of buttons. ``table``: the table whose
    private hand it shows (a player may sit at tables in two chats: a platform that shows a
    hand in more than one message keeps each table's apart); not part of :meth:`to_json`.
    ``bank_nudge``: on a private hand whose player is to act with a budget and a time bank
    left (R8.5), ``(seconds, text)``: the bank starts ``seconds`` after the screen was made,
    and ``text`` is the short private message that says so then (title and "⏳ your time bank
    has started"); adapters send it as they send the turn ping. Not part of :meth:`to_json`
    (a screen read back from a snapshot nudges nobody), nor of equality (a screen
    written again is the same whatever its seconds)."""

    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    table: int | None = None
    bank_nudge: tuple[float, str] | None = field(default=None, compare=False)

    def all_buttons(self) -> list[Button]:
        """Every button, row by row."""
        return [b for row in self.buttons for b in row]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (kept in table snapshots until the message is sent)."""
        return {
            "text": self.text,
            "buttons": [[[b.label, b.data, b.url] for b in row] for row in self.buttons],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Screen:
        """Inverse of :meth:`to_json`."""
        rows = tuple(
            tuple(Button(str(label), data_, url) for label, data_, url in row)
            for row in data.get("buttons") or ()
        )
        return cls(str(data["text"]), rows)
