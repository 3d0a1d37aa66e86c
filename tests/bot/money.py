"""The conservation check of the kush break-it tests (R8.1–R8.4, R8.7, issue 13), from the
ledger after each scenario: :func:`assert_conserved`.

Per community, ``sum(balances) + sum(stacks)`` (stacks include a tournament's pool, which is
its stacks) equals the kush minted (``starting``, ``admin_grant``, ``daily_bonus`` rows), every
row balances, nothing is negative and no closed table holds kush (``storage.check``); besides,
the house's grants (``actor == "house"``) go to computer players only and a computer player's
kush comes from the house alone (never from or to a member's balance but through hands).
"""

from __future__ import annotations

from collections import defaultdict

from bot.service.bots import is_computer
from storage._common import MINTING_KINDS
from storage.api import LedgerKind, Store
from storage.check import check_store


async def assert_conserved(store: Store) -> dict[int, int]:
    """Assert the ledger is balanced (see module doc); returns community id → kush in it."""
    problems = await check_store(store)  # type: ignore[arg-type]
    assert problems == [], problems
    data = await store.audit_data()  # type: ignore[attr-defined]
    minted: dict[int, int] = defaultdict(int)
    held: dict[int, int] = defaultdict(int)
    for entry in data.ledger:
        if entry.kind in MINTING_KINDS:
            minted[entry.community_id] += entry.balance_delta + entry.stack_delta
        if entry.actor == "house":
            player = await store.get_player(entry.player_id)
            assert player is not None and is_computer(player.user_id), entry
        elif entry.kind is LedgerKind.ADMIN_GRANT:
            player = await store.get_player(entry.player_id)
            assert player is not None and not is_computer(player.user_id), entry
    for community, balance in data.players.values():
        held[community] += balance
    for (table_id, _player), stack in data.stacks.items():
        held[data.tables[table_id][0]] += stack
    for community in set(minted) | set(held):
        assert held[community] == minted[community], (community, held, minted)
    return dict(held)
