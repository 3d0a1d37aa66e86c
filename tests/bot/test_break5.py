"""The fifth break-it session: a chat that changes under a table (rate-limited, ...), through
the real python-telegram-bot and discord.py against the local fakes."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.fake_api import FakeUser, too_many
from game.strategy import complete_street
from storage.check import check_store
from tests.bot.test_telegram_chats import held_429s
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world


async def street_unsettled(w: World, user: FakeUser) -> None:
    """``user`` places this street and confirms as a person would, each press on what their
    private message shows and answered within a second, without waiting for the table's
    other messages (which a 429 may hold)."""
    t = next(iter(w.service.tables.values()))
    hand = t.hand
    assert hand is not None
    seat = t.seat_of(str(user.id))
    assert seat is not None
    moves = complete_street(
        hand.board_of(seat.seat, with_pending=True),
        hand.to_place(seat.seat),
        hand.discards_needed(seat.seat),
        options=hand.options,
    )
    wanted = [("p", c.text + b.value[0]) for c, b in moves if b is not None] + [("c", "")]
    for key in wanted:
        # what the player sees: their private message must offer the button
        await w.fake.wait_for(lambda k=key: k in w.hand_buttons(user), timeout=5)
        msg = w.private(user)
        assert msg is not None
        qid = await w.fake.press(user, user.id, msg["message_id"], w.hand_buttons(user)[key])
        answer = await w.fake.wait_for(lambda q=qid: w.fake.answer_of(q), timeout=1)
        assert not answer.params.get("show_alert"), answer.params
        await w.fake.wait_for(lambda m=msg: w.private(user) != m, timeout=5)


async def test_a_group_rate_limited_at_the_showdown_holds_no_player_s_turn(
    tmp_path: Path,
) -> None:
    """R8.5: Telegram answers the showdown's write to the group with a 429 (retry after 30 s,
    held here until the test lets it go). The next hand is dealt at once; its first player
    places street 1, and the second player's private hand must show their turn while the
    group waits: the table's messages went out through one sender, so every private message
    of the next hand waited behind the group's pause while the second player's clock ran
    (30 s of a 120 s budget, more with the picture and the next table message paused too).
    The showdown and the table message reach the group once the pause is over; the ledger
    checks."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        by_id = {str(u.id): u for u in (ALICE, BOB)}
        for _ in range(9):  # every street but the last
            assert t.hand is not None
            await w.play_street(by_id[t.seats[t.hand.to_act[0]].user_id])
        w.fake.fail_when(
            lambda c: (
                int(c.params.get("chat_id", 0)) == GROUP_ID and c.method != "answerCallbackQuery"
            ),
            *too_many(30),
        )
        assert t.hand is not None
        try:
            await street_unsettled(w, by_id[t.seats[t.hand.to_act[0]].user_id])
            await w.fake.wait_for(lambda: pauses)  # the showdown's group write: 429
            assert pauses[0] >= 30
            await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
            first = by_id[t.seats[t.hand.to_act[0]].user_id]
            second = ALICE if first is BOB else BOB
            await street_unsettled(w, first)
            # the second player sees their turn (and plays it) while the group still waits
            await street_unsettled(w, second)
            assert not gate.is_set() and t.hand_no == 2
            showdowns = [m for m in w.fake.chat_messages(GROUP_ID) if "Showdown" in m["text"]]
            assert showdowns == []  # (not yet written: the group's pause holds it)
        finally:
            gate.set()
        await w.settle()
        await w.adapter.presenter.flush()
        texts = [m["text"] for m in w.fake.chat_messages(GROUP_ID)]
        assert any(text.startswith("🏁 Showdown · table #1 · hand 1") for text in texts), texts
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 3
        assert await check_store(w.store) == []
