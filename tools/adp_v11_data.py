"""Data for measuring and refitting V_11 (issue 13, fl14): 11-card afterstates with exact targets.

For each board played to 9 cards (by ``--behaviour``: ``fit`` = the fitting's mix of
``tools/adp_fit.py``'s ``play_board``, ``strong`` = strong's own choice, 8 × 24 look-ahead), a
street 4 is drawn from the unseen cards (and four opponents' cards join the dead ones, as
:func:`game.adp.next_street_target` does) and *every* afterstate of it is kept with its exact
V_11 (:func:`game.adp.exact_last`) at the board's knobs: the boards street 3's look-ahead asks
V_11 about. Writes an ``.npz`` of the boards (card indices, -1 for none), dead-card masks,
knobs and targets.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import adp_fit

from game import adp
from game.board import Board
from game.cards import DECK, Card

OPTS = adp_fit.OPTS


def strong_board(seed: int, f: float, c: float) -> tuple[Board, tuple[Card, ...]]:
    """A board played to 9 cards by strong's choice (8 × 24 look-ahead), with its dead."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    board = Board()
    own_dead: list[Card] = []
    i = 0
    opp_cards: list[Card] = []
    for street in range(3):
        take = 5 if street == 0 else 3
        cards = deck[i : i + take]
        i += take
        discards = 0 if street == 0 else 1
        n_after = board.count + take - discards
        opp = max(0, 2 * n_after - rng.randint(0, 4))
        pool = deck[i:]
        opp_cards = rng.sample(pool, min(opp, len(pool) - 20))
        dead = tuple(own_dead) + tuple(opp_cards)
        assert adp.MODEL is not None
        moves = adp.choose(
            adp.MODEL,
            board,
            cards,
            discards,
            dead,
            OPTS,
            f,
            c,
            tail_draws=-1,
            expand=8,
            next_streets=24,
        )
        assert moves is not None
        board, thrown = adp_fit._place(board, moves)
        own_dead.extend(thrown)
        deck = deck[:i] + [x for x in deck[i:] if x not in opp_cards] + opp_cards
    return board, tuple(own_dead) + tuple(opp_cards)


Row = tuple[Board, frozenset[Card], float, float, tuple[float, float, float]]


def expand(
    board: Board, dead: tuple[Card, ...], f: float, c: float, rng: random.Random
) -> list[Row]:
    known = set(board.cards()) | set(dead)
    pool = [x for x in DECK if x not in known]
    drawn = rng.sample(pool, 7)
    cards, opp = drawn[:3], drawn[3:]
    here = frozenset(dead) | frozenset(opp)
    out: list[Row] = []
    for _p, after, thrown in adp.afterstates(board, cards, 1):
        d = here | frozenset(thrown)
        y = adp.exact_last(after, d, OPTS, f, c)
        out.append((after, d, f, c, y))
    return out


def encode(rows: list[Row]) -> dict[str, Any]:
    cards = np.full((len(rows), 13), -1, dtype=np.int16)
    dead = np.zeros((len(rows), 52), dtype=bool)
    for k, (b, d, *_r) in enumerate(rows):
        idx = [x.index for x in b.top] + [-1] * (3 - len(b.top))
        idx += [x.index for x in b.middle] + [-1] * (5 - len(b.middle))
        idx += [x.index for x in b.bottom] + [-1] * (5 - len(b.bottom))
        cards[k] = idx
        for x in d:
            dead[k, x.index] = True
    knobs = np.array([[r[2], r[3]] for r in rows])
    y = np.array([r[4] for r in rows])
    return {"cards": cards, "dead": dead, "knobs": knobs, "y": y}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--behaviour", choices=("fit", "strong"), default="fit")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--streets", type=int, default=1, help="street 4s drawn per 9-card board")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows: list[Row] = []
    t0 = time.time()
    for i in range(a.boards):
        s = a.seed * 1_000_003 + i
        rng = random.Random(s * 31 + 7)
        if a.behaviour == "strong":
            f, c = 60.0, 35.0
            board, dead = strong_board(s, f, c)
        else:
            played = adp_fit.play_board(s, adp.MODEL)
            _n, board, dead, f, c = played[2]
        for _ in range(a.streets):
            rows.extend(expand(board, dead, f, c, rng))
        if i % 200 == 0:
            print(i, len(rows), f"{time.time() - t0:.0f} s", flush=True)
    np.savez_compressed(a.out, **encode(rows))
    print("wrote", a.out, len(rows), f"{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
