"""Fourteenth break session: trust across restarts (issue 10) where older sweeps did not
look: a tournament player away (R8.5, R8.7) whose turn's grace was running when the bot
stopped."""

from __future__ import annotations

from game.tournament import AWAY_SECONDS
from storage.check import check_store
from tests.bot.test_service import BOB, GROUP
from tests.bot.test_tournament_away import seat_no, still_to_act, until_turn_of
from tests.bot.test_tournament_service import new_service, restarted, running_tournament


async def test_r8_7_a_restart_does_not_give_a_player_away_a_fresh_grace() -> None:
    """Bob is away (R8.7): each of his turns waits only ``AWAY_SECONDS``. Eight of his ten
    seconds had run when the bot stopped; it is back 100 s later. The time it was down is not
    his (R8.5), but the eight seconds before were: his move is made 2 s after the restart.
    It waited the whole grace again (the restored clock counted the turn from the restart),
    and every crash or restart during a street of players away gave them another."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    t, _tour = await running_tournament(service)
    bob = seat_no(t, BOB)
    t = await until_turn_of(service, presenter, clock, BOB)
    t.seats[bob].away = True  # (as the clock's move of his last street left him)
    clock.now += 0.5
    await service.run_due()  # (a step of the table's: committed with him away)
    turn = t.clocks[bob].running_since
    assert turn is not None and t.turn_deadline(bob) == turn + AWAY_SECONDS
    clock.now = turn + 8
    assert await still_to_act(service, t, BOB)
    await service.stop()
    clock.now += 100  # the bot is down
    service, presenter = await restarted(store, clock)
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2.seats[bob].away
    back = clock.now
    assert t2.turn_deadline(bob) == back + 2  # (it was back + 10)
    clock.now = back + 1.9
    assert await still_to_act(service, t2, BOB)
    clock.now = back + 2
    assert not await still_to_act(service, t2, BOB)  # placed for him at the grace's end
    assert await check_store(store) == []
