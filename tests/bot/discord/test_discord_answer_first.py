"""A table command on Discord (``/ofc ready``, ``/ofc leave``, ``/ofcadmin close`` …) is
answered as soon as its step is committed, before the step's messages go out, as on
Telegram and as a press is: a channel or a DM that Discord makes the bot wait on (a 429)
never delays the answer. The slash commands waited for every message of the step (the
hands dealt as DMs, a notice posted), so a rate-limited DM held the answer."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.fakes.discord_api import EPHEMERAL

LIMITED = {"message": "You are being rate limited.", "retry_after": 1.0, "global": False}


async def test_ofc_ready_is_answered_before_the_dealt_hands_go_out(tmp_path: Path) -> None:
    """Bob's ``/ofc ready`` deals the hand (R8.2); the first DM hand is rate-limited for a
    second: the answer comes before it is posted, the hands all the same."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for user in (ALICE, BOB):
            await w.slash(user, "join")
        await w.slash(ALICE, "ready")
        done = len(w.fake.calls_to("POST", "/channels/"))
        w.fake.fail_next["create_message"] = [(429, LIMITED)]
        record = await w.fake.slash(BOB, "ready")
        await w.settle(record)
        reply = w.fake.messages[record.messages[-1]]
        assert "200" in reply["content"] and not reply["flags"] & EPHEMERAL, reply
        posts = [c for c in w.fake.calls_to("POST", "/channels/")[done:] if "/messages" in c.path]
        assert [c.status for c in posts][:2] == [429, 200], [c.status for c in posts]
        assert record.callback_at is not None and record.callback_at < posts[1].at
        t = w.table()
        assert t.hand is not None
        await w.fake.wait_for(lambda: w.dm(ALICE) is not None and w.dm(BOB) is not None)
