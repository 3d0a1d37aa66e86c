"""``python -m bot`` (or ``ofc-bot``): run the bot with the tokens from ``.env``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import stat
import sys
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from bot.config import (
    ConfigError,
    OutOfReach,
    Settings,
    load_settings,
    platform_warning,
    sqlite_left_warning,
    unread_warning,
)
from bot.logs import configure_logging, in_env_file
from bot.texts import tr
from storage.cli import EX_TEMPFAIL, refuse_missing_env_file

__all__ = ["EX_TEMPFAIL", "main"]


def _prog() -> str:
    """The program's name in ``--help`` and argparse's errors: ``ofc-bot`` when started by
    that console script (pyproject's ``[project.scripts]``; its wrapper strips ``.exe`` and
    ``-script.pyw`` from ``sys.argv[0]``), ``python -m bot`` otherwise (argparse's own
    default would be ``__main__.py``)."""
    return "ofc-bot" if Path(sys.argv[0]).name == "ofc-bot" else "python -m bot"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad configuration, an ``--env-file``
    that is not there included: without the flag ``.env`` is read if there is one; 75,
    :data:`EX_TEMPFAIL`, for a platform or the database out of reach at the start, an SQLite
    file another program holds locked, or a lost PostgreSQL lock not taken again in time)."""
    parser = argparse.ArgumentParser(
        prog=_prog(),
        description="Run the OFC bot on Telegram and/or Discord, with TELEGRAM_BOT_TOKEN and "
        "DISCORD_BOT_TOKEN from .env (.env.example lists every setting) or the environment. "
        "With no token set it starts the local sandbox instead: a table in this terminal "
        "against a computer player, played with the sandbox flags below (docs/sandbox.md).",
    )
    parser.add_argument(
        "--env-file",
        help="settings file (default: .env, if there is one; a file given here must exist)",
    )
    parser.add_argument(
        "--sandbox", action="store_true", help="play locally in the terminal, even with tokens set"
    )
    parser.add_argument(
        "--sandbox-db", default=None,
        help="the sandbox's SQLite file (default sandbox.sqlite3; delete it to start afresh)",
    )  # fmt: skip
    parser.add_argument(
        "--bots", type=int, default=None, choices=(0, 1, 2),
        help="sandbox: computer players seated at a new table (/addbot; default 1)",
    )  # fmt: skip
    parser.add_argument(
        "--bot-level", default=None, choices=("easy", "normal", "strong"),
        help="sandbox: their level (default normal)",
    )  # fmt: skip
    parser.add_argument(
        "--hand-seconds", type=_hand_seconds, default=None,
        help="sandbox: time budget per hand (R8.5, default 120; the hand_seconds setting's "
        "range), e.g. 30 for a quick look; the time bank is a quarter of it (at least 5 s) and "
        "a Fantasyland hand gets 1.5 times it. A resumed table takes a new value as a settings "
        "change would: at once between matches, otherwise from the next match; without the flag "
        "a later start keeps the group's timers (those set with /settings too)",
    )  # fmt: skip
    parser.add_argument(
        "--lang", default=None, choices=("en", "ru"),
        help="sandbox: the language you play in (the bot's texts and the sandbox's hints; "
        "default en); given, it switches the sandbox's group to it (as /settings language)",
    )  # fmt: skip
    parser.add_argument(
        "--fast", action="store_true",
        help="sandbox: computer players move at once and hands follow each other at once "
        "(half a second after the showdown)",
    )  # fmt: skip
    parser.add_argument(
        "--fantasyland", action="store_true",
        help="sandbox: your next Pineapple hand is dealt Q♥ Q♦ 8♣ 8♦ 8♥ and cards that fit "
        "them: the Queens kept on top of a board not fouled (as Arrange for me plays it) earn "
        "Fantasyland; once a start",
    )  # fmt: skip
    parser.add_argument(
        "--router", action="store_true",
        help="run the front process of several workers: Telegram's webhook in, each update "
        "forwarded to the worker serving its chat (needs TELEGRAM_WEBHOOK_URL/SECRET and the "
        "workers' DATABASE_URL or DATABASE_PATH; a unit of its own: docs/operations.md)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if refuse_missing_env_file(args.env_file):
        return 2
    args.env_file = args.env_file or ".env"
    try:
        settings = load_settings(args.env_file, tokens=not args.sandbox)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unread = unread_warning(args.env_file)
    if unread is not None:  # (a typo: the bot would start without it, and say nothing)
        print(unread, file=sys.stderr)
    # (a shard count, a webhook without its platform's token: dropped without a word, ops44;
    # not with --sandbox, which ignores the tokens themselves, nor with --router, which
    # refuses a start without the token its webhook settings need, below)
    ignored = None if args.sandbox or args.router else platform_warning(settings)
    if ignored is not None:
        print(ignored, file=sys.stderr)
    # (DATABASE_URL set beside an SQLite file still holding the groups' balances and tables:
    # "0 open table(s) restored" was all the start said; not the sandbox's, on its own file)
    left = None if args.sandbox or not settings.has_token else sqlite_left_warning(settings)
    if left is not None:
        print(left, file=sys.stderr)
    refused = _sandbox_flags_refused(args, settings)
    if refused is not None:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    if (  # (a router's settings shared with a worker's: its own line, run_router)
        settings.worker_id is not None
        and not settings.has_token
        and not (args.sandbox or args.router)
    ):
        # (it started the interactive sandbox: under a service manager, stdin empty, it
        # ended at once with status 0, the worker never there and nothing said)
        print(
            f"error: WORKER_ID={settings.worker_id} is set but no bot token: a worker needs "
            "the TELEGRAM_BOT_TOKEN and/or DISCORD_BOT_TOKEN of the router and the other "
            f"workers ({args.env_file} or the environment)",
            file=sys.stderr,
        )
        return 2
    args.sandbox_db = args.sandbox_db or SANDBOX_DB
    # every record of every logger goes through a filter that hides both tokens (issue 16.12)
    # (and a line that says ".env" names the file actually read, as a start's error line)
    configure_logging(settings.log_level, settings.secrets(), env_file=args.env_file)
    if args.router:
        from bot.app import run_router

        return _run(run_router(settings), args.env_file)
    if args.sandbox or not settings.has_token:
        if _is_bots_database(args.sandbox_db, settings):
            print(
                tr(args.lang or "en", "sandbox.db_is_bots", path=args.sandbox_db), file=sys.stderr
            )
            return 2
        from bot.sandbox import SandboxOptions, run_sandbox

        opts = SandboxOptions(
            db=Path(args.sandbox_db),
            bots=1 if args.bots is None else args.bots,
            bot_level=args.bot_level or "normal",
            hand_seconds=120.0 if args.hand_seconds is None else args.hand_seconds,
            given=frozenset(
                name
                for name in ("bots", "bot_level", "hand_seconds", "lang")
                if getattr(args, name) is not None
            ),
            bot_delay=0.0 if args.fast else 0.4,
            next_hand_delay=0.5 if args.fast else 4.0,
            lang=args.lang or "en",
            fantasyland=args.fantasyland,
            decisions_in_process=settings.decisions_in_process,
            storage_wait=settings.storage_wait_seconds,
        )
        # the first lines in the language the sandbox then speaks
        lang = opts.opening_lang()
        # the file actually read: the default .env may be missing (a given one may not)
        where = "" if Path(args.env_file).is_file() else "_file"
        if not args.sandbox and _stdin_empty():
            # (a service started without its token: the sandbox ended at once, status 0,
            # which a service manager took for a success; the flag plays it all the same)
            print(tr(lang, f"sandbox.no_input{where}", file=args.env_file),
                  file=sys.stderr)  # fmt: skip
            return 2
        if not args.sandbox:
            print(tr(lang, f"sandbox.no_token{where}", file=args.env_file), flush=True)
        print(_sandbox_db_line(lang, args.sandbox_db, settings), flush=True)
        logging.getLogger().setLevel(logging.WARNING)
        try:
            with contextlib.suppress(KeyboardInterrupt):  # the sandbox has saved and said bye
                asyncio.run(run_sandbox(opts))
        except ConfigError as exc:  # --sandbox-db cannot be opened: its line, in --lang
            print(exc, file=sys.stderr)
            return 2
        return 0
    from bot.app import run

    return _run(run(settings), args.env_file)


def _stdin_empty() -> bool:
    """Whether standard input can bring the sandbox no line: closed, or a character device
    that is no terminal (``/dev/null``, what systemd gives a service). A terminal, a pipe
    (README's ``printf … | python -m bot``) or a file can; so can a ``sys.stdin`` without a
    file descriptor (replaced in-process, as pytest's capture does): it is not refused."""
    if sys.stdin is None:  # (fd 0 closed when Python started)
        return True
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError):  # (io.UnsupportedOperation is both)
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return True
    return stat.S_ISCHR(mode) and not os.isatty(fd)


#: ``--sandbox-db``'s default
SANDBOX_DB = "sandbox.sqlite3"

#: the flags of the sandbox alone (argparse's ``dest``), each ``None`` or ``False`` unless given
_SANDBOX_FLAGS = ("sandbox_db", "bots", "bot_level", "hand_seconds", "lang", "fast", "fantasyland")


def _sandbox_flags_refused(args: argparse.Namespace, settings: Settings) -> str | None:
    """Why the command line is refused (the ``error:`` line's text), ``None`` when it is not:
    a sandbox flag (``--fast``, ``--sandbox-db`` …) without ``--sandbox`` while a bot token
    is set, which would start the real bot with the flag unused; ``--router`` with
    ``--sandbox`` or a sandbox flag (the router would start, the sandbox flags unused).
    Without a token the sandbox flags need no ``--sandbox``: the sandbox is what starts."""
    given = [
        "--" + name.replace("_", "-")
        for name in _SANDBOX_FLAGS
        if getattr(args, name) is not None and getattr(args, name) is not False  # (--bots 0)
    ]
    if args.router and (args.sandbox or given):
        flag = "--sandbox" if args.sandbox else given[0]
        return f"{flag} is for the local sandbox, --router runs the workers' router: give one"
    if given and not args.sandbox and settings.has_token:
        return (
            f"{given[0]} is a sandbox flag and a bot token is set ({args.env_file} or the "
            "environment), so this would start the real bot: add --sandbox to play the "
            "sandbox, or leave the flag out to run the bot"
        )
    return None


def _is_bots_database(sandbox_db: str, settings: Settings) -> bool:
    """Whether ``--sandbox-db`` (``sandbox_db``) is the bot's SQLite database: the same file
    as ``DATABASE_PATH`` once both are resolved, ``DATABASE_URL`` not set (then the bot's
    database is PostgreSQL). The sandbox played its group, computer players and kush among
    the real groups' there (the bot stopped: nothing held the file), its start line calling
    it "the sandbox's own file"."""
    if settings.database_url is not None:
        return False
    return Path(sandbox_db).resolve() == Path(settings.database_path).resolve()


def _sandbox_db_line(lang: str, path: str, settings: Settings) -> str:
    """The sandbox's start line naming the database it plays on: its own SQLite file
    (``--sandbox-db``, ``path``), and, when the settings name the bot's database
    (``DATABASE_URL``, or a ``DATABASE_PATH`` other than the default), that this one is not
    used and why: the sandbox's group, its computer players and their kush would be written
    among the real groups' (docs/sandbox.md). It said nothing, and an operator who set
    ``DATABASE_URL`` took the sandbox to play on it."""
    if settings.database_url is not None:
        return tr(lang, "sandbox.db_not_bots", path=path, name="DATABASE_URL")
    if settings.database_path != Settings.model_fields["database_path"].default:
        return tr(lang, "sandbox.db_not_bots", path=path, name="DATABASE_PATH")
    return tr(lang, "sandbox.db", path=path)


def _hand_seconds(raw: str) -> float:
    """``--hand-seconds``: a value the ``hand_seconds`` setting takes (its description holds
    the bounds), else argparse's one-line error naming them; nothing is applied."""
    from bot.service.settings import SETTINGS, SettingRefused

    spec = SETTINGS["hand_seconds"]
    try:
        return float(spec.parse(raw))
    except SettingRefused as exc:
        raise argparse.ArgumentTypeError(exc.text("en")) from None


def _run(main: Coroutine[Any, Any, None], env_file: str = ".env") -> int:
    """Run the bot or the router until it stops; 2 with one line for a ConfigError, 75
    (:data:`EX_TEMPFAIL`) with one line for a platform or the database out of reach at the
    start (:class:`OutOfReach`), and 2 for a bot stopped because another took its PostgreSQL
    database or its Telegram token, or because Discord, all it served, ended its connection
    for good (the line is logged); 75 for a bot stopped because it could not take its lost
    PostgreSQL lock again in time (:class:`bot.app.DatabaseLost`; the line is logged)."""
    from bot.app import DatabaseLost, DatabaseTaken, DiscordEnded, TokenTaken

    try:
        asyncio.run(main)
    except (DatabaseTaken, TokenTaken, DiscordEnded):
        return 2
    except DatabaseLost:
        return EX_TEMPFAIL
    except OutOfReach as exc:
        print(f"error: {in_env_file(str(exc), env_file)}", file=sys.stderr)
        return EX_TEMPFAIL
    except ConfigError as exc:
        print(f"error: {in_env_file(str(exc), env_file)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
