"""The showdown picture through a Discord outage (issue 12): refused with a 5xx, or lost in
the network, it was logged and left out; now it is sent again as a notice is (after each of
the notice waits, the same nonce with ``enforce_nonce``), and shows once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.cluster import Worker
from storage.api import lease_key
from tests.bot.discord.dc_world import ALICE, BOB, TOKEN, World, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, ApiCall, FakeDiscord

CHANNEL_POSTS = f"/channels/{CHANNEL_ID}/messages"


def picture_posts(calls: list[ApiCall]) -> list[ApiCall]:
    return [c for c in calls if c.method == "POST" and c.path == CHANNEL_POSTS and c.files]


async def test_a_picture_discord_refuses_for_a_while_is_posted_once_it_answers(
    tmp_path: Path,
) -> None:
    """Discord answers 503 to the picture twice: the third try (the same nonce) posts it,
    one message with the PNG; the table plays on."""
    async with world(tmp_path, rng_seed=7) as w:
        presenter = w.adapter.presenter
        presenter.notice_retries = (0.05, 0.1, 0.2)
        await seat_everyone(w, [ALICE, BOB])
        refused: list[ApiCall] = []

        def picture(name: str, call: ApiCall) -> bool:
            hit = name == "create_message" and bool(call.files) and len(refused) < 2
            if hit:
                refused.append(call)
            return hit

        w.fake.outage(picture)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await asyncio.wait_for(presenter.flush(), 10)
        await w.fake.wait_for(lambda: len(picture_posts(w.fake.calls)) >= 3)
        tries = picture_posts(w.fake.calls)
        assert [c.status for c in tries] == [503, 503, 200]
        assert len({c.body["nonce"] for c in tries}) == 1 and tries[0].body["enforce_nonce"]
        assert len(w.fake.files) == 1
        [(name, png)] = next(iter(w.fake.files.values()))
        assert name == "showdown.png" and png.startswith(b"\x89PNG")
        t = w.table()
        assert t.hand is not None and t.hand_no == 2


async def test_a_picture_whose_answer_was_lost_shows_once(tmp_path: Path) -> None:
    """The picture is posted but the connection drops before its answer: it is sent again
    with the same nonce, which Discord answers with the message it made: one picture."""
    async with world(tmp_path, rng_seed=7) as w:
        presenter = w.adapter.presenter
        presenter.notice_retries = (0.05, 0.1, 0.2)
        await seat_everyone(w, [ALICE, BOB])
        dropped: list[ApiCall] = []

        def picture(name: str, call: ApiCall) -> bool:
            hit = name == "create_message" and bool(call.files) and not dropped
            if hit:
                dropped.append(call)
            return hit

        w.fake.drop(picture, done=True)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await asyncio.wait_for(presenter.flush(), 10)
        await w.fake.wait_for(lambda: len(picture_posts(w.fake.calls)) >= 2)
        tries = picture_posts(w.fake.calls)
        assert len(tries) == 2 and tries[0].dropped
        assert tries[0].body["nonce"] == tries[1].body["nonce"]
        assert len(w.fake.files) == 1  # once


async def a_hand_with_pictures_refused(w: World, edit_retries: tuple[float, ...]) -> None:
    """Alice and Bob play a hand while Discord refuses pictures: the showdown picture goes
    past the notice tries to the background ones (``edit_retries``)."""
    presenter = w.adapter.presenter
    presenter.notice_retries = (0.05, 0.1)
    presenter.edit_retries = edit_retries
    await seat_everyone(w, [ALICE, BOB])
    w.fake.outage(lambda name, call: name == "create_message" and bool(call.files))
    await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})


async def test_a_picture_refused_past_the_notice_tries_is_posted_later_once(
    tmp_path: Path,
) -> None:
    """Discord refuses every picture longer than the notice tries: the table does not wait
    for it (the next hand is dealt), and the picture is posted once Discord answers again,
    once, every try with the same nonce."""
    async with world(tmp_path, rng_seed=7) as w:
        await a_hand_with_pictures_refused(w, (0.05, 0.1, 0.2))
        await w.fake.wait_for(lambda: len(picture_posts(w.fake.calls)) >= 5)
        t = w.table()
        assert t.hand is not None and t.hand_no == 2  # the table did not wait
        assert w.fake.files == {}
        w.fake.recover()
        await w.fake.wait_for(lambda: w.fake.files or None)
        await asyncio.sleep(0.5)  # (no second one comes)
        assert len(w.fake.files) == 1
        tries = picture_posts(w.fake.calls)
        assert len({c.body["nonce"] for c in tries}) == 1
        assert [c.status for c in tries][-1] == 200
        assert [m for m in w.logged if "cannot send the picture" in m] == []


async def test_a_picture_posted_later_survives_a_restart_with_its_nonce(tmp_path: Path) -> None:
    """Discord refuses the picture past the notice tries, then takes a background try but
    its answer is lost (the connection drops: the picture is posted). The bot restarts before
    it learns so: the picture was lost with the old process; now the restarted bot posts it
    again with the nonce of the tries before (kept with the table's state), which Discord
    answers with the message it made: one picture, and the table no longer owes it."""
    db = tmp_path / "ofc.sqlite3"
    fake = FakeDiscord(TOKEN)
    await fake.start()
    try:
        async with world(tmp_path, fake=fake, db=db, rng_seed=7) as w:
            await a_hand_with_pictures_refused(w, (0.2,))
            await fake.wait_for(lambda: len(picture_posts(fake.calls)) >= 4)  # (in the bg)
            t = w.table()
            assert len(t.late_pictures) == 1
            fake.outages.clear()
            fake.drop(lambda name, call: name == "create_message" and bool(call.files), done=True)
            await fake.wait_for(lambda: fake.files or None)  # posted, its answer lost
            [(_, data)] = await w.store.snapshots()
            assert len(data["late_pictures"]) == 1  # (the bot does not know it was posted)
        fake.recover()
        tried = len(picture_posts(fake.calls))
        async with world(tmp_path, fake=fake, db=db, rng_seed=7) as w:
            await fake.wait_for(lambda: len(picture_posts(fake.calls)) > tried or None)
            for _ in range(100):  # (told, saved in the background)
                [(_, data)] = await w.store.snapshots()
                if not data["late_pictures"]:
                    break
                await asyncio.sleep(0.05)
            assert data["late_pictures"] == [] and w.table().late_pictures == []
        tries = picture_posts(fake.calls)
        assert tries[-1].status == 200 and len({c.body["nonce"] for c in tries}) == 1
        assert len(fake.files) == 1  # once
    finally:
        await fake.stop()


async def test_the_pictures_of_a_table_closed_before_a_restart_are_posted_after_it_once(
    tmp_path: Path,
) -> None:
    """Discord refuses pictures past the notice tries; an admin's close ends the table after
    hand 2, both pictures still owed. The closed table keeps only them (the showdown and the
    closing notice are not sent again), and the restarted bot posts each once Discord
    answers, under the nonce of its tries before, then forgets the table."""
    db = tmp_path / "ofc.sqlite3"
    fake = FakeDiscord(TOKEN)
    await fake.start()
    try:
        async with world(tmp_path, fake=fake, db=db, rng_seed=7) as w:
            await a_hand_with_pictures_refused(w, (0.05, 0.1, 0.2))
            await w.slash(ALICE, "close", group="ofcadmin", admin=True)
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            for _ in range(200):  # (the closing step's messages go out in the background)
                owed = await w.store.closed_snapshots()
                if owed and len(owed[0][1]["late_pictures"]) == 2:
                    break
                await asyncio.sleep(0.05)
            [(_, data)] = owed
            assert data["outbox"] == [] and len(data["late_pictures"]) == 2
            assert fake.files == {}
        fake.recover()
        texts = len([c for c in fake.calls if c.method == "POST" and not c.files])
        async with world(tmp_path, fake=fake, db=db, rng_seed=7) as w:
            await fake.wait_for(lambda: len(fake.files) >= 2 or None)
            for _ in range(100):
                if not await w.store.closed_snapshots():
                    break
                await asyncio.sleep(0.05)
            assert await w.store.closed_snapshots() == []
            await asyncio.sleep(0.3)  # (no third one comes)
        assert len(fake.files) == 2
        nonces = {c.body["nonce"] for c in picture_posts(fake.calls)}
        assert len(nonces) == 2  # (each picture's tries, a restart's too, one nonce)
        assert len([c for c in fake.calls if c.method == "POST" and not c.files]) == texts
    finally:
        await fake.stop()


async def test_a_worker_handing_a_shard_back_leaves_its_closed_tables_pictures_to_the_next(
    tmp_path: Path,
) -> None:
    """Issue 14: a worker stops running a Discord shard (handed back to a worker that prefers
    it, or lost) while a closed table of one of its guilds owes only its pictures, posted
    later here. It lets the table go as it does the open ones: the pictures dropped, the
    chat's lease no longer renewed, so the shard's next worker takes the chat (a new table
    there, its pictures) and posts them from the kept snapshot. Before, the old worker kept
    the chat's lease until the pictures were posted or given up (ten minutes), shutting
    the shard's new worker out of the channel."""
    async with world(tmp_path, rng_seed=7) as w:
        await a_hand_with_pictures_refused(w, (0.2,))
        await w.slash(ALICE, "close", group="ofcadmin", admin=True)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        rt = w.service.rt
        for _ in range(200):  # (the closing step's messages go out in the background)
            if rt.owing_pictures:
                break
            await asyncio.sleep(0.05)
        [t] = rt.closing.values()
        key = lease_key("discord", t.chat_id)
        worker = Worker(w.service, "w1", "http://127.0.0.1:9", discord_shards=([0], 1))
        try:
            worker.shards.add(0)
            assert key in worker.held_keys()
            await worker._drop_shard(0, give_up=False)
            assert key not in worker.held_keys()
            assert rt.closing == {} and rt.owing_pictures == set()
            tries = len(picture_posts(w.fake.calls))
            w.fake.recover()
            await asyncio.sleep(0.6)  # (past the next background tries)
            assert len(picture_posts(w.fake.calls)) == tries and w.fake.files == {}
            [(_, data)] = await w.store.closed_snapshots()
            assert len(data["late_pictures"]) == 2  # (still owed: the next worker posts them)
        finally:
            w.store.fence(None)
