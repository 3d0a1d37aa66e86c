"""``/hand``: a picture of the player's own board now, in their private chat (issue 12).

Hidden information: the picture holds the player's own board only (their cards placed before
Confirm included, R3.4), and it is answered only in the private chat: asked in a group it is
refused with a hint, so a board (a Fantasyland board above all, R6.3) never reaches a group.
"""

from __future__ import annotations

import logging

from bot import pictures
from bot.model import Actor, ChatRef, LiveTable, Reply
from bot.service.runtime import Runtime
from bot.texts import language_of, tr
from storage.api import StorageError, answer_within

__all__ = ["hand_picture", "tables_elsewhere"]

log = logging.getLogger(__name__)


async def hand_picture(rt: Runtime, chat: ChatRef, actor: Actor) -> Reply:
    """The reply to ``/hand``: the picture (drawn in the drawing process,
    :class:`bot.drawing.Drawer`) with a short caption, or a notice (asked in a group; no
    hand running). A player at several tables sees the one of the chat asked in, if they
    play there (a private answer in the table's own channel: a Discord ephemeral reply, whose
    ``chat`` keeps the channel's id), else the one where it is their move, else the first
    (lowest-numbered) with a hand running. With several workers (issue 14) a private chat's
    message reaches the worker of the player's first table only: their tables served by
    other workers are seen in their last committed state (storage's snapshot). A picture
    that cannot be drawn (:meth:`bot.drawing.Drawer.draw_or_none`: it failed, or gave none
    within :data:`bot.drawing.DRAW_SECONDS`) is logged and left out: the text answers alone."""
    lang = language_of(actor.language)
    if not chat.private:
        return Reply(tr(lang, "reply.hand_private"))
    picture, table_id = None, 0
    best = 0  # 1: a hand running, 2: the player's move there, 3: the table of this chat
    for t in list(rt.tables.values()):
        if t.platform != chat.platform or t.seat_of(actor.user_id) is None:
            continue  # (not their table: its lock, held by a long step, is not waited for)
        async with t.lock:
            found, rank = _ranked(t, chat, actor)
        if rank > best:
            picture, best, table_id = found, rank, t.id
        if best == 3:
            break
    if best < 3:
        for t in await tables_elsewhere(rt, chat.platform, actor.user_id):
            found, rank = _ranked(t, chat, actor)
            if rank > best:
                picture, best, table_id = found, rank, t.id
    if picture is None:  # no table's hand: this private chat is no table
        return Reply(tr(lang, "private.no_hand"))
    data = pictures.with_plain_text(picture.to_json(), lambda s: rt.plain_text(chat.platform, s))
    text = picture.title + ("\n" + "\n".join(picture.notes) if picture.notes else "")
    png = await rt.drawer.draw_or_none(
        f"the /hand picture of table {table_id}", pictures.draw_json, data
    )
    if png is None:
        return Reply(text)  # (the text needs no picture: the table, the hand)
    return Reply(text, picture=png)


def _ranked(t: LiveTable, chat: ChatRef, actor: Actor) -> tuple[pictures.Picture | None, int]:
    """The player's picture at ``t`` (``None`` without a hand of theirs) and how well it
    answers ``/hand``: 0 no hand, 1 a hand running, 2 their move, 3 the table of this chat."""
    seat = t.seat_of(actor.user_id)
    found = pictures.hand_picture(t, seat) if seat is not None else None
    if found is None or seat is None:
        return None, 0
    if t.chat_id == chat.chat_id:
        return found, 3
    moving = t.hand is not None and any(t.owner(b) == seat.seat for b in t.hand.to_act)
    return found, 2 if moving else 1


async def tables_elsewhere(rt: Runtime, platform: str, user_id: str) -> list[LiveTable]:
    """The open tables on ``platform`` where ``user_id`` is seated that this worker does not
    serve (another worker does, issue 14), as their last committed snapshots say (to read,
    never to serve); none that storage cannot give or read, or not within
    :attr:`Runtime.storage_wait` (a player's ``/start`` or ``/hand`` waits for it)."""
    out = []
    try:
        with answer_within(rt.storage_wait):
            ids = await rt.store.seated_tables(platform, user_id)
            states = [(n, await rt.store.table_state(n)) for n in ids if n not in rt.tables]
        for table_id, state in states:
            if not state or not state[1]:
                continue
            try:
                t = LiveTable.from_json(state[1], rt.clock())
            except Exception:  # (the worker serving it judges its snapshot)
                log.warning("table %s: its snapshot does not read (a private answer)", table_id)
                continue
            if t.platform == platform:
                out.append(t)
    except StorageError as exc:
        log.warning("a player's tables served elsewhere could not be read: %r", exc)
    return out
