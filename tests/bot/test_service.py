"""The table service with an in-memory store and a recording presenter (issue 4)."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest

from bot import pictures, render
from bot.model import Actor, ChatRef, LiveTable, Reply
from bot.presses import PlaceCard, decode
from bot.screens import Payload, Screen
from bot.service import TableService
from bot.texts import tr
from game.board import Box
from game.cards import DECK
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FOULED_NOTICES, FakePresenter

GROUP = ChatRef("telegram", "-100", "-100", "Friends")
ALICE = Actor("telegram", "1", "Alice", "en")
BOB = Actor("telegram", "2", "Bob", "ru")
CAROL = Actor("telegram", "3", "Carol", "en")


async def seated(service: TableService, *actors: Actor) -> LiveTable | None:
    """Open the table and have every actor join and get ready; returns the table."""
    await service.new_table(GROUP, actors[0])
    for a in actors:
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    return service.table_in(GROUP)


async def dealt_at(service: TableService, chat: ChatRef, pair: tuple[Actor, ...]) -> LiveTable:
    """The first of ``pair`` opens a table in ``chat``; all join, then all press Ready (each
    step accepted): the table, its first hand dealt."""
    assert not (await service.new_table(chat, pair[0])).alert
    for a in pair:
        assert not (await service.join(chat, a)).alert
    for a in pair:
        assert not (await service.ready(chat, a)).alert
    t = service.table_in(chat)
    assert t is not None and t.hand is not None
    return t


def buttons(screen: Screen) -> dict[str, str]:
    return {b.label: b.data for b in screen.all_buttons() if b.data}


async def press_auto_and_confirm(
    service: TableService, presenter: FakePresenter, actor: Actor
) -> None:
    screen = presenter.last_private(actor.user_id)
    arrange = next(
        b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == "a"
    )
    reply = await service.press(actor, arrange)
    assert not reply.alert, reply.text
    screen = presenter.last_private(actor.user_id)
    confirm = next(
        b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == "c"
    )
    reply = await service.press(actor, confirm)
    if reply.text in FOULED_NOTICES:  # a fouled board asks first (R2.3)
        reply = await service.press(actor, confirm)
    assert not reply.alert, reply.text


async def play_out(service: TableService, presenter: FakePresenter, actors: list[Actor]) -> None:
    by_id = {a.user_id: a for a in actors}
    t = service.table_in(GROUP)
    assert t is not None
    hand_no = t.hand_no
    while t.hand is not None and t.hand_no == hand_no:
        seat = t.hand.to_act[0]
        await press_auto_and_confirm(service, presenter, by_id[t.seats[seat].user_id])


#: The answers of a typed /leave during the player's hand, which asks first (R8.5; a
#: Chinese Poker game's, R7.7, for its target)
LEAVE_QUESTIONS = frozenset(
    tr(lang, key)
    for lang in ("en", "ru")
    for key in ("reply.leave_confirm_typed", "reply.leave_confirm_typed_safe")
) | frozenset(
    tr(lang, "reply.leave_confirm_typed_chinese", target=n)
    for lang in ("en", "ru")
    for n in range(1, 201)
)


def tour_leave_question(text: str) -> bool:
    """Whether ``text`` is the question a /leave typed at a running tournament asks first
    (R8.7: leaving knocks the player out), for some place."""
    return any(
        text in (asked, asked.replace("/leave", "/ofc leave"))
        for lang in ("en", "ru")
        for n in range(1, 10)
        for asked in [tr(lang, "tour.leave_confirm_typed", place=n)]
    )


async def leave_now(
    service: TableService, chat: ChatRef, actor: Actor, request: str | None = None
) -> Reply:
    """/leave during ``actor``'s hand, or at a running tournament, confirmed: the first asks
    (R8.5: the rest of the hand is placed for them; R8.7: leaving knocks them out; nothing
    changes yet), the second leaves; returns its answer."""
    first = await service.leave(chat, actor, request=request)
    assert first.alert and (first.text in LEAVE_QUESTIONS or tour_leave_question(first.text)), (
        first.text
    )
    again = None if request is None else f"{request}:again"
    return await service.leave(chat, actor, request=again)


async def test_r8_2_join_ready_play_a_hand_and_settle_zero_sum(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, _clock = env
    assert "open" in (await service.new_table(GROUP, ALICE)).text
    for a in (ALICE, BOB):
        reply = await service.join(GROUP, a)
        assert not reply.alert, reply.text
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None  # Bob is not ready yet
    await service.ready(GROUP, BOB)
    assert t.hand is not None and t.hand_no == 1
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand_no == 2  # next hand dealt at once (next_hand_delay=0)
    stacks = await store.stacks(t.id)
    assert sum(stacks.values()) == 400
    history = await store.hand_history(t.seats[0].player_id, 5)
    assert len(history) == 1
    kush = history[0].result["kush"]
    assert sum(kush.values()) == 0
    assert stacks[t.seats[0].player_id] == 200 + kush["0"]


async def test_group_never_shows_hidden_cards_or_discards(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    seen_group = 0
    while t.hand_no == 1:
        hand = t.hand
        assert hand is not None
        seat = hand.to_act[0]
        actor = {
            s.user_id: a
            for a in (ALICE, BOB, CAROL)
            for s in t.seats.values()
            if s.user_id == a.user_id
        }[t.seats[seat].user_id]
        await press_auto_and_confirm(service, presenter, actor)
        if t.hand_no != 1:
            break
        public = hand.view(None).public_cards()
        hidden = set()
        for s in hand.order:
            hidden |= set(hand.discards_of(s))
            if s not in hand.to_act:
                continue
        text = presenter.last_table(GROUP.chat_id).text
        for c in DECK:
            if c.face in text:
                assert c in public, f"{c} shown in group but not public"
        for d in hidden:
            assert d.face not in text
        seen_group += 1
    assert seen_group > 5


async def test_stale_forged_and_foreign_presses_change_nothing(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.seats[t.hand.to_act[0]]
    actor = ALICE if acting.user_id == "1" else BOB
    other = BOB if actor is ALICE else ALICE
    screen = presenter.last_private(actor.user_id)
    place = next(b.data for b in screen.all_buttons() if b.data and ":p:" in b.data)
    before = t.hand.dumps()
    # forged
    for data in ("garbage", "1:1.0:p:XXb", f"{t.id}:1.0:zz", "", "9" * 70):
        reply = await service.press(actor, data)
        assert reply.alert
    # foreign: the other player presses the acting player's button
    reply = await service.press(other, place)
    assert reply.alert
    # a stranger
    reply = await service.press(CAROL, place)
    assert reply.alert and "not your table" in reply.text.lower()
    assert t.hand.dumps() == before
    # legal press, then the same press again (its screen older now): refused with the
    # reason, and the screen's Confirm of before is out of date
    confirm = next(b.data for b in screen.all_buttons() if b.data and ":c" in b.data)
    assert not (await service.press(actor, place)).alert
    after = t.hand.dumps()
    reply = await service.press(actor, place)
    assert reply.alert and reply.text == "The card is already there."
    reply = await service.press(actor, confirm)
    assert reply.alert and "out of date" in reply.text
    assert t.hand.dumps() == after


async def test_r8_5_timeout_auto_places_and_r8_6_sits_out_after_the_match(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    sleeper = t.seats[t.hand.to_act[0]]
    awake = ALICE if sleeper.user_id == "2" else BOB
    # the sleeper never moves: each turn its clock runs out (120 s budget + 60 s bank, then 0)
    while t.hand is not None and t.hand_no == 1:
        hand = t.hand
        if t.seats[hand.to_act[0]] is sleeper:
            clock.now += 181
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, awake)
    history = await store.hand_history(sleeper.player_id, 1)
    res = next(r for r in history[0].result["seats"] if r["seat"] == sleeper.seat)
    assert res["timed_out"] is True
    assert sleeper.sitting_out  # R8.6: moved to sit-out after the match
    assert t.hand is None  # one player left: no next hand


async def test_r8_6_a_sitting_out_player_keeps_seat_and_stack_and_returns_with_back(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6: the player sat out after a timeout keeps the seat and the stack (nothing is
    cashed out), is not dealt in, and /back deals them into the next hand."""
    service, presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    sleeper = t.seats[t.hand.to_act[0]]
    sleeper_actor, awake = (BOB, ALICE) if sleeper.user_id == "2" else (ALICE, BOB)
    while t.hand is not None and t.hand_no == 1:
        if t.seats[t.hand.to_act[0]] is sleeper:
            clock.now += 181
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, awake)
    assert sleeper.sitting_out and t.hand is None
    stack = sleeper.stack
    assert (await store.stacks(t.id))[sleeper.player_id] == stack  # still at the table
    community = await store.community("telegram", "-100")
    player = await store.find_player(community.id, sleeper_actor.user_id)
    assert player is not None and player.balance == 800  # the buy-in is still out
    clock.now += 60
    await service.run_due()
    assert t.hand is None  # not dealt in while sitting out
    reply = await service.back(GROUP, sleeper_actor)
    assert not reply.alert, reply.text
    assert t.seat_of(sleeper_actor.user_id) is sleeper and not sleeper.sitting_out
    assert t.hand is not None and t.hand_no == 2 and sleeper.seat in t.hand.order
    assert sleeper.stack == stack
    assert await check_store(store) == []


async def test_unreachable_player_gets_a_link_and_nothing_stalls(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, _store, _clock = env
    presenter.blocked.add("2")
    t = await seated(service, ALICE, BOB)
    assert t is not None
    text = presenter.last_table(GROUP.chat_id)
    assert "Bob" in text.text and "private chat" in text.text
    assert any(b.url and "start=t" in b.url for b in text.all_buttons())
    presenter.blocked.clear()
    reply = await service.private_start(BOB, f"t{t.id}")
    assert reply.text == tr("ru", "reply.private_linked", table=t.id)
    assert "2" in presenter.privates


async def test_admin_settings_and_grant(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = env
    reply = await service.settings(GROUP, BOB, False, ["min_buy_in", "300"])
    assert "admin" in reply.text.lower() or "админ" in reply.text.lower()
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", "300"])
    assert "300" in reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.min_buy_in == 300
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", "-3"])
    assert "Cannot" in reply.text
    # buttons
    screen = (await service.settings(GROUP, ALICE, True, ["all"])).screen
    assert screen is not None
    plus = next(b.data for b in screen.all_buttons() if b.data and b.data.endswith(":mb+"))

    async def yes() -> bool:
        return True

    async def no() -> bool:
        return False

    assert (await service.press(BOB, plus, GROUP, no)).alert
    reply = await service.press(ALICE, plus, GROUP, yes)
    assert "350" in reply.text
    assert (await service.press(ALICE, plus, GROUP, yes)).alert  # stale: settings changed
    # grant
    await service.balance(GROUP, BOB)
    refused = await service.grant(GROUP, BOB, False, "@Bob", "50", "k1")
    assert refused.text == tr("ru", "reply.admins_only")
    reply = await service.grant(GROUP, ALICE, True, "@Bob", "50", "k2")
    assert "1,050" in reply.text
    reply = await service.grant(GROUP, ALICE, True, "@Bob", "50", "k2")  # same key: once
    bob = await store.find_player(community.id, "Bob")
    assert bob is not None and bob.balance == 1050
    reply = await service.grant(GROUP, ALICE, True, "@Bob", "-5000", "k3")
    assert reply.text == tr("en", "reply.grant_negative", name="Bob", balance=1050, label="kush")
    bob = await store.find_player(community.id, "Bob")
    assert bob is not None and bob.balance == 1050


async def test_restart_recovers_the_hand_and_finishes_it(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    for _ in range(3):
        seat = t.hand.to_act[0]
        await press_auto_and_confirm(
            service, presenter, ALICE if t.seats[seat].user_id == "1" else BOB
        )
    state = t.hand.to_json()
    await service.stop()
    # a new service on the same store: the hand goes on where it was
    service2 = TableService(
        store, clock=clock, rng=random.Random(9), next_hand_delay=0, timers=False
    )
    presenter2 = FakePresenter()
    service2.register(presenter2)
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None
    assert t2.hand.to_json() == state
    await play_out(service2, presenter2, [ALICE, BOB])
    stacks = await store.stacks(t2.id)
    assert sum(stacks.values()) == 400
    assert len(await store.hand_history(t2.seats[0].player_id, 5)) == 1


async def test_leave_between_hands_cashes_out(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    community = await store.community("telegram", "-100")
    alice = await store.find_player(community.id, "1")
    assert alice is not None and alice.balance == 800
    reply = await service.leave(GROUP, ALICE)
    assert "200" in reply.text
    alice = await store.find_player(community.id, "1")
    assert alice is not None and alice.balance == 1000


async def test_russian_join_and_sitout_replies_read_as_sentences(env) -> None:  # type: ignore[no-untyped-def]
    """The Russian replies to Join and /sitout are whole sentences ("Вы за местом 1" and
    "Вы пропускаете со следующей раздачи" were not Russian)."""
    service, _presenter, _store, _clock = env
    await service.new_table(GROUP, ALICE)
    reply = await service.join(GROUP, BOB)
    assert reply.text == "Вы сели на место 1. Нажмите «Готов», чтобы внести взнос."
    reply = await service.sit_out(GROUP, BOB)
    assert reply.text == "Со следующей раздачи вы пропускаете игру. /back — вернуться."


async def test_r8_5_clocks_survive_a_restart_without_counting_the_downtime(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.hand.to_act[0]
    clock.now += 50  # the player to act thinks for 50 s, then the bot restarts
    await service.stop()
    clock.now += 600  # ten minutes of downtime
    service2 = TableService(
        store, clock=clock, rng=random.Random(3), next_hand_delay=0, timers=False
    )
    service2.register(FakePresenter())
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None
    assert t2.hand.to_act == (acting,)  # the turn is still theirs
    budget, bank = t2.clocks[acting].left(clock.now)
    assert (budget, bank) == (70.0, 60.0)  # 120 - 50 left, bank untouched
    deadline = t2.clocks[acting].deadline()
    assert deadline == clock.now + 130
    cards = t2.hand.current_cards(acting)
    clock.now += 131  # then they run out of time: the move is made for them (R8.5)
    await service2.run_due()
    assert acting not in t2.hand.to_act
    assert t2.hand.board_of(acting).bottom == cards


async def test_r8_5_after_a_crash_the_clocks_stop_when_the_bot_last_marked_itself_running(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """The bot crashes (no stop, no snapshot after the deal) while the player to act has
    thought for 50 s; it had marked itself running just before. After 10 minutes down the
    clock resumes with 70 s left: the 50 s before the crash were theirs, the outage is not.
    It resumed with the whole 120 s (the outage was measured from the deal's snapshot)."""
    service, _presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.hand.to_act[0]
    await service.rt.drain()  # the deal's snapshot is written; nothing is saved after it
    clock.now += 50
    await service.mark_alive()  # (every few seconds while running)
    clock.now += 600  # the crash, then ten minutes down
    service2 = TableService(
        store, clock=clock, rng=random.Random(3), next_hand_delay=0, timers=False
    )
    service2.register(FakePresenter())
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None and t2.hand.to_act == (acting,)
    assert t2.clocks[acting].left(clock.now) == (70.0, 60.0)  # 120 − 50; bank untouched


async def test_a_hand_that_cannot_be_continued_is_cancelled_and_refunded(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    await service.stop()
    snap = t.to_json()
    snap["hand"]["actions"].append({"type": "confirm", "seat": 7})  # a log that cannot replay
    await store.save_snapshot(t.id, snap)
    service2 = TableService(store, timers=False)
    presenter2 = FakePresenter()
    service2.register(presenter2)
    await service2.start()
    assert service2.table_in(GROUP) is None
    assert await store.stacks(t.id) == {}
    community = await store.community("telegram", "-100")
    for uid in ("1", "2"):
        player = await store.find_player(community.id, uid)
        assert player is not None and player.balance == 1000  # every buy-in refunded
    assert presenter2.posts and "cancelled" in presenter2.posts[0][1]
    kinds = [e.kind.value for e in await store.ledger(community.id)]
    assert kinds.count("refund") == 2


async def test_r8_2_joining_during_a_hand_keeps_the_seat_until_ready(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert not (await service.join(GROUP, CAROL)).alert  # seated, not bought in
    await play_out(service, presenter, [ALICE, BOB])
    carol = t.seat_of("3")
    assert carol is not None and not carol.ready and carol.stack == 0
    assert not (await service.ready(GROUP, CAROL)).alert
    assert carol.ready and carol.stack == 200


async def test_admin_closes_the_table_between_hands_and_opens_another_game(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2a: an admin's close during a hand takes effect at its end, committed with its
    settlement; between hands at once. Stacks go back to balances."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None
    refused = await service.close_table(GROUP, BOB, False)
    assert refused.text == tr("ru", "reply.admins_only")
    before = presenter.last_table(GROUP.chat_id).text
    assert "closes at the end" not in before
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "reply.closes_after_hand_fl", table=t.id)
    assert t.hand is not None and service.table_in(GROUP) is t  # the hand goes on
    # the group's message, written anew, says so too (it was written anew unchanged)
    shown = presenter.last_table(GROUP.chat_id).text
    assert shown.endswith("\n\n" + tr("en", "reply.closes_after_hand_fl", table=t.id)), shown
    await play_out(service, presenter, [ALICE, BOB])
    assert service.table_in(GROUP) is None  # closed at the end of the hand, no next deal
    # where the stacks went, in the closing message itself (fixnu5: not a notice after it)
    assert presenter.last_table(GROUP.chat_id).text.startswith(
        f"Table #{t.id} is closed; stacks returned to balances: "
    )
    history = await store.export_hands(t.id)
    assert len(history) == 1
    kush = history[0]["result"]["kush"]
    community = await store.community("telegram", "-100")
    for seat, uid in ((0, "1"), (1, "2")):
        player = await store.find_player(community.id, uid)
        assert player is not None and player.balance == 1000 + int(kush[str(seat)])
    assert await store.stacks(t.id) == {}
    assert "open" in (await service.new_table(GROUP, ALICE, "ofc")).text
    new = service.table_in(GROUP)
    assert new is not None and new.options.game.value == "ofc" and new.id != t.id


async def test_r8_1_default_kush_label_reads_kush_in_russian_a_chosen_one_as_written(env) -> None:  # type: ignore[no-untyped-def]
    """The label nobody changed is the language's word for kush ("куш" in Russian, not the
    Latin "kush"); a label the admins set is shown as they wrote it, to a reader of English
    too when it is in Latin letters (one in Russian reads "kush" to them, R8.1)."""
    service, _presenter, _store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.join(GROUP, BOB)
    ru = await service.balance(GROUP, BOB)
    en = await service.balance(GROUP, ALICE)
    assert "куш" in ru.text and "kush" not in ru.text
    assert "kush" in en.text
    await service.settings(GROUP, ALICE, True, ["kush_label", "монет"])
    ru = await service.balance(GROUP, BOB)
    en = await service.balance(GROUP, ALICE)
    assert "монет" in ru.text and "куш " not in ru.text
    assert "монет" not in en.text and " kush " in en.text, en.text
    await service.settings(GROUP, ALICE, True, ["kush_label", "coins"])
    ru = await service.balance(GROUP, BOB)
    en = await service.balance(GROUP, ALICE)
    assert " coins " in ru.text and " coins " in en.text


async def test_table_commands_in_a_private_chat_say_they_work_in_a_group(env) -> None:  # type: ignore[no-untyped-def]
    """/join, /ready, /leave, /topup, /sitout, /back, /addbot, /removebot and /closetable
    sent to the bot's private chat: "this command works in a group chat" (they answered "no
    open table here, start one with /newtable", and /newtable is refused there; /closetable
    said "admins only"). Nothing is stored for the private chat."""
    service, _presenter, store, _clock = env
    private = ChatRef("telegram", "1", "1", "", private=True)
    want = tr("en", "reply.group_only")
    replies = [
        await service.join(private, ALICE),
        await service.ready(private, ALICE),
        await service.leave(private, ALICE),
        await service.top_up(private, ALICE, "100"),
        await service.sit_out(private, ALICE),
        await service.back(private, ALICE),
        await service.add_bot(private, ALICE, False, "easy"),
        await service.remove_bot(private, ALICE, False),
        await service.close_table(private, ALICE, False),
    ]
    assert [(r.text, r.alert) for r in replies] == [(want, True)] * len(replies)
    assert ("telegram", "1") not in store._community_ids  # no community for the private chat


async def test_a_start_in_a_private_chat_concerns_its_own_platform_only(env) -> None:  # type: ignore[no-untyped-def]
    """Telegram user 1 sends /start (and /start t<table>) in the private chat while Discord
    user 1, someone else, plays at a Discord table: that hand is left alone (it was sent
    anew through the Discord presenter and its DM's ref forgotten)."""
    service, _presenter, _store, _clock = env
    discord = FakePresenter(platform="discord")
    service.register(discord)
    channel = ChatRef("discord", "900", "901", "Guild")
    them = [Actor("discord", "1", "Ann", "en"), Actor("discord", "2", "Ben", "en")]
    await service.new_table(channel, them[0])
    for a in them:
        await service.join(channel, a)
        await service.ready(channel, a)
    t = service.table_in(channel)
    assert t is not None and t.hand is not None
    seat = t.seat_of("1")
    assert seat is not None and seat.private_ref is not None
    ref, sent = seat.private_ref, len(discord.privates["1"])
    for arg in ("", f"t{t.id}"):
        reply = await service.private_start(ALICE, arg)  # Telegram's user 1
        assert reply.text == tr("en", "reply.welcome")
    assert seat.private_ref == ref and len(discord.privates["1"]) == sent


async def test_hand_in_private_shows_the_table_where_it_is_your_move() -> None:
    """A player at two tables (two groups): ``/hand`` showed the lowest-numbered table's
    board whatever happened; it now shows the table where it is their move."""
    import random

    from bot.service import TableService
    from storage.memory import MemoryStore

    service = TableService(MemoryStore(), rng=random.Random(3), next_hand_delay=0, timers=False)
    presenter = FakePresenter()
    service.register(presenter)
    other = ChatRef("telegram", "-200", "-200", "Others")
    try:
        for chat, pair in ((GROUP, (ALICE, BOB)), (other, (ALICE, CAROL))):
            t = await dealt_at(service, chat, pair)
            acting = t.seats[t.owner(t.hand.to_act[0])]
            if chat is GROUP and acting.user_id == ALICE.user_id:
                await press_auto_and_confirm(service, presenter, ALICE)  # Bob's move here
            if chat is other and acting.user_id == CAROL.user_id:
                await press_auto_and_confirm(service, presenter, CAROL)  # Alice's move there
        first, second = service.table_in(GROUP), service.table_in(other)
        assert first is not None and second is not None and first.id < second.id
        assert first.hand is not None and second.hand is not None
        assert first.seats[first.owner(first.hand.to_act[0])].user_id == BOB.user_id
        assert second.seats[second.owner(second.hand.to_act[0])].user_id == ALICE.user_id
        private = ChatRef("telegram", ALICE.user_id, ALICE.user_id, "", True)
        reply = await service.hand_picture(private, ALICE)
        assert reply.picture is not None and f"#{second.id}" in reply.text, reply.text
    finally:
        await service.stop()


async def test_hand_and_start_in_private_do_not_wait_for_a_table_the_player_is_not_at() -> None:
    """``/hand`` and a bare ``/start`` in a private chat look at every table, and took each
    table's lock in turn to find the player's seat: a table busy with a long step (its
    settlement, a slow write) held up the answer of a player who does not sit there (and the
    new hand message of one who deleted theirs). Bob sits at one table; another table's lock
    is held: all three go through at once (they waited for it)."""
    service = TableService(MemoryStore(), rng=random.Random(3), next_hand_delay=0, timers=False)
    service.register(FakePresenter())
    other = ChatRef("telegram", "-200", "-200", "Others")
    dan = Actor("telegram", "4", "Dan", "en")
    try:
        first = await dealt_at(service, GROUP, (ALICE, BOB))
        second = await dealt_at(service, other, (CAROL, dan))
        assert first.id < second.id
        private = ChatRef("telegram", BOB.user_id, BOB.user_id, "", True)
        async with second.lock:  # (a long step of the other table)
            reply = await asyncio.wait_for(service.hand_picture(private, BOB), 2)
            assert reply.picture is not None and f"#{first.id}" in reply.text, reply.text
            reply = await asyncio.wait_for(service.private_start(BOB, ""), 2)
            assert reply.text == tr("ru", "reply.private_linked", table=first.id)
            # (and his hand message deleted: sent anew without waiting for the other table)
            bob = first.seat_of(BOB.user_id)
            assert bob is not None and bob.private_ref is not None
            before = bob.private_ref
            await asyncio.wait_for(service.private_deleted("telegram", BOB.user_id, before), 2)
            assert bob.private_ref != before
    finally:
        await service.stop()


async def test_hand_in_private_without_any_hand_does_not_speak_of_a_table() -> None:
    """``/hand`` in the private chat looks at every table: with no hand anywhere it said "You
    have no hand at this table now.", in a chat that is no table. It says there is no hand in
    play, in the player's language."""
    service = TableService(MemoryStore(), rng=random.Random(3), next_hand_delay=0, timers=False)
    service.register(FakePresenter())
    try:
        for actor in (ALICE, BOB):
            private = ChatRef("telegram", actor.user_id, actor.user_id, "", True)
            reply = await service.hand_picture(private, actor)
            lang = "ru" if actor.language == "ru" else "en"
            assert reply.picture is None
            assert reply.text == tr(lang, "private.no_hand"), reply.text
            assert reply.text != tr(lang, "private.none")
    finally:
        await service.stop()


async def test_two_newtable_commands_at_once_open_one_table_and_answer_both(
    tmp_path: Path,
) -> None:
    """Two ``/newtable`` in one chat at the same moment (two members, a double send): both
    found no table and asked storage for one; the second's refusal escaped as an error
    ("something went wrong", logged with a traceback). It is answered as any ``/newtable``
    where a table is open, and one table is open."""
    store = await SqliteStore.open(tmp_path / "n.sqlite3")
    service = TableService(store, rng=random.Random(5), next_hand_delay=0, timers=False)
    service.register(FakePresenter())
    try:
        replies = await asyncio.gather(
            service.new_table(GROUP, ALICE), service.new_table(GROUP, BOB)
        )
        t = service.table_in(GROUP)
        assert t is not None
        assert replies[0].text == tr("en", "reply.table_opened", table=t.id)
        assert replies[1].alert
        assert replies[1].text.startswith(tr("ru", "reply.table_exists", table=t.id))
        assert len(service.tables) == 1
    finally:
        await service.stop()
        await store.close()


async def test_a_running_service_marks_itself_alive_until_it_stops() -> None:
    """With real timers the service marks itself running at start and every
    ``ALIVE_SECONDS`` (R8.5 after a crash); stopping ends the marks."""
    store, clock = MemoryStore(), Clock()
    service = TableService(store, clock=clock, timers=True)
    service.register(FakePresenter())
    await service.start()
    deadline = asyncio.get_running_loop().time() + 30  # (a loaded machine: seconds)
    while await store.last_alive() is None and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    assert await store.last_alive() == clock.now
    await service.stop()
    clock.now += 60
    await asyncio.sleep(0.05)
    assert await store.last_alive() == clock.now - 60  # no mark after the stop


async def test_a_table_created_but_never_saved_closes_quietly_at_restart(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A crash between creating a table's record and its first snapshot: the restart closes
    it (nobody sat down, no kush to refund) without an error in the log, and the chat can
    open a table again."""
    store = MemoryStore()
    community = await store.community("telegram", "-100")
    record = await store.create_table(community.id, "-100", {}, 200)
    service, _presenter, _store, _clock = service_env(store=store)
    with caplog.at_level(logging.INFO, logger="bot"):
        await service.start()
    assert [r.levelno for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert any("never saved" in r.getMessage() for r in caplog.records)
    assert await store.open_table(community.id, "-100") is None
    assert (await store.get_table(record.id)) is not None
    assert service.table_in(GROUP) is None
    await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.id != record.id
    await service.stop()


def _title(presenter: FakePresenter, actor: Actor) -> str:
    """The first line of ``actor``'s private hand message as it stands."""
    return presenter.last_private(actor.user_id).text.splitlines()[0]


async def _box_full_text(service: TableService, presenter: FakePresenter, t: LiveTable) -> str:
    """The player to act presses Top for four cards of street 1: the fourth is refused
    (R3.5); the refusal's text. (The fourth's Top is pressed on the screen from before the
    first press: the screen the third leaves offers no Top, the box full, fixnu39.)"""
    assert t.hand is not None
    acting = t.hand.to_act[0]
    actor = next(a for a in (ALICE, BOB) if a.user_id == t.seats[t.owner(acting)].user_id)
    me = t.hand.view(acting).me
    assert me is not None
    first = presenter.last_private(actor.user_id).all_buttons()
    for n, card in enumerate(me.cards[:4]):
        top = next(
            b.data
            for b in (first if n == 3 else presenter.last_private(actor.user_id).all_buttons())
            if isinstance(p := decode(b.data), PlaceCard) and p.box is Box.TOP and p.card == card
        )
        reply = await service.press(actor, top)
        assert reply.alert is (n == 3), reply.text
    return reply.text


async def test_a_set_group_language_carries_to_the_players_private_screens() -> None:
    """``/settings language ru`` with a hand running (the group's language "auto": Alice
    reads English, Bob Russian): the group turned Russian but Alice's private hand (its
    title, "Your move", the refusals of her presses, "Hand over", /hand's caption) stayed
    English, in the next hands too. A language the group sets carries to every seated
    player's private screens at once (the messages on screen are written anew); ``en``
    likewise; ``auto`` gives each their own language back."""
    service, presenter, store, clock = service_env(next_hand_delay=5.0)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.lang == "en"
    assert _title(presenter, ALICE).startswith("🃏 Table #1 · hand 1 · street 1/5")
    assert _title(presenter, BOB).startswith("🃏 Стол #1 · раздача 1 · улица 1/5")
    group = presenter.last_table(GROUP.chat_id).text
    assert group.startswith("🃏 Pineapple OFC · table #1"), group
    reply = await service.settings(GROUP, ALICE, True, ["language", "ru"])
    assert not reply.alert, reply.text
    assert t.lang == "ru" and {s.lang for s in t.seats.values()} == {"ru"}
    # the group's table message too, at once (it waited for the next move of the hand)
    group = presenter.last_table(GROUP.chat_id).text
    assert group.startswith("🃏 Ананас (OFC) · стол #1"), group
    assert _title(presenter, ALICE).startswith("🃏 Стол #1 · раздача 1 · улица 1/5")
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None
    caption = pictures.hand_picture(t, alice)
    assert caption is not None and caption.title.startswith("Стол #1 · раздача 1")
    assert await _box_full_text(service, presenter, t) == tr("ru", "err.box_full")
    await play_out(service, presenter, [ALICE, BOB])
    over = tr("ru", "private.over", table=t.id, hand=1)
    assert presenter.last_private(ALICE.user_id).text == over
    clock.now += 5.0
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    assert _title(presenter, ALICE).startswith("🃏 Стол #1 · раздача 2")
    # back to English: Bob, who reads Russian, too, since the group says so
    assert not (await service.settings(GROUP, ALICE, True, ["language", "en"])).alert
    assert _title(presenter, ALICE).startswith("🃏 Table #1 · hand 2")
    assert _title(presenter, BOB).startswith("🃏 Table #1 · hand 2")
    assert await _box_full_text(service, presenter, t) == tr("en", "err.box_full")
    # auto: each player's own language
    assert not (await service.settings(GROUP, ALICE, True, ["language", "auto"])).alert
    assert _title(presenter, ALICE).startswith("🃏 Table #1 · hand 2")
    assert _title(presenter, BOB).startswith("🃏 Стол #1 · раздача 2")
    assert await check_store(store) == []


async def test_a_table_opened_in_russian_turns_english_in_private_too(env) -> None:  # type: ignore[no-untyped-def]
    """The reverse: the group's language set to Russian before the table opens, so Alice
    (who reads English) is seated in Russian; ``/settings language en`` left her private
    screens Russian, even in the next hand. They turn English at once and stay so; after a
    restart too (the seat's language is saved with the table)."""
    service, presenter, store, clock = env
    assert not (await service.settings(GROUP, ALICE, True, ["language", "ru"])).alert
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.lang == "ru"
    assert _title(presenter, ALICE).startswith("🃏 Стол #1 · раздача 1")
    assert not (await service.settings(GROUP, ALICE, True, ["language", "en"])).alert
    assert _title(presenter, ALICE).startswith("🃏 Table #1 · hand 1")
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is not None and t.hand_no == 2
    assert _title(presenter, ALICE).startswith("🃏 Table #1 · hand 2")
    assert _title(presenter, BOB).startswith("🃏 Table #1 · hand 2")
    assert not (await service.settings(GROUP, ALICE, True, ["language", "auto"])).alert
    assert _title(presenter, BOB).startswith("🃏 Стол #1 · раздача 2")
    service2 = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    presenter2 = FakePresenter()
    service2.register(presenter2)
    await service2.start()
    assert _title(presenter2, ALICE).startswith("🃏 Table #1 · hand 2")
    assert _title(presenter2, BOB).startswith("🃏 Стол #1 · раздача 2")
    await service2.stop()
    assert await check_store(store) == []


@pytest.mark.parametrize(
    ("delay", "said"), [(0.5, "Next hand now…"), (4.0, "Next hand in 4 seconds…")]
)
async def test_the_lobby_says_when_the_next_hand_is_dealt(delay: float, said: str) -> None:
    """The sandbox's ``--fast`` deals the next hand half a second after the showdown ("hands
    follow each other at once"), and the lobby said "Next hand in 1 second…": under a
    second it says "now"; whole seconds are counted as before."""
    from tests.bot.test_tournament_service import new_service

    service, presenter, _store, clock = new_service(next_hand_delay=delay)
    t = await seated(service, ALICE, CAROL)
    assert t is not None and t.hand is not None
    while t.hand is not None:
        acting = t.seats[t.owner(t.hand.to_act[0])]
        await press_auto_and_confirm(
            service, presenter, next(a for a in (ALICE, CAROL) if a.user_id == acting.user_id)
        )
    assert t.next_hand_at is not None and t.next_hand_at - clock.now == delay
    lobby = presenter.last_table(GROUP.chat_id).text.splitlines()
    assert lobby[-1] == said, lobby
    russian = render.lobby_screen(t, "ru", None, t.next_hand_at - 0.3).text.splitlines()
    assert russian[-1] == "Следующая раздача — сейчас…"
    later = render.lobby_screen(t, "en", None, t.next_hand_at - 1.2).text.splitlines()
    assert later[-1] == "Next hand in 2 seconds…"
