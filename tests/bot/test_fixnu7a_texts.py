"""A new user's reports (fixnu7a): texts. A Pineapple Confirm refusal on streets 2-5 said
"Place every card first." though one card is discarded."""

from __future__ import annotations

from bot.presses import ConfirmMove, PlaceCard
from bot.texts import language_of, tr
from game.board import Box
from tests.bot.test_service import ALICE, BOB, press_auto_and_confirm, seated
from tests.bot.test_user_report_2 import _press


async def test_r3_2_confirm_with_cards_left_on_street_two_says_two_placed_one_discarded(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """R3.2: Confirm on street 2 with one card placed and two left said "Place every card
    first.", though one of the three is discarded. It says two are placed and one
    discarded; street 1 keeps "Place every card first."."""
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    hand = t.hand
    actors = {s.seat: a for a in (ALICE, BOB) for s in t.seats.values() if s.user_id == a.user_id}
    seat = hand.to_act[0]
    actor = actors[seat]
    lang = language_of(actor.language)
    card = hand.current_cards(seat)[0]
    await _press(service, presenter, actor, PlaceCard, card=card, box=Box.BOTTOM)
    reply = await _press(service, presenter, actor, ConfirmMove)
    assert reply == tr(lang, "err.incomplete_street")  # street 1: every card is placed
    assert tr("en", "err.incomplete_street") == "Place every card first."
    while hand.street_of(hand.to_act[0]) == 1:
        await press_auto_and_confirm(service, presenter, actors[hand.to_act[0]])
    seat = hand.to_act[0]
    actor = actors[seat]
    lang = language_of(actor.language)
    card = hand.current_cards(seat)[0]
    box = next(b for b in Box if b.size > len(hand.board_of(seat).box(b)))
    await _press(service, presenter, actor, PlaceCard, card=card, box=box)
    reply = await _press(service, presenter, actor, ConfirmMove)
    assert reply == tr(lang, "err.place_and_discard")
    assert tr("en", "err.place_and_discard") == "Place two cards and discard one first."
    assert tr("ru", "err.place_and_discard") == "Сначала положите две карты и сбросьте одну."
    assert hand.street_of(seat) == 2 and len(hand.pending(seat)) == 1  # nothing changed
