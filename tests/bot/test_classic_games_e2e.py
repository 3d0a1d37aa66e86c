"""Classic OFC and Chinese Poker tables end to end through the fake Telegram (issue 6)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.screens import Payload
from bot.telegram.fake_api import FakeUser
from game.cards import DECK, Card, format_cards, parse_cards
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, World, world

DAVE = FakeUser(104, "Dave", "dave", "en")


async def admin_settings(w: World, *pairs: tuple[str, str]) -> None:
    w.fake.admins[GROUP_ID] = {ALICE.id}
    for name, value in pairs:
        reply = await w.say(ALICE, f"/settings {name} {value}")
        assert reply["text"].startswith(("Saved: ", "Already so: ")), reply["text"]


async def seat(w: World, users: list[FakeUser], game: str) -> None:
    reply = await w.say(users[0], f"/newtable {game}")
    assert "#" in reply["text"], reply["text"]
    for u in users:
        assert not (await w.press_lobby(u, "j")).get("show_alert")
    for u in users:
        assert not (await w.press_lobby(u, "r")).get("show_alert")


async def test_r4_1_classic_ofc_four_players_complete_hand(tmp_path: Path) -> None:
    async with world(tmp_path, rng_seed=21) as w:
        users = [ALICE, BOB, CAROL, DAVE]
        w.fake.started_users.update(u.id for u in users)
        leaks = w.watch_leaks()
        await seat(w, users, "ofc")
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and len(t.hand.order) == 4
        assert t.options.scoring.value == "two_per_row"
        by_id = {str(u.id): u for u in users}
        presses = 0
        while t.hand is not None and t.hand_no == 1:
            seat_no = t.hand.to_act[0]
            await w.play_street(by_id[t.seats[seat_no].user_id])
            presses += 1
        assert presses == 4 * 9  # street 1, then eight streets of one card (R4.1)
        await w.adapter.presenter.flush()
        history = await w.store.hand_history(t.seats[0].player_id, 1)
        result = history[0].result
        stacks = await w.store.stacks(t.id)
        assert sum(stacks.values()) == 800
        for r in result["seats"]:
            player = t.seats[r["seat"]].player_id
            assert stacks[player] == 200 + result["kush"][str(r["seat"])]
            assert r["points"] % 1 == 0
        assert all(len(h.hand["actions"]) > 0 for h in history)
        assert leaks == []


async def test_r4_1_telegram_a_waiting_player_sees_their_five_cards_in_private_only(
    tmp_path: Path,
) -> None:
    """R4.1 through python-telegram-bot and the fake Bot API: classic OFC deals street 1's
    five cards face down to everyone at the start. The waiting players' private messages show
    their own five at once («Ждите своей очереди» for Bob, in Russian), with no button to
    place them; the group never shows a held card; when a player's turn comes their message
    has the buttons for those very cards."""
    async with world(tmp_path, rng_seed=21) as w:
        users = [ALICE, BOB, CAROL]
        w.fake.started_users.update(u.id for u in users)
        leaks = w.watch_leaks()
        await seat(w, users, "ofc")
        await w.adapter.presenter.flush()
        t = next(iter(w.service.tables.values()))
        hand = t.hand
        assert hand is not None and len(hand.order) == 3
        by_id = {str(u.id): u for u in users}
        mover = by_id[t.seats[hand.to_act[0]].user_id]
        held = {s: hand.waiting_cards(s) for s in hand.order if s not in hand.to_act}
        assert len(held) == 2 and all(len(c) == 5 for c in held.values())
        for s, cards in held.items():
            user = by_id[t.seats[s].user_id]
            msg = w.private(user)
            assert msg is not None
            assert format_cards(cards) in msg["text"], msg["text"]
            wait = "Ждите своей очереди" if user is BOB else "Wait for your turn"
            assert wait in msg["text"] and mover.first_name in msg["text"]
            assert not any(a in ("p", "c", "a", "u") for a, _ in w.hand_buttons(user))
        hidden = {c.face for cs in held.values() for c in cs}
        assert not any(f in text for text in w.group_texts() for f in hidden)
        await w.play_street(mover)
        await w.adapter.presenter.flush()
        nxt = hand.to_act[0]
        user = by_id[t.seats[nxt].user_id]
        buttons = w.hand_buttons(user)
        assert {arg[:2] for a, arg in buttons if a == "p"} == {c.text for c in held[nxt]}
        while t.hand is not None and t.hand_no == 1:
            await w.play_street(by_id[t.seats[t.hand.to_act[0]].user_id])
        await w.adapter.presenter.flush()
        assert leaks == []


def chinese_deck(a: str, b: str) -> list[Card]:
    head = list(parse_cards(a)) + list(parse_cards(b))
    return head + [c for c in DECK if c not in set(head)]


ALICE_13 = "As Ah Ad Kd Kc Ks 8h 8c 2c 3c 4c 5c 6c"
BOB_13 = "Jc Td 4s 9c 9d 6s 6h 2h Qs Qd Qh Qc 8d"


def plan(top: str, middle: str, bottom: str) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for box, cards in (("top", top), ("middle", middle), ("bottom", bottom)):
        out.update(dict.fromkeys(cards.split(), box))
    return out


ALICE_PLAN = plan("As Ah Ad", "Kd Kc Ks 8h 8c", "2c 3c 4c 5c 6c")
BOB_PLAN = plan("Jc Td 4s", "9c 9d 6s 6h 2h", "Qs Qd Qh Qc 8d")


async def to_the_claim(w: World) -> tuple[dict[str, Any], str]:
    """Both arrange (Bob, then Alice, by :data:`BOB_PLAN` / :data:`ALICE_PLAN`): the bottoms are
    revealed and Alice's straight flush reaches a target of 5 (R7.5). Returns the group
    message offering the claim and its Claim button's data."""
    await w.play_street(BOB, BOB_PLAN)
    await w.play_street(ALICE, ALICE_PLAN)
    await w.adapter.presenter.flush()
    msg = await w.fake.wait_for(
        lambda: next(
            (m for m in reversed(w.fake.chat_messages(GROUP_ID)) if "Claim" in m["text"]), None
        )
    )
    claim = next(
        b["callback_data"] for b in w.fake.buttons(msg) if b["callback_data"].endswith(":k")
    )
    return msg, claim


@asynccontextmanager
async def at_the_claim(tmp_path: Path) -> AsyncIterator[tuple[World, dict[str, Any], str]]:
    """A Chinese Poker table of Alice and Bob (target 5, :func:`chinese_deck`) played to
    Alice's claim offer after the bottoms (R7.5): the world, the group message offering the
    claim and its Claim button's data."""
    deck = chinese_deck(ALICE_13, BOB_13)
    async with world(tmp_path, deck_source=lambda: list(deck)) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await admin_settings(w, ("target_points", "5"), ("reveal_pause_seconds", "0.1"))
        await seat(w, [ALICE, BOB], "chinese")
        msg, claim = await to_the_claim(w)
        yield w, msg, claim


async def test_r7_chinese_game_to_the_target_with_a_claim(tmp_path: Path) -> None:
    deck = chinese_deck(ALICE_13, BOB_13)
    async with world(tmp_path, deck_source=lambda: list(deck)) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        leaks = w.watch_leaks()
        await admin_settings(w, ("target_points", "5"), ("reveal_pause_seconds", "0.1"))
        await seat(w, [ALICE, BOB], "chinese")
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and set(t.hand.to_act) == {0, 1}  # R4.5: all at once
        await w.play_street(BOB, BOB_PLAN)
        board = w.table_message()
        assert "Bob" in board["text"]
        for c in parse_cards(BOB_13):
            assert c.face not in board["text"]  # arranged in secret
        await w.play_street(ALICE, ALICE_PLAN)
        await w.adapter.presenter.flush()
        # bottom revealed: Alice's straight flush (2 + bonus 4) reaches the target of 5 (R7.5)
        msg = await w.fake.wait_for(
            lambda: next(
                (m for m in reversed(w.fake.chat_messages(GROUP_ID)) if "Claim" in m["text"]), None
            )
        )
        assert "6 pts (target 5)" in msg["text"] and "3 pts (target 5)" in msg["text"]
        buttons = {
            Payload.decode(b["callback_data"]).action: b["callback_data"]
            for b in w.fake.buttons(msg)
        }  # type: ignore[union-attr]
        assert set(buttons) == {"k", "n"}
        answer = await w.press(BOB, GROUP_ID, msg, buttons["k"])
        assert answer["show_alert"] is True  # Bob is not at the target
        answer = await w.press(ALICE, GROUP_ID, msg, buttons["k"])
        assert not answer.get("show_alert"), answer
        await w.adapter.presenter.flush()
        stacks = await w.store.stacks(t.id)
        alice, bob = t.seats[0].player_id, t.seats[1].player_id
        assert stacks[alice] == 203 and stacks[bob] == 197  # R7.6: (6 - 3) × 1 kush
        final = w.fake.messages[(GROUP_ID, msg["message_id"])]
        assert "claimed" in final["text"] and "+3 kush" in final["text"]
        history = await w.store.hand_history(alice, 1)
        assert history[0].result["chinese"]["claimed_by"] == 0
        assert leaks == []


async def test_r7_5_an_edit_refused_with_a_500_is_written_again(tmp_path: Path) -> None:
    """Alice continues at the first claim offer (R7.5); Telegram answers the edit that shows
    the next offer with a 500. The message kept its pause screen, without buttons, for the
    30 s of the new offer: the chance to claim ran out unseen. A 5xx (or a timeout) is now
    written again a second later, and the new offer's Claim works."""
    async with at_the_claim(tmp_path) as (w, msg, claim):
        go_on = next(
            b["callback_data"] for b in w.fake.buttons(msg) if b["callback_data"].endswith(":n")
        )
        failure = (500, {"ok": False, "error_code": 500, "description": "Internal Server Error"})

        def shows_a_new_offer(c: Any) -> bool:
            if c.method != "editMessageText" or int(c.params["chat_id"]) != GROUP_ID:
                return False
            rows = (c.params.get("reply_markup") or {}).get("inline_keyboard", [])
            datas = [b.get("callback_data", "") for row in rows for b in row]
            return any(d.endswith(":k") and d != claim for d in datas)

        w.fake.fail_when(shows_a_new_offer, *failure)
        before = len(w.fake.calls)
        assert not (await w.press(ALICE, GROUP_ID, msg, go_on)).get("show_alert")
        t = next(iter(w.service.tables.values()))
        await w.fake.wait_for(lambda: t.reveal is not None and t.reveal.get("claim") is not None)
        # the refused edit, then the same one again a second later
        await w.fake.wait_for(
            lambda: any(c.result for c in w.fake.calls[before:] if shows_a_new_offer(c))
        )
        offers = [c for c in w.fake.calls[before:] if shows_a_new_offer(c)]
        assert len(offers) == 2 and offers[0].result is None and offers[1].result is not None
        msg = w.fake.messages[(GROUP_ID, int(msg["message_id"]))]
        fresh = next(
            b["callback_data"] for b in w.fake.buttons(msg) if b["callback_data"].endswith(":k")
        )
        assert fresh != claim
        assert not (await w.press(ALICE, GROUP_ID, msg, fresh)).get("show_alert")
        assert t.reveal is None or t.reveal.get("claim") is None  # claimed
