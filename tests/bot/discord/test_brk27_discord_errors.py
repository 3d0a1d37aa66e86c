"""Discord misbehaving under a hand in play (brk27), through discord.py against the local
fake: what its rate limits and refusals leave behind."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, World, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.fakes import FOULED_NOTICES
from tests.fakes.discord_api import CHANNEL_ID, FakeUser


async def street_unsettled(w: World, user: FakeUser) -> list[float]:
    """``user`` plays their street on their DM hand without waiting for the table's other
    writes; returns how long each press waited for its answer (seconds)."""
    waited = []
    for card, box in w.plan_street(user):
        want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
        await w.fake.wait_for(lambda k=want: k in w.buttons(w.dm(user) or {}), timeout=10)
        msg = await w.hand_message(user, "dm")
        record = await w.fake.press(user, msg, w.buttons(msg)[want])
        await w.fake.wait_for(lambda r=record: r.answered, timeout=5)
        waited.append((record.callback_at or 0.0) - record.sent_at)
        await asyncio.wait_for(w.adapter.idle(), 5)
    for _ in range(2):  # (a Confirm that fouls the finished board asks first: again, R2.3)
        msg = await w.hand_message(user, "dm")
        record = await w.fake.press(user, msg, w.buttons(msg)[("c", "")])
        await w.fake.wait_for(lambda r=record: r.answered, timeout=5)
        waited.append((record.callback_at or 0.0) - record.sent_at)
        if (w.notice(record) or {}).get("content") not in FOULED_NOTICES:
            break
    return waited


@pytest.mark.parametrize("is_global", [False, True])
async def test_a_429_on_the_table_message_mid_hand_holds_no_press(
    tmp_path: Path, is_global: bool
) -> None:
    """R8.5: Discord answers an edit of the table message mid-hand with a 429 (per route or
    global, retry after 1.5 s) while both players play a street on their DM hands: every
    press is answered at once (an interaction's answer is no REST write), the hand goes on
    once the pause is over, the channel shows the newest screen, no hidden card reaches it,
    and the ledger checks."""
    async with world(tmp_path) as w:
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        users = {str(u.id): u for u in (ALICE, BOB)}
        assert t.hand is not None
        await w.play_street(users[t.seats[t.hand.to_act[0]].user_id], "dm")
        await w.adapter.presenter.flush()
        limited = {"message": "You are being rate limited.", "retry_after": 1.5}
        w.fake.fail_next["edit_message"] = [(429, dict(limited, **{"global": is_global}))]
        waited: list[float] = []
        for _ in range(2):
            assert t.hand is not None and t.hand_no == 1
            waited += await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
        assert max(waited) < 1.0, waited
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        table = w.table_message()
        assert t.hand is not None
        mover = t.seats[t.hand.to_act[0]].name
        assert f"▶ {mover} to act" in table["content"]
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
        await w.adapter.presenter.flush()
        assert t.hand_no == 2
        assert leaks == []
        assert await check_store(w.store) == []


async def test_the_table_edit_after_a_discord_429_shows_the_table_as_it_is_then(
    tmp_path: Path,
) -> None:
    """As Telegram's (test_brk27_platform_errors): the first edit of the table message after
    the pause carries its newest screen, once. discord.py waits the 429 out and sends the
    request again itself: it carried the screen refused (the turn of a player who has
    played since), and the newest one followed: two edits where one would do."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        users = {str(u.id): u for u in (ALICE, BOB)}
        assert t.hand is not None
        await w.play_street(users[t.seats[t.hand.to_act[0]].user_id], "dm")
        await w.adapter.presenter.flush()
        table_mid = int(w.table_message()["id"])
        path = f"/channels/{CHANNEL_ID}/messages/{table_mid}"
        done = len(w.fake.calls_to("PATCH", path))
        limited: dict[str, Any] = {"message": "rate limited", "retry_after": 1.5, "global": False}
        w.fake.fail_next["edit_message"] = [(429, limited)]
        for _ in range(2):
            assert t.hand is not None
            await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        edits = w.fake.calls_to("PATCH", path)[done:]
        assert edits[0].status == 429
        shown = w.fake.messages[table_mid]["content"]
        assert (edits[0].body or {}).get("content") != shown  # (out of date by the retry)
        assert [(c.body or {}).get("content") for c in edits[1:]] == [shown]


async def test_a_long_discord_429_on_the_table_message_does_not_hold_the_stop(
    tmp_path: Path,
) -> None:
    """Discord answers an edit of the table message with a 429 of a minute: discord.py
    sleeps the minute inside the request, and the bot's stop waited for that write (a
    restart held for the whole minute). The stop ends within seconds now, the write not
    made (the restart writes the table again)."""
    async with world(tmp_path) as w:
        w.adapter.stop_writes_seconds = 0.5
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        users = {str(u.id): u for u in (ALICE, BOB)}
        limited = {"message": "You are being rate limited.", "retry_after": 60.0, "global": False}
        w.fake.fail_next["edit_message"] = [(429, limited)]
        assert t.hand is not None
        await street_unsettled(w, users[t.seats[t.hand.to_act[0]].user_id])
        await w.fake.wait_for(lambda: not w.fake.fail_next["edit_message"])  # (the 429)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 5  # (the service's and the adapter's stop)
