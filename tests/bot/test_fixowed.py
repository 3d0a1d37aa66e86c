"""fixowed: the private messages a step read back as saved owes its players (the "hand over"
screens of a Leave that ended the hand, :attr:`Runtime.owed_privates`) are kept with the
table in storage (:data:`~bot.service.runtime.OWED_KEY`) until a committed step carried
them: a crash before that step, a stop whose last try is refused too, or the table taken
over by another worker no longer loses them (they were kept in memory only), and once a
committed step carried them a later restart does not send them again; read back by the
restarted bot, they skip a seat someone else sits in by then."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bot.model import HAND_VIEW_PREFIX, PENDING_PREFIX, LiveTable, SeatState
from bot.screens import Button, Screen
from bot.service import TableService, recovery
from bot.service.runtime import OWED_KEY, owed_from_json, owed_to_json
from bot.texts import on, tr
from storage.api import Move
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.test_fixrb import OtherStepStore, leave_ends_the_hand
from tests.bot.test_fixstop_unsure import RefPresenter, service_on
from tests.bot.test_service import CAROL, GROUP


class RecordingStore(OtherStepStore):
    """:class:`OtherStepStore` that records the snapshot of each commit it applied."""

    def __init__(self) -> None:
        super().__init__()
        self.committed: list[Mapping[str, Any] | None] = []

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        ids = await super().commit(table_id, moves, snapshot, key=key, close=close)
        self.committed.append(snapshot)
        return ids


def hand_over_count(presenter: RefPresenter, t: LiveTable, actors: list[Any]) -> int:
    """How many "hand over" screens of hand 1 at ``t`` ``actors`` got from ``presenter``."""
    n = 0
    for actor in actors:
        over = tr(str(actor.language), on("telegram", "private.over"), table=t.id, hand=1)
        n += [s.text for s in presenter.privates.get(actor.user_id, [])].count(over)
    return n


def told_once(
    presenter: RefPresenter, t: LiveTable, actors: list[Any], refs: dict[str, str | None]
) -> None:
    """Each of ``actors`` got hand 1's "hand over" screen from ``presenter`` once, over their
    hand message (``refs``)."""
    for actor in actors:
        over = tr(str(actor.language), on("telegram", "private.over"), table=t.id, hand=1)
        got = [s.text for s in presenter.privates.get(actor.user_id, [])]
        assert got.count(over) == 1, (actor.name, got)
        assert presenter.over[actor.user_id][got.index(over)] == refs[actor.user_id]


async def refused_until_kept(
    service: TableService, store: OtherStepStore, t: LiveTable, other: Any, refused: int
) -> LiveTable:
    """The other player's Leave reads the leaver's saved: the table is restored anew, and
    its first step (the resume's) and the step of their own after it (``refused`` commits
    in all) are refused by the database. Returns the table served again."""
    store.refuse = refused
    reply = await service.leave(GROUP, other)
    assert reply.alert
    for _ in range(500):
        t2 = service.table_in(GROUP)
        if store.refuse == 0 and t2 is not None and t2 is not t:
            break
        await asyncio.sleep(0.01)
    t2 = service.table_in(GROUP)
    assert store.refuse == 0 and t2 is not None and t2 is not t
    await service.rt.settled(t)
    await service.rt.settled(t2)
    return t2


async def killed(service: TableService) -> None:
    """The process of ``service`` is killed: nothing of it runs any more (its restore anew,
    paused before its next try, never wakes)."""
    for task in list(service.rt.renewing.values()):
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def restarted(store: OtherStepStore, clock: Clock) -> tuple[TableService, RefPresenter]:
    presenter = RefPresenter()
    service = service_on(store, clock, presenter)
    await service.start()
    await service.rt.drain()
    for t in list(service.rt.tables.values()):
        await service.rt.settled(t)
    return service, presenter


async def stored_owed(store: OtherStepStore, table_id: int) -> object:
    state = await store.table_state(table_id)
    assert state is not None
    return state[1].get(OWED_KEY)


async def test_r8_5_owed_messages_of_a_step_read_back_survive_a_crash_before_they_are_sent() -> (
    None
):
    """The Leave that ended the hand is read back as saved by the other player's Leave and
    the table is served again; its first step and the step of the owed messages' own are
    refused, and the bot is killed before it tries again. The restarted bot never told
    either player the hand was over (they were kept in memory only). Now they are kept in
    the table's snapshot: the restarted bot sends each "hand over" once, over their hand
    message, with the restored table's first step, whose snapshot no longer holds them; a
    second restart sends nothing again."""
    store, clock = RecordingStore(), Clock()
    service, presenter, t, leaver, other, refs, _ = await leave_ends_the_hand(store, clock)
    await refused_until_kept(service, store, t, other, refused=2)
    await killed(service)
    assert hand_over_count(presenter, t, [leaver, other]) == 0  # (not told before the crash)
    assert await stored_owed(store, t.id)  # (kept with the table)
    store.committed.clear()
    restart, p2 = await restarted(store, clock)
    # the step that carried them (the resume's) committed a snapshot without them
    assert store.committed and store.committed[0] is not None
    assert OWED_KEY not in store.committed[0]
    t2 = restart.table_in(GROUP)
    assert t2 is not None and t2.hand is None and t2.seat_of(leaver.user_id) is None
    told_once(p2, t, [leaver, other], refs)
    assert not restart.rt.owed_privates and await stored_owed(store, t.id) is None
    await restart.stop()
    _, p3 = await restarted(store, clock)
    assert hand_over_count(p3, t, [leaver, other]) == 0
    assert await check_store(store) == []


async def test_r8_5_owed_messages_of_a_step_read_back_are_sent_by_the_worker_taking_over() -> None:
    """As above, but the worker loses the table's lease instead (issue 14: it lets the table
    go, :func:`recovery.release`) and another worker takes it over
    (:meth:`TableService.adopt`). The first worker's let-go dropped the owed messages and
    the other worker knew nothing of them; now it reads them from the table's snapshot and
    sends each player's "hand over" once, over their hand message; the first worker sends
    none."""
    store, clock = OtherStepStore(), Clock()
    a, a_presenter, t, leaver, other, refs, _ = await leave_ends_the_hand(store, clock)
    t2 = await refused_until_kept(a, store, t, other, refused=2)
    await recovery.release(a.rt, t2)  # (the lease lost: let go, nothing written)
    # (the next try of A's restore anew would be refused by the fenced store; this memory
    # store fences nothing, so it is stopped here)
    await killed(a)
    assert not a.rt.owed_privates and a.table_in(GROUP) is None
    b_presenter = RefPresenter()
    b = service_on(store, clock, b_presenter)
    assert await b.adopt(t.id)
    t3 = b.table_in(GROUP)
    assert t3 is not None
    await b.rt.settled(t3)
    told_once(b_presenter, t, [leaver, other], refs)
    assert hand_over_count(a_presenter, t, [leaver, other]) == 0
    assert not b.rt.owed_privates and await stored_owed(store, t.id) is None
    assert await check_store(store) == []


async def test_r8_5_owed_messages_kept_through_a_refused_stop_are_sent_once_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As above, the bot stops while the owed messages are still owed and the stop's last
    try to send them is refused too: the next start lost them. Now the stop saves them with
    the table: the next start sends each once; once that start's step carried them (storage
    no longer holds them), a later restart does not send them again."""
    monkeypatch.setattr("bot.service.runtime.RENEW_RETRY_SECONDS", 30.0)  # (the stop cuts it)
    store, clock = OtherStepStore(), Clock()
    service, presenter, t, leaver, other, refs, _ = await leave_ends_the_hand(store, clock)
    await refused_until_kept(service, store, t, other, refused=2)
    store.refuse = 1  # (the stop's last try)
    await service.stop()
    assert store.refuse == 0 and service.rt.owed_privates  # (tried, refused)
    assert hand_over_count(presenter, t, [leaver, other]) == 0
    second, p2 = await restarted(store, clock)
    told_once(p2, t, [leaver, other], refs)
    assert await stored_owed(store, t.id) is None
    await second.stop()
    _, p3 = await restarted(store, clock)
    assert hand_over_count(p3, t, [leaver, other]) == 0
    assert await check_store(store) == []


def test_owed_messages_read_from_a_snapshot_keep_only_refs_that_mean_something_there() -> None:
    """Another process reads the owed messages from the table's snapshot
    (:func:`owed_from_json`): a hand message posted for certain is written over; one not
    posted for certain (a pending ref, known to the process that made it only) or a view
    of the hand only the presser saw is not (posted anew); a computer player's item or one
    that cannot be read is left out."""
    screen = Screen("🃏 hand over", ((Button("Rules", "1:v:rules"),),))
    owed = {
        0: (SeatState(0, 1, "u1", "Ann", "en", private_ref="p7"), screen),
        1: (SeatState(1, 2, "u2", "Bo", "en", private_ref=f"{PENDING_PREFIX}ab"), screen),
        2: (SeatState(2, 3, "u3", "Cy", "ru", private_ref=f"{HAND_VIEW_PREFIX}9"), screen),
        3: (SeatState(3, 4, "bot:4", "Bot", "en", bot="strong"), screen),
    }
    items = [*owed_to_json(owed), {"seat": 5, "text": "no seat"}]
    back = owed_from_json(7, json.loads(json.dumps(items)))
    assert sorted(back) == [0, 1, 2]
    assert [back[n][0].private_ref for n in (0, 1, 2)] == ["p7", None, None]
    assert [back[n][0].user_id for n in (0, 1, 2)] == ["u1", "u2", "u3"]
    assert back[0][1] == Screen(screen.text, screen.buttons, table=7)
    assert owed_from_json(7, None) == {}


async def test_r8_5_owed_messages_read_back_after_a_crash_skip_a_seat_someone_else_took() -> None:
    """As the crash above; the restarted bot's first step is refused too, and Carol sits
    down in the seat the leaver left before a step carries what the Leave owed: that step
    (her Join) tells the other player the hand is over, over their hand message, and
    writes nothing owed over Carol's seat (the leaver's screen is not hers): she gets only
    her own screens."""
    store, clock = OtherStepStore(), Clock()
    service, _p, t, leaver, other, refs, _ = await leave_ends_the_hand(store, clock)
    left = t.seat_of(leaver.user_id)
    assert left is not None
    seat = left.seat
    await refused_until_kept(service, store, t, other, refused=2)
    await killed(service)
    store.refuse = 1  # (the restarted bot's resume)
    restart, p2 = await restarted(store, clock)
    assert store.refuse == 0 and restart.rt.owed_privates
    assert hand_over_count(p2, t, [leaver, other]) == 0
    await restart.join(GROUP, CAROL)
    t2 = restart.table_in(GROUP)
    assert t2 is not None
    carol = t2.seat_of(CAROL.user_id)
    assert carol is not None and carol.seat == seat  # (the leaver's seat)
    await restart.rt.settled(t2)
    told_once(p2, t, [other], refs)
    assert hand_over_count(p2, t, [leaver, CAROL]) == 0
    owed = tr(str(leaver.language), on("telegram", "private.over"), table=t.id, hand=1)
    assert owed not in [s.text for s in p2.privates.get(CAROL.user_id, [])]
    assert not restart.rt.owed_privates and await stored_owed(store, t.id) is None
    assert await check_store(store) == []
