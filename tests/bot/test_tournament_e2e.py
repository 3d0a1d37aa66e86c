"""Tournaments (R8.7, issue 11) end to end through the real python-telegram-bot against the
local fake Bot API: ``/tournament``, the lobby's Register button and ``/join``, hands played by
pressing the buttons the bot sent (🪄 Arrange + Confirm), levels that rise with the clock, a
player who never presses (auto-placed, never sat out), a restart of the bot in the middle, the
final standings, the payout into balances, ``/history``, ``/top`` and the storage check.

A listener checks every group write as it happens: no card that is hidden at that moment (a
player's hand before the showdown) ever appears in the group (R3.3)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.model import LiveTable
from bot.screens import Payload
from bot.telegram.fake_api import FakeTelegram, FakeUser
from bot.texts import grouped, tr
from game.cards import Card, parse_card
from storage.check import check_database, check_store
from tests.bot.fakes import FOULED_NOTICES
from tests.bot.levels import short_levels
from tests.bot.tg_world import (
    ALICE,
    BOB,
    CARD_RE,
    CAROL,
    GROUP_ID,
    SUIT_LETTER,
    TOKEN,
    World,
    world,
)

PLAYERS = (ALICE, BOB, CAROL)
BUY_IN = 100
START = 1000  # a new player's balance


def actions_of(fake: FakeTelegram, message: dict[str, Any]) -> dict[str, str]:
    """Payload action → callback data of a message's buttons."""
    out: dict[str, str] = {}
    for b in fake.buttons(message):
        p = Payload.decode(b.get("callback_data"))
        if p is not None:
            out[p.action] = b["callback_data"]
    return out


def tournament_message(w: World) -> dict[str, Any]:
    """The newest group message with the tournament lobby's buttons (Register / Start)."""
    messages: list[dict[str, Any]] = w.fake.chat_messages(GROUP_ID)
    for m in reversed(messages):
        if "g" in actions_of(w.fake, m):
            found: dict[str, Any] = m
            return found
    raise AssertionError("no tournament lobby message")


def allowed_cards(t: LiveTable) -> set[Card]:
    """The cards the group may see at ``t`` now: public in its hand, or on the showdown's
    boards (the hand's result and the last result recorded)."""
    allowed: set[Card] = set()
    if t.hand is not None:
        allowed |= t.hand.view(None).public_cards()
        if t.hand.result is not None:
            for r in t.hand.result.seats:
                allowed |= set(r.board.cards())
    for r in (t.last_result or {}).get("seats", []):
        allowed |= {parse_card(c) for box in ("top", "middle", "bottom") for c in r[box].split()}
    return allowed


def watch_leaks(w: World) -> list[str]:
    """Like :meth:`World.watch_leaks`, checking every group write as it happens, but it also
    knows the tables already closed: the last showdown of a tournament is posted after the
    payout closed its table (the showdown's boards are public then)."""
    violations: list[str] = []
    seen: dict[int, LiveTable] = {}

    def check(call: Any) -> None:
        seen.update(w.service.tables)
        if call.method not in ("sendMessage", "editMessageText"):
            return
        if int(call.params.get("chat_id", 0)) != GROUP_ID:
            return
        text = str(call.params.get("text", ""))
        shown = {parse_card(r + SUIT_LETTER[su]) for r, su in CARD_RE.findall(text)}
        allowed: set[Card] = set()
        for t in seen.values():
            allowed |= allowed_cards(t)
        extra = shown - allowed
        if extra:
            violations.append(f"{sorted(c.text for c in extra)} in: {text[:80]!r}")

    w.fake.listeners.append(check)
    return violations


def the_table(w: World) -> LiveTable:
    return next(iter(w.service.tables.values()))


async def configure(w: World, **values: str) -> None:
    """Alice (an admin of the group) sets each value with ``/settings name value``."""
    w.fake.admins[GROUP_ID] = {ALICE.id}
    for name, value in values.items():
        if name == "level_minutes" and float(value) < 1:  # (below what /settings takes)
            await short_levels(w.store, "telegram", str(GROUP_ID), float(value))
            continue
        reply = await w.say(ALICE, f"/settings {name} {value}")
        assert reply["text"].startswith(("Saved: ", "Already so: ")), reply["text"]


async def open_and_register(w: World) -> LiveTable:
    """Alice opens a Pineapple tournament; Alice and Bob press Register, Carol types /join:
    the third registration fills the seats and starts it (R8.7)."""
    reply = await w.say(ALICE, "/tournament pineapple")
    assert "🏆" in reply["text"] or "#" in reply["text"], reply["text"]
    lobby = tournament_message(w)
    assert {"g", "x", "o"} <= set(actions_of(w.fake, lobby))
    assert f"Buy-in {BUY_IN} kush" in lobby["text"]
    for user in (ALICE, BOB):
        data = actions_of(w.fake, tournament_message(w))["g"]
        answer = await w.press(user, GROUP_ID, tournament_message(w), data)
        assert not answer.get("show_alert"), answer
    lobby = tournament_message(w)
    assert "Alice, Bob" in lobby["text"] and f"pool {2 * BUY_IN} kush" in lobby["text"]
    reply = await w.say(CAROL, "/join")  # /join registers too
    assert reply["text"] == f"Registered: {BUY_IN} kush went to the prize pool.", reply["text"]
    t = the_table(w)
    assert t.tournament is not None and t.hand is not None and t.hand_no == 1
    for user in PLAYERS:
        assert await balance(w, user) == START - BUY_IN
    return t


async def balance(w: World, user: FakeUser) -> int:
    community = await w.store.community("telegram", str(GROUP_ID))
    player = await w.store.find_player(community.id, str(user.id))
    assert player is not None
    return player.balance


async def arrange_and_confirm(w: World, user: FakeUser) -> None:
    """``user`` presses 🪄 Arrange, then Confirm, on their private hand message."""
    await w.adapter.presenter.flush()
    for action in ("a", "c"):
        # the private message follows the table (after a timeout, say): wait for its button
        await w.fake.wait_for(lambda: (action, "") in w.hand_buttons(user))  # noqa: B023
        msg = w.private(user)
        assert msg is not None, f"{user.first_name} has no private hand"
        data = w.hand_buttons(user)[(action, "")]
        answer = await w.press(user, user.id, msg, data)
        if answer.get("text") in FOULED_NOTICES:  # a fouled board asks first (R2.3)
            answer = await w.press(user, user.id, w.private(user) or msg, data)
        assert not answer.get("show_alert"), answer


async def play_to_the_end(
    w: World,
    users: Sequence[FakeUser] = PLAYERS,
    *,
    sleeper: FakeUser | None = None,
    stop_after_streets: int | None = None,
    before_hand: Callable[[LiveTable], Awaitable[None]] | None = None,
    limit: float = 120.0,  # a guard against a loop without end: a loaded machine is slow
) -> int:
    """Whoever is to act presses Arrange + Confirm until the tournament table closes (see
    :func:`play_tournament`). Returns the streets pressed."""
    return await play_tournament(
        w, the_table(w), users, arrange_and_confirm, sleeper=sleeper,
        stop_after_streets=stop_after_streets, before_hand=before_hand, limit=limit,
    )  # fmt: skip


async def play_tournament(
    w: Any,
    t: LiveTable,
    users: Sequence[Any],
    press: Callable[[Any, Any], Awaitable[None]],
    *,
    sleeper: Any = None,
    stop_after_streets: int | None = None,
    before_hand: Callable[[LiveTable], Awaitable[None]] | None = None,
    limit: float = 120.0,
) -> int:
    """On either platform (``w``: a Telegram or Discord test world, its ``service``,
    ``fake.wait_for`` and ``adapter.presenter``), whoever of ``users`` is to act at the
    tournament table ``t`` presses Arrange + Confirm (``press(w, user)``) until the table
    closes (or ``stop_after_streets`` streets were played); ``sleeper`` never presses: the
    test waits for the timer to play for them. ``before_hand(t)`` runs once at the start of
    every hand. :raises AssertionError: after ``limit`` seconds. Returns the streets
    pressed."""
    by_id = {str(u.id): u for u in users}
    streets = 0
    seen_hand = 0
    deadline = time.monotonic() + limit
    while t.id in w.service.tables:
        assert time.monotonic() < deadline, "the tournament did not end in time"
        if stop_after_streets is not None and streets >= stop_after_streets:
            break
        hand = t.hand
        if hand is None or hand.is_over or not hand.to_act:
            await asyncio.sleep(0.01)
            continue
        if t.hand_no != seen_hand:
            seen_hand = t.hand_no
            if before_hand is not None:
                await before_hand(t)
            continue
        user = by_id[t.seats[t.owner(hand.to_act[0])].user_id]
        if user is sleeper:
            before = (t.hand_no, hand.to_act, hand.dumps())

            def moved(state: tuple[int, tuple[int, ...], str] = before) -> bool:
                return t.hand is None or (t.hand_no, t.hand.to_act, t.hand.dumps()) != state

            await w.fake.wait_for(moved)
            continue
        await press(w, user)
        streets += 1
    await w.adapter.presenter.flush()
    return streets


#: the settings of the tournaments of a player who never presses (values for ``configure``)
SLEEPER_SETTINGS = {
    "tournament_buy_in": str(BUY_IN),
    "tournament_chips": "200",
    "level_minutes": "0.05",
    "chips_schedule": "10,100",
    # a whole hand's budget: Carol's runs out on her first street of each hand; the others
    # press Arrange and Confirm on five streets in theirs (2 s left them about 1 s to spare
    # on a loaded machine, and a press refused on a timeout failed)
    "hand_seconds": "5",
    "time_bank_seconds": "0",
}


async def play_with_carol_asleep(
    t: LiveTable,
    store: Any,
    sleeper: Any,
    play: Callable[[Callable[[LiveTable], Awaitable[None]]], Awaitable[Any]],
) -> None:
    """R8.7 with R8.5, on either platform: the tournament ``t`` (:data:`SLEEPER_SETTINGS`)
    played to its end by ``play(before_hand)`` with Carol (``sleeper``, that platform's fake
    user) never pressing. Her streets are placed for her on timeout, hand after hand: she is
    dealt in again (never sat out: nobody is) while she has chips, and each hand she played
    (``store``'s records) has her board completed on timeout."""
    carol = t.seat_of(str(sleeper.id))
    assert carol is not None
    carol_pid = carol.player_id
    dealt_to_carol: list[int] = []

    async def nobody_sits_out(table: LiveTable) -> None:
        assert table.tournament is not None and table.hand is not None
        assert not any(s.sitting_out for s in table.seats.values())  # R8.7: no sit-out
        seat = table.seat_of(str(sleeper.id))
        if seat is not None and seat.player_id in table.tournament.players:
            mine = table.tournament.seat_of(seat.player_id)
            if table.tournament.chips.get(mine, 0) > 0:  # still in: dealt in again
                assert table.boards_of(seat), f"Carol was not dealt hand {table.hand_no}"
                dealt_to_carol.append(table.hand_no)

    await play(nobody_sits_out)
    assert len(dealt_to_carol) >= 2, dealt_to_carol  # she timed out and was dealt in again
    played = 0
    for h in await store.export_hands(t.id):
        result = h["result"]
        if result.get("tournament_end"):
            continue
        seats = {int(s): pid for s, pid in h["players"].items()}
        for r in result["seats"]:
            if seats.get(r["seat"]) == carol_pid:
                played += 1
                assert r["timed_out"], r  # her streets were placed on timeout (R8.5)
                cards = sum(len(r[box].split()) for box in ("top", "middle", "bottom"))
                assert cards == 13, r  # and her board was completed
    assert played == len(dealt_to_carol), (played, dealt_to_carol)


async def hand_records(w: World, table_id: int) -> list[dict[str, Any]]:
    """The stored hands of the table (their ``result`` records), oldest first."""
    return [h["result"] for h in await w.store.export_hands(table_id)]


async def check_the_end(
    w: World, table_id: int, db: Path, leaks: list[str]
) -> tuple[FakeUser, list[FakeUser]]:
    """The final standings, balances, /history, /top and the storage check after the payout.
    Returns the winner and the others."""
    assert table_id not in w.service.tables  # closed after the payout
    assert await w.store.stacks(table_id) == {}  # the pool is paid out to the last kush
    pool = 3 * BUY_IN
    # the closing step's messages go out after its commit, the last showdown's picture first
    await w.fake.wait_for(lambda: any(
        "is over" in m["text"] or "окончен" in m["text"] for m in w.fake.chat_messages(GROUP_ID)
    ))  # fmt: skip
    final = str(final_message(w)["text"])
    lines = final.splitlines()
    assert lines[0] == f"🏆 Tournament #{table_id} is over. Pool {pool} kush:", final
    assert len(lines) == 4, final
    first = lines[1]
    assert first.startswith("1. ") and first.endswith(f" — {pool} kush"), final
    winner = next(u for u in PLAYERS if first == f"1. {u.first_name} — {pool} kush")
    others = [u for u in PLAYERS if u is not winner]
    for line in lines[2:]:
        assert line.endswith(" — 0 kush") and line[0] in "23", final  # winner takes all (≤3)
    # the pool went straight into the balances: winner +pool−buy-in, the others −buy-in
    assert await balance(w, winner) == START - BUY_IN + pool
    for u in others:
        assert await balance(w, u) == START - BUY_IN
    # /history: the tournament's line with place and kush
    reply = await w.say(winner, "/history")
    winner_line = f"Tournament #{table_id}: place 1, +{pool - BUY_IN} kush"
    winner_line_ru = f"Турнир #{table_id}: место 1, +{pool - BUY_IN} кушей"  # 200 кушей
    assert winner_line in reply["text"] or winner_line_ru in reply["text"], reply["text"]
    for u in others:
        reply = await w.say(u, "/history")
        text = reply["text"]  # a player's own language: English or Russian (кушей)
        assert f"#{table_id}" in text, text
        assert f"−{BUY_IN} kush" in text or f"−{BUY_IN} кушей" in text, text
    # /top: the winner first, the others after with their balances, in the asker's language
    # (who wins, and so who asks, depends on the machine's speed: the levels follow the clock;
    # Bob reads Russian: 1200 and 900 кушей)
    reply = await w.say(others[0], "/top")
    lang = "ru" if others[0].language_code == "ru" else "en"
    label = "кушей" if lang == "ru" else "kush"
    top = reply["text"].splitlines()
    won = grouped(START - BUY_IN + pool, lang)
    assert top[1] == f"1. {winner.first_name} — {won} {label}", reply["text"]
    assert {line.split(". ", 1)[1] for line in top[2:4]} == {
        f"{u.first_name} — {START - BUY_IN} {label}" for u in others
    }, reply["text"]
    assert leaks == [], leaks
    assert await check_store(w.store) == []
    assert await check_database(db) == []
    return winner, others


def final_message(w: World) -> dict[str, Any]:
    """The group message with the final standings."""
    messages: list[dict[str, Any]] = w.fake.chat_messages(GROUP_ID)
    for m in reversed(messages):
        if "is over" in m["text"] or "окончен" in m["text"]:
            found: dict[str, Any] = m
            return found
    raise AssertionError("no final standings in the group")


async def play_hand_out(t: LiveTable, act: Callable[[str], Awaitable[Any]]) -> None:
    """Play ``t``'s hand in progress to its end: ``act(user_id)`` for whoever is to act (the
    platform's arrange-and-confirm), waiting while the hand is shown down."""
    while (hand := t.hand) is not None:
        if hand.is_over or not hand.to_act:
            await asyncio.sleep(0.01)
            continue
        await act(t.seats[t.owner(hand.to_act[0])].user_id)


async def test_r8_7_three_player_pineapple_tournament_with_rising_levels_to_the_payout(
    tmp_path: Path,
) -> None:
    """Three players register (two Register presses, one /join), play every street with
    Arrange + Confirm; the level (3 s) rises during play and so do the chips per point; the
    winner takes the pool; /history, /top and the storage check."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, rng_seed=3, db=db) as w:
        w.fake.started_users.update(u.id for u in PLAYERS)
        leaks = watch_leaks(w)
        await configure(
            w,
            tournament_buy_in=str(BUY_IN),
            tournament_chips="200",
            level_minutes="0.05",
            chips_schedule="10,100",
        )
        t = await open_and_register(w)
        tour = t.tournament
        # the first hand is played at level 1 (the clock may be past it already on a slow
        # machine: three seconds a level)
        assert tour is not None and tour.level == 1
        # the deal's table message goes out after /join's reply (answered at the commit, the
        # step's messages sent from the table's sender): settled, not flushed at once
        await w.settle()
        board = w.fake.messages[(GROUP_ID, int(t.group_ref or 0))]["text"]
        assert "🏆 Level 1 · 10 chips a point · next level in 0:0" in board, board
        assert "Chips: Alice 200, Bob 200, Carol 200" in board, board

        async def wait_for_level_2(table: LiveTable) -> None:
            # the first hand is dealt at level 1; hold it until level 2 is due on the clock,
            # so the next hand is dealt at level 2 (a level applies from the next deal)
            if table.hand_no == 1:
                assert table.tournament is not None
                due = table.tournament.next_level_at(time.time())
                assert due is not None
                await asyncio.sleep(max(0.0, due - time.time()) + 0.05)

        table_id = t.id
        await play_to_the_end(w, before_hand=wait_for_level_2)
        records = await hand_records(w, table_id)
        hands = [r for r in records if not r.get("tournament_end")]
        assert len(hands) >= 2
        levels = [r["tournament"]["chips_per_point"] for r in hands]
        assert levels[0] == 10 and levels[-1] > levels[0], levels  # chips per point rose
        assert levels == sorted(levels), levels
        assert all(not r.get("kush") for r in hands), hands  # hands move chips, not kush
        texts = w.group_texts()
        # the group was shown the level the second hand was dealt at: 2 (100 a point), or 3
        # (200) on a slow machine, whose first hand outlasts level 2's three seconds
        second = hands[1]["tournament"]
        shown = f"Level {second['level']} · {second['chips_per_point']} chips a point"
        assert second["level"] >= 2 and any(shown in x for x in texts), shown
        assert any(" is out: place " in x for x in texts)  # knock-outs announced
        await check_the_end(w, table_id, db, leaks)


@pytest.mark.usefixtures("short_hand_seconds")  # (a budget below the minimum)
async def test_r8_7_a_player_who_never_presses_is_auto_placed_and_never_sat_out(
    tmp_path: Path,
) -> None:
    """R8.7 with R8.5: Carol never presses; with a 5-second budget and no bank her streets are
    placed for her on timeout, hand after hand (she is dealt in again, never sat out), until
    the tournament ends; the payout and the storage check."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, rng_seed=5, db=db) as w:
        w.fake.started_users.update(u.id for u in PLAYERS)
        leaks = watch_leaks(w)
        await configure(w, **SLEEPER_SETTINGS)
        t = await open_and_register(w)
        table_id = t.id
        await play_with_carol_asleep(
            t, w.store, CAROL, lambda before: play_to_the_end(w, sleeper=CAROL, before_hand=before)
        )
        assert any("⌛ auto" in x for x in w.group_texts())
        await check_the_end(w, table_id, db, leaks)


async def test_r8_7_a_restart_in_the_middle_continues_the_tournament_to_the_payout(
    tmp_path: Path,
) -> None:
    """The bot stops in the middle of a hand and starts again on the same SQLite file: the
    tournament goes on from storage (chips, level clock, the hand in play) to the payout."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update(u.id for u in PLAYERS)
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db, rng_seed=7) as w:
            leaks = watch_leaks(w)
            await configure(
                w,
                tournament_buy_in=str(BUY_IN),
                tournament_chips="200",
                level_minutes="0.05",
                chips_schedule="10,100",
            )
            t = await open_and_register(w)
            table_id = t.id
            # a whole first hand, then two streets of the second
            await play_to_the_end(w, stop_after_streets=15 + 2)
            assert t.hand is not None and t.hand_no == 2, t.hand_no
            assert t.tournament is not None
            state = t.tournament.to_json()
            hand = t.hand.to_json()
            started = t.tournament.started_at
            chips = dict(t.tournament.chips)
            assert sum(chips.values()) == 600 and len(set(chips.values())) > 1
            stopping = time.time()
        assert leaks == [], leaks
        fake.listeners.clear()  # that watcher knew the stopped service's tables
        async with world(tmp_path, fake=fake, db=db, rng_seed=8) as w2:
            leaks = watch_leaks(w2)
            t2 = w2.service.tables[table_id]
            assert t2.tournament is not None and t2.hand is not None
            restored = t2.tournament.to_json()
            assert {**restored, "started_at": started} == state and t2.hand.to_json() == hand
            # the level clock from storage, stood still while the bot was down (R8.7)
            assert started is not None and t2.tournament.started_at is not None
            assert 0 <= t2.tournament.started_at - started <= time.time() - stopping
            assert t2.tournament.chips == chips
            # the level runs on through the restart: wait for level 2, then play on
            due = t2.tournament.next_level_at(time.time())
            if due is not None and t2.tournament.level_at(time.time()) == 1:
                await asyncio.sleep(max(0.0, due - time.time()) + 0.05)
            assert t2.tournament.level_at(time.time()) >= 2
            await play_to_the_end(w2)
            records = [r for r in await hand_records(w2, table_id) if not r.get("tournament_end")]
            assert records[0]["tournament"]["chips_per_point"] == 10
            assert records[-1]["tournament"]["chips_per_point"] >= 100  # from level 2 on
            await check_the_end(w2, table_id, db, leaks)
    finally:
        await fake.stop()


async def test_r8_7_an_admin_s_cancel_with_one_player_blocking_the_bot_tells_the_others(
    tmp_path: Path,
) -> None:
    """R8.2a, R8.7: between hands of a running tournament Bob blocks the bot (every private
    write to him answers 403), and Alice, an admin, closes the table with ``/closetable``:
    it is cancelled at once, every buy-in back. Bob's private notice is refused; the group's
    closing notice still goes out once (the table message's and the command's reply, each
    once), Alice and Carol each get theirs, once, and nothing is owed after (the closed
    table's final snapshot is forgotten: no later start sends it all again)."""
    async with world(tmp_path, next_hand_delay=600) as w:
        w.fake.started_users.update(u.id for u in PLAYERS)
        await configure(w, tournament_buy_in=str(BUY_IN), tournament_chips="1000")
        t = await open_and_register(w)
        by_id = {str(u.id): u for u in PLAYERS}
        # hand 1 played out; the next in 10 minutes
        await play_hand_out(t, lambda user_id: arrange_and_confirm(w, by_id[user_id]))
        await w.settle()
        assert t.id in w.service.tables and t.hand is None
        w.fake.blocked_users.add(BOB.id)
        start = len(w.fake.calls)
        notice = f"Tournament #{t.id} is cancelled; every buy-in is back."
        reply = await w.say(ALICE, "/closetable")
        assert reply["text"] == notice
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        calls = w.fake.calls[start:]
        group = [
            c for c in calls
            if int(c.params.get("chat_id", 0)) == GROUP_ID and notice in str(c.params.get("text"))
        ]  # fmt: skip
        assert sorted(c.method for c in group) == ["editMessageText", "sendMessage"], group
        private = f"Tournament #{t.id} was cancelled by an admin. {BUY_IN} kush from its pool"
        for user in (ALICE, CAROL):
            told = [m for m in w.fake.chat_messages(user.id) if str(m["text"]).startswith(private)]
            assert len(told) == 1, [m["text"] for m in w.fake.chat_messages(user.id)]
        bobs = tr("ru", "private.admin_cancel", table=t.id)  # (Bob reads Russian)
        tried = [c for c in calls if int(c.params.get("chat_id", 0)) == BOB.id]
        assert [(c.method, str(c.params.get("text")).startswith(bobs)) for c in tried] == [
            ("sendMessage", True)
        ]  # refused (403), and not tried again
        assert not any(str(m["text"]).startswith(bobs) for m in w.fake.chat_messages(BOB.id))
        assert await w.store.closed_snapshots() == []
        for user in PLAYERS:
            assert await balance(w, user) == START
        assert await check_store(w.store) == []


async def test_r8_7_telegram_a_press_delivered_again_leaves_a_player_away(tmp_path: Path) -> None:
    """End to end on Telegram: Alice (first to act) puts a card in a box, then walks away
    (her clock ran out: away, R8.7); Telegram delivers her press's update again (its answer
    was lost). The copy brought her back, so her next turn waited her whole budget instead
    of the grace; it leaves her away now. Her next real press (a new update) brings her
    back."""
    async with world(tmp_path) as w:
        w.fake.started_users.update(u.id for u in PLAYERS)
        await configure(w, tournament_buy_in=str(BUY_IN))
        t = await open_and_register(w)
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and t.hand is not None
        await w.settle()  # (her private hand written)
        places = [
            (key, data)
            for key, data in w.hand_buttons(ALICE).items()
            if key[0] == "p" and key[1].endswith("b")
        ]
        (first_key, first), (second_key, _) = places[:2]
        answer = await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, first)
        assert not answer.get("show_alert"), answer
        update = max(w.fake.pushed)  # the update of her press
        seat.away = True  # (as her clock running out leaves her)
        answers = len([c for c in w.fake.calls if c.method == "answerCallbackQuery"])
        await w.fake.redeliver(update)
        await w.fake.wait_for(
            lambda: len([c for c in w.fake.calls if c.method == "answerCallbackQuery"]) > answers
        )
        await w.settle()
        assert t.seat_of(str(ALICE.id)) is seat and seat.away
        fresh = w.hand_buttons(ALICE)
        data = fresh[second_key]  # (the button as the screen now has it)
        answer = await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, data)
        assert not answer.get("show_alert"), answer
        assert not seat.away and first_key != second_key
