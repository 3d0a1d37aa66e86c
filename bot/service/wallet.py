"""Wallet and community commands: balance, leaderboard, history, the daily bonus and admin
grants (R8.1). Each kush movement is one balanced ledger entry written by storage in one
transaction."""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from bot.model import Actor, LiveTable, Phase, Reply
from bot.service.bots import BOT_NAMES, computer_user_id, is_computer
from bot.service.numbers import MINUSES, ascii_sign, digits_hint, read_whole
from bot.service.runtime import Runtime
from bot.service.settings import KUSH_LIMIT, day_zone
from bot.service.stats import means_me, shown_number
from bot.texts import grouped, on, tr
from game.errors import GameError
from game.tournament import Tournament
from storage.api import Community, InsufficientFunds, StorageError, answer_within

__all__ = [
    "BALANCE_LIMIT",
    "HISTORY_DEFAULT",
    "HISTORY_MAX",
    "GrantWords",
    "advice",
    "balance",
    "daily",
    "grant",
    "history",
    "history_count",
    "no_money",
    "read_grant",
    "signed_words",
    "top",
]

log = logging.getLogger(__name__)

#: The largest balance a grant may leave (a thousand of the largest grants).
BALANCE_LIMIT = 1000 * KUSH_LIMIT

#: How many entries ``/history`` lists without a number, and the most ``/history N`` may ask.
HISTORY_DEFAULT = 5
HISTORY_MAX = 20


async def _group_now(rt: Runtime, community: Community) -> datetime:
    """Now in the group's time zone (its ``utc_offset``; never set, by its language:
    :func:`~bot.service.settings.day_zone`), whose days the daily bonus counts."""
    offset = timedelta(hours=await day_zone(rt, community))
    return datetime.fromtimestamp(rt.clock(), timezone(offset))


def _day_start(now: datetime) -> float:
    """The start of ``now``'s day in its time zone, as Unix seconds: a daily bonus taken since
    then was taken today, whatever date it was recorded under (R8.1)."""
    return now.replace(hour=0, minute=0, second=0, microsecond=0).timestamp()


def _minutes_to_next_day(now: datetime, last: str | None = None) -> int:
    """Whole minutes (rounded up) from ``now`` to the start of its next day, or of the day
    after ``last`` (``YYYY-MM-DD``, the latest daily bonus taken) when that is later: a
    group whose ``utc_offset`` was turned back reads a day before the one taken (R8.1)."""
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    if last is not None:
        taken = datetime.strptime(last, "%Y-%m-%d").replace(tzinfo=now.tzinfo)
        midnight = max(midnight, taken + timedelta(days=1))
    return math.ceil((midnight - now).total_seconds() / 60)


async def advice(
    rt: Runtime, community: Community, player_id: int, lang: str, *, lower_buy_in: bool
) -> str:
    """What to do about too few kush on the balance (R8.1): the daily bonus when the group
    has one and the player can take it now (taken today: when the next one comes), an
    admin's ``/grant``, and with ``lower_buy_in`` (a cash table's buy-in) a lower
    ``min_buy_in`` (a tournament's buy-in is fixed once it is open, a top-up's amount is the
    player's own)."""
    key = "reply.no_money_hint" if lower_buy_in else "reply.no_money_hint_tour"
    if community.settings.daily_bonus <= 0:
        return tr(lang, key + "_no_daily")
    now = await _group_now(rt, community)
    if not await rt.store.daily_claimed(player_id, f"{now:%Y-%m-%d}", since=_day_start(now)):
        return tr(lang, key)
    left = _minutes_to_next_day(now, await rt.store.last_daily(player_id))
    nxt = tr(lang, "reply.daily_next", hours=left // 60, minutes=left % 60)
    return tr(lang, key + "_no_daily") + " " + nxt


def refused_at(exc: InsufficientFunds, player_id: int) -> int | None:
    """The balance of ``player_id`` (kush) that the transaction refusing a buy-in for it read
    (R8.2, R8.7): what the refusal names, true of the step it refused whatever lands after
    it; ``None`` when ``exc`` is another refusal (another player's, a stack's)."""
    return exc.balance if exc.player_id == player_id else None


async def balance_now(rt: Runtime, player_id: int) -> int:
    """The player's balance now (kush; 0 for a player storage does not know), for a refusal
    that names what they have."""
    player = await rt.store.get_player(player_id)
    return player.balance if player else 0


async def refusal_balance(
    rt: Runtime, exc: InsufficientFunds, player_id: int, amount: int, again: bool
) -> int | None:
    """The balance (kush) a buy-in of ``amount`` refused with ``exc`` for a short balance
    names (R8.2 Ready, R8.7 Register): the one the refusing transaction read
    (:func:`refused_at`), not one read after it (a /grant landing meanwhile: "the buy-in is
    200, you have 550"), else the balance now; ``None`` when ``again`` and the balance read
    now covers ``amount`` (a /grant, a cash-out at another table landing at that moment:
    refused "the buy-in is 200, you have 200"): the caller makes the buy-in once more."""
    have = refused_at(exc, player_id)
    if again or have is None:
        now = await balance_now(rt, player_id)
        if again and now >= amount:
            return None
        have = now if have is None else have
    return have


async def no_money(
    rt: Runtime,
    lang: str,
    t: LiveTable,
    community: Community,
    player_id: int,
    need: int,
    have: int,
) -> Reply:
    """The refusal of a buy-in of ``need`` kush with ``have`` on the balance (R8.2, R8.7), and
    what to do about it (:func:`advice`; a lower buy-in at a cash table only)."""
    text = tr(lang, "reply.no_money", label=t.label, need=need, have=have)
    hint = await advice(rt, community, player_id, lang, lower_buy_in=t.tournament is None)
    return Reply(text + "\n" + hint, alert=True)


async def balance(
    rt: Runtime, community: Community, t: LiveTable | None, actor: Actor, lang: str
) -> Reply:
    """The player's balance and their stack at the chat's table, and what their stacks at
    the community's other open tables hold (a Discord server's other channels), so that the
    sum is :func:`top`'s. At a tournament table
    (R8.7) the stack is the buy-in, in the prize pool whatever happens: the player's chips are
    shown instead, or, once knocked out, their place and prize (paid when it ends)."""
    player = await rt.store.player(community.id, actor.user_id, actor.name, actor.language)
    seat = t.seat_of(actor.user_id) if t else None
    tour = t.tournament if t is not None else None
    # a player knocked out is stood up when the hand ends, but stays registered: their buy-in
    # is in the pool and their prize is paid when the tournament ends (the tournament's seat
    # is the table's, R8.7)
    if tour is not None and t is not None and (seat is not None or player.id in tour.players):
        number = seat.seat if seat is not None else tour.seat_of(player.id)
        label = rt.kush_label(community)
        common = {"name": player.name, "balance": player.balance, "label": label, "table": t.id}
        place = tour.places.get(number)
        if place is not None and number not in tour.chips:
            prize = tour.prizes.get(number, 0)
            paid = tr(lang, "reply.balance_tour_prize", prize=prize, label=label) if prize else ""
            return Reply(tr(lang, "reply.balance_tour_out", place=place, prize=paid, **common))
        chips = tour.chips.get(number, tour.config.starting_chips)
        return Reply(
            tr(lang, "reply.balance_tour", buy_in=tour.config.buy_in, chips=chips, **common)
        )
    # stacks at the community's other tables (a Discord server's other channels): counted by
    # /top, so named here too, read as /top reads them (the committed stacks, a knocked-out
    # tournament buy-in at its prize)
    others = [r.id for r in await rt.store.open_tables(community.id) if t is None or r.id != t.id]
    other = sum([(await rt.store.stacks(n)).get(player.id, 0) for n in others])
    if other:
        other -= (await knocked_out_shares(rt, community.id)).get(player.id, 0)
    elsewhere = tr(lang, "reply.balance_elsewhere", other=other) if other > 0 else ""
    return Reply(
        tr(
            lang,
            "reply.balance",
            name=player.name,
            balance=player.balance,
            label=rt.kush_label(community),
            stack=seat.stack if seat else 0,
            elsewhere=elsewhere,
        )
    )


async def knocked_out_shares(rt: Runtime, community_id: int) -> dict[int, int]:
    """Player id → the kush to take off the stacks of each player knocked out of a running
    tournament of the community (R8.7): their stack there is their buy-in, which stays in
    the prize pool until the payout, but their share of it is now worth only their prize
    (final when they are knocked out; 0 for most places). Read from the tables' committed
    states (each committed with the stacks it goes with, whichever worker serves the table),
    not from the tables this worker holds."""
    out: dict[int, int] = {}
    for record in await rt.store.open_tables(community_id):  # one a chat at most
        state = await rt.store.table_state(record.id)
        data = state[1].get("tournament") if state is not None else None
        if not data:
            continue
        try:
            tour = Tournament.from_json(data)
        except GameError:  # a snapshot that does not read back: its stacks as they are
            log.exception("table %s: the tournament of its snapshot does not read", record.id)
            continue
        if tour.finished is not None:
            continue  # paid out (and cashed out) in the transition that finished it
        for ko in tour.knocked_out:
            lost = tour.config.buy_in - ko.prize
            if lost > 0:
                out[ko.player] = out.get(ko.player, 0) + lost
    return out


async def top(rt: Runtime, community: Community, lang: str) -> Reply:
    """The community leaderboard (balance plus stacks) of its members, ten at most: computer
    players (house kush) are left out. A buy-in in the pool of a running tournament counts
    at what it is worth to its player: the buy-in while they play on, their prize (or 0)
    once knocked out (:func:`knocked_out_shares`)."""
    lowered = await knocked_out_shares(rt, community.id)
    # only the ``len(lowered)`` lowered players can fall below someone not fetched
    rows = await rt.store.leaderboard(community.id, 10 + len(BOT_NAMES) + len(lowered))
    rows = [(p, total - lowered.get(p.id, 0)) for p, total in rows if not is_computer(p.user_id)]
    rows = sorted(rows, key=lambda r: (-r[1], r[0].id))[:10]
    if not rows:
        return Reply(tr(lang, "reply.top_empty"))
    lines = [tr(lang, "reply.top_title")]
    for n, (p, total) in enumerate(rows, start=1):
        lines.append(
            tr(
                lang,
                "reply.top_line",
                n=n,
                name=p.name,
                total=total,
                label=rt.kush_label(community),
            )
        )
    return Reply("\n".join(lines))


def history_count(arg: str) -> int | None:
    """How many entries ``/history [N]`` asks for: :data:`HISTORY_DEFAULT` for ``""`` (only
    spaces), ``N`` for one whole number 1..:data:`HISTORY_MAX` written with the digits 0-9
    (:func:`~bot.service.numbers.read_whole`: "3", " 3 ", "+3"); ``None`` for anything else
    ("0", "21", "abc", "3 4", "٣"), which the caller answers with ``usage.history``."""
    if not arg.strip():
        return HISTORY_DEFAULT
    n = read_whole(arg)
    return n if n is not None and 1 <= n <= HISTORY_MAX else None


async def history(
    rt: Runtime, community: Community, actor: Actor, lang: str, limit: int = HISTORY_DEFAULT
) -> Reply:
    """The player's last ``limit`` hands (newest first): points and kush of each, each with
    its ``#id`` for ``/replay`` (issue 12). A Chinese Poker hand of theirs being revealed is
    said first (:func:`_revealing`): it is recorded when its reveal ends."""
    player = await rt.store.player(community.id, actor.user_id, actor.name, actor.language)
    hands = await rt.store.hand_history(player.id, limit)
    revealing = [
        tr(lang, "reply.history_revealing", table=t.id, hand=t.shown_no)
        for t in _revealing(rt, community.id, player.id)
    ]
    if not hands:
        return Reply("\n".join([tr(lang, "reply.history_empty"), *revealing]))
    lines = [tr(lang, "reply.history_title"), *revealing]
    replayable = False
    for h in hands:
        ref = tr(lang, "reply.history_replay", id=h.id)
        seat = next((int(s) for s, pid in h.players.items() if pid == player.id), None)
        kush = int(h.result.get("kush", {}).get(str(seat), 0))
        if h.result.get("tournament_end") and h.result.get("cancelled"):  # rolled forward
            lines.append(
                ref + tr(lang, "tour.history_cancelled", table=h.table_id, kush=kush,
                         label=rt.kush_label(community))
            )  # fmt: skip
            continue
        if h.result.get("tournament_end"):  # a tournament's result: place and kush (R8.7)
            place = int(h.result.get("places", {}).get(str(seat), 0))
            lines.append(
                ref + tr(lang, "tour.history_line", table=h.table_id, place=place, kush=kush,
                         label=rt.kush_label(community))
            )  # fmt: skip
            continue
        settled = next((k for k in ("game_end", "round_end") if h.result.get(k)), None)
        tour = h.result.get("tournament")
        if settled == "game_end" and tour is not None:  # a tournament's game ended by a
            # leaver (R7.6, R8.7): it moved chips, never kush
            chips = int((tour.get("won") or {}).get(str(seat), 0))
            lines.append(ref + tr(lang, "tour.history_game_end", table=h.table_id, chips=chips))
            continue
        if settled is not None:  # a settlement, no hand: "hand 2: 0 pts" named a hand nobody
            # was dealt (the table's next hand is 3) and no points of its own (R7.6, R8.3)
            lines.append(
                ref + tr(lang, f"reply.history_{settled}", table=h.table_id, kush=kush,
                         label=rt.kush_label(community))
            )  # fmt: skip
            continue
        points, fouled = _hand_points(h.result, seat)
        foul = " 💀" if fouled else ""
        replayable = replayable or "setup" in h.hand
        if tour is not None:  # a tournament's hand moved chips, not kush (R8.7): a Chinese
            # Poker one none until its game ends (R7.6), which is still no table's kush hand
            chips = int((tour.get("won") or {}).get(str(seat), 0))
            lines.append(
                ref + tr(lang, "tour.history_hand_line", table=h.table_id, hand=shown_number(h),
                         points=points, chips=chips, foul=foul)
            )  # fmt: skip
            continue
        game = h.result.get("chinese") or {}
        if str(seat) not in (h.result.get("kush") or {}) and game and not game.get("over"):
            # a Chinese Poker hand before its game ended moved no kush (R7.6): "+22 pts,
            # +0 kush" read as a hand won for nothing; it says where the game stands
            lines.append(
                ref + tr(lang, "reply.history_line_game", table=h.table_id,
                         hand=shown_number(h), points=points,
                         total=int((game.get("totals") or {}).get(str(seat), 0)),
                         target=int(game.get("target", 0)), label=rt.kush_label(community),
                         foul=foul)
            )  # fmt: skip
            continue
        lines.append(
            ref
            + tr(
                lang,
                "reply.history_line",
                table=h.table_id,
                hand=shown_number(h),
                points=points,
                kush=kush,
                label=rt.kush_label(community),
                foul=foul,
            )
        )
    if replayable:
        lines.append(tr(lang, "reply.history_hint"))
    return Reply("\n".join(lines))


def _revealing(rt: Runtime, community_id: int, player_id: int) -> list[LiveTable]:
    """The community's tables, by number, whose hand the player plays and which is being
    revealed (Chinese Poker, R4.5): a hand is recorded, and so listed by ``/history``, when its
    reveal ends, after the top boxes or a claim (R7.5: a claim ends the game with boxes
    unshown; :func:`~bot.service.chinese.close_chinese_hand`). Until then ``/history`` said
    "No hands yet." of a hand the player had arranged."""
    return sorted(
        (
            t
            for t in rt.tables.values()
            if t.community_id == community_id
            and t.phase is Phase.REVEALING
            and t.hand is not None
            and t.hand.result is not None
            and any(
                (st := t.seats.get(t.owner(s))) is not None and st.player_id == player_id
                for s in t.hand.result.order
            )
        ),
        key=lambda t: t.id,
    )


def _hand_points(result: Mapping[str, Any], seat: int | None) -> tuple[int, bool]:
    """``(points, fouled)`` of the player at table seat ``seat`` in a stored hand's result,
    over their boards: both of them with double boxes (R4.2: ``result["owners"]`` maps a
    board seat to its player's table seat; the board whose seat number was the player's
    had been read alone, so the first board's points stood for the two and the opponent
    read the player's second board as their own); Chinese Poker's counted points (R7.5:
    boxes a claim left unrevealed count nothing, stored as ``counted``)."""
    owners: Mapping[str, Any] = result.get("owners") or {}
    counted: Mapping[str, Any] = result.get("counted") or {}
    points, fouled = 0, False
    for r in result.get("seats", []):
        board = r.get("seat")
        if seat is None or board is None or int(owners.get(str(board), board)) != seat:
            continue
        points += int(counted.get(str(board), r.get("points", 0)))
        fouled = fouled or bool(r.get("fouled"))
    return points, fouled


async def daily(rt: Runtime, community: Community, actor: Actor, lang: str) -> Reply:
    """The daily bonus, once a day of the group's time zone (its ``utc_offset``, R8.1).

    A claim is refused when the player took one for today's date or a later one (a zone
    turned back reads a date already taken) or took one since the start of today in the
    group's current zone (a zone moved forward, e.g. the language switched from English to
    Russian, reads the next date at once). So no local day pays twice, and the next bonus
    comes at the start of the next local day, or of the day after the date taken when that
    is later: at most a day plus the zone's move back after the last one. The refusal says
    how long until then."""
    amount = community.settings.daily_bonus
    if amount <= 0:
        return Reply(tr(lang, on(community.platform, "reply.daily_off")), alert=True)
    player = await rt.store.player(community.id, actor.user_id, actor.name, actor.language)
    now = await _group_now(rt, community)
    new_balance = await rt.store.claim_daily(
        community.id,
        player.id,
        amount,
        f"{now:%Y-%m-%d}",
        at=now.timestamp(),
        since=_day_start(now),
    )
    if new_balance is None:  # say when the group's next day (after the one taken) begins
        left = _minutes_to_next_day(now, await rt.store.last_daily(player.id))
        text = tr(lang, "reply.daily_taken", hours=left // 60, minutes=left % 60)
        return Reply(text, alert=True)
    label = rt.kush_label(community)
    return Reply(tr(lang, "reply.daily", amount=amount, label=label, balance=new_balance))


def _an_amount(word: str) -> bool:
    """Whether ``word`` reads as an amount someone types: whole, not 0, no leading 0 (``050``
    after a name is a thousands' group, "2 050", not fifty)."""
    return bool(read_whole(word)) and not ascii_sign(word).lstrip("+-").startswith("0")


def _numeric(word: str) -> bool:
    """Whether a command's word starts a number (``100``, ``-50``, ``1`` of ``1 000``; ``−50``
    with a typographic minus, :data:`bot.service.numbers.MINUSES`)."""
    return word.lstrip("+-" + MINUSES)[:1].isdigit()


@dataclass(frozen=True, slots=True)
class GrantWords:
    """The words of ``/grant`` as typed, read by :func:`read_grant` (R8.1): who and how much,
    for :func:`grant` to judge (it refuses what reads as no player or no whole amount).

    :ivar name: the words naming the player, one name however many words (``"@bob"``,
        ``"Anna Maria"``, a user id ``"1001"``, ``"me"``); ``""`` when no name is typed: the
        player is then the one the platform names (a reply to their message, with
        ``amount``), or nobody: :func:`grant` asks who gets ``amount`` (``/grant 1 000``),
        or shows the usage when it is ``""`` too.
    :ivar amount: the words of the amount, joined by one space and judged whole (``"1 000"``
        is a thousand, :func:`bot.service.numbers.read_whole`); ``""`` when none is typed.
    :ivar other: a second reading ``(name, amount)`` when the words after the name's allow
        one (``/grant Anna 2 100``: ``"Anna 2"`` and ``"100"`` besides ``"Anna"`` and ``"2
        100"``): its amount is the longest tail of the words that reads as one amount
        (``/grant Player 2 1 000``: ``"Player 2"`` and ``"1 000"``, never ``"Player 2 1"``
        and ``"000"``), or the last word when no tail does (``/grant @bob 1 000``: ``"@bob
        1"`` and ``"000"``, no amount, which :func:`grant` never takes); ``None`` when the
        amount is one word. :func:`grant` takes the reading that names a player here and
        asks which was meant when both do.
    """

    name: str
    amount: str
    other: tuple[str, str] | None = None


def read_grant(words: Sequence[str], *, replied: bool = False) -> GrantWords:
    """How ``/grant``'s ``words`` (the command's arguments split at spaces, the command
    itself left out) read as a name and an amount (:class:`GrantWords`), for every platform
    that takes them as free text (Telegram; Discord's ``/ofcadmin grant`` takes a member and
    an integer as options and needs no reading).

    The words before the first one that starts a number are the name (a name of several
    words is one: ``/grant Anna Maria 100``), the rest the amount, judged whole (``/grant
    @bob 1 000`` is a thousand to "@bob", never a grant to "@bob 1"). With no number after
    the first word, the last word is the amount (``/grant @bob abc``: refused as no number,
    not shown the usage alone). A first word that is a number may be a user id typed as
    the name (``/grant 1001 100``), unless ``replied``: the platform names the player by
    the message the command replies to, and all the words that begin with a number are the
    amount (``"1 000"`` is a thousand, not a grant to "1" of "000"); so are they, and no name,
    when they all read as one amount and what follows the first word is none
    (:func:`_amount_alone`: ``/grant 1 000`` with no reply, which :func:`grant` answers by
    asking who gets it), or the first word has a sign (``/grant -100 200``: no user id has
    one). When the amount is more than one word, the second reading
    (:attr:`GrantWords.other`) moves words from the amount to the name, as few as leave the
    longest tail that reads as one amount (not 0, no leading 0: ``"000"`` is a thousands'
    group of the words before it).

    A sign typed as a word of its own before the amount (``/grant @bob - 100``, a "−" or
    "–" too) is the amount's (:func:`signed_words`: "-100", which takes, as ``/grant @bob
    -100`` does); it was read as part of the name ("No such player here: @bob -").

    Pure: nothing is looked up (the adapter turns a ``@username`` into a user id, the
    service finds the players)."""
    words = signed_words(words)
    first = next((i for i in range(1, len(words)) if _numeric(words[i])), len(words))
    if first == len(words) > 1:  # (no number after the name: the last word the amount)
        first -= 1
    named = first < len(words) and not _numeric(words[0])
    if replied and words and not named:
        return GrantWords("", " ".join(words))
    if words and not named and _amount_alone(words, first):
        return GrantWords("", " ".join(words))
    if words and not named and words[0][:1] in _SIGNS and read_whole(" ".join(words)) is not None:
        # a signed first word is no user id (none has a sign): ``/grant -100 200`` is one
        # amount, −100,200, for nobody named (it was "No such player here: -100", ux45)
        return GrantWords("", " ".join(words))
    if first >= len(words):
        return GrantWords("", "")
    other = None
    if first < len(words) - 1:
        later = next(
            (i for i in range(first + 1, len(words)) if _an_amount(" ".join(words[i:]))),
            len(words) - 1,
        )
        other = (" ".join(words[:later]), " ".join(words[later:]))
    return GrantWords(" ".join(words[:first]), " ".join(words[first:]), other)


def _amount_alone(words: Sequence[str], first: int) -> bool:
    """Whether ``words`` (signs joined, :func:`signed_words`; the first a number, ``first``
    the index of the next word that starts one) are one amount with nobody named: all of
    them read as one whole number (:func:`~bot.service.numbers.read_whole`: ``1000``,
    ``1,000``, ``1 000``, ``1 000 000``) and the words after the first read as no amount
    (``000``: a thousands' group, never an amount of its own). ``/grant 1 000`` was read as
    user "1" given "000" and refused as "Cannot grant 0" (ux43); ``/grant 1001 100`` stays
    a user id and an amount."""
    if read_whole(" ".join(words)) is None:
        return False
    return first >= len(words) or not _an_amount(" ".join(words[first:]))


#: A sign an admin may type as a word of its own before an amount: "+", "-" and the
#: typographic minuses and dashes (:data:`~bot.service.numbers.MINUSES`: "−", "–" …).
_SIGNS = frozenset("+-" + MINUSES)


def signed_words(words: Sequence[str]) -> list[str]:
    """``words`` (a command's, split at spaces) with a sign typed as a word of its own
    joined to the number after it: ``["@bob", "-", "100"]`` → ``["@bob", "-100"]``
    (``"−"``, ``"–"`` and ``"+"`` too); a sign before a word that starts with no digit
    (``["Anna", "-", "Maria"]``), or last, is left as it is."""
    out: list[str] = []
    rest = list(words)
    while rest:
        word = rest.pop(0)
        if word in _SIGNS and rest and rest[0][:1].isdigit():
            word = word + rest.pop(0)
        out.append(word)
    return out


def _grouping(amount: str) -> bool:
    """Whether ``amount`` is digits grouped by thousands with spaces (``2 100``, ``-1 000
    000``): one way to read ``/grant Anna 2 100``."""
    first, *rest = amount.split() or [""]
    head = ascii_sign(first).lstrip("+-")
    return (
        bool(rest)
        and head.isdecimal()
        and len(head) <= 3
        and head.isascii()
        and all(w.isascii() and w.isdecimal() and len(w) == 3 for w in rest)
    )


async def grant(
    rt: Runtime,
    community: Community,
    actor: Actor,
    lang: str,
    target: str,
    amount: str,
    key: str,
    target_name: str | None = None,
    shown: str | None = None,
    target_bot: bool = False,
    other: tuple[str, str, str | None] | None = None,
) -> Reply:
    """An admin gives (or takes, negative) kush (the caller checked the admin): a whole amount
    of at most :data:`~bot.service.settings.KUSH_LIMIT` either way, and a balance that stays
    at most :data:`BALANCE_LIMIT` (both far below the database's integer limit). ``shown``:
    how the admin named ``target`` (e.g. the ``@username`` an adapter turned into a user id),
    echoed when nobody here has that id. A computer player (house kush, issue 13) is refused,
    and so is a bot account of the platform (``target_bot``: another bot of the group, or
    this one), which can never play: nothing is created for it, so it never tops ``/top``.
    ``other``: a second reading of the words typed, ``(target, amount, shown)`` (``/grant
    Anna 2 100``: "Anna" and "2 100" as read, or "Anna 2" and "100"): taken when its name is
    a player here and its amount whole, unless the first reading names a player too: then
    both are plausible (the "2 100" a thousands' grouping), and it is refused showing the two,
    nothing moved.
    """
    label = rt.kush_label(community)
    if other is not None and target and _an_amount(other[1]):
        found = await rt.store.find_player(community.id, other[0])
        if found is not None:
            first = await rt.store.find_player(community.id, target) if _grouping(amount) else None
            if first is not None:  # (each named as the group sees them)
                whole = "".join(amount.split())  # (what "2 100" would be as one amount)
                text = tr(lang, "reply.grant_which", name=found.name, amount=other[1],
                          other=first.name, grouped=amount, whole=whole)  # fmt: skip
                return Reply(text, alert=True)
            target, amount, shown = other  # the only reading that names a player here
    if not target and amount.strip():  # an amount and nobody named (/grant 1 000): who?
        asked = read_whole(amount)
        if asked is not None and 0 < abs(asked) <= KUSH_LIMIT:
            text = tr(lang, "reply.grant_whom", amount=asked, label=label, whole=str(asked))
            return Reply(text, alert=True)
    if not target or not amount.strip():
        return Reply(tr(lang, "reply.grant_usage"), alert=True)
    # read as /topup and /settings read an amount: "١٠٠", "１００" or "1_000" is no grant;
    # digits beyond every limit (or cut short "…") are refused with the bound below
    value = read_whole(amount)
    if value is None:
        return Reply(digits_hint(lang, amount) + "\n" + tr(lang, "reply.grant_usage"), alert=True)
    if target_bot:
        return Reply(tr(lang, "reply.grant_bot", name=target_name or shown or target), alert=True)
    if value == 0 or abs(value) > KUSH_LIMIT:
        limit = grouped(KUSH_LIMIT, lang)
        # "not 0" only for a 0: beyond the range the range alone says what fits
        key = "reply.grant_zero" if value == 0 else "reply.grant_bound"
        return Reply(tr(lang, key, limit=limit, label=label), alert=True)
    if target_name is None and means_me(target):  # "/grant me 100": the admin, as /stats me
        target, target_name = actor.user_id, actor.name
    player = await rt.store.find_player(community.id, target)
    computer = computer_user_id(target) if player is None and target_name is None else None
    if computer is not None:  # "Anna": the table's "🤖 Anna" (as /removebot and /stats take it)
        player = await rt.store.find_player(community.id, computer)
    if player is None and target_name is not None:
        # a member the platform names who never played here: their wallet is made for the
        # grant, so only once the grant is one that goes through (a refused one made it, its
        # starting balance in the ledger, and put them on /top)
        starting = community.settings.starting_balance
        refused = _grant_refusal(lang, target_name, starting, value, label)
        if refused is not None:
            return refused
        player = await rt.store.player(community.id, target, target_name)
    if player is None and target_name is None and shown is None:
        ambiguous = _id_or_amount(lang, target, amount, value)
        if ambiguous is not None:  # (/grant 100 200: user 100 gets 200, or 100,200 for whom?)
            return ambiguous
    if player is None:  # (a @username the bot knows from a private chat only, say: they
        # never played here, and nobody else is taken for them by a name they do not have)
        typed = rt.typed_text(community.platform, shown or target)  # (short, no invisibles)
        return Reply(tr(lang, "reply.grant_unknown", name=typed), alert=True)
    if is_computer(player.user_id):  # house kush, never granted (issue 13)
        return Reply(tr(lang, "reply.grant_computer", name=player.name), alert=True)
    # (taking more than it holds: the store refuses; taking from a balance a cash-out left
    # above the limit is no grant past it)
    limit = grouped(BALANCE_LIMIT, lang)
    bound = tr(lang, "reply.grant_balance_bound", name=player.name, limit=limit, label=label)
    if value > 0 and player.balance + value > BALANCE_LIMIT:
        return Reply(bound, alert=True)

    async def once() -> int:
        return await rt.store.grant(
            community.id, player.id, value, actor=actor.user_id, reason="/grant", key=f"grant:{key}"
        )

    try:
        try:
            new_balance = await once()
        except InsufficientFunds:
            raise
        except StorageError as exc:
            # perhaps saved all the same (a connection lost after its COMMIT): tried once more
            # under its key, which a saved grant answers with its balance, changing nothing;
            # "nothing changed, try again" had the admin grant it twice
            log.warning("grant %s: not known whether saved (%r); tried again", key, exc)
            try:
                new_balance = await once()
            except InsufficientFunds:
                raise
            except StorageError:
                return Reply(tr(lang, "err.grant_unsure", name=player.name), alert=True)
        if value > 0 and new_balance > BALANCE_LIMIT:
            # another grant went in since the balance above was read (two at one moment,
            # each fitting alone): this one is taken back, a balanced pair of rows
            return await _take_back(rt, community, player.id, player.name, actor, lang, key,
                                    value, bound)  # fmt: skip
    except InsufficientFunds:
        return Reply(
            tr(lang, "reply.grant_negative", name=player.name, balance=player.balance, label=label),
            alert=True,
        )
    return Reply(
        tr(lang, "reply.granted", name=player.name, amount=value, label=label, balance=new_balance)
    )


#: How many times a grant's take-back is tried when storage neither saves nor refuses it.
TAKE_BACK_TRIES = 3


async def _take_back(
    rt: Runtime,
    community: Community,
    player_id: int,
    name: str,
    actor: Actor,
    lang: str,
    key: str,
    value: int,
    bound: str,
) -> Reply:
    """Take back a grant of ``value`` (> 0) kush found, once saved, to have left the balance
    above :data:`BALANCE_LIMIT` (another grant went in at the same moment): the admin's
    answer. A take-back of ``value`` under the key ``grant:<key>:over`` (with the grant's
    row, a balanced pair), tried up to :data:`TAKE_BACK_TRIES` times when storage fails
    without saying whether it saved it (the key answers a saved one with its balance, so
    nothing is taken twice): ``bound`` (the refusal) once taken. When the balance no longer
    holds ``value`` (a buy-in, another admin's take, since the grant), what it holds is
    taken back instead (key ``grant:<key>:over:part``), and the answer says how much of the
    grant stays (the rest left the balance meanwhile; the balance is then far below the
    limit); the /grant delivered again answers the same, from that row (read first: the
    whole grant taken back then, the balance holding it again, took more than it gave).
    Each call to storage has :attr:`Runtime.storage_wait` of its own (the command's time,
    bound by ``STORAGE_WAIT_SECONDS``, may be spent by the grant: its tries gave up untried).
    Storage failing every try: the answer says the grant went in and its take-back could not
    be saved, so the admin looks at the balance; nothing untrue like "nothing changed"."""
    label = rt.kush_label(community)
    limit = grouped(BALANCE_LIMIT, lang)

    async def take(amount: int, suffix: str) -> int:
        with answer_within(rt.storage_wait, anew=True):  # (each try its own time, below)
            return await rt.store.grant(
                community.id, player_id, -amount, actor=actor.user_id, reason="over",
                key=f"grant:{key}:over{suffix}",
            )  # fmt: skip

    unsure = Reply(
        tr(lang, "err.grant_over_unsure", name=name, limit=limit, amount=value, label=label),
        alert=True,
    )
    amount: int | None = None  # what is taken back: the balance as read, then kept for a
    # try again under the same key (storage unsure whether it saved that amount)
    part = f"grant:{key}:over:part"
    # the /grant delivered again after a partial take-back: what was taken, read first (the
    # whole grant taken back again, the balance holding it by then, took more than it gave)
    with contextlib.suppress(StorageError), answer_within(rt.storage_wait, anew=True):
        rows = await rt.store.ledger(community.id)
        amount = next((-e.balance_delta for e in reversed(rows) if e.key == part), None)
    for _ in range(TAKE_BACK_TRIES if amount is None else 0):
        try:
            await take(value, "")
            return Reply(bound, alert=True)
        except InsufficientFunds:
            break  # the balance holds less than the grant now: what it holds, below
        except StorageError as exc:  # saved or not: tried again under its key
            log.warning("grant %s: its take-back not known to be saved (%r)", key, exc)
    else:
        if amount is None:
            return unsure
    for _ in range(TAKE_BACK_TRIES):
        try:
            if amount is None:
                with answer_within(rt.storage_wait, anew=True):
                    found = await rt.store.get_player(player_id)
                balance = found.balance if found is not None else 0
                amount = min(value, balance)
            if amount > 0:
                balance = await take(amount, ":part")
        except InsufficientFunds:
            amount = None  # less again: read anew
            continue
        except StorageError as exc:
            log.warning("grant %s: its partial take-back not known to be saved (%r)", key, exc)
            continue
        if amount >= value:  # (the balance grew back meanwhile: all of it taken back)
            return Reply(bound, alert=True)
        text = tr(lang, "reply.grant_over_partial", name=name, limit=limit, amount=value,
                  taken=amount, kept=value - amount, balance=balance, label=label)  # fmt: skip
        return Reply(text, alert=True)
    return unsure


def _id_or_amount(lang: str, first: str, amount: str, value: int) -> Reply | None:
    """The refusal of ``/grant <first> <amount>`` whose first word ``first`` is a number typed
    as a user id (digits, not a name the platform resolved) that no player here has, when the
    words together also read as one amount for nobody named (``/grant 100 200``: user 100
    gets 200, or someone gets 100,200): both readings said and how to name the player, in
    ``lang``; nothing is granted on either. ``None`` when ``first`` is no such number or the
    words make no amount within :data:`~bot.service.settings.KUSH_LIMIT` (``/grant 1001
    100``: a user id alone, answered as any unknown name)."""
    if not (first.isascii() and first.isdigit()):
        return None
    whole = read_whole(f"{first} {amount}")
    if whole is None or not 0 < abs(whole) <= KUSH_LIMIT:
        return None
    text = tr(lang, "reply.grant_id_or_amount", id=first, amount=grouped(value, lang),
              whole=grouped(whole, lang))  # fmt: skip
    return Reply(text, alert=True)


def _grant_refusal(lang: str, name: str, balance: int, value: int, label: str) -> Reply | None:
    """Why a grant of ``value`` to a balance of ``balance`` is refused (above
    :data:`BALANCE_LIMIT`, or taking more than it holds), ``None`` when it is not."""
    if balance + value > BALANCE_LIMIT:
        limit = grouped(BALANCE_LIMIT, lang)
        text = tr(lang, "reply.grant_balance_bound", name=name, limit=limit, label=label)
        return Reply(text, alert=True)
    if balance + value < 0:
        text = tr(lang, "reply.grant_negative", name=name, balance=balance, label=label)
        return Reply(text, alert=True)
    return None
