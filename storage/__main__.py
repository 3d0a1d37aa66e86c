"""``python -m storage check [--db PATH_OR_URL]``: the ledger consistency check (see
:mod:`storage.check`) of a SQLite file or a PostgreSQL database (``postgresql://…``). Exit
status 0 when consistent, 1 when a difference exists, 2 when the database cannot be read,
75 (``EX_TEMPFAIL`` of sysexits.h, as the bot: try again later) when the PostgreSQL server is
out of reach (:class:`storage.api.StorageUnreachable`: refused, no answer, starting up, lost
while the rows were read) or another program holds the SQLite file locked ("database is
locked" after a wait of a few seconds: a lock is let go, as for the bot's start on it).

``python -m storage backup [--db PATH] DEST``: a consistent copy of a SQLite database, safe
while the bot runs (SQLite's online backup API: a copy of the file alone misses what its
``-wal`` file holds), checked as ``check`` does, with the same exit status. PostgreSQL is
backed up with ``pg_dump``.

Without ``--db`` both read the database the bot uses: ``DATABASE_URL``, else
``DATABASE_PATH`` (default ``ofc.sqlite3``), from the environment or ``--env-file``
(default ``.env`` when there is one; a file named with ``--env-file`` that is not there is
refused, exit status 2); a variable there that the bot does not read (a misspelt
``DATABASE_URL``) is warned of in the bot's start's words, on standard error."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import sqlite3
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from pydantic_settings import BaseSettings, SettingsConfigDict

from storage import check as storage_check
from storage.api import StorageError, StorageUnreachable
from storage.check import (
    audit,
    no_bot_tables,
    read_database,
    sqlite_locked,
    with_sqlite_advice,
)
from storage.cli import EX_TEMPFAIL, refuse_missing_env_file

__all__ = ["EX_TEMPFAIL", "main"]


class _Database(BaseSettings):
    """The two variables of the bot's settings (``bot.config.Settings``) naming its
    database."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str | None = None
    database_path: str = "ofc.sqlite3"


def _plain(doc: str) -> str:
    """A reST docstring as plain help text (``--help`` prints it): ````code```` and
    ``:role:`target``` written bare, "``python -m storage check``" as
    "python -m storage check", each paragraph wrapped anew at 88 columns (the markup taken
    out left its lines ragged: "(see" alone on one)."""
    doc = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", doc)
    doc = re.sub(r"``([^`]+)``", r"\1", doc)
    return "\n\n".join(textwrap.fill(" ".join(p.split()), 88) for p in doc.split("\n\n"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m storage",
        description=_plain(__doc__ or ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="recompute balances and stacks from the ledger and report differences"
    )
    backup = commands.add_parser(
        "backup", help="copy a SQLite database consistently, even while the bot runs"
    )
    for command, what in (
        (check, "the SQLite database file, or a PostgreSQL URL (postgresql://user@host/db)"),
        (backup, "the SQLite database file"),
    ):
        command.add_argument(
            "--db", help=f"{what}; default: DATABASE_URL, else DATABASE_PATH, as the bot reads them"
        )
        command.add_argument(
            "--env-file",
            help="the bot's settings file read without --db (default .env, if there is one; "
            "a file given here must exist)",
        )
    backup.add_argument("dest", help="the new file to write (never overwritten)")
    args = parser.parse_args(argv)
    if args.db is not None and not args.db.strip():  # (brk79: --db "$DB", DB unset)
        print(
            "error: --db is empty: name the database file or postgresql:// URL, or leave --db "
            "out for the bot's own",
            file=sys.stderr,
        )
        return 2
    if args.db is None and refuse_missing_env_file(args.env_file):
        return 2
    args.env_file = args.env_file or ".env"
    try:
        db = args.db or _bot_database(args.env_file)
    except (UnicodeDecodeError, OSError) as e:  # (a traceback: a .env in UTF-16)
        reason = (
            "it is not UTF-8 text (save it as UTF-8)"
            if isinstance(e, UnicodeDecodeError)
            else e.strerror
        )
        print(f"error: cannot read {args.env_file}: {reason}", file=sys.stderr)
        return 2
    if args.db is None:
        _warn_unread(args.env_file)
    postgres = db.startswith(("postgresql://", "postgres://"))
    where = _without_password(db) if postgres else db
    if args.db is None and not postgres and not Path(db).is_file():
        # (opsnu43: "no database file at ofc.sqlite3" alone, run outside the bot's folder,
        # did not say that the path was the bot's setting, read relative to this folder)
        print(f"error: no database file at {db}{_where_advice(db, args.env_file)}", file=sys.stderr)
        return 2
    if args.command == "backup":
        if postgres:
            print(
                f"error: {where} is PostgreSQL: back it up with pg_dump "
                "(pg_dump -Fc -f ofc.dump DATABASE_URL; pg_restore to restore)",
                file=sys.stderr,
            )
            return 2
        try:
            _backup(Path(db), Path(args.dest))
        except StorageError as e:
            print(f"error: {e}", file=sys.stderr)
            return _status(e)
        print(f"{args.dest}: backup of {db} written")
        db = where = args.dest
    try:
        data = asyncio.run(read_database(db if postgres else Path(db)))
    except StorageError as e:
        print(f"error: {str(e).replace(db, where)}", file=sys.stderr)
        return _status(e)
    report = audit(data)
    print(f"{where}: " + report.render())
    return 1 if report.problems else 0


def _where_advice(db: str, env_file: str) -> str:
    """Why the bot's own SQLite file ``db`` (no ``--db``) was looked for where it was not,
    and what to do: ``DATABASE_PATH`` as ``env_file`` (or its default) gives it, a relative
    one read from the folder the command runs in, as the bot's start reads it from its own.

    :returns: the rest of the error line after the path, e.g. " (DATABASE_PATH's default,
        relative to this folder, /tmp): run this in the folder the bot starts in, or name
        the file with --db"."""
    source = (
        f"DATABASE_PATH of {env_file}" if Path(env_file).is_file() else "DATABASE_PATH's default"
    )
    if Path(db).is_absolute():
        return f" ({source}): check it, or name the file with --db"
    return (
        f" ({source}, relative to this folder, {Path.cwd()}): run this in the folder the bot "
        "starts in, or name the file with --db"
    )


def _status(e: StorageError) -> int:
    """The exit status of a check or backup that ``e`` stopped: 75 (:data:`EX_TEMPFAIL`, try
    again later) for a PostgreSQL server out of reach (:class:`StorageUnreachable`) and for
    an SQLite file another program holds locked (its SQLite error, ``e``'s cause, is
    :func:`storage.check.sqlite_locked`: a sqlite3 shell in a transaction, a backup tool; it
    was 2, "change something first", though the lock is let go, ops43), else 2."""
    cause = e.__cause__
    locked = isinstance(cause, sqlite3.Error) and sqlite_locked(cause)
    return EX_TEMPFAIL if isinstance(e, StorageUnreachable) or locked else 2


def _warn_unread(env_file: str) -> None:
    """The bot's start's warning of variables in ``env_file`` it does not read
    (:func:`bot.config.unread_warning`), on standard error: a misspelt ``DATABASE_URL``
    (``DATABSE_URL``) checked or backed up the SQLite file ``DATABASE_PATH``, without a word
    (ops42). The one import of ``bot`` in this package, here in the command line reading the
    bot's own settings file: which names the bot reads, its settings alone know."""
    # imported here, not at the top: no cycle (bot.config imports nothing of storage), but
    # the lower layer's one dependency on the upper stays on the one path that reads the
    # bot's settings file; with --db, bot is never loaded. Moving the list of the bot's
    # variables down here would copy bot.config.Settings (and _Database reads only the two
    # it needs: Settings would refuse the check over a malformed token)
    from bot.config import unread_warning

    line = unread_warning(env_file)
    if line is not None:
        print(line, file=sys.stderr)


def _bot_database(env_file: str) -> str:
    """``DATABASE_URL`` if set (not empty), else ``DATABASE_PATH``, as the bot reads them."""
    settings = _Database(_env_file=env_file)  # type: ignore[call-arg]
    url = (settings.database_url or "").strip()
    if url:
        return url
    path = settings.database_path.strip() or "ofc.sqlite3"  # (empty: as the bot)
    return os.path.expanduser(path)  # (~: the home folder, as the bot)


def _backup(source: Path, dest: Path) -> None:
    """Copy the SQLite database ``source`` to the new file ``dest`` with SQLite's online
    backup API, in one step (a consistent snapshot: the bot may go on writing meanwhile).

    :raises StorageError: when ``source`` is no database file (or not the bot's: no
        ``communities`` table), ``dest`` exists or is one
        of the files SQLite keeps beside ``source``
        (nothing is written then) or cannot be written (nothing is left, as far as its
        folder lets a file go: a read-only one)."""
    if not source.is_file():
        raise StorageError(f"no database file at {source}")
    if dest.exists():
        raise StorageError(f"{dest} exists: give the backup a new name")
    own = {Path(f"{source.resolve()}{suffix}") for suffix in ("-wal", "-shm", "-journal")}
    if dest.resolve() in own:  # (SQLite's files of the source: it deleted the copy there)
        raise StorageError(
            f"{dest} is a file SQLite keeps for {source}: give the backup a new name"
        )
    try:
        with contextlib.closing(
            sqlite3.connect(source, timeout=storage_check.LOCK_WAIT_SECONDS)
        ) as src:
            # a database at all, and the bot's (brk79: an empty file's copy was left behind)
            tables = src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if "communities" not in {name for (name,) in tables.fetchall()}:
                raise StorageError(no_bot_tables(source))
            try:
                out = sqlite3.connect(dest)
            except sqlite3.Error as e:  # (nothing made: its folder is missing or read-only)
                raise StorageError(
                    f"cannot write the backup {dest} ({e}): name a file in a folder that "
                    "exists and can be written"
                ) from e
            with contextlib.closing(out):
                src.backup(out)
                # one self-contained file (the bot's is in WAL mode, and so was the copy)
                out.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as e:
        # (a read-only file system refuses even the unlink of a file that is not there:
        # that was a traceback and exit status 1, "a difference", instead of this line)
        with contextlib.suppress(OSError):
            dest.unlink(missing_ok=True)
        raise StorageError(f"cannot back up {source} to {dest}: {with_sqlite_advice(e)}") from e


def _without_password(url: str) -> str:
    """``url`` with its password (if any) shown as ``***`` (a URL :func:`urlsplit` cannot
    read, ``[::1`` without its ``]``: all before its ``@``)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        scheme, _, rest = url.partition("://")
        return f"{scheme}://***@{rest.rpartition('@')[2]}" if "@" in rest else url
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


if __name__ == "__main__":
    raise SystemExit(main())
