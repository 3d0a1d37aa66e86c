"""A press on a DM hand reaches the worker that holds its table (issue 14: "updates for a
chat reach the worker that holds its table"). Discord gives every DM interaction to shard 0
(its gateway docs: direct messages are only sent to shard 0; the fake does the same), so a
player of a table in a guild of shard 1 presses their DM hand on shard 0's worker. Two
workers on one database, real discord.py against the fake Discord: w0 runs shard 0, w1 runs
shard 1 and holds the table.

- w0 defers the interaction at once (a deferred update, within Discord's 3 s) and forwards
  the press to w1 over the workers' internal endpoint; w1 runs it through its own adapter and
  service and edits the DM hand (REST, as every hand): the street is played through w0,
  the table never moves;
- a refused press (a stale hand: R3.5's version) gets w1's notice as w0's ephemeral
  follow-up;
- when w1 is gone (killed, its lease not yet expired) the forwarded press is answered with
  "press again", and once w0 has taken shard 1 and the table over it plays the DM press
  itself."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bot.model import ChatRef
from bot.texts import tr
from storage.api import lease_key
from tests.bot.discord.dc_world import ALICE, BOB, World, cards_in
from tests.bot.discord.shard_world import Node, guild_on_shard, two_workers, until
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import (
    CHANNEL_ID,
    EPHEMERAL,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
)

GUILD = guild_on_shard(1)
CHAT = ChatRef("discord", str(GUILD), str(CHANNEL_ID), "")
KEY = lease_key("discord", str(CHANNEL_ID))
# lease time: the press made after w1 is killed must be answered before w1's lease runs
# out (a renewal may be a quarter of it old): 1 s left a loaded machine 0.75 s for it
TTL = 2.5


async def _dm_press(
    fake: FakeDiscord, receiver: Node, holder: Node, user: FakeUser, msg: dict[str, Any], cid: str
) -> FakeInteraction:
    """``user`` presses ``cid`` on their DM hand ``msg`` (a copy, possibly stale); returns
    once ``receiver`` (shard 0's worker, which Discord gives every DM to) is done with it
    and ``holder`` wrote what it queued."""
    record = await fake.press(user, msg, cid)
    await fake.wait_for(lambda: record.answered)
    await receiver.adapter.idle()  # the forward came back: the holder answered
    await holder.adapter.presenter.flush()
    return record


def _notice(fake: FakeDiscord, record: FakeInteraction) -> str:
    """The ephemeral follow-up of a deferred interaction (the only message it created)."""
    assert len(record.followups) == 1 and len(record.messages) == 1, record
    msg = fake.messages[record.messages[0]]
    assert msg["flags"] & EPHEMERAL
    return str(msg["content"])


async def test_r14_a_dm_hand_press_is_played_by_the_worker_holding_the_table(
    tmp_path: Path,
) -> None:
    async with two_workers(tmp_path / "ofc.sqlite3", GUILD, ttl=TTL) as (fake, w0, w1):
        play = w1.world(fake)
        await seat_everyone(play, [ALICE, BOB])
        t = play.table()
        assert t.hand is not None
        seat = t.hand.to_act[0]
        user = ALICE if t.seats[seat].user_id == str(ALICE.id) else BOB
        dm = play.dm(user)
        assert dm is not None
        dm_id, dm_channel = int(dm["id"]), int(dm["channel_id"])

        # the street, card by card, then Confirm: every press on the DM arrives at w0
        moves = play.plan_street(user)
        first_cid = ""
        waits: list[tuple[float, float]] = []  # (deferred, hand edited) after the press
        for n, (card, box) in enumerate(moves):
            msg = fake.messages[dm_id]
            want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
            cid = World.buttons(msg)[want]
            first_cid = first_cid or cid
            edits = len(fake.calls_to("PATCH", f"/channels/{dm_channel}/messages/{dm_id}"))
            record = await _dm_press(fake, w0, w1, user, msg, cid)
            assert record.callback_type == 6  # w0's deferred update, nothing more
            assert record.followups == [] and record.messages == []
            # w1 placed the card (it alone holds the table) and wrote the DM hand
            placed = sum(1 for _, b in moves[: n + 1] if b is not None)
            assert t.hand.board_of(seat, with_pending=True).count == placed
            after = fake.calls_to("PATCH", f"/channels/{dm_channel}/messages/{dm_id}")
            assert len(after) > edits and after[-1].status == 200
            assert record.callback_at is not None
            waits.append((record.callback_at - record.sent_at, after[-1].at - record.sent_at))
            now = fake.messages[dm_id]
            assert now["content"] != msg["content"]  # the hand shows the new board
            assert cid not in World.buttons(now).values()  # at the hand's new version
            if box is not None:  # the card in its box's row
                assert card in cards_in(now["content"]) - cards_in(msg["content"])
        record = await _dm_press(
            fake,
            w0,
            w1,
            user,
            fake.messages[dm_id],
            World.buttons(fake.messages[dm_id])[("c", "")],
        )
        assert record.callback_type == 6
        assert t.hand.board_of(seat).count == 5  # the street is committed on w1
        print(
            "forwarded DM presses: deferred after "
            + ", ".join(f"{d * 1000:.0f}" for d, _ in waits)
            + " ms; hand edited after "
            + ", ".join(f"{e * 1000:.0f}" for _, e in waits)
            + " ms"
        )
        assert ("c", "") not in World.buttons(fake.messages[dm_id])
        assert w0.service.table_in(CHAT) is None  # the table never moved
        assert await w0.store.lease_owner(KEY) == "w1"

        # a stale press (the hand's first version) is refused by w1, on the DM hand it
        # rewrites to the hand as it is now (an edit of it may have been lost)
        before = fake.messages[dm_id]["content"]
        stale = await _dm_press(fake, w0, w1, user, dm, first_cid)
        assert stale.callback_type == 6 and stale.followups == []
        now = fake.messages[dm_id]["content"]
        assert now == tr("en" if user is ALICE else "ru", "err.stale_shown") + "\n\n" + before
        assert t.hand.board_of(seat).count == 5

        # w1 dies: its lease still runs, nobody answers the forward, the player is told
        other = BOB if user is ALICE else ALICE
        theirs = play.dm(other)  # their turn now
        assert theirs is not None and t.seats[t.hand.to_act[0]].user_id == str(other.id)
        card, box = play.plan_street(other)[0]
        await w1.kill()
        killed = time.monotonic()
        want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
        cid = World.buttons(theirs)[want]
        gone = await _dm_press(fake, w0, w0, other, theirs, cid)
        assert time.monotonic() - killed < TTL  # w1's lease had not expired yet
        assert gone.callback_type == 6
        lang = "en" if other is ALICE else "ru"
        assert _notice(fake, gone) == tr(lang, "err.unreachable")

        # w0 takes shard 1 and the table over; the same press is now played on w0
        await until(lambda: w0.worker.holds(KEY), 8 * TTL, "w0 serves the table")
        await w0.adapter.presenter.flush()
        moved = w0.service.table_in(CHAT)
        assert moved is not None and moved.id == t.id and moved.hand is not None
        theirs = w0.world(fake).dm(other)
        assert theirs is not None
        cid = World.buttons(theirs)[want]
        local = await _dm_press(fake, w0, w0, other, theirs, cid)
        assert local.callback_type == 7  # answered by editing the DM hand in place
        assert local.followups == []
        other_seat = moved.seat_of(str(other.id))
        assert other_seat is not None
        board = moved.hand.board_of(other_seat.seat, with_pending=True)
        assert board.count == (0 if box is None else 1)


async def test_a_forwarded_press_whose_hand_cannot_be_shown_is_not_told_nothing_changed(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """A DM press forwarded to the worker holding the table (:meth:`take_forwarded`) places
    the card (committed), then writing the pressed DM hand fails: the receiving worker was
    given "Something went wrong; nothing changed" to show; now that the answer could not be
    shown and what it did is saved. (One worker: its adapter takes the press as forwarded.)"""
    from tests.bot.discord.dc_world import world

    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        seat = t.hand.to_act[0]
        user = ALICE if t.seats[seat].user_id == str(ALICE.id) else BOB
        dm = w.dm(user)
        assert dm is not None and t.seats[seat].private_ref is not None
        card, box = next((c, b) for c, b in w.plan_street(user) if b is not None)
        cid = World.buttons(dm)[("p", card.text + box.value[0])]

        def broken(*args: Any) -> None:
            raise RuntimeError("cannot show the hand")

        monkeypatch.setattr(w.adapter, "_show_dm_hand", broken)
        got = await w.adapter.take_forwarded(
            {"user": str(user.id), "name": user.name, "language": user.locale,
             "channel": str(dm["channel_id"]), "ref": t.seats[seat].private_ref,
             "datas": [cid]}
        )  # fmt: skip
        lang = "ru" if user is BOB else "en"
        assert got == {"notice": tr(lang, "err.not_shown")}, got
        assert len(t.hand.pending(seat)) == 1  # placed: committed
        await w.adapter.idle()
        assert [m for m in w.logged if "not shown" in m] and len(w.logged) == 1, w.logged
        w.logged.clear()  # the failure made on purpose, logged once
