"""``/rules [game]``: the short rules of a game as a table plays it, its scoring scheme
(R5.2, R5.3), Fantasyland (R6: entering and staying) and Chinese Poker's target score (R7.1)
read from the table's options, so the text never promises "1 point a box" at a
``two_per_row`` table."""

from __future__ import annotations

from collections.abc import Callable

from bot.texts import tr
from game.board import Box, royalty
from game.cards import Rank
from game.evaluator import HandCategory
from game.options import GameKind, RuleOptions
from game.scoring import chinese_box_bonus


def rules_text(opts: RuleOptions, lang: str, label: str | None = None) -> str:
    """The rules of ``opts.game`` with the options ``opts`` in ``lang``; with the kush
    ``label`` (not at a tournament's table, whose points cost chips), what a point costs
    (R7.6: ``kush_per_point``, which an admin may change between hands)."""
    text = _rules(opts, lang)
    if label is None:
        return text
    return text + "\n" + tr(lang, "rules.point_price", point=opts.kush_per_point, label=label)


def _rules(opts: RuleOptions, lang: str) -> str:
    game = opts.game
    if game is GameKind.CHINESE:
        text = tr(lang, "rules.chinese", target=opts.target_points)
        return text + "\n" + _points_table(chinese_box_bonus, lang, "rules.bonuses")
    if not opts.fantasyland:
        fantasyland = tr(lang, "rules.fantasyland.off")
    elif game is GameKind.PINEAPPLE and opts.progressive_fantasyland:
        fantasyland = tr(lang, "rules.fantasyland.progressive")
    else:
        fantasyland = tr(lang, f"rules.fantasyland.{game.value}")
    if opts.fantasyland:  # how a player stays there (R6.4): /rules said only how one enters
        stay = "stay_middle" if opts.stay_on_full_house_middle else "stay"
        fantasyland += "\n" + tr(lang, f"rules.fantasyland.{stay}")
    scoring = tr(lang, f"rules.scoring.{opts.scoring.value}")
    scoring += "\n" + tr(lang, "rules.foul")  # (what a foul costs, R5.4: it went unsaid)
    royalties = _points_table(royalty, lang, "rules.royalties")
    if opts.deuce_of_spades:
        royalties += "\n" + tr(lang, "rules.royalties.deuce")
    return tr(
        lang, f"rules.{game.value}", scoring=scoring, royalties=royalties, fantasyland=fantasyland
    )


_Points = Callable[[Box, int], int]


def _points_table(points: _Points, lang: str, title: str) -> str:
    """A box-by-box table of what ``points`` (:func:`game.board.royalty` for OFC and
    Pineapple, R5.6; :func:`game.scoring.chinese_box_bonus` for Chinese Poker, R7.2) pays,
    read from that function itself so no number is written twice: a title line, then a line
    per box that pays anything, top first."""
    lines = [tr(lang, title)]
    for box in (Box.TOP, Box.MIDDLE, Box.BOTTOM):
        if box is Box.TOP:
            items = _top_items(points, lang)
        else:
            items = [
                tr(lang, f"rules.cat.{cat.name.lower()}") + f" {paid}"
                for cat in HandCategory
                if (paid := points(box, int(cat) << 20))
            ]
        if items:
            lines += _wrapped(tr(lang, f"rules.box.{box.value}"), items)
    return "\n".join(lines)


#: the longest line of a points table a phone shows unbroken (a box's list runs on in lines
#: of its own, indented, rather than one line of ~90 characters the phone breaks anywhere)
_WIDTH = 40


def _wrapped(head: str, items: list[str]) -> list[str]:
    """``head`` and ``items`` joined by commas in lines of at most :data:`_WIDTH` characters
    (an item longer alone stays whole), the lines after the first indented two spaces."""
    lines = [f"{head} {items[0]}"]
    for item in items[1:]:
        if len(lines[-1]) + 2 + len(item) > _WIDTH:
            lines[-1] += ","
            lines.append(f"  {item}")
        else:
            lines[-1] += f", {item}"
    return lines


def _top_items(points: _Points, lang: str) -> list[str]:
    """The top box's paying pairs and trips, a run of ranks whose pay is the same or one more
    a rank in one item, spelled out: ``pairs 66–AA pay 1 to 9``, ``trips 222–KKK pay 2``,
    ``trips AAA pay 10`` ("66–AA 1–9" was terse for a new player)."""
    items: list[str] = []
    for cat, size in ((HandCategory.PAIR, 2), (HandCategory.TRIPS, 3)):
        paid = [(r, p) for r in Rank if (p := points(Box.TOP, (int(cat) << 20) | (r << 16)))]
        i = 0
        while i < len(paid):
            j = i + 1
            step = paid[j][1] - paid[i][1] if j < len(paid) else 0
            while (
                j < len(paid)
                and step in (0, 1)
                and paid[j][0] == paid[j - 1][0] + 1
                and paid[j][1] - paid[j - 1][1] == step
            ):
                j += 1
            (low, first), (high, last) = paid[i], paid[j - 1]
            word = "pair" if size == 2 else "trip"
            if j - i == 1:
                key, name = "rules.top.one", tr(lang, f"rules.top.{word}")
            else:
                key = "rules.top.flat" if first == last else "rules.top.rising"
                name = tr(lang, f"rules.top.{word}s")
            items.append(
                tr(lang, key, cat=name, low=low.char * size, high=high.char * size,
                   first=first, last=last)
            )  # fmt: skip
            i = j
    return items
