"""Computer players (issue 13) hold house kush only: what the fixbot round fixed."""

from __future__ import annotations

import pytest

from bot.service.bots import HOUSE_BUY_INS, HOUSE_REASON
from storage.api import LedgerKind
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service
from tests.bot.test_service import ALICE, GROUP


@pytest.mark.parametrize("min_buy_in", [200, 10])
async def test_addbot_gives_a_computer_player_house_kush_only(min_buy_in: int) -> None:
    """Issue 13: "Computer players play with house kush that never touches a member's balance
    (their own ledger account)". A computer player made by ``/addbot`` was given the
    community's starting balance too (a ``starting`` row of 1,000 next to the house's grant
    of 9,000; at a 10-kush table no grant at all, it played with starting kush the house
    never gave). Now its account holds the house's grant alone: 50 buy-ins, one of them at
    the table."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    if min_buy_in != 200:
        reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", str(min_buy_in)])
        assert not reply.alert, reply.text
    await service.new_table(GROUP, ALICE)
    assert not (await service.add_bot(GROUP, ALICE, True, "easy")).alert
    t = service.table_in(GROUP)
    assert t is not None
    (bot,) = t.seats.values()
    assert bot.stack == min_buy_in
    community = await store.community("telegram", "-100")
    player = await store.get_player(bot.player_id)
    assert player is not None and player.balance == (HOUSE_BUY_INS - 1) * min_buy_in
    rows = [
        (e.kind, e.balance_delta, e.stack_delta, e.actor, e.reason)
        for e in await store.ledger(community.id)
        if e.player_id == bot.player_id
    ]
    assert rows == [
        (LedgerKind.ADMIN_GRANT, HOUSE_BUY_INS * min_buy_in, 0, "house", HOUSE_REASON),
        (LedgerKind.BUY_IN, -min_buy_in, min_buy_in, None, None),
    ]
    assert await check_store(store) == []
