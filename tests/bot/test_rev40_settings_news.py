"""rev40: a settings change another worker saved reaches a table this worker is taking over
at that moment. The worker holding the chat's lease is told (``POST /settings/<platform>``)
as soon as it took the lease, while it may still be restoring the table: the restore read the
group's settings before the change was saved and applies them after the news was handled, so
the table kept the old settings (its turn's end shown in the old zone) until its next restart.
The news waits for a takeover under way, as a player's private news does (``/private``)."""

from __future__ import annotations

import asyncio

from aiohttp import web

from bot.model import ChatRef
from bot.service.settings import note_zone
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_fix40f import _worker
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.waiting import until


async def test_r8_5_a_zone_saved_elsewhere_during_a_takeover_is_not_undone_by_it() -> None:
    store, clock = MemoryStore(), Clock()
    store.clock = clock
    w1, _p1 = await _worker(store, clock, "w1", "telegram")
    w2, _p2 = await _worker(store, clock, "w2", "telegram")
    try:
        key = lease_key("telegram", GROUP.chat_id)
        assert await w2.claim(key)
        assert not (await w2.service.settings(GROUP, ALICE, True, ["utc_offset", "3"])).alert
        await w2.service.new_table(GROUP, ALICE)
        for a in (ALICE, BOB):
            await w2.service.join(GROUP, a)
            await w2.service.ready(GROUP, a)
        t = w2.service.table_in(GROUP)
        assert t is not None and t.hand is not None
        rt = w2.service.rt
        assert rt.zones[t.community_id] == 3.0
        # w2 takes the chat over again (its claim's lock held, as Worker.claim holds it
        # while the table is restored): the restore has read the settings, utc_offset 3
        read = await store.get_community(t.community_id)
        assert read is not None
        arrived = asyncio.Event()
        allowed = w2._allowed

        async def spy(request: web.Request, route: str) -> bytes | None:
            if request.path.startswith("/settings/"):
                arrived.set()
            return await allowed(request, route)

        w2._allowed = spy  # type: ignore[method-assign]
        claiming = w2._locks[key]
        await claiming.acquire()
        try:
            elsewhere = ChatRef("telegram", GROUP.community_id, "12", "Elsewhere")
            reply = await w1.service.settings(elsewhere, ALICE, True, ["utc_offset", "-5"])
            assert not reply.alert, reply.text
            await asyncio.wait_for(arrived.wait(), 10)
            await asyncio.sleep(0.3)  # (the news handled meanwhile, without the fix)
            note_zone(rt, read)  # the restore goes on with what it read (recovery.restore)
        finally:
            claiming.release()
        # then the news: the zone saved last
        await until(lambda: rt.zones.get(t.community_id) == -5.0, timeout=5, what="utc -5")
    finally:
        await w1.stop()
        await w2.stop()
