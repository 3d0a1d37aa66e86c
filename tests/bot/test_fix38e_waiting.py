"""Newcomer nits (fix38e): a player waiting for another seat's move (a computer player's, or
a person's) sees on their private screen whose turn it is and that seat's time left, as every
other turn line does (R8.5)."""

from __future__ import annotations

from bot.texts import tr
from tests.bot.test_bots import alice_and_a_bot
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated


async def test_r8_5_a_player_waiting_for_a_computer_player_sees_its_time_left() -> None:
    """Alice at a table with a computer player, its turn: her private screen said "Waiting for
    🤖 Anna…" with no time; it says the computer player's time left, as her own "Your move ·
    ⏱ 2:00 + time bank 1:00" does (hand_seconds, time_bank_seconds defaults)."""
    service, presenter, _store, _clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    if not t.seats[t.owner(t.hand.to_act[0])].bot:
        await press_auto_and_confirm(service, presenter, ALICE)
    bot = t.seats[t.owner(t.hand.to_act[0])]
    assert bot.bot
    text = presenter.last_private(ALICE.user_id).text
    clock = service.rt.clock()
    budget, bank = t.clocks[t.owner(t.hand.to_act[0])].left(clock)
    assert (budget, bank) == (120.0, 60.0)
    assert f"Waiting for {bot.name} · ⏱ 2:00 + time bank 1:00" in text.splitlines(), text


async def test_r8_5_a_russian_player_waiting_for_another_sees_their_time_left(env) -> None:  # type: ignore[no-untyped-def]
    """Bob (Russian) waits for Alice's first street: «Ждём: Alice · ⏱ 2:00 + тайм-банк 1:00»,
    it was «Ждём: Alice…»."""
    service, presenter, _store, _clock = env
    assert BOB.language == "ru"
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.hand.to_act == (0,)
    text = presenter.last_private(BOB.user_id).text
    assert "Ждём: Alice · ⏱ 2:00 + тайм-банк 1:00" in text.splitlines(), text
    assert tr("ru", "private.waiting", names="Alice · ⏱ 2:00") == "Ждём: Alice · ⏱ 2:00"
