"""One Telegram user dealt in at two groups' tables at once, through the real adapter and the
fake Bot API: a press on either table's private hand message acts at that table only, even
when both decks dealt the same cards (break-it session "multi")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.model import LiveTable
from bot.screens import Payload
from bot.telegram.fake_api import FakeUser
from game.cards import DECK, parse_cards
from tests.bot.tg_world import GROUP_ID, World, world

ALICE = FakeUser(1, "Alice")
BOB = FakeUser(2, "Bob")
CAROL = FakeUser(3, "Carol")
SECOND = -1002  # another group, a table of its own

#: both tables deal from the same order of cards: the same card codes at both
SAME = parse_cards("Qs Qh As Ad Ac 2d 3d 4h 5h Th")
SAME_DECK = [*SAME] + [c for c in DECK if c not in set(SAME)]


def _table(w: World, chat_id: int) -> LiveTable:
    t = next(t for t in w.service.tables.values() if t.chat_id == str(chat_id))
    return t


def _message(w: World, t: LiveTable, user: FakeUser) -> dict[str, Any]:
    seat = t.seat_of(str(user.id))
    assert seat is not None and seat.private_ref is not None
    return w.fake.messages[(user.id, int(seat.private_ref))]


def _data(w: World, message: dict[str, Any], action: str, arg: str) -> str:
    for b in w.fake.buttons(message):
        p = Payload.decode(b.get("callback_data"))
        if p is not None and (p.action, p.arg) == (action, arg):
            return str(b["callback_data"])
    raise AssertionError((action, arg, [b.get("callback_data") for b in w.fake.buttons(message)]))


async def test_a_press_on_the_older_tables_hand_acts_there_only(tmp_path: Path) -> None:
    """Alice plays at #1 (with Bob) and #2 (with Carol); both decks deal the same cards, so
    her buttons differ by the table alone (``1:1.1.0:p:2db`` and ``2:1.1.0:p:2db``). "2♦ to
    the bottom" on #1's message while #2's is her newest places it at #1 only; #2's button
    pressed on #1's message (forged) is out of date, moves nothing at either table and
    leaves #1's message showing #1."""
    async with world(tmp_path, deck_source=lambda: list(SAME_DECK)) as w:
        for u in (ALICE, BOB, CAROL):
            await w.say(u, "/start", u.id)
        for chat, other in ((GROUP_ID, BOB), (SECOND, CAROL)):
            assert "#" in (await w.say(other, "/newtable", chat))["text"]
            for u in (other, ALICE):
                await w.say(u, "/join", chat)
            for u in (other, ALICE):
                await w.say(u, "/ready", chat)
        await w.settle()
        one, two = _table(w, GROUP_ID), _table(w, SECOND)
        assert one.hand is not None and two.hand is not None
        m1, m2 = _message(w, one, ALICE), _message(w, two, ALICE)
        for t, other in ((one, BOB), (two, CAROL)):
            msg = _message(w, t, other)
            await w.press(other, other.id, msg, _data(w, msg, "a", ""))
            msg = _message(w, t, other)
            await w.press(other, other.id, msg, _data(w, msg, "c", ""))
        m1, m2 = _message(w, one, ALICE), _message(w, two, ALICE)
        assert m1["message_id"] < m2["message_id"]  # #2's hand is the newest
        # the same card, 2♦, is Alice's at both tables: "2♦ to the bottom" on #1's message
        answer = await w.press(ALICE, ALICE.id, m1, _data(w, m1, "p", "2db"))
        assert not answer.get("show_alert"), answer
        a1, a2 = one.seat_of("1"), two.seat_of("1")
        assert a1 is not None and a2 is not None and one.hand is not None and two.hand is not None
        b1 = one.hand.board_of(a1.seat, with_pending=True)
        b2 = two.hand.board_of(a2.seat, with_pending=True)
        assert [c.text for c in b1.bottom] == ["2d"] and b2 == type(b2)()
        # forged: #2's button pressed on #1's message
        qid = await w.fake.press(ALICE, ALICE.id, m1["message_id"], _data(w, m2, "p", "3dm"))
        answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid))
        await w.settle()
        assert answer.params.get("show_alert") is True  # out of date: nothing moves
        assert two.hand.board_of(a2.seat, with_pending=True) == type(b2)()
        assert one.hand.board_of(a1.seat, with_pending=True) == b1
        assert "Table #1 " in w.fake.messages[(ALICE.id, m1["message_id"])]["text"]


async def test_the_bot_removed_from_one_group_leaves_the_other_table_playing(
    tmp_path: Path,
) -> None:
    """R8.2a: Alice is dealt in at #1 (with Bob) and #2 (with Carol, another group). Carol
    removes the bot from #2's group: #2 is closing (as its hand ends); Alice's hand at #1
    plays on, and a press on her #1 message still acts there. She then blocks the bot and
    unblocks it: #1's hand reaches her again."""
    async with world(tmp_path, deck_source=lambda: list(SAME_DECK)) as w:
        for u in (ALICE, BOB, CAROL):
            await w.say(u, "/start", u.id)
        for chat, other in ((GROUP_ID, BOB), (SECOND, CAROL)):
            assert "#" in (await w.say(other, "/newtable", chat))["text"]
            for u in (other, ALICE):
                await w.say(u, "/join", chat)
            for u in (other, ALICE):
                await w.say(u, "/ready", chat)
        await w.settle()
        one, two = _table(w, GROUP_ID), _table(w, SECOND)
        await w.fake.remove_bot(SECOND, CAROL)
        await w.fake.wait_for(lambda: two.closing or two.id not in w.service.tables)
        await w.settle()
        assert two.closing  # (its hand is played out first, then it closes, R8.2a)
        assert one.hand is not None and one.id in w.service.tables
        msg = _message(w, one, BOB)
        await w.press(BOB, BOB.id, msg, _data(w, msg, "a", ""))
        msg = _message(w, one, BOB)
        await w.press(BOB, BOB.id, msg, _data(w, msg, "c", ""))
        m1 = _message(w, one, ALICE)
        answer = await w.press(ALICE, ALICE.id, m1, _data(w, m1, "p", "2db"))
        assert not answer.get("show_alert"), answer
        a1 = one.seat_of("1")
        assert a1 is not None and one.hand is not None
        assert [c.text for c in one.hand.board_of(a1.seat, with_pending=True).bottom] == ["2d"]
        for blocked in (True, False):
            await w.fake.block_bot(ALICE, blocked=blocked)
            await w.fake.wait_for(lambda b=blocked: one.seat_of("1").reachable is not b)  # type: ignore[union-attr]
        await w.settle()
        assert "Table #1 " in _message(w, one, ALICE)["text"]
        assert two.closing and not one.closing
