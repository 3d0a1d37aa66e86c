"""The group write budget (Telegram allows a group about 20 writes a minute): a buy-in
lowered during a hand gives the difference back to the players who paid the higher one for
the next hand (R8.2, :func:`bot.service.dealing.apply_pending`); the group is told in ONE
message, a line per player, where it got one per player. Each player's refund and buy-in are
still balanced ledger rows of the step's one transaction.

(A tournament hand that knocks out several players, R8.7, already says so in one write:
``tour.knocked_out`` lines are part of the showdown's table message, no post of their own.)"""

from __future__ import annotations

import pytest

from bot.model import Actor
from bot.service.dealing import apply_pending
from bot.service.runtime import Tx
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_brk74_money import DAVE
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm, seated
from tests.bot.test_tournament_service import configure, new_service
from tests.bot.test_transitions import player_balance

BY_ID = {a.user_id: a for a in (ALICE, BOB, CAROL, DAVE)}
CAROLS_LINE = {
    "en": "Carol: the buy-in is now 40 kush; 160 kush of the 200 paid went back to the balance.",
    "ru": "Carol: взнос теперь 40 кушей; из внесённых 200 на баланс возвращено 160 кушей.",
}


@pytest.mark.parametrize("opener", [ALICE, BOB], ids=["en", "ru"])
async def test_r8_2_a_lowered_buy_in_given_back_to_two_newcomers_is_one_group_message(
    opener: Actor,
) -> None:
    """Classic OFC (up to 4 players, R4.1) at 50 a point and a buy-in of 200: Alice and Bob
    are dealt; during the hand an admin saves 10 a point and a buy-in of 40 (below the point
    in force, which the hand keeps if it earns a Fantasyland, R6.6: the buy-in waits), and
    Carol and Dave sit down paying 200 each. The hand earns none; as it ends each gets 160
    back: one group message, a line each (it was two), in the group's language (the opener's:
    Alice en, Bob ru); the ledger balances."""
    service, presenter, store, _clock = new_service(next_hand_delay=4)
    other = BOB if opener is ALICE else ALICE
    assert not (await service.new_table(GROUP, opener, "classic")).alert
    await configure(service, kush_per_point="50")
    for a in (opener, other):
        assert not (await service.join(GROUP, a)).alert
    for a in (opener, other):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.lang == opener.language
    await configure(service, kush_per_point="10", min_buy_in="40")
    for newcomer in (CAROL, DAVE):
        assert not (await service.join(GROUP, newcomer)).alert
        assert not (await service.ready(GROUP, newcomer)).alert
    for newcomer in (CAROL, DAVE):
        seat = t.seat_of(newcomer.user_id)
        assert seat is not None and seat.stack == 200 and seat.unplayed_buy_in == 200
    posted = len(presenter.posts)
    while t.hand is not None and t.hand_no == 1:
        await press_auto_and_confirm(service, presenter, BY_ID[t.seats[t.hand.to_act[0]].user_id])
    assert t.min_buy_in == 40
    lines = [
        tr(t.lang, "lobby.buy_in_returned", name=name, buy_in=40, paid=200, amount=160,
           label=t.label)
        for name in ("Carol", "Dave")
    ]  # fmt: skip
    assert lines[0] == CAROLS_LINE[t.lang]
    told = [text for _chat, text in presenter.posts[posted:] if lines[0] in text]
    assert told == ["\n".join(lines)]  # one write, where the group got two
    for newcomer in (CAROL, DAVE):
        seat = t.seat_of(newcomer.user_id)
        assert seat is not None and seat.stack == 40 and seat.unplayed_buy_in == 40
        assert await player_balance(store, newcomer) == 1000 - 40
    assert await check_store(store) == []


async def test_r8_2_three_players_given_back_a_lowered_buy_in_are_one_line_each() -> None:
    """Three seats that paid 200 for a hand not yet dealt to them (a table holds at most
    four players, two of them dealt: the service reaches two such seats, the rule's step any
    number): the buy-in of 40 applying gives each 160 back, one refund and one buy-in each,
    and posts one group message with the three lines (it was three); one player's reads as
    it did."""
    service, _presenter, _store, _clock = new_service(next_hand_delay=4)
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None and t.hand is not None
    t.hand = None  # (the step between hands alone)
    for seat in t.seats.values():
        seat.unplayed_buy_in = 200
        assert seat.stack == 200
    t.pending_buy_in = 40
    tx = Tx(t, t.to_json())
    outbox = len(t.outbox)
    apply_pending(t, tx, 0.0)
    posts = [i["text"] for i in t.outbox[outbox:] if i["kind"] == "post"]
    assert posts == [
        "Alice: the buy-in is now 40 kush; 160 kush of the 200 paid went back to the balance.\n"
        "Bob: the buy-in is now 40 kush; 160 kush of the 200 paid went back to the balance.\n"
        "Carol: the buy-in is now 40 kush; 160 kush of the 200 paid went back to the balance."
    ]
    assert [type(m).__name__ for m in tx.moves] == ["CashOut", "BuyIn"] * 3
    assert [s.stack for s in t.seats.values()] == [40, 40, 40]
    assert tx.group
    for seat in t.seats.values():
        seat.unplayed_buy_in = 0  # (as a dealt hand leaves it)
    seat = t.seats[1]
    seat.unplayed_buy_in, seat.stack = 100, 100  # Bob alone: the one line as it was
    t.pending_buy_in = 20
    outbox = len(t.outbox)
    apply_pending(t, Tx(t, t.to_json()), 0.0)
    posts = [i["text"] for i in t.outbox[outbox:] if i["kind"] == "post"]
    assert posts == [
        tr("en", "lobby.buy_in_returned", name="Bob", buy_in=20, paid=100, amount=80,
           label="kush")
    ]  # fmt: skip
