"""The value fitted by backward induction (issue 13, :mod:`game.adp`): its features read only
what the seat knows (R3.3), its inference is deterministic and pure Python, and its targets
(R6.1 Fantasyland, R2.3 fouls, R5.6 royalties) are computed right on tiny cases."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Collection, Sequence
from itertools import combinations, permutations
from pathlib import Path

import pytest

import game.policy
from game import adp
from game.actions import Arrange
from game.board import BOXES, Board, Box, assess_board
from game.cards import DECK, Card, parse_cards, shuffled_deck
from game.hand import Hand, HandSetup
from game.options import RuleOptions
from game.policy import Level, decide, knowledge

PINEAPPLE = RuleOptions()
F, C = 30.0, 20.0


def _outcome(board: Board) -> tuple[float, float, float]:
    """A finished board's (FL, foul, royalties + strength term), from ``assess_board``."""
    a = assess_board(board, PINEAPPLE)
    if a.fouled:
        return 0.0, 1.0, 0.0
    cats = sum(s >> 20 for s in a.strengths)
    fl = 1.0 if a.fantasyland_cards else 0.0
    return fl, 0.0, a.royalty_total + adp.STRENGTH_WEIGHT * cats


def _objective(o: tuple[float, float, float]) -> float:
    return o[2] + F * o[0] - C * o[1]


def _finishes(board: Board, cards: Sequence[Card]) -> list[Board]:
    """Every way to finish ``board`` with some of ``cards`` (brute force)."""
    slots = [b for b in BOXES for _ in range(board.free(b))]
    out = []
    for kept in combinations(cards, len(slots)):
        for order in permutations(slots):
            cur = board
            for c, b in zip(kept, order, strict=True):
                cur = cur.with_card(b, c)
            out.append(cur)
    return out


def _brute_last(board: Board, unseen: Collection[Card]) -> tuple[float, float, float]:
    """E over every 3-card last street of the best finish's outcome, by brute force."""
    outs = []
    for draw in combinations(sorted(unseen, key=lambda c: c.index), 3):
        outs.append(max((_outcome(b) for b in _finishes(board, draw)), key=_objective))
    return tuple(sum(o[j] for o in outs) / len(outs) for j in range(3))  # type: ignore[return-value]


def _dead_but(board: Board, keep: Collection[Card]) -> frozenset[Card]:
    on = set(board.cards())
    return frozenset(c for c in DECK if c not in on and c not in keep)


def test_r6_1_r2_3_the_last_street_target_is_the_exact_expectation_on_a_tiny_deck() -> None:
    # QQ on top, a middle that must beat it: the 4 unseen cards decide Fantasyland or a foul
    board = Board(parse_cards("Qh Qd"), parse_cards("Kc Kd 5s 6s"), parse_cards("Ah Ad 9c 9d 2h"))
    unseen = parse_cards("Ks 7h 3c Qs")
    draws = list(combinations(unseen, 3))
    got = adp.last_street_target(board, draws, PINEAPPLE, F, C)
    want = _brute_last(board, unseen)
    assert got == pytest.approx(want)
    # every draw has a king or a queen: kings up keep FL, the queens' trips on top foul or not
    assert got[0] > 0.5


def test_r2_3_r6_1_best_finish_is_the_best_of_every_finish_on_random_boards() -> None:
    # best_finish works on card codes, not Boards: the same value, outcome and a placement
    # that makes it, against every finish built with Board.with_card and assess_board
    rng = random.Random(13)
    for _ in range(150):
        deck = shuffled_deck(rng=rng)
        free = rng.choice([(0, 1, 1), (1, 0, 1), (1, 1, 0), (2, 0, 0), (0, 0, 2), (0, 2, 0)])
        board = Board(
            tuple(deck[: 3 - free[0]]),
            tuple(deck[3 : 8 - free[1]]),
            tuple(deck[8 : 13 - free[2]]),
        )
        cards = deck[20:23]
        value, outcome, placement = adp.best_finish(board, cards, 2, PINEAPPLE, F, C)
        want = max((_outcome(b) for b in _finishes(board, cards)), key=_objective)
        assert value == pytest.approx(_objective(want))
        assert outcome == pytest.approx(want)
        assert [c for c, _ in placement] == list(cards)
        made = board
        for c, b in placement:
            if b is not None:
                made = made.with_card(b, c)
        assert made.is_complete and sum(b is None for _, b in placement) == 1
        assert _outcome(made) == pytest.approx(want)


def test_r2_3_the_last_street_target_counts_an_unavoidable_foul() -> None:
    # trips on top over a weak middle: every finish fouls, whatever comes
    board = Board(parse_cards("Ah Ad"), parse_cards("2c 3d 4s 6s"), parse_cards("Kh Kd 9c 9d 2h"))
    unseen = parse_cards("7h 8c Tc 5d")
    got = adp.last_street_target(board, combinations(unseen, 3), PINEAPPLE, F, C)
    assert got == pytest.approx((0.0, 1.0, 0.0))


def test_r6_1_the_next_street_target_is_the_mean_of_the_best_afterstate() -> None:
    # V_9 from an exact V_11 on a deck of 6 unseen cards: every next street, every placement,
    # every last street, by brute force
    board = Board(parse_cards("Qh 4c"), parse_cards("Kc Kd 5s"), parse_cards("Ah Ad 9c 9d"))
    unseen = parse_cards("Qs Ks 7h 3c 8d Jc")
    dead = _dead_but(board, unseen)

    def exact(after: Board, known: frozenset[Card]) -> tuple[float, float, float]:
        left = [c for c in unseen if c not in known and c not in set(after.cards())]
        return _brute_last(after, left)

    streets = [(list(s), ()) for s in combinations(unseen, 3)]
    got = adp.next_street_target(board, dead, streets, lambda ps: [exact(*p) for p in ps], F, C)
    want = [0.0, 0.0, 0.0]
    for street, _ in streets:
        best = None
        for thrown in street:
            kept = [c for c in street if c is not thrown]
            for b1 in BOXES:
                for b2 in BOXES:
                    if board.free(b1) < 1 or board.free(b2) < 1 + (b1 is b2):
                        continue
                    after = board.with_card(b1, kept[0]).with_card(b2, kept[1])
                    left = [c for c in unseen if c not in street]
                    o = _brute_last(after, left)
                    if best is None or _objective(o) > _objective(best):
                        best = o
        assert best is not None
        want = [w + b / len(streets) for w, b in zip(want, best, strict=True)]
    assert got == pytest.approx(tuple(want))


def test_afterstates_are_every_legal_placement_once() -> None:
    board = Board(parse_cards("Qh 4c"), parse_cards("Kc Kd 5s 6s"), parse_cards("Ah Ad 9c"))
    cards = parse_cards("2c 3d 7h")
    got = adp.afterstates(board, cards, 1)
    # top 1 free, middle 1 free, bottom 2 free: per discard, kept pair to (t,m) (m,t) (t,b)
    # (b,t) (m,b) (b,m) (b,b) = 7 ways
    assert len(got) == 3 * 7
    for placement, after, thrown in got:
        assert after.count == board.count + 2
        assert [c for c, b in placement if b is None] == list(thrown)
    assert len({a for _, a, _ in got}) == len(got)


def test_features_read_only_the_board_and_the_dead_cards() -> None:
    board = Board(parse_cards("Qh"), parse_cards("Kc Kd"), parse_cards("Ah Ad"))
    dead = parse_cards("Qs Qc 8d")
    f = adp.features(board, dead)
    assert len(f) == len(adp.FEATURES)
    assert f == adp.features(board, list(reversed(dead)))
    # two queens dead: fewer outs to pair the lone queen on top
    assert (
        f[adp.FEATURES.index("t_lone_outs")]
        < adp.features(board)[adp.FEATURES.index("t_lone_outs")]
    )


needs_model = pytest.mark.skipif(adp.MODEL is None, reason="no game/adp_model.json")


@needs_model
def test_inference_is_deterministic_and_matches_a_plain_forward_pass() -> None:
    model = adp.MODEL
    assert model is not None
    board = Board(parse_cards("Kh"), parse_cards("Jc Jd 5s"), parse_cards("Ah 9d"))
    dead = parse_cards("2c 3c")
    for n, net in model.nets.items():
        assert n in (5, 7, 9, 11)
        x = [*adp.features(board, dead), F / 50, C / 50]
        z = [(a - m) / s for a, m, s in zip(x, net.mean, net.scale, strict=True)]
        h = [max(0.0, b + sum(w * v for w, v in zip(row, z, strict=True)))
             for row, b in zip(net.w1, net.b1, strict=True)]  # fmt: skip
        o = [b + sum(w * v for w, v in zip(row, h, strict=True))
             for row, b in zip(net.w2, net.b2, strict=True)]  # fmt: skip
        got = net.run(x)
        assert got == net.run(x)
        assert got[2] == pytest.approx(o[2])
        assert got[0] == pytest.approx(1 / (1 + math.exp(-o[0])))
        assert got[1] == pytest.approx(1 / (1 + math.exp(-o[1])))
        assert 0.0 <= got[0] <= 1.0 and 0.0 <= got[1] <= 1.0


@needs_model
def test_many_boards_at_once_give_what_one_at_a_time_gives() -> None:
    # the batched evaluation (one matrix product per board size) against one board at a time
    model = adp.MODEL
    assert model is not None
    boards = [
        (Board(parse_cards("Kh"), parse_cards("Jc Jd"), parse_cards("Ah 9d")), parse_cards("2c")),
        (Board(parse_cards("Qh 4c"), parse_cards("Kc Kd 5s"), parse_cards("Ah Ad")), ()),
        (
            Board(parse_cards("Kh"), parse_cards("Jc Jd 5s"), parse_cards("Ah 9d 2d")),
            parse_cards("3c"),
        ),
        (
            Board(parse_cards("Qs"), parse_cards("7c 8c 9c 3d"), parse_cards("Ah Ad 9d Td")),
            parse_cards("2c"),
        ),
    ]
    many = model.components_many(boards, F, C)
    assert [b.count for b, _ in boards] == [5, 7, 7, 9]
    for (board, dead), got in zip(boards, many, strict=True):
        assert got == pytest.approx(model.components(board, dead, F, C))
    assert model.values(boards, F, C) == pytest.approx([model.value(b, d, F, C) for b, d in boards])
    assert many[1] != many[2]  # not one row repeated


@needs_model
def test_r3_3_strong_with_the_fitted_value_reads_only_what_the_seat_knows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(game.policy, "STRONG_ADP", 1)
    # the fitted value's own reading (one street deeper, the drawn streets join the dead
    # cards: the test below)
    monkeypatch.setattr(game.policy, "STRONG_ADP_EXPAND", 0)
    seen: list[tuple[Board, frozenset[Card]]] = []
    real = adp.features

    def spy(board: Board, dead: Collection[Card] = ()) -> list[float]:
        seen.append((board, frozenset(dead)))
        return real(board, dead)

    monkeypatch.setattr(adp, "features", spy)
    rng = random.Random(5)
    hand = Hand(HandSetup.deal(PINEAPPLE, (0, 1, 2), 2, deck=shuffled_deck(rng=rng)))
    decisions = 0
    while not hand.is_over:
        seat = hand.to_act[0]
        k = knowledge(hand, seat)
        seen.clear()
        level = Level.STRONG if seat == 0 else Level.EASY
        moves = decide(k, level, rng)
        if seat == 0:
            allowed = set(k.dead) | set(k.board.cards()) | set(k.cards)
            for after, dead in seen:
                assert dead <= allowed
                assert not dead & set(after.cards())  # a placed card is not counted twice
                # of this street's cards, exactly the ones thrown in that afterstate are out
                assert dead & set(k.cards) == set(k.cards) - set(after.cards())
            decisions += bool(seen)
            assert decide(k, level, random.Random(1)) == moves  # deterministic
        hand.apply(Arrange(seat, tuple(moves)))
    # streets 1-3 by the fitted value; street 4 by sampled last streets, the last exactly
    assert decisions == 3
    result = hand.result
    assert result is not None


@needs_model
def test_r2_3_strong_with_the_fitted_value_never_fouls_an_avoidable_last_street(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(game.policy, "STRONG_ADP", 1)
    board = Board(parse_cards("Qh Qd"), parse_cards("Kc Kd 5s 6s"), parse_cards("Ah Ad 9c 9d 2h"))
    k = game.policy.SeatKnowledge(
        board=board,
        cards=parse_cards("3c 4d Ks"),
        discards_needed=1,
        dead=frozenset(),
        fantasyland_cards=0,
        options=PINEAPPLE,
    )
    moves = decide(k, Level.STRONG)
    final = board
    for c, b in moves:
        if b is not None:
            final = final.with_card(b, c)
    a = assess_board(final, PINEAPPLE)
    # K♠ to the middle would make trips over the bottom's two pair: a foul; KK stays
    assert not a.fouled and a.fantasyland_cards
    assert (parse_cards("Ks")[0], Box.MIDDLE) not in moves


def _street_two(options: RuleOptions) -> game.policy.SeatKnowledge:
    """Seat 0's knowledge on street 2 of a seeded three-player hand (R3.2)."""
    hand = Hand(HandSetup.deal(options, (0, 1, 2), 2, deck=shuffled_deck(rng=random.Random(8))))
    while True:
        seat = hand.to_act[0]
        k = knowledge(hand, seat)
        if seat == 0 and k.board.count == 5:
            return k
        hand.apply(Arrange(seat, tuple(decide(k, Level.EASY))))


@needs_model
def test_r6_1_strong_places_by_the_fitted_value_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[float, float]] = []
    real = adp.choose

    def spy(*args: object, **kwargs: object) -> object:
        calls.append((args[6], args[7]))  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(adp, "choose", spy)
    k = _street_two(PINEAPPLE)
    moves = decide(k, Level.STRONG)
    assert calls == [(game.policy.STRONG_ADP_FL, game.policy.STRONG_ADP_FOUL)]
    assert moves == real(
        adp.MODEL,  # type: ignore[arg-type]
        k.board,
        k.cards,
        k.discards_needed,
        k.dead,
        k.options,
        game.policy.STRONG_ADP_FL,
        game.policy.STRONG_ADP_FOUL,
        tail_draws=game.policy.STRONG_ADP_TAIL,
        expand=game.policy.STRONG_ADP_EXPAND,
        next_streets=game.policy.STRONG_ADP_NEXT,
    )
    assert game.policy.STRONG_ADP_EXPAND and game.policy.STRONG_ADP_NEXT  # one street deeper
    assert sum(b is None for _, b in moves) == 1  # one of three discarded (R3.2)


@needs_model
def test_r6_7_without_fantasyland_strong_plays_out_instead_of_the_fitted_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the fitted value prices Fantasyland, which is off")

    monkeypatch.setattr(adp, "choose", refuse)
    k = _street_two(RuleOptions(fantasyland=False))
    moves = decide(k, Level.STRONG)
    assert sorted(c.index for c, _ in moves) == sorted(c.index for c in k.cards)
    assert sum(b is None for _, b in moves) == 1


@needs_model
def test_r3_2_expand_compares_the_best_afterstates_again_one_street_deeper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # choose(expand=E): the E afterstates of highest fitted value, and only those, are valued
    # again by next_street_target (checked against brute force above); the best of those wins
    k = _street_two(PINEAPPLE)
    model = adp.MODEL
    assert model is not None
    options = adp.afterstates(k.board, k.cards, k.discards_needed)
    on_board = set(k.board.cards())
    known = frozenset(c for c in k.dead if c not in on_board)  # as choose reads them (R3.3)
    fitted = model.values(
        [(after, known | frozenset(thrown)) for _, after, thrown in options], F, C
    )
    ranked = sorted(range(len(options)), key=lambda i: (-fitted[i], i))
    top = [options[i][1] for i in ranked[:4]]
    favourite = top[2]  # the third by the fitted value wins one street deeper
    valued: list[Board] = []

    def deeper(board: Board, dead: object, streets: list[object], *rest: object) -> tuple:  # type: ignore[type-arg]
        valued.append(board)
        assert len(streets) == 8
        return (1.0, 0.0, 0.0) if board == favourite else (0.0, 0.0, 0.0)

    monkeypatch.setattr(adp, "next_street_target", deeper)
    moves = adp.choose(
        model, k.board, k.cards, 1, k.dead, PINEAPPLE, F, C, expand=4, next_streets=8
    )
    assert sorted(map(str, valued)) == sorted(map(str, top))
    got = k.board
    for c, b in moves:
        if b is not None:
            got = got.with_card(b, c)
    assert got == favourite
    assert favourite != top[0]
    # without expand, the best by the fitted value
    plain = adp.choose(model, k.board, k.cards, 1, k.dead, PINEAPPLE, F, C)
    got = k.board
    for c, b in plain:
        if b is not None:
            got = got.with_card(b, c)
    assert got == top[0]


@needs_model
def test_r3_3_one_street_deeper_draws_only_cards_the_seat_does_not_know(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # strong's expectimax (the default) draws the next streets and the opponents' next open
    # cards from the cards the seat has not seen: never one it knows, and the same draws
    # whatever the hidden cards are (a decision is a function of the seat's knowledge)
    assert game.policy.STRONG_ADP_EXPAND > 0
    drawn: list[list[tuple[Sequence[Card], Sequence[Card]]]] = []
    real = adp.next_street_target

    def spy(board: Board, dead: Collection[Card], streets: object, *rest: object) -> object:
        drawn.append(list(streets))  # type: ignore[call-overload]
        return real(board, dead, drawn[-1], *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(adp, "next_street_target", spy)
    k = _street_two(PINEAPPLE)
    known = set(k.dead) | set(k.board.cards()) | set(k.cards)
    moves = decide(k, Level.STRONG)
    assert len(drawn) == game.policy.STRONG_ADP_EXPAND
    for streets in drawn:
        assert len(streets) == game.policy.STRONG_ADP_NEXT
        for cards, opp in streets:
            assert len(cards) == 3 and len(opp) == 4
            assert not (set(cards) | set(opp)) & known
    assert drawn[0] == drawn[-1]  # the same draws for every candidate
    first = drawn[:]
    drawn.clear()
    assert decide(k, Level.STRONG) == moves and drawn == first


@needs_model
def _street_four(
    model: adp.AdpModel,
) -> tuple[list[tuple[Board, frozenset[Card]]], list[tuple[float, float, float]], list[int]]:
    """One drawn street 4's 11-card afterstates with their dead cards (a lone queen on top
    paired by the street), their fitted components, and their indices best first."""
    board = Board(parse_cards("Qs 7d"), parse_cards("5d 5c 9h"), parse_cards("Kc Kd 8s 4h"))
    dead = frozenset(parse_cards("Ac Ad 3s 3h"))
    pairs = [
        (after, dead | frozenset(thrown))
        for _p, after, thrown in adp.afterstates(board, parse_cards("Qh 9c 2s"), 1)
    ]
    got = model.components_many(pairs, F, C)
    ranked = sorted(range(len(pairs)), key=lambda j: (-adp.objective(got[j], F, C), j))
    return pairs, got, ranked


def test_r6_1_refined_best_values_the_fitted_best_again_over_sampled_last_streets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # street 3's look-ahead with refine: of one drawn street 4's 11-card afterstates, the
    # `best` of highest fitted value (and only those) are valued over sampled last streets
    # (R6.1 Fantasyland, R2.3 fouls) that avoid every card on the board or dead; the one of
    # highest objective by those values is what counts, not the fitted favourite
    model = adp.MODEL
    assert model is not None
    pairs, got, ranked = _street_four(model)
    valued: list[tuple[Board, list[Sequence[Card]], tuple[float, float, float]]] = []
    real = adp.last_street_target

    def spy(b: Board, draws: object, *rest: object) -> tuple[float, float, float]:
        tails = list(draws)  # type: ignore[call-overload]
        o = real(b, tails, *rest)  # type: ignore[arg-type]
        valued.append((b, tails, o))
        return o

    monkeypatch.setattr(adp, "last_street_target", spy)
    out = adp.refined_best(pairs, got, 3, 12, PINEAPPLE, F, C, seed=7)
    assert [b for b, _, _ in valued] == [pairs[j][0] for j in ranked[:3]]
    for (b, tails, _o), j in zip(valued, ranked[:3], strict=True):
        assert 0 < len(tails) <= 12
        taken = set(b.cards()) | pairs[j][1]
        assert all(len(t) == 3 and not taken.intersection(t) for t in tails)
    assert out == max((o for _, _, o in valued), key=lambda o: adp.objective(o, F, C))
    # best=1: the fitted favourite, valued by its last streets instead of its fitted value
    valued.clear()
    one = adp.refined_best(pairs, got, 1, 12, PINEAPPLE, F, C, seed=7)
    assert [b for b, _, _ in valued] == [pairs[ranked[0]][0]] and one == valued[0][2]
    assert one != got[ranked[0]]
    with pytest.raises(ValueError):
        adp.refined_best([], [], 1, 12, PINEAPPLE, F, C, seed=7)


_SLOTS = [(0, 1, 1), (1, 0, 1), (1, 1, 0), (2, 0, 0), (0, 2, 0), (0, 0, 2)]


def _eleven(deck: Sequence[Card], free: tuple[int, int, int]) -> Board:
    """An 11-card board from ``deck``'s first cards, the weakest on top (fewer fouls)."""
    cards = sorted(deck[:11], key=lambda c: c.index)
    t, m = 3 - free[0], 5 - free[1]
    return Board(tuple(cards[:t]), tuple(cards[t : t + m]), tuple(cards[t + m :]))


def test_r6_1_r2_3_exact_last_is_the_brute_force_expectation_over_every_last_street() -> None:
    # every pattern of the two open slots (one box twice, or two boxes), a made QQ top that
    # enters Fantasyland (R6.1) or fouls (R2.3), royalties (R5.6): against the brute force
    # over Board.with_card and assess_board, on small unseen sets
    rng = random.Random(21)
    cases = [
        (
            Board(parse_cards("Qh Qd"), parse_cards("Kc Kd 5s 6s"), parse_cards("Ah Ad 9c 9d 2h")),
            parse_cards("Ks 7h 3c Qs 8d 4c Jh"),
        )
    ]
    for i in range(18):
        deck = shuffled_deck(rng=rng)
        cases.append((_eleven(deck, _SLOTS[i % 6]), tuple(deck[11 : 11 + rng.randint(5, 9)])))
    fl_seen = False
    for board, unseen in cases:
        want = _brute_last(board, unseen)
        got = adp.exact_last(board, _dead_but(board, unseen), PINEAPPLE, F, C)
        assert got == pytest.approx(want, abs=1e-12)
        fl_seen = fl_seen or got[0] > 0
    assert fl_seen


def test_r6_1_exact_last_matches_the_last_street_target_over_all_draws_on_real_deals() -> None:
    # unseen sets of a real 3-handed street 5 (18–24 cards): the same as last_street_target
    # over every 3 of them, at both ends of the knobs
    rng = random.Random(5)
    for i in range(24):
        deck = shuffled_deck(rng=rng)
        board = _eleven(deck, _SLOTS[i % 6])
        dead = frozenset(deck[11 : 11 + rng.randint(10, 16)])
        unseen = [c for c in DECK if c not in dead and c not in board.cards()]
        for fl, foul in ((F, C), (60.0, 35.0)):
            got = adp.exact_last(board, dead, PINEAPPLE, fl, foul)
            want = adp.last_street_target(board, combinations(unseen, 3), PINEAPPLE, fl, foul)
            assert got == pytest.approx(want, abs=1e-12)
    with pytest.raises(ValueError):
        adp.exact_last(Board(parse_cards("Qh Qd")), (), PINEAPPLE, F, C)


def test_r6_1_refined_best_with_no_draws_values_the_best_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # refine_draws 0: the `best` fitted favourites are valued by exact_last (every last street,
    # each with its own dead cards), no sampled last street at all
    model = adp.MODEL
    assert model is not None
    pairs, got, ranked = _street_four(model)

    def no_sampling(*a: object) -> object:
        raise AssertionError("sampled last streets with refine_draws 0")

    monkeypatch.setattr(adp, "last_street_target", no_sampling)
    out = adp.refined_best(pairs, got, 3, 0, PINEAPPLE, F, C, seed=7)
    exact = [adp.exact_last(*pairs[j], PINEAPPLE, F, C) for j in ranked[:3]]
    assert out == max(exact, key=lambda o: adp.objective(o, F, C))


@needs_model
def test_r2_3_r6_1_street_four_with_exact_tails_takes_the_best_exact_afterstate() -> None:
    # tail_draws < 0: street 4's afterstates are valued by exact_last (every last street, the
    # street's discard among the dead cards), the best by the objective is placed (R3.2)
    model = adp.MODEL
    assert model is not None
    checked = 0
    for deal in range(6):
        hand = Hand(
            HandSetup.deal(PINEAPPLE, (0, 1, 2), 2, deck=shuffled_deck(rng=random.Random(deal)))
        )
        while True:
            seat = hand.to_act[0]
            k = knowledge(hand, seat)
            if seat == 0 and k.board.count == 9:
                break
            hand.apply(Arrange(seat, tuple(decide(k, Level.EASY))))
        on = set(k.board.cards())
        known = frozenset(c for c in k.dead if c not in on and c not in k.cards)
        best = max(
            adp.afterstates(k.board, k.cards, 1),
            key=lambda a: adp.objective(
                adp.exact_last(a[1], known | frozenset(a[2]), PINEAPPLE, F, C), F, C
            ),
        )
        args = (model, k.board, k.cards, 1, k.dead, PINEAPPLE, F, C)
        assert adp.choose(*args, tail_draws=-1) == best[0]
        # strong's street 4 is placed so by default, at its own knobs
        f, c = game.policy.STRONG_ADP_FL, game.policy.STRONG_ADP_FOUL
        best = max(
            adp.afterstates(k.board, k.cards, 1),
            key=lambda a: adp.objective(
                adp.exact_last(a[1], known | frozenset(a[2]), PINEAPPLE, f, c), f, c
            ),
        )
        assert decide(k, Level.STRONG) == best[0]
        checked += 1
    assert checked == 6


@needs_model
def test_r3_2_refine_applies_to_street_three_only_and_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # choose(refine=0) is the default strong's choice; street 2 looks ahead to 9 cards, so
    # refine does not apply there; on street 3 (the look-ahead ends on 11 cards) every drawn
    # street of every expanded afterstate goes through refined_best, and the street is
    # still placed legally (one discard, R3.2)
    model = adp.MODEL
    assert model is not None
    k = _street_two(PINEAPPLE)
    args = (model, k.board, k.cards, k.discards_needed, k.dead, PINEAPPLE, F, C)
    plain = adp.choose(*args, expand=4, next_streets=8)
    assert adp.choose(*args, expand=4, next_streets=8, refine=0) == plain
    calls: list[int] = []
    real = adp.refined_best

    def spy(*a: object, **kw: object) -> tuple[float, float, float]:
        calls.append(a[2])  # type: ignore[arg-type]
        return real(*a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(adp, "refined_best", spy)
    assert adp.choose(*args, expand=4, next_streets=8, refine=2) == plain
    assert calls == []
    hand = Hand(HandSetup.deal(PINEAPPLE, (0, 1, 2), 2, deck=shuffled_deck(rng=random.Random(8))))
    while True:
        seat = hand.to_act[0]
        k3 = knowledge(hand, seat)
        if seat == 0 and k3.board.count == 7:
            break
        hand.apply(Arrange(seat, tuple(decide(k3, Level.EASY))))
    moves = adp.choose(
        model, k3.board, k3.cards, 1, k3.dead, PINEAPPLE, F, C, expand=4, next_streets=8,
        refine=2, refine_draws=6,
    )  # fmt: skip
    assert calls and set(calls) == {2} and len(calls) <= 4 * 8
    assert sorted(c.index for c, _ in moves) == sorted(c.index for c in k3.cards)
    assert sum(b is None for _, b in moves) == 1


def _brute_chances(board: Board, unseen: Collection[Card]) -> tuple[float, float]:
    """(P(some finish enters Fantasyland unfouled), P(every finish fouls)) over every 3-card
    last street, by brute force over Board.with_card and assess_board (R2.3, R6.1)."""
    fl = foul = n = 0
    for draw in combinations(sorted(unseen, key=lambda c: c.index), 3):
        got = [assess_board(b, PINEAPPLE) for b in _finishes(board, draw)]
        n += 1
        fl += any(a.fantasyland_cards and not a.fouled for a in got)
        foul += all(a.fouled for a in got)
    return fl / n, foul / n


def _suited_cases() -> list[tuple[Board, tuple[Card, ...]]]:
    """11-card boards whose open box can end a flush or a straight, or a QQ top against a
    middle that must beat it, with small unseen sets (every pattern of the two open slots)."""
    return [
        (  # bottom three hearts, two open: only a flush beats the trips in the middle
            Board(parse_cards("2c 3d 4s"), parse_cards("7c 7d 7s 9c Td"), parse_cards("Ah Kh 5h")),
            parse_cards("Qh Jh 8c 2h 6d Ks"),
        ),
        (  # middle four spades and bottom a straight draw, one open each: flush or straight
            Board(parse_cards("Qh Qd 4c"), parse_cards("2s 5s 8s Js"), parse_cards("9h Tc Jd Kd")),
            parse_cards("Ks 3s Qc 8d 2d Kh 4h"),
        ),
        (  # QQ top: the middle must pair up (top and middle open)
            Board(parse_cards("Qh Qd"), parse_cards("Kc Kd 5s 6s"), parse_cards("Ah Ad 9c 9d 2h")),
            parse_cards("Ks 7h 3c Qs 8d 4c Jh"),
        ),
        (  # a lone queen on top, one open slot each on top and bottom
            Board(parse_cards("Qs 3d"), parse_cards("8c 8d Jh Js 2c"), parse_cards("Tc Jc Qc Kc")),
            parse_cards("Qh Ac 9c As 3c 7d"),
        ),
        (  # top one card, two open: a made pair on top must stay under the middle's
            Board(parse_cards("Kd"), parse_cards("Qc Qs 9h 9d 3c"), parse_cards("Ah As Ad 4c 4d")),
            parse_cards("Kh Ks 8c 2s 9c Jd"),
        ),
        (  # middle two open under a QQ top
            Board(parse_cards("Qh Qc 2d"), parse_cards("Ks Kd 7h"), parse_cards("Ac Ad Ah 5c 5d")),
            parse_cards("Kh 7c Qs 3s 4s Jd 2c"),
        ),
    ]


def test_r6_1_r2_3_last_chances_are_the_brute_force_fantasyland_and_foul_chances() -> None:
    # last_chances counts the draws none of whose pairs fits without a foul (R2.3) and those
    # one of whose pairs fits with QQ+ on top (R6.1); flushes and straights that need both
    # cards, every pattern of the open slots, random real boards besides
    rng = random.Random(33)
    cases = _suited_cases()
    for i in range(12):
        deck = shuffled_deck(rng=rng)
        cases.append((_eleven(deck, _SLOTS[i % 6]), tuple(deck[11 : 11 + rng.randint(5, 8)])))
    fouls = fls = 0.0
    for board, unseen in cases:
        want = _brute_chances(board, unseen)
        got = adp.last_chances(board, _dead_but(board, unseen), PINEAPPLE)
        assert got == pytest.approx(want, abs=1e-12), (board, unseen)
        fouls += got[1]
        fls += got[0]
    assert fouls > 0 and fls > 0
    assert adp.last_chances(*cases[0], PINEAPPLE) != (0.0, 0.0)  # the flush saves some
    with pytest.raises(ValueError):
        adp.last_chances(Board(parse_cards("Qh Qd")), (), PINEAPPLE)


def test_r6_1_last_chances_equal_exact_last_at_strongs_knobs_in_batches() -> None:
    # on real street-5 unseen sets, at F 60 / C 35 (a Fantasyland finish always taken when
    # there is one), the chances are exact_last's first two components; the batched
    # last_chances_many (here across chunks of 5) gives the same as one board at a time
    rng = random.Random(8)
    pairs: list[tuple[Board, frozenset[Card]]] = []
    for i in range(18):
        deck = shuffled_deck(rng=rng)
        pairs.append((_eleven(deck, _SLOTS[i % 6]), frozenset(deck[11 : 11 + rng.randint(8, 16)])))
    pairs += [(b, _dead_but(b, u)) for b, u in _suited_cases()]
    many = adp.last_chances_many(pairs, PINEAPPLE, chunk=5)
    assert many.shape == (len(pairs), 2)
    for (board, dead), row in zip(pairs, many, strict=True):
        exact = adp.exact_last(board, dead, PINEAPPLE, 60.0, 35.0)
        assert tuple(row) == pytest.approx(exact[:2], abs=1e-9)
        assert tuple(row) == pytest.approx(adp.last_chances(board, dead, PINEAPPLE), abs=1e-12)
    assert many[:, 1].max() > 0 and many[:, 0].max() > 0


@needs_model
def test_r6_1_street_three_look_ahead_with_chances_takes_the_exact_chances(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # chances: street 3's look-ahead takes each drawn street 4's afterstates' P(FL) and
    # P(foul) from last_chances_many (not the fitted V_11), the fitted royalties kept; the
    # policy's knob STRONG_ADP_CHANCES turns it on for strong
    model = adp.MODEL
    assert model is not None
    seen: list[int] = []
    real = adp.last_chances_many

    def spy(pairs: Sequence[tuple[Board, Collection[Card]]], options: RuleOptions) -> object:
        assert all(b.count == 11 for b, _ in pairs)
        seen.append(len(pairs))
        return real(pairs, options)

    monkeypatch.setattr(adp, "last_chances_many", spy)
    board = Board(parse_cards("Qs"), parse_cards("8c 8d Jh"), parse_cards("Tc Jc 2d"))
    cards = parse_cards("Kh 4s 9d")
    dead = parse_cards("3c 5d 6h 7s")
    args = (model, board, cards, 1, dead, PINEAPPLE, 60.0, 35.0)
    plain = adp.choose(*args, tail_draws=-1, expand=3, next_streets=4)
    assert not seen
    got = adp.choose(*args, tail_draws=-1, expand=3, next_streets=4, chances=True)
    assert got is not None and plain is not None
    assert len(seen) == 3  # one batch per candidate (its drawn streets' afterstates)
    # the components the look-ahead sees: exact chances, the fitted royalties
    after = Board(parse_cards("Qs 4s"), parse_cards("8c 8d Jh Kh 9d"), parse_cards("Tc Jc 2d Ad"))
    pair = [(after, frozenset(dead))]
    fitted = model.components_many(pair, 60.0, 35.0)[0]
    mixed = model.components_many(pair, 60.0, 35.0, PINEAPPLE)[0]
    assert mixed[2] == pytest.approx(fitted[2])
    assert mixed[:2] == pytest.approx(tuple(real(pair, PINEAPPLE)[0]))
    seen.clear()
    monkeypatch.setattr(game.policy, "STRONG_ADP_CHANCES", 1)
    hand = Hand(HandSetup.deal(PINEAPPLE, (0, 1, 2), 2, deck=shuffled_deck(rng=random.Random(4))))
    while (k := knowledge(hand, hand.to_act[0])).board.count < 7:  # easy up to street 3
        hand.apply(Arrange(hand.to_act[0], tuple(decide(k, Level.EASY))))
    decide(k, Level.STRONG)
    assert seen


def test_the_environment_variable_loads_another_weights_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``OFC_ADP_MODEL`` names a weights file that replaces the committed one (fifteenth
    session's refit of V_9 is tried that way); unset, the committed file is read."""
    assert adp.MODEL is not None
    data = {"features": list(adp.FEATURES), "nets": {"9": _net_json(adp.MODEL.nets[9], 0.5)}}
    path = tmp_path / "other.json"
    path.write_text(json.dumps(data))
    monkeypatch.setenv(adp.MODEL_ENV, str(path))
    other = adp._load()
    assert other is not None and sorted(other.nets) == [9]
    assert other.nets[9].b2.tolist() == [x + 0.5 for x in adp.MODEL.nets[9].b2.tolist()]
    monkeypatch.delenv(adp.MODEL_ENV)
    again = adp._load()
    assert again is not None and sorted(again.nets) == [5, 7, 9, 11]
    monkeypatch.setenv(adp.MODEL_ENV, str(tmp_path / "missing.json"))
    with pytest.raises(FileNotFoundError):
        adp._load()


def _net_json(net: adp._Net, shift: float) -> dict[str, object]:
    """A :class:`game.adp._Net` back as the file's dict, its output biases moved by ``shift``."""
    out = {k: getattr(net, k).tolist() for k in ("mean", "scale", "w1", "b1", "w2")}
    out["b2"] = [x + shift for x in net.b2.tolist()]
    return out


def _features_reference(board: Board, dead: Collection[Card] = ()) -> list[float]:
    """:func:`game.adp.features` as it read before its per-box caches (fl19), the lifting
    ranks counted afresh: the brute force its faster form must equal."""
    from game.strategy import made_ranks

    top, mid, bot = board.top, board.middle, board.bottom
    ts, ms, bs = adp._strength(top, 3), adp._strength(mid, 5), adp._strength(bot, 5)
    t_ranks = [c.rank for c in top]
    t_cat = ts >> 20
    t_rank = (ts >> 16) & 15
    qq = 1.0 if ts >= adp._QQ_TOP and t_cat in (1, 3) else 0.0
    lowpair = 1.0 if t_cat and not qq else 0.0
    high = max(t_ranks, default=0)
    lone = 1.0 if not t_cat and high >= 12 and len(top) < 3 else 0.0
    seen = adp.rank_counts(dead)
    suits_seen: dict[object, int] = {}
    for c in [*dead, *board.cards()]:
        suits_seen[c.suit] = suits_seen.get(c.suit, 0) + 1
    for c in board.cards():
        seen[c.rank] += 1
    m_cat, b_cat = ms >> 20, bs >> 20
    m_flush, m_straight = adp._draws(mid)
    b_flush, b_straight = adp._draws(bot)
    tom = 1.0 if ts > ms else 0.0
    mob = 1.0 if ms > bs else 0.0

    def outs(ranks: Collection[int], per: int) -> float:
        return sum(4 - seen[r] for r in ranks) / per

    def beat(lower: Sequence[Card], upper: int) -> float:
        ranks = [c.rank for c in lower]
        return outs([r for r in range(2, 15) if made_ranks([*ranks, r]) > upper], 10)

    mid_ranks = {c.rank for c in mid}
    qq_outs = lone_outs = bot_outs = m_fo = b_fo = t_pair_outs = 0.0
    if qq and ms <= ts and len(mid) < 5:
        qq_outs = outs([r for r in mid_ranks if r > t_rank or m_cat], 10)
    if lone and ms <= adp._ABOVE_QQ and len(mid) < 5:
        lone_outs = outs([r for r in mid_ranks if r > high or m_cat], 10)
    if bot and len(bot) < 5 and bs <= ms:
        bot_outs = outs({c.rank for c in bot}, 10)
    if m_flush and len(mid) < 5:
        m_fo = (13 - suits_seen.get(mid[0].suit, 0)) / 13
    if b_flush and len(bot) < 5:
        b_fo = (13 - suits_seen.get(bot[0].suit, 0)) / 13
    if len(top) < 3 and not t_cat:
        t_pair_outs = outs(set(t_ranks), 6)
    live = (4 - seen[high]) / 3 if lone else 0.0
    return [
        len(top) / 3,
        qq,
        (t_rank - 12 if t_cat == 1 else 3) * qq,
        lowpair,
        lone,
        (high - 12) * lone,
        live,
        lone if len(top) == 1 else 0.0,
        0.0 if t_cat else high / 14,
        1.0 if len(top) == 3 and not qq else 0.0,
        *adp._box_features(mid, m_cat, ms, m_flush, m_straight),
        1.0 if ms > adp._ABOVE_QQ else 0.0,
        *adp._box_features(bot, b_cat, bs, b_flush, b_straight),
        tom,
        tom * len(mid) / 5,
        mob,
        mob * len(bot) / 5,
        sum(1 for c in mid if c.rank >= 12) / 5,
        sum(1 for c in bot if c.rank >= 12) / 5,
        qq_outs,
        lone_outs,
        bot_outs,
        (b_cat - m_cat) / 3 if bot and mid else 0.0,
        (m_cat - t_cat) / 3 if top and mid else 0.0,
        live,
        m_fo,
        b_fo,
        t_pair_outs,
        (t_rank / 14 if lowpair else 0.0),
        (52 - board.count - len(dead)) / 40,
        beat(mid, ts) if top and len(mid) < 5 and ms <= ts else 0.0,
        beat(bot, ms) if mid and len(bot) < 5 and bs <= ms else 0.0,
        adp._margin(ms, ts) if top and mid else 0.0,
        adp._margin(bs, ms) if mid and bot else 0.0,
    ]


def _random_board(rng: random.Random, n: int) -> Board:
    """A board of ``n`` cards in random boxes; half the time most of one suit (flush draws)."""
    t = rng.randint(max(0, n - 10), min(3, n))
    m = rng.randint(max(0, n - t - 5), min(5, n - t))
    deck = list(DECK)
    rng.shuffle(deck)
    if rng.random() < 0.5:
        suit = deck[0].suit
        deck.sort(key=lambda c: c.suit != suit)  # stable: one suit first
        deck[:9] = rng.sample(deck[:9], 9)
    return Board(tuple(deck[:t]), tuple(deck[t : t + m]), tuple(deck[t + m : n]))


def test_features_cached_per_box_equal_the_plain_reading_on_random_boards() -> None:
    # fl19 made features faster (each box's part without dead cards cached per box, the
    # seen counts in a list): the same numbers as the plain reading, to the bit, on boards
    # of every size, QQ+ and lone queens on top, flush draws, with and without dead cards
    rng = random.Random(19)
    names = ("t_qq", "t_lone", "m_flush_outs", "b_flush_outs", "mid_beat_outs", "qq_mid_outs")
    hits = dict.fromkeys(names, 0)
    for i in range(3000):
        board = _random_board(rng, rng.randint(0, 13))
        if i % 5 == 0 and len(board.top) >= 2:  # a pair of Q+ on top, QQ+'s outs to read
            rank = rng.choice((12, 13, 14))
            pair = [c for c in DECK if c.rank == rank and c not in set(board.cards())][:2]
            if len(pair) == 2:
                board = Board((*pair, *board.top[2:]), board.middle, board.bottom)
        rest = [c for c in DECK if c not in set(board.cards())]
        dead = frozenset(rng.sample(rest, rng.randint(0, 20)))
        got = adp.features(board, dead)
        assert got == _features_reference(board, dead), (board, dead)
        for name in names:
            hits[name] += got[adp.FEATURES.index(name)] > 0
    assert min(hits.values()) >= 5, hits
    qq = Board(parse_cards("Qh Qd"), parse_cards("Kc 5s"), parse_cards("9h 9d 2h"))
    assert adp.features(qq, parse_cards("Ks")) == _features_reference(qq, parse_cards("Ks"))


def test_r3_2_after_pairs_are_the_afterstates_with_their_dead_cards() -> None:
    # the look-ahead's fast form of afterstates (keep two of three, R3.2): the same boards in
    # the same order (ties go to the first), each with the known cards and its discard
    rng = random.Random(5)
    for n in (0, 3, 5, 7, 9, 11):
        for _ in range(40):
            board = _random_board(rng, n)
            rest = [c for c in DECK if c not in set(board.cards())]
            rng.shuffle(rest)
            cards, known = rest[:3], frozenset(rest[3:9])
            want = [
                (after, known | frozenset(thrown))
                for _p, after, thrown in adp.afterstates(board, cards, 1)
            ]
            assert adp._after_pairs(board, cards, known) == want


def test_r3_3_deeper_draws_are_seven_unknown_cards_the_same_for_the_same_cards_taken() -> None:
    taken = frozenset(DECK[:20])
    got = adp.deeper_draws(taken, 6, seed=3)
    assert len(got) == 6
    for t in got:
        assert len(t) == 7 and len(set(t)) == 7 and not taken.intersection(t)
    assert adp.deeper_draws(set(reversed(DECK[:20])), 6, seed=3) == got
    assert adp.deeper_draws(taken, 6, seed=4) != got
    assert adp.deeper_draws(taken, 3, seed=3) == got[:3]


def _synthetic(pairs: Sequence[tuple[Board, frozenset[Card]]]) -> list[tuple[float, float, float]]:
    """Made-up components of ``(board, dead)`` pairs, varied and deterministic (no model)."""
    out = []
    for board, dead in pairs:
        top = sum(c.rank for c in board.top)
        mid = sum(c.index for c in board.middle)
        out.append(
            ((top % 7) / 7, (mid + len(dead)) % 5 / 5, float(sum(c.index for c in dead) % 11))
        )
    return out


def test_r6_1_deeper_best_many_is_the_best_of_the_fitted_best_valued_one_street_deeper() -> None:
    # street 2's deeper look-ahead: per drawn street 3 (a group of 9-card afterstates), the
    # `best` of highest fitted value are valued again by the mean over drawn street 4s (the
    # same draws for each, less any holding one of its cards) of the best fitted value after
    # them; the group's value is the best of those; every group is valued in one batch
    rng = random.Random(13)
    board = _random_board(rng, 7)
    rest = [c for c in DECK if c not in set(board.cards())]
    dead0 = frozenset(rest[:5])
    groups = []
    for g in range(3):
        street = rest[5 + 7 * g : 12 + 7 * g]
        pairs = adp._after_pairs(board, street[:3], dead0 | frozenset(street[3:]))
        groups.append((pairs, _synthetic(pairs)))
    batches: list[int] = []

    def values(ps: Sequence[tuple[Board, frozenset[Card]]]) -> list[tuple[float, float, float]]:
        batches.append(len(ps))
        return _synthetic(ps)

    for best, draws in ((1, 4), (3, 5), (50, 2)):
        batches.clear()
        got = adp.deeper_best_many(groups, best, draws, values, F, C, seed=11)
        assert len(batches) == 1
        for (pairs, fitted), out in zip(groups, got, strict=True):
            ranked = sorted(range(len(pairs)), key=lambda j: (-_objective(fitted[j]), j))
            first, first_dead = pairs[ranked[0]]
            tails = adp.deeper_draws(first_dead | set(first.cards()), draws, 11)
            want = None
            for j in ranked[:best]:
                b9, d9 = pairs[j]
                acc = [0.0, 0.0, 0.0]
                for t in tails:  # the same cards seen after each: no draw skipped here
                    assert not (d9 | set(b9.cards())).intersection(t)
                    options_ = [
                        (after, d9 | frozenset(t[3:]) | frozenset(thrown))
                        for _p, after, thrown in adp.afterstates(b9, t[:3], 1)
                    ]
                    top = max(_synthetic(options_), key=_objective)
                    acc = [a + x for a, x in zip(acc, top, strict=True)]
                o = tuple(a / len(tails) for a in acc)
                if want is None or _objective(o) > _objective(want):
                    want = o
            assert out == pytest.approx(want)
    with pytest.raises(ValueError):
        adp.deeper_best_many([([], [])], 1, 2, values, F, C, seed=11)


def _street(options: RuleOptions, count: int, seed: int) -> game.policy.SeatKnowledge:
    """Seat 0's knowledge when its board holds ``count`` cards (easy players throughout)."""
    hand = Hand(HandSetup.deal(options, (0, 1, 2), 2, deck=shuffled_deck(rng=random.Random(seed))))
    while True:
        seat = hand.to_act[0]
        k = knowledge(hand, seat)
        if seat == 0 and k.board.count == count:
            return k
        hand.apply(Arrange(seat, tuple(decide(k, Level.EASY))))


@needs_model
def test_r3_2_deep_applies_to_street_two_only_and_places_it_legally(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # deep=0 (the default) leaves choose as it was; on streets 1 and 3 (look-ahead to 7 and
    # 11 cards) deep changes nothing; on street 2 each expanded afterstate's look-ahead goes
    # one street deeper (deeper_best_many once per candidate, with deep and deep_next), or
    # only the deep_top finalists'; the placement is legal (one discard, R3.2) and the same
    # every time (deterministic)
    model = adp.MODEL
    assert model is not None
    calls: list[tuple[int, int, int]] = []
    real = adp.deeper_best_many

    def spy(groups: Sequence[object], best: int, draws: int, *rest: object) -> object:
        calls.append((len(groups), best, draws))
        return real(groups, best, draws, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(adp, "deeper_best_many", spy)
    for count in (0, 7):
        k = _street(PINEAPPLE, count, 8)
        args = (model, k.board, k.cards, k.discards_needed, k.dead, PINEAPPLE, 60.0, 35.0)
        plain = adp.choose(*args, expand=3, next_streets=4)
        assert adp.choose(*args, expand=3, next_streets=4, deep=2, deep_next=3) == plain
    assert calls == []
    changed = 0
    for seed in (8, 9, 10, 11):
        k = _street(PINEAPPLE, 5, seed)
        args = (model, k.board, k.cards, k.discards_needed, k.dead, PINEAPPLE, 60.0, 35.0)
        plain = adp.choose(*args, expand=4, next_streets=6)
        assert adp.choose(*args, expand=4, next_streets=6, deep=0, deep_next=8) == plain
        assert calls == []
        deep = adp.choose(*args, expand=4, next_streets=6, deep=2, deep_next=3)
        assert len(calls) == 4 and all(0 < g <= 6 and (b, d) == (2, 3) for g, b, d in calls)
        assert adp.choose(*args, expand=4, next_streets=6, deep=2, deep_next=3) == deep
        calls.clear()
        assert sorted(c.index for c, _ in deep) == sorted(c.index for c in k.cards)
        assert sum(b is None for _, b in deep) == 1
        after = k.board
        for c, b in deep:
            if b is not None:
                after = after.with_card(b, c)  # raises on a full box
        changed += deep != plain
        adp.choose(*args, expand=4, next_streets=6, deep=2, deep_next=3, deep_top=2)
        assert len(calls) == 2
        calls.clear()
    assert changed < 4


@needs_model
def test_r3_2_the_policy_passes_street_twos_deeper_look_ahead_when_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # policy.STRONG_ADP_DEEP2 (0 by default: off) reaches choose with _NEXT and _TOP
    seen: list[tuple[object, object, object]] = []
    real = adp.choose

    def spy(*args: object, **kwargs: object) -> object:
        seen.append((kwargs["deep"], kwargs["deep_next"], kwargs["deep_top"]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(adp, "choose", spy)
    k = _street(PINEAPPLE, 5, 8)
    decide(k, Level.STRONG)
    assert seen == [(0, 8, 0)]
    monkeypatch.setattr(game.policy, "STRONG_ADP_DEEP2", 1)
    monkeypatch.setattr(game.policy, "STRONG_ADP_DEEP2_NEXT", 2)
    monkeypatch.setattr(game.policy, "STRONG_ADP_DEEP2_TOP", 1)
    decide(k, Level.STRONG)
    assert seen[1] == (1, 2, 1)


def test_r6_1_top_class_names_a_made_qq_top_a_lone_queen_or_better_and_the_rest() -> None:
    def top(cards: str) -> Board:
        return Board(parse_cards(cards), (), ())

    assert adp.top_class(top("Qh Qd")) == "qq"
    assert adp.top_class(top("Ah Ad 2c")) == "qq"
    assert adp.top_class(top("5h 5d 5c")) == "qq"  # trips enter Fantasyland (R6.1)
    assert adp.top_class(top("Jh Jd")) == "other"  # a pair below queens does not
    assert adp.top_class(top("Qh")) == "lone"
    assert adp.top_class(top("Kh 7d")) == "lone"
    assert adp.top_class(top("Kh 7d 2c")) == "other"  # full: no more chance to pair it
    assert adp.top_class(top("Jh 7d")) == "other"
    assert adp.top_class(Board((), parse_cards("Qh Qd"), ())) == "other"


@needs_model
def test_r6_1_calib_shifts_a_whole_class_of_afterstates_in_both_comparisons() -> None:
    # calib=None or {} leaves choose as it was; a large offset for one class of (cards after
    # the street, top_class) makes choose take, or avoid, that class wherever it can
    model = adp.MODEL
    assert model is not None
    took = {"lone": 0, "other": 0}
    for seed in range(8, 20):
        k = _street(PINEAPPLE, 0, seed)
        args = (model, k.board, k.cards, k.discards_needed, k.dead, PINEAPPLE, 60.0, 35.0)
        plain = adp.choose(*args, expand=3, next_streets=4)
        assert adp.choose(*args, expand=3, next_streets=4, calib={}) == plain
        assert adp.choose(*args, expand=3, next_streets=4, calib={(7, "lone"): (1.0, 0.0)}) == plain
        classes = {adp.top_class(after) for _, after, _ in adp.afterstates(k.board, k.cards, 0)}
        for wanted in ("lone", "other"):
            if wanted not in classes:
                continue
            for expand in (0, 3):
                moves = adp.choose(
                    *args, expand=expand, next_streets=4, calib={(5, wanted): (1.0, 0.0)}
                )
                after = k.board
                for c, b in moves:
                    if b is not None:
                        after = after.with_card(b, c)
                assert adp.top_class(after) == wanted
                avoid = adp.choose(
                    *args, expand=expand, next_streets=4, calib={(5, wanted): (0.0, 2.0)}
                )
                after = k.board
                for c, b in avoid:
                    if b is not None:
                        after = after.with_card(b, c)
                assert adp.top_class(after) != wanted or classes == {wanted}
            took[wanted] += 1
    assert took["lone"] and took["other"]  # both classes were offered and steered


@needs_model
def test_r6_1_the_policy_passes_the_calibration_only_when_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # policy.STRONG_ADP_CALIB (0 by default: off) passes its share of the table to choose
    seen: list[object] = []
    real = adp.choose

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(kwargs["calib"])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(adp, "choose", spy)
    k = _street(PINEAPPLE, 5, 8)
    decide(k, Level.STRONG)
    assert seen == [None]
    monkeypatch.setattr(game.policy, "STRONG_ADP_CALIB", 0.5)
    monkeypatch.setattr(game.policy, "STRONG_ADP_CALIB_TABLE", {(7, "lone"): (-0.04, 0.02)})
    decide(k, Level.STRONG)
    assert seen[1] == {(7, "lone"): (-0.02, 0.01)}


def test_r6_1_residual_features_read_the_top_the_outs_and_the_gaps() -> None:
    # a lone K on top with one K dead (2 live of 3), one top slot taken; a middle 5♠ 6♠ (no
    # single card lifts it over a pair of kings); a bottom 9♣ 9♦, above the middle
    board = Board(parse_cards("Kh"), parse_cards("5s 6s"), parse_cards("9c 9d"))
    x = dict(
        zip(adp.RESIDUAL_FEATURES, adp.residual_features(board, parse_cards("Ks 7s")), strict=True)
    )
    assert (x["lone_q"], x["lone_k"], x["lone_a"]) == (0.0, 1.0, 0.0)
    assert x["lone_live"] == pytest.approx(2 / 3)
    assert x["lone_two_open"] == 1.0
    assert x["qq_made"] == 0.0
    assert (x["mid_beats_pair"], x["mid_outs_beat"]) == (0.0, 0.0)
    assert (x["mid_open"], x["bot_open"]) == (0.6, 0.6)
    # 5 6 sits in 2–6, 3–7, 4–8, 5–9: ranks 2 3 4 7 8 9, 24 cards less the 7♠ and two 9s
    assert x["mid_straight_outs"] == pytest.approx(21 / 24)
    assert x["bot_straight_outs"] == 0.0  # paired
    assert x["mid_flush_outs"] == pytest.approx((13 - 4) / 13)  # 5♠ 6♠ K♠ 7♠ seen
    assert x["bot_flush_outs"] == 0.0
    assert x["mid_over_bot"] == 0.0
    assert x["bot_outs_beat"] == 0.0  # the bottom is above already
    assert x["cat_gap_mb"] == pytest.approx(1 / 3)
    # a made QQ top; a middle of a pair of aces beats it; the bottom below the middle
    board = Board(parse_cards("Qh Qd"), parse_cards("Ac Ad 4c"), parse_cards("8s 8d 9c"))
    x = dict(
        zip(adp.RESIDUAL_FEATURES, adp.residual_features(board, parse_cards("8h")), strict=True)
    )
    assert (x["qq_made"], x["lone_q"], x["lone_live"]) == (1.0, 0.0, 0.0)
    assert (x["mid_beats_pair"], x["mid_outs_beat"]) == (1.0, 0.0)
    assert x["mid_over_bot"] == 1.0
    # trips of 8s (one 8 live) or two pair 9s and 8s (three 9s live) lift it over A A 4
    assert x["bot_outs_beat"] == pytest.approx(0.4)
    assert x["cat_gap_mb"] == 0.0
    # a lone Q over a middle J J 3: one card lifts it over any pair of queens only as trips
    # (a J) or two pair (a 3)
    board = Board(parse_cards("Qc"), parse_cards("Js Jd 3h"), ())
    x = dict(zip(adp.RESIDUAL_FEATURES, adp.residual_features(board, ()), strict=True))
    assert x["lone_q"] == 1.0 and x["lone_live"] == 1.0
    assert x["mid_beats_pair"] == 0.0
    assert x["mid_outs_beat"] == pytest.approx((2 + 3) / 10)  # a third J, a second 3
    assert x["bot_open"] == 1.0 and x["bot_outs_beat"] == 0.0  # no bottom card yet


@needs_model
def test_r6_1_correct_shifts_afterstates_by_their_residual_features() -> None:
    # correct=None or {} or weights for another board size or a constant shift leave choose as
    # it was; a large weight on a lone K top (or against it) makes choose take (or avoid) one
    # wherever it can
    model = adp.MODEL
    assert model is not None
    zero: dict[str, float] = {}
    boost = {"lone_k": 1.0}
    steered = 0
    for seed in range(8, 30):
        k = _street(PINEAPPLE, 0, seed)
        args = (model, k.board, k.cards, k.discards_needed, k.dead, PINEAPPLE, 60.0, 35.0)
        plain = adp.choose(*args, expand=3, next_streets=4)
        assert adp.choose(*args, expand=3, next_streets=4, correct={}) == plain
        assert adp.choose(*args, expand=3, next_streets=4, correct={5: (zero, {"1": 0.5})}) == plain
        assert adp.choose(*args, expand=3, next_streets=4, correct={7: (boost, zero)}) == plain
        if not any(c.rank == 13 for c in k.cards):
            continue
        for expand in (0, 3):
            for weights, wanted in (((boost, zero), 1.0), ((zero, boost), 0.0)):
                moves = adp.choose(*args, expand=expand, next_streets=4, correct={5: weights})
                after = k.board
                for c, b in moves:
                    if b is not None:
                        after = after.with_card(b, c)
                k_top = adp.RESIDUAL_FEATURES.index("lone_k")
                assert adp.residual_features(after, k.dead)[k_top] == wanted
        steered += 1
    assert steered  # some deal had a king to place


@needs_model
def test_r6_1_the_policy_passes_the_residual_correction_only_when_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # policy.STRONG_ADP_RESID (0 by default: off) passes its share of the weights to choose
    seen: list[object] = []
    real = adp.choose

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(kwargs["correct"])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(adp, "choose", spy)
    k = _street(PINEAPPLE, 5, 8)
    decide(k, Level.STRONG)
    assert seen == [None]
    monkeypatch.setattr(game.policy, "STRONG_ADP_RESID", 0.5)
    monkeypatch.setattr(
        game.policy, "STRONG_ADP_RESID_TABLE", {7: ({"1": 0.2}, {"bot_open": -0.04})}
    )
    decide(k, Level.STRONG)
    assert seen[1] == {7: ({"1": 0.1}, {"bot_open": -0.02})}
