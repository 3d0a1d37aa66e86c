"""tgerr: Discord refusing the edits of a table message older than an hour (a 429 with code
30046, "Maximum number of edits to messages older than 1 hour reached"), mid-hand."""

from __future__ import annotations

from pathlib import Path

from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, action_of, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, ApiCall

OLD_EDITS = {
    "message": "Maximum number of edits to messages older than 1 hour reached. Try again later",
    "code": 30046,
    "retry_after": 0.01,
    "global": False,
}


async def test_a_table_message_discord_will_not_edit_is_posted_anew(tmp_path: Path) -> None:
    """Every edit of the channel's table message is refused with 30046 (discord.py waits
    each 429 out and tries five times, then raises it) while the first player plays a
    street: it was logged and left, the channel reading the turn of before, for as long as
    Discord refused. The table message is posted anew with the turn of now, and edited from
    then on; the hand ends and the ledger checks."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None and t.group_ref is not None
        old = str(t.group_ref)

        def edits_of_old(name: str, call: ApiCall) -> bool:
            return name == "edit_message" and call.path.endswith("/" + old.split(":")[-1])

        w.fake.outage(edits_of_old, 429, OLD_EDITS)
        users = {str(u.id): u for u in (ALICE, BOB)}
        await w.play_street(users[t.seats[t.hand.to_act[0]].user_id], "dm")
        await w.adapter.presenter.flush()
        assert str(t.group_ref) != old
        new = w.fake.messages[int(str(t.group_ref).split(":")[-1])]
        assert int(new["channel_id"]) == CHANNEL_ID
        assert new["content"] == w.service.rt.group_screen(t).text
        assert any(action_of(c) == "h" for c in components(new))  # (My cards, there)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.adapter.presenter.flush()
        assert t.hand_no == 2
        assert await check_store(w.store) == []
