"""Break-it round 42: an admin's nonsense to /settings, a chat that changes under the bot,
forged and stale buttons."""

from __future__ import annotations

import pytest

from bot.presses import SettingStep, decode
from bot.service.settings import SETTINGS, table_options
from tests.bot.test_settings import ALICE, GROUP, new_service, payloads, say, stored


async def test_a_tiny_fraction_is_shown_as_typed_and_reads_back() -> None:
    """``/settings utc_offset 0.0000001`` (within -12 to 14) was saved and answered
    "utc_offset = 1e-07", and the setting's help said "Now: 1e-07": an exponent no reader
    writes, and refused when typed back ("1e-07" is not a number an admin writes). A number
    is shown in plain digits, and what is shown reads back as the same value. (A time zone
    now takes quarter hours alone, fixset37: shown with ``reveal_pause_seconds``, a pause
    of any fraction of a second.)"""
    service, store = new_service()
    await say(service, "game", "chinese")
    reply = await say(service, "reveal_pause_seconds", "0.0000001")
    assert table_options(await stored(store)).reveal_pause_seconds == 1e-07
    assert reply.text.startswith("Saved: reveal_pause_seconds = 0.0000001 (was 3)."), reply.text
    assert "e-" not in (await say(service, "reveal_pause_seconds")).text
    reply = await say(service, "reveal_pause_seconds", "0.0000002")
    saved = "Saved: reveal_pause_seconds = 0.0000002 (was 0.0000001)."
    assert reply.text.startswith(saved), reply.text
    assert SETTINGS["reveal_pause_seconds"].parse("0.0000002") == (
        table_options(await stored(store)).reveal_pause_seconds
    )


async def test_a_minus_press_to_a_tiny_fraction_is_saved_not_refused() -> None:
    """The settings message's − on ``utc_offset`` 1.0000001 moves it by its step, 1, to
    about 0.0000001, inside -12 to 14: the press was refused "takes a number of hours from
    -12 to 14", since the value passed on was written "1e-07", which no admin types. It is
    saved, and the answer shows it in plain digits. (Shown with ``reveal_pause_seconds``,
    whose step is 1 too: a time zone now takes quarter hours alone, fixset37.)"""
    service, store = new_service()
    await say(service, "game", "chinese")
    await say(service, "reveal_pause_seconds", "1.0000001")

    async def yes() -> bool:
        return True

    screen = (await say(service, "all")).screen
    data = next(
        d
        for d in payloads(screen).values()
        if isinstance(p := decode(d), SettingStep) and p.code == "rp" and p.op == "-"
    )
    reply = await service.press(ALICE, data, GROUP, yes)
    assert not reply.alert, reply.text
    assert "reveal_pause_seconds = 0.0000001" in reply.text, reply.text
    assert table_options(await stored(store)).reveal_pause_seconds == 1e-07


async def test_a_plus_press_never_lowers_an_automatic_max_stack_above_the_range() -> None:
    """``max_buy_in`` at auto is 5 × ``min_buy_in``: with a buy-in of 300,000,000,000 that
    is 1,500,000,000,000, above the setting's own top (1,000,000,000,000). The settings
    message's + on it moved up by its step and was then kept within the range: it saved
    1,000,000,000,000, the + button lowering every table's max stack by a third. A + that
    cannot go up is refused with the range, and nothing is saved (a − still lowers it)."""
    service, store = new_service()
    await say(service, "min_buy_in", "300000000000")

    async def yes() -> bool:
        return True

    screen = (await say(service, "all")).screen
    assert screen is not None

    def button(op: str) -> str:
        return next(
            b.data
            for b in screen.all_buttons()
            if isinstance(p := decode(b.data), SettingStep) and p.code == "mx" and p.op == op
        )

    before = await stored(store)
    assert before.top_up_limit == 1_500_000_000_000
    reply = await service.press(ALICE, button("+"), GROUP, yes)
    assert reply.alert and "from 0 to 1,000,000,000,000" in reply.text, reply.text
    assert await stored(store) == before
    reply = await service.press(ALICE, button("-"), GROUP, yes)
    assert not reply.alert, reply.text
    assert (await stored(store)).top_up_limit == 1_000_000_000_000


async def test_a_minus_press_on_a_low_max_stack_never_raises_it_to_auto() -> None:
    """``max_buy_in`` 50 with ``min_buy_in`` 20: the settings message's − moved it by its step
    to 0, auto, which is 5 × 20 = 100: the − button doubled the max stack. It goes down to
    the buy-in, 20, the lowest max stack there is; − again is refused, nothing saved."""
    service, store = new_service()
    await say(service, "min_buy_in", "20")
    await say(service, "max_buy_in", "50")

    async def yes() -> bool:
        return True

    async def minus() -> str:
        screen = (await say(service, "all")).screen
        assert screen is not None
        return next(
            b.data
            for b in screen.all_buttons()
            if isinstance(p := decode(b.data), SettingStep) and p.code == "mx" and p.op == "-"
        )

    reply = await service.press(ALICE, await minus(), GROUP, yes)
    assert not reply.alert, reply.text
    assert reply.text.startswith("Saved: max_buy_in = 20 (was 50)."), reply.text
    assert (await stored(store)).top_up_limit == 20
    before = await stored(store)
    reply = await service.press(ALICE, await minus(), GROUP, yes)
    assert reply.alert and "max_buy_in takes a whole number" in reply.text, reply.text
    assert await stored(store) == before


@pytest.mark.parametrize("typed", [("default",), ("по", "умолчанию"), ("Default",)])
async def test_a_kush_label_set_to_default_is_the_default_label(typed: tuple[str, ...]) -> None:
    """``/settings kush_label default`` (as ``/settings payouts default`` resets the payouts;
    in Russian «по умолчанию») saved the word itself as the unit: every amount read "500
    default", «500 по умолчанию». The word means the default label, kush."""
    service, store = new_service()
    await say(service, "kush_label", "coins")
    reply = await say(service, "kush_label", *typed)
    assert not reply.alert, reply.text
    # (fixdef37: said as the default it is again)
    assert reply.text.startswith("Back to default: kush_label = kush (was coins)."), reply.text
    assert (await stored(store)).kush_label == "kush"
    reply = await say(service, "kush_label", *typed)
    assert reply.text.startswith("Already default: kush_label = kush"), reply.text
