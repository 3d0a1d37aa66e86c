"""Crash safety (issue 3): a process killed with SIGKILL in the middle of a settlement leaves
either the whole transfer or none of it. A real subprocess (crash_worker.py) settles hands on a
file in a loop, slowed down inside its transactions, and is killed at random moments."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from storage.api import LedgerKind
from storage.check import check_database, check_store
from storage.sqlite import SqliteStore

WORKER = Path(__file__).with_name("crash_worker.py")
ROUNDS = 6
PLAYERS = 3
BUY_IN = 1000

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


async def _setup(path: Path) -> tuple[int, int]:
    store = await SqliteStore.open(path)
    try:
        c = await store.community("telegram", "-100")
        t = await store.create_table(c.id, "chat", {}, 100)
        for i in range(PLAYERS):
            p = await store.player(c.id, f"u{i}", f"P{i}")
            await store.buy_in(t.id, p.id, BUY_IN, key=f"buy-{i}")
        return c.id, t.id
    finally:
        await store.close()


def _run_and_kill(path: Path, table_id: int, round_no: int, rng: random.Random) -> list[str]:
    """Start the worker, let it complete a few settlements, kill it at a random moment of the
    next ones; its output words."""
    proc = subprocess.Popen(
        [sys.executable, "-u", str(WORKER), str(path), str(table_id), str(round_no)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    assert proc.stdout is not None
    seen: list[str] = []
    warm_up = rng.randint(1, 5)
    while sum(line.startswith("done") for line in seen) < warm_up:
        line = proc.stdout.readline()
        if not line:  # the worker died on its own
            _, err = proc.communicate(timeout=30)
            pytest.fail(f"worker stopped: {seen[-3:]} {err}")
        seen.append(line.strip())
    time.sleep(rng.uniform(0.0, 0.03))  # a settlement takes ≈ 10 ms, most of it in its transaction
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    return " ".join([*seen, out]).split()


async def _verify(path: Path, community_id: int, table_id: int) -> tuple[set[int], int]:
    """The settled hand numbers; asserts every hand has its whole set of rows."""
    assert await check_database(path) == []  # read-only, before any recovery by a writer
    store = await SqliteStore.open(path)
    try:
        assert await check_store(store) == []
        hands = await store.export_hands(table_id)
        rows = [r for r in await store.ledger(community_id) if r.kind is LedgerKind.HAND_RESULT]
        by_hand: dict[int, list[int]] = defaultdict(list)
        for r in rows:
            by_hand[r.hand_id or 0].append(r.stack_delta)
        assert set(by_hand) == {h["id"] for h in hands}  # no rows without a history row
        for h in hands:
            deltas = by_hand[h["id"]]
            assert len(deltas) == PLAYERS  # the full set of rows, never half a settlement
            assert sum(deltas) == 0
            expected = {int(p): d for p, d in h["result"]["deltas"].items()}
            assert sorted(deltas) == sorted(expected.values())
        stacks = await store.stacks(table_id)
        assert sum(stacks.values()) == PLAYERS * BUY_IN  # no kush created or lost
        return {int(h["number"]) for h in hands}, len(rows)
    finally:
        await store.close()


def test_sigkill_during_settlements_leaves_whole_transfers_or_none(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    community_id, table_id = asyncio.run(_setup(path))
    rng = random.Random(20250101)
    completed: set[int] = set()  # settle_hand returned: must be durable
    killed_in_tx: list[int] = []  # killed after the history row was written, before "done"
    for round_no in range(1, ROUNDS + 1):
        words = _run_and_kill(path, table_id, round_no, rng)
        assert words[0] == "ready"
        events = list(zip(words[1::2], map(int, words[2::2]), strict=True))
        completed |= {n for what, n in events if what == "done"}
        in_tx = [n for what, n in events if what == "in-tx"]
        if in_tx and in_tx[-1] not in completed:
            killed_in_tx.append(in_tx[-1])
        settled, _ = asyncio.run(_verify(path, community_id, table_id))
        assert completed <= settled
    # the slowed-down transactions make most kills land inside one
    assert killed_in_tx, "no kill landed inside a transaction; the test proved nothing"
    settled, _ = asyncio.run(_verify(path, community_id, table_id))
    lost = [n for n in killed_in_tx if n not in settled]
    assert lost, "every interrupted settlement was found committed"
