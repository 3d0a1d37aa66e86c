"""Attacks on the busy lobby (tests/bot/test_busy_lobby.py): a lobby press on an older
version of the table message that counts must mean for its presser what it meant when it
was pressed. A Join double-tapped with Leave pressed between (the second tap late) seated
the player again, and a Register so took a second buy-in; a Ready from before an admin
changed the buy-in in the lobby bought in at the new one. What held is pinned too: a Ready
after sitting out, a Register after the start, a restart, a press delivered again, a
computer player seated or removed between."""

from __future__ import annotations

import random
from pathlib import Path

from bot.presses import Join, Leave, Ready, Register, StartTournament, Unregister, encode
from bot.service import TableService
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_busy_lobby import STALE, _join_button, _lobby, _table, _tournament, _v
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import CAROL as TG_CAROL
from tests.bot.tg_world import GROUP_ID, world


async def test_r8_2_a_late_join_tap_after_leave_does_not_seat_again() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _lobby(service)
    shown = _v(t)
    assert not (await service.press(BOB, encode(Join(t.id, shown)), GROUP)).alert
    assert not (await service.press(BOB, encode(Leave(t.id, _v(t))), GROUP)).alert
    assert t.seat_of("2") is None
    # the second tap of his Join, pressed before Leave, arrives now: out of date
    reply = await service.press(BOB, encode(Join(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert t.seat_of("2") is None
    # a Ready of his from before he left neither (he sat down again since)
    assert not (await service.join(GROUP, BOB)).alert
    reply = await service.press(BOB, encode(Ready(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    bob = t.seat_of("2")
    assert bob is not None and not bob.ready and bob.stack == 0
    # Carol's Join of that same version, who never left, still counts; and a Join of Bob's
    # on a version shown after he left counts as well
    after = _v(t)
    assert not (await service.press(CAROL, encode(Join(t.id, shown)), GROUP)).alert
    assert not (await service.press(BOB, encode(Leave(t.id, _v(t))), GROUP)).alert
    later = _v(t)
    await service.rt.show_group(t)
    assert not (await service.press(BOB, encode(Join(t.id, later)), GROUP)).alert
    assert t.seat_of("2") is not None and t.seat_of("3") is not None
    assert int(after[1:]) < int(later[1:])
    assert await check_store(store) == []


async def test_r8_7_a_late_register_tap_after_unregister_takes_no_second_buy_in() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _tournament(service, buy_in="33")
    tour = t.tournament
    assert tour is not None
    shown = _v(t)
    assert not (await service.press(BOB, encode(Register(t.id, shown)), GROUP)).alert
    assert tour.pool == 33
    assert not (await service.press(BOB, encode(Unregister(t.id, _v(t))), GROUP)).alert
    assert tour.pool == 0 and t.seat_of("2") is None
    reply = await service.press(BOB, encode(Register(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert tour.pool == 0 and t.seat_of("2") is None
    assert await check_store(store) == []


async def test_r8_2_a_ready_from_before_the_buy_in_changed_is_out_of_date() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _lobby(service, ALICE, BOB, CAROL)
    shown = _v(t)  # its Ready buys in at 200
    old = t.min_buy_in
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", str(old * 2)])
    assert not reply.alert and t.min_buy_in == old * 2  # (applies in the lobby at once)
    reply = await service.press(BOB, encode(Ready(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    bob = t.seat_of("2")
    assert bob is not None and not bob.ready and bob.stack == 0
    # one on the message shown since, older than the current one, counts at the new buy-in
    since = _v(t)
    assert not (await service.press(ALICE, encode(Ready(t.id, since)), GROUP)).alert
    assert not (await service.press(BOB, encode(Ready(t.id, since)), GROUP)).alert
    assert bob.ready and bob.stack == old * 2
    assert await check_store(store) == []


async def test_r8_6_a_late_ready_tap_does_not_bring_a_sat_out_player_back() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _lobby(service, ALICE, BOB, CAROL)
    shown = _v(t)
    assert not (await service.press(BOB, encode(Ready(t.id, shown)), GROUP)).alert
    assert not (await service.sit_out(GROUP, BOB)).alert
    bob = t.seat_of("2")
    assert bob is not None and bob.sitting_out and bob.stack == t.min_buy_in
    reply = await service.press(BOB, encode(Ready(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert bob.sitting_out and bob.stack == t.min_buy_in
    assert await check_store(store) == []


async def test_r8_7_a_register_from_before_the_start_is_out_of_date() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _tournament(service)
    tour = t.tournament
    assert tour is not None
    shown = _v(t)
    for a in (ALICE, BOB):
        assert not (await service.press(a, encode(Register(t.id, shown)), GROUP)).alert
    reply = await service.press(ALICE, encode(StartTournament(t.id, _v(t))), GROUP, _admin)
    assert not reply.alert, reply.text
    pool = tour.pool
    reply = await service.press(CAROL, encode(Register(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert t.seat_of("3") is None and tour.pool == pool
    assert await check_store(store) == []


async def _admin() -> bool:
    return True


async def test_only_the_current_version_counts_after_a_restart() -> None:
    service, _presenter, store, clock = service_env()
    t = await _lobby(service)
    shown = _v(t)
    assert not (await service.press(ALICE, encode(Join(t.id, shown)), GROUP)).alert
    before = _v(t)  # the message as the bot stopped
    await service.stop()
    again = TableService(store, clock=clock, rng=random.Random(9), next_hand_delay=0, timers=False)
    again.register(FakePresenter())
    await again.start()
    t2 = _table(again)
    await again.rt.show_group(t2)  # (the table message moves on after the restart)
    assert not t2.lobby_version(before)
    for old in (shown, before):
        reply = await again.press(BOB, encode(Join(t2.id, old)), GROUP)
        assert reply.alert and reply.text in STALE, (old, reply.text)
    assert t2.seat_of("2") is None
    # a version shown after the restart, older than the current one, counts
    since = _v(t2)
    await again.rt.show_group(t2)
    assert not (await again.press(BOB, encode(Join(t2.id, since)), GROUP)).alert
    assert t2.seat_of("2") is not None
    await again.stop()


async def test_a_join_delivered_again_counts_once() -> None:
    service, _presenter, _store, _clock = service_env()
    t = await _lobby(service)
    shown = _v(t)
    assert not (await service.press(ALICE, encode(Join(t.id, shown)), GROUP)).alert
    reply = await service.press(BOB, encode(Join(t.id, shown)), GROUP, request="tg:1:7")
    assert not reply.alert, reply.text
    assert not (await service.press(BOB, encode(Leave(t.id, _v(t))), GROUP)).alert
    t.lobby_left.clear()  # (the delivery key alone refuses it)
    reply = await service.press(BOB, encode(Join(t.id, shown)), GROUP, request="tg:1:7")
    assert reply.alert and reply.text in STALE, reply.text
    assert t.seat_of("2") is None


async def test_r8_2_a_computer_player_seated_or_removed_between() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _lobby(service, ALICE)
    shown = _v(t)  # a seat free for Carol
    while len(t.seats) < t.options.max_players:
        assert not (await service.add_bot(GROUP, ALICE, True)).alert
    # the table full: the current message offers no Join, so the old one counts not
    reply = await service.press(CAROL, encode(Join(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert t.seat_of("3") is None
    assert not (await service.remove_bot(GROUP, ALICE, True)).alert
    # a seat free again: her Join means what it meant then
    assert not (await service.press(CAROL, encode(Join(t.id, shown)), GROUP)).alert
    assert t.seat_of("3") is not None
    assert await check_store(store) == []


async def test_r8_2_a_ready_from_before_the_point_changed_is_out_of_date() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _lobby(service, ALICE, BOB, CAROL)
    shown = _v(t)  # its Ready plays for 1 kush a point
    point = t.options.kush_per_point
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", str(point * 2)])
    assert not reply.alert and t.options.kush_per_point == point * 2, reply.text
    reply = await service.press(BOB, encode(Ready(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    bob = t.seat_of("2")
    assert bob is not None and not bob.ready and bob.stack == 0
    assert await check_store(store) == []


async def test_telegram_a_late_join_tap_after_leave_does_not_seat_again(tmp_path: Path) -> None:
    """End to end through python-telegram-bot: Bob's Join tapped twice on one table message,
    Leave pressed between, the second tap handled last: out of date, he stays up; Carol's
    tap of that same Join seats her."""
    async with world(tmp_path) as w:
        await w.say(TG_ALICE, "/newtable")
        message, join = _join_button(w)
        assert not (await w.press(TG_BOB, GROUP_ID, message, join)).get("show_alert")
        t = next(iter(w.service.tables.values()))
        assert t.seat_of(str(TG_BOB.id)) is not None
        await w.press_lobby(TG_BOB, "l")
        assert t.seat_of(str(TG_BOB.id)) is None
        answer = await w.press(TG_BOB, GROUP_ID, message, join)
        assert answer.get("show_alert") and answer.get("text") in STALE, answer
        assert t.seat_of(str(TG_BOB.id)) is None
        assert not (await w.press(TG_CAROL, GROUP_ID, message, join)).get("show_alert")
        assert t.seat_of(str(TG_CAROL.id)) is not None
