"""brk78: break-it probes of computer players (issue 13) at the service: a table left to
computer players closes itself (R8.2a), /addbot by someone who may not and during a hand, a
computer player playing classic OFC and Chinese Poker (R7) with a person, and its Fantasyland
hands of 14–17 cards (R6.2). None found a bug."""

from __future__ import annotations

import pytest

from bot.service import bots
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service, play_hand_with_bots
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm


async def test_r8_2a_a_table_left_to_computer_players_closes_itself_when_idle() -> None:
    """R8.2a: Alice plays a hand beside two computer players and leaves; the computer
    players never deal to each other, and the idle close shuts the table after
    ``idle_close_seconds`` without a hand: nobody seated, the house's stacks cashed out by
    balanced ledger entries (check_store), no timer left to run for it."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.add_bot(GROUP, ALICE, True, "strong")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await play_hand_with_bots(service, presenter, clock)
    await service.leave(GROUP, ALICE)
    assert all(s.bot for s in t.seats.values()) and len(t.seats) == 2
    idle = t.options.idle_close_seconds
    for _ in range(4):
        clock.now += idle / 2 + 1
        await service.run_due()
    assert t.hand_no == 1  # never dealt to the computer players alone
    assert service.table_in(GROUP) is None
    assert t.seats == {}
    assert await check_store(store) == []


async def test_addbot_by_a_member_who_is_not_the_opener_nor_an_admin_is_refused() -> None:
    """Only admins and the table's opener seat computer players: Bob, seated but neither,
    is refused naming the opener (in his Russian), and nobody is seated."""
    store, clock = MemoryStore(), Clock()
    service, _ = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.join(GROUP, BOB)
    reply = await service.add_bot(GROUP, BOB, False, "strong")
    assert reply.alert
    assert reply.text == bots.who_may(t0 := service.table_in(GROUP), "ru", GROUP.platform)
    assert t0 is not None and "Alice" in reply.text
    t = service.table_in(GROUP)
    assert t is not None and not any(s.bot for s in t.seats.values())
    reply = await service.remove_bot(GROUP, BOB, False)
    assert reply.alert and "Alice" in reply.text


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
async def test_a_computer_player_plays_classic_ofc_hands_at_every_level(level: str) -> None:
    """R1–R5 in classic OFC with a computer player: two hands play out (its streets of one
    card each placed by its policy), the ledger balanced."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    reply = await service.settings(GROUP, ALICE, True, ["game", "ofc"])
    assert not reply.alert, reply.text
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, level)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.options.game.value == "ofc"
    moves = await play_hand_with_bots(service, presenter, clock)
    assert moves >= 5  # classic OFC: five deals (R3.1), one move each
    assert t.hand_no == 1
    assert await check_store(store) == []


async def test_addbot_during_a_hand_seats_it_for_the_next_and_removebot_frees_it_at_once() -> None:
    """R8.2 with a computer player seated during a hand: it is not dealt into the hand under
    way (its buy-in paid for the next); /removebot before that hand stands it up at once, its
    stack back to the house, the hand under way untouched; a second one seated then is dealt
    into the next hand. The ledger stays balanced."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    order = tuple(t.hand.order)
    reply = await service.add_bot(GROUP, ALICE, True, "strong")
    assert not reply.alert, reply.text
    late = max(t.seats.values(), key=lambda s: s.seat)
    assert late.bot == "strong" and late.seat not in t.hand.order and t.hand.order == order
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert not reply.alert, reply.text
    assert reply.text == tr("en", "bot.removed", name=late.name)
    assert late.seat not in t.seats
    reply = await service.add_bot(GROUP, ALICE, True, "normal")
    assert not reply.alert, reply.text
    await play_hand_with_bots(service, presenter, clock)
    clock.now += 10
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 3
    assert await check_store(store) == []


async def test_r7_6_r8_2a_a_chinese_game_left_to_computer_players_is_settled_and_closes() -> None:
    """R7.6 and R8.2a: Alice plays a Chinese Poker hand with two computer players and leaves
    between hands: the game is settled on the current points as she stands up (the two
    computer players never play on in it alone), no hand is dealt to them, and the idle
    close shuts the table; the ledger stays balanced."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.settings(GROUP, ALICE, True, ["game", "chinese"])
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.add_bot(GROUP, ALICE, True, "strong")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await press_auto_and_confirm(service, presenter, ALICE)
    for _ in range(60):  # the computer players arrange, the reveal plays out: between hands
        if t.hand_no == 1 and t.hand is None and t.reveal is None:
            break
        clock.now = t.bot_due if t.bot_due is not None else clock.now + 4
        await service.run_due()
    assert t.hand is None and t.chinese is not None and not t.chinese.over
    await service.leave(GROUP, ALICE)
    assert all(s.bot for s in t.seats.values()) and len(t.seats) == 2
    assert t.chinese is None  # settled as she left (R7.6)
    settled = t.hand_no  # (the settlement is numbered as a hand of its own)
    for _ in range(4):
        clock.now += t.options.idle_close_seconds / 2 + 1
        await service.run_due()
    assert t.hand_no == settled == 2 and service.table_in(GROUP) is None and t.seats == {}
    assert await check_store(store) == []


@pytest.mark.parametrize(("game", "cards"), [("pineapple", 15), ("pineapple", 17), ("ofc", 13)])
async def test_r6_2_a_computer_player_sets_a_larger_fantasyland_hand_as_the_solver(
    game: str, cards: int
) -> None:
    """R6.2 beyond 14 cards (progressive Fantasyland's 15–17) and in classic OFC: a strong
    computer player dealt Fantasyland sets its whole hand in one move at its pace, the exact
    solver's board (never a foul the cards avoid), discarding the rest; the hand ends and
    the ledger stays balanced."""
    import dataclasses

    from game.board import Box, assess_board
    from game.fantasyland import solve_fantasyland

    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    # classic OFC deals 13 (R6.2); 15–17 only under progressive_fantasyland (Pineapple)
    setting = ["game", game] if game != "pineapple" else ["progressive_fantasyland", "on"]
    reply = await service.settings(GROUP, ALICE, True, setting)
    assert not reply.alert, reply.text
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "strong")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    bot = next(s for s in t.seats.values() if s.bot)
    assert t.match is not None and t.next_hand_at is not None
    t.match = dataclasses.replace(t.match, fantasyland={bot.seat: cards}, match_over=False)
    clock.now = t.next_hand_at
    await service.run_due()
    hand = t.hand
    assert hand is not None and hand.is_fantasyland(bot.seat) and t.hand_no == 2
    dealt = hand.current_cards(bot.seat)
    assert len(dealt) == cards and t.options.progressive_fantasyland == (cards > 14)
    assert t.bot_due is not None
    clock.now = t.bot_due
    await service.run_due()
    board = hand.board_of(bot.seat)
    assert board.is_complete and bot.seat not in hand.to_act
    solved = solve_fantasyland(dealt, t.options)
    assert [set(board.box(b)) for b in Box] == [set(solved.board.box(b)) for b in Box]
    assert not solved.fouled
    assert not assess_board(board, t.options, in_fantasyland=True).fouled
    while t.hand is hand:
        await press_auto_and_confirm(service, presenter, ALICE)
    assert await check_store(store) == []
