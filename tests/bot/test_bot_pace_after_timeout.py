"""Small leftovers: a computer player's pace after the table made another's street by the
clock (R8.5)."""

from __future__ import annotations

from game.clock import SeatClock
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service
from tests.bot.test_service import ALICE, GROUP, leave_now, press_auto_and_confirm


async def test_r8_5_after_a_computer_players_timeout_the_next_one_still_waits_its_pace() -> None:
    """R8.5: Anna, a computer player, is due to move but her decision hangs past her clock
    (the table's timer waits for it); Alice's /leave meanwhile makes Anna's street by the
    timeout rule, not by her own move. Boris, the computer player to act next, moves after
    his own 1-3 s pace: Anna's due time, in the past, was kept for him and he moved at
    once."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand

    def after(s: int) -> int | None:
        """Who acts after board ``s`` in turn (the next street begins with the first)."""
        order = hand.order
        return order[order.index(s) + 1] if order.index(s) + 1 < len(order) else order[0]

    for _ in range(30):  # the hand goes on until a computer player acts before another
        s = hand.to_act[0]
        if not t.seats[t.owner(s)].bot:
            await press_auto_and_confirm(service, presenter, ALICE)
            continue
        nxt = after(s)
        if nxt is not None and t.seats[t.owner(nxt)].bot and hand.board_of(s).count < 11:
            break
        assert t.bot_due is not None
        clock.now = t.bot_due
        await service.run_due()
    else:
        raise AssertionError("no computer player acted before another")
    anna = s
    deadline = t.turn_deadline(t.owner(anna))
    assert t.bot_due is not None and deadline is not None and t.bot_due < deadline
    placed = hand.board_of(anna).count
    clock.now = deadline + 1  # her decision hangs (the timer waits for it); her clock runs out
    reply = await leave_now(service, GROUP, ALICE)  # and Alice leaves meanwhile
    assert not reply.alert, reply.text
    assert hand.board_of(anna).count > placed and hand.to_act == (nxt,)  # made by the clock
    assert t.bot_due is not None and 1.0 <= t.bot_due - clock.now <= 3.0  # Boris's pace
    due = t.bot_due
    await service.run_due()  # not due yet: he waits
    assert hand.to_act == (nxt,) and t.bot_due == due
    clock.now = due
    placed = hand.board_of(nxt).count
    await service.run_due()
    assert hand.board_of(nxt).count > placed  # then he moves
    await service.stop()
    assert await check_store(store) == []


async def test_r3_6_a_computer_player_whose_move_is_due_keeps_it_when_another_times_out() -> None:
    """R3.6, R8.5: all place at once; the moves of Anna and Boris, computer players, are due
    (the table's timer waits for their decisions) and Anna's clock has run out; Alice's
    confirm makes Anna's street by the timeout rule. Boris's move stays due: it is made at
    the table's next step, not put off by a new pace."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    for name, value in (("game", "pineapple"), ("simultaneous_streets", "on")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert reply.text.startswith(("Saved: ", "Already so: ")), reply.text
    await service.new_table(GROUP, ALICE, "pineapple")
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    anna, boris = sorted(s.seat for s in t.seats.values() if s.bot)
    assert set(hand.to_act) == set(t.seats) and t.bot_due is not None
    clock.now = t.bot_due + 0.5  # their moves are due...
    t.clocks[anna] = SeatClock(0.0, 0.0, clock.now - 1)  # ... and Anna's clock ran out
    await press_auto_and_confirm(service, presenter, ALICE)
    assert anna not in hand.to_act and hand.board_of(anna).count == 5  # made by the clock
    assert hand.to_act == (boris,)
    assert t.bot_due is not None and t.bot_due <= clock.now  # his move is still due
    await service.run_due()
    assert hand.board_of(boris).count == 5  # made by him, at once
    assert await check_store(store) == []
