"""Fixtures of the service tests: an in-memory store, a fixed clock, a recording presenter."""

from __future__ import annotations

import random

import pytest

from bot.service import TableService
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def env() -> tuple[TableService, FakePresenter, MemoryStore, Clock]:
    """``(service, presenter, store, clock)``: timers off (tests call ``run_due``), hands dealt
    at once after a showdown, decks from a seeded shuffle."""
    store = MemoryStore()
    clock = Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter, store, clock
