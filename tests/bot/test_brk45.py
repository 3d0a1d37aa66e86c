"""Break-it round 45 on this session's changes: the settings message's − on a max stack
(brk42)."""

from __future__ import annotations

import pytest

from bot.presses import SettingStep, decode
from tests.bot.test_settings import ALICE, GROUP, new_service, say, stored


async def _minus_max_stack(service) -> str:  # type: ignore[no-untyped-def]
    """The data of the − button of ``max_buy_in`` on the list of all settings."""
    screen = (await say(service, "all")).screen
    assert screen is not None
    return next(
        b.data
        for b in screen.all_buttons()
        if isinstance(p := decode(b.data), SettingStep) and p.code == "mx" and p.op == "-"
    )


@pytest.mark.parametrize(("max_stack", "after"), [(60, 20), (69, 20), (50, 20), (71, 21)])
async def test_a_minus_press_on_a_max_stack_less_than_a_step_above_the_buy_in(
    max_stack: int, after: int
) -> None:
    """``min_buy_in`` 20 (21 for the last case), ``max_buy_in`` within one step (50) above it:
    − went to 50 − 50 = 0 and on to the buy-in (brk42), but 60 − 50 = 10 was refused, "10
    cannot be below min_buy_in (20)", nothing saved: the button that lowers the max stack
    refused to while it could go down to the buy-in. It goes down to the buy-in now."""
    service, store = new_service()
    await say(service, "min_buy_in", str(after))
    await say(service, "max_buy_in", str(max_stack))

    async def yes() -> bool:
        return True

    reply = await service.press(ALICE, await _minus_max_stack(service), GROUP, yes)
    assert not reply.alert, reply.text
    assert reply.text.startswith(f"Saved: max_buy_in = {after}."), reply.text
    assert (await stored(store)).max_buy_in == after
    before = await stored(store)
    reply = await service.press(ALICE, await _minus_max_stack(service), GROUP, yes)
    assert reply.alert and "max_buy_in takes a whole number" in reply.text, reply.text
    assert await stored(store) == before
