"""brk72: break-it on brk71's next hand's buy-in (``dealing.next_buy_in``, R8.2).

A newcomer's Ready during a hand pays the buy-in the next hand plays. Which buy-in that is
depends on how the hand ends when an admin lowered the point with the buy-in below the point
in force: the new options wait for the match's end (R6.6), and a hand that earns Fantasyland
keeps the match going."""

from __future__ import annotations

import random

import pytest

from bot.model import Actor
from bot.service import TableService
from bot.service.dealing import next_buy_in
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import GROUP, dealt_at
from tests.bot.test_tournament_break import HEADS_UP, PLAYERS, play_scripted_hand, scripted_deck
from tests.bot.test_tournament_service import configure
from tests.bot.test_transitions import player_balance

DAVE = Actor("telegram", "4", "Dave", "en")


async def test_r8_2_a_buy_in_below_the_point_in_force_never_seats_a_newcomer_below_a_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 50 kush a point and a buy-in of 200, an admin saves 10 a point and a buy-in of 40
    during the first hand; Dave sits down and presses Ready. The hand earns its first player
    Fantasyland (Q♥Q♦ on top): the match goes on, the point stays 50 and the buy-in 200
    (the new one, below the point in force, waits for it). Dave had paid 40 for the next
    hand: a stack below the point at the deal (R8.2: a buy-in pays a point)."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False,
        deck_source=lambda: scripted_deck(HEADS_UP),
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    await configure(service, kush_per_point="50")
    t = await dealt_at(service, GROUP, PLAYERS[:2])
    assert t.hand is not None and t.min_buy_in == 200
    await configure(service, kush_per_point="10", min_buy_in="40")
    assert t.pending_buy_in == 40 and t.options.kush_per_point == 50
    assert not (await service.join(GROUP, DAVE)).alert
    paid = next_buy_in(t)
    reply = await service.ready(GROUP, DAVE)
    assert not reply.alert, reply.text
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == paid
    await play_scripted_hand(service, presenter, t, HEADS_UP)
    assert t.match is not None and t.match.in_match  # (Fantasyland earned: the match goes on)
    assert t.options.kush_per_point == 50 and t.min_buy_in == 200
    # Dave's stack pays the point in force at the next deal
    assert dave.stack >= t.options.kush_per_point, dave.stack
    assert await player_balance(store, DAVE) == 1000 - dave.stack
    await check_store(store)


async def test_r8_2_chinese_poker_a_newcomer_pays_the_lowered_buy_in_of_the_next_hand() -> None:
    """Chinese Poker (no Fantasyland, R7): at 50 kush a point and a buy-in of 200, an admin
    saves 10 a point and a buy-in of 40 during the first hand's reveal; Dave sits down and
    presses Ready. The hand ends the game (a new point, R7.6) and the new options apply for
    sure: he pays 40, the table's buy-in from then on (the point in force is no bar here,
    as it is where a Fantasyland may keep the match going)."""
    from tests.bot.test_classic_games_e2e import ALICE_13, chinese_deck
    from tests.bot.test_service_classic import ALICE, BOB, auto_street, start
    from tests.bot.test_service_classic import GROUP as CLASSIC
    from tests.bot.test_service_classic import configure as configure_classic

    store, clock = MemoryStore(), Clock()
    deck = chinese_deck(ALICE_13, "Jc Td 4s 9c 9d 6s 6h 2h Qs Qd Qh 7c 8d")
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False,
        deck_source=lambda: list(deck),
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    await configure_classic(service, game="chinese", reveal_pause_seconds="0", kush_per_point="50")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(CLASSIC)
    assert t is not None
    for who in (ALICE, BOB):
        await auto_street(service, presenter, who)
    assert t.hand is not None
    await configure_classic(service, kush_per_point="10", min_buy_in="40")
    assert not (await service.join(CLASSIC, DAVE)).alert
    reply = await service.ready(CLASSIC, DAVE)
    assert reply.text == "Ready: 40 kush moved to the table.", reply.text
    for _ in range(4):
        await service.run_due()
    assert t.hand is None and t.min_buy_in == 40 and t.options.kush_per_point == 10
    dave = t.seat_of(DAVE.user_id)
    assert dave is not None and dave.stack == 40
    community = await store.community("telegram", CLASSIC.community_id)
    player = await store.find_player(community.id, DAVE.user_id)
    assert player is not None and player.balance == 960
    assert await check_store(store) == []
