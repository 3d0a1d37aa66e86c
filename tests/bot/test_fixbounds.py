"""fixbounds: the leftovers of ``STORAGE_WAIT_SECONDS`` (:attr:`Runtime.storage_wait`): a
timer's step bounds every storage read it makes (and is tried again, never dropped), the
closed tables this process forgot are not remembered for good, a background snapshot save
and a closed table's records of what it sent that gave up are tried again, the bot's
return to a group, a table let go with its shard and a worker's sweep give up on a silent
database, and the sandbox waits for storage as the bot does. The store is mostly the
in-memory one whose named calls never answer (:class:`SilentStore`)."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox import Sandbox, SandboxOptions
from bot.service import TableService, runtime
from bot.service.runtime import waits_for_chat
from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from storage.api import InsufficientFunds, StorageTimeout
from storage.check import check_store
from tests.bot.fakes import FakePresenter
from tests.bot.test_fixstop_unsure import closing_notices
from tests.bot.test_picture_restart import a_hand_with_photos_refused, photo
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated
from tests.bot.test_storage_wait import HUNG, WAIT, SilentStore, new_service
from tests.bot.test_telegram_e2e import play_hand
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import GROUP_ID, world


class _UnsaidBalanceStore(SilentStore):
    """A :class:`SilentStore` whose refusals of a buy-in do not name the balance they were
    refused for (:attr:`InsufficientFunds.balance` ``None``): the step reads it."""

    async def commit(self, *args: Any, **kwargs: Any) -> list[int]:  # type: ignore[override]
        try:
            return await super().commit(*args, **kwargs)
        except InsufficientFunds as exc:
            raise InsufficientFunds(str(exc)) from None


async def test_r8_2_a_timer_step_reading_a_balance_gives_up_on_a_silent_database() -> None:
    """The timer's step after a hand adds the top-up queued during it (R8.2); the balance
    no longer covers it (spent meanwhile), so the step reads the balance to say what the
    player has: on a database that does not answer that read gives up after the bound, the
    step changes nothing more, the top-up stays queued and the table is free (it held the
    table, and every press there, for good); once the database answers, the step is made:
    the group is told the top-up failed, and it is no longer queued. (The balance is read
    only when the refusal does not name the balance it was refused for, fixtopup: a store
    whose refusal does not.)"""
    store = _UnsaidBalanceStore()
    service = new_service(store)
    presenter = service.rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    alice = t.seats[0]
    reply = await service.top_up(GROUP, ALICE, "50")
    assert not reply.alert, reply.text
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    player = await store.get_player(alice.player_id)
    assert player is not None
    await store.grant(t.community_id, alice.player_id, -player.balance, actor="test",
                      reason="spent", key="spent")  # fmt: skip
    after_hand, seq = alice.stack, t.seq
    store.silent.add("get_player")
    await asyncio.wait_for(service.run_due(), HUNG)
    assert store.asked == {"get_player": 1}
    seat = t.seats[0]  # (a rolled-back step puts new seat objects in place)
    assert (seat.stack, seat.top_up, t.seq) == (after_hand, 50, seq)
    assert not t.lock.locked()
    store.silent.clear()
    await service.run_due()
    assert (t.seats[0].stack, t.seats[0].top_up) == (after_hand, 0)
    await service.rt.settled(t)
    told = tr("en", "lobby.topup_failed", name=alice.name, amount=50, label=t.label, have=0)
    assert [text for _, text in presenter.posts if text.startswith(told)] != [], presenter.posts
    assert await check_store(store) == []


def test_the_sandbox_is_given_storage_wait_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``STORAGE_WAIT_SECONDS`` reaches the sandbox (``python -m bot --sandbox``) as it
    reaches the bot: it waited the default second for its SQLite file whatever the
    setting."""
    import bot.__main__ as entry
    import bot.sandbox

    given: list[SandboxOptions] = []

    async def run(opts: SandboxOptions) -> None:
        given.append(opts)

    monkeypatch.setattr(bot.sandbox, "run_sandbox", run)
    monkeypatch.setattr(entry, "configure_logging", lambda *args, **kwargs: None)
    monkeypatch.setattr(logging.getLogger(), "level", logging.getLogger().level)
    monkeypatch.setenv("STORAGE_WAIT_SECONDS", "2.5")
    env = tmp_path / "empty.env"
    env.write_text("")
    db = tmp_path / "s.sqlite3"
    assert entry.main(["--sandbox", "--env-file", str(env), "--sandbox-db", str(db)]) == 0
    assert [opts.storage_wait for opts in given] == [2.5]
    capsys.readouterr()


async def test_the_sandboxs_service_waits_for_storage_as_long_as_it_is_told(
    tmp_path: Path,
) -> None:
    """The sandbox's presses and commands wait for its SQLite file as long as its options
    say (``STORAGE_WAIT_SECONDS``), not the service's default."""
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0, storage_wait=2.5),
                  io.StringIO())  # fmt: skip
    try:
        await box.start()
        assert box.service.rt.storage_wait == 2.5
    finally:
        await box.stop()


async def _open_and_close(service: TableService) -> int:
    """Alice opens a table in the group and sits down, then closes it (/closetable, R8.2a);
    its closing notice is sent. The table's id."""
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None
    reply = await service.close_table(GROUP, ALICE, True)
    assert service.table_in(GROUP) is None, reply.text
    await service.rt.settled(t)
    await service.rt.drain()
    return t.id


async def test_r8_2a_the_closed_tables_forgotten_here_are_not_kept_for_good() -> None:
    """Each closed table whose last messages were sent and whose final snapshot was deleted
    was remembered as forgotten for as long as the bot ran (so that a read of the final
    snapshots from before sent nothing again): a long-running bot's memory grew with every
    table closed. Once storage confirmed the deletion and no read from before is under way,
    it is dropped; each closing notice went out once, and nothing is owed."""
    store = SilentStore()
    service = new_service(store)
    presenter = service.rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    ids = [await _open_and_close(service) for _ in range(3)]
    assert len(set(ids)) == 3
    assert service.rt._forgotten == {}
    for table_id in ids:
        assert len(closing_notices(presenter, table_id)) == 1, presenter.posts
    assert await store.closed_snapshots() == []


async def test_r8_2a_a_read_from_before_a_forget_still_sends_nothing_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A read of the closed tables' final snapshots that began before a closed table was
    sent and forgotten (a sweep's, issue 14; a restore anew's: :meth:`Runtime.reading_owed`)
    is told that it owes nothing (:meth:`Runtime.owes`) while it is under way, the deletion
    confirmed meanwhile; once it ends the table is no longer remembered. A deletion storage
    has not confirmed (the database silent, tried again in the background) keeps it
    remembered until it is."""
    monkeypatch.setattr(runtime, "LATE_WRITE_SECONDS", WAIT)
    monkeypatch.setattr(runtime, "RENEW_RETRY_SECONDS", WAIT / 4)
    store = SilentStore()
    service = new_service(store)
    rt = service.rt
    with rt.reading_owed():
        first = await _open_and_close(service)
        assert await store.closed_snapshots() == []  # (deleted, confirmed)
        assert not rt.owes(first) and first in rt._forgotten
    assert rt._forgotten == {}
    store.silent.add("delete_snapshot")
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None
    await service.close_table(GROUP, ALICE, True)
    await rt.settled(t)
    await asyncio.sleep(WAIT * 2)  # (the first try and a try in the background given up)
    assert [record.id for record, _ in await store.closed_snapshots()] == [t.id]
    assert not rt.owes(t.id) and rt._forgotten == {t.id: None}
    store.silent.clear()
    await asyncio.wait_for(rt.drain(), HUNG)
    assert await store.closed_snapshots() == []
    assert rt._forgotten == {}


class OnceSilentStore(SilentStore):
    """A :class:`SilentStore` whose first :data:`silent_saves` background snapshot saves
    (``save_snapshot``) give up, not answered within their bound, and the later ones are
    made."""

    silent_saves = 0

    async def save_snapshot(self, table_id: int, data: Mapping[str, Any]) -> None:
        if self.silent_saves > 0:
            self.silent_saves -= 1
            self.asked["save_snapshot"] = self.asked.get("save_snapshot", 0) + 1
            raise StorageTimeout("save_snapshot: no answer within the bound")
        self.asked["save_snapshot"] = self.asked.get("save_snapshot", 0) + 1
        await super().save_snapshot(table_id, data)


async def test_r3_4_a_background_snapshot_save_that_gave_up_is_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table's background snapshot save (a card placed before Confirm, R3.4; a message
    ref) that the database did not answer was dropped, "the next save writes it": a hand
    waiting for a player's clock makes no next save, and a crash meanwhile lost it. It is
    tried again a little later and saved; a save that keeps failing is given up after
    :data:`~bot.service.runtime.SNAPSHOT_TRIES` tries (logged), the stop's drain not held."""
    monkeypatch.setattr(runtime, "RENEW_RETRY_SECONDS", WAIT / 4)
    store = OnceSilentStore()
    service = new_service(store)
    rt = service.rt
    await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    await rt.settled(t)
    await rt.drain()
    store.silent_saves, store.asked = 1, {}
    async with t.lock:
        t.group_ref = "m-placed"  # (what a background save keeps: a message ref)
        rt.save_soon(t)
    await asyncio.wait_for(rt.drain(), HUNG)
    assert store.asked == {"save_snapshot": 2}
    state = await store.table_state(t.id)
    assert state is not None and state[1]["group_ref"] == "m-placed"
    store.silent_saves = 100
    async with t.lock:
        t.group_ref = "m-later"
        rt.save_soon(t)
    await asyncio.wait_for(rt.drain(), HUNG)
    assert store.asked == {"save_snapshot": 2 + runtime.SNAPSHOT_TRIES}
    state = await store.table_state(t.id)
    assert state is not None and state[1]["group_ref"] == "m-placed"


async def test_a_table_let_go_with_its_shard_is_saved_within_the_storage_wait() -> None:
    """A table let go as its Discord shard is handed over (issue 14) is saved first, holding
    the table, so that its clocks stop now for the worker taking it over (R8.5): on a
    database that does not answer that save gives up after the bound, logged, and the table
    is let go all the same (it held the table, every press there and the hand-over for
    good)."""
    store = SilentStore()
    service = new_service(store)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    store.silent.add("save_snapshot")
    await asyncio.wait_for(service.release(t.id, save=True), HUNG)
    assert store.asked == {"save_snapshot": 1}
    assert not service.rt.open_here(t) and not t.lock.locked()


async def test_r8_2a_the_bots_return_on_a_silent_database_cancels_the_removals_close() -> None:
    """The bot, removed from the group during a hand (its table to close at the hand's
    end, R8.2a), is added back: the closed tables' messages it owes the group are read
    first, and on a database that does not answer that read gives up after the bound
    (logged), the removal's close cancelled all the same (it waited for good, and the table
    closed at the hand's end though the bot was back)."""
    store = SilentStore()
    service = new_service(store)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    await service.chat_left("telegram", GROUP.chat_id)
    assert t.closing and t.removal_close
    store.silent.add("closed_snapshots")
    assert await asyncio.wait_for(service.chat_back("telegram", GROUP.chat_id), HUNG)
    assert store.asked == {"closed_snapshots": 1}
    assert not t.closing and service.rt.open_here(t)


class OwedOnceSilentStore(SilentStore):
    """A :class:`SilentStore` whose first :data:`silent_owed` saves of a closed table's
    final snapshot (``save_owed``) give up, not answered within their bound."""

    silent_owed = 1

    async def save_owed(self, table_id: int, data: Mapping[str, Any]) -> None:
        self.asked["save_owed"] = self.asked.get("save_owed", 0) + 1
        if self.silent_owed > 0:
            self.silent_owed -= 1
            raise StorageTimeout("save_owed: no answer within the bound")
        await super().save_owed(table_id, data)


async def test_r8_2a_a_table_closed_while_the_bot_is_out_is_recorded_as_told_in_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot removed from the group, its table closes (R8.2a) and its players are told in
    private; the record that only the group's table message now waits for the bot's return
    was not answered in time and was given up: the closed table's final snapshot stayed
    whole, and the bot added back never wrote that message, which showed the table open,
    as closed (until a restart, which told the players again). It is saved a little later,
    no read here sending the table meanwhile, and the bot's return writes the message as
    closed, the table then forgotten."""
    monkeypatch.setattr(runtime, "RENEW_RETRY_SECONDS", WAIT / 4)
    store = OwedOnceSilentStore()
    service = new_service(store)
    rt = service.rt
    presenter = rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None
    await service.chat_left("telegram", GROUP.chat_id)
    assert not rt.open_here(t)
    await rt.settled(t)
    await asyncio.wait_for(rt.drain(), HUNG)
    assert store.asked == {"save_owed": 2}
    [(record, snap)] = await store.closed_snapshots()
    assert record.id == t.id and waits_for_chat(snap)
    assert rt.owes(t.id)
    closed = tr("en", "reply.table_closed", table=t.id)
    assert await service.chat_back("telegram", GROUP.chat_id) is False  # (no close to cancel)
    await rt.drain()
    assert presenter.tables[GROUP.chat_id][-1].text == closed
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


async def test_a_closed_tables_record_of_owing_only_pictures_is_saved_in_the_end(
    tmp_path: Path, tg_api: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table closed while Telegram refuses its showdown pictures (posted later, in the
    background) owes only them: its final snapshot is saved so. That save not answered in
    time was given up, the snapshot kept whole, so a restart meanwhile sent the closing
    step again (its showdown and notices); it is tried again a little later and saved."""
    monkeypatch.setattr(runtime, "RENEW_RETRY_SECONDS", WAIT / 4)
    tg_api.outage(photo)
    async with world(tmp_path, db=tmp_path / "ofc.sqlite3", fake=tg_api, rng_seed=5) as w:
        save_owed = w.store.save_owed
        failed: list[int] = []

        async def first_fails(table_id: int, data: Mapping[str, Any]) -> None:
            if not failed and data.get("late_pictures") and not data.get("outbox"):
                failed.append(table_id)
                raise StorageTimeout("save_owed: no answer within the bound")
            await save_owed(table_id, data)

        monkeypatch.setattr(w.store, "save_owed", first_fails)
        tg_api.admins[GROUP_ID] = {TG_ALICE.id}
        await a_hand_with_photos_refused(w, (0.05, 0.1, 0.2))
        await w.say(TG_ALICE, "/closetable")
        await play_hand(w, [TG_ALICE, TG_BOB])
        await w.settle()
        assert w.service.tables == {} and len(failed) == 1
        for _ in range(100):
            [(_, snap)] = await w.store.closed_snapshots()
            if not snap["outbox"]:
                break
            await asyncio.sleep(0.05)
        assert snap["outbox"] == [] and snap["private_outbox"] == []
        assert len(snap["late_pictures"]) == 2


async def test_a_workers_sweep_of_owed_messages_gives_up_on_a_silent_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's sweep of what closed tables owe their chats (issue 14) reads their final
    snapshots: on a database that does not answer it gives up after its bound (the round
    is logged, the next one tries); it waited for good, and meanwhile the closed tables
    forgotten here were remembered (a read from before it under way), one id for each."""
    from bot.cluster import Worker

    # (read where the sweep uses it: the router imports bot.cluster without bot.service)
    monkeypatch.setattr(runtime, "LATE_WRITE_SECONDS", WAIT)
    store = SilentStore()
    service = new_service(store)
    worker = Worker(service, "w1", "http://127.0.0.1:1", ttl=1.0)
    store.silent.add("closed_snapshots")
    with pytest.raises(StorageTimeout):
        await asyncio.wait_for(worker.sweep_owed(), HUNG)
    with pytest.raises(StorageTimeout):
        await asyncio.wait_for(worker._owed_now(1), HUNG)
    assert store.asked == {"closed_snapshots": 2}
    assert service.rt._owed_reads == {}  # (no read from before left under way)
    store.silent.clear()
    await worker.sweep_owed()
    assert store.asked == {"closed_snapshots": 2}
