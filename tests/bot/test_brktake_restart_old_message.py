"""brktake: the table message from before a restart. A restart posts the table message anew
(:func:`bot.service.recovery.resume`; a worker taking a table over writes over the old one
instead, tests/bot/cluster/test_takeover_table_message.py); the old one's buttons work while
the table is in the state it shows. Once the table moved on, the old message kept its
buttons, live to the eye, each answering "out of date": the group had two table messages
with buttons for good. It is written as moved now, its buttons gone."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.fake_api import BOT_ID, FakeTelegram
from bot.texts import tr
from tests.bot.test_telegram_chats import lobby_data
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TOKEN, World, world


def _with_buttons(w: World) -> list[int]:
    return sorted(
        mid
        for (chat, mid), m in w.fake.messages.items()
        if chat == GROUP_ID and m["from"]["id"] == BOT_ID and w.fake.buttons(m)
    )


async def test_the_table_message_from_before_a_restart_is_written_as_moved_once_out_of_date(
    tmp_path: Path,
) -> None:
    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.say(ALICE, "/newtable")
            assert not (await w.press_lobby(ALICE, "j")).get("show_alert")
            await w.settle()
            old = w.table_message()
            join = lobby_data(w, "j")
            table_id = next(iter(w.service.tables))
        async with world(tmp_path, fake=fake, db=db) as w2:
            t = w2.service.tables[table_id]
            await w2.settle()
            new = w2.table_message()
            assert new["message_id"] != old["message_id"]
            # while the table is as the old message shows it, its buttons work
            assert _with_buttons(w2) == [old["message_id"], new["message_id"]]
            answer = await w2.press(BOB, GROUP_ID, old, join)
            assert not answer.get("show_alert"), answer
            await w2.settle()
            assert [s.name for s in t.seats.values()] == ["Alice", "Bob"]
            # moved on: the old message says where the table is, with no button
            gone = fake.messages[(GROUP_ID, old["message_id"])]
            assert gone["text"] == tr("en", "table.moved", table=table_id)
            assert "reply_markup" not in gone
            assert _with_buttons(w2) == [new["message_id"]]
            assert "Bob" in str(fake.messages[(GROUP_ID, new["message_id"])]["text"])
    finally:
        await fake.stop()


async def test_a_deleted_table_message_from_before_a_restart_is_not_posted_again_as_moved(
    tmp_path: Path,
) -> None:
    """An admin deleted the table message while the bot was down: the restart posts it
    anew; the table moves on, and the old one's write as moved finds it gone: nothing is
    posted for it (a table message's edit that finds it gone posts it again: a stray
    "goes on below" under the table)."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.say(ALICE, "/newtable")
            assert not (await w.press_lobby(ALICE, "j")).get("show_alert")
            await w.settle()
            old = w.table_message()
            table_id = next(iter(w.service.tables))
        fake.delete(GROUP_ID, old["message_id"])
        async with world(tmp_path, fake=fake, db=db) as w2:
            t = w2.service.tables[table_id]
            await w2.settle()
            new = w2.table_message()
            assert not (await w2.press_lobby(BOB, "j")).get("show_alert")
            await w2.settle()
            assert [s.name for s in t.seats.values()] == ["Alice", "Bob"]
            moved = tr("en", "table.moved", table=table_id)
            posted = [str(c.params.get("text")) for c in fake.calls_of("sendMessage")]
            assert moved not in posted  # (its edit was tried, and found it gone)
            assert _with_buttons(w2) == [new["message_id"]]
            assert (GROUP_ID, old["message_id"]) not in fake.messages
    finally:
        await fake.stop()
