"""Defects a new user met in a second trial of the sandbox (issue "nufixb"), each with the
behaviour it needs."""

from __future__ import annotations

from typing import Any

from bot.model import Actor
from bot.presses import ConfirmMove, DiscardCard, PlaceCard, decode
from bot.service import TableService
from bot.texts import tr
from game.board import Box
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated


async def _press(
    service: TableService, presenter: FakePresenter, actor: Actor, want: type, **match: Any
) -> str:
    """Press the newest private screen's first button of press type ``want`` whose fields
    equal ``match``; returns the reply's text (an alert's too)."""
    screen = presenter.last_private(actor.user_id)
    for b in screen.all_buttons():
        p = decode(b.data)
        if isinstance(p, want) and all(getattr(p, k) == v for k, v in match.items()):
            return (await service.press(actor, b.data or "")).text
    raise AssertionError(f"no {want.__name__} {match} on {screen.text!r}")


async def test_r3_2_confirm_without_the_discard_says_one_card_is_discarded(env: Any) -> None:
    """R3.2: on street 2 a new user put all three cards in boxes and pressed Confirm: "Place
    every card first.", though every card was placed. The answer says that one card must be
    discarded, in the player's language (two placed and the third left, Confirm discards the
    third itself)."""
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    hand = t.hand
    actors = {s.seat: a for a in (ALICE, BOB) for s in t.seats.values() if s.user_id == a.user_id}
    while hand.street_of(hand.to_act[0]) == 1:
        await press_auto_and_confirm(service, presenter, actors[hand.to_act[0]])
    seat = hand.to_act[0]
    actor = actors[seat]
    cards = list(hand.current_cards(seat))
    assert len(cards) == 3
    free = {box: box.size - len(hand.board_of(seat).box(box)) for box in Box}
    for card in cards:
        box = next(b for b in (Box.BOTTOM, Box.MIDDLE, Box.TOP) if free[b])
        free[box] -= 1
        await _press(service, presenter, actor, PlaceCard, card=card, box=box)
    lang = "en" if actor is ALICE else "ru"
    missing = tr(lang, "err.discard_missing")
    assert await _press(service, presenter, actor, ConfirmMove) == missing
    assert hand.street_of(seat) == 2 and len(hand.pending(seat)) == 3  # nothing changed
    assert await _press(service, presenter, actor, DiscardCard, card=cards[2]) != missing
    assert await _press(service, presenter, actor, ConfirmMove) != missing
    assert hand.street_of(seat) == 3 and hand.discards_of(seat) == (cards[2],)


async def test_r8_2_too_little_balance_for_the_buy_in_says_what_to_do(env: Any) -> None:
    """R8.2: a new user pressed Join with 1,000 kush at a table whose buy-in is 5,000: "Not
    enough kush: the buy-in is 5000, you have 1000." and nothing on what to do about it. The
    refusal names the ways to a buy-in: the daily bonus (when the group has one), an admin's
    /grant, or a lower buy-in; on Ready too (the balance spent meanwhile)."""
    service, _presenter, _store, _clock = env
    assert not (await service.settings(GROUP, ALICE, True, ["min_buy_in", "5000"])).alert
    await service.new_table(GROUP, ALICE)
    reply = await service.join(GROUP, ALICE)
    assert reply.alert
    assert reply.text == (
        "Not enough kush: the buy-in is 5,000, you have 1,000.\n"
        "Take the /daily bonus, or ask an admin for /grant or a lower buy-in "
        "(/settings min_buy_in)."
    )
    reply = await service.join(GROUP, BOB)  # Bob reads Russian
    assert reply.text == (
        "Недостаточно средств на балансе: взнос 5000 кушей, у вас 1000.\n"
        "Возьмите бонус /daily или попросите админа о /grant либо о меньшем взносе "
        "(/settings взнос)."
    )
    assert not (await service.settings(GROUP, ALICE, True, ["daily_bonus", "0"])).alert
    reply = await service.join(GROUP, ALICE)  # no daily bonus in this group: not offered
    assert reply.text == (
        "Not enough kush: the buy-in is 5,000, you have 1,000.\n"
        "Ask an admin for /grant or a lower buy-in (/settings min_buy_in)."
    )
    # seated with enough, the balance spent before Ready: the same advice
    assert not (await service.settings(GROUP, ALICE, True, ["min_buy_in", "500"])).alert
    await service.close_table(GROUP, ALICE, True)
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.grant(GROUP, ALICE, True, "@Alice", "-800", "k1")).alert
    reply = await service.ready(GROUP, ALICE)
    assert reply.alert and reply.text == (
        "Not enough kush: the buy-in is 500, you have 200.\n"
        "Ask an admin for /grant or a lower buy-in (/settings min_buy_in)."
    )
    assert len(reply.text) <= 200  # a Telegram press's answer (MAX_ANSWER)


async def test_r8_7_a_tournament_buy_in_out_of_reach_says_what_to_do(env: Any) -> None:
    """R8.7: registering for a tournament without its buy-in gets the same advice, less the
    lower buy-in (a tournament's is fixed once it is open)."""
    service, _presenter, _store, _clock = env
    assert not (await service.settings(GROUP, ALICE, True, ["tournament_buy_in", "2000"])).alert
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    reply = await service.join(GROUP, ALICE)
    assert reply.alert and reply.text == (
        "Not enough kush: the buy-in is 2,000, you have 1,000.\n"
        "Take the /daily bonus, or ask an admin for /grant."
    )
    reply = await service.join(GROUP, BOB)
    assert reply.text == (
        "Недостаточно средств на балансе: взнос 2000 кушей, у вас 1000.\n"
        "Возьмите бонус /daily или попросите админа о /grant."
    )


async def test_r6_6_a_setting_changed_during_a_hand_says_plainly_when_it_applies(
    env: Any,
) -> None:
    """R6.6: /settings during a hand answered "The table takes it when the hand being played is
    over (and the Fantasyland hands it earns).", hard to parse. It says "from the next hand",
    after the Fantasyland hands this one may earn, in both languages."""
    service, _presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "2"])
    assert reply.text.splitlines()[1] == (
        "It applies from the next hand (after any Fantasyland hands this one earns)."
    )
    reply = await service.settings(GROUP, BOB, True, ["kush_per_point", "3"])
    assert reply.text.splitlines()[1] == (
        "Действует со следующей раздачи (после раздач Фантазии, если эта их принесёт)."
    )


def test_r7_3_the_two_of_three_line_says_what_the_point_is_for() -> None:
    """R7.3: a Chinese Poker reveal's "Two boxes of three won: +1" was opaque: the point is a
    bonus for winning two of the three boxes against an opponent, one per opponent."""
    assert tr("en", "reveal.two_of_three", points="+1") == ("2+ of 3 boxes (+1 per opponent): +1")
    assert tr("ru", "reveal.two_of_three", points="+2") == (
        "2+ бокса из 3 (+1 с каждым соперником): +2"
    )
