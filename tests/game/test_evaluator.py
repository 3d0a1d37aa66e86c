"""Hand evaluation on one scale for 5-card boxes and the 3-card top (R1.2–R1.4).

The exhaustive checks compare every one of the 2,598,960 five-card hands with eval7 (a PyPI
evaluator) and every top pattern (455) with every middle class (7,462) against an independent
oracle written here from the wording of R1.4.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, pairwise

import pytest

from game.cards import DECK, format_cards, parse_cards
from game.evaluator import (
    HandCategory,
    category_of,
    display_order,
    evaluate,
    rank3,
    rank5,
    ranks_of,
)


def ev(text: str) -> int:
    return evaluate(parse_cards(text))


ORDERED_EXAMPLES = [
    # weakest to strongest, one or more per category, including the edges of R1.2
    "7s 5h 4d 3c 2s",
    "As Kh Qd Jc 9s",
    "2s 2h 3d 4c 5s",
    "As Ah Kd Qc Js",
    "3s 3h 2d 2c 4s",
    "As Ah Kd Kc Qs",
    "2s 2h 2d 3c 4s",
    "As Ad Ac Kh Qd",
    "As 2h 3d 4c 5s",  # the wheel: the lowest straight (R1.2)
    "2s 3h 4d 5c 6s",
    "Ts Jh Qd Kc As",
    "2h 3h 4h 5h 7h",
    "Ah Kh Qh Jh 9h",
    "2s 2h 2d 3c 3s",
    "As Ah Ad Kc Ks",
    "2s 2h 2d 2c 3s",
    "As Ah Ad Ac Ks",
    "As 2s 3s 4s 5s",  # the steel wheel: the lowest straight flush (R1.2)
    "2s 3s 4s 5s 6s",
    "9h Th Jh Qh Kh",
    "Th Jh Qh Kh Ah",
]


def test_r1_2_categories_are_ordered_including_wheel_and_steel_wheel() -> None:
    values = [ev(h) for h in ORDERED_EXAMPLES]
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    assert category_of(ev("As 2h 3d 4c 5s")) is HandCategory.STRAIGHT
    assert ranks_of(ev("As 2h 3d 4c 5s")) == (5,)
    assert category_of(ev("As 2s 3s 4s 5s")) is HandCategory.STRAIGHT_FLUSH
    assert category_of(ev("Th Jh Qh Kh Ah")) is HandCategory.ROYAL_FLUSH


def test_r1_2_suits_are_equal_and_kickers_decide() -> None:
    assert ev("As Kh Qd Jc 9s") == ev("Ad Kc Qh Js 9c")
    assert ev("Ks Kh 9d 5c 2s") > ev("Ks Kh 9d 4c 3s")
    assert ev("Ks Kh 5d 5c 3s") < ev("Ks Kh 5d 5c 4s")
    assert ev("9s 9h 9d Ac 2s") > ev("9s 9h 9d Kc Qs")


def test_r1_3_top_box_has_no_straights_or_flushes() -> None:
    assert category_of(ev("Qh Kh Ah")) is HandCategory.HIGH_CARD
    assert category_of(ev("2h 3h 4h")) is HandCategory.HIGH_CARD
    assert category_of(ev("7s 7h 2d")) is HandCategory.PAIR
    assert category_of(ev("7s 7h 7d")) is HandCategory.TRIPS


@pytest.mark.parametrize(
    ("top", "middle", "top_is_higher"),
    [
        ("Qs Qh 5d", "Qc Qd 5s 4h 3c", False),  # R1.4 example: top runs out of kickers first
        ("Qs Qh 6d", "Qc Qd 5s 4h 3c", True),  # R1.4 example: foul
        ("6s 3h 2d", "7c 5d 4s 3c 2c", False),  # the two-low-kicker padding trap
        ("7s 5h 4d", "7c 5d 4c 3h 2c", False),  # equal as far as the top goes: top lower
        ("7s 5h 5d", "7c 6d 4s 3h 2c", True),  # pair beats high card
        ("As Kh Qd", "Ac Kd Qc Jh 9h", False),
        ("2s 2h 2d", "Ac Ad Kc Kh Qd", True),  # trips beat two pair
        ("2s 2h 2d", "3c 3d 3h 4s 5d", False),  # trips vs trips: rank decides
    ],
)
def test_r1_4_top_against_middle_kicker_edges(top: str, middle: str, top_is_higher: bool) -> None:
    assert not set(parse_cards(top)) & set(parse_cards(middle))
    assert (ev(top) > ev(middle)) is top_is_higher


# -- exhaustive checks -------------------------------------------------------------------

_CAT_ORDER = {  # an independent oracle of R1.2–R1.4, written from the rules' wording
    "high": 0,
    "pair": 1,
    "two_pair": 2,
    "trips": 3,
    "straight": 4,
    "flush": 5,
    "full_house": 6,
    "quads": 7,
    "straight_flush": 8,
}


def _oracle(ranks: list[int], flush: bool) -> tuple[int, ...]:
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    ordered = tuple(r for r, _ in groups)
    shape = tuple(k for _, k in groups)
    if len(ranks) == 3:
        name = {(3,): "trips", (2, 1): "pair"}.get(shape, "high")
        return (_CAT_ORDER[name], *ordered)
    distinct = sorted(counts, reverse=True)
    high = 0
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        high = distinct[0]
    if distinct == [14, 5, 4, 3, 2]:
        high = 5
    if high and flush:
        return (_CAT_ORDER["straight_flush"], high)
    name = {
        (4, 1): "quads",
        (3, 2): "full_house",
        (3, 1, 1): "trips",
        (2, 2, 1): "two_pair",
        (2, 1, 1, 1): "pair",
    }.get(shape)
    if name in ("quads", "full_house"):
        return (_CAT_ORDER[name], *ordered)
    if flush:
        return (_CAT_ORDER["flush"], *distinct)
    if high:
        return (_CAT_ORDER["straight"], high)
    if name:
        return (_CAT_ORDER[name], *ordered)
    return (_CAT_ORDER["high"], *distinct)


def test_r1_4_every_top_pattern_against_every_middle_class() -> None:
    """455 top patterns × 7,462 middle classes: foul iff the oracle says top > middle."""
    middles: dict[int, tuple[int, ...]] = {}
    for combo in combinations(DECK, 5):
        # one representative card set per rank multiset and flushness is enough
        ranks = [c.rank for c in combo]
        flush = len({c.suit for c in combo}) == 1
        v = rank5(*(c.code for c in combo))
        if v not in middles:
            middles[v] = _oracle(ranks, flush)
        if len(middles) == 7462:
            break
    assert len(middles) == 7462
    tops: dict[int, tuple[int, ...]] = {}
    by_rank = {r: [c for c in DECK if c.rank == r] for r in range(2, 15)}
    for pattern in combinations_with_replacement(range(2, 15), 3):
        cards = []
        used: Counter[int] = Counter()
        for r in pattern:
            cards.append(by_rank[r][used[r]])
            used[r] += 1
        tops[rank3(*(c.code for c in cards))] = _oracle(list(pattern), False)
    assert len(tops) == 455
    mismatches = 0
    for tv, to in tops.items():
        for mv, mo in middles.items():
            if (tv > mv) != (to > mo) or (tv == mv) != (to == mo):
                mismatches += 1
    assert mismatches == 0


def test_r1_2_all_2598960_hands_agree_with_eval7() -> None:
    eval7 = pytest.importorskip("eval7")
    theirs_cards = [eval7.Card(c.code_str()) for c in DECK]
    codes = [c.code for c in DECK]
    evaluate7 = eval7.evaluate
    mapping: dict[int, int] = {}
    count = 0
    for a, b, c, d, e in combinations(range(52), 5):
        ours = rank5(codes[a], codes[b], codes[c], codes[d], codes[e])
        theirs = evaluate7(
            [theirs_cards[a], theirs_cards[b], theirs_cards[c], theirs_cards[d], theirs_cards[e]]
        )
        prev = mapping.setdefault(ours, theirs)
        assert prev == theirs, (ours, theirs, prev)
        count += 1
    assert count == 2_598_960
    assert len(mapping) == 7462
    ordered = [mapping[k] for k in sorted(mapping)]
    assert all(x < y for x, y in pairwise(ordered))


@pytest.mark.parametrize(
    ("placed", "shown"),
    [
        ("Kc 2c Kh 2d 8h", "K♥ K♣ 2♦ 2♣ 8♥"),  # two pair: the pairs by rank, then the kicker
        ("3c 9s 3h 9d 3s", "3♠ 3♥ 3♣ 9♠ 9♦"),  # full house: the trips before the pair
        ("4c Ah 4d Qs 7s", "4♦ 4♣ A♥ Q♠ 7♠"),  # pair first, then the kickers high to low
        ("9h 7h Jh 8h Th", "J♥ 10♥ 9♥ 8♥ 7♥"),  # straight flush high to low
        ("3d As 5c 2h 4s", "5♣ 4♠ 3♦ 2♥ A♠"),  # the wheel: the ace is low (R1.2)
        ("2h Ah 9h Kh 5h", "A♥ K♥ 9♥ 5♥ 2♥"),  # flush high to low
        ("5d Qs Qh", "Q♠ Q♥ 5♦"),  # the top box
        ("7c Ac", "A♣ 7♣"),  # a box not yet full
    ],
)
def test_display_order_reads_the_hand_naturally(placed: str, shown: str) -> None:
    cards = parse_cards(placed)
    assert format_cards(display_order(cards)) == shown
    assert evaluate(display_order(cards)) == evaluate(cards) if len(cards) in (3, 5) else True
