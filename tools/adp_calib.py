"""How well strong's look-ahead predicts its own boards, by class of afterstate (issue 13, fl20).

Run: ``python tools/adp_calib.py SEED DECKS OUT.json`` (plays), then ``python
tools/adp_calib.py --table OUT.json ...`` (prints). Each of ``DECKS`` decks (drawn from
``SEED``) is dealt three times, ``strong`` in each seat against two ``easy`` (three-player
Pineapple, the default rules). For every placement of ``strong``'s streets 1–3 the chosen
afterstate's components from the look-ahead that chose it (:func:`game.adp.choose` with the
policy's knobs: the mean over the drawn next streets of the best fitted value after them) and
from the fitted value alone are kept, with the afterstate's cards and
:func:`game.adp.top_class`; at the end of the hand the board's outcome (Fantasyland entry,
R6.1; foul, R2.3). ``--table`` prints, per (cards, class), the count, the realized rates and the
predicted means, and the offsets (realized − look-ahead) shrunk by n / (n + 200), the form of
``game.policy.STRONG_ADP_CALIB_TABLE``. Since fl21 each record keeps the afterstate (its boxes
and the cards known out), and ``--resid OUT.json ... [FEATURE ...]`` fits and prints
``game.policy.STRONG_ADP_RESID_TABLE``: per cards, a ridge regression of the realized −
look-ahead P(Fantasyland) and P(foul) on :func:`game.adp.residual_features` (only the named
ones if any are named), with its out-of-sample mean square when given two or more files.
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game import adp
from game.actions import Arrange
from game.board import Board, Box, assess_board
from game.cards import DECK, Card, parse_card, shuffled_deck
from game.hand import Hand, HandSetup
from game.options import RuleOptions
from game.policy import Level, decide, knowledge

RECORDS: list[dict[str, Any]] = []
TAG = [""]
_CHOOSE = adp.choose


def _recording(
    model: adp.AdpModel,
    board: Board,
    cards: Sequence[Card],
    discards: int,
    dead: Collection[Card],
    options: RuleOptions,
    fl: float,
    foul: float,
    **kw: Any,
) -> list[tuple[Card, Box | None]] | None:
    """:func:`game.adp.choose`, keeping the chosen afterstate's predictions (streets 1–3)."""
    moves = _CHOOSE(model, board, cards, discards, dead, options, fl, foul, **kw)
    after_n = board.count + len(cards) - discards
    if moves is None or after_n not in (5, 7, 9):
        return moves
    after = board
    for c, b in moves:
        if b is not None:
            after = after.with_card(b, c)
    thrown = frozenset(c for c, b in moves if b is None)
    on_board = set(board.cards())
    known = frozenset(c for c in dead if c not in on_board and c not in cards)
    # the same draws as choose's (seeded by the cards)
    seed = sum((i + 1) * c.index for i, c in enumerate([*board.cards(), *cards]))
    rng = random.Random(seed)
    unknown = [c for c in DECK if c not in known and c not in on_board and c not in cards]
    streets = [rng.sample(unknown, 7) for _ in range(kw["next_streets"])]
    nexts = [(s[:3], s[3:]) for s in streets if not set(s) & thrown]
    ahead = adp.next_street_target(
        after, known | thrown, nexts, lambda p: model.components_many(p, fl, foul), fl, foul
    )
    direct = model.components_many([(after, known | thrown)], fl, foul)[0]
    RECORDS.append(
        {
            "n": after_n,
            "k": adp.top_class(after),
            "o": list(ahead),
            "d": [float(x) for x in direct],
            "tag": TAG[0],
            # the afterstate itself (fl21: residual features read off it)
            "b": [[c.code_str() for c in box] for box in (after.top, after.middle, after.bottom)],
            "x": sorted(c.code_str() for c in known | thrown),
        }
    )
    return moves


def play(seed: str, decks: int, out: str) -> None:
    """Play and write the records and outcomes to ``out``."""
    adp.choose = _recording  # type: ignore[assignment]
    options = RuleOptions()
    rng = random.Random(seed)
    results = []
    for n in range(decks):
        deck = shuffled_deck(rng=rng)
        for seat in range(3):
            lineup = tuple("strong" if i == seat else "easy" for i in range(3))
            hand = Hand(HandSetup.deal(options, (0, 1, 2), 2, deck=deck))
            prng = random.Random(n * 3 + seat)
            TAG[0] = f"{n}-{seat}"
            while not hand.is_over:
                s = hand.to_act[0]
                hand.apply(Arrange(s, tuple(decide(knowledge(hand, s), Level(lineup[s]), prng))))
            assert hand.result is not None
            r = hand.result.seat(seat)
            a = assess_board(r.board, options)
            fl = bool(a.fantasyland_cards) and not a.fouled
            results.append({"tag": TAG[0], "foul": bool(r.fouled), "fl": fl})
    Path(out).write_text(json.dumps({"rec": RECORDS, "res": results}))


def table(paths: Sequence[str]) -> None:
    """Print the calibration of the look-ahead and the fitted value per (cards, class)."""
    records: list[dict[str, Any]] = []
    outcome: dict[str, dict[str, Any]] = {}
    for path in paths:
        data = json.loads(Path(path).read_text())
        outcome.update({path + r["tag"]: r for r in data["res"]})
        # (a hand cut short has records but no outcome)
        records += [dict(r, tag=path + r["tag"]) for r in data["rec"] if path + r["tag"] in outcome]
    boards = len(outcome)
    fl = sum(r["fl"] for r in outcome.values()) / boards
    fouls = sum(r["foul"] for r in outcome.values()) / boards
    print(f"boards {boards}, Fantasyland {fl:.3f}, fouls {fouls:.3f}")
    cells: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        cells[(r["n"], r["k"])].append(r)
    for key in sorted(cells):
        rs = cells[key]
        n = len(rs)
        real = [sum(outcome[r["tag"]][x] for r in rs) / n for x in ("fl", "foul")]
        look = [sum(r["o"][j] for r in rs) / n for j in (0, 1)]
        direct = [sum(r["d"][j] for r in rs) / n for j in (0, 1)]
        se = [(p * (1 - p) / n) ** 0.5 for p in real]
        w = n / (n + 200)
        print(
            f"{key}: n {n}, FL real {real[0]:.3f} ± {se[0]:.3f} look-ahead {look[0]:.3f} "
            f"fitted {direct[0]:.3f}; foul real {real[1]:.3f} ± {se[1]:.3f} look-ahead "
            f"{look[1]:.3f} fitted {direct[1]:.3f}; offsets shrunk "
            f"({w * (real[0] - look[0]):.3f}, {w * (real[1] - look[1]):.3f})"
        )


def _residual_rows(
    paths: Sequence[str],
) -> list[tuple[int, str, list[float], float, float, int]]:
    """Per record of ``paths`` (written with the afterstates, fl21): (cards, class,
    :func:`game.adp.residual_features`, realized − look-ahead P(Fantasyland), the same of
    P(foul), the file's index)."""
    rows = []
    for fi, path in enumerate(paths):
        data = json.loads(Path(path).read_text())
        outcome = {r["tag"]: r for r in data["res"]}
        for r in data["rec"]:
            if r["tag"] not in outcome:  # a hand cut short
                continue
            board = Board(*(tuple(parse_card(x) for x in box) for box in r["b"]))
            dead = frozenset(parse_card(x) for x in r["x"])
            o = outcome[r["tag"]]
            x = adp.residual_features(board, dead)
            rows.append((r["n"], r["k"], x, o["fl"] - r["o"][0], o["foul"] - r["o"][1], fi))
    return rows


def resid(paths: Sequence[str], ridge: float = 30.0, only: Collection[str] = ()) -> None:
    """Fit and print ``game.policy.STRONG_ADP_RESID_TABLE``: per cards after the street, the
    ridge regression (penalty ``ridge``, the intercept free) of the realized − look-ahead
    P(Fantasyland) and P(foul) on ``(1, *residual_features)``; with two or more files, first
    the value residual's (F 60, C 35) mean square out of sample (fitted on the other files)
    with no correction, the class offsets alone and the features. ``only``: the features
    named there alone (the others' weights 0)."""
    import numpy as np

    rows = _residual_rows(paths)
    fl, foul = 60.0, 35.0
    weights: dict[int, tuple[dict[str, float], dict[str, float]]] = {}
    for n in (5, 7, 9):
        sub = [r for r in rows if r[0] == n]
        keep = [not only or name in only for name in adp.RESIDUAL_FEATURES]
        x = np.array(
            [[1.0, *(v if k else 0.0 for v, k in zip(r[2], keep, strict=True))] for r in sub]
        )
        y = np.array([[r[3], r[4]] for r in sub])
        cls = np.array([[1.0, r[1] == "lone", r[1] == "qq"] for r in sub], dtype=float)
        files = np.array([r[5] for r in sub])

        def fit(a: Any, b: Any) -> Any:
            pen = np.eye(a.shape[1]) * ridge
            pen[0, 0] = 0.0
            used = np.any(a != 0.0, axis=0)
            w = np.zeros((a.shape[1], b.shape[1]))
            w[used] = np.linalg.solve((a.T @ a + pen)[np.ix_(used, used)], (a.T @ b)[used])
            return w

        if len(paths) > 1:
            sq = [0.0, 0.0, 0.0]
            for f in range(len(paths)):
                tr, te = files != f, files == f
                v = fl * y[te, 0] - foul * y[te, 1]
                for j, a in enumerate((None, cls, x)):
                    if a is None:
                        pred = np.zeros_like(v)
                    else:
                        p = a[te] @ fit(a[tr], y[tr])
                        pred = fl * p[:, 0] - foul * p[:, 1]
                    sq[j] += float(np.sum((v - pred) ** 2))
            print(
                f"{n} cards: n {len(sub)}, value residual mean square out of sample: none "
                f"{sq[0] / len(sub):.2f}, classes {sq[1] / len(sub):.2f}, features "
                f"{sq[2] / len(sub):.2f}"
            )
        w = fit(x, y)
        names = ("1", *adp.RESIDUAL_FEATURES)
        w_fl, w_foul = (
            {k: round(float(v), 4) for k, v in zip(names, w[:, j], strict=True) if v}
            for j in (0, 1)
        )
        weights[n] = (w_fl, w_foul)
    print(repr(weights))


if __name__ == "__main__":
    if sys.argv[1] == "--table":
        table(sys.argv[2:])
    elif sys.argv[1] == "--resid":
        names = [a for a in sys.argv[2:] if not a.endswith(".json")]
        resid([a for a in sys.argv[2:] if a.endswith(".json")], only=names)
    else:
        play(sys.argv[1], int(sys.argv[2]), sys.argv[3])
