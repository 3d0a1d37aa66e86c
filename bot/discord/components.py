"""Screens as Discord components: :func:`view_of` turns a platform-neutral
:class:`~bot.screens.Screen` into a view that fits Discord's limits, and two dynamic items
route the presses back.

* A button with a payload is sent with the payload itself as its ``custom_id``
  (``table:version:action[:arg]``, at most 64 characters, within Discord's 100).
  :class:`PayloadButton`, a :class:`discord.ui.DynamicItem` whose template matches payloads, is
  registered once (``add_dynamic_items``), so a press on any message, even one sent before a
  restart, is routed by its ``custom_id`` alone; the service re-checks the version.
* Discord allows 5 action rows of at most 5 buttons (25 components) and 80-character labels.
  Rows that fit are kept; otherwise neighbouring rows are merged, then the buttons are flowed
  into rows of 5. Each placement button gets its card's face in the label, so it still says
  which card it moves once rows are merged.
* A hand with more cards than rows (Fantasyland: 14–17 cards) is shown as select menus, one per
  box (top, middle, bottom) and one for the discard, each a multi-select of the card faces
  (:class:`BoxSelect`), plus the remaining buttons (Undo, Arrange for me, Confirm). An option's
  value is the payload of the button it replaces, so choosing cards is pressing those buttons.
* Any other screen with more than 25 buttons (the settings) is shown as single-choice selects
  of those buttons (:class:`PickSelect`): choosing an option presses its button.
* The outgoing view is a :class:`ScreenView`: the component JSON written directly (the same
  JSON the dynamic items render), because building :mod:`discord.ui` objects for every edit
  costs several times more.

No game rules here: what may be pressed is what the screen offers.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Sequence
from typing import Any, Protocol, TypeVar

import discord
from discord import ButtonStyle
from discord.ui import Button as UiButton
from discord.ui import DynamicItem, Item, Select, View

from bot.logs import raised_at
from bot.names import fit
from bot.presses import (
    BOX_CODES,
    ConfirmMove,
    DiscardCard,
    Join,
    MyHand,
    PlaceCard,
    Press,
    Ready,
    decode,
    loggable,
    table_of,
)
from bot.screens import Button, Screen

__all__ = [
    "MAX_BUTTONS",
    "MAX_LABEL",
    "MAX_ROWS",
    "MAX_ROW_WIDTH",
    "PICK_PREFIX",
    "SELECT_PREFIX",
    "BoxSelect",
    "PayloadButton",
    "PickSelect",
    "PressTarget",
    "ScreenView",
    "content_of",
    "discord_commands",
    "is_routed",
    "routed_table",
    "rows_of",
    "view_of",
]

log = logging.getLogger(__name__)

#: Discord's limits for a message with classic components.
MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_BUTTONS = MAX_ROWS * MAX_ROW_WIDTH
MAX_LABEL = 80
MAX_OPTION_LABEL = 100
MAX_CONTENT = 2000
SELECT_PREFIX = "sel"
PICK_PREFIX = "pick"
MAX_OPTIONS = 25

# Anything shaped like a payload is routed to the service, which refuses what is malformed or
# stale; a stricter pattern would leave such presses unanswered ("This interaction failed").
_PAYLOAD_TEMPLATE = r"(?P<data>[0-9]{1,12}:[^:\s]{1,20}:[a-z]{1,2}(?::\S{1,24})?)"
_SELECT_TEMPLATE = (
    SELECT_PREFIX + r":(?P<table>[0-9]{1,12}):(?P<version>[^:\s]{1,20}):(?P<box>[tmbd])"
)
_PICK_TEMPLATE = PICK_PREFIX + r":(?P<n>[0-4])"
_PAYLOAD_RE = re.compile(_PAYLOAD_TEMPLATE, re.ASCII)  # (digits: ASCII's only, "١" is none)
_SELECT_RE = re.compile(_SELECT_TEMPLATE, re.ASCII)
_PICK_RE = re.compile(_PICK_TEMPLATE, re.ASCII)
_BOX_ORDER = ("t", "m", "b", "d")  # the select rows: top, middle, bottom, discard
_SELECTED = "•"


class PressTarget(Protocol):
    """What the dynamic items call: the adapter's press handlers (found as
    ``interaction.client.ofc``)."""

    async def on_press(self, interaction: discord.Interaction[Any], data: str) -> None:
        """A button with payload ``data`` was pressed."""

    async def on_select(
        self, interaction: discord.Interaction[Any], values: Sequence[str], already: Sequence[str]
    ) -> None:
        """Options were chosen in a select: ``values`` are payloads of the buttons the options
        stand for, ``already`` those that were preselected (the current state)."""

    async def on_forged(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A component that cannot be what its ``custom_id`` says was pressed (a select's
        ``custom_id`` on a button): answered as an unknown button, nothing pressed."""


def _target(interaction: discord.Interaction[Any]) -> PressTarget | None:
    target: PressTarget | None = getattr(interaction.client, "ofc", None)
    return target


async def _handed(call: Awaitable[None], custom_id: str) -> None:
    """Await a press handed to the adapter (``call``); an error it lets out (never expected:
    the adapter answers its own) is logged here by the payload's shape
    (:func:`~bot.presses.loggable`), its type and where it was raised, and goes no further.
    Let out, it reached discord.py, which logged "Ignoring exception in dynamic item
    callback" with the item: a hand button's label, its card's face (``A♥ Top``, a discard's
    too), and its error's text: hidden information in the log of whoever runs the bot,
    who may sit at its tables (R3.3)."""
    try:
        await call
    except Exception as exc:
        log.error(
            "a press of %s failed (%s at %s)",
            loggable(custom_id),
            type(exc).__name__,
            raised_at(exc),
        )


class PayloadButton(DynamicItem[UiButton[Any]], template=_PAYLOAD_TEMPLATE):
    """A button whose ``custom_id`` is a payload; every press goes to
    :meth:`PressTarget.on_press` with that payload."""

    def __init__(
        self, data: str, label: str = "\u200b", style: ButtonStyle = ButtonStyle.secondary
    ) -> None:
        super().__init__(UiButton(label=label[:MAX_LABEL], style=style, custom_id=data))
        self.data = data

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: Item[Any],
        match: re.Match[str],
        /,
    ) -> PayloadButton:
        """Rebuild the button from a pressed message (also one this process never sent)."""
        label = getattr(item, "label", None) or "\u200b"
        return cls(match["data"], label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the adapter."""
        target = _target(interaction)
        if target is not None:
            await _handed(target.on_press(interaction, self.data), self.data)


class BoxSelect(DynamicItem[Select[Any]], template=_SELECT_TEMPLATE):
    """A multi-select of card faces for one box (``t``/``m``/``b``) or the discard (``d``);
    each option's value is the payload of the placement button it stands for."""

    def __init__(self, select: Select[Any]) -> None:
        super().__init__(select)
        #: a button carrying this select's ``custom_id`` was pressed (:func:`_not_a_select`)
        self.forged = False

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: Item[Any],
        match: re.Match[str],
        /,
    ) -> BoxSelect:
        """Rebuild the select (with its options) from the pressed message; a button carrying
        a select's ``custom_id`` (forged) is kept as :func:`_not_a_select`."""
        return cls(item) if isinstance(item, Select) else _not_a_select(cls, match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the chosen cards to the adapter."""
        target = _target(interaction)
        custom_id = self.item.custom_id
        if target is not None and self.forged:
            await _handed(target.on_forged(interaction, custom_id), custom_id)
        elif target is not None:
            already = [o.value for o in self.item.options if o.default]
            await _handed(target.on_select(interaction, list(self.item.values), already), custom_id)


class PickSelect(DynamicItem[Select[Any]], template=_PICK_TEMPLATE):
    """A single-choice select standing for buttons that do not fit as buttons (a screen with
    more than 25, such as the settings): each option's value is a button's payload, and
    choosing it is pressing that button."""

    def __init__(self, select: Select[Any]) -> None:
        super().__init__(select)
        #: a button carrying this select's ``custom_id`` was pressed (:func:`_not_a_select`)
        self.forged = False

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: Item[Any],
        match: re.Match[str],
        /,
    ) -> PickSelect:
        """Rebuild the select from the pressed message (a forged button: as
        :meth:`BoxSelect.from_custom_id`)."""
        return cls(item) if isinstance(item, Select) else _not_a_select(cls, match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the chosen button to the adapter."""
        target = _target(interaction)
        custom_id = self.item.custom_id
        if target is not None and self.forged:
            await _handed(target.on_forged(interaction, custom_id), custom_id)
        elif target is not None:
            await _handed(target.on_select(interaction, list(self.item.values), []), custom_id)


_S = TypeVar("_S", BoxSelect, PickSelect)


def _not_a_select(cls: type[_S], match: re.Match[str]) -> _S:
    """A select's item for a pressed component that is not a select but carries a select's
    ``custom_id`` (a forged press): its callback answers it as an unknown button. (Raising
    instead, discord.py logged the error with its traceback and answered nothing: "This
    interaction failed".)"""
    item = cls(Select(custom_id=match.string))
    item.forged = True
    return item


def is_routed(custom_id: str) -> bool:
    """Whether a ``custom_id`` is handled by one of the dynamic items."""
    return any(r.fullmatch(custom_id) for r in (_PAYLOAD_RE, _SELECT_RE, _PICK_RE))


def routed_table(custom_id: str) -> int | None:
    """The table a routed ``custom_id`` belongs to: a payload's (:func:`bot.presses.table_of`)
    or a :class:`BoxSelect`'s; ``None`` for a :class:`PickSelect` (settings), a replay's
    ◀ ▶ (its number is a hand's history id) or anything else."""
    select = _SELECT_RE.fullmatch(custom_id)
    if select is not None:
        return int(select["table"])
    return table_of(custom_id)  # (a replay's ◀ ▶ names a hand, no table)


# The shared texts name Telegram's commands; on Discord they live under /ofc, and the admin
# commands under /ofcadmin (a top-level command of its own: Discord applies default member
# permissions to top-level commands only).
_COMMAND_NAMES = {
    "newtable": "ofc new",
    "join": "ofc join",
    "ready": "ofc ready",
    "leave": "ofc leave",
    "sitout": "ofc sitout",
    "topup": "ofc topup",
    "addbot": "ofc addbot",
    "removebot": "ofc removebot",
    "tournament": "ofc tournament",
    "back": "ofc back",
    "balance": "ofc balance",
    "top": "ofc top",
    "history": "ofc history",
    "stats": "ofc stats",
    "replay": "ofc replay",
    "daily": "ofc daily",
    "rules": "ofc rules",
    "settings": "ofcadmin settings",
    "grant": "ofcadmin grant",
    "closetable": "ofcadmin close",
    "kick": "ofcadmin kick",
    "help": "ofc help",
    "hand": "ofc hand",
}
# only where the texts name a command: at the start, after a space, an opening parenthesis
# or quote; never after a word, a slash or a backslash (names escape their slashes,
# ``\/top``: a player called "/top" is never rewritten), nor after a kush label ("💎/hand",
# per hand, in /stats). The check follows the slash (a lookbehind of the slash and the
# character before it): the engine then looks behind at slashes only, not at every
# character (every message goes through it: 1 µs, not 17, for a hand's screen)
_COMMAND_RE = re.compile(r"/(?<![^\s(«“\"']/)(" + "|".join(_COMMAND_NAMES) + r")\b")


def discord_commands(text: str) -> str:
    """Rename the commands a text mentions to their Discord form (``/join`` → ``/ofc join``,
    ``/closetable`` → ``/ofcadmin close``)."""
    return _COMMAND_RE.sub(lambda m: "/" + _COMMAND_NAMES[m.group(1)], text)


def content_of(text: str) -> str:
    """Message content: the commands ``text`` names as Discord has them
    (:func:`discord_commands`: every message, the presenter's writes and the answers to
    presses as well as the commands' answers) and at most 2,000 characters (Discord's
    limit), cut after the renaming."""
    return fit(discord_commands(text), MAX_CONTENT)


# -- labels and styles -------------------------------------------------------------------------
def _parts(data: str | None) -> Press | None:
    """The press a button stands for (:func:`bot.presses.decode`, the one payload codec)."""
    return decode(data)


def _card_face(p: Press | None) -> str | None:
    """The face of the card a placement or a discard moves."""
    return p.card.face if isinstance(p, PlaceCard | DiscardCard) else None


def _label(b: Button, p: Press | None) -> str:
    label = b.label
    if isinstance(p, PlaceCard | DiscardCard):
        face = _card_face(p)
        if face is not None and face not in label:
            label = f"{face} {label}"
    return label[:MAX_LABEL]


_SECONDARY = ButtonStyle.secondary.value
_STYLES: dict[type[Press], int] = {
    ConfirmMove: ButtonStyle.success.value,
    Join: ButtonStyle.success.value,
    Ready: ButtonStyle.primary.value,
    MyHand: ButtonStyle.primary.value,
}


def _style(b: Button, p: Press | None) -> int:
    if p is None:
        return _SECONDARY
    if isinstance(p, PlaceCard | DiscardCard) and _SELECTED in b.label:
        return ButtonStyle.danger.value if isinstance(p, DiscardCard) else ButtonStyle.primary.value
    return _STYLES.get(type(p), _SECONDARY)


def _button(b: Button, p: Press | None) -> dict[str, Any] | None:
    """A button component as Discord's JSON (a link, or a :class:`PayloadButton`'s)."""
    if b.url:
        return {"type": 2, "style": ButtonStyle.link.value, "label": b.label[:MAX_LABEL],
                "url": b.url}  # fmt: skip
    if not b.data:
        return None
    return {"type": 2, "style": _style(b, p), "label": _label(b, p),
            "custom_id": b.data}  # fmt: skip


class ScreenView(View):
    """The components of a screen, kept as Discord's JSON (``{"type": 1, "components": …}``
    rows) and sent as they are.

    Building :mod:`discord.ui` items for every edit costs about 0.4 ms a screen (measured),
    ten times the JSON. The instance is never needed for a press: presses route by
    ``custom_id`` to :class:`PayloadButton` and :class:`BoxSelect`, which render the very same
    JSON (``to_component_dict``), so this view is not dispatchable and discord.py does not
    keep it.
    """

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, as sent."""
        return self.rows

    def is_dispatchable(self) -> bool:
        """Never: the dynamic items route the presses."""
        return False


def _action_rows(rows: Sequence[Sequence[dict[str, Any]]]) -> ScreenView:
    return ScreenView([{"type": 1, "components": list(row)} for row in rows if row])


# -- packing -----------------------------------------------------------------------------------
def _chunks(items: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def rows_of(rows: Sequence[Sequence[Any]]) -> list[list[Any]] | None:
    """Fit rows of buttons into Discord's 5 rows of 5: kept as they are when they fit, else
    neighbours merged, else all but the last row flowed into rows of 5 (the last, e.g. Undo /
    Arrange / Confirm, kept whole), else everything flowed. ``None`` if more than 25."""
    lines = [list(r) for r in rows if r]
    if len(lines) <= MAX_ROWS and all(len(r) <= MAX_ROW_WIDTH for r in lines):
        return lines
    merged: list[list[Any]] = []
    for r in lines:
        if merged and len(merged[-1]) + len(r) <= MAX_ROW_WIDTH:
            merged[-1] = merged[-1] + r
        else:
            merged.extend(_chunks(r, MAX_ROW_WIDTH))
    if len(merged) <= MAX_ROWS:
        return merged
    body = [b for r in lines[:-1] for b in r]
    flowed = _chunks(body, MAX_ROW_WIDTH) + _chunks(lines[-1], MAX_ROW_WIDTH)
    if len(flowed) <= MAX_ROWS:
        return flowed
    flat = [b for r in lines for b in r]
    if len(flat) <= MAX_BUTTONS:
        return _chunks(flat, MAX_ROW_WIDTH)
    return None


def view_of(screen: Screen) -> View | None:
    """The components of ``screen`` as a :class:`ScreenView` (``None`` when it has no
    buttons: an edit then removes the old ones)."""
    if not screen.buttons:
        return None
    rows = [[(b, _parts(b.data)) for b in row] for row in screen.buttons]
    cards = {p.card for row in rows for _, p in row if isinstance(p, PlaceCard | DiscardCard)}
    if len(cards) > MAX_ROWS:
        return _select_view(rows)
    items = [[i for i in (_button(b, p) for b, p in row) if i is not None] for row in rows]
    packed = rows_of(items)
    if packed is None:
        return _pick_view(screen)
    return _action_rows(packed)


#: A settings row's first button: "<title> −<step>".
_STEP_LABEL = re.compile(r"(.+) −\S+")


def _pick_view(screen: Screen) -> View:
    """Buttons that do not fit, as single-choice selects of up to 25 options each. An option
    that continues a row ("+50" after "Buy-in −50") is named with what the row's first
    button names ("Buy-in +50"; a title of several words whole: "Kush per point +1")."""
    options: list[dict[str, Any]] = []
    for row in screen.buttons:
        first = row[0].label if row else ""
        step = _STEP_LABEL.fullmatch(first)
        head = step.group(1) if step is not None else first.split(" ", 1)[0]
        for n, b in enumerate(row):
            if not b.data:
                continue  # a link cannot be an option
            label = b.label if n == 0 or head in b.label else f"{head} {b.label}"
            options.append({"label": label[:MAX_OPTION_LABEL], "value": b.data})
    lines = []
    for n, chunk in enumerate(_chunks(options, MAX_OPTIONS)):
        if n == MAX_ROWS:
            log.warning("a screen with %d buttons does not fit; cut to 125", len(options))
            break
        placeholder = f"{chunk[0]['label']} … {chunk[-1]['label']}"
        lines.append(
            [{"type": 3, "custom_id": f"{PICK_PREFIX}:{n}", "placeholder": placeholder[:150],
              "min_values": 1, "max_values": 1, "options": chunk}]
        )  # fmt: skip
    return _action_rows(lines)


def _bare_label(b: Button, p: Press) -> str:
    """The box's own word from a placement label ("Q♠ • Top" → "Top")."""
    face = _card_face(p) or ""
    return b.label.replace(face, "").replace(_SELECTED, "").strip() or "…"


def _select_view(rows: list[list[tuple[Button, Press | None]]]) -> View:
    by_box: dict[str, list[tuple[Button, Press]]] = {k: [] for k in _BOX_ORDER}
    rest: list[dict[str, Any]] = []
    for b, p in (entry for row in rows for entry in row):
        if isinstance(p, PlaceCard):
            by_box[BOX_CODES[p.box]].append((b, p))
        elif isinstance(p, DiscardCard):
            by_box["d"].append((b, p))
        elif (item := _button(b, p)) is not None:
            rest.append(item)
    lines: list[list[dict[str, Any]]] = []
    for box in _BOX_ORDER:
        entries = by_box[box][:25]
        if not entries:
            continue
        first = entries[0][1]
        options = [
            {
                "label": (_card_face(p) or b.label)[:MAX_OPTION_LABEL],
                "value": b.data or "",
                "default": _SELECTED in b.label,
            }
            for b, p in entries
        ]
        select = {
            "type": 3,
            "custom_id": f"{SELECT_PREFIX}:{first.table}:{first.version}:{box}",
            "placeholder": _bare_label(*entries[0])[:150],
            "min_values": 0,  # every card of a box may be unticked (taken back, R3.4)
            "max_values": len(options),
            "options": options,
        }
        lines.append([select])
    lines.extend(_chunks(rest, MAX_ROW_WIDTH)[: MAX_ROWS - len(lines)])
    return _action_rows(lines)
