"""Who plays, the deal, and stacks leaving the table: steps shared by the lobby, the hand and
the timers. Each function changes a table inside a transition (:class:`~.runtime.Tx`) and
does no I/O; the transition commits what it did (issue 10)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.model import LiveTable, Phase, Reply, SeatState
from bot.render import busted_notices, stacks_named
from bot.screens import Screen
from bot.service.runtime import Runtime, Tx
from bot.texts import tr
from game.cards import shuffled_deck
from game.chinese import ChineseGame
from game.clock import SeatClock
from game.hand import Hand, HandSetup, double_box_seats
from game.match import MatchState
from game.options import GameKind
from game.settlement import settle
from game.tournament import TournamentPhase
from storage.api import BuyIn, CashOut, LedgerKind, Settlement

__all__ = [
    "TOP_UP_SECONDS",
    "apply_pending",
    "available",
    "close_now",
    "close_with",
    "closed_notice",
    "deal",
    "end_game",
    "free_busted_seats",
    "full_table",
    "leaves_after_hand",
    "lobby_ready_timer",
    "maybe_start",
    "offer_top_ups",
    "settle_apart",
    "settle_pairs",
    "settle_round",
    "stacks_back",
    "stand_up",
    "stand_up_unready",
    "sync_clocks",
    "tell_chat_gone",
    "tell_tournament_closed",
    "to_lobby",
    "top_up_computer_players",
    "top_up_window",
]


#: At least this long between a hand and the next deal when a player is offered a top-up.
TOP_UP_SECONDS = 20.0


def full_table(t: LiveTable, lang: str) -> Reply:
    """The refusal of a seat (``/join``, ``/addbot``) at a table with no free seat (R8.2):
    "The table is full.", or, when a player there stands up after the hand (a person who
    left, a computer player stood up by ``/removebot``), who frees a seat then (a bare "full"
    read to the admin who had just stood one up as if nothing had changed)."""
    leaving = [s for s in t.seats.values() if s.leaving]
    if leaving:
        return Reply(tr(lang, "reply.table_full_until", name=leaving[0].name), alert=True)
    return Reply(tr(lang, "reply.table_full"), alert=True)


def available(t: LiveTable) -> list[int]:
    """Seats that can be dealt in: ready (bought in), not sitting out, not leaving, with kush
    at the table (R8.2, R8.6); in a tournament, the players still in once it runs (R8.7)."""
    tour = t.tournament
    if tour is not None:
        if tour.phase is not TournamentPhase.RUNNING:
            return []
        return [s for s in tour.in_play if s in t.seats and not t.seats[s].leaving]
    return sorted(
        s.seat
        for s in t.seats.values()
        if s.ready and not s.sitting_out and not s.leaving and not t.busted(s)
    )


def apply_pending(t: LiveTable, tx: Tx, now: float) -> None:
    """Settings changed by admins apply between matches (options) and between hands (buy-in).
    Call with no hand running (``now``: the time). Points a round still owes
    (``settle_per_round``, R8.3) are settled first, at the rate they were played for, when the
    new options settle otherwise (``settle_per_round`` turned off dropped them; a new
    ``kush_per_point`` priced them anew), as a history entry of its own in ``tx``; so is a
    Chinese Poker game under way when ``kush_per_point`` changes (R7.6: it ends, settled at
    the rate its points were played for); a new ``target_points`` applies to the game under
    way, which is over and settled now when a player already has that many points (R7.6). A
    new buy-in below the point in force waits for the new point (a buy-in pays at least one
    point, R8.2). A player whose stack a new ``kush_per_point`` puts below one point is
    offered the top-up in the group and gets
    :data:`TOP_UP_SECONDS` for it before the next deal (R8.2), as after a showdown (the deal
    stood them up at once, "no top-up in time", never having offered one). A lowered
    ``idle_close_seconds`` counts from ``now`` at the earliest (R8.2a: no close in the same
    breath as the change)."""
    new = t.options_due()
    if new is not None:
        old = t.options
        paid = {s.seat for s in t.seats.values() if not t.busted(s)}  # before the round's
        if t.tournament is None:  # (a tournament's stacks are its pool, R8.7)
            if (new.settle_per_round, new.kush_per_point) != (
                old.settle_per_round,
                old.kush_per_point,
            ):
                settle_round(t, tx, None)
            if new.kush_per_point != old.kush_per_point and t.chinese and t.chinese.totals:
                end_game(t, tx)  # the game's points at their rate (R7.6)
            game = t.chinese
            if game is not None and game.target != new.target_points:
                # the game under way plays to the new target (it played on to the old one
                # while the reveal and /rules showed the new); a player already there has
                # reached it: the game is over and settled now (R7.6)
                if max(game.totals.values(), default=0) >= new.target_points:
                    end_game(t, tx)
                else:
                    t.chinese = replace(game, target=new.target_points)
        could_pay = {s.seat for s in t.seats.values() if not t.busted(s)}
        t.options = new
        if new.idle_close_seconds < old.idle_close_seconds and t.last_deal_at is not None:
            # R8.2a: a lowered idle_close_seconds counts from its change at the earliest: set
            # to 300 after more than 5 minutes without a deal, the table closed in the same
            # breath as "Saved" (a close already due before the change was made first)
            t.last_deal_at = max(t.last_deal_at, now)
        # the round's points settled early left these below a point: offered the top-up as
        # at a showdown (the deal stood them up 4 s later, "no top-up in time", never
        # having offered one); judged by the new point (a stack that pays a lowered one was
        # told to top up, and the deal waited for it)
        settled = _settled_below(t, paid - could_pay, now)
        offered = [s for s in t.awaiting_top_up() if s.seat in could_pay and not s.bot]
        # one group message for all of them (a write each was 3 of Telegram's ~20 a minute
        # for 3 players): the settled ones' offer, then the raised point's
        lines = [busted_notices(t, t.lang, settled)] if settled else []
        point = t.options.kush_per_point
        if len(offered) == 1:
            lines.append(tr(t.lang, "lobby.point_raised", name=offered[0].name, point=point,
                            label=t.label, stack=offered[0].stack))  # fmt: skip
        elif offered:
            names = stacks_named([(s.name, s.stack) for s in offered])
            lines.append(tr(t.lang, "lobby.point_raised_many", names=names, point=point,
                            label=t.label))  # fmt: skip
        if lines:
            t.owe("post", Screen("\n".join(lines)))
        if offered or settled:
            t.next_hand_at = max(t.next_hand_at or now, now + TOP_UP_SECONDS)
            tx.group = True
        t.match = (
            MatchState.new(t.options) if t.match is None else replace(t.match, options=t.options)
        )
        t.pending_options = None
    if t.pending_buy_in is not None and t.pending_buy_in >= t.options.kush_per_point:
        # (a buy-in lowered with the point waits for the point, which waits for the match's
        # end: bought in below a point, a stack would be stood up as busted at the deal)
        t.min_buy_in = t.pending_buy_in
        t.pending_buy_in = None
        if t.tournament is None:
            _return_unplayed(t, tx)


def _return_unplayed(t: LiveTable, tx: Tx) -> None:
    """The table's buy-in just became ``t.min_buy_in`` (R8.2: a new buy-in applies from the
    next hand): a player who paid a higher one at Ready for a hand not yet dealt to them
    (:attr:`~bot.model.SeatState.unplayed_buy_in`: a newcomer during the hand paid the
    table's buy-in while a lower one waited for the match's end, :func:`next_buy_in`) gets
    the difference back, so that the hand they play costs what it costs everyone joining
    now; a computer player seated during the hand too (its balance the house's kush, issue
    13). Two balanced moves in the step's one transaction: the stack back to the balance (a
    ``refund`` row) and the lower stack bought in again (a ``buy_in`` row); the group is
    told in one message, a line per player (a write each was 3 of Telegram's ~20 a minute
    for 3 players)."""
    lines: list[str] = []
    for seat in t.seats.values():
        back = seat.unplayed_buy_in - t.min_buy_in
        if seat.leaving or back <= 0 or seat.stack < back:
            continue
        tx.moves.append(CashOut(seat.player_id, LedgerKind.REFUND))
        paid = seat.unplayed_buy_in
        seat.stack -= back
        seat.unplayed_buy_in = t.min_buy_in
        if seat.stack > 0:
            tx.moves.append(BuyIn(seat.player_id, seat.stack))
        lines.append(tr(t.lang, "lobby.buy_in_returned", name=seat.name,
                        buy_in=t.min_buy_in, paid=paid, amount=back,
                        label=t.label))  # fmt: skip
    if lines:
        t.owe("post", Screen("\n".join(lines)))
        tx.group = True


def next_buy_in(t: LiveTable) -> int:
    """The buy-in the next hand plays (R8.2), in kush: one saved during the hand when it
    applies as the hand ends whatever the hand earns (:func:`apply_pending`), else the
    table's. A saved buy-in below the point in force applies only with the saved point,
    which waits for the match's end (R6.6), and this hand may earn a Fantasyland that keeps
    the match going: the table's buy-in, which pays either point, is asked then (a newcomer
    who paid the saved one sat down with a stack below the point in force). A hand that
    earns none (Chinese Poker, R7; Fantasyland off, R6.7) ends the match for sure.

    With no hand running it is the table's buy-in, the one the lobby shows: a saved one
    still pending then (the settings' step storage refused, :func:`~.settings._pend`) is
    applied by the same step (:func:`maybe_start`), as after any Ready: a lower one gives
    the difference back, a higher one keeps the stack paid (R8.2). The Ready pressed under
    "Buy-in 200" took the pending 300. But when the same step puts a point in force that
    the table's buy-in cannot pay (options pending with no match under way, R6.6), the
    pending buy-in, which pays it, is asked: 200 under a 250 point just applied had the
    newcomer offered the top-up the moment they were ready."""
    if t.hand is None:
        point = (t.options_due() or t.options).kush_per_point  # as apply_pending will
        pending = t.pending_buy_in
        if t.min_buy_in < point and pending is not None and pending >= point:
            return pending
        return t.min_buy_in
    due = t.options_due()
    point = (due or t.options).kush_per_point
    if t.options.fantasyland and t.options.game is not GameKind.CHINESE:
        point = max(point, t.options.kush_per_point)
    if t.pending_buy_in is not None and t.pending_buy_in >= point:
        return t.pending_buy_in
    return t.min_buy_in


def offer_top_ups(t: LiveTable, paid: set[int], now: float) -> bool:
    """The seats in ``paid`` (they could pay a point before a round's points were settled
    early, R8.3) that are now below one are offered the top-up as at a showdown, with
    :data:`TOP_UP_SECONDS` from ``now`` for it before a next deal already set (R8.2): the
    deal stood them up, "no top-up in time", never having offered one. Returns whether one
    was offered. The group gets one notice naming them all (:func:`~bot.render.
    busted_notices`: one player's as the showdown says it)."""
    settled = _settled_below(t, paid, now)
    if settled:
        t.owe("post", Screen(busted_notices(t, t.lang, settled)))
    return bool(settled)


def _settled_below(t: LiveTable, paid: set[int], now: float) -> list[tuple[str, int]]:
    """:func:`offer_top_ups` but the notice: the name and stack of each seat in ``paid``
    now below a point (the next deal set waits :data:`TOP_UP_SECONDS` from ``now`` for
    their top-ups), for the caller's one group notice."""
    settled = [s for s in t.awaiting_top_up() if s.seat in paid and not s.bot]
    if settled and t.next_hand_at is not None:
        t.next_hand_at = max(t.next_hand_at, now + TOP_UP_SECONDS)
    return [(s.name, s.stack) for s in settled]


def top_up_computer_players(t: LiveTable) -> bool:
    """Queue the top-up of the minimum buy-in for each busted computer player (R8.2: one
    offered the top-up takes it; its kush is the house's, issue 13), added before the next
    deal (:meth:`LiveTable.top_ups_due`). Returns whether one was queued."""
    queued = False
    for seat in t.seats.values():
        if seat.bot and not seat.leaving and t.busted(seat):
            seat.top_up = t.min_buy_in
            queued = True
    return queued


def maybe_start(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """Deal when it is time (R8.2): in the lobby, once every seated player is ready; between
    hands, when the next hand is due and enough players are available. With too few players,
    or only computer players, the table goes back to the lobby."""
    if t.hand is not None or t.top_ups_due():  # top-ups asked for during the hand go first
        return
    # settings changed during the hand apply now, before who can play is decided: a point
    # raised past the stacks must send the table to the lobby, not make the deal fail
    apply_pending(t, tx, rt.clock())
    if top_up_computer_players(t):  # (the point raised past a computer player's stack)
        # the timer adds the top-up, then deals (not before a person's top-up window ends)
        t.next_hand_at = max(t.next_hand_at or rt.clock(), rt.clock())
        return
    if t.next_hand_at is not None and not any(
        t.busted(s) and not s.leaving for s in t.seats.values()
    ):  # nobody's top-up is waited for any more (taken, or the busted player left): the
        # next hand comes in the usual time, not at the end of the top-up window (a busted
        # player sitting out keeps it: back within it, the deal must not stand them up at once)
        t.next_hand_at = min(t.next_hand_at, rt.clock() + rt.next_hand_delay)
    seats = available(t)
    if len(seats) < t.options.min_players or all(t.seats[s].bot for s in seats):
        # computer players never play a hand among themselves (issue 13): it waits for a person
        now = rt.clock()
        window = t.next_hand_at if t.phase is Phase.BETWEEN and t.awaiting_top_up() else None
        running = t.ready_deadline if t.phase is Phase.LOBBY else None
        to_lobby(t)
        if window is not None and window > now and t.top_up_deadline is None:
            # a busted player's window runs on in the lobby (a third player leaving during
            # it started the lobby's 20 s afresh: up to 40 s for a player offered 20)
            t.top_up_deadline = min(window, now + TOP_UP_SECONDS)
        tx.group = True
        top_up_window(rt, t, tx, seats)
        if len(seats) >= t.options.min_players:
            # two computer players are ready: the ready timer runs as it does for two ready
            # people (R8.2), or a person seated by them who never presses Ready would hold
            # the seat (the last one a person may take) until the idle close
            t.ready_deadline = running
            lobby_ready_timer(rt, t, tx)
        return
    if t.top_up_deadline is not None:  # enough players now: the deal stands up whoever is
        if t.awaiting_top_up():  # still busted, at the end of the window the lobby showed
            t.next_hand_at = max(t.next_hand_at or rt.clock(), t.top_up_deadline)
        t.top_up_deadline = None
    if t.tournament is not None:
        t.phase = Phase.BETWEEN  # a tournament deals to its players, no readiness (R8.7)
    if t.phase is Phase.LOBBY:
        if lobby_ready_timer(rt, t, tx):
            return
        carry_ready_timer(rt, t)
        t.phase = Phase.BETWEEN
    if t.next_hand_at is not None and rt.clock() < t.next_hand_at:
        return
    if free_busted_seats(rt, t, tx):  # the round they settled left another below a point:
        maybe_start(rt, t, tx)  # too few now (the lobby's top-up window), or the deal waits
        return
    deal(rt, t, tx)


def lobby_ready_timer(rt: Runtime, t: LiveTable, tx: Tx) -> bool:
    """The lobby's ready timer (R8.2), with two players ready: it starts, and when it runs
    out the seated players who have not pressed Ready are stood up, no kush taken, those
    sitting out too (R8.6 keeps the seat of a player bought in; one who never bought in
    alternated /sitout and /back, each /back starting the timer afresh, and held the seat
    and the table for good), and it starts for them as for the others. The deal waits only
    for the unready who do not sit out; while only unready players sitting out are left, a
    running timer runs on (it is carried to them if the deal comes first,
    :func:`carry_ready_timer`). Returns whether the deal waits for it."""
    unready = [s for s in t.seats.values() if not s.ready]
    waiting = [s for s in unready if not s.sitting_out]
    now = rt.clock()
    if unready and t.ready_deadline is None:  # two are ready: the ready timer starts (R8.2),
        # for the admins' latest ready_seconds, as a late joiner's time and a change of it do
        # (:func:`~.settings.follow_ready_seconds`); for the unready sitting out too (they
        # are stood up at its end: beside computer players, who never play without a
        # person, one who sat out before they were Ready held the last seat, no timer)
        t.ready_deadline = now + t.ready_seconds()
        tx.group = True
    if unready and t.ready_deadline is not None and now >= t.ready_deadline:
        for seat in unready:  # the timer ran out: the unready are stood up, no kush taken
            stand_up(t, tx, seat)
        names = ", ".join(s.name for s in unready)
        t.owe("post", Screen(tr(t.lang, "lobby.stood_up", names=names)))
        tx.group = True
        t.ready_deadline = None
        return False
    if waiting:
        return True
    if not unready:
        t.ready_deadline = None
    return False


def carry_ready_timer(rt: Runtime, t: LiveTable) -> None:
    """The deal leaves the lobby while players who never pressed Ready sit out (R8.2, R8.6):
    each keeps the time the lobby's ready timer had left (:attr:`SeatState.ready_by`; the
    whole ``ready_seconds`` when none ran) and is stood up at its end unless Ready, as a
    player seated during the hands is (:func:`stand_up_unready`)."""
    end = t.ready_deadline if t.ready_deadline is not None else rt.clock() + t.ready_seconds()
    for seat in t.seats.values():
        if not seat.ready and not seat.leaving and seat.bot is None and seat.ready_by is None:
            seat.ready_by = end
    t.ready_deadline = None


def to_lobby(t: LiveTable) -> None:
    """Too few players for a deal: the table goes back to the lobby, where the lobby's ready
    timer (R8.2, from two ready players on) applies to whoever has not pressed Ready, not
    the time of a player who sat down while hands were being played
    (:attr:`~bot.model.SeatState.ready_by`)."""
    t.phase = Phase.LOBBY
    t.next_hand_at = None
    t.ready_deadline = None
    for seat in t.seats.values():
        seat.ready_by = None


def stand_up_unready(t: LiveTable, tx: Tx, now: float) -> bool:
    """Stand up the players who sat down while hands were being played and have not pressed
    Ready within ``ready_seconds`` of it (R8.2, :meth:`LiveTable.ready_window_end`): nothing
    was taken from them, and the seat is free for someone else. Returns whether one was."""
    due = [s for s in t.seats.values() if (end := t.ready_window_end(s)) is not None and now >= end]
    for seat in due:
        stand_up(t, tx, seat)
    if due:
        t.owe("post", Screen(tr(t.lang, "lobby.stood_up", names=", ".join(s.name for s in due))))
    return bool(due)


def top_up_window(rt: Runtime, t: LiveTable, tx: Tx, seats: list[int]) -> None:
    """Too few players can be dealt in (``seats``). When the top-ups of busted players (R8.2)
    alone stand between the table and a deal, they get :data:`TOP_UP_SECONDS` for it (shown
    in the lobby) and are then stood up: a player who walked away after losing the stack
    must not hold the seat, nor keep the players who are ready waiting for a deal that
    never comes (until the idle close, R8.2a)."""
    busted = t.awaiting_top_up()
    people = [s for s in seats if not t.seats[s].bot] + [s.seat for s in busted if not s.bot]
    if not busted or not people or len(seats) + len(busted) < t.options.min_players:
        t.top_up_deadline = None
        return
    now = rt.clock()
    if t.top_up_deadline is None:
        t.top_up_deadline = now + TOP_UP_SECONDS
    if now < t.top_up_deadline:
        return
    t.top_up_deadline = None
    _stand_up_busted(t, tx, busted)  # offered the top-up and did not take it (R8.2)


def _stand_up_busted(t: LiveTable, tx: Tx, seats: Sequence[SeatState]) -> None:
    """Stand up ``seats``, offered the top-up and not taking it (R8.2): the seats are free,
    which the group is told, and so is that a Fantasyland one of them had earned went with
    the seat (R6; the showdown said it waited for the top-up)."""
    lost = [s.name for s in seats if t.fantasyland_waiting(s)]
    for seat in seats:
        stand_up(t, tx, seat)
    text = tr(t.lang, "lobby.busted_stood_up", names=", ".join(s.name for s in seats))
    if lost:
        text += "\n" + tr(t.lang, "lobby.fl_forfeited", names=", ".join(lost))
    t.owe("post", Screen(text))


def free_busted_seats(rt: Runtime, t: LiveTable, tx: Tx) -> bool:
    """At the deal, stand up the players offered a top-up after the last hand who did not
    take it (R8.2; a busted player sitting out keeps the seat, R8.6). Points a round still
    owes (``settle_per_round``) are settled first as each stack leaves (R8.3), and that may
    leave another player below a point: that player is offered the top-up with
    :data:`TOP_UP_SECONDS` for it before the next deal, as after a showdown (a computer
    player's top-up is queued), instead of being left out of the hand unannounced. Returns
    whether one was, so that the deal waits."""
    gone = [s for s in t.seats.values() if t.busted(s) and not s.sitting_out]
    if not gone:
        return False
    paid = {s.seat for s in t.seats.values() if not t.busted(s)}
    _stand_up_busted(t, tx, gone)
    now = rt.clock()
    offered = offer_top_ups(t, paid, now)
    queued = top_up_computer_players(t)  # (added by the timer, then the deal)
    if offered or queued:
        t.next_hand_at = max(t.next_hand_at or now, now + (TOP_UP_SECONDS if offered else 0))
        tx.group = True
    return offered or queued


def deal(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """Deal the next hand (R3, R4, R6): plan it from the match state, shuffle (a CSPRNG unless
    the service was given a seeded ``rng`` or a ``deck_source``), start the clocks (R8.5)."""
    apply_pending(t, tx, rt.clock())
    assert t.match is not None
    t.next_hand_at = None
    for queued in t.seats.values():
        queued.top_up = 0  # a queued top-up not added by now never will be (nothing was taken)
        queued.top_up_buy_in = False
    plan = t.match.next_hand(available(t))
    if plan.new_match and not t.match.match_over:
        # the last match never dealt its Fantasyland hand: its players sit out of it, or it
        # went with the player who earned it (who left): that match ends here (R6.6, R8.6)
        forfeit_fantasyland(rt, t, tx)
        return
    if t.tournament is not None:  # the level in force now applies to this hand (R8.7)
        t.tournament.deal(t.tournament.level_at(rt.clock()))
    seats, button = plan.seats, plan.button
    owners: dict[int, int] = {}
    # R4.2: two boards each for two players; a Fantasyland hand plays on the boards of its
    # match (R6.6): single ones when the match began with a third player, who left since
    doubled = plan.new_match or bool(t.match.owners)
    if t.options.heads_up_double_boxes and len(plan.seats) == 2 and doubled:
        seats, owners = double_box_seats(plan.seats)
        button = 10 * plan.button + 1
    stacked = None
    if rt.deal_source is not None:  # (the local sandbox's --fantasyland)
        stacked = rt.deal_source(t, tuple(seats), button, plan.fantasyland, owners)
    if stacked is not None:
        deck = list(stacked)
    elif rt.deck_source is not None:
        deck = list(rt.deck_source())
    elif rt.rng is not None:
        deck = shuffled_deck(rng=rt.rng)
    else:
        deck = shuffled_deck()  # CSPRNG (R1.1)
    setup = HandSetup.deal(t.options, seats, button, plan.fantasyland, deck=deck, owners=owners)
    t.match = t.match.begin(plan)
    t.plan = plan
    t.owners = owners
    for s in seats:  # their buy-in is that of this hand now (R8.2, apply_pending)
        if (dealt := t.seats.get(t.owner(s))) is not None:
            dealt.unplayed_buy_in = 0
    t.hand = Hand(setup)
    t.hand_no += 1
    t.phase = Phase.PLAYING
    t.last_deal_at = rt.clock()
    t.ready_deadline = None
    if t.options.game is GameKind.CHINESE and t.chinese is None:
        t.chinese = ChineseGame(t.options.target_points)
    # one clock per player, for both boards with double boxes (R4.2, R8.5)
    t.clocks = {}
    for s in seats:
        owner = t.owner(s)
        if owner not in t.clocks:
            player = t.seats.get(owner)
            t.clocks[owner] = _first_clock(t, t.hand, owner, player.bank if player else 0.0)
    sync_clocks(t, rt.clock())
    tx.group = True
    tx.show.update(plan.seats)


def _first_clock(t: LiveTable, hand: Hand, owner: int, bank: float) -> SeatClock:
    """The clock a player starts the hand with (R8.5): the hand's budget for their ordinary
    board(s), one for both boards of double boxes (R4.2), and each Fantasyland arrangement's
    own budget (R6: each board of double boxes plays its Fantasyland on its own). Boards the
    player plays at once share the clock, so their budgets add up (two Fantasyland boards:
    two arrangements' worth); a Fantasyland board that waits for the ordinary boards of two
    players (R6.3) gets its budget when its turn comes (:func:`sync_clocks`), not now: the
    ordinary board's streets took it (one board in Fantasyland had the arrangement's 180 s
    for both, its ordinary streets included, and the arrangement what they left)."""
    boards = [b for b in hand.order if t.owner(b) == owner]
    fantasyland = sum(1 for b in boards if hand.is_fantasyland(b))
    ordinary = len(boards) - fantasyland
    o = t.options
    if fantasyland and ordinary and hand.open_play:  # (the arrangement comes later)
        return SeatClock(o.hand_seconds, bank)
    budget = (o.hand_seconds if ordinary else 0) + o.fantasyland_seconds * fantasyland
    return SeatClock(budget, bank, fantasyland=fantasyland > 0)


def forfeit_fantasyland(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """At the deal, the Fantasyland hand due cannot be dealt: too few of the match's players
    are available (one sits out, R8.6; a newcomer waits for the next match), or none is left
    to deal (its players left with theirs, R6). The match is over
    (R6.6, :meth:`~game.match.MatchState.forfeited`): the group is told whose Fantasyland is
    not played, those who timed out in the match sit out now (R8.6: they were dealt the next
    match, and sat out after it by board seats read in its own seating, another player's
    seat among them), and the deal is decided
    anew, under the settings that waited for the match's end (the new match was dealt at the
    old ones, the Fantasyland dropped unsaid)."""
    assert t.match is not None
    m = t.match
    gone = dict.fromkeys(m.owners.get(b, b) for b in m.fantasyland)  # (per player, R4.2)
    names = [t.seats[s].name for s in gone if s in t.seats]
    t.match = t.match.forfeited()
    refill_banks(t, m.match_seats)  # (the match is over: as at a showdown that ends one)
    if names:
        t.owe("post", Screen(tr(t.lang, "lobby.fl_not_dealt", names=", ".join(names))))
    if t.match.due and t.tournament is None:  # the match ended its round (R8.3): its points
        paid = {s.seat for s in t.seats.values() if not t.busted(s)}  # are settled now
        _settle_round_end(t, tx, t.match.due)  # (a tournament's chips move every hand, R8.7)
        if offer_top_ups(t, paid, rt.clock()):  # (left below a point by it, R8.2)
            t.next_hand_at = rt.clock() + TOP_UP_SECONDS
    t.match = replace(t.match, due=())
    # board seats of the match's hands (R4.2): its owners, not the last hand's (gone with it:
    # Bob's boards 10 and 11 were no table seat, and Bob, timed out, was dealt in again)
    sit_out_timed_out(t, lambda s: m.owners.get(s, s))
    tx.group = True
    maybe_start(rt, t, tx)


def sit_out_timed_out(t: LiveTable, owner: Callable[[int], int]) -> None:
    """Move the players of the board seats :attr:`~game.match.MatchState.to_sit_out` (the
    match that just ended had their moves made on a timeout) to sit-out (R8.6); ``owner``:
    board seat → table seat (R4.2). Not in a tournament (R8.7: no sit-out), nor a computer
    player whose street the timeout rule made (its decision failed): it is not away, and
    sat out, nothing would ever bring it back (R8.6 returns a person)."""
    assert t.match is not None
    for s in t.match.to_sit_out if t.tournament is None else ():
        seat = t.seats.get(owner(s))
        if seat is not None and not seat.bot and not seat.back_early:
            seat.sitting_out = True
            seat.timed_out = True
    for seat in t.seats.values():  # (/back said during the hand: used, R8.6)
        if seat.back_early:
            # the match goes on (a Fantasyland hand earned): the sit-out this hand's timeout
            # set for the match's end is cancelled too (it sat them out after that hand)
            mine = [s for s in t.match.sit_out_after_match if owner(s) == seat.seat]
            t.match = t.match.back(mine)
        seat.back_early = False


def refill_banks(t: LiveTable, seats: Iterable[int]) -> None:
    """A match is over: the time banks of the table ``seats`` that played it get
    ``time_bank_refill_per_match`` seconds back (R8.5), up to the table's
    ``time_bank_seconds`` and never down: a bank above a lowered ``time_bank_seconds`` is
    kept, as the setting's reply says (R8.6: the seated keep theirs)."""
    if not t.options.time_bank_refill_per_match:
        return
    for st in (t.seats[s] for s in seats if s in t.seats):
        refilled = st.bank + t.options.time_bank_refill_per_match
        st.bank = max(st.bank, min(t.options.time_bank_seconds, refilled))


def sync_clocks(t: LiveTable, now: float) -> None:
    """Run the clocks of the players to act and stop the others (R8.5). Clocks are kept per
    table seat: with double boxes a player's one clock runs while either board is to act."""
    hand = t.hand
    acting = {t.owner(s) for s in hand.to_act} if hand is not None and not hand.is_over else set()
    for seat, clock in list(t.clocks.items()):
        if seat in acting and not clock.fantasyland:
            # the player's Fantasyland board, arranged after their ordinary board (R6.3,
            # double boxes, R4.2), begins: its own budget from now (R8.5), the bank kept. (A
            # player with no ordinary board had theirs at the deal; so had one whose clock a
            # snapshot from before the flag was kept restores.)
            assert hand is not None
            mine = [b for b in hand.order if t.owner(b) == seat]
            n = sum(1 for b in mine if b in hand.to_act and hand.is_fantasyland(b))
            if n and not all(hand.is_fantasyland(b) for b in mine):
                clock = t.clocks[seat] = clock.arrangement(t.options.fantasyland_seconds * n, now)
        if seat in acting and not clock.running:
            t.clocks[seat] = clock.start(now)
        elif seat not in acting and clock.running:
            t.clocks[seat] = clock.stop(now)


def settle_pairs(
    t: LiveTable, order: Sequence[int], pairs: Sequence[tuple[int, int, int]]
) -> dict[int, int]:
    """Kush deltas of table seats for pairwise points of table seats (R8.4, R5.7; the core's
    ``MatchState.due`` and ``round_pairs`` already merge the boards of double boxes per
    player, R4.2); ``order`` may name board seats of the hand. Pairs with a player no longer
    seated are dropped."""
    merged = {(a, b): p for a, b, p in pairs if a in t.seats and b in t.seats}
    if not merged:
        return {}
    owners_in_order = list(dict.fromkeys(t.owner(s) for s in order))
    owners_in_order += [o for pair in merged for o in pair if o not in owners_in_order]
    stacks = {o: t.seats[o].stack for o in owners_in_order if o in t.seats}
    settlement = settle(
        [(a, b, p) for (a, b), p in merged.items()], stacks, t.options.kush_per_point
    )
    return dict(settlement.deltas)


def settle_apart(
    t: LiveTable,
    tx: Tx,
    marker: str,
    facts: dict[str, Any],
    deltas: dict[int, int],
    seats: Iterable[int],
) -> None:
    """Record a settlement that is not a hand's (a round, R8.3; a Chinese Poker game, R7.6):
    a history entry of its own, numbered after the last hand, flagged ``marker`` and holding
    ``facts``, with the players of ``seats``; the stacks move by ``deltas`` (seat → kush).
    Its number is storage's key only: players' hand numbers skip it (:attr:`LiveTable.apart`)."""
    t.hand_no += 1
    t.apart += 1
    players = {s: t.seats[s].player_id for s in seats}
    record = {marker: True, **facts, "table": t.id,
              "kush": {str(s): d for s, d in deltas.items()}}  # fmt: skip
    tx.moves.append(
        Settlement(
            t.hand_no, {marker: True}, record, players, {players[s]: d for s, d in deltas.items()}
        )
    )
    for s, d in deltas.items():
        t.seats[s].stack += d


def _settle_round_end(t: LiveTable, tx: Tx, pairs: Sequence[tuple[int, int, int]]) -> None:
    """Settle the points of a round that ended between hands (R8.3: its last match a
    Fantasyland hand not dealt, R6.6), as a history entry of its own, and tell the group."""
    moves = _settle_round_pairs(t, tx, pairs)
    if moves is not None:
        t.owe("post", Screen(tr(t.lang, "round.settled_end", table=t.id, moves=moves)))


def _settle_round_pairs(t: LiveTable, tx: Tx, pairs: Sequence[tuple[int, int, int]]) -> str | None:
    """Settle a round's ``pairs`` (R8.3) as a history entry of its own; the kush moved as
    the group reads them, ``None`` when nothing moved."""
    assert t.match is not None
    order = [s for s in t.match.match_seats if s in t.seats] or sorted(t.seats)
    deltas = settle_pairs(t, order, pairs)
    if not any(deltas.values()):
        return None
    settle_apart(t, tx, "round_end", {"pairs": [list(p) for p in pairs]}, deltas, deltas)
    return _moves(t, sorted(deltas), deltas)


def settle_round(t: LiveTable, tx: Tx, who: str | None, *, closing: bool = False) -> None:
    """R8.3: points still owed from an unfinished round (``settle_per_round``) are settled
    before a stack leaves the table (``who``: the leaving player's name), the table closes
    (``closing``, R8.2a: every stack leaves) or new options apply (``None``); recorded as a
    history entry of its own."""
    if t.match is None or not t.match.round_pairs:
        return
    t.match, pairs = t.match.flush_round()
    moves = _settle_round_pairs(t, tx, pairs)
    if moves is None:
        return
    if closing:  # (not "Alice leaves": the first stack stood up by the close named)
        text = tr(t.lang, "round.settled_close", table=t.id, moves=moves)
    elif who is None:
        text = tr(t.lang, "round.settled_options", table=t.id, moves=moves)
    else:
        text = tr(t.lang, "round.settled", table=t.id, who=who, moves=moves)
    t.owe("post", Screen(text))


def leaves_after_hand(t: LiveTable, seat: SeatState) -> bool:
    """Whether ``seat`` leaving now, even not dealt in, must wait for the end of the hand
    being played (or revealed): the round's points (R8.3) or its Chinese Poker game (R7.6)
    are settled before it leaves, and a settlement in the middle of a hand would take that
    hand's number (and ending the game would leave the hand without it)."""
    playing = (t.hand is not None and not t.hand.is_over) or t.reveal is not None
    owed = seat.ready and t.match is not None and bool(t.match.round_pairs)
    in_game = t.chinese is not None and seat.seat in t.chinese.totals
    return playing and (owed or in_game) and t.tournament is None


def stand_up(t: LiveTable, tx: Tx, seat: SeatState) -> int:
    """A stack leaves the table: pending round points are settled first (R8.3; not for a
    seat that never bought in, which takes no stack away), Fantasyland
    the player earned is forfeited with the seat (R6, R8.2), and the stack goes back to the
    balance. Returns the kush cashed out. In a tournament that has started the buy-in stays
    in the prize pool until the payout (R8.7): nothing is cashed out then."""
    in_pool = t.tournament is not None and t.tournament.phase is not TournamentPhase.REGISTERING
    if not in_pool and seat.ready:  # (a seat never bought in takes no stack away: the round
        settle_round(t, tx, seat.name)  # goes on, R8.3)
    if t.match is not None:
        # the player's board seats in the hand that earned the match's Fantasyland (R4.2:
        # double boxes only with two players; a third plays single boards, option or not)
        boards = tuple(b for b, owner in t.match.owners.items() if owner == seat.seat)
        t.match = t.match.without(seat.seat, boards)
    amount = 0 if in_pool else t.seats[seat.seat].stack
    t.banks_left[seat.player_id] = seat.bank  # R8.6: rejoining does not refill it
    if in_pool and seat.bot is None:  # knocked out: how to tell them of a cancel's prize
        t.knocked_out[seat.player_id] = [seat.user_id, seat.lang]
    if not in_pool:
        tx.moves.append(CashOut(seat.player_id))
    del t.seats[seat.seat]
    t.record_left(seat.user_id)  # (an older table message's Join of theirs: out of date)
    tx.group = True
    return amount


def end_game(t: LiveTable, tx: Tx) -> None:
    """End a Chinese Poker game between hands and settle it on the current points (R7.6),
    recorded as a history entry of its own."""
    game = t.chinese
    assert game is not None
    game = game.end()
    order = sorted(s for s in game.totals if s in t.seats)
    deltas = settle_pairs(t, order, game.pairs(order))
    settle_apart(t, tx, "game_end", {"chinese": game.to_json()}, deltas, order)
    t.chinese = None
    # who won and lost what: "the game is over; kush are settled" alone left the group
    # guessing (the reveal that ends a game at its target shows it next to each player)
    moves = _moves(t, order, deltas)
    t.owe("post", Screen(tr(t.lang, "reveal.game_over_early", table=t.id, moves=moves)))


def _moves(t: LiveTable, seats: Iterable[int], deltas: Mapping[int, int]) -> str:
    """What a settlement moved, for the group: "Alice +22 kush, Bob -22 kush", each in the
    table's kush label ("🤖 Anna +24, You -24" named no unit)."""
    return ", ".join(
        tr(t.lang, "settle.move", name=t.seats[s].name, delta=deltas.get(s, 0), label=t.label)
        for s in seats
    )


def closed_notice(t: LiveTable) -> str:
    """What the table message says when admins close the table: a tournament is cancelled,
    every buy-in back (R8.7); any other table is closed (R8.2a)."""
    if t.tournament is not None:
        return tr(t.lang, "tour.cancelled", table=t.id)
    return tr(t.lang, "reply.table_closed", table=t.id)


def tell_chat_gone(t: LiveTable, tx: Tx, result: Mapping[str, Screen] | None = None) -> None:
    """The table closes because the bot may no longer write in its chat (R8.2a): nobody can
    read the closing notice there, nor the last showdown. Each person who bought in (or has
    a hand message) is told in private, on their hand message, the one chat still
    delivered: the table is closed and what they had at it is back in their balance (a
    tournament: what its cancel pays them, R8.7: the buy-in, or after a knock-out their share
    of the pool, :meth:`~game.tournament.Tournament.cancel_shares`; one just won: its prize;
    a seated player knocked out whose place takes nothing: so, ``private.chat_gone_tour_none``
    or, the tournament finished, ``private.chat_gone_final_none``, not "0 kush went to your
    balance"),
    with ``result``, the last hand's showdown (public once shown: no hidden card) by
    language, each player's own (the table's when it has none in theirs). Call in
    the closing step, after :func:`close_now` (a Chinese Poker tournament's game it settles
    moves the shares; the seats it stood up, and a player who left after the hand, are the
    step's :attr:`Tx.seated`).

    A tournament's player knocked out in an earlier hand (no longer seated,
    :attr:`LiveTable.knocked_out`) whose place the pool pays (a payout of three places, say)
    is told too, in a new private message: that prize reaches their balance only now. One
    it pays nothing is not written to: their balance does not change, and their place was
    told when they went out.

    The seated players' notices are the step's :attr:`Tx.privates`, the others' owed
    directly (:meth:`LiveTable.owe_private`): all are kept with the closed table's final
    snapshot until sent (a crash after the commit loses none,
    :func:`~bot.service.recovery.deliver`)."""
    key = "private.chat_gone" if t.tournament is None else "private.chat_gone_tour"
    if t.tournament is not None and t.tournament.finished is not None:  # won: its prizes
        key = "private.chat_gone_final"
    shares: dict[int, int] = {}
    if t.tournament is not None:  # (each player's own share: "your buy-in is back" was
        # untrue after a knock-out, when the pool goes to those still in)
        tour = t.tournament
        shares = {tour.players[s]: v for s, v in tour.cancel_shares().items()}
    places = (
        {t.tournament.players[s]: p for s, p in t.tournament.places.items()}
        if t.tournament is not None
        else {}
    )
    seated = {**tx.seated, **t.seats}.values()
    for seat in seated:
        if seat.bot is not None or not (seat.ready or seat.private_ref is not None):
            continue
        amount, place = shares.get(seat.player_id, 0), places.get(seat.player_id)
        if t.tournament is not None and amount <= 0 and place is not None:
            # knocked out, paid nothing by the cancel or the finish: said plainly (it read "0
            # kush from its pool went to your balance")
            none = "_tour_none" if key == "private.chat_gone_tour" else "_final_none"
            text = tr(seat.lang, f"private.chat_gone{none}", table=t.id, place=place)
        else:
            text = tr(seat.lang, key, table=t.id, amount=amount, label=t.label)
        if result is not None:
            shown = result.get(seat.lang) or result[t.lang]
            text += "\n\n" + shown.text
        tx.privates[seat.seat] = Screen(text, table=t.id)
    if t.tournament is None:
        return
    tour = t.tournament
    told = {seat.player_id for seat in seated}
    out_key = "private.chat_gone_out" if tour.finished is None else "private.chat_gone_out_final"
    for s, pid in enumerate(tour.players):
        amount = shares.get(pid, 0)
        if pid in told or pid not in t.knocked_out or amount <= 0:
            continue
        user_id, lang = t.knocked_out[pid]
        place = tour.places.get(s, 0)
        text = tr(lang, out_key, table=t.id, place=place, amount=amount, label=t.label)
        t.owe_private(user_id, Screen(text, table=t.id))


def tell_tournament_closed(t: LiveTable, tx: Tx, why: str | None = None) -> None:
    """An admin closed a tournament table (R8.2a, R8.7), or it closed itself: ``why``
    ``"idle"`` (no hand dealt for ``idle_close_seconds``, R8.2a) or ``"abandoned"``
    (:data:`~bot.service.showdown.ABANDONED_HANDS` hands nobody played; its players,
    away, read no group), each told as an admin's close is, in its own words (they were
    told only in the group, which a player knocked out earlier, paid a prize now, or one
    away may no longer read). Every registered person is told in
    a private message of their own what its pool paid them (a player knocked out earlier
    too, who may no longer read the group, when their place's prize reaches their balance
    only now: one the pool pays nothing is not written to, as :func:`tell_chat_gone`; a
    seated player knocked out, by the close itself or during the hand it waited for, whose
    place takes nothing is told so plainly, ``private.pool_paid_none_cancel``: knocked out,
    no prize, the buy-in not refunded, R8.7).
    Cancelled: ``private.admin_cancel`` (the buy-in back, or the pool's share,
    :meth:`~game.tournament.Tournament.cancel_shares`); won in the cancel (a Chinese Poker
    game it settles knocks out all but one): ``private.admin_over`` with the prize. Closed
    because the group's older table moved into its chat (:attr:`LiveTable.moved_close`, no
    admin did): ``private.moved_cancel`` / ``private.moved_over`` instead.

    Call in the closing step, after :func:`close_now`; the seated players are the step's
    :attr:`Tx.seated`, the others :attr:`LiveTable.knocked_out`; computer players and
    people the table has no chat for are skipped. The notices are owed as new messages
    (:meth:`LiveTable.owe_private`): kept with the closed table's final snapshot until sent,
    so a restart after a crash sends them, once (:func:`~bot.service.recovery.deliver`); a
    seated player's hand message keeps the last hand."""
    tour = t.tournament
    if tour is None:
        return
    why = why or ("moved" if t.moved_close else "admin")
    lead = f"private.{why}_cancel" if tour.finished is None else f"private.{why}_over"
    shares = tour.cancel_shares()
    seated = {
        seat.player_id: seat for seat in {**tx.seated, **t.seats}.values() if seat.bot is None
    }
    for s, pid in enumerate(tour.players):
        seat = seated.get(pid)
        if seat is not None:
            user_id, lang = seat.user_id, seat.lang
        elif pid in t.knocked_out and shares.get(s, 0) > 0:
            user_id, lang = t.knocked_out[pid]
        else:  # (a computer player, nobody to tell, or one knocked out earlier whose place
            # the pool pays nothing: their balance does not change, their place was told)
            continue
        amount, place = shares.get(s, 0), tour.places.get(s)
        if place is None:
            paid = tr(lang, "private.pool_paid", amount=amount, label=t.label)
        elif amount > 0:
            paid = tr(lang, "private.pool_paid_place", place=place, amount=amount, label=t.label)
        elif tour.finished is None:  # (R8.7: no buy-in back once someone is out)
            paid = tr(lang, "private.pool_paid_none_cancel", place=place)
        else:
            paid = tr(lang, "private.pool_paid_none", place=place)
        t.owe_private(user_id, Screen(tr(lang, lead, table=t.id) + " " + paid, table=t.id))


def forgone_fantasyland(
    t: LiveTable, board_seats: Iterable[int] | None = None, lang: str | None = None
) -> str:
    """The line a closing table's message adds when a Fantasyland was earned that will now
    never be played (R6, R8.2a): "🌴 Anna: the Fantasyland earned is not played." (names of
    the seated players it was earned for, in the table's language); ``""`` for none.
    ``board_seats``: the hand's board seats that earned it (the hand just ended); ``None``:
    those the table's match holds for the next hand (a close between hands). ``lang``: not
    the table's (an admin's reply)."""
    if board_seats is None:
        board_seats = t.match.fantasyland if t.match is not None else ()
    # board seat → table seat (double boxes, R4.2): the hand's, or after it the match's
    owners = t.owners or (t.match.owners if t.match is not None else {})
    names: list[str] = []
    for b in board_seats:
        st = t.seats.get(owners.get(b, b))
        if st is not None and st.name not in names:
            names.append(st.name)
    if not names:
        return ""
    return tr(lang or t.lang, "close.fantasyland_forgone", names=", ".join(names))


def close_now(
    t: LiveTable,
    tx: Tx,
    notice: str,
    *,
    with_stacks: bool = False,
    fantasyland: str = "",
) -> list[tuple[str, int]]:
    """Close a table with no hand running, in this transition: a Chinese Poker game under way
    is settled (R7.6), a tournament that will not finish settles its pool (R8.7), every
    stack is cashed out after the round's points (R8.3), and the table message says
    ``notice`` (R8.2a), or with ``with_stacks``, when stacks went back, where they went
    (:func:`stacks_back`, in the table's language: one closing message, not "Table #1 is
    closed." followed by "Table #1 is closed; stacks returned …"). Returns what the people
    seated (not bots: house kush) cashed out, ``(name, kush)`` in seat order, a stack of 0
    left out; none for a tournament, whose pool pays out instead (:func:`stacks_back` says
    them). ``fantasyland``: the line of :func:`forgone_fantasyland`, said after the notice."""
    from bot.service import tournaments

    if t.tournament is not None:  # a tournament that will not finish: its pool settled
        tournaments.cancel(t, tx, _with_line(notice, fantasyland))
        return []
    if t.chinese is not None and t.chinese.totals:
        end_game(t, tx)
    settle_round(t, tx, None, closing=True)  # the round's points first (R8.3), as closing
    returned = []
    for seat in sorted(t.seats.values(), key=lambda s: s.seat):
        amount = stand_up(t, tx, seat)
        if seat.bot is None and amount > 0:
            returned.append((seat.name, amount))
    if with_stacks and returned:
        notice = stacks_back(t, t.lang, returned)
    close_with(t, tx, _with_line(notice, fantasyland))
    return returned


def _with_line(notice: str, line: str) -> str:
    """``notice`` and, when there is one, ``line`` under it."""
    return f"{notice}\n{line}" if line else notice


def stacks_back(t: LiveTable, lang: str, returned: Sequence[tuple[str, int]]) -> str:
    """Where the stacks of a closed table went (R8.2a), as a leaver's notice says it: "Table
    #3 is closed; stacks returned to balances: Alice 330 kush, Bob 166 kush." (``returned``: from
    :func:`close_now`, not empty)."""
    stacks = ", ".join(
        tr(lang, "close.stack", name=name, amount=amount, label=t.label)
        for name, amount in returned
    )
    return tr(lang, "reply.table_closed_cashed", table=t.id, stacks=stacks)


def close_with(t: LiveTable, tx: Tx, notice: str) -> None:
    """The last of a closing transition (every stack cashed out or paid out already): the
    table is closed in storage with the commit, and its message says ``notice``, owed in the
    outbox after the rest of the step's messages (kept with the closed table's final
    snapshot until sent: a restart after a crash sends it, :func:`.recovery.deliver`)."""
    t.seats = {}
    t.hand = None
    t.phase = Phase.CLOSED
    tx.close = True
    tx.group = False
    t.owe("table", Screen(notice))
