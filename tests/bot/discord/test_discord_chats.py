"""A guild or channel that goes away under a table, through the real discord.py client and
the fake Discord (the counterpart of a Telegram group that removes the bot,
``tests/bot/test_telegram_chats.py``): its table closes, after the hand in progress if one
is, and every stack goes back to its balance (R8.2a)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.model import LiveTable
from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, action_of, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, EPHEMERAL, GUILD_ID, TOKEN, FakeDiscord


async def balance_of(w: World, user_id: int) -> int:
    community = await w.store.community("discord", str(GUILD_ID))
    player = await w.store.find_player(community.id, str(user_id))
    assert player is not None
    return player.balance


async def test_a_guild_that_removes_the_bot_closes_its_table_at_once_between_hands(
    tmp_path: Path,
) -> None:
    """GUILD_DELETE (the bot was kicked, not an outage): the lobby closes at once and the
    ready player's buy-in goes back (R8.2a)."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        await w.press_lobby(ALICE, "j")
        await w.slash(ALICE, "ready")
        t = next(iter(w.service.tables.values()))
        assert await balance_of(w, ALICE.id) == 800
        await w.fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        assert await balance_of(w, ALICE.id) == 1000
        assert await check_store(w.store) == []


async def test_a_guild_that_adds_the_bot_back_mid_hand_keeps_its_table(tmp_path: Path) -> None:
    """GUILD_DELETE mid-hand queues the table's close (R8.2a); the bot invited back before the
    hand ends (GUILD_CREATE of a guild it is not in: ``on_guild_join``) cancels that close,
    says so in the channel, and the next hand is dealt."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        await w.fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
        await w.fake.wait_for(lambda: t.closing)
        # a guild joined (not one back from an outage: no "unavailable" key, discord.py's
        # on_guild_join rather than on_guild_available)
        joined = {k: v for k, v in w.fake.guild_json().items() if k != "unavailable"}
        await w.fake.dispatch("GUILD_CREATE", joined)
        await w.fake.wait_for(lambda: not t.closing)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await w.fake.wait_for(
            lambda: any(m.get("content") == notice for m in w.fake.messages.values())
        )
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert t.id in w.service.tables
        assert await check_store(w.store) == []


async def test_a_deleted_table_channel_closes_its_table_after_the_hand(tmp_path: Path) -> None:
    """CHANNEL_DELETE of the table's channel mid-hand: the hand is finished (by its players,
    or the clock, R8.5) and the table then closes."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        await w.fake.dispatch(
            "CHANNEL_DELETE", {"id": str(CHANNEL_ID), "guild_id": str(GUILD_ID), "type": 0}
        )
        await w.fake.wait_for(lambda: t.closing)
        assert t.hand is not None and t.id in w.service.tables  # the hand goes on


async def test_a_table_channel_the_bot_may_no_longer_write_in_closes_after_the_hand(
    tmp_path: Path,
) -> None:
    """R8.2a: an admin takes the bot's permissions in the table channel away mid-hand (every
    write there answers 403, code 50013): nobody could read the table, so it closes as when
    the channel is deleted: the hand is finished in the DMs and settled, then the stacks go
    back to the balances."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        w.fake.locked_channels.add(CHANNEL_ID)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


@pytest.mark.parametrize("gone", ["channel", "guild"])
async def test_the_players_of_a_deleted_table_channel_are_told_in_their_dms(
    tmp_path: Path, gone: str
) -> None:
    """R8.2a: the table's channel is deleted mid-hand; the hand is played out in the DMs and
    the table closes, but the channel that would show the showdown and the close is gone.
    Each player's DM hand was left as it was (a closing step's private screens went
    nowhere); it now says that the table is closed and their kush is back, with the
    showdown. ``guild``: the bot is kicked from the guild instead (GUILD_DELETE, not an
    outage) and never invited back; its writes in the channel are refused from then on:
    the same, the hand settled once."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None and t.hand_no == 1
        if gone == "guild":
            w.fake.locked_channels.add(CHANNEL_ID)
            await w.fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
        else:
            await w.fake.delete_channel(CHANNEL_ID)
        await w.fake.wait_for(lambda: t.closing)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        for user, lang in ((ALICE, "en"), (BOB, "ru")):
            text = w.fake.dm_messages(user.id)[-1]["content"]
            assert text.startswith(tr(lang, "private.chat_gone", table=t.id)), text
            # the showdown in the player's own language (Bob: Russian), not the channel's
            assert tr(lang, "showdown.title", table=t.id, hand=1) in text, text
        assert t.hand_no == 1 and len(await w.store.export_hands(t.id)) == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


@pytest.mark.parametrize("where", ["channel", "guild"])
async def test_a_table_channel_the_bot_may_write_in_again_keeps_its_table(
    tmp_path: Path, where: str
) -> None:
    """R8.2a: a moderator locks the table's channel mid-hand (Send Messages denied: the
    table message's edit answers 403, code 50013), which queues the table's close; then
    unlocks it before the hand ends (CHANNEL_UPDATE). The close stood and the table closed
    after the hand, every stack cashed out, though the bot could write there again (on
    Telegram a bot let write again cancels it). Now the close is cancelled, the channel is
    told, and the next hand is dealt. The same when an admin takes Send Messages from
    @everyone in the whole guild and gives it back (GUILD_ROLE_UPDATE)."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None and t.hand_no == 1
        if where == "channel":
            await w.fake.lock_channel(CHANNEL_ID)
        else:
            await w.fake.lock_guild()
        first = ALICE if t.hand.to_act == (0,) else BOB
        await w.play_street(first, "dm")
        await w.fake.wait_for(lambda: t.closing)
        if where == "channel":
            await w.fake.lock_channel(CHANNEL_ID, locked=False)
        else:
            await w.fake.lock_guild(locked=False)
        await w.fake.wait_for(lambda: not t.closing)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await w.fake.wait_for(
            lambda: any(m.get("content") == notice for m in w.fake.channel_messages(CHANNEL_ID))
        )
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert t.id in w.service.tables and not t.closing
        assert await check_store(w.store) == []


THREAD_ID = 555_000_000_000_000_777


@contextlib.asynccontextmanager
async def dealt_in_a_thread(tmp_path: Path) -> AsyncIterator[tuple[World, FakeDiscord, LiveTable]]:
    """A world whose fake has the thread :data:`THREAD_ID`, where Alice opens a table and
    Alice and Bob are dealt in."""
    fake = FakeDiscord(TOKEN)
    fake.add_thread(THREAD_ID, CHANNEL_ID, "poker-thread")
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            reply = await w.slash(ALICE, "new", channel_id=THREAD_ID)
            assert reply["content"].startswith("Table #"), reply
            for u in (ALICE, BOB):
                await w.slash(u, "join", channel_id=THREAD_ID)
            for u in (ALICE, BOB):
                await w.slash(u, "ready", channel_id=THREAD_ID)
            t = w.table()
            assert t.chat_id == str(THREAD_ID) and t.hand is not None
            yield w, fake, t
    finally:
        await fake.stop()


@pytest.mark.parametrize("with_channel", [False, True])
async def test_a_deleted_table_thread_closes_its_table_after_the_hand(
    tmp_path: Path, with_channel: bool
) -> None:
    """A table opened in a thread; the thread is deleted mid-hand (THREAD_DELETE: discord.py
    tells ``on_raw_thread_delete``, not ``on_guild_channel_delete``), or its channel is
    (``with_channel``: Discord sends CHANNEL_DELETE for the channel only; discord.py
    dispatches the thread's deletion from its cache, and the close is queued at once, no
    write needed to find it out): the hand is finished in the DMs, settled, and the table
    closes with the stacks back (R8.2a). It used to go on dealing hands into a thread that
    no longer exists."""
    async with dealt_in_a_thread(tmp_path) as (w, fake, t):
        await fake.delete_channel(THREAD_ID, announce=not with_channel)
        if with_channel:
            await fake.delete_channel(CHANNEL_ID)
        await fake.wait_for(lambda: t.closing, timeout=5)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await fake.wait_for(lambda: t.id not in w.service.tables)
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


async def test_a_table_thread_archived_by_a_moderator_gets_its_table_message_again(
    tmp_path: Path,
) -> None:
    """A moderator archives the table's thread mid-hand (not locked): the next edit of the
    table message is refused (400, 50083) and the table message is posted anew, which
    unarchives the thread; the hand goes on there. The edit was only logged: the thread
    kept a table message frozen at the archive."""
    async with dealt_in_a_thread(tmp_path) as (w, fake, t):
        before = len(fake.channel_messages(THREAD_ID))
        fake.archive_thread(THREAD_ID)
        acting = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        await w.play_street(acting, "dm")
        assert fake.channels[THREAD_ID]["thread_metadata"]["archived"] is False
        posted = fake.channel_messages(THREAD_ID)[before:]
        tables = [m for m in posted if any(action_of(c) == "j" for c in components(m))]
        assert len(tables) == 1, posted  # the table message, posted anew
        other = BOB if acting is ALICE else ALICE
        assert f"▶ {other.name} to act" in fake.messages[int(tables[0]["id"])]["content"]
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        assert t.hand_no == 2 and not t.closing
        assert await check_store(w.store) == []


async def test_a_table_thread_archived_and_locked_closes_its_table_after_the_hand(
    tmp_path: Path,
) -> None:
    """The table's thread is archived and locked by a moderator mid-hand: the table message
    can be neither edited nor posted again (50083), as if the bot had lost the channel: the
    hand is finished in the DMs and the table closes with the stacks back (R8.2a)."""
    async with dealt_in_a_thread(tmp_path) as (w, fake, t):
        fake.archive_thread(THREAD_ID, locked=True)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await fake.wait_for(lambda: t.id not in w.service.tables)
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


async def test_a_table_thread_locked_then_reopened_keeps_its_table(tmp_path: Path) -> None:
    """R8.2a: a moderator archives and locks the table's thread mid-hand (50083 on every
    write), which queues the table's close, then reopens it before the hand ends
    (THREAD_UPDATE): the close is cancelled, the thread is told, the next hand is dealt."""
    async with dealt_in_a_thread(tmp_path) as (w, fake, t):
        assert t.hand is not None
        fake.archive_thread(THREAD_ID, locked=True)
        first = ALICE if t.hand.to_act == (0,) else BOB
        await w.play_street(first, "dm")
        await fake.wait_for(lambda: t.closing)
        await fake.reopen_thread(THREAD_ID)
        await fake.wait_for(lambda: not t.closing)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await fake.wait_for(
            lambda: any(m.get("content") == notice for m in fake.channel_messages(THREAD_ID))
        )
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert t.id in w.service.tables and not t.closing
        assert await check_store(w.store) == []


async def test_a_table_thread_writable_again_through_its_channel_keeps_its_table(
    tmp_path: Path,
) -> None:
    """R8.2a: a moderator denies Send Messages in Threads on the channel of the table's
    thread mid-hand (every write in the thread answers 403/50013), which queues the table's
    close, then gives it back before the hand ends. Discord tells only CHANNEL_UPDATE of the
    parent channel (the thread itself did not change): it was looked at as a channel alone
    (threads left to their own THREAD_UPDATE, which never came), so the close stood and the
    table closed after the hand though the bot could write in its thread again. Now the
    close is cancelled, the thread is told, and the next hand is dealt."""
    async with dealt_in_a_thread(tmp_path) as (w, fake, t):
        assert t.hand is not None
        await fake.lock_channel(CHANNEL_ID, threads=True)
        first = ALICE if t.hand.to_act == (0,) else BOB
        await w.play_street(first, "dm")
        await fake.wait_for(lambda: t.closing)
        await fake.lock_channel(CHANNEL_ID, locked=False, threads=True)
        await fake.wait_for(lambda: not t.closing)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await fake.wait_for(
            lambda: any(m.get("content") == notice for m in fake.channel_messages(THREAD_ID))
        )
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert t.id in w.service.tables and not t.closing
        assert await check_store(w.store) == []


async def test_a_table_channel_deleted_while_the_bot_was_away_closes_after_the_hand(
    tmp_path: Path,
) -> None:
    """The table's channel is deleted while the bot is disconnected (no CHANNEL_DELETE ever
    reaches it): the first write there answers 404 Unknown Channel (10003), and the table
    closes after the hand as when the event comes (R8.2a). It used to log a warning per
    write ("cannot re-post the table message") and deal the next hand into nowhere."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        await w.fake.delete_channel(CHANNEL_ID, announce=False)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        assert t.hand_no == 1
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


async def test_a_notice_refused_in_a_locked_channel_closes_the_table_without_a_hang(
    tmp_path: Path,
) -> None:
    """R8.2, R8.2a: the bot loses its permissions in the table's channel while the ready
    timer runs; when it ends, Carol is stood up, the hand is dealt and the "stood up"
    notice is refused (403 50013) in the table's sender. The table closes after the hand as
    usual. The presenter used to tell the service from inside that sender, and the close
    waited for the sender: both waited for each other, the table's messages (the players'
    DM hands) stopped for good and the hand could not be played."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB, CAROL):
            await w.press_lobby(u, "j")
        for u in (ALICE, BOB):
            await w.slash(u, "ready")
        t = w.table()
        assert t.ready_deadline is not None
        w.fake.locked_channels.add(CHANNEL_ID)
        async with t.lock:  # the ready timer ends now
            t.ready_deadline = time.time()
            await w.service.rt.arm(t)
        await w.fake.wait_for(lambda: t.closing)
        await asyncio.wait_for(w.service.rt.settled(t), 30)
        assert t.hand is not None and t.seat_of(str(CAROL.id)) is None
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        assert await balance_of(w, ALICE.id) + await balance_of(w, BOB.id) == 2000
        assert await check_store(w.store) == []


async def test_dms_closed_mid_hand_are_no_failure_and_my_cards_plays_on(tmp_path: Path) -> None:
    """Alice closes her DMs mid-hand (an edit of her DM hand answers 403, code 50007): she
    plays on with "🂠 My cards", the hand ends, and nothing is logged as a warning (a
    player's choice, as when her DMs were closed at the deal; it was logged as a failed
    edit)."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        w.fake.closed_dms.add(ALICE.id)
        await w.play_hand([ALICE, BOB], {ALICE.id: "ephemeral", BOB.id: "dm"})
        assert t.hand_no == 2
        assert str(ALICE.id) in w.adapter.presenter.closed_dms


async def test_a_429_on_the_table_message_is_waited_out_while_presses_are_answered(
    tmp_path: Path,
) -> None:
    """Discord rate-limits the channel (429 with ``retry_after``) as the table message is
    edited: discord.py waits it out and writes the edit (the table message is not left
    behind), while the presses at the table are answered meanwhile (their answers are the
    interactions' own responses, not channel writes)."""
    async with world(tmp_path) as w:
        w.fake.closed_dms |= {ALICE.id, BOB.id}  # the channel's messages are the only edits
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        first = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        table_mid = int(w.table_message()["id"])
        limited = {"message": "You are being rate limited.", "retry_after": 0.5, "global": False}
        path = f"/channels/{CHANNEL_ID}/messages/{table_mid}"
        done = len(w.fake.calls_to("PATCH", path))
        w.fake.fail_next["edit_message"] = [(429, limited)]
        before = set(w.fake.interactions)
        await w.play_street(first, "ephemeral")
        edits = w.fake.calls_to("PATCH", path)[done:]
        assert [c.status for c in edits][:2] == [429, 200], [c.status for c in edits]
        # the presses of the street were answered before the edit went through
        presses = [r for i, r in w.fake.interactions.items() if i not in before]
        assert len(presses) >= 6 and all(r.callback_at is not None for r in presses)
        assert min(r.callback_at or 0.0 for r in presses) < edits[1].at
        second = BOB if first is ALICE else ALICE
        assert f"▶ {second.name} to act" in w.fake.messages[table_mid]["content"]


async def test_ofc_new_where_the_bot_may_not_write_says_so(tmp_path: Path) -> None:
    """``/ofc new`` in a channel where the bot may not post (a slash command still reaches
    it): the table message is refused (403) and the table closes (R8.2a). The answer said
    "Table #1 is open." to the whole channel, where no table was to be found; it is an
    ephemeral notice that the bot may not write here."""
    async with world(tmp_path) as w:
        w.fake.locked_channels.add(CHANNEL_ID)
        reply = await w.slash(ALICE, "new")
        assert reply["flags"] & EPHEMERAL, reply
        assert "is open" not in reply["content"] and "could not be posted" in reply["content"]
        await w.fake.wait_for(lambda: not w.service.tables)
        reply = await w.slash(BOB, "new")  # Russian
        assert reply["flags"] & EPHEMERAL and "не удалось" in reply["content"], reply


async def test_a_stale_press_on_an_ephemeral_hand_shows_the_current_hand_there(
    tmp_path: Path,
) -> None:
    """An ephemeral "🂠 My cards" hand is kept up to date only while its interaction token
    lives (15 minutes). Past that it stopped following the game, and every press on it was
    refused "out of date" for good (a player who plays there sees no turn of theirs and times
    out). A press there that is out of date now shows the refusal with the current hand on
    that message, which follows the game again."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        first = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        second = BOB if first is ALICE else ALICE
        mine = await w.my_cards(first)
        custom_id = next(iter(w.buttons(mine).values()))  # a street-1 placement
        live = w.adapter.presenter.live_hand(str(first.id), t.id)
        assert live is not None and live.message_id == int(mine["id"])
        live.expires = 0.0  # its token is too old to edit it now
        await w.play_street(first, "dm")
        await w.play_street(second, "dm")
        seat = t.seat_of(str(first.id))
        assert seat is not None and t.hand.to_act == (seat.seat,)  # their move again
        assert w.fake.messages[int(mine["id"])]["content"] == mine["content"]  # left behind
        record = await w.press(first, mine, custom_id)
        assert record.callback_type == 7, w.notice(record)  # the pressed hand is edited
        shown = w.fake.messages[int(mine["id"])]
        assert shown["content"].startswith(
            (
                "This button is out of date: here are your cards as they are now.",
                "Кнопка устарела: вот ваши карты сейчас.",
            )
        )
        dm = w.dm(first)
        assert dm is not None and w.buttons(shown) == w.buttons(dm)  # street 2, as the DM
        live = w.adapter.presenter.live_hand(str(first.id), t.id)
        assert live is not None and live.message_id == int(mine["id"])  # followed again


async def test_my_cards_whose_dm_waits_on_a_429_holds_no_press(tmp_path: Path) -> None:
    """Both players' DMs failed at the deal (a 400, not closed DMs: they are tried again).
    The player to act opens "🂠 My cards" (their DM goes out). The other player presses it:
    answered with the ephemeral hand, their DM is tried again and gets a 429 (2 s). The
    player to act places a card meanwhile: both presses are answered before that DM goes
    through (it was sent holding the table, so the presses waited out the 429)."""
    async with world(tmp_path) as w:
        failed = {"message": "400: Bad Request", "code": 0}
        w.fake.fail_next["create_dm"] = [(400, failed), (400, failed)]
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        assert [s.private_ref for s in t.seats.values()] == [None, None]  # no DM hand
        acting = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        waiting = BOB if acting is ALICE else ALICE
        hand = await w.my_cards(acting)
        limited = {"message": "You are being rate limited.", "retry_after": 2.0, "global": False}
        w.fake.fail_next["create_dm"] = [(429, limited)]
        msg = w.table_message()
        cid = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
        mine = await w.fake.press(waiting, msg, cid)  # not settled: its DM waits
        await w.fake.wait_for(lambda: mine.answered)
        card, box = w.plan_street(acting, None)[0]
        want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
        place = await w.fake.press(acting, hand, w.buttons(hand)[want])
        await w.fake.wait_for(lambda: place.answered)
        assert place.callback_type == 7 and t.hand.pending(t.hand.to_act[0]), place
        created = await w.fake.wait_for(
            lambda: (
                [c for c in w.fake.calls_to("POST", "/users/@me/channels") if c.status == 200][1:]
                or None
            ),
        )
        assert mine.callback_at is not None and place.callback_at is not None
        assert max(mine.callback_at, place.callback_at) < created[0].at
        await w.settle(mine)
        await w.fake.wait_for(lambda: w.dm(waiting))  # the DM hand went out
        assert len(w.logged) == 2 and all("cannot DM" in m for m in w.logged), w.logged
        w.logged.clear()  # the two DMs refused at the deal, on purpose
        assert await check_store(w.store) == []


async def test_a_guild_that_adds_the_bot_back_after_the_close_sees_the_table_closed(
    tmp_path: Path,
) -> None:
    """R8.2a: the bot removed from the guild (GUILD_DELETE) closes the table at once between
    hands, and writes nothing there; invited back later (``on_guild_join``), the table
    message, which still showed the Join button, says the table is closed, no buttons."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        await w.press_lobby(ALICE, "j")
        t = next(iter(w.service.tables.values()))
        mid = int(w.table_message()["id"])
        await w.fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        assert components(w.fake.messages[mid])  # (nothing written while out)
        joined = {k: v for k, v in w.fake.guild_json().items() if k != "unavailable"}
        await w.fake.dispatch("GUILD_CREATE", joined)
        closed = tr("en", "reply.table_closed", table=t.id)
        await w.fake.wait_for(lambda: w.fake.messages[mid].get("content") == closed)
        assert components(w.fake.messages[mid]) == []
        await w.fake.wait_for(lambda: not w.service.rt.closing)  # (forgotten once written)
        assert await w.store.closed_snapshots() == []
