"""A Confirm that leaves the board complete and fouled (R2.3) asks first, as Leave during a
hand does: the first press answers "⚠ This board is fouled (dead). Press Confirm again to
confirm." and changes nothing; a second press of the same board within
``LEAVE_CONFIRM_SECONDS`` confirms. Any change of the board asks again; the clock (R8.5) is
never held by it. On the scripted hand of ``test_stats_service`` (the loser's full house
middle over a 7-high bottom, complete on the last street)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.model import LEAVE_CONFIRM_SECONDS, Actor, LiveTable, SeatState
from bot.presses import PlaceCard, encode
from bot.service import TableService
from bot.texts import TEXTS, tr
from game.board import Board, Box, assess_board
from game.cards import DECK as DECK_CARDS
from game.cards import Card, parse_cards
from storage.memory import MemoryStore
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import GROUP as C_GROUP
from tests.bot.test_service_classic import auto_street, configure, start
from tests.bot.test_stats_service import ALICE, BOB, GROUP, hand_version, press_scripted
from tests.bot.test_telegram_e2e import (
    ALICE_PLAN,
    ALICE_STREETS,
    BOB_FOUL_PLAN,
    BOB_STREETS,
    decks,
    seat_everyone,
    stacked,
)
from tests.bot.tg_world import ALICE as ALICE_TG
from tests.bot.tg_world import BOB as BOB_TG
from tests.bot.tg_world import world
from tests.game.helpers import stacked_deck
from tests.game.test_history import DECK

LANG = {ALICE.user_id: "en", BOB.user_id: "ru"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def env() -> tuple[TableService, FakePresenter, Clock]:
    clock = Clock()
    service = TableService(
        MemoryStore(),
        clock=clock,
        rng=random.Random(5),
        next_hand_delay=0,
        timers=False,
        deck_source=lambda: stacked_deck(DECK),
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter, clock


def test_the_notice_is_in_both_languages() -> None:
    texts = TEXTS["err.confirm_fouled"]
    assert set(texts) >= {"en", "ru"} and all(texts.values())
    assert "again" in texts["en"] and "ещё раз" in texts["ru"]


async def _to_the_losers_last_street(
    service: TableService, presenter: FakePresenter
) -> tuple[LiveTable, Actor, int]:
    """Play the scripted hand (every Confirm answered at once, the loser's foul-certain but
    incomplete street 4 included) until the loser's last street is placed, not confirmed:
    the table, the loser and their seat."""
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    by_user = {a.user_id: a for a in (ALICE, BOB)}
    loser = BOB if t.seats[t.hand.order[0]].user_id == ALICE.user_id else ALICE
    while True:
        assert t.hand is not None and t.hand_no == 1
        seat = t.hand.to_act[0]
        actor = by_user[t.seats[seat].user_id]
        for card in t.hand.current_cards(seat):
            await press_scripted(service, presenter, t, actor, card)
        if actor is loser and t.hand.board_of(seat, with_pending=True).is_complete:
            return t, loser, seat
        version = hand_version(presenter.last_private(actor.user_id))
        reply = await service.press(actor, f"{t.id}:{version}:c")
        assert not reply.alert, reply.text  # (the winner's last street too: no foul)


@pytest.mark.foul_confirm_pause  # (the bot's minimum: its presses are a second apart)
async def test_r2_3_a_fouled_confirm_asks_then_the_second_press_confirms(
    env: tuple[TableService, FakePresenter, Clock],
) -> None:
    service, presenter, clock = env
    t, loser, seat = await _to_the_losers_last_street(service, presenter)
    assert t.hand is not None
    hand = t.hand
    before = (hand.seat_version(seat), hand.street_of(seat), hand.to_act)
    version = hand_version(presenter.last_private(loser.user_id))
    reply = await service.press(loser, f"{t.id}:{version}:c")
    assert reply.alert and reply.text == tr(LANG[loser.user_id], "err.confirm_fouled")
    assert t.hand is hand and (hand.seat_version(seat), hand.street_of(seat), hand.to_act) == (
        before
    )
    assert t.hand_no == 1 and hand.result is None
    # the second press, 5 s later, confirms: the hand ends, the loser's board fouled
    clock.now += 5
    reply = await service.press(loser, f"{t.id}:{version}:c")
    assert not reply.alert, reply.text
    assert hand.result is not None and hand.result.seat(seat).fouled


@pytest.mark.foul_confirm_pause  # (the bot's minimum: its presses are a second apart)
async def test_r2_3_a_change_of_the_board_or_a_late_second_press_asks_again(
    env: tuple[TableService, FakePresenter, Clock],
) -> None:
    service, presenter, clock = env
    t, loser, seat = await _to_the_losers_last_street(service, presenter)
    assert t.hand is not None
    hand = t.hand
    notice = tr(LANG[loser.user_id], "err.confirm_fouled")
    version = hand_version(presenter.last_private(loser.user_id))
    assert (await service.press(loser, f"{t.id}:{version}:c")).text == notice
    # Undo and the same card back: the same cards, but the board changed since it asked
    card = hand.pending(seat)[-1][0]
    assert not (await service.press(loser, f"{t.id}:{version}:u")).alert
    await press_scripted(service, presenter, t, loser, card)
    version = hand_version(presenter.last_private(loser.user_id))
    assert (await service.press(loser, f"{t.id}:{version}:c")).text == notice
    assert hand.result is None
    # a second press too late asks again; one in time after it confirms
    clock.now += LEAVE_CONFIRM_SECONDS + 1
    assert (await service.press(loser, f"{t.id}:{version}:c")).text == notice
    assert hand.result is None
    clock.now += 1
    reply = await service.press(loser, f"{t.id}:{version}:c")
    assert not reply.alert, reply.text
    assert hand.result is not None and hand.result.seat(seat).fouled


@pytest.mark.foul_confirm_pause  # (the bot's minimum: its presses are a second apart)
async def test_r8_5_the_clock_is_not_held_by_a_fouled_confirm_asked(
    env: tuple[TableService, FakePresenter, Clock],
) -> None:
    """Asked once, the player's clock runs out: the next press is too late and the timeout
    makes the move (R8.5), the board as placed: fouled, timed out."""
    service, presenter, clock = env
    t, loser, seat = await _to_the_losers_last_street(service, presenter)
    assert t.hand is not None
    hand = t.hand
    version = hand_version(presenter.last_private(loser.user_id))
    assert (await service.press(loser, f"{t.id}:{version}:c")).alert
    deadline = t.turn_deadline(t.owner(seat))
    assert deadline is not None
    clock.now = deadline + 1
    reply = await service.press(loser, f"{t.id}:{version}:c")
    assert reply.alert and reply.text == tr(LANG[loser.user_id], "err.timed_out")
    assert hand.result is not None
    assert hand.result.seat(seat).fouled and hand.result.seat(seat).timed_out


async def test_r7_4_a_fouled_chinese_poker_arrangement_asks_first() -> None:
    """Chinese Poker (R4.5): the arrangement of 13 is its one street; "Ready" on a fouled
    arrangement asks, the second press confirms."""
    service, presenter, _store, _clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="0")
    await start(service, [C_ALICE, C_BOB], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    cards = list(hand.current_cards(0))
    rng = random.Random(1)
    while True:  # an arrangement of Alice's 13 that fouls, by the core's own check
        rng.shuffle(cards)
        board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
        if assess_board(board, t.options).fouled:
            break
    for box, row in ((Box.TOP, board.top), (Box.MIDDLE, board.middle), (Box.BOTTOM, board.bottom)):
        for card in row:
            version = hand_version(presenter.last_private(C_ALICE.user_id))
            reply = await service.press(C_ALICE, encode(PlaceCard(t.id, version, card, box)))
            assert not reply.alert, reply.text
    version = hand_version(presenter.last_private(C_ALICE.user_id))
    reply = await service.press(C_ALICE, f"{t.id}:{version}:c")
    assert reply.alert and reply.text == tr("en", "err.confirm_fouled")
    assert 0 in hand.to_act and hand.board_of(0).count == 0  # nothing confirmed
    reply = await service.press(C_ALICE, f"{t.id}:{version}:c")
    assert not reply.alert, reply.text
    assert 0 not in hand.to_act and hand.board_of(0) == board


async def test_r2_3_through_telegram_the_fouled_confirm_alerts_then_confirms(
    tmp_path: Path,
) -> None:
    """End to end through python-telegram-bot and the fake Bot API: Bob (Russian) on his
    last street of the scripted foul presses «Подтвердить»: an alert asks, the hand goes on;
    the second press ends the hand with his board fouled."""
    deck = decks(stacked(ALICE_STREETS, BOB_STREETS))
    async with world(tmp_path, deck_source=deck) as w:
        w.fake.started_users.update({ALICE_TG.id, BOB_TG.id})
        await seat_everyone(w, [ALICE_TG, BOB_TG])
        t = next(iter(w.service.tables.values()))
        plans = {ALICE_TG.id: ALICE_PLAN, BOB_TG.id: BOB_FOUL_PLAN}
        for _ in range(9):  # every street but Bob's last
            assert t.hand is not None
            user = ALICE_TG if t.hand.to_act == (0,) else BOB_TG
            await w.play_street(user, plans[user.id])
        hand = t.hand
        assert hand is not None and hand.to_act == (1,)
        for card in hand.to_place(1):
            box = BOB_FOUL_PLAN[card.text]
            if box is not None:
                data = w.hand_buttons(BOB_TG)[("p", card.text + box[0])]
                assert not (await w.press(BOB_TG, BOB_TG.id, w.private(BOB_TG) or {}, data)).get(
                    "show_alert"
                )
        confirm = w.hand_buttons(BOB_TG)[("c", "")]
        answer = await w.press(BOB_TG, BOB_TG.id, w.private(BOB_TG) or {}, confirm)
        assert answer.get("show_alert") and answer.get("text") == tr("ru", "err.confirm_fouled")
        assert hand.result is None and hand.to_act == (1,)
        answer = await w.press(BOB_TG, BOB_TG.id, w.private(BOB_TG) or {}, confirm)
        assert not answer.get("show_alert"), answer
        assert hand.result is not None and hand.result.seat(1).fouled


#: Alice's two boards of double boxes (R4.2), each fouled when placed in the order dealt:
#: street 1 to the bottom, streets 2–6 to the middle, 7–9 to the top (aces over 8- and
#: J-high boxes, R2.2).
DOUBLE_FOULS = (
    ("2c 3d 4h 6s 8c", "9c Td Jh 5s 7d As Ah Kd"),
    ("2d 3h 4s 6c 8d", "9d Tc Js 5h 7c Ac Ad Kh"),
)


def _double_deck(order: tuple[int, ...]) -> list[Card]:
    """The deck of a double boxes hand played in ``order`` (R4.1: five cards each, then one
    each for eight streets): Alice's boards 0 and 1 get :data:`DOUBLE_FOULS`, Bob's the rest."""
    alice = {
        b: [*parse_cards(first), *parse_cards(rest)]
        for b, (first, rest) in zip((0, 1), DOUBLE_FOULS, strict=True)
    }
    taken = {c for cards in alice.values() for c in cards}
    spare = iter(c for c in DECK_CARDS if c not in taken)
    deck: list[Card] = []
    for street in range(9):
        for b in order:
            n = 5 if street == 0 else 1
            start = 0 if street == 0 else 4 + street
            deck += alice[b][start : start + n] if b in alice else [next(spare) for _ in range(n)]
    return deck + list(spare)


def _box_of(street: int) -> Box:
    return Box.BOTTOM if street == 1 else Box.MIDDLE if street <= 6 else Box.TOP


async def test_r2_3_r4_2_each_board_of_double_boxes_keeps_its_own_fouled_confirm_question() -> None:
    """Double boxes with every board placing at once (R4.2, R3.6): on the last street both of
    Alice's boards are fouled. Confirm on board ① asks, Confirm on board ② asks; Confirm on
    ① again confirms it (it asked ① anew: the question was remembered for one board at a
    time), and so does Confirm on ② again. The hand ends with both boards fouled."""
    order = (0, 1, 10, 11)
    service, presenter, _store, clock = service_env()
    service.rt.deck_source = lambda: _double_deck(order)
    await configure(service, game="ofc", heads_up_double_boxes="on", simultaneous_streets="on")
    await start(service, [C_ALICE, C_BOB], "ofc")
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    assert hand.order == order and set(hand.to_act) == set(order)
    notice = tr("en", "err.confirm_fouled")

    def version(board: int) -> str:
        return f"{t.hand_no}.{board}.{hand.seat_version(board)}"

    for street in range(1, 10):
        assert hand.street_of(0) == street and {0, 1} <= set(hand.to_act)
        for board in (0, 1):
            for card in hand.current_cards(board):
                data = encode(PlaceCard(t.id, version(board), card, _box_of(street)))
                reply = await service.press(C_ALICE, data)
                assert not reply.alert, reply.text
        if street < 9:
            for board in (0, 1):
                reply = await service.press(C_ALICE, f"{t.id}:{version(board)}:c")
                assert not reply.alert, reply.text
        for _ in (10, 11):
            await auto_street(service, presenter, C_BOB)
    assert set(hand.to_act) == {0, 1}
    assert all(hand.board_of(b, with_pending=True).is_complete for b in (0, 1))
    first = {b: f"{t.id}:{version(b)}:c" for b in (0, 1)}
    assert (await service.press(C_ALICE, first[0])).text == notice
    clock.now += 2
    assert (await service.press(C_ALICE, first[1])).text == notice
    clock.now += 2
    reply = await service.press(C_ALICE, first[0])  # ①'s question was forgotten: asked again
    assert not reply.alert, reply.text
    assert hand.to_act == (1,) and hand.street_of(0) == 10
    clock.now += 2
    reply = await service.press(C_ALICE, first[1])
    assert not reply.alert, reply.text
    assert hand.result is not None
    assert hand.result.seat(0).fouled and hand.result.seat(1).fouled


def test_r2_3_a_seat_keeps_its_boards_questions_through_a_snapshot() -> None:
    """The questions per board survive a restart (the seat's JSON), and a snapshot from before
    they were kept per board (one ``foul_board`` asked at ``foul_asked``) still loads."""
    seat = SeatState(0, 1, "1", "Alice", "en", foul_asked={"3.0.40": 5.0, "3.1.41": 7.0})
    assert SeatState.from_json(seat.to_json()).foul_asked == {"3.0.40": 5.0, "3.1.41": 7.0}
    old = {**SeatState(0, 1, "1", "Alice", "en").to_json(), "foul_asked": 9.0}
    assert SeatState.from_json({**old, "foul_board": "2.1.30"}).foul_asked == {"2.1.30": 9.0}
    assert SeatState.from_json({**old, "foul_asked": 0.0, "foul_board": ""}).foul_asked == {}
