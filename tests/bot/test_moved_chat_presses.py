"""A lobby press from a group that moved (a Telegram group upgraded to a supergroup): Android
clients still press the old group's table message with the old chat id, and after a restart
the adapter no longer knows the move. The press answered "Unknown button." (forged) as a press
naming another chat's table does; it is out of date, and changes nothing."""

from __future__ import annotations

import dataclasses

from bot.model import ChatRef
from bot.presses import Join, Leave, encode
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, seated
from tests.bot.test_tournament_service import new_service, restarted

SUPERGROUP = dataclasses.replace(GROUP, chat_id="-200", community_id="-200")
ELSEWHERE = ChatRef("telegram", "-300", "-300", "Others")


async def test_a_lobby_press_from_the_group_before_its_upgrade_is_out_of_date() -> None:
    service, _presenter, store, clock = new_service(next_hand_delay=0)
    t = await seated(service, ALICE, BOB)
    assert t is not None
    old = t.version
    assert await service.migrate_chat("telegram", "-100", "-200")
    assert t.chat_id == "-200" and t.moved_from == "-100"
    seats = {s.user_id for s in t.seats.values()}
    await service.stop()
    service, _presenter = await restarted(store, clock)  # (the adapter's map is gone)
    t2 = service.table_in(SUPERGROUP)
    assert t2 is not None and t2.moved_from == "-100"
    for press in (Join(t2.id, f"L{old}"), Leave(t2.id, f"L{old}")):
        for who in (CAROL, ALICE):
            reply = await service.press(who, encode(press), GROUP)
            assert reply.alert and reply.text == tr("en", "err.stale"), (press, who, reply)
    # the same press from a chat the table never was in is forged, as before
    reply = await service.press(CAROL, encode(Join(t2.id, f"L{old}")), ELSEWHERE)
    assert reply.alert and reply.text == tr("en", "err.forged"), reply
    assert {s.user_id for s in t2.seats.values()} == seats
    # in the supergroup, Carol sits down with the table message's current button
    reply = await service.press(CAROL, encode(Join(t2.id, f"L{t2.version}")), SUPERGROUP)
    assert not reply.alert, reply.text
    assert t2.seat_of(CAROL.user_id) is not None
    assert await check_store(store) == []


async def test_a_move_storage_made_before_a_crash_is_known_after_the_restart() -> None:
    """The group moved in storage (community, wallets, table) and the bot crashed before the
    table's own step: the restored table takes the new chat from storage and knows the old
    one, so the old message's press is out of date there too."""
    service, _presenter, store, clock = new_service(next_hand_delay=0)
    t = await seated(service, ALICE, BOB)
    assert t is not None
    old = t.version
    assert await store.move_chat("telegram", "-100", "-200")  # (then the crash)
    service, _presenter = await restarted(store, clock)
    t2 = service.table_in(SUPERGROUP)
    assert t2 is not None and t2.chat_id == "-200" and t2.moved_from == "-100"
    reply = await service.press(CAROL, encode(Join(t2.id, f"L{old}")), GROUP)
    assert reply.alert and reply.text == tr("en", "err.stale"), reply
    assert t2.seat_of(CAROL.user_id) is None
    assert await check_store(store) == []
