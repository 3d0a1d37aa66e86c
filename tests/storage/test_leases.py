"""Leases of workers sharing the tables (issue 14): a chat's lease is taken when free, expired
or already ours, renewed while held, taken over once expired; and a fenced store refuses any
write of a table whose lease its worker lost (a zombie worker can never settle a hand twice).
Runs against every store kind (PostgreSQL too when a server is available)."""

from __future__ import annotations

import pytest

from storage.api import BuyIn, CashOut, LeaseLost, Settlement, StorageError, Store, lease_key
from tests.storage.helpers import assert_consistent, balance, seated

KEY = lease_key("telegram", "chat-1")


class Clock:
    """A clock the test moves (the store's lease clock)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _clocked(store: Store) -> Clock:
    clock = Clock()
    if not hasattr(store, "clock"):
        pytest.skip("this store keeps time by its server's clock")
    store.clock = clock  # type: ignore[attr-defined]
    return clock


async def test_lease_take_renew_and_refuse_another_worker(store: Store) -> None:
    clock = _clocked(store)
    assert await store.lease_owner(KEY) is None
    assert await store.acquire_lease(KEY, "w1", 5.0)
    assert await store.lease_owner(KEY) == "w1"
    assert not await store.acquire_lease(KEY, "w2", 5.0)  # held and live
    assert await store.acquire_lease(KEY, "w1", 5.0)  # ours: renewed
    clock.now += 4.0
    assert await store.renew_leases("w1", [KEY, "telegram:other"], 5.0) == [KEY]
    clock.now += 4.0  # 8 s after the take, 4 s after the renewal: still w1's
    assert not await store.acquire_lease(KEY, "w2", 5.0)
    assert await store.lease_owner(KEY) == "w1"


async def test_an_expired_lease_is_taken_over_and_lost_by_its_holder(store: Store) -> None:
    clock = _clocked(store)
    assert await store.acquire_lease(KEY, "w1", 5.0)
    clock.now += 5.5
    assert await store.lease_owner(KEY) is None
    assert await store.acquire_lease(KEY, "w2", 5.0)
    assert await store.lease_owner(KEY) == "w2"
    assert await store.renew_leases("w1", [KEY], 5.0) == []  # w1 learns it lost the chat
    assert not await store.acquire_lease(KEY, "w1", 5.0)


async def test_release_lets_another_take_at_once(store: Store) -> None:
    _clocked(store)
    assert await store.acquire_lease(KEY, "w1", 5.0)
    await store.release_lease(KEY, "w2")  # not w2's: nothing happens
    assert await store.lease_owner(KEY) == "w1"
    await store.release_lease(KEY, "w1")
    assert await store.acquire_lease(KEY, "w2", 5.0)


async def test_leases_lists_the_live_leases_of_a_prefix(store: Store) -> None:
    """One read of every live lease of a kind (the Discord shards' leases, issue 14)."""
    clock = _clocked(store)
    assert await store.leases("discord-") == {}
    assert await store.acquire_lease("discord-shard:0", "w1", 5.0)
    assert await store.acquire_lease("discord-shard:1", "w2", 2.0)
    assert await store.acquire_lease("discord:55", "w2", 5.0)  # a chat, not of the prefix
    assert await store.acquire_lease(KEY, "w1", 5.0)
    assert await store.leases("discord-") == {"discord-shard:0": "w1", "discord-shard:1": "w2"}
    clock.now += 3.0  # shard 1's lease expired
    assert await store.leases("discord-") == {"discord-shard:0": "w1"}
    assert await store.leases("discord-shard:0") == {"discord-shard:0": "w1"}
    assert await store.leases("nothing") == {}


async def test_heartbeats_list_live_workers(store: Store) -> None:
    clock = _clocked(store)
    await store.heartbeat("w1", "http://127.0.0.1:1", 3.0)
    await store.heartbeat("w2", "http://127.0.0.1:2", 6.0)
    assert await store.live_workers() == {"w1": "http://127.0.0.1:1", "w2": "http://127.0.0.1:2"}
    clock.now += 4.0
    assert await store.live_workers() == {"w2": "http://127.0.0.1:2"}
    await store.heartbeat("w1", "http://127.0.0.1:9", 3.0)
    assert (await store.live_workers())["w1"] == "http://127.0.0.1:9"


async def test_unleased_tables_and_table_state(store: Store) -> None:
    clock = _clocked(store)
    s = await seated(store, 2)
    other = await store.create_table(s.community.id, "chat-2", {"game": "ofc"}, 200)
    await store.save_snapshot(s.table.id, {"v": 1})
    assert await store.unleased_tables() == [
        (s.table.id, KEY),
        (other.id, lease_key("telegram", "chat-2")),
    ]
    assert await store.acquire_lease(KEY, "w1", 5.0)
    assert await store.unleased_tables() == [(other.id, lease_key("telegram", "chat-2"))]
    clock.now += 6.0
    assert [tid for tid, _ in await store.unleased_tables()] == [s.table.id, other.id]
    state = await store.table_state(s.table.id)
    assert state is not None and state[0] == s.table and state[1] == {"v": 1}
    assert await store.table_state(other.id) == (other, {})
    assert await store.chat_table("telegram", "chat-2") == other.id
    assert await store.chat_table("discord", "chat-2") is None
    await store.commit(other.id, [], None, key="close", close=True)
    assert await store.table_state(other.id) is None
    assert await store.chat_table("telegram", "chat-2") is None


async def test_seated_tables_finds_the_tables_of_a_user(store: Store) -> None:
    s = await seated(store, 2)
    a, _ = s.ids
    assert await store.seated_tables("telegram", "u0") == []
    await store.commit(s.table.id, [BuyIn(a, 200)], None, key="b")
    assert await store.seated_tables("telegram", "u0") == [s.table.id]
    assert await store.seated_tables("discord", "u0") == []
    assert await store.seated_tables("telegram", "u1") == []


async def test_fencing_refuses_a_zombie_commit(store: Store) -> None:
    """Worker w1 lost the chat's lease (it stalled past the TTL) and w2 took the table over:
    w1's settlement of the same hand is refused and changes nothing, w2's goes through once."""
    clock = _clocked(store)
    s = await seated(store, 2)
    a, b = s.ids
    assert await store.acquire_lease(KEY, "w1", 5.0)
    store.fence("w1")
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 200)], {"seq": 1}, key="t:s1")
    clock.now += 6.0  # w1 stalls; its lease runs out and w2 takes the chat
    assert await store.acquire_lease(KEY, "w2", 5.0)
    settle = Settlement(1, {"n": 1}, {"r": 1}, {0: a, 1: b}, {a: 30, b: -30})
    with pytest.raises(LeaseLost):
        await store.commit(s.table.id, [settle], {"seq": 2, "by": "w1"}, key="t:s2")
    with pytest.raises(LeaseLost):
        await store.save_snapshot(s.table.id, {"seq": 2, "by": "w1"})
    with pytest.raises(LeaseLost):
        await store.delete_snapshot(s.table.id)
    assert await store.stacks(s.table.id) == {a: 200, b: 200}
    assert await store.export_hands(s.table.id) == []
    store.fence("w2")  # the new owner (its own connection in real life) settles the hand once
    await store.commit(s.table.id, [settle], {"seq": 2, "by": "w2"}, key="t:s2")
    assert await store.stacks(s.table.id) == {a: 230, b: 170}
    store.fence("w1")
    with pytest.raises(LeaseLost):  # the zombie's retry of the same key is refused too
        await store.commit(s.table.id, [settle], {"seq": 2, "by": "w1"}, key="t:s2")
    assert len(await store.export_hands(s.table.id)) == 1
    assert (await store.table_state(s.table.id) or (None, {}))[1] == {"seq": 2, "by": "w2"}
    assert await balance(store, a) == 800
    store.fence(None)
    await assert_consistent(store)


async def test_fencing_refuses_a_table_whose_lease_nobody_took(store: Store) -> None:
    """An expired lease is lost even if no other worker took it yet (the holder cannot know)."""
    clock = _clocked(store)
    s = await seated(store, 1)
    assert await store.acquire_lease(KEY, "w1", 5.0)
    store.fence("w1")
    await store.save_snapshot(s.table.id, {"v": 1})
    clock.now += 5.0
    with pytest.raises(LeaseLost):
        await store.save_snapshot(s.table.id, {"v": 2})
    assert (await store.table_state(s.table.id) or (None, {}))[1] == {"v": 1}
    store.fence(None)  # a single process (no fence) writes without any lease
    await store.save_snapshot(s.table.id, {"v": 3})


async def test_a_moved_chat_keeps_its_lease(store: Store) -> None:
    """A Telegram group upgraded to a supergroup: the worker serving it keeps serving it."""
    _clocked(store)
    s = await seated(store, 1)
    assert await store.acquire_lease(KEY, "w1", 5.0)
    # the table's chat id is the community's here (a Telegram group)
    community = await store.community("telegram", "chat-9", "G")
    table = await store.create_table(community.id, "chat-9", {"game": "pineapple"}, 200)
    assert await store.acquire_lease(lease_key("telegram", "chat-9"), "w1", 5.0)
    assert await store.move_chat("telegram", "chat-9", "chat-10")
    assert await store.lease_owner(lease_key("telegram", "chat-10")) == "w1"
    store.fence("w1")
    await store.save_snapshot(table.id, {"moved": True})
    del s


async def test_fencing_refuses_to_open_a_table_in_a_chat_not_held(store: Store) -> None:
    _clocked(store)
    community = await store.community("telegram", "-100", "Group")
    store.fence("w1")
    with pytest.raises(LeaseLost):
        await store.create_table(community.id, "chat-1", {"game": "pineapple"}, 200)
    assert await store.chat_table("telegram", "chat-1") is None
    assert await store.acquire_lease(KEY, "w1", 5.0)
    table = await store.create_table(community.id, "chat-1", {"game": "pineapple"}, 200)
    assert await store.chat_table("telegram", "chat-1") == table.id


async def test_fenced_writes_of_a_missing_or_closed_table_fail_as_unfenced_ones(
    store: Store,
) -> None:
    """A fenced worker's write of a table that does not exist, or was closed, fails with the
    same StorageError as a single process's (the fence and the table's lock are read in one
    statement on PostgreSQL); a table whose chat has no lease row at all is LeaseLost."""
    s = await seated(store, 1)
    store.fence("w1")
    with pytest.raises(LeaseLost):  # no lease was ever taken for the chat
        await store.save_snapshot(s.table.id, {"v": 1})
    assert await store.acquire_lease(KEY, "w1", 5.0)
    await store.save_snapshot(s.table.id, {"v": 1})
    for fence in ("w1", None):
        store.fence(fence)
        with pytest.raises(StorageError) as missing:
            await store.save_snapshot(s.table.id + 1000, {"v": 2})
        assert not isinstance(missing.value, LeaseLost)
        with pytest.raises(StorageError) as missing:
            await store.commit(s.table.id + 1000, [], {"v": 2}, key=f"missing:{fence}")
        assert not isinstance(missing.value, LeaseLost)
    store.fence(None)
    await store.commit(s.table.id, [], None, key="t:close", close=True)
    for fence in ("w1", None):
        store.fence(fence)
        with pytest.raises(StorageError, match="closed"):
            await store.save_snapshot(s.table.id, {"v": 3})
        with pytest.raises(StorageError, match="closed"):
            await store.commit(s.table.id, [], {"v": 3}, key=f"t:after:{fence}")
    store.fence(None)
    await assert_consistent(store)


async def test_fencing_a_closed_tables_owed_snapshot(store: Store) -> None:
    """A closed table's final snapshot owing only its pictures posted later (issue 12, 14)
    is replaced as each is posted and forgotten with the last, under the chat's lease: a
    worker that lost it can neither replace nor forget it (the chat's new worker posts
    them), on every store alike."""
    clock = _clocked(store)
    s = await seated(store, 1)
    (a,) = s.ids
    assert await store.acquire_lease(KEY, "w1", 5.0)
    store.fence("w1")
    full = {"outbox": [{"id": 1, "kind": "post", "text": "x"}], "late_pictures": [{"ref": "p1"}]}
    await store.commit(s.table.id, [CashOut(a)], full, key="close", close=True)
    owed = {"outbox": [], "late_pictures": [{"ref": "p1"}, {"ref": "p2"}]}
    await store.save_owed(s.table.id, owed)
    assert [(t.id, d) for t, d in await store.closed_snapshots()] == [(s.table.id, owed)]
    clock.now += 6.0  # w1 stalls; its lease runs out and w2 takes the chat
    assert await store.acquire_lease(KEY, "w2", 5.0)
    with pytest.raises(LeaseLost):
        await store.save_owed(s.table.id, {"outbox": [], "late_pictures": [{"ref": "p2"}]})
    with pytest.raises(LeaseLost):
        await store.delete_snapshot(s.table.id)
    assert [(t.id, d) for t, d in await store.closed_snapshots()] == [(s.table.id, owed)]
    store.fence("w2")
    await store.save_owed(s.table.id, {"outbox": [], "late_pictures": [{"ref": "p2"}]})
    await store.delete_snapshot(s.table.id)
    assert await store.closed_snapshots() == []
    store.fence(None)
    await assert_consistent(store)


async def test_lease_lapsed_says_how_long_ago_the_lease_ran_out(store: Store) -> None:
    """What a worker taking a dead worker's table over reads before taking the lease: when
    the dead one last renewed it (issue 14, R8.5)."""
    clock = _clocked(store)
    assert await store.lease_lapsed(KEY) is None  # never taken
    assert await store.acquire_lease(KEY, "w1", 5.0)
    clock.now += 2.0
    assert await store.lease_lapsed(KEY) == -3.0  # runs 3 s more
    assert await store.renew_leases("w1", [KEY], 5.0) == [KEY]
    clock.now += 65.0  # w1 died right after that renewal
    assert await store.lease_lapsed(KEY) == 60.0
    assert await store.acquire_lease(KEY, "w2", 5.0)
    assert await store.lease_lapsed(KEY) == -5.0  # w2's now
    await store.release_lease(KEY, "w2")
    assert await store.lease_lapsed(KEY) is None  # given up


async def test_releasing_a_lease_that_ran_out_keeps_when_it_ran_out(store: Store) -> None:
    """A worker waking from a stall gives up the leases of the tables it lets go: one that ran
    out meanwhile stays as it is (free to take), so that the worker taking the table over
    still knows when the stalled one last renewed it (issue 14, R8.5)."""
    clock = _clocked(store)
    assert await store.acquire_lease(KEY, "w1", 5.0)
    clock.now += 65.0
    await store.release_lease(KEY, "w1")
    assert await store.lease_lapsed(KEY) == 60.0
    assert await store.lease_owner(KEY) is None
    assert await store.acquire_lease(KEY, "w2", 5.0)  # free to take
    await store.release_lease(KEY, "w1")  # (not w1's: nothing happens)
    assert await store.lease_owner(KEY) == "w2"


async def test_lapsed_leases_name_whose_leases_ran_out(store: Store) -> None:
    """Whose tables a takeover took (fix39i): the leases of a prefix that ran out and were
    not taken since, with the worker that held them last; live and given-up ones are not."""
    clock = _clocked(store)
    assert await store.acquire_lease("telegram:1", "w1", 5.0)
    assert await store.acquire_lease("telegram:2", "w1", 5.0)
    assert await store.acquire_lease("telegram:3", "w3", 5.0)
    assert await store.acquire_lease("discord:4", "w1", 5.0)
    assert await store.lapsed_leases("telegram:") == {}
    clock.now += 6.0  # every lease ran out
    assert await store.renew_leases("w3", ["telegram:3"], 5.0) == []
    assert await store.acquire_lease("telegram:2", "w2", 5.0)  # taken over already
    assert await store.lapsed_leases("telegram:") == {"telegram:1": "w1", "telegram:3": "w3"}
    assert await store.lapsed_leases("") == {
        "discord:4": "w1",
        "telegram:1": "w1",
        "telegram:3": "w3",
    }


async def test_prune_leases_deletes_those_that_ran_out_long_ago_but_an_open_table_s(
    store: Store,
) -> None:
    """perf43: a lease that ran out stayed for good (a crashed worker run's
    ``worker-run:<w>:<token>``, the chat of a table closed since), and every sweep that found
    an orphan read them all (:meth:`Store.lapsed_leases`). Pruning deletes, in one
    statement, those that ran out more than ``kept`` seconds ago; not a live one, not one
    lapsed for less, and never the chat lease of an open table (no live worker holds it:
    a takeover, maybe after a whole outage, reads when it ran out and whose it was)."""
    clock = _clocked(store)
    s = await seated(store, 2)  # (table open in chat-1: its lease is KEY)
    closed = await store.create_table(s.community.id, "chat-2", {"game": "ofc"}, 200)
    await store.commit(closed.id, [], None, key="close", close=True)
    closed_key = lease_key("telegram", "chat-2")
    assert await store.acquire_lease(KEY, "w1", 5.0)
    assert await store.acquire_lease(closed_key, "w1", 5.0)
    assert await store.acquire_lease("worker-run:w1:abc", "w1", 5.0)
    clock.now += 100.0  # w1 died: all three ran out (95 s ago)
    assert await store.acquire_lease("worker-run:w2:def", "w2", 5.0)  # live
    assert await store.acquire_lease("discord-shard:0", "w2", 1.0)
    clock.now += 10.0  # the shard's ran out 9 s ago, w2's run lease 5 s ago
    assert await store.prune_leases(110.0) == 0  # (none that old: w1's ran out 105 s ago)
    assert len(await store.lapsed_leases("")) == 5
    assert await store.prune_leases(100.0) == 2  # the closed chat's and w1's run
    assert await store.lapsed_leases("") == {
        "discord-shard:0": "w2",
        KEY: "w1",
        "worker-run:w2:def": "w2",
    }
    assert await store.lease_lapsed(KEY) == 105.0  # (the takeover still knows)
    assert await store.lease_lapsed(closed_key) is None
    assert await store.lease_lapsed("worker-run:w1:abc") is None
    assert await store.prune_leases(0.0) == 2  # all but the open table's chat
    assert await store.lapsed_leases("") == {KEY: "w1"}
    assert await store.acquire_lease(KEY, "w3", 5.0)
    assert await store.prune_leases(0.0) == 0  # (live)
    assert await store.lease_owner(KEY) == "w3"
    with pytest.raises(ValueError):
        await store.prune_leases(-1.0)
