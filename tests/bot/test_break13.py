"""Thirteenth break session: heads-up double boxes (R4.2), settle_per_round (R8.3) and
Fantasyland across matches (R6.6, R8.6) off the happy path."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import game.hand
from bot.model import Actor, LiveTable
from bot.service import TableService
from bot.texts import tr
from game.board import assess_board
from storage.check import check_store
from tests.bot.conftest import Clock, run_until_dealt, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import leave_now
from tests.bot.test_service_classic import (  # (a group of English speakers)
    ALICE,
    BOB,
    CAROL,
    GROUP,
    auto_street,
    configure,
    play_hand,
    start,
)
from tests.bot.test_transitions import player_balance_in

DAN = Actor("telegram", "4", "Dan", "en")


def grant_fantasyland(monkeypatch: pytest.MonkeyPatch, boards: Iterator[bool]) -> None:
    """The next boards judged at showdowns (in the hand's order) earn Fantasyland (the game's
    count: 13 cards in classic OFC, 14 in Pineapple, R6.2) when ``boards`` yields ``True`` for
    them and they are not fouled: the deal is random."""

    def judged(board, options, in_fantasyland=False):  # type: ignore[no-untyped-def]
        real = assess_board(board, options, in_fantasyland)
        if next(boards, False) and not real.fouled:
            return real._replace(fantasyland_cards=options.fantasyland_base_cards)
        return real

    monkeypatch.setattr(game.hand, "assess_board", judged)


async def first_hand_away(
    service: TableService,
    presenter: FakePresenter,
    clock: Clock,
    t: LiveTable,
    away: Actor,
    present: Actor,
) -> None:
    """Hand 1 played out: ``present`` by "Arrange for me", ``away`` by their time running
    out on every street (R8.5: budget and bank)."""
    player = t.seat_of(away.user_id)
    while t.hand is not None and t.hand_no == 1:
        if t.player_of(t.hand.to_act[0]) is player:
            clock.now += 181  # budget and bank run out (R8.5)
            await service.run_due()
        else:
            await auto_street(service, presenter, present)


async def test_r8_6_r4_2_a_fantasyland_not_dealt_sits_out_the_double_boxes_player_who_timed_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heads-up double boxes (R4.2): Bob's moves are made for him all the first hand (R8.5),
    and Alice's first board earns Fantasyland, so he sits out only after it (R8.6). Alice sits
    out and Carol sits down: the Fantasyland hand cannot be dealt and the match is over at
    the deal (R6.6). Bob, who timed out in it, moves to sit-out then: his board seats 10 and
    11 were read as table seats (the hand's owners already gone), nobody was sat out, and
    Bob was dealt a new match with Carol."""
    service, presenter, store, clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc", heads_up_double_boxes="on", safe_autoplay="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand.order == (0, 1, 10, 11)
    grant_fantasyland(monkeypatch, iter([True]))  # (Alice's first board, seat 0)
    bob = t.seat_of(BOB.user_id)
    await first_hand_away(service, presenter, clock, t, away=BOB, present=ALICE)
    assert t.match is not None and t.match.fantasyland == {0: 13}
    assert t.match.sit_out_after_match == {10, 11}  # (Bob's boards)
    assert bob is not None and not bob.sitting_out  # (the Fantasyland hand first, R8.6)
    assert not (await service.sit_out(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, CAROL)).alert
    assert not (await service.ready(GROUP, CAROL)).alert
    for _ in range(3):
        clock.now += 6
        await service.run_due()
    assert bob.sitting_out and bob.timed_out  # R8.6
    assert t.hand is None and t.hand_no == 1  # Carol is the only one left to play
    assert not t.match.fantasyland and t.match.match_over
    said = [text for _, text in presenter.posts]
    assert tr("en", "lobby.fl_not_dealt", names="Alice") in said
    assert await check_store(store) == []


async def test_r8_3_r6_6_a_round_ended_by_a_fantasyland_not_dealt_is_settled_then(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """settle_per_round heads-up (R8.3: a round of two matches). The second match's hand
    earns Bob Fantasyland and he sits out; Carol sits down, so the Fantasyland hand is not
    dealt and the match is over at the deal (R6.6): the round's two matches are played. Its
    points are settled then, before Carol's first hand: they waited for the end of that
    hand of the next round, Bob's kush at the mercy of a hand he was not dealt (R8.4 caps
    what Alice still has then), and were settled in one with it."""
    service, presenter, store, clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc", settle_per_round="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.match is not None
    alice, bob = t.seat_of(ALICE.user_id), t.seat_of(BOB.user_id)
    assert alice is not None and bob is not None
    grant_fantasyland(monkeypatch, iter([]))  # (the first match: no Fantasyland)
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.match.matches == 1 and not t.match.fantasyland
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    # the second match's main hand: Bob's board earns Fantasyland
    grant_fantasyland(monkeypatch, iter(s == bob.seat for s in t.hand.order))
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.match.fantasyland == {bob.seat: 13} and t.match.matches == 1
    ((a, _, points),) = t.match.round_pairs
    owed = points if a == alice.seat else -points  # Alice's points of the round
    assert owed != 0 and alice.stack == bob.stack == 200  # (nothing settled yet)
    assert not (await service.sit_out(GROUP, BOB)).alert
    assert not (await service.join(GROUP, CAROL)).alert
    assert not (await service.ready(GROUP, CAROL)).alert
    await run_until_dealt(service, clock, t)
    assert t.hand is not None and t.hand_no == 4  # (the round's own entry took number 3)
    assert alice.stack == 200 + owed and bob.stack == 200 - owed  # settled before it
    assert t.match.round_pairs == () and t.match.matches == 0  # a new round
    said = [text for _, text in presenter.posts]
    moves = ", ".join(
        tr("en", "settle.move", name=s.name, delta=d, label="kush")
        for s, d in ((alice, owed), (bob, -owed))
    )
    assert tr("en", "round.settled_end", table=t.id, moves=moves) in said, said
    assert await check_store(store) == []


@pytest.mark.parametrize("how", ["admin", "idle"])
async def test_r8_3_r8_2a_a_round_settled_as_the_table_closes_names_no_leaver(how: str) -> None:
    """settle_per_round (R8.3): the table closes with a round's points owed, by an admin or
    after ``idle_close_seconds`` without a hand (R8.2a): the round is settled first, and the
    group is told so as the table closing, not as "Alice leaves" (the first stack the close
    stood up), who never left."""
    service, presenter, store, clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc", settle_per_round="on", fantasyland="off")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.match is not None
    await play_hand(service, presenter, [ALICE, BOB])
    ((a, _, points),) = t.match.round_pairs
    alice, bob = t.seat_of(ALICE.user_id), t.seat_of(BOB.user_id)
    assert alice is not None and bob is not None and points != 0
    owed = points if a == alice.seat else -points
    if how == "admin":
        reply = await service.close_table(GROUP, ALICE, True)
        closed = f"Table #{t.id} is closed; stacks returned to balances: Alice "
        assert reply.text.startswith(closed), reply.text
    else:
        assert not (await service.sit_out(GROUP, ALICE)).alert  # (no hand is dealt)
        clock.now += t.options.idle_close_seconds + 1
        await service.run_due()
    assert service.table_in(GROUP) is None
    moves = ", ".join(
        tr("en", "settle.move", name=s.name, delta=d, label="kush")
        for s, d in ((alice, owed), (bob, -owed))
    )
    said = [text for _, text in presenter.posts]
    assert said == [tr("en", "round.settled_close", table=t.id, moves=moves)], said
    assert await player_balance_in(store, GROUP, ALICE) == 1000 + owed
    assert await player_balance_in(store, GROUP, BOB) == 1000 - owed
    assert await check_store(store) == []


async def test_r6_6_r4_2_no_fantasyland_next_when_the_only_opponent_leaves_after_the_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heads-up double boxes (R4.2): Bob leaves during the first hand, and Alice's first
    board earns Fantasyland. Nobody is left to play the Fantasyland hand with her (R6.6: a
    newcomer waits for the next match), yet the showdown said "🌴 Fantasyland next (13
    cards)" and the hand's record (its /replay) kept it: it is forgone, as for a leaver."""
    service, presenter, store, _ = service_env(next_hand_delay=5)
    await configure(service, game="ofc", heads_up_double_boxes="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand.order == (0, 1, 10, 11)
    grant_fantasyland(monkeypatch, iter([True]))  # (Alice's first board, seat 0)
    assert not (await leave_now(service, GROUP, BOB)).alert
    while t.hand is not None and t.hand_no == 1:
        await auto_street(service, presenter, ALICE)
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if s.text.startswith("🏁"))
    assert "Alice ①" in showdown and "🌴" not in showdown, showdown
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and t.seat_of(BOB.user_id) is None
    history = await store.hand_history(alice.player_id, 1)
    result = history[0].result
    assert next(r for r in result["seats"] if r["seat"] == 0)["fantasyland_cards"] == 13
    assert result["fantasyland_forgone_seats"] == [0]
    assert await check_store(store) == []


async def test_r8_6_a_match_its_fantasyland_left_with_ends_and_sits_out_who_timed_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heads-up double boxes (R4.2): Alice's moves are made for her all the first hand (R8.5)
    and Bob's first board earns Fantasyland, so she sits out after its Fantasyland hand
    (R8.6). Bob leaves instead, his Fantasyland with him (R6): the match is over. Carol and
    Dan sit down: Alice, away, was dealt the new match with them, and sat out only after
    it, by her board seats 0 and 1 read at a table of single boards, so Carol (seat 1), who
    never timed out, was sat out too. She sits out at that deal; Carol and Dan play."""
    service, presenter, store, clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc", heads_up_double_boxes="on", safe_autoplay="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand.order == (0, 1, 10, 11)
    grant_fantasyland(monkeypatch, iter([False, False, True]))  # (Bob's first board, 10)
    alice = t.seat_of(ALICE.user_id)
    await first_hand_away(service, presenter, clock, t, away=ALICE, present=BOB)
    assert t.match is not None and t.match.fantasyland == {10: 13}
    assert t.match.sit_out_after_match == {0, 1}  # (Alice's boards)
    assert not (await service.leave(GROUP, BOB)).alert
    for a in (CAROL, DAN):
        assert not (await service.join(GROUP, a)).alert
    for a in (CAROL, DAN):
        assert not (await service.ready(GROUP, a)).alert
    await run_until_dealt(service, clock, t)
    assert alice is not None and alice.sitting_out and alice.timed_out  # R8.6
    carol, dan = t.seat_of(CAROL.user_id), t.seat_of(DAN.user_id)
    assert carol is not None and dan is not None and (carol.seat, dan.seat) == (1, 2)
    assert t.hand is not None and t.hand.order == (10, 11, 20, 21)  # (two play: R4.2)
    await play_hand(service, presenter, [CAROL, DAN])
    assert not carol.sitting_out and not dan.sitting_out
    assert await check_store(store) == []


async def test_r8_6_a_timed_out_player_is_not_promised_a_fantasyland_nobody_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heads-up double boxes (R4.2): Bob leaves during the first hand, Alice's moves are
    made for her all of it (R8.5), and Bob's first board earns Fantasyland: it goes with
    him (R6), nor is anyone left to play one (R6.6), so Alice sits out from the next deal
    (R8.6). Her private screen said "The Fantasyland hand this one earned is played first,
    with you; then you sit out"."""
    service, presenter, store, clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc", heads_up_double_boxes="on", safe_autoplay="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand.order == (0, 1, 10, 11)
    grant_fantasyland(monkeypatch, iter([False, False, True]))  # (Bob's first board, 10)
    assert not (await leave_now(service, GROUP, BOB)).alert
    while t.hand is not None and t.hand_no == 1:
        clock.now += 181  # Alice is away: budget and bank run out (R8.5)
        await service.run_due()
    assert t.match is not None and not t.match.fantasyland  # (it went with Bob, R6)
    assert t.match.sit_out_after_match == {0, 1} and t.seat_of(BOB.user_id) is None
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if s.text.startswith("🏁"))
    assert "Bob ①" in showdown and "🌴" not in showdown  # (earned: 13 in the record)
    text = presenter.last_private(ALICE.user_id).text
    assert text.endswith("\n" + tr("en", "private.sitting_out")), text
    assert await check_store(store) == []
