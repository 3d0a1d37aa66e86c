"""The exact Fantasyland solver (R6.2, R6.4, R5.6, R4.4, R2.2): worked examples, equality with
a full enumeration of every arrangement, and its use by "arrange for me" and ``safe_autoplay``
(R8.5).

The enumeration (:func:`brute_force`) tries every bottom, every middle of the rest and every
top of what is left, keeping the legal boards (R2.2) and their value: royalties (R5.6, R4.4)
plus the stay value when :func:`game.board.fantasyland_cards` says the whole board keeps
Fantasyland (R6.4). It is itself checked against :func:`game.board.assess_board` on every
board of a few hands. 1,000 random 14-card hands take several minutes: that test runs with
``OFC_SLOW=1``; the default run takes a sample of 50.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from game.board import BOXES, Board, Box, assess_board, fantasyland_cards, royalty
from game.cards import DECK, Card, parse_cards
from game.errors import CardError, GameError
from game.evaluator import rank3, rank5
from game.fantasyland import DEFAULT_STAY_VALUE, solve_fantasyland
from game.options import GameKind, RuleOptions
from game.strategy import complete_street
from tests.game.helpers import PROGRESSIVE, deal

SLOW = os.environ.get("OFC_SLOW") == "1"
DEUCE_OF_SPADES = 2 | 256
PINEAPPLE = RuleOptions()
CLASSIC = RuleOptions.preset(GameKind.OFC)  # stay_on_full_house_middle on (R6.4)
# option sets and stay values the random comparisons cycle through
VARIANTS: tuple[tuple[RuleOptions, float], ...] = (
    (PINEAPPLE, DEFAULT_STAY_VALUE),
    (RuleOptions(deuce_of_spades=True), DEFAULT_STAY_VALUE),
    (RuleOptions(stay_on_full_house_middle=True), 7.5),
    (PINEAPPLE, 0.0),
    (RuleOptions(deuce_of_spades=True, stay_on_full_house_middle=True), 30.0),
    (RuleOptions(fantasyland=False), DEFAULT_STAY_VALUE),
)


def brute_force(
    cards: Sequence[Card], options: RuleOptions, stay_value: float, fixed: Board | None = None
) -> float | None:
    """The best value over every legal board of 13 of ``cards`` (with ``fixed``'s cards in
    their boxes); ``None`` when no board is legal. Boxes are bit masks over the cards."""
    fixed = fixed or Board()
    pool = [*fixed.cards(), *cards]
    codes = [c.code for c in pool]
    bits = [1 << i for i in range(len(pool))]
    must = [sum(1 << pool.index(c) for c in fixed.box(b)) for b in BOXES]
    deuce = sum(b for b, code in zip(bits, codes, strict=True) if code == DEUCE_OF_SPADES)
    factor = 2 if options.deuce_of_spades else 1

    five: dict[int, tuple[int, int, int]] = {}  # mask: strength, middle and bottom royalty
    for idx in combinations(range(len(pool)), 5):
        mask = sum(bits[i] for i in idx)
        s = rank5(*(codes[i] for i in idx))
        f = factor if mask & deuce else 1
        five[mask] = (s, royalty(Box.MIDDLE, s) * f, royalty(Box.BOTTOM, s) * f)
    three: dict[int, tuple[int, int]] = {}  # mask: strength, top royalty
    for trio in combinations(range(len(pool)), 3):
        mask = sum(bits[i] for i in trio)
        s = rank3(*(codes[i] for i in trio))
        three[mask] = (s, royalty(Box.TOP, s) * (factor if mask & deuce else 1))
    best: float | None = None
    for bottom, (sb, _, rb) in five.items():
        if bottom & must[2] != must[2]:
            continue
        rest = [b for b in bits if not b & bottom]
        for middle in map(sum, combinations(rest, 5)):
            sm, rm, _ = five[middle]
            if sm > sb or middle & must[1] != must[1]:
                continue
            for top in map(sum, combinations([b for b in rest if not b & middle], 3)):
                st, rt = three[top]
                if st > sm or top & must[0] != must[0]:
                    continue
                value = float(rt + rm + rb)
                if best is not None and value + stay_value <= best:
                    continue  # cannot beat the best even if it stays
                if fantasyland_cards(st, sm, sb, options, True):
                    value += stay_value
                if best is None or value > best:
                    best = value
    return best


def literal_enumeration(cards: Sequence[Card], options: RuleOptions, stay_value: float) -> float:
    """Every board of 13 of ``cards`` judged by :func:`assess_board` (slow; small hands)."""
    best = -1.0
    for keep in combinations(cards, 13):
        for bottom in combinations(keep, 5):
            rest = [c for c in keep if c not in bottom]
            for middle in combinations(rest, 5):
                top = tuple(c for c in rest if c not in middle)
                a = assess_board(Board(top, middle, bottom), options, True)
                if not a.fouled:
                    v = a.royalty_total + (stay_value if a.fantasyland_cards else 0.0)
                    best = max(best, v)
    return best


def random_hands(seed: int, count: int, size: int) -> list[list[Card]]:
    rng = random.Random(seed)
    return [rng.sample(DECK, size) for _ in range(count)]


def check_against_enumeration(cards: Sequence[Card], options: RuleOptions, stay: float) -> None:
    sol = solve_fantasyland(cards, options, stay_value=stay)
    assert sol.value == brute_force(cards, options, stay), [c.text for c in cards]
    # the solution is what it claims: a legal board of 13 of the cards, scored the same way
    a = assess_board(sol.board, options, True)
    assert not sol.fouled and not a.fouled
    assert sol.royalties == a.royalties and sol.stays == (a.fantasyland_cards > 0)
    assert sorted(c.index for c in [*sol.board.cards(), *sol.discards]) == sorted(
        c.index for c in cards
    )


# -- worked examples (R5.6, R4.4, R6.4) ------------------------------------------------------


def test_r5_6_r6_4_straight_flush_bottom_quads_middle_stays() -> None:
    # Q-high straight flush below (15), quads in middle (20), 66 on top (1); the flush on
    # bottom is "quads or better", so the board stays: 36 + 15. Quads below the straight
    # flush would foul (R2.2).
    cards = parse_cards("Ah Ad Ac As Kd Qs Js Ts 9s 8s 6h 6d 2c 3h")
    sol = solve_fantasyland(cards, PINEAPPLE)
    assert sol.board == Board.parse("6d 6h 3h", "Ac Ad Ah As Kd", "Qs Js Ts 9s 8s")
    assert sol.discards == parse_cards("2c")  # the weaker kicker of 66 (ties: stronger top)
    assert sol.royalties == (1, 20, 15) and sol.stays and not sol.fouled
    assert sol.value == 36 + DEFAULT_STAY_VALUE


def test_r6_4_the_stay_value_decides_between_quads_below_and_aces_on_top() -> None:
    cards = parse_cards("Ah As Kc Ks Js Td 9c 9d 9h 9s 8s 7c 7h 2s")
    stay = solve_fantasyland(cards, PINEAPPLE, stay_value=15)
    assert stay.board == Board.parse("Kc 7c 7h", "As Ks Js 8s 2s", "Ah 9c 9d 9h 9s")
    assert stay.royalties == (2, 8, 10) and stay.stays and stay.value == 35
    royalties_only = solve_fantasyland(cards, PINEAPPLE, stay_value=0)
    assert royalties_only.board == Board.parse("Ah As Kc", "Ks Js 9s 8s 2s", "9c 9d 9h 7c 7h")
    assert royalties_only.royalties == (9, 8, 6) and not royalties_only.stays
    assert royalties_only.value == 23
    assert stay.discards == royalties_only.discards == parse_cards("Td")


def test_r4_4_deuce_of_spades_doubles_the_box_that_holds_it() -> None:
    # classic OFC, 13 cards, none discarded (R6.2); royal flush below (25), a spade flush
    # with 2♠ in middle (8, doubled to 16), 55 on top (no royalty)
    cards = parse_cards("2s 7s 9s Js Ks Ah Kh Qh Jh Th 5c 5d 3h")
    plain = solve_fantasyland(cards, CLASSIC)
    doubled = solve_fantasyland(cards, RuleOptions.preset(GameKind.OFC, deuce_of_spades=True))
    for sol in (plain, doubled):
        assert sol.board == Board.parse("5c 5d 3h", "Ks Js 9s 7s 2s", "Ah Kh Qh Jh Th")
        assert sol.discards == () and sol.stays  # royal flush on bottom: quads or better
    assert plain.royalties == (0, 8, 25) and plain.value == 33 + DEFAULT_STAY_VALUE
    assert doubled.royalties == (0, 16, 25) and doubled.value == 41 + DEFAULT_STAY_VALUE


def test_r6_4_a_middle_full_house_stays_only_with_the_option() -> None:
    cards = parse_cards("9c 9d 9h 4c 4d Kc Kd Ks 7h 7s 2d 3c 5h")
    classic = solve_fantasyland(cards, CLASSIC)  # stay_on_full_house_middle on
    pineapple = solve_fantasyland(cards, PINEAPPLE)
    for sol in (classic, pineapple):
        assert sol.board == Board.parse("5h 3c 2d", "9c 9d 9h 4c 4d", "Kc Kd Ks 7h 7s")
        assert sol.royalties == (0, 12, 6)
    assert classic.stays and classic.value == 18 + DEFAULT_STAY_VALUE
    assert not pineapple.stays and pineapple.value == 18


def test_r6_4_trips_on_top_over_a_flush_and_a_full_house() -> None:
    # KKK on top (21) under the club flush (8) over QQQ22 (6): one more than QQQ on top over
    # KKK22, and trips on top stay
    cards = parse_cards("Qc Qd Qh Ks Kh Kd 2c 2d Ac Jc 9c 6c 3c 7h")
    sol = solve_fantasyland(cards, PINEAPPLE)
    assert sol.board == Board.parse("Kd Kh Ks", "Ac Jc 9c 6c 3c", "Qc Qd Qh 2c 2d")
    assert sol.royalties == (21, 8, 6) and sol.stays and sol.value == 35 + DEFAULT_STAY_VALUE
    assert sol.discards == parse_cards("7h")


def test_r6_7_without_fantasyland_nothing_stays() -> None:
    cards = parse_cards("Ah Ad Ac As Kd Qs Js Ts 9s 8s 6h 6d 2c 3h")
    sol = solve_fantasyland(cards, RuleOptions(fantasyland=False))
    assert not sol.stays and sol.value == 36


def test_the_answer_depends_on_the_cards_not_their_order() -> None:
    for cards in random_hands(5, 20, 15):
        shuffled = list(cards)
        random.Random(1).shuffle(shuffled)
        assert solve_fantasyland(cards) == solve_fantasyland(shuffled)


def test_placements_give_every_card_a_box_or_a_discard() -> None:
    cards = parse_cards("Ah As Kc Ks Js Td 9c 9d 9h 9s 8s 7c 7h 2s")
    moves = solve_fantasyland(cards).placements(cards)
    assert [c for c, _ in moves] == list(cards)
    assert [c for c, b in moves if b is None] == list(parse_cards("Td"))
    assert sum(b is Box.TOP for _, b in moves) == 3


# -- bad input ---------------------------------------------------------------------------


def test_bad_input_is_refused() -> None:
    with pytest.raises(GameError):
        solve_fantasyland(DECK[:12])
    with pytest.raises(GameError):
        solve_fantasyland(DECK[:18])
    with pytest.raises(GameError):
        solve_fantasyland(DECK[:14], stay_value=-1)
    with pytest.raises(CardError):
        solve_fantasyland([*DECK[:13], DECK[0]])
    with pytest.raises(CardError):
        solve_fantasyland(DECK[:13], fixed=Board(top=(DECK[0],)))


# -- cards already placed (R8.5) -----------------------------------------------------------


def test_fixed_cards_stay_where_they_are() -> None:
    for seed, cards in enumerate(random_hands(21, 3, 14)):
        rng = random.Random(seed)
        picked = rng.sample(cards, 4)
        fixed = Board(top=(picked[0],), middle=(picked[1],), bottom=(picked[2], picked[3]))
        free = [c for c in cards if c not in picked]
        sol = solve_fantasyland(free, PINEAPPLE, fixed=fixed)
        assert picked[0] in sol.board.top
        assert picked[1] in sol.board.middle and {picked[2], picked[3]} <= set(sol.board.bottom)
        assert sol.value == brute_force(free, PINEAPPLE, DEFAULT_STAY_VALUE, fixed)


def test_r2_3_fixed_cards_that_force_a_foul_give_the_strongest_fouled_board() -> None:
    # AAA already on top: no five of the rest beat trips (no straight, flush or trips)
    fixed = Board(top=parse_cards("As Ah Ad"))
    free = parse_cards("2c 2d 3c 3d 7h 7s 9c 9h Jd Js Kc")
    assert brute_force(free, PINEAPPLE, DEFAULT_STAY_VALUE, fixed) is None
    sol = solve_fantasyland(free, PINEAPPLE, fixed=fixed)
    assert sol.fouled and sol.value == 0 and sol.royalties == (0, 0, 0) and not sol.stays
    # the strongest bottom (JJ99K), then the strongest middle of the rest (7733 and a deuce)
    assert set(sol.board.top) == set(fixed.top)
    assert set(sol.board.bottom) == set(parse_cards("Jd Js 9c 9h Kc"))
    assert set(sol.board.middle) == set(parse_cards("7h 7s 3c 3d 2d"))
    assert sol.discards == parse_cards("2c")


# -- equal to the enumeration ----------------------------------------------------------------


def test_the_enumeration_agrees_with_assess_board_on_every_board() -> None:
    for i, cards in enumerate(random_hands(2, 2, 13)):
        options, stay = VARIANTS[i + 1]
        assert brute_force(cards, options, stay) == literal_enumeration(cards, options, stay)
    hand = parse_cards("2s 7s 9s Js Ks Ah Kh Qh Jh Th 5c 5d 3h")
    deuce = RuleOptions(deuce_of_spades=True)
    assert brute_force(hand, deuce, 15) == literal_enumeration(hand, deuce, 15) == 56


def test_equal_to_enumeration_on_a_sample_of_14_card_hands() -> None:
    for i, cards in enumerate(random_hands(14, 50, 14)):
        options, stay = VARIANTS[i % len(VARIANTS)]
        check_against_enumeration(cards, options, stay)


def test_equal_to_enumeration_on_13_card_classic_hands() -> None:
    variants = (CLASSIC, RuleOptions.preset(GameKind.OFC, deuce_of_spades=True))
    for i, cards in enumerate(random_hands(13, 20, 13)):
        check_against_enumeration(cards, variants[i % 2], DEFAULT_STAY_VALUE)


def test_equal_to_enumeration_on_15_cards() -> None:
    for cards in random_hands(15, 3 if SLOW else 1, 15):
        check_against_enumeration(cards, RuleOptions(deuce_of_spades=True), DEFAULT_STAY_VALUE)


@pytest.mark.parametrize("size", [16, 17])
def test_more_cards_equal_the_best_of_their_14_card_subsets(size: int) -> None:
    # every 13 cards kept lie in some 14 of them, so the best over the 14-card subsets (each
    # equal to the enumeration, above) is the best over all the cards
    for i, cards in enumerate(random_hands(size, 3 if SLOW else 1, size)):
        options, stay = VARIANTS[i % len(VARIANTS)]
        best = max(
            solve_fantasyland(sub, options, stay_value=stay).value
            for sub in combinations(cards, 14)
        )
        assert solve_fantasyland(cards, options, stay_value=stay).value == best


@pytest.mark.slow
@pytest.mark.skipif(not SLOW, reason="several minutes: run with OFC_SLOW=1")
def test_equal_to_enumeration_on_1000_random_14_card_hands() -> None:
    for i, cards in enumerate(random_hands(1000, 1000, 14)):
        options, stay = VARIANTS[i % len(VARIANTS)]
        check_against_enumeration(cards, options, stay)


@pytest.mark.slow
@pytest.mark.skipif(not SLOW, reason="about a minute: run with OFC_SLOW=1")
def test_equal_to_enumeration_on_16_cards() -> None:
    for cards in random_hands(16, 1, 16):
        check_against_enumeration(cards, PINEAPPLE, DEFAULT_STAY_VALUE)


# -- "arrange for me" and safe_autoplay (R6.2, R8.5) -----------------------------------------


def test_arrange_for_me_in_fantasyland_is_the_solver() -> None:
    hand = deal(fantasyland={0: 14, 1: 15, 2: 17}, options=PROGRESSIVE)
    for seat in (0, 1, 2):
        cards = hand.current_cards(seat)
        want = solve_fantasyland(cards, hand.options).placements(cards)
        assert hand.suggest(seat) == want


def test_arrange_for_me_keeps_what_the_seat_already_placed() -> None:
    hand = deal(fantasyland={0: 14, 1: 14, 2: 14})
    cards = hand.current_cards(0)
    hand.place(0, cards[0], Box.TOP)
    hand.place(0, cards[1], Box.TOP)
    fixed = Board(top=(cards[0], cards[1]))
    rest = cards[2:]
    assert hand.suggest(0) == solve_fantasyland(rest, hand.options, fixed=fixed).placements(rest)


def test_r8_5_safe_autoplay_in_fantasyland_sets_the_solvers_board() -> None:
    hand = deal(fantasyland={0: 14, 1: 14, 2: 14}, options=RuleOptions(safe_autoplay=True))
    cards = hand.current_cards(1)
    hand.timeout(1)
    sol = solve_fantasyland(cards, hand.options)
    board = hand.board_of(1)
    assert {b: set(board.box(b)) for b in BOXES} == {b: set(sol.board.box(b)) for b in BOXES}
    assert set(hand.discards_of(1)) == set(sol.discards)


def test_complete_street_in_a_classic_fantasyland_uses_the_solver() -> None:
    cards = parse_cards("9c 9d 9h 4c 4d Kc Kd Ks 7h 7s 2d 3c 5h")
    moves = complete_street(Board(), cards, 0, fantasyland_cards=13, options=CLASSIC)
    assert moves == solve_fantasyland(cards, CLASSIC).placements(cards)
