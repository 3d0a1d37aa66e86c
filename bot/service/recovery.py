"""Restart recovery (issue 10): every open table continues from its last committed transition.
Nothing committed is recomputed: a showdown the table still owes the chat is sent as stored
(the outbox), stacks come from the ledger, and the clocks resume with what they had left
(R8.5). A table whose snapshot cannot be used is closed with every stack refunded, in one
transaction."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from bot.logs import raised_at
from bot.model import PENDING_PREFIX, LiveTable, Phase
from bot.screens import Screen
from bot.service import chats
from bot.service.play import advance
from bot.service.runtime import (
    CHAT_WAIT,
    Runtime,
    TransitionFailed,
    owed_screen,
    posts_by_ref,
    unsure_ref,
    wait_expired,
    waits_for_chat,
)
from bot.service.settings import missed, note_zone, reconcile
from bot.texts import tr
from game.errors import GameError
from game.options import RuleOptions
from storage.api import CashOut, LedgerKind, TableRecord, answer_within

__all__ = ["START_SEND_SECONDS", "deliver", "release", "restore", "resume", "start", "stop"]

log = logging.getLogger("bot.service")

#: Seconds the start waits at most for the messages it sends (what closed tables owe their
#: chats, :func:`start`; the restored tables' showdowns, notices and table messages,
#: :meth:`bot.service.TableService.start`) before it goes on: the composition root takes
#: updates only once the start is over (:func:`bot.app.run`), and a notice a platform holds
#: (a Telegram flood wait of minutes, the rate limiter's retries) kept every chat unanswered
#: meanwhile. What is still being sent goes on in the background, in order.
START_SEND_SECONDS = 5.0


async def start(rt: Runtime) -> None:
    """Send what closed tables still owe their chats (:func:`deliver`), then rebuild every
    open table from its snapshot and resume it: the clocks stopped when the bot last marked
    itself running, if that is later than a table's snapshot (a crash). The closed tables
    of a chat are delivered in order, each chat's in a task of its own that the start waits
    for :data:`START_SEND_SECONDS` at most, then leaves to go on in the background (the
    stop waits for it: :meth:`Runtime.drain`): a closed table's notice a platform held (a
    Telegram flood wait, the rate limiter's retries of a minute's 429) held the whole start,
    and the bot took no update meanwhile."""
    alive = await rt.store.last_alive()
    by_chat: dict[str, list[tuple[TableRecord, Mapping[str, Any]]]] = {}
    for record, snap in await rt.store.closed_snapshots():
        by_chat.setdefault(record.chat_id, []).append((record, snap))
    tasks = [
        rt.keep(_deliver_each(rt, owed), name=f"deliver-{chat}") for chat, owed in by_chat.items()
    ]
    if tasks:
        _, pending = await asyncio.wait(tasks, timeout=START_SEND_SECONDS)
        if pending:
            log.info("%d chats still owed closed tables' messages: sent later", len(pending))
    for record, snap in await rt.store.snapshots():
        await restore(rt, record, snap, alive)


async def _deliver_each(rt: Runtime, owed: list[tuple[TableRecord, Mapping[str, Any]]]) -> None:
    """:func:`deliver` the closed tables ``owed`` of one chat, in order."""
    for record, snap in owed:
        try:
            await deliver(rt, record, snap)
        except Exception:  # (kept: the next start sends it)
            log.exception("table %s: closed, what it owes not sent", record.id)


async def deliver(rt: Runtime, record: TableRecord, snap: Mapping[str, Any]) -> bool:
    """Send what a closed table owed its chat when the bot stopped (a crash between its
    closing commit and the sending: the last showdown, its picture, the final standings, the
    closing notice), from the final snapshot the commit kept, over the table message the
    group still has, and what it owed its players in private (the bot's removal's notices,
    R8.2a: over each one's hand message, :attr:`LiveTable.private_outbox`); then forget it
    (:meth:`Runtime.forget_owed`), so the next start sends nothing, or, while showdown
    pictures are still being posted later (refused for now, or from before the restart,
    :attr:`LiveTable.late_pictures`), keep it owing only those until each is posted or given
    up (:meth:`Runtime.closed_sent`; a restart posts them again). A crash during the
    sending sends it again (the same stored messages; an edit in place twice changes
    nothing), but the showdown picture once the platform took it (recorded then,
    :meth:`Runtime.flush_outbox`: posted again only by a crash between the platform's answer
    and that write). Kept for a later start while its platform is not running here, or when the
    sending failed (the group's or a player's: all of it is sent again then). Closed while
    the bot may not write in the chat (:attr:`LiveTable.chat_gone`, R8.2a): only the
    players' messages are sent; the table message waits, kept, for the bot's return
    (:func:`~bot.service.chats.owed_back`), for :data:`~.runtime.CHAT_WAIT` (30 days: then
    forgotten).
    Several workers (issue 14): the one holding the chat's lease calls it (``sweep``), and
    keeps the lease while it sends (:attr:`Runtime.closing`). ``True`` when nothing is
    owed any more but pictures being posted here."""
    if wait_expired(snap):  # its group never took the bot back: forgotten
        log.info(
            "table %s: its message waited %d days for the bot's return; forgotten",
            record.id,
            CHAT_WAIT // 86400,
        )
        await rt.forget_owed(record.id)
        return True
    try:
        t = LiveTable.from_json(snap, rt.clock())
    except Exception as exc:  # nothing can be sent from it; keeping it would not change that
        _unusable("table %s: closed, its final snapshot is unusable; not sent", record.id, exc)
        await rt.forget_owed(record.id)
        return True
    if t.chat_id != record.chat_id:  # the chat moved since (as :func:`restore`)
        if t.community_ext == t.chat_id:
            t.community_ext = record.chat_id
        t.chat_id = record.chat_id
    p = rt.presenter(t)
    if p is None:
        log.info("table %s: closed, owes %s messages it cannot send here", t.id, t.platform)
        return False
    if waits_for_chat(snap):  # (its table message waits for the bot's return)
        await rt.start_wait(record.id, snap)  # (one saved undated: its 30 days start now)
        return True
    rt.closing[t.id] = t
    earlier = list(t.late_pictures)  # pictures being posted later when the bot stopped
    try:
        sent, kept = True, False
        try:
            if not t.chat_gone:  # (else every group write is refused: none made)
                # (a picture the platform takes is recorded at once: not posted again)
                kept = not await rt.flush_outbox(t, p, final=dict(snap))
                kept = await rt.edits_kept(t) or kept  # (an edit the stop held: kept)
            else:  # (a kick's notice, owed with the step the chat went away in: private)
                await rt.send_notices(t, p)
        except Exception:
            log.exception("table %s: closed, its last messages not sent; sent later", t.id)
            sent = False
        delivered = set()  # (each player's, even when the group's failed)
        for n, item in enumerate(t.private_outbox):
            try:
                await p.show_private(str(item["user"]), owed_screen(t, item), item.get("ref"))
                delivered.add(n)
            except Exception:
                log.exception("table %s: closed, a private message not sent; sent later", t.id)
                sent = False
        if sent and kept:  # the bot stops, a notice held: the rest is sent by the next start
            await rt.keep_owed(t, delivered)
        if not sent or kept:
            return False
        if t.chat_gone:  # its players told: the table message waits for the bot's return
            await rt.wait_for_chat(t)
            return True
        # forgotten, or kept (in :attr:`Runtime.closing`) while it owes pictures posted
        # later: those from before the restart are posted again now, under their refs
        await rt.closed_sent(t)
        rt.post_late_pictures(t, earlier)
    finally:
        if t.id not in rt.owing_pictures:
            rt.closing.pop(t.id, None)
    return True


def _unusable(message: str, table_id: int, exc: Exception) -> None:
    """Log that a table's snapshot cannot be used (``message`` with the table's id). The
    game core's refusal of its hand (:class:`~game.errors.GameError`: an action the deal does
    not fit, a card twice in the deck) names a card, another player's hidden one or a
    discard (R3.3), and whoever runs the bot may sit at its tables: logged by its type and
    code, without its text or traceback. Any other failure with its traceback."""
    if isinstance(exc, GameError):
        log.error(message + " (the hand does not replay: %s, %s)", table_id,
                  type(exc).__name__, exc.code)  # fmt: skip
    else:
        log.exception(message, table_id, exc_info=exc)


async def restore(
    rt: Runtime,
    record: TableRecord,
    snap: Mapping[str, Any],
    alive: float | None = None,
    *,
    taken_over: bool = False,
) -> LiveTable | None:
    """Rebuild one open table from its last committed snapshot and resume it (at start, or
    when a worker takes a table over from one that died, issue 14), in the chat storage has
    it in (a group upgraded since the snapshot moved it). ``alive``: when the bot
    last marked itself running, or, taken over, when the worker that served it last renewed
    its chat's lease (:meth:`LiveTable.from_json`). ``taken_over``: by a worker (issue 14):
    the table message the group has is written over, not posted anew (:func:`resume`).
    Private messages of the step the snapshot holds that were never sent (a step read back
    as saved, :attr:`Runtime.owed_privates`: this process's, or kept in the snapshot,
    :data:`~.runtime.OWED_KEY`, by a process that crashed, stopped or let the table go before
    a step carried them, :meth:`Runtime.take_owed`) go with the resumed table's first step
    (:func:`resume`). Returns the table, or ``None`` when the snapshot could not be used and
    the table was closed with a refund."""
    if not snap:  # created, then a crash before its first save: nobody sat down, nothing to show
        log.warning("table %s: never saved (a crash after it was created); closing it", record.id)
        await cancel_unrecoverable(rt, record, snap)
        return None
    try:
        t = LiveTable.from_json(snap, rt.clock(), alive)
    except Exception as exc:  # a snapshot we cannot use: refund, never lose kush
        _unusable("table %s: cannot restore; refunding", record.id, exc)
        await cancel_unrecoverable(rt, record, snap)
        return None
    rt.take_owed(t.id, snap)  # (a step's private messages its process never sent)
    moved = t.chat_id != record.chat_id
    if moved:
        # the chat moved after the snapshot (a group upgraded, :func:`.chats.migrate_chat`,
        # with a crash before the table's step): storage's chat, and wallets, are the new ones
        if t.community_ext == t.chat_id:
            t.community_ext = record.chat_id
        t.chat_id, t.moved_from = record.chat_id, t.chat_id
    held = rt.table_at(t.platform, t.chat_id)
    rt.add(t)
    async with t.lock:
        try:
            # (a moved chat's message is the old chat's: not edited through the new id)
            await resume(rt, t, keep_message=taken_over and not moved, same_chat=not moved)
        except TransitionFailed:
            log.error("table %s: could not resume now; its timer will retry", t.id)
            await rt.arm(t)
    if held is not None and held.id != t.id:  # a crash before the newer one's close
        stray, kept = (t, held) if held.id < t.id else (held, t)
        await chats.close_stray(rt, stray, kept)
    return t


async def release(rt: Runtime, t: LiveTable, *, save: bool = False) -> None:
    """Stop serving a table another worker serves now (its lease was lost, issue 14): its
    timer is cancelled, the pictures it was posting later are dropped (the other worker posts
    them) and it is forgotten, nothing written (:meth:`Runtime.let_go`). ``save``: handed
    over while its chat's lease may still be held here (a Discord shard handed back or
    lost): an open table's snapshot is saved first, so that its clocks stop now for the
    worker taking it over (R8.5; refused by the fenced store when the lease is lost, then
    that worker stops them at the lease's last renewal). That save waits
    :attr:`Runtime.storage_wait` at most: holding the table, a silent database held it, every
    press there and the shard's hand-over, for good."""
    async with t.lock:
        if save and rt.open_here(t):
            try:
                with answer_within(rt.storage_wait):
                    await rt.store.save_snapshot(t.id, rt.snapshot(t))
            except Exception as exc:
                log.warning("table %s: not saved as it is let go: %r", t.id, exc)
        rt.let_go(t)


async def hand_over(rt: Runtime, t: LiveTable, until: float) -> bool:
    """Let open table ``t`` go to another worker while its chat's lease is still held
    here (issue 14: :meth:`bot.cluster.Worker.rebalance`): under the table's lock, if it is
    still idle (:meth:`Runtime.idle_for_handover`, nothing due before ``until``, the clock's
    time), its snapshot is saved (so that its clocks stop now for the next worker, R8.5)
    and it is forgotten as a lost one is (:meth:`Runtime.let_go`). ``False``, the table
    still served here, when it is not idle or the save failed (a silent database: waited
    :attr:`Runtime.storage_wait` at most; logged)."""
    if not rt.idle_for_handover(t, until):  # (not waiting for a step under way)
        return False
    async with t.lock:
        if not rt.idle_for_handover(t, until, held=True):
            return False
        try:
            with answer_within(rt.storage_wait):
                await rt.store.save_snapshot(t.id, rt.snapshot(t))
        except Exception as exc:
            # (its type and where: never its text, which may quote the snapshot's cards)
            log.warning(
                "table %s: not saved for its hand-over (%s at %s); kept here",
                t.id,
                type(exc).__name__,
                raised_at(exc),
            )
            return False
        rt.let_go(t)
        return True


async def resume(
    rt: Runtime,
    t: LiveTable,
    *,
    keep_message: bool = False,
    same_chat: bool = True,
) -> None:
    """Continue a restored table: its messages are posted anew (the old ones may be gone, and
    their buttons carry old versions), what it owes the chat is sent (a showdown picture
    being posted later too, :meth:`Runtime.post_late_pictures`), and a hand in progress
    makes the moves that are due (a player who left). A table takes the community's settings
    it missed (a crash between their saving and its step, or the bot down;
    :func:`.settings.reconcile`: a tournament's kush label, pictures and languages only).
    A computer player an older snapshot has sitting out plays again (R8.6 sits out people).

    ``keep_message``: a table a worker takes over (issue 14): its table message is written
    over the one the group has, which its snapshot names, as the worker that died would
    have (a new one left the group two table messages with buttons, the old one's looking
    live); the adapter posts it again if it was deleted meanwhile, and one not posted for
    certain (a pending ref) is posted anew as at a restart. Posted anew, the old message
    is written as moved, its buttons gone, once it no longer shows the table as it is
    (:meth:`Runtime.retire_earlier`; ``same_chat``: not one of a chat the group left, an
    upgraded group's, whose ids are not the new chat's). A ``table`` item of the outbox a
    crash left unsent (a showdown, which stays as the record) is written over that old
    message again (its ``over``), which is then not written as moved: the restart posted it
    anew, a second showdown below the table message.

    The players' private hand messages go the same way: taken over, each is written over
    the one its seat's snapshot names (the adapter posts it again if the player deleted
    it; one not posted for certain, a pending ref, is posted anew); at a restart they are
    posted anew. A hand posted anew writes the player's old hand message as moved, its
    buttons gone (:meth:`Runtime.retire_hand_later`): its buttons answered "out of date"
    for good, live to the eye. The hidden cards go to each player's private chat only.

    Private messages of the step the snapshot holds that its process never sent (a step
    read back as saved, :attr:`Runtime.owed_privates`, by seat) go with this step
    (:meth:`Runtime._carry`), or with the close made first when the table closes while it
    catches up (R8.2a), each over the message the seat had (a seat still at the table keeps
    that message rather than getting a new one), a player the step stood up told too; a
    seat this step shows gets its screen as it is now instead. This step refused, they stay
    owed (:meth:`Runtime._restore_anew` tries again; the table's snapshots keep them, so
    a restart or a worker taking the table over sends them); committed, the snapshot it
    stores no longer holds them, so no later restart sends them again."""
    shown, before = t.version, _state(t)
    stacks = await rt.store.stacks(t.id)
    old_ref = None
    if not keep_message or unsure_ref(t.group_ref):
        if not unsure_ref(t.group_ref):  # (the group may see only that one: the new post refused)
            t.earlier_ref = old_ref = t.group_ref
        if t.group_ref is None or not (
            t.group_ref.startswith(PENDING_PREFIX) and posts_by_ref(rt.presenter(t))
        ):
            t.group_ref = None
            again = getattr(rt.presenter(t), "resend_ref", None)
            if old_ref is not None and same_chat and again is not None:
                # posted anew under a ref derived from the message it replaces (Discord: the
                # nonce of that message's re-post after a delete, the same in every process),
                # not a random one: a re-post a crash cut off before its id was saved (the
                # snapshot still names the deleted message) is returned, not posted beside
                # this one; committed by this step, kept by a rollback of it
                t.group_ref = again(t.group_chat, old_ref)
        else:
            # a post under a ref committed first (Discord: its nonce) is posted under it
            # again: one that went out before the crash or the takeover is returned, not
            # posted a second time (:func:`~bot.service.runtime.posts_by_ref`); the
            # message from before the restart that posted it is still written as moved
            if not unsure_ref(t.earlier_ref):
                old_ref = t.earlier_ref
    # a table item the crash left unsent (a showdown: written over the table message, which
    # stays as the record) goes over that message again, not over the one posted anew (a
    # second showdown below it, the first then written as moved): the record
    if old_ref is not None and same_chat and (overs := _unsent_table_items(t)[:1]):
        overs[0]["over"] = old_ref
        old_ref = None  # (the record: not written as moved)
    if t.last_deal_at is None:  # a snapshot from before idle close (R8.2a) was written
        t.last_deal_at = rt.clock()
    by_ref = posts_by_ref(rt.presenter(t))
    for s in t.seats.values():
        s.stack = int(stacks.get(s.player_id, 0))
        if not keep_message or unsure_ref(s.private_ref):
            if not s.bot and not unsure_ref(s.private_ref):  # (posted for certain)
                rt.retire_hand_later(t, s.user_id, str(s.private_ref))
            if not (
                by_ref and s.private_ref is not None and s.private_ref.startswith(PENDING_PREFIX)
            ):
                s.private_ref = None
            # (else a hand posted under a ref committed first, as the table message: posted
            # under it again, so one that went out before the crash is returned, not doubled)
        if s.bot:  # never away (R8.6 sits out a person): a snapshot from before that rule
            s.sitting_out = s.timed_out = False  # may have one sat out, waited for forever
    for n, (was, _) in rt.owed_privates.get(t.id, {}).items():
        # (their message is there: the step that carries what it owes writes over it)
        seat = t.seats.get(n)
        if seat is None or seat.user_id != was.user_id:
            continue
        if was.private_ref is not None or not unsure_ref(seat.private_ref):
            seat.private_ref = was.private_ref  # (a pending one kept above stays)
    community = None
    try:  # (a tournament keeps the options it opened with, R8.7, and takes the rest)
        community = await rt.store.get_community(t.community_id)
    except Exception as exc:  # the next settings change passes them on
        log.warning("table %s: community settings not read: %r", t.id, exc)
    if community is not None:  # (its message says when a turn ends in the group's zone,
        note_zone(rt, community)  # a tournament's too: a restored one showed a duration)
    if community is not None and missed(t, community.settings, rt.kush_label(community)):
        # a timer whose time came before the restart is made first, as on a live table
        # (:meth:`Runtime.overdue_first`, R8.2, R8.2a): a raised ready_seconds or
        # idle_close_seconds saved while the bot was down gave a timer that had run out
        # more time
        earlier = list(t.late_pictures)
        await rt.overdue_first(t)
        if not rt.open_here(t):  # closed for want of a hand (R8.2a), its messages sent:
            rt.post_late_pictures(t, earlier)  # the pictures it owed from before, as below
            return
    if old_ref is not None and same_chat:
        rt.retire_later(t, old_ref)
    async with rt.transition(t) as tx:
        tx.group = True
        if community is not None and reconcile(
            t, community.settings, tx, rt.clock(), rt.kush_label(community)
        ):
            log.info("table %s: takes the community settings it missed", t.id)
        if t.hand is not None and t.reveal is None:
            tx.show.update(t.owner(s) for s in t.hand.order)
            advance(rt, t, tx, t.hand.order)
        if _state(t) != before:  # the old message shows another state: moved at once
            rt.retire_earlier(t)
    if _state(t) == before:
        # the table message from before the restart shows the table as it is: its buttons
        # work (a press there moves the version on, and that message is out of date then,
        # written as moved)
        t.resumed_version = shown
    # a showdown picture the platform had refused for a while, posted later in the
    # background when the bot stopped: posted now (under its ref: once)
    rt.post_late_pictures(t, t.late_pictures)


def _unsent_table_items(t: LiveTable) -> list[dict[str, Any]]:
    """The outbox's ``table`` items of ``t`` not sent yet and written over the table message
    as it is then (no ``ref`` of their own: :meth:`~bot.service.runtime.Runtime.flush_outbox`)."""
    return [
        item
        for item in t.outbox
        if int(item["id"]) > t.outbox_sent and item.get("kind") == "table" and not item.get("ref")
    ]


def _state(t: LiveTable) -> dict[str, Any]:
    """What a table message shows of ``t``: its snapshot without the messages' bookkeeping
    (references, versions, the outbox and the step counter with its token)."""
    data = t.to_json()
    for key in (
        "group_ref",
        "earlier_ref",
        "version",
        "seq",
        "step_token",
        "outbox",
        "outbox_seq",
        "outbox_sent",
        "late_pictures",
    ):
        data.pop(key, None)
    data["seats"] = [{k: v for k, v in s.items() if k != "private_ref"} for s in data["seats"]]
    return data


async def stop(rt: Runtime) -> None:
    """Cancel the timers and write every table's snapshot (the time until the next start does
    not count against the player to act, R8.5). The presenters stop waiting for the
    platform first (:meth:`~bot.model.Presenter.stop_retries`): a notice a flood wait holds
    in a table's sender held this stop for the whole wait; it is kept for the next start
    (:meth:`Runtime.flush_outbox`), and so is a showdown's edit of the table message held so
    (:meth:`Runtime.edits_kept`: owed again before the table is saved). A table in the
    middle of a step (a press answered during the stop, perhaps waiting for a decision
    that hangs, holding the table) is saved as it was before that step
    (:meth:`Runtime.save_soon`), not waited for."""
    rt.stopping = True  # (no timer starts from now on: a table restored meanwhile has none)
    for p in rt.presenters.values():
        p.stop_retries()
    await rt.stop_timers()
    # tables being restored anew (a step read back as saved): each is served again before
    # the tables are saved, not after (its timer ran on past the stop)
    while renewing := [task for task in rt.renewing.values() if not task.done()]:
        await asyncio.wait(renewing)
    for t in list(rt.closing.values()):  # a closed table's last messages, under way
        await rt.settled(t)
    for t in list(rt.tables.values()):
        await rt.settled(t)
        await rt.edits_kept(t)  # (a showdown's edit held: owed again, saved with the table)
        rt.save_soon(t)  # (a step under way: the table as before it, Runtime.save_soon)
    await rt.drain()


async def cancel_unrecoverable(rt: Runtime, record: TableRecord, snap: Mapping[str, Any]) -> None:
    """Close a table that cannot be rebuilt, refunding every stack in one transaction. The
    group's notice (the hand was cancelled, the stacks refunded) commits with it, as the
    closed table's final snapshot, and is sent after the commit like any closing step's
    messages (:func:`deliver`): a crash in between, or a platform that fails, leaves it for
    the next start (or the worker serving the chat, issue 14), never lost. A table never
    saved (a crash after it was created: nobody sat down) closes without a notice."""
    final = await _cancelled(rt, record, snap) if snap else None
    stacks = await rt.store.stacks(record.id)
    moves = [CashOut(pid, LedgerKind.REFUND) for pid in stacks]
    data = final.to_json() if final is not None else None
    await rt.store.commit(record.id, moves, data, key=f"t{record.id}:refund", close=True)
    if data is not None:
        await deliver(rt, record, data)


async def _cancelled(rt: Runtime, record: TableRecord, snap: Mapping[str, Any]) -> LiveTable:
    """The final state of a table closed by :func:`cancel_unrecoverable`: only where its
    group messages go (from what of the snapshot can be read, else the table's community),
    owing the chat the notice."""
    platform, ext = snap.get("platform"), snap.get("community_ext")
    if not isinstance(platform, str) or not platform or not isinstance(ext, str):
        community = await rt.store.get_community(record.community_id)
        platform = community.platform if community is not None else str(platform or "")
        ext = community.external_id if community is not None else record.chat_id
    lang, topic = snap.get("lang"), snap.get("topic")
    t = LiveTable(
        id=record.id,
        platform=platform,
        community_id=record.community_id,
        community_ext=ext,
        chat_id=record.chat_id,
        lang=lang if lang in ("en", "ru") else "en",
        options=RuleOptions(),
        min_buy_in=record.min_buy_in,
        label="",
        topic=None if topic is None else str(topic),
        phase=Phase.CLOSED,
    )
    t.owe("post", Screen(tr(t.lang, "reply.hand_cancelled", table=record.id)))
    return t
