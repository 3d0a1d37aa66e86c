"""One player at two tables in two channels of a guild at once, through discord.py's real
client and the fake Discord: each table's hidden cards stay in that table's own messages."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.model import ChatRef, LiveTable
from game.strategy import complete_street
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, action_of, components, world
from tests.bot.fakes import FOULED_NOTICES
from tests.fakes.discord_api import CHANNEL_ID, EPHEMERAL, GUILD_ID, TOKEN, FakeDiscord, FakeUser

OTHER = CHANNEL_ID + 1  # a second channel of the guild, with a table of its own


def table_in(w: World, channel: int) -> LiveTable:
    t = w.service.table_in(ChatRef("discord", str(GUILD_ID), str(channel), ""))
    assert t is not None
    return t


def lobby_message(w: World, channel: int) -> dict[str, Any]:
    for m in reversed(w.fake.channel_messages(channel)):
        if any(action_of(c) == "j" for c in components(m)):
            return m
    raise AssertionError(f"no table message in {channel}")


async def my_cards(w: World, channel: int) -> dict[str, Any]:
    """Alice presses "🂠 My cards" on the table message of ``channel``."""
    msg = lobby_message(w, channel)
    custom_id = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
    record = await w.press(ALICE, msg, custom_id)
    return w.fake.messages[record.messages[-1]]


def tables_on(message: dict[str, Any]) -> set[int]:
    """The tables the message's buttons act on."""
    from bot.presses import table_of

    return {n for c in components(message) if (n := table_of(c.get("custom_id"))) is not None}


@contextlib.asynccontextmanager
async def seated_at_two_tables(tmp_path: Path) -> AsyncIterator[World]:
    """A world whose guild has two channels: table #1 in the main one seats Alice and Bob,
    #2 in the other Alice and Carol (nobody ready yet)."""
    fake = FakeDiscord(TOKEN, channels=(CHANNEL_ID, OTHER))
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            await w.slash(ALICE, "new")
            await w.slash(CAROL, "new", channel_id=OTHER)
            for user, channel in ((ALICE, CHANNEL_ID), (BOB, CHANNEL_ID), (ALICE, OTHER)):
                await w.slash(user, "join", channel_id=channel)
            await w.slash(CAROL, "join", channel_id=OTHER)
            yield w
    finally:
        await fake.stop()


async def test_my_cards_of_one_table_never_shows_the_other_tables_hand(tmp_path: Path) -> None:
    """Alice plays at #1 (with Bob) and at #2 (with Carol). She opens "🂠 My cards" at #1;
    then #2 deals. Her ephemeral hand of #1 keeps showing #1 (it used to be rewritten
    with #2's hand and buttons: the bot keeps one live ephemeral hand per player, so a
    press on the message she opened at #1 played at #2). Each table's "My cards" is kept
    up to date with its own table only."""
    async with seated_at_two_tables(tmp_path) as w:
        for user in (ALICE, BOB):
            await w.slash(user, "ready")
        one, two = table_in(w, CHANNEL_ID), table_in(w, OTHER)
        assert one.hand is not None and two.hand is None
        first = await my_cards(w, CHANNEL_ID)
        assert first["content"].startswith(f"🃏 Table #{one.id} ") and tables_on(first) == {one.id}
        for user in (ALICE, CAROL):
            await w.slash(user, "ready", channel_id=OTHER)
        assert two.hand is not None
        await w.adapter.presenter.flush()
        first = w.fake.messages[int(first["id"])]
        assert first["content"].startswith(f"🃏 Table #{one.id} "), first["content"]
        assert tables_on(first) <= {one.id}
        second = await my_cards(w, OTHER)
        assert second["content"].startswith(f"🃏 Table #{two.id} ")
        assert second["id"] != first["id"]
        # a street is played at #1: Alice's #1 hand follows it, her #2 hand stays
        acting = one.seats[one.hand.to_act[0]].user_id
        before = first["content"]
        await w.play_street(ALICE if acting == str(ALICE.id) else BOB, "dm")
        await w.adapter.presenter.flush()
        first = w.fake.messages[int(first["id"])]
        second = w.fake.messages[int(second["id"])]
        assert first["content"] != before, before
        assert first["content"].startswith(f"🃏 Table #{one.id} ")
        assert tables_on(first) <= {one.id}
        assert second["content"].startswith(f"🃏 Table #{two.id} ")
        assert tables_on(second) <= {two.id}


async def play_street_at(w: World, t: LiveTable, user: FakeUser) -> None:
    """``user`` places this street's cards at table ``t`` on their DM hand of ``t`` (the
    built-in strategy decides), then confirms."""
    hand = t.hand
    seat = t.seat_of(str(user.id))
    assert hand is not None and seat is not None
    moves = complete_street(
        hand.board_of(seat.seat, with_pending=True),
        hand.to_place(seat.seat),
        hand.discards_needed(seat.seat),
        options=hand.options,
    )
    wanted = [("d", c.text) if b is None else ("p", c.text + b.value[0]) for c, b in moves]
    for want in [*wanted, ("c", "")]:
        assert seat.private_ref is not None
        msg = w.fake.messages[int(seat.private_ref.split(":")[1])]
        record = await w.press(user, msg, w.buttons(msg)[want])
        if (w.notice(record) or {}).get("content") in FOULED_NOTICES:  # asks first (R2.3)
            record = await w.press(user, msg, w.buttons(msg)[want])
        assert record.callback_type == 7, record.callback_body


def pings(w: World, user: FakeUser, table: LiveTable) -> list[dict[str, Any]]:
    """The "your move" DMs of ``table`` the user has now (not the hand message itself)."""
    seat = table.seat_of(str(user.id))
    assert seat is not None and seat.private_ref is not None
    hand_id = int(seat.private_ref.split(":")[1])
    return [
        m
        for m in w.fake.dm_messages(user.id)
        if int(m["id"]) != hand_id
        and int(m["id"]) not in w.fake.deleted
        and m["content"].startswith(f"🃏 Table #{table.id} ")
        and not components(m)
    ]


async def test_the_end_of_a_turn_at_one_table_keeps_the_other_tables_ping(tmp_path: Path) -> None:
    """Alice's turn begins at #2: a short "your move" DM pings her. Before she moves there
    she finishes her turn at #1: that deletes #1's ping only (the bot kept one ping per
    player, so #2's ping was deleted while it was still her move there)."""
    async with seated_at_two_tables(tmp_path) as w:
        for user, channel in ((ALICE, CHANNEL_ID), (BOB, CHANNEL_ID)):
            await w.slash(user, "ready", channel_id=channel)
        for user in (ALICE, CAROL):
            await w.slash(user, "ready", channel_id=OTHER)
        one, two = table_in(w, CHANNEL_ID), table_in(w, OTHER)
        users = {str(u.id): u for u in (ALICE, BOB, CAROL)}

        def acting(t: LiveTable) -> FakeUser:
            assert t.hand is not None
            return users[t.seats[t.hand.to_act[0]].user_id]

        # #2 plays on until Alice's turn there begins anew (she is pinged)
        for _ in range(4):
            await w.adapter.presenter.flush()
            if acting(two) is ALICE and pings(w, ALICE, two):
                break
            await play_street_at(w, two, acting(two))
        assert acting(two) is ALICE and len(pings(w, ALICE, two)) == 1
        # #1 plays on until Alice has played a street there
        while acting(one) is not ALICE:
            await play_street_at(w, one, BOB)
        await play_street_at(w, one, ALICE)
        await w.adapter.presenter.flush()
        assert acting(two) is ALICE and len(pings(w, ALICE, two)) == 1


async def test_ofc_hand_in_a_table_s_channel_shows_that_table(tmp_path: Path) -> None:
    """Alice plays at #1 and #2 and it is her move at both. ``/ofc hand`` asked in #2's
    channel answers with her board at #2 (it showed #1's, the first table where it was her
    move, whatever channel she asked in); asked in #1's, with #1's."""
    async with seated_at_two_tables(tmp_path) as w:
        for user in (ALICE, BOB):
            await w.slash(user, "ready")
        for user in (ALICE, CAROL):
            await w.slash(user, "ready", channel_id=OTHER)
        one, two = table_in(w, CHANNEL_ID), table_in(w, OTHER)
        for t, other in ((one, BOB), (two, CAROL)):
            assert t.hand is not None
            if t.seats[t.hand.to_act[0]].user_id != str(ALICE.id):
                await play_street_at(w, t, other)
            assert t.hand is not None
            assert t.seats[t.hand.to_act[0]].user_id == str(ALICE.id)
        for channel, t in ((OTHER, two), (CHANNEL_ID, one)):
            reply = await w.slash(ALICE, "hand", channel_id=channel)
            assert reply["flags"] & EPHEMERAL and reply["attachments"], reply
            assert f"Table #{t.id} " in reply["content"], reply["content"]
