"""A cash-table player who makes Fantasyland (R6.1) and loses their whole stack in the same
hand (R8.4): they are offered the top-up and stood up at the next deal without it (R8.2), and
a Fantasyland goes with the seat (R6, R8.2: :func:`bot.service.dealing.stand_up`). The
showdown said "🌴 Fantasyland next (14 cards)" as to anyone; it says the Fantasyland waits for
the top-up, and the picture and the hand's /replay say so too."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.model import LiveTable, SeatState
from bot.presses import ReplayStep, encode
from bot.service import TableService
from bot.service.dealing import TOP_UP_SECONDS
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import GROUP, dealt_at
from tests.bot.test_tournament_break import (
    PLAYERS,
    play_scripted_hand,
    record_showdown_pictures,
    scripted_deck,
)
from tests.bot.test_tournament_service import configure
from tests.bot.test_transitions import player_balance

Table = tuple[MemoryStore, Clock, TableService, FakePresenter, list[dict[str, Any]], LiveTable]


async def _busted_in_fantasyland(monkeypatch: pytest.MonkeyPatch) -> tuple[Table, SeatState, int]:
    """Three players at 10 kush a point, the first hand scripted: its first player makes
    Q♥Q♦ on top (Fantasyland, 14 cards) and loses 29 points, 290 kush, more than the 200 of
    their stack (R8.4): busted. Returns the table, that player's seat and board seat."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False,
        deck_source=scripted_deck,
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    drawn = record_showdown_pictures(monkeypatch)
    await configure(service, kush_per_point="10")
    t = await dealt_at(service, GROUP, PLAYERS)
    assert t.hand is not None
    board_seat = t.hand.order[0]
    first = t.seats[t.owner(board_seat)]
    await play_scripted_hand(service, presenter, t)
    assert t.hand is None and first.stack == 0 and t.busted(first)
    return (store, clock, service, presenter, drawn, t), first, board_seat


def _board_notes(presenter: FakePresenter, name: str) -> str:
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if s.text.startswith("🏁"))
    return showdown.split(f"\n\n{name}: ")[1].split("\n\n")[0].splitlines()[4]


async def test_r6_r8_2_a_busted_players_fantasyland_is_announced_as_waiting_for_the_top_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, first, board_seat = await _busted_in_fantasyland(monkeypatch)
    store, clock, service, presenter, drawn, t = table
    notes = _board_notes(presenter, first.name)
    # it said "🌴 Fantasyland next (14 cards)", as for a player who keeps the seat
    assert notes != "  royalties 7 · " + tr("en", "showdown.fl_next", cards=14), notes
    note = tr("en", "showdown.fl_if_top_up", cards=14)
    assert notes == "  royalties 7 · " + note
    assert "top-up" in note and "seat" in note  # the condition, and what is lost without it
    ru = tr("ru", "showdown.fl_if_top_up", cards=14)
    assert "докуп" in ru and "14 карт" in ru
    # the picture: the badge says the same, briefly (its own words, DejaVu draws no emoji)
    board = next(b for b in drawn[0]["boards"] if b["name"] == first.name)
    assert (board["fl_next"], board["fl_if_top_up"]) == (14, True)
    others = [b for b in drawn[0]["boards"] if b["name"] != first.name]
    assert not any(b["fl_if_top_up"] for b in others)
    # the hand's /replay says what the showdown said
    record = (await store.hand_history(first.player_id, 1))[0]
    assert record.result["fantasyland_top_up_seats"] == [board_seat]
    by_user = {a.user_id: a for a in PLAYERS}
    replay = await service.press(by_user[first.user_id], encode(ReplayStep(record.id, "R5", 5)))
    assert replay.screen is not None and note in replay.screen.text, replay.screen.text
    # without the top-up the seat is freed at the next deal, and the Fantasyland with it
    assert t.next_hand_at is not None and t.next_hand_at - clock.now == TOP_UP_SECONDS
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.seat_of(first.user_id) is None
    assert not t.hand.setup.fantasyland  # nobody's Fantasyland: the others made none
    stood = (
        tr("en", "lobby.busted_stood_up", names=first.name)
        + "\n"
        + tr("en", "lobby.fl_forfeited", names=first.name)
    )
    assert (GROUP.chat_id, stood) in presenter.posts, presenter.posts[-3:]
    assert await check_store(store) == []


async def test_r6_r8_2_a_busted_player_who_tops_up_plays_the_fantasyland(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, first, _board_seat = await _busted_in_fantasyland(monkeypatch)
    store, clock, service, _presenter, _drawn, t = table
    by_user = {a.user_id: a for a in PLAYERS}
    reply = await service.top_up(GROUP, by_user[first.user_id])
    assert not reply.alert, reply.text
    assert first.stack == 200 and await player_balance(store, by_user[first.user_id]) == 600
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.seat_of(first.user_id) is first
    fantasyland = {t.owner(s): n for s, n in t.hand.setup.fantasyland.items()}
    assert fantasyland == {first.seat: 14}  # the Fantasyland the showdown promised
    assert await check_store(store) == []
