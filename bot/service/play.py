"""The hand in progress: presses on a private hand and moving the hand on after a Confirm or a
timeout (R3.4, R8.5). Placing, moving and undoing a card before Confirm changes only the
player's street (saved in the background: a crash loses nothing that counts); Confirm is a
transition, and the Confirm that ends the hand commits its settlement and the next phase with
it (issue 10)."""

from __future__ import annotations

import time
from dataclasses import replace

from bot.model import LEAVE_CONFIRM_SECONDS, LiveTable, Reply, SeatState
from bot.presses import (
    CARD_PRESSES,
    Arrange,
    ConfirmMove,
    DiscardCard,
    PlaceCard,
    Press,
    TakeBack,
    Undo,
)
from bot.service.chinese import start_reveal
from bot.service.dealing import sync_clocks
from bot.service.runtime import SAFE_PRESS_SECONDS, Answered, Runtime, Tx
from bot.service.showdown import finish_open_face
from bot.texts import error_text, on, tr
from bot.thinking import press_seconds
from game.actions import Action, Confirm, Discard, Place, Timeout, Unplace
from game.board import Board, Box, assess_board
from game.cards import Card
from game.errors import GameError
from game.hand import Hand
from game.options import GameKind
from game.policy import Level, SeatKnowledge, decide, knowledge

__all__ = ["ARRANGE_LEVEL", "ARRANGE_SECONDS", "advance", "hand_press", "mark_away"]

#: The level "Arrange for me" places at (issue 13: as good as a strong player; the test suite
#: runs it at ``normal``, tests/conftest.py).
ARRANGE_LEVEL = Level.STRONG
#: How long "Arrange for me" waits for the decision process's ``strong`` placement (about
#: 80 ms on average, up to half a second on a quiet machine; longer when other tables'
#: decisions are queued before it or the process is starting) before it places at the
#: ``normal`` level in a thread instead (milliseconds), so that the press is answered within
#: a second (:meth:`bot.thinking.Thinker.decide`).
ARRANGE_SECONDS = 0.7
#: A fouled Confirm's second press (R2.3) counts only this many seconds or more after the
#: press that asked: a double tap (two presses a few milliseconds apart) came before the
#: question could be read, and asks again (the test suite lowers it to 0, tests/conftest.py).
FOUL_CONFIRM_MIN_SECONDS = 1.0


def advance(rt: Runtime, t: LiveTable, tx: Tx, turn_before: tuple[int, ...] = ()) -> None:
    """After a confirmed move or when a clock runs out: make the moves that are due (R8.5:
    timeouts, and the moves of a person who left), move the clocks, and finish the hand at
    showdown (Chinese Poker: the reveal begins). A computer player stood up during the hand
    (``/removebot``) goes on placing by its own level's policy until it stands up after the
    hand (:func:`bot.service.bots.bot_turn`): its moves are not made for it."""
    hand = t.hand
    assert hand is not None
    now = rt.clock()
    sync_clocks(t, now)
    rt.offer_safe(t)  # (safe_autoplay's placements made off the event loop, R8.5)
    acting = set(hand.to_act)  # (a computer player among them still to act: its turn goes on)
    made: set[int] = set()  # the boards whose street was made for them here
    while not hand.is_over:
        due = [
            s
            for s in hand.to_act
            if (p := t.player_of(s)) is None
            or (p.leaving and not p.bot)
            or t.out_of_time(t.owner(s), now)
        ]
        if not due:
            break
        made.update(due)
        for s in due:
            mark_away(t, s)
            hand.apply(Timeout(s))
            sync_clocks(t, now)
        # a player away whose board goes on to its next street at once (all place at once
        # and the others were done, R3.6; the only one not in Fantasyland): that turn's
        # grace counts from now (R8.7), not from when the clock last started (it was over
        # already: the street was placed for them in this same step). Their other board of
        # double boxes to act next shares the turn's grace, as it shares the clock (R4.2).
        for owner in {t.owner(s) for s in due if s in hand.to_act}:
            clock = t.clocks.get(owner)
            if clock is not None and clock.running and t.grace(owner) is not None:
                t.clocks[owner] = clock.stop(now).start(now)
    bot = [s for s in {*made, *hand.to_act} if (p := t.player_of(s)) is not None and p.bot]
    if any(s in made for s in bot) and not any(s in acting and s not in made for s in bot):
        # a computer player's street made by the clock, not by its own move: its pace's end,
        # past now, is no one's any more; the computer player to act next (another, or this
        # one on its next street) waits a pace of its own (Runtime._schedule_bots), not none.
        # One whose turn goes on (all place at once, R3.6) keeps it: its move is due.
        t.bot_due = None
    if hand.is_over:
        if t.options.game is GameKind.CHINESE:
            start_reveal(rt, t, tx)
        else:
            finish_open_face(rt, t, tx)
        return
    tx.group = True
    # (and whoever's street was made for them: a player who left, whose turn it no longer
    # is, saw "Your move" with every button over an empty board until the showdown)
    tx.show.update(t.owner(s) for s in set(hand.to_act) | set(turn_before) | made)
    # classic OFC's street 1 (R4.1): whoever still holds their five is told whose turn it is
    # now (their message named the player before, whose street just ended)
    tx.show.update(t.owner(s) for s in hand.order if hand.waiting_cards(s))


def mark_away(t: LiveTable, hand_seat: int) -> None:
    """The street of ``hand_seat`` is about to be made for its player by the clock (R8.5): a
    person in a tournament is away from now on (R8.7: not sat out; :meth:`LiveTable.grace`)
    until they act at the table again (:func:`bot.service.tournaments.back_from_away`). A
    player who left (their moves are made as on timeout) or a computer player is not."""
    p = t.player_of(hand_seat)
    if t.tournament is not None and p is not None and not p.bot and not p.leaving:
        p.away = True


async def hand_press(
    rt: Runtime,
    t: LiveTable,
    seat: SeatState | None,
    press: Press,
    lang: str,
    answered: Answered | None = None,
    *,
    again: bool = False,
) -> Reply:
    """A press on a player's private hand message (call under ``t.lock``). Stale presses
    (another hand, another street, an older screen) and presses for someone else's board are
    refused; the core decides the rest. ``again``: the platform delivered this very press
    again (:meth:`LiveTable.pressed_again`): a fouled Confirm's first press so delivered is
    not its second, it asks again (R2.3).

    The reply's screen is the presser's hand after the press. When the pressed message is the
    presser's own private message (``answered.own``) only the adapter writes it, from the
    reply; otherwise the private message is written here (after a Confirm: by the sender) and
    the presenter is told which message the reply is shown on (``answered.ref``)."""
    hand = t.hand
    if seat is None:
        return Reply(tr(lang, "err.not_your_table"), alert=True)
    parts = press.version.split(".")
    if hand is None or hand.is_over or len(parts) != 3 or not parts[1].isdigit():
        return _stale(rt, t, seat, lang, answered)
    if parts[0] != str(t.hand_no):  # another hand's button: its board may be another
        # player's now (double boxes, R4.2, then single boards), which is no foreign press
        return _stale(rt, t, seat, lang, answered)
    board = int(parts[1])
    if board not in hand.order or t.owner(board) != seat.seat:
        # (a board of this hand is one player's all the hand long: no button of theirs ever
        # named another's, and "This is not your table" told a player seated there a lie)
        return Reply(tr(lang, "err.forged"), alert=True)
    older = press.version != f"{t.hand_no}.{board}.{hand.seat_version(board)}"
    if older and not _this_street(hand, board, press, parts[2]):
        late = parts[2].isdigit() and not seat.leaving
        # (a player who left has their moves made as on timeout: theirs is no late press)
        late = late and hand.timed_out_at(board, int(parts[2]))
        return _stale(rt, t, seat, lang, answered, "err.timed_out" if late else None)
    if answered is not None and answered.own and seat.private_ref is None:
        # the pressed private message shows the current hand, and none other is known: it is
        # the player's private message from now on
        seat.private_ref = answered.ref
        if not seat.reachable:  # (a refused write forgot it): the group's line naming them
            # with the link to the private chat goes, in a write of its own unless this
            # step's table message carries it (R8.2, :meth:`Runtime.show_group_later`)
            seat.reachable = True
            rt.show_group_later(t, reach=True)
    # any of the player's boards to act (R4.2: one clock for both boards of double boxes): a
    # press for the other board is as late as one for the board to act, not a "not your
    # turn" refusal from the core while the timeout's move waits (the press of a player
    # away brought them back before this: their own clock counts, R8.7)
    mine = any(t.owner(s) == seat.seat for s in hand.to_act)
    if mine and t.out_of_time(seat.seat, rt.clock()):
        return await _too_late(rt, t, seat, lang, answered)
    if isinstance(press, ConfirmMove):
        if _fouling(t, hand, board) and (again or not _asked_again(rt, t, seat, press.version)):
            return Reply(tr(lang, "err.confirm_fouled"), alert=True)
        return await _confirm(rt, t, seat, board, lang, answered)
    actions: list[Action]
    if isinstance(press, PlaceCard):
        actions = [Place(board, press.card, press.box)]
    elif isinstance(press, DiscardCard):
        actions = [Discard(board, press.card)]
    elif isinstance(press, TakeBack):
        actions = [Unplace(board, press.card)]  # any card of this street, not only the last
    elif isinstance(press, Undo):
        pending = hand.pending(board)
        if not pending:
            return Reply(tr(lang, "err.nothing_to_undo"), alert=True)
        actions = [Unplace(board, pending[-1][0])]
    elif isinstance(press, Arrange):
        fresh = _afresh(hand, board) if board in hand.to_act else None
        if board in hand.to_act and not hand.to_place(board) and fresh is None:  # (all in
            # boxes: say so at once, no decision)
            return Reply(tr(lang, "err.nothing_to_arrange"), alert=True)
        # "arrange for me": a strong player's placement from what the seat may know, made in
        # the decision process (off the event loop's GIL; the table's lock keeps the hand as
        # it is meanwhile), or a normal one if that takes too long for the press's answer.
        # Its one or two decisions (the street afresh, then the rest) think PRESS_SECONDS in
        # all, not each: one deadline for both (thinking.press_seconds)
        began = time.monotonic()
        until = began + ARRANGE_SECONDS
        deadline = began + press_seconds(ARRANGE_SECONDS)
        taken_back: list[Action] = []
        try:
            moves = None
            if fresh is not None:  # the cards kept force a foul: the street's cards afresh
                moves = await rt.thinker.decide(
                    decide, fresh, ARRANGE_LEVEL, within=ARRANGE_SECONDS, until=deadline
                )
                if moves and not _fouls(hand.board_of(board), moves):
                    taken_back = [Unplace(board, c) for c, _box in hand.pending(board)]
                else:  # (fouled afresh too: the player's cards stay, the rest placed)
                    moves = None
            if moves is None and not hand.to_place(board):
                return Reply(tr(lang, "err.nothing_to_arrange"), alert=True)
            if moves is None:
                left = max(0.05, until - time.monotonic())
                moves = await rt.thinker.decide(
                    decide, knowledge(hand, board), ARRANGE_LEVEL, within=left, until=deadline
                )
        except TimeoutError:  # (hung: given up, the table freed; the clock goes on, R8.5)
            return Reply(tr(lang, "err.arrange_late"), alert=True)
        if not moves:
            return Reply(error_text(lang, "no_change"), alert=True)
        placed = [Place(board, c, b) if b else Discard(board, c) for c, b in moves]
        actions = [*taken_back, *placed]
    else:
        return Reply(tr(lang, "err.forged"), alert=True)
    try:
        for a in actions:
            hand.apply(a)  # verifies first: a refused action changes nothing
    except GameError as exc:
        if older:  # (the pressed message shows an older screen: brought up to date too)
            return _stale(rt, t, seat, lang, answered, text=error_text(lang, exc.code))
        return Reply(error_text(lang, exc.code), alert=True)
    screen = rt.render_private(t, seat)
    p = rt.presenter(t)
    if p is not None and (answered is None or not answered.own):
        ref = answered.ref if answered is not None else None
        await rt.send_private(t, p, seat, screen, answered=ref)
    rt.save_soon(t)  # a placement before Confirm: losing it in a crash loses nothing
    return Reply(screen=screen, private=True)


def _afresh(hand: Hand, board: int) -> SeatKnowledge | None:
    """What ``board``'s seat may know with this street's placements taken back (they may be
    moved freely until Confirm, R3.4; confirmed cards never move), for "Arrange for me" to
    place the street's cards from scratch: when the cards placed this street make the board
    fouled however it is finished (R2.3, :attr:`~game.board.Board.foul_certain`: a full box
    above a full box below it) and the confirmed cards alone do not. ``None`` otherwise:
    Arrange places only the cards still to place, as it always did (a dead hand's warning
    then took one Undo a card)."""
    pending = hand.pending(board)
    confirmed = hand.board_of(board)
    if not pending or confirmed.foul_certain:
        return None
    if not hand.board_of(board, with_pending=True).foul_certain:
        return None
    k = knowledge(hand, board)
    discarded = sum(1 for _card, box in pending if box is None)
    return replace(
        k,
        board=confirmed,
        cards=hand.current_cards(board),
        discards_needed=k.discards_needed + discarded,
    )


def _fouls(board: Board, moves: list[tuple[Card, Box | None]]) -> bool:
    """Whether ``board`` with ``moves`` placed (a discard: ``None``) fouls however it is
    finished (R2.3, :attr:`~game.board.Board.foul_certain`)."""
    for card, box in moves:
        if box is not None:
            board = board.with_card(box, card)
    return board.foul_certain


def _fouling(t: LiveTable, hand: Hand, board: int) -> bool:
    """Whether confirming ``board``'s street now leaves it complete and fouled (R2.3): its
    last street, or a Chinese Poker arrangement, with every card of it in a box (the core's
    own foul check, :func:`game.board.assess_board`)."""
    if board not in hand.to_act:
        return False
    placed = hand.board_of(board, with_pending=True)
    return placed.is_complete and assess_board(placed, t.options).fouled


def _asked_again(rt: Runtime, t: LiveTable, seat: SeatState, version: str) -> bool:
    """A Confirm that leaves the board fouled asks first, as Leave during a hand does: whether
    this press is the second within :data:`~bot.model.LEAVE_CONFIRM_SECONDS` on the same
    board as it was (``version``: the press's hand, board seat and the board's version, which
    any change of the board moves on), and not sooner than :data:`FOUL_CONFIRM_MIN_SECONDS`
    after the question: a sooner press (a double tap) asks again and leaves the question's
    time as it was. The first press is recorded (saved in the background, as a placement
    is: it changes nothing in the hand) and refused with a notice. Each board keeps its own
    question (R4.2: a player of double boxes may confirm both at once, all placing at once or
    in Fantasyland): asking about one board does not forget the other's."""
    now = rt.clock()
    asked = seat.foul_asked.get(version)
    if asked is not None and 0 <= now - asked <= LEAVE_CONFIRM_SECONDS:
        return now - asked >= FOUL_CONFIRM_MIN_SECONDS
    # this board's question, asked anew; an older one of the same board (changed since), or
    # one of another hand, is forgotten
    board = version.rsplit(".", 1)[0] + "."
    hand = f"{t.hand_no}."
    seat.foul_asked = {
        v: at for v, at in seat.foul_asked.items() if v.startswith(hand) and not v.startswith(board)
    }
    seat.foul_asked[version] = now
    rt.save_soon(t)
    return False


def _this_street(hand: Hand, board: int, press: Press, version: str) -> bool:
    """Whether a press of an older screen of ``board``'s current street is taken as a press
    of the current one: a card of this street put in a box, discarded or taken back (each
    names its card and box, so it means the same on the screen after; the hand accepts it
    or refuses it with its reason, R3.4). A player who taps two cards quickly presses the
    second on the screen the first has not yet replaced (the edit is on its way): refused
    as "out of date", every fast placement took a second tap. A press of another street (a
    Confirm or a timeout since), a Confirm, an Undo ("the last card") or an "Arrange for
    me" (both mean what the older screen showed) stay out of date, and so does a card's
    press that would move a card placed, discarded or taken back since its screen (the
    same press delivered again, after the player moved the card: it would undo the move)."""
    if not isinstance(press, CARD_PRESSES) or not version.isdigit():
        return False
    if not hand.street_version(board) <= int(version) < hand.seat_version(board):
        return False
    # a card moved since that screen (by this very press delivered again, or by a later
    # one): a press that would move it again no longer means what the screen showed (it
    # would undo the player's move); one that changes nothing gets the core's reason
    if hand.moved_since(board, int(version), press.card) and not _changes_nothing(
        hand, board, press
    ):
        return False
    return press.card in hand.current_cards(board)


def _changes_nothing(hand: Hand, board: int, press: PlaceCard | DiscardCard | TakeBack) -> bool:
    """Whether ``press`` would leave its card where it is: put in the box it is in,
    discarded when it is, taken back when it is in no box."""
    pending = dict(hand.pending(board))
    if isinstance(press, PlaceCard):
        return pending.get(press.card) is press.box
    if isinstance(press, DiscardCard):
        return press.card in pending and pending[press.card] is None
    return press.card not in pending


async def _too_late(
    rt: Runtime, t: LiveTable, seat: SeatState, lang: str, answered: Answered | None
) -> Reply:
    """A press of the player to act whose budget and time bank have both run out (R8.5),
    before the table's timer made the move: the timer's step is made now (the rest of the
    street placed for them, or the Fantasyland arrangement set, as on timeout; R8.6 sit-out
    follows) and the press is refused with "too late", as one arriving after the timer is
    (:func:`_stale`): a card placed, an "Arrange for me" or a Confirm one second past the
    clock must not count (it did, whenever the timer had not fired yet)."""
    hand = t.hand
    assert hand is not None
    # safe_autoplay's placements (R8.5), made off the event loop: the ones the table's timer
    # has under way, or started now; waited for a little (this holds the table), else made
    # in the step as before (the same placements)
    await rt.prepare_safe(t, SAFE_PRESS_SECONDS)
    async with rt.transition(t) as tx:
        if _shows_own_hand(answered, seat):  # the presser's message goes out with the
            tx.answered = answered  # reply (the hand after the move), not twice
        advance(rt, t, tx, hand.to_act)
        # the clock finished the street (R8.5), but the press says the player is there: not
        # away in a tournament (R8.7), their next turn has their own clock
        if (here := t.seats.get(seat.seat)) is not None and here.user_id == seat.user_id:
            here.away = False
    return _stale(rt, t, seat, lang, answered, "err.timed_out")


def _shows_own_hand(answered: Answered | None, seat: SeatState) -> bool:
    """Whether the pressed message is one only ``seat``'s player sees showing their hand: their
    own private message, or another view of it (``answered.view``: a Discord ephemeral hand).
    A refused press there is answered with the hand as it is now (:func:`_stale`)."""
    return answered is not None and (
        answered.view or (answered.own and answered.ref == seat.private_ref)
    )


def _stale(
    rt: Runtime,
    t: LiveTable,
    seat: SeatState,
    lang: str,
    answered: Answered | None,
    key: str | None = None,
    *,
    text: str | None = None,
) -> Reply:
    """A press of an older screen of the hand: refused. Pressed on the player's own current
    private message, the reply also carries the hand as it is now, which the adapter writes
    there: that message shows an older screen only when an edit of it was lost (a platform
    error, say a 500 or a 429 past its retries), and every press on it would be out of date
    for good (the player could only wait for the clock). The same on another view of the
    hand only the player sees (``answered.view``: a Discord ephemeral hand, which stops
    following the game when its interaction token is too old to edit it). ``key``: the
    refusal's text (``err.timed_out`` for a press of the screen the clock's move replaced,
    R8.5; by default "out of date" with what to do: "here are your cards" when the hand is
    written with it, else ``err.stale_hand`` in the platform's wording, :func:`on`: on
    Discord "press My cards again"); ``text``: the refusal's text as written
    (the core's reason for a card's press of an older screen of the street,
    :func:`_this_street`)."""
    shown = _shows_own_hand(answered, seat)
    if key is None:  # out of date: what to press instead
        key = "err.stale_shown" if shown else on(t.platform, "err.stale_hand")
    refused = Reply(text or tr(lang, key), alert=True)
    if not shown:
        return refused
    return Reply(refused.text, alert=True, screen=rt.render_private(t, seat), private=True)


async def _confirm(
    rt: Runtime, t: LiveTable, seat: SeatState, board: int, lang: str, answered: Answered | None
) -> Reply:
    hand = t.hand
    assert hand is not None
    # the cards left unplaced are the street's discards (R3.2): one press fewer
    left = hand.to_place(board)
    actions: list[Action] = [Confirm(board)]
    if left and len(left) == hand.discards_needed(board):
        actions = [*(Discard(board, c) for c in left), Confirm(board)]
    try:
        hand.verify(actions[0])  # refusals are cheap: no transition begins
    except GameError as exc:
        return Reply(error_text(lang, exc.code), alert=True)
    # the timeouts this Confirm's step makes next (a player who left, a clock spent for the
    # hand, R8.5): safe_autoplay's placements made off the event loop, waited for a little
    await rt.prepare_safe(t, SAFE_PRESS_SECONDS, actions)
    try:
        async with rt.transition(t) as tx:
            tx.answered = answered  # the presser's message goes out with the reply, not twice
            turn_before = hand.to_act
            for a in actions:
                hand.apply(a)
            advance(rt, t, tx, turn_before)
    except GameError as exc:  # nothing was applied: the transition rolled the table back
        return Reply(error_text(lang, exc.code), alert=True)
    # the presser's own screen after the move: the adapter shows it on the pressed message
    screen = tx.privates.get(seat.seat) or rt.render_private(t, seat)
    return Reply(screen=screen, private=True)
