"""R8.2a (brktg): a group whose default permissions forbid members to send messages (an admin
made it read-only; Telegram tells the bot nothing of it) while its table's close waits for
the hand in progress because the bot was muted. The bot's own restriction lifted (a
``my_chat_member`` update, status ``member``), running out by itself, or found lifted at a
restart, cancelled that close although the bot, no admin there, could still write nothing:
"the close is cancelled" was sent (refused), and only that refusal queued the close again.
Now the bot asks the group's permissions (``getChat``) before it takes itself back: the
close stands, nothing is sent, the hand ends and the table closes with every stack back."""

from __future__ import annotations

import time
from pathlib import Path

from bot.telegram.fake_api import ApiCall, FakeTelegram
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_telegram_chats import closed_after_one_hand
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world


def group_sends(w: World) -> list[ApiCall]:
    return [
        c
        for c in w.fake.calls
        if c.method.startswith("send") and int(c.params.get("chat_id") or 0) == GROUP_ID
    ]


def asked_permissions(w: World, since: int) -> bool:
    return any(
        c.method == "getChat" and int(c.params.get("chat_id") or 0) == GROUP_ID
        for c in w.fake.calls[since:]
    )


async def muted_in_a_read_only_group(w: World, until: int = 0) -> int:
    """Alice and Bob play hand 1; an admin mutes the bot (the close is queued), then makes
    the whole group read-only. Returns how many group sends were made so far."""
    w.fake.started_users.update({ALICE.id, BOB.id})
    await seat_everyone(w, [ALICE, BOB])
    t = next(iter(w.service.tables.values()))
    assert t.hand is not None and t.hand_no == 1
    await w.fake.restrict_bot(GROUP_ID, by=ALICE, until=until)
    await w.fake.wait_for(lambda: t.closing)
    await w.settle()
    w.fake.read_only.add(GROUP_ID)
    return len(group_sends(w))


async def closes_after_the_hand(w: World, sends: int) -> None:
    t = next(iter(w.service.tables.values()))
    first = t.seats[0].player_id
    assert t.closing and t.removal_close
    notice = tr("en", "lobby.close_cancelled", table=t.id)
    assert notice not in [c.params.get("text") for c in group_sends(w)[sends:]]
    await play_hand(w, [ALICE, BOB])
    await w.fake.wait_for(lambda: t.id not in w.service.tables)
    await w.settle()
    await closed_after_one_hand(w, first)


async def test_r8_2a_a_lifted_mute_in_a_read_only_group_keeps_the_close(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        sends = await muted_in_a_read_only_group(w)
        since = len(w.fake.calls)
        await w.fake.add_bot(GROUP_ID, by=ALICE)  # (the bot's restriction lifted)
        await w.fake.wait_for(lambda: asked_permissions(w, since) or len(group_sends(w)) > sends)
        await w.settle()
        await closes_after_the_hand(w, sends)


async def test_r8_2a_a_mute_that_runs_out_in_a_read_only_group_keeps_the_close(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        since = len(w.fake.calls)
        sends = await muted_in_a_read_only_group(w, until=int(time.time()) + 2)
        await w.fake.wait_for(
            lambda: asked_permissions(w, since) or len(group_sends(w)) > sends, timeout=15
        )
        await w.settle()
        await closes_after_the_hand(w, sends)


async def test_r8_2a_a_restart_in_a_read_only_group_keeps_the_close(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, fake=tg_api, db=db) as w:
        sends = await muted_in_a_read_only_group(w)
    tg_api.muted_in.discard(GROUP_ID)  # lifted while the bot was stopped: no update
    since = len(tg_api.calls)
    async with world(tmp_path, fake=tg_api, db=db) as w:
        await w.fake.wait_for(lambda: asked_permissions(w, since) or len(group_sends(w)) > sends)
        await w.settle()
        await closes_after_the_hand(w, sends)


async def test_the_bot_let_back_in_a_group_that_lets_members_write_cancels_the_close(
    tmp_path: Path,
) -> None:
    """The other side: the group lets its members write, so the lifted mute cancels the
    close (the group is told) and hand 2 is dealt."""
    async with world(tmp_path) as w:
        await muted_in_a_read_only_group(w)
        w.fake.read_only.discard(GROUP_ID)
        t = next(iter(w.service.tables.values()))
        await w.fake.add_bot(GROUP_ID, by=ALICE)
        await w.fake.wait_for(lambda: not t.closing)
        await w.settle()
        assert tr("en", "lobby.close_cancelled", table=t.id) in w.group_texts()
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id in w.service.tables and t.hand_no == 2
        assert await check_store(w.store) == []
