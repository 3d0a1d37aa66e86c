"""Break-it session brk82: admins change a table's settings while a match is under way
(Pineapple with Fantasyland, classic OFC, classic Chinese Poker; R6.6, R7.6, R8.2, R8.5).

Found and fixed: the ``/settings`` list during a hand showed the value saved for the next
match alone ("Kush per point: 5") while the table still played the old one (1): nothing said
which was in force; ``/settings <name>`` alone the same. Both now name the value the table
plays until the change applies, in English and Russian, and the list shows a setting set
back to its default mid-hand too.

Held (kept as regression tests): options saved in a main hand wait through its Fantasyland
hand and a restart, apply once at the match's end, both hands settled at the old point
(Pineapple, classic OFC); a point (and a target) changed during a Chinese Poker reveal
settles the game once at the old point; timers changed mid-turn leave the turn's deadline
and banks alone; two admins at once (one setting; a buy-in and a point that clash); a
member who is not an admin; a lowered ``idle_close_seconds`` counted from the hand's end; a
Chinese Poker target set back mid-hand; ``ready_seconds`` raised while the ready timer runs;
a point raised mid-round under ``settle_per_round``."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest

import game.hand
from bot.model import Actor, LiveTable
from bot.service import TableService
from bot.texts import tr
from game.board import assess_board
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say, stored


def only(monkeypatch: pytest.MonkeyPatch, cards: Iterator[int]) -> None:
    """The boards judged at showdowns from now on earn the Fantasyland of the number of
    cards ``cards`` yields, none once it is exhausted (R6.1, R6.4: the auto-arranged boards
    earn or keep one now and then, which keeps a match going), unless fouled."""

    def judged(board, options, in_fantasyland=False):  # type: ignore[no-untyped-def]
        real = assess_board(board, options, in_fantasyland)
        return real._replace(fantasyland_cards=0 if real.fouled else next(cards, 0))

    monkeypatch.setattr(game.hand, "assess_board", judged)


async def dealt(service: TableService) -> LiveTable:
    """Alice and Boris sit down and press Ready at a new table: the first hand is dealt."""
    await service.new_table(GROUP, ALICE)
    for actor in (ALICE, BORIS):
        assert not (await service.join(GROUP, actor)).alert
        assert not (await service.ready(GROUP, actor)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    return t


async def test_r6_6_the_list_names_the_value_in_force_beside_the_one_waiting() -> None:
    """kush_per_point 5 and hand_seconds 60 saved during a hand wait for its match to end
    (R6.6); the list showed "5" and "60 s" alone while the hand was played at 1 and 120 s.
    Each line now names what the table plays, in both languages; the buy-in, which waits for
    the hand's end, too."""
    service, store = new_service()
    t = await dealt(service)
    for name, value in (("kush_per_point", "5"), ("hand_seconds", "60"), ("min_buy_in", "300")):
        assert not (await say(service, name, value)).alert
    assert (t.options.kush_per_point, t.options.hand_seconds, t.min_buy_in) == (1, 120, 200)
    en = (await say(service)).screen
    ru = (await say(service, actor=BORIS)).screen
    assert en is not None and ru is not None
    lines = en.text.split("\n")
    # (the list says " (in play: 1)" and, once, till when: fix43, Discord's 2,000 characters)
    keeps = tr("en", "settings.in_force_brief", value="1")
    assert f"Kush per point: 5 (default 1){keeps}" in lines, lines
    assert tr("en", "settings.in_force_legend") in lines, lines
    assert "till its match ends" in tr("en", "settings.in_force_legend")
    keeps = tr("en", "settings.in_force_brief", value="120 s")
    assert f"Time per hand (hand_seconds): 60 s (default 120 s){keeps}" in lines, lines
    keeps = tr("en", "settings.in_force_hand", value="200")
    assert f"Buy-in (min_buy_in): 300 (default 200){keeps}" in lines, lines
    lines = ru.text.split("\n")
    keeps = tr("ru", "settings.in_force_brief", value="1")
    assert f"Куш за очко: 5 (по умолчанию 1){keeps}" in lines, lines
    assert tr("ru", "settings.in_force_legend") in lines, lines
    assert keeps.startswith(" (") and "1" in keeps
    # set back before it applies: nothing waits, nothing more is said
    assert not (await say(service, "kush_per_point", "default")).alert
    en = (await say(service)).screen
    assert en is not None
    assert not any(line.startswith("Kush per point") for line in en.text.split("\n"))
    assert await check_store(store) == []


async def test_r6_6_a_setting_set_back_to_default_mid_hand_is_listed_while_it_waits() -> None:
    """A value in force (5) that an admin sets back to its default (1) during a hand waits
    for the match's end: the short list left it out as "at its default" while the table
    played 5."""
    service, store = new_service()
    await service.new_table(GROUP, ALICE)
    assert not (await say(service, "kush_per_point", "5")).alert
    t = service.table_in(GROUP)
    assert t is not None and t.options.kush_per_point == 5  # (no hand: at once)
    for actor in (ALICE, BORIS):
        assert not (await service.join(GROUP, actor)).alert
        assert not (await service.ready(GROUP, actor)).alert
    assert t.hand is not None
    assert not (await say(service, "kush_per_point", "default")).alert
    assert t.options.kush_per_point == 5 and t.pending_options is not None
    en = (await say(service)).screen
    assert en is not None
    keeps = tr("en", "settings.in_force_brief", value="5")
    assert f"Kush per point: 1 (default){keeps}" in en.text.split("\n"), en.text
    assert await check_store(store) == []


@pytest.mark.parametrize("target", [None, "20"], ids=["point-alone", "point-and-target"])
async def test_r7_6_a_point_changed_during_a_chinese_reveal_settles_the_game_once_at_the_old(
    target: str | None,
) -> None:
    """Chinese Poker to 200: during the first hand's reveal (Alice wins 22 points to 0) an
    admin sets kush_per_point 2 (and target_points 20, which Alice's 22 reach). The hand is
    scored by the old rules: the game ends (R7.6: a new point ends it; the new target is
    reached) and is settled once, at 1 kush a point, 222 to 178; the next game plays at 2."""
    from tests.bot.test_service_classic import ALICE, GROUP, chinese_hand_arranged

    service, _presenter, store, clock, t = await chinese_hand_arranged(reveal_pause="3")
    assert t.hand is not None and t.reveal is not None
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "2"])
    assert tr("en", "settings.point_ends_game") in reply.text, reply.text
    if target is not None:
        reply = await service.settings(GROUP, ALICE, True, ["target_points", target])
        assert not reply.alert, reply.text
    assert t.options.kush_per_point == 1 and t.hand is not None
    listed = (await service.settings(GROUP, ALICE, True, [])).screen
    assert listed is not None  # (no Fantasyland in Chinese Poker: until this hand ends)
    keeps = tr("en", "settings.in_force_hand", value="1")
    assert f"Kush per point: 2 (default 1){keeps}" in listed.text, listed.text
    for _ in range(8):
        clock.now += 3
        await service.run_due()
        if t.hand is None or t.hand_no > 1:
            break
    assert t.options.kush_per_point == 2 and t.pending_options is None
    assert t.chinese is None or not t.chinese.totals
    assert {s: st.stack for s, st in t.seats.items()} == {0: 222, 1: 178}
    kush = [h["result"].get("kush") for h in await store.export_hands(t.id)]
    assert [k for k in kush if k and any(k.values())] == [{"0": 22, "1": -22}], kush
    assert sum(st.stack for st in t.seats.values()) == 400
    assert await assert_conserved(store)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game_name", "cards"), [("pineapple", 14), ("ofc", 13)])
async def test_r6_6_options_saved_in_a_main_hand_wait_through_its_fantasyland_and_a_restart(
    monkeypatch: pytest.MonkeyPatch, game_name: str, cards: int
) -> None:
    """During a match's main hand an admin sets kush_per_point 3, fantasyland off and
    hand_seconds 60; the hand earns Bob Fantasyland (R6.1), so the match goes on (R6.6). The
    Fantasyland hand is dealt under the old options (Fantasyland on, 120 s, 1 kush a point);
    the bot restarts during it and keeps the change waiting; both hands are settled at 1 kush
    a point; the change applies once, as the Fantasyland hand ends, and the next hand is a
    new match at 3 kush a point with no Fantasyland."""
    from tests.bot.conftest import service_env
    from tests.bot.test_brk25_leaks import restarted
    from tests.bot.test_service_classic import ALICE, BOB, GROUP, configure, play_hand, start

    service, presenter, store, clock = service_env(next_hand_delay=5)
    await configure(service, game=game_name)
    await start(service, [ALICE, BOB], game_name)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    bob = t.seat_of(BOB.user_id)
    assert bob is not None
    only(monkeypatch, iter(cards if s == bob.seat else 0 for s in t.hand.order))
    for name, value in (("kush_per_point", "3"), ("fantasyland", "off"), ("hand_seconds", "60")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert tr("en", "settings.next_match") in reply.text, reply.text
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.match is not None and t.match.fantasyland == {bob.seat: cards}
    assert t.options.kush_per_point == 1 and t.pending_options is not None
    clock.now += 5
    await service.run_due()
    hand = t.hand
    assert hand is not None and t.hand_no == 2 and hand.is_fantasyland(bob.seat)
    assert (hand.options.kush_per_point, hand.options.fantasyland) == (1, True)
    assert hand.options.hand_seconds == 120
    await service.stop()
    service2, watcher = restarted(store, clock)
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None and t2.hand_no == 2
    assert t2.options.kush_per_point == 1 and t2.pending_options is not None
    assert t2.pending_options.kush_per_point == 3 and not t2.pending_options.fantasyland
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    from tests.bot.test_service_classic import auto_street

    while t2.hand is not None and t2.hand_no == 2:
        player = t2.player_of(t2.hand.to_act[0])
        assert player is not None
        await auto_street(service2, watcher, by_id[player.user_id])
    assert t2.options.kush_per_point == 3 and not t2.options.fantasyland
    assert t2.options.hand_seconds == 60 and t2.pending_options is None
    hands = await store.export_hands(t2.id)
    assert len(hands) == 2
    for h in hands:  # each settled at 1 kush a point: kush moved = points scored (capped)
        kush = {int(k): v for k, v in h["result"]["kush"].items()}
        assert sum(kush.values()) == 0
        points = dict.fromkeys(kush, 0)
        for a, b, won in h["result"]["pairs"]:
            points[a] += won
            points[b] -= won
        assert kush == points and any(kush.values()), h["result"]
    clock.now += 5
    await service2.run_due()
    assert t2.hand is not None and t2.hand_no == 3
    assert t2.hand.options.kush_per_point == 3 and not t2.hand.options.fantasyland
    assert not any(t2.hand.is_fantasyland(s) for s in t2.hand.order)
    await assert_conserved(store)  # type: ignore[arg-type]
    await service2.stop()


async def test_r8_5_timers_changed_mid_turn_leave_the_running_turns_deadline_alone() -> None:
    """hand_seconds 30, time_bank_seconds 10 and fantasyland_seconds 60 saved mid-turn: the
    turn under way keeps its deadline (R8.5: the budget of the whole hand; the change waits
    for the match's end, R6.6) and the hand message shows that same deadline (the one the
    timer acts on); the seated keep their banks (R8.6)."""
    service, presenter, store, clock = _env()
    t = await _dealt_on(service)
    assert t.hand is not None
    owner = t.owner(t.hand.to_act[0])
    actor = ALICE if t.seats[owner].user_id == ALICE.user_id else BORIS
    clock.now += 50  # half the turn gone
    deadline = t.turn_deadline(owner)
    banks = {s: c.bank for s, c in t.clocks.items()}
    screen = presenter.last_private(actor.user_id)
    for name, value in (("hand_seconds", "30"), ("time_bank_seconds", "10"),
                        ("fantasyland_seconds", "60")):  # fmt: skip
        assert not (await say(service, name, value)).alert
    assert deadline is not None and t.turn_deadline(owner) == deadline
    assert {s: c.bank for s, c in t.clocks.items()} == banks
    assert presenter.last_private(actor.user_id).text == screen.text
    clock.now = deadline - 1
    await service.run_due()
    assert t.hand is not None and t.owner(t.hand.to_act[0]) == owner  # not yet made for them
    clock.now = deadline + 1
    await service.run_due()
    assert t.hand is None or t.owner(t.hand.to_act[0]) != owner  # made for them then
    assert await check_store(store) == []


async def test_two_admins_saving_one_setting_at_once_leave_the_table_waiting_for_the_last() -> None:
    """Two admins set kush_per_point at the same moment during a hand (3 and 4): both are
    saved one after the other, and the table waits for the value stored last, never a mix
    (the list and the saved settings agree)."""
    service, store = new_service()
    t = await dealt(service)
    replies = await asyncio.gather(
        say(service, "kush_per_point", "3"), say(service, "kush_per_point", "4", actor=BORIS)
    )
    assert not any(r.alert for r in replies), replies
    saved = (await stored(store)).options["kush_per_point"]
    assert saved in (3, 4)
    assert t.pending_options is not None and t.pending_options.kush_per_point == saved
    assert t.options.kush_per_point == 1
    assert await check_store(store) == []


async def test_a_member_who_is_not_an_admin_changes_nothing() -> None:
    """/settings kush_per_point 5 by a member who is not an admin, during a hand: refused in
    their language, nothing saved, nothing waiting at the table."""
    service, store = new_service()
    t = await dealt(service)
    before = await stored(store)
    reply = await service.settings(GROUP, BORIS, False, ["kush_per_point", "5"])
    assert reply.alert and "админ" in reply.text.lower(), reply.text
    assert await stored(store) == before
    assert t.pending_options is None and t.options.kush_per_point == 1


async def test_r8_2a_idle_close_lowered_mid_hand_counts_from_the_hands_end() -> None:
    """idle_close_seconds lowered to 300 during a hand applies as the hand ends (its match
    over); the table, its players sitting out, closes 300 s after that, not 300 s after the
    hand's deal, 100 s earlier (R8.2a: a lowered value counts from its change at the
    earliest)."""
    from tests.bot.test_service import press_auto_and_confirm

    service, presenter, store, clock = _env()
    t = await _dealt_on(service)
    clock.now += 100  # (within the turn's budget)
    assert not (await say(service, "idle_close_seconds", "300")).alert
    assert t.options.idle_close_seconds == 1800
    for actor in (ALICE, BORIS):
        assert not (await service.sit_out(GROUP, actor)).alert
    by_id = {a.user_id: a for a in (ALICE, BORIS)}
    while t.hand is not None:
        await press_auto_and_confirm(
            service, presenter, by_id[t.seats[t.owner(t.hand.to_act[0])].user_id]
        )
    ended = clock.now
    assert t.options.idle_close_seconds == 300
    await service.run_due()
    assert service.table_in(GROUP) is t
    clock.now = ended + 299
    await service.run_due()
    assert service.table_in(GROUP) is t
    clock.now = ended + 301
    await service.run_due()
    assert service.table_in(GROUP) is None
    await assert_conserved(store)  # type: ignore[arg-type]


def _env() -> tuple[TableService, FakePresenter, MemoryStore, Clock]:
    """A service on :data:`GROUP` with the test clock, timers off, the next hand at once."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter, store, clock


async def _dealt_on(service: TableService) -> LiveTable:
    """:func:`dealt` (the first hand dealt to Alice and Boris)."""
    return await dealt(service)


async def test_r6_6_one_settings_help_names_the_value_in_force_too() -> None:
    """``/settings kush_per_point`` alone (what it is, and its value) during a hand, with 5
    saved to apply after the match: it said "5" alone, as the list did, while the table
    played 1; it names both now, in both languages."""
    service, store = new_service()
    before = await stored(store)
    await dealt(service)
    assert not (await say(service, "kush_per_point", "5")).alert
    for actor, lang in ((ALICE, "en"), (BORIS, "ru")):
        reply = await say(service, "kush_per_point", actor=actor)
        assert not reply.alert
        assert tr(lang, "settings.in_force_match", value="1") in reply.text, reply.text
    assert not (await say(service, "kush_per_point", "default")).alert
    reply = await say(service, "kush_per_point")
    assert tr("en", "settings.in_force_match", value="1")[:12] not in reply.text, reply.text
    assert await stored(store) == before  # (set back: the saved settings as they were)


async def test_r8_2_a_buy_in_lowered_and_a_point_raised_at_once_never_leave_a_point_dearer() -> (
    None
):
    """With a buy-in of 500, one admin lowers it to 100 while another raises the point to
    400 at the same moment, during a hand: each alone is valid, together a point would cost
    more than the buy-in (refused when set, R8.2). One of them is refused; what is saved,
    and what the table waits to take, keeps the point within the buy-in."""
    service, store = new_service()
    assert not (await say(service, "min_buy_in", "500")).alert
    t = await dealt(service)
    replies = await asyncio.gather(
        say(service, "min_buy_in", "100"), say(service, "kush_per_point", "400", actor=BORIS)
    )
    assert [r.alert for r in replies].count(True) == 1, replies
    s = await stored(store)
    point = s.options.get("kush_per_point", 1)
    assert isinstance(point, int) and point <= s.min_buy_in
    assert t.pending_options is not None and t.pending_buy_in is not None
    assert t.pending_options.kush_per_point <= t.pending_buy_in
    assert await check_store(store) == []


async def test_r7_6_a_target_lowered_then_set_back_during_a_hand_ends_no_game() -> None:
    """Chinese Poker to 200, Alice at 22 points: during hand 2 an admin sets target_points
    20 (Alice's points reach it) and then 200 again before the hand ends. Nothing is left to
    apply: the game plays on to 200, unsettled, with the points of both hands."""
    from tests.bot.test_service_classic import (
        ALICE,
        BOB,
        GROUP,
        auto_street,
        chinese_after_one_hand,
    )

    service, presenter, store, clock, t = await chinese_after_one_hand()
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    for value in ("20", "200"):
        reply = await service.settings(GROUP, ALICE, True, ["target_points", value])
        assert not reply.alert, reply.text
    assert t.pending_options is not None and t.pending_options.target_points == 200
    for who in (ALICE, BOB):
        await auto_street(service, presenter, who)
    for _ in range(4):
        await service.run_due()
    assert t.hand is None and t.chinese is not None and t.chinese.target == 200
    assert not t.chinese.over and t.chinese.hands == 2
    assert {s: st.stack for s, st in t.seats.items()} == {0: 200, 1: 200}  # (unsettled)
    await assert_conserved(store)  # type: ignore[arg-type]


async def test_r8_2_a_ready_seconds_raised_while_the_ready_timer_runs_moves_it_and_its_count() -> (
    None
):
    """Alice and Boris are ready, Carol seated but not: the ready timer runs (R8.2, 60 s).
    20 s in, an admin sets ready_seconds 120: the timer ends 120 s after it started, the
    lobby shows the 100 s left, and Carol is stood up (no kush taken) only then, the hand
    dealt to the two who were ready."""
    carol = Actor("telegram", "3", "Carol", "en")
    service, presenter, store, clock = _env()
    await service.new_table(GROUP, ALICE)
    for actor in (ALICE, BORIS, carol):
        assert not (await service.join(GROUP, actor)).alert
    for actor in (ALICE, BORIS):
        assert not (await service.ready(GROUP, actor)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None and t.ready_deadline is not None
    started = t.ready_deadline - 60
    clock.now = started + 20
    assert not (await say(service, "ready_seconds", "120")).alert
    assert t.ready_deadline == started + 120
    shown = tr("en", "lobby.ready_timer", seconds=100)
    assert shown in presenter.last_table(GROUP.chat_id).text.split("\n")
    clock.now = started + 61
    await service.run_due()
    assert t.hand is None and t.seat_of(carol.user_id) is not None
    clock.now = started + 121
    await service.run_due()
    assert t.hand is not None and t.seat_of(carol.user_id) is None
    await assert_conserved(store)  # type: ignore[arg-type]


async def test_r8_3_a_point_raised_mid_round_settles_the_rounds_points_at_the_old_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Classic OFC, settle_per_round (R8.3: a round of two matches heads-up): during the
    first match's hand an admin sets kush_per_point 2. As that match ends the new point
    applies, so the round's points so far are settled first at 1 kush a point (their price
    when played), once; the next hand, the round's second match, plays at 2 and is settled
    at 2 as the round ends."""
    from tests.bot.conftest import service_env
    from tests.bot.test_service_classic import ALICE, BOB, GROUP, configure, play_hand, start

    only(monkeypatch, iter(()))
    service, presenter, store, clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc", settle_per_round="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "2"])
    assert not reply.alert, reply.text
    alice, bob = t.seat_of(ALICE.user_id), t.seat_of(BOB.user_id)
    assert alice is not None and bob is not None
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.options.kush_per_point == 2
    hands = [h["result"] for h in await store.export_hands(t.id)]
    assert [bool(h.get("round_end")) for h in hands] == [False, True], hands  # settled once
    won = sum(p if a == alice.seat else -p for a, _b, p in hands[0]["pairs"])
    assert won != 0 and hands[0]["kush"] == {}  # (the hand's points waited for the round)
    assert hands[1]["kush"] == {str(alice.seat): won, str(bob.seat): -won}  # 1 kush a point
    assert (alice.stack, bob.stack) == (200 + won, 200 - won)
    assert t.match is not None and t.match.round_pairs == ()
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no > 1 and t.hand.options.kush_per_point == 2
    await play_hand(service, presenter, [ALICE, BOB])
    # the round's second match (the early settlement did not restart the round's count):
    # its points settled as it ends, at 2 kush a point
    hands = [h["result"] for h in await store.export_hands(t.id)]
    later = sum(p if a == alice.seat else -p for a, _b, p in hands[2]["pairs"])
    assert hands[2]["kush"] == {str(alice.seat): 2 * later, str(bob.seat): -2 * later}
    assert (alice.stack, bob.stack) == (200 + won + 2 * later, 200 - won - 2 * later)
    await assert_conserved(store)  # type: ignore[arg-type]
