"""Small leftovers (fixsmall2): a top-up queued without an amount is the next hand's buy-in
(R8.2); the showdown's settlement line says what happens (R8.3); no button for Chinese
Poker (R4.5)."""

from __future__ import annotations

from bot.model import LiveTable
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated
from tests.bot.test_transitions import player_balance


async def test_r8_2_a_queued_top_up_without_amount_is_the_next_hands_buy_in(env) -> None:  # type: ignore[no-untyped-def]
    """Alice types /topup during the hand (the buy-in 200); the admins then raise the buy-in
    to 300, which applies as the hand ends, and Bob types /topup. Both get the new buy-in, 300,
    as the table message then shows it, and Bob's reply says 300 (Alice's queued 200 while
    the next hand's buy-in was 300)."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.top_up(GROUP, ALICE)
    assert not reply.alert and reply.text == (
        "Top-up of one buy-in queued (the next hand's: 200 kush): it is added when this hand ends."
    )
    assert tr("ru", "reply.topup_queued_buy_in", amount=300, label="kush") == (
        "Докупка на один взнос принята (взнос следующей раздачи: 300 кушей): "
        "она пройдёт после этой раздачи."
    )
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", "300"])
    assert not reply.alert, reply.text
    assert t.min_buy_in == 200 and t.pending_buy_in == 300
    reply = await service.top_up(GROUP, BOB, "")
    assert reply.text == tr("ru", "reply.topup_queued_buy_in", amount=300, label="kush")  # (Bob)
    alice, bob = t.seats[0], t.seats[1]
    assert LiveTable.from_json(t.to_json(), 0.0).seats[0].top_up_buy_in  # survives a restart
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    assert t.hand is None and t.min_buy_in == 300
    stacks = (alice.stack, bob.stack)
    await service.run_due()
    assert (alice.stack, bob.stack) == (stacks[0] + 300, stacks[1] + 300)
    assert (alice.top_up, alice.top_up_buy_in) == (0, False)
    assert await player_balance(store, ALICE) == 500
    assert await player_balance(store, BOB) == 500
    assert await check_store(store) == []
