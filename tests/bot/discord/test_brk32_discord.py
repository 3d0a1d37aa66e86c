"""Break-it round 32 on Discord: settings, top-ups, closes, computer players and tournaments
through discord.py's real client against the local fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.model import LiveTable
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, action_of, components, world
from tests.fakes.discord_api import CHANNEL_ID, EPHEMERAL, TOKEN, FakeDiscord, FakeUser

DAVE = FakeUser(304, "Dave", "en-US")
THREAD_ID = 555_000_000_000_000_777


@asynccontextmanager
async def two_tables(tmp_path: Path) -> AsyncIterator[tuple[World, LiveTable, LiveTable]]:
    """Alice and Bob dealt in at a Pineapple table in the channel, Carol and Dave at a
    Chinese Poker table in a thread of it; both hands under way."""
    fake = FakeDiscord(TOKEN)
    fake.add_thread(THREAD_ID, CHANNEL_ID, "poker-thread")
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            for where, game, users in (
                (CHANNEL_ID, "pineapple", (ALICE, BOB)),
                (THREAD_ID, "chinese", (CAROL, DAVE)),
            ):
                reply = await w.slash(users[0], "new", {"game": game}, channel_id=where)
                assert reply["content"].startswith("Table #"), reply
                for u in users:
                    await w.slash(u, "join", channel_id=where)
                for u in users:
                    await w.slash(u, "ready", channel_id=where)
            by_chat = {t.chat_id: t for t in w.service.tables.values()}
            pineapple, chinese = by_chat[str(CHANNEL_ID)], by_chat[str(THREAD_ID)]
            assert pineapple.hand is not None and chinese.hand is not None
            yield w, pineapple, chinese
    finally:
        await fake.stop()


async def test_a_setting_changed_in_a_thread_says_when_the_thread_s_table_takes_it(
    tmp_path: Path,
) -> None:
    """R6.6, R7.6: an admin who changes a rule option mid-hand in a thread whose table plays
    Chinese Poker was told when *some* table of the server takes it: with a Pineapple table
    mid-hand in the channel, "It applies from the next hand (after any Fantasyland hands this
    one earns)" for ``target_points`` and ``kush_per_point``, a Fantasyland Chinese Poker
    has not, and not that the game under way now plays to the new target. The answer speaks
    of the table in the admin's chat; in the channel, of the Pineapple table as before."""
    async with two_tables(tmp_path) as (w, pineapple, chinese):
        reply = await w.slash(
            ALICE, "settings", {"name": "target_points", "value": "20"}, admin=True,
            channel_id=THREAD_ID,
        )  # fmt: skip
        assert reply["flags"] & EPHEMERAL
        assert reply["content"].splitlines()[:2] == [
            "Saved: target_points = 20 (was 51).",
            "The game under way plays to 20 from the next hand; if a player has 20 points or "
            "more when this hand ends, the game is over then and settled.",
        ], reply["content"]
        reply = await w.slash(
            ALICE, "settings", {"name": "kush_per_point", "value": "2"}, admin=True,
            channel_id=THREAD_ID,
        )  # fmt: skip
        assert reply["content"].splitlines()[:2] == [
            "Saved: kush_per_point = 2 (was 1).",
            "It applies from the next hand.",
        ], reply["content"]
        reply = await w.slash(
            ALICE, "settings", {"name": "hand_seconds", "value": "90"}, admin=True
        )  # (in the channel: the Pineapple table's match)
        assert reply["content"].splitlines()[:2] == [
            "Saved: hand_seconds = 90 (was 120).",
            "It applies from the next hand (after any Fantasyland hands this one earns).",
        ], reply["content"]
        # the settings list's "+" in the thread: the same answer, of the thread's table
        panel = await w.slash(ALICE, "settings", {"name": "all"}, admin=True, channel_id=THREAD_ID)
        pick, plus = next(
            (c["custom_id"], o)
            for c in components(panel)
            for o in c.get("options", [])
            if o["value"].endswith(":tp+")
        )
        record = await w.press(ALICE, panel, pick, [plus["value"]], admin=True)
        assert record.callback_type == 7
        edited = w.fake.messages[int(panel["id"])]["content"]
        assert edited.splitlines()[:2] == [
            "Saved: target_points = 30 (was 20).",
            "The game under way plays to 30 from the next hand; if a player has 30 points or "
            "more when this hand ends, the game is over then and settled.",
        ], edited
        for t in (pineapple, chinese):
            assert t.pending_options is not None and t.pending_options.kush_per_point == 2
            assert t.options.kush_per_point == 1
        assert chinese.pending_options is not None
        assert chinese.pending_options.target_points == 30
        assert await check_store(w.store) == []


async def test_stats_average_kush_a_hand_from_10_000_up_is_grouped(tmp_path: Path) -> None:
    """/ofc stats of a player: the average kush a hand and the biggest win were the amounts
    there not grouped from 10 000 up ("kush/hand +12000.0", "biggest win: +12000 kush"
    above "Net: +12,000 kush"; «-12000,0 куша»); grouped now as every amount is, a
    fraction kept: "+12,000.0", «-12 000,0»."""
    async with world(tmp_path) as w:
        for u in (ALICE, BOB):
            await w.slash(ALICE, "grant", {"user": u, "amount": 100_000}, admin=True)
        for name, value in (("min_buy_in", "20000"), ("kush_per_point", "2000")):
            reply = await w.slash(ALICE, "settings", {"name": name, "value": value}, admin=True)
            assert reply["content"].startswith("Saved: "), reply
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB):
            await w.slash(u, "join")
        for u in (ALICE, BOB):
            await w.slash(u, "ready")
        t = w.table()
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        stacks = await w.store.stacks(t.id)
        assert stacks == {t.seats[0].player_id: 32_000, t.seats[1].player_id: 8_000}
        reply = await w.slash(ALICE, "stats")
        assert "Hands: 1 · points/hand +6.0 · kush/hand +12,000.0" in reply["content"], reply
        shown = "Scoops (all three boxes): 1 · biggest win: +12,000 kush\nNet: +12,000 kush"
        assert shown in reply["content"]
        reply = await w.slash(BOB, "stats")
        assert "Раздач: 1 · за раздачу: −6,0 очка, −12\u00a0000,0 куша" in reply["content"], reply
        assert await check_store(w.store) == []


async def test_max_buy_in_takes_auto_as_every_answer_names_it(tmp_path: Path) -> None:
    """R8.2: the max stack is shown "auto — 5 × buy-in = 1000" (the list, the answers, the
    help's "default auto"), but ``/ofcadmin settings max_buy_in auto`` was refused as no
    whole number, with how to write digits; "auto" («авто») sets it back to 5 × the buy-in
    as 0 does; ``language`` takes «авто» as it takes "auto"."""
    async with world(tmp_path) as w:
        reply = await w.slash(ALICE, "settings", {"name": "max_buy_in", "value": "500"}, admin=True)
        assert reply["content"].startswith(
            "Saved: max_buy_in = 500 (was auto — 5 × buy-in = 1,000)."
        ), reply
        reply = await w.slash(
            ALICE, "settings", {"name": "max_buy_in", "value": "auto"}, admin=True
        )
        assert reply["content"].startswith(
            "Saved: max_buy_in = auto — 5 × buy-in = 1,000 (was 500)."
        ), reply
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.max_buy_in == 0
        await w.slash(ALICE, "settings", {"name": "max_buy_in", "value": "700"}, admin=True)
        reply = await w.slash(BOB, "settings", {"name": "max_buy_in", "value": "Авто"}, admin=True)
        assert reply["content"].startswith(
            "Сохранено: макс_стек = авто — 5 × взнос = 1000 (было 700)."
        ), reply
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.max_buy_in == 0
        reply = await w.slash(BOB, "settings", {"name": "language", "value": "ru"}, admin=True)
        reply = await w.slash(BOB, "settings", {"name": "language", "value": "авто"}, admin=True)
        assert reply["content"].startswith("Сохранено: язык = авто"), reply
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.language is None  # (auto)
        reply = await w.slash(
            ALICE, "settings", {"name": "min_buy_in", "value": "auto"}, admin=True
        )
        assert "takes a whole number" in reply["content"], reply  # (no automatic buy-in)


@pytest.mark.parametrize("how", ["close", "leave"])
async def test_r8_3_a_hand_after_which_the_round_is_settled_does_not_say_it_comes_later(
    tmp_path: Path, how: str
) -> None:
    """R8.3 (``settle_per_round``): a close asked for during hand 2 (or Carol's /leave)
    settles the round's points right after that hand, and the channel is told so ("the
    round is settled early (the table closes)"); the hand's showdown and its picture's
    caption, just before, said "Settlement comes after the full round." The showdown of a
    hand after which the round is settled says nothing of a later settlement."""
    later = "Settlement comes after the full round."
    async with world(tmp_path, rng_seed=4) as w:
        public = w.public_texts()
        reply = await w.slash(
            ALICE, "settings", {"name": "settle_per_round", "value": "on"}, admin=True
        )
        assert reply["content"].startswith("Saved: "), reply
        users = (ALICE, BOB, CAROL)
        await w.slash(ALICE, "new")
        for u in users:
            await w.slash(u, "join")
        for u in users:
            await w.slash(u, "ready")
        t = w.table()
        via = {u.id: "dm" for u in users}
        await w.play_hand(users, via)
        assert any(later in x for x in public if "· hand 1" in x)  # (the round goes on)
        assert t.hand is not None and t.hand_no == 2
        if how == "close":
            reply = await w.slash(DAVE, "close", admin=True)
            assert reply["content"] == (
                f"Table #{t.id} closes at the end of this hand, stacks go back to balances; "
                "Fantasyland earned in it is not played."
            )
        else:
            reply = await w.slash(CAROL, "leave")  # during the hand: it asks first (R8.5)
            assert reply["content"].endswith("Send /ofc leave again to confirm."), reply
            reply = await w.slash(CAROL, "leave")
            assert "after this hand" in reply["content"], reply
        await w.play_hand(users, via)
        await w.adapter.presenter.flush()
        hand2 = [x for x in public if "· hand 2" in x and ("🏁" in x or "pts" in x)]
        assert hand2 and not any(later in x for x in hand2), hand2
        # (Carol's last streets placed for her when she leaves: R8.5)
        why, moves, carol_net = {
            "close": ("the table closes", "Alice −8 kush, Bob +19 kush, Carol −11 kush", -11),
            "leave": ("Carol leaves", "Alice −8 kush, Bob +17 kush, Carol −9 kush", -9),
        }[how]
        notice = f"Table #{t.id}: the round is settled early ({why}): {moves}."
        assert notice in public, [x for x in public if "settled" in x]
        community = await w.store.community("discord", str(w.fake.guild_id))
        carol = await w.store.find_player(community.id, str(CAROL.id))
        assert carol is not None and carol.balance == 1000 + carol_net
        assert await check_store(w.store) == []


async def test_r7_6_a_hand_sat_out_during_a_chinese_poker_game_moves_none_of_the_kush(
    tmp_path: Path,
) -> None:
    """R7.6, R8.6: Carol sits out the second hand of a Chinese Poker game that Alice and Bob
    play on. The game's points were settled as the difference of the totals, so what Bob
    and Alice won from each other in that hand was counted against Carol too: she paid 17
    kush at the end for 4 points against 7 and 10 after the one hand she played (9 owed).
    Each pair now settles the hands both played (as for one who sat down during a game)."""
    from tests.bot.discord.test_classic_games_discord import arrange_with_selects

    async def arrange(user: FakeUser) -> None:
        from game.strategy import complete_street

        t = w.table()
        hand = t.hand
        seat = t.seat_of(str(user.id))
        assert hand is not None and seat is not None
        moves = complete_street(
            hand.board_of(seat.seat, with_pending=True),
            hand.to_place(seat.seat),
            0,
            fantasyland_cards=13,
            options=hand.options,
        )
        await arrange_with_selects(w, user, {c.text: b for c, b in moves if b is not None})

    async def my_cards(user: FakeUser) -> dict[str, Any]:
        """ "My cards" on the table message (a closing table's has no Join)."""
        for m in reversed(w.fake.channel_messages(CHANNEL_ID)):
            for c in components(m):
                if action_of(c) == "h":
                    record = await w.press(user, m, c["custom_id"])
                    return w.fake.messages[record.messages[-1]]
        raise AssertionError("no My cards button")

    async with world(tmp_path, next_hand_delay=0.5) as w:
        w.my_cards = my_cards  # type: ignore[method-assign]
        for name, value in (("reveal_pause_seconds", "0.05"), ("target_points", "60")):
            reply = await w.slash(ALICE, "settings", {"name": name, "value": value}, admin=True)
            assert reply["content"].startswith("Saved: "), reply
        users = (ALICE, BOB, CAROL)
        await w.slash(ALICE, "new", {"game": "chinese"})
        for u in users:
            await w.slash(u, "join")
        for u in users:
            await w.slash(u, "ready")
        t = w.table()
        reply = await w.slash(CAROL, "sitout")  # (from the next hand)
        assert reply["content"] == "You sit out from the next hand. /ofc back to return."
        for u in users:
            await arrange(u)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert t.chinese is not None and t.chinese.totals == {0: 7, 1: 10, 2: 4}
        assert t.hand is not None and sorted(t.hand.order) == [0, 1]  # Carol not dealt
        reply = await w.slash(DAVE, "close", admin=True)
        assert reply["content"] == (
            f"Table #{t.id} closes at the end of this hand; stacks go back to balances."
        )
        for u in (ALICE, BOB):
            await arrange(u)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        history = await w.store.export_hands(t.id)
        game_end = [h["result"] for h in history if h["result"].get("chinese")][-1]
        assert game_end["chinese"]["totals"] == {"0": 9, "1": 16, "2": 4}
        community = await w.store.community("discord", str(w.fake.guild_id))
        balances = {}
        for u in users:
            player = await w.store.find_player(community.id, str(u.id))
            assert player is not None
            balances[u.name] = player.balance
        # Alice: -3 and +3 (hand 1 against Bob and Carol), -4 against Bob (hand 2)
        assert balances == {"Alice": 996, "Bob": 1013, "Carol": 991}
        assert await check_store(w.store) == []
