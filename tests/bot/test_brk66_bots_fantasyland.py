"""Break-it session brk66: ``/removebot`` of a computer player in Fantasyland (R6, issue 13)."""

from __future__ import annotations

import dataclasses

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_bots import alice_and_a_bot, play_hand_with_bots
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm


async def test_r6_a_removed_computer_player_s_fantasyland_is_not_dealt_to_its_seat_s_next() -> None:
    """R6: a computer player earned Fantasyland and is stood up by ``/removebot`` between hands:
    the Fantasyland goes with it. Bob, sitting down in the seat it freed, is dealt an ordinary
    hand of 5 cards, not its 14."""
    service, presenter, store, clock = await alice_and_a_bot("easy")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    assert t.match is not None and t.hand is None
    t.match = dataclasses.replace(t.match, fantasyland={anna.seat: 14}, match_over=False)
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert reply.text == tr("en", "bot.removed", name=anna.name), reply.text
    assert anna.seat not in t.seats
    assert not (await service.join(GROUP, BOB)).alert
    bob = t.seat_of(BOB.user_id)
    assert bob is not None
    await service.ready(GROUP, BOB)
    if t.hand is None and t.next_hand_at is not None:
        clock.now = t.next_hand_at
        await service.run_due()
    hand = t.hand
    assert hand is not None, presenter.posts[-3:]
    assert not hand.is_fantasyland(bob.seat)
    assert await check_store(store) == []


async def test_r6_removebot_during_its_fantasyland_hand_sets_its_board_then_stands_it_up() -> None:
    """R6, issue 13: ``/removebot`` while the computer player is dealt Fantasyland: it sets
    its 14 cards by its own level's policy (a complete board, not the timeout rule's), the hand
    is settled, and it stands up after it; its stack goes back to the house (ledger balanced)."""
    service, presenter, store, clock = await alice_and_a_bot("easy")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    assert t.match is not None and t.next_hand_at is not None
    t.match = dataclasses.replace(t.match, fantasyland={anna.seat: 14}, match_over=False)
    clock.now = t.next_hand_at
    await service.run_due()
    hand = t.hand
    assert hand is not None and hand.is_fantasyland(anna.seat)
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert reply.text == tr("en", "bot.removed_after_hand", name=anna.name), reply.text
    for _ in range(50):
        if t.hand is not hand:
            break
        if t.bot_due is not None and clock.now < t.bot_due:
            clock.now = t.bot_due
            await service.run_due()
        elif hand.to_act and not t.seats[t.owner(hand.to_act[0])].bot:
            await press_auto_and_confirm(service, presenter, ALICE)
        else:
            clock.now += 1
            await service.run_due()
    assert t.hand is not hand
    board = hand.board_of(anna.seat)
    assert board.is_complete
    assert anna.seat not in t.seats
    assert await check_store(store) == []


async def test_r6_removebot_in_fantasyland_then_a_restart_stands_it_up_after_the_hand() -> None:
    """R6, issue 13, restarts: ``/removebot`` while the computer player is dealt Fantasyland
    and before it has moved, then the bot restarts: the restored table still knows it leaves
    after the hand; it sets its board, the hand is settled once and it stands up, its stack
    back to the house (ledger balanced)."""
    from tests.bot.test_bots import new_service

    service, presenter, store, clock = await alice_and_a_bot("easy")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    assert t.match is not None and t.next_hand_at is not None
    t.match = dataclasses.replace(t.match, fantasyland={anna.seat: 14}, match_over=False)
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.hand.is_fantasyland(anna.seat) and t.hand_no == 2
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert reply.text == tr("en", "bot.removed_after_hand", name=anna.name), reply.text
    await service.stop()
    service, presenter = new_service(store, clock)
    await service.start()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand_no == 2
    assert t.seats[anna.seat].leaving
    hand = t.hand
    for _ in range(60):
        if t.hand is not hand:
            break
        if t.bot_due is not None and clock.now < t.bot_due:
            clock.now = t.bot_due
        elif hand.to_act and not t.seats[t.owner(hand.to_act[0])].bot:
            await press_auto_and_confirm(service, presenter, ALICE)
            continue
        else:
            clock.now += 1
        await service.run_due()
    assert t.hand is not hand
    assert hand.board_of(anna.seat).is_complete
    assert anna.seat not in t.seats
    assert [h["number"] for h in await store.export_hands(t.id)] == [1, 2]  # settled once
    assert await check_store(store) == []
