"""Break-it session brk29: the last session's changes through the real client libraries
against the local fakes (Telegram 429s, resets, moved chats, overdue timer steps)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from bot.telegram.fake_api import ApiCall, too_many
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_break5 import street_unsettled
from tests.bot.test_brk27_platform_errors import dealt_with_alice_s_hand_reset
from tests.bot.test_service import ALICE as SALICE
from tests.bot.test_service import GROUP
from tests.bot.test_telegram_chats import held_429s
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


def group_edit(c: ApiCall) -> bool:
    return c.method == "editMessageText" and int(c.params.get("chat_id", 0)) == GROUP_ID


async def test_an_edit_sitting_out_a_group_429_is_not_sent_into_it_as_the_bot_stops(
    tmp_path: Path,
) -> None:
    """Telegram answers the table message's edit mid-hand with a 429 of a minute (held here
    past the stop). An admin presses a settings button meanwhile: answered at once, the
    settings message's edit waits out the group's pause. The bot stops before the pause is
    over: that edit was sent into the pause all the same (the stop ended its wait and it
    went on to the request, which the stopping rate limiter no longer holds), a request
    Telegram refuses again in a flood wait. It is not tried now, as the table message's
    edit is not."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        reply = await w.say(ALICE, "/settings all")
        settings = next(m for m in w.fake.chat_messages(GROUP_ID) if m["text"] == reply["text"])
        data = next(
            b["callback_data"]
            for b in w.fake.buttons(settings)
            if b.get("text") == "Game ⟳" and b.get("callback_data")
        )
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        w.fake.fail_when(group_edit, *too_many(60))
        mover = t.seats[t.hand.to_act[0]].user_id
        await street_unsettled(w, ALICE if mover == str(ALICE.id) else BOB)
        await w.fake.wait_for(lambda: pauses)  # (the table message's edit: 429)
        qid = await w.fake.press(ALICE, GROUP_ID, settings["message_id"], data)
        answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid), timeout=1)
        assert answer.params["text"].startswith("Saved: game = ofc (was pineapple)."), answer.params
        await asyncio.sleep(0.2)
        start = len(w.fake.calls)
        assert [c for c in w.fake.calls if group_edit(c)][-1].params["message_id"] != settings[
            "message_id"
        ]  # (waiting: not sent yet)
    assert not gate.is_set()
    sent = [c.params["message_id"] for c in w.fake.calls[start:] if group_edit(c)]
    assert sent == []


async def test_a_change_that_undoes_another_admin_s_saved_meanwhile_says_saved(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """Two admins at once on two workers (issue 14): Bob sets min_buy_in to 300 on another
    worker while Alice's /settings min_buy_in 200 is being handled, after it read the
    settings (200 then, the default) and before its change is saved. Her change is made on
    the settings as stored (300) and saves 200, but she was answered "Already so: min_buy_in
    = 200", read against the settings before Bob's change: she believed nothing had
    changed, and Bob's 300 was undone unsaid. She is told "Saved" now."""
    service, _presenter, store, _clock = env
    community = await store.community("telegram", GROUP.chat_id, "Friends")
    assert community.settings.min_buy_in == 200
    change_settings = store.change_settings

    async def bob_first(community_id, change):  # type: ignore[no-untyped-def]
        # (Bob's change, saved by another worker: its own lock, the same storage)
        store.change_settings = change_settings  # (once)
        await change_settings(community_id, lambda s: replace(s, min_buy_in=300))
        return await change_settings(community_id, change)

    store.change_settings = bob_first
    reply = await service.settings(GROUP, SALICE, True, ["min_buy_in", "200"])
    assert (await store.community("telegram", GROUP.chat_id, "Friends")).settings.min_buy_in == 200
    assert reply.text.startswith(
        tr("en", "reply.settings_saved", what="min_buy_in = 200 (was 300)")
    ), reply.text


async def test_a_reset_hand_sent_anew_by_start_is_not_posted_again_at_the_ping(
    tmp_path: Path,
) -> None:
    """R8.5: the connection of Alice's hand message at the deal is reset before Telegram took
    it (perhaps posted: not sent again at once). She acts first and types /start in private
    before her turn ping's time: the service sends her hand anew and holds that message. At
    the ping's time the hand perhaps posted was posted all the same, a second hand message
    with buttons the service does not know (every press on it "out of date"). She has one
    hand message now, plays her street on it, the hand ends and the ledger checks."""
    async with world(tmp_path) as w:
        t = await dealt_with_alice_s_hand_reset(w, done=False)
        w.adapter.presenter.turn_ping_seconds = 1.0
        await w.fake.send_text(ALICE, ALICE.id, "/start")
        hands = lambda: [m for m in w.fake.chat_messages(ALICE.id) if w.fake.buttons(m)]  # noqa: E731
        await w.fake.wait_for(hands, timeout=5)
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None
        await asyncio.sleep(1.5)  # (past the ping's time)
        await w.settle()
        assert [m["message_id"] for m in hands()] == [int(seat.private_ref or 0)]
        await w.play_street(ALICE)
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        shown = [m["message_id"] for m in w.fake.chat_messages(ALICE.id) if "🃏" in m["text"]]
        assert shown == [int(seat.private_ref or 0)]  # (edited in place, the one hand message)
        assert await check_store(w.store) == []
