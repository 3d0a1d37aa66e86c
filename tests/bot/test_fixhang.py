"""Decisions that hang in threads of the bot (thread mode, ``DECISIONS_IN_PROCESS=0``, and the
process mode's fallback threads) and the bot's stop: a thread cannot be ended, and the
threads decisions ran in were joined by the stop (the event loop's default pool, which
``asyncio.run`` shuts down waiting for its threads, and every ``ThreadPoolExecutor``'s threads,
which the interpreter joins at its exit): one hung decision held the bot's shutdown for good.

Also a crash in the middle of a closing step (issue 10): the showdown picture the platform took
before it is not posted again by the restart.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from bot import thinking
from bot.screens import Payload, Screen
from bot.service import TableService, play
from bot.texts import tr
from bot.thinking import Thinker
from bot.workers import ProcessWorker
from game.board import Box
from game.cards import Card
from game.policy import Level, SeatKnowledge, decide, knowledge
from storage.check import check_store
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_closing_restart import DiesAfterClosing, RefPresenter, nothing_sent, restart
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated
from tests.bot.test_transitions import KillableStore, Killed

Moves = list[tuple[Card, Box | None]]

ROOT = Path(__file__).resolve().parents[2]


def _stuck(k: SeatKnowledge, level: Level) -> Moves:
    """A decision that never comes (an endless loop on some position)."""
    threading.Event().wait()
    return []


async def _child(db: str, mode: str) -> None:
    """The bot of :func:`test_a_stop_while_decisions_hang_in_threads_ends_in_seconds`: Alice
    and Bob at a table on ``db``; a computer player's decision hung in a thread (made by the
    thinker as :func:`bot.service.bots.think_ahead` does), and Bob's "Arrange for me" hung,
    his press under way (holding the table) when the service stops. ``mode``: ``thread`` (the
    decisions in threads from the start) or ``process`` (the decision process dead: both made
    in its fallback threads). Prints one JSON line before the stop (the hand's state) and one
    after it (the press's answer, the stop's seconds)."""
    thinking.IN_PROCESS = mode == "process"
    thinking.PRESS_SECONDS = 60.0  # (the press still under way at the stop)
    play.ARRANGE_SECONDS = 0.1
    play.decide = _stuck

    async def dead(self: ProcessWorker, fn: Callable[..., Any], *args: Any) -> Any:
        raise BrokenProcessPool("killed")

    ProcessWorker.run = dead  # type: ignore[method-assign]
    store = await SqliteStore.open(db)
    service = TableService(store, clock=Clock(), rng=random.Random(5), timers=False)
    presenter = FakePresenter()
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    bob = t.seat_of(BOB.user_id)
    assert bob is not None
    while bob.seat not in hand.to_act:
        play.decide = decide  # (Alice's own street, as it comes)
        await press_auto_and_confirm(service, presenter, ALICE)
        play.decide = _stuck
    computer = asyncio.ensure_future(
        service.rt.thinker.decide(_stuck, knowledge(hand, bob.seat), Level.EASY)
    )
    service.rt.thinking[(t.id, bob.seat)] = (knowledge(hand, bob.seat), computer)
    screen = presenter.last_private(BOB.user_id)
    arrange = next(
        b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == "a"
    )
    press = asyncio.ensure_future(service.press(BOB, arrange))
    await asyncio.sleep(0.5)  # (both threads on their decisions)
    assert not press.done() and t.lock.locked()
    state = {"actions": len(hand.actions), "to_act": list(hand.to_act), "hand": t.hand_no}
    print(json.dumps(state), flush=True)
    print("stopping", flush=True)
    began = time.monotonic()
    await service.stop()
    stopped = time.monotonic() - began
    reply = await asyncio.wait_for(press, 10)
    await store.close()
    print(json.dumps({"stop": stopped, "reply": reply.text}), flush=True)


def child_main(db: str, mode: str) -> None:
    asyncio.run(_child(db, mode))
    print("returned", flush=True)


@pytest.mark.parametrize("mode", ["thread", "process"])
async def test_a_stop_while_decisions_hang_in_threads_ends_in_seconds(
    tmp_path: Path, mode: str
) -> None:
    """A computer player's decision and Bob's "Arrange for me" both hang in threads, his press
    under way (holding the table), and the bot stops: the service's stop saved the table, and
    then the bot's process never ended (``asyncio.run`` shut the default pool down waiting for
    the press's thread, and the interpreter's exit joined the computer player's). Now the bot's
    process ends within 5 s of the stop, the press is answered "too late" (nothing placed), and
    the restarted bot finds the hand as it was."""
    db = tmp_path / "ofc.sqlite3"
    code = "import sys; from tests.bot.test_fixhang import child_main; child_main(*sys.argv[1:])"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(db), mode],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        out = proc.stdout
        state = json.loads(await asyncio.wait_for(asyncio.to_thread(out.readline), 60))
        assert await asyncio.wait_for(asyncio.to_thread(out.readline), 10) == "stopping\n"
        began = time.monotonic()
        rc = await asyncio.wait_for(asyncio.to_thread(proc.wait), 15)
        ended = time.monotonic() - began
        lines = out.read().splitlines()
    except TimeoutError:
        pytest.fail("the bot's process did not end after its stop")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    assert rc == 0 and lines[-1] == "returned", lines
    after = json.loads(lines[0])
    assert after["reply"] == tr("ru", "err.arrange_late")  # (Bob's language)
    assert after["stop"] < 5.0 and ended < 5.0, (after, ended)
    store = await SqliteStore.open(db)
    again = TableService(store, clock=Clock(), rng=random.Random(5), timers=False)
    again.register(FakePresenter())
    try:
        await again.start()
        t = again.table_in(GROUP)
        assert t is not None and t.hand is not None
        assert t.hand_no == state["hand"] and list(t.hand.to_act) == state["to_act"]
        assert len(t.hand.actions) == state["actions"]
        bob = t.seat_of(BOB.user_id)
        assert bob is not None and not t.hand.pending(bob.seat)
    finally:
        await again.stop()
        await store.close()


async def test_hung_arrange_decisions_leave_other_tables_presses_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thread mode: presses' "Arrange for me" decisions that hang are given up after
    ``PRESS_SECONDS``, each thread still held (a thread cannot be ended). They ran in the
    event loop's default pool, ``min(32, cores + 4)`` threads: once that many had hung, every
    later Arrange at every table waited for a thread and was answered "too late". A thread
    given up is written off now: the next press gets a thread of its own at once."""
    monkeypatch.setattr(thinking, "PRESS_SECONDS", 0.3)
    release = threading.Event()

    def stuck(k: SeatKnowledge, level: Level) -> Moves:
        release.wait(60)
        return []

    def quick(k: SeatKnowledge, level: Level) -> Moves:
        return []

    thinker = Thinker(in_process=False)
    try:
        for _ in range(min(32, (os.cpu_count() or 1) + 4) + 2):
            with pytest.raises(TimeoutError):
                await thinker.decide(stuck, None, Level.STRONG, within=0.1)  # type: ignore[arg-type]
        began = time.monotonic()
        moves = await thinker.decide(quick, None, Level.STRONG, within=0.1)  # type: ignore[arg-type]
        assert moves == [] and time.monotonic() - began < 0.25  # (not TimeoutError)
    finally:
        release.set()
        await thinker.close()


class DiesAfterThePicture(RefPresenter):
    """The process dies right after the platform took the closing step's showdown picture: its
    next group write (the closing notice) never happens, and the store takes no more writes."""

    def __init__(self, store: KillableStore) -> None:
        super().__init__()
        self.store = store
        self.armed = False

    async def send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str | None = None, *, later: bool = False
    ) -> str | None:
        sent = await super().send_picture(chat_id, png, caption, ref, later=later)
        self.armed = self.closing
        return sent

    closing = False

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        if self.armed:
            self.store.dead = True
            raise Killed
        return await super().show_table(chat_id, screen, ref)


async def test_a_crash_after_the_closing_picture_was_posted_does_not_post_it_again() -> None:
    """An admin closes the table during a hand; its last Confirm settles the hand and closes
    the table (one commit owing the group the showdown, its picture and the closing notice).
    The platform takes the picture and the process dies before the closing notice. The
    restarted bot sent the whole closing step again from the final snapshot: the group saw the
    picture twice. The picture confirmed is recorded (the final snapshot saved again without
    it) before the notice is sent: the restart writes the showdown over the table message
    (the same edit) and the closing notice, and posts no picture. The ledger checks."""
    store, clock = KillableStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=60, timers=False
    )
    presenter = DiesAfterThePicture(store)
    service.register(presenter)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    table_id = t.id
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "reply.closes_after_hand_fl", table=table_id)
    presenter.closing = True
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    await service.rt.settled(t)
    assert store.dead and len(presenter.pictures) == 1  # the picture posted, then the crash
    notice = tr("en", "reply.table_closed", table=table_id).removesuffix(".")
    assert not any(s.text.startswith(notice) for s in presenter.tables[GROUP.chat_id])
    await service.rt.drawer.close()

    store.dead = False
    p2 = await restart(store, clock)
    texts = [s.text for s in p2.tables[GROUP.chat_id]]
    assert len(texts) == 2 and "Showdown" in texts[0] and texts[1].startswith(notice), texts
    assert p2.pictures == []  # (posted before the crash: not again)
    p3 = await restart(store, clock)
    assert nothing_sent(p3)
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


async def test_hung_computer_decisions_given_up_leave_the_next_one_a_thread() -> None:
    """Thread mode: computer players think in ``BOT_THREADS`` threads of their own. Each
    decision that hung, given up by its move after ``DECISION_SECONDS`` (here its caller's
    ``wait_for``), held one of them for good: once all were held, every later computer
    player's decision, at every table, queued behind them and was given up too (its street
    made by the timeout rule, R8.5). A thread given up is written off now, another taking its
    place."""
    release = threading.Event()

    def stuck(k: SeatKnowledge, level: Level) -> Moves:
        release.wait(60)
        return []

    def quick(k: SeatKnowledge, level: Level) -> Moves:
        return []

    thinker = Thinker(in_process=False)
    try:
        for _ in range(thinking.BOT_THREADS + 1):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(thinker.decide(stuck, None, Level.EASY), 0.1)  # type: ignore[arg-type]
        moves = await asyncio.wait_for(thinker.decide(quick, None, Level.EASY), 1.0)  # type: ignore[arg-type]
        assert moves == []
    finally:
        release.set()
        await thinker.close()


async def test_a_restart_that_posts_a_closed_table_s_picture_and_dies_does_not_post_it_again() -> (
    None
):
    """The process dies right after the closing commit (nothing sent); the restarted bot
    sends what the closed table owes, from its final snapshot, and dies too once the platform
    took the picture, before the closing notice. The third start sends the showdown and the
    notice again, not the picture."""
    store, clock = DiesAfterClosing(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=60, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    table_id = t.id
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    await service.close_table(GROUP, ALICE, True)
    with pytest.raises(Killed):
        while t.hand is not None:
            await press_auto_and_confirm(
                service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id]
            )
    await service.rt.drawer.close()
    assert presenter.pictures == []

    store.dead, store.kill_on_close = False, False
    second = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    dying = DiesAfterThePicture(store)
    dying.closing = True
    second.register(dying)
    await second.start()
    await second.rt.drawer.close()
    assert store.dead and len(dying.pictures) == 1

    store.dead = False
    p3 = await restart(store, clock)
    notice = tr("en", "reply.table_closed", table=table_id).removesuffix(".")
    texts = [s.text for s in p3.tables[GROUP.chat_id]]
    assert len(texts) == 2 and "Showdown" in texts[0] and texts[1].startswith(notice), texts
    assert p3.pictures == []
    assert nothing_sent(await restart(store, clock))
    assert await check_store(store) == []
