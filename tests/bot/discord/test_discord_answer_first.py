"""A table command on Discord (``/ofc ready``, ``/ofc leave``, ``/ofcadmin close`` …) is
answered as soon as its step is committed, before the step's messages go out, as on
Telegram and as a press is: a channel or a DM that Discord makes the bot wait on (a 429)
never delays the answer. The slash commands waited for every message of the step (the
hands dealt as DMs, a notice posted), so a rate-limited DM held the answer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.bot.discord.dc_world import ALICE, BOB, World, world
from tests.fakes.discord_api import EPHEMERAL, ApiCall

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


def hold_dms(w: World, user_id: int) -> tuple[asyncio.Event, list[ApiCall]]:
    """Every message posted or edited in ``user_id``'s DM waits (Discord slow to take it)
    until the returned event is set; ``held``: those asked for meanwhile."""
    gate = asyncio.Event()
    held: list[ApiCall] = []
    for name in ("_create_message", "_edit_message"):
        write = getattr(w.fake, name)

        async def slow(call: ApiCall, channel: str, *rest: str, write: Any = write) -> Any:
            if w.fake.dm_channels.get(user_id) == int(channel):
                held.append(call)
                await gate.wait()
            return await write(call, channel, *rest)

        setattr(w.fake, name, slow)
    return gate, held


async def test_ofc_addbot_and_removebot_are_answered_while_a_dm_hand_waits(
    tmp_path: Path,
) -> None:
    """R8.2: Alice is seated and ready; her ``/ofc addbot`` seats a computer player, which
    deals the hand; her DM hand is held (Discord slow to take it). The command is answered
    all the same, and so is her ``/ofc removebot`` (the computer player stands up after the
    hand) while the DM hand still waits; once Discord takes it, she has her hand. Both
    waited for every message the table had queued."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        await w.slash(ALICE, "join")
        await w.slash(ALICE, "ready")
        gate, held = hold_dms(w, ALICE.id)
        try:
            added = await w.fake.slash(ALICE, "addbot", {"level": "easy"})
            await w.fake.wait_for(lambda: added.messages, timeout=5)
            reply = w.fake.messages[added.messages[-1]]
            assert reply["content"].startswith("🤖 Anna (easy) sits down"), reply
            assert not reply["flags"] & EPHEMERAL, reply
            t = w.table()
            assert t.hand is not None
            await w.fake.wait_for(lambda: held, timeout=5)  # Alice's DM hand: held
            removed = await w.fake.slash(ALICE, "removebot")
            await w.fake.wait_for(lambda: removed.messages, timeout=5)
            reply = w.fake.messages[removed.messages[-1]]
            assert reply["content"] == "🤖 Anna stands up after this hand.", reply
            assert not gate.is_set() and w.dm(ALICE) is None  # still held
        finally:
            gate.set()
        await w.settle(added)
        await w.settle(removed)
        await w.fake.wait_for(lambda: w.dm(ALICE) is not None, timeout=10)
        anna = next(s for s in t.seats.values() if s.bot)
        assert anna.leaving
