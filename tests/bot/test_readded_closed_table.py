"""R8.2a: the bot removed from a group while its table runs there, the table closed meanwhile
(stacks back, players told in private), then the bot added back. The table message the group
still had showed hand 1 with its buttons: the bot could not edit it while it was out, and
nothing wrote it later; a press on one of its buttons said only "This button is out of
date." Now, once the bot is back (the ``my_chat_member`` update, or at the latest the first
press of an old button), that message says the table is closed, no buttons, in one edit; a
press on one of its buttons is told the table is closed (the presser's language) and changes
nothing. Restart-safe: what waits is kept with the closed table's final snapshot."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from bot.cluster import Worker
from bot.service import chats
from bot.service.runtime import CHAT_WAIT, wait_expired, waits_for_chat
from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world

WRITES = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "sendPhoto")


def group_writes(fake: FakeTelegram, since: int) -> list[Any]:
    """The bot's writes to the group from call ``since`` on (refused ones too)."""
    return [
        c
        for c in fake.calls[since:]
        if c.method in WRITES and int(c.params.get("chat_id", 0)) == GROUP_ID
    ]


async def closed_while_out(w: World) -> tuple[int, dict[str, Any], str]:
    """Alice and Bob play hand 1; the bot is removed mid-hand; the hand ends and the table
    closes. Returns the table's id, its message (as the group has it) and a button's data."""
    w.fake.started_users.update({ALICE.id, BOB.id})
    await seat_everyone(w, [ALICE, BOB])
    t = next(iter(w.service.tables.values()))
    msg = w.table_message()
    data = str(w.fake.buttons(msg)[0]["callback_data"])
    await w.fake.remove_bot(GROUP_ID, by=ALICE)
    await w.fake.wait_for(lambda: t.closing)
    await play_hand(w, [ALICE, BOB])
    await w.fake.wait_for(lambda: t.id not in w.service.tables)
    await w.service.rt.settled(t)
    await w.adapter.presenter.flush()
    old = w.fake.messages[(GROUP_ID, msg["message_id"])]
    assert old["text"].startswith(f"🃏 Pineapple OFC · table #{t.id} · hand 1"), old
    assert w.fake.buttons(old), old  # (the bot could not edit it while out)
    return t.id, msg, data


def shown(w: World, msg: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = w.fake.messages[(GROUP_ID, msg["message_id"])]
    return found


async def old_press(w: World, user: Any, msg: dict[str, Any], data: str) -> dict[str, Any]:
    """``user`` presses ``data`` on the old table message (its buttons as they were)."""
    qid = await w.fake.press(user, GROUP_ID, msg["message_id"], data)
    answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid))
    await w.adapter.presenter.flush()
    params: dict[str, Any] = answer.params
    return params


async def test_the_bot_added_back_writes_the_closed_table_s_message_as_closed(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        table, msg, data = await closed_while_out(w)
        closed = tr("en", "reply.table_closed", table=table)
        assert closed == f"Table #{table} is closed."
        since = len(w.fake.calls)
        await w.fake.add_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: shown(w, msg)["text"] == closed)
        await w.adapter.presenter.flush()
        assert w.fake.buttons(shown(w, msg)) == []
        [edit] = group_writes(w.fake, since)  # one edit, nothing posted
        assert edit.method == "editMessageText" and edit.params["message_id"] == msg["message_id"]
        await w.fake.wait_for(lambda: not w.service.rt.closing)  # (forgotten once written)
        assert await w.store.closed_snapshots() == []
        # a press on a button it had: told the table is closed, in the presser's language
        since = len(w.fake.calls)
        answer = await old_press(w, ALICE, msg, data)
        assert (answer.get("text"), answer.get("show_alert")) == (closed, True)
        answer = await old_press(w, BOB, msg, data)
        assert answer.get("text") == tr("ru", "reply.table_closed", table=table)
        assert answer.get("text") == f"Стол #{table} закрыт."
        assert group_writes(w.fake, since) == []
        assert shown(w, msg)["text"] == closed
        assert await check_store(w.store) == []


async def test_a_return_the_bot_was_not_told_is_found_by_the_first_old_press(
    tmp_path: Path,
) -> None:
    """The ``my_chat_member`` of the re-add lost (the bot away longer than Telegram keeps
    updates): the first press on an old button writes the message as closed (one edit, no
    buttons left to press) and is told the table is closed. It stays owed: a re-add told
    later writes the same text once more, and then nothing is owed."""
    async with world(tmp_path) as w:
        table, msg, data = await closed_while_out(w)
        closed = tr("en", "reply.table_closed", table=table)
        w.fake.removed_from.discard(GROUP_ID)  # back, no update
        since = len(w.fake.calls)
        answer = await old_press(w, BOB, msg, data)
        assert (answer.get("text"), answer.get("show_alert")) == (f"Стол #{table} закрыт.", True)
        await w.fake.wait_for(lambda: shown(w, msg)["text"] == closed)
        await w.adapter.presenter.flush()
        assert [c.method for c in group_writes(w.fake, since)] == ["editMessageText"]
        assert w.fake.buttons(shown(w, msg)) == []
        since = len(w.fake.calls)
        await w.fake.add_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: group_writes(w.fake, since))
        await w.adapter.presenter.flush()
        writes = group_writes(w.fake, since)
        assert [(c.method, c.params["text"]) for c in writes] == [("editMessageText", closed)]
        await w.fake.wait_for(lambda: not w.service.rt.closing)  # (forgotten once written)
        assert await w.store.closed_snapshots() == []


@pytest.mark.parametrize("when", ["before_the_re_add", "between_the_re_add_and_the_edit"])
async def test_a_restart_neither_loses_the_closed_table_s_message_nor_writes_it_twice(
    tmp_path: Path, tg_api: FakeTelegram, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """A restart while the bot is out keeps what waits (and writes nothing to the group,
    nor anything more to the players); one between the re-add and the edit (the process
    dies right after the re-add is recorded) makes the edit at the start, once."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        table, msg, _ = await closed_while_out(w)
        closed = tr("en", "reply.table_closed", table=table)
        if when == "between_the_re_add_and_the_edit":
            made: list[int] = []

            async def dies(rt: Any, record: Any, data: Any) -> bool:
                made.append(record.id)  # (recorded as owed now, then the process dies)
                return False

            monkeypatch.setattr(chats.recovery, "deliver", dies)
            await tg_api.add_bot(GROUP_ID, by=ALICE)
            await tg_api.wait_for(lambda: made)
            monkeypatch.undo()
    since = len(tg_api.calls)
    async with world(tmp_path, fake=tg_api, db=db) as w2:
        await w2.adapter.presenter.flush()
        if when == "before_the_re_add":
            await asyncio.sleep(0.1)
            assert group_writes(tg_api, since) == []
            assert [c for c in tg_api.calls[since:] if c.method in WRITES] == []
            await tg_api.add_bot(GROUP_ID, by=ALICE)
        await tg_api.wait_for(lambda: shown(w2, msg)["text"] == closed)
        await w2.adapter.presenter.flush()
        assert [c.method for c in group_writes(tg_api, since)] == ["editMessageText"]
        assert tg_api.buttons(shown(w2, msg)) == []
        await w2.fake.wait_for(lambda: not w2.service.rt.closing)  # (forgotten once written)
        assert await w2.store.closed_snapshots() == []
    since = len(tg_api.calls)
    async with world(tmp_path, fake=tg_api, db=db) as w3:
        await w3.adapter.presenter.flush()
        assert [c for c in tg_api.calls[since:] if c.method in WRITES] == []


async def test_a_table_closed_at_once_by_the_removal_is_written_as_closed_on_the_re_add(
    tmp_path: Path,
) -> None:
    """Between hands the removal closes the table at once (R8.2a): the same on the re-add."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        t = next(iter(w.service.tables.values()))
        msg = w.table_message()
        await w.fake.remove_bot(GROUP_ID, by=BOB)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        assert w.fake.buttons(shown(w, msg))
        since = len(w.fake.calls)
        await w.fake.add_bot(GROUP_ID, by=BOB)
        closed = tr("en", "reply.table_closed", table=t.id)
        await w.fake.wait_for(lambda: shown(w, msg)["text"] == closed)
        await w.adapter.presenter.flush()
        assert [c.method for c in group_writes(w.fake, since)] == ["editMessageText"]
        assert w.fake.buttons(shown(w, msg)) == []
        await w.fake.wait_for(lambda: not w.service.rt.closing)  # (forgotten once written)
        assert await w.store.closed_snapshots() == []


async def test_a_press_while_the_bot_is_still_out_keeps_the_message_waiting_for_its_return(
    tmp_path: Path,
) -> None:
    """Telegram passes on a press on the old message while the bot is still out of the
    group (its edit refused): the press is told the table is closed, and the message still
    gets written as closed when the bot is added back."""
    async with world(tmp_path) as w:
        table, msg, data = await closed_while_out(w)
        closed = tr("en", "reply.table_closed", table=table)
        answer = await old_press(w, ALICE, msg, data)
        assert (answer.get("text"), answer.get("show_alert")) == (closed, True)
        await asyncio.sleep(0.1)
        await w.adapter.presenter.flush()
        assert w.fake.buttons(shown(w, msg))  # (refused: the bot is out)
        await w.fake.add_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: shown(w, msg)["text"] == closed)
        await w.adapter.presenter.flush()
        assert w.fake.buttons(shown(w, msg)) == []
        await w.fake.wait_for(lambda: not w.service.rt.closing)  # (forgotten once written)
        assert await w.store.closed_snapshots() == []


@pytest.mark.parametrize("days", [29, 31])
async def test_a_group_that_never_takes_the_bot_back_is_forgotten_after_30_days(
    tmp_path: Path, tg_api: FakeTelegram, days: int
) -> None:
    """What waits for the bot's return (R8.2a) is kept 30 days (``CHAT_WAIT``): a start after
    that forgets it (the players were told in private), so the final snapshots of groups that
    never take the bot back do not pile up (every start, sweep and re-add reads them all); a
    re-add then writes nothing. Before that a start keeps it and the re-add writes it."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        table, msg, _ = await closed_while_out(w)
        [(record, snap)] = await w.store.closed_snapshots()
        assert waits_for_chat(snap) and not wait_expired(snap)
        since = float(snap["waiting_since"])
        assert abs(since - time.time()) < 60  # (wall clock, seconds)
        assert wait_expired(snap, since + CHAT_WAIT + 1)
        await w.store.save_owed(record.id, {**snap, "waiting_since": since - days * 86400})
    async with world(tmp_path, fake=tg_api, db=db) as w2:
        await w2.adapter.presenter.flush()
        left = await w2.store.closed_snapshots()
        assert [r.id for r, _ in left] == ([] if days > 30 else [table])
        before = len(tg_api.calls)
        await tg_api.add_bot(GROUP_ID, by=ALICE)
        if days > 30:
            await asyncio.sleep(0.2)
            await w2.adapter.presenter.flush()
            assert group_writes(tg_api, before) == []
            assert tg_api.buttons(shown(w2, msg))  # (the old message as it was)
        else:
            closed = tr("en", "reply.table_closed", table=table)
            await tg_api.wait_for(lambda: shown(w2, msg)["text"] == closed)


async def test_a_waiting_record_saved_undated_is_dated_by_the_next_start(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """A record waiting for the bot's return saved without ``waiting_since`` (by a bot from
    before the 30-day wait) never expired; the next start dates it, so its 30 days run from
    then, and it is still written on a re-add."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        table, msg, _ = await closed_while_out(w)
        [(record, snap)] = await w.store.closed_snapshots()
        undated = {k: v for k, v in snap.items() if k != "waiting_since"}
        await w.store.save_owed(record.id, undated)
        assert not wait_expired(undated, time.time() + 10 * CHAT_WAIT)
    async with world(tmp_path, fake=tg_api, db=db) as w2:
        [(_, snap)] = await w2.store.closed_snapshots()
        assert abs(float(snap["waiting_since"]) - time.time()) < 60
        assert wait_expired(snap, time.time() + CHAT_WAIT + 60)
        await tg_api.add_bot(GROUP_ID, by=ALICE)
        closed = tr("en", "reply.table_closed", table=table)
        await tg_api.wait_for(lambda: shown(w2, msg)["text"] == closed)


@pytest.mark.parametrize("dated", [True, False])
async def test_a_cluster_sweep_forgets_an_expired_waiting_record_and_dates_an_undated_one(
    tmp_path: Path, tg_api: FakeTelegram, dated: bool
) -> None:
    """Issue 14: a worker's sweep forgets a record that waited past 30 days and dates one
    saved undated. Both writes need the chat's lease (the store is fenced): the sweep takes
    it first; without it each write was refused (logged) at every sweep, and the record
    stayed forever."""
    async with world(tmp_path, fake=tg_api) as w:
        _, _, _ = await closed_while_out(w)
        [(record, snap)] = await w.store.closed_snapshots()
        if dated:
            old = {**snap, "waiting_since": time.time() - CHAT_WAIT - 86400}
        else:
            old = {k: v for k, v in snap.items() if k != "waiting_since"}
        await w.store.save_owed(record.id, old)
        worker = Worker(w.service, "w1", "http://127.0.0.1:9")  # (fences the store)
        try:
            await worker.sweep_owed()
            left = await w.store.closed_snapshots()
        finally:
            w.store.fence(None)
        if dated:
            assert left == []
        else:
            [(_, snap)] = left
            assert abs(float(snap["waiting_since"]) - time.time()) < 60


async def test_a_sweep_does_not_bring_back_a_waiting_record_the_bots_return_sent_meanwhile(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Issue 14: a worker's sweep read an undated waiting record, then the bot came back to
    the group while it took the chat's lease: the return wrote the table message as closed
    and forgot the record. The sweep reads it again under the lease and dates nothing; with
    the snapshot it read before, it saved the record back, waiting for a return that had
    come (kept 30 days; a later re-add wrote the message again)."""
    async with world(tmp_path, fake=tg_api) as w:
        table, msg, _ = await closed_while_out(w)
        [(record, snap)] = await w.store.closed_snapshots()
        undated = {k: v for k, v in snap.items() if k != "waiting_since"}
        await w.store.save_owed(record.id, undated)
        worker = Worker(w.service, "w1", "http://127.0.0.1:9")  # (fences the store)
        claim = worker.claim
        closed = tr("en", "reply.table_closed", table=table)

        async def back_meanwhile(key: str, table_id: int | None = None) -> bool:
            taken = await claim(key, table_id)
            await tg_api.add_bot(GROUP_ID, by=ALICE)  # (handled here: the lease is ours)
            await tg_api.wait_for(lambda: shown(w, msg)["text"] == closed)
            for _ in range(100):
                if not await w.store.closed_snapshots():
                    break
                await asyncio.sleep(0.05)
            assert await w.store.closed_snapshots() == []
            return taken

        worker.claim = back_meanwhile  # type: ignore[method-assign]
        try:
            await worker.sweep_owed()
            assert await w.store.closed_snapshots() == []
        finally:
            w.store.fence(None)


async def test_r8_2a_a_table_closed_after_a_restart_while_removed_is_written_closed_on_re_add(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """(brkdc) The bot is removed mid-hand and restarted while still out: the restart posts
    the table message anew, which Telegram refuses; the hand is finished in private, the
    table closes. On the re-add "Table #1 is closed." was posted as a new message, and the
    group's table message from before the restart kept hand 1 and its buttons for good. Now
    that message is written as closed, one edit."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        tg_api.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        msg = w.table_message()
        await tg_api.remove_bot(GROUP_ID, by=ALICE)
        await tg_api.wait_for(lambda: t.closing)
    async with world(tmp_path, fake=tg_api, db=db) as w2:
        t = next(iter(w2.service.tables.values()))
        await play_hand(w2, [ALICE, BOB])
        await tg_api.wait_for(lambda: t.id not in w2.service.tables)
        await w2.service.rt.settled(t)
        await w2.adapter.presenter.flush()
        assert tg_api.buttons(shown(w2, msg))  # (nothing written while out)
        since = len(tg_api.calls)
        await tg_api.add_bot(GROUP_ID, by=ALICE)
        closed = tr("en", "reply.table_closed", table=t.id)
        await tg_api.wait_for(lambda: shown(w2, msg)["text"] == closed)
        await w2.fake.wait_for(lambda: not w2.service.rt.closing)
        await w2.adapter.presenter.flush()
        assert [c.method for c in group_writes(tg_api, since)] == ["editMessageText"]
        assert tg_api.buttons(shown(w2, msg)) == []
        assert await check_store(w2.store) == []
