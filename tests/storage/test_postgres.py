"""PostgreSQL specifics (issue 14): its migrations, the schema's own invariants (append-only
ledger, CHECKs), and money under real concurrency — two stores with separate connection pools
on one database, as two bot processes would be, spending one balance at once (R8.2, R8.4).
The contract itself runs against PostgreSQL with every other store kind (conftest.py)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import asyncpg
import pytest

import storage.postgres as postgres_module
import storage.sqlite as sqlite_module
from storage.api import BuyIn, CashOut, InsufficientFunds, LedgerKind, Settlement, StorageError
from storage.check import check_store
from storage.postgres import Migration, PostgresStore, migrations
from tests.pg import fresh_database
from tests.storage.before_002 import LATER_COLUMNS
from tests.storage.helpers import balance, seated


@pytest.fixture
async def url() -> AsyncIterator[str]:
    """The URL of a fresh, empty database (a schema of its own)."""
    async with fresh_database() as u:
        yield u


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two stores on one database, each with its own pool: two bot processes."""
    first = await PostgresStore.open(url)
    second = await PostgresStore.open(url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def test_postgres_migrations_have_the_numbers_and_names_of_the_sqlite_ones() -> None:
    """One version numbering for both databases: a schema version means the same on each."""
    assert [(m.version, m.name) for m in migrations()] == [
        (m.version, m.name) for m in sqlite_module.migrations()
    ]


async def test_migrations_are_applied_once_even_by_two_processes_at_once(url: str) -> None:
    """Two stores opened at the same moment (two workers starting): the advisory lock lets
    one apply each migration; both then see every version once."""
    first, second = await asyncio.gather(PostgresStore.open(url), PostgresStore.open(url))
    try:
        versions = await first.schema_versions()
        assert [(v, n) for v, n, _ in versions] == [(m.version, m.name) for m in migrations()]
        assert await second.schema_versions() == versions
    finally:
        await first.close()
        await second.close()
    again = await PostgresStore.open(url)
    try:
        assert await again.schema_versions() == versions
    finally:
        await again.close()


async def test_a_new_migration_is_applied_once_and_a_newer_database_refused(
    url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="storage._common")
    store = await PostgresStore.open(url)
    await store.close()
    extra = Migration(
        len(migrations()) + 1, "999_extra.sql", "CREATE TABLE extra (id BIGINT PRIMARY KEY);"
    )
    monkeypatch.setattr(postgres_module, "migrations", lambda: [*migrations(), extra])
    caplog.clear()
    store = await PostgresStore.open(url)
    try:
        assert [v for v, _, _ in await store.schema_versions()][-1] == extra.version
    finally:
        await store.close()
    # (opsnu43: an upgrade says what it applied, as on SQLite)
    assert [r.getMessage() for r in caplog.records if r.name == "storage._common"] == [
        f"database upgraded to schema version {extra.version}: applied 999_extra.sql"
    ]
    monkeypatch.undo()
    with pytest.raises(StorageError, match="newer than this code"):
        await PostgresStore.open(url)


async def test_schema_refuses_a_second_open_table_ledger_edits_and_negative_kush(url: str) -> None:
    """The invariants hold in the PostgreSQL schema itself, not only in the code that writes
    it: one open table per chat, the ledger append-only (UPDATE, DELETE and TRUNCATE refused
    by triggers), every ledger row's CHECK, balances never below zero, foreign keys."""
    store = await PostgresStore.open(url)
    c = await store.community("telegram", "-100")
    p = await store.player(c.id, "1", "Alice")
    t = await store.create_table(c.id, "chat", {}, 10)
    await store.buy_in(t.id, p.id, 100, key="b")
    await store.close()
    conn = await asyncpg.connect(url)
    integrity = asyncpg.exceptions.IntegrityConstraintViolationError
    try:
        with pytest.raises(asyncpg.exceptions.UniqueViolationError):
            await conn.execute(
                "INSERT INTO tables (community_id, chat_id, options, min_buy_in, created_at)"
                " VALUES ($1, 'chat', '{}', 10, 0)",
                c.id,
            )
        with pytest.raises(integrity, match="append-only"):
            await conn.execute("UPDATE ledger SET balance_delta = 5")
        with pytest.raises(integrity, match="append-only"):
            await conn.execute("DELETE FROM ledger")
        with pytest.raises(integrity, match="append-only"):
            await conn.execute("TRUNCATE ledger CASCADE")
        with pytest.raises(asyncpg.exceptions.CheckViolationError):  # an unbalanced buy-in
            await conn.execute(
                "INSERT INTO ledger (community_id, kind, player_id, table_id, balance_delta,"
                " stack_delta, key, created_at) VALUES ($1, 'buy_in', $2, $3, -10, 20, 'x', 0)",
                c.id,
                p.id,
                t.id,
            )
        with pytest.raises(asyncpg.exceptions.CheckViolationError):  # an unknown kind
            await conn.execute(
                "INSERT INTO ledger (community_id, kind, player_id, balance_delta,"
                " stack_delta, key, created_at) VALUES ($1, 'gift', $2, 5, 0, 'y', 0)",
                c.id,
                p.id,
            )
        with pytest.raises(asyncpg.exceptions.CheckViolationError):  # a negative balance
            await conn.execute("UPDATE players SET balance = -1 WHERE id = $1", p.id)
        with pytest.raises(asyncpg.exceptions.CheckViolationError):  # a negative stack
            await conn.execute("UPDATE table_stacks SET stack = -1")
        with pytest.raises(asyncpg.exceptions.ForeignKeyViolationError):
            await conn.execute(
                "INSERT INTO players (community_id, user_id, name, name_key, created_at)"
                " VALUES (999, 'x', 'x', 'x', 0)"
            )
        with pytest.raises(asyncpg.exceptions.InvalidTextRepresentationError):  # not JSON
            await conn.execute("UPDATE tables SET options = 'nope'")
        assert await conn.fetchval("SELECT COUNT(*) FROM ledger") == 2
    finally:
        await conn.close()


async def test_a_closed_store_refuses_reads_and_writes(url: str) -> None:
    store = await PostgresStore.open(url)
    c = await store.community("telegram", "-100")
    await store.close()
    with pytest.raises(StorageError, match="closed"):
        await store.get_player(1)
    with pytest.raises(StorageError, match="closed"):
        await store.grant(c.id, 1, 5, actor="a", reason="", key="k")


async def test_an_unreachable_server_is_a_storage_error(tmp_path: object) -> None:
    with pytest.raises(StorageError, match="cannot connect to PostgreSQL"):
        await PostgresStore.open("postgresql://ofc@/ofc?host=/nonexistent-ofc-socket-dir")


@pytest.mark.parametrize("amount", [70, 1000, 1001])
async def test_two_processes_spending_one_balance_never_overdraw(
    two: tuple[PostgresStore, PostgresStore], amount: int
) -> None:
    """R8.2: 50 buy-ins against one 1,000-kush balance, alternating between two stores with
    their own pools (real concurrent transactions on separate connections): exactly the
    affordable ones succeed, each seeing the ones before it, and nothing goes below zero."""
    first, second = two
    s = await seated(first)
    a = s.ids[0]
    results = await asyncio.gather(
        *[
            (first if i % 2 else second).buy_in(s.table.id, a, amount, key=f"buy-{i}")
            for i in range(50)
        ],
        return_exceptions=True,
    )
    ok = sorted(r for r in results if isinstance(r, int))
    refused = [r for r in results if isinstance(r, InsufficientFunds)]
    assert len(ok) + len(refused) == 50, [r for r in results if isinstance(r, BaseException)]
    affordable = 1000 // amount
    assert ok == [amount * k for k in range(1, affordable + 1)]
    assert await balance(second, a) == 1000 - affordable * amount
    assert await check_store(first) == []


async def test_two_processes_racing_transitions_and_grants_conserve_kush(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    """Two workers commit transitions at two tables that seat the same players in opposite
    orders (so their row locks may deadlock and be retried) while admins take kush from the
    same balances: every call ends whole or not at all, no balance or stack goes below zero,
    and the ledger check finds nothing."""
    first, second = two
    s = await seated(first, 2, chat="chat-1")
    other = await second.create_table(s.community.id, "chat-2", {"game": "pineapple"}, 200)
    a, b = s.ids

    async def worker(store: PostgresStore, table: int, order: list[int], tag: str) -> int:
        done = 0
        for i in range(12):
            moves = [BuyIn(p, 40) for p in order]
            try:
                await store.commit(table, moves, {"i": i}, key=f"{tag}/in/{i}")
                hand = Settlement(i, {}, {}, {0: order[0], 1: order[1]}, {a: 15, b: -15})
                await store.commit(
                    table, [hand, *[CashOut(p) for p in order]], None, key=f"{tag}/out/{i}"
                )
                done += 1
            except InsufficientFunds:
                pass
        return done

    async def taker(store: PostgresStore) -> int:
        taken = 0
        for i in range(30):
            try:
                await store.grant(s.community.id, b, -35, actor="admin", reason="", key=f"t{i}")
                taken += 35
            except InsufficientFunds:
                pass
        return taken

    rounds_1, rounds_2, taken = await asyncio.gather(
        worker(first, s.table.id, [a, b], "w1"),
        worker(second, other.id, [b, a], "w2"),
        taker(second),
    )
    assert rounds_1 + rounds_2 > 0
    pa, pb = await balance(first, a), await balance(first, b)
    # every round moved 15 from b to a; the admin took `taken` from b; nothing left on tables
    assert pa == 1000 + 15 * (rounds_1 + rounds_2)
    assert pb == 1000 - 15 * (rounds_1 + rounds_2) - taken
    assert pb >= 0
    assert await first.stacks(s.table.id) == {} and await first.stacks(other.id) == {}
    buy_ins = [e for e in await first.ledger(s.community.id) if e.kind is LedgerKind.BUY_IN]
    assert len(buy_ins) == 2 * (rounds_1 + rounds_2)
    assert await check_store(first) == []


async def test_one_key_committed_by_two_processes_at_once_applies_once(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    """The same transition (one idempotency key) sent by two workers at the same moment:
    the advisory lock on the key runs them one after the other; the second returns the
    first's results and moves nothing."""
    first, second = two
    s = await seated(first, 2)
    a, b = s.ids
    results = await asyncio.gather(
        *[
            store.commit(s.table.id, [BuyIn(a, 300), BuyIn(b, 200)], {"v": 1}, key="t:1")
            for store in (first, second, first, second)
        ]
    )
    assert results == [[300, 200]] * 4
    assert await balance(first, a) == 700 and await balance(second, b) == 800
    assert await check_store(first) == []


async def test_a_deadlocked_transaction_is_rerun_whole(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A transaction PostgreSQL aborts as a deadlock victim (or for a serialization failure)
    is rolled back and run again from the start: the grant lands exactly once."""
    store = await PostgresStore.open(url)
    try:
        s = await seated(store, 1)
        (a,) = s.ids
        real = postgres_module._transact
        failures = [asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError]

        async def flaky(conn: object, body: object, args: tuple[object, ...]) -> object:
            async def then_fail(c: object, *a: object) -> object:
                result = await body(c, *a)  # type: ignore[operator]
                if failures:
                    raise failures.pop(0)("deadlock detected")
                return result

            return await real(conn, then_fail, args)  # type: ignore[arg-type]

        monkeypatch.setattr(postgres_module, "_transact", flaky)
        assert await store.grant(s.community.id, a, 25, actor="x", reason="", key="g") == 1025
        assert failures == []
        assert await balance(store, a) == 1025
        assert [e.key for e in await store.ledger(s.community.id)][-1] == "g"
        assert await check_store(store) == []
    finally:
        await store.close()


async def _holds_key_lock(conn: asyncpg.Connection, key: str) -> bool:
    """Whether some transaction holds the advisory lock of ``key`` (``_lock_key``: a keyed
    call's first statement, so its transaction has started)."""
    return bool(
        await conn.fetchval(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0))",
            key,
        )
    )


async def test_a_cancelled_caller_does_not_undo_or_break_its_transaction(url: str) -> None:
    """20 buy-ins at once; one caller is cancelled while its transaction is running (it holds
    its key's lock and waits for the table row, which another connection holds). The other
    19 return their stacks; the cancelled one's transaction still commits whole, though
    after its caller has gone: :meth:`PostgresStore.close` waits for it, so the values are
    read after closing (read at once they could still miss it)."""
    store = await PostgresStore.open(url)
    try:
        s = await seated(store)
        a = s.ids[0]
        blocker = await asyncpg.connect(url)
        try:
            async with blocker.transaction():
                await blocker.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", s.table.id)
                tasks = [
                    asyncio.ensure_future(store.buy_in(s.table.id, a, 10, key=f"b{i}"))
                    for i in range(20)
                ]
                deadline = time.monotonic() + 30
                while not await _holds_key_lock(blocker, "b5"):
                    assert time.monotonic() < deadline, "b5's transaction never started"
                    await asyncio.sleep(0.01)
                tasks[5].cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            await blocker.close()
        assert isinstance(results[5], asyncio.CancelledError)
        stacks = [r for i, r in enumerate(results) if i != 5]
        assert all(isinstance(r, int) for r in stacks)
        made = set(range(10, 201, 10)) - set(stacks)  # the stack b5's transaction made
        assert len(made) == 1
    finally:
        await store.close()  # waits for the cancelled caller's transaction
    store = await PostgresStore.open(url)
    try:
        assert await balance(store, a) == 800
        assert (await store.stacks(s.table.id))[a] == 200
        # its key was applied: a retry returns the stack it made then and moves nothing
        assert await store.buy_in(s.table.id, a, 10, key="b5") == made.pop()
        assert await balance(store, a) == 800
        assert await check_store(store) == []
    finally:
        await store.close()


async def test_migration_006_reads_yo_as_ye_in_the_names_stored_before(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The PostgreSQL twin of test_migrations' test: keys stored before 006 kept "ё"; after
    it "Алена" finds a stored "Алёна"."""
    store = await PostgresStore.open(url)
    try:
        c = await store.community("telegram", "-100")
        alena = await store.player(c.id, "1", "Алёна")
        ezhik = await store.player(c.id, "2", "ЁЖИК Семёнов")
        bob = await store.player(c.id, "3", "Bob")
    finally:
        await store.close()
    conn = await asyncpg.connect(url)
    try:
        for p in (alena, ezhik, bob):
            await conn.execute(
                "UPDATE players SET name_key = $1 WHERE id = $2", p.name.casefold(), p.id
            )
        await conn.execute("DELETE FROM schema_version WHERE version >= 6")
    finally:
        await conn.close()
    monkeypatch.setattr(postgres_module, "migrations", lambda: migrations()[:5])
    old = await PostgresStore.open(url)
    try:
        assert await old.find_player(c.id, "Алена") is None
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
        assert [v for v, _, _ in await store.schema_versions()] == [m.version for m in migrations()]
        assert await store.find_player(c.id, "Алена") == alena
        assert await store.find_player(c.id, "ежик семенов") == ezhik
        assert await store.find_player(c.id, "BOB") == bob
    finally:
        await store.close()
    conn = await asyncpg.connect(url)
    try:
        keys = [r[0] for r in await conn.fetch("SELECT name_key FROM players ORDER BY id")]
    finally:
        await conn.close()
    assert keys == ["алена", "ежик семенов", "bob"]


async def _keepalive_sources(store: PostgresStore, n: int) -> list[dict[str, str]]:
    """Where each of ``n`` connections of the store (held at once: the pool opens ``n``)
    has its TCP keepalive settings from: ``pg_settings.source`` by name."""
    held = asyncio.Event()
    seen: list[dict[str, str]] = []

    async def look(conn: asyncpg.Connection) -> None:
        rows = await conn.fetch(
            "SELECT name, source FROM pg_settings WHERE name LIKE 'tcp_keepalives_%'"
        )
        seen.append({r["name"]: r["source"] for r in rows})
        if len(seen) == n:
            held.set()
        await asyncio.wait_for(held.wait(), 10)  # (the connection stays taken meanwhile)

    await asyncio.gather(*(store._call(look) for _ in range(n)))
    return seen


async def test_every_connection_asks_the_server_for_tcp_keepalives(url: str) -> None:
    """Each connection of the store's pool starts with the TCP keepalive settings
    (``tcp_keepalives_idle/interval/count``, :data:`storage.postgres.KEEPALIVES`), so the
    server drops a dead bot's connections, and the row locks its transactions held, within
    about two minutes (without them the server's OS default waits some two hours). Here
    the server reads them from the connection (``source`` ``client``; on this unix socket
    the server shows their value as 0, as it does for any connection without TCP)."""
    assert postgres_module.KEEPALIVES == {
        "tcp_keepalives_idle": "60",
        "tcp_keepalives_interval": "10",
        "tcp_keepalives_count": "6",
    }
    store = await PostgresStore.open(url)
    try:
        names = set(postgres_module.KEEPALIVES)
        assert await _keepalive_sources(store, 3) == [dict.fromkeys(names, "client")] * 3
    finally:
        await store.close()
    bare = await asyncpg.connect(url)  # (a connection without them: the server's default)
    try:
        rows = await bare.fetch("SELECT source FROM pg_settings WHERE name = 'tcp_keepalives_idle'")
        assert [r["source"] for r in rows] == ["default"]
    finally:
        await bare.close()


async def test_a_keepalive_set_in_the_database_url_holds(url: str) -> None:
    """A keepalive setting in ``DATABASE_URL``'s query (``?tcp_keepalives_idle=30``: asyncpg
    passes it to the server) is the operator's: the store does not override it with its
    own, and adds the others; the server takes all three from the connection."""
    plain = "postgresql://ofc:pw@db.example:5432/ofc"
    assert postgres_module.keepalives(plain) == dict(postgres_module.KEEPALIVES)
    given = postgres_module.keepalives(f"{plain}?sslmode=require&tcp_keepalives_idle=30")
    assert given == {"tcp_keepalives_interval": "10", "tcp_keepalives_count": "6"}
    store = await PostgresStore.open(f"{url}&tcp_keepalives_idle=30")
    try:
        names = set(postgres_module.KEEPALIVES)
        assert await _keepalive_sources(store, 1) == [dict.fromkeys(names, "client")]
    finally:
        await store.close()
