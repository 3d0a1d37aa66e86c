"""Twenty-first break session: "no kush ever lost" under random walks across three tables that
share players (two channels of one Discord server, one balance each player, and a Telegram
group), on a SQLite file the bot restarts from (a clean stop, or a crash: the store dropped
without the service's stop).

After every step: the ledger check finds nothing (``storage check``: each balance and stack is
its ledger rows' sum, no row unbalanced, balances + stacks = kush minted, nothing negative, no
closed table holding kush); every live table's stacks are the stored ones, and every stored
stack belongs to a seat of its table (no buy-in lost in escrow); no hand is settled twice (a
player's ``hand_result`` rows per hand at most one); after a restart each table reads back
with the seats, stacks and hand number it had committed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.drawing import Drawer
from bot.model import Actor, ChatRef, LiveTable, Reply
from bot.screens import Payload
from bot.service import TableService
from bot.service.recovery import _state
from bot.service.settings import table_options
from bot.service.timers import _due
from storage.api import LedgerKind, Move, StorageError, TableRecord
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.fakes import FakePresenter

#: hand_seconds of 1–5 s among the values an admin may set (below the minimum, R8.5)
pytestmark = pytest.mark.usefixtures("short_hand_seconds")

SLOW = os.environ.get("OFC_SLOW") == "1"
SEEDS = range(200) if SLOW else range(6)
CHATS = [
    ChatRef("discord", "77", "701", "one"),
    ChatRef("discord", "77", "702", "two"),
    ChatRef("telegram", "-100", "-100", "Friends"),
]
NAMES = ("Alice", "Boris", "Carol", "Dan", "Eve")
SETTINGS = [
    ("kush_per_point", ("1", "10", "100", "0", "abc")),
    ("settle_per_round", ("on", "off")),
    ("min_buy_in", ("1", "50", "200", "900", "5000", "-3")),
    ("max_buy_in", ("0", "300", "100000")),
    ("hand_seconds", ("1", "120")),
    ("game", ("pineapple", "ofc", "chinese")),
    ("target_points", ("1", "51")),
    ("fantasyland", ("on", "off")),
    ("heads_up_double_boxes", ("on", "off")),
    ("dummy_box", ("on", "off")),
    ("progressive_fantasyland", ("on", "off")),
    ("tournament_buy_in", ("1", "100", "5000")),
    ("tournament_chips", ("10", "1000")),
    ("level_minutes", ("0.05", "5")),
    ("idle_close_seconds", ("5", "1800")),
    ("ready_seconds", ("5", "60")),
]
WEIGHTS = [
    ("join", 3), ("ready", 5), ("leave", 1), ("sitout", 1), ("back", 1.5), ("topup", 2),
    ("addbot", 1), ("removebot", 0.5), ("settings", 2), ("close", 0.5), ("grant", 0.7),
    ("daily", 0.5), ("member_left", 0.3), ("chat_left", 0.15), ("chat_back", 0.3),
    ("again", 1.5), ("member_gone", 0.2), ("community_left", 0.1), ("community_back", 0.2),
]  # fmt: skip
COMMANDS = [c for c, _ in WEIGHTS]
TOP_UPS = ["", "1", "50", "300", "100000", "0", "-20", "x"]
GRANTS = ["100", "-50", "-100000", "1", "abc"]


class Killed(BaseException):
    """The process "dies" at a commit: nothing after it runs."""


class FlakyStore(SqliteStore):
    """A SQLite store that refuses the next ``refuse`` commits (a disk error: nothing
    written), or dies at the next commit (``kill``: ``"before"`` or ``"after"`` writing it),
    after which it writes nothing more."""

    refuse = 0
    kill: str | None = None
    dead = False

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if self.dead:
            raise StorageError("the process is dead")
        if self.refuse:
            self.refuse -= 1
            raise StorageError("disk I/O error")
        if self.kill == "before":
            self.dead = True
            raise Killed
        result = await super().commit(table_id, moves, snapshot, key=key, close=close)
        if self.kill == "after":
            self.dead = True
            raise Killed
        return result

    async def save_snapshot(self, table_id: int, data: Mapping[str, Any]) -> None:
        if self.dead:
            raise StorageError("the process is dead")
        await super().save_snapshot(table_id, data)

    async def crash(self) -> None:
        """Close the file as a killed process leaves it: queued writes dropped."""
        self.dead = True
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(BaseException):
                await self._flusher
            self._flusher = None
        await self._connection.close()


def actor(platform: str, n: int) -> Actor:
    return Actor(platform, str(n + 1), NAMES[n], "en")


class Walk:
    """One walk: a SQLite file, the service on it (replaced at each restart) and a clock."""

    #: the share of steps that handle several updates at once
    burst = 0.1
    #: the share of steps whose commit storage refuses (half as many again die at one)
    faults = 0.03
    #: the service's own timers run besides the walk's clock ticks (races with commands)
    timers = False

    def __init__(self, seed: int, path: Path) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.path = path
        self.now = 1_000_000.0
        self.log: list[str] = []
        self.store: FlakyStore
        self.service: TableService
        self.presenters: dict[str, FakePresenter] = {}
        self.last: tuple[Callable[[TableService], Awaitable[Any]], str] | None = None

    async def open(self, salt: int = 0) -> None:
        store = await FlakyStore.open(self.path)
        assert isinstance(store, FlakyStore)
        self.store = store
        self.service = TableService(
            self.store, clock=lambda: self.now, rng=random.Random(self.seed * 1000 + salt),
            next_hand_delay=self.rng.choice([0.0, 4.0]), timers=self.timers, bot_pace=(1.0, 3.0),
        )  # fmt: skip
        self.presenters = {
            "telegram": FakePresenter(),
            "discord": FakePresenter(platform="discord", link=None),
        }
        for p in self.presenters.values():
            self.service.register(p)
        await self.service.start()

    async def no_pictures(self) -> None:
        """Showdown pictures off in both communities (drawn in a process: slow to start)."""
        for chat in (CHATS[0], CHATS[2]):
            reply = await self.service.settings(
                chat, actor(chat.platform, 0), True, ["pictures", "off"]
            )
            assert "pictures" in reply.text, reply.text

    async def restart(
        self, step: int, crash: bool, before: dict[str, tuple[Any, ...]] | None = None
    ) -> None:
        """A restart on the same file: a clean stop, or a crash (``before``: the tables as
        they were before the step the process died in, whose commit may or may not have been
        written)."""
        killed = before is not None
        due = any(_due(self.service.rt, t) for t in self.tables().values())
        if before is None:
            before = {cid: self.view(t) for cid, t in self.tables().items()}
        states = {cid: _state(t) for cid, t in self.tables().items()}
        if crash:  # the process dies: no stop, nothing saved beyond the commits
            for t in list(self.service.rt.tables.values()):
                if t.timer is not None:
                    t.timer.cancel()
            await self.service.rt.drawer.close()
            await self.service.rt.thinker.close()
            await self.store.crash()
        else:
            await self.service.stop()
            await self.store.close()
        await self.open(step)
        after = {cid: self.view(t) for cid, t in self.tables().items()}
        self.log.append(f"{'crash' if crash else 'restart'}: {before} -> {after}")
        if not crash and not due:  # (a step storage refused is made at the start)
            assert after == before, "a restart changed a table"
            now = {cid: _state(t) for cid, t in self.tables().items()}
            for cid in states:
                new = now[cid]
                diff = {k: (v, new.get(k)) for k, v in states[cid].items() if new.get(k) != v}
                assert not diff, f"table at {cid} restored otherwise: {diff}"
        elif not killed and not due:
            for cid, view in after.items():  # (a crash may lose what was never committed)
                assert cid in before, "a table came back from the dead"
                assert view[:2] == before[cid][:2], "a crash changed the money at a table"

    def tables(self) -> dict[str, LiveTable]:
        out = {}
        for chat in CHATS:
            t = self.service.table_in(chat)
            if t is not None:
                out[chat.chat_id] = t
        return out

    @staticmethod
    def view(t: LiveTable) -> tuple[Any, ...]:
        seats = sorted((s.player_id, s.stack) for s in t.seats.values())
        return (t.id, seats, t.hand_no, t.phase.value, t.hand is not None)

    def who(self, chat: ChatRef) -> Actor:
        return actor(chat.platform, self.rng.randrange(len(NAMES)))

    async def press(self) -> None:
        chat = self.rng.choice(CHATS)
        p = self.presenters[chat.platform]
        a = self.who(chat)
        if self.rng.random() < 0.3:  # a lobby button of the table message, maybe an old one
            screens = p.tables.get(chat.chat_id, [])[-3:]
            datas = [b.data for sc in screens for b in sc.all_buttons() if b.data]
            if not datas:
                return
            data: str | None = self.rng.choice(datas)

            async def admin() -> bool:
                return a.user_id == "1"

            reply = await self.service.press(a, data, chat, admin)
            self.log.append(f"{a.name}@{chat.chat_id} lobby {data}: {reply.text[:50]!r}")
            return
        t = self.service.table_in(chat)
        if t is None or t.hand is None or not t.hand.to_act:
            return
        seat = t.seats.get(t.owner(self.rng.choice(list(t.hand.to_act))))
        if seat is None or seat.bot:
            return
        a = Actor(chat.platform, seat.user_id, seat.name, "en")
        screens = p.privates.get(a.user_id, [])
        if not screens:
            return
        if self.rng.random() < 0.75:
            for action in ("a", "c"):
                screen = p.last_private(a.user_id)
                data = next(
                    (
                        b.data
                        for b in screen.all_buttons()
                        if b.data and (q := Payload.decode(b.data)) and q.action == action
                    ),
                    None,
                )
                if data is not None:
                    reply = await self.service.press(a, data)
                    self.log.append(f"{a.name} presses {action}: {reply.text[:50]!r}")
        else:
            datas = [b.data for sc in screens[-4:] for b in sc.all_buttons() if b.data]
            if datas:
                data = self.rng.choice(datas)
                reply = await self.service.press(a, data)
                self.log.append(f"{a.name} presses {data}: {reply.text[:50]!r}")

    async def command(self, step: int, refused: bool) -> None:
        s, rng = self.service, self.rng
        chat = rng.choice(CHATS)
        a = self.who(chat)
        t = s.table_in(chat)
        people = [x for x in t.seats.values() if not x.bot] if t is not None else []
        if people and rng.random() < 0.7:  # mostly someone seated there
            seat = rng.choice(people)
            a = Actor(chat.platform, seat.user_id, seat.name, "en")
        admin = rng.random() < 0.8
        cmd = rng.choices(COMMANDS, [w for _, w in WEIGHTS])[0]
        if cmd == "again":  # the last command delivered again (its platform key the same)
            if self.last is not None:
                call, said = self.last
                again = await call(s)
                self.log.append(f"{said}: {getattr(again, 'text', again)!r:.60}")
            return
        if s.table_in(chat) is None:
            cmd = "new"
        key = f"r{step}"
        amount, level = rng.choice(TOP_UPS), rng.choice(["easy", ""])
        name, values = rng.choice(SETTINGS)
        value, target, grant = rng.choice(values), rng.choice(NAMES), rng.choice(GRANTS)
        calls = {
            "new": lambda s: (
                s.new_table(chat, a, rng.choice(["pineapple", "ofc", "chinese", None]))
                if rng.random() < 0.85
                else s.new_tournament(chat, a, rng.choice(["pineapple", "ofc", "chinese"]))
            ),
            "join": lambda s: s.join(chat, a, request=key),
            "ready": lambda s: s.ready(chat, a, request=key),
            "leave": lambda s: s.leave(chat, a, request=key),
            "sitout": lambda s: s.sit_out(chat, a, request=key),
            "back": lambda s: s.back(chat, a, request=key),
            "topup": lambda s: s.top_up(chat, a, amount, request=key),
            "addbot": lambda s: s.add_bot(chat, a, admin, level, key),
            "removebot": lambda s: s.remove_bot(chat, a, admin),
            "settings": lambda s: s.settings(chat, a, admin, [name, value]),
            "close": lambda s: s.close_table(chat, a, admin, request=key),
            "grant": lambda s: s.grant(chat, a, admin, target, grant, key),
            "daily": lambda s: s.daily(chat, a),
            "member_left": lambda s: s.member_left(chat, a),
            "chat_left": lambda s: s.chat_left(chat.platform, chat.chat_id),
            "chat_back": lambda s: s.chat_back(chat.platform, chat.chat_id),
            "member_gone": lambda s: s.member_gone(chat.platform, chat.community_id, a.user_id),
            "community_left": lambda s: s.community_left(chat.platform, chat.community_id),
            "community_back": lambda s: s.community_back(chat.platform, chat.community_id),
        }
        call = calls[cmd]
        if cmd in ("join", "ready", "leave", "sitout", "back", "topup", "addbot", "close", "grant"):
            self.last = (call, f"{a.name}@{chat.chat_id} {cmd} again")
        reply = await call(s)
        if not isinstance(reply, Reply):
            self.log.append(f"{a.name}@{chat.chat_id} {cmd}: {reply!r}")
            return
        self.log.append(f"{a.name}@{chat.chat_id} {cmd}: {reply.text[:60]!r}")
        if not refused:
            assert "Could not save" not in reply.text, "storage refused a step"

    async def tick(self) -> None:
        dt = self.rng.choice([0.5, 3.0, 10.0, 30.0, 200.0])
        self.now += dt
        await self.service.run_due()
        self.log.append(f"clock +{dt:g}")

    async def check(self) -> None:
        assert await check_store(self.store) == []
        for t in self.tables().values():
            stored = {pid: n for pid, n in (await self.store.stacks(t.id)).items() if n}
            if t.tournament is not None:  # the registrants' buy-ins are the prize pool (R8.7)
                tour = t.tournament
                assert set(stored) <= set(tour.players), f"table {t.id}: {stored} {tour.players}"
                assert sum(stored.values()) == tour.pool, f"table {t.id}: {stored}, {tour.pool}"
                continue
            live = {s.player_id: s.stack for s in t.seats.values() if s.stack}
            assert live == stored, f"table {t.id}: stacks {live}, stored {stored}"
        data = await self.store.audit_data()
        rows = Counter(
            (e.hand_id, e.player_id) for e in data.ledger if e.kind is LedgerKind.HAND_RESULT
        )
        assert not [k for k, n in rows.items() if n > 1], "a hand settled twice"
        moved: dict[int, dict[int, int]] = {}
        for e in data.ledger:
            if e.kind is LedgerKind.HAND_RESULT and e.hand_id is not None and e.stack_delta:
                moved.setdefault(e.hand_id, {})[e.player_id] = e.stack_delta
        for tid in data.tables:
            numbers = []
            for h in await self.store.export_hands(tid):
                kush = h["result"].get("kush") or {}
                said = {h["players"][k]: v for k, v in kush.items() if v}
                assert said == moved.get(h["id"], {}), f"hand {h['id']}: shown {said}"
                numbers.append(h["number"])
        for t in self.tables().values():  # every table plays by the settings saved (R8.2)
            community = await self.store.get_community(t.community_id)
            if t.tournament is None and community is not None and not self.store.dead:
                want = table_options(community.settings, t.options.game)
                has = t.pending_options or t.options
                buy_in = t.pending_buy_in if t.pending_buy_in is not None else t.min_buy_in
                assert (has, buy_in) == (want, community.settings.min_buy_in), (
                    f"table {t.id} plays by other settings"
                )
        open_ids = {t.id for t in self.tables().values()}
        for (tid, _), n in data.stacks.items():
            if n and data.tables[tid][1]:
                assert tid in open_ids, f"open table {tid} is not served but holds kush"

    async def steps(self, count: int) -> None:
        for step in range(count):
            r = self.rng.random()
            fault = self.rng.random()
            if fault < self.faults:
                self.store.refuse = 1
            elif fault < self.faults * 1.5:
                self.store.kill = self.rng.choice(["before", "after"])
            before = {cid: self.view(t) for cid, t in self.tables().items()}
            try:
                if r < 0.4:
                    await self.press()
                elif r < 0.42:
                    await self.restart(step, crash=False)
                elif r < 0.44:
                    await self.restart(step, crash=True)
                elif r < 0.6:
                    await self.tick()
                elif r < 0.6 + self.burst:  # updates handled at once (Discord's are)
                    burst = [self.command(step * 10 + i, True) for i in range(3)]
                    burst.append(self.press())
                    await asyncio.gather(*burst)
                else:
                    await self.command(step, self.store.refuse > 0)
            except Killed:
                self.log.append(f"killed at a commit ({self.store.kill})")
                await self.restart(step, crash=True, before=before)
            if self.store.dead:  # (the kill was caught on the way: it died all the same)
                self.log.append(f"died at a commit ({self.store.kill})")
                await self.restart(step, crash=True, before=before)
            if fault < self.faults and not self.store.refuse:
                self.log.append("a commit refused")
            self.store.refuse = 0
            self.store.kill = None
            if self.timers:  # (a timer armed at 0 s fires)
                await asyncio.sleep(0.005)
            await self.check()


async def _walk(seed: int, path: Path, count: int = 300) -> None:
    walk = Walk(seed, path)
    await walk.open()
    await walk.no_pictures()
    try:
        await walk.steps(count)
        for _ in range(300):  # nobody acts any more: every table ends its hand and closes
            if not walk.tables():
                break
            walk.now += 100
            await walk.service.run_due()
            await walk.check()
        assert not walk.tables(), "a table never closed"
        await walk.check()
    except BaseException:
        print("\n".join(walk.log[-60:]))
        raise
    finally:
        await walk.service.stop()
        await walk.store.close()


class SlowCreate(MemoryStore):
    """A memory store whose ``create_table`` waits for ``go`` (storage busy a moment)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def create_table(
        self, community_id: int, chat_id: str, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        await self.go.wait()
        return await super().create_table(community_id, chat_id, options, min_buy_in)


async def test_r8_2_a_table_opened_while_an_admin_changes_the_stakes_takes_them() -> None:
    """Found by the walk below: on a Discord server (updates are handled at once, on
    Telegram too) a ``/newtable`` in one channel waits on storage while an admin sets
    ``min_buy_in`` 900 and ``kush_per_point`` 10 in another. The change goes to the tables
    served then; the new one had read the settings before and kept the old stakes (a 200
    buy-in, 1 kush a point) until a restart. It takes the saved ones as it opens."""
    store = SlowCreate()
    service = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    service.register(FakePresenter(platform="discord", link=None))
    one, two = CHATS[0], CHATS[1]
    alice, bob = actor("discord", 0), actor("discord", 1)
    try:
        await service.settings(one, alice, True, ["pictures", "off"])  # (the community made)
        opening = asyncio.create_task(service.new_table(two, alice, "pineapple"))
        await asyncio.sleep(0)
        for name, value, was in (("min_buy_in", "900", "200"), ("kush_per_point", "10", "1")):
            reply = await service.settings(one, alice, True, [name, value])
            assert reply.text.startswith(f"Saved: {name} = {value} (was {was})."), reply.text
        store.go.set()
        assert (await opening).text.startswith("Table #1 is open.")
        t = service.table_in(two)
        assert t is not None
        assert (t.min_buy_in, t.options.kush_per_point) == (900, 10)
        for a in (alice, bob):
            await service.join(two, a)
            await service.ready(two, a)
        assert {s.stack for s in t.seats.values()} == {900}
        assert dict(await store.stacks(t.id)) == {s.player_id: 900 for s in t.seats.values()}
        assert await check_store(store) == []
    finally:
        await service.stop()


async def test_r8_2_two_admins_changing_settings_at_once_both_keep_theirs(tmp_path: Path) -> None:
    """Two admins of a Discord server (updates are handled at once, on Telegram too) set
    ``min_buy_in`` 900 in one channel and ``kush_per_point`` 10 in another at the same
    moment, on a SQLite file. Each change wrote the whole settings as read before the other
    was saved: the later undid the earlier (the buy-in back to 200), both answered "Saved".
    Both stay, in storage and at the open table."""
    store = await SqliteStore.open(tmp_path / "ofc.sqlite3")
    service = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    service.register(FakePresenter(platform="discord", link=None))
    one, two = CHATS[0], CHATS[1]
    alice, bob = actor("discord", 0), actor("discord", 1)
    try:
        await service.settings(one, alice, True, ["pictures", "off"])
        assert not (await service.new_table(one, alice, "pineapple")).alert
        replies = await asyncio.gather(
            service.settings(one, alice, True, ["min_buy_in", "900"]),
            service.settings(two, bob, True, ["kush_per_point", "10"]),
        )
        assert [r.text.split("\n")[0] for r in replies] == [
            "Saved: min_buy_in = 900 (was 200).",
            "Saved: kush_per_point = 10 (was 1).",
        ]
        saved = (await store.community("discord", "77")).settings
        assert (saved.min_buy_in, saved.options.get("kush_per_point")) == (900, 10)
        t = service.table_in(one)
        assert t is not None and (t.min_buy_in, t.options.kush_per_point) == (900, 10)
    finally:
        await service.stop()
        await store.close()


async def test_r8_2_a_top_up_that_waited_for_the_table_keeps_a_maximum_lowered_meanwhile() -> None:
    """Alice's ``/topup 800`` waits for the table (another update holds it) while an admin
    sets ``max_buy_in`` 300. The top-up read the maximum before (1000: 5 × the 200 buy-in) and
    took her stack to 1000, past the maximum just saved. It reads the maximum when it runs:
    refused with the range that fits, nothing moved."""
    store = MemoryStore()
    service = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    service.register(FakePresenter())
    group, alice, bob = CHATS[2], actor("telegram", 0), actor("telegram", 1)
    try:
        await service.settings(group, alice, True, ["pictures", "off"])
        await service.new_table(group, alice, "pineapple")
        await service.join(group, alice)
        await service.ready(group, alice)
        t = service.table_in(group)
        assert t is not None and [s.stack for s in t.seats.values()] == [200]
        async with t.lock:  # (an update being handled at the table)
            topping = asyncio.create_task(service.top_up(group, alice, "800"))
            await asyncio.sleep(0)
            setting = asyncio.create_task(service.settings(group, bob, True, ["max_buy_in", "300"]))
            await asyncio.sleep(0)
        reply, saved = await topping, await setting
        assert saved.text.startswith("Saved: max_buy_in = 300 (was auto — 5 × buy-in = 1,000).")
        assert reply.alert
        assert (
            reply.text == "Top up from 1 to 100 kush (a stack holds at most 300). Usage: /topup N"
        )
        assert [s.stack for s in t.seats.values()] == [200]
        assert dict(await store.stacks(t.id)) == {t.seats[0].player_id: 200}
        assert await check_store(store) == []
    finally:
        await service.stop()


@pytest.mark.parametrize("seed", SEEDS)
async def test_r8_random_walks_over_three_tables_sharing_players_lose_no_kush(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (pictures are off: no drawing process started at each restart)
    monkeypatch.setattr(Drawer, "start_soon", lambda self: None)
    await _walk(seed, tmp_path / "ofc.sqlite3")
