"""R8.2a (fixperm): a group's admins make it read-only (its default permissions: no member
may send messages) while the bot is an ordinary member there; Telegram sends the bot no
``my_chat_member`` for that, nor when they let members write again. The bot finds out from
its next send, refused with 400 "not enough rights to send text messages" (its edits still
go through: the group still reads the table): the table closes, after the hand in progress
if one is, every stack back.

When the group let its members write again, nothing told the bot: a close queued mid-hand
stood (the table closed, though the bot could write again), and a table closed meanwhile
kept, for good, the last screen its message showed. Now the bot looks at the group's
permissions (``getChat``) after such a refusal: once members may write again the close is
cancelled (the group told, hands go on), or the closed table's message says it is closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_telegram_chats import balances
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, World, world

#: the looks at the group's permissions, this often in these tests
LOOK = 0.2


def group_texts(w: World, since: int) -> list[str]:
    """What the bot wrote to the group (sent or edited) since the call ``since``."""
    return [
        str(c.params.get("text", ""))
        for c in w.fake.calls[since:]
        if c.method in ("sendMessage", "editMessageText")
        and int(c.params.get("chat_id") or 0) == GROUP_ID
    ]


async def test_r8_2a_a_group_made_read_only_in_a_hand_closes_after_it_and_says_so_once_writable(
    tmp_path: Path,
) -> None:
    """Hand 2 under way, the group is made read-only: the table message's edits still
    reach the group, which reads them, so the hand is played out there; the next table
    message, sent after its showdown, is refused, so the table closes at once, hand 3 never
    dealt, each player told in private, every stack back. The group lets members write
    again: it is told that the table is closed (the closed table's message waited for it),
    and a new one may open there."""
    async with world(tmp_path, next_hand_delay=0.3) as w:
        w.adapter.rights_look_seconds = LOOK
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        await w.settle()
        w.fake.read_only.add(GROUP_ID)
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        assert t.hand_no == 2 and len(await w.store.hand_history(first, 5)) == 2
        totals = await balances(w)
        assert sum(totals.values()) == 2000, totals
        gone = {ALICE.id: "en", BOB.id: "ru"}
        for uid, lang in gone.items():
            texts = [
                str(c.params.get("text", ""))
                for c in w.fake.calls
                if c.method in ("sendMessage", "editMessageText")
                and int(c.params.get("chat_id") or 0) == uid
            ]
            assert any(x.startswith(tr(lang, "private.chat_gone", table=t.id)) for x in texts)
        closed = tr("en", "reply.table_closed", table=t.id)
        since = len(w.fake.calls)
        await asyncio.sleep(3 * LOOK)
        assert closed not in group_texts(w, since)  # (still read-only)
        w.fake.read_only.discard(GROUP_ID)
        await w.fake.wait_for(lambda: closed in group_texts(w, since))
        # (the closed table's record is cleared once the platform has taken that write)
        for _ in range(100):
            if await w.store.closed_snapshots() == []:
                break
            await asyncio.sleep(0.05)
        assert await w.store.closed_snapshots() == []
        await w.say(ALICE, "/newtable")
        await w.fake.wait_for(lambda: w.service.tables)
        assert await check_store(w.store) == []


async def test_r8_2a_a_group_read_only_mid_hand_then_writable_again_keeps_its_table(
    tmp_path: Path,
) -> None:
    """Mid-hand the group is made read-only; Carol's /join is answered in the group,
    refused: the table's close is queued. Before the hand ends the group lets members write
    again (no update): the close is cancelled, the group told, and hand 2 is dealt."""
    async with world(tmp_path, next_hand_delay=0.3) as w:
        w.adapter.rights_look_seconds = LOOK
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        w.fake.read_only.add(GROUP_ID)
        since = len(w.fake.calls)
        await w.fake.send_text(CAROL, GROUP_ID, "/join")
        await w.fake.wait_for(lambda: t.closing)
        assert t.removal_close and t.hand is not None
        await asyncio.sleep(3 * LOOK)
        assert t.closing  # (still read-only)
        w.fake.read_only.discard(GROUP_ID)
        await w.fake.wait_for(lambda: not t.closing)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await w.fake.wait_for(lambda: notice in group_texts(w, since))
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert t.id in w.service.tables and not t.closing
        assert await check_store(w.store) == []


async def test_r8_2a_a_group_still_read_only_closes_its_table_after_the_hand(
    tmp_path: Path,
) -> None:
    """The group stays read-only: the looks change nothing, the hand is played out and the
    table closes after it, every stack back."""
    async with world(tmp_path) as w:
        w.adapter.rights_look_seconds = LOOK
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        first = t.seats[0].player_id
        w.fake.read_only.add(GROUP_ID)
        await w.fake.send_text(CAROL, GROUP_ID, "/join")
        await w.fake.wait_for(lambda: t.closing)
        await asyncio.sleep(3 * LOOK)
        await play_hand(w, [ALICE, BOB])
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.settle()
        assert t.hand_no == 1 and len(await w.store.hand_history(first, 5)) == 1
        totals = await balances(w)
        assert totals["Alice"] + totals["Bob"] == 2000 and totals["Carol"] == 1000, totals
        assert w.service.tables == {}
        assert await check_store(w.store) == []


async def test_r8_2a_a_restart_in_a_read_only_group_still_sees_it_writable_again(
    tmp_path: Path, tg_api: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The close queued by the read-only group's refusal is restored at a restart (the
    group still read-only: it stands; the restart's first send there is refused again,
    which starts the restarted bot's looks); the group then lets its members write: the
    close is cancelled."""
    db = tmp_path / "ofc.sqlite3"
    monkeypatch.setattr("bot.telegram.adapter.RIGHTS_LOOK_SECONDS", LOOK)
    async with world(tmp_path, fake=tg_api, db=db) as w:
        tg_api.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        tg_api.read_only.add(GROUP_ID)
        await tg_api.send_text(CAROL, GROUP_ID, "/join")
        await tg_api.wait_for(lambda: t.closing)
    async with world(tmp_path, fake=tg_api, db=db) as w:
        t = next(iter(w.service.tables.values()))
        assert t.closing and t.removal_close and t.hand is not None
        since = len(tg_api.calls)
        await asyncio.sleep(3 * LOOK)
        assert t.closing  # (still read-only)
        tg_api.read_only.discard(GROUP_ID)
        await tg_api.wait_for(lambda: not t.closing)
        notice = tr("en", "lobby.close_cancelled", table=t.id)
        await tg_api.wait_for(lambda: notice in group_texts(w, since))
        assert await check_store(w.store) == []


async def test_a_write_refused_while_the_bot_stops_starts_no_looks(tmp_path: Path) -> None:
    """brk37: the stop cancels the looks at the groups' permissions; a write refused after
    that (a reply of an update still handled, a table's last message) started a new look,
    left running past the stop (its getChat calls to a bot shut down, a chat_back on a
    stopped service). None starts once the bot stops."""
    async with world(tmp_path) as w:
        w.adapter.rights_look_seconds = LOOK
        await w.adapter.stop()
        w.adapter._watch_rights(str(GROUP_ID))
        assert w.adapter._rights_looks == {}


async def test_r8_2a_a_read_only_group_upgraded_to_a_supergroup_is_looked_at_there(
    tmp_path: Path,
) -> None:
    """brk37: the looks at a read-only group's permissions started (its table's close
    queued mid-hand); the group is then upgraded to a supergroup, its table moved there.
    The looks asked the old group's id for an hour, each refused "upgraded to a
    supergroup" (taken for no answer), so the supergroup letting members write again never
    cancelled the close. They follow the table to the supergroup."""
    new_group = -100781
    async with world(tmp_path, next_hand_delay=0.3) as w:
        w.adapter.rights_look_seconds = LOOK
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        w.fake.read_only.update({GROUP_ID, new_group})
        await w.fake.send_text(CAROL, GROUP_ID, "/join")
        await w.fake.wait_for(lambda: t.closing)
        await w.fake.migrate_group(GROUP_ID, new_group)
        await w.fake.wait_for(lambda: t.chat_id == str(new_group))
        await asyncio.sleep(3 * LOOK)
        assert t.closing and t.hand is not None  # (still read-only)
        since = len(w.fake.calls)
        w.fake.read_only.discard(new_group)
        await w.fake.wait_for(lambda: not t.closing, timeout=20 * LOOK)
        asked = [int(c.params.get("chat_id") or 0) for c in w.fake.calls[since:]]
        assert GROUP_ID not in asked
        assert await check_store(w.store) == []
