"""A new user's points (fixnu40b): each test fails without its fix."""

from __future__ import annotations

import time

from bot import render
from game.board import Box
from game.cards import Card
from game.evaluator import made_so_far
from game.names import hand_name
from tests.bot.discord.test_components import table

# -- the board during play reads as the showdown does: sorted, named ----------------------------


def _c(text: str) -> Card:
    return Card.parse(text)


def test_the_private_board_is_sorted_and_named_pending_cards_included() -> None:
    """Street 1, Alice's five cards placed and not confirmed: Q♣ 4♣ 6♦ 4♥ in the bottom,
    J♦ on top. Her board read "Q♣ 4♣ 6♦ 4♥ ·", the order she placed them, with no name;
    it reads "4♥ 4♣ Q♣ 6♦ · — pair of fours", pairs first as the showdown orders a box,
    the pending cards in it (each button's "•" still says where), in her language. The
    group sees none of them before she confirms; after, her open boxes read the same."""
    t = table()
    hand = t.hand
    assert hand is not None
    for text, box in (("Qc", Box.BOTTOM), ("4c", Box.BOTTOM), ("6d", Box.BOTTOM),
                      ("4h", Box.BOTTOM), ("Jd", Box.TOP)):  # fmt: skip
        hand.place(0, _c(text), box)
    screen = render.private_screen(t, t.seats[0], time.time())
    lines = screen.text.splitlines()
    i = lines.index("  J♦ · ·")
    assert lines[i : i + 3] == ["  J♦ · ·", "  · · · · ·", "  4♥ 4♣ Q♣ 6♦ · — pair of fours"]
    marked = [b.label for b in screen.all_buttons() if "•" in b.label]
    assert marked == ["• Bottom", "• Bottom", "• Bottom", "J♦ • Top", "• Bottom"]  # as before
    t.seats[0].lang = "ru"
    ru = render.private_screen(t, t.seats[0], time.time()).text.splitlines()
    assert "  4♥ 4♣ Q♣ 6♦ · — пара четвёрок" in ru
    group = render.group_screen(t, "en", None, time.time()).text
    # not confirmed: the group sees the cards dealt face up, not where they go
    assert "  placing: 4♣ 6♦ 4♥ J♦ Q♣" in group and "pair" not in group
    assert "4♥ 4♣" not in group
    hand.confirm(0)
    group_lines = render.group_screen(t, "en", None, time.time()).text.splitlines()
    assert "  4♥ 4♣ Q♣ 6♦ · — pair of fours" in group_lines
    assert "  J♦ · ·" in group_lines
    ru_group = render.group_screen(t, "ru", None, time.time()).text.splitlines()
    assert "  4♥ 4♣ Q♣ 6♦ · — пара четвёрок" in ru_group


def test_a_full_box_carries_the_showdowns_hand_name() -> None:
    """A Fantasyland hand of 14 set box by box (not confirmed): each full box sorted and
    named as the showdown names it ("A♠ A♥ A♦ A♣ 4♣ — four of a kind, aces"; the top's high
    card too), in English and Russian."""
    t = table({0: 14})
    hand = t.hand
    assert hand is not None
    boxes = {Box.BOTTOM: "4c Ah Ad Ac As", Box.MIDDLE: "Qc Jd 8c Js Qs", Box.TOP: "4h 6d Ts"}
    for box, texts in boxes.items():
        for text in texts.split():
            hand.place(0, _c(text), box)
    en = render.private_screen(t, t.seats[0], time.time()).text.splitlines()
    assert "  10♠ 6♦ 4♥ — ten high" in en
    assert "  Q♠ Q♣ J♠ J♦ 8♣ — two pair, queens and jacks" in en
    assert "  A♠ A♥ A♦ A♣ 4♣ — four of a kind, aces" in en
    t.seats[0].lang = "ru"
    ru = render.private_screen(t, t.seats[0], time.time()).text.splitlines()
    assert "  10♠ 6♦ 4♥ — старшая карта — десятка" in ru
    assert "  Q♠ Q♣ J♠ J♦ 8♣ — две пары, дамы и вальты" in ru
    assert "  A♠ A♥ A♦ A♣ 4♣ — каре тузов" in ru


def test_made_so_far_names_a_made_pair_or_better_and_a_full_box_as_evaluated() -> None:
    """An incomplete box is named once it holds a pair or better (no kickers), else not."""
    cards = [_c(x) for x in "Qc Qd 2c".split()]
    made = made_so_far(cards, 5)
    assert made is not None and hand_name(made, "en") == "pair of queens"
    assert made_so_far([_c("Ac"), _c("Kc"), _c("Qc"), _c("Jc")], 5) is None  # no flush yet
    two = made_so_far([_c(x) for x in "9c 9d 3c 3s".split()], 5)
    assert two is not None and hand_name(two, "en") == "two pair, nines and threes"
    trips = made_so_far([_c(x) for x in "7c 7d 7h".split()], 5)
    assert trips is not None and hand_name(trips, "ru") == "сет семёрок"
    top = made_so_far([_c(x) for x in "Qs 2c 6c".split()], 3)
    assert top is not None and hand_name(top, "en") == "queen high"
