"""What a table's timer does when it fires: a clock ran out (R8.5), the next hand is due,
a top-up asked for during the hand is to be added or a player who sat down late did not press
Ready in time (R8.2), the next box is revealed or the
claim time is over (R4.5, R7.5), a tournament's next level is in force (R8.7: the group's
message is written again). Each is a transition; one that storage refuses, or that fails
on a bug, is retried a little later (the table is as it was); a bug is logged by its type and
where it was raised, never its text (it may name a hidden card, R3.3)."""

from __future__ import annotations

import asyncio
import logging

from bot.logs import raised_at
from bot.model import LiveTable, Phase, Reply
from bot.service.bots import bot_turn
from bot.service.chinese import continue_reveal, reveal_step
from bot.service.dealing import maybe_start, stand_up_unready
from bot.service.lobby import add_top_ups, close_table
from bot.service.play import advance
from bot.service.runtime import Runtime, TransitionFailed
from bot.texts import tr
from game.tournament import TournamentPhase

__all__ = ["RETRY_SECONDS", "idle_first", "idle_notice", "on_time"]

log = logging.getLogger("bot.service")

#: After a transition that storage refused, the timer tries again this much later.
RETRY_SECONDS = 5.0


def _due(rt: Runtime, t: LiveTable, *, level: bool = True) -> bool:
    """Whether a step is due at the table now; ``level``: a new tournament level in force
    since the group's message was written counts too (:meth:`Runtime.level_due`)."""
    now = rt.clock()
    if level and rt.level_due(t):
        return True
    idle = rt.idle_deadline(t)
    if idle is not None and now >= idle:
        return True
    if t.top_ups_due():
        return True
    unready = t.ready_windows_end()
    if unready is not None and now >= unready:
        return True
    if t.reveal is not None:
        claim = t.reveal.get("claim")
        at = t.reveal.get("at")
        return bool(claim and now >= float(claim["deadline"])) or (
            at is not None and now >= float(at)
        )
    hand = t.hand
    if t.bot_due is not None and now >= t.bot_due and hand is not None and not hand.is_over:
        return True
    if hand is not None and not hand.is_over:
        return any(t.out_of_time(t.owner(s), now) for s in hand.to_act)
    if t.ready_deadline is not None and now >= t.ready_deadline:
        return True
    if t.top_up_deadline is not None and now >= t.top_up_deadline:
        return True
    return t.next_hand_at is not None and now >= t.next_hand_at


async def on_time(rt: Runtime, t: LiveTable, *, overdue: bool = False) -> None:
    """Run what is due at the table (call under ``t.lock``), then re-arm its timer.
    ``overdue``: the step a change makes first (:meth:`Runtime.overdue_first`): during a hand
    or a reveal, only the end of a late joiner's time to press Ready (R8.2); the hand's own
    step is left to the timer, which waits for a computer player's decision without holding
    the table (made here, a settings change or an /addbot waited it out holding the table,
    every press there unanswered, R8.5)."""
    if not _due(rt, t):
        await rt.arm(t)
        return
    idle = rt.idle_deadline(t)
    try:
        if t.top_ups_due():  # the hand is over: the top-ups asked for during it (R8.2)
            await add_top_ups(rt, t)
            if t.phase is Phase.LOBBY and t.hand is None and t.reveal is None:
                # the deal a command left to the timer in the lobby (a /back or a Ready
                # while the top-ups waited, :func:`maybe_start`): nothing else is due for
                # it, and the ready players waited for the idle close (R8.2a)
                async with rt.transition(t) as tx:
                    maybe_start(rt, t, tx)
            if not _due(rt, t):
                await rt.arm(t)
                return
        unready = t.ready_windows_end()
        if unready is not None and rt.clock() >= unready:  # seated late, not Ready (R8.2)
            async with rt.transition(t) as tx:
                stand_up_unready(t, tx, rt.clock())
            if not _due(rt, t):
                await rt.arm(t)
                return
        if rt.level_due(t) and not _due(rt, t, level=False):
            # R8.7: a new level is in force: the group's message, which counted down to it,
            # is written again, once (its commit notes the level shown and re-arms the timer)
            async with rt.transition(t) as tx:
                tx.group = True
            return
        if overdue and (t.hand is not None or t.reveal is not None):
            await rt.arm(t)  # (the hand's step: its timer's)
            return
        if idle is not None and rt.clock() >= idle:  # R8.2a: no hand for too long
            await close_table(rt, t, idle_notice(t, t.lang), idle=True)
            return
        async with rt.transition(t) as tx:
            now = rt.clock()
            if t.reveal is not None:
                claim = t.reveal.get("claim")
                if claim and now >= float(claim["deadline"]):
                    continue_reveal(rt, t, tx)  # nobody claimed in time: the reveal goes on
                else:
                    reveal_step(rt, t, tx)
            elif t.hand is not None:
                if t.bot_due is not None and now >= t.bot_due:
                    await bot_turn(rt, t, tx)  # a computer player moves (issue 13)
                else:
                    advance(rt, t, tx, t.hand.to_act)
            else:
                if t.next_hand_at is not None and now >= t.next_hand_at:
                    t.next_hand_at = None
                maybe_start(rt, t, tx)
                tx.group = True
    except TransitionFailed:
        _schedule_retry(rt, t)
    except Exception as exc:  # a bug must not stop the table's clock for good: tried again
        # (its type and where it was raised: never its text nor log.exception's, which may
        # name a hidden card, R3.3)
        log.error(
            "table %s: timer step failed (%s at %s), table rolled back; retrying",
            t.id,
            type(exc).__name__,
            raised_at(exc),
        )
        _schedule_retry(rt, t)


def idle_notice(t: LiveTable, lang: str) -> str:
    """What the idle close (R8.2a) of ``t`` says, in ``lang``: no hand for how long, where the
    stacks went (a tournament: how its pool went, R8.7) and that /newtable opens another."""
    seconds = round(t.options.idle_close_seconds)
    minutes = round(seconds / 60)
    key = "table.idle_closed"  # (stacks back, /newtable)
    if t.tournament is not None:  # no table of stacks: one that never started, or stopped
        # dealing; the cancel says how its pool went (R8.7)
        started = t.tournament.phase is not TournamentPhase.REGISTERING
        key = "tour.idle" if started else "tour.idle_unstarted"
    if seconds < 120:  # said in seconds (20 s read "no hand for 0 minutes")
        key += ".s"
    return tr(lang, key, table=t.id, minutes=minutes, seconds=seconds)


async def idle_first(rt: Runtime, t: LiveTable, lang: str) -> Reply | None:
    """The idle close (R8.2a) is due but the table's timer has not fired yet (a loaded bot, a
    timer a moment late, a restart that restored the table and delivered the commands that
    waited before its timer ran): the timer's step is made now, before a command or a press
    of ``t`` is played (call under ``t.lock``), and the command is answered with the close's
    notice in ``lang``. Played first, a /join was answered "you sit at seat N" and the table
    closed under the player a moment later, and a Ready (or a /leave, a /back, a /topup that
    let the others' deal start) dealt a hand at a table whose time was up. ``None``: the
    close is not due, or storage refused it (the timer retries it; the command goes on)."""
    idle = rt.idle_deadline(t)
    if idle is None or rt.clock() < idle:
        return None
    notice = idle_notice(t, lang)
    await on_time(rt, t)
    if rt.open_here(t):
        return None
    return Reply(notice, alert=True)


def _schedule_retry(rt: Runtime, t: LiveTable) -> None:
    """Try the table's due step again :data:`RETRY_SECONDS` later (the failed one changed
    nothing: its transition rolled back). The table's timer it replaces is cancelled: a
    step made first by a command (:func:`idle_first`, :meth:`Runtime.overdue_first`) left
    it running, out of the table's reach (the stop did not cancel it). None once the bot
    is stopping (:attr:`Runtime.stopping`, as :meth:`Runtime.arm`): a step refused during
    the stop (a command's overdue step) started a timer that ran after the stop."""
    if rt.timers and rt.open_here(t) and not rt.stopping:
        if t.timer is not None and t.timer is not asyncio.current_task():
            t.timer.cancel()
        t.timer = asyncio.create_task(_retry(rt, t), name=f"table-{t.id}-retry")


async def _retry(rt: Runtime, t: LiveTable) -> None:
    await asyncio.sleep(RETRY_SECONDS)
    async with t.lock:
        if rt.open_here(t):
            await on_time(rt, t)
