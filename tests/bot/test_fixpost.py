"""Fix session fixpost: a new message Telegram refuses with a 429 is posted once the pause is
over, with its newest screen (not sent again as it was, then edited), through the real
python-telegram-bot against the local fake; an /addbot whose overdue step closed the table
seats nobody."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from bot.telegram.fake_api import ApiCall, too_many
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.test_break5 import street_unsettled
from tests.bot.test_service import ALICE as S_ALICE
from tests.bot.test_service import GROUP as S_GROUP
from tests.bot.test_telegram_chats import held_429s
from tests.bot.test_telegram_e2e import play_hand, seat_everyone, to_the_last_street
from tests.bot.test_transitions import KillableStore, new_service
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


def to_group(c: ApiCall) -> bool:
    return c.method != "answerCallbackQuery" and int(c.params.get("chat_id", 0)) == GROUP_ID


def table_post(c: ApiCall) -> bool:
    """The post of a hand's table message in the group."""
    return (
        c.method == "sendMessage"
        and int(c.params.get("chat_id", 0)) == GROUP_ID
        and str(c.params.get("text", "")).startswith("🃏")
    )


async def test_a_table_message_refused_with_429_is_posted_once_with_its_newest_screen(
    tmp_path: Path,
) -> None:
    """R8.5: the showdown of hand 1 is written over the table message and hand 2's table
    message is posted anew; Telegram refuses that post with a 429 (retry after 30 s, held
    here until the test lets it go). Meanwhile hand 2's first player plays street 1 in the
    private chat (each press answered within a second), so the table message changes. Once
    the pause is over the group gets one request, the post with the table as it is then:
    the rate limiter sent the refused post again with the screen of before (the first
    player's turn) and the newest screen followed as an edit, two group writes at the end
    of a flood wait where one does. The hand goes on on that message; the ledger checks."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        t = await to_the_last_street(w, [ALICE, BOB])
        by_id = {str(u.id): u for u in (ALICE, BOB)}
        await w.settle()
        before = len(w.fake.calls)
        w.fake.fail_when(table_post, *too_many(30))
        try:
            assert t.hand is not None
            await street_unsettled(w, by_id[t.seats[t.hand.to_act[0]].user_id])
            await w.fake.wait_for(lambda: pauses)  # (hand 2's table message: 429)
            assert pauses[0] >= 30
            await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
            first = by_id[t.seats[t.hand.to_act[0]].user_id]
            await street_unsettled(w, first)
            # the table's messages queued so far (not their writes: the pause holds those)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(w.service.rt.settled(t), 3)
            assert t.hand is not None and t.seats[t.hand.to_act[0]].user_id != str(first.id)
            refused = [c for c in w.fake.calls[before:] if table_post(c)]
            assert len(refused) == 1 and refused[0].result is None
            assert f"▶ {first.first_name} to act" in refused[0].params["text"]
            start = len(w.fake.calls)
        finally:
            gate.set()
        await w.settle()
        await w.adapter.presenter.flush()
        after = [c for c in w.fake.calls[start:] if to_group(c)]
        assert [c.method for c in after] == ["sendMessage"]
        posted = w.fake.messages[(GROUP_ID, int(after[0].result["message_id"]))]  # type: ignore[index]
        second = ALICE if first is BOB else BOB
        assert f"▶ {second.first_name} to act" in posted["text"]
        assert posted["text"] == after[0].params["text"]
        assert t.group_ref == str(posted["message_id"])
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 3
        assert await check_store(w.store) == []


def private_to(user_id: int) -> Callable[[ApiCall], bool]:
    def match(c: ApiCall) -> bool:
        return c.method != "answerCallbackQuery" and int(c.params.get("chat_id", 0)) == user_id

    return match


async def test_a_hand_message_refused_with_429_is_posted_once_with_its_newest_screen(
    tmp_path: Path,
) -> None:
    """Mid-hand Bob types /start in his private chat: his hand is posted there anew and
    Telegram refuses that post with a 429 (12 s, held here). Meanwhile Alice plays her
    street, so Bob's hand turns to his turn (its buttons). Once the pause is over Bob's
    chat gets one request, the post of his hand as it is then, with his buttons: the rate
    limiter sent the refused post again (Alice's turn, no buttons), then an edit followed.
    /start's answer ("your cards are above") comes after it, not before (it no longer
    waits for the post in the service, so it waits for it here). Bob plays on that message;
    the hand ends and the ledger checks."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand.to_act == (0,)
        assert t.seats[0].user_id == str(ALICE.id)
        to_bob = private_to(BOB.id)
        w.fake.fail_when(lambda c: to_bob(c) and c.method == "sendMessage", *too_many(12))
        before = len(w.fake.calls)
        try:
            await w.fake.send_text(BOB, BOB.id, "/start")
            await w.fake.wait_for(lambda: pauses)  # (Bob's new hand message: 429)
            assert pauses[0] >= 12
            await street_unsettled(w, ALICE)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(w.service.rt.settled(t), 3)
            assert t.hand is not None and t.hand.to_act == (1,)
            refused = [c for c in w.fake.calls[before:] if to_bob(c)]
            assert [(c.method, c.result) for c in refused] == [("sendMessage", None)]
            assert "reply_markup" not in refused[0].params  # (Alice's turn then)
            start = len(w.fake.calls)
        finally:
            gate.set()
        await w.settle()
        # (/start's answer "your cards are above" comes after the hand it points to)
        linked = tr("ru", "reply.private_linked", table=t.id)
        await w.fake.wait_for(
            lambda: [c for c in w.fake.calls[start:] if to_bob(c) and c.params["text"] == linked]
        )
        after = [c for c in w.fake.calls[start:] if to_bob(c)]
        assert [c.method for c in after] == ["sendMessage", "sendMessage"]
        assert after[1].params["text"] == linked
        posted = w.private(BOB)
        assert posted is not None and posted["message_id"] == after[0].result["message_id"]  # type: ignore[index]
        assert posted["text"] == after[0].params["text"] != refused[0].params["text"]
        assert "reply_markup" in after[0].params and w.hand_buttons(BOB)  # (his turn)
        assert t.seats[1].private_ref == str(posted["message_id"])
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        assert await check_store(w.store) == []


async def test_r8_2a_an_addbot_whose_overdue_step_closed_the_table_is_told_so() -> None:
    """R8.2a: the lobby has had no hand for longer than ``idle_close_seconds`` and its timer
    has not fired; the opener types /addbot. The idle close made first is refused by
    storage once (the command goes on, the table open), and /addbot's own overdue step
    (:meth:`Runtime.overdue_first`) then closes the table: /addbot went on at the closed
    table as if it were open. It is answered that the table is closed; nobody is seated,
    the house funds nobody, and the ledger checks."""
    store, clock = KillableStore(), Clock()
    service, _presenter = new_service(store, clock)
    await service.new_table(S_GROUP, S_ALICE)
    t = service.table_in(S_GROUP)
    assert t is not None
    clock.now += t.options.idle_close_seconds + 1
    store.fail_next = 1  # (the idle close made before the command: refused once)
    reply = await service.add_bot(S_GROUP, S_ALICE, True, "easy")
    assert reply.alert and reply.text == tr("en", "reply.table_closed", table=t.id)
    assert service.table_in(S_GROUP) is None
    assert not any(s.bot for s in t.seats.values())
    assert await store.find_player(t.community_id, "bot:anna") is None  # no house kush
    assert await check_store(store) == []


async def test_a_table_message_sitting_out_a_group_429_does_not_hold_the_stop(
    tmp_path: Path,
) -> None:
    """Hand 2's table message is refused with a 429 of a minute (a flood wait), and Bob's
    /balance in the group (its answer waits behind that post, keeping its place) comes
    meanwhile: the bot's stop waits out neither (the answer is tried once as it stops, as
    any reply), and the table message is not posted into the pause (the restart posts the
    table's messages anew)."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        t = await to_the_last_street(w, [ALICE, BOB])
        by_id = {str(u.id): u for u in (ALICE, BOB)}
        await w.settle()
        before = len(w.fake.calls)
        w.fake.fail_when(table_post, *too_many(60))
        assert t.hand is not None
        await street_unsettled(w, by_id[t.seats[t.hand.to_act[0]].user_id])
        await w.fake.wait_for(lambda: [c for c in w.fake.calls[before:] if table_post(c)])
        await w.fake.send_text(BOB, GROUP_ID, "/balance")
        await asyncio.sleep(0.3)
        start = len(w.fake.calls)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 5  # (the service's and the adapter's stop)
    assert [c for c in w.fake.calls[start:] if table_post(c)] == []
    assert len([c for c in w.fake.calls[before:] if table_post(c)]) == 1
