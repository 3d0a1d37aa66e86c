"""dsc43: a "🂠 My cards" answer is posted with the newest screen of the player's hand. The
press is deferred and its deferral slow to come back; meanwhile the player places a card on
their DM hand. The answer (a follow-up, sent once the deferral is back) posted the screen
from before that move, and the refresh after it flashed the hand to the newer one: the
ephemeral hand must be posted with the card placed, and never go back to an older screen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.model import Reply
from bot.service import TableService
from tests.bot.discord.dc_world import action_of, components, world
from tests.bot.discord.test_fix39e_discord_writes import acting_dm, placed_on_top
from tests.fakes.discord_api import ApiCall, MessageWrite


class GatedService(TableService):
    """A service whose next press, once :attr:`gate` is set, is run only when the gate opens
    (the adapter defers it meanwhile)."""

    gate: asyncio.Event | None = None

    async def press(self, *args: Any, **kwargs: Any) -> Reply:
        gate, self.gate = self.gate, None
        if gate is not None:
            await gate.wait()
        return await super().press(*args, **kwargs)


async def test_my_cards_deferred_while_a_card_is_placed_is_posted_with_it(
    tmp_path: Path,
) -> None:
    """The "My cards" press is deferred (its reply slow) and Discord slow to answer the
    deferral; its reply made, the player places ``a`` on the DM hand; the deferral comes
    back. The new ephemeral hand's writes, in order, are one: ``a`` on its top box. (It was
    posted without ``a``, the screen the reply was made with, then edited to show it.)"""
    async with world(tmp_path, service_class=GatedService, answer_within=0.01) as w:
        assert isinstance(w.service, GatedService)
        user, dm, places = await acting_dm(w)
        a, first = places[0]
        writes: list[MessageWrite] = []
        w.fake.listeners.append(lambda write: writes.append(write) if write.ephemeral else None)
        held: list[ApiCall] = []

        def deferral(name: str, call: ApiCall) -> bool:
            if name == "callback" and not held:
                held.append(call)
                return True
            return False

        gate = asyncio.Event()
        w.service.gate = gate
        w.fake.hold(deferral, 60.0)
        try:
            msg = w.table_message()
            cid = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
            r0 = await w.fake.press(user, msg, cid)
            await w.fake.wait_for(lambda: bool(held))
            assert r0.callback_type == 6  # (deferred, its answer held)
            gate.set()
            # (the reply made: the answer waits for the deferral to come back)
            await w.fake.wait_for(lambda: bool(w.adapter.presenter._opening))
            w.adapter.answer_within = 30.0  # (the DM press answered by its callback)
            r1 = await w.fake.press(user, dict(dm), first)
            await w.fake.wait_for(lambda: r1.answered and w.adapter._inflight == 1)
            assert r1.callback_type == 7
        finally:
            w.fake.recover()
        await w.settle(r0)
        assert r0.messages, "no ephemeral hand posted"
        mine = r0.messages[-1]
        seen = [
            placed_on_top(str(x.message["content"])) for x in writes if int(x.message["id"]) == mine
        ]
        assert seen == [{a}], seen
        assert w.adapter.presenter.live_hand(str(user.id)) is not None
