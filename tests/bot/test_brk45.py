"""Break-it round 45 on this session's changes: the settings message's − on a max stack
(brk42)."""

from __future__ import annotations

import pytest

from bot.model import Phase
from bot.presses import SettingStep, decode
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service as bots_service
from tests.bot.test_service import BOB
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
    assert reply.text.startswith(f"Saved: max_buy_in = {after} (was {max_stack})."), reply.text
    assert (await stored(store)).max_buy_in == after
    before = await stored(store)
    reply = await service.press(ALICE, await _minus_max_stack(service), GROUP, yes)
    assert reply.alert and "max_buy_in takes a whole number" in reply.text, reply.text
    assert await stored(store) == before


async def test_r8_2_a_player_sitting_out_before_two_computer_players_are_ready_is_timed() -> None:
    """Bob sits down and sits out without pressing Ready; then two computer players are
    added, Ready at once: two players are ready, so the ready timer starts (R8.2) and Bob,
    sitting out or not, is stood up at its end (fixlive: sitting out no longer stops it).
    It never started: the timer started only for an unready player not sitting out, so Bob
    held the table's last seat, no timer running, until the idle close (R8.2a)."""
    store, clock = MemoryStore(), Clock()
    service, presenter = bots_service(store, clock)
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, BOB)).alert
    assert not (await service.sit_out(GROUP, BOB)).alert
    for level in ("easy", "normal"):
        assert not (await service.add_bot(GROUP, ALICE, True, level)).alert
    t = service.table_in(GROUP)
    assert t is not None and len(t.seats) == 3 and t.phase is Phase.LOBBY
    assert t.ready_deadline == clock.now + 60
    clock.now += 60
    await service.run_due()
    assert t.seat_of(BOB.user_id) is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Bob")) in presenter.posts
    assert await check_store(store) == []
