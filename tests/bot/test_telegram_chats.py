"""Issue 15 through the real python-telegram-bot and the fake Bot API: a press is answered
before anything a 429 holds; a hand message from before a restart is out of date; a group
upgraded to a supergroup takes its table, wallets and history along; a deleted table message
is posted again; a player who blocks the bot mid-hand is shown the link and the clock plays
for them."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.model import ChatRef
from bot.screens import Payload
from bot.service.runtime import waits_for_chat
from bot.telegram.fake_api import ApiCall, FakeTelegram, FakeUser, too_many
from bot.telegram.ratelimit import AnswerFirstRateLimiter
from bot.texts import tr
from game.board import Box
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, TOKEN, World, world

NEW_GROUP = -100777  # the supergroup GROUP_ID becomes


def lobby_data(w: World, action: str) -> str:
    msg = w.table_message()
    return next(
        b["callback_data"]
        for b in w.fake.buttons(msg)
        if (p := Payload.decode(b.get("callback_data"))) is not None and p.action == action
    )


def private_send(c: ApiCall) -> bool:
    return c.method == "sendMessage" and int(c.params.get("chat_id", 0)) > 0


def index_of(w: World, call: ApiCall) -> int:
    return next(n for n, c in enumerate(w.fake.calls) if c is call)


def held_429s() -> tuple[AnswerFirstRateLimiter, asyncio.Event, list[float]]:
    """A rate limiter whose 429 pauses last until the test sets the gate; ``pauses``: the
    ``retry_after`` of each, in seconds."""
    gate = asyncio.Event()
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        await gate.wait()

    limiter = AnswerFirstRateLimiter(
        overall_max_rate=0, group_max_rate=0, max_retries=3, sleep=sleep
    )
    return limiter, gate, pauses


async def test_a_press_is_answered_before_a_send_held_by_a_429(tmp_path: Path) -> None:
    """Case 3: the deal's first private message gets a 429; the last Ready is answered at
    once, and another player's command and press are answered while the send waits."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable")
        for u in (ALICE, BOB):
            await w.press_lobby(u, "j")
        await w.press_lobby(ALICE, "r")
        w.fake.fail_when(private_send, *too_many(12))
        ready = lobby_data(w, "r")
        qid = await w.fake.press(BOB, GROUP_ID, w.table_message()["message_id"], ready)
        answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid))
        assert not answer.params.get("show_alert"), answer.params
        await w.fake.wait_for(lambda: pauses)  # the deal's private send got its 429
        assert pauses[0] >= 12
        refused = next(c for c in w.fake.calls if private_send(c))
        # meanwhile: Carol's command is answered, and so is her press
        reply = await w.say(CAROL, "/balance")
        assert "1,000" in reply["text"]
        join = lobby_data(w, "j")
        carol_q = await w.fake.press(CAROL, GROUP_ID, w.table_message()["message_id"], join)
        carol_answer = await w.fake.wait_for(lambda: w.fake.answer_of(carol_q))
        retried = [c for c in w.fake.calls if private_send(c) and c is not refused]
        assert not any(c.params["chat_id"] == refused.params["chat_id"] for c in retried)
        gate.set()
        resent = await w.fake.wait_for(
            lambda: next(
                (
                    c
                    for c in w.fake.calls
                    if private_send(c)
                    and c is not refused
                    and c.params["chat_id"] == refused.params["chat_id"]
                ),
                None,
            )
        )
        assert resent.params["text"] == refused.params["text"]
        # the order of events: answers first, the held send after
        assert index_of(w, answer) < index_of(w, resent)
        carol_reply = next(
            c
            for c in w.fake.calls
            if c.method == "sendMessage" and c.params.get("text") == reply["text"]
        )
        assert index_of(w, carol_reply) < index_of(w, resent)
        assert index_of(w, carol_answer) < index_of(w, resent)
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        await play_hand(w, [ALICE, BOB])


async def test_a_hand_message_from_before_a_restart_is_out_of_date(tmp_path: Path) -> None:
    """Case 5: after a restart the player's hand is sent anew; a press on the old message is
    out of date and changes nothing; the new one plays."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None
            user = ALICE if t.hand.to_act == (0,) else BOB
            old = w.private(user)
            assert old is not None
            old_place = next(
                b["callback_data"] for b in w.fake.buttons(old) if ":p:" in b["callback_data"]
            )
            table_id = t.id
        async with world(tmp_path, fake=fake, db=db) as w2:
            t2 = w2.service.tables[table_id]
            assert t2.hand is not None
            before = t2.hand.to_json()
            await w2.adapter.presenter.flush()
            new = w2.private(user)
            assert new is not None and new["message_id"] != old["message_id"]
            answer = await w2.press(user, user.id, old, old_place)
            assert answer["show_alert"] is True and "out of date" in answer["text"]
            assert t2.hand.to_json() == before
            await play_hand(w2, [ALICE, BOB])
            assert len(await w2.store.hand_history(t2.seats[0].player_id, 1)) == 1
    finally:
        await fake.stop()


async def test_a_group_upgraded_mid_hand_takes_its_table_and_wallets(tmp_path: Path) -> None:
    """Case 6: the API refuses the old id with ``migrate_to_chat_id`` (no service message):
    the table follows, keeps dealing in the new chat, and the wallets, the daily bonus and
    the table are found there."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await w.say(BOB, "/daily")
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
        assert t.hand is not None
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        await w.fake.wait_for(  # posted in the new chat once the move is committed
            lambda: any(w.fake.buttons(m) for m in w.fake.chat_messages(NEW_GROUP))
        )
        await w.adapter.presenter.flush()
        await play_hand(w, [ALICE, BOB])
        await w.adapter.presenter.flush()
        texts = [m["text"] for m in w.fake.chat_messages(NEW_GROUP)]
        assert any("Showdown" in text for text in texts), texts
        reply = await w.say(ALICE, "/balance", chat_id=NEW_GROUP)
        assert "800" in reply["text"] and "1000" not in reply["text"], reply["text"]
        reply = await w.say(BOB, "/daily", chat_id=NEW_GROUP)
        assert "already" in reply["text"] or "уже" in reply["text"], reply["text"]
        reply = await w.say(CAROL, "/join", chat_id=NEW_GROUP)
        assert "You sit at seat 3" in reply["text"], reply["text"]
        assert t.seat_of(str(CAROL.id)) is not None
        assert w.service.table_in(ChatRef("telegram", str(NEW_GROUP), str(NEW_GROUP))) is t


async def test_the_service_messages_of_an_upgrade_move_the_table(tmp_path: Path) -> None:
    """Case 6, the other way the bot learns it: the service messages (``migrate_to_chat_id``
    in the old chat, ``migrate_from_chat_id`` in the new); the table message is posted in the
    new chat and its buttons work there."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        t = next(iter(w.service.tables.values()))
        await w.fake.migrate_group(GROUP_ID, NEW_GROUP)
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        # the table message is posted in the new chat after the move is committed
        await w.fake.wait_for(
            lambda: any(w.fake.buttons(m) for m in w.fake.chat_messages(NEW_GROUP))
        )
        await w.adapter.presenter.flush()
        lobby = next(m for m in reversed(w.fake.chat_messages(NEW_GROUP)) if w.fake.buttons(m))
        join = next(
            b["callback_data"]
            for b in w.fake.buttons(lobby)
            if (p := Payload.decode(b.get("callback_data"))) is not None and p.action == "j"
        )
        answer = await w.press(BOB, NEW_GROUP, lobby, join)
        assert not answer.get("show_alert"), answer
        assert t.seat_of(str(BOB.id)) is not None
        reply = await w.say(ALICE, "/balance", chat_id=NEW_GROUP)
        assert "1,000" in reply["text"]


async def test_a_deleted_table_message_is_posted_again(tmp_path: Path) -> None:
    """Case 7: an admin deletes the table message mid-hand, a player deletes their hand
    message: the table message is posted again and edited from then on, the hand message is
    sent anew, and the showdown reaches the group."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.group_ref is not None
        first = ALICE if t.hand.to_act == (0,) else BOB
        other = BOB if first is ALICE else ALICE
        w.fake.delete(GROUP_ID, int(t.group_ref))
        mine = w.private(other)
        assert mine is not None
        w.fake.delete(other.id, mine["message_id"])
        await w.play_street(first)
        await w.adapter.presenter.flush()
        fresh = w.private(other)
        assert fresh is not None and fresh["message_id"] != mine["message_id"]
        await play_hand(w, [ALICE, BOB])
        await w.adapter.presenter.flush()
        texts = [m["text"] for m in w.fake.chat_messages(GROUP_ID)]
        assert any("Showdown" in text for text in texts), texts


async def test_a_player_who_blocks_the_bot_mid_hand_is_shown_the_link(tmp_path: Path) -> None:
    """Case 8: a 403 "bot was blocked by the user" on an edit of their hand: the seat is
    unreachable as at deal time, the group shows the private-chat link, the clock plays."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand.to_act == (0,)
        bob = t.seats[1]
        assert t.seats[0].user_id == str(ALICE.id) and bob.reachable
        w.fake.blocked_users.add(BOB.id)
        await w.play_street(ALICE)
        await w.fake.wait_for(lambda: not bob.reachable)

        def board() -> dict[str, Any]:
            return w.fake.messages[(GROUP_ID, int(t.group_ref or 0))]

        # the table message saying so is queued after Bob's refused send marked him: waited
        # for (a flush at once may come before it is queued, on a loaded machine)
        await w.fake.wait_for(lambda: "private chat" in board()["text"])
        assert "Bob" in board()["text"] and "private chat" in board()["text"], board()["text"]
        link = next(b["url"] for b in w.fake.buttons(board()) if b.get("url"))
        assert link == f"https://t.me/ofc_test_bot?start=t{t.id}"
        cards = t.hand.current_cards(1)
        # his budget and bank run out now: the service's clock moves on past them (with a
        # 3-second budget Alice's six presses had to fit in it too, on a loaded machine)
        real = w.service.rt.clock
        w.service.rt.clock = lambda: (
            real() + t.options.hand_seconds + t.options.time_bank_seconds + 1
        )
        async with t.lock:
            await w.service.rt.arm(t)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand.to_act == (0,))
        assert set(cards) <= set(t.hand.board_of(1).cards())  # placed for him (R8.5)


async def balances(w: World) -> dict[str, int]:
    """Balance plus stack of every member of the group (a closed table holds no stack)."""
    community = await w.store.community("telegram", str(GROUP_ID))
    return {p.name: total for p, total in await w.store.leaderboard(community.id)}


async def wallets(w: World) -> dict[str, int]:
    """Balance (without stacks) of every member of the group."""
    community = await w.store.community("telegram", str(GROUP_ID))
    out = {}
    for p, _ in await w.store.leaderboard(community.id):
        found = await w.store.find_player(community.id, p.user_id)
        assert found is not None
        out[p.name] = found.balance
    return out


async def closed_after_one_hand(w: World, first: int) -> None:
    """The group's table is closed after its one hand, which was settled once (``first``: a
    player of it): Alice's and Bob's kush all back in their balances, the ledger checks."""
    assert w.service.table_in(ChatRef("telegram", str(GROUP_ID), str(GROUP_ID))) is None
    totals = await balances(w)
    assert sum(totals.values()) == 2000 and totals != {"Alice": 1000, "Bob": 1000}, totals
    assert await wallets(w) == totals  # no kush left at the table
    assert len(await w.store.hand_history(first, 5)) == 1  # settled once
    assert await check_store(w.store) == []


async def test_a_group_that_removes_the_bot_closes_its_table_after_the_hand(
    tmp_path: Path,
) -> None:
    """Case 9 (R8.2a): an admin removes the bot from the group mid-hand (``my_chat_member``,
    status ``kicked``; every group write refused with 403 from then on). The hand in
    progress is finished in the private chats and settled, then the table closes and every
    stack goes back to its balance, as after /closetable: no more hands are dealt into a
    chat nobody can read."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        first = t.seats[0].player_id
        await w.fake.remove_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: t.closing)
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id not in w.service.tables and t.hand is None
        await closed_after_one_hand(w, first)


def last_private(w: World, user: FakeUser) -> str:
    """The text of the newest message the bot has in ``user``'s private chat."""
    text: str = w.fake.chat_messages(user.id)[-1]["text"]
    return text


@pytest.mark.parametrize(
    "when", ["mid_hand", "between_hands", "mid_hand_bob_leaving", "mid_hand_after_closetable"]
)
async def test_the_players_of_a_group_that_removes_the_bot_are_told_in_private(
    tmp_path: Path, when: str
) -> None:
    """R8.2a: the bot is removed from the group mid-hand (or between hands): the table
    closes, but nobody can read the showdown or the close in the group. Each player's hand
    message was left as it was ("Waiting for Bob…", or "Result in the group": a closing
    step's private screens went nowhere, its seats stood up by then). Now each player's hand
    message, the one chat still delivered, says that the table is closed and their kush is
    back, in their own language, with the last showdown (public once shown); Bob too when
    he typed /leave during the hand (stood up after it, in the closing step). The same when
    an admin's /closetable had queued the close before the removal (the removal changed
    nothing then, and the players were told nothing)."""
    async with world(tmp_path, next_hand_delay=60.0) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        if when == "mid_hand_after_closetable":
            reply = await w.say(ALICE, "/closetable")
            assert reply["text"] == tr("en", "reply.closes_after_hand_fl", table=t.id), reply
        if when == "between_hands":
            await play_hand(w, [ALICE, BOB])
            await w.settle()
            assert t.hand is None and t.next_hand_at is not None
        if when == "mid_hand_bob_leaving":
            reply = await w.say(BOB, "/leave")  # during the hand: it asks first (R8.5)
            assert reply["text"] == tr("ru", "reply.leave_confirm_typed"), reply["text"]
            await w.say(BOB, "/leave")
            assert t.seats[1].leaving
        await w.fake.remove_bot(GROUP_ID, by=ALICE)
        if when != "between_hands":
            await w.fake.wait_for(lambda: t.closing)
            await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        for user, lang in ((ALICE, "en"), (BOB, "ru")):
            text = last_private(w, user)
            assert text.startswith(tr(lang, "private.chat_gone", table=t.id)), text
            # the showdown in the player's own language too, not the group's (English)
            shown = tr(lang, "showdown.title", table=t.id, hand=1)
            assert (shown in text) is (when != "between_hands"), text
            assert (
                tr("en" if lang == "ru" else "ru", "showdown.title", table=t.id, hand=1) not in text
            )
        await closed_after_one_hand(w, first)


async def test_a_crash_after_the_removal_s_close_still_tells_the_players_in_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.2a through the real adapter: the bot is removed from the group mid-hand; the hand
    ends, the table closes, and the process dies right after that closing commit, before
    anything of the step is sent (the step's sending is dropped). The players' private
    notices were not kept with the closed table's final snapshot: the restarted bot sent
    only the group's messages, refused, and each hand message kept saying "Result in the
    group". Now the restart writes each notice over the player's hand message (edited in
    place: no new message), with the last showdown, in their language; a second restart
    writes nothing more."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db, next_hand_delay=60.0) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            first = t.seats[0].player_id
            rt = w.service.rt
            send = rt.send

            def dies_after_the_closing_commit(tx: Any) -> None:
                if not tx.close:
                    send(tx)

            monkeypatch.setattr(rt, "send", dies_after_the_closing_commit)
            await w.fake.remove_bot(GROUP_ID, by=ALICE)
            await w.fake.wait_for(lambda: t.closing)
            await w.adapter.presenter.flush()
            hand = {u.id: w.private(u) for u in (ALICE, BOB)}
            await play_hand(w, [ALICE, BOB])
            await w.fake.wait_for(lambda: t.id not in w.service.tables)
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            # (the last Confirm's own answer shows its presser the notice: the other's lost)
            lost = [
                user
                for user, lang in ((ALICE, "en"), (BOB, "ru"))
                if not last_private(w, user).startswith(tr(lang, "private.chat_gone", table=t.id))
            ]
            assert len(lost) == 1, lost
            await closed_after_one_hand(w, first)
            rt.closing.pop(t.id, None)  # (the process is dead: it sends nothing more)
        count = {u.id: len(fake.chat_messages(u.id)) for u in (ALICE, BOB)}
        async with world(tmp_path, fake=fake, db=db) as w2:
            await w2.adapter.presenter.flush()
            for user, lang in ((ALICE, "en"), (BOB, "ru")):
                msg = hand[user.id]
                assert msg is not None
                edited = fake.messages[(user.id, msg["message_id"])]["text"]
                assert edited.startswith(tr(lang, "private.chat_gone", table=t.id)), edited
                assert tr(lang, "showdown.title", table=t.id, hand=1) in edited, edited
                assert len(fake.chat_messages(user.id)) == count[user.id]  # (no new one)
            # (kept: the table message waits for the bot's return, to say the table closed)
            owed = await w2.store.closed_snapshots()
            assert [waits_for_chat(s) for _, s in owed] == [True]
        calls = len(fake.calls)
        async with world(tmp_path, fake=fake, db=db) as w3:
            await w3.adapter.presenter.flush()
            sent = [c for c in fake.calls[calls:] if c.method in ("sendMessage", "editMessageText")]
            assert sent == []
    finally:
        await fake.stop()


async def test_the_bot_added_back_mid_hand_cancels_the_close_its_removal_queued(
    tmp_path: Path,
) -> None:
    """The bot removed from the group mid-hand queues the table's close (R8.2a); added back
    before that hand ends, the close stood and the table closed anyway (the ``closing``
    flag is an admin's ``/closetable`` too): now the re-add cancels the close the removal
    queued, the group is told, and the next hand is dealt. Muted then let write again: the
    same."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        await w.fake.remove_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: t.closing)
        await w.settle()
        await w.fake.add_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: not t.closing)
        await w.settle()
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        assert notice == (f"The bot can write here again: table #{t.id} stays open.")
        assert w.group_texts().count(notice) == 1
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id in w.service.tables and t.hand is not None and t.hand_no == 2
        # muted, then let write again (an administrator now): the same
        await w.fake.restrict_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: t.closing)
        await w.settle()
        await w.fake.add_bot(GROUP_ID, by=ALICE, admin=True)
        await w.fake.wait_for(lambda: not t.closing)
        await w.settle()
        assert w.group_texts().count(notice) == 2
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id in w.service.tables and t.hand_no == 3
        assert await check_store(w.store) == []


async def test_the_bot_added_back_mid_hand_leaves_an_admin_s_close_alone(
    tmp_path: Path,
) -> None:
    """An admin's ``/closetable`` mid-hand stands whatever happens to the bot meanwhile: it
    removed and added back, the table still closes after the hand, and nothing says it
    stays open."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        reply = await w.say(ALICE, "/closetable")
        assert reply["text"] == tr("en", "reply.closes_after_hand_fl", table=t.id), reply
        answered: list[bool] = []  # what the service made of the re-add
        chat_back = w.service.chat_back

        async def told(platform: str, chat_id: str) -> bool:
            answered.append(await chat_back(platform, chat_id))
            return answered[-1]

        w.service.chat_back = told  # type: ignore[method-assign]
        await w.fake.remove_bot(GROUP_ID, by=ALICE)
        await w.settle()
        await w.fake.add_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: answered)
        await w.settle()
        assert answered == [False] and t.closing
        assert tr("en", "lobby.close_cancelled", table=t.id) not in w.group_texts()
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id not in w.service.tables
        await closed_after_one_hand(w, first)


async def test_a_group_that_mutes_the_bot_closes_its_table_after_the_hand(
    tmp_path: Path,
) -> None:
    """R8.2a: an admin restricts the bot so it may not send messages (``my_chat_member``,
    status ``restricted``, ``can_send_messages`` false): nobody could read the table, so
    it closes as if the bot had been removed: the hand in progress is finished in the
    private chats and settled, then the stacks go back to the balances."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        await w.fake.restrict_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: t.closing)
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id not in w.service.tables and t.hand is None
        totals = await balances(w)
        assert sum(totals.values()) == 2000 and await wallets(w) == totals
        assert await check_store(w.store) == []


async def test_a_group_that_removes_the_bot_between_hands_closes_its_table_at_once(
    tmp_path: Path,
) -> None:
    """Case 9 between hands: the table is closed at once and the buy-in of a ready player
    goes back to their balance (R8.2a)."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        await w.press_lobby(ALICE, "r")
        t = next(iter(w.service.tables.values()))
        assert t.seats[0].stack == 200
        await w.fake.remove_bot(GROUP_ID, by=BOB)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        assert await wallets(w) == {"Alice": 1000}  # the buy-in is back
        assert await check_store(w.store) == []


async def test_a_group_that_removed_the_bot_while_it_was_away_closes_its_table_after_the_hand(
    tmp_path: Path,
) -> None:
    """R8.2a: the bot was removed from the group without its ``my_chat_member`` update ever
    arriving (the bot was away longer than Telegram keeps updates): the first group write
    refused with 403 "bot was kicked" tells it. The hand in progress is finished in the
    private chats and settled, then the table closes and every stack goes back; it went on
    dealing hands into a group nobody could read, and /leave in the private chat says it works
    in the group only, so the players could not even take their stacks back."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        first = t.seats[0].player_id
        w.fake.removed_from.add(GROUP_ID)  # no my_chat_member: every group write refused
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        await w.adapter.presenter.flush()
        assert t.id not in w.service.tables and t.hand_no == 1 and t.hand is None
        await closed_after_one_hand(w, first)


async def test_a_group_that_removed_the_bot_during_a_restart_closes_its_table_after_the_hand(
    tmp_path: Path,
) -> None:
    """The same found at the restart: the restored table's first group write is refused, the
    table closes once its hand (played on in the private chats) is settled."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            table_id = next(iter(w.service.tables))
        fake.removed_from.add(GROUP_ID)  # while the bot was away, its update long gone
        async with world(tmp_path, fake=fake, db=db) as w2:
            t = w2.service.tables[table_id]
            await w2.adapter.presenter.flush()
            await w2.fake.wait_for(lambda: t.closing)
            assert t.hand is not None and t.hand_no == 1
            await play_hand(w2, [ALICE, BOB])
            await w2.settle()
            await w2.adapter.presenter.flush()
            assert table_id not in w2.service.tables
            totals = await balances(w2)
            assert sum(totals.values()) == 2000 and await wallets(w2) == totals
            assert await check_store(w2.store) == []
    finally:
        await fake.stop()


def test_which_refusals_of_a_group_write_mean_the_bot_may_not_write_there_any_more() -> None:
    """Every 403 in a group, and the 400s of a deleted group or a bot that may not send
    messages (restricted, or a read-only group where the bot is no admin: no
    ``my_chat_member`` then); not a forum topic's own refusals, a group that forbids photos,
    a deleted message or an identical edit."""
    from telegram.error import BadRequest, Forbidden, NetworkError

    from bot.telegram.adapter import _chat_gone

    gone = [
        Forbidden("Forbidden: bot was kicked from the supergroup chat"),
        Forbidden("Forbidden: bot is not a member of the group chat"),
        Forbidden("Forbidden: the group chat was deleted"),
        BadRequest("Bad Request: chat not found"),
        BadRequest("Bad Request: not enough rights to send text messages to the chat"),
        BadRequest("Bad Request: have no rights to send a message"),
    ]
    kept = [
        BadRequest("Bad Request: TOPIC_CLOSED"),
        BadRequest("Bad Request: message thread not found"),
        BadRequest("Bad Request: not enough rights to send photos to the chat"),
        BadRequest("Bad Request: message to edit not found"),
        BadRequest("Bad Request: message is not modified"),
        NetworkError("Bad Gateway"),
    ]
    assert [_chat_gone(e) for e in gone] == [True] * len(gone)
    assert [_chat_gone(e) for e in kept] == [False] * len(kept)


async def test_a_deleted_group_closes_its_table_at_once_between_hands(tmp_path: Path) -> None:
    """R8.2a between hands: the group was deleted while the bot was away; the next write of
    the table message (Bob joins) is refused with 400 "chat not found" (it was taken for a
    deleted message, posted again and refused again, and the table stayed open): the table
    closes at once and Alice's buy-in goes back to her balance."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        await w.press_lobby(ALICE, "r")
        t = next(iter(w.service.tables.values()))
        assert t.seats[0].stack == 200
        gone = {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}
        for _ in range(5):  # the edit, and any post that would follow it
            w.fake.fail_when(lambda c: int(c.params.get("chat_id", 0)) == GROUP_ID, 400, gone)
        answer = await w.press_lobby(BOB, "j")
        assert not answer.get("show_alert"), answer
        await w.adapter.presenter.flush()
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        assert await wallets(w) == {"Alice": 1000, "Bob": 1000}  # the buy-in is back
        assert await check_store(w.store) == []


async def test_a_command_deleted_before_the_answer_is_still_answered(tmp_path: Path) -> None:
    """Busy groups run bots that delete every command at once (or the sender deletes it):
    the answer, which quotes the command, must still arrive. Telegram refuses a reply to a
    message that is gone ("message to be replied not found") unless the call allows sending
    without it; the /join step was taken but its answer, and the whole of /balance, were
    lost (logged only)."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        for text, expected in (("/join", "seat 1"), ("/balance", "1,000")):
            start = len(w.fake.calls)
            mid = await w.fake.send_text(ALICE, GROUP_ID, text)
            w.fake.delete(GROUP_ID, mid)  # before the bot answers
            reply = await w.fake.wait_for(lambda m=mid, s=start: w.fake.reply_to(GROUP_ID, m, s))
            assert expected in reply["text"], reply
            sent = [
                c
                for c in w.fake.calls[start:]
                if c.method == "sendMessage" and c.params.get("text") == reply["text"]
            ]
            assert sent and sent[0].result is not None  # accepted, not refused
        t = next(iter(w.service.tables.values()))
        assert t.seat_of(str(ALICE.id)) is not None


async def test_a_group_upgraded_during_the_last_move_gets_the_showdown(tmp_path: Path) -> None:
    """The group is upgraded while the last street is being played: the first write the API
    refuses with ``migrate_to_chat_id`` is the showdown written over the table message. The
    table follows the group, and the new chat gets the showdown text before the next
    table message (it got the picture and the lobby only: the text showdown, the hand's
    record, was dropped with the refused edit)."""
    async with world(tmp_path, next_hand_delay=30) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        by_id = {str(u.id): u for u in (ALICE, BOB)}
        for street in range(10):  # five streets each; the showdown follows the tenth
            assert t.hand is not None and t.hand_no == 1
            if street == 9:
                await w.fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)
            await w.play_street(by_id[t.seats[t.hand.to_act[0]].user_id])
        await w.fake.wait_for(lambda: t.chat_id == str(NEW_GROUP))
        await w.settle()
        texts = [m["text"] for m in w.fake.chat_messages(NEW_GROUP)]
        showdown = [n for n, text in enumerate(texts) if "Showdown" in text]
        lobby = [n for n, text in enumerate(texts) if "Buy-in" in text]
        assert showdown and lobby and showdown[0] < lobby[-1], texts
        assert not any("Showdown" in m["text"] for m in w.fake.chat_messages(GROUP_ID))


OTHER_GROUP = -1002  # a second group, with a table of its own


async def test_a_deleted_hand_message_of_one_table_leaves_the_other_tables_alone(
    tmp_path: Path,
) -> None:
    """Alice plays at #1 (this group, with Bob) and at #2 (another group, with Carol); each
    hand is its own private message, with its own table's buttons. She deletes #1's: the
    next edit of it is refused ("message to edit not found") and #1's hand is sent anew;
    #2's message is left as it is (it was sent anew too, its old one left with buttons that
    answered "out of date")."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await seat_everyone(w, [BOB, ALICE])  # Bob acts first at #1
        await w.say(CAROL, "/newtable", chat_id=OTHER_GROUP)
        other = next(m for m in w.fake.chat_messages(OTHER_GROUP) if w.fake.buttons(m))
        for action in ("j", "r"):
            for user in (ALICE, CAROL):
                data = next(
                    b["callback_data"]
                    for b in w.fake.buttons(other)
                    if (p := Payload.decode(b.get("callback_data"))) and p.action == action
                )
                answer = await w.press(user, OTHER_GROUP, other, data)
                assert not answer.get("show_alert"), answer
                other = next(m for m in w.fake.chat_messages(OTHER_GROUP) if w.fake.buttons(m))
        one, two = list(w.service.tables.values())
        assert one.hand is not None and two.hand is not None
        seat_one, seat_two = one.seat_of(str(ALICE.id)), two.seat_of(str(ALICE.id))
        assert seat_one is not None and seat_two is not None
        first, second = seat_one.private_ref, seat_two.private_ref
        assert first is not None and second is not None and first != second
        for ref, table in ((first, one), (second, two)):
            msg = w.fake.messages[(ALICE.id, int(ref))]
            tables = {Payload.decode(b["callback_data"]).table for b in w.fake.buttons(msg)}  # type: ignore[union-attr]
            assert msg["text"].startswith(f"🃏 Table #{table.id} ") and tables <= {table.id}
        assert one.seats[one.hand.to_act[0]].user_id == str(BOB.id)
        w.fake.delete(ALICE.id, int(first))
        sent_before = len([c for c in w.fake.calls if private_send(c)])
        await w.play_street(BOB)  # Alice's turn at #1 begins: her hand there is written
        await w.fake.wait_for(lambda: seat_one.private_ref not in (None, first))
        await w.settle()
        assert seat_two.private_ref == second  # #2's hand message is the same one
        resent = [c for c in w.fake.calls if private_send(c)][sent_before:]
        assert len(resent) == 1, [c.params for c in resent]
        assert str(resent[0].params["text"]).startswith(f"🃏 Table #{one.id} ")


async def test_a_lost_edit_of_a_hand_message_is_made_good_by_the_next_press(
    tmp_path: Path,
) -> None:
    """Telegram answers one edit of Alice's hand message with a 500: the message keeps its
    older screen. A press on it that no longer does anything is refused (its Confirm: "out
    of date"; a card's button does what it names, tests/bot/test_fast_taps.py) and rewrites
    it to the hand as it is now, so the press after works (every press on it was out of
    date, for good: she could only wait for the clock, which sits her out). (The edit is
    not written again here, as it is after a 5xx, to show what a lost one leaves.)"""
    async with world(tmp_path) as w:
        w.adapter.presenter.edit_retries = ()
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.seats[t.hand.to_act[0]].user_id == str(ALICE.id)
        failure = (500, {"ok": False, "error_code": 500, "description": "Internal Server Error"})
        w.fake.fail_when(
            lambda c: c.method == "editMessageText" and int(c.params["chat_id"]) == ALICE.id,
            *failure,
        )
        cards = t.hand.to_place(0)
        buttons = w.hand_buttons(ALICE)
        answer = await w.press(
            ALICE, ALICE.id, w.private(ALICE) or {}, buttons[("p", cards[0].text + "b")]
        )
        assert not answer.get("show_alert")  # placed; the edit that shows it was lost
        stale = buttons[("c", "")]
        assert w.hand_buttons(ALICE)[("c", "")] == stale  # the older screen
        answer = await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, stale)
        assert answer.get("show_alert") and "out of date" in answer["text"]
        fresh = w.hand_buttons(ALICE)[("p", cards[1].text + "b")]
        assert fresh != buttons[("p", cards[1].text + "b")]  # the hand as it is now
        answer = await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, fresh)
        assert not answer.get("show_alert"), answer
        assert [c for c, _ in t.hand.pending(0)] == list(cards[:2])


async def test_a_lost_edit_of_the_table_message_is_made_good_by_the_next_press(
    tmp_path: Path,
) -> None:
    """Telegram answers the edit that shows Bob seated with a 500: the table message keeps
    its older buttons. Bob's Leave on it is refused ("out of date") and the message is
    written again at its current version, so his next press works (the lobby's buttons were
    out of date for good: only a typed command could move the table on). (His Ready on it
    would count: its meaning for him cannot have changed, tests/bot/test_busy_lobby.py.)"""
    async with world(tmp_path) as w:
        w.adapter.presenter.edit_retries = ()  # a lost edit, not written again
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        failure = (500, {"ok": False, "error_code": 500, "description": "Internal Server Error"})
        w.fake.fail_when(
            lambda c: c.method == "editMessageText" and int(c.params["chat_id"]) == GROUP_ID,
            *failure,
        )
        await w.press_lobby(BOB, "j")  # seated; the edit that shows it is lost
        t = next(iter(w.service.tables.values()))
        assert t.seat_of(str(BOB.id)) is not None
        stale = lobby_data(w, "l")
        answer = await w.press(BOB, GROUP_ID, w.table_message(), stale)
        assert answer.get("show_alert") and "устарела" in answer["text"], answer
        assert lobby_data(w, "l") != stale  # the message shows the current version
        assert not t.seat_of(str(BOB.id)).leaving  # type: ignore[union-attr]
        answer = await w.press_lobby(BOB, "r")
        assert not answer.get("show_alert"), answer
        assert t.seat_of(str(BOB.id)).ready  # type: ignore[union-attr]


async def test_a_stale_press_on_another_message_writes_nothing_to_the_group(
    tmp_path: Path,
) -> None:
    """Only the table message itself is written again after a stale press on it (a lost
    edit): older lobby buttons pressed on any other message (an older copy, scrolled back
    to) are refused and cost the group no write, however often they are pressed."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        stale = lobby_data(w, "j")
        await w.press_lobby(BOB, "j")  # a new version of the table message
        table_id = w.table_message()["message_id"]
        other = next(
            m["message_id"] for m in w.fake.chat_messages(GROUP_ID) if m["message_id"] != table_id
        )
        before = len(w.fake.calls)
        for _ in range(3):
            qid = await w.fake.press(CAROL, GROUP_ID, other, stale)
            answer = await w.fake.wait_for(lambda q=qid: w.fake.answer_of(q))
            await w.settle()
            assert answer.params.get("show_alert"), answer.params
        group_writes = [
            c for c in w.fake.calls[before:]
            if c.method != "answerCallbackQuery" and int(c.params.get("chat_id", 0)) == GROUP_ID
        ]  # fmt: skip
        assert group_writes == []
        t = next(iter(w.service.tables.values()))
        assert t.seat_of(str(CAROL.id)) is None


async def test_a_table_opened_in_a_forum_topic_writes_there(tmp_path: Path) -> None:
    """A group with topics (a forum): ``/newtable`` typed in its "Poker" topic put the table
    message, the notices and the showdown picture in the General topic, where the players
    were not. Every group message of the table now goes to the topic it was opened in, and
    a restart keeps it there (the snapshot names the topic)."""
    from bot.model import LiveTable

    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})  # their hands go to private chats
        start = len(w.fake.calls)
        reply = await w.say(ALICE, "/newtable", topic=45)
        assert "#" in reply["text"]
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "r")).get("show_alert")
        t = next(iter(w.service.tables.values()))
        assert t.topic == "45" and t.group_chat == f"{GROUP_ID}#45"
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        sent = [
            c for c in w.fake.calls[start:]
            if c.method in ("sendMessage", "sendPhoto") and int(c.params["chat_id"]) == GROUP_ID
        ]  # fmt: skip
        assert any(c.method == "sendPhoto" for c in sent)  # the showdown picture
        assert len(sent) >= 3
        for c in sent:
            mid = int(c.result["message_id"]) if c.result else None
            assert mid is not None and w.fake.topic_of(GROUP_ID, mid) == 45, c
        assert LiveTable.from_json(t.to_json(), 0.0).topic == "45"


async def test_a_table_whose_forum_topic_is_closed_or_deleted_writes_in_the_group(
    tmp_path: Path,
) -> None:
    """Admins close (or delete) the forum topic a table was opened in: Telegram refuses every
    send there (400 ``TOPIC_CLOSED`` / ``message thread not found``). The table's notices,
    showdown picture and next table message were lost for good (logged, the group saw
    nothing); they now go to the group itself (its General topic)."""
    for gone in ("closed", "deleted"):
        (tmp_path / gone).mkdir()
        async with world(tmp_path / gone) as w:
            w.fake.started_users.update({ALICE.id, BOB.id})
            await w.say(ALICE, "/newtable", topic=45)
            for u in (ALICE, BOB):
                assert not (await w.press_lobby(u, "j")).get("show_alert")
            topics = w.fake.closed_topics if gone == "closed" else w.fake.deleted_topics
            topics.add((GROUP_ID, 45))
            start = len(w.fake.calls)
            for u in (ALICE, BOB):
                assert not (await w.press_lobby(u, "r")).get("show_alert")
            await play_hand(w, [ALICE, BOB])
            await w.settle()
            sent = [
                c for c in w.fake.calls[start:]
                if c.method in ("sendMessage", "sendPhoto")
                and int(c.params["chat_id"]) == GROUP_ID and c.result
            ]  # fmt: skip
            assert any(c.method == "sendPhoto" for c in sent), gone  # the showdown picture
            assert any(c.method == "sendMessage" for c in sent), gone
            for c in sent:
                assert w.fake.topic_of(GROUP_ID, int(c.result["message_id"])) is None


async def test_a_forum_topic_closed_then_reopened_takes_the_table_out_and_back(
    tmp_path: Path,
) -> None:
    """Admins close the table's forum topic, then reopen it (Telegram's service messages
    ``forum_topic_closed`` / ``forum_topic_reopened`` in it). Closed: every message goes to
    the group at once, without a send refused first. Reopened: the table's messages went on
    to the group until a restart; they now go back to the topic."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable", topic=45)
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        await w.fake.set_topic(GROUP_ID, 45, closed=True)
        start = len(w.fake.calls)
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "r")).get("show_alert")
        await play_hand(w, [ALICE, BOB])
        await w.settle()

        def group_sends(since: int) -> list[ApiCall]:
            return [
                c for c in w.fake.calls[since:]
                if c.method in ("sendMessage", "sendPhoto") and int(c.params["chat_id"]) == GROUP_ID
            ]  # fmt: skip

        closed = group_sends(start)
        assert any(c.method == "sendPhoto" for c in closed)  # the showdown picture
        assert all(c.result and "message_thread_id" not in c.params for c in closed), closed
        await w.fake.set_topic(GROUP_ID, 45, closed=False)
        start = len(w.fake.calls)
        await play_hand(w, [ALICE, BOB])  # the next hand follows on its own
        await w.settle()
        reopened = [c for c in group_sends(start) if c.method == "sendPhoto"]
        assert reopened, "no showdown picture after the topic was reopened"
        for c in reopened:
            assert c.result and w.fake.topic_of(GROUP_ID, int(c.result["message_id"])) == 45


def test_only_a_forum_topic_other_than_general_is_a_table_s_topic() -> None:
    """The thread a group message names is a table's forum topic only for a topic message
    outside General: Telegram gives a reply in a group without topics (or in a forum's
    General topic) the thread of its first message, without ``is_topic_message``, and the
    General topic's id, 1, is refused in a send ("message thread not found")."""
    from datetime import UTC, datetime

    from telegram import Chat, Message

    from bot.telegram.adapter import _chat

    group = Chat(GROUP_ID, "supergroup", title="Friends", is_forum=True)
    when = datetime(2026, 1, 1, tzinfo=UTC)

    def where(thread: int | None, topic_message: bool | None) -> str | None:
        msg = Message(
            7, when, group, text="/newtable", message_thread_id=thread,
            is_topic_message=topic_message,
        )  # fmt: skip
        return _chat(group, msg).topic

    assert where(45, True) == "45"
    assert where(None, None) is None
    assert where(6, None) is None  # a reply: the thread of the message replied to
    assert where(1, True) is None  # General
    assert _chat(group).topic is None


async def test_a_deleted_table_message_in_a_forum_topic_is_posted_again_there(
    tmp_path: Path,
) -> None:
    """The table message of a table opened in a forum topic, deleted mid-hand, is posted
    again in that topic (not in General) and edited there from then on."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable", topic=45)
        for action in ("j", "r"):
            for u in (ALICE, BOB):
                assert not (await w.press_lobby(u, action)).get("show_alert")
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.group_ref is not None
        old = int(t.group_ref)
        w.fake.delete(GROUP_ID, old)
        start = len(w.fake.calls)
        await w.play_street(ALICE if t.hand.to_act == (0,) else BOB)
        await w.adapter.presenter.flush()
        again = [
            c for c in w.fake.calls[start:]
            if c.method == "sendMessage" and int(c.params["chat_id"]) == GROUP_ID and c.result
        ]  # fmt: skip
        assert again, "the table message was not posted again"
        for c in again:
            assert w.fake.topic_of(GROUP_ID, int(c.result["message_id"])) == 45


async def test_a_second_table_asked_for_in_another_topic_links_the_open_one(
    tmp_path: Path,
) -> None:
    """A forum group has one table, opened in topic 45: ``/newtable`` typed in topic 46 was
    refused with "this chat already has an open table (#1)", and the players of topic 46
    could not see where. The refusal now links the table message, in its topic."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable", topic=45)
        table = w.table_message()
        reply = await w.say(BOB, "/newtable", topic=46)
        assert reply["text"].endswith(f"\nhttps://t.me/c/1/45/{table['message_id']}"), reply
        assert tr("ru", "reply.table_exists", table=1) in reply["text"]


async def test_a_member_removed_from_the_group_leaves_the_table_with_the_stack(
    tmp_path: Path,
) -> None:
    """A member removed from the group (a ``left_chat_member`` service message) can no
    longer press the table's buttons nor type /leave there, yet the seat stayed, the hands
    went on in the private chat and the stack stayed at the table as long as the others
    played. The member now leaves as /leave would (R8.2): between hands at once, during a
    hand after it (the moves made for them), the stack back to the balance."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await w.say(ALICE, "/newtable")
        for u in (ALICE, BOB, CAROL):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        assert not (await w.press_lobby(CAROL, "r")).get("show_alert")
        t = next(iter(w.service.tables.values()))
        community = await w.store.community("telegram", str(GROUP_ID))
        carol = await w.store.find_player(community.id, str(CAROL.id))
        assert carol is not None and carol.balance == 800
        await w.fake.remove_member(GROUP_ID, CAROL)  # she leaves the group, between hands
        await w.fake.wait_for(lambda: (t.seat_of(str(CAROL.id)) is None) or None)
        await w.settle()
        carol = await w.store.get_player(carol.id)
        assert carol is not None and carol.balance == 1000
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "r")).get("show_alert")
        assert t.hand is not None and t.hand_no == 1
        bob = t.seat_of(str(BOB.id))
        assert bob is not None
        await w.fake.remove_member(GROUP_ID, BOB, by=ALICE)  # an admin removes him mid-hand
        await w.fake.wait_for(lambda: bob.leaving or None)
        await w.settle()  # the group's notice and Alice's turn written
        await play_hand(w, [ALICE])
        await w.settle()
        assert t.seat_of(str(BOB.id)) is None
        player = await w.store.find_player(community.id, str(BOB.id))
        assert player is not None and player.id not in await w.store.stacks(t.id)
        [h] = await w.store.hand_history(player.id, 1)
        assert player.balance == 1000 + int(h.result["kush"][str(bob.seat)])


async def test_a_start_whose_hand_message_waits_on_a_429_holds_no_press(tmp_path: Path) -> None:
    """Mid-hand Bob types /start in his private chat: his hand is posted there anew, and that
    send gets a 429 (12 s). Meanwhile Alice, whose turn it is, places a card: her press is
    answered and applied while Bob's send waits (the repost was written holding the table,
    so her press waited out Bob's 429 unanswered); Bob's hand goes out after the pause."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand.to_act == (0,)
        assert t.seats[0].user_id == str(ALICE.id)
        w.fake.fail_when(
            lambda c: private_send(c) and int(c.params["chat_id"]) == BOB.id, *too_many(12)
        )
        start = len(w.fake.calls)

        def bobs_hands() -> list[ApiCall]:
            return [
                c
                for c in w.fake.calls[start:]
                if private_send(c)
                and int(c.params["chat_id"]) == BOB.id
                and str(c.params.get("text", "")).startswith("🃏")
            ]

        try:
            await w.fake.send_text(BOB, BOB.id, "/start")
            await w.fake.wait_for(lambda: pauses)  # Bob's new hand message got its 429
            card = t.hand.to_place(0)[0]
            data = w.hand_buttons(ALICE)[("p", card.text + "b")]
            mine = w.private(ALICE)
            assert mine is not None
            qid = await w.fake.press(ALICE, ALICE.id, mine["message_id"], data)
            answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid))
            assert not answer.params.get("show_alert"), answer.params
            assert dict(t.hand.pending(0)) == {card: Box.BOTTOM}
        finally:
            gate.set()
        refused, resent = await w.fake.wait_for(
            lambda: h[:2] if len(h := bobs_hands()) > 1 else None
        )
        assert resent.params["text"] == refused.params["text"]
        assert index_of(w, answer) < index_of(w, resent)  # Alice first, Bob's after the pause
        await w.settle()
        await play_hand(w, [ALICE, BOB])
        assert await check_store(w.store) == []


async def test_a_member_who_leaves_the_group_is_announced_to_it(tmp_path: Path) -> None:
    """A seated member who leaves the group stood up silently: the others saw a name gone
    from the table message and nothing else. The group is now told in a short notice of its
    own (EN/RU, names only, no card): between hands they leave the table, during a hand
    after it (R8.2/R8.5)."""
    async with world(tmp_path) as w:
        leaks = w.watch_leaks()
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await w.say(ALICE, "/newtable")
        for u in (ALICE, BOB, CAROL):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        assert not (await w.press_lobby(CAROL, "r")).get("show_alert")
        t = next(iter(w.service.tables.values()))
        await w.fake.remove_member(GROUP_ID, CAROL)
        await w.fake.wait_for(lambda: (t.seat_of(str(CAROL.id)) is None) or None)
        await w.settle()
        now = tr("en", "notice.left_group", name="Carol")
        assert now == "👋 Carol left the group and the table."
        assert w.group_texts().count(now) == 1, w.group_texts()[-3:]
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "r")).get("show_alert")
        assert t.hand is not None
        bob = t.seat_of(str(BOB.id))
        assert bob is not None
        await w.fake.remove_member(GROUP_ID, BOB, by=ALICE)  # removed mid-hand
        await w.fake.wait_for(lambda: bob.leaving or None)
        await w.settle()
        later = tr(t.lang, "notice.left_group_later", name="Bob")
        assert later in w.group_texts(), w.group_texts()[-3:]
        assert leaks == []


async def test_a_registered_tournament_player_who_leaves_the_group_is_unregistered(
    tmp_path: Path,
) -> None:
    """A member registered for a tournament that has not started leaves the group: their
    registration stayed, the buy-in in the pool and their seat counted towards the start.
    They are unregistered as /leave would (R8.7: the buy-in back) and the group is told."""
    from tests.bot.test_tournament_e2e import actions_of, balance, tournament_message

    async with world(tmp_path) as w:
        await w.say(ALICE, "/tournament pineapple")
        for user in (ALICE, BOB):
            data = actions_of(w.fake, tournament_message(w))["g"]
            assert not (await w.press(user, GROUP_ID, tournament_message(w), data)).get(
                "show_alert"
            )
        assert await balance(w, BOB) == 900
        t = next(iter(w.service.tables.values()))
        assert t.tournament is not None
        await w.fake.remove_member(GROUP_ID, BOB)
        await w.fake.wait_for(lambda: (t.seat_of(str(BOB.id)) is None) or None)
        await w.settle()
        assert await balance(w, BOB) == 1000
        assert len(t.tournament.players) == 1
        notice = tr("en", "notice.left_group_unregistered", name="Bob")
        assert notice == "👋 Bob left the group: their registration is withdrawn."
        assert notice in w.group_texts()
        assert await check_store(w.store) == []


async def test_the_table_message_from_before_a_restart_works_while_it_shows_the_table(
    tmp_path: Path,
) -> None:
    """After a restart the table message is posted anew, and every button of the old one
    answered "This button is out of date", though the old message showed the table exactly
    as it was restored. Its buttons now work as long as the table is in the state it shows:
    Bob joins from it; once that press moved the table on, the old message is out of date
    (and so is one that showed an even older state from the start)."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.say(ALICE, "/newtable")
            older = w.table_message()
            older_join = lobby_data(w, "j")
            assert not (await w.press_lobby(ALICE, "j")).get("show_alert")
            await w.settle()
            old = w.table_message()
            join, ready = lobby_data(w, "j"), lobby_data(w, "r")
            table_id = next(iter(w.service.tables))
        async with world(tmp_path, fake=fake, db=db) as w2:
            t = w2.service.tables[table_id]
            await w2.settle()
            new = w2.table_message()
            assert new["message_id"] != old["message_id"]
            answer = await w2.press(BOB, GROUP_ID, older, older_join)  # an older state's
            assert answer["show_alert"] is True and "out of date" in answer["text"]
            assert t.seat_of(str(BOB.id)) is None
            answer = await w2.press(BOB, GROUP_ID, old, join)
            assert not answer.get("show_alert"), answer
            assert [s.name for s in t.seats.values()] == ["Alice", "Bob"]
            await w2.settle()
            answer = await w2.press(ALICE, GROUP_ID, old, ready)  # the table moved on
            assert answer["show_alert"] is True and "out of date" in answer["text"]
            assert not t.seats[0].ready
            assert not (await w2.press_lobby(ALICE, "r")).get("show_alert")
            assert t.seats[0].ready
    finally:
        await fake.stop()


async def test_a_tournament_player_who_leaves_the_group_is_knocked_out(tmp_path: Path) -> None:
    """R8.7: a player of a running tournament who leaves the group is knocked out at that
    moment, as /leave there would (placed as such, their chips out of play), the moves of
    the hand in progress made for them; the group reads the knock-out and no hidden card."""
    from tests.bot.test_tournament_e2e import open_and_register, watch_leaks

    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        leaks = watch_leaks(w)
        t = await open_and_register(w)
        assert t.tournament is not None and t.hand is not None
        carol = t.seat_of(str(CAROL.id))
        assert carol is not None
        await w.fake.remove_member(GROUP_ID, CAROL)
        await w.fake.wait_for(lambda: (carol.seat not in t.tournament.chips) or None)
        await w.settle()
        out = tr("en", "tour.knocked_out", name="Carol", place=3, prize=0, label="kush")
        assert out == "❌ Carol is out: place 3, prize 0 kush."
        assert out in w.group_texts()
        assert sorted(t.tournament.chips) == sorted(s for s in t.seats if s != carol.seat)
        assert leaks == []
