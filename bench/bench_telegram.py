"""Benchmark of the Telegram path (issue 4). Run: ``python bench/bench_telegram.py``.

200 tables of two players play at once in one process: the real python-telegram-bot
Application and the table service on a SQLite file, against the local fake Bot API running in
its own process (as Telegram's servers would be). A press is one update handed to
``Application.process_update``; its latency runs from the update in until the API calls it
causes are out: the arrival, at the fake server, of the callback answer and of the edit of the
presser's private message (time.monotonic is shared by both processes). A confirm's table edit
follows in the background, coalesced.

Load: every table's acting player presses at human pace, one press every ``PACE`` seconds
(default 2 s: 100 presses/s over 200 tables), each table through whole hands. Targets: p50 ≤
5 ms and p99 ≤ 25 ms. Also measured: memory per live table (tracemalloc, a hand in progress;
target ≤ 100 KB) and the closed-loop throughput (presses/s with no pauses).
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import aiohttp
from _machine import describe
from telegram import Update
from telegram.ext import AIORateLimiter

from bot import render
from bot.model import ChatRef, LiveTable
from bot.screens import Payload
from bot.service import TableService
from bot.telegram.adapter import TelegramAdapter
from storage.sqlite import SqliteStore

TABLES = int(os.environ.get("BENCH_TABLES", "200"))
PACE = float(os.environ.get("BENCH_PACE", "2.0"))
HANDS = int(os.environ.get("BENCH_HANDS", "1"))
TOKEN = "123456:BENCH"


def user_json(uid: int) -> dict[str, Any]:
    return {"id": uid, "is_bot": False, "first_name": f"U{uid}", "language_code": "en"}


class Driver:
    def __init__(self, adapter: TelegramAdapter, service: TableService) -> None:
        self.adapter = adapter
        self.service = service
        self.update_id = 0
        self.presses: list[tuple[float, str, int, int]] = []  # (in, query id, chat, message)

    async def feed(self, data: dict[str, Any]) -> None:
        self.update_id += 1
        update = Update.de_json(dict(data, update_id=self.update_id), self.adapter.app.bot)
        await self.adapter.app.process_update(update)

    async def command(self, uid: int, chat_id: int, text: str) -> None:
        msg = {
            "message_id": 1, "date": int(time.time()),
            "chat": {"id": chat_id, "type": "supergroup", "title": "g"},
            "from": user_json(uid), "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
        }  # fmt: skip
        await self.feed({"message": msg})
        await self.adapter.presenter.flush()

    async def press(self, uid: int, ref: str | None, data: str) -> None:
        message = {"message_id": int(ref or 1), "date": int(time.time()), "text": "",
                   "chat": {"id": uid, "type": "private", "first_name": "u"}}  # fmt: skip
        qid = f"q{self.update_id}"
        cq = {"id": qid, "from": user_json(uid), "chat_instance": "c", "message": message,
              "data": data}  # fmt: skip
        self.presses.append((time.monotonic(), qid, uid, int(ref or 0)))
        await self.feed({"callback_query": cq})

    def latencies_from(self, calls: list[dict[str, Any]]) -> list[float]:
        """Per press: the later of its answer's and its private edit's arrival, minus its in."""
        answers = {c["params"].get("callback_query_id"): c["at"] for c in calls
                   if c["method"] == "answerCallbackQuery"}  # fmt: skip
        edits: dict[tuple[int, int], list[float]] = {}
        for c in calls:
            if c["method"] == "editMessageText":
                key = (int(c["params"]["chat_id"]), int(c["params"]["message_id"]))
                edits.setdefault(key, []).append(c["at"])
        out = []
        self.split: list[tuple[float, float]] = []
        for t_in, qid, chat, msg in self.presses:
            done = answers.get(qid)
            if done is None:
                continue
            answered = done - t_in
            after = [a for a in edits.get((chat, msg), []) if a >= t_in]
            if after:
                done = max(done, min(after))
                self.split.append((answered, min(after) - t_in))
            out.append(done - t_in)
        return out

    async def play(self, t: LiveTable, hands: int, pace: float) -> None:
        target = t.hand_no + hands
        while t.hand is not None and t.hand_no < target:
            hand = t.hand
            seat_no = hand.to_act[0]
            seat = t.seats[seat_no]
            for want in render.move_presses(hand.suggest(seat_no, lookahead=0)):
                if pace:
                    await asyncio.sleep(random.uniform(0.5 * pace, 1.5 * pace))
                screen = render.private_screen(t, seat, time.time())  # the buttons the bot sent
                data = next(
                    b.data for b in screen.all_buttons()
                    if b.data and (p := Payload.decode(b.data)) and (p.action, p.arg) == want
                )  # fmt: skip
                await self.press(int(seat.user_id), seat.private_ref, data)


async def main() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "bot.telegram.fake_api", "0", TOKEN],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None
    port = int(server.stdout.readline())
    tmp = tempfile.mkdtemp()
    store = await SqliteStore.open(Path(tmp) / "bench.sqlite3")
    service = TableService(store, rng=random.Random(1), next_hand_delay=0)
    limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0)
    adapter = TelegramAdapter(service, TOKEN, f"http://127.0.0.1:{port}/bot", rate_limiter=limiter)
    await adapter.start(polling=False)
    await service.start()
    driver = Driver(adapter, service)
    tables: list[LiveTable] = []
    gc.collect()
    tracemalloc.start()
    mem_before = tracemalloc.get_traced_memory()[0]
    for i in range(TABLES):
        chat = -(100000 + i)
        a, b = 2 * i + 1, 2 * i + 2
        await driver.command(a, chat, "/newtable")
        for u in (a, b):
            await driver.command(u, chat, "/join")
        for u in (a, b):
            await driver.command(u, chat, "/ready")
        t = service.table_in(ChatRef("telegram", str(chat), str(chat)))
        assert t is not None and t.hand is not None
        tables.append(t)
    gc.collect()
    mem_after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    per_table = (mem_after - mem_before) / TABLES
    async with aiohttp.ClientSession() as http:

        async def calls() -> list[dict[str, Any]]:
            async with http.get(f"http://127.0.0.1:{port}/_calls") as r:
                data: list[dict[str, Any]] = await r.json()
                return data

        t0 = time.perf_counter()
        await asyncio.gather(*(driver.play(t, HANDS, PACE) for t in tables))
        wall = time.perf_counter() - t0
        await adapter.presenter.flush()
        lat = sorted(driver.latencies_from(await calls()))
        paced = (
            statistics.median(lat) * 1000,
            lat[int(len(lat) * 0.99) - 1] * 1000,
            len(lat),
            wall,
        )
        # closed loop: 20 tables pressing with no pauses, for throughput
        driver.presses = []
        t0 = time.perf_counter()
        await asyncio.gather(*(driver.play(t, 1, 0.0) for t in tables[:20]))
        await adapter.presenter.flush()
        loop_wall = time.perf_counter() - t0
        throughput = len(driver.presses) / loop_wall
    print(f"machine: {describe()}")
    print(
        f"tables: {TABLES} live, 2 players each, {HANDS} hand(s) each; a press every "
        f"{PACE:g} s per table on average ({TABLES / PACE:.0f} presses/s offered)"
    )
    p50, p99, n, wall = paced
    if os.environ.get("BENCH_SPLIT"):
        answer = statistics.median(a for a, _ in driver.split) * 1000
        edit = statistics.median(e for _, e in driver.split) * 1000
        print(f"answer p50 {answer:.2f} ms, private edit p50 {edit:.2f} ms")
    print(
        f"press handling, update in → its API calls out: p50 {p50:.2f} ms, p99 {p99:.2f} ms "
        f"over {n} presses in {wall:.0f} s (targets p50 ≤ 5 ms: "
        f"{'met' if p50 <= 5 else 'NOT met'}, p99 ≤ 25 ms: {'met' if p99 <= 25 else 'NOT met'})"
    )
    print(f"closed loop (20 tables, no pauses): {throughput:.0f} presses/s")
    print(
        f"memory per live table (tracemalloc, hand in progress): {per_table / 1024:.1f} KB "
        f"(target ≤ 100 KB: {'met' if per_table <= 100 * 1024 else 'NOT met'})"
    )
    await service.stop()
    await adapter.stop()
    await store.close()
    server.terminate()
    server.wait()


if __name__ == "__main__":
    asyncio.run(main())
