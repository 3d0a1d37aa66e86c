"""``/ofc stats``, ``/ofc top`` and ``/ofc replay`` against the fake Discord (issue 12), on
the scripted hand of tests/bot/test_stats_service.py: the first to act wins 38 kush."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.bot.discord.dc_world import ALICE, BOB, CAROL, EPHEMERAL, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.test_stats_service import LAYOUT, LOSER_DISCARDS, WINNER_DISCARDS, winner_stats
from tests.fakes.discord_api import FakeUser
from tests.game.helpers import stacked_deck
from tests.game.test_history import DECK

_BOX = {"b": "bottom", "m": "middle", "t": "top", "x": None}
PLAN: dict[str, str | None] = {c.text: _BOX[x] for c, x in LAYOUT.items()}


async def test_ofc_stats_top_and_replay(tmp_path: Path) -> None:
    async with world(tmp_path, deck_source=lambda: stacked_deck(DECK)) as w:
        public = w.public_texts()
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        winner = ALICE if t.seats[t.hand.order[0]].user_id == str(ALICE.id) else BOB
        loser = BOB if winner is ALICE else ALICE
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"},
                          {ALICE.id: PLAN, BOB.id: PLAN})  # fmt: skip

        reply = await w.slash(CAROL, "stats", {"user": winner})
        assert not reply["flags"] & EPHEMERAL
        assert reply["content"].splitlines() == winner_stats(winner.name)
        group = (await w.slash(CAROL, "stats"))["content"].splitlines()
        fouls = ["Fouls: 50% (1 of 2 boards)", "Royalties/hand 16.0"]
        assert group[1:4] == ["Hands: 1 · players: 2", *fouls]
        month = (await w.slash(CAROL, "top", {"period": "month"}))["content"].splitlines()
        assert month == [
            "🏆 Winnings · last 30 days",
            f"1. {winner.name} — +38 kush · hands: 1",
            f"2. {loser.name} — −38 kush · hands: 1",
        ]
        history = (await w.slash(winner, "history"))["content"]
        hand_id = int(history.splitlines()[1].split()[0].lstrip("#"))

        # the replay is ephemeral; ▶ edits that message in place and nowhere else
        refused = await w.slash(CAROL, "replay", {"number": hand_id})
        assert refused["flags"] & EPHEMERAL and "Only the players" in refused["content"]
        frame = await w.slash(winner, "replay", {"number": hand_id})
        assert frame["flags"] & EPHEMERAL
        texts = [frame["content"]]
        for _ in range(4):
            step = next(c["custom_id"] for c in components(frame) if c.get("label") == "▶")
            record = await w.press(winner, frame, step)
            assert record.callback_type == 7, record.callback_body
            frame = w.fake.messages[int(frame["id"])]
            texts.append(frame["content"])
        assert "Street 1 of 5" in texts[0] and "Showdown" in texts[-1]
        for text in texts:
            assert not [c for c in LOSER_DISCARDS if c.face in text]
        assert [c for c in WINNER_DISCARDS if c.face in texts[-1]] == list(WINNER_DISCARDS)
        # the replay never became the player's live hand, and nothing of it went public
        live = w.adapter.presenter.live_hand(str(winner.id))
        assert live is None or live.message_id != int(frame["id"])
        assert not [p for p in public if "Street" in p or "discards" in p]


async def test_ofc_stats_attaches_the_kush_chart_from_the_second_hand(tmp_path: Path) -> None:
    """``/ofc stats`` of a member: after one hand the text alone; after two, the same public
    answer with the chart of their kush over time attached (``kush.png``, a 640 × 360 PNG of
    at most 100 KB), its caption as the image's description."""
    async with world(tmp_path, rng_seed=7) as w:
        await seat_everyone(w, [ALICE, BOB])
        via = {ALICE.id: "dm", BOB.id: "dm"}
        await w.play_hand([ALICE, BOB], via)
        one = await w.slash(CAROL, "stats", {"user": ALICE})
        assert "Hands: 1 " in one["content"] and int(one["id"]) not in w.fake.files
        await w.play_hand([ALICE, BOB], via)
        reply = await w.slash(CAROL, "stats", {"user": ALICE})
        assert not reply["flags"] & EPHEMERAL and "Hands: 2 " in reply["content"]
        [(filename, data)] = w.fake.files[int(reply["id"])]
        assert filename == "kush.png" and len(data) <= 100 * 1024
        img = Image.open(io.BytesIO(data))
        assert img.format == "PNG" and img.size == (640, 360)
        net = next(x for x in reply["content"].splitlines() if x.startswith("Net: "))
        caption = f"📈 Alice: kush over time (all time), net {net.split()[1]} kush"
        assert any(c.files and caption in str(c.body) for c in w.fake.calls)


async def test_stats_of_a_member_who_never_played_names_them_not_their_id(tmp_path: Path) -> None:
    """``/ofc stats user:`` a member who never played here answered "No such player here:
    999." (their user id); it names them as the server shows them, markdown escaped."""
    async with world(tmp_path) as w:
        reply = await w.slash(ALICE, "stats", {"user": FakeUser(999, "**Zed**")})
        assert reply["content"] == (
            "No such player here: \\*\\*Zed\\*\\*.\nOnly those who played here have statistics."
            " /ofc stats alone: this server and you."
        ), reply
        assert reply["flags"] & EPHEMERAL


async def test_a_kush_label_with_markdown_is_drawn_plain_on_the_chart_and_showdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kush label typed with markdown (``**x**``) is kept escaped for Discord's messages
    (tests/bot/discord/test_discord_admins.py): the kush chart and the showdown picture draw
    it as typed, not with its backslashes."""
    from bot import charts, pictures

    drawn: list[str] = []
    chart_of, with_plain_text = charts.chart_of, pictures.with_plain_text

    def chart_spy(name: str, lang: str, label: str, *rest: Any) -> Any:
        drawn.append(f"chart:{label}")
        return chart_of(name, lang, label, *rest)

    def picture_spy(data: Any, plain: Any) -> Any:
        out = with_plain_text(data, plain)
        drawn.append(f"picture:{out['label']}")
        return out

    monkeypatch.setattr(charts, "chart_of", chart_spy)
    monkeypatch.setattr(pictures, "with_plain_text", picture_spy)
    async with world(tmp_path, rng_seed=7) as w:
        await w.slash(ALICE, "settings", {"name": "kush_label", "value": "**x**"}, admin=True)
        await seat_everyone(w, [ALICE, BOB])
        via = {ALICE.id: "dm", BOB.id: "dm"}
        await w.play_hand([ALICE, BOB], via)
        await w.play_hand([ALICE, BOB], via)
        reply = await w.slash(CAROL, "stats", {"user": ALICE})
        assert "\\*\\*x\\*\\*" in reply["content"], reply
        assert "chart:**x**" in drawn, drawn
        assert any(d.startswith("picture:") for d in drawn), drawn
        assert all(d.endswith(":**x**") for d in drawn), drawn
