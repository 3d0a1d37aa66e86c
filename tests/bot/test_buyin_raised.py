"""An admin raises the buy-in while players sit at the table (R8.1, R8.2).

What the bot does (kept): a raised ``min_buy_in`` is what every Ready pays from then on, at
once in the lobby and from the next hand during one (a newcomer's Join and Ready during the
hand already ask for the next hand's buy-in); the lobby shows it. A player who pressed Ready
at the old, lower buy-in for a hand not dealt to them yet keeps the stack they paid: no
kush moves without the player's press (a lowered buy-in gives the difference back,
:func:`bot.service.dealing.apply_pending`, tests in test_tup45_one_notice.py and
test_brk80.py).

What was wrong: the admin's answer said "Saved" (and "It applies from the next hand") and
nothing of those players, who then sat with a stack below the buy-in the lobby showed, as if
the raise had passed them by. The answer names them with their stacks now
(``settings.buy_in_kept``), in the admin's language; nobody else is named."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot import render
from bot.model import LiveTable
from bot.service import TableService
from bot.texts import tr
from storage.api import Move, StorageError
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_brk74_money import DAVE
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, play_out
from tests.bot.test_tournament_service import new_service, running_tournament
from tests.bot.test_transitions import player_balance
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import CAROL as TG_CAROL
from tests.bot.tg_world import GROUP_ID, world

KEPT_EN = "Bought in for less before, they keep their stacks: {stacks}; ➕ or /topup adds more."
KEPT_RU = "Раньше внесли меньше и остаются со своими стеками: {stacks}; докупить — ➕ или /topup."


async def _save(service: TableService, name: str, value: str) -> list[str]:
    reply = await service.settings(GROUP, ALICE, True, [name, value])
    assert not reply.alert, reply.text
    return reply.text.splitlines()


def _title(t: LiveTable, now: float) -> str:
    return render.lobby_screen(t, "en", None, now).text.splitlines()[1]


async def test_r8_2_a_buy_in_raised_in_the_lobby_names_who_keeps_the_old_one() -> None:
    """Alice presses Ready at 200; Bob and Carol sit, not ready. The buy-in goes to 300: the
    answer names Alice with her stack (it said "Saved" alone), the lobby shows 300, and
    Bob's Ready then moves 300 (Alice keeps 200, nothing taken from her). The same value
    saved again ("Already so") adds nothing; a lower 250 gives Bob 50 back and still names
    Alice, whose 200 is below it. The ledger balances."""
    service, _presenter, store, clock = new_service(next_hand_delay=4)
    assert not (await service.new_table(GROUP, ALICE)).alert
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None

    lines = await _save(service, "min_buy_in", "300")
    assert lines[:2] == [
        "Saved: min_buy_in = 300 (was 200).",
        KEPT_EN.format(stacks="Alice (200)"),
    ], lines
    assert lines[1] == tr("en", "settings.buy_in_kept", stacks="Alice (200)")
    assert _title(t, clock.now) == "Buy-in 300 kush · 1 pt = 1 kush · 2–3 players"

    reply = await service.ready(GROUP, BOB)
    assert reply.text == tr("ru", "reply.ready", amount=300, label="kush"), reply.text
    ready = [(s.name, s.stack) for s in t.seats.values() if s.ready]
    assert ready == [("Alice", 200), ("Bob", 300)]
    assert await player_balance(store, ALICE) == 800
    assert await player_balance(store, BOB) == 700

    again = await _save(service, "min_buy_in", "300")  # nothing changed: nothing to say
    assert not any("Bought in for less" in line for line in again), again
    # (Bob's 300 pays 300: he is not named)
    assert KEPT_EN.format(stacks="Alice (200)") in await _save(service, "min_buy_in", "250")
    assert t.hand is None and [s.stack for s in t.seats.values() if s.ready] == [200, 250]
    assert await player_balance(store, BOB) == 750
    assert await check_store(store) == []


async def test_r8_2_a_buy_in_raised_during_a_hand_names_the_newcomer_who_paid_the_old() -> None:
    """Classic OFC (up to 4 seats): Alice and Bob are dealt at 200. Carol sits down and
    presses Ready during the hand (200, for the next hand); an admin raises the buy-in to
    300: the answer says it applies from the next hand and that Carol keeps her 200 (Alice
    and Bob, playing, are not named). Dave sits down after it and pays 300. When the hand
    ends the lobby shows 300; Carol is dealt in with 200, Dave with 300."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    assert not (await service.new_table(GROUP, ALICE, "classic")).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BOB):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert not (await service.join(GROUP, CAROL)).alert
    assert (await service.ready(GROUP, CAROL)).text == "Ready: 200 kush moved to the table."

    lines = await _save(service, "min_buy_in", "300")
    assert lines[:3] == [
        "Saved: min_buy_in = 300 (was 200).",
        tr("en", "settings.next_hand"),
        KEPT_EN.format(stacks="Carol (200)"),
    ], lines

    assert not (await service.join(GROUP, DAVE)).alert
    assert (await service.ready(GROUP, DAVE)).text == "Ready: 300 kush moved to the table."
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.min_buy_in == 300
    assert _title(t, clock.now).startswith("Buy-in 300 kush")
    stacks = {s.name: s.stack for s in t.seats.values()}
    assert (stacks["Carol"], stacks["Dave"]) == (200, 300)
    assert await player_balance(store, CAROL) == 800
    assert await player_balance(store, DAVE) == 700
    assert await check_store(store) == []


async def test_r8_2_the_kept_stacks_line_is_in_russian_and_leaves_out_a_topped_up_stack() -> None:
    """The group reads Russian: the line is Russian, amounts grouped as Russian groups them
    (from 10 000). Alice bought in at 2,000 and topped up to 10,000 (the most, 5 × the
    buy-in); Bob bought in at 2,000 only: a raise to 10,000 names Bob alone (Alice's stack
    already holds the new buy-in)."""
    service, _presenter, store, _clock = new_service(next_hand_delay=4)
    await _save(service, "starting_balance", "100000")
    await _save(service, "min_buy_in", "2000")
    await _save(service, "language", "ru")
    assert not (await service.new_table(GROUP, ALICE)).alert
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BOB):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None
    reply = await service.top_up(GROUP, ALICE, "8000")
    assert not reply.alert, reply.text
    lines = await _save(service, "min_buy_in", "10000")
    kept = [line for line in lines if line.startswith("Раньше внесли")]
    assert kept == [KEPT_RU.format(stacks="Bob (2000)")], lines
    assert kept[0] == tr("ru", "settings.buy_in_kept", stacks="Bob (2000)")
    assert [s.stack for s in t.seats.values() if s.ready] == [10000, 2000]
    assert await check_store(store) == []


async def test_r8_2_a_lowered_buy_in_names_nobody_and_gives_the_difference_back() -> None:
    """Consistent with the raise: a Ready paid above a lowered buy-in gets the difference
    back (one refund and one buy-in, balanced), and the answer names nobody as keeping a
    stack (theirs is the new buy-in now)."""
    service, _presenter, store, _clock = new_service(next_hand_delay=4)
    assert not (await service.new_table(GROUP, ALICE)).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    lines = await _save(service, "min_buy_in", "150")
    assert not any("Bought in for less" in line for line in lines), lines
    t = service.table_in(GROUP)
    assert t is not None and [s.stack for s in t.seats.values() if s.ready] == [150]
    assert await player_balance(store, ALICE) == 850
    assert await check_store(store) == []


async def test_r8_2_telegram_a_raise_in_the_lobby_is_answered_and_charged_as_shown(
    tmp_path: Path,
) -> None:
    """End to end on the Telegram fake: Bob (Russian) joins and presses Ready at 200, Carol
    joins; Alice, an admin, types ``/settings min_buy_in 300``: her answer names Bob with his
    200; the table message says «Buy-in 300»; Carol's Ready press is answered "Ready: 300
    kush moved to the table." and her balance is 700."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {TG_ALICE.id}
        await w.say(TG_ALICE, "/newtable")
        for user in (TG_BOB, TG_CAROL):
            await w.press_lobby(user, "j")
        await w.press_lobby(TG_BOB, "r")
        answer = await w.say(TG_ALICE, "/settings min_buy_in 300")
        assert KEPT_EN.format(stacks="Bob (200)") in answer["text"].splitlines(), answer["text"]
        await w.settle()
        assert "Buy-in 300 kush" in w.table_message()["text"]
        pressed = await w.press_lobby(TG_CAROL, "r")
        assert pressed.get("text") == "Ready: 300 kush moved to the table.", pressed
        community = await w.store.community("telegram", str(GROUP_ID))
        carol = await w.store.find_player(community.id, str(TG_CAROL.id))
        assert carol is not None and carol.balance == 700
        assert await check_store(w.store) == []


async def test_r8_7_a_cash_buy_in_saved_at_a_running_tournament_says_its_own_is_kept() -> None:
    """A tournament of three is running (buy-in 100, its first hand dealt). ``min_buy_in``
    and ``max_buy_in`` saved in its chat were answered "Saved" alone beside its lobby's
    "Buy-in 100": the answer now says the tournament keeps its own (in the admin's language:
    Bob's Russian); its buy-in, pool and balances do not move, and ``tournament_buy_in``
    itself still applies from the next tournament only. Saved again ("Already so"): no
    note."""
    service, _presenter, store, _clock = new_service(next_hand_delay=4)
    t, tour = await running_tournament(service)
    pool, balances = tour.pool, [await player_balance(store, a) for a in (ALICE, BOB, CAROL)]
    lines = await _save(service, "min_buy_in", "500")
    assert lines[1] == (
        "Tournament #1 keeps its own buy-in (100 kush, tournament_buy_in), fixed when it "
        "opened: min_buy_in is for cash tables."
    ), lines
    lines = await _save(service, "max_buy_in", "3000")
    assert lines[1].endswith(": max_buy_in is for cash tables."), lines
    assert not any("keeps its own" in line for line in await _save(service, "max_buy_in", "3000"))
    reply = await service.settings(GROUP, BOB, True, ["min_buy_in", "700"])
    assert reply.text.splitlines()[1] == (
        "У турнира #1 свой взнос (100 кушей, взнос_турнира), заданный при открытии: "
        "взнос — для обычных столов."
    ), reply.text
    lines = await _save(service, "tournament_buy_in", "300")
    assert lines[1] == tr("en", "tour.settings_kept", tables="#1"), lines
    assert (tour.config.buy_in, tour.pool, t.min_buy_in) == (100, pool, 100)
    assert [await player_balance(store, a) for a in (ALICE, BOB, CAROL)] == balances
    assert await check_store(store) == []


class _RefusingStore(MemoryStore):
    """Refuses the next ``refuse`` table commits (a disk error: nothing written)."""

    refuse = 0

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if self.refuse:
            self.refuse -= 1
            raise StorageError("disk I/O error")
        return await super().commit(table_id, moves, snapshot, key=key, close=close)


async def test_r8_2_a_raise_the_lobby_missed_is_not_what_the_next_ready_takes() -> None:
    """The buy-in is raised to 300 in the lobby, saved, but the table's step is refused by
    storage (the table keeps it pending, the lobby still says 200). Carol presses Ready
    under "Buy-in 200": 200 is taken (it took the pending 300), and her step applies the
    raise, the lobby now saying 300 with Carol's 200 kept. The ledger balances."""
    store = _RefusingStore()
    clock = Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=4, timers=False
    )
    service.register(FakePresenter())
    assert not (await service.new_table(GROUP, ALICE)).alert
    for a in (ALICE, CAROL):
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None
    store.refuse = 1
    assert not (await service.settings(GROUP, ALICE, True, ["min_buy_in", "300"])).alert
    assert (t.min_buy_in, t.pending_buy_in) == (200, 300)
    assert _title(t, clock.now).startswith("Buy-in 200 kush")
    reply = await service.ready(GROUP, CAROL)
    assert reply.text == "Ready: 200 kush moved to the table.", reply.text
    assert await player_balance(store, CAROL) == 800
    assert (t.min_buy_in, t.pending_buy_in) == (300, None)
    assert _title(t, clock.now).startswith("Buy-in 300 kush")
    assert [(s.name, s.stack) for s in t.seats.values() if s.ready] == [("Carol", 200)]
    assert await check_store(store) == []


async def test_r8_2_a_point_the_lobby_missed_is_paid_by_the_next_ready() -> None:
    """The buy-in goes to 300 and the point to 250 in the lobby, both saved, both table
    steps refused by storage (the lobby still says 200 and 1 pt = 1 kush). Carol's Ready
    applies both in its step (no match under way, R6.6; between hands, R8.2): the 200 the
    lobby showed cannot pay the 250 point in force from that step on (she was offered the
    top-up the moment she was ready), so the 300 the table takes is what is moved. The
    ledger balances."""
    store = _RefusingStore()
    clock = Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=4, timers=False
    )
    service.register(FakePresenter())
    assert not (await service.new_table(GROUP, ALICE)).alert
    for a in (ALICE, CAROL):
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None
    store.refuse = 2
    assert not (await service.settings(GROUP, ALICE, True, ["min_buy_in", "300"])).alert
    assert not (await service.settings(GROUP, ALICE, True, ["kush_per_point", "250"])).alert
    assert (t.min_buy_in, t.pending_buy_in, t.options.kush_per_point) == (200, 300, 1)
    reply = await service.ready(GROUP, CAROL)
    assert reply.text == "Ready: 300 kush moved to the table.", reply.text
    assert await player_balance(store, CAROL) == 700
    assert (t.min_buy_in, t.pending_buy_in, t.options.kush_per_point) == (300, None, 250)
    assert [(s.name, s.stack) for s in t.seats.values() if s.ready] == [("Carol", 300)]
    assert not t.awaiting_top_up()
    assert await check_store(store) == []
