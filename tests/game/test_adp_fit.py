"""``tools/adp_fit.py --refit-9`` (issue 13, fifteenth session): its samples are the
afterstates ``strong``'s street 3 compares, and the refit starts from the old V_9's weights."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from game import adp

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import adp_fit


def test_r3_2_street_three_samples_are_v9s_best_afterstates_and_two_others() -> None:
    """Of one drawn street 3 (keep two, discard one, R3.2), the ``per_board − 2`` best
    afterstates by the model's V_9 and two others; F and C near ``strong``'s knobs."""
    model = adp.MODEL
    assert model is not None
    got = adp_fit.street3_samples(12345, model, 6)
    assert len(got) == 6
    assert all(b.count == 9 for b, _d, _f, _c in got)
    f, c = got[0][2], got[0][3]
    assert 50.0 <= f <= 70.0 and 30.0 <= c <= 40.0
    values = model.values([(b, frozenset(d)) for b, d, _f, _c in got], f, c)
    assert values[:4] == sorted(values[:4], reverse=True)
    assert min(values[:4]) >= max(values[4:])


def test_a_warm_started_fit_without_epochs_keeps_the_old_weights() -> None:
    """``fit(..., init=net)`` starts from ``net`` and keeps its standardisation; with no
    epochs the net comes back unchanged."""
    model = adp.MODEL
    assert model is not None
    old = model.nets[9]
    init = {k: getattr(old, k).tolist() for k in ("mean", "scale", "w1", "b1", "w2", "b2")}
    rng = np.random.default_rng(0)
    x = old.mean + old.scale * rng.normal(size=(50, len(old.mean)))
    y = np.column_stack([rng.random(50), rng.random(50), rng.normal(3, 1, 50)])
    got = adp_fit.fit(x, y, 8, 1, 0, init, 1e-3)
    for k in init:
        assert np.allclose(got[k], init[k])
    moved = adp_fit.fit(x, y, 8, 1, 3, init, 1e-3)
    assert np.array(moved["mean"]).tolist() == init["mean"]
