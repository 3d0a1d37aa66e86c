"""Load and failure benchmark of several workers sharing the tables (issue 14).
Run: ``python bench/bench_cluster.py`` (about 3–5 minutes; ``--help`` for the knobs).

On 127.0.0.1 only: a PostgreSQL server (pgserver), ``--workers`` worker processes (the real
composition root, ``tests/bot/cluster/worker_child.py``), the router process
(``python -m bot --router``: Telegram's webhook with its secret token in, updates forwarded to
the worker holding each chat), and in this process the fake Bot API (which delivers every
update to the router's webhook, as Telegram does) and the players.

Load: ``--tables`` levels, each run for ``--seconds``: every table has two players who play
whole Pineapple hands at human pace, one press every ``--pace`` seconds on average (uniform
0.5×–1.5×): one press per card placed (the box chosen from the board in the message), then
Confirm. A press's latency runs from the update leaving the fake (webhook delivery) until the
bot's answerCallbackQuery arrives at the fake. Goal: p99 ≤ 50 ms. Reported per level: presses
per second, p50/p95/p99/max, presses unanswered within 10 s, and the CPU seconds each process
used (the machine has few cores, shared by every process here).

Failure (at the last level; ``--no-kill`` skips it): one worker is killed with SIGKILL in
the middle of hands; the players go on. Reported: how long until every table of the killed
worker was held by a live worker, the latency of presses in the 10 s after the kill, and,
after the players stop: every table of the dead worker held by a live one and moved on from
its last committed transition (its snapshot's sequence number grew), the ledger check
(``storage.check``: no kush drift), and no hand settled twice (one ``hand_result`` row per
player and hand, one hand per number and table).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import _repo  # noqa: F401  (puts the repository on sys.path)
from _machine import describe

from bot.screens import Payload
from bot.telegram.fake_api import BOT_ID, FakeTelegram, FakeUser
from storage.api import LedgerKind, lease_key
from storage.check import check_store
from storage.postgres import PostgresStore
from tests.bot.cluster.harness import CHILD, REPO, free_port

TOKEN = "123456:" + "B" * 35
SECRET = "bench-secret"
CARD = re.compile(r"(10|[2-9TJQKA])([♠♥♦♣])")
CAPACITY = {"t": 3, "m": 5, "b": 5}


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(parent: int) -> list[int]:
    """The process and its children (Linux /proc): PostgreSQL's postmaster and backends."""
    found = [parent] if parent else []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if parent and int(stat[1]) == parent:
            found.append(int(entry.name))
    return found


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Bench:
    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.workdir = workdir
        self.fake = FakeTelegram(TOKEN, open_private=True)
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.store: PostgresStore | None = None
        self.pg_pid = 0
        self.sent: dict[str, float] = {}  # query id → when the update left the fake
        self.latency: list[tuple[float, float]] = []  # (when answered, seconds)
        self.players: list[tuple[int, FakeUser]] = []  # (group, user)
        self.tables: dict[int, int] = {}  # group → table id
        self.stop_players = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.presses = 0
        self.unanswered = 0
        self.refused = 0
        self.idle = 0  # a player's turn came round with nothing to press (not their move)
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._by_chat: dict[int, list[int]] = {}  # chat → its message ids, oldest first
        self._seen = 0

    # -- processes -----------------------------------------------------------------------------
    def _spawn(self, name: str, argv: list[str], env: Mapping[str, str]) -> None:
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 - kept for the process
        self.procs[name] = subprocess.Popen(
            argv, cwd=REPO, env=dict(env), stdin=subprocess.DEVNULL, stdout=log, stderr=log
        )

    async def start(self, url: str) -> None:
        await self.fake.start()

        def on_call(call: Any) -> None:
            if call.method == "answerCallbackQuery":
                qid = str(call.params.get("callback_query_id"))
                future = self.answers.setdefault(qid, asyncio.get_running_loop().create_future())
                if not future.done():
                    future.set_result(dict(call.params))
                sent = self.sent.pop(qid, None)
                if sent is not None:
                    now = time.monotonic()
                    self.latency.append((now, now - sent))
                    if call.params.get("show_alert"):
                        self.refused += 1

        self.fake.listeners.append(on_call)
        original = self.fake._deliver

        async def timed(update: dict[str, Any], hook: str, secret: str | None) -> None:
            query = update.get("callback_query")
            if query is not None:
                self.sent[str(query["id"])] = time.monotonic()
            await original(update, hook, secret)

        self.fake._deliver = timed  # type: ignore[method-assign]
        base = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
        base.update(
            PYTHONPATH=str(REPO),
            TELEGRAM_BOT_TOKEN=TOKEN,
            TELEGRAM_API_BASE_URL=self.fake.base_url,
            DATABASE_URL=url,
            LEASE_SECONDS=str(self.args.lease),
            LOG_LEVEL="WARNING",
            OFC_PARENT_PID=str(os.getpid()),
            OFC_NEXT_HAND_DELAY="2",
        )
        self.store = await PostgresStore.open(url)  # applies the migrations once
        for i in range(self.args.workers):
            port = free_port()
            env = dict(base, WORKER_ID=f"w{i + 1}", WORKER_LISTEN=f"127.0.0.1:{port}")
            self._spawn(f"w{i + 1}", [sys.executable, str(CHILD)], env)
        hook_port = free_port()
        router_env = dict(
            base,
            TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{hook_port}/hook",
            TELEGRAM_WEBHOOK_LISTEN=f"127.0.0.1:{hook_port}",
            TELEGRAM_WEBHOOK_SECRET=SECRET,
        )
        empty = self.workdir / "empty.env"  # (not the checkout's .env; a missing one is refused)
        empty.write_text("")
        self._spawn(
            "router",
            [sys.executable, "-m", "bot", "--router", "--env-file", str(empty)],
            router_env,
        )
        deadline = time.monotonic() + 60
        while len(await self.store.live_workers()) < self.args.workers or not self.fake.webhook:
            if time.monotonic() > deadline:
                raise SystemExit(
                    "the workers or the router did not start; see " + str(self.workdir)
                )
            await asyncio.sleep(0.1)

    async def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if self.store is not None:
            await self.store.close()
        await self.fake.stop()

    # -- players -------------------------------------------------------------------------------
    def _newest(self, chat_id: int, action: str) -> dict[str, Any] | None:
        """The newest bot message of a chat with a button of ``action`` (the fake's messages
        are indexed by chat as they come: the players must not slow the fake down)."""
        keys = self.fake.messages.keys()
        if len(keys) > self._seen:
            for chat, mid in itertools.islice(keys, self._seen, None):
                self._by_chat.setdefault(chat, []).append(mid)
            self._seen = len(keys)
        for mid in reversed(self._by_chat.get(chat_id, [])):
            m = self.fake.messages.get((chat_id, mid))
            if m is None or m["from"]["id"] != BOT_ID:
                continue
            for b in FakeTelegram.buttons(m):
                p = Payload.decode(b.get("callback_data"))
                if p is not None and p.action == action:
                    return m
        return None

    async def _answer(self, qid: str, timeout: float = 10.0) -> dict[str, Any] | None:
        future = self.answers.setdefault(qid, asyncio.get_running_loop().create_future())
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.unanswered += 1
            return None
        finally:
            self.answers.pop(qid, None)

    async def _press(self, user: FakeUser, chat: int, msg: dict[str, Any], data: str) -> bool:
        self.presses += 1
        qid = await self.fake.press(user, chat, int(msg["message_id"]), data)
        answer = await self._answer(qid)
        return answer is not None and not answer.get("show_alert")

    async def _say(self, user: FakeUser, chat: int, text: str) -> None:
        await self.fake.send_text(user, chat, text)

    async def seat(self, group: int, users: tuple[FakeUser, FakeUser]) -> None:
        """Open the table, join and get ready (retrying: the router may still be warming)."""
        for _ in range(3):
            await self._say(users[0], group, "/newtable")
            msg = None
            for _ in range(200):
                msg = self._newest(group, "j")
                if msg is not None:
                    break
                await asyncio.sleep(0.05)
            if msg is not None:
                break
        else:
            raise SystemExit(f"no table in {group}")
        for action in ("j", "r", "r", "r"):  # Ready again for whoever's press met an edit
            if any(self._newest(u.id, "c") for u in users):
                break  # the hand is dealt
            for user in users:
                msg = self._newest(group, action)
                if msg is None:
                    continue
                data = next(
                    b["callback_data"]
                    for b in FakeTelegram.buttons(msg)
                    if (p := Payload.decode(b.get("callback_data"))) and p.action == action
                )
                key = (group, int(msg["message_id"]))
                before = self.fake.messages[key].get("text")
                if await self._press(user, group, msg, data):  # wait for the table's edit
                    for _ in range(100):
                        if self.fake.messages[key].get("text") != before:
                            break
                        await asyncio.sleep(0.02)
        assert self.store is not None
        table = await self.store.chat_table("telegram", str(group))
        assert table is not None
        self.tables[group] = table

    def _next_press(self, msg: dict[str, Any]) -> str | None:
        """The next button of a hand message: place the first unplaced card in the lowest box
        with room (bottom, middle, top), or Confirm once enough cards are placed."""
        rows: dict[str, dict[str, tuple[str, str]]] = {}  # card → box code → (label, data)
        confirm = None
        discards = False
        for b in FakeTelegram.buttons(msg):
            p = Payload.decode(b.get("callback_data"))
            if p is None:
                continue
            if p.action == "p":
                rows.setdefault(p.arg[:-1], {})[p.arg[-1]] = (str(b["text"]), p.encode())
            elif p.action == "d":
                discards = True
                rows.setdefault(p.arg, {})["d"] = (str(b["text"]), p.encode())
            elif p.action == "c":
                confirm = p.encode()
        if not rows or confirm is None:
            return None
        placed = [c for c, r in rows.items() if any("• " in label for label, _ in r.values())]
        needed = len(rows) - (1 if discards else 0)
        if len(placed) >= needed:
            return confirm
        lines = [ln for ln in str(msg.get("text", "")).splitlines() if ln.startswith("  ")][:3]
        counts = dict(zip("tmb", (len(CARD.findall(ln)) for ln in lines), strict=False))
        card = next(c for c in rows if c not in placed)
        for box in "bmt":
            if counts.get(box, 0) < CAPACITY[box] and box in rows[card]:
                return rows[card][box][1]
        return confirm

    async def play(self, user: FakeUser) -> None:
        pace = self.args.pace
        await asyncio.sleep(random.uniform(0, pace))
        while not self.stop_players.is_set():
            await asyncio.sleep(random.uniform(0.5 * pace, 1.5 * pace))
            msg = self._newest(user.id, "c")
            data = None if msg is None else self._next_press(msg)
            if msg is None or data is None:
                self.idle += 1
                continue
            await self._press(user, user.id, msg, data)

    # -- runs ------------------------------------------------------------------------------------
    async def add_tables(self, n: int) -> None:
        sem = asyncio.Semaphore(20)
        start = len(self.tables)

        async def one(i: int) -> None:
            group = -(100_000 + i)
            users = (
                FakeUser(1_000_000 + 2 * i, f"P{2 * i}", None, "en"),
                FakeUser(1_000_001 + 2 * i, f"P{2 * i + 1}", None, "en"),
            )
            async with sem:
                await self.seat(group, users)
            self.players += [(group, u) for u in users]
            for u in users:
                self.tasks.append(asyncio.create_task(self.play(u)))

        await asyncio.gather(*(one(i) for i in range(start, n)))

    def cpu(self) -> dict[str, float]:
        out = {name: _cpu_seconds(p.pid) for name, p in self.procs.items()}
        out["postgres"] = sum(_cpu_seconds(pid) for pid in _children(self.pg_pid))
        out["bench+fake"] = time.process_time()
        return out

    async def level(self, n: int) -> dict[str, Any]:
        await self.add_tables(n)
        await asyncio.sleep(3)  # the new players settle in
        since = time.monotonic()
        cpu0, presses0, un0, ref0 = self.cpu(), self.presses, self.unanswered, self.refused
        await asyncio.sleep(self.args.seconds)
        took = time.monotonic() - since
        cpu1 = self.cpu()
        lat = [s * 1000 for at, s in self.latency if at >= since]
        return {
            "tables": n,
            "presses/s": len(lat) / took,
            "p50": _pct(lat, 0.50),
            "p95": _pct(lat, 0.95),
            "p99": _pct(lat, 0.99),
            "max": max(lat) if lat else float("nan"),
            "unanswered": self.unanswered - un0,
            "refused": self.refused - ref0,
            "sent": self.presses - presses0,
            "cpu": {k: (cpu1[k] - cpu0.get(k, 0.0)) / took for k in cpu1},
        }

    async def kill_one(self) -> dict[str, Any]:
        assert self.store is not None
        owners = {
            g: await self.store.lease_owner(lease_key("telegram", str(g))) for g in self.tables
        }
        counts: dict[str, int] = {}
        for o in owners.values():
            if o is not None:
                counts[o] = counts.get(o, 0) + 1
        victim = max(counts, key=lambda w: counts[w])
        mine = [g for g, o in owners.items() if o == victim]
        seq_before = {g: await self._seq(g) for g in mine}
        os.kill(self.procs[victim].pid, signal.SIGKILL)
        killed = time.monotonic()
        taken = None
        while time.monotonic() - killed < 60:
            now_owners = [await self.store.lease_owner(lease_key("telegram", str(g))) for g in mine]
            if all(o is not None and o != victim for o in now_owners):
                taken = time.monotonic() - killed
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(max(0.0, 10 - (time.monotonic() - killed)))
        lat = [s * 1000 for at, s in self.latency if at >= killed]
        return {
            "victim": victim,
            "victim_tables": len(mine),
            "taken_over_s": taken,
            "p50_after": _pct(lat, 0.5),
            "p99_after": _pct(lat, 0.99),
            "max_after": max(lat) if lat else float("nan"),
            "mine": mine,
            "seq_before": seq_before,
        }

    async def _seq(self, group: int) -> int:
        """The table's last committed transition number (its snapshot's ``seq``)."""
        assert self.store is not None
        state = await self.store.table_state(self.tables[group])
        return int(state[1].get("seq", 0)) if state is not None else -1

    async def verify(self, kill: dict[str, Any] | None) -> dict[str, Any]:
        assert self.store is not None
        self.stop_players.set()
        await asyncio.sleep(self.args.pace * 1.5 + 1)
        problems: list[str] = []
        settled = 0
        communities = set()
        for g, table in self.tables.items():
            hands = await self.store.export_hands(table)
            numbers = [h["number"] for h in hands]
            settled += len(hands)
            if len(numbers) != len(set(numbers)):
                problems.append(f"table {table}: hand numbers {numbers}")
            communities.add((await self.store.community("telegram", str(g))).id)
        for cid in communities:
            rows = [e for e in await self.store.ledger(cid) if e.kind is LedgerKind.HAND_RESULT]
            pairs = [(e.player_id, e.hand_id) for e in rows]
            if len(pairs) != len(set(pairs)):
                problems.append(f"community {cid}: a hand settled twice")
        audit = await check_store(self.store)
        check = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "storage", "check", "--db", self.store.url,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=REPO,
        )  # fmt: skip
        out_text, _ = await check.communicate()
        last = out_text.decode().strip().splitlines()[-1:]
        print(f"python -m storage check: exit {check.returncode}: {' '.join(last)}")
        out: dict[str, Any] = {"hands_settled": settled, "problems": problems, "audit": audit}
        if kill is not None:
            live = await self.store.live_workers()
            resumed = 0
            for g in kill["mine"]:
                owner = await self.store.lease_owner(lease_key("telegram", str(g)))
                moved_on = await self._seq(g) > kill["seq_before"][g]
                if owner in live and owner != kill["victim"] and moved_on:
                    resumed += 1
            out["victim_tables_resumed"] = resumed
        return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="25,50,100,200", help="levels of live tables")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds a level")
    parser.add_argument("--pace", type=float, default=3.0, help="mean seconds between presses")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--lease", type=float, default=3.0, help="LEASE_SECONDS of the workers")
    parser.add_argument("--no-kill", dest="kill", action="store_false")
    parser.add_argument(
        "--no-fsync", action="store_true",
        help="PostgreSQL without durability (fsync, synchronous_commit off): separates the "
        "disk's flush time from the rest",
    )  # fmt: skip
    args = parser.parse_args()
    print(f"machine: {describe()}")
    print(
        f"{args.workers} workers + router + PostgreSQL (pgserver) + fake Bot API and players in "
        f"this process; a press every {args.pace} s per player (two per table), "
        f"{args.seconds:.0f} s a level; lease {args.lease} s"
    )
    import pgserver

    workdir = Path(tempfile.mkdtemp(prefix="ofc-bench-cluster-"))
    os.environ.setdefault("XDG_RUNTIME_DIR", str(workdir))
    server = pgserver.get_server(str(workdir / "pg"), cleanup_mode="stop")
    bench = Bench(args, workdir)
    results = []
    try:
        if args.no_fsync:
            import asyncpg

            conn = await asyncpg.connect(str(server.get_uri()))
            for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                await conn.execute(f"ALTER SYSTEM SET {setting} = off")
            await conn.execute("SELECT pg_reload_conf()")
            await conn.close()
        print(f"PostgreSQL durability: {'off (--no-fsync)' if args.no_fsync else 'on (defaults)'}")
        with contextlib.suppress(OSError, ValueError):
            pid_file = workdir / "pg" / "postmaster.pid"
            bench.pg_pid = int(pid_file.read_text().splitlines()[0])
        await bench.start(str(server.get_uri()))
        levels = [int(x) for x in args.tables.split(",")]
        print(
            f"{'tables':>6} {'presses/s':>9} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
            f"{'max ms':>7} {'lost':>5}  CPU (cores busy per process)"
        )
        for n in levels:
            r = await bench.level(n)
            results.append(r)
            cpu = " ".join(f"{k}={v:.3f}" for k, v in r["cpu"].items())
            print(
                f"{r['tables']:>6} {r['presses/s']:>9.1f} {r['p50']:>7.1f} {r['p95']:>7.1f} "
                f"{r['p99']:>7.1f} {r['max']:>7.1f} {r['unanswered']:>5}  {cpu} "
                f"(sent {r['sent']}, refused {r['refused']}, idle {bench.idle})",
                flush=True,
            )
        kill = await bench.kill_one() if args.kill else None
        if kill is not None:
            print(
                f"SIGKILL {kill['victim']} serving {kill['victim_tables']} tables: all held by "
                f"live workers after {kill['taken_over_s']} s; presses in the 10 s after: p50 "
                f"{kill['p50_after']:.1f} ms, p99 {kill['p99_after']:.1f} ms, max "
                f"{kill['max_after']:.0f} ms"
            )
        check = await bench.verify(kill)
        print(
            f"hands settled: {check['hands_settled']}; ledger check: "
            f"{'clean' if not check['audit'] else check['audit'][:3]}; "
            f"settled twice: {check['problems'] or 'none'}"
        )
        if kill is not None:
            print(
                f"tables of the killed worker held by a live worker and moved on (committed "
                f"transitions) after the kill: {check['victim_tables_resumed']}/"
                f"{kill['victim_tables']}"
            )
        ok = [r for r in results if r["p99"] <= 50 and r["unanswered"] == 0]
        best = max((r["tables"] for r in ok), default=0)
        print(
            f"goal p99 <= 50 ms: met up to {best} live tables here "
            f"(the issue asks 2,000; measured on this machine, see the CPU column)"
        )
    finally:
        bench.stop_players.set()
        await bench.stop()
        with contextlib.suppress(Exception):
            server.cleanup()
        print(f"logs: {workdir}")


if __name__ == "__main__":
    asyncio.run(main())
