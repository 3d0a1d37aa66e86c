"""Showdown pictures (issue 12): the drawing (pure: data in, PNG out) against golden images,
and the service owing one picture per showdown, built only from what the showdown reveals
(R3.2 discards never, R4.3 the dummy board at showdown, R7.5 boxes a claim left unrevealed
face down), for Pineapple, classic OFC and Chinese Poker, on an in-memory store with a
recording presenter.

Golden images live in ``tests/data/golden/``; after a deliberate change of the drawing,
``OFC_UPDATE_GOLDEN=1 python -m pytest -q tests/bot/test_pictures.py`` writes them anew (look
at them before committing)."""

from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot import pictures
from bot.pictures import BoardPicture, Picture, draw, layout
from bot.service import TableService
from bot.texts import tr
from game.board import BOXES
from game.cards import cards_str, format_cards, parse_cards
from game.evaluator import display_order
from tests.bot.fakes import FakePresenter, record_drawings
from tests.bot.test_service_classic import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    auto_street,
    configure,
    play_hand,
    start,
)

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
#: the issue's limit on a picture's size
MAX_BYTES = 150 * 1024


def _reads(box: str) -> str:
    """A box of the record (as placed) in the order the picture draws it: as the hand reads."""
    return cards_str(display_order(parse_cards(box)))


ANNA = BoardPicture(
    "🤖 Anna",
    ("Qs Qh 4s", "Kd Kc 8s 8h 3h", "As Ad Ac 5h 5d"),
    ("pair of queens", "two pair, kings and eights", "full house, aces over fives"),
    (7, 0, 6),
    points=21,
    kush=21,
    fl_next=14,
)
BORIS = BoardPicture(
    "Boris",
    ("Jc Jd 2h", "2d 3d 7c Tc 3h", "4h 5h Th 7d Td"),
    ("pair of jacks", "pair of threes", "two pair, tens and fives"),
    (0, 0, 0),
    fouled=True,
    points=-21,
    kush=-21,
    timed_out=True,
)

SAMPLES: dict[str, Picture] = {
    # Pineapple, two boards: a foul, royalties, Fantasyland next
    "two_boards": Picture("Pineapple OFC · table #3 · hand 7", "en", (ANNA, BORIS)),
    # Chinese Poker, three boards after a claim: middle and top face down (R7.5), in Russian
    "three_boards_chinese": Picture(
        "Китайский покер · стол #2 · раздача 4",
        "ru",
        (
            BoardPicture(
                "Анна",
                ("", "", "As Ad Ac 5h 5d"),
                ("", "", "фулл-хаус"),
                (None, None, 6),
                points=6,
                total=31,
            ),
            BoardPicture(
                "Борис",
                ("", "", "4h 6h Th 7d Td"),
                ("", "", "две пары"),
                (None, None, -3),
                points=-3,
                total=12,
            ),
            BoardPicture(
                "Вера",
                ("", "", "2c 3c 4c 5c 8c"),
                ("", "", "флеш"),
                (None, None, -3),
                points=-3,
                total=-43,
            ),
        ),
        chinese=True,
        notes=("🏆 Анна заявила «Доезд».",),
        target=51,
    ),
    # /hand: one board in play, in the private chat (empty places, the cards to place)
    "one_board_live": Picture(
        "Table #1 · hand 1 · street 2",
        "en",
        (
            BoardPicture(
                "Alice", ("Qs Qh", "Ks", "As Ad Ac"), ("", "", ""), (None, None, None), live=True
            ),
        ),
        notes=("To place: K♥ 2♣",),
    ),
    # classic OFC, three players and the dummy board (R4.3): two rows of two
    "four_boards_dummy": Picture(
        "Classic OFC · table #5 · hand 2",
        "en",
        (
            ANNA,
            BORIS,
            BoardPicture(
                "Carol",
                ("9s 9c 4d", "6s 6c 6d Js Qc", "Ks Kh 7s 7h 2s"),
                ("pair of nines", "three sixes", "two pair"),
                (4, 2, 0),
                points=0,
                kush=0,
            ),
        ),
        dummy=("2c 3c 4c", "5c 8c 9d Jh Qd", "Ah Kd 9h 8d 6h"),
        label="kush",
    ),
}


def pixels_off(a: Image.Image, b: Image.Image, threshold: int = 48) -> int:
    """How many pixels of two RGB images differ by more than ``threshold`` in some channel."""
    red, green, blue = ImageChops.difference(a, b).split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return sum(worst.histogram()[threshold + 1 :])


def _decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    img.load()
    return img


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_layout_matches_its_golden_image(name: str) -> None:
    """Each layout (two boards, three, two rows with the dummy) is drawn as its golden image,
    within a small tolerance (FreeType versions differ in anti-aliasing): fewer than 0.5 % of
    the pixels differ by more than 48 in a channel. The size and dimensions are the layout's."""
    pic = SAMPLES[name]
    png = draw(pic)
    assert len(png) <= MAX_BYTES
    img = _decode(png)
    _, width, height = layout(pic)
    assert img.size == (width, height)
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("OFC_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(png)
    expected = Image.open(golden).convert("RGB")
    assert expected.size == img.size
    off = pixels_off(img.convert("RGB"), expected)
    assert off <= 0.005 * width * height, f"{off} pixels differ from {golden.name}"


def test_a_different_board_does_not_match_the_golden_image() -> None:
    """The golden comparison can fail: one card changed is far outside the tolerance."""
    pic = SAMPLES["two_boards"]
    changed = BoardPicture(**{**ANNA.to_json(), "boxes": ("Qs Qh 3d", *ANNA.boxes[1:])})  # type: ignore[arg-type]
    other = Image.open(io.BytesIO(draw(Picture(pic.title, pic.lang, (changed, BORIS))))).convert(
        "RGB"
    )
    expected = Image.open(GOLDEN / "two_boards.png").convert("RGB")
    assert pixels_off(other, expected) > 100


def test_layouts_and_json_round_trip() -> None:
    """Two and three boards side by side, four in two rows; a stored picture is the same
    picture after its JSON (what the outbox keeps across a restart)."""
    assert layout(SAMPLES["one_board_live"])[0] == 1
    assert layout(SAMPLES["two_boards"])[0] == 2
    assert layout(SAMPLES["three_boards_chinese"])[0] == 3
    cols, width, height = layout(SAMPLES["four_boards_dummy"])
    assert cols == 2 and height > width
    for pic in SAMPLES.values():
        assert Picture.from_json(pic.to_json()) == pic
    assert draw(Picture.from_json(SAMPLES["two_boards"].to_json())) == draw(SAMPLES["two_boards"])


@pytest.mark.parametrize(
    "title",
    [
        "Ваша доска · стол #1 · раздача 9 · улица 4",
        "Your board · table #123 · hand 1234 · street 13",
    ],
)
def test_a_hand_title_too_wide_for_one_board_is_drawn_whole_on_two_lines(
    title: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/hand's picture is one board wide (322 px): the Russian title (and the English one at
    a table in the hundreds) was cut to "Ваша доска · стол #1 · раздача 9 · ул…". It is drawn
    whole, on two lines broken at " · ", below the panels' top."""
    drawn: list[tuple[tuple[float, float], str]] = []
    original = pictures.ImageDraw.ImageDraw.text

    def text(self: Any, xy: tuple[float, float], value: str, *args: Any, **kwargs: Any) -> None:
        if self.im.size == (width, height):  # the picture, not a card tile
            drawn.append((xy, value))
        original(self, xy, value, *args, **kwargs)

    pic = dataclasses.replace(SAMPLES["one_board_live"], title=title)
    _, width, height = layout(pic)
    monkeypatch.setattr(pictures.ImageDraw.ImageDraw, "text", text)
    pictures.draw_image(pic)
    top = [(xy, value) for xy, value in drawn if xy[1] < pictures.TITLE_H]
    assert len(top) == 2 and " · ".join(value for _, value in top) == title
    assert top[1][0][1] - top[0][0][1] >= 13


def test_names_lose_what_the_font_cannot_draw() -> None:
    """Emoji (no glyph in DejaVu Sans) are dropped from drawn names instead of boxes;
    Cyrillic and suit symbols stay. The computer players' 🤖, which the font lacks, is drawn
    as a gear the font has, so "🤖 Anna" stays a computer player in the picture."""
    assert not pictures._has_glyph("🤖") and pictures._has_glyph(pictures.ROBOT_DRAWN)
    assert pictures._drawable("🤖 Anna") == "⚙ Anna"
    assert pictures._drawable("🤖\ufe0f Boris") == "⚙ Boris"
    assert pictures._drawable("Vera 🎲") == "Vera"
    assert pictures._drawable("Вера ♠") == "Вера ♠"
    # a name made only of emoji would leave its panel nameless: "Player N" instead
    pic = SAMPLES["two_boards"]
    first, second = pic.boards[0], dataclasses.replace(pic.boards[1], name="🎲 ✨")
    pic = dataclasses.replace(pic, boards=(first, second))
    assert pictures.drawn_name(pic, second) == "Player 2"
    assert pictures.drawn_name(dataclasses.replace(pic, lang="ru"), second) == "Игрок 2"
    assert pictures.drawn_name(pic, first) == pictures._drawable(first.name) != ""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_kush_line_gives_way_to_a_long_fantasyland_badge(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busted player's Fantasyland badge ("FL 14 IF TOPPED UP", R8.2) is long: the kush
    line under the name was drawn whole and the badge over it (a long kush label hid under
    it). The line is cut with "…" to end before the badges always drawn."""
    board = dataclasses.replace(
        SAMPLES["two_boards"].boards[0], kush=-250000, fl_next=14, fl_if_top_up=True
    )
    pic = dataclasses.replace(
        SAMPLES["two_boards"], lang=lang, boards=(board,), label="золотых ракушек"
    )
    lefts: list[int] = []
    texts: list[tuple[float, str]] = []
    real_badge, real_text = pictures._badge, pictures.ImageDraw.ImageDraw.text

    def badge(draw: Any, right: int, y: int, text: str, fill: Any) -> int:
        lefts.append(real_badge(draw, right, y, text, fill))
        return lefts[-1]

    def text(self: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        font = kwargs.get("font")
        if text.startswith("−2") and font is not None:  # the kush line
            texts.append((xy[0] + self.textlength(text, font=font), text))
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(pictures, "_badge", badge)
    monkeypatch.setattr(pictures.ImageDraw.ImageDraw, "text", text)
    draw(pic)
    assert len(lefts) == 1 and len(texts) == 1, (lefts, texts)
    assert texts[0][0] < lefts[0], (texts, lefts)
    assert texts[0][1].startswith("−250,000" if lang == "en" else "−250\u00a0000")


def _sub_lines(pic: Picture, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The line under each board's name as drawn (font 13 at the panel's second line)."""
    lines: list[str] = []
    real_text = pictures.ImageDraw.ImageDraw.text

    def text(self: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        second = (xy[1] - pictures.TITLE_H) % (pictures.PANEL_H + pictures.MARGIN) == 31
        if (
            second
            and kwargs.get("font") is pictures._font(13)
            and kwargs.get("fill") == pictures.MUTED
        ):
            lines.append(text)
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(pictures.ImageDraw.ImageDraw, "text", text)
    draw(pic)
    monkeypatch.undo()
    return lines


def test_r7_1_the_picture_gives_the_game_total_its_unit_and_target_as_the_text_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R7.1: the reveal's text says "Anna · 12/30 pts"; the picture drew "total 12", no
    unit and no target. It draws the text's words under each name, in both languages; where
    that does not fit (a fouled board's badge next to a long kush amount) the target gives
    way and the unit stays, never cut with "…"."""
    board = BoardPicture(
        "Anna", ("As Ad Ac", "Ks Kd Kc 2s 2d", "Qs Qd Qc 3s 3d"), ("", "", ""), (2, 2, 2),
        points=6, kush=60, total=12,
    )  # fmt: skip
    fouled = dataclasses.replace(
        board, name="Boris", fouled=True, points=-6, kush=-4800, total=28,
        boxes=("Js Jd Jc", "Ts Td Tc 4s 4d", "9s 9d 9c 5s 5d"),
    )  # fmt: skip
    en = Picture("Chinese Poker · table #2 · hand 4", "en", (board, fouled), chinese=True,
                 target=30)  # fmt: skip
    assert _sub_lines(en, monkeypatch) == [
        "+60 kush · 12 pts (target 30)",
        "−4,800 kush · 28 pts (target 30)",
    ]
    ru = dataclasses.replace(en, lang="ru", label="куш")
    assert _sub_lines(ru, monkeypatch) == [
        "+60 кушей · 12 очков (цель 30)",
        "−4800 кушей · 28 очков",
    ]
    one = dataclasses.replace(ru, boards=(dataclasses.replace(board, kush=None, total=1),))
    assert _sub_lines(one, monkeypatch) == ["1 очко (цель 30)"]
    # a picture stored before the target was kept with it: the total with its unit
    old = Picture.from_json({k: v for k, v in en.to_json().items() if k != "target"})
    assert old.target is None
    assert _sub_lines(old, monkeypatch) == ["+60 kush · 12 pts", "−4,800 kush · 28 pts"]


@pytest.mark.parametrize(
    ("lang", "label", "line"),
    [
        ("en", "🤑", "+3 kush · 12 pts (target 10)"),
        ("ru", "🤑", "+3 куша · 12 очков (цель 10)"),
        ("en", "🤑 coins", "+3 coins · 12 pts (target 10)"),
    ],
)
def test_r8_4_a_kush_label_the_font_cannot_draw_falls_back_to_the_word(
    lang: str, label: str, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.4: with ``/settings kush_label 🤑`` the showdown picture drew "+3  · 12 …": the
    emoji is not in the font, which left no unit and a double space. The picture draws the
    word for kush where nothing of the label can be drawn."""
    board = BoardPicture(
        "Anna", ("As Ad Ac", "Ks Kd Kc 2s 2d", "Qs Qd Qc 3s 3d"), ("", "", ""), (1, 1, 1),
        points=3, kush=3, total=12,
    )  # fmt: skip
    pic = Picture("Chinese Poker · table #2 · hand 4", lang, (board,), chinese=True,
                  target=10, label=label)  # fmt: skip
    assert _sub_lines(pic, monkeypatch) == [line]
    assert "  " not in line


@pytest.mark.parametrize(("lang", "badge"), [("en", "auto"), ("ru", "авто")])
def test_r8_5_a_board_placed_for_its_player_is_badged_auto_as_the_text_says(
    lang: str, badge: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.5: the moves of a player who left are made as on timeout; the reveal's text marks
    the board "⌛ auto", the picture "timeout", though the player left (and the reveal says
    so). The badge reads as the text's mark, true for both."""
    board = BoardPicture(
        "Anna", ("As Ad Ac", "Ks Kd Kc 2s 2d", "Qs Qd Qc 3s 3d"), ("", "", ""), (1, 1, 1),
        points=3, kush=3, total=12, timed_out=True,
    )  # fmt: skip
    pic = Picture("Chinese Poker · table #2 · hand 4", lang, (board,), chinese=True, target=10)
    drawn: list[str] = []
    real_text = pictures.ImageDraw.ImageDraw.text

    def text(self: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(text)
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(pictures.ImageDraw.ImageDraw, "text", text)
    draw(pic)
    monkeypatch.undo()
    assert badge in drawn and "timeout" not in drawn and "тайм-аут" not in drawn
    assert tr(lang, "board.timed_out") == f"⌛ {badge}"


def _corners(pic: Picture, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each board's head draws at its right edge (anchor "ra" on the panel's first
    line): the points large, then their unit at the edge."""
    drawn: list[tuple[float, float, str]] = []
    real_text = pictures.ImageDraw.ImageDraw.text

    def text(self: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        row = (xy[1] - pictures.TITLE_H) % (pictures.PANEL_H + pictures.MARGIN)
        if kwargs.get("anchor") == "ra" and row in (6, 14):
            drawn.append((xy[1] - row, xy[0], text))
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(pictures.ImageDraw.ImageDraw, "text", text)
    draw(pic)
    monkeypatch.undo()
    texts = [text for _, _, text in sorted(drawn)]  # (each head: the points, then the unit)
    return [" ".join(texts[i : i + 2]) for i in range(0, len(texts), 2)]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_r7_6_the_corners_points_have_their_unit_beside_a_kush_loss(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R7.6: the game's end settles kush on the game's points, so a player may win the
    hand's points and lose kush. The corner drew a bare green "+2" over "−3 kush · 9 pts
    (target 10)", which read as kush won; it says "+2 pts" (the caption's words)."""
    anna = BoardPicture(
        "Anna", ("As Ad Ac", "Ks Kd Kc 2s 2d", "Qs Qd Qc 3s 3d"), ("", "", ""), (1, 1, 0),
        points=2, kush=-3, total=9,
    )  # fmt: skip
    boris = dataclasses.replace(anna, name="Boris", points=-1, kush=3, total=12, scores=(-1, -1, 1))
    pic = Picture("Chinese Poker · table #2 · hand 4", lang, (anna, boris), chinese=True,
                  target=10)  # fmt: skip
    unit = {"en": ("pts", "pt"), "ru": ("очка", "очко")}[lang]
    assert pictures.corner_of(pic, anna) == ("+2", unit[0])
    assert pictures.corner_of(pic, boris) == ("−1", unit[1])
    assert _corners(pic, monkeypatch) == [f"+2 {unit[0]}", f"−1 {unit[1]}"]
    points = tr(lang, "showdown.points", points=2)
    assert pictures.caption_of(pic).splitlines()[1].startswith(f"Anna {points}")


# -- the service --------------------------------------------------------------------------------


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every picture's data the service draws, in order (what it sends is drawn from it)."""
    return record_drawings(monkeypatch, pictures.draw_json, lambda args, pid: dict(args[0]))


def cards_of(data: Mapping[str, Any]) -> set[str]:
    """Every card a picture's data shows."""
    out: set[str] = set()
    for b in data["boards"]:
        for box in b["boxes"]:
            out |= set(box.split())
    for box in data.get("dummy") or ():
        out |= set(box.split())
    return out


def check_png(png: bytes, data: Mapping[str, Any]) -> None:
    assert len(png) <= MAX_BYTES
    img = _decode(png)
    _, width, height = layout(Picture.from_json(data))
    assert img.size == (width, height)


async def test_pineapple_one_picture_per_showdown_from_the_record_without_discards(
    env: Any, drawn: list[dict[str, Any]]
) -> None:
    """R3.2: the picture of each hand shows every board as the record has it, and none of the
    discards; points and kush are the record's; one picture per hand, sent to the group."""
    service, presenter, store, _ = env
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    for n in (1, 2):
        await play_hand(service, presenter, [ALICE, BOB])
        assert len(presenter.pictures) == n == len(drawn)
        chat, png, caption = presenter.pictures[-1]
        data = drawn[-1]
        assert chat == GROUP.chat_id
        check_png(png, data)
        record = (await store.hand_history(t.seats[0].player_id, 1))[0]
        assert record.number == n
        discards = {a["card"] for a in record.hand["actions"] if a["type"] == "discard"}
        assert discards
        assert not cards_of(data) & discards
        by_seat = {r["seat"]: r for r in record.result["seats"]}
        names = {0: "Alice", 1: "Bob"}
        for board in data["boards"]:
            seat = next(s for s, name in names.items() if name == board["name"])
            r = by_seat[seat]
            assert board["boxes"] == [_reads(r["top"]), _reads(r["middle"]), _reads(r["bottom"])]
            assert board["points"] == r["points"] and board["fouled"] == r["fouled"]
            assert board["scores"] == r["royalties"]
            assert board["kush"] == record.result["kush"][str(seat)]
            assert board["fl_next"] == r["fantasyland_cards"]
            points = tr("en", "showdown.points", points=board["points"])  # ("+6 pts", "0 pts")
            assert f"{board['name']} {points} (" in caption
        assert f"hand {n}" in data["title"] and f"hand {n}" in caption


async def test_pictures_off_sends_none_and_the_text_showdown_stays(
    env: Any, drawn: list[dict[str, Any]]
) -> None:
    """The group setting ``pictures`` (default on) turned off: no picture, the text stays."""
    service, presenter, _store, _ = env
    await configure(service, pictures="off")
    await start(service, [ALICE, BOB], "pineapple")
    await play_hand(service, presenter, [ALICE, BOB])
    assert presenter.pictures == [] and drawn == []
    assert any(s.text.startswith("🏁") for s in presenter.tables[GROUP.chat_id])
    await configure(service, pictures="on")  # between hands: the table takes it at once
    await play_hand(service, presenter, [ALICE, BOB])
    assert len(presenter.pictures) == 1


async def test_r4_3_classic_ofc_dummy_board_in_the_picture(
    env: Any, drawn: list[dict[str, Any]]
) -> None:
    """Classic OFC with three players and the dummy board (R4.3): the picture shows the
    dummy board, drawn in two rows of two."""
    service, presenter, store, _ = env
    await configure(service, game="ofc", dummy_box="on")
    await start(service, [ALICE, BOB, CAROL], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand.dummy is not None
    dummy = t.hand.dummy
    await play_hand(service, presenter, [ALICE, BOB, CAROL])
    assert len(presenter.pictures) == 1
    data = drawn[0]
    check_png(presenter.pictures[0][1], data)
    assert layout(Picture.from_json(data))[0] == 2
    assert {c.text for c in dummy.cards()} == {c for box in data["dummy"] for c in box.split()}
    # as the hand reads (the boards' order), in the picture and the showdown's text
    boxes = [dummy.box(b) for b in BOXES]
    assert data["dummy"] == [cards_str(display_order(box)) for box in boxes]
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if "Showdown" in s.text)
    said = " | ".join(format_cards(display_order(box)) for box in boxes)
    assert f"Dummy board: {said}" in showdown, showdown
    record = (await store.hand_history(t.seats[0].player_id, 1))[0]
    assert [b["points"] for b in data["boards"]] == [r["points"] for r in record.result["seats"]]


async def test_r4_2_double_boxes_four_boards_and_kush_per_player(
    env: Any, drawn: list[dict[str, Any]]
) -> None:
    """R4.2: two players with two boards each: four boards (① / ②) and the kush per player
    under them, not per board."""
    service, presenter, store, _ = env
    await configure(service, game="ofc", heads_up_double_boxes="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    data = drawn[0]
    check_png(presenter.pictures[0][1], data)
    assert sorted(b["name"] for b in data["boards"]) == ["Alice ①", "Alice ②", "Bob ①", "Bob ②"]
    assert all(b["kush"] is None for b in data["boards"])
    record = (await store.hand_history(t.seats[0].player_id, 1))[0]
    assert f"Alice: {record.result['kush']['0']:+d} kush" in data["notes"]


async def test_r8_7_a_tournament_picture_shows_the_chips_each_board_moved(
    env: Any, drawn: list[dict[str, Any]]
) -> None:
    """R8.7: in a tournament a hand moves chips, not kush: each board's line in the picture
    shows the chips it won or lost, and the level and everyone's chips are under the boards
    (as in the text showdown)."""
    service, presenter, store, _ = env
    await configure(service, tournament_buy_in="100", tournament_chips="200")
    reply = await service.new_tournament(GROUP, ALICE, "pineapple")
    assert not reply.alert, reply.text
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None  # 3: started
    await play_hand(service, presenter, [ALICE, BOB, CAROL])
    data = drawn[0]
    check_png(presenter.pictures[0][1], data)
    record = (await store.export_hands(t.id))[0]["result"]
    after = {int(s): c for s, c in record["tournament"]["chips"].items()}
    names = {0: "Alice", 1: "Bob", 2: "Carol"}
    moved = {b["name"]: b["kush"] for b in data["boards"]}
    assert moved == {names[s]: after[s] - 200 for s in after}
    assert sum(moved.values()) == 0 and data["label"] == "chips"
    assert any(n.startswith("Level 1 · ") for n in data["notes"]), data["notes"]
    assert not record.get("kush")  # no kush moved


async def test_r7_chinese_picture_at_the_end_of_the_reveal(
    env: Any, drawn: list[dict[str, Any]]
) -> None:
    """Chinese Poker: one picture when the reveal ends (not at each box), every box with its
    points (R7.1–R7.3) and each player's game total (R7.1)."""
    service, presenter, store, _ = env
    await configure(service, game="chinese", reveal_pause_seconds="0", target_points="200")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None
    await auto_street(service, presenter, ALICE)
    await auto_street(service, presenter, BOB)
    assert presenter.pictures == []  # arranged, the reveal not yet over
    for _ in range(4):
        await service.run_due()
    assert len(presenter.pictures) == 1
    data = drawn[0]
    check_png(presenter.pictures[0][1], data)
    assert data["chinese"] is True
    assert data["target"] == 200  # the game's, drawn with each total (R7.1)
    record = (await store.hand_history(t.seats[0].player_id, 1))[0].result
    totals = record["chinese"]["totals"]
    for board, r in zip(data["boards"], record["seats"], strict=True):
        assert board["boxes"] == [_reads(r["top"]), _reads(r["middle"]), _reads(r["bottom"])]
        assert board["total"] == totals[str(r["seat"])]
        assert sum(board["scores"]) + board["two_of_three"] == board["points"]
        assert board["points"] == record["counted"][str(r["seat"])]


def test_card_strings_in_samples_are_cards() -> None:
    """The golden samples hold real, distinct cards per board."""
    for pic in SAMPLES.values():
        for b in pic.boards:
            parse_cards(" ".join(b.boxes))


class CrashingPresenter(FakePresenter):
    """The process dies while sending the picture (after the commit that owes it)."""

    async def send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str | None = None, *, later: bool = False
    ) -> str | None:
        raise RuntimeError("the bot died here")


async def test_a_restarted_bot_sends_the_stored_picture(env: Any) -> None:
    """The picture is owed in the table's outbox, committed with the showdown: a bot that died
    before sending it sends the stored one after the restart (the same data, not a picture
    of a later state)."""
    _, _, store, clock = env
    first = TableService(store, clock=clock, next_hand_delay=0, timers=False)
    crashing = CrashingPresenter()
    first.register(crashing)
    await start(first, [ALICE, BOB], "pineapple")
    t = first.table_in(GROUP)
    assert t is not None
    await play_hand(first, crashing, [ALICE, BOB])
    assert crashing.pictures == []
    pending = [item for item in t.outbox if item["id"] > t.outbox_sent]
    assert [item["kind"] for item in pending] == ["picture"]  # the text showdown went out
    caption = pending[0]["caption"]
    assert "hand 1" in caption
    second = TableService(store, clock=clock, next_hand_delay=0, timers=False)
    presenter = FakePresenter()
    second.register(presenter)
    await second.start()
    restored = second.table_in(GROUP)
    assert restored is not None
    await second.rt.settled(restored)
    assert [(chat, text) for chat, _, text in presenter.pictures] == [(GROUP.chat_id, caption)]
    assert restored.outbox == []
