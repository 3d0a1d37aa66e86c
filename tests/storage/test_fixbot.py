"""A computer player's account (issue 13): created with no starting balance, its kush comes
only from the house's grants (every store kind)."""

from __future__ import annotations

from storage.api import LedgerKind
from tests.storage.helpers import AnyStore, assert_consistent


async def test_a_player_made_without_starting_kush_has_no_starting_row(store: AnyStore) -> None:
    """``player(..., starting=False)`` (a computer player) starts at 0 with no ledger row; a
    member made next to it still gets the community's starting balance, and an existing
    player is returned as it is (its balance not reset, no second row)."""
    c = await store.community("telegram", "-100")
    bot = await store.player(c.id, "bot:anna", "🤖 Anna", starting=False)
    assert (bot.user_id, bot.name, bot.balance) == ("bot:anna", "🤖 Anna", 0)
    assert await store.ledger(c.id) == []
    alice = await store.player(c.id, "42", "Alice", "en")
    assert alice.balance == 1000
    await store.grant(c.id, bot.id, 500, actor="house", reason="house kush", key="h/1")
    again = await store.player(c.id, "bot:anna", "🤖 Anna", starting=False)
    assert (again.id, again.balance) == (bot.id, 500)
    assert (await store.player(c.id, "bot:anna", "🤖 Anna")).balance == 500  # (made already)
    rows = [(r.kind, r.player_id, r.balance_delta) for r in await store.ledger(c.id)]
    assert rows == [(LedgerKind.STARTING, alice.id, 1000), (LedgerKind.ADMIN_GRANT, bot.id, 500)]
    await assert_consistent(store)
