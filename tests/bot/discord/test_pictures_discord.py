"""Showdown pictures end to end on Discord (issue 12): discord.py's real client sends the
picture as an attachment (multipart: ``payload_json`` and the file) in one message of the
channel after the showdown, exactly one per hand."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import charts, pictures
from bot.drawing import Drawer
from tests.bot.discord.dc_world import ALICE, BOB, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.fakes import record_drawings
from tests.fakes.discord_api import CHANNEL_ID, EPHEMERAL, FakeUser

MAX_BYTES = 150 * 1024


async def test_the_showdown_picture_is_an_attachment_once_per_hand(tmp_path: Path) -> None:
    async with world(tmp_path, rng_seed=7) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        via = {ALICE.id: "dm", BOB.id: "ephemeral"}
        for n in (1, 2):
            await w.play_hand([ALICE, BOB], via)
            await w.adapter.presenter.flush()
            await w.fake.wait_for(lambda n=n: len(w.fake.files) == n)  # type: ignore[misc]
            assert t.hand_no == n + 1 or t.hand is None
        channel = [
            (mid, files)
            for mid, files in w.fake.files.items()
            if w.fake.messages[mid]["channel_id"] == str(CHANNEL_ID)
        ]
        assert len(channel) == 2
        for n, (mid, files) in enumerate(sorted(channel), start=1):
            [(filename, data)] = files
            assert filename == "showdown.png" and len(data) <= MAX_BYTES
            img = Image.open(io.BytesIO(data))
            assert img.format == "PNG" and img.size[0] > 500
            msg = w.fake.messages[mid]
            assert msg["attachments"][0]["filename"] == "showdown.png"
            assert msg["attachments"][0]["size"] == len(data)
            assert f"hand {n}" in msg["content"]
            assert "Alice" in msg["content"] and "Bob" in msg["content"]
        uploads = [c for c in w.fake.calls if c.files]
        assert len(uploads) == 2 and all(c.body is not None for c in uploads)


async def test_ofc_hand_answers_with_your_board_only_you_see(tmp_path: Path) -> None:
    """``/ofc hand`` during a hand: an ephemeral answer with the caller's board attached (a
    board is private, R6.3); nothing in the channel."""
    async with world(tmp_path, rng_seed=7) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        reply = await w.slash(ALICE, "hand")
        assert reply["flags"] & EPHEMERAL
        assert "Table #1 · hand 1" in reply["content"]
        [(filename, data)] = w.fake.files[int(reply["id"])]
        assert filename == "hand.png" and data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) <= MAX_BYTES
        assert reply["attachments"][0]["filename"] == "hand.png"
        public = [mid for mid in w.fake.files if not w.fake.messages[mid]["flags"] & EPHEMERAL]
        assert public == []


async def test_the_press_that_ends_a_hand_is_answered_before_its_picture_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15's answer first, on Discord too: the last press of a hand gets its callback
    (the edited hand) as soon as its step is committed; the showdown picture is drawn and
    uploaded after. Here the drawing is held until that callback has arrived (before, the
    press waited for its step's messages: picture drawn and uploaded, ~20 ms a showdown)."""
    drawing = asyncio.Event()
    release = asyncio.Event()
    real = Drawer.draw

    async def held(self: Drawer, fn: Callable[..., Any], *args: Any) -> Any:
        drawing.set()
        await release.wait()
        return await real(self, fn, *args)

    monkeypatch.setattr(Drawer, "draw", held)
    async with world(tmp_path, rng_seed=7) as w:
        await seat_everyone(w, [ALICE, BOB])
        before = set(w.fake.interactions)
        playing = asyncio.create_task(w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"}))
        try:
            await asyncio.wait_for(drawing.wait(), 30)  # the showdown is committed
            last = max(i for i in w.fake.interactions if i not in before)
            record = w.fake.interactions[last]
            await w.fake.wait_for(lambda: record.answered)
            assert record.callback_type == 7  # the pressed hand edited: the final board
            assert w.fake.files == {}  # no picture yet
        finally:
            release.set()  # (a failure above must not leave the bot waiting at its stop)
        await playing
        await w.adapter.presenter.flush()
        await w.fake.wait_for(lambda: len(w.fake.files) == 1)
        [(mid, [(filename, _)])] = w.fake.files.items()
        assert filename == "showdown.png" and w.fake.messages[mid]["channel_id"] == str(CHANNEL_ID)


SNAKE = FakeUser(321, "snake_case")
BOLD = FakeUser(322, "**Bold** @everyone")


async def test_names_with_markdown_are_drawn_as_written_and_shown_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Discord name is escaped for message content (``snake\\_case`` shows as snake_case),
    and that escaped form is what the table keeps. A picture draws its text literally: the
    showdown picture and ``/ofc hand`` drew ``snake\\_case`` and ``\\*\\*Bold\\*\\*
    @\\u200beveryone``, backslashes and all. They draw the names as written now; the
    picture's caption, message content, stays escaped. So does the ``/ofc stats`` chart's
    title."""
    drawn = record_drawings(monkeypatch, pictures.draw_json, lambda args, _pid: args[0])
    charted = record_drawings(monkeypatch, charts.draw_kush, lambda args, _pid: args[0].name)
    async with world(tmp_path, rng_seed=7) as w:
        await seat_everyone(w, [SNAKE, BOLD])
        reply = await w.slash(SNAKE, "hand")
        assert [b["name"] for b in drawn[-1]["boards"]] == ["snake_case"]
        await w.play_hand([SNAKE, BOLD], {SNAKE.id: "ephemeral", BOLD.id: "ephemeral"})
        await w.adapter.presenter.flush()
        await w.fake.wait_for(lambda: len(drawn) == 2)
        assert sorted(b["name"] for b in drawn[-1]["boards"]) == [
            "**Bold** @everyone",
            "snake_case",
        ]
        await w.fake.wait_for(lambda: len(w.fake.files) == 2)
        shown = max(mid for mid in w.fake.files if mid != int(reply["id"]))
        content = w.fake.messages[shown]["content"]
        assert "snake\\_case" in content and "\\*\\*Bold\\*\\* @\u200beveryone" in content
        await w.play_hand([SNAKE, BOLD], {SNAKE.id: "ephemeral", BOLD.id: "ephemeral"})
        stats = await w.slash(SNAKE, "stats", {"user": SNAKE})
        assert stats["content"].startswith("📊 snake\\_case"), stats["content"]
        assert charted == ["snake_case"]


async def test_a_channel_that_denies_attachments_keeps_its_table_without_pictures(
    tmp_path: Path,
) -> None:
    """Many servers deny Attach Files to @everyone: the bot may write in the table's channel
    but not attach its showdown picture there (403, code 50013, as for a channel it may not
    write in at all). The picture is left out, as on Telegram in a group that forbids photos;
    the table used to take that refusal for a channel it was locked out of and closed after
    its first hand, every stack cashed out."""
    async with world(tmp_path, rng_seed=7) as w:
        w.fake.no_attach_channels.add(CHANNEL_ID)
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        via = {ALICE.id: "dm", BOB.id: "dm"}
        await w.play_hand([ALICE, BOB], via)
        await w.adapter.presenter.flush()
        await w.fake.wait_for(lambda: any(c.files for c in w.fake.calls))  # tried and refused
        await asyncio.sleep(0.1)  # (a close would have been told in the background)
        await w.adapter.presenter.flush()
        assert t.id in w.service.tables and not t.closing
        assert t.hand is not None and t.hand_no == 2  # the next hand is dealt
        assert w.fake.files == {}
        showdown = [
            m for m in w.fake.channel_messages(CHANNEL_ID) if "hand 1" in str(m.get("content"))
        ]
        assert showdown, "the text showdown is in the channel"
        await w.play_hand([ALICE, BOB], via)
        await w.adapter.presenter.flush()
        assert t.id in w.service.tables and t.hand_no == 3
