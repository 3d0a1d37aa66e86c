"""Rules as the service shows them (break-it round 23): a progressive Fantasyland hand of 15–17
cards discards 2–4 (R6.2), and the player's screen says how many."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import game.hand
from bot.service import TableService
from game.board import assess_board
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street, configure, start


def grant(monkeypatch: pytest.MonkeyPatch, cards: Iterator[int]) -> None:
    """The next boards judged at showdowns (in the hand's order) earn a Fantasyland of the
    number of cards ``cards`` yields (0: none), when they are not fouled: the deal is random."""

    def judged(board, options, in_fantasyland=False):  # type: ignore[no-untyped-def]
        real = assess_board(board, options, in_fantasyland)
        n = next(cards, 0)
        return real._replace(fantasyland_cards=n) if n and not real.fouled else real

    monkeypatch.setattr(game.hand, "assess_board", judged)


async def fantasyland_screen(
    monkeypatch: pytest.MonkeyPatch, cards: int
) -> tuple[TableService, FakePresenter, str]:
    """Heads-up progressive Pineapple: the first hand's first board earns a Fantasyland of
    ``cards`` cards; the text of that player's screen when they arrange it."""
    service, presenter, _store, _clock = service_env()
    await configure(service, game="pineapple", progressive_fantasyland="on")
    grant(monkeypatch, iter([cards, 0, 0, 0]))
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    guard = 0
    while t.hand_no == 1 and guard < 30:
        guard += 1
        player = t.player_of(t.hand.to_act[0])  # type: ignore[union-attr]
        assert player is not None
        await auto_street(service, presenter, by_id[player.user_id])
    hand = t.hand
    assert t.hand_no == 2 and hand is not None
    (fl_seat,) = [s for s in hand.order if hand.is_fantasyland(s)]
    assert hand.fantasyland_cards_of(fl_seat) == cards
    guard = 0
    while fl_seat not in hand.to_act and guard < 30:  # the other plays their streets first
        guard += 1
        player = t.player_of(hand.to_act[0])
        assert player is not None
        await auto_street(service, presenter, by_id[player.user_id])
    player = t.player_of(fl_seat)
    assert player is not None
    assert hand.discards_needed(fl_seat) == cards - 13
    return service, presenter, service.rt.render_private(t, player).text


@pytest.mark.parametrize("cards", [15, 16, 17])
async def test_r6_2_a_progressive_fantasyland_screen_names_every_card_it_discards(
    monkeypatch: pytest.MonkeyPatch, cards: int
) -> None:
    """R6.2: a Fantasyland of 15, 16 or 17 cards keeps 13 and discards 2, 3 or 4: the screen
    said "the card left over is discarded", as if one card went."""
    _service, _presenter, text = await fantasyland_screen(monkeypatch, cards)
    n = cards - 13
    assert f"the {n} cards left over are discarded" in text, text
    assert "the card left over" not in text


async def test_r6_2_a_fourteen_card_fantasyland_screen_names_its_one_discard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _service, _presenter, text = await fantasyland_screen(monkeypatch, 14)
    assert "(the card left over is discarded)" in text, text


@pytest.mark.parametrize("simultaneous", ["off", "on"])
async def test_r6_3_r4_2_bob_plays_both_boards_hidden_beside_alices_two_fantasylands(
    monkeypatch: pytest.MonkeyPatch, simultaneous: str
) -> None:
    """Heads-up double boxes (R4.2): both of Alice's boards earn Fantasyland, so in the next
    hand every player but Bob is in Fantasyland and all play at once (R6.3): Bob's boards
    stay hidden from Alice and the group until showdown, and the hand plays through the
    service to its showdown with no card shown to whoever must not see it."""
    from tests.bot.test_break13 import grant_fantasyland
    from tests.bot.test_break15 import play_until, watched

    service, w, _store, clock = watched()
    await configure(
        service, game="ofc", heads_up_double_boxes="on", simultaneous_streets=simultaneous
    )
    grant_fantasyland(monkeypatch, iter([True, True, False, False]))
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert t.hand.order == (0, 1, 10, 11)  # Alice's boards first (Bob has the button)
    w.table = t
    await play_until(service, w, clock, 1)
    hand = t.hand
    assert t.hand_no == 2 and hand is not None
    assert [hand.is_fantasyland(s) for s in hand.order] == [False, False, True, True]
    assert set(hand.to_act) == {0, 1, 10, 11}  # all at once (R6.3)
    bob = [s for s in hand.order if not hand.is_fantasyland(s)]
    assert all(hand.view(None).seat(s).closed for s in bob)
    await play_until(service, w, clock, 2)
    assert 2 in w.fantasyland_hands and w.closed_hidden > 0
    assert w.leaks == []
