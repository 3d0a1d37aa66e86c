"""Items earlier break-it sessions left (fixleft2), through the real client libraries
against the local fakes."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.model import PENDING_PREFIX
from bot.presses import SettingStep, decode
from bot.service import TableService
from bot.service import stats as stats_mod
from bot.service.settings import table_options
from bot.telegram.fake_api import ApiCall
from bot.texts import tr
from bot.thinking import Thinker
from storage.api import HandRecord, Store
from storage.check import check_store
from storage.sqlite import SqliteStore
from tests.bot import test_service as svc
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_transitions import player_balance
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world
from tests.game.helpers import deal
from tests.game.test_history import stored


def table_send(c: ApiCall) -> bool:
    """A sendMessage to the group with buttons: the table message."""
    return (
        c.method == "sendMessage"
        and int(c.params.get("chat_id", 0)) == GROUP_ID
        and bool(c.params.get("reply_markup"))
    )


def table_messages(w: World) -> list[dict[str, object]]:
    return [m for m in w.fake.chat_messages(GROUP_ID) if w.fake.buttons(m)]


async def test_a_second_newtable_posts_the_table_message_its_reset_send_left_unposted(
    tmp_path: Path,
) -> None:
    """R8.2: the connection of the table message's send at /newtable is reset before
    Telegram took it (it cannot be told from an answer lost after the post: perhaps posted,
    not sent again). The group had no table message, and a second /newtable only said "a
    table is open here", with no link. It posts the table message now, once: a third
    /newtable answers with its link and posts nothing; Bob joins on it."""
    async with world(tmp_path) as w:
        w.fake.drop(table_send, done=False)
        await w.say(ALICE, "/newtable")
        await w.settle()
        t = next(iter(w.service.tables.values()))
        assert table_messages(w) == []
        assert t.group_ref is not None and t.group_ref.startswith(PENDING_PREFIX)
        reply = await w.say(BOB, "/newtable")
        assert f"#{t.id}" in str(reply["text"])
        await w.settle()
        await w.fake.wait_for(lambda: t.group_ref and t.group_ref.isdigit())
        posted = table_messages(w)
        assert len(posted) == 1 and str(posted[0]["message_id"]) == t.group_ref
        assert w.table_message() == posted[0]
        reply = await w.say(ALICE, "/newtable")
        await w.settle()
        link = w.service.rt.table_link(t)
        assert link is not None and link in str(reply["text"])
        assert len(table_messages(w)) == 1
        assert not (await w.press_lobby(BOB, "j")).get("show_alert")
        assert t.seat_of(str(BOB.id)) is not None
        assert len(table_messages(w)) == 1
        assert await check_store(w.store) == []


async def test_a_join_posts_the_table_message_its_reset_send_left_unposted(
    tmp_path: Path,
) -> None:
    """R8.2: the same reset; Bob's /join seats him and posts the table message, once."""
    async with world(tmp_path) as w:
        w.fake.drop(table_send, done=False)
        await w.say(ALICE, "/newtable")
        await w.settle()
        t = next(iter(w.service.tables.values()))
        assert table_messages(w) == []
        await w.say(BOB, "/join")
        await w.settle()
        await w.fake.wait_for(lambda: t.group_ref and t.group_ref.isdigit())
        assert t.seat_of(str(BOB.id)) is not None
        posted = table_messages(w)
        assert len(posted) == 1 and str(posted[0]["message_id"]) == t.group_ref
        assert await check_store(w.store) == []


async def _down_with_the_ready_timer_run_out(db: Path) -> tuple[Store, Clock]:
    """Alice and Bob ready, Carol seated and not: the ready timer (R8.2) runs out and the
    bot stops before its timer fired; while it is down an admin's ``ready_seconds 120`` is
    saved (another process: no table of its own takes it)."""
    store = await SqliteStore.open(db)
    service, _presenter, _store, clock = service_env(store=store)
    await service.start()
    await service.new_table(svc.GROUP, svc.ALICE)
    for a in (svc.ALICE, svc.BOB, svc.CAROL):
        assert not (await service.join(svc.GROUP, a)).alert
    await service.ready(svc.GROUP, svc.ALICE)
    await service.ready(svc.GROUP, svc.BOB)
    t = service.table_in(svc.GROUP)
    assert t is not None and t.ready_deadline is not None and t.hand is None
    clock.now = t.ready_deadline + 1
    await service.stop()
    other = TableService(store, clock=clock, rng=random.Random(1), timers=False)
    other.register(FakePresenter())
    reply = await other.settings(svc.GROUP, svc.ALICE, True, ["ready_seconds", "120"])
    assert not reply.alert, reply.text
    return store, clock


async def test_r8_2_a_restart_makes_the_overdue_ready_step_before_the_missed_settings(
    tmp_path: Path,
) -> None:
    """R8.2: the ready timer ran out while the bot was stopping and ``ready_seconds`` was
    raised while it was down. Restored, the table took the missed setting first, which gave
    the timer that had run out 60 s more (Carol kept her seat, no hand), where a live table
    makes the overdue step first (:meth:`Runtime.overdue_first`): Carol stands up, the hand
    of Alice and Bob is dealt; the new setting applies all the same."""
    store, clock = await _down_with_the_ready_timer_run_out(tmp_path / "r.sqlite3")
    try:
        service = TableService(store, clock=clock, rng=random.Random(5), timers=False)
        service.register(FakePresenter())
        await service.start()
        t = service.table_in(svc.GROUP)
        assert t is not None
        assert t.seat_of(svc.CAROL.user_id) is None
        assert t.hand is not None and t.hand_no == 1 and len(t.hand.order) == 2
        assert (t.pending_options or t.options).ready_seconds == 120
        assert await check_store(store) == []
        await service.stop()
    finally:
        await store.close()


async def test_r8_2a_a_restart_makes_the_overdue_idle_close_before_the_missed_settings(
    tmp_path: Path,
) -> None:
    """R8.2a: Alice sat alone until the idle close was due and the bot stopped before its
    timer fired; ``idle_close_seconds`` was raised to an hour while it was down. Restored,
    the table took the missed setting first and stayed open another half hour; now the
    close is made first, as on a live table: closed, Alice's stack back once, the chat free
    for a new table."""
    store = await SqliteStore.open(tmp_path / "i.sqlite3")
    try:
        service, _presenter, _store, clock = service_env(store=store)
        await service.start()
        await service.new_table(svc.GROUP, svc.ALICE)
        assert not (await service.join(svc.GROUP, svc.ALICE)).alert
        assert not (await service.ready(svc.GROUP, svc.ALICE)).alert
        clock.now += 1800
        await service.stop()
        other = TableService(store, clock=clock, rng=random.Random(1), timers=False)
        other.register(FakePresenter())
        reply = await other.settings(svc.GROUP, svc.ALICE, True, ["idle_close_seconds", "3600"])
        assert not reply.alert, reply.text
        service = TableService(store, clock=clock, rng=random.Random(5), timers=False)
        presenter = FakePresenter()
        service.register(presenter)
        await service.start()
        assert service.table_in(svc.GROUP) is None
        for closed in list(service.rt.closing.values()):  # (its last messages)
            await service.rt.settled(closed)
        assert any("no hand for" in s.text for s in presenter.tables[svc.GROUP.chat_id])
        assert await player_balance(store, svc.ALICE) == 1000
        assert not (await service.new_table(svc.GROUP, svc.ALICE)).alert
        assert service.table_in(svc.GROUP) is not None
        assert await check_store(store) == []
        await service.stop()
    finally:
        await store.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_two_plus_presses_at_once_on_one_settings_list_move_the_value_once(
    lang: str, tmp_path: Path
) -> None:
    """Two admins press "+" of ``ready_seconds`` at the same moment on the same list. Both
    passed the out-of-date check, made before the change's transaction, and each was
    saved: the value moved two steps, the second from a value its list did not show. The
    check is made on the settings as stored, in that transaction: the second press is out
    of date (in the presser's language) and saves nothing."""
    store = await SqliteStore.open(tmp_path / "s.sqlite3")
    try:
        service, _presenter, _store, _clock = service_env(store=store)
        admin = svc.ALICE if lang == "en" else svc.BOB
        listed = (await service.settings(svc.GROUP, admin, True, ["all"])).screen
        assert listed is not None
        plus = next(
            b.data
            for b in listed.all_buttons()
            if isinstance(p := decode(b.data), SettingStep) and p.code == "rs" and p.op == "+"
        )
        stored = (await store.community("telegram", svc.GROUP.chat_id)).settings
        before = table_options(stored, None).ready_seconds
        both_read = asyncio.Barrier(2)

        async def is_admin() -> bool:  # (asked after each press read the settings)
            await both_read.wait()
            return True

        replies = await asyncio.gather(
            *(
                service.press(admin, plus, svc.GROUP, is_admin, request=f"tg:-100:{n}")
                for n in (1, 2)
            )
        )
        stale = [r for r in replies if r.text == tr(lang, "err.stale_settings")]
        saved = [r for r in replies if r not in stale]
        assert len(stale) == 1 and stale[0].alert
        assert len(saved) == 1 and not saved[0].alert, saved
        after = (await store.community("telegram", svc.GROUP.chat_id)).settings
        assert table_options(after, None).ready_seconds == before + 15 == 75
        assert await check_store(store) == []
    finally:
        await store.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r6_3_a_fantasyland_replay_steps_once_through_streets_that_showed_the_same(
    lang: str,
) -> None:
    """R6.3: heads-up, Alice in Fantasyland sets her board while Bob plays his streets
    hidden. Her ``/replay`` stepped through four identical frames (Bob's board hidden, her
    dealt cards) before the showdown; it is one step now, "Streets 1–4 of 5", then the
    showdown, ▶ and ◀ between the two. Bob, whose own board moves each street, keeps his
    five frames."""
    hand = deal("", seats=(0, 1), button=1, fantasyland={0: 14})
    while not hand.is_over:
        hand.timeout(hand.to_act[0])
    assert hand.result is not None
    record = HandRecord(7, 1, 3, stored(hand), hand.result.to_json(), {0: 10, 1: 11}, 0.0)
    names = {0: "Alice", 1: "Bob"}
    frames = await stats_mod._frames(Thinker(False), record, 0)
    assert [(f.first, f.street, f.final) for f in frames] == [(1, 4, False), (0, 5, True)]
    first = stats_mod.replay_screen(record, frames, 1, 0, names, lang)
    lines = first.text.splitlines()
    assert lines[1] == tr(lang, "replay.streets", first=1, street=4, streets=5)
    assert lines[1] == ("Streets 1–4 of 5" if lang == "en" else "Улицы 1–4 из 5")
    assert lines[lines.index("Bob:") + 1] == "  " + tr(lang, "board.hidden")
    assert [b.label for row in first.buttons for b in row] == ["▶"]
    last = stats_mod.replay_screen(record, frames, 2, 0, names, lang)
    assert last.text.splitlines()[1] == tr(lang, "replay.showdown")
    assert [b.label for row in last.buttons for b in row] == ["◀"]
    bob = await stats_mod._frames(Thinker(False), record, 1)
    assert [(f.first, f.street) for f in bob] == [(0, k) for k in range(1, 6)]
    assert len({(f.boards, f.discards) for f in bob}) == 5
    text = stats_mod.replay_screen(record, bob, 2, 1, names, lang).text
    assert text.splitlines()[1] == tr(lang, "replay.street", street=2, streets=5)
