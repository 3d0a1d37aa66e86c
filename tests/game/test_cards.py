"""Cards: parsing and formatting (R1.1)."""

from __future__ import annotations

import copy
import pickle

import pytest

from game.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    cards_str,
    format_cards,
    parse_card,
    parse_cards,
    shuffled_deck,
)
from game.errors import CardError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("Qs", Rank.QUEEN, Suit.SPADES),
        ("qS", Rank.QUEEN, Suit.SPADES),
        ("Td", Rank.TEN, Suit.DIAMONDS),
        ("10d", Rank.TEN, Suit.DIAMONDS),
        ("10D", Rank.TEN, Suit.DIAMONDS),
        ("Q♠", Rank.QUEEN, Suit.SPADES),
        ("a♥", Rank.ACE, Suit.HEARTS),
        ("2c", Rank.TWO, Suit.CLUBS),
        (" 7h ", Rank.SEVEN, Suit.HEARTS),
    ],
)
def test_r1_1_parse_card_accepts_letters_ten_and_symbols(text: str, rank: Rank, suit: Suit) -> None:
    c = parse_card(text)
    assert (c.rank, c.suit) == (rank, suit)


@pytest.mark.parametrize("text", ["Xs", "Q", "", "Qx", "1s", "11h", "QQs", "s"])
def test_r1_1_parse_card_rejects_garbage_with_clear_message(text: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_r1_1_parse_cards_rejects_duplicates_and_wrong_count() -> None:
    with pytest.raises(CardError, match="duplicate card: Qs"):
        parse_cards("Qs Kd qs")
    with pytest.raises(CardError, match="expected 3 cards, got 2"):
        parse_cards("Qs Kd", count=3)
    assert parse_cards("Qs, 10d,K♥") == (parse_card("Qs"), parse_card("Td"), parse_card("Kh"))


def test_r1_1_format_uses_suit_symbols_and_ascii_round_trips() -> None:
    cards = parse_cards("As Kh Td 2c")
    assert format_cards(cards) == "A♠ K♥ 10♦ 2♣"  # (ten as on the cards: Т reads туз in RU)
    assert cards_str(cards) == "As Kh Td 2c"
    assert parse_cards(cards_str(cards)) == cards
    assert str(cards[0]) == "A♠"
    assert parse_cards(format_cards(cards)) == cards  # (faces parse back, 10♦ too)


def test_r1_1_deck_has_52_distinct_interned_cards() -> None:
    assert len(DECK) == 52 == len(set(DECK))
    assert [c.index for c in DECK] == list(range(52))
    a = Card(Rank.ACE, Suit.SPADES)
    assert a is parse_card("As")
    assert copy.deepcopy(a) is a
    assert pickle.loads(pickle.dumps(a)) is a


def test_r1_1_seeded_shuffle_is_deterministic_and_unseeded_differs() -> None:
    assert shuffled_deck(7) == shuffled_deck(7)
    assert shuffled_deck(7) != shuffled_deck(8)
    assert sorted(shuffled_deck(), key=lambda c: c.index) == list(DECK)
    # Two CSPRNG shuffles coincide with probability 1/52!.
    assert shuffled_deck() != shuffled_deck()
