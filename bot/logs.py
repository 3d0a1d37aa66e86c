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
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import Iterable
from typing import Any, TextIO, TypeVar
from urllib.parse import quote

__all__ = [
    "FORMAT",
    "OWN_PACKAGES",
    "REDACTED",
    "RedactSecrets",
    "configure_logging",
    "failure_logged",
    "in_env_file",
    "raised_at",
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
    and any already there). Returns the filter."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _Handler)]:
        root.removeHandler(old)
    handler = _Handler(stream if stream is not None else sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(handler)
    root.setLevel(level)
    redactor = RedactSecrets(secrets, env_file)
    for h in root.handlers:
        for f in [f for f in h.filters if isinstance(f, RedactSecrets)]:
            h.removeFilter(f)
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
