"""brk75: a Telegram group that changes under a Chinese Poker game, a Fantasyland hand and a
tournament, through the real python-telegram-bot and the fake Bot API (R6, R7.6, R8.2a,
R8.7): the table follows a group upgraded to a supergroup without being told (the Bot API's
``migrate_to_chat_id`` alone), a deleted table message is posted again, and a tournament
whose group removes the bot after a knock-out pays its whole pool out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.texts import tr
from storage.check import check_store
from tests.bot.fakes import FOULED_NOTICES
from tests.bot.test_telegram_e2e import (
    ALICE_PLAN,
    ALICE_STREETS,
    BOB_FOUL_PLAN,
    BOB_STREETS,
    decks,
    play_hand,
    seat_everyone,
)
from tests.bot.test_telegram_e2e import stacked as stacked_deck
from tests.bot.test_tournament_e2e import actions_of, configure, tournament_message
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, World, world

NEW = -100777  # the supergroup GROUP_ID becomes
PLAYERS = (ALICE, BOB, CAROL)


async def balance(w: World, user: Any, chat: int = GROUP_ID) -> int:
    community = await w.store.community("telegram", str(chat))
    player = await w.store.find_player(community.id, str(user.id))
    assert player is not None
    return player.balance


async def arrange(w: World, user: Any) -> None:
    """``user`` presses 🪄 Arrange, then Confirm, on their private hand."""
    await w.adapter.presenter.flush()
    for action in ("a", "c"):
        await w.fake.wait_for(lambda: (action, "") in w.hand_buttons(user))  # noqa: B023
        data = w.hand_buttons(user)[(action, "")]
        answer = await w.press(user, user.id, w.private(user) or {}, data)
        if answer.get("text") in FOULED_NOTICES:  # a fouled board asks first (R2.3)
            answer = await w.press(user, user.id, w.private(user) or {}, data)
        assert not answer.get("show_alert"), answer


async def chinese_dealt(w: World) -> Any:
    """Alice and Bob at a Chinese Poker table to 200 points, hand 1 dealt."""
    w.fake.started_users.update(u.id for u in PLAYERS)
    await configure(w, target_points="200", reveal_pause_seconds="0.1")
    await w.say(ALICE, "/newtable chinese")
    for u in (ALICE, BOB):
        await w.press_lobby(u, "j")
    for u in (ALICE, BOB):
        await w.press_lobby(u, "r")
    t = next(iter(w.service.tables.values()))
    await w.fake.wait_for(lambda: t.hand is not None)
    return t


def buttons_in(w: World, chat: int) -> list[dict[str, Any]]:
    return [m for m in w.fake.chat_messages(chat) if w.fake.buttons(m)]


async def test_r7_r8_2a_a_chinese_game_upgraded_unannounced_goes_on_in_the_supergroup(
    tmp_path: Path,
) -> None:
    """The group becomes a supergroup while both arrange hand 1, and the bot gets no
    service message: the next write is refused with ``migrate_to_chat_id``. The reveal and
    hand 2 go on in the supergroup with the game's score carried (R7.1), stacks untouched
    until the game ends, and the wallets are found there."""
    async with world(tmp_path) as w:
        leaks = w.watch_leaks()
        t = await chinese_dealt(w)
        await w.fake.migrate_group(GROUP_ID, NEW, announce=False)
        for u in (ALICE, BOB):
            await arrange(w, u)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        await w.settle()
        assert t.chat_id == str(NEW) and t.chinese is not None
        totals = dict(t.chinese.totals)
        assert sum(totals.values()) > 0
        table = buttons_in(w, NEW)[-1]
        assert int(t.group_ref or 0) == table["message_id"] and "hand 2" in table["text"]
        score = f"Bob {totals[1]} · Alice {totals[0]}"
        assert score in table["text"] or f"Alice {totals[0]} · Bob {totals[1]}" in table["text"]
        assert {s.stack for s in t.seats.values()} == {200}
        assert await balance(w, ALICE, NEW) == await balance(w, BOB, NEW) == 800
        assert leaks == []
        assert await check_store(w.store) == []


async def test_r7_a_table_message_deleted_during_the_reveal_is_posted_again(
    tmp_path: Path,
) -> None:
    """An admin deletes the table message while the boxes of hand 1 are revealed: the next
    reveal frame is refused ("message to edit not found") and posted as a new message,
    which the table holds from then on; hand 2 is dealt."""
    async with world(tmp_path) as w:
        t = await chinese_dealt(w)
        for u in (ALICE, BOB):
            await arrange(w, u)
        await w.fake.wait_for(lambda: t.reveal is not None)
        old = int(t.group_ref or 0)
        w.fake.delete(GROUP_ID, old)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        await w.settle()
        reveals = [m for m in w.fake.chat_messages(GROUP_ID) if m["text"].startswith("🀄")]
        assert reveals and all(m["message_id"] != old for m in reveals)
        assert buttons_in(w, GROUP_ID)[-1]["message_id"] == int(t.group_ref or 0) != old
        assert await check_store(w.store) == []


async def test_r6_a_fantasyland_hand_through_an_unannounced_upgrade_ends_in_the_supergroup(
    tmp_path: Path,
) -> None:
    """Alice's Fantasyland hand (R6.3); the group becomes a supergroup unannounced. Bob's
    streets and her arrangement in private go on, the showdown and hand 3 are in the
    supergroup, and no group write shows a hidden card."""
    deck = decks(stacked_deck(ALICE_STREETS, BOB_STREETS))
    async with world(tmp_path, deck_source=deck) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await play_hand(w, [ALICE, BOB], {ALICE.id: ALICE_PLAN, BOB.id: BOB_FOUL_PLAN})
        await w.settle()
        assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
        await w.fake.migrate_group(GROUP_ID, NEW, announce=False)
        while t.hand is not None and t.hand_no == 2:
            if 0 in t.hand.to_act and t.hand.to_place(0):
                await arrange(w, ALICE)
            else:
                await w.play_street(BOB)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 3)
        await w.settle()
        assert t.chat_id == str(NEW)
        texts = [m["text"] for m in w.fake.chat_messages(NEW)]
        assert any(x.startswith(tr("en", "showdown.title", table=t.id, hand=2)) for x in texts)
        assert "hand 3" in buttons_in(w, NEW)[-1]["text"]
        assert sum(s.stack for s in t.seats.values()) == 400
        assert leaks == []
        assert await check_store(w.store) == []


async def test_r8_7_r8_2a_a_tournament_cancelled_after_a_knock_out_pays_its_whole_pool(
    tmp_path: Path,
) -> None:
    """Carol leaves the group during hand 1 of a tournament (knocked out, place 3, R8.7);
    then the group removes the bot. The hand is finished in private and the tournament is
    cancelled: Carol gets nothing back and is told so, and the whole pool of 300 goes to
    Alice and Bob (balanced ledger entries), no kush made or lost."""
    async with world(tmp_path) as w:
        w.fake.started_users.update(u.id for u in PLAYERS)
        await configure(w, tournament_chips="200")
        await w.say(ALICE, "/tournament pineapple")
        for user in (ALICE, BOB):
            data = actions_of(w.fake, tournament_message(w))["g"]
            await w.press(user, GROUP_ID, tournament_message(w), data)
        await w.say(CAROL, "/join")  # the third seat starts it
        t = next(iter(w.service.tables.values()))
        assert t.tournament is not None and t.hand is not None
        carol = t.seat_of(str(CAROL.id))
        assert carol is not None
        await w.fake.remove_member(GROUP_ID, CAROL)
        await w.fake.wait_for(lambda: carol.seat not in t.tournament.chips)
        await w.fake.remove_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: t.closing)
        by_id = {str(u.id): u for u in (ALICE, BOB)}
        while t.id in w.service.tables:
            hand = t.hand
            if hand is None or hand.is_over or not hand.to_act:
                await w.fake.wait_for(lambda: t.hand is not hand or t.id not in w.service.tables)  # noqa: B023
                continue
            await arrange(w, by_id[t.seats[t.owner(hand.to_act[0])].user_id])
        await w.settle()
        assert await balance(w, CAROL) == 900
        assert await balance(w, ALICE) + await balance(w, BOB) == 2 * 900 + 300
        last = w.fake.chat_messages(CAROL.id)[-1]["text"]
        assert last.startswith(tr("en", "private.chat_gone_tour_none", table=t.id, place=3)), last
        assert await check_store(w.store) == []
