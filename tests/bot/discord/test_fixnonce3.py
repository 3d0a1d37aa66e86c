"""fixnonce3: the Discord posts fixnonce and fixnonce2 left with a random nonce, so a bot
killed between the post and the save of the message's id posted a second message after the
restart (Discord's ``enforce_nonce`` returns a message only for a nonce used again):

* a hand posted anew outside a table step: "My cards" once a player's DMs are open again,
  or the hand posted anew after the player deleted theirs (``_repost_private``);
* the table message a restart posts anew after a re-post following a delete (the snapshot
  still named the deleted message);
* a closing step's private message to a player who had no hand message (none minted);
* a closing step's private message to a player whose hand was being posted (its pending ref
  dropped from what the close owed: the restart posted a new message instead of writing
  over the hand).

The crash is the database at a moment (fixnonce's harness): a copy of the SQLite file taken
as the post goes out (or as the close commits); the restarted bot runs on that copy against
the same fake Discord, which keeps the messages and the nonces."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.discord.presenter import ephemeral_ref
from bot.model import PENDING_PREFIX
from storage.sqlite import SqliteStore
from tests.bot.discord.crash_copy import (
    discord_and_crash_copy,
    restarted,
    saved_ref,
    saved_snapshot,
)
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_discord_delivery import joined
from tests.bot.discord.test_fixnonce2_dm_hand import _crash_copy_at_dm_post, _dealt, _hands
from tests.bot.discord.test_fixnonce_table_message import (
    _crash_copy_at_table_post,
    _with_buttons,
)
from tests.fakes.discord_api import CHANNEL_ID, ApiCall, FakeDiscord


async def _restarted_on(tmp_path: Path, fake: FakeDiscord, db: Path) -> None:
    """Start the bot on ``db``, let it send what it owes, stop it."""
    async with world(tmp_path, fake=fake, db=db) as w:
        for t in [*w.service.tables.values(), *w.service.rt.closing.values()]:
            await w.service.rt.settled(t)
        await w.service.rt.drain()
        await w.adapter.presenter.flush()


async def test_a_hand_posted_by_my_cards_and_cut_off_by_a_crash_is_posted_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's DMs are closed at the deal (no hand message); he opens them and presses "My
    cards", which posts his DM hand anew outside any step. The bot dies as it goes out.
    Restarted, the bot posted him a second hand (the first one's nonce random, its ref never
    saved); now the ref is saved before the post and the restart gets the first one back."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db) as w:
            fake.closed_dms.add(BOB.id)
            await _dealt(w)
            t = w.table()
            seat = t.seat_of(str(BOB.id))
            assert seat is not None and seat.private_ref is None
            fake.closed_dms.discard(BOB.id)
            w.adapter.presenter.user_seen(str(BOB.id), in_dm=True)  # (DMs tried again)
            seen = _crash_copy_at_dm_post(monkeypatch, fake, db, crashed, BOB)
            await w.my_cards(BOB)
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
        assert len(seen) == 1 and crashed.exists()
        [hand] = _hands(fake, BOB)
        saved = saved_ref(crashed, BOB)
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed) as (w, t):
            assert [m["id"] for m in _hands(fake, BOB)] == [hand["id"]]  # no second hand
            seat = t.seat_of(str(BOB.id))
            assert seat is not None
            assert seat.private_ref == f"{fake.dm_channels[BOB.id]}:{hand['id']}"
        assert str(saved).startswith(PENDING_PREFIX)


async def test_a_hand_posted_again_after_a_delete_and_cut_off_by_a_crash_is_posted_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's hand message is deleted; the service posts it anew (``_repost_private``, through
    ``private_deleted``: the Discord adapter never calls it, Discord letting nobody delete
    the bot's DMs, but the service's path is the platforms'). The bot dies as it goes out;
    the restart posted a second one; now Discord returns the first."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db) as w:
            await _dealt(w)
            t = w.table()
            seat = t.seat_of(str(BOB.id))
            assert seat is not None and seat.private_ref is not None
            [old] = _hands(fake, BOB)
            fake.deleted.add(int(old["id"]))  # (deleted by the player)
            seen = _crash_copy_at_dm_post(monkeypatch, fake, db, crashed, BOB)
            await w.service.private_deleted("discord", str(BOB.id), seat.private_ref)
            await w.adapter.presenter.flush()
        assert len(seen) == 1 and crashed.exists()
        [hand] = _hands(fake, BOB)
        saved = saved_ref(crashed, BOB)
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed) as _:
            assert [m["id"] for m in _hands(fake, BOB)] == [hand["id"]]  # no second hand
        assert str(saved).startswith(PENDING_PREFIX)


async def test_a_table_message_re_posted_after_a_delete_is_the_restart_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone deletes the table message; Bob's join re-posts it, and the bot dies before the
    new id is saved (the snapshot names the deleted message). The restart posted the table
    message anew under a random nonce: two table messages with buttons, the re-post's
    answering "out of date" once the table moved on. Now the restart posts under a ref
    derived from the deleted message, whose nonce is the re-post's: Discord returns it."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.slash(ALICE, "new")
            await w.press_lobby(ALICE, "j")
            t = w.table()
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            deleted = t.group_ref
            assert deleted is not None and deleted.isdigit()
            fake.deleted.add(int(deleted))  # (someone deleted it)
            seen = _crash_copy_at_table_post(monkeypatch, db, crashed, posts=1)
            await w.slash(BOB, "join")
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
        assert len(seen) == 1 and crashed.exists()
        [reposted] = _with_buttons(fake)
        assert saved_snapshot(crashed)["group_ref"] == deleted  # (the re-post's id never saved)
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed) as (w, t):
            assert [m["id"] for m in _with_buttons(fake)] == [reposted["id"]]  # no second
            assert t.group_ref == str(reposted["id"])
            await w.press_lobby(BOB, "r")  # its buttons are the table's
            await w.service.rt.settled(t)
            seat = t.seat_of(str(BOB.id))
            assert seat is not None and seat.ready
            assert [m["id"] for m in _with_buttons(fake)] == [reposted["id"]]


async def test_a_closing_step_s_new_dm_cut_off_by_a_crash_is_posted_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice is Ready in the lobby (no hand, no DM yet); the bot loses the channel, the table
    closes and Alice is told in her DMs (R8.2a), a new DM. The bot dies as it goes out.
    The restart sends what the closed table owes: it posted Alice a second DM (the close
    minted no ref, the nonce was random); now the close commits a pending ref for it, and
    Discord returns the first."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db) as w:
            await joined(w)
            t = w.table()
            assert t.hand is None and fake.dm_messages(ALICE.id) == []
            seen = _crash_copy_at_dm_post(monkeypatch, fake, db, crashed, ALICE)
            await fake.lock_channel(CHANNEL_ID)
            await fake.wait_for(lambda: t.id not in w.service.tables)
            await fake.wait_for(lambda: fake.dm_messages(ALICE.id))
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
        assert len(seen) == 1 and crashed.exists()
        [told] = fake.dm_messages(ALICE.id)
        monkeypatch.undo()
        await _restarted_on(tmp_path, fake, crashed)
        assert [m["id"] for m in fake.dm_messages(ALICE.id)] == [told["id"]]  # no second


async def test_a_close_while_a_hand_is_being_posted_writes_over_it_after_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord refuses Bob's DMs for a while (503) as the deal posts his hand: his seat holds
    the pending ref its step committed for the whole hand (posted later; he plays on "My
    cards"). An admin's close ends the table with that hand (its showdown step closes it,
    owing Bob his final board in private). The bot dies just after that commit; Discord then
    takes the hand. The restart's close had dropped the pending ref from what it owed Bob and
    posted him a new message below his hand; now it posts under that ref and Discord returns
    the hand: one message."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db, next_hand_delay=30.0) as w:
            presenter = w.adapter.presenter
            presenter.edit_retries = (0.2,)

            async def settle(record: Any) -> Any:  # (not waiting for Bob's hand, posted later)
                await fake.wait_for(lambda: record.answered)
                await w.adapter.idle()
                while rest := [
                    task
                    for key, task in presenter._writers.items()
                    if not (isinstance(key, tuple) and key[0] == "post") and not task.done()
                ]:
                    await asyncio.gather(*rest, return_exceptions=True)
                return record

            monkeypatch.setattr(w, "settle", settle)
            await joined(w)

            def bob_dm(name: str, call: ApiCall) -> bool:
                dm = fake.dm_channels.get(BOB.id)
                return name == "create_message" and call.path == f"/channels/{dm}/messages"

            fake.outage(bob_dm)
            await w.slash(BOB, "ready")  # the deal: Bob's hand refused, posted later
            t = w.table()
            assert t.hand is not None
            seat = t.seat_of(str(BOB.id))
            assert seat is not None and str(seat.private_ref).startswith(PENDING_PREFIX)
            await w.slash(ALICE, "close", admin=True)  # after this hand
            assert t.closing

            real = SqliteStore.commit
            copies: list[bool] = []

            async def commit(self: SqliteStore, *args: Any, **kw: Any) -> Any:
                done = await real(self, *args, **kw)
                if kw.get("close") and not copies:
                    copies.append(True)
                    with sqlite3.connect(db) as src, sqlite3.connect(crashed) as dst:
                        src.backup(dst)
                return done

            monkeypatch.setattr(SqliteStore, "commit", commit)
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "ephemeral"})
            await fake.wait_for(lambda: t.id not in w.service.tables)
            assert copies
            await w.service.rt.settled(t)
            assert fake.dm_messages(BOB.id) == []
            fake.recover()
            await fake.wait_for(lambda: fake.dm_messages(BOB.id))
            await presenter.flush()
        [hand] = fake.dm_messages(BOB.id)
        closed = hand["content"]
        monkeypatch.undo()
        await _restarted_on(tmp_path, fake, crashed)
        assert [m["id"] for m in fake.dm_messages(BOB.id)] == [hand["id"]]  # no second
        assert fake.messages[int(hand["id"])]["content"] == closed


async def test_a_closing_step_s_dm_to_a_seat_known_by_its_my_cards_view_is_posted_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the test above, Alice's seat naming her "🂠 My cards" view (an ephemeral message,
    :data:`~bot.model.HAND_VIEW_PREFIX`) as her hand message: nothing a DM can be written
    over. The close owed her a DM under a pending ref it committed, but sent it under her
    seat's ref, with a random nonce: the restart, sending under the committed ref, posted
    her a second DM. It is sent under the committed ref, and Discord returns the first."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db) as w:
            await joined(w)
            t = w.table()
            seat = t.seat_of(str(ALICE.id))
            assert seat is not None and seat.private_ref is None and t.hand is None
            seat.private_ref = ephemeral_ref(987654321)
            seen = _crash_copy_at_dm_post(monkeypatch, fake, db, crashed, ALICE)
            await fake.lock_channel(CHANNEL_ID)
            await fake.wait_for(lambda: t.id not in w.service.tables)
            await fake.wait_for(lambda: fake.dm_messages(ALICE.id))
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
        assert len(seen) == 1 and crashed.exists()
        owed = saved_snapshot(crashed)["private_outbox"]
        assert [str(i["ref"]).startswith(PENDING_PREFIX) for i in owed] == [True]
        [told] = fake.dm_messages(ALICE.id)
        monkeypatch.undo()
        await _restarted_on(tmp_path, fake, crashed)
        assert [m["id"] for m in fake.dm_messages(ALICE.id)] == [told["id"]]  # no second
