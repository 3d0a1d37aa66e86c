"""brk28: the steps made first (the overdue timer's, the idle close's) racing the table's
own timer, through the service with an in-memory or SQLite store and a hand-moved clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.texts import tr
from storage.check import check_store
from storage.sqlite import SqliteStore
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_transitions import player_balance


async def _spin() -> None:
    """Let the tasks started run until they wait (for the table's lock)."""
    for _ in range(50):
        await asyncio.sleep(0)


@pytest.mark.parametrize("kind", ["table", "tournament"])
@pytest.mark.parametrize("db", ["memory", "sqlite"])
async def test_r8_2a_a_settings_change_waiting_while_the_timer_closes_closes_nothing_again(
    tmp_path: Path, kind: str, db: str
) -> None:
    """R8.2a: the idle close is due; the table's timer fires and takes the table, and an
    admin's settings change comes meanwhile and waits for it. The timer closes the table;
    the change then made the step of the "overdue" timer on the closed table: the close
    again, a second commit, the close notice twice in the group and (a tournament, R8.7)
    each registrant told twice in private what the pool paid them. Now it closes once."""
    store = await SqliteStore.open(tmp_path / "db") if db == "sqlite" else None
    service, presenter, store, clock = service_env(store=store)
    if kind == "table":
        await service.new_table(GROUP, ALICE)
        assert not (await service.join(GROUP, ALICE)).alert
        assert not (await service.ready(GROUP, ALICE)).alert
    else:
        assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
        for a in (ALICE, BOB):
            assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None
    clock.now += 1800
    await t.lock.acquire()  # (held a moment, as by a press: both wait for it)
    timer = asyncio.create_task(service.run_due())  # the timer fires first
    await _spin()
    change = asyncio.create_task(service.settings(GROUP, BOB, True, ["idle_close_seconds", "3600"]))
    await _spin()
    seq = t.seq
    t.lock.release()
    await asyncio.wait_for(timer, 5)
    reply = await asyncio.wait_for(change, 5)
    assert not reply.alert, reply.text
    await service.rt.settled(t)
    assert service.table_in(GROUP) is None
    assert t.seq == seq + 1  # the timer's close, once
    closes = [s.text for s in presenter.tables[GROUP.chat_id] if "30 minutes" in s.text]
    assert len(closes) == 1
    if kind == "tournament":
        for actor, lang in ((ALICE, "en"), (BOB, "ru")):
            notice = (
                tr(lang, "private.idle_cancel", table=t.id)
                + " "
                + tr(lang, "private.pool_paid", amount=100, label="kush")
            )
            assert [s.text for s in presenter.privates[actor.user_id]] == [notice]
    players = (ALICE,) if kind == "table" else (ALICE, BOB)
    assert [await player_balance(store, a) for a in players] == [1000] * len(players)
    assert await check_store(store) == []
    await store.close()
