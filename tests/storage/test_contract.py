"""The contract of storage.api.Store, run against MemoryStore and SqliteStore (":memory:" and a
real file): every method, with its error cases. Money rules cite R8.1, R8.2 and R8.4."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace

import pytest

from storage.api import (
    CommunitySettings,
    InsufficientFunds,
    LedgerKind,
    StorageError,
)
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.storage.helpers import another_connection, assert_consistent, balance, seated

AnyStore = SqliteStore | MemoryStore

HAND = {"setup": {"seed": "5", "deck": "As Kd"}, "actions": [{"type": "confirm", "seat": 0}]}
RESULT = {"points": {0: 3, 1: -3}, "kush": [10, -10]}


# -- communities --------------------------------------------------------------------------------
async def test_community_is_created_once_per_platform_and_external_id(store: AnyStore) -> None:
    a = await store.community("telegram", "-100", "Group A")
    again = await store.community("telegram", "-100")
    other_platform = await store.community("discord", "-100")
    assert again == a
    assert other_platform.id != a.id
    assert a.title == "Group A"
    assert a.settings == CommunitySettings()


async def test_community_title_follows_a_rename(store: AnyStore) -> None:
    a = await store.community("telegram", "-100", "Old")
    renamed = await store.community("telegram", "-100", "New")
    assert (renamed.id, renamed.title) == (a.id, "New")
    assert (await store.community("telegram", "-100")).title == "New"


async def test_update_settings_replaces_them(store: AnyStore) -> None:
    c = await store.community("telegram", "-100")
    settings = CommunitySettings(
        starting_balance=500,
        daily_bonus=25,
        min_buy_in=50,
        kush_label="1 kush = 10 ₽",
        language="ru",
        game="ofc",
        options={"hand_seconds": 90.0},
    )
    updated = await store.update_settings(c.id, settings)
    assert updated.settings == settings
    assert (await store.community("telegram", "-100")).settings == settings
    assert updated.settings.rule_options().hand_seconds == 90.0


async def test_update_settings_keeps_the_keys_of_the_changes_applied(store: AnyStore) -> None:
    """The keys of the settings changes applied (``requests``) are saved in the same write as
    the settings and read back (a /settings copy redelivered after a restart is known); they
    are bookkeeping, not settings: equal settings with other keys compare equal."""
    c = await store.community("telegram", "-100")
    settings = CommunitySettings(min_buy_in=300, requests=("tg:-100:7", "tg:-100:9"))
    await store.update_settings(c.id, settings)
    read = (await store.community("telegram", "-100")).settings
    assert read.requests == ("tg:-100:7", "tg:-100:9")
    assert read.min_buy_in == 300 and read == CommunitySettings(min_buy_in=300)


async def test_update_settings_keeps_the_command_keys_of_closed_tables(store: AnyStore) -> None:
    """The one-shot command keys of the community's closed tables (``table_requests``: a
    /newtable copy redelivered after a restart opens no table) are saved and read back;
    bookkeeping, not settings."""
    c = await store.community("telegram", "-100")
    settings = CommunitySettings(table_requests=("tg:-100:3", "tg:-100:4"))
    await store.update_settings(c.id, settings)
    read = (await store.community("telegram", "-100")).settings
    assert read.table_requests == ("tg:-100:3", "tg:-100:4") and read == CommunitySettings()


async def test_update_settings_of_unknown_community_is_refused(store: AnyStore) -> None:
    with pytest.raises(StorageError):
        await store.update_settings(999, CommunitySettings())


async def test_change_settings_changes_the_stored_settings_in_one_write(store: AnyStore) -> None:
    """``change_settings`` gives the change the settings as stored (not as a caller read
    them before) and saves what it returns, bookkeeping keys too; a change that raises
    saves nothing and its error comes through as it is; one that returns what it got
    writes nothing."""
    c = await store.community("telegram", "-100")
    await store.update_settings(c.id, CommunitySettings(min_buy_in=300, requests=("k1",)))
    seen: list[CommunitySettings] = []

    def more(s: CommunitySettings) -> CommunitySettings:
        seen.append(s)
        return replace(s, daily_bonus=25, requests=(*s.requests, "k2"), table_requests=("t1",))

    changed = await store.change_settings(c.id, more)
    assert [(s.min_buy_in, s.daily_bonus, s.requests) for s in seen] == [(300, 100, ("k1",))]
    read = (await store.community("telegram", "-100")).settings
    for got in (changed.settings, read):
        assert (got.min_buy_in, got.daily_bonus) == (300, 25)
        assert (got.requests, got.table_requests) == (("k1", "k2"), ("t1",))
    assert changed.id == c.id and changed.external_id == "-100"

    class Refused(ValueError):
        pass

    def refuse(s: CommunitySettings) -> CommunitySettings:
        raise Refused("no")

    with pytest.raises(Refused):
        await store.change_settings(c.id, refuse)
    same = await store.change_settings(c.id, lambda s: s)
    for got in (same.settings, (await store.community("telegram", "-100")).settings):
        assert (got.min_buy_in, got.daily_bonus, got.requests) == (300, 25, ("k1", "k2"))
    with pytest.raises(StorageError):
        await store.change_settings(999, lambda s: s)


async def test_change_settings_from_two_workers_at_once_keeps_every_change(
    store: AnyStore,
) -> None:
    """Two workers' connections to one database (one store where it cannot be shared)
    change one community's settings at once, 24 changes each adding a key and a kush to
    the starting balance: every change stays (a read, then a write, kept only the last of
    the changes that read the same settings)."""
    c = await store.community("telegram", "-100")
    async with another_connection(store) as other:

        def add(key: str) -> Callable[[CommunitySettings], CommunitySettings]:
            def change(s: CommunitySettings) -> CommunitySettings:
                return replace(
                    s, starting_balance=s.starting_balance + 1, requests=(*s.requests, key)
                )

            return change

        await asyncio.gather(
            *(
                db.change_settings(c.id, add(f"{n}/{i}"))
                for i in range(24)
                for n, db in enumerate((store, other))
            )
        )
        for db in (store, other):
            read = (await db.community("telegram", "-100")).settings
            assert read.starting_balance == 1000 + 48
            assert sorted(read.requests) == sorted(f"{n}/{i}" for i in range(24) for n in (0, 1))


async def test_a_moved_chat_is_found_under_its_old_id(store: AnyStore) -> None:
    """``moved_chat``: where a chat moved (``move_chat``, in the same transaction), a later
    move followed too; ``None`` for a chat that never moved, or that a refused move left."""
    await store.community("telegram", "-1", "Group")
    assert await store.moved_chat("telegram", "-1") is None
    assert await store.move_chat("telegram", "-1", "-1001")
    assert await store.moved_chat("telegram", "-1") == "-1001"
    assert await store.moved_chat("telegram", "-1001") is None
    assert await store.moved_chat("discord", "-1") is None
    assert await store.move_chat("telegram", "-1001", "-1002")
    assert await store.moved_chat("telegram", "-1") == "-1002"
    assert await store.moved_chat("telegram", "-1001") == "-1002"
    assert await store.community("telegram", "-5") and await store.community("telegram", "-6")
    assert not await store.move_chat("telegram", "-6", "-5")  # (-6 is the newer community)
    assert await store.moved_chat("telegram", "-6") is None


# -- players --------------------------------------------------------------------------------------
async def test_new_player_gets_the_starting_balance_through_a_ledger_row(store: AnyStore) -> None:
    """R8.1: every player starts with the community's starting balance, and it is on the ledger."""
    c = await store.community("telegram", "-100")
    p = await store.player(c.id, "42", "Alice", "en")
    assert (p.community_id, p.user_id, p.name, p.language, p.balance) == (
        c.id,
        "42",
        "Alice",
        "en",
        1000,
    )
    rows = await store.ledger(c.id)
    assert [(r.kind, r.player_id, r.balance_delta, r.stack_delta) for r in rows] == [
        (LedgerKind.STARTING, p.id, 1000, 0)
    ]
    await assert_consistent(store)


async def test_starting_balance_comes_from_the_community_settings(store: AnyStore) -> None:
    c = await store.community("telegram", "-100")
    await store.update_settings(c.id, CommunitySettings(starting_balance=250))
    p = await store.player(c.id, "42", "Alice")
    assert p.balance == 250


async def test_player_is_created_once_and_name_and_language_follow_changes(
    store: AnyStore,
) -> None:
    c = await store.community("telegram", "-100")
    p = await store.player(c.id, "42", "Alice", "en")
    same = await store.player(c.id, "42", "Alice")
    assert same == p  # language None keeps the stored one
    renamed = await store.player(c.id, "42", "Alicia", "ru")
    assert (renamed.id, renamed.name, renamed.language) == (p.id, "Alicia", "ru")
    assert await store.get_player(p.id) == renamed
    assert len(await store.ledger(c.id)) == 1  # one starting row, not one per call


async def test_the_same_person_has_separate_balances_in_two_communities(store: AnyStore) -> None:
    a = await store.community("telegram", "-1")
    b = await store.community("telegram", "-2")
    pa = await store.player(a.id, "42", "Alice")
    pb = await store.player(b.id, "42", "Alice")
    await store.grant(a.id, pa.id, 500, actor="admin", reason="prize", key="g1")
    assert pa.id != pb.id
    assert (await balance(store, pa.id), await balance(store, pb.id)) == (1500, 1000)


async def test_get_player_of_unknown_id_is_none(store: AnyStore) -> None:
    assert await store.get_player(12345) is None


async def test_player_of_unknown_community_is_refused(store: AnyStore) -> None:
    with pytest.raises(StorageError):
        await store.player(999, "42", "Alice")


async def test_find_player_by_at_name_user_id_and_case(store: AnyStore) -> None:
    c = await store.community("telegram", "-100")
    other = await store.community("telegram", "-200")
    alice = await store.player(c.id, "1001", "Alice")
    await store.player(c.id, "1002", "Bob")
    await store.player(other.id, "1003", "Carol")
    assert await store.find_player(c.id, "@alice") == alice
    assert await store.find_player(c.id, "ALICE") == alice
    assert await store.find_player(c.id, " @Alice ") == alice
    assert await store.find_player(c.id, "1001") == alice
    assert await store.find_player(c.id, "@1001") == alice
    assert await store.find_player(c.id, "@carol") is None  # another community
    assert await store.find_player(c.id, "@nobody") is None


async def test_find_player_by_a_cyrillic_name_in_any_case(store: AnyStore) -> None:
    """Most players write Russian: a name typed in another case is found on every store (the
    folded ``name_key`` column, :func:`storage._common.name_key`, not SQL ``LIKE``/``lower``,
    which fold ASCII only), and a German ``ß`` folded as Python folds it. ``ё`` and ``е`` are
    one letter to a lookup: most Russians type ``е`` for it (``/stats Алена`` did not find
    "Алёна"), and a name stored with ``е`` is found typed with ``ё`` too."""
    c = await store.community("telegram", "-100")
    anna = await store.player(c.id, "1001", "Анна Ёлкина")
    strauss = await store.player(c.id, "1002", "Straße")
    alena = await store.player(c.id, "1003", "Алена")
    for typed in ("анна ёлкина", "АННА ЁЛКИНА", "@аННа ёЛКИНА", " Анна Ёлкина ", "анна елкина",
                  "АННА ЕЛКИНА", "Анна Елкина"):  # fmt: skip
        assert await store.find_player(c.id, typed) == anna, typed
    for typed in ("Алёна", "АЛЁНА", "алена"):
        assert await store.find_player(c.id, typed) == alena, typed
    assert await store.find_player(c.id, "STRASSE") == strauss
    renamed = await store.player(c.id, "1001", "Ирина")  # a new name: the old one is gone
    assert await store.find_player(c.id, "ИРИНА") == renamed
    assert await store.find_player(c.id, "анна ёлкина") is None


async def test_find_player_by_an_ambiguous_name_is_none(store: AnyStore) -> None:
    c = await store.community("telegram", "-100")
    await store.player(c.id, "1", "Sam")
    await store.player(c.id, "2", "sam")
    assert await store.find_player(c.id, "@sam") is None
    assert (await store.find_player(c.id, "2")) is not None


async def test_leaderboard_orders_by_balance_plus_stacks(store: AnyStore) -> None:
    s = await seated(store, n=4)
    a, b, c, d = s.ids
    await store.grant(s.community.id, b, 300, actor="admin", reason="", key="g-b")  # b: 1300
    await store.grant(s.community.id, c, -100, actor="admin", reason="", key="g-c")  # c: 900
    await store.buy_in(s.table.id, d, 1000, key="bi-d")  # d: 0 + stack 1000
    board = await store.leaderboard(s.community.id)
    assert [(p.id, total) for p, total in board] == [(b, 1300), (a, 1000), (d, 1000), (c, 900)]
    assert board[2][0].balance == 0  # d's total is all stack
    top2 = await store.leaderboard(s.community.id, limit=2)
    assert [p.id for p, _ in top2] == [b, a]
    assert await store.leaderboard(s.community.id, limit=0) == []


async def test_languages_counts_the_players_stored_language_codes(store: AnyStore) -> None:
    c = await store.community("telegram", "-100")
    other = await store.community("telegram", "-200")
    assert await store.languages(c.id) == {}
    await store.player(c.id, "1", "Ann", "ru")
    await store.player(c.id, "2", "Bob", "ru")
    await store.player(c.id, "3", "Cid", "en")
    await store.player(c.id, "bot:anna", "🤖 Anna")  # (no language: not counted)
    await store.player(other.id, "4", "Dan", "en")
    await store.player(c.id, "3", "Cid", "uk")  # (a language changed is the one counted)
    assert await store.languages(c.id) == {"ru": 2, "uk": 1}
    assert await store.languages(other.id) == {"en": 1}


# -- wallet -------------------------------------------------------------------------------------
async def test_grant_gives_and_takes_and_records_actor_and_reason(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    assert (
        await store.grant(s.community.id, a, 250, actor="admin:7", reason="prize", key="g1") == 1250
    )
    assert (
        await store.grant(s.community.id, a, -50, actor="admin:7", reason="fix", key="g2") == 1200
    )
    rows = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.ADMIN_GRANT]
    assert [(r.balance_delta, r.actor, r.reason, r.key) for r in rows] == [
        (250, "admin:7", "prize", "g1"),
        (-50, "admin:7", "fix", "g2"),
    ]
    await assert_consistent(store)


async def test_grant_taking_more_than_the_balance_changes_nothing(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    before = list(await store.ledger(s.community.id))
    with pytest.raises(InsufficientFunds):
        await store.grant(s.community.id, a, -1001, actor="admin", reason="", key="g1")
    assert await balance(store, a) == 1000
    assert list(await store.ledger(s.community.id)) == before
    # the key was not consumed by the failed call
    assert await store.grant(s.community.id, a, -1000, actor="admin", reason="", key="g1") == 0


async def test_grant_of_zero_or_to_another_community_is_refused(store: AnyStore) -> None:
    s = await seated(store)
    other = await store.community("discord", "guild")
    with pytest.raises(StorageError):
        await store.grant(s.community.id, s.ids[0], 0, actor="a", reason="", key="g0")
    with pytest.raises(StorageError):
        await store.grant(other.id, s.ids[0], 10, actor="a", reason="", key="g1")
    with pytest.raises(StorageError):
        await store.grant(s.community.id, 999, 10, actor="a", reason="", key="g2")
    assert await balance(store, s.ids[0]) == 1000


async def test_claim_daily_pays_once_per_day(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    assert not await store.daily_claimed(a, "2025-03-01")
    assert await store.claim_daily(s.community.id, a, 100, "2025-03-01") == 1100
    assert await store.daily_claimed(a, "2025-03-01")
    assert not await store.daily_claimed(a, "2025-03-02")
    assert not await store.daily_claimed(s.ids[1], "2025-03-01")
    assert await store.claim_daily(s.community.id, a, 100, "2025-03-01") is None
    assert await store.claim_daily(s.community.id, a, 100, "2025-03-02") == 1200
    assert await store.claim_daily(s.community.id, s.ids[1], 100, "2025-03-01") == 1100
    rows = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.DAILY_BONUS]
    assert [(r.player_id, r.balance_delta) for r in rows] == [(a, 100), (a, 100), (s.ids[1], 100)]
    await assert_consistent(store)


async def test_claim_daily_of_a_day_before_the_one_taken_is_refused(store: AnyStore) -> None:
    """A group's ``utc_offset`` turned back reads the day before the one taken: no second
    bonus (R8.1); the day taken is the latest, and the next one is the day after it."""
    s = await seated(store)
    a = s.ids[0]
    assert await store.last_daily(a) is None
    assert await store.claim_daily(s.community.id, a, 100, "2025-03-02") == 1100
    assert await store.daily_claimed(a, "2025-03-01")
    assert await store.claim_daily(s.community.id, a, 100, "2025-03-01") is None
    assert await store.last_daily(a) == "2025-03-02"
    assert not await store.daily_claimed(a, "2025-03-03")
    assert await store.claim_daily(s.community.id, a, 100, "2025-03-03") == 1200
    assert await store.last_daily(a) == "2025-03-03"
    assert await balance(store, a) == 1200
    await assert_consistent(store)


async def test_claim_daily_since_the_local_day_began_is_refused(store: AnyStore) -> None:
    """A group's zone moved forward (English to Russian: UTC to Moscow) reads the next date
    at once: a claim taken since the start of the group's local day (``since``) refuses
    another whatever its date; the claim's time is the caller's (``at``), not the store's
    clock (R8.1)."""
    s = await seated(store)
    a, b = s.ids[0], s.ids[1]
    day_start = 1_699_920_000.0  # 2023-11-14 00:00 UTC
    taken = day_start - 2 * 3600  # 22:00 UTC on the 13th: the 13th's bonus
    assert await store.claim_daily(s.community.id, a, 100, "2023-11-13", at=taken) == 1100
    assert await store.claim_daily(s.community.id, b, 100, "2023-11-13", at=taken - 7200) == 1100
    moscow = day_start - 3 * 3600  # 00:00 of the 14th in Moscow, 21:00 UTC on the 13th
    assert await store.daily_claimed(a, "2023-11-14", since=moscow)
    assert not await store.daily_claimed(a, "2023-11-14")
    assert not await store.daily_claimed(b, "2023-11-14", since=moscow)  # (20:00 UTC)
    assert await store.claim_daily(s.community.id, a, 100, "2023-11-14", since=moscow) is None
    assert (
        await store.claim_daily(s.community.id, b, 100, "2023-11-14", at=taken + 120, since=moscow)
        == 1200
    )
    assert await store.last_daily(a) == "2023-11-13"
    assert await store.daily_claimed(b, "2023-11-15", since=moscow)
    # the next Moscow day (00:00 of the 15th there): both claims are from before it
    nxt = moscow + 86400
    assert not await store.daily_claimed(a, "2023-11-15", since=nxt)
    assert await store.claim_daily(s.community.id, a, 100, "2023-11-15", at=nxt, since=nxt) == 1200
    assert await store.claim_daily(s.community.id, a, 100, "2023-11-16", since=nxt) is None
    assert await store.claim_daily(s.community.id, b, 100, "2023-11-15", since=nxt) == 1300
    assert (await balance(store, a), await balance(store, b)) == (1200, 1300)
    await assert_consistent(store)


async def test_claims_of_two_days_at_once_pay_one(store: AnyStore) -> None:
    """A claim of a day and one of the day before it, at once (a group's ``utc_offset``
    changed between two presses): the later day is paid, or the earlier one and then the
    later one; never the earlier one after the later (R8.1)."""
    s = await seated(store)
    a = s.ids[0]
    got = await asyncio.gather(
        *(store.claim_daily(s.community.id, a, 100, d) for d in ["2025-03-02", "2025-03-01"] * 3)
    )
    assert sum(g is not None for g in got) in (1, 2), got
    rows = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.DAILY_BONUS]
    paid = [r.key.rsplit("/", 1)[1] for r in rows]  # in the order they were paid
    assert paid in (["2025-03-02"], ["2025-03-01", "2025-03-02"]), paid
    assert await balance(store, a) == 1000 + 100 * len(paid)
    assert await store.last_daily(a) == "2025-03-02"
    await assert_consistent(store)


async def test_claim_daily_with_a_bad_day_is_refused(store: AnyStore) -> None:
    s = await seated(store)
    for day in ("2025-3-1", "yesterday", "2025-02-30"):
        with pytest.raises(StorageError):
            await store.claim_daily(s.community.id, s.ids[0], 100, day)
    assert await balance(store, s.ids[0]) == 1000


async def test_buy_in_moves_kush_from_balance_to_stack(store: AnyStore) -> None:
    """R8.2: confirming Ready moves the buy-in from the balance to the stack; a top-up adds."""
    s = await seated(store)
    a = s.ids[0]
    assert await store.buy_in(s.table.id, a, 300, key="b1") == 300
    assert await store.buy_in(s.table.id, a, 200, key="b2") == 500
    assert await balance(store, a) == 500
    assert await store.stacks(s.table.id) == {a: 500}
    rows = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.BUY_IN]
    assert [(r.table_id, r.balance_delta, r.stack_delta) for r in rows] == [
        (s.table.id, -300, 300),
        (s.table.id, -200, 200),
    ]
    await assert_consistent(store)


async def test_buy_in_beyond_the_balance_changes_nothing(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    await store.buy_in(s.table.id, a, 600, key="b1")
    before = list(await store.ledger(s.community.id))
    with pytest.raises(InsufficientFunds) as refused:
        await store.buy_in(s.table.id, a, 401, key="b2")
    # what the refusing transaction read, for the refusal to name (fixtopup)
    assert (refused.value.player_id, refused.value.balance, refused.value.need) == (a, 400, 401)
    assert await balance(store, a) == 400
    assert await store.stacks(s.table.id) == {a: 600}
    assert list(await store.ledger(s.community.id)) == before
    await assert_consistent(store)


async def test_buy_in_refuses_bad_amounts_closed_tables_and_strangers(store: AnyStore) -> None:
    s = await seated(store)
    stranger_c = await store.community("discord", "guild")
    stranger = await store.player(stranger_c.id, "9", "Zed")
    for amount in (0, -5):
        with pytest.raises(StorageError):
            await store.buy_in(s.table.id, s.ids[0], amount, key=f"b{amount}")
    with pytest.raises(StorageError):
        await store.buy_in(s.table.id, stranger.id, 100, key="b-stranger")
    with pytest.raises(StorageError):
        await store.buy_in(999, s.ids[0], 100, key="b-unknown")
    await store.close_table(s.table.id)
    with pytest.raises(StorageError):
        await store.buy_in(s.table.id, s.ids[0], 100, key="b-closed")
    assert await balance(store, s.ids[0]) == 1000
    assert await balance(store, stranger.id) == 1000


async def test_cash_out_moves_the_whole_stack_back_and_frees_the_seat(store: AnyStore) -> None:
    s = await seated(store)
    a, b = s.ids[:2]
    await store.buy_in(s.table.id, a, 300, key="b1")
    await store.buy_in(s.table.id, b, 300, key="b2")
    assert await store.cash_out(s.table.id, a, key="c1") == 300
    assert await store.stacks(s.table.id) == {b: 300}
    assert await balance(store, a) == 1000
    assert await store.cash_out(s.table.id, b, key="c2", kind=LedgerKind.REFUND) == 300
    kinds = [(r.kind, r.balance_delta, r.stack_delta) for r in await store.ledger(s.community.id)]
    assert kinds[-2:] == [(LedgerKind.CASH_OUT, 300, -300), (LedgerKind.REFUND, 300, -300)]
    await assert_consistent(store)


async def test_cash_out_without_a_stack_moves_nothing(store: AnyStore) -> None:
    s = await seated(store)
    before = list(await store.ledger(s.community.id))
    assert await store.cash_out(s.table.id, s.ids[0], key="c1") == 0
    assert list(await store.ledger(s.community.id)) == before
    with pytest.raises(StorageError):
        await store.cash_out(s.table.id, s.ids[0], key="c2", kind=LedgerKind.BUY_IN)


async def test_cash_out_of_an_emptied_stack_frees_the_seat(store: AnyStore) -> None:
    """R8.2: a player whose stack is empty is stood up: the zero stack row goes away."""
    s = await seated(store)
    a, b = s.ids[:2]
    await store.buy_in(s.table.id, a, 100, key="b1")
    await store.buy_in(s.table.id, b, 100, key="b2")
    await store.settle_hand(s.table.id, 1, HAND, RESULT, {0: a, 1: b}, {a: -100, b: 100}, key="h1")
    assert await store.stacks(s.table.id) == {a: 0, b: 200}
    assert await store.cash_out(s.table.id, a, key="c1") == 0
    assert await store.stacks(s.table.id) == {b: 200}


# -- settlement ---------------------------------------------------------------------------------
async def test_settle_hand_moves_stacks_and_records_the_hand(store: AnyStore) -> None:
    s = await seated(store)
    a, b, c = s.ids
    for p in s.ids:
        await store.buy_in(s.table.id, p, 200, key=f"b{p}")
    rec = await store.settle_hand(
        s.table.id, 7, HAND, RESULT, {0: a, 1: b, 2: c}, {a: 30, b: -20, c: -10}, key="h7"
    )
    assert (rec.table_id, rec.number, rec.players) == (s.table.id, 7, {0: a, 1: b, 2: c})
    assert rec.hand == HAND
    assert rec.result is RESULT  # the first call's record holds the mapping passed in
    assert await store.stacks(s.table.id) == {a: 230, b: 180, c: 190}
    assert [await balance(store, p) for p in s.ids] == [800, 800, 800]
    rows = [r for r in await store.ledger(s.community.id) if r.kind is LedgerKind.HAND_RESULT]
    assert sorted((r.player_id, r.stack_delta, r.balance_delta, r.hand_id) for r in rows) == [
        (a, 30, 0, rec.id),
        (b, -20, 0, rec.id),
        (c, -10, 0, rec.id),
    ]
    [stored] = await store.hand_history(a)
    assert (stored.id, stored.hand, stored.players) == (rec.id, HAND, rec.players)
    assert stored.result == json.loads(json.dumps(RESULT))  # stored as JSON: int keys → strings
    await assert_consistent(store)


async def test_settle_hand_refuses_deltas_that_do_not_sum_to_zero(store: AnyStore) -> None:
    s = await seated(store)
    a, b, _ = s.ids
    for p in s.ids:
        await store.buy_in(s.table.id, p, 200, key=f"b{p}")
    with pytest.raises(StorageError):
        await store.settle_hand(s.table.id, 1, HAND, RESULT, {0: a, 1: b}, {a: 10, b: -9}, key="h")
    assert await store.stacks(s.table.id) == dict.fromkeys(s.ids, 200)
    assert await store.export_hands(s.table.id) == []


async def test_settle_hand_that_would_overdraw_a_stack_changes_nothing(store: AnyStore) -> None:
    """R8.4: nobody loses more than they have at the table; the service caps, storage refuses."""
    s = await seated(store)
    a, b, c = s.ids
    for p in s.ids:
        await store.buy_in(s.table.id, p, 200, key=f"b{p}")
    before = list(await store.ledger(s.community.id))
    with pytest.raises(InsufficientFunds):
        await store.settle_hand(
            s.table.id, 1, HAND, RESULT, {0: a, 1: b, 2: c}, {a: 250, b: -201, c: -49}, key="h1"
        )
    assert await store.stacks(s.table.id) == dict.fromkeys(s.ids, 200)
    assert list(await store.ledger(s.community.id)) == before
    assert await store.export_hands(s.table.id) == []
    assert await store.hand_history(a) == []


async def test_settle_hand_refuses_players_without_a_stack_and_reused_numbers(
    store: AnyStore,
) -> None:
    s = await seated(store)
    a, b, c = s.ids
    await store.buy_in(s.table.id, a, 200, key="ba")
    await store.buy_in(s.table.id, b, 200, key="bb")
    with pytest.raises(StorageError):  # c has no stack at the table
        await store.settle_hand(s.table.id, 1, HAND, RESULT, {0: a, 1: c}, {a: 5, c: -5}, key="x")
    await store.settle_hand(s.table.id, 1, HAND, RESULT, {0: a, 1: b}, {a: 5, b: -5}, key="h1")
    with pytest.raises(StorageError):  # hand 1 of this table is already recorded
        await store.settle_hand(s.table.id, 1, HAND, RESULT, {0: a, 1: b}, {a: 5, b: -5}, key="h2")
    assert await store.stacks(s.table.id) == {a: 205, b: 195}
    assert len(await store.export_hands(s.table.id)) == 1


# -- tables -------------------------------------------------------------------------------------
async def test_a_chat_has_at_most_one_open_table(store: AnyStore) -> None:
    c = await store.community("telegram", "-100")
    t = await store.create_table(c.id, "chat", {"game": "ofc"}, 100)
    assert (t.community_id, t.chat_id, t.options, t.min_buy_in, t.open) == (
        c.id,
        "chat",
        {"game": "ofc"},
        100,
        True,
    )
    with pytest.raises(StorageError):
        await store.create_table(c.id, "chat", {}, 100)
    other_chat = await store.create_table(c.id, "chat-2", {}, 100)
    assert other_chat.id != t.id
    assert await store.open_table(c.id, "chat") == t
    assert await store.open_table(c.id, "nowhere") is None
    elsewhere = await store.community("telegram", "-200")
    await store.create_table(elsewhere.id, "chat", {}, 100)
    assert list(await store.open_tables(c.id)) == [t, other_chat]
    await store.close_table(t.id)
    assert await store.open_table(c.id, "chat") is None
    assert list(await store.open_tables(c.id)) == [other_chat]
    again = await store.create_table(c.id, "chat", {}, 50)
    assert again.id not in (t.id, other_chat.id)
    closed = await store.get_table(t.id)
    assert closed is not None and not closed.open


async def test_create_table_in_unknown_community_or_with_negative_buy_in_is_refused(
    store: AnyStore,
) -> None:
    c = await store.community("telegram", "-100")
    with pytest.raises(StorageError):
        await store.create_table(999, "chat", {}, 100)
    with pytest.raises(StorageError):
        await store.create_table(c.id, "chat", {}, -1)
    assert await store.open_table(c.id, "chat") is None


async def test_update_table_changes_options_and_min_buy_in(store: AnyStore) -> None:
    s = await seated(store)
    updated = await store.update_table(s.table.id, {"game": "ofc", "hand_seconds": 60}, 300)
    assert (updated.options, updated.min_buy_in) == ({"game": "ofc", "hand_seconds": 60}, 300)
    assert await store.get_table(s.table.id) == updated
    with pytest.raises(StorageError):
        await store.update_table(999, {}, 1)
    assert await store.get_table(999) is None


async def test_close_table_needs_every_stack_cashed_out(store: AnyStore) -> None:
    s = await seated(store)
    a = s.ids[0]
    await store.buy_in(s.table.id, a, 100, key="b1")
    await store.save_snapshot(s.table.id, {"state": 1})
    with pytest.raises(StorageError):
        await store.close_table(s.table.id)
    assert (await store.get_table(s.table.id)).open  # type: ignore[union-attr]
    await store.cash_out(s.table.id, a, key="c1")
    await store.close_table(s.table.id)
    await store.close_table(s.table.id)  # closing twice is harmless
    assert await store.snapshots() == []
    with pytest.raises(StorageError):
        await store.close_table(999)
    await assert_consistent(store)


# -- snapshots ----------------------------------------------------------------------------------
async def test_snapshots_are_saved_replaced_and_deleted(store: AnyStore) -> None:
    s = await seated(store)
    c2 = await store.create_table(s.community.id, "chat-2", {}, 10)
    await store.save_snapshot(s.table.id, {"v": 1, "seats": {0: 5}})
    await store.save_snapshot(s.table.id, {"v": 2, "seats": {0: 5}})
    snaps = await store.snapshots()
    assert [(t.id, data) for t, data in snaps] == [
        (s.table.id, {"v": 2, "seats": {"0": 5}}),
        (c2.id, {}),  # an open table without a snapshot is still listed
    ]
    await store.delete_snapshot(s.table.id)
    await store.delete_snapshot(s.table.id)  # deleting nothing is harmless
    assert [(t.id, data) for t, data in await store.snapshots()] == [(s.table.id, {}), (c2.id, {})]


async def test_a_background_snapshot_older_than_the_stored_one_is_kept_out(
    store: AnyStore,
) -> None:
    """A background snapshot (``save_snapshot``) taken before a transition but written after
    its commit must not replace the committed, newer one (its ``seq`` is lower): a restart
    would otherwise restore the table one step back. One of the same ``seq`` replaces it
    (placements made after the step)."""
    s = await seated(store)
    await store.save_snapshot(s.table.id, {"seq": 5, "v": 1})
    await store.save_snapshot(s.table.id, {"seq": 4, "v": 2})  # late: kept out
    assert [data for _, data in await store.snapshots()] == [{"seq": 5, "v": 1}]
    await store.save_snapshot(s.table.id, {"seq": 5, "v": 3})  # the same step, newer
    await store.commit(s.table.id, [], {"seq": 6, "v": 4}, key="k6")
    await store.save_snapshot(s.table.id, {"seq": 5, "v": 5})  # taken before the commit
    assert [data for _, data in await store.snapshots()] == [{"seq": 6, "v": 4}]
    await store.save_snapshot(s.table.id, {"seq": 7, "v": 6})
    assert [data for _, data in await store.snapshots()] == [{"seq": 7, "v": 6}]


async def test_snapshot_of_a_closed_or_unknown_table_or_not_json_is_refused(
    store: AnyStore,
) -> None:
    s = await seated(store)
    with pytest.raises(StorageError):
        await store.save_snapshot(999, {"v": 1})
    with pytest.raises(StorageError):
        await store.save_snapshot(s.table.id, {"v": float("nan")})
    with pytest.raises(StorageError):
        await store.save_snapshot(s.table.id, {"v": object()})
    await store.close_table(s.table.id)
    with pytest.raises(StorageError):
        await store.save_snapshot(s.table.id, {"v": 1})


# -- history ------------------------------------------------------------------------------------
async def _play_hands(store: AnyStore, n: int) -> tuple[list[int], int, list[int]]:
    s = await seated(store)
    a, b, c = s.ids
    for p in s.ids:
        await store.buy_in(s.table.id, p, 500, key=f"b{p}")
    ids = []
    for i in range(1, n + 1):
        # a and b play every hand, c only the even ones
        players = {0: a, 1: b, 2: c} if i % 2 == 0 else {0: a, 1: b}
        deltas = {a: 1, b: -1}
        rec = await store.settle_hand(
            s.table.id, i, {"n": i}, {"r": i}, players, deltas, key=f"hand-{i}"
        )
        ids.append(rec.id)
    return ids, s.table.id, s.ids


async def test_hand_history_is_newest_first_and_limited(store: AnyStore) -> None:
    ids, _, (a, _b, c) = await _play_hands(store, 7)
    history = await store.hand_history(a, limit=3)
    assert [h.id for h in history] == ids[::-1][:3]
    assert [h.number for h in history] == [7, 6, 5]
    assert [h.number for h in await store.hand_history(c)] == [6, 4, 2]
    assert len(await store.hand_history(a)) == 7  # default limit 10
    assert await store.hand_history(a, limit=0) == []
    assert await store.hand_history(9999) == []


async def test_export_hands_is_oldest_first_and_json_ready(store: AnyStore) -> None:
    ids, table_id, (a, b, c) = await _play_hands(store, 3)
    exported = await store.export_hands(table_id)
    assert json.loads(json.dumps(exported)) == exported
    assert [h["id"] for h in exported] == ids
    assert [h["number"] for h in exported] == [1, 2, 3]
    assert exported[1]["players"] == {"0": a, "1": b, "2": c}
    assert exported[0]["hand"] == {"n": 1}
    assert exported[0]["result"] == {"r": 1}
    assert isinstance(exported[0]["finished_at"], float)
    assert await store.export_hands(9999) == []


async def test_ledger_is_per_community_and_in_order(store: AnyStore) -> None:
    s = await seated(store)
    other = await store.community("discord", "guild")
    stranger = await store.player(other.id, "9", "Zed")
    await store.buy_in(s.table.id, s.ids[0], 100, key="b1")
    await store.grant(other.id, stranger.id, 5, actor="a", reason="r", key="g1")
    rows = await store.ledger(s.community.id)
    assert [r.id for r in rows] == sorted(r.id for r in rows)
    assert [r.kind for r in rows] == [LedgerKind.STARTING] * 3 + [LedgerKind.BUY_IN]
    assert {r.community_id for r in rows} == {s.community.id}
    assert [r.kind for r in await store.ledger(other.id)] == [
        LedgerKind.STARTING,
        LedgerKind.ADMIN_GRANT,
    ]
    assert all(r.created_at > 1e9 for r in rows)


async def test_a_key_used_for_one_kind_of_operation_is_refused_for_another(
    store: AnyStore,
) -> None:
    s = await seated(store)
    await store.buy_in(s.table.id, s.ids[0], 100, key="k")
    with pytest.raises(StorageError):
        await store.grant(s.community.id, s.ids[0], 10, actor="a", reason="", key="k")
    with pytest.raises(StorageError):
        await store.cash_out(s.table.id, s.ids[0], key="k")
    assert await balance(store, s.ids[0]) == 900
    assert await store.stacks(s.table.id) == {s.ids[0]: 100}


async def test_mark_alive_keeps_the_latest_mark(store: AnyStore) -> None:
    """R8.5 after a crash: the bot marks itself running; the restart reads the latest mark
    (``None`` before any), in the bot's own clock (Unix seconds, fractions kept)."""
    assert await store.last_alive() is None
    await store.mark_alive(1_700_000_000.25)
    await store.mark_alive(1_700_000_005.5)
    assert await store.last_alive() == 1_700_000_005.5


async def test_usernames_map_to_the_user_who_has_them_now(store: AnyStore) -> None:
    """Telegram's "/grant @anna 100" after a restart: a @username is kept (any case, with or
    without the ``@``) per platform; one that another user takes moves to them, and a user
    who changes theirs is no longer found by the old one."""
    assert await store.user_of_username("telegram", "anna") is None
    await store.remember_username("telegram", "Anna", "1001")
    await store.remember_username("telegram", "Anna", "1001")  # (again: nothing changes)
    assert await store.user_of_username("telegram", "@ANNA") == "1001"
    assert await store.user_of_username("telegram", "anna") == "1001"
    assert await store.user_of_username("discord", "anna") is None
    await store.remember_username("telegram", "@bob_7", "1002")
    await store.remember_username("telegram", "anna", "2002")  # the name moved to another id
    assert await store.user_of_username("telegram", "anna") == "2002"
    await store.remember_username("telegram", "bobby", "1002")  # Bob renamed himself
    assert await store.user_of_username("telegram", "bob_7") is None
    assert await store.user_of_username("telegram", "Bobby") == "1002"
    with pytest.raises(StorageError):
        await store.remember_username("telegram", "@", "1003")


async def test_a_kush_label_is_stored_as_typed(store: AnyStore) -> None:
    """The label an admin typed (markdown, 40 characters) comes back unchanged: messages
    escape it where a platform needs it (Discord), never the store."""
    c = await store.community("discord", "g")
    label = "**" + "x" * 36 + "**"
    updated = await store.update_settings(c.id, CommunitySettings(kush_label=label))
    assert updated.settings.kush_label == label
    assert (await store.community("discord", "g")).settings.kush_label == label
