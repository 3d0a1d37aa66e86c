"""brk75: a channel that changes under a Chinese Poker game, a tournament and a Fantasyland
hand, through the real discord.py client and the fake Discord (R7.6, R8.2a, R8.7, R6). Each
ends within the rules: the hand is finished in the DMs, every kush is settled by balanced
ledger entries and the players are told in their DMs; or the table plays on with its message
posted again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, world
from tests.bot.discord.test_classic_games_discord import admin, seat
from tests.bot.discord.test_discord_chats import balance_of
from tests.bot.discord.test_discord_e2e import alice_in_fantasyland
from tests.bot.discord.test_tournament_discord import arrange_and_confirm, press_lobby
from tests.bot.test_telegram_e2e import ALICE_STREETS, BOB_STREETS, decks, stacked
from tests.fakes.discord_api import CHANNEL_ID


async def gone(w: World, how: str) -> None:
    """The table's channel is deleted (CHANNEL_DELETE; 404 10003 from then on) or the bot
    loses Send Messages there (403 50013 on its next write)."""
    if how == "deleted":
        await w.fake.delete_channel(CHANNEL_ID)
    else:
        await w.fake.lock_channel(CHANNEL_ID)


@pytest.mark.parametrize("how", ["deleted", "locked"])
async def test_r7_6_r8_2a_a_chinese_game_whose_channel_goes_away_is_settled_and_closes(
    tmp_path: Path, how: str
) -> None:
    """Chinese Poker to 200: the channel goes away while both arrange hand 1. Both finish in
    their DMs, the reveal runs, the game is settled each-with-each on its score (R7.6), the
    table closes with the stacks back (R8.2a), and each player's DM says so in their
    language."""
    async with world(tmp_path) as w:
        await admin(w, "target_points", "200")
        await admin(w, "reveal_pause_seconds", "0.1")
        await seat(w, [ALICE, BOB], "chinese")
        t = w.table()
        assert t.hand is not None and set(t.hand.to_act) == {0, 1}
        first = t.seats[0].player_id
        await gone(w, how)
        await arrange_and_confirm(w, ALICE)
        await w.fake.wait_for(lambda: t.closing)
        await arrange_and_confirm(w, BOB)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        end, hand_one = await w.store.hand_history(first, 5)
        assert end.result.get("game_end") and hand_one.number == 1
        totals = end.result["chinese"]["totals"]
        kush = end.result["kush"]
        # each-with-each on the score, one kush a point (R7.6): not refunded
        assert kush["0"] == totals["0"] - totals["1"] == -kush["1"] != 0
        assert await balance_of(w, ALICE.id) == 1000 + kush["0"]
        assert await balance_of(w, BOB.id) == 1000 + kush["1"]
        for user, lang in ((ALICE, "en"), (BOB, "ru")):
            text = w.fake.dm_messages(user.id)[-1]["content"]
            assert text.startswith(tr(lang, "private.chat_gone", table=t.id)), text
        assert await check_store(w.store) == []


async def tournament_dealt(w: World) -> Any:
    for name, value in (("tournament_buy_in", "100"), ("tournament_chips", "200")):
        await w.slash(ALICE, "settings", {"name": name, "value": value}, admin=True)
    await w.slash(ALICE, "tournament", {"game": "pineapple"})
    for u in (ALICE, BOB):
        await press_lobby(w, u, "g")
    await w.slash(CAROL, "join")  # the third seat starts it (R8.7)
    t = w.table()
    assert t.tournament is not None and t.hand is not None and t.hand_no == 1
    await w.adapter.presenter.flush()
    return t


async def play_hand_one(w: World, t: Any) -> None:
    by_id = {str(u.id): u for u in (ALICE, BOB, CAROL)}
    while t.id in w.service.tables and t.hand is not None and t.hand_no == 1:
        hand = t.hand
        if hand.is_over or not hand.to_act:
            await w.fake.wait_for(lambda: t.hand is not hand or t.id not in w.service.tables)  # noqa: B023
            continue
        await arrange_and_confirm(w, by_id[t.seats[t.owner(hand.to_act[0])].user_id])


@pytest.mark.parametrize("how", ["deleted", "locked"])
async def test_r8_7_r8_2a_a_tournament_whose_channel_goes_away_is_cancelled_buy_ins_back(
    tmp_path: Path, how: str
) -> None:
    """A three-player tournament; the channel goes away in hand 1, nobody knocked out by it:
    the hand is finished in the DMs, the tournament is cancelled and every buy-in goes back
    from the pool (balanced ledger entries), each player told in their DM."""
    async with world(tmp_path) as w:
        t = await tournament_dealt(w)
        await gone(w, how)
        await play_hand_one(w, t)
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        for user, lang in ((ALICE, "en"), (BOB, "ru"), (CAROL, "en")):
            assert await balance_of(w, user.id) == 1000
            text = w.fake.dm_messages(user.id)[-1]["content"]
            want = tr(lang, "private.chat_gone_tour", table=t.id, amount=100, label="kush")
            assert text.startswith(want), text
        assert await check_store(w.store) == []


async def test_r8_7_a_deleted_tournament_table_message_is_posted_again_and_plays_on(
    tmp_path: Path,
) -> None:
    """A moderator deletes the tournament's table message in hand 1 (the next edit: 404
    10008): it is posted again, the tournament goes on to hand 2 there, no kush moves."""
    async with world(tmp_path) as w:
        t = await tournament_dealt(w)
        old = int(str(t.group_ref).split(":")[-1])
        del w.fake.messages[old]
        await play_hand_one(w, t)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        await w.adapter.presenter.flush()
        new = int(str(t.group_ref).split(":")[-1])
        assert new != old and new in w.fake.messages
        assert "hand 2" in w.fake.messages[new]["content"]
        for user in (ALICE, BOB, CAROL):
            assert await balance_of(w, user.id) == 900
        assert await check_store(w.store) == []


@pytest.mark.parametrize("how", ["deleted", "locked"])
async def test_r6_r8_2a_a_fantasyland_hand_whose_channel_goes_away_is_finished_and_closes(
    tmp_path: Path, how: str
) -> None:
    """Alice's Fantasyland hand (R6): the channel goes away; she arranges in her DM, Bob
    plays his streets there; the hand is settled once and the table closes with both
    stacks back (R8.2a)."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        leaks = w.watch_leaks()
        t, _hand = await alice_in_fantasyland(w)
        first = t.seats[0].player_id
        await gone(w, how)
        while t.hand is not None and t.hand_no == 2:
            if 0 in t.hand.to_act and t.hand.to_place(0):
                await arrange_and_confirm(w, ALICE)
            else:
                await w.play_street(BOB, "dm")
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        assert [h.number for h in await w.store.hand_history(first, 5)] == [2, 1]
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await balance_of(w, ALICE.id) > 1000  # she won hand 1 (Bob fouled)
        assert leaks == []
        assert await check_store(w.store) == []
