"""brk48: liveness and seats in the lobby (R8.2 ready timer, R8.2a idle close, R8.6 sitting
out). In-memory store, a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, seated
from tests.bot.test_transitions import player_balance


async def test_r8_2a_sitout_and_back_in_the_lobby_reach_the_idle_close(env) -> None:  # type: ignore[no-untyped-def]
    """(Held.) Alice and Bob are bought in, Carol sits unready: the ready timer runs (R8.2).
    Before it ends Alice sits out and comes back, again and again, each /back starting the
    timer afresh (left as the rules have it). The idle close (R8.2a) still comes: a sit-out
    stops the timer, and the close is then counted from the opening again."""
    service, _presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    opened = clock.now
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.ready_deadline == clock.now + 60
    while service.table_in(GROUP) is t and clock.now < opened + 4000:
        clock.now += 25
        await service.run_due()
        await service.sit_out(GROUP, ALICE)
        back = await service.back(GROUP, ALICE)  # (at once: no timer step in between)
        assert t.hand is None
        if service.table_in(GROUP) is t:
            assert back.text == tr("en", "reply.back")
            assert t.ready_deadline == clock.now + 60  # (restarted)
        else:  # the idle close was due: made first, and said
            assert back.alert and back.text.startswith("Table #1 closed: no hand for 30 minutes")
    assert service.table_in(GROUP) is None
    assert opened + 1800 <= clock.now <= opened + 1800 + 25
    assert t.hand_no == 0
    assert [await player_balance(store, a) for a in (ALICE, BOB, CAROL)] == [1000] * 3
    assert await check_store(store) == []


async def test_r8_2_a_back_while_a_queued_top_up_waits_is_dealt_after_it(env) -> None:  # type: ignore[no-untyped-def]
    """Alice and Bob let the clock play their first hand (R8.5); Bob asks for a top-up
    during it (queued, R8.2). At its end both sit out (R8.6) and the table is in the lobby.
    Both come back before the timer adds Bob's top-up: their /back left the deal to the
    timer (the top-up goes first), and the timer added the top-up and stopped there: both
    bought in and back, nothing due, the table waited for the idle close (R8.2a). The hand
    is dealt once the top-up is in."""
    service, _presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert not (await service.top_up(GROUP, BOB, "50")).alert
    while t.hand is not None:  # nobody moves: every clock runs out
        clock.now += 181
        await service.run_due()
    assert t.seat_of(ALICE.user_id).sitting_out and t.seat_of(BOB.user_id).sitting_out  # type: ignore[union-attr]
    assert t.top_ups_due()
    for a in (ALICE, BOB):
        back = await service.back(GROUP, a)
        assert back.text in (tr("en", "reply.back"), tr("ru", "reply.back"))
    clock.now += 1
    await service.run_due()  # the top-up, then the deal
    assert t.seat_of(BOB.user_id).top_up == 0  # type: ignore[union-attr]
    assert t.hand is not None and t.hand_no == 2, (t.phase, service.rt.next_deadline(t))
    assert await check_store(store) == []


async def test_r8_2a_join_and_leave_beside_two_computer_players_reach_the_idle_close(env) -> None:  # type: ignore[no-untyped-def]
    """(Held.) Two computer players sit ready (issue 13); Carol joins, which starts the
    ready timer for her (R8.2), and leaves before it ends, again and again: each join starts
    it afresh. The idle close (R8.2a) still comes, counted from the opening: her leaving
    stops the timer."""
    service, _presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    opened = clock.now
    for _ in range(2):
        assert not (await service.add_bot(GROUP, ALICE, True, "easy")).alert
    t = service.table_in(GROUP)
    assert t is not None
    while service.table_in(GROUP) is t and clock.now < opened + 4000:
        joined = await service.join(GROUP, CAROL)
        if service.table_in(GROUP) is not t:
            assert joined.alert and joined.text.startswith("Table #1 closed: no hand for 30")
            break
        assert t.ready_deadline == clock.now + 60  # (started afresh)
        clock.now += 50
        await service.run_due()
        assert not (await service.leave(GROUP, CAROL)).alert
        assert t.ready_deadline is None
        clock.now += 1
        await service.run_due()
    assert service.table_in(GROUP) is None
    assert opened + 1800 <= clock.now <= opened + 1800 + 51
    assert t.hand_no == 0
    assert await player_balance(store, CAROL) == 1000
    assert await check_store(store) == []
