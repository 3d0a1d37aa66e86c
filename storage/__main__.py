"""``python -m storage check --db PATH``: the ledger consistency check (see
:mod:`storage.check`). Exit status 0 when consistent, 1 when a difference exists, 2 when the
database cannot be read."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from storage.api import StorageError
from storage.check import audit, read_database


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="recompute balances and stacks from the ledger and report differences"
    )
    check.add_argument("--db", required=True, type=Path, help="the SQLite database file")
    args = parser.parse_args(argv)

    try:
        data = asyncio.run(read_database(args.db))
    except StorageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    report = audit(data)
    print(f"{args.db}: " + report.render())
    return 1 if report.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
