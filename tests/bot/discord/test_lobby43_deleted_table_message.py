"""lobby43 (Discord): a table message a moderator deleted in a quiet lobby stayed gone.
Without the guild messages intent the bot gets no MESSAGE_DELETE (test_dsc42_message_delete),
so the message came back only with the table's next edit: an ``/ofc new`` meanwhile
answered "a table is open here" with a link to the deleted message and posted nothing. The
command now writes the table message again first (one edit; refused 404 10008, the
presenter's re-post of a deleted table message posts it anew) and links to the message that
exists; typed again and again it writes once (:attr:`Runtime.refresh_seconds`).

Through discord.py against the fake Discord; each test fails on the code before (the reply
linked to the deleted message, and nothing was posted)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID, ApiCall

MESSAGES = f"/channels/{CHANNEL_ID}/messages"


def _link(message_id: int) -> str:
    """The link to a message of the test channel."""
    return f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{message_id}"


def _table_writes(w: World, since: int) -> list[ApiCall]:
    """The bot's REST writes in the channel from call ``since`` on: edits of the table
    message and new messages (a command's reply is an interaction callback: not one)."""
    return [
        c
        for c in w.fake.calls[since:]
        if (c.method == "PATCH" and c.path.startswith(MESSAGES + "/"))
        or (c.method == "POST" and c.path == MESSAGES)
    ]


async def _open_and_delete(w: World) -> tuple[Any, int]:
    """Alice opens a table; a moderator deletes its message (no event comes): the table and
    that message's id."""
    await w.slash(ALICE, "new")
    t = w.table()
    first = int(w.table_message()["id"])
    assert t.group_ref == str(first)
    w.fake.deleted.add(first)
    # (a loaded machine may take longer than the production wait, 0.7 s: the link then is
    # the old one, answered in time; here the new one is awaited)
    w.service.rt.refresh_wait = 10.0
    return t, first


async def test_ofc_new_posts_a_deleted_table_message_anew_and_links_to_it(
    tmp_path: Path,
) -> None:
    """The lobby's message is deleted; Bob runs /ofc new: the message is posted anew (Join
    still on it), the table holds it, and the reply links to it, not to the deleted one."""
    async with world(tmp_path) as w:
        t, first = await _open_and_delete(w)
        since = len(w.fake.calls)
        reply = await w.slash(BOB, "new")
        again = w.table_message()
        new = int(again["id"])
        assert new != first
        assert t.group_ref == str(new)
        assert _link(new) in reply["content"]
        assert _link(first) not in reply["content"]
        assert f"#{t.id}" in reply["content"]
        writes = _table_writes(w, since)  # one edit (404 10008) and the re-post
        assert [(c.method, c.status) for c in writes] == [("PATCH", 404), ("POST", 200)]
        assert writes[0].path == f"{MESSAGES}/{first}"
        since = len(w.fake.calls)
        await w.press_lobby(CAROL, "j")  # (the next write goes to the new message)
        assert int(w.table_message()["id"]) == new
        assert "Carol" in w.table_message()["content"]
        assert [c.method for c in _table_writes(w, since) if c.method == "POST"] == []


async def test_ofc_new_typed_ten_times_refreshes_the_table_message_once(
    tmp_path: Path,
) -> None:
    """/ofc new run ten times after the deletion: one edit (refused) and one re-post in
    all, and every reply links to the message posted anew."""
    async with world(tmp_path) as w:
        w.service.rt.refresh_seconds = 3600.0  # (the ten commands all within it: untimed)
        _t, first = await _open_and_delete(w)
        since = len(w.fake.calls)
        replies = [await w.slash(BOB, "new") for _ in range(10)]
        new = int(w.table_message()["id"])
        assert new != first
        assert [c.method for c in _table_writes(w, since)] == ["PATCH", "POST"]
        assert all(_link(new) in r["content"] for r in replies), [r["content"] for r in replies]


async def test_ofc_new_during_a_hand_posts_the_public_table_message_only(
    tmp_path: Path,
) -> None:
    """Mid-hand (cards hidden) the table message is deleted and Carol runs /ofc new: it is
    posted anew as the same public table message (no hidden card: the public writes are
    watched), and the reply links to it."""
    async with world(tmp_path) as w:
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        await w.play_street(ALICE, "dm")
        first = int(w.table_message()["id"])
        shown = w.table_message()["content"]
        w.fake.deleted.add(first)
        reply = await w.slash(CAROL, "new")
        again = w.table_message()
        assert int(again["id"]) != first and t.group_ref == str(again["id"])
        assert again["content"] == shown  # (the same public screen)
        assert _link(int(again["id"])) in reply["content"]
        assert leaks == []
