"""Two workers sharing one database change one group's settings at the same moment (issue 14):
two admins' ``/settings`` handled by two workers (a chat's lease changing hands while the
old worker still finishes an update), or one worker saving a closed table's command keys
(:meth:`bot.service.runtime.Runtime.keep_table_requests`) while another saves a change.
Each worker's :meth:`~bot.service.runtime.Runtime.settings_lock` serialises only its own
changes: a read of the settings and a write of the whole settings JSON after it kept only
the later write, the earlier change lost though its admin was answered "Saved". The
read-modify-write is one storage transaction (:meth:`storage.api.Store.change_settings`),
so both stay, on one SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import TableService
from bot.texts import tr
from storage.api import Store
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, CAROL, GROUP
from tests.pg import fresh_database


@contextlib.asynccontextmanager
async def _connections(kind: str, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two workers' connections to one database."""
    if kind == "sqlite":
        path = tmp_path / "ofc.sqlite3"
        first: Store = await SqliteStore.open(path)
        second: Store = await SqliteStore.open(path)
        try:
            yield first, second
        finally:
            await first.close()
            await second.close()
        return
    async with fresh_database() as url:
        first = await PostgresStore.open(url)
        second = await PostgresStore.open(url)
        try:
            yield first, second
        finally:
            await first.close()
            await second.close()


def _service(db: Store) -> TableService:
    service = TableService(db, rng=random.Random(3), timers=False)
    service.register(FakePresenter())
    return service


@contextlib.contextmanager
def _held_settings_write(db: Store) -> Iterator[tuple[asyncio.Event, asyncio.Event]]:
    """The worker on ``db`` stops at its next write of the settings (either way it writes
    them) until ``go`` is set; ``held`` is set when it got there."""
    held, go = asyncio.Event(), asyncio.Event()
    names = ("update_settings", "change_settings")
    originals = {name: getattr(db, name) for name in names}

    def holding(original: Any) -> Any:
        async def write(*args: Any, **kwargs: Any) -> Any:
            if not go.is_set():
                held.set()
                await go.wait()
            return await original(*args, **kwargs)

        return write

    for name in names:
        setattr(db, name, holding(originals[name]))
    try:
        yield held, go
    finally:
        for name in names:
            delattr(db, name)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_r14_two_admins_changes_on_two_workers_at_once_both_stay(
    kind: str, tmp_path: Path
) -> None:
    """Alice's /settings min_buy_in 300 on worker 1 reads the settings and is held before
    its write while Carol's /settings daily_bonus 25 on worker 2 is saved: both changes and
    both commands' keys are saved (min_buy_in was 300 and daily_bonus back at 100, or the
    other way round, each admin told "Saved")."""
    async with _connections(kind, tmp_path) as (db1, db2):
        w1, w2 = _service(db1), _service(db2)
        await w1.settings(GROUP, ALICE, True, [])  # (the group known to both, nothing saved)
        await w2.settings(GROUP, CAROL, True, [])
        with _held_settings_write(db1) as (held, go):
            first = asyncio.create_task(
                w1.settings(GROUP, ALICE, True, ["min_buy_in", "300"], request="tg:-100:7")
            )
            await asyncio.wait_for(held.wait(), 5)
            second = await w2.settings(
                GROUP, CAROL, True, ["daily_bonus", "25"], request="tg:-100:8"
            )
            go.set()
            reply = await asyncio.wait_for(first, 5)
        assert not reply.alert and not second.alert
        assert reply.text.startswith(
            tr("en", "reply.settings_saved", what="min_buy_in = 300 (was 200)")
        )
        for db in (db1, db2):
            s = (await db.community("telegram", GROUP.chat_id)).settings
            assert (s.min_buy_in, s.daily_bonus) == (300, 25)
            assert sorted(s.requests) == ["tg:-100:7", "tg:-100:8"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_r14_a_closed_table_s_keys_saved_on_one_worker_keep_a_change_on_another(
    kind: str, tmp_path: Path
) -> None:
    """Worker 1 saves a closed table's command keys with the settings (``table_requests``),
    held before its write while Carol's /settings daily_bonus 25 on worker 2 is saved:
    both stay."""
    async with _connections(kind, tmp_path) as (db1, db2):
        w1, w2 = _service(db1), _service(db2)
        await w1.settings(GROUP, ALICE, True, [])
        community = await db1.community("telegram", GROUP.chat_id)
        with _held_settings_write(db1) as (held, go):
            first = asyncio.create_task(
                w1.rt.keep_table_requests(community.id, ["tg:-100:3", "tg:-100:4"], 1)
            )
            await asyncio.wait_for(held.wait(), 5)
            second = await w2.settings(GROUP, CAROL, True, ["daily_bonus", "25"])
            go.set()
            await asyncio.wait_for(first, 5)
        assert not second.alert
        for db in (db1, db2):
            s = (await db.community("telegram", GROUP.chat_id)).settings
            assert s.daily_bonus == 25
            assert s.table_requests == ("tg:-100:3", "tg:-100:4")
