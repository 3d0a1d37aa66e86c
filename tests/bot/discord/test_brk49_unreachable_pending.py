"""brk49: a DM hand posted later (Discord down at the deal: its seat holds the pending ref
the step committed) whose try is on its way when Bob's DMs are found closed by a background
write (another table's DM edit refused, 403/50007: the presenter tells the service,
:func:`bot.service.chats.player_unreachable`). fixrev kept the ref when the service writes
the hand then (``show_private``), but the service's own "unreachable" dropped it at every
table of Bob's: the try's post (Discord took it) was nobody's (``message_posted`` found no
seat holding the ref), and the next write of his hand posted a second one."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.discord.dc_world import BOB, world
from tests.bot.discord.shard_world import until
from tests.bot.discord.test_fixrev_closed_pending import _pending_hand_on_its_way, _write_hand


async def test_a_pending_hand_on_its_way_keeps_its_ref_when_bob_is_found_unreachable(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        seat, pending = await _pending_hand_on_its_way(w)
        # another table's DM edit refused (403/50007): the presenter's background path
        presenter._close_dms_of_channel(w.fake.dm_channels[BOB.id])
        await until(lambda: not seat.reachable, 5, "told unreachable")
        assert seat.private_ref == pending  # kept: the try on its way may post it
        w.fake.recover()
        await asyncio.wait_for(presenter.flush(), 10)
        [hand] = w.fake.dm_messages(BOB.id)
        ref = f"{w.fake.dm_channels[BOB.id]}:{hand['id']}"
        assert seat.private_ref == ref  # the post is the seat's
        presenter.user_seen(str(BOB.id), in_dm=True)  # Bob presses in his DMs again
        await _write_hand(w, seat)
        await asyncio.wait_for(presenter.flush(), 10)
        assert [m["id"] for m in w.fake.dm_messages(BOB.id)] == [hand["id"]]  # not two
        assert seat.private_ref == ref and seat.reachable
