"""New Telegram messages through an outage: a notice (a new message of its own, never edited:
"Carol left the group") refused with a 5xx is sent again a few times, one refused for good
(400) is not; a new message posted later gets a pending ref no earlier process gave (a
snapshot keeps refs across a restart)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.model import PENDING_PREFIX
from bot.telegram.fake_api import ApiCall, FakeTelegram
from bot.texts import tr
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, TOKEN, world


def notice_post(c: ApiCall) -> bool:
    """A message to the group without buttons: a notice."""
    return (
        c.method == "sendMessage"
        and int(c.params["chat_id"]) == GROUP_ID
        and "reply_markup" not in c.params
    )


def table_post(c: ApiCall) -> bool:
    """A new table message (it has buttons) in the group."""
    return (
        c.method == "sendMessage"
        and int(c.params["chat_id"]) == GROUP_ID
        and "reply_markup" in c.params
    )


async def test_a_notice_telegram_refuses_with_a_5xx_is_sent_again_and_a_400_is_not(
    tmp_path: Path,
) -> None:
    """Telegram answers 502 to the group's notices when Carol leaves the group: "Carol left
    the group and the table" was tried once and lost (the group never read why her seat
    emptied). It is sent again after the notice waits and shows once, once Telegram answers.
    A notice refused for good (400 "message is too long") is tried once, not again."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.notice_retries = (0.2, 0.4, 0.8)
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await w.say(ALICE, "/newtable")
        for u in (ALICE, BOB, CAROL):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        t = next(iter(w.service.tables.values()))
        text = tr("en", "notice.left_group", name="Carol")
        w.fake.outage(notice_post)
        down = len(w.fake.calls)
        await w.fake.remove_member(GROUP_ID, CAROL)
        await w.fake.wait_for(lambda: t.seat_of(str(CAROL.id)) is None or None)
        tried = await w.fake.wait_for(
            lambda: (n := [c for c in w.fake.calls[down:] if notice_post(c)])[1:] and n
        )
        assert all(c.params["text"] == text for c in tried)
        assert text not in [m["text"] for m in w.fake.chat_messages(GROUP_ID)]
        w.fake.recover()
        await asyncio.wait_for(w.settle(), 10)
        shown = [m["text"] for m in w.fake.chat_messages(GROUP_ID)]
        assert shown.count(text) == 1, shown[-3:]
        tries = [c for c in w.fake.calls[down:] if notice_post(c)]
        assert 3 <= len(tries) <= 4, len(tries)  # refused twice or three times, then sent

        body = {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"}
        w.fake.outage(notice_post, status=400, body=body)
        down = len(w.fake.calls)
        await w.fake.remove_member(GROUP_ID, BOB)
        await w.fake.wait_for(lambda: t.seat_of(str(BOB.id)) is None or None)
        await asyncio.wait_for(w.settle(), 10)
        await asyncio.sleep(1.0)  # longer than the notice waits
        assert len([c for c in w.fake.calls[down:] if notice_post(c)]) == 1  # not again
        w.fake.recover()


async def test_pending_refs_differ_from_those_an_earlier_process_saved(tmp_path: Path) -> None:
    """A table message Telegram refused gets a pending ref, kept in the table's snapshot; after
    a restart the new process's pending refs counted from 1 again, so the restored table's
    message not posted yet got the very ref the old snapshot held ("pending-1" both times):
    a message posted late by one process could be taken for another's. Refs are random now."""
    db = tmp_path / "ofc.sqlite3"
    refs = []
    for _ in range(2):
        fake = FakeTelegram(TOKEN)
        await fake.start()
        fake.outage(table_post)  # (also while the restored table's message is posted anew)
        try:
            async with world(tmp_path, db=db, fake=fake) as w:
                presenter = w.adapter.presenter
                presenter.edit_retries = (0.05,)
                presenter.edit_give_up = 0.3
                if not w.service.tables:
                    await w.say(ALICE, "/newtable")
                t = next(iter(w.service.tables.values()))
                await w.fake.wait_for(lambda t=t: t.group_ref is not None or None)  # type: ignore[misc]
                await asyncio.wait_for(w.service.rt.settled(t), 5)
                assert t.group_ref is not None and t.group_ref.startswith(PENDING_PREFIX)
                refs.append(t.group_ref)
                await asyncio.wait_for(presenter.flush(), 5)  # (given up)
                for _ in range(100):  # the snapshot keeps it (saved in the background)
                    saved = [data.get("group_ref") for _, data in await w.store.snapshots()]
                    if saved == [t.group_ref]:
                        break
                    await asyncio.sleep(0.05)
                assert saved == [t.group_ref]
                fake.recover()
        finally:
            await fake.stop()
    assert refs[0] != refs[1], refs
