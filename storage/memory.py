"""An in-memory :class:`storage.api.Store` for fast unit tests of the table service.

It keeps the same semantics as :class:`storage.sqlite.SqliteStore` (the shared contract tests
run against both): the same validation and errors, idempotency keys, all-or-nothing
operations (everything is checked before anything changes, and no method awaits in the
middle, so coroutines cannot interleave), JSON values round-tripped through ``json`` so they
come back exactly as SQLite would return them (e.g. integer keys become strings).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from game.history import HAND_KINDS
from storage._common import (
    CASH_OUT_KINDS,
    SETTLE_OPERATION,
    TRANSITION_OPERATION,
    StatRow,
    check_newer,
    check_settlement,
    commit_seq,
    daily_key,
    dump_json,
    followed_move,
    hand_export,
    hand_row_key,
    load_json,
    name_key,
    require_day,
    require_int,
    require_key,
    series_keeps,
    series_points,
    snapshot_seq,
    starting_key,
    stat_rows,
    sum_stats,
    username_key,
)
from storage.api import (
    BuyIn,
    CashOut,
    Community,
    CommunitySettings,
    Grant,
    HandRecord,
    HandStats,
    HouseGrant,
    InsufficientFunds,
    Joined,
    LeaseLost,
    LedgerEntry,
    LedgerKind,
    Move,
    Player,
    StorageError,
    Store,
    TableRecord,
    lease_key,
)
from storage.check import AuditData

__all__ = ["MemoryStore"]


def _copy(value: Any, what: str) -> Any:
    """A deep copy through JSON, as SQLite would store and return it."""
    return load_json(dump_json(value, what))


@dataclass(slots=True)
class _Operation:
    kind: str
    result: Any


class MemoryStore:
    """:class:`storage.api.Store` in dictionaries; see :class:`storage.sqlite.SqliteStore` for
    the behaviour beyond the protocol, which this class copies."""

    def __init__(self) -> None:
        """An empty store."""
        self._communities: dict[int, Community] = {}
        self._community_ids: dict[tuple[str, str], int] = {}
        self._moves: dict[tuple[str, str], str] = {}  # (platform, old chat id) → its new id
        self._players: dict[int, Player] = {}
        self._player_ids: dict[tuple[int, str], int] = {}
        self._tables: dict[int, TableRecord] = {}
        self._stacks: dict[tuple[int, int], int] = {}
        self._ledger: list[LedgerEntry] = []
        self._ledger_keys: set[str] = set()
        self._operations: dict[str, _Operation] = {}
        self._hands: dict[int, HandRecord] = {}
        self._hand_numbers: set[tuple[int, int]] = set()
        self._hands_of: dict[int, list[int]] = {}
        # hand_players' figures (migration 002): (hand id, community id, finished_at, row)
        self._stats: list[tuple[int, int, float, StatRow]] = []
        self._snapshots: dict[int, str] = {}
        #: ``(player_id, day)`` of each daily bonus taken -> when it was taken.
        self._daily: dict[tuple[int, str], float] = {}
        self._leases: dict[str, tuple[str, float]] = {}  # key → (worker, expires at)
        self._workers: dict[str, tuple[str, float]] = {}  # worker → (address, expires at)
        self._alive: float | None = None
        self._usernames: dict[tuple[str, str], str] = {}  # (platform, name_key) → user id
        self._last_tables: dict[tuple[str, str], int] = {}  # (platform, user id) → table (R8.6)
        self._fence: str | None = None
        #: the clock of leases and heartbeats (tests move it)
        self.clock = time.time
        self._closed = False

    async def close(self) -> None:
        """Mark the store closed (its data stays readable for assertions)."""
        self._closed = True

    # -- helpers ----------------------------------------------------------------------------
    def _replay(self, key: str, kind: str) -> Any | None:
        op = self._operations.get(key)
        if op is None:
            return None
        if op.kind != kind:
            raise StorageError(f"key {key!r} was already used for {op.kind}, not {kind}")
        return op.result

    def _player_in(self, player_id: int, community_id: int) -> Player:
        p = self._players.get(player_id)
        if p is None:
            raise StorageError(f"no player {player_id}")
        if p.community_id != community_id:
            raise StorageError(f"player {player_id} is not in community {community_id}")
        return p

    def _table(self, table_id: int, *, must_be_open: bool) -> TableRecord:
        t = self._tables.get(table_id)
        if t is None:
            raise StorageError(f"no table {table_id}")
        if must_be_open and not t.open:
            raise StorageError(f"table {table_id} is closed")
        return t

    def _check_ledger_keys(self, *keys: str) -> None:
        if any(k in self._ledger_keys for k in keys) or len(set(keys)) != len(keys):
            raise StorageError("constraint failed: UNIQUE constraint failed: ledger.key")

    def _append(
        self,
        community_id: int,
        kind: LedgerKind,
        player_id: int,
        table_id: int | None,
        balance_delta: int,
        stack_delta: int,
        key: str,
        now: float,
        *,
        hand_id: int | None = None,
        actor: str | None = None,
        reason: str | None = None,
    ) -> None:
        self._ledger.append(
            LedgerEntry(
                len(self._ledger) + 1,
                community_id,
                kind,
                player_id,
                table_id,
                hand_id,
                balance_delta,
                stack_delta,
                actor,
                reason,
                key,
                now,
            )
        )
        self._ledger_keys.add(key)

    def _set_balance(self, player_id: int, balance: int) -> None:
        self._players[player_id] = replace(self._players[player_id], balance=balance)

    # -- communities and players --------------------------------------------------------------
    async def community(self, platform: str, external_id: str, title: str = "") -> Community:
        """See :meth:`storage.sqlite.SqliteStore.community`."""
        cid = self._community_ids.get((platform, external_id))
        if cid is None:
            cid = len(self._communities) + 1
            self._communities[cid] = Community(
                cid, platform, external_id, title, CommunitySettings()
            )
            self._community_ids[(platform, external_id)] = cid
        elif title and self._communities[cid].title != title:
            self._communities[cid] = replace(self._communities[cid], title=title)
        return self._communities[cid]

    async def update_settings(self, community_id: int, settings: CommunitySettings) -> Community:
        """See :meth:`storage.sqlite.SqliteStore.update_settings`."""
        data = _copy(settings.to_json(), "settings")
        c = self._communities.get(community_id)
        if c is None:
            raise StorageError(f"no community {community_id}")
        c = replace(c, settings=CommunitySettings.from_json(data))
        self._communities[community_id] = c
        return c

    async def change_settings(
        self, community_id: int, change: Callable[[CommunitySettings], CommunitySettings]
    ) -> Community:
        """See :meth:`storage.api.Store.change_settings` (no await between the read and the
        write: nothing else runs in between)."""
        c = self._communities.get(community_id)
        if c is None:
            raise StorageError(f"no community {community_id}")
        stored = CommunitySettings.from_json(_copy(c.settings.to_json(), "settings"))
        settings = change(stored)
        if settings is stored:
            return c
        return await self.update_settings(community_id, settings)

    async def moved_chat(self, platform: str, chat_id: str) -> str | None:
        """See :meth:`storage.api.Store.moved_chat`."""
        return followed_move(chat_id, lambda old: self._moves.get((platform, old)))

    async def move_chat(self, platform: str, old_id: str, new_id: str) -> bool:
        """See :meth:`storage.api.Store.move_chat`."""
        cid = self._community_ids.get((platform, old_id))
        if cid is None or old_id == new_id:
            return False
        if self._community_ids.get((platform, new_id), cid) < cid:
            return False  # (opened under the old id after the move: not moved over it)
        taken = self._community_ids.pop((platform, new_id), None)
        if taken is not None:
            renamed = f"{new_id}~{taken}"
            self._communities[taken] = replace(self._communities[taken], external_id=renamed)
            self._community_ids[(platform, renamed)] = taken
        del self._community_ids[(platform, old_id)]
        self._community_ids[(platform, new_id)] = cid
        self._communities[cid] = replace(self._communities[cid], external_id=new_id)
        for tid, t in list(self._tables.items()):
            if t.community_id == cid and t.chat_id == old_id:
                self._tables[tid] = replace(t, chat_id=new_id)
        self._moves[(platform, old_id)] = new_id
        old_key, new_key = lease_key(platform, old_id), lease_key(platform, new_id)
        if old_key in self._leases:  # the worker serving the chat keeps serving it
            self._leases[new_key] = self._leases.pop(old_key)
        return True

    async def player(
        self,
        community_id: int,
        user_id: str,
        name: str,
        language: str | None = None,
        *,
        starting: bool = True,
    ) -> Player:
        """See :meth:`storage.sqlite.SqliteStore.player`."""
        pid = self._player_ids.get((community_id, user_id))
        if pid is not None:
            p = self._players[pid]
            if p.name != name or (language is not None and p.language != language):
                p = replace(p, name=name, language=p.language if language is None else language)
                self._players[pid] = p
            return p
        c = self._communities.get(community_id)
        if c is None:
            raise StorageError(f"no community {community_id}")
        start = c.settings.starting_balance
        if start < 0:
            raise StorageError(f"community {community_id} has a negative starting balance")
        pid = len(self._players) + 1
        if not starting:  # (a computer player: house kush only, issue 13)
            p = Player(pid, community_id, user_id, name, language, 0)
            self._players[pid] = p
            self._player_ids[(community_id, user_id)] = pid
            return p
        self._check_ledger_keys(starting_key(pid))
        now = time.time()
        p = Player(pid, community_id, user_id, name, language, start)
        self._players[pid] = p
        self._player_ids[(community_id, user_id)] = pid
        self._append(
            community_id,
            LedgerKind.STARTING,
            pid,
            None,
            start,
            0,
            starting_key(pid),
            now,
            reason="starting balance",
        )
        return p

    async def get_player(self, player_id: int) -> Player | None:
        """See :meth:`storage.sqlite.SqliteStore.get_player`."""
        return self._players.get(player_id)

    async def find_player(self, community_id: int, name_or_user_id: str) -> Player | None:
        """See :meth:`storage.sqlite.SqliteStore.find_player`."""
        query = name_or_user_id.strip()
        bare = query[1:] if query.startswith("@") else query
        for uid in dict.fromkeys((query, bare)):
            pid = self._player_ids.get((community_id, uid))
            if pid is not None:
                return self._players[pid]
        wanted = name_key(query)
        found = [
            p
            for p in self._players.values()
            if p.community_id == community_id and name_key(p.name) == wanted
        ]
        return found[0] if len(found) == 1 else None

    async def leaderboard(self, community_id: int, limit: int = 10) -> Sequence[tuple[Player, int]]:
        """See :meth:`storage.sqlite.SqliteStore.leaderboard`."""
        if limit <= 0:
            return []
        held: dict[int, int] = {}
        for (_, pid), stack in self._stacks.items():
            held[pid] = held.get(pid, 0) + stack
        rows = [
            (p, p.balance + held.get(p.id, 0))
            for p in self._players.values()
            if p.community_id == community_id
        ]
        rows.sort(key=lambda r: (-r[1], r[0].id))
        return rows[:limit]

    async def languages(self, community_id: int) -> Mapping[str, int]:
        """See :meth:`storage.sqlite.SqliteStore.languages`."""
        counts: dict[str, int] = {}
        for p in self._players.values():
            if p.community_id == community_id and p.language is not None:
                counts[p.language] = counts.get(p.language, 0) + 1
        return counts

    # -- wallet -------------------------------------------------------------------------------
    async def grant(
        self, community_id: int, player_id: int, amount: int, *, actor: str, reason: str, key: str
    ) -> int:
        """See :meth:`storage.sqlite.SqliteStore.grant`."""
        require_int(amount, "grant")
        if amount == 0:
            raise StorageError("a grant of 0 kush")
        require_key(key)
        done = self._replay(key, LedgerKind.ADMIN_GRANT.value)
        if done is not None:
            return int(done["balance"])
        p = self._player_in(player_id, community_id)
        balance = p.balance + amount
        if balance < 0:
            raise InsufficientFunds(
                f"player {player_id} has {p.balance} kush, cannot take {-amount}"
            )
        self._check_ledger_keys(key)
        now = time.time()
        self._set_balance(player_id, balance)
        self._append(
            community_id,
            LedgerKind.ADMIN_GRANT,
            player_id,
            None,
            amount,
            0,
            key,
            now,
            actor=actor,
            reason=reason,
        )
        self._operations[key] = _Operation(LedgerKind.ADMIN_GRANT.value, {"balance": balance})
        return balance

    async def claim_daily(
        self,
        community_id: int,
        player_id: int,
        amount: int,
        day: str,
        *,
        at: float | None = None,
        since: float | None = None,
    ) -> int | None:
        """See :meth:`storage.sqlite.SqliteStore.claim_daily`."""
        require_int(amount, "daily bonus", minimum=0)
        require_day(day)
        p = self._player_in(player_id, community_id)
        if await self.daily_claimed(player_id, day, since=since):
            return None
        self._check_ledger_keys(daily_key(player_id, day))
        now = time.time()
        self._daily[player_id, day] = now if at is None else float(at)
        self._set_balance(player_id, p.balance + amount)
        self._append(
            community_id,
            LedgerKind.DAILY_BONUS,
            player_id,
            None,
            amount,
            0,
            daily_key(player_id, day),
            now,
            reason=f"daily {day}",
        )
        return p.balance + amount

    async def daily_claimed(self, player_id: int, day: str, *, since: float | None = None) -> bool:
        """See :meth:`storage.sqlite.SqliteStore.daily_claimed`."""
        require_day(day)
        return any(
            d >= day or (since is not None and at >= since)
            for (p, d), at in self._daily.items()
            if p == player_id
        )

    async def last_daily(self, player_id: int) -> str | None:
        """See :meth:`storage.sqlite.SqliteStore.last_daily`."""
        return max((d for p, d in self._daily if p == player_id), default=None)

    async def buy_in(self, table_id: int, player_id: int, amount: int, *, key: str) -> int:
        """See :meth:`storage.sqlite.SqliteStore.buy_in`."""
        require_int(amount, "buy-in", minimum=1)
        require_key(key)
        done = self._replay(key, LedgerKind.BUY_IN.value)
        if done is not None:
            return int(done["stack"])
        t = self._table(table_id, must_be_open=True)
        p = self._player_in(player_id, t.community_id)
        if p.balance < amount:
            raise InsufficientFunds(
                f"player {player_id} has {p.balance} kush, needs {amount}",
                player_id=player_id,
                balance=p.balance,
                need=amount,
            )
        self._check_ledger_keys(key)
        now = time.time()
        self._set_balance(player_id, p.balance - amount)
        stack = self._stacks.get((table_id, player_id), 0) + amount
        self._stacks[(table_id, player_id)] = stack
        self._append(
            t.community_id, LedgerKind.BUY_IN, player_id, table_id, -amount, amount, key, now
        )
        self._operations[key] = _Operation(LedgerKind.BUY_IN.value, {"stack": stack})
        return stack

    async def cash_out(
        self, table_id: int, player_id: int, *, key: str, kind: LedgerKind = LedgerKind.CASH_OUT
    ) -> int:
        """See :meth:`storage.sqlite.SqliteStore.cash_out`."""
        if kind not in CASH_OUT_KINDS:
            raise StorageError(f"cash_out writes cash_out or refund rows, not {kind.value}")
        require_key(key)
        done = self._replay(key, kind.value)
        if done is not None:
            return int(done["amount"])
        t = self._table(table_id, must_be_open=False)
        p = self._player_in(player_id, t.community_id)
        amount = self._stacks.get((table_id, player_id), 0)
        if amount:
            self._check_ledger_keys(key)
        now = time.time()
        self._stacks.pop((table_id, player_id), None)
        if amount:
            self._set_balance(player_id, p.balance + amount)
            self._append(t.community_id, kind, player_id, table_id, amount, -amount, key, now)
        self._operations[key] = _Operation(kind.value, {"amount": amount})
        return amount

    async def stacks(self, table_id: int) -> Mapping[int, int]:
        """See :meth:`storage.sqlite.SqliteStore.stacks`."""
        return {p: s for (t, p), s in sorted(self._stacks.items()) if t == table_id}

    async def settle_hand(
        self,
        table_id: int,
        number: int,
        hand: Mapping[str, Any],
        result: Mapping[str, Any],
        players: Mapping[int, int],
        deltas: Mapping[int, int],
        *,
        key: str,
    ) -> HandRecord:
        """See :meth:`storage.sqlite.SqliteStore.settle_hand`."""
        seats, moves = check_settlement(players, deltas, number)
        require_key(key)
        hand_data = _copy(hand, "hand")
        result_data = _copy(result, "result")
        done = self._replay(key, SETTLE_OPERATION)
        if done is not None:
            return self._hands[int(done["hand_id"])]
        t = self._table(table_id, must_be_open=True)
        for pid, delta in moves.items():
            stack = self._stacks.get((table_id, pid))
            if stack is None:
                raise StorageError(f"player {pid} has no stack at table {table_id}")
            if stack + delta < 0:
                raise InsufficientFunds(
                    f"player {pid} has a stack of {stack} kush, cannot lose {-delta}"
                )
        for pid in seats.values():
            if pid not in self._players or self._players[pid].community_id != t.community_id:
                raise StorageError(f"a seated player is not in community {t.community_id}")
        if (table_id, number) in self._hand_numbers:
            raise StorageError(
                "constraint failed: UNIQUE constraint failed: hands.table_id, hands.number"
            )
        self._check_ledger_keys(*(hand_row_key(key, pid) for pid in moves))
        now = time.time()
        hand_id = len(self._hands) + 1
        self._hands[hand_id] = HandRecord(
            hand_id, table_id, number, hand_data, result_data, dict(seats), now
        )
        self._hand_numbers.add((table_id, number))
        for pid in seats.values():
            self._hands_of.setdefault(pid, []).append(hand_id)
        for row in stat_rows(hand_data, result_data, seats, moves):
            self._stats.append((hand_id, t.community_id, now, row))
        for pid, delta in moves.items():
            self._stacks[(table_id, pid)] += delta
            self._append(
                t.community_id,
                LedgerKind.HAND_RESULT,
                pid,
                table_id,
                0,
                delta,
                hand_row_key(key, pid),
                now,
                hand_id=hand_id,
            )
        self._operations[key] = _Operation(SETTLE_OPERATION, {"hand_id": hand_id})
        # like SqliteStore: the first call's record holds the mappings passed in
        return HandRecord(hand_id, table_id, number, hand, result, dict(seats), now)

    # -- tables -------------------------------------------------------------------------------
    async def create_table(
        self, community_id: int, chat_id: str, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        """See :meth:`storage.sqlite.SqliteStore.create_table`."""
        require_int(min_buy_in, "minimum buy-in", minimum=0)
        data = _copy(options, "options")
        if community_id not in self._communities:
            raise StorageError(f"no community {community_id}")
        if self._fence is not None:
            key = lease_key(self._communities[community_id].platform, chat_id)
            if self._live(self._leases.get(key)) != self._fence:
                raise LeaseLost(f"worker {self._fence} does not hold {key}")
        if await self.open_table(community_id, chat_id) is not None:
            raise StorageError(f"chat {chat_id!r} already has an open table")
        tid = len(self._tables) + 1
        t = TableRecord(tid, community_id, chat_id, data, min_buy_in, True)
        self._tables[tid] = t
        return t

    async def open_table(self, community_id: int, chat_id: str) -> TableRecord | None:
        """See :meth:`storage.sqlite.SqliteStore.open_table`."""
        for t in self._tables.values():
            if t.open and t.community_id == community_id and t.chat_id == chat_id:
                return t
        return None

    async def open_tables(self, community_id: int) -> Sequence[TableRecord]:
        """See :meth:`storage.sqlite.SqliteStore.open_tables`."""
        return [
            t for _, t in sorted(self._tables.items()) if t.open and t.community_id == community_id
        ]

    async def get_table(self, table_id: int) -> TableRecord | None:
        """See :meth:`storage.sqlite.SqliteStore.get_table`."""
        return self._tables.get(table_id)

    async def update_table(
        self, table_id: int, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        """See :meth:`storage.sqlite.SqliteStore.update_table`."""
        require_int(min_buy_in, "minimum buy-in", minimum=0)
        data = _copy(options, "options")
        t = self._table(table_id, must_be_open=False)
        t = replace(t, options=data, min_buy_in=min_buy_in)
        self._tables[table_id] = t
        return t

    async def close_table(self, table_id: int) -> None:
        """See :meth:`storage.sqlite.SqliteStore.close_table`."""
        t = self._table(table_id, must_be_open=False)
        if not t.open:
            return
        left = sum(s for (tid, _), s in self._stacks.items() if tid == table_id)
        if left:
            raise StorageError(f"table {table_id} still holds {left} kush in stacks")
        for seat in [k for k in self._stacks if k[0] == table_id]:
            del self._stacks[seat]
        self._snapshots.pop(table_id, None)
        self._tables[table_id] = replace(t, open=False)

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        """See :meth:`storage.sqlite.SqliteStore.commit`: all or nothing (the state is copied
        first and put back if any move fails)."""
        require_key(key)
        self._check_fence(table_id)
        done = self._replay(key, TRANSITION_OPERATION)
        if done is not None:
            return [int(x) for x in done["results"]]
        text = None if snapshot is None else dump_json(snapshot, "snapshot")
        stored = self._snapshots.get(table_id)
        check_newer(
            table_id, commit_seq(snapshot, close), None if stored is None else load_json(stored)
        )
        saved = self._state()
        try:
            results: list[int] = []
            for i, move in enumerate(moves):
                sub = f"{key}/{i}"
                if isinstance(move, BuyIn):
                    stack = await self.buy_in(table_id, move.player_id, move.amount, key=sub)
                    results.append(stack)
                elif isinstance(move, CashOut):
                    results.append(
                        await self.cash_out(table_id, move.player_id, key=sub, kind=move.kind)
                    )
                elif isinstance(move, Grant):
                    community_id = self._table(table_id, must_be_open=True).community_id
                    balance = await self.grant(
                        community_id,
                        move.player_id,
                        move.amount,
                        actor=move.actor,
                        reason=move.reason,
                        key=sub,
                    )
                    results.append(balance)
                elif isinstance(move, HouseGrant):
                    require_int(move.need, "house grant's need", minimum=1)
                    require_int(move.target, "house grant's target", minimum=0)
                    community_id = self._table(table_id, must_be_open=True).community_id
                    have = self._player_in(move.player_id, community_id).balance
                    amount = max(move.need, move.target) - have if have < move.need else 0
                    if amount:
                        await self.grant(
                            community_id,
                            move.player_id,
                            amount,
                            actor=move.actor,
                            reason=move.reason,
                            key=sub,
                        )
                    results.append(amount)
                elif isinstance(move, Joined):
                    self._table(table_id, must_be_open=True)
                    results.append(self._last_tables.get((move.platform, move.user_id), 0))
                    self._last_tables[(move.platform, move.user_id)] = table_id
                else:
                    record = await self.settle_hand(
                        table_id,
                        move.number,
                        move.hand,
                        move.result,
                        move.players,
                        move.deltas,
                        key=sub,
                    )
                    results.append(record.id)
            if close:
                closing = self._table(table_id, must_be_open=False).open
                await self.close_table(table_id)
                if closing and text is not None:  # its final snapshot (what it owes the chat)
                    self._snapshots[table_id] = text
            elif text is not None:
                self._table(table_id, must_be_open=True)
                self._snapshots[table_id] = text
        except BaseException:
            self._restore_state(saved)
            raise
        self._operations[key] = _Operation(TRANSITION_OPERATION, {"results": results})
        return results

    def _state(self) -> tuple[Any, ...]:
        """Shallow copies of everything a transition may change (values are immutable)."""
        return (
            dict(self._players),
            dict(self._tables),
            dict(self._stacks),
            list(self._ledger),
            set(self._ledger_keys),
            dict(self._operations),
            dict(self._hands),
            set(self._hand_numbers),
            {k: list(v) for k, v in self._hands_of.items()},
            dict(self._snapshots),
            list(self._stats),
            dict(self._last_tables),
        )

    def _restore_state(self, saved: tuple[Any, ...]) -> None:
        (
            self._players,
            self._tables,
            self._stacks,
            self._ledger,
            self._ledger_keys,
            self._operations,
            self._hands,
            self._hand_numbers,
            self._hands_of,
            self._snapshots,
            self._stats,
            self._last_tables,
        ) = saved

    async def save_snapshot(self, table_id: int, data: Mapping[str, Any]) -> None:
        """See :meth:`storage.sqlite.SqliteStore.save_snapshot`."""
        text = dump_json(data, "snapshot")
        self._table(table_id, must_be_open=True)
        self._check_fence(table_id)
        stored = self._snapshots.get(table_id)
        if stored is not None and snapshot_seq(load_json(stored)) > snapshot_seq(data):
            return  # a newer step's snapshot is stored already (committed by it)
        self._snapshots[table_id] = text

    async def save_owed(self, table_id: int, data: Mapping[str, Any]) -> None:
        """See :meth:`storage.sqlite.SqliteStore.save_owed`."""
        text = dump_json(data, "snapshot")
        if self._table(table_id, must_be_open=False).open:
            raise StorageError(f"table {table_id} is open")
        self._check_fence(table_id)
        self._snapshots[table_id] = text

    async def delete_snapshot(self, table_id: int) -> None:
        """See :meth:`storage.sqlite.SqliteStore.delete_snapshot`."""
        if table_id in self._tables:
            self._check_fence(table_id)
        self._snapshots.pop(table_id, None)

    # -- workers sharing the tables (issue 14) ---------------------------------------------
    def _live(self, entry: tuple[str, float] | None) -> str | None:
        return entry[0] if entry is not None and entry[1] > self.clock() else None

    def _check_fence(self, table_id: int) -> None:
        if self._fence is None:
            return
        t = self._table(table_id, must_be_open=False)
        c = self._communities[t.community_id]
        key = lease_key(c.platform, t.chat_id)
        if self._live(self._leases.get(key)) != self._fence:
            raise LeaseLost(f"table {table_id}: worker {self._fence} does not hold {key}")

    def fence(self, worker: str | None) -> None:
        """See :meth:`storage.api.Store.fence`."""
        self._fence = worker

    async def acquire_lease(self, key: str, worker: str, ttl: float) -> bool:
        """See :meth:`storage.api.Store.acquire_lease`."""
        owner = self._live(self._leases.get(key))
        if owner is not None and owner != worker:
            return False
        self._leases[key] = (worker, self.clock() + ttl)
        return True

    async def renew_leases(self, worker: str, keys: Sequence[str], ttl: float) -> list[str]:
        """See :meth:`storage.api.Store.renew_leases`."""
        held = [k for k in dict.fromkeys(keys) if self._live(self._leases.get(k)) == worker]
        for k in held:
            self._leases[k] = (worker, self.clock() + ttl)
        return held

    async def release_lease(self, key: str, worker: str) -> None:
        """See :meth:`storage.api.Store.release_lease`."""
        if self._live(self._leases.get(key)) == worker:
            del self._leases[key]

    async def lease_owner(self, key: str) -> str | None:
        """See :meth:`storage.api.Store.lease_owner`."""
        return self._live(self._leases.get(key))

    async def lease_lapsed(self, key: str) -> float | None:
        """See :meth:`storage.api.Store.lease_lapsed`."""
        entry = self._leases.get(key)
        return None if entry is None else self.clock() - entry[1]

    async def lapsed_leases(self, prefix: str) -> dict[str, str]:
        """See :meth:`storage.api.Store.lapsed_leases`."""
        now = self.clock()
        return {
            key: worker
            for key, (worker, expires) in sorted(self._leases.items())
            if key.startswith(prefix) and expires <= now
        }

    async def leases(self, prefix: str) -> dict[str, str]:
        """See :meth:`storage.api.Store.leases`."""
        found = {}
        for key, entry in sorted(self._leases.items()):
            owner = self._live(entry)
            if key.startswith(prefix) and owner is not None:
                found[key] = owner
        return found

    async def prune_leases(self, kept: float) -> int:
        """See :meth:`storage.api.Store.prune_leases`."""
        if kept < 0:
            raise ValueError(f"kept must not be negative: {kept}")
        before = self.clock() - kept
        open_chats = {
            lease_key(self._communities[t.community_id].platform, t.chat_id)
            for t in self._tables.values()
            if t.open
        }
        gone = [k for k, (_, until) in self._leases.items() if until < before]
        gone = [k for k in gone if k not in open_chats]
        for key in gone:
            del self._leases[key]
        return len(gone)

    async def mark_alive(self, at: float) -> None:
        """See :meth:`storage.api.Store.mark_alive`."""
        self._alive = at

    async def last_alive(self) -> float | None:
        """See :meth:`storage.api.Store.last_alive`."""
        return self._alive

    async def remember_username(self, platform: str, username: str, user_id: str) -> None:
        """See :meth:`storage.api.Store.remember_username`."""
        key = username_key(username)
        for k in [k for k, v in self._usernames.items() if k[0] == platform and v == user_id]:
            del self._usernames[k]
        self._usernames[(platform, key)] = user_id

    async def user_of_username(self, platform: str, username: str) -> str | None:
        """See :meth:`storage.api.Store.user_of_username`."""
        return self._usernames.get((platform, name_key(username)))

    async def heartbeat(self, worker: str, address: str, ttl: float) -> None:
        """See :meth:`storage.api.Store.heartbeat`."""
        self._workers[worker] = (address, self.clock() + ttl)

    async def live_workers(self) -> dict[str, str]:
        """See :meth:`storage.api.Store.live_workers`."""
        now = self.clock()
        return {w: a for w, (a, until) in sorted(self._workers.items()) if until > now}

    async def unleased_tables(self) -> list[tuple[int, str]]:
        """See :meth:`storage.api.Store.unleased_tables`."""
        found = []
        for tid, t in sorted(self._tables.items()):
            key = lease_key(self._communities[t.community_id].platform, t.chat_id)
            if t.open and self._live(self._leases.get(key)) is None:
                found.append((tid, key))
        return found

    async def table_state(self, table_id: int) -> tuple[TableRecord, Mapping[str, Any]] | None:
        """See :meth:`storage.api.Store.table_state`."""
        t = self._tables.get(table_id)
        if t is None or not t.open:
            return None
        snap = self._snapshots.get(table_id)
        return t, (load_json(snap) if snap is not None else {})

    async def chat_table(self, platform: str, chat_id: str) -> int | None:
        """See :meth:`storage.api.Store.chat_table`."""
        for tid, t in sorted(self._tables.items()):
            platform_of = self._communities[t.community_id].platform
            if t.open and t.chat_id == chat_id and platform_of == platform:
                return tid
        return None

    async def seated_tables(self, platform: str, user_id: str) -> list[int]:
        """See :meth:`storage.api.Store.seated_tables`."""
        found = set()
        for (tid, pid), _ in self._stacks.items():
            p = self._players[pid]
            c = self._communities[p.community_id]
            if c.platform == platform and p.user_id == user_id and self._tables[tid].open:
                found.add(tid)
        return sorted(found)

    async def last_table(self, platform: str, user_id: str) -> int | None:
        """See :meth:`storage.api.Store.last_table`."""
        return self._last_tables.get((platform, user_id))

    async def snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        """See :meth:`storage.sqlite.SqliteStore.snapshots`."""
        return [
            (t, load_json(self._snapshots[tid]) if tid in self._snapshots else {})
            for tid, t in sorted(self._tables.items())
            if t.open
        ]

    async def closed_snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        """See :meth:`storage.sqlite.SqliteStore.closed_snapshots`."""
        return [
            (t, load_json(self._snapshots[tid]))
            for tid, t in sorted(self._tables.items())
            if not t.open and tid in self._snapshots
        ]

    # -- history ------------------------------------------------------------------------------
    async def hand_history(self, player_id: int, limit: int = 10) -> Sequence[HandRecord]:
        """See :meth:`storage.sqlite.SqliteStore.hand_history`."""
        if limit <= 0:
            return []
        ids = self._hands_of.get(player_id, [])
        return [self._hands[h] for h in reversed(ids[-limit:])]

    async def export_hands(self, table_id: int) -> list[dict[str, Any]]:
        """See :meth:`storage.sqlite.SqliteStore.export_hands`."""
        return [
            _copy(hand_export(h), "hand")
            for _, h in sorted(self._hands.items())
            if h.table_id == table_id
        ]

    async def ledger(self, community_id: int) -> Sequence[LedgerEntry]:
        """See :meth:`storage.sqlite.SqliteStore.ledger`."""
        return [e for e in self._ledger if e.community_id == community_id]

    # -- statistics ---------------------------------------------------------------------------
    async def get_hand(self, hand_id: int) -> HandRecord | None:
        """See :meth:`storage.sqlite.SqliteStore.get_hand`."""
        h = self._hands.get(hand_id)
        return None if h is None else replace(h, hand=_copy(h.hand, "hand"))

    async def get_community(self, community_id: int) -> Community | None:
        """See :meth:`storage.sqlite.SqliteStore.get_community`."""
        return self._communities.get(community_id)

    def _stat_rows(self, since: float | None, **match: int) -> list[tuple[int, int, StatRow]]:
        ((key, value),) = match.items()
        return [
            (hid, row.player_id, row)
            for hid, cid, at, row in self._stats
            if (since is None or at >= since)
            and (cid if key == "community_id" else row.player_id) == value
        ]

    async def player_stats(self, player_id: int, since: float | None = None) -> HandStats:
        """See :meth:`storage.sqlite.SqliteStore.player_stats`."""
        return sum_stats(self._stat_rows(since, player_id=player_id))

    async def community_stats(
        self, community_id: int, since: float | None = None, skip_prefix: str = ""
    ) -> HandStats:
        """See :meth:`storage.sqlite.SqliteStore.community_stats`."""
        rows = self._stat_rows(since, community_id=community_id)
        if skip_prefix:
            rows = [r for r in rows if not self._players[r[1]].user_id.startswith(skip_prefix)]
        return sum_stats(rows)

    async def kush_leaderboard(
        self, community_id: int, since: float | None = None, limit: int = 10
    ) -> Sequence[tuple[Player, int, int]]:
        """See :meth:`storage.sqlite.SqliteStore.kush_leaderboard`."""
        if limit <= 0:
            return []
        won: dict[int, list[int]] = {}
        for _, pid, row in self._stat_rows(since, community_id=community_id):
            entry = won.setdefault(pid, [0, 0])
            entry[0] += row.kush
            entry[1] += row.kind in HAND_KINDS
        ranked = sorted(won.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
        return [(self._players[pid], k, n) for pid, (k, n) in ranked]

    async def kush_series(
        self, player_id: int, since: float | None = None, points: int = 200
    ) -> list[tuple[float, int]]:
        """See :meth:`storage.sqlite.SqliteStore.kush_series` (the same thinning,
        :func:`storage._common.series_keeps`)."""
        q = series_points(points) - 1
        rows = sorted(
            (at, hid, row.kush)
            for hid, _, at, row in self._stats
            if row.player_id == player_id and (since is None or at >= since)
        )
        out: list[tuple[float, int]] = []
        total = 0
        n = len(rows) - 1
        for m, (at, _, kush) in enumerate(rows):
            total += kush
            if series_keeps(m, n, q):
                out.append((at, total))
        return out

    async def audit_data(self) -> AuditData:
        """Everything :func:`storage.check.audit` needs."""
        return AuditData(
            {c.id: f"{c.platform}:{c.external_id}" for c in self._communities.values()},
            {p.id: (p.community_id, p.balance) for p in self._players.values()},
            {t.id: (t.community_id, t.open) for t in self._tables.values()},
            dict(self._stacks),
            {h.id: h.table_id for h in self._hands.values()},
            list(self._ledger),
        )


if TYPE_CHECKING:

    def _conforms(store: MemoryStore) -> Store:
        """mypy checks here that :class:`MemoryStore` implements :class:`Store`."""
        return store
