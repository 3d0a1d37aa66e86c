"""The fifth break-it session: a chat that changes under a table (rate-limited, ...), through
the real python-telegram-bot and discord.py against the local fakes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.screens import Payload, Screen
from bot.telegram.fake_api import FakeUser, too_many
from game.strategy import complete_street
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.discord import dc_world as dc
from tests.bot.fakes import FOULED_NOTICES
from tests.bot.test_service import ALICE as S_ALICE
from tests.bot.test_service import BOB as S_BOB
from tests.bot.test_service import CAROL as S_CAROL
from tests.bot.test_service import GROUP as S_GROUP
from tests.bot.test_service import press_auto_and_confirm, seated
from tests.bot.test_telegram_chats import held_429s
from tests.bot.test_telegram_e2e import play_hand, seat_everyone, to_the_last_street
from tests.bot.test_transitions import KillableStore, new_service
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world
from tests.fakes.discord_api import CHANNEL_ID


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
        if answer.params.get("text") in FOULED_NOTICES:  # a fouled board asks first (R2.3)
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
        t = await to_the_last_street(w, [ALICE, BOB])
        by_id = {str(u.id): u for u in (ALICE, BOB)}
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


async def test_discord_a_deleted_table_message_is_posted_again_once(tmp_path: Path) -> None:
    """A moderator deletes the Discord table message in the lobby. Bob joins: the edit that
    shows him is refused (404, 10008) and the table message is posted again, a post Discord
    is slow to take; Carol joins meanwhile. Her edit was queued for the deleted message, so
    once the post was through it was refused too and the table message was posted a second
    time: two table messages in the channel, the first with out-of-date buttons. Now edits
    queued meanwhile go to the message posted again, and the channel has one."""
    async with dc.world(tmp_path) as w:
        await w.slash(dc.ALICE, "new")
        await w.press_lobby(dc.ALICE, "j")
        old = int(w.table_message()["id"])
        w.fake.deleted.add(old)
        gate = asyncio.Event()
        posts: list[int] = []
        create = w.fake._create_message

        async def slow_post(call: Any, channel: str) -> dict[str, Any]:
            if int(channel) == CHANNEL_ID:
                posts.append(1)
                await gate.wait()
            return await create(call, channel)

        w.fake._create_message = slow_post  # type: ignore[method-assign]
        bob = await w.fake.slash(dc.BOB, "join")
        await w.fake.wait_for(lambda: bob.answered and posts)
        carol = await w.fake.slash(dc.CAROL, "join")
        await w.fake.wait_for(lambda: carol.answered)
        await asyncio.sleep(0.2)  # her edit is queued for the deleted message
        gate.set()
        await w.settle(carol)
        await w.settle(bob)
        tables = [
            m
            for m in w.fake.channel_messages(CHANNEL_ID)
            if int(m["id"]) not in w.fake.deleted
            and any(
                dc.action_of(c) in ("j", "l") for c in dc.components(m)
            )  # (Join or Leave: full, no Join)
        ]
        assert len(tables) == 1, [m["id"] for m in tables]
        assert "Carol" in tables[0]["content"] and "Bob" in tables[0]["content"]


async def test_a_player_who_unblocks_the_bot_mid_hand_gets_the_hand_and_the_link_goes(
    tmp_path: Path,
) -> None:
    """Bob blocks the bot mid-hand (a 403 on his hand's edit): the group's table message
    names him with the link to the private chat, and never a card of his. He unblocks it
    (Telegram sends a bare /start): his hand is posted anew in the private chat, and the
    table message no longer asks him to open it (it did until the next step of the hand:
    only /start t<table>, the link's, wrote it again)."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.seats[0].user_id == str(ALICE.id)
        bob = t.seats[1]
        w.fake.blocked_users.add(BOB.id)
        await w.play_street(ALICE)
        await w.fake.wait_for(lambda: not bob.reachable)
        await w.settle()
        await w.fake.wait_for(lambda: "private chat" in w.table_message()["text"])
        w.fake.blocked_users.discard(BOB.id)
        await w.say(BOB, "/start", chat_id=BOB.id)
        await w.settle()
        await w.fake.wait_for(lambda: bob.reachable and w.private(BOB) is not None)
        await w.fake.wait_for(lambda: "private chat" not in w.table_message()["text"])
        assert "Bob" not in w.table_message()["text"].split("\n")[-1]
        await play_hand(w, [ALICE, BOB])
        assert leaks == []
        assert await check_store(w.store) == []


async def test_waiting_for_a_tables_messages_can_be_cancelled() -> None:
    """``Runtime.settled`` (a reply that waits for the step's messages) waits for every chain
    of the table's senders, but a caller cancelled meanwhile (a client gone, the bot
    stopping) stops waiting: the cancellation is not swallowed by the wait, which then
    waited again for a write the platform holds (the senders themselves go on)."""
    service, _presenter = new_service(KillableStore(), Clock())
    assert (await service.new_table(S_GROUP, S_ALICE)).text
    t = service.table_in(S_GROUP)
    assert t is not None
    await service.rt.settled(t)
    gate = asyncio.Event()
    written: list[str] = []

    async def held() -> None:  # a write the platform makes wait
        await gate.wait()
        written.append("group")

    service.rt.send_later(t, held)
    service.rt.send_later(t, held, chain="42")
    waiter = asyncio.create_task(service.rt.settled(t))
    await asyncio.sleep(0.05)
    assert not waiter.done()
    waiter.cancel()
    done, _ = await asyncio.wait([waiter], timeout=2)
    assert done == {waiter} and waiter.cancelled()
    assert written == []
    gate.set()
    await asyncio.wait_for(service.rt.settled(t), 2)  # the writes themselves went on
    assert written == ["group", "group"]


async def test_a_private_message_held_by_the_platform_never_reaches_the_seats_next_player() -> None:
    """Hidden cards (R3.3): each player's private messages go out in their own chain. One the
    platform holds (a 429 on Alice's chat) while Alice leaves between hands and Carol takes
    her seat was written, when let go, to whoever sat there then: Carol got Alice's last
    hand screen. It is written only while the seat is the one it was committed for."""
    service, presenter = new_service(KillableStore(), Clock(), delay=30)
    t = await seated(service, S_ALICE, S_BOB)
    assert t is not None and t.hand is not None
    alice = t.seat_of(S_ALICE.user_id)
    assert alice is not None
    number = alice.seat
    gate = asyncio.Event()

    async def held() -> None:  # the platform makes Alice's private chat wait
        await gate.wait()

    async def until(ok: Callable[[], bool]) -> None:
        for _ in range(200):
            if ok():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("not reached")

    for _ in range(4):
        await press_auto_and_confirm(service, presenter, S_ALICE)
        await press_auto_and_confirm(service, presenter, S_BOB)
    await press_auto_and_confirm(service, presenter, S_ALICE)
    arrange = next(
        b.data
        for b in presenter.last_private(S_BOB.user_id).all_buttons()
        if b.data and Payload.decode(b.data).action == "a"
    )
    assert not (await service.press(S_BOB, arrange)).alert
    confirm = next(
        b.data
        for b in presenter.last_private(S_BOB.user_id).all_buttons()
        if b.data and Payload.decode(b.data).action == "c"
    )
    shown = len(presenter.privates[S_ALICE.user_id])
    service.rt.send_later(t, held, chain=S_ALICE.user_id)
    # (each reply waits for the step's messages, Alice's held ones too: tasks)
    tasks: list[asyncio.Task[Any]] = [asyncio.create_task(service.press(S_BOB, confirm))]
    await until(lambda: t.hand is None and t.reveal is None)  # the showdown: between hands
    assert len(presenter.privates[S_ALICE.user_id]) == shown  # her last screens are held
    tasks.append(asyncio.create_task(service.leave(S_GROUP, S_ALICE)))
    await until(lambda: t.seat_of(S_ALICE.user_id) is None)
    tasks.append(asyncio.create_task(service.join(S_GROUP, S_CAROL)))
    await until(lambda: t.seat_of(S_CAROL.user_id) is not None)
    carol = t.seat_of(S_CAROL.user_id)
    assert carol is not None and carol.seat == number
    gate.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    await asyncio.wait_for(service.rt.settled(t), 2)
    assert S_CAROL.user_id not in presenter.privates


async def test_a_player_found_unreachable_while_the_group_is_rate_limited_holds_no_press() -> None:
    """Every press is answered within a second (R8.5: the clock runs): a platform that
    refuses a private message (Bob blocked the bot) marks his seat unreachable and the table
    message gets the link to the private chat; that write waited for the group's 429 under
    the table's lock, so every press of the table (Alice's here) waited for the group too.
    It goes through the group's sender now, off the lock, and comes once the group may be
    written again."""
    service, presenter = new_service(KillableStore(), Clock())
    t = await seated(service, S_ALICE, S_BOB)
    assert t is not None and t.hand is not None
    await service.rt.settled(t)
    gate = asyncio.Event()
    shown = presenter.show_table

    async def rate_limited(chat_id: str, screen: Screen, ref: str | None) -> str | None:
        await gate.wait()  # the group's 429: retry after a while
        return await shown(chat_id, screen, ref)

    presenter.show_table = rate_limited  # type: ignore[method-assign]
    writes = presenter.writes
    unreachable = asyncio.create_task(service.player_unreachable("telegram", S_BOB.user_id))
    await asyncio.sleep(0.05)
    bob = t.seat_of(S_BOB.user_id)
    assert bob is not None and not bob.reachable
    # Alice's press is answered at once (its own reply; its table edit waits behind the 429)
    arrange = next(
        b.data
        for b in presenter.last_private(S_ALICE.user_id).all_buttons()
        if b.data and Payload.decode(b.data).action == "a"  # type: ignore[union-attr]
    )
    answered: list[Any] = []

    async def answer(reply: Any) -> None:
        answered.append(reply)

    press = asyncio.create_task(service.press(S_ALICE, arrange, answer=answer))
    for _ in range(100):
        if answered:
            break
        await asyncio.sleep(0.01)
    assert answered and not answered[0].alert, answered
    assert presenter.writes == writes  # the group is still rate-limited
    gate.set()
    await asyncio.wait_for(asyncio.gather(unreachable, press), 5)
    await asyncio.wait_for(service.rt.settled(t), 5)
    link = "https://t.me/ofc_test_bot?start=t1"
    assert any(b.url == link for b in presenter.last_table(S_GROUP.chat_id).all_buttons())
