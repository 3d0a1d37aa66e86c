"""fix39g: 🪄 Arrange for me kept the cards placed this street even when they made the board
fouled however it was finished (R2.3: "⚠ fouled" on the screen), and placed only the rest:
the hand stayed dead, and taking the cards back took one Undo a card. Cards placed this street
may be moved freely until Confirm (R3.4): when those kept force a foul and the confirmed cards
alone do not, Arrange places the street's cards afresh; a placement that fouls nothing is kept,
as before."""

from __future__ import annotations

import random

from bot.service import TableService, play
from bot.texts import tr
from game.actions import Place
from game.board import Box
from game.cards import parse_cards
from game.policy import Level, decide
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_classic_games_e2e import ALICE_13, BOB_13, chinese_deck
from tests.bot.test_service_classic import ALICE, BOB, GROUP, configure, start
from tests.game.helpers import deal, place_all

BOXES = {"top": Box.TOP, "middle": Box.MIDDLE, "bottom": Box.BOTTOM}


async def _chinese(placed: dict[str, str]) -> tuple[TableService, object, int]:
    """A Chinese Poker hand dealt Alice ``ALICE_13`` (AAA, KKK 88, a straight flush), her
    cards in ``placed`` put in their boxes this street, unconfirmed."""
    store, clock = MemoryStore(), Clock()
    deck = chinese_deck(ALICE_13, BOB_13)
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False,
        deck_source=lambda: list(deck),
    )  # fmt: skip
    service.register(FakePresenter())
    await configure(service, game="chinese")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    seat = t.seat_of(ALICE.user_id)
    assert seat is not None
    board = next(b for b in t.boards_of(seat))
    assert set(t.hand.to_place(board)) == set(parse_cards(ALICE_13))
    for cards, box in placed.items():
        for card in parse_cards(cards):
            t.hand.apply(Place(board, card, BOXES[box]))
    return service, t, board


async def _arrange(service: TableService, t: object, board: int) -> str:
    seat = t.seat_of(ALICE.user_id)  # type: ignore[attr-defined]
    screen = service.rt.render_private(t, seat)  # type: ignore[arg-type]
    data = next(
        b.data for b in screen.all_buttons() if b.data and b.label == tr("en", "btn.arrange")
    )
    reply = await service.press(ALICE, data)
    assert not reply.alert, reply.text
    return reply.screen.text if reply.screen is not None else ""


async def test_r3_4_arrange_places_afresh_a_street_whose_placed_cards_foul() -> None:
    """All 13 placed, AAA on top of a middle of no pair: fouled however it ends ("⚠ fouled",
    and Arrange said every card was in a box). Arrange places them afresh: not fouled."""
    service, t, board = await _chinese(
        {"As Ah Ad": "top", "2c 3c 4c 5c 8h": "middle", "Kd Kc Ks 8c 6c": "bottom"}
    )
    hand = t.hand  # type: ignore[attr-defined]
    assert hand.board_of(board, with_pending=True).foul_certain
    text = await _arrange(service, t, board)
    after = hand.board_of(board, with_pending=True)
    assert after.is_complete and not after.foul_certain, after
    assert tr("en", "private.fouled") not in text, text
    assert hand.to_place(board) == ()


async def test_r3_4_arrange_takes_back_a_part_placed_that_fouls_and_places_all() -> None:
    """Eight placed (AAA on top, a middle of no pair: fouled already), five still to place:
    Arrange placed the five around them, the hand dead. It places the thirteen afresh."""
    service, t, board = await _chinese({"As Ah Ad": "top", "2c 3c 4c 5c 8h": "middle"})
    hand = t.hand  # type: ignore[attr-defined]
    assert hand.board_of(board, with_pending=True).foul_certain and len(hand.to_place(board)) == 5
    await _arrange(service, t, board)
    after = hand.board_of(board, with_pending=True)
    assert after.is_complete and not after.foul_certain, after


async def test_r3_4_arrange_keeps_cards_placed_that_foul_nothing() -> None:
    """Cards placed that leave a live board (a king and the aces' three on top, the straight
    flush in the bottom) stay where the player put them; Arrange places the rest."""
    placed = {"Kd": "top", "2c 3c 4c 5c 6c": "bottom"}
    service, t, board = await _chinese(placed)
    hand = t.hand  # type: ignore[attr-defined]
    assert not hand.board_of(board, with_pending=True).foul_certain
    await _arrange(service, t, board)
    after = hand.board_of(board, with_pending=True)
    assert after.is_complete
    assert set(parse_cards("Kd")) <= set(after.top)
    assert set(after.bottom) == set(parse_cards("2c 3c 4c 5c 6c"))


def test_r3_4_afresh_is_the_street_only_never_the_confirmed_cards() -> None:
    """Pineapple, street 3: Ah Ad confirmed on top and 2s 3s 4s 8d in the bottom; Ac put on
    top and 7h in the bottom this street make AAA over a bottom of no pair (R2.3). Arrange's
    fresh start is the confirmed board with the street's three cards (one to discard, R3.2):
    the aces confirmed stay; the strategy's placement of them fouls nothing."""
    hand = deal("Ah Ad 2s 3s 4s 2h 3h 4h 5h 6h 2c 3c 4c 5c 6c 8d 9d Td 7c 8c 9c 7s 8s 9s Ac 7h Jc")
    place_all(hand, 0, "t t b b b")
    place_all(hand, 1, "b b b b b")
    place_all(hand, 2, "b b b b b")
    place_all(hand, 0, "b m x")
    place_all(hand, 1, "m m x")
    place_all(hand, 2, "m m x")
    assert hand.to_act == (0,) and hand.current_cards(0) == parse_cards("Ac 7h Jc")
    assert play._afresh(hand, 0) is None  # (nothing placed yet)
    hand.place(0, parse_cards("Ac")[0], Box.TOP)
    assert play._afresh(hand, 0) is None  # (AAA over a bottom not full: no foul yet)
    hand.place(0, parse_cards("7h")[0], Box.BOTTOM)
    assert hand.board_of(0, with_pending=True).foul_certain
    fresh = play._afresh(hand, 0)
    assert fresh is not None
    assert fresh.board == hand.board_of(0) and fresh.board.top == parse_cards("Ah Ad")
    assert fresh.cards == parse_cards("Ac 7h Jc") and fresh.discards_needed == 1
    moves = decide(fresh, Level.NORMAL)
    assert sorted(box is None for _c, box in moves) == [False, False, True]
    assert not play._fouls(hand.board_of(0), moves)
