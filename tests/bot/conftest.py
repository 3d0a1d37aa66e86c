"""Fixtures of the service tests: an in-memory store, a fixed clock, a recording presenter."""

from __future__ import annotations

import random

import pytest

from bot.service import TableService
from storage.api import Store
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def service_env(
    next_hand_delay: float = 0.0, store: Store | None = None
) -> tuple[TableService, FakePresenter, Store, Clock]:
    """``(service, presenter, store, clock)``: timers off (tests call ``run_due``), the next
    hand ``next_hand_delay`` s after a showdown, decks from a seeded shuffle; ``store`` a new
    in-memory one unless given."""
    store = MemoryStore() if store is None else store
    clock = Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=next_hand_delay, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter, store, clock


@pytest.fixture
async def env() -> tuple[TableService, FakePresenter, Store, Clock]:
    """:func:`service_env` with hands dealt at once after a showdown."""
    return service_env()
