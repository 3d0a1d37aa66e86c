"""Logging set-up: one stream handler on the root logger, and the bot tokens redacted from
every record (issue 16.12).

python-telegram-bot logs the API URLs it builds at DEBUG, and a Telegram URL holds the token
(``…/bot<token>/getMe``); an exception's text may hold one too. :class:`RedactSecrets` is a
filter on every handler of the root logger, so it sees the records of every logger that reach
a handler (loggers propagate to the root), at every level: it formats the message with its
arguments, the exception and the stack, and replaces each secret (also URL-quoted, and a
Telegram token's part after the colon) with ``[REDACTED]``. It also names the settings file
actually read (``--env-file``) where a message says ``.env`` (:func:`in_env_file`), as the
start's ``error:`` line does.

:class:`HideErrorText`, on the same handlers and before it, keeps hidden cards out (R3.3):
whoever runs the bot may sit at its tables, and an exception's text may name a player's
hidden card or discard (a :class:`~game.errors.GameError` "A♠ is not in your hand", a
snapshot's field quoted by the error that refused it, a platform's refusal quoting the
private screen sent). In a record at ``INFO`` and above, every exception (the record's
own and its chain, and one passed as an argument, also in a list, tuple, set or dict
argument) is said by its type only, unless its kind cannot hold a card (:func:`text_kept`:
the network's errors); the traceback's frames stay (the lines of code, no values), so a
crash can still be found.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import re
import sys
import traceback
from collections.abc import Iterable, Mapping
from typing import Any, TextIO, TypeVar
from urllib.parse import quote

from game.errors import GameError

__all__ = [
    "FORMAT",
    "OWN_PACKAGES",
    "REDACTED",
    "WITHHELD",
    "HideErrorText",
    "RedactSecrets",
    "asyncio_line",
    "configure_logging",
    "error_text",
    "failure_logged",
    "in_env_file",
    "raised_at",
    "said_by_type",
    "text_kept",
]

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "[REDACTED]"


def in_env_file(line: str, env_file: str) -> str:
    """``line`` with the settings file it names ("check DATABASE_URL in .env", "copy the
    token … into .env") being ``env_file``, the file actually read: a worker started with
    ``--env-file w1.env`` was told to fix ``.env``, which it never read. The one way both a
    start's ``error:`` line (``bot.__main__``) and a line logged while running
    (:class:`RedactSecrets`) say it."""
    if env_file == ".env":
        return line
    return re.sub(r"\b(in|into) \.env\b(?!\.?\w)", lambda m: f"{m[1]} {env_file}", line)


#: the top-level packages :func:`raised_at` takes for this project's own code
OWN_PACKAGES = frozenset({"game", "storage", "bot", "tools"})


def raised_at(exc: BaseException) -> str:
    """Where ``exc`` was raised, as ``"module:line"`` (``"bot.service.play:412"``): the
    innermost frame of its traceback in this project's own code (a module of
    :data:`OWN_PACKAGES`), so a library's error (aiosqlite, telegram, discord) is placed at
    the line of ours that called it, not deep in the library (ops43); the innermost frame
    when none is ours; ``"?"`` without a traceback. Nothing of its text: a bug's exception
    may hold a player's hidden card (R3.3), so a log line that must not show one says the
    error's type and this (ops42), not ``log.exception``'s message. No file is read (the
    frames' own names)."""
    tb = exc.__traceback__
    innermost = own = None
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__") or tb.tb_frame.f_code.co_filename
        innermost = f"{module}:{tb.tb_lineno}"
        if str(module).partition(".")[0] in OWN_PACKAGES:
            own = innermost
        tb = tb.tb_next
    return own or innermost or "?"


#: what an exception's withheld text reads as in a log line
WITHHELD = "[text withheld]"

#: Exception kinds by ``module.qualname``: ``True``, their text is kept in the logs (it holds
#: no card: a connection refused, a timeout, a flood wait, DNS, a file's path, a platform's
#: refusal of a permission or of a chat or message that is gone, 403/404/409/429/5xx, whose
#: descriptions are the platform's fixed phrases), ``False``, withheld: a platform's 400,
#: its verdict on the request's content, may quote the message sent (a private screen). The
#: first class of an exception's MRO listed decides (python-telegram-bot's ``BadRequest`` is
#: a ``NetworkError``); an exception of no kind listed has its text withheld
#: (:func:`text_kept`).
TEXT_KEPT: dict[str, bool] = {
    "builtins.OSError": True,  # (TimeoutError, ConnectionError, aiohttp's ClientOSError…)
    # (SQLite's messages are its fixed phrases and the schema's names, never a bound value:
    # "database is locked", "UNIQUE constraint failed: seats.table_id", "disk I/O error")
    "sqlite3.Error": True,
    "builtins.MemoryError": True,
    "builtins.RecursionError": True,
    "asyncio.exceptions.CancelledError": True,
    "telegram.error.BadRequest": False,
    "telegram.error.NetworkError": True,  # (TimedOut, and the HTTP client's errors wrapped)
    "telegram.error.Forbidden": True,
    "telegram.error.ChatMigrated": True,
    "telegram.error.RetryAfter": True,
    "telegram.error.Conflict": True,
    "telegram.error.InvalidToken": True,
    "httpx.TransportError": True,
    "aiohttp.client_exceptions.ClientConnectionError": True,
    "discord.errors.Forbidden": True,
    "discord.errors.NotFound": True,
    "discord.errors.DiscordServerError": True,
    "discord.errors.RateLimited": True,
    "discord.errors.ConnectionClosed": True,
    "discord.errors.GatewayNotFound": True,
}

#: attributes of an exception said with its type when its text is withheld, if integers
#: (an HTTP status, Discord's error code, an errno, a flood wait's seconds)
_NUMBERS = ("status", "code", "errno", "retry_after")


def text_kept(exc: BaseException) -> bool:
    """Whether ``exc``'s text may be logged (:data:`TEXT_KEPT`): only a kind that cannot
    name a card (R3.3); any other kind, this project's own errors, the game core's, a
    bug's ``KeyError``/``ValueError`` quoting a value, storage's, a platform's refusal of a
    message, is said by its type (:func:`said_by_type`)."""
    for kind in type(exc).__mro__:
        kept = TEXT_KEPT.get(f"{kind.__module__}.{kind.__qualname__}")
        if kept is not None:
            return kept
    return False


def said_by_type(exc: BaseException) -> str:
    """``exc`` as a log line may say it, its text withheld: its type's name and
    :func:`_withheld`'s note (``"CardError [text withheld] code=bad_card"``,
    ``"HTTPException [text withheld] status=400 code=50035"``)."""
    return f"{type(exc).__name__} {_withheld(exc)}"


def _withheld(exc: BaseException) -> str:
    """:data:`WITHHELD`, then what of ``exc`` cannot name a card: a game error's stable
    ``code`` (:class:`~game.errors.GameError`), the integers of :data:`_NUMBERS`."""
    parts = [WITHHELD]
    if isinstance(exc, GameError):
        parts.append(f"code={exc.code}")
    for name in _NUMBERS:
        value = _number(exc, name)
        if value is not None:
            parts.append(f"{name}={value}")
    return " ".join(parts)


def _number(exc: BaseException, name: str) -> int | None:
    """``exc``'s attribute ``name`` if an integer held as a value (in the instance, or a
    slot or C member), else ``None``: a property is not run, as the logging filter must not
    raise nor warn (aiohttp's ``ClientResponseError.code`` warns a ``DeprecationWarning``,
    an error where warnings are errors; a property may raise), which lost the record and
    raised into the code that logged."""
    try:
        found = inspect.getattr_static(exc, name)
    except AttributeError:
        return None
    if isinstance(found, property):
        return None
    if hasattr(type(found), "__get__"):  # (a slot's or a C type's member: no code of ours)
        try:
            found = getattr(exc, name)
        except Exception:
            return None
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def error_text(exc: BaseException) -> str:
    """``exc``'s traceback as :meth:`logging.Formatter.formatException` writes it (no final
    newline), every frame and the whole chain (causes, contexts, an exception group's
    members), with the text of each exception :func:`text_kept` refuses replaced by
    :func:`_withheld`'s note (``game.errors.CardError: [text withheld] code=bad_card``; its
    notes dropped too). The frames are lines of code: no values
    (no locals are captured)."""
    top = traceback.TracebackException(type(exc), exc, exc.__traceback__, compact=True)
    seen: set[int] = set()
    pending: list[tuple[traceback.TracebackException, BaseException]] = [(top, exc)]
    while pending:
        te, e = pending.pop()
        if id(te) in seen:
            continue
        seen.add(id(te))
        if not text_kept(e):
            te._str = _withheld(e)  # type: ignore[attr-defined]  # (the last line)
            te.__notes__ = None
            if isinstance(e, SyntaxError):  # (its line of source, its message)
                te.text, te.msg = None, WITHHELD  # type: ignore[assignment]
        if te.__cause__ is not None and e.__cause__ is not None:
            pending.append((te.__cause__, e.__cause__))
        if te.__context__ is not None and e.__context__ is not None:
            pending.append((te.__context__, e.__context__))
        members = getattr(e, "exceptions", None)
        if te.exceptions and isinstance(members, tuple):
            pending.extend(zip(te.exceptions, members, strict=False))
    return "".join(top.format()).rstrip("\n")


class _Said:
    """An exception passed as a log record's argument (``log.warning("…: %r", exc)``), said
    by :func:`said_by_type` by ``%s`` and ``%r`` alike."""

    def __init__(self, exc: BaseException) -> None:
        self.text = said_by_type(exc)

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


#: the containers :func:`_hidden` looks into (exactly these types: a subclass, a named tuple,
#: may not be rebuilt from its members)
_CONTAINERS = frozenset({list, tuple, set, frozenset, dict})


def _hidden(arg: object, depth: int = 2) -> object:
    """``arg``, a log record's argument, with each exception whose text may name a card
    (:func:`text_kept`) as :class:`_Said`: ``arg`` itself, or one in a list, tuple, set or
    dict (its keys and values) up to ``depth`` containers deep (``{"seat": 1, "error":
    exc}``, :func:`asyncio.gather`'s results with ``return_exceptions=True``, logged with
    ``%r``). A container holding one is rebuilt, never changed (it is the caller's); ``arg``
    itself is returned when nothing is hidden, so a record without such an argument costs
    a type check an argument."""
    if isinstance(arg, BaseException):
        return arg if text_kept(arg) else _Said(arg)
    kind = type(arg)
    if not depth or kind not in _CONTAINERS or not arg:
        return arg
    if isinstance(arg, dict):
        said = [(_hidden(k, depth - 1), _hidden(v, depth - 1)) for k, v in arg.items()]
        same = all(a is k and b is v for (a, b), (k, v) in zip(said, arg.items(), strict=True))
        return arg if same else dict(said)
    assert isinstance(arg, list | tuple | set | frozenset)
    members = list(arg)
    hidden = [_hidden(m, depth - 1) for m in members]
    if all(a is b for a, b in zip(hidden, members, strict=True)):
        return arg
    return hidden if isinstance(arg, list) else type(arg)(hidden)


class HideErrorText(logging.Filter):
    """Keeps hidden cards (R3.3) out of a record at ``INFO`` and above: its exception is
    written by :func:`error_text` (the frames kept, the text of each exception that may
    name a card withheld), an exception among its arguments (also in a list, tuple, set or
    dict argument, two deep: :func:`_hidden`; or as its message) by :func:`said_by_type`.
    asyncio's own lines (its exception handler writes a task's error and a callback's
    arguments into the message) by :func:`asyncio_line`. ``record.exc_info`` stays (other
    filters look at its type); a ``DEBUG`` record is left
    as it is (a developer's level: python-telegram-bot logs the requests' bodies there
    anyway). Never drops a record; a record is hidden once, whatever
    number of handlers it reaches."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Hide ``record``'s error texts in place."""
        if record.levelno < logging.INFO or getattr(record, "error_text_hidden", False):
            return True
        record.error_text_hidden = True
        if isinstance(record.msg, BaseException):
            record.msg = _hidden(record.msg)
        if isinstance(record.args, Mapping):
            record.args = {k: _hidden(v) for k, v in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_hidden(a) for a in record.args)
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            try:
                record.exc_text = error_text(exc)
            except Exception:  # (an odd exception: the record kept, said by its type only)
                record.exc_text = f"{type(exc).__name__}: {WITHHELD}"
        if record.name == "asyncio" and isinstance(record.msg, str):
            record.msg = asyncio_line(record.msg, record.exc_info[1] if record.exc_info else None)
        return True


#: a callback's arguments in asyncio's line (``Exception in callback f(<Future finis...r('A♠
#: twice')>) at bot/x.py:12``, ``handle: <TimerHandle when=5.2 f(…) at …>``, ``Executing
#: <Handle f(…) at …> took 0.2 seconds``): from the first parenthesis after the callback's
#: name to the last one on the line
_CALLBACK_ARGS = re.compile(
    r"(Exception in callback |<\w*Handle(?: cancelled)?(?: when=\S+)? )([^(\n]*)\(.*\)"
)


def asyncio_line(message: str, exc: BaseException | None) -> str:
    """``message``, an ``asyncio`` logger's line (its default exception handler writes its
    context into the message itself, not as arguments), without what may name a hidden card
    (R3.3): the repr of ``exc`` and of each exception of its chain that :func:`text_kept`
    refuses (``future: <Task finished name='table-7-send' coro=<…> exception=CardError('A♠
    is not in your hand')>``) said by :func:`said_by_type`, and a callback's arguments (any
    value: a future holding such an error, a screen) as ``(…)``. The task's name, its
    coroutine and the callback's name and source stay: they say which failed."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if not text_kept(exc):
            with contextlib.suppress(Exception):  # (a repr that raises: none of it written)
                message = message.replace(repr(exc), said_by_type(exc))
        exc = exc.__cause__ or exc.__context__
    return _CALLBACK_ARGS.sub(r"\1\2(…)", message)


class RedactSecrets(logging.Filter):
    """Replaces secrets in a record's message, exception and stack text (never drops one),
    and names ``env_file`` (the settings file read, ``--env-file``) where the message says
    ``.env`` (:func:`in_env_file`)."""

    def __init__(self, secrets: Iterable[str], env_file: str = ".env") -> None:
        super().__init__()
        self.env_file = env_file
        forms: set[str] = set()
        for secret in secrets:
            if not secret:
                continue
            forms.update({secret, quote(secret, safe=""), quote(secret)})
            _, _, tail = secret.partition(":")
            if len(tail) >= 16:  # a Telegram token's secret part, on its own
                forms.update({tail, quote(tail, safe="")})
        self.secrets = sorted(forms, key=len, reverse=True)  # longer forms first

    def redact(self, text: str) -> str:
        """``text`` with every secret replaced."""
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact ``record`` in place (its message is formatted once, here)."""
        if not self.secrets and self.env_file == ".env":
            return True
        try:
            message = record.getMessage()
        except Exception:  # a broken format: leave it to the handler to report
            return True
        record.msg, record.args = in_env_file(self.redact(message), self.env_file), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class _Handler(logging.StreamHandler[TextIO]):
    """The handler :func:`configure_logging` installs (replaced when it is called again)."""


def configure_logging(
    level: str | int,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
    env_file: str = ".env",
) -> RedactSecrets:
    """Log to ``stream`` (standard error by default) at ``level``, with ``secrets`` redacted
    from every record of every logger and ``env_file`` (the settings file read) named where
    a message says ``.env``: the filter goes on each handler of the root logger (this one
    and any already there), after :class:`HideErrorText` (no hidden card in an exception's
    text at ``INFO`` and above, R3.3). Returns the redacting filter."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _Handler)]:
        root.removeHandler(old)
    handler = _Handler(stream if stream is not None else sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(handler)
    root.setLevel(level)
    hider, redactor = HideErrorText(), RedactSecrets(secrets, env_file)
    for h in root.handlers:
        for f in [f for f in h.filters if isinstance(f, (HideErrorText, RedactSecrets))]:
            h.removeFilter(f)
        h.addFilter(hider)  # (first: the redactor formats the message it leaves)
        h.addFilter(redactor)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return redactor


_tasks_log = logging.getLogger("bot.tasks")
_T = TypeVar("_T")


def failure_logged(task: asyncio.Task[_T], what: str) -> asyncio.Task[_T]:
    """The one way a presenter's background task (a writer, a bank nudge, a turn ping, a
    picture posted later: :class:`bot.telegram.adapter.TelegramPresenter`,
    :class:`bot.discord.presenter.DiscordPresenter`, :class:`bot.late_pictures.LatePictures`)
    reports its failure: when ``task`` ends with an exception (none expected: each handles
    its platform's errors), it is logged at ERROR with its traceback, "``what`` failed"
    (``what``: e.g. "a Discord write", "a Telegram bank nudge"), so retrieved; one nobody
    awaits (a nudge, a ping, a writer ending at the stop) was otherwise reported by asyncio
    only when collected, "Task exception was never retrieved", or not at all. A cancelled
    or successful task says nothing. Returns ``task``."""

    def report(done: asyncio.Task[Any]) -> None:
        if not done.cancelled() and (exc := done.exception()) is not None:
            _tasks_log.error("%s failed: %r", what, exc, exc_info=exc)

    task.add_done_callback(report)
    return task
