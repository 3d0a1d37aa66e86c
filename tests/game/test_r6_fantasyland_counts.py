"""R6.2, R6.4, R6.7: :meth:`HandSetup.check`, the core's gate for every deal (the bot's, a
hand restored from a snapshot, a stacked deck), refuses a Fantasyland hand of a card count
the table's game and options never deal, and accepts every count they do.

It took any count of 13–17 whatever the game: a 17-card Fantasyland in two-player classic
OFC (13 cards there, R6.2), 15 in Pineapple without ``progressive_fantasyland``, 13 in
Pineapple (14 there), or a Fantasyland with the option ``fantasyland`` off (R6.7) or in
Chinese Poker."""

from __future__ import annotations

import itertools

import pytest

from game.board import fantasyland_cards
from game.cards import parse_cards
from game.errors import FantasylandError, GameError
from game.evaluator import evaluate_codes
from game.hand import Hand, HandSetup
from game.options import GameKind, RuleOptions

PINEAPPLE = RuleOptions()
PROGRESSIVE = RuleOptions(progressive_fantasyland=True)
CLASSIC = RuleOptions.preset(GameKind.OFC)


def _strength(text: str) -> int:
    return evaluate_codes([c.code for c in parse_cards(text)])


#: Boxes that earn each kind of Fantasyland (R6.1, R6.2, R6.4), and ones that earn none.
TOPS = [_strength(t) for t in ("Js Jh 2d", "Qs Qh 2d", "Ks Kh 2d", "As Ah 2d", "2s 2h 2d")]
MIDDLES = [_strength(m) for m in ("9s 8h 5d 4c 3s", "Ts Th Td 4c 4s")]
BOTTOMS = [_strength(b) for b in ("As Kh 5d 4c 3s", "9s 9h 9d 9c 3s")]


def _setup(options: RuleOptions, fantasyland: dict[int, int], seats: int = 2) -> HandSetup:
    return HandSetup.deal(options, tuple(range(seats)), seats - 1, fantasyland, seed=5)


@pytest.mark.parametrize("cards", [14, 15, 16, 17])
def test_r6_2_classic_ofc_refuses_a_fantasyland_of_more_than_13_cards(cards: int) -> None:
    """Classic OFC deals 13 cards to a Fantasyland, none discarded (R6.2); the audit's case
    was a 17-card one at two players. The refusal says what the game deals."""
    for seats in (2, 3, 4):
        with pytest.raises(FantasylandError, match=f"of {cards} cards: classic OFC deals 13 "):
            _setup(CLASSIC, {0: cards}, seats)


def test_r6_2_classic_ofc_deals_13_to_every_player_and_double_box_board() -> None:
    """13 cards for one, several or all players (R6.5), the dummy board dealt too (R4.3), and
    for each board of ``heads_up_double_boxes`` (R4.2)."""
    assert Hand(_setup(CLASSIC, {0: 13}, 2)).fantasyland_cards_of(0) == 13
    assert Hand(_setup(CLASSIC, dict.fromkeys(range(4), 13), 4)).fantasyland_cards_of(3) == 13
    dummy = RuleOptions.preset(GameKind.OFC, dummy_box=True)
    assert _setup(dummy, {0: 13, 2: 13}, 3).dummy
    double = RuleOptions.preset(GameKind.OFC, heads_up_double_boxes=True)
    setup = HandSetup.deal(
        double, (0, 1, 10, 11), 11, {1: 13, 10: 13}, seed=5, owners={0: 0, 1: 0, 10: 1, 11: 1}
    )
    assert dict(setup.fantasyland) == {1: 13, 10: 13}
    with pytest.raises(FantasylandError):
        HandSetup.deal(double, (0, 1, 10, 11), 11, {1: 14}, seed=5, owners=setup.owners)


@pytest.mark.parametrize("cards", [13, 15, 16, 17])
def test_r6_2_pineapple_without_progressive_deals_only_14(cards: int) -> None:
    with pytest.raises(
        FantasylandError,
        match=f"of {cards} cards: Pineapple OFC with progressive_fantasyland off deals 14 ",
    ):
        _setup(PINEAPPLE, {1: cards}, 3)
    assert Hand(_setup(PINEAPPLE, {0: 14, 1: 14}, 3)).fantasyland_cards_of(1) == 14


def test_r6_2_progressive_fantasyland_deals_14_to_17_and_nothing_else() -> None:
    """QQ → 14, KK → 15, AA → 16, trips → 17 (R6.2), a stay 14 (R6.4); 13 and 18 never."""
    for cards in (14, 15, 16, 17):
        assert Hand(_setup(PROGRESSIVE, {0: cards}, 3)).fantasyland_cards_of(0) == cards
    hand = Hand(_setup(PROGRESSIVE, {0: 17, 1: 16, 2: 15}, 3))  # 48 of the 52 cards
    assert [hand.fantasyland_cards_of(s) for s in (0, 1, 2)] == [17, 16, 15]
    for cards in (13, 18):
        with pytest.raises(FantasylandError, match=f"of {cards} cards: .* on deals 14–17 "):
            _setup(PROGRESSIVE, {0: cards})


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (RuleOptions(fantasyland=False), r"option fantasyland is off \(R6\.7\)"),
        (RuleOptions.preset(GameKind.OFC, fantasyland=False), "option fantasyland is off"),
        (RuleOptions.preset(GameKind.CHINESE), "Chinese Poker has no Fantasyland"),
        (RuleOptions.preset(GameKind.CHINESE, fantasyland=True), "Chinese Poker has no"),
    ],
)
def test_r6_7_no_fantasyland_hand_with_the_option_off_or_in_chinese_poker(
    options: RuleOptions, says: str
) -> None:
    for cards in (13, 14):
        with pytest.raises(FantasylandError, match=says):
            _setup(options, {0: cards})
    assert not _setup(options, {}).fantasyland  # (an ordinary deal goes on)


def _option_sets() -> list[RuleOptions]:
    out = []
    for game, fl, progressive, stay in itertools.product(
        GameKind, (True, False), (True, False), (True, False)
    ):
        try:
            out.append(
                RuleOptions.preset(
                    game,
                    fantasyland=fl,
                    progressive_fantasyland=progressive,
                    stay_on_full_house_middle=stay,
                )
            )
        except GameError:  # (progressive_fantasyland outside Pineapple is refused, R6.2)
            continue
    return out


def _option_id(o: RuleOptions) -> str:
    flags = ("fantasyland", "progressive_fantasyland", "stay_on_full_house_middle")
    return "-".join([o.game.value, *(f for f in flags if getattr(o, f))])


@pytest.mark.parametrize("options", _option_sets(), ids=_option_id)
def test_r6_2_r6_4_every_count_a_board_earns_is_dealt_and_no_other(
    options: RuleOptions,
) -> None:
    """The counts the check accepts are exactly those :func:`fantasyland_cards` gives a board
    (entry R6.1–R6.2, progressive or not; a stay R6.4, 14 under progressive too), for every
    option combination the options accept; each one is dealt, alone and to every player."""
    earned = {
        fantasyland_cards(top, middle, bottom, options, stay)
        for top, middle, bottom, stay in itertools.product(TOPS, MIDDLES, BOTTOMS, (False, True))
    } - {0}
    assert options.fantasyland_card_counts == earned
    if options.progressive_fantasyland and options.fantasyland:
        assert earned == {14, 15, 16, 17}
        assert fantasyland_cards(TOPS[4], MIDDLES[0], BOTTOMS[0], options, True) == 14
    for cards in range(0, 20):
        if cards in earned:
            players = 2 if cards > 14 or options.game is GameKind.PINEAPPLE else 4
            players = min(players, options.max_players)
            assert _setup(options, {0: cards}).fantasyland == {0: cards}
            assert len(_setup(options, dict.fromkeys(range(players), cards), players).seats)
        else:
            with pytest.raises(FantasylandError):
                _setup(options, {0: cards})


def test_r6_2_a_restored_hand_of_an_impossible_fantasyland_is_refused() -> None:
    """A snapshot's hand goes through the same gate (:meth:`HandSetup.from_json`): one edited
    to a 17-card classic Fantasyland is refused; the hand as dealt is restored."""
    hand = Hand(_setup(CLASSIC, {0: 13}))
    data = hand.to_json()
    assert Hand.from_json(data).fantasyland_cards_of(0) == 13
    data["setup"]["fantasyland"] = {"0": 17}
    with pytest.raises(FantasylandError, match="17 cards: classic OFC deals 13"):
        Hand.from_json(data)
