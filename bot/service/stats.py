"""Statistics, the leaderboard by period and replays of finished hands (issue 12).

* ``/stats [@user|me] [week|month]``: a player's figures, or the group's with no name,
  from :meth:`Store.player_stats` / :meth:`Store.community_stats` (SQL aggregates over the
  per-player figures stored with every settlement, never a walk over the hands; the group's
  are its members': computer players, who play with house kush, are left out of its figures,
  its player count and its biggest winner, as ``/top`` leaves them out). A player
  with at least 2 hands in the period also gets the chart of their kush over time
  (:meth:`Store.kush_series`, drawn by :func:`bot.charts.draw_kush` in the drawing process),
  sent after the text; in the group's ``/stats`` it is the asker's own.
* ``/top week|month|all``: players by net kush won in the period
  (:meth:`Store.kush_leaderboard`); plain ``/top`` stays the leaderboard by balance
  (:func:`bot.service.wallet.top`).
* ``/replay N`` (``N`` the ``#id`` ``/history`` shows): the hand street by street with ◀ ▶
  buttons (:class:`~bot.presses.ReplayStep`), in a private chat or an ephemeral message,
  never in a group. Only a player of the hand may watch it, and each frame holds the
  watcher's own discards and nobody else's (R3.3): the frames come from
  :func:`game.history.replay_frames`, which never reads another board's discards.

Replaying a hand re-runs its actions in the core (a timeout with ``safe_autoplay`` runs the
strategy again), so frames are built in a worker thread, off the event loop.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from bot import charts, render
from bot.model import Actor, ChatRef, Reply
from bot.names import clean_arg
from bot.presses import ReplayStep, encode
from bot.screens import Button, Screen
from bot.service.bots import BOT_NAMES, BOT_USER_PREFIX, computer_user_id, is_computer
from bot.service.runtime import REPLAYS_KEPT, Runtime
from bot.service.settings import day_zone
from bot.texts import grouped_tenths, kush_word, on, signed, tr
from bot.thinking import Thinker
from game.board import BOXES
from game.errors import GameError
from game.history import ReplayFrame, distinct_frames, replay_frames, revealed_boxes
from storage.api import DEFAULT_KUSH_LABEL, Community, HandRecord, HandStats, Player

__all__ = [
    "PERIODS",
    "period_start",
    "replay",
    "replay_press",
    "replay_screen",
    "shown_number",
    "stats",
    "top",
]

#: ``/top`` and ``/stats`` periods: seconds back from now (``None``: all time).
PERIODS: dict[str, float | None] = {"week": 7 * 86400.0, "month": 30 * 86400.0, "all": None}
_PERIOD_WORDS = {
    "неделя": "week", "неделю": "week", "месяц": "month", "всё": "all", "все": "all",
}  # fmt: skip
#: periods people name that /stats has not (``/stats год`` read as a player's name: "No such
#: player here: год."): answered with the periods it has
_OTHER_PERIODS = {
    "day", "today", "year", "days", "years", "день", "сегодня", "сутки", "год", "года", "лет",
}  # fmt: skip
_ME = {"me", "я"}
#: a chart needs this many hands in the period (fewer: the text only)
CHART_MIN_HANDS = 2

log = logging.getLogger(__name__)


def means_me(name: str) -> bool:
    """Whether the name ``name`` typed in a command means the one typing it ("me", "я", any
    case): ``/stats me`` and ``/grant me 100`` (the admin themself)."""
    return name.lower() in _ME


def period_start(period: str, now: float) -> float | None:
    """The start (Unix seconds) of a period of :data:`PERIODS` ending ``now``; ``None`` for
    all time. :raises KeyError: for an unknown period."""
    back = PERIODS[period]
    return None if back is None else now - back


def _period(word: str) -> str | None:
    w = word.lower()
    w = _PERIOD_WORDS.get(w, w)
    return w if w in PERIODS else None


def _pct(part: int, whole: int) -> str:
    """``part`` of ``whole`` in whole percent, a half rounded up ("13%" for 1 of 8: Python's
    ``round`` gave "12%", a half to even); "—" of nothing. Every percentage /stats shows."""
    return f"{(200 * part + whole) // (2 * whole)}%" if whole else "—"


def _avg(total: int, count: int, lang: str = "en") -> str:
    """``total / count`` signed, one decimal (``+1.5``; ``+1,5`` in Russian), or ``—``; from
    :func:`~bot.texts.group_from` up its thousands grouped as every amount's
    (:func:`~bot.texts.grouped_tenths`: ``−12,000.0``, ``−12 000,0``; the kush a hand read
    "-12000.0" beside a grouped net); a negative one with :data:`~bot.texts.MINUS`."""
    return grouped_tenths(total / count, lang, sign=True) if count else "—"


def _open_face_boards(s: HandStats, *, group: bool) -> int:
    """The open-face games' (Pineapple, classic OFC) part of ``s``: a player's hands of
    them, a group's boards (per hand of their game: a Chinese Poker hand has one board, no
    double boxes, R4.2)."""
    return (s.boards if group else s.hands + s.tournament_hands) - s.bonus_boards


def _chinese_only(s: HandStats, *, group: bool) -> bool:
    """Whether ``s`` counts Chinese Poker hands and nothing of the open-face games: the
    figures of those (Fantasyland, R6; scoops, R5.2) are no Chinese Poker terms (R7) and
    are left out."""
    open_face = _open_face_boards(s, group=group)
    return bool(s.bonus_boards) and not (open_face or s.fl_chances or s.fl_played)


def _best(s: HandStats, lang: str, best: str, *, group: bool) -> str:
    """The line of the biggest win (``best``, the text after "biggest win: "), with the
    scoops (R5.2) before it, but for Chinese Poker alone, which has no scoops (R7)."""
    if _chinese_only(s, group=group):
        return tr(lang, "stats.biggest", best=best)
    return tr(lang, "stats.best", scoops=s.scoops, best=best)


#: the widest line :func:`_fit` makes (a phone's width, about)
LINE_WIDTH = 40


def _fit(parts: Sequence[str], width: int = LINE_WIDTH) -> list[str]:
    """``parts`` joined with " · " into lines of at most ``width`` characters where they
    fit (a part longer than that is a line of its own); a part that begins a line begins
    with a capital ("Fouls: 0% (0 of 3 boards)", "Royalties/hand 32.0")."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part[:1].upper() + part[1:])
    return lines


def _stats_lines(s: HandStats, lang: str, label: str, *, group: bool) -> list[str]:
    """The figures of :class:`HandStats` as short lines (a phone's width).

    Royalties (R5.6) are the open-face games' (Pineapple, classic OFC), per hand of those;
    Chinese Poker's strength bonuses (R7.2) are no royalties (part of its points): "strength
    bonus/hand" of their own (not the point for 2 of 3 boxes, R7.3), per Chinese Poker hand,
    shown when one was played (a group that played only Chinese Poker sees no royalties
    figure)."""
    # a tournament's payout (R8.7) is no hand's winnings: its own line (:func:`_tournaments`);
    # nor are its hands, which move chips: the kush per hand is the cash hands', the
    # tournament hands have a line of their own; fouls, royalties and Fantasyland count both
    # Chinese Poker's points (R7.1) are every box won, never a net against the opponents:
    # averaged with the open-face games' net points (R5.1) they read "+2.1 points/hand" to a
    # player losing 6.4 kush a hand. The points per hand are the open-face hands'; Chinese
    # Poker's (cash and tournament hands) have a figure of their own, after the bonuses
    cash_points = s.points - s.tournament_points - s.chinese_points
    open_hands = s.hands - s.chinese_hands
    lines = []
    if s.hands or not s.tournament_hands:
        # only Chinese Poker hands: no open-face points to average ("points/hand —" read as
        # if nothing was scored); Chinese Poker's points per hand come after the fouls
        key = "stats.hands_chinese" if s.chinese_hands and not open_hands else "stats.hands"
        lines.append(
            tr(lang, "stats.group_hands" if group else key,
               hands=s.hands, players=s.players, points=_avg(cash_points, open_hands, lang),
               kush=_avg(s.kush - s.tournament_kush, s.hands, lang), label=label)
        )  # fmt: skip
    if s.tournament_hands:
        # a Chinese Poker tournament's points (R8.7, R7.1) are no net either: the tournament
        # points per hand are the open-face tournament hands', as the cash hands' are
        open_tournament = s.tournament_hands - s.tournament_chinese_hands
        key = "stats.tournament_hands"
        if s.tournament_chinese_hands and not open_tournament:
            key = "stats.tournament_hands_chinese"
        lines.append(
            tr(lang, "stats.group_tournament_hands" if group else key,
               hands=s.tournament_hands, label=label,
               points=_avg(s.tournament_points - s.tournament_chinese_points, open_tournament,
                           lang))
        )  # fmt: skip
    figures = [tr(lang, "stats.fouls", pct=_pct(s.fouls, s.boards), fouls=s.fouls, boards=s.boards)]
    open_face = _open_face_boards(s, group=group)
    if open_face or not s.bonus_boards:
        royalties = _avg(s.royalties, open_face, lang).lstrip("+")
        figures.append(tr(lang, "stats.royalties", n=royalties))
    if s.bonus_boards:
        bonuses = _avg(s.bonuses, s.bonus_boards, lang).lstrip("+")
        figures.append(tr(lang, "stats.bonuses", n=bonuses))
    chinese_hands = s.chinese_hands + s.tournament_chinese_hands  # (cash and tournament)
    if chinese_hands and not group:
        chinese_points = s.chinese_points + s.tournament_chinese_points
        game_points = _avg(chinese_points, chinese_hands, lang).lstrip("+")
        figures.append(tr(lang, "stats.chinese_points", n=game_points))
    lines += _fit(figures)
    # Fantasyland (R6) is the open-face games': no line for Chinese Poker alone (it read
    # "Fantasyland: entered —" to a player who never played a game that has it)
    if not _chinese_only(s, group=group):
        entered = (
            tr(lang, "stats.fantasyland_entered", pct=_pct(s.fl_entered, s.fl_chances))
            if s.fl_chances
            else tr(lang, "stats.fantasyland_entered_none")
        )
        lines.append(
            tr(lang, "stats.fantasyland", entered=entered, stays=s.fl_stayed, played=s.fl_played)
            if s.fl_played  # (no Fantasyland hand played: no stay to speak of)
            else tr(lang, "stats.fantasyland_entry", entered=entered)
        )
    return lines


async def stats(
    rt: Runtime,
    community: Community,
    actor: Actor,
    lang: str,
    args: Sequence[str],
    shown: Mapping[str, str] | None = None,
    of: str | None = None,
) -> Reply:
    """``/stats [@user|me] [week|month|all]``: with no name, the group's figures followed by
    the caller's own (when they played); with a name (or ``me``), that player's only. The
    words that are not a period are one name: ``/stats Anna Maria week`` (a chat splits
    what is typed into words, each an argument; it was refused as two names).
    ``shown``: a name argument → how the asker wrote it, for the "nobody here" reply (a name
    of several words is looked up as typed). ``of``: the user id of the player a reply to
    their message names (Telegram); a name typed besides is refused with the usage, and so
    are two periods (``/stats week month``, ``/stats me week all``: the first was dropped
    unsaid, the last one counted). A period word is part of the name when the name so read
    is a player's here (``/stats All Star week``: "All Star", :func:`_name_with_periods`)."""
    period = "all"
    periods = 0
    words: list[str] = []
    for a in args:
        p = _period(a)
        if p is not None:
            period, periods = p, periods + 1
        else:
            words.append(clean_arg(a))
    if of is None and periods:
        reading = await _name_with_periods(rt, community, args, shown)
        if reading is not None:
            period, words = reading
            periods = 1
    if periods > 1:
        return Reply(tr(lang, "stats.usage"), alert=True)
    since = period_start(period, rt.clock())
    label = rt.kush_label(community)
    when = tr(lang, f"period.{period}")
    if of is not None and words:
        return Reply(tr(lang, "stats.usage"), alert=True)
    if of is not None:
        names = [of]
    elif words:  # one name, of several words as typed (never a looked-up id)
        names = [_name_of(words, shown)]
    else:
        names = []
    me = await rt.store.player(community.id, actor.user_id, actor.name, actor.language)
    lines: list[str] = []
    if names and not means_me(names[0]):
        target = await _find(rt, community, names[0])
        if target is None:
            # "/stats me year": "me" and a word that is no period (a period misspelt, or
            # one the command has not): the usage lists the periods, "no such player: me
            # year" misled
            if of is None and len(words) > 1 and means_me(words[0]):
                return Reply(tr(lang, "stats.usage"), alert=True)
            name = rt.typed_text(community.platform, (shown or {}).get(names[0], names[0]))
            if of is None and _period_meant(words, shown) and words[0].lower() in _OTHER_PERIODS:
                return Reply(tr(lang, "stats.no_period", period=name), alert=True)
            text = tr(lang, "reply.unknown_player", name=name)
            if of is None and await _named_before(rt, community, words, shown):
                text += "\n" + tr(lang, "stats.usage")  # ("/stats Alice year")
            elif of is None and _period_meant(words, shown):  # ("/stats year"): the periods
                text += "\n" + tr(lang, "stats.unknown_or_period")
            else:  # "No such player here: @bob." alone gave no next step
                text += "\n" + tr(lang, on(community.platform, "stats.unknown_hint"))
            return Reply(text, alert=True)
        lines, s = await _player_block(rt, target, since, lang, label, when)
        return await _with_chart(
            rt, "\n".join(lines), target, s, since, lang, label, when, community
        )
    if not names:
        # the group's members: computer players play with house kush (as in /top)
        group = await rt.store.community_stats(community.id, since, BOT_USER_PREFIX)
        if not group.hands and not group.tournament_hands:
            return Reply(tr(lang, "stats.none", when=when))
        title = community.title or tr(lang, on(community.platform, "stats.this_group"))
        lines.append(tr(lang, "stats.title", name=title, when=when))
        lines += _stats_lines(group, lang, label, group=True)
        if group.biggest_winner is not None:
            winner = await rt.store.get_player(group.biggest_winner)
            best = tr(lang, "stats.best_win", won=group.biggest_win, label=label,
                      name=winner.name if winner else "?")  # fmt: skip
            lines.append(_best(group, lang, best, group=True))
        else:  # every hand a draw (or a fouled pair)
            lines.append(_best(group, lang, "—", group=True))
        # the members' winnings and losses of every hand (a net alone is 0 among members;
        # winnings alone, 375, read as contradicting the only member's "Net: -219" below:
        # their losses, 594, were not said). Against computer players (house kush) the two
        # differ by the members' net, the tournament payouts left out (R8.7)
        lost = group.kush_won - (group.kush - group.tournament_kush)
        lines.append(tr(lang, "stats.group_moved", won=group.kush_won, lost=lost, label=label))
        if group.tournaments:
            lines.append(tr(lang, "stats.group_tournaments", n=group.tournaments))
        own = await rt.store.player_stats(me.id, since)
        if not own.players:
            return Reply("\n".join(lines))
        lines.append("")
        lines += (await _player_block(rt, me, since, lang, label, when, own))[0]
        return await _with_chart(rt, "\n".join(lines), me, own, since, lang, label, when, community)
    lines, s = await _player_block(rt, me, since, lang, label, when)
    return await _with_chart(rt, "\n".join(lines), me, s, since, lang, label, when, community)


def _period_meant(words: Sequence[str], shown: Mapping[str, str] | None) -> bool:
    """Whether the name ``words`` no player here has may be a period misspelt or one the
    command has not (``/stats year``, ``/stats неделю``): one word typed as such, not a
    mention (``@bob``, or one the adapter replaced by a user id)."""
    return len(words) == 1 and words[0] not in (shown or {}) and not words[0].startswith("@")


def _name_of(words: Sequence[str], shown: Mapping[str, str] | None) -> str:
    """The name ``words`` (cleaned, each a command's word) are: one word as it is (a
    looked-up id too), several as typed (never a looked-up id)."""
    if len(words) == 1:
        return words[0]
    return clean_arg(" ".join((shown or {}).get(w, w) for w in words))


async def _find(rt: Runtime, community: Community, name: str) -> Player | None:
    """The player of ``community`` called ``name`` (or with that user id); "Anna" finds the
    table's computer player "🤖 Anna"; ``None`` when no one is."""
    target = await rt.store.find_player(community.id, name)
    computer = computer_user_id(name)
    if target is None and computer is not None:
        target = await rt.store.find_player(community.id, computer)
    return target


async def _named_before(
    rt: Runtime, community: Community, words: Sequence[str], shown: Mapping[str, str] | None
) -> bool:
    """Whether the first words of ``words`` (all but one at least) name a player here:
    ``/stats Alice year``, the words after the name no period (nor all of them a name)."""
    for n in range(len(words) - 1, 0, -1):
        if await _find(rt, community, _name_of(words[:n], shown)) is not None:
            return True
    return False


async def _name_with_periods(
    rt: Runtime, community: Community, args: Sequence[str], shown: Mapping[str, str] | None
) -> tuple[str, list[str]] | None:
    """``/stats`` words whose period words (some or all) belong to a player's name: the
    period and the name's words of the first reading that names a player here, ``None``
    when none does (the period words are the period). The readings, in order: every word
    the name, all time ("All Star"); the last word the period ("All Star week"); the first
    word the period ("week All Star"). One word alone is a period ("/stats all")."""
    if len(args) < 2:
        return None
    readings: list[tuple[str, Sequence[str]]] = [("all", args)]
    last, first = _period(args[-1]), _period(args[0])
    if last is not None:
        readings.append((last, args[:-1]))
    if first is not None:
        readings.append((first, args[1:]))
    for period, named in readings:
        words = [clean_arg(a) for a in named]
        if not any(_period(a) for a in named) or means_me(words[0]):
            continue  # (the usual reading: judged there)
        if await _find(rt, community, _name_of(words, shown)) is not None:
            return period, words
    return None


async def _player_block(
    rt: Runtime,
    p: Player,
    since: float | None,
    lang: str,
    label: str,
    when: str,
    known: HandStats | None = None,
) -> tuple[list[str], HandStats]:
    """A player's lines of ``/stats`` and the figures they show."""
    s = known if known is not None else await rt.store.player_stats(p.id, since)
    if not s.players:
        return [tr(lang, "stats.player_none", name=p.name, when=when)], s
    lines = [tr(lang, "stats.title", name=p.name, when=when)]
    lines += _stats_lines(s, lang, label, group=False)
    best = (
        f"{signed(s.biggest_win, lang)} {kush_word(label, lang, s.biggest_win)}"
        if s.biggest_winner is not None
        else "—"
    )
    lines.append(_best(s, lang, best, group=False))
    if s.tournaments:  # apart from the hands' figures above; the net below counts it
        lines.append(
            tr(lang, "stats.tournaments", n=s.tournaments, kush=s.tournament_kush, label=label)
        )
    lines.append(tr(lang, "stats.total", kush=s.kush, label=label))
    return lines, s


async def _with_chart(
    rt: Runtime,
    text: str,
    p: Player,
    s: HandStats,
    since: float | None,
    lang: str,
    label: str,
    when: str,
    community: Community,
) -> Reply:
    """The ``/stats`` reply ``text``, with the chart of ``p``'s kush over the period when
    they played at least :data:`CHART_MIN_HANDS` hands in it: the series read in SQL
    (:meth:`Store.kush_series`, at most 200 points), drawn in the drawing process (a few
    milliseconds of CPU, never on the event loop nor holding its GIL:
    :class:`bot.drawing.Drawer`), sent after the text with a short caption. A chart that
    cannot be drawn (:meth:`~bot.drawing.Drawer.draw_or_none`: whatever the drawing raised)
    is logged and left out: the text is the answer."""
    if s.hands < CHART_MIN_HANDS:
        return Reply(text)
    series = await rt.store.kush_series(p.id, since)
    if len(series) < 2:
        return Reply(text)
    name = rt.plain_text(community.platform, p.name)  # drawn: a Discord name's escapes would show
    plain = community.settings.kush_label  # (the label as typed: stored so, drawn so)
    zone = await day_zone(rt, community)  # (never set: by the language most players read)
    chart = charts.chart_of(name, lang, plain, when, series, zone)
    png = await rt.drawer.draw_or_none(f"the kush chart of player {p.id}", charts.draw_kush, chart)
    if png is None:
        return Reply(text)
    caption = tr(lang, "chart.caption", name=p.name, when=when, kush=chart.net, label=label)
    return Reply(text, picture=png, caption=caption, picture_name="kush.png")


async def top(rt: Runtime, community: Community, lang: str, period: str) -> Reply:
    """``/top week|month|all``: players by net kush won in the period, best first, with the
    hands they played (the period counts every settlement finished in it); computer players
    (house kush) are left out."""
    which = _period(period)
    if which is None:
        return Reply(tr(lang, "top.usage"), alert=True)
    since = period_start(which, rt.clock())
    rows = await rt.store.kush_leaderboard(community.id, since, 10 + len(BOT_NAMES))
    rows = [row for row in rows if not is_computer(row[0].user_id)][:10]  # members only
    when = tr(lang, f"period.{which}")
    if not rows:
        return Reply(tr(lang, "stats.none", when=when))
    label = rt.kush_label(community)
    lines = [tr(lang, "top.period_title", when=when)]
    for n, (p, kush, hands) in enumerate(rows, start=1):
        lines.append(tr(lang, "top.period_line", n=n, name=p.name, kush=kush, label=label,
                        hands=hands))  # fmt: skip
    return Reply("\n".join(lines))


# -- replays --------------------------------------------------------------------------------
class _Refused(Exception):
    """A replay that may not be shown: ``key`` is the text of the notice."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def _language(community: Community, lang: str) -> str:
    """The hand's group's forced language, if it has one (every frame of a replay in one
    language, whichever chat it is watched from)."""
    forced = community.settings.language
    return forced if forced in ("en", "ru") else lang


async def _watch(
    rt: Runtime, actor: Actor, hand_id: int
) -> tuple[HandRecord, int, dict[int, str], Community]:
    """The hand, the asker's table seat in it, names by table seat and the community, once
    it is sure the asker played it (on the same platform). :raises _Refused: otherwise."""
    record = await rt.store.get_hand(hand_id)
    if record is None:
        raise _Refused("replay.unknown", n=hand_id)
    table = await rt.store.get_table(record.table_id)
    community = await rt.store.get_community(table.community_id) if table else None
    if community is None or community.platform != actor.platform:
        raise _Refused("replay.not_yours")
    player = await rt.store.find_player(community.id, actor.user_id)
    if player is None or player.user_id != actor.user_id:
        raise _Refused("replay.not_yours")
    seat = next((s for s, pid in record.players.items() if pid == player.id), None)
    if seat is None:
        raise _Refused("replay.not_yours")
    if "setup" not in record.hand or "actions" not in record.hand:
        raise _Refused("replay.no_cards", n=hand_id)
    names: dict[int, str] = {}
    for s, pid in record.players.items():
        p = await rt.store.get_player(pid)
        names[s] = p.name if p is not None else f"#{s + 1}"
    return record, seat, names, community


async def _frames(
    thinker: Thinker,
    record: HandRecord,
    seat: int,
    kept: OrderedDict[tuple[int, int], tuple[ReplayFrame, ...]] | None = None,
) -> tuple[ReplayFrame, ...]:
    """The frames of a hand seen by the player at ``seat``, made off the event loop like a
    decision (``thinker``, the runtime's: :meth:`bot.thinking.Thinker.compute`, in the
    decision process, or a press thread): a hand log whose timeouts did not record their
    placement has them decided again by the strategy (R8.5), which made in a thread of the
    bot held every other table's presses meanwhile. Boxes a Chinese Poker claim left
    unrevealed stay hidden but the watcher's own (R7.5); streets that showed the player the
    same are one step (:func:`~game.history.distinct_frames`). ``kept`` (the runtime's
    :attr:`Runtime.replays`, an LRU of :data:`REPLAYS_KEPT`): frames made before, by
    (history id, ``seat``), for the next ◀ ▶; one watcher's frames (their discards, R3.3)
    are never another's.

    :raises _Refused: if the stored hand does not replay (``replay.no_cards``), or its
        frames did not come within :data:`bot.thinking.PRESS_SECONDS` (``replay.busy``)."""
    key = (record.id, seat)
    if kept is not None and key in kept:
        kept.move_to_end(key)
        return kept[key]
    try:
        made = await thinker.compute(
            replay_frames, record.hand, seat, revealed_boxes(record.result)
        )
        frames = distinct_frames(made)
    except TimeoutError as exc:  # (GivenUp included: the stop gave it up)
        raise _Refused("replay.busy") from exc
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise _Refused("replay.no_cards", n=record.id) from exc
    if kept is not None:
        kept[key] = frames
        while len(kept) > REPLAYS_KEPT:
            kept.popitem(last=False)
    return frames


def _kush_line(delta: int, stack: Any, label: str, lang: str) -> str:
    """The kush a hand moved for a player, with the stack after it when the record has it
    (hands recorded before it was stored: the amount alone)."""
    if stack is None:
        return tr(lang, "replay.kush", delta=delta, label=label)
    return tr(lang, "showdown.kush", delta=delta, label=label, stack=int(stack))


def _money_line(result: Mapping[str, Any], owner: int, label: str, lang: str) -> str | None:
    """What the hand moved for the player at table seat ``owner``, as the showdown says it:
    the kush of a cash hand with the stack after it, the chips of a tournament hand (R8.7);
    a Chinese Poker hand before its game to the target ended moved neither (R7.6), and the
    line says where the game stood, settled (in kush or chips) when it ends. ``None``: the
    record holds nothing for the player."""
    key = str(owner)
    kush: Mapping[str, Any] = result.get("kush") or {}
    stacks: Mapping[str, Any] = result.get("stacks") or {}
    # a tournament's hand moves chips, not kush (R8.7): its chip line stands where kush would
    tour: Mapping[str, Any] = result.get("tournament") or {}
    won: Mapping[str, Any] = tour.get("won") or {}
    chips: Mapping[str, Any] = tour.get("chips") or {}
    game: Mapping[str, Any] = result.get("chinese") or {}
    totals: Mapping[str, Any] = game.get("totals") or {}
    if key in kush:
        return _kush_line(int(kush[key]), stacks.get(key), label, lang)
    if key in won:
        return tr(lang, "replay.chips", delta=int(won[key]), chips=int(chips.get(key, 0)))
    total, target = int(totals.get(key, 0)), int(game.get("target", 0))
    if tour:
        if not game or key not in chips:
            return None
        return tr(lang, "replay.chips_game", chips=int(chips[key]), total=total, target=target)
    if not game or game.get("over") or key not in totals:
        return None
    return tr(lang, "replay.kush_game", total=total, target=target, label=label)


def shown_number(record: HandRecord) -> int:
    """The hand number players saw for ``record`` (its showdown's title): the table's hand
    count without the settlements recorded between hands (``shown_no``,
    :attr:`~bot.model.LiveTable.shown_no`); storage's ``number`` (the row's key, never
    renumbered) for a row without it, as every row from before it was kept."""
    return int(record.result.get("shown_no", record.number))


def replay_screen(
    record: HandRecord,
    frames: Sequence[ReplayFrame],
    k: int,
    seat: int,
    names: Mapping[int, str],
    lang: str,
    label: str = DEFAULT_KUSH_LABEL,
) -> Screen:
    """Frame ``k`` (1-based) of a replay as seen by the player at ``seat``: every board after
    that street (hidden boards as such), the watcher's own discards so far (R3.3), at the
    showdown each board's points, the kush it moved (``label``: the group's kush label),
    royalties, foul, Fantasyland and ⌛ for a board finished on timeout (R8.5), as the
    showdown shows them; before it, ⌛ under a board whose street shown the clock played
    (:attr:`~game.history.BoardFrame.timed_out`); ◀ ▶ step through."""
    frame = frames[k - 1]
    head = "replay.showdown" if frame.final else "replay.street"
    if not frame.final and frame.first:  # (streets that showed the player the same)
        head = "replay.streets"
    number = shown_number(record)
    lines = [
        tr(lang, "replay.title", n=record.id, table=record.table_id, hand=number),
        tr(lang, head, first=frame.first, street=frame.street, streets=frame.streets),
    ]
    result: dict[int, Mapping[str, Any]] = {
        int(r["seat"]): r for r in record.result.get("seats", []) if "seat" in r
    }
    counted: Mapping[str, Any] = record.result.get("counted") or {}
    kush_shown: set[int] = set()
    for b in frame.boards:
        # the watcher's own board is "You" (their name and "(you)" read "You (you)" when
        # the name is You, as the sandbox's player is named without $USER)
        name = tr(lang, "replay.you") if b.owner == seat else names.get(b.owner, f"#{b.owner + 1}")
        if sum(o.owner == b.owner for o in frame.boards) > 1:  # double boxes (R4.2)
            name += " ①" if b.seat % 10 == 0 else " ②"
        if b.fantasyland:
            name += " 🌴"  # as the table marks Fantasyland
        lines.append("")
        lines.append(name + ":")
        if b.hidden:
            lines.append("  " + tr(lang, "board.hidden"))  # (the table's wording)
            continue
        if b.dealt:  # the watcher's own Fantasyland board (R6.3): set after the others'
            # streets, or while they played them when at most one board was an ordinary one
            # (it said "after" there too: every heads-up Fantasyland hand plays at once)
            at_once = sum(not o.fantasyland for o in frame.boards) <= 1
            key = "replay.fl_dealt_at_once" if at_once else "replay.fl_dealt"
            lines.append("  " + tr(lang, key, cards=" ".join(c.face for c in b.dealt)))
            continue
        for box in BOXES:
            if box in b.unrevealed:  # a claim ended the reveal before this box (R7.5)
                lines.append("  " + " ".join(["🂠"] * box.size))
                continue
            # as the table showed it during play and at the showdown: sorted as the hand
            # reads, not as placed, and named once it has made a pair or better
            lines.append("  " + render.box_line(b.board.box(box), box.size, lang))
        if b.timed_out and not frame.final:  # the clock played this street for them (R8.5;
            # the showdown marks the board, below)
            lines.append("  " + tr(lang, "board.timed_out"))
        r = result.get(b.seat)
        if frame.final and r is not None:
            points = int(counted.get(str(b.seat), r.get("points", 0)))
            notes = [tr(lang, "showdown.points", points=points)]
            if b.owner not in kush_shown:  # once a player (R4.2)
                kush_shown.add(b.owner)
                money = _money_line(record.result, b.owner, label, lang)
                if money is not None:
                    notes.append(money)
            if r.get("fouled"):
                notes.append(tr(lang, "showdown.fouled"))
            elif sum(r.get("royalties") or ()) and not b.unrevealed:
                # Chinese Poker's are its strength bonus, counted in the points (R7.2):
                # "+22 pts · royalties 15" read as 15 more, paid on top as royalties are
                key = "replay.bonus" if "chinese" in record.result else "showdown.royalties"
                notes.append(tr(lang, key, n=sum(r.get("royalties") or ())))
            forgone = record.result.get("fantasyland_forgone") or b.seat in (
                record.result.get("fantasyland_forgone_seats") or ()
            )  # (the table closed after the hand, or its player left it, R8.7)
            if r.get("fantasyland_cards") and not forgone:
                # its player was left below a point: only with a top-up (R8.2)
                waits = b.seat in (record.result.get("fantasyland_top_up_seats") or ())
                key = "showdown.fl_if_top_up" if waits else "showdown.fl_next"
                notes.append(tr(lang, key, cards=r["fantasyland_cards"]))
            if r.get("timed_out"):  # finished for the player (R8.5), as the showdown marks it
                notes.append(tr(lang, "board.timed_out"))
            lines.append("  " + " · ".join(notes))
    if frame.discards:
        lines.append("")
        lines.append(tr(lang, "replay.discards", cards=" ".join(c.face for c in frame.discards)))
    version = f"R{len(frames)}"
    row = []
    if k > 1:
        row.append(Button("◀", encode(ReplayStep(record.id, version, k - 1))))
    if k < len(frames):
        row.append(Button("▶", encode(ReplayStep(record.id, version, k + 1))))
    return Screen("\n".join(lines), (tuple(row),) if row else ())


async def replay(
    rt: Runtime, chat: ChatRef, actor: Actor, lang: str, arg: str, *, here: bool
) -> Reply:
    """``/replay N``: the first frame of hand ``#N`` for the asker, who must have played it.
    With ``here`` (the answer is seen by the asker alone: a private chat, a Discord ephemeral
    message) it is the reply's screen; in a group it goes to the asker's private chat and the
    group only hears that it went there (discards are private, R3.3)."""
    n = arg.strip().lstrip("#")
    if not (n.isascii() and n.isdigit()) or len(n) > 12:  # ("²" is a digit int refuses)
        return Reply(tr(lang, "replay.usage"), alert=True)
    try:
        record, seat, names, community = await _watch(rt, actor, int(n))
        frames = await _frames(rt.thinker, record, seat, rt.replays)
    except _Refused as r:
        return Reply(tr(lang, r.key, **r.values), alert=True)
    screen = replay_screen(
        record,
        frames,
        1,
        seat,
        names,
        _language(community, lang),
        rt.kush_label(community),
    )
    if here or chat.private:
        return Reply(screen=screen, private=True, live=False)
    presenter = rt.presenters.get(actor.platform)
    ref = await presenter.show_private(actor.user_id, screen, None) if presenter else None
    if ref is None:
        return Reply(tr(lang, "replay.no_private"), alert=True)
    return Reply(tr(lang, "replay.sent", n=record.id))


async def replay_press(rt: Runtime, actor: Actor, press: ReplayStep, lang: str) -> Reply:
    """◀ or ▶ on a replay: frame ``press.frame`` as the pressed message's new face, private
    to the presser (a platform shows it only on a private chat's or ephemeral message). A
    press by someone who did not play the hand, for a frame the hand does not have, or from
    a replay whose frames changed since, is refused with a notice and shows nothing."""
    try:
        record, seat, names, community = await _watch(rt, actor, press.table)
        frames = await _frames(rt.thinker, record, seat, rt.replays)
    except _Refused as r:
        return Reply(tr(lang, r.key, **r.values), alert=True)
    lang = _language(community, lang)
    if press.version != f"R{len(frames)}":
        return Reply(tr(lang, "err.stale_replay", n=record.id), alert=True)
    if not 1 <= press.frame <= len(frames):
        return Reply(tr(lang, "err.forged"), alert=True)
    screen = replay_screen(
        record,
        frames,
        press.frame,
        seat,
        names,
        lang,
        rt.kush_label(community),
    )
    return Reply(screen=screen, private=True, live=False)
