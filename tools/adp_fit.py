"""Fit ``game/adp_model.json`` by backward induction (issue 13; :mod:`game.adp`).

Run: ``python tools/adp_fit.py`` (``--boards N`` per board size, ``--next K`` sampled next
streets per board, ``--last D`` sampled last streets per 11-card board, ``--workers W``,
``--hidden H``, ``--seed S``, ``--behaviour adp`` with ``--model PATH`` to play half the
boards by a fitted model; ``--out PATH``). Uses numpy (a dependency of the game too). The committed
model: four rounds, each sampling its boards from the previous one's play (see README).

1. Boards: single Pineapple boards are played from an empty board by a behaviour policy (the
   fast heuristic, chasing Fantasyland or not; about a third of those boards keep a queen or
   better on top, pairing it when they can; random placements mixed in; with ``--behaviour
   adp`` half the boards are played by the model), and the
   afterstates after streets 1–4 (5, 7, 9, 11 cards) are kept, each with the cards the seat
   would know are out (its discards and a random set standing in for the two opponents' open
   cards, R3.3) and random knobs F ∈ [10, ``--fl-max`` 50], C ∈ [10, ``--foul-max`` 40]
   (:mod:`game.adp`).
2. V_11: for each 11-card board, the mean over ``D`` last streets drawn from the unseen cards
   of the best finish's (Fantasyland, foul, royalties) (:func:`game.adp.best_finish`: the
   exact search over keeps and slots for the objective ``royalties + F·FL − C·foul``).
3. V_9, V_7, V_5: for each board, the mean over ``K`` next streets (three unseen cards, and
   four more cards turned up by the opponents) of the components of the afterstate with the
   highest fitted value one size up (the model just fitted).

``--last 0`` takes V_11's targets exactly over every last street (:func:`game.adp.exact_last`)
and ``--exact-9`` V_9's from the exact V_11 of every afterstate instead of the fitted one.
``--refit-9 N`` (fifteenth session) refits only V_9 of ``--model`` to ``strong``'s on-policy
targets on the afterstates its street 3 compares (:func:`refit_9`), the other sizes copied;
``OFC_ADP_MODEL=PATH`` makes :mod:`game.adp` load such a file instead of the committed one.

Each size gets a one-hidden-layer perceptron (three outputs: P(FL) and P(foul) through a
sigmoid with cross-entropy, royalties with squared error), fitted with Adam in numpy.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game import adp, policy
from game.board import Board, Box
from game.cards import DECK, Card
from game.options import RuleOptions
from game.strategy import _fantasyland_reach, _greedy, _static_value

OPTS = RuleOptions()
#: The largest F and C drawn (``--fl-max``, ``--foul-max``); set before the workers start.
KNOBS = [50.0, 40.0]
Sample = tuple[Board, tuple[Card, ...], float, float]  # board, dead, F, C


def _place(board: Board, moves: Sequence[tuple[Card, Box | None]]) -> tuple[Board, list[Card]]:
    thrown = []
    for c, b in moves:
        if b is None:
            thrown.append(c)
        else:
            board = board.with_card(b, c)
    return board, thrown


def play_board(
    seed: int, behaviour: adp.AdpModel | None
) -> list[tuple[int, Board, tuple[Card, ...], float, float]]:
    """One board from empty, the afterstates after streets 1–4 with their dead cards."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    chase = rng.random() < 0.5
    seek = rng.random() < 0.35  # a board that goes for a queen or better on top
    if behaviour is not None and rng.random() < 0.5:
        seek = False  # half the boards follow the model itself (with the random placements)
    else:
        behaviour = None
    eps = rng.choice((0.0, 0.1, 0.25))
    f = rng.uniform(10.0, KNOBS[0])
    c = rng.uniform(10.0, KNOBS[1])
    board = Board()
    own_dead: list[Card] = []
    out = []
    i = 0
    for street in range(4):
        take = 5 if street == 0 else 3
        cards = deck[i : i + take]
        i += take
        discards = 0 if street == 0 else 1
        n_after = board.count + take - discards
        opp = max(0, 2 * n_after - rng.randint(0, 4))
        pool = deck[i:]
        opp_cards = rng.sample(pool, min(opp, len(pool) - 20))
        dead = tuple(own_dead) + tuple(opp_cards)
        options = adp.afterstates(board, cards, discards)
        on_line = [o for o in options if _fantasyland_reach(o[1]) > 0]
        if seek and on_line and rng.random() < 0.8:
            made = [o for o in on_line if _fantasyland_reach(o[1]) >= 2]
            if made and rng.random() < 0.8:
                on_line = made
            on_line.sort(key=lambda o: _static_value(board, o[0]), reverse=True)
            moves = rng.choice(on_line[:3])[0]
        elif rng.random() < eps:
            moves = rng.choice(options)[0]
        elif behaviour is not None:
            got = adp.choose(behaviour, board, cards, discards, dead, OPTS, f, c)
            assert got is not None
            moves = got
        else:
            moves = _greedy(board, cards, take - discards, chase)
        board, thrown = _place(board, moves)
        own_dead.extend(thrown)
        dead = tuple(own_dead) + tuple(opp_cards)
        out.append((board.count, board, dead, f, c))
        # the opponents' cards stay out of this board's deck from now on
        deck = deck[:i] + [x for x in deck[i:] if x not in opp_cards] + opp_cards
    return out


def unseen(board: Board, dead: Sequence[Card]) -> list[Card]:
    known = set(board.cards()) | set(dead)
    return [c for c in DECK if c not in known]


def target_last(args: tuple[Sample, int, int]) -> tuple[list[float], list[float]]:
    """Features and the V_11 target (mean FL, foul, royalties of the best finish)."""
    (board, dead, f, c), draws, seed = args
    if draws == 0:  # exactly, over every last street
        y = adp.exact_last(board, dead, OPTS, f, c)
        return [*adp.features(board, dead), f / 50, c / 50], list(y)
    rng = random.Random(seed)
    deck = unseen(board, dead)
    y = adp.last_street_target(board, (rng.sample(deck, 3) for _ in range(draws)), OPTS, f, c)
    return [*adp.features(board, dead), f / 50, c / 50], list(y)


_NET: adp.AdpModel | None = None
#: ``--exact-9``: V_9's targets take every next street's afterstates at their exact V_11
#: (:func:`game.adp.exact_last`) instead of the fitted V_11's (the worker's, as ``_NET``).
_EXACT_9 = False


def _init(model_json: str, exact_9: bool = False) -> None:
    global _NET, _EXACT_9
    _NET = adp.AdpModel(json.loads(model_json)) if model_json else None
    _EXACT_9 = exact_9


def _exact_many(
    pairs: Sequence[tuple[Board, frozenset[Card]]], f: float, c: float
) -> list[tuple[float, float, float]]:
    return [adp.exact_last(b, d, OPTS, f, c) for b, d in pairs]


def target_next(args: tuple[Sample, int, int]) -> tuple[list[float], list[float]]:
    """Features and the V_n target from the fitted V_{n+2} (the worker's model)."""
    (board, dead, f, c), k, seed = args
    assert _NET is not None
    rng = random.Random(seed)
    net = _NET
    deck = unseen(board, dead)
    streets = []
    for _ in range(k):
        drawn = rng.sample(deck, 7)
        streets.append((drawn[:3], drawn[3:]))
    if _EXACT_9 and board.count == 9:
        y = adp.next_street_target(board, dead, streets, lambda p: _exact_many(p, f, c), f, c)
    else:
        y = adp.next_street_target(
            board, dead, streets, lambda pairs: net.components_many(pairs, f, c), f, c
        )
    return [*adp.features(board, dead), f / 50, c / 50], list(y)


def fit(
    x: np.ndarray,
    y: np.ndarray,
    hidden: int,
    seed: int,
    epochs: int = 60,
    init: dict[str, object] | None = None,
    lr: float = 3e-3,
) -> dict[str, object]:
    """A one-hidden-layer perceptron: outputs 0, 1 sigmoid (cross-entropy), 2 linear (MSE);
    ``init``: start from these weights (a net of the model file, its standardisation kept)
    instead of random ones, ``hidden`` then ignored; the held-out best epoch is kept (the
    start included)."""
    rng = np.random.default_rng(seed)
    if init is None:
        mean = x.mean(0)
        scale = x.std(0)
        scale[scale < 1e-6] = 1.0
    else:
        mean = np.array(init["mean"], dtype=np.float64)
        scale = np.array(init["scale"], dtype=np.float64)
    z = (x - mean) / scale
    n, d = z.shape
    if init is None:
        w1 = rng.normal(0, 1 / np.sqrt(d), (hidden, d))
        b1 = np.zeros(hidden)
        w2 = rng.normal(0, 1 / np.sqrt(hidden), (3, hidden))
        b2 = np.zeros(3)
    else:
        w1, b1, w2, b2 = (np.array(init[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2"))
    roy_scale = max(1.0, float(y[:, 2].std()))
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    idx = np.arange(n)
    val = idx[: n // 10]
    tr = idx[n // 10 :]

    def forward(zb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        a = zb @ w1.T + b1
        h = np.maximum(a, 0)
        return a, h, h @ w2.T + b2

    def loss(zb: np.ndarray, yb: np.ndarray) -> float:
        _, _, o = forward(zb)
        p = 1 / (1 + np.exp(-np.clip(o[:, :2], -30, 30)))
        ce = -(yb[:, :2] * np.log(p + 1e-9) + (1 - yb[:, :2]) * np.log(1 - p + 1e-9)).mean()
        mse = (((o[:, 2] - yb[:, 2]) / roy_scale) ** 2).mean()
        return float(ce + mse)

    best_loss, best_params = float("inf"), [p.copy() for p in params]
    for _ in range(epochs):
        held = loss(z[val], y[val])
        if held < best_loss:
            best_loss, best_params = held, [p.copy() for p in params]
        rng.shuffle(tr)
        for s in range(0, len(tr), 128):
            bi = tr[s : s + 128]
            zb, yb = z[bi], y[bi]
            a, h, o = forward(zb)
            p = 1 / (1 + np.exp(-np.clip(o[:, :2], -30, 30)))
            g = np.zeros_like(o)
            g[:, :2] = p - yb[:, :2]
            g[:, 2] = 2 * (o[:, 2] - yb[:, 2]) / roy_scale**2
            g /= len(bi)
            gw2 = g.T @ h
            gb2 = g.sum(0)
            gh = g @ w2 * (a > 0)
            gw1 = gh.T @ zb + 1e-3 * w1
            gb1 = gh.sum(0)
            step += 1
            for j, gr in enumerate((gw1, gb1, gw2, gb2)):
                m[j] = 0.9 * m[j] + 0.1 * gr
                v[j] = 0.999 * v[j] + 0.001 * gr * gr
                mh = m[j] / (1 - 0.9**step)
                vh = v[j] / (1 - 0.999**step)
                params[j] -= lr * mh / (np.sqrt(vh) + 1e-8)
    if loss(z[val], y[val]) > best_loss:
        for p, b in zip(params, best_params, strict=True):
            p[...] = b
    print(f"    fit: train loss {loss(z[tr], y[tr]):.4f}, held-out {loss(z[val], y[val]):.4f}")
    _, _, o = forward(z[val])
    pv = 1 / (1 + np.exp(-o[:, :2]))
    err = [np.abs(pv[:, j] - y[val, j]).mean() for j in (0, 1)]
    err.append(np.abs(o[:, 2] - y[val, 2]).mean())
    print(
        f"    held-out mean |err|: FL {err[0]:.3f} foul {err[1]:.3f} roy {err[2]:.2f}"
        f" (targets: FL {y[:, 0].mean():.3f} foul {y[:, 1].mean():.3f} roy {y[:, 2].mean():.2f})"
    )
    return {
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "w1": w1.tolist(),
        "b1": b1.tolist(),
        "w2": w2.tolist(),
        "b2": b2.tolist(),
    }


def street3_samples(seed: int, model: adp.AdpModel, per_board: int) -> list[Sample]:
    """``--refit-9``'s samples: a board played to 7 cards by :func:`play_board`'s mix, one
    street 3 drawn (and four cards the opponents turn up), and of its 9-card afterstates the
    ``per_board − 2`` best by ``model``'s V_9 (the ones ``strong``'s street 3 compares) and
    two others at random, each with F ∈ [F_s − 10, F_s + 10], C ∈ [C_s − 5, C_s + 5] around
    ``strong``'s knobs (``game.policy.STRONG_ADP_FL``, ``STRONG_ADP_FOUL``)."""
    _n, board, dead, _f, _c = play_board(seed, model)[1]
    rng = random.Random(seed + 17)
    drawn = rng.sample(unseen(board, dead), 7)
    here = frozenset(dead) | frozenset(drawn[3:])
    f = rng.uniform(policy.STRONG_ADP_FL - 10, policy.STRONG_ADP_FL + 10)
    c = rng.uniform(policy.STRONG_ADP_FOUL - 5, policy.STRONG_ADP_FOUL + 5)
    pairs = [(a, here | frozenset(t)) for _p, a, t in adp.afterstates(board, drawn[:3], 1)]
    values = model.values(pairs, f, c)
    order = sorted(range(len(pairs)), key=lambda i: -values[i])
    top, rest = order[: per_board - 2], order[per_board - 2 :]
    picked = top + rng.sample(rest, min(2, len(rest)))
    return [(pairs[i][0], tuple(pairs[i][1]), f, c) for i in picked]


def refit_9(a: argparse.Namespace) -> None:
    """``--refit-9 N``: V_9 of ``--model`` (default the committed) refitted to ``strong``'s
    on-policy targets, the other sizes copied (fifteenth session, issue 13).

    The target of a 9-card afterstate is the return of ``strong``'s own play from it at its
    F, C: the mean over ``--next`` drawn street 4s of the exact (P(Fantasyland), P(foul),
    royalties) (:func:`game.adp.exact_last`) of the afterstate ``strong`` takes there (it
    values street 4's afterstates by that same exact expectation, ``STRONG_ADP_TAIL=-1``, and
    plays the last street exactly): the Monte Carlo return with the last street's chance
    averaged out. Blended as ``--blend`` × that + (1 − ``--blend``) × the old V_9's output,
    fitted from the old V_9's weights (``--epochs``, learning rate ``--lr``)."""
    path = Path(a.model) if a.model else Path(adp.__file__).with_name("adp_model.json")
    data = json.loads(path.read_text())
    model = adp.AdpModel(data)
    t0 = time.time()
    seeds = [a.seed * 1_000_003 + i for i in range(a.refit_9)]
    samples = [s for seed in seeds for s in street3_samples(seed, model, a.per_board)]
    print(f"{len(samples)} afterstates of {a.refit_9} boards ({time.time() - t0:.0f} s)")
    jobs = [(s, a.next, a.seed * 7919 + i) for i, s in enumerate(samples)]
    with Pool(a.workers, initializer=_init, initargs=(json.dumps(data), True)) as pool:
        res = pool.map(target_next, jobs, chunksize=20)
    x = np.array([r[0] for r in res])
    y = np.array([r[1] for r in res])
    print(f"V_9: {len(res)} on-policy targets ({time.time() - t0:.0f} s)")
    if a.save_targets:
        np.savez(a.save_targets, x=x, y=y)
    old = adp._Net(data["nets"]["9"]).run_many(x.tolist())
    e = np.abs(old - y).mean(0)
    print(f"    old V_9 mean |err|: FL {e[0]:.3f} foul {e[1]:.3f} roy {e[2]:.2f}")
    y = a.blend * y + (1 - a.blend) * old
    data["nets"]["9"] = fit(x, y, a.hidden, a.seed + 9, a.epochs, data["nets"]["9"], a.lr)
    Path(a.out).write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {a.out} ({time.time() - t0:.0f} s in all)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=4000)
    ap.add_argument("--next", type=int, default=10)
    ap.add_argument(
        "--last-boards", type=int, default=0, help="11-card boards (default 3 × --boards)"
    )
    ap.add_argument("--last", type=int, default=100, help="0: every last street, exactly")
    ap.add_argument("--exact-9", action="store_true", help="V_9's targets by the exact V_11")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--behaviour", choices=("heuristic", "adp"), default="heuristic")
    ap.add_argument("--fl-max", type=float, default=50.0)
    ap.add_argument("--foul-max", type=float, default=40.0)
    ap.add_argument("--model", default="", help="the behaviour model (default: the committed)")
    ap.add_argument("--out", default=str(Path(adp.__file__).with_name("adp_model.json")))
    ap.add_argument(
        "--refit-9",
        type=int,
        default=0,
        metavar="N",
        help="refit only V_9 of --model to strong's on-policy targets over N boards",
    )
    ap.add_argument("--per-board", type=int, default=8, help="--refit-9: afterstates a board")
    ap.add_argument("--blend", type=float, default=1.0, help="--refit-9: on-policy share")
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--save-targets", default="", help="--refit-9: an .npz of x, y")
    a = ap.parse_args()
    if a.refit_9:
        refit_9(a)
        return
    KNOBS[:] = [a.fl_max, a.foul_max]
    behaviour = None
    if a.behaviour == "adp":
        behaviour = adp.MODEL
        if a.model:
            behaviour = adp.AdpModel(json.loads(Path(a.model).read_text()))
    t0 = time.time()
    by_size: dict[int, list[Sample]] = {5: [], 7: [], 9: [], 11: []}
    n_last = a.last_boards or 3 * a.boards
    seeds = [a.seed * 1_000_003 + i for i in range(max(a.boards, n_last))]
    with Pool(a.workers) as pool:
        for rows in pool.starmap(play_board, [(s, behaviour) for s in seeds], chunksize=50):
            for n, board, dead, f, c in rows:
                if len(by_size[n]) < (n_last if n == 11 else a.boards):
                    by_size[n].append((board, dead, f, c))
    print(f"boards played: {a.boards} ({time.time() - t0:.0f} s)")
    nets: dict[str, object] = {}
    model_json = ""
    for n in (11, 9, 7, 5):
        t = time.time()
        jobs = [
            (s, a.last if n == 11 else a.next, a.seed * 7919 + i) for i, s in enumerate(by_size[n])
        ]
        with Pool(a.workers, initializer=_init, initargs=(model_json, a.exact_9)) as pool:
            fn = target_last if n == 11 else target_next
            res = pool.map(fn, jobs, chunksize=20)
        x = np.array([r[0] for r in res])
        y = np.array([r[1] for r in res])
        print(f"V_{n}: {len(res)} targets ({time.time() - t:.0f} s)")
        nets[str(n)] = fit(x, y, a.hidden, a.seed + n, a.epochs, None, a.lr)
        model_json = json.dumps({"features": list(adp.FEATURES), "nets": nets})
    Path(a.out).write_text(
        json.dumps({"features": list(adp.FEATURES), "nets": nets}, separators=(",", ":")) + "\n"
    )
    print(f"wrote {a.out} ({time.time() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()
