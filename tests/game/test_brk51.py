"""brk51: attacks on fixsafe2 (a safe timeout's placement recorded on its action, R8.5;
:meth:`Hand.copy` for the play-ahead).

* :meth:`Hand.copy` is independent: random legal actions (all three games, Fantasyland,
  timeouts with and without ``safe_autoplay``) applied to a copy leave the original exactly
  as it was (its JSON, views, boards, discards, turn), and a copy played to the end equals a
  deep copy played to the end with the same actions.
* The recorded placement holds discards (box ``None``): a replay never shows a viewer
  another board's discard or hidden card earlier than the hand did (R3.3, R6.3).
* A forged or corrupted ``placed`` is never taken: not where ``safe_autoplay`` is off (the
  plain rule places; the log keeps no placement that never happened), and a malformed one's
  error names no card (it is logged when a restore fails).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from game.actions import (
    Action,
    Arrange,
    Confirm,
    Discard,
    Place,
    Timeout,
    Unplace,
    action_from_json,
)
from game.board import Box
from game.cards import Card
from game.errors import GameError
from game.hand import Hand, HandSetup
from game.history import replay_frames
from game.options import GameKind, RuleOptions

BOXES = (Box.TOP, Box.MIDDLE, Box.BOTTOM)


def _candidates(hand: Hand, rng: random.Random) -> list[Action]:
    """Legal actions of some seat to act now (a timeout among them, rarely)."""
    seat = rng.choice(hand.to_act)
    out: list[Action] = []
    cards = hand.to_place(seat)
    board = hand.board_of(seat, with_pending=True)
    for c in cards:
        for b in BOXES:
            if board.free(b):
                out.append(Place(seat, c, b))
        if hand.discards_needed(seat):
            out.append(Discard(seat, c))
    for c, _ in hand.pending(seat):
        out.append(Unplace(seat, c))
    out.append(Confirm(seat))
    if rng.random() < 0.25:
        out.append(Timeout(seat))
    if cards and rng.random() < 0.1:  # an Arrange of the whole street, or a bad one
        shuffled = list(hand.current_cards(seat))
        rng.shuffle(shuffled)
        out.append(Arrange(seat, tuple((c, rng.choice(BOXES)) for c in shuffled)))
    legal = [a for a in out if hand.can(a)]
    return legal or [Timeout(seat)]


def _state(hand: Hand) -> Any:
    """Everything of the hand an action could change, readable from outside."""
    return (
        json.dumps(hand.to_json(), sort_keys=True),
        hand.to_act,
        hand.version,
        hand.result,
        [
            (
                hand.board_of(s, with_pending=True),
                hand.discards_of(s),
                hand.pending(s),
                hand.seat_version(s),
                hand.street_version(s),
                hand.to_place(s),
                hand.view(s),
                hand.played_a_street(s),
            )
            for s in hand.order
        ],
        hand.view(None),
        hand.public_cards(),
    )


def _options(kind: GameKind, fantasyland: dict[int, int], safe: bool) -> RuleOptions:
    """The game's preset; ``progressive_fantasyland`` on for a Pineapple Fantasyland hand of
    more than 14 cards, the one game and option that deal one (R6.2)."""
    progressive = kind is GameKind.PINEAPPLE and any(c > 14 for c in fantasyland.values())
    return RuleOptions.preset(kind, safe_autoplay=safe, progressive_fantasyland=progressive)


def _setups() -> list[tuple[GameKind, dict[int, int], bool]]:
    return [
        (GameKind.PINEAPPLE, {}, True),
        (GameKind.PINEAPPLE, {}, False),
        (GameKind.PINEAPPLE, {1: 15}, True),
        (GameKind.OFC, {}, True),
        (GameKind.OFC, {0: 13}, True),
        (GameKind.CHINESE, {}, False),
    ]


@pytest.mark.parametrize(("kind", "fantasyland", "safe"), _setups())
def test_a_copy_played_on_leaves_the_hand_exactly_as_it_was(
    kind: GameKind, fantasyland: dict[int, int], safe: bool
) -> None:
    """Over many seeds: at random points of a hand played with random legal actions, a copy
    is played on (random actions, timeouts among them) to the end; the original is exactly
    as it was, and the same actions on a deep copy give the same hand (JSON, result)."""
    for seed in range(3):
        rng = random.Random(seed * 7919 + len(fantasyland))
        seats = (0, 1, 2, 3)[: 2 + seed % (2 if kind is GameKind.PINEAPPLE or fantasyland else 3)]
        options = _options(kind, fantasyland, safe)
        hand = Hand(HandSetup.deal(options, seats, seed % len(seats), fantasyland, seed=seed))
        checks = 0
        while not hand.is_over:
            if rng.random() < 0.15:
                before = _state(hand)
                deep = copy.deepcopy(hand)
                ahead = hand.copy()
                played: list[Action] = []
                while not ahead.is_over:
                    action = rng.choice(_candidates(ahead, rng))
                    ahead.apply(action)
                    played.append(action)
                assert _state(hand) == before
                for action in played:
                    deep.apply(action)
                assert deep.to_json() == ahead.to_json()
                assert deep.result == ahead.result and deep.result is not None
                checks += 1
            hand.apply(rng.choice(_candidates(hand, rng)))
        assert checks


def _hidden_from(hand: Hand, viewer: int) -> set[Card]:
    """Cards of other boards than ``viewer``'s the viewer must never be shown: discards."""
    out: set[Card] = set()
    for s in hand.order:
        if hand.setup.owner(s) != viewer:
            out.update(hand.discards_of(s))
    return out


@pytest.mark.parametrize(("kind", "fantasyland", "safe"), _setups())
def test_r3_3_a_replay_of_safe_timeouts_never_shows_another_boards_discard(
    kind: GameKind, fantasyland: dict[int, int], safe: bool
) -> None:
    """Hands played with timeouts (their placements, discards too, recorded on the log):
    every frame of every viewer's replay shows no discard of another board, the viewer's
    own discards are exactly theirs, and a board the hand showed nobody before the
    showdown (closed) is shown empty in each frame before the last."""
    for seed in range(3):
        rng = random.Random(seed)
        seats = (0, 1, 2, 3)[: 2 + seed % (2 if kind is GameKind.PINEAPPLE or fantasyland else 3)]
        options = _options(kind, fantasyland, safe)
        hand = Hand(HandSetup.deal(options, seats, 0, fantasyland, seed=seed))
        while not hand.is_over:
            hand.apply(rng.choice(_candidates(hand, rng)))
        data = json.loads(json.dumps(hand.to_json()))
        if safe and kind is not GameKind.CHINESE:
            assert any(a.get("placed") for a in data["actions"])
        for viewer in (*seats, None):
            frames = replay_frames(data, viewer)
            secret = _hidden_from(hand, viewer) if viewer is not None else set()
            if viewer is None:
                for s in hand.order:
                    secret.update(hand.discards_of(s))
            for frame in frames:
                shown = {c for b in frame.boards for c in b.board.cards()}
                shown |= {c for b in frame.boards for c in b.dealt}
                assert not shown & secret, (viewer, frame.street)
                assert not set(frame.discards) & secret
                for b in frame.boards:
                    if b.owner != viewer and not frame.final and not hand.open_play:
                        assert not tuple(b.board.cards())
            if viewer is not None:
                mine = [s for s in hand.order if hand.setup.owner(s) == viewer]
                assert set(frames[-1].discards) == {c for s in mine for c in hand.discards_of(s)}


def _one_timeout(kind: GameKind, safe: bool, seed: int = 1) -> tuple[Hand, int, tuple[Card, ...]]:
    """A hand of two whose first player to act timed out on street 1; that seat and the
    cards it was dealt."""
    hand = Hand(HandSetup.deal(RuleOptions.preset(kind, safe_autoplay=safe), (0, 1), 0, seed=seed))
    seat = hand.to_act[0]
    cards = hand.current_cards(seat)
    hand.apply(Timeout(seat))
    return hand, seat, cards


@pytest.mark.parametrize("kind", [GameKind.PINEAPPLE, GameKind.OFC, GameKind.CHINESE])
def test_r8_5_a_placement_in_a_log_without_safe_autoplay_is_dropped(kind: GameKind) -> None:
    """A timeout's ``placed`` in the log of a hand without ``safe_autoplay`` (a forged log:
    a classic, Chinese or plain table's hand never records one): the plain rule places, as
    it did, and the rebuilt hand's log keeps no placement that never happened (it was kept,
    written to every later snapshot and the hand's history)."""
    hand, seat, cards = _one_timeout(kind, safe=False)
    data = json.loads(json.dumps(hand.to_json()))
    assert "placed" not in data["actions"][0]
    forged = json.loads(json.dumps(data))
    forged["actions"][0]["placed"] = [
        [c.code_str(), "top" if i < 3 else "middle"] for i, c in enumerate(cards)
    ]
    again = Hand.from_json(forged)
    assert again.board_of(seat) == hand.board_of(seat)
    assert again.actions == hand.actions
    assert again.to_json() == data


def _honest_and(
    forge: Any, kind: GameKind = GameKind.PINEAPPLE, street: int = 1
) -> tuple[Hand, Hand]:
    """The honest hand with ``safe_autoplay`` (every street timed out up to ``street``),
    and the one rebuilt from its log with the last timeout's ``placed`` replaced by
    ``forge(hand, seat, placed)``."""
    options = RuleOptions.preset(kind, safe_autoplay=True)
    hand = Hand(HandSetup.deal(options, (0, 1), 0, seed=11))
    while hand.street_of(hand.to_act[0]) < street:
        hand.apply(Timeout(hand.to_act[0]))
    seat = hand.to_act[0]
    hand.apply(Timeout(seat))
    data = json.loads(json.dumps(hand.to_json()))
    last = data["actions"][-1]
    assert last["type"] == "timeout" and last["seat"] == seat and last["placed"]
    last["placed"] = forge(hand, seat, last["placed"])
    return hand, Hand.from_json(data)


def _other_seats_card(hand: Hand, seat: int, placed: list[list[Any]]) -> list[list[Any]]:
    other = next(s for s in hand.order if s != seat)
    card = hand.current_cards(other)[0].code_str()  # (the other seat's, to act now)
    return [[card, placed[0][1]], *placed[1:]]


FORGERIES = {
    "another seat's card": _other_seats_card,
    "a card twice": lambda h, s, p: [p[0], p[0], *p[2:]],
    "a card short": lambda h, s, p: p[:-1],
    "a card more": lambda h, s, p: [*p, ["Ks", "top"]],
    "a discard where none is allowed": lambda h, s, p: [[p[0][0], None], *p[1:]],
    "too many in one box": lambda h, s, p: [[c, "top"] for c, _ in p],
    "empty": lambda h, s, p: [],
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_r8_5_a_forged_placement_is_decided_again(forgery: str) -> None:
    """A recorded placement that does not fit the seat's street (another seat's card, a
    card twice, one short or more, a discard where the street allows none, more cards in a
    box than it holds, nothing) is never taken: the strategy decides again, the same hand
    as the honest log's, and the rebuilt log records what was placed."""
    hand, again = _honest_and(FORGERIES[forgery])
    assert again.to_json() == hand.to_json()
    assert again.result == hand.result
    for s in hand.order:
        assert again.board_of(s) == hand.board_of(s)
        assert again.discards_of(s) == hand.discards_of(s)


def test_r8_5_a_forged_placement_discarding_a_kept_card_on_a_later_street_is_decided_again() -> (
    None
):
    """Street 2 of Pineapple keeps two cards of three: a ``placed`` discarding two (or none)
    is decided again."""
    for forge in (
        lambda h, s, p: [[p[0][0], None], [p[1][0], None], p[2]],
        lambda h, s, p: [[c, b or "bottom"] for c, b in p],
    ):
        hand, again = _honest_and(forge, street=2)
        assert again.to_json() == hand.to_json()


def test_a_malformed_placement_is_refused_naming_no_card(caplog: pytest.LogCaptureFixture) -> None:
    """A ``placed`` that does not parse (a box that is none) refuses the log (a restore
    then refunds the table, as for any malformed action); the error, which the restore
    logs, names no card of it: the seat's discards among them (R3.3), read by whoever runs
    the bot."""
    hand, _seat, cards = _one_timeout(GameKind.PINEAPPLE, safe=True)
    data = json.loads(json.dumps(hand.to_json()))
    placed = data["actions"][0]["placed"]
    assert not any(b is None for _, b in placed)  # (street 1 of Pineapple keeps all)
    placed[-1][1] = "side"
    placed.append(["2c", None])
    with pytest.raises(GameError) as err:
        Hand.from_json(data)
    text = str(err.value)
    assert "timeout" in text and "placed" in text
    for code in (*(c.code_str() for c in cards), "2c"):
        assert code not in text
    with pytest.raises(GameError) as err:
        action_from_json({"type": "place", "seat": 0, "card": "Qh", "box": "side"})
    assert "Qh" not in str(err.value) and "place" in str(err.value)
