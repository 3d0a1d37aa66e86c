"""Computer players at a group's table (issue 13): ``/addbot [easy|normal|strong]`` seats one,
``/removebot`` stands one up. They play with house kush: each is a player of its own in the
community ("🤖 Anna" …, its own ledger account, minted for it by the house as a grant), never a
member's balance. They act at a human-like pace (``pace`` seconds after their turn begins),
decide from what their seat may know only (:func:`game.policy.knowledge`), off the event loop
and its GIL (in the decision process, :class:`bot.thinking.Thinker`), and have no private
chat."""

from __future__ import annotations

import asyncio
import logging

from bot import thinking
from bot.logs import raised_at
from bot.model import Actor, LiveTable, Reply, SeatState
from bot.names import folded
from bot.service.dealing import full_table, maybe_start, next_buy_in
from bot.service.play import advance
from bot.service.runtime import SAFE_PRESS_SECONDS, Runtime, Tx
from bot.texts import on, tr
from bot.thinking import Moves
from bot.workers import TaskHung
from game.actions import Action, Confirm, Discard, Place, Timeout
from game.errors import GameError
from game.policy import Level, SeatKnowledge, decide, knowledge
from storage.api import BuyIn, Community, HouseGrant, InsufficientFunds

log = logging.getLogger("bot.service")

__all__ = [
    "BOT_NAMES",
    "add_bot",
    "bot_turn",
    "house_funds",
    "is_opener_or_admin",
    "parse_level",
    "remove_bot",
    "think_ahead",
    "who_may",
]

#: Names of the computer players (their user ids are ``bot:<name>``).
BOT_NAMES = ("Anna", "Boris", "Vera", "Gleb")
#: The user id of every computer player starts with this (``bot:anna``).
BOT_USER_PREFIX = "bot:"


def is_computer(user_id: str) -> bool:
    """Whether a player's user id is a computer player's (they play with house kush and are
    left out of the group's leaderboards)."""
    return user_id.startswith(BOT_USER_PREFIX)


#: A computer player's level as the seating notice shows it after the name, in every
#: language ("🤖 Anna (normal)", "🤖 Boris (сильный)"), folded as names are.
_LEVEL_WORDS = frozenset(
    folded(tr(lang, f"bot.level.{level.value}")) for lang in ("en", "ru") for level in Level
)


#: Every word ``/addbot`` takes for a level, folded as names are: the English word the command
#: has always taken, the Russian word the seating notice shows ("сильный") and the Russian
#: words players also use for the middle level.
_LEVEL_BY_WORD: dict[str, Level] = {
    **{folded(tr(lang, f"bot.level.{lvl.value}")): lvl for lang in ("en", "ru") for lvl in Level},
    folded("нормальный"): Level.NORMAL,
    folded("обычный"): Level.NORMAL,
}


def parse_level(word: str) -> Level | None:
    """The level ``/addbot`` was given: ``""`` is normal; English or Russian words, letter
    case and ё aside ("strong", "Сильный", "легкий"); ``None`` for any other word."""
    if not word.strip():
        return Level.NORMAL
    return _LEVEL_BY_WORD.get(folded(word.strip()))


def without_level(name: str) -> str:
    """``name`` without the level the seating notice shows after a computer player's name
    ("🤖 Anna (normal)": "🤖 Anna"; either language's word, letter case aside); any other
    name as it is (stripped)."""
    head, paren, tail = name.strip().rpartition("(")
    if paren and head.strip() and tail.endswith(")") and folded(tail[:-1].strip()) in _LEVEL_WORDS:
        return head.strip()
    return name.strip()


#: The computer players' names as Russian writes them: a computer player created for a
#: Russian table is called so ("🤖 Анна", :func:`add_bot`), its user id still ``bot:anna``.
RUSSIAN_BOT_NAMES = dict(zip(BOT_NAMES, ("Анна", "Борис", "Вера", "Глеб"), strict=True))
#: The names as Russian writes them, folded, to the names' own: a Russian group typed
#: "/removebot Анна" for "🤖 Anna" and was told no such player was seated.
_CYRILLIC_NAMES = {folded(ru): folded(en) for en, ru in RUSSIAN_BOT_NAMES.items()}


def typed_name(name: str) -> str:
    """A seat's name as a command types it, compared letter case aside: without the 🤖 the
    table shows before a computer player and the @ of a Telegram mention ("🤖 Anna",
    "@Anna", "anna": "anna"), ``ё`` read as ``е`` as every name lookup reads it
    (:func:`~bot.names.folded`)."""
    return folded(name.removeprefix("🤖").strip().removeprefix("@").strip())


def bare_name(name: str) -> str:
    """A computer player's name as typed (:func:`typed_name`), without the level the seating
    notice shows after it ("🤖 Anna (normal)": "anna"); written in Cyrillic, as its own
    ("Анна": "anna")."""
    bare = typed_name(without_level(name))
    return _CYRILLIC_NAMES.get(bare, bare)


def computer_user_id(name: str) -> str | None:
    """The user id of the computer player called ``name`` as the table shows it or as
    ``/removebot`` takes it ("🤖 Anna", "Anna", "@anna"), ``None`` for no such name."""
    wanted = bare_name(name)
    named = [n for n in BOT_NAMES if folded(n) == wanted]
    return f"{BOT_USER_PREFIX}{named[0].lower()}" if named else None


#: Buy-ins the house keeps on a computer player's balance when it sits down.
HOUSE_BUY_INS = 50
#: The reason of the house's grants to computer players (the ledger's ``reason``).
HOUSE_REASON = "house kush for a computer player"


def house_funds(t: LiveTable, tx: Tx, player_id: int, need: int) -> None:
    """The house funds a computer player of ``t`` (issue 13: its account is unlimited, minted,
    never a member's kush): when its balance is below ``need``, a grant (an ``admin_grant``
    row by ``house``) brings it to :data:`HOUSE_BUY_INS` buy-ins of the table, at least
    ``need``. Whether it is short is decided inside the commit's transaction from the balance
    read there (a :class:`~storage.api.HouseGrant` move), not from one read before: the same
    computer player at two tables of a community was granted twice when both read it short,
    or its second buy-in failed (stood up) when both read it sufficient. The move goes into
    ``tx`` ahead of the buy-in it pays for, so the two commit in one transaction: a crash
    between them (they were two) left the grant on the account with no buy-in made of it.
    Call in ``t``'s transition, before the buy-in's move."""
    target = HOUSE_BUY_INS * t.min_buy_in
    tx.moves.append(HouseGrant(player_id, need, target, actor="house", reason=HOUSE_REASON))


async def bot_turn(rt: Runtime, t: LiveTable, tx: Tx) -> None:
    """Every computer player to act places its street and confirms (R3.4): the decision is
    the one :func:`think_ahead` made during its pace (or made now, by the decision process)
    from what the seat may know; then :func:`~bot.service.play.advance`. A decision that
    fails is logged by its error's type only (never its text: it may name a hidden card)
    and the street made by the timeout rule (R8.5)."""
    hand = t.hand
    assert hand is not None
    t.bot_due = None
    for s in hand.to_act:
        player = t.player_of(s)
        if player is None or not player.bot or hand.is_over or s not in hand.to_act:
            continue
        k = knowledge(hand, s)
        try:
            moves = await _decision(rt, t, s, k, Level(player.bot))
        except Exception as exc:  # (the decision process failed, asked again too, or is
            # hung): waiting for it would hold the hand for good, the table retrying every few
            # seconds and the players' /leave and /closetable waiting for the hand's end; its
            # street is made by the timeout rule below (R8.5). Logged by the error's type and
            # where it was raised, never its text nor traceback: a decision's error may name
            # the seat's hidden cards or discard (as the timer step's line, ops42)
            log.error(
                "table %s: computer player at seat %s could not decide (%s at %s)",
                t.id,
                s,
                type(exc).__name__,
                raised_at(exc),
            )
            moves = []
        turn_before = hand.to_act
        actions: list[Action] = [Place(s, c, b) if b else Discard(s, c) for c, b in moves]
        try:
            for a in [*actions, Confirm(s)]:
                hand.apply(a)
        except GameError:  # never expected: its street is made for it as on a timeout (R8.5)
            # (safe_autoplay's placement made off the event loop, waited for a little)
            await rt.place_safe(t, s, SAFE_PRESS_SECONDS)
            hand.apply(Timeout(s))  # (waiting for its clock would retry the move on and on)
        advance(rt, t, tx, turn_before)
        if t.hand is not hand:
            break


def think_ahead(rt: Runtime, t: LiveTable, seats: list[int]) -> None:
    """Start the decision of each computer player of ``seats`` (to act at ``t``'s hand, issue
    13) in the decision process (``rt.thinker``), from what its seat knows now, unless one
    from the same knowledge is under way: it is made during the player's pace while the table
    is free, so a person's press is never held by it; :func:`bot_turn` takes it if the seat
    still knows the same then (a decision is a function of the knowledge,
    :func:`game.policy.decide`). One under way from what the seat knew before is cancelled:
    its result would be thrown away, and it kept the decision process busy meanwhile (still
    queued, it is never made; one the process or a thread is on runs to its end, its worker
    neither killed nor taken for hung). Call with a running event loop."""
    hand = t.hand
    assert hand is not None
    for s in seats:
        player = t.player_of(s)
        assert player is not None and player.bot
        k = knowledge(hand, s)
        have = rt.thinking.get((t.id, s))
        if have is not None:
            if have[0] == k:
                continue
            have[1].cancel()  # (from other knowledge: never used, bot_turn's _decision)
        rt.thinking[(t.id, s)] = (k, rt.decision_task(t, s, k, Level(player.bot), "think", decide))


async def _decision(rt: Runtime, t: LiveTable, seat: int, k: SeatKnowledge, level: Level) -> Moves:
    """The placement of ``seat`` from ``k``: the one :func:`think_ahead` started from the same
    knowledge (waited for if not ready), else made now by the decision process; each waited
    for at most :data:`~bot.thinking.DECISION_SECONDS` (this runs holding the table), the one
    under way counting the table timer's wait for it before the step too
    (:attr:`Runtime.thinking_until`).

    :raises TimeoutError: no decision in that time (hung: asking again would wait as long;
        the decision worker is replaced if hung, :meth:`bot.thinking.Thinker.given_up`)."""
    have = rt.thinking.pop((t.id, seat), None)
    try:
        if have is not None and have[0] == k and not have[1].cancelled():
            # (the table's timer waited for it already when the move came due, Runtime._decided:
            # only what is left of those seconds, not as long again)
            until = rt.thinking_until.pop(have[1], None)
            left = thinking.DECISION_SECONDS
            if until is not None:
                left = max(0.0, until - asyncio.get_running_loop().time())
            try:
                return await asyncio.wait_for(asyncio.shield(have[1]), left)
            except TimeoutError:
                have[1].cancel()  # (never asked again of the new worker: it hangs there too)
                raise
            except TaskHung:  # (the worker was killed on it: asked again, it hangs the next)
                raise
            except Exception:  # (a failed one is made again below)
                pass
        return await asyncio.wait_for(
            rt.thinker.decide(decide, k, level), thinking.DECISION_SECONDS
        )
    except TimeoutError:
        # the worker hung on it: every later decision, at every table, queued behind it,
        # waited these seconds and was given up too; a new worker makes them (a worker that
        # is not hung, this one having waited behind a hung one, is kept)
        rt.thinker.given_up()
        raise


async def add_bot(
    rt: Runtime,
    t: LiveTable,
    community: Community,
    lang: str,
    level: str,
    request: str | None = None,
) -> Reply:
    """Seat a computer player of ``level`` (R8.2: it buys in from its house balance, granted
    in the same transaction, :func:`house_funds`). ``request``: the platform's key of the
    command; one applied already is answered "already done" and seats nobody
    (:meth:`LiveTable.applied`). A buy-in storage still finds short (never expected) is
    refused as the house's (``bot.house_short``), nobody seated, nothing moved. A ``level``
    that is none (``bot.levels``) is refused before anything about the table (a tournament,
    a table closing)."""
    if t.applied(request):
        return Reply(tr(lang, "reply.request_done"))
    lvl = parse_level(level)
    if lvl is None:  # (the argument before the table's state: "/addbot godlike" at a closing
        # table was told only that it closes, and typed again with the same level later)
        return Reply(tr(lang, "bot.levels"), alert=True)
    if t.tournament is not None:
        return Reply(tr(lang, "bot.no_tournament"), alert=True)
    if t.closing:  # an admin closed it during the hand (R8.2a): the house seats nobody there
        # (it said "sits down", minted its kush and cashed it out at the hand's end)
        return Reply(tr(lang, on(t.platform, "reply.table_closing"), table=t.id), alert=True)
    # it sits down after the step of a timer that ran out before it fired (R8.2): the lobby's
    # ready timer deals the hand without it, as without a person seated that moment (seated
    # first, it was dealt into a hand whose deal was due before it sat down)
    await rt.overdue_first(t)
    if not rt.open_here(t):  # that step closed it (R8.2a: no hand for too long)
        return Reply(tr(lang, "reply.table_closed", table=t.id), alert=True)
    free = [s for s in range(t.options.max_players) if s not in t.seats]
    if not free:
        return full_table(t, lang)
    if len(free) == 1 and all(s.bot for s in t.seats.values()):
        # the last seat stays a person's: a table full of computer players never deals (they
        # do not play each other) and nobody could sit down to play them, until the idle close
        return Reply(tr(lang, "bot.last_seat"), alert=True)
    taken = {s.user_id for s in t.seats.values()}
    # a person named "Anna" (a name never begins with 🤖, bot.names) does not sit next to a
    # computer player "🤖 Anna"
    # (either spelling: "Анна" does not sit next to "🤖 Anna" nor "🤖 Анна")
    shown = {folded(bare_name(s.name)) for s in t.seats.values()}
    name = next(
        (
            n
            for n in BOT_NAMES
            if f"{BOT_USER_PREFIX}{n.lower()}" not in taken and folded(n) not in shown
        ),
        None,
    )
    if name is None:
        return Reply(tr(lang, "reply.table_full"), alert=True)
    user_id = f"{BOT_USER_PREFIX}{name.lower()}"
    # named once, when created: in Cyrillic for a Russian table ("🤖 Анна"); one created
    # before keeps the name saved with it (its /stats, /top and history read it)
    known = await rt.store.find_player(community.id, user_id)
    if known is not None and known.user_id == user_id:
        name = known.name.removeprefix("🤖").strip() or name
    elif t.lang == "ru":
        name = RUSSIAN_BOT_NAMES[name]
    # no starting balance (issue 13): its kush comes only from the house's grants below (it
    # was given the community's starting balance too, kush no grant of the house accounted for)
    player = await rt.store.player(community.id, user_id, f"🤖 {name}", starting=False)
    # the next hand's buy-in, as a person's Ready pays (R8.2: one saved during the hand
    # applies as it ends)
    buy_in = next_buy_in(t)
    try:
        async with rt.transition(t) as tx:
            house_funds(t, tx, player.id, HOUSE_BUY_INS * buy_in)
            seat = SeatState(
                seat=free[0],
                player_id=player.id,
                user_id=user_id,
                name=f"🤖 {name}",
                lang=lang,
                stack=buy_in,
                unplayed_buy_in=buy_in,  # (a lower one before its first hand: the
                # difference back, as a person's, dealing.apply_pending)
                ready=True,
                bank=t.new_bank(),
                bot=lvl.value,
            )
            t.seats[seat.seat] = seat
            t.remember(request)
            tx.moves.append(BuyIn(player.id, buy_in))
            tx.group = True
            maybe_start(rt, t, tx)
    except InsufficientFunds:
        # never expected: the house's grant, in the buy-in's own transaction, covers it. Said
        # as it is (it was "could not save, try again": the same again would fail the same)
        log.error("table %s: the house could not stake %s's buy-in", t.id, user_id, exc_info=True)
        text = tr(lang, "bot.house_short", name=f"🤖 {name}", amount=buy_in, label=t.label)
        return Reply(text, alert=True)
    return Reply(tr(lang, "bot.added", name=seat.name, level=tr(lang, f"bot.level.{lvl.value}")))


async def remove_bot(
    rt: Runtime, t: LiveTable, lang: str, request: str | None = None, name: str = ""
) -> Reply:
    """Stand up the computer player ``name`` (``Anna``, ``🤖 anna``: its name, letter case
    aside; a name no computer player here has is refused with those seated, nothing
    changed), else the one seated last, as a person who leaves does: between hands
    at once (its stack goes back to the house; a Chinese Poker game it plays is settled
    first, R7.6), during a hand after it (it places the rest of its hand by its own level's
    policy, never as on a timeout: it is stood up, not gone) and during a Chinese Poker
    reveal once it is over (R7.4). One already leaving after the hand is
    skipped: a second /removebot during a hand stands up the next one, and when every one
    is leaving already it is refused, nothing changed. ``request``: the platform's key of
    the command; one applied already (a command delivered twice) is answered "already done"
    and stands nobody else up."""
    from bot.service.lobby import depart

    if t.applied(request):
        return Reply(tr(lang, "reply.request_done"))
    if t.tournament is not None:  # (none is ever seated there: "no computer player seated"
        return Reply(tr(lang, "bot.no_tournament"), alert=True)  # said less, R8.7)
    # in the order they sat down (the table keeps its seats so, restarts included): the one
    # seated last is not the one in the highest seat once a freed lower seat was taken again
    bots = [s for s in t.seats.values() if s.bot]
    if not bots:
        return Reply(tr(lang, "bot.none"), alert=True)
    if name:
        wanted = bare_name(name)  # ("@Anna": a member's habit of mentioning)
        named = [s for s in bots if bare_name(s.name) == wanted]
        if not named:
            seated = ", ".join(s.name for s in bots)
            typed = rt.typed_text(t.platform, name)
            return Reply(tr(lang, "bot.unknown", name=typed, seated=seated), alert=True)
        bots = named
    staying = [s for s in bots if not s.leaving]
    if not staying:
        key = "bot.all_leaving" if not name else "bot.removed_after_hand"
        return Reply(tr(lang, key, name=bots[0].name), alert=True)
    seat = staying[-1]
    async with rt.transition(t) as tx:
        left = depart(rt, t, tx, seat)
        t.remember(request)
    if isinstance(left, str):  # after the hand, the reveal or the round
        return Reply(tr(lang, "bot.removed_after_hand", name=seat.name))
    return Reply(tr(lang, "bot.removed", name=seat.name))


def is_opener_or_admin(t: LiveTable, actor: Actor, is_admin: bool) -> bool:
    """Who may seat and stand up computer players: admins and the table's opener, or whom
    it passed to when the opener left their seat (:func:`bot.service.runtime.pass_opener`)."""
    return is_admin or actor.user_id == t.opener


def who_may(t: LiveTable, lang: str, platform: str) -> str:
    """The refusal of ``/addbot`` and ``/removebot`` to someone else, naming who may: the
    opener, or whom it passed to, by name when seated ("the table's opener" read as the one
    who left); with nobody holding it, the next player to sit down. At a tournament's table
    nobody may (R8.7): its own refusal, as an admin gets (it said "only admins and the table's
    opener can", who were refused too)."""
    if t.tournament is not None:
        return tr(lang, "bot.no_tournament")
    holder = None if t.opener is None else t.seat_of(t.opener)
    if holder is not None:
        return tr(lang, on(platform, "bot.admins_or_name"), name=holder.name)
    key = "bot.admins_or_next" if t.opener is None else "bot.admins_or_opener"
    return tr(lang, on(platform, key))
