"""brk80: break-it round on the forty-first session's code.

1. brk74's lowered buy-in given back before a newcomer's first hand
   (:attr:`bot.model.SeatState.unplayed_buy_in`, :func:`bot.service.dealing.apply_pending`,
   R8.2): lowered twice, lowered and set back, a top-up beside it, a balance that moved, a
   computer player's house kush; every ledger row balanced and the kush conserved
   (:func:`tests.bot.money.assert_conserved`).
2. flk41's per-chat opening lock (:meth:`bot.service.runtime.Runtime.opening_lock`).
3. brk76's Chinese Poker tournament game ended by a leaver between hands
   (:func:`bot.service.tournaments.end_game_on_leave`, R7.6, R8.7).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.model import ChatRef, LiveTable, Reply
from bot.screens import Screen
from bot.service import TableService
from bot.texts import tr
from storage.api import StorageUnreachable, TableRecord
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_brk74_money import DAVE, NO_FANTASYLAND, _rows, _service
from tests.bot.test_brk76_tournaments import _first_hand_over
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    dealt_at,
    leave_now,
    press_auto_and_confirm,
)
from tests.bot.test_tournament_break import PLAYERS, play_scripted_hand
from tests.bot.test_tournament_service import a_chinese_tournament_started, configure, new_service
from tests.bot.test_transitions import player_balance, player_balance_in


async def _newcomer_paid_200() -> tuple[MemoryStore, TableService, FakePresenter, LiveTable]:
    """brk74's first scene: at 50 kush a point, Alice and Bob dealt at 200; an admin saves
    10 a point and a buy-in of 40 (it waits for the match's end); Dave sits down and pays
    200 (the table's buy-in, which pays either point)."""
    store = MemoryStore()
    service, presenter, _clock = _service(store)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    assert not (await service.join(GROUP, DAVE)).alert
    reply = await service.ready(GROUP, DAVE)
    assert reply.text == "Ready: 200 kush moved to the table.", reply.text
    return store, service, presenter, t


async def test_r8_2_a_buy_in_lowered_twice_gives_back_the_difference_to_the_last_once() -> None:
    """40, then 20 saved during the hand (both below the point in force: they wait): Dave's
    first hand costs 20, so 180 of his 200 come back, in one refund and one buy-in."""
    store, service, presenter, t = await _newcomer_paid_200()
    await configure(service, min_buy_in="20")
    await play_scripted_hand(service, presenter, t, NO_FANTASYLAND)
    assert t.min_buy_in == 20
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == 20 and dave.unplayed_buy_in == 20
    assert await _rows(store, DAVE) == [
        ("starting", 1000, 0),
        ("buy_in", -200, 200),
        ("refund", 200, -200),
        ("buy_in", -20, 20),
    ]
    assert await player_balance_in(store, GROUP, DAVE) == 980
    posts = " ".join(text for _, text in presenter.posts)
    assert "180 kush of the 200 paid went back" in posts
    await assert_conserved(store)


async def test_r8_2_a_buy_in_lowered_then_set_back_gives_nothing_back() -> None:
    """40 saved during the hand, then 200 again before it applies: Dave's first hand costs
    the 200 he paid; no refund row, his stack 200."""
    store, service, presenter, t = await _newcomer_paid_200()
    await configure(service, min_buy_in="200")
    await play_scripted_hand(service, presenter, t, NO_FANTASYLAND)
    assert t.min_buy_in == 200 and t.options.kush_per_point == 10
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == 200
    assert await _rows(store, DAVE) == [("starting", 1000, 0), ("buy_in", -200, 200)]
    assert "went back" not in " ".join(text for _, text in presenter.posts)
    await assert_conserved(store)


async def test_r8_2_a_top_up_beside_a_lowered_buy_in_keeps_the_top_up() -> None:
    """Dave, not dealt in, tops up 300 at once (max_buy_in 1000); Alice, in the hand, queues
    a top-up of a buy-in. The lowered buy-in applies: Dave gets back only the 160 of his
    buy-in (stack 40 + 300); Alice's queued buy-in is the new one, 40, and nothing of hers
    is refunded (she was dealt at 200)."""
    store = MemoryStore()
    service, presenter, _clock = _service(store)
    await configure(service, kush_per_point="50", max_buy_in="1000")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    await configure(service, kush_per_point="10", min_buy_in="40")
    assert not (await service.join(GROUP, DAVE)).alert
    assert not (await service.ready(GROUP, DAVE)).alert
    reply = await service.top_up(GROUP, DAVE, "300")
    assert not reply.alert, reply.text
    reply = await service.top_up(GROUP, ALICE, "")
    assert not reply.alert, reply.text
    await play_scripted_hand(service, presenter, t, NO_FANTASYLAND)
    await service.run_due()
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == 340
    assert await _rows(store, DAVE) == [
        ("starting", 1000, 0),
        ("buy_in", -200, 200),
        ("buy_in", -300, 300),
        ("refund", 500, -500),
        ("buy_in", -340, 340),
    ]
    alice = await _rows(store, ALICE)
    assert "refund" not in [k for k, _, _ in alice]
    assert alice[-1] == ("buy_in", -40, 40), alice
    await assert_conserved(store)


async def test_r8_2_a_balance_moved_meanwhile_gets_the_difference_on_top() -> None:
    """An admin grants Dave 500 after his Ready (balance 800 → 1300): the 160 come back on
    top of it, 1460; the table holds his 40."""
    store, service, presenter, t = await _newcomer_paid_200()
    reply = await service.grant(GROUP, ALICE, True, "Dave", "500", "g1")
    assert not reply.alert, reply.text
    assert await player_balance_in(store, GROUP, DAVE) == 1300
    await play_scripted_hand(service, presenter, t, NO_FANTASYLAND)
    assert await player_balance_in(store, GROUP, DAVE) == 1460
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and (await store.stacks(t.id))[dave.player_id] == 40
    await assert_conserved(store)


async def test_r8_2_in_the_lobby_lowered_raised_lowered_gives_back_to_the_last_buy_in() -> None:
    """In the lobby Alice pays 200 (Bob seated, not Ready) and a computer player is seated
    at 200 (house kush); the buy-in goes to 100 (100 back to each), 300 (nothing moves: no
    stack is raised) and 40 (60 more back each). Each ends at 40, having paid 40 net; conserved."""
    store = MemoryStore()
    service, _presenter, _clock = _service(store)
    assert not (await service.new_table(GROUP, ALICE)).alert
    for a in (ALICE, BOB):  # (Bob not Ready: no deal)
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    reply = await service.add_bot(GROUP, ALICE, True)
    assert not reply.alert, reply.text
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None
    robot = next(s for s in t.seats.values() if s.bot is not None)
    for buy_in, stacks in (("100", [100, 100]), ("300", [100, 100]), ("40", [40, 40])):
        await configure(service, min_buy_in=buy_in)
        assert t.hand is None
        assert [s.stack for s in t.seats.values() if s.ready] == stacks, buy_in
    assert await _rows(store, ALICE) == [
        ("starting", 1000, 0),
        ("buy_in", -200, 200),
        ("refund", 200, -200),
        ("buy_in", -100, 100),
        ("refund", 100, -100),
        ("buy_in", -40, 40),
    ]
    community = await store.community("telegram", GROUP.community_id)
    kinds = [
        (e.kind.value, e.balance_delta, e.stack_delta)
        for e in await store.ledger(community.id)
        if e.player_id == robot.player_id and e.kind.value != "admin_grant"
    ]
    assert kinds[-2:] == [("refund", 100, -100), ("buy_in", -40, 40)], kinds
    assert sorted((await store.stacks(t.id)).values()) == [40, 40]
    await assert_conserved(store)


async def test_r8_2_a_buy_in_lowered_while_the_bot_was_down_gives_back_once() -> None:
    """Alice pays 200 in the lobby; the bot stops; an admin's lower buy-in (40) is saved
    while no table is served (the restored table missed it: :func:`~bot.service.settings.
    reconcile`). Restored, the table takes it and gives Alice 160 back, once: a second
    restart moves nothing more."""
    store = MemoryStore()
    service, _presenter, clock = _service(store)
    assert not (await service.new_table(GROUP, ALICE)).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    await service.stop()
    for restart in range(2):
        again, _presenter2, _clock2 = _service(store)
        again.rt.clock = clock  # (one clock: the ready timer does not run out)
        if restart == 0:
            await configure(again, min_buy_in="40")
        await again.start()
        try:
            t = again.table_in(GROUP)
            assert t is not None and t.min_buy_in == 40
            alice = t.seat_of(ALICE.user_id)
            assert alice is not None and alice.stack == 40 and alice.unplayed_buy_in == 40
        finally:
            await again.stop()
    assert await _rows(store, ALICE) == [
        ("starting", 1000, 0),
        ("buy_in", -200, 200),
        ("refund", 200, -200),
        ("buy_in", -40, 40),
    ]
    await assert_conserved(store)


async def _chinese_tournament_between_hands(
    chips: str = "1000",
) -> tuple[TableService, FakePresenter, MemoryStore, Clock, LiveTable]:
    """brk76's scene: a Chinese Poker tournament of Alice, Bob and Carol to 40 points (buy-in
    100), its first hand played (Alice 13, Bob 9, Carol 2), between hands."""
    service, presenter, store, clock = new_service(next_hand_delay=30)
    await configure(service, game="chinese", target_points="40", tournament_chips=chips,
                    tournament_buy_in="100")  # fmt: skip
    await a_chinese_tournament_started(service, presenter)
    await _first_hand_over(service, presenter, clock)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is None
    assert t.chinese is not None and dict(t.chinese.totals) == {0: 13, 1: 9, 2: 2}
    return service, presenter, store, clock, t


async def test_r8_7_two_players_leaving_a_chinese_tournament_at_once_between_hands() -> None:
    """Carol and Bob leave at once between hands (their confirmations sent together): one
    settles the game (Alice +40 from Bob, Carol's points dropped), the other then leaves a
    tournament with one player in it: Alice wins the pool of 300, paid once; the table
    closes; the ledger balanced and the kush conserved."""
    service, presenter, store, _clock, t = await _chinese_tournament_between_hands()
    for a in (CAROL, BOB):  # (each asked first)
        assert (await service.leave(GROUP, a)).alert
    replies = await asyncio.gather(service.leave(GROUP, CAROL), service.leave(GROUP, BOB))
    assert replies[0].text == tr("en", "tour.left", place=3, prize=0, label="kush")
    assert replies[1].text == tr("ru", "tour.left", place=2, prize=0, label="kush")
    assert service.table_in(GROUP) is None
    assert t.tournament is not None and t.tournament.places == {0: 1, 1: 2, 2: 3}
    assert {a.user_id: await player_balance(store, a) for a in PLAYERS} == {
        ALICE.user_id: 1200,
        BOB.user_id: 900,
        CAROL.user_id: 900,
    }
    game = tr("en", "tour.game_over_leave", moves="Alice +40 chips, Bob −40 chips")
    assert sum(game in text for _, text in presenter.posts) == 1
    assert await store.stacks(t.id) == {}
    held = await assert_conserved(store)
    assert sum(held.values()) == 3000


async def test_r8_7_leaving_twice_knocks_out_once() -> None:
    """Carol's leave confirmed, then her /leave again: the second is refused (not seated),
    the game settled once, her place 3 and the chips of the two left 2,000 in all."""
    service, presenter, store, _clock, t = await _chinese_tournament_between_hands()
    await leave_now(service, GROUP, CAROL)
    again = await service.leave(GROUP, CAROL)
    assert again.alert, again.text
    assert t.tournament is not None and t.tournament.places == {2: 3}
    assert t.tournament.chips == {0: 1040, 1: 960}
    game = tr("en", "tour.game_over_leave", moves="Alice +40 chips, Bob −40 chips")
    assert sum(game in text for _, text in presenter.posts) == 1
    await assert_conserved(store)


async def test_r8_7_a_restart_right_after_a_leave_settles_nothing_again() -> None:
    """Carol leaves between hands (the game settled: Alice 1,040, Bob 960); the bot stops
    and starts again at once: the restored table has no game under way, the same chips, one
    history entry of the settlement (game_end), and deals the next hand to Alice and Bob."""
    service, _presenter, store, clock, t = await _chinese_tournament_between_hands()
    await leave_now(service, GROUP, CAROL)
    assert t.tournament is not None and t.tournament.chips == {0: 1040, 1: 960}
    await service.stop()
    again = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=30,
                         timers=False)  # fmt: skip
    again.register(FakePresenter())
    await again.start()
    try:
        t2 = again.table_in(GROUP)
        assert t2 is not None and t2.tournament is not None and t2 is not t
        assert t2.chinese is None and t2.tournament.chips == {0: 1040, 1: 960}
        history = (await again.history(GROUP, ALICE)).text.splitlines()
        assert history[1:3] == [
            "#2 · Tournament #1, the Chinese Poker game settled: +40 chips",
            "#1 · Tournament #1, hand 1: +13 pts, 0 chips",
        ], history
        clock.now += 60
        await again.run_due()
        assert t2.hand is not None and sorted(t2.hand.order) == [0, 1]
        assert t2.tournament.chips == {0: 1040, 1: 960}
        await assert_conserved(store)
    finally:
        await again.stop()


async def test_r8_7_the_last_opponent_leaving_the_final_game_between_hands_pays_out() -> None:
    """Carol leaves (the game settled); Alice and Bob play a hand of the next game, then Bob
    leaves between hands: one player is left, the tournament is over (R8.7) and its pool of
    300 paid to Alice once (the game under way no longer matters: it moves no kush); the
    table closes, no stack left, the kush conserved."""
    service, presenter, store, clock, t = await _chinese_tournament_between_hands()
    await leave_now(service, GROUP, CAROL)
    clock.now += 60
    await service.run_due()
    assert t.hand is not None and sorted(t.hand.order) == [0, 1]
    await _first_hand_over(service, presenter, clock)
    assert t.hand is None and t.chinese is not None and not t.chinese.over
    reply = await leave_now(service, GROUP, BOB)
    assert reply.text == tr("ru", "tour.left", place=2, prize=0, label="kush"), reply.text
    assert service.table_in(GROUP) is None
    assert t.tournament is not None and t.tournament.places == {0: 1, 1: 2, 2: 3}
    assert {a.user_id: await player_balance(store, a) for a in PLAYERS} == {
        ALICE.user_id: 1200,
        BOB.user_id: 900,
        CAROL.user_id: 900,
    }
    assert await store.stacks(t.id) == {}
    assert "1. Alice — 300 kush" in presenter.last_table(GROUP.chat_id).text
    await assert_conserved(store)


@dataclass
class SlowPresenter(FakePresenter):
    """A presenter whose writes of a table message in ``held`` chats wait for ``go``."""

    held: set[str] = field(default_factory=set)
    go: asyncio.Event = field(default_factory=asyncio.Event)

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        if chat_id in self.held:
            await self.go.wait()
        return await super().show_table(chat_id, screen, ref)


async def _turns(task: asyncio.Future[Reply]) -> Reply:
    """``task``'s answer once it is done within 1,000 turns of the loop (no clock involved);
    it failed if it still waits then (a lock held across a platform send)."""
    for _ in range(1000):
        if task.done():
            return task.result()
        await asyncio.sleep(0)
    raise AssertionError("still waiting")


async def test_r8_2a_a_slow_table_message_holds_no_chat_s_opening() -> None:
    """flk41: Alice's /newtable opens table #1, whose lobby message Telegram is slow to
    take. While it waits: Bob's /newtable in the same chat is told table #1 is open, Bob
    joins it, and Carol opens table #2 in another chat; none of them waits for the send
    (the chat's opening lock is let go before the message is sent; Bob's join is answered
    before its own step's sends). Then Alice is told, and Bob's join is done."""
    store = MemoryStore()
    service = TableService(store, clock=Clock(), rng=random.Random(5), timers=False)
    presenter = SlowPresenter(held={GROUP.chat_id})
    service.register(presenter)
    try:
        first = asyncio.ensure_future(service.new_table(GROUP, ALICE))
        while service.table_in(GROUP) is None:
            await asyncio.sleep(0)
        second = await _turns(asyncio.ensure_future(service.new_table(GROUP, BOB)))
        assert second.alert and second.text.startswith(tr("ru", "reply.table_exists", table=1))
        answered: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()

        async def answer(reply: Reply) -> None:  # (a press is answered before its sends)
            answered.set_result(reply)

        join = asyncio.ensure_future(service.join(GROUP, BOB, answer))
        joined = await _turns(answered)
        assert joined.text == tr("ru", "reply.joined", seat=1), joined.text
        other = ChatRef("telegram", "-200", "-200", "Others")
        third = await _turns(asyncio.ensure_future(service.new_table(other, CAROL)))
        assert third.text == tr("en", "reply.table_opened", table=2), third.text
        assert not first.done()  # (its answer waits for the table message, which waits)
        presenter.go.set()
        assert (await first).text == tr("en", "reply.table_opened", table=1)
        assert (await join).text == joined.text
    finally:
        presenter.go.set()
        await service.stop()
    assert presenter.tables[GROUP.chat_id]


class FailingOpenStore(MemoryStore):
    """A store whose first ``create_table`` fails (the database out of reach)."""

    failed = False

    async def create_table(
        self, community_id: int, chat_id: str, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        if not self.failed:
            self.failed = True
            raise StorageUnreachable("down")
        return await super().create_table(community_id, chat_id, options, min_buy_in)


async def test_r8_2a_a_failed_opening_lets_the_next_one_open() -> None:
    """flk41: the first /newtable of a chat fails in storage ("Could not save"); the chat's
    opening lock is let go: the next /newtable opens table #1, the only record open."""
    store = FailingOpenStore()
    service = TableService(store, clock=Clock(), rng=random.Random(5), timers=False)
    service.register(FakePresenter())
    failed = await service.new_table(GROUP, ALICE)
    assert failed.alert and failed.text == tr("en", "err.storage"), failed.text
    assert not service.rt.opening_lock(GROUP.platform, GROUP.chat_id).locked()
    opened = await service.new_table(GROUP, ALICE)
    assert opened.text == tr("en", "reply.table_opened", table=1), opened.text
    community = await store.community("telegram", GROUP.community_id)
    assert [r.id for r in await store.open_tables(community.id)] == [1]


async def test_r8_7_a_newtable_and_a_tournament_at_once_open_one_table() -> None:
    """flk41: /newtable and /tournament sent together in one chat: one opens (the first to
    take the chat's opening lock), the other is told that table is open; one record."""
    store = MemoryStore()
    service = TableService(store, clock=Clock(), rng=random.Random(5), timers=False)
    service.register(FakePresenter())
    cash, tour = await asyncio.gather(
        service.new_table(GROUP, ALICE), service.new_tournament(GROUP, BOB, "pineapple")
    )
    assert cash.text == tr("en", "reply.table_opened", table=1), cash.text
    assert tour.alert and tour.text.startswith(tr("ru", "reply.table_exists", table=1))
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is None
    community = await store.community("telegram", GROUP.community_id)
    assert [r.id for r in await store.open_tables(community.id)] == [1]


async def test_r8_7_leaving_during_the_reveal_ends_the_game_as_between_hands() -> None:
    """Carol leaves a Chinese Poker tournament during the first hand's reveal (R7.4): once
    it is over the game ends as it does when she leaves between hands (R7.6, R8.7): Alice
    1,040 and Bob 960 chips, Carol third; Alice's history shows the chips on the hand (no
    entry of its own: the hand settled it), Carol's none; the kush conserved."""
    service, presenter, store, clock = new_service(next_hand_delay=30)
    await configure(service, game="chinese", target_points="40", tournament_chips="1000",
                    tournament_buy_in="100")  # fmt: skip
    await a_chinese_tournament_started(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    by_id = {a.user_id: a for a in PLAYERS}
    while t.hand is not None and t.hand.to_act:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.reveal is not None
    reply = await leave_now(service, GROUP, CAROL)
    assert reply.text == tr("en", "tour.left", place=3, prize=0, label="kush"), reply.text
    for _ in range(50):
        if t.hand is None:
            break
        clock.now += 5
        await service.run_due()
    assert t.hand is None and t.chinese is None
    assert t.tournament.chips == {0: 1040, 1: 960} and t.tournament.places == {2: 3}
    history = (await service.history(GROUP, ALICE)).text.splitlines()
    assert history[1] == "#1 · Tournament #1, hand 1: +13 pts, +40 chips", history
    assert "chips" not in (await service.history(GROUP, CAROL)).text.replace("0 chips", "")
    await assert_conserved(store)
