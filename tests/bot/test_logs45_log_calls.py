"""No hidden card in a log call's own arguments (R3.3; logs45): whoever runs the bot may sit
at its tables. :class:`bot.logs.HideErrorText` withholds an error's text, but it cannot know
that an argument is a card, a screen's text or a press's payload. Every log call of
``game/``, ``storage/`` and ``bot/`` at ``INFO`` and above (``DEBUG`` is a developer's level,
docs/operations.md) is read here: none passes a value named for what may hold a card (a
card, a hand, a board, a discard, a snapshot, a screen, its text or caption, a payload or
``custom_id``, a picture, an outbox item), renders cards (``cards_str``, ``format_cards``),
writes an error's text into the line itself (``str(exc)``, ``repr(exc)``, which the filter
cannot see), or builds its message before the call (an f-string, ``%`` or ``.format``: the
filter sees one string). A value passed through :func:`bot.presses.loggable` (a payload's
shape), ``_loggable``/``describe`` (an update's, an interaction's), ``len``, ``type`` or
:func:`bot.logs.said_by_type`/:func:`~bot.logs.raised_at` is its shape, not its content."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("game", "storage", "bot")
LEVELS = frozenset({"info", "warning", "warn", "error", "exception", "critical", "log"})

#: names (a variable's, an attribute's) of what may hold a card or a private screen
CARD_NAMES = re.compile(
    r"(cards?|faces?|hands?|boards?|discards?|dealt|snapshots?|screens?|text|caption|body|"
    r"payloads?|custom_id|callback_data|callback_query|reply_markup|markup|keyboard|buttons?|pictures?|png|"
    r"outbox|items?)"
)
#: calls that render cards
CARD_CALLS = frozenset({"cards_str", "format_cards", "code_str"})
#: calls whose result is a value's shape: what they are given is not written
SHAPE_CALLS = frozenset(
    {"loggable", "_loggable", "describe", "said_by_type", "raised_at", "len", "type"}
)
#: names an exception is held by, whose text ``str``/``repr`` would write past the filter
ERROR_NAMES = re.compile(r"(exc|e|err|error|failure|cause)")


def _reached(node: ast.AST) -> Iterator[str]:
    """What of ``node``, a log call's argument, may be written: each name and attribute it
    reads (``t.screen.text``: ``text``, ``screen``, ``t``), ``cards_str()`` for a call
    rendering cards, ``str(exc)`` for an error's text written into the value; nothing under
    a call of :data:`SHAPE_CALLS`."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in SHAPE_CALLS:
            return
        if name in CARD_CALLS:
            yield f"{name}()"
        if name in {"str", "repr", "format"} and any(
            isinstance(a, ast.Name) and ERROR_NAMES.fullmatch(a.id) for a in node.args
        ):
            yield f"{name}(exc)"
        for child in [*node.args, *(k.value for k in node.keywords)]:
            yield from _reached(child)
        if isinstance(func, ast.Attribute):
            yield from _reached(func.value)
        return
    if isinstance(node, ast.Attribute):
        yield node.attr
        yield from _reached(node.value)
        return
    if isinstance(node, ast.Name):
        yield node.id
        return
    if isinstance(node, ast.FormattedValue):  # (an f-string argument: its values)
        yield from _reached(node.value)
        return
    for child in ast.iter_child_nodes(node):
        yield from _reached(child)


def _built(message: ast.expr) -> bool:
    """Whether a log call's message is built before the call (an f-string, ``%``,
    ``.format``): the filter gets one string, its values already in it."""
    if isinstance(message, ast.JoinedStr):
        return True
    if isinstance(message, ast.BinOp):
        return isinstance(message.op, ast.Mod)
    return isinstance(message, ast.Call) and getattr(message.func, "attr", "") == "format"


def flagged(source: str) -> list[tuple[int, str]]:
    """``(line, why)`` for each log call in ``source`` at ``INFO`` and above (a logger's
    ``info`` … ``critical``, ``exception``, ``log``; a receiver whose name says ``log``)
    that may write a card: an argument reaching a name of :data:`CARD_NAMES` or a call of
    :data:`CARD_CALLS`, an error's text, or a message built before the call."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in LEVELS or "log" not in ast.unparse(node.func.value).lower():
            continue
        skip = 1 if node.func.attr == "log" else 0  # (log.log(level, message, ...))
        if len(node.args) <= skip:
            continue
        message, args = node.args[skip], node.args[skip + 1 :]
        if _built(message):
            found.append((node.lineno, "a message built before the call"))
        for arg in [*args, *(k.value for k in node.keywords if k.arg != "exc_info")]:
            for name in _reached(arg):
                if CARD_NAMES.fullmatch(name) or name.endswith(")"):
                    found.append((node.lineno, name))
    return found


def test_r3_3_no_log_call_at_info_or_above_passes_what_may_hold_a_card() -> None:
    """Every module of ``game/``, ``storage/`` and ``bot/``: none flagged."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {why}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, why in flagged(path.read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_the_scan_flags_a_card_in_a_log_call_and_leaves_a_shape_alone() -> None:
    """The scan itself (it passes on the code as it is, so it is shown failing here): what
    would have leaked is flagged, each by its line; a shape, and ``DEBUG``, are not."""
    source = "\n".join(
        [
            'log.info("sent %s to %s", screen.text, chat_id)',  # 1
            'log.exception("%s could not be drawn", cards_str(hand))',  # 2
            'log.warning("press %s failed", update.callback_query.data, exc_info=exc)',  # 3
            'self.log.error(f"table {t.id}: {t.board}")',  # 4
            'log.warning("refused: %s", str(exc))',  # 5
            'log.log(logging.WARNING, "seat %s: %s", seat, discard)',  # 6
            'log.info("press %s of %s", loggable(data), len(cards))',  # 7: shapes
            'log.debug("screen %s", screen.text)',  # 8: DEBUG keeps everything
            'log.warning("table %s: %r", t.id, exc)',  # 9: the filter says exc by its type
            'logger.info("posted as %s", msg.message_id)',  # 10
        ]
    )
    found = flagged(source)
    assert sorted({line for line, _ in found}) == [1, 2, 3, 4, 5, 6], found
    assert {(2, "cards_str()"), (2, "hand"), (3, "callback_query")} <= set(found), found
    assert {(4, "a message built before the call"), (5, "str(exc)"), (6, "discard")} <= set(
        found
    ), found
