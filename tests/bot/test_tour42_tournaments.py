"""tour42: a tournament's bookkeeping (R8.7): an admin's cancel during a Chinese Poker game
records the game's end as a history entry of its own (as a leaver's end of it does), and a
buy-in given back on unregistering before the start is a ``refund`` ledger row, as a cancel's
is. Each test fails on the code before its fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.model import Actor
from bot.texts import tr
from storage.api import LedgerKind, Store
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import service_env
from tests.bot.test_brk76_tournaments import _first_hand_over
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP
from tests.bot.test_tournament_service import (
    PLAYERS,
    a_chinese_game_under_way_after_a_knock_out,
    a_chinese_tournament_started,
    configure,
    new_service,
)


async def _balance(store: Store, actor: Actor) -> int:
    """``actor``'s balance in the test's community."""
    community = await store.community("telegram", "-100")
    p = await store.find_player(community.id, actor.user_id)
    assert p is not None
    return p.balance


async def _total_kush(store: Store) -> int:
    """Every balance of the test's community plus every stack still at a table."""
    community = await store.community("telegram", "-100")
    total = 0
    for a in PLAYERS:
        p = await store.find_player(community.id, a.user_id)
        total += 0 if p is None else p.balance
    return total


def _entries_after(hands: list[dict[str, Any]], number: int) -> list[dict[str, Any]]:
    """The history entries of a table recorded after its entry ``number``, oldest first."""
    return sorted((h for h in hands if h["number"] > number), key=lambda h: h["number"])


async def test_r7_6_r8_7_a_cancel_after_a_knock_out_records_the_chinese_game_s_end_first(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """Carol is out; Alice and Bob play a Chinese Poker game with a score when an admin
    closes the table (cancelled at the end of the hand, its pool shared by chips). The game
    under way is settled first (R7.6, R8.7): it is now one ``game_end`` entry with the chips
    it moved and no kush, then the cancel's ``tournament_end`` entry moves the shares;
    /history lists the cancel, then the game's end, as a leaver's end of a game is listed.
    Before, the game's chips were settled inside the cancel with no entry of their own."""
    service, _presenter, store, clock = env
    t, play_hand = await a_chinese_game_under_way_after_a_knock_out(env)
    tour = t.tournament
    assert tour is not None
    before = dict(tour.chips)
    last = t.hand_no
    await service.close_table(GROUP, ALICE, True)  # at the end of this hand
    await play_hand(last)
    while service.table_in(GROUP) is not None:
        clock.now += 1
        await service.run_due()
    moved = {s: tour.chips[s] - before[s] for s in (0, 1)}
    assert moved[0] == -moved[1] != 0  # (this test's deck: a game with a score)
    later = _entries_after(await store.export_hands(t.id), last)
    assert [sorted(k for k in ("game_end", "tournament_end") if h["result"].get(k))
            for h in later] == [["game_end"], ["tournament_end"]]  # fmt: skip
    game_end, cancel = (h["result"] for h in later)
    assert game_end["tournament"]["won"] == {"0": moved[0], "1": moved[1]}
    assert game_end["tournament"]["chips"] == {"0": tour.chips[0], "1": tour.chips[1]}
    assert game_end["kush"] == {}  # chips only: no kush moved twice
    assert cancel["cancelled"] is True and cancel["pool"] == 300
    # the ledger: no hand_result rows for the game's end; the cancel's sum to zero
    community = await store.community("telegram", "-100")
    rows = [r for r in await store.ledger(community.id) if r.table_id == t.id]
    by_hand: dict[int | None, list[int]] = {}
    for r in rows:
        if r.kind is LedgerKind.HAND_RESULT:
            by_hand.setdefault(r.hand_id, []).append(r.stack_delta)
    assert len(by_hand) == 1 and sum(next(iter(by_hand.values()))) == 0
    shares = {int(s): v for s, v in cancel["prizes"].items()}
    assert sum(shares.values()) == 300 and shares[2] == 0
    balances = [await _balance(store, a) for a in PLAYERS]
    assert balances == [900 + shares[0], 900 + shares[1], 900]
    assert await _total_kush(store) == 3000 and await store.stacks(t.id) == {}
    history = (await service.history(GROUP, ALICE)).text.splitlines()
    ids = sorted(h.id for h in await store.hand_history(tour.players[0], 5))[-2:]
    assert history[1:3] == [
        f"#{ids[1]} · " + tr("en", "tour.history_cancelled", table=t.id,
                             kush=shares[0] - 100, label="kush"),
        f"#{ids[0]} · " + tr("en", "tour.history_game_end", table=t.id, chips=moved[0]),
    ]  # fmt: skip
    assert await check_store(store) == []


async def test_r7_6_r8_7_a_cancel_before_any_knock_out_records_the_game_then_refunds() -> None:
    """Alice, Bob and Carol after the first hand of a Chinese Poker game (13, 9 and 2
    points, nobody out): an admin closes the table between hands. The game is settled on its
    score in chips at level 1 (10 a point) and recorded as a ``game_end`` entry; then every
    buy-in goes back (``refund`` rows; no kush moved by the game), in the one step."""
    service, presenter, store, clock = new_service(next_hand_delay=30)
    await configure(service, game="chinese", target_points="40", tournament_chips="1000")
    await a_chinese_tournament_started(service, presenter)
    await _first_hand_over(service, presenter, clock)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is None
    assert t.chinese is not None and dict(t.chinese.totals) == {0: 13, 1: 9, 2: 2}
    last = t.hand_no
    await service.close_table(GROUP, BOB, True)  # between hands: at once
    assert service.table_in(GROUP) is None
    # each with each: Alice +4 +11, Bob −4 +7, Carol −11 −7 (points), 10 chips a point
    won = {"0": 150, "1": 30, "2": -180}
    later = _entries_after(await store.export_hands(t.id), last)
    assert len(later) == 1 and later[0]["result"]["game_end"] is True
    assert later[0]["result"]["tournament"]["won"] == won
    assert later[0]["result"]["kush"] == {}
    community = await store.community("telegram", "-100")
    rows = [r for r in await store.ledger(community.id) if r.table_id == t.id]
    assert [(r.kind, r.balance_delta) for r in rows if r.kind is not LedgerKind.BUY_IN] == [
        (LedgerKind.REFUND, 100)
    ] * 3
    assert [await _balance(store, a) for a in PLAYERS] == [1000, 1000, 1000]
    history = (await service.history(GROUP, ALICE)).text.splitlines()
    assert history[1].endswith(tr("en", "tour.history_game_end", table=t.id, chips=150))
    assert await check_store(store) == []


async def _unregister_refunds(store: Store) -> None:
    """Alice and Bob register (100 kush each); Bob leaves before the start."""
    service, _presenter, _store, _clock = service_env(store=store)
    await configure(service, tournament_buy_in="100")
    reply = await service.new_tournament(GROUP, ALICE, "pineapple")
    assert not reply.alert, reply.text
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None
    reply = await service.leave(GROUP, BOB)  # before the start: unregistered
    assert reply.text == tr("ru", "tour.unregistered", amount=100, label="kush"), reply.text
    community = await store.community("telegram", "-100")
    bob = await store.find_player(community.id, BOB.user_id)
    assert bob is not None and bob.balance == 1000
    rows = [r for r in await store.ledger(community.id) if r.player_id == bob.id]
    assert [(r.kind, r.balance_delta, r.stack_delta) for r in rows if r.table_id == t.id] == [
        (LedgerKind.BUY_IN, -100, 100),
        (LedgerKind.REFUND, 100, -100),
    ]
    assert dict(await store.stacks(t.id)) == {await _player_id(store, ALICE): 100}
    # registering again and a cancel: one more buy-in, one more refund, all balanced
    assert not (await service.join(GROUP, BOB)).alert
    await service.close_table(GROUP, CAROL, True)
    assert await store.stacks(t.id) == {}
    assert [await _balance(store, a) for a in (ALICE, BOB)] == [1000, 1000]
    kinds = [r.kind for r in await store.ledger(community.id) if r.table_id == t.id]
    assert kinds.count(LedgerKind.REFUND) == 3 and LedgerKind.CASH_OUT not in kinds
    assert await check_store(store) == []


async def _player_id(store: Store, actor: Actor) -> int:
    """The player id of ``actor`` in the test's community."""
    community = await store.community("telegram", "-100")
    p = await store.find_player(community.id, actor.user_id)
    assert p is not None
    return p.id


async def test_r8_7_unregistering_before_the_start_is_a_refund() -> None:
    """A buy-in given back because the player did not play is a refund (R8.7), as a
    cancel's is: unregistering wrote a ``cash_out`` row, the kind a stack that played
    leaves with."""
    await _unregister_refunds(MemoryStore())


async def test_r8_7_unregistering_is_a_refund_the_sqlite_ledger_accepts(tmp_path: Path) -> None:
    """The same on SQLite, whose ledger constraint (migration 001) checks each row's shape."""
    store = await SqliteStore.open(str(tmp_path / "t.db"))
    try:
        await _unregister_refunds(store)
    finally:
        await store.close()
