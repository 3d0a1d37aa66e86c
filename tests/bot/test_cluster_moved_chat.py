"""A group upgraded to a supergroup, seen by one worker only (issue 14, issue 15 case 6). The
worker that heard of the upgrade (its service messages, or a write refused with
``migrate_to_chat_id``) moved the group's community, wallets and table to the new id in
storage and keeps the move in its memory (:meth:`TelegramPresenter.moved_to`), which the
commands of the old chat follow. Another worker (or this one after a restart) that never
heard of it got a command typed in the old group just before the upgrade and delivered late
(the router sent it by the old chat, which the move left to whichever worker took it): it
read the old id, which no community has any more, opened a new empty one there (a fresh
wallet, its starting kush minted), answered from it, and its refused answer could not move
that community over the group's. Storage keeps the move (:meth:`Store.moved_chat`), which
such a worker looks up, and the router routes such an update by."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.cluster import route_key
from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from storage.api import lease_key
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.tg_world import BOB, GROUP_ID, TOKEN, world

NEW_GROUP = -100780  # the supergroup GROUP_ID becomes
KEY = lease_key("telegram", "-100")


async def _until(check: Callable[[], Awaitable[Any]], timeout: float = 30.0) -> Any:
    deadline = asyncio.get_running_loop().time() + timeout
    while not (value := await check()):
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)
    return value


async def _external_ids(store: SqliteStore) -> list[str]:
    rows = await store._call(
        lambda c: c.execute("SELECT external_id FROM communities ORDER BY id").fetchall()
    )
    return [str(r[0]) for r in rows]


async def test_r14_an_old_group_command_on_a_worker_that_never_heard_of_the_upgrade(
    tmp_path: Path,
) -> None:
    """Worker 1 serves the group: Bob takes his daily bonus (1,100 kush), the group is
    upgraded and worker 1 follows it. Worker 2 on the same database (started after worker
    1 stopped: as worker 1 restarted, or another worker) never heard of the upgrade; Bob's
    /balance typed in the old group reaches it: it answers with Bob's 1,100
    kush of the group (in the supergroup: the old chat refuses it), and no community is made
    under the old id (it was: a fresh 1,000)."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, db=db) as w1:
        reply = await w1.say(BOB, "/daily")
        assert "1100" in reply["text"].replace(",", "").replace(" ", ""), reply["text"]
        await w1.fake.migrate_group(GROUP_ID, NEW_GROUP)

        async def moved() -> bool:
            return await _external_ids(w1.store) == [str(NEW_GROUP)]

        await _until(moved)
    fake = FakeTelegram(TOKEN)
    await fake.start()
    try:
        async with world(tmp_path, db=db, fake=fake) as w2:
            await fake.migrate_group(GROUP_ID, NEW_GROUP, announce=False)  # (heard by nobody)
            start = len(fake.calls)
            await fake.send_text(BOB, GROUP_ID, "/balance")

            async def answer() -> str | None:
                for c in fake.calls[start:]:
                    if c.method == "sendMessage" and int(c.params["chat_id"]) == NEW_GROUP:
                        return str(c.params["text"])
                return None

            text = await _until(answer)
            # (Bob writes Russian) "Bob: 1100 kush on balance, 0 at the table": his wallet
            # of the group (it was a fresh one: 1000)
            balance = dict(name="Bob", balance=1100, label="kush", stack=0, elsewhere="")
            assert text == tr("ru", "reply.balance", **balance), text
            assert await _external_ids(w2.store) == [str(NEW_GROUP)]
    finally:
        await fake.stop()


async def test_r14_an_old_group_s_command_is_routed_to_the_supergroup_s_worker() -> None:
    """The router (and a worker checking an update it got) sends a command or a press typed
    in the old group, delivered after the move, to the supergroup's chat, whose worker serves
    the group's table: it went to the old chat's key, which no worker held any more, and the
    worker taking it served the chat without the table (``/newtable`` opened a second one in
    the supergroup). A member update stays with its chat; a supergroup never moves."""
    store = MemoryStore()
    await store.community("telegram", "-100", "G")
    user = {"id": 1, "is_bot": False, "first_name": "A"}
    old = {"message_id": 1, "date": 0, "from": user, "chat": {"id": -100, "type": "group"}}
    command = {"message": {**old, "text": "/newtable"}}
    press = {"callback_query": {"id": "q", "from": user, "message": old, "data": "?"}}
    member = {"my_chat_member": {"chat": old["chat"]}}
    assert [await route_key(store, u) for u in (command, press, member)] == ["telegram:-100"] * 3
    assert await store.move_chat("telegram", "-100", "-100777")
    new = "telegram:-100777"
    assert [await route_key(store, u) for u in (command, press, member)] == [new, new, KEY]
    edited = {"edited_message": {**old, "text": "/join"}}
    assert await route_key(store, edited) == new
    supergroup = {"message": {**old, "chat": {"id": -100, "type": "supergroup"}}}
    assert await route_key(store, supergroup) == KEY
