"""brk76: break-it round on tournaments (R8.7) — what it found, each test failing before its fix."""

from __future__ import annotations

from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now, press_auto_and_confirm
from tests.bot.test_tournament_service import (
    PLAYERS,
    a_chinese_tournament_started,
    configure,
    new_service,
)
from tests.bot.test_transitions import player_balance


async def _first_hand_over(service: TableService, presenter: FakePresenter, clock: Clock) -> None:
    """Play the hand dealt (and its reveal) until the table is between hands."""
    t = service.table_in(GROUP)
    assert t is not None
    by_id = {a.user_id: a for a in PLAYERS}
    for _ in range(200):
        if t.hand is None:
            return
        if t.hand.to_act:
            await press_auto_and_confirm(
                service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id]
            )
        else:
            clock.now += 5  # reveal pauses, claim times
            await service.run_due()
    raise AssertionError("the hand did not end")


async def test_r7_6_r8_7_leaving_a_chinese_tournament_between_hands_ends_the_game() -> None:
    """A Chinese Poker tournament of three to 40 points: after the first hand (no one at the
    target) Carol leaves between hands. R8.7 plays the game's own rules (R7.6 as the table
    keeps it: a player of the game leaving ends it, settled on its score), and so it is when
    she leaves during a hand (:func:`~bot.service.chinese.close_chinese_hand`): she is knocked
    out, her chips out of play, and the game is settled now between Alice and Bob in chips at
    level 1 (10 a point), the group told. It went on instead with her points in it, and what
    Alice and Bob had won from each other so far waited for another game's end (which a
    leave during the hand would have settled at once)."""
    service, presenter, store, clock = new_service(next_hand_delay=30)
    await configure(service, game="chinese", target_points="40", tournament_chips="1000")
    await a_chinese_tournament_started(service, presenter)
    await _first_hand_over(service, presenter, clock)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is None
    assert t.chinese is not None and not t.chinese.over
    totals = dict(t.chinese.totals)
    assert totals == {0: 13, 1: 9, 2: 2}  # (the seeded deal: Alice 13, Bob 9, Carol 2)
    reply = await leave_now(service, GROUP, CAROL)
    assert reply.text == tr("en", "tour.left", place=3, prize=0, label="kush"), reply.text
    assert t.chinese is None  # the game ended with her leaving
    assert t.tournament.chips == {0: 1000 + 4 * 10, 1: 1000 - 4 * 10}
    assert t.tournament.chips_removed == 1000  # (Carol's chips left play, untouched)
    moves = "Alice +40 chips, Bob −40 chips"
    said = tr("en", "tour.game_over_leave", moves=moves)
    assert any(said in text for _, text in presenter.posts), presenter.posts[-3:]
    assert await check_store(store) == []
    # the next game starts from 0 for the two left
    clock.now += 60
    await service.run_due()
    assert t.hand is not None and sorted(t.hand.order) == [0, 1]
    assert t.chinese is not None and set(t.chinese.totals) <= {0, 1}


async def test_r7_6_r8_7_a_game_ended_by_a_leaver_that_knocks_out_the_other_pays_out() -> None:
    """The same leave with 10 starting chips (a point is all of them at level 1): the game
    it ends costs Bob, 4 points behind Alice, his 10 chips (capped, R8.4), so he is knocked
    out second after Carol, third (she left first), Alice wins: the pool (300, winner takes
    all with three) is paid out and the table closes in that step, the standings saying the
    game's settlement under Carol's knock-out."""
    service, presenter, store, clock = new_service(next_hand_delay=30)
    await configure(service, game="chinese", target_points="40", tournament_chips="10",
                    tournament_buy_in="100")  # fmt: skip
    await a_chinese_tournament_started(service, presenter)
    await _first_hand_over(service, presenter, clock)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.chinese is not None
    assert dict(t.chinese.totals) == {0: 13, 1: 9, 2: 2}
    table_id = t.id
    reply = await leave_now(service, GROUP, CAROL)
    assert reply.text == tr("en", "tour.left", place=3, prize=0, label="kush"), reply.text
    assert service.table_in(GROUP) is None  # paid out and closed in the leave's step
    assert t.tournament.places == {0: 1, 1: 2, 2: 3}
    assert {a.user_id: await player_balance(store, a) for a in PLAYERS} == {
        ALICE.user_id: 1200,
        BOB.user_id: 900,
        CAROL.user_id: 900,
    }
    assert await store.stacks(table_id) == {}
    final = presenter.last_table(GROUP.chat_id).text
    knocked = tr("en", "tour.knocked_out", name="Carol", place=3, prize=0, label="kush")
    game = tr("en", "tour.game_over_leave", moves="Alice +10 chips, Bob −10 chips")
    assert final.startswith(f"{knocked}\n{game}\n"), final
    assert "1. Alice — 300 kush" in final
    assert await check_store(store) == []
