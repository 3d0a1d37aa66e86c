"""How far the fitted V_9 is from its target with an exact-chance V_11 (issue 13, fl14).

Run: ``python tools/adp_v9_error.py BOARDS DRAWS SEED``. Boards are played to 7 cards by
``tools/adp_fit.py``'s behaviour mix (half by the committed model); for one drawn street 3
each, every afterstate (9 cards) gets a target: the mean over ``DRAWS`` drawn street 4s of the
components of the best 11-card afterstate, valued with P(Fantasyland) and P(foul) exactly
(:func:`game.adp.last_chances_many`) and the fitted royalties, at F 60 / C 35. Prints the
fitted V_9's mean |err| over all afterstates and over the one it picks, and the targets'
noise (half the difference of two halves of the draws).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import adp_fit

from game import adp
from game.board import Board
from game.cards import DECK, Card

F, C = 60.0, 35.0


def main() -> None:
    boards, k, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    model = adp.MODEL
    assert model is not None

    def v11(pairs: Sequence[tuple[Board, frozenset[Card]]]) -> list[adp.Components]:
        return model.components_many(pairs, F, C, adp_fit.OPTS)

    fitted_all, target_all, picked, noise = [], [], [], []
    t0 = time.time()
    for s in range(boards):
        _n, board, dead, _f, _c = adp_fit.play_board(900001 + seed + s, model)[1]
        rng = random.Random(s)
        pool = [x for x in DECK if x not in set(board.cards()) | set(dead)]
        drawn = rng.sample(pool, 7)
        here = frozenset(dead) | frozenset(drawn[3:])
        afts = [(a, here | frozenset(t)) for _p, a, t in adp.afterstates(board, drawn[:3], 1)]
        fitted = np.array(model.components_many(afts, F, C))
        best = int((fitted[:, 2] + F * fitted[:, 0] - C * fitted[:, 1]).argmax())
        for j, (after, d) in enumerate(afts):
            unseen = [x for x in DECK if x not in d and x not in after.cards()]
            streets = []
            for _ in range(k):
                dr = rng.sample(unseen, 7)
                streets.append((dr[:3], dr[3:]))
            y1 = np.array(adp.next_street_target(after, d, streets[: k // 2], v11, F, C))
            y2 = np.array(adp.next_street_target(after, d, streets[k // 2 :], v11, F, C))
            fitted_all.append(fitted[j])
            target_all.append((y1 + y2) / 2)
            picked.append(j == best)
            noise.append(np.abs(y1 - y2) / 2)
    p, y, pk = np.array(fitted_all), np.array(target_all), np.array(picked)
    e = np.abs(p - y)
    print(f"{boards} boards, {len(p)} afterstates, {k} street 4s each ({time.time() - t0:.0f} s)")
    print("target noise: FL {:.4f} foul {:.4f} roy {:.3f}".format(*np.mean(noise, axis=0)))
    print("all: mean |err| FL {:.4f} foul {:.4f} roy {:.3f}".format(*e.mean(0)))
    print("picked: mean |err| FL {:.4f} foul {:.4f} roy {:.3f}".format(*e[pk].mean(0)))
    print("picked: bias FL {:+.4f} foul {:+.4f}".format(*(p - y)[pk, :2].mean(0)))


if __name__ == "__main__":
    main()
