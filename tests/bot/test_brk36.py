"""Break session brk36: settings saved during a hand apply as it ends (fixnu6a, R6.6, R8.2)."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_bots import alice_and_a_bot, play_hand_with_bots
from tests.bot.test_service import ALICE, GROUP


async def test_r8_2_a_computer_player_the_new_point_busts_at_the_hands_end_tops_up_at_once() -> (
    None
):
    """Alice and a computer player at 1 kush a point; during the hand the admins set the
    buy-in to 400 and the point to 201. The hand leaves 🤖 Anna 199, below the new point that
    now applies as the hand ends (R6.6: the match is over). A computer player tops up from
    the house (issue 13, R8.2): its top-up is queued with the hand's end and the next hand
    comes in the usual time. The table message told the computer player to "top up (➕ or
    /topup) to play" and the table waited the 20 s top-up window for nobody: its top-up was
    queued before the new point applied."""
    service, presenter, store, clock = await alice_and_a_bot(point=1)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    for name, value in (("min_buy_in", "400"), ("kush_per_point", "201")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    alice = next(s for s in t.seats.values() if not s.bot)
    assert t.hand is None and t.options.kush_per_point == 201 and t.min_buy_in == 400
    assert (anna.stack, alice.stack) == (199, 201)  # (the seeded hand: Anna lost a point)
    assert anna.top_up == 400  # queued with the hand's end, from the house
    table = presenter.last_table(GROUP.chat_id).text
    assert "top up" not in table and "20 seconds" not in table, table
    ended = clock.now
    for _ in range(4):
        clock.now += 2.5
        await service.run_due()
        if t.hand is not None:
            break
    assert t.hand is not None and t.hand_no == 2, (t.phase, t.next_hand_at)
    assert clock.now - ended <= 5  # the usual next_hand_delay, not the top-up window
    assert anna.stack == 599 and alice.stack == 201
    assert tr("en", "lobby.busted_stood_up", names="🤖 Anna") not in [p for _, p in presenter.posts]
    assert await check_store(store) == []
