"""brk73: break-it on the next hand's buy-in (next_buy_in) and the top-up texts (R8.2)."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated


async def test_r8_2_a_top_up_cut_to_the_maximum_is_not_called_the_next_hand_s_buy_in() -> None:
    """/topup with no amount during the hand queues the next hand's buy-in, cut to what the
    table's maximum leaves room for (R8.2). Cut (max_buy_in 300 with a stack of 200: 100),
    it was said "Top-up of 100 kush queued for after this hand (the next hand's buy-in)",
    the buy-in being 200: now the plain queued text; uncut, the buy-in's. 100 is added."""
    service, presenter, store, _clock = service_env()
    assert tr("ru", "reply.topup_queued", amount=100, label="куш") == (
        "Докупка на 100 кушей принята: она пройдёт после этой раздачи."
    )
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.min_buy_in == 200
    alice = t.seats[0]
    reply = await service.top_up(GROUP, BOB, "")  # (room for the whole buy-in: said so)
    assert reply.text == "Докупка на 200 кушей пройдёт после этой раздачи — это взнос следующей."
    assert not (await service.settings(GROUP, ALICE, True, ["max_buy_in", "300"])).alert
    reply = await service.top_up(GROUP, ALICE, "")
    assert reply.text == "Top-up of 100 kush queued: it is added when this hand ends.", reply.text
    assert (alice.top_up, alice.top_up_buy_in) == (100, True)
    while t.hand is not None and t.hand_no == 1:
        await press_auto_and_confirm(service, presenter, ALICE)
        await press_auto_and_confirm(service, presenter, BOB)
    await service.run_due()
    assert alice.top_up == 0 and alice.stack <= 300  # (added within the maximum)
    assert await check_store(store) == []
