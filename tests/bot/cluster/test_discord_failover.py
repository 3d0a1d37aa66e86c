"""A Discord worker killed with SIGKILL mid-hand (issue 14): two worker processes
(``worker_child.py``, the real composition root) on one SQLite file, the fake Discord in this
process. w0 prefers shard 0 and w1 shard 1; the table is in a guild of shard 1. w1 is killed
after the first street was committed: w0 takes shard 1's lease, IDENTIFYs shard 1, takes the
table over from its last committed step, and the players finish the hand through it (each
street: "🂠 My cards", "arrange for me", confirm), settled once; the ledger check is clean.
Bounded: the test gives up after 60 s.

The workers' leases last :data:`LEASE` seconds (the product default is 5 s): long enough that
a worker held up on a loaded machine (an SQLite write waiting for the other worker's, a
process not scheduled for a while) still renews its leases in time (every quarter of a lease,
so a stall of three quarters of one loses them), so that w0 cannot take shard 1 or the table
before w1 is killed; and short enough that the takeover after the SIGKILL (the lease runs
out, one sweep, IDENTIFY, the table's last step loaded: about 1.3 lease times) is checked
against :data:`TAKEOVER_LEASES` lease times."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bot.cluster import shard_key
from bot.model import LiveTable
from storage.api import lease_key
from storage.check import check_store
from storage.sqlite import SqliteStore
from tests.bot.cluster.harness import DISCORD_TOKEN, discord_workers
from tests.bot.discord.shard_world import Players, guild_on_shard
from tests.fakes.discord_api import (
    CHANNEL_ID,
    FakeDiscord,
    FakeUser,
)

ALICE = FakeUser(401, "Alice", "en-US")
BOB = FakeUser(402, "Bob", "en-US")
BOUND = 60.0
#: seconds the workers' leases last unrenewed (``LEASE_SECONDS``)
LEASE = 3.0
#: the takeover must be done within this many lease times of the SIGKILL: its own path takes
#: one and a bit; a worker stepping aside (two lease times or more) or waiting for a shard to
#: run steadily (STEADY_LEASES, 10) would not make it
TAKEOVER_LEASES = 5
KEY = lease_key("discord", str(CHANNEL_ID))


def _board(snapshot: Any, user: FakeUser) -> str:
    t = LiveTable.from_json(snapshot, time.time())
    seat = t.seat_of(str(user.id))
    assert t.hand is not None and seat is not None
    return str(t.hand.board_of(seat.seat))


async def test_r14_a_sigkilled_discord_worker_s_shard_and_hand_resume_on_the_other(
    tmp_path: Path,
) -> None:
    deadline = time.monotonic() + BOUND
    fake = FakeDiscord(DISCORD_TOKEN, guild_id=guild_on_shard(1))
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    store = await SqliteStore.open(db)  # migrated before the workers open it
    # the presses check an edit of the pressed hand in place (callback type 7): deferred after
    # 30 s, not the bot's 0.8 s, which a loaded machine's press may take (type 6, then an edit)
    workers = discord_workers(
        fake.port,
        {"DATABASE_PATH": str(db)},
        tmp_path,
        ["0", "1"],
        shard_count=2,
        lease_seconds=LEASE,
        answer_within=30.0,
    )

    def logs() -> str:
        return "\n".join(
            f"--- {w.name}\n{w.log.read_text()[-3000:]}" for w in workers if w.log.exists()
        )

    try:
        for w in workers:
            await w.start()
        want = {shard_key(0): "w0", shard_key(1): "w1"}
        while await store.leases("discord-shard:") != want or fake.connections != [
            (0, 2),
            (1, 2),
        ]:
            assert time.monotonic() < deadline and all(w.alive for w in workers), logs()
            await fake.wait_for(lambda: True, 0.1)
        p = Players(fake)
        await p.seat((ALICE, BOB))
        table = await store.chat_table("discord", str(CHANNEL_ID))
        assert table is not None and await store.lease_owner(KEY) == "w1"
        first = None
        while first is None:  # whoever is to act plays the first street
            assert time.monotonic() < deadline, logs()
            for user in (ALICE, BOB):
                if await p.street(user):
                    first = user
                    break
        state = await store.table_state(table)
        assert state is not None
        committed = _board(state[1], first)
        identified = len(fake.identified)

        workers[1].kill()
        killed = time.monotonic()
        while await store.lease_owner(KEY) != "w0":
            assert time.monotonic() < deadline and workers[0].alive, logs()
            await fake.wait_for(lambda: True, 0.05)
        moved = time.monotonic() - killed
        print(f"shard 1 and its table on w0 {moved:.2f} s after the SIGKILL")
        assert moved < TAKEOVER_LEASES * LEASE, logs()
        assert await store.lease_owner(shard_key(1)) == "w0"
        assert fake.identified[identified:] == [(1, 2)] and fake.connections == [(0, 2), (1, 2)]
        state = await store.table_state(table)
        assert state is not None and _board(state[1], first) == committed  # from its last step

        while not await store.export_hands(table):  # the hand goes on through w0
            assert time.monotonic() < deadline, logs()
            for user in (ALICE, BOB):
                await p.street(user)
        hands = await store.export_hands(table)
        assert [h["number"] for h in hands] == [1]  # settled once
        assert sum((await store.stacks(table)).values()) == 400
        assert await check_store(store) == []
    finally:
        for w in workers:
            await w.stop()
        await store.close()
        await fake.stop()
