"""Fixtures of the service tests: an in-memory store, a fixed clock, a recording presenter."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.model import LiveTable
from bot.service import TableService
from bot.telegram.fake_api import FakeTelegram
from storage.api import Store
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.tg_world import TOKEN


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def run_until_dealt(service: TableService, clock: Clock, t: LiveTable) -> None:
    """Move ``clock`` 6 s at a time and fire the due timers, at most three times, until ``t``
    has a hand dealt (the deal waits a few seconds after the last Ready)."""
    for _ in range(3):
        if t.hand is not None:
            break
        clock.now += 6
        await service.run_due()


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


@pytest.fixture
async def tg_api() -> AsyncIterator[FakeTelegram]:
    """A started fake Bot API of the test's own, stopped after it: for Telegram worlds that
    restart on one database (``world(tmp_path, fake=tg_api, db=...)``, tests/bot/tg_world.py)."""
    api = FakeTelegram(TOKEN)
    await api.start()
    try:
        yield api
    finally:
        await api.stop()
