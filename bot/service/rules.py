"""``/rules [game]``: the short rules of a game as a table plays it, its scoring scheme
(R5.2, R5.3), Fantasyland (R6: entering and staying) and Chinese Poker's target score (R7.1)
read from the table's options, so the text never promises "1 point a box" at a
``two_per_row`` table."""

from __future__ import annotations

from bot.texts import tr
from game.options import GameKind, RuleOptions


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
        return tr(lang, "rules.chinese", target=opts.target_points)
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
    return tr(lang, f"rules.{game.value}", scoring=scoring, fantasyland=fantasyland)
