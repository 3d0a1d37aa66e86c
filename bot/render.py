"""Screens of a table: the lobby, the live board and the showdown for the group, and each
player's private hand. Pure functions of a :class:`~bot.model.LiveTable` (no I/O): they read
only :meth:`game.hand.Hand.view` for what a viewer may see, so a group screen can never hold
a hidden card, a Fantasyland board before showdown or a discard.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from bot import presses as P
from bot.model import LiveTable, SeatState
from bot.presses import encode
from bot.screens import Button, Screen
from bot.texts import decimal, grouped, kush_word, minus, on, tr
from game.board import BOXES, Board, Box
from game.cards import Card, format_cards
from game.evaluator import display_order, made_so_far
from game.hand import HandResult, HandView
from game.names import hand_name
from game.options import GameKind
from game.tournament import AWAY_SECONDS, TournamentPhase

__all__ = [
    "busted_notice",
    "busted_notices",
    "group_screen",
    "lobby_screen",
    "mmss",
    "move_presses",
    "ping_lines",
    "private_screen",
    "showdown_screen",
    "stacks_named",
]

_BOX_KEY = {Box.TOP: "btn.top", Box.MIDDLE: "btn.middle", Box.BOTTOM: "btn.bottom"}


def _game_name(t: LiveTable, lang: str) -> str:
    return tr(lang, f"game.{t.options.game.value}")


def mmss(seconds: float) -> str:
    """``seconds`` as the clocks show them, ``m:ss``, a started second counted whole
    (``4.2`` → ``0:05``)."""
    secs = int(seconds + 0.999)
    return f"{secs // 60}:{secs % 60:02d}"


def _clock_text(t: LiveTable, seat: int, now: float, lang: str, short: bool = False) -> str:
    """``1:52 + bank 1:00`` while the budget runs (``1:52`` alone once an earlier timeout
    spent the bank, and at a table without one), ``bank 0:45`` once the budget is spent
    (R8.5); ``💤 0:08`` while the grace of a tournament player away runs (R8.7). ``short``:
    the bank was spelled out already on the line, ``1:52+1:00`` and ``0:00+0:45`` (a spent
    bank's ``+0:00`` left out: ``1:52``; run out with no bank left, its timeout still to
    come, ``0:00``, never ``bank 0:00``)."""
    owner = t.owner(seat)
    clock = t.clocks.get(owner)  # one clock per player (R4.2)
    if clock is None:
        return "–"
    end = t.turn_deadline(owner)
    if t.grace(owner) is not None and end is not None:
        return f"💤 {mmss(max(0.0, end - now))}"
    budget, bank = clock.left(now)
    # a bank spent at an earlier timeout (it does not refill here, R8.5) is left out: "+0:00"
    # on the group's line read as nothing anyone understood, and "+ time bank 0:00" only
    # lengthened a phone's line; a bank still there shows, "+1:00"
    banked = bank > 0
    if short and banked:
        return f"{mmss(budget)}+{mmss(bank)}"
    if budget > 0:
        if banked:
            return f"{mmss(budget)} + {tr(lang, 'board.bank')} {mmss(bank)}"
        return mmss(budget)
    if not banked:  # (run out, its timeout not taken yet, with no bank left: none to name)
        return mmss(0.0)
    return f"{tr(lang, 'board.bank')} {mmss(bank)}"


def _hidden(lang: str, closed: bool, count: int) -> str:
    """A board's ``count`` face-down cards: "🂠 hidden until showdown: 13 cards" (``closed``:
    R6.3, R4.5; the wording /replay says too), else "🂠 hidden until the street ends: 5
    cards" (placed on a simultaneous street, R3.6)."""
    if closed:
        return tr(lang, "board.hidden_count", hidden=tr(lang, "board.hidden"), count=count)
    return tr(lang, "board.hidden_street", count=count)


def clock_time(at: float, zone: float, *, seconds: bool = False) -> str:
    """The wall-clock time ``at`` (seconds since the epoch) as ``HH:MM`` in the time zone
    ``zone`` hours from UTC (the group's, :func:`~bot.service.settings.day_zone`), the
    minute begun (18:41:37 → ``18:41``: never later than it is); ``seconds``: as
    ``HH:MM:SS``, the second begun (a short time like the time bank's, R8.5)."""
    shown = "%H:%M:%S" if seconds else "%H:%M"
    return datetime.fromtimestamp(at, timezone(timedelta(hours=zone))).strftime(shown)


def _until_text(
    t: LiveTable, seat: int, now: float, lang: str, zone: float | None, short: bool = False
) -> str:
    """The group message's clock of the player at board ``seat`` (R8.5): when their budget
    ends as a clock time in the group's ``zone``, with the bank after it, "until 18:41 (+1:00
    time bank)", or "time bank until 18:42" once the bank runs; the group's message is
    written about once a move, so a duration ("2:00 + time bank 1:00") stood still for the
    whole turn. ``short``: the bank was spelled out already on the line, "(+1:00)". Without
    a zone known, or a clock not running, :func:`_clock_text`'s duration; a tournament
    player away, their grace ("💤 0:08", R8.7)."""
    owner = t.owner(seat)
    clock = t.clocks.get(owner)
    if zone is None or clock is None or not clock.running or t.grace(owner) is not None:
        return _clock_text(t, seat, now, lang, short)
    budget, bank = clock.left(now)
    if budget <= 0 and bank > 0:
        return tr(lang, "board.bank_until", at=clock_time(now + bank, zone))
    until = tr(lang, "board.until", at=clock_time(now + max(0.0, budget), zone))
    if bank <= 0:  # (no bank, or one spent: left out, as above)
        return until
    key = "board.plus_bank_short" if short else "board.plus_bank"
    return f"{until} " + tr(lang, key, bank=mmss(bank))


def busted_notice(t: LiveTable, lang: str, name: str, stack: int) -> str:
    """The group's offer of a top-up to a player whose ``stack`` cannot pay a point (R8.2):
    "no kush left" for an empty one, else what is left ("16 kush left, less than a point":
    "no kush left" told a player with 16 that they had nothing)."""
    if stack <= 0:
        return tr(lang, "showdown.busted", name=name, label=t.label)
    return tr(lang, "showdown.below_point", name=name, stack=stack, label=t.label)


def busted_notices(t: LiveTable, lang: str, seats: Sequence[tuple[str, int]]) -> str:
    """The group's offer of a top-up (R8.2) to the players ``seats`` (name and stack, in
    kush, each below a point) in one line: one player's as :func:`busted_notice` says it,
    several named with their stacks ("Bob (0), Carol (40)"), one write for them all
    (Telegram allows a group about 20 a minute).

    :raises ValueError: ``seats`` is empty."""
    if not seats:
        raise ValueError("nobody to offer the top-up to")
    if len(seats) == 1:
        return busted_notice(t, lang, *seats[0])
    return tr(lang, "showdown.below_point_many", names=stacks_named(seats))


def stacks_named(seats: Sequence[tuple[str, int]]) -> str:
    """Players named with their stacks for a one-line notice: ``[("Bob", 0), ("Carol",
    40)]`` → ``"Bob (0), Carol (40)"``."""
    return ", ".join(f"{name} ({stack})" for name, stack in seats)


def box_line(cards: Sequence[Card], size: int, lang: str | None = None) -> str:
    """A box during play and in ``/replay``'s frames (:func:`bot.service.stats.replay_screen`),
    its cards in the order the showdown reads them (pairs together, high first:
    :func:`display_order`; they read in the order placed, "Q♣ 2♣ 6♣ A♣ J♣", beside the
    showdown's "A♣ Q♣ J♣ 6♣ 2♣ — flush, ace high"), a dot per free place; with ``lang``, the
    name of what it has made as the showdown names it (:func:`hand_name`): a full box's
    hand, an incomplete one's pair or better (:func:`made_so_far`), else none."""
    shown = [c.face for c in display_order(cards)] + ["·"] * (size - len(cards))
    line = " ".join(shown)
    if lang is not None and (made := made_so_far(cards, size)) is not None:
        line += f" — {hand_name(made, lang)}"
    return line


def _board_lines(board: Board, lang: str | None = None, indent: str = "  ") -> list[str]:
    """A board's three boxes, one line each (:func:`box_line`), named in ``lang`` if given."""
    return [indent + box_line(board.box(b), b.size, lang) for b in BOXES]


def _compact(board: Board) -> str:
    return " | ".join(box_line(board.box(b), b.size) for b in BOXES)


def move_presses(moves: Sequence[tuple[Card, Box | None]]) -> list[tuple[str, str]]:
    """The ``(action, arg)`` of the private-hand buttons that make ``moves`` and confirm them:
    what a computer player or a benchmark presses, one button per card (R3.4)."""
    keys = [("d", c.text) if b is None else ("p", c.text + P.BOX_CODES[b]) for c, b in moves]
    return [*keys, ("c", "")]


def _places_to_the_winner(pays: Sequence[int], players: int, lang: str) -> str:
    """The note after the prizes when ``payouts`` has places beyond the ``players`` there
    (R8.7: a percentage per place; a place nobody can take goes to the winner): "140 / 60"
    for 50 / 30 / 20 with two players read as a sum gone wrong. "" with one player (they
    take it all), or when those places are paid nothing."""
    folded = sum(pays[players:])
    if players < 2 or folded <= 0:
        return ""
    first, last = players + 1, len(pays)
    if first == last:
        return " " + tr(lang, "tour.place_to_winner", place=first, percent=folded, n=players)
    return " " + tr(
        lang, "tour.places_to_winner", first=first, last=last, percent=folded, n=players
    )


def tournament_lobby(t: LiveTable, lang: str, now: float) -> Screen:
    """A tournament's lobby (R8.7): game, buy-in, pool, starting chips, levels and the first
    steps of the schedule, prizes, who registered; Register / Unregister / Start. Once it
    runs, between hands: the level, chips per point, time to the next level, chips."""
    tour = t.tournament
    assert tour is not None
    cfg = tour.config
    pays = tour.payouts
    payouts = " / ".join(f"{p}%" for p in pays) if pays else "100%"
    if (prizes := tour.place_prizes()) and tour.pool:
        # what each place wins with the players there now, in kush (R8.7: places beyond
        # them go to the winner: "50% / 30% / 20%" with two players read a place too many)
        amounts = " / ".join(grouped(k, lang) for k in prizes)
        payouts = f"{amounts} {kush_word(t.label, lang, prizes[-1])}"
        payouts += _places_to_the_winner(pays, len(tour.players), lang)
    lines = [
        tr(lang, "tour.title", table=t.id, game=_game_name(t, lang), buy_in=cfg.buy_in,
           label=t.label, pool=tour.pool, chips=cfg.starting_chips,
           minutes=decimal(cfg.level_minutes, lang),
           schedule=", ".join(grouped(cfg.chips_per_point(n), lang) for n in range(1, 5)),
           payouts=payouts)
    ]  # fmt: skip
    v = f"L{t.version}"
    if tour.phase is TournamentPhase.REGISTERING:
        names = ", ".join(s.name for s in sorted(t.seats.values(), key=lambda s: s.seat))
        if names:
            lines.append(tr(lang, "tour.registrants", n=len(t.seats), max=cfg.max_seats,
                            names=names))  # fmt: skip
        else:
            lines.append(tr(lang, "tour.nobody"))
        lines.append(tr(lang, "tour.hint"))
        buttons: tuple[Button, ...] = (
            Button(tr(lang, "btn.register"), encode(P.Register(t.id, v))),
            Button(tr(lang, "btn.unregister"), encode(P.Unregister(t.id, v))),
            Button(tr(lang, "btn.start"), encode(P.StartTournament(t.id, v))),
        )
        return Screen("\n".join(lines), (buttons,))
    lines.append(tournament_status(t, lang, now))
    lines.extend(game_score(t, lang))
    if t.next_hand_at is not None:
        lines.append(_next_hand(t.next_hand_at, lang, now))
    return Screen("\n".join(lines), ((Button(tr(lang, "btn.leave"), encode(P.Leave(t.id, v))),),))


def game_score(t: LiveTable, lang: str) -> list[str]:
    """The running Chinese Poker game's points, one short line (R7.1), leader first:
    "🎯 Game to 51: Alice 22 · Bob 9", for the table message between hands and during the
    arrangement (the reveal shows every total with its boxes) and the private hand; nothing
    before the game's first points and once it is over (the next hand starts a new game).
    Only players still seated: one who left a tournament between two hands (R8.7: knocked
    out, the game going on for the others) read "#2 2" under their seat number."""
    game = t.chinese
    if game is None or game.over:
        return []
    order = sorted(
        ((s, p) for s, p in game.totals.items() if s in t.seats), key=lambda sp: (-sp[1], sp[0])
    )
    if not order:
        return []
    scores = " · ".join(f"{t.board_label(s)} {minus(str(p))}" for s, p in order)
    return [tr(lang, "chinese.score", target=game.target, scores=scores)]


def settle_note(t: LiveTable, lang: str) -> list[str]:
    """While a cash table's Chinese Poker game runs (from its first deal until it is over),
    one line saying the stacks move only when the game ends (R7.6: kush is settled each-with-
    each on the game's points; the hands before leave every stack as it was, which read as
    kush not paid): "💰 Stacks change only when the game to 51 ends: it is settled then.".
    Nothing at other tables, before the game's first deal or once it is over; a tournament's
    game settles chips, said by its own status (R8.7)."""
    game = t.chinese
    if game is None or game.over or t.tournament is not None:
        return []
    return [tr(lang, "chinese.settle_note", target=game.target)]


def _next_hand(at: float, lang: str, now: float) -> str:
    """When the next hand is dealt: in whole seconds, rounded up; under a second away (the
    sandbox's ``--fast``, whose hands follow each other at once) "now", not "in 1 second"."""
    left = at - now
    if left < 1:
        return tr(lang, "lobby.next_hand_now")
    return tr(lang, "lobby.next_hand", seconds=int(left + 0.999))


def tournament_status(t: LiveTable, lang: str, now: float, zone: float | None = None) -> str:
    """Level, chips per point, time to the next level and every player's chips (R8.7).
    During a hand, the level it is played at: a level reached meanwhile applies from the
    next hand, and the status says so. With the group's time ``zone`` known (hours from UTC,
    ``utc_offset`` set), the next level's start as a clock time there, "next level at 18:45",
    as the turn's end (:func:`_until_text`): the group's message is written about once a
    move, so "next level in 4:59" stood still until the next one."""
    tour = t.tournament
    assert tour is not None
    level = tour.level_at(now)
    nxt = tour.next_level_at(now)
    if t.hand is not None and tour.level < level:  # the hand finishes at its level
        status = tr(lang, "tour.status_pending", level=tour.level, cpp=tour.chips_per_point,
                    next_level=level)  # fmt: skip
    elif zone is not None and nxt is not None:
        status = tr(lang, "tour.status_at", level=level, cpp=tour.config.chips_per_point(level),
                    at=clock_time(nxt, zone))  # fmt: skip
    else:
        status = tr(lang, "tour.status", level=level, cpp=tour.config.chips_per_point(level),
                    next=mmss(max(0.0, nxt - now)) if nxt is not None else "–")  # fmt: skip
    chips = ", ".join(
        f"{t.seats[s].name} {grouped(c, lang)}"
        for s, c in sorted(tour.chips.items())
        if s in t.seats
    )
    return status + "\n" + tr(lang, "tour.chips", chips=chips or "–")


def lobby_screen(t: LiveTable, lang: str, link: str | None, now: float) -> Screen:
    """The group's table message between hands: seats, readiness, buy-in, and the lobby buttons."""
    if t.tournament is not None:
        return tournament_lobby(t, lang, now)
    lines = [
        tr(
            lang,
            "lobby.title",
            game=_game_name(t, lang),
            table=t.id,
            buy_in=t.min_buy_in,
            point=t.options.kush_per_point,
            label=t.label,
            players=f"{t.options.min_players}–{t.options.max_players}",
        )
    ]
    lines.extend(game_score(t, lang))
    lines.extend(settle_note(t, lang))
    if not t.seats:
        lines.append(tr(lang, "lobby.empty"))
    for n, s in enumerate(sorted(t.seats.values(), key=lambda s: s.seat), start=1):
        if s.sitting_out:
            status = tr(lang, "lobby.sitting_out", stack=s.stack)
        elif t.busted(s):  # ready, but the stack cannot pay a point: not dealt in (R8.2)
            status = tr(lang, "lobby.needs_top_up", stack=s.stack, label=t.label)
        elif s.ready:
            status = tr(lang, "lobby.ready", stack=s.stack)
            if s.topped_up:  # (the stack's top-up since the last hand, R8.2)
                status += " " + tr(lang, "board.topped_up", amount=s.topped_up)
        else:
            status = tr(lang, "lobby.not_ready")
        lines.append(tr(lang, "lobby.seat", n=n, name=s.name, status=status))
    lines.extend(_ready_windows(t, lang, now))
    people = [s for s in t.seats.values() if not s.bot]
    if t.seats and not people:
        # computer players never deal a hand among themselves (issue 13): they wait for a person
        lines.append(tr(lang, "lobby.bots_wait"))
    elif (
        len(people) < len(t.seats)
        and all(s.sitting_out for s in people)
        and t.top_up_deadline is None  # (a busted player's top-up window is counted down)
    ):
        # every person seated sits out: "the hand starts when everyone seated has pressed
        # Ready" was wrong (the computer players are ready), and so was "Next hand in 4
        # seconds…" after the showdown; the table waits for one to come back
        lines.append(tr(lang, "lobby.bots_wait_back"))
    elif t.next_hand_at is not None:
        lines.append(_next_hand(t.next_hand_at, lang, now))
    elif t.ready_deadline is not None:
        seconds = max(0, int(t.ready_deadline - now + 0.999))
        if any(s.ready and not s.sitting_out for s in people):
            lines.append(tr(lang, "lobby.ready_timer", seconds=seconds))
        else:  # only computer players are ready: no hand starts at the timer's end (they
            # never play each other), the unready are stood up; "The hand starts in 60
            # seconds" was not so (R8.2)
            waited = {s.seat for s in t.seats.values() if t.ready_window_end(s) is not None}
            lines.extend(
                tr(lang, "lobby.ready_window", name=s.name, seconds=seconds)
                for s in sorted(people, key=lambda s: s.seat)
                if not s.ready and s.seat not in waited  # (sitting out too: stood up as well)
            )
    elif t.top_up_deadline is not None:  # busted players hold up the deal (R8.2)
        seconds = max(0, int(t.top_up_deadline - now + 0.999))
        lines.append(tr(lang, "lobby.top_up_timer", seconds=seconds))
    else:
        lines.append(tr(lang, "lobby.hint"))
    return Screen("\n".join(lines), (_lobby_buttons(t, lang),))


def _ready_windows(t: LiveTable, lang: str, now: float) -> list[str]:
    """For each player who sat down while hands were being played and has not pressed Ready:
    the time left before they are stood up (R8.2, :meth:`LiveTable.ready_window_end`),
    counted down as the lobby's ready timer."""
    return [
        tr(lang, "lobby.ready_window", name=s.name, seconds=max(0, int(end - now + 0.999)))
        for s in sorted(t.seats.values(), key=lambda s: s.seat)
        if (end := t.ready_window_end(s)) is not None
    ]


def _next_hand_seats(t: LiveTable, lang: str) -> list[str]:
    """The players seated during the hand under way and bought in, dealt in from the next
    hand (R8.2): a computer player ``/addbot`` seated, a person who pressed Ready. The table
    message named none of them until that hand (a person not yet bought in is named by
    :func:`_ready_windows`): "🤖 Boris — from the next hand"."""
    return [
        tr(lang, "board.next_hand_seat", name=s.name)
        for s in sorted(t.seats.values(), key=lambda s: s.seat)
        if s.ready and not s.sitting_out and not s.leaving and not t.boards_of(s)
    ]


def _lobby_buttons(t: LiveTable, lang: str) -> tuple[Button, ...]:
    """The lobby's buttons between hands: Join while a seat is free (as during a hand,
    :func:`_hand_buttons`: a full table's Join only said "the table is full"), Ready,
    Leave and Top up."""
    v = f"L{t.version}"
    row: list[Button] = []
    if len(t.seats) < t.options.max_players:
        row.append(Button(tr(lang, "btn.join"), encode(P.Join(t.id, v))))
    row.append(Button(tr(lang, "btn.ready"), encode(P.Ready(t.id, v))))
    row.append(Button(tr(lang, "btn.leave"), encode(P.Leave(t.id, v))))
    row.append(Button(tr(lang, "btn.topup"), encode(P.TopUp(t.id, v))))
    return tuple(row)


def _hand_buttons(t: LiveTable, lang: str) -> tuple[Button, ...]:
    """The table message's lobby buttons during a hand, only those that do something for
    someone (Join and Ready pressed by the seated only said "You are already at the table" /
    "already ready", clutter on a phone): Join while a seat is free (seated now, a player
    presses Ready before the next deal, R8.2); Ready while a seated player can use it: one
    seated during the hand and not bought in (R8.2), or one sitting out, who comes back with
    it (R8.6). Leave and Top up (queued for the next hand) stay. Built from the state every
    group write shows: a join, a Ready, a stand-up are group writes already."""
    v = f"L{t.version}"
    row: list[Button] = []
    if len(t.seats) < t.options.max_players:
        row.append(Button(tr(lang, "btn.join"), encode(P.Join(t.id, v))))
    if any(
        s.bot is None and not s.leaving and (not s.ready or s.sitting_out) for s in t.seats.values()
    ):
        row.append(Button(tr(lang, "btn.ready"), encode(P.Ready(t.id, v))))
    row.append(Button(tr(lang, "btn.leave"), encode(P.Leave(t.id, v))))
    row.append(Button(tr(lang, "btn.topup"), encode(P.TopUp(t.id, v))))
    return tuple(row)


def _names(t: LiveTable, seats: Sequence[int]) -> str:
    return ", ".join(t.board_label(s) for s in seats)


def _waiting_for(
    t: LiveTable, seats: Sequence[int], now: float, lang: str, zone: float | None = None
) -> str:
    """Whose turn a waiting player's private screen names, each with their time left as the
    "your move" line writes it (R8.5): "🤖 Anna · ⏱ 1:52 + time bank 1:00"; with the group's
    time ``zone`` known (hours from UTC), when it ends there, as the group's message says it
    (:func:`_until_text`): "🤖 Anna · ⏱ until 18:41 (+1:00 time bank)", since the private
    message is not rewritten while the clock runs and a duration stood still for the whole
    turn. Several at once (Chinese Poker, R4.5; Fantasyland arrangements, R6) each with their
    own clock, the bank spelled out once, as the group's "▶ To act" line: "Anna ⏱ 1:52 + time
    bank 1:00 · Bob ⏱ 2:00+1:00". It said "Waiting for 🤖 Anna…" with no time at all."""
    if len(seats) == 1:
        return f"{_names(t, seats)} · ⏱ {_until_text(t, seats[0], now, lang, zone)}"
    clocks, spelled = [], False
    for s in seats:
        clock = _until_text(t, s, now, lang, zone, short=spelled)
        spelled = spelled or tr(lang, "board.bank") in clock
        clocks.append(f"{t.board_label(s)} ⏱ {clock}")
    return " · ".join(clocks)


def unreachable_names(t: LiveTable) -> list[str]:
    """The players the table message during a hand names as not reachable in private (with
    the link to the private chat): seated with boards in the hand, the last private write
    to them refused."""
    return [s.name for s in t.seats.values() if not s.reachable and t.boards_of(s)]


def group_screen(
    t: LiveTable, lang: str, link: str | None, now: float, zone: float | None = None
) -> Screen:
    """The group's table message during a hand: every seat's public boxes, whose turn it is
    and when it ends (a clock time in the group's time ``zone``, hours from UTC:
    :func:`_until_text`), and that the table closes after the hand when it does. Built from
    ``hand.view(None)`` only."""
    hand = t.hand
    if hand is None:
        return lobby_screen(t, lang, link, now)
    if t.reveal is not None and hand.result is not None:
        return reveal_screen(t, lang, now=now, zone=zone)
    view = hand.view(None)
    lines = [tr(lang, "board.title", game=_game_name(t, lang), table=t.id, hand=t.shown_no)]
    if t.tournament is not None:
        lines.append(tournament_status(t, lang, now, zone))
    lines.extend(game_score(t, lang))
    lines.extend(settle_note(t, lang))
    if t.options.game is not GameKind.CHINESE:  # everyone arranges at once (R4.5): a button
        # there means nothing
        lines.append(tr(lang, "board.button", name=_names(t, [view.button])))
    if len(view.to_act) == 1:
        acting = view.to_act[0]
        time = _until_text(t, acting, now, lang, zone)
        lines.append(tr(lang, "board.turn", names=_names(t, [acting]), time=time))
    elif view.to_act:  # each name with its own clock (R8.5), not two lists to pair up;
        # the time bank spelled out once, then "+0:30" (three players ran to 90 characters)
        clocks, spelled = [], False
        for s in view.to_act:
            clock = _until_text(t, s, now, lang, zone, short=spelled)
            spelled = spelled or tr(lang, "board.bank") in clock
            clocks.append(f"{t.board_label(s)} {clock}")
        lines.append(tr(lang, "board.turns", turns=" · ".join(clocks)))
    topped: set[int] = set()
    stacked: set[int] = set()  # players whose stack is said (double boxes: one stack, R4.2)
    for sv in view.seats:
        seat = t.player_of(sv.seat)
        held = seat.stack if seat else 0
        if t.tournament is not None:  # chips, not kush (R8.7)
            held = t.tournament.chips.get(t.owner(sv.seat), 0)
        head = f"{t.board_label(sv.seat)} · {grouped(held, lang)}"  # (as every amount)
        if seat is not None and seat.seat in stacked:
            # a player's second board (R4.2): "Player ① · 200" and "Player ② · 200" read
            # as 400; the one stack is said once, at the first board
            head = t.board_label(sv.seat)
        elif seat is not None:
            stacked.add(seat.seat)
        if seat is not None and seat.topped_up and t.tournament is None and seat.seat not in topped:
            topped.add(seat.seat)  # (once a player: double boxes, R4.2)
            head += " " + tr(lang, "board.topped_up", amount=seat.topped_up)
        if sv.fantasyland:
            head += f" · {tr(lang, 'board.fantasyland')}"
        elif not sv.done and sv.streets > 1:  # Chinese Poker has no streets to count
            head += f" · {tr(lang, 'board.street', street=sv.street, streets=sv.streets)}"
        if sv.acting:
            head = "▶ " + head
        if sv.timed_out:
            head += f" · {tr(lang, 'board.timed_out')}"
        if t.grace(t.owner(sv.seat)) is not None:  # away: turns wait a grace only (R8.7)
            head += f" · {tr(lang, 'board.away')}"
        lines.append("")
        lines.append(head)
        if sv.board.count or not sv.hidden:
            # its open cards only (``view(None)``), named as the showdown names them
            lines.extend(_board_lines(sv.board, lang))
        if sv.hidden:
            # until showdown (R6.3, R4.5), or placed on a simultaneous street and shown
            # when the street is complete (R3.6): "until showdown" there was not so
            lines.append("  " + _hidden(lang, sv.closed, sv.hidden))
        if sv.face_up:
            lines.append("  " + tr(lang, "board.placing", cards=format_cards(sv.face_up)))
    waiting = _ready_windows(t, lang, now) + _next_hand_seats(t, lang)
    if waiting:
        lines.append("")
        lines.extend(waiting)
    if t.closing:  # closed during the hand (R8.2a): it closes (a tournament: refunds) after it
        lines.append("")
        lines.append(closes_after_hand(t, lang))
    unreachable = unreachable_names(t)
    if unreachable:
        lines.append("")
        key = "board.unreachable" if link else "board.unreachable_button"
        lines.append(tr(lang, key, names=", ".join(unreachable)))
    buttons: list[tuple[Button, ...]] = [_hand_buttons(t, lang)]
    if t.tournament is not None or t.closing:  # (closing: Join, Ready and Top up would only
        # be refused, R8.2a; nobody sits down or buys in for a hand never dealt)
        buttons = [(Button(tr(lang, "btn.leave"), encode(P.Leave(t.id, f"L{t.version}"))),)]
    if link:
        buttons.append((Button(tr(lang, "btn.my_cards"), url=link),))
    else:
        buttons.append((Button(tr(lang, "btn.my_cards"), encode(P.MyHand(t.id, f"L{t.version}"))),))
    return Screen("\n".join(lines), tuple(buttons))


def private_screen(t: LiveTable, seat: SeatState, now: float, zone: float | None = None) -> Screen:
    """A player's private message: their own board (with this street's placements), their
    cards with one row of box buttons per card, Undo / Arrange / Confirm, and a compact view
    of the opponents' public boxes. Built from ``hand.view(seat)``; tagged with the table
    (:attr:`Screen.table`). ``zone``: the group's time zone, hours from UTC, when known
    (:func:`~bot.service.settings.day_zone`): the turn's clock, theirs ("Your move") or whose
    they wait for, says when it ends there, as the group's message does (:func:`_until_text`:
    the private message is not rewritten while the clock runs); without it, the time left."""
    screen = _private_screen(t, seat, now, zone)
    nudge = _bank_nudge(t, seat, now, screen, zone)
    return dataclasses.replace(screen, table=t.id, bank_nudge=nudge)


def _bank_nudge(
    t: LiveTable, seat: SeatState, now: float, screen: Screen, zone: float | None = None
) -> tuple[float, str] | None:
    """:attr:`Screen.bank_nudge` of ``seat``'s private ``screen``: while they are to act and
    their clock runs with budget and bank left (R8.5; not a tournament player away, whose
    grace is shorter, R8.7), the seconds until the budget is spent and the nudge's text, the
    screen's title and "⏳ Your time bank has started · ⏱ until 18:42:30 (0:30), …": when
    the bank runs out as a clock time in the group's ``zone`` (hours from UTC, seconds
    shown), the bank's length after it; the nudge stays in the chat, and a bare "0:30 left"
    was true only when it came. Without a zone known, "⏱ 0:30 left …" (the bank then
    whole). The turn went on silently from the 10 s reminder to "⌛ Time is up"."""
    hand = t.hand
    if hand is None or not screen.buttons:
        return None
    board_seat = next((s for s in t.boards_of(seat) if s in hand.to_act), None)
    if board_seat is None:
        return None
    owner = t.owner(board_seat)
    clock = t.clocks.get(owner)
    if clock is None or not clock.running or t.grace(owner) is not None:
        return None
    budget, bank = clock.left(now)
    if budget <= 0 or bank <= 0:
        return None
    title = screen.text.split("\n", 1)[0]
    if zone is None:
        return budget, f"{title}\n" + tr(seat.lang, "private.bank_started", time=mmss(bank))
    at = clock_time(now + budget + bank, zone, seconds=True)
    said = tr(seat.lang, "private.bank_started_until", at=at, time=mmss(bank))
    return budget, f"{title}\n{said}"


def _private_screen(t: LiveTable, seat: SeatState, now: float, zone: float | None) -> Screen:
    lang = seat.lang
    hand = t.hand
    boards = t.boards_of(seat)
    if hand is None or not boards:
        return Screen(tr(lang, "private.none"))
    # with double boxes (R4.2) the screen shows the board that is to act, else the first
    board_seat = next((s for s in boards if s in hand.to_act), boards[0])
    view: HandView = hand.view(board_seat)
    me = view.me
    assert me is not None
    if view.result is not None:
        over = tr(lang, on(t.platform, "private.over"), table=t.id, hand=t.shown_no)
        # Chinese Poker: a player's time running out ends the game (R7.7); the screen said
        # only "hand 1 is over", beside a dead hand, and never why: the player whose time ran
        # out is told it was theirs, the others whose it was (as the group's reveal names them)
        late = timed_out_seats(t, view.result) if t.options.game is GameKind.CHINESE else []
        mine = [s for s in late if s in boards]
        if seat.leaving:  # (their moves were made as on a timeout, R8.5, but no time ran
            pass  # out and they stand up now: no sit-out, R8.6, to come /back from)
        elif mine:
            over += "\n" + tr(lang, "private.timed_out_chinese_over")
            if seat.sitting_out:  # (R8.6; the line above says the time ran out already)
                over += " " + tr(lang, "private.sitting_out_self")
        elif late:
            names = ", ".join(t.board_label(s) for s in late)
            over += "\n" + tr(lang, "reveal.game_over_timeout", names=names)
        elif seat.sitting_out:
            key = "private.sitting_out" if seat.timed_out else "private.sitting_out_self"
            over += "\n" + tr(lang, key)
        elif t.match is not None and t.sit_out_pending(seat):
            # timed out in a hand that earned Fantasyland: it is played first (R8.6), if
            # anyone is left to play it (R6.6: heads-up, the other leaving, none is: they
            # sit out at the next deal, "played first, with you" was untrue)
            played = any(t.fantasyland_played(b) for b in t.match.fantasyland)
            key = "private.sitting_out_after_match" if played else "private.sitting_out"
            over += "\n" + tr(lang, key)
        return Screen(over)
    sv = view.seat(board_seat)
    if sv.fantasyland or sv.streets > 1:
        street = (
            tr(lang, "board.fantasyland")
            if sv.fantasyland
            else tr(lang, "board.street", street=min(sv.street, sv.streets), streets=sv.streets)
        )
        title = tr(lang, "private.title", table=t.id, hand=t.shown_no, street=street)
    else:  # one deal of 13 (Chinese Poker, R4.5): no "street 1/1"; the table's own header,
        # "🃏 Chinese Poker · table #1 · hand 1", as the group's message and the pictures
        # name the game (it read "🃏 Table #1 · hand 1 · Chinese Poker": the game's name
        # where the other games' private titles have the street)
        title = tr(lang, "board.title", game=_game_name(t, lang), table=t.id, hand=t.shown_no)
    lines = [title]
    lines.extend(game_score(t, lang))
    if len(boards) > 1:
        lines.append(t.board_label(board_seat))
    if t.grace(seat.seat) is not None:  # away (R8.7): how to come back
        lines.append(tr(lang, "private.away", seconds=f"{AWAY_SECONDS:g}"))
    acting = bool(me.cards)
    if acting:
        # the street's discards in all, not those still to make: the reminder stays on every
        # street that discards (R3.2), after a ✖ Discard or 🪄 Arrange as well (it vanished
        # there, and a street that had it before did not)
        n = me.street_discards
        key = "private.discard_hint" if n == 1 else "private.discard_hint_many"  # (R6.2: 2-4)
        discard = tr(lang, key, n=n) if n else ""
        # one card to place (classic OFC's streets 2-9, R4.1): "put the card in a box", not
        # "put each card in a box" / «Разложите карты по боксам» for a single card
        one = len(me.cards) == 1 and not n
        lines.append(
            tr(
                lang,
                "private.your_turn_one" if one else "private.your_turn",
                time=_until_text(t, board_seat, now, lang, zone),
                discard=discard,
            )
        )
    elif seat.leaving:  # (their streets are made for them, R8.5: nothing to wait for)
        lines.append(tr(lang, "private.leaving"))
    elif sv.fantasyland and not sv.done:
        lines.append(tr(lang, "private.fl_wait"))
    elif me.waiting and view.to_act:  # classic OFC's street 1, held face down (R4.1): to
        # look at while the others place theirs; buttons only on the player's turn
        cards = format_cards(me.waiting)
        turn = _waiting_for(t, view.to_act, now, lang, zone)
        lines.append(tr(lang, "private.waiting_cards", names=turn, cards=cards))
    elif view.to_act:
        names = _waiting_for(t, view.to_act, now, lang, zone)
        lines.append(tr(lang, "private.waiting", names=names))
    timed_out = any(view.seat(b).timed_out for b in boards)
    if not seat.leaving and t.tournament is None and timed_out and not seat.back_early:
        # the clock made a move of theirs (R8.5): said at once, on this screen, not only at
        # the showdown's (R8.6: they sit out from the next hand; a tournament player is away,
        # "private.away" above); in Chinese Poker the game ends after it instead (R7.7)
        chinese = t.options.game is GameKind.CHINESE
        lines.append(tr(lang, "private.timed_out_chinese" if chinese else "private.timed_out_now"))
    # sorted and named as the showdown shows them; this street's cards placed, not yet
    # confirmed, are in their boxes too (their buttons' "•" says where)
    lines.extend(_board_lines(me.board, lang))
    # the cards placed, this street's included, already foul the board (R2.3): said before
    # Confirm, on this private screen only (the group's never marks it before the showdown)
    if me.board.foul_certain:
        lines.append("  " + tr(lang, "private.fouled"))
    for b in boards:
        if b != board_seat:  # the player's other board, with its hidden cards (their own)
            other = hand.board_of(b)
            mark = " " + tr(lang, "private.fouled") if other.foul_certain else ""
            if held := hand.waiting_cards(b):  # its street 1, not yet its turn (R4.1)
                mark += " " + tr(lang, "private.other_waiting", cards=format_cards(held))
            lines.append(f"{t.board_label(b)}: {_compact(other)}{mark}")
    for o in view.seats:
        if o.seat in boards:
            continue
        # their face-down cards said as the group's message says them (R6.3, R3.6): a
        # Fantasyland board set at once read "· · · | · · · · · | · · · · · 🂠 13 hidden",
        # an empty board and 13 more, beside the group's "hidden until showdown: 13 cards"
        parts = [_compact(o.board)] if o.board.count or not o.hidden else []
        if o.hidden:
            parts.append(_hidden(lang, o.closed, o.hidden))
        lines.append(f"{t.board_label(o.seat)}: {' '.join(parts)}")
    buttons: list[tuple[Button, ...]] = []
    if acting:
        version = f"{t.hand_no}.{board_seat}.{me.version}"
        placed = dict(me.pending)
        # One row per card: a box's button only while the box has room for it (R3.5: its
        # size, 3 / 5 / 5, counting this street's cards placed), or the card is in it (the
        # "•" says where); a full box's button was offered and only answered "box full".
        # A press on one removed meanwhile (an older message) is still refused so.
        # a whole hand at once (Chinese Poker, Fantasyland: 13–17 cards) is listed by rank, so
        # pairs and runs sit together; a street keeps the order it was dealt in
        for card in button_order(me.cards, me.cards):
            where = placed.get(card, False)
            row: list[Button] = []
            for box in BOXES:
                if where is not box and me.board.free(box) <= 0:
                    continue
                label = ("• " if where is box else "") + tr(lang, _BOX_KEY[box])
                data = encode(P.PlaceCard(t.id, version, card, box))
                row.append(Button(label, data))
            if me.street_discards:
                label = ("• " if where is None else "") + tr(lang, "btn.discard")
                row.append(Button(label, encode(P.DiscardCard(t.id, version, card))))
            if not row:  # (not expected: a card not yet placed always has a box or a discard)
                continue
            first = row[0]
            row[0] = Button(f"{card.face} {first.label}", first.data)
            buttons.append(tuple(row))
        tail = [
            Button(tr(lang, "btn.undo"), encode(P.Undo(t.id, version))),
            Button(tr(lang, "btn.arrange"), encode(P.Arrange(t.id, version))),
            # on streets 2–5 Confirm also discards the card left over (R3.2)
            Button(tr(lang, "btn.confirm"), encode(P.ConfirmMove(t.id, version))),
        ]
        if tail:
            buttons.append(tuple(tail))
    return Screen("\n".join(lines), tuple(buttons))


def showdown_screen(
    t: LiveTable,
    lang: str,
    result: Mapping[str, Any],
    deltas: Mapping[int, int],
    busted: Sequence[tuple[str, int]],
) -> Screen:
    """The group's record of a finished hand: every board (discards never), hand names,
    fouls, royalties, points and the kush moved."""
    hand = t.hand
    assert hand is not None and hand.result is not None
    res = hand.result
    lines = [tr(lang, "showdown.title", table=t.id, hand=t.shown_no)]
    for r in res.seats:
        seat = t.player_of(r.seat)
        head = f"{t.board_label(r.seat)}: {tr(lang, 'showdown.points', points=r.points)}"
        if not t.owners and r.seat in deltas and seat is not None:
            head += " · " + tr(
                lang, "showdown.kush", delta=deltas[r.seat], label=t.label, stack=seat.stack
            )
        lines.append("")
        lines.append(head)
        for box, strength in zip(BOXES, r.strengths, strict=True):
            # ordered as the hand reads (K♥ K♣ 2♦ 2♣ 8♥), not as placed
            cards = format_cards(display_order(r.board.box(box)))
            lines.append(f"  {cards} — {hand_name(strength, lang)}")
        notes = []
        if r.fouled:
            notes.append(tr(lang, "showdown.fouled"))
        elif r.royalty_total:
            notes.append(tr(lang, "showdown.royalties", n=r.royalty_total))
        if r.fantasyland_cards and t.fantasyland_played(r.seat):  # not at a closing table
            # a player the hand left below a point keeps it only by topping up (R8.2)
            key = "showdown.fl_if_top_up" if t.fantasyland_if_top_up(r.seat) else "showdown.fl_next"
            notes.append(tr(lang, key, cards=r.fantasyland_cards))
        if r.timed_out:
            notes.append(tr(lang, "board.timed_out"))
        if notes:
            lines.append("  " + " · ".join(notes))
    if res.dummy is not None:
        lines.append("")
        dummy = " | ".join(format_cards(display_order(res.dummy.box(b))) for b in BOXES)
        lines.append(tr(lang, "showdown.dummy", board=dummy))  # (as the boards above read)
    if t.owners and deltas:  # double boxes: kush per player
        lines.append("")
        for owner, delta in sorted(deltas.items()):
            player = t.seats.get(owner)
            if player is not None:
                lines.append(
                    f"{player.name}: "
                    + tr(lang, "showdown.kush", delta=delta, label=t.label, stack=player.stack)
                )
    if not deltas and t.options.settle_per_round and not t.round_settled_after_hand():
        lines.append("")
        lines.append(tr(lang, "showdown.settle_later"))
    for name, stack in busted:
        lines.append(busted_notice(t, lang, name, stack))
    return Screen("\n".join(lines))


_REVEAL_ORDER = (Box.BOTTOM, Box.MIDDLE, Box.TOP)


def game_target(t: LiveTable) -> int:
    """The points that end the Chinese Poker game (R7.1): the running game's own target
    (:attr:`ChineseGame.target`, which may differ from ``target_points``: a table saved
    before a mid-game change of it applied to the game), the option's only with no game."""
    return t.chinese.target if t.chinese is not None else t.options.target_points


def reveal_target(t: LiveTable) -> int:
    """The points the hand being revealed is played to (R7.1, R7.5): the game's target as
    its reveal began (``reveal["target"]``), in every frame of it and its picture, though a
    ``target_points`` an admin changed during the hand applies to the game as the hand
    closes (:func:`bot.service.chinese.close_chinese_hand`): its last frame read "(target
    20)" under frames of "(target 200)". Without a reveal (or one saved without it),
    :func:`game_target`."""
    target = t.reveal.get("target") if t.reveal is not None else None
    return int(target) if target is not None else game_target(t)


def timed_out_seats(t: LiveTable, result: HandResult) -> list[int]:
    """The hand seats of ``result`` whose player's time ran out (R8.5), which ends a Chinese
    Poker game (R7.7): not a computer player's (its cards were set by the timeout rule
    because its decision failed, :func:`bot.service.chinese.close_chinese_hand`), nor a
    leaver's (their moves were made as on a timeout, but they left, R7.6)."""
    return [
        r.seat
        for r in result.seats
        if r.timed_out and not ((p := t.player_of(r.seat)) is not None and (p.bot or p.leaving))
    ]


def button_order(dealt: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """``cards`` (some of the ``dealt`` ones) in the order the hand's buttons list them: a
    street's cards as dealt; a whole hand at once (Chinese Poker, Fantasyland: 13–17 cards)
    by rank, so pairs and runs sit together (``/hand``'s list of the cards to place follows
    it: it listed them as dealt, another order than the buttons')."""
    return list(cards) if len(dealt) <= 5 else sorted(cards, key=_by_rank)


def _by_rank(card: Card) -> tuple[int, int]:
    """Sort key: the highest rank first, then by suit (♠ ♥ ♦ ♣ as the deck orders them)."""
    return (-card.rank, card.index)


def reveal_screen(
    t: LiveTable,
    lang: str,
    deltas: Mapping[int, int] | None = None,
    busted: Sequence[tuple[str, int]] = (),
    now: float | None = None,
    zone: float | None = None,
) -> Screen:
    """Chinese Poker after the arrangement: the boxes revealed so far, bottom first (R4.5), each
    with its hand name and points, every player's game total against the target (R7.1), the
    Claim / Continue buttons when a player at the target may claim (R7.5), with the time left
    to choose at ``now`` (seconds since the epoch; "⏱ 0:30", or "⏱ until 18:41" in the group's
    time ``zone``, hours from UTC, as a turn's clock, :func:`_until_text`), and at the end of a
    game the kush settled (R7.6)."""
    hand, reveal, game = t.hand, t.reveal or {}, t.chinese
    assert hand is not None and hand.result is not None
    shown = int(reveal.get("stage", 3))
    stages = t.reveal_stages()
    boxes = _REVEAL_ORDER[:shown]
    title = tr(lang, "reveal.title", table=t.id, hand=t.shown_no)
    lines = [title]
    target = reveal_target(t)  # (one target in every frame: a new one is said at the end)
    for i, r in enumerate(hand.result.seats):
        seat = t.player_of(r.seat)
        total = game.totals.get(r.seat, 0) if game else 0
        head = tr(lang, "reveal.player", name=t.board_label(r.seat), total=total,
                  target=target)  # fmt: skip
        if r.fouled and shown:
            head += " · " + tr(lang, "showdown.fouled")
        if deltas and seat is not None and seat.seat in deltas:
            head += " · " + tr(
                lang, "showdown.kush", delta=deltas[seat.seat], label=t.label, stack=seat.stack
            )
        lines.append("")
        lines.append(head)
        for k, box in enumerate(boxes):
            strength = r.strengths[BOXES.index(box)]
            # a stage's points hold the two-of-three points it decides (R7.3: the middle's
            # against an opponent beaten in both bottom and middle, else the top's): a line
            extra = stages[k].two_of_three.get(r.seat, 0)
            pts = stages[k].points[r.seat] - extra
            name = tr(lang, _BOX_KEY[box])
            cards = format_cards(display_order(r.board.box(box)))
            lines.append(f"  {name}: {cards} — {hand_name(strength, lang)} · {minus(f'{pts:+d}')}")
            if extra:
                # under the box that decides it (R7.3): the middle, before the top is shown,
                # when bottom and middle are both won; the picture says it in the same words
                lines.append("  " + tr(lang, "reveal.two_of_three", points=minus(f"{extra:+d}")))
        del i
    claim = reveal.get("claim")
    buttons: tuple[tuple[Button, ...], ...] = ()
    if claim:
        names = ", ".join(t.board_label(s) for s in claim["seats"])
        lines.append("")
        # (the target the claim goes by, R7.5: the game's, the one the reveal shows)
        offer = tr(lang, "reveal.claim", names=names, target=game.target if game else target)
        deadline = claim.get("deadline")
        if now is not None and deadline is not None:  # (it goes on by itself after it)
            left = max(0.0, float(deadline) - now)
            when = (
                mmss(left)
                if zone is None
                else tr(lang, "board.until", at=clock_time(float(deadline), zone))
            )
            offer += f" ⏱ {when}"
        lines.append(offer)
        v = f"C{t.hand_no}.{shown}"
        buttons = ((
            Button(tr(lang, "btn.claim"), encode(P.Claim(t.id, v))),
            Button(tr(lang, "btn.continue"), encode(P.Continue(t.id, v))),
        ),)  # fmt: skip
    elif game is not None and game.over:
        lines.append("")
        said = False  # a line says why the game ends (its target, a leaver, a timeout)
        if game.claimed_by is not None:
            lines.append(tr(lang, "reveal.claimed", name=t.board_label(game.claimed_by)))
        elif reached := [s for s, p in sorted(game.totals.items()) if p >= game.target]:
            # the target reached ends it (R7.6), whoever left or timed out in that hand: "🚪
            # Boris left, so the game ends here" blamed a leaver for a game over anyway
            names = ", ".join(t.board_label(s) for s in reached)
            if game.target != target:  # an admin's new target, reached as the hand ended
                text = tr(lang, "reveal.game_over_new_target", names=names, target=game.target)
            else:
                text = tr(lang, "reveal.game_over_target", names=names, target=target)
            lines.append(text)
            said = True
        else:  # why it ends short of the target: a player left (R7.6), or a player's time
            # ran out (R7.7); a leaver's moves were made as on timeout (R8.5), but they left:
            # "time ran out" told the group a wrong reason (a player of the game leaving
            # during the reveal, not timed out, was not named at all)
            gone = [st for st in t.seats.values() if st.leaving and st.seat in game.totals]
            if gone:
                names = ", ".join(st.name for st in gone)
                lines.append(tr(lang, "reveal.game_over_left", names=names))
                said = True
            if late := [t.board_label(s) for s in timed_out_seats(t, hand.result)]:
                lines.append(tr(lang, "reveal.game_over_timeout", names=", ".join(late)))
                said = True
        # R8.7: a tournament's game settles chips (their line follows), never kush; a reason
        # line above says the game ends already ("…so the game ends here. The game is over
        # and settled." said it twice): then only that it is settled
        over = "reveal.game_over" if t.tournament is None else "reveal.game_over_chips"
        lines.append(tr(lang, over.replace("game_over", "settled") if said else over))
    elif game is not None and game.target != target and shown == len(_REVEAL_ORDER):
        # a target_points changed during the hand, not reached: the game plays on to it
        lines.append("")
        lines.append(tr(lang, "reveal.new_target", target=game.target))
    for name, stack in busted:
        lines.append(busted_notice(t, lang, name, stack))
    return Screen("\n".join(lines), buttons)


def ping_lines(text: str) -> str:
    """A turn ping's text from the hand message ``text``: its title and its "your move" line
    (the one with the clock, ⏱). The second line alone was a Chinese Poker game's score, or
    a tournament's level, and the ping said nothing of a move; the first two lines when
    there is no such line."""
    lines = text.splitlines()
    move = next((line for line in lines[1:] if "⏱" in line), None)
    return "\n".join([*lines[:1], move] if move is not None else lines[:2])


def closes_after_hand(t: LiveTable, lang: str) -> str:
    """What an admin's close during a hand answers, and the table message then says (R8.2a):
    the table closes (a tournament is cancelled, R8.7) at the end of this hand; where that
    hand can earn Fantasyland (R6; not in Chinese Poker, nor with ``fantasyland`` off), that
    it will not be played: "Table #1 closes at the end of this hand; Fantasyland earned in
    it is not played." (A tournament's said nothing of it, only its closing message did.)"""
    fantasyland = t.options.fantasyland and t.options.game is not GameKind.CHINESE
    if t.tournament is not None:
        key = "tour.cancels_after_hand_fl" if fantasyland else "tour.cancels_after_hand"
        return tr(lang, key, table=t.id)
    key = "reply.closes_after_hand_fl" if fantasyland else "reply.closes_after_hand"
    return tr(lang, key, table=t.id)
