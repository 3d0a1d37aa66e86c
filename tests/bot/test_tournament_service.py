"""Tournaments at a table (R8.7, issue 11) through the table service: registration moves the
buy-in to the pool, hands move chips only, knock-outs, the payout of the pool, timeouts that
keep playing, leaving, cancelling, and a restart in the middle."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable

import pytest

from bot import render
from bot.model import Actor, ChatRef, LiveTable
from bot.presses import Leave, Register, ReplayStep, StartTournament, decode, encode
from bot.service import TableService
from bot.service.showdown import ABANDONED_HANDS
from bot.texts import grouped, minus, tr
from game.tournament import Tournament, TournamentPhase
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.levels import short_levels
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now, press_auto_and_confirm
from tests.bot.test_transitions import player_balance

PLAYERS = (ALICE, BOB, CAROL)


def new_service(next_hand_delay: float) -> tuple[TableService, FakePresenter, MemoryStore, Clock]:
    """A service on an in-memory store with a fake clock and presenter, without timers (the
    tests move the clock and call ``run_due``)."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=next_hand_delay, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter, store, clock


async def configure(service: TableService, **values: str) -> None:
    for name, value in values.items():
        if name == "level_minutes" and float(value) < 1:  # (below what /settings takes)
            await short_levels(service.rt.store, GROUP.platform, GROUP.community_id, float(value))
            continue
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text


async def open_and_register(service: TableService, players: tuple[Actor, ...]) -> None:
    reply = await service.new_tournament(GROUP, ALICE, "pineapple")
    assert not reply.alert, reply.text
    t = service.table_in(GROUP)
    assert t is not None and reply.text == tr("en", "reply.tournament_opened", table=t.id)
    for a in players:
        reply = await service.join(GROUP, a)  # /join registers at a tournament table
        assert not reply.alert, reply.text


async def play_to_the_end(
    service: TableService, presenter: FakePresenter, clock: Clock, hands: int = 200
) -> None:
    for _ in range(hands * 12):
        t = service.table_in(GROUP)
        if t is None:
            return
        if t.hand is not None:
            acting = t.seats[t.owner(t.hand.to_act[0])]
            actor = next(a for a in PLAYERS if a.user_id == acting.user_id)
            await press_auto_and_confirm(service, presenter, actor)
        else:
            clock.now += 5
            await service.run_due()
    raise AssertionError("the tournament did not end")


async def test_r8_7_a_three_player_tournament_pays_the_pool_to_the_winner(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    await configure(service, tournament_buy_in="100", tournament_chips="30", level_minutes="1")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    assert t.tournament.phase is TournamentPhase.RUNNING  # three seats: it started by itself
    assert t.hand is not None and t.hand_no == 1
    for a in PLAYERS:
        assert await player_balance(store, a) == 900
    assert sum((await store.stacks(t.id)).values()) == 300  # the pool
    table_id = t.id
    await play_to_the_end(service, presenter, clock)
    assert service.table_in(GROUP) is None  # closed after the payout
    tour = t.tournament
    assert tour.finished is not None and tour.pool == 300
    winner = t.names[tour.players[tour.winner]] if tour.winner is not None else ""
    balances = {a.name: await player_balance(store, a) for a in PLAYERS}
    assert balances[winner] == 1200 and sum(balances.values()) == 3000  # winner takes all
    assert await store.stacks(table_id) == {}
    final = presenter.last_table(GROUP.chat_id).text
    assert final.startswith(tr("en", "tour.final", table=table_id, pool=300, label="kush"))
    assert f"1. {winner} — 300 kush" in final
    knocked = [text for _, text in presenter.posts if "is out" in text] + [
        s.text for s in presenter.tables[GROUP.chat_id] if "is out: place" in s.text
    ]
    assert knocked
    # chips only moved during the hands: every hand record has no kush
    hands = await store.export_hands(table_id)
    assert all(not h["result"].get("kush") for h in hands if not h["result"].get("tournament_end"))
    history = await service.history(GROUP, ALICE)
    community = await store.community("telegram", "-100")
    alice = await store.find_player(community.id, ALICE.user_id)
    assert alice is not None
    seat = tour.seat_of(alice.id)
    line = tr("en", "tour.history_line", table=table_id, place=tour.places[seat],
              kush=tour.prizes[seat] - 100, label="kush")  # fmt: skip
    assert line in history.text
    assert await check_store(store) == []


async def test_r8_7_stats_show_a_tournament_payout_apart_from_the_hands(env) -> None:  # type: ignore[no-untyped-def]
    """/stats counted the winner's payout (the pool less the buy-in) as a hand's winnings:
    their biggest win, the kush per hand and the group's kush won. It has a line of its own;
    the net still counts it."""
    service, presenter, _store, clock = env
    await configure(service, tournament_buy_in="100", tournament_chips="30", level_minutes="1")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    await play_to_the_end(service, presenter, clock)
    tour = t.tournament
    assert tour.winner is not None
    winner = next(a for a in PLAYERS if a.name == t.names[tour.players[tour.winner]])
    lines = (await service.stats(GROUP, CAROL, [winner.name])).text.splitlines()
    # tournament hands move chips, no kush: they were counted as cash hands with 0 kush
    # ("Hands: 3 · … · kush/hand +0.0"); they have a line of their own
    played = len(await _store.hand_history(tour.players[tour.winner], 50)) - 1
    assert re.fullmatch(
        rf"Tournament hands: {played} · points/hand [+−-]?\d+\.\d \(chips, balance unchanged\)",
        lines[1],
    ), lines
    assert not any(line.startswith("Hands:") for line in lines)
    assert lines[-3].startswith("Scoops (all three boxes): ")
    assert lines[-3].endswith(" · biggest win: —")
    assert lines[-2:] == ["Tournaments: 1 · prizes less buy-ins +200 kush", "Net: +200 kush"]
    group = (await service.stats(GROUP, CAROL, [])).text.splitlines()
    assert "Members won 0 kush, lost 0 kush" in group
    assert "Tournaments: 1" in group
    hands = await _store.export_hands(t.id)
    recorded = sum(1 for h in hands if h["result"].get("tournament"))
    assert recorded >= played and group[1] == f"Tournament hands: {recorded}", group
    russian = (await service.stats(GROUP, BOB, [winner.name])).text.splitlines()
    assert russian[1].startswith(f"Турнирных раздач: {played} · за раздачу: ")
    assert russian[1].endswith(" (фишки, баланс не меняется)"), russian
    assert "Турниров: 1 · призы за вычетом взносов: +200 кушей" in russian


async def test_r8_7_a_tournament_hand_s_replay_shows_the_chips_it_moved(env) -> None:  # type: ignore[no-untyped-def]
    """/replay of a tournament hand showed each board's points and no money line at all (a
    cash hand shows the kush it moved and the stack after): each player's line now has the
    chips the hand moved and the chips after it, as the showdown's chips line (R8.7)."""
    service, presenter, store, _clock = env
    await configure(service, tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    while t.hand is not None and t.hand_no == 1:
        acting = t.seats[t.owner(t.hand.to_act[0])]
        await press_auto_and_confirm(
            service, presenter, next(a for a in PLAYERS if a.user_id == acting.user_id)
        )
    record = (await store.hand_history(t.seats[0].player_id, 1))[0]
    assert record.number == 1 and not record.result.get("kush")  # chips moved, no kush
    chips = dict(t.tournament.chips)
    won = {int(s): d for s, d in record.result["tournament"]["won"].items()}
    assert sum(won.values()) == 0 and any(won.values())
    assert {s: 1000 + d for s, d in won.items()} == chips
    final = await service.press(ALICE, encode(ReplayStep(record.id, "R5", 5)))
    assert final.screen is not None, final.text
    text = final.screen.text
    for seat in t.seats:
        line = tr("en", "replay.chips", delta=won[seat], chips=chips[seat])
        assert line in text, (line, text)
        assert line == (
            f"{minus(f'{won[seat]:+d}')} chips → {grouped(chips[seat], 'en')}"
            if won[seat]
            else f"0 chips → {grouped(chips[seat], 'en')}"
        )
    assert "kush" not in text
    # /history said "Table 1, hand 1: +N pts, 0 kush": the chips it moved
    seat = next(s for s, st in t.seats.items() if st.user_id == ALICE.user_id)
    points = next(r["points"] for r in record.result["seats"] if r["seat"] == seat)
    history = (await service.history(GROUP, ALICE)).text
    line = tr("en", "tour.history_hand_line", table=t.id, hand=1, points=points,
              chips=won[seat], foul="")  # fmt: skip
    assert line in history, history
    assert re.fullmatch(rf"Tournament #{t.id}, hand 1: .+, [+−-]?\d+ chips?", line), line
    assert "kush" not in history.splitlines()[1]
    russian = await service.press(BOB, encode(ReplayStep(record.id, "R5", 5)))
    assert russian.screen is not None
    for seat in t.seats:
        line = tr("ru", "replay.chips", delta=won[seat], chips=chips[seat])
        assert line in russian.screen.text and " фиш" in line, line


async def test_r8_7_registration_start_button_and_unregister_refund(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, _clock = env
    await service.new_tournament(GROUP, ALICE, "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    lobby = presenter.last_table(GROUP.chat_id)
    register = next(b.data for b in lobby.all_buttons() if isinstance(decode(b.data), Register))
    assert not (await service.press(ALICE, register, GROUP)).alert
    assert await player_balance(store, ALICE) == 900
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), StartTournament)
    )
    reply = await service.press(ALICE, start, GROUP, _no)
    assert reply.alert and reply.text == tr("en", "err.not_enough_players")
    await service.join(GROUP, BOB)
    reply = await service.leave(GROUP, BOB)  # before the start: unregister, buy-in back
    assert not reply.alert and await player_balance(store, BOB) == 1000
    await service.join(GROUP, BOB)
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), StartTournament)
    )
    reply = await service.press(BOB, start, GROUP, _no)  # not the opener, not an admin
    assert reply.alert and reply.text == tr("ru", "tour.start_who")
    assert not (await service.press(ALICE, start, GROUP, _no)).alert
    assert t.tournament is not None and t.tournament.phase is TournamentPhase.RUNNING
    assert t.hand is not None and sorted(t.hand.order) == [0, 1]
    reply = await service.join(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "err.registration_closed")
    assert await check_store(store) == []


async def test_r8_7_a_timeout_never_sits_out_and_leaving_knocks_out(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    # 1-minute levels: the points grow by the clock, so Alice and Bob play it out in a few hands
    await configure(service, tournament_chips="1000", level_minutes="1")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is not None
    while t.hand is not None and t.hand_no == 1:  # everyone sleeps through hand 1
        clock.now += 181
        await service.run_due()
    assert not any(s.sitting_out for s in t.seats.values())  # R8.7: no sit-out
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 3
    reply = await leave_now(service, GROUP, CAROL)  # asked, then knocked out: 3rd, no prize
    assert reply.text == tr("en", "tour.left", place=3, prize=0, label="kush")
    assert 2 not in t.tournament.chips and t.tournament.chips_removed > 0
    await play_to_the_end(service, presenter, clock)
    assert service.table_in(GROUP) is None
    assert await player_balance(store, CAROL) == 900
    assert await player_balance(store, ALICE) + await player_balance(store, BOB) == 2100
    assert await check_store(store) == []


async def restarted(store: MemoryStore, clock: Clock) -> tuple[TableService, FakePresenter]:
    """The bot back after a stop: a new service on the same ``store``, started."""
    service = TableService(
        store, clock=clock, rng=random.Random(6), next_hand_delay=0, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    await service.start()
    return service, presenter


async def test_r8_7_a_restart_in_the_middle_continues_the_tournament() -> None:
    service, presenter, store, clock = new_service(next_hand_delay=0)
    await configure(service, tournament_chips="40", level_minutes="0.5")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    clock.now += 45  # level 2 by the clock: it applies from the next hand dealt
    for _ in range(2):
        acting = t.seats[t.owner(t.hand.to_act[0])]  # type: ignore[union-attr]
        actor = next(a for a in PLAYERS if a.user_id == acting.user_id)
        await press_auto_and_confirm(service, presenter, actor)
    state = t.tournament.to_json()
    await service.stop()
    service2, presenter2 = await restarted(store, clock)
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.tournament is not None
    assert t2.tournament.to_json() == state
    assert t2.tournament.level_at(clock.now) == 2
    await play_to_the_end(service2, presenter2, clock)
    balances = [await player_balance(store, a) for a in PLAYERS]
    assert sorted(balances) == [900, 900, 1200]
    assert await check_store(store) == []


async def test_r8_7_the_levels_do_not_rise_while_the_bot_is_down() -> None:
    """Five-minute levels; the bot stops 60 s into level 1 during the first hand and is back
    an hour later. The hour is no tournament time (as the players' clocks, R8.5): the
    next hand is dealt at level 1 and level 2 begins 4 minutes of play later. (It was
    dealt at level 13, 200 chips a point instead of 10, and the tournament was decided by
    the outage.)"""
    service, _presenter, store, clock = new_service(next_hand_delay=0)
    await configure(service, tournament_chips="1000", level_minutes="5")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    started = clock.now
    clock.now += 60
    await service.stop()
    clock.now += 3600
    service2, presenter2 = await restarted(store, clock)
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.tournament is not None and t2.hand is not None
    assert t2.tournament.level_at(clock.now) == 1
    assert t2.tournament.next_level_at(clock.now) == started + 3600 + 300
    while t2.hand_no == 1:
        assert t2.hand is not None
        acting = t2.seats[t2.owner(t2.hand.to_act[0])]
        actor = next(a for a in PLAYERS if a.user_id == acting.user_id)
        await press_auto_and_confirm(service2, presenter2, actor)
    assert t2.hand is not None and t2.hand_no == 2
    assert t2.tournament.level == 1 and t2.tournament.chips_per_point == 10
    assert await check_store(store) == []


async def test_r8_7_an_admin_closing_a_tournament_refunds_every_buy_in() -> None:
    service, presenter, store, _clock = new_service(next_hand_delay=60)
    await configure(service, tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.close_table(GROUP, ALICE, True)  # during a hand: at its end
    shown = presenter.last_table(GROUP.chat_id).text  # the group's message says so too
    said = (
        "Tournament #1 is cancelled at the end of this hand: buy-ins back, or the pool to those"
        " still in if someone is out; Fantasyland earned in it is not played."
    )
    assert shown.endswith("\n\n" + said), shown
    # it said "Table #1 closes at the end of this hand.", no word of the refunds; then no word
    # of the Fantasyland the cancel throws away (R6), which a table's close says at once
    assert not reply.alert and reply.text == said
    assert tr("ru", "tour.cancels_after_hand_fl", table=t.id) == (
        "Турнир #1 будет отменён в конце этой раздачи: взносы вернутся, а если кто-то выбыл,"
        " фонд получат оставшиеся; заработанная в ней Фантазия не будет сыграна."
    )
    # asked again, in Russian: told them alone it is so already (R8.2a), nothing posted
    russian = await service.close_table(GROUP, BOB, True)
    assert russian.alert and russian.text == "Турнир #1 и так будет отменён в конце этой раздачи."
    assert presenter.last_table(GROUP.chat_id).text == shown
    # /newtable meanwhile said "closes at the end of this hand", no word of the refunds either
    again = await service.new_table(GROUP, CAROL)
    assert again.alert and again.text.startswith(
        "This chat's tournament #1 is cancelled at the end of this hand (buy-ins back, or the"
        " pool to those still in if one is out); then /newtable opens a table."
    ), again.text
    again = await service.new_table(GROUP, BOB)
    assert again.text.startswith(tr("ru", "tour.table_closing", table=t.id))
    assert "взносы вернутся" in again.text
    assert t.tournament is not None and t.tournament.phase is TournamentPhase.RUNNING
    while t.hand is not None:
        acting = t.seats[t.owner(t.hand.to_act[0])]
        actor = next(a for a in PLAYERS if a.user_id == acting.user_id)
        await press_auto_and_confirm(service, presenter, actor)
    assert service.table_in(GROUP) is None
    assert [await player_balance(store, a) for a in PLAYERS] == [1000, 1000, 1000]
    assert await store.stacks(t.id) == {}
    assert await check_store(store) == []


async def _no() -> bool:
    return False


async def test_r8_7_a_tournament_press_from_another_chat_is_refused(env) -> None:  # type: ignore[no-untyped-def]
    """Register and Start pressed in another chat (a forged button naming this tournament)
    change nothing: an admin there is no admin here, and a registration belongs to the
    tournament's own group."""
    service, presenter, store, _clock = env
    await service.new_tournament(GROUP, ALICE, "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    lobby = presenter.last_table(GROUP.chat_id)
    buttons = [decode(b.data) for b in lobby.all_buttons()]
    register = next(b.data for b in lobby.all_buttons() if isinstance(decode(b.data), Register))
    assert any(isinstance(p, StartTournament) for p in buttons)
    other = ChatRef("telegram", "-999", "-999", "Elsewhere")
    forged = {tr("en", "err.forged"), tr("ru", "err.forged")}  # (in the presser's language)

    async def admin() -> bool:
        return True  # the presser administers the other chat

    for actor in (BOB, CAROL):
        reply = await service.press(actor, register, other, admin)
        assert reply.alert and reply.text in forged
    await service.join(GROUP, BOB)
    await service.join(GROUP, CAROL)
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), StartTournament)
    )
    reply = await service.press(BOB, start, other, admin)
    assert reply.alert and reply.text in forged
    assert t.tournament is not None and t.tournament.phase is TournamentPhase.REGISTERING
    assert await player_balance(store, BOB) == 900  # registered once, from its own group
    assert await check_store(store) == []


async def _start_heads_up(service: TableService, presenter: FakePresenter) -> None:
    for a in (ALICE, BOB):
        reply = await service.join(GROUP, a)
        assert not reply.alert, reply.text
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), StartTournament)
    )
    assert not (await service.press(ALICE, start, GROUP, _no)).alert


async def test_r8_7_r4_2_a_heads_up_double_boxes_tournament_settles_per_player(env) -> None:  # type: ignore[no-untyped-def]
    """Classic OFC heads-up with two boards each (R4.2): the hand's pairs name board seats
    (0, 1, 10, 11), which are not the tournament's seats: they are settled per player. Before,
    the settlement raised on every try and the tournament never got past its first hand."""
    service, presenter, store, clock = env
    await configure(service, game="ofc", heads_up_double_boxes="on", tournament_chips="30")
    assert not (await service.new_tournament(GROUP, ALICE, "ofc")).alert
    await _start_heads_up(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    assert sorted(t.hand.order) == [0, 1, 10, 11]  # two boards each
    for _ in range(400):  # nobody acts: every hand is placed for them (R8.5, R8.7)
        if service.table_in(GROUP) is None:
            break
        assert t.hand_no < 40, "the tournament is stuck"
        assert sum(t.tournament.chips.values()) + t.tournament.chips_removed == 60
        clock.now += 300
        await service.run_due()
    assert service.table_in(GROUP) is None and t.tournament.finished is not None
    assert sorted([await player_balance(store, a) for a in (ALICE, BOB)]) == [900, 1100]
    assert await check_store(store) == []


async def test_r8_7_sitting_out_is_refused_and_a_cancel_says_the_buy_ins_are_back(env) -> None:  # type: ignore[no-untyped-def]
    """A tournament deals every player every hand (R8.7): /sitout is refused with the reason
    (it answered "You sit out from the next hand" and changed nothing). An admin closing it
    tells the group that every buy-in is back."""
    service, presenter, store, clock = env
    await configure(service, tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.sit_out(GROUP, BOB)
    assert reply.alert and reply.text == tr("ru", "tour.no_sitout")
    assert not any(s.sitting_out for s in t.seats.values())
    while t.hand is not None and t.hand_no == 1:
        clock.now += 181
        await service.run_due()
    reply = await service.close_table(GROUP, ALICE, True)  # at the end of hand 2
    assert reply.text == tr("en", "tour.cancels_after_hand_fl", table=t.id)
    while service.table_in(GROUP) is not None:
        clock.now += 181
        await service.run_due()
    final = presenter.last_table(GROUP.chat_id).text
    assert final == tr("en", "tour.cancelled", table=t.id)  # (not "table closed" as well)
    assert [await player_balance(store, a) for a in PLAYERS] == [1000, 1000, 1000]
    assert await check_store(store) == []


async def test_r8_7_during_a_hand_the_group_sees_the_level_it_is_played_at(env) -> None:  # type: ignore[no-untyped-def]
    """A new level applies from the next hand dealt (R8.7): while hand 1 runs past the end of
    level 1, the table message shows level 1's chips per point (what the hand is settled at)
    and that level 2 starts with the next hand; it said "Level 2 · 15 chips a point"."""
    service, presenter, _store, clock = env
    await configure(service, level_minutes="1", tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    text = render.group_screen(t, "en", None, clock.now).text
    assert tr("en", "tour.status", level=1, cpp=10, next="1:00") in text
    clock.now += 70  # level 2 by the clock; hand 1 goes on (120 s each)
    text = render.group_screen(t, "en", None, clock.now).text
    assert tr("en", "tour.status_pending", level=1, cpp=10, next_level=2) in text
    assert "15 chips a point" not in text
    while t.hand is not None and t.hand_no == 1:
        acting = t.seats[t.owner(t.hand.to_act[0])]
        await press_auto_and_confirm(
            service, presenter, next(a for a in PLAYERS if a.user_id == acting.user_id)
        )
    assert t.hand is not None and t.tournament.level == 2  # hand 2 is dealt at level 2
    text = render.group_screen(t, "en", None, clock.now).text
    assert tr("en", "tour.status", level=2, cpp=15, next="0:50") in text


async def running_tournament(service: TableService) -> tuple[LiveTable, Tournament]:
    """A tournament of ``PLAYERS`` with 1,000 chips each, its first hand dealt."""
    await configure(service, tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    return t, t.tournament


def leave_button_of(presenter: FakePresenter) -> str:
    """The Leave button of the group's table message now."""
    screen = presenter.last_table(GROUP.chat_id)
    return next(b.data for b in screen.all_buttons() if isinstance(decode(b.data), Leave))


async def test_r8_7_the_leave_button_of_a_running_tournament_asks_before_knocking_out(env) -> None:  # type: ignore[no-untyped-def]
    """Leaving a running tournament knocks the player out (R8.7): one tap on the Leave button
    of the group's message knocked them out with their buy-in lost. Now the first press asks
    and changes nothing; a second one within 30 s leaves; a press much later asks again.
    The /leave command asks too (tests/bot/test_fixgrant2_leave.py)."""
    service, presenter, store, clock = env
    t, tour = await running_tournament(service)
    reply = await service.press(BOB, leave_button_of(presenter), GROUP)
    assert reply.alert and reply.text == tr("ru", "tour.leave_confirm", place=3)
    assert sorted(tour.chips) == [0, 1, 2] and not t.seats[1].leaving
    clock.now += 31  # too late: it asks again
    reply = await service.press(BOB, leave_button_of(presenter), GROUP)
    assert reply.alert and reply.text == tr("ru", "tour.leave_confirm", place=3)
    clock.now += 5
    reply = await service.press(BOB, leave_button_of(presenter), GROUP)
    assert not reply.alert and reply.text == tr("ru", "tour.left", place=3, prize=0, label="kush")
    assert sorted(tour.chips) == [0, 2]
    reply = await service.leave(GROUP, BOB)  # once more: he is out already
    assert reply.alert and reply.text == tr("ru", "tour.already_out")
    dan = Actor("telegram", "9", "Dan", "en")  # never registered
    reply = await service.leave(GROUP, dan)
    assert reply.alert and reply.text == tr("en", "tour.not_registered")
    reply = await leave_now(service, GROUP, CAROL)  # the command: asks, then leaves
    assert reply.text == tr("en", "tour.left", place=2, prize=0, label="kush")
    await play_to_the_end(service, presenter, clock)
    assert await player_balance(store, ALICE) == 1200
    assert await check_store(store) == []


async def test_r8_7_a_leave_press_delivered_twice_only_asks(env) -> None:  # type: ignore[no-untyped-def]
    """Telegram delivers an update again after a crash before it was confirmed (and a quick
    double tap sends the same button twice): the second delivery of the first Leave press
    was taken as the confirmation and knocked the player out, buy-in lost. The question
    writes the table message anew (its buttons at a new version): the same press again is
    out of date; a press of the new Leave button leaves."""
    service, presenter, _store, _clock = env
    t, tour = await running_tournament(service)
    first = leave_button_of(presenter)
    reply = await service.press(BOB, first, GROUP)
    assert reply.alert and reply.text == tr("ru", "tour.leave_confirm", place=3)
    reply = await service.press(BOB, first, GROUP)  # the same update, delivered again
    assert reply.alert and reply.text == tr("ru", "err.stale")
    assert sorted(tour.chips) == [0, 1, 2] and not t.seats[1].leaving
    assert leave_button_of(presenter) != first
    reply = await service.press(BOB, leave_button_of(presenter), GROUP)  # the confirmation
    assert not reply.alert and reply.text == tr("ru", "tour.left", place=3, prize=0, label="kush")
    assert sorted(tour.chips) == [0, 2]


async def test_r8_2a_r8_7_a_long_hand_does_not_idle_close_a_running_tournament() -> None:
    """A table between two hands, its next deal due in seconds, is not idle (R8.2a): after a
    hand that lasted longer than ``idle_close_seconds`` (everyone slept through it, R8.5) the
    idle close fired before the next deal and cancelled the running tournament."""
    service, _presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, tournament_chips="1000", idle_close_seconds="300")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    dealt = clock.now
    while t.hand is not None:
        clock.now += 181
        await service.run_due()
    assert clock.now - dealt > 300 and t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    assert service.table_in(GROUP) is t and t.hand is not None and t.hand_no == 2
    assert t.tournament.phase is TournamentPhase.RUNNING
    assert await check_store(store) == []


async def test_r8_7_a_player_out_of_a_running_tournament_is_told_so(env) -> None:  # type: ignore[no-untyped-def]
    """A player knocked out stays seated until the end of the hand: their /leave then said
    "The tournament is over" while the others played on. It says they are out already."""
    service, _presenter, _store, _clock = env
    await configure(service, tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    assert (await leave_now(service, GROUP, CAROL)).text == tr(
        "en", "tour.left", place=3, prize=0, label="kush"
    )
    assert t.seat_of(CAROL.user_id) is not None  # out, seated until the hand ends
    reply = await service.leave(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "tour.already_out")
    assert t.tournament.finished is None and sorted(t.tournament.chips) == [0, 1]


async def a_chinese_tournament_started(service: TableService, presenter: FakePresenter) -> None:
    """Alice opens a Chinese Poker tournament, ``PLAYERS`` register, she presses Start."""
    reply = await service.new_tournament(GROUP, ALICE, "chinese")
    assert not reply.alert, reply.text
    for a in PLAYERS:
        await service.join(GROUP, a)
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), StartTournament)
    )
    assert not (await service.press(ALICE, start, GROUP, _no)).alert


async def test_r8_7_a_tournament_nobody_plays_is_stopped_after_three_hands() -> None:
    """Everybody walked away from a Chinese Poker tournament: R8.7 plays their hands for them
    (R8.5) and R7.7 counts such boards fouled, so no chip ever moved and a hand was dealt
    into the group every few minutes for good. After ABANDONED_HANDS hands in a row in which
    every player's time ran out it is stopped and cancelled (nobody out: every buy-in back); a
    hand someone plays starts the count again."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="chinese", tournament_buy_in="100")
    await a_chinese_tournament_started(service, presenter)  # by its opener
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    table_id = t.id
    for a in PLAYERS:
        assert await player_balance(store, a) == 900
    hands = 0
    while service.table_in(GROUP) is not None:
        assert hands < 10, "the tournament was never stopped"
        if t.hand is not None and t.hand_no == 1:  # someone plays the first hand
            while t.hand is not None and t.hand_no == 1 and t.hand.to_act:
                seat = t.seats[t.owner(t.hand.to_act[0])]
                if seat.user_id == ALICE.user_id:
                    await press_auto_and_confirm(service, presenter, ALICE)
                    break
                clock.now += 1000
                await service.run_due()
        before = t.hand_no
        clock.now += 1000  # every clock runs out
        await service.run_due()
        hands += t.hand_no != before
    assert t.absent_hands == ABANDONED_HANDS and t.hand_no == 1 + ABANDONED_HANDS
    final = presenter.last_table(GROUP.chat_id).text
    assert tr("en", "tour.abandoned", table=table_id, hands=ABANDONED_HANDS) in final
    assert tr("en", "tour.cancelled", table=table_id) in final
    for a in PLAYERS:
        assert await player_balance(store, a) == 1000
    assert await store.stacks(table_id) == {}
    assert await check_store(store) == []


async def test_r8_7_balance_at_a_tournament_shows_chips_then_place_and_prize(env) -> None:  # type: ignore[no-untyped-def]
    """/balance at a tournament table said "100 at the table" for every player, the knocked
    out too: the buy-in is in the prize pool whatever happens. It now shows the chips, and
    once out the place and the prize paid when the tournament ends."""
    service, _presenter, _store, _clock = env
    await configure(service, tournament_buy_in="100", tournament_chips="1000", payouts="50,30,20")
    await service.new_tournament(GROUP, ALICE, "ofc")  # (four seats: two play on, R4.1)
    await service.join(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    assert (await service.balance(GROUP, ALICE)).text == tr(
        "en", "reply.balance_tour", name="Alice", balance=900, label="kush", table=t.id,
        buy_in=100, chips=1000,
    )  # fmt: skip
    for a in (BOB, CAROL, Actor("telegram", "4", "Dan", "en")):
        await service.join(GROUP, a)
    assert t.tournament.phase is TournamentPhase.RUNNING
    await leave_now(service, GROUP, BOB)  # place 4: no prize
    text = (await service.balance(GROUP, BOB)).text
    assert text == tr("ru", "reply.balance_tour_out", name="Bob", balance=900, label="kush",
                      table=t.id, place=4, prize="")  # fmt: skip
    assert text.endswith("(место 4).") and "куш" in text
    await leave_now(service, GROUP, CAROL)  # place 3: 20 % of 400, paid at the end
    prize = tr("en", "reply.balance_tour_prize", prize=80, label="kush")
    assert (await service.balance(GROUP, CAROL)).text == tr(
        "en", "reply.balance_tour_out", name="Carol", balance=900, label="kush", table=t.id,
        place=3, prize=prize,
    )  # fmt: skip
    assert prize == ", prize 80 kush when it ends"
    other = await service.balance(ChatRef("telegram", "-200", "-200", "Elsewhere"), ALICE)
    assert "tournament" not in other.text  # another chat: the plain balance


async def test_r7_5_r8_7_a_claimant_who_leaves_a_chinese_tournament_continues_the_reveal() -> None:
    """A Chinese Poker tournament of three to 3 points: the bottom boxes bring a player to the
    target and they are offered the claim (R7.5). Each claimant leaves (knocked out, R8.7):
    leaving counts as Continue, so once the last one has left the reveal goes on after its
    pause instead of waiting out the claim time (30 s) for players who are gone. (With two
    players left the tournament goes on; the last opponent leaving ends it at once, see
    :func:`test_r8_7_the_last_opponent_leaving_mid_hand_ends_the_tournament_at_once`.)"""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="chinese", target_points="3")
    await a_chinese_tournament_started(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in PLAYERS}
    while t.reveal is None:
        assert t.hand is not None and t.hand.to_act
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    offer = t.reveal["claim"]
    assert offer is not None and offer["seats"]
    claimants = [by_id[t.seats[s].user_id] for s in offer["seats"]]
    for n, a in enumerate(claimants, 1):
        reply = await leave_now(service, GROUP, a)
        assert not reply.alert, reply.text
        assert (t.reveal["claim"] is None) == (n == len(claimants))
    assert t.tournament is not None and len(t.tournament.chips) == 3 - len(claimants) >= 2
    assert t.reveal["at"] == clock.now + t.options.reveal_pause_seconds
    assert await check_store(store) == []


async def two_started(service: TableService, presenter: FakePresenter, game: str) -> LiveTable:
    """Alice opens a tournament of ``game``, she and Bob register, she presses Start."""
    assert not (await service.new_tournament(GROUP, ALICE, game)).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), StartTournament)
    )
    assert not (await service.press(ALICE, start, GROUP, _no)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    return t


@pytest.mark.parametrize("game", ["pineapple", "chinese"])
async def test_r8_7_the_last_opponent_leaving_mid_hand_ends_the_tournament_at_once(
    game: str,
) -> None:
    """Two players left; one leaves in the middle of a hand (R8.7: knocked out at that
    moment, the chips out of play, the last player with chips wins). The winner had to play
    the hand out alone, or let their clock run out (minutes), before the pool was paid out.
    Now the hand is not played on: the pool is paid at once, the table closes, the winner's
    private hand message says why (no buttons left), and no card of the hand is shown."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    await configure(service, tournament_buy_in="100", game=game)
    t = await two_started(service, presenter, game)
    table_id, hand_no = t.id, t.hand_no
    hand = t.hand
    assert hand is not None
    if game == "pineapple":  # a street in: Alice or Bob has placed cards
        acting = t.seats[t.owner(hand.to_act[0])]
        await press_auto_and_confirm(service, presenter, ALICE if acting.user_id == "1" else BOB)
    reply = await leave_now(service, GROUP, BOB)
    assert reply.text == tr("ru", "tour.left", place=2, prize=0, label="kush")
    assert service.table_in(GROUP) is None  # paid out and closed in the same step
    assert await player_balance(store, ALICE) == 1100
    assert await player_balance(store, BOB) == 900
    assert await store.stacks(table_id) == {}
    final = presenter.last_table(GROUP.chat_id).text
    why = tr("en", "tour.final_mid_hand", table=table_id, hand=hand_no)
    out = tr("en", "tour.knocked_out", name="Bob", place=2, prize=0, label="kush")
    # (fix39c: one group write, the standings with the knock-out and why above them)
    assert final.startswith(
        f"{out}\n{why}\n" + tr("en", "tour.final", table=table_id, pool=200, label="kush")
    ), final
    assert "1. Alice — 200 kush" in final
    assert presenter.last_private(ALICE.user_id).text == why
    assert not presenter.last_private(ALICE.user_id).all_buttons()
    assert presenter.last_private(BOB.user_id).text == tr("ru", "private.none")
    hands = await store.export_hands(table_id)  # the dropped hand has no entry
    assert [(h["number"], bool(h["result"].get("tournament_end"))) for h in hands] == [
        (hand_no, True)
    ]
    hidden = {c.face for s in hand.order for c in hand.view(s).me.cards}  # type: ignore[union-attr]
    for _, text in presenter.posts:
        assert not any(face in text for face in hidden)
    clock.now += 3600
    await service.run_due()  # nothing is left to time out
    assert await player_balance(store, ALICE) == 1100
    assert await check_store(store) == []


async def test_r7_6_r8_7_a_chinese_tournament_game_over_says_chips_are_settled() -> None:
    """R8.7: in a Chinese Poker tournament the end of a game to the target settles chips, not
    kush (R7.6: the kush of an ordinary table). The reveal said "The game is over; kush are
    settled." there while no kush moved, above the line with the chips it did move."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="chinese", target_points="10", tournament_chips="60")
    await a_chinese_tournament_started(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    by_id = {a.user_id: a for a in PLAYERS}
    for _ in range(2000):
        if service.table_in(GROUP) is None:
            break
        if t.hand is not None and t.hand.to_act:
            await press_auto_and_confirm(
                service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id]
            )
        else:
            clock.now += 5  # reveal pauses, claim times, the next hand
            await service.run_due()
    assert service.table_in(GROUP) is None, "the tournament did not end"
    texts = [s.text for s in presenter.tables[GROUP.chat_id]]
    # a game that reached its target says so once ("… so the game ends here."), then only
    # "Chips are settled."; one that ended otherwise says "The game is over; chips are settled."
    settled = tr("en", "reveal.settled_chips")
    assert settled == "Chips are settled."
    over = [x for x in texts if tr("en", "reveal.game_over_chips") in x or settled in x]
    assert over, "no Chinese Poker game of the tournament ended"
    assert any(f"so the game ends here.\n{settled}" in x for x in over), over
    ends = f"so the game ends here.\n{tr('en', 'reveal.game_over_chips')}"
    assert not any(ends in x for x in texts)
    assert not any(tr("en", "reveal.game_over") in x for x in texts)
    assert all(" a point · chips: " in x for x in over)  # the chips the game moved
    assert await check_store(store) == []


async def test_r8_7_register_pressed_answers_and_seats_in_the_presser_s_language(env) -> None:  # type: ignore[no-untyped-def]
    """Alice (English) opens a tournament; Bob (Russian) presses Register. He was answered in
    the table's English and seated with it, so every private hand of his tournament came in
    English, while the Join button of a table (and /join here) seats in his own language."""
    service, presenter, store, _clock = env
    await service.new_tournament(GROUP, ALICE, "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.lang == "en"
    lobby = presenter.last_table(GROUP.chat_id)
    register = next(b.data for b in lobby.all_buttons() if isinstance(decode(b.data), Register))
    reply = await service.press(BOB, register, GROUP)
    assert not reply.alert
    assert reply.text == tr("ru", "tour.registered", amount=100, label=t.label)
    assert reply.text.startswith("Вы в турнире")
    seat = t.seat_of(BOB.user_id)
    assert seat is not None and seat.lang == "ru"
    register = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), Register)
    )
    assert not (await service.press(ALICE, register, GROUP)).alert
    seat = t.seat_of(ALICE.user_id)
    assert seat is not None and seat.lang == "en"
    assert await check_store(store) == []


async def test_r8_7_top_counts_a_knocked_out_buy_in_at_its_prize(env) -> None:  # type: ignore[no-untyped-def]
    """/top counted every registrant's buy-in (their stack at the tournament table, the prize
    pool) until the payout, so Bob, out in 4th with no prize, was listed at 1,000 kush (900
    balance + 100). A knocked-out player's share now counts at their prize (0 for Bob, 80 for
    Carol out in 3rd), read from the committed table state, whichever worker serves it."""
    service, _presenter, _store, _clock = env
    await configure(service, tournament_buy_in="100", tournament_chips="1000", payouts="50,30,20")
    await service.new_tournament(GROUP, ALICE, "ofc")
    dan = Actor("telegram", "4", "Dan", "en")
    for a in (ALICE, BOB, CAROL, dan):
        await service.join(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    assert t.tournament.phase is TournamentPhase.RUNNING
    await leave_now(service, GROUP, BOB)  # place 4: no prize
    await leave_now(service, GROUP, CAROL)  # place 3: 20 % of 400
    assert (await service.top(GROUP, ALICE)).text.splitlines() == [
        tr("en", "reply.top_title"),
        tr("en", "reply.top_line", n=1, name="Alice", total=1000, label="kush"),
        tr("en", "reply.top_line", n=2, name="Dan", total=1000, label="kush"),
        tr("en", "reply.top_line", n=3, name="Carol", total=980, label="kush"),
        tr("en", "reply.top_line", n=4, name="Bob", total=900, label="kush"),
    ]


async def replay_frames(service: TableService, actor: Actor, record_id: int) -> int:
    """How many frames the replay of hand ``record_id`` has (the version its presses carry)."""
    for frames in range(1, 30):
        if (await service.press(actor, encode(ReplayStep(record_id, f"R{frames}", 1)))).screen:
            return frames
    raise AssertionError(f"hand #{record_id} does not replay")


async def test_r7_6_r8_7_replay_of_a_chinese_tournament_hand_has_a_chip_line() -> None:
    """/replay of a Chinese Poker tournament hand that did not end the game showed the
    points and no chip line at all (a cash hand shows its kush, a Pineapple tournament hand
    its chips): chips move only when the game to the target ends (R7.6, R8.7). Such a hand's
    line now says where the game stood after it and the chips, to be settled when it ends;
    the hand that ended the game shows the chips it moved."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="chinese", target_points="10", tournament_chips="60")
    await a_chinese_tournament_started(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None
    by_id = {a.user_id: a for a in PLAYERS}
    for _ in range(2000):
        if service.table_in(GROUP) is None:
            break
        if t.hand is not None and t.hand.to_act:
            await press_auto_and_confirm(
                service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id]
            )
        else:
            clock.now += 5
            await service.run_due()
    records = [
        r for r in await store.hand_history(alice.player_id, 100) if "tournament" in r.result
    ]  # (the payout's own entry is not a hand)
    mid = [r for r in records if "won" not in r.result["tournament"]]
    ended = [r for r in records if "won" in r.result["tournament"]]
    assert mid and ended
    for record, lang in ((mid[-1], "en"), (mid[-1], "ru")):  # the first hand: all played
        game = record.result["chinese"]
        assert not game["over"]
        actor = ALICE if lang == "en" else BOB
        frames = await replay_frames(service, actor, record.id)
        final = await service.press(actor, encode(ReplayStep(record.id, f"R{frames}", frames)))
        assert final.screen is not None
        text = final.screen.text
        for seat, chips in record.result["tournament"]["chips"].items():
            line = tr(lang, "replay.chips_game", chips=chips, total=game["totals"][seat],
                      target=10)  # fmt: skip
            assert line in text, (line, text)
        if lang == "en":
            seat, chips = next(iter(record.result["tournament"]["chips"].items()))
            assert f"game {game['totals'][seat]}/10 · {chips} chips" in text
        assert "kush" not in text and "куш" not in text
    record = ended[0]
    won = record.result["tournament"]["won"]
    frames = await replay_frames(service, ALICE, record.id)
    final = await service.press(ALICE, encode(ReplayStep(record.id, f"R{frames}", frames)))
    assert final.screen is not None
    seat = str(alice.seat)
    after = int(record.result["tournament"]["chips"].get(seat, 0))
    assert tr("en", "replay.chips", delta=int(won[seat]), chips=after) in final.screen.text


async def test_r8_7_top_after_a_tournament_is_the_ledger_s_net(env) -> None:  # type: ignore[no-untyped-def]
    """Reported: /top counted a tournament's players at the full buy-in or its chips as
    kush. Checked after a whole tournament (buy-in 100, 30 chips each, 70 % / 30 %): /top
    is each balance (nothing left at a table), and /top by period each player's prize less
    their buy-in, the ledger's net since they started with 1,000; no chip count appears."""
    service, presenter, store, clock = env
    await configure(service, tournament_buy_in="100", tournament_chips="30", level_minutes="1",
                    payouts="70,30")  # fmt: skip
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    await play_to_the_end(service, presenter, clock)
    tour = t.tournament
    prize = {t.names[pid]: tour.prizes.get(seat, 0) for seat, pid in enumerate(tour.players)}
    assert sorted(prize.values()) == [0, 90, 210]
    balances = {a.name: await player_balance(store, a) for a in PLAYERS}
    assert balances == {name: 1000 + p - 100 for name, p in prize.items()}
    order = sorted(PLAYERS, key=lambda a: -balances[a.name])
    assert (await service.top(GROUP, ALICE)).text.splitlines() == [
        tr("en", "reply.top_title"),
        *(
            tr("en", "reply.top_line", n=n, name=a.name, total=balances[a.name], label="kush")
            for n, a in enumerate(order, start=1)
        ),
    ]
    week = (await service.top(GROUP, ALICE, "week")).text.splitlines()
    assert week[0] == "🏆 Winnings · last 7 days"
    for n, a in enumerate(order, start=1):
        assert week[n].startswith(
            f"{n}. {a.name} — {minus(f'{balances[a.name] - 1000:+d}')} kush · hands: "
        )
    assert await check_store(store) == []


async def test_r8_7_a_tournament_cancelled_after_a_knock_out_pays_the_pool_to_those_still_in(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """Carol leaves the running tournament (knocked out, 3rd: no prize) and an admin then
    closes it: every buy-in went back, Carol's too, her lost buy-in paid out of what Alice
    and Bob had won. It is rolled forward as card rooms do: Carol's 100 stays in the pool,
    which goes to Alice and Bob, half evenly and half by chips; the ledger balanced, the
    pool paid out to the last kush, the group told who got what."""
    service, presenter, store, clock = env
    await configure(service, tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is not None
    tour = t.tournament
    reply = await leave_now(service, GROUP, CAROL)
    assert not reply.alert, reply.text
    assert tour.places == {2: 3}
    reply = await service.close_table(GROUP, ALICE, True)  # at the end of hand 1
    assert reply.text == tr("en", "tour.cancels_after_hand_fl", table=t.id)
    while service.table_in(GROUP) is not None:
        clock.now += 181
        await service.run_due()
    chips = tour.chips
    assert sorted(chips) == [0, 1] and sum(chips.values()) == 2000
    alice, bob, carol = [await player_balance(store, a) for a in PLAYERS]
    assert carol == 900  # her buy-in lost, as had play gone on (it was given back)
    assert alice + bob == 2100  # their 900 each and the whole pool of 300, no more, no less
    # 150 evenly (75 each), 150 by chips, the kush the division leaves to the most chips
    share = {s: 75 + 150 * chips[s] // 2000 for s in chips}
    top = min(chips, key=lambda s: (-chips[s], s))
    share[top] += 300 - sum(share.values())
    assert (alice, bob) == (900 + share[0], 900 + share[1])
    final = presenter.last_table(GROUP.chat_id).text
    assert final.splitlines() == [
        tr("en", "tour.cancelled_shared", table=t.id, pool=300, label="kush"),
        *sorted(
            (
                tr("en", "tour.cancel_in", name=a.name, chips=chips[s], prize=share[s],
                   label="kush")
                for s, a in enumerate(PLAYERS[:2])
            ),
            key=lambda line: -share[next(s for s, a in enumerate(PLAYERS) if a.name in line)],
        ),
        tr("en", "tour.cancel_out", name="Carol", place=3, prize=0, label="kush"),
    ]  # fmt: skip
    history = await service.history(GROUP, CAROL)
    assert tr("en", "tour.history_cancelled", table=t.id, kush=-100, label="kush") in history.text
    assert await check_store(store) == []


async def test_r8_7_a_tournament_closed_by_the_bots_removal_tells_each_player_their_share(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """The bot is removed from the group of a running tournament after a knock-out: the
    tournament is cancelled and its pool shared among the players still in (R8.7), and as
    nobody can read that in the group each is told in private. The private notice said "your
    buy-in is back", untrue once the pool is shared: it now gives each player's own share,
    which is what their balance got."""
    service, presenter, store, clock = env
    await configure(service, tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is not None
    assert not (await leave_now(service, GROUP, CAROL)).alert
    langs = {s.user_id: s.lang for s in t.seats.values()}  # (each told in their own)
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    while service.table_in(GROUP) is not None:
        clock.now += 181
        await service.run_due()
    await service.rt.settled(t)
    for actor in PLAYERS[:2]:
        got = await player_balance(store, actor) - 900  # (1000 less the buy-in of 100)
        assert got > 0
        text = presenter.last_private(actor.user_id).text
        lang = langs[actor.user_id]
        notice = tr(lang, "private.chat_gone_tour", table=t.id, amount=got, label="kush")
        assert text.startswith(notice), text
        assert f"{got} " in text.splitlines()[0], text  # (their share, not "buy-in back")


async def a_chinese_game_under_way_after_a_knock_out(
    env,  # type: ignore[no-untyped-def]
) -> tuple[LiveTable, Callable[[int], Awaitable[None]]]:
    """A Chinese Poker tournament of Alice, Bob and Carol (target 500, 1,000 chips): Carol
    leaves in hand 1 (knocked out, 3rd; her leaving ends that game, settled, R7.6), and Alice
    and Bob play hands of a new game until it has a score. Returns the table and a function
    that plays out hand ``number`` (Arrange for me and Confirm; Carol's clock runs out)."""
    service, presenter, _store, clock = env
    await configure(
        service,
        game="chinese",
        target_points="500",
        tournament_chips="1000",
        reveal_pause_seconds="0",
    )
    await a_chinese_tournament_started(service, presenter)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    tour = t.tournament
    by_id = {a.user_id: a for a in PLAYERS}
    reply = await leave_now(service, GROUP, CAROL)
    assert not reply.alert, reply.text
    assert tour.places == {2: 3}

    async def play_hand(number: int) -> None:
        while t.hand is not None and t.hand_no == number and t.hand.to_act:
            acting = t.seats[t.owner(t.hand.to_act[0])]
            if acting.user_id == CAROL.user_id:
                clock.now += 1000
                await service.run_due()
            else:
                await press_auto_and_confirm(service, presenter, by_id[acting.user_id])

    await play_hand(1)
    while t.hand_no == 1 and (t.hand is not None or t.reveal is not None):
        clock.now += 1
        await service.run_due()
    assert t.chinese is None or t.chinese.totals == {}  # (hand 2 begins a new game)
    while t.hand is None:  # the next deal
        clock.now += 1
        await service.run_due()
    # hands of the new game until it has a score (a game tied so far would settle nothing)
    while t.chinese is None or len(set(t.chinese.totals.values())) < 2:
        number = t.hand_no
        await play_hand(number)
        while t.hand_no == number:
            clock.now += 1
            await service.run_due()
    assert sorted(tour.chips) == [0, 1]
    return t, play_hand


async def test_r7_6_r8_7_a_chinese_tournament_cancelled_mid_game_settles_the_game_first(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """A Chinese Poker tournament settles chips at the end of each game to the target (R8.7,
    R7.6). Carol leaves in hand 1 (knocked out, 3rd; her leaving ends that game, settled);
    Alice and Bob play hand 2 of a new game and an admin closes the table meanwhile: the
    tournament is cancelled at the end of hand 2 and its pool goes half by chips. The points
    hand 2 won were dropped, the pool shared by the chips of hand 1's end; the game under way
    is settled first on its score (R7.6, as R7.7 and a cash table's close do), in chips at its
    level, and the shares follow the chips after it. The group is told what it moved."""
    service, presenter, store, clock = env
    t, play_hand = await a_chinese_game_under_way_after_a_knock_out(env)
    tour = t.tournament
    assert tour is not None
    before = dict(tour.chips)
    cpp = tour.chips_per_point
    last = t.hand_no
    reply = await service.close_table(GROUP, ALICE, True)  # at the end of this hand
    assert reply.text == tr("en", "tour.cancels_after_hand", table=t.id)
    await play_hand(last)
    while service.table_in(GROUP) is not None:
        clock.now += 1
        await service.run_due()
    hand = [r for r in await store.export_hands(t.id) if r["number"] == last]
    game = hand[0]["result"]["chinese"]  # the game after that hand: under way, not over
    assert game["over"] is False and len(game["totals"]) == 2
    points = game["totals"]["0"] - game["totals"]["1"]
    assert points != 0  # (the deck of this test: a game with a score to settle)
    moved = max(-before[0], min(before[1], points * cpp))  # Alice's chips (capped, R8.4)
    chips = tour.chips
    assert chips == {0: before[0] + moved, 1: before[1] - moved}
    share = {s: 75 + 150 * chips[s] // 2000 for s in chips}
    top = min(chips, key=lambda s: (-chips[s], s))
    share[top] += 300 - sum(share.values())
    alice, bob, carol = [await player_balance(store, a) for a in PLAYERS]
    assert (alice, bob, carol) == (900 + share[0], 900 + share[1], 900)
    final = presenter.last_table(GROUP.chat_id).text.splitlines()
    sign = {True: "+", False: "−"}
    assert final[0] == tr(
        "en", "tour.game_settled_cancel",
        moves=f"Alice {sign[moved > 0]}{abs(moved)} chips, Bob {sign[moved < 0]}{abs(moved)} chips",
    )  # fmt: skip
    assert final[1] == tr("en", "tour.cancelled_shared", table=t.id, pool=300, label="kush")
    assert await check_store(store) == []


async def test_r7_6_r8_7_a_cancelled_chinese_tournament_whose_game_knocks_out_one_is_won(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """Alice and Bob, 10 chips each at 10 chips a point: an admin closes the table during
    hand 1 of the game. Settled first on its score (R7.6), the game takes all the chips of
    whoever is behind: knocked out, the other wins and takes the pool, as at a finish (R8.7),
    and the group reads the final standings, not "every buy-in back"."""
    service, presenter, store, clock = env
    await configure(
        service, game="chinese", target_points="500", tournament_chips="10",
        chips_schedule="10", reveal_pause_seconds="0",
    )  # fmt: skip
    t = await two_started(service, presenter, "chinese")
    tour = t.tournament
    assert tour is not None
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "tour.cancels_after_hand", table=t.id)
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    while t.hand is not None and t.hand.to_act:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    while service.table_in(GROUP) is not None:
        clock.now += 1
        await service.run_due()
    hand = (await store.export_hands(t.id))[0]
    totals = hand["result"]["chinese"]["totals"]
    assert totals["0"] != totals["1"]  # (this test's deck)
    winner = 0 if totals["0"] > totals["1"] else 1
    assert tour.finished is not None and tour.winner == winner and tour.chips == {winner: 20}
    balances = [await player_balance(store, a) for a in (ALICE, BOB)]
    assert balances[winner] == 1100 and balances[1 - winner] == 900
    final = presenter.last_table(GROUP.chat_id).text.splitlines()
    names = ("Alice", "Bob")
    signs = ["+" if s == winner else "−" for s in (0, 1)]
    assert final[:2] == [
        tr("en", "tour.game_settled_cancel",
           moves=f"Alice {signs[0]}10 chips, Bob {signs[1]}10 chips"),
        tr("en", "tour.knocked_out", name=names[1 - winner], place=2, prize=0, label="kush"),
    ]  # fmt: skip
    assert tr("en", "tour.final", table=t.id, pool=200, label="kush") in final
    assert tr("en", "tour.cancelled", table=t.id) not in final
    await service.rt.settled(t)
    for seat, actor in enumerate((ALICE, BOB)):  # told in private too: over, not cancelled
        lang = "en" if actor is ALICE else "ru"
        paid = (
            tr(lang, "private.pool_paid_place", place=1, amount=200, label="kush")
            if seat == winner
            else tr(lang, "private.pool_paid_none", place=2)
        )
        notice = tr(lang, "private.admin_over", table=t.id) + " " + paid
        assert [s.text for s in presenter.privates[actor.user_id]].count(notice) == 1
    assert await check_store(store) == []


async def test_r8_7_a_chinese_tournament_closed_by_the_bots_removal_tells_each_share_after_its_game(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """A Chinese Poker tournament whose group removes the bot during a game, after a
    knock-out: the close settles the game under way first (R7.6, R8.7), which moves the
    chips the pool is shared by. Each player's private notice gives what their balance got:
    it was worked out before the close settled the game, from the chips before it."""
    service, presenter, store, clock = env
    t, play_hand = await a_chinese_game_under_way_after_a_knock_out(env)
    tour = t.tournament
    assert tour is not None
    before = dict(tour.chips)
    last = t.hand_no
    langs = {s.user_id: s.lang for s in t.seats.values()}
    balances = {a.user_id: await player_balance(store, a) for a in PLAYERS[:2]}
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    await play_hand(last)
    while service.table_in(GROUP) is not None:
        clock.now += 1
        await service.run_due()
    await service.rt.settled(t)
    assert tour.chips != before  # (the game's score moved chips before the shares)
    for actor in PLAYERS[:2]:
        got = await player_balance(store, actor) - balances[actor.user_id]
        text = presenter.last_private(actor.user_id).text
        lang = langs[actor.user_id]
        notice = tr(lang, "private.chat_gone_tour", table=t.id, amount=got, label="kush")
        assert text.startswith(notice), text
        assert f"{got} " in text.splitlines()[0], text
    assert await check_store(store) == []


async def test_r8_7_a_tournament_won_after_the_bots_removal_tells_each_player_their_prize(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """The bot is removed from the group during the hand that ends a tournament (10 chips:
    a point busts): the pool is paid out by place, but nobody can read the final standings
    in the group. The players were told nothing (a cancel is told in private, a finish was
    not): their hand messages said "Result in the group". Now each is told in private that
    the tournament is over and what its pool paid them, with the last showdown; the one it
    paid nothing, out in place 2 without a prize (not "0 kush went to your balance")."""
    service, presenter, store, clock = env
    await configure(service, tournament_chips="10")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is not None
    tour = t.tournament
    assert not (await leave_now(service, GROUP, CAROL)).alert  # (knocked out: 3rd, no prize)
    langs = {s.user_id: s.lang for s in t.seats.values()}
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    assert t.closing
    await play_to_the_end(service, presenter, clock)
    await service.rt.settled(t)
    assert tour.finished is not None  # (won in that hand, not cancelled)
    for actor in PLAYERS[:2]:
        got = await player_balance(store, actor) - 900  # (1000 less the buy-in of 100)
        text = presenter.last_private(actor.user_id).text
        lang = langs[actor.user_id]
        notice = tr(lang, "private.chat_gone_final", table=t.id, amount=got, label="kush")
        if got == 0:  # (the loser: out in place 2, no prize; not "0 kush went to you")
            notice = tr(lang, "private.chat_gone_final_none", table=t.id, place=2)
        assert text.startswith(notice), text
    assert sorted([await player_balance(store, a) - 900 for a in PLAYERS[:2]]) == [0, 300]
    assert await check_store(store) == []


async def carol_out_in_hand_one(
    service: TableService, presenter: FakePresenter, clock: Clock, payouts: str = "50,30,20"
) -> LiveTable:
    """A tournament of Alice, Bob and Carol (buy-in 100, 1,000 chips, ``payouts``; empty:
    the default, winner takes all): Carol leaves during hand 1 (knocked out, 3rd: 60 kush of
    the pool of 300 with the payouts 50/30/20), hand 1 is played out (her moves made for
    her) and hand 2, of Alice and Bob, is dealt. Returns the table."""
    await configure(service, tournament_chips="1000", **({"payouts": payouts} if payouts else {}))
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is not None
    assert not (await leave_now(service, GROUP, CAROL)).alert
    assert t.tournament.places == {2: 3}
    by_id = {a.user_id: a for a in PLAYERS}
    while t.hand_no == 1 or t.hand is None:
        if t.hand is not None and t.hand.to_act:
            acting = t.seats[t.owner(t.hand.to_act[0])]
            if acting.user_id != CAROL.user_id:
                await press_auto_and_confirm(service, presenter, by_id[acting.user_id])
                continue
        clock.now += 200
        await service.run_due()
    assert t.hand_no == 2 and sorted(s.user_id for s in t.seats.values()) == ["1", "2"]
    return t


async def test_r8_7_a_player_knocked_out_earlier_is_told_in_private_of_a_cancel_s_prize(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """R8.2a, R8.7: the bot is removed from the group of a running tournament whose payouts
    pay three places (50/30/20), after Carol was knocked out (3rd) in an earlier hand. The
    cancel pays her place's prize, 60 kush, to her balance; the players still seated are told
    in private, and she was told nothing (no longer seated, nobody read the group). Now she
    is told in a private message of her own: what she got, for which place."""
    service, presenter, store, clock = env
    t = await carol_out_in_hand_one(service, presenter, clock)
    tour = t.tournament
    assert tour is not None
    carol_before = len(presenter.privates.get(CAROL.user_id, []))
    langs = {s.user_id: s.lang for s in t.seats.values()}
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    await play_to_the_end(service, presenter, clock)
    await service.rt.settled(t)
    assert await player_balance(store, CAROL) == 960  # her buy-in lost, her prize paid
    assert tour.finished is None  # (1,000 chips: hand 2 knocks nobody out: cancelled)
    for actor in PLAYERS[:2]:
        got = await player_balance(store, actor) - 900
        notice = tr(langs[actor.user_id], "private.chat_gone_tour", table=t.id, amount=got,
                    label="kush")  # fmt: skip
        assert presenter.last_private(actor.user_id).text.startswith(notice)
    sent = presenter.privates[CAROL.user_id][carol_before:]
    notice = tr("en", "private.chat_gone_out", table=t.id, place=3, amount=60, label="kush")
    assert [s.text for s in sent] == [notice]
    assert "For your place 3, 60 kush" in notice
    assert await check_store(store) == []


async def test_r8_7_a_player_knocked_out_earlier_with_no_prize_is_not_written_to(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """The same with the default payouts (winner takes all): the cancel pays Carol nothing
    (her buy-in was lost when she went out, as had play gone on), her balance does not
    change, and she is not written to (her place was told when she went out)."""
    service, presenter, store, clock = env
    t = await carol_out_in_hand_one(service, presenter, clock, payouts="")
    carol_before = len(presenter.privates.get(CAROL.user_id, []))
    langs = {s.user_id: s.lang for s in t.seats.values()}
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    await play_to_the_end(service, presenter, clock)
    await service.rt.settled(t)
    assert await player_balance(store, CAROL) == 900
    assert len(presenter.privates.get(CAROL.user_id, [])) == carol_before
    for actor in PLAYERS[:2]:  # (the players still in: told, the pool of 300 theirs)
        assert presenter.last_private(actor.user_id).text.startswith(
            tr(langs[actor.user_id], "private.chat_gone_tour", table=t.id,
               amount=await player_balance(store, actor) - 900, label="kush")
        )  # fmt: skip
    assert sum([await player_balance(store, a) for a in PLAYERS[:2]]) == 2100
    assert await check_store(store) == []


async def test_r8_7_the_last_opponent_leaving_after_the_bots_removal_tells_each_privately() -> None:
    """The bot is removed from the group during a hand of a two-player tournament (its close
    waits for the hand's end, R8.2a), and Bob then leaves mid-hand: the tournament is over at
    once and its pool paid out (R8.7), but nobody can read the final standings in the group,
    and Alice was told only why the hand is not played on. Now each is told in private that
    the tournament is over and what its pool paid them, as at the end of a hand; Bob, out in
    place 2 without a prize, that he is (he read "0 kush from its pool went to your balance",
    fix38a)."""
    service, presenter, store, _clock = new_service(next_hand_delay=0)
    await configure(service, tournament_buy_in="100")
    t = await two_started(service, presenter, "pineapple")
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    assert t.closing and t.chat_gone and t.hand is not None
    assert not (await leave_now(service, GROUP, BOB)).alert
    assert service.table_in(GROUP) is None
    await service.rt.settled(t)
    assert await player_balance(store, ALICE) == 1100
    final = tr("en", "private.chat_gone_final", table=t.id, amount=200, label="kush")
    assert presenter.last_private(ALICE.user_id).text == final
    final = tr("ru", "private.chat_gone_final_none", table=t.id, place=2)
    assert presenter.last_private(BOB.user_id).text == final
    assert final.endswith("Вы выбыли на 2-м месте без приза.")  # (not "0 кушей" went to him)
    assert tr("en", "private.chat_gone_final_none", table=t.id, place=2).endswith(
        "You were out in place 2, with no prize."
    )
    assert await check_store(store) == []


async def test_r8_7_a_tournament_won_after_the_bots_removal_tells_one_knocked_out_earlier(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """The same when the tournament is won, not cancelled: payouts 50/30/20, Carol knocked
    out (3rd) in hand 1, the bot removed during hand 2, and Bob then leaves it (2nd): the
    pool is paid out by place at once (R8.7). Alice and Bob are told their prizes in
    private on their hand messages, and Carol, no longer seated, hers in a message of her
    own (the tournament over, not cancelled)."""
    service, presenter, store, clock = env
    t = await carol_out_in_hand_one(service, presenter, clock)
    carol_before = len(presenter.privates.get(CAROL.user_id, []))
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    assert t.closing and t.hand is not None
    assert not (await leave_now(service, GROUP, BOB)).alert
    assert service.table_in(GROUP) is None
    await service.rt.settled(t)
    got = {a.user_id: await player_balance(store, a) - 900 for a in PLAYERS}
    assert got == {"1": 150, "2": 90, "3": 60}
    for actor, lang in ((ALICE, "en"), (BOB, "ru")):
        final = tr(lang, "private.chat_gone_final", table=t.id, amount=got[actor.user_id],
                   label="kush")  # fmt: skip
        assert presenter.last_private(actor.user_id).text == final
    out = tr("en", "private.chat_gone_out_final", table=t.id, place=3, amount=60, label="kush")
    assert [s.text for s in presenter.privates[CAROL.user_id][carol_before:]] == [out]
    assert await check_store(store) == []


async def test_r8_7_an_admin_s_cancel_tells_every_registered_player_in_private(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """R8.2a, R8.7: an admin closes a running tournament paying three places (50/30/20)
    during hand 2, after Carol was knocked out (3rd) in hand 1; the end of the hand cancels
    it: Carol keeps her place's prize (60 kush), Alice and Bob share the rest. The group is
    told, but a knocked-out player need not read it (Carol was told nothing): each registered
    player is told in a private message of their own what the pool paid them, once; the
    seated ones' hand messages keep the last hand."""
    service, presenter, store, clock = env
    t = await carol_out_in_hand_one(service, presenter, clock)
    before = {a.user_id: len(presenter.privates.get(a.user_id, [])) for a in PLAYERS}
    langs = {s.user_id: s.lang for s in t.seats.values()}
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "tour.cancels_after_hand_fl", table=t.id)
    await play_to_the_end(service, presenter, clock)
    await service.rt.settled(t)
    tour = t.tournament
    assert tour is not None and tour.finished is None  # (cancelled)
    got = {a.user_id: await player_balance(store, a) - 900 for a in PLAYERS}
    assert got["3"] == 60 and got["1"] + got["2"] == 240
    for actor in PLAYERS[:2]:
        lang = langs[actor.user_id]
        notice = (
            tr(lang, "private.admin_cancel", table=t.id)
            + " "
            + tr(lang, "private.pool_paid", amount=got[actor.user_id], label="kush")
        )
        sent = [s.text for s in presenter.privates[actor.user_id][before[actor.user_id] :]]
        assert sent.count(notice) == 1, sent
    notice = (
        tr("en", "private.admin_cancel", table=t.id)
        + " "
        + tr("en", "private.pool_paid_place", place=3, amount=60, label="kush")
    )
    assert [s.text for s in presenter.privates[CAROL.user_id][before["3"] :]] == [notice]
    assert "For your place 3, 60 kush" in notice
    assert await check_store(store) == []


async def test_r8_7_an_admin_s_cancel_between_hands_leaves_one_out_of_the_money_alone() -> None:
    """The same between hands (the close at once), with the default payouts (winner takes
    all): Carol, knocked out in hand 1, is paid nothing: she is not written to (her place
    was told when she went out, as on the bot's removal); Alice and Bob get their shares."""
    service, presenter, store, clock = new_service(next_hand_delay=60)
    t = await carol_out_in_hand_one(service, presenter, clock, payouts="")
    by_id = {a.user_id: a for a in PLAYERS}
    while t.hand is not None:  # hand 2 played out: between hands
        acting = t.seats[t.owner(t.hand.to_act[0])]
        await press_auto_and_confirm(service, presenter, by_id[acting.user_id])
    assert service.table_in(GROUP) is t and t.hand is None
    before = {a.user_id: len(presenter.privates.get(a.user_id, [])) for a in PLAYERS}
    langs = {s.user_id: s.lang for s in t.seats.values()}
    await service.close_table(GROUP, ALICE, True)
    assert service.table_in(GROUP) is None
    await service.rt.settled(t)
    assert await player_balance(store, CAROL) == 900
    for actor in PLAYERS[:2]:
        lang = langs[actor.user_id]
        got = await player_balance(store, actor) - 900
        notice = (
            tr(lang, "private.admin_cancel", table=t.id)
            + " "
            + tr(lang, "private.pool_paid", amount=got, label="kush")
        )
        assert [s.text for s in presenter.privates[actor.user_id][before[actor.user_id] :]] == [
            notice
        ]
    # (her place was told when she went out; her balance does not change: not written to)
    assert presenter.privates.get(CAROL.user_id, [])[before["3"] :] == []
    assert await check_store(store) == []


async def test_r8_7_an_admin_s_close_before_the_start_tells_each_registrant_the_buy_in_is_back(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """R8.7: Alice and Bob registered (the tournament not started: a third seat open) and an
    admin closes the table: every buy-in goes back, and each registrant is told so in
    private, in their language."""
    service, presenter, store, _clock = env
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is None
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "tour.cancelled", table=t.id)
    await service.rt.settled(t)
    for actor, lang, label in ((ALICE, "en", "kush"), (BOB, "ru", "кушей")):
        assert await player_balance(store, actor) == 1000
        notice = (
            tr(lang, "private.admin_cancel", table=t.id)
            + " "
            + tr(lang, "private.pool_paid", amount=100, label="kush")
        )
        assert [s.text for s in presenter.privates[actor.user_id]] == [notice]
        assert f"100 {label}" in notice
    assert await check_store(store) == []


async def test_r8_7_a_member_not_registered_is_told_the_tournament_s_own_answer(env) -> None:  # type: ignore[no-untyped-def]
    """A member who never registered, typing /ready, /topup, /sitout or /back at a tournament
    (open or running), was told "You are not at this table", which does not say what to do:
    while it registers /ready and the two refused for every tournament player get the
    tournament's answer (a registration is all it takes; no top-ups; no sitting out), /back
    and all four once it runs "You are not registered". Nothing changes."""
    service, _presenter, store, _clock = env
    dan = Actor("telegram", "9", "Dan", "en")
    await configure(service, tournament_buy_in="100", tournament_chips="30")
    await open_and_register(service, (ALICE,))
    for running in (False, True):
        if running:
            await open_and_register_rest(service)
        late = "tour.not_registered" if running else ""
        # (once it runs nobody registers: "not registered" says it all)
        reply = await service.ready(GROUP, dan)
        assert reply.alert and reply.text == tr("en", late or "tour.ready")
        reply = await service.top_up(GROUP, dan, "100")
        assert reply.alert and reply.text == tr("en", late or "tour.no_topup")
        reply = await service.sit_out(GROUP, dan)
        assert reply.alert and reply.text == tr("en", late or "tour.no_sitout")
        reply = await service.back(GROUP, dan)
        assert reply.alert and reply.text == tr("en", "tour.not_registered")
    t = service.table_in(GROUP)
    assert t is not None and t.seat_of(dan.user_id) is None
    assert await check_store(store) == []


async def open_and_register_rest(service: TableService) -> None:
    """Bob and Carol register at the open tournament; Alice (its opener) starts it."""
    for a in (BOB, CAROL):
        reply = await service.join(GROUP, a)
        assert not reply.alert, reply.text
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    if t.hand is None:
        reply = await service.press(ALICE, encode(StartTournament(t.id)), GROUP)
        assert not reply.alert, reply.text


async def test_r8_7_the_lobby_says_what_each_place_wins_with_the_players_there(env) -> None:  # type: ignore[no-untyped-def]
    """The lobby read "Prizes: 50% / 30% / 20%" with two players registered: a place too
    many, whose 20 % goes to the winner (R8.7). It says what each place wins in kush with
    the players there now, and follows each registration (EN and RU)."""
    service, presenter, store, _clock = env
    await configure(service, tournament_buy_in="100", payouts="50,30,20")
    await service.new_tournament(GROUP, ALICE, "ofc")  # (four seats, R4.1)

    def prizes(lang: str) -> str:
        line = presenter.last_table(GROUP.chat_id).text.splitlines()[3]
        assert line.startswith(tr(lang, "settings.name.payouts")), line
        return line

    assert prizes("en") == "Prizes: 50% / 30% / 20%"  # nobody registered: no pool yet
    await service.join(GROUP, ALICE)
    assert prizes("en") == "Prizes: 100 kush"
    await service.join(GROUP, CAROL)
    # R8.7: place 3's share goes to the winner with two players: said (140 read as a sum
    # gone wrong)
    assert prizes("en") == (
        "Prizes: 140 / 60 kush (with 2 players, place 3's 20% goes to the winner)"
    )
    await service.settings(GROUP, ALICE, True, ["language", "ru"])
    assert prizes("ru") == "Призы: 140 / 60 кушей (при 2 игроках 20% за 3-е место — победителю)"
    await service.join(GROUP, BOB)
    assert prizes("ru") == "Призы: 150 / 90 / 60 кушей"  # every place paid: no note
    assert await check_store(store) == []


async def test_r8_7_the_lobby_says_places_beyond_the_players_go_to_the_winner(env) -> None:  # type: ignore[no-untyped-def]
    """R8.7: payouts 40,30,20,10 with two players: places 3–4, 30 % together, go to the
    winner; the prizes line says so after "140 / 60" (EN and RU), and after a third
    registration only place 4's 10 %."""
    service, presenter, _store, _clock = env
    await configure(service, tournament_buy_in="100", payouts="40,30,20,10")
    await service.new_tournament(GROUP, ALICE, "ofc")  # (four seats, R4.1)
    await service.join(GROUP, ALICE)
    await service.join(GROUP, CAROL)
    line = presenter.last_table(GROUP.chat_id).text.splitlines()[3]
    assert line == (
        "Prizes: 140 / 60 kush (with 2 players, the 30% of places 3–4 goes to the winner)"
    )
    assert tr("ru", "tour.places_to_winner", first=3, last=4, percent=30, n=2) == (
        "(при 2 игроках 30% за места 3–4 — победителю)"
    )
    await service.join(GROUP, BOB)
    line = presenter.last_table(GROUP.chat_id).text.splitlines()[3]
    assert line.endswith("(with 3 players, place 4's 10% goes to the winner)"), line
