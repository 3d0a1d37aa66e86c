"""The platform misbehaving under a hand in play (brk27), through the real client libraries
against the local fakes: what Telegram's and Discord's refusals leave behind."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.fake_api import ApiCall, too_many
from storage.check import check_store
from tests.bot.test_break5 import street_unsettled
from tests.bot.test_telegram_chats import held_429s
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


def group_edit(c: ApiCall) -> bool:
    return c.method == "editMessageText" and int(c.params.get("chat_id", 0)) == GROUP_ID


async def test_the_group_edit_after_a_429_shows_the_table_as_it_is_then(tmp_path: Path) -> None:
    """R8.5: Telegram answers an edit of the group's table message mid-hand with a 429
    (retry after 30 s, held here until the test lets it go) and both players play a street
    in the private chat meanwhile, each press answered within a second. Once the pause is
    over the table message is written once, with its newest screen: the rate limiter sent
    the refused request again, the screen from before (the turn of a player who had played
    since), and the newest right behind it, two edits of the group at the end of a flood
    wait where one would do. The hand ends and the ledger checks."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        users = {str(u.id): u for u in (ALICE, BOB)}
        assert t.hand is not None
        await w.play_street(users[t.seats[t.hand.to_act[0]].user_id])
        await w.settle()
        start = len(w.fake.calls)
        w.fake.fail_when(group_edit, *too_many(30))
        try:
            for _ in range(2):
                assert t.hand is not None and t.hand_no == 1
                await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
                await w.fake.wait_for(lambda: pauses)  # (the first street's group edit: 429)
            assert pauses[0] >= 30
            edits = [c for c in w.fake.calls[start:] if group_edit(c)]
            assert len(edits) == 1 and edits[0].result is None  # refused; the rest wait
        finally:
            gate.set()
        await w.settle()
        edits = [c for c in w.fake.calls[start:] if group_edit(c)]
        refused, after = edits[0], edits[1:]
        message = w.fake.messages[(GROUP_ID, int(t.group_ref or 0))]
        assert [c.params["text"] for c in after] == [message["text"]]
        assert message["text"] != refused.params["text"]
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        assert await check_store(w.store) == []
