"""End to end through the real python-telegram-bot against the local fake Bot API (issue 4).

Users type commands and press the inline buttons the bot actually sent (read back from the
fake's stored messages). A listener checks every group write as it happens: it may show only
cards that are public at that moment (R3.3, R6.3)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.model import LiveTable
from bot.screens import Payload, Screen
from bot.telegram.fake_api import FakeTelegram, FakeUser
from game.cards import DECK, Card, parse_cards, shuffled_deck
from game.strategy import complete_street
from tests.bot.fakes import FOULED_NOTICES
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, TOKEN, World, world

ALICE_STREETS = ["Qs Qh As Ad Ac", "Ks Kh 2c", "Kd 9s 3c", "9h 7h 4d", "5c 6d 8s"]
BOB_STREETS = ["2d 3d 4h 5h Th", "Jc Jd 6c", "7c 7d 8c", "Tc Td 8d", "2h 3h 4c"]
ALICE_PLAN: dict[str, str | None] = {
    "Qs": "top", "Qh": "top", "As": "bottom", "Ad": "bottom", "Ac": "bottom",
    "Ks": "middle", "Kh": "middle", "2c": None, "Kd": "middle", "9s": "bottom", "3c": None,
    "9h": "bottom", "7h": "middle", "4d": None, "5c": "top", "6d": "middle", "8s": None,
}  # fmt: skip
BOB_FOUL_PLAN: dict[str, str | None] = {
    "2d": "middle", "3d": "middle", "4h": "bottom", "5h": "bottom", "Th": "bottom",
    "Jc": "top", "Jd": "top", "6c": None, "7c": "middle", "7d": "bottom", "8c": None,
    "Tc": "middle", "Td": "bottom", "8d": None, "2h": "top", "3h": "middle", "4c": None,
}  # fmt: skip


def stacked(streets_a: list[str], streets_b: list[str]) -> list[Card]:
    head: list[Card] = []
    for a, b in zip(streets_a, streets_b, strict=True):
        head += parse_cards(a) + parse_cards(b)
    return head + [c for c in DECK if c not in set(head)]


def decks(first: list[Card], seed: int = 3):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    queue = [first]

    def source() -> list[Card]:
        return queue.pop(0) if queue else shuffled_deck(rng=rng)

    return source


async def seat_everyone(w: World, users: list) -> None:  # type: ignore[type-arg]
    reply = await w.say(users[0], "/newtable")
    assert "#" in reply["text"]
    for u in users:
        answer = await w.press_lobby(u, "j")
        assert not answer.get("show_alert"), answer
    for u in users:
        answer = await w.press_lobby(u, "r")
        assert not answer.get("show_alert"), answer


async def to_the_last_street(w: World, users: list) -> LiveTable:  # type: ignore[type-arg]
    """Seat ``users`` (two) and play the first hand's streets but the last (9 of the 2 × 5
    of Pineapple): the table, its last street to come."""
    await seat_everyone(w, users)
    t = next(iter(w.service.tables.values()))
    by_id = {str(u.id): u for u in users}
    for _ in range(9):
        assert t.hand is not None
        await w.play_street(by_id[t.seats[t.hand.to_act[0]].user_id])
    return t


async def play_hand(w: World, users: list, plans: dict | None = None) -> None:  # type: ignore[type-arg]
    t = next(iter(w.service.tables.values()))
    by_id = {str(u.id): u for u in users}
    number = t.hand_no
    while t.hand is not None and t.hand_no == number:
        seat = t.hand.to_act[0]
        user = by_id[t.seats[seat].user_id]
        await w.play_street(user, (plans or {}).get(user.id))


async def test_foul_fantasyland_and_balances_two_players(tmp_path: Path) -> None:
    """R5.4 foul, R6.1 entry, R6.3 the Fantasyland hand hidden until showdown, R8.4 kush."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand.to_act == (0,)
        await play_hand(w, [ALICE, BOB], {ALICE.id: ALICE_PLAN, BOB.id: BOB_FOUL_PLAN})
        await w.adapter.presenter.flush()
        showdown = next(
            m["text"]
            for m in w.fake.chat_messages(GROUP_ID)
            if "Showdown" in m["text"] or "Вскрытие" in m["text"]
        )
        assert "foul" in showdown and "Fantasyland next (14 cards)" in showdown
        stacks = await w.store.stacks(t.id)
        alice, bob = t.seats[0], t.seats[1]
        assert (
            stacks[alice.player_id] == 200 + 6 + 15
        )  # scoop 6 + royalties QQ 7, trips 2, full house 6
        assert stacks[bob.player_id] == 200 - 21
        # hand 2: Alice's Fantasyland (all-but-one: both play at once, both hidden)
        assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
        fl_cards = set(t.hand.current_cards(0))
        assert len(fl_cards) == 14
        rows = [
            b
            for b in w.fake.buttons(w.private(ALICE) or {})
            if Payload.decode(b["callback_data"]).action in "pd"
        ]  # type: ignore[union-attr]
        assert len({Payload.decode(b["callback_data"]).arg[:2] for b in rows}) == 14  # type: ignore[union-attr]
        buttons = w.hand_buttons(ALICE)
        await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, buttons[("a", "")])
        await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, w.hand_buttons(ALICE)[("c", "")])
        await w.adapter.presenter.flush()
        while t.hand is not None and t.hand_no == 2:
            await w.play_street(BOB)
        await w.adapter.presenter.flush()
        hand2_boards = [
            text for text in w.group_texts() if "· hand 2" in text and "Showdown" not in text
        ]
        assert hand2_boards
        for text in hand2_boards:
            for c in fl_cards:
                assert c.face not in text
        history = await w.store.hand_history(alice.player_id, 5)
        assert [h.number for h in history] == [2, 1]
        total = sum((await w.store.stacks(t.id)).values())
        assert total == 400
        assert leaks == []


async def test_three_players_complete_hand_no_leaks(tmp_path: Path) -> None:
    async with world(tmp_path, rng_seed=11) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB, CAROL])
        t = next(iter(w.service.tables.values()))
        await play_hand(w, [ALICE, BOB, CAROL])
        await w.adapter.presenter.flush()
        history = await w.store.hand_history(t.seats[0].player_id, 1)
        kush = history[0].result["kush"]
        points = {str(r["seat"]): r["points"] for r in history[0].result["seats"]}
        stacks = await w.store.stacks(t.id)
        assert sum(stacks.values()) == 600
        for s in t.seats.values():
            assert stacks[s.player_id] == 200 + kush[str(s.seat)]
            if all(abs(p) < 200 for p in points.values()):
                assert kush[str(s.seat)] == points[str(s.seat)]
        discards = set()
        for r in history[0].hand["actions"]:
            if r["type"] == "discard":
                discards.add(r["card"])
        assert len(discards) == 12
        hand1 = [text for text in w.group_texts() if "hand 1\n" in text or text.endswith("hand 1")]
        assert any("Showdown" in text for text in hand1)
        for text in hand1:
            for d in parse_cards(" ".join(discards)):
                assert d.face not in text
        assert leaks == []


async def test_player_who_never_started_the_bot_gets_a_link_and_play_goes_on(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.add(ALICE.id)  # Bob never pressed Start
        await seat_everyone(w, [ALICE, BOB])
        # the press is answered first; the table message follows from the table's sender
        await w.fake.wait_for(lambda: "private chat" in w.table_message()["text"])
        await w.adapter.presenter.flush()
        t = next(iter(w.service.tables.values()))
        board = w.table_message()
        assert "Bob" in board["text"] and "private chat" in board["text"]
        link = next(b["url"] for b in w.fake.buttons(board) if b.get("url"))
        assert link == f"https://t.me/ofc_test_bot?start=t{t.id}"
        assert w.private(BOB) is None
        # Bob follows the link: /start t<id> in the private chat
        reply = await w.say(BOB, f"/start t{t.id}", chat_id=BOB.id)
        assert "#" in reply["text"]
        assert w.private(BOB) is not None
        await play_hand(w, [ALICE, BOB])
        assert len(await w.store.hand_history(t.seats[1].player_id, 1)) == 1


async def test_stale_and_forged_buttons_change_nothing(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        old_private = w.private(ALICE) or {}
        old_place = next(
            b["callback_data"] for b in w.fake.buttons(old_private) if ":p:" in b["callback_data"]
        )
        await w.play_street(ALICE)
        before = t.hand.dumps()
        answer = await w.press(ALICE, ALICE.id, old_private, old_place)
        assert answer["show_alert"] is True and "out of date" in answer["text"]
        # Bob presses Alice's (current) button: not his hand
        w.fake.messages[(BOB.id, 999999)] = dict(
            old_private, message_id=999999, chat={"id": BOB.id, "type": "private"}
        )
        answer = await w.press(BOB, BOB.id, w.fake.messages[(BOB.id, 999999)], old_place)
        assert answer["show_alert"] is True
        # forged data on a real message
        forged = dict(
            old_private,
            reply_markup={"inline_keyboard": [[{"text": "x", "callback_data": "1:1.1:p:ZZz"}]]},
        )
        w.fake.messages[(ALICE.id, old_private["message_id"])] = forged
        answer = await w.press(ALICE, ALICE.id, forged, "1:1.1:p:ZZz")
        assert answer["show_alert"] is True
        assert t.hand.dumps() == before


@pytest.mark.usefixtures("short_hand_seconds")  # (a budget below the minimum)
async def test_timeout_makes_the_move_with_auto_placement(tmp_path: Path) -> None:
    """R8.5 with a 1-second budget and no bank: the sleeper's street is placed for them."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.admins[GROUP_ID] = {ALICE.id}
        for name, value in (("hand_seconds", "1"), ("time_bank_seconds", "0")):
            reply = await w.say(ALICE, f"/settings {name} {value}")
            assert reply["text"].startswith(("Saved: ", "Already so: "))
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        hand = t.hand
        assert hand is not None
        # nothing is read of the hand before its timeout: a loaded machine may be past its
        # second when the seating's last answer comes (Alice's cards: the stacked deck's)
        await w.fake.wait_for(lambda: hand.board_of(0).count >= 5)
        # R8.5: bottom first, in the order received
        assert hand.board_of(0).bottom == tuple(parse_cards(ALICE_STREETS[0]))
        # the step's group message goes out after its commit, which a loaded machine may not
        # have reached when the board is already placed: waited for, not flushed at once
        await w.fake.wait_for(lambda: any("auto" in text for text in w.group_texts()))


async def test_admin_and_non_admin_settings(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        reply = await w.say(BOB, "/settings min_buy_in 500")
        assert "админ" in reply["text"]
        reply = await w.say(ALICE, "/settings all")
        assert "Buy-in (min_buy_in): 200" in reply["text"]
        settings_msg = next(
            m for m in reversed(w.fake.chat_messages(GROUP_ID)) if "min_buy_in" in m["text"]
        )
        plus = next(
            b["callback_data"]
            for b in w.fake.buttons(settings_msg)
            if b["callback_data"].endswith(":mb+")
        )
        answer = await w.press(BOB, GROUP_ID, settings_msg, plus)
        assert answer["show_alert"] is True
        community = await w.store.community("telegram", str(GROUP_ID))
        assert community.settings.min_buy_in == 200
        answer = await w.press(ALICE, GROUP_ID, settings_msg, plus)
        assert "250" in answer["text"]
        community = await w.store.community("telegram", str(GROUP_ID))
        assert community.settings.min_buy_in == 250
        edited = w.fake.messages[(GROUP_ID, settings_msg["message_id"])]
        assert "Buy-in (min_buy_in): 250" in edited["text"]
        # grant: admin only, by reply or @username
        await w.say(BOB, "/balance")
        reply = await w.say(BOB, "/grant @bob 100")
        assert "админ" in reply["text"]
        reply = await w.say(ALICE, "/grant @bob 100")
        assert "1,100" in reply["text"]


async def test_restart_in_the_middle_of_a_hand_then_it_finishes(tmp_path: Path) -> None:
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            for _ in range(3):
                seat = t.hand.to_act[0]  # type: ignore[union-attr]
                await w.play_street(ALICE if seat == 0 else BOB)
            state = t.hand.to_json()  # type: ignore[union-attr]
            table_id = t.id
        async with world(tmp_path, fake=fake, db=db) as w2:
            t2 = w2.service.tables[table_id]
            assert t2.hand is not None and t2.hand.to_json() == state
            await play_hand(w2, [ALICE, BOB])
            stacks = await w2.store.stacks(table_id)
            history = await w2.store.hand_history(t2.seats[0].player_id, 1)
            assert sum(stacks.values()) == 400
            assert stacks[t2.seats[0].player_id] == 200 + history[0].result["kush"]["0"]
    finally:
        await fake.stop()


async def test_r8_2_a_topup_delivered_again_after_a_restart_applies_once(tmp_path: Path) -> None:
    """Telegram delivers an update again when the bot did not confirm it (a crash before the
    next getUpdates). ``/topup 150`` handled, the bot restarted, the same update (same
    update_id) delivered to the new process: answered "already done", the stack and the
    balance moved once, the ledger balanced (R8.2). Without the key in the snapshot the
    restarted bot would move 150 more."""
    from bot.model import ChatRef
    from bot.texts import tr
    from storage.check import check_store

    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.say(ALICE, "/newtable")
            await w.press_lobby(ALICE, "j")
            await w.press_lobby(ALICE, "r")
            reply = await w.say(ALICE, "/topup 150")
            assert reply["text"] == tr("en", "reply.topped_up", amount=150, label="kush", stack=350)
            update_id = max(fake.pushed)
            assert "/topup 150" in str(fake.pushed[update_id])
        async with world(tmp_path, fake=fake, db=db) as w2:
            start = len(fake.calls)
            await fake.redeliver(update_id)
            mid = int(fake.pushed[update_id]["message"]["message_id"])
            answer = await fake.wait_for(lambda: fake.reply_to(GROUP_ID, mid, start))
            assert answer["text"] == tr("en", "reply.request_done")
            t = w2.service.table_in(ChatRef("telegram", str(GROUP_ID), str(GROUP_ID)))
            assert t is not None
            assert await w2.store.stacks(t.id) == {t.seats[0].player_id: 350}
            player = await w2.store.get_player(t.seats[0].player_id)
            assert player is not None and player.balance == 1000 - 350
            assert await check_store(w2.store) == []
            # a new /topup (a new update) still applies
            reply = await w2.say(ALICE, "/topup 50")
            assert reply["text"] == tr("en", "reply.topped_up", amount=50, label="kush", stack=400)
    finally:
        await fake.stop()


async def test_429_is_retried_not_lost(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        w.fake.fail_next["sendMessage"] = [
            (
                429,
                {
                    "ok": False,
                    "error_code": 429,
                    "description": "Too Many Requests: retry after 1",
                    "parameters": {"retry_after": 1},
                },
            )
        ]
        reply = await w.say(ALICE, "/newtable")
        assert "#" in reply["text"]
        lobby_sends = [
            c for c in w.fake.calls_of("sendMessage") if str(c.params["text"]).startswith("🃏")
        ]
        assert len(lobby_sends) == 2  # the refused one and its retry
        assert lobby_sends[1].at - lobby_sends[0].at >= 0.9  # after retry_after
        assert w.table_message()["text"] == lobby_sends[1].params["text"]


async def test_a_pineapple_hand_takes_eighteen_presses(tmp_path: Path) -> None:
    """One press per card placed, one to confirm; the card left over on streets 2–5 is the
    discard (R3.2): 5 + 1 + 4 × (2 + 1) = 18, and one more for a board that fouls (its last
    Confirm asks first, R2.3)."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        presses = {ALICE.id: 0, BOB.id: 0}
        by_id = {str(u.id): u for u in (ALICE, BOB)}
        while t.hand is not None and t.hand_no == 1:
            user = by_id[t.seats[t.hand.to_act[0]].user_id]
            presses[user.id] += await w.play_street(user, press_discard=False)
        history = await w.store.hand_history(t.seats[0].player_id, 1)
        fouled = {int(t.seats[r["seat"]].user_id): r["fouled"] for r in history[0].result["seats"]}
        assert presses == {u: 18 + fouled[u] for u in (ALICE.id, BOB.id)}
        discards = [a for a in history[0].hand["actions"] if a["type"] == "discard"]
        assert len(discards) == 8


async def test_a_pressed_private_message_is_edited_once_per_press(tmp_path: Path) -> None:
    """Issue 10, one output path per press: the service returns the presser's new hand and
    the adapter edits the pressed message with it; the service does not write that message
    too (it writes the other player's, whose turn a Confirm begins). One editMessageText of
    the pressed message per press, after the press is answered."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        presenter = w.adapter.presenter
        show_private = presenter.show_private
        asked: list[str] = []  # the users whose private message the service wrote

        async def spy(
            user_id: str, screen: Screen, ref: str | None, answered: str | None = None
        ) -> str | None:
            asked.append(user_id)
            return await show_private(user_id, screen, ref, answered)

        presenter.show_private = spy  # type: ignore[method-assign]
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        by_id = {str(u.id): u for u in (ALICE, BOB)}
        presses = 0

        async def press(user: FakeUser, data: str) -> None:
            """One press on the user's private message: exactly one edit of it."""
            nonlocal presses
            msg = w.private(user)
            assert msg is not None
            mid = msg["message_id"]
            start, asked_start = len(w.fake.calls), len(asked)
            answer = await w.press(user, user.id, msg, data)
            if answer.get("text") in FOULED_NOTICES:  # a fouled board asks first (R2.3):
                await w.service.rt.settled(t)  # nothing changes, no edit; then again
                await presenter.flush()
                assert not any(
                    c.method == "editMessageText" and int(c.params["chat_id"]) == user.id
                    for c in w.fake.calls[start:]
                )
                start = len(w.fake.calls)
                answer = await w.press(user, user.id, msg, data)
            assert not answer.get("show_alert"), answer
            await w.service.rt.settled(t)
            await presenter.flush()
            calls = w.fake.calls[start:]
            edits = [
                n
                for n, c in enumerate(calls)
                if c.method == "editMessageText"
                and int(c.params["chat_id"]) == user.id
                and int(c.params["message_id"]) == mid
            ]
            assert len(edits) == 1, [(c.method, c.params.get("chat_id")) for c in calls]
            answered = next(n for n, c in enumerate(calls) if c.method == "answerCallbackQuery")
            assert answered < edits[0]  # the press is answered first
            assert w.fake.messages[(user.id, mid)]["text"] == calls[edits[0]].params["text"]
            assert str(user.id) not in asked[asked_start:]  # the adapter wrote it, alone
            presses += 1

        while t.hand is not None and t.hand_no == 1:
            user = by_id[t.seats[t.hand.to_act[0]].user_id]
            other = BOB if user is ALICE else ALICE
            seat = t.seat_of(str(user.id))
            assert seat is not None
            moves = complete_street(
                t.hand.board_of(seat.seat, with_pending=True),
                t.hand.to_place(seat.seat),
                t.hand.discards_needed(seat.seat),
                options=t.hand.options,
            )
            for card, box in moves:
                if box is not None:  # Confirm discards the card left over
                    await press(user, w.hand_buttons(user)[("p", card.text + box.value[0])])
            asked_start = len(asked)
            await press(user, w.hand_buttons(user)[("c", "")])
            if t.hand is not None and t.hand_no == 1:  # the other one's turn began
                assert str(other.id) in asked[asked_start:]
        assert presses == 2 * 18  # 5 + 1 + 4 × (2 + 1) each


async def test_r8_2_topup_command_takes_its_amount_through_the_adapter(tmp_path: Path) -> None:
    """``/topup 150`` typed in the group reaches the service with its amount (R8.2): the
    stack grows by exactly 150 from the balance; a second ``/topup`` past the maximum buy-in
    is refused and changes nothing."""
    from bot.model import ChatRef
    from bot.texts import tr

    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        await w.press_lobby(ALICE, "r")
        reply = await w.say(ALICE, "/topup 150")
        assert reply["text"] == tr("en", "reply.topped_up", amount=150, label="kush", stack=350)
        reply = await w.say(ALICE, "/topup 900")
        assert reply["text"] == tr("en", "reply.topup_range", room=650, max=1000, label="kush")
        t = w.service.table_in(ChatRef("telegram", str(GROUP_ID), str(GROUP_ID)))
        assert t is not None
        assert await w.store.stacks(t.id) == {t.seats[0].player_id: 350}


async def test_r8_2_a_topup_amount_typed_in_two_words_is_refused_whole(tmp_path: Path) -> None:
    """``/topup 1 00`` (digits grouped wrong; "1 000" is a thousand, fix39g) or
    ``/topup 100 kush`` is refused with the usage and moves nothing (bad input: a clear
    message, nothing changed): the adapter read only the first word, so the first topped up
    by 1 kush and the second by 100 without a word of the rest."""
    from bot.model import ChatRef
    from bot.texts import tr

    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        await w.press_lobby(ALICE, "r")
        room = tr("en", "reply.topup_range", room=800, max=1000, label="kush")
        refused = tr("en", "reply.number_grouped") + "\n" + room  # how to write an amount
        for typed in ("/topup 1 00", "/topup 100 kush"):
            reply = await w.say(ALICE, typed)
            assert reply["text"] == refused, typed
        # a thousand grouped as the bot writes it (fix39g): past the room, the range alone
        for typed in ("/topup 1 000", "/topup 1\u00a0000", "/topup 1,000"):
            reply = await w.say(ALICE, typed)
            assert reply["text"] == room, typed
        t = w.service.table_in(ChatRef("telegram", str(GROUP_ID), str(GROUP_ID)))
        assert t is not None
        assert await w.store.stacks(t.id) == {t.seats[0].player_id: 200}
        reply = await w.say(ALICE, "/topup  150 ")  # spaces around one word are no second word
        assert reply["text"] == tr("en", "reply.topped_up", amount=150, label="kush", stack=350)


async def test_wallet_commands_in_a_private_chat_point_to_the_group(tmp_path: Path) -> None:
    """Kush are kept per group: ``/balance``, ``/daily``, ``/history`` and ``/top`` typed in
    the private chat are answered with where to ask (in the player's language), and the
    private chat grows no wallet (no community, no starting kush) of its own."""
    from bot.texts import tr

    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")  # Alice has a wallet in the group
        for command in ("/balance", "/daily", "/history", "/top"):
            reply = await w.say(ALICE, command, chat_id=ALICE.id)
            assert reply["text"] == tr("en", "reply.wallet_in_group"), command
        with sqlite3.connect(tmp_path / "ofc.sqlite3") as db:
            rows = db.execute("SELECT external_id FROM communities").fetchall()
        assert rows == [(str(GROUP_ID),)]
        reply = await w.say(ALICE, "/balance")
        assert "1,000" in reply["text"]
        # /rules takes the game to describe (the open table's by default)
        assert (await w.say(ALICE, "/rules"))["text"].startswith("Pineapple OFC:")
        assert (await w.say(ALICE, "/rules chinese"))["text"].startswith("Chinese Poker:")
