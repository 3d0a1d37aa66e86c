"""rev43: the difference of a lowered buy-in given back to a newcomer (brk74,
:func:`bot.service.dealing.apply_pending`) on paths its tests did not take: a newcomer who
sat out before their first hand gets the difference back (a top-up refused: the stack is at
the table's maximum); the players who played the hand at the old buy-in get nothing back;
kush conserved and each ledger row balanced (R8.1, R8.2, R8.6)."""

from __future__ import annotations

from storage.memory import MemoryStore
from tests.bot.money import assert_conserved
from tests.bot.test_brk74_money import DAVE, NO_FANTASYLAND, _rows, _service
from tests.bot.test_service import GROUP, dealt_at
from tests.bot.test_tournament_break import PLAYERS, play_scripted_hand
from tests.bot.test_tournament_service import configure


async def test_r8_2_a_newcomer_sitting_out_gets_the_difference_the_others_nothing() -> None:
    store = MemoryStore()
    service, presenter, _clock = _service(store)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    assert not (await service.join(GROUP, DAVE)).alert
    assert not (await service.ready(GROUP, DAVE)).alert
    # (no top-up: the stack is at the table's maximum, the buy-in)
    reply = await service.top_up(GROUP, DAVE, "100")
    assert reply.text == "Your stack is at the table's maximum (200 kush).", reply.text
    assert not (await service.sit_out(GROUP, DAVE)).alert
    await play_scripted_hand(service, presenter, t, NO_FANTASYLAND)
    assert t.min_buy_in == 40
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.sitting_out
    assert dave.stack == 40 and dave.unplayed_buy_in == 40
    rows = await _rows(store, DAVE)
    assert sum(b for _, b, _ in rows) == 1000 - 40  # 160 back
    assert all(b == -s for kind, b, s in rows if kind != "starting")
    for played in PLAYERS[:2]:  # (dealt at 200: nothing back)
        assert "refund" not in [k for k, _, _ in await _rows(store, played)]
    assert "160 kush of the 200 paid went back" in " ".join(text for _, text in presenter.posts)
    await assert_conserved(store)
