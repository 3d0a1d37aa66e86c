"""``--set MODULE.NAME=VALUE`` for the strength benches: try a variant of the computer players
by setting a numeric constant of ``game.policy`` or ``game.strategy`` first."""

from __future__ import annotations

import argparse

from game import policy, strategy


def add_argument(parser: argparse.ArgumentParser) -> None:
    """Add the repeatable ``--set`` option to ``parser``."""
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="MODULE.NAME=VALUE",
        help="try a variant: set a numeric constant of game.policy or game.strategy first "
        "(e.g. policy.STRONG_PLAYOUTS=64)",
    )


def apply(assignments: list[str]) -> None:
    """Set each ``MODULE.NAME=VALUE`` and print it.

    :raises SystemExit: on a name that is not a numeric constant of ``game.policy`` or
        ``game.strategy``.
    """
    for assignment in assignments:
        name, value = assignment.split("=")
        module, attr = name.split(".")
        target = {"policy": policy, "strategy": strategy}[module]
        kind = type(getattr(target, attr))
        if kind not in (float, int):
            raise SystemExit(f"{name} is not a numeric constant")
        setattr(target, attr, kind(float(value)))
        print(f"variant: {name} = {kind(float(value))}", flush=True)
