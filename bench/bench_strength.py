"""Strength of the computer players (issue 13). Run: ``python bench/bench_strength.py``
(``--hands N``: decks per match-up, default 60; each deck is played three times; ``--seed S``
draws other decks than the default's, to check a result found on those on fresh ones; ``--only
LEVEL`` plays only the match-ups with that player; ``--set MODULE.NAME=VALUE`` tries a variant
of the levels, ``bench/_variant.py``; ``--game ofc`` measures classic OFC instead, R4.1, with
a classic table's defaults, ``RuleOptions.preset("ofc")``: the same three players, match-ups
and figures, the goals below not judged, being Pineapple's).

Three-player Pineapple with the default rules, over duplicate deals: for a match-up A vs B one
deck is dealt three times, A in seat 0, 1 and 2 in turn against two B, so every card goes to
A once and to B twice and the luck of the deal cancels. Every hand is a main hand (the
Fantasyland hands a board earns are not played, so points do not count what Fantasyland is
worth; entry is counted instead). Players: the levels of :mod:`game.policy` (``easy``,
``normal``, ``strong``) and ``auto``, R8.5's timeout placement (:mod:`game.autoplay`).

It prints, per match-up, A's points per hand (against its two opponents together and per
opponent, R5.1–R5.5) with a standard error over decks; per player, foul % (R2.3) and
Fantasyland entry % (R6.1) over every board it finished; and the time per decision of each
level (mean, p99, max). Goals: ``strong`` ≥ +3 points per hand against ``easy``, foul ≤ 8 %,
Fantasyland entry ≥ 20 % (both for ``strong``), each ``strong`` decision ≤ 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

import _variant
from _machine import describe

import bot  # noqa: F401  (first: numpy's BLAS on one thread, as the bot runs it)
from game.actions import Arrange
from game.autoplay import auto_street
from game.board import BOXES, Box, assess_board
from game.cards import Card, shuffled_deck
from game.hand import Hand, HandSetup
from game.options import GameKind, RuleOptions
from game.policy import Level, decide, knowledge

PLAYERS = ("easy", "normal", "strong", "auto")
MATCHUPS = (
    ("strong", "easy"),
    ("strong", "normal"),
    ("normal", "easy"),
    ("strong", "auto"),
    ("normal", "auto"),
    ("easy", "auto"),
)
GOAL_POINTS, GOAL_FOUL, GOAL_FL, GOAL_SECONDS = 3.0, 8.0, 20.0, 1.0


class Tally:
    """Boards, fouls, Fantasyland entries and decision times of one player."""

    def __init__(self) -> None:
        self.boards = 0
        self.fouls = 0
        self.fantasyland = 0
        self.seconds: list[float] = []


def move(hand: Hand, seat: int, player: str, rng: random.Random) -> list[tuple[Card, Box | None]]:
    """The player's placement of its street."""
    if player == "auto":
        board = hand.board_of(seat, with_pending=True)
        free = {b: board.free(b) for b in BOXES}
        return auto_street(hand.to_place(seat), free, hand.discards_needed(seat))
    return decide(knowledge(hand, seat), Level(player), rng)


def play(
    deck: list[Card],
    lineup: tuple[str, ...],
    seed: int,
    tallies: dict[str, Tally],
    options: RuleOptions | None = None,
) -> list[int]:
    """One hand with ``lineup[i]`` in seat ``i`` (button the last seat) under ``options``
    (``None``: Pineapple's defaults); points per seat."""
    options = options or RuleOptions()
    seats = tuple(range(len(lineup)))
    hand = Hand(HandSetup.deal(options, seats, seats[-1], deck=deck))
    rng = random.Random(seed)
    while not hand.is_over:
        seat = hand.to_act[0]
        t = time.perf_counter()
        moves = move(hand, seat, lineup[seat], rng)
        tallies[lineup[seat]].seconds.append(time.perf_counter() - t)
        hand.apply(Arrange(seat, tuple(moves)))
    result = hand.result
    assert result is not None
    for r in result.seats:
        tally = tallies[lineup[r.seat]]
        tally.boards += 1
        tally.fouls += r.fouled
        a = assess_board(r.board, options)
        tally.fantasyland += bool(a.fantasyland_cards) and not a.fouled
    return [result.seat(s).points for s in seats]


def matchup(
    a: str,
    b: str,
    decks: int,
    tallies: dict[str, Tally],
    seed: str = "",
    options: RuleOptions | None = None,
) -> list[float]:
    """A's points per hand (against two B) for each deck, averaged over A's three seats, under
    ``options`` (``None``: Pineapple's defaults).

    The decks come from ``seed`` and the match-up (``""``: the bench's first decks), the same
    for either game."""
    rng = random.Random(f"{seed}{a}-{b}")
    out = []
    for n in range(decks):
        deck = shuffled_deck(rng=rng)
        total = 0
        for seat in range(3):
            lineup = tuple(a if i == seat else b for i in range(3))
            total += play(deck, lineup, n * 3 + seat, tallies, options)[seat]
        out.append(total / 3)
    return out


def goals(strong: Tally, vs_easy: float) -> None:
    """Print issue 13's goals for ``strong`` (``vs_easy``: its points per hand, NaN if unplayed)."""
    foul = 100 * strong.fouls / strong.boards
    fl = 100 * strong.fantasyland / strong.boards
    worst = max(strong.seconds)

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    print("goals (strong):")
    print(f"  ≥ +{GOAL_POINTS:g} points per hand vs easy: {vs_easy:+.2f} (against two easy, "
          f"{vs_easy / 2:+.2f} per opponent): {verdict(vs_easy >= GOAL_POINTS)}")  # fmt: skip
    print(f"  foul ≤ {GOAL_FOUL:g} %: {foul:.1f} %: {verdict(foul <= GOAL_FOUL)}")
    print(f"  Fantasyland entry ≥ {GOAL_FL:g} %: {fl:.1f} %: {verdict(fl >= GOAL_FL)}")
    print(f"  decision ≤ {GOAL_SECONDS:g} s: max {worst:.2f} s: {verdict(worst <= GOAL_SECONDS)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60, help="decks per match-up (×3 hands)")
    parser.add_argument("--seed", default="", help="other decks than the default's")
    parser.add_argument("--only", choices=PLAYERS, help="only the match-ups with this player")
    parser.add_argument(
        "--game",
        choices=("pineapple", "ofc"),
        default="pineapple",
        help="Pineapple (default rules) or classic OFC (a classic table's defaults, R4.1, R5.3)",
    )
    _variant.add_argument(parser)
    args = parser.parse_args()
    print(f"machine: {describe()}")
    _variant.apply(args.set)
    seed = f" (seed {args.seed!r})" if args.seed else ""
    options = RuleOptions.preset(args.game)  # (Pineapple's: RuleOptions())
    if options.game is GameKind.PINEAPPLE:
        game = "Pineapple"
    else:
        game = f"{options.game.title} (R4.1, scoring {options.scoring.value}, no discards)"
    print(f"3-player {game}, {args.hands} decks × 3 seatings per match-up{seed} (duplicate deals)")
    tallies: dict[str, Tally] = defaultdict(Tally)
    results: dict[tuple[str, str], float] = {}
    started = time.perf_counter()
    for a, b in MATCHUPS:
        if args.only and args.only not in (a, b):
            continue
        per_deck = matchup(a, b, args.hands, tallies, args.seed, options)
        mean = statistics.mean(per_deck)
        se = statistics.stdev(per_deck) / len(per_deck) ** 0.5 if len(per_deck) > 1 else 0.0
        results[(a, b)] = mean
        print(
            f"  {a:>6} vs 2 × {b:<6}: {mean:+6.2f} ± {se:.2f} points per hand "
            f"({mean / 2:+.2f} per opponent), {3 * len(per_deck)} hands"
        )
    print("per player (every board it finished):")
    for p in PLAYERS:
        t = tallies[p]
        if not t.boards:
            continue
        ms = sorted(s * 1000 for s in t.seconds)
        p99 = ms[max(0, -(-99 * len(ms) // 100) - 1)]
        print(
            f"  {p:>6}: {t.boards} boards, foul {100 * t.fouls / t.boards:5.1f} %, Fantasyland "
            f"entry {100 * t.fantasyland / t.boards:5.1f} %; decision mean "
            f"{statistics.mean(ms):.2f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms"
        )
    if tallies["strong"].boards and options.game is not GameKind.PINEAPPLE:
        print("goals (strong): issue 13's are Pineapple's, not judged for this game")
    elif tallies["strong"].boards:
        goals(tallies["strong"], results.get(("strong", "easy"), float("nan")))
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
