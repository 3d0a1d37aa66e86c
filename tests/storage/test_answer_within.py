"""``storage.api.answer_within``: the bound a press or a command puts on its store calls (a
silent database answered within about a second) is the calling task's, the sooner of two
nested ones holds, and tasks started within it (timers, background saves) are not bound."""

from __future__ import annotations

import asyncio

import pytest

from storage.api import answer_within, time_left


async def test_no_bound_outside_a_block() -> None:
    assert time_left() is None


async def test_the_bound_counts_down_and_the_sooner_of_two_holds() -> None:
    with answer_within(5.0):
        left = time_left()
        assert left is not None and 4.0 < left <= 5.0
        with answer_within(0.5):
            inner = time_left()
            assert inner is not None and 0.0 < inner <= 0.5
        with answer_within(60.0):  # (a longer one inside keeps the outer end)
            again = time_left()
            assert again is not None and again <= 5.0
        assert time_left() == pytest.approx(left, abs=0.5)
    assert time_left() is None


async def test_spent_is_zero_not_negative() -> None:
    with answer_within(0.01):
        await asyncio.sleep(0.05)
        assert time_left() == 0.0


async def test_a_task_started_within_the_block_is_not_bound() -> None:
    """A step's sending, a background snapshot, a timer armed by a press's commit copy the
    press's context: they must not inherit its second (spent by the time they run)."""

    async def child() -> float | None:
        return time_left()

    with answer_within(1.0):
        task = asyncio.create_task(child())
        assert await task is None


async def test_a_bound_anew_is_its_own_within_a_spent_one() -> None:
    """``anew``: a block's own time inside a command whose time is spent (each table's step
    of a settings change after the change's write); the outer one holds again after it."""
    with answer_within(0.01):
        await asyncio.sleep(0.05)
        with answer_within(5.0, anew=True):
            left = time_left()
            assert left is not None and 4.0 < left <= 5.0
        assert time_left() == 0.0
