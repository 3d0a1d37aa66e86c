"""A table message someone deleted is posted again, and the presenter kept which message
replaced it in memory only: the table went on holding the deleted one's id until its next
write. A closing step committed in that time, the process dying before its messages went
out, left the restarted bot writing the close over the deleted message: a second
replacement was posted, and the first kept its lobby and Join button in the group. The
service is told the replacement now (as a message posted late,
:meth:`bot.service.TableService.message_posted`), so the table holds it, and a step
commits it."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.fake_api import FakeTelegram
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TOKEN, world


async def test_a_restart_writes_the_close_over_the_replacement_of_a_deleted_message(
    tmp_path: Path,
) -> None:
    """Alice opens a table; an admin deletes its message; Bob joins (the edit is refused:
    the message is posted again, with Bob). Alice closes the table and the bot dies right
    after that step's commit. The restarted bot writes the close over the replacement: no
    second message is posted and none is left with buttons."""
    db = tmp_path / "ofc.sqlite3"
    fake = FakeTelegram(TOKEN)
    await fake.start()
    try:
        async with world(tmp_path, db=db, fake=fake) as w:
            fake.admins[GROUP_ID] = {ALICE.id}
            await w.say(ALICE, "/newtable")
            await w.settle()
            t = next(iter(w.service.tables.values()))
            assert t.group_ref is not None
            first = int(t.group_ref)
            fake.delete(GROUP_ID, first)
            await w.say(BOB, "/join")  # (its edit is refused: the message is posted again)
            await w.settle()
            [again] = [m for m in fake.chat_messages(GROUP_ID) if fake.buttons(m)]
            assert again["message_id"] != first and "Bob" in again["text"]
            assert t.group_ref == str(again["message_id"])  # the table holds it
            rt = w.service.rt
            send = rt.send
            # the process dies right after the closing step's commit: nothing of it is sent
            rt.send = lambda tx: None if tx.close else send(tx)  # type: ignore[method-assign]
            await w.say(ALICE, "/closetable")
            await w.settle()
            assert fake.messages[(GROUP_ID, again["message_id"])]["text"] == again["text"]
        posts = len(fake.calls_of("sendMessage"))
        async with world(tmp_path, db=db, fake=fake) as w:
            await w.settle()
        closed = fake.messages[(GROUP_ID, again["message_id"])]
        assert closed["text"] != again["text"] and not fake.buttons(closed)
        group_posts = [
            c for c in fake.calls_of("sendMessage")[posts:] if int(c.params["chat_id"]) == GROUP_ID
        ]
        assert group_posts == []  # (no second replacement)
        assert [m for m in fake.chat_messages(GROUP_ID) if fake.buttons(m)] == []
    finally:
        await fake.stop()
