"""Kush settlement (R8.4, R5.7, R7.6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.errors import SettlementError
from game.settlement import settle


def test_r8_4_cap_with_three_short_stacks_in_r5_7_order() -> None:
    # acting order p1=0, p2=1, button=2: (0,1), (0,2), (1,2) is the R5.7 order
    pairs = [(0, 1, 10), (0, 2, 20), (1, 2, -15)]
    s = settle(pairs, {0: 5, 1: 8, 2: 12})
    assert [(t.payer, t.payee, t.owed, t.amount) for t in s.transfers] == [
        (1, 0, 10, 8),  # seat 1 had only 8
        (2, 0, 20, 12),  # the button had only 12
        (1, 2, 15, 0),  # seat 1 is empty by now: nothing left to pay
    ]
    assert s.after == {0: 25, 1: 0, 2: 0}
    assert sum(s.deltas.values()) == 0


def test_r8_4_order_matters_only_for_the_cap() -> None:
    pairs = [(0, 1, 10), (0, 2, 20), (1, 2, -15)]
    rich = settle(pairs, {0: 100, 1: 100, 2: 100})
    reordered = settle([pairs[2], pairs[1], pairs[0]], {0: 100, 1: 100, 2: 100})
    assert rich.after == reordered.after == {0: 130, 1: 75, 2: 95}
    # seat 1 owes 10 to each opponent but has only 10: whoever settles first is paid
    owes = [(0, 1, 10), (0, 2, 0), (1, 2, -10)]
    assert settle(owes, {0: 20, 1: 10, 2: 20}).after == {0: 30, 1: 0, 2: 20}
    assert settle(owes[::-1], {0: 20, 1: 10, 2: 20}).after == {0: 20, 1: 0, 2: 30}


def test_r7_6_kush_per_point_multiplies() -> None:
    s = settle([(0, 1, 3)], {0: 50, 1: 50}, kush_per_point=10)
    assert s.after == {0: 80, 1: 20}


def test_r8_4_refuses_bad_input() -> None:
    with pytest.raises(SettlementError):
        settle([(0, 1, 3)], {0: -1, 1: 5})
    with pytest.raises(SettlementError):
        settle([(0, 9, 3)], {0: 1, 1: 5})
    with pytest.raises(SettlementError):
        settle([(0, 1, 3)], {0: 1, 1: 5}, kush_per_point=0)


@given(
    st.lists(st.integers(0, 200), min_size=2, max_size=4).flatmap(
        lambda stacks: st.tuples(
            st.just(stacks),
            st.lists(
                st.integers(-60, 60),
                min_size=len(stacks) * (len(stacks) - 1) // 2,
                max_size=len(stacks) * (len(stacks) - 1) // 2,
            ),
        )
    )
)
def test_r8_4_never_negative_always_zero_sum(data: tuple[list[int], list[int]]) -> None:
    stacks, points = data
    n = len(stacks)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    s = settle(
        [(a, b, p) for (a, b), p in zip(pairs, points, strict=True)], dict(enumerate(stacks))
    )
    assert all(v >= 0 for v in s.after.values())
    assert sum(s.after.values()) == sum(stacks)
    for t in s.transfers:
        assert 0 <= t.amount <= t.owed
