"""Showdown pictures (issue 12): every board of a finished hand drawn as a PNG for the group.

Two halves:

* :func:`showdown_picture` reads a table at its showdown and returns a :class:`Picture`, the
  JSON-able data to draw (names, boxes as card texts, fouls, royalties or points per box,
  points, kush, who goes to Fantasyland next). It reads only what the showdown reveals: the
  hand's result (boards without discards, R3.2) and, in Chinese Poker, only the boxes the
  reveal has shown (a claim leaves the others face down, R7.5). The service keeps it in the
  table's outbox, so a restarted bot sends the stored picture.
* :func:`draw` is pure: a :class:`Picture` in, PNG bytes out. Cards are drawn by this module
  with DejaVu Sans shipped in ``bot/assets`` (it has the suit glyphs ♠ ♥ ♦ ♣; its license is
  next to it), so nothing depends on the system's fonts. Each card face is drawn once per
  process and pasted (:func:`_card_tile`); a picture takes a few milliseconds
  (``bench/bench_pictures.py``). It runs in the drawing process (:class:`bot.drawing.Drawer`)
  when the outbox is sent, never inside a press's answer nor holding the event loop's GIL.

Colours follow a four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green) so that a flush reads at a
glance on a phone.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw, ImageFont

from bot.names import ROBOT
from bot.texts import kush_word, plural, signed, tr
from game.board import BOXES, Box
from game.cards import cards_str, format_cards, parse_cards
from game.evaluator import display_order, made_so_far
from game.names import hand_name
from game.options import GameKind
from storage.api import DEFAULT_KUSH_LABEL

if TYPE_CHECKING:
    from bot.model import LiveTable, SeatState

__all__ = [
    "ASSETS",
    "BoardPicture",
    "Picture",
    "amount_word",
    "board_line",
    "caption_of",
    "draw",
    "draw_json",
    "hand_picture",
    "notes_of",
    "showdown_picture",
]

#: Where the shipped fonts (and their license) are.
ASSETS = Path(__file__).with_name("assets")

# -- the data --------------------------------------------------------------------------------


def amount_word(label: str, lang: str, n: int) -> str:
    """The picture's ``label`` (the kush label, or the chips word of a tournament) agreeing
    with the amount ``n`` before it: ``+2 куша``, ``−5 фишек``, ``+1 chip``."""
    if label == tr(lang, "picture.chips"):
        return plural(n, *tr(lang, "picture.chip_forms").split("|"))
    return kush_word(label, lang, n)


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """One board at showdown.

    :ivar name: the player's name (with ① / ② for double boxes, R4.2).
    :ivar boxes: top, middle, bottom as card texts (``"Qs Qh 2d"``); ``""`` for a box not
        shown (Chinese Poker after a claim, R7.5: drawn face down).
    :ivar hands: the hand name of each box (``""`` when not shown).
    :ivar scores: per box: its royalty (OFC, R5.5; 0 is not drawn) or its points in Chinese
        Poker (R7.1–R7.3); ``None`` when not shown.
    :ivar fouled: the board is dead (R2.3, R5.4).
    :ivar points: the hand's net points (R5.1; Chinese: points of the revealed boxes).
    :ivar kush: kush moved by this hand (R8.4), ``None`` when none is shown on the board
        (settled later, tournament chips, or per player with double boxes).
    :ivar fl_next: cards of the Fantasyland earned for the next hand, 0 for none (R6).
    :ivar fl_if_top_up: that Fantasyland is played only if the player, whom the hand left
        below a point, tops up before the next deal (R8.2); it goes with the seat otherwise.
    :ivar played_fl: this hand was the board's Fantasyland hand.
    :ivar timed_out: some move was made for the player (R8.5).
    :ivar total: Chinese Poker: the game total after this hand (R7.1), else ``None``.
    :ivar two_of_three: Chinese Poker: points for two boxes of three won (R7.3), not in any
        box's score; 0 for none.
    :ivar live: a board still being played (``/hand``): empty places are drawn empty, never
        face down, and no points are shown.
    """

    name: str
    boxes: tuple[str, str, str]
    hands: tuple[str, str, str]
    scores: tuple[int | None, int | None, int | None]
    fouled: bool = False
    points: int = 0
    kush: int | None = None
    fl_next: int = 0
    fl_if_top_up: bool = False
    played_fl: bool = False
    timed_out: bool = False
    total: int | None = None
    two_of_three: int = 0
    live: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "name": self.name,
            "boxes": list(self.boxes),
            "hands": list(self.hands),
            "scores": list(self.scores),
            "fouled": self.fouled,
            "points": self.points,
            "kush": self.kush,
            "fl_next": self.fl_next,
            "fl_if_top_up": self.fl_if_top_up,
            "played_fl": self.played_fl,
            "timed_out": self.timed_out,
            "total": self.total,
            "two_of_three": self.two_of_three,
            "live": self.live,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> BoardPicture:
        """Inverse of :meth:`to_json`. :raises KeyError, ValueError: on a malformed record."""
        boxes = tuple(str(b) for b in d["boxes"])
        hands = tuple(str(h) for h in d.get("hands") or ("", "", ""))
        scores = tuple(None if s is None else int(s) for s in d.get("scores") or (None,) * 3)
        if len(boxes) != 3 or len(hands) != 3 or len(scores) != 3:
            raise ValueError("a board has three boxes")
        kush = d.get("kush")
        total = d.get("total")
        return cls(
            name=str(d["name"]),
            boxes=(boxes[0], boxes[1], boxes[2]),
            hands=(hands[0], hands[1], hands[2]),
            scores=(scores[0], scores[1], scores[2]),
            fouled=bool(d.get("fouled", False)),
            points=int(d.get("points", 0)),
            kush=None if kush is None else int(kush),
            fl_next=int(d.get("fl_next", 0)),
            fl_if_top_up=bool(d.get("fl_if_top_up", False)),
            played_fl=bool(d.get("played_fl", False)),
            timed_out=bool(d.get("timed_out", False)),
            total=None if total is None else int(total),
            two_of_three=int(d.get("two_of_three", 0)),
            live=bool(d.get("live", False)),
        )


@dataclass(frozen=True, slots=True)
class Picture:
    """What a showdown picture shows.

    :ivar title: the first line (game, table, hand).
    :ivar lang: the language of the few words drawn (``en`` / ``ru``).
    :ivar chinese: Chinese Poker: per-box scores are points (R7), not royalties.
    :ivar label: the kush label (``"kush"``, R8.1).
    :ivar boards: every board, in acting order.
    :ivar dummy: the dummy board's boxes (R4.3), shown only now; never scored.
    :ivar notes: lines under the boards (kush per player with double boxes, a claim …).
    :ivar target: Chinese Poker: the points that end the game (R7.1), drawn with each
        board's total as the reveal's text gives it ("12/30 pts"); ``None`` elsewhere (and
        in a picture stored before it was kept: the total alone, with its unit).
    """

    title: str
    lang: str
    boards: tuple[BoardPicture, ...]
    chinese: bool = False
    label: str = "kush"
    dummy: tuple[str, str, str] | None = None
    notes: tuple[str, ...] = ()
    target: int | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (kept in the table's outbox until sent)."""
        return {
            "title": self.title,
            "lang": self.lang,
            "chinese": self.chinese,
            "label": self.label,
            "boards": [b.to_json() for b in self.boards],
            "dummy": list(self.dummy) if self.dummy is not None else None,
            "notes": list(self.notes),
            "target": self.target,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Picture:
        """Inverse of :meth:`to_json`. :raises KeyError, ValueError: on a malformed record."""
        dummy = d.get("dummy")
        target = d.get("target")
        return cls(
            title=str(d["title"]),
            lang=str(d.get("lang", "en")),
            boards=tuple(BoardPicture.from_json(b) for b in d["boards"]),
            chinese=bool(d.get("chinese", False)),
            label=str(d.get("label", "kush")),
            dummy=(str(dummy[0]), str(dummy[1]), str(dummy[2])) if dummy else None,
            notes=tuple(str(n) for n in d.get("notes") or ()),
            target=None if target is None else int(target),
        )


def with_plain_text(data: Mapping[str, Any], plain: Callable[[str], str]) -> dict[str, Any]:
    """A picture's JSON (:meth:`Picture.to_json`) with ``plain`` applied to the texts that
    hold names (every board's name, the notes) or the kush label: a platform's escapes of
    names for its messages (Discord's markdown escapes) undone for drawing, where they
    would show.

    :raises KeyError, TypeError: on a malformed record."""
    out = dict(data)
    out["boards"] = [dict(b, name=plain(str(b["name"]))) for b in data["boards"]]
    out["notes"] = [plain(str(n)) for n in data.get("notes") or ()]
    if "label" in data:  # (the kush label an admin typed: escaped as names are)
        out["label"] = plain(str(data["label"]))
    return out


_REVEAL_ORDER = (Box.BOTTOM, Box.MIDDLE, Box.TOP)


def showdown_picture(
    t: LiveTable,
    lang: str,
    deltas: Mapping[int, int],
    notes: Sequence[str] = (),
    chips: Mapping[int, int] | None = None,
) -> Picture:
    """The picture of the showdown of ``t``'s finished hand (call before the hand is cleared).

    Reads only the hand's result (boards without discards) and, in Chinese Poker, the boxes
    the reveal has shown (``t.reveal["stage"]``; the rest are drawn face down, R7.5).
    ``deltas``: table seat → kush this hand moved (R8.4; empty when nothing is settled now).
    ``notes``: lines under the boards (a tournament's chips and knock-outs). ``chips``: in a
    tournament (R8.7), table seat → chips this settlement moved, shown where kush would be.

    :raises AssertionError: if the hand is not over."""
    hand = t.hand
    assert hand is not None and hand.result is not None
    res = hand.result
    game_title = tr(lang, f"game.{t.options.game.value}")
    chinese = t.options.game is GameKind.CHINESE
    title = tr(lang, "picture.title", game=game_title, table=t.id, hand=t.shown_no)
    boards: list[BoardPicture] = []
    target = None
    if chinese:
        from bot.render import reveal_target  # (render → model → …: not at the top)

        target = reveal_target(t)  # (as the reveal's text: the target it was played to)
        shown = int((t.reveal or {}).get("stage", 3))
        stages = t.reveal_stages()
        revealed = {box: stages[k] for k, box in enumerate(_REVEAL_ORDER[:shown])}
        totals = t.chinese.totals if t.chinese is not None else {}
        # a stage's points hold the two-of-three points it decides (R7.3: the middle's, or
        # the top's): drawn apart from the box
        two: dict[int, int] = {}
        for stage in revealed.values():
            for seat, n in stage.two_of_three.items():
                two[seat] = two.get(seat, 0) + n
    for r in res.seats:
        player = t.player_of(r.seat)
        moved = chips if chips is not None else deltas
        kush = moved.get(player.seat) if player is not None and not t.owners else None
        if chinese:
            boxes = tuple(
                cards_str(display_order(r.board.box(b))) if b in revealed else "" for b in BOXES
            )
            hands = tuple(
                hand_name(r.strengths[i], lang) if b in revealed else ""
                for i, b in enumerate(BOXES)
            )
            extra = two.get(r.seat, 0)
            scores = tuple(
                revealed[b].points.get(r.seat, 0) - revealed[b].two_of_three.get(r.seat, 0)
                if b in revealed
                else None
                for b in BOXES
            )
            fouled = r.fouled and bool(revealed)
            points = sum(s for s in scores if s is not None) + extra
            total: int | None = totals.get(r.seat, 0)
        else:
            boxes = tuple(cards_str(display_order(r.board.box(b))) for b in BOXES)  # as it reads
            hands = tuple(hand_name(s, lang) for s in r.strengths)
            scores = tuple(r.royalties)
            fouled, points, total, extra = r.fouled, r.points, None, 0
        boards.append(
            BoardPicture(
                name=t.board_label(r.seat),
                boxes=(boxes[0], boxes[1], boxes[2]),
                hands=(hands[0], hands[1], hands[2]),
                scores=(scores[0], scores[1], scores[2]),
                fouled=fouled,
                points=points,
                kush=kush,
                fl_next=r.fantasyland_cards if t.fantasyland_played(r.seat) else 0,
                fl_if_top_up=bool(r.fantasyland_cards) and t.fantasyland_if_top_up(r.seat),
                played_fl=r.played_fantasyland,
                timed_out=r.timed_out,
                total=total,
                two_of_three=extra,
            )
        )
    more = list(notes)
    if t.owners and deltas:  # double boxes: kush per player (R4.2)
        for owner, delta in sorted(deltas.items()):
            player = t.seats.get(owner)
            if player is not None:
                word = drawn_word(t.label, lang, delta)
                more.append(f"{player.name}: {signed(delta, lang)} {word}")
    if chinese and t.chinese is not None and t.chinese.claimed_by is not None:
        more.append(tr(lang, "reveal.claimed", name=t.board_label(t.chinese.claimed_by)))
    dummy = None
    if res.dummy is not None:
        dummy = (
            cards_str(display_order(res.dummy.box(Box.TOP))),
            cards_str(display_order(res.dummy.box(Box.MIDDLE))),
            cards_str(display_order(res.dummy.box(Box.BOTTOM))),
        )
    return Picture(
        title=title,
        lang=lang,
        boards=tuple(boards),
        chinese=chinese,
        label=tr(lang, "picture.chips") if chips is not None else kush_word(t.label, lang),
        dummy=dummy,
        notes=tuple(more),
        target=target,
    )


def hand_picture(t: LiveTable, seat: SeatState) -> Picture | None:
    """The player's own board(s) now, for their private chat only (``/hand``): from
    ``hand.view(board)`` of each of their boards (R4.2: two with double boxes), with the cards
    placed this street before Confirm (R3.4); the cards still to place are listed under the
    board. No other player's board, no discard. ``None`` when the player has no hand running.
    """
    hand = t.hand
    boards = t.boards_of(seat)
    if hand is None or hand.is_over or not boards:
        return None
    lang = seat.lang
    out: list[BoardPicture] = []
    notes: list[str] = []
    street = 0
    for b in boards:
        me = hand.view(b).me
        assert me is not None
        street = max(street, me.street)
        board = me.board
        # each box as the private hand shows it (bot/render.py): sorted as the showdown reads
        # it, named once full or holding a pair or better
        made = [made_so_far(board.box(x), x.size) for x in BOXES]
        named = tuple(hand_name(m, lang) if m is not None else "" for m in made)
        out.append(
            BoardPicture(
                name=t.board_label(b),
                boxes=(
                    cards_str(display_order(board.box(Box.TOP))),
                    cards_str(display_order(board.box(Box.MIDDLE))),
                    cards_str(display_order(board.box(Box.BOTTOM))),
                ),
                hands=(named[0], named[1], named[2]),
                scores=(None, None, None),
                played_fl=hand.is_fantasyland(b),
                live=True,
            )
        )
        if me.to_place:
            from bot.render import button_order  # (render → model → …: not at the top)

            label = t.board_label(b) + ": " if len(boards) > 1 else ""
            # in the order of the hand's buttons (a whole hand by rank): it was dealt order
            cards = button_order(me.cards, me.to_place)
            notes.append(label + tr(lang, "picture.to_place", cards=format_cards(cards)))
        elif me.waiting:  # classic OFC's street 1, held before the player's turn (R4.1)
            label = t.board_label(b) + ": " if len(boards) > 1 else ""
            notes.append(label + tr(lang, "picture.waiting", cards=format_cards(me.waiting)))
    # Chinese Poker (R4.5) and a Fantasyland hand (R6) are dealt whole: no street to name
    # (it said "street 1" there)
    whole = t.options.game is GameKind.CHINESE or all(hand.is_fantasyland(b) for b in boards)
    key = "picture.hand_title_whole" if whole else "picture.hand_title"
    title = tr(lang, key, table=t.id, hand=t.shown_no, street=street)
    return Picture(
        title=title,
        lang=lang,
        boards=tuple(out),
        label=kush_word(t.label, lang),
        notes=tuple(notes),
    )


def caption_of(picture: Picture, settle_later: bool = False) -> str:
    """The photo's short caption: the title and every board's points (and kush), each with
    its unit, e.g. ``"Pineapple OFC · table #3 · hand 7\\nAnna +6 pts (+60 kush) · Boris −6
    pts (−60 kush)"``. ``settle_later``: no kush moved, the round is settled after its last
    hand (R8.3): said on a line of its own, as the text showdown says it."""
    lang = picture.lang
    parts = []
    for b in picture.boards:
        part = f"{b.name} {tr(lang, 'showdown.points', points=b.points)}"
        if b.kush is not None:
            part += f" ({signed(b.kush, lang)} {amount_word(picture.label, lang, b.kush)})"
        parts.append(part)
    caption = picture.title + "\n" + " · ".join(parts)
    if settle_later:
        caption += "\n" + tr(lang, "showdown.settle_later")
    return caption


# -- drawing ---------------------------------------------------------------------------------

CARD_W, CARD_H, CARD_GAP = 50, 70, 6
PAD = 12  # inside a panel
MARGIN = 12  # around and between panels
HEAD_H = 50  # a panel's name, points and badges
ROW_H = CARD_H + 22  # a row of cards and its hand name
PANEL_W = PAD * 2 + CARD_W * 5 + CARD_GAP * 4
PANEL_H = HEAD_H + ROW_H * 3 + PAD
TITLE_H = 38
NOTE_H = 22

FELT = (12, 84, 56)
PANEL = (16, 104, 70)
PANEL_FOUL = (110, 38, 38)
WHITE = (250, 250, 247)
MUTED = (196, 222, 206)
GOLD = (242, 196, 64)
GREEN = (120, 230, 140)
RED = (255, 128, 118)
FOUL_RED = (208, 46, 46)
CARD_BG = (253, 253, 250)
CARD_BG_FOUL = (240, 214, 210)
CARD_EDGE = (150, 150, 150)
BACK = (38, 70, 140)
SUIT_COLOURS = {"s": (25, 25, 25), "h": (200, 16, 46), "d": (30, 90, 200), "c": (20, 125, 55)}


@functools.lru_cache(maxsize=16)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans (bold) at ``size`` pixels (loaded once per size)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(ASSETS / name), size)


def _glyph(ch: str) -> bytes:
    img = Image.new("L", (24, 24))
    ImageDraw.Draw(img).text((2, 2), ch, font=_font(16), fill=255)
    return img.tobytes()


@functools.lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    """Whether the font draws ``ch``: a character it lacks (an emoji, say) would be drawn as
    the font's empty box, the same as a character no font has."""
    return ch.isspace() or _glyph(ch) != _glyph("\U0010fffd")


#: What the picture draws for the computer players' 🤖 (:data:`bot.names.ROBOT`), which the
#: font has no glyph for: its gear, so "🤖 Anna" of the text messages is "⚙ Anna" here rather
#: than a name the picture cannot tell from a person's.
ROBOT_DRAWN = "\u2699"


def _drawable(text: str) -> str:
    """``text`` without the characters the font lacks (emoji in names: "Vera 🎲" → "Vera"),
    the computer players' 🤖 drawn as :data:`ROBOT_DRAWN` ("🤖 Anna" → "⚙ Anna")."""
    for mark in (ROBOT + "\ufe0f", ROBOT + "\ufe0e", ROBOT):  # (with its variation selector)
        text = text.replace(mark, ROBOT_DRAWN + " ")
    return " ".join("".join(ch for ch in text if _has_glyph(ch)).split())


def drawn_word(label: str, lang: str, n: int) -> str:
    """The unit of an amount ``n`` as the picture can draw it: the label agreeing with it
    (:func:`amount_word`) without what the font lacks, or the word for kush when nothing is
    left (``/settings kush_label 🤑``: "+3  · 12 pts" had no unit and a double space)."""
    return _drawable(amount_word(label, lang, n)) or kush_word(DEFAULT_KUSH_LABEL, lang, n)


def drawn_name(pic: Picture, b: BoardPicture) -> str:
    """The name a board's panel shows: the player's name without what the font cannot draw,
    or "Player N" (its place in the picture) for a name made only of emoji, which would
    leave the panel nameless."""
    return _drawable(b.name) or tr(pic.lang, "picture.player", n=pic.boards.index(b) + 1)


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut with "…" to fit ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


@functools.lru_cache(maxsize=128)
def _card_tile(text: str, fouled: bool) -> Image.Image:
    """One card face (``"Qs"``), drawn once and pasted: rank at the top left, the suit large."""
    img = Image.new("RGB", (CARD_W, CARD_H), PANEL_FOUL if fouled else PANEL)
    d = ImageDraw.Draw(img)
    bg = CARD_BG_FOUL if fouled else CARD_BG
    d.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=6, fill=bg, outline=CARD_EDGE)
    if not text:  # face down
        d.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=6, fill=BACK, outline=WHITE)
        d.rounded_rectangle((5, 5, CARD_W - 6, CARD_H - 6), radius=4, outline=(120, 150, 210))
        return img
    card = parse_cards(text)[0]
    colour = SUIT_COLOURS[card.suit.value]
    rank = card.rank.face
    d.text((5, 2), rank, font=_font(22 if len(rank) == 1 else 19, bold=True), fill=colour)
    d.text((CARD_W // 2, CARD_H - 22), card.suit.symbol, font=_font(32), fill=colour, anchor="mm")
    return img


def _badge(
    draw: ImageDraw.ImageDraw, right: int, y: int, text: str, fill: tuple[int, int, int]
) -> int:
    """A pill ending at ``right``; returns its left edge."""
    font = _font(12, bold=True)
    w = int(draw.textlength(text, font=font)) + 12
    draw.rounded_rectangle((right - w, y, right, y + 18), radius=9, fill=fill)
    draw.text((right - w // 2, y + 9), text, font=font, fill=(20, 20, 20), anchor="mm")
    return right - w


def board_line(pic: Picture, b: BoardPicture, *, target: bool = True) -> list[str]:
    """The parts of the line under a board's name: the kush it moved and, in Chinese Poker,
    the game total (R7.1) with its unit and, with ``target`` (and a picture that knows it),
    the game's target as the reveal's text gives it, "12/30 pts" (it read "total 12": no
    unit, no target). The bonus for two boxes of three (R7.3) is no part of it: a line of
    its own under the boards (:func:`notes_of`), as the reveal's text gives it."""
    sub = []
    if b.kush is not None:
        kush = signed(b.kush, pic.lang, drawn=True)  # (grouped as the caption's: −12 000)
        sub.append(f"{kush} {drawn_word(pic.label, pic.lang, b.kush)}")
    if b.total is not None and target and pic.target is not None:
        sub.append(tr(pic.lang, "picture.total", total=b.total, target=pic.target))
    elif b.total is not None:
        sub.append(tr(pic.lang, "picture.total_only", total=b.total))
    return sub


def corner_of(pic: Picture, b: BoardPicture) -> tuple[str, str]:
    """The hand's points drawn large in a board's corner, and their unit drawn small beside
    them: ``("+2", "pts")``. A Chinese Poker game's end settles kush on the game's points
    (R7.6), so a player may win the hand and lose kush: the bare green "+2" over "−3 kush"
    read as a contradiction; with its unit it is the points, as the caption says them."""
    forms = tr(pic.lang, "picture.point_forms").split("|")
    return signed(b.points, pic.lang, drawn=True), plural(b.points, *forms)


def notes_of(pic: Picture) -> list[str]:
    """The lines under the boards: the picture's notes, then, in Chinese Poker, the bonus for
    winning two boxes of three (R7.3) in the reveal's words, "2+ of 3 boxes (+1 per
    opponent): Anna +1" (it read "two of three +1" next to the game total, which said
    less than the text and was cut with "…" where the line was full)."""
    bonus = [f"{drawn_name(pic, b)} {signed(b.two_of_three, pic.lang, drawn=True)}"
             for b in pic.boards if b.two_of_three]  # fmt: skip
    if not bonus:
        return list(pic.notes)
    return [*pic.notes, tr(pic.lang, "reveal.two_of_three", points=", ".join(bonus))]


@dataclass(frozen=True, slots=True)
class PlacedBadge:
    """A badge of a panel's head as :func:`head_layout` places it: its text and colour, its
    right edge in pixels from the panel's left edge, and its line: 0 the name's, 1 the one
    under it (the kush or the game total)."""

    text: str
    fill: tuple[int, int, int]
    right: int
    row: int


@dataclass(frozen=True, slots=True)
class HeadLayout:
    """A panel's head as drawn: the name (cut with "…" where it must give way), the line
    under it (the kush or the game total, cut only for the badges always drawn beside it)
    and every badge, placed (:class:`PlacedBadge`)."""

    name: str
    sub: str
    badges: tuple[PlacedBadge, ...]


def panel_badges(pic: Picture, b: BoardPicture) -> list[tuple[str, tuple[int, int, int], bool]]:
    """A board's badges, the most important first, each with its colour and whether it is
    always drawn beside the kush line: a foul (R2.3) and a Fantasyland earned (R6) always;
    a move made by the clock (R8.5) and a Fantasyland played this hand (R6) where they fit,
    else on the name's line."""
    lang = pic.lang
    badges = []
    if b.fouled:
        badges.append((tr(lang, "picture.foul"), FOUL_RED, True))
    if b.fl_next:
        key = "picture.fl_if_top_up" if b.fl_if_top_up else "picture.fl_next"
        badges.append((tr(lang, key, cards=b.fl_next), GOLD, True))
    if b.timed_out:
        badges.append((tr(lang, "picture.timed_out"), MUTED, False))
    if b.played_fl:
        badges.append((tr(lang, "picture.fl_played"), MUTED, False))
    return badges


def head_layout(
    draw: ImageDraw.ImageDraw, pic: Picture, b: BoardPicture, points_width: int
) -> HeadLayout:
    """Where a panel's head puts its name, its kush line and its badges (:func:`panel_badges`),
    in pixels from the panel's left edge; ``points_width``: the points drawn in the top right
    corner (0 for none). The badges go from the right of the kush line, the most important
    first: those always drawn cut the line with "…" if need be; the others go there while
    the line fits whole beside them, else on the name's line left of the points, the name
    cut to leave them room. No badge is left out: "в Фантазии" vanished from a Russian
    panel whose "+10 кушей" and «ФАНТАЗИЯ 14» filled the line."""
    badge_font, sub_font = _font(12, bold=True), _font(13)

    def width(text: str) -> int:
        return int(draw.textlength(text, font=badge_font)) + 12

    badges = panel_badges(pic, b)
    kept = sum(width(t) + 4 for t, _, always in badges if always)
    sub = ""
    if parts := board_line(pic, b):
        room = PANEL_W - 2 * PAD - kept - 2
        sub = " · ".join(parts)
        if draw.textlength(sub, font=sub_font) > room:  # the game's target where it fits
            sub = " · ".join(board_line(pic, b, target=False))
        sub = _fit(draw, sub, sub_font, room)
    left = PAD + (int(draw.textlength(sub, font=sub_font)) + 6 if sub else 0)
    right = PANEL_W - PAD
    placed: list[PlacedBadge] = []
    rest: list[tuple[str, tuple[int, int, int]]] = []
    for text, fill, always in badges:
        if always or right - width(text) >= left:
            placed.append(PlacedBadge(text, fill, right, 1))
            right -= width(text) + 4
        else:
            rest.append((text, fill))
    # the name's line: the name from the left, the points in the corner, the rest between
    top = PANEL_W - 2 * PAD - points_width
    for text, fill in rest:
        placed.append(PlacedBadge(text, fill, top, 0))
        top -= width(text) + 4
    room = top - PAD - (2 if rest else 0)
    name = _fit(draw, drawn_name(pic, b), _font(17, bold=True), max(0, room))
    return HeadLayout(name, sub, tuple(placed))


def _panel(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    b: BoardPicture,
    pic: Picture,
    scored: bool = True,
) -> None:
    draw.rounded_rectangle(
        (x, y, x + PANEL_W, y + PANEL_H), radius=10, fill=PANEL_FOUL if b.fouled else PANEL
    )
    # head: name and points, then kush (or the game total) and the badges
    pw = 0
    if scored:
        points, unit = corner_of(pic, b)
        pfont, ufont = _font(22, bold=True), _font(13)
        uw = int(draw.textlength(unit, font=ufont))
        pw = int(draw.textlength(points, font=pfont)) + 4 + uw
        colour = GREEN if b.points > 0 else (RED if b.points < 0 else WHITE)
        right = x + PANEL_W - PAD
        draw.text((right, y + 14), unit, font=ufont, fill=MUTED, anchor="ra")
        draw.text((right - uw - 4, y + 6), points, font=pfont, fill=colour, anchor="ra")
    head = head_layout(draw, pic, b, pw)
    draw.text((x + PAD, y + 8), head.name, font=_font(17, bold=True), fill=WHITE)
    if head.sub:
        draw.text((x + PAD, y + 31), head.sub, font=_font(13), fill=MUTED)
    for badge in head.badges:
        _badge(draw, x + badge.right, y + (29 if badge.row else 8), badge.text, badge.fill)
    # three rows: cards, then the hand name and the box's royalty (or points)
    small, small_bold = _font(12), _font(13, bold=True)
    for i, box in enumerate(BOXES):
        ry = y + HEAD_H + i * ROW_H
        cards = b.boxes[i].split()
        slots = box.size
        for k in range(slots):
            face = cards[k] if k < len(cards) else ""
            cx = x + PAD + k * (CARD_W + CARD_GAP)
            if face or (not b.boxes[i] and not b.live):  # a box not shown: face down
                img.paste(_card_tile(face, b.fouled), (cx, ry))
            elif b.live:  # an empty place of a board in play
                draw.rounded_rectangle((cx, ry, cx + CARD_W - 1, ry + CARD_H - 1), radius=6,
                                       outline=MUTED)  # fmt: skip
        ty = ry + CARD_H + 3
        score = b.scores[i]
        score_text = ""
        if score is not None and (pic.chinese or score):
            score_text = signed(score, pic.lang, drawn=True)
            fill = GOLD if not pic.chinese else (GREEN if score > 0 else RED if score else WHITE)
            draw.text((x + PANEL_W - PAD, ty), score_text, font=small_bold, fill=fill, anchor="ra")
        if b.hands[i]:
            sw = int(draw.textlength(score_text, font=small_bold)) + 8 if score_text else 0
            hand = _fit(draw, b.hands[i], small, PANEL_W - 2 * PAD - sw)
            draw.text((x + PAD, ty + 1), hand, font=small, fill=RED if b.fouled else MUTED)


def _dummy_board(pic: Picture) -> BoardPicture | None:
    if pic.dummy is None:
        return None
    return BoardPicture(
        name=tr(pic.lang, "picture.dummy"),
        boxes=pic.dummy,
        hands=("", "", ""),
        scores=(None, None, None),
    )


def layout(pic: Picture) -> tuple[int, int, int]:
    """``(columns, width, height)`` of the picture: boards side by side up to three, two a
    row for four (a dummy board counts as one)."""
    n = len(pic.boards) + (pic.dummy is not None)
    cols = n if n <= 3 else 2
    rows = -(-n // cols)
    width = MARGIN + cols * (PANEL_W + MARGIN)
    notes = len(note_lines(pic, width - 2 * MARGIN))
    height = TITLE_H + rows * (PANEL_H + MARGIN) + notes * NOTE_H + MARGIN // 2
    return cols, width, height


def note_lines(pic: Picture, width: int) -> list[str]:
    """The lines drawn under the boards (:func:`notes_of`), each note broken at its spaces
    into lines of ``width`` pixels: a Fantasyland hand's "To place:" lists 14–17 cards, wider
    than one board, and was cut with "…" in the middle of a card ("… Q♣ 1…"). Only a word
    wider than a line by itself is still cut."""
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    font = _font(14)
    out: list[str] = []
    for note in notes_of(pic):
        line = ""
        for word in _drawable(note).split(" "):
            longer = f"{line} {word}" if line else word
            if line and draw.textlength(longer, font=font) > width:
                out.append(_fit(draw, line, font, width))
                line = word
            else:
                line = longer
        out.append(_fit(draw, line, font, width))
    return out


def title_lines(draw: ImageDraw.ImageDraw, title: str, width: int) -> tuple[int, list[str]]:
    """The title's font size and lines: one line at the largest size it fits in (a one-board
    picture is narrow), else two lines of the smallest size broken at " · " (the Russian
    ``/hand`` title, "Ваша доска · стол #1 · раздача 9 · улица 4", is wider than one board
    even then); only what still does not fit is cut with "…"."""
    for size in (18, 15, 13):
        if draw.textlength(title, font=_font(size, bold=True)) <= width:
            return size, [title]
    font = _font(13, bold=True)
    parts = title.split(" · ")
    first = parts[0]
    rest = parts[1:]
    while rest and draw.textlength(first + " · " + rest[0], font=font) <= width:
        first += " · " + rest.pop(0)
    if not rest:  # one part too wide by itself
        return 13, [_fit(draw, title, font, width)]
    return 13, [_fit(draw, first, font, width), _fit(draw, " · ".join(rest), font, width)]


def draw_image(pic: Picture) -> Image.Image:
    """The picture as a Pillow image (RGB); see :func:`draw`."""
    cols, width, height = layout(pic)
    img = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(img)
    size, lines = title_lines(draw, _drawable(pic.title), width - 2 * MARGIN)
    if len(lines) == 1:
        draw.text(
            (MARGIN, 10 + (18 - size) // 2), lines[0], font=_font(size, bold=True), fill=WHITE
        )
    else:  # two lines of the smallest size in the title's band
        for n, line in enumerate(lines):
            draw.text((MARGIN, 4 + n * 16), line, font=_font(size, bold=True), fill=WHITE)
    boards = list(pic.boards)
    dummy = _dummy_board(pic)
    if dummy is not None:
        boards.append(dummy)
    for n, b in enumerate(boards):
        col, row = n % cols, n // cols
        x = MARGIN + col * (PANEL_W + MARGIN)
        y = TITLE_H + row * (PANEL_H + MARGIN)
        _panel(img, draw, x, y, b, pic, scored=b is not dummy and not b.live)
    rows = -(-len(boards) // cols)
    y = TITLE_H + rows * (PANEL_H + MARGIN)
    for text in note_lines(pic, width - 2 * MARGIN):
        draw.text((MARGIN, y), text, font=_font(14), fill=WHITE)
        y += NOTE_H
    return img


def draw(pic: Picture) -> bytes:
    """The picture as PNG bytes: a title, then one panel per board (name, points, kush or the
    game total, badges for a foul and for Fantasyland next, three rows of cards with each
    box's hand name and royalty or points), the dummy board, and the notes.

    Pure (no I/O but reading the shipped fonts once). 632 × 394 px for two boards, 942 × 394
    for three, 632 × 744 for four; 30–90 KB; about 8–21 ms of CPU (``bench/bench_pictures.py``).
    PNG at zlib level 3: nearly the size of level 6 in two thirds of the time."""
    buf = io.BytesIO()
    draw_image(pic).save(buf, "PNG", compress_level=3)
    return buf.getvalue()


def draw_json(data: Mapping[str, Any]) -> bytes:
    """:func:`draw` of a stored :meth:`Picture.to_json` (what the outbox keeps).

    :raises KeyError, ValueError: on a malformed record."""
    return draw(Picture.from_json(data))
