"""Statistics from the per-player figures of the history (issue 12): written with every
settlement, summed by SQL (SqliteStore, PostgresStore: one query text, storage/_common.py) or
in Python (MemoryStore) to the same numbers, and derived for older entries by migration 002
(both databases)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import storage.postgres as postgres_module
import storage.sqlite as sqlite_module
from game.options import RuleOptions
from storage.api import BuyIn, HandStats, InsufficientFunds, Settlement, StorageError
from storage.postgres import PostgresStore
from storage.postgres import migrations as postgres_migrations
from storage.sqlite import SqliteStore, migrations
from tests.game.helpers import deal, place_all
from tests.game.test_history import scripted_hand
from tests.pg import fresh_database
from tests.storage.before_002 import (
    LATER_COLUMNS,
    STATS_COLUMNS,
    back_to_001,
    drop_later_columns,
)
from tests.storage.helpers import AnyStore, seated


def scripted_record() -> tuple[dict[str, Any], dict[str, Any]]:
    """The hand of tests/game/test_history.py: seat 0 scoops a fouled seat 1 for 38 points
    (25 + 7 royalties, Fantasyland earned), as the service records it."""
    hand = scripted_hand()
    assert hand.result is not None
    return hand.to_json(), {**hand.result.to_json(), "kush": {"0": 38, "1": -38}}


async def play_two(store: AnyStore) -> tuple[int, int, int, int]:
    """Three players; a and b play the scripted hand twice (a wins 38 each time), then a
    settle_per_round round entry moves 5 from c to b. Returns (community, a, b, c)."""
    s = await seated(store, 3)
    a, b, c = s.ids
    tid = s.table.id
    await store.commit(tid, [BuyIn(a, 200), BuyIn(b, 200), BuyIn(c, 200)], {}, key="k:0")
    hand, result = scripted_record()
    for n in (1, 2):
        settle = Settlement(n, hand, result, {0: a, 1: b}, {a: 38, b: -38})
        await store.commit(tid, [settle], {}, key=f"k:{n}")
    round_end = Settlement(3, {"round_end": True}, {"round_end": True, "kush": {"1": 5, "2": -5}},
                           {1: b, 2: c}, {b: 5, c: -5})  # fmt: skip
    await store.commit(tid, [round_end], {}, key="k:3")
    return s.community.id, a, b, c


async def test_player_stats_are_the_hands_figures_summed_checked_by_hand(
    store: AnyStore,
) -> None:
    _community, a, b, c = await play_two(store)
    assert await store.player_stats(a) == HandStats(
        hands=2, players=1, boards=2, points=76, kush=76, kush_won=76, fouls=0, royalties=64,
        scoops=2, fl_chances=2, fl_entered=2, fl_played=0, fl_stayed=0, biggest_win=38,
        biggest_winner=a,
    )  # fmt: skip
    # b: two fouled hands (-38 each) and the round entry (+5), which is no hand played
    assert await store.player_stats(b) == HandStats(
        hands=2, players=1, boards=2, points=-76, kush=-71, kush_won=5, fouls=2, royalties=0,
        scoops=0, fl_chances=2, fl_entered=0, biggest_win=5, biggest_winner=b,
    )  # fmt: skip
    assert await store.player_stats(c) == HandStats(hands=0, players=1, kush=-5)
    assert await store.player_stats(999) == HandStats()


async def test_community_stats_count_each_hand_once(store: AnyStore) -> None:
    community, a, _b, _c = await play_two(store)
    group = await store.community_stats(community)
    assert (group.hands, group.players, group.boards) == (2, 3, 4)
    assert (group.points, group.kush, group.kush_won) == (0, 0, 81)
    assert (group.fouls, group.royalties, group.scoops, group.fl_entered) == (2, 64, 2, 2)
    assert (group.biggest_win, group.biggest_winner) == (38, a)
    assert await store.community_stats(community + 1) == HandStats()


async def test_community_stats_can_leave_computer_players_out(store: AnyStore) -> None:
    """The group's /stats named a computer player (house kush, left out of /top) as the
    biggest winner and counted it among the players: with ``skip_prefix`` their entries are
    left out of every figure, the hands they played with members still counted."""
    community = await store.community("telegram", "-100", "Group")
    bot = await store.player(community.id, "bot:anna", "🤖 Anna")
    b = await store.player(community.id, "u1", "Bea")
    c = await store.player(community.id, "u2", "Cy")
    table = await store.create_table(community.id, "chat-1", {"game": "pineapple"}, 200)
    moves = [BuyIn(bot.id, 200), BuyIn(b.id, 200), BuyIn(c.id, 200)]
    await store.commit(table.id, moves, {}, key="k:0")
    hand, result = scripted_record()
    for n in (1, 2):  # the computer player scoops Bea twice, +38 each
        settle = Settlement(n, hand, result, {0: bot.id, 1: b.id}, {bot.id: 38, b.id: -38})
        await store.commit(table.id, [settle], {}, key=f"k:{n}")
    round_end = Settlement(3, {"round_end": True}, {"round_end": True, "kush": {"1": 5, "2": -5}},
                           {1: b.id, 2: c.id}, {b.id: 5, c.id: -5})  # fmt: skip
    await store.commit(table.id, [round_end], {}, key="k:3")
    everyone = await store.community_stats(community.id)
    assert (everyone.players, everyone.biggest_win, everyone.biggest_winner) == (3, 38, bot.id)
    members = await store.community_stats(community.id, None, "bot:")
    assert members == HandStats(
        hands=2, players=2, boards=2, points=-76, kush=-76, kush_won=5, fouls=2, royalties=0,
        scoops=0, fl_chances=2, fl_entered=0, biggest_win=5, biggest_winner=b.id,
    )  # fmt: skip
    assert await store.community_stats(community.id, time.time() + 60, "bot:") == HandStats()


async def test_r8_7_a_tournament_payout_is_counted_apart_from_the_hands_winnings(
    store: AnyStore,
) -> None:
    """A tournament's payout entry (R8.7: a prizes less buy-ins) was summed with the hands: a
    +100 payout became the player's biggest win and part of the kush won. It is counted apart
    now; the net (``kush``) still has it."""
    community, a, b, _c = await play_two(store)
    s = await seated(store, 2, chat="chat-2")  # the same players at another table
    assert s.ids == [a, b]
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 200)], {}, key="t:0")
    payout = Settlement(1, {"tournament_end": True},
                        {"tournament_end": True, "kush": {"0": 100, "1": -100}},
                        {0: a, 1: b}, {a: 100, b: -100})  # fmt: skip
    await store.commit(s.table.id, [payout], {}, key="t:1")
    assert await store.player_stats(a) == HandStats(
        hands=2, players=1, boards=2, points=76, kush=176, kush_won=76, fouls=0, royalties=64,
        scoops=2, fl_chances=2, fl_entered=2, tournaments=1, tournament_kush=100,
        biggest_win=38, biggest_winner=a,
    )  # fmt: skip
    got = await store.player_stats(b)
    assert (got.kush, got.kush_won, got.tournaments, got.tournament_kush) == (-171, 5, 1, -100)
    assert (got.biggest_win, got.biggest_winner) == (5, b)
    group = await store.community_stats(community)
    assert (group.hands, group.kush, group.kush_won) == (2, 0, 81)
    assert (group.tournaments, group.tournament_kush) == (1, 0)
    assert (group.biggest_win, group.biggest_winner) == (38, a)


async def play_tournament_hand(store: AnyStore, a: int, b: int) -> int:
    """a and b play the scripted hand at a tournament table (R8.7): chips move, no kush; its
    result carries the tournament's record, as the service stores it. Returns the table."""
    s = await seated(store, 2, chat="chat-t")
    assert s.ids == [a, b]
    hand, result = scripted_record()
    result = {**result, "kush": {}, "tournament": {"chips": {"0": 1038, "1": 962}}}
    await store.commit(s.table.id, [Settlement(1, hand, result, {0: a, 1: b}, {})], {}, key="t:1")
    return s.table.id


async def test_r8_7_a_tournament_hand_is_counted_apart_from_the_cash_hands(
    store: AnyStore,
) -> None:
    """A tournament's hand moves chips, not kush (R8.7): it was counted in ``hands`` with 0
    kush, so a player's kush per hand fell with every tournament hand. ``hands`` counts the
    cash hands now, ``tournament_hands`` and ``tournament_points`` the tournament's; the
    board figures count both; /top's hands played count both."""
    community, a, b, c = await play_two(store)
    await play_tournament_hand(store, a, b)
    assert await store.player_stats(a) == HandStats(
        hands=2, players=1, boards=3, points=114, kush=76, kush_won=76, fouls=0, royalties=96,
        scoops=3, fl_chances=3, fl_entered=3, tournament_hands=1, tournament_points=38,
        biggest_win=38, biggest_winner=a,
    )  # fmt: skip
    got = await store.player_stats(b)
    assert (got.hands, got.tournament_hands, got.tournament_points, got.fouls) == (2, 1, -38, 3)
    group = await store.community_stats(community)
    assert (group.hands, group.tournament_hands, group.boards) == (2, 1, 6)
    board = await store.kush_leaderboard(community)
    assert {p.id: (kush, hands) for p, kush, hands in board} == {
        a: (76, 3),
        b: (-71, 3),
        c: (-5, 0),
    }


async def test_kush_leaderboard_by_period(store: AnyStore, monkeypatch: pytest.MonkeyPatch) -> None:
    start = 1_800_000_000.0
    now = [start]
    monkeypatch.setattr(time, "time", lambda: now[0])
    s = await seated(store, 3)
    a, b, c = s.ids
    tid = s.table.id
    await store.commit(tid, [BuyIn(a, 200), BuyIn(b, 200), BuyIn(c, 200)], {}, key="k:0")
    hand, result = scripted_record()
    # day 0: a beats b by 38; day 10: b beats c by 38 (seat 0 wins the scripted hand)
    await store.commit(tid, [Settlement(1, hand, result, {0: a, 1: b}, {a: 38, b: -38})], {},
                       key="k:1")  # fmt: skip
    now[0] = start + 10 * 86400
    await store.commit(tid, [Settlement(2, hand, result, {0: b, 1: c}, {b: 38, c: -38})], {},
                       key="k:2")  # fmt: skip
    board = await store.kush_leaderboard(s.community.id)
    assert [(p.id, k, n) for p, k, n in board] == [(a, 38, 1), (b, 0, 2), (c, -38, 1)]
    week = await store.kush_leaderboard(s.community.id, since=now[0] - 7 * 86400)
    assert [(p.id, k, n) for p, k, n in week] == [(b, 38, 1), (c, -38, 1)]
    assert [p.name for p, _, _ in week] == ["Player1", "Player2"]
    assert await store.kush_leaderboard(s.community.id, since=now[0] + 1) == []
    assert len(await store.kush_leaderboard(s.community.id, limit=1)) == 1
    assert (await store.player_stats(a, since=now[0] - 86400)) == HandStats()
    assert (await store.player_stats(b, since=now[0] - 86400)).kush == 38


async def test_get_hand_returns_the_stored_entry(store: AnyStore) -> None:
    community, a, b, _c = await play_two(store)
    history = await store.hand_history(a, 1)
    got = await store.get_hand(history[0].id)
    assert got is not None and got.number == 2 and dict(got.players) == {0: a, 1: b}
    assert got.hand == scripted_record()[0]
    assert await store.get_hand(12345) is None
    found = await store.get_community(community)
    assert found is not None and (found.platform, found.external_id) == ("telegram", "-100")
    assert await store.get_community(community + 7) is None


async def test_settle_hand_writes_the_figures_with_the_hand_in_one_transaction(
    store: AnyStore,
) -> None:
    """settle_hand (not only a transition's Settlement) stores the figures; a repeated key
    counts once; a settlement refused for a short stack (R8.4) leaves no figures behind."""
    s = await seated(store, 2)
    a, b = s.ids
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 200)], {}, key="k:0")
    hand, result = scripted_record()
    for _ in range(2):
        await store.settle_hand(s.table.id, 1, hand, result, {0: a, 1: b}, {a: 38, b: -38},
                                key="settle:1")  # fmt: skip
    with pytest.raises(InsufficientFunds):
        await store.settle_hand(s.table.id, 2, hand, result, {0: a, 1: b}, {a: 500, b: -500},
                                key="settle:2")  # fmt: skip
    assert await store.player_stats(a) == HandStats(
        hands=1, players=1, boards=1, points=38, kush=38, kush_won=38, royalties=32, scoops=1,
        fl_chances=1, fl_entered=1, biggest_win=38, biggest_winner=a,
    )  # fmt: skip
    assert (await store.player_stats(b)).fouls == 1
    assert (await store.community_stats(s.community.id)).hands == 1
    assert [(p.id, k, n) for p, k, n in await store.kush_leaderboard(s.community.id)] == [
        (a, 38, 1),
        (b, -38, 1),
    ]


async def test_a_result_without_seats_gives_zero_figures_not_a_refusal(
    store: AnyStore,
) -> None:
    s = await seated(store, 2)
    a, b = s.ids
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 200)], {}, key="k:0")
    await store.commit(s.table.id, [Settlement(1, {"x": 1}, {"points": 6}, {0: a, 1: b},
                                               {a: 6, b: -6})], {}, key="k:1")  # fmt: skip
    assert await store.player_stats(a) == HandStats(hands=1, players=1, kush=6, kush_won=6,
                                                    biggest_win=6, biggest_winner=a)  # fmt: skip


async def _settle_series(
    store: AnyStore, monkeypatch: pytest.MonkeyPatch, deltas: list[tuple[float, int]]
) -> tuple[int, int, int]:
    """Players a, b, c; for each ``(time, d)`` an entry where a wins ``d`` from b, finished at
    ``time`` (time.time patched); c plays one hand of its own with b. Returns (a, b, c)."""
    now = [0.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    s = await seated(store, 3)
    a, b, c = s.ids
    tid = s.table.id
    await store.commit(tid, [BuyIn(a, 200), BuyIn(b, 200), BuyIn(c, 200)], {}, key="k:0")
    for n, (at, d) in enumerate(deltas, start=1):
        now[0] = at
        settle = Settlement(n, {"x": n}, {"points": d}, {0: a, 1: b}, {a: d, b: -d})
        await store.commit(tid, [settle], {}, key=f"k:{n}")
    now[0] = deltas[0][0] + 5
    other = Settlement(99, {"x": 99}, {"points": 3}, {0: c, 1: b}, {c: 3, b: -3})
    await store.commit(tid, [other], {}, key="k:99")
    return a, b, c


async def test_kush_series_is_the_running_sum_in_time_order(
    store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The /stats chart's data (issue 12): (finished_at, net kush so far), oldest first, two
    entries of the same second in hand order, another player's entries left out, a period
    counting again from 0."""
    t0 = 1_800_000_000.0
    a, b, c = await _settle_series(
        store,
        monkeypatch,
        [(t0, 10), (t0 + 60, -4), (t0 + 60, 7), (t0 + 3600, -20), (t0 + 86400, 5)],
    )
    assert await store.kush_series(a) == [
        (t0, 10), (t0 + 60, 6), (t0 + 60, 13), (t0 + 3600, -7), (t0 + 86400, -2)
    ]  # fmt: skip
    assert await store.kush_series(b) == [
        (t0, -10), (t0 + 5, -13), (t0 + 60, -9), (t0 + 60, -16), (t0 + 3600, 4), (t0 + 86400, -1)
    ]  # fmt: skip
    assert await store.kush_series(c) == [(t0 + 5, 3)]
    assert await store.kush_series(a, since=t0 + 60) == [
        (t0 + 60, -4), (t0 + 60, 3), (t0 + 3600, -17), (t0 + 86400, -12)
    ]  # fmt: skip
    assert await store.kush_series(a, since=t0 + 86401) == []
    assert await store.kush_series(999) == []
    # the last point is the net of player_stats over the same period
    assert (await store.player_stats(a, since=t0 + 60)).kush == -12


async def test_kush_series_is_thinned_to_the_points_asked_for(
    store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """25 entries asked as 5 points: the first, then the last of each run of 6 (entries 7,
    13, 19, 25); as many points as entries or more: all of them; fewer than 2: refused."""
    t0 = 1_800_000_000.0
    deltas = [(t0 + 60 * k, k % 7 - 3) for k in range(25)]
    a, _b, _c = await _settle_series(store, monkeypatch, deltas)
    sums = [sum(d for _, d in deltas[: k + 1]) for k in range(25)]
    assert sums[:8] == [-3, -5, -6, -6, -5, -3, 0, -3]
    full = await store.kush_series(a)
    assert full == [(t0 + 60 * k, sums[k]) for k in range(25)]
    assert await store.kush_series(a, points=25) == full
    assert await store.kush_series(a, points=5) == [
        (t0 + 60 * k, sums[k]) for k in (0, 6, 12, 18, 24)
    ]
    assert await store.kush_series(a, points=2) == [(t0, -3), (t0 + 60 * 24, sums[24])]
    thinned = await store.kush_series(a, points=24)
    assert len(thinned) == 24 and thinned[0] == full[0] and thinned[-1] == full[-1]
    with pytest.raises(StorageError):
        await store.kush_series(a, points=1)


async def test_migration_002_derives_the_figures_of_older_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database written before 002 (here: 002 undone by hand, columns dropped) gets the
    same figures from the stored JSON and the ledger as the writer gives new entries."""
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    community, a, b, c = await play_two(store)
    written = [await store.player_stats(p) for p in (a, b, c)]
    group = await store.community_stats(community)
    await store.close()
    back_to_001(path)
    monkeypatch.setattr(sqlite_module, "migrations", lambda: migrations()[:1])
    old = await SqliteStore.open(path)  # still at version 1
    assert [v for v, _, _ in await old.schema_versions()] == [1]
    await old.close()
    monkeypatch.undo()
    store = await SqliteStore.open(path)
    try:
        assert [v for v, _, _ in await store.schema_versions()][:2] == [1, 2]
        assert [await store.player_stats(p) for p in (a, b, c)] == written
        assert await store.community_stats(community) == group
    finally:
        await store.close()


async def test_postgres_migration_002_derives_the_figures_of_older_entries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The PostgreSQL twin of the test above: a database at 001 (002 undone by hand) gets,
    from 002's SQL and the shared Python step, the figures, community and time the writer
    gives new entries: the same statistics, periods and leaderboard."""
    async with fresh_database() as url:
        store = await PostgresStore.open(url)
        try:
            community, a, b, c = await play_two(store)
            written = [await store.player_stats(p) for p in (a, b, c)]
            group = await store.community_stats(community)
            board = await store.kush_leaderboard(community)
            last = max(h.finished_at for h in await store.hand_history(b, 10))
        finally:
            await store.close()
        assert written[0].hands == 2 and group.scoops == 2  # something to derive
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("DROP INDEX hand_players_by_community")
            for column in STATS_COLUMNS + LATER_COLUMNS:
                await conn.execute(f"ALTER TABLE hand_players DROP COLUMN {column}")
            await conn.execute("DELETE FROM schema_version WHERE version >= 2")
            for table in ("leases", "workers", "alive"):  # 003, 004: the database is back at 001
                await conn.execute(f"DROP TABLE {table}")
            for hid, text in await conn.fetch("SELECT id, result FROM hands"):
                result = json.loads(text)  # results stored then had no scoops of their own
                for seat in result.get("seats", []):
                    del seat["scoops"]
                await conn.execute(
                    "UPDATE hands SET result = $1 WHERE id = $2", json.dumps(result), hid
                )
        finally:
            await conn.close()
        monkeypatch.setattr(postgres_module, "migrations", lambda: postgres_migrations()[:1])
        old = await PostgresStore.open(url)  # still at version 1
        try:
            assert [v for v, _, _ in await old.schema_versions()] == [1]
        finally:
            await old.close()
        monkeypatch.undo()
        store = await PostgresStore.open(url)
        try:
            assert [v for v, _, _ in await store.schema_versions()][:2] == [1, 2]
            assert [await store.player_stats(p) for p in (a, b, c)] == written
            assert await store.community_stats(community) == group
            assert await store.kush_leaderboard(community) == board
            assert await store.community_stats(community, since=last + 1) == HandStats()
            assert (await store.player_stats(c, since=last)).kush == -5  # the round entry
        finally:
            await store.close()


async def test_migration_005_counts_the_tournament_hands_written_before_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tournament hands written before 005 were entries of kind ``hand``: 005 makes those
    whose result carries the tournament's record ``tournament_hand``, the others stay."""
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    community, a, b, _c = await play_two(store)
    await play_tournament_hand(store, a, b)
    written = [await store.player_stats(p) for p in (a, b)]
    group = await store.community_stats(community)
    await store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE hand_players SET kind = 'hand' WHERE kind = 'tournament_hand'")
        conn.execute("DELETE FROM schema_version WHERE version >= 5")
    conn.close()
    monkeypatch.setattr(sqlite_module, "migrations", lambda: migrations()[:4])
    old = await SqliteStore.open(path)  # at version 4: every hand a cash hand
    assert (await old.player_stats(a)).hands == 3
    await old.close()
    drop_later_columns(path)  # (007 adds them again)
    monkeypatch.undo()
    store = await SqliteStore.open(path)
    try:
        assert [v for v, _, _ in await store.schema_versions()] == [m.version for m in migrations()]
        assert [await store.player_stats(p) for p in (a, b)] == written
        assert await store.community_stats(community) == group
        assert written[0].tournament_hands == 1 and written[0].hands == 2
    finally:
        await store.close()


async def test_postgres_migration_005_counts_the_tournament_hands_written_before_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The PostgreSQL twin of the test above."""
    async with fresh_database() as url:
        store = await PostgresStore.open(url)
        try:
            community, a, b, _c = await play_two(store)
            await play_tournament_hand(store, a, b)
            written = [await store.player_stats(p) for p in (a, b)]
            group = await store.community_stats(community)
        finally:
            await store.close()
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(
                "UPDATE hand_players SET kind = 'hand' WHERE kind = 'tournament_hand'"
            )
            await conn.execute("DELETE FROM schema_version WHERE version >= 5")
        finally:
            await conn.close()
        monkeypatch.setattr(postgres_module, "migrations", lambda: postgres_migrations()[:4])
        old = await PostgresStore.open(url)
        try:
            assert (await old.player_stats(a)).hands == 3
        finally:
            await old.close()
        conn = await asyncpg.connect(url)
        try:  # (007 adds them again)
            for column in LATER_COLUMNS:
                await conn.execute(f"ALTER TABLE hand_players DROP COLUMN {column}")
        finally:
            await conn.close()
        monkeypatch.undo()
        store = await PostgresStore.open(url)
        try:
            versions = [v for v, _, _ in await store.schema_versions()]
            assert versions == [m.version for m in postgres_migrations()]
            assert [await store.player_stats(p) for p in (a, b)] == written
            assert await store.community_stats(community) == group
        finally:
            await store.close()


def chinese_record() -> tuple[dict[str, Any], dict[str, Any]]:
    """A Chinese Poker hand as the service records it: seat 0 earns 22 points with 15 in
    strength bonuses (AAA top 10, full house middle 1, straight flush bottom 4, R7.2)."""
    hand = deal(
        "As Ah Ad Kd Kc Ks 8h 8c 2c 3c 4c 5c 6c  Jc Td 4s 9c 9d 6s 6h 2h Qs Qd Qh 7c 8d",
        seats=(0, 1),
        button=1,
        options=RuleOptions.preset("chinese"),
    )
    for seat in (0, 1):
        place_all(hand, seat, "t t t m m m m m b b b b b")
    assert hand.result is not None
    return hand.to_json(), {**hand.result.to_json(), "kush": {}}


async def play_chinese_hand(store: AnyStore, a: int, b: int) -> None:
    """a and b play :func:`chinese_record` at a Chinese Poker table of their own."""
    s = await seated(store, 2, chat="chat-c")
    assert s.ids == [a, b]
    hand, result = chinese_record()
    await store.commit(s.table.id, [Settlement(1, hand, result, {0: a, 1: b}, {})], {}, key="c:1")


async def test_r7_2_chinese_bonuses_are_stored_apart_from_royalties(store: AnyStore) -> None:
    """Two Pineapple hands (a: 32 royalties each) and a Chinese Poker hand (a: 15 bonus):
    the royalties are the open-face ones only, the bonuses and their boards apart."""
    community, a, b, _c = await play_two(store)
    await play_chinese_hand(store, a, b)
    mine = await store.player_stats(a)
    assert (mine.hands, mine.boards, mine.royalties, mine.bonuses, mine.bonus_boards) == (
        3, 3, 64, 15, 1
    )  # fmt: skip
    group = await store.community_stats(community)
    assert (group.boards, group.royalties, group.bonuses, group.bonus_boards) == (6, 64, 15, 2)


def _before_007(path: Path) -> None:
    """The SQLite file at ``path`` as the code before 007 left it: the bonuses in
    ``royalties``, no columns of their own."""
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE hand_players SET royalties = royalties + bonuses")
        conn.execute("DELETE FROM schema_version WHERE version >= 7")
    conn.close()
    drop_later_columns(path)


async def test_migration_007_moves_the_chinese_bonuses_out_of_the_royalties(
    tmp_path: Path,
) -> None:
    """Entries written before 007 kept Chinese Poker's bonuses in ``royalties``: 007 moves
    those of a Chinese Poker hand to ``bonuses`` (with its boards), the open-face hands'
    royalties stay: the figures the writer gives new entries."""
    path = tmp_path / "ofc.db"
    store = await SqliteStore.open(path)
    community, a, b, c = await play_two(store)
    await play_chinese_hand(store, a, b)
    written = [await store.player_stats(p) for p in (a, b, c)]
    group = await store.community_stats(community)
    await store.close()
    assert written[0].bonuses == 15 and written[0].royalties == 64
    _before_007(path)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT SUM(royalties) FROM hand_players").fetchone() == (64 + 15,)
    raw.close()
    store = await SqliteStore.open(path)
    try:
        assert [v for v, _, _ in await store.schema_versions()] == [m.version for m in migrations()]
        assert [await store.player_stats(p) for p in (a, b, c)] == written
        assert await store.community_stats(community) == group
    finally:
        await store.close()


async def test_postgres_migration_007_moves_the_chinese_bonuses_out_of_the_royalties() -> None:
    """The PostgreSQL twin of the test above."""
    async with fresh_database() as url:
        store = await PostgresStore.open(url)
        try:
            community, a, b, c = await play_two(store)
            await play_chinese_hand(store, a, b)
            written = [await store.player_stats(p) for p in (a, b, c)]
            group = await store.community_stats(community)
        finally:
            await store.close()
        assert written[0].bonuses == 15 and written[0].royalties == 64
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("UPDATE hand_players SET royalties = royalties + bonuses")
            await conn.execute("DELETE FROM schema_version WHERE version >= 7")
            for column in LATER_COLUMNS:
                await conn.execute(f"ALTER TABLE hand_players DROP COLUMN {column}")
        finally:
            await conn.close()
        store = await PostgresStore.open(url)
        try:
            versions = [v for v, _, _ in await store.schema_versions()]
            assert versions == [m.version for m in postgres_migrations()]
            assert [await store.player_stats(p) for p in (a, b, c)] == written
            assert await store.community_stats(community) == group
        finally:
            await store.close()
