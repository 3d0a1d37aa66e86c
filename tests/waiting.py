"""Waiting for a condition in tests: by the clock, with a generous timeout, never by a count
of short sleeps (a loaded machine, CI on two busy cores, makes each sleep and each step of
the work under test take longer)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


async def until(predicate: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """Wait until ``predicate()`` is truthy, checking every 10 ms; returns its value.

    :raises AssertionError: naming ``what`` if it stays falsy for ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what or predicate}")
        await asyncio.sleep(0.01)
