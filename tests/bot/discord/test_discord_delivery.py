"""New Discord messages through an outage (the counterpart of the Telegram tests in
``tests/bot/test_telegram_outage.py`` and ``test_telegram_delivery.py``): a table message or a
DM hand Discord refuses with a 5xx, or loses in the network, gets a pending ref and is posted
once it answers again, once, and the service then edits the real message; one refused for
good (403) is not tried again; a network error never escapes a write, so the press that
caused it is still answered."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from bot.model import PENDING_PREFIX
from tests.bot.discord.dc_world import ALICE, BOB, World, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, ApiCall, FakeUser

CHANNEL_POSTS = f"/channels/{CHANNEL_ID}/messages"


def table_post(name: str, call: ApiCall) -> bool:
    """A new message with buttons in the table's channel: the table message."""
    return (
        name == "create_message"
        and call.path == CHANNEL_POSTS
        and bool((call.body or {}).get("components"))
    )


def dm_posts(w: World, user: FakeUser) -> list[ApiCall]:
    """Every new message the bot tried in ``user``'s DMs."""
    channel = w.fake.dm_channels.get(user.id)
    return w.fake.calls_to("POST", f"/channels/{channel}/messages")


def dm_of(w: World, user: FakeUser) -> Callable[[str, ApiCall], bool]:
    """A match for the new messages of ``user``'s DMs (their channel looked up when called)."""

    def match(name: str, call: ApiCall) -> bool:
        channel = w.fake.dm_channels.get(user.id)
        return name == "create_message" and call.path == f"/channels/{channel}/messages"

    return match


async def joined(w: World) -> None:
    """``/ofc new``; Alice and Bob join, Alice is ready (Bob's ready deals the hand)."""
    reply = await w.slash(ALICE, "new")
    assert reply["content"].startswith("Table #")
    for u in (ALICE, BOB):
        record = await w.press_lobby(u, "j")
        assert w.notice(record) is not None
    reply = await w.slash(ALICE, "ready")
    assert "200" in reply["content"], reply


async def test_a_table_message_discord_refuses_is_posted_later_and_edited_there(
    tmp_path: Path,
) -> None:
    """Discord answers 503 to the table message ``/ofc new`` posts: the command answered
    that the message could not be posted and the table had no message (until its next
    change, or at all). It now answers "Table #1" (the table has a pending ref), posts the
    message once Discord answers again, once, and the service edits that message from then
    on: Bob's Join is answered and shows there."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        w.fake.outage(table_post)
        record = await w.fake.slash(ALICE, "new")
        await w.fake.wait_for(lambda: record.answered)
        reply = w.fake.messages[record.messages[-1]]
        assert reply["content"].startswith("Table #"), reply["content"]
        t = w.table()
        assert t.group_ref is not None and t.group_ref.startswith(PENDING_PREFIX)
        await w.fake.wait_for(
            lambda: len([c for c in w.fake.calls if table_post("create_message", c)]) >= 3
        )
        assert not [m for m in w.fake.channel_messages(CHANNEL_ID) if components(m)]
        w.fake.recover()
        await asyncio.wait_for(presenter.flush(), 10)
        [posted] = [m for m in w.fake.channel_messages(CHANNEL_ID) if components(m)]
        assert t.group_ref == posted["id"]
        record = await w.press_lobby(BOB, "j")
        assert w.notice(record) is not None  # answered: "you have a seat"
        path = f"{CHANNEL_POSTS}/{posted['id']}"
        assert [c.status for c in w.fake.calls_to("PATCH", path)][-1:] == [200]
        assert "Bob" in w.fake.messages[int(posted["id"])]["content"]
        assert [m for m in w.fake.channel_messages(CHANNEL_ID) if components(m)] == [
            w.fake.messages[int(posted["id"])]
        ]
        assert t.group_ref == posted["id"]
        assert w.logged == []


async def test_a_dm_hand_lost_in_the_network_is_posted_once_and_played_on(
    tmp_path: Path,
) -> None:
    """Bob's ``/ofc ready`` deals the hand while the connection of every new message in
    Bob's DMs is dropped after Discord posted it (its answer lost: an
    ``aiohttp.ServerDisconnectedError``, which discord.py lets through): the error escaped
    the presenter, Bob had no hand message and the rest of the deal's writes for him were
    lost. Bob's ready is answered at once, he stays reachable with a pending ref, every try
    carries the same nonce (so Discord returns the message it already posted: one DM, not
    one per try), and once Discord answers his hand is that DM, whose edits and presses
    work."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        await joined(w)
        t = w.table()
        w.fake.drop(dm_of(w, BOB), done=True)
        pressed = time.monotonic()
        record = await w.fake.slash(BOB, "ready")
        await w.fake.wait_for(lambda: record.answered)
        assert time.monotonic() - pressed < 5
        assert "200" in w.fake.messages[record.messages[-1]]["content"]
        await w.fake.wait_for(lambda: len([c for c in dm_posts(w, BOB) if c.dropped]) >= 3)
        seat = t.seat_of(str(BOB.id))
        assert seat is not None and seat.reachable
        assert seat.private_ref is not None and seat.private_ref.startswith(PENDING_PREFIX)
        nonces = {c.body["nonce"] for c in dm_posts(w, BOB)}
        assert len(nonces) == 1  # one message, tried again
        w.fake.recover()
        await asyncio.wait_for(presenter.flush(), 10)
        [dm] = w.fake.dm_messages(BOB.id)  # once
        channel = w.fake.dm_channels[BOB.id]
        assert seat.private_ref == f"{channel}:{dm['id']}"
        assert t.hand is not None
        if t.seats[t.hand.to_act[0]] is not seat:  # Alice first: Bob's hand gets his turn
            await w.play_street(ALICE, "dm")
            assert w.buttons(w.fake.messages[int(dm["id"])])  # (an edit of that DM)
        msg = w.fake.messages[int(dm["id"])]
        card, box = w.plan_street(BOB)[0]
        want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
        record = await w.press(BOB, msg, w.buttons(msg)[want])
        assert record.callback_type == 7, record.callback_body  # his hand, edited in place
        hands = [m for m in w.fake.dm_messages(BOB.id) if components(m)]  # (not the pings)
        assert hands == [w.fake.messages[int(dm["id"])]]
        assert w.logged == []


async def test_a_pending_dm_refused_with_403_is_not_tried_again(tmp_path: Path) -> None:
    """Bob's hand DM is refused with a 503 at the deal (a pending ref), then Bob closes his
    DMs: the next try is refused with 403/50007 and is the last (Bob's choice, not an
    outage); the presenter takes his DMs for closed."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        await joined(w)
        t = w.table()
        w.fake.outage(dm_of(w, BOB))
        record = await w.fake.slash(BOB, "ready")
        await w.fake.wait_for(lambda: record.answered)
        await w.fake.wait_for(lambda: len(dm_posts(w, BOB)) >= 2)
        w.fake.closed_dms.add(BOB.id)
        w.fake.recover()
        await asyncio.wait_for(presenter.flush(), 10)
        await asyncio.sleep(0.5)  # longer than every wait
        tries = dm_posts(w, BOB)
        assert [c.status for c in tries][-1] == 403 and all(c.status == 503 for c in tries[:-1])
        assert str(BOB.id) in presenter.closed_dms
        assert w.fake.dm_messages(BOB.id) == []
        assert t.hand is not None
        assert w.logged == []


async def test_the_showdown_s_new_messages_lost_in_the_network_do_not_hold_the_table(
    tmp_path: Path,
) -> None:
    """The last Confirm of a hand while Discord drops the connection of the channel's next
    new messages (the showdown picture, then the new table message twice): the picture's
    ``aiohttp.ServerDisconnectedError`` escaped the presenter, the table's writes stopped
    there and the new table message was never posted. The press is answered, the picture
    is sent again (as a notice is: the same nonce) and shows once, and the table message is
    posted on a later try and edited from then on."""
    async with world(tmp_path, rng_seed=7) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        presenter.notice_retries = (0.05, 0.1)
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        before = int(w.table_message()["id"])
        dropped: list[ApiCall] = []

        def channel_post(name: str, call: ApiCall) -> bool:
            if name != "create_message" or call.path != CHANNEL_POSTS:
                return False
            pictures = [c for c in dropped if c.files]
            hit = not pictures if call.files else len(dropped) - len(pictures) < 2
            if hit:
                dropped.append(call)
            return hit

        w.fake.drop(channel_post)
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})  # (each press answered)
        await asyncio.wait_for(presenter.flush(), 10)
        assert len(dropped) == 3 and dropped[0].files  # the picture, then the table twice
        assert len(w.fake.files) == 1  # the picture's second try
        assert [m for m in w.logged if "cannot send the picture" in m] == [], w.logged
        posted = w.table_message()
        assert int(posted["id"]) != before and t.group_ref == posted["id"]
        assert [c.body["nonce"] for c in dropped[1:]] == [dropped[2].body["nonce"]] * 2
        assert t.hand is not None and t.hand_no == 2  # the next hand: play goes on there
        path = f"{CHANNEL_POSTS}/{posted['id']}"
        edits = len(w.fake.calls_to("PATCH", path))
        first = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        await w.play_street(first, "dm")
        assert len(w.fake.calls_to("PATCH", path)) > edits
        assert f"▶ {first.name} to act" not in w.fake.messages[int(posted["id"])]["content"]


async def test_a_notice_lost_in_the_network_is_sent_again_and_never_raises(
    tmp_path: Path,
) -> None:
    """A notice whose connection is dropped before Discord took it: the
    ``aiohttp.ServerDisconnectedError`` escaped ``post`` (into the table's writes). It is sent
    again after the notice waits (the same nonce) and shows once."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.notice_retries = (0.05, 0.1)
        dropped: list[ApiCall] = []

        def first_post(name: str, call: ApiCall) -> bool:
            hit = name == "create_message" and call.path == CHANNEL_POSTS and not dropped
            if hit:
                dropped.append(call)
            return hit

        w.fake.drop(first_post)
        await presenter.post(str(CHANNEL_ID), "📣 Carol left the table.")
        shown = [m for m in w.fake.channel_messages(CHANNEL_ID) if "Carol" in m["content"]]
        assert [m["content"] for m in shown] == ["📣 Carol left the table."]  # once
        tries = w.fake.calls_to("POST", CHANNEL_POSTS)
        assert len(tries) == 2 and tries[0].dropped and tries[1].status == 200
        assert tries[0].body["nonce"] == tries[1].body["nonce"]
        w.fake.recover()
