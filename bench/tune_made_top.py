"""Search the gains of the made-top heuristic (``game.strategy.MADE_TOP_GAINS``, issue 13).

Run: ``python bench/tune_made_top.py [--boards N] [--iterations I] [--population P]
[--seed S]`` (defaults 1200, 15, 30, 1: about 5 minutes on one core, most of it dealing the
start positions).

The strong computer player's play-outs finish a board whose top holds QQ or better (R6.1) with
this heuristic, so its gains decide how well those play-outs (and the real boards) turn a
queens-up top into Fantasyland instead of a foul (R2.3). The search is a cross-entropy loop:
each iteration draws ``--population`` gain vectors from a Gaussian around the current mean,
plays the same ``--boards`` start positions with each (common random numbers), keeps the best
quarter and moves the mean and spread to them. The objective is the mean of
``game.strategy._final_value`` with a Fantasyland worth
``game.policy.STRONG_FANTASYLAND_VALUE`` (royalties, Fantasyland, a foul −14).

Start positions (a third each): QQ, KK or AA dealt in the first five cards and set on top; a
lone Q, K or A set on top on the first street and paired there on the second; the same on the
third. The streets before the pairing one are played by the strong level (positions where it
does not keep the lone card on top are dealt again), the pairing street's other cards and the
later streets by the heuristic searched, the last street exhaustively.
Everything is drawn from ``--seed``, so a run is reproducible.

It prints each iteration's best and elite mean, then the starting gains and the best found on
``--boards`` fresh positions (seed + 1), their Fantasyland and foul percentages, and the best
gains as Python to paste into ``game/strategy.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _machine import describe

from game.board import Board, Box, assess_board
from game.cards import DECK, Card
from game.options import RuleOptions
from game.policy import STRONG_FANTASYLAND_VALUE, Level, SeatKnowledge, decide
from game.strategy import (
    MADE_TOP_GAINS,
    MadeTopGains,
    _exhaustive_last,
    _final_value,
    _greedy,
)


def _place(board: Board, moves: list[tuple[Card, Box | None]]) -> Board:
    for c, b in moves:
        if b is not None:
            board = board.with_card(b, c)
    return board


Position = tuple[int, Board, list[list[Card]]]


def start_positions(seed: int, n: int) -> list[Position]:
    """``n`` positions: (the top's rank, the board before the pairing street, that street's
    and the later streets' cards). The streets before the pairing one are played by the
    strong level (:func:`game.policy.decide`); a deal where it does not keep the lone card on
    top, or fills the top, is replaced by another."""
    out: list[Position] = []
    i = 0
    options = RuleOptions()
    while len(out) < n:
        i += 1
        rng = random.Random(f"made-top-{seed}-{i}")
        rank = rng.choice((12, 13, 14))
        pairing = len(out) % 3 + 1
        tops = [c for c in DECK if c.rank == rank]
        rng.shuffle(tops)
        rest = [c for c in DECK if c.rank != rank]
        rng.shuffle(rest)
        if pairing == 1:
            streets = [[tops[0], tops[1], *rest[:3]]]
            rest = rest[3:]
        else:
            streets = [[tops[0], *rest[:4]]]
            rest = rest[4:]
        streets += [rest[3 * k : 3 * k + 3] for k in range(4)]
        if pairing > 1:
            streets[pairing - 1][0] = tops[1]
        board = Board()
        thrown: list[Card] = []
        for s in range(1, pairing):
            cards = tuple(streets[s - 1])
            k = SeatKnowledge(board, cards, 0 if s == 1 else 1, frozenset(thrown), 0, options)
            moves = decide(k, Level.STRONG, random.Random(i))
            thrown += [c for c, b in moves if b is None]
            board = _place(board, moves)
        if pairing > 1 and (tops[0] not in board.top or len(board.top) == 3):
            continue
        out.append((rank, board, streets[pairing - 1 :]))
    return out


def play(rank: int, board: Board, streets: list[list[Card]], gains: MadeTopGains) -> Board:
    """Finish ``board``: the ``rank`` cards of the first street on top, then ``gains``."""
    for s, cards in enumerate(streets):
        keep = 5 if board.count == 0 else 2
        if s == 0:
            to_top = [c for c in cards if c.rank == rank]
            for c in to_top:
                board = board.with_card(Box.TOP, c)
            others = [c for c in cards if c not in to_top]
            board = _place(board, _greedy(board, others, keep - len(to_top), True, gains))
        elif 13 - board.count == keep:
            board = _place(board, _exhaustive_last(board, cards, keep, RuleOptions()))
        else:
            board = _place(board, _greedy(board, cards, keep, True, gains))
    return board


def score(positions: list[Position], gains: MadeTopGains) -> tuple[float, float, float]:
    """Mean final value, Fantasyland % and foul % of ``gains`` over ``positions``."""
    options = RuleOptions()
    total = 0.0
    fl = foul = 0
    for rank, start, streets in positions:
        board = play(rank, start, streets, gains)
        total += _final_value(board, options, STRONG_FANTASYLAND_VALUE)
        a = assess_board(board, options)
        foul += a.fouled
        fl += bool(a.fantasyland_cards) and not a.fouled
    n = len(positions)
    return total / n, 100 * fl / n, 100 * foul / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1200)
    parser.add_argument("--iterations", type=int, default=15)
    parser.add_argument("--population", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {describe()}")
    started = time.perf_counter()
    rng = random.Random(args.seed)
    train = start_positions(args.seed, args.boards)
    names = MadeTopGains._fields
    mean = [float(v) for v in MADE_TOP_GAINS]
    spread = [max(1.0, abs(v) * 0.5) for v in mean]
    best = (score(train, MADE_TOP_GAINS)[0], MADE_TOP_GAINS)
    print(f"start: {best[0]:.3f}")
    elite_n = max(2, args.population // 4)
    for it in range(args.iterations):
        scored = []
        for _ in range(args.population):
            gains = MadeTopGains(*(rng.gauss(m, s) for m, s in zip(mean, spread, strict=True)))
            scored.append((score(train, gains)[0], gains))
        scored.sort(key=lambda t: t[0], reverse=True)
        elite = scored[:elite_n]
        if elite[0][0] > best[0]:
            best = elite[0]
        mean = [statistics.mean(g[i] for _, g in elite) for i in range(len(names))]
        spread = [max(0.1, statistics.pstdev(g[i] for _, g in elite)) for i in range(len(names))]
        print(
            f"iteration {it + 1}: best {elite[0][0]:.3f}, elite mean "
            f"{statistics.mean(v for v, _ in elite):.3f}, best so far {best[0]:.3f} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    held_out = start_positions(args.seed + 1, args.boards)
    for label, gains in (("start", MADE_TOP_GAINS), ("best", best[1])):
        value, fl, foul = score(held_out, gains)
        print(f"held out, {label}: value {value:.3f}, Fantasyland {fl:.1f} %, foul {foul:.1f} %")
    print("MADE_TOP_GAINS = MadeTopGains(")
    for name, v in zip(names, best[1], strict=True):
        print(f"    {name}={v:.2f},")
    print(")")
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
