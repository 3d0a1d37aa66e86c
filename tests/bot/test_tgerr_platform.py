"""tgerr: the platform misbehaving under a live Pineapple hand (Telegram first), through the
real adapter against the local fake Bot API."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.telegram.fake_api import ApiCall
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world

CANT_EDIT = {"ok": False, "error_code": 400, "description": "Bad Request: message can't be edited"}


def edits_of(chat_id: int, message_id: int) -> Callable[[ApiCall], bool]:
    def match(c: ApiCall) -> bool:
        return (
            c.method == "editMessageText"
            and int(c.params.get("chat_id", 0)) == chat_id
            and int(c.params.get("message_id", 0)) == message_id
        )

    return match


async def test_r8_5_a_hand_message_telegram_will_not_edit_is_sent_anew_with_its_buttons(
    tmp_path: Path,
) -> None:
    """R8.5: Telegram refuses every edit of Bob's private hand message mid-hand with 400
    "message can't be edited". It was logged and left: Bob's message stayed frozen on the
    screen from before his turn, without a button, while his clock ran (his street placed
    for him at its end). His hand is now sent anew with his buttons, which work; the hand
    ends and the ledger checks."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        users = {str(u.id): u for u in (ALICE, BOB)}
        first = users[t.seats[t.hand.to_act[0]].user_id]
        other = BOB if first is ALICE else ALICE
        old = w.private(other)
        assert old is not None and w.hand_buttons(other) == {}  # (not his turn yet)
        w.fake.outage(edits_of(other.id, old["message_id"]), 400, CANT_EDIT)
        await w.play_street(first)
        await w.settle()
        new = w.private(other)
        assert new is not None and new["message_id"] != old["message_id"]
        assert [m["message_id"] for m in w.fake.chat_messages(other.id)] == [
            old["message_id"],
            new["message_id"],
        ]
        assert w.hand_buttons(other)[("a", "")]
        await w.play_street(other)  # (its buttons work)
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        assert await check_store(w.store) == []


async def test_a_table_message_telegram_will_not_edit_is_posted_again(tmp_path: Path) -> None:
    """The group's table message refused every edit mid-hand ("message can't be edited"):
    the group read the turn of before for the rest of the table's life. It is posted again
    and edited from then on; the hand ends."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.group_ref is not None
        old = int(t.group_ref)
        w.fake.outage(edits_of(GROUP_ID, old), 400, CANT_EDIT)
        users = {str(u.id): u for u in (ALICE, BOB)}
        await w.play_street(users[t.seats[t.hand.to_act[0]].user_id])
        await w.settle()
        assert t.group_ref is not None and int(t.group_ref) != old
        shown = w.fake.messages[(GROUP_ID, int(t.group_ref))]["text"]
        assert shown == w.service.rt.group_screen(t).text  # (the turn of now)
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        assert int(t.group_ref) != old
        assert await check_store(w.store) == []
