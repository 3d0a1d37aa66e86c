"""End to end through discord.py's real client against the local fake Discord (issue 5).

Users run slash commands and press the buttons and selects the bot actually sent (read back
from the fake's stored messages), in the channel, in DMs and on ephemeral "🂠 My cards" hands.
A listener checks every public channel write as it happens: it may show only cards that are
public at that moment (R3.3, R6.3)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import aiohttp
import discord
import pytest

from bot.discord import DiscordAdapter
from bot.model import Actor, ChatRef, LiveTable, Reply
from bot.screens import Payload, Screen
from bot.service import TableService
from bot.texts import tr
from game.board import Box
from game.cards import DECK, Card, parse_cards, shuffled_deck
from game.strategy import complete_street
from storage.memory import MemoryStore
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, cards_in, components, world
from tests.bot.fakes import FOULED_NOTICES
from tests.fakes.discord_api import (
    CHANNEL_ID,
    EPHEMERAL,
    TOKEN,
    FakeDiscord,
    point_discord_at,
    refusing_connector,
)

ALICE_STREETS = ["Qs Qh As Ad Ac", "Ks Kh 2c", "Kd 9s 3c", "9h 7h 4d", "5c 6d 8s"]
BOB_STREETS = ["2d 3d 4h 5h Th", "Jc Jd 6c", "7c 7d 8c", "Tc Td 8d", "2h 3h 4c"]
ALICE_PLAN: dict[str, str | None] = {
    "Qs": "top", "Qh": "top", "As": "bottom", "Ad": "bottom", "Ac": "bottom",
    "Ks": "middle", "Kh": "middle", "2c": None, "Kd": "middle", "9s": "bottom", "3c": None,
    "9h": "bottom", "7h": "middle", "4d": None, "5c": "top", "6d": "middle", "8s": None,
}  # fmt: skip
BOB_FOUL_PLAN: dict[str, str | None] = {
    "2d": "middle", "3d": "middle", "4h": "bottom", "5h": "bottom", "Th": "bottom",
    "Jc": "top", "Jd": "top", "6c": None, "7c": "middle", "7d": "bottom", "8c": None,
    "Tc": "middle", "Td": "bottom", "8d": None, "2h": "top", "3h": "middle", "4c": None,
}  # fmt: skip


def stacked(streets_a: list[str], streets_b: list[str]) -> list[Card]:
    """A deck dealing ``streets_a`` to the first seat to act and ``streets_b`` to the other."""
    head: list[Card] = []
    for a, b in zip(streets_a, streets_b, strict=True):
        head += list(parse_cards(a)) + list(parse_cards(b))
    return head + [c for c in DECK if c not in set(head)]


def decks(first: list[Card], seed: int = 3) -> Callable[[], list[Card]]:
    """``first`` for the first hand, then seeded shuffles."""
    rng = random.Random(seed)
    queue = [first]

    def source() -> list[Card]:
        return queue.pop(0) if queue else shuffled_deck(rng=rng)

    return source


async def seat_everyone(w: World, users: list[Any]) -> None:
    """``/ofc new``, everyone presses Join, then runs ``/ofc ready``."""
    reply = await w.slash(users[0], "new")
    assert reply["content"].startswith("Table #") and not reply["flags"] & EPHEMERAL
    for u in users:
        record = await w.press_lobby(u, "j")
        notice = w.notice(record)
        assert notice is not None and notice["flags"] & EPHEMERAL
        assert "seat" in notice["content"] or "мест" in notice["content"]
    for u in users:
        reply = await w.slash(u, "ready")
        assert "200" in reply["content"] and not reply["flags"] & EPHEMERAL, reply


def showdowns(texts: list[str]) -> list[str]:
    return [t for t in texts if t.startswith("🏁")]


async def test_two_players_dm_and_my_cards_then_fantasyland_with_selects(tmp_path: Path) -> None:
    """R5.4 foul, R6.1 entry; R6.2/R6.3 the 14-card Fantasyland hand is set through the box
    selects and stays hidden until showdown; R8.4 kush in SQLite."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        leaks = w.watch_leaks()
        public = w.public_texts()
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None and t.hand.to_act == (0,)
        # Alice plays on her DMs, Bob on the ephemeral hand "My cards" opens
        plans = {ALICE.id: ALICE_PLAN, BOB.id: BOB_FOUL_PLAN}
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "ephemeral"}, plans)
        showdown = showdowns(public)[0]
        assert "foul" in showdown or "мёртвая" in showdown
        assert "Fantasyland next (14 cards)" in showdown
        stacks = await w.store.stacks(t.id)
        alice, bob = t.seats[0], t.seats[1]
        # scoop 6 + royalties: QQ 7, trips 2, full house 6
        assert stacks[alice.player_id] == 200 + 6 + 15
        assert stacks[bob.player_id] == 200 - 21
        # hand 2: Alice in Fantasyland with 14 cards, Bob plays his streets at the same time
        assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
        fl_cards = set(t.hand.current_cards(0))
        assert len(fl_cards) == 14
        hand = await w.my_cards(ALICE)
        comps = components(hand)
        selects = [c for c in comps if c["type"] == 3]
        assert [c["custom_id"].rsplit(":", 1)[1] for c in selects] == ["t", "m", "b", "d"]
        assert {o["label"] for o in selects[0]["options"]} == {c.face for c in fl_cards}
        assert len(hand["components"]) <= 5 and len(comps) <= 25
        # arrange as the built-in strategy would, one select per box, then the discard
        moves = complete_street(
            t.hand.board_of(0, with_pending=True),
            t.hand.to_place(0),
            t.hand.discards_needed(0),
            fantasyland_cards=13,
            options=t.hand.options,
        )
        for code, box in (("t", Box.TOP), ("m", Box.MIDDLE), ("b", Box.BOTTOM), ("d", None)):
            wanted = {c.face for c, b in moves if b is box}
            msg = w.fake.messages[int(hand["id"])]
            select = next(c for c in components(msg) if c["custom_id"].endswith(":" + code))
            values = [o["value"] for o in select["options"] if o["label"] in wanted]
            assert len(values) == len(wanted)
            record = await w.press(ALICE, msg, select["custom_id"], values)
            assert record.callback_type == 7, w.notice(record)
        assert t.hand.board_of(0, with_pending=True).count == 13
        msg = w.fake.messages[int(hand["id"])]
        record = await w.press(ALICE, msg, w.buttons(msg)[("c", "")])
        assert record.callback_type == 7, w.notice(record)
        while t.hand is not None and t.hand_no == 2:
            await w.play_street(BOB, "ephemeral")
        hand2 = [text for text in public if "· hand 2" in text and not text.startswith("🏁")]
        assert hand2
        for text in hand2:
            assert not cards_in(text) & fl_cards  # R6.3: hidden until showdown
        assert "hand 2" in showdowns(public)[1]
        history = await w.store.hand_history(alice.player_id, 5)
        assert [h.number for h in history] == [2, 1]
        assert sum((await w.store.stacks(t.id)).values()) == 400
        assert leaks == []


async def test_three_players_complete_hand_no_leaks(tmp_path: Path) -> None:
    """Three players, a DM player and two on "My cards" (one with closed DMs); kush moved
    equal the points (R8.4), discards never shown (R3.3)."""
    async with world(tmp_path, rng_seed=11) as w:
        w.fake.closed_dms.add(CAROL.id)
        leaks = w.watch_leaks()
        public = w.public_texts()
        await seat_everyone(w, [ALICE, BOB, CAROL])
        t = w.table()
        assert "Carol" in w.table_message()["content"]
        assert "My cards" in w.table_message()["content"]  # R6.3 fallback for closed DMs
        via = {ALICE.id: "dm", BOB.id: "ephemeral", CAROL.id: "ephemeral"}
        await w.play_hand([ALICE, BOB, CAROL], via)
        history = await w.store.hand_history(t.seats[0].player_id, 1)
        kush = history[0].result["kush"]
        points = {str(r["seat"]): r["points"] for r in history[0].result["seats"]}
        stacks = await w.store.stacks(t.id)
        assert sum(stacks.values()) == 600
        for s in t.seats.values():
            assert stacks[s.player_id] == 200 + kush[str(s.seat)]
            if all(abs(p) < 200 for p in points.values()):
                assert kush[str(s.seat)] == points[str(s.seat)]
        discards = {r["card"] for r in history[0].hand["actions"] if r["type"] == "discard"}
        assert len(discards) == 12
        hand1 = [text for text in public if "hand 1" in text]
        assert any(text.startswith("🏁") for text in hand1)
        for text in hand1:
            assert not cards_in(text) & set(parse_cards(" ".join(discards)))
        assert leaks == []


async def test_blocked_dms_fall_back_to_my_cards_and_are_not_retried(tmp_path: Path) -> None:
    """A 403 with code 50007 on Bob's DM: the table tells him to press My cards, his ephemeral
    hand follows the game by itself, and he is never DMed again (two hands)."""
    async with world(tmp_path) as w:
        w.fake.closed_dms.add(BOB.id)
        leaks = w.watch_leaks()
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        board = w.table_message()["content"]
        assert "Bob: press 🂠 My cards" in board
        assert w.adapter.presenter.closed_dms == {str(BOB.id)}
        first: int | None = None
        for _ in range(2):
            number = t.hand_no
            while t.hand is not None and t.hand_no == number:
                user = ALICE if t.hand.to_act[0] == 0 else BOB
                await w.play_street(user, "dm" if user is ALICE else "ephemeral")
                if user is BOB and first is None:
                    first = w.hands[BOB.id]
        # one "My cards" press served both hands: the ephemeral hand followed the game
        assert first is not None and w.hands[BOB.id] == first
        my_cards = [
            r
            for r in w.fake.interactions.values()
            if r.user == BOB and str(r.payload["data"].get("custom_id", "")).endswith(":h")
        ]
        assert len(my_cards) == 1
        assert t.hand_no == 3
        bob_dm = w.fake.dm_channels[BOB.id]
        sends = w.fake.calls_to("POST", f"/channels/{bob_dm}/messages")
        assert len(sends) == 1 and sends[0].status == 403
        # Alice: one hand DM edited in place through both hands; each time her turn began a
        # short "your move" DM pinged her, deleted when the turn ended
        alice_dm = w.fake.dm_channels[ALICE.id]
        sends = w.fake.calls_to("POST", f"/channels/{alice_dm}/messages")
        assert all(c.status == 200 for c in sends)
        dm = w.dm(ALICE)
        assert dm is not None and int(dm["id"]) == min(
            int(m["id"]) for m in w.fake.messages.values() if int(m["channel_id"]) == alice_dm
        )
        pings = [
            m
            for m in w.fake.messages.values()
            if int(m["channel_id"]) == alice_dm
            and int(m["id"]) != int(dm["id"])
            and m["content"] not in FOULED_NOTICES  # (a fouled Confirm's answer, R2.3)
        ]
        assert len(pings) == len(sends) - 1 >= 8  # her turns after the first, in two hands
        assert all(p["content"].splitlines()[1].startswith("Your move") for p in pings)
        assert not any(p["components"] for p in pings)
        assert leaks == []
        live = [p for p in pings if int(p["id"]) not in w.fake.deleted]
        assert len(live) <= 1 and (not live or (t.hand is not None and t.hand.to_act == (0,)))


async def test_closed_dms_are_tried_again_once_the_player_uses_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's DMs refused the deal (50007) and were never tried again until a restart, though
    he opened them and kept pressing. Now a press of his (past the retry interval; a
    minute in play, none here) lets the next hand message go to his DMs: the table stops
    telling him to press My cards."""
    import bot.discord.presenter as presenter_module

    monkeypatch.setattr(presenter_module, "DM_RETRY_SECONDS", 0.0, raising=False)
    async with world(tmp_path) as w:
        w.fake.closed_dms.add(BOB.id)
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert "Bob: press 🂠 My cards" in w.table_message()["content"]
        bob = t.seat_of(str(BOB.id))
        assert bob is not None and not bob.reachable and w.dm(BOB) is None
        w.fake.closed_dms.discard(BOB.id)  # Bob opens his DMs, then plays on (My cards)
        while t.hand is not None and t.hand_no == 1:
            user = ALICE if t.hand.to_act[0] == 0 else BOB
            await w.play_street(user, "dm" if user is ALICE else "ephemeral")
        await w.adapter.presenter.flush()
        assert bob.reachable and w.dm(BOB) is not None
        assert "Bob: press 🂠 My cards" not in w.table_message()["content"]
        presenter = w.adapter.presenter
        assert presenter.closed_dms == set()
        # a press in a server right after a refusal does not try again before the interval
        monkeypatch.setattr(presenter_module, "DM_RETRY_SECONDS", 60.0)
        presenter._dms_closed(str(BOB.id))
        presenter.user_seen(str(BOB.id), in_dm=False)
        assert presenter.closed_dms == {str(BOB.id)}
        presenter.user_seen(str(BOB.id), in_dm=True)  # in his DMs: at once
        assert presenter.closed_dms == set()


@pytest.mark.usefixtures("short_hand_seconds")  # (a budget below the minimum)
async def test_timeout_set_by_an_admin_makes_the_move(tmp_path: Path) -> None:
    """R8.5 with a 1-second budget and no bank (set with /ofc settings by an admin): the
    sleeper's street is placed for them, bottom first (the order: tests/game)."""
    async with world(tmp_path) as w:
        for name, value in (("hand_seconds", "1"), ("time_bank_seconds", "0")):
            reply = await w.slash(ALICE, "settings", {"name": name, "value": value}, admin=True)
            assert f"Saved: {name} = {value}" in reply["content"]
            assert reply["flags"] & EPHEMERAL
        texts = w.public_texts()
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        hand = t.hand
        assert hand is not None
        # (the first street's second may be over before the seating's last answer comes:
        # nothing is read of the hand before its timeout)
        await w.fake.wait_for(lambda: hand.board_of(0).count >= 5)
        street = hand.board_of(0)
        assert len(street.bottom) == 5 and not street.middle and not street.top
        # the step's group message goes out after its commit, which a loaded machine may not
        # have reached when the board is already placed: waited for, not flushed at once
        await w.fake.wait_for(lambda: any("⌛ auto" in text for text in texts))


async def test_settings_and_grant_are_for_admins_only(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        reply = await w.slash(BOB, "settings", {"name": "min_buy_in", "value": "500"})
        assert reply["flags"] & EPHEMERAL and "«Управлять сервером»" in reply["content"]
        reply = await w.slash(BOB, "settings")
        assert reply["flags"] & EPHEMERAL and not components(reply)
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.min_buy_in == 200
        panel = await w.slash(ALICE, "settings", {"name": "all"}, admin=True)
        assert panel["flags"] & EPHEMERAL and "Buy-in (min_buy_in): 200" in panel["content"]
        # more buttons than Discord takes (25): single-choice selects of them
        picks = components(panel)
        assert 2 <= len(picks) <= 5 and all(c["type"] == 3 for c in picks)
        options = [o for c in picks for o in c["options"]]
        assert len(options) > 25 and all(len(c["options"]) <= 25 for c in picks)
        pick, plus = next(
            (c["custom_id"], o) for c in picks for o in c["options"] if o["value"].endswith(":mb+")
        )
        assert plus["label"] == "Buy-in +50"
        # a title of several words is named whole ("Kush per point +1", not "Kush +1")
        labels = {o["label"] for c in picks for o in c["options"]}
        assert {"Kush per point −1", "Kush per point +1", "Time per hand +30"} <= labels
        record = await w.press(BOB, panel, pick, [plus["value"]])  # forged: Bob can't see it
        notice = (w.notice(record) or {})["content"]
        assert record.callback_type == 4 and "«Управлять сервером»" in notice
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.min_buy_in == 200
        record = await w.press(ALICE, panel, pick, [plus["value"]], admin=True)
        assert record.callback_type == 7
        edited = w.fake.messages[int(panel["id"])]
        assert "Saved: min_buy_in = 250" in edited["content"]
        assert "Buy-in (min_buy_in): 250" in edited["content"]
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.min_buy_in == 250
        # grant: Manage Server only
        await w.slash(BOB, "balance")
        reply = await w.slash(BOB, "grant", {"user": BOB, "amount": 100})
        assert reply["flags"] & EPHEMERAL and "«Управлять сервером»" in reply["content"]
        reply = await w.slash(ALICE, "grant", {"user": BOB, "amount": 100}, admin=True)
        assert not reply["flags"] & EPHEMERAL and "Bob: +100" in reply["content"]
        assert "1,100" in reply["content"]


async def test_grant_and_stats_name_a_user_who_left_the_guild(tmp_path: Path) -> None:
    """A member who left the server is still a user Discord resolves (without member data):
    ``/ofcadmin grant`` to them and ``/ofc stats`` of them are answered (before, discord.py
    refused to convert them to a member: "something went wrong, try again" and an error
    logged, for an input nothing could make right)."""
    async with world(tmp_path) as w:
        await w.slash(BOB, "balance")  # Bob plays here, then leaves the server
        reply = await w.slash(
            ALICE, "grant", {"user": BOB, "amount": -100}, admin=True, left=[BOB.id]
        )
        assert not reply["flags"] & EPHEMERAL and "Bob: −100" in reply["content"], reply
        assert "900" in reply["content"]
        reply = await w.slash(ALICE, "stats", {"user": BOB}, left=[BOB.id])
        assert "went wrong" not in reply["content"] and "Bob" in reply["content"], reply
        assert w.logged == []


async def test_slash_replies_personal_ones_ephemeral(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ofc = next(c for c in w.fake.commands if c["name"] == "ofc")
        assert {o["name"] for o in ofc["options"]} == {
            "new", "join", "leave", "ready", "balance", "top", "history", "rules", "daily",
            "sitout", "back", "help", "topup", "tournament", "addbot", "removebot", "hand",
            "stats", "replay",
        }  # fmt: skip
        assert ofc["dm_permission"] is False
        assert ofc.get("default_member_permissions") is None  # every member sees /ofc
        reply = await w.slash(ALICE, "join")
        assert reply["flags"] & EPHEMERAL and "/ofc new" in reply["content"]
        reply = await w.slash(ALICE, "balance")
        assert reply["flags"] & EPHEMERAL and "Alice: 1,000 kush" in reply["content"]
        reply = await w.slash(ALICE, "daily")
        assert reply["flags"] & EPHEMERAL and "Balance 1,100" in reply["content"]
        reply = await w.slash(ALICE, "history")
        assert reply["flags"] & EPHEMERAL and "No hands yet" in reply["content"]
        reply = await w.slash(ALICE, "help")
        assert not reply["flags"] & EPHEMERAL and "/ofc new" in reply["content"]
        assert "/newtable" not in reply["content"]
        reply = await w.slash(ALICE, "top")
        assert not reply["flags"] & EPHEMERAL and "1. Alice — 1,100 kush" in reply["content"]
        reply = await w.slash(ALICE, "rules")
        assert not reply["flags"] & EPHEMERAL and "Pineapple" in reply["content"]
        reply = await w.slash(ALICE, "rules", {"game": "chinese"})  # its game option
        assert not reply["flags"] & EPHEMERAL and reply["content"].startswith("Chinese Poker:")
        await w.slash(ALICE, "new")
        reply = await w.slash(BOB, "new")
        assert reply["flags"] & EPHEMERAL and "#1" in reply["content"]
        await w.slash(ALICE, "join")
        reply = await w.slash(ALICE, "sitout")
        assert not reply["flags"] & EPHEMERAL and "/ofc back" in reply["content"]
        reply = await w.slash(ALICE, "back")
        assert not reply["flags"] & EPHEMERAL
        reply = await w.slash(ALICE, "leave")
        assert "You left the table" in reply["content"]
        assert "Alice" not in w.table_message()["content"]


async def test_stale_buttons_after_a_restart(tmp_path: Path) -> None:
    """Stop client and service mid-street, start new ones on the same SQLite file: buttons of
    messages the new client never saw still route; a press with an outdated version (a
    Confirm of an older screen) gets "out of date" and changes nothing (on the ephemeral
    hand pressed, with the current hand). The table message from before
    the restart shows the table as it was restored (a placement not confirmed is not shown
    there): its buttons work until the table moves on."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            table_id = t.id
            old_table = dict(w.table_message())
            hand = await w.my_cards(ALICE)
            old_hand = dict(hand)  # before any placement: version n.0
            card, box = w.plan_street(ALICE)[0]
            assert box is not None
            record = await w.press(ALICE, hand, w.buttons(hand)[("p", card.text + box.value[0])])
            assert record.callback_type == 7
            current_hand = dict(w.fake.messages[int(hand["id"])])  # version n.1
            state = t.hand.to_json()  # type: ignore[union-attr]
        async with world(tmp_path, fake=fake, db=db) as w2:
            t2 = w2.service.tables[table_id]
            assert t2.hand is not None and t2.hand.to_json() == state
            # outdated: the Confirm of the screen from before Alice's first press (a card's
            # button there would still place that card, as a fast second tap does)
            old_id = w2.buttons(old_hand)[("c", "")]
            record = await w2.press(ALICE, old_hand, old_id)
            # refused on the (ephemeral) hand pressed, which shows the current hand now
            assert record.callback_type == 7 and record.messages == [int(old_hand["id"])]
            shown = w2.fake.messages[int(old_hand["id"])]
            assert shown["content"].startswith(
                "This button is out of date: here are your cards as they are now.\n\n"
            )
            assert w2.buttons(shown) == w2.buttons(current_hand)
            assert t2.hand.to_json() == state
            # the table message as it was before the restart shows the restored table: its
            # Join works (for the next hand); then the table moved on, and it is out of date
            join = next(c["custom_id"] for c in components(old_table) if ":j" in c["custom_id"])
            record = await w2.press(CAROL, old_table, join)
            assert (w2.notice(record) or {})["content"].startswith("You sit at seat 3.")
            assert t2.hand.to_json() == state and len(t2.seats) == 3
            record = await w2.press(CAROL, old_table, join)
            assert (w2.notice(record) or {})["content"] == (
                "This button is out of date: use the newest table message."
            )
            assert t2.hand.to_json() == state and len(t2.seats) == 3
            # the service posts a new table message after a restart; its buttons work
            assert int(w2.table_message()["id"]) != int(old_table["id"])
            bob_hand = await w2.my_cards(BOB)
            assert "Waiting for Alice" in bob_hand["content"] or "Ждём" in bob_hand["content"]
            # current buttons on the hand the old client sent still work
            w2.hands[ALICE.id] = int(current_hand["id"])
            await w2.play_street(ALICE, "ephemeral")
            while t2.hand is not None and t2.hand_no == 1:
                user = ALICE if t2.hand.to_act[0] == 0 else BOB
                await w2.play_street(user, "ephemeral")
            stacks = await w2.store.stacks(table_id)
            history = await w2.store.hand_history(t2.seats[0].player_id, 1)
            assert sum(stacks.values()) == 400
            assert stacks[t2.seats[0].player_id] == 200 + history[0].result["kush"]["0"]
    finally:
        await fake.stop()


async def test_unknown_and_forged_components_are_refused(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        before = t.hand.to_json()  # type: ignore[union-attr]
        real = Payload.decode(next(iter(w.buttons(await w.my_cards(ALICE)).values())))
        assert real is not None
        head = f"{t.id}:{real.version}:p"  # the current version: only the card is forged
        msg = dict(w.table_message())
        msg["components"] = [
            {"type": 1, "components": [
                {"type": 2, "style": 2, "label": "x", "custom_id": "something-else"},
                {"type": 2, "style": 2, "label": "y", "custom_id": f"{head}:ZZt"},
                {"type": 2, "style": 2, "label": "z", "custom_id": f"{head}:Zz"},
            ]},
        ]  # fmt: skip
        expected = {
            "something-else": "Unknown button.",  # no item routes it: answered all the same
            f"{head}:ZZt": "Unknown button.",  # no such card: the payload is forged
            f"{head}:Zz": "Unknown button.",
        }
        for cid, text in expected.items():
            record = await w.press(ALICE, msg, cid)
            notice = w.notice(record)
            assert notice is not None and notice["flags"] & EPHEMERAL, cid
            assert notice["content"] == text
        # Bob presses Alice's (current) hand button: not his hand
        hand = await w.my_cards(ALICE)
        cid = next(c["custom_id"] for c in components(hand) if ":p:" in c["custom_id"])
        record = await w.press(BOB, hand, cid)
        assert record.callback_type == 4 and w.notice(record) is not None
        assert t.hand.to_json() == before  # type: ignore[union-attr]


class SlowService(TableService):
    """A service that takes longer than the adapter waits before deferring."""

    async def press(self, *args: Any, **kwargs: Any) -> Reply:
        await asyncio.sleep(0.05)
        return await super().press(*args, **kwargs)

    async def balance(self, chat: ChatRef, actor: Actor) -> Reply:
        await asyncio.sleep(0.05)
        return await super().balance(chat, actor)

    async def join(self, *args: Any, **kwargs: Any) -> Reply:
        await asyncio.sleep(0.05)
        return await super().join(*args, **kwargs)


async def test_slow_answers_are_deferred_then_delivered(tmp_path: Path) -> None:
    """Past ``answer_within`` the interaction is deferred at once (Discord's 3 seconds) and the
    answer follows through the webhook: the hand is edited, notices are follow-ups."""
    async with world(tmp_path, service_class=SlowService, answer_within=0.01) as w:
        reply = await w.slash(ALICE, "balance")
        record = next(r for r in w.fake.interactions.values() if r.type == 2)
        assert record.callback_type == 5 and record.followups
        assert reply["flags"] & EPHEMERAL and "Alice: 1,000 kush" in reply["content"]
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB):
            record = await w.press_lobby(u, "j")
            assert record.callback_type == 6 and w.notice(record) is not None
        for u in (ALICE, BOB):
            await w.slash(u, "ready")
        hand = await w.my_cards(ALICE)
        assert components(hand)
        card, box = w.plan_street(ALICE)[0]
        assert box is not None
        record = await w.press(ALICE, hand, w.buttons(hand)[("p", card.text + box.value[0])])
        assert record.callback_type == 6 and record.messages == [int(hand["id"])]
        assert "•" in str(w.fake.messages[int(hand["id"])]["components"])
        t = w.table()
        assert t.hand is not None and len(t.hand.pending(0)) == 1


async def test_a_slow_refusal_of_a_public_command_stays_ephemeral(tmp_path: Path) -> None:
    """A public command (/ofc join) deferred because the service was slow is deferred
    publicly, and Discord shows the first follow-up of a deferral as the deferral was (its
    ephemeral flag is ignored): a refusal then went to the whole channel ("not enough kush:
    need 200, have 50" for everyone to read). The public "thinking" message is deleted and
    the refusal comes as an ephemeral follow-up; an accepted command stays public."""
    async with world(tmp_path, service_class=SlowService, answer_within=0.01) as w:
        reply = await w.slash(ALICE, "join")  # no table here: refused
        record = next(r for r in w.fake.interactions.values() if r.type == 2)
        assert record.callback_type == 5  # deferred
        assert reply["flags"] & EPHEMERAL and "No open table" in reply["content"], reply
        assert record.response_message_id in w.fake.deleted  # the public placeholder is gone
        await w.slash(ALICE, "new")
        reply = await w.slash(BOB, "join")
        assert not reply["flags"] & EPHEMERAL and reply["content"] == tr(
            "ru", "reply.joined", seat=1
        )


class BrokenAnswerService(SlowService):
    """Slow, and its /ofc join answer cannot be shown (a failure after the deferral): the
    reply it returns and the one it answers with as soon as the step is committed."""

    async def join(self, chat: ChatRef, actor: Actor, answer: Any = None) -> Reply:
        async def broken(reply: Reply) -> None:
            await answer(dataclasses.replace(reply, screen=cast(Any, "not a screen")))

        reply = await super().join(chat, actor, broken if answer is not None else None)
        return dataclasses.replace(reply, screen=cast(Any, "not a screen"))


async def test_a_failure_after_a_public_deferral_is_told_privately(tmp_path: Path) -> None:
    """A public command deferred (slow service) whose answer then fails to render: the
    "something went wrong" notice was the deferral's first follow-up, shown to the whole
    channel. The public placeholder is deleted and the notice is ephemeral. Alice's /ofc
    join did seat her (committed before its answer failed): she was told "something went
    wrong; nothing changed"; now that the answer could not be shown and what it did is
    saved (``err.not_shown``)."""
    async with world(tmp_path, service_class=BrokenAnswerService, answer_within=0.01) as w:
        await w.slash(ALICE, "new")
        start = len(w.fake.interactions)
        reply = await w.slash(ALICE, "join")  # a public command
        record = list(w.fake.interactions.values())[start]
        assert record.callback_type == 5  # deferred publicly
        assert reply["flags"] & EPHEMERAL, reply
        assert (
            reply["content"]
            == tr("en", "err.not_shown")
            == (
                "The answer could not be shown. Whatever it did is saved: the table message "
                "shows where things stand."
            )
        )
        assert [s.user_id for s in w.table().seats.values()] == [str(ALICE.id)]  # seated
        assert record.response_message_id in w.fake.deleted
        assert [m for m in w.logged if "failed" in m] and len(w.logged) == 1, w.logged
        w.logged.clear()  # the failure made on purpose, logged once


async def test_a_press_whose_answer_fails_after_its_step_is_not_told_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice presses Join: she is seated (committed), then answering the press fails once.
    She was told "something went wrong; nothing changed"; now that the answer could not be
    shown and what it did is saved. The failure is logged once."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        answer_press, calls = w.adapter._answer_press, []

        async def broken_once(*args: Any) -> None:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("cannot answer")
            await answer_press(*args)

        monkeypatch.setattr(w.adapter, "_answer_press", broken_once)
        record = await w.press_lobby(ALICE, "j")
        notice = w.notice(record)
        assert notice is not None and notice["content"] == tr("en", "err.not_shown"), notice
        assert [s.user_id for s in w.table().seats.values()] == [str(ALICE.id)]  # seated
        assert [m for m in w.logged if "failed" in m] and len(w.logged) == 1, w.logged
        w.logged.clear()  # the failure made on purpose, logged once


async def alice_in_fantasyland(w: World) -> tuple[LiveTable, dict[str, Any]]:
    """Alice and Bob play the stacked first hand (Bob fouls, Alice earns Fantasyland, R6.1);
    Alice opens "🂠 My cards" on her Fantasyland hand: the table and that message."""
    await seat_everyone(w, [ALICE, BOB])
    plans = {ALICE.id: ALICE_PLAN, BOB.id: BOB_FOUL_PLAN}
    await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"}, plans)
    t = w.table()
    assert t.hand is not None and t.hand.is_fantasyland(0)
    return t, await w.my_cards(ALICE)


async def test_select_refusal_keeps_what_was_placed(tmp_path: Path) -> None:
    """A box select choosing more cards than fit: the ones that fit are placed, the message
    shows them with the core's refusal on top (R3.5: never silently changed)."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        t, hand = await alice_in_fantasyland(w)
        top = next(c for c in components(hand) if c["custom_id"].endswith(":t"))
        values = [o["value"] for o in top["options"]][:5]
        record = await w.press(ALICE, hand, top["custom_id"], values)
        assert record.callback_type == 7
        msg = w.fake.messages[int(hand["id"])]
        assert msg["content"].startswith("That box is full.")
        assert len(t.hand.board_of(0, with_pending=True).top) == 3
        picked = {Payload.decode(v).arg[:2] for v in values[:3]}  # type: ignore[union-attr]
        assert {c.text for c in t.hand.board_of(0, with_pending=True).top} == picked


async def test_r3_5_a_select_refusal_says_which_chosen_cards_were_placed(tmp_path: Path) -> None:
    """R3.5: five cards chosen for the top box of a Fantasyland hand (three slots): the
    notice said only "That box is full.", the menu closed on three of the five placed, which
    three not said. It names the cards placed and those not placed, in the order chosen."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        t, hand = await alice_in_fantasyland(w)
        top = next(c for c in components(hand) if c["custom_id"].endswith(":t"))
        options = top["options"][:5]
        record = await w.press(ALICE, hand, top["custom_id"], [o["value"] for o in options])
        assert record.callback_type == 7
        faces = [o["label"] for o in options]
        content = w.fake.messages[int(hand["id"])]["content"]
        assert content.startswith(
            f"That box is full.\nPlaced: {' '.join(faces[:3])}\nNot placed: {' '.join(faces[3:])}"
        ), content
        assert t.hand is not None
        top_box = t.hand.board_of(0, with_pending=True).top
        assert [c.face for c in top_box] == faces[:3]


async def test_r6_a_discard_select_refusal_says_which_cards_were_discarded(tmp_path: Path) -> None:
    """R6: three cards chosen in the discard menu of a 14-card Fantasyland hand (one
    discard): the first is discarded, the notice names it and the two not discarded."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        _t, hand = await alice_in_fantasyland(w)
        discard = next(c for c in components(hand) if c["custom_id"].endswith(":d"))
        options = discard["options"][:3]
        record = await w.press(ALICE, hand, discard["custom_id"], [o["value"] for o in options])
        assert record.callback_type == 7
        faces = [o["label"] for o in options]
        content = w.fake.messages[int(hand["id"])]["content"]
        assert f"\nDiscarded: {faces[0]}\nNot discarded: {' '.join(faces[1:])}\n" in content
        assert "Placed" not in content, content


async def test_r3_4_a_card_taken_out_of_a_box_select_goes_back_to_the_hand(
    tmp_path: Path,
) -> None:
    """R3.4 through a Fantasyland box select: unticking a placed card takes it back (before,
    the press was acknowledged and nothing happened, the card stayed in the box while the
    menu showed it taken out); unticking one and ticking another in one choice does both."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        t, hand = await alice_in_fantasyland(w)

        def top_select() -> dict[str, Any]:
            msg = w.fake.messages[int(hand["id"])]
            return next(c for c in components(msg) if c["custom_id"].endswith(":t"))

        def on_top() -> set[str]:
            assert t.hand is not None
            return {c.text for c in t.hand.board_of(0, with_pending=True).top}

        first = [o["value"] for o in top_select()["options"][:3]]
        await w.press(ALICE, hand, top_select()["custom_id"], first)
        cards = [Payload.decode(v).arg[:2] for v in first]  # type: ignore[union-attr]
        assert on_top() == set(cards)
        # untick the third card: it leaves the top box, and the menu shows that
        ticked = [o["value"] for o in top_select()["options"] if o["default"]]
        assert len(ticked) == 3  # (the payloads of the menu as it is now: a newer version)
        msg = w.fake.messages[int(hand["id"])]
        record = await w.press(ALICE, msg, top_select()["custom_id"], ticked[:2])
        assert record.callback_type == 7, w.notice(record)
        assert on_top() == set(cards[:2])
        ticked = [o["value"] for o in top_select()["options"] if o["default"]]
        assert [Payload.decode(v).arg[:2] for v in ticked] == cards[:2]  # type: ignore[union-attr]
        # untick the first and tick a fourth card in one choice
        fourth = top_select()["options"][3]["value"]
        msg = w.fake.messages[int(hand["id"])]
        record = await w.press(ALICE, msg, top_select()["custom_id"], [ticked[1], fourth])
        assert record.callback_type == 7, w.notice(record)
        assert on_top() == {cards[1], Payload.decode(fourth).arg[:2]}  # type: ignore[union-attr]
        assert t.hand.board_of(0, with_pending=True).count == 2
        # untick every card left: the top box is empty again (the menu allows none chosen)
        assert top_select()["min_values"] == 0
        msg = w.fake.messages[int(hand["id"])]
        record = await w.press(ALICE, msg, top_select()["custom_id"], [])
        assert record.callback_type == 7, w.notice(record)
        assert on_top() == set() and not any(o["default"] for o in top_select()["options"])


async def test_a_deleted_table_message_is_posted_again(tmp_path: Path) -> None:
    """A moderator deletes the table message: the next edit (404, code 10008) posts it again
    and later edits go to the new one."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        old = int(w.table_message()["id"])
        w.fake.deleted.add(old)
        await w.play_street(ALICE, "dm")
        new = w.table_message()
        assert int(new["id"]) != old and "Bob" in new["content"]
        posts = len(w.fake.calls_to("POST", f"/channels/{CHANNEL_ID}/"))
        await w.play_street(BOB, "dm")
        assert int(w.table_message()["id"]) == int(new["id"])
        assert "street 2/5" in w.table_message()["content"]
        assert len(w.fake.calls_to("POST", f"/channels/{CHANNEL_ID}/")) == posts


async def test_the_table_holds_the_reposted_table_message_and_commits_it(tmp_path: Path) -> None:
    """The presenter kept which message replaced a deleted table message in memory only, the
    table holding the deleted one's id until its next write: a closing step committed then
    left the restarted bot writing the close over the deleted message (a second one posted,
    the replacement left with its buttons, tests/bot/test_deleted_table_message_restart.py
    on Telegram). The table holds the replacement at once now, and the next step commits
    it."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        old = int(w.table_message()["id"])
        w.fake.deleted.add(old)
        await w.play_street(ALICE, "dm")
        await w.adapter.presenter.flush()
        new = w.table_message()
        assert int(new["id"]) != old
        t = w.table()
        assert t.group_ref == str(new["id"])
        await w.play_street(BOB, "dm")  # (a step: committed with it)
        state = await w.store.table_state(t.id)
        assert state is not None and state[1]["group_ref"] == str(new["id"])


async def test_real_hostnames_are_refused() -> None:
    """The tests' connector resolves no name, so a forgotten real URL fails loudly."""
    async with aiohttp.ClientSession(connector=refusing_connector()) as http:
        with pytest.raises(aiohttp.ClientConnectorError, match=r"discord\.com") as refused:
            await http.get("https://discord.com/api/v10/users/@me")
    assert "refusing to resolve 'discord.com'" in str(refused.value.os_error)


async def test_a_refused_token_raises_login_failure() -> None:
    """401 on login: :class:`discord.LoginFailure` from ``start``, and nothing left open."""
    fake = FakeDiscord(TOKEN)
    await fake.start()
    store = MemoryStore()
    try:
        with point_discord_at(fake):
            adapter = DiscordAdapter(
                TableService(store), "wrong.token.here", connector=refusing_connector()
            )
            with pytest.raises(discord.LoginFailure):
                await adapter.start()
            assert adapter.client.is_closed()
    finally:
        await fake.stop()
    assert [c.path for c in fake.calls] == ["/users/@me"]


async def test_a_refused_token_logs_nothing_of_discord_py_first(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12: a refused Discord token is one line, as Telegram's is: none of discord.py's
    start-up lines (voice libraries missing, "logging in using static token") come before it."""
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as in a fresh process
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    fake = FakeDiscord(TOKEN)
    await fake.start()
    caplog.set_level(logging.DEBUG, logger="discord")
    try:
        with point_discord_at(fake):
            adapter = DiscordAdapter(
                TableService(MemoryStore()), "wrong.token.here", connector=refusing_connector()
            )
            with pytest.raises(discord.LoginFailure):
                await adapter.start()
    finally:
        await fake.stop()
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert said == []


async def test_a_pressed_hand_message_is_written_once_by_the_answer(tmp_path: Path) -> None:
    """Issue 10, one output path per press: a press on a hand message (the DM hand, or the
    ephemeral one "My cards" opened) is written by the interaction's own response only, never
    by a REST or webhook edit as well. The service still writes the presser's other messages:
    the DM after a press on the ephemeral hand, the ephemeral hand after a press on the DM."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        writes: list[tuple[int, str]] = []
        w.fake.listeners.append(lambda m: writes.append((int(m.message["id"]), m.via)))
        presenter = w.adapter.presenter
        show_private = presenter.show_private
        asked: list[tuple[str, str | None, str | None]] = []  # what the service wrote

        async def spy(
            user_id: str, screen: Screen, ref: str | None, answered: str | None = None
        ) -> str | None:
            asked.append((user_id, ref, answered))
            return await show_private(user_id, screen, ref, answered)

        presenter.show_private = spy  # type: ignore[method-assign]
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        mirror = await w.my_cards(ALICE)  # Alice plays on her DM; this one follows it
        via = {ALICE.id: "dm", BOB.id: "ephemeral"}
        presses = {ALICE.id: 0, BOB.id: 0}
        while t.hand is not None and t.hand_no == 1:
            user = ALICE if t.hand.to_act == (0,) else BOB
            moves = w.plan_street(user)
            for n in range(len(moves) + 1):
                msg = await w.hand_message(user, via[user.id])
                if n < len(moves):
                    card, box = moves[n]
                    want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
                else:
                    want = ("c", "")
                before, asked_before = len(writes), len(asked)
                record = await w.press(user, msg, w.buttons(msg)[want])
                if (w.notice(record) or {}).get("content") in FOULED_NOTICES:
                    # a fouled board asks first (R2.3): no write of the hand; then again
                    assert not [m for m, _ in writes[before:] if m == int(msg["id"])]
                    before, asked_before = len(writes), len(asked)
                    record = await w.press(user, msg, w.buttons(msg)[want])
                assert record.callback_type == 7, w.notice(record)
                mine = [(m, v) for m, v in writes[before:] if m == int(msg["id"])]
                assert mine == [(int(msg["id"]), "callback")], (want, writes[before:])
                by_service = [a for a in asked[asked_before:] if a[0] == str(user.id)]
                if user is ALICE:  # the pressed DM is hers: the service does not write it
                    assert by_service == [], by_service
                else:  # it writes Bob's DM, told that the pressed ephemeral shows the reply
                    assert by_service, want
                    assert all(a[2] == f"ephemeral:{msg['id']}" for a in by_service)
                dm = w.dm(user)
                assert dm is not None
                others = {m for m, _ in writes[before:]}
                if user is BOB:  # the DM follows the ephemeral hand (edited by the service)
                    assert (int(dm["id"]), "rest") in writes[before:]
                else:  # the ephemeral hand follows the DM
                    assert (int(mirror["id"]), "webhook") in writes[before:]
                    assert w.fake.messages[int(mirror["id"])]["content"] == dm["content"]
                assert int(dm["id"]) in others
                presses[user.id] += 1
        assert presses[ALICE.id] >= 10 and presses[BOB.id] >= 10
        assert t.hand_no == 2


async def test_a_second_table_is_refused_with_a_link_to_the_open_one(tmp_path: Path) -> None:
    """``/ofc new`` where a table is open: the refusal links the table message."""
    from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID

    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        t = w.table()
        assert t.group_ref is not None
        reply = await w.slash(BOB, "new")
        assert reply["flags"] & EPHEMERAL
        link = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{t.group_ref}"
        assert reply["content"].endswith(link) and f"#{t.id}" in reply["content"], reply
