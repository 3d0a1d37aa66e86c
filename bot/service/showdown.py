"""The end of a hand: settlement into kush (R8.3, R8.4), the record, sit-outs (R8.6), stacks
that leave, the showdown the chat is owed, and the next deal. All of it is one transition: the
settlement, the cash-outs, the stored showdown and the next phase commit together (issue 10)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import pictures, render
from bot.model import LiveTable, Phase, SeatState
from bot.screens import Screen
from bot.service import tournaments
from bot.service.dealing import (
    TOP_UP_SECONDS,
    apply_pending,
    available,
    close_now,
    closed_notice,
    forgone_fantasyland,
    maybe_start,
    refill_banks,
    settle_pairs,
    sit_out_timed_out,
    stand_up,
    tell_chat_gone,
    tell_tournament_closed,
    to_lobby,
    top_up_computer_players,
    top_up_window,
)
from bot.service.runtime import Runtime, Tx
from bot.texts import tr
from game.hand import Hand, HandResult
from game.match import player_pairs
from game.options import GameKind
from storage.api import Settlement

__all__ = ["close_hand", "finish_open_face", "keep_banks"]


def keep_banks(t: LiveTable) -> None:
    """Carry each player's time bank left over to the next hand (R8.5; one per player, for
    both boards with double boxes, R4.2); refilled per match by
    ``time_bank_refill_per_match`` for the players of the match only: a seat that sat it
    out (or waited to be dealt in) played none, and stepping away never refills the bank
    at the same table (R8.6)."""
    assert t.match is not None
    played = [owner for owner in t.clocks if owner in t.seats]
    for owner in played:
        t.seats[owner].bank = t.clocks[owner].bank
    if t.match.match_over:
        refill_banks(t, played)
    t.clocks = {}


def finish_open_face(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """Showdown of an OFC or Pineapple hand: the match moves on (R6.6), the points due now are
    settled (every hand, or at the end of a round with ``settle_per_round``, R8.3)."""
    hand = t.hand
    assert hand is not None and hand.result is not None and t.match is not None
    # the round's points are settled early when a stack could not cover them (R8.3); chips
    # of a tournament are settled every hand (R8.7)
    stacks = {s: st.stack for s, st in t.seats.items()} if t.tournament is None else None
    t.match = t.match.after_hand(hand.result, owners=t.owners, stacks=stacks)
    keep_banks(t)
    if t.tournament is not None:  # chips, not kush (R8.7)
        # board seats of double boxes (R4.2) are not the core's seats: points per player
        pairs = player_pairs(hand.result.pairs, t.owners)
        settled = t.tournament.settle(pairs) if tournaments.running(t) else None
        record = hand.result.to_json()
        record["tournament"] = tournaments.record_of(t, settled)
        notes = tournaments.after_settlement(t, settled)
        chips = settled.settlement.deltas if settled is not None else None
        close_hand(rt, t, tx, record, {}, notes, chips)
        return
    deltas = settle_pairs(t, hand.result.order, t.match.due)
    close_hand(rt, t, tx, hand.result.to_json(), deltas)


#: Hands in a row in which every player of a running tournament timed out (R8.5) after which
#: it is cancelled, every buy-in back: R8.7 plays an absent player's hands for them, and a
#: tournament nobody is at may never end (Chinese Poker counts such boards fouled, R7.7, so
#: no chips ever move), dealing into the group for good.
ABANDONED_HANDS = 3


def abandoned(t: LiveTable, result: HandResult, played: bool) -> bool:
    """Count the tournament hand just finished (``result``) towards :data:`ABANDONED_HANDS`
    (every board timed out and nobody finished a street of their own) or start again
    (someone played); ``True`` when the count is reached. ``played``: :func:`played_in`. A
    player who plays some streets and lets the clock make the rest (R8.5, R8.7) is there:
    with every player doing so, three hands in a row stopped the tournament as one "nobody
    played", the chips won in it undone."""
    everyone_out = bool(result.seats) and all(r.timed_out for r in result.seats) and not played
    t.absent_hands = t.absent_hands + 1 if everyone_out else 0
    return t.absent_hands >= ABANDONED_HANDS


def played_in(hand: Hand) -> bool:
    """Whether some player finished a street of ``hand`` themselves, not on a timeout
    (:meth:`~game.hand.Hand.played_a_street`): what :func:`abandoned` asks. A card placed on
    a street the clock then finished does not count (a Chinese Poker arrangement not made in
    time scores 0, R7.7: with such hands alone no chip ever moves)."""
    return any(hand.played_a_street(s) for s in hand.order)


def _next_point(t: LiveTable) -> int:
    """The kush of a point a stack is to pay after this hand: the lower of the point in force
    and one saved during the hand that applies as it ends (:func:`~.dealing.apply_pending`:
    the match is over, R6.6; never at a tournament's or a closing table). A raised one is
    told apart (``lobby.point_raised``)."""
    new = t.options_due()
    if new is None or t.closing or t.tournament is not None:
        return t.options.kush_per_point
    return min(new.kush_per_point, t.options.kush_per_point)


def close_hand(
    rt: Runtime,
    t: LiveTable,
    tx: Tx,
    record: dict[str, Any],
    deltas: dict[int, int],
    notes: Callable[[str], Sequence[str]] | None = None,
    chips: Mapping[int, int] | None = None,
) -> None:
    """Record the finished hand with its kush (a :class:`~storage.api.Settlement` move), move
    timed-out players to sit-out (R8.6), stand up the leaving and the busted (R8.2; a busted
    computer player queues a top-up of the minimum buy-in from its house account), put the
    showdown in the outbox, and go on to the next hand (or the lobby)."""
    hand = t.hand
    assert hand is not None and hand.result is not None and t.match is not None
    result = hand.result
    dealt = {t.owner(x) for x in result.order}
    # a seat not dealt in (sitting out, R8.6) that pays or takes the round's points (R8.3) is
    # one of the entry's players too, so its /history and /stats show that kush
    players = {s: t.seats[s].player_id for s in t.seats if s in dealt or deltas.get(s)}
    record["kush"] = {str(s): d for s, d in deltas.items()}
    # each stack after the hand, as the showdown shows it (the replay's kush line)
    record["stacks"] = {str(s): t.seats[s].stack + d for s, d in deltas.items()}
    record["table"] = t.id
    if t.apart:  # the number players saw, a settlement having taken one of storage's before
        record["shown_no"] = t.shown_no  # (:func:`~.stats.shown_number`)
    for s, d in deltas.items():
        t.seats[s].stack += d
    top_up_computer_players(t)  # (a busted computer player tops up: not busted any more)
    if not t.fantasyland_follows():  # the table closes after it: no Fantasyland is played
        record["fantasyland_forgone"] = True
    else:  # nor by a player who leaves after it (knocked out of a tournament, R8.7)
        earned = [r.seat for r in result.seats if r.fantasyland_cards]
        gone = [s for s in earned if not t.fantasyland_played(s)]
        if gone:
            record["fantasyland_forgone_seats"] = gone
        # a player the hand left below a point plays it only after a top-up (R8.2): the
        # replay says so as the showdown does
        waits = [s for s in earned if s not in gone and t.fantasyland_if_top_up(s)]
        if waits:
            record["fantasyland_top_up_seats"] = waits
    if t.owners:
        record["owners"] = {str(k): v for k, v in t.owners.items()}
    tx.moves.append(
        Settlement(
            t.hand_no,
            hand.to_json(),
            record,
            players,
            # the round's points (R8.3) may be owed by a seat not dealt in now (sitting out
            # after a timeout, R8.6): every seat with a delta moves, the hand's players or not
            {t.seats[s].player_id: d for s, d in deltas.items()},
        )
    )
    sit_out_timed_out(t, t.owner)
    # a stack that cannot pay a point is offered the top-up before the next deal (R8.2); a
    # player who joined during the hand and has not bought in yet keeps the seat; a point
    # lowered during the hand applies as it ends: a stack that pays the new one is not told
    # to top up (nor the next deal held for it)
    point = _next_point(t)
    busted = [
        (st.name, st.stack)
        for st in t.seats.values()
        if t.busted(st) and not st.leaving and st.stack < point
    ]
    # the picture reads the game's totals before a finished Chinese Poker game is cleared
    group_notes = notes(t.lang) if notes is not None else ()
    picture = (
        pictures.showdown_picture(t, t.lang, deltas, group_notes, chips) if t.pictures else None
    )

    def showdown_in(lang: str) -> Screen:
        if t.options.game is GameKind.CHINESE:
            shown = render.reveal_screen(t, lang, deltas, busted)
        else:
            shown = render.showdown_screen(t, lang, record, deltas, busted)
        lines = notes(lang) if notes is not None else ()
        if lines:
            shown = Screen(shown.text + "\n\n" + "\n".join(lines), shown.buttons)
        return shown

    screen = showdown_in(t.lang)
    # nobody reads the group once the bot is gone (R8.2a): each player is told the showdown
    # in private, in their own language (:func:`tell_chat_gone`)
    langs = (
        {st.lang for st in (*t.seats.values(), *tx.seated.values())}
        if t.closing and t.chat_gone
        else set()
    )
    showdowns = {lang: showdown_in(lang) for lang in langs | {t.lang}}
    ended: int | None = None  # a Chinese Poker game to this target ended with the hand
    if t.options.game is GameKind.CHINESE and t.chinese is not None and t.chinese.over:
        ended = t.chinese.target
        t.chinese = None  # the next hand starts a new game (R7.6)
    # the showdown is stored with the state it belongs to and sent after the commit
    t.owe("table", screen)
    if picture is not None:  # and its picture, drawn when it is sent (issue 12)
        # a round settled after its last hand (R8.3): the caption says so, as the text does
        later = (
            not deltas
            and t.options.settle_per_round
            and t.options.game is not GameKind.CHINESE
            and not t.round_settled_after_hand()
        )
        t.owe_picture(picture.to_json(), pictures.caption_of(picture, later))
    for owner in sorted(players):
        if owner in t.seats:  # each player's final board, in private
            tx.privates[owner] = rt.render_private(t, t.seats[owner])
    # the showdown is rendered with every player of the hand seated; then the leaving go
    # (their round settled first, R8.3, as a notice after the showdown)
    for st in list(t.seats.values()):
        if st.leaving:
            amount = stand_up(t, tx, st)
            # the group is told the seat is free: a person's cash-out as a /leave between
            # hands says it (R8.2), a computer player's stack goes back to the house; a
            # tournament's knock-out notice said it already (R8.7)
            if st.bot:
                t.owe("post", Screen(tr(t.lang, "bot.left_after_hand", name=st.name)))
            elif t.tournament is None:
                key = "notice.left_after_hand" if amount else "notice.left_after_hand_nothing"
                note = tr(t.lang, key, name=st.name, amount=amount, label=t.label)
                t.owe("post", Screen(note))
                if st.kicked:  # (told when kicked that it would come: told now it came)
                    told = _kicked_stood_up(t, st, amount, ended)
                    t.owe_notice(st.user_id, Screen(told, table=t.id))
    t.last_result = record
    for st in t.seats.values():  # the top-ups made before this hand were shown through it
        st.topped_up = 0
    t.hand = None
    t.plan = None
    t.owners = {}
    t.reveal = None
    if not t.closing:
        # settings saved during the hand apply now when the next hand plays them (the match
        # is over, R6.6; the buy-in between hands, R8.2), not at the deal: the table message
        # between hands showed the old buy-in and point while the next hand paid the new
        # ones. A stack the new point leaves below one is offered the top-up now (R8.2);
        # a computer player's is queued now (it was told to top up, the 20 s window waited)
        apply_pending(t, tx, rt.clock())
        top_up_computer_players(t)
    if len(available(t)) >= t.options.min_players:
        t.phase = Phase.BETWEEN
        delay = rt.next_hand_delay
        if delay > 0 and (
            busted or any(t.busted(st) and not st.leaving for st in t.seats.values())
        ):
            delay = max(delay, TOP_UP_SECONDS)  # time to take the top-up
        t.next_hand_at = rt.clock() + delay
    else:
        to_lobby(t)  # (a late joiner's time to press Ready gives way to the lobby's timer)
        top_up_window(rt, t, tx, available(t))  # a busted player's top-up may be all it takes
    tx.group = True
    if t.tournament is not None and t.tournament.finished is not None:
        if t.closing and t.chat_gone:  # (nobody reads the final standings in the chat)
            tell_chat_gone(t, tx, showdowns)
        tournaments.finish(rt, t, tx)  # the last player with chips won: pay the pool out
        return
    if t.closing:  # an admin asked to close it during the hand (R8.2a)
        # where the stacks went, as /closetable between hands answers it (the closing
        # message's "is closed." alone left players asking), said in that one message: a
        # notice of its own after it read "Table #1 is closed." twice in a row
        # a Fantasyland the hand earned is never played (R6): said, not dropped silently
        earned = [r.seat for r in result.seats if r.fantasyland_cards]
        forgone = forgone_fantasyland(t, earned)
        close_now(t, tx, closed_notice(t), with_stacks=not t.chat_gone, fantasyland=forgone)
        if t.chat_gone:  # (the bot's removal: the chat reads neither notice nor result;
            # told after the close, which may settle a Chinese Poker game and so the shares)
            tell_chat_gone(t, tx, showdowns)
        else:  # an admin's: a tournament's registered players told in private (R8.7)
            tell_tournament_closed(t, tx)
        return
    if t.tournament is not None and abandoned(t, result, played_in(hand)):
        close_now(t, tx, tr(t.lang, "tour.abandoned", table=t.id, hands=ABANDONED_HANDS))
        tell_tournament_closed(t, tx, "abandoned")  # (away: they read no group)
        return
    if t.next_hand_at is not None and rt.next_hand_delay <= 0 and not t.top_ups_due():
        maybe_start(rt, t, tx)  # (queued top-ups are added first, by the timer: R8.2)


def _kicked_stood_up(t: LiveTable, seat: SeatState, amount: int, game: int | None) -> str:
    """The private notice (in the player's language) of a player an admin's ``/kick`` stood
    up during a hand at the cash table ``t`` (:attr:`SeatState.kicked`), as they stand up
    now that it ended: ``amount`` kush of their stack back to their balance (R8.2, R8.5),
    or nothing left. They were told when kicked that this would come
    (``private.kicked_later``) and were told nothing when it came. ``game``: the target of
    the Chinese Poker game that ended with the hand (their leave ended it, R7.6), which is
    what they were told they wait for (``private.kicked_later_chinese``): the notice says
    the game is over, not the hand (``private.kicked_stood_up_chinese``)."""
    suffix = "" if game is None else "_chinese"
    if amount == 0:
        key = f"private.kicked_stood_up_nothing{suffix}"
        return tr(seat.lang, key, table=t.id, target=game)
    key = f"private.kicked_stood_up{suffix}"
    return tr(seat.lang, key, table=t.id, target=game, amount=amount, label=t.label)
