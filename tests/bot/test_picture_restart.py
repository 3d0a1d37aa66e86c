"""A showdown picture Telegram still refused past the notice tries is posted later in the
background; a restart in that time lost it (it lived in the presenter's task only). It is
kept with the table's state now (:attr:`bot.model.LiveTable.late_pictures`) until it is
posted or given up, so a restarted bot posts it, once; one given up because its answer was
lost (Telegram may have posted it) is not posted again after a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.cluster import Worker, lease_key
from bot.model import PENDING_PREFIX
from bot.telegram.fake_api import ApiCall, FakeTelegram
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world

#: a 1×1 PNG: a picture's bytes, for the presenter alone
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def photo(c: ApiCall) -> bool:
    return c.method == "sendPhoto"


async def saved_late(w: World) -> list[dict[str, Any]]:
    """The late pictures of the one table's saved snapshot."""
    [(_, data)] = await w.store.snapshots()
    return list(data.get("late_pictures") or ())


async def until_saved(w: World, predicate: Any) -> list[dict[str, Any]]:
    """The saved late pictures once ``predicate`` holds of them (saved in the background)."""
    for _ in range(200):
        late = await saved_late(w)
        if predicate(late):
            return late
        await asyncio.sleep(0.05)
    raise AssertionError(f"never saved so: {late}")


async def a_hand_with_photos_refused(w: World, edit_retries: tuple[float, ...]) -> None:
    """Alice and Bob play a hand while Telegram refuses photos (the caller's ``outage``): the
    showdown picture goes past the notice tries to the background ones (``edit_retries``)."""
    presenter = w.adapter.presenter
    presenter.notice_retries = (0.05, 0.1)
    presenter.edit_retries = edit_retries
    w.fake.started_users.update({ALICE.id, BOB.id})
    await seat_everyone(w, [ALICE, BOB])
    await play_hand(w, [ALICE, BOB])
    await w.settle()


def lose_photo_answers(w: World, tg_api: FakeTelegram) -> None:
    """Telegram takes photos again but answers each after the bot's read timeout: posted,
    the answer lost (the bot gives the picture up)."""
    w.adapter._request._read_timeout = 0.3
    w.adapter._request._write_timeout = 0.3
    tg_api.stall(photo, 1.0)
    tg_api.recover()


async def restart_posts_nothing(
    tmp_path: Path, db: Path, tg_api: FakeTelegram, *, photos: int, calls: int
) -> None:
    """A restart posts no picture again: ``photos`` in the group, ``calls`` tries in all."""
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5):
        await asyncio.sleep(0.5)
    assert len(tg_api.photos_in(GROUP_ID)) == photos
    assert len(tg_api.calls_of("sendPhoto")) == calls


async def test_a_picture_posted_later_survives_a_restart_and_shows_once(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Telegram refuses every picture past the notice tries: the table plays on and the
    picture waits in the background. The bot restarts before Telegram takes photos again:
    the restarted bot posts it once Telegram answers, the stored one (its caption), once."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await a_hand_with_photos_refused(w, (0.05, 0.1, 0.2))
        await tg_api.wait_for(lambda: len(tg_api.calls_of("sendPhoto")) >= 5)  # (in the bg)
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 2  # the table did not wait
        [late] = await until_saved(w, lambda late: len(late) == 1)
        assert str(late["ref"]).startswith(PENDING_PREFIX)
        caption = str(late["caption"])
        assert "pts" in caption
        assert tg_api.photos_in(GROUP_ID) == []
    tried = len(tg_api.calls_of("sendPhoto"))
    tg_api.recover()
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await tg_api.wait_for(lambda: tg_api.photos_in(GROUP_ID) or None)
        await asyncio.sleep(0.5)  # (no second one comes)
        assert await until_saved(w, lambda late: not late) == []
    shown = tg_api.photos_in(GROUP_ID)
    assert len(shown) == 1 and shown[0].caption == caption
    assert len(tg_api.calls_of("sendPhoto")) == tried + 1


async def test_a_late_picture_whose_answer_was_lost_is_not_posted_after_a_restart(
    tmp_path: Path,
    tg_api: FakeTelegram,
) -> None:
    """The picture waits in the background; its next try is posted but answered after the
    read timeout (Telegram may have posted it, and did): it is given up, not sent again, and
    no longer kept, so the restarted bot does not post it a second time."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await a_hand_with_photos_refused(w, (0.3,))
        await until_saved(w, lambda late: len(late) == 1)
        tried = len(tg_api.calls_of("sendPhoto"))
        lose_photo_answers(w, tg_api)
        await tg_api.wait_for(lambda: tg_api.photos_in(GROUP_ID) or None)
        await until_saved(w, lambda late: not late)
        await asyncio.sleep(1.0)  # (the answer came too late: not sent again)
        assert len(tg_api.calls_of("sendPhoto")) == tried + 1
        w.adapter._request._read_timeout = 10.0
    await restart_posts_nothing(tmp_path, db, tg_api, photos=1, calls=tried + 1)


async def closed_with_pictures_refused(w: World, tg_api: FakeTelegram) -> list[str]:
    """Hand 1's picture waits in the background; an admin's /closetable closes the table
    after hand 2, whose picture is refused too: the closed table's final snapshot owes
    only the two pictures (no showdown, no notice sent again). Their captions."""
    tg_api.admins[GROUP_ID] = {ALICE.id}
    await a_hand_with_photos_refused(w, (0.05, 0.1, 0.2))
    await until_saved(w, lambda late: len(late) == 1)
    await w.say(ALICE, "/closetable")
    await play_hand(w, [ALICE, BOB])
    await w.settle()
    assert w.service.tables == {}
    [(_, snap)] = await w.store.closed_snapshots()
    assert snap["outbox"] == [] and snap["private_outbox"] == []
    late = snap["late_pictures"]
    assert len(late) == 2 and all(str(i["ref"]).startswith(PENDING_PREFIX) for i in late)
    assert tg_api.photos_in(GROUP_ID) == []
    return [str(item["caption"]) for item in late]


async def posted_and_forgotten(w: World, tg_api: FakeTelegram) -> None:
    """Until both pictures of the closed table are posted and its final snapshot is gone."""
    await tg_api.wait_for(lambda: len(tg_api.photos_in(GROUP_ID)) >= 2 or None)
    for _ in range(100):
        if not await w.store.closed_snapshots():
            break
        await asyncio.sleep(0.05)
    assert await w.store.closed_snapshots() == []


async def test_a_late_picture_of_a_table_closed_before_the_restart_is_posted_after_it(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """The pictures of a table closed while Telegram refused them survive a restart: the
    restarted bot posts each once Telegram answers, once, and then forgets the table (a
    third start posts nothing). Nothing else of the closing step is sent again."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        captions = await closed_with_pictures_refused(w, tg_api)
    posts = len(tg_api.calls_of("sendMessage"))
    tg_api.recover()
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await posted_and_forgotten(w, tg_api)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await asyncio.sleep(0.5)
    assert sorted(m.caption for m in tg_api.photos_in(GROUP_ID)) == sorted(captions)
    assert len(tg_api.calls_of("sendMessage")) == posts  # (the showdown not posted again)


async def test_a_closed_tables_late_pictures_posted_without_a_restart_are_forgotten(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Telegram takes photos again while the bot runs: the closed table's pictures are
    posted by the background tries, once each, and its final snapshot is then forgotten,
    so a restart posts neither again."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        captions = await closed_with_pictures_refused(w, tg_api)
        tg_api.recover()
        await posted_and_forgotten(w, tg_api)
        assert w.service.rt.closing == {}
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5):
        await asyncio.sleep(0.5)
    assert sorted(m.caption for m in tg_api.photos_in(GROUP_ID)) == sorted(captions)


async def test_a_cluster_sweep_does_not_post_a_closed_tables_pictures_posted_here_again(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Issue 14: while the closed table's pictures are posted later here, the worker keeps
    the chat's lease (the table stays among those whose last messages it sends) and its
    sweep of what closed tables owe skips it, so Telegram, which has no idempotency key,
    gets each picture once."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        captions = await closed_with_pictures_refused(w, tg_api)
        worker = Worker(w.service, "w1", "http://127.0.0.1:9")
        w.store.fence(None)  # (the world's own writes are not a worker's)
        [(record, _)] = await w.store.closed_snapshots()
        assert lease_key("telegram", record.chat_id) in worker.held_keys()
        await worker.sweep_owed()
        tg_api.recover()
        await tg_api.wait_for(lambda: len(tg_api.photos_in(GROUP_ID)) >= 2 or None)
        await asyncio.sleep(0.5)
    assert sorted(m.caption for m in tg_api.photos_in(GROUP_ID)) == sorted(captions)


async def a_late_picture_let_go(w: World) -> tuple[Any, dict[str, Any]]:
    """A hand whose picture Telegram refuses (the caller's ``outage``) waits in the
    background; then the worker loses the table's lease (``release``). The table and its
    one late picture."""
    await a_hand_with_photos_refused(w, (0.2,))
    [late] = await until_saved(w, lambda late: len(late) == 1)
    [t] = w.service.tables.values()
    await w.service.release(t.id)
    return t, late


async def test_a_worker_that_lost_the_tables_lease_stops_posting_its_late_picture(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Issue 14: a worker that loses an open table's lease while alive lets the table go
    (``release``); the picture it was posting later is dropped, the service told nothing
    (the table's state still owes it), so only the adopting worker posts it: Telegram,
    with no idempotency key, would otherwise show it twice."""
    tg_api.outage(photo)
    async with world(tmp_path, fake=tg_api, rng_seed=5) as w:
        t, late = await a_late_picture_let_go(w)
        tried = len(tg_api.calls_of("sendPhoto"))
        tg_api.recover()
        await asyncio.sleep(1.0)  # (past the next background try)
        assert len(tg_api.calls_of("sendPhoto")) == tried
        assert tg_api.photos_in(GROUP_ID) == []
        assert late in t.late_pictures  # (not forgotten: the table's state still owes it)


async def test_a_worker_that_lost_a_closed_tables_chat_stops_posting_its_late_pictures(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Issue 14: a closed table's pictures are posted later here (the worker keeps the chat's
    lease meanwhile); a pause loses the lease all the same, and the worker that takes the
    chat posts them from the kept final snapshot. The first worker drops them (the service
    told nothing, the snapshot still owes both) and no longer asks for the chat's lease:
    Telegram, with no idempotency key, would otherwise show each twice."""
    tg_api.outage(photo)
    async with world(tmp_path, fake=tg_api, rng_seed=5) as w:
        await closed_with_pictures_refused(w, tg_api)
        [(record, _)] = await w.store.closed_snapshots()
        key = lease_key("telegram", record.chat_id)
        worker = Worker(w.service, "w1", "http://127.0.0.1:9")  # (fences the store)
        try:
            assert key in worker.held_keys()
            assert await w.store.acquire_lease(key, "w2", 60.0)  # (w1's ran out meanwhile)
            await worker.renew()
            assert key not in worker.held_keys()
            assert w.service.rt.closing == {}
            tried = len(tg_api.calls_of("sendPhoto"))
            tg_api.recover()
            await asyncio.sleep(1.0)  # (past the next background try)
            assert len(tg_api.calls_of("sendPhoto")) == tried
            assert tg_api.photos_in(GROUP_ID) == []
            [(_, snap)] = await w.store.closed_snapshots()
            assert len(snap["late_pictures"]) == 2  # (still owed: w2 posts them)
        finally:
            w.store.fence(None)


async def test_a_closed_tables_pictures_and_a_new_tables_in_the_chat_each_post_once(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """A new table opens in the chat while the closed one still owes its two pictures, and
    its first hand's picture is refused too; the bot restarts: the closed table's pictures
    are posted from its kept record, the open table's from its state, each once, and the
    closed record is then forgotten (a third start posts nothing)."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        captions = await closed_with_pictures_refused(w, tg_api)
        await seat_everyone(w, [ALICE, BOB])
        await play_hand(w, [ALICE, BOB])
        [late] = await until_saved(w, lambda late: len(late) == 1)
        assert len(await w.store.closed_snapshots()) == 1
    tg_api.recover()
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await tg_api.wait_for(lambda: len(tg_api.photos_in(GROUP_ID)) >= 3 or None)
        await posted_and_forgotten(w, tg_api)
        assert await until_saved(w, lambda late: not late) == []
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5):
        await asyncio.sleep(0.5)
    shown = sorted(m.caption for m in tg_api.photos_in(GROUP_ID))
    assert shown == sorted([*captions, late["caption"]])


async def test_a_closed_tables_picture_posted_before_a_restart_is_not_posted_after_it(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Of the closed table's two pictures, Telegram takes one before the restart: the kept
    record then owes only the other, which alone the restarted bot posts."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        captions = await closed_with_pictures_refused(w, tg_api)
        tg_api.recover()
        tg_api.outage(lambda c: photo(c) and c.params.get("caption") != captions[0])
        await tg_api.wait_for(lambda: tg_api.photos_in(GROUP_ID) or None)
        for _ in range(100):
            [(_, snap)] = await w.store.closed_snapshots()
            if len(snap["late_pictures"]) == 1:
                break
            await asyncio.sleep(0.05)
        assert [item["caption"] for item in snap["late_pictures"]] == [captions[1]]
    tg_api.recover()
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await posted_and_forgotten(w, tg_api)
        await asyncio.sleep(0.3)  # (no third one comes)
    assert sorted(m.caption for m in tg_api.photos_in(GROUP_ID)) == sorted(captions)


async def test_a_closed_tables_pictures_are_given_up_when_the_bot_is_removed_meanwhile(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """The bot is removed from the group while the closed table's pictures wait: each is
    refused for good, given up, and the record forgotten; a re-add and a restart post
    neither."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await closed_with_pictures_refused(w, tg_api)
        await tg_api.remove_bot(GROUP_ID, by=ALICE)
        tg_api.recover()
        for _ in range(100):
            if not await w.store.closed_snapshots():
                break
            await asyncio.sleep(0.05)
        assert await w.store.closed_snapshots() == []
        assert w.service.rt.closing == {}
        await tg_api.add_bot(GROUP_ID, by=ALICE)
        await asyncio.sleep(0.3)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5):
        await asyncio.sleep(0.3)
    assert tg_api.photos_in(GROUP_ID) == []


async def test_a_late_picture_drawn_while_the_lease_is_lost_is_not_posted(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Issue 14: a worker takes a table over whose picture waits to be posted later, and
    loses the lease again while that picture is being drawn (the drawing process takes a
    while): the picture drawn after the loss is not handed to Telegram (the table's next
    worker posts it), as one already in the background tries is dropped."""
    tg_api.outage(photo)
    async with world(tmp_path, fake=tg_api, rng_seed=5) as w:
        t, late = await a_late_picture_let_go(w)
        rt = w.service.rt
        draw = rt.drawer.draw
        drawing, drawn = asyncio.Event(), asyncio.Event()

        async def slow_draw(fn: Any, *args: Any) -> Any:
            drawing.set()
            await drawn.wait()
            return await draw(fn, *args)

        rt.drawer.draw = slow_draw  # type: ignore[method-assign]
        adopting = asyncio.create_task(w.service.adopt(t.id))  # (posts the picture: drawn)
        await asyncio.wait_for(drawing.wait(), 10)
        [again] = w.service.tables.values()
        await w.service.release(again.id)  # the lease lost while it is drawn
        drawn.set()
        await asyncio.wait_for(adopting, 10)
        tried = len(tg_api.calls_of("sendPhoto"))
        tg_api.recover()
        await asyncio.sleep(1.0)  # (past a background try)
        assert len(tg_api.calls_of("sendPhoto")) == tried
        assert tg_api.photos_in(GROUP_ID) == []
        assert late in again.late_pictures  # (still owed: the next worker posts it)


async def test_a_closed_tables_late_pictures_whose_answers_were_lost_are_not_posted_again(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """The closed table's two pictures are posted by their background tries but answered
    after the read timeout (Telegram took them): each is given up, not sent again, and the
    record forgotten, so a restart posts neither a second time."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.outage(photo)
    async with world(tmp_path, db=db, fake=tg_api, rng_seed=5) as w:
        await closed_with_pictures_refused(w, tg_api)
        tried = len(tg_api.calls_of("sendPhoto"))
        lose_photo_answers(w, tg_api)
        await posted_and_forgotten(w, tg_api)
        await asyncio.sleep(1.0)  # (the answers came too late: not sent again)
        assert len(tg_api.calls_of("sendPhoto")) == tried + 2
        w.adapter._request._read_timeout = 10.0
    await restart_posts_nothing(tmp_path, db, tg_api, photos=2, calls=tried + 2)


async def test_a_stopping_worker_posts_no_late_picture_after_giving_its_leases_up(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """Issue 14: a worker's stop saves its tables and gives their leases up at once, so
    another worker takes them and posts what they owe, the pictures posted later too; the
    adapters stop only after it (one after the other). Meanwhile the stopped worker's
    background tries posted them as well (Telegram showed them twice): they end with the
    leases, kept for the next worker (open or closed tables alike)."""
    tg_api.outage(photo)
    async with world(tmp_path, fake=tg_api, rng_seed=5) as w:
        await closed_with_pictures_refused(w, tg_api)  # (a closed table owes two)
        await seat_everyone(w, [ALICE, BOB])
        await play_hand(w, [ALICE, BOB])
        await until_saved(w, lambda late: len(late) == 1)  # (an open one owes one)
        worker = Worker(w.service, "w1", "http://127.0.0.1:9")  # (fences the store)
        try:
            await worker.stop()
            tried = len(tg_api.calls_of("sendPhoto"))
            tg_api.recover()  # (the adapter is not stopped yet)
            await asyncio.sleep(1.0)  # (past the next background tries)
            assert len(tg_api.calls_of("sendPhoto")) == tried
            assert tg_api.photos_in(GROUP_ID) == []
        finally:
            w.store.fence(None)
        [(_, snap)] = await w.store.closed_snapshots()
        assert len(snap["late_pictures"]) == 2
        assert len(await saved_late(w)) == 1  # (all still owed: the next worker posts them)


async def test_a_picture_handed_to_the_background_twice_is_posted_once(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """The presenter is asked to post a picture later under a ref whose tries are going
    on already (a closed table's record delivered again on the same worker): one set of
    tries, one picture once Telegram takes photos again."""
    tg_api.outage(photo)
    async with world(tmp_path, fake=tg_api, rng_seed=5) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.2,)
        chat = str(GROUP_ID)
        ref = f"{PENDING_PREFIX}twice"
        assert await presenter.send_picture(chat, PNG, "hand 1", ref, later=True) == ref
        assert await presenter.send_picture(chat, PNG, "hand 1", ref, later=True) == ref
        await tg_api.wait_for(lambda: tg_api.calls_of("sendPhoto") or None)
        tg_api.recover()
        await tg_api.wait_for(lambda: tg_api.photos_in(GROUP_ID) or None)
        await asyncio.sleep(0.5)  # (past the other set's next try)
        assert len(tg_api.photos_in(GROUP_ID)) == 1
