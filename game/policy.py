"""Computer players' decisions (issue 13): what a seat may know, and a placement per level.

A policy sees a :class:`SeatKnowledge` and nothing else: the seat's own board, its cards still
to place on this street, how many it must discard, the cards it knows to be out of the deck
(its own discards and every public card, R3.3) and the rules. :func:`knowledge` builds it from
a :class:`~game.hand.Hand` through the seat's own view, so an opponent's hidden card (a
face-down street not yet revealed, a Fantasyland board before showdown, any discard) can never
reach a decision. :func:`decide` is pure: the same knowledge, level and random source give the
same placement.

Levels:

- ``EASY``: the fast heuristic of :mod:`game.strategy` (no play-outs); the last street of a
  board is still searched exhaustively.
- ``NORMAL``: the heuristic checked by play-outs (:data:`NORMAL_PLAYOUTS` per candidate), as
  ``safe_autoplay`` places (R8.5; "arrange for me" did before it placed as ``STRONG``), and
  the exact expectation over the cards to come when
  the board is finished within two streets (fewer fouls: classic OFC 12 % → 11 %).
- ``STRONG``: in Pineapple with Fantasyland on, the value of partial boards fitted by backward
  induction (:mod:`game.adp`, :data:`STRONG_ADP`): on streets 1–3 the
  :data:`STRONG_ADP_EXPAND` afterstates of highest ``royalties + F × P(Fantasyland) − C ×
  P(foul)`` (:data:`STRONG_ADP_FL`, :data:`STRONG_ADP_FOUL`) are compared again one street
  deeper (the mean over :data:`STRONG_ADP_NEXT` drawn next streets of the best fitted value
  after them), street 4's afterstates exactly over every last street
  (:func:`game.adp.exact_last`, :data:`STRONG_ADP_TAIL`), the last street exactly.
  Elsewhere (classic OFC, Fantasyland off) more play-outs over more candidates than
  ``NORMAL`` (:data:`STRONG_PLAYOUTS`, :data:`STRONG_WIDTH`), and an exact expectation over
  the cards to come when the board is finished within two streets; it goes for Fantasyland
  (R6.1): a board that earns it is worth :data:`STRONG_FANTASYLAND_VALUE` points, the
  play-outs also follow the chasing heuristic of :mod:`game.strategy` (the better of the two
  counts) and a placement that keeps QQ+ on top in reach gets
  :data:`STRONG_KEEP_OPEN` points.

Every level arranges a Fantasyland hand (R6.2) with the exact solver and chooses a
non-fouling completion whenever the cards in hand finish the board and one exists (R2.3).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from game.board import Board, Box
from game.cards import DECK, Card
from game.options import GameKind, RuleOptions
from game.strategy import complete_street

if TYPE_CHECKING:  # a type only: policies never reach a Hand
    from game.hand import Hand

__all__ = [
    "NORMAL_PLAYOUTS",
    "STRONG_ADP",
    "STRONG_ADP_CALIB",
    "STRONG_ADP_CALIB_TABLE",
    "STRONG_ADP_CHANCES",
    "STRONG_ADP_DEEP2",
    "STRONG_ADP_DEEP2_NEXT",
    "STRONG_ADP_DEEP2_TOP",
    "STRONG_ADP_FL",
    "STRONG_ADP_FOUL",
    "STRONG_ADP_REFINE",
    "STRONG_ADP_REFINE_DRAWS",
    "STRONG_ADP_RESID",
    "STRONG_ADP_RESID_TABLE",
    "STRONG_FANTASYLAND_VALUE",
    "STRONG_KEEP_OPEN",
    "STRONG_PLAYOUTS",
    "STRONG_WIDTH",
    "Level",
    "SeatKnowledge",
    "claims",
    "decide",
    "knowledge",
    "unseen",
]

#: Play-outs per candidate placement at ``NORMAL`` (R8.5's safe autoplay; "arrange for me" when
#: the decision process is too slow for the press, :mod:`bot.thinking`).
NORMAL_PLAYOUTS = 12
#: Play-outs per candidate at ``STRONG``.
STRONG_PLAYOUTS = 32
#: Candidate placements compared at ``NORMAL``.
NORMAL_WIDTH = 8
#: Candidate placements compared at ``STRONG``.
STRONG_WIDTH = 16
#: What a finished board that earns Fantasyland (R6.1) is worth at ``STRONG``, in points on
#: top of its royalties: an estimate of one Fantasyland hand (R6.2: 14 cards seen at once,
#: big royalties) against two opponents over an ordinary hand. The lower levels use 9.
STRONG_FANTASYLAND_VALUE = 26.0
#: Points per play-out for a ``STRONG`` placement that keeps QQ+ on top in reach (a lone Q,
#: K or A on top with a slot free, ×1.0/1.1/1.2; a made QQ+ or trips ×2.0, see
#: ``game.strategy._REACH_MADE``): the value of chances the play-outs' heuristics rarely
#: finish.
STRONG_KEEP_OPEN = 5.0
#: 1 (the default): ``STRONG`` places Pineapple streets 1–4 by the value fitted by backward
#: induction (:mod:`game.adp`, ``game/adp_model.json``) when Fantasyland is on (R6.7), instead
#: of its play-outs; 0: the play-outs everywhere. Over three sets of 120 decks it fouled less,
#: entered Fantasyland more and won more points than the play-outs (README's Benchmarks).
STRONG_ADP = 1
#: The knobs of :mod:`game.adp`'s objective with ``STRONG_ADP``: points of a board that earns
#: Fantasyland (R6.1, F) and the cost of a foul (R2.3, C), beside its royalties (R5.6). The
#: model was fitted for F in 10–50 and C in 10–40; F 60 is a mild extrapolation, measured.
STRONG_ADP_FL = 60.0
STRONG_ADP_FOUL = 35.0
#: With ``STRONG_ADP``: how street 4's afterstates are valued: −1 exactly over every last
#: street (:func:`game.adp.exact_last`; since the twelfth session: 0.4 points fewer fouls on
#: each of three sets of decks, Fantasyland within 0.4, street 4 six times cheaper), > 0
#: over that many sampled last streets (80 before), 0 by the fitted V_11; and the best
#: afterstates (``_EXPAND``) of streets 1–3 compared again by one
#: more street of expectimax over ``_NEXT`` drawn streets (0: off). 8 × 24 since 2026-12-01
#: (seventh session): Fantasyland 14 → 18–19 % at the same fouls on three sets of decks,
#: decisions about 0.3 s at most on a quiet machine (README's Benchmarks; 4 × 8: 15.6 %,
#: 16 × 24 and 8 × 48 no better at twice the time).
STRONG_ADP_TAIL = -1
STRONG_ADP_EXPAND = 8
STRONG_ADP_NEXT = 24
#: With ``STRONG_ADP``: > 0 compares only the play-outs' candidates (this many), 0 every
#: legal placement.
STRONG_ADP_WIDTH = 0
#: With ``STRONG_ADP``: > 0 values street 3's look-ahead more exactly: of each drawn street
#: 4, this many best afterstates by the fitted V_11 are valued again over
#: :data:`STRONG_ADP_REFINE_DRAWS` sampled last streets (:func:`game.adp.refined_best`; 0:
#: exactly over every last street, :func:`game.adp.exact_last`).
#: Off: on `bench_strength.py --seed v2` with ``STRONG_ADP_NEXT=48`` it gave more Fantasyland
#: at the same fouls, on the default decks more fouls for the same Fantasyland, and decisions
#: up to 1.2 s (README, issue 13).
STRONG_ADP_REFINE = 0
STRONG_ADP_REFINE_DRAWS = 16
#: With ``STRONG_ADP``: 1 takes the 11-card afterstates' P(Fantasyland) and P(foul) in street
#: 3's look-ahead exactly (:func:`game.adp.last_chances_many`) instead of from the fitted
#: V_11 (whose P(foul) errs by about 0.06 on the boards strong looks at; issue 13, fl14).
#: Off: 17.1 / 8.4 % Fantasyland / fouls against 16.7 / 7.9 % on `bench_strength.py`'s
#: default decks (along the line), decisions about twice as slow on street 3 (README).
STRONG_ADP_CHANCES = 0
#: With ``STRONG_ADP``: > 0 looks one street deeper on street 2 (issue 13, fl19): of each
#: drawn street 3 in its look-ahead, this many best 9-card afterstates by the fitted V_9 are
#: valued again by the mean over :data:`STRONG_ADP_DEEP2_NEXT` drawn street 4s of the best
#: fitted V_11 after them (:func:`game.adp.deeper_best_many`); 0: off (a prototype).
#: Off: on `bench_strength.py`'s default decks (1,080 boards) 1 × 8 gave 15.6 / 8.0 % and
#: 16.0 / 8.1 % Fantasyland / fouls deepening the 2 or 3 best candidates, 15.6 / 8.3 % all 8,
#: against the default's 16.7 / 7.9 %, at 0.2–0.7 s of CPU a street-2 decision
#: (docs/fantasyland-attempts.md, the nineteenth session).
STRONG_ADP_DEEP2 = 0
STRONG_ADP_DEEP2_NEXT = 8
#: With ``STRONG_ADP_DEEP2``: > 0 looks deeper only for this many of the expanded
#: afterstates, the best by the plain look-ahead (``choose``'s ``deep_top``); 0: for all.
STRONG_ADP_DEEP2_TOP = 0
#: With ``STRONG_ADP``: > 0 shifts the value of each class of afterstates on streets 1–3 by
#: this share of :data:`STRONG_ADP_CALIB_TABLE` (``choose``'s ``calib``; issue 13, fl20, a
#: prototype): ``(cards after the street, game.adp.top_class) → (ΔP(Fantasyland), ΔP(foul))``,
#: what strong's own boards got less what its look-ahead predicted for the afterstates it
#: chose (3,000 boards against two easy, decks not of the benches; ``tools/adp_calib.py``).
#: Off: it changed 1 of 90 placements of strong's own play, and on `bench_strength.py`'s
#: default decks gave 16.8 / 7.8 % Fantasyland / fouls against the default's 16.7 / 7.9 %
#: (docs/fantasyland-attempts.md, the twentieth session).
STRONG_ADP_CALIB = 0.0
STRONG_ADP_CALIB_TABLE: dict[tuple[int, str], tuple[float, float]] = {
    # each cell's realized − predicted, shrunk by n / (n + 200) for its n chosen afterstates
    (5, "lone"): (0.001, 0.001),
    (5, "other"): (0.003, 0.005),
    (5, "qq"): (-0.003, 0.0),
    (7, "lone"): (0.023, 0.002),
    (7, "other"): (0.014, -0.005),
    (7, "qq"): (0.029, -0.032),
    (9, "lone"): (0.033, 0.008),
    (9, "other"): (0.017, 0.0),
    (9, "qq"): (0.008, -0.017),
}

#: With ``STRONG_ADP``: > 0 corrects every afterstate's components on streets 1–3 by this
#: share of :data:`STRONG_ADP_RESID_TABLE` (``choose``'s ``correct``; issue 13, fl21, a
#: prototype): per cards after the street, linear weights ``(w_fl, w_foul)`` by name over
#: ``"1"`` and ``game.adp.RESIDUAL_FEATURES`` (a name left out weighs 0), fitted to what
#: strong's own boards got less what its look-ahead predicted for the afterstates it chose
#: (``tools/adp_calib.py --resid``). Off: it changed 7 of 90 placements of strong's own play,
#: and on `bench_strength.py`'s default decks gave 16.1 / 7.6 % Fantasyland / fouls against the
#: default's 16.7 / 7.9 % (docs/fantasyland-attempts.md, the twenty-first session).
STRONG_ADP_RESID = 0.0
STRONG_ADP_RESID_TABLE: dict[int, tuple[dict[str, float], dict[str, float]]] = {
    # ridge (30) on (1, lone_live, bot_open) per cards after the street: the two features
    # whose signal held in both halves of 3,735 boards (docs/fantasyland-attempts.md, the
    # twenty-first session); ΔP(Fantasyland), ΔP(foul)
    5: (
        {"1": 0.0099, "lone_live": -0.026, "bot_open": 0.0098},
        {"1": 0.0361, "lone_live": -0.0041, "bot_open": -0.0707},
    ),
    7: (
        {"1": 0.0296, "lone_live": 0.0139, "bot_open": -0.0341},
        {"1": -0.0003, "lone_live": -0.0054, "bot_open": -0.0093},
    ),
    9: (
        {"1": 0.0335, "lone_live": 0.0235, "bot_open": -0.0448},
        {"1": -0.0077, "lone_live": 0.0344, "bot_open": -0.0028},
    ),
}


class Level(Enum):
    """How hard a computer player thinks; ``value`` is the name players type (``/addbot``)."""

    EASY = "easy"
    NORMAL = "normal"
    STRONG = "strong"


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """Everything a seat may know when it is to act, and nothing more (R3.3).

    :ivar board: its own board, this street's placements included.
    :ivar cards: its cards still to place this street, in the order received.
    :ivar discards_needed: how many of ``cards`` it must discard (R3.2).
    :ivar dead: cards it knows are out of the deck: its own discards and every public card
        (its own board's too). Never an opponent's hidden card or discard.
    :ivar fantasyland_cards: 0, or the size of its Fantasyland hand (R6.2).
    :ivar options: the table's rules.
    """

    board: Board
    cards: tuple[Card, ...]
    discards_needed: int
    dead: frozenset[Card]
    fantasyland_cards: int
    options: RuleOptions


def knowledge(hand: Hand, seat: int, *, dead: bool = True) -> SeatKnowledge:
    """What ``seat`` may know of ``hand`` now: its own board (with this street's placements),
    its cards still to place, its discards and the cards the table shows
    (:meth:`Hand.public_cards`, the same as its view's), which leave out others' hidden cards,
    Fantasyland boards before showdown and every discard (R3.3, R6.3).

    :param dead: ``False`` leaves :attr:`SeatKnowledge.dead` empty (less than the seat may
        know, never more): for the fast heuristic, which reads no dead card.
    :raises NotYourTurn: for a seat not dealt in.
    """
    out = (
        frozenset(hand.discards_of(seat)) | frozenset(hand.public_cards()) if dead else frozenset()
    )
    return SeatKnowledge(
        board=hand.board_of(seat, with_pending=True),
        cards=hand.to_place(seat),
        discards_needed=hand.discards_needed(seat),
        dead=out,
        fantasyland_cards=hand.fantasyland_cards_of(seat),
        options=hand.options,
    )


def unseen(k: SeatKnowledge) -> list[Card]:
    """The cards the seat cannot see (the deck its play-outs draw from), in deck order."""
    known = set(k.board.cards()) | set(k.cards) | k.dead
    return [c for c in DECK if c not in known]


def decide(
    k: SeatKnowledge, level: Level, rng: random.Random | None = None
) -> list[tuple[Card, Box | None]]:
    """Place the seat's cards of this street at ``level``.

    Reads only ``k``. The play-outs draw the cards to come from :func:`unseen` ``(k)``.

    :param rng: the random source of the play-outs (one draw from it seeds them); ``None``:
        a seed derived from the cards, so the same knowledge gives the same placement.
    :returns: ``(card, box)`` per card of ``k.cards``, box ``None`` for a discard, in the
        same shape as :meth:`Hand.suggest`; empty when there is nothing to place.
    """
    if level is Level.EASY:
        return play(k, 0, rng=rng)
    if level is Level.NORMAL:
        return play(k, NORMAL_PLAYOUTS, exact_tail=True, rng=rng)
    if (
        STRONG_ADP
        and k.cards
        and not k.fantasyland_cards
        and k.options.game is GameKind.PINEAPPLE
        and k.options.fantasyland  # the model values Fantasyland (F ≥ 10): not without it
    ):
        from game import adp  # the model file is read on first use

        if adp.MODEL is not None:
            moves = adp.choose(
                adp.MODEL,
                k.board,
                k.cards,
                k.discards_needed,
                k.dead,
                k.options,
                STRONG_ADP_FL,
                STRONG_ADP_FOUL,
                tail_draws=STRONG_ADP_TAIL,
                expand=STRONG_ADP_EXPAND,
                next_streets=STRONG_ADP_NEXT,
                width=STRONG_ADP_WIDTH,
                refine=STRONG_ADP_REFINE,
                refine_draws=STRONG_ADP_REFINE_DRAWS,
                chances=bool(STRONG_ADP_CHANCES),
                deep=STRONG_ADP_DEEP2,
                deep_next=STRONG_ADP_DEEP2_NEXT,
                deep_top=STRONG_ADP_DEEP2_TOP,
                calib={
                    key: (STRONG_ADP_CALIB * d_fl, STRONG_ADP_CALIB * d_foul)
                    for key, (d_fl, d_foul) in STRONG_ADP_CALIB_TABLE.items()
                }
                if STRONG_ADP_CALIB
                else None,
                correct={
                    n: (
                        {k: STRONG_ADP_RESID * w for k, w in w_fl.items()},
                        {k: STRONG_ADP_RESID * w for k, w in w_foul.items()},
                    )
                    for n, (w_fl, w_foul) in STRONG_ADP_RESID_TABLE.items()
                }
                if STRONG_ADP_RESID
                else None,
            )
            if moves is not None:
                return moves
    return play(
        k,
        STRONG_PLAYOUTS,
        width=STRONG_WIDTH,
        exact_tail=True,
        fantasyland_value=STRONG_FANTASYLAND_VALUE,
        chase=True,
        keep_open=STRONG_KEEP_OPEN,
        rng=rng,
    )


def play(
    k: SeatKnowledge,
    playouts: int,
    *,
    width: int = NORMAL_WIDTH,
    exact_tail: bool = False,
    fantasyland_value: float = 9.0,
    chase: bool = False,
    keep_open: float = 0.0,
    rng: random.Random | None = None,
) -> list[tuple[Card, Box | None]]:
    """:func:`decide` with its settings spelled out: ``playouts`` per candidate (0: the fast
    heuristic), ``width`` candidates, ``exact_tail``, ``fantasyland_value``, ``chase`` and
    ``keep_open`` (see :func:`game.strategy.complete_street`).
    """
    if not k.cards:
        return []
    return complete_street(
        k.board,
        k.cards,
        k.discards_needed,
        fantasyland_cards=k.fantasyland_cards,
        options=k.options,
        lookahead=playouts,
        dead=k.dead,
        width=width,
        exact_tail=exact_tail,
        seed=None if rng is None else rng.getrandbits(64),
        fantasyland_value=fantasyland_value,
        chase=chase,
        keep_open=keep_open,
    )


def claims(totals: Mapping[int, int], seat: int) -> bool:
    """Whether a computer player offered the claim (R7.5, «Доезд») takes it: when it leads the
    game, more points than every other player (the game is then settled on the difference
    of points, R7.6, each opponent paying it); otherwise it continues, hoping to catch up.

    :param totals: seat → points of the game so far (:attr:`game.chinese.ChineseGame.totals`).
    :param seat: the computer player's seat (one of the claimants).
    """
    mine = totals.get(seat, 0)
    return all(p < mine for s, p in totals.items() if s != seat)
