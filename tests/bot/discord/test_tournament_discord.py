"""A tournament (R8.7, issue 11) end to end through discord.py's real client against the local
fake Discord: ``/ofcadmin settings``, ``/ofc tournament``, the lobby's Register button and
``/ofc join``, every street played with 🪄 Arrange + Confirm on the DM hands, a level that
rises with the clock, the final standings, the payout into balances, ``/ofc history``,
``/ofc top`` and the storage check. A listener checks every public channel write as it
happens: no hidden card ever appears there before its showdown (R3.3)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot.model import LiveTable
from bot.texts import grouped, tr
from game.cards import Card
from storage.check import check_database, check_store
from tests.bot.discord.dc_world import (
    ALICE,
    BOB,
    CAROL,
    World,
    action_of,
    cards_in,
    components,
    world,
)
from tests.bot.fakes import FOULED_NOTICES
from tests.bot.levels import short_levels
from tests.bot.test_tournament_e2e import allowed_cards, play_hand_out
from tests.fakes.discord_api import CHANNEL_ID, EPHEMERAL, GUILD_ID, FakeUser, MessageWrite

PLAYERS = (ALICE, BOB, CAROL)
BUY_IN = 100
START = 1000  # a new player's balance


def lobby_message(w: World) -> dict[str, Any]:
    """The newest public channel message with the tournament lobby's Register button."""
    messages: list[dict[str, Any]] = w.fake.channel_messages(CHANNEL_ID)
    for m in reversed(messages):
        if any(action_of(c) == "g" for c in components(m)):
            found: dict[str, Any] = m
            return found
    raise AssertionError("no tournament lobby message")


async def press_lobby(w: World, user: FakeUser, action: str) -> dict[str, Any] | None:
    """Press the lobby's button ``action``; returns the ephemeral notice it answered with."""
    msg = lobby_message(w)
    cid = next(c["custom_id"] for c in components(msg) if action_of(c) == action)
    return w.notice(await w.press(user, msg, cid))


def watch_leaks(w: World) -> list[str]:
    """Every public channel write (content, button labels, select options) may show only the
    cards public at that moment (R3.3); tables already closed are remembered, since the last
    showdown of a tournament is posted after the payout closed its table."""
    violations: list[str] = []
    seen: dict[int, LiveTable] = {}

    def check(write: MessageWrite) -> None:
        seen.update(w.service.tables)
        if not write.guild or write.ephemeral:
            return
        msg = write.message
        texts = [str(msg.get("content", ""))]
        for c in components(msg):
            texts.append(str(c.get("label") or ""))
            texts.extend(str(o.get("label", "")) for o in c.get("options", []))
        shown: set[Card] = set().union(*(cards_in(x) for x in texts))
        allowed: set[Card] = set()
        for t in seen.values():
            allowed |= allowed_cards(t)
        extra = shown - allowed
        if extra:
            violations.append(f"{sorted(c.text for c in extra)} in: {texts[0][:80]!r}")

    w.fake.listeners.append(check)
    return violations


async def balance(w: World, user: FakeUser) -> int:
    community = await w.store.community("discord", str(w.fake.guild_id))
    player = await w.store.find_player(community.id, str(user.id))
    assert player is not None
    return player.balance


async def arrange_and_confirm(w: World, user: FakeUser) -> None:
    """``user`` presses 🪄 Arrange, then Confirm, on their DM hand; each press edits it in
    place (callback type 7)."""
    for action in ("a", "c"):

        def ready(want: str = action) -> bool:
            msg = w.dm(user)
            return msg is not None and (want, "") in w.buttons(msg)

        await w.fake.wait_for(ready)
        msg = w.dm(user)
        assert msg is not None
        record = await w.press(user, msg, w.buttons(msg)[(action, "")])
        if (w.notice(record) or {}).get("content") in FOULED_NOTICES:  # asks first (R2.3)
            msg = w.dm(user)
            assert msg is not None
            record = await w.press(user, msg, w.buttons(msg)[(action, "")])
        assert record.callback_type == 7, (record.callback_body, w.notice(record))


def registered_text(user: FakeUser) -> str:
    """The answer to ``user``'s Register press, in their language."""
    if str(user.locale).startswith("ru"):
        return f"Вы в турнире: взнос {BUY_IN} кушей — в призовом фонде."
    return f"Registered: {BUY_IN} kush went to the prize pool."


def label_of(user: Any) -> str:
    """The default kush label as ``user`` reads it after this test's round amounts (R8.1:
    "кушей" in Russian after 100, 900, 1200: 5 кушей, not 5 куш)."""
    return "кушей" if str(user.locale).startswith("ru") else "kush"


async def test_r8_7_three_player_pineapple_tournament_on_discord_to_the_payout(
    tmp_path: Path,
) -> None:
    """Admin settings, /ofc tournament, two Register presses and /ofc join (the third seat
    starts it), hands played with Arrange + Confirm on the DMs, level 2 (3 s) raises the
    chips per point, knock-outs, the winner takes the pool; history, top, storage check."""
    db = tmp_path / "ofc.sqlite3"
    async with world(tmp_path, db=db, rng_seed=3) as w:
        leaks = watch_leaks(w)
        public = w.public_texts()
        for name, value in (
            ("tournament_buy_in", str(BUY_IN)),
            ("tournament_chips", "200"),
            ("chips_schedule", "10,100"),
        ):
            reply = await w.slash(ALICE, "settings", {"name": name, "value": value}, admin=True)
            assert reply["content"].startswith(
                (f"Saved: {name} = {value}", f"Already so: {name} = {value}")
            ), reply["content"]
        # (3-second levels: below what /settings takes, R8.7)
        await short_levels(w.store, "discord", str(GUILD_ID), 0.05)
        reply = await w.slash(ALICE, "tournament", {"game": "pineapple"})
        assert not reply["flags"] & EPHEMERAL, reply
        lobby = lobby_message(w)
        assert {"g", "x", "o"} <= {action_of(c) for c in components(lobby)}
        assert f"Buy-in {BUY_IN} kush" in lobby["content"], lobby["content"]
        for user in (ALICE, BOB):
            notice = await press_lobby(w, user, "g")
            assert notice is not None and notice["flags"] & EPHEMERAL
            # in the presser's language (Bob's is Russian), as the seat he plays in
            assert notice["content"] == registered_text(user)
        lobby = lobby_message(w)
        assert "Alice, Bob" in lobby["content"] and f"pool {2 * BUY_IN} kush" in lobby["content"]
        reply = await w.slash(CAROL, "join")  # /ofc join registers too
        assert f"{BUY_IN} kush went to the prize pool" in reply["content"], reply["content"]
        t = w.table()
        tour = t.tournament
        assert tour is not None and t.hand is not None and t.hand_no == 1
        table_id = t.id
        for user in PLAYERS:
            assert await balance(w, user) == START - BUY_IN
        await w.adapter.presenter.flush()
        board = w.fake.messages[int(str(t.group_ref).split(":")[-1])]["content"]
        assert "🏆 Level 1 · 10 chips a point · next level in 0:0" in board, board
        assert "Chips: Alice 200, Bob 200, Carol 200" in board, board
        # the first hand is held until level 2 is due: the next hand is dealt at level 2
        due = tour.next_level_at(time.time())
        assert due is not None
        await asyncio.sleep(max(0.0, due - time.time()) + 0.05)
        by_id = {str(u.id): u for u in PLAYERS}
        deadline = time.monotonic() + 120  # (a guard: the whole tournament took 12 s loaded)
        while table_id in w.service.tables:
            assert time.monotonic() < deadline, "the tournament did not end in time"
            hand = t.hand
            if hand is None or hand.is_over or not hand.to_act:
                await asyncio.sleep(0.01)
                continue
            await arrange_and_confirm(w, by_id[t.seats[t.owner(hand.to_act[0])].user_id])
        await w.adapter.presenter.flush()
        # chips per point rose from one hand to a later one; no kush moved during hands
        records = [h["result"] for h in await w.store.export_hands(table_id)]
        hands = [r for r in records if not r.get("tournament_end")]
        cpp = [r["tournament"]["chips_per_point"] for r in hands]
        # (level 3, 200 a point, follows 3 s later: a slow machine may get there)
        assert len(hands) >= 2 and cpp[0] == 10 and cpp[-1] >= 100 and cpp == sorted(cpp), cpp
        assert all(not r.get("kush") for r in hands), hands
        # the channel was shown the level the second hand was dealt at (2, or 3 on a slow
        # machine, whose first hand outlasts level 2's three seconds)
        second = hands[1]["tournament"]
        shown = f"Level {second['level']} · {second['chips_per_point']} chips a point"
        assert second["level"] >= 2 and any(shown in x for x in public), shown
        assert any(" is out: place " in x for x in public)  # knock-outs announced
        # the final standings: winner takes all (up to 3 players), paid into balances
        pool = 3 * BUY_IN
        final = next(x for x in reversed(public) if x.startswith("🏆 Tournament #"))
        lines = final.splitlines()
        assert lines[0] == f"🏆 Tournament #{table_id} is over. Pool {pool} kush:", final
        winner = next(u for u in PLAYERS if lines[1] == f"1. {u.name} — {pool} kush")
        others = [u for u in PLAYERS if u is not winner]
        assert {x.split(". ", 1)[1] for x in lines[2:]} == {f"{u.name} — 0 kush" for u in others}
        assert table_id not in w.service.tables and await w.store.stacks(table_id) == {}
        assert await balance(w, winner) == START - BUY_IN + pool
        for u in others:
            assert await balance(w, u) == START - BUY_IN
        reply = await w.slash(winner, "history")
        assert reply["flags"] & EPHEMERAL
        assert any(
            x in reply["content"]
            for x in (
                f"Tournament #{table_id}: place 1, +{pool - BUY_IN} kush",
                f"Турнир #{table_id}: место 1, +{pool - BUY_IN} кушей",  # 200 кушей
            )
        ), reply["content"]
        for u in others:
            reply = await w.slash(u, "history")
            line = reply["content"]
            assert f"#{table_id}" in line and f"−{BUY_IN} {label_of(u)}" in line, line
        reply = await w.slash(others[0], "top")
        top = reply["content"].splitlines()
        label = label_of(others[0])
        won = grouped(START - BUY_IN + pool, "ru" if label == "кушей" else "en")
        assert top[1] == f"1. {winner.name} — {won} {label}", reply["content"]
        assert {x.split(". ", 1)[1] for x in top[2:4]} == {
            f"{u.name} — {START - BUY_IN} {label}" for u in others
        }, reply["content"]
        assert leaks == [], leaks
        assert await check_store(w.store) == []
        assert await check_database(db) == []


async def test_r8_7_an_admin_s_cancel_with_one_player_s_dms_closed_tells_the_others(
    tmp_path: Path,
) -> None:
    """R8.2a, R8.7: between hands of a running tournament Bob closes his DMs to the bot
    (403/50007), and Alice closes the table with ``/ofcadmin close``: it is cancelled at
    once, every buy-in back. Bob's private notice is refused; the channel's closing notice
    is written once, Alice and Carol get theirs in a DM, once, and nothing stays owed."""
    async with world(tmp_path, next_hand_delay=600) as w:
        for name, value in (("tournament_buy_in", str(BUY_IN)), ("tournament_chips", "1000")):
            reply = await w.slash(ALICE, "settings", {"name": name, "value": value}, admin=True)
            shown = grouped(int(value), "en")
            assert reply["content"].startswith(
                (f"Saved: {name} = {shown}", f"Already so: {name} = {shown}")
            ), reply["content"]
        await w.slash(ALICE, "tournament", {"game": "pineapple"})
        for user in (ALICE, BOB):
            await press_lobby(w, user, "g")
        await w.slash(CAROL, "join")
        t = w.table()
        assert t.tournament is not None and t.hand is not None
        by_id = {str(u.id): u for u in PLAYERS}
        # hand 1 played out; the next in 10 minutes
        await play_hand_out(t, lambda user_id: arrange_and_confirm(w, by_id[user_id]))
        await w.adapter.presenter.flush()
        w.fake.closed_dms.add(BOB.id)
        start = len(w.fake.calls)
        notice = f"Tournament #{t.id} is cancelled; every buy-in is back."
        reply = await w.slash(ALICE, "close", group="ofcadmin", admin=True)
        assert notice in reply["content"], reply["content"]
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        shown = [m for m in w.fake.channel_messages(CHANNEL_ID) if notice in m["content"]]
        assert len(shown) == 2, shown  # (the reply to the command, and the table message)
        written = [
            c for c in w.fake.calls[start:]
            if c.path.startswith(f"/channels/{CHANNEL_ID}/") and notice in str(c.body)
        ]  # fmt: skip
        assert len(written) == 1, written  # (the table message's edit; the reply aside)
        for user in (ALICE, CAROL):
            lead = tr(str(user.locale)[:2], "private.admin_cancel", table=t.id)
            told = [m for m in w.fake.dm_messages(user.id) if m["content"].startswith(lead)]
            assert len(told) == 1, [m["content"] for m in w.fake.dm_messages(user.id)]
        lead = tr("ru", "private.admin_cancel", table=t.id)  # (Bob reads Russian)
        bob_dm = f"/channels/{w.fake.dm_channels[BOB.id]}/messages"
        tried = [c for c in w.fake.calls[start:] if c.method == "POST" and c.path == bob_dm]
        assert [(c.status, str(c.body["content"]).startswith(lead)) for c in tried] == [
            (403, True)
        ]  # refused, and not tried again
        assert not any(m["content"].startswith(lead) for m in w.fake.dm_messages(BOB.id))
        assert await w.store.closed_snapshots() == []
        for user in PLAYERS:
            assert await balance(w, user) == START
        assert await check_store(w.store) == []
