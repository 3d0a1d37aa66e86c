"""fixopen end to end (Telegram, through the fake Bot API): the opener of a cash table who
leaves passes ``/addbot`` on to the player seated longest (R8.2, R8.2a)."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from storage.check import check_store
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


async def test_r8_2_the_opener_leaving_the_group_lets_the_one_left_seat_a_computer_player(
    tmp_path: Path,
) -> None:
    """Alice opens a table, she and Bob sit down; Bob's /addbot is refused, naming Alice.
    Alice leaves the group (her seat with it): Bob, alone, could not seat a computer
    opponent (only an admin could) and waited for another person or the idle close. Now
    the group's notice of her leaving says Bob may (one message), and his /addbot seats
    one he plays against."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable")
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        reply = await w.say(BOB, "/addbot")
        assert reply["text"] == tr("ru", "bot.admins_or_name", name="Alice"), reply
        t = next(iter(w.service.tables.values()))
        before = len(w.fake.chat_messages(GROUP_ID))
        await w.fake.remove_member(GROUP_ID, ALICE)
        await w.fake.wait_for(lambda: (t.seat_of(str(ALICE.id)) is None) or None)
        await w.settle()
        new = [m["text"] for m in w.fake.chat_messages(GROUP_ID)[before:]]
        assert new == [
            "👋 Alice left the group and the table.\nBob may now seat computer players: /addbot"
        ], new
        reply = await w.say(BOB, "/addbot")
        assert reply["text"] == tr("ru", "bot.added", name="🤖 Anna", level="средний"), reply
        assert not (await w.press_lobby(BOB, "r")).get("show_alert")
        await w.settle()
        assert t.hand is not None and sorted(s.name for s in t.seats.values()) == [
            "Bob",
            "🤖 Anna",
        ]
        assert await check_store(w.store) == []
