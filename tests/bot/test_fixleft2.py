"""Items earlier break-it sessions left (fixleft2), through the real client libraries
against the local fakes."""

from __future__ import annotations

from pathlib import Path

from bot.model import PENDING_PREFIX
from bot.telegram.fake_api import ApiCall
from storage.check import check_store
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world


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
