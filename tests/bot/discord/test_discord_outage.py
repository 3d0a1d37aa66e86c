"""Discord down for a while (its API answering 5xx to every edit past discord.py's own
retries), then back: the channel's table message and each player's DM hand are brought up to
date once it answers again, with their newest screen only, while presses are answered at
once; an outage that never ends is given up in a bounded time (the counterpart of
``tests/bot/test_telegram_outage.py``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.screens import Screen
from tests.bot.discord.dc_world import ALICE, BOB, World, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import CHANNEL_ID, ApiCall, FakeUser


def edits(name: str, call: ApiCall) -> bool:
    return name == "edit_message"


async def placed(w: World) -> tuple[FakeUser, FakeUser]:
    """Alice and Bob dealt in; the first to act has placed their street on their DM hand, not
    confirmed. Returns (who acts first, the other)."""
    await seat_everyone(w, [ALICE, BOB])
    t = w.table()
    assert t.hand is not None
    first = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
    for card, box in w.plan_street(first):
        msg = await w.hand_message(first, "dm")
        want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
        record = await w.press(first, msg, w.buttons(msg)[want])
        assert record.callback_type == 7, record.callback_body
    return first, BOB if first is ALICE else ALICE


async def test_messages_left_stale_by_a_discord_outage_are_written_once_it_answers(
    tmp_path: Path,
) -> None:
    """The first player confirms their street while Discord refuses every edit with a 503
    (what discord.py raises as ``DiscordServerError``, as it does a 500, 502 or 504 once its
    own five tries are spent): the table message (whose turn it is) and the other player's DM
    (their turn begins: its buttons) failed, were logged and lost, showing the old turn and
    no buttons to the player to act until the next change. They are written again until
    Discord answers, the newest screen, and the Confirm is answered at once meanwhile."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        first, other = await placed(w)
        t = w.table()
        table = w.table_message()
        table_mid = int(table["id"])
        other_dm = w.dm(other)
        assert other_dm is not None and not components(other_dm)  # (not their turn yet)
        other_mid = int(other_dm["id"])
        w.fake.outage(edits)
        down = len(w.fake.calls)
        msg = await w.hand_message(first, "dm")
        pressed = time.monotonic()
        record = await w.fake.press(first, msg, w.buttons(msg)[("c", "")], [])
        await w.fake.wait_for(lambda: record.answered)
        assert record.callback_type == 7 and time.monotonic() - pressed < 1.0
        await w.fake.wait_for(
            lambda: t.hand is not None and t.seats[t.hand.to_act[0]].user_id == str(other.id)
        )
        await asyncio.sleep(1.0)  # Discord still down: longer than 0.05 + 0.1 + 0.2 s

        def refused() -> list[ApiCall]:
            return [c for c in w.fake.calls[down:] if c.method == "PATCH" and c.status == 503]

        def both_tried_again() -> bool:
            paths = {c.path for c in refused()}
            return (
                f"/channels/{CHANNEL_ID}/messages/{table_mid}" in paths
                and any(p.endswith(f"/messages/{other_mid}") for p in paths)
                and len(refused()) > len(paths)  # tried again
            )

        # (a loaded machine may not have made those tries within that second: waited for)
        await w.fake.wait_for(both_tried_again)
        turn = f"▶ {other.name} to act"
        assert turn not in w.fake.messages[table_mid]["content"]  # stale meanwhile
        assert not components(w.fake.messages[other_mid])
        w.fake.recover()
        await asyncio.wait_for(presenter.flush(), 10)
        assert turn in w.fake.messages[table_mid]["content"]
        assert w.buttons(w.fake.messages[other_mid])  # the player to act has their buttons
        assert w.logged == []  # tried again, not lost


async def test_a_discord_outage_that_does_not_end_is_given_up(tmp_path: Path) -> None:
    """Discord refuses every edit for good: a message's edit is tried again only for
    ``edit_give_up`` seconds, then given up (logged; the writer ends, a flush returns)."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05,)
        presenter.edit_give_up = 0.5
        w.fake.closed_dms |= {ALICE.id, BOB.id}
        await seat_everyone(w, [ALICE, BOB])
        table_mid = int(w.table_message()["id"])
        w.fake.outage(edits)
        began = time.monotonic()
        presenter.queue_edit(CHANNEL_ID, table_mid, Screen("🃏 something new"))
        await asyncio.wait_for(presenter.flush(), 5)
        assert 0.4 < time.monotonic() - began < 3
        path = f"/channels/{CHANNEL_ID}/messages/{table_mid}"
        tries = [c for c in w.fake.calls_to("PATCH", path) if c.status == 503]
        assert 5 <= len(tries) <= 12, len(tries)
        assert [m for m in w.logged if "lost" in m], w.logged
        w.logged.clear()
        w.fake.recover()
