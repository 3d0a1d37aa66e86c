"""``/hand``: a picture of the player's own board now, in their private chat (issue 12).

Hidden information: the picture holds the player's own board only (their cards placed before
Confirm included, R3.4), and it is answered only in the private chat: asked in a group it is
refused with a hint, so a board (a Fantasyland board above all, R6.3) never reaches a group.
"""

from __future__ import annotations

from bot import pictures
from bot.model import Actor, ChatRef, Reply
from bot.service.runtime import Runtime
from bot.texts import language_of, tr

__all__ = ["hand_picture"]


async def hand_picture(rt: Runtime, chat: ChatRef, actor: Actor) -> Reply:
    """The reply to ``/hand``: the picture (drawn in the drawing process,
    :class:`bot.drawing.Drawer`) with a short caption, or a notice (asked in a group; no
    hand running). A player at several tables sees the one of the chat asked in, if they
    play there (a private answer in the table's own channel: a Discord ephemeral reply, whose
    ``chat`` keeps the channel's id), else the one where it is their move, else the first
    (lowest-numbered) with a hand running."""
    lang = language_of(actor.language)
    if not chat.private:
        return Reply(tr(lang, "reply.hand_private"))
    picture = None
    best = 0  # 1: a hand running, 2: the player's move there, 3: the table of this chat
    for t in list(rt.tables.values()):
        if t.platform != chat.platform or t.seat_of(actor.user_id) is None:
            continue  # (not their table: its lock, held by a long step, is not waited for)
        async with t.lock:
            seat = t.seat_of(actor.user_id)
            found = pictures.hand_picture(t, seat) if seat is not None else None
            moving = (
                found is not None
                and seat is not None
                and t.hand is not None
                and any(t.owner(b) == seat.seat for b in t.hand.to_act)
            )
        rank = 0 if found is None else 3 if t.chat_id == chat.chat_id else 2 if moving else 1
        if rank > best:
            picture, best = found, rank
        if best == 3:
            break
    if picture is None:  # no table's hand: this private chat is no table
        return Reply(tr(lang, "private.no_hand"))
    data = pictures.with_plain_text(picture.to_json(), lambda s: rt.plain_text(chat.platform, s))
    png = await rt.drawer.draw(pictures.draw_json, data)
    text = picture.title + ("\n" + "\n".join(picture.notes) if picture.notes else "")
    return Reply(text, picture=png)
