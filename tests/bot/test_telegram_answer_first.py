"""``/addbot`` and ``/removebot`` on Telegram are answered as soon as their step is committed,
before the table's messages go out, as every other table command is (``/ready``, ``/leave``,
``/closetable`` …): a private message Telegram is slow to take (a 429 waited out, say)
never delays the answer. They waited for every message the table had queued, so a player's
held hand message held the answer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.bot.tg_world import ALICE, GROUP_ID, World, world


async def reply_to(w: World, text: str, timeout: float) -> dict[str, Any]:
    """Alice types ``text`` in the group; the bot's reply to it, waited for ``timeout`` s."""
    start = len(w.fake.calls)
    mid = await w.fake.send_text(ALICE, GROUP_ID, text)

    def reply() -> dict[str, Any] | None:
        for c in w.fake.calls[start:]:
            rp = c.params.get("reply_parameters") or {}
            if c.method == "sendMessage" and rp.get("message_id") == mid:
                return c.params
        return None

    result: dict[str, Any] = await w.fake.wait_for(reply, timeout=timeout)
    return result


def hold_private_writes(w: World, user_id: int) -> tuple[asyncio.Event, list[dict[str, Any]]]:
    """Every message sent or edited in ``user_id``'s private chat waits (Telegram slow to
    take it) until the returned event is set; ``held``: those asked for meanwhile."""
    gate = asyncio.Event()
    held: list[dict[str, Any]] = []
    for name in ("_m_sendMessage", "_m_editMessageText"):
        write = getattr(w.fake, name)

        async def slow(p: dict[str, Any], write: Any = write) -> dict[str, Any]:
            if int(p.get("chat_id", 0)) == user_id:
                held.append(p)
                await gate.wait()
            result: dict[str, Any] = await write(p)
            return result

        setattr(w.fake, name, slow)
    return gate, held


async def test_addbot_and_removebot_are_answered_while_a_hand_message_waits(
    tmp_path: Path,
) -> None:
    """R8.2: Alice is seated and ready; her ``/addbot`` seats a computer player, which deals
    the hand; her hand message is held (Telegram slow to take it). The command is answered
    all the same, and so is her ``/removebot`` (the computer player stands up after the
    hand) while the hand message still waits; once Telegram takes it, she has her hand."""
    async with world(tmp_path) as w:
        w.fake.started_users.add(ALICE.id)
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        await w.press_lobby(ALICE, "r")
        gate, held = hold_private_writes(w, ALICE.id)
        try:
            reply = await reply_to(w, "/addbot easy", timeout=5)
            assert reply["text"].startswith("🤖 Anna (easy) sits down"), reply
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None
            await w.fake.wait_for(lambda: held, timeout=5)  # Alice's hand message: held
            reply = await reply_to(w, "/removebot", timeout=5)
            assert reply["text"] == "🤖 Anna stands up after this hand.", reply
            assert not gate.is_set() and w.private(ALICE) is None  # still held
        finally:
            gate.set()
        await w.fake.wait_for(lambda: w.private(ALICE) is not None, timeout=10)
        anna = next(s for s in t.seats.values() if s.bot)
        assert anna.leaving
