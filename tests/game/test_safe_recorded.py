"""A ``safe_autoplay`` timeout's placement is recorded on its action (R8.5, fixsafe2).

A hand rebuilt from its actions (a restart's restore, a worker's takeover, a refused step's
rollback, ``/replay``) decided every earlier safe timeout again with the strategy, on the
bot's event loop: up to a quarter of a second each. The hand now keeps the placement the
timeout chose on the action (:attr:`Timeout.placed`), and a rebuild replays it; a log
written before (no ``placed``) still rebuilds, deciding again (the same placement)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import game.hand
from game.actions import Place, Timeout, action_from_json, action_to_json
from game.board import Box
from game.cards import parse_card
from game.hand import Hand, HandSetup
from game.history import replay_frames
from game.options import GameKind, RuleOptions
from game.policy import Level, decide


def _progressive(fantasyland: dict[int, int]) -> bool:
    """Whether ``progressive_fantasyland`` is needed: a Fantasyland hand of more than 14 cards
    (Pineapple, R6.2; the option is refused elsewhere)."""
    return any(c > 14 for c in fantasyland.values())


def _timed_out_hand(kind: GameKind, seed: int, fantasyland: dict[int, int]) -> Hand:
    """A hand of two whose every street times out, ``safe_autoplay`` on."""
    options = RuleOptions(
        game=kind, safe_autoplay=True, progressive_fantasyland=_progressive(fantasyland)
    )
    hand = Hand(HandSetup.deal(options, (0, 1), 0, fantasyland, seed=seed))
    while not hand.is_over:
        hand.apply(Timeout(hand.to_act[0]))
    return hand


def _no_decision(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the strategy ran in the rebuild")


def _without_placed(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as a log written before the placement was recorded."""
    old = json.loads(json.dumps(data))
    for a in old["actions"]:
        a.pop("placed", None)
    return old


@pytest.mark.parametrize(
    ("kind", "fantasyland"),
    [(GameKind.PINEAPPLE, {}), (GameKind.PINEAPPLE, {0: 17}), (GameKind.OFC, {1: 13})],
)
def test_r8_5_a_rebuilt_hand_replays_its_safe_timeouts_without_the_strategy(
    monkeypatch: pytest.MonkeyPatch, kind: GameKind, fantasyland: dict[int, int]
) -> None:
    """Every action of the log is a timeout recording what it placed; the hand rebuilt from
    the log (the strategy made to fail if asked) is the same hand: boards, discards,
    result, the same log again."""
    for seed in range(2):
        hand = _timed_out_hand(kind, seed, fantasyland)
        data = hand.to_json()
        assert data["actions"] and all(a["type"] == "timeout" for a in data["actions"])
        assert all(isinstance(a.get("placed"), list) for a in data["actions"])
        with monkeypatch.context() as m:
            m.setattr(game.hand, "decide", _no_decision)
            again = Hand.from_json(json.loads(json.dumps(data)))
            frames = replay_frames(data)
        assert again.result == hand.result and again.result is not None
        for s in hand.order:
            assert again.board_of(s) == hand.board_of(s)
            assert again.discards_of(s) == hand.discards_of(s)
        assert again.to_json() == data
        assert frames[-1].boards == replay_frames(_without_placed(data))[-1].boards


def test_r8_5_an_old_log_without_the_placement_rebuilds_deciding_again() -> None:
    """A log written before the placement was recorded rebuilds to the same hand (the
    strategy decides each timeout again, the same), and the rebuilt hand records it."""
    hand = _timed_out_hand(GameKind.PINEAPPLE, 3, {})
    data = hand.to_json()
    old = _without_placed(data)
    assert old != data
    again = Hand.from_json(old)
    assert again.result == hand.result
    for s in hand.order:
        assert again.board_of(s) == hand.board_of(s)
    assert again.to_json() == data  # (the rebuild records what it decided)


def test_r8_5_a_recorded_placement_that_does_not_fit_its_hand_is_decided_again() -> None:
    """A recorded placement that places other cards than the street's (a log that does not
    fit its hand) is not taken: the timeout places by the strategy, as before."""
    hand = _timed_out_hand(GameKind.PINEAPPLE, 4, {})
    data = json.loads(json.dumps(hand.to_json()))
    first = data["actions"][0]
    first["placed"] = [["2c", "top"], ["3c", "top"], ["4c", "top"], ["5c", "top"], ["6c", "top"]]
    again = Hand.from_json(data)
    assert again.board_of(first["seat"]) == hand.board_of(first["seat"])
    assert again.result == hand.result
    assert again.to_json() == hand.to_json()  # (the placement made recorded instead)


def test_r8_5_the_placement_is_recorded_only_with_safe_autoplay() -> None:
    """Without ``safe_autoplay`` the plain rule places (cheap to replay): the log is as it
    was, ``{"type": "timeout", "seat": s}``; the JSON form of a recorded one reads back."""
    hand = Hand(HandSetup.deal(RuleOptions(), (0, 1), 0, {}, seed=1))
    seat = hand.to_act[0]
    hand.apply(Timeout(seat))
    assert hand.to_json()["actions"] == [{"type": "timeout", "seat": seat}]
    recorded = Timeout(1, 2, ((parse_card("As"), Box.TOP), (parse_card("2c"), None)))
    as_json = action_to_json(recorded)
    assert as_json == {
        "type": "timeout",
        "seat": 1,
        "street": 2,
        "placed": [["As", "top"], ["2c", None]],
    }
    assert action_from_json(as_json) == recorded


def test_r8_5_a_safe_timeout_asks_the_strategy_once_and_records_its_placement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The live timeout asks the strategy (once) and the action the hand keeps carries
    exactly the placement it got."""
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return decide(*args, **kwargs)

    monkeypatch.setattr(game.hand, "decide", counted)
    hand = Hand(HandSetup.deal(RuleOptions(safe_autoplay=True), (0, 1), 0, {}, seed=2))
    seat = hand.to_act[0]
    done = hand.apply(Timeout(seat))
    assert len(calls) == 1
    kept = hand.actions[-1]
    assert isinstance(kept, Timeout) and kept.placed == done.placements
    assert done.action == kept and kept.placed is not None and len(kept.placed) == 5


@pytest.mark.parametrize(
    ("kind", "fantasyland"),
    [(GameKind.PINEAPPLE, {}), (GameKind.PINEAPPLE, {1: 17}), (GameKind.OFC, {1: 13})],
)
def test_a_hand_copy_is_independent_and_plays_as_the_hand(
    kind: GameKind, fantasyland: dict[int, int]
) -> None:
    """:meth:`Hand.copy` (the bot plays a step ahead on one, on its event loop; a deep copy
    took milliseconds): an action applied to the copy leaves the hand as it was (boards,
    cards put in boxes, turn, log, placements offered), and the same action applied to both
    gives the same hand."""
    options = RuleOptions(
        game=kind, safe_autoplay=True, progressive_fantasyland=_progressive(fantasyland)
    )
    hand = Hand(HandSetup.deal(options, (0, 1, 2), 0, fantasyland, seed=9))
    steps = 0
    while not hand.is_over:
        seat = hand.to_act[0]
        cards = hand.to_place(seat)
        if steps % 2 and cards:  # (a card in a box first: the copy must not share pending)
            box = next(b for b in Box if hand.board_of(seat, with_pending=True).free(b))
            hand.apply(Place(seat, cards[0], box))
        before = hand.to_json()
        boards = {s: (hand.board_of(s, with_pending=True), hand.discards_of(s)) for s in hand.order}
        to_act = hand.to_act
        ahead = hand.copy()
        k = ahead.timeout_knowledge(seat)
        if k is not None:
            ahead.offer_safe(seat, k, decide(k, Level.NORMAL))
            assert not hand.is_offered(seat, k)
        ahead.apply(Timeout(seat))
        assert hand.to_json() == before and hand.to_act == to_act
        assert {
            s: (hand.board_of(s, with_pending=True), hand.discards_of(s)) for s in hand.order
        } == boards
        hand.apply(Timeout(seat))
        assert hand.to_json() == ahead.to_json() and hand.to_act == ahead.to_act
        for s in hand.order:
            assert hand.board_of(s) == ahead.board_of(s)
        steps += 1
    assert ahead.result == hand.result and steps >= 5
