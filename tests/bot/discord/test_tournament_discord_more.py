"""More tournaments (R8.7, issue 11) end to end through discord.py's real client against the
local fake Discord, the cases the Telegram tests have: a player who never presses (placed for
on timeout, hand after hand, never sat out) and a restart of the bot in the middle of the
tournament (same SQLite file, same fake Discord) that goes on from storage to the payout. A
listener checks every public channel write as it happens: no hidden card ever appears there
before its showdown (R3.3)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.model import LiveTable
from storage.check import check_database, check_store
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, action_of, components, world
from tests.bot.discord.test_tournament_discord import (
    BUY_IN,
    PLAYERS,
    START,
    arrange_and_confirm,
    balance,
    lobby_message,
    press_lobby,
    registered_text,
    watch_leaks,
)
from tests.bot.levels import short_levels
from tests.bot.test_tournament_e2e import SLEEPER_SETTINGS, play_tournament, play_with_carol_asleep
from tests.fakes.discord_api import (
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    TOKEN,
    FakeDiscord,
    FakeUser,
)


async def configure(w: World, **values: str) -> None:
    """Alice (an admin) sets each value with ``/ofcadmin settings``."""
    for name, value in values.items():
        if name == "level_minutes" and float(value) < 1:  # (below what /settings takes)
            await short_levels(w.store, "discord", str(GUILD_ID), float(value))
            continue
        reply = await w.slash(ALICE, "settings", {"name": name, "value": value}, admin=True)
        assert reply["content"].startswith(
            (f"Saved: {name} = {value}", f"Already so: {name} = {value}")
        ), reply["content"]


async def open_and_register(w: World) -> LiveTable:
    """Alice opens a Pineapple tournament; Alice and Bob press Register, Carol runs
    ``/ofc join``: the third registration fills the seats and starts it."""
    reply = await w.slash(ALICE, "tournament", {"game": "pineapple"})
    assert not reply["flags"] & EPHEMERAL, reply
    lobby = lobby_message(w)
    assert {"g", "x", "o"} <= {action_of(c) for c in components(lobby)}
    for user in (ALICE, BOB):
        notice = await press_lobby(w, user, "g")
        assert notice is not None and notice["flags"] & EPHEMERAL
        assert notice["content"] == registered_text(user)
    reply = await w.slash(CAROL, "join")
    assert f"{BUY_IN} kush went to the prize pool" in reply["content"], reply["content"]
    t: LiveTable = w.table()
    assert t.tournament is not None and t.hand is not None and t.hand_no == 1
    for user in PLAYERS:
        assert await balance(w, user) == START - BUY_IN
    return t


async def play_to_the_end(
    w: World,
    *,
    sleeper: FakeUser | None = None,
    stop_after_streets: int | None = None,
    before_hand: Callable[[LiveTable], Awaitable[None]] | None = None,
    limit: float = 120.0,  # a guard against a loop without end: a loaded machine is slow
) -> int:
    """Whoever is to act presses Arrange + Confirm on their DM until the tournament table
    closes (:func:`tests.bot.test_tournament_e2e.play_tournament`)."""
    return await play_tournament(
        w, w.table(), PLAYERS, arrange_and_confirm, sleeper=sleeper,
        stop_after_streets=stop_after_streets, before_hand=before_hand, limit=limit,
    )  # fmt: skip


def final_message(w: World) -> str:
    """The public channel message with the final standings."""
    for m in reversed(w.fake.channel_messages(CHANNEL_ID)):
        content = str(m.get("content", ""))
        if content.startswith("🏆 Tournament #"):
            return content
    raise AssertionError("no final standings in the channel")


async def check_the_end(w: World, table_id: int, db: Path, leaks: list[str]) -> None:
    """The final standings (winner takes all), the balances, the storage check and no leak."""
    assert table_id not in w.service.tables  # closed after the payout
    assert await w.store.stacks(table_id) == {}  # the pool is paid out to the last kush
    pool = 3 * BUY_IN
    final = final_message(w)
    lines = final.splitlines()
    assert lines[0] == f"🏆 Tournament #{table_id} is over. Pool {pool} kush:", final
    assert len(lines) == 4, final
    winner = next(u for u in PLAYERS if lines[1] == f"1. {u.name} — {pool} kush")
    others = [u for u in PLAYERS if u is not winner]
    assert {x.split(". ", 1)[1] for x in lines[2:]} == {f"{u.name} — 0 kush" for u in others}
    assert {x[0] for x in lines[2:]} == {"2", "3"}, final
    assert await balance(w, winner) == START - BUY_IN + pool
    for u in others:
        assert await balance(w, u) == START - BUY_IN
    assert leaks == [], leaks
    assert await check_store(w.store) == []
    assert await check_database(db) == []


@pytest.mark.usefixtures("short_hand_seconds")  # (a budget below the minimum)
async def test_r8_7_on_discord_a_player_who_never_presses_is_auto_placed_and_never_sat_out(
    tmp_path: Path,
) -> None:
    """R8.7 with R8.5: Carol never presses; with a 5-second budget and no bank her streets are
    placed for her on timeout, hand after hand (dealt in again, never sat out), until the
    tournament ends; the payout and the storage check."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, db=db, rng_seed=5) as w:
        leaks = watch_leaks(w)
        public = w.public_texts()
        await configure(w, **SLEEPER_SETTINGS)
        t = await open_and_register(w)
        table_id = t.id
        await play_with_carol_asleep(
            t, w.store, CAROL, lambda before: play_to_the_end(w, sleeper=CAROL, before_hand=before)
        )
        assert any("⌛ auto" in x for x in public)
        assert any(" is out: place " in x for x in public)  # knock-outs announced
        await check_the_end(w, table_id, db, leaks)


async def test_r8_7_on_discord_a_restart_in_the_middle_continues_the_tournament(
    tmp_path: Path,
) -> None:
    """The bot (client and service) stops in the middle of a hand and starts again on the same
    SQLite file and fake Discord: the tournament goes on from storage (chips, level clock, the
    hand in play) to the payout."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db, rng_seed=7) as w:
            leaks = watch_leaks(w)
            await configure(
                w,
                tournament_buy_in=str(BUY_IN),
                tournament_chips="200",
                level_minutes="0.05",
                chips_schedule="10,100",
            )
            t = await open_and_register(w)
            table_id = t.id
            # a whole first hand (3 players × 5 streets), then two streets of the second
            await play_to_the_end(w, stop_after_streets=15 + 2)
            assert t.hand is not None and t.hand_no == 2, t.hand_no
            assert t.tournament is not None
            state = t.tournament.to_json()
            hand = t.hand.to_json()
            started = t.tournament.started_at
            chips = dict(t.tournament.chips)
            assert sum(chips.values()) == 600 and len(set(chips.values())) > 1
            stopping = time.time()
        assert leaks == [], leaks
        fake.listeners.clear()  # that watcher knew the stopped service's tables
        async with world(tmp_path, fake=fake, db=db, rng_seed=8) as w2:
            leaks = watch_leaks(w2)
            t2 = w2.service.tables[table_id]
            assert t2.tournament is not None and t2.hand is not None
            restored = t2.tournament.to_json()
            assert {**restored, "started_at": started} == state and t2.hand.to_json() == hand
            # the level clock from storage, stood still while the bot was down (R8.7)
            assert started is not None and t2.tournament.started_at is not None
            assert 0 <= t2.tournament.started_at - started <= time.time() - stopping
            assert t2.tournament.chips == chips
            for user in PLAYERS:  # the buy-ins stay paid: no refund, no second charge
                assert await balance(w2, user) == START - BUY_IN
            # the level runs on through the restart: wait for level 2, then play on
            due = t2.tournament.next_level_at(time.time())
            if due is not None and t2.tournament.level_at(time.time()) == 1:
                await asyncio.sleep(max(0.0, due - time.time()) + 0.05)
            assert t2.tournament.level_at(time.time()) >= 2
            await play_to_the_end(w2)
            records = [h["result"] for h in await w2.store.export_hands(table_id)]
            hands: list[dict[str, Any]] = [r for r in records if not r.get("tournament_end")]
            assert hands[0]["tournament"]["chips_per_point"] == 10
            assert hands[-1]["tournament"]["chips_per_point"] >= 100  # from level 2 on
            assert all(not r.get("kush") for r in hands), hands  # chips move, not kush
            await check_the_end(w2, table_id, db, leaks)
    finally:
        await fake.stop()
