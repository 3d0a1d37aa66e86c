"""A new user's sandbox points (fixnu42b): each test fails without its fix."""

from __future__ import annotations

import ast
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot import pictures
from bot.pictures import BoardPicture, Picture
from bot.sandbox import GROUP, GROUP_ID, Sandbox, SandboxOptions
from bot.texts import tr

ROOT = Path(__file__).resolve().parents[2]

# -- 1. the "leave?" question's button is not the kush label -------------------------------


async def test_the_russian_leave_question_names_the_button_not_a_kush_amount(
    tmp_path: Path,
) -> None:
    """On a full Russian table ``g2`` is Leave and asks first. Its text passed the button's
    name as ``label``, which :func:`bot.texts.tr` takes for the kush label: it read
    «g2 сейчас — «ед. «Встать»»». Now the button's name is printed as it is."""
    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=2, bot_delay=0.0, lang="ru")
    box = Sandbox(opts, out)
    await box.start()
    try:
        assert await box.handle("g1")  # Join (a free seat: Join is g1)
        shown = box.screen(GROUP_ID)
        assert shown is not None
        assert [label for label, _ in shown.buttons][:2] == ["Готов", "Встать"]
        start = len(out.getvalue().splitlines())
        assert await box.handle("g2")
        assert out.getvalue().splitlines()[start] == (
            "» g2 сейчас — «Встать»: наберите g2 ещё раз, чтобы встать из-за стола "
            "(или g встать). «Готов» — g1."
        )
    finally:
        await box.stop()


def _kush_label(node: ast.expr) -> bool:
    """Whether an argument reads as the kush label: a name or attribute called ``label`` or
    ``kush_label``, or a call on one (``rt.kush_label(community)``, ``_drawable(chart.label)``)."""
    if isinstance(node, ast.Name):
        return node.id in ("label", "kush_label", "DEFAULT_KUSH_LABEL")
    if isinstance(node, ast.Attribute):
        return node.attr in ("label", "kush_label")
    if isinstance(node, ast.Call):
        return _kush_label(node.func) or any(_kush_label(a) for a in node.args)
    return False


def test_every_tr_label_argument_is_the_kush_label() -> None:
    """``tr(..., label=X)`` makes X the kush label (Russian plural forms, «ед. «X»» for a
    word it cannot inflect): no call of the bot passes anything else under that name (the
    sandbox passed a button's name)."""
    wrong = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id != "tr":
                continue
            for kw in node.keywords:
                if kw.arg == "label" and not _kush_label(kw.value):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(kw.value)}")
    assert wrong == []


# -- 2. a typed number keeps its button for the street --------------------------------------


def _pending(box: Sandbox) -> dict[str, str | None]:
    """Your street's cards placed so far: card → box name (None: discarded)."""
    assert box.service is not None
    t = box.service.table_in(GROUP)
    assert t is not None and t.hand is not None
    seat = t.seat_of(str(box.human.id))
    assert seat is not None
    (board,) = t.boards_of(seat)
    me = t.hand.view(board).me
    assert me is not None
    return {c.face: (b.name if b is not None else None) for c, b in me.pending}


async def test_a_typed_number_keeps_its_button_for_the_street_and_a_gone_one_presses_nothing(
    tmp_path: Path,
) -> None:
    """Street 1 numbers each card's Top / Middle / Bottom: 1–3, 4–6, … 13–15. Three cards on
    top fill it and the Top buttons of the others go. The numbers after them moved up, so a
    number read off the first list pressed another button ("5" meant 2♦ Bottom and threw 2♦
    away as Discard). Now every button keeps its number for the street: 12 is still the
    fourth card's Bottom, and 13, its Top gone, presses nothing and says so with the buttons
    now."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bots=1, bot_delay=0.0), out)
    await box.start()
    try:
        assert await box.handle("g join")
        assert await box.handle("g ready")
        await box._my_move(30)
        hand = box.screen(box.human.id)
        assert hand is not None
        first = [[label for label, _ in row] for row in hand.rows]
        assert [len(row) for row in first[:5]] == [3, 3, 3, 3, 3], first
        cards = [row[0].split()[0] for row in first[:5]]
        for n in ("1", "4", "7"):  # three cards on top: it is full
            assert await box.handle(n)
        assert _pending(box) == {cards[0]: "TOP", cards[1]: "TOP", cards[2]: "TOP"}
        shown = box.screen(box.human.id)
        assert shown is not None
        assert [len(row) for row in shown.rows[:5]] == [3, 3, 3, 2, 2]  # the Top buttons went
        # the printed list keeps the numbers: the fourth card's Middle is still 11
        printed = out.getvalue().splitlines()
        assert f"  [11] {cards[3]} Middle  [12] Bottom" in printed, printed[-12:]
        start = len(printed)
        assert await box.handle("12")  # the fourth card's Bottom, as first printed
        assert _pending(box)[cards[3]] == "BOTTOM"
        assert cards[4] not in _pending(box)
        assert await box.handle("13")  # the fifth card's Top: gone
        lines = out.getvalue().splitlines()[start:]
        said = next(x for x in lines if x.startswith("» 13 was"))
        assert said == (
            f'» 13 was "{cards[4]} Top", which is gone now: nothing pressed. The numbers stay '
            "with their buttons for the street; your buttons now:"
        )
        assert f"  [14] {cards[4]} Middle  [15] Bottom" in lines
        assert cards[4] not in _pending(box)
    finally:
        await box.stop()


# -- 3. the showdown picture's badges never vanish ------------------------------------------


def _fl_picture(lang: str) -> Picture:
    """Both players played Fantasyland and both keep it (14 cards), the one with the long
    kush line ("+10 кушей") the first."""
    boxes = ("Qs Qh 2d", "9c 9d 9h 4s 5s", "Ac Kc Qc Jc Tc")
    hands = ("", "", "")
    scores: tuple[int | None, int | None, int | None] = (7, 2, 25)
    anna = BoardPicture("Anna", boxes, hands, scores, points=10, kush=10, fl_next=14,
                        played_fl=True)  # fmt: skip
    boris = BoardPicture("Boris", boxes, hands, scores, points=-1, kush=-1, fl_next=14,
                         played_fl=True)  # fmt: skip
    return Picture("🏁 title", lang, (anna, boris))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_badge_of_a_panel_is_drawn_however_long_its_kush_line(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Russian panel with «+10 кушей», «ФАНТАЗИЯ 14» and «в Фантазии» had no room for the
    last, which was left out (English, shorter, kept "in FL"). Every badge is drawn now: the
    ones that do not fit beside the kush line go on the name's line."""
    drawn: list[str] = []
    badge = pictures._badge

    def record(draw: Any, right: int, y: int, text: str, fill: tuple[int, int, int]) -> int:
        drawn.append(text)
        return badge(draw, right, y, text, fill)

    monkeypatch.setattr(pictures, "_badge", record)
    pic = _fl_picture(lang)
    pictures.draw_image(pic)
    fl, played = tr(lang, "picture.fl_next", cards=14), tr(lang, "picture.fl_played")
    assert sorted(drawn) == sorted([fl, played, fl, played])
    # the layout: the kush line whole, the badges apart and within the panel
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    for b in pic.boards:
        head = pictures.head_layout(draw, pic, b, 90)
        assert sorted(x.text for x in head.badges) == sorted([fl, played])
        assert "…" not in head.sub and head.name == b.name
        for x in head.badges:
            w = int(draw.textlength(x.text, font=pictures._font(12, bold=True))) + 12
            assert x.right - w >= pictures.PAD and x.right <= pictures.PANEL_W - pictures.PAD


# -- 4. a computer player added during a hand is on the table message ------------------------


async def test_a_computer_player_added_during_a_hand_is_named_on_the_table_message(
    tmp_path: Path,
) -> None:
    """``/addbot`` during a hand seated one, which the group's table message did not show
    until the next hand (a person who joins then is named there with the time left to press
    Ready). Now it reads "🤖 Boris — from the next hand"."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bots=1, bot_delay=0.0), out)
    await box.start()
    try:
        assert await box.handle("g join")
        assert await box.handle("g ready")
        await box._my_move(30)
        assert box.service is not None
        t = box.service.table_in(GROUP)
        assert t is not None and t.hand is not None and not t.hand.is_over
        assert await box.handle("/addbot")
        added = max(t.seats.values(), key=lambda s: s.seat)
        assert added.bot is not None and not t.boards_of(added)
        shown = box.screen(GROUP_ID)
        assert shown is not None
        assert f"{added.name} — from the next hand" in shown.text.splitlines(), shown.text
    finally:
        await box.stop()


# -- 5. the sandbox after /settings language en: "Player", and no buttons promised ----------


async def test_a_russian_sandbox_switched_to_english_names_the_player_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a login name the player is «Игрок» in a Russian sandbox; after ``/settings
    language en`` the seat stayed «Игрок» in the English table's messages. Now it is
    "Player" from the next line on, the seat with it."""
    monkeypatch.delenv("USER", raising=False)
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bots=1, bot_delay=0.0, lang="ru"), out)
    await box.start()
    try:
        assert await box.handle("g сесть")
        assert box.service is not None
        t = box.service.table_in(GROUP)
        assert t is not None
        seat = t.seat_of(str(box.human.id))
        assert seat is not None and seat.name == "Игрок"
        assert await box.handle("/settings language en")
        assert await box.handle("/balance")
        assert box.human.first_name == "Player"
        assert seat.name == "Player"
        shown = box.screen(GROUP_ID)
        assert shown is not None and "Игрок" not in shown.text, shown.text
    finally:
        await box.stop()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_sandbox_s_settings_reply_promises_no_buttons(tmp_path: Path, lang: str) -> None:
    """The sandbox prints replies as text, without their buttons, and ``/settings`` said
    "/settings all lists every one, with buttons"; the reply printed says it without them
    (the bot's own reply keeps them)."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0, lang=lang), out)
    await box.start()
    try:
        start = len(out.getvalue().splitlines())
        assert await box.handle("/settings")
        printed = "\n".join(out.getvalue().splitlines()[start:])
        assert "/settings all" in printed
        assert tr(lang, "settings.with_buttons") not in printed, printed
        sent = [c for c in box.fake.calls if c.method == "sendMessage"][-1]
        assert tr(lang, "settings.with_buttons") in str(sent.params.get("text"))
    finally:
        await box.stop()
