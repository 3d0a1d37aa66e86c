"""A chat that changes under a table with kush at stake (brk30), through the real
python-telegram-bot and the fake Bot API."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_telegram_chats import closed_after_one_hand, last_private
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


@pytest.mark.parametrize(
    "description",
    [
        "Bad Request: group chat was deactivated",
        "Bad Request: CHAT_WRITE_FORBIDDEN",
        "Bad Request: CHANNEL_PRIVATE",
        "Bad Request: CHAT_RESTRICTED",
    ],
)
async def test_r8_2a_a_group_that_refuses_every_write_with_a_400_closes_after_the_hand(
    tmp_path: Path, description: str
) -> None:
    """R8.2a: mid-hand the group dies without a ``my_chat_member`` (a basic group deleted:
    "group chat was deactivated"; or Telegram names its MTProto error: the bot no member of
    a private supergroup, no right to write, the group restricted by Telegram): every group
    write is refused with that 400. Each was taken for a failed edit and only logged: the
    table went on dealing hand 2 into a chat nobody reads, where the players' /leave (group
    only) cannot reach. Now, as for a 403, the hand is finished in the private chats and
    settled, the table closes, every stack goes back and each player is told in private."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        body = {"ok": False, "error_code": 400, "description": description}
        w.fake.outage(lambda c: int(c.params.get("chat_id") or 0) == GROUP_ID, 400, body)
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        assert t.hand_no == 1 and t.hand is None
        await closed_after_one_hand(w, first)
        assert last_private(w, ALICE).startswith(tr("en", "private.chat_gone", table=t.id))
        assert last_private(w, BOB).startswith(tr("ru", "private.chat_gone", table=t.id))
        assert await check_store(w.store) == []
        assert leaks == []
