"""brk38: breaking fixstop (a step read back as saved), fixpgka (STORAGE_WAIT_SECONDS) and
fixgrant2 (/grant's take-back, a tournament's typed /leave)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.model import Reply
from bot.service import TableService
from bot.texts import tr
from storage.api import StorageError, StorageTimeout, Store, time_left
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_brkpg_storage import LostReplyStore, seat_of
from tests.bot.test_fixgrant2 import _alice, _bound, _race, _take_backs, world  # noqa: F401
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_transitions import player_balance_in


async def test_r8_1_a_grant_delivered_again_after_a_partial_take_back_takes_nothing_more(
    world: tuple[TableService, Store],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two grants of 60 at once put Alice over the limit; a buy-in (200) spent her balance
    first, so 20 of the grant were taken back (40 stay). An admin grants her 80, then the
    refused /grant is delivered again (Telegram, its answer lost): the same answer, nothing
    moves. It took the whole 60 back then, the balance holding it again: 80 taken back of a
    grant of 60, 20 of Alice's own kush gone."""
    from bot.service import wallet

    service, store = world
    monkeypatch.setattr(wallet, "BALANCE_LIMIT", 170)
    await _alice(service)
    down = await service.grant(GROUP, BOB, True, ALICE.user_id, "-900", key="down")
    assert not down.alert, down.text
    bought: list[Reply] = []

    async def take_back(real, args, kwargs):  # type: ignore[no-untyped-def]
        if not bought:  # the buy-in comes first: 100 + 60 + 60 - 200 = 20 on the balance
            bought.append(await service.ready(GROUP, ALICE))
        return await real(*args, **kwargs)

    refused = await _race(service, store, 60, take_back)
    assert refused.text == tr("ru", "reply.grant_over_partial", name="Alice", limit="170",
                              amount=60, taken=20, kept=40, balance=0, label="kush")  # fmt: skip
    up = await service.grant(GROUP, BOB, True, ALICE.user_id, "80", key="up")
    assert not up.alert, up.text
    community = await store.community(GROUP.platform, GROUP.community_id)
    part = next(e.key for e in await store.ledger(community.id) if e.reason == "over")
    key = part.removeprefix("grant:").removesuffix(":over:part")
    again = await service.grant(GROUP, BOB, True, ALICE.user_id, "60", key=key)
    assert await _take_backs(store) == [-20]  # (without the fix: [-20, -60])
    assert again == refused
    assert await player_balance_in(store, GROUP, ALICE) == 80  # type: ignore[arg-type]
    await assert_conserved(store)


async def test_r8_1_a_take_back_that_timed_out_is_tried_again_with_time_of_its_own(
    world: tuple[TableService, Store],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The take-back of a grant found over the limit meets a database slower than the
    command's time (``STORAGE_WAIT_SECONDS``) once: it gives up, not saved, and is tried again
    under its key, taken back once, the admin told the grant is refused. Its tries found the
    command's time spent and gave up at once, untried: the balance stayed over the limit and
    the admin was asked to take the grant back by hand."""
    from bot.service import wallet

    service, store = world
    service.rt.storage_wait = 0.2
    monkeypatch.setattr(wallet, "BALANCE_LIMIT", 1500)
    await _alice(service)
    tries: list[float | None] = []

    async def take_back(real, args, kwargs):  # type: ignore[no-untyped-def]
        left = time_left()
        tries.append(left)
        if left == 0:  # (as the real stores: no call is tried once its bound is spent)
            raise StorageTimeout("no time left")
        if len(tries) == 1:  # slower than the time left: given up, not saved
            await asyncio.sleep(left or 0.0)
            raise StorageTimeout("no answer within the bound")
        return await real(*args, **kwargs)

    refused = await _race(service, store, 300, take_back)
    assert len(tries) == 2 and all(left for left in tries), tries
    assert refused.text == _bound(1500)
    assert await player_balance_in(store, GROUP, ALICE) == 1300  # type: ignore[arg-type]
    assert await _take_backs(store) == [-300]
    await assert_conserved(store)


class FlakyReadStore(LostReplyStore):
    """:class:`LostReplyStore` whose table reads after the first ``answer`` fail ``fail``
    times more (the database, back for a moment, out of reach again)."""

    answer = 0
    fail = 0
    #: after the first ``answer``, table reads never answer (a silent database): one bound by
    #: :func:`storage.api.answer_within` gives up when its time is up, as the real stores do
    silent = False

    async def table_state(self, table_id: int) -> Any:
        if self.answer:
            self.answer -= 1
        elif self.silent:
            left = time_left()
            if left is None:
                await asyncio.Event().wait()  # (unbound: for good)
            await asyncio.sleep(left or 0.0)
            raise StorageTimeout("table_state: no answer within the bound")
        elif self.fail:
            self.fail -= 1
            raise StorageError("cannot reach PostgreSQL")
        return await super().table_state(table_id)


async def test_a_table_whose_restore_anew_fails_once_is_served_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice's Ready was saved, its answer lost (and not read back); Bob's Ready reads it
    saved, so the table is let go to be restored anew from storage, whose read fails once
    (the database out of reach again a moment). The restore is tried again and the table
    served: it was left unserved until the next start, the players' stacks held, their
    presses answered "out of date", the group's /newtable refused."""
    monkeypatch.setattr("bot.service.runtime.RENEW_RETRY_SECONDS", 0.05, raising=False)
    store, clock = FlakyReadStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=5,
                           timers=False)  # fmt: skip
    service.register(FakePresenter())
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None
    store.lose, store.blind = 1, 1
    assert (await service.ready(GROUP, ALICE)).alert  # saved, not known
    store.answer, store.fail = 1, 1  # (Bob's read-back answers; the restore's read fails)
    assert (await service.ready(GROUP, BOB)).alert  # read saved: restored anew
    for _ in range(200):
        if service.table_in(GROUP) is not None and not service.rt.renewing:
            break
        await asyncio.sleep(0.01)
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2.id == t.id and t2 is not t
    assert seat_of(t2, ALICE).ready and not seat_of(t2, BOB).ready
    assert not (await service.ready(GROUP, BOB)).alert
    assert t2.hand is not None
    await service.stop()
    assert await check_store(store) == []


async def test_the_stop_is_not_held_by_a_restore_anew_on_a_silent_database() -> None:
    """As above, the database silent from the restore's read on: the bot's stop, which
    waits for the tables being restored anew, waited for good; it is done once the read
    gave up (``STORAGE_WAIT_SECONDS``), the table left for the next start."""
    store, clock = FlakyReadStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=5,
                           timers=False, storage_wait=0.2)  # fmt: skip
    service.register(FakePresenter())
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None
    store.lose, store.blind = 1, 1
    assert (await service.ready(GROUP, ALICE)).alert  # saved, not known
    store.answer, store.silent = 1, True  # (Bob's read-back answers; then nothing does)
    assert (await service.ready(GROUP, BOB)).alert  # read saved: restored anew
    assert service.rt.renewing
    try:
        await asyncio.wait_for(service.stop(), 10)
    except TimeoutError:
        pytest.fail("the stop waited for good on the table restored anew")
    assert service.table_in(GROUP) is None and not service.rt.renewing
    store.silent = False
    state = await store.table_state(t.id)
    assert state is not None and state[1]["seats"][0]["ready"]
    assert await check_store(store) == []


class RefusingStore(MemoryStore):
    """A memory store whose commits are refused while :attr:`refuse` (nothing written)."""

    refuse = False

    async def commit(self, *args: Any, **kwargs: Any) -> list[int]:
        if self.refuse:
            raise StorageError("disk I/O error")
        return await super().commit(*args, **kwargs)


async def test_r8_2a_a_step_refused_after_the_stop_starts_no_retry_timer() -> None:
    """The bot is stopping (its timers cancelled, the tables saved; the adapters still take
    updates until they stop): an admin's /settings makes the table's overdue idle close first
    (R8.2a), which storage refuses. No timer may start after the stop (the step would run on
    the table already saved, its clocks counting while the bot is down, R8.5): the step's
    retry started one (:func:`bot.service.timers._schedule_retry` did not ask
    :attr:`Runtime.stopping`)."""
    store, clock = RefusingStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=5)
    service.register(FakePresenter())
    await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.timer is not None
    await service.stop()
    assert t.timer is None
    deadline = service.rt.next_deadline(t)
    assert deadline is not None
    clock.now = deadline + 1  # (the idle close is due)
    store.refuse = True
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", "300"])
    assert not reply.alert, reply.text
    assert service.table_in(GROUP) is t  # (the close refused)
    timer = t.timer
    if timer is not None:
        timer.cancel()
    assert timer is None
