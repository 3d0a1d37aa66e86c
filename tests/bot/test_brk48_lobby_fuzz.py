"""brk48: seeded random programs of lobby and between-hands commands (join, leave, Ready,
/sitout, /back, /topup, /addbot, /removebot, a member leaving the group, a player blocking
the bot), some hands played, restarts and crashes, with clock jumps between them, timers
fired by ``run_due`` (R8.2, R8.2a, R8.6, issue 13). After every step: no table waits with
nothing due (a lobby whose players are all Ready deals; between hands a next hand is due;
no deadline passed with nothing to do), and once the people stop and walk away the table
closes by itself. ``BRK48_SEEDS`` (default 2) runs more programs per settings case: 25 ran
clean. It found the lobby that waited for the idle close after a queued top-up
(test_brk48_lobby.py). In-memory store, a hand-moved clock."""

from __future__ import annotations

import logging
import os
import random

import pytest

from bot.model import Actor, LiveTable, Phase, Reply
from bot.service import TableService
from bot.service.dealing import available
from bot.service.timers import _due
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm

DAVE = Actor("telegram", "4", "Dave", "en")
PEOPLE = (ALICE, BOB, CAROL, DAVE)


def _stuck(service: TableService, t: LiveTable, now: float) -> str | None:
    """Why the table waits for nothing, if it does."""
    deadline = service.rt.next_deadline(t)
    if deadline is not None and deadline <= now and not _due(service.rt, t):
        return "spins"
    if deadline is None:
        return "no deadline at all"
    between = t.phase is Phase.BETWEEN and t.hand is None and t.reveal is None
    if between and t.next_hand_at is None and not t.top_ups_due() and t.top_up_deadline is None:
        return "between hands, no next hand"
    if t.phase is Phase.LOBBY and t.hand is None and t.reveal is None:
        seats = available(t)
        people = [s for s in seats if t.seats[s].bot is None]
        waiting = [
            s for s in t.seats.values() if not s.ready and not s.sitting_out and not s.leaving
        ]
        if (
            len(seats) >= t.options.min_players
            and people
            and not waiting
            and not t.awaiting_top_up()
            and not t.top_ups_due()
            and t.top_up_deadline is None
            and not any(s.top_up for s in t.seats.values())
        ):
            return "all ready, no deal"
    return None


async def _whim(service: TableService, r: random.Random) -> str:
    a = r.choice(PEOPLE)
    what = r.choice(
        ["leave", "join", "ready", "topup", "sitout", "back", "addbot", "removebot", "gone"]
    )
    if what == "leave":
        reply = await service.leave(GROUP, a)
    elif what == "join":
        reply = await service.join(GROUP, a)
    elif what == "ready":
        reply = await service.ready(GROUP, a)
    elif what == "topup":
        reply = await service.top_up(GROUP, a, str(r.choice([10, 50, 100, 1000])))
    elif what == "sitout":
        reply = await service.sit_out(GROUP, a)
    elif what == "back":
        reply = await service.back(GROUP, a)
    elif what == "addbot":
        reply = await service.add_bot(GROUP, a, True, r.choice(["easy", "normal", ""]))
    elif what == "removebot":
        reply = await service.remove_bot(GROUP, a, True)
    else:  # left the group (Telegram's left_chat_member), or blocked the bot
        if r.random() < 0.5:
            await service.player_unreachable("telegram", a.user_id)
            return f"{a.name} blocked the bot"
        got = await service.member_left(GROUP, a)
        reply = got if got is not None else Reply("(no seat)")
    return f"{a.name} {what}: {reply.text[:70]!r}"


#: settings a program runs under (each name and value as /settings takes them)
SETTINGS: list[dict[str, str]] = [
    {},
    {"game": "ofc", "settle_per_round": "on"},
    {"ready_seconds": "20", "idle_close_seconds": "300"},
]


@pytest.mark.parametrize("case", range(len(SETTINGS)))
@pytest.mark.parametrize("seed", range(int(os.environ.get("BRK48_SEEDS", "2"))))
async def test_r8_2_r8_2a_r8_6_lobby_programs_never_wait_for_nothing(
    seed: int, case: int, caplog: pytest.LogCaptureFixture
) -> None:
    r = random.Random(4800 + 100 * case + seed)
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(seed), next_hand_delay=5, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    for name, value in SETTINGS[case].items():
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    assert not (await service.new_table(GROUP, ALICE)).alert
    log: list[str] = []
    by_id = {a.user_id: a for a in PEOPLE}
    with caplog.at_level(logging.ERROR):
        for _ in range(400):
            t = service.table_in(GROUP)
            if t is None:
                assert not (await service.new_table(GROUP, r.choice(PEOPLE))).alert
                log.append("new table")
                continue
            hand = t.hand
            if hand is not None and hand.to_act and r.random() < 0.5:
                seat = t.seats[t.owner(hand.to_act[0])]
                if seat.bot is None and not seat.leaving:
                    await press_auto_and_confirm(service, presenter, by_id[seat.user_id])
                    log.append(f"{seat.name} plays")
                    continue
            if r.random() < 0.02:  # a clean restart, or a crash
                if r.random() < 0.5:
                    await service.stop()
                else:
                    await service.mark_alive()
                    for task in [*service.rt._savers.values(), *service.rt._keepers]:
                        task.cancel()
                clock.now += r.choice([1.0, 30.0])
                service = TableService(
                    store, clock=clock, rng=random.Random(seed), next_hand_delay=5, timers=False
                )
                presenter = FakePresenter()
                service.register(presenter)
                await service.start()
                log.append("restart")
                continue
            if r.random() < 0.6:
                log.append(await _whim(service, r))
            else:
                s = r.choice([0.5, 3.0, 6.0, 21.0, 59.0, 61.0, 130.0])
                clock.now += s
                log.append(f"+{s}s")
                await service.run_due()
            t = service.table_in(GROUP)
            if t is not None:
                why = _stuck(service, t, clock.now)
                assert why is None, (
                    "\n".join(log[-40:]),
                    [
                        (s.name, s.ready, s.sitting_out, s.leaving, s.stack, s.bot)
                        for s in t.seats.values()
                    ],
                    t.phase,
                    t.next_hand_at,
                    t.ready_deadline,
                    clock.now,
                )
        for _ in range(200):  # everyone stops: the table ends by itself
            if service.table_in(GROUP) is None:
                break
            clock.now += 61
            await service.run_due()
            t = service.table_in(GROUP)
            if t is not None:
                why = _stuck(service, t, clock.now)
                assert why is None, (why, log[-12:])
    assert service.table_in(GROUP) is None, "the table never closed"
    assert await check_store(store) == []
    errors = [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert errors == []
    await service.stop()
