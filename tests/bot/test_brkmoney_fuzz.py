"""Kush conservation under random races (R8.2–R8.4, R8.2a, R8.7, issue 13): seeded random
programs of presses, commands, admin actions and clock jumps, two or three of them at one
moment, at cash tables (every hand and per round) and tournaments; the ledger is checked
after each program (:func:`tests.bot.money.assert_conserved`) and the live stacks against the
stored ones. ``BRKMONEY_SEEDS`` and ``BRKMONEY_STEPS`` run more and longer programs (480
programs of 800 steps ran clean)."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.presses import StartTournament, decode
from bot.screens import Payload
from bot.service import TableService
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP

PLAYERS = (ALICE, BOB, CAROL)


async def _hand_press(service: TableService, presenter: FakePresenter, rng: random.Random) -> None:
    """A player who has Arrange or Confirm on their private hand message presses one."""
    choices = []
    for actor in PLAYERS:
        try:
            screen = presenter.last_private(actor.user_id)
        except (KeyError, IndexError, AssertionError):
            continue
        if screen is None:
            continue
        for b in screen.all_buttons():
            p = Payload.decode(b.data) if b.data else None
            if p is not None and p.action in ("a", "c"):
                choices.append((actor, b.data))
    if choices:
        actor, data = rng.choice(choices)
        await service.press(actor, data)


def _actions(
    service: TableService,
    presenter: FakePresenter,
    clock: Clock,
    rng: random.Random,
    *,
    tournament: bool = False,
    bots: bool = False,
) -> list[Callable[[], Awaitable[Any]]]:
    def who() -> Any:
        return rng.choice(PLAYERS)

    async def jump() -> None:
        clock.now += rng.choice((1, 3, 6) * 10 + (30, 30, 200, 2000))
        await service.run_due()

    async def grant() -> None:
        n = rng.choice(("-900", "-150", "50", "400"))
        await service.grant(GROUP, ALICE, True, who().user_id, n, key=f"g{rng.random()}")

    async def reopen() -> None:
        if service.table_in(GROUP) is None:
            if tournament:
                await service.new_tournament(GROUP, who(), rng.choice(("pineapple", "ofc")))
            else:
                await service.new_table(GROUP, who())

    async def start() -> None:
        t = service.table_in(GROUP)
        if t is None or t.tournament is None:
            return
        for b in presenter.last_table(GROUP.chat_id).all_buttons():
            if b.data and isinstance(decode(b.data), StartTournament):
                await service.press(ALICE, b.data, GROUP)
                return

    async def add_bot() -> None:
        if bots and rng.random() < 0.3:
            await service.add_bot(GROUP, ALICE, True, "easy", f"b{rng.random()}")
        elif bots and rng.random() < 0.3:
            t = service.table_in(GROUP)
            bot = next((s for s in t.seats.values() if s.bot), None) if t else None
            if bot is not None:
                await service.remove_bot(GROUP, ALICE, True, bot.name)

    def rare(p: float, action: Callable[[], Awaitable[Any]]) -> Callable[[], Awaitable[Any]]:
        return lambda: action() if rng.random() < p else jump()

    weighted: list[tuple[int, Callable[[], Awaitable[Any]]]] = [
        (4, lambda: service.join(GROUP, who())),
        (4, lambda: service.ready(GROUP, who())),
        (1, rare(0.3, lambda: service.leave(GROUP, who()))),
        (1, lambda: service.top_up(GROUP, who(), rng.choice(("", "100", "500", "2000")))),
        (1, rare(0.3, lambda: service.sit_out(GROUP, who()))),
        (1, lambda: service.back(GROUP, who())),
        (1, rare(0.2, lambda: service.daily(GROUP, who()))),
        (1, rare(0.05, lambda: service.close_table(GROUP, ALICE, True))),
        (14, lambda: _hand_press(service, presenter, rng)),
        (4, jump),
        (1, rare(0.3, grant)),
        (1, reopen),
        (1, start),
        (1, add_bot),
    ]
    return [action for weight, action in weighted for _ in range(weight)]


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize("table", ["hand", "round", "ofc_round", "bots", "tournament"])
@pytest.mark.parametrize("seed", range(int(os.environ.get("BRKMONEY_SEEDS", "4"))))
async def test_random_races_keep_every_kush(
    tmp_path: Path, kind: str, table: str, seed: int
) -> None:
    rng = random.Random(seed)
    store = MemoryStore() if kind == "memory" else await SqliteStore.open(tmp_path / "f.db")
    clock = Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(seed), next_hand_delay=2, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    try:
        settings = {"kush_per_point": "25", "safe_autoplay": "on"}
        if table in ("round", "ofc_round"):
            settings["settle_per_round"] = "on"
        if table == "tournament":
            settings.update(tournament_buy_in="33", tournament_chips="40", payouts="60,40")
        if table == "ofc_round":
            settings["game"] = "ofc"
        for name, value in settings.items():
            reply = await service.settings(GROUP, ALICE, True, [name, value])
            assert not reply.alert, (name, reply.text)
        if table == "tournament":
            await service.new_tournament(GROUP, ALICE, "pineapple")
        else:
            await service.new_table(GROUP, ALICE)
        actions = _actions(
            service, presenter, clock, rng, tournament=table == "tournament", bots=table == "bots"
        )
        for _ in range(int(os.environ.get("BRKMONEY_STEPS", "400"))):
            n = rng.choice((1, 1, 2, 3))
            await asyncio.gather(*(rng.choice(actions)() for _ in range(n)))
        await assert_conserved(store)
        if (t := service.table_in(GROUP)) is not None:
            stored = await store.stacks(t.id)
            if t.tournament is not None:  # (the stacks are its pool, R8.7; the knocked out's
                # and leavers' rows stay in it until the payout)
                assert sum(stored.values()) == t.tournament.pool
                return
            assert {s.player_id: s.stack for s in t.seats.values() if s.stack} == {
                p: v for p, v in stored.items() if v
            }
    finally:
        await service.stop()
        if isinstance(store, SqliteStore):
            await store.close()
