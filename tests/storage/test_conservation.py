"""Conservation (issue 3, R8.2, R8.4): random programs of buy-ins, hand results, cash-outs,
refunds, grants (both signs), daily bonuses and replayed keys keep every balance and stack
equal to an independent model and to the ledger, and each community's
``sum(balances) + sum(stacks)`` equal to the kush minted; the check finds nothing."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from storage._common import MINTING_KINDS
from storage.api import InsufficientFunds, LedgerKind
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.storage.helpers import STORE_KINDS, open_store

AnyStore = SqliteStore | MemoryStore

OPS = ("buy_in", "hand", "cash_out", "refund", "grant", "daily", "replay")


@dataclass
class Model:
    """What the balances and stacks must be, computed without the store."""

    balances: dict[int, int]
    stacks: dict[tuple[int, int], int] = field(default_factory=dict)
    minted: dict[int, int] = field(default_factory=dict)
    replays: list[tuple[Callable[[], Awaitable[Any]], Any]] = field(default_factory=list)


async def _assert_matches(store: AnyStore, model: Model, tables: list[int]) -> None:
    for pid, expected in model.balances.items():
        p = await store.get_player(pid)
        assert p is not None and p.balance == expected
    for t in tables:
        expected_stacks = {p: s for (tt, p), s in model.stacks.items() if tt == t}
        assert dict(await store.stacks(t)) == expected_stacks


async def _program(store: AnyStore, data: st.DataObject) -> None:
    home = await store.community("telegram", "-1")
    away = await store.community("discord", "guild")
    players = [await store.player(home.id, f"u{i}", f"P{i}") for i in range(4)]
    stranger = await store.player(away.id, "z", "Zed")
    everyone = [*players, stranger]
    member_of = {p.id: p.community_id for p in everyone}
    tables = [(await store.create_table(home.id, f"chat-{i}", {}, 10)).id for i in range(2)] + [
        (await store.create_table(away.id, "chan", {}, 10)).id
    ]
    table_community = {tables[0]: home.id, tables[1]: home.id, tables[2]: away.id}
    model = Model({p.id: 1000 for p in everyone}, minted={home.id: 4000, away.id: 1000})
    hand_no = 0
    # a random opening: some players already seated, so hands are played from the first step
    for i, p in enumerate(players):
        for t in tables[:2]:
            amount = data.draw(st.integers(0, 400), label="opening buy-in")
            if amount:
                await store.buy_in(t, p.id, amount, key=f"open-{i}-{t}")
                model.balances[p.id] -= amount
                model.stacks[(t, p.id)] = amount

    for step in range(data.draw(st.integers(10, 40), label="steps")):
        op = data.draw(st.sampled_from(OPS), label="op")
        key = f"k{step}"
        if op == "buy_in":
            t = data.draw(st.sampled_from(tables))
            pool = [p for p in everyone if p.community_id == table_community[t]]
            p = data.draw(st.sampled_from(pool))
            amount = data.draw(st.integers(1, 600))
            if amount > model.balances[p.id]:
                event("buy-in refused")
                with pytest.raises(InsufficientFunds):
                    await store.buy_in(t, p.id, amount, key=key)
            else:
                got = await store.buy_in(t, p.id, amount, key=key)
                model.balances[p.id] -= amount
                model.stacks[(t, p.id)] = model.stacks.get((t, p.id), 0) + amount
                assert got == model.stacks[(t, p.id)]
                model.replays.append((partial(store.buy_in, t, p.id, amount, key=key), got))
        elif op == "hand":
            t = data.draw(st.sampled_from(tables))
            seated = sorted(pid for (tt, pid) in model.stacks if tt == t)
            if len(seated) < 2:
                continue
            winner = data.draw(st.sampled_from(seated))
            deltas = {
                pid: -data.draw(st.integers(0, model.stacks[(t, pid)]))
                for pid in seated
                if pid != winner
            }
            deltas[winner] = -sum(deltas.values())
            hand_no += 1
            event("hand settled")
            settle = partial(
                store.settle_hand,
                t,
                hand_no,
                {"n": hand_no},
                {"deltas": {str(pid): d for pid, d in deltas.items()}},
                dict(enumerate(seated)),
                deltas,
                key=key,
            )
            rec = await settle()
            for pid, d in deltas.items():
                model.stacks[(t, pid)] += d
            model.replays.append((settle, rec))
        elif op in ("cash_out", "refund"):
            if not model.stacks:
                continue
            t, pid = data.draw(st.sampled_from(sorted(model.stacks)))
            kind = LedgerKind.CASH_OUT if op == "cash_out" else LedgerKind.REFUND
            moved = await store.cash_out(t, pid, key=key, kind=kind)
            assert moved == model.stacks.pop((t, pid))
            model.balances[pid] += moved
            model.replays.append((partial(store.cash_out, t, pid, key=key, kind=kind), moved))
        elif op == "grant":
            p = data.draw(st.sampled_from(everyone))
            amount = data.draw(st.integers(-1500, 800).filter(lambda a: a != 0))
            if model.balances[p.id] + amount < 0:
                event("grant refused")
                with pytest.raises(InsufficientFunds):
                    await store.grant(p.community_id, p.id, amount, actor="a", reason="", key=key)
            else:
                grant = partial(
                    store.grant, p.community_id, p.id, amount, actor="a", reason="", key=key
                )
                got = await grant()
                model.balances[p.id] += amount
                model.minted[p.community_id] += amount
                assert got == model.balances[p.id]
                model.replays.append((grant, got))
        elif op == "daily":
            p = data.draw(st.sampled_from(everyone))
            day = data.draw(st.sampled_from(["2025-01-01", "2025-01-02"]))
            paid = await store.claim_daily(p.community_id, p.id, 100, day)
            if paid is None:
                event("daily refused")
            else:
                model.balances[p.id] += 100
                model.minted[p.community_id] += 100
                assert paid == model.balances[p.id]
        elif op == "replay" and model.replays:
            call, first = data.draw(st.sampled_from(model.replays))
            event("key replayed")
            assert await call() == first  # and nothing moves: checked just below
        await _assert_matches(store, model, tables)

    assert await check_store(store) == []
    for community in (home, away):
        rows = await store.ledger(community.id)
        minted = sum(r.balance_delta for r in rows if r.kind in MINTING_KINDS)
        held = sum(v for pid, v in model.balances.items() if member_of[pid] == community.id)
        stacked = sum(v for (t, _), v in model.stacks.items() if table_community[t] == community.id)
        assert minted == model.minted[community.id] == held + stacked
        board = await store.leaderboard(community.id, limit=100)
        assert sum(total for _, total in board) == minted


@pytest.mark.parametrize("kind", STORE_KINDS)
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_programs_conserve_kush(kind: str, data: st.DataObject) -> None:
    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            async with open_store(kind, Path(tmp)) as store:
                await _program(store, data)

    asyncio.run(run())
