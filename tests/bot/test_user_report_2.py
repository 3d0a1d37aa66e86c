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
from tests.bot.test_service import ALICE, BOB, press_auto_and_confirm, seated


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
