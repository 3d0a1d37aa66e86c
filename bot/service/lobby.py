"""Seating: opening a table, Join, Ready with its buy-in, Leave with its cash-out, sit-out and
back, and closing the table (R8.2, R8.2a, R8.6). Every step that changes the table is one
transition: the buy-in and the deal it may trigger, or the cash-out and the settlement before
it (R8.3), commit together with the table's new state (issue 10)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Literal

from bot.model import (
    LEAVE_CONFIRM_SECONDS,
    REQUESTS_KEPT,
    Actor,
    LiveTable,
    Phase,
    Reply,
    SeatState,
)
from bot.render import busted_notices, closes_after_hand
from bot.screens import Screen
from bot.service import tournaments, wallet
from bot.service.bots import bare_name, house_funds, typed_name
from bot.service.chinese import claimant_continues
from bot.service.dealing import (
    TOP_UP_SECONDS,
    available,
    close_now,
    closed_notice,
    end_game,
    forgone_fantasyland,
    full_table,
    leaves_after_hand,
    maybe_start,
    next_buy_in,
    offer_top_ups,
    stacks_back,
    stand_up,
    stand_up_unready,
    tell_chat_gone,
    tell_tournament_closed,
    to_lobby,
    top_up_window,
)
from bot.service.numbers import digits_hint, read_whole
from bot.service.play import advance
from bot.service.runtime import SAFE_PRESS_SECONDS, Runtime, TransitionFailed, Tx
from bot.service.settings import note_zone, reconcile
from bot.service.stats import means_me
from bot.texts import language_of, on, tr
from game.match import MatchState
from game.options import RuleOptions
from game.tournament import Tournament, TournamentPhase
from storage.api import (
    BuyIn,
    Community,
    CommunitySettings,
    InsufficientFunds,
    Joined,
    LeaseLost,
    StorageError,
    answer_within,
)

log = logging.getLogger("bot.service")

__all__ = [
    "add_top_ups",
    "back",
    "close",
    "close_table",
    "depart",
    "join",
    "leave",
    "open_table",
    "ready",
    "rename",
    "show_renamed",
    "sit_out",
    "stack_limit",
    "top_up",
]


def _closed_requests(rt: Runtime, community: Community, platform: str, chat_id: str) -> list[str]:
    """The one-shot command keys a new table of the chat takes on (:func:`open_table`): those
    of the chat's table closed before it, in memory (:attr:`Runtime.chat_requests`), and
    those its community saved when its tables closed (a restart forgot the others), the last
    :data:`~bot.model.REQUESTS_KEPT`."""
    here = rt.chat_requests.get((platform, chat_id), [])
    saved = [k for k in community.settings.table_requests if k not in here]
    return [*saved, *here][-REQUESTS_KEPT:]


async def open_table(
    rt: Runtime,
    community: Community,
    platform: str,
    chat_id: str,
    options: RuleOptions,
    lang: str,
    *,
    tournament: Tournament | None = None,
    opener: str | None = None,
    topic: str | None = None,
    request: str | None = None,
) -> LiveTable:
    """Open a table in a chat and post its lobby message (the caller checked that the chat has
    none, under the chat's :meth:`Runtime.opening_lock`, held until this returns). With
    ``tournament``, a sit-and-go lobby (R8.7) whose buy-in is the tournament's.
    ``topic``: the Telegram forum topic it was opened in, where its messages go. The table
    keeps the one-shot command keys of the chat's table closed before it
    (:attr:`Runtime.chat_requests`; after a restart the community's,
    :attr:`~storage.api.CommunitySettings.table_requests`) and ``request``, the key of the
    command opening it: a
    copy of any of them delivered later applies no more (a /closetable closes no table
    opened since), the keys committed with the opening.

    :raises TransitionFailed: storage refused the opening: no table is opened (its record is
        closed again when storage allows)."""
    settings = community.settings
    buy_in = tournament.config.buy_in if tournament is not None else settings.min_buy_in
    try:
        try:
            record = await rt.store.create_table(community.id, chat_id, options.to_json(), buy_in)
        except LeaseLost:
            raise
        except StorageError:
            # perhaps made all the same (a connection lost after its COMMIT), or by an opening
            # refused since: a record served nowhere, never saved, held the chat, and every
            # /newtable after it was refused "already has an open table" until a restart. (No
            # other opening of the chat is under way here to have made it: the caller holds
            # the chat's :meth:`Runtime.opening_lock`)
            if not await _close_unopened(rt, community.id, chat_id):
                raise
            record = await rt.store.create_table(community.id, chat_id, options.to_json(), buy_in)
    except LeaseLost as exc:  # another worker serves this chat (issue 14)
        raise TransitionFailed(str(exc)) from exc
    t = LiveTable(
        id=record.id,
        platform=platform,
        community_id=community.id,
        community_ext=community.external_id,
        chat_id=chat_id,
        lang=lang,
        options=options,
        min_buy_in=buy_in,
        label=rt.kush_label(community),
        pictures=settings.pictures,
        match=MatchState.new(options),
        last_deal_at=rt.clock(),
        tournament=tournament,
        opener=opener,
        topic=topic,
        requests=_closed_requests(rt, community, platform, chat_id),
    )
    t.remember(request)
    rt.add(t)
    try:
        async with t.lock, rt.transition(t) as tx:
            tx.group = True
            if tournament is None:  # settings an admin saved while the table was being made
                # (updates are handled at once, on both platforms) went to the tables
                # served then, not to this one: it takes them now, as a restart would
                try:
                    fresh = await rt.store.get_community(community.id)
                except StorageError:  # (then the next settings change, or a restart)
                    fresh = None
                if fresh is not None and fresh.settings != settings:
                    reconcile(t, fresh.settings, tx, rt.clock(), rt.kush_label(fresh))
    except TransitionFailed:
        # the opening was not saved: the table's record is closed again and the table no
        # longer served, so the chat's next /newtable (the refusal says "try again") opens
        # one; if storage refuses that too, the table stays served as storage has it, open
        # (a restart closes a table with no snapshot)
        with contextlib.suppress(Exception):
            await rt.store.commit(t.id, [], None, key=f"t{t.id}:unopened", close=True)
            rt.forget(t)
        raise
    # the group's time zone, in which its message says when a turn ends (R8.5)
    note_zone(rt, community)
    return t


async def _close_unopened(rt: Runtime, community_id: int, chat_id: str) -> bool:
    """Close the chat's open table record when it was never opened: served nowhere here
    and without a snapshot (its opening transition never committed: the table it would
    have been is gone with its failed :func:`open_table`); no stack can be at it. ``True``
    when one was closed."""
    record = await rt.store.open_table(community_id, chat_id)
    if record is None or record.id in rt.tables:
        return False
    state = await rt.store.table_state(record.id)
    if state is None or state[1]:
        return False
    if await rt.store.stacks(record.id):  # (never with no snapshot, but kush is never shut in)
        return False
    log.warning("table %s: never opened (its opening not saved); closed", record.id)
    await rt.store.commit(record.id, [], None, key=f"t{record.id}:unopened", close=True)
    return True


async def join(rt: Runtime, t: LiveTable, community: Community, actor: Actor, lang: str) -> Reply:
    """Take a free seat (R8.2). Refused without enough kush for the buy-in, and at a table an
    admin closed during the hand (R8.2a, :func:`close`). At a tournament table, register
    (R8.7). Seated while hands are being played, the player has
    ``ready_seconds`` to press Ready, or is stood up (:func:`_ready_window`). A player
    leaving after the hand takes that back by joining (:func:`_may_stay`), unless an
    admin's ``/kick`` stood them up (:attr:`~bot.model.SeatState.kicked`): refused,
    ``reply.join_kicked``; after the hand they may join again (a kick is no ban). In
    Chinese Poker they stand up when the game to the target ends, with the hand or its
    reveal (R7.6): ``reply.join_kicked_chinese`` says so.

    The time bank refills when the player joins another table, not when they leave and
    rejoin the same one (R8.6; seed 000: it renews whenever the player moves to another
    table): the bank the player left here with (:attr:`LiveTable.banks_left`) comes back
    only if the table they joined last (:meth:`~storage.api.Store.last_table`, written with
    every join in its transaction, whichever worker served it, kept over restarts) is this
    one, or one they still sit at and sat down at before leaving here (:func:`_still_seated`:
    seated at A and B, leaving A and rejoining it is rejoining the same table); after
    A → B → A, B joined after leaving A (left since or not), the bank at A is full again.
    A bank given back is at most
    :meth:`~bot.model.LiveTable.new_bank` (the admins' latest ``time_bank_seconds``, one that
    waits for the match's end included, as the newcomer's): a lowered setting applies to the
    player rejoining as the admin was told ("players who sit down from now on"); a raised
    one refills nothing (R8.5)."""
    if t.tournament is not None:
        return await tournaments.register(rt, t, community, actor, lang)
    seated = t.seat_of(actor.user_id)
    if seated is not None and seated.leaving and seated.kicked:  # an admin's /kick is not
        # taken back by the player kicked: they stand up as the hand ends, then may join
        # again as anyone may (a kick is no ban); their own /leave Join takes back, below
        if t.chinese is not None:  # they stand up when the game ends (R7.6), not the hand
            return Reply(tr(lang, "reply.join_kicked_chinese", target=t.chinese.target), alert=True)
        return Reply(tr(lang, "reply.join_kicked"), alert=True)
    if seated is not None and seated.leaving and _may_stay(t, seated):
        async with rt.transition(t) as tx:  # Join takes a leave not yet acted on back
            seated.leaving = False
            seated.leave_asked = 0.0
            seated.left_group = False  # (back in the group: a new departure counts again)
            tx.group = True
            if t.plays_now(seated):  # (their hand's screen said "you leave")
                tx.show.add(seated.seat)
        return Reply(tr(lang, "reply.leave_cancelled"))
    if seated is not None:  # (leaving after the hand: "already seated" read as staying)
        key = "reply.already_leaving" if seated.leaving else "reply.already_seated"
        return Reply(tr(lang, key), alert=True)
    if t.closing:  # an admin closed it during the hand (R8.2a): nobody sits down there (they
        # were told "you sit at seat N" and stood up, their buy-in cashed out, at its end)
        return Reply(tr(lang, on(t.platform, "reply.table_closing"), table=t.id), alert=True)
    # the newcomer sits down after the lobby's ready timer's step, if it is overdue: as one
    # seated during the hand, with ``ready_seconds`` to press Ready (seated first, they were
    # stood up with the unready at once, told "Press Ready" and then "too late")
    await _lobby_timer_first(rt, t)
    free = [s for s in range(t.options.max_players) if s not in t.seats]
    if not free:
        return full_table(t, lang)
    player = await rt.store.player(community.id, actor.user_id, actor.name, actor.language)
    # the buy-in of the next hand, the first they play: one an admin saved during this hand
    # applies as it ends (R8.2; the old one refused a balance the new one covers)
    need = next_buy_in(t)
    if player.balance < need:
        return await wallet.no_money(rt, lang, t, community, player.id, need, player.balance)
    kept = t.banks_left.get(player.id)  # R8.6: given back at the table joined last only
    if kept is not None:
        last = await rt.store.last_table(t.platform, actor.user_id)
        moved = last is not None and last != t.id  # (None: joined before storage kept it)
        left = t.left_at.get(player.id)
        if moved and not await _still_seated(rt, t.platform, actor.user_id, last, left):
            kept = None  # joined another table since: a full bank
    async with rt.transition(t) as tx:
        t.banks_left.pop(player.id, None)
        seat = SeatState(
            seat=free[0],
            player_id=player.id,
            user_id=actor.user_id,
            name=t.distinct_name(actor.name),  # two of one name are told apart
            lang=lang,  # the caller's language for this actor (a group's forced one first)
            own_lang=language_of(actor.language),  # (what ``lang`` becomes under "auto")
            # R8.6: no refill at the same table, but never above the bank a newcomer gets now
            # (an admin's lowered time_bank_seconds, R8.5, "for who sits down from now on")
            bank=t.new_bank() if kept is None else min(kept, t.new_bank()),
        )
        t.seats[seat.seat] = seat
        t.joined_at[player.id] = rt.clock()
        tx.moves.append(Joined(t.platform, actor.user_id))  # the table joined last (R8.6)
        if t.opener is None:  # its opener left with nobody seated (runtime.pass_opener)
            t.opener = actor.user_id
        _ready_window(rt, t, seat)
        tx.group = True
        if t.phase is Phase.LOBBY and t.ready_deadline is None:
            # in the lobby next to two ready computer players, the ready timer starts for
            # this unready seat (R8.2) as it does when the second player presses Ready (one
            # running applies to it as it is; one run out is the timer's step to make)
            maybe_start(rt, t, tx)
    if t.phase is Phase.LOBBY and t.ready_deadline is not None and not seat.ready:
        # the lobby's ready timer runs (R8.2): how long they have ("Press Ready to buy in",
        # a second before the timer stood them up, told them nothing of it)
        left = max(0, int(t.ready_deadline - rt.clock() + 0.999))  # (as the lobby counts)
        return Reply(tr(lang, "reply.joined_timer", seat=seat.seat + 1, seconds=left))
    if t.hand is not None and (end := t.ready_window_end(seat)) is not None:
        # seated while a hand is played (R8.2): dealt in from the next one once Ready within
        # the window; "Press Ready to buy in" alone left the Join of a hand under way unsaid
        left = max(0, int(end - rt.clock() + 0.999))  # (as the table message counts it)
        return Reply(tr(lang, "reply.joined_mid_hand", seat=seat.seat + 1, seconds=left))
    return Reply(tr(lang, "reply.joined", seat=seat.seat + 1))


def _may_stay(t: LiveTable, seat: SeatState) -> bool:
    """Whether ``seat``, leaving after the hand being played (R8.2), may take that back with
    Join: nothing was done for them yet, no card of theirs placed as on timeout (R8.5; a
    clock's move of theirs counts too, R8.6), no Chinese Poker reveal under way (their claim
    was counted as continued, R7.5), the table not closing (R8.2a). A computer player
    removed never joins."""
    hand = t.hand
    if hand is None or hand.is_over or t.reveal is not None or t.closing:
        return False
    if t.tournament is not None or seat.bot is not None:
        return False
    view = hand.view(None)  # (Chinese Poker's too: LiveTable.timed_out_now leaves it out)
    return not any(view.seat(b).timed_out for b in t.boards_of(seat))


async def _still_seated(
    rt: Runtime, platform: str, user_id: str, table_id: int | None, since: float | None = None
) -> bool:
    """Whether the platform user still sits at table ``table_id``, and sat down there before
    ``since`` (when they left the table they rejoin, :attr:`LiveTable.left_at`; ``None`` or a
    seat's time unknown: any seat): a seat at a table served
    here, or in the last committed snapshot of one another worker serves
    (:meth:`~storage.api.Store.table_state`; a seat not bought in yet too, as here: only a
    stack, :meth:`~storage.api.Store.seated_tables`, when the snapshot does not read).
    The table a player joined last is no move away from a table they left and rejoin while
    they sit at both (R8.6: "not when they leave and rejoin the same one"): a multi-tabler
    refilled a spent bank by leaving and rejoining. One they sat down at after leaving is
    (R8.6: "refills when the player joins another table"): leaving A, joining B and coming
    back to A while at B gave A's bank back, not a full one. Storage errors propagate (the join's
    :func:`~storage.api.answer_within` bounds the wait)."""
    if table_id is None:
        return False
    here = rt.tables.get(table_id)
    if here is None:
        state = await rt.store.table_state(table_id)
        if state is None:  # closed since
            return False
        try:
            here = LiveTable.from_json(state[1], rt.clock()) if state[1] else None
        except Exception:  # (the worker serving it judges its snapshot)
            here = None
        if here is None:
            return table_id in await rt.store.seated_tables(platform, user_id)
    seat = here.seat_of(user_id) if here.platform == platform else None
    if seat is None:
        return False
    joined = here.joined_at.get(seat.player_id)
    return since is None or joined is None or joined <= since


async def _lobby_timer_first(rt: Runtime, t: LiveTable, *, busted: bool = False) -> None:
    """The lobby's ready timer ran out (R8.2) before the table's timer fired (a loaded bot, a
    timer a moment late): its step is made now, as if it had fired on time (the unready
    stood up, the hand dealt), before a /join or /back is played (call under ``t.lock``).
    Played first, the command changed who the timer stands up: a newcomer or a player back
    from sit-out was stood up the same moment, told "press Ready". ``busted``: the command
    is the /back of a busted player sitting out (R8.2, R8.6: the seat is kept while sitting
    out): the lobby's top-up window that ran out, or the next deal between hands that came
    due, is made first too; made after the /back, that step stood them up, told "top up to
    play", the seat gone."""
    now = rt.clock()
    if t.phase is Phase.LOBBY:
        due = [t.ready_deadline, t.top_up_deadline if busted else None]
    elif t.phase is Phase.BETWEEN and busted:
        due = [t.next_hand_at]
    else:
        return
    if any(d is not None and now >= d for d in due):
        await _deal_step(rt, t)


def _ready_window(rt: Runtime, t: LiveTable, seat: SeatState) -> None:
    """A player who is seated and not bought in while hands are being played (they joined,
    or came back from sit-out, outside the lobby) gets ``ready_seconds`` from now to press
    Ready (the latest setting, one waiting for the match's end included); then the table's
    timer stands them up (R8.2,
    :func:`~bot.service.dealing.stand_up_unready`): otherwise the seat would be held for good
    (the lobby's ready timer does not run, and the hands the others play keep the idle close,
    R8.2a, away). In the lobby its own ready timer applies."""
    if (
        t.phase is not Phase.LOBBY
        and not seat.ready
        and t.tournament is None
        and seat.ready_by is None  # (back from sit-out: the time runs on, not anew)
    ):
        seat.ready_by = rt.clock() + t.ready_seconds()  # the admins' latest


async def ready(rt: Runtime, t: LiveTable, actor: Actor, lang: str, *, again: bool = True) -> Reply:
    """Ready: the buy-in moves from the balance to the stack (R8.2) in the same transition as
    the readiness and the deal it may trigger; a second Ready is refused. Ready is also
    coming back from sit-out (R8.6), bought in or not. A buy-in refused for a short balance
    that covers it by the time the refusal reads it (a /grant, a cash-out at another table
    landing at that moment) is made once more (``again``); the refusal names the balance the
    refusing transaction read (:func:`~bot.service.wallet.refusal_balance`)."""
    seat = t.seat_of(actor.user_id)
    if seat is None:  # (a free seat at an open table: Join is what they missed, R8.2)
        free = len(t.seats) < t.options.max_players and not t.closing
        cash = "reply.join_first" if free else "reply.not_seated"
        return await _absent(rt, t, actor, lang, "tour.ready", cash=cash)
    if t.tournament is not None:
        return Reply(tr(lang, "tour.ready"), alert=True)
    if seat.leaving:  # stands up when the hand ends (R8.2): no buy-in, no coming back
        return Reply(tr(lang, "reply.already_leaving"), alert=True)
    busted = t.busted(seat)
    if await _timer_first(rt, t, seat):  # (bought in and busted: the top-up's time ran out)
        key = "reply.topup_too_late" if busted else "reply.ready_too_late"
        return Reply(tr(lang, key), alert=True)
    if seat.ready and seat.sitting_out:
        return await back(rt, t, actor, lang)  # Ready while sitting out: come back
    if seat.ready:
        if t.busted(seat):  # bought in, but the stack cannot pay a point: Ready does not help
            return _busted_reply(t, seat, lang)
        return Reply(tr(lang, "reply.already_ready"), alert=True)
    if t.closing:  # an admin closed it during the hand (R8.2a): no buy-in for a hand never
        # dealt (it was taken, "you're ready", and cashed out again at the close)
        return Reply(tr(lang, on(t.platform, "reply.table_closing"), table=t.id), alert=True)
    # the next hand's buy-in, the first hand Ready deals them in: one an admin saved during
    # this hand applies as it ends (R8.2: "it applies from the next hand"; the old one was
    # taken, and the newcomer sat down with a stack of the old buy-in)
    amount = next_buy_in(t)
    try:
        async with rt.transition(t) as tx:
            tx.moves.append(BuyIn(seat.player_id, amount))
            seat.stack += amount
            seat.unplayed_buy_in = amount  # (a lower buy-in before their first hand: the
            # difference goes back, dealing.apply_pending)
            seat.ready = True
            seat.ready_by = None
            seat.sitting_out = seat.timed_out = False  # Ready means playing (R8.6)
            tx.group = True
            maybe_start(rt, t, tx)
    except InsufficientFunds as exc:
        have = await wallet.refusal_balance(rt, exc, seat.player_id, amount, again)
        if have is None:  # (covered by now: tried once more)
            return await ready(rt, t, actor, lang, again=False)
        community = await rt.store.community(t.platform, t.community_ext)
        return await wallet.no_money(rt, lang, t, community, seat.player_id, amount, have)
    return Reply(tr(lang, "reply.ready", amount=amount, label=t.label))


def _overdue(rt: Runtime, t: LiveTable, seat: SeatState) -> Literal["window", "deal"] | None:
    """Whether the table's timer, had it fired on time, would already have stood ``seat`` up:
    ``"window"``, seated while hands were being played and not Ready within
    ``ready_seconds`` (R8.2, :func:`~bot.service.dealing.stand_up_unready`); ``"deal"``, the
    lobby's ready timer ran out with the player not Ready (R8.2), or the top-up they were
    offered (busted, R8.2) was not taken before the next deal or the end of the lobby's
    top-up window (:data:`~bot.service.dealing.TOP_UP_SECONDS`)."""
    now = rt.clock()
    end = t.ready_window_end(seat)
    if end is not None and now >= end:
        return "window"
    if t.hand is not None or t.reveal is not None or seat.leaving:
        return None
    if seat.sitting_out and seat.ready:  # (bought in: the seat is kept, R8.6)
        return None
    if (
        not seat.ready
        and t.phase is Phase.LOBBY
        and t.ready_deadline is not None
        and now >= t.ready_deadline
    ):
        return "deal"
    if t.busted(seat) and (
        (t.top_up_deadline is not None and now >= t.top_up_deadline)
        or (t.phase is Phase.BETWEEN and t.next_hand_at is not None and now >= t.next_hand_at)
    ):
        return "deal"
    return None


async def _timer_first(rt: Runtime, t: LiveTable, seat: SeatState) -> bool:
    """A Ready or a top-up pressed after the time for it ran out, before the table's timer
    fired (a loaded bot, a timer a moment late): the timer's step is made now, as if it had
    fired first (:func:`bot.service.timers.on_time`: the top-ups queued during the hand, then
    the unready or the busted stood up and the deal), and the press then finds the presser
    stood up: it is answered "too late" (it counted, dealing in a player whose time was up;
    the same as :func:`bot.service.play._too_late` for a card). Returns whether the presser
    was stood up."""
    kind = _overdue(rt, t, seat)
    if kind is None:
        return False
    user_id = seat.user_id
    if kind == "window":
        async with rt.transition(t) as tx:
            stand_up_unready(t, tx, rt.clock())
    else:
        await _deal_step(rt, t)
    return t.seat_of(user_id) is None


async def _deal_step(rt: Runtime, t: LiveTable) -> None:
    """The step of the table's timer whose time came for a deal (call under ``t.lock``): the
    top-ups queued during the hand, then the unready or busted stood up and the deal
    (:func:`bot.service.timers.on_time`), made now by a command that came first."""
    if t.top_ups_due():  # (the timer adds them first)
        await add_top_ups(rt, t)
    async with rt.transition(t) as tx:
        if t.next_hand_at is not None and rt.clock() >= t.next_hand_at:
            t.next_hand_at = None
        maybe_start(rt, t, tx)
        tx.group = True


#: The most kush one top-up may ask for (far below the database's integer limit).
MAX_TOP_UP = 10**12


def stack_limit(t: LiveTable, settings: CommunitySettings | None) -> int:
    """The most a stack may hold after a top-up (R8.2): ``max_buy_in``, or 5 × the minimum
    buy-in when it is 0, as ``/settings`` says it (:attr:`CommunitySettings.top_up_limit`:
    a buy-in saved during a hand is the table's when the top-up is added, after the hand;
    /topup said "at most 1000", 5 × the old one, while /settings said 1500); 5 × the
    table's buy-in when no settings are stored."""
    return settings.top_up_limit if settings is not None else 5 * t.min_buy_in


async def top_up(
    rt: Runtime,
    t: LiveTable,
    community: Community,
    actor: Actor,
    lang: str,
    amount: str = "",
    request: str | None = None,
) -> Reply:
    """Top up the stack from the balance between hands (R8.2): by ``amount`` kush, or by the
    minimum buy-in when none is given, never past the table's maximum (``max_buy_in``,
    5 × the minimum by default). A busted player who tops up plays the next hand. Asked for
    during the player's hand, the top-up is queued and added when the hand ends
    (:func:`add_top_ups`); a second one replaces it.

    ``request`` (the platform's key of the command) makes it apply once: the same command
    delivered again is answered "already done" and moves nothing (:meth:`LiveTable.applied`).
    """
    if t.applied(request):
        return Reply(tr(lang, "reply.request_done"))
    seat = t.seat_of(actor.user_id)
    if seat is None:
        return await _absent(rt, t, actor, lang, "tour.no_topup")
    if t.tournament is not None:
        return Reply(tr(lang, "tour.no_topup"), alert=True)
    if t.closing:  # closes after this hand (R8.2a): a top-up would be queued, "added after
        # the hand", and go straight back to the balance at the close
        return Reply(tr(lang, on(t.platform, "reply.table_closing"), table=t.id), alert=True)
    unready = not seat.ready
    if await _timer_first(rt, t, seat):  # (never bought in: the time to press Ready ran out)
        key = "reply.ready_too_late" if unready else "reply.topup_too_late"
        return Reply(tr(lang, key), alert=True)
    if not seat.ready:
        return Reply(tr(lang, "reply.topup_not_ready"), alert=True)
    if seat.leaving:  # the stack goes back when the hand ends (R8.2): nothing to add to it
        return Reply(tr(lang, "reply.topup_leaving"), alert=True)
    # read now: an admin's max_buy_in saved while this waited for the table (updates are
    # handled at once) was passed over, the stack topped up past the new maximum
    fresh = await rt.store.get_community(t.community_id)
    limit = stack_limit(t, (fresh or community).settings)
    room = limit - seat.stack
    if room < 0:  # above a max_buy_in an admin lowered, or a stack won past it
        text = tr(lang, "reply.topup_above", stack=seat.stack, max=limit, label=t.label)
        return Reply(text, alert=True)
    if room == 0:
        return Reply(tr(lang, "reply.topup_full", max=limit, label=t.label), alert=True)
    have = await wallet.balance_now(rt, seat.player_id)
    if have <= 0:  # nothing to top up from: offering "1 to N" would only be refused
        text = tr(lang, "reply.topup_no_balance", label=t.label)
        hint = await wallet.advice(rt, community, seat.player_id, lang, lower_buy_in=False)
        return Reply(text + "\n" + hint, alert=True)
    asked = read_whole(amount)
    if not amount.strip():
        value = min(t.min_buy_in, room)
    elif asked is None:  # "١٠٠", "１００", "1_000": not an amount as /settings reads one
        range_reply = _top_up_range(t, lang, room, limit, have)
        return Reply(digits_hint(lang, amount) + "\n" + range_reply.text, alert=True)
    elif 1 <= asked <= min(room, MAX_TOP_UP):
        if asked > have:  # within the stack's room but past the balance: what fits both
            return _top_up_range(t, lang, room, limit, have)
        value = asked
    else:
        return _top_up_range(t, lang, room, limit, have)
    if t.unsettled(seat):  # during the hand or its reveal: added once it is settled
        if not amount.strip():  # one buy-in: the next hand's, read when it is added (one
            # saved during the hand applies as it ends: the old one was queued while the
            # table message then showed the new)
            value = min(next_buy_in(t), room)
        return await _queue_top_up(rt, t, community, seat, value, lang, request,
                                   buy_in=not amount.strip())  # fmt: skip
    try:
        async with rt.transition(t) as tx:
            tx.moves.append(BuyIn(seat.player_id, value))
            seat.stack += value
            seat.topped_up += value  # (shown by the stack till the next hand ends)
            t.remember(request)
            # written anew even during others' hand: the ➕ pressed again (a redelivered
            # update, a double tap) is then out of date, not a second top-up
            tx.group = True
            if t.next_hand_at is not None and not any(map(t.busted, t.seats.values())):
                # nobody left to wait the top-up window for: the next hand in the usual time
                t.next_hand_at = min(t.next_hand_at, rt.clock() + rt.next_hand_delay)
            maybe_start(rt, t, tx)
    except InsufficientFunds as exc:
        # the balance the refusing transaction read: one read now may have moved since (a
        # /grant landing meanwhile: "a top-up of 300: you have 600")
        refused = wallet.refused_at(exc, seat.player_id)
        have = await wallet.balance_now(rt, seat.player_id) if refused is None else refused
        return await _top_up_short(rt, t, community, seat, lang, value, have)
    text = tr(lang, "reply.topped_up", amount=value, label=t.label, stack=seat.stack)
    if t.busted(seat):  # still below one point: not dealt in yet (R8.2)
        text += "\n" + _busted_reply(t, seat, lang).text
    return Reply(text)


def _top_up_range(t: LiveTable, lang: str, room: int, limit: int, have: int) -> Reply:
    """What ``/topup N`` takes: 1 to the room left under the table's maximum ``limit``, or to
    the balance ``have`` when that is less (more would only be refused)."""
    if have < room:
        text = tr(lang, "reply.topup_range_balance", room=have, max=limit, label=t.label)
    else:
        text = tr(lang, "reply.topup_range", room=room, max=limit, label=t.label)
    return Reply(text, alert=True)


async def _top_up_short(
    rt: Runtime,
    t: LiveTable,
    community: Community,
    seat: SeatState,
    lang: str,
    need: int,
    have: int,
) -> Reply:
    """The refusal of a top-up of ``need`` kush with ``have`` on the balance (R8.2), and what
    to do about it (:func:`~bot.service.wallet.advice`: its amount is the player's own, so
    no lower buy-in)."""
    text = tr(lang, "reply.topup_no_money", label=t.label, need=need, have=have)
    hint = await wallet.advice(rt, community, seat.player_id, lang, lower_buy_in=False)
    return Reply(text + "\n" + hint, alert=True)


async def _queue_top_up(
    rt: Runtime,
    t: LiveTable,
    community: Community,
    seat: SeatState,
    value: int,
    lang: str,
    request: str | None,
    *,
    buy_in: bool = False,
) -> Reply:
    """Queue a top-up of ``value`` kush asked for during the player's hand (R8.2): nothing
    moves until the hand ends; refused now if the balance cannot cover it. A second one asked
    for during the same hand replaces the first (and says so). ``buy_in``: asked for without
    an amount, it is the next hand's buy-in (``value`` the one expected now), read when it is
    added (:func:`add_top_ups`)."""
    have = await wallet.balance_now(rt, seat.player_id)
    if have < value:
        return await _top_up_short(rt, t, community, seat, lang, value, have)
    before = seat.top_up
    async with rt.transition(t):
        seat.top_up = value
        seat.top_up_buy_in = buy_in
        t.remember(request)
    if before and before != value:  # the new amount replaces the one asked before (they do
        # not add up)
        return Reply(tr(lang, "reply.topup_requeued", before=before, amount=value, label=t.label))
    if before:  # the same amount again (a second /topup 100, a double tap on ➕) is the one
        # queued: "queued" again read as a second top-up queued beside the first
        return Reply(tr(lang, "reply.topup_already_queued", amount=value, label=t.label))
    # (the buy-in's words only for the buy-in whole: one cut to the table's maximum, 100 of
    # 200, was called "the next hand's buy-in")
    whole = buy_in and value == next_buy_in(t)
    key = "reply.topup_queued_buy_in" if whole else "reply.topup_queued"
    return Reply(tr(lang, key, amount=value, label=t.label))


async def add_top_ups(rt: Runtime, t: LiveTable) -> None:
    """Add the top-ups queued during the hand that has just ended (R8.2), each in its own
    transition (a buy-in and the stack together), capped so the stack stays within the
    table's maximum (``max_buy_in`` as it is now). One the balance no longer covers is cut
    to what it has, and one it has nothing for is dropped, with a notice in the group: a
    player still busted is then offered the top-up as usual. The group's notices of all the
    players are ONE message (a write each was 3 of Telegram's ~20 a minute), committed with
    the top-ups' own steps (:class:`_Notice`: each step's commit holds it as it stands by
    then), so a crash after them sends it after the restart; the group's sender is held
    meanwhile, so none of it goes out before the last. A computer player's house account is
    granted what it lacks, in the same transition (:func:`~bot.service.bots.house_funds`):
    it keeps its seat (should the buy-in fail all the same, never expected, it stands up).
    Call under ``t.lock`` when :meth:`LiveTable.top_ups_due`.

    :raises TransitionFailed: storage refused a step, or the settings' read, or the read of
        the balance of a player whose top-up it no longer covers (the rest wait for the
        retry; the notice of those made is committed with them); those reads wait
        :attr:`Runtime.storage_wait` at most (a timer's step holds the table: a silent
        database held it, and every press there, for good)."""
    try:
        with answer_within(rt.storage_wait):
            community = await rt.store.get_community(t.community_id)
    except StorageError as exc:
        raise TransitionFailed(f"the group's settings not read: {exc!r}") from exc
    limit = stack_limit(t, community.settings if community else None)
    gate = asyncio.Event()

    async def held() -> None:  # (the group's sender held: the notice grows till the last)
        await gate.wait()

    rt.send_later(t, held)
    try:
        await _add_queued(rt, t, limit, _Notice())
    finally:
        gate.set()


class _Notice:
    """:func:`add_top_ups`'s ONE group message, in the outbox (:meth:`LiveTable.owe`) of
    each top-up step that adds to it, as it stands by then: each player's line, then the
    offer of the top-up to those still below a point (name and stack, R8.2; one player's as
    the showdown says it, several named in one line, :func:`~bot.render.busted_notices`).
    A step's commit replaces the message the previous step committed (not sent yet: the
    group's sender is held, :func:`add_top_ups`), so the last one committed holds them all;
    one sent or being sent meanwhile (by a job queued before the hold) is kept, and the
    next step's starts anew with its own line;
    a crash after any of them sends what was committed. Before the loop it stood in a step
    of its own after the top-ups', lost by a crash between them (the kush right, the group
    never told)."""

    def __init__(self) -> None:
        self.told: list[str] = []  # the lines committed so far
        self.offers: list[tuple[str, int]] = []
        self.item: int | None = None  # the outbox item that holds them
        self._staged: tuple[list[str], list[tuple[str, int]], int] | None = None

    def owe(self, t: LiveTable, line: str = "", offer: tuple[str, int] | None = None) -> None:
        """Within a top-up step of ``t`` (its transition open): the message with this step's
        ``line`` and ``offer`` added, in the step's outbox in place of the one the previous
        step committed. Nothing added: nothing changes. Kept by :meth:`committed`, once the
        step is (a step rolled back restores the outbox, and this is dropped)."""
        self._staged = None
        if not line and offer is None:
            return
        told, offers = [*self.told, *([line] if line else [])], [*self.offers]
        offers += [offer] if offer else []
        owed = [i for i in t.outbox if int(i["id"]) > t.outbox_sent]
        unsent = self.item is not None and self.item != t.outbox_sending
        if unsent and any(int(i["id"]) == self.item for i in owed):
            t.outbox = [i for i in t.outbox if int(i["id"]) != self.item]
        elif self.item is not None:
            # sent already, or being sent: the group's sender is held only from the first
            # step on, and a job queued before it may have read the outbox after that step
            # (an earlier step's messages, held by the platform meanwhile); one it read but
            # has not reached yet it skips once replaced (:meth:`Runtime.flush_outbox`)
            told, offers = [line] if line else [], [offer] if offer else []
        lines = [*told, *([busted_notices(t, t.lang, offers)] if offers else [])]
        t.owe("post", Screen("\n".join(lines)))
        self._staged = (told, offers, t.outbox_seq)

    def committed(self) -> None:
        """The step :meth:`owe` wrote in is committed: the message it holds is the one."""
        if self._staged is not None:
            self.told, self.offers, self.item = self._staged
            self._staged = None


async def _add_queued(rt: Runtime, t: LiveTable, limit: int, notice: _Notice) -> None:
    """:func:`add_top_ups`'s loop: each queued top-up in its own step (its balanced ledger
    entry in its own transaction), the group's notice of it and an offer of the top-up added
    to ``notice`` in that step (a rolled-back step's never).

    :raises TransitionFailed: as :func:`add_top_ups`."""
    for number in sorted(t.seats):
        # looked up afresh each time: a rolled-back step puts new seat objects in place
        seat = t.seats.get(number)
        if seat is None or not seat.top_up:
            continue
        # asked for without an amount: the buy-in in force now, after the settings saved
        # during the hand applied as it ended (R8.2)
        asked = t.min_buy_in if seat.top_up_buy_in else seat.top_up
        value = min(asked, limit - seat.stack)
        if value <= 0 or seat.leaving:
            async with rt.transition(t) as tx:
                seat.top_up = 0  # the stack is full (the hand was won) or the player left
                seat.top_up_buy_in = False
                text = ""
                if not seat.leaving:  # they were told it was queued: say why nothing moved
                    # (the hand won, or a lowered max_buy_in, may have left the stack above
                    # the maximum: "at the maximum" said less than the stack is)
                    key = "lobby.topup_above" if seat.stack > limit else "lobby.topup_not_needed"
                    text = tr(t.lang, key, name=seat.name, amount=asked, stack=seat.stack,
                              label=t.label, max=limit)  # fmt: skip
                    if seat.bot and t.busted(seat):  # a computer player no top-up can lift to
                        # a point (R8.2: a maximum lowered below a point still in force till
                        # the match ends) stands up, as a person who cannot take it is at the
                        # deal (it was queued again at every try, the group told each time)
                        stand_up(t, tx, seat)
                        text += "\n" + tr(t.lang, "bot.removed", name=seat.name)
                    tx.group = True
                notice.owe(t, text)
            notice.committed()
            continue
        # a computer player's account is the house's, unlimited (issue 13): run short (it
        # kept losing, or admins raised the buy-in past its grant), it is granted more, in the
        # top-up's own transaction, decided there
        try:
            async with rt.transition(t) as tx:
                if seat.bot:  # (short or not: decided in the commit, the same player may
                    # top up at another table of the community meanwhile)
                    house_funds(t, tx, seat.player_id, value)
                tx.moves.append(BuyIn(seat.player_id, value))
                seat.stack += value
                seat.top_up = 0
                seat.top_up_buy_in = False
                seat.topped_up += value  # the table message says it by the stack (a stack
                # that went 230 → 530 after the hand said nothing of why)
                tx.group = True
                # made, and still below a point (a point saved during the hand applied as it
                # ended, R6.6): offered the top-up with its window, as at a showdown (the deal
                # stood the player up at once, "no top-up in time", never having offered one)
                offer = None if seat.bot else _offer_if_busted(rt, t, tx, seat)
                capped = ""
                if value < asked:  # the hand was won, or admins lowered max_buy_in meanwhile
                    capped = tr(t.lang, "lobby.topup_capped", name=seat.name, amount=asked,
                                added=value, label=t.label, max=limit)  # fmt: skip
                notice.owe(t, capped, offer)
            notice.committed()
        except InsufficientFunds as exc:
            # (the balance the refusing transaction read, as the notice names it: one read
            # after it may have moved, "300 not made, the balance has 500")
            have = await _refused_balance(rt, exc, seat.player_id)
            seat = t.seats[number]  # the table was rolled back
            if 0 < have < value and not seat.bot:
                cut = await _top_up_balance(rt, t, seat, asked, have, notice)
                if cut is None:
                    continue
                have = await _refused_balance(rt, cut, seat.player_id)
                seat = t.seats[number]
            async with rt.transition(t) as tx:
                seat.top_up = 0
                seat.top_up_buy_in = False
                text = tr(t.lang, "lobby.topup_failed", name=seat.name, amount=asked,
                          label=t.label, have=have)  # fmt: skip
                offer = None
                if seat.bot and t.busted(seat):  # never expected (the house granted first)
                    stand_up(t, tx, seat)
                    text += "\n" + tr(t.lang, "bot.removed", name=seat.name)
                else:
                    offer = _offer_if_busted(rt, t, tx, seat)
                tx.group = True
                notice.owe(t, text, offer)
            notice.committed()


def _offer_if_busted(rt: Runtime, t: LiveTable, tx: Tx, seat: SeatState) -> tuple[str, int] | None:
    """After a queued top-up that was not made, or made short (:func:`add_top_ups`): a
    player still busted is offered the top-up as at a showdown (R8.2), the deal waiting for
    it; the name and stack the group's notice offers it to (``None`` when not busted)."""
    if not t.busted(seat):
        return None
    if len(available(t)) < t.options.min_players:
        # too few can play without them: the lobby's top-up window, as at a showdown (not
        # 20 s before the deal and then the lobby's 20 s)
        to_lobby(t)
        top_up_window(rt, t, tx, available(t))
    elif t.next_hand_at is not None:
        t.next_hand_at = max(t.next_hand_at, rt.clock() + TOP_UP_SECONDS)
    return (seat.name, seat.stack)


async def _top_up_balance(
    rt: Runtime, t: LiveTable, seat: SeatState, asked: int, have: int, notice: _Notice
) -> InsufficientFunds | None:
    """A queued top-up of ``asked`` the balance no longer covers when the hand ends is cut
    to the balance ``have`` (R8.2 caps a top-up only by the table's maximum and the balance;
    at least 1, the least ``/topup N`` takes), as one past ``max_buy_in`` is cut to fit;
    the group is told, in ``notice`` (committed with the step), with the offer of the
    top-up if still below a point (:func:`_offer_if_busted`). ``None`` when it was made;
    else storage's refusal (the balance moved again meanwhile; nothing added)."""
    try:
        async with rt.transition(t) as tx:
            tx.moves.append(BuyIn(seat.player_id, have))
            seat.stack += have
            seat.top_up = 0
            seat.top_up_buy_in = False
            seat.topped_up += have
            text = tr(t.lang, "lobby.topup_cut_balance", name=seat.name, amount=asked,
                      added=have, label=t.label)  # fmt: skip
            offer = _offer_if_busted(rt, t, tx, seat)
            tx.group = True
            notice.owe(t, text, offer)
    except InsufficientFunds as exc:  # (rolled back: the caller looks the seat up again)
        return exc
    notice.committed()
    return None


async def _refused_balance(rt: Runtime, exc: InsufficientFunds, player_id: int) -> int:
    """:func:`~bot.service.wallet.refused_at` for a timer's step (:func:`add_top_ups`), or,
    when ``exc`` does not say it, :func:`_step_balance`.

    :raises TransitionFailed: as :func:`_step_balance`."""
    have = wallet.refused_at(exc, player_id)
    return await _step_balance(rt, player_id) if have is None else have


async def _step_balance(rt: Runtime, player_id: int) -> int:
    """:func:`_balance` read by a step that may be a timer's (:func:`add_top_ups`, whose
    queued top-up the balance no longer covers): it waits :attr:`Runtime.storage_wait` at
    most (within a press or a command, the sooner end of theirs holds), a timer's step
    holding the table.

    :raises TransitionFailed: storage failed or did not answer in time: nothing more is
        changed, the top-up stays queued and the timer's step is tried again
        (:func:`bot.service.timers.on_time`); unbound, a silent database held the table, and
        every press there, for good."""
    try:
        with answer_within(rt.storage_wait):
            return await wallet.balance_now(rt, player_id)
    except StorageError as exc:
        raise TransitionFailed(f"the balance of player {player_id} not read: {exc!r}") from exc


def _placed_all(t: LiveTable, seat: SeatState) -> bool:
    """Every card of the seat's is placed and confirmed in the hand it plays now (the last
    street, a Chinese Poker arrangement): leaving places nothing for them, nothing to ask."""
    hand = t.hand
    return (
        hand is not None
        and t.plays_now(seat)
        and all(hand.board_of(b).is_complete for b in t.boards_of(seat))
    )


def leave_asks(rt: Runtime, t: LiveTable, seat: SeatState) -> bool:
    """Whether Leave pressed (or /leave typed) by ``seat``'s player now only asks first,
    changing nothing but the question (:func:`leave`): at a running tournament they can
    still leave (R8.7), or at a cash table while they play the hand on with cards left to
    place (R8.5), and they were not asked within :data:`LEAVE_CONFIRM_SECONDS` (a second
    press then leaves). A Leave on an older version of the table message counts only so,
    as a first tap (:func:`bot.service._still_meant`): it never confirms."""
    if 0 <= rt.clock() - seat.leave_asked <= LEAVE_CONFIRM_SECONDS:
        return False
    tour = t.tournament
    if tour is not None:
        return tour.phase is not TournamentPhase.REGISTERING and tour.can_leave(seat.seat)
    return not seat.leaving and t.plays_now(seat) and not _placed_all(t, seat)


async def leave(
    rt: Runtime,
    t: LiveTable,
    actor: Actor,
    lang: str,
    *,
    button: bool = False,
    left_group: bool = False,
    kicked: str | None = None,
) -> Reply:
    """Stand up: between hands the stack goes back to the balance (R8.2), after the round's
    points are settled (R8.3); during a hand the player's moves are made as on timeout and
    they leave after it (R8.5): that asks first (Leave pressed or /leave typed once changes
    nothing; a second within :data:`LEAVE_CONFIRM_SECONDS` leaves), unless their board is
    complete already. At a running tournament Leave and /leave always ask first: leaving
    knocks the player out (R8.7). In Chinese Poker the question and the answer say what
    happens: the hand is dead (R7.7: placed for them, counted as fouled, ``safe_autoplay`` or
    not) and the game ends with it, settled for everyone (R7.6); leaving arranged, or during
    the reveal, says the game ends. ``button``: the table message's Leave was pressed (the
    question's answer is written anew, its buttons at a new version). ``left_group``:
    the player left the group (or was removed; a Discord server: its own wording, "left
    the server"): the group is told in a short notice of its own, names only (a running
    tournament's knock-out notice says it already). ``kicked``: an admin's ``/kick`` stands
    the player up (:func:`kick`; never at a tournament, the caller unregistered or refused
    it): nothing is
    asked first, as when the player left the group, and the answer, the group's one notice,
    names the player (``kicked``: how, as the seat shows them); the player (never a computer
    player) is told in a private notice of their own after the commit
    (:meth:`~bot.model.LiveTable.owe_notice`: ``private.kicked``, ``private.kicked_nothing``
    or ``private.kicked_later``, what became of their stack; none when the cards placed for
    them ended the hand in the kick's own step, which stood them up: the showdown told them,
    ``private.kicked_stood_up``, and the answer says so, ``reply.kicked_hand_ended``)."""
    seat = t.seat_of(actor.user_id)
    if seat is None:
        key = "reply.not_seated" if t.tournament is None else "tour.not_registered"
        if t.tournament is not None and await _out_of(rt, t, actor):
            key = "tour.already_out"  # stood up when the hand that knocked them out ended
        return Reply(tr(lang, key), alert=True)
    if left_group and seat.left_group:  # the same departure told again (Telegram: the
        # service message and the chat_member update; a running tournament's second report
        # finds the player out already, below): done, the group told once
        return Reply(tr(lang, "reply.already_leaving"), alert=True)
    if t.tournament is not None:
        return await _leave_tournament(rt, t, seat, actor, lang, button, left_group)
    if seat.leaving and not left_group:  # asked already: they stand up when the hand (or
        # reveal) ends (gone from the group meanwhile: the group is told, below)
        if kicked is None:
            return Reply(tr(lang, "reply.already_leaving"), alert=True)
        if not seat.kicked and seat.bot is None:  # their own leave, now the admin's too:
            # Join no longer takes it back; told in private as a kick during a hand is
            async with rt.transition(t):
                seat.kicked = True
                t.owe_notice(seat.user_id, Screen(_kicked_notice(t, seat, "hand"), table=t.id))
        return Reply(tr(lang, "reply.kick_leaving", name=kicked), alert=True)
    now = rt.clock()
    done = _placed_all(t, seat)
    if not left_group and kicked is None and leave_asks(rt, t, seat):
        # during the hand one tap on the group's message, or one /leave typed, asks first, as
        # a tournament's Leave does: the rest of the hand is placed for them (R8.5) and may
        # foul. A second Leave or /leave within LEAVE_CONFIRM_SECONDS leaves.
        async with rt.transition(t) as tx:
            seat.leave_asked = now
            tx.group = button  # (new buttons: the same press delivered again is out of date)
        key = "reply.leave_confirm" if button else "reply.leave_confirm_typed"
        if t.chinese is not None:  # R7.7: dead whatever places it; the game ends (R7.6)
            return Reply(tr(lang, f"{key}_chinese", target=t.chinese.target), alert=True)
        return Reply(tr(lang, _placed(t, key)), alert=True)
    await _place_ahead(rt, t, seat)
    # a top-up queued during the hand (R8.2) is never added once they leave: dropped now,
    # and they are told (nothing was taken: the balance stays as it is)
    queued = seat.top_up
    tell = kicked is not None and seat.bot is None  # (they may not read the group: told
    # in private too, after the commit, kept in the snapshot until sent)
    async with rt.transition(t) as tx:
        # set before the step: the cards placed for them may end the hand in it (the last
        # to act, a Fantasyland hand set after the others', R6.3), which stands them up
        # at once, told so by the showdown (``private.kicked_stood_up``, their stack back)
        # (kept by a later leave of theirs: kicked, then gone from the group during the
        # hand, they came back and Join took the kick back, told nothing as they stood up)
        seat.kicked = tell or seat.kicked
        seat.top_up = 0
        seat.top_up_buy_in = False
        left = depart(rt, t, tx, seat)
        if left_group:
            seat.left_group = True  # (kept while they wait for the hand's end: told once)
            t.owe("post", Screen(_left_group_notice(t, seat, left, done)))
            if queued and seat.bot is None:  # (they read the group no more: told in
                # private, as a /leave's answer and a kick's notice tell it, R8.2)
                gone = tr(seat.lang, on(t.platform, "private.left_group_topup_cancelled"),
                          table=t.id, amount=queued, label=t.label)  # fmt: skip
                t.owe_notice(seat.user_id, Screen(gone, table=t.id))
        if tell and not _ended_by_leave(t, seat, left):
            # stood up now, or when the hand ends (told again then); not when their cards
            # placed ended the hand in this step: the showdown told them it ended
            notice = _kicked_notice(t, seat, left)
            if queued:
                notice += "\n" + _top_up_cancelled(t, seat.lang, queued)
            t.owe_notice(seat.user_id, Screen(notice, table=t.id))
    reply = _leave_answer(t, seat, lang, left, done, kicked)
    if queued and kicked is None and not left_group:
        return Reply(reply.text + "\n" + _top_up_cancelled(t, lang, queued), alert=reply.alert)
    return reply


def _top_up_cancelled(t: LiveTable, lang: str, amount: int) -> str:
    """The line (in ``lang``) that a top-up of ``amount`` kush queued during the hand (R8.2)
    is cancelled by the player's leaving the cash table ``t``: it would have been added only
    to a stack that stays; nothing was taken from the balance."""
    return tr(lang, "reply.topup_cancelled_leave", amount=amount, label=t.label)


def _leave_answer(
    t: LiveTable,
    seat: SeatState,
    lang: str,
    left: Literal["hand", "reveal", "round"] | int,
    done: bool,
    kicked: str | None,
) -> Reply:
    """:func:`leave`'s answer once ``seat`` left (or leaves after the hand) the cash table
    ``t``: ``left`` as :func:`depart` returned it, ``done``: their board was complete before,
    ``kicked`` as for :func:`leave` (the group's notice naming them)."""
    if kicked is not None:  # (the answer is the group's notice: the admin typed it there)
        if isinstance(left, str) and t.chinese is not None:  # as /leave says (R7.7, R7.6)
            dead = left == "hand" and not done
            key = "kicked_after_hand" if dead else "kicked_game_ends"
            target = t.chinese.target
            return Reply(tr(lang, f"reply.{key}_chinese", name=kicked, target=target))
        if _ended_by_leave(t, seat, left):  # the group told their cash-out by the showdown's
            # notice
            return Reply(tr(lang, "reply.kicked_hand_ended", name=kicked))
        if isinstance(left, str):  # (placed for them only when they play on: R8.5)
            key = "kicked_after_hand" if left == "hand" and not done else "kicked_when_hand_ends"
            return Reply(tr(lang, f"reply.{key}", name=kicked))
        key = "reply.kicked" if left else "reply.kicked_nothing"
        return Reply(tr(lang, key, name=kicked, amount=left, label=t.label))
    if left == "round":
        return Reply(tr(lang, "reply.leave_after_round", table=t.id))
    if left == "reveal":  # (every card is placed: none is placed for them, R7.4)
        target = t.chinese.target if t.chinese is not None else t.options.target_points
        return Reply(tr(lang, "reply.leave_after_reveal", target=target))
    if _ended_by_leave(t, seat, left):  # their stack back (``stand_up`` left it on the seat)
        if seat.stack == 0:  # (nothing left: no "0 kush back")
            return Reply(tr(lang, "reply.left_hand_ended_nothing"))
        return Reply(tr(lang, "reply.left_hand_ended", amount=seat.stack, label=t.label))
    if isinstance(left, str):
        key = "reply.leave_after_hand_done" if done else _placed(t, "reply.leave_after_hand")
        if t.chinese is not None:  # dead unless arranged (R7.7); the game ends (R7.6)
            key = "reply.leave_after_hand_done" if done else "reply.leave_after_hand"
            return Reply(tr(lang, f"{key}_chinese", target=t.chinese.target))
        return Reply(tr(lang, key))
    if left == 0:  # never bought in (or nothing left): no "0 kush back to your balance"
        return Reply(tr(lang, "reply.left_nothing"))
    return Reply(tr(lang, "reply.left", amount=left, label=t.label))


def _left_group_notice(t: LiveTable, seat: SeatState, left: str | int, done: bool) -> str:
    """The group's notice (its language, the platform's word for a group) that ``seat``'s
    player left the group (or the Discord server) and so the cash table ``t``: ``left`` as
    :func:`depart` returned it; ``done``: their board was complete before. Stood up now, or
    after the hand, their moves made for them (R8.5); in Chinese Poker the game to the
    target ends with the hand, settled for everyone (R7.6), their hand dead unless it was
    arranged (R7.7), as ``/leave`` answers them. The cards placed for them that ended the
    hand in this step (:func:`_ended_by_leave`) stood them up with it: left the table, as
    between hands (it said "leaves the table after this hand" after the showdown's notice
    of their cash-out)."""
    if _ended_by_leave(t, seat, left):
        return tr(t.lang, on(t.platform, "notice.left_group"), name=seat.name)
    if isinstance(left, str) and t.chinese is not None:
        key = (
            "notice.left_group_dead_chinese"
            if left == "hand" and not done
            else "notice.left_group_later_chinese"
        )
        return tr(t.lang, on(t.platform, key), name=seat.name, target=t.chinese.target)
    key = "notice.left_group" if isinstance(left, int) else "notice.left_group_later"
    return tr(t.lang, on(t.platform, key), name=seat.name)


def _ended_by_leave(t: LiveTable, seat: SeatState, left: str | int) -> bool:
    """Whether the leave step that :func:`depart` answered ``left`` ("after the hand") stood
    ``seat`` up all the same: the cards placed for them ended the hand in that step (the
    last to act; a Fantasyland hand set after the others', R6.3), so the seat is gone."""
    return isinstance(left, str) and t.seat_of(seat.user_id) is not seat


def _kicked_notice(t: LiveTable, seat: SeatState, left: str | int) -> str:
    """The private notice (in the player's language) of a player an admin's ``/kick`` stood
    up at the cash table ``t`` (:func:`leave`): ``left`` as :func:`depart` returned it, the
    kush their stack gave back to their balance (R8.2), or why they stand up only when the
    hand ends (their stack back then: R8.5, R8.3, R7.6); in Chinese Poker, when the game
    to the target ends (``private.kicked_later_chinese``, R7.6)."""
    if isinstance(left, str) and t.chinese is not None:  # the game ends with it (R7.6)
        target = t.chinese.target
        return tr(seat.lang, "private.kicked_later_chinese", table=t.id, target=target)
    if isinstance(left, str):
        return tr(seat.lang, "private.kicked_later", table=t.id)
    if left == 0:  # (never bought in, or nothing left: no "0 kush back")
        return tr(seat.lang, "private.kicked_nothing", table=t.id)
    return tr(seat.lang, "private.kicked", table=t.id, amount=left, label=t.label)


async def kick(
    rt: Runtime, t: LiveTable, actor: Actor, lang: str, target: str, shown: str | None = None
) -> Reply:
    """An admin's ``/kick`` (the caller checked the admin): the seated person ``target`` (a
    user id, ``me``/``я``, or the name their seat shows or the store knows them by,
    ``@username`` too, letter case aside) stands up exactly as their own ``/leave`` would
    (:func:`leave`, R8.2): between hands at once, their stack back to their balance; during
    a hand they play, after it, their cards placed as on timeout (R8.5), with nothing asked
    first; in Chinese Poker the answer says, as /leave's does, that the hand is dead unless
    arranged and the game ends with it (R7.7, R7.6). At a tournament still registering the
    player is unregistered, their buy-in back to their balance (R8.7). A name is read as
    typed first ("Anna" is not a person shown "Анна"), then as a computer player's other
    spelling. Refused, nothing changed: at a tournament once started (R8.7: a seat there is
    its player's, who alone gives it up), a computer player (pointed to ``/removebot``),
    anyone not seated here. An admin who names themself (``me``, their own name) gets
    exactly their own ``/leave``, at a tournament too (it asks first during their hand and
    at a running tournament, and its answer is /leave's). ``shown``:
    what the admin typed when the adapter replaced it by a user id (echoed when nobody
    matches). The answer goes to the group: the one notice of it."""
    name = target.strip()
    if not name:
        return Reply(tr(lang, "reply.kick_usage"), alert=True)
    seat = None if means_me(name) else await _seat_named(rt, t, name)
    if means_me(name) or (seat is not None and seat.user_id == actor.user_id):
        # ("me", or the admin's own name): exactly their own /leave, which asks first during
        # their hand (fixsmall36) and at a running tournament (fixsmall37)
        return await leave(rt, t, actor, lang)
    tour = t.tournament
    if tour is not None and tour.phase is not TournamentPhase.REGISTERING:
        return Reply(tr(lang, "reply.kick_tournament"), alert=True)
    if seat is None:
        typed = rt.typed_text(t.platform, shown or name)
        return Reply(tr(lang, "reply.kick_not_seated", name=typed), alert=True)
    if seat.bot is not None:
        bare = seat.name.removeprefix("🤖").strip()
        return Reply(tr(lang, "reply.kick_computer", name=seat.name, bare=bare), alert=True)
    who = Actor(t.platform, seat.user_id, "")  # (no name: the seat's stays, as rename reads)
    if tour is not None:  # registering: unregistered, the buy-in back (R8.7; fixsmall37)
        return await tournaments.unregister(rt, t, who, lang, kicked=seat.name)
    return await leave(rt, t, who, lang, kicked=seat.name)


async def _seat_named(rt: Runtime, t: LiveTable, name: str) -> SeatState | None:
    """The seat at ``t`` of the player ``name`` names: a user id, the name a seat shows
    (letter case, a leading ``@`` and a computer player's 🤖 aside), else a player of the
    community the store finds by that name (a display name or ``@username``); ``None``."""
    seat = t.seat_of(name)
    if seat is not None:
        return seat

    # the spelling typed first ("Anna" is not the person "Анна" seated before them), then a
    # computer player's other spelling or level ("Анна", "🤖 Anna (normal)")
    for same in (typed_name, bare_name):
        wanted = same(name)
        for s in t.seats.values():
            if same(s.name) == wanted:
                return s
    player = await rt.store.find_player(t.community_id, name)
    return t.seat_of(player.user_id) if player is not None else None


async def _place_ahead(rt: Runtime, t: LiveTable, seat: SeatState) -> None:
    """Before the step where ``seat`` leaves during the hand they play (their moves made as
    on timeout from then on, R8.5): ``safe_autoplay``'s placements that step makes for them
    (their street, if it is their turn, and any made after it in the same step) are made in
    the decision process, off the event loop (:meth:`Runtime.prepare_safe`), waited for
    :data:`SAFE_PRESS_SECONDS` at most, holding the table; one not made by then the step
    decides itself (the same placement). Made in the step, the strategy held every table's
    presses up to a quarter of a second per street."""
    if t.hand is not None and t.options.safe_autoplay and t.plays_now(seat):
        await rt.prepare_safe(t, SAFE_PRESS_SECONDS, leaving=t.boards_of(seat))


def _placed(t: LiveTable, key: str) -> str:
    """``key``, or its ``_safe`` twin when ``safe_autoplay`` places a leaver's cards so as not
    to foul (R8.5): "may foul" is said only where the plain timeout rule places them."""
    return f"{key}_safe" if t.options.safe_autoplay else key


async def _out_of(rt: Runtime, t: LiveTable, actor: Actor) -> bool:
    """Whether ``actor``, no longer seated at ``t``'s running tournament, is one of its
    players, knocked out (R8.7: stood up at the end of that hand, still registered)."""
    tour = t.tournament
    if tour is None or tour.phase is TournamentPhase.REGISTERING:
        return False
    player = await rt.store.find_player(t.community_id, actor.user_id)
    return player is not None and player.user_id == actor.user_id and player.id in tour.players


def depart(
    rt: Runtime, t: LiveTable, tx: Tx, seat: SeatState
) -> Literal["hand", "reveal", "round"] | int:
    """A player (or a computer player, :func:`bot.service.bots.remove_bot`) leaves the table
    in step ``tx``: during their hand a person's moves are made as on timeout (R8.5; a
    computer player goes on placing by its policy, :func:`bot.service.play.advance`) and they
    leave after it; during a Chinese Poker reveal they leave once it is over (R7.4), a claim they
    were offered counting as continued (R7.5: the game ends after this hand anyway, R7.6);
    not dealt in but owing the round's points or a Chinese Poker game (R8.3, R7.6), after
    the hand being played; otherwise at once: the game they play is settled (R7.6), the
    stack goes back to the balance (R8.2) and the table deals or goes back to the lobby.

    :returns: why they wait (``"hand"``, ``"reveal"``, ``"round"``), or the kush cashed out.
    """
    if t.plays_now(seat):
        seat.leaving = True
        advance(rt, t, tx)
        tx.show.add(seat.seat)  # (not their turn yet: their screen says they leave, too)
        return "hand"
    if t.reveal is not None:
        _leave_reveal(rt, t, tx, seat)
        return "reveal"
    if leaves_after_hand(t, seat):
        seat.leaving = True
        return "round"
    if t.chinese is not None and seat.seat in t.chinese.totals:  # (0 points owe the others)
        end_game(t, tx)  # a player leaving ends the game: settle it (R7.6)
    paid = {s.seat for s in t.seats.values() if not t.busted(s)}
    amount = stand_up(t, tx, seat)
    offer_top_ups(t, paid, rt.clock())  # (the round's points, settled first, R8.3)
    maybe_start(rt, t, tx)  # fewer players: back to the lobby; all left are ready: deal
    return amount


def _leave_reveal(rt: Runtime, t: LiveTable, tx: Tx, seat: SeatState) -> None:
    """``seat`` leaves during a Chinese Poker reveal, once it is over (R7.4); a claim it was
    offered counts as continued (R7.5): the reveal waited out the claim time for it."""
    seat.leaving = True
    claimant_continues(rt, t, tx, seat.seat)


async def _leave_tournament(
    rt: Runtime,
    t: LiveTable,
    seat: SeatState,
    actor: Actor,
    lang: str,
    button: bool,
    left_group: bool = False,
) -> Reply:
    """Leaving a tournament: before the start, unregister (the buy-in comes back); after it,
    the player is knocked out at once and placed as such, their chips leave play (R8.7); a
    hand in progress is finished for them (R8.5). The Leave button of a running tournament
    asks first (one tap on the group's message must not cost the buy-in): a press of the
    Leave button of the message written anew with the question, within
    :data:`LEAVE_CONFIRM_SECONDS`, leaves; so does /leave typed (it knocked the player out
    in one step): one asks, a second /leave or Leave within the window leaves. Leaving the
    group (``left_group``) leaves at once."""
    tour = t.tournament
    assert tour is not None
    if tour.phase is TournamentPhase.REGISTERING:
        return await tournaments.unregister(rt, t, actor, lang, left_group=left_group)
    if not tour.can_leave(seat.seat):  # over, or this player is out already (R8.7)
        out = tour.finished is None
        return Reply(tr(lang, "tour.already_out" if out else "err.tournament_over"), alert=True)
    if not left_group and leave_asks(rt, t, seat):
        now = rt.clock()
        async with rt.transition(t) as tx:
            seat.leave_asked = now
            # the table message anew, its buttons at a new version: the same press delivered
            # again (Telegram after a crash, a double tap) is out of date, not the confirmation
            # (a typed /leave delivered again is answered "already done": its key commits here)
            tx.group = button
        key = "tour.leave_confirm" if button else "tour.leave_confirm_typed"
        return Reply(tr(lang, key, place=len(tour.chips)), alert=True)
    await _place_ahead(rt, t, seat)
    async with rt.transition(t) as tx:
        left = tour.leave(seat.seat)
        ko = left.knock_out
        knocked = tr(t.lang, "tour.knocked_out", name=seat.name, place=ko.place, prize=ko.prize,
                     label=t.label)  # fmt: skip
        # the knock-out is a notice of its own, unless the tournament ends in this step: then
        # it is the first line of the final standings (``before``), one group write
        if tour.finished is not None and t.hand is not None:
            # the last opponent left: the winner does not play the hand out alone (R8.7);
            # the closing step's private messages, kept with its final snapshot until sent
            for told, screen in tournaments.finish_mid_hand(rt, t, tx, seat, before=[knocked]):
                tx.privates[told.seat] = screen
            if t.chat_gone:  # the bot's removal (R8.2a): nobody reads the standings there
                tell_chat_gone(t, tx)
        elif t.plays_now(seat):
            t.owe("post", Screen(knocked))
            seat.leaving = True
            advance(rt, t, tx)  # the moves are made for them; the payout follows the hand
        elif t.reveal is not None:
            t.owe("post", Screen(knocked))
            _leave_reveal(rt, t, tx, seat)
        elif tour.finished is not None:
            stand_up(t, tx, seat)
            tournaments.finish(rt, t, tx, before=[knocked])
        else:
            stand_up(t, tx, seat)
            # a Chinese Poker game under way ends with them (R7.6), settled among the rest
            tournaments.end_game_on_leave(rt, t, tx, knocked, seat.seat)
    return Reply(tr(lang, "tour.left", place=ko.place, prize=ko.prize, label=t.label))


async def _absent(
    rt: Runtime,
    t: LiveTable,
    actor: Actor,
    lang: str,
    registering: str,
    *,
    cash: str = "reply.not_seated",
) -> Reply:
    """The answer to a command of a seat's from a member with no seat at ``t``: ``cash`` (text
    key) at a cash table, "not at this table" unless said (Ready: "press Join first"); at a
    tournament (R8.7) while it registers, the tournament's own answer ``registering`` (text
    key: it says what a registered player gets), once it runs "not
    registered" (nobody joins after the start), or to one of its players knocked out (stood
    up at the end of that hand) "out already", as /leave says (they were registered: "not
    registered" read as if their buy-in had never been taken)."""
    tour = t.tournament
    if tour is None:
        return Reply(tr(lang, cash), alert=True)
    if tour.phase is TournamentPhase.REGISTERING:
        return Reply(tr(lang, registering), alert=True)
    key = "tour.already_out" if await _out_of(rt, t, actor) else "tour.not_registered"
    return Reply(tr(lang, key), alert=True)


async def sit_out(rt: Runtime, t: LiveTable, actor: Actor, lang: str) -> Reply:
    """Sit out from the next hand, keeping seat and stack (R8.6). Refused in a tournament:
    its players are dealt every hand, played for them on timeout (R8.7)."""
    seat = t.seat_of(actor.user_id)
    if seat is None:
        return await _absent(rt, t, actor, lang, "tour.no_sitout")
    if t.tournament is not None:
        return Reply(tr(lang, "tour.no_sitout"), alert=True)
    if seat.leaving:  # they stand up when the hand ends: no next hand to sit out (R8.2)
        return Reply(tr(lang, "reply.already_leaving"), alert=True)
    if t.closing:  # an admin closed it during the hand (R8.2a): no next hand either
        return Reply(tr(lang, on(t.platform, "reply.table_closing"), table=t.id), alert=True)
    busted = t.busted(seat)
    if await _timer_first(rt, t, seat):  # the time to press Ready or to top up ran out
        # before the table's timer fired: stood up as it stands them up (sitting out, they
        # kept the seat it takes)
        key = "reply.topup_too_late" if busted else "reply.ready_too_late"
        return Reply(tr(lang, key), alert=True)
    async with rt.transition(t) as tx:
        seat.sitting_out = True
        # (the time to press Ready of a late joiner runs on: R8.6 keeps the seat of a player
        # bought in; stopped, /sitout and /back held the seat of one never bought in for good)
        tx.group = t.hand is None or seat.ready_by is not None
        # no hand: the players left may all be ready now (the deal waited for this one until
        # the ready timer ran out), or too few to play (back to the lobby at once)
        maybe_start(rt, t, tx)
    text = tr(lang, "reply.sitout")
    if t.hand is None and t.fantasyland_waiting(seat) and seat.sitting_out:
        text += "\n" + tr(lang, "reply.sitout_fantasyland")  # (R6.6: dealt without them)
    return Reply(text)


async def back(rt: Runtime, t: LiveTable, actor: Actor, lang: str, *, away: bool = False) -> Reply:
    """Return from sit-out (R8.6). At a tournament nobody sits out (R8.7): ``away``, the
    player was away (their streets placed for them after a short grace) and the command
    brought them back, which is said; otherwise that they play every hand (it said "You are
    not sitting out", an alert, to a player it had just brought back)."""
    seat = t.seat_of(actor.user_id)
    if seat is None:
        return await _absent(rt, t, actor, lang, "tour.not_registered")
    if t.tournament is not None:
        if seat.leaving:  # knocked out by this hand, or left: stood up when it ends
            return Reply(tr(lang, "tour.already_out"), alert=True)
        if t.closing:  # cancelled at the end of this hand (R8.2a)
            return Reply(tr(lang, on(t.platform, "tour.table_closing"), table=t.id), alert=True)
        return Reply(tr(lang, "tour.back_away" if away else "tour.back_playing"), alert=not away)
    if seat.leaving:  # they stand up when the hand ends: they play no next hand (R8.2)
        return Reply(tr(lang, "reply.already_leaving"), alert=True)
    if t.closing:  # an admin closed it during the hand (R8.2a): there is no next hand
        return Reply(tr(lang, on(t.platform, "reply.table_closing"), table=t.id), alert=True)
    # a time that ran out before the table's timer fired (R8.2): its step first, as /ready,
    # /topup and /sitout make it (a late joiner's time to press Ready, sitting out or not, a
    # busted player's top-up: told "you are not sitting out", or to top up, and stood up a
    # moment later by the timer)
    busted = t.busted(seat)
    if await _timer_first(rt, t, seat):
        key = "reply.topup_too_late" if busted else "reply.ready_too_late"
        return Reply(tr(lang, key), alert=True)
    # (sitting out and bought in, the seat is kept: back after the deal)
    await _lobby_timer_first(rt, t, busted=seat.sitting_out and t.busted(seat))
    seat = t.seat_of(actor.user_id)
    if seat is None:  # not sitting out and never Ready: the lobby's ready timer that ran out
        # stood them up (R8.2; the timer stands up no one sitting out), as /ready and /sitout
        # say it (it said "You are not at this table" of the seat they had sat in)
        return Reply(tr(lang, "reply.ready_too_late"), alert=True)
    pending = t.sit_out_pending(seat)
    # the clock made their moves in this hand, which sits them out when the match ends (R8.6)
    timed_now = not seat.bot and t.timed_out_now(seat)
    now_too = timed_now and not seat.sitting_out
    if not seat.sitting_out and pending and t.match is not None:
        async with rt.transition(t) as tx:  # timed out in a match its Fantasyland hand goes
            t.match = t.match.back(pending)  # on with: back before the sit-out it set (R8.6)
            if now_too and not seat.back_early:  # (and in this hand, the Fantasyland one:
                seat.back_early = True  # that timeout is added to the match's when it ends)
                tx.show.add(seat.seat)
            if t.hand is None:  # its "Hand over" said "then you sit out": said without it
                over = tr(seat.lang, on(t.platform, "private.over"), table=t.id, hand=t.shown_no)
                tx.privates[seat.seat] = Screen(over, table=t.id)
        return Reply(tr(lang, "reply.back_before_sit_out"))
    if now_too:
        # the clock made their moves in this hand, which sits them out when it ends (R8.6):
        # the private screen says "/back to play again", and /back then said "You are not
        # sitting out" (the sit-out not made yet): one not yet moved returns with it too
        if not seat.back_early:
            async with rt.transition(t) as tx:
                seat.back_early = True
                tx.show.add(seat.seat)  # (its screen no longer says they will sit out)
        return Reply(tr(lang, "reply.back_before_sit_out_hand"))
    if not seat.sitting_out:
        if t.busted(seat):
            return _busted_reply(t, seat, lang)
        return Reply(tr(lang, "reply.not_sitting_out"), alert=True)
    async with rt.transition(t) as tx:
        seat.sitting_out = False
        seat.timed_out = False
        if timed_now:  # (a /sitout during the hand the clock made moves in, R8.6: that
            seat.back_early = True  # sit-out is taken back too)
        if pending and t.match is not None:  # (and one a timeout set for the match's end)
            t.match = t.match.back(pending)
        _ready_window(rt, t, seat)  # back, but not bought in: Ready in time, or stand up
        tx.group = t.hand is None or seat.ready_by is not None
        maybe_start(rt, t, tx)
    if t.busted(seat):  # back, but not dealt in before a top-up (R8.2)
        return _busted_reply(t, seat, lang)
    if not seat.ready:  # back, but never bought in: dealt in only after Ready (R8.2)
        return Reply(tr(lang, "reply.back_not_ready"))
    return Reply(tr(lang, "reply.back"))


def _busted_reply(t: LiveTable, seat: SeatState, lang: str) -> Reply:
    """What a player whose stack cannot pay a point (R8.2) is told on Ready or /back: only a
    top-up deals them in again."""
    return Reply(tr(lang, "reply.busted_top_up", stack=seat.stack, label=t.label), alert=True)


async def close(rt: Runtime, t: LiveTable, lang: str, removal: bool = False) -> Reply:
    """An admin closes the table (R8.2a): at once between hands, or at the end of the hand in
    progress (the close is then committed with that hand's settlement). A Chinese Poker game
    under way is settled (R7.6), the round's points too (R8.3), a tournament is cancelled
    (every buy-in back, or after a knock-out its pool shared, R8.7), every stack goes back
    to its balance; then the chat may open a new table.
    ``removal``: the bot's removal from the chat closes it, not an admin (the bot added back
    before the hand ends cancels that close, :func:`~bot.service.chats.chat_back`; an
    admin's close stands)."""
    notice = closed_notice(t)
    if t.hand is not None or t.reveal is not None:
        if t.closing and not t.removal_close and not removal:
            # a second admin close of a table already closing (R8.2a): told to them alone
            # (a refusal: ephemeral on Discord), nothing written to the group again
            key = "reply.already_closing" if t.tournament is None else "tour.already_cancelling"
            return Reply(tr(lang, key, table=t.id), alert=True)
        async with rt.transition(t) as tx:
            t.closing = True
            t.removal_close = removal
            t.chat_gone = t.chat_gone or removal  # (an admin's close after it: still gone)
            tx.group = True
        # a tournament is cancelled then (R8.7, its pool settled): said now, not only after
        return Reply(closes_after_hand(t, lang))
    returned = await close_table(rt, t, notice, chat_gone=removal, admin=not removal)
    if returned:  # the group is told where the stacks went, each ("is closed." alone, then
        # "the stacks are back in the players' balances", left players asking how much)
        return Reply(stacks_back(t, lang, returned))
    return Reply(notice)


async def close_table(
    rt: Runtime,
    t: LiveTable,
    notice: str,
    *,
    chat_gone: bool = False,
    admin: bool = False,
    idle: bool = False,
) -> list[tuple[str, int]]:
    """Close a table with no hand running (call under ``t.lock``), in one transition
    (:func:`~bot.service.dealing.close_now`). ``chat_gone``: the bot may no longer write in
    the table's chat: its players are told in private
    (:func:`~bot.service.dealing.tell_chat_gone`). ``admin``: an admin closes it: a
    tournament's registered players are told in private what its pool paid them (R8.7,
    :func:`~bot.service.dealing.tell_tournament_closed`); ``idle``: the idle close (R8.2a),
    of which they are told so too. Returns what the people seated cashed out, each
    (:func:`~bot.service.dealing.close_now`)."""
    async with rt.transition(t) as tx:
        t.chat_gone = t.chat_gone or chat_gone  # (its table message waits for the bot's return)
        # a Fantasyland earned for the next hand is never played (R6): said, not dropped
        returned = close_now(t, tx, notice, fantasyland=forgone_fantasyland(t))
        if chat_gone:  # (after the close: a Chinese Poker game it settles moves the shares)
            tell_chat_gone(t, tx)
        elif admin or idle:
            tell_tournament_closed(t, tx, "idle" if idle else None)
    return returned


def rename(t: LiveTable, actor: Actor) -> bool:
    """Seat ``actor`` under the display name they go by now, if they sit at ``t``: every
    update, a command or a button press, carries the user's current name, and a name changed
    on the platform was shown old at the table (set when they sat down) for good. Told apart
    from the others' names as a new seat's (:meth:`LiveTable.distinct_name`); the tournament's
    standings follow. In memory only: :func:`show_renamed` saves and shows it. Whether the
    seat's name changed."""
    seat = t.seat_of(actor.user_id)
    if seat is None or seat.bot is not None or not actor.name.strip():
        return False
    name = t.distinct_name(actor.name, but=seat)
    if name == seat.name:
        return False
    seat.name = name
    if seat.player_id in t.names:  # a tournament registrant (the final standings)
        t.names[seat.player_id] = name
    return True


async def show_renamed(rt: Runtime, t: LiveTable, actor: Actor, version: int) -> None:
    """After the step of an update that renamed its sender (:func:`rename`): the stored
    player takes the name (``/top``, ``/stats``), and unless that step already committed and
    redrew the table message (its ``version`` moved on), a step of its own saves the table
    and shows the new name. Storage refusing either changes nothing else (logged where it
    is refused); the name is taken again at the next update."""
    with contextlib.suppress(StorageError):
        await rt.store.player(t.community_id, actor.user_id, actor.name, actor.language)
    if t.version != version or not rt.open_here(t):
        return
    with contextlib.suppress(TransitionFailed):
        async with rt.transition(t) as tx:
            tx.group = True
