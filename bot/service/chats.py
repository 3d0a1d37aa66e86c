"""What happens to a table's chat and its players' private chats outside the game (issue 15):
a group that gets a new id (a Telegram group upgraded to a supergroup), a group that removes
the bot, and a player who blocks the bot mid-hand."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection

from bot.model import PENDING_PREFIX, LiveTable
from bot.screens import Screen
from bot.service import lobby, recovery
from bot.service.runtime import (
    Runtime,
    TransitionFailed,
    posts_by_ref,
    wait_expired,
    waits_for_chat,
)
from bot.texts import tr
from storage.api import StorageError, answer_within

__all__ = [
    "chat_back",
    "chat_left",
    "chats_back",
    "close_stray",
    "community_back",
    "community_left",
    "migrate_chat",
    "owed_back",
    "owed_pressed",
    "player_unreachable",
]

log = logging.getLogger(__name__)


async def migrate_chat(rt: Runtime, platform: str, old_id: str, new_id: str) -> bool:
    """Follow a chat to its new id: the community (wallets, settings, history) and the table
    move in storage in one transaction, then the live table takes the new id and posts its
    message there (the old chat's messages cannot be edited through the new id), even when
    storage refuses that step (it holds the new id already; the snapshot is then saved in the
    background, and a restart reads the chat from storage, :func:`.recovery.restore`).
    Returns ``True`` if anything moved; calling it again changes nothing.

    A table already served in the new chat (opened there before the bot heard of the move:
    the upgrade's service messages never reached it) closes as an admin's ``/closetable``
    would, its stacks back in the balances they came from (the new chat's wallets of
    before the move, kept apart by storage): one chat, one table (R8.2a)."""
    moved = await rt.store.move_chat(platform, old_id, new_id)
    t = rt.table_at(platform, old_id)
    if t is None:
        return moved
    stray = rt.table_at(platform, new_id)
    async with t.lock:
        if t.chat_id == old_id:
            # storage has the table in the new chat now: it follows whatever comes next (a
            # step refused below, a crash: the restored table takes its chat from storage)
            t.chat_id, t.moved_from = new_id, old_id
            if t.community_ext == old_id:
                t.community_ext = new_id
            t.group_ref = None
            rt.by_chat.pop((platform, old_id), None)
            rt.by_chat[(platform, new_id)] = t.id
            try:
                async with rt.transition(t) as tx:
                    tx.group = True
            except TransitionFailed:  # (logged) the snapshot follows in the background
                if rt.open_here(t):  # (not when another worker serves the table now)
                    await rt.show_group(t)
    await rt.settled(t)
    if stray is not None and stray is not t:
        await close_stray(rt, stray, t)
    return True


async def close_stray(rt: Runtime, stray: LiveTable, t: LiveTable) -> None:
    """Close ``stray``, a table opened in the chat ``t`` has moved to (R8.2a, as an admin's
    close: at once between hands, else after its hand), telling the chat why. Nothing if it
    is closed or closing already. Storage refusing the close leaves it open (logged) until
    its idle close."""
    notice = tr(stray.lang, "chat.moved_over", table=stray.id, moved=t.id)
    async with stray.lock:
        if not rt.open_here(stray) or stray.closing:
            return
        stray.moved_close = True  # (saved by the close's step: a tournament's players told so)
        try:
            if stray.hand is None and stray.reveal is None:
                await lobby.close_table(rt, stray, notice, admin=True)
            else:
                await lobby.close(rt, stray, stray.lang)
                async with rt.transition(stray):
                    stray.owe("post", Screen(notice))
        except TransitionFailed:  # (logged) it stays open until its idle close
            stray.moved_close = False
            log.warning("table %s in the chat table %s moved to stays open", stray.id, t.id)
    await rt.settled(stray)


async def chat_left(rt: Runtime, platform: str, chat_id: str, sent: float | None = None) -> bool:
    """The bot was removed from the chat (or left it): its table is closed as an admin's
    ``/closetable`` would (R8.2a): at once between hands, else with the settlement of the hand
    in progress (its players finish it in their private chats, or the clock does, R8.5), and
    every stack goes back to its balance, so no hand is dealt into a chat nobody can read.
    Returns ``True`` if the chat had an open table; calling it again changes nothing.

    ``sent``: a write refused for want of access told it (when, ``time.monotonic()``, that
    write was sent): one sent before the bot was told it is back (:func:`chat_back`) says
    nothing of now, and is ignored (its refusal, answered late, queued the close again that
    the re-add had cancelled).

    :raises TransitionFailed: if storage refused the close (the table stays as it was)."""
    back = rt.back_at.get((platform, chat_id))
    if sent is not None and back is not None and sent <= back:
        log.info("a write to %s refused before the bot was back there: ignored", chat_id)
        return False
    t = rt.table_at(platform, chat_id)
    if t is None:
        return False
    async with t.lock:
        if not rt.open_here(t) or t.chat_id != chat_id:
            return False
        if not t.closing:
            await lobby.close(rt, t, t.lang, removal=True)
        elif not t.chat_gone:  # an admin's close, queued before: it stands, but the chat
            # reads neither its notice nor the last showdown now (its players told in private)
            async with rt.transition(t):
                t.chat_gone = True
    await rt.settled(t)
    return True


async def chat_back(rt: Runtime, platform: str, chat_id: str) -> bool:
    """The bot is back in the chat (added again, or allowed to write again) while the close
    its removal queued (:func:`chat_left`) waits for the hand in progress: that close is
    cancelled, the group told so, and hands go on. An admin's close stands, and so does the
    removal's once carried out (the chat then opens a new table). ``True`` if a close was
    cancelled; calling it again changes nothing.

    A table the removal closed meanwhile gets its table message, which still showed it
    open, written as closed (:func:`owed_back`).

    :raises TransitionFailed: if storage refused the step (the close stays queued)."""
    rt.mark_back(platform, chat_id)  # (writes refused before say nothing)
    await owed_back(rt, platform, chat_id=chat_id)
    return await _close_cancelled(rt, platform, chat_id)


async def chats_back(
    rt: Runtime,
    platform: str,
    chat_ids: Collection[str],
    *,
    owed: Callable[[str, str], bool] | None = None,
) -> int:
    """The bot may write again in each of the chats ``chat_ids`` (a Discord guild's role or
    member update looks at every channel at once): as :func:`chat_back` for each, but the
    closed tables owed there (:func:`owed_back`) are looked for in one read of the final
    snapshots for all of them, not one a chat (a big guild's every role change read them
    all once per channel). ``owed(community_ext, chat_id)``: the chats whose closed tables
    that read writes as closed, when wider than ``chat_ids`` (a guild's re-join: every chat
    of it the bot may write in, :func:`community_back`, also one no open table is in); by
    default the chats ``chat_ids``. Returns how many closes were cancelled; a chat whose
    step storage refused (or failed otherwise) keeps its close (logged), the others go on."""
    wanted = list(dict.fromkeys(chat_ids))
    if not wanted and owed is None:
        return 0
    for chat in wanted:
        rt.mark_back(platform, chat)  # (writes refused before say nothing)
    chosen = set(wanted)
    await owed_back(rt, platform, writable=owed or (lambda _community, chat: chat in chosen))
    cancelled = 0
    for chat in wanted:
        try:
            cancelled += await _close_cancelled(rt, platform, chat)
        except TransitionFailed:  # (the close stays queued)
            log.warning("the close of the table of %s not cancelled", chat)
        except Exception:  # (one chat's failure keeps the others' from nothing; logged)
            log.exception("could not keep the table of %s open", chat)
    return cancelled


async def _close_cancelled(rt: Runtime, platform: str, chat_id: str) -> bool:
    """:func:`chat_back` once the owed messages were looked at: the close the bot's removal
    queued at the chat's table is cancelled. ``True`` if one was.

    :raises TransitionFailed: if storage refused the step."""
    t = rt.table_at(platform, chat_id)
    if t is None:
        return False
    async with t.lock:
        if not rt.open_here(t) or t.chat_id != chat_id:
            return False
        if t.closing and t.chat_gone and not t.removal_close:  # an admin's close stands,
            async with rt.transition(t):  # read in the chat again
                t.chat_gone = False
        if not (t.closing and t.removal_close):
            return False
        async with rt.transition(t) as tx:
            t.closing = False
            t.removal_close = False
            t.chat_gone = False
            t.owe("post", Screen(tr(t.lang, "lobby.close_cancelled", table=t.id)))
            tx.group = True  # the table message, which missed the edits while the bot was out
    await rt.settled(t)
    return True


async def community_left(rt: Runtime, platform: str, community_ext: str) -> int:
    """The bot was removed from a whole community (a Discord guild): every table of it closes
    as in :func:`chat_left`. Returns how many tables it had open.

    :raises TransitionFailed: if storage refused a close (that table stays as it was)."""
    chats = [
        t.chat_id
        for t in list(rt.tables.values())
        if t.platform == platform and t.community_ext == community_ext
    ]
    return sum([await chat_left(rt, platform, chat) for chat in chats])


async def community_back(
    rt: Runtime,
    platform: str,
    community_ext: str,
    writable: Callable[[str, str], bool] | None = None,
) -> int:
    """The bot is back in a community that removed it (a Discord guild): each of its tables
    whose close the removal queued goes on, as in :func:`chat_back`. Returns how many.
    ``writable``: the chats the bot may write in now (``None``: all of them). Only their
    tables go on: one whose chat is gone (a Discord channel deleted meanwhile) or closed to
    the bot (Send Messages taken away there) keeps its close, which it queued for that
    too (R8.2a; it was cancelled, the group "told" into a chat nobody can read, and queued
    again only by that write's refusal, while the hand could end and the next be dealt
    there); it goes on once the bot may write there (:func:`chat_back`). A closed table's
    message in a chat not writable waits likewise (:func:`owed_back`). The closed tables'
    snapshots are read once for the whole community (:func:`chats_back`), not once more a
    table; a table whose step storage refused keeps its close (logged), the others go on."""

    def owed(community: str, chat: str) -> bool:
        return community == community_ext and (writable is None or writable(community, chat))

    chats = [
        t.chat_id
        for t in list(rt.tables.values())
        if t.platform == platform
        and t.community_ext == community_ext
        and owed(community_ext, t.chat_id)
    ]
    return await chats_back(rt, platform, chats, owed=owed)


async def owed_back(
    rt: Runtime,
    platform: str,
    *,
    chat_id: str | None = None,
    community_ext: str | None = None,
    writable: Callable[[str, str], bool] | None = None,
    read_after: Collection[int] = (),
) -> int:
    """The bot is back in a chat (``chat_id``) or a community (``community_ext``): each
    table closed there while the bot could not write (R8.2a: removed; its players were
    told in private) has its table message, which the group still sees open with the
    buttons of its last hand, written as closed, no buttons: one edit
    (:func:`~bot.service.runtime.waiting_for_chat`). Its final snapshot is first saved as
    owed now, so a restart before the edit makes it (:func:`~bot.service.recovery.start`);
    then it is sent and forgotten (a restart between the two edits it again, the same
    text). A failure is logged; the next start tries again. Its store calls wait
    :attr:`Runtime.storage_wait` at most: a silent database held the bot's return for good,
    the close its removal queued (:func:`chat_back`) not cancelled. ``writable(community_ext,
    chat_id)``: only the chats it allows (the bot back in them, found at a start). Returns
    how many tables were owed.

    A table recorded as told while the read was under way (:attr:`Runtime.told_meanwhile`)
    that the read found whole is read again, once, by a call of its own for its chat, with
    the same ``writable``: ``read_after``, the tables whose record that read began after
    (their snapshot read then is the one to go by: it was re-read while another read kept
    them in :attr:`~Runtime.told_meanwhile`, again and again until that read ended)."""
    owed = 0
    again: dict[str, set[int]] = {}
    with rt.reading_owed():  # (rt.owes below: the read may be from before a forget)
        try:
            with answer_within(rt.storage_wait):
                closed = await rt.store.closed_snapshots()
        except StorageError as exc:
            log.warning("the tables closed while the bot was out not read: %r", exc)
            return 0
        for record, snap in closed:
            if snap.get("platform") != platform:
                continue
            if chat_id is not None and record.chat_id != chat_id:
                continue
            if community_ext is not None and snap.get("community_ext") != community_ext:
                continue
            if writable is not None and not writable(
                str(snap.get("community_ext")), record.chat_id
            ):
                continue
            if (
                record.id in rt.told_meanwhile
                and record.id not in read_after
                and not waits_for_chat(snap)
            ):  # (read whole, recorded since: read again)
                again.setdefault(record.chat_id, set()).add(record.id)
                continue
            if rt.recording_told(record.id):  # its record of its players told being saved:
                rt.back_while_told[record.id] = (platform, record.chat_id)  # written then
                continue
            if not waits_for_chat(snap):
                continue
            if wait_expired(snap):  # (waited too long: forgotten at the next start or sweep)
                continue
            if not rt.owes(record.id):  # (being sent here, or sent while it was read)
                continue
            data = {**snap, "chat_gone": False}
            try:
                with answer_within(rt.storage_wait):
                    await rt.store.save_owed(record.id, data)
                await recovery.deliver(rt, record, data)
            except Exception:
                log.exception("table %s: its table message not written as closed", record.id)
                continue
            log.info("table %s: closed while the bot was out, its message now says so", record.id)
            owed += 1
    for chat, tables in sorted(again.items()):
        owed += await owed_back(rt, platform, chat_id=chat, writable=writable, read_after=tables)
    return owed


async def owed_pressed(rt: Runtime, platform: str, chat_id: str, table: int) -> bool:
    """A press in chat ``chat_id`` on an old button of closed table ``table``, whose table
    message waits for the bot's return (:func:`owed_back`): the bot may be back without
    being told (its ``my_chat_member`` lost), or still out (Telegram passes a press on a
    message of a group that removed the bot), so the message is written as closed now, one
    edit (refused while the bot is out), and stays owed: the re-add writes it again, the
    same text. Whether the table had a message waiting."""
    for record, snap in await rt.store.closed_snapshots():
        if record.id != table or record.chat_id != chat_id or not waits_for_chat(snap):
            continue
        t = LiveTable.from_json(snap, rt.clock())
        p = rt.presenter(t)
        if t.platform != platform or p is None:
            return False
        for item in t.outbox:  # (one: the closing notice, :func:`waiting_for_chat`)
            if item.get("kind") == "table":  # (a private notice: sent by a start or sweep)
                await p.show_table(t.group_chat, Screen.from_json(item), t.group_ref)
        return True
    return False


async def player_unreachable(rt: Runtime, platform: str, user_id: str) -> None:
    """The platform refused a private message to ``user_id`` (they blocked the bot): at every
    table of theirs the seat is marked unreachable exactly as at deal time, so the group shows
    the link to the private chat (written through the group's sender, after what it has
    queued), and the clock plays for them (R8.5). Their hand message is forgotten (the next
    turn tries a new one, and finds out), but for a hand being posted under a pending ref
    the service committed first (:func:`~.runtime.posts_by_ref`, Discord): a try of it on its
    way may still post it (the service is told then:
    :meth:`bot.service.TableService.message_posted`), and the next write of the hand posts
    under that ref (one message) or, the DMs still closed, drops it
    (:meth:`Runtime.send_private`). Dropped here, the try's post was nobody's and the next
    write posted a second hand."""
    for t in list(rt.tables.values()):
        if t.platform != platform:
            continue
        async with t.lock:
            seat = t.seat_of(user_id)
            if seat is None or (not seat.reachable and seat.refused_for_good):
                continue
            if not seat.reachable:  # (a 400 refused it: the group names them already)
                seat.refused_for_good = True
                rt.save_soon(t)
                continue
            seat.reachable = False
            seat.refused_for_good = True
            ref = seat.private_ref
            if not (
                ref is not None and ref.startswith(PENDING_PREFIX) and posts_by_ref(rt.presenter(t))
            ):
                seat.private_ref = None  # the next turn tries a new message (and finds out)
            # the link, through the group's sender, off the lock (written under it, a group's
            # 429 held every press of the table)
            if t.hand is not None:
                rt.show_group_later(t, reach=True)
            rt.save_soon(t)
