"""dsc44: a "🂠 My cards" answer refused once with a 429 is sent again with the newest screen
of the player's hand. discord.py waits the 429's ``retry_after`` out and sends the request
again; built once, its body was the screen the reply was made with. When the player placed a
card on their DM hand in the pause, the new ephemeral hand was posted without it (an older
screen than the DM showed), then edited to show it. Every write the fake applies to the new
hand is recorded: it must be one, with the card placed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bot.discord.dc_world import World, action_of, components, world
from tests.bot.discord.test_dsc43_my_cards_newest import GatedService
from tests.bot.discord.test_dsc44_two_my_cards import ephemeral_writes, hand_writes
from tests.bot.discord.test_fix39e_discord_writes import acting_dm
from tests.fakes.discord_api import APP_ID, ApiCall, FakeUser

#: a 429 whose pause is long enough for the DM press of the test to be handled in it (the
#: test checks that it was: a retry before it would test nothing)
LIMITED = {"message": "You are being rate limited.", "retry_after": 2.0, "global": False}


async def place_in_the_pause(
    w: World, user: FakeUser, dm: dict[str, Any], first: str, answers: Callable[[], list[ApiCall]]
) -> None:
    """Once the "My cards" answer (its requests: ``answers()``) was refused with a 429, place
    the card of button ``first`` on the DM hand, and wait until that press is handled (the
    "My cards" answer still waiting its pause out: asserted)."""
    await w.fake.wait_for(lambda: any(c.status == 429 for c in answers()))
    r1 = await w.fake.press(user, dict(dm), first)
    await w.fake.wait_for(lambda: r1.answered and w.adapter._inflight == 1)
    assert r1.callback_type == 7
    assert [c.status for c in answers()] == [429], "the answer was sent again before the press"


async def test_my_cards_answer_sent_again_after_a_429_carries_the_newest_screen(
    tmp_path: Path,
) -> None:
    """The "My cards" press is answered at once (the interaction's response, 4); Discord
    refuses it with a 429. In the pause the player places ``a`` on their DM hand. The
    answer sent after the pause posts the hand with ``a`` placed, and that is its only
    write. (It posted the screen without ``a``, then a refresh wrote ``a``.)"""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        a, first = places[0]
        writes = ephemeral_writes(w)
        w.fake.fail_next["callback"] = [(429, LIMITED)]
        msg = w.table_message()
        cid = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
        r0 = await w.fake.press(user, msg, cid)
        await place_in_the_pause(
            w, user, dm, first, lambda: w.fake.calls_to("POST", f"/interactions/{r0.id}/")
        )
        await w.settle(r0)
        assert r0.callback_type == 4
        assert hand_writes(r0, writes) == [{a}], hand_writes(r0, writes)
        assert w.adapter.presenter.live_hand(str(user.id)) is not None


async def test_my_cards_follow_up_sent_again_after_a_429_carries_the_newest_screen(
    tmp_path: Path,
) -> None:
    """As above, the "My cards" press deferred (its reply slow): the hand comes as the
    deferral's follow-up, which Discord refuses with a 429. The follow-up sent after the
    pause posts the hand with ``a``, its only write."""
    async with world(tmp_path, service_class=GatedService, answer_within=0.01) as w:
        assert isinstance(w.service, GatedService)
        user, dm, places = await acting_dm(w)
        a, first = places[0]
        writes = ephemeral_writes(w)
        gate = asyncio.Event()
        w.service.gate = gate
        msg = w.table_message()
        cid = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
        r0 = await w.fake.press(user, msg, cid)
        await w.fake.wait_for(lambda: r0.answered)
        assert r0.callback_type == 6  # (deferred)
        w.adapter.answer_within = 30.0  # (the DM press answered by its callback)
        w.fake.fail_next["followup"] = [(429, LIMITED)]
        gate.set()
        await place_in_the_pause(
            w, user, dm, first, lambda: w.fake.calls_to("POST", f"/webhooks/{APP_ID}/{r0.token}")
        )
        await w.settle(r0)
        assert hand_writes(r0, writes) == [{a}], hand_writes(r0, writes)
        assert w.adapter.presenter.live_hand(str(user.id)) is not None
