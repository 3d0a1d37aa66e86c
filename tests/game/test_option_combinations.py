"""Every game × player count × combination of the options that matter for dealing either deals
and finishes a hand from one 52-card deck (a Fantasyland hand too, where Fantasyland exists) or
is refused when it is set, never when a hand is dealt (R4.2, R4.3, R6.2; issue 16 item 2)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping

import pytest

from game.cards import Card, shuffled_deck
from game.errors import OptionConflict
from game.hand import Hand, HandSetup, double_box_seats
from game.match import MatchState
from game.options import OPTION_GAMES, GameKind, RuleOptions
from game.simulate import play_turn

#: The boolean options that change what is dealt, and how.
FLAGS = (
    "heads_up_double_boxes",
    "dummy_box",
    "progressive_fantasyland",
    "fantasyland",
    "simultaneous_streets",
    "deuce_of_spades",
)


def combinations() -> Iterator[tuple[GameKind, dict[str, bool]]]:
    for game in GameKind:
        for bits in itertools.product((False, True), repeat=len(FLAGS)):
            yield game, dict(zip(FLAGS, bits, strict=True))


def boards_of(opts: RuleOptions, players: int) -> tuple[tuple[int, ...], dict[int, int]]:
    """Board seats and owners as the table deals them (two boards each with double boxes and
    two players, R4.2; a third player plays single boards)."""
    seats = tuple(range(players))
    if opts.heads_up_double_boxes and players == 2:
        return double_box_seats(seats)
    return seats, {}


def most_fantasyland_cards(opts: RuleOptions) -> int:
    """The largest Fantasyland hand the options can give (R6.2: progressive trips)."""
    return opts.fantasyland_base_cards + (3 if opts.progressive_fantasyland else 0)


def play(
    opts: RuleOptions,
    seats: tuple[int, ...],
    owners: Mapping[int, int],
    fantasyland: Mapping[int, int],
    rng: random.Random,
    *,
    timeouts: bool,
) -> Hand:
    """Deal from one shuffled deck and play to showdown: by R8.5's timeout placement, or by the
    auto-placement through ordinary Place/Discard/Confirm actions."""
    setup = HandSetup.deal(
        opts, seats, seats[-1], fantasyland, deck=shuffled_deck(rng=rng), owners=owners
    )
    hand = Hand(setup)
    moves = 0
    while not hand.is_over:
        seat = hand.to_act[0]
        if timeouts:
            hand.timeout(seat)
        else:
            play_turn(hand, seat, policy="auto")
        moves += 1
        assert moves < 200, "the hand does not end"
    check_showdown(hand)
    return hand


def check_showdown(hand: Hand) -> None:
    result = hand.result
    assert result is not None
    seen: set[Card] = set()
    for r in result.seats:
        cards = list(r.board.cards())
        assert len(cards) == 13 == len(set(cards))  # R2.1
        seen.update(cards)
        seen.update(hand.discards_of(r.seat))
    if result.dummy is not None:
        seen.update(result.dummy.cards())
    dealt = 13 * len(result.seats) + sum(len(hand.discards_of(r.seat)) for r in result.seats)
    dealt += 13 if result.dummy is not None else 0
    assert len(seen) == dealt <= 52  # one deck, no card twice
    if hand.options.game is not GameKind.CHINESE:  # Chinese points race to a target (R7)
        assert sum(r.points for r in result.seats) == 0  # R5.1


def test_every_option_combination_deals_and_finishes_or_is_refused_when_set() -> None:
    rng = random.Random(16)
    accepted = refused = hands = 0
    for n, (game, flags) in enumerate(combinations()):
        foreign = [n for n, games in OPTION_GAMES.items() if flags[n] and game not in games]
        try:
            opts = RuleOptions.preset(game, **flags)
        except OptionConflict as exc:
            assert exc.option in foreign and exc.game == game.value
            assert game.value not in exc.games
            refused += 1
            continue
        assert not foreign, (game, flags)
        accepted += 1
        for players in range(opts.min_players, opts.max_players + 1):
            seats, owners = boards_of(opts, players)
            hand = play(opts, seats, owners, {}, rng, timeouts=n % 2 == 0)
            hands += 1
            if opts.game is GameKind.CHINESE or not opts.fantasyland or owners:
                continue  # no Fantasyland in Chinese Poker (R4.5) or with it off (R6.7)
            # Fantasyland earned at showdown is dealt by the next hand of the match
            state = MatchState.new(opts)
            plan = state.next_hand(seats)
            state = state.after_hand(hand.result, plan)  # type: ignore[arg-type]
            if state.in_match:
                nxt = state.next_hand(seats)
                play(opts, nxt.seats, {}, nxt.fantasyland, rng, timeouts=False)
                hands += 1
            # the largest Fantasyland hand for one player, then for every player (R6.3, R6.5)
            most = most_fantasyland_cards(opts)
            for fl in ({seats[0]: most}, dict.fromkeys(seats, most)):
                play(opts, seats, {}, fl, rng, timeouts=n % 3 == 0)
                hands += 1
    # Pineapple: no double boxes, no dummy (48 refused); classic OFC: no progressive (32);
    # Chinese Poker: none of the three (56)
    assert (accepted, refused) == (16 + 32 + 8, 48 + 32 + 56)
    assert hands > 250


def test_r4_2_double_boxes_play_fantasyland_per_board() -> None:
    """R4.2: each board of a double-box hand plays Fantasyland on its own: all four boards,
    one board, or one board of each player."""
    opts = RuleOptions.preset("ofc", heads_up_double_boxes=True)
    seats, owners = double_box_seats((0, 1))
    for fl in (dict.fromkeys(seats, 13), {1: 13}, {0: 13, 11: 13}):
        play(opts, seats, owners, fl, random.Random(3), timeouts=True)
        play(opts, seats, owners, fl, random.Random(4), timeouts=False)


@pytest.mark.parametrize(
    ("game", "option"),
    [
        ("pineapple", "heads_up_double_boxes"),
        ("chinese", "heads_up_double_boxes"),
        ("pineapple", "dummy_box"),
        ("chinese", "dummy_box"),
        ("ofc", "progressive_fantasyland"),
        ("chinese", "progressive_fantasyland"),
    ],
)
def test_r4_2_r6_2_options_of_other_games_are_refused_when_set(game: str, option: str) -> None:
    with pytest.raises(OptionConflict) as info:
        RuleOptions.preset(game, **{option: True})
    assert info.value.option == option and info.value.game == game
    assert info.value.code == "option_conflict"
    with pytest.raises(OptionConflict):  # a stored table or setting with it is refused too
        RuleOptions.from_json({"game": game, option: True})
    # switching the game of options that hold it is refused the same way
    other = next(iter(OPTION_GAMES[option])).value
    held = RuleOptions.preset(other, **{option: True})
    with pytest.raises(OptionConflict):
        RuleOptions.preset(game, **{k: v for k, v in held.to_json().items() if k != "game"})
