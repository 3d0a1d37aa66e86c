"""Whole hands played by the built-in strategy: the ``simulate`` command and computer players.

:func:`play_turn` makes one seat's move on its current street through the ordinary actions
(:class:`~game.actions.Place`, :class:`~game.actions.Discard`, :class:`~game.actions.Confirm`),
so a simulated hand exercises the same state machine as a human one. :func:`simulate` plays
matches with Fantasyland (R6) and the moving button (R6.6) and yields one record per hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from game.actions import Arrange, Confirm, Discard, Place
from game.autoplay import auto_street
from game.board import BOXES
from game.cards import cards_str, shuffled_deck
from game.hand import Hand, HandSetup
from game.match import MatchState
from game.options import RuleOptions

__all__ = ["play_turn", "simulate"]


#: Rollouts per candidate of the ``lookahead`` policy.
LOOKAHEAD = 12


def play_turn(hand: Hand, seat: int, *, policy: str = "strategy", batch: bool = False) -> None:
    """Finish ``seat``'s current street with ``policy`` and confirm it: ``"strategy"`` (the
    fast heuristic), ``"lookahead"`` (the heuristic checked by play-outs) or ``"auto"`` (R8.5's
    auto-placement).

    :raises GameError: if the seat may not act now.
    """
    if policy == "auto":
        board = hand.board_of(seat, with_pending=True)
        free = {b: board.free(b) for b in BOXES}
        moves = auto_street(hand.to_place(seat), free, hand.discards_needed(seat))
    else:
        moves = hand.suggest(seat, lookahead=LOOKAHEAD if policy == "lookahead" else 0)
    if batch:
        hand.apply(Arrange(seat, tuple(moves)))
        return
    for card, box in moves:
        hand.apply(Place(seat, card, box) if box is not None else Discard(seat, card))
    hand.apply(Confirm(seat))


def simulate(
    options: RuleOptions,
    players: int,
    hands: int,
    seed: int | str | None = None,
    *,
    policy: str = "strategy",
) -> Iterator[dict[str, Any]]:
    """Play ``hands`` hands for ``players`` seats and yield one JSON-ready record per hand:
    ``hand``, ``button`` and per seat ``seat``, ``fantasyland_cards``, ``top``, ``middle``,
    ``bottom``, ``discards``, ``fouled``, ``royalties``, ``points``.

    The same seed gives the same records.
    """
    rng = random.Random(seed)
    seats = tuple(range(players))
    state = MatchState.new(options)
    for n in range(1, hands + 1):
        plan = state.next_hand(seats)
        setup = HandSetup.deal(
            options, plan.seats, plan.button, plan.fantasyland, deck=shuffled_deck(rng=rng)
        )
        hand = Hand(setup)
        while not hand.is_over:
            play_turn(hand, hand.to_act[0], policy=policy, batch=True)
        result = hand.result
        assert result is not None
        state = state.after_hand(result, plan)
        discards = {s: hand.discards_of(s) for s in plan.seats}
        yield {
            "hand": n,
            "button": plan.button,
            "seats": [
                {
                    "seat": r.seat,
                    "fantasyland_cards": setup.fantasyland.get(r.seat, 0),
                    **r.board.to_json(),
                    "discards": cards_str(discards[r.seat]),
                    "fouled": r.fouled,
                    "royalties": r.royalty_total,
                    "points": r.points,
                }
                for r in sorted(result.seats, key=lambda r: r.seat)
            ],
        }
