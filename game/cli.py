"""Command line of the core: ``python -m game score``, ``simulate`` and ``tournament``.

``score`` reads a JSON request on stdin, in the shape of ``shared/rules/cases.json``'s
``request``::

    {"game": "pineapple", "boards": [{"top": "Qs Qh 2d", "middle": "...", "bottom": "..."}, ...],
     "options": {"progressive_fantasyland": true}, "in_fantasyland": [true, false]}

and prints the ``expect`` shape: ``fouled``, ``royalties``, ``points``, ``fantasyland``,
``fantasyland_cards`` (for ``chinese``: ``fouled`` and ``points``). Bad input exits with
status 2 and one line on stderr.

``simulate`` plays whole hands with the built-in strategy and prints one JSON object per hand.

``tournament`` plays a whole tournament (R8.7) with the built-in strategy, levels rising every
``--level-hands`` hands, and prints a table to read: one line per hand (its level, chips per
point, every seat's chips, who was knocked out and their place and prize), then the places
and payouts (:func:`tournament_table`). With ``--json`` it prints one JSON object per hand
(``hand``, ``level``, ``chips_per_point``, ``chips`` per seat, ``knocked_out``, ``settled``)
and a final one (``hands``, ``pool``, ``places``, ``payouts``) instead; see
:func:`game.simulate.simulate_tournament`. It stops with status 2 if nobody has won after
``--max-hands`` hands (default 10,000).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TextIO

from game.board import Board
from game.errors import GameError
from game.options import GameKind, RuleOptions
from game.scoring import score_chinese, score_showdown
from game.simulate import simulate, simulate_tournament
from game.tournament import TournamentConfig

__all__ = ["main", "score_request", "tournament_table"]


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score one request (see module doc) and return the result shape.

    :raises GameError: on an unknown game or option, a bad card, a wrong card count, a repeated
        card (within or across boards) or a malformed request.
    """
    if not isinstance(request, Mapping):
        raise GameError("request must be a JSON object")
    game = request.get("game", "pineapple")
    raw_options = request.get("options") or {}
    if not isinstance(raw_options, Mapping):
        raise GameError("options must be a JSON object")
    options = RuleOptions.preset(game, **raw_options)
    raw_boards = request.get("boards")
    if not isinstance(raw_boards, Sequence) or isinstance(raw_boards, str):
        raise GameError("boards must be a list of {top, middle, bottom}")
    if not 2 <= len(raw_boards) <= 4:
        raise GameError(f"2 to 4 boards are scored, got {len(raw_boards)}")
    boards: list[Board] = []
    seen: set[str] = set()
    for i, b in enumerate(raw_boards):
        if not isinstance(b, Mapping) or not all(
            isinstance(b.get(k), str) for k in ("top", "middle", "bottom")
        ):
            raise GameError(f"board {i + 1}: needs top, middle and bottom as card strings")
        try:
            board = Board.parse(b["top"], b["middle"], b["bottom"])
        except GameError as exc:
            raise GameError(f"board {i + 1}: {exc}") from None
        for c in board.cards():
            if c.code_str() in seen:
                raise GameError(f"board {i + 1}: card {c.code_str()} is also on another board")
            seen.add(c.code_str())
        boards.append(board)
    in_fl_raw = request.get("in_fantasyland")
    in_fl: list[bool] | None = None
    if in_fl_raw is not None:
        if not isinstance(in_fl_raw, Sequence) or len(in_fl_raw) != len(boards):
            raise GameError("in_fantasyland must list one true/false per board")
        in_fl = [bool(x) for x in in_fl_raw]
    if options.game is GameKind.CHINESE:
        return score_chinese(boards, options).to_json()
    return score_showdown(boards, options, in_fl).to_json()


def _cmd_score(stdin: TextIO, stdout: TextIO) -> int:
    try:
        request = json.loads(stdin.read())
    except json.JSONDecodeError as exc:
        raise GameError(f"request is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    json.dump(score_request(request), stdout)
    stdout.write("\n")
    return 0


def _cmd_simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    options = RuleOptions.preset(args.game)
    if options.game is GameKind.CHINESE:
        raise GameError("simulate plays open-face games: pineapple or ofc")
    if not options.min_players <= args.players <= options.max_players:
        raise GameError(
            f"{options.game.value} takes {options.min_players}–{options.max_players} players"
        )
    if args.hands < 0:
        raise GameError("--hands cannot be negative")
    write = stdout.write
    for record in simulate(options, args.players, args.hands, args.seed, policy=args.policy):
        write(json.dumps(record, separators=(",", ":")))
        write("\n")
    return 0


def _cmd_tournament(args: argparse.Namespace, stdout: TextIO) -> int:
    config = TournamentConfig.create(
        args.game, buy_in=args.buy_in, starting_chips=args.starting_chips
    )
    records = simulate_tournament(
        config,
        args.players,
        args.seed,
        level_hands=args.level_hands,
        max_hands=args.max_hands,
        policy=args.policy,
    )
    if args.json:
        for record in records:
            stdout.write(json.dumps(record, separators=(",", ":")))
            stdout.write("\n")
        return 0
    for line in tournament_table(config, args.players, args.level_hands, records):
        stdout.write(line)
        stdout.write("\n")
    return 0


def _place(n: int) -> str:
    """An English ordinal: 1st, 2nd, 3rd, 4th (11th–13th)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def tournament_table(
    config: TournamentConfig,
    players: int,
    level_hands: int,
    records: Iterable[Mapping[str, Any]],
) -> Iterator[str]:
    """The lines ``python -m game tournament`` prints (R8.7), from
    :func:`~game.simulate.simulate_tournament`'s ``records`` (consumed as they come, so the
    lines follow the play): a heading with the game, the seats, the buy-ins' pool and the
    starting chips; a table with one row per hand dealt: its number, level, chips per point
    and each seat's chips ("out" once knocked out; a Chinese Poker hand that settles nothing,
    R7.6, says "game goes on"), and the seats knocked out by it with their place and prize;
    then the winner and the places with their prizes in kush, best first. Seats are numbered
    from 1.

    :raises GameError: as the records do (no winner after ``--max-hands`` hands)."""
    seats = range(players)
    width = max(7, len(f"{config.starting_chips * players:,}") + 1)
    yield (
        f"{config.game.title} tournament · {players} players · buy-in {config.buy_in:,} kush "
        f"each, pool {config.buy_in * players:,} · {config.starting_chips:,} chips each · "
        f"level up every {level_hands} hands"
    )
    yield ""
    head = f"{'hand':>5} {'level':>5} {'chips/pt':>8}" + "".join(
        f"{f'seat {s + 1}':>{width + 1}}" for s in seats
    )
    yield head + "  notes"
    out: set[int] = set()
    for record in records:
        if "places" in record:  # the final record
            places, payouts = record["places"], record["payouts"]
            ranked = sorted(seats, key=lambda s: (places[s], s))
            yield ""
            yield f"Winner: seat {ranked[0] + 1} after {record['hands']} hands."
            yield f"{'place':>5} {'seat':>5} {'prize (kush)':>13}"
            for s in ranked:
                yield f"{_place(places[s]):>5} {s + 1:>5} {payouts[s]:>13,}"
            continue
        cells = []
        for s in seats:
            cell = "out" if s in out else f"{record['chips'][s]:,}"
            cells.append(f"{cell:>{width + 1}}")
        notes = [
            f"seat {k['seat'] + 1} out: {_place(k['place'])}, prize {k['prize']:,}"
            for k in record["knocked_out"]
        ]
        if not record["settled"]:
            notes.append("game goes on")
        out.update(k["seat"] for k in record["knocked_out"])
        row = f"{record['hand']:>5} {record['level']:>5} {record['chips_per_point']:>8,}"
        yield (row + "".join(cells) + ("  " + "; ".join(notes) if notes else "")).rstrip()


# ``--help``'s description: plain text (the docstring's first line is reStructuredText)
_DESCRIPTION = (
    "Command line of the core: score boards (score), play whole hands (simulate) or a whole "
    "tournament (tournament) with the built-in strategy."
)

# ``score --help``: what stdin takes (a newcomer typing ``python -m game score`` saw it wait
# for input with a help that only said "options: -h")
_SCORE = (
    "Reads one JSON request on stdin, the 'request' of a case in tests/data/cases.json: "
    '{"game": "pineapple" | "ofc" | "chinese", "boards": [{"top": "Qs Qh 2d", "middle": '
    '"Kd Kc 8s 8h 3h", "bottom": "As Ad Ac 5h 5d"}, ...] (2 to 4 boards), optionally '
    '"options" and "in_fantasyland"}, and prints the result as one JSON object: fouled, '
    "royalties, points, fantasyland and fantasyland_cards per board (chinese: fouled and "
    "points). Bad input: one line on stderr, status 2."
)


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    parser = argparse.ArgumentParser(prog="python -m game", description=_DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("score", help="score boards read as JSON from stdin", description=_SCORE)
    sim = sub.add_parser("simulate", help="play whole hands with the built-in strategy")
    sim.add_argument("--game", default="pineapple", help="pineapple (default) or ofc")
    sim.add_argument("--players", type=int, default=3)
    sim.add_argument("--hands", type=int, default=100)
    sim.add_argument("--seed", default=None, help="same seed, same output")
    sim.add_argument(
        "--policy",
        choices=("strategy", "lookahead", "auto"),
        default="strategy",
        help="strategy: the fast built-in heuristic (default); lookahead: the heuristic checked "
        "by play-outs (slower, far fewer fouls); auto: R8.5's timeout placement",
    )
    tour = sub.add_parser(
        "tournament",
        help="play a whole tournament with the built-in strategy",
        description="Plays a whole sit-and-go tournament with the built-in strategy and prints "
        "a table: one row per hand (level, chips per point, each seat's chips, who was knocked "
        "out), then the places and prizes; --json prints JSON lines instead.",
    )
    tour.add_argument("--game", default="pineapple", help="pineapple (default), ofc or chinese")
    tour.add_argument("--players", type=int, default=3)
    tour.add_argument("--seed", default=None, help="same seed, same output")
    tour.add_argument("--level-hands", type=int, default=5, help="hands per level (default 5)")
    tour.add_argument(
        "--max-hands", type=int, default=10_000, help="give up after this many hands (status 2)"
    )
    tour.add_argument("--buy-in", type=int, default=100, help="kush per player (default 100)")
    tour.add_argument("--starting-chips", type=int, default=1000)
    tour.add_argument("--policy", choices=("strategy", "lookahead", "auto"), default="strategy")
    tour.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per hand and a final one (places, payouts) instead of the table",
    )
    args = parser.parse_args(argv)
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        if args.command == "score":
            return _cmd_score(stdin, stdout)
        if args.command == "tournament":
            return _cmd_tournament(args, stdout)
        return _cmd_simulate(args, stdout)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `| head`
        return 0
