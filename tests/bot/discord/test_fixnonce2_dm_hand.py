"""fixnonce2: a Discord bot killed between posting a player's new DM hand and saving its id
left the player two hand messages with buttons after the restart: the first post carried a
random nonce nobody kept, the restarted bot found no hand message in the snapshot and posted
a second one; the first one's buttons answered "out of date". Now a step that posts a hand
anew commits a pending ref for it first (as the table message's, fixnonce), the post's nonce
derives from it, and the restarted bot posts under that ref again: Discord (``enforce_nonce``)
returns the hand already posted, which is written as the hand is now.

The crash is the database at the moment of the post: a copy of the SQLite file taken as the
DM hand goes out, after the step's commit and before any later save; the restarted bot runs
on that copy against the same fake Discord (it keeps the messages and the nonces)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.discord.presenter import DiscordPresenter
from bot.model import PENDING_PREFIX, ChatRef
from bot.service.runtime import TransitionFailed
from storage.api import StorageError, lease_key
from tests.bot.discord.crash_copy import discord_and_crash_copy, restarted, saved_ref
from tests.bot.discord.dc_world import ALICE, BOB, World, world
from tests.bot.discord.shard_world import guild_on_shard, two_workers, until
from tests.bot.discord.test_discord_delivery import joined
from tests.fakes.discord_api import CHANNEL_ID, FakeDiscord, FakeUser

GUILD = guild_on_shard(1)
CHAT = ChatRef("discord", str(GUILD), str(CHANNEL_ID), "")
KEY = lease_key("discord", str(CHANNEL_ID))
TTL = 3.0  # (as tests/bot/discord/test_takeover_table_message.py)


def _hands(fake: FakeDiscord, user: FakeUser) -> list[dict[str, Any]]:
    """``user``'s DM hand messages (a turn ping has two lines, a hand written as moved one)."""
    return [m for m in fake.dm_messages(user.id) if len(m["content"].splitlines()) > 2]


def _table_messages(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The channel's messages with buttons (table messages: a notice has none)."""
    return [m for m in fake.channel_messages(CHANNEL_ID) if m.get("components")]


def _crash_copy_at_dm_post(
    monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord, db: Path, copy: Path, user: FakeUser
) -> list[int]:
    """Copy ``db`` to ``copy`` as the first new message in ``user``'s DMs goes
    out (what a SIGKILL then leaves on disk); returns the list the posts land in."""
    real = DiscordPresenter._send
    seen: list[int] = []

    async def send(
        self: DiscordPresenter, channel_id: int, screen: Any, nonce: Any = None, **kw: Any
    ) -> Any:
        if channel_id == fake.dm_channels.get(user.id):
            seen.append(channel_id)
            if len(seen) == 1:
                with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
                    src.backup(dst)
        return await real(self, channel_id, screen, nonce, **kw)

    monkeypatch.setattr(DiscordPresenter, "_send", send)
    return seen


async def _dealt(w: World) -> None:
    """Alice and Bob seated, Alice ready; Bob's ready deals the hand (their DM hands)."""
    await joined(w)
    await w.slash(BOB, "ready")
    await w.service.rt.settled(w.table())
    await w.adapter.presenter.flush()
    assert w.table().hand is not None


async def _play_first_street(w: World) -> None:
    """Both play the first street, each on their DM hand (every press an edit of it, callback
    type 7: :meth:`World.play_street`)."""
    t = w.table()
    for _ in range(2):
        assert t.hand is not None and t.hand.to_act
        first = t.seats[t.hand.to_act[0]].user_id
        await w.play_street(ALICE if first == str(ALICE.id) else BOB, "dm")
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
    hand = t.hand
    assert hand is not None
    assert [hand.board_of(s.seat).count for s in t.seats.values()] == [5, 5]


async def test_a_crash_between_a_new_dm_hand_and_its_save_leaves_one_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's ready deals the hand; the bot dies as Bob's DM hand is posted, before its id
    is saved. Restarted on that database, the bot posted Bob a second hand: two DM hand
    messages with buttons, the first answering "out of date". Now Bob has one, the first,
    and the hand is played on it."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db) as w:
            seen = _crash_copy_at_dm_post(monkeypatch, fake, db, crashed, BOB)
            await _dealt(w)
        assert len(seen) == 1 and crashed.exists()
        [first] = _hands(fake, BOB)
        saved = saved_ref(crashed, BOB)
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed) as (w, t):
            assert [m["id"] for m in _hands(fake, BOB)] == [first["id"]]  # no second hand
            seat = t.seat_of(str(BOB.id))
            assert seat is not None and seat.private_ref == (
                f"{fake.dm_channels[BOB.id]}:{first['id']}"
            )
            assert len(_hands(fake, ALICE)) == 1
            await _play_first_street(w)  # the presses on it work (each an edit in place)
            assert [m["id"] for m in _hands(fake, BOB)] == [first["id"]]
        # the crash left the ref committed before the post (checked last: it is the fix)
        assert str(saved).startswith(PENDING_PREFIX)


async def test_a_crash_between_a_restart_s_dm_hand_and_its_save_leaves_one_live_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart posts the hands anew (the old ones written as moved); it dies as Bob's
    is posted, before its id is saved. The next start posted Bob a third hand beside the
    second, both with buttons; now Discord returns the second, which Bob plays on."""
    async with discord_and_crash_copy(tmp_path) as (fake, db, crashed):
        async with world(tmp_path, fake=fake, db=db) as w:
            await _dealt(w)
        [old] = _hands(fake, BOB)
        seen = _crash_copy_at_dm_post(monkeypatch, fake, db, crashed, BOB)
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.service.rt.settled(w.table())
            await w.adapter.presenter.flush()
        assert len(seen) == 1
        [new] = _hands(fake, BOB)  # (the old one written as moved, its buttons gone)
        assert new["id"] != old["id"]
        saved = saved_ref(crashed, BOB)
        monkeypatch.undo()
        async with restarted(tmp_path, fake, crashed) as (w, _):
            assert [m["id"] for m in _hands(fake, BOB)] == [new["id"]]  # no third
            await _play_first_street(w)
            assert [m["id"] for m in _hands(fake, BOB)] == [new["id"]]
        assert str(saved).startswith(PENDING_PREFIX)


async def test_a_refused_step_drops_the_hand_ref_it_committed_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step that would post Bob's hand anew gives it a pending ref in its commit; storage
    refuses the step: the rollback drops that ref (never posted), as the table message's, so
    Bob's seat has no hand message, not one that never comes."""
    async with world(tmp_path) as w:
        await _dealt(w)
        t = w.table()
        rt = w.service.rt
        await rt.settled(t)
        seat = t.seat_of(str(BOB.id))
        assert seat is not None
        seat.private_ref = None  # (a hand to be posted anew)

        async def refuse(*args: Any, **kw: Any) -> None:
            raise StorageError("refused")

        monkeypatch.setattr(rt.store, "commit", refuse)
        with pytest.raises(TransitionFailed):
            async with t.lock, rt.transition(t) as tx:
                tx.show.add(seat.seat)
        now = t.seat_of(str(BOB.id))
        assert now is not None and now.private_ref is None


async def test_a_table_message_re_posted_after_a_delete_is_returned_to_a_takeover(
    tmp_path: Path,
) -> None:
    """Someone deletes the table message; Bob's join re-posts it (w1), and w1 dies before
    the table saved the new message's id (the service never told: its snapshot names the
    deleted one). w0 takes the table over and writes over the deleted message: its re-post
    carried a new random nonce, so the channel had two table messages with buttons (w1's
    answering "out of date"); its nonce now comes from the deleted message, the same in
    every worker, so Discord returns w1's re-post, which is written and stays the one."""
    async with two_workers(tmp_path / "ofc.sqlite3", GUILD, ttl=TTL) as (fake, w0, w1):
        play = w1.world(fake)
        await play.slash(ALICE, "new")
        await play.press_lobby(ALICE, "j")
        t = play.table()
        await w1.service.rt.settled(t)
        await w1.adapter.presenter.flush()
        await w1.service.rt.drain()
        deleted = t.group_ref
        assert deleted is not None and deleted.isdigit()
        fake.deleted.add(int(deleted))  # (someone deleted it)
        w1.adapter.presenter.on_posted = None  # (w1 dies before the new id is saved)
        await play.slash(BOB, "join")
        await w1.service.rt.settled(t)
        await w1.adapter.presenter.flush()
        [reposted] = _table_messages(fake)
        await w1.service.rt.drain()
        assert t.group_ref == deleted  # (not told: the snapshot names the deleted one)

        await w1.kill()
        await until(lambda: w0.worker.holds(KEY), 12 * TTL, "w0 serves the table")
        moved = w0.service.table_in(CHAT)
        assert moved is not None
        await w0.service.rt.settled(moved)
        await w0.adapter.presenter.flush()
        assert [m["id"] for m in _table_messages(fake)] == [reposted["id"]]  # no second
        assert moved.group_ref == str(reposted["id"])
        play = w0.world(fake)
        await play.press_lobby(ALICE, "r")  # its buttons work through w0
        await w0.service.rt.settled(moved)
        seat = moved.seat_of(str(ALICE.id))
        assert seat is not None and seat.ready
        assert [m["id"] for m in _table_messages(fake)] == [reposted["id"]]
