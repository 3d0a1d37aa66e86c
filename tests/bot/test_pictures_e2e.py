"""Showdown pictures end to end on Telegram (issue 12): the real python-telegram-bot uploads
each picture with ``sendPhoto`` (multipart) to the local fake Bot API, exactly one per hand,
none with the group setting ``pictures`` off; a foul and Fantasyland (R5.4, R6.1) are marked;
the Fantasyland hand (R6.3) and the boxes a claim left unrevealed (R7.5) never reach a
picture before they are shown."""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import pictures
from game.cards import parse_cards
from tests.bot.fakes import record_drawings
from tests.bot.test_classic_games_e2e import (
    admin_settings,
    at_the_claim,
)
from tests.bot.test_telegram_e2e import ALICE_PLAN as ALICE_PINEAPPLE
from tests.bot.test_telegram_e2e import (
    ALICE_STREETS,
    BOB_FOUL_PLAN,
    BOB_STREETS,
    decks,
    play_hand,
    seat_everyone,
    stacked,
)
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world

MAX_BYTES = 150 * 1024


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every picture's data the service draws, in order."""
    return record_drawings(monkeypatch, pictures.draw_json, lambda args, pid: dict(args[0]))


def board(data: Mapping[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(b for b in data["boards"] if b["name"] == name)
    return found


async def test_one_photo_per_hand_with_the_foul_and_fantasyland_marked(
    tmp_path: Path, drawn: list[dict[str, Any]]
) -> None:
    """Hand 1: Bob fouls (R5.4), Alice earns Fantasyland with QQ on top (R6.1): one photo, a
    PNG within the limits, the foul and Fantasyland next in its data, the caption with the
    points. Hand 2 is Alice's Fantasyland hand (R6.3): no photo until its showdown, then one
    more. The photos come after each hand's text showdown, which stays."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await play_hand(w, [ALICE, BOB], {ALICE.id: ALICE_PINEAPPLE, BOB.id: BOB_FOUL_PLAN})
        await w.settle()
        photos = w.fake.photos_in(GROUP_ID)
        assert len(photos) == 1 and len(w.fake.calls_of("sendPhoto")) == 1
        photo = photos[0]
        assert len(photo.data) <= MAX_BYTES
        img = Image.open(io.BytesIO(photo.data))
        assert img.format == "PNG"
        assert img.size == pictures.layout(pictures.Picture.from_json(drawn[0]))[1:]
        alice, bob = board(drawn[0], "Alice"), board(drawn[0], "Bob")
        assert bob["fouled"] and not alice["fouled"]
        assert alice["fl_next"] == 14 and alice["scores"] == [7, 2, 6]  # QQ, trips, full house
        assert alice["points"] == 21 and alice["kush"] == 21 and bob["kush"] == -21
        assert "Alice +21 pts (+21 kush)" in photo.caption and "Bob −21 pts" in photo.caption
        showdown = next(
            m for m in w.fake.chat_messages(GROUP_ID) if m["text"].startswith("🏁 Showdown")
        )
        assert showdown["message_id"] < photo.message_id  # the text first, then the photo
        # hand 2: Alice's Fantasyland board is hidden until showdown: no photo meanwhile
        assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
        fl_cards = {c.text for c in t.hand.current_cards(0)}
        buttons = w.hand_buttons(ALICE)
        await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, buttons[("a", "")])
        await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, w.hand_buttons(ALICE)[("c", "")])
        while t.hand is not None and t.hand_no == 2:
            assert len(w.fake.photos_in(GROUP_ID)) == 1
            await w.play_street(BOB)
        await w.settle()
        assert len(w.fake.photos_in(GROUP_ID)) == 2 and len(drawn) == 2
        alice2 = board(drawn[1], "Alice")
        assert alice2["played_fl"] is True
        shown = {c for box in alice2["boxes"] for c in box.split()}
        assert len(shown) == 13 and shown < fl_cards  # the 14th card was discarded (R6.2)


async def test_no_photo_when_the_group_turns_pictures_off(tmp_path: Path) -> None:
    """``/settings pictures off`` (an admin): hands end with the text showdown only."""
    async with world(tmp_path, rng_seed=5) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await admin_settings(w, ("pictures", "off"))
        await seat_everyone(w, [ALICE, BOB])
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert w.fake.calls_of("sendPhoto") == []
        assert any(m["text"].startswith("🏁") for m in w.fake.chat_messages(GROUP_ID))


async def test_r7_5_a_claim_leaves_the_unrevealed_boxes_out_of_the_picture(
    tmp_path: Path, drawn: list[dict[str, Any]]
) -> None:
    """Alice claims after the bottom: the picture at the end of the reveal shows the bottoms
    and the other boxes face down; none of their cards is in its data."""
    async with at_the_claim(tmp_path) as (w, msg, claim):
        assert w.fake.photos_in(GROUP_ID) == []  # the reveal is not over
        await w.press(ALICE, GROUP_ID, msg, claim)
        await w.settle()
        assert len(w.fake.photos_in(GROUP_ID)) == 1 and len(drawn) == 1
        data = drawn[0]
        alice = board(data, "Alice")
        assert alice["boxes"] == ["", "", "6c 5c 4c 3c 2c"]  # (as the hand reads)
        assert alice["scores"][:2] == [None, None] and alice["points"] == 6
        assert board(data, "Bob")["boxes"] == ["", "", "Qs Qh Qd Qc 8d"]
        unrevealed = {
            c.text for c in parse_cards("As Ah Ad Kd Kc Ks 8h 8c Jc Td 4s 9c 9d 6s 6h 2h")
        }
        assert not {c for b in data["boards"] for box in b["boxes"] for c in box.split()} & (
            unrevealed
        )
        assert any("claimed" in n for n in data["notes"])


async def test_hand_shows_your_own_board_privately_and_never_in_the_group(
    tmp_path: Path, drawn: list[dict[str, Any]]
) -> None:
    """``/hand`` in the private chat: a photo of the player's own board with the cards placed
    before Confirm (R3.4) and the cards still to place; nobody else's board. In the group it
    is refused with a hint and nothing is drawn (a board is private, R6.3)."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        await w.play_street(ALICE, ALICE_PINEAPPLE)  # street 1: Qs Qh top, As Ad Ac bottom
        await w.play_street(BOB, BOB_FOUL_PLAN)
        # street 2: Alice places Ks in the middle and has not confirmed yet
        buttons = w.hand_buttons(ALICE)
        await w.press(ALICE, ALICE.id, w.private(ALICE) or {}, buttons[("p", "Ksm")])
        reply = await w.say(ALICE, "/hand")
        assert "private chat" in reply["text"]
        assert drawn == [] and w.fake.calls_of("sendPhoto") == []
        await w.fake.send_text(ALICE, ALICE.id, "/hand")
        await w.fake.wait_for(lambda: w.fake.photos_in(ALICE.id))
        [photo] = w.fake.photos_in(ALICE.id)
        assert photo.data[:8] == b"\x89PNG\r\n\x1a\n" and len(photo.data) <= MAX_BYTES
        assert "Table #1 · hand 1 · street 2" in photo.caption
        assert "To place: K♥ 2♣" in photo.caption
        [data] = drawn
        [mine] = data["boards"]
        assert mine["name"] == "Alice" and mine["live"] is True
        assert mine["boxes"] == ["Qs Qh", "Ks", "As Ad Ac"]
        assert w.fake.photos_in(GROUP_ID) == []


async def test_a_group_that_forbids_photos_gets_the_text_showdown_and_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram refuses ``sendPhoto`` in a group whose members may not send photos: the hand
    ends with its text showdown, the refusal is one warning line (no traceback), and the table
    plays on."""
    async with world(tmp_path, rng_seed=5) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.fail_when(
            lambda c: c.method == "sendPhoto",
            400,
            {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: not enough rights to send photos to the chat",
            },
        )
        await seat_everyone(w, [ALICE, BOB])
        with caplog.at_level(logging.WARNING, logger="bot"):
            await play_hand(w, [ALICE, BOB])
            await w.settle()
            await w.fake.wait_for(lambda: w.fake.calls_of("sendPhoto") or None)
            await w.settle()
        assert w.fake.photos_in(GROUP_ID) == []
        assert any(m["text"].startswith("🏁") for m in w.fake.chat_messages(GROUP_ID))
        refused = [r for r in caplog.records if "cannot send the picture" in r.getMessage()]
        assert len(refused) == 1 and refused[0].exc_info is None
        assert "not enough rights" in refused[0].getMessage().lower()
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 2  # the next hand was dealt
