"""flk41: two openings of a table in one chat at once, on PostgreSQL (the session's pgserver,
tests/pg.py; skipped where it cannot start). The rare flake of
``test_r8_7_tournament_steps_at_once_on_postgresql`` (tests/bot/test_brk66_walks.py): a step
after a /closetable, no table in the group, sent two /tournament at once; one of them was
answered "Could not save that; nothing changed" (``err.storage``).

The cause: both found no table in the chat and both asked storage for a record. The first's
INSERT committed; the second's waited for it on the chat's unique index of open tables, then
found it and was refused ("already has an open table"). The second then looked for the table
that had opened meanwhile (:meth:`TableService.table_in`), but the first command had not yet
resumed after its COMMIT to serve its table (its answer read a moment later by the event
loop), so the second found none and answered ``err.storage``. Here the first command is held
right after its record committed, which makes that moment as long as the test needs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

from bot.texts import tr
from storage.api import TableRecord
from storage.postgres import PostgresStore
from tests.bot.conftest import Clock
from tests.bot.test_brkpg_storage import new_service
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.pg import fresh_database


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


async def test_r8_7_a_second_tournament_while_the_first_one_s_record_commits_is_told_it_exists(
    pg_url: str,
) -> None:
    """Alice's /tournament has its record committed and is held before it serves its table;
    Bob's /tournament comes then. Bob is told the chat's tournament is open (``tour.exists``
    with its number, R8.7: one table a chat), not "Could not save"; one record is open, the
    one served."""
    store = await PostgresStore.open(pg_url)
    service, _ = new_service(store, Clock())
    real_create, real_community = store.create_table, store.community
    first_committed, release = asyncio.Event(), asyncio.Event()
    second_read, second_tried, second_done = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def create_table(
        community_id: int, chat_id: str, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        if not first_committed.is_set():  # Alice's: committed, then held
            record = await real_create(community_id, chat_id, options, min_buy_in)
            first_committed.set()
            await release.wait()
            return record
        second_tried.set()  # Bob's (found no table served in the chat)
        try:
            return await real_create(community_id, chat_id, options, min_buy_in)
        finally:
            second_done.set()

    async def community(platform: str, external_id: str, title: str = "") -> Any:
        found = await real_community(platform, external_id, title)
        if first_committed.is_set():
            # Bob's first read: from its return Bob's command runs on at once up to its next
            # wait (a storage call, or a wait for Alice's opening), before this test goes on
            second_read.set()
        return found

    store.create_table = create_table  # type: ignore[method-assign]
    store.community = community  # type: ignore[method-assign]
    try:
        alice = asyncio.ensure_future(service.new_tournament(GROUP, ALICE, "pineapple"))
        await first_committed.wait()
        bob = asyncio.ensure_future(service.new_tournament(GROUP, BOB, "pineapple"))
        await second_read.wait()
        if second_tried.is_set():  # (Bob asked storage for a record: its refusal first)
            await second_done.wait()
        release.set()
        opened, told = await asyncio.gather(alice, bob)
        t = service.table_in(GROUP)
        assert t is not None
        assert opened.text == tr("en", "reply.tournament_opened", table=t.id)
        assert told.alert and told.text == tr("ru", "tour.exists", table=t.id)
        community_id = (await real_community("telegram", GROUP.community_id)).id
        assert [r.id for r in await store.open_tables(community_id)] == [t.id]
        await service.stop()
    finally:
        await store.close()
