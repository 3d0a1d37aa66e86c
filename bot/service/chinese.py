"""Chinese Poker after the arrangement: reveals box by box, claims, the end of a game (R4.5,
R7). Each function changes the table inside a transition; the timers and the Claim / Continue
presses run them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.model import LiveTable, Phase, Reply, SeatState
from bot.service import tournaments
from bot.service.dealing import settle_pairs
from bot.service.runtime import Runtime, Tx
from bot.service.showdown import close_hand, keep_banks
from bot.texts import tr
from game.chinese import ChineseGame
from game.policy import claims

__all__ = [
    "CLAIM_SECONDS",
    "claim_press",
    "claimant_continues",
    "continue_reveal",
    "reveal_step",
    "start_reveal",
]

#: Seconds the players at the target have to Claim or Continue (R7.5) before the reveal goes on.
CLAIM_SECONDS = 30.0


def start_reveal(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """Every board is arranged: the reveal begins with the bottom boxes (R4.5)."""
    hand = t.hand
    assert hand is not None and hand.result is not None and t.match is not None
    t.match = t.match.after_hand(hand.result, owners=t.owners)
    keep_banks(t)
    # two_at_middle: the middle stage pays the two-of-three point it decides (R7.3, R7.5); a
    # reveal saved without the mark by an older version after its middle goes on without
    # (LiveTable.reveal_stages)
    # target: the points this hand's reveal is played to, every frame of it and the picture
    # (render.reveal_target): a target_points changed during the hand applies as it closes
    # (_new_target), and the last frame read "(target 20)" under frames of "(target 200)"
    target = t.chinese.target if t.chinese is not None else t.options.target_points
    t.reveal = {
        "stage": 0,
        "at": rt.clock(),
        "claim": None,
        "two_at_middle": True,
        "target": target,
    }
    t.phase = Phase.REVEALING
    reveal_step(rt, t, tx)


def reveal_step(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """Reveal the next box (bottom, middle, top), add its points to the game, offer the claim
    to players at the target after the bottom or middle (R7.5), and close the hand after the
    top. A computer player at the target decides at once (:func:`game.policy.claims`): its
    claim ends the game now; the people at the target are offered it as usual."""
    hand, reveal, game = t.hand, t.reveal, t.chinese
    assert hand is not None and hand.result is not None and reveal is not None
    assert game is not None
    k = int(reveal["stage"])
    if k < 2:  # the middle not counted yet: it pays its two-of-three point (R7.3)
        reveal["two_at_middle"] = True
    stage = t.reveal_stages()[k]
    game = game.apply(stage)
    t.chinese = game
    reveal["stage"] = k + 1
    reveal["claim"] = None
    reveal["at"] = None
    if stage.last:
        close_chinese_hand(rt, t, tx)
        return
    claimants = game.claimants(stage)
    now = rt.clock()
    # a computer player at the target decides at once (it never presses, and the reveal
    # waited the whole claim time for it): it claims when it leads, else continues
    bots = [s for s in claimants if (p := t.seats.get(s)) is not None and p.bot]
    claimer = next((s for s in bots if claims(game.totals, s)), None)
    if claimer is not None:
        t.chinese = game.claim(claimer)
        close_chinese_hand(rt, t, tx)
        return
    people = [s for s in claimants if s not in bots]
    if people:
        reveal["claim"] = {
            "seats": people,
            "continued": [],
            "deadline": now + CLAIM_SECONDS,
        }
    else:
        reveal["at"] = now + t.options.reveal_pause_seconds
    tx.group = True


def close_chinese_hand(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """The reveal is over (or a player claimed): the game ends after a timeout (R7.7), a
    leaving player or a player at the target; then the kush are settled each-with-each
    (R7.6) with the hand's record."""
    hand, game = t.hand, t.chinese
    assert hand is not None and hand.result is not None and game is not None
    result = hand.result
    if any(r.timed_out and not _computer(t, r.seat) for r in result.seats):
        # R7.7: the game ends after a hand with a timeout; not a computer player's, whose
        # cards were set by the timeout rule because its decision failed: it is not away
        game = game.end()
    if any(st.leaving and st.seat in game.totals for st in t.seats.values()):
        game = game.end()  # a player of the game leaving ends it: it is settled now (R7.6)
    game = _new_target(t, game)
    # every player of the game is settled (R7.6), one sitting this hand out too
    order = [*result.order, *(s for s in sorted(game.totals) if s not in result.order)]
    order = [s for s in order if s in t.seats]
    deltas: dict[int, int] = {}
    notes: Callable[[str], list[str]] | None = None
    chips: dict[int, int] | None = None
    settled = None
    if game.over and t.tournament is not None:  # chips move at the end of a game (R8.7)
        if tournaments.running(t):
            settled = t.tournament.settle(game.pairs(order))
        notes = tournaments.after_settlement(t, settled)
        chips = settled.settlement.deltas if settled is not None else None
    elif game.over:
        deltas = settle_pairs(t, order, game.pairs(order))  # R7.6
    t.chinese = game
    record = result.to_json()
    record["chinese"] = game.to_json()
    # the points the game counted: the stages revealed (a claim, R7.5, leaves boxes unshown)
    stages = t.reveal_stages()
    shown = stages[: int(t.reveal["stage"])] if t.reveal is not None else stages
    record["counted"] = {str(s): sum(st.points.get(s, 0) for st in shown) for s in result.order}
    record["revealed"] = len(shown)  # boxes shown, bottom first: /replay hides the rest (R7.5)
    if t.tournament is not None:
        record["tournament"] = tournaments.record_of(t, settled)
    close_hand(rt, t, tx, record, deltas, notes, chips)


def _new_target(t: LiveTable, game: ChineseGame) -> ChineseGame:
    """A ``target_points`` an admin changed during this hand (pending until the next deal,
    :func:`~.dealing.apply_pending`) applies to the game under way at the end of this hand,
    as the admin was told (``settings.target_next_hand``): a player with that many points
    now has reached it, and the game is over with this hand, settled in its record (R7.6);
    otherwise the game plays on to it. It waited for the next deal: the table message
    showed the old target between hands, and a game the hand had ended was settled and
    announced only as the next hand was dealt. The reveal's frames keep the target it was
    played to (``reveal["target"]``), its last frame saying the new one (fix39g)."""
    new = t.pending_options
    if game.over or new is None or t.tournament is not None or new.target_points == game.target:
        return game
    game = replace(game, target=new.target_points)
    return game.end() if max(game.totals.values(), default=0) >= game.target else game


def _computer(t: LiveTable, seat: int) -> bool:
    """Whether the board of hand seat ``seat`` is a computer player's (issue 13)."""
    player = t.player_of(seat)
    return player is not None and player.bot is not None


def continue_reveal(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """Nobody claims (every claimant continued, or the claim time ran out): the reveal goes
    on after the pause (R7.5)."""
    assert t.reveal is not None
    t.reveal["claim"] = None
    t.reveal["at"] = rt.clock() + t.options.reveal_pause_seconds
    tx.group = True


async def claim_press(
    rt: Runtime, t: LiveTable, seat: SeatState | None, claim: bool, version: str, lang: str
) -> Reply:
    """Claim or Continue pressed by a player at the target (R7.5)."""
    reveal, game, hand = t.reveal, t.chinese, t.hand
    offer = reveal.get("claim") if reveal else None
    if (
        offer is None
        or game is None
        or hand is None
        or version != f"C{t.hand_no}.{reveal['stage'] if reveal else ''}"
    ):
        key = "err.already_claimed" if _claimed_in(t, version) else "err.stale"
        return Reply(tr(lang, key), alert=True)
    if seat is None or seat.seat not in offer["seats"]:  # (a member not at the table too:
        # the button is current, and "out of date" told them nothing)
        return Reply(tr(lang, "err.not_claimant"), alert=True)
    if rt.clock() >= float(offer["deadline"]):
        # the claim time is over and the timer has not fired yet (a loaded bot, a timer a
        # moment late): its step is made now, the reveal goes on; a Claim after the time
        # must not end the game (it did, settling kush on a claim the timer would refuse)
        async with rt.transition(t) as tx:
            continue_reveal(rt, t, tx)
        return Reply(tr(lang, "err.claim_late" if claim else "reply.continued"), alert=claim)
    async with rt.transition(t) as tx:
        assert t.reveal is not None and t.chinese is not None
        if claim:
            t.chinese = t.chinese.claim(seat.seat)
            t.reveal["claim"] = None
            close_chinese_hand(rt, t, tx)
            return Reply(tr(lang, "reply.claimed"))
        claimant_continues(rt, t, tx, seat.seat)
    return Reply(tr(lang, "reply.continued"))


def _claimed_in(t: LiveTable, version: str) -> bool:
    """Whether the Claim/Continue buttons of ``version`` (``C<hand>.<stage>``) belong to the
    hand whose game was claimed (R7.5): a second Claim press, or one after another claimant
    (or a computer player) claimed, is told so rather than "out of date". That hand's record
    is ``t.last_result`` while no later hand has ended: the table's hand number is still its
    own between hands, one more once the next hand is dealt."""
    hand = version[1:].partition(".")[0]
    if not version.startswith("C") or not hand.isdigit() or t.last_result is None:
        return False
    game = t.last_result.get("chinese")
    if not isinstance(game, dict) or game.get("claimed_by") is None:
        return False
    last = t.hand_no if t.hand is None else t.hand_no - 1
    return int(hand) == last


def claimant_continues(rt: Runtime, t: LiveTable, tx: Tx, seat_no: int) -> None:
    """A player offered the claim continues (R7.5: Continue pressed, or they left: the game
    ends after this hand anyway, R7.6); once every one has, the reveal goes on. A seat not
    offered the claim (or no offer open) changes nothing."""
    offer = t.reveal.get("claim") if t.reveal is not None else None
    if not offer or seat_no not in offer["seats"]:
        return
    if seat_no not in offer["continued"]:
        offer["continued"].append(seat_no)
    if set(offer["continued"]) >= set(offer["seats"]):
        continue_reveal(rt, t, tx)
