"""Computer players at a group's table (issue 13): seated by admins or the table's opener,
house kush (never a member's balance), a human-like pace, decisions from what their seat may
know only, no private chat, stood up between hands, and a restart with one seated."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import thinking
from bot.model import Actor, ChatRef, LiveTable, Phase, SeatState
from bot.presses import Join, Leave, Ready, TopUp, decode, encode
from bot.service import TableService, bots
from bot.service.lobby import add_top_ups
from bot.texts import tr
from game.board import Box
from game.cards import Card
from game.policy import Level, SeatKnowledge, knowledge
from storage.api import BuyIn, LedgerKind, Move
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now, press_auto_and_confirm
from tests.bot.test_transitions import player_balance
from tests.waiting import until


def new_service(
    store: MemoryStore, clock: Clock, live: bool = False
) -> tuple[TableService, FakePresenter]:
    """Timers off and ``clock`` (tests call ``run_due``); ``live``: timers on, the wall
    clock and a pace of 0.3 s."""
    if live:
        service = TableService(store, rng=random.Random(5), next_hand_delay=5, bot_pace=(0.3, 0.3))
    else:
        service = TableService(
            store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False,
            bot_pace=(1.0, 3.0),
        )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter


def held_decisions(
    monkeypatch: pytest.MonkeyPatch, most: float
) -> tuple[threading.Event, list[SeatKnowledge]]:
    """Every computer player's decision waits (in its thread) until the returned gate is set
    (or ``most`` seconds), then decides as it would: (the gate, what each was asked with)."""
    gate = threading.Event()
    asked: list[SeatKnowledge] = []
    real = bots.decide

    def slow(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
        asked.append(k)
        gate.wait(most)
        return real(k, level)

    monkeypatch.setattr(bots, "decide", slow)
    return gate, asked


async def alice_and_a_bot(
    level: str = "easy", point: int | None = None, live: bool = False
) -> tuple[TableService, FakePresenter, MemoryStore, Clock]:
    """Alice opens a table (at ``point`` kush a point if given), seats a computer player of
    ``level`` and is dealt in with it (``live`` as in :func:`new_service`)."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock, live)
    if point is not None:
        reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", str(point)])
        assert not reply.alert, reply.text
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, level)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    return service, presenter, store, clock


async def play_hand_with_bots(service: TableService, presenter: FakePresenter, clock: Clock) -> int:
    """Alice presses; the computer players move when their time comes. Returns the number
    of times a computer player moved."""
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    number, moves = t.hand_no, 0
    for _ in range(200):
        if t.hand is None or t.hand_no != number:
            return moves
        seat = t.seats[t.owner(t.hand.to_act[0])]
        if seat.bot:
            assert t.bot_due is not None
            wait = t.bot_due - clock.now
            assert 0 < wait <= 3.0  # a human-like pace
            clock.now = t.bot_due
            await service.run_due()
            moves += 1
        else:
            await press_auto_and_confirm(service, presenter, ALICE)
    raise AssertionError("the hand did not end")


async def test_addbot_seats_a_computer_player_that_plays_with_house_kush() -> None:
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    reply = await service.add_bot(GROUP, BOB, False)  # neither admin nor the opener
    # (it said "Only group admins can do that", and Alice, no admin, just did)
    assert reply.alert and reply.text == tr("ru", "bot.admins_or_opener")
    reply = await service.remove_bot(GROUP, BOB, False)
    assert reply.alert and reply.text == tr("ru", "bot.admins_or_opener")
    reply = await service.add_bot(GROUP, ALICE, False, "grandmaster")
    assert reply.alert and reply.text == tr("en", "bot.levels")
    reply = await service.add_bot(GROUP, ALICE, False, "strong")  # the opener may
    assert not reply.alert and reply.text == tr("en", "bot.added", name="🤖 Anna", level="strong")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    bot = next(s for s in t.seats.values() if s.bot)
    assert bot.bot == "strong" and bot.stack == 200 and bot.user_id == "bot:anna"
    moves = await play_hand_with_bots(service, presenter, clock)
    assert moves == 5  # one move per street
    assert bot.user_id not in presenter.privates  # no private chat
    assert await player_balance(store, ALICE) == 800  # Alice's balance never touched
    community = await store.community("telegram", "-100")
    house = [e for e in await store.ledger(community.id) if e.actor == "house"]
    assert house and all(e.kind is LedgerKind.ADMIN_GRANT for e in house)
    assert len(await store.export_hands(t.id)) == 1
    assert await check_store(store) == []


async def test_removebot_between_hands_and_a_restart_with_a_bot_seated() -> None:
    service, presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    # Alice plays her first street; the bot is due; the bot process restarts
    while t.seats[t.owner(t.hand.to_act[0])].user_id == ALICE.user_id:
        await press_auto_and_confirm(service, presenter, ALICE)
    due = t.bot_due
    assert due is not None
    await service.stop()
    service2, presenter2 = new_service(store, clock)
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None and t2.bot_due == due
    await play_hand_with_bots(service2, presenter2, clock)
    assert t2.hand is None  # between hands (next hand in 5 s)
    reply = await service2.remove_bot(GROUP, ALICE, True)
    assert reply.text == tr("en", "bot.removed", name="🤖 Anna")
    assert not any(s.bot for s in t2.seats.values())
    assert (await service2.remove_bot(GROUP, ALICE, True)).text == tr("en", "bot.none")
    assert await check_store(store) == []


async def test_the_same_addbot_request_seats_one_computer_player() -> None:
    """``/addbot`` delivered twice (same platform key) seats one computer player and buys in
    once; the second delivery is answered "already done"."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    reply = await service.add_bot(GROUP, ALICE, True, "easy", "tg:-100:41")
    assert reply.text == tr("en", "bot.added", name="🤖 Anna", level="easy")
    reply = await service.add_bot(GROUP, ALICE, True, "easy", "tg:-100:41")
    assert not reply.alert and reply.text == tr("en", "reply.request_done")
    t = service.table_in(GROUP)
    assert t is not None and [s.name for s in t.seats.values() if s.bot] == ["🤖 Anna"]
    assert len(await store.stacks(t.id)) == 1
    reply = await service.add_bot(GROUP, ALICE, True, "easy", "tg:-100:42")  # a new command
    assert reply.text == tr("en", "bot.added", name="🤖 Boris", level="easy")
    assert await check_store(store) == []


async def test_the_same_removebot_request_stands_one_computer_player_up() -> None:
    """``/removebot`` delivered twice (Telegram after a crash: same platform key) stood up
    a second computer player; the second delivery is answered "already done"."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.add_bot(GROUP, ALICE, True, "easy")
    reply = await service.remove_bot(GROUP, ALICE, True, "tg:-100:43")
    assert reply.text == tr("en", "bot.removed", name="🤖 Boris")
    reply = await service.remove_bot(GROUP, ALICE, True, "tg:-100:43")
    assert not reply.alert and reply.text == tr("en", "reply.request_done")
    t = service.table_in(GROUP)
    assert t is not None and [s.name for s in t.seats.values() if s.bot] == ["🤖 Anna"]
    reply = await service.remove_bot(GROUP, ALICE, True, "tg:-100:44")  # a new command
    assert reply.text == tr("en", "bot.removed", name="🤖 Anna")
    assert await check_store(store) == []


async def test_computer_players_never_play_a_hand_without_a_person() -> None:
    """Two computer players seated before anyone joins: no hand is dealt (they would play each
    other forever, a group message per move); Alice ready: dealt to all three. When Alice
    leaves after the hand, the next hand is not dealt: the table is back in the lobby."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.add_bot(GROUP, ALICE, True, "easy")
    t = service.table_in(GROUP)
    assert t is not None and len(t.seats) == 2
    clock.now += 30
    await service.run_due()
    assert t.hand is None and t.hand_no == 0 and t.phase.value == "lobby"
    # the lobby says what it waits for: both are ready, so "the hand starts when everyone
    # seated (2+) is ready" would be wrong
    lobby = presenter.tables[GROUP.chat_id][-1].text
    assert lobby.endswith(tr("en", "lobby.bots_wait")), lobby
    assert tr("en", "lobby.hint") not in lobby
    await service.join(GROUP, ALICE)
    lobby = presenter.tables[GROUP.chat_id][-1].text
    # two players are ready: the ready timer runs for Alice (R8.2), as next to two people;
    # only computer players are ready, so no hand starts at its end: her seat is freed (nu49)
    assert lobby.endswith(tr("en", "lobby.ready_window", name="Alice", seconds=60)), lobby
    await service.ready(GROUP, ALICE)
    assert t.hand is not None and len(t.hand.order) == 3
    await play_hand_with_bots(service, presenter, clock)
    reply = await service.leave(GROUP, ALICE)
    assert reply.text.startswith(tr("en", "reply.left", amount=0, label="kush")[:5])
    clock.now += 60
    await service.run_due()
    assert t.hand is None and t.hand_no == 1 and t.phase.value == "lobby"
    assert presenter.tables[GROUP.chat_id][-1].text.endswith(tr("en", "lobby.bots_wait"))
    assert await check_store(store) == []


async def test_the_lobby_says_a_person_sitting_out_with_computer_players_is_waited_for() -> None:
    """Alice, the only person, sits out with a computer player seated (her /sitout, or her
    time ran out, R8.6): no hand is dealt, and the lobby said "The hand starts when everyone
    seated (2+) has pressed Ready", which everyone dealt in (the computer player) had; it
    says the computer players wait for her, and Ready brings her back and deals."""
    service, presenter, _store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.sit_out(GROUP, ALICE)
    assert not reply.alert, reply.text
    await play_hand_with_bots(service, presenter, clock)
    # the lobby after the showdown said "Next hand in 5 seconds…", a hand that never came
    lobby = presenter.tables[GROUP.chat_id][-1].text
    assert lobby.endswith(tr("en", "lobby.bots_wait_back")), lobby
    clock.now += 60
    await service.run_due()
    assert t.hand is None and t.hand_no == 1 and t.phase.value == "lobby"
    lobby = presenter.tables[GROUP.chat_id][-1].text
    assert lobby.endswith(tr("en", "lobby.bots_wait_back")), lobby
    assert tr("en", "lobby.hint") not in lobby
    reply = await service.ready(GROUP, ALICE)
    assert not reply.alert, reply.text
    assert t.hand is not None and t.hand_no == 2


async def test_a_rule_option_changed_during_a_hand_says_it_waits_for_the_hand() -> None:
    """An admin sets ``kush_per_point`` while a hand is played: it applies from the next
    match (R6.6), and the reply said only "Saved", so the hand settling at the old rate
    looked wrong; it says when. A setting that applies at once (the language) and a change
    with no hand under way say nothing of the kind."""
    service, presenter, _store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "2"])
    assert reply.text.startswith(
        tr("en", "reply.settings_saved", what="kush_per_point = 2 (was 1)")
    )
    assert tr("en", "settings.next_match") in reply.text, reply.text
    reply = await service.settings(GROUP, ALICE, True, ["pictures", "off"])
    assert tr("en", "settings.next_match") not in reply.text, reply.text
    await play_hand_with_bots(service, presenter, clock)
    clock.now += 60
    await service.run_due()  # the next hand, at 2 kush a point
    assert t.options.kush_per_point == 2 and t.pending_options is None
    await service.sit_out(GROUP, ALICE)
    await play_hand_with_bots(service, presenter, clock)
    assert t.hand is None
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "3"])
    assert t.options.kush_per_point == 3
    assert tr("en", "settings.next_match") not in reply.text, reply.text


async def test_leaderboards_list_members_not_computer_players() -> None:
    """``/top`` (balances) and ``/top all`` (kush won) list the group's members only: a
    computer player plays with house kush (10,000 on its balance) and is left out."""
    service, presenter, store, clock = await alice_and_a_bot()
    await play_hand_with_bots(service, presenter, clock)
    community = await store.community("telegram", "-100")
    everyone = [p.name for p, _ in await store.leaderboard(community.id, 10)]
    assert "🤖 Anna" in everyone and "Alice" in everyone  # the store still has both
    for period in ("", "all"):
        reply = await service.top(GROUP, ALICE, period)
        assert "Alice" in reply.text and "Anna" not in reply.text, reply.text


async def test_group_stats_count_members_not_computer_players() -> None:
    """The group's ``/stats`` counted a computer player among its players and could name it
    the biggest winner, while ``/top`` leaves it out (house kush): the group's figures are
    its members' now, the hands they played with computer players still counted."""
    service, presenter, store, clock = await alice_and_a_bot("normal")
    community = await store.community("telegram", "-100")
    anna = [p.id for p, _ in await store.leaderboard(community.id, 10) if p.name == "🤖 Anna"]
    for _ in range(12):  # until Anna has won the most in one hand
        await play_hand_with_bots(service, presenter, clock)
        everyone = await store.community_stats(community.id)
        if everyone.biggest_winner == anna[0]:
            break
        clock.now += 60
        await service.run_due()
    assert everyone.players == 2 and everyone.biggest_winner == anna[0]  # the store has both
    lines = (await service.stats(GROUP, ALICE, [])).text.splitlines()
    assert lines[1] == tr("en", "stats.group_hands", hands=everyone.hands, players=1)
    assert not any("Anna" in line for line in lines), lines


async def _chinese_arranged_with_a_bot(
    store: MemoryStore, clock: Clock
) -> tuple[TableService, LiveTable]:
    """A Chinese Poker table of Alice and an easy computer player whose first hand Alice has
    arranged and confirmed (the computer player's turn comes next)."""
    service, presenter = new_service(store, clock)
    await service.settings(GROUP, ALICE, True, ["game", "chinese"])
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await press_auto_and_confirm(service, presenter, ALICE)
    return service, t


async def test_r7_6_removebot_during_a_chinese_reveal_waits_for_it_and_settles_the_game() -> None:
    """/removebot while a Chinese Poker hand is being revealed (R7.4): the computer player
    stands up once the reveal is over, as a person who leaves does, and its game is settled
    (R7.6). It used to stand up at once: the revealed hand then named a seat no longer at
    the table, so the table's snapshot could not be read back (a restart or a refused step
    failed on it) and the reveal's settlement broke."""
    store, clock = MemoryStore(), Clock()
    service, t = await _chinese_arranged_with_a_bot(store, clock)
    while t.reveal is None:  # the computer player arranges: the reveal begins
        assert t.bot_due is not None
        clock.now = t.bot_due
        await service.run_due()
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert not reply.alert, reply.text
    bots = [s for s in t.seats.values() if s.bot]  # still seated for the reveal
    assert len(bots) == 1 and bots[0].leaving
    LiveTable.from_json(service.rt.snapshot(t), clock.now)  # the state reads back
    for _ in range(20):  # the reveal plays out (R7.4); the game ends with the bot gone
        if not any(s.bot for s in t.seats.values()):
            break
        clock.now += 31
        await service.run_due()
    assert not any(s.bot for s in t.seats.values()) and t.reveal is None
    assert t.chinese is None  # the game was settled (R7.6)
    history = await store.hand_history(t.seats[next(iter(t.seats))].player_id, 5)
    assert history and all("kush" in h.result for h in history)
    LiveTable.from_json(service.rt.snapshot(t), clock.now)
    assert await check_store(store) == []


async def test_r7_6_removebot_between_chinese_hands_settles_the_game_first() -> None:
    """/removebot between two hands of a Chinese Poker game to 51 points: the game is
    settled on the current points before the computer player stands up (R7.6), as when a
    person leaves; its points used to be dropped with the seat."""
    store, clock = MemoryStore(), Clock()
    service, t = await _chinese_arranged_with_a_bot(store, clock)
    for _ in range(40):  # the bot arranges, the reveal plays out: between hands
        if t.hand_no == 1 and t.hand is None and t.reveal is None:
            break
        clock.now = t.bot_due if t.bot_due is not None else clock.now + 4
        await service.run_due()
    assert t.hand is None and t.chinese is not None and not t.chinese.over
    totals = dict(t.chinese.totals)
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert reply.text == tr("en", "bot.removed", name="🤖 Anna")
    assert t.chinese is None and not any(s.bot for s in t.seats.values())
    alice = t.seats[next(iter(t.seats))]
    last = (await store.hand_history(alice.player_id, 1))[0]
    assert "kush" in last.result and last.number == 2, last  # the game's own settlement
    assert totals and await check_store(store) == []


async def test_removebot_during_a_hand_the_computer_player_plays_on_by_its_policy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/removebot during a hand (the README: it "stands up after the hand"): the computer
    player used to be treated as a person who left, its remaining streets made as on a
    timeout (R8.5: bottom first), so it fouled ("💀 dead hand · ⌛ auto") and paid the
    people from the house. It plays every street by its own level's policy, no move is made
    for it, and it stands up after the showdown, its stack back with the house."""
    service, presenter, store, clock = await alice_and_a_bot("normal")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    bot = next(s for s in t.seats.values() if s.bot)
    decided: list[tuple[Level, list[tuple[str, str | None]]]] = []  # (one computer player)
    real = bots.decide

    def spy(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
        moves = real(k, level)
        decided.append((level, [(c.code_str(), b and b.value) for c, b in moves]))
        return moves

    monkeypatch.setattr(bots, "decide", spy)
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert reply.text == tr("en", "bot.removed_after_hand", name="🤖 Anna"), reply.text
    assert bot.leaving
    assert await play_hand_with_bots(service, presenter, clock) == 5  # every street its own
    assert [level for level, _ in decided] == [Level.NORMAL] * 5
    actions = hand.to_json()["actions"]
    assert [a for a in actions if a["type"] == "timeout"] == []
    placed = [
        (a["card"], a.get("box"))
        for a in actions
        if a["seat"] == bot.seat and a["type"] in ("place", "discard")
    ]
    assert placed == [m for _, moves in decided for m in moves]
    exported = (await store.export_hands(t.id))[-1]
    result = next(r for r in exported["result"]["seats"] if r["seat"] == bot.seat)
    assert result["timed_out"] is False
    showdown = [s.text for s in presenter.tables["-100"] if "⌛" in s.text]
    assert showdown == []
    # stood up after the showdown: Alice alone, the computer player's stack with the house
    assert [s.name for s in t.seats.values()] == ["Alice"] and t.hand is None
    alice = t.seats[next(iter(t.seats))]
    community = await store.community("telegram", "-100")
    house = await store.find_player(community.id, "bot:anna")
    assert house is not None
    granted = bots.HOUSE_BUY_INS * t.min_buy_in
    assert house.balance + await player_balance(store, ALICE) + alice.stack == granted + 1000
    assert await check_store(store) == []


async def test_removebot_twice_during_a_hand_stands_up_two_computer_players() -> None:
    """Two computer players and Alice in a hand; /removebot twice: each stands one up after
    the hand (it used to pick the one already leaving again: "🤖 Boris stands up" twice,
    and Anna stayed); a third is refused, nothing changed. The replies say "after this
    hand", and after the hand Alice sits alone, both bots' stacks back with the house."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and len(t.hand.order) == 3
    first = await service.remove_bot(GROUP, ALICE, True)
    assert first.text == tr("en", "bot.removed_after_hand", name="🤖 Boris"), first.text
    second = await service.remove_bot(GROUP, ALICE, True)
    assert second.text == tr("en", "bot.removed_after_hand", name="🤖 Anna"), second.text
    third = await service.remove_bot(GROUP, ALICE, True)
    assert third.alert and third.text == tr("en", "bot.all_leaving")
    assert [s.name for s in t.seats.values() if s.leaving] == ["🤖 Anna", "🤖 Boris"]
    await play_hand_with_bots(service, presenter, clock)
    assert [s.name for s in t.seats.values()] == ["Alice"]
    assert (await service.remove_bot(GROUP, ALICE, True)).text == tr("en", "bot.none")
    assert await check_store(store) == []
    assert tr("ru", "bot.removed_after_hand", name="🤖 Anna").startswith("🤖 Anna встанет")


@pytest.mark.usefixtures("short_hand_seconds")  # (a budget below the minimum)
async def test_r8_5_a_computer_player_moves_within_its_own_clock_and_is_never_sat_out() -> None:
    """R8.5/R8.6: with a short budget and no bank (hand_seconds 1, time_bank_seconds 0) the
    computer player's human-like pause (1–3 s) used to outlast its own clock: the timer
    made its moves as on a timeout, and after the match it was sat out (R8.6), sending the
    table back to the lobby with Alice alone and no way to bring it back. Each timer fires at
    the table's next deadline here, as the real timer does: the computer player moves within
    half of what its clock has left, plays every street itself and the next hand is dealt."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    for name, value in (("hand_seconds", "1"), ("time_bank_seconds", "0")):
        assert not (await service.settings(GROUP, ALICE, True, [name, value])).alert
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    bot = next(s for s in t.seats.values() if s.bot)
    bot_streets = 0
    for _ in range(40):
        if t.hand is None or t.hand_no != 1:
            break
        if t.seats[t.owner(t.hand.to_act[0])].bot:
            deadline = service.rt.next_deadline(t)
            assert deadline is not None
            clock.now = deadline
            await service.run_due()
            bot_streets += 1
        else:
            await press_auto_and_confirm(service, presenter, ALICE)
    assert bot_streets == 5  # one move per street, each made by the computer player itself
    assert t.last_result is not None
    assert not any(r["timed_out"] for r in t.last_result["seats"])
    assert not bot.sitting_out and not bot.timed_out
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 2
    assert await check_store(store) == []


async def chinese_with_a_bot_to_the_first_reveal(
    target: str, alice_points: int = 0
) -> tuple[TableService, MemoryStore, LiveTable]:
    """Alice and a computer player (seat 0) at a Chinese Poker table with ``target_points``,
    Alice with ``alice_points`` from earlier hands of the game; both arrange (Alice by
    "arrange for me") and the bottom boxes are revealed (the deck gives the computer player
    5 points and Alice none)."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    assert not (await service.settings(GROUP, ALICE, True, ["target_points", target])).alert
    await service.new_table(GROUP, ALICE, "chinese")
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.chinese is not None
    t.chinese = dataclasses.replace(t.chinese, totals={0: 0, 1: alice_points})
    while t.reveal is None and t.hand is not None:
        assert t.hand.to_act
        if t.seats[t.owner(t.hand.to_act[0])].bot:
            deadline = service.rt.next_deadline(t)
            assert deadline is not None
            clock.now = deadline
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, ALICE)
    return service, store, t


async def test_r7_5_a_computer_player_at_the_target_that_leads_claims_at_once() -> None:
    """R7.5: the bottom boxes give the computer player 5 points, past a 1-point target, and
    Alice none. It claims at once (it never presses Claim or Continue: the reveal waited the
    whole claim time, 30 s, for it) and the game is settled on 5 to 0."""
    _service, store, t = await chinese_with_a_bot_to_the_first_reveal("1")
    assert [s.seat for s in t.seats.values() if s.bot] == [0]
    assert t.reveal is None and t.hand is None and t.chinese is None
    record = t.last_result
    assert record is not None and record["chinese"]["claimed_by"] == 0
    assert record["counted"] == {"0": 5, "1": 0}
    assert record["kush"] == {"0": 5, "1": -5}  # 5 points × 1 kush a point (R7.6)
    assert await check_store(store) == []


async def test_r7_5_a_computer_player_at_the_target_that_trails_continues_at_once() -> None:
    """R7.5: Alice had 10 points of a 5-point game; the bottom boxes put the computer player
    at 5. Both are at the target; the computer player, behind, continues at once, and only
    Alice is offered the claim."""
    _service, store, t = await chinese_with_a_bot_to_the_first_reveal("5", alice_points=10)
    assert t.reveal is not None and t.chinese is not None
    assert dict(t.chinese.totals) == {0: 5, 1: 10}
    claim = t.reveal["claim"]
    assert claim is not None and claim["seats"] == [1] and claim["continued"] == []
    assert await check_store(store) == []


async def test_r8_5_a_computer_player_move_the_core_refuses_is_made_as_on_a_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decision the core refuses (never expected: here the policy places nothing) does
    not leave the computer player to act: its street is made for it by the timeout rule
    (R8.5) in the same step and the hand goes on. (It was left to act and asked again and
    again, each time sooner, since it moves within half of what its clock has left.)"""
    monkeypatch.setattr(bots, "decide", lambda k, level: [])
    service, presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    while t.seats[t.owner(t.hand.to_act[0])].user_id == ALICE.user_id:
        await press_auto_and_confirm(service, presenter, ALICE)
    bot = next(s for s in t.seats.values() if s.bot)
    assert t.hand.to_act == (bot.seat,) and t.bot_due is not None
    cards = t.hand.current_cards(bot.seat)
    clock.now = t.bot_due
    await service.run_due()
    assert bot.seat not in t.hand.to_act
    assert set(cards[:1]) <= set(t.hand.board_of(bot.seat).cards())  # placed by the rule
    assert await check_store(store) == []


async def test_grant_to_a_computer_player_is_refused_and_moves_no_kush() -> None:
    """A computer player plays with house kush (issue 13): an admin's /grant by its name or
    its user id (or its name without 🤖, as /removebot takes it) is refused with a clear
    notice and its house account keeps its balance."""
    service, _, store, _ = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None
    bot_seat = next(s for s in t.seats.values() if s.bot)
    anna = Actor("telegram", bot_seat.user_id, bot_seat.name)
    before = await player_balance(store, anna)
    refusal = tr("en", "reply.grant_computer", name="🤖 Anna")
    reply = await service.grant(GROUP, ALICE, True, "🤖 Anna", "100", "g1")
    assert reply.alert and reply.text == refusal
    reply = await service.grant(GROUP, ALICE, True, bot_seat.user_id, "-10", "g2")
    assert reply.alert and reply.text == refusal
    # by its bare name, as /removebot and /stats take it (it said "No such player here")
    for name in ("Anna", "@anna"):
        reply = await service.grant(GROUP, ALICE, True, name, "100", "g3")
        assert reply.alert and reply.text == refusal
    assert await player_balance(store, anna) == before
    assert await check_store(store) == []


async def anna_busts_at_100_a_point(
    drained: bool = False,
) -> tuple[TableService, FakePresenter, MemoryStore, Clock, LiveTable, SeatState]:
    """Alice and 🤖 Anna (easy) at 100 kush a point play until Anna's stack cannot pay a
    point (the seeded decks bust her within a few hands); ``drained``: the house account
    holds nothing more than her stack by then."""
    service, presenter, store, clock = await alice_and_a_bot("easy", point=100)
    t = service.table_in(GROUP)
    assert t is not None
    anna = next(s for s in t.seats.values() if s.bot)
    if drained:
        house = await store.find_player(t.community_id, anna.user_id)
        assert house is not None
        await store.grant(t.community_id, house.id, -house.balance, actor="test",
                          reason="drain", key="drain")  # fmt: skip
    for _ in range(12):
        await play_hand_with_bots(service, presenter, clock)
        anna = next(s for s in t.seats.values() if s.bot)
        if anna.stack < 100:
            return service, presenter, store, clock, t, anna
        assert t.next_hand_at is not None
        clock.now = t.next_hand_at
        await service.run_due()
    raise AssertionError("Anna never went bust")


async def test_r8_2_a_busted_computer_player_tops_up_from_the_house_and_plays_on() -> None:
    """R8.2 with a computer player (issue 13): busted, it takes the top-up from its house
    account before the next deal (it sat busted in the lobby, the table stuck with Alice
    alone); the showdown offers it nothing, and the ledger stays balanced."""
    service, presenter, store, clock, t, anna = await anna_busts_at_100_a_point()
    who = Actor("telegram", anna.user_id, anna.name)
    assert anna.top_up == t.min_buy_in == 200  # taken at once, not offered
    showdown = next(s.text for s in reversed(presenter.tables[GROUP.chat_id]) if "🏁" in s.text)
    assert tr("en", "showdown.busted", name=anna.name, label="kush") not in showdown
    assert f"{anna.name}: {anna.stack} kush left" not in showdown  # (its stack, below a point)
    balance, stack = await player_balance(store, who), anna.stack
    assert t.next_hand_at is not None and t.next_hand_at - clock.now == 5  # no top-up window
    await service.run_due()  # the top-up is added at once, the deal comes at its time
    anna = next(s for s in t.seats.values() if s.bot)
    assert (anna.stack, anna.top_up) == (stack + 200, 0)
    assert await player_balance(store, who) == balance - 200
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.seat_of(anna.user_id) is anna  # dealt in, not stood up
    assert await check_store(store) == []


async def test_r8_2_a_busted_computer_player_whose_house_account_is_short_is_granted_more() -> None:
    """Busted, 🤖 Anna's house account cannot cover the top-up (she kept losing): she stood
    up ("top-up … not made", the table back in the lobby for Alice). The house account is
    unlimited (issue 13): the house grants her what it lacks, the top-up is made from it and
    she plays on, no notice; every movement a ledger row of its own, Alice's kush untouched."""
    service, presenter, store, clock, t, anna = await anna_busts_at_100_a_point(drained=True)
    who = Actor("telegram", anna.user_id, anna.name)
    assert await player_balance(store, who) == 0 and anna.top_up == t.min_buy_in == 200
    alice = await player_balance(store, ALICE)
    stack = anna.stack
    community = await store.community("telegram", "-100")
    grants = len([e for e in await store.ledger(community.id) if e.actor == "house"])
    await service.run_due()  # the house grants, then the top-up is added
    anna = next(s for s in t.seats.values() if s.bot)
    assert (anna.stack, anna.top_up) == (stack + 200, 0)
    house = [e for e in await store.ledger(community.id) if e.actor == "house"]
    assert len(house) == grants + 1 and house[-1].kind is LedgerKind.ADMIN_GRANT
    granted = bots.HOUSE_BUY_INS * t.min_buy_in
    assert house[-1].balance_delta == granted  # 50 buy-ins again, as when it sat down
    assert await player_balance(store, who) == granted - 200
    assert await player_balance(store, ALICE) == alice
    assert not [x for chat, x in presenter.posts if chat == GROUP.chat_id and anna.name in x]
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.seat_of(anna.user_id) is anna  # dealt in, not stood up
    assert await check_store(store) == []


class Crash(BaseException):
    """The process killed at a storage commit (nothing of the service catches it)."""


async def test_r8_2_a_crash_at_the_house_top_up_leaves_no_grant_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The house's grant to 🤖 Anna and the top-up it pays for are one transaction: killed at
    that commit, the bot leaves nothing written (the grant was a transaction of its own before
    it: committed, the crash left 10,000 house kush on Anna's account with no top-up made
    of them). After the restart the top-up is made with its grant, once, and she is dealt
    in."""
    _service, _presenter, store, clock, t, anna = await anna_busts_at_100_a_point(drained=True)
    who = Actor("telegram", anna.user_id, anna.name)
    assert await player_balance(store, who) == 0 and anna.top_up == 200
    stack, number, table_id = anna.stack, anna.seat, t.id
    community = await store.community("telegram", "-100")
    ledger = len(await store.ledger(community.id))
    real = store.commit

    async def crashing(table: int, moves: Sequence[Move], *args: Any, **kwargs: Any) -> list[int]:
        if any(isinstance(m, BuyIn) for m in moves):  # Anna's top-up: killed at its commit
            raise Crash
        return await real(table, moves, *args, **kwargs)

    monkeypatch.setattr(store, "commit", crashing)
    with pytest.raises(Crash):
        await _service.run_due()  # the top-up is due at once (R8.2)
    assert len(await store.ledger(community.id)) == ledger  # nothing of it committed
    assert await player_balance(store, who) == 0
    monkeypatch.setattr(store, "commit", real)
    service, _presenter = new_service(store, clock)  # the bot started again
    await service.start()
    t = service.table_in(GROUP)
    assert t is not None and t.id == table_id
    anna = t.seats[number]
    assert (anna.stack, anna.top_up) == (stack, 200)  # (still queued: the last commit's)
    await service.run_due()
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    anna = t.seats[number]
    assert (anna.stack, anna.top_up) == (stack + 200, 0) and t.hand is not None
    assert t.hand.is_fantasyland(anna.seat) or anna.seat in t.hand.order  # dealt in
    new = (await store.ledger(community.id))[ledger:]
    granted = bots.HOUSE_BUY_INS * t.min_buy_in
    assert [(e.kind, e.actor, e.balance_delta) for e in new if e.player_id == anna.player_id] == [
        (LedgerKind.ADMIN_GRANT, "house", granted),
        (LedgerKind.BUY_IN, None, -200),
    ]
    assert await player_balance(store, who) == granted - 200
    assert await check_store(store) == []
    await service.stop()


async def test_a_crash_at_the_commit_seating_a_computer_player_leaves_no_grant_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/addbot: the house's grant (its 50 buy-ins) and the buy-in of the seat are one
    transaction; killed at its commit, no grant is left on the account, and the /addbot
    after the restart grants once and seats it."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    community = await store.community("telegram", "-100")
    real = store.commit

    async def crashing(table: int, moves: Sequence[Move], *args: Any, **kwargs: Any) -> list[int]:
        if any(isinstance(m, BuyIn) for m in moves):
            raise Crash
        return await real(table, moves, *args, **kwargs)

    monkeypatch.setattr(store, "commit", crashing)
    with pytest.raises(Crash):
        await service.add_bot(GROUP, ALICE, True, "easy")
    assert [e for e in await store.ledger(community.id) if e.kind is LedgerKind.ADMIN_GRANT] == []
    monkeypatch.setattr(store, "commit", real)
    service, _presenter = new_service(store, clock)
    await service.start()
    reply = await service.add_bot(GROUP, ALICE, True, "easy")
    assert reply.text == tr("en", "bot.added", name="🤖 Anna", level="easy")
    grants = [e for e in await store.ledger(community.id) if e.kind is LedgerKind.ADMIN_GRANT]
    t = service.table_in(GROUP)
    assert t is not None
    granted = bots.HOUSE_BUY_INS * t.min_buy_in  # (no starting balance: house kush only)
    assert [(e.actor, e.balance_delta) for e in grants] == [("house", granted)]
    who = Actor("telegram", "bot:anna", "🤖 Anna")
    assert await player_balance(store, who) == bots.HOUSE_BUY_INS * t.min_buy_in - t.min_buy_in
    assert await check_store(store) == []
    await service.stop()


async def anna_down_after_a_hand() -> tuple[TableService, MemoryStore, Clock, LiveTable, SeatState]:
    """Alice and 🤖 Anna (easy) play the seeded first hand: Anna loses a point or more and
    keeps less than a buy-in. Returns the service, store, clock, table and Anna's seat."""
    service, presenter, store, clock = await alice_and_a_bot("easy")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    assert 0 < anna.stack < t.min_buy_in  # (the seeded deck: she lost a point or more)
    return service, store, clock, t, anna


async def test_r8_2_a_buy_in_raised_past_a_computer_players_house_account_is_granted() -> None:
    """Admins raise the buy-in to 20,000 and the point past 🤖 Anna's stack: her top-up of
    the new buy-in is more than her house account holds (50 buy-ins of 200, less her own):
    she stood up, "could not top up". The house grants 50 new buy-ins and she is dealt in."""
    service, store, clock, t, anna = await anna_down_after_a_hand()
    for name, value in (("min_buy_in", "20000"), ("kush_per_point", str(anna.stack + 1))):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    who = Actor("telegram", anna.user_id, anna.name)
    assert await player_balance(store, who) < 20000
    stack = anna.stack
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()  # the deal queues her top-up first ...
    await service.run_due()  # ... the house grants, the top-up is added, the hand dealt
    anna = next(s for s in t.seats.values() if s.bot)
    assert t.min_buy_in == 20000 and anna.stack == stack + 20000
    assert await player_balance(store, who) == bots.HOUSE_BUY_INS * 20000 - 20000
    assert t.hand is not None
    assert t.hand.is_fantasyland(anna.seat) or anna.seat in t.hand.order  # dealt in
    assert await check_store(store) == []


async def test_r8_2_a_point_raised_past_a_computer_players_stack_tops_it_up() -> None:
    """Between hands an admin raises the point past 🤖 Anna's stack: she takes the top-up
    from the house before the next deal and is dealt in (she was stood up as busted)."""
    service, store, clock, t, anna = await anna_down_after_a_hand()
    point = anna.stack + 1
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", str(point)])
    assert not reply.alert, reply.text
    stack = anna.stack
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()  # the deal queues her top-up first ...
    await service.run_due()  # ... added at once, then the hand is dealt
    anna = next(s for s in t.seats.values() if s.bot)
    assert anna.stack == stack + t.min_buy_in and t.hand is not None
    assert t.hand.is_fantasyland(anna.seat) or anna.seat in t.hand.order  # dealt in
    assert await check_store(store) == []


async def test_a_computer_player_decides_during_its_pace_while_the_table_is_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every press is answered within a second (issue 13): a computer player's decision is
    made in a thread from the moment its turn begins, during its pace, not at its time while
    holding the table (a person's press there waited for it: several strong players in a row
    held one for a second or more). At its time it moves by that decision, made once."""
    gate, asked = held_decisions(monkeypatch, 60)
    service, presenter, store, _ = await alice_and_a_bot(live=True)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    while t.seats[t.owner(t.hand.to_act[0])].user_id == ALICE.user_id:
        await press_auto_and_confirm(service, presenter, ALICE)
    bot = next(s.seat for s in t.seats.values() if s.bot)
    assert t.hand.to_act == (bot,)
    street = t.hand.current_cards(bot)
    await until(lambda: asked, what="its thread has started (its time is 0.3 s away)")
    assert asked == [knowledge(t.hand, bot)]
    assert not t.lock.locked()  # a press now gets the table at once
    await asyncio.sleep(0.4)  # its time has come, its decision is not made: it waits for
    assert t.hand.to_act == (bot,) and not t.lock.locked()  # it without holding the table
    gate.set()
    await until(lambda: t.hand is None or t.hand.to_act != (bot,), what="it moved")
    assert t.hand is not None and t.hand.to_act != (bot,)  # it moved
    assert set(street) & set(t.hand.board_of(bot).cards())
    assert len(asked) == 1  # decided once
    await service.stop()
    assert await check_store(store) == []


async def test_a_russian_notice_names_the_computer_players_level_in_russian() -> None:
    """A Russian group read "🤖 Anna (normal) садится…": the level was the command's word."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    await service.new_table(GROUP, BOB)
    reply = await service.add_bot(GROUP, BOB, True, "strong")
    assert reply.text == (
        "🤖 Анна садится за стол (уровень: сильный): компьютерный игрок на средства заведения."
    )
    reply = await service.add_bot(GROUP, BOB, True)
    assert reply.text.startswith("🤖 Борис садится за стол (уровень: средний)")
    t = service.table_in(GROUP)
    assert t is not None and [s.bot for s in t.seats.values()] == ["strong", "normal"]
    # an unknown word gets the usage, which names both languages' words
    reply = await service.add_bot(GROUP, BOB, True, "сильнейший")
    assert reply.alert and reply.text == (
        "Уровни: лёгкий (easy), средний (normal), сильный (strong). Формат: /addbot [уровень]"
    )
    await service.remove_bot(GROUP, BOB, True)  # (the last seat stays a person's)
    reply = await service.add_bot(GROUP, ALICE, True, "easy")  # (named at its creation)
    assert reply.text == "🤖 Борис (easy) sits down: a computer player staked by the house."


async def test_addbot_takes_the_level_in_russian_as_the_notice_shows_it() -> None:
    """``/addbot сильный`` was refused with the English levels, though the seating notice
    and the Russian usage name the level in Russian: the command now takes either language's
    word, letter case and ё aside."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    await service.new_table(GROUP, BOB)
    await service.join(GROUP, BOB)
    reply = await service.add_bot(GROUP, BOB, True, "Сильный")
    assert reply.text.startswith("🤖 Анна садится за стол (уровень: сильный)"), reply
    reply = await service.add_bot(GROUP, BOB, True, "легкий")
    assert reply.text.startswith("🤖 Борис садится за стол (уровень: лёгкий)"), reply
    t = service.table_in(GROUP)
    assert t is not None and [s.bot for s in t.seats.values() if s.bot] == ["strong", "easy"]
    await service.stop()
    assert await check_store(store) == []


async def test_r8_6_a_restart_brings_back_a_computer_player_an_older_bot_sat_out() -> None:
    """Before a computer player was exempt from R8.6's sit-out, a failed decision could leave
    it sitting out in a snapshot; nothing brings a computer player back, so Alice, ready,
    waited in the lobby until the idle close. A restart now seats it back in play: the next
    hand is dealt with it."""
    service, presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    assert t.hand is None
    await service.stop()
    ((record, snap),) = await store.snapshots()
    old = dict(snap)
    old["seats"] = [
        {**s, "sitting_out": True, "timed_out": True} if s.get("bot") else s for s in snap["seats"]
    ]
    await store.save_snapshot(record.id, old)
    service2, _presenter2 = new_service(store, clock)
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None
    bot = next(s for s in t2.seats.values() if s.bot)
    assert not bot.sitting_out and not bot.timed_out
    clock.now += 10  # past the next hand's time
    await service2.run_due()
    assert t2.hand is not None and t2.hand_no == 2
    assert await check_store(store) == []


async def test_addbot_at_a_table_closing_after_the_hand_seats_nobody() -> None:
    """An admin closes the table during a hand (R8.2a); the opener then types /addbot: it
    said "🤖 Boris sits down", the house minted his kush and bought him in, and the table
    closed at the end of the hand, cashing him out without a hand played. It is refused, the
    close named, and nobody is seated or funded."""
    service, presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "reply.closes_after_hand_fl", table=t.id)
    reply = await service.add_bot(GROUP, ALICE, True, "easy")
    assert reply.alert and reply.text == tr("en", "reply.table_closing", table=t.id)
    assert [s.name for s in t.seats.values() if s.bot] == ["🤖 Anna"]
    assert await store.find_player(t.community_id, "bot:boris") is None  # no house kush
    await play_hand_with_bots(service, presenter, clock)
    assert service.table_in(GROUP) is None
    assert await check_store(store) == []


async def test_join_at_a_table_closing_after_the_hand_seats_nobody() -> None:
    """An admin closes the table during a hand (R8.2a); Bob then types /join and Carol
    presses the table message's Join: each was told "you sit at seat N", and the table closed
    at the end of the hand, cashing them out without a hand played. Both are refused with
    the close named (in their own language), and nobody is seated."""
    service, presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await service.close_table(GROUP, ALICE, True)
    assert t.closing
    reply = await service.join(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "reply.table_closing", table=t.id)
    # (the table message no longer offers Join: a press of it made for the current version,
    # as a client could still send, is refused all the same)
    reply = await service.press(CAROL, encode(Join(t.id, f"L{t.version}")), GROUP)
    assert reply.alert and reply.text == tr("en", "reply.table_closing", table=t.id)
    assert sorted(s.name for s in t.seats.values()) == ["Alice", "🤖 Anna"]
    await play_hand_with_bots(service, presenter, clock)
    assert service.table_in(GROUP) is None
    assert await check_store(store) == []


async def test_ready_and_topup_at_a_table_closing_after_the_hand_move_no_kush() -> None:
    """Bob sits down during a hand, then an admin closes the table (R8.2a): his Ready was
    answered "you're ready", took the buy-in and gave it back at the close, and Alice's
    /topup was "queued" and went back too. Both are refused with the close named; no kush
    moves, and the table closes at the hand's end."""
    service, presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert not (await service.join(GROUP, BOB)).alert
    await service.close_table(GROUP, ALICE, True)
    bob, alice = await player_balance(store, BOB), await player_balance(store, ALICE)
    # the table message offers no Join, Ready nor Top up any more (they would only refuse)
    buttons = presenter.tables[GROUP.chat_id][-1].all_buttons()
    pressable = {type(decode(b.data)) for b in buttons if b.data}
    assert Leave in pressable and not pressable & {Join, Ready, TopUp}
    reply = await service.ready(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "reply.table_closing", table=t.id)
    bob_seat = t.seat_of(BOB.user_id)
    assert bob_seat is not None and not bob_seat.ready and bob_seat.stack == 0
    reply = await service.top_up(GROUP, ALICE, "100")
    assert reply.alert and reply.text == tr("en", "reply.table_closing", table=t.id)
    alice_seat = t.seat_of(ALICE.user_id)
    assert alice_seat is not None and alice_seat.top_up == 0
    assert await player_balance(store, BOB) == bob
    assert await player_balance(store, ALICE) == alice
    await play_hand_with_bots(service, presenter, clock)
    assert service.table_in(GROUP) is None
    assert await player_balance(store, BOB) == bob
    assert await check_store(store) == []


async def test_r8_2_a_person_who_never_presses_ready_by_two_computer_players_is_stood_up() -> None:
    """Two computer players are seated and Ready; Bob sits down and never presses Ready.
    Two players are ready, so the ready timer runs (R8.2) and stands him up, no kush taken,
    as it would next to two ready people: it never started (computer players alone deal no
    hand), and Bob held the table's last seat until the idle close, nobody able to play
    them. Alice then takes the seat and plays them."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    for level in ("easy", "normal"):
        assert not (await service.add_bot(GROUP, ALICE, True, level)).alert
    assert not (await service.join(GROUP, BOB)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.phase is Phase.LOBBY
    assert t.ready_deadline == clock.now + t.options.ready_seconds
    lobby = presenter.tables[GROUP.chat_id][-1].text
    # (no hand starts at its end: the lobby says Bob's seat is freed then, nu49)
    assert tr("en", "lobby.ready_window", name="Bob", seconds=60) in lobby
    balance = await player_balance(store, BOB)
    clock.now += t.options.ready_seconds - 1
    await service.run_due()
    assert t.seat_of(BOB.user_id) is not None  # not before the time is up
    clock.now += 1
    await service.run_due()
    assert t.seat_of(BOB.user_id) is None and t.phase is Phase.LOBBY and t.hand is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Bob")) in presenter.posts
    assert t.ready_deadline is None
    assert await player_balance(store, BOB) == balance  # no kush taken
    assert presenter.tables[GROUP.chat_id][-1].text.endswith(tr("en", "lobby.bots_wait"))
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    assert t.hand is not None and len(t.hand.order) == 3
    await play_hand_with_bots(service, presenter, clock)
    assert await check_store(store) == []


async def test_r8_2_a_late_joiner_left_with_two_computer_players_is_stood_up_in_the_lobby() -> None:
    """Alice plays classic OFC with two computer players; Bob sits down during the hand
    (``ready_seconds`` to press Ready) and never presses it. Alice leaves after the hand: the
    table goes back to the lobby, whose ready timer applies instead (R8.2), two players being
    ready. It never ran (computer players alone deal no hand), so Bob held the seat until
    the idle close; now he is stood up when it runs out."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE, "ofc")
    for level in ("easy", "normal"):
        assert not (await service.add_bot(GROUP, ALICE, True, level)).alert
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and len(t.hand.order) == 3
    assert not (await service.join(GROUP, BOB)).alert  # during the hand
    await play_hand_with_bots(service, presenter, clock)
    assert t.hand is None and t.seat_of(BOB.user_id) is not None
    assert not (await service.leave(GROUP, ALICE)).alert
    assert t.phase is Phase.LOBBY and t.ready_deadline == clock.now + t.options.ready_seconds
    clock.now += t.options.ready_seconds
    await service.run_due()
    assert t.seat_of(BOB.user_id) is None and t.hand is None
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Bob")) in presenter.posts
    assert sorted(s.name for s in t.seats.values()) == ["🤖 Anna", "🤖 Boris"]
    assert await check_store(store) == []


async def test_computer_players_leave_the_last_seat_to_a_person() -> None:
    """Three /addbot at a new Pineapple table (three seats) seated three computer players:
    they never play each other, the lobby said "press Join to play against them", and Join
    was refused, the table full, until the idle close. The third is refused, the seat left
    to a person; with a person seated the computer players may take the rest."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    for level in ("easy", "normal"):
        assert not (await service.add_bot(GROUP, ALICE, True, level)).alert
    reply = await service.add_bot(GROUP, BOB, True, "strong")
    assert reply.alert and reply.text == tr("ru", "bot.last_seat")
    t = service.table_in(GROUP)
    assert t is not None and [s.name for s in t.seats.values()] == ["🤖 Anna", "🤖 Boris"]
    assert await store.find_player(t.community_id, "bot:vera") is None  # no house kush
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    assert t.hand is not None and len(t.hand.order) == 3  # a person plays them
    await play_hand_with_bots(service, presenter, clock)
    assert (await service.remove_bot(GROUP, ALICE, True)).text == tr(
        "en", "bot.removed", name="🤖 Boris"
    )
    # Alice seated: the last seat may go to a computer player
    reply = await service.add_bot(GROUP, ALICE, True, "strong")
    assert not reply.alert and len(t.seats) == 3, reply.text
    assert await check_store(store) == []


@pytest.mark.parametrize("live", [False, True])
async def test_r8_5_a_computer_player_whose_decision_never_comes_plays_on(
    monkeypatch: pytest.MonkeyPatch, live: bool
) -> None:
    """The decision never comes (an endless loop on some position, a decision process that
    no longer answers; one that dies is replaced): its move waited for it for good, holding
    the table, so nobody's clock ran out, the hand never ended and every press and /leave
    there waited. After ``DECISION_SECONDS`` its street is made by the timeout rule
    (R8.5), it is not sat out, and the hand ends (``live``: the table's own timer, which
    waited for the decision started during the pace before it took the table)."""
    gate = threading.Event()

    def hung(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
        gate.wait(30)
        return []

    monkeypatch.setattr(bots, "decide", hung)
    monkeypatch.setattr(thinking, "DECISION_SECONDS", 0.2)
    service, presenter, store, clock = await alice_and_a_bot("easy", live=live)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None

    async def hand() -> None:
        assert t is not None
        while t.hand is not None and t.hand_no == 1:
            if any(not t.seats[t.owner(s)].bot for s in t.hand.to_act):
                try:
                    await press_auto_and_confirm(service, presenter, ALICE)
                except RuntimeError:  # (its buttons not found: StopIteration in a coroutine)
                    if not live:
                        raise
                    # live, the table's own timer moved the hand on between the check and
                    # the press, and Alice's new screen is written after that step: again
                    await asyncio.sleep(0.05)
            elif live:
                await asyncio.sleep(0.05)
            else:
                clock.now += 3
                await service.run_due()

    try:
        # (about 3–4 s on a quiet machine; failed once at 10 s beside the full suite and
        # other work: the limit only catches a table that never goes on)
        await asyncio.wait_for(hand(), 25)
    finally:
        gate.set()  # (the threads end)
    anna = next(s for s in t.seats.values() if s.bot)
    assert t.hand is None and t.last_result is not None and not anna.sitting_out
    assert [r["seat"] for r in t.last_result["seats"] if r["timed_out"]] == [anna.seat]
    if live:
        await service.stop()
    assert await check_store(store) == []


async def test_removebot_stands_up_the_one_seated_last_not_the_highest_seat() -> None:
    """Anna, Alice and Boris sit down; Anna is stood up and a strong computer player takes
    her freed seat 1 (named Anna again). /removebot, "the last one seated", stood up Boris in
    seat 3 instead of the one just seated (say by mistake); after a restart too."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.remove_bot(GROUP, ALICE, True, name="Anna")
    reply = await service.add_bot(GROUP, ALICE, True, "strong")
    assert reply.text == tr("en", "bot.added", name="🤖 Anna", level="strong")
    t = service.table_in(GROUP)
    assert t is not None
    assert sorted((s.seat, s.name, s.bot) for s in t.seats.values()) == [
        (0, "🤖 Anna", "strong"), (1, "Alice", None), (2, "🤖 Boris", "easy"),
    ]  # fmt: skip
    await service.stop()
    service, _presenter = new_service(store, clock)
    await service.start()
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert reply.text == tr("en", "bot.removed", name="🤖 Anna")
    t = service.table_in(GROUP)
    assert t is not None and [(s.name, s.bot) for s in t.seats.values() if s.bot] == [
        ("🤖 Boris", "easy")
    ]
    assert await check_store(store) == []


GUILD_TABLES = (
    ChatRef("discord", "900", "901", "Poker"),
    ChatRef("discord", "900", "902", "Poker"),
)
ANN = Actor("discord", "1", "Ann", "en")


class _BothRead:
    """Holds each of the two tables' reads of a computer player's balance until both have
    read it (two tables of one community readying at once: two workers on PostgreSQL, or the
    threads of the SQLite store): what a table decided from its read, the other's commit
    has made stale by the time it commits."""

    def __init__(self, store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads = 0
        self.both = asyncio.Event()
        player, get_player = store.player, store.get_player

        async def held_player(community_id: int, user_id: str, *args: Any, **kw: Any) -> Any:
            got = await player(community_id, user_id, *args, **kw)
            if user_id.startswith("bot:"):
                await self._hold()
            return got

        async def held_get_player(player_id: int) -> Any:
            got = await get_player(player_id)
            if got is not None and got.user_id.startswith("bot:"):
                await self._hold()
            return got

        monkeypatch.setattr(store, "player", held_player)
        monkeypatch.setattr(store, "get_player", held_get_player)

    async def _hold(self) -> None:
        self.reads += 1
        if self.reads >= 2:
            self.both.set()
        await asyncio.wait_for(self.both.wait(), 0.5)  # (no second read: on at once)


async def test_a_computer_player_seated_at_two_tables_at_once_is_granted_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """🤖 Anna sits down at two tables of one Discord server at once (one player of the
    community, one house account). Both tables read her account as short of her 50 buy-ins
    and both granted what lacked: twice the grant minted, her account at about twice what
    the house means (50 buy-ins less what she has at the tables). The grant is decided in
    each commit's own transaction now: the first grants her 10,000 (house kush only, no
    starting balance), the second table finds her at 9,800 and tops her up by the 200 its
    buy-in takes."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    for chat in GUILD_TABLES:
        await service.new_table(chat, ANN)
    _BothRead(store, monkeypatch)
    replies = await asyncio.gather(*(service.add_bot(c, ANN, True, "easy") for c in GUILD_TABLES))
    assert [r.text for r in replies] == [tr("en", "bot.added", name="🤖 Anna", level="easy")] * 2
    community = await store.community("discord", "900")
    anna = await store.find_player(community.id, "bot:anna")
    assert anna is not None
    granted = [e.balance_delta for e in await store.ledger(community.id) if e.actor == "house"]
    assert granted == [10000, 200]
    assert anna.balance == bots.HOUSE_BUY_INS * 200 - 200  # 50 buy-ins less the second seat's
    assert await check_store(store) == []


async def test_a_computer_player_topping_up_at_two_tables_at_once_keeps_both_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """🤖 Anna's house account holds 300 kush when she tops up by 200 at two tables of one
    Discord server at once. Both tables read 300 as enough, granted nothing, and the second
    buy-in failed: "🤖 Anna could not top up" and she was stood up there. The grant is
    decided in each commit's transaction now: the second finds 100 and the house grants 50
    buy-ins before its buy-in; both top-ups are made, the ledger balanced."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    tables: list[LiveTable] = []
    for chat in GUILD_TABLES:
        await service.new_table(chat, ANN)
        await service.add_bot(chat, ANN, True, "easy")
        t = service.table_in(chat)
        assert t is not None and t.hand is None
        tables.append(t)
    community = await store.community("discord", "900")
    anna = await store.find_player(community.id, "bot:anna")
    assert anna is not None
    await store.grant(community.id, anna.id, 300 - anna.balance, actor="test", reason="", key="k")
    seats = [next(s for s in t.seats.values() if s.bot) for t in tables]
    for seat in seats:
        seat.top_up = 200  # (queued: a hand left her below a point, R8.2)

    async def top_up(t: LiveTable) -> None:
        async with t.lock:
            await add_top_ups(service.rt, t)

    _BothRead(store, monkeypatch)
    await asyncio.gather(*(top_up(t) for t in tables))
    for t in tables:
        anna_seat = next(s for s in t.seats.values() if s.bot)  # seated still
        assert (anna_seat.stack, anna_seat.top_up) == (400, 0)
    granted = [e.balance_delta for e in await store.ledger(community.id) if e.actor == "house"]
    assert granted[2:] == [bots.HOUSE_BUY_INS * 200 - 100]  # (the first two: her seats)
    anna = await store.find_player(community.id, "bot:anna")
    assert anna is not None and anna.balance == bots.HOUSE_BUY_INS * 200 - 200
    assert await check_store(store) == []


async def test_addbot_and_join_at_a_full_table_say_when_a_seat_frees() -> None:
    """``/removebot`` during a hand at a full table, then ``/addbot`` again before the hand
    ends: it said "The table is full." (to the admin who had just stood one up, and to Bob's
    /join), though a seat frees at the hand's end. The refusal says who stands up then;
    after the hand ``/addbot`` seats one, nothing moved before."""
    service, presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.add_bot(GROUP, ALICE, True, "normal")  # the third seat
    assert not reply.alert, reply.text
    reply = await service.add_bot(GROUP, ALICE, True, "strong")
    assert reply.alert and reply.text == tr("en", "reply.table_full")  # nobody leaves
    # (Boris, seated during the hand, is not dealt in: he would stand up at once)
    reply = await service.remove_bot(GROUP, ALICE, True, name="Anna")
    assert reply.text == tr("en", "bot.removed_after_hand", name="🤖 Anna")
    reply = await service.add_bot(GROUP, ALICE, True, "strong")
    assert reply.alert and reply.text == tr("en", "reply.table_full_until", name="🤖 Anna")
    assert reply.text == "The table is full: 🤖 Anna stands up after this hand."
    reply = await service.join(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "reply.table_full_until", name="🤖 Anna")
    assert [s.name for s in t.seats.values()] == ["🤖 Anna", "Alice", "🤖 Boris"]
    await play_hand_with_bots(service, presenter, clock)
    reply = await service.add_bot(GROUP, ALICE, True, "strong")
    assert reply.text == tr("en", "bot.added", name="🤖 Anna", level="strong")
    assert sorted((s.name, s.bot) for s in t.seats.values() if s.bot) == [
        ("🤖 Anna", "strong"), ("🤖 Boris", "normal")
    ]  # fmt: skip
    assert await check_store(store) == []


async def test_r8_7_addbot_in_a_tournament_is_refused_before_and_after_its_start() -> None:
    """R8.7 (nobody joins after the start) and issue 13 (computer players sit at ordinary
    tables): ``/addbot`` at a tournament table, registering or running, is refused with
    its notice, by an admin too; nobody is registered or seated, the house grants nothing
    and no computer player's account is made."""
    from tests.bot.test_tournament_service import new_service as new_tournament_service
    from tests.bot.test_tournament_service import two_started

    service, presenter, store, _clock = new_tournament_service(next_hand_delay=5)
    other = ChatRef("telegram", "-200", "-200", "Others")  # one still registering
    assert not (await service.new_tournament(other, ALICE, "ofc")).alert
    assert not (await service.join(other, BOB)).alert
    reply = await service.add_bot(other, ALICE, True, "normal")
    assert reply.alert and reply.text == tr("en", "bot.no_tournament")
    registering = service.table_in(other)
    assert registering is not None and registering.tournament is not None
    assert [s.user_id for s in registering.seats.values()] == [BOB.user_id]
    t = await two_started(service, presenter, "pineapple")
    for level in ("", "strong"):
        reply = await service.add_bot(GROUP, ALICE, True, level)
        assert reply.alert and reply.text == tr("en", "bot.no_tournament")
    # neither admin nor opener: told that nobody may, not "only admins and the table's
    # opener can", who are refused too; /removebot alike (it said "no computer player seated")
    reply = await service.add_bot(GROUP, BOB, False, "easy")
    assert reply.alert and reply.text == tr("ru", "bot.no_tournament")
    for actor, admin in ((BOB, False), (ALICE, True)):
        reply = await service.remove_bot(GROUP, actor, admin)
        assert reply.alert and reply.text == tr(actor.language, "bot.no_tournament")
    assert t.tournament is not None and len(t.tournament.players) == 2
    assert [s.user_id for s in t.seats.values()] == [ALICE.user_id, BOB.user_id]
    for chat in ("-100", "-200"):
        community = await store.community("telegram", chat)
        assert await store.find_player(community.id, "bot:anna") is None
        assert not [e for e in await store.ledger(community.id) if e.actor == "house"]
    assert await check_store(store) == []


@pytest.mark.parametrize("level", ["easy", "strong"])
async def test_r6_a_computer_player_in_fantasyland_sets_the_solvers_board_unseen_till_showdown(
    level: str,
) -> None:
    """R6 with a computer player (issue 13): dealt Fantasyland, it sets its 14 cards in one
    move at its pace, as the exact solver does (every level: never a foul the cards avoid);
    no group message shows one of its cards before the showdown, which shows its board."""
    from game.board import assess_board
    from game.fantasyland import solve_fantasyland

    service, presenter, store, clock = await alice_and_a_bot(level)
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    assert t.match is not None and t.next_hand_at is not None
    t.match = dataclasses.replace(t.match, fantasyland={anna.seat: 14}, match_over=False)
    clock.now = t.next_hand_at
    await service.run_due()
    hand = t.hand
    assert hand is not None and hand.is_fantasyland(anna.seat) and t.hand_no == 2
    cards = hand.current_cards(anna.seat)
    assert len(cards) == 14
    shown = len(presenter.tables[GROUP.chat_id])
    assert t.bot_due is not None and 1.0 <= t.bot_due - clock.now <= 3.0  # its pace
    clock.now = t.bot_due
    await service.run_due()
    board = hand.board_of(anna.seat)
    assert board.is_complete and anna.seat not in hand.to_act  # one move
    solved = solve_fantasyland(cards, t.options)
    assert not solved.fouled
    assert [set(board.box(b)) for b in Box] == [set(solved.board.box(b)) for b in Box]
    assert not assess_board(board, t.options, in_fantasyland=True).fouled
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, ALICE)
    screens = [sc.text for sc in presenter.tables[GROUP.chat_id][shown - 1 :]]
    showdown = next(i for i, text in enumerate(screens) if text.startswith("🏁"))
    faces = [str(c) for c in cards]
    for text in screens[:showdown]:  # (Alice's boxes are hidden too: hers are no secret)
        assert not any(face in text for face in faces), text
    assert all(str(c) in screens[showdown] for c in board.cards())
    assert await check_store(store) == []


async def test_a_restart_while_a_computer_player_decides_on_sqlite_plays_the_hand_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 13, R8.5: the bot stops while a computer player's move is due and its decision
    is still being made (the table's timer waiting for it); a new service on the same SQLite
    file decides again and the computer player moves itself (not by the timeout rule),
    the hand ends, nobody is sat out, and the ledger balances with the house's grants its
    own (``storage check``)."""
    from storage.check import check_database
    from storage.sqlite import SqliteStore

    gate, asked = held_decisions(monkeypatch, 30)
    path = tmp_path / "ofc.sqlite3"

    async def serve() -> tuple[TableService, FakePresenter, SqliteStore]:
        store = await SqliteStore.open(path)
        service = TableService(store, rng=random.Random(5), next_hand_delay=60, bot_pace=(0.2, 0.2))
        presenter = FakePresenter()
        service.register(presenter)
        await service.start()
        return service, presenter, store

    service, presenter, store = await serve()
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "strong")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    while not t.seats[t.owner(t.hand.to_act[0])].bot:
        await press_auto_and_confirm(service, presenter, ALICE)
    anna = t.owner(t.hand.to_act[0])
    placed = t.hand.board_of(anna).count
    await until(lambda: asked, what="its decision has started")
    due = t.bot_due
    assert due is not None
    await asyncio.sleep(0.4)  # its move is due; the table's timer waits for the decision
    assert t.hand.to_act == (anna,) and not t.lock.locked()
    await service.stop()
    gate.set()  # (the old decision ends; nobody takes it)
    await store.close()
    asked.clear()
    service, presenter, store = await serve()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand.to_act == (anna,)
    assert t.bot_due == due and t.hand.board_of(anna).count == placed
    number = t.hand_no

    def alices_turn() -> bool:
        assert t is not None
        if t.hand is None or t.seats[t.owner(t.hand.to_act[0])].bot:
            return False
        screen = presenter.privates.get(ALICE.user_id, [])
        return bool(screen) and any(b.data for b in screen[-1].all_buttons())

    while t.hand is not None and t.hand_no == number:
        await until(lambda: t.hand is None or alices_turn(), what="Alice's turn or the end")
        if t.hand is not None:
            await press_auto_and_confirm(service, presenter, ALICE)
    assert asked and t.last_result is not None  # decided anew
    assert not any(r["timed_out"] for r in t.last_result["seats"])
    assert not any(s.sitting_out for s in t.seats.values())
    assert len(await store.export_hands(t.id)) == 1
    await service.stop()
    await store.close()
    assert await check_database(path) == []


async def test_r8_6_r8_2a_a_person_away_beside_computer_players_stops_the_table_till_back() -> None:
    """Alice, the only person, is away for a whole hand beside two computer players: her
    streets are made by the clock (R8.5) and she sits out after it (R8.6). The computer
    players play no hand without her (no house kush moved, no group message) until her
    /back deals the next one; when she then walks away for good the table closes itself
    ``idle_close_seconds`` after its last deal (R8.2a), every stack back in its balance:
    hers to her, theirs to their house accounts."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    for level in ("easy", "normal"):
        await service.add_bot(GROUP, ALICE, True, level)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and len(t.hand.order) == 3

    async def step() -> None:  # the table's timer at its next deadline
        assert t is not None
        deadline = service.rt.next_deadline(t)
        assert deadline is not None
        clock.now = max(clock.now, deadline)
        await service.run_due()

    while t.hand is not None:  # Alice never presses
        await step()
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and alice.sitting_out and t.hand_no == 1
    assert t.last_result is not None
    assert [r["timed_out"] for r in t.last_result["seats"] if r["seat"] == alice.seat] == [True]
    stacks = {s.name: s.stack for s in t.seats.values()}
    clock.now += 60
    await service.run_due()  # (the deal due: none, the lobby says so again)
    lobby = presenter.last_table(GROUP.chat_id).text
    assert lobby.endswith(tr("en", "lobby.bots_wait_back")), lobby
    messages = len(presenter.tables[GROUP.chat_id]) + len(presenter.posts)
    clock.now += 20 * 60
    await service.run_due()
    assert t.hand is None and t.hand_no == 1 and t.phase is Phase.LOBBY
    assert {s.name: s.stack for s in t.seats.values()} == stacks
    assert len(presenter.tables[GROUP.chat_id]) + len(presenter.posts) == messages
    reply = await service.back(GROUP, ALICE)
    assert not reply.alert, reply.text
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 3
    dealt = clock.now
    await leave_now(service, GROUP, ALICE)  # during the hand: her streets go on by the clock
    while t.hand is not None:
        await step()
    assert t.seat_of(ALICE.user_id) is None and t.hand_no == 2
    community = await store.community("telegram", "-100")

    async def balances() -> dict[str, int]:
        found = [await store.find_player(community.id, u) for u in ("bot:anna", "bot:boris")]
        return {p.user_id: p.balance for p in found if p is not None}

    before = await balances()
    seated = {s.user_id: s.stack for s in t.seats.values()}
    assert len(before) == 2 and sorted(seated) == sorted(before)
    clock.now = dealt + 30 * 60 - 1
    await service.run_due()
    assert service.table_in(GROUP) is t and t.hand is None
    clock.now = dealt + 30 * 60
    await service.run_due()
    assert service.table_in(GROUP) is None
    assert presenter.last_table(GROUP.chat_id).text == tr(
        "en", "table.idle_closed", table=t.id, minutes=30
    )
    # their stacks went back to their house accounts (50 buy-ins granted, one bought in)
    assert await balances() == {u: 50 * 200 - 200 + seated[u] for u in seated}
    assert await player_balance(store, ALICE) + sum(seated.values()) == 1000 + 2 * 200
    assert await check_store(store) == []
