"""Whole hands played by the built-in strategy: the ``simulate`` and ``tournament`` commands and
computer players.

:func:`play_turn` makes one seat's move on its current street through the ordinary actions
(:class:`~game.actions.Place`, :class:`~game.actions.Discard`, :class:`~game.actions.Confirm`),
so a simulated hand exercises the same state machine as a human one. :func:`simulate` plays
matches with Fantasyland (R6) and the moving button (R6.6) and yields one record per hand;
:func:`simulate_tournament` plays a whole tournament (R8.7).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from game.actions import Arrange, Confirm, Discard, Place
from game.autoplay import auto_street
from game.board import BOXES
from game.cards import cards_str, shuffled_deck
from game.chinese import ChineseGame
from game.errors import GameError
from game.hand import Hand, HandResult, HandSetup
from game.match import HandPlan, MatchState
from game.options import GameKind, RuleOptions
from game.tournament import Tournament, TournamentConfig, TournamentPhase

__all__ = ["play_turn", "simulate", "simulate_tournament"]


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


def _played(
    options: RuleOptions, plan: HandPlan, rng: random.Random, policy: str
) -> tuple[Hand, HandResult]:
    """The hand ``plan`` dealt from a deck shuffled by ``rng`` and played to its showdown
    by every seat with ``policy`` (:func:`play_turn`), with its result (:func:`simulate`,
    :func:`simulate_tournament`)."""
    setup = HandSetup.deal(
        options, plan.seats, plan.button, plan.fantasyland, deck=shuffled_deck(rng=rng)
    )
    hand = Hand(setup)
    while not hand.is_over:
        play_turn(hand, hand.to_act[0], policy=policy, batch=True)
    assert hand.result is not None  # (a hand over has its result)
    return hand, hand.result


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
        hand, result = _played(options, plan, rng, policy)
        state = state.after_hand(result, plan)
        discards = {s: hand.discards_of(s) for s in plan.seats}
        yield {
            "hand": n,
            "button": plan.button,
            "seats": [
                {
                    "seat": r.seat,
                    "fantasyland_cards": hand.setup.fantasyland.get(r.seat, 0),
                    **r.board.to_json(),
                    "discards": cards_str(discards[r.seat]),
                    "fouled": r.fouled,
                    "royalties": r.royalty_total,
                    "points": r.points,
                }
                for r in sorted(result.seats, key=lambda r: r.seat)
            ],
        }


def simulate_tournament(
    config: TournamentConfig,
    players: int,
    seed: int | str | None = None,
    *,
    level_hands: int = 5,
    max_hands: int = 10_000,
    policy: str = "strategy",
) -> Iterator[dict[str, Any]]:
    """Play a whole tournament (R8.7) for ``players`` seats with the built-in strategy and yield
    one JSON-ready record per hand dealt, then one final record.

    Hand record: ``hand`` (1-based), ``level``, ``chips_per_point``, ``chips`` (list indexed by
    seat, 0 for a player out), ``knocked_out`` (``[{"seat", "place", "prize"}]``, best place
    first) and ``settled`` (chips moved after this hand: always in Pineapple and classic OFC; in
    Chinese Poker only after the hand that ends a game to ``target_points``, R7.6). Final record:
    ``hands``, ``pool``, ``places`` and ``payouts`` (lists indexed by seat; kush).

    The level rises every ``level_hands`` hands dealt instead of every ``level_minutes``. In
    Chinese Poker a player who may claim the game does (R7.5). The same seed gives the same
    records.

    :raises GameError: when nobody has won after ``max_hands`` hands (a guard: chips per point
        grows every level, so a tournament ends long before with the default schedule), or for
        a bad ``players``, ``level_hands`` or ``max_hands``.
    """
    options = RuleOptions.preset(config.game)
    if not 2 <= players <= config.max_seats:
        raise GameError(f"a {config.game.title} tournament takes 2–{config.max_seats} players")
    if level_hands < 1 or max_hands < 1:
        raise GameError("level_hands and max_hands must be at least 1")
    rng = random.Random(seed)
    tournament = Tournament(config)
    for player in range(players):
        tournament.register(player)
    if tournament.phase is TournamentPhase.REGISTERING:
        tournament.start()
    state = MatchState.new(options)
    chinese = ChineseGame(options.target_points) if options.game is GameKind.CHINESE else None
    while (final := tournament.finished) is None:
        if tournament.hands >= max_hands:
            raise GameError(f"no winner after {max_hands} hands")
        plan = state.next_hand(tournament.in_play)
        dealt = tournament.deal(1 + tournament.hands // level_hands)
        _, result = _played(options, plan, rng, policy)
        state = state.after_hand(result, plan)
        pairs: tuple[tuple[int, int, int], ...] | None = result.pairs
        if chinese is not None:
            for stage in ChineseGame.stages(result):
                chinese = chinese.apply(stage)
                claimants = chinese.claimants(stage)
                if claimants:
                    chinese = chinese.claim(claimants[0])
                    break
            pairs = chinese.pairs(result.order) if chinese.over else None  # R7.6
            if chinese.over:
                chinese = chinese.new_game()
        settled = tournament.settle(pairs) if pairs is not None else None
        knocked = settled.knocked_out if settled is not None else ()
        for ko in knocked:
            state = state.without(ko.seat)
        chips = tournament.chips
        yield {
            "hand": dealt.hand,
            "level": dealt.level,
            "chips_per_point": dealt.chips_per_point,
            "chips": [chips.get(seat, 0) for seat in range(players)],
            "knocked_out": [{"seat": k.seat, "place": k.place, "prize": k.prize} for k in knocked],
            "settled": settled is not None,
        }
    places = {st.seat: st.place for st in final.standings}
    yield {
        "hands": tournament.hands,
        "pool": final.pool,
        "places": [places[seat] for seat in range(players)],
        "payouts": [final.prizes[seat] for seat in range(players)],
    }
