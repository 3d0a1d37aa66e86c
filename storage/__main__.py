"""``python -m storage check --db PATH_OR_URL``: the ledger consistency check (see
:mod:`storage.check`) of a SQLite file or a PostgreSQL database (``postgresql://…``). Exit
status 0 when consistent, 1 when a difference exists, 2 when the database cannot be read."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from storage.api import StorageError
from storage.check import audit, read_database


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="recompute balances and stacks from the ledger and report differences"
    )
    check.add_argument(
        "--db",
        required=True,
        help="the SQLite database file, or a PostgreSQL URL (postgresql://user@host/db)",
    )
    args = parser.parse_args(argv)

    postgres = args.db.startswith(("postgresql://", "postgres://"))
    where = _without_password(args.db) if postgres else args.db
    try:
        data = asyncio.run(read_database(args.db if postgres else Path(args.db)))
    except StorageError as e:
        print(f"error: {str(e).replace(args.db, where)}", file=sys.stderr)
        return 2
    report = audit(data)
    print(f"{where}: " + report.render())
    return 1 if report.problems else 0


def _without_password(url: str) -> str:
    """``url`` with its password (if any) shown as ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


if __name__ == "__main__":
    raise SystemExit(main())
