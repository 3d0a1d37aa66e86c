"""A question asked by a press's popup that Telegram refused to show (brktg): a Confirm that
leaves the board fouled asks first (R2.3, "press Confirm again"), as an alert, the answer to
the press. Telegram refuses a late answer (400 "query is too old") and one may be lost in
the network: the player then saw nothing, pressed Confirm again (their first press seemed to
do nothing), and that second press confirmed the fouled board, the question never read (so
with Leave pressed in the group during one's hand). A popup refused so is now written as a
message in the presser's private chat; the second press still confirms (the question was
shown)."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_brktg_chats import TOO_OLD
from tests.bot.test_telegram_e2e import (
    ALICE_PLAN,
    ALICE_STREETS,
    BOB_FOUL_PLAN,
    BOB_STREETS,
    decks,
    seat_everyone,
    stacked,
)
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


async def test_r2_3_a_fouled_confirm_s_question_refused_as_a_popup_is_written_in_private(
    tmp_path: Path,
) -> None:
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        plans = {ALICE.id: ALICE_PLAN, BOB.id: BOB_FOUL_PLAN}
        for _ in range(9):  # every street but Bob's last
            assert t.hand is not None
            user = ALICE if t.hand.to_act == (0,) else BOB
            await w.play_street(user, plans[user.id])
        hand = t.hand
        assert hand is not None and hand.to_act == (1,)
        for card in hand.to_place(1):
            box = BOB_FOUL_PLAN[card.text]
            if box is not None:
                data = w.hand_buttons(BOB)[("p", card.text + box[0])]
                await w.press(BOB, BOB.id, w.private(BOB) or {}, data)
        question = tr("ru", "err.confirm_fouled")
        w.fake.outage(lambda c: c.method == "answerCallbackQuery", 400, TOO_OLD)
        start = len(w.fake.calls)
        confirm = w.hand_buttons(BOB)[("c", "")]
        answer = await w.press(BOB, BOB.id, w.private(BOB) or {}, confirm)
        assert answer.get("text") == question  # (refused)
        assert hand.result is None and hand.to_act == (1,)
        await w.fake.wait_for(
            lambda: (
                [
                    c.params["text"]
                    for c in w.fake.calls[start:]
                    if c.method == "sendMessage" and int(c.params["chat_id"]) == BOB.id
                ]
                == [question]
            ),
            timeout=5,
        )
        assert not any(  # (the question is the presser's alone)
            c.method == "sendMessage" and int(c.params["chat_id"]) == GROUP_ID
            for c in w.fake.calls[start:]
        )
        w.fake.recover()
        answer = await w.press(BOB, BOB.id, w.private(BOB) or {}, confirm)
        assert not answer.get("show_alert"), answer
        assert hand.result is not None and hand.result.seat(1).fouled
        await w.settle()
        assert await check_store(w.store) == []


async def test_a_plain_answer_refused_is_not_written_as_a_message(tmp_path: Path) -> None:
    """Only a popup (an alert) is written so: a press's plain answer (a toast, or none) that
    Telegram refuses is left (the screen shows what the press did)."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        first = ALICE if t.hand.to_act == (0,) else BOB
        w.fake.outage(lambda c: c.method == "answerCallbackQuery", 400, TOO_OLD)
        start = len(w.fake.calls)
        card = t.hand.to_place(t.hand.to_act[0])[0]
        data = w.hand_buttons(first)[("p", card.text + "b")]
        await w.press(first, first.id, w.private(first) or {}, data)
        assert not any(c.method == "sendMessage" for c in w.fake.calls[start:])


async def test_a_group_press_s_question_refused_as_a_popup_is_written_in_private(
    tmp_path: Path,
) -> None:
    """Leave pressed in the group during the presser's hand asks first (its remaining cards
    are placed for them and may foul): refused as a popup, the question is written in the
    presser's private chat, never in the group; the second press leaves."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        w.fake.outage(lambda c: c.method == "answerCallbackQuery", 400, TOO_OLD)
        start = len(w.fake.calls)
        answer = await w.press_lobby(ALICE, "l")
        question = tr("en", "reply.leave_confirm")
        assert answer.get("text") == question and answer.get("show_alert")  # (refused)
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and not seat.leaving
        await w.fake.wait_for(
            lambda: any(
                c.method == "sendMessage" and int(c.params["chat_id"]) == ALICE.id
                for c in w.fake.calls[start:]
            ),
            timeout=5,
        )
        sent = [
            c.params["text"]
            for c in w.fake.calls[start:]
            if c.method == "sendMessage" and int(c.params["chat_id"]) in (ALICE.id, GROUP_ID)
        ]
        assert sent == [question], sent
        w.fake.recover()
        answer = await w.press_lobby(ALICE, "l")
        assert seat.leaving, answer
        assert await check_store(w.store) == []
