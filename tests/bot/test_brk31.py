"""Break session brk31: the session's own changes (a new message refused with a 429 posted in
the background, the stop keeping held notices), through the real python-telegram-bot against
the local fake."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path

import pytest

from bot.model import LiveTable
from bot.service import TableService
from bot.telegram.fake_api import FakeTelegram, too_many
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_closing_restart import RefPresenter, nothing_sent
from tests.bot.test_fixpost import private_to
from tests.bot.test_service import ALICE as S_ALICE
from tests.bot.test_service import BOB as S_BOB
from tests.bot.test_service import GROUP as S_GROUP
from tests.bot.test_service import dealt_at, leave_now, press_auto_and_confirm
from tests.bot.test_stop_keeps_notices import HeldAtTheStop
from tests.bot.test_telegram_chats import held_429s
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TOKEN, world


async def test_a_second_start_during_a_429_posts_the_hand_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mid-hand Bob types /start in his private chat: his hand is posted there anew and
    Telegram refuses that post with a 429 (12 s, held here): posted in the background once
    the pause is over. Bob, who sees no cards, types /start again meanwhile: the service
    sends his hand anew once more. Once the pause is over Bob's chat gets his hand once:
    the first /start's post, held, was made after all (the service held the second's), two
    hand messages with buttons, one the service did not know. The hand plays on to its
    end on the one posted; the ledger checks."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.seats[1].user_id == str(BOB.id)
        to_bob = private_to(BOB.id)
        reposts: list[int] = []  # (the seats whose hand the service posted anew, in order)
        repost = w.service._repost_private

        def spy(table: LiveTable, seat_no: int) -> None:
            repost(table, seat_no)
            reposts.append(seat_no)

        monkeypatch.setattr(w.service, "_repost_private", spy)
        w.fake.fail_when(lambda c: to_bob(c) and c.method == "sendMessage", *too_many(12))
        try:
            await w.fake.send_text(BOB, BOB.id, "/start")
            await w.fake.wait_for(lambda: pauses)  # (Bob's new hand message: 429)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(w.service.rt.settled(t), 1)
            start = len(w.fake.calls)
            await w.fake.send_text(BOB, BOB.id, "/start")
            # the second /start reaches the service (a fixed 0.5 s was not always enough on
            # two loaded cores): Bob's hand posted anew once more, the first post still held
            await w.fake.wait_for(lambda: reposts == [1, 1])
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(w.service.rt.settled(t), 1)
        finally:
            gate.set()
        await w.settle()
        linked = tr("ru", "reply.private_linked", table=t.id)
        await w.fake.wait_for(
            lambda: (
                len([c for c in w.fake.calls[start:] if to_bob(c) and c.params["text"] == linked])
                == 2
            ),
            timeout=5,
        )
        await w.settle()
        await w.adapter.presenter.flush()
        hands = [
            c
            for c in w.fake.calls[start:]
            if to_bob(c)
            and c.method == "sendMessage"
            and c.params["text"] != linked
            and c.result is not None
        ]
        assert len(hands) == 1, [c.params["text"][:40] for c in hands]
        posted = w.private(BOB)
        assert posted is not None and t.seats[1].private_ref == str(posted["message_id"])
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        assert await check_store(w.store) == []


async def test_r8_2a_a_notice_kept_at_the_stop_then_an_idle_close_after_the_restart() -> None:
    """R8.2, R8.2a: Bob leaves mid-hand; the hand's end owes the group "Bob left the table;
    … back to their balance", which the platform holds until the bot stops (kept, owed by
    the open table's snapshot). The next start sends the kept notice once; no hand is dealt
    after it and the idle close closes the table (Alice's stack back), its notice over the
    table message; a third start sends nothing. The ledger checks."""
    store, clock = MemoryStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    presenter = HeldAtTheStop()
    service.register(presenter)
    t = await dealt_at(service, S_GROUP, (S_ALICE, S_BOB))
    assert not (await leave_now(service, S_GROUP, S_BOB)).alert
    by_id = {a.user_id: a for a in (S_ALICE, S_BOB)}
    for _ in range(200):
        if t.hand is None:
            break
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.hand is None and t.seat_of(S_BOB.user_id) is None
    await service.rt.settled(t)
    held = [text for text in presenter.held if text.startswith("👋 Bob")]
    assert len(held) == 1
    await service.stop()
    await service.rt.drawer.close()

    clock.now += t.options.idle_close_seconds + 3600
    service2 = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    p2 = RefPresenter()
    service2.register(p2)
    await service2.start()
    t2 = service2.table_in(S_GROUP)
    assert t2 is not None
    await service2.rt.settled(t2)
    clock.now += t.options.idle_close_seconds + 1  # (the time stopped does not count)
    await service2.run_due()
    await service2.rt.settled(t2)
    await service2.stop()
    await service2.rt.drawer.close()
    assert [text for _, text in p2.posts if text.startswith("👋 Bob")] == held
    assert service2.table_in(S_GROUP) is None
    closed = p2.tables[S_GROUP.chat_id][-1].text
    assert closed.startswith(f"Table #{t.id} closed: no hand for"), closed
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []

    service3 = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    p3 = RefPresenter()
    service3.register(p3)
    await service3.start()
    await service3.stop()
    await service3.rt.drawer.close()
    assert nothing_sent(p3)


@pytest.mark.parametrize("ran_out", [False, True], ids=["runs_out_later", "ran_out_stopped"])
async def test_r8_2a_a_mute_of_the_bot_running_out_after_a_restart_keeps_its_table(
    tmp_path: Path, ran_out: bool
) -> None:
    """R8.2a: an admin mutes the bot for a few seconds mid-hand (restricted, with an
    ``until_date``), which queues the table's close; the bot restarts before the mute runs
    out. Telegram sends no update when it does, and the look at its end was the stopped
    process's: the close stood and the table closed after the hand though the bot could
    write again. The restarted bot asks how it stands in the group and looks again at the
    mute's end (``ran_out``: it ran out while the bot was stopped: at once): the close is
    cancelled, the group told once, the next hand dealt."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None and t.hand_no == 1
            await fake.restrict_bot(GROUP_ID, by=ALICE, until=int(time.time()) + 4)
            await fake.wait_for(lambda: t.closing)
            await w.settle()
        if ran_out:
            await asyncio.sleep(4.5)
        async with world(tmp_path, fake=fake, db=db) as w2:
            t2 = next(iter(w2.service.tables.values()))
            assert t2.hand is not None
            await fake.wait_for(lambda: not t2.closing, timeout=10)
            await w2.settle()
            notice = tr("en", "lobby.close_cancelled", table=t2.id)
            assert w2.group_texts().count(notice) == 1
            await play_hand(w2, [ALICE, BOB])
            await w2.settle()
            assert t2.id in w2.service.tables and t2.hand is not None and t2.hand_no == 2
            assert await check_store(w2.store) == []
    finally:
        await fake.stop()


async def test_r8_2_a_stack_from_10_000_up_reads_grouped_on_the_table_message() -> None:
    """R8.2: stacks of 12 000 kush. The table message's board lines showed each stack
    ungrouped ("Alice · 12000") where every other place (the lobby, the settlements, the
    top-up marker beside it) reads "12,000"."""
    service = TableService(
        MemoryStore(), clock=Clock(), rng=random.Random(5), next_hand_delay=0, timers=False
    )
    presenter = RefPresenter()
    service.register(presenter)
    for name, value in (("starting_balance", "50000"), ("min_buy_in", "12000")):
        reply = await service.settings(S_GROUP, S_ALICE, True, [name, value])
        assert not reply.alert, reply.text
    t = await dealt_at(service, S_GROUP, (S_ALICE, S_BOB))
    await service.rt.settled(t)
    text = presenter.tables[S_GROUP.chat_id][-1].text
    assert "Alice · 12,000" in text and "Bob · 12,000" in text, text
    assert "12000" not in text, text


def test_r8_7_chips_from_10_000_up_read_grouped_as_kush_do() -> None:
    """R8.7: a tournament's chips are amounts too: a replay's "+15,000 chips → 20000" and
    "Chips: 20000" read the stack ungrouped beside its grouped change."""
    assert tr("en", "replay.chips", delta=15000, chips=20000) == "+15,000 chips → 20,000"
    assert tr("ru", "replay.chips", delta=-15000, chips=20000) == "−15\u00a0000 фишек → 20\u00a0000"
    assert tr("en", "tour.chips", chips=20000) == "Chips: 20,000"
    assert tr("en", "tour.chips", chips=1500) == "Chips: 1,500"  # (fix39c: English from 1,000)
    assert tr("ru", "tour.chips", chips=1500) == "Фишки: 1500"
