"""Subprocess of test_crash.py (not a test): settles hands on a database file in a loop until it
is killed with SIGKILL.

Usage: ``python crash_worker.py DB TABLE_ID ROUND``. Every ledger row insert sleeps 2 ms (a
trace callback on the connection's thread, i.e. inside the open transaction), so a random kill
usually lands in the middle of a settlement. Lines on stdout (unbuffered):
``ready``; ``begin N`` before hand N; ``in-tx N`` when its history row is being inserted
(inside BEGIN IMMEDIATE … COMMIT); ``done N`` once settle_hand returned.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from storage.sqlite import SqliteStore


def _slow(statement: str) -> None:
    if statement.startswith("INSERT INTO ledger"):
        time.sleep(0.002)
    elif statement.startswith("INSERT INTO hands"):
        number = statement.split("VALUES (", 1)[1].split(",")[1].strip()
        print(f"in-tx {number}", flush=True)


async def main(path: str, table_id: int, round_no: int) -> None:
    store = await SqliteStore.open(path)
    await store._connection.set_trace_callback(_slow)
    rng = random.Random(round_no)
    stacks = dict(await store.stacks(table_id))
    players = sorted(stacks)
    print("ready", flush=True)
    for i in range(1, 100_000):
        number = round_no * 100_000 + i
        # a zero-sum transfer from every other player to a random winner, capped by the stacks
        winner = rng.choice(players)
        deltas = {p: -rng.randint(0, min(stacks[p], 50)) for p in players if p != winner}
        deltas[winner] = -sum(deltas.values())
        print(f"begin {number}", flush=True)
        await store.settle_hand(
            table_id,
            number,
            {"setup": {"seed": str(number)}, "actions": list(range(40))},
            {"deltas": {str(p): d for p, d in deltas.items()}},
            dict(enumerate(players)),
            deltas,
            key=f"settle:{table_id}:{number}",
        )
        for p, d in deltas.items():
            stacks[p] += d
        print(f"done {number}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
