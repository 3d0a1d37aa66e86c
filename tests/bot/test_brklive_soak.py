"""brklive soak: people who play a little, then join, leave, sit out, come back, top up at
random and finally walk away, with clean restarts and crashes in between (R8.2, R8.2a,
R8.5, R8.6, R8.7). Whatever they did, the table closes by itself in the end, no kush is
lost, storage stays consistent, nothing is logged as an error, and the table's timer never
spins (a deadline that has passed is always a step that is due). In-memory store, a
hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

import logging
import random

import pytest

from bot.model import Actor, LiveTable
from bot.presses import StartTournament, decode
from bot.service import TableService
from bot.service.timers import _due
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm
from tests.bot.test_tournament_service import _no

DAVE = Actor("telegram", "4", "Dave", "en")
PEOPLE = (ALICE, BOB, CAROL, DAVE)

#: (game, options, people seated, computer players, a tournament)
CASES = [
    ("pineapple", {}, 3, 0, False),
    ("pineapple", {"simultaneous_streets": "on"}, 3, 0, False),
    ("ofc", {"heads_up_double_boxes": "on"}, 2, 0, False),
    ("ofc", {"simultaneous_streets": "on", "settle_per_round": "on"}, 3, 0, False),
    ("chinese", {}, 3, 0, False),
    ("pineapple", {}, 2, 1, False),
    ("pineapple", {}, 3, 0, True),
    ("ofc", {}, 4, 0, True),
]


def _service(store: MemoryStore, clock: Clock, seed: int) -> tuple[TableService, FakePresenter]:
    service = TableService(
        store, clock=clock, rng=random.Random(seed), next_hand_delay=5, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter


async def _open(
    service: TableService, presenter: FakePresenter, case: int, people: tuple[Actor, ...]
) -> None:
    game, options, _, bots, tournament = CASES[case]
    for name, value in {"game": game, **options}.items():
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    if tournament:
        assert not (await service.new_tournament(GROUP, ALICE, game)).alert
        for a in people:
            assert not (await service.join(GROUP, a)).alert
        t = service.table_in(GROUP)
        assert t is not None
        if t.hand is None:  # (not full: its opener starts it)
            lobby = presenter.last_table(GROUP.chat_id)
            start = next(
                b.data for b in lobby.all_buttons() if isinstance(decode(b.data), StartTournament)
            )
            assert not (await service.press(ALICE, start, GROUP, _no)).alert
        return
    assert not (await service.new_table(GROUP, ALICE, game)).alert
    for _ in range(bots):
        assert not (await service.add_bot(GROUP, ALICE, True, "normal")).alert
    for a in people:
        assert not (await service.join(GROUP, a)).alert
    for a in people:
        assert not (await service.ready(GROUP, a)).alert


async def _whim(service: TableService, r: random.Random) -> None:
    """One person does something at random at the table (refused or not)."""
    a = r.choice(PEOPLE)
    what = r.choice(["leave", "join", "ready", "topup", "sitout", "back"])
    if what == "leave":
        await service.leave(GROUP, a)
    elif what == "join":
        await service.join(GROUP, a)
    elif what == "ready":
        await service.ready(GROUP, a)
    elif what == "topup":
        await service.top_up(GROUP, a, str(r.choice([10, 50, 100])))
    elif what == "sitout":
        await service.sit_out(GROUP, a)
    else:
        await service.back(GROUP, a)


def _spinning(service: TableService, t: LiveTable, now: float) -> bool:
    """The table's timer would fire at once and find nothing to do, again and again."""
    deadline = service.rt.next_deadline(t)
    return deadline is not None and deadline <= now and not _due(service.rt, t)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("case", range(len(CASES)))
async def test_r8_2a_r8_5_r8_7_whatever_people_do_the_table_ends_and_no_kush_is_lost(
    case: int, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    r = random.Random(seed * 100 + case)
    store, clock = MemoryStore(), Clock()
    service, presenter = _service(store, clock, seed)
    people = PEOPLE[: CASES[case][2]]
    await _open(service, presenter, case, people)
    by_id = {a.user_id: a for a in PEOPLE}
    played = r.randint(1, 3)  # hands played before everyone walks away
    restarts = 0
    spins: list[int] = []
    with caplog.at_level(logging.ERROR):
        for step in range(3000):
            t = service.table_in(GROUP)
            if t is None:
                break
            if _spinning(service, t, clock.now):
                spins.append(step)
            hand = t.hand
            if hand is not None and hand.to_act and t.hand_no <= played and r.random() < 0.8:
                seat = t.seats[t.owner(hand.to_act[0])]
                if seat.bot is None and not seat.leaving:
                    await press_auto_and_confirm(service, presenter, by_id[seat.user_id])
                    continue
            if step < 500 and r.random() < 0.12:
                await _whim(service, r)
                continue
            if r.random() < 0.05 and restarts < 8:
                restarts += 1
                if r.random() < 0.5:  # a crash: nothing more of the old service runs
                    await service.mark_alive()
                    for task in [*service.rt._savers.values(), *service.rt._keepers]:
                        task.cancel()
                else:
                    await service.stop()
                clock.now += r.choice([1, 30, 600])
                service, presenter = _service(store, clock, seed + step)
                await service.start()
                continue
            step_s = r.choice([1.0, 5.0, 30.0, 61.0, 200.0])
            if t.bot_due is not None and t.bot_due > clock.now and r.random() < 0.7:
                step_s = t.bot_due - clock.now  # a computer player's pace
            clock.now += step_s
            await service.run_due()
    assert service.table_in(GROUP) is None, "the table never closed"
    assert spins == []
    assert await check_store(store) == []
    community = await store.community("telegram", GROUP.community_id)
    players = [await store.find_player(community.id, a.user_id) for a in PEOPLE]
    balances = [p.balance for p in players if p is not None]
    if not CASES[case][3]:  # (a computer player's winnings are the house's)
        assert sum(balances) == 1000 * len(balances)
    errors = [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert errors == []
    await service.stop()
