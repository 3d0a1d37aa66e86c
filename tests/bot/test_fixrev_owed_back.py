"""fixrev (rev list 4): :func:`bot.service.chats.owed_back` reading a closed table again.

A table recorded as told while a read of the closed tables was under way, found whole by
that read, is read again by a call for its chat. That re-read still found it in
``told_meanwhile`` while another read was under way (the set is emptied only once none is),
so a snapshot found whole again (say another return delivering it: saved with
``chat_gone`` off first) was read again and again until that other read ended; and the
re-read dropped the first call's ``writable`` filter."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from bot.service import chats
from bot.texts import tr
from storage.api import StorageError, TableRecord
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_storage_wait import HUNG, SilentStore, new_service


class ReadsStore(SilentStore):
    """Its closed snapshots are :attr:`reads` (one list a read, the last one again), once
    set; a read past :attr:`most` is refused (a loop of reads stops there)."""

    reads: list[list[tuple[TableRecord, Mapping[str, Any]]]] | None = None
    read = 0
    most = 4

    async def closed_snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        if self.reads is None:
            return await super().closed_snapshots()
        self.read += 1
        if self.read > self.most:
            raise StorageError("read once too often")
        return self.reads[min(self.read, len(self.reads)) - 1]


async def _closed_while_out(store: ReadsStore) -> tuple[Any, TableRecord, Mapping[str, Any]]:
    """A table closed while the bot was out of the group (R8.2a), its players told: its final
    snapshot waits for the bot's return."""
    service = new_service(store)
    rt = service.rt
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None
    await service.chat_left("telegram", GROUP.chat_id)
    await rt.settled(t)
    await asyncio.wait_for(rt.drain(), HUNG)
    [(record, snap)] = await store.closed_snapshots()
    assert snap["chat_gone"] and not snap.get("private_outbox")
    return service, record, snap


async def test_a_table_found_whole_again_is_read_again_once_while_another_read_is_under_way() -> (
    None
):
    store = ReadsStore()
    service, record, snap = await _closed_while_out(store)
    rt = service.rt
    whole = {**snap, "chat_gone": False}  # (another return delivering it: saved so first)
    store.reads = [[(record, whole)]]
    with rt.reading_owed():  # (another read under way: a sweep's)
        rt.told_meanwhile.add(record.id)
        assert await chats.owed_back(rt, "telegram", chat_id=GROUP.chat_id) == 0
    assert store.read == 2  # its read, then the one re-read (not until the other read ends)


async def test_the_re_read_keeps_the_writable_filter() -> None:
    store = ReadsStore()
    service, record, snap = await _closed_while_out(store)
    rt = service.rt
    presenter = rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    shown = len(presenter.tables[GROUP.chat_id])
    store.reads = [[(record, {**snap, "chat_gone": False})], [(record, snap)]]
    asked: list[str] = []

    def writable(community: str, chat: str) -> bool:  # (removed again after the first read)
        asked.append(chat)
        return len(asked) == 1

    with rt.reading_owed():  # (another read under way: the table stays told meanwhile)
        rt.told_meanwhile.add(record.id)
        assert await chats.owed_back(rt, "telegram", writable=writable) == 0
    assert asked == [GROUP.chat_id, GROUP.chat_id]
    assert store.read == 2
    closed = tr("en", "reply.table_closed", table=record.id)
    assert all(s.text != closed for s in presenter.tables[GROUP.chat_id][shown:])
