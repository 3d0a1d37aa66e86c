"""Classic OFC and Chinese Poker through the real discord.py client and the fake Discord
(issue 6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.screens import Payload
from bot.texts import tr
from game.board import Box
from game.cards import DECK, Card, parse_cards
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, components, world
from tests.fakes.discord_api import CHANNEL_ID, EPHEMERAL, FakeUser

DAVE = FakeUser(304, "Dave", "en-US")


def plan(top: str, middle: str, bottom: str) -> dict[str, Box]:
    out: dict[str, Box] = {}
    for box, cards in ((Box.TOP, top), (Box.MIDDLE, middle), (Box.BOTTOM, bottom)):
        out.update(dict.fromkeys(cards.split(), box))
    return out


async def admin(w: World, name: str, value: str) -> None:
    reply = await w.slash(ALICE, "settings", {"name": name, "value": value}, admin=True)
    assert reply["content"].startswith(("Saved: ", "Already so: ")), reply["content"]


async def seat(w: World, users: list[FakeUser], game: str) -> None:
    reply = await w.slash(users[0], "new", {"game": game})
    assert reply["content"].startswith("Table #"), reply["content"]
    for u in users:
        await w.press_lobby(u, "j")
    for u in users:
        reply = await w.slash(u, "ready")
        assert "200" in reply["content"], reply


async def test_r4_1_classic_ofc_four_players_through_discord(tmp_path: Path) -> None:
    async with world(tmp_path, rng_seed=17) as w:
        leaks = w.watch_leaks()
        users = [ALICE, BOB, CAROL, DAVE]
        await seat(w, users, "ofc")
        t = w.table()
        assert t.hand is not None and len(t.hand.order) == 4
        await w.play_hand(users, {u.id: "ephemeral" for u in users})
        history = await w.store.hand_history(t.seats[0].player_id, 1)
        result = history[0].result
        stacks = await w.store.stacks(t.id)
        assert sum(stacks.values()) == 800
        for r in result["seats"]:
            assert stacks[t.seats[r["seat"]].player_id] == 200 + result["kush"][str(r["seat"])]
        assert len(history[0].hand["actions"]) > 4 * 9
        assert leaks == []


ALICE_13 = "As Ah Ad Kd Kc Ks 8h 8c 2c 3c 4c 5c 6c"
BOB_13 = "Jc Td 4s 9c 9d 6s 6h 2h Qs Qd Qh Qc 8d"
PLANS = {
    ALICE.id: plan("As Ah Ad", "Kd Kc Ks 8h 8c", "2c 3c 4c 5c 6c"),
    BOB.id: plan("Jc Td 4s", "9c 9d 6s 6h 2h", "Qs Qd Qh Qc 8d"),
}


async def arrange_with_selects(w: World, user: FakeUser, boxes: dict[str, Box]) -> None:
    """Set a 13-card Chinese hand through the per-box selects of the ephemeral hand."""
    hand = await w.my_cards(user)
    for code, box in (("t", Box.TOP), ("m", Box.MIDDLE), ("b", Box.BOTTOM)):
        msg = w.fake.messages[int(hand["id"])]
        select = next(
            c for c in components(msg) if c["type"] == 3 and c["custom_id"].endswith(":" + code)
        )
        wanted = {c.face for c in parse_cards(" ".join(k for k, v in boxes.items() if v is box))}
        values = [o["value"] for o in select["options"] if o["label"] in wanted]
        assert len(values) == len(wanted)
        record = await w.press(user, msg, select["custom_id"], values)
        assert record.callback_type == 7, w.notice(record)
    msg = w.fake.messages[int(hand["id"])]
    record = await w.press(user, msg, w.buttons(msg)[("c", "")])
    assert record.callback_type == 7, w.notice(record)


def claim_message(w: World) -> dict[str, Any] | None:
    for m in reversed(w.fake.channel_messages(CHANNEL_ID)):
        actions = {p.action for c in components(m) if (p := Payload.decode(c.get("custom_id")))}
        if "k" in actions:
            return m
    return None


async def test_r7_chinese_game_to_the_target_with_a_claim_through_discord(tmp_path: Path) -> None:
    head: list[Card] = list(parse_cards(ALICE_13)) + list(parse_cards(BOB_13))
    deck = head + [c for c in DECK if c not in set(head)]
    async with world(tmp_path, deck_source=lambda: list(deck)) as w:
        leaks = w.watch_leaks()
        await admin(w, "target_points", "5")
        await admin(w, "reveal_pause_seconds", "0.1")
        await seat(w, [ALICE, BOB], "chinese")
        t = w.table()
        assert t.hand is not None and set(t.hand.to_act) == {0, 1}
        await arrange_with_selects(w, BOB, PLANS[BOB.id])
        await arrange_with_selects(w, ALICE, PLANS[ALICE.id])
        msg = await w.fake.wait_for(lambda: claim_message(w))
        assert "6 pts (target 5)" in msg["content"] and "3 pts (target 5)" in msg["content"]
        ids = {
            p.action: c["custom_id"]
            for c in components(msg)
            if (p := Payload.decode(c.get("custom_id")))
        }
        refused = await w.press(BOB, msg, ids["k"])
        notice = w.notice(refused)
        assert notice is not None and notice["flags"] & EPHEMERAL  # Bob is below the target
        await w.press(ALICE, msg, ids["k"])
        stacks = await w.store.stacks(t.id)
        assert stacks[t.seats[0].player_id] == 203 and stacks[t.seats[1].player_id] == 197
        history = await w.store.hand_history(t.seats[0].player_id, 1)
        assert history[0].result["chinese"]["claimed_by"] == 0
        assert leaks == []


async def test_a_select_whose_later_press_fails_is_not_told_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob picks three cards for his top box in one select: three presses, the first placed
    (committed), the second fails. The interaction was answered "Something went wrong;
    nothing changed" with a card placed; now it says it was done (``err.after_commit``),
    the hand the first press left shown, the failure logged once."""
    head: list[Card] = list(parse_cards(ALICE_13)) + list(parse_cards(BOB_13))
    deck = head + [c for c in DECK if c not in set(head)]
    async with world(tmp_path, deck_source=lambda: list(deck)) as w:
        await seat(w, [ALICE, BOB], "chinese")
        t = w.table()
        assert t.hand is not None
        hand = await w.my_cards(BOB)
        msg = w.fake.messages[int(hand["id"])]
        select = next(
            c for c in components(msg) if c["type"] == 3 and c["custom_id"].endswith(":t")
        )
        wanted = {c.face for c in parse_cards("Jc Td 4s")}
        values = [o["value"] for o in select["options"] if o["label"] in wanted]
        press, calls = w.service.press, []

        async def second_fails(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            if len(calls) == 2:
                raise RuntimeError("the second press fails")
            return await press(*args, **kwargs)

        monkeypatch.setattr(w.service, "press", second_fails)
        record = await w.press(BOB, msg, select["custom_id"], values)
        bob = t.seat_of(str(BOB.id))
        assert bob is not None and len(t.hand.pending(bob.seat)) == 1  # placed: committed
        shown = w.notice(record) or w.fake.messages[int(hand["id"])]
        text = tr("ru", "err.after_commit")  # (Bob reads Russian)
        assert text in shown["content"], shown
        assert tr("en", "err.internal") not in shown["content"]
        assert [m for m in w.logged if "failed" in m] and len(w.logged) == 1, w.logged
        w.logged.clear()  # the failure made on purpose, logged once
