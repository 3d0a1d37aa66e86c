"""Sit-and-go tournaments at a table (R8.7, issue 11): the lobby (register, unregister, start),
hands settled in chips by the core's :class:`~game.tournament.Tournament`, knock-outs, and the
payout of the prize pool.

Kush: a registration moves the buy-in from the balance to the player's stack at the table (a
``buy_in`` ledger row), so the stacks of a tournament table are its prize pool; unregistering
before the start, or a tournament cancelled before anyone is out, moves it back (``refund``
rows). Hands move chips only (the core keeps them); at the end the pool is paid out in one
transition: a settlement that moves the stacks to the prizes (``hand_result`` rows summing to
zero) and every stack cashed out, so the pool always balances (what was paid in = what was
paid out). Knocked-out players keep their stack row (their buy-in stays in the pool) until
that payout."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.model import Actor, LiveTable, Phase, Reply, SeatState
from bot.screens import Screen
from bot.service.dealing import close_with, maybe_start, settle_apart, stand_up
from bot.service.runtime import Runtime, TransitionFailed, Tx
from bot.texts import error_text, grouped, language_of, on, tr
from game.errors import GameError
from game.tournament import HandSettled, TournamentPhase
from storage.api import (
    BuyIn,
    CashOut,
    Community,
    InsufficientFunds,
    Joined,
    LedgerKind,
    Settlement,
)

__all__ = [
    "after_settlement",
    "back_from_away",
    "cancel",
    "end_game_on_leave",
    "finish",
    "finish_mid_hand",
    "keep_back",
    "register",
    "running",
    "start",
    "unregister",
]


def running(t: LiveTable) -> bool:
    """A tournament table whose tournament has started and is not over."""
    return t.tournament is not None and t.tournament.phase is TournamentPhase.RUNNING


def back_from_away(rt: Runtime, t: LiveTable, user_id: str) -> SeatState | None:
    """The player ``user_id`` did something at the table (a press, a command; call under
    ``t.lock`` before it is handled): if they were away (R8.7, :func:`bot.service.play.
    mark_away`) they are back, and their own clock counts again from now on, as much as it
    has left (R8.5: nothing refills), and the table message loses its mark. Returns the
    seat when it was away: the caller commits it before answering (with the step the press
    makes, or a step of its own: :func:`keep_back`), never in the background only (a crash
    lost it: after the restart they were away again, their next turn waiting only the
    grace)."""
    seat = t.seat_of(user_id)
    if seat is None or not seat.away:
        return None
    seat.away = False
    rt.show_group_later(t)  # the mark and the grace's time go from the table message
    return seat


async def keep_back(rt: Runtime, t: LiveTable, seq: int) -> None:
    """Commit a player's coming back (:func:`back_from_away`, done while ``t.seq`` was
    ``seq``; call under ``t.lock`` before the press or command is answered): a step committed
    since holds it already (its snapshot was taken after it); otherwise a step of its own
    commits it. Storage refusing that, it is saved in the background as before."""
    if t.seq != seq or not rt.open_here(t):  # (a closed table: nobody is away any more)
        return
    try:
        async with rt.transition(t):
            pass  # (the table as it is: the player back)
    except TransitionFailed:
        rt.save_soon(t)


async def register(
    rt: Runtime, t: LiveTable, community: Community, actor: Actor, lang: str, *, again: bool = True
) -> Reply:
    """Register (R8.7): the buy-in moves to the prize pool; the last free seat starts it. A
    buy-in the store refuses for a short balance (another step took from it after it was
    read: a buy-in at another table of the server) is refused naming the balance the refusing
    transaction read (:func:`~bot.service.wallet.refusal_balance`), or, when the balance read
    after the refusal covers it (a /grant landing meanwhile), made once more (``again``)."""
    from bot.service import wallet  # (wallet → bots → dealing → this module)

    tour = t.tournament
    assert tour is not None
    player = await rt.store.player(community.id, actor.user_id, actor.name, actor.language)
    if player.id in tour.players and tour.phase is not TournamentPhase.REGISTERING:
        # one of its players (/join typed again once it runs): not "registration is closed",
        # read as if they were not in it; knocked out (or leaving at the end of the hand),
        # "out already", as /leave says
        seat = t.seat_of(actor.user_id)
        out = seat is None or seat.leaving
        key = "tour.already_out" if out else "err.already_registered"
        return Reply(tr(lang, key), alert=True)
    try:
        tour.verify_register(player.id)
    except GameError as exc:
        return Reply(error_text(lang, exc.code), alert=True)
    if player.balance < tour.config.buy_in:
        return await wallet.no_money(
            rt, lang, t, community, player.id, tour.config.buy_in, player.balance
        )
    seat_lang = community.settings.language
    try:
        async with rt.transition(t) as tx:
            registered = tour.register(player.id, rt.clock())
            seat = SeatState(
                seat=len(tour.players) - 1,
                player_id=player.id,
                user_id=actor.user_id,
                name=t.distinct_name(actor.name),  # two of one name are told apart
                lang=seat_lang if seat_lang in ("en", "ru") else lang,
                own_lang=language_of(actor.language),
                stack=tour.config.buy_in,
                ready=True,
                bank=t.options.time_bank_seconds,
            )
            t.seats[seat.seat] = seat
            t.names[player.id] = seat.name
            t.joined_at[player.id] = rt.clock()  # (R8.6: a table joined since a leave)
            if t.opener is None:  # its opener unregistered with nobody left (_pass_opener)
                t.opener = actor.user_id
            tx.moves.append(BuyIn(player.id, tour.config.buy_in))
            tx.moves.append(Joined(t.platform, actor.user_id))  # another table joined (R8.6)
            tx.group = True
            if registered.started is not None:
                _begin(rt, t, tx)
    except InsufficientFunds as exc:
        # (not the balance read before the step, which paid it: "the buy-in is 33, you have
        # 50", nor one read after the refusal)
        have = await wallet.refusal_balance(rt, exc, player.id, tour.config.buy_in, again)
        if have is None:  # (covered by now: tried once more)
            return await register(rt, t, community, actor, lang, again=False)
        return await wallet.no_money(rt, lang, t, community, player.id, tour.config.buy_in, have)
    return Reply(tr(lang, "tour.registered", amount=tour.config.buy_in, label=t.label))


async def unregister(
    rt: Runtime,
    t: LiveTable,
    actor: Actor,
    lang: str,
    *,
    left_group: bool = False,
    kicked: str | None = None,
) -> Reply:
    """Unregister before the start: the buy-in comes back (R8.7), a ``refund`` ledger row (not
    ``cash_out``: they never played, as a cancel's refund); ``left_group``: the player
    left the group (or was removed), which the group is told in a short notice; ``kicked``:
    an admin's ``/kick`` unregistered them (how their seat shows them), the answer the
    group's one notice naming them, and they are told in a private notice of their own
    (``private.kicked_unregistered``, :meth:`~bot.model.LiveTable.owe_notice`)."""
    tour = t.tournament
    assert tour is not None
    seat = t.seat_of(actor.user_id)
    if seat is None or not tour.can_unregister(seat.player_id):
        return Reply(tr(lang, "tour.not_registered"), alert=True)
    async with rt.transition(t) as tx:
        tour.unregister(seat.player_id)
        t.names.pop(seat.player_id, None)
        # (a buy-in given back to a player who did not play: a refund, as a cancel's)
        tx.moves.append(CashOut(seat.player_id, LedgerKind.REFUND))
        del t.seats[seat.seat]
        t.record_left(seat.user_id)  # (an older table message's Register: out of date)
        # seats follow the registration order (the core's seats)
        t.seats = {tour.seat_of(s.player_id): s for s in t.seats.values()}
        for number, s in t.seats.items():
            s.seat = number
        tx.group = True
        if left_group:
            key = on(t.platform, "notice.left_group_unregistered")  # Discord: "the server"
            t.owe("post", Screen(tr(t.lang, key, name=seat.name)))
        if kicked is not None and seat.bot is None:  # (they may not read the group: told
            # in private too, after the commit, kept in the snapshot until sent)
            told = tr(seat.lang, "private.kicked_unregistered", table=t.id,
                      amount=tour.config.buy_in, label=t.label)  # fmt: skip
            t.owe_notice(seat.user_id, Screen(told, table=t.id))
        if actor.user_id == t.opener:
            _pass_opener(t)
    if kicked is not None:
        amount = tour.config.buy_in
        return Reply(tr(lang, "reply.kicked_unregistered", name=kicked, amount=amount,
                        label=t.label))  # fmt: skip
    return Reply(tr(lang, "tour.unregistered", amount=tour.config.buy_in, label=t.label))


def _pass_opener(t: LiveTable) -> None:
    """The opener of a tournament not started yet unregistered (R8.7): the part of starting
    it goes to the first person still registered, and the group is told so; with nobody
    left, to whoever registers next (:func:`register`). It stayed theirs: the others could
    not start it and waited for the seats to fill or for the idle close (R8.2a)."""
    heir = next((s for _, s in sorted(t.seats.items()) if s.bot is None and not s.leaving), None)
    t.opener = None if heir is None else heir.user_id
    if heir is not None:
        t.owe("post", Screen(tr(t.lang, "tour.opener_passed", name=heir.name)))


async def start(rt: Runtime, t: LiveTable, actor: Actor, is_admin: bool, lang: str) -> Reply:
    """Start with the players registered (the opener or an admin; at least two, R8.7)."""
    tour = t.tournament
    assert tour is not None
    if actor.user_id != t.opener and not is_admin:
        return Reply(tr(lang, "tour.start_who"), alert=True)
    try:
        tour.verify_start()
    except GameError as exc:
        return Reply(error_text(lang, exc.code), alert=True)
    async with rt.transition(t) as tx:
        tour.start(rt.clock())
        _begin(rt, t, tx)
    return Reply(tr(lang, "tour.started"))


def _begin(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """The tournament has started: deal its first hand."""
    t.phase = Phase.BETWEEN
    t.next_hand_at = None
    tx.group = True
    tx.show.update(t.seats)
    maybe_start(rt, t, tx)


def after_settlement(t: LiveTable, settled: HandSettled | None) -> Callable[[str], list[str]]:
    """Knock-outs of a settled hand (R8.7): the players out leave the table at the end of the
    hand (their buy-in stays in the pool). Returns the lines the showdown adds, as a function
    of the language they are read in (the group's; a player's own when the showdown is told
    in private, :func:`~bot.service.dealing.tell_chat_gone`): call it before the knocked-out
    seats stand up."""
    tour = t.tournament
    assert tour is not None
    if settled is not None:
        for ko in settled.knocked_out:
            seat = t.seats.get(ko.seat)
            if seat is not None:
                seat.leaving = True

    def lines(lang: str) -> list[str]:
        out: list[str] = []
        if settled is None:
            return out
        chips = ", ".join(
            f"{t.seats[s].name} {grouped(c, lang)}"
            for s, c in sorted(tour.chips.items())
            if s in t.seats
        )
        out.append(
            tr(lang, "tour.chips_line", level=settled.level, cpp=settled.chips_per_point,
               chips=chips or "–")
        )  # fmt: skip
        for ko in settled.knocked_out:
            seat = t.seats.get(ko.seat)
            if seat is not None:
                out.append(
                    tr(lang, "tour.knocked_out", name=seat.name, place=ko.place,
                       prize=ko.prize, label=t.label)
                )  # fmt: skip
        return out

    return lines


def record_of(t: LiveTable, settled: HandSettled | None) -> dict[str, Any]:
    """What the hand's history record says of the tournament."""
    tour = t.tournament
    assert tour is not None
    out: dict[str, Any] = {"chips": {str(s): c for s, c in tour.chips.items()}}
    if settled is not None:
        # each seat's chips this hand moved (the replay's chip line, as a cash hand's kush)
        out["won"] = {str(s): d for s, d in settled.settlement.deltas.items()}
        out["level"] = settled.level
        out["chips_per_point"] = settled.chips_per_point
        out["knocked_out"] = [k.to_json() for k in settled.knocked_out]
    return out


def finish(rt: Runtime, t: LiveTable, tx: Tx, before: Sequence[str] = ()) -> None:
    """The tournament is over (R8.7): the pool is paid out by place, every stack is cashed
    out and the table closes, in this transition; the final standings replace the table
    message, ``before`` (lines: the last knock-out, when a player's leaving ended it) above
    them, in that one group write."""
    _pay_out(t, tx, before)


def _pay_out(t: LiveTable, tx: Tx, before: Sequence[str] = ()) -> None:
    """:func:`finish`; ``before``: lines the final standings follow (a cancel's game)."""
    tour = t.tournament
    assert tour is not None and tour.finished is not None
    players = tour.players  # player ids by seat
    prizes = tour.prizes
    buy_in = tour.config.buy_in
    deltas = {players[s]: prizes.get(s, 0) - buy_in for s in range(len(players))}
    deltas = {pid: d for pid, d in deltas.items() if d}
    names = dict(t.names)
    standings = sorted(tour.places.items(), key=lambda kv: (kv[1], kv[0]))  # ties by seat
    record = {
        "tournament_end": True,
        "table": t.id,
        "places": {str(s): p for s, p in tour.places.items()},
        "prizes": {str(s): v for s, v in prizes.items()},
        "pool": tour.pool,
        "buy_in": buy_in,
        "kush": {str(s): prizes.get(s, 0) - buy_in for s in range(len(players))},
    }
    t.hand_no += 1
    tx.moves.append(
        Settlement(
            t.hand_no,
            {"tournament_end": True},
            record,
            {s: pid for s, pid in enumerate(players)},
            deltas,
        )
    )
    for pid in players:
        tx.moves.append(CashOut(pid))
    lines = [*before, tr(t.lang, "tour.final", table=t.id, pool=tour.pool, label=t.label)]
    for seat, place in standings:
        name = names.get(players[seat], f"#{seat + 1}")
        lines.append(
            tr(t.lang, "tour.place", place=place, name=name, prize=prizes.get(seat, 0),
               label=t.label)
        )  # fmt: skip
    close_with(t, tx, "\n".join(lines))


def finish_mid_hand(
    rt: Runtime, t: LiveTable, tx: Tx, leaver: SeatState, before: Sequence[str] = ()
) -> list[tuple[SeatState, Screen]]:
    """The tournament finished while a hand was being played or revealed: the last opponent
    of the winner left (R8.7: knocked out at that moment, their chips out of play, the last
    player with chips wins). The hand cannot change that, so it is not played on: it is
    dropped unsettled (no chip moves in it; its number goes to the final record, no history
    entry has it) and the pool is paid out now (:func:`finish`), hidden cards staying hidden.
    Returns each person's private message, for the closing step's :attr:`Tx.privates`
    (their hand message would keep its buttons; kept with the closed table's final snapshot
    until sent): the winner is told why, ``leaver`` that they have no hand. The group is
    told in one write, the final standings over the table message with ``before`` (the
    leaver's knock-out) and why the hand is not played on above them (two notices before
    the standings made three group writes, with the answer to the ``/leave`` four)."""
    assert t.hand is not None
    final = tr(t.lang, "tour.final_mid_hand", table=t.id, hand=t.shown_no)
    privates = [
        (
            seat,
            Screen(
                tr(seat.lang, "private.none")
                if seat is leaver
                else tr(seat.lang, "tour.final_mid_hand", table=t.id, hand=t.shown_no)
            ),
        )
        for seat in t.seats.values()
        if not seat.bot and seat.private_ref is not None
    ]
    t.hand = None
    t.plan = None
    t.owners = {}
    t.reveal = None
    t.clocks = {}
    t.hand_no -= 1  # (never settled: the final record takes its number)
    finish(rt, t, tx, [*before, final])
    return privates


def end_game_on_leave(rt: Runtime, t: LiveTable, tx: Tx, knocked: str, leaver: int) -> None:
    """A player of a running Chinese Poker tournament left between hands (knocked out, their
    chips out of play, R8.7; ``knocked``: the group's line saying so) while a game was under
    way with them in it: the game ends with them, as when a player leaves during a hand
    (:func:`~bot.service.chinese.close_chinese_hand`) and at a cash table (R7.6), settled on
    its score in chips at the level of its last hand among the players still in (the
    leaver's points dropped, as their chips left play). The players it leaves at 0 chips are
    knocked out and stand up; one player left wins and the pool is paid out (:func:`finish`);
    otherwise the group is told and the next hand dealt (brk76: the game went on with the
    leaver's points in it, what the others had won from each other waiting for another
    game's end, which a leave during the hand settled at once).

    ``leaver``: their seat; the game ends only if they are in it (in its ``totals``), as the
    cash table's leave (:func:`~bot.service.lobby.depart`) and
    :func:`~bot.service.chinese.close_chinese_hand` check it. The game settled is recorded
    as a history entry of its own (``game_end``, with its chips), as a cash table's game
    ended between hands is (:func:`~bot.service.dealing.end_game`): it had none, and
    ``/history`` never showed the chips it moved."""
    # (no game under way, or one over: :func:`_settle_game` settles nothing)
    leaver_in = t.chinese is not None and leaver in t.chinese.totals
    lines = _settle_game(t, tx, "tour.game_over_leave") if leaver_in else []
    for seat in [s for s in t.seats.values() if s.leaving]:  # (knocked out by the game)
        stand_up(t, tx, seat)
    tour = t.tournament
    assert tour is not None
    if tour.finished is not None:
        finish(rt, t, tx, [knocked, *lines])
        return
    t.owe("post", Screen("\n".join([knocked, *lines])))
    maybe_start(rt, t, tx)


def cancel(t: LiveTable, tx: Tx, notice: str) -> None:
    """Close a tournament table that will not finish (an admin closes it, or nobody plays)
    and settle its pool (:meth:`~game.tournament.Tournament.cancel_shares`): before anyone is
    knocked out every buy-in goes back (``refund`` rows); after a knock-out it is rolled
    forward as card rooms do: the players knocked out keep their places' prizes (their
    buy-ins stay in the pool: a cancel refunded them whole, out of what the players still in
    had won), the players still in share the rest, by a settlement of the stacks to the
    shares (``hand_result`` rows summing to zero) and every stack cashed out, as
    :func:`finish` pays: what the pool held is paid out, no more, no less. The table closes;
    its message says ``notice`` and how the pool went (once: ``notice`` may be that already,
    :func:`~bot.service.dealing.closed_notice`).

    A Chinese Poker game under way is settled first on its current score, in chips at the
    level of its last hand (R7.6, R8.7: chips move at the end of each game, and a game that
    ends early is settled on its score, as R7.7 and a cash table's close do; dropped, the
    points it had won counted nothing and the pool went by the chips of the last game's
    end). Its knock-outs place as a hand's do; one player left wins, and the pool is paid
    out as at a finish. That game's end is a history entry of its own (``game_end``, with
    the chips it moved and no kush), before the cancel's refund or payout, in this
    transition, as when a leaver ends it (:func:`end_game_on_leave`); /history lists it.
    Before, the cancel settled its chips with no entry of their own."""
    tour = t.tournament
    assert tour is not None
    game_lines = _settle_game(t, tx)
    cancelled = tr(t.lang, "tour.cancelled", table=t.id)
    if tour.finished is not None:  # the game's score knocked out all but one: they won
        # (not "cancelled, every buy-in back": the pool is paid out by place)
        _pay_out(t, tx, [*([] if notice == cancelled else [notice]), *game_lines])
        return
    players = tour.players
    shares = tour.cancel_shares()
    buy_in = tour.config.buy_in
    if all(v == buy_in for v in shares.values()):  # nobody out yet: as if it never started
        # (the game's chips, settled or not, change no refund: not told)
        for pid in players:
            tx.moves.append(CashOut(pid, LedgerKind.REFUND))
        close_with(t, tx, notice if notice == cancelled else f"{notice}\n{cancelled}")
        return
    names = dict(t.names)
    deltas = {players[s]: shares[s] - buy_in for s in range(len(players))}
    t.hand_no += 1
    tx.moves.append(
        Settlement(
            t.hand_no,
            {"tournament_end": True},
            {
                "tournament_end": True,
                "cancelled": True,
                "table": t.id,
                "places": {str(s): p for s, p in tour.places.items()},
                "prizes": {str(s): v for s, v in shares.items()},
                "pool": tour.pool,
                "buy_in": buy_in,
                "kush": {str(s): shares[s] - buy_in for s in range(len(players))},
            },
            {s: pid for s, pid in enumerate(players)},
            {pid: d for pid, d in deltas.items() if d},
        )
    )
    for pid in players:
        tx.moves.append(CashOut(pid))
    if notice == cancelled:
        notice = ""
    lines = [notice] if notice else []
    lines.extend(game_lines)
    lines.append(tr(t.lang, "tour.cancelled_shared", table=t.id, pool=tour.pool, label=t.label))
    places = tour.places
    for seat in sorted(shares, key=lambda s: (places.get(s, 0), -shares[s], s)):
        name = names.get(players[seat], f"#{seat + 1}")
        if seat in places:
            line = tr(t.lang, "tour.cancel_out", name=name, place=places[seat],
                      prize=shares[seat], label=t.label)  # fmt: skip
        else:
            line = tr(t.lang, "tour.cancel_in", name=name, chips=tour.chips.get(seat, 0),
                      prize=shares[seat], label=t.label)  # fmt: skip
        lines.append(line)
    close_with(t, tx, "\n".join(lines))


def _settle_game(t: LiveTable, tx: Tx, key: str = "tour.game_settled_cancel") -> list[str]:
    """Settle the Chinese Poker game under way of a running tournament that is cancelled
    (:func:`cancel`) or that a player of it leaves (:func:`end_game_on_leave`; call with no
    hand running): ended now, its points each-with-each in chips at the level
    of its last hand (R7.6, R8.7), as a game at its target is; the players it leaves at 0
    chips are knocked out. Returns the group's lines: what it moved (text ``key``), and the
    knock-outs; none when no game is under way (the last one ended and settled, or none
    begun). The settlement is recorded in ``tx`` as a history entry of its own (``game_end``:
    the game and the chips it moved, :func:`record_of`; no kush moves), numbered before
    anything the caller records after it."""
    tour, game = t.tournament, t.chinese
    if tour is None or game is None or game.over or not game.totals or not running(t):
        return []
    game = game.end()
    order = sorted(s for s in game.totals if s in t.seats)
    settled = tour.settle(game.pairs(order))
    facts = {"chinese": game.to_json(), "tournament": record_of(t, settled)}
    settle_apart(t, tx, "game_end", facts, {}, order)
    t.chinese = None
    deltas = settled.settlement.deltas
    moves = ", ".join(
        tr(t.lang, "tour.chip_move", name=t.seats[s].name, sign="+" if d > 0 else "−" if d else "",
           amount=abs(d))
        for s, d in sorted(deltas.items())
        if s in t.seats
    )  # fmt: skip
    return [
        tr(t.lang, key, moves=moves or "–"),
        *after_settlement(t, settled)(t.lang)[
            1:
        ],  # (its first line: the chips, which the shares say)
    ]
