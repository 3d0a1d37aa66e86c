"""fixrev (rev list 1): Bob's DM hand is pending (Discord down at the deal) when his DMs are
taken for closed (another table's DM refused, 403/50007) and the service writes his hand:
``show_private`` answered "closed" before it looked at the pending message, so the service
dropped the ref while the presenter could still post under it (a try on its way, or the
next try once Bob's DMs opened again): that post was nobody's, and the service's next write
posted a second hand. Now a pending hand that no try is carrying is dropped with the ref
(nothing is posted under it), and one a try carries keeps its ref (the post is the seat's)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.model import PENDING_PREFIX, SeatState
from tests.bot.discord.dc_world import BOB, World, world
from tests.bot.discord.shard_world import until
from tests.bot.discord.test_discord_delivery import dm_of, dm_posts, joined


async def _pending_hand(w: World) -> tuple[SeatState, str]:
    """Bob's ready deals the hand while Discord refuses his DMs' new messages (503): his
    seat holds the pending ref of the hand the presenter posts later."""
    await joined(w)
    w.fake.outage(dm_of(w, BOB))
    record = await w.fake.slash(BOB, "ready")
    await w.fake.wait_for(lambda: record.answered)
    seat = w.table().seat_of(str(BOB.id))
    assert seat is not None and seat.private_ref is not None
    pending = seat.private_ref
    assert pending.startswith(PENDING_PREFIX)
    presenter = w.adapter.presenter
    await until(lambda: pending in presenter._pending, 5, "refused: posted later")
    return seat, pending


async def _pending_hand_on_its_way(w: World) -> tuple[SeatState, str]:
    """:func:`_pending_hand` (the presenter trying again after 0.05 s, then 0.8 s), then
    Discord takes Bob's DMs again and the next try posts the hand, its answer held back
    (30 s): the try is on its way, the seat still holds the pending ref."""
    presenter = w.adapter.presenter
    presenter.edit_retries = (0.05, 0.8)
    seat, pending = await _pending_hand(w)
    w.fake.recover()
    w.fake.hold(dm_of(w, BOB), 30)  # the next try posts it; its answer comes late
    await until(lambda: len(w.fake.dm_messages(BOB.id)) == 1, 5, "posted")
    assert presenter._pending[pending].trying
    return seat, pending


async def _write_hand(w: World, seat: SeatState) -> None:
    t = w.table()
    rt = w.service.rt
    async with t.lock:
        await rt.send_private(t, w.adapter.presenter, seat, rt.render_private(t, seat))


async def test_a_waiting_pending_hand_written_while_dms_are_closed_is_dropped(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 2.0)
        seat, pending = await _pending_hand(w)
        await w.fake.wait_for(lambda: len(dm_posts(w, BOB)) >= 2)  # (its writer waits 2 s)
        await until(lambda: not presenter._pending[pending].trying, 5, "waiting")
        presenter._dms_closed(str(BOB.id))  # (another table's DM refused)
        await _write_hand(w, seat)
        assert seat.private_ref is None and not seat.reachable
        presenter.user_seen(str(BOB.id), in_dm=True)  # Bob opens his DMs and presses
        w.fake.recover()
        await asyncio.sleep(2.5)  # (past the writer's wait: it posted the hand then)
        await asyncio.wait_for(presenter.flush(), 10)
        assert w.fake.dm_messages(BOB.id) == []  # nothing posted under the dropped ref
        await _write_hand(w, seat)
        await asyncio.wait_for(presenter.flush(), 10)
        [hand] = w.fake.dm_messages(BOB.id)  # one hand, not two
        assert seat.private_ref == f"{w.fake.dm_channels[BOB.id]}:{hand['id']}"
        assert seat.reachable


async def test_a_pending_hand_on_its_way_keeps_its_ref_when_dms_are_closed(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        seat, pending = await _pending_hand_on_its_way(w)
        presenter._dms_closed(str(BOB.id))  # (another table's DM refused)
        await _write_hand(w, seat)
        assert seat.private_ref == pending  # kept: the try on its way may post it
        w.fake.recover()
        await asyncio.wait_for(presenter.flush(), 10)
        [hand] = w.fake.dm_messages(BOB.id)
        assert seat.private_ref == f"{w.fake.dm_channels[BOB.id]}:{hand['id']}"
