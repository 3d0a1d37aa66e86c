"""/grant's take-back (R8.1): two grants at one moment, each fitting under BALANCE_LIMIT alone,
both went in; the one found over the limit is taken back. Its take-back refused by storage (a
lost connection, a disk error) answered the admin with an error while the balance stayed over
the limit; with the balance spent meanwhile (a buy-in since the grant) the admin read
"Alice has only N kush", the balance as it was before the grant, and nothing was taken back.
After each, the ledger balances (:func:`tests.bot.money.assert_conserved`)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.model import Reply
from bot.service import TableService, wallet
from bot.texts import grouped, tr
from storage.api import StorageError, Store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock
from tests.bot.money import assert_conserved
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_transitions import player_balance_in

#: The grant's own call of the store: ``(real store.grant, args, kwargs)`` → the balance.
TakeBack = Callable[
    [Callable[..., Awaitable[int]], tuple[Any, ...], dict[str, Any]], Awaitable[int]
]


@pytest.fixture(params=["memory", "sqlite"])
async def world(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[TableService, Store]]:
    store: Store = (
        MemoryStore() if request.param == "memory" else await SqliteStore.open(tmp_path / "g.db")
    )
    service = TableService(
        store, clock=Clock(), rng=random.Random(5), next_hand_delay=0, timers=False
    )
    try:
        yield service, store
    finally:
        await service.stop()
        if isinstance(store, SqliteStore):
            await store.close()


async def _race(service: TableService, store: Store, step: int, take_back: TakeBack) -> Reply:
    """Two /grant of ``step`` to Alice by Bob (the admin, who reads Russian) at one moment:
    both read the balance before either writes; the store's other calls (the take-back of
    the one found over the limit) go through ``take_back``. The refused grant's answer."""
    real, arrived, both = store.grant, [], asyncio.Event()

    async def grant(*args: Any, **kwargs: Any) -> int:
        if kwargs["key"] in ("grant:a", "grant:b"):
            arrived.append(1)
            if len(arrived) == 2:
                both.set()
            await asyncio.wait_for(both.wait(), 1)
            return await real(*args, **kwargs)
        return await take_back(real, args, kwargs)

    store.grant = grant  # type: ignore[method-assign]
    try:
        replies = await asyncio.gather(
            service.grant(GROUP, BOB, True, ALICE.user_id, str(step), key="a"),
            service.grant(GROUP, BOB, True, ALICE.user_id, str(step), key="b"),
        )
    finally:
        store.grant = real  # type: ignore[method-assign]
    assert sorted(r.alert for r in replies) == [False, True], replies
    return next(r for r in replies if r.alert)


async def _take_backs(store: Store) -> list[int]:
    """The amounts of the take-backs in the ledger (``reason == "over"``), in order."""
    community = await store.community(GROUP.platform, GROUP.community_id)
    return [e.balance_delta for e in await store.ledger(community.id) if e.reason == "over"]


def _bound(limit: int) -> str:
    return tr("ru", "reply.grant_balance_bound", name="Alice", limit=grouped(limit, "ru"),
              label="kush")  # fmt: skip


async def _alice(service: TableService) -> None:
    """Alice sits down at a new table (her wallet: the starting 1000)."""
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert


@pytest.mark.parametrize("saved", [False, True])
async def test_a_take_back_storage_fails_once_is_tried_again_under_its_key(
    world: tuple[TableService, Store], monkeypatch: pytest.MonkeyPatch, saved: bool
) -> None:
    """The take-back refused once (``saved``: written, but answered with an error, a
    connection lost after COMMIT): tried again under its own key, taken back once, the
    admin told the grant is refused; the StorageError went up to the adapter's generic
    error before, the balance left over the limit."""
    service, store = world
    monkeypatch.setattr(wallet, "BALANCE_LIMIT", 1500)
    await _alice(service)
    failed: list[str] = []

    async def take_back(real: Callable[..., Awaitable[int]], args: Any, kwargs: Any) -> int:
        if not failed:
            failed.append(kwargs["key"])
            if saved:
                await real(*args, **kwargs)
            raise StorageError("connection lost")
        return await real(*args, **kwargs)

    refused = await _race(service, store, 300, take_back)
    assert refused.text == _bound(1500)
    assert failed and failed[0].endswith(":over")
    assert await player_balance_in(store, GROUP, ALICE) == 1300  # 1000 + one grant of 300
    assert await _take_backs(store) == [-300]
    await assert_conserved(store)


async def test_a_take_back_storage_never_saves_says_so(
    world: tuple[TableService, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storage refuses every try of the take-back: the admin is told the grant went in, the
    balance above the limit, and what to do (en and ru), not "nothing changed"."""
    service, store = world
    monkeypatch.setattr(wallet, "BALANCE_LIMIT", 1500)
    await _alice(service)
    tries: list[str] = []

    async def take_back(real: Callable[..., Awaitable[int]], args: Any, kwargs: Any) -> int:
        tries.append(kwargs["key"])
        raise StorageError("disk I/O error")

    refused = await _race(service, store, 300, take_back)
    values = {"name": "Alice", "amount": 300, "label": "kush"}
    assert refused.text == tr("ru", "err.grant_over_unsure", limit=grouped(1500, "ru"), **values)
    assert "1500" in refused.text and "300" in refused.text
    assert tr("en", "err.grant_over_unsure", limit=grouped(1500, "en"), **values) == (
        "Alice's balance went over 1,500 kush (two grants at once); taking this grant of 300 "
        "back could not be saved. Check the balance: if over, grant −300."
    )
    assert len(tries) == wallet.TAKE_BACK_TRIES and len(set(tries)) == 1  # one key
    assert await player_balance_in(store, GROUP, ALICE) == 1600  # what the admin is told
    assert await _take_backs(store) == []
    await assert_conserved(store)


async def test_b_a_buy_in_before_the_take_back_takes_what_the_balance_holds(
    world: tuple[TableService, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice buys in (200) between the grant found over the limit and its take-back: the
    balance holds 20 of the 60 to take back. The admin read "Alice has only 100 kush" (her
    balance before the grant) and nothing was taken back; now the 20 are taken back and the
    answer says 40 of the grant stays, balance 0."""
    service, store = world
    monkeypatch.setattr(wallet, "BALANCE_LIMIT", 170)
    await _alice(service)
    down = await service.grant(GROUP, BOB, True, ALICE.user_id, "-900", key="down")
    assert not down.alert, down.text
    bought: list[Reply] = []

    async def take_back(real: Callable[..., Awaitable[int]], args: Any, kwargs: Any) -> int:
        if not bought:  # the buy-in comes first: 100 + 60 + 60 - 200 = 20 on the balance
            bought.append(await service.ready(GROUP, ALICE))
        return await real(*args, **kwargs)

    refused = await _race(service, store, 60, take_back)
    assert not bought[0].alert, bought[0].text
    assert refused.text == tr("ru", "reply.grant_over_partial", name="Alice", limit="170",
                              amount=60, taken=20, kept=40, balance=0, label="kush")  # fmt: skip
    assert "20" in refused.text and "40" in refused.text
    assert await player_balance_in(store, GROUP, ALICE) == 0
    t = service.table_in(GROUP)
    assert t is not None
    seat = t.seat_of(ALICE.user_id)
    assert seat is not None and seat.stack == 200
    assert await _take_backs(store) == [-20]
    await assert_conserved(store)
    # the refused /grant delivered again (Telegram, its answer lost): the same answer, from
    # the take-back saved; nothing moves ("0 of 60 taken back" read the balance now)
    community = await store.community(GROUP.platform, GROUP.community_id)
    part = next(e.key for e in await store.ledger(community.id) if e.reason == "over")
    key = part.removeprefix("grant:").removesuffix(":over:part")
    again = await service.grant(GROUP, BOB, True, ALICE.user_id, "60", key=key)
    assert again == refused
    assert await player_balance_in(store, GROUP, ALICE) == 0
    assert await _take_backs(store) == [-20]
    await assert_conserved(store)


async def test_b_the_partial_take_back_storage_fails_once_is_tried_again_with_its_amount(
    world: tuple[TableService, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The partial take-back (the balance spent meanwhile by another admin's take) saved but
    answered with an error: tried again under its key with the same amount, taken once."""
    service, store = world
    monkeypatch.setattr(wallet, "BALANCE_LIMIT", 1500)
    await _alice(service)
    calls: list[str] = []

    async def take_back(real: Callable[..., Awaitable[int]], args: Any, kwargs: Any) -> int:
        calls.append(kwargs["key"])
        if len(calls) == 1:  # another admin takes 1500 of the 1600 first
            community, player = args[0], args[1]
            await real(community, player, -1500, actor="3", reason="/grant", key="grant:c")
        if len(calls) == 2:  # the partial one: saved, answered with an error
            await real(*args, **kwargs)
            raise StorageError("connection lost")
        return await real(*args, **kwargs)

    refused = await _race(service, store, 300, take_back)
    assert [k.rsplit(":", 1)[-1] for k in calls] == ["over", "part", "part"]
    assert refused.text == tr("ru", "reply.grant_over_partial", name="Alice", amount=300,
                              limit=grouped(1500, "ru"), taken=100, kept=200, balance=0,
                              label="kush")  # fmt: skip
    assert await player_balance_in(store, GROUP, ALICE) == 0
    assert await _take_backs(store) == [-100]
    await assert_conserved(store)
